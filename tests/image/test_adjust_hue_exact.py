"""adjust_hue computes as TF's kernel does, step for step: the same float32 rounding (which
decides integer images' values) and the same NaN and inf results (recorded from
TensorFlow 2.21)."""
import numpy as np

import eagerflow as tf

nan, inf = float("nan"), float("inf")


def test_rounding_matches_tf():
    image = np.array([[[35, 74, 123]]], np.int8)
    assert tf.image.adjust_hue(image, 0.2).numpy().tolist() == [[[101, 35, 123]]]
    out = tf.image.adjust_hue(tf.image.convert_image_dtype(image, tf.float32), 0.2)
    np.testing.assert_array_equal(
        out.numpy(), np.array([[[0.7999997735023499, 0.27559053897857666, 0.9685039520263672]]],
                              np.float32))


def test_non_finite_pixels():
    pixels = np.array([[[nan, .2, .3], [.2, inf, .3], [-inf, .2, .3], [.2, .2, .9]]], np.float32)
    expected = np.array([[[nan, 0.20000000298023224, nan], [0.20000000298023224, inf, inf],
                          [0.30000001192092896, -inf, nan],
                          [0.8999999761581421, 0.20000000298023224, 0.7600001096725464]]],
                        np.float32)
    np.testing.assert_array_equal(tf.image.adjust_hue(pixels, 0.2).numpy(), expected)
