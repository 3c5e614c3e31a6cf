"""The structured `tf.linalg.LinearOperator*` classes against TF 2.21's recorded outcomes
(data/linear_operator_tf.json, from data/make_linear_operator_data.py), and the paths the
recording does not cover: gradients through variables, `tf.function`, batches."""
import json
import logging
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.recorded import assert_same
from tests.ops.linear_operator_cases import cases

with open(os.path.join(os.path.dirname(__file__), "data", "linear_operator_tf.json")) as _f:
    RECORDED = json.load(_f)
CASES = cases(tf)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tf(name):
    try:
        ours = CASES[name]()
    except Exception as e:  # noqa: BLE001 - as recorded
        ours = {"error": type(e).__name__}
    assert_same(json.loads(json.dumps(ours)), RECORDED[name], name, rel=1e-3, abs=2e-4)


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(RECORDED)


def test_gradients_reach_the_variables_the_operators_hold():
    axis = tf.Variable([1.0, 2.0])
    spectrum = tf.Variable([3.0, 1.0, 1.0])
    u = tf.Variable([[1.0], [0.5]])
    with tf.GradientTape() as tape:
        h = tf.linalg.LinearOperatorHouseholder(axis).matvec([1.0, 0.0])
        c = tf.linalg.LinearOperatorCirculant(spectrum, input_output_dtype=tf.float32)
        low = tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorDiag([2.0, 3.0]), u)
        loss = tf.reduce_sum(h ** 2 * [1.0, 2.0]) + c.log_abs_determinant() + \
            low.log_abs_determinant()
    grads = tape.gradient(loss, [axis, spectrum, u])
    assert all(g is not None for g in grads)
    # log|det| of the circulant is the sum of log|spectrum|
    np.testing.assert_allclose(grads[1], [1 / 3, 1.0, 1.0], rtol=1e-5)
    # d/du log det(D + u u^T) = 2 (D + u u^T)^-1 u
    dense = np.diag([2.0, 3.0]) + np.array([[1.0], [0.5]]) @ np.array([[1.0, 0.5]])
    np.testing.assert_allclose(grads[2], 2 * np.linalg.solve(dense, [[1.0], [0.5]]), rtol=1e-5)


def test_in_a_function_and_batched():
    @tf.function
    def f(perm, x):
        return tf.linalg.LinearOperatorPermutation(perm).solve(x)

    x = tf.constant([[1.0], [2.0], [3.0]])
    assert f(tf.constant([2, 0, 1]), x).numpy().ravel().tolist() == [2, 3, 1]
    kron = tf.linalg.LinearOperatorKronecker([
        tf.linalg.LinearOperatorDiag([[1.0, 2.0], [3.0, 4.0]]),
        tf.linalg.LinearOperatorFullMatrix([[1.0, 1.0], [0.0, 1.0]])])
    assert kron.shape == (2, 4, 4)
    dense = kron.to_dense().numpy()
    np.testing.assert_allclose(dense[1], np.kron(np.diag([3.0, 4.0]), [[1, 1], [0, 1]]))
    np.testing.assert_allclose(kron.determinant(), np.linalg.det(dense), rtol=1e-5)
    block = tf.linalg.LinearOperatorBlockDiag([
        tf.linalg.LinearOperatorScaledIdentity(2, [1.0, 2.0]),
        tf.linalg.LinearOperatorDiag([[5.0], [6.0]])])
    rhs = np.arange(6.0, dtype=np.float32).reshape(2, 3, 1)
    np.testing.assert_allclose(block.solve(rhs), np.linalg.solve(block.to_dense(), rhs),
                               rtol=1e-5)


