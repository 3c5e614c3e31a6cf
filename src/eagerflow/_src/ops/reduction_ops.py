"""Reductions and their relatives: sums and extremes over axes, arg-extremes, scans,
sorting (`top_k`, `sort`, `argsort`), `unique`, `bincount`, segment reductions,
clipping and norms.

Axes, `k`, `num_segments` and the like are static attrs: tensors given for them are
read as Python ints by the public functions when their value is known before run time;
`k` and `num_segments` known only at run time become the op's last input instead.

>>> tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=0)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 6], dtype=int32)>
>>> tf.reduce_mean(tf.constant([1, 2]))  # integer means truncate
<tf.Tensor: shape=(), dtype=int32, numpy=1>
"""
import collections
import re
import math
from collections import abc

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend import onednn_eltwise, onednn_pooling, threads
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_input, get_static_value, operand
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.op_attrs import checked_attrs
from eagerflow._src.core.registry import (
    BOOL_ONLY, NUMBER, attr_dtype_error, register, register_gradient, same_shape)
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, no_gradient_entry
from eagerflow._src.core.registry import fixed_input_error
from eagerflow._src.core.registry import NUMBER_TYPES, QUANTIZED, REAL_NUMBER_TYPES
from eagerflow._src.ops import array_ops, bitwise_ops, float_math, half_sums, late, math_ops
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops import top_k_order
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.indexed_slices import IndexedSlices
from eagerflow._src.ops.wrappers import as_tensor

_HALF = frozenset(np.dtype(d.as_numpy_dtype) for d in (_d.float16, _d.bfloat16))
_FLOAT16 = np.dtype(np.float16)
_BFLOAT16 = np.dtype(_d.bfloat16.as_numpy_dtype)
_FLOAT32 = np.dtype(np.float32)
_INDEX = (_d.int32, _d.int64)

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


# --- argument helpers ------------------------------------------------------------------------

def _invalid(message):
    """An InvalidArgumentError raised inside a kernel (dispatch adds the op name)."""
    return errors.InvalidArgumentError(None, None, message)


def _static_ints(value, what):
    """`value` (int, sequence, NumPy array or tensor of integers) as a tuple of ints.

    A symbolic tensor must have a value known when traced (a constant, ``rank(x) - 1``).
    """
    if isinstance(value, Tensor) and not isinstance(value, EagerTensor):
        known = get_static_value(value)
        if known is None:
            raise TypeError(f"`{what}` must be a constant value here, got the symbolic {value}.")
        value = known
    arr = np.asarray(value)
    if arr.size and arr.dtype.kind in "fb" and isinstance(value, (np.ndarray, np.generic)):
        arr = arr.astype(np.int32)  # a NumPy value converts to int32 by NumPy's cast, as in TF
    elif arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int32")
    return tuple(int(a) for a in arr.reshape(-1))


def _static_int(value, what):
    """A scalar `value` (Python/NumPy int or eager integer tensor) as a Python int."""
    if np.ndim(value) != 0:
        raise TypeError(f"{what} must be int or Tensor with integer datatype")
    return _static_ints(value, what)[0]


def _int_or_tensor(value, op_name, attr, what, allowed=_INDEX):
    """A scalar integer parameter (`k`, `num_segments`) as a Python int, or as an
    integer tensor when only run time knows it (then the op's last input); its dtype
    (`attr`) must be one of `allowed`."""
    if type(value) is int:
        return value
    tensor = as_tensor(value)
    check_attr_dtype(op_name, attr, tensor.dtype, allowed, param=what)
    if array_ops.run_time_tensor(tensor) is not None:
        return tensor
    return _static_int(tensor, what)


def _known_int(value):
    """A scalar integer parameter given as attr (an int) or input (a tensor): its value when
    known before run time, else None."""
    if type(value) is int:
        return value
    known = get_static_value(value)
    return None if known is None else int(known)


def _dispatch_with(op, inputs, attrs, param, value, name):
    """Runs `op` with the scalar parameter `param` as an attr when an int, else as the last
    input."""
    if type(value) is int:
        return dispatch(op, inputs, {**attrs, param: value}, name)
    return dispatch(op, (*inputs, value), attrs, name)


def axis_attr(axis):
    """The `axis` attr of reductions: None (all axes) or a tuple of ints."""
    if axis is None:
        return None
    if type(axis) is int:  # the common cases, kept cheap
        return (axis,)
    if type(axis) in (list, tuple) and all(type(a) is int for a in axis):
        return tuple(axis)
    return _static_ints(axis, "axis")


def check_attr_dtype(op_name, attr, dtype, allowed, param=None):
    """TF's error for a dtype attribute outside its allowed list (`param`: the input it
    types, which a graph's error names; see `attr_dtype_error`)."""
    if dtype not in allowed:
        raise attr_dtype_error(op_name, attr, dtype, allowed, param)


def _index_tensor(value, op_name, attr="Tindices", allowed=_INDEX, param=None):
    """An integer index tensor (segment ids, positions) checked against `allowed`."""
    t = as_tensor(value)
    check_attr_dtype(op_name, attr, t.dtype, allowed, param)
    return t


# --- Sum, Mean, Max, Min, Prod, Any, All, EuclideanNorm -----------------------------------------

def _check_axes(axis, ndim):
    """TF's errors for reduction axes out of range or repeated."""
    seen = set()
    for a in axis:
        if not -ndim <= a < ndim:
            raise _invalid(f"Invalid reduction dimension ({a} for input with {ndim} "
                           "dimension(s)")
        if a % ndim in seen:
            raise _invalid("Invalid reduction arguments: Axes contains duplicate dimension: "
                           f"{a % ndim}")
        seen.add(a % ndim)


def _reduction(compute, upcast_half=True, float16=None, bfloat16=None):
    """A kernel ``(xp, x, axis, keepdims)`` with TF's messages for bad axes.

    Half-precision inputs are reduced in float32 (accuracy, and no NumPy warnings) unless
    `compute` handles them itself (`upcast_half` False), or, for float16 NumPy arrays,
    `float16` ``(x, axis, keepdims)`` does: TF's CPU kernels reduce float16 in float16.
    `bfloat16` does the same for bfloat16 NumPy arrays, for the kernels (Prod) that TF
    runs in bfloat16 rather than accumulating in float32.
    """
    def kernel(xp, x, axis=None, keepdims=False):
        if axis is not None and type(axis) is not tuple:  # a run-time input
            axis = tuple(int(a) for a in np.ravel(axis))
        try:
            if float16 is not None and x.dtype == _FLOAT16 and xp is np:
                return float16(x, axis, keepdims)
            if bfloat16 is not None and x.dtype == _BFLOAT16 and xp is np:
                return bfloat16(x, axis, keepdims)
            if upcast_half and x.dtype in _HALF:
                return compute(xp, x.astype(xp.float32), axis, keepdims).astype(x.dtype)
            return compute(xp, x, axis, keepdims)
        except ValueError:  # NumPy's AxisError, or repeated axes: explain as TF does
            _check_axes(axis, x.ndim)
            raise
    return kernel


def _reduced_count(shape, axis):
    """How many elements of `shape` each output element of a reduction over `axis` covers."""
    return math.prod(shape if axis is None else [shape[a] for a in axis])


def _truncating_divide(xp, total, count):
    """Integer `total / count` rounded toward zero, as C does; `count` is positive."""
    quotient = total // count
    return quotient + ((total % count != 0) & (total < 0))


# The ufuncs' own `reduce` (in NumPy and CuPy alike) skips the argument
# handling of `xp.sum`/`xp.prod`, about half of a small reduction's cost.
def _sum(xp, x, axis, keepdims):
    if axis is None and x.size == 1 or axis and 1 in x.shape and _one_each(x.shape, axis):
        # TF's kernel copies the input when each output sums one element: -0.0 stays -0.0
        # (the ufunc adds it to +0.0)
        return x.copy() if keepdims else xp.squeeze(x, axis)
    return xp.add.reduce(x, axis, x.dtype, keepdims=keepdims)


def _one_each(shape, axis):
    """Whether the valid, distinct axes `axis` of `shape` all have length 1."""
    ndim = len(shape)
    return all(-ndim <= a < ndim and shape[a] == 1 for a in axis) and \
        len({a % ndim for a in axis}) == len(axis)


# A sum over leading or middle axes adds whole rows of the axes after them, one call of
# the ufunc's inner loop per row; as a product with a vector of ones BLAS reads the array
# once in wide vectors: 2-20x faster on large float arrays of many rows (the fewer
# elements per row, the more), and at least as accurate (both accumulate in the array's
# dtype). Sums over trailing axes stay with the ufunc: vectorized already, and pairwise.
_GEMV_MIN_SIZE = 1 << 14
_GEMV_MIN_ROWS = 256
_GEMV_TYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64))


def add_reduce(xp, x, axis, keepdims=False):
    """`x` summed over `axis` (a tuple of ints, or None for all) in its own dtype."""
    if x.dtype == _FLOAT32 and float_math.emulating(xp, x):
        return half_sums.tf_sum(x, axis, keepdims)  # (TF's order of the additions)
    block = _gemv_block(x, axis)
    if block is None:
        return _sum(xp, x, axis, keepdims)
    start, stop = block
    threads.adapt()  # a BLAS product: its thread count follows the machine's load
    total = xp.matmul(xp.ones(math.prod(x.shape[start:stop]), x.dtype),
                      x.reshape(math.prod(x.shape[:start]), -1, math.prod(x.shape[stop:])))
    kept = (1,) * (stop - start) if keepdims else ()
    return total.reshape(x.shape[:start] + kept + x.shape[stop:])


def _gemv_block(x, axis):
    """(first, last + 1) of `axis` where a product with ones sums `x` over it: consecutive
    axes of a large, C-contiguous float32/float64 `x`, summing more than one element per
    output, over at least `_GEMV_MIN_ROWS` rows of more than one element; else None."""
    if (axis is None or not axis or x.size < _GEMV_MIN_SIZE or x.dtype not in _GEMV_TYPES
            or not x.flags.c_contiguous):
        return None
    ndim = x.ndim
    if not all(-ndim <= a < ndim for a in axis):
        return None  # the ufunc raises
    axes = sorted(a % ndim for a in axis)
    if axes != list(range(axes[0], axes[0] + len(axes))):
        return None
    start, stop = axes[0], axes[-1] + 1
    row = math.prod(x.shape[stop:])
    if row < 2 or math.prod(x.shape[start:stop]) < 2 or x.size // row < _GEMV_MIN_ROWS:
        return None
    return start, stop


def _prod(xp, x, axis, keepdims):
    return xp.multiply.reduce(x, axis, x.dtype, keepdims=keepdims)


def _mean(xp, x, axis, keepdims):
    if x.dtype.kind in "iu":  # accumulate wide, then truncate: TF's integer mean
        wide = xp.int64 if x.dtype.kind == "i" else xp.uint64
        total = xp.add.reduce(x, axis, wide, keepdims=keepdims)
        count = _reduced_count(x.shape, axis)
        return xp.asarray(_truncating_divide(xp, total, max(count, 1))).astype(x.dtype)
    if x.dtype in _HALF:
        total = _tf_half_sum(xp, x, axis, keepdims)
        if x.dtype == _FLOAT16:  # TF rounds the sum to half, then divides in half
            with np.errstate(invalid="ignore", divide="ignore"):  # 0/0 is NaN, as in TF
                return total.astype(x.dtype) / x.dtype.type(_reduced_count(x.shape, axis))
        return (total / _reduced_count(x.shape, axis)).astype(x.dtype)
    if (xp is np and x.dtype == _FLOAT32 and x.size >= onednn_eltwise.MIN_SIZE
            and not float_math.emulating(xp, x)):
        pooled = _pooled_mean(x, axis, keepdims)
        if pooled is not None:
            return pooled
    total = add_reduce(xp, x, axis, keepdims)
    count = _reduced_count(x.shape, axis)
    if count == 0:  # the mean of nothing is NaN
        return xp.full(xp.shape(total), xp.nan, x.dtype)
    return total / count  # a float or complex dtype divided by a Python int keeps its dtype


def _pooled_mean(x, axis, keepdims):
    """The mean of float32 `x` over consecutive middle axes as oneDNN's average pooling, one
    window spanning them per leading index (a global average pooling), on the thread
    budget: 1.4-1.9x as fast as the product with ones on two cores (measured from 2**19
    elements, rows of whole vectors of 16); None where it does not apply (leading or
    trailing axes, where that product is one long row; rows of other lengths; a single
    thread, as fast either way; oneDNN off)."""
    block = _gemv_block(x, axis)
    if block is None or block[0] == 0 or x.size < 2 * onednn_eltwise.MIN_SIZE:
        return None
    start, stop = block
    lead, count = math.prod(x.shape[:start]), math.prod(x.shape[start:stop])
    row = math.prod(x.shape[stop:])
    if row % 16 or threads.for_primitive() < 2:
        return None
    mean = onednn_pooling.pool(True, x.reshape(lead, count, row), (lead, 1, row), (count,),
                               (1,), [(0, 0)], "NWC")
    if mean is None:
        return None
    return mean.reshape(x.shape[:start] + (1,) * (stop - start) * keepdims + x.shape[stop:])


def _extreme(fn_name, identity):
    """Max or Min; an empty reduction gives `identity(dtype)` (-inf for reduce_max of floats)."""
    def compute(xp, x, axis, keepdims):
        if x.size == 0:  # NumPy refuses; TF returns the reduction's identity
            shape = xp.shape(xp.sum(x, axis, keepdims=keepdims))
            return xp.full(shape, identity(x.dtype), x.dtype)
        return getattr(xp, fn_name)(x, axis, keepdims=keepdims)
    return compute


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.inf if dtype.kind == "f" else np.iinfo(dtype).max


