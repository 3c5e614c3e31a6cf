"""tf.linalg.eig and eigvals against TF 2.21's values, order and gradients."""
import inspect

import numpy as np
import pytest

import eagerflow as tf

A = np.random.default_rng(0).standard_normal((4, 4))
# TF 2.21's eigenvalues of A, in TF's order
E = [0.88187506, -0.54047344 + 1.7034814j, -0.54047344 - 1.7034814j, -0.66914473]
W = [1.0, 2.0, 3.0, 4.0]
# TF's gradients of sum(w re(e)) + sum(w im(e)), and of sum(w |v[:, 0]|^2) + sum(re(e))
GRAD_E = [[2.48460196, 0.95785845, -1.9468533, 2.60875493],
          [0.30545788, 2.04432714, 0.11960418, -0.97019619],
          [-0.04088175, 0.66097961, 2.57819734, -0.57872427],
          [0.41497666, -0.16655409, -0.20810546, 2.89287357]]
GRAD_V = [[0.73852148, 0.5088543, -0.2909402, 0.53223192],
          [0.19335811, 0.62371248, 0.21514443, -0.3935748],
          [0.23348212, -0.45437148, 1.25978935, -0.47524607],
          [-0.18569496, 0.36137454, -0.20661785, 1.37797669]]


def test_signatures_are_tfs():
    assert str(inspect.signature(tf.linalg.eig)) == "(tensor, name=None)"
    assert str(inspect.signature(tf.linalg.eigvals)) == "(tensor, name=None)"


@pytest.mark.parametrize("dtype, out", [(tf.float32, tf.complex64), (tf.float64, tf.complex128)])
def test_eigenvalues_in_tfs_order_and_dtype(dtype, out):
    e = tf.linalg.eigvals(tf.constant(A.astype(dtype.as_numpy_dtype)))
    assert e.dtype == out
    np.testing.assert_allclose(e.numpy(), E, rtol=1e-5)


def test_complex_input_has_the_same_eigenvalues():
    # (their order for complex input is TF's complex Schur form's, not reproduced)
    e = tf.linalg.eigvals(tf.constant(A.astype(np.complex64)))
    assert e.dtype == tf.complex64
    np.testing.assert_allclose(np.sort_complex(e.numpy()), np.sort_complex(np.array(E)),
                               rtol=1e-5, atol=1e-6)


def test_eigenvectors_satisfy_the_decomposition():
    e, v = tf.linalg.eig(tf.constant(A))
    assert v.dtype == tf.complex128 and v.shape == (4, 4)
    np.testing.assert_allclose(A @ v.numpy(), v.numpy() * e.numpy(), atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(v.numpy(), axis=0), np.ones(4))
    e, v = tf.linalg.eig(tf.constant([[2.0, 1.0], [1.0, 2.0]], tf.float64))
    np.testing.assert_allclose(e.numpy(), [3.0, 1.0])
    np.testing.assert_allclose(v.numpy(), [[0.70710678, -0.70710678], [0.70710678, 0.70710678]])


def test_gradients_are_tfs():
    x = tf.Variable(A)
    with tf.GradientTape() as tape:
        e = tf.linalg.eigvals(x)
        y = tf.reduce_sum(tf.math.real(e) * W) + tf.reduce_sum(tf.math.imag(e) * W)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), GRAD_E, rtol=1e-6)
    with tf.GradientTape() as tape:
        e, v = tf.linalg.eig(x)
        y = tf.reduce_sum(tf.abs(v[:, 0]) ** 2 * W) + tf.reduce_sum(tf.math.real(e))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), GRAD_V, rtol=1e-6)


def test_errors_and_empty_inputs():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square"):
        tf.linalg.eig(tf.constant([[1.0, 2.0, 3.0]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list of allowed"):
        tf.linalg.eigvals(tf.constant([[1, 2], [3, 4]]))
    e = tf.linalg.eigvals(tf.zeros([2, 0, 0]))
    assert e.shape == (2, 0) and e.dtype == tf.complex64


def test_in_a_function_with_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 2, 2], tf.float32)])
    def f(a):
        e, v = tf.linalg.eig(a)
        assert e.shape.as_list() == [None, 2] and v.shape.as_list() == [None, 2, 2]
        return e

    got = f(tf.constant([[[0.0, -1.0], [1.0, 0.0]]]))
    np.testing.assert_allclose(got.numpy(), [[1j, -1j]], atol=1e-7)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64, tf.complex64])
def test_nan_input_is_tfs_error(dtype):
    # (LAPACK's own text named infs or NaNs)
    for f in (tf.linalg.eig, tf.linalg.eigvals):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Eigen decomposition was not successful. The input might "
                                 "not be valid."):
            f(tf.constant([[np.nan, 1.0], [1.0, 2.0]], dtype))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Eigen decomposition"):
        tf.linalg.eigvals(tf.constant([[np.inf, 1.0], [1.0, 2.0]]))