def test_structured_operators_in_a_function_with_unknown_dimensions():
    la = tf.linalg
    vector = tf.TensorSpec([None], tf.float32)

    @tf.function(input_signature=[vector, tf.TensorSpec([None], tf.int32),
                                  tf.TensorSpec([None, None], tf.float32)])
    def f(k, perm, a):
        toeplitz = la.LinearOperatorToeplitz(k, k)
        house = la.LinearOperatorHouseholder(k)
        permutation = la.LinearOperatorPermutation(perm)
        tridiag = la.LinearOperatorTridiag(a)
        column = tf.reshape(a[1], [-1, 1])
        update = la.LinearOperatorLowRankUpdate(la.LinearOperatorDiag(k), column, v=column,
                                                is_self_adjoint=True)
        return (toeplitz.to_dense(), toeplitz.shape_tensor(), house.to_dense(),
                house.shape_tensor(), permutation.to_dense(), permutation.shape_tensor(),
                tridiag.shape_tensor(), update.shape_tensor(), update.solvevec(k))

    k = np.array([1.0, 2.0, 3.0], np.float32)
    a = np.array([[0.0, 1.0, 2.0], [4.0, 5.0, 6.0], [1.0, 2.0, 0.0]], np.float32)
    out = f(k, [2, 0, 1], a)
    for i in (1, 3, 5, 6, 7):
        np.testing.assert_array_equal(out[i], [3, 3])
    np.testing.assert_allclose(out[0], [[1, 2, 3], [2, 1, 2], [3, 2, 1]])
    u = k / np.linalg.norm(k)
    np.testing.assert_allclose(out[2], np.eye(3) - 2 * np.outer(u, u), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(out[4], np.eye(3)[[2, 0, 1]])
    dense = np.diag(k) + np.outer(a[1], a[1])
    np.testing.assert_allclose(out[8], np.linalg.solve(dense, k), rtol=1e-4)


def test_identities_sized_by_a_tensor_in_a_function():
    la = tf.linalg

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(a):
        n = tf.shape(a)[0]
        eye = la.LinearOperatorIdentity(n)
        scaled = la.LinearOperatorScaledIdentity(n, 2.0)
        assert eye.shape.as_list() == [None, None]
        return (eye.to_dense(), eye.shape_tensor(), eye.matmul(a), eye.diag_part(),
                eye.trace(), scaled.to_dense(), scaled.shape_tensor(), scaled.matmul(a),
                scaled.determinant(), scaled.log_abs_determinant(), scaled.trace(),
                scaled.diag_part())

    a = np.arange(9.0, dtype=np.float32).reshape(3, 3)
    out = f(a)
    np.testing.assert_allclose(out[0], np.eye(3))
    np.testing.assert_array_equal(out[1], [3, 3])
    np.testing.assert_allclose(out[2], a)
    np.testing.assert_allclose(out[3], [1, 1, 1])
    np.testing.assert_allclose(out[4], 3.0)
    np.testing.assert_allclose(out[5], 2 * np.eye(3))
    np.testing.assert_array_equal(out[6], [3, 3])
    np.testing.assert_allclose(out[7], 2 * a)
    np.testing.assert_allclose(out[8], 8.0)
    np.testing.assert_allclose(out[9], 3 * np.log(2.0), rtol=1e-6)
    np.testing.assert_allclose(out[10], 6.0)
    np.testing.assert_allclose(out[11], [2, 2, 2])
    with pytest.raises(ValueError, match="must be non-negative"):
        la.LinearOperatorIdentity(tf.constant(-1))


def test_complex_scaled_identity_log_abs_determinant_is_real():
    op = tf.linalg.LinearOperatorScaledIdentity(3, tf.constant(1 + 1j, tf.complex64))
    out = op.log_abs_determinant()
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out, 3 * np.log(np.sqrt(2.0)), rtol=1e-6)


def test_cond_and_eigvals_of_scaled_identities_and_reflections():
    la = tf.linalg
    scaled = la.LinearOperatorScaledIdentity(2, tf.constant([0.0, -3.0]))
    np.testing.assert_array_equal(scaled.cond(), [np.nan, 1.0])
    complex_scaled = la.LinearOperatorScaledIdentity(2, tf.constant(3 - 2j, tf.complex128))
    assert complex_scaled.cond().dtype == tf.complex128
    house = la.LinearOperatorHouseholder([[1.0, 0.0], [1.0, 1.0]])
    np.testing.assert_array_equal(house.cond(), [1.0, 1.0])  # (exactly)
    for op in (complex_scaled, la.LinearOperatorDiag(tf.constant([2 + 1j, 3], tf.complex128))):
        with pytest.raises(NotImplementedError, match="Only self-adjoint"):
            op.eigvals()


def test_kronecker_in_a_function_with_unknown_dimensions():
    la = tf.linalg

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(a):
        op = la.LinearOperatorKronecker([la.LinearOperatorFullMatrix(a),
                                         la.LinearOperatorDiag([1.0, 2.0])])
        return (op.to_dense(), op.shape_tensor(), op.determinant(), op.log_abs_determinant(),
                op.diag_part())

    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
    dense = np.kron(a, np.diag([1.0, 2.0]))
    out = f(a)
    np.testing.assert_allclose(out[0], dense)
    np.testing.assert_array_equal(out[1], [6, 6])
    np.testing.assert_allclose(out[2], np.linalg.det(dense), rtol=1e-5)
    np.testing.assert_allclose(out[3], np.log(np.linalg.det(dense)), rtol=1e-5)
    np.testing.assert_allclose(out[4], np.diagonal(dense))