def _euclidean_norm(xp, x, axis, keepdims):
    if x.dtype.kind in "iu":
        # TF squares and sums in the integer type (wrapping around), then truncates the
        # square root taken in double precision; the root of a negative sum converts as
        # the CPU converts NaN, to the lowest int32 or int64 (cut to the type's width).
        total = xp.add.reduce(x * x, axis, x.dtype, keepdims=keepdims)
        with np.errstate(invalid="ignore"):
            root = xp.sqrt(total.astype(xp.float64))
        root = xp.where(xp.isnan(root), -2.0 ** (63 if x.dtype.itemsize == 8 else 31), root)
        return root.astype(xp.int64).astype(x.dtype)
    squares = xp.square(xp.abs(x))
    return xp.sqrt(xp.sum(squares, axis, keepdims=keepdims)).astype(x.dtype)


def _half_euclidean_norm(x, axis, keepdims):
    # TF squares in float16 and sums the squares as Sum adds (so 100 hundreds overflow)
    with np.errstate(over="ignore"):
        return np.sqrt(half_sums.tf_sum(np.square(x), axis, keepdims))


def _any(xp, x, axis, keepdims):
    return xp.any(x, axis, keepdims=keepdims)


def _all(xp, x, axis, keepdims):
    return xp.all(x, axis, keepdims=keepdims)


def _tf_half_sum(xp, x, axis, keepdims):
    """A 16-bit float sum as TF's kernel adds it: float16 in float16 in its CPU order, each
    partial sum rounded (NumPy arrays; a GPU's kernel adds in float32, as TF's GPU kernels
    do), bfloat16 in float32."""
    if x.dtype == _FLOAT16 and xp is np:
        return half_sums.tf_sum(x, axis, keepdims)
    return add_reduce(xp, x.astype(xp.float32), axis, keepdims)


_REDUCE = rules.reduction()
_sum_over_axes = _reduction(add_reduce, float16=half_sums.tf_sum)


def _sum_kernel(xp, x, axis=None, keepdims=False):
    # No axes (a gradient summed back over the broadcast axes BroadcastGradientArgs found at
    # run time, usually none): the array itself, not a copy; Sum is declared to keep views.
    if type(axis) is tuple and not axis or type(axis) is np.ndarray and not axis.size:
        return x
    return _sum_over_axes(xp, x, axis, keepdims)


_SUM = register("Sum", _sum_kernel, _REDUCE, dtypes=NUMBER_TYPES, reduction=True)
tf_args[_SUM] = ("input", "axis")
# (every path of `_mean` divides or pools into a new array, unlike Sum's: a global average
# pooling's input may be overwritten once read, by its gradient's ReLU mask say)
_MEAN = register("Mean", _reduction(_mean, upcast_half=False), _REDUCE, dtypes=NUMBER_TYPES,
                 reduction=True, keeps_no_view=True)
tf_args[_MEAN] = ("input", "axis")
_PROD = register("Prod", _reduction(_prod, float16=half_sums.tf_prod, bfloat16=half_sums.tf_prod),
                 _REDUCE, dtypes=NUMBER_TYPES, reduction=True)
tf_args[_PROD] = ("input", "axis")
_MAX = register("Max", _reduction(_extreme("max", _lowest)), _REDUCE,
                dtypes=REAL_NUMBER_TYPES + QUANTIZED, reduction=True)
tf_args[_MAX] = ("input", "axis")
_MIN = register("Min", _reduction(_extreme("min", _highest)), _REDUCE,
                dtypes=REAL_NUMBER_TYPES + QUANTIZED, reduction=True)
tf_args[_MIN] = ("input", "axis")
_ANY = register("Any", _reduction(_any), _REDUCE, dtypes=BOOL_ONLY,
                not_differentiable="boolean", reduction=True)
tf_args[_ANY] = ("input", "axis")
_ALL = register("All", _reduction(_all), _REDUCE, dtypes=BOOL_ONLY,
                not_differentiable="boolean", reduction=True)
tf_args[_ALL] = ("input", "axis")
_EUCLIDEAN_NORM = register("EuclideanNorm",
                           _reduction(_euclidean_norm, float16=_half_euclidean_norm), _REDUCE,
                           dtypes=NUMBER_TYPES, reduction=True)
tf_args[_EUCLIDEAN_NORM] = ("input", "axis")
tf_defaults.assign({"keepdims": False}, _SUM, _MEAN, _PROD, _MAX, _MIN, _ANY, _ALL, _EUCLIDEAN_NORM)
for _op in (_SUM, _MEAN, _PROD, _MAX, _MIN, _ANY, _ALL, _EUCLIDEAN_NORM):
    tf_nodes[_op] = NodeForm(
        inputs=(0, AttrInput("axis", "reduction_indices", runtime=True, everything=True)),
        renamed={"keepdims": "keep_dims"})


def _named(fn, op, doc, prefix=""):
    """`fn`, a public function made for `op`, with `doc` and TF's name (``reduce_sum`` for
    Sum, ``unsorted_segment_max`` for UnsortedSegmentMax)."""
    fn.__doc__ = doc
    fn.__name__ = fn.__qualname__ = prefix + re.sub(r"(?<!^)(?=[A-Z])", "_", op.name).lower()
    return fn


def _reducer(op, doc, input_dtype=None):
    """``fn(input_tensor, axis=None, keepdims=False, name=None)`` running reduction `op`.

    `input_dtype`: the only dtype the op takes; Python values are converted to it.
    """
    def fn(input_tensor, axis=None, keepdims=False, name=None):
        given = input_tensor
        if (input_dtype is not None and isinstance(axis, (list, tuple))
                and context.executing_eagerly()):
            # TF's eager fast path rejects a list axis; its fallback converts the input to
            # the op's dtype (ValueError for a tensor or variable of another)
            input_tensor = as_tensor(input_tensor, input_dtype)
        elif type(input_tensor) is not EagerTensor:
            input_tensor = convert_input(input_tensor, input_dtype)
        if axis is not None and type(axis) is not int:
            dynamic = array_ops.run_time_tensor(axis)
            if dynamic is not None:  # the axes become the op's input, as in TF
                check_attr_dtype(op.name, "Tidx", dynamic.dtype, _INDEX)
                return dispatch(op, (input_tensor, dynamic), {"keepdims": bool(keepdims)},
                                name)
        attrs = {"axis": axis_attr(axis), "keepdims": bool(keepdims)}
        try:
            return dispatch(op, (input_tensor,), attrs, name)
        except errors.OpError as e:
            raise errors.listed(e, given, axis) from None
    return _named(fn, op, doc, "reduce_")


reduce_sum = _reducer(_SUM, """Computes the sum of elements across dimensions of a tensor.

    `axis` (None: all) may be an int, a list or a tensor, negative axes count
    from the end; `keepdims` keeps reduced dimensions with length 1.

    >>> tf.reduce_sum(tf.constant([[1, 1, 1], [1, 1, 1]]), 1, keepdims=True)
    <tf.Tensor: shape=(2, 1), dtype=int32, numpy=
    array([[3],
           [3]], dtype=int32)>
    """)
export("math.reduce_sum", "reduce_sum")(reduce_sum)
reduce_mean = _reducer(_MEAN, """Computes the mean of elements across dimensions of a tensor.

    Integer means truncate toward zero; the mean of no floats is NaN.

    >>> tf.reduce_mean(tf.constant([1.0, 2.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1.5>
    """)
export("math.reduce_mean", "reduce_mean")(reduce_mean)
reduce_prod = _reducer(_PROD, """Computes the product of elements across dimensions.

    >>> tf.reduce_prod(tf.constant([2, 3]))
    <tf.Tensor: shape=(), dtype=int32, numpy=6>
    """)
export("math.reduce_prod", "reduce_prod")(reduce_prod)
reduce_max = _reducer(_MAX, """Computes the maximum of elements across dimensions.

    An empty reduction gives the dtype's lowest value (-inf for floats).

    >>> tf.reduce_max(tf.constant([1, 5, 3]))
    <tf.Tensor: shape=(), dtype=int32, numpy=5>
    """)
export("math.reduce_max", "reduce_max")(reduce_max)
reduce_min = _reducer(_MIN, """Computes the minimum of elements across dimensions.

    >>> tf.reduce_min(tf.constant([[1.0, 5.0]]), axis=-1)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """)
export("math.reduce_min", "reduce_min")(reduce_min)
reduce_any = _reducer(_ANY, """Computes the logical OR of elements across dimensions.

    >>> tf.reduce_any(tf.constant([False, True]))
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """, _d.bool)
export("math.reduce_any", "reduce_any")(reduce_any)
reduce_all = _reducer(_ALL, """Computes the logical AND of elements across dimensions.

    >>> tf.reduce_all(tf.constant([False, True]))
    <tf.Tensor: shape=(), dtype=bool, numpy=False>
    """, _d.bool)
export("math.reduce_all", "reduce_all")(reduce_all)
reduce_euclidean_norm = _reducer(_EUCLIDEAN_NORM, """Computes sqrt(sum(|x|**2)) across dimensions.

    >>> tf.math.reduce_euclidean_norm(tf.constant([3.0, 4.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=5.0>
    """)
export("math.reduce_euclidean_norm")(reduce_euclidean_norm)


@export("math.reduce_logsumexp", "reduce_logsumexp")
def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """Computes log(sum(exp(x))) across dimensions, without overflow for large x.

    >>> tf.reduce_logsumexp(tf.constant([1000.0, 1000.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1000.6931762695312>
    """
    x = as_tensor(input_tensor)
    if x.dtype.is_integer:  # TF's max runs, then its finiteness check rejects integers
        check_attr_dtype("IsFinite", "T", x.dtype,
                         (_d.bfloat16, _d.float16, _d.float32, _d.float64))
    with context.op_scope(name or "ReduceLogSumExp") as scope:
        # Shift by the max so exp never overflows; clamping an infinite max to the finite
        # range keeps x - shift free of inf - inf.
        shift = clip_by_value(reduce_max(x, axis, keepdims=True), x.dtype.min, x.dtype.max)
        total = math_ops.log(reduce_sum(math_ops.exp(math_ops.subtract(x, shift)), axis,
                                        keepdims))
        if not keepdims:
            shift = reduce_sum(shift, axis)  # summing the kept length-1 axes drops them
        return math_ops.add(total, shift, name=scope or name)


