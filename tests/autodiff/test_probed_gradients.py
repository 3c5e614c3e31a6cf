"""Gradients on paths found by comparing programs with TF 2.21 (values checked there)."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
def test_sqrt_gradient_in_every_float_dtype(dtype):
    x = tf.constant([4.0, 0.25], dtype)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.sqrt(x)
    g = t.gradient(y, x)
    assert g.dtype == x.dtype
    np.testing.assert_allclose(g.numpy().astype(np.float32), [0.25, 1.0])


def test_div_no_nan_gradient_of_complex_inputs_uses_conjugates():
    a = tf.constant([2.0, -3.0], tf.float64)
    with tf.GradientTape() as t:
        t.watch(a)
        y = tf.reduce_sum(tf.math.real(tf.math.divide_no_nan(tf.complex(a, a),
                                                                tf.complex(a * a, a))))
    # the same as plain division away from zero denominators
    np.testing.assert_allclose(t.gradient(y, a), [-0.28, -0.02])


def test_second_derivative_of_complex_abs_is_zero_off_the_origin():
    a = tf.constant([2.0, -3.0], tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(a)
        with tf.GradientTape() as t1:
            t1.watch(a)
            y = tf.reduce_sum(tf.abs(tf.complex(a, 0.5 * a)))
        g = t1.gradient(y, a)
    np.testing.assert_allclose(g, [1.25 ** 0.5, -(1.25 ** 0.5)])
    np.testing.assert_allclose(t2.gradient(g, a), [0.0, 0.0], atol=1e-12)
