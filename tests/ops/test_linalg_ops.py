"""Linear algebra: matmul batching and flags, decompositions, errors and edge cases."""
import itertools
import logging
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow import errors, linalg as la, TensorShape
from tests.internals import registry, threads
from tests.op_errors import NAME_END, op_text

InvalidArgumentError = errors.InvalidArgumentError


def _rand(*shape, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _adj(x):
    return np.conj(np.swapaxes(x, -1, -2))


class _Static:
    def __init__(self, shape, dtype=tf.float32):
        self.shape, self.dtype = TensorShape(shape), dtype


# -- matmul: batching, broadcasting, flags -----------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(batch=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
       m=st.integers(0, 3), k=st.integers(0, 3), n=st.integers(0, 3))
def test_batched_matmul_broadcasts_like_numpy(batch, m, k, n):
    a_batch, b_batch = batch.input_shapes
    a, b = _rand(*a_batch, m, k), _rand(*b_batch, k, n, seed=1)
    got = la.matmul(a, b)
    want = np.matmul(a, b)
    assert got.shape == want.shape and got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), want, atol=1e-12)
    op = registry.get("BatchMatMulV2" if a.ndim > 2 or b.ndim > 2 else "MatMul")
    rule_shape, _ = op.shape(_Static(a.shape), _Static(b.shape))
    assert rule_shape == want.shape


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
@pytest.mark.parametrize("a_batch,b_batch", [((), ()), ((2,), ()), ((), (3, 1)), ((2, 1), (3,))])
@pytest.mark.parametrize("flags", list(itertools.product([None, "transpose", "adjoint"],
                                                         repeat=2)))
def test_transpose_and_adjoint_flags(dtype, a_batch, b_batch, flags):
    def prepare(x, flag):  # the operand as stored, and the matrix the product uses
        stored = {None: x, "transpose": np.swapaxes(x, -1, -2), "adjoint": _adj(x)}[flag]
        return stored, x
    a_stored, a = prepare(_rand(*a_batch, 2, 3, dtype=dtype), flags[0])
    b_stored, b = prepare(_rand(*b_batch, 3, 4, dtype=dtype, seed=1), flags[1])
    kwargs = {f"{flag}_{side}": True for flag, side in zip(flags, "ab") if flag}
    got = la.matmul(a_stored, b_stored, **kwargs)
    np.testing.assert_allclose(got.numpy(), np.matmul(a, b), rtol=1e-5, atol=1e-5)
    assert got.dtype == tf.as_dtype(dtype)


def test_complex_adjoint_conjugates_and_transpose_does_not():
    a = np.array([[1 + 2j, 3j], [4, 5 - 1j]])
    b = np.eye(2, dtype=complex)
    np.testing.assert_allclose(la.matmul(a, b, adjoint_a=True).numpy(), _adj(a))
    np.testing.assert_allclose(la.matmul(a, b, transpose_a=True).numpy(), a.T)
    np.testing.assert_allclose(la.matmul(b, a, adjoint_b=True).numpy(), _adj(a))
    np.testing.assert_allclose(la.adjoint(a).numpy(), _adj(a))
    np.testing.assert_allclose(la.matrix_transpose(a).numpy(), a.T)
    np.testing.assert_allclose(la.matrix_transpose(a, conjugate=True).numpy(), _adj(a))


def test_matmul_converts_non_tensor_operands_to_the_first_dtype():
    out = la.matmul([[1.0, 2.0]], [[3], [4]])
    assert out.dtype == tf.float32 and out.numpy().tolist() == [[11.0]]
    assert la.matmul(np.ones((1, 1), np.float32), np.ones((1, 1))).dtype == tf.float32
    assert la.matmul([[1, 2]], [[3], [4]]).dtype == tf.int32


def test_matmul_half_types_keep_their_dtype():
    for dtype in (tf.float16, tf.bfloat16):
        x = tf.constant(np.ones((3, 3)), dtype)
        out = la.matmul(x, x)
        assert out.dtype == dtype
        np.testing.assert_array_equal(out.numpy().astype(np.float32), 3)


def test_matmul_output_type_for_int8():
    a = tf.constant(np.full((2, 2), 100, np.int8))
    out = la.matmul(a, a, output_type=tf.int32)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[20000, 20000]] * 2


def test_matmul_with_empty_inner_dimension_gives_zeros():
    out = la.matmul(np.ones((2, 0), np.float32), np.ones((0, 3), np.float32))
    np.testing.assert_array_equal(out.numpy(), np.zeros((2, 3), np.float32))


@pytest.mark.parametrize("a,b,op,message", [
    ((2, 3), (2, 3), "MatMul", r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\]"),
    ((2,), (2, 1), "MatMul", r"In\[0\] ndims must be >= 2"),
    ((2, 2), (2,), "MatMul", r"In\[1\] ndims must be >= 2"),
    ((3,), (3,), "MatMul", r"In\[0\] ndims must be >= 2"),
    ((2, 3, 4), (4,), "BatchMatMulV2", r"In\[1\] ndims must be >= 2: 1"),
    ((2, 2, 3), (2, 2, 3), "BatchMatMulV2",  # (oneDNN's kernel adds the adjoint flags)
     r"Matrix size-incompatible: In\[0\]: \[2,2,3\], In\[1\]: \[2,2,3\] 0 0"),
    ((2, 2, 3), (3, 3, 4), "BatchMatMulV2",
     r"must have compatible batch dimensions: \[2,2,3\] vs. \[3,3,4\]"),
])
def test_matmul_shape_errors(a, b, op, message):
    with pytest.raises(InvalidArgumentError, match=message + rf" \[Op:{op}\]"):
        la.matmul(np.ones(a, np.float32), np.ones(b, np.float32))


def test_matmul_type_errors():
    with pytest.raises(InvalidArgumentError, match="Value for attr 'T' of int8"):
        la.matmul(np.ones((2, 2), np.int8), np.ones((2, 2), np.int8))
    with pytest.raises(InvalidArgumentError, match=r"input #1\(zero-based\) was expected to be "
                                                   r"a float tensor but is a double tensor"):
        la.matmul(tf.constant(np.ones((2, 2), np.float32)), tf.constant(np.ones((2, 2))))
    with pytest.raises(ValueError, match="Only one of `transpose_b` and `adjoint_b`"):
        la.matmul(np.ones((2, 2)), np.ones((2, 2)), transpose_b=True, adjoint_b=True)


def test_matmul_rules_with_unknown_dims():
    mm, bmm = registry.get("MatMul"), registry.get("BatchMatMulV2")
    shape, dtype = mm.shape(_Static([None, 3]), _Static([3, None]), transpose_a=True)
    assert shape.as_list() == [3, None] and dtype == tf.float32
    shape, _ = bmm.shape(_Static([None, 1, 2, 3]), _Static([4, 3, None]))
    assert shape.as_list() == [None, 4, 2, None]
    assert bmm.shape(_Static(None), _Static([2, 2]))[0].rank is None


def test_matvec():
    a, v = _rand(2, 3, 4), _rand(4, seed=1)
    np.testing.assert_allclose(la.matvec(a, v).numpy(), a @ v)
    np.testing.assert_allclose(la.matvec(a, _rand(3, seed=2), transpose_a=True).numpy(),
                               np.swapaxes(a, -1, -2) @ _rand(3, seed=2))


# -- decompositions ----------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_decompositions_reconstruct_their_input(dtype):
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == np.float32 else {"atol": 1e-10}
    x = _rand(2, 4, 3, dtype=dtype)
    q, r = la.qr(x)
    np.testing.assert_allclose((q.numpy() @ r.numpy()), x, **tol)
    s, u, v = la.svd(x)
    assert s.dtype == tf.as_dtype(dtype).real_dtype and v.shape == (2, 3, 3)
    np.testing.assert_allclose(u.numpy() * s.numpy()[..., None, :] @ _adj(v.numpy()), x, **tol)
    h = (x @ _adj(x) + np.eye(4)).astype(dtype)
    e, vec = la.eigh(h)
    assert e.dtype == tf.as_dtype(dtype)  # eigenvalues keep a complex input's dtype
    np.testing.assert_allclose(vec.numpy() * e.numpy()[..., None, :] @ _adj(vec.numpy()), h,
                               **tol)
    chol = la.cholesky(h).numpy()
    np.testing.assert_allclose(chol @ _adj(chol), h, **tol)
    np.testing.assert_array_equal(np.triu(chol, 1), 0)


def test_factorizations_read_only_the_lower_triangle():
    m = np.array([[4.0, 100.0], [2.0, 5.0]])
    np.testing.assert_allclose(la.cholesky(m).numpy(), [[2.0, 0.0], [1.0, 2.0]])
    np.testing.assert_allclose(la.eigvalsh(np.array([[2.0, 100.0], [1.0, 2.0]])).numpy(),
                               [1.0, 3.0])