@export("math.reduce_variance")
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Computes the variance (mean squared deviation) across dimensions.

    Complex inputs give the real variance of their magnitude of deviation.

    >>> tf.math.reduce_variance(tf.constant([1.0, 2.0, 3.0, 4.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1.25>
    """
    x = as_tensor(input_tensor)
    if x.dtype.is_integer:
        raise TypeError(f"Input must be either real or complex. Received integer type {x.dtype}.")
    means = reduce_mean(x, axis, keepdims=True)
    deviations = math_ops.subtract(x, means)
    if x.dtype.is_complex:
        deviations = math_ops.abs(deviations)
    return reduce_mean(math_ops.square(deviations), axis, keepdims, name=name)


@export("math.reduce_std")
def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Computes the standard deviation across dimensions.

    >>> tf.math.reduce_std(tf.constant([1.0, 3.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    return math_ops.sqrt(reduce_variance(input_tensor, axis, keepdims), name=name)


# --- ArgMax, ArgMin ------------------------------------------------------------------------------

def _check_dimension(axis, rank):
    if not -rank <= axis < rank:
        raise _invalid(f"Expected dimension in the range [{-rank}, {rank}), but got {axis}")


def _arg_extreme(fn_name, nan_fill):
    """ArgMax/ArgMin: NaNs never win (as TF's kernels compare them), ties go to the first."""
    def kernel(xp, x, axis, output_type):
        axis = int(axis)  # an attr, or a run-time input
        _check_dimension(axis, x.ndim)
        if x.shape[axis] == 0:
            raise _invalid(f"Reduction axis {axis} is empty in shape {shape_text(x.shape)}")
        if x.dtype.kind == "f" and x.size:
            top = x.max()  # NaN only when x holds one: the common case skips the rewrite
            if top != top:
                x = xp.where(xp.isnan(x), xp.asarray(nan_fill, x.dtype), x)
        elif x.dtype in _HALF:  # (ml_dtypes' max can warn on NaN)
            x = xp.where(xp.isnan(x), xp.asarray(nan_fill, x.dtype), x)
        # (the array's method: NumPy's and CuPy's module functions add a wrapper's cost)
        return getattr(x, fn_name)(axis).astype(output_type.as_numpy_dtype, copy=False)
    return kernel


def _arg_rule(x, axis, output_type):
    rank = x.shape.rank
    if rank is None:
        return unknown_shape(), output_type
    if not isinstance(axis, int):  # a run-time input: which dim goes is unknown
        return TensorShape([None] * max(rank - 1, 0)), output_type
    _check_dimension(axis, rank)
    dims = list(x.shape)
    del dims[axis % rank]
    return TensorShape(dims), output_type


_ARG_DTYPES = REAL_NUMBER_TYPES + QUANTIZED + (_d.bool,)
_ARG_MAX = register("ArgMax", _arg_extreme("argmax", -np.inf), _arg_rule, dtypes=_ARG_DTYPES,
                    not_differentiable="index output")
_ARG_MIN = register("ArgMin", _arg_extreme("argmin", np.inf), _arg_rule, dtypes=_ARG_DTYPES,
                    not_differentiable="index output")
tf_nodes[_ARG_MAX] = tf_nodes[_ARG_MIN] = NodeForm(inputs=(0, AttrInput("axis", "dimension",
                                                                        kind=int)))
tf_defaults[_ARG_MAX] = {"output_type": _d.int64}
tf_defaults[_ARG_MIN] = {"output_type": _d.int64}
_ARG_OUTPUT_TYPES = (_d.int16, _d.uint16, _d.int32, _d.int64)


def _arg(op, input, axis, output_type, name):
    output_type = _d.as_dtype(output_type)
    check_attr_dtype(op.name, "output_type", output_type, _ARG_OUTPUT_TYPES)
    if op is _ARG_MAX and isinstance(axis, (np.ndarray, np.generic)) and (
            axis.dtype.kind not in "iu"):
        # (TF's argmax wrapper checks a NumPy axis' dtype; argmin casts it like the reductions)
        raise TypeError(f"axis tensor dtypes {axis.dtype} is not supported")
    # TF's argmax wrapper refuses a Python list with TypeError (below); argmin passes it on
    if isinstance(axis, Tensor) and axis.shape.rank not in (0, None) or (
            op is _ARG_MIN and isinstance(axis, (list, tuple, np.ndarray))
            and np.ndim(axis) != 0):
        if not isinstance(axis, Tensor):
            _static_ints(axis, "axis")  # TF converts the list first (TypeError for [0.5])
        dims = errors.shape_text(np.shape(axis) if not isinstance(axis, Tensor)
                                 else axis.shape)
        if context.executing_eagerly():
            raise errors.InvalidArgumentError(
                None, op.name, f"dim must be a scalar, but received tensor of shape: {dims} "
                               f"[Op:{op.name}]")
        raise ValueError(f"Shape must be rank 0 but is rank {np.ndim(axis)} for '{op.name}' "
                         f"(op: '{op.name}') with input shapes: [], {dims}.")
    dynamic = None if axis is None or type(axis) is int else array_ops.run_time_tensor(axis)
    if dynamic is not None:  # the axis becomes the op's input, as in TF
        check_attr_dtype(op.name, "Tidx", dynamic.dtype, _INDEX)
        return dispatch(op, (as_tensor(input), dynamic), {"output_type": output_type}, name)
    if type(axis) is not int:
        axis = 0 if axis is None else _static_int(axis, "axis")
    attrs = {"axis": axis, "output_type": output_type}
    return dispatch(op, (as_tensor(input),), attrs, name)


@export("math.argmax", "argmax")
def argmax(input, axis=None, output_type=_d.int64, name=None):
    """Returns the index of the largest value across `axis` (default 0); ties: first index.

    >>> tf.argmax(tf.constant([[1, 5], [7, 2]]))
    <tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 0])>
    """
    return _arg(_ARG_MAX, input, axis, output_type, name)


@export("math.argmin", "argmin")
def argmin(input, axis=None, output_type=_d.int64, name=None):
    """Returns the index of the smallest value across `axis` (default 0); ties: first index.

    >>> tf.argmin(tf.constant([3, 1, 1]), output_type=tf.int32)
    <tf.Tensor: shape=(), dtype=int32, numpy=1>
    """
    return _arg(_ARG_MIN, input, axis, output_type, name)


# --- TopKV2, sort, argsort -----------------------------------------------------------------------

def _top_k(xp, x, k, sorted, index_type):
    k = int(k)
    if k < 0:
        raise _invalid(f"Need k >= 0, got {k}")
    if x.ndim < 1:
        raise _invalid(f"input must be >= 1-D, got shape {shape_text(x.shape)}")
    if x.shape[-1] < k:
        raise _invalid(f"input must have at least k columns. Had {x.shape[-1]}, needed {k}")
    # An order-reversing key sorted stably: largest first, ties by index. Rows holding NaN
    # (which compares false with everything) take the order TF's kernel leaves them in, and
    # so do all rows unsorted (the order of the kernel's heap of the best k).
    floating = x.dtype.kind == "f" or x.dtype in _HALF
    key = -x if floating else ~x
    indices = xp.argsort(key, axis=-1, kind="stable")[..., :k]
    heap = not sorted and 1 < k < x.shape[-1]
    if (floating or heap) and k and x.size:
        rows = indices.reshape(-1, k).copy()
        flat = x.reshape(-1, x.shape[-1])
        replay = range(len(flat)) if heap else np.flatnonzero(np.isnan(flat).any(axis=-1))
        for r in replay:
            rows[r] = top_k_order.nan_row_order(flat[r], k, sorted)
        indices = rows.reshape(indices.shape)
    return xp.take_along_axis(x, indices, -1), indices.astype(index_type.as_numpy_dtype)


def _top_k_rule(x, k, sorted, index_type):
    k = _known_int(k)
    rules.check_rank("TopKV2", [x], 0, at_least=1)
    if k is not None and x.shape.rank and x.shape[-1] is not None and x.shape[-1] < k:
        raise rules.shape_error("TopKV2", f"input must have last dimension >= k = {k} but is "
                                          f"{x.shape[-1]}", [x.shape, TensorShape([])])
    shape = unknown_shape() if x.shape.rank is None else x.shape[:-1].concatenate([k])
    return [(shape, x.dtype), (shape, index_type)]


_TOP_K = register("TopKV2", _top_k, _top_k_rule, multi=True, dtypes=REAL_NUMBER_TYPES)
tf_nodes[_TOP_K] = NodeForm(inputs=(0, AttrInput("k", type_attr="Tk", kind=int, runtime=True)),
                            outputs=("values", "indices"))
tf_defaults[_TOP_K] = {"sorted": True, "index_type": _d.int32}


# --- NthElement --------------------------------------------------------------------------------

def _nth_element(xp, x, n, reverse=False):
    if n.ndim:
        raise _invalid(f"N must be scalar but has rank {n.ndim}")
    n = int(n)
    if n < 0:
        raise _invalid(f"n must be non-negative but is {n}")
    if x.ndim < 1:
        raise _invalid(f"Input must be at least rank 1 but is rank {x.ndim}")
    if x.shape[-1] <= n:
        raise _invalid(f"Input must have last dimension > n = {n}")
    if reverse:
        n = x.shape[-1] - n - 1
    return xp.partition(x, n, axis=-1)[..., n]  # (a NaN sorts last, as in TF's)


def _nth_element_rule(x, n, reverse=False):
    shapes = [x.shape, n.shape]
    rules.check_rank("NthElement", [x, n], 0, at_least=1)
    value = rules.known_value(n)
    computed = None if value is None or np.size(value) != 1 else [(1, np.ravel(value)[0])]
    if n.shape.rank:
        raise rules.shape_error("NthElement", f"Input must be scalar but has rank "
                                              f"{n.shape.rank}", shapes, computed=computed)
    if computed is not None and computed[0][1] < 0:
        raise rules.shape_error("NthElement", f"Dimension size, given by scalar input 1, must "
                                              f"be non-negative but is {computed[0][1]}",
                                shapes, computed=computed)
    if x.shape.rank is None:
        return unknown_shape(), x.dtype
    last = x.shape[-1]
    if computed is not None and last is not None and last <= computed[0][1]:
        raise rules.shape_error("NthElement", f"Input must have last dimension > n = "
                                              f"{computed[0][1]} but is {last}", shapes,
                                computed=computed)
    return x.shape[:-1], x.dtype


_NTH_ELEMENT = register("NthElement", _nth_element, _nth_element_rule,
                        dtypes=REAL_NUMBER_TYPES)
tf_nodes[_NTH_ELEMENT] = NodeForm(types={"T": 0}, outputs=("values",))
tf_args[_NTH_ELEMENT] = ("input", "n")
tf_defaults[_NTH_ELEMENT] = {"reverse": False}
batching_rules[_NTH_ELEMENT] = PER_ELEMENT


@register_gradient("NthElement")
def _nth_element_grad(op, dy):
    """Split among the entries equal to the value taken (ties share it)."""
    x, out = op.inputs[0], op.outputs
    hits = cast(math_ops.equal(array_ops.expand_dims(out, -1), x), dy.dtype)
    count = reduce_sum(hits, -1, keepdims=True)
    return math_ops.multiply(math_ops.divide(hits, count), array_ops.expand_dims(dy, -1)), None


@export("math.top_k", "nn.top_k")
def top_k(input, k=1, sorted=True, index_type=_d.int32, name=None):
    """Finds the `k` largest entries of the last dimension, and their indices.

    Equal values keep the order of their indices; a NaN in a whole row (k = its length)
    lands where TF's sort leaves it, otherwise last.

    >>> tf.math.top_k(tf.constant([1, 3, 3, 2]), k=2).indices
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    index_type = _d.as_dtype(index_type)
    check_attr_dtype("TopKV2", "index_type", index_type, (_d.int16, _d.int32, _d.int64))
    k = _int_or_tensor(k, "TopKV2", "Tk", "k", (_d.int16,) + _INDEX)
    attrs = {"sorted": bool(sorted), "index_type": index_type}
    return TopKV2(*_dispatch_with(_TOP_K, (as_tensor(input),), attrs, "k", k, name))


_DIRECTIONS = ("ASCENDING", "DESCENDING")


def _sort_along(values, axis, direction, want_indices):
    """Sorted values (or their indices) along `axis`: `top_k` over the whole axis, as TF does.

    Ascending order sorts an order-reversing image of the values: their negation for
    floats, their bitwise complement for integers (which cannot overflow).
    """
    if direction not in _DIRECTIONS:
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    x = as_tensor(values)
    rank = x.shape.rank
    if isinstance(axis, Tensor) and not isinstance(axis, EagerTensor) and \
            get_static_value(axis) is None:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis}.")
    axis = _static_int(axis, "axis")
    perm = None
    if rank is None:  # the last axis needs no rank; another would be moved there
        if axis != -1:
            raise ValueError(f"sort along axis {axis} needs the rank of its input known, "
                             f"got shape {x.shape}")
    elif not -rank <= axis < rank:  # TF's sort slices the shape at `axis`
        message = f"slice index {axis} of dimension 0 out of bounds."
        if not context.executing_eagerly():  # the slice's shape function, as it is added
            raise ValueError(f"{message} for 'sort/strided_slice' (op: 'StridedSlice')")
        raise errors.eager_error(errors.InvalidArgumentError, "StridedSlice", message,
                                 name="strided_slice/")
    elif axis % rank != rank - 1:
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = array_ops.transpose(x, perm)
    flip = bitwise_ops.invert if x.dtype.is_integer else math_ops.negative
    ascending = direction == "ASCENDING"
    n = None if rank is None else x.shape[-1]
    result = top_k(flip(x) if ascending else x,
                   k=array_ops.shape(x)[-1] if n is None else n)
    if want_indices:
        out = result.indices
    else:
        out = flip(result.values) if ascending else result.values
    return out if perm is None else array_ops.transpose(out, perm)


@export("sort")
def sort(values, axis=-1, direction="ASCENDING", name=None):
    """Sorts `values` along `axis` (a NaN lands where TF's sort leaves it).

    >>> tf.sort(tf.constant([3, 1, 2]))
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>
    """
    return _sort_along(values, axis, direction, want_indices=False)


@export("argsort")
def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """Returns the int32 indices that sort `values` along `axis`; always stable.

    >>> tf.argsort(tf.constant([3, 1, 3, 1]))
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([1, 3, 0, 2], dtype=int32)>
    """
    return _sort_along(values, axis, direction, want_indices=True)


# --- Unique, UniqueWithCounts --------------------------------------------------------------------

def _unique_keys(x):
    """What unique compares for `x`: 16-bit floats as float32 in which -0.0 and 0.0 differ
    (TF hashes those by their bits: two zeros), -0.0 becoming float32's tiniest negative
    denormal, which no 16-bit float widens to."""
    if x.dtype not in _HALF:
        return x
    key = x.astype(np.float32)
    key[(key == 0) & np.signbit(key)] = -np.float32(2.0 ** -149)
    return key


def _unique(with_counts):
    """Unique values in order of first occurrence; NaNs are all distinct, as in TF."""
    def kernel(xp, x, out_idx):
        if x.ndim != 1:
            raise _invalid("unique expects a 1D vector.")
        _, first, inverse, counts = xp.unique(_unique_keys(x), return_index=True,
                                              return_inverse=True, return_counts=True,
                                              equal_nan=False)
        order = xp.argsort(first)  # sorted-unique position -> first-occurrence position
        rank = xp.empty_like(order)
        rank[order] = xp.arange(order.size)
        index_type = out_idx.as_numpy_dtype
        outputs = (x[first[order]], rank[inverse].astype(index_type))
        if with_counts:
            outputs += (counts[order].astype(index_type),)
        return outputs
    return kernel


def _unique_rule(with_counts):
    def rule(x, out_idx):
        if not with_counts:  # TF's UniqueWithCounts checks the rank only when it runs
            rules.check_rank("Unique", [x], 0, rank=1)
        outputs = [(TensorShape([None]), x.dtype), (x.shape, out_idx)]
        if with_counts:
            outputs.append((TensorShape([None]), out_idx))
        return outputs
    return rule


_UNIQUE = register("Unique", _unique(False), _unique_rule(False), multi=True, tied=())
_UNIQUE_WITH_COUNTS = register("UniqueWithCounts", _unique(True), _unique_rule(True), multi=True,
                               tied=())
tf_nodes[_UNIQUE] = NodeForm(outputs=("y", "idx"))
tf_args[_UNIQUE] = ("x",)
tf_defaults[_UNIQUE] = {"out_idx": _d.int32}
tf_nodes[_UNIQUE_WITH_COUNTS] = NodeForm(outputs=("y", "idx", "count"))
tf_args[_UNIQUE_WITH_COUNTS] = ("x",)
tf_defaults[_UNIQUE_WITH_COUNTS] = {"out_idx": _d.int32}
no_gradient_entry("Unique", "UniqueWithCounts")


def _run_unique(op, result_type, x, out_idx, name):
    out_idx = _d.as_dtype(out_idx)
    check_attr_dtype(op.name, "out_idx", out_idx, _INDEX)
    return result_type(*dispatch(op, (as_tensor(x),), {"out_idx": out_idx}, name))


@export("unique")
def unique(x, out_idx=_d.int32, name=None):
    """Finds the unique elements of a 1-D tensor, in order of first occurrence.

    Returns ``(y, idx)`` with ``x == y[idx]``.

    >>> tf.unique(tf.constant([3, 1, 3])).y
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 1], dtype=int32)>
    """
    return _run_unique(_UNIQUE, Unique, x, out_idx, name)


@export("unique_with_counts")
def unique_with_counts(x, out_idx=_d.int32, name=None):
    """Like `unique`, also counting each unique element: ``(y, idx, count)``.

    >>> tf.unique_with_counts(tf.constant([3, 1, 3])).count
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 1], dtype=int32)>
    """
    return _run_unique(_UNIQUE_WITH_COUNTS, UniqueWithCounts, x, out_idx, name)


# --- UniqueV2, UniqueWithCountsV2: unique slices along an axis ----------------------------------

def _unique_v2(with_counts):
    def kernel(xp, x, *given, axis=None, out_idx):
        """Unique slices of `x` along `axis` (none given: a 1-D `x`'s elements; an array
        `given` when known at run time only), in order of first occurrence, the index of
        each slice's unique one (and each one's count)."""
        if axis is None:
            axis = tuple(int(a) for a in given[0].reshape(-1))
        if len(axis) > 1:
            raise _invalid("axis does not support input tensors larger than 1 elements")
        if not axis:
            return _unique(with_counts)(xp, x, out_idx)
        a = axis[0]
        if not -x.ndim <= a < x.ndim:
            raise _invalid(f"axis has to be between [0, {x.ndim})")
        moved = np.moveaxis(np.asarray(x), a, 0)
        keys = _unique_keys(moved)
        found, idx, first = {}, [], []
        for i, row in enumerate(keys.reshape(keys.shape[0], math.prod(keys.shape[1:]))):
            key = tuple(row.tolist())  # (NaNs never equal: each its own slice, as in TF)
            if key not in found:
                found[key] = len(first)
                first.append(i)
            idx.append(found[key])
        y = np.moveaxis(moved[np.asarray(first, np.int64)], 0, a)
        idx = np.asarray(idx, out_idx.as_numpy_dtype)
        if not with_counts:
            return y, idx
        return y, idx, np.bincount(idx, minlength=len(first)).astype(idx.dtype)
    return kernel


def _unique_v2_rule(with_counts):
    def rule(x, *given, axis=None, out_idx):
        rank = x.shape.rank
        if axis is None:  # known at run time only
            outputs = [(unknown_shape(rank), x.dtype), (TensorShape([None]), out_idx)]
        elif not axis:
            rules.check_rank("UniqueV2", [x], 0, rank=1)
            outputs = [(TensorShape([None]), x.dtype), (x.shape, out_idx)]
        else:
            n = None if rank is None or not -rank <= axis[0] < rank else x.shape[axis[0]]
            outputs = [(unknown_shape(rank), x.dtype), (TensorShape([n]), out_idx)]
        return outputs + [(TensorShape([None]), out_idx)] * with_counts
    return rule


_UNIQUE_V2 = register("UniqueV2", _unique_v2(False), _unique_v2_rule(False), multi=True,
                      tied=())
_UNIQUE_WITH_COUNTS_V2 = register("UniqueWithCountsV2", _unique_v2(True),
                                  _unique_v2_rule(True), multi=True, tied=())
for _op, _outputs in ((_UNIQUE_V2, ("y", "idx")),
                      (_UNIQUE_WITH_COUNTS_V2, ("y", "idx", "count"))):
    tf_nodes[_op] = NodeForm(inputs=(0, AttrInput("axis", type_attr="Taxis", runtime=True)),
                             outputs=_outputs)
    tf_args[_op] = ("x", "axis")
    tf_defaults[_op] = {"out_idx": _d.int32}
no_gradient_entry("UniqueV2", "UniqueWithCountsV2")


# --- ApproxTopK: exact on CPU ------------------------------------------------------------------

ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])


def _approx_top_k(xp, x, k, reduction_dimension, recall_target, is_max_k,
                  reduction_input_size_override, aggregate_to_topk):
    # The k largest (or smallest) along the dimension, exactly: TF's CPU kernel is TopK's.
    if x.ndim < 1:
        raise _invalid(f"input must be >= 1-D, got shape {shape_text(x.shape)}")
    moved = np.moveaxis(x, reduction_dimension, -1)
    key = moved if is_max_k else -moved
    _, indices = _top_k(xp, key, k, True, _d.int32)
    values = np.take_along_axis(moved, indices.astype(np.int64), -1)
    return (np.moveaxis(values, -1, reduction_dimension),
            np.moveaxis(indices, -1, reduction_dimension))


def _approx_top_k_rule(x, k, reduction_dimension, recall_target, is_max_k,
                       reduction_input_size_override, aggregate_to_topk):
    rank = x.shape.rank
    if rank is None:
        return [(unknown_shape(), x.dtype), (unknown_shape(), _d.int32)]
    rules.check_rank("ApproxTopK", [x], 0, at_least=1)
    dims = x.shape.as_list()
    axis = reduction_dimension % rank
    if dims[axis] is not None and dims[axis] < k:
        raise rules.shape_error("ApproxTopK", f"input must have at least k columns. Had "
                                              f"{dims[axis]}, needed {k}", [x.shape])
    dims[axis] = k
    return [(TensorShape(dims), x.dtype), (TensorShape(dims), _d.int32)]


_APPROX_TOP_K = register("ApproxTopK", _approx_top_k, _approx_top_k_rule, multi=True,
                         dtypes=(_d.float16, _d.bfloat16, _d.float32))
tf_nodes[_APPROX_TOP_K] = NodeForm(outputs=("values", "indices"))
tf_args[_APPROX_TOP_K] = ("input",)
tf_defaults[_APPROX_TOP_K] = {"reduction_dimension": -1, "recall_target": 0.95,
                              "is_max_k": True, "reduction_input_size_override": -1,
                              "aggregate_to_topk": True}


def _approx_k(operand, k, reduction_dimension, recall_target, is_max_k,
              reduction_input_size_override, aggregate_to_topk, name):
    attrs = {"k": int(k), "reduction_dimension": int(reduction_dimension),
             "recall_target": float(recall_target), "is_max_k": is_max_k,
             "reduction_input_size_override": int(reduction_input_size_override),
             "aggregate_to_topk": bool(aggregate_to_topk)}
    attrs = checked_attrs("ApproxTopK", attrs, name=name)  # (k at least 0, as TF declares)
    return ApproxTopK(*dispatch(_APPROX_TOP_K, (as_tensor(operand),), attrs, name))


@export("approx_top_k")
def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """The `k` largest (`is_max_k`, else smallest) values along `reduction_dimension` and
    their indices: the ``ApproxTopK`` op (exact here).

    >>> tf.approx_top_k(tf.constant([1.0, 5.0, 3.0, 4.0]), 2).values.numpy()
    array([5., 4.], dtype=float32)
    """
    return _approx_k(input, k, reduction_dimension, recall_target, is_max_k,
                     reduction_input_size_override, aggregate_to_topk, name)


@export("math.approx_max_k", "nn.approx_max_k")
def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """The `k` largest values along `reduction_dimension` and their indices; exact here, as
    on TF's CPU (equal values in index order).

    >>> tf.math.approx_max_k(tf.constant([0.1, 0.9, 0.3, 0.7]), 2).indices
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 3], dtype=int32)>
    """
    return _approx_k(operand, k, reduction_dimension, recall_target, True,
                     reduction_input_size_override, aggregate_to_topk, name)


@export("math.approx_min_k", "nn.approx_min_k")
def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """The `k` smallest values along `reduction_dimension` and their indices; exact (TF's
    CPU has no kernel for it; XLA's gives these).

    >>> tf.math.approx_min_k(tf.constant([0.1, 0.9, 0.3, 0.7]), 2).indices
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>
    """
    return _approx_k(operand, k, reduction_dimension, recall_target, False,
                     reduction_input_size_override, aggregate_to_topk, name)


# --- DenseBincount, count_nonzero ----------------------------------------------------------------

def _bincount(xp, arr, size, weights, binary_output):
    """Counts per value of `arr` below `size` (per row of a 2-D `arr`), as TF's DenseBincount."""
    if size.ndim:
        raise _invalid(f"Shape must be rank 0 but is rank {size.ndim}")
    size = int(size)
    if size < 0:
        raise _invalid(f"size ({size}) must be non-negative")
    if weights.size and weights.shape != arr.shape:
        raise _invalid("`weights` must be the same shape as `arr` or a length-0 `Tensor`, in "
                       "which case it acts as all weights equal to 1. Received "
                       f"{shape_text(weights.shape)}")
    if arr.ndim > 2:
        raise _invalid(f"Shape must be at most rank 2 but is rank {arr.ndim}")
    if arr.size and arr.min() < 0:
        raise _invalid("Input arr must be non-negative!")
    per_row = arr.ndim == 2
    rows = arr if per_row else arr.reshape(1, -1)
    # One flat bincount: row r's value v lands in bin r * size + v (values >= size dropped).
    keep = rows < size
    bins = (xp.arange(rows.shape[0])[:, None] * size + rows)[keep]
    w = weights.reshape(rows.shape)[keep] if weights.size else None
    counts = xp.bincount(bins, w, minlength=rows.shape[0] * size)
    if binary_output:
        counts = counts > 0
    counts = counts.astype(weights.dtype)
    return counts.reshape(rows.shape[0], size) if per_row else counts


def _bincount_rule(arr, size, weights, binary_output):
    if arr.shape.rank is None:
        return unknown_shape(), weights.dtype
    if arr.shape.rank == 2:
        return TensorShape([arr.shape[0], None]), weights.dtype
    return TensorShape([None]), weights.dtype


_DENSE_BINCOUNT = register("DenseBincount", _bincount, _bincount_rule, tied=(2,),
                           dtypes=(_d.int32, _d.int64, _d.float32, _d.float64))
tf_nodes[_DENSE_BINCOUNT] = NodeForm(types={"Tidx": 0, "T": 2})
tf_args[_DENSE_BINCOUNT] = ("input", "size", "weights")
tf_defaults[_DENSE_BINCOUNT] = {"binary_output": False}
no_gradient_entry("DenseBincount")  # (its weights')


def _bincount_v1(xp, arr, size, weights):
    # TF's first op: the values of `arr` of any shape counted into `size` bins
    for i, (name, value) in enumerate((("arr", arr), ("size", size))):
        if value.dtype != np.int32:  # (TF's inputs of fixed type int32)
            raise fixed_input_error(_BINCOUNT, i, name, _d.int32,
                                    _d.as_dtype(value.dtype))
    if weights.size and weights.size != arr.size:
        raise _invalid("Input indices and weights must have the same size.")
    return _bincount(xp, arr.reshape(-1), size, weights.reshape(-1), False)


def _bincount_v1_rule(arr, size, weights):
    if size.shape.rank not in (None, 0):
        raise rules.shape_error("Bincount", f"Shape must be rank 0 but is rank "
                                            f"{size.shape.rank}",
                                [arr.shape, size.shape, weights.shape])
    known = rules.known_value(size)
    return TensorShape([None if known is None else int(known)]), weights.dtype


_BINCOUNT = register("Bincount", _bincount_v1, _bincount_v1_rule, tied=(2,),
                     dtypes=(_d.int32, _d.int64, _d.float32, _d.float64))
tf_args[_BINCOUNT] = ("arr", "size", "weights")
tf_nodes[_BINCOUNT] = NodeForm(types={"T": 2}, outputs=("bins",))
batching_rules[_BINCOUNT] = PER_ELEMENT
no_gradient_entry("Bincount")


@export("math.bincount")
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_d.int32, name=None,
             axis=None, binary_output=False):
    """Counts the occurrences of each value in an integer tensor.

    With `weights`, sums the weights of each value instead (the result takes their
    dtype). `axis=-1` counts each row of a 2-D `arr` separately. As TF, the number of
    bins (the largest value + 1, at least `minlength`, at most `maxlength`) is computed
    by ops, and TF's DenseBincount counts.

    >>> tf.math.bincount(tf.constant([1, 1, 3]))
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 2, 0, 1], dtype=int32)>
    """
    if isinstance(arr, late.sparse_tensor.SparseTensor):
        return late.sparse_ops.bincount_of_sparse(arr, weights, minlength, maxlength, dtype,
                                                  name, axis, binary_output)
    arr = as_tensor(arr)
    if weights is not None:
        weights = as_tensor(weights)
        if binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                             "Please specify only one.")
    if not arr.dtype.is_integer:
        arr = cast(arr, _d.int32)
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         "currently supported.")
    check_attr_dtype("DenseBincount", "Tidx", arr.dtype, _INDEX)
    nonempty = math_ops.greater(array_ops.size(arr), 0)
    size = math_ops.multiply(cast(nonempty, arr.dtype),
                             math_ops.add(reduce_max(arr), as_tensor(
                                 np.ones((), arr.dtype.as_numpy_dtype))))
    if minlength is not None:
        size = math_ops.maximum(convert_input(minlength, arr.dtype), size)
    if maxlength is not None:
        size = math_ops.minimum(convert_input(maxlength, arr.dtype), size)
    if axis in (None, 0):
        if weights is not None:
            weights = array_ops.reshape(weights, [-1])
        arr = array_ops.reshape(arr, [-1])
    if weights is None:
        weights = as_tensor(np.zeros(0, _d.as_dtype(dtype).as_numpy_dtype))  # all ones
    return dispatch(_DENSE_BINCOUNT, (arr, size, weights), {"binary_output": bool(binary_output)},
                    name)


