"""tf.image.resize and keras.layers.Resizing on a ragged batch of images (each of its own
height and width): each image resized alone into a dense batch, as TF's ragged dispatch."""
import numpy as np
import pytest

import eagerflow as tf

_A = np.arange(4 * 6 * 3, dtype=np.float32).reshape(4, 6, 3)
_B = np.arange(5 * 3 * 3, dtype=np.float32).reshape(5, 3, 3)


def _images():
    rows = tf.RaggedTensor.from_row_lengths(
        np.concatenate([_A.reshape(-1, 3), _B.reshape(-1, 3)]), [6] * 4 + [3] * 5)
    return tf.RaggedTensor.from_row_lengths(rows, [4, 5])


@pytest.mark.parametrize("kwargs", [{}, {"method": "nearest", "antialias": True},
                                    {"method": "bicubic"}])
def test_each_image_resized_alone(kwargs):
    got = tf.image.resize(_images(), (2, 3), **kwargs)
    want = np.stack([tf.image.resize(x, (2, 3), **kwargs).numpy() for x in (_A, _B)])
    assert got.shape == (2, 2, 3, 3) and got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    # TF's values
    np.testing.assert_allclose(tf.image.resize(_images(), (2, 2)).numpy()[:, 0, 0],
                               [[12, 13, 14], [7.5, 8.5, 9.5]])


def test_v1_resize_and_an_empty_batch():
    got = tf.compat.v1.image.resize(_images(), (2, 2), align_corners=True)
    want = np.stack([tf.compat.v1.image.resize(x, (2, 2), align_corners=True).numpy()
                     for x in (_A, _B)])
    np.testing.assert_allclose(got.numpy(), want)
    assert tf.image.resize(_images()[:0], (2, 2)).shape == (0, 2, 2, 3)


def test_only_a_batch_of_images():
    with pytest.raises(ValueError, match="tf.image.resize: images.shape.rank must be 4 if "
                                         "images is ragged."):
        tf.image.resize(tf.ragged.constant([[[1.0], [2.0]], [[3.0]]], ragged_rank=1), (2, 2))


def test_in_a_function_of_an_unknown_batch():
    spec = tf.RaggedTensorSpec([None, None, None, 3], tf.float32, ragged_rank=2)

    @tf.function(input_signature=[spec])
    def resize(images):
        out = tf.image.resize(images, (2, 3))
        assert out.shape.as_list() == [None, 2, 3, 3]
        return out

    np.testing.assert_allclose(resize(_images()).numpy(),
                               tf.image.resize(_images(), (2, 3)).numpy())
    assert resize(_images()[:0]).shape == (0, 2, 3, 3)


@pytest.mark.parametrize("crop", [False, True])
def test_resizing_layer(crop):
    layer = tf.keras.layers.Resizing(2, 2, crop_to_aspect_ratio=crop)
    want = np.stack([layer(x).numpy() for x in (_A, _B)])
    np.testing.assert_allclose(layer(_images()).numpy(), want, rtol=1e-6)
    if crop:  # TF's values
        np.testing.assert_allclose(layer(_images()).numpy()[:, 0, 0],
                                   [[13.5, 14.5, 15.5], [12, 13, 14]])