def test_cholesky_of_indefinite_matrices_is_nan_only_where_it_fails():
    good = np.array([[4.0, 2.0], [2.0, 5.0]])
    out = la.cholesky(np.stack([np.array([[1.0, 2.0], [2.0, 1.0]]), good])).numpy()
    assert np.isnan(out[0][np.tril_indices(2)]).all()
    np.testing.assert_allclose(out[1], np.linalg.cholesky(good))



@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
def test_cholesky_of_indefinite_complex_matrices_is_zero_as_tfs(dtype):
    # TF 2.21's complex kernel leaves zeros (logdet -inf) where the real one leaves NaN
    bad = tf.constant([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 1.0]]], dtype)
    out = la.cholesky(bad).numpy()
    np.testing.assert_array_equal(out[1], np.zeros((2, 2)))
    np.testing.assert_array_equal(out[0], np.eye(2))
    assert la.logdet(tf.constant([[1.0, 2.0], [2.0, 4.0]], dtype)).numpy() == -np.inf


@pytest.mark.parametrize("dtype", [tf.complex64, tf.complex128])
def test_complex_determinants_of_non_finite_matrices_are_nan_in_both_parts(dtype):
    # TF 2.21: det and slogdet's sign are nan+nanj, the log-determinant nan+0j
    for m in ([[np.nan, 1.0], [1.0, 2.0]], [[np.inf, 1.0], [1.0, 2.0]]):
        x = tf.constant(m, dtype)
        det = la.det(x).numpy()
        sign, logabs = (t.numpy() for t in la.slogdet(x))
        assert np.isnan(det.real) and np.isnan(det.imag), m
        assert np.isnan(sign.real) and np.isnan(sign.imag), m
        assert np.isnan(logabs.real) and logabs.imag == 0, m
    np.testing.assert_allclose(la.det(tf.constant([[1.0, 2.0], [3.0, 4.0]], dtype)).numpy(), -2,
                               rtol=1e-6)

def test_qr_and_svd_full_matrices_shapes():
    x = np.ones((5, 3))
    assert [t.shape for t in la.qr(x, full_matrices=True)] == [(5, 5), (5, 3)]
    s, u, v = la.svd(x.T, full_matrices=True)
    assert (s.shape, u.shape, v.shape) == ((3,), (3, 3), (5, 5))
    assert la.svd(x, compute_uv=False).shape == (3,)


def test_determinants():
    m = np.array([[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]])
    np.testing.assert_allclose(la.det(m).numpy(), [-2.0, -1.0])
    sign, logabs = la.slogdet(m)
    np.testing.assert_allclose(sign.numpy(), [-1.0, -1.0])
    np.testing.assert_allclose(logabs.numpy(), [np.log(2.0), 0.0])
    sign, logabs = la.slogdet(np.zeros((2, 2)))
    assert sign.numpy() == 0 and logabs.numpy() == -np.inf
    sign, logabs = la.slogdet(np.array([[1 + 1j, 2], [3, 4]]))
    assert sign.dtype == logabs.dtype == tf.complex128


def test_empty_matrices():
    assert la.det(np.zeros((3, 0, 0), np.float32)).numpy().tolist() == [1.0, 1.0, 1.0]
    assert la.inv(np.zeros((0, 0))).shape == (0, 0)
    s, u, v = la.svd(np.zeros((0, 3), np.float32))
    assert (s.shape, u.shape, v.shape) == ((0,), (0, 0), (3, 0))


def test_half_precision_inputs_compute_in_float32():
    x = tf.constant([[2.0, 0.0], [0.0, 4.0]], tf.float16)
    out = la.inv(x)
    assert out.dtype == tf.float16 and out.numpy().tolist() == [[0.5, 0.0], [0.0, 0.25]]


@pytest.mark.parametrize("fn,x,op,message", [
    (la.inv, np.zeros((2, 2)), "MatrixInverse", "Input is not invertible."),
    (la.inv, np.zeros((2, 3)), "MatrixInverse", "Input matrix must be square."),
    (la.inv, np.zeros(2), "MatrixInverse", "Input tensor 0 must have rank >= 2, got 1"),
    (la.det, np.zeros((2, 3)), "MatrixDeterminant", "Input matrix must be square."),
    (la.cholesky, np.zeros((3, 2)), "Cholesky", "Input matrix must be square."),
    (la.eigh, np.zeros((3, 2)), "SelfAdjointEigV2", "Input matrix must be square."),
    (la.qr, np.zeros(2), "Qr", "Input tensor 0 must have rank >= 2, got 1"),
    (la.svd, np.zeros(2), "Svd", "Input tensor 0 must have rank >= 2, got 1"),
])
def test_square_matrix_errors(fn, x, op, message):
    with pytest.raises(InvalidArgumentError, match=re.escape(f"{message} [Op:{op}]") + NAME_END):
        fn(x)


def test_ops_reject_integer_matrices():
    # (the types in TF's order for each op)
    for fn, allowed in ((la.inv, "double, float, half, complex64, complex128"),
                        (la.solve, "double, float, half, complex64, complex128"),
                        (lambda x: la.svd(x, compute_uv=False),
                         "double, float, half, complex64, complex128"),
                        (la.det, "half, float, double, complex64, complex128"),
                        (la.slogdet, "half, float, double, complex64, complex128")):
        args = ([[1, 2], [3, 4]],) * (2 if fn is la.solve else 1)
        with pytest.raises(InvalidArgumentError, match=re.escape(
                f"Value for attr 'T' of int32 is not in the list of allowed values: {allowed}\n")):
            fn(*args)
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "of half is not in the list of allowed values: double, float, complex64, "
            "complex128\n")):
        la.tridiagonal_solve(tf.ones([3, 3], tf.float16), tf.ones([3, 1], tf.float16))


# -- solvers ----------------------------------------------------------------------------------

def test_solve_and_adjoint():
    a, b = _rand(2, 3, 3, dtype=np.complex128) + 3 * np.eye(3), _rand(2, 3, 2, seed=1)
    b = b.astype(np.complex128)
    np.testing.assert_allclose(la.solve(a, b).numpy(), np.linalg.solve(a, b))
    np.testing.assert_allclose(la.solve(a, b, adjoint=True).numpy(), np.linalg.solve(_adj(a), b))


@pytest.mark.parametrize("a,b,message", [
    ((2, 2), (3, 1), "Input matrix and rhs are incompatible."),
    ((2, 3), (2, 1), "First input (lhs) must be a square matrix."),
    ((2, 2), (2,), "All input tensors must have the same rank."),
    ((3, 2, 2), (2, 2, 1), "All input tensors must have the same outer dimensions."),
])
def test_solve_shape_errors(a, b, message):
    with pytest.raises(InvalidArgumentError) as info:
        la.solve(np.ones(a), np.ones(b))
    assert op_text(info.value) == f"{message} [Op:MatrixSolve]"


def test_solve_singular():
    with pytest.raises(InvalidArgumentError, match=r"Input matrix is not invertible\."):
        la.solve(np.zeros((2, 2)), np.ones((2, 1)))


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("adjoint", [True, False])
def test_triangular_solve_reads_one_triangle_and_broadcasts(lower, adjoint):
    a = _rand(3, 3, dtype=np.complex128) + 3 * np.eye(3)
    b = _rand(2, 3, 2, seed=1).astype(np.complex128)
    tri = np.tril(a) if lower else np.triu(a)
    want = np.linalg.solve(_adj(tri) if adjoint else tri, b)
    got = la.triangular_solve(a, b, lower=lower, adjoint=adjoint)
    np.testing.assert_allclose(got.numpy(), want, atol=1e-12)


def test_triangular_solve_with_zero_pivot_gives_inf_not_error():
    out = la.triangular_solve(np.array([[0.0, 0.0], [2.0, 1.0]]), np.ones((2, 1))).numpy()
    assert out[0, 0] == np.inf and out[1, 0] == -np.inf


def test_triangular_solve_errors():
    with pytest.raises(InvalidArgumentError, match=r"In\[0\] mismatch In\[1\] shape: 2 vs. 3: "
                                                   r"\[2,2\] \[3,1\] 0 1"):
        la.triangular_solve(np.eye(2), np.ones((3, 1)), lower=False, adjoint=True)
    with pytest.raises(InvalidArgumentError, match="must be square"):
        la.triangular_solve(np.ones((2, 3)), np.ones((2, 1)))
    with pytest.raises(InvalidArgumentError, match="compatible batch dimensions"):
        la.triangular_solve(np.ones((3, 2, 2)), np.ones((2, 2, 1)))


