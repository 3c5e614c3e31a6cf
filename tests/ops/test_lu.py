"""tf.linalg.lu and the functions taking its factors, against TF 2.21's values."""
import inspect

import numpy as np
import pytest

import eagerflow as tf

A = [[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]],
     [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]]
# TF 2.21's results for A (float64)
LU = [[[7.0, 8.0, 10.0], [0.14285714285714285, 0.8571428571428572, 1.5714285714285716],
       [0.5714285714285714, 0.5000000000000002, -0.49999999999999967]],
      [[2.0, 1.0, 0.0], [0.5, 2.5, 1.0], [0.0, 0.4, 3.6]]]
P = [[2, 0, 1], [0, 1, 2]]
SOLVED = [[[-1 / 3], [2 / 3], [0.0]], [[2 / 3], [-1 / 3], [1 / 3]]]


def test_signatures_are_tfs():
    assert str(inspect.signature(tf.linalg.lu)) == "(input, output_idx_type=tf.int32, name=None)"
    for fn in (tf.linalg.lu_reconstruct, tf.linalg.lu_matrix_inverse):
        assert str(inspect.signature(fn)) == "(lower_upper, perm, validate_args=False, name=None)"
    assert str(inspect.signature(tf.linalg.lu_solve)) == \
        "(lower_upper, perm, rhs, validate_args=False, name=None)"


def test_lu_and_its_inverse_functions_match_tf():
    a = tf.constant(A, tf.float64)
    lu, p = tf.linalg.lu(a)
    assert p.dtype == tf.int32 and lu.dtype == tf.float64
    np.testing.assert_allclose(lu.numpy(), LU, rtol=1e-12, atol=1e-14)
    assert p.numpy().tolist() == P
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lu, p).numpy(), A, rtol=1e-12)
    rhs = tf.constant([[[1.0], [2.0], [3.0]], [[1.0], [0.0], [1.0]]], tf.float64)
    np.testing.assert_allclose(tf.linalg.lu_solve(lu, p, rhs).numpy(), SOLVED, atol=1e-12)
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(lu, p).numpy(), np.linalg.inv(A),
                               rtol=1e-10, atol=1e-12)


def test_unbatched_int64_permutation_and_printed_form():
    lu = tf.linalg.lu(tf.constant(A[0]), output_idx_type=tf.int64)
    assert lu.p.dtype == tf.int64 and lu.p.numpy().tolist() == P[0]
    assert repr(lu).startswith("Lu(lu=<tf.Tensor: shape=(3, 3), dtype=float32")
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(*lu).numpy(), A[0], rtol=1e-6)


def test_complex_and_empty_inputs():
    lu, p = tf.linalg.lu(tf.constant([[0.0, 1.0], [1.0, 0.0]], tf.complex64))
    assert lu.dtype == tf.complex64 and p.numpy().tolist() == [1, 0]
    np.testing.assert_array_equal(lu.numpy(), np.eye(2))
    lu, p = tf.linalg.lu(tf.zeros([2, 0, 0]))
    assert lu.shape == (2, 0, 0) and p.shape == (2, 0) and p.dtype == tf.int32
    for shape in ([0, 0], [2, 0, 0]):  # (these raised reading a first row)
        factors = tf.linalg.lu(tf.zeros(shape))
        assert tf.linalg.lu_reconstruct(*factors).shape == shape
        assert tf.linalg.lu_matrix_inverse(*factors).shape == shape
        assert tf.linalg.lu_solve(*factors, tf.zeros(shape[:-1] + [3])).shape == shape[:-1] + [3]


def test_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
        tf.linalg.lu(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square"):
        tf.linalg.lu(tf.constant([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list of allowed"):
        tf.linalg.lu(tf.constant([[1, 2], [2, 4]]))


def test_nan_pivots_as_tf():
    # (TF's pivot search passes over a NaN unless it leads the column, which it then takes
    # and reports as not invertible; the largest magnitude came first here, a NaN over all)
    nan = np.nan
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible"):
        tf.linalg.lu(tf.constant([[nan, 1.0], [1.0, 2.0]]))
    lu, p = tf.linalg.lu(tf.constant([[1.0, 1.0], [nan, 2.0]]))
    np.testing.assert_array_equal(lu.numpy(), [[1, 1], [nan, nan]])
    assert p.numpy().tolist() == [0, 1]
    lu, p = tf.linalg.lu(tf.constant([[1.0, 2.0, 3.0], [nan, 1.0, 1.0], [4.0, nan, 1.0]]))
    np.testing.assert_array_equal(lu.numpy(), [[4, nan, 1], [nan, nan, nan], [0.25, nan, nan]])
    assert p.numpy().tolist() == [2, 1, 0]


def test_lu_has_no_gradient_as_in_tf():
    x = tf.Variable(A[0])
    with tf.GradientTape() as tape:
        lu, _ = tf.linalg.lu(x)
        y = tf.reduce_sum(lu)
    with pytest.raises(LookupError, match="gradient registry has no entry for: Lu"):
        tape.gradient(y, x)


def test_gradients_flow_through_the_factors():
    a = tf.constant(A[1], tf.float64)
    lu, p = tf.linalg.lu(a)
    factors = tf.Variable(lu)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.lu_reconstruct(factors, p))
    grad = tape.gradient(y, factors).numpy()
    # sum(P^T L U) = sum(L U): d/dL = 1 U^T below the diagonal, d/dU = L^T 1 on and above it
    lower = np.tril(lu.numpy(), -1) + np.eye(3)
    upper = np.triu(lu.numpy())
    ones = np.ones((3, 3))
    np.testing.assert_allclose(grad, np.tril(ones @ upper.T, -1) + np.triu(lower.T @ ones))


def test_in_a_function_with_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 3, 3], tf.float64)])
    def f(a):
        lu, p = tf.linalg.lu(a)
        assert lu.shape.as_list() == [None, 3, 3] and p.shape.as_list() == [None, 3]
        return tf.linalg.lu_matrix_inverse(lu, p)

    np.testing.assert_allclose(f(tf.constant(A, tf.float64)).numpy(), np.linalg.inv(A),
                               rtol=1e-10, atol=1e-12)
