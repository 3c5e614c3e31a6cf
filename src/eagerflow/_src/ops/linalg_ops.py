"""Linear algebra: matmul, decompositions, solvers, norms and diagonal/band helpers.

Kernels run on stacks of matrices (the last two dimensions); NumPy's `linalg`
(or CuPy's) does the numerical work, half-precision inputs computing in
float32. Errors carry the messages TensorFlow gives for the same inputs.

>>> tf.matmul(tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0]]))
<tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[11.]], dtype=float32)>
"""
import collections

import ml_dtypes
import numpy as np

from eagerflow._src.core import context
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend import jacobi_svd, real_schur, selfadjoint_eigen, threads
from eagerflow._src.backend.arrays import quiet
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args, tf_defaults
from eagerflow._src.core.registry import (
    NUMBER, NUMBER_BOOL, register, register_gradient, same_shape)
from eagerflow._src.core.registry import PER_ELEMENT, aligned, batching_rules
from eagerflow._src.core.registry import fixed_input_error
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.ops import late, math_ops
from eagerflow._src.ops.cast_ops import cast, identity
from eagerflow._src.ops.shape_rules import broadcast_shapes, normalize_axis, shape_error
from eagerflow._src.ops.wrappers import as_tensor

_HALF = frozenset({np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)})
# TF's type lists (in its order, which its dtype errors list): LAPACK-backed ops take
# double/float/half/complex (the determinants list half first), the tridiagonal solve
# all but half.
_LAPACK = (_d.float64, _d.float32, _d.float16, _d.complex64, _d.complex128)
_DETERMINANT_TYPES = (_d.float16, _d.float32, _d.float64, _d.complex64, _d.complex128)
_TRIDIAGONAL = (_d.float64, _d.float32, _d.complex64, _d.complex128)
_MATMUL_TYPES = (_d.bfloat16, _d.float16, _d.float32, _d.float64, _d.int32, _d.int64, _d.uint8,
                 _d.uint16, _d.uint32, _d.uint64, _d.complex64, _d.complex128)
_BATCH_MATMUL_TYPES = _MATMUL_TYPES + (_d.int16,)
_NO_ATTRS = {}


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _adjoint(xp, x):
    """The conjugate transpose of a stack of matrices."""
    x = xp.swapaxes(x, -1, -2)
    return xp.conj(x) if x.dtype.kind == "c" else x


def _single_or_wider(fn):
    """`fn` computing half-precision inputs in float32 (LAPACK has no half types), cast back."""
    def kernel(xp, *arrays, **attrs):
        dtype = arrays[0].dtype
        if dtype not in _HALF:
            return fn(xp, *arrays, **attrs)
        out = fn(xp, *(a.astype(xp.float32) for a in arrays), **attrs)
        if isinstance(out, tuple):
            return tuple(o.astype(dtype) for o in out)
        return out.astype(dtype)
    kernel.__name__ = fn.__name__
    return kernel


# -- shape-rule helpers --------------------------------------------------------------------

def _min(a, b):
    return None if a is None or b is None else min(a, b)


def _batch(shape):
    """The batch part of a matrix stack's shape (all but the last two dims)."""
    return unknown_shape() if shape.rank is None else shape[:-2]


def _matrix(shape, adjoint=False):
    """(rows, cols) of the matrices in `shape` (None when unknown), after an optional adjoint."""
    if shape.rank is None or shape.rank < 2:
        return None, None
    rows, cols = shape[-2], shape[-1]
    return (cols, rows) if adjoint else (rows, cols)


def _check_rank(op_name, x, rank, shapes, exact=False):
    """TF's graph-time error for an input `x` of known rank below `rank` (or not `rank`)."""
    r = x.shape.rank
    if r is not None and (r != rank if exact else r < rank):
        raise shape_error(op_name, f"Shape must be {'' if exact else 'at least '}rank {rank} but "
                                   f"is rank {r}", shapes)


def _matrix_op_rule(op_name, rule, square=True):
    """`rule` of a one-input op on stacks of (`square`) matrices, after TF's rank and
    squareness checks."""
    def checked(x, **attrs):
        _check_rank(op_name, x, 2, [x.shape])
        rows, cols = _matrix(x.shape)
        if square and None not in (rows, cols) and rows != cols:
            raise shape_error(op_name, f"Dimensions must be equal, but are {rows} and {cols}",
                              [x.shape])
        return rule(x, **attrs)
    return checked


def _with_matrix(batch, rows, cols):
    return unknown_shape() if batch.rank is None else batch.concatenate(TensorShape([rows, cols]))


def _with_vector(batch, n):
    return unknown_shape() if batch.rank is None else batch.concatenate(TensorShape([n]))


# -- matmul ---------------------------------------------------------------------------------

def _check_rank2(a, b):
    # the message of TF's default (oneDNN) CPU kernel
    for i, t in enumerate((a, b)):
        if t.ndim != 2:
            raise _invalid(f"In[{i}] ndims must be >= 2")


def _size_incompatible(a, b):
    return _invalid(f"Matrix size-incompatible: In[0]: {shape_text(a.shape)}, "
                    f"In[1]: {shape_text(b.shape)}")


def _product(xp, a, b, x, y):
    """``x @ y`` (operands `a`, `b` after transposition) in `a`'s dtype.

    Size mismatches surface from the product itself so the common case pays for no checks.
    """
    threads.adapt()
    try:
        out = _split_product(x, y) if x.dtype == _F32 and xp is np else None
        if out is None:
            out = xp.matmul(x, y)
    except ValueError:
        raise _size_incompatible(a, b) from None
    if out.dtype is not a.dtype:  # bfloat16 products come back as float32
        out = out.astype(a.dtype, copy=False)
    return out


# A float32 product of two matrices with at least this many multiply-adds per thread is
# split over the intra-op threads when OpenBLAS runs on one (as it does once oneDNN's
# OpenMP threads have the cores, or while other processes keep them busy): each part a
# product on one thread, taken by whichever thread is free (`threads.in_chunks`), so no
# thread spins waiting for a descheduled one. Under load too, as TensorFlow keeps its
# thread pool: on two cores shared with other processes, the MLP training steps of the
# benchmarks ran 1.4 to 1.9 times as fast as on one thread when timed in turn with
# TensorFlow (bench/interleaved.py), and as fast when timed alone.
_SPLIT_WORK = 1 << 22
_F32 = np.dtype(np.float32)


def _split_product(x, y):
    """``x @ y`` of two float32 matrices computed in parts on several threads, split along
    the larger dim of the product; None when the work is too small to share."""
    if x.ndim != 2 or y.ndim != 2 or y.dtype != _F32:
        return None
    (m, k), n = x.shape, y.shape[-1]
    parts = min(threads.budget(), m * n * k // _SPLIT_WORK, max(m, n) // 16)
    if parts < 2 or k != y.shape[0] or threads.blas_threads() != 1:
        return None
    out = np.empty((m, n), _F32)
    cut = [max(m, n) * i // parts // 16 * 16 for i in range(parts)] + [max(m, n)]
    if m >= n:
        threads.in_chunks(parts, lambda i: np.matmul(x[cut[i]:cut[i + 1]], y,
                                                     out=out[cut[i]:cut[i + 1]]))
    else:
        threads.in_chunks(parts, lambda i: np.matmul(x, y[:, cut[i]:cut[i + 1]],
                                                     out=out[:, cut[i]:cut[i + 1]]))
    return out


def _matmul_kernel(xp, a, b, transpose_a=False, transpose_b=False):
    if a.dtype in _HALF:
        # NumPy has no BLAS for half types (a naive loop, hundreds of times slower):
        # multiply in float32 and round the product, as TF's CPU kernels accumulate
        return _matmul_kernel(xp, a.astype(xp.float32), b.astype(xp.float32), transpose_a,
                              transpose_b).astype(a.dtype)
    if a.ndim != 2 or b.ndim != 2:
        _check_rank2(a, b)
    return _product(xp, a, b, a.T if transpose_a else a, b.T if transpose_b else b)


def _batch_matmul_kernel(xp, a, b, adj_x=False, adj_y=False):
    try:
        return _batch_product(xp, a, b, adj_x, adj_y)
    except errors.InvalidArgumentError as e:
        if (a.dtype in _HALF or a.dtype == _F32) and e.message.startswith("Matrix size-"):
            # (the message of TF's oneDNN kernel, which runs these dtypes, shows the flags)
            raise _invalid(f"{e.message} {int(adj_x)} {int(adj_y)}") from None
        raise


def _batch_product(xp, a, b, adj_x, adj_y):
    if a.dtype in _HALF:  # in float32, as _matmul_kernel
        return _batch_product(xp, a.astype(xp.float32), b.astype(xp.float32), adj_x,
                              adj_y).astype(a.dtype)
    for i, t in enumerate((a, b)):
        if t.ndim < 2:
            raise _invalid(f"In[{i}] ndims must be >= 2: {t.ndim}")
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise _invalid(f"In[0] and In[1] must have compatible batch dimensions: "
                       f"{shape_text(a.shape)} vs. {shape_text(b.shape)}") from None
    return _product(xp, a, b, _adjoint(xp, a) if adj_x else a, _adjoint(xp, b) if adj_y else b)


def _batch_matmul_v3_kernel(xp, a, b, adj_x=False, adj_y=False, Tout=None):
    out = np.dtype(Tout.as_numpy_dtype)
    return _batch_product(xp, a.astype(out), b.astype(out), adj_x, adj_y)


def _product_matrix(op_name, a, b, flip_a, flip_b):
    """(rows, cols) of the product of the matrices of `a` and `b`, each flipped (transposed)
    first as its flag says; TF's shape error when their inner dims are known to differ."""
    (rows, inner_a), (inner_b, cols) = _matrix(a.shape, flip_a), _matrix(b.shape, flip_b)
    if None not in (inner_a, inner_b) and inner_a != inner_b:
        raise shape_error(op_name, f"Dimensions must be equal, but are {inner_a} and {inner_b}",
                          [a.shape, b.shape])
    return rows, cols


def _matmul_rule(a, b, transpose_a=False, transpose_b=False, **_):
    for t in (a, b):
        _check_rank("MatMul", t, 2, [a.shape, b.shape], exact=True)
    return TensorShape(_product_matrix("MatMul", a, b, transpose_a, transpose_b)), a.dtype


def _batch_matmul_rule(a, b, adj_x=False, adj_y=False, Tout=None, **_):
    dtype = Tout or a.dtype
    for t in (a, b):
        _check_rank("BatchMatMulV2", t, 2, [a.shape, b.shape])
    if a.shape.rank is None or b.shape.rank is None:
        return unknown_shape(), dtype
    for x, y in zip(reversed(a.shape[:-2].as_list()), reversed(b.shape[:-2].as_list())):
        if None not in (x, y) and x != y and 1 not in (x, y):
            raise shape_error("BatchMatMulV2", f"Dimensions must be equal, but are {x} and {y}",
                              [a.shape, b.shape])
    rows, cols = _product_matrix("BatchMatMulV2", a, b, adj_x, adj_y)
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], "BatchMatMulV2")
    return _with_matrix(batch, rows, cols), dtype


_MATMUL = register("MatMul", _matmul_kernel, _matmul_rule, tied=(0, 1), dtypes=_MATMUL_TYPES,
                   fresh=True, input_names=("a", "b"))
_BATCH_MATMUL = register("BatchMatMulV2", _batch_matmul_kernel, _batch_matmul_rule, tied=(0, 1),
                         dtypes=_BATCH_MATMUL_TYPES, fresh=True)


def _product_batched(flags, conjugate):
    """Batching of a matrix product: each operand transposed (and `conjugate`d) per its
    attr in `flags`, then one matmul over the batch."""
    def rule(op, args):
        rank = max(len(t.shape) for t in op.inputs)
        operands = []
        for x, flag in zip(aligned(args, rank), flags):
            if op.attrs.get(flag):
                x = np.swapaxes(x, -1, -2)
                x = np.conj(x) if conjugate else x
            operands.append(x)
        return [np.matmul(*operands)]
    return rule


batching_rules[_MATMUL] = _product_batched(("transpose_a", "transpose_b"), False)
batching_rules[_BATCH_MATMUL] = _product_batched(("adj_x", "adj_y"), True)
tf_nodes[_MATMUL] = NodeForm(fixed={"grad_a": False, "grad_b": False}, outputs=("product",))
tf_args[_MATMUL] = ("a", "b")
tf_nodes[_BATCH_MATMUL] = NodeForm(fixed={"grad_x": False, "grad_y": False},
                                  outputs=("output",))
# Mixed input types with an explicit output type (int8 x int8 -> int32).
_BATCH_MATMUL_V3 = register("BatchMatMulV3", _batch_matmul_v3_kernel, _batch_matmul_rule,
                            tied=())
tf_nodes[_BATCH_MATMUL_V3] = NodeForm(types={"Ta": 0, "Tb": 1}, outputs=("output",),
                                      fixed={"grad_x": False, "grad_y": False})
tf_args[_BATCH_MATMUL_V3] = ("x", "y")


def _batch_matmul_v1_kernel(xp, a, b, adj_x=False, adj_y=False):
    # TF's first batched product: the batch dims equal, never broadcast
    if a.ndim != b.ndim:
        raise _invalid(f"In[0] and In[1] has different ndims: {shape_text(a.shape)} vs. "
                       f"{shape_text(b.shape)}")
    for i in range(a.ndim - 2):
        if a.shape[i] != b.shape[i]:
            raise _invalid(f"In[0].dim({i}) and In[1].dim({i}) must be the same: "
                           f"{shape_text(a.shape)} vs {shape_text(b.shape)}")
    return _batch_matmul_kernel(xp, a, b, adj_x, adj_y)


def _batch_matmul_v1_rule(a, b, adj_x=False, adj_y=False, **_):
    if None not in (a.shape.rank, b.shape.rank):
        if a.shape.rank != b.shape.rank:
            raise shape_error("BatchMatMul", f"Shape must be rank {a.shape.rank} but is rank "
                                             f"{b.shape.rank}", [a.shape, b.shape])
        for x, y in zip(a.shape[:-2].as_list(), b.shape[:-2].as_list()):
            if None not in (x, y) and x != y:
                raise shape_error("BatchMatMul", f"Dimensions must be equal, but are {x} and "
                                                 f"{y}", [a.shape, b.shape])
    return _batch_matmul_rule(a, b, adj_x, adj_y)


_BATCH_MATMUL_V1 = register("BatchMatMul", _batch_matmul_v1_kernel, _batch_matmul_v1_rule,
                            tied=(0, 1), dtypes=_BATCH_MATMUL_TYPES, fresh=True)
tf_nodes[_BATCH_MATMUL_V1] = NodeForm(fixed={"grad_x": False, "grad_y": False},
                                     outputs=("output",))
batching_rules[_BATCH_MATMUL_V1] = PER_ELEMENT


def _check_flags(transpose, adjoint, which):
    if transpose and adjoint:
        raise ValueError(f"Only one of `transpose_{which}` and `adjoint_{which}` can be True. "
                         f"Received `transpose_{which}`={transpose}, `adjoint_{which}`={adjoint}.")


def _batched(a, b):
    """True when TF's matmul takes the batched op: a rank above 2, or unknown."""
    ra, rb = a.ndim, b.ndim
    return ra is None or rb is None or ra > 2 or rb > 2


_MATMUL_SCOPE = errors.ScopeName("MatMul")  # (TF's wrapper opens a scope of this name)


@export("linalg.matmul", "matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """Multiplies matrix `a` by matrix `b` (stacks of matrices broadcast their batch dims).

    `transpose_*` transposes, `adjoint_*` conjugate-transposes an operand first;
    the sparsity and `grad_*` hints are accepted and ignored.

    >>> tf.matmul(tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 0], [0, 1]]), transpose_a=True)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 3],
           [2, 4]], dtype=int32)>
    """
    if type(a) is EagerTensor and type(b) is EagerTensor and a._data.ndim == 2 == b._data.ndim \
            and not (transpose_a or transpose_b or adjoint_a or adjoint_b or output_type):
        return dispatch(_MATMUL, (a, b), _NO_ATTRS, name)  # the common case, kept thin
    a = as_tensor(a)
    if not isinstance(b, Tensor):
        b = convert_to_tensor(b, dtype_hint=a.dtype)
    _check_flags(transpose_a, adjoint_a, "a")
    _check_flags(transpose_b, adjoint_b, "b")
    if output_type is not None and _d.as_dtype(output_type) != a.dtype:
        return dispatch(_BATCH_MATMUL_V3, (a, b), {"adj_x": transpose_a or adjoint_a,
                                                   "adj_y": transpose_b or adjoint_b,
                                                   "Tout": _d.as_dtype(output_type)}, name)
    conjugates = a.dtype.is_complex and (adjoint_a or adjoint_b)
    if not _batched(a, b) and not conjugates:
        attrs = {"transpose_a": transpose_a or adjoint_a, "transpose_b": transpose_b or adjoint_b}
        return dispatch(_MATMUL, (a, b), attrs, name)
    # The batched op only conjugate-transposes: plain transposes of complex matrices go first.
    if a.dtype.is_complex and transpose_a:
        a, transpose_a = matrix_transpose(a), False
    if a.dtype.is_complex and transpose_b:
        b, transpose_b = matrix_transpose(b), False
    attrs = {"adj_x": transpose_a or adjoint_a, "adj_y": transpose_b or adjoint_b}
    return dispatch(_BATCH_MATMUL, (a, b), attrs, name or _MATMUL_SCOPE)  # TF's node name


@export("linalg.matvec")
def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """Multiplies matrix `a` by vector `b`: ``matmul(a, b[..., None])[..., 0]``.

    >>> tf.linalg.matvec(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
    """
    a = as_tensor(a)
    b = late.array_ops.expand_dims(as_tensor(b), -1)
    return late.array_ops.squeeze(matmul(a, b, transpose_a=transpose_a, adjoint_a=adjoint_a), -1,
                                  name=name)


@export("linalg.matrix_transpose")
def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Transposes the last two dimensions of `a` (conjugating too when `conjugate`).

    >>> tf.linalg.matrix_transpose(tf.constant([[1, 2, 3]])).shape
    TensorShape([3, 1])
    """
    a = as_tensor(a)
    rank = a.shape.rank
    if rank is None:  # the rank is known when the graph runs: so is the permutation
        r = late.array_ops.rank(a)
        perm = late.array_ops.concat([late.array_ops.range(r - 2),
                                      late.array_ops.stack([r - 1, r - 2])], 0)
        return late.array_ops.transpose(a, perm, conjugate=conjugate, name=name)
    if rank < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = "
                         f"{np.asarray(a) if isinstance(a, EagerTensor) else a} with shape: "
                         f"{a.shape}")
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return late.array_ops.transpose(a, perm, conjugate=conjugate, name=name)


