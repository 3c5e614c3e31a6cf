"""The decode ops' eager errors as TF's wrappers raise them: Python bytes, str or lists take
TF's slower path, whose messages end without the name."""
import numpy as np
import pytest

import eagerflow as tf

_DECODERS = [tf.io.decode_image, tf.io.decode_png, tf.io.decode_bmp, tf.io.decode_gif,
             tf.io.decode_webp, tf.io.extract_jpeg_shape]


@pytest.mark.parametrize("decode", _DECODERS, ids=lambda f: f.__name__)
def test_decode_error_endings(decode):
    for contents in (b"notanimage", "notanimage", [b"notanimage"]):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            decode(contents)
        assert str(info.value).endswith("]"), (contents, str(info.value))
    for contents in (tf.constant(b"notanimage"), np.array(b"notanimage")):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            decode(contents)
        assert str(info.value).endswith("] name: ")


def test_extract_jpeg_shape_of_a_vector_uses_its_words():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"}} contents must be scalar, got shape \[1\] "
                             r"\[Op:ExtractJpegShape\]$"):
        tf.io.extract_jpeg_shape([b"x"])


def test_mirror_pad_errors_of_listed_paddings_end_without_the_name():
    # sobel_edges pads with a Python list: TF's slower path, no name at the end
    for run in (lambda: tf.pad(tf.zeros((0,)), [[1, 1]], mode="REFLECT"),
                lambda: tf.pad(tf.zeros((0,)), [[1, 1]], mode="SYMMETRIC"),
                lambda: tf.image.sobel_edges(tf.zeros((1, 0, 3, 1)))):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            run()
        assert str(info.value).endswith("[Op:MirrorPad]")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.pad(tf.zeros((0,)), tf.constant([[1, 1]]), mode="REFLECT")
    assert str(info.value).endswith("[Op:MirrorPad] name: ")


@pytest.mark.parametrize("decode", [tf.io.decode_bmp, tf.io.decode_image],
                         ids=lambda f: f.__name__)
def test_a_bmp_shorter_than_its_header_fields(decode):
    for size in (2, 31):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"Incomplete bmp content, requires at least 32 bytes to find "
                                 f"the header size, width, height, and bpp, got {size} bytes"):
            decode(b"BM" + bytes(size - 2))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Number of channels inherent in the image must be 1, 3 or 4, "
                             "was 0"):
        decode(b"BM" + bytes(30))
