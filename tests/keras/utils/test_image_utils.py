"""PIL images and arrays (keras.utils.load_img & co), compared with tf_keras 2.21's results."""
import io

import numpy as np
import pytest

from eagerflow import keras

IMAGE = (np.arange(4 * 6 * 3).reshape(4, 6, 3) * 3 % 256).astype("float32")


def test_array_to_img_and_back():
    img = keras.utils.array_to_img(IMAGE)
    assert (img.mode, img.size) == ("RGB", (6, 4))
    array = keras.utils.img_to_array(img)
    assert array.shape == (4, 6, 3) and array.dtype == np.float32
    assert array[0, :2].tolist() == [[0.0, 3.0, 7.0], [10.0, 14.0, 17.0]]  # scaled to 0-255
    assert keras.utils.img_to_array(img, data_format="channels_first").shape == (3, 4, 6)
    assert keras.utils.img_to_array(img, dtype="uint8").dtype == np.uint8
    assert keras.utils.array_to_img(IMAGE, scale=False).getpixel((1, 1)) == (63, 66, 69)
    assert keras.utils.array_to_img(IMAGE[:, :, :1]).mode == "L"
    assert keras.utils.array_to_img(IMAGE[:, :, :1] * 100, scale=False).mode == "I"
    assert keras.utils.array_to_img(np.concatenate([IMAGE, IMAGE[:, :, :1]], -1)).mode == "RGBA"


def test_save_and_load(tmp_path):
    keras.utils.save_img(tmp_path / "a.png", IMAGE)
    img = keras.utils.load_img(tmp_path / "a.png")
    assert (img.mode, img.size) == ("RGB", (6, 4))
    assert keras.utils.img_to_array(img)[0, 0].tolist() == [0.0, 3.0, 7.0]
    small = keras.utils.load_img(str(tmp_path / "a.png"), target_size=(2, 3))
    assert keras.utils.img_to_array(small)[:, :, 0].tolist() == [[75.0, 96.0, 118.0],
                                                                 [204.0, 226.0, 247.0]]
    cropped = keras.utils.load_img(tmp_path / "a.png", target_size=(3, 3),
                                   interpolation="bilinear", keep_aspect_ratio=True)
    assert keras.utils.img_to_array(cropped)[:, :, 0].tolist() == [
        [31.0, 46.0, 60.0], [110.0, 124.0, 138.0], [187.0, 202.0, 216.0]]
    gray = keras.utils.load_img(tmp_path / "a.png", color_mode="grayscale")
    assert gray.mode == "L" and keras.utils.img_to_array(gray).shape == (4, 6, 1)
    data = io.BytesIO((tmp_path / "a.png").read_bytes())
    assert keras.utils.load_img(data, color_mode="rgba").mode == "RGBA"


def test_errors(tmp_path):
    keras.utils.save_img(tmp_path / "a.png", IMAGE)
    with pytest.raises(ValueError, match=r"rank 3 \(single image\). Got array with shape"):
        keras.utils.array_to_img(np.ones((2, 2)))
    with pytest.raises(ValueError, match="Unsupported channel number: 2"):
        keras.utils.array_to_img(np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match=r"Unsupported image shape: \(2,\)"):
        keras.utils.img_to_array(np.ones((2,)))
    with pytest.raises(TypeError, match="path should be path-like or io.BytesIO"):
        keras.utils.load_img(3)
    with pytest.raises(ValueError, match="color_mode must be"):
        keras.utils.load_img(tmp_path / "a.png", color_mode="x")
    with pytest.raises(ValueError, match="Invalid interpolation method q specified"):
        keras.utils.load_img(tmp_path / "a.png", target_size=(1, 1), interpolation="q")


def test_data_format_is_taken_as_given():
    # each function's own word; no lowercasing
    with pytest.raises(ValueError, match="^Invalid data_format: Channels_Last$"):
        keras.utils.array_to_img(IMAGE, data_format="Channels_Last")
    with pytest.raises(ValueError, match="^Unknown data_format: foo$"):
        keras.utils.img_to_array(IMAGE, data_format="foo")


def test_to_ordinal():
    assert keras.utils.to_ordinal([0, 2, 1]).tolist() == [[0, 0], [1, 1], [1, 0]]
    assert keras.utils.to_ordinal([[1], [3]], num_classes=4).shape == (2, 3)