@export("linalg.adjoint")
def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions of `matrix`.

    >>> tf.linalg.adjoint(tf.constant([[1j, 2]]))
    <tf.Tensor: shape=(2, 1), dtype=complex128, numpy=
    array([[0.-1.j],
           [2.-0.j]])>
    """
    return matrix_transpose(matrix, name=name or "adjoint", conjugate=True)


# -- square-matrix ops ----------------------------------------------------------------------

def _check_matrix(x, square=True):
    if x.ndim < 2:
        raise _invalid(f"Input tensor 0 must have rank >= 2, got {x.ndim}")
    if square and x.shape[-1] != x.shape[-2]:
        raise _invalid("Input matrix must be square.")


def _nonfinite(xp, x):
    """Per matrix of the stack `x`: whether it holds a nan or an infinity."""
    return ~xp.isfinite(x).all(axis=(-2, -1))


def _check_first_pivot(xp, x, message):
    """TF's LU-based ops reject a NaN first pivot (the smallest pivot magnitude is then NaN,
    which fails their ``> 0`` check); later NaNs only propagate into the result."""
    if x.shape[-1] and xp.isnan(x[..., 0, 0]).any():
        raise _invalid(message)


def _lu_fallback(xp, x):
    """Which real matrices of the stack `x` hold nan or inf (None when none do): those are
    factored as TF's kernels factor them, since LAPACK's blocked LU carries nan and inf
    elsewhere (an all-inf first column gives NaN in TF, a finite-looking result in LAPACK)."""
    if xp is not np or x.dtype.kind != "f" or not x.size:
        return None
    bad = _nonfinite(xp, x)
    return bad.reshape(-1) if bad.any() else None


def _pivot(column):
    """TF's (Eigen's) pivot search over a column: the first entry of largest magnitude, a NaN
    passed over unless it comes first (every comparison with it fails)."""
    mags = np.abs(column)
    if np.isnan(mags[0]):
        return 0
    return int(np.argmax(np.where(np.isnan(mags), -np.inf, mags)))


def _eigen_lu(m):
    """TF's (Eigen's) partial-pivoting LU of one matrix: the pivot is `_pivot`'s, a zero
    column is neither swapped nor divided, and the update always runs.
    Returns the packed factors, the row order and the parity of the swaps."""
    lu = np.array(m)
    order, parity = np.arange(lu.shape[-1]), 1
    for k in range(lu.shape[-1]):
        piv = k + _pivot(lu[k:, k])
        if lu[piv, k] != 0:
            if piv != k:
                lu[[k, piv]] = lu[[piv, k]]
                order[[k, piv]] = order[[piv, k]]
                parity = -parity
            lu[k + 1:, k] /= lu[k, k]
        lu[k + 1:, k + 1:] -= lu[k + 1:, k, None] * lu[k, None, k + 1:]
    return lu, order, parity


def _lu_invertible(lu):
    """TF's test that the smallest pivot magnitude is positive, taken as a running minimum:
    a NaN pivot fails it only when it comes first."""
    mags = np.abs(np.diagonal(lu))
    low = mags[0]
    for m in mags[1:]:
        if m < low:
            low = m
    return low > 0


def _lu_solve(lu, order, rhs):
    """Solves with `_eigen_lu`'s factors. Every product is formed (0 * inf is NaN) and each
    pivot divides as a multiplication by its reciprocal, as TF's triangular solves do."""
    b = np.array(rhs[order])
    n = lu.shape[-1]
    for i in range(n):
        b[i] -= (lu[i, :i, None] * b[:i]).sum(0)
    for i in reversed(range(n)):
        b[i] -= (lu[i, i + 1:, None] * b[i + 1:]).sum(0)
        b[i] *= 1 / lu[i, i]
    return b


def _solve_nonfinite(x, rhs, bad, solve, message):
    """`solve(matrix, rhs)` of each finite matrix of the stack `x`, TF's LU solve of the others
    (`rhs` None: the inverse)."""
    flat = x.reshape((-1,) + x.shape[-2:])
    rhs = np.broadcast_to(np.eye(x.shape[-1], dtype=x.dtype), flat.shape) if rhs is None \
        else rhs.reshape((len(flat),) + rhs.shape[-2:])
    out = np.empty(rhs.shape, x.dtype)
    with np.errstate(all="ignore"):
        for i, (m, b) in enumerate(zip(flat, rhs)):
            if not bad[i]:
                out[i] = solve(m, b)
                continue
            lu, order, _ = _eigen_lu(m)
            if not _lu_invertible(lu):
                raise _invalid(message)
            out[i] = _lu_solve(lu, order, b)
    return out


def _lu_determinants(x, bad, det, sign=None):
    """Overwrites the determinants (or the signs and log-magnitudes) of the `bad` matrices of
    `x` with those of TF's LU: the product of the pivots, their signs and summed logs."""
    flat = x.reshape((-1,) + x.shape[-2:])
    det = np.array(det).reshape(-1)
    sign = None if sign is None else np.array(sign).reshape(-1)
    with np.errstate(all="ignore"):
        for i in np.flatnonzero(bad):
            lu, _, parity = _eigen_lu(flat[i])
            pivots = np.diagonal(lu)
            if sign is None:
                det[i] = parity * np.prod(pivots)
            else:
                sign[i] = parity * np.prod(np.sign(pivots))
                det[i] = np.sum(np.log(np.abs(pivots)))
    shape = x.shape[:-2]
    return det.reshape(shape) if sign is None else (sign.reshape(shape), det.reshape(shape))


@quiet
def _inverse(xp, x, adjoint=False):
    _check_matrix(x)
    _check_first_pivot(xp, x, "Input is not invertible.")
    if adjoint:
        x = _adjoint(xp, x)
    bad = _lu_fallback(xp, x)
    try:
        if bad is not None:
            return _solve_nonfinite(x, None, bad, lambda m, _: np.linalg.inv(m),
                                    "Input is not invertible.").reshape(x.shape)
        return xp.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise _invalid("Input is not invertible.") from None


def _nan_matrices(xp, x):
    """Which matrices of `x` hold a NaN: their determinants are NaN in TF, where LAPACK's
    pivoting may take the NaN for a zero and report a singular matrix."""
    return xp.isnan(x).any(axis=(-2, -1))


def _singular_zero(x, values):
    """`values` (determinants, or signs) with each exact zero signed as TF's: the product of
    the pivots of Eigen's partial-pivoting LU (a zero column skipped, not swapped) times the
    parity of its row swaps."""
    zero = np.asarray(values == 0)
    if not zero.any():
        return values
    values = np.array(values)
    flat, out = x.reshape((-1,) + x.shape[-2:]), values.reshape(-1)
    for i in np.flatnonzero(zero.reshape(-1)):
        m, parity = flat[i].copy(), 1
        for k in range(m.shape[-1]):
            piv = k + int(np.argmax(np.abs(m[k:, k])))
            if m[piv, k] == 0:
                continue
            if piv != k:
                m[[k, piv]] = m[[piv, k]]
                parity = -parity
            m[k + 1:, k] /= m[k, k]
            m[k + 1:, k + 1:] -= np.outer(m[k + 1:, k], m[k, k + 1:])
        out[i] = np.prod(np.diagonal(m)) * parity * out.dtype.type(0)
    return values


def _nan_of(xp, dtype):
    """NaN of `dtype`: NaN in both parts for complex dtypes, as TF's determinants give it."""
    return xp.asarray(complex(np.nan, np.nan) if np.dtype(dtype).kind == "c" else np.nan, dtype)


def _determinant(xp, x):
    _check_matrix(x)
    with np.errstate(invalid="ignore"):
        det = xp.linalg.det(x)
    det = xp.where(_nan_matrices(xp, x), _nan_of(xp, det.dtype), det)
    if det.dtype.kind == "c":  # (TF's complex products carry a NaN into both parts)
        det = xp.where(xp.isnan(det), _nan_of(xp, det.dtype), det)
    if xp is np and x.size:
        with np.errstate(all="ignore"):
            det = _singular_zero(x, det)
    bad = _lu_fallback(xp, x)
    if bad is not None:
        det = _lu_determinants(x, bad, det)
    return det.astype(x.dtype, copy=False)


def _log_determinant(xp, x):
    _check_matrix(x)
    with np.errstate(invalid="ignore"):  # nan and inf give NaN, as in TF
        sign, logabs = xp.linalg.slogdet(x)
    # a NaN log-determinant has a NaN sign in TF (NumPy reports 0 or +-1)
    nan = _nan_matrices(xp, x) | xp.isnan(logabs)
    sign = xp.where(nan, _nan_of(xp, sign.dtype), sign)
    logabs = xp.where(nan, xp.asarray(xp.nan, logabs.dtype), logabs)
    if xp is np and x.size:
        with np.errstate(all="ignore"):
            sign = _singular_zero(x, sign)
    if sign.dtype.kind == "c":  # TF's complex sign carries a NaN (or inf) through both parts,
        sign = xp.where(xp.isnan(sign), _nan_of(xp, sign.dtype), sign)  # and the log with it
        logabs = xp.where(xp.isnan(sign), xp.asarray(xp.nan, logabs.dtype), logabs)
    bad = _lu_fallback(xp, x)
    if bad is not None:
        sign, logabs = _lu_determinants(x, bad, logabs, sign)
    return sign.astype(x.dtype, copy=False), logabs.astype(x.dtype)  # complex stays complex


def _cholesky(xp, x):
    """Lower Cholesky factors (only the lower triangle is read); NaN where not positive
    definite (zeros for complex matrices)."""
    _check_matrix(x)
    bad = _nonfinite(xp, xp.tril(x))
    if not bad.any():
        try:
            return xp.linalg.cholesky(x)
        except np.linalg.LinAlgError:
            pass
    # Rare path: factor each matrix alone to find the failing or non-finite ones.
    flat = x.reshape((-1,) + x.shape[-2:])
    bad = bad.reshape(-1)
    return xp.stack([_cholesky_unblocked(xp, m) if b else _cholesky_or_nan(xp, m)
                     for m, b in zip(flat, bad)]).reshape(x.shape)


def _cholesky_or_nan(xp, m):
    try:
        return xp.linalg.cholesky(m)
    except np.linalg.LinAlgError:
        return _failed_cholesky(xp, m)


def _failed_cholesky(xp, m):
    """What TF's kernel leaves for a matrix that is not positive definite: NaN in the lower
    triangle for real matrices, zeros for complex ones (whose logdet is then -inf)."""
    if m.dtype.kind == "c":
        return xp.zeros_like(m)
    lower = xp.tril(xp.ones(m.shape, bool))
    return xp.where(lower, xp.asarray(xp.nan, m.dtype), xp.zeros((), m.dtype))


def _cholesky_unblocked(xp, m):
    """Column-by-column Cholesky of one matrix holding nan or inf, propagating them as TF's
    factorization does (LAPACK's blocked one places them differently)."""
    n = m.shape[-1]
    low = xp.zeros_like(m)
    with np.errstate(all="ignore"):
        for k in range(n):
            row = low[k, :k]
            pivot = m[k, k].real - xp.vdot(row, row).real
            if pivot <= 0:  # not positive definite (a NaN pivot carries on, as in TF)
                return _failed_cholesky(xp, m)
            low[k, k] = xp.sqrt(pivot)
            low[k + 1:, k] = (m[k + 1:, k] - low[k + 1:, :k] @ row.conj()) / low[k, k]
    return low


def _eigh(xp, x, compute_v=True):
    _check_matrix(x)
    bad = _nonfinite(xp, xp.tril(x))
    if bad.any():
        return _eigh_nonfinite(xp, x, bad, compute_v)
    try:
        if not compute_v:
            return xp.linalg.eigvalsh(x).astype(x.dtype), xp.zeros((0,), x.dtype)
        n = x.shape[-1]
        count = x.size // (n * n) if n else 0
        if (xp is np and x.dtype.kind == "f" and n <= selfadjoint_eigen.MAX_SIZE
                and 0 < count <= selfadjoint_eigen.MAX_MATRICES):
            flat = x.reshape((count, n, n))
            # TF's kernel (Eigen's eigensolver): its eigenvectors' signs, not LAPACK's
            pairs = [selfadjoint_eigen.eigh_like_eigen(m) for m in flat]
            e = np.stack([p[0] for p in pairs]).reshape(x.shape[:-1])
            v = np.stack([p[1] for p in pairs]).reshape(x.shape)
        else:
            e, v = xp.linalg.eigh(x)
    except np.linalg.LinAlgError:
        raise _invalid(_EIGH_FAILED) from None
    return e.astype(x.dtype), v  # eigenvalues take the input's type, complex included


_EIGH_FAILED = "Self-adjoint eigen decomposition was not successful. The input might not be valid."


def _eigh_nonfinite(xp, x, bad, compute_v):
    """TF's results for matrices whose lower triangle holds nan or inf.

    TF scales each matrix by its largest magnitude: an infinity there turns every finite entry
    into 0 and every infinite one into NaN. Only a lone infinite (0, 0) entry survives that (a
    diagonal matrix: NaN eigenvalues, identity eigenvectors); anything else fails to converge.
    """
    lower = xp.tril(x)
    lone = xp.isinf(lower[..., 0, 0]) & ((~xp.isfinite(lower)).sum(axis=(-2, -1)) == 1)
    if (bad & ~lone).any():
        raise _invalid(_EIGH_FAILED)
    e = xp.zeros(x.shape[:-1], x.dtype)
    v = xp.broadcast_to(xp.eye(x.shape[-1], dtype=x.dtype), x.shape).copy()
    finite = ~bad
    if finite.any():
        e[finite], v[finite] = xp.linalg.eigh(x[finite])
    e[bad] = xp.nan
    return (e, v) if compute_v else (e, xp.zeros((0,), x.dtype))


@quiet
def _qr(xp, x, full_matrices=False):
    _check_matrix(x, square=False)
    bad = _nonfinite(xp, x)
    mode = "complete" if full_matrices else "reduced"
    if not bad.any():
        return tuple(xp.linalg.qr(x, mode=mode))
    # Rare path: matrices holding nan or inf go through a plain Householder QR, so the NaNs land
    # where TF's do (LAPACK's reflectors place them differently).
    flat, bad = x.reshape((-1,) + x.shape[-2:]), bad.reshape(-1)
    pairs = [_householder_qr(xp, m, full_matrices) if b else xp.linalg.qr(m, mode=mode)
             for m, b in zip(flat, bad)]
    return tuple(xp.stack([p[i] for p in pairs]).reshape(x.shape[:-2] + pairs[0][i].shape)
                 for i in (0, 1))


def _householder_qr(xp, a, full):
    """Unblocked Householder QR of one matrix: ``(q, r)``, NaN propagating as in TF."""
    m, n = a.shape
    k = min(m, n)
    r = a.copy()
    vs, taus = [], []
    tiny = np.finfo(a.dtype).tiny
    with np.errstate(all="ignore"):
        for j in range(k):
            c0, tail = r[j, j], r[j + 1:, j]
            tail_norm = xp.vdot(tail, tail).real
            if tail_norm <= tiny and c0.imag ** 2 <= tiny:  # already triangular here
                tau, beta, essential = 0, c0.real, xp.zeros_like(tail)
            else:
                beta = xp.sqrt(abs(c0) ** 2 + tail_norm)
                beta = -beta if c0.real >= 0 else beta
                essential = tail / (c0 - beta)
                tau = xp.conj((beta - c0) / beta)
            v = xp.concatenate([xp.ones(1, a.dtype), essential])
            r[j, j], r[j + 1:, j] = beta, 0
            _reflect(xp, r[j:, j + 1:], v, tau)
            vs.append(v)
            taus.append(tau)
        q = xp.eye(m, m if full else k, dtype=a.dtype)
        for j in reversed(range(k)):
            # TF's full Q updates only the trailing corner; its reduced Q whole rows
            _reflect(xp, q[j:, j:] if full else q[j:], vs[j], taus[j])
    return q, (r if full else r[:k])


def _reflect(xp, block, v, tau):
    """Applies ``I - tau v v^H`` to `block` in place, from the left."""
    if block.shape[0] == 1:
        block *= 1 - tau
    elif tau != 0:
        block -= tau * xp.outer(v, v.conj() @ block)


@quiet
def _svd(xp, x, full_matrices=False, compute_uv=True):
    _check_matrix(x, square=False)
    # LAPACK's SVD loops forever on some infinite inputs: matrices holding nan or inf are not
    # given to it, and come out all NaN as in TF.
    bad = _nonfinite(xp, x)
    if bad.any():
        x = xp.where(bad[..., None, None], xp.zeros((), x.dtype), x)
    if (xp is np and x.dtype.kind == "f" and 0 < x.shape[-1] <= jacobi_svd.MAX_COLUMNS
            and x.size):
        # TF's kernel (Eigen's Jacobi SVD): its singular vectors' signs, not LAPACK's, and its
        # exact zeros for rank-deficient matrices (LAPACK leaves ~1e-16 there)
        s, u, v = jacobi_svd.svd_like_eigen(x, full_matrices)
    elif not compute_uv:
        s = xp.linalg.svd(x, compute_uv=False)
    else:
        u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
        v = _adjoint(xp, vh)  # TF's order (s, u, v), and v rather than v^H
    if not compute_uv:
        empty = xp.zeros((0,), x.dtype)
        return _nan_where(xp, bad, s, 1), empty, empty
    return _nan_where(xp, bad, s, 1), _nan_where(xp, bad, u, 2), _nan_where(xp, bad, v, 2)