def test_lstsq_matches_numpy_and_fast_false_ignores_regularizer():
    a, b = _rand(6, 3), _rand(6, 2, seed=1)
    want = np.linalg.lstsq(a, b, rcond=None)[0]
    np.testing.assert_allclose(la.lstsq(a, b).numpy(), want, atol=1e-10)
    np.testing.assert_allclose(la.lstsq(a, b, l2_regularizer=3.0, fast=False).numpy(), want,
                               atol=1e-10)
    ridge = np.linalg.solve(a.T @ a + 3.0 * np.eye(3), a.T @ b)
    np.testing.assert_allclose(la.lstsq(a, b, l2_regularizer=3.0).numpy(), ridge, atol=1e-10)


# -- diagonals and bands -------------------------------------------------------------------------

def test_diag_sizes_and_errors():
    assert la.diag([1, 2], k=5).shape == (7, 7)
    assert la.diag([1, 2], num_cols=4).numpy().tolist() == [[1, 0, 0, 0], [0, 2, 0, 0]]
    with pytest.raises(InvalidArgumentError, match="The number of rows is too small."):
        la.diag([1, 2], num_rows=1)
    with pytest.raises(InvalidArgumentError, match="not consistent"):
        la.diag([1, 2], num_rows=3, num_cols=4, k=1)
    with pytest.raises(InvalidArgumentError, match=r"diagonal must be at least 1-dim"):
        la.diag(1)
    with pytest.raises(InvalidArgumentError, match="number of diagonals provided in the input"):
        la.diag([[1, 2]], k=(0, 1))


def test_diag_and_set_diag_of_a_range_of_diagonals():
    # TF 2.21's results: each align pads superdiagonals on its first side, subdiagonals on
    # its second; diagonals outside the matrix are dropped
    d = tf.constant([[1.0, 2, 3], [4, 5, 0]])
    assert la.diag(d, k=(0, 1)).numpy().tolist() == [[4, 2, 0], [0, 5, 3], [0, 0, 0]]
    assert la.diag(d, k=(-1, 0), align="LEFT_RIGHT", padding_value=7).numpy().tolist() == [
        [1, 7, 7], [5, 2, 7], [7, 0, 3]]
    assert la.diag(tf.reshape(tf.range(1, 13), [2, 3, 2]), k=(-1, 1), num_rows=4).numpy()[
        1].tolist() == [[9, 8], [11, 10], [0, 12], [0, 0]]
    assert la.diag([[1, 2], [3, 4], [5, 6]], k=(-2, 0)).numpy().tolist() == [[1, 0], [3, 2]]
    a = tf.reshape(tf.range(12.0), [3, 4])
    bands = tf.constant([[-1.0, -2, -3], [-4, -5, -6], [-7, -8, -9]])
    assert la.set_diag(a, bands, k=(-1, 1)).numpy().tolist() == [
        [-4, -1, 2, 3], [-7, -5, -2, 7], [8, -8, -6, -3]]
    assert la.set_diag(a, bands, k=(-1, 1), align="LEFT_RIGHT").numpy().tolist() == [
        [-4, -1, 2, 3], [-8, -5, -2, 7], [8, -9, -6, -3]]
    assert la.set_diag(a, [[-1.0, -2], [-4, -5]], k=(2, 3)).numpy().tolist() == [
        [0, 1, -4, -2], [4, 5, 6, -5], [8, 9, 10, 11]]
    variable = tf.Variable(d)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(la.diag(variable, k=(0, 1)) * tf.reshape(tf.range(9.0), [3, 3]))
    assert tape.gradient(y, variable).numpy().tolist() == [[0, 1, 5], [0, 4, 8]]
    with pytest.raises(InvalidArgumentError, match="longests diagonal"):
        la.set_diag(a, tf.ones([2, 2]), k=(0, 1))
    with pytest.raises(InvalidArgumentError, match="number of diagonals provided in `diag`"):
        la.set_diag(a, tf.ones([2, 2]), k=(-1, 1))
    with pytest.raises(InvalidArgumentError, match=r"lower_diag_index is out of bound: -5 It"):
        la.set_diag(a, tf.ones([2, 3]), k=(-5, 0))


def test_diag_part_and_trace():
    x = np.arange(12).reshape(4, 3)
    assert la.diag_part(x).numpy().tolist() == [0, 4, 8]
    assert la.diag_part(x, k=-1).numpy().tolist() == [3, 7, 11]
    assert la.trace(x).numpy() == 12
    with pytest.raises(InvalidArgumentError, match="lower_diag_index is out of bound: 3. It must "
                                                   "be between -4 and 3"):
        la.diag_part(x, k=3)
    with pytest.raises(InvalidArgumentError, match=r"input must be at least 2-dim, received "
                                                   r"shape: \[2\]"):
        la.trace([1, 2])


def test_band_part():
    x = np.ones((3, 4), np.float32)
    np.testing.assert_array_equal(la.band_part(x, 0, -1).numpy(), np.triu(x))
    np.testing.assert_array_equal(la.band_part(x, -1, 0).numpy(), np.tril(x))
    np.testing.assert_array_equal(la.band_part(x, 1, 1).numpy(), np.triu(np.tril(x, 1), -1))
    with pytest.raises(InvalidArgumentError, match=r"num_upper must be negative or less or equal "
                                                   r"to number of columns \(4\) got: 5"):
        la.band_part(x, 0, 5)


def test_tensor_diag_roundtrip_and_errors():
    d = np.arange(6.0).reshape(2, 3)
    full = la.tensor_diag(d)
    assert full.shape == (2, 3, 2, 3)
    np.testing.assert_array_equal(la.tensor_diag_part(full).numpy(), d)
    with pytest.raises(InvalidArgumentError, match=r"dimensions 0 and 1 do not match"):
        la.tensor_diag_part(np.ones((2, 3)))
    with pytest.raises(InvalidArgumentError, match="even"):
        la.tensor_diag_part(np.ones((2, 2, 2)))


def test_diag_rules_with_unknown_dims():
    diag_rule = registry.get("MatrixDiagV3").shape
    assert diag_rule(_Static([2, None]), k=0, num_rows=-1, num_cols=-1)[0].as_list() == \
        [2, None, None]
    assert diag_rule(_Static([None, 3]), k=1, num_rows=-1, num_cols=-1)[0].as_list() == \
        [None, 4, 4]
    part_rule = registry.get("MatrixDiagPartV3").shape
    assert part_rule(_Static([None, 4, 3]), k=-1)[0].as_list() == [None, 3]
    assert part_rule(_Static([5, None, 3]), k=0)[0].as_list() == [5, None]


# -- norms -------------------------------------------------------------------------------------

@pytest.mark.parametrize("ord,axis", [
    ("euclidean", None), (1, None), (np.inf, None), (3, 1), (0.5, 0),
    ("fro", (0, 1)), (1, (0, 1)), (np.inf, (0, 1)), (2, (0, 1)), (1, (1, 0)), (np.inf, (-1, -2)),
])
def test_norm_matches_numpy(ord, axis):
    x = _rand(3, 4)
    got = la.norm(x, ord=ord, axis=axis)
    numpy_ord = None if ord == "euclidean" else ord
    flat = x.reshape(-1) if axis is None else x
    want = np.linalg.norm(flat, numpy_ord, axis=axis)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_norm_keepdims_and_dtypes():
    assert la.norm(np.ones((2, 3, 4)), ord=2, axis=[0, 2], keepdims=True).shape == (1, 3, 1)
    assert la.norm(np.ones((2, 3)), keepdims=True).shape == (1, 1)
    euclidean = la.norm(np.array([3 + 4j]))
    assert euclidean.dtype == tf.complex128 and euclidean.numpy() == 5
    assert la.norm(np.array([3 + 4j]), ord=1).dtype == tf.float64
    assert la.norm(tf.constant([3, -4]), ord=1).numpy() == 7


def test_complex_norm_gradient_casts_no_complex_to_floats(caplog):
    # (TF's is sqrt(sum(x * conj(x))): its gradient stays complex, so no cast warning)
    x = tf.Variable([3 + 4j, 0j], dtype=tf.complex64)
    with caplog.at_level(logging.WARNING), tf.GradientTape() as tape:
        norm = tf.norm(x)
    grad = tape.gradient(norm, x)
    assert norm.numpy() == 5 and caplog.records == []
    np.testing.assert_allclose(grad.numpy(), [0.6 + 0.8j, 0], rtol=1e-6)


@pytest.mark.parametrize("kwargs,message", [
    ({"ord": "fro"}, "'ord' must be a supported vector norm, got fro"),
    ({"ord": -1}, "'ord' must be a supported vector norm, got -1"),
    ({"ord": 3, "axis": [0, 1]},
     r"'ord' must be a supported matrix norm in \['euclidean', 'fro', 1, 2, inf\], got 3"),
    ({"axis": [0, 1, 2]}, "'axis' must be None, an integer, or a tuple of 2 unique integers"),
    ({"axis": (0, 0)}, "tuple of 2 unique integers, got \\(0, 0\\)"),
])
def test_norm_argument_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        la.norm(np.ones((2, 3)), **kwargs)


