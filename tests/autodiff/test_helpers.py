import numpy as np

import eagerflow as tf
from tests.internals import eager_compat as tfe


def _grad(fn, x):
    with tf.GradientTape() as g:
        g.watch(x)
        y = fn(x)
    return g.gradient(y, x)


def test_grad_pass_through():
    x = tf.constant([0.4, 1.6])
    assert _grad(tf.grad_pass_through(tf.round), x).numpy().tolist() == [1.0, 1.0]
    assert _grad(tf.round, x) is None  # round itself has no gradient


def test_recompute_grad_matches_plain_gradient():
    v = tf.Variable(2.0)

    def block(x):
        return tf.sin(x) * x * v

    x = tf.constant([0.5, 1.5])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.reduce_sum(tf.recompute_grad(block)(x))
    dx, dv = g.gradient(y, [x, v])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.reduce_sum(block(x))
    want_dx, want_dv = g.gradient(y, [x, v])
    np.testing.assert_allclose(dx.numpy(), want_dx.numpy(), rtol=1e-6)
    np.testing.assert_allclose(dv.numpy(), want_dv.numpy(), rtol=1e-6)


def test_eager_compat_helpers():
    assert tfe.gradients_function(lambda x, y: x * y)(3.0, 4.0)[1].numpy() == 3.0
    value, grads = tfe.value_and_gradients_function(lambda x: x * x, params=[0])(5.0)
    assert value.numpy() == 25.0 and grads[0].numpy() == 10.0
    w = tf.Variable(2.0)
    pairs = tfe.implicit_gradients(lambda x: w * x)(3.0)
    assert pairs[0][0].numpy() == 3.0 and pairs[0][1] is w
    value, pairs = tfe.implicit_value_and_gradients(lambda: w * w)()
    assert value.numpy() == 4.0 and pairs[0][0].numpy() == 4.0