def _nan_where(xp, bad, out, inner):
    """`out` with NaN in the entries of the matrices flagged `bad` (`inner`: out's own dims)."""
    if not bad.any():
        return out
    return xp.where(bad.reshape(bad.shape + (1,) * inner), xp.asarray(xp.nan, out.dtype), out)


def _det_rule(x, **_):
    return _batch(x.shape), x.dtype


def _slogdet_rule(x, **_):
    return [(_batch(x.shape), x.dtype)] * 2


def _eigh_rule(x, compute_v=True, **_):
    n = _matrix(x.shape)[1]
    v = x.shape if compute_v else TensorShape([0])
    return [(_with_vector(_batch(x.shape), n), x.dtype), (v, x.dtype)]


def _qr_rule(x, full_matrices=False, **_):
    m, n = _matrix(x.shape)
    k = m if full_matrices else _min(m, n)
    batch = _batch(x.shape)
    return [(_with_matrix(batch, m, k), x.dtype), (_with_matrix(batch, k, n), x.dtype)]


def _svd_rule(x, full_matrices=False, compute_uv=True, **_):
    m, n = _matrix(x.shape)
    batch = _batch(x.shape)
    s = (_with_vector(batch, _min(m, n)), x.dtype.real_dtype)
    if not compute_uv:
        return [s, (TensorShape([0]), x.dtype), (TensorShape([0]), x.dtype)]
    ku, kv = (m, n) if full_matrices else (_min(m, n), _min(m, n))
    return [s, (_with_matrix(batch, m, ku), x.dtype), (_with_matrix(batch, n, kv), x.dtype)]


_INVERSE = register("MatrixInverse", _single_or_wider(_inverse),
                    _matrix_op_rule("MatrixInverse", same_shape), dtypes=_LAPACK)
_DETERMINANT = register("MatrixDeterminant", _single_or_wider(_determinant),
                        _matrix_op_rule("MatrixDeterminant", _det_rule),
                        dtypes=_DETERMINANT_TYPES)
_LOG_DETERMINANT = register("LogMatrixDeterminant", _single_or_wider(_log_determinant),
                            _matrix_op_rule("LogMatrixDeterminant", _slogdet_rule), multi=True,
                            dtypes=_DETERMINANT_TYPES)
tf_nodes[_LOG_DETERMINANT] = NodeForm(outputs=("sign", "log_abs_determinant"))
_CHOLESKY = register("Cholesky", _single_or_wider(_cholesky),
                     _matrix_op_rule("Cholesky", same_shape), dtypes=_LAPACK)
_EIGH = register("SelfAdjointEigV2", _single_or_wider(_eigh),
                 _matrix_op_rule("SelfAdjointEigV2", _eigh_rule), multi=True, dtypes=_LAPACK)
tf_nodes[_EIGH] = NodeForm(outputs=("e", "v"))
_QR = register("Qr", _single_or_wider(_qr), _matrix_op_rule("Qr", _qr_rule, square=False),
               multi=True, dtypes=_LAPACK)
tf_nodes[_QR] = NodeForm(outputs=("q", "r"))
_SVD = register("Svd", _single_or_wider(_svd), _matrix_op_rule("Svd", _svd_rule, square=False),
                multi=True, dtypes=_LAPACK)
tf_nodes[_SVD] = NodeForm(outputs=("s", "u", "v"))


@export("linalg.inv")
def inv(input, adjoint=False, name=None):
    """The inverse of each square matrix in `input` (of its adjoint when `adjoint`).

    >>> tf.linalg.inv(tf.constant([[2.0, 0.0], [0.0, 4.0]]))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)>
    """
    return dispatch(_INVERSE, (as_tensor(input),), {"adjoint": bool(adjoint)}, name)


@export("linalg.det")
def det(input, name=None):
    """The determinant of each square matrix in `input`.

    >>> tf.linalg.det(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=-2.0>
    """
    return dispatch(_DETERMINANT, (as_tensor(input),), _NO_ATTRS, name)


# Results with named fields, printed as TF prints them.
LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant",
                                              ["sign", "log_abs_determinant"])
Qr = collections.namedtuple("Qr", ["q", "r"])


@export("linalg.slogdet")
def slogdet(input, name=None):
    """Sign and log of the absolute determinant of each square matrix: ``(sign, log_abs_det)``.

    >>> sign, logabs = tf.linalg.slogdet(tf.constant([[0.0, 1.0], [1.0, 0.0]]))
    >>> float(sign), float(logabs)
    (-1.0, 0.0)
    """
    return LogMatrixDeterminant(*dispatch(_LOG_DETERMINANT, (as_tensor(input),), _NO_ATTRS,
                                          name))


@export("linalg.cholesky")
def cholesky(input, name=None):
    """The lower Cholesky factor of each Hermitian positive-definite matrix in `input`.

    Only the lower triangle is read; matrices that are not positive definite give NaN.

    >>> tf.linalg.cholesky(tf.constant([[4.0, 2.0], [2.0, 5.0]]))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[2., 0.],
           [1., 2.]], dtype=float32)>
    """
    return dispatch(_CHOLESKY, (as_tensor(input),), _NO_ATTRS, name)


@export("linalg.eigh")
def eigh(tensor, name=None):
    """Eigen-decomposition of self-adjoint matrices: ``(e, v)``, eigenvalues ascending.

    Only the lower triangle is read.

    >>> e, v = tf.linalg.eigh(tf.constant([[2.0, 1.0], [1.0, 2.0]]))
    >>> np.round(e.numpy(), 4)
    array([1., 3.], dtype=float32)
    """
    return dispatch(_EIGH, (as_tensor(tensor),), {"compute_v": True}, name)


@export("linalg.eigvalsh")
def eigvalsh(tensor, name=None):
    """The eigenvalues of self-adjoint matrices, ascending.

    >>> np.round(tf.linalg.eigvalsh(tf.constant([[2.0, 1.0], [1.0, 2.0]])).numpy(), 4)
    array([1., 3.], dtype=float32)
    """
    return dispatch(_EIGH, (as_tensor(tensor),), {"compute_v": False}, name)[0]


@export("linalg.eigh_tridiagonal")
def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None,
                     name=None):
    """The eigenvalues (ascending), and with ``eigvals_only=False`` the eigenvectors as
    columns, of the self-adjoint tridiagonal matrix with diagonal `alpha` and
    superdiagonal `beta` (its conjugate below). `select` keeps all (``"a"``), those in
    the half-open interval ``select_range = (lo, hi]`` (``"v"``), or those of indices
    ``lo`` to ``hi`` inclusive (``"i"``). `tol` is accepted (the values come from a full
    decomposition, to working precision).

    >>> tf.linalg.eigh_tridiagonal([2.0, 2.0], [1.0]).numpy()
    array([1., 3.], dtype=float32)
    """
    alpha, beta = as_tensor(alpha), as_tensor(beta)
    if select not in ("a", "v", "i"):
        raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
    if alpha.shape.rank not in (None, 1) or beta.shape.rank not in (None, 1):
        raise ValueError("Only 1D alpha and beta are supported.")
    n, m = alpha.shape.num_elements(), beta.shape.num_elements()
    if n is not None and m is not None and m != max(n - 1, 0):
        raise ValueError(f"Expected beta to have {max(n - 1, 0)} elements. Got: {m}")
    beta = cast(beta, alpha.dtype)
    upper = late.array_ops.pad(diag(beta), [[0, 1], [1, 0]])
    lower = matrix_transpose(upper, conjugate=alpha.dtype.is_complex)
    values, vectors = eigh(math_ops.add(math_ops.add(diag(alpha), upper), lower))
    if values.dtype.is_complex:  # (real, as a self-adjoint matrix's are)
        values = math_ops.real(values)
    if select != "a":
        lo, hi = select_range
        if select == "i":
            keep = late.array_ops.range(int(lo), int(hi) + 1)
        else:
            inside = math_ops.logical_and(math_ops.greater(values, lo),
                                          math_ops.less_equal(values, hi))
            keep = late.array_ops.reshape(late.array_ops.where(inside), [-1])
        values = late.array_ops.gather(values, keep)
        vectors = late.array_ops.gather(vectors, keep, axis=1)
    return values if eigvals_only else (values, vectors)


@export("linalg.qr")
def qr(input, full_matrices=False, name=None):
    """QR decomposition of each matrix in `input`: ``(q, r)``.

    >>> q, r = tf.linalg.qr(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    >>> q.shape, r.shape
    (TensorShape([3, 2]), TensorShape([2, 2]))
    """
    return Qr(*dispatch(_QR, (as_tensor(input),), {"full_matrices": bool(full_matrices)}, name))


@export("linalg.svd")
def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values (and vectors) of each matrix: ``s``, or ``(s, u, v)`` with a = u s v^H.

    >>> s, u, v = tf.linalg.svd(tf.constant([[3.0, 0.0], [0.0, 4.0]]))
    >>> s
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 3.], dtype=float32)>
    """
    s, u, v = dispatch(_SVD, (as_tensor(tensor),), {"full_matrices": bool(full_matrices),
                                                    "compute_uv": bool(compute_uv)}, name)
    return (s, u, v) if compute_uv else s


@export("linalg.logdet")
def logdet(matrix, name=None):
    """The log-determinant of each Hermitian positive-definite matrix (through Cholesky).

    >>> tf.linalg.logdet(tf.constant([[4.0, 2.0], [2.0, 3.0]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=2.079441547393799>
    """
    diagonal = math_ops.real(diag_part(cholesky(matrix)))
    return math_ops.multiply(late.reduction_ops.reduce_sum(math_ops.log(diagonal), axis=-1), 2.0,
                             name=name)


def _check_pinv_input(a, dtype_hint=None):
    """TF's argument checks of `pinv` and `matrix_rank` (which converts Python values with
    a float32 `dtype_hint`)."""
    a = convert_to_tensor(a, dtype_hint=dtype_hint)
    if not a.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {a.dtype.name}).")
    if a.shape.rank is not None and a.shape.rank < 2:
        raise ValueError(f"Input `a` must have at least 2 dimensions (saw: {a.shape.rank}).")
    return a


def _eps_times_size(a):
    """Machine epsilon of `a`'s dtype times its larger matrix dimension, as a tensor."""
    size = cast(late.reduction_ops.reduce_max(late.array_ops.shape(a)[-2:]), a.dtype)
    return math_ops.multiply(size, float(np.finfo(a.dtype.as_numpy_dtype).eps))


@export("linalg.matrix_rank")
def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values of each matrix above `tol` (default: eps * size * max s).

    >>> tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
    <tf.Tensor: shape=(), dtype=int32, numpy=1>
    """
    a = _check_pinv_input(a, _d.float32)
    s = svd(a, compute_uv=False)
    if tol is None:
        tol = math_ops.multiply(_eps_times_size(a),
                                late.reduction_ops.reduce_max(s, axis=-1, keepdims=True))
    return late.reduction_ops.reduce_sum(cast(math_ops.greater(s, tol), _d.int32), axis=-1,
                                         name=name)


@export("linalg.pinv")
def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of each matrix, ignoring singular values below
    ``rcond * max(s)`` (default `rcond`: 10 * eps * size).

    >>> tf.linalg.pinv(tf.constant([[1.0, 0.0], [0.0, 2.0]]))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1. , 0. ],
           [0. , 0.5]], dtype=float32)>
    """
    a = _check_pinv_input(a)
    if rcond is None:
        rcond = math_ops.multiply(_eps_times_size(a), 10.0)
    s, u, v = svd(a)
    cutoff = late.array_ops.expand_dims(
        math_ops.multiply(rcond, late.reduction_ops.reduce_max(s, axis=-1)), -1)
    # a singular value at or below the cutoff contributes 1/inf = 0
    s = late.array_ops.where(math_ops.greater(s, cutoff), s, np.inf)
    return matmul(math_ops.truediv(v, late.array_ops.expand_dims(s, -2)), u, adjoint_b=True,
                  name=name)


# -- solvers --------------------------------------------------------------------------------

def _check_solve(matrix, rhs, square=True):
    """TF's checks of the (unbroadcast) linear-system ops MatrixSolve and MatrixSolveLs."""
    if matrix.ndim < 2:
        raise _invalid(f"Input tensor 0 must have rank >= 2, got {matrix.ndim}")
    if matrix.ndim != rhs.ndim:
        raise _invalid("All input tensors must have the same rank.")
    if matrix.shape[:-2] != rhs.shape[:-2]:
        raise _invalid("All input tensors must have the same outer dimensions.")
    if square and matrix.shape[-1] != matrix.shape[-2]:
        raise _invalid("First input (lhs) must be a square matrix.")
    if matrix.shape[-2] != rhs.shape[-2]:
        raise _invalid("Input matrix and rhs are incompatible.")


def _solve(xp, matrix, rhs, adjoint=False):
    _check_solve(matrix, rhs)
    _check_first_pivot(xp, matrix, "Input matrix is not invertible.")
    if adjoint:
        matrix = _adjoint(xp, matrix)
    bad = _lu_fallback(xp, matrix)
    try:
        if bad is not None:
            return _solve_nonfinite(matrix, rhs, bad, np.linalg.solve,
                                    "Input matrix is not invertible.").reshape(rhs.shape)
        return xp.linalg.solve(matrix, rhs)
    except np.linalg.LinAlgError:
        raise _invalid("Input matrix is not invertible.") from None


def _solve_ls(xp, matrix, rhs):
    """Minimum-norm least squares (the exact path of `lstsq(fast=False)`)."""
    _check_solve(matrix, rhs, square=False)
    # TF's rank-revealing factorization finds rank 0 in a matrix holding nan or inf (every
    # comparison with NaN fails), so its solution is 0; LAPACK's SVD could loop forever on it.
    bad = _nonfinite(xp, matrix)
    if bad.any():
        matrix = xp.where(bad[..., None, None], xp.zeros((), matrix.dtype), matrix)
    return xp.matmul(xp.linalg.pinv(matrix), rhs)


def _check_triangular(matrix, rhs, lower, adjoint):
    for i, t in enumerate((matrix, rhs)):
        if t.ndim < 2:
            raise _invalid(f"In[{i}] ndims must be >= 2: {t.ndim}")
    n, m = matrix.shape[-2:]
    if n != m:
        raise _invalid(f"In[0] matrices in the last dimensions must be square ({m} =/= {n})")
    if rhs.shape[-2] != n:
        raise _invalid(f"In[0] mismatch In[1] shape: {n} vs. {rhs.shape[-2]}: "
                       f"{shape_text(matrix.shape)} {shape_text(rhs.shape)} {int(lower)} "
                       f"{int(adjoint)}")
    try:
        return np.broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2])
    except ValueError:
        raise _invalid(f"In[0] and In[1] must have compatible batch dimensions: "
                       f"{shape_text(matrix.shape)} vs. {shape_text(rhs.shape)}") from None


def _triangular_solve(xp, matrix, rhs, lower=True, adjoint=False):
    batch = _check_triangular(matrix, rhs, lower, adjoint)
    t = xp.tril(matrix) if lower else xp.triu(matrix)
    if adjoint:
        t = _adjoint(xp, t)
    if xp.isfinite(t).all() and xp.isfinite(rhs).all():
        try:
            return xp.linalg.solve(t, rhs)  # batch dims broadcast
        except np.linalg.LinAlgError:  # a zero on the diagonal: inf/nan as TF gives, no error
            pass
    # substitution also keeps nan and inf where TF's do (LU's pivoting would spread them)
    return _substitute(xp, t, rhs, batch, lower != adjoint)


def _substitute(xp, t, rhs, batch, lower):
    """Row-by-row forward (or back) substitution through triangular `t`."""
    n = t.shape[-1]
    x = xp.zeros(batch + rhs.shape[-2:], xp.result_type(t, rhs))
    with np.errstate(all="ignore"):
        for i in (range(n) if lower else range(n - 1, -1, -1)):
            known = slice(0, i) if lower else slice(i + 1, n)
            done = xp.matmul(t[..., i, None, known], x[..., known, :])[..., 0, :]
            x[..., i, :] = (rhs[..., i, :] - done) / t[..., i, i][..., None]
    return x


# As in TF, only the normal-equations path of lstsq (fast=True) has a gradient:
# differentiating the exact one raises TF's ValueError.
_NO_EXACT_LSTSQ_GRAD = "Gradient not defined for fast=False"


def _check_system(op_name, matrix, rhs, square=True, extra=()):
    """TF's graph-time checks of a linear system's ranks and known sizes."""
    shapes = [matrix.shape, rhs.shape, *extra]
    for t in (matrix, rhs):
        _check_rank(op_name, t, 2, shapes)
    (rows, cols), (rhs_rows, _) = _matrix(matrix.shape), _matrix(rhs.shape)
    for a, b in ((rows, cols) if square else (None, None), (rows, rhs_rows)):
        if None not in (a, b) and a != b:
            raise shape_error(op_name, f"Dimensions must be equal, but are {a} and {b}", shapes)


def _solve_rule(matrix, rhs, **_):
    _check_system("MatrixSolve", matrix, rhs)
    return rhs.shape, matrix.dtype


def _solve_ls_rule(matrix, rhs, **_):
    _check_system("MatrixSolveLs", matrix, rhs, square=False, extra=[TensorShape([])])
    return _with_matrix(_batch(matrix.shape), _matrix(matrix.shape)[1], _matrix(rhs.shape)[1]), \
        matrix.dtype


def _triangular_rule(matrix, rhs, **_):
    _check_system("MatrixTriangularSolve", matrix, rhs)
    if matrix.shape.rank is None or rhs.shape.rank is None:
        return unknown_shape(), matrix.dtype
    batch = broadcast_shapes(matrix.shape[:-2], rhs.shape[:-2], "MatrixTriangularSolve")
    return _with_matrix(batch, *_matrix(rhs.shape)), matrix.dtype