@export("math.count_nonzero")
def count_nonzero(input, axis=None, keepdims=None, dtype=_d.int64, name=None):
    """Counts the non-zero (non-empty, for strings) elements across dimensions.

    >>> tf.math.count_nonzero(tf.constant([[0, 1], [2, 0]]))
    <tf.Tensor: shape=(), dtype=int64, numpy=2>
    """
    with context.op_scope(name or "count_nonzero") as scope:  # (``count_nonzero/Sum``)
        x = as_tensor(input)
        zero = b"" if x.dtype == _d.string else np.zeros((), x.dtype.as_numpy_dtype)
        nonzero = cast(math_ops.not_equal(x, as_tensor(zero)), _d.int64)
        return cast(reduce_sum(nonzero, axis, bool(keepdims)), dtype,
                    name=name if scope is None else None)


# --- segment reductions --------------------------------------------------------------------------

def _segments_reduce(xp, ufunc_name, data, ids, num_segments, fill):
    """`ufunc` over the rows of `data` that share an id of sorted 1-D `ids`.

    Rows of the result that no id names are `fill`.
    """
    out = xp.full((num_segments,) + data.shape[1:], fill, data.dtype)
    if ids.size:
        starts = xp.flatnonzero(xp.concatenate([xp.ones(1, bool), ids[1:] != ids[:-1]]))
        if ufunc_name in ("maximum", "minimum") and data.dtype.kind not in "biu":
            out[ids[starts]] = _nan_restarting_extreme(xp, ufunc_name, data, starts)
        elif ufunc_name == "add" and data.dtype == np.float16:
            out[ids[starts]] = _stepwise_sums(xp, data, starts)
        else:
            out[ids[starts]] = getattr(xp, ufunc_name).reduceat(data, starts, axis=0)
    return out


