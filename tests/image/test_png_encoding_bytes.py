"""`tf.io.encode_png` and `tf.io.encode_jpeg` of grayscale write the bytes TF writes: PNG
rows behind the filter libpng's heuristic picks, deflated with its settings and header, in
IDAT chunks of 8 KiB; grayscale JPEG sampled 1x1 (MD5s of TF 2.21's output)."""
import hashlib

import numpy as np
import pytest

import eagerflow as tf

_Y, _X = np.mgrid[0:60, 0:90]
RGB = np.stack([(_X * 2) % 256, (_Y * 3) % 256, (_X + _Y) % 256], -1).astype(np.uint8)


@pytest.mark.parametrize("image, compression, md5", [
    (RGB, -1, "cb141d227682a1f8412e7a4e2d0e791f"),
    (RGB, 9, "d078882d05357c43bf0a45a651cade6b"),
    (RGB, 0, "23894fec36df562a44b7af8bcf4df885"),  # stored: two IDAT chunks
    (((_X * _Y) % 256).astype(np.uint8)[..., None], -1, "c5d22e03c741901adbd18e6faa562473"),
    (np.stack([_X * 700, _Y * 900], -1).astype(np.uint16), -1,
     "41587d9fa66522075365066bc6995ade"),
    (np.array([[[1, 2, 3]]], np.uint8), -1, "9b8ff792eb68f557fa98a7f10de322a0"),
])
def test_png_bytes_are_tfs(image, compression, md5):
    data = tf.io.encode_png(image, compression=compression).numpy()
    assert hashlib.md5(data).hexdigest() == md5
    dtype = tf.uint16 if image.dtype == np.uint16 else tf.uint8
    np.testing.assert_array_equal(tf.io.decode_png(data, dtype=dtype), image)


@pytest.mark.parametrize("kwargs, md5", [
    ({}, "9f7e71b2c75a40023e90507404b6d481"),
    ({"quality": 30}, "0db1b14ed5b9c167260f9cc9160848f8"),
    ({"progressive": True}, "2bc8fa5f19f124b8673333a3f0b117be"),
])
def test_grayscale_jpeg_bytes_are_tfs(kwargs, md5):
    y, x = np.mgrid[0:40, 0:50]
    gray = ((x * 3 + y * 5) % 256).astype(np.uint8)[..., None]
    assert hashlib.md5(tf.io.encode_jpeg(gray, **kwargs).numpy()).hexdigest() == md5


def test_encode_png_of_a_batch_encodes_each_image():
    # (TF 2.21: any batch dimensions before [height, width, channels])
    batch = np.stack([RGB[:4, :5], RGB[4:8, :5], RGB[8:12, :5]]).reshape(3, 1, 4, 5, 3)
    encoded = tf.io.encode_png(batch)
    assert encoded.shape == (3, 1) and encoded.dtype == tf.string
    for i in range(3):
        assert encoded[i, 0].numpy() == tf.io.encode_png(batch[i, 0]).numpy()
    assert tf.io.encode_png(np.zeros((0, 2, 2, 3), np.uint8)).shape == (0,)
    spec = tf.TensorSpec([None, 4, None, 3], tf.uint8)
    assert tf.function(tf.io.encode_png).get_concrete_function(
        spec).structured_outputs.shape.as_list() == [None]
    with pytest.raises(ValueError, match=r"^Shape must be at least rank 3 but is rank 2 for "):
        tf.function(tf.io.encode_png).get_concrete_function(tf.TensorSpec([4, 3], tf.uint8))


def test_encode_png_of_an_image_without_pixels_fails_as_libpng():
    with pytest.raises(tf.errors.InternalError,
                       match=r"PNG encoding failed at the following flattened batch indices: "
                             r"0 \[Op:EncodePng\]"):
        tf.io.encode_png(np.zeros((0, 2, 3), np.uint8))
    with pytest.raises(tf.errors.InternalError, match=r"batch indices: 0, 1 \[Op:EncodePng\]"):
        tf.io.encode_png(np.zeros((2, 1, 0, 3), np.uint8))
