"""Specs of linear algebra (linalg_ops.py): values against NumPy's linalg."""
import numpy as np

import eagerflow as tf
from tests.internals import linalg_ops as la
from tests.ops.spec import OpSpec, rand

F16, F32, F64, C64, C128 = np.float16, np.float32, np.float64, np.complex64, np.complex128
I32 = np.int32


def _set_main_diagonal(x, d):
    out = x.copy()
    out[np.arange(len(d)), np.arange(len(d))] = d
    return out


_LOOSE = {"rtol": 1e-4, "atol": 1e-4}  # float32 factorizations


def _well_conditioned(*shape, dtype=F32, seed=0):
    """Random square matrices with a dominant diagonal (far from singular)."""
    n = shape[-1]
    return (rand(*shape, dtype=dtype, seed=seed) + n * np.eye(n)).astype(dtype)


def _spd(*shape, dtype=F32, seed=0):
    """Random Hermitian positive-definite matrices."""
    a = rand(*shape, dtype=dtype, seed=seed)
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


# Only the lower triangle is read, yet the gradient is symmetric (as TF's): finite
# differences see it only through a symmetric input.
_LOWER_ONLY = "symmetric gradient; checked by the -symmetrized spec"


def _symmetrized(x):
    return (x + tf.linalg.matrix_transpose(x)) * 0.5


def _adj(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _in(dtype, fn):
    """A reference computing `fn` in float32 for half inputs (NumPy's linalg has no halves)."""
    def ref(*args):
        wide = [a.astype(F32) if a.dtype == F16 else a for a in args]
        out = fn(*wide)
        if isinstance(out, tuple):
            return tuple(np.asarray(o).astype(dtype) for o in out)
        return np.asarray(out).astype(dtype)
    return ref


def _matmul_specs():
    specs = [OpSpec("MatMul", tf.matmul, [rand(3, 4, dtype=d), rand(4, 5, dtype=d, seed=1)],
                    np.matmul, name=f"MatMul-{np.dtype(d).name}", **_LOOSE)
             for d in (F32, F64, C64, I32)]
    for ta, tb in ((True, False), (False, True), (True, True)):
        a = rand(*((4, 3) if ta else (3, 4)))
        b = rand(*((5, 4) if tb else (4, 5)), seed=1)
        specs.append(OpSpec(
            "MatMul", lambda x, y, ta=ta, tb=tb: tf.matmul(x, y, transpose_a=ta, transpose_b=tb),
            [a, b], lambda x, y, ta=ta, tb=tb: (x.T if ta else x) @ (y.T if tb else y),
            name=f"MatMul-transpose{int(ta)}{int(tb)}", **_LOOSE))
    specs += [
        OpSpec("MatMul", tf.matmul, [rand(2, 3, dtype=F16), rand(3, 2, dtype=F16, seed=1)],
               _in(F16, np.matmul), name="MatMul-float16", rtol=1e-2, atol=1e-2),
        OpSpec("BatchMatMulV2", tf.matmul, [rand(2, 3, 4), rand(4, 5, seed=1)], np.matmul,
               name="BatchMatMulV2-broadcast-rhs", **_LOOSE),
        OpSpec("BatchMatMulV2", tf.matmul, [rand(2, 1, 3, 4), rand(3, 4, 2, seed=1)], np.matmul,
               name="BatchMatMulV2-broadcast-both", **_LOOSE),
        OpSpec("BatchMatMulV2", lambda x, y: tf.matmul(x, y, adjoint_a=True, adjoint_b=True),
               [rand(2, 4, 3, dtype=C128), rand(2, 5, 4, dtype=C128, seed=1)],
               lambda x, y: _adj(x) @ _adj(y), name="BatchMatMulV2-adjoint-complex"),
        OpSpec("BatchMatMulV2", lambda x, y: tf.matmul(x, y, adjoint_a=True),
               [rand(4, 3, dtype=C64), rand(4, 2, dtype=C64, seed=1)],
               lambda x, y: _adj(x) @ y, name="BatchMatMulV2-adjoint-rank2-complex", **_LOOSE),
        OpSpec("BatchMatMul", lambda x, y: tf.raw_ops.BatchMatMul(x=x, y=y, adj_y=True),
               [rand(2, 3, 4, dtype=F64), rand(2, 5, 4, dtype=F64, seed=1)],
               lambda x, y: x @ np.swapaxes(y, -1, -2)),
        OpSpec("MatrixDiag", lambda d: tf.raw_ops.MatrixDiag(diagonal=d),
               [rand(2, 3, dtype=F64)],
               lambda d: np.stack([np.diag(r) for r in d])),
        OpSpec("MatrixDiagPart", lambda x: tf.raw_ops.MatrixDiagPart(input=x),
               [rand(2, 3, 4, dtype=F64)], lambda x: np.diagonal(x, axis1=-2, axis2=-1)),
        OpSpec("MatrixSetDiag", lambda x, d: tf.raw_ops.MatrixSetDiag(input=x, diagonal=d),
               [rand(3, 2, dtype=F64), rand(2, dtype=F64, seed=1)],
               _set_main_diagonal),
        OpSpec("MatrixDiagV2", lambda d: tf.raw_ops.MatrixDiagV2(
            diagonal=d, k=[-1, 0], num_rows=-1, num_cols=-1, padding_value=0.0),
               [np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 0.0]], F64)],
               lambda d: np.array([[1.0, 0, 0], [4, 2, 0], [0, 5, 3]])),
        OpSpec("MatrixDiagPartV2", lambda x: tf.raw_ops.MatrixDiagPartV2(
            input=x, k=[-1, 1], padding_value=9.0),
               [np.arange(12.0).reshape(3, 4)],
               lambda x: np.array([[1.0, 6, 11], [0, 5, 10], [4, 9, 9]])),
        OpSpec("MatrixSetDiagV2", lambda x, d: tf.raw_ops.MatrixSetDiagV2(
            input=x, diagonal=d, k=[0, 1]),
               [np.arange(12.0).reshape(3, 4), np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])],
               lambda x, d: np.array([[4.0, 1, 2, 3], [4, 5, 2, 7], [8, 9, 6, 3]])),
        OpSpec("BatchMatMulV3", lambda x, y: tf.matmul(x, y, output_type=I32),
               [rand(2, 3, dtype=np.int8, low=-9, high=9),
                rand(3, 2, dtype=np.int8, low=-9, high=9, seed=1)],
               lambda x, y: x.astype(I32) @ y.astype(I32), grad="integer"),
        OpSpec("BatchMatMulV2", tf.linalg.matvec, [rand(2, 3, 4), rand(4, seed=1)],
               lambda m, v: m @ v, name="matvec-batched", **_LOOSE),
    ]
    return specs


