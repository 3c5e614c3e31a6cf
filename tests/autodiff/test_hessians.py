"""tf.hessians: the Hessian of sum(ys) per x, inside a function (values checked on TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


def test_eagerly_it_is_tf_gradients_error():
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager "
                                           "execution is enabled"):
        tf.hessians(tf.constant(1.0), tf.constant(1.0))


def test_one_hessian_per_x():
    @tf.function
    def f(x, y):
        z = tf.reduce_sum(x ** 3) + tf.reduce_sum(x * y) + y[0] ** 2
        return tf.hessians(z, [x, y])

    hx, hy = f(tf.constant([[1.0, 2.0]]), tf.constant([3.0, 4.0]))
    assert hx.shape == (1, 2, 1, 2) and hy.shape == (2, 2)
    np.testing.assert_array_equal(hx.numpy().reshape(2, 2), [[6, 0], [0, 12]])
    np.testing.assert_array_equal(hy, [[2, 0], [0, 0]])


def test_single_x_scalar_and_static_shape():
    shapes = []

    @tf.function
    def g(x):
        (h,) = tf.hessians(tf.reduce_sum(x ** 3), x)
        shapes.append(h.shape)
        return h

    np.testing.assert_array_equal(g(tf.constant([1.0, 2.0])), [[6, 0], [0, 12]])
    assert shapes == [tf.TensorShape([2, 2])]

    @tf.function
    def s(x):
        return tf.hessians(x ** 2, x)

    (h,) = s(tf.constant(3.0))
    assert h.shape == () and float(h) == 2.0


def test_unconnected_and_linear_raise_value_error():
    @tf.function
    def u(x, y):
        return tf.hessians(tf.reduce_sum(x ** 2), [x, y])

    with pytest.raises(ValueError):
        u(tf.constant([1.0]), tf.constant(2.0))

    @tf.function
    def linear(x):
        return tf.hessians(tf.reduce_sum(x * 2.0), x)

    with pytest.raises(ValueError):
        linear(tf.constant([1.0]))


def test_hessians_of_an_x_with_unknown_dims_and_tfs_messages_for_unconnected_parts():
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def unknown(x):
        return tf.hessians(tf.reduce_sum(tf.sin(x) * x[0, 0]), x)

    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    (h,) = unknown(tf.constant(x))
    want = np.zeros((2, 2, 2, 2), np.float32)  # d2/dx dx of x00 * sum(sin(x))
    want[0, 0, 0, 0] = 2 * np.cos(x[0, 0]) - x[0, 0] * np.sin(x[0, 0])
    for i, j in [(0, 1), (1, 0), (1, 1)]:
        want[0, 0, i, j] = want[i, j, 0, 0] = np.cos(x[i, j])
        want[i, j, i, j] = -x[0, 0] * np.sin(x[i, j])
    assert h.shape == (2, 2, 2, 2)
    np.testing.assert_allclose(h.numpy(), want, rtol=1e-5, atol=1e-6)

    @tf.function
    def rows_unconnected(x, y):  # d/dy of x*x*y is x*x, which y does not reach
        return tf.hessians(tf.reduce_sum(x * x * y), [x, y])

    with pytest.raises(ValueError, match=r"ValueError: None values not supported\.\n"):
        rows_unconnected(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))

    @tf.function
    def unconnected(x, y):
        return tf.hessians(tf.reduce_sum(x * x), [x, y])

    with pytest.raises(ValueError, match=r"ValueError: Tried to convert 'tensor' to a tensor "
                                         r"and failed\. Error: None values not supported\.\n"):
        unconnected(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))
