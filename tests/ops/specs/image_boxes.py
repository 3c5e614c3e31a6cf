"""Specs of tf.image's bounding box sampler (image_ops.py): references are TensorFlow's
recorded outputs of the cases of tests/image/box_cases.py (see record_tf_boxes.py)."""
import numpy as np

import eagerflow as tf
from tests.image import box_cases
from tests.image.tf_data import load
from tests.ops.spec import OpSpec

TF = load("boxes")
_NOT = "random: no gradient in TF"


def _case(op, name):
    return OpSpec(op, lambda: box_cases.CASES[name](tf), [], lambda: tuple(TF[name]),
                  rtol=0, atol=0, grad=_NOT, name=f"{op}-{name}")


SPECS = [
    *(_case("StatelessSampleDistortedBoundingBox", f"stateless-{i}") for i in range(5)),
    _case("StatelessSampleDistortedBoundingBox", "no-boxes"),
    _case("StatelessSampleDistortedBoundingBox", "dtypes"),
    *(_case("SampleDistortedBoundingBoxV2", f"seeded-{i}") for i in range(5)),
    _case("SampleDistortedBoundingBoxV2", "global-seed"),
]
assert all(np.asarray(TF[s.name.split("-", 1)[1]][0]).size for s in SPECS)