def _square_specs():
    specs = []
    for d in (F32, F64, C128):
        m = _well_conditioned(2, 3, 3, dtype=d)
        tol = _LOOSE if d == F32 else {}
        specs += [
            OpSpec("MatrixInverse", tf.linalg.inv, [m], np.linalg.inv,
                   name=f"MatrixInverse-{np.dtype(d).name}", **tol),
            OpSpec("MatrixDeterminant", tf.linalg.det, [m],
                   lambda x: np.linalg.det(x).astype(x.dtype),
                   name=f"MatrixDeterminant-{np.dtype(d).name}", **tol),
            OpSpec("LogMatrixDeterminant", tf.linalg.slogdet, [m],
                   lambda x: tuple(v.astype(x.dtype) for v in np.linalg.slogdet(x)),
                   name=f"LogMatrixDeterminant-{np.dtype(d).name}", **tol),
        ]
    specs += [
        OpSpec("MatrixInverse", lambda x: tf.linalg.inv(x, adjoint=True), [_well_conditioned(3, 3)],
               lambda x: np.linalg.inv(x.T), name="MatrixInverse-adjoint", **_LOOSE),
        OpSpec("MatrixInverse", tf.linalg.inv, [_well_conditioned(3, 3, dtype=F16)],
               _in(F16, np.linalg.inv), name="MatrixInverse-float16", rtol=1e-2, atol=1e-3),
        OpSpec("Cholesky", tf.linalg.cholesky, [_spd(2, 3, 3, dtype=F64)], np.linalg.cholesky,
               grad=_LOWER_ONLY),
        OpSpec("Cholesky", lambda x: tf.linalg.cholesky(_symmetrized(x)),
               [_spd(2, 3, 3, dtype=F64)],
               np.linalg.cholesky, name="Cholesky-symmetrized"),
        OpSpec("Cholesky", tf.linalg.cholesky, [_spd(3, 3, dtype=C64)], np.linalg.cholesky,
               name="Cholesky-complex64", **_LOOSE),
        OpSpec("SelfAdjointEigV2", tf.linalg.eigh, [_spd(2, 3, 3, dtype=F64)],
               check=_eigh_check),
        OpSpec("SelfAdjointEigV2", tf.linalg.eigvalsh, [_spd(4, 4)],
               lambda x: np.linalg.eigvalsh(x), name="eigvalsh", **_LOOSE),
        OpSpec("SelfAdjointEigV2", tf.linalg.eigvalsh, [_spd(3, 3, dtype=C128)],
               lambda x: np.linalg.eigvalsh(x).astype(C128), name="eigvalsh-complex"),
        OpSpec("Qr", tf.linalg.qr, [rand(2, 5, 3, dtype=F64)], lambda x: tuple(np.linalg.qr(x))),
        OpSpec("Qr", lambda x: tf.linalg.qr(x, full_matrices=True), [rand(5, 3, dtype=F64)],
               lambda x: tuple(np.linalg.qr(x, mode="complete")), name="Qr-full",
               grad="not implemented for full_matrices with more rows than columns, as in TF"),
        OpSpec("Qr", tf.linalg.qr, [rand(3, 5, dtype=F64)], lambda x: tuple(np.linalg.qr(x)),
               name="Qr-wide"),
        OpSpec("Qr", lambda x: tf.linalg.qr(x, full_matrices=True), [rand(2, 3, 3, dtype=F64)],
               lambda x: tuple(np.linalg.qr(x, mode="complete")), name="Qr-full-square"),
        OpSpec("Svd", lambda x: tf.linalg.svd(x, compute_uv=False), [rand(2, 4, 3, dtype=F64)],
               lambda x: np.linalg.svd(x, compute_uv=False), name="Svd-values"),
        OpSpec("Svd", tf.linalg.svd, [rand(3, 5, dtype=F64)], check=_svd_check(False),
               name="Svd-vectors"),
        OpSpec("Svd", tf.linalg.svd, [rand(2, 4, 3, dtype=F64)],
               check=_svd_check(False), name="Svd-vectors-tall"),
        OpSpec("Svd", lambda x: tf.linalg.svd(x, full_matrices=True), [rand(3, 4, dtype=F64)],
               check=_svd_check(True), name="Svd-full-wide"),
        OpSpec("Svd", lambda x: tf.linalg.svd(x, full_matrices=True), [rand(4, 2, dtype=C128)],
               _svd(True), name="Svd-full-complex"),
        OpSpec("Svd", lambda x: tf.norm(x, ord=2, axis=[-2, -1]), [rand(2, 3, 4, dtype=F64)],
               lambda x: np.linalg.norm(x, ord=2, axis=(-2, -1)), name="norm-spectral"),
    ]
    return specs


