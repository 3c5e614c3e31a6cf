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


def test_sparse_gradients_with_int32_and_int64_indices_sum_with_int64_indices():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    v = tf.Variable(x)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.gather(x, tf.constant([1, 1], tf.int64)) + tf.gather(x, [0, 0])
        z = (tf.reduce_sum(tf.gather(v, tf.constant([1], tf.int64)))
             + tf.reduce_sum(tf.gather(v, [0, 0])))
    for g, indices in ((t.gradient(y, x), [1, 1, 0, 0]), (t.gradient(z, v), [1, 0, 0])):
        assert isinstance(g, tf.IndexedSlices)
        assert g.indices.dtype == tf.int64
        assert g.indices.numpy().tolist() == indices
    np.testing.assert_array_equal(tf.convert_to_tensor(t.gradient(y, x)), [[2, 2], [2, 2]])


def test_sparse_gradients_with_mixed_index_dtypes_in_a_function():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.gather(x, tf.constant([1, 1], tf.int64)) + tf.gather(x, [0, 0])
        g = t.gradient(y, x)
        return g.indices, tf.convert_to_tensor(g)

    indices, dense = f(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert indices.dtype == tf.int64
    np.testing.assert_array_equal(dense, [[2, 2], [2, 2]])


def test_third_derivative_of_relu6_is_zeros_not_unconnected():
    x = tf.constant([-2.0, 0.5, 3.0, 7.0])
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.nn.relu6(x)
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    np.testing.assert_array_equal(d1, [0, 1, 1, 0])
    np.testing.assert_array_equal(d2, [0, 0, 0, 0])
    assert d3 is not None
    np.testing.assert_array_equal(d3, [0, 0, 0, 0])


def test_forward_accumulator_jvp_before_its_block():
    x = tf.constant([1.0, 2.0])
    acc = tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0]))
    y = x * 2
    np.testing.assert_array_equal(acc.jvp(x), [1, 1])
    assert acc.jvp(y) is None
    np.testing.assert_array_equal(acc.jvp(y, unconnected_gradients="zero"), [0, 0])
    with acc:
        z = x * 3
    np.testing.assert_array_equal(acc.jvp(z), [3, 3])
    assert acc.jvp(y) is None
