"""NumPy arrays given to ops whose dtype attr has a default: run eagerly, TF casts them to
the default (float32); traced, they keep their dtype where the op allows it."""
import numpy as np

import eagerflow as tf


def test_hsv_conversions_cast_numpy_arrays_to_float32():
    rgb = np.array([[0.0, 0.0, 1.0]])  # float64
    hsv = tf.image.rgb_to_hsv(rgb)
    assert hsv.dtype == tf.float32
    np.testing.assert_allclose(hsv.numpy(), [[2 / 3, 1.0, 1.0]], rtol=1e-6)
    assert tf.image.hsv_to_rgb(np.array([[0, 1, 1]], np.int32)).numpy().tolist() == [
        [1.0, 0.0, 0.0]]
    assert tf.image.hsv_to_rgb([[0, 1, 1]]).dtype == tf.float32  # (a list of ints too)


def test_draw_bounding_boxes_on_numpy_images():
    boxes = np.array([[[0.0, 0.0, 1.0, 1.0]]])
    for images in (np.zeros((1, 3, 3, 1)), np.zeros((1, 3, 3, 1), np.uint8),
                   [[[[0], [0], [0]]] * 3]):
        out = tf.image.draw_bounding_boxes(images, boxes, [[1.0]])
        assert out.dtype == tf.float32
        assert out.numpy()[0, :, :, 0].tolist() == [[1, 1, 1], [1, 0, 1], [1, 1, 1]]


def test_non_max_suppression_of_numpy_float64_boxes():
    boxes = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]])
    scores = np.array([0.9, 0.8, 0.7])
    assert tf.image.non_max_suppression(boxes, scores, 3, np.float64(0.5)).numpy().tolist() \
        == [0, 2]
    indices, kept = tf.image.non_max_suppression_with_scores(boxes, scores, 3)
    assert indices.numpy().tolist() == [0, 2] and kept.dtype == tf.float32
    out = tf.image.combined_non_max_suppression(boxes[None, :, None], scores[None, :, None],
                                                2, 2)
    assert out.nmsed_scores.dtype == tf.float32
    np.testing.assert_allclose(out.nmsed_scores.numpy(), [[0.9, 0.7]], rtol=1e-6)


def test_dilation_casts_numpy_filters_to_the_input_dtype():
    out = tf.nn.dilation2d(tf.zeros((1, 2, 2, 1)), np.ones((2, 2, 1)), [1, 1, 1, 1], "VALID",
                           "NHWC", [1, 1, 1, 1])
    assert out.dtype == tf.float32 and out.numpy().ravel().tolist() == [1.0]


def test_max_pool_casts_numpy_arrays_eagerly_only():
    x = np.arange(4, dtype=np.int32).reshape(1, 2, 2, 1)
    for pool in (tf.nn.max_pool2d, tf.nn.max_pool, tf.compat.v1.nn.max_pool):
        out = pool(x, 2, 2, "VALID")
        assert out.dtype == tf.float32 and out.numpy().ravel().tolist() == [3.0]
    assert tf.nn.max_pool2d(x.tolist(), 2, 2, "VALID").dtype == tf.int32  # (a list: its own)
    assert tf.nn.max_pool2d(tf.constant(x), 2, 2, "VALID").dtype == tf.int32

    @tf.function
    def traced():
        return (tf.nn.max_pool2d(np.ones((1, 2, 2, 1)), 2, 2, "VALID"),
                tf.image.rgb_to_hsv(np.ones((1, 3))),
                tf.image.non_max_suppression(np.array([[0, 0, 1, 1.0]]), np.array([1.0]), 1))
    assert [t.dtype for t in traced()] == [tf.float64, tf.float64, tf.int32]