def _svd(full):
    def ref(x):
        u, s, vh = np.linalg.svd(x, full_matrices=full)
        return s, u, _adj(vh)
    return ref


def _eigh_check(got, args):
    """LAPACK's eigenvalues and eigenvectors, the vectors up to sign (TF's come from Eigen's
    eigensolver)."""
    e, v = got
    want_e, want_v = np.linalg.eigh(args[0])
    np.testing.assert_allclose(e, want_e, rtol=1e-5, atol=1e-6)
    flips = np.sign(np.sum(v * want_v, axis=-2, keepdims=True))
    np.testing.assert_allclose(v * flips, want_v, rtol=1e-5, atol=1e-6)


def _svd_check(full):
    """LAPACK's singular values and vectors, the vectors up to a sign per pair (TF's come
    from Eigen's Jacobi SVD); a full U or V orthonormal."""
    def check(got, args):
        s, u, v = got
        want_s, want_u, want_v = _svd(full)(args[0])
        np.testing.assert_allclose(s, want_s, rtol=1e-5, atol=1e-6)
        d = s.shape[-1]
        flips = np.sign(np.sum(u[..., :d] * want_u[..., :d], axis=-2, keepdims=True))
        np.testing.assert_allclose(u[..., :d] * flips, want_u[..., :d], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(v[..., :d] * flips, want_v[..., :d], rtol=1e-5, atol=1e-6)
        for q in (u, v):
            eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
            np.testing.assert_allclose(_adj(q) @ q, eye, atol=1e-6)
    return check


def _solver_specs():
    m = _well_conditioned(2, 3, 3, dtype=F64)
    rhs = rand(2, 3, 2, dtype=F64, seed=1)
    tall = rand(5, 3, dtype=F64)
    return [
        OpSpec("MatrixSolve", tf.linalg.solve, [m, rhs], np.linalg.solve),
        OpSpec("MatrixSolve", lambda a, b: tf.linalg.solve(a, b, adjoint=True),
               [_well_conditioned(3, 3, dtype=C128), rand(3, 1, dtype=C128)],
               lambda a, b: np.linalg.solve(_adj(a), b), name="MatrixSolve-adjoint-complex"),
        OpSpec("MatrixTriangularSolve", tf.linalg.triangular_solve, [m, rhs],
               lambda a, b: np.linalg.solve(np.tril(a), b), name="MatrixTriangularSolve-lower"),
        OpSpec("MatrixTriangularSolve",
               lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True),
               [_well_conditioned(3, 3, dtype=F64), rand(2, 3, 2, dtype=F64)],
               lambda a, b: np.linalg.solve(np.triu(a).T, b),
               name="MatrixTriangularSolve-upper-adjoint-broadcast"),
        OpSpec("MatrixTriangularSolve", tf.linalg.cholesky_solve,
               [np.linalg.cholesky(_spd(3, 3, dtype=F64)), rand(3, 2, dtype=F64)],
               lambda c, b: np.linalg.solve(c @ c.T, b), name="cholesky_solve"),
        OpSpec("MatrixSolveLs", lambda a, b: tf.linalg.lstsq(a, b, fast=False), [tall, rand(5, 2)
                                                                            .astype(F64)],
               lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], name="lstsq-exact",
               grad=la._NO_EXACT_LSTSQ_GRAD),
        OpSpec("MatrixSolveLs", lambda a, b: tf.linalg.lstsq(a, b, fast=False),
               [tall.T.copy(), rand(3, 1, dtype=F64)],
               lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], name="lstsq-exact-minnorm",
               grad=la._NO_EXACT_LSTSQ_GRAD),
        OpSpec("Cholesky", tf.linalg.lstsq, [tall, rand(5, 2, dtype=F64)],
               lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], name="lstsq-fast",
               rtol=1e-6),
        OpSpec("Cholesky", lambda a, b: tf.linalg.lstsq(a, b, l2_regularizer=0.5),
               [tall.T.copy(), rand(3, 1, dtype=F64)],
               lambda a, b: a.T @ np.linalg.solve(a @ a.T + 0.5 * np.eye(3), b),
               name="lstsq-fast-regularized-underdetermined", rtol=1e-6),
    ]