def test_matrix_transpose_needs_a_matrix():
    with pytest.raises(ValueError, match=r"should be a \(batch\) matrix with rank >= 2"):
        la.matrix_transpose([1.0, 2.0])


def test_named_results_and_normalize():
    from eagerflow import linalg as la
    sign, logabs = la.slogdet(tf.constant([[0.0, 1.0], [1.0, 0.0]]))
    assert repr(la.slogdet(tf.eye(2))).startswith("LogMatrixDeterminant(sign=<tf.Tensor")
    assert la.qr(tf.eye(2))._fields == ("q", "r")
    unit, norm = la.normalize(tf.constant([[3.0, 4.0], [6.0, 8.0]]), axis=1)
    assert norm.shape == (2, 1) and np.allclose(unit.numpy(), [[0.6, 0.8], [0.6, 0.8]])


# --- set_diag, cross, logdet, pinv, matrix_rank -----------------------------------------------


def test_set_diag_checks_the_diagonal_shape_and_offset():
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "diagonal.shape[:-1] is not equal to the longests diagonal in range "
            "[lower_diag_index:upper_diag_index].\nInput shape: [2,2,3]\nDiagonal shape: [3,2]"
            "\nExpected diagonal shape: [2,2] [Op:MatrixSetDiagV3]")):
        tf.linalg.set_diag(tf.ones([2, 2, 3]), tf.ones([3, 2]))
    with pytest.raises(InvalidArgumentError, match="out of bound: 5 It must be between -2 and 3"):
        tf.linalg.set_diag(tf.ones([2, 3]), [1.0, 2.0], k=5)
    with pytest.raises(InvalidArgumentError, match="at least 2-dim, received shape: \\[3\\]"):
        tf.linalg.set_diag(tf.ones([3]), [1.0])


def test_set_diag_gradient_splits_between_input_and_diagonal():
    x, d = tf.ones([2, 3]), tf.constant([5.0, 6.0])
    with tf.GradientTape() as tape:
        tape.watch([x, d])
        y = tf.linalg.set_diag(x, d, k=1) * tf.reshape(tf.range(6.0), [2, 3])
    dx, dd = tape.gradient(y, [x, d])
    assert dx.numpy().tolist() == [[0.0, 0.0, 2.0], [3.0, 4.0, 0.0]]
    assert dd.numpy().tolist() == [1.0, 5.0]


def test_cross_errors_follow_tensorflow():
    with pytest.raises(errors.FailedPreconditionError, match="only defined for 3-element"):
        tf.linalg.cross(tf.ones([2]), tf.ones([2]))
    with pytest.raises(InvalidArgumentError, match=re.escape("same shape: [2,3] vs. [3]")):
        tf.linalg.cross(tf.ones([2, 3]), tf.ones([3]))
    with pytest.raises(InvalidArgumentError, match="int32 tensor but is a float tensor"):
        tf.linalg.cross(tf.ones([3], tf.int32), tf.ones([3]))


def test_logdet_is_real_for_complex_input():
    out = tf.linalg.logdet(tf.constant([[4.0, 2.0], [2.0, 3.0]], tf.complex64))
    assert out.dtype == tf.float32
    assert np.isclose(out.numpy(), np.log(8.0))


def test_pinv_and_matrix_rank_of_a_singular_matrix():
    a = tf.constant([[1.0, 2.0], [2.0, 4.0]], tf.float64)
    np.testing.assert_allclose(tf.linalg.pinv(a).numpy(), np.linalg.pinv(a.numpy()))
    assert tf.linalg.matrix_rank(a).numpy() == 1
    assert tf.linalg.matrix_rank(tf.eye(3), tol=2.0).numpy() == 0
    with pytest.raises(TypeError, match="must have `float`-like `dtype` \\(saw int32\\)"):
        tf.linalg.pinv(tf.ones([2, 2], tf.int32))
    with pytest.raises(ValueError, match="at least 2 dimensions \\(saw: 1\\)"):
        tf.linalg.matrix_rank(tf.ones([3]))


def test_pinv_inside_function_with_unknown_shape():
    f = tf.function(tf.linalg.pinv, input_signature=[tf.TensorSpec([None, None], tf.float64)])
    a = np.array([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])
    np.testing.assert_allclose(f(a).numpy(), np.linalg.pinv(a))


# -- non-finite inputs (TF's results: NaN where TF gives NaN, its error where it raises) ------

_SPD = np.array([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]], np.float32)


def _with(value, *positions, base=_SPD):
    x = base.copy()
    for pos in positions:
        x[pos] = value
    return x


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_slogdet_of_a_nan_log_determinant_has_a_nan_sign(value):
    sign, logabs = tf.linalg.slogdet(_with(value, (0, 2)))
    assert np.isnan(sign.numpy()) and np.isnan(logabs.numpy())
    sign, logabs = tf.linalg.slogdet(np.stack([_SPD, np.full((3, 3), np.nan, np.float32)]))
    np.testing.assert_array_equal(np.isnan(sign.numpy()), [False, True])
    assert sign.numpy()[0] == 1.0


@pytest.mark.parametrize("op, message", [
    (lambda x: tf.linalg.inv(x), "Input is not invertible. [Op:MatrixInverse]"),
    (lambda x: tf.linalg.solve(x, np.ones((3, 1), np.float32)),
     "Input matrix is not invertible. [Op:MatrixSolve]")])
def test_lu_ops_reject_a_nan_first_pivot_and_propagate_later_nans(op, message):
    for x in (_with(np.nan, (0, 0)), np.full((3, 3), np.nan, np.float32)):
        with pytest.raises(InvalidArgumentError) as info:
            op(x)
        assert op_text(info.value) == message
    assert np.isnan(op(_with(np.nan, (2, 0))).numpy()).all()
    assert np.isfinite(op(_with(np.inf, (0, 0))).numpy()).all()  # TF: 1/inf = 0, no error


@pytest.mark.parametrize("compute_v", [True, False])
def test_eigh_of_non_finite_lower_triangles_fails_as_tf_does(compute_v):
    op = tf.linalg.eigh if compute_v else tf.linalg.eigvalsh
    for x in (_with(np.nan, (0, 0)), _with(np.inf, (2, 0)), _with(np.nan, (1, 1)),
              _with(np.inf, (0, 0), (2, 2)), np.stack([_SPD, _with(-np.inf, (2, 0))])):
        with pytest.raises(InvalidArgumentError, match=r"Self-adjoint eigen decomposition was not "
                           r"successful. The input might not be valid. \[Op:SelfAdjointEigV2\]"):
            op(x)
    # the upper triangle is not read; a lone infinite first entry leaves a diagonal matrix
    np.testing.assert_allclose(tf.linalg.eigvalsh(_with(np.nan, (0, 2))),
                               np.linalg.eigvalsh(_SPD), rtol=1e-5)
    e, v = tf.linalg.eigh(np.stack([_with(np.inf, (0, 0)), _SPD]))
    assert np.isnan(e.numpy()[0]).all() and np.isfinite(e.numpy()[1]).all()
    np.testing.assert_array_equal(v.numpy()[0], np.eye(3))


@pytest.mark.parametrize("position", [(0, 0), (2, 0), (0, 2)])
def test_svd_of_a_nan_matrix_is_all_nan(position, value=np.nan):
    # (infinite entries are checked in a subprocess below: LAPACK could hang on them)
    x = np.stack([_SPD, _with(value, position)])
    s, u, v = tf.linalg.svd(x)
    for out in (s, u, v, tf.linalg.svd(x, compute_uv=False)):
        assert np.isfinite(out.numpy()[0]).all() and np.isnan(out.numpy()[1]).all()
    np.testing.assert_array_equal(tf.linalg.matrix_rank(x), [3, 0])
    pinv = tf.linalg.pinv(x).numpy()
    assert np.isfinite(pinv[0]).all() and np.isnan(pinv[1]).all()
    norm = tf.norm(x, ord=2, axis=[-2, -1]).numpy()
    assert np.isfinite(norm[0]) and np.isnan(norm[1])
    # TF's exact least squares finds rank 0, so a zero solution
    np.testing.assert_array_equal(
        tf.linalg.lstsq(x, np.ones((2, 3, 1), np.float32), fast=False).numpy()[1], 0)


_SVD_CALLS = """
import numpy as np, eagerflow as tf
for value in (np.inf, -np.inf):
    for position in ((0, 0), (2, 0), (0, 2)):
        x = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], np.float32)
        x[position] = value
        for out in (*tf.linalg.svd(x), tf.linalg.svd(x, compute_uv=False), tf.linalg.pinv(x),
                    tf.norm(x, ord=2, axis=[0, 1])):
            assert np.isnan(out.numpy()).all()
        assert tf.linalg.matrix_rank(x).numpy() == 0
        lstsq = tf.linalg.lstsq(x, np.ones((3, 1), np.float32), fast=False)
        assert (lstsq.numpy() == 0).all()
print("returned")
"""