_SOLVE = register("MatrixSolve", _single_or_wider(_solve), _solve_rule, tied=(0, 1),
                  dtypes=_LAPACK)
tf_args[_SOLVE] = ("matrix", "rhs")
_SOLVE_LS = register("MatrixSolveLs", _single_or_wider(_solve_ls), _solve_ls_rule, tied=(0, 1),
                     dtypes=_LAPACK)
tf_args[_SOLVE_LS] = None  # (exact, without TF's l2_regularizer input: no raw op)


@register_gradient("MatrixSolveLs")
def _solve_ls_grad(op, grad):
    raise ValueError(_NO_EXACT_LSTSQ_GRAD)
_TRIANGULAR_SOLVE = register("MatrixTriangularSolve", _single_or_wider(_triangular_solve),
                             _triangular_rule, tied=(0, 1), dtypes=(_d.bfloat16,) + _LAPACK)
tf_args[_TRIANGULAR_SOLVE] = ("matrix", "rhs")
for _op in (_SOLVE, _SOLVE_LS, _TRIANGULAR_SOLVE):
    tf_nodes[_op] = NodeForm(outputs=("output",))


@export("linalg.solve")
def solve(matrix, rhs, adjoint=False, name=None):
    """Solves ``matrix @ x = rhs`` (``adjoint(matrix) @ x = rhs`` when `adjoint`).

    >>> tf.linalg.solve(tf.constant([[2.0, 0.0], [0.0, 4.0]]), tf.constant([[2.0], [2.0]]))
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[1. ],
           [0.5]], dtype=float32)>
    """
    # (one dtype for both, as TF converts them: a NumPy matrix takes a tensor rhs's)
    return dispatch(_SOLVE, tuple(late.nn_ops.matching(matrix, rhs)), {"adjoint": bool(adjoint)},
                    name)


@export("linalg.triangular_solve")
def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """Solves a triangular system; only the `lower` (or upper) triangle of `matrix` is read.

    Batch dimensions broadcast; a zero on the diagonal gives inf/nan, not an error.

    >>> tf.linalg.triangular_solve(tf.constant([[1.0, 9.0], [2.0, 1.0]]),
    ...                            tf.constant([[1.0], [1.0]]))
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[ 1.],
           [-1.]], dtype=float32)>
    """
    return dispatch(_TRIANGULAR_SOLVE, tuple(late.nn_ops.matching(matrix, rhs)),
                    {"lower": bool(lower), "adjoint": bool(adjoint)}, name)


@export("linalg.banded_triangular_solve")
def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """Solves a triangular system whose matrix is given by its `bands` ``[..., K, M]``:
    with `lower`, row 0 is the main diagonal and row k subdiagonal k (padded on the left);
    otherwise row K - 1 is the main diagonal and row K - 1 - k superdiagonal k (padded on
    the right). Batch dimensions broadcast.

    >>> tf.linalg.banded_triangular_solve(tf.constant([[1.0, 2.0], [0.0, 3.0]]),
    ...                                   tf.constant([[1.0], [5.0]]))
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[1.],
           [1.]], dtype=float32)>
    """
    bands, rhs = as_tensor(bands), as_tensor(rhs)
    if bands.shape.rank is not None and bands.shape.rank < 2:
        raise errors.op_error(errors.InvalidArgumentError, "BandedTriangularSolve",
                              f"In[0] ndims must be >= 2: {bands.shape.rank}")
    count, size = bands.shape[-2], bands.shape[-1]
    if count is None or size is None:
        raise ValueError("banded_triangular_solve needs the number and length of the bands "
                         "known when the graph is built.")
    if context.executing_eagerly():
        main = bands[..., 0 if lower else count - 1, :].numpy()
        if (main == 0).any():
            raise errors.op_error(errors.InvalidArgumentError, "BandedTriangularSolve",
                                  "Input matrix is not invertible.")
    dense = None
    for k in range(min(count, size)):  # bands past the matrix's size are ignored
        part = (diag(bands[..., k, k:], k=-k) if lower else
                diag(bands[..., count - 1 - k, :size - k], k=k))
        dense = part if dense is None else math_ops.add(dense, part)
    return triangular_solve(dense, rhs, lower=lower, adjoint=adjoint, name=name)


@export("linalg.cholesky_solve")
def cholesky_solve(chol, rhs, name=None):
    """Solves ``A x = rhs`` given the lower Cholesky factor `chol` of A.

    >>> tf.linalg.cholesky_solve(tf.constant([[2.0, 0.0], [0.0, 2.0]]), tf.constant([[4.0], [8.0]]))
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[1.],
           [2.]], dtype=float32)>
    """
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True, name=name)


@export("linalg.lstsq")
def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """Least-squares solutions of ``matrix @ x = rhs``.

    `fast` solves the (regularized) normal equations through a Cholesky
    factorization; otherwise the minimum-norm solution is computed exactly
    and `l2_regularizer` is ignored, as TensorFlow does.

    >>> x = tf.linalg.lstsq(tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
    ...                     tf.constant([[1.0], [2.0], [3.0]]))
    >>> np.round(x.numpy(), 4).tolist()
    [[1.0], [2.0]]
    """
    matrix, rhs = as_tensor(matrix), as_tensor(rhs)
    if not fast:
        return dispatch(_SOLVE_LS, (matrix, rhs), _NO_ATTRS, name)
    m, n = _matrix(matrix.shape)
    if m is None or n is None or m >= n:  # overdetermined: (A^H A + l2 I) x = A^H b
        gram = _regularized(matmul(matrix, matrix, adjoint_a=True), l2_regularizer, n)
        return cholesky_solve(cholesky(gram), matmul(matrix, rhs, adjoint_a=True), name=name)
    # underdetermined: x = A^H (A A^H + l2 I)^-1 b
    gram = _regularized(matmul(matrix, matrix, adjoint_b=True), l2_regularizer, m)
    return matmul(matrix, cholesky_solve(cholesky(gram), rhs), adjoint_a=True, name=name)


def _regularized(gram, l2_regularizer, n):
    if isinstance(l2_regularizer, (int, float)) and l2_regularizer == 0:
        return gram
    if n is None:  # the size is known only at run time: add to the diagonal in place
        l2 = as_tensor(l2_regularizer, gram.dtype)
        return set_diag(gram, math_ops.add(diag_part(gram), l2))
    eye = convert_to_tensor(np.eye(n, dtype=gram.dtype.as_numpy_dtype))
    return math_ops.add(gram, math_ops.multiply(as_tensor(l2_regularizer, gram.dtype), eye))


# -- diagonals and bands --------------------------------------------------------------------

def _diag_size(length, k, num_rows, num_cols, lo=None):
    """(rows, cols) of the matrices holding diagonal `k` of `length`, as MatrixDiagV3 sizes them
    (diagonals `lo` to `k` of at most `length`, for a range)."""
    if length is None:
        return (None if num_rows < 0 else num_rows), (None if num_cols < 0 else num_cols)
    min_rows, min_cols = length + max(-k, 0), length + max(k if lo is None else lo, 0)
    if num_rows < 0 and num_cols < 0:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows < 0:
        num_rows = min_rows
    elif num_cols < 0:
        num_cols = min_cols
    if num_rows < min_rows:
        raise _invalid("The number of rows is too small.")
    if num_cols < min_cols:
        raise _invalid("The number of columns is too small.")
    if num_rows != min_rows and num_cols != min_cols:
        raise _invalid("The number of rows or columns is not consistent with the specified "
                       "d_lower, d_upper, and diagonal.")
    return num_rows, num_cols


def _run_k(k):
    """Diagonal offset `k` as an int, or a (lo, hi) range of diagonals: given as an input,
    it is known at run time only."""
    if type(k) is int:
        return k
    if type(k) is tuple:  # (a raw op's constant band: an attr)
        k = np.asarray(k)
    if k.ndim > 1 or k.size not in (1, 2):
        raise _invalid(f"diag_index must be a scalar or vector with 1 or 2 elements, received "
                       f"shape: {shape_text(k.shape)}")
    lo, hi = (int(k.reshape(-1)[0]),) * 2 if k.size == 1 else map(int, k)
    if lo > hi:
        raise _invalid(f"lower_diag_index must not be larger than upper_diag_index: {lo} > "
                       f"{hi}")
    return lo if lo == hi else (lo, hi)


def _band_place(d, length, width, align):
    """Where diagonal `d` of `length` sits in a row of `width` of a band of diagonals:
    its offset, right-aligned or left as `align` says for a super- (first) or subdiagonal."""
    side = align.split("_")[0] if d >= 0 else align.split("_")[1]
    return width - length if side == "RIGHT" else 0


def _band_width(rows, cols, lo, hi):
    """The length of the longest diagonal from `lo` to `hi` of a rows x cols matrix."""
    return max(_diag_length(rows, cols, d) for d in range(lo, hi + 1))


def _check_band_ends(rows, cols, lo, hi):
    for which, d, after in (("lower", lo, ". "), ("upper", hi, " ")):
        if d != 0 and not -rows < d < cols:
            raise _invalid(f"{which}_diag_index is out of bound: {d}{after}It must be between "
                           f"{-rows} and {cols}")


def _write_band(xp, out, band, lo, hi, align):
    """`out` (matrices) with diagonals `hi` down to `lo` set from the rows of `band`."""
    rows, cols = out.shape[-2:]
    for d in range(hi, lo - 1, -1):
        length = _diag_length(rows, cols, d)
        start = _band_place(d, length, band.shape[-1], align)
        i = xp.arange(length)
        out[..., i + max(-d, 0), i + max(d, 0)] = band[..., hi - d, start:start + length]
    return out


def _matrix_diag(xp, diagonal, k=0, num_rows=-1, num_cols=-1, padding_value=0,
                 align="RIGHT_LEFT"):
    k = _run_k(k)
    if diagonal.ndim < 1:
        raise _invalid(f"diagonal must be at least 1-dim, received shape: "
                       f"{shape_text(diagonal.shape)}")
    if type(k) is tuple:  # a band of diagonals (known at run time)
        lo, hi = k
        if diagonal.ndim < 2 or diagonal.shape[-2] != hi - lo + 1:
            raise _invalid("The number of diagonals provided in the input does not match the "
                           "lower_diag_index and upper_diag_index range.")
        rows, cols = _diag_size(diagonal.shape[-1], hi, num_rows, num_cols, lo=lo)
        out = xp.full(diagonal.shape[:-2] + (rows, cols), padding_value, diagonal.dtype)
        return _write_band(xp, out, diagonal, lo, hi, align)
    length = diagonal.shape[-1]
    rows, cols = _diag_size(length, k, num_rows, num_cols)
    out = xp.full(diagonal.shape[:-1] + (rows, cols), padding_value, diagonal.dtype)
    i = xp.arange(length)
    out[..., i + max(-k, 0), i + max(k, 0)] = diagonal
    return out


def _diagonal_of(x, k, after):
    """(rows, cols) of the matrices of `x`, with TF's errors for a rank below 2 or a diagonal
    `k` outside them (`after` k: ". " or " ", as TF's ops differ)."""
    if x.ndim < 2:
        raise _invalid(f"input must be at least 2-dim, received shape: {shape_text(x.shape)}")
    rows, cols = x.shape[-2:]
    if k != 0 and not -rows < k < cols:
        raise _invalid(f"lower_diag_index is out of bound: {k}{after}It must be between {-rows} "
                       f"and {cols}")
    return rows, cols


def _matrix_diag_part(xp, x, k=0, padding_value=0, align="RIGHT_LEFT"):
    k = _run_k(k)
    if type(k) is tuple:  # a band of diagonals (known at run time)
        lo, hi = k
        rows, cols = _diagonal_of(x, 0, ". ")
        _check_band_ends(rows, cols, lo, hi)
        width = _band_width(rows, cols, lo, hi)
        out = xp.full(x.shape[:-2] + (hi - lo + 1, width), padding_value, x.dtype)
        for d in range(hi, lo - 1, -1):
            part = xp.diagonal(x, offset=d, axis1=-2, axis2=-1)
            start = _band_place(d, part.shape[-1], width, align)
            out[..., hi - d, start:start + part.shape[-1]] = part
        return out
    _diagonal_of(x, k, ". ")
    return xp.diagonal(x, offset=k, axis1=-2, axis2=-1).copy()


def _band_part(xp, x, num_lower, num_upper):
    if type(num_lower) is not int:  # inputs: known at run time only
        for name, v in (("num_lower", num_lower), ("num_upper", num_upper)):
            if v.ndim:
                raise _invalid(f"{name} must be scalar, got shape {shape_text(v.shape)}")
        num_lower, num_upper = int(num_lower), int(num_upper)
    if x.ndim < 2:
        raise _invalid(f"input must be at least 2-dim, received shape: {shape_text(x.shape)}")
    rows, cols = x.shape[-2:]
    if num_lower > rows:
        raise _invalid(f"num_lower must be negative or less or equal to number of rows ({rows}) "
                       f"got: {num_lower}")
    if num_upper > cols:
        raise _invalid(f"num_upper must be negative or less or equal to number of columns "
                       f"({cols}) got: {num_upper}")
    below = xp.arange(rows)[:, None] - xp.arange(cols)[None, :]  # i - j
    keep = xp.ones((rows, cols), bool)
    if num_lower >= 0:
        keep &= below <= num_lower
    if num_upper >= 0:
        keep &= -below <= num_upper
    return xp.where(keep, x, xp.zeros((), x.dtype))


def _tensor_diag(xp, x):
    if x.ndim < 1:
        raise _invalid(f"Input must be at least rank 1, got {x.ndim}")
    n = x.size
    out = xp.zeros((n, n), x.dtype)
    out[xp.arange(n), xp.arange(n)] = x.reshape(-1)
    return out.reshape(x.shape * 2)


def _tensor_diag_part(xp, x):
    half = x.ndim // 2
    if x.ndim % 2:
        raise _invalid(f"The rank of the tensor should be even and positive, got shape "
                       f"{shape_text(x.shape)}")
    for i in range(half):
        if x.shape[i] != x.shape[i + half]:
            raise _invalid(f"Invalid shape {shape_text(x.shape)}: dimensions {i} and {i + half} "
                           f"do not match.")
    n = int(np.prod(x.shape[:half], dtype=np.int64))
    return xp.diagonal(x.reshape(n, n)).reshape(x.shape[:half])


def _diag_length(rows, cols, k):
    """The length of diagonal `k` of a rows x cols matrix (None when a size is unknown)."""
    if rows is None or cols is None:
        return None
    return max(0, min(rows + min(k, 0), cols - max(k, 0)))


def _set_diag(xp, x, diagonal, k=0, align="RIGHT_LEFT"):
    k = _run_k(k)
    if type(k) is tuple:  # a band of diagonals (known at run time)
        lo, hi = k
        rows, cols = _diagonal_of(x, 0, " ")
        _check_band_ends(rows, cols, lo, hi)
        expected = x.shape[:-2] + (hi - lo + 1, _band_width(rows, cols, lo, hi))
        if diagonal.ndim < 2 or diagonal.shape[-2] != hi - lo + 1:
            raise _invalid("The number of diagonals provided in `diag` is not consistent with "
                           "`lower_diag_index` and `upper_diag_index`")
        if diagonal.shape != expected:
            raise _invalid(_set_diag_mismatch(x.shape, diagonal.shape, expected))
        return _write_band(xp, x.copy(), diagonal, lo, hi, align)
    rows, cols = _diagonal_of(x, k, " ")
    expected = x.shape[:-2] + (_diag_length(rows, cols, k),)
    if diagonal.shape != expected:
        raise _invalid(_set_diag_mismatch(x.shape, diagonal.shape, expected))
    out = x.copy()
    i = xp.arange(expected[-1])
    out[..., i + max(-k, 0), i + max(k, 0)] = diagonal
    return out


def _set_diag_mismatch(shape, diagonal, expected):
    return (f"Either first dimensions of diagonal don't match input.shape[:-2], or "
            f"diagonal.shape[:-1] is not equal to the longests diagonal in range "
            f"[lower_diag_index:upper_diag_index].\nInput shape: {shape_text(shape)}\n"
            f"Diagonal shape: {shape_text(diagonal)}\nExpected diagonal shape: "
            f"{shape_text(expected)}")


def _matrix_diag_rule(d, k=0, num_rows=-1, num_cols=-1, **_):
    _check_rank("MatrixDiagV3", d, 1, [d.shape] + [TensorShape([])] * 4)
    if d.shape.rank is None or type(k) is not int:  # (TF's, for a k known at run time)
        return unknown_shape(), d.dtype
    return _with_matrix(d.shape[:-1], *_diag_size(d.shape[-1], k, num_rows, num_cols)), d.dtype


def _matrix_diag_part_rule(x, k=0, **_):
    _check_rank("MatrixDiagPartV3", x, 2, [x.shape, TensorShape([]), TensorShape([])])
    if type(k) is not int:  # known at run time: TF knows nothing of the shape
        return unknown_shape(), x.dtype
    rows, cols = _matrix(x.shape)
    if k and rows is not None and cols is not None and not -rows < k < cols:
        raise shape_error("MatrixDiagPartV3", "lower_diag_index is out of bound.",
                          [x.shape, TensorShape([]), TensorShape([])], computed=[(1, k)])
    return _with_vector(_batch(x.shape), _diag_length(*_matrix(x.shape), k)), x.dtype


def _set_diag_rule(x, diagonal, k=0, **_):
    _check_rank("MatrixSetDiagV3", x, 2, [x.shape, diagonal.shape, TensorShape([])])
    return x.shape, x.dtype


def _tensor_diag_rule(x, **_):
    if x.shape.rank == 0:
        raise shape_error("Diag", "Shape must be at least rank 1 but is rank 0", [x.shape])
    return (unknown_shape() if x.shape.rank is None else x.shape.concatenate(x.shape)), x.dtype