def _diag(k=0, rows=-1, cols=-1, pad=0):
    def ref(d):
        length = d.shape[-1]
        min_rows, min_cols = length + max(-k, 0), length + max(k, 0)
        r = rows if rows >= 0 else (min_rows if cols >= 0 else max(min_rows, min_cols))
        c = cols if cols >= 0 else (min_cols if rows >= 0 else max(min_rows, min_cols))
        out = np.full(d.shape[:-1] + (r, c), pad, d.dtype)
        i = np.arange(length)
        out[..., i + max(-k, 0), i + max(k, 0)] = d
        return out
    return ref


def _band(lower, upper):
    def ref(x):
        i, j = np.indices(x.shape[-2:])
        keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
        return np.where(keep, x, np.zeros((), x.dtype))
    return ref


def _set_diag(k):
    def ref(x, d):
        out = x.copy()
        i = np.arange(d.shape[-1])
        out[..., i + max(-k, 0), i + max(k, 0)] = d
        return out
    return ref


def _cross_specs():
    return [
        OpSpec("Cross", tf.linalg.cross, [rand(2, 3), rand(2, 3, seed=1)], np.cross),
        OpSpec("Cross", tf.linalg.cross, [rand(4, 3, dtype=I32), rand(4, 3, dtype=I32, seed=1)],
               np.cross, name="Cross-int", grad="integer"),
    ]