def test_svd_based_ops_return_on_infinite_inputs():
    """LAPACK's SVD can loop forever on an infinite entry; a hang shows here as a timeout."""
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "src"))
    out = subprocess.run([sys.executable, "-c", _SVD_CALLS], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "returned"


def test_qr_of_non_finite_matrices_places_nans_as_tf_does():
    q, r = tf.linalg.qr(_with(np.inf, (0, 0)))
    assert np.isnan(q.numpy()).all()
    np.testing.assert_array_equal(r.numpy(), [[-np.inf, np.nan, np.nan], [0, np.nan, np.nan],
                                              [0, 0, np.nan]])
    q, r = tf.linalg.qr(_with(np.inf, (0, 2)))  # only the last column is touched
    assert np.isfinite(q.numpy()).all()
    np.testing.assert_array_equal(np.isnan(r.numpy()), [[0, 0, 1], [0, 0, 1], [0, 0, 1]])
    # the reduced Q applies each reflector to whole rows, the full Q to its trailing corner
    x = _with(np.nan, (1, 1))
    assert np.isnan(tf.linalg.qr(x).q.numpy()).all()
    q = tf.linalg.qr(x, full_matrices=True).q.numpy()
    np.testing.assert_allclose(q[:, 0], [-0.9701425, -0.2425356, 0.0], rtol=1e-5)
    assert np.isnan(q[:, 1:]).all()


def test_cholesky_and_logdet_propagate_infinities_as_tf_does():
    out = tf.linalg.cholesky(np.full((3, 3), np.inf, np.float32)).numpy()
    np.testing.assert_array_equal(out, [[np.inf, 0, 0], [np.nan, np.nan, 0],
                                        [np.nan, np.nan, np.nan]])
    assert np.isnan(tf.linalg.logdet(np.full((3, 3), np.inf, np.float32)).numpy())
    assert tf.linalg.logdet(_with(np.inf, (0, 0))).numpy() == np.inf


def test_triangular_solve_keeps_non_finite_entries_in_their_rows():
    rhs = np.ones((3, 2), np.float32)
    out = tf.linalg.triangular_solve(_with(np.nan, (2, 0)), rhs).numpy()
    assert np.isfinite(out[:2]).all() and np.isnan(out[2]).all()  # no pivoting spreads them
    assert np.isnan(tf.linalg.triangular_solve(_with(np.nan, (0, 0)), rhs).numpy()).all()
    out = tf.linalg.triangular_solve(np.full((3, 3), np.inf, np.float32), rhs).numpy()
    np.testing.assert_array_equal(out[0], 0)
    assert np.isnan(out[1:]).all()
    out = tf.linalg.triangular_solve(_with(np.inf, (0, 2)), rhs, lower=False).numpy()
    assert (out[0] == -np.inf).all() and np.isfinite(out[1:]).all()
    np.testing.assert_allclose(tf.linalg.triangular_solve(_with(np.inf, (0, 0)), rhs)[:, 0],
                               [0, 1 / 3, 1 / 3], rtol=1e-6)


# -- empty matrices and batches ----------------------------------------------------------------

@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3), (2, 0, 0)])
def test_logdet_and_determinants_of_empty_matrices(shape):
    batch = shape[:-2]
    x = np.zeros(shape, np.float32)
    for out in (tf.linalg.logdet(x), tf.linalg.slogdet(x).log_abs_determinant):
        assert out.shape == batch and out.dtype == tf.float32
        np.testing.assert_array_equal(out, np.zeros(batch))
    np.testing.assert_array_equal(tf.linalg.det(x), np.ones(batch))
    np.testing.assert_array_equal(tf.linalg.slogdet(x).sign, np.ones(batch))
    assert tf.function(tf.linalg.logdet)(x).shape == batch
    for op in (tf.linalg.inv, tf.linalg.cholesky):
        assert op(x).shape == shape
    assert tf.linalg.eigvalsh(x).shape == shape[:-1]
    assert tf.linalg.svd(x, compute_uv=False).shape == shape[:-1]


# -- ranks: TF's graph-time ValueError, and its eager errors ---------------------------------

def _traced(fn, shape):
    return tf.function(fn, input_signature=[tf.TensorSpec(shape, tf.float32)])


@pytest.mark.parametrize("fn, op, rank", [
    (tf.linalg.diag, "MatrixDiagV3", 1), (tf.linalg.diag_part, "MatrixDiagPartV3", 2),
    (lambda t: tf.linalg.set_diag(t, t), "MatrixSetDiagV3", 2), (tf.linalg.trace, "", 2),
    (tf.linalg.inv, "MatrixInverse", 2), (tf.linalg.det, "MatrixDeterminant", 2),
    (tf.linalg.cholesky, "Cholesky", 2), (tf.linalg.eigvalsh, "SelfAdjointEigV2", 2),
    (tf.linalg.qr, "Qr", 2), (lambda t: tf.linalg.svd(t, compute_uv=False), "Svd", 2),
    (lambda t: tf.linalg.cross(t, t), "Cross", 1),
    (lambda t: tf.linalg.matmul(t, t), "MatMul", 2)])
@pytest.mark.parametrize("dims", [[], [None]])
def test_inputs_of_too_low_rank_fail_when_traced(fn, op, rank, dims):
    dims = dims[:rank - 1]
    exact = "" if op == "MatMul" else "at least "
    with pytest.raises(ValueError, match=rf"Shape must be {exact}rank {rank} but is rank "
                                         rf"{len(dims)} for '.*{op}"):
        _traced(fn, dims)(np.zeros([3] * len(dims), np.float32))


def test_non_square_matrices_fail_when_traced():
    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 2 and 3 for "
                                         r"'.*MatrixInverse.*' with input shapes: \[2,3\]\."):
        _traced(tf.linalg.inv, [2, 3])(np.zeros((2, 3), np.float32))
    assert _traced(tf.linalg.inv, [None, None]).get_concrete_function() is not None


def test_cross_of_scalars_fails_as_tf_does():
    with pytest.raises(InvalidArgumentError) as info:
        tf.linalg.cross(tf.constant(1.0), tf.constant(2.0))
    assert op_text(info.value) == "Input must be at least 1D[] [Op:Cross]"


def test_matrix_transpose_and_spectral_norm_of_unknown_rank():
    x = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    np.testing.assert_array_equal(_traced(tf.linalg.matrix_transpose, None)(x),
                                  np.swapaxes(x, -1, -2))
    # any dtype, as TF's transpose by a run-time permutation (uint8 and strings too)
    small = tf.function(lambda t: tf.linalg.matrix_transpose(t, conjugate=True),
                        input_signature=[tf.TensorSpec(None, tf.uint8)])
    assert small(tf.constant([[[1, 2, 3]]], tf.uint8)).numpy().tolist() == [[[1], [2], [3]]]
    text = tf.function(tf.linalg.matrix_transpose, input_signature=[tf.TensorSpec(None, tf.string)])
    assert text(tf.constant([["a", "b"]])).numpy().tolist() == [[b"a"], [b"b"]]
    norm = _traced(lambda t: tf.norm(t, ord=2, axis=[-2, -1]), None)(x)
    np.testing.assert_allclose(norm, np.linalg.norm(x, 2, axis=(-2, -1)), rtol=1e-5)
    norm = _traced(lambda t: tf.norm(t, ord=2, axis=[-1, -2], keepdims=True), None)(x)
    assert norm.shape == (2, 1, 1)
    with pytest.raises(ValueError, match=r"norm\(ord=2\) needs `tensor` to have a known rank "
                                         r"for axis \[0, 1\]"):
        _traced(lambda t: tf.norm(t, ord=2, axis=[0, 1]), None)(x)


def test_float_band_widths_and_diagonal_offsets_are_type_errors():
    with pytest.raises(TypeError, match=r"^Cannot convert 0\.5 to EagerTensor of dtype int64$"):
        tf.linalg.band_part(tf.eye(2), 0.5, 0)
    with pytest.raises(TypeError, match=r"Cannot convert 0\.5 to EagerTensor of dtype int32"):
        tf.linalg.diag([1.0, 2.0], k=0.5)
    with pytest.raises(TypeError, match=r"Expected int32 passed to parameter 'k' of op "
                                        r"'MatrixDiagPartV3', got 0\.5 of type 'float'"):
        tf.function(lambda: tf.linalg.diag_part(tf.eye(2), k=0.5))()
    with pytest.raises(InvalidArgumentError, match=r"lower_diag_index must not be larger than "
                                                   r"upper_diag_index: 1 > 0"):
        tf.linalg.diag([1.0, 2.0], k=(1, 0))
    np.testing.assert_array_equal(tf.linalg.band_part(tf.ones([3, 3]), tf.constant(0), -1),
                                  np.triu(np.ones((3, 3))))
    np.testing.assert_array_equal(tf.linalg.diag([1.0], k=np.int64(1)), [[0, 1], [0, 0]])