def test_block_operators_in_a_function_with_unknown_dimensions():
    la = tf.linalg

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(a):
        full, diag = la.LinearOperatorFullMatrix(a), la.LinearOperatorDiag([1.0, 2.0])
        block = la.LinearOperatorBlockDiag([full, diag])
        lower = la.LinearOperatorBlockLowerTriangular([[full], [full, full]])
        return (block.to_dense(), block.shape_tensor(), block.matvec(tf.ones([5])),
                block.solvevec(tf.ones([5])), lower.to_dense(), lower.shape_tensor(),
                lower.solvevec(tf.ones([6])))

    a = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
    block = np.zeros([5, 5], np.float32)
    block[:3, :3], block[3:, 3:] = a, np.diag([1.0, 2.0])
    lower = np.zeros([6, 6], np.float32)
    lower[:3, :3], lower[3:, :3], lower[3:, 3:] = a, a, a
    out = f(a)
    np.testing.assert_allclose(out[0], block)
    np.testing.assert_array_equal(out[1], [5, 5])
    np.testing.assert_allclose(out[2], block.sum(1), rtol=1e-6)
    np.testing.assert_allclose(out[3], np.linalg.solve(block, np.ones(5)), rtol=1e-5)
    np.testing.assert_allclose(out[4], lower)
    np.testing.assert_array_equal(out[5], [6, 6])
    np.testing.assert_allclose(out[6], np.linalg.solve(lower, np.ones(6)), rtol=1e-5,
                               atol=1e-6)


def test_zeros_sized_by_a_tensor_in_a_function():
    la = tf.linalg

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(a):
        zeros = la.LinearOperatorZeros(tf.shape(a)[0])
        wide = la.LinearOperatorZeros(2, tf.shape(a)[1], is_square=False, is_self_adjoint=False)
        return (zeros.to_dense(), zeros.shape_tensor(), zeros.matmul(a), zeros.diag_part(),
                wide.shape_tensor(), wide.matmul(a, adjoint=True), wide.adjoint().to_dense())

    a = np.ones([3, 3], np.float32)
    out = f(a)
    np.testing.assert_array_equal(out[0], np.zeros([3, 3]))
    np.testing.assert_array_equal(out[1], [3, 3])
    np.testing.assert_array_equal(out[2], np.zeros([3, 3]))
    np.testing.assert_array_equal(out[3], np.zeros([3]))
    np.testing.assert_array_equal(out[4], [2, 3])
    assert out[5].shape == (3, 3) and out[6].shape == (3, 2)


def test_circulant_in_a_function_with_unknown_dimensions():
    la = tf.linalg

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32),
                                  tf.TensorSpec([None, None], tf.float32)])
    def f(spectrum, spectrum2d):
        op = la.LinearOperatorCirculant(spectrum, input_output_dtype=tf.float32)
        op2 = la.LinearOperatorCirculant2D(spectrum2d, input_output_dtype=tf.float32)
        return (op.to_dense(), op.shape_tensor(), op.diag_part(), op.matvec([1.0, 2.0, 3.0]),
                op2.shape_tensor(), op2.to_dense())

    spectrum = np.array([6.0, 1.0, 1.0], np.float32)
    out = f(spectrum, np.ones([2, 3], np.float32))
    static = tf.linalg.LinearOperatorCirculant(spectrum, input_output_dtype=tf.float32)
    np.testing.assert_allclose(out[0], static.to_dense(), rtol=1e-6)
    np.testing.assert_array_equal(out[1], [3, 3])
    np.testing.assert_allclose(out[2], static.diag_part(), rtol=1e-6)
    np.testing.assert_allclose(out[3], static.matvec([1.0, 2.0, 3.0]), rtol=1e-6)
    np.testing.assert_array_equal(out[4], [6, 6])
    np.testing.assert_allclose(out[5], np.eye(6), atol=1e-6)


def test_toeplitz_with_a_batch_of_columns_and_one_row():
    op = tf.linalg.LinearOperatorToeplitz([[1.0, 2.0, 3.0], [2.0, 0.0, 1.0]], [1.0, 4.0, 5.0])
    np.testing.assert_allclose(op.to_dense(), [[[1, 4, 5], [2, 1, 4], [3, 2, 1]],
                                               [[2, 4, 5], [0, 2, 4], [1, 0, 2]]])
    np.testing.assert_allclose(op.determinant(), [38.0, 14.0], rtol=1e-5)