def _diag_specs():
    return [
        OpSpec("MatrixDiagV3", tf.linalg.diag, [rand(2, 3)], _diag()),
        OpSpec("MatrixDiagV3", lambda d: tf.linalg.diag(d, k=1, padding_value=7),
               [rand(4, dtype=I32, low=-9, high=9)], _diag(k=1, pad=7), name="MatrixDiagV3-k1",
               grad="integer"),
        OpSpec("MatrixDiagV3", lambda d: tf.linalg.diag(d, k=-1, num_cols=4),
               [rand(2, 3, dtype=F64)],
               _diag(k=-1, cols=4), name="MatrixDiagV3-rectangular"),
        OpSpec("MatrixDiagPartV3", tf.linalg.diag_part, [rand(2, 3, 4)],
               lambda x: np.diagonal(x, axis1=-2, axis2=-1).copy()),
        OpSpec("MatrixDiagPartV3", lambda x: tf.linalg.diag_part(x, k=-2), [rand(4, 3, dtype=C64)],
               lambda x: np.diagonal(x, offset=-2).copy(), name="MatrixDiagPartV3-k-2"),
        OpSpec("MatrixDiagPartV3", lambda x: tf.linalg.diag_part(x, k=1),
               [rand(2, 3, 4, dtype=F64)],
               lambda x: np.diagonal(x, offset=1, axis1=-2, axis2=-1).copy(),
               name="MatrixDiagPartV3-k1"),
        OpSpec("MatrixDiagPartV3", tf.linalg.trace, [rand(2, 3, 3, dtype=F64)],
               lambda x: np.trace(x, axis1=-2, axis2=-1), name="trace"),
        OpSpec("MatrixBandPart", lambda x: tf.linalg.band_part(x, 1, 0), [rand(2, 4, 4)],
               _band(1, 0)),
        OpSpec("MatrixBandPart", lambda x: tf.linalg.band_part(x, -1, 2), [rand(3, 5, dtype=I32)],
               _band(-1, 2), name="MatrixBandPart-upper", grad="integer"),
        OpSpec("MatrixBandPart", lambda x: tf.linalg.band_part(x, 0, 0),
               [rand(3, 3, dtype=np.bool_)], _band(0, 0), name="MatrixBandPart-bool",
               grad="boolean"),
        OpSpec("MatrixSetDiagV3", tf.linalg.set_diag, [rand(2, 3, 4), rand(2, 3, seed=1)],
               _set_diag(0)),
        OpSpec("MatrixSetDiagV3", lambda x, d: tf.linalg.set_diag(x, d, k=-1),
               [rand(4, 3, dtype=F64), rand(3, dtype=F64, seed=1)], _set_diag(-1),
               name="MatrixSetDiagV3-k-1"),
        OpSpec("MatrixSetDiagV3", lambda x, d: tf.linalg.set_diag(x, d, k=2),
               [rand(3, 4, dtype=I32), rand(2, dtype=I32, seed=1)], _set_diag(2),
               name="MatrixSetDiagV3-int", grad="integer"),
        OpSpec("Diag", tf.linalg.tensor_diag, [rand(2, 3)],
               lambda d: np.diag(d.ravel()).reshape(d.shape * 2)),
        OpSpec("DiagPart", tf.linalg.tensor_diag_part, [rand(2, 3, 2, 3, dtype=F64)],
               lambda x: np.diagonal(x.reshape(6, 6)).reshape(2, 3)),
    ]