@pytest.mark.parametrize("shape, message", [
    ([4], r"Input must have even and non-zero rank, input rank is 1 for '.*DiagPart.*' with "
          r"input shapes: \[4\]\."),
    ([2, 3, 2, 2], r"Dimensions must be equal, but are 3 and 2 for '.*DiagPart.*' with input "
                   r"shapes: \[2,3,2,2\]\.")])
def test_tensor_diag_part_of_bad_shapes_fails_when_traced(shape, message):
    with pytest.raises(ValueError, match=message):
        _traced(tf.linalg.tensor_diag_part, shape)(np.zeros(shape, np.float32))
    assert _traced(tf.linalg.tensor_diag_part, [None, None])(np.eye(2, dtype=np.float32)) \
        .shape == (2,)


def _traced2(fn, shape_a, shape_b):
    return tf.function(fn, input_signature=[tf.TensorSpec(shape_a, tf.float32),
                                            tf.TensorSpec(shape_b, tf.float32)])


@pytest.mark.parametrize("fn, shape_a, shape_b, message", [
    (tf.linalg.solve, [3], [3, 1], r"Shape must be at least rank 2 but is rank 1 for "
                                   r"'.*MatrixSolve.*' with input shapes: \[3\], \[3,1\]\."),
    (tf.linalg.solve, [2, 3], [2, 1], r"Dimensions must be equal, but are 2 and 3 for "
                                      r"'.*MatrixSolve"),
    (tf.linalg.solve, [3, 3], [2, 1], r"Dimensions must be equal, but are 3 and 2"),
    (tf.linalg.triangular_solve, [None, None], [None], r"Shape must be at least rank 2 but is "
                                                       r"rank 1 for '.*MatrixTriangularSolve"),
    (tf.linalg.cholesky_solve, [3, 3], [2, 1], r"Dimensions must be equal, but are 3 and 2 for "
                                               r"'.*MatrixTriangularSolve"),
    (lambda a, b: tf.linalg.lstsq(a, b, fast=False), [3, 2], [2, 1],
     r"Dimensions must be equal, but are 3 and 2 for '.*MatrixSolveLs.*' with input shapes: "
     r"\[3,2\], \[2,1\], \[\]\."),
    (tf.linalg.matmul, [2, 2, 3], [3, 3, 2], r"Dimensions must be equal, but are 2 and 3 for "
                                             r"'.*BatchMatMulV2"),
    (tf.linalg.cross, [2], [2], r"Dimension must be 3 but is 2 for '.*Cross"),
    (tf.linalg.cross, [None], [None, None], r"Shapes must be equal rank, but are 1 and 2")])
def test_linear_systems_and_products_of_bad_shapes_fail_when_traced(fn, shape_a, shape_b,
                                                                     message):
    with pytest.raises(ValueError, match=message):
        _traced2(fn, shape_a, shape_b).get_concrete_function()


def test_linear_systems_of_unknown_sizes_still_trace():
    for fn in (tf.linalg.solve, tf.linalg.triangular_solve, tf.linalg.cross, tf.linalg.matmul,
               lambda a, b: tf.linalg.lstsq(a, b, fast=False)):
        assert _traced2(fn, [None, None, None], [None, None, None]).get_concrete_function()
    assert _traced2(tf.linalg.matmul, [1, 2, 3], [4, 3, 2]).get_concrete_function()


def test_triangular_solve_keeps_non_finite_right_hand_sides_in_their_rows():
    low = np.array([[1.0, 0, 0], [5, 1, 0], [7, 8, 1]], np.float32)  # LU would swap its rows
    rhs = np.array([[1.0], [np.nan], [2.0]], np.float32)
    np.testing.assert_array_equal(tf.linalg.triangular_solve(low, rhs)[:, 0], [1, np.nan, np.nan])
    np.testing.assert_array_equal(tf.linalg.triangular_solve(low.T, rhs, lower=False)[:, 0],
                                  [np.nan, np.nan, 2])
    rhs = np.array([[np.inf], [1.0], [2.0]], np.float32)
    np.testing.assert_array_equal(tf.linalg.triangular_solve(low, rhs)[:, 0],
                                  [np.inf, -np.inf, np.nan])


def test_lstsq_with_l2_regularizer_and_unknown_static_dims():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
    b = tf.constant([[1.0], [2.0], [3.0]])
    want = tf.linalg.lstsq(a, b, l2_regularizer=0.5)
    got = tf.function(lambda m, r: tf.linalg.lstsq(m, r, l2_regularizer=0.5),
                      input_signature=[tf.TensorSpec([None, None])] * 2)(a, b)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5)


def test_diag_part_of_a_range_of_diagonals():
    x = tf.reshape(tf.range(12.0), [3, 4])
    # Rows: diagonals 2, 1, 0, -1; superdiagonals aligned right, subdiagonals left.
    want = [[7.0, 2.0, 7.0], [1.0, 6.0, 11.0], [0.0, 5.0, 10.0], [4.0, 9.0, 7.0]]
    assert tf.linalg.diag_part(x, k=(-1, 2), padding_value=7.0).numpy().tolist() == want
    got = tf.function(lambda m: tf.linalg.diag_part(m, k=(-1, 2), padding_value=7.0),
                      input_signature=[tf.TensorSpec([None, None])])(x)
    assert got.numpy().tolist() == want
    batch = tf.reshape(tf.range(24.0), [2, 3, 4])
    left = tf.linalg.diag_part(batch, k=(-2, 1), align="LEFT_LEFT")
    assert left.shape == (2, 4, 3)
    assert left.numpy()[0].tolist() == [[1.0, 6.0, 11.0], [0.0, 5.0, 10.0], [4.0, 9.0, 0.0],
                                        [8.0, 0.0, 0.0]]
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.diag_part(v, k=(0, 1)))
    assert tape.gradient(y, v).numpy().tolist() == [[1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="lower_diag_index is out of bound"):
        tf.linalg.diag_part(x, k=(-5, 1))


def test_second_derivatives_through_svd_and_eigh():
    m = tf.constant([[4.0, 1.0, -1.0], [2.0, 5.0, 0.5], [-1.0, 0.5, 3.0]])

    def second(fn, x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(fn(x))
            z = tf.reduce_sum(inner.gradient(y, x))
        return outer.gradient(z, x).numpy()

    # pinv is the inverse here: d/dm of sum(-inv^T 1 1^T inv^T), which the inverse's own
    # (SVD-free) gradients give exactly.
    np.testing.assert_allclose(second(tf.linalg.pinv, m), second(tf.linalg.inv, m),
                               rtol=1e-4, atol=1e-6)
    sym = m + tf.transpose(m)
    np.testing.assert_allclose(
        second(lambda x: tf.linalg.eigh(x)[1] ** 2 * [1.0, 2.0, 3.0], sym),
        second(lambda x: tf.linalg.eigh(tf.cast(x, tf.float64))[1] ** 2 * [1.0, 2.0, 3.0],
               tf.cast(sym, tf.float64)), rtol=1e-3, atol=1e-4)


# TF 2.21: a matrix holding a NaN anywhere has a NaN determinant, sign and log-determinant
# (LAPACK's pivoting can take the NaN for a zero and call the matrix singular); inf is finite
# arithmetic's business.
@pytest.mark.parametrize("matrix, expected", [
    ([[np.nan, 1.0], [1.0, 1.0]], (np.nan, np.nan, np.nan)),
    ([[1.0, 1.0], [1.0, np.nan]], (np.nan, np.nan, np.nan)),
    ([[0.0, np.nan], [0.0, 0.0]], (np.nan, np.nan, np.nan)),
    ([[np.inf, 1.0], [1.0, 1.0]], (1.0, np.inf, np.inf)),
    ([[-np.inf, 2.0], [1.0, 1.0]], (-1.0, np.inf, -np.inf)),
])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_determinants_of_non_finite_matrices_as_tf(matrix, expected, dtype):
    x = tf.constant([matrix, [[2.0, 0.0], [0.0, 3.0]]], dtype)  # a finite one beside it
    sign, logabs = tf.linalg.slogdet(x)
    det = tf.linalg.det(x)
    got = [sign.numpy()[0], logabs.numpy()[0], det.numpy()[0]]
    np.testing.assert_array_equal(np.array(got, np.float64), np.array(expected, np.float64))
    np.testing.assert_allclose([sign.numpy()[1], logabs.numpy()[1], det.numpy()[1]],
                               [1.0, np.log(6.0), 6.0], rtol=1e-6)


@pytest.mark.parametrize("k", [3, 5, -2])
def test_diag_part_k_out_of_range_raises_while_tracing(k):
    x = tf.zeros([2, 3])
    with pytest.raises(ValueError, match=r"lower_diag_index is out of bound\. for "
                                         r".*with input shapes: \[2,3\], \[\], \[\] and with "
                       rf"computed input tensors: input\[1\] = <{k}>"):
        tf.function(lambda: tf.linalg.diag_part(x, k=k))()
    with pytest.raises(tf.errors.InvalidArgumentError, match="lower_diag_index is out of bound"):
        tf.linalg.diag_part(x, k=k)
    assert tf.function(lambda: tf.linalg.diag_part(x, k=2))().shape == (1,)


@pytest.mark.parametrize("contended", [False, True])
def test_large_float32_products_run_in_parts_on_the_intra_op_threads(monkeypatch, contended):
    # with OpenBLAS on one thread, a product shares the threads, whether or not other
    # processes keep the cores busy
    monkeypatch.setattr(threads, "budget", lambda: 2)
    monkeypatch.setattr(threads, "adapt", lambda: None)  # (whatever other processes do)
    monkeypatch.setattr(threads, "contended", contended)
    monkeypatch.setattr(threads, "blas_threads", lambda: 1)
    parts, run_in_chunks = [], threads.in_chunks
    monkeypatch.setattr(threads, "in_chunks",
                        lambda count, run: parts.append(count) or run_in_chunks(count, run))
    rng = np.random.default_rng(0)
    tall, wide = rng.standard_normal((256, 300)), rng.standard_normal((300, 128))
    cases = [(tall, wide, {}), (tall[:64], rng.standard_normal((300, 500)), {}),
             (tall.T, wide, {"transpose_a": True}), (tall, wide.T, {"transpose_b": True})]
    for a, b, flags in cases:
        x, y = a.astype(np.float32), tf.Variable(b.astype(np.float32))
        expected = (a.T if flags.get("transpose_a") else a) @ (
            b.T if flags.get("transpose_b") else b)
        got = tf.matmul(x, y, **flags)
        assert got.shape == expected.shape and got.dtype == tf.float32
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-4, atol=1e-4)
    assert parts == [2, 2, 2, 2]
    # small products, and float64 ones, stay whole
    tf.matmul(tf.ones((8, 8)), tf.ones((8, 8)))
    tf.matmul(tall, wide)
    assert parts == [2, 2, 2, 2]


def test_svd_vectors_have_tf_signs():
    # TF's kernel is Eigen's Jacobi SVD (for fewer than 16 columns): the signs of its singular
    # vectors, and the extra columns of a full U, are its own (values recorded from TF)
    r = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0], [1.0, 0.0]])
    s, u, v = tf.linalg.svd(r, full_matrices=True)
    np.testing.assert_allclose(s, [10.208010, 0.892480], rtol=1e-5)
    np.testing.assert_allclose(u, [[0.21628, -0.39755, -0.65112, 0.60928],
                                   [0.48971, 0.11488, -0.53939, -0.67531],
                                   [0.84270, -0.02645, 0.49426, 0.21181],
                                   [0.05716, 0.90998, -0.20200, 0.35759]], atol=2e-5)
    np.testing.assert_allclose(v, [[0.58347, 0.81214], [0.81214, -0.58347]], atol=2e-5)
    wide = tf.constant(np.sin(np.arange(10) * 0.7).reshape(2, 5), tf.float32)
    s, u, v = tf.linalg.svd(wide)
    np.testing.assert_allclose(u, [[-0.70683, 0.70738], [0.70738, 0.70683]], atol=2e-5)
    np.testing.assert_allclose(v[:, 0], [-0.11947, -0.51607, -0.66996, -0.50875, -0.10827],
                               atol=2e-5)
    # a stack of matrices, in float64 (TF's values to the last digits)
    x = tf.constant(np.sin(np.arange(48) * 1.3).reshape(8, 3, 2))
    s, u, v = tf.function(tf.linalg.svd)(x)
    np.testing.assert_allclose(u[:, 0, 0], [0.584721, 0.536744, -0.545559, -0.553814,
                                            -0.504616, 0.570475, 0.468716, -0.586541], atol=1e-6)
    np.testing.assert_allclose(v[:, 0, 0], [-0.571892, 0.732844, -0.70659, 0.68084, 0.819517,
                                            0.624895, 0.90318, 0.564707], atol=1e-6)
    np.testing.assert_allclose(tf.matmul(u * s[:, None, :], v, transpose_b=True), x, atol=1e-12)


