"""x ** 0.5 follows C's pow at -inf and -0 (inf and +0), as TF's Pow does, not a square
root's NaN and -0 (values recorded from TensorFlow 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_pow_one_half_at_negative_infinity_and_negative_zero(dtype):
    x = tf.constant([-np.inf, -0.0, 4.0, np.inf], dtype)
    for out in (x ** 0.5, tf.pow(x, 0.5), tf.pow(x, tf.constant(0.5, dtype))):
        np.testing.assert_array_equal(out.numpy(), [np.inf, 0.0, 2.0, np.inf])
        assert not np.signbit(out.numpy()[1])


def test_adjust_gamma_of_negative_infinity():
    out = tf.image.adjust_gamma(tf.constant([[[-np.inf, 0.25, -0.25]]]), 0.5).numpy()
    np.testing.assert_array_equal(out, [[[np.inf, 0.5, np.nan]]])
