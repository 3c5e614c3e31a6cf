"""tf.linalg.sqrtm and tf.linalg.tridiagonal_solve against TF's recorded values."""
import numpy as np
import pytest

import eagerflow as tf

D = [[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 6.0, 7.0]]
RHS = [[1.0], [2.0], [3.0]]
X = [[-1 / 6], [1.5], [-1.5]]


def test_sqrtm_values_and_gradient():
    np.testing.assert_allclose(tf.linalg.sqrtm(tf.constant([[4.0, 1.0], [1.0, 3.0]])),
                               [[1.981578, 0.2708323], [0.27083224, 1.7107457]], rtol=1e-5)
    # a rotation has a real root; a Jordan block too; a negative eigenvalue has none
    np.testing.assert_allclose(tf.linalg.sqrtm(tf.constant([[0.0, -1.0], [1.0, 0.0]])),
                               [[0.70710677, -0.70710677], [0.70710677, 0.70710677]], rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.sqrtm(tf.constant([[1.0, 1.0], [0.0, 1.0]])),
                               [[1.0, 0.5], [0.0, 1.0]], atol=1e-6)
    assert np.isnan(tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 4.0]])).numpy()).all()
    np.testing.assert_allclose(
        tf.linalg.sqrtm(tf.constant([[-1.0, 0.0], [0.0, 4.0]], tf.complex64)),
        [[1j, 0], [0, 2]], atol=1e-6)
    assert tf.linalg.sqrtm(tf.zeros([0, 2, 2])).shape == (0, 2, 2)
    v = tf.Variable([[2.0, 1.0], [-1.0, 3.0]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.linalg.sqrtm(v) * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_allclose(t.gradient(y, v), [[0.34772992, 0.7678447],
                                                  [0.7907409, 1.1384708]], rtol=1e-5)
    fn = tf.function(tf.linalg.sqrtm)
    np.testing.assert_allclose(fn(tf.constant([[4.0, 0.0], [0.0, 9.0]])), [[2, 0], [0, 3]])


def test_sqrtm_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank >= 2, got 1"):
        tf.linalg.sqrtm(tf.constant([1.0, 2.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square"):
        tf.linalg.sqrtm(tf.ones([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="double, float, half"):
        tf.linalg.sqrtm(tf.constant([[1, 2], [3, 4]]))


def test_tridiagonal_solve_formats():
    d = tf.constant(D)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, RHS), X, rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve((d[0], d[1], d[2]), RHS,
                                                           diagonals_format="sequence"), X,
                               rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve((d[0, :2], d[1], d[2, 1:]), RHS,
                                                           diagonals_format="sequence"), X,
                               rtol=1e-5)
    m = tf.constant([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(m, RHS, diagonals_format="matrix"),
                               [[1 / 3], [1 / 3], [2 / 3]], rtol=1e-5)
    vec = tf.linalg.tridiagonal_solve(d, tf.constant([1.0, 2.0, 3.0]), transpose_rhs=True)
    assert vec.shape == (3,)
    np.testing.assert_allclose(vec, np.ravel(X), rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.tridiagonal_solve(d, RHS, partial_pivoting=False), X,
                               rtol=1e-5)
    wide = tf.linalg.tridiagonal_solve(d, tf.constant([[1.0, 2.0, 3.0]]), transpose_rhs=True)
    np.testing.assert_allclose(wide, X, rtol=1e-5)
    batch = tf.linalg.tridiagonal_solve(tf.ones([2, 3, 3]), tf.ones([2, 3, 2]))
    np.testing.assert_allclose(batch, np.tile([[0.0], [1.0], [0.0]], (2, 1, 2)), atol=1e-6)
    # a singular system gives NaNs, as TF's kernel does
    assert np.isnan(tf.linalg.tridiagonal_solve(tf.zeros([3, 3]), tf.ones([3, 1]))).all()


def test_tridiagonal_solve_gradient_and_function():
    x = tf.Variable(D)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.linalg.tridiagonal_solve(x, RHS))
    g = t.gradient(y, x).numpy()
    np.testing.assert_allclose(g, [[2.25, 1.375, 0.0], [-0.25, -1.375, -0.25],
                                   [0.0, 0.15277779, 0.25]], rtol=1e-5)
    assert not np.signbit(g[0, 2]) and not np.signbit(g[2, 0])  # TF's +0 in unused slots

    @tf.function(input_signature=[tf.TensorSpec([None, 3, None]), tf.TensorSpec([None, None, 1])])
    def solve(diagonals, rhs):
        return tf.linalg.tridiagonal_solve(diagonals, rhs)
    np.testing.assert_allclose(solve(tf.constant([D]), tf.constant([RHS])), [X], rtol=1e-5)


def test_tridiagonal_solve_errors():
    d = tf.constant(D)
    with pytest.raises(ValueError, match="Unrecognized diagonals_format: foo"):
        tf.linalg.tridiagonal_solve(d, RHS, diagonals_format="foo")
    with pytest.raises(ValueError, match="Expected 3 diagonals got 2"):
        tf.linalg.tridiagonal_solve(tf.ones([2, 3]), RHS)
    with pytest.raises(ValueError, match="left-hand sided and right-hand sides to be equal, "
                                         "got 3 and 4"):
        tf.linalg.tridiagonal_solve(d, tf.ones([4, 1]))