def test_singular_values_of_a_rank_deficient_matrix_are_exactly_zero():
    # TF's Jacobi SVD gives an exact zero where LAPACK leaves ~1e-16, with or without vectors,
    # so the condition number is inf and printed values match (recorded from TF)
    m = tf.constant([[1.0, 2.0], [2.0, 4.0]])
    assert tf.linalg.svd(m, compute_uv=False).numpy().tolist() == [5.0, 0.0]
    assert tf.linalg.svd(m)[0].numpy().tolist() == [5.0, 0.0]
    assert tf.linalg.LinearOperatorFullMatrix(m).cond().numpy() == np.inf
    assert tf.linalg.svd(tf.zeros([2, 3]), compute_uv=False).numpy().tolist() == [0.0, 0.0]


def test_eigh_vectors_have_tf_signs():
    # TF's kernel is Eigen's eigensolver: the signs of its eigenvectors are its own (values
    # recorded from TF)
    a = tf.constant([[4.0, 1.0, 2.0], [1.0, 3.0, 0.0], [2.0, 0.0, 5.0]])
    e, v = tf.linalg.eigh(a)
    np.testing.assert_allclose(e, [1.8549, 3.47602, 6.66908], rtol=1e-5)
    np.testing.assert_allclose(v, [[0.67931, -0.37436, 0.63118], [-0.59323, -0.78644, 0.17203],
                                   [-0.43198, 0.49130, 0.75632]], atol=2e-5)
    x = np.sin(np.arange(25) * 0.9).reshape(5, 5)
    e, v = tf.function(tf.linalg.eigh)(tf.constant(x + x.T))
    np.testing.assert_allclose(v[0], [0.500037, -0.132602, 0.425307, -0.410831, 0.618636],
                               atol=1e-6)
    # a stack, read from its lower triangles
    b = tf.constant(np.sin(np.arange(12) * 1.7).reshape(3, 2, 2), tf.float32)
    e, v = tf.linalg.eigh(b)
    np.testing.assert_allclose(v[:, 0, :], [[0.24954, 0.96837], [0.43467, 0.90059],
                                            [0.51751, 0.85568]], atol=2e-5)
    np.testing.assert_allclose(e, [[-0.99166, 0.06585], [-0.95594, 0.83191],
                                   [-0.73045, 1.44061]], atol=2e-5)