def _tensor_diag_part_rule(x, **_):
    rank = x.shape.rank
    if rank is None:
        return unknown_shape(), x.dtype
    if rank % 2 or not rank:
        raise shape_error("DiagPart", f"Input must have even and non-zero rank, input rank is "
                                      f"{rank}", [x.shape])
    half = rank // 2
    for a, b in zip(x.shape[:half], x.shape[half:]):
        if None not in (a, b) and a != b:
            raise shape_error("DiagPart", f"Dimensions must be equal, but are {a} and {b}",
                              [x.shape])
    return x.shape[:half], x.dtype


_MATRIX_DIAG = register("MatrixDiagV3", _matrix_diag, _matrix_diag_rule, dtypes=NUMBER_BOOL)
_MATRIX_DIAG_PART = register("MatrixDiagPartV3", _matrix_diag_part, _matrix_diag_part_rule,
                             dtypes=NUMBER_BOOL)
# TF's diagonal ops take k, the sizes and the padding value as inputs; `align` only matters
# for a band of diagonals (eagerflow's ops take one when k is known at run time only).
_K = AttrInput("k", type_attr=None, kind=None, runtime=True)
tf_nodes[_MATRIX_DIAG] = NodeForm(
    inputs=(0, _K, *(AttrInput(n, type_attr=None, kind=int, default=-1)
                     for n in ("num_rows", "num_cols")),
            AttrInput("padding_value", type_attr=None, kind="scalar", like=0, default=0)))
tf_args[_MATRIX_DIAG] = ("diagonal", "k", "num_rows", "num_cols", "padding_value")
tf_nodes[_MATRIX_DIAG_PART] = NodeForm(
    inputs=(0, _K, AttrInput("padding_value", type_attr=None, kind="scalar", like=0,
                             default=0)), outputs=("diagonal",))
_SET_DIAG = register("MatrixSetDiagV3", _set_diag, _set_diag_rule, tied=(0, 1),
                     dtypes=NUMBER_BOOL)
tf_nodes[_SET_DIAG] = NodeForm(inputs=(0, 1, _K), outputs=("output",))
tf_args[_SET_DIAG] = ("input", "diagonal", "k")
_BAND_PART = register("MatrixBandPart", _band_part, same_shape, dtypes=NUMBER_BOOL)
tf_nodes[_BAND_PART] = NodeForm(
    inputs=(0, *(AttrInput(n, type_attr="Tindex", kind=int, runtime=True)
                 for n in ("num_lower", "num_upper"))),
    outputs=("band",))
tf_args[_BAND_PART] = ("input", "num_lower", "num_upper")
_TENSOR_DIAG = register("Diag", _tensor_diag, _tensor_diag_rule, dtypes=NUMBER)
tf_args[_TENSOR_DIAG] = ("diagonal",)
_TENSOR_DIAG_PART = register("DiagPart", _tensor_diag_part, _tensor_diag_part_rule,
                             dtypes=NUMBER)
tf_nodes[_TENSOR_DIAG_PART] = NodeForm(outputs=("diagonal",))


# TF's second diagonal ops: the third's, their bands of diagonals aligned LEFT_LEFT always
def _left_left(kernel):
    return lambda xp, *arrays, **attrs: kernel(xp, *arrays, **attrs, align="LEFT_LEFT")


_MATRIX_DIAG_V2 = register("MatrixDiagV2", _left_left(_matrix_diag), _matrix_diag_rule,
                           dtypes=NUMBER_BOOL)
_MATRIX_DIAG_PART_V2 = register("MatrixDiagPartV2", _left_left(_matrix_diag_part),
                                _matrix_diag_part_rule, dtypes=NUMBER_BOOL)
_SET_DIAG_V2 = register("MatrixSetDiagV2", _left_left(_set_diag), _set_diag_rule, tied=(0, 1),
                        dtypes=NUMBER_BOOL)
for _v2, _v3 in ((_MATRIX_DIAG_V2, _MATRIX_DIAG), (_MATRIX_DIAG_PART_V2, _MATRIX_DIAG_PART),
                 (_SET_DIAG_V2, _SET_DIAG)):
    tf_nodes[_v2] = tf_nodes.get(_v3)
    if tf_args.get(_v3) is not None:
        tf_args[_v2] = tf_args.get(_v3)
    batching_rules[_v2] = PER_ELEMENT


# TF's first diagonal ops, of the main diagonal alone, which older graphs and raw op calls hold
def _v1_kernel(kernel, name, what, least):
    def run(xp, *arrays):
        if arrays[0].ndim < least:
            raise _invalid(f"{what} must be at least {least}-dim, received shape: "
                           f"{shape_text(arrays[0].shape)}")
        return kernel(xp, *arrays)
    run.__name__ = name
    return run


def _v1_rule(rule, op_name, least):
    def run(*inputs):
        x = inputs[0]
        if x.shape.rank is not None and x.shape.rank < least:
            raise shape_error(op_name, f"Shape must be at least rank {least} but is rank "
                                       f"{x.shape.rank}", [t.shape for t in inputs])
        return rule(*inputs)
    return run


_MATRIX_DIAG_V1 = register("MatrixDiag", _v1_kernel(_matrix_diag, "matrix_diag", "diagonal", 1),
                           _v1_rule(_matrix_diag_rule, "MatrixDiag", 1))
tf_args[_MATRIX_DIAG_V1] = ("diagonal",)
_MATRIX_DIAG_PART_V1 = register(
    "MatrixDiagPart", _v1_kernel(_matrix_diag_part, "matrix_diag_part", "input", 2),
    _v1_rule(_matrix_diag_part_rule, "MatrixDiagPart", 2))
tf_nodes[_MATRIX_DIAG_PART_V1] = NodeForm(outputs=("diagonal",))
_SET_DIAG_V1 = register("MatrixSetDiag", _v1_kernel(_set_diag, "matrix_set_diag", "input", 2),
                        _v1_rule(_set_diag_rule, "MatrixSetDiag", 2), tied=(0, 1))
tf_args[_SET_DIAG_V1] = ("input", "diagonal")
tf_nodes[_SET_DIAG_V1] = NodeForm(outputs=("output",))
batching_rules.assign(PER_ELEMENT, _MATRIX_DIAG_V1, _MATRIX_DIAG_PART_V1, _SET_DIAG_V1)


def _run_time_ints(op_def, attr, names, *values):
    """Integer parameters `values` (input 1 on, named `names`) as tensors of one dtype
    (int32 or int64) when run time alone knows one of them, else None; tensors of two
    dtypes fail as TF's type check."""
    if all(isinstance(v, Tensor) for v in values) and len({v.dtype for v in values}) > 1:
        first = values[0].dtype
        i = next(i for i, v in enumerate(values) if v.dtype != first)
        if context.executing_eagerly():
            raise fixed_input_error(op_def, i + 1, names[i], first, values[i].dtype)
        raise TypeError(f"Input '{names[i]}' of '{op_def.name}' Op has type "
                        f"{values[i].dtype.name} that does not match type {first.name} of "
                        f"argument '{names[0]}'.")
    if all(late.array_ops.run_time_tensor(v) is None for v in values):
        return None
    tensors = late.array_ops._matching(values)
    for t in tensors:
        late.array_ops.check_index_dtype(op_def.name, attr, t)
    return tensors


def _static_int(value, param, op_name, dtype=_d.int32):
    """An integer parameter (a diagonal offset, a band width) as a Python int, with TF's
    TypeError for a float."""
    if isinstance(value, Tensor):
        value = late.array_ops._known(value)
    array = np.asarray(value)
    if array.dtype.kind not in "iub" or array.ndim:
        if array.ndim == 0 and array.dtype.kind == "f" and context.executing_eagerly():
            raise TypeError(f"Cannot convert {value} to EagerTensor of dtype {dtype.name}")
        if array.ndim == 0:
            raise TypeError(f"Expected {dtype.name} passed to parameter '{param}' of op "
                            f"'{op_name}', got {value} of type '{type(value).__name__}' instead.")
        raise _invalid(f"{param} must be a scalar, got shape {shape_text(array.shape)}")
    return int(array)


def _single_k(k, op_name, ranges=False):
    """Diagonal offset `k` as an int; a range of diagonals (k=(lo, hi)) as a (lo, hi) tuple
    where `ranges` allows it, otherwise not supported; an int32 tensor when run time alone
    knows it (the op's input, as in TF)."""
    dynamic = late.array_ops.run_time_tensor(k)
    if dynamic is not None:
        if dynamic.dtype != _d.int32:
            raise TypeError(f"Input 'k' of '{op_name}' Op has type {dynamic.dtype.name} that "
                            f"does not match expected type of int32.")
        return dynamic
    if isinstance(k, (tuple, list)):
        lo, hi = (_static_int(v, "k", op_name) for v in k) if len(k) == 2 else (0, 1)
        if lo > hi:
            raise errors.eager_error(errors.InvalidArgumentError, op_name, (
                f"lower_diag_index must not be larger than upper_diag_index: {lo} > {hi}"),
                name=None)
        if len(k) == 2 and lo == hi:
            return lo
        if ranges and len(k) == 2:
            return lo, hi
        raise errors.UnimplementedError(None, None, "Ranges of diagonals (k=(lo, hi)) are not "
                                        "supported; pass a single diagonal offset.")
    return _static_int(k, "k", op_name)


_ALIGNS = ("LEFT_LEFT", "LEFT_RIGHT", "RIGHT_LEFT", "RIGHT_RIGHT")


def _diag_range(x, lo, hi, padding_value, align):
    """Diagonals `hi` down to `lo` of each matrix of `x`, stacked on a new second-to-last
    axis, each padded with `padding_value` to the longest: superdiagonals (and the main
    one) on the side `align` names first, subdiagonals on the second."""
    if align not in _ALIGNS:
        raise _invalid(f"Value for attr 'align' of \"{align}\" is not in the list of allowed "
                       f"values: \"LEFT_RIGHT\", \"RIGHT_LEFT\", \"LEFT_LEFT\", "
                       f"\"RIGHT_RIGHT\"")
    rows, cols = x.shape[-2:] if x.shape.rank is not None else (None, None)
    known = rows is not None and cols is not None and x.shape.is_fully_defined()

    def length(d):
        if known:
            return _diag_length(rows, cols, d)
        r, c = late.array_ops.shape(x)[-2], late.array_ops.shape(x)[-1]
        return math_ops.maximum(0, math_ops.minimum(r + min(d, 0), c - max(d, 0)))

    if known:  # TF checks the range's ends, the lower first
        for which, d, after in (("lower", lo, ". "), ("upper", hi, " ")):
            if d != 0 and not -rows < d < cols:
                raise _invalid(f"{which}_diag_index is out of bound: {d}{after}It must be "
                               f"between {-rows} and {cols}")
    width = length(0) if lo <= 0 <= hi else length(hi if hi < 0 else lo)
    pad = cast(padding_value, x.dtype)
    parts = []
    for d in range(hi, lo - 1, -1):
        part = diag_part(x, k=d)
        missing = width - length(d)
        batch = x.shape[:-2].as_list() if known else late.array_ops.shape(x)[:-2]
        dims = (batch + [missing] if known else
                late.array_ops.concat([batch, late.array_ops.reshape(missing, [1])], 0))
        block = late.array_ops.fill(dims, pad)
        right = (align.split("_")[0] if d >= 0 else align.split("_")[1]) == "RIGHT"
        parts.append(late.array_ops.concat([block, part] if right else [part, block], -1))
    return late.array_ops.stack(parts, -2)


def _set_diag_range(x, diagonal, lo, hi, align, op_name="MatrixSetDiagV3"):
    """`x` with diagonals `hi` down to `lo` replaced by the rows of `diagonal` (each padded
    to the longest on the side `align` names: superdiagonals first, subdiagonals second).
    For MatrixDiagV3 diagonals outside the matrices are dropped, as TF's are."""
    if align not in _ALIGNS:
        raise _invalid(f"Value for attr 'align' of \"{align}\" is not in the list of allowed "
                       f"values: \"LEFT_RIGHT\", \"RIGHT_LEFT\", \"LEFT_LEFT\", "
                       f"\"RIGHT_RIGHT\"")
    rows, cols = x.shape[-2:] if x.shape.rank is not None else (None, None)
    width = diagonal.shape[-1] if diagonal.shape.rank else None
    if rows is None or cols is None or width is None:
        raise errors.UnimplementedError(None, None, "Ranges of diagonals (k=(lo, hi)) need "
                                        "the matrices' sizes known when the graph is built.")
    if op_name == "MatrixSetDiagV3":
        for which, d in (("lower", lo), ("upper", hi)):
            if d != 0 and not -rows < d < cols:
                raise errors.eager_error(errors.InvalidArgumentError, op_name, (
                    f"{which}_diag_index is out of bound: {d} It must be between {-rows} and "
                    f"{cols}"), name=None)
    if diagonal.shape.rank < 2 or diagonal.shape[-2] not in (None, hi - lo + 1):
        raise errors.eager_error(errors.InvalidArgumentError, op_name, (
            "The number of diagonals provided in the input does not match the "
            "lower_diag_index and upper_diag_index range." if op_name == "MatrixDiagV3" else
            "The number of diagonals provided in `diag` is not consistent with "
            "`lower_diag_index` and `upper_diag_index`"), name=None)
    if op_name == "MatrixSetDiagV3":
        expected = x.shape[:-2].concatenate(
            [hi - lo + 1, max(_diag_length(rows, cols, d) for d in range(lo, hi + 1))])
        if not expected.is_compatible_with(diagonal.shape):
            raise errors.eager_error(errors.InvalidArgumentError, op_name, (
                f"Either first dimensions of diagonal don't match input.shape[:-2], or "
                f"diagonal.shape[:-1] is not equal to the longests diagonal in range "
                f"[lower_diag_index:upper_diag_index].\nInput shape: {shape_text(x.shape)}\n"
                f"Diagonal shape: {shape_text(diagonal.shape)}\nExpected diagonal shape: "
                f"{shape_text(expected)}"), name=None)
    for d in range(hi, lo - 1, -1):
        length = _diag_length(rows, cols, d)
        if not length:
            continue
        right = (align.split("_")[0] if d >= 0 else align.split("_")[1]) == "RIGHT"
        row = diagonal[..., hi - d, :]
        x = set_diag(x, row[..., width - length:] if right else row[..., :length], k=d)
    return x


@export("linalg.diag")
def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT"):
    """Batched matrices with `diagonal` on diagonal `k` and `padding_value` elsewhere.

    >>> tf.linalg.diag(tf.constant([1, 2]))
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 0],
           [0, 2]], dtype=int32)>
    """
    diagonal = as_tensor(diagonal)
    k = _single_k(k, "MatrixDiagV3", ranges=True)
    if isinstance(k, tuple):  # padding everywhere, then the band of diagonals set
        lo, hi = k
        rows, cols = _diag_size(diagonal.shape[-1], hi,
                                _static_int(num_rows, "num_rows", "MatrixDiagV3"),
                                _static_int(num_cols, "num_cols", "MatrixDiagV3"), lo=lo)
        if rows is None or cols is None:
            raise errors.UnimplementedError(None, None, "Ranges of diagonals (k=(lo, hi)) "
                                            "need the diagonals' length known when the graph "
                                            "is built.")
        batch = late.array_ops.shape(diagonal)[:-2]
        filled = late.array_ops.fill(late.array_ops.concat([batch, [rows, cols]], 0),
                                     cast(padding_value, diagonal.dtype))
        return _set_diag_range(filled, diagonal, lo, hi, align, "MatrixDiagV3")
    attrs = {"num_rows": _static_int(num_rows, "num_rows", "MatrixDiagV3"),
             "num_cols": _static_int(num_cols, "num_cols", "MatrixDiagV3"),
             "padding_value": np.asarray(padding_value).item()}
    return dispatch(_MATRIX_DIAG, *_with_k((diagonal,), k, attrs, align), name)


@export("linalg.diag_part")
def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):
    """Diagonal `k` of each matrix in `input`.

    >>> tf.linalg.diag_part(tf.constant([[1, 2], [3, 4]]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 4], dtype=int32)>
    """
    input = as_tensor(input)
    k = _single_k(k, "MatrixDiagPartV3", ranges=True)
    if isinstance(k, tuple):
        return _diag_range(input, *k, padding_value, align)
    padding = {"padding_value": np.asarray(padding_value).item()} if isinstance(k, Tensor) \
        else None
    return dispatch(_MATRIX_DIAG_PART, *_with_k((input,), k, padding, align), name)


@export("linalg.set_diag")
def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):
    """`input` with diagonal `k` of each matrix replaced by `diagonal`.

    >>> tf.linalg.set_diag(tf.constant([[1, 2], [3, 4]]), [0, 0])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[0, 2],
           [3, 0]], dtype=int32)>
    """
    input, diagonal = late.nn_ops.matching(input, diagonal)
    k = _single_k(k, "MatrixSetDiagV3", ranges=True)
    if isinstance(k, tuple):
        return _set_diag_range(input, diagonal, *k, align)
    return dispatch(_SET_DIAG, *_with_k((input, diagonal), k, None, align), name)


def _with_k(inputs, k, attrs=None, align="RIGHT_LEFT"):
    """A diagonal op's inputs and attrs for offset `k`: its attr, or (a tensor known at run
    time, maybe a band of diagonals placed as `align` says) its last input."""
    attrs = dict(attrs or {})
    if isinstance(k, Tensor):
        if align not in _ALIGNS:
            raise _invalid(f"Value for attr 'align' of \"{align}\" is not in the list of "
                           f"allowed values: \"LEFT_RIGHT\", \"RIGHT_LEFT\", \"LEFT_LEFT\", "
                           f"\"RIGHT_RIGHT\"")
        attrs["align"] = align
        return inputs + (k,), attrs
    attrs["k"] = k
    return inputs, attrs


