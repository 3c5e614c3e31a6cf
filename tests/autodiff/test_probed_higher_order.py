"""Gradients found wrong or failing by comparing programs with TF 2.21 (values checked
there, and against float64 finite differences)."""
import numpy as np
import pytest

import eagerflow as tf

X = np.array([[0.5, -1.2, 2.0], [1.5, 0.3, -0.7]], np.float32)


def _loop_plus_x(x):  # x reaches the result only through an add: no gradient list is set
    return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 0.9 + x), [0, x])[1]


def _loop_plus_square(x):
    return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v + x * x), [0, x])[1]


def _second_order(body, x):
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.reduce_sum(body(x) ** 2)
        g = t1.gradient(y, x)
        gs = tf.reduce_sum(g * g)
    return g, t2.gradient(gs, x)


@pytest.mark.parametrize("body", [_loop_plus_x, _loop_plus_square])
@pytest.mark.parametrize("shape", [[None, 3], [None, None], None])
def test_second_order_gradient_of_while_loop_with_unknown_dims(body, shape):
    fn = tf.function(lambda x: _second_order(body, x),
                     input_signature=[tf.TensorSpec(shape, tf.float32)])
    g, gg = fn(tf.constant(X))
    want_g, want_gg = _second_order(body, tf.constant(X.astype(np.float64)))
    np.testing.assert_allclose(g, want_g, rtol=1e-5)
    np.testing.assert_allclose(gg, want_gg, rtol=1e-5)