def test_banded_triangular_solve_reads_tfs_band_layout():
    bands = tf.constant([[1.0, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    ones = tf.ones([4, 1])
    # TF 2.21's solutions: lower bands start with the main diagonal, upper ones end with it
    np.testing.assert_allclose(tf.linalg.banded_triangular_solve(bands, ones).numpy().ravel(),
                               [1.0, -2.5, 2.5, 2.75], rtol=1e-6)
    np.testing.assert_allclose(
        tf.linalg.banded_triangular_solve(bands, ones, lower=False).numpy().ravel(),
        [0.07323232, 0.06060606, 0.03787879, 0.08333334], rtol=1e-6)
    np.testing.assert_allclose(
        tf.linalg.banded_triangular_solve(bands, ones, adjoint=True).numpy().ravel(),
        [3.6666663, 0.16666675, -0.33333334, 0.25], rtol=1e-6)
    assert tf.linalg.banded_triangular_solve(bands[None], tf.ones([2, 4, 3])).shape == (2, 4, 3)
    variable = tf.Variable(bands)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.banded_triangular_solve(variable, 2 * ones) *
                          tf.constant([[1.0], [2], [3], [4]]))
    np.testing.assert_allclose(tape.gradient(y, variable).numpy(), [
        [-28.6667, 4.1667, 8.3333, -5.5], [0.0, -1.6667, -8.3333, -5.0],
        [0.0, 0.0, 3.3333, 5.0]], atol=1e-4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not invertible"):
        tf.linalg.banded_triangular_solve(tf.zeros([2, 3]), tf.ones([3, 1]))


def test_determinants_of_singular_matrices_are_signed_zeros_as_in_tf():
    # TF 2.21: the zero takes the sign of the LU's pivots and row-swap parity
    cases = {((1.0, 2.0), (2.0, 4.0)): True, ((2.0, 4.0), (1.0, 2.0)): False,
             ((0.0, 1.0), (0.0, 1.0)): False, ((0.0, 1.0), (0.0, -1.0)): True}
    for matrix, negative in cases.items():
        for dtype in (tf.float32, tf.float64):
            m = tf.constant(matrix, dtype)
            det, sign = la.det(m).numpy(), la.slogdet(m).sign.numpy()
            assert det == 0 and np.signbit(det) == negative
            assert sign == 0 and np.signbit(sign) == negative


def _ops_of(fn):
    return [(n.op, list(n.input)) for n in fn.get_concrete_function().graph.as_graph_def().node
            if n.op.startswith("Matrix")]


def test_band_part_bounds_known_at_run_time():
    int32 = tf.TensorSpec([], tf.int32)

    @tf.function(input_signature=[tf.TensorSpec([3, 4]), int32, int32])
    def f(x, lo, hi):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.linalg.band_part(x, lo, hi)
            loss = tf.reduce_sum(y * y)
        assert y.shape == (3, 4)
        return y, tape.gradient(loss, x)
    x = tf.reshape(tf.range(1.0, 13.0), [3, 4])
    y, dx = f(x, tf.constant(1), tf.constant(0))
    want = np.tril(np.triu(x.numpy(), -1))
    np.testing.assert_array_equal(y.numpy(), want)
    np.testing.assert_array_equal(dx.numpy(), 2 * want)
    assert _ops_of(f)[0] == ("MatrixBandPart", ["x", "lo", "hi"])
    g = tf.function(lambda x, lo: tf.linalg.band_part(x, lo, -1),
                    input_signature=[tf.TensorSpec([None, 4]), tf.TensorSpec([], tf.int64)])
    np.testing.assert_array_equal(g(x, tf.constant(0, tf.int64)).numpy(), np.triu(x.numpy()))


def test_diagonal_offset_known_at_run_time():
    k_spec = tf.TensorSpec([], tf.int32)

    @tf.function(input_signature=[tf.TensorSpec([3]), k_spec])
    def diag(d, k):
        with tf.GradientTape() as tape:
            tape.watch(d)
            y = tf.linalg.diag(d, k=k)
            loss = tf.reduce_sum(y * y)
        assert y.shape.rank is None  # TF knows nothing of it
        return y, tape.gradient(loss, d)
    d = tf.constant([1.0, 2.0, 3.0])
    y, dd = diag(d, tf.constant(1))
    np.testing.assert_array_equal(y.numpy(), np.diag(d.numpy(), 1))
    np.testing.assert_array_equal(dd.numpy(), [2.0, 4.0, 6.0])
    plain = tf.function(lambda d, k: tf.linalg.diag(d, k=k),
                        input_signature=[tf.TensorSpec([3]), k_spec])
    assert _ops_of(plain)[0][1][:2] == ["d", "k"]

    @tf.function(input_signature=[tf.TensorSpec([3, 4]), k_spec])
    def part(x, k):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.linalg.diag_part(x, k=k)
            loss = tf.reduce_sum(y * y)
        assert y.shape.rank is None
        return y, tape.gradient(loss, x), tf.linalg.set_diag(x, tf.zeros([3]), k=k)
    x = tf.reshape(tf.range(12.0), [3, 4])
    y, dx, cleared = part(x, tf.constant(1))
    assert y.numpy().tolist() == [1.0, 6.0, 11.0]
    np.testing.assert_array_equal(dx.numpy(), np.diag([2.0, 12.0, 22.0], 1)[:3])
    want = x.numpy().copy()
    want[[0, 1, 2], [1, 2, 3]] = 0
    np.testing.assert_array_equal(cleared.numpy(), want)
    bad = tf.function(lambda d, k: tf.linalg.diag(d, k=k),
                      input_signature=[tf.TensorSpec([3]), tf.TensorSpec([], tf.int64)])
    with pytest.raises(TypeError, match="Input 'k' of 'MatrixDiagV3' Op has type int64 that "
                                        "does not match expected type of int32."):
        bad.get_concrete_function()


def test_band_part_bounds_of_two_dtypes_fail_as_tf():
    x = tf.ones([3, 3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^cannot compute MatrixBandPart as input #2\(zero-based\) was "
                             r"expected to be a int64 tensor but is a int32 tensor"):
        tf.linalg.band_part(x, tf.constant(0, tf.int64), tf.constant(-1))
    f = tf.function(lambda a, b: tf.linalg.band_part(x, a, b), input_signature=[
        tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.int32)])
    with pytest.raises(TypeError, match="Input 'num_upper' of 'MatrixBandPart' Op has type "
                                        "int32 that does not match type int64 of argument "
                                        "'num_lower'."):
        f.get_concrete_function()


def test_bands_of_diagonals_known_at_run_time():
    m = tf.reshape(tf.range(1.0, 13.0), [3, 4])
    band = tf.TensorSpec([2], tf.int32)

    @tf.function(input_signature=[band])
    def part(k):
        with tf.GradientTape() as tape:
            tape.watch(m)
            d = tf.linalg.diag_part(m, k=k, padding_value=9.0, align="LEFT_RIGHT")
            loss = tf.reduce_sum(d * d)
        assert d.shape.rank is None  # as TF's shape function, for a k known at run time
        return d, tape.gradient(loss, m)
    d, dm = part(tf.constant([-1, 1]))
    assert d.numpy().tolist() == [[2, 7, 12], [1, 6, 11], [9, 5, 10]]  # (TF's values)
    assert dm.numpy().tolist() == [[2, 4, 0, 0], [10, 12, 14, 0], [0, 20, 22, 24]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="lower_diag_index must not be larger than upper_diag_index: 1 > 0"):
        part(tf.constant([1, 0]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="lower_diag_index is out of bound: -5. It must be between -3 and 4"):
        part(tf.constant([-5, 1]))

    made = tf.function(lambda k: tf.linalg.diag(tf.reshape(tf.range(1.0, 7.0), [2, 3]), k=k),
                       input_signature=[band])
    assert made(tf.constant([-1, 0])).numpy().tolist() == [[1, 0, 0], [4, 2, 0], [0, 5, 3]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="The number of diagonals provided "
                                                             "in the input does not match"):
        made(tf.constant([-2, 0]))
    placed = tf.function(lambda k: tf.linalg.set_diag(m, tf.ones([2, 3]), k=k),
                         input_signature=[band])
    assert placed(tf.constant([0, 1])).numpy().tolist() == [
        [1, 1, 3, 4], [5, 1, 1, 8], [9, 10, 1, 1]]


def test_raw_diagonal_ops_take_a_constant_band():
    m = tf.reshape(tf.range(8.0), [2, 4])
    part = tf.raw_ops.MatrixDiagPartV3(input=m, k=[-1, 1], padding_value=-1.0,
                                       align="LEFT_LEFT")
    assert part.numpy().tolist() == [[1, 6], [0, 5], [4, -1]]  # (TF's values)
    made = tf.raw_ops.MatrixDiagV3(diagonal=[[1.0, 2.0], [3.0, 0.0]], k=[0, 1], num_rows=-1,
                                   num_cols=-1, padding_value=9.0, align="RIGHT_RIGHT")
    assert made.numpy().tolist() == [[3, 2], [9, 0]]
    placed = tf.raw_ops.MatrixSetDiagV3(input=m, diagonal=[[1.0, 2.0], [3.0, 4.0]], k=[0, 1],
                                        align="LEFT_RIGHT")
    assert placed.numpy().tolist() == [[3, 1, 2, 3], [4, 4, 2, 7]]


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_lu_ops_carry_inf_and_nan_as_tf_partial_pivoting_lu(dtype):
    # TF's LU takes the first of equal infinite pivots, so inf/inf spreads NaN everywhere.
    nan = np.nan
    x = tf.constant([[np.inf, 1.0], [np.inf, 2.0]], dtype)
    np.testing.assert_array_equal(tf.linalg.inv(x).numpy(), [[nan, nan], [nan, nan]])
    assert np.isnan(tf.linalg.det(x).numpy())
    np.testing.assert_array_equal(tf.linalg.solve(x, tf.ones([2, 1], dtype)).numpy(),
                                  [[nan], [nan]])
    sign, logabs = tf.linalg.slogdet(x)
    assert np.isnan(sign.numpy()) and np.isnan(logabs.numpy())
    # An infinite pivot after a finite one: products with its zero reciprocal give NaN.
    y = tf.constant([[1.0, 2.0], [3.0, np.inf]], dtype)
    np.testing.assert_array_equal(tf.linalg.inv(y).numpy(), [[nan, nan], [-0.0, 0.0]])
    assert tf.linalg.det(y).numpy() == np.inf
    # A zero pivot times an infinite one: NaN determinant, not 0.
    z = tf.constant([[2.0, 0.0], [-np.inf, 2.0]], dtype)
    assert np.isnan(tf.linalg.det(z).numpy())
    sign, logabs = tf.linalg.slogdet(tf.constant([[2.0, 0.0], [0.0, -np.inf]], dtype))
    assert sign.numpy() == -1.0 and logabs.numpy() == np.inf
    # Finite matrices in the same batch keep LAPACK's results.
    batch = tf.stack([x, tf.constant([[2.0, 0.0], [0.0, 4.0]], dtype)])
    np.testing.assert_array_equal(tf.linalg.inv(batch)[1].numpy(), [[0.5, 0.0], [0.0, 0.25]])
