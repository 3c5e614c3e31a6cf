"""tf.math.zeta and tf.math.nextafter against TF 2.21's values, edges and errors."""
import inspect

import numpy as np
import pytest

import eagerflow as tf


def test_signatures_are_tfs():
    assert str(inspect.signature(tf.math.zeta)) == "(x, q, name=None)"
    assert str(inspect.signature(tf.math.nextafter)) == "(x1, x2, name=None)"


def test_zeta_values_and_edges_are_tfs():
    x = [1.0, 1.5, 2.0, 3.0, 4.5, 7.0, 20.0, np.inf, 1.0, 0.9, np.inf, np.inf, 2.0, 3.0, 2.0,
         3.0, 2.0, 2.5, 4.0, -1.0, 0.5, 2.0, 3.0, 2.0, np.nan, 1.0]
    q = [0.5, 0.1, 3.7, 1e-3, 100.0, -3.5, 0.7, 0.5, -1.0, 1.0, 2.0, -0.5, -np.inf, np.nan, 0.0,
         -2.0, -1.5, -1.5, -0.5, 2.0, 2.0, np.inf, 0.5, 1.0, 1.0, np.nan]
    # TF 2.21's results (its float32 ones for q <= 0)
    want = [np.inf, 34.052975515075595, 0.31003785767003833, 1000000001.1988161,
            2.907517834802497e-08, 3.673803135801212e-05, 1253.2543140269481, np.inf, np.inf,
            np.nan, 0.0, np.inf, np.inf, np.nan, np.inf, np.nan, 9.379246711730957, np.nan,
            32.23484802246094, np.nan, np.nan, 0.0, 8.414398322117162, 1.6449340668482264,
            np.nan, np.inf]
    got = tf.math.zeta(tf.constant(x, tf.float64), tf.constant(q, tf.float64))
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-7)
    got32 = tf.math.zeta(tf.constant(x), tf.constant(q))
    assert got32.dtype == tf.float32
    np.testing.assert_allclose(got32.numpy(), np.float32(want), rtol=1e-6)


def test_zeta_broadcasts():
    got = tf.math.zeta(2.0, tf.constant([[1.0], [2.0]]))
    assert got.shape == (2, 1)
    np.testing.assert_allclose(got.numpy(), [[1.644934], [0.6449341]], rtol=1e-6)


@pytest.mark.parametrize("fn", [tf.math.zeta, tf.math.nextafter])
@pytest.mark.parametrize("dtype", [tf.float16, tf.int32])
def test_other_dtypes_are_invalid(fn, dtype):
    with pytest.raises(tf.errors.InvalidArgumentError, match="is not in the list of allowed"):
        fn(tf.constant([2], dtype), tf.constant([3], dtype))


def test_zeta_gradient_is_tfs():
    x, q = tf.Variable([3.0, 2.5]), tf.Variable([1.5, 2.0])
    with tf.GradientTape() as tape:
        y = tf.math.zeta(x, q)
    dx, dq = tape.gradient(y, [x, q])
    assert dx is None  # TF has only the partial derivative in q
    np.testing.assert_allclose(dq.numpy(), [-0.7045455, -0.31683472], rtol=1e-5)


def test_nextafter_values_and_gradient_are_tfs():
    got = tf.math.nextafter(tf.constant([1.0, 0.0, -1.0, np.inf]),
                            tf.constant([2.0, -1.0, -1.0, 0.0]))
    np.testing.assert_array_equal(got.numpy(), np.float32([1.0000001, -1.4e-45, -1.0,
                                                           3.4028235e+38]))
    assert tf.math.nextafter(tf.constant([1.0], tf.float64),
                             tf.constant([2.0], tf.float64)).numpy().tolist() == \
        [1.0000000000000002]
    x1, x2 = tf.Variable([3.0, 2.5]), tf.Variable([1.5, 2.0])
    with tf.GradientTape() as tape:
        y = tf.math.nextafter(x1, x2)
    d1, d2 = tape.gradient(y, [x1, x2])
    assert d1.numpy().tolist() == [1.0, 1.0] and d2.numpy().tolist() == [0.0, 0.0]


def test_in_a_function_with_unknown_shapes():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)] * 2)
    def f(x, q):
        return tf.math.zeta(x, q), tf.math.nextafter(x, q)

    z, n = f(tf.constant([2.0]), tf.constant([1.0]))
    np.testing.assert_allclose(z.numpy(), [1.644934], rtol=1e-6)
    assert n.numpy().tolist() == [np.nextafter(np.float32(2.0), np.float32(1.0))]