@export("linalg.band_part")
def band_part(input, num_lower, num_upper, name=None):
    """Keeps `num_lower` sub- and `num_upper` superdiagonals (negative: all), zeroing the rest.

    >>> tf.linalg.band_part(tf.constant([[1, 2], [3, 4]]), 0, -1)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 2],
           [0, 4]], dtype=int32)>
    """
    bounds = _run_time_ints(_BAND_PART, "Tindex", ("num_lower", "num_upper"), num_lower,
                            num_upper)
    if bounds is not None:  # the bounds become the op's inputs, as in TF
        return dispatch(_BAND_PART, (as_tensor(input), *bounds), {}, name)
    attrs = {"num_lower": _static_int(num_lower, "num_lower", "MatrixBandPart", _d.int64),
             "num_upper": _static_int(num_upper, "num_upper", "MatrixBandPart", _d.int64)}
    return dispatch(_BAND_PART, (as_tensor(input),), attrs, name)


@export("linalg.tensor_diag")
def tensor_diag(diagonal, name=None):
    """A tensor of rank 2k with `diagonal` (rank k) on its diagonal.

    >>> tf.linalg.tensor_diag(tf.constant([1, 2])).shape
    TensorShape([2, 2])
    """
    return dispatch(_TENSOR_DIAG, (as_tensor(diagonal),), _NO_ATTRS, name)


@export("linalg.tensor_diag_part")
def tensor_diag_part(input, name=None):
    """The diagonal of a rank-2k tensor: ``out[i..] = input[i.., i..]``.

    >>> tf.linalg.tensor_diag_part(tf.constant([[1, 2], [3, 4]]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 4], dtype=int32)>
    """
    return dispatch(_TENSOR_DIAG_PART, (as_tensor(input),), _NO_ATTRS, name)


@export("linalg.trace")
def trace(x, name=None):
    """The sum of the main diagonal of each matrix in `x`.

    >>> tf.linalg.trace(tf.constant([[1, 2], [3, 4]]))
    <tf.Tensor: shape=(), dtype=int32, numpy=5>
    """
    return late.reduction_ops.reduce_sum(diag_part(x), axis=-1, name=name)


# -- cross product --------------------------------------------------------------------------

@quiet
def _cross(xp, a, b):
    if a.shape != b.shape:
        raise _invalid(f"Both inputs must be of same shape: {shape_text(a.shape)} vs. "
                       f"{shape_text(b.shape)}")
    if a.ndim < 1:
        raise _invalid(f"Input must be at least 1D{shape_text(a.shape)}")
    if a.shape[-1] != 3:
        raise errors.FailedPreconditionError(
            None, None, "Cross-products are only defined for 3-element vectors.")
    return xp.cross(a, b)


def _cross_rule(a, b, **_):
    shapes = [a.shape, b.shape]
    for t in (a, b):
        _check_rank("Cross", t, 1, shapes)
    if None not in (a.shape.rank, b.shape.rank) and a.shape.rank != b.shape.rank:
        raise shape_error("Cross", f"Shapes must be equal rank, but are {a.shape.rank} and "
                                   f"{b.shape.rank}", shapes)
    for t in (a, b):
        if t.shape.rank and t.shape[-1] not in (None, 3):
            raise shape_error("Cross", f"Dimension must be 3 but is {t.shape[-1]}", shapes)
    return (a.shape.merge_with(b.shape) if a.shape.is_compatible_with(b.shape) else a.shape,
            a.dtype)


# TF's list, in its order (as dtype errors give it)
_CROSS = register("Cross", _cross, _cross_rule, tied=(0, 1), dtypes=(
    _d.float32, _d.float64, _d.int32, _d.uint8, _d.int16, _d.int8, _d.int64, _d.bfloat16,
    _d.uint16, _d.float16, _d.uint32, _d.uint64))
tf_nodes[_CROSS] = NodeForm(outputs=("product",))
tf_args[_CROSS] = ("a", "b")


@export("linalg.cross")
def cross(a, b, name=None):
    """Cross products of the 3-element vectors in the last dimension of `a` and `b`.

    >>> tf.linalg.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 0., 1.], dtype=float32)>
    """
    return dispatch(_CROSS, tuple(late.nn_ops.matching(a, b)), _NO_ATTRS, name)


# -- norms ----------------------------------------------------------------------------------

def _norm_axis(axis):
    """`axis` as None, a 1-tuple (vector norm) or a 2-tuple (matrix norm)."""
    if axis is None:
        return None
    if isinstance(axis, int) and not isinstance(axis, bool):
        return (axis,)
    if isinstance(axis, (tuple, list)) and len(axis) == 2 and \
            all(isinstance(a, int) for a in axis) and axis[0] != axis[1]:
        return tuple(axis)
    raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got "
                     f"{axis}")


def _check_ord(ord, is_matrix):
    number = isinstance(ord, (int, float, np.number)) and not isinstance(ord, bool)
    if is_matrix:
        if not (ord in ("euclidean", "fro") if isinstance(ord, str) else
                number and ord in (1, 2, np.inf)):
            raise ValueError(f"'ord' must be a supported matrix norm in "
                             f"['euclidean', 'fro', 1, 2, inf], got {ord}")
    elif not (ord == "euclidean" if isinstance(ord, str) else number and ord > 0):
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")


@export("norm", "linalg.norm", dispatch_name="compat.v1.norm")
def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):
    """Vector norms (over `axis`, or all elements) and matrix norms (over a pair of axes).

    `ord`: 'euclidean' (= 'fro' for matrices), 1, 2, inf, or any p > 0 for vectors.
    Euclidean norms keep a complex input's dtype, as TensorFlow does.

    >>> tf.norm(tf.constant([3.0, 4.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=5.0>
    >>> tf.norm(tf.constant([[1.0, -2.0], [3.0, 4.0]]), ord=1, axis=[0, 1])
    <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
    """
    axis = _norm_axis(axis)
    is_matrix = axis is not None and len(axis) == 2
    _check_ord(ord, is_matrix)
    x = as_tensor(tensor)
    keepdims = bool(keepdims)
    if isinstance(ord, str) or (ord == 2 and not is_matrix):
        with context.op_scope(name or "norm") as scope:
            # sqrt(sum(x * conj(x))): complex x keeps a complex result (and its gradient
            # no cast of a complex to a float, which TF's warning would name)
            squares = math_ops.square(x) if not x.dtype.is_complex else \
                x * math_ops.conj(x)
            if scope is not None and not keepdims:  # TF's graph: ``norm/Squeeze``
                return late.array_ops.squeeze(math_ops.sqrt(late.reduction_ops.reduce_sum(
                    squares, axis, keepdims=True)), axis)
            return math_ops.sqrt(late.reduction_ops.reduce_sum(squares, axis,
                                                               keepdims=keepdims),
                                 name=name if scope is None else None)
    if is_matrix and ord == 2:
        return _spectral_norm(x, axis, keepdims)
    magnitude = math_ops.abs(x)
    if is_matrix:  # ord 1: the largest column sum; inf: the largest row sum
        summed = axis[0] if ord == 1 else axis[1]
        return late.reduction_ops.reduce_max(
            late.reduction_ops.reduce_sum(magnitude, summed, keepdims=True), axis,
            keepdims=keepdims)
    if ord == np.inf:
        return late.reduction_ops.reduce_max(magnitude, axis, keepdims=keepdims)
    if ord == 1:
        return late.reduction_ops.reduce_sum(magnitude, axis, keepdims=keepdims)
    total = late.reduction_ops.reduce_sum(math_ops.pow(magnitude, ord), axis, keepdims=keepdims)
    return math_ops.pow(total, 1.0 / ord, name=name)


@export("linalg.normalize")
def normalize(tensor, ord="euclidean", axis=None, name=None):
    """`tensor` divided by its norm (see `norm`), and that norm with the reduced axes kept.

    >>> tf.linalg.normalize(tf.constant([3.0, 4.0]))[0]
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>
    """
    x = as_tensor(tensor)
    magnitude = norm(x, ord, axis, keepdims=True)
    return math_ops.truediv(x, magnitude, name=name), magnitude


def _singular_magnitudes(x):
    """|singular values| of `x`, as TF's norm takes them: the same values, but a zero one
    has gradient 0 (abs's at 0), so the norm of a zero matrix has a zero gradient."""
    return math_ops.abs(svd(x, compute_uv=False))


def _spectral_norm(x, axis, keepdims):
    """The largest singular value of the matrices spanning the two `axis` dims."""
    rank = x.shape.rank
    if rank is None:  # only the last two axes can be told apart without the rank
        if sorted(axis) != [-2, -1]:
            raise ValueError(f"norm(ord=2) needs `tensor` to have a known rank for axis "
                             f"{list(axis)}")
        largest = late.reduction_ops.reduce_max(_singular_magnitudes(x), -1)
        if keepdims:
            return late.array_ops.expand_dims(late.array_ops.expand_dims(largest, -1), -1)
        return largest
    pair = normalize_axis(axis, rank, "Max")  # sorted; the pair's order leaves s unchanged
    perm = [i for i in range(rank) if i not in pair] + list(pair)
    largest = late.reduction_ops.reduce_max(
        _singular_magnitudes(late.array_ops.transpose(x, perm)), -1)
    for a in pair if keepdims else ():
        largest = late.array_ops.expand_dims(largest, a)
    return largest


# -- gradients ---------------------------------------------------------------------------
def _product_grads(op, a, b, dy, adj_a, adj_b):
    """Gradients of ``op(a) @ op(b)`` where op is the adjoint when flagged.

    Only the wanted ones are computed: a first layer needs no gradient for its data.
    """
    if not adj_a and not adj_b:
        da, db = (lambda: matmul(dy, b, adjoint_b=True)), (lambda: matmul(a, dy, adjoint_a=True))
    elif not adj_a:
        da, db = (lambda: matmul(dy, b)), (lambda: matmul(dy, a, adjoint_a=True))
    elif not adj_b:
        da, db = (lambda: matmul(b, dy, adjoint_b=True)), (lambda: matmul(a, dy))
    else:
        da = lambda: matmul(b, dy, adjoint_a=True, adjoint_b=True)  # noqa: E731
        db = lambda: matmul(dy, a, adjoint_a=True, adjoint_b=True)  # noqa: E731
    return da() if op.needs(0) else None, db() if op.needs(1) else None


@register_gradient("MatMul")
def _matmul_grad(op, dy):
    a, b = op.inputs
    return _product_grads(op, a, b, dy, op.attrs.get("transpose_a", False),
                          op.attrs.get("transpose_b", False))


@register_gradient("BatchMatMulV2")
def _batch_matmul_grad(op, dy):
    a, b = op.inputs  # broadcast batch dimensions are summed by backprop
    return _product_grads(op, a, b, dy, op.attrs.get("adj_x", False),
                          op.attrs.get("adj_y", False))


@register_gradient("BatchMatMul")
def _batch_matmul_v1_grad(op, dy):
    return _product_grads(op, *op.inputs, dy, op.attrs.get("adj_x", False),
                          op.attrs.get("adj_y", False))


@register_gradient("BatchMatMulV3")
def _batch_matmul_v3_grad(op, dy):
    a, b = op.inputs
    if not (a.dtype.is_floating or a.dtype.is_complex):
        return None, None  # integer operands
    out = op.attrs["Tout"]
    da, db = _product_grads(op, cast(a, out), cast(b, out), dy, op.attrs.get("adj_x", False),
                            op.attrs.get("adj_y", False))
    return (None if da is None else cast(da, a.dtype)), (None if db is None else cast(db, b.dtype))


@register_gradient("MatrixInverse")
def _inverse_grad(op, dy):
    # d(A^-1) = -A^-1 dA A^-1, read through the adjoint when the op inverted A^H
    ainv, adj = op.outputs, op.attrs.get("adjoint", False)
    return math_ops.negative(matmul(ainv, matmul(dy, ainv, adjoint_a=adj, adjoint_b=not adj),
                                    adjoint_a=not adj))


def _times_inverse_adjoint(a, scale):
    """``scale[..., None, None] * inv(A)^H``: d(det A) = det A tr(A^-1 dA) and its log."""
    return math_ops.multiply(late.array_ops.expand_dims(late.array_ops.expand_dims(scale, -1), -1),
                             inv(a, adjoint=True))


@register_gradient("MatrixDeterminant")
def _determinant_grad(op, dy):
    # dy det(A) inv(A)^H: TF does not conjugate the determinant of a complex matrix
    return _times_inverse_adjoint(op.inputs[0], math_ops.multiply(dy, op.outputs))


@register_gradient("LogMatrixDeterminant")
def _log_determinant_grad(op, dsign, dlogabs):
    return _times_inverse_adjoint(op.inputs[0], dlogabs)


@register_gradient("Cholesky")
def _cholesky_grad(op, dy):
    """The symmetric gradient of A = L L^H (both triangles of A share it)."""
    low = op.outputs
    n = low.shape[-1] if low.shape.rank is not None else None
    eye = convert_to_tensor(np.eye(n, dtype=low.dtype.as_numpy_dtype)) if n is not None else \
        late.array_ops.eye(late.array_ops.shape(low)[-1], dtype=low.dtype)
    low_inv = triangular_solve(low, eye, lower=True)  # the identity broadcasts over the batch
    middle = _lower_half_diagonal(matmul(low, dy, adjoint_a=True))
    grad = matmul(matmul(low_inv, middle, adjoint_a=True), low_inv)
    return math_ops.multiply(math_ops.add(grad, adjoint(grad)), 0.5)


def _lower_half_diagonal(m):
    """The lower triangle of `m` with its diagonal halved."""
    return math_ops.subtract(band_part(m, -1, 0), math_ops.multiply(diag(diag_part(m)), 0.5))


def _solve_grads(op, dy, solve_adjoint, keep=None):
    """Gradients of x = op(A)^-1 b: db = op(A)^-H dy, dA = -db x^H (or its adjoint).

    `solve_adjoint(a, rhs)` solves the adjoint system; `keep` masks dA to the triangle read.
    """
    a = op.inputs[0]
    x, adj = op.outputs, op.attrs.get("adjoint", False)
    db = solve_adjoint(a, dy)
    da = math_ops.negative(matmul(x, db, adjoint_b=True) if adj else
                           matmul(db, x, adjoint_b=True))
    return (keep(da) if keep else da), db


@register_gradient("MatrixSolve")
def _solve_grad(op, dy):
    adj = op.attrs.get("adjoint", False)
    return _solve_grads(op, dy, lambda a, rhs: solve(a, rhs, adjoint=not adj))


@register_gradient("MatrixTriangularSolve")
def _triangular_solve_grad(op, dy):
    lower, adj = op.attrs.get("lower", True), op.attrs.get("adjoint", False)
    return _solve_grads(
        op, dy, lambda a, rhs: triangular_solve(a, rhs, lower=lower, adjoint=not adj),
        lambda da: band_part(da, -1, 0) if lower else band_part(da, 0, -1))


@register_gradient("MatrixBandPart")
def _band_part_grad(op, dy):
    if len(op.inputs) == 3:  # bounds known at run time
        return band_part(dy, op.inputs[1], op.inputs[2]), None, None
    return band_part(dy, op.attrs["num_lower"], op.attrs["num_upper"])


@register_gradient("MatrixDiagV3")
def _matrix_diag_grad(op, dy):
    return (diag_part(dy, k=_k_of(op), align=_align_of(op)),) + (None,) * (len(op.inputs) - 1)


def _k_of(op):
    """The diagonal offset of a diagonal op: its attr, or its last input (at run time)."""
    return op.attrs["k"] if "k" in op.attrs else op.inputs[-1]


def _align_of(op):
    # (the second ops, which have no align attr, align LEFT_LEFT)
    return op.attrs.get("align", "LEFT_LEFT" if op.type.endswith("V2") else "RIGHT_LEFT")


@register_gradient("MatrixDiagPartV3")
def _matrix_diag_part_grad(op, dy):
    x, k = op.inputs[0], _k_of(op)
    rows, cols = x.shape[-2:] if x.shape.rank is not None else (None, None)
    if rows is None or cols is None:  # sizes known when the graph runs: as TF, set_diag
        dx = set_diag(late.array_ops.zeros_like(x), dy, k=k, align=_align_of(op))
    else:
        dx = diag(dy, k=k, num_rows=rows, num_cols=cols, align=_align_of(op))
    return (dx,) + (None,) * (len(op.inputs) - 1)


@register_gradient("MatrixSetDiagV3")
def _set_diag_grad(op, dy):
    k, align = _k_of(op), _align_of(op)
    return (set_diag(dy, late.array_ops.zeros_like(op.inputs[1]), k=k, align=align),
            diag_part(dy, k=k, align=align)) + (None,) * (len(op.inputs) - 2)


register_gradient("MatrixDiagV2")(_matrix_diag_grad)
register_gradient("MatrixDiagPartV2")(_matrix_diag_part_grad)
register_gradient("MatrixSetDiagV2")(_set_diag_grad)
register_gradient("MatrixDiag")(lambda op, dy: diag_part(dy))
register_gradient("MatrixSetDiag")(lambda op, dy: (
    set_diag(dy, late.array_ops.zeros_like(op.inputs[1])), diag_part(dy)))


@register_gradient("MatrixDiagPart")
def _matrix_diag_part_v1_grad(op, dy):
    x = op.inputs[0]
    rows, cols = x.shape[-2:] if x.shape.rank is not None else (None, None)
    if rows is None or cols is None:
        return set_diag(late.array_ops.zeros_like(x), dy)
    return diag(dy, num_rows=rows, num_cols=cols)


register_gradient("Cross")(lambda op, dy: (cross(op.inputs[1], dy), cross(dy, op.inputs[0])))
register_gradient("Diag")(lambda op, dy: tensor_diag_part(dy))
register_gradient("DiagPart")(lambda op, dy: tensor_diag(dy))


def _safe_reciprocal(x, epsilon=1e-20):
    """1 / x away from 0, and 0 at 0 (equal eigenvalues contribute nothing)."""
    return math_ops.multiply(x, math_ops.reciprocal(math_ops.add(math_ops.multiply(x, x),
                                                                 epsilon)))


def _reciprocal_gaps(values):
    """``f[i, j] = 1 / (values[j] - values[i])`` off the diagonal (0 for equal values), and 0
    on it. The diagonal is set rather than computed: there the derivative of the safe
    reciprocal is 1 / epsilon, and at second order those huge terms cancel only in exact
    arithmetic."""
    gaps = math_ops.subtract(late.array_ops.expand_dims(values, -2),
                             late.array_ops.expand_dims(values, -1))
    return set_diag(_safe_reciprocal(gaps), late.array_ops.zeros_like(values))


