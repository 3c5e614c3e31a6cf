"""Specs of the image codec ops (image_codecs.py): references are TensorFlow's decodes of the
files of tests/image/data (see tests/image/record_tf.py). Decoding and JPEG encoding need
Pillow: without it these specs skip."""
import importlib.util

import numpy as np
import pytest

import eagerflow as tf
from tests.image.codec_cases import JPEG_TOLERANCE, read
from tests.image.tf_data import load
from tests.ops.spec import OpSpec

TF = load("codecs")
_NO_GRAD = "strings"


def _pillow(fn):
    def run(*tensors):
        if importlib.util.find_spec("PIL") is None:
            pytest.skip("the image codecs decode through Pillow, which is not installed")
        return fn(*tensors)
    return run


def _decode_spec(op, fn, file, case):
    return OpSpec(op, _pillow(fn), [read(file)], lambda _: TF[case][0], name=f"{op}-{case}",
                  grad=_NO_GRAD)


def _jpeg_close_to(case):
    def check(got, args):
        ours = tf.io.decode_jpeg(got.item(), dct_method="INTEGER_ACCURATE").numpy()
        theirs = tf.io.decode_jpeg(TF[case][0].item(), dct_method="INTEGER_ACCURATE").numpy()
        np.testing.assert_allclose(ours.astype(int), theirs.astype(int), atol=JPEG_TOLERANCE)
    return check


def _png_decodes_to(image):
    def check(got, args):
        np.testing.assert_array_equal(tf.io.decode_png(got.item(), dtype=tf.as_dtype(
            image.dtype)).numpy(), image)
    return check


_RGB16 = TF["decode_png-tf_rgb16.png-0-uint16"][0]

SPECS = [
    _decode_spec("DecodePng", tf.io.decode_png, "rgb.png", "decode_png-rgb.png-0-uint8"),
    _decode_spec("DecodePng", lambda c: tf.io.decode_png(c, 1, tf.uint16), "palette.png",
                 "decode_png-palette.png-1-uint16"),
    _decode_spec("DecodePng", lambda c: tf.io.decode_png(c, 4, tf.uint16), "tf_rgb16.png",
                 "decode_png-tf_rgb16.png-4-uint16"),
    _decode_spec("DecodeJpeg", lambda c: tf.io.decode_jpeg(c, 3, dct_method="INTEGER_ACCURATE"),
                 "gray.jpg", "decode_jpeg-gray.jpg-3-accurate"),
    _decode_spec("DecodeImage", lambda c: tf.io.decode_image(c, dtype=tf.float32), "anim.gif",
                 "decode_image-anim.gif-None-float32-1"),
    _decode_spec("DecodeImage", lambda c: tf.io.decode_image(c, 3, expand_animations=False),
                 "still.gif", "decode_image-still.gif-3-uint8-0"),
    _decode_spec("DecodeBmp", tf.io.decode_bmp, "rgba.bmp", "decode_bmp-rgba.bmp-0"),
    _decode_spec("DecodeGif", tf.io.decode_gif, "anim.gif", "decode_gif-anim.gif"),
    _decode_spec("ExtractJpegShape", tf.io.extract_jpeg_shape, "rgb.jpg",
                 "extract_jpeg_shape-rgb.jpg"),
    OpSpec("EncodePng", lambda x: tf.io.encode_png(x), [_RGB16], check=_png_decodes_to(_RGB16),
           grad=_NO_GRAD),
    # (decoding 8-bit PNGs needs Pillow; 16-bit colour ones are decoded without it)
    OpSpec("EncodePng", _pillow(lambda x: tf.io.encode_png(x, 9)),
           [_RGB16[..., :2].astype(np.uint8)],
           check=_png_decodes_to(_RGB16[..., :2].astype(np.uint8)), name="EncodePng-uint8",
           grad=_NO_GRAD),
    OpSpec("EncodeJpeg", _pillow(lambda x: tf.io.encode_jpeg(x, quality=50)),
           [TF["decode_png-rgb.png-0-uint8"][0]], check=_jpeg_close_to("encode_jpeg-q50"),
           grad=_NO_GRAD),
]
SPECS.append(OpSpec(
    "EncodeJpegVariableQuality",
    _pillow(lambda x: tf.image.adjust_jpeg_quality(x, 60, dct_method="INTEGER_ACCURATE")),
    [TF["decode_png-rgb.png-0-uint8"][0].astype(np.float32) / 255],
    lambda _: TF["adjust_jpeg_quality-60-accurate"][0], grad=_NO_GRAD))
SPECS.append(_decode_spec("DecodeWebP", tf.io.decode_webp, "rgba.webp",
                          "decode_webp-rgba.webp-0"))