def test_block_diagonal_of_blocks_with_different_batch_shapes():
    la = tf.linalg
    op = la.LinearOperatorBlockDiag([la.LinearOperatorDiag([[1.0, 2.0], [3.0, 1.0]]),
                                     la.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 5.0]])])
    np.testing.assert_allclose(op.diag_part(), [[1, 2, 1, 5], [3, 1, 1, 5]])
    np.testing.assert_allclose(op.trace(), [9.0, 10.0])
    np.testing.assert_allclose(op.matvec([1.0, 2.0, 3.0, 4.0]), [[1, 4, 11, 29], [3, 2, 11, 29]])
    np.testing.assert_allclose(op.solvevec([1.0, 2.0, 3.0, 4.0]),
                               [[1, 1, -7, 5], [1 / 3, 2, -7, 5]], rtol=1e-5)


def test_batch_of_tridiagonal_operators_solves_one_right_side():
    diagonals = [[[0.0, 1.0, 2.0], [4.0, 5.0, 6.0], [1.0, 2.0, 0.0]],
                 [[0.0, 3.0, 2.0], [4.0, 1.0, 6.0], [7.0, 2.0, 0.0]]]
    op = tf.linalg.LinearOperatorTridiag(diagonals)
    np.testing.assert_allclose(op.solvevec([1.0, 2.0, 3.0]),
                               [[0.25, 0.2, 0.5], [0.25, 0.0, 0.5]], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(op.solve(tf.ones([3, 1]), adjoint=True),
                               np.linalg.solve(np.swapaxes(op.to_dense(), -1, -2),
                                               np.ones([2, 3, 1])), rtol=1e-5)


def test_circulant_convolution_kernel_has_the_operators_dtype():
    spectrum = tf.signal.fft(tf.cast([1.0, 2.0, 3.0], tf.complex64))
    kernel = tf.linalg.LinearOperatorCirculant(
        spectrum, input_output_dtype=tf.float32).convolution_kernel()
    assert kernel.dtype == tf.float32  # (it was the spectrum's complex64)
    np.testing.assert_allclose(kernel.numpy(), [1.0, 2.0, 3.0], rtol=1e-6)
    kernel = tf.linalg.LinearOperatorCirculant(spectrum).convolution_kernel()
    assert kernel.dtype == tf.complex64


def test_block_diagonal_products_and_solves_of_a_list_of_blocks():
    op = tf.linalg.LinearOperatorBlockDiag([
        tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [0.0, 3.0]]),
        tf.linalg.LinearOperatorDiag([4.0])])
    # (a list of one block per operator gives a list of results; it raised)
    got = op.matmul([tf.ones([2, 1]), tf.ones([1, 1])])
    assert [y.numpy().tolist() for y in got] == [[[3.0], [3.0]], [[4.0]]]
    got = op.matmul([tf.ones([2, 1]), tf.ones([1, 1])], adjoint=True)
    assert [y.numpy().tolist() for y in got] == [[[2.0], [4.0]], [[4.0]]]
    got = op.matvec([tf.ones([2]), tf.ones([1])])
    assert [y.numpy().tolist() for y in got] == [[3.0, 3.0], [4.0]]
    got = op.solvevec([tf.constant([3.0, 3.0]), tf.ones([1])])
    np.testing.assert_allclose(got[0].numpy(), [1.0, 1.0], rtol=1e-6)
    assert got[1].numpy().tolist() == [0.25]
    assert len(op.solve([tf.ones([2, 1]), tf.ones([1, 1])])) == 2
    # a nested list of numbers is one matrix
    assert op.matmul([[1.0], [1.0], [1.0]]).numpy().tolist() == [[3.0], [3.0], [4.0]]
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        op.matmul([tf.ones([3, 1]), tf.ones([1, 1])])


def test_permutation_log_abs_determinant_is_zero_without_a_dense_matrix(caplog):
    perm = tf.linalg.LinearOperatorPermutation([[2, 0, 1], [0, 1, 2]], dtype=tf.float64)
    with caplog.at_level(logging.WARNING):
        got = perm.log_abs_determinant()
    assert got.dtype == tf.float64 and got.numpy().tolist() == [0.0, 0.0]
    assert caplog.records == []  # (it warned of the slow dense default)