@register_gradient("SelfAdjointEigV2")
def _eigh_grad(op, de, dv):
    e = op.outputs[0]
    if op.attrs.get("compute_v", True):
        v = op.outputs[1]
        f = _reciprocal_gaps(e)
        inner = math_ops.add(diag(de), math_ops.multiply(f, matmul(v, dv, adjoint_a=True)))
    else:
        v = eigh(op.inputs[0])[1]
        inner = diag(de)
    grad = matmul(v, matmul(inner, v, adjoint_b=True))
    # the op reads only the lower triangle: fold G + G^H onto it, the diagonal counted once
    return _lower_half_diagonal(math_ops.add(grad, adjoint(grad)))


def _static_matrix(x, message):
    """The static (rows, cols) of matrix `x`; TF's gradients of Svd and Qr raise Python's
    NotImplementedError when either is unknown, as here."""
    rows, cols = _matrix(x.shape)
    if rows is None or cols is None:
        raise NotImplementedError(message)
    return rows, cols


@register_gradient("Svd")
def _svd_grad(op, ds, du, dv):
    """Singular values: u diag(ds) v^H. Vectors: the formula of Townsend's "Differentiating
    the singular value decomposition" (distinct singular values; for complex input only
    gauge-invariant losses are meaningful)."""
    a = op.inputs[0]
    ds = cast(ds, a.dtype)
    if not op.attrs.get("compute_uv", True):
        _, u, v = svd(a)
        return matmul(u, matmul(diag(ds), v, adjoint_b=True))
    m, n = _static_matrix(a, "SVD gradient has not been implemented for input with unknown "
                             "inner matrix shape.")
    s, u, v = op.outputs
    s = cast(s, a.dtype)
    if op.attrs.get("full_matrices", False) and abs(m - n) > 1:
        raise NotImplementedError(f"svd gradient is not implemented for abs(m - n) > 1 when "
                                  f"full_matrices is True. Received: m={min(m, n)} and "
                                  f"n={max(m, n)}.")
    wide = m > n  # work on A^H = V S U^H, so that rows <= cols, and transpose back
    if wide:
        m, n, u, v, du, dv = n, m, v, u, dv, du
    s_mat = diag(s)
    s2 = math_ops.square(s)
    f = _reciprocal_gaps(s2)
    v1, dv1 = v[..., :m], dv[..., :m]
    f_u = math_ops.multiply(f, matmul(u, du, adjoint_a=True))
    v_dv = matmul(v1, dv1, adjoint_a=True)
    f_v = math_ops.multiply(f, v_dv)
    inner = math_ops.add(math_ops.add(diag(ds), matmul(math_ops.add(f_u, adjoint(f_u)), s_mat)),
                         matmul(s_mat, math_ops.add(f_v, adjoint(f_v))))
    if a.dtype.is_complex:  # the imaginary diagonal of V^H dV
        imag_diag = diag(diag_part(v_dv))
        inner = math_ops.add(inner, math_ops.multiply(
            matmul(diag(_safe_reciprocal(s)), math_ops.subtract(adjoint(imag_diag), imag_diag)),
            0.5))
    grad = matmul(u, matmul(inner, v1, adjoint_b=True))
    if m != n:  # the part of dV orthogonal to V1
        dv1_t = adjoint(dv1)
        rest = math_ops.subtract(dv1_t, matmul(matmul(dv1_t, v1), v1, adjoint_b=True))
        if op.attrs.get("full_matrices", False):
            v2, dv2 = v[..., m:], dv[..., m:]
            rest = math_ops.subtract(rest, matmul(matmul(v1, dv2, adjoint_a=True), v2,
                                                  adjoint_b=True))
        grad = math_ops.add(grad, matmul(matmul(u, diag(_safe_reciprocal(s))), rest))
    return adjoint(grad) if wide else grad


def _times_inverse_adjoint_r(x, r):
    """``x @ inv(r)^H`` for upper triangular `r`, by a triangular solve."""
    return adjoint(triangular_solve(r, adjoint(x), lower=False))


def _qr_grad_tall(q, r, dq, dr):
    """The gradient of reduced A = QR with rows >= cols."""
    qdq = matmul(q, dq, adjoint_a=True)
    rdr = matmul(r, dr, adjoint_b=True)
    tril = band_part(math_ops.add(math_ops.subtract(qdq, adjoint(qdq)),
                                  math_ops.subtract(rdr, adjoint(rdr))), -1, 0)
    grad = math_ops.add(matmul(q, math_ops.add(dr, _times_inverse_adjoint_r(tril, r))),
                        _times_inverse_adjoint_r(math_ops.subtract(dq, matmul(q, qdq)), r))
    if q.dtype.is_complex:  # R's real diagonal fixes the phase of each column
        d = diag(diag_part(math_ops.subtract(rdr, adjoint(qdq))))
        correction = math_ops.subtract(d, cast(math_ops.real(d), q.dtype))
        grad = math_ops.add(grad, _times_inverse_adjoint_r(
            matmul(q, adjoint(correction)), r))
    return grad


@register_gradient("Qr")
def _qr_grad(op, dq, dr):
    q, r = op.outputs
    rows, cols = _static_matrix(r, f"QrGrad not implemented with dynamic shapes. "
                                   f"Received r.shape: {r.shape}")
    if rows >= cols:
        if op.attrs.get("full_matrices", False) and rows > cols:
            raise NotImplementedError(f"QrGrad not implemented when nrows > ncols and "
                                      f"full_matrices is true. Received r.shape={r.shape} "
                                      f"with nrows={rows}and ncols={cols}.")
        return _qr_grad_tall(q, r, dq, dr)
    # A = [X, Y] with square X = Q U: reduce to the square case
    y, dv = op.inputs[0][..., rows:], dr[..., rows:]
    dx = _qr_grad_tall(q, r[..., :rows], math_ops.add(dq, matmul(y, dv, adjoint_b=True)),
                       dr[..., :rows])
    return late.array_ops.concat([dx, matmul(q, dv)], -1)


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _BATCH_MATMUL_V3, _CHOLESKY, _CROSS, _TENSOR_DIAG,
                      _TENSOR_DIAG_PART, _LOG_DETERMINANT, _DETERMINANT, _MATRIX_DIAG_PART,
                      _MATRIX_DIAG, _INVERSE, _SET_DIAG, _SOLVE, _SOLVE_LS, _TRIANGULAR_SOLVE, _QR,
                      _EIGH, _SVD)


# -- LU decomposition ----------------------------------------------------------------------

@quiet
def _lu(xp, x, output_idx_type=_d.int32):
    """Partial-pivoting LU of each square matrix: the unit-lower L below the diagonal and U
    on and above it in one matrix, and `p` with ``x[p] == L @ U``."""
    x = np.asarray(x)
    wide = x.astype(np.float32) if x.dtype in _HALF else x
    n = x.shape[-1]
    mats = wide.reshape(int(np.prod(x.shape[:-2])), n, n).copy()
    perms = np.tile(np.arange(n), (mats.shape[0], 1))
    for m, perm in zip(mats, perms):
        for k in range(n):
            # (a NaN first pivot fails TF's smallest-pivot check)
            piv = k + _pivot(m[k:, k])
            if m[piv, k] == 0 or (k == 0 and np.isnan(m[0, 0])):
                raise _invalid("Input is not invertible.")
            if piv != k:
                m[[k, piv]] = m[[piv, k]]
                perm[[k, piv]] = perm[[piv, k]]
            m[k + 1:, k] /= m[k, k]
            m[k + 1:, k + 1:] -= np.outer(m[k + 1:, k], m[k, k + 1:])
    return (mats.reshape(x.shape).astype(x.dtype, copy=False),
            perms.reshape(x.shape[:-1]).astype(_d.as_dtype(output_idx_type).as_numpy_dtype))


def _lu_rule(x, output_idx_type=_d.int32, **_):
    return [(x.shape, x.dtype),
            (unknown_shape() if x.shape.rank is None else x.shape[:-1],
             _d.as_dtype(output_idx_type))]


def _check_square_lu(x, output_idx_type=_d.int32, **attrs):
    _check_rank("Lu", x, 2, [x.shape])
    rows, cols = _matrix(x.shape)
    if None not in (rows, cols) and rows != cols:
        raise shape_error("Lu", f"Dimensions must be equal, but are {rows} and {cols}",
                          [x.shape])
    return _lu_rule(x, output_idx_type)


def _lu_kernel(xp, x, output_idx_type=_d.int32):
    if x.ndim >= 2 and x.shape[-1] != x.shape[-2]:
        raise _invalid("Input matrix must be square.")
    return _lu(xp, x, output_idx_type)


_LU = register("Lu", _lu_kernel, _check_square_lu, multi=True,
               dtypes=(_d.float64, _d.float32, _d.float16, _d.complex64, _d.complex128))
tf_nodes[_LU] = NodeForm(outputs=("lu", "p"))
tf_defaults[_LU] = {"output_idx_type": _d.int32}


@register_gradient("Lu")
def _lu_grad(op, *output_grads):
    # TF registers no gradient for Lu: differentiating through it raises its LookupError
    raise LookupError(f"gradient registry has no entry for: {op.type}")


batching_rules[_LU] = PER_ELEMENT
Lu = collections.namedtuple("Lu", ["lu", "p"])


@export("linalg.lu")
def lu(input, output_idx_type=_d.int32, name=None):
    """The LU decomposition with partial pivoting of each square matrix in `input`:
    ``(lu, p)``, L (unit diagonal, not stored) below the diagonal of `lu` and U on and above
    it, with ``tf.gather(input, p) == L @ U`` per matrix.

    >>> lu_, p = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    >>> p
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>
    """
    output_idx_type = _d.as_dtype(output_idx_type)
    return Lu(*dispatch(_LU, (as_tensor(input),), {"output_idx_type": output_idx_type}, name))


def _lu_factors(lower_upper):
    """L (with its unit diagonal) and U of a packed LU matrix."""
    ones = late.array_ops.ones_like(diag_part(lower_upper))  # (a row need not exist: 0x0)
    lower = set_diag(band_part(lower_upper, -1, 0), ones)
    return lower, band_part(lower_upper, 0, -1)


def _unpermute(perm):
    return cast(math_ops.invert_permutation(perm) if perm.shape.rank == 1 else
                late.reduction_ops.argsort(perm, axis=-1), perm.dtype)


@export("linalg.lu_reconstruct")
def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrices `tf.linalg.lu` decomposed: ``P^T L U``.

    >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    >>> tf.linalg.lu_reconstruct(*tf.linalg.lu(x))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 2.],
           [3., 4.]], dtype=float32)>
    """
    lower_upper = as_tensor(lower_upper)
    perm = as_tensor(perm)
    lower, upper = _lu_factors(lower_upper)
    product = matmul(lower, upper)
    return late.array_ops.gather(product, _unpermute(perm), axis=-2,
                                 batch_dims=perm.shape.rank - 1)


@export("linalg.lu_solve")
def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """The solutions `x` of ``A x = rhs`` for A given by `tf.linalg.lu`'s ``(lu, p)``.

    >>> a = tf.constant([[2.0, 1.0], [1.0, 3.0]])
    >>> lu_, p = tf.linalg.lu(a)
    >>> tf.linalg.lu_solve(lu_, p, tf.constant([[3.0], [4.0]]))
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[1.],
           [1.]], dtype=float32)>
    """
    lower_upper = as_tensor(lower_upper)
    perm = as_tensor(perm)
    rhs = as_tensor(rhs, lower_upper.dtype)
    lower, upper = _lu_factors(lower_upper)
    permuted = late.array_ops.gather(rhs, perm, axis=-2, batch_dims=perm.shape.rank - 1) \
        if rhs.shape.rank == perm.shape.rank + 1 else \
        late.array_ops.gather(rhs, perm, axis=-2)
    return triangular_solve(upper, triangular_solve(lower, permuted, lower=True), lower=False)


@export("linalg.lu_matrix_inverse")
def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverses of the matrices given by `tf.linalg.lu`'s ``(lu, p)``.

    >>> a = tf.constant([[2.0, 0.0], [0.0, 4.0]])
    >>> tf.linalg.lu_matrix_inverse(*tf.linalg.lu(a))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)>
    """
    lower_upper = as_tensor(lower_upper)
    eye = set_diag(late.array_ops.zeros_like(lower_upper),
                   late.array_ops.ones_like(diag_part(lower_upper)))
    return lu_solve(lower_upper, perm, eye)


# -- general eigen-decomposition -------------------------------------------------------------

_EIG_TYPES = (_d.float32, _d.float64, _d.complex64, _d.complex128)
_COMPLEX_OF = {_d.float32: _d.complex64, _d.float64: _d.complex128,
               _d.complex64: _d.complex64, _d.complex128: _d.complex128}


def _eig(xp, x, compute_v=True, Tout=None):
    """Eigenvalues (and unit-norm eigenvectors, as columns) of each square matrix."""
    out_type = _d.as_dtype(Tout).as_numpy_dtype
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise _invalid("Input matrix must be square.")
    if x.size == 0:
        e = np.zeros(x.shape[:-1], out_type)
        return e, (np.zeros(x.shape, out_type) if compute_v else np.zeros([0], out_type))
    x = np.asarray(x)
    if not np.isfinite(x).all():  # (TF's solver fails on them; LAPACK's refuses them)
        raise _invalid("Eigen decomposition was not successful. The input might not be valid.")
    if x.dtype.kind == "c":
        # TF's kernel (Eigen's complex solver) sorts them by magnitude, smallest first
        if compute_v:
            e, v = np.linalg.eig(x)
        else:
            e, v = np.linalg.eigvals(x), None
        order = np.argsort(np.abs(e), axis=-1, kind="stable")
        e = np.take_along_axis(e, order, -1)
        if v is not None:
            v = np.take_along_axis(v, order[..., None, :], -1)
    else:
        # in the order of Eigen's real Schur form, as TF's kernel gives them
        flat = x.reshape((-1,) + x.shape[-2:])
        pairs = [real_schur.eig_like_eigen(m, compute_v) for m in flat]
        e = np.stack([p[0] for p in pairs]).reshape(x.shape[:-1])
        v = np.stack([p[1] for p in pairs]).reshape(x.shape) if compute_v else None
    return e.astype(out_type), (v.astype(out_type) if compute_v else np.zeros([0], out_type))


def _eig_rule(x, compute_v=True, Tout=None, **_):
    out = _d.as_dtype(Tout)
    batch, (n, _) = _batch(x.shape), _matrix(x.shape)
    return [(_with_vector(batch, n), out),
            (_with_matrix(batch, n, n) if compute_v else TensorShape([0]), out)]


_EIG = register("Eig", _eig, _matrix_op_rule("Eig", _eig_rule), multi=True, dtypes=_EIG_TYPES)
tf_nodes[_EIG] = NodeForm(outputs=("e", "v"))
batching_rules[_EIG] = PER_ELEMENT


def _eig_call(tensor, compute_v, name):
    tensor = as_tensor(tensor)
    out = _COMPLEX_OF.get(tensor.dtype, _d.complex64)
    return dispatch(_EIG, (tensor,), {"compute_v": compute_v, "Tout": out}, name)


@export("linalg.eig", "eig")
def eig(tensor, name=None):
    """Eigenvalues and eigenvectors (unit-norm columns) of each square matrix: ``(e, v)``,
    complex (complex64 for float32 input, complex128 for float64).

    Each eigenvector is defined up to a phase, which may differ from TF's; for real input
    the eigenvalues come in TF's order, for complex input possibly in another.

    >>> e, v = tf.linalg.eig(tf.constant([[2.0, 1.0], [1.0, 2.0]]))
    >>> e
    <tf.Tensor: shape=(2,), dtype=complex64, numpy=array([3.+0.j, 1.+0.j], dtype=complex64)>
    """
    return tuple(_eig_call(tensor, True, name))


@export("linalg.eigvals", "eigvals")
def eigvals(tensor, name=None):
    """The eigenvalues of each square matrix, complex.

    >>> tf.linalg.eigvals(tf.constant([[0.0, -1.0], [1.0, 0.0]]))
    <tf.Tensor: shape=(2,), dtype=complex64, numpy=array([0.+1.j, 0.-1.j], dtype=complex64)>
    """
    return _eig_call(tensor, False, name)[0]


@register_gradient("Eig")
def _eig_grad(op, grad_e, grad_v):
    """TF's gradient: A^-H-free form ``V^-H (diag(de) + F o (V^H dV - V^H V diag(re(V^H dV))))
    V^H``, F the conjugated reciprocal eigenvalue gaps (V^H dV dropped without eigenvectors)."""
    a = op.inputs[0]
    e, v = op.outputs
    if not op.get_attr("compute_v"):
        e, v = _eig_call(a, True, None)
    vt = adjoint(v)
    mid = diag(grad_e)
    if op.get_attr("compute_v") and grad_v is not None:
        gaps = late.array_ops.expand_dims(e, -2) - late.array_ops.expand_dims(e, -1)
        f = math_ops.conj(set_diag(math_ops.reciprocal(gaps), late.array_ops.zeros_like(e)))
        vgv = matmul(vt, grad_v)
        real_diag = diag(cast(math_ops.real(diag_part(vgv)), vgv.dtype))
        mid = mid + f * (vgv - matmul(matmul(vt, v), real_diag))
    grad_a = solve(vt, matmul(mid, vt))
    return cast(grad_a, a.dtype)


# -- matrix logarithm ------------------------------------------------------------------------

def _logm(xp, x):
    """The principal logarithm of each (diagonalizable) complex matrix: V log(D) V^-1."""
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise _invalid("Input matrix must be square.")
    if x.size == 0:
        return np.zeros(x.shape, x.dtype)
    e, v = np.linalg.eig(np.asarray(x, np.complex128))
    with np.errstate(all="ignore"):
        out = np.linalg.solve(np.swapaxes(v, -1, -2),
                              np.swapaxes(v * np.log(e)[..., None, :], -1, -2))
    return np.swapaxes(out, -1, -2).astype(x.dtype)


