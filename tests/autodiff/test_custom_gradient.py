import numpy as np
import pytest

import eagerflow as tf


def _log1pexp_naive(x):
    return tf.math.log(1 + tf.exp(x))


@tf.custom_gradient
def _log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def _grad(fn, value):
    x = tf.constant(value)
    with tf.GradientTape() as g:
        g.watch(x)
        y = fn(x)
    return g.gradient(y, x)


def test_guide_log1pexp():
    assert np.isnan(_grad(_log1pexp_naive, 100.0).numpy())
    assert _grad(_log1pexp, 100.0).numpy() == 1.0
    assert _grad(_log1pexp, 0.0).numpy() == 0.5
    assert _log1pexp(tf.constant(0.0)).numpy() == pytest.approx(np.log(2.0))


def test_inner_ops_are_not_recorded_and_structures_pass_through():
    @tf.custom_gradient
    def pair(x, y):
        def grad(d1, d2):
            return d1 * 10.0, d2 * 20.0
        return (x * 1.0, y * 1.0), grad

    x, y = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch([x, y])
        a, b = pair(x, y)
        total = a + b
    dx, dy = g.gradient(total, [x, y])
    assert (dx.numpy(), dy.numpy()) == (10.0, 20.0)


def test_variables_read_inside_need_the_keyword():
    v = tf.Variable(3.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables):
            return dy * v, [dy * x]
        return x * v, grad

    x = tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = scale(x)
    dx, dv = g.gradient(y, [x, v])
    assert (dx.numpy(), dv.numpy()) == (3.0, 2.0)

    @tf.custom_gradient
    def bad(x):
        return x * v, lambda dy: dy
    with pytest.raises(TypeError, match="variables"):
        bad(x)


def test_wrong_number_of_gradients_is_a_clear_error():
    @tf.custom_gradient
    def f(x, y):
        return x * y, lambda dy: dy  # one gradient for two inputs

    x, y = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as g:
        g.watch([x, y])
        z = f(x, y)
    with pytest.raises(ValueError, match="expected to return 2 gradient"):
        g.gradient(z, [x, y])