def _stepwise_sums(xp, data, starts):
    """Each segment's float16 sum as TF's segment kernels add it: one row at a time, each
    partial sum rounded to float16 (NumPy's reduceat adds float16 more exactly). One step
    per row of the longest segment, or one accumulation per segment, whichever is fewer."""
    lengths = xp.diff(xp.append(starts, data.shape[0]))
    if starts.size <= int(lengths.max()):
        return xp.stack([xp.add.accumulate(data[a:a + n], axis=0)[-1]
                         for a, n in zip(starts.tolist(), lengths.tolist())])
    sums = data[starts].copy()
    for k in range(1, int(lengths.max())):
        live = xp.flatnonzero(lengths > k)
        sums[live] += data[starts[live] + k]
    return sums


def _nan_restarting_extreme(xp, ufunc_name, data, starts):
    """Segment max/min as TF's kernels compare: a NaN replaces the running extreme and the
    next value replaces the NaN, so each segment's extreme is over the values after its last
    NaN (NaN when the NaN is the segment's last value)."""
    ufunc = getattr(xp, ufunc_name)
    nan = xp.isnan(data)
    if not nan.any():
        return ufunc.reduceat(data, starts, axis=0)
    position = xp.arange(1, data.shape[0] + 1).reshape((-1,) + (1,) * (data.ndim - 1))
    last_nan = xp.maximum.reduceat(xp.where(nan, position, 0), starts, axis=0)
    segment = xp.cumsum(xp.isin(xp.arange(data.shape[0]), starts)) - 1
    after = position > last_nan[segment]
    identity = -np.inf if ufunc_name == "maximum" else np.inf
    extreme = ufunc.reduceat(xp.where(after, data, xp.asarray(identity, data.dtype)), starts,
                             axis=0)
    return xp.where(xp.logical_or.reduceat(after, starts, axis=0), extreme,
                    xp.asarray(np.nan, data.dtype))


def _segment_mean(xp, data, ids, num_segments):
    """Sum / count per segment (0 for empty segments); integer means truncate."""
    total = _segments_reduce(xp, "add", data, ids, num_segments, 0)
    count = xp.bincount(ids, minlength=num_segments).reshape((-1,) + (1,) * (data.ndim - 1))
    count = xp.maximum(count, 1)
    if data.dtype.kind in "iu":
        return _truncating_divide(xp, total, count).astype(data.dtype)
    return (total / count).astype(data.dtype)


def _check_sorted_segments(xp, data, ids):
    if data.ndim < 1:
        raise _invalid("input must be at least rank 1")
    if ids.ndim != 1:
        raise _invalid("segment_ids should be a vector.")
    if ids.shape[0] != data.shape[0]:
        raise _invalid("segment_ids should be the same size as dimension 0 of input.")
    if ids.size == 0:
        return 0
    num_segments = int(ids[-1]) + 1
    if ids[0] < 0:
        raise _invalid(f"Segment id {int(ids[0])} out of range [0, {num_segments}), possibly "
                       "because 'segment_ids' input is not sorted.")
    if xp.any(ids[1:] < ids[:-1]):
        raise _invalid("segment ids are not increasing")
    return num_segments


def _sorted_segment_kernel(ufunc_name, fill):
    def kernel(xp, data, ids):
        num_segments = _check_sorted_segments(xp, data, ids)
        if ufunc_name == "mean":
            return _segment_mean(xp, data, ids, num_segments)
        return _segments_reduce(xp, ufunc_name, data, ids, num_segments, fill)
    return kernel


def _sorted_segment_rule(data, ids):
    return TensorShape([None]).concatenate(data.shape[1:]), data.dtype


def _register_sorted_segment(tf_name, ufunc_name, fill, dtypes):
    op = register(tf_name, _sorted_segment_kernel(ufunc_name, fill), _sorted_segment_rule,
                  dtypes=dtypes)
    tf_nodes[op] = NodeForm(types={"T": 0, "Tindices": 1})
    return op


_SEGMENT_SUM = _register_sorted_segment("SegmentSum", "add", 0, NUMBER_TYPES)
tf_args[_SEGMENT_SUM] = ("data", "segment_ids")
_SEGMENT_PROD = _register_sorted_segment("SegmentProd", "multiply", 1, NUMBER_TYPES)
tf_args[_SEGMENT_PROD] = ("data", "segment_ids")
_SEGMENT_MAX = _register_sorted_segment("SegmentMax", "maximum", 0, REAL_NUMBER_TYPES)
tf_args[_SEGMENT_MAX] = ("data", "segment_ids")
_SEGMENT_MIN = _register_sorted_segment("SegmentMin", "minimum", 0, REAL_NUMBER_TYPES)
tf_args[_SEGMENT_MIN] = ("data", "segment_ids")
_SEGMENT_MEAN = _register_sorted_segment("SegmentMean", "mean", 0, NUMBER_TYPES)
tf_args[_SEGMENT_MEAN] = ("data", "segment_ids")


def _sorted_segment(op, doc):
    """``fn(data, segment_ids, name=None)`` running sorted segment reduction `op`."""
    def fn(data, segment_ids, name=None):
        ids = _index_tensor(segment_ids, op.name, param="segment_ids")
        try:
            return dispatch(op, (as_tensor(data), ids), name=name)
        except errors.OpError as e:
            raise errors.listed(e, data, segment_ids) from None
    return _named(fn, op, doc)


segment_sum = _sorted_segment(_SEGMENT_SUM, """Sums the rows of `data` per segment.

    `segment_ids` label the rows of `data` with sorted segment numbers; segments
    that no row names are 0.

    >>> tf.math.segment_sum(tf.constant([1, 2, 3, 4]), tf.constant([0, 0, 2, 2]))
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([3, 0, 7], dtype=int32)>
    """)
export("math.segment_sum")(segment_sum)
segment_prod = _sorted_segment(_SEGMENT_PROD, """Multiplies the rows of `data` per sorted segment.

    Empty segments are 1.

    >>> tf.math.segment_prod(tf.constant([2, 3, 4]), tf.constant([0, 0, 1]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([6, 4], dtype=int32)>
    """)
export("math.segment_prod")(segment_prod)
segment_max = _sorted_segment(_SEGMENT_MAX, """The maximum of the rows of `data` per sorted segment.

    Empty segments are 0.

    >>> tf.math.segment_max(tf.constant([2, 3, 4]), tf.constant([0, 0, 1]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 4], dtype=int32)>
    """)
export("math.segment_max")(segment_max)
segment_min = _sorted_segment(_SEGMENT_MIN, """The minimum of the rows of `data` per sorted segment.

    Empty segments are 0.

    >>> tf.math.segment_min(tf.constant([2, 3, 4]), tf.constant([0, 0, 1]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 4], dtype=int32)>
    """)
export("math.segment_min")(segment_min)
segment_mean = _sorted_segment(_SEGMENT_MEAN, """The mean of the rows of `data` per sorted segment.

    Integer means truncate; empty segments are 0.

    >>> tf.math.segment_mean(tf.constant([1.0, 2.0, 4.0]), tf.constant([0, 0, 1]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 4. ], dtype=float32)>
    """)
export("math.segment_mean")(segment_mean)


def _unsorted_segment_kernel(ufunc_name, fill):
    def kernel(xp, data, ids, num_segments):
        num_segments = int(num_segments)
        if data.shape[:ids.ndim] != ids.shape:
            raise _invalid(f"data.shape = {shape_text(data.shape)} does not start with "
                           f"segment_ids.shape = {shape_text(ids.shape)}")
        if num_segments < 0:
            raise _invalid(f"Input num_segments == {num_segments} must not be negative.")
        bad = xp.flatnonzero(ids >= num_segments)
        if bad.size:
            where = ",".join(str(int(i)) for i in xp.unravel_index(int(bad[0]), ids.shape))
            raise _invalid(f"segment_ids[{where}] = {int(ids.reshape(-1)[bad[0]])} is out of "
                           f"range [0, {num_segments})")
        flat_ids = ids.reshape(-1)
        rows = data.reshape(flat_ids.shape + data.shape[ids.ndim:])
        kept = xp.flatnonzero(flat_ids >= 0)  # negative ids drop their rows
        kept = kept[xp.argsort(flat_ids[kept], kind="stable")]
        out = _segments_reduce(xp, ufunc_name, rows[kept], flat_ids[kept], num_segments,
                               fill(data.dtype))
        if ufunc_name == "add" and data.dtype.kind in "fc":
            out += 0  # TF adds each row to a zero: a sum of -0.0 rows is +0.0
        return out
    return kernel


def _unsorted_segment_rule(data, ids, num_segments):
    if data.shape.rank is None or ids.shape.rank is None:
        return unknown_shape(), data.dtype
    # segment_ids' shape is a prefix of data's
    shapes = [data.shape, ids.shape, TensorShape([])]
    if ids.shape.rank > data.shape.rank:
        raise rules.shape_error("UnsortedSegmentSum", f"Shape must be at least rank "
                                f"{ids.shape.rank} but is rank {data.shape.rank}", shapes)
    for d, i in zip(data.shape, ids.shape):
        if d is not None and i is not None and d != i:
            raise rules.shape_error("UnsortedSegmentSum",
                                    f"Dimensions must be equal, but are {d} and {i}", shapes)
    rows = TensorShape([_known_int(num_segments)])
    return rows.concatenate(data.shape[ids.shape.rank:]), data.dtype


def _register_unsorted_segment(tf_name, ufunc_name, fill, dtypes):
    op = register(tf_name, _unsorted_segment_kernel(ufunc_name, fill),
                  _unsorted_segment_rule, dtypes=dtypes)
    tf_nodes[op] = NodeForm(
        inputs=(0, 1, AttrInput("num_segments", type_attr="Tnumsegments", kind=int,
                                runtime=True)),
        types={"T": 0, "Tindices": 1})
    return op


_UNSORTED_SEGMENT_SUM = _register_unsorted_segment("UnsortedSegmentSum", "add",
                                                   lambda _: 0, NUMBER_TYPES)
tf_args[_UNSORTED_SEGMENT_SUM] = ("data", "segment_ids", "num_segments")
_UNSORTED_SEGMENT_PROD = _register_unsorted_segment("UnsortedSegmentProd", "multiply",
                                                    lambda _: 1, NUMBER_TYPES)
tf_args[_UNSORTED_SEGMENT_PROD] = ("data", "segment_ids", "num_segments")
_UNSORTED_SEGMENT_MAX = _register_unsorted_segment(
    "UnsortedSegmentMax", "maximum", lambda dtype: _d.from_numpy(dtype).min, REAL_NUMBER_TYPES)
tf_args[_UNSORTED_SEGMENT_MAX] = ("data", "segment_ids", "num_segments")
_UNSORTED_SEGMENT_MIN = _register_unsorted_segment(
    "UnsortedSegmentMin", "minimum", lambda dtype: _d.from_numpy(dtype).max, REAL_NUMBER_TYPES)
tf_args[_UNSORTED_SEGMENT_MIN] = ("data", "segment_ids", "num_segments")