_LOGM = register("MatrixLogarithm", _logm, _matrix_op_rule("MatrixLogarithm", same_shape),
                 dtypes=(_d.complex64, _d.complex128))
batching_rules[_LOGM] = PER_ELEMENT


@register_gradient("MatrixLogarithm")
def _logm_grad(op, *output_grads):
    # TF registers no gradient for MatrixLogarithm: differentiating through it raises its
    # LookupError
    raise LookupError(f"gradient registry has no entry for: {op.type}")


@export("linalg.logm")
def logm(input, name=None):
    """The principal matrix logarithm of each square complex matrix in `input`.

    >>> tf.linalg.logm(tf.constant([[1.0, 0.0], [0.0, 2.0]], tf.complex64))
    <tf.Tensor: shape=(2, 2), dtype=complex64, numpy=
    array([[0.       +0.j, 0.       +0.j],
           [0.       +0.j, 0.6931472+0.j]], dtype=complex64)>
    """
    return dispatch(_LOGM, (as_tensor(input),), _NO_ATTRS, name)


# -- tridiagonal products --------------------------------------------------------------------

def _tridiagonals(diagonals, diagonals_format):
    """(superdiagonal, main diagonal, subdiagonal), each ``[..., M]``, of `diagonals` in
    TF's 'compact', 'sequence' or 'matrix' format."""
    if diagonals_format == "compact":
        diagonals = as_tensor(diagonals)
        return diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]
    if diagonals_format == "sequence":
        return tuple(as_tensor(d) for d in diagonals)
    if diagonals_format == "matrix":
        m = as_tensor(diagonals)
        rank = m.shape.rank
        pad = [[0, 0]] * (rank - 2)
        superdiag = late.array_ops.pad(diag_part(m, k=1), pad + [[0, 1]])
        subdiag = late.array_ops.pad(diag_part(m, k=-1), pad + [[1, 0]])
        return superdiag, diag_part(m), subdiag
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


@export("linalg.tridiagonal_matmul")
def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """The product of tridiagonal matrices and `rhs` (``[..., M, N]``).

    `diagonals` as in `tf.linalg.tridiagonal_solve`: 'compact' ``[..., 3, M]`` rows
    (superdiagonal, its last element ignored; main diagonal; subdiagonal, its first ignored),
    'sequence' a tuple of those three ``[..., M]`` tensors, or 'matrix' ``[..., M, M]``.

    >>> d = tf.constant([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 6.0, 7.0]])
    >>> tf.linalg.tridiagonal_matmul(d, tf.ones([3, 1]))
    <tf.Tensor: shape=(3, 1), dtype=float32, numpy=
    array([[ 4.],
           [12.],
           [12.]], dtype=float32)>
    """
    superdiag, maindiag, subdiag = _tridiagonals(diagonals, diagonals_format)
    rhs = as_tensor(rhs, maindiag.dtype)
    if rhs.shape.rank is not None and maindiag.shape.rank is not None and \
            rhs.shape.rank != maindiag.shape.rank + 1:
        raise errors.InvalidArgumentError(None, None,
                                          "All input tensors must have the same rank.")
    # rhs moved up and down a row, a row of zeros coming in (for any rank)
    zero_row = late.array_ops.zeros_like(rhs[..., :1, :])
    below = late.array_ops.concat([rhs[..., 1:, :], zero_row], -2)
    above = late.array_ops.concat([zero_row, rhs[..., :-1, :]], -2)
    column = late.array_ops.expand_dims
    return (column(superdiag, -1) * below + column(maindiag, -1) * rhs
            + column(subdiag, -1) * above)


# -- matrix square root ----------------------------------------------------------------------

def _sqrtm_one(m):
    """The principal square root of one float64/complex128 matrix: SciPy's Schur method when
    SciPy is installed, else through the eigendecomposition."""
    try:
        import scipy.linalg
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.asarray(scipy.linalg.sqrtm(m))
    except ImportError:
        e, v = np.linalg.eig(m.astype(np.complex128))
        with np.errstate(all="ignore"):
            return np.linalg.solve(v.T, (v * np.sqrt(e)[None, :]).T).T


def _sqrtm(xp, x):
    """Principal square roots; NaN matrices where a real input has none (a negative real
    eigenvalue) or holds a NaN or infinity, as TF's real Schur method gives."""
    _check_matrix(x)
    complex_input = x.dtype.kind == "c"
    out = np.empty(x.shape, x.dtype)
    wide = np.asarray(x, np.complex128 if complex_input else np.float64)
    for index in np.ndindex(*x.shape[:-2]):
        m = wide[index]
        if not np.isfinite(m).all():
            out[index] = np.nan
            continue
        root = _sqrtm_one(m) if m.size else m
        if not complex_input and np.iscomplexobj(root):
            scale = max(np.abs(root).max(initial=0.0), 1.0)
            if np.abs(root.imag).max(initial=0.0) > 1e-7 * scale:
                out[index] = np.nan
                continue
            root = root.real
        out[index] = root
    return out


_SQRTM = register("MatrixSquareRoot", _sqrtm, _matrix_op_rule("MatrixSquareRoot", same_shape),
                  dtypes=(_d.float64, _d.float32, _d.float16, _d.complex64, _d.complex128), kernels=(_d.complex128, _d.complex64, _d.float64, _d.float32))
batching_rules[_SQRTM] = PER_ELEMENT


@register_gradient("MatrixSquareRoot")
def _sqrtm_grad(op, grad):
    """From S S = A: dS S + S dS = dA, so the gradient X solves the adjoint Sylvester
    equation S^H X + X S^H = grad (solved through its Kronecker form)."""
    s_h = adjoint(op.outputs)
    shape = late.array_ops.shape(s_h)
    n = shape[-1]
    eye = late.array_ops.eye(n, dtype=s_h.dtype)
    ex = late.array_ops.expand_dims
    # row-major vec: vec(S^H X) = (S^H kron I) vec(X), vec(X S^H) = (I kron (S^H)^T) vec(X)
    left = ex(ex(s_h, -1), -3) * ex(ex(eye, -2), -4)
    right = ex(ex(eye, -1), -3) * ex(ex(matrix_transpose(s_h), -2), -4)
    flat_shape = late.array_ops.concat([shape[:-2], [n * n, n * n]], 0)
    system = late.array_ops.reshape(left + right, flat_shape)
    rhs = late.array_ops.reshape(grad, late.array_ops.concat([shape[:-2], [n * n, 1]], 0))
    return late.array_ops.reshape(solve(system, rhs), shape)


@export("linalg.sqrtm", "matrix_square_root")
def sqrtm(input, name=None):
    """The principal square root of each square matrix in `input`.

    >>> tf.linalg.sqrtm(tf.constant([[4.0, 0.0], [0.0, 9.0]]))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[2., 0.],
           [0., 3.]], dtype=float32)>
    """
    return dispatch(_SQRTM, (as_tensor(input),), _NO_ATTRS, name)


# -- tridiagonal systems ---------------------------------------------------------------------

def _tridiagonal_solve(xp, diagonals, rhs, partial_pivoting=True, perturb_singular=False):
    """Solves each system by Gaussian elimination along the band (with row interchanges when
    `partial_pivoting`), in the input's precision; a singular system gives NaNs, as in TF."""
    if diagonals.ndim < 2 or diagonals.shape[-2] != 3:
        raise _invalid(f"Expected diagonals to have shape [..., 3, M], got "
                       f"{shape_text(diagonals.shape)}")
    if rhs.ndim != diagonals.ndim or rhs.shape[-2] != diagonals.shape[-1]:
        raise _invalid(f"Expected rhs to have shape [..., {diagonals.shape[-1]}, K], got "
                       f"{shape_text(rhs.shape)}")
    batch = np.broadcast_shapes(diagonals.shape[:-2], rhs.shape[:-2])
    n = diagonals.shape[-1]
    d = np.broadcast_to(diagonals, batch + diagonals.shape[-2:])
    sup, main, sub = (np.array(d[..., j, :])[..., None] for j in range(3))
    x = np.array(np.broadcast_to(rhs, batch + rhs.shape[-2:]))
    if n == 0 or x.size == 0:
        return x
    singular = np.zeros(batch + (1,), bool)
    with np.errstate(all="ignore"):
        if partial_pivoting:
            u0, u1 = main[..., 0, :].copy(), sup[..., 0, :].copy()
            rows0, rows1, rows2 = [], [], []
            for i in range(n - 1):
                below = sub[..., i + 1, :]
                keep = np.abs(u0) >= np.abs(below)
                singular |= keep & (u0 == 0)
                factor = np.where(keep, below / u0, u0 / below)
                nxt = sup[..., i + 1, :] if i + 1 < n else 0
                new_u0 = np.where(keep, u0, below)
                new_u1 = np.where(keep, u1, main[..., i + 1, :])
                new_u2 = np.where(keep, 0, nxt)
                next_u0 = np.where(keep, main[..., i + 1, :] - factor * u1,
                                   u1 - factor * main[..., i + 1, :])
                next_u1 = np.where(keep, nxt, -factor * nxt)
                top, bottom = x[..., i, :].copy(), x[..., i + 1, :].copy()
                x[..., i, :] = np.where(keep, top, bottom)
                x[..., i + 1, :] = np.where(keep, bottom - factor * top, top - factor * bottom)
                rows0.append(new_u0)
                rows1.append(new_u1)
                rows2.append(new_u2)
                u0, u1 = next_u0, next_u1
            rows0.append(u0)
            rows1.append(u1)
            rows2.append(np.zeros_like(u0))
            singular |= u0 == 0
            x[..., n - 1, :] = x[..., n - 1, :] / rows0[n - 1]
            if n > 1:
                x[..., n - 2, :] = (x[..., n - 2, :] - rows1[n - 2] * x[..., n - 1, :]) / \
                    rows0[n - 2]
            for i in range(n - 3, -1, -1):
                x[..., i, :] = (x[..., i, :] - rows1[i] * x[..., i + 1, :]
                                - rows2[i] * x[..., i + 2, :]) / rows0[i]
        else:
            ratios = [sup[..., 0, :] / main[..., 0, :]]
            singular |= main[..., 0, :] == 0
            x[..., 0, :] = x[..., 0, :] / main[..., 0, :]
            for i in range(1, n):
                denom = main[..., i, :] - sub[..., i, :] * ratios[-1]
                singular |= denom == 0
                ratios.append(sup[..., i, :] / denom)
                x[..., i, :] = (x[..., i, :] - sub[..., i, :] * x[..., i - 1, :]) / denom
            for i in range(n - 2, -1, -1):
                x[..., i, :] = x[..., i, :] - ratios[i] * x[..., i + 1, :]
    return np.where(singular[..., None, :], np.asarray(np.nan, x.dtype), x).astype(rhs.dtype)


def _tridiagonal_solve_rule(diagonals, rhs, **_):
    d, r = diagonals.shape, rhs.shape
    if d.rank is None or r.rank is None:
        return r, rhs.dtype
    return broadcast_shapes(d[:-2], r[:-2]).concatenate(r[-2:]), rhs.dtype


_TRIDIAGONAL_SOLVE = register("TridiagonalSolve", _single_or_wider(_tridiagonal_solve),
                              _tridiagonal_solve_rule, tied=(0, 1), dtypes=_TRIDIAGONAL,
                              input_names=("diagonals", "rhs"))
batching_rules[_TRIDIAGONAL_SOLVE] = PER_ELEMENT
tf_args[_TRIDIAGONAL_SOLVE] = ("diagonals", "rhs")
tf_nodes[_TRIDIAGONAL_SOLVE] = NodeForm(outputs=("output",))


def _transposed_tridiagonal(diagonals):
    """The compact diagonals of the transposed matrices."""
    superdiag, maindiag, subdiag = diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]
    pad = [[0, 0]] * (diagonals.shape.rank - 2)
    new_super = late.array_ops.pad(subdiag[..., 1:], pad + [[0, 1]])
    new_sub = late.array_ops.pad(superdiag[..., :-1], pad + [[1, 0]])
    return late.array_ops.stack([new_super, maindiag, new_sub], axis=-2)


@register_gradient("TridiagonalSolve")
def _tridiagonal_solve_grad(op, grad):
    """grad_rhs solves the transposed (adjoint) system; the diagonals' gradient is minus the
    three diagonals of grad_rhs x^H."""
    diagonals, x = op.inputs[0], op.outputs
    pivoting = op.get_attr("partial_pivoting")
    grad_rhs = _solve_tridiagonal_op(math_ops.conj(_transposed_tridiagonal(diagonals)), grad,
                                     pivoting, op.get_attr("perturb_singular"))
    x_h = -math_ops.conj(x)  # negated before the padding, so that the pads stay +0
    reduce = late.reduction_ops.reduce_sum
    rank = x.shape.rank
    pad = [[0, 0]] * (rank - 2)
    superdiag = late.array_ops.pad(reduce(grad_rhs[..., :-1, :] * x_h[..., 1:, :], -1),
                                   pad + [[0, 1]])
    maindiag = reduce(grad_rhs * x_h, -1)
    subdiag = late.array_ops.pad(reduce(grad_rhs[..., 1:, :] * x_h[..., :-1, :], -1),
                                 pad + [[1, 0]])
    grad_diags = late.array_ops.stack([superdiag, maindiag, subdiag], axis=-2)
    return grad_diags, grad_rhs


def _solve_tridiagonal_op(diagonals, rhs, partial_pivoting, perturb_singular, name=None):
    return dispatch(_TRIDIAGONAL_SOLVE, (diagonals, rhs),
                    {"partial_pivoting": bool(partial_pivoting),
                     "perturb_singular": bool(perturb_singular)}, name)


def _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting,
                   perturb_singular, name):
    """TF's static checks of compact diagonals and rhs, then the solve."""
    rhs = as_tensor(rhs, diagonals.dtype)
    d_rank, r_rank = diagonals.shape.rank, rhs.shape.rank
    if d_rank:
        if d_rank < 2:
            raise ValueError(f"Expected diagonals to have rank at least 2, got {d_rank}")
        if r_rank and r_rank not in (d_rank, d_rank - 1):
            raise ValueError(f"Expected the rank of rhs to be {d_rank - 1} or {d_rank}, "
                             f"got {r_rank}")
        if r_rank and not diagonals.shape[:-2].is_compatible_with(rhs.shape[:d_rank - 2]):
            raise ValueError(f"Batch shapes {diagonals.shape[:-2]} and "
                             f"{rhs.shape[:d_rank - 2]} are incompatible")
    if diagonals.shape.rank and diagonals.shape[-2] is not None and diagonals.shape[-2] != 3:
        raise ValueError(f"Expected 3 diagonals got {diagonals.shape[-2]}")

    def check_sizes(r):
        m1, m2 = diagonals.shape[-1], r.shape[-2]
        if m1 is not None and m2 is not None and m1 != m2:
            raise ValueError(f"Expected number of left-hand sided and right-hand sides to be "
                             f"equal, got {m1} and {m2}")

    if r_rank and d_rank and r_rank == d_rank - 1:  # a vector rhs: transpose_rhs is moot
        if conjugate_rhs:
            rhs = math_ops.conj(rhs)
        rhs = late.array_ops.expand_dims(rhs, -1)
        check_sizes(rhs)
        return late.array_ops.squeeze(
            _solve_tridiagonal_op(diagonals, rhs, partial_pivoting, perturb_singular, name), -1)
    if transpose_rhs:
        rhs = matrix_transpose(rhs, conjugate=conjugate_rhs)
    elif conjugate_rhs:
        rhs = math_ops.conj(rhs)
    check_sizes(rhs)
    return _solve_tridiagonal_op(diagonals, rhs, partial_pivoting, perturb_singular, name)


@export("linalg.tridiagonal_solve")
def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False):
    """Solves tridiagonal systems ``A x = rhs`` (``rhs`` of shape ``[..., M, K]`` or
    ``[..., M]``).

    `diagonals`: 'compact' ``[..., 3, M]`` rows (superdiagonal, its last element ignored;
    main diagonal; subdiagonal, its first ignored), 'sequence' a tuple of those three, or
    'matrix' ``[..., M, M]``.

    >>> d = tf.constant([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 6.0, 7.0]])
    >>> tf.linalg.tridiagonal_solve(d, tf.constant([4.0, 12.0, 12.0])).numpy().round(5)
    array([1., 1., 1.], dtype=float32)
    """
    if diagonals_format == "compact":
        diagonals = as_tensor(diagonals)
    elif diagonals_format == "sequence":
        if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        superdiag, maindiag, subdiag = (as_tensor(t) for t in diagonals)
        if not (subdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1])
                and superdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1])):
            raise ValueError(f"Tensors representing the three diagonals must have the same "
                             f"shape, except for the last dimension, got {subdiag.shape}, "
                             f"{maindiag.shape}, {superdiag.shape}")
        m = maindiag.shape[-1]

        def padded(t, what, padding):
            k = t.shape[-1]
            if k is None or m is None or k == m:
                return t
            if k == m - 1:
                return late.array_ops.pad(t, [[0, 0]] * (t.shape.rank - 1) + [padding])
            raise ValueError(f"Expected {what} to be have length {m} or {m - 1}, got {k}.")
        diagonals = late.array_ops.stack(
            [padded(superdiag, "superdiagonal", [0, 1]), maindiag,
             padded(subdiag, "subdiagonal", [1, 0])], axis=-2)
    elif diagonals_format == "matrix":
        diagonals = as_tensor(diagonals)
        m1, m2 = diagonals.shape[-1], diagonals.shape[-2]
        if m1 is not None and m2 is not None and m1 != m2:
            raise ValueError(f"Expected last two dimensions of diagonals to be same, got {m1} "
                             f"and {m2}")
        diagonals = late.array_ops.stack(list(_tridiagonals(diagonals, "matrix")), axis=-2)
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    return _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting,
                          perturb_singular, name)