def _norm(ord, axis, keepdims=False, euclidean_complex=False):
    def ref(x):
        if axis is None:
            flat = x.reshape(-1)
            out = np.linalg.norm(flat, None if ord == "euclidean" else ord)
            out = np.reshape(out, (1,) * x.ndim) if keepdims else out
        else:
            numpy_ord = {"euclidean": None, "fro": "fro"}.get(ord, ord)
            out = np.linalg.norm(x, numpy_ord, axis=axis, keepdims=keepdims)
        return np.asarray(out).astype(x.dtype if euclidean_complex or x.dtype.kind == "f"
                                      else x.real.dtype)
    return ref


def _norm_specs():
    x = rand(3, 4)
    return [
        OpSpec("Sqrt", tf.norm, [x], _norm("euclidean", None), name="norm-euclidean"),
        OpSpec("Sqrt", lambda t: tf.norm(t, keepdims=True), [x],
               _norm("euclidean", None, keepdims=True), name="norm-euclidean-keepdims"),
        OpSpec("Sqrt", lambda t: tf.norm(t, axis=-1), [x], _norm("euclidean", -1),
               name="norm-euclidean-axis"),
        OpSpec("Sqrt", lambda t: tf.norm(t, ord="fro", axis=(0, 1)), [x], _norm("fro", (0, 1)),
               name="norm-fro"),
        OpSpec("Sqrt", tf.norm, [rand(3, dtype=C128)], _norm("euclidean", None, False, True),
               name="norm-euclidean-complex"),
        OpSpec("Sum", lambda t: tf.norm(t, ord=1, axis=0), [x], _norm(1, 0), name="norm-1"),
        OpSpec("Max", lambda t: tf.norm(t, ord=np.inf, axis=1), [x], _norm(np.inf, 1),
               name="norm-inf"),
        OpSpec("Pow", lambda t: tf.norm(t, ord=3, axis=1), [x], _norm(3, 1), name="norm-3"),
        OpSpec("Max", lambda t: tf.norm(t, ord=1, axis=[0, 1]), [x], _norm(1, (0, 1)),
               name="norm-matrix-1"),
        OpSpec("Max", lambda t: tf.norm(t, ord=np.inf, axis=[1, 2], keepdims=True),
               [rand(2, 3, 4, dtype=F64)], _norm(np.inf, (1, 2), keepdims=True),
               name="norm-matrix-inf-keepdims"),
    ]


SPECS = (_matmul_specs() + _square_specs() + _solver_specs() + _diag_specs() + _cross_specs()
         + _norm_specs())


def _lu_ref(a):
    """Partial-pivoting LU (the largest magnitude first) of each matrix: packed LU and p."""
    a = np.array(a, dtype=np.result_type(a, F32) if a.dtype == F16 else a.dtype)
    n = a.shape[-1]
    mats = a.reshape(-1, n, n).copy()
    perms = np.tile(np.arange(n, dtype=I32), (len(mats), 1))
    for m, p in zip(mats, perms):
        for k in range(n):
            piv = k + int(np.argmax(np.abs(m[k:, k])))
            m[[k, piv]], p[[k, piv]] = m[[piv, k]], p[[piv, k]]
            m[k + 1:, k] /= m[k, k]
            m[k + 1:, k + 1:] -= np.outer(m[k + 1:, k], m[k, k + 1:])
    return mats.reshape(a.shape), perms.reshape(a.shape[:-1])


SPECS += [
    OpSpec("Lu", tf.linalg.lu, [rand(4, 4, dtype=d)],
           lambda a, d=d: (_lu_ref(a)[0].astype(d), _lu_ref(a)[1]),
           name=f"Lu-{np.dtype(d).name}", grad="TF registers no gradient for Lu",
           **({"rtol": 1e-2, "atol": 1e-2} if d == F16 else _LOOSE))
    for d in (F16, F32, F64, C64)
] + [
    OpSpec("Lu", lambda a: tf.linalg.lu(a, output_idx_type=tf.int64), [rand(2, 3, 3, dtype=F64)],
           lambda a: (_lu_ref(a)[0], _lu_ref(a)[1].astype(np.int64)), name="Lu-batch-int64",
           grad="TF registers no gradient for Lu"),
]