def _unsorted_segment(op, doc):
    """``fn(data, segment_ids, num_segments, name=None)`` running unsorted segment `op`."""
    def fn(data, segment_ids, num_segments, name=None):
        ids = _index_tensor(segment_ids, op.name, allowed=(_d.int16,) + _INDEX,
                            param="segment_ids")
        num_segments = _int_or_tensor(num_segments, op.name, "Tnumsegments", "num_segments")
        try:
            return _dispatch_with(op, (as_tensor(data), ids), {}, "num_segments", num_segments,
                                  name)
        except errors.OpError as e:
            raise errors.listed(e, data, segment_ids) from None
    return _named(fn, op, doc)


unsorted_segment_sum = _unsorted_segment(_UNSORTED_SEGMENT_SUM, """Sums slices per segment id.

    `segment_ids`' shape is a prefix of `data`'s; each id names the segment of the
    slice of `data` at its position. Ids may come in any order, negative ids drop
    their slice. The result has `num_segments` rows.

    >>> tf.math.unsorted_segment_sum(tf.constant([1, 2, 3]), tf.constant([1, 0, 1]), 2)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 4], dtype=int32)>
    """)
export("math.unsorted_segment_sum")(unsorted_segment_sum)
unsorted_segment_prod = _unsorted_segment(_UNSORTED_SEGMENT_PROD, """Multiplies per segment id.

    Empty segments are 1.

    >>> tf.math.unsorted_segment_prod(tf.constant([2, 3, 4]), tf.constant([1, 0, 1]), 2)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 8], dtype=int32)>
    """)
export("math.unsorted_segment_prod")(unsorted_segment_prod)
unsorted_segment_max = _unsorted_segment(_UNSORTED_SEGMENT_MAX, """The maximum per segment id.

    Empty segments hold the dtype's lowest finite value.

    >>> tf.math.unsorted_segment_max(tf.constant([2, 3, 4]), tf.constant([1, 0, 1]), 2)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 4], dtype=int32)>
    """)
export("math.unsorted_segment_max")(unsorted_segment_max)
unsorted_segment_min = _unsorted_segment(_UNSORTED_SEGMENT_MIN, """The minimum per segment id.

    Empty segments hold the dtype's largest finite value.

    >>> tf.math.unsorted_segment_min(tf.constant([2, 3, 4]), tf.constant([1, 0, 1]), 2)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 2], dtype=int32)>
    """)
export("math.unsorted_segment_min")(unsorted_segment_min)


def trailing_ones(t, like, ids):
    """`t` with as many size-1 axes appended as `like` has more axes than `ids` (counted at
    run time when a rank is unknown when traced), to broadcast against `like`'s rows."""
    if like.shape.rank is not None and ids.shape.rank is not None:
        for _ in range(like.shape.rank - ids.shape.rank):
            t = array_ops.expand_dims(t, -1)
        return t
    extra = math_ops.subtract(array_ops.rank(like), array_ops.rank(ids))
    return array_ops.reshape(t, array_ops.concat(
        [array_ops.shape(t), array_ops.ones(array_ops.expand_dims(extra, 0), _d.int32)], 0))


def _segment_counts(data, segment_ids, num_segments):
    """Rows per segment, shaped to broadcast against the segment sums (at least 1)."""
    ids = as_tensor(segment_ids)
    ones = array_ops.ones_like(ids, dtype=data.dtype)
    counts = trailing_ones(unsorted_segment_sum(ones, ids, num_segments), data, ids)
    return math_ops.maximum(counts, as_tensor(np.ones((), data.dtype.as_numpy_dtype)))


@export("math.unsorted_segment_mean")
def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """The mean per segment id (0 for empty segments); integers give floats, as `truediv`.

    >>> tf.math.unsorted_segment_mean(tf.constant([1.0, 2.0, 4.0]), tf.constant([0, 0, 1]), 2)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 4. ], dtype=float32)>
    """
    data, segment_ids = as_tensor(data), as_tensor(segment_ids)  # (as TF: no list errors)
    total = unsorted_segment_sum(data, segment_ids, num_segments)
    return math_ops.truediv(total, _segment_counts(data, segment_ids, num_segments), name)


@export("math.unsorted_segment_sqrt_n")
def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """The sum per segment id divided by the square root of the segment's size.

    >>> tf.math.unsorted_segment_sqrt_n(tf.constant([3.0, 1.0]), tf.constant([0, 0]), 1)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.828427], dtype=float32)>
    """
    data, segment_ids = as_tensor(data), as_tensor(segment_ids)  # (as TF: no list errors)
    total = unsorted_segment_sum(data, segment_ids, num_segments)
    counts = _segment_counts(data, segment_ids, num_segments)
    return math_ops.truediv(total, math_ops.sqrt(counts), name)


# --- Cumsum, Cumprod, CumulativeLogsumexp ------------------------------------------------------

def _scan(accumulate, identity):
    """A scan along `axis` by ``accumulate(xp, x, axis)``; `exclusive` shifts in the
    identity, `reverse` runs from the end.
    """
    def kernel(xp, x, axis, exclusive, reverse):
        if np.ndim(axis):
            raise _invalid(f"ScanOp: axis must be a scalar, not {list(np.shape(axis))}")
        axis = int(axis)  # an attr, or a run-time input
        if not -x.ndim <= axis < x.ndim:
            raise _invalid(f"ScanOp: Expected scan axis in the range [{-x.ndim}, {x.ndim}), "
                           f"but got {axis}")
        if reverse:
            x = xp.flip(x, axis)
        out = accumulate(xp, x, axis)
        if exclusive and x.shape[axis]:
            out = xp.roll(out, 1, axis)
            first = [slice(None)] * x.ndim
            first[axis] = 0
            out[tuple(first)] = identity
        return xp.flip(out, axis) if reverse else out
    return kernel


# The ufuncs' own accumulate (not xp.cumsum's wrapper): an overflow's RuntimeWarning is then
# raised from this module, whose warnings are dropped as TF's kernels are silent.
_CUMSUM = register("Cumsum", _scan(lambda xp, x, axis: xp.add.accumulate(x, axis, x.dtype), 0),
                   same_shape, dtypes=NUMBER_TYPES)
_CUMPROD = register("Cumprod",
                    _scan(lambda xp, x, axis: xp.multiply.accumulate(x, axis, x.dtype), 1),
                    same_shape, dtypes=NUMBER_TYPES)
tf_nodes[_CUMSUM] = tf_nodes[_CUMPROD] = NodeForm(inputs=(0, AttrInput("axis", kind=int)),
                                                  outputs=("out",))
tf_defaults[_CUMPROD] = {"exclusive": False, "reverse": False}
tf_defaults[_CUMSUM] = {"exclusive": False, "reverse": False}


