"""tf_keras's optimizers update a variable with a gradient that broadcasts to its shape
((1, n), (n,), a scalar) as with the broadcast gradient (their update steps are elementwise
expressions); Adagrad and the legacy optimizers refuse it (values recorded from tf_keras
2.21)."""
import numpy as np
import pytest

import eagerflow as tf

NAMES = ["SGD", "Adam", "RMSprop", "Adamax", "Nadam", "Adadelta", "Ftrl", "AdamW", "Lion"]
SHAPES = [(1, 3), (3,), (), (2, 1), (1,)]


def _var():
    return tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3) / 10)


def _grad(shape):
    return tf.constant(np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32)
                       .reshape(shape) / 7)


def _two_steps(opt, grad):
    v = _var()
    opt.apply_gradients([(grad, v)])
    opt.apply_gradients([(grad, v)])
    return v.numpy()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("shape", SHAPES)
def test_broadcastable_gradient_updates_as_its_broadcast(name, shape):
    cls = getattr(tf.keras.optimizers, name)
    got = _two_steps(cls(learning_rate=0.1), _grad(shape))
    want = _two_steps(cls(learning_rate=0.1), tf.broadcast_to(_grad(shape), [2, 3]))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name, kwargs, shape, first_row", [
    ("SGD", {"momentum": 0.9}, (1, 3), [-0.041429, 0.017143, 0.075714]),
    ("Adam", {}, (3,), [-0.199995, -0.099996, 3e-06]),
    ("RMSprop", {"centered": True}, (), [-0.588227, -0.488227, -0.388227]),
    ("Ftrl", {}, (2, 1), [-0.079239, -0.070371, -0.061503]),
])
def test_broadcast_gradient_values_match_tf_keras(name, kwargs, shape, first_row):
    opt = getattr(tf.keras.optimizers, name)(learning_rate=0.1, **kwargs)
    np.testing.assert_allclose(_two_steps(opt, _grad(shape))[0], first_row, atol=2e-6)


def test_broadcast_inside_a_function_with_unknown_dims():
    v = tf.Variable(np.zeros((2, 3), np.float32))
    opt = tf.keras.optimizers.Adam(0.1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def step(g):
        opt.apply_gradients([(g, v)])

    step(tf.ones([3]))
    np.testing.assert_allclose(v.numpy(), np.full((2, 3), -0.09999901), rtol=1e-6)


def test_adagrad_and_legacy_optimizers_refuse_other_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot update variable with shape \[2,3\] using a Tensor with "
                             r"shape \[3\], shapes must be equal"):
        tf.keras.optimizers.Adagrad(0.1).apply_gradients([(tf.ones([3]), _var())])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"var and delta do not have the same shape\[2,3\] \[3\]"):
        tf.keras.optimizers.legacy.SGD(0.1).apply_gradients([(tf.ones([3]), _var())])
    with pytest.raises(tf.errors.InvalidArgumentError, match="var and grad do not have"):
        tf.keras.optimizers.legacy.Adam(0.1).apply_gradients([(tf.ones([3]), _var())])