def _real_parts_sorted(x):
    """A differentiable function of the eigenvalues, whichever their order."""
    e = tf.linalg.eigvals(x)
    return tf.math.real(e) ** 2 + tf.math.imag(e) ** 2 * 0.5


def _eig_vectors_by_value(a):
    """|v|^2 of the eigenvectors in the order of their eigenvalues' real parts (TF's own
    order is its Schur form's, not LAPACK's)."""
    e, v = tf.linalg.eig(a)
    return tf.abs(tf.gather(v, tf.argsort(tf.math.real(e)), axis=-1, batch_dims=1)) ** 2


def _np_eig_vectors_by_value(a):
    e, v = np.linalg.eig(a)
    return np.abs(np.take_along_axis(v, np.argsort(e.real)[..., None, :], -1)) ** 2


SPECS += [
    OpSpec("Eig", lambda a: tf.sort(tf.math.real(tf.linalg.eigvals(a))),
           [_spd(3, 3, dtype=d)], lambda a, d=d: np.sort(np.linalg.eigvals(a).real).astype(d),
           name=f"Eig-eigvals-{np.dtype(d).name}", **_LOOSE)
    for d in (F32, F64)
] + [
    OpSpec("Eig", lambda a: tf.reduce_sum(_real_parts_sorted(a)), [rand(4, 4, dtype=F64)],
           lambda a: np.sum(np.linalg.eigvals(a).real ** 2 + np.linalg.eigvals(a).imag ** 2 * 0.5),
           name="Eig-general-float64"),
    OpSpec("Eig", _eig_vectors_by_value, [_spd(2, 3, 3, dtype=F64)],
           lambda a: _np_eig_vectors_by_value(a), name="Eig-vectors-float64"),
]


def _logm_ref(a):
    e, v = np.linalg.eig(a.astype(C128))
    return (v @ (np.log(e)[..., None] * np.linalg.inv(v))).astype(a.dtype)


SPECS += [
    OpSpec("MatrixLogarithm", tf.linalg.logm, [_spd(2, 3, 3, dtype=d)], _logm_ref,
           name=f"MatrixLogarithm-{np.dtype(d).name}", grad="TF registers no gradient for it",
           **_LOOSE)
    for d in (C64, C128)
]


def _sqrtm_ref(a):
    e, v = np.linalg.eig(a.astype(np.complex128 if np.iscomplexobj(a) else F64))
    out = v @ (np.sqrt(e)[..., None] * np.linalg.inv(v))
    return (out if np.iscomplexobj(a) else out.real).astype(a.dtype)


def _dense(d):
    n = d.shape[-1]
    m = np.zeros(d.shape[:-2] + (n, n), d.dtype)
    idx = np.arange(n)
    m[..., idx, idx] = d[..., 1, :]
    m[..., idx[:-1], idx[1:]] = d[..., 0, :-1]
    m[..., idx[1:], idx[:-1]] = d[..., 2, 1:]
    return m


def _tridiagonal_system(*batch, dtype=F32, seed=0):
    d = rand(*batch, 3, 4, dtype=dtype, seed=seed)
    d[..., 1, :] += 5.0  # diagonally dominant
    return d


SPECS += [
    OpSpec("MatrixSquareRoot", tf.linalg.sqrtm, [_spd(2, 3, 3, dtype=d)], _sqrtm_ref,
           name=f"MatrixSquareRoot-{np.dtype(d).name}", **_LOOSE)
    for d in (F32, F64, C64)
] + [
    OpSpec("TridiagonalSolve", lambda d, b, p=p: tf.linalg.tridiagonal_solve(
        d, b, partial_pivoting=p), [_tridiagonal_system(2, dtype=dt), rand(2, 4, 3, dtype=dt)],
        lambda d, b: np.linalg.solve(_dense(d), b), name=f"TridiagonalSolve-{p}-"
        f"{np.dtype(dt).name}", **_LOOSE)
    for p in (True, False) for dt in (F32, F64)
]