def _logsumexp_accumulate(xp, x, axis):
    """The running log-sum-exp along `axis`, with NaN and +inf treated as TF's kernel does.

    Each step takes the larger and the smaller of the running value and the next element by
    `<` (so a NaN element compares as equal to the running value: +log 2, or nothing while
    the running value is still -inf) and then gives ``larger + log1p(exp(smaller - larger))``
    (NaN for two +inf). Without NaN or +inf that is NumPy's `logaddexp`, except in float16
    and bfloat16, where TF rounds each step's result to the dtype.
    """
    half = x.dtype in _HALF
    if not (half or xp.isnan(x).any() or xp.isposinf(x).any()):
        return xp.logaddexp.accumulate(x, axis)
    x = xp.moveaxis(x, axis, 0)
    out = xp.empty_like(x)
    total = xp.full(x.shape[1:], -np.inf, x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        for i, t in enumerate(x):
            low, high = xp.where(t < total, t, total), xp.where(total < t, t, total)
            if half:  # each step in float32, rounded to the 16-bit dtype as TF's are
                f32, wide_high = xp.float32, high.astype(xp.float32)
                gap = (low.astype(f32) - wide_high).astype(x.dtype).astype(f32)
                gap = xp.exp(gap).astype(x.dtype).astype(f32)
                summed = (xp.log1p(gap).astype(x.dtype).astype(f32) + wide_high).astype(x.dtype)
            else:
                summed = xp.log1p(xp.exp(low - high)) + high
            total = xp.where(high == -np.inf, high, summed)
            out[i] = total
    return xp.moveaxis(out, 0, axis)


_CUMULATIVE_LOGSUMEXP = register(
    "CumulativeLogsumexp", _scan(_logsumexp_accumulate, -np.inf),
    same_shape, dtypes=(_d.bfloat16, _d.float16, _d.float32, _d.float64))
tf_nodes[_CUMULATIVE_LOGSUMEXP] = NodeForm(inputs=(0, AttrInput("axis", kind=int)),
                                           outputs=("out",))
tf_defaults[_CUMULATIVE_LOGSUMEXP] = {"exclusive": False, "reverse": False}


def _scanner(op, doc):
    def fn(x, axis=0, exclusive=False, reverse=False, name=None):
        attrs = {"exclusive": bool(exclusive), "reverse": bool(reverse)}
        dynamic = None if type(axis) is int else array_ops.run_time_tensor(axis)
        if dynamic is None and type(axis) is not int and np.ndim(axis):
            dynamic = as_tensor(axis)  # (the kernel refuses an axis of several values)
        if dynamic is not None:  # the axis becomes the op's input, as in TF
            check_attr_dtype(op.name, "Tidx", dynamic.dtype, _INDEX)
            try:
                return dispatch(op, (as_tensor(x), dynamic), attrs, name)
            except errors.OpError as e:
                raise errors.listed(e, x, axis) from None
        return dispatch(op, (as_tensor(x),), {"axis": _static_int(axis, "axis"), **attrs},
                        name)
    return _named(fn, op, doc)


cumsum = _scanner(_CUMSUM, """Computes the cumulative sum of `x` along `axis`.

    `exclusive` starts from 0 instead of the first element; `reverse` sums from the end.

    >>> tf.cumsum(tf.constant([1, 2, 3]), exclusive=True, reverse=True)
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([5, 3, 0], dtype=int32)>
    """)
export("math.cumsum", "cumsum")(cumsum)
cumprod = _scanner(_CUMPROD, """Computes the cumulative product of `x` along `axis`.

    >>> tf.math.cumprod(tf.constant([1, 2, 3]), exclusive=True)
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 1, 2], dtype=int32)>
    """)
export("math.cumprod")(cumprod)
cumulative_logsumexp = _scanner(_CUMULATIVE_LOGSUMEXP, """Computes log(cumsum(exp(x))) along
    `axis`, without overflow.

    >>> tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.6931472], dtype=float32)>
    """)
export("math.cumulative_logsumexp")(cumulative_logsumexp)


# --- AddN, accumulate_n ------------------------------------------------------------------------

def _add_n(xp, *arrays, out=None):
    """The sum, added in input order: into `out` when given, which may be a dead input's
    array (a graph's gradients meeting at a fork, `buffer_reuse`): in place, no fresh
    memory to fault in, where the order allows it (the first input, or either of two)."""
    first = arrays[0]
    for i, a in enumerate(arrays[1:], 1):
        if a.shape != first.shape:
            raise _invalid("Inputs to operation AddN of type AddN must have the same size and "
                           f"shape.  Input 0: {shape_text(first.shape)} != input {i}: "
                           f"{shape_text(a.shape)}")
    rest = list(arrays[1:])
    if out is not None and len(rest) == 1 and rest[0] is out:  # (two: addition commutes)
        total, rest = out, [first]
    elif out is None or any(a is out for a in rest):  # (adding it would read it overwritten)
        total = xp.array(first, copy=True)
    else:
        total = out
        if first is not out:
            xp.copyto(total, first)
    for a in rest:
        xp.add(total, a, out=total)
    if out is not None and total is not out:
        xp.copyto(out, total)
        total = out
    return total


def _add_n_rule(*inputs):
    shape = unknown_shape()
    for t in inputs:
        shape = shape.merge_with(t.shape)
    return shape, inputs[0].dtype


_ADD_N = register("AddN", _add_n, _add_n_rule, tied="all", dtypes=NUMBER,
                  input_names=("inputs",), fresh=True, takes_out=True)
tf_nodes[_ADD_N] = NodeForm(number="N", outputs=("sum",))
tf_args[_ADD_N] = ("*inputs",)
_ADD_N_ARGUMENT_ERROR = ("Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                         "the same dtype and shape.")


@export("math.add_n", "add_n")
def add_n(inputs, name=None):
    """Adds all input tensors element-wise (same shape and dtype, no broadcasting).

    >>> tf.add_n([tf.constant([1, 2]), tf.constant([3, 4]), tf.constant([5, 6])])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 9, 12], dtype=int32)>
    """
    if isinstance(inputs, Tensor):  # a tensor is a sequence of its rows
        return reduce_sum(inputs, 0, name=name)
    if not isinstance(inputs, abc.Iterable) or isinstance(inputs, (str, bytes)):
        raise ValueError(_ADD_N_ARGUMENT_ERROR)
    inputs = [as_tensor(t) for t in inputs]
    if not inputs:
        raise ValueError(_ADD_N_ARGUMENT_ERROR)
    return dispatch(_ADD_N, inputs, name=name)


@export("math.accumulate_n")
def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """Adds a list of tensors element-wise, as `add_n`, checking `shape` and `tensor_dtype`.

    >>> tf.math.accumulate_n([tf.constant([1, 2]), tf.constant([3, 4])])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 6], dtype=int32)>
    """
    error = ValueError("inputs must be a list of at least one Tensor with the same dtype and "
                       "shape")
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise error
    if any(isinstance(t, IndexedSlices) for t in inputs):  # unlike add_n, dense tensors only
        raise error
    inputs = [as_tensor(t) for t in inputs]
    if any(t.dtype != inputs[0].dtype for t in inputs):
        raise error
    if tensor_dtype is not None and _d.as_dtype(tensor_dtype) != inputs[0].dtype:
        raise TypeError(f"The `tensor_dtype` argument is {_d.as_dtype(tensor_dtype)}, but "
                        f"`input` is of type {inputs[0].dtype}. These must be equal. Try "
                        "casting the input to the desired type.")
    if shape is not None:
        merged = TensorShape(shape)
        for t in inputs:
            merged = merged.merge_with(t.shape)
    return add_n(inputs, name)


# --- clipping and norms --------------------------------------------------------------------------

def _like(value, t):
    """`value` as a tensor of `t`'s dtype unless it already is a tensor (TF's conversion)."""
    if (type(value) is float or type(value) is int) and type(t) is EagerTensor:
        return operand(value, t)  # the same conversion, its constants cached for loops
    return value if isinstance(value, Tensor) else as_tensor(value, t.dtype)


def _check_kept_shape(t, clipped):
    """The bounds must not broadcast `t` to another shape (TF's ValueError)."""
    if type(t) is not EagerTensor or type(clipped) is not EagerTensor or (
            t._data.shape != clipped._data.shape):
        t.shape.assert_is_compatible_with(clipped.shape)


@export("clip_by_value")
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clips `t` element-wise to [clip_value_min, clip_value_max].

    The bounds may broadcast to `t` but must not change its shape.

    >>> tf.clip_by_value(tf.constant([1, 5, 9]), 2, 6)
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([2, 5, 6], dtype=int32)>
    """
    # an IndexedSlices' values clip one by one (repeated rows apart), as TF's do
    slices, t = t, as_tensor(t.values if isinstance(t, IndexedSlices) else t)
    with context.op_scope(name or "clip_by_value") as scope:
        clipped = math_ops.minimum(t, _like(clip_value_max, t))
        _check_kept_shape(t, clipped)
        clipped = math_ops.maximum(clipped, _like(clip_value_min, t), name=scope or name)
    _check_kept_shape(t, clipped)
    return _like_slices(clipped, slices)


def _clip_by_value(xp, t, lo, hi):
    if lo.shape not in ((), t.shape) or hi.shape not in ((), t.shape):
        raise _invalid("clip_value_min and clip_value_max must be either of the same shape as "
                       f"input, or a scalar. input shape: {shape_text(t.shape)}clip_value_min "
                       f"shape: {shape_text(lo.shape)}clip_value_max shape: "
                       f"{shape_text(hi.shape)}")
    # (the upper bound first, as TF's kernel: a lower bound above it wins)
    return xp.maximum(xp.minimum(t, hi), lo).astype(t.dtype, copy=False)


def _clip_by_value_rule(t, lo, hi):
    for bound in (lo, hi):
        if bound.shape.rank not in (None, 0) and not bound.shape.is_compatible_with(t.shape):
            raise rules.shape_error("ClipByValue", f"Shapes {t.shape} and {bound.shape} are "
                                    "not compatible", [t.shape, lo.shape, hi.shape])
    return t.shape, t.dtype


# TF's op of the bounds as one kernel, which tf.clip_by_value does not use (it takes
# minimum and maximum, whose bounds broadcast): graphs and raw op calls hold it
_CLIP_BY_VALUE = register("ClipByValue", _clip_by_value, _clip_by_value_rule, tied=(0, 1, 2),
                          dtypes=REAL_NUMBER_TYPES)
tf_args[_CLIP_BY_VALUE] = ("t", "clip_value_min", "clip_value_max")
batching_rules[_CLIP_BY_VALUE] = PER_ELEMENT  # (a bound is a scalar or shaped like t)


@register_gradient("ClipByValue")
def _clip_by_value_grad(op, dy):
    # the gradient goes to the bound t passes (backprop sums a scalar bound's share)
    t, lo, hi = op.inputs
    below, above = math_ops.less(t, lo), math_ops.greater(t, hi)
    zeros = array_ops.zeros_like(dy)
    return (array_ops.where(math_ops.logical_or(below, above), zeros, dy),
            array_ops.where(below, dy, zeros), array_ops.where(above, dy, zeros))


def _slices_values(t):
    """The values of an `IndexedSlices` (norms take them as they are, repeated rows and
    all, as TF does), else `t` as a tensor; None stays None."""
    if t is None:
        return None
    return as_tensor(t.values if isinstance(t, IndexedSlices) else t)


def _like_slices(values, t):
    """`values` in the form of `t`: an `IndexedSlices` with `t`'s indices, or a tensor."""
    if isinstance(t, IndexedSlices):
        return IndexedSlices(values, t.indices, t.dense_shape)
    return values


@export("clip_by_norm")
def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescales `t` so that its L2 norm over `axes` (None: all) is at most `clip_norm`.

    A negative `clip_norm` counts as 0. An `IndexedSlices` gives one, its values
    clipped by their own norm.

    >>> tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>
    """
    values = _slices_values(t)
    if isinstance(clip_norm, Tensor):
        clip_norm = cast(math_ops.maximum(clip_norm, array_ops.zeros_like(clip_norm)),
                         values.dtype)
    elif np.ndim(clip_norm) == 0 and clip_norm < 0:
        clip_norm = 0
    l2sum = reduce_sum(math_ops.multiply(values, values), axes, keepdims=True)
    # sqrt(l2sum + 1) * 0 where the sum is 0: a zero norm with a finite gradient.
    nonzero = cast(math_ops.greater(l2sum, 0), values.dtype)
    l2norm = math_ops.multiply(
        math_ops.sqrt(math_ops.add(l2sum, math_ops.subtract(_like(1, values), nonzero))),
        nonzero)
    clip_norm = _like(clip_norm, values)
    scaled = math_ops.multiply(values, clip_norm)
    clipped = math_ops.truediv(scaled, math_ops.maximum(l2norm, clip_norm), name=name)
    return _like_slices(clipped, t)


def _tensor_list(t_list):
    if not isinstance(t_list, abc.Sequence) or isinstance(t_list, (str, bytes)):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    return [_slices_values(t) for t in t_list]


@export("linalg.global_norm")
def global_norm(t_list, name=None):
    """Returns sqrt(sum of the squared L2 norms of the tensors of `t_list`); Nones are skipped.

    `IndexedSlices` count by their values (a repeated row counts each time).

    >>> tf.linalg.global_norm([tf.constant([3.0]), tf.constant([4.0])])
    <tf.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    # as TF: half the squares of each (L2Loss) stacked, summed and doubled (one dtype)
    halves = [late.nn_ops.l2_loss(t) for t in _tensor_list(t_list) if t is not None]
    if not halves:
        return as_tensor(np.float32(0))
    half = reduce_sum(array_ops.stack(halves))
    return math_ops.sqrt(math_ops.multiply(half, as_tensor(
        np.asarray(2, half.dtype.as_numpy_dtype))), name=name)


@export("clip_by_global_norm")
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales the tensors of `t_list` by clip_norm / max(global_norm, clip_norm).

    Returns ``(list_clipped, global_norm)``; an infinite or NaN norm makes every
    entry NaN. Nones stay None, `IndexedSlices` stay `IndexedSlices`.

    >>> clipped, norm = tf.clip_by_global_norm([tf.constant([3.0, 4.0])], 1.0)
    >>> clipped[0]
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>
    """
    tensors = _tensor_list(t_list)
    use_norm = global_norm(tensors) if use_norm is None else as_tensor(use_norm)
    clip_norm = _like(clip_norm, use_norm)
    one = as_tensor(np.ones((), use_norm.dtype.as_numpy_dtype))
    scale = math_ops.multiply(clip_norm, math_ops.minimum(math_ops.truediv(one, use_norm),
                                                          math_ops.truediv(one, clip_norm)))
    # use_norm - use_norm is NaN exactly when the norm is infinite or NaN.
    scale = math_ops.add(scale, math_ops.subtract(use_norm, use_norm))
    clipped = [None if v is None else
               _like_slices(math_ops.multiply(v, cast(scale, v.dtype)), t)
               for v, t in zip(tensors, t_list)]
    return clipped, use_norm


@export("math.l2_normalize", "nn.l2_normalize", "linalg.l2_normalize")
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """Divides `x` by its L2 norm along `axis` (None: all), at least sqrt(epsilon).

    >>> tf.linalg.l2_normalize(tf.constant([3.0, 4.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>
    """
    with context.op_scope(name or "l2_normalize") as scope:
        if axis is not None and dim is not None:  # (TF's deprecated-argument lookup)
            raise ValueError("Cannot specify both 'dim' and 'axis'.")
        x = as_tensor(x)
        axis = dim if axis is None else axis
        squares = math_ops.square(math_ops.abs(x) if x.dtype.is_complex else x)
        total = reduce_sum(squares, axis, keepdims=True)
        inverse_norm = math_ops.rsqrt(math_ops.maximum(total, _like(epsilon, total)))
        return math_ops.multiply(x, cast(inverse_norm, x.dtype), name=scope or name)


# -- gradients ---------------------------------------------------------------------------
def _dims(t):
    """The concrete shape tuple of an eager tensor or variable, else None (symbolic)."""
    if type(t) is EagerTensor:
        return t._data.shape
    data = getattr(t, "_data", None)
    try:
        data = getattr(data, "value", data)  # a variable's handle holds its array
    except errors.FailedPreconditionError:
        return None  # a TF 1 graph variable, whose value only a session run has
    return getattr(data, "shape", None)


def unbroadcast(grad, like, inputs=()):
    """`grad` summed over the dimensions along which `like` was broadcast to grad's shape;
    `inputs`, when given, are all the inputs broadcast together (`like` among them).

    >>> unbroadcast(tf.ones([2, 3]), tf.constant([1.0, 2.0, 3.0])).numpy()
    array([2., 2., 2.], dtype=float32)
    """
    concrete, target = _dims(grad), _dims(like)
    if concrete is not None and concrete == target:
        return grad  # the common case, decided without building shapes
    if target == ():
        return reduce_sum(grad)  # a scalar (a bias, a scale) took it all
    graph = concrete is None and context.get().graph is not None
    gshape, shape = grad.shape, like.shape
    if shape.rank is None or gshape.rank is None:
        return _unbroadcast_at_run_time(grad, like)
    if None in shape.as_list():  # a dim of `like` that may be 1 (broadcast) at run time,
        if _decides_its_dims(like, grad, inputs):
            return grad
        return _unbroadcast_at_run_time(grad, like)  # even where grad's is unknown as well
    if gshape == shape:
        return grad
    if gshape.rank < shape.rank or any(g == 1 and d != 1 for g, d in zip(
            reversed(gshape.as_list()), reversed(shape.as_list()))):
        return grad  # smaller than `like` (a scalar `output_gradients`): TF keeps it so
    lead = gshape.rank - shape.rank
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape)
                                if d == 1 and gshape[lead + i] != 1]
    if axes:
        grad = reduce_sum(grad, axes, keepdims=False)
        if graph:  # a graph's sum is reshaped to the input's shape, as in TF's (``Reshape``)
            return array_ops.reshape(grad, array_ops.known_shape(like))
    return array_ops.reshape(grad, array_ops.known_shape(like)) if grad.shape != shape else grad


def _decides_its_dims(like, grad, inputs):
    """Whether `like`'s dims are those of `grad` (the inputs' broadcast shape) whatever its
    unknown ones turn out to be: of grad's rank, and where a dim is unknown, every other
    input lacks that axis or has 1 there (``matmul(x, w) + b``, x of unknown batch size)."""
    shape, gshape = like.shape.as_list(), grad.shape.as_list()
    if not inputs or len(gshape) != len(shape):
        return False
    others = [t.shape for t in inputs if t is not like]
    if any(o.rank is None for o in others):
        return False
    others = [o.as_list() for o in others]
    for i, (d, g) in enumerate(zip(shape, gshape)):
        if d is not None:
            if d != g:
                return False
            continue
        axis = i - len(shape)
        if any(len(o) >= -axis and o[axis] != 1 for o in others):
            return False
    return True


def _unbroadcast_at_run_time(grad, like):
    """`unbroadcast` for shapes known only at run time: the axes to sum are computed then,
    by TF's own op for it (``BroadcastGradientArgs``, as TF's gradient graphs have it)."""
    shape = array_ops.shape(like)
    axes, _ = array_ops.broadcast_gradient_args(shape, array_ops.shape(grad))
    return array_ops.reshape(reduce_sum(grad, axes, keepdims=True), shape)


def _kept(dy, x, axis, keepdims):
    """`dy` of a reduction reshaped so that it broadcasts against the input `x`; `axis` is
    None (all), a tuple of ints or a tensor of axes known only at run time."""
    if keepdims or axis is None or dy.shape.rank == 0:  # a scalar broadcasts as it is
        return dy
    if x.shape.rank is None and not isinstance(axis, Tensor):
        axis = as_tensor(np.asarray(axis, np.int32))  # the rank too is known at run time
    if isinstance(axis, Tensor):  # 1 at the reduced axes, else the input's dims
        shape = array_ops.shape(x)
        rank = array_ops.size(shape)
        axes = math_ops.floormod(array_ops.reshape(cast(axis, _d.int32), [-1]), rank)
        reduced = reduce_any(math_ops.equal(array_ops.expand_dims(array_ops.range(rank), 1),
                                            array_ops.expand_dims(axes, 0)), 1)
        return array_ops.reshape(dy, array_ops.where(reduced, array_ops.ones_like(shape),
                                                     shape))
    rank = x.shape.rank
    axes = sorted({a % rank for a in axis})
    kept = [1 if i in axes else d for i, d in enumerate(x.shape)]
    if None not in kept:
        return array_ops.reshape(dy, kept)
    for a in axes:  # other dims known only at run time: insert the reduced ones instead
        dy = array_ops.expand_dims(dy, a)
    return dy


def _shape_of(t):
    """The shape of `t`: a tuple when known now (its concrete one when eager), else the
    tensor ``shape(t)``."""
    dims = _dims(t)
    if dims is not None:
        return dims
    static = t.shape
    return tuple(static.as_list()) if static.is_fully_defined() else array_ops.shape(t)


def _op_axis(op):
    """A reduction's axes: its `axis` attr, or its second input when only run time knows
    them."""
    return op.inputs[1] if len(op.inputs) > 1 else op.attrs["axis"]


def _reduction_grad(grad):
    """A reduction's gradient `grad(op, dy)` for its input; run-time axes have none."""
    def fn(op, dy):
        return (grad(op, dy), *[None] * (len(op.inputs) - 1))
    return fn


def _broadcast_back(op, dy):
    x = op.inputs[0]
    axis, rank = _op_axis(op), x.shape.rank
    if (context.get().graph is not None and rank and not isinstance(axis, Tensor)
            and (axis is None or sorted({a % rank for a in axis}) == list(range(rank)))):
        # a graph's gradient of a full reduction tiles it, as TF's (``Sum_grad/Tile``)
        return array_ops.tile(array_ops.reshape(dy, [1] * rank), _shape_of(x))
    return array_ops.broadcast_to(_kept(dy, x, axis, op.attrs["keepdims"]), _shape_of(x))


@register_gradient("Sum")
@_reduction_grad
def _sum_grad(op, dy):
    return _broadcast_back(op, dy)


@register_gradient("Mean")
@_reduction_grad
def _mean_grad(op, dy):
    dtype = dy.dtype
    if not (dtype.is_floating or dtype.is_complex):
        return None  # integer means have no gradient
    shape_in, shape_out = _shape_of(op.inputs[0]), _shape_of(op.outputs)
    if type(shape_in) is tuple and type(shape_out) is tuple:
        count = array_ops.constant(
            max(math.prod(shape_in) // max(math.prod(shape_out), 1), 1), dtype)
    else:  # sizes known at run time
        one = array_ops.ones([], _d.int32)
        count = math_ops.floordiv(array_ops.size(op.inputs[0]),
                                  math_ops.maximum(array_ops.size(op.outputs), one))
        count = cast(math_ops.maximum(count, one), dtype)
    # divide the (small) incoming gradient before broadcasting it to the input's size: the
    # values TF's division of the broadcast gradient gives (a product by 1 / count may be an
    # ulp off)
    return _broadcast_back(op, math_ops.truediv(dy, count))


def _extreme_grad(op, dy):
    """The gradient goes to the elements equal to the extreme, shared among ties."""
    x = op.inputs[0]
    axis, keepdims = _op_axis(op), op.attrs["keepdims"]
    hits = cast(math_ops.equal(_kept(op.outputs, x, axis, keepdims), x), dy.dtype)
    count = reduce_sum(hits, None if axis is None else
                       axis if isinstance(axis, Tensor) else list(axis), keepdims=True)
    return math_ops.multiply(math_ops.truediv(hits, count), _kept(dy, x, axis, keepdims))


register_gradient("Max")(_reduction_grad(_extreme_grad))
register_gradient("Min")(_reduction_grad(_extreme_grad))
register_gradient("AddN")(lambda op, dy: [dy] * len(op.inputs))


@register_gradient("Cumsum")
def _cumsum_grad(op, dy):
    a = op.attrs
    grad = cumsum(dy, _op_axis(op), exclusive=a["exclusive"], reverse=not a["reverse"])
    return (grad, *[None] * (len(op.inputs) - 1))  # none for a run-time axis


def _array_ops():
    return array_ops


def _reduced_axes(x, axis):
    rank = x.shape.rank
    return list(range(rank)) if axis is None else sorted({a % rank for a in axis})


@register_gradient("Prod")
@_reduction_grad
def _prod_grad(op, dy):
    """The product of all other elements: exclusive products from both ends, so zeros work."""
    a = _array_ops()
    x = op.inputs[0]
    if x.shape.rank is None or len(op.inputs) > 1:
        # no transposes without a rank or the axes: the zeros are counted instead
        axis = _op_axis(op)
        zero = math_ops.equal(x, a.zeros_like(x))
        zeros = reduce_sum(cast(zero, _d.int32), axis, keepdims=True)
        product = reduce_prod(a.where(zero, a.ones_like(x), x), axis, keepdims=True)
        product = a.broadcast_to(product, a.shape(x))
        others = a.where(math_ops.equal(zeros, 0), math_ops.divide_no_nan(product, x),
                         a.where(math_ops.logical_and(zero, math_ops.equal(zeros, 1)),
                                 product, math_ops.multiply(product, 0.0)))  # (signed zeros)
        return math_ops.multiply(_broadcast_back(op, dy), math_ops.conj(others))
    reduced = _reduced_axes(x, op.attrs["axis"])
    perm = reduced + [i for i in range(x.shape.rank) if i not in reduced]
    moved = a.transpose(x, perm)
    shape = _shape_of(moved)
    if type(shape) is tuple:
        count = math.prod(shape[:len(reduced)])
    else:  # sizes known at run time
        count = reduce_prod(shape[:len(reduced)])
    flat = a.reshape(moved, [count, -1])
    others = math_ops.multiply(cumprod(flat, 0, exclusive=True),
                               cumprod(flat, 0, exclusive=True, reverse=True))
    others = a.transpose(a.reshape(others, shape), [int(i) for i in np.argsort(perm)])
    return math_ops.multiply(_broadcast_back(op, dy), math_ops.conj(others))


@register_gradient("EuclideanNorm")
@_reduction_grad
def _euclidean_norm_grad(op, dy):
    x = op.inputs[0]
    axis, keepdims = _op_axis(op), op.attrs["keepdims"]
    # x / (norm / dy), as TF: NaN where the norm is 0 (like sqrt's), 0 where dy is
    ratio = math_ops.divide(_kept(op.outputs, x, axis, keepdims), _kept(dy, x, axis, keepdims))
    return math_ops.divide(x, ratio)


@register_gradient("Cumprod")
def _cumprod_grad(op, dy):
    # d/dx_i of sum_j dy_j y_j is sum_j dy_j y_j / x_i over the outputs j that include x_i
    # (x nonzero), a cumulative sum in the other direction. As TF does, the division is
    # divide_no_nan: 0 where x is 0 (not the true derivative there, but finite). Complex
    # inputs are not conjugated, as in TF.
    x, a = op.inputs[0], op.attrs
    y = cumprod(x, _op_axis(op), exclusive=a["exclusive"], reverse=a["reverse"])
    total = cumsum(math_ops.multiply(y, dy), _op_axis(op), exclusive=a["exclusive"],
                   reverse=not a["reverse"])
    return (math_ops.divide_no_nan(total, x), *[None] * (len(op.inputs) - 1))


@register_gradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, dy):
    # dy_j exp(x_i - y_j) summed over the outputs j that include x_i, split by the sign of
    # dy so every term stays in log space
    x, y, attrs, a = op.inputs[0], op.outputs, op.attrs, _array_ops()
    lowest = as_tensor(np.asarray(x.dtype.min, x.dtype.as_numpy_dtype))

    def part(mask, magnitude):
        log_dy = a.where(mask, math_ops.log(a.where(mask, magnitude, a.ones_like(magnitude))),
                         lowest)
        acc = cumulative_logsumexp(math_ops.subtract(log_dy, y), _op_axis(op),
                                   exclusive=attrs["exclusive"], reverse=not attrs["reverse"])
        return math_ops.exp(math_ops.add(acc, x))

    zero = a.zeros_like(dy)
    grad = math_ops.subtract(part(math_ops.greater(dy, zero), dy),
                             part(math_ops.less(dy, zero), math_ops.negative(dy)))
    return (grad, *[None] * (len(op.inputs) - 1))


@register_gradient("TopKV2")
def _top_k_grad(op, dvalues, dindices):
    """The values' gradient goes back to the positions they were taken from."""
    return (_scatter_top_k(op.inputs[0], op.outputs[1], dvalues),
            *[None] * (len(op.inputs) - 1))


@register_gradient("ApproxTopK")
def _approx_top_k_grad(op, dvalues, dindices):
    """TopKV2's, along the op's reduction dimension."""
    x, indices = op.inputs[0], op.outputs[1]
    rank, axis = x.shape.rank, op.get_attr("reduction_dimension")
    if axis in (-1, None if rank is None else rank - 1):
        return (_scatter_top_k(x, indices, dvalues),)
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    t = array_ops.transpose
    return (t(_scatter_top_k(t(x, perm), t(indices, perm), t(dvalues, perm)), perm),)


def _scatter_top_k(x, indices, dvalues):
    """`dvalues` put back, along the last dimension, where `indices` took them from `x`."""
    a = _array_ops()
    shape, k = _shape_of(x), _shape_of(indices)
    if type(shape) is tuple and type(k) is tuple:
        rows, n, k = math.prod(shape[:-1]), shape[-1], k[-1]
    else:  # sizes known at run time
        shape = a.shape(x, out_type=_d.int64)
        rows, n = reduce_prod(shape[:-1]), shape[-1]
        k = a.shape(indices, out_type=_d.int64)[-1]
    # the position of each value in the flattened input: its index plus its row's offset
    offsets = math_ops.multiply(a.range(rows, dtype=_d.int64), n)
    flat = math_ops.add(a.reshape(cast(indices, _d.int64), [rows, k]),
                        a.reshape(offsets, [rows, 1]))
    scattered = unsorted_segment_sum(a.reshape(dvalues, [-1]), a.reshape(flat, [-1]),
                                     math_ops.multiply(rows, n) if type(n) is not int
                                     else rows * n)
    return a.reshape(scattered, shape)


# Segment gradients: sorted ops are unsorted ops whose segment count is the output's length.

def _segment_gather(values, ids):
    """``values[ids]`` row-wise, zero where an id is negative (a dropped row)."""
    a = _array_ops()
    zero = as_tensor(np.zeros((), ids.dtype.as_numpy_dtype))
    gathered = a.gather(values, math_ops.maximum(ids, zero))
    keep = trailing_ones(math_ops.greater_equal(ids, zero), gathered, ids)
    return a.where(keep, gathered, a.zeros_like(gathered))


def _num_segments(op):
    """The segment count of a segment op: an int when known before run time, else a tensor."""
    rows = op.outputs.shape[0]
    return rows if rows is not None else _array_ops().shape(op.outputs)[0]


def _segment_grad(grad):
    """A segment op's gradient: `grad(op, dy)` for the data; ids and a run-time segment
    count (integers) have none."""
    def fn(op, dy):
        return (grad(op, dy), *[None] * (len(op.inputs) - 1))
    return fn


def _segment_sum_grad(op, dy):
    return _segment_gather(dy, op.inputs[1])


def _segment_mean_grad(op, dy):
    data, ids = op.inputs[:2]
    counts = _segment_counts(data, ids, _num_segments(op))
    return _segment_gather(math_ops.truediv(dy, counts), ids)


def _segment_extreme_grad(op, dy):
    """Shared among the elements equal to their segment's extreme."""
    a = _array_ops()
    data, ids = op.inputs[:2]
    hits = math_ops.equal(data, _segment_gather(op.outputs, ids))
    count = unsorted_segment_sum(cast(hits, dy.dtype), ids, _num_segments(op))
    share = _segment_gather(math_ops.divide_no_nan(dy, count), ids)
    return a.where(hits, share, a.zeros_like(share))


def _segment_prod_grad(op, dy):
    """The product of the other elements of the segment, computed without dividing by zero."""
    a = _array_ops()
    data, ids = op.inputs[:2]
    n = _num_segments(op)
    zero = a.zeros_like(data)
    is_zero = math_ops.equal(data, zero)
    zeros = unsorted_segment_sum(cast(is_zero, _d.int32), ids, n)
    nonzero = a.where(is_zero, a.ones_like(data), data)
    nonzero_prod = _segment_gather(unsorted_segment_prod(nonzero, ids, n), ids)
    # a segment with two zeros has zero gradient everywhere; with one, only at the zero
    others = a.where(is_zero, nonzero_prod,
                     math_ops.truediv(_segment_gather(op.outputs, ids), nonzero))
    alone = math_ops.less_equal(_segment_gather(zeros, ids), 1)
    grad = math_ops.multiply(_segment_gather(dy, ids), math_ops.conj(others))
    return a.where(alone, grad, a.zeros_like(grad))


for _kind, _grad in (("Sum", _segment_sum_grad), ("Mean", _segment_mean_grad),
                     ("Max", _segment_extreme_grad), ("Min", _segment_extreme_grad),
                     ("Prod", _segment_prod_grad)):
    register_gradient("Segment" + _kind)(_segment_grad(_grad))
    if _kind != "Mean":
        register_gradient("UnsortedSegment" + _kind)(_segment_grad(_grad))


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _ADD_N, _ARG_MAX, _ARG_MIN, _DENSE_BINCOUNT, _SEGMENT_MAX,
                      _SEGMENT_MEAN, _SEGMENT_MIN, _SEGMENT_PROD, _SEGMENT_SUM, _TOP_K, _UNIQUE,
                      _UNIQUE_WITH_COUNTS, _UNSORTED_SEGMENT_PROD, _UNSORTED_SEGMENT_SUM,
                      _UNSORTED_SEGMENT_MAX, _UNSORTED_SEGMENT_MIN, _UNIQUE_V2, _APPROX_TOP_K,
                      _UNIQUE_WITH_COUNTS_V2)
