"""Specs of the image ops of tests/image/extra_cases.py (the bounding box sampler,
DecodeAndCropJpeg, ExtractGlimpse): references are TensorFlow's recorded outputs of those
cases (see tests/image/record_tf_extra.py)."""
import numpy as np

import eagerflow as tf
from tests.image import extra_cases
from tests.image.tf_data import load
from tests.internals import dispatch, registry
from tests.ops.spec import OpSpec

TF = load("extra")
_RANDOM = "random: no gradient in TF"


def _case(op, name, grad=_RANDOM):
    return OpSpec(op, lambda: extra_cases.CASES[name](tf), [], lambda: tuple(TF[name]),
                  rtol=0, atol=0, grad=grad, name=f"{op}-{name}")


def _within(name, units):
    """A check: integer outputs within `units` of TF's, of its shapes and dtypes."""
    def check(got, _):
        for g, w in zip(got, TF[name], strict=True):
            assert g.dtype == w.dtype and g.shape == w.shape
            assert np.abs(g.astype(np.int64) - w).max(initial=0) <= units
    return check


SPECS = [
    *(_case("StatelessSampleDistortedBoundingBox", f"stateless-{i}") for i in range(5)),
    _case("StatelessSampleDistortedBoundingBox", "no-boxes"),
    _case("StatelessSampleDistortedBoundingBox", "dtypes"),
    *(_case("SampleDistortedBoundingBoxV2", f"seeded-{i}") for i in range(5)),
    _case("SampleDistortedBoundingBoxV2", "global-seed"),
    # (TF decodes only the window: at its edges chroma upsampling may differ by a unit or two)
    OpSpec("DecodeAndCropJpeg", lambda: extra_cases.CASES["decode_and_crop_jpeg-rgb.jpg"](tf),
           [], check=_within("decode_and_crop_jpeg-rgb.jpg", 2), grad="image decoding",
           name="DecodeAndCropJpeg-rgb.jpg"),
    _case("DecodeAndCropJpeg", "decode_and_crop_jpeg-gray.jpg", grad="image decoding"),
    *(_case("ExtractGlimpseV2", f"extract_glimpse-{name}", grad="no gradient in TF")
      for name in extra_cases._GLIMPSES),
    _case("ExtractGlimpse", "extract_glimpse-v1", grad="no gradient in TF"),
    # (the batch of non_max_suppression_padded when its shape is known only at run time)
    OpSpec("PaddedNonMaxSuppression", lambda b, s: dispatch(
        registry.get("PaddedNonMaxSuppression"),
        (b, s, tf.constant(5), tf.constant(0.5), tf.constant(0.1)), {}),
        [extra_cases.NMS_BOXES, extra_cases.NMS_SCORES],
        lambda *_: tuple(TF["nms_padded-unknown-batch"]), grad="integer indices"),
]
