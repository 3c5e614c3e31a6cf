"""Array ops: shapes, joining and splitting, creation, padding, gathering and scattering.

Each op is registered once with TensorFlow's op name; parameters that are not
tensor data (shapes, axes, paddings, permutations) are static attrs, so
public functions turn eager tensors given for them into Python ints. In a
graph, a shape known only at run time (``tf.shape(x)`` of an ``x`` with a
None dimension) is given to Reshape, BroadcastTo, Fill and Tile as an input
instead, as TensorFlow's ops take it: ``Reshape(tensor, shape)``.

>>> tf.reshape(tf.range(6), [2, -1])
<tf.Tensor: shape=(2, 3), dtype=int32, numpy=
array([[0, 1, 2],
       [3, 4, 5]], dtype=int32)>
"""
import builtins
import math
import operator
import re

import numpy as np

from eagerflow._src.backend import onednn_eltwise
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.arrays import quiet
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.convert import (
    check_narrow_conversion, constant, convert_input, convert_to_tensor, from_array,
    get_static_value, is_tensor_like, operand, to_array)
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import (
    ANY, COMPLEX, FLOAT, NUMBER, NUMBER_BOOL, REAL, attr_dtype_error, fixed_input_error,
    kernel_type_name, register, register_gradient, same_shape, takes_narrow)
from eagerflow._src.core.registry import (
    PER_ELEMENT, aligned, batching_rules, no_gradient_entry, static_value_rules)
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import Dimension, TensorShape, unknown_shape
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import cast_ops, late, math_ops, shape_rules
from eagerflow._src.ops.indexed_slices import IndexedSlices
from eagerflow._src.ops.slicing import strided_slice  # noqa: F401 (re-exported)
from eagerflow._src.ops.wrappers import as_tensor

_InvalidArgument = errors.InvalidArgumentError
_INDEX_TYPES = (_d.int32, _d.int64)


# -- helpers -----------------------------------------------------------------------------------

def _bad(message):
    """An InvalidArgumentError raised inside a kernel (dispatch adds the op's name)."""
    return _InvalidArgument(None, None, message)


def _op_error(op_name, message):
    return errors.op_error(_InvalidArgument, op_name, message)


def _static(value):
    """`value` (Python data, NumPy array, eager tensor, variable, TensorShape) as a NumPy array."""
    if isinstance(value, TensorShape) and value.is_fully_defined():  # (else TF's error)
        value = value.as_list()
    if is_tensor_like(value):
        return _known(as_tensor(value))
    if isinstance(value, (list, tuple)):
        value = [v.value if isinstance(v, Dimension) else _known(v) if isinstance(v, Tensor)
                 else v for v in value]
    return to_array(value)


def _known(tensor):
    """The value of a tensor argument that must be static (a shape, axes, paddings)."""
    value = get_static_value(tensor)
    if value is None:
        raise NotImplementedError(
            f"{tensor!r} is computed while the graph runs, but this argument must be known "
            f"when the function is traced. Use a Python value or a static shape "
            f"(x.shape) instead.")
    return value


def run_time_tensor(value):
    """`value` as a tensor when only run time knows it, else None.

    That is a symbolic tensor without a static value, or a list holding one
    (packed into one tensor, as TensorFlow converts ``[tf.shape(x)[0], -1]``).
    """
    if type(value) is list or type(value) is tuple:
        if any(run_time_tensor(v) is not None for v in value):
            return stack([v.value if isinstance(v, Dimension) else v for v in value])
        return None
    if type(value) is EagerTensor or not is_tensor_like(value):
        return None
    tensor = as_tensor(value)
    return tensor if get_static_value(tensor) is None else None


def _ints_or_tensor(value, op_name, attr):
    """A 1-D integer parameter (a shape, multiples) as a tuple of Python ints, or as an
    int32/int64 tensor when only run time knows it."""
    fast = _python_ints(value)
    if fast is not None:
        return fast[1]
    tensor = run_time_tensor(value)
    if tensor is None:
        return _ints(value, op_name, attr)
    check_index_dtype(op_name, attr, tensor)
    if tensor.shape.rank not in (None, 1):
        raise _op_error(op_name, f"{attr} must be a vector, got shape {tensor.shape}")
    return tensor


def _partial_shape_input(value, arg):
    """TF's error for an op's input `arg` given a TensorShape not fully known (said of the
    input while a graph is built)."""
    if isinstance(value, TensorShape) and not value.is_fully_defined():
        error = f"Cannot convert a partially known TensorShape {value} to a Tensor."
        raise ValueError(error if context.executing_eagerly() else
                         f"Tried to convert '{arg}' to a tensor and failed. Error: {error}")


def _dispatch_shaped(op, tensor, value, attr, type_attr, name):
    """Runs `op` on `tensor` with its 1-D integer parameter `value` (a shape, multiples):
    as attr `attr` when known before run time, else as the op's last input."""
    _partial_shape_input(value, attr)
    given = value
    value = _ints_or_tensor(value, op.name, type_attr)
    try:
        if type(value) is tuple:
            return dispatch(op, (as_tensor(tensor),), {attr: value}, name)
        return dispatch(op, (as_tensor(tensor), value), name=name)
    except errors.OpError as e:
        raise errors.listed(e, tensor, given) from None


def known_shape(tensor):
    """The shape of `tensor` as a list of ints when known before run time, else as the
    tensor ``shape(tensor)``: what gradients reshape and broadcast back to.

    >>> known_shape(tf.zeros([2, 3]))
    [2, 3]
    """
    dims = tensor.shape
    return dims.as_list() if dims.is_fully_defined() else shape(tensor)


def _param_tensor(value, dtype=_d.int32):
    """A 1-D integer parameter (a tuple of ints, or already a tensor) as a tensor."""
    if isinstance(value, Tensor):
        return value
    return from_array(np.asarray(value, dtype.as_numpy_dtype).reshape(-1))


def _python_ints(value):
    """(shape, flat ints) of an int or a (2-level) list/tuple of Python ints, else None.

    The common static parameters take this path, without a trip through NumPy.
    """
    kind = type(value)
    if kind is int:
        return (), (value,)
    if kind is not list and kind is not tuple:
        return None
    if all(type(v) is int for v in value):
        return (len(value),), tuple(value)
    rows = [v for v in value if type(v) in (list, tuple) and all(type(w) is int for w in v)]
    if value and len(rows) == len(value) and len({len(r) for r in rows}) == 1:
        return (len(rows), len(rows[0])), tuple(w for r in rows for w in r)
    return None


# Index attrs whose TF op defaults them to int32: TF converts a NumPy value of another dtype
# (floats, bools) to it, as NumPy casts (``tf.zeros(np.array([2.]))``); the others refuse it.
_INT32_DEFAULT_ATTRS = frozenset((
    "index_type", "Tshape", "Tmultiples", "Tpaddings", "Tperm", "Tdim", "Tidx", "squeeze_dims",
    "split_dim"))


def _int_array(value, op_name, attr="Tidx"):
    """(shape, flat tuple of Python ints) of a static integer parameter."""
    fast = _python_ints(value)
    if fast is not None:
        return fast
    arr = _static(value)
    if arr.size and arr.dtype.kind in "fb" and attr in _INT32_DEFAULT_ATTRS and isinstance(
            value, (np.ndarray, np.generic)):
        arr = arr.astype(np.int32)  # a NumPy value takes the attr's default by NumPy's cast
    if arr.size and arr.dtype.kind not in "iu":  # (a TypeError while a graph is built)
        raise attr_dtype_error(op_name, attr, _d.from_numpy(arr.dtype), _INDEX_TYPES)
    return arr.shape, tuple(arr.reshape(-1).astype(np.int64).tolist())


def _ints(value, op_name, attr="Tidx"):
    """Static integer parameter(s) as a tuple of Python ints (flattened)."""
    return _int_array(value, op_name, attr)[1]


def _int(value, op_name="", attr="Tidx"):
    """A static scalar integer parameter (an axis, a count) as a Python int."""
    if type(value) is int:
        return value
    if isinstance(value, (int, np.integer, Dimension)) and not isinstance(value, bool):
        return operator.index(value)
    values = _ints(value, op_name, attr)
    if len(values) != 1:
        raise _op_error(op_name, f"'{attr}' must be a scalar, got {len(values)} values")
    return values[0]


def _rank_mismatch(op_name, rank, wanted, shapes):
    """TF's graph-time error for an input of known `rank` that must be `wanted`."""
    if rank is not None and rank != wanted:
        raise shape_rules.shape_error(op_name, f"Shape must be rank {wanted} but is rank {rank}",
                                      shapes)


def _axis_beyond(op_name, axis, rank, shapes, computed):
    """TF's graph-time error for an `axis` past a known `rank` (its "at least rank" form)."""
    if rank is not None and not -rank <= axis < rank:
        raise shape_rules.shape_error(
            op_name, f"Shape must be at least rank {axis + 1 if axis >= 0 else -axis} but is "
                     f"rank {rank}", shapes, computed=computed)


def _axis_in(axis, rank):
    """`axis` made non-negative for `rank` dims (left alone when the rank is unknown)."""
    return axis + rank if axis < 0 and rank is not None else axis


def _matching(values):
    """Tensors for `values` sharing one dtype, as TF converts the inputs of one type attr.

    The dtype is that of the first tensor, else that of the first converted
    value; tensors of another dtype are left for the op to report.
    """
    values = [as_tensor(v) if is_tensor_like(v) else v for v in values]
    like = next((v for v in values if isinstance(v, Tensor)), None)
    out = []
    for v in values:
        if not isinstance(v, Tensor):
            v = _convert_like(v, like)
            if like is None:
                like = v
        out.append(v)
    return out


def _convert_like(value, like):
    """`value` converted to the dtype of tensor `like` (if any), TypeError when it cannot be."""
    if like is None:
        return convert_to_tensor(value)
    if type(value) in (int, float):
        t = operand(value, like)  # cached for common scalars
        if t.dtype == like.dtype:
            return t
    return convert_to_tensor(value, like.dtype)


def check_index_dtype(op_name, attr, tensor, allowed=(_d.int32, _d.int64)):
    """InvalidArgumentError, as TF's type check, when `tensor` is not of an allowed dtype."""
    if tensor.dtype not in allowed:
        raise attr_dtype_error(op_name, attr, tensor.dtype, allowed)


def _unknown_rank(*inputs):
    return any(t.shape.rank is None for t in inputs)


# -- reshaping and reordering ----------------------------------------------------------------

def _resolve_shape(in_shape, size, shape):
    """The concrete shape `shape` (one dim may be -1) gives `size` values, or TF's error."""
    unknown = [i for i, d in enumerate(shape) if d == -1]
    for i, d in enumerate(shape):
        if d < -1:
            raise _bad(f"Size {i} must be non-negative, not {d}")
    if len(unknown) > 1:
        raise _bad(f"Only one input size may be -1, not both {unknown[0]} and {unknown[1]}")
    known = math.prod(d for d in shape if d != -1)
    if not unknown:
        if known != size:
            raise _bad(f"Input to reshape is a tensor with {size} values, but the requested "
                       f"shape has {known}")
        return tuple(shape)
    if known == 0:
        if size != 0:
            raise _bad(f"Input to reshape is a tensor with {size} values, but the requested "
                       f"shape has 0")
        # Zero values fit any size: -1 keeps the non-zero input dims' product, as TF does.
        missing = math.prod(d for d in in_shape if d) // math.prod(d for d in shape if d > 0)
    elif size % known:
        raise _bad(f"Input to reshape is a tensor with {size} values, but the requested shape "
                   f"requires a multiple of {known}")
    else:
        missing = size // known
    return tuple(missing if d == -1 else d for d in shape)


def _reshape_kernel(xp, x, shape):
    if x.size and min(shape, default=0) >= -1:  # here NumPy's rules are TF's
        try:
            return x.reshape(shape)
        except ValueError:
            pass  # _resolve_shape raises TF's error
    return x.reshape(_resolve_shape(x.shape, x.size, shape))


def _reshape_rule(x, shape):
    if type(shape) is not tuple:  # a shape tensor: what is known of it before run time
        shape = shape_rules.known_elements(shape)
        if shape is None:
            return unknown_shape(), x.dtype
    bad = next((d for d in shape if d is not None and d < -1), None)
    if bad is not None:
        raise ValueError(f"Invalid value in tensor used for shape: {bad}")
    out = [None if d is None or d == -1 else d for d in shape]
    if x.shape.rank is not None:
        _infer_reshaped(x.shape, out)
    return TensorShape(out), x.dtype


def _element_count(dims):
    """``(product of the known dims, index of the unknown one or -1)``, None when several
    are unknown; a 0 dim makes the count 0 whatever the others are."""
    if 0 in dims:
        return 0, -1
    unknown = [i for i, d in enumerate(dims) if d is None]
    if len(unknown) > 1:
        return None
    return math.prod(d for d in dims if d is not None), unknown[0] if unknown else -1


def _infer_reshaped(in_shape, out):
    """Fills the unknown dim of `out` that the element counts determine, as TF's shape
    inference does, or raises its ValueError when the counts cannot match."""
    counts = _element_count(in_shape.as_list()), _element_count(out)
    if None in counts:
        return
    (n_in, in_unknown), (n_out, out_unknown) = counts

    def fail(sentence):
        raise shape_rules.shape_error("Reshape", sentence, [in_shape, TensorShape([len(out)])],
                                      (1, out) if out else None)  # TF leaves out a scalar's

    def divide(size, by):
        if size % by:
            fail(f"Dimension size must be evenly divisible by {by} but is {size}")
        return size // by

    if in_unknown < 0 and out_unknown < 0:
        if n_in != n_out:
            fail(f"Cannot reshape a tensor with {n_in} elements to shape {shape_text(out)} "
                 f"({n_out} elements)")
    elif in_unknown < 0 and n_out > 0:
        out[out_unknown] = divide(n_in, n_out)
    elif out_unknown < 0 and n_in > 0:
        divide(n_out, n_in)  # the input's unknown dim must come out whole


_RESHAPE = register("Reshape", _reshape_kernel, _reshape_rule, tied=(), moves_elements=True)


def _reshape_batched(op, args):
    """Batching: the batch dimension leads the shape (given as an attr; an input: None)."""
    if len(op.inputs) != 1:
        return None
    (x, _), = args
    return [x.reshape((x.shape[0],) + tuple(op.attrs["shape"]))]


batching_rules[_RESHAPE] = _reshape_batched
tf_nodes[_RESHAPE] = NodeForm(inputs=(0, AttrInput("shape", type_attr="Tshape", runtime=True)))
tf_args[_RESHAPE] = ("tensor", "shape")


@export("reshape", "compat.v1.manip.reshape")
def reshape(tensor, shape, name=None):
    """Reshapes `tensor` to `shape`; one dimension may be -1 (inferred).

    >>> tf.reshape([1, 2, 3, 4], [2, -1]).shape
    TensorShape([2, 2])
    """
    return _dispatch_shaped(_RESHAPE, tensor, shape, "shape", "Tshape", name)


def _check_perm(ndim, perm):
    if len(perm) != ndim:
        raise _bad(f"transpose expects a vector of size {ndim}. But input(1) is a vector of "
                   f"size {len(perm)}")
    for p in perm:  # TF names an entry out of range before a missing one
        if not -ndim <= p < ndim:
            raise _bad(f"{p} is out of range [0 .. {ndim})")
    normal = {p % ndim for p in perm}
    for i in builtins.range(ndim):
        if i not in normal:
            raise _bad(f"{i} is missing from {{{','.join(map(str, perm))}}}.")


def _transpose_kernel(conjugate):
    def kernel(xp, x, perm):
        if hasattr(perm, "ndim"):  # an array: given at run time
            if perm.ndim != 1:
                raise _bad(f"perm must be rank 1, got shape {shape_text(perm.shape)}")
            perm = tuple(perm.tolist())
        try:
            out = x.transpose(perm)  # (the methods: xp's functions add a wrapper's cost)
        except ValueError:
            _check_perm(x.ndim, perm)
            raise
        return xp.conj(out) if conjugate else out
    return kernel


def _transpose_rule(x, perm):
    rank = x.shape.rank
    if perm is not None and not isinstance(perm, (tuple, list)):  # a tensor
        known = shape_rules.known_elements(perm)
        if known is None or None in known:
            length = None if known is None else len(known)
            if rank is not None and length is not None and length != rank:
                raise shape_rules.shape_error("Transpose", f"Dimension must be {rank} but is "
                                                           f"{length}", [x.shape, perm.shape])
            return unknown_shape(rank if length is None else length), x.dtype
        perm = tuple(known)
    if perm is None:
        return (unknown_shape() if rank is None else TensorShape(x.shape.as_list()[::-1])), \
            x.dtype
    shapes = [x.shape, TensorShape([len(perm)])]
    if rank is not None and len(perm) != rank:
        raise shape_rules.shape_error("Transpose", f"Dimension must be {rank} but is "
                                                   f"{len(perm)}", shapes)
    for p in perm:  # the rank of an unknown shape follows from perm's length
        if not -len(perm) <= p < len(perm):
            raise shape_rules.shape_error(
                "Transpose", f"perm dim {p} is out of range of input rank {len(perm)}", shapes,
                computed=[(1, " ".join(map(str, perm)))])
    if rank is None:
        return unknown_shape(len(perm)), x.dtype
    dims = x.shape.as_list()
    return TensorShape([dims[p] for p in perm]), x.dtype


_TRANSPOSE = register("Transpose", _transpose_kernel(False), _transpose_rule, tied=())


def _transpose_batched(op, args):
    """Batching: the batch axis stays first (a permutation given as an input: None)."""
    if len(op.inputs) != 1:
        return None
    (x, _), = args
    perm = op.attrs["perm"]
    perm = range(x.ndim - 2, -1, -1) if perm is None else (p % (x.ndim - 1) for p in perm)
    return [np.transpose(x, (0,) + tuple(p + 1 for p in perm))]


batching_rules[_TRANSPOSE] = _transpose_batched
tf_nodes[_TRANSPOSE] = NodeForm(
    inputs=(0, AttrInput("perm", type_attr="Tperm", runtime=True)), outputs=("y",))
tf_args[_TRANSPOSE] = ("x", "perm")
_CONJUGATE_TRANSPOSE = register("ConjugateTranspose", _transpose_kernel(True), _transpose_rule,
                                tied=())
tf_nodes[_CONJUGATE_TRANSPOSE] = NodeForm(
    inputs=(0, AttrInput("perm", type_attr="Tperm", runtime=True)), outputs=("y",))
tf_args[_CONJUGATE_TRANSPOSE] = ("x", "perm")


@export("transpose", dispatch_name="compat.v1.transpose")
def transpose(a, perm=None, conjugate=False, name=errors.ScopeName("transpose")):
    """Permutes the dimensions of `a` (reversed when `perm` is None).

    `conjugate=True` also conjugates complex values.

    >>> tf.transpose([[1, 2, 3]]).shape
    TensorShape([3, 1])
    """
    given, a = (a, perm), as_tensor(a)
    op = _CONJUGATE_TRANSPOSE if conjugate and a.dtype.is_complex else _TRANSPOSE
    run_time = None if perm is None else run_time_tensor(perm)
    if run_time is not None:  # (a graph's: a permutation computed from a rank)
        check_index_dtype("Transpose", "Tperm", run_time, (_d.int32, _d.int64))
        return dispatch(op, (a, run_time), {}, name)
    if perm is None:
        rank = a.shape.rank
        perm = None if rank is None else tuple(builtins.range(rank - 1, -1, -1))
    else:
        perm = _ints(perm, "Transpose", "Tperm")
    try:
        return dispatch(op, (a,), {"perm": perm}, name)
    except errors.OpError as e:
        raise errors.listed(e, *given) from None


def _expand_dims_kernel(xp, x, axis):
    axis = int(np.reshape(axis, -1)[0]) if type(axis) is not int else axis  # or an input
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise _bad(f"Tried to expand dim index {axis} for tensor with {x.ndim} dimensions.")
    at = axis + x.ndim + 1 if axis < 0 else axis
    dims = x.shape
    return xp.reshape(x, dims[:at] + (1,) + dims[at:])  # (a view; cheaper than expand_dims)


def _expand_dims_rule(x, axis):
    if x.shape.rank is None:
        return unknown_shape(), x.dtype
    if not isinstance(axis, int):  # a run-time input: where the new dim goes is unknown
        return unknown_shape(x.shape.rank + 1), x.dtype
    dims = x.shape.as_list()
    if not -len(dims) - 1 <= axis <= len(dims):
        raise shape_rules.shape_error(
            "ExpandDims", f"dim {axis} not in the interval [{-len(dims) - 1}, {len(dims)}].",
            [x.shape, TensorShape([])], computed=[(1, axis)])
    at = axis + len(dims) + 1 if axis < 0 else axis
    return TensorShape(dims[:at] + [1] + dims[at:]), x.dtype


_EXPAND_DIMS = register("ExpandDims", _expand_dims_kernel, _expand_dims_rule, tied=(),
                        moves_elements=True)
tf_nodes[_EXPAND_DIMS] = NodeForm(inputs=(0, AttrInput("axis", "dim", "Tdim", kind=int,
                                                           runtime=True)))
tf_args[_EXPAND_DIMS] = ("input", "axis")


@export("expand_dims")
def expand_dims(input, axis, name=None):
    """Inserts a dimension of size 1 at index `axis`.

    >>> tf.expand_dims([1, 2], -1).shape
    TensorShape([2, 1])
    """
    dynamic = None if type(axis) is int else run_time_tensor(axis)
    if dynamic is not None:  # the axis becomes the op's input, as in TF
        if dynamic.shape.num_elements() not in (1, None):
            raise _op_error("ExpandDims", "'dim' must be a tensor with a single value")
        check_index_dtype("ExpandDims", "Tdim", dynamic)
        return dispatch(_EXPAND_DIMS, (as_tensor(input), dynamic), {}, name)
    axis = _ints(axis, "ExpandDims", "Tdim")
    if len(axis) != 1:
        raise _op_error("ExpandDims", "'dim' must be a tensor with a single value")
    return dispatch(_EXPAND_DIMS, (as_tensor(input),), {"axis": axis[0]}, name)


def _squeeze_axes(shape, squeeze_dims):
    """The non-negative axes that `squeeze_dims` names, checked against `shape` (dims or None)."""
    rank = len(shape)
    axes = []
    for d in squeeze_dims:
        if not -rank <= d < rank:
            raise _bad(f"Tried to squeeze dim index {d} for tensor with {rank} dimensions.")
        d %= rank
        if shape[d] not in (1, None):
            raise _bad(f"Can not squeeze dim[{d}], expected a dimension of 1, got {shape[d]}")
        axes.append(d)
    return axes


def _squeeze_kernel(xp, x, squeeze_dims):
    if not squeeze_dims:
        return x.squeeze()  # (the methods: xp's functions add a wrapper's cost)
    return x.squeeze(tuple(_squeeze_axes(x.shape, squeeze_dims)))


def _squeeze_rule(x, squeeze_dims):
    if x.shape.rank is None:
        return unknown_shape(), x.dtype
    dims = x.shape.as_list()
    if not squeeze_dims:
        if None in dims:
            return unknown_shape(), x.dtype  # which unknown dims are 1 is not known yet
        return TensorShape([d for d in dims if d != 1]), x.dtype
    rank = len(dims)
    for i, d in enumerate(squeeze_dims):
        if not -rank <= d < rank:
            raise shape_rules.shape_error("Squeeze", f"squeeze_dims[{i}] not in [{-rank},{rank}).",
                                          [x.shape])
        if dims[d] not in (1, None):
            raise shape_rules.shape_error("Squeeze", f"Can not squeeze dim[{d % rank}], expected "
                                                     f"a dimension of 1, got {dims[d]}", [x.shape])
    axes = _squeeze_axes(dims, squeeze_dims)
    return TensorShape([d for i, d in enumerate(dims) if i not in axes]), x.dtype


_SQUEEZE = register("Squeeze", _squeeze_kernel, _squeeze_rule, tied=(), moves_elements=True)
tf_defaults[_SQUEEZE] = {"squeeze_dims": ()}


@export("squeeze", dispatch_name="compat.v1.squeeze")
def squeeze(input, axis=None, name=None):
    """Removes dimensions of size 1: all of them, or those listed in `axis`.

    >>> tf.squeeze(tf.zeros([1, 2, 1])).shape
    TensorShape([2])
    """
    if run_time_tensor(axis) is not None:  # (an attr of TF's op: never an input)
        raise TypeError(f"Expected list for 'axis' argument to 'squeeze' Op, not {axis!r}.")
    dims = () if axis is None else _ints(axis, "Squeeze", "squeeze_dims")
    return dispatch(_SQUEEZE, (as_tensor(input),), {"squeeze_dims": dims}, name)


def _broadcast_to_kernel(xp, x, shape):
    if x.ndim > len(shape):
        raise _bad(f"Rank of input ({x.ndim}) must be no greater than rank of output shape "
                   f"({len(shape)}).")
    try:
        # A written copy, as TF's: several times cheaper to make than `xp.broadcast_to`'s
        # read-only view, and the ops that follow read contiguous memory.
        out = xp.empty(shape, x.dtype)
        if xp is np and out.size >= onednn_eltwise.MIN_SIZE:  # large: on every core
            if onednn_eltwise.broadcast(np.broadcast_to(x, out.shape), out):
                return out
        out[...] = x
        return out
    except ValueError:
        raise _bad(f"Incompatible shapes: {shape_text(x.shape)} vs. {shape_text(shape)}") \
            from None


def _broadcast_to_rule(x, shape):
    if type(shape) is not tuple:
        shape = shape_rules.known_elements(shape)
    if x.shape.rank is not None and shape is not None:
        shape_rules.broadcast_shapes(x.shape, TensorShape(shape), "BroadcastTo")
    return TensorShape(shape), x.dtype


_BROADCAST_TO = register("BroadcastTo", _broadcast_to_kernel, _broadcast_to_rule, tied=(),
                         fresh=True)
tf_nodes[_BROADCAST_TO] = NodeForm(inputs=(0, AttrInput("shape", runtime=True)))


def _broadcast_to_batched(op, args):
    """Batching: the batch dimension leads the shape (given as an attr; an input: None)."""
    if len(op.inputs) != 1:
        return None
    shape = tuple(op.attrs["shape"])
    x, = aligned(args, len(shape))
    return [np.broadcast_to(x, (x.shape[0],) + shape)]


batching_rules[_BROADCAST_TO] = _broadcast_to_batched


@export("broadcast_to")
def broadcast_to(input, shape, name=None):
    """Broadcasts `input` to `shape` with NumPy's rules.

    >>> tf.broadcast_to([1, 2], [2, 2]).shape
    TensorShape([2, 2])
    """
    return _dispatch_shaped(_BROADCAST_TO, input, shape, "shape", "Tidx", name)


def _tile_kernel(xp, x, multiples):
    if len(multiples) != x.ndim:
        raise _bad(f"Expected multiples argument to be a vector of length {x.ndim} but got "
                   f"length {len(multiples)}")
    for i, m in enumerate(multiples):
        if m < 0:
            raise _bad(f"Expected multiples[{i}] >= 0, but got {m}")
    return xp.tile(x, multiples)


def _tile_rule(x, multiples):
    if type(multiples) is not tuple:
        multiples = shape_rules.known_elements(multiples)
        if multiples is None:
            return unknown_shape(x.shape.rank), x.dtype
    if x.shape.rank is None:
        return unknown_shape(len(multiples)), x.dtype
    _rank_mismatch("Tile", len(multiples), x.shape.rank,
                   [x.shape, TensorShape([len(multiples)])])
    # As TF reads a shape tensor while tracing: -1 is an unknown multiple (the kernel rejects
    # it when the graph runs), below -1 a ValueError now.
    bad = next((m for m in multiples if m is not None and m < -1), None)
    if bad is not None:
        raise ValueError(f"Invalid value in tensor used for shape: {bad}")
    return TensorShape([None if d is None or m is None or m == -1 else d * m
                        for d, m in zip(x.shape, multiples)]), x.dtype


_TILE = register("Tile", _tile_kernel, _tile_rule, tied=())
tf_nodes[_TILE] = NodeForm(inputs=(0, AttrInput("multiples", type_attr="Tmultiples",
                                                  runtime=True)))


@export("tile", "compat.v1.manip.tile")
def tile(input, multiples, name=None):
    """Repeats `input` `multiples[i]` times along each dimension i.

    >>> tf.tile([[1, 2]], [2, 1]).shape
    TensorShape([2, 2])
    """
    return _dispatch_shaped(_TILE, input, multiples, "multiples", "Tmultiples", name)


def _reverse_kernel(xp, x, axis):
    if type(axis) is not tuple:  # an input: known at run time only
        if axis.ndim != 1:
            raise _bad(f"'dims' must be 1-dimension, not {axis.ndim}")
        axis = tuple(axis.tolist())
    if x.ndim == 0:  # TF returns a scalar as it is, whatever `axis` says
        return x
    seen = set()
    for i, a in enumerate(axis):
        if not -x.ndim <= a < x.ndim:
            raise _bad(f"'axis'[{i}] = {a} is out of valid range [0, {x.ndim - 1}")
        a %= x.ndim
        if a in seen:
            raise _bad(f"axis {a} specified more than once.")
        seen.add(a)
    if not axis:
        return x
    return _flipped(x, tuple(seen)) if xp is np else xp.flip(x, axis)


def _flipped(x, axes):
    """`x` reversed along `axes`: a view when the last axis is one of them, else a copy
    that moves the dims after the last reversed one as single items (an image's
    pixels: NumPy copies a reversed view of small items ~4x slower)."""
    last = max(axes)
    if last == x.ndim - 1 or not x.flags.c_contiguous or not x.size or x.dtype.hasobject:
        return np.flip(x, axes)
    item = np.dtype((np.void, x.itemsize * math.prod(x.shape[last + 1:])))
    items = x.view(np.uint8).reshape(x.shape[:last + 1] + (item.itemsize,)).view(item)
    return np.ascontiguousarray(np.flip(items[..., 0], axes)).view(x.dtype).reshape(x.shape)


def _reverse_rule(x, axis):
    if type(axis) is not tuple:  # an input
        return x.shape, x.dtype
    rank = x.shape.rank
    seen = set()
    for i, a in enumerate(axis if rank is not None else ()):
        if not -rank <= a < rank or a % rank in seen:
            message = (f"axis {a % rank} specified more than once." if -rank <= a < rank
                       else f"'axis'[{i}] = {a} is out of valid range [0, {rank - 1}")
            raise shape_rules.shape_error(
                "ReverseV2", message,
                [x.shape, TensorShape([len(axis)])], computed=[(1, " ".join(map(str, axis)))])
        seen.add(a % rank)
    return x.shape, x.dtype


_REVERSE = register("ReverseV2", _reverse_kernel, _reverse_rule, tied=())
tf_nodes[_REVERSE] = NodeForm(inputs=(0, AttrInput("axis", runtime=True)))
tf_args[_REVERSE] = ("tensor", "axis")


@export("reverse", "compat.v1.manip.reverse")
def reverse(tensor, axis, name=None):
    """Reverses the order of elements along the dimensions listed in `axis`.

    >>> tf.reverse([[1, 2, 3]], [1])
    <tf.Tensor: shape=(1, 3), dtype=int32, numpy=array([[3, 2, 1]], dtype=int32)>
    """
    given = (tensor, axis)
    dynamic = run_time_tensor(axis)
    if dynamic is not None:  # the axes become the op's input, as in TF
        check_index_dtype("ReverseV2", "Tidx", dynamic)
        return dispatch(_REVERSE, (as_tensor(tensor), dynamic), {}, name)
    dims, axis = _int_array(axis, "ReverseV2")
    if len(dims) != 1:
        raise _op_error("ReverseV2", f"'dims' must be 1-dimension, not {len(dims)}")
    try:
        return dispatch(_REVERSE, (as_tensor(tensor),), {"axis": axis}, name)
    except errors.OpError as e:
        raise errors.listed(e, *given) from None


def _roll_ints(xp, value, what):
    """Roll's `shift` or `axis` as a tuple of ints: an array when known only at run time."""
    if type(value) is tuple:
        return value
    if value.ndim > 1:
        raise _bad(f"{what} must be a scalar or a 1-D vector. Found: "
                   f"{shape_text(value.shape)}")
    return tuple(int(v) for v in xp.reshape(value, -1))


def _roll_kernel(xp, x, shift, axis):
    if x.ndim == 0:
        raise _bad("input must be 1-D or higher")
    shift, axis = (_roll_ints(xp, v, what) for v, what in ((shift, "shift"), (axis, "axis")))
    if len(shift) != len(axis):
        raise _bad("shift and axis must have the same size")
    for a in axis:
        if not -x.ndim <= a < x.ndim:
            raise _bad(f"axis {a} is out of range")
    return xp.roll(x, shift, axis) if axis else x


def _length(values):
    """How many values a static tuple or a vector input holds (None: unknown)."""
    if type(values) is tuple:
        return len(values)
    shape = getattr(values, "shape", None)
    return shape[0] if shape is not None and shape.rank == 1 else None


def _roll_rule(x, shift, axis, **_):
    n, m = _length(shift), _length(axis)
    if None not in (n, m) and n != m:
        raise shape_rules.shape_error(
            "Roll", f"Dimension 0 in both shapes must be equal, but are {n} and {m}. Shapes "
            f"are [{n}] and [{m}].", [x.shape, TensorShape([n]), TensorShape([m])])
    if x.shape.rank == 0:
        raise shape_rules.shape_error("Roll", "Shape must be at least rank 1 but is rank 0",
                                      [x.shape, TensorShape([]), TensorShape([])])
    return x.shape, x.dtype


_ROLL = register("Roll", _roll_kernel, _roll_rule, tied=())
tf_nodes[_ROLL] = NodeForm(inputs=(0, AttrInput("shift", type_attr="Tshift", runtime=True),
                                   AttrInput("axis", type_attr="Taxis", runtime=True)))


@export("roll", "compat.v1.manip.roll")
def roll(input, shift, axis, name=None):
    """Rolls elements by `shift` along `axis` (shifts on one axis add up).

    >>> tf.roll([1, 2, 3], 1, 0)
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([3, 1, 2], dtype=int32)>
    """
    given = shift, axis
    dynamic = run_time_tensor(axis)
    if dynamic is not None:  # the axes become an input, and so does the shift
        check_index_dtype("Roll", "Taxis", dynamic)
        shift = as_tensor(shift) if is_tensor_like(shift) else convert_to_tensor(shift)
        check_index_dtype("Roll", "Tshift", shift)
        return dispatch(_ROLL, (as_tensor(input), shift, dynamic), {}, name)
    axis = _ints(axis, "Roll", "Taxis")
    if context.executing_eagerly() and (
            not is_tensor_like(shift) and np.ndim(shift) > 1 or
            is_tensor_like(shift) and (as_tensor(shift).shape.rank or 0) > 1):
        shift = as_tensor(convert_to_tensor(shift))  # an input, for the kernel's rank check
    else:
        shift = _ints_or_tensor(reshape(shift, [-1]) if isinstance(shift, Tensor) and
                                shift.shape.rank == 0 else shift, "Roll", "Tshift")
    try:
        if type(shift) is tuple:
            return dispatch(_ROLL, (as_tensor(input),), {"shift": shift, "axis": axis}, name)
        return dispatch(_ROLL, (as_tensor(input), shift), {"axis": axis}, name)
    except errors.OpError as e:
        raise errors.listed(e, *given) from None


# -- joining and splitting -----------------------------------------------------------------------

def _concat_error(arrays, axis):
    """TF's message for arrays that cannot be concatenated along `axis`."""
    first = arrays[0].shape
    rank = len(first)
    if rank == 0:
        return _bad("ConcatOp : Can't concatenate scalars (use tf.stack instead)")
    if not -rank <= axis < rank:
        return _bad(f"ConcatOp : Expected concatenating dimensions in the range [{-rank}, "
                    f"{rank}), but got {axis}")
    axis %= rank
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != rank:
            return _bad(f"ConcatOp : Ranks of all input tensors should match: shape[0] = "
                        f"{shape_text(first)} vs. shape[{i}] = {shape_text(a.shape)}")
        for d in builtins.range(rank):
            if d != axis and a.shape[d] != first[d]:
                return _bad(f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] "
                            f"= {shape_text(first)} vs. shape[{i}] = {shape_text(a.shape)}")
    return _bad("ConcatOp : invalid inputs")


def _concat_kernel(xp, *arrays, axis=None):
    if axis is None:  # known at run time: the last input
        *arrays, axis = arrays
        axis = int(axis)
    try:
        return xp.concatenate(arrays, axis)
    except (ValueError, IndexError):
        raise _concat_error(arrays, axis) from None


def _merge_dims(a, b):
    return a if b is None else b


def _concat_rule(*inputs, axis=None):
    if axis is None:  # known at run time: the last input
        return _concat_run_time_rule(inputs[:-1], inputs[-1])
    if _unknown_rank(*inputs):
        return unknown_shape(), inputs[0].dtype
    rank = inputs[0].shape.rank
    shapes = [t.shape for t in inputs] + [TensorShape([])]  # the axis is TF's last input
    if rank == 0:
        raise shape_rules.shape_error("ConcatV2", "Can't concatenate scalars (use tf.stack "
                                                  "instead)", shapes)
    _axis_beyond("ConcatV2", axis, rank, shapes, [(len(inputs), axis)])
    for t in inputs[1:]:
        if t.shape.rank != rank:
            raise shape_rules.shape_error(
                "ConcatV2", f"Shape must be rank {rank} but is rank {t.shape.rank}", shapes)
    _check_concat_dims(inputs, _axis_in(axis, rank), shapes, axis)
    axis = _axis_in(axis, rank)
    dims = list(inputs[0].shape)
    for t in inputs[1:]:
        for d, n in enumerate(t.shape):
            dims[d] = (None if dims[d] is None or n is None else dims[d] + n) if d == axis \
                else _merge_dims(dims[d], n)
    return TensorShape(dims), inputs[0].dtype


def _concat_run_time_rule(inputs, axis):
    """TF's shape of a concat along an `axis` known at run time: the inputs' rank, with no
    dim known."""
    shapes = [t.shape for t in inputs] + [axis.shape]
    if axis.shape.rank not in (None, 0):
        raise shape_rules.shape_error(
            "ConcatV2", f"Shape must be rank 0 but is rank {axis.shape.rank}", shapes)
    rank = next((t.shape.rank for t in inputs if t.shape.rank is not None), None)
    if rank is None:
        return unknown_shape(), inputs[0].dtype
    if rank == 0:
        raise shape_rules.shape_error("ConcatV2", "Can't concatenate scalars (use tf.stack "
                                                  "instead)", shapes)
    for t in inputs:
        if t.shape.rank not in (None, rank):
            raise shape_rules.shape_error(
                "ConcatV2", f"Shape must be rank {rank} but is rank {t.shape.rank}", shapes)
    return TensorShape([None] * rank), inputs[0].dtype


def _check_concat_dims(inputs, at, shapes, axis):
    """TF's error for inputs whose dims off the concat axis (`at`) are known to differ: it
    merges them from the last input back to the first."""
    def off_axis(t):
        return [d for i, d in enumerate(t.shape.as_list()) if i != at]
    merged = TensorShape(off_axis(inputs[-1]))
    for t in reversed(inputs[:-1]):
        dims = TensorShape(off_axis(t))
        if not dims.is_compatible_with(merged):
            raise shape_rules.shape_error("ConcatV2", shape_rules.merge_failure(dims, merged), shapes,
                                          computed=[(len(inputs), axis)])
        merged = dims.merge_with(merged)


_CONCAT = register("ConcatV2", _concat_kernel, _concat_rule, tied="all", moves_elements=True,
                   tail_attr="axis")
tf_nodes[_CONCAT] = NodeForm(inputs=("*", AttrInput("axis", kind=int, runtime=True)), number="N")


@export("concat")
def concat(values, axis, name="concat"):
    """Concatenates tensors along dimension `axis`.

    >>> tf.concat([[1, 2], [3]], 0)
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>
    """
    if not isinstance(values, (list, tuple)):
        values = [values]
    if not values:  # TF's kernel lookup fails on it eagerly; its graph builder names the op
        if context.executing_eagerly():
            raise _op_error("ConcatV2", "concat needs at least one tensor; got an empty list")
        raise ValueError("List argument 'values' to 'ConcatV2' Op with length 0 shorter than "
                         "minimum length 2.")
    tensors = _matching(values)
    if len(tensors) == 1:
        return cast_ops.identity(tensors[0], name=name)
    dynamic = run_time_tensor(axis)
    if dynamic is not None:  # the axis becomes the op's last input, as in TF
        if dynamic.dtype not in (_d.int32, _d.int64):
            raise TypeError(f"Value passed to parameter 'axis' has DataType "
                            f"{dynamic.dtype.name} not in list of allowed values: int32, int64")
        return _listed_values(_CONCAT, tuple(tensors) + (dynamic,), {}, name, values)
    return _listed_values(_CONCAT, tensors, {"axis": _int(axis, "ConcatV2")}, name, values)


def _listed_values(op, tensors, attrs, name, values):
    """Runs `op` (its list input made of `values`): TF's errors without the name where a
    Python list or string is among `values`, as its wrapper runs the op on its slower path
    then (see `errors.listed`)."""
    try:
        return dispatch(op, tensors, attrs, name)
    except errors.OpError as e:
        raise errors.listed(e, *values) from None


def _stack_kernel(xp, *arrays, axis):
    for i, a in enumerate(arrays[1:], 1):
        if a.shape != arrays[0].shape:
            raise _bad(f"Shapes of all inputs must match: values[0].shape = "
                       f"{shape_text(arrays[0].shape)} != values[{i}].shape = "
                       f"{shape_text(a.shape)}")
    return xp.stack(arrays, axis)


def _stack_rule(*inputs, axis):
    shape = inputs[-1].shape  # TF merges each input, first to last, into the last one
    for i, t in enumerate(inputs):
        if not shape.is_compatible_with(t.shape):
            raise shape_rules.shape_error(
                "Pack", f"{shape_rules.merge_failure(t.shape, shape)}\n\tFrom merging shape {i} with other "
                        f"shapes.", [t.shape for t in inputs])
        shape = shape.merge_with(t.shape)
    if shape.rank is None:
        return unknown_shape(), inputs[0].dtype
    dims = shape.as_list()
    at = axis + len(dims) + 1 if axis < 0 else axis
    return TensorShape(dims[:at] + [len(inputs)] + dims[at:]), inputs[0].dtype


_PACK = register("Pack", _stack_kernel, _stack_rule, tied="all", moves_elements=True)
tf_nodes[_PACK] = NodeForm(number="N")
tf_defaults[_PACK] = {"axis": 0}


def _check_axis_range(axis, low, high):
    if not low <= axis < high:
        raise ValueError(f"Argument `axis` = {axis} not in range [{low}, {high})")


@export("stack")
def stack(values, axis=0, name="stack"):
    """Stacks rank-R tensors into one rank-(R+1) tensor along a new dimension `axis`.

    >>> tf.stack([[1, 2], [3, 4]], axis=1)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 3],
           [2, 4]], dtype=int32)>
    """
    axis = _int(tested_in_python(axis, 0))
    if axis == 0 and not any(is_tensor_like(v) for v in values):
        try:  # plain (nested) Python data: one conversion, as TF does
            return convert_to_tensor(values)
        except (TypeError, ValueError):
            pass
    tensors = _matching(values)
    if not tensors:
        raise ValueError("stack needs at least one value")
    ndim = tensors[0].shape.rank
    if ndim is not None:
        _check_axis_range(axis, -ndim - 1, ndim + 1)
    return _listed_values(_PACK, tensors, {"axis": axis}, name, values)


def _parallel_concat_kernel(xp, *values, shape):
    for v in values:
        if v.shape != (1,) + tuple(shape[1:]):
            raise _bad(f"value and update shape doesn't match: {shape_text(shape)} vs. "
                       f"{shape_text(v.shape)}")
    return xp.concatenate(values, 0)


def _parallel_concat_rule(*values, shape):
    if shape is None or None in shape:
        raise shape_rules.shape_error("ParallelConcat", "shape attr must be fully defined.",
                                      [v.shape for v in values])
    return TensorShape(shape), values[0].dtype


_PARALLEL_CONCAT = register("ParallelConcat", _parallel_concat_kernel, _parallel_concat_rule,
                            tied="all")
tf_nodes[_PARALLEL_CONCAT] = NodeForm(number="N")
tf_args[_PARALLEL_CONCAT] = ("*values",)
_GUARANTEE_CONST = register("GuaranteeConst", lambda xp, x: x, same_shape, tied=())
tf_args[_GUARANTEE_CONST] = ("input",)
batching_rules.assign(PER_ELEMENT, _PARALLEL_CONCAT, _GUARANTEE_CONST)
no_gradient_entry("ParallelConcat", "GuaranteeConst")  # (as in TF: LookupError)


@export("parallel_stack")
def parallel_stack(values, name="parallel_stack"):
    """`stack` along a new first axis as TF's ParallelConcat (which copies each input into
    the output as it arrives), inside a `tf.function` only, of inputs of a known shape;
    it has no gradient, as in TF.

    >>> tf.function(lambda a, b: tf.parallel_stack([a, b]))(tf.constant([1]), tf.constant([2]))
    <tf.Tensor: shape=(2, 1), dtype=int32, numpy=
    array([[1],
           [2]], dtype=int32)>
    """
    if context.executing_eagerly():
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    first = convert_to_tensor(values[0])
    out = TensorShape([len(values)]).concatenate(first.shape)
    shape = None if out.rank is None else tuple(out.as_list())
    return dispatch(_PARALLEL_CONCAT, tuple(expand_dims(v, 0) for v in values),
                    {"shape": shape}, name)


@export("guarantee_const")
def guarantee_const(input, name=None):  # noqa: A002 (TF's name)
    """`input` unchanged, as TF's GuaranteeConst: a promise to TF's graph optimizer that the
    value is constant (deprecated there, and not for public use); it has no gradient.

    >>> tf.guarantee_const([1.0, 2.0])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    return dispatch(_GUARANTEE_CONST, (as_tensor(input),), name=name)


def _unstack_kernel(xp, x, num, axis):
    if x.shape[axis] != num:
        raise _bad(f"Input shape axis {axis % x.ndim} must equal {num}, got shape "
                   f"{shape_text(x.shape)}")
    moved = xp.moveaxis(x, axis, 0)
    return tuple(moved[i, ...] for i in builtins.range(num))  # views, never NumPy scalars


def _unstack_rule(x, num, axis):
    if x.shape.rank is None:
        return [(unknown_shape(), x.dtype)] * num
    dims = x.shape.as_list()
    if dims[axis] is not None and dims[axis] != num:
        raise shape_rules.shape_error("Unpack", f"Dimension must be {num} but is {dims[axis]}",
                                      [x.shape])
    del dims[axis]
    return [(TensorShape(dims), x.dtype)] * num


_UNPACK = register("Unpack", _unstack_kernel, _unstack_rule, multi=True, tied=())
tf_args[_UNPACK] = ("value",)
tf_defaults[_UNPACK] = {"axis": 0}


@export("unstack")
def unstack(value, num=None, axis=0, name="unstack"):
    """Splits `value` along `axis` into a list of `num` tensors of one rank less.

    >>> tf.unstack([[1, 2], [3, 4]])[1]
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 4], dtype=int32)>
    """
    value = as_tensor(value)
    axis = _int(tested_in_python(axis, 0))
    ndim = value.shape.rank
    if ndim is not None:
        _check_axis_range(axis, -ndim, ndim)
        axis %= ndim
    if num is None:
        num = value.shape[axis] if ndim is not None else None
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {value.shape}")
    return list(dispatch(_UNPACK, (value,), {"num": attr_int(num, "num"), "axis": axis}, name))


def tested_in_python(value, against):
    """`value`, which TF's wrapper compares in Python (``if axis == 0``): a tensor only run
    time knows fails there, with TF's OperatorNotAllowedInGraphError."""
    if run_time_tensor(value) is not None:
        bool(math_ops.equal(value, against))
    return value


def attr_int(value, arg):
    """An integer that TF's op takes as an attr (never an input) as a Python int: a tensor
    only run time knows fails as TF's wrapper refuses it, naming TF's argument `arg`."""
    if run_time_tensor(value) is not None:
        raise TypeError(f"Expected int for argument '{arg}' not {value!r}.")
    return _int(value)


def _split_axis(x, axis):
    if type(axis) is not int:  # an input: known at run time only
        if axis.ndim:
            raise _bad(f"split_dim must be a scalar but has rank {axis.ndim}")
        axis = int(axis)
    if not -x.ndim <= axis < x.ndim:
        raise _bad(f"-input rank(-{x.ndim}) <= split_dim < input rank ({x.ndim}), but got "
                   f"{axis}")
    return axis % x.ndim


def _split_kernel(xp, x, axis, num_split):
    axis = _split_axis(x, axis)
    if x.shape[axis] % num_split:
        raise _bad(f"Number of ways to split should evenly divide the split dimension, but got "
                   f"split_dim {axis} (size = {x.shape[axis]}) and num_split {num_split}")
    return _slices(x, [x.shape[axis] // num_split] * num_split, axis)


def _slices(x, sizes, axis):
    """Views of `x` of the given `sizes` along `axis` (plain slicing: cheaper than split)."""
    lead = (builtins.slice(None),) * axis
    out, start = [], 0
    for size in sizes:
        out.append(x[lead + (builtins.slice(start, start + size),)])
        start += size
    return tuple(out)


def _split_sizes(size_splits, total):
    """`size_splits` with its -1 entry (at most one) resolved against `total`."""
    if size_splits.count(-1) > 1:
        raise _bad("There can only be one -1 in the input.")
    given = sum(s for s in size_splits if s != -1)
    if (given != total and -1 not in size_splits) or given > total:
        raise _bad("Determined shape must either match input shape along split_dim exactly if "
                   "fully specified, or be less than the size of the input along split_dim if "
                   f"not fully specified.  Got: {given}")
    return [total - given if s == -1 else s for s in size_splits]


def _split_v_kernel(xp, x, *given, size_splits=None, axis=None):
    size_splits, axis = _given(given, size_splits, axis)
    if type(size_splits) is not tuple:  # an input: known at run time only
        size_splits = size_splits.tolist()
    if type(axis) is not int:  # (as TF's kernel, its first value, of any shape)
        axis = int(axis.reshape(-1)[0])
    axis = _split_axis(x, axis)
    sizes = _split_sizes(size_splits, x.shape[axis])
    return _slices(x, sizes, axis)


def _split_rule(x, axis, sizes, run_time_axis=False):
    if x.shape.rank is None:
        return [(unknown_shape(), x.dtype)] * len(sizes)
    if run_time_axis:
        return [(TensorShape([None] * x.shape.rank), x.dtype)] * len(sizes)
    dims = x.shape.as_list()
    axis = _axis_in(axis, len(dims))
    return [(TensorShape(dims[:axis] + [s] + dims[axis + 1:]), x.dtype) for s in sizes]


def _check_split_dim(op_name, x, axis, shapes, computed):
    """TF's graph-time error for a scalar, or a split axis outside `x`'s known rank."""
    rank = x.shape.rank
    if rank is None:
        return
    if rank == 0 and op_name == "SplitV":
        raise shape_rules.shape_error(op_name, "Can't split scalars", shapes)
    if not -rank <= axis < rank:
        raise shape_rules.shape_error(
            op_name, f"Dimension size, given by scalar input {axis} must be in range "
                     f"[-{rank}, {rank})", shapes, computed=computed)


def _split_even_rule(x, axis, num_split):
    if type(axis) is not int:  # an input: TF's shape function knows only the rank then
        return _split_rule(x, 0, [None] * num_split, run_time_axis=True)
    shapes, computed = [TensorShape([]), x.shape], [(0, axis)]
    _check_split_dim("Split", x, axis, shapes, computed)
    rank = x.shape.rank
    n = None if rank is None else x.shape[_axis_in(axis, rank)]
    if n is not None and n % num_split:
        raise shape_rules.shape_error("Split", "Number of ways to split should evenly divide the "
                                               "split dimension", shapes, computed=computed)
    return _split_rule(x, axis, [None if n is None else n // num_split] * num_split)


def _given(given, *attrs):
    """An op's `attrs`, each an attr's value or (None: the op lacks the attr) the next of
    the arrays or tensors `given` at run time in its place, in order."""
    given = iter(given)
    return tuple(next(given) if a is None else a for a in attrs)


def _split_v_rule(x, *given, size_splits=None, axis=None):
    size_splits, axis = _given(given, size_splits, axis)
    static = type(size_splits) is tuple
    count = [None] * (len(size_splits) if static else size_splits.shape[0])
    if type(axis) is not int:  # an input: TF's shape function knows the rank only
        if x.shape.rank == 0:
            raise shape_rules.shape_error("SplitV", "Can't split scalars", [
                x.shape, TensorShape([len(count)]) if static else size_splits.shape,
                axis.shape])
        return _split_rule(x, 0, count, run_time_axis=True)
    if not static:  # an input: TF's shape function knows no size then
        _check_split_dim("SplitV", x, axis, [x.shape, size_splits.shape, TensorShape([])],
                         [(2, axis)])
        return _split_rule(x, axis, count)
    shapes = [x.shape, TensorShape([len(size_splits)]), TensorShape([])]
    computed = [(1, " ".join(map(str, size_splits))), (2, axis)]
    _check_split_dim("SplitV", x, axis, shapes, computed)
    rank = x.shape.rank
    n = None if rank is None else x.shape[_axis_in(axis, rank)]
    sizes = [None if s == -1 else s for s in size_splits]
    if n is not None:
        sizes = _split_sizes_when_traced(list(size_splits), n, shapes, computed)
    return _split_rule(x, axis, sizes)


def _split_sizes_when_traced(size_splits, n, shapes, computed):
    """`_split_sizes` for a known split dim `n`, with TF's graph-time ValueErrors."""
    def fail(sentence):
        return shape_rules.shape_error("SplitV", sentence, shapes, computed=computed)
    if size_splits.count(-1) > 1:
        raise fail("size_splits can only have one -1")
    given = sum(s for s in size_splits if s != -1)
    if -1 in size_splits:
        if given > n:
            raise fail(f"Split size at index {size_splits.index(-1)} must be >= 0. Got: "
                       f"{n - given}")
    elif given != n:
        raise fail(f"can't split axis of size {n} into pieces of size "
                   f"[{','.join(map(str, size_splits))}]")
    return [n - given if s == -1 else s for s in size_splits]


_SPLIT = register("Split", _split_kernel, _split_even_rule, multi=True, tied=())
_SPLIT_V = register("SplitV", _split_v_kernel, _split_v_rule, multi=True, tied=())
_SPLIT_DIM = AttrInput("axis", "split_dim", None, kind=int, runtime=True)
tf_nodes[_SPLIT] = NodeForm(inputs=(_SPLIT_DIM, 0))
tf_args[_SPLIT] = ("axis", "value")
tf_nodes[_SPLIT_V] = NodeForm(inputs=(0, AttrInput("size_splits", type_attr="Tlen",
                                                 runtime=True), _SPLIT_DIM),
                              output_number="num_split")
tf_args[_SPLIT_V] = ("value", "size_splits", "axis")


@export("split")
def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits `value` along `axis` into equal parts (an int) or parts of the given sizes.

    One of the sizes may be -1: it takes the remainder.

    >>> [t.shape[0] for t in tf.split(tf.range(6), [1, -1, 2])]
    [1, 3, 2]
    """
    value = as_tensor(value)
    dynamic = run_time_tensor(axis)
    if dynamic is not None:  # the axis becomes the op's input, as in TF
        return _split_along_run_time_axis(value, num_or_size_splits, dynamic, num, name)
    axis = _int(axis, "Split", "split_dim")
    if isinstance(num_or_size_splits, (int, np.integer)):
        num_split = int(num_or_size_splits)
        if num_split < 1:
            if not context.executing_eagerly():  # TF's check as the op is added
                raise ValueError(f"Attr 'num_split' of 'Split' Op passed {num_split} less "
                                 f"than minimum 1.")
            raise _op_error("Split", f"Value for attr 'num_split' of {num_split} must be at "
                                     f"least minimum 1")
        outs = dispatch(_SPLIT, (value,), {"num_split": num_split, "axis": axis}, name)
    else:
        if is_tensor_like(num_or_size_splits) and as_tensor(num_or_size_splits).ndim == 0:
            raise ValueError(f"Rank-0 tensors are not supported as the num_or_size_splits "
                             f"argument to split. Argument provided: "
                             f"{str(num_or_size_splits)}")
        dynamic = run_time_tensor(num_or_size_splits)
        if dynamic is not None:  # the sizes become the op's input, as in TF
            return _split_at_run_time(value, dynamic, axis, num, name)
        sizes = _ints(num_or_size_splits, "SplitV", "Tlen")
        try:
            outs = dispatch(_SPLIT_V, (value,), {"size_splits": sizes, "axis": axis}, name)
        except errors.OpError as e:  # (TF's one-op function is named by its outputs' count)
            raise errors.counted(e, "SplitV", "num_split", len(sizes)) from None
    return list(outs)


def _split_at_run_time(value, sizes, axis, num, name):
    """SplitV of `value` by `sizes`, a vector known at run time: its length (or `num`)
    must be known, as it gives the count of outputs."""
    check_index_dtype("SplitV", "Tlen", sizes)
    count = sizes.shape[0] if sizes.shape.rank == 1 else None
    if num is None and count is None:
        raise ValueError(f"Cannot infer argument `num` from shape {sizes}")
    if count is None:
        sizes = reshape(sizes, [num])
    if type(axis) is not int:  # (an input too, after the sizes)
        return list(dispatch(_SPLIT_V, (value, sizes, axis), {}, name))
    return list(dispatch(_SPLIT_V, (value, sizes), {"axis": axis}, name))


def _split_along_run_time_axis(value, num_or_size_splits, axis, num, name):
    """Split or SplitV of `value` along `axis`, a scalar known at run time (TF's int32
    input); SplitV's sizes are then an input too."""
    op_name = "Split" if isinstance(num_or_size_splits, (int, np.integer)) else "SplitV"
    if axis.dtype != _d.int32:
        raise TypeError(f"Input 'split_dim' of '{op_name}' Op has type {axis.dtype.name} that "
                        f"does not match expected type of int32.")
    if op_name == "Split":
        if num_or_size_splits < 1:
            raise ValueError(f"Attr 'num_split' of 'Split' Op passed {num_or_size_splits} less "
                             f"than minimum 1.")
        return list(dispatch(_SPLIT, (value, axis), {"num_split": int(num_or_size_splits)},
                             name))
    sizes = run_time_tensor(num_or_size_splits)
    if sizes is None:
        sizes = convert_to_tensor(_ints(num_or_size_splits, "SplitV", "Tlen"))
    return _split_at_run_time(value, sizes, axis, num, name)


# -- creation --------------------------------------------------------------------------------

def _fill_kernel(xp, value, dims):
    if value.size != 1:
        raise _bad(f"value must represent a scalar, got shape {shape_text(value.shape)}")
    if type(dims) is not tuple:  # given at run time: checked now
        _check_dims(dims.tolist(), _bad)
    return xp.full(dims, value.reshape(()), dtype=value.dtype)


def _fill_rule(value, dims):
    shape_rules.check_rank("Fill", [value], 0, rank=0)
    if type(dims) is not tuple:
        dims = shape_rules.known_elements(dims)
    return TensorShape(dims), value.dtype


_FILL = register("Fill", _fill_kernel, _fill_rule, tied=())
tf_nodes[_FILL] = NodeForm(inputs=(AttrInput("dims", type_attr="index_type", runtime=True), 0))
tf_args[_FILL] = ("dims", "value")


def _check_dims(dims, error):
    for d in dims:
        if d < 0:
            raise error(f"Dimension {d} must be >= 0")


def _check_graph_dims(dims):
    """TF's ValueError for negative `dims` of a Fill added to a graph: below -1 they are no
    shape at all; -1 reads as an unknown dim, which Fill's shape inference refuses."""
    bad = next((d for d in dims if d < -1), None)
    if bad is not None:
        raise ValueError(f"Invalid value in tensor used for shape: {bad}")
    if -1 in dims:
        raise ValueError("Fill dimensions must be >= 0")


def _shape_dims(value, op_name="Fill"):
    """A static shape argument as a tuple of non-negative ints (TF's Fill checks)."""
    value_shape, dims = _int_array(value, op_name, "index_type")
    if len(value_shape) > 1:
        raise _op_error(op_name, f"dims must represent a vector, got shape "
                                 f"{shape_text(value_shape)}")
    if not context.executing_eagerly():
        _check_graph_dims(dims)
    _check_dims(dims, lambda message: errors.eager_error(_InvalidArgument, op_name, message))
    return dims


def _no_layout(layout):
    if layout is not None:
        raise NotImplementedError("DTensor layouts are not supported.")


@export("fill")
def fill(dims, value, name=None, layout=None):
    """A tensor of shape `dims` filled with the scalar `value`.

    >>> tf.fill([2], 7)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([7, 7], dtype=int32)>
    """
    _no_layout(layout)
    _partial_shape_input(dims, "dims")
    try:
        return _fill(dims, value, name)
    except errors.OpError as e:
        raise errors.listed(e, dims) from None


def _fill(dims, value, name):
    """`fill`, as ``zeros`` and ``ones`` run it (TF's wrappers convert their shapes)."""
    run_time = run_time_tensor(dims)
    if run_time is None:
        return dispatch(_FILL, (as_tensor(value),), {"dims": _shape_dims(dims)}, name)
    check_index_dtype("Fill", "index_type", run_time)
    return dispatch(_FILL, (as_tensor(value), run_time), name=name)


def _scalar(value, dtype):
    """A scalar tensor of `dtype` for the constant 0, 1 or b"" (when it converts)."""
    if dtype.is_numeric or dtype.is_bool:
        return from_array(np.asarray(value, dtype.as_numpy_dtype))  # known to fit: no checks
    return convert_to_tensor(value, dtype)


def _zero_of(dtype):
    """The zero of `dtype`: the empty string for strings."""
    return b"" if dtype == _d.string else 0


def _python_float_shape(shape):
    """TF's ones/zeros convert a Python shape to int32 first: a float in it is a TypeError."""
    items = shape if isinstance(shape, (list, tuple)) else [shape]
    if context.executing_eagerly() and any(isinstance(d, (float, np.floating)) for d in items):
        convert_to_tensor(shape, _d.int32)  # raises TF's "Cannot convert ..." TypeError


def _eager_filled(shape, dtype, value):
    """``np.full(shape, value)`` of numeric or bool `dtype` as an eager tensor, when `shape` is
    Python ints (or one) and no tape or graph is active; else None (the op's path, for its
    checks and errors): what Fill's kernel would return, without converting the shape."""
    dims = (shape,) if type(shape) is int else shape
    if type(dims) is not list and type(dims) is not tuple or not (
            context._lookup(None) or context.get()).fast:
        return None
    for d in dims:
        if type(d) is not int or not 0 <= d < 2**31:
            return None
    check_narrow_conversion(False, dtype)  # (TF casts the int 0 or 1 to `dtype`)
    np_dtype = dtype._np if dtype._kind in "fiucb" or dtype is _d.bfloat16 else None
    if np_dtype is None or len(dims) > 254:
        return None
    result = EagerTensor()
    result._data = np.zeros(dims, np_dtype) if value == 0 else np.full(dims, value, np_dtype)
    return result


def _graph_small_filled(shape, dtype, value, name):
    """In a graph, TF's ``zeros`` or ``ones`` of a shape given in Python with fewer than 1000
    elements: a ``Const`` named as the op (TF writes bigger ones as a ``Fill``); else None."""
    if context.get().graph is None or is_tensor_like(shape):
        return None
    if isinstance(shape, TensorShape):
        shape = shape.as_list() if shape.is_fully_defined() else None
    # (a bare int, or Python values NumPy does not multiply, take TF's `Fill`)
    dims = _python_ints(shape) if type(shape) in (list, tuple) else None
    if dims is None or len(dims[0]) > 1 or any(d < 0 for d in dims[1]) or \
            math.prod(dims[1]) >= 1000:
        return None
    if dtype == _d.bool:
        value = bool(value)
    return constant(value, dtype, list(dims[1]), name)


@export("zeros")
def zeros(shape, dtype=_d.float32, name=errors.ScopeName("zeros"), layout=None):
    """A tensor of `shape` with every element zero (empty strings for `string`).

    >>> tf.zeros([2], tf.int32)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 0], dtype=int32)>
    """
    _no_layout(layout)
    dtype = _d.as_dtype(dtype)
    t = _eager_filled(shape, dtype, 0)
    if t is not None:
        return t
    t = _graph_small_filled(shape, dtype, _zero_of(dtype), name or "zeros")
    if t is not None:
        return t
    _python_float_shape(shape)
    return _fill(shape, _scalar(_zero_of(dtype), dtype), name)


@export("ones")
def ones(shape, dtype=_d.float32, name=errors.ScopeName("ones"), layout=None):
    """A tensor of `shape` with every element one.

    >>> tf.ones([2])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    _no_layout(layout)
    dtype = _d.as_dtype(dtype)
    t = _eager_filled(shape, dtype, 1)
    if t is not None:
        return t
    t = _graph_small_filled(shape, dtype, 1, name or "ones")
    if t is not None:
        return t
    _python_float_shape(shape)
    return _fill(shape, _scalar(1, dtype), name)


def _zeros_like_kernel(xp, x):
    if x.dtype is _d.variant:  # a list (ops/list_ops.py) knows its zeros, as TF's variants do
        return x.zeros_like()
    if x.dtype == object:  # strings
        return xp.full(x.shape, b"", dtype=object)
    return xp.zeros(x.shape, x.dtype)  # unlike `zeros_like`, no Python-level NumPy code


def _ones_like_kernel(xp, x):
    out = xp.empty(x.shape, x.dtype)
    out.fill(1)
    return out


_ZEROS_LIKE = register("ZerosLike", _zeros_like_kernel, same_shape, tied=(),
                       not_differentiable="constant output", shape_only=True)
_ONES_LIKE = register("OnesLike", _ones_like_kernel, same_shape, dtypes=NUMBER_BOOL,
                      not_differentiable="constant output", shape_only=True)
tf_nodes[_ZEROS_LIKE] = NodeForm(outputs=("y",))


def _like(op, make, input, dtype, name):
    input = as_tensor(input)
    if dtype is not None and _d.as_dtype(dtype) != input.dtype:
        return make(known_shape(input), _d.as_dtype(dtype), name)
    return dispatch(op, (input,), name=name)


@export("zeros_like")
def zeros_like(input, dtype=None, name=errors.ScopeName("zeros_like"), layout=None):
    """Zeros with the shape of `input` (and its dtype unless `dtype` is given).

    >>> tf.zeros_like([1, 2])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 0], dtype=int32)>
    """
    _no_layout(layout)
    return _like(_ZEROS_LIKE, zeros, input, dtype, name)


@export("ones_like")
def ones_like(input, dtype=None, name=errors.ScopeName("ones_like"), layout=None):
    """Ones with the shape of `input` (and its dtype unless `dtype` is given).

    >>> tf.ones_like([1, 2], dtype=tf.float32)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    _no_layout(layout)
    return _like(_ONES_LIKE, ones, input, dtype, name)


@export("eye", "linalg.eye")
def eye(num_rows, num_columns=None, batch_shape=None, dtype=_d.float32, name=None):
    """Identity matrix (or a batch of them): ones on the main diagonal.

    >>> tf.eye(2, 3)
    <tf.Tensor: shape=(2, 3), dtype=float32, numpy=
    array([[1., 0., 0.],
           [0., 1., 0.]], dtype=float32)>
    """
    dtype = _d.as_dtype(dtype)
    if any(isinstance(n, Tensor) and get_static_value(n) is None
           for n in (num_rows, num_columns)):
        return _eye_at_run_time(num_rows, num_columns, batch_shape, dtype, name)
    for n in (num_rows, num_columns):
        value = None if n is None else np.asarray(get_static_value(n) if is_tensor_like(n) else n)
        if value is not None and value.ndim and is_tensor_like(n):
            raise errors.InvalidArgumentError(
                None, None, f"num_rows and num_columns must be scalars, got shape {value.shape}")
        if value is not None and (value.dtype.kind not in "iu" or value.ndim):
            raise TypeError(f"Arguments `num_rows` and `num_columns` must be positive integer "
                            f"values. Received: num_rows={num_rows}, num_columns="
                            f"{num_rows if num_columns is None else num_columns}")
    rows = _int(num_rows)
    cols = rows if num_columns is None else _int(num_columns)
    graph = not context.executing_eagerly()
    packed = run_time_tensor(batch_shape) if graph and batch_shape is not None else None
    if packed is not None:
        # a batch size computed in the graph (e.g. from tf.shape(images)[0])
        return _eye_at_run_time(rows, num_columns and cols, packed, dtype, name)
    batch = () if batch_shape is None else _shape_dims(batch_shape)
    if graph:
        _check_graph_dims((rows, cols))
    for d in (rows, cols):
        if d < 0:
            raise _op_error("Fill", f"Dimension {d} must be >= 0")
    if graph:  # (ops, as TF's: its value is not static there)
        return _eye_at_run_time(rows, num_columns and cols, batch_shape, dtype, name)
    matrix = np.eye(rows, cols, dtype=dtype.as_numpy_dtype)
    return from_array(np.broadcast_to(matrix, batch + matrix.shape).copy())


def _eye_at_run_time(num_rows, num_columns, batch_shape, dtype, name):
    """`eye` for sizes known only when the graph runs: row index == column index."""
    rows = range(num_rows)
    cols = rows if num_columns is None else range(num_columns)
    matrix = cast_ops.cast(math_ops.equal(expand_dims(rows, 1), expand_dims(cols, 0)), dtype)
    if batch_shape is None:
        return cast_ops.identity(matrix, name=name)
    return broadcast_to(matrix, concat([batch_shape, shape(matrix)], 0), name=name)


_RANGE_TYPES = (_d.bfloat16, _d.float16, _d.float32, _d.float64, _d.int8, _d.int16, _d.int32,
                _d.int64, _d.uint16, _d.uint32, _d.uint64)
# The dtype `range` infers from its arguments: the widest of these.
_INT32_LOW, _INT32_HIGH = -2**31, 2**31 - 1
_RANGE_ORDER = {d: i for i, d in enumerate(
    (_d.int32, _d.int64, _d.bfloat16, _d.float16, _d.float32, _d.float64))}


def _number_text(v):
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _range_size(start, limit, delta):
    """The length of the range of 0-d arrays `start`, `limit`, `delta`; checked as TF does
    (an InvalidArgumentError whose message is TF's)."""
    s, l, d = start.item(), limit.item(), delta.item()
    if d == 0:
        raise _bad(f"Requires delta != 0: {_number_text(d)}")
    if d > 0 and s > l:
        raise _bad(f"Requires start <= limit when delta > 0: {_number_text(s)}/"
                   f"{_number_text(l)}")
    if d < 0 and s < l:
        raise _bad(f"Requires start >= limit when delta < 0: {_number_text(s)}/"
                   f"{_number_text(l)}")
    if start.dtype.kind in "iu":
        return (abs(l - s) + abs(d) - 1) // abs(d)
    # computed in the dtype itself, as TF does: float32 rounding decides the length
    return math.ceil(abs(float((limit - start) / delta)))


def _range_kernel(xp, start, limit, delta):
    return xp.arange(_range_size(start, limit, delta), dtype=start.dtype) * delta + start


def _range_rule(start, limit, delta):
    """A length known before run time when the three arguments are (as in TF, which also
    reports bad constant arguments then: a ValueError).

    >>> _range_rule(*(tf.convert_to_tensor(v) for v in (5, 1, -2)))
    (TensorShape([2]), tf.int32)
    """
    inputs = (start, limit, delta)
    values = [get_static_value(t) if is_tensor_like(t) else None for t in inputs]
    if any(v is None or np.ndim(v) for v in values):
        return TensorShape([None]), start.dtype
    try:
        size = _range_size(*(np.asarray(v) for v in values))
    except errors.InvalidArgumentError as e:
        sentence = e.message if "delta != 0" not in e.message else "Requires delta != 0"
        raise shape_rules.shape_error(
            "Range", sentence, [t.shape for t in inputs],
            computed=[(i, _number_text(v)) for i, v in enumerate(values)]) from None
    return TensorShape([size]), start.dtype


_RANGE = register("Range", _range_kernel, _range_rule,
                  tied=(0, 1, 2), dtypes=_RANGE_TYPES, not_differentiable="integer-like output")
tf_nodes[_RANGE] = NodeForm(types={"Tidx": 0})
tf_args[_RANGE] = ("start", "limit", "delta")


@export("range")
def range(start, limit=None, delta=1, dtype=None,  # noqa: A001 (TF's name)
          name=errors.ScopeName("range")):
    """A 1-D sequence from `start` (inclusive) to `limit` (exclusive) in steps of `delta`.

    Integers give int32, floats float32; mixed arguments take the widest dtype.

    >>> tf.range(1, 2, 0.25)
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([1.  , 1.25, 1.5 , 1.75], dtype=float32)>
    """
    if limit is None:
        start, limit = 0, start
    if dtype is not None:
        dtype = _d.as_dtype(dtype)
    try:
        if dtype is None and type(start) is int and type(limit) is int and \
                type(delta) is int and _INT32_LOW <= start <= _INT32_HIGH and \
                _INT32_LOW <= limit <= _INT32_HIGH and _INT32_LOW <= delta <= _INT32_HIGH:
            # Python ints of int32's range: int32 tensors, nothing to cast
            return dispatch(_RANGE, [convert_to_tensor(v) for v in (start, limit, delta)],
                            name=name)
        args = [as_tensor(v) if is_tensor_like(v) else convert_to_tensor(v, dtype)
                for v in (start, limit, delta)]
        if dtype is None:
            dtype = max((t.dtype for t in args), key=lambda d: _RANGE_ORDER.get(d, -1))
        return dispatch(_RANGE, [cast_ops.cast(t, dtype) for t in args], name=name)
    except errors.OpError as e:  # (TF's wrapper opens a name scope)
        raise errors.scoped(e) from None


def _run_time_count(value, not_scalar, negative):
    """A count given as an op's input (known at run time only), checked as TF's kernel
    checks it; `not_scalar` and `negative` word its errors (``{}``: the shape, the value)."""
    if value.ndim:
        raise _bad(not_scalar.format(shape_text(value.shape)))
    value = int(value)
    if value < 0:
        raise _bad(negative.format(value))
    return value


def _linspace_kernel(xp, start, stop, num, axis):
    if type(num) is not int:  # an input
        num = _run_time_count(num, "num must be a scalar, but got shape {}",
                              "Requires num >= 0, got {}")
    start, stop = xp.broadcast_arrays(start, stop)
    if start.dtype.itemsize < 4:
        return _half_linspace(xp, start, stop, num, axis)
    with xp.errstate(invalid="ignore"):  # infinite bounds: NaN steps, as in TF
        out = xp.linspace(start, stop, num, axis=axis)
    if num:  # the first value is `start` itself, not start + 0 * step (NaN for an infinite step)
        xp.moveaxis(out, axis, 0)[0] = start
    return out.astype(start.dtype, copy=False)


def _half_linspace(xp, start, stop, num, axis):
    """`linspace` of half types as TF computes it: start + k * ((stop - start) / (num - 1)),
    each step rounded to the type (its values then differ from float32's rounded by an ulp
    or two), the last value `stop` itself."""
    dtype = start.dtype
    k = xp.arange(num).astype(dtype).reshape((num,) + (1,) * start.ndim)
    with xp.errstate(invalid="ignore", over="ignore"):  # (infinite steps: NaN, as in TF)
        delta = (stop - start) / xp.asarray(max(num - 1, 1), dtype)
        out = xp.moveaxis(xp.expand_dims(start, 0) + xp.expand_dims(delta, 0) * k, 0, axis)
    moved = xp.moveaxis(out, axis, 0)
    if num:
        moved[0] = start
    if num > 1:
        moved[-1] = stop
    return out


def _linspace_rule(start, stop, num, axis):
    shape = shape_rules.broadcast_shapes(start.shape, stop.shape, "LinSpace")
    if shape.rank is None:
        return unknown_shape(), start.dtype
    dims = shape.as_list()
    at = axis + len(dims) + 1 if axis < 0 else axis
    if type(num) is not int:  # an input
        num = None
    return TensorShape(dims[:at] + [num] + dims[at:]), start.dtype


_LINSPACE = register("LinSpace", _linspace_kernel, _linspace_rule, tied=(0, 1), dtypes=FLOAT)
tf_nodes[_LINSPACE] = NodeForm(inputs=(0, 1, AttrInput("num", kind=int, runtime=True)),
                               implied={"axis": 0}, outputs=("output",))
tf_args[_LINSPACE] = ("start", "stop", "num")


@export("linspace")
def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (both included), along `axis`.

    Integer bounds give float64 values; tensor bounds broadcast.

    >>> tf.linspace(0., 1., 3)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0. , 0.5, 1. ], dtype=float32)>
    """
    start = as_tensor(start)
    stop = convert_to_tensor(stop, start.dtype)
    if start.dtype.is_integer:
        start, stop = cast_ops.cast(start, _d.float64), cast_ops.cast(stop, _d.float64)
    num_dtype = _d.float32 if isinstance(num, float) else _d.as_dtype(
        getattr(num, "dtype", _d.int32))
    if num_dtype.is_floating:
        raise TypeError(f"Argument `tensor` (name: num) must be of type integer. Received "
                        f"`tensor` = {num} of dtype: {num_dtype}")
    dynamic = None if type(num) is int else run_time_tensor(num)
    if dynamic is not None:  # the count becomes the op's input, as in TF
        check_index_dtype("LinSpace", "Tidx", dynamic)
        return dispatch(_LINSPACE, (start, stop, dynamic), {"axis": _int(axis)}, name)
    num = _int(num, "LinSpace", "Tidx")
    if num < 0:
        raise _op_error("LinSpace", f"Requires num >= 0, got {num}")
    return dispatch(_LINSPACE, (start, stop), {"num": num, "axis": _int(axis)}, name)


lin_space = linspace


@register_gradient("LinSpace")
def _linspace_grad(op, dy):
    # TF's tf.linspace is start + (stop - start) / (num - 1) * k, its last value stop itself:
    # value k weighs stop by k / (num - 1) (the last by 1, a single value by 0)
    num, axis = op.attrs.get("num"), op.attrs["axis"]
    count = -1 if num is None else num
    dy_rank = dy.shape.rank
    if axis >= 0 and dy_rank is None:  # (a graph's inputs of unknown rank) known at run time
        weights_shape = concat([[count], ones(expand_dims(rank(dy) - axis - 1, 0), _d.int32)], 0)
    else:  # the axes after `axis` are broadcast
        trailing = -axis - 1 if axis < 0 else dy_rank - axis - 1
        weights_shape = (count,) + (1,) * trailing
    if num is None:  # known at run time: the weights are linspace(0, 1, num) too
        weights = linspace(_scalar(0, dy.dtype), _scalar(1, dy.dtype), op.inputs[2])
    else:
        weights = np.append(np.arange(num - 1) / (num - 1), 1.0) if num > 1 else np.zeros(num)
        weights = convert_to_tensor(weights.astype(dy.dtype.as_numpy_dtype))
    weights = reshape(weights, weights_shape)
    start, stop = op.inputs[:2]
    reduce_sum = late.reduction_ops.reduce_sum
    d_stop = reduce_sum(math_ops.multiply(dy, weights), axis)
    d_start = reduce_sum(math_ops.multiply(dy, math_ops.subtract(1.0, weights)), axis)
    unbroadcast = late.reduction_ops.unbroadcast
    grads = unbroadcast(d_start, start), unbroadcast(d_stop, stop)
    return grads + (None,) * (len(op.inputs) - 2)  # (none for a count given as an input)


def _one_hot_kernel(xp, indices, on_value, off_value, depth, axis):
    if type(depth) is not int:  # an input
        depth = _run_time_count(depth, "depth must be a scalar, but got: {}",
                                "depth must be non-negative, got: {}")
    hot = indices[..., None] == xp.arange(depth, dtype=indices.dtype)
    out = xp.where(hot, on_value, off_value)
    return out if axis == -1 else xp.moveaxis(out, -1, axis)


def _one_hot_rule(indices, on_value, off_value, depth, axis):
    # TF's shape function, in its order of inputs (the depth second, a scalar)
    shapes = (indices.shape, TensorShape([]), on_value.shape, off_value.shape)
    if axis < -1:
        raise shape_rules.shape_error("OneHot", "axis must be >= -1", shapes)
    if type(depth) is int and depth < 0:
        raise shape_rules.shape_error(
            "OneHot", f"Dimension size, given by scalar input 1, must be non-negative but is "
                      f"{depth}", shapes, computed=[(1, depth)])
    if indices.shape.rank is None:
        return unknown_shape(), on_value.dtype
    dims = indices.shape.as_list()
    at = len(dims) if axis == -1 else axis
    if type(depth) is not int:  # an input
        depth = None
    return TensorShape(dims[:at] + [depth] + dims[at:]), on_value.dtype


_ONE_HOT = register("OneHot", _one_hot_kernel, _one_hot_rule, tied=(1, 2),
                    not_differentiable="integer indices")
tf_nodes[_ONE_HOT] = NodeForm(inputs=(0, AttrInput("depth", type_attr=None, kind=int,
                                                  runtime=True), 1, 2),
                              types={"T": 1, "TI": 0})
tf_args[_ONE_HOT] = ("indices", "depth", "on_value", "off_value")
tf_defaults[_ONE_HOT] = {"axis": -1}


def _one_hot_values(on_value, off_value, dtype):
    """`on_value`/`off_value` as tensors of one dtype, with TF's checks and defaults."""
    given = {k: as_tensor(v) for k, v in (("on_value", on_value), ("off_value", off_value))
             if v is not None and is_tensor_like(v)}
    if dtype is not None:
        dtype = _d.as_dtype(dtype)
        for k, t in given.items():
            if t.dtype != dtype:
                raise TypeError(f"dtype {t.dtype} of {k} does not match dtype parameter {dtype}")
    on, off = (given[k] if k in given else None if v is None else convert_to_tensor(v, dtype)
               for k, v in (("on_value", on_value), ("off_value", off_value)))
    if on is not None and off is not None and on.dtype != off.dtype:
        raise TypeError(f"dtype {on.dtype} of on_value does not match dtype {off.dtype} of "
                        f"off_value")
    dtype = dtype or (on.dtype if on is not None else off.dtype if off is not None
                      else _d.float32)
    # The defaults are the ints 1 and 0, even for bool (which then fails to convert, as in TF).
    default = convert_to_tensor if dtype == _d.bool else _scalar
    if on is None:
        on = default(1, dtype)
    if off is None:
        off = default(0, dtype)
    return on, off


_ONE_HOT_NAME = errors.ScopeName("one_hot")  # (TF's wrapper opens a scope of this name)


def _check_one_hot_axis(axis, rank, scope):
    if axis < -1 and not context.executing_eagerly():
        return  # (TF's shape function refuses it as the node is added: see `_one_hot_rule`)
    if axis != -1 and rank is not None and not 0 <= axis <= rank:
        raise errors.eager_error(_InvalidArgument, "OneHot", f"Expected axis to be -1 or "
                                 f"between [0, {rank + 1}).  But received: {axis}", name=scope)


def _one_hot_axis(axis):
    """`axis` as TF's wrapper takes it (an int attr): ``int(axis)``, refusing a string, and a
    tensor while a graph is built."""
    if axis is None:
        return -1
    if type(axis) is int:
        return axis
    if isinstance(axis, (str, bytes)) or is_tensor_like(axis) and \
            not context.executing_eagerly():
        raise TypeError(f"Expected int for argument 'axis' not {axis!r}.")
    try:
        return int(axis)
    except (TypeError, ValueError):
        raise TypeError(f"Expected int for argument 'axis' not {axis!r}.") from None


def _one_hot_depth(depth):
    """`depth` as TF's wrapper takes it (an int32 input): a Python int where it is a known
    scalar, else an int32 tensor (which the kernel checks), with TF's conversion errors."""
    if type(depth) is int or isinstance(depth, (np.integer, Dimension)) and \
            not isinstance(depth, (bool, np.bool_)):
        return _int(depth)
    if is_tensor_like(depth):
        depth = as_tensor(depth)
        if depth.dtype != _d.int32:
            if context.executing_eagerly():
                raise ValueError(f"Tensor conversion requested dtype int32 for Tensor with "
                                 f"dtype {depth.dtype.name}: {depth!r}")
            raise TypeError(f"Input 'depth' of 'OneHot' Op has type {depth.dtype.name} that "
                            f"does not match expected type of int32.")
    elif type(depth) in (float, str, bytes) and not context.executing_eagerly():
        got = f"got {depth!r} of type '{type(depth).__name__}'"
        raise TypeError(f"Expected int32 passed to parameter 'depth' of op 'OneHot', {got} "
                        f"instead. Error: Expected int32, but {got}.")
    else:
        depth = convert_to_tensor(depth, _d.int32)
    known = get_static_value(depth)
    return int(known) if known is not None and np.ndim(known) == 0 else depth


@export("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot encoding: `on_value` where the last axis equals `indices`, else `off_value`.

    Indices outside [0, depth) give a row of `off_value`.

    >>> tf.one_hot([0, 2], 3)
    <tf.Tensor: shape=(2, 3), dtype=float32, numpy=
    array([[1., 0., 0.],
           [0., 0., 1.]], dtype=float32)>
    """
    with context.op_scope(name or "one_hot") as opened:
        if opened is None:  # eagerly
            return _one_hot(indices, depth, on_value, off_value, axis, dtype, name)
        # (in a graph, TF converts the values in its scope, named as the op's inputs)
        # (the values it makes itself; the given ones as they convert: ``Const``)
        graph = context.get().graph
        on, off = _one_hot_values(on_value, off_value, dtype)
        if on_value is None:
            on = graph.name_constant(on, "on_value")
        if off_value is None:
            off = graph.name_constant(off, "off_value")
        if not is_tensor_like(indices):
            indices = graph.name_constant(convert_to_tensor(indices, dtype_hint=_d.int64),
                                          "indices")
        return _one_hot(indices, depth, on, off, axis, None, opened)


def _one_hot(indices, depth, on_value, off_value, axis, dtype, name):
    # (TF's eager error ends with the name its scope yields, "", only where no argument is a
    # list: one makes it take its slower path, which names nothing)
    scope = "" if is_tensor_like(indices) and not isinstance(depth, (list, tuple)) else None
    # (Python values convert as the op's inputs do: int64 when they can, so [] too)
    indices = as_tensor(indices) if is_tensor_like(indices) else convert_to_tensor(
        indices, dtype_hint=_d.int64)
    check_index_dtype("OneHot", "TI", indices, (_d.uint8, _d.int8, _d.int32, _d.int64))
    on, off = _one_hot_values(on_value, off_value, dtype)
    axis = _one_hot_axis(axis)
    depth = _one_hot_depth(depth)
    if type(depth) is int and depth < 0 and context.executing_eagerly():
        raise errors.eager_error(_InvalidArgument, "OneHot",
                                 f"depth must be non-negative, got: {depth}", name=scope)
    _check_one_hot_axis(axis, indices.shape.rank, scope)
    # (a depth only run time knows is the op's input, as in TF)
    inputs, attrs = ((indices, on, off), {"depth": depth, "axis": axis}) \
        if type(depth) is int else ((indices, on, off, depth), {"axis": axis})
    try:
        return dispatch(_ONE_HOT, inputs, attrs, _ONE_HOT_NAME if name is None else name)
    except errors.OpError as e:  # (TF's wrapper opens a name scope; for a list, its slow path)
        raise (errors.without_name(e) if scope is None else errors.scoped(e)) from None


@export("meshgrid")
def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D coordinate vectors; `indexing` is 'xy' (default) or 'ij'.

    >>> [g.shape for g in tf.meshgrid([1, 2, 3], [4, 5])]
    [TensorShape([2, 3]), TensorShape([2, 3])]
    """
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this "
                        f"function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    vectors = [reshape(v, [-1]) for v in args]
    axes = list(builtins.range(len(vectors)))
    if indexing == "xy" and len(axes) > 1:
        axes[0], axes[1] = 1, 0  # Cartesian: x varies along columns, y along rows
    dims = [0] * len(vectors)
    for v, at in zip(vectors, axes):
        dims[at] = v.shape[0]
    if None in dims:  # lengths known when the graph runs
        dims = stack([size(v) for v in vectors])
        dims = gather(dims, [axes.index(at) for at in builtins.range(len(vectors))])
    grids = []
    for v, at in zip(vectors, axes):
        view = [1] * len(vectors)
        view[at] = -1
        grids.append(broadcast_to(reshape(v, view), dims, name=name))
    return grids


# -- padding ---------------------------------------------------------------------------------

def _check_paddings(x, paddings, mirror=False):
    """TF's checks of a pad's `paddings` (worded as MirrorPad's kernel words them)."""
    if len(paddings) != x.ndim:
        raise _bad(f"The first dimension of paddings must be the rank of inputs"
                   f"{shape_text([len(paddings), 2])}{',' if mirror else ''} "
                   f"{shape_text(x.shape)}")
    for before, after in paddings:
        if before < 0 or after < 0:
            raise _bad(f"{'p' if mirror else 'P'}addings must be non-negative: {before} {after}")


def _paddings(paddings):
    """A pad's `paddings`: its attr (pairs), or an integer matrix given at run time."""
    if not hasattr(paddings, "ndim"):  # (an attr)
        return paddings
    if paddings.ndim != 2 or paddings.shape[1] != 2:
        raise _bad(f"paddings must be a matrix with 2 columns: {shape_text(paddings.shape)}")
    return tuple(tuple(pair) for pair in paddings.tolist())


def _pad_kernel(xp, x, constant_values, paddings):
    paddings = _paddings(paddings)
    _check_paddings(x, paddings)
    shape = tuple(b + n + a for (b, a), n in zip(paddings, x.shape))
    out = xp.full(shape, constant_values.reshape(()), dtype=x.dtype)
    out[tuple(builtins.slice(b, b + n) for (b, _), n in zip(paddings, x.shape))] = x
    return out


def _mirror_pad_kernel(xp, x, paddings, mode):
    paddings = _paddings(paddings)
    _check_paddings(x, paddings, mirror=True)
    offset = 0 if mode == "SYMMETRIC" else 1
    for (before, after), n in zip(paddings, x.shape):
        if max(before, after) > n - offset:
            relation = "no greater than" if offset == 0 else "less than"
            word = "greater than" if offset == 0 else "not less than"
            raise _bad(f"paddings must be {relation} the dimension size: {before}, {after} "
                       f"{word} {n}")
    return xp.pad(x, paddings, mode=mode.lower())


def _run_time_pad_rule(x, paddings):
    """A pad's shape when its paddings are a tensor: the dims whose paddings are known."""
    rows = paddings.shape[0] if paddings.shape.rank == 2 else None
    rank = x.shape.rank if rows is None else rows
    _rank_mismatch("Pad", x.shape.rank, rank, [x.shape, paddings.shape])
    known = shape_rules.known_elements(paddings) if rank is not None else None
    if known is None or len(known) != 2 * rank:
        return unknown_shape(rank), x.dtype
    dims = x.shape.as_list() if x.shape.rank is not None else [None] * rank
    return TensorShape([None if None in (n, b, a) else b + n + a
                        for n, b, a in zip(dims, known[::2], known[1::2])]), x.dtype


def _pad_rule(x, *inputs, paddings=None, **__):  # (paddings None: the last input)
    if paddings is None:  # given at run time, the op's last input
        return _run_time_pad_rule(x, inputs[-1])
    if any(b < 0 or a < 0 for b, a in paddings):
        raise shape_rules.shape_error("Pad", "Paddings must be non-negative",
                                      [x.shape, TensorShape([len(paddings), 2])])
    if x.shape.rank is None:
        return unknown_shape(len(paddings)), x.dtype
    _rank_mismatch("Pad", x.shape.rank, len(paddings),
                   [x.shape, TensorShape([len(paddings), 2])])
    return TensorShape([None if n is None else b + n + a
                        for (b, a), n in zip(paddings, x.shape)]), x.dtype


_PAD = register("PadV2", _pad_kernel, _pad_rule, tied=(0, 1))
_MIRROR_PAD = register("MirrorPad", _mirror_pad_kernel, _pad_rule, tied=())
tf_nodes[_PAD] = NodeForm(inputs=(0, AttrInput("paddings", type_attr="Tpaddings", runtime=True),
                                  1), outputs=("output",))
tf_args[_PAD] = ("input", "paddings", "constant_values")
tf_nodes[_MIRROR_PAD] = NodeForm(inputs=(0, AttrInput("paddings", type_attr="Tpaddings",
                                                      runtime=True)))


def _zero_pad_kernel(xp, x, paddings):
    return _pad_kernel(xp, x, xp.zeros((), x.dtype), paddings)


# TF's Pad pads with zeros (TF writes it for tf.pad's default value): read in TF's graphs.
_ZERO_PAD = register("Pad", _zero_pad_kernel, _pad_rule, tied=())
tf_nodes[_ZERO_PAD] = NodeForm(inputs=(0, AttrInput("paddings", type_attr="Tpaddings",
                                                    runtime=True)),
                               outputs=("output",))
batching_rules[_ZERO_PAD] = PER_ELEMENT


def _zero_scalar(value):
    """Whether `value`, not a tensor, is a scalar equal to zero (0, 0.0, False, ""), which TF's
    `pad` takes as zero padding whatever the tensor's dtype."""
    if is_tensor_like(value):
        return False
    try:
        return np.ndim(value) == 0 and bool(value == np.zeros_like(value))
    except (TypeError, ValueError):
        return False


def pad_v1(tensor, paddings, name=None):
    """`tensor` padded with zeros by ``paddings[i] = [before, after]`` (TF's ``Pad`` op).

    >>> pad_v1([[1, 2]], [[0, 0], [1, 1]])
    <tf.Tensor: shape=(1, 4), dtype=int32, numpy=array([[0, 1, 2, 0]], dtype=int32)>
    """
    return dispatch(_ZERO_PAD, (as_tensor(tensor),),
                    {"paddings": tuple(tuple(int(v) for v in p) for p in paddings)}, name=name)


@export("pad", dispatch_name="compat.v1.pad")
def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pads `tensor` by `paddings[i] = [before, after]` along each dimension i.

    `mode` is 'CONSTANT' (with `constant_values`), 'REFLECT' or 'SYMMETRIC'
    (any case).

    >>> tf.pad([[1, 2]], [[0, 0], [1, 1]])
    <tf.Tensor: shape=(1, 4), dtype=int32, numpy=array([[0, 1, 2, 0]], dtype=int32)>
    """
    mode = str(mode).upper()
    if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError(f'Value of argument `mode` expected to be one of "CONSTANT", '
                         f'"REFLECT", or "SYMMETRIC". Received `mode` = {mode}')
    run_time = run_time_tensor(paddings)
    if run_time is not None:  # (a graph's: paddings computed from a shape)
        check_index_dtype("Pad", "Tpaddings", run_time, (_d.int32, _d.int64))
        return _pad_run_time(as_tensor(tensor), run_time, mode, constant_values, name)
    shape, flat = _int_array(paddings, "Pad", "Tpaddings")
    if len(shape) != 2 or shape[1] != 2:
        raise _op_error("Pad", f"paddings must be a matrix with 2 columns: {shape_text(shape)}")
    pairs = tuple(zip(flat[::2], flat[1::2]))
    given, tensor = (tensor, paddings), as_tensor(tensor)
    if mode == "CONSTANT":
        if _zero_scalar(constant_values):  # (the default) TF pads with its op Pad, any dtype
            if tensor.dtype != _d.string:
                try:
                    return dispatch(_ZERO_PAD, (tensor,), {"paddings": pairs}, name)
                except errors.OpError as e:
                    raise errors.listed(e, *given) from None
            value = _scalar(_zero_of(tensor.dtype), tensor.dtype)
        else:
            tensor, value = _matching([tensor, constant_values])
        op, inputs, attrs = _PAD, (tensor, value), {"paddings": pairs}
    else:
        op, inputs, attrs = _MIRROR_PAD, (tensor,), {"paddings": pairs, "mode": mode}
    try:
        return dispatch(op, inputs, attrs, name)
    except errors.OpError as e:
        raise errors.listed(e, *given) from None


def _pad_run_time(tensor, paddings, mode, constant_values, name):
    """`pad` with paddings only run time knows: the pad ops take them as their last input."""
    if mode != "CONSTANT":
        return dispatch(_MIRROR_PAD, (tensor, paddings), {"mode": mode}, name)
    if _zero_scalar(constant_values) and tensor.dtype != _d.string:
        return dispatch(_ZERO_PAD, (tensor, paddings), {}, name)
    if _zero_scalar(constant_values):
        tensor, value = tensor, _scalar(_zero_of(tensor.dtype), tensor.dtype)
    else:
        tensor, value = _matching([tensor, constant_values])
    return dispatch(_PAD, (tensor, value, paddings), {}, name)


# -- gathering -------------------------------------------------------------------------------

def _indices_text(position):
    """``indices[1,2]`` for an entry of `indices`; plain ``indices`` for the only one."""
    return f"indices[{','.join(map(str, position))}]" if position else "indices"


def _check_range(xp, indices, limit):
    """TF's error for the first entry of `indices` outside [0, limit)."""
    # Seen as unsigned, negative indices are huge: one reduction checks both bounds.
    if indices.size and int(indices.view(indices.dtype.str.replace("i", "u")).max()) >= limit:
        bad = (indices < 0) | (indices >= limit)
        if bad.any():
            at = tuple(int(i) for i in xp.argwhere(bad)[0])
            raise _bad(f"{_indices_text(at)} = {indices[at]} is not in [0, {limit})")


def _gather_kernel(xp, params, indices, axis, batch_dims):
    if hasattr(axis, "ndim"):  # an array: given at run time
        axis = int(axis)
    if params.ndim == 0:
        raise _bad("params must be at least 1 dimensional")
    if not -params.ndim <= axis < params.ndim:
        raise _bad(f"Shape must be at least rank {axis + 1 if axis >= 0 else -axis} but is "
                   f"rank {params.ndim}")
    if not -indices.ndim <= batch_dims <= indices.ndim:
        raise _bad(f"Expected batch_dims in the range [{-indices.ndim}, {indices.ndim}], but "
                   f"got {batch_dims}")
    if batch_dims < 0:
        batch_dims += indices.ndim
    axis %= params.ndim
    if batch_dims >= params.ndim:
        raise _bad(f"batch_dims ({batch_dims}) must be less than rank(params) "
                   f"({params.ndim}).")
    if axis < batch_dims:
        raise _bad(f"batch_dims ({batch_dims}) must be less than or equal to axis ({axis}).")
    for d in builtins.range(batch_dims):
        if params.shape[d] != indices.shape[d]:
            raise _bad(f"params.shape[{d}]: {params.shape[d]} should be equal to "
                       f"indices.shape[{d}]: {indices.shape[d]}")
    out_shape = params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]
    if not math.prod(out_shape):  # TF fills an empty result without reading the indices
        return xp.zeros(out_shape, params.dtype)
    _check_range(xp, indices, params.shape[axis])
    if batch_dims == 0:
        out = params.take(indices, axis)  # (the method: xp.take adds a wrapper's cost)
        # A scalar index into a vector gives a NumPy scalar: keep results arrays.
        return out if isinstance(out, xp.ndarray) else xp.asarray(out, dtype=params.dtype)
    return _batched_take(xp, params, indices, axis, batch_dims)


def _batched_take(xp, params, indices, axis, batch_dims):
    """Gather along `axis` with the leading `batch_dims` dims of both inputs paired."""
    batch = params.shape[:batch_dims]
    outer = params.shape[batch_dims:axis]
    inner = params.shape[axis + 1:]
    b, o = math.prod(batch), math.prod(outer)
    flat = params.reshape(b, o, params.shape[axis], math.prod(inner))
    idx = indices.reshape(b, 1, math.prod(indices.shape[batch_dims:]))
    out = flat[xp.arange(b)[:, None, None], xp.arange(o)[None, :, None], idx]
    return out.reshape(batch + outer + indices.shape[batch_dims:] + inner)


def _gather_rule(params, indices, axis, batch_dims):
    if not isinstance(axis, (int, np.integer)):  # a tensor: its rank alone is known
        # (as axis >= batch_dims)
        if _unknown_rank(params, indices):
            return unknown_shape(), params.dtype
        count = indices.shape.rank
        return unknown_shape(params.shape.rank - 1 + count - _axis_in(batch_dims, count)), \
            params.dtype
    shapes = [params.shape, indices.shape, TensorShape([])]
    if params.shape.rank == 0:
        raise shape_rules.shape_error("GatherV2", "Shape must be at least rank 1 but is rank 0",
                                      shapes)
    _axis_beyond("GatherV2", axis, params.shape.rank, shapes, [(2, axis)])
    if _unknown_rank(params, indices):
        return unknown_shape(), params.dtype
    p, i = params.shape.as_list(), indices.shape.as_list()
    axis = _axis_in(axis, len(p))
    batch_dims = _axis_in(batch_dims, len(i))
    if axis < batch_dims:  # (the kernel's error, when the graph runs)
        return unknown_shape(), params.dtype
    return TensorShape(p[:axis] + i[batch_dims:] + p[axis + 1:]), params.dtype


_GATHER = register("GatherV2", _gather_kernel, _gather_rule, tied=(), moves_elements=True)
tf_nodes[_GATHER] = NodeForm(
    inputs=(0, 1, AttrInput("axis", type_attr="Taxis", kind=int, runtime=True)),
    types={"Tparams": 0, "Tindices": 1})
tf_args[_GATHER] = ("params", "indices", "axis")
tf_defaults[_GATHER] = {"batch_dims": 0}


@export("gather", dispatch_name="compat.v1.gather")
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Gathers slices of `params` along `axis` at `indices`.

    Out-of-range indices raise InvalidArgumentError (as on CPU);
    `validate_indices` is ignored, as it is in TF 2.

    >>> tf.gather([10, 20, 30], [2, 0])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([30, 10], dtype=int32)>
    """
    given = (params, indices)
    params, indices = as_tensor(params), as_tensor(indices)
    check_index_dtype("GatherV2", "Tindices", indices, (_d.int16, _d.int32, _d.int64))
    batch_dims = attr_int(batch_dims, "batch_dims")
    run_time = None if axis is None else run_time_tensor(axis)
    if run_time is not None:  # (a graph's: an axis computed from a rank)
        check_index_dtype("GatherV2", "Taxis", run_time, (_d.int32, _d.int64))
        return dispatch(_GATHER, (params, indices, run_time), {"batch_dims": batch_dims}, name)
    axis = batch_dims if axis is None else _int(axis, "GatherV2", "Taxis")
    if axis == 0:  # TF gathers rows without its batch_dims (a variable's by ResourceGather)
        batch_dims = 0
    try:
        result = dispatch(_GATHER, (params, indices), {"axis": axis, "batch_dims": batch_dims},
                          name)
    except errors.OpError as e:
        if axis == 0 and isinstance(given[0], Variable):
            e = errors.renamed(e, "ResourceGather")
        raise errors.listed(e, *given) from None
    # (ResourceGather runs where the variable lives)
    return given[0]._placed(result) if axis == 0 and isinstance(given[0], Variable) else result


def _policy(bad_indices_policy):
    policy = (bad_indices_policy or "DEFAULT").upper()
    if policy not in ("DEFAULT", "ERROR", "IGNORE"):
        raise ValueError(f"Unknown bad_indices_policy: {bad_indices_policy!r}")
    return policy


def _nd_valid(xp, rows, shape):
    """Which rows of a (N, K) index array address an element of `shape`."""
    limits = xp.asarray(shape[:rows.shape[1]], dtype=xp.int64)
    return ((rows >= 0) & (rows < limits)).all(axis=1)


def _bad_row_text(xp, valid, indices):
    """``indices[i,j] = [a, b]`` for the first invalid index vector."""
    lead = indices.shape[:-1]
    at = tuple(int(i) for i in np.unravel_index(int(xp.argmin(valid)), lead)) if lead else ()
    vector = ", ".join(str(int(v)) for v in indices[at])
    return f"{_indices_text(at)} = [{vector}]"


def _gather_nd_kernel(xp, params, indices, batch_dims, bad_indices_policy):
    if indices.ndim == 0:
        raise _bad("indices must be at least a vector")
    k = indices.shape[-1]
    if k > params.ndim - batch_dims:
        raise _bad(f"index innermost dimension length must be <= params rank; saw: {k} vs. "
                   f"{params.ndim - batch_dims}")
    if not params.size and math.prod(indices.shape[:-1]):
        raise _bad(f"Requested more than 0 entries, but params is empty.  Params shape: "
                   f"{shape_text(params.shape)}")
    batch = params.shape[:batch_dims]
    b = math.prod(batch)
    lead = indices.shape[batch_dims:-1]
    flat = indices.reshape(b, math.prod(lead), k)
    inner = params.reshape((b,) + params.shape[batch_dims:])
    valid = _nd_valid(xp, flat.reshape(flat.shape[0] * flat.shape[1], k), inner.shape[1:])
    if not valid.all() and bad_indices_policy != "IGNORE":
        raise _bad(f"{_bad_row_text(xp, valid, indices)} does not index into param shape "
                   f"{shape_text(params.shape)}, node name: GatherNd")
    valid = valid.reshape(flat.shape[:2])
    safe = xp.where(valid[..., None], flat, 0)
    rows = xp.broadcast_to(xp.arange(b)[:, None], flat.shape[:2])
    out = inner[(rows,) + tuple(safe[..., j] for j in builtins.range(k))]
    if not valid.all():
        out = xp.where(valid.reshape(valid.shape + (1,) * (out.ndim - 2)), out,
                       xp.zeros((), out.dtype))
    return out.reshape(batch + lead + params.shape[batch_dims + k:])


def _gather_nd_rule(params, indices, batch_dims, bad_indices_policy):
    if indices.shape.rank == 0:
        raise shape_rules.shape_error("GatherNd", "Shape must be at least rank 1 but is rank 0",
                                      [params.shape, indices.shape])
    if _unknown_rank(params, indices) or indices.shape[-1] is None:
        return unknown_shape(), params.dtype
    p, i = params.shape.as_list(), indices.shape.as_list()
    if i[-1] > len(p) - batch_dims:
        raise shape_rules.shape_error(
            "GatherNd", f"indices.shape[-1] must be <= params.rank, but saw indices shape: "
            f"{errors.shape_text(i)} and params shape: {errors.shape_text(p)}",
            [params.shape, indices.shape])
    return TensorShape(p[:batch_dims] + i[batch_dims:-1] + p[batch_dims + i[-1]:]), params.dtype


_GATHER_ND = register("GatherNd", _gather_nd_kernel, _gather_nd_rule, tied=())
tf_nodes[_GATHER_ND] = NodeForm(types={"Tparams": 0, "Tindices": 1}, implied={"batch_dims": 0})
tf_args[_GATHER_ND] = ("params", "indices")
tf_defaults[_GATHER_ND] = {"bad_indices_policy": ""}


@export("gather_nd", dispatch_name="compat.v1.gather_nd")
def gather_nd(params, indices, batch_dims=0, name=None, bad_indices_policy=""):
    """Gathers slices of `params` addressed by the index vectors in the last axis of `indices`.

    >>> tf.gather_nd([[1, 2], [3, 4]], [[0, 1], [1, 0]])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>
    """
    given = (params, indices)
    if isinstance(batch_dims, int) and batch_dims < 0:
        raise ValueError("tf.gather_nd does not allow negative batch_dims.")
    tested_in_python(batch_dims, 0)
    # (TF reads a variable's slices with ResourceGatherNd, which takes no int16 indices)
    resource = isinstance(params, Variable) and type(batch_dims) is int and batch_dims == 0
    params, indices = as_tensor(params), as_tensor(indices)
    check_index_dtype("GatherNd", "Tindices", indices,
                      (_d.int32, _d.int64) if resource else (_d.int16, _d.int32, _d.int64))
    try:
        return dispatch(_GATHER_ND, (params, indices),
                        {"batch_dims": _int(batch_dims),
                         "bad_indices_policy": _policy(bad_indices_policy)}, name)
    except errors.OpError as e:
        if resource:
            e = errors.renamed(e, "ResourceGatherNd")
            e = type(e)(e.node_def, e.op, e.message.replace(
                "node name: GatherNd", "node name: ResourceGatherNd"))
        raise errors.listed(e, *given) from None


# -- scattering ------------------------------------------------------------------------------

def _scatter_shape_error(op_name, at, updates, shape, k):
    """TF's message for `updates` (a shape) that does not fit indices of shape `at` (depth
    `k`) into `shape`: its kernels' checks, in their order."""
    n = len(at) - 1
    if op_name == "ScatterNd":
        batch, depth = (n, k) if n else (1, 1)
        if len(updates) < batch or updates[:batch] != at[:batch] and len(updates) == batch + \
                len(shape) - depth and len(shape) >= depth:
            return (f"Dimensions [0,{batch}) of indices[shape={shape_text(at)}] must match "
                    f"dimensions [0,{batch}) of updates[shape={shape_text(updates)}]")
        return (f"Dimensions [{depth},{len(shape)}) of input[shape={shape_text(shape)}] must "
                f"match dimensions [{depth},{len(shape)}) of updates[shape="
                f"{shape_text(updates)}]")
    if updates[:n] != at[:n]:
        return (f"Outer dimensions of indices and update must match. Indices shape: "
                f"{shape_text(at)}, updates shape:{shape_text(updates)}")
    if len(updates) - n != len(shape) - k:
        return (f"Inner dimensions of output shape must match inner dimensions of updates "
                f"shape. Output: {shape_text(shape)} updates: {shape_text(updates)}")
    return (f"The inner {len(shape) - k} dimensions of output.shape={shape_text(shape)} must "
            f"match the inner {len(updates) - n} dimensions of updates.shape="
            f"{shape_text(updates)}")


def _scatter_rows(xp, indices, updates, shape, op_name, policy):
    """`indices` (..., K) and `updates` as (N, K) rows and (N, slice...) values, checked."""
    k = indices.shape[-1] if indices.ndim else 0
    lead = indices.shape[:-1]
    n = len(lead)
    count, size = math.prod(lead), math.prod(shape)
    if op_name == "ScatterNd":  # (TF's checks of an empty output or index depth 0)
        if not size and (indices.size or updates.size):
            raise _bad(f"Indices and updates specified for empty output.  indices shape: "
                       f"{shape_text(indices.shape)}")
        if not k and indices.ndim:
            raise _bad("Indices and updates specified for empty output shape" if count else
                       "Only indices.shape[-1] values between 1 and 5 are currently supported."
                       "  Requested rank: 0")
    else:
        if not updates.ndim:
            raise _bad(f"Updates shape must have rank at least one. Found:"
                       f"{shape_text(updates.shape)}")
        if (not size or not k) and count:
            raise _bad("Indices and updates specified for empty output shape")
    if updates.shape[:n] != lead or updates.shape[n:] != tuple(shape[k:]):
        raise _bad(_scatter_shape_error(op_name, indices.shape, updates.shape, tuple(shape), k))
    rows = indices.reshape(math.prod(lead), k)
    values = updates.reshape((rows.shape[0],) + tuple(shape[k:]))
    valid = _nd_valid(xp, rows, shape)
    if not valid.all():
        if policy != "IGNORE":
            raise _bad(f"{_bad_row_text(xp, valid, indices)} does not index into shape "
                       f"{shape_text(shape)}")
        rows, values = rows[valid], values[valid]
    return tuple(rows[:, j] for j in builtins.range(k)), values


def _scatter_into(xp, out, index, values, how):
    if how == "update":
        out[index] = values  # with duplicates, the last update wins
    elif how in ("minimum", "maximum") and values.dtype.kind not in "biu":
        # an update replaces an element only when strictly smaller (larger): a NaN
        # update never does, a NaN element stays
        fill = xp.inf if how == "minimum" else -xp.inf
        getattr(xp, how).at(out, index, xp.where(xp.isnan(values), fill, values)
                            .astype(values.dtype))
    else:
        getattr(xp, how).at(out, index, values)
    return out


def _scatter_nd_kernel(xp, indices, updates, shape, bad_indices_policy):
    if type(shape) is not tuple:  # a shape known only at run time
        shape = tuple(int(d) for d in shape)
        bad = next((d for d in shape if d < 0), None)
        if bad is not None:
            raise _bad(f"Dimension {bad} must be >= 0")
    index, values = _scatter_rows(xp, indices, updates, shape, "ScatterNd",
                                  bad_indices_policy)
    # (strings: empty where nothing is scattered, joined where several are)
    out = xp.full(shape, b"", object) if updates.dtype == object else xp.zeros(shape,
                                                                                updates.dtype)
    return _scatter_into(xp, out, index, values, "logical_or" if updates.dtype == bool else "add")


def _check_scatter(op_name, indices, updates, shapes):
    """TF's shape error when the batch dims of `indices` (all but the last) are known not to
    lead the shape of `updates`."""
    i, u = indices.shape, updates.shape
    if i.rank is None or u.rank is None or not i.rank:
        return
    n = i.rank - 1
    lead = u[:n] if u.rank >= n else None
    for a, b in zip(i[:n], [] if lead is None else lead):
        if None not in (a, b) and a != b:
            raise shape_rules.shape_error(
                op_name, f"Dimensions [0,{n}) of indices[shape={errors.shape_text(i)}] = "
                f"{errors.shape_text(i[:n])} must match dimensions [0,{n}) of updates[shape="
                f"{errors.shape_text(u)}] = {errors.shape_text(lead)}: Dimension 0 in both "
                f"shapes must be equal, but are {a} and {b}", shapes)


def _scatter_nd_rule(indices, updates, shape, **_):
    _check_scatter("ScatterNd", indices, updates,
                   [indices.shape, updates.shape, TensorShape([None])])
    if type(shape) is not tuple:  # a shape tensor: what is known of it before run time
        known = shape_rules.known_elements(shape)
        return (unknown_shape() if known is None else TensorShape(known)), updates.dtype
    return TensorShape(shape), updates.dtype


_SCATTER_ND = register("ScatterNd", _scatter_nd_kernel, _scatter_nd_rule, tied=())
tf_nodes[_SCATTER_ND] = NodeForm(inputs=(0, 1, AttrInput("shape", type_attr="Tindices")),
                                 types={"T": 1, "Tindices": 0})
tf_args[_SCATTER_ND] = ("indices", "updates", "shape")
tf_defaults[_SCATTER_ND] = {"bad_indices_policy": ""}


@export("scatter_nd", "compat.v1.manip.scatter_nd")
def scatter_nd(indices, updates, shape, bad_indices_policy="", name=None):
    """Scatters `updates` into zeros of `shape` at `indices`; duplicate indices add up.

    >>> tf.scatter_nd([[0], [2], [0]], [1, 2, 3], [4])
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([4, 0, 2, 0], dtype=int32)>
    """
    given = (indices, updates, shape)
    indices, updates = as_tensor(indices), as_tensor(updates)
    check_index_dtype("ScatterNd", "Tindices", indices, (_d.int16, _d.int32, _d.int64))
    shape = _ints_or_tensor(shape, "ScatterNd", "Tindices")
    attrs = {"bad_indices_policy": _policy(bad_indices_policy)}
    try:
        if type(shape) is tuple:
            return dispatch(_SCATTER_ND, (indices, updates), {"shape": shape, **attrs}, name)
        return dispatch(_SCATTER_ND, (indices, updates, shape), attrs, name)
    except errors.OpError as e:
        raise errors.listed(e, *given) from None


def _tensor_scatter_kernel(how, op_name):
    def kernel(xp, tensor, indices, updates, bad_indices_policy):
        index, values = _scatter_rows(xp, indices, updates, tensor.shape, op_name,
                                      bad_indices_policy)
        return _scatter_into(xp, tensor.copy(), index, values, how)
    return kernel


def _tensor_scatter(public_name, op_name, how, dtypes, doc):
    """Registers `op_name` and returns its public function ``fn(tensor, indices, updates)``."""
    def rule(tensor, indices, updates, **_):
        _check_scatter(op_name, indices, updates, [tensor.shape, indices.shape, updates.shape])
        return tensor.shape, tensor.dtype

    op = register(op_name, _tensor_scatter_kernel(how, op_name), rule, tied=(0, 2),
                  dtypes=dtypes)
    batching_rules[op] = PER_ELEMENT
    tf_nodes[op] = NodeForm(types={"T": 0, "Tindices": 1})
    tf_args[op] = ("tensor", "indices", "updates")
    tf_defaults[op] = {"bad_indices_policy": ""}

    def fn(tensor, indices, updates, bad_indices_policy="", name=None):
        given = (tensor, indices, updates)
        indices = as_tensor(indices)
        check_index_dtype(op_name, "Tindices", indices, (_d.int16, _d.int32, _d.int64))
        tensor, updates = _matching([tensor, updates])
        try:
            return dispatch(op, (tensor, indices, updates),
                            {"bad_indices_policy": _policy(bad_indices_policy)}, name)
        except errors.OpError as e:
            raise errors.listed(e, *given) from None
    fn.__name__ = fn.__qualname__ = public_name
    fn.__doc__ = doc
    return fn


tensor_scatter_nd_add = _tensor_scatter(
    "tensor_scatter_nd_add", "TensorScatterAdd", "add", NUMBER, """
    Adds `updates` into a copy of `tensor` at `indices` (duplicates add up).

    >>> tf.tensor_scatter_nd_add([1, 2, 3], [[0], [0]], [5, 5])
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([11,  2,  3], dtype=int32)>
    """)
export("tensor_scatter_nd_add")(tensor_scatter_nd_add)
tensor_scatter_nd_sub = _tensor_scatter(
    "tensor_scatter_nd_sub", "TensorScatterSub", "subtract", NUMBER,
    "Subtracts `updates` from a copy of `tensor` at `indices`.")
export("tensor_scatter_nd_sub")(tensor_scatter_nd_sub)
tensor_scatter_nd_max = _tensor_scatter(
    "tensor_scatter_nd_max", "TensorScatterMax", "maximum", REAL,
    "Element-wise max of a copy of `tensor` and `updates` at `indices`.")
export("tensor_scatter_nd_max")(tensor_scatter_nd_max)
tensor_scatter_nd_min = _tensor_scatter(
    "tensor_scatter_nd_min", "TensorScatterMin", "minimum", REAL,
    "Element-wise min of a copy of `tensor` and `updates` at `indices`.")
export("tensor_scatter_nd_min")(tensor_scatter_nd_min)
_tensor_scatter_nd_update = _tensor_scatter("tensor_scatter_nd_update", "TensorScatterUpdate",
                                            "update", ANY, None)


@export("tensor_scatter_nd_update")
def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of `tensor` with `updates` written at `indices` (the last duplicate wins).

    >>> tf.tensor_scatter_nd_update([1, 2, 3], [[1]], [9])
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 9, 3], dtype=int32)>
    """
    return _tensor_scatter_nd_update(tensor, indices, updates, name=name)


# -- selection -------------------------------------------------------------------------------

def _where_kernel(xp, condition):
    if condition.ndim == 0:
        raise _bad("WhereOp : Unhandled input dimensions: 0")
    return xp.argwhere(condition).astype(xp.int64, copy=False)


_WHERE = register("Where", _where_kernel,
                  lambda x: (TensorShape([None, x.shape.rank]), _d.int64),
                  dtypes=NUMBER_BOOL, not_differentiable="integer output")
tf_nodes[_WHERE] = NodeForm(outputs=("index",))
tf_args[_WHERE] = ("condition",)


def _select_kernel(xp, condition, x, y):
    if condition.ndim == 0 and x.shape == y.shape and xp is np:
        # one of the two whole (a random flip's choice): a copy, without where's
        # broadcasting of the scalar (~20x slower on an image)
        return np.array(x if condition else y)
    try:
        return xp.where(condition, x, y)
    except ValueError:
        raise _bad(f"condition {shape_text(condition.shape)}, then {shape_text(x.shape)}, and "
                   f"else {shape_text(y.shape)} must be broadcastable") from None


def _select_rule(condition, x, y):
    shape = shape_rules.broadcast_shapes(condition.shape, x.shape, "SelectV2")
    return shape_rules.broadcast_shapes(shape, y.shape, "SelectV2"), x.dtype


_SELECT = register("SelectV2", _select_kernel, _select_rule, tied=(1, 2))
tf_nodes[_SELECT] = NodeForm(types={"T": 1})
tf_args[_SELECT] = ("condition", "t", "e")


def _select_v1_kernel(xp, condition, x, y):
    """TF 1's Select: `condition` of the shape of `x` and `y`, a scalar, or a vector picking
    rows (its graphs, which TF 2's Python still writes in places, use it)."""
    same = "'then' and 'else' must have the same size.  but received: "
    if condition.ndim == 0 or condition.ndim == 1 and x.ndim > 1:
        if condition.ndim and x.shape[0] != condition.shape[0]:
            raise _bad(f"Number of batches of 'then' must match size of 'cond', but saw: "
                       f"{x.shape[0]} vs. {condition.shape[0]}")
        if x.shape != y.shape:
            raise _bad(f"{same}{shape_text(x.shape)} vs. {shape_text(y.shape)}")
        condition = condition.reshape(condition.shape + (1,) * (x.ndim - condition.ndim))
    else:
        for i, t in ((1, x), (2, y)):
            if t.shape != condition.shape:
                raise _bad(f"Inputs to operation Select of type Select must have the same size "
                           f"and shape.  Input 0: {shape_text(condition.shape)} != input {i}: "
                           f"{shape_text(t.shape)}")
    return xp.where(condition, x, y)


def _select_v1_rule(condition, x, y):
    return x.shape.merge_with(y.shape) if x.shape.is_compatible_with(y.shape) else x.shape, \
        x.dtype


_SELECT_V1 = register("Select", _select_v1_kernel, _select_v1_rule, tied=(1, 2))
tf_nodes[_SELECT_V1] = NodeForm(types={"T": 1})
tf_args[_SELECT_V1] = ("condition", "x", "y")
batching_rules[_SELECT_V1] = PER_ELEMENT


def select_v1(condition, x, y, name=None):
    """TF 1's ``Select`` op: `x` where `condition`, else `y` (of one shape; `condition` of
    that shape, a scalar, or a vector choosing rows).

    >>> select_v1([True, False], [[1, 2], [3, 4]], [[5, 6], [7, 8]])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 2],
           [7, 8]], dtype=int32)>
    """
    return dispatch(_SELECT_V1, (as_tensor(condition), *_matching([x, y])), name=name)


@export("where")
def where(condition, x=None, y=None, name=None):
    """`x` where `condition` is True, else `y` (broadcast); or, with `condition` alone,
    the int64 coordinates of its True (non-zero) elements.

    >>> tf.where([True, False], [1, 2], [3, 4])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 4], dtype=int32)>
    >>> tf.where([True, False, True])
    <tf.Tensor: shape=(2, 1), dtype=int64, numpy=
    array([[0],
           [2]])>
    """
    if x is None and y is None:
        return dispatch(_WHERE, (as_tensor(condition),), name=name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    given = (condition, x, y)
    if context.executing_eagerly() and not (is_tensor_like(x) and is_tensor_like(y)):
        # TF's eager fast path takes tensors only; its fallback converts the condition to
        # bool (ValueError for a tensor of another dtype)
        condition = convert_to_tensor(condition, _d.bool)
    else:  # as TF's op: a tensor condition keeps its dtype for the check below
        condition = convert_input(condition, _d.bool)
    x, y = _matching([x, y])
    if condition.dtype != _d.bool:
        raise fixed_input_error(_SELECT, 0, "condition", _d.bool, condition.dtype,
                                building=not isinstance(condition, EagerTensor))
    try:
        return dispatch(_SELECT, (condition, x, y), name=name)
    except errors.OpError as e:
        raise errors.listed(e, *given) from None


@export("boolean_mask", dispatch_name="compat.v1.boolean_mask")
def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The elements (or slices) of `tensor` where the k-D `mask` is True, flattened over
    the masked dimensions `axis` .. `axis + k`.

    >>> tf.boolean_mask([[1, 2], [3, 4]], [True, False])
    <tf.Tensor: shape=(1, 2), dtype=int32, numpy=array([[1, 2]], dtype=int32)>
    """
    tensor, mask = as_tensor(tensor), as_tensor(mask)
    k = mask.shape.rank
    if k is None:
        raise ValueError("Number of mask dimensions must be specified, even if some dimensions "
                         "are None.  E.g. shape=[None] is ok, but shape=None is not.")
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else _int(axis)
    axis = _axis_in(axis, tensor.shape.rank)
    masked = tensor.shape[axis:axis + k]
    if not masked.is_compatible_with(mask.shape):
        raise ValueError(f"Shapes {masked} and {mask.shape} are incompatible")
    dims = None if tensor.shape.rank is None else tensor.shape.as_list()
    if dims is None or None in dims[:axis] + dims[axis + k:]:  # known when the graph runs
        whole = shape(tensor)
        new_shape = concat([whole[:axis], [-1], whole[axis + k:]], 0)
    else:
        new_shape = dims[:axis] + [-1 if None in masked else math.prod(masked)] + dims[axis + k:]
    tensor = reshape(tensor, new_shape)
    indices = squeeze(where(reshape(mask, [-1])), axis=[1])
    return gather(tensor, indices, axis=axis, name=name)


# -- slicing ---------------------------------------------------------------------------------

def _slice_kernel(xp, x, *bounds, begin=None, size=None):
    if bounds:  # begin and size known only at run time (then inputs, not attrs)
        begin, size = (tuple(b.reshape(-1).tolist()) for b in bounds)
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise _bad(f"Expected begin and size arguments to be 1-D tensors of size {x.ndim}, "
                   f"but got shapes [{len(begin)}] and [{len(size)}] instead.")
    index = []
    for i, (b, s, n) in enumerate(zip(begin, size, x.shape)):
        if not 0 <= b <= n:
            raise _bad(f"Expected begin[{i}] in [0, {n}], but got {b}")
        if s == -1:
            s = n - b
        if not 0 <= s <= n - b:
            raise _bad(f"Expected size[{i}] in [0, {n - b}], but got {s}")
        index.append(builtins.slice(b, b + s))
    return x[(*index, Ellipsis)]  # with an Ellipsis NumPy returns a view, never a scalar


def _slice_rule(x, *bounds, begin=None, size=None):
    if bounds:  # run-time begin and size: sizes as far as known (-1: to the end)
        begin_t, size_t = bounds
        sizes = shape_rules.known_elements(size_t)
        if sizes is None:
            rank = x.shape.rank if begin_t.shape.rank is None else begin_t.shape[0]
            return unknown_shape(rank), x.dtype
        return TensorShape([None if s is None or s < 0 else s for s in sizes]), x.dtype
    if x.shape.rank is None:
        return unknown_shape(len(size)), x.dtype
    _rank_mismatch("Slice", x.shape.rank, len(begin),
                   [x.shape, TensorShape([len(begin)]), TensorShape([len(size)])])
    return TensorShape([(None if n is None else n - b) if s == -1 else s
                        for b, s, n in zip(begin, size, x.shape)]), x.dtype


_SLICE = register("Slice", _slice_kernel, _slice_rule, tied=(), moves_elements=True)
# TF's kernels for the narrow types: reshaping ones for all, moves of elements for float8
takes_narrow(_d.NARROW, _RESHAPE, _SQUEEZE, _EXPAND_DIMS, _SPLIT, _SPLIT_V)
takes_narrow(_d.FLOAT8, _TRANSPOSE, _CONCAT, _PACK, _BROADCAST_TO, _GATHER, _GATHER_ND, _SLICE)
tf_nodes[_SLICE] = NodeForm(inputs=(0, AttrInput("begin", type_attr="Index", runtime=True),
                                    AttrInput("size", type_attr="Index", runtime=True)))


@export("slice")
def slice(input_, begin, size, name=None):  # noqa: A001 (TF's name)
    """The slice of `input_` of `size` starting at `begin` (size -1: to the end).

    >>> tf.slice([[1, 2, 3], [4, 5, 6]], [1, 0], [-1, 2])
    <tf.Tensor: shape=(1, 2), dtype=int32, numpy=array([[4, 5]], dtype=int32)>
    """
    begin_t, size_t = run_time_tensor(begin), run_time_tensor(size)
    if begin_t is not None or size_t is not None:  # (a graph's: a sampled crop's)
        begin_t, size_t = _matching([begin if begin_t is None else begin_t,
                                     size if size_t is None else size_t])
        check_index_dtype("Slice", "Index", begin_t, (_d.int32, _d.int64))
        return dispatch(_SLICE, (as_tensor(input_), begin_t, size_t), {}, name)
    try:
        return dispatch(_SLICE, (as_tensor(input_),), {"begin": _ints(begin, "Slice", "Index"),
                                                       "size": _ints(size, "Slice", "Index")},
                        name)
    except errors.OpError as e:
        raise errors.listed(e, input_, begin, size) from None


# -- shapes ----------------------------------------------------------------------------------

_SHAPE_TYPES = (_d.int32, _d.int64)


def _out_type(out_type, op_name):
    out_type = _d.int32 if out_type is None else _d.as_dtype(out_type)
    if out_type not in _SHAPE_TYPES:
        raise attr_dtype_error(op_name, "out_type", out_type, _SHAPE_TYPES)
    return out_type


_SHAPE = register("Shape", lambda xp, x, out_type: xp.asarray(x.shape, out_type.as_numpy_dtype),
                  lambda x, out_type: (TensorShape([x.shape.rank]), out_type), tied=(),
                  not_differentiable="shape", shape_only=True)
_SHAPE_N = register("ShapeN", lambda xp, *xs, out_type: tuple(
    xp.asarray(x.shape, out_type.as_numpy_dtype) for x in xs),
    lambda *xs, out_type: [(TensorShape([x.shape.rank]), out_type) for x in xs],
    multi=True, tied="all", not_differentiable="shape")  # one dtype for all inputs, as in TF
_SIZE = register("Size", lambda xp, x, out_type: xp.asarray(x.size, out_type.as_numpy_dtype),
                 lambda x, out_type: (TensorShape([]), out_type), tied=(),
                 not_differentiable="shape", shape_only=True)
# (TF's default out_type, which SavedModels leave out of their nodes)
tf_nodes[_SHAPE_N] = NodeForm(number="N", defaults={"out_type": _d.int32})
tf_args[_SHAPE_N] = ("*input",)
tf_nodes[_SHAPE] = tf_nodes[_SIZE] = NodeForm(defaults={"out_type": _d.int32})
_RANK = register("Rank", lambda xp, x: xp.asarray(x.ndim, xp.int32),
                 lambda x: (TensorShape([]), _d.int32), tied=(), not_differentiable="shape",
                 shape_only=True)
# Their values as far as the input's static shape tells (a graph's constant shapes).
static_value_rules[_SHAPE] = lambda s: None if s.rank is None else (s.as_list(),
                                                                    s.is_fully_defined())
static_value_rules[_SIZE] = lambda s: (s.num_elements(), True) if s.is_fully_defined() else None
static_value_rules[_RANK] = lambda s: None if s.rank is None else (s.rank, True)


@export("shape", dispatch_name="compat.v1.shape")
def shape(input, out_type=None, name=None):
    """The shape of `input` as a 1-D int32 (or `out_type`) tensor.

    >>> tf.shape([[1, 2, 3]])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 3], dtype=int32)>
    """
    if _is_sparse(input):  # a SparseTensor's shape is its dense_shape
        return cast_ops.cast(input.dense_shape, _out_type(out_type, "Shape"), name=name)
    return dispatch(_SHAPE, (as_tensor(input),), {"out_type": _out_type(out_type, "Shape")},
                    name)


def _is_sparse(x):
    return type(x) is not EagerTensor and isinstance(x, late.sparse_tensor.SparseTensor)


@export("shape_n")
def shape_n(input, out_type=_d.int32, name=None):
    """The shapes of a list of tensors.

    >>> tf.shape_n([[1, 2], 3])[0]
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([2], dtype=int32)>
    """
    tensors = [as_tensor(t) for t in input]
    if not tensors:  # ShapeN takes at least one input
        if context.executing_eagerly():
            raise _op_error("ShapeN", "Value for attr 'N' of 0 must be at least minimum 1")
        raise ValueError("List argument 'input' to 'ShapeN' Op with length 0 shorter than "
                         "minimum length 1.")
    return list(dispatch(_SHAPE_N, tensors, {"out_type": _out_type(out_type, "ShapeN")}, name))


@export("size", dispatch_name="compat.v1.size")
def size(input, out_type=None, name=None):
    """The number of elements of `input` as a scalar int32 (or `out_type`) tensor.

    >>> tf.size([[1, 2, 3]])
    <tf.Tensor: shape=(), dtype=int32, numpy=3>
    """
    if _is_sparse(input):  # the number of elements of its dense form
        return late.reduction_ops.reduce_prod(
            cast_ops.cast(input.dense_shape, _out_type(out_type, "Size")), name=name)
    return dispatch(_SIZE, (as_tensor(input),), {"out_type": _out_type(out_type, "Size")}, name)


@export("rank")
def rank(input, name=None):
    """The number of dimensions of `input` as a scalar int32 tensor.

    >>> tf.rank([[1, 2, 3]])
    <tf.Tensor: shape=(), dtype=int32, numpy=2>
    """
    if _is_sparse(input):  # the length of its dense_shape
        return size(input.dense_shape, name=name)
    return dispatch(_RANK, (as_tensor(input),), name=name)


@export("broadcast_static_shape")
def broadcast_static_shape(shape_x, shape_y):
    """The broadcast of two static `TensorShape`s (unknown dims stay unknown).

    >>> tf.broadcast_static_shape(tf.TensorShape([None, 3]), tf.TensorShape([2, 1]))
    TensorShape([2, 3])
    """
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    try:
        return shape_rules.broadcast_shapes(x, y)
    except _InvalidArgument:
        raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible if "
                         f"for each dimension pair they are either equal or one of them is 1. "
                         f"Received: {x} and {y}.") from None


def _broadcast_args_kernel(xp, s0, s1):
    a, b = s0.tolist(), s1.tolist()
    try:
        return xp.asarray(np.broadcast_shapes(tuple(a), tuple(b)), s0.dtype)
    except ValueError:
        raise _bad(f"Incompatible shapes: {shape_text(a)} vs. {shape_text(b)}") from None


def _broadcast_args_rule(s0, s1):
    lengths = [s.shape[0] for s in (s0, s1)]
    return TensorShape([None if None in lengths else max(lengths)]), s0.dtype


_BROADCAST_ARGS = register("BroadcastArgs", _broadcast_args_kernel, _broadcast_args_rule,
                           tied=(0, 1), dtypes=_SHAPE_TYPES, not_differentiable="shape")
tf_args[_BROADCAST_ARGS] = ("s0", "s1")
tf_nodes[_BROADCAST_ARGS] = NodeForm(outputs=("r0",))


def _broadcast_gradient_args_kernel(xp, s0, s1):
    """The axes along which the gradients of two broadcast operands are summed: TF's
    gradient graphs compute them when shapes are known only at run time."""
    for i, s in enumerate((s0, s1)):
        if s.ndim != 1:
            raise _bad(f"In[{i}] must be a vector.{shape_text(s.shape)}")
    a, b = s0.tolist(), s1.tolist()
    if a == b:
        return xp.zeros(0, s0.dtype), xp.zeros(0, s1.dtype)
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    r0, r1 = [], []
    for i, (x, y) in enumerate(zip(a, b)):
        if x == 1:
            r0.append(i)
        if y == 1:
            r1.append(i)
        if x != y and x != 1 and y != 1:
            raise _bad(f"Incompatible shapes: {shape_text(s0.tolist())} vs. "
                       f"{shape_text(s1.tolist())}")
    return xp.asarray(r0, s0.dtype), xp.asarray(r1, s1.dtype)


_BROADCAST_GRADIENT_ARGS = register(
    "BroadcastGradientArgs", _broadcast_gradient_args_kernel,
    lambda s0, s1: [(TensorShape([None]), s0.dtype)] * 2, multi=True, tied=(0, 1),
    dtypes=_SHAPE_TYPES, not_differentiable="shape")
tf_nodes[_BROADCAST_GRADIENT_ARGS] = NodeForm(outputs=("r0", "r1"))
tf_args[_BROADCAST_GRADIENT_ARGS] = ("s0", "s1")
batching_rules[_BROADCAST_GRADIENT_ARGS] = PER_ELEMENT  # (shapes: nothing to batch)


def broadcast_gradient_args(s0, s1, name=None):
    """``(r0, r1)``: the axes along which gradients of operands of shapes `s0` and `s1`
    (1-D integer tensors) are summed after broadcasting (``tf.raw_ops``' op).

    >>> broadcast_gradient_args([2, 1, 3], [3])[1]
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 1], dtype=int32)>
    """
    shapes = [convert_to_tensor(s, dtype_hint=_d.int32) if not isinstance(s, Tensor) else s
              for s in (s0, s1)]
    return tuple(dispatch(_BROADCAST_GRADIENT_ARGS, _matching(shapes), name=name))


@export("broadcast_dynamic_shape")
def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two shapes given as 1-D integer tensors.

    >>> tf.broadcast_dynamic_shape([2, 1], [3])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>
    """
    return dispatch(_BROADCAST_ARGS, _matching([shape_x, shape_y]))


# -- einsum and friends ----------------------------------------------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # einsum labels
_BFLOAT16_NP = np.dtype(_d.bfloat16.as_numpy_dtype)
_EINSUM_TYPES = (_d.bfloat16, _d.float16, _d.float32, _d.float64, _d.int32, _d.int64) + COMPLEX


def _einsum_parts(equation):
    """The input subscripts and the output subscript of an explicit equation."""
    if equation.count("->") != 1:
        raise _bad(f"Expecting exactly one '->' in einsum equation: {equation}")
    inputs, output = equation.split("->")
    return inputs.split(","), output


def _unkept_ellipsis_rank(subscripts, output, ranks):
    """How many dims the inputs' ellipsis covers when `output` has none (TF's kernel refuses
    to sum them away); 0 when the output has one, None when a rank is unknown."""
    if "..." in output:
        return 0
    found = 0
    for sub, rank in zip(subscripts, ranks):
        if "..." in sub:
            if rank is None:
                return None
            found = max(found, rank - len(sub) + 3)
    return found


def _check_einsum_dims(equation, shapes, traced=None):
    """TF's errors for ranks or labelled dimensions that do not agree (NumPy would broadcast):
    its graph-time ValueErrors when `traced` (the inputs' static shapes) is given."""
    subscripts, _ = _einsum_parts(equation)
    sizes = {}

    def rank_error(n, at_least, wanted, got):
        if traced is None:
            return _bad(f"Expected input {n} to have rank {at_least}{wanted} but got: {got}")
        return shape_rules.shape_error(
            "Einsum", f"Shape must be {at_least}rank {wanted} but is rank {got}\n\t for {n}th "
                      f"input and equation: {equation}", traced)

    for n, (sub, dims) in enumerate(zip(subscripts, shapes)):
        if dims is None:
            continue  # unknown rank: nothing known
        labels = sub.replace("...", "")
        if "..." in sub:
            if len(dims) < len(labels):
                raise rank_error(n, "at least ", len(labels), len(dims))
            before = sub.index("...")
            dims = dims[:before] + dims[len(dims) - (len(labels) - before):]
        elif len(dims) != len(labels):
            raise rank_error(n, "", len(labels), len(dims))
        for axis, (label, d) in enumerate(zip(labels, dims)):
            expected = sizes.setdefault(label, d)
            if d is not None and expected is not None and d != expected and traced is not None:
                raise shape_rules.shape_error(
                    "Einsum", f"Dimensions must be equal, but are {expected} and {d}", traced)
            if d is not None and expected is not None and d != expected:
                raise _bad(f"Expected dimension {expected} at axis {axis} of the input shaped "
                           f"{shape_text(dims)} but got dimension {d}")
            if expected is None:
                sizes[label] = d
    return sizes


@quiet
def _einsum_kernel(xp, *arrays, equation):
    _check_einsum_dims(equation, [a.shape for a in arrays])
    unkept = _unkept_ellipsis_rank(*_einsum_parts(equation), [a.ndim for a in arrays])
    if unkept:
        raise _bad(f"Output contains {unkept} broadcasting dimension(s) but no ellipsis (...) "
                   f"was found in the output subscripts.")
    dtype = arrays[0].dtype
    # half types (float16, and bfloat16, which NumPy's einsum refuses): accumulate in float32
    if dtype.itemsize < 4 and (dtype.kind == "f" or dtype == _BFLOAT16_NP):
        arrays = [a.astype(xp.float32) for a in arrays]
    out = xp.einsum(equation, *arrays, optimize=len(arrays) > 1)
    return xp.asarray(out).astype(dtype, copy=False)


def _einsum_rule(*inputs, equation):
    subscripts, output = _einsum_parts(equation)
    dtype = inputs[0].dtype
    if "..." in output and _unknown_rank(*inputs):
        return unknown_shape(), dtype
    sizes = _check_einsum_dims(equation, [None if t.shape.rank is None else t.shape.as_list()
                                          for t in inputs], [t.shape for t in inputs])
    unkept = _unkept_ellipsis_rank(subscripts, output, [t.shape.rank for t in inputs])
    if unkept:
        raise shape_rules.shape_error(
            "Einsum", f"Shape must be at most rank 0 but is rank {unkept}\n\t for einsum "
                      f"equation '{equation}' without ellipsis (...) in the output subscripts "
                      f"where input(s) have non-empty broadcasting shape",
            [t.shape for t in inputs])
    ellipsis = TensorShape([])
    if "..." in output:
        for sub, t in zip(subscripts, inputs):
            if "..." in sub:
                n = t.shape.rank - len(sub.replace("...", ""))
                start = sub.index("...")
                ellipsis = shape_rules.broadcast_shapes(
                    ellipsis, TensorShape(t.shape.as_list()[start:start + n]), "Einsum")
    dims = []
    for part in output.split("..."):
        dims.append([sizes.get(label) for label in part])
    out = dims[0] + (ellipsis.as_list() + dims[1] if len(dims) > 1 else [])
    return TensorShape(out), dtype


_EINSUM = register("Einsum", _einsum_kernel, _einsum_rule, tied="all", dtypes=_EINSUM_TYPES,
                   input_names=("inputs",))
tf_nodes[_EINSUM] = NodeForm(number="N")
tf_args[_EINSUM] = ("*inputs",)


def _explicit_equation(equation, count):
    """`equation` without spaces and with its output spelled out, validated as tf.einsum does."""
    resolved, labels = equation.replace(" ", ""), "a-zA-Z"
    if "..." in equation:  # an ellipsis is checked as one label, '0'
        if "0" in resolved:
            raise ValueError(f'Invalid character "0" in equation: {equation}.')
        resolved, labels = resolved.replace("...", "0"), "a-zA-Z0"
    if re.fullmatch(f"[{labels},]*(->[{labels}]*)?", resolved) is None:
        raise ValueError(f"Subscripts have incorrect format: {resolved}")
    inputs, _, output = resolved.partition("->")
    if len(inputs.split(",")) != count:
        raise ValueError(f'Got {count} inputs for equation "{equation}", expecting '
                         f'{len(inputs.split(","))}')
    if "->" not in resolved:  # the labels that appear once, sorted ('0', an ellipsis, first)
        labels = inputs.replace(",", "")
        output = "".join(sorted(c for c in set(labels) if labels.count(c) == 1))
    if len(set(output)) != len(output):
        raise ValueError(f"Output subscripts contain a label appearing more than once: "
                         f"{equation}")
    for label in output.replace("0", ""):
        if label not in inputs:
            raise ValueError(f"Output subscripts contain the label {label} not present in the "
                             f"input subscripts.")
    return f"{inputs}->{output}".replace("0", "...")


@export("einsum", "linalg.einsum")
def einsum(equation, *inputs, **kwargs):
    """Tensor contraction in Einstein summation notation, e.g. ``'ij,jk->ik'``.

    >>> tf.einsum('ij,jk->ik', tf.constant([[1., 2.]]), tf.constant([[3.], [4.]]))
    <tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[11.]], dtype=float32)>
    """
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)  # contraction order is NumPy's choice
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: "
                        f"{', '.join(sorted(kwargs))}. Expected: name, optimize")
    tensors = _matching(inputs)
    equation = _explicit_equation(equation, len(tensors))
    return dispatch(_EINSUM, tensors, {"equation": equation}, name)


def _tensordot_axes(axes, rank_a, rank_b, a):
    """The contracted axes of `a` and `b` for tensordot's `axes` argument."""
    if isinstance(axes, (int, np.integer)) or (is_tensor_like(axes) and
                                               as_tensor(axes).ndim == 0):
        n = _int(axes)
        if n < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {n}.")
        if rank_a is None or rank_b is None:
            raise _unknown_tensordot_rank(rank_a, rank_b)
        if n > min(rank_a, rank_b):
            raise ValueError(f"`axes` must not be larger than the number of dimensions of "
                             f"tensor {a}.  Received {n}, vs tensor dimensions {rank_a}.")
        return list(builtins.range(rank_a - n, rank_a)), list(builtins.range(n))
    pair = [_ints(ax, "Tensordot") for ax in axes]
    if len(pair) != 2:
        raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
    if len(pair[0]) != len(pair[1]):
        raise ValueError(f"Different number of contraction axes `a` and `b`, {len(pair[0])} "
                         f"!= {len(pair[1])}.")
    if rank_a is None or rank_b is None:
        raise _unknown_tensordot_rank(rank_a, rank_b)
    for which, rank, listed in (("a", rank_a, pair[0]), ("b", rank_b, pair[1])):
        for p in listed:
            if not -rank <= p < rank:  # TF fails indexing the shape: an IndexError too
                raise IndexError(f"tensordot: axis {p} of `{which}` is out of range for a "
                                 f"tensor of rank {rank}")
    return [p % rank_a for p in pair[0]], [p % rank_b for p in pair[1]]


def _tensordot_at_run_time(a, b, n, name):
    """tensordot over the last `n` dims of `a` and the first `n` of `b`, of ranks known only
    when the graph runs: one matrix product of `a` and `b` reshaped to matrices."""
    shape_a, shape_b = shape(a), shape(b)
    free_a, free_b = shape_a[:size(shape_a) - n], shape_b[n:]
    if n:  # reshaped to n dims: fails when run if either tensor has fewer
        inner_a, inner_b = (late.reduction_ops.reduce_prod(reshape(dims, [n]))
                            for dims in (shape_a[-n:], shape_b[:n]))
    else:
        inner_a = inner_b = 1
    product = late.linalg_ops.matmul(reshape(a, stack([-1, inner_a])),
                                     reshape(b, stack([inner_b, -1])))
    return reshape(product, concat([free_a, free_b], 0), name=name)


def _moved_at_run_time(x, axes, first):
    """`x` with its `axes` (in order) moved to the start (`first`) or the end, the others
    keeping their order, by a permutation made at run time."""
    n = rank(x)
    axes = math_ops.floormod(from_array(np.asarray(axes, np.int32).reshape(-1)), n)
    positions = range(n)
    listed = late.reduction_ops.reduce_any(
        math_ops.equal(expand_dims(positions, 1), expand_dims(axes, 0)), 1)
    others = boolean_mask(positions, math_ops.logical_not(listed))
    return transpose(x, concat([axes, others] if first else [others, axes], 0))


def _unknown_tensordot_rank(rank_a, rank_b):
    return ValueError(f"tensordot needs the ranks of `a` and `b` to be known when traced; got "
                      f"{rank_a} and {rank_b}")


@export("tensordot", "linalg.tensordot")
def tensordot(a, b, axes, name=None):
    """Sums the products of `a` and `b` over the given axes (an int: the last/first `axes`).

    >>> tf.tensordot(tf.constant([[1., 2.]]), tf.constant([[3.], [4.]]), 1)
    <tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[11.]], dtype=float32)>
    """
    a, b = _matching([a, b])
    ra, rb = a.shape.rank, b.shape.rank
    if (ra is None or rb is None) and isinstance(axes, (int, np.integer)) and axes >= 0:
        return _tensordot_at_run_time(a, b, int(axes), name)
    if (ra is None or rb is None) and not isinstance(axes, (int, np.integer)) and (
            len(axes) == 2 and not is_tensor_like(axes)):
        # the contracted axes moved (to a's end, b's start) by permutations made at run time
        pair = [_ints(ax, "Tensordot") for ax in axes]
        if len(pair[0]) != len(pair[1]):
            raise ValueError(f"Different number of contraction axes `a` and `b`, "
                             f"{len(pair[0])} != {len(pair[1])}.")
        return _tensordot_at_run_time(_moved_at_run_time(a, pair[0], False),
                                      _moved_at_run_time(b, pair[1], True), len(pair[0]), name)
    axes_a, axes_b = _tensordot_axes(axes, ra, rb, a)
    letters = iter(_LETTERS)
    sub_a = [next(letters) for _ in builtins.range(ra)]
    sub_b = [next(letters) for _ in builtins.range(rb)]
    for i, j in zip(axes_a, axes_b):
        sub_b[j] = sub_a[i]
    free = [s for i, s in enumerate(sub_a) if i not in axes_a] + \
        [s for j, s in enumerate(sub_b) if j not in axes_b]
    equation = f"{''.join(sub_a)},{''.join(sub_b)}->{''.join(free)}"
    return dispatch(_EINSUM, (a, b), {"equation": equation}, name)


def _search_kernel(side):
    def kernel(xp, sorted_inputs, values, out_type):
        if values.ndim == 0 or sorted_inputs.ndim == 0:
            raise _bad("Input sorted_inputs and values must have rank at least 1")
        s = sorted_inputs.reshape(math.prod(sorted_inputs.shape[:-1]), sorted_inputs.shape[-1])
        v = values.reshape(math.prod(values.shape[:-1]), values.shape[-1])
        if s.shape[0] != v.shape[0]:
            raise _bad("Leading dim_size of both tensors must match.")
        if v.dtype.kind == "V":  # bfloat16, compared as the float32 values it holds
            s, v = s.astype(np.float32), v.astype(np.float32)
        found = _binary_search(xp, s, v, side == "left")
        return found.reshape(values.shape).astype(out_type.as_numpy_dtype)
    return kernel


def _binary_search(xp, s, v, left):
    """Row-wise lower (`left`) or upper bound of (B, M) `v` in the rows of (B, K) `s`.

    The C++ standard library's bisection, step for step, for all values at once: it looks
    at the same elements and compares with < only, so rows that are not sorted, and NaN
    (which compares false), give TF's answers too: `searchsorted([1., nan], 5., "right")`
    is 2, where NumPy's search, which orders NaN last, says 1.
    """
    rows, k = s.shape[0], s.shape[1]
    first = xp.zeros(v.shape, np.int64)
    if k == 0:
        return first
    length = xp.full(v.shape, k, np.int64)
    row = xp.arange(rows)[:, None]
    for _ in builtins.range(k.bit_length()):
        half = length >> 1
        middle = first + half
        probe = s[row, xp.minimum(middle, k - 1)]
        after = (probe < v) if left else ~(v < probe)
        after &= length > 0
        first = xp.where(after, middle + 1, first)
        length = xp.where(after, length - half - 1, half)
    return first


def _search_rule(sorted_inputs, values, out_type):
    return values.shape, out_type


# TF's `T` takes any type, with CPU kernels for the real ones only (NotFoundError else)
_SEARCH_KERNELS = (_d.float64, _d.float32, _d.bfloat16, _d.float16, _d.int32, _d.int8, _d.uint8,
                   _d.int16, _d.uint16, _d.uint32, _d.int64, _d.uint64)
_LOWER_BOUND = register("LowerBound", _search_kernel("left"), _search_rule, tied=(0, 1),
                        dtypes=_d.ALL, kernels=_SEARCH_KERNELS,
                        not_differentiable="integer output")
_UPPER_BOUND = register("UpperBound", _search_kernel("right"), _search_rule, tied=(0, 1),
                        dtypes=_d.ALL, kernels=_SEARCH_KERNELS,
                        not_differentiable="integer output")
tf_nodes[_LOWER_BOUND] = tf_nodes[_UPPER_BOUND] = NodeForm(outputs=("output",))
tf_args[_LOWER_BOUND] = ("sorted_inputs", "values")
tf_defaults[_LOWER_BOUND] = {"out_type": _d.int32}
tf_args[_UPPER_BOUND] = ("sorted_inputs", "values")
tf_defaults[_UPPER_BOUND] = {"out_type": _d.int32}


@export("searchsorted")
def searchsorted(sorted_sequence, values, side="left", out_type=_d.int32, name=None):
    """Indices at which `values` would be inserted into the sorted innermost rows of
    `sorted_sequence` to keep them sorted.

    >>> tf.searchsorted([1, 3, 5], [0, 3, 6])
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 3], dtype=int32)>
    """
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` "
                         f"= '{side}'.")
    op = _LOWER_BOUND if side == "left" else _UPPER_BOUND
    sorted_sequence, values = _matching([sorted_sequence, values])
    attrs = {"out_type": _out_type(out_type, op.name)}
    for x in (sorted_sequence, values):
        if x.shape.rank == 0:  # TF reads each one's last dim first: a scalar fails there
            shape(x)[-1]
    if sorted_sequence.shape.rank == 2 and values.shape.rank == 2:
        return dispatch(op, (sorted_sequence, values), attrs, name)
    # TF's op takes matrices (its shape function refuses other ranks): rows of the innermost
    # dimension, the result shaped back as `values`
    found = dispatch(op, (_as_rows(sorted_sequence), _as_rows(values)), attrs)
    return reshape(found, _dims_of(values), name=name)


def _dims_of(x):
    """`x`'s shape: a list of ints where known, else its shape tensor."""
    if x.shape.is_fully_defined():
        return x.shape.as_list()
    return shape(x)


def _as_rows(x):
    """`x` as a matrix of its innermost dimension's rows."""
    last = x.shape[-1] if x.shape.rank is not None else None
    if last is None:
        last = shape(x)[-1]
    return reshape(x, stack([-1, last]) if isinstance(last, Tensor) else [-1, last])


@export("sequence_mask")
def sequence_mask(lengths, maxlen=None, dtype=_d.bool, name=None):
    """Mask of the first `lengths[i]` positions of each row: ``range(maxlen) < lengths[..., None]``.

    >>> tf.sequence_mask([1, 3], 4)
    <tf.Tensor: shape=(2, 4), dtype=bool, numpy=
    array([[ True, False, False, False],
           [ True,  True,  True, False]])>
    """
    lengths = as_tensor(lengths)
    if maxlen is None:
        # Empty lengths reduce to the dtype's minimum: as in TF, the mask is then 0 wide.
        maxlen = math_ops.maximum(late.reduction_ops.reduce_max(lengths), 0)
    maxlen = as_tensor(maxlen)
    if maxlen.shape.rank not in (0, None):
        raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received "
                         f"`maxlen` = {np.asarray(maxlen).tolist()} with shape "
                         f"'{tuple(maxlen.shape)}' instead")
    row = range(maxlen)
    mask = math_ops.less(row, cast_ops.cast(expand_dims(lengths, -1), maxlen.dtype))
    return cast_ops.cast(mask, dtype, name=name)


@export("repeat")
def repeat(input, repeats, axis=None, name=None):
    """Repeats each element (or slice along `axis`) of `input` `repeats` times.

    With `axis=None` the input is flattened first.

    >>> tf.repeat([1, 2], 2)
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([1, 1, 2, 2], dtype=int32)>
    """
    input = as_tensor(input)
    if axis is None:
        input, axis = reshape(input, [-1]), 0
    axis = _int(axis)
    if input.shape.rank == 0:  # TF repeats a scalar as a 1-vector
        input = reshape(input, [1])
    elif input.shape.rank is None:  # ... also when only run time knows it is one
        missing = math_ops.maximum(math_ops.subtract(1, rank(input)), 0)
        input = reshape(input, concat([shape(input), ones(reshape(missing, [1]), _d.int32)], 0))
    ndim = input.shape.rank
    if ndim is not None and not -ndim <= axis < ndim:
        raise ValueError(f"axis={axis} out of bounds: expected {-ndim}<=axis<{ndim}")
    n = None if ndim is None else input.shape[axis]
    counts = get_static_value(repeats) if is_tensor_like(repeats) else to_array(repeats)
    dtype = as_tensor(repeats).dtype if is_tensor_like(repeats) else \
        _d.from_numpy(np.asarray(counts).dtype)
    if not dtype.is_integer and np.size(counts):  # (an empty list converts as integers)
        raise TypeError(f"Argument `tensor` (name: repeats) must be of type integer. Received "
                        f"`tensor` = {repeats if counts is None else counts} of dtype: "
                        f"<dtype: '{dtype.name}'>")
    if counts is not None and np.ndim(counts) > 1:
        raise ValueError(f"Shape {np.shape(counts)} must have rank at most 1")
    if counts is not None and np.size(counts) == 1 and np.reshape(counts, -1)[0] < 0:
        # TF tiles by a single count, and Tile rejects a negative multiple (a negative
        # count in a vector of them repeats 0 times).
        where = axis % ndim + 1 if ndim is not None else axis + 1
        raise errors.InvalidArgumentError(
            None, None, f"Expected multiples[{where}] >= 0, but got "
            f"{int(np.reshape(counts, -1)[0])}")
    if n is None or counts is None:
        return _repeat_at_run_time(input, repeats, axis, name)
    counts = np.maximum(np.asarray(counts, np.int64), 0)  # negative counts repeat 0 times
    if counts.ndim and counts.size not in (1, n):
        raise ValueError(f"Dimensions {n} and {counts.size} are not compatible")
    indices = np.repeat(np.arange(n, dtype=np.int64), counts.reshape(-1))
    return _repeated(input, from_array(indices), axis, name)


def _repeated(input, indices, axis, name):
    """The slices of `input` at `indices` along `axis`; rows gathered along axis -rank, whose
    gradient is dense, as TF's repeat's is (an axis given as 0 would give IndexedSlices)."""
    rank = input.shape.rank
    if rank is not None and axis % rank == 0 and (input.dtype.is_floating
                                                   or input.dtype.is_complex):
        axis = -rank  # (values without gradients keep axis 0: the graph TF's loaders read)
    return gather(input, indices, axis=axis, name=name)


def _repeat_at_run_time(input, repeats, axis, name):
    """`repeat` when the repeated dim or the counts are known only when the graph runs."""
    n = shape(input, out_type=_d.int64)[axis]
    counts = math_ops.maximum(cast_ops.cast(as_tensor(repeats), _d.int64), 0)
    counts = math_ops.multiply(counts, ones([n], _d.int64))  # one count: every slice's
    ends = late.reduction_ops.cumsum(counts)
    positions = range(late.reduction_ops.reduce_sum(counts), dtype=_d.int64)
    return _repeated(input, searchsorted(ends, positions, side="right", out_type=_d.int64),
                     axis, name)


# -- gradients ---------------------------------------------------------------------------
def _shape_input_grad(grad):
    """A gradient function for ops that may take their shape-like parameter as an input:
    that input (integers) has no gradient."""
    def fn(op, dy):
        return (grad(op, dy), *[None] * (len(op.inputs) - 1))
    return fn


def _reshape_back(op, dy):
    return reshape(dy, known_shape(op.inputs[0]))


register_gradient("Reshape")(_shape_input_grad(_reshape_back))
register_gradient("ExpandDims")(_shape_input_grad(_reshape_back))
register_gradient("Squeeze")(_reshape_back)


def _transpose_back(conjugate):
    def grad(op, dy):
        if len(op.inputs) == 2:  # a permutation given at run time: its inverse
            return (transpose(dy, math_ops.invert_permutation(op.inputs[1]), conjugate=conjugate),
                    None)
        perm = op.attrs["perm"]
        rank = len(perm) if perm is not None else 0
        inverse = None if perm is None else [int(i) for i in np.argsort([p % rank for p in perm])]
        return transpose(dy, inverse, conjugate=conjugate)
    return grad


register_gradient("Transpose")(_transpose_back(False))
register_gradient("ConjugateTranspose")(_transpose_back(True))


register_gradient("BroadcastTo")(_shape_input_grad(
    lambda op, dy: late.reduction_ops.unbroadcast(dy, op.inputs[0])))


@register_gradient("ReverseV2")
def _reverse_grad(op, dy):
    if len(op.inputs) == 2:  # run-time axes
        return reverse(dy, op.inputs[1]), None
    return reverse(dy, op.attrs["axis"])


@register_gradient("Roll")
def _roll_grad(op, dy):
    if len(op.inputs) == 3:  # run-time axes (and shift)
        return roll(dy, math_ops.negative(op.inputs[1]), op.inputs[2]), None, None
    if len(op.inputs) == 2:  # a run-time shift
        return roll(dy, math_ops.negative(op.inputs[1]), op.attrs["axis"]), None
    return roll(dy, [-s for s in op.attrs["shift"]], op.attrs["axis"])


register_gradient("Fill")(_shape_input_grad(
    lambda op, dy: reshape(late.reduction_ops.reduce_sum(dy), known_shape(op.inputs[0]))))
register_gradient("Pack")(lambda op, dy: unstack(dy, len(op.inputs), op.attrs["axis"]))
register_gradient("Unpack")(lambda op, *dys: stack(list(dys), op.attrs["axis"]))


def _split_back(op, *dys):
    # (none for the sizes of a SplitV and the axis, given at run time as its last inputs)
    axis = op.attrs["axis"] if "axis" in op.attrs else op.inputs[-1]
    return (concat(list(dys), axis),) + (None,) * (len(op.inputs) - 1)


register_gradient("Split")(_split_back)
register_gradient("SplitV")(_split_back)


@register_gradient("ConcatV2", passes_sparse=True)
def _concat_grad(op, dy):
    if type(dy) is IndexedSlices:
        rank = op.inputs[0].shape.rank
        if "axis" in op.attrs and rank and op.attrs["axis"] % rank == 0:
            return _concat_rows_grad(op.inputs, dy)
        dy = convert_to_tensor(dy)
    if "axis" not in op.attrs:  # known at run time: each input's slice of dy, as TF's
        return _concat_run_time_grad(op.inputs[:-1], op.inputs[-1], dy) + [None]
    axis, rank = op.attrs["axis"], dy.shape.rank
    if rank is not None:
        axis %= rank
    sizes = [None if rank is None else t.shape[axis] for t in op.inputs]
    if None not in sizes:
        return split(dy, sizes, axis)
    # Sizes known only at run time: each input's rows of dy, gathered.
    pieces, start = [], 0
    for t in op.inputs:
        end = start + shape(t)[axis]
        pieces.append(gather(dy, range(start, end), axis=axis))
        start = end
    return pieces


def _concat_rows_grad(inputs, dy):
    """The gradients of tensors concatenated along their first axis from the `IndexedSlices`
    `dy` of the result: each input's own rows of it, still `IndexedSlices` (as TF's, so that
    a table in shards gets sparse gradients)."""
    pieces, start = [], 0
    for t in inputs:
        size = t.shape[0] if t.shape[0] is not None else shape(t, out_type=dy.indices.dtype)[0]
        end = start + size
        rows = math_ops.logical_and(math_ops.greater_equal(dy.indices, start),
                                    math_ops.less(dy.indices, end))
        keep = reshape(where(rows), [-1])
        pieces.append(IndexedSlices(gather(dy.values, keep),
                                    math_ops.subtract(gather(dy.indices, keep), start),
                                    shape(t)))
        start = end
    return pieces


def _concat_run_time_grad(inputs, axis, dy):
    n = rank(dy) if dy.shape.rank is None else dy.shape.rank
    along = one_hot(math_ops.floormod(axis, cast_ops.cast(n, axis.dtype)), n, dtype=axis.dtype)
    pieces, start = [], None
    for t in inputs:
        size = shape(t, out_type=axis.dtype)
        begin = zeros_like(size) if start is None else math_ops.multiply(along, start)
        pieces.append(slice(dy, begin, size))
        step = late.reduction_ops.reduce_sum(math_ops.multiply(along, size))
        start = step if start is None else math_ops.add(start, step)
    return pieces


@register_gradient("Tile")
@_shape_input_grad
def _tile_grad(op, dy):
    # Each tiled axis becomes (multiple, size): summing the multiples undoes the tiling.
    x = op.inputs[0]
    dims = known_shape(x)
    multiples = op.attrs["multiples"] if len(op.inputs) == 1 else op.inputs[1]
    if type(dims) is list and type(multiples) is tuple:
        split_dims = [n for pair in zip(multiples, dims) for n in pair]
    else:  # interleaved at run time
        multiples = _param_tensor(multiples)
        split_dims = reshape(stack([multiples, shape(x, multiples.dtype)], 1), [-1])
    rank = x.shape.rank
    axes = (list(builtins.range(0, 2 * rank, 2)) if rank is not None
            else range(0, 2 * size(shape(x)), 2))  # every other axis, counted at run time
    return reshape(late.reduction_ops.reduce_sum(reshape(dy, split_dims), axes), dims)


@register_gradient("Slice")
def _slice_grad(op, dy):
    x = op.inputs[0]
    if len(op.inputs) == 1 and x.shape.is_fully_defined():
        dims, begin = x.shape.as_list(), op.attrs["begin"]
        return pad(dy, [[b, n - b - s] for b, s, n in zip(begin, dy.shape.as_list(), dims)])
    # Bounds or sizes known at run time only: dy scattered to the flat positions the same
    # slice takes of x's positions.
    dims = shape(x)
    where_ = op.inputs[1:] if len(op.inputs) > 1 else (op.attrs["begin"], op.attrs["size"])
    taken = slice(reshape(range(size(x)), dims), *where_)
    flat = scatter_nd(reshape(taken, [-1, 1]), reshape(dy, [-1]), expand_dims(size(x), 0))
    return (reshape(flat, dims), *[None] * (len(op.inputs) - 1))


def _run_time_unpad(op, dy):
    """`dy` without the borders of paddings given at run time (the op's last input)."""
    x, paddings = op.inputs[0], op.inputs[-1]
    return slice(dy, reshape(paddings[:, :1], [-1]), shape(x, paddings.dtype))


@register_gradient("PadV2")
def _pad_grad(op, dy):
    x = op.inputs[0]
    run_time = len(op.inputs) == 3
    dx = _run_time_unpad(op, dy) if run_time else _unpad(dy, op.attrs["paddings"])
    # The padding value fills every position that is not a copy of `x`.
    reduce_sum = late.reduction_ops.reduce_sum
    return (dx, math_ops.subtract(reduce_sum(dy), reduce_sum(dx))) + (None,) * run_time


def _unpad(dy, paddings):
    """`dy` without its padded borders; static bounds, so that dimensions unknown while
    tracing (a batch) stay so."""
    return dy[tuple(builtins.slice(b, -a if a else None) for b, a in paddings)]


@register_gradient("Pad")
def _zero_pad_grad(op, dy):
    if len(op.inputs) == 2:
        return _run_time_unpad(op, dy), None
    return _unpad(dy, op.attrs["paddings"])


@register_gradient("SelectV2")
def _select_grad(op, dy):
    condition = op.inputs[0]
    zeros = zeros_like(dy)
    return None, where(condition, dy, zeros), where(condition, zeros, dy)


@register_gradient("Select")
def _select_v1_grad(op, dy):
    condition = op.inputs[0]
    zeros = zeros_like(dy)
    return None, select_v1(condition, dy, zeros), select_v1(condition, zeros, dy)


def _axis_part(x, axis, start, stop):
    """`x[start:stop]` along `axis` (`start` and `stop` ints, or scalar tensors)."""
    begin = [0] * x.shape.rank
    size = [-1] * x.shape.rank
    begin[axis], size[axis] = start, stop - start
    return slice(x, _ints_or_stacked(begin), _ints_or_stacked(size))


def _axis_pad(x, axis, before, after):
    if isinstance(before, Tensor) or isinstance(after, Tensor):  # amounts known at run time
        def zeros_of(n):
            dims = tensor_scatter_nd_update(shape(x), [[axis]], reshape(
                cast_ops.cast(n, _d.int32), [1]))
            return fill(dims, cast_ops.cast(0, x.dtype))
        return concat([zeros_of(before), x, zeros_of(after)], axis)
    paddings = [[0, 0]] * x.shape.rank
    paddings[axis] = [before, after]
    return pad(x, paddings)


def _ints_or_stacked(values):
    """A list of ints as it is; one holding scalar tensors (sizes known only when the graph
    runs) stacked into an int32 tensor."""
    if not any(isinstance(v, Tensor) for v in values):
        return values
    return stack([cast_ops.cast(v, _d.int32) if isinstance(v, Tensor) else v for v in values])


@register_gradient("MirrorPad")
def _mirror_pad_grad(op, dy):
    if len(op.inputs) == 2:  # paddings known at run time: dy summed by the element it copies
        x = op.inputs[0]
        copied = dispatch(_MIRROR_PAD, (reshape(range(size(x)), shape(x)), op.inputs[1]),
                          {"mode": op.attrs["mode"]})
        return reshape(late.reduction_ops.unsorted_segment_sum(
            reshape(dy, [-1]), reshape(copied, [-1]), size(x)), shape(x)), None
    # Along each axis the mirrored borders fold back, reversed, onto the values they copy.
    offset = 1 if op.attrs["mode"] == "REFLECT" else 0
    x, paddings = op.inputs[0], op.attrs["paddings"]
    dims = x.shape.as_list() if x.shape.rank is not None else [None] * len(paddings)
    for axis, ((before, after), n) in enumerate(zip(paddings, dims)):
        if not before and not after:
            continue
        if n is None:  # known when the graph runs
            n = shape(x)[axis]
        middle = _axis_part(dy, axis, before, before + n)
        if before:
            left = reverse(_axis_part(dy, axis, 0, before), [axis])
            middle = math_ops.add(middle, _axis_pad(left, axis, offset, n - offset - before))
        if after:
            right = reverse(_axis_part(dy, axis, before + n, before + n + after), [axis])
            middle = math_ops.add(middle, _axis_pad(right, axis, n - offset - after, offset))
        dy = middle
    return dy


def _with_batch_coords(indices, batch_dims):
    """Index vectors (last axis of `indices`) prefixed with their first `batch_dims` coordinates.

    This turns a batched gather's indices into full coordinates for `scatter_nd`.
    """
    if not batch_dims:
        return indices
    dims = indices.shape.as_list() if indices.shape.rank is not None else None
    if dims is None or None in dims[:-1]:  # shaped at run time: each batch axis's positions
        lead = shape(indices, indices.dtype)[:-1]
        rank = size(lead)
        coords = [broadcast_to(reshape(range(lead[j]), concat(
            [ones([j], _d.int32), [-1], ones(expand_dims(rank - j - 1, 0), _d.int32)], 0)), lead)
            for j in builtins.range(batch_dims)]
        return concat([stack(coords, -1), indices], -1)
    batch = dims[:batch_dims]
    coords = np.moveaxis(np.indices(batch), 0, -1)
    coords = coords.reshape(batch + [1] * (len(dims) - batch_dims - 1) + [batch_dims])
    coords = np.broadcast_to(coords, dims[:-1] + [batch_dims])
    return concat([from_array(coords.astype(indices.dtype.as_numpy_dtype)), indices], -1)


def _moved(x, source, count, destination):
    """`x` with its `count` dims from `source` moved to start at `destination`."""
    order = [i for i in builtins.range(x.shape.rank) if not source <= i < source + count]
    block = list(builtins.range(source, source + count))
    order[destination:destination] = block
    return x if order == sorted(order) else transpose(x, order)


@register_gradient("GatherV2")
def _gather_grad(op, dy):
    # Scatter `dy` back: the gathered axis is moved to follow the batch dims, where
    # scatter_nd can address it, and moved back afterwards.
    params, indices = op.inputs[:2]
    if len(op.inputs) == 3:  # an axis given at run time
        axis = reshape(cast_ops.cast(op.inputs[2], _d.int32), [])
        return (_gather_grad_unknown_rank(params, indices, dy, axis, op.attrs["batch_dims"]),
                None, None)
    p = known_shape(params)  # a Tensor where a static dim is unknown
    rank = params.shape.rank
    batch_dims = _axis_in(op.attrs["batch_dims"], indices.shape.rank)
    if (rank is None or indices.shape.rank is None) and (op.attrs["axis"] != 0
                                                         or batch_dims != 0):
        return _gather_grad_unknown_rank(params, indices, dy, op.attrs["axis"],
                                         op.attrs["batch_dims"]), None
    given, axis = op.attrs["axis"], op.attrs["axis"] % rank if rank is not None else \
        op.attrs["axis"]
    if given == 0 and batch_dims == 0:  # rows of params, the axis given as 0: sparse, as TF's
        rows = [-1] + p[1:] if isinstance(p, list) else concat([[-1], p[1:]], 0)
        return IndexedSlices(reshape(dy, rows), reshape(indices, [-1]), shape(params)), None
    if axis < batch_dims:
        batch_dims = 0
    outer = axis - batch_dims
    updates = _moved(dy, batch_dims + outer, indices.shape.rank - batch_dims, batch_dims)
    coords = _with_batch_coords(expand_dims(indices, -1), batch_dims)
    order = [*builtins.range(batch_dims), axis, *builtins.range(batch_dims, axis),
             *builtins.range(axis + 1, rank)]
    moved_shape = [p[i] for i in order] if isinstance(p, list) else gather(p, order)
    return _moved(scatter_nd(coords, updates, moved_shape), batch_dims, 1, axis), None


def _gather_grad_unknown_rank(params, indices, dy, axis, batch_dims):
    """The gather's gradient where a rank is known only at run time: dy as (batch, outer,
    index, inner) blocks, the index positions of each batch summed into its params' rows
    (the moves are transposes of rank 4, which need no rank)."""
    prod = late.reduction_ops.reduce_prod
    dims = shape(params)
    rank = size(dims)
    if batch_dims < 0:
        batch_dims = math_ops.add(batch_dims, size(shape(indices)))
    axis = math_ops.floormod(axis, rank)
    position = range(rank)
    batch = prod(boolean_mask(dims, math_ops.less(position, batch_dims)))
    outer = prod(boolean_mask(dims, math_ops.logical_and(
        math_ops.greater_equal(position, batch_dims), math_ops.less(position, axis))))
    inner = prod(boolean_mask(dims, math_ops.greater(position, axis)))
    rows = gather(dims, axis)
    flat = reshape(indices, stack([batch, -1]))  # (batch, index)
    count = shape(flat)[1]
    blocks = transpose(reshape(dy, stack([batch, outer, count, inner])), [0, 2, 1, 3])
    starts = cast_ops.cast(math_ops.multiply(range(batch), rows), indices.dtype)
    ids = math_ops.add(flat, expand_dims(starts, 1))
    summed = late.reduction_ops.unsorted_segment_sum(
        reshape(blocks, stack([-1, outer, inner])), reshape(ids, [-1]),
        math_ops.multiply(batch, rows))
    return reshape(transpose(reshape(summed, stack([batch, rows, outer, inner])), [0, 2, 1, 3]),
                   dims)


@register_gradient("GatherNd")
def _gather_nd_grad(op, dy):
    params, indices = op.inputs
    if (op.attrs["batch_dims"] == 0 and indices.shape.rank == 2
            and indices.shape[-1] == 1):  # whole rows: a sparse gradient, as TF's
        return IndexedSlices(dy, squeeze(indices, [-1]), shape(params)), None
    coords = _with_batch_coords(indices, op.attrs["batch_dims"])
    return scatter_nd(coords, dy, known_shape(params)), None


@register_gradient("ScatterNd")
def _scatter_nd_grad(op, dy):
    return None, gather_nd(dy, op.inputs[0])


@register_gradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, dy):
    return dy, None, gather_nd(dy, op.inputs[1])


@register_gradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, dy):
    return dy, None, math_ops.negative(gather_nd(dy, op.inputs[1]))


@register_gradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, dy):
    _, indices, updates = op.inputs
    return tensor_scatter_nd_update(dy, indices, zeros_like(updates)), None, \
        gather_nd(dy, indices)


def _tensor_scatter_extreme_grad(op, dy):
    # Like Max/Min: the gradient goes to the values equal to the result, shared among ties.
    tensor, indices, updates = op.inputs
    out = op.outputs
    tensor_hits = cast_ops.cast(math_ops.equal(tensor, out), dy.dtype)
    update_hits = cast_ops.cast(math_ops.equal(updates, gather_nd(out, indices)), dy.dtype)
    dims = tensor.shape.as_list() if tensor.shape.is_fully_defined() else shape(tensor)
    count = math_ops.add(tensor_hits, scatter_nd(indices, update_hits, dims))
    share = math_ops.truediv(dy, count)
    return (math_ops.multiply(share, tensor_hits), None,
            math_ops.multiply(gather_nd(share, indices), update_hits))


register_gradient("TensorScatterMax")(_tensor_scatter_extreme_grad)
register_gradient("TensorScatterMin")(_tensor_scatter_extreme_grad)


def _ellipsis_dims(subscript, x):
    """The dims of `x` that the ``...`` of its `subscript` covers (None: `x`'s rank is
    unknown while tracing, and so is their number)."""
    if "..." not in subscript:
        return []
    if x.shape.rank is None:
        return None
    start = subscript.index("...")
    return x.shape.as_list()[start:start + x.shape.rank - len(subscript) + 3]


def _einsum_label_sizes(subscripts, inputs):
    """Each label's size: an int, or (unknown while tracing) a scalar tensor read from the
    shape of an operand that has it."""
    sizes = {}
    for sub, x in zip(subscripts, inputs):
        labels = sub.replace("...", "")
        before = sub.index("...") if "..." in sub else len(labels)
        if x.shape.rank is None:  # the labels after an ellipsis counted from the end
            dims = [None] * len(labels)
            axes = list(builtins.range(before)) + list(builtins.range(
                before - len(labels), 0))
        else:
            dims = x.shape.as_list()
            axes = list(builtins.range(before)) + list(builtins.range(
                len(dims) - (len(labels) - before), len(dims)))
        for label, axis in zip(labels, axes):
            if sizes.get(label) is None:
                sizes[label] = dims[axis]
            if sizes[label] is None and label not in sizes.get("", {}):
                sizes.setdefault("", {})[label] = shape(x)[axis]
    found = sizes.pop("", {})
    return {label: found[label] if size is None else size for label, size in sizes.items()}


def _einsum_ellipsis(subscripts, inputs, parts):
    """The broadcast shape of the operands' ellipsis dims: a list of ints, or a shape tensor
    where a dim is unknown while tracing."""
    if all(p is not None and None not in p for p in parts):
        return list(np.broadcast_shapes(*map(tuple, parts)))
    found = None
    for sub, x, part in zip(subscripts, inputs, parts):
        if "..." in sub:
            start = sub.index("...")
            dims = (shape(x)[start:start + len(part)] if part is not None else
                    shape(x)[start:size(shape(x)) - (len(sub) - 3 - start)])
            found = dims if found is None else broadcast_dynamic_shape(found, dims)
    return found


def _einsum_vjp(dy, output, others, subscript, sizes, ellipsis, unused):
    """The gradient of one einsum operand: an einsum of `dy` with the `others`
    ((subscript, tensor) pairs) back to `subscript`.

    Labels that einsum cannot output directly are made by extra operands: a
    repeated label (a diagonal) by an identity matrix linking it to a fresh
    label, and a label or ellipsis summed away by ones that broadcast it back.
    """
    operands = [(output, dy)] + others
    target = []
    for label in subscript.replace("...", "."):
        if label in target and label != ".":
            fresh = next(unused)
            operands.append((label + fresh, eye(sizes[label], dtype=dy.dtype)))  # int or tensor
            label = fresh
        target.append(label)
    present = set("".join(s for s, _ in operands))
    for label in dict.fromkeys(target):
        if label == "." and "..." not in output:
            operands.append(("...", ones(ellipsis, dy.dtype)))
        elif label != "." and label not in present:
            operands.append((label, ones(reshape(sizes[label], [1]) if isinstance(
                sizes[label], Tensor) else [sizes[label]], dy.dtype)))
    # an ellipsis of the operands that `subscript` lacks is kept, then summed here (TF's
    # einsum does not sum it away)
    summed = "." not in target and any("..." in s for s, _ in operands)
    equation = ",".join(s for s, _ in operands) + "->" + "..." * summed + "".join(
        target).replace(".", "...")
    grad = einsum(equation, *[t for _, t in operands])
    if summed:
        lead = (builtins.range(grad.shape.rank - len(target)) if grad.shape.rank is not None
                else range(rank(grad) - len(target)))
        grad = late.reduction_ops.reduce_sum(grad, lead)
    return grad


def _einsum_ellipsis_back(grad, x, start, labels, unused):
    """`grad` of operand `x` (its subscript: `start` labels, an ellipsis, then the rest of
    `labels`), made with the ellipsis leading, as broadcast against the other operands,
    where ranks are known at run time only: summed down to `x`'s own ellipsis dims, which
    then move back after its first labels."""
    dims = shape(x)
    rank, after = size(dims), len(labels) - start
    own = concat([dims[start:rank - after], dims[:start], dims[rank - after:]], 0)
    axes, _ = broadcast_gradient_args(own, shape(grad))
    grad = reshape(late.reduction_ops.reduce_sum(grad, axes, keepdims=True), own)
    fresh = "".join(next(unused) for _ in labels)
    return einsum(f"...{fresh}->{fresh[:start]}...{fresh[start:]}", grad)


@register_gradient("Einsum")
def _einsum_grad(op, dy):
    equation = op.attrs["equation"]
    subscripts, output = _einsum_parts(equation)
    sizes = _einsum_label_sizes(subscripts, op.inputs)
    parts = [_ellipsis_dims(s, t) for s, t in zip(subscripts, op.inputs)]
    ellipsis = _einsum_ellipsis(subscripts, op.inputs, parts)
    ellipsis_rank = None if None in parts else max(len(p) for p in parts)
    inputs = [math_ops.conj(t) if dy.dtype.is_complex else t for t in op.inputs]
    grads = []
    for i, (subscript, x) in enumerate(zip(subscripts, op.inputs)):
        others = [(s, t) for j, (s, t) in enumerate(zip(subscripts, inputs)) if j != i]
        unused = (c for c in _LETTERS if c not in equation)
        grad = _einsum_vjp(dy, output, others, subscript, sizes, ellipsis, unused)
        # The ellipsis came back broadcast: sum it down to this operand's own dims.
        if "..." in subscript and ellipsis_rank is None:  # ranks known at run time only
            start = subscript.index("...")
            if start:  # made with the ellipsis leading, summed down, then moved back
                labels = subscript.replace("...", "")
                grads.append(_einsum_ellipsis_back(_einsum_vjp(
                    dy, output, others, "..." + labels, sizes, ellipsis, unused), x, start,
                    labels, unused))
                continue
            grads.append(late.reduction_ops.unbroadcast(grad, x))  # (leading dims summed)
            continue
        if "..." in subscript:
            start, lead = subscript.index("..."), ellipsis_rank - len(parts[i])
            if isinstance(ellipsis, Tensor) or not x.shape.is_fully_defined():
                # dims unknown while tracing: the extra leading ones summed now, those
                # broadcast from 1 found when the graph runs
                if lead:
                    grad = late.reduction_ops.reduce_sum(
                        grad, list(builtins.range(start, start + lead)))
                grad = late.reduction_ops.unbroadcast(grad, x)
                grads.append(grad)
                continue
            axes = list(builtins.range(start, start + lead)) + [
                start + lead + k for k, d in enumerate(parts[i])
                if d == 1 and ellipsis[lead + k] != 1]
            if axes:
                grad = reshape(late.reduction_ops.reduce_sum(grad, axes), x.shape.as_list())
        grads.append(grad)
    return grads


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _BROADCAST_ARGS, _CONCAT, _CONJUGATE_TRANSPOSE, _EINSUM,
                      _FILL, _GATHER_ND, _GATHER, _LINSPACE, _LOWER_BOUND,
                      _MIRROR_PAD, _ONE_HOT, _PAD, _RANGE, _RANK, _ROLL,
                      _SCATTER_ND, _SHAPE_N, _SIZE, _SLICE, _SPLIT, _SPLIT_V, _TILE, _UNPACK, _UPPER_BOUND, _WHERE)


def _element_shapes(args):
    """The shapes of one element of each of `args` ((array, batched) pairs)."""
    return [a.shape[1:] if b else np.shape(a) for a, b in args]


def _pack_batched(op, args):
    """Batching: the elements' values stacked one axis further along (None for values of
    differing shapes: each element raises TF's error)."""
    shapes = _element_shapes(args)
    if any(s != shapes[0] for s in shapes):
        return None
    n = next(len(a) for a, b in args if b)
    arrays = [a if b else np.broadcast_to(a, (n,) + np.shape(a)) for a, b in args]
    axis = op.attrs["axis"]
    return [np.stack(arrays, axis + 1 if axis >= 0 else axis)]


def _reverse_batched(op, args):
    """Batching: the same axes reversed, one further along (None for axes out of range)."""
    (x, _), = args
    rank, axis = x.ndim - 1, op.attrs["axis"]
    if rank == 0 or not axis:
        return [x]
    if any(not -rank <= a < rank for a in axis) or len({a % rank for a in axis}) < len(axis):
        return None
    return [_flipped(x, tuple(a % rank + 1 for a in axis))]


def _select_batched(op, args):
    """Batching: the elementwise choice, the batched operands' batch axis leading the
    broadcast shape (an element's one condition choosing all its values: a random flip)."""
    rank = max(len(s) for s in _element_shapes(args))
    condition, x, y = aligned(args, rank)
    if args[0][1] and args[1][1] and args[2][1] and condition.size == len(condition) \
            and x.shape == y.shape:
        # one choice per element: whole elements copied (where's broadcasting is ~3x slower)
        chosen = np.flatnonzero(condition)
        out = np.array(y)
        out[chosen] = x[chosen]
        return [out]
    return [np.where(condition, x, y)]


def _shape_batched(op, args):
    """Batching: the elements' shape (one: they stack), for each."""
    (x, _), = args
    shape = np.asarray(x.shape[1:], op.attrs["out_type"].as_numpy_dtype)
    return [np.broadcast_to(shape, (len(x),) + shape.shape)]


def _expand_dims_batched(op, args):
    """Batching: the new dim one further along (an axis given as an input, or out of
    range: None)."""
    if len(args) != 1:
        return None
    (x, _), = args
    rank, axis = x.ndim - 1, op.attrs["axis"]
    if not -rank - 1 <= axis <= rank:
        return None
    return [np.expand_dims(x, axis % (rank + 1) + 1)]


def _squeeze_batched(op, args):
    """Batching: the elements' size-1 dims (or those named) dropped (dims that are not 1:
    None)."""
    (x, _), = args
    dims, named = x.shape[1:], op.attrs["squeeze_dims"]
    if not named:
        axes = [i for i, d in enumerate(dims) if d == 1]
    elif all(-len(dims) <= a < len(dims) for a in named):
        axes = [a % len(dims) for a in named]
    else:
        return None
    if any(dims[a] != 1 for a in axes):
        return None
    return [np.squeeze(x, tuple(a + 1 for a in axes))]


batching_rules[_EXPAND_DIMS] = _expand_dims_batched
batching_rules[_SQUEEZE] = _squeeze_batched
batching_rules[_SHAPE] = _shape_batched
batching_rules[_PACK] = _pack_batched
batching_rules[_REVERSE] = _reverse_batched
batching_rules[_SELECT] = _select_batched


# -- space to batch and back ----------------------------------------------------------------

def _constant_ints(value, what, op_name):
    known = get_static_value(convert_to_tensor(value)) if not isinstance(value, (list, tuple)) \
        else np.asarray(value)
    if known is None:
        raise errors.op_error(errors.UnimplementedError, op_name,
                              f"{what} must be known when the function is traced")
    return np.asarray(known, np.int64)


def _space_params(x, given, block, pads, pads_name):
    """The block shape and paddings (or crops) of a space-to-batch op as lists of ints,
    checked as TF's kernel checks them: attrs, or arrays `given` at run time in place of
    those the op lacks (in that order)."""
    block, pads = (np.asarray(v, np.int64) for v in _given(given, block, pads))
    if pads.shape == (0,):  # (an attr of no pairs)
        pads = pads.reshape(0, 2)
    if block.ndim != 1:
        raise _bad(f"block_shape rank should be 1 instead of {block.ndim}")
    m = block.size
    if x.ndim < 1 + m:
        raise _bad(f"input rank should be >= {1 + m} instead of {x.ndim}")
    if pads.shape != (m, 2):
        raise _bad(f"{pads_name} should have shape [{m}, 2] instead of "
                   f"{shape_text(pads.shape)}")
    return block.tolist(), pads.tolist()


def _space_to_batch_kernel(xp, x, *given, block_shape=None, paddings=None):
    block, pads = _space_params(x, given, block_shape, paddings, "paddings")
    for i, b in enumerate(block):
        if b < 1:
            raise _bad(f"All values in block_shape must be positive, got value, {b} at index "
                       f"{i}.")
    if any(p < 0 for pair in pads for p in pair):
        raise _bad("Paddings must be non-negative")
    m, rest = len(block), x.shape[1 + len(block):]
    padded = xp.pad(x, [(0, 0)] + pads + [(0, 0)] * len(rest))
    split = [x.shape[0]]
    for i, b in enumerate(block):
        if padded.shape[1 + i] % b:
            raise _bad(f"padded_shape[{i}]={padded.shape[1 + i]} is not divisible by "
                       f"block_shape[{i}]={b}")
        split += [padded.shape[1 + i] // b, b]
    steps = builtins.range(m)
    perm = [2 + 2 * i for i in steps] + [0] + [1 + 2 * i for i in steps]
    moved = padded.reshape(split + list(rest)).transpose(
        perm + list(builtins.range(1 + 2 * m, 1 + 2 * m + len(rest))))
    return moved.reshape([x.shape[0] * math.prod(block)] + split[1::2] + list(rest))


def _batch_to_space_kernel(xp, x, *given, block_shape=None, crops=None):
    block, crops = _space_params(x, given, block_shape, crops, "crops")
    size = math.prod(block)
    if size < 1:
        raise _bad(f"Product of block sizes must be positive, got {size}")
    if any(c < 0 for pair in crops for c in pair):
        raise _bad("Crops must be non-negative")
    if x.shape[0] % size:
        raise _bad(f"Input batch dimension ({x.shape[0]}) is not divisible by product of "
                   f"block sizes ({size})")
    m, batch, rest = len(block), x.shape[0] // size, x.shape[1 + len(block):]
    for i, (b, (start, end)) in enumerate(zip(block, crops)):
        if x.shape[1 + i] * b - start - end < 0:
            raise _bad(f"cropped_shape[{i}]={x.shape[1 + i] * b - start - end} must be "
                       f"non-negative")
    perm = [m]
    for i in builtins.range(m):
        perm += [m + 1 + i, i]
    moved = x.reshape(block + [batch] + list(x.shape[1:])).transpose(
        perm + list(builtins.range(2 * m + 1, 2 * m + 1 + len(rest))))
    joined = moved.reshape([batch] + [x.shape[1 + i] * b for i, b in enumerate(block)]
                           + list(rest))
    index = tuple(builtins.slice(start, joined.shape[1 + i] - end)
                  for i, (start, end) in enumerate(crops))
    return joined[(builtins.slice(None),) + index].copy()


def _space_rule_params(op_name, pads_name, x, given, block, pads):
    """A space-to-batch op's static block shape and paddings (None where run time alone
    knows them, as a list or per value), with TF's graph-time errors; also the shapes
    and computed inputs its errors show."""
    block_t, pads_t = _given(given, block, pads)
    block_t = None if block is not None else block_t
    pads_t = None if pads is not None else pads_t
    block_shape = TensorShape(np.shape(block)) if block_t is None else block_t.shape
    pads_shape = TensorShape(np.shape(pads)) if pads_t is None else pads_t.shape
    shapes = [x.shape, block_shape, pads_shape]

    def fail(sentence, with_values=True):
        computed = []  # (the values TF's shape function read: none when it fails on shapes)
        if with_values and block_t is None:
            computed.append((1, " ".join(map(str, block))))
        if with_values and pads_t is None:
            computed.append((2, "".join(f"[{a} {b}]" for a, b in pads)))
        return shape_rules.shape_error(op_name, sentence, shapes, computed=computed or None)
    if block_shape.rank not in (None, 1):
        raise fail("block_shape must have rank 1.", False)
    m = block_shape[0] if block_shape.rank == 1 else None
    if m is None:
        raise fail("block_shape must have known size.", False)
    if pads_shape.rank not in (None, 2):
        raise fail(f"Shapes must be equal rank, but are {pads_shape.rank} and 2", False)
    if pads_shape.rank == 2:
        for i, (d, want) in enumerate(zip(pads_shape.as_list(), (m, 2))):
            if d is not None and d != want:
                raise fail(f"Dimension {i} in both shapes must be equal, but are {d} and "
                           f"{want}. Shapes are {shape_text(pads_shape.as_list())} and "
                           f"[{m},2].", False)
    if x.shape.rank is not None and x.shape.rank < 1 + m:
        raise fail(f"Shape must be at least rank {1 + m} but is rank {x.shape.rank}", False)
    if block is not None and any(b < 1 for b in block):
        raise fail("block_shape must be positive")
    if pads is not None and any(p < 0 for pair in pads for p in pair):
        raise fail(f"{pads_name} cannot be negative")
    return m, block, pads, fail


def _space_to_batch_rule(x, *given, block_shape=None, paddings=None):
    return _space_shape("SpaceToBatchND", "paddings", x, given, block_shape, paddings,
                        _to_batch_dims)


def _batch_to_space_rule(x, *given, block_shape=None, crops=None):
    return _space_shape("BatchToSpaceND", "crops", x, given, block_shape, crops,
                        _to_space_dims)


def _space_shape(op_name, pads_name, x, given, block, pads, dims_of):
    """A space-to-batch op's static shape: its batch and spatial dims by `dims_of`, the
    rest as they are."""
    m, block, pads, fail = _space_rule_params(op_name, pads_name, x, given, block, pads)
    if x.shape.rank is None:
        return unknown_shape(), x.dtype
    dims = x.shape.as_list()
    batch, spatial = dims_of(dims, m, block, pads, fail)
    return TensorShape([batch] + spatial + dims[1 + m:]), x.dtype


def _to_batch_dims(dims, m, block, pads, fail):
    batch = None if block is None or dims[0] is None else dims[0] * math.prod(block)
    spatial = [None] * m
    if block is not None and pads is not None:
        for i, (b, (start, end)) in enumerate(zip(block, pads)):
            d = dims[1 + i]
            if d is not None:
                if (d + start + end) % b:
                    raise fail(f"Dimension size must be evenly divisible by {b} but is "
                               f"{d + start + end}")
                spatial[i] = (d + start + end) // b
    return batch, spatial


def _to_space_dims(dims, m, block, crops, fail):
    batch, spatial = None, [None] * m
    if block is not None:
        batch = dims[0]
        for b in block:  # (TF divides by each size in turn)
            if batch is not None:
                if batch % b:
                    raise fail(f"Dimension size must be evenly divisible by {b} but is "
                               f"{batch}")
                batch //= b
        if crops is not None:
            for i, (b, (start, end)) in enumerate(zip(block, crops)):
                d = None if dims[1 + i] is None else dims[1 + i] * b
                for c in (start, end):
                    if d is not None:
                        if d - c < 0:
                            raise fail(f"Negative dimension size caused by subtracting {c} "
                                       f"from {d}")
                        d -= c
                spatial[i] = d
    return batch, spatial


_SPACE_TO_BATCH = register("SpaceToBatchND", _space_to_batch_kernel, _space_to_batch_rule,
                           dtypes=_d.ALL, kernels=REAL)
_BATCH_TO_SPACE = register("BatchToSpaceND", _batch_to_space_kernel, _batch_to_space_rule,
                           dtypes=_d.ALL, kernels=REAL)
_BLOCK_SHAPE = AttrInput("block_shape", type_attr="Tblock_shape", runtime=True)
tf_nodes[_SPACE_TO_BATCH] = NodeForm(inputs=(0, _BLOCK_SHAPE, AttrInput(
    "paddings", type_attr="Tpaddings", runtime=True)))
tf_args[_SPACE_TO_BATCH] = ("input", "block_shape", "paddings")
tf_nodes[_BATCH_TO_SPACE] = NodeForm(inputs=(0, _BLOCK_SHAPE, AttrInput(
    "crops", type_attr="Tcrops", runtime=True)))
tf_args[_BATCH_TO_SPACE] = ("input", "block_shape", "crops")
batching_rules.assign(PER_ELEMENT, _SPACE_TO_BATCH, _BATCH_TO_SPACE)


def _nested_tuple(value):
    """`value`, nested lists of ints, as nested tuples (an attr's hashable form)."""
    return tuple(map(_nested_tuple, value)) if type(value) is list else value


def _space_op(op, input, block_shape, pads, pads_name, name):
    """`op` (SpaceToBatchND or BatchToSpaceND) of `input`: the block shape and paddings
    (crops) are its attrs where known when traced, else its inputs (int32 or int64)."""
    inputs, attrs = [as_tensor(input)], {}
    for attr, value, type_attr in (("block_shape", block_shape, "Tblock_shape"),
                                   (pads_name, pads, "T" + pads_name)):
        dynamic = run_time_tensor(value)
        if dynamic is None:
            attrs[attr] = _nested_tuple(_constant_ints(value, attr, op.name).tolist())
        else:
            if dynamic.dtype not in (_d.int32, _d.int64):
                raise TypeError(f"Value passed to parameter '{attr}' has DataType "
                                f"{dynamic.dtype.name} not in list of allowed values: int32, "
                                f"int64")
            inputs.append(dynamic)
    return dispatch(op, tuple(inputs), attrs, name)


@export("space_to_batch_nd", "space_to_batch", "nn.space_to_batch", "compat.v1.space_to_batch_nd",
        "compat.v1.manip.space_to_batch_nd")
def space_to_batch_nd(input, block_shape, paddings, name=None):
    """Zero-pads the M spatial dims after the batch by `paddings`, then moves blocks of
    `block_shape` into the batch: [batch * prod(block)] + [padded / block] + the rest.

    >>> x = tf.reshape(tf.range(4.0), [1, 2, 2, 1])
    >>> tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]])[:, 0, 0, 0]
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([0., 1., 2., 3.], dtype=float32)>
    """
    return _space_op(_SPACE_TO_BATCH, input, block_shape, paddings, "paddings", name)


@export("batch_to_space", "compat.v1.batch_to_space_nd", "compat.v1.manip.batch_to_space_nd")
def batch_to_space_nd(input, block_shape, crops, name=None):
    """The inverse of `space_to_batch_nd`: blocks of the batch back into the M spatial dims,
    then `crops` cut from their starts and ends.

    >>> x = tf.reshape(tf.range(4.0), [4, 1, 1, 1])
    >>> tf.batch_to_space(x, [2, 2], [[0, 0], [0, 0]])[0, :, :, 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0., 1.],
           [2., 3.]], dtype=float32)>
    """
    if isinstance(block_shape, int):  # (TF 1's form: the size of two spatial dims)
        block_shape = (block_shape, block_shape)
    return _space_op(_BATCH_TO_SPACE, input, block_shape, crops, "crops", name)


def _v1_block(block_size, block_shape):
    """TF 1's square block of `block_size` (or its other name `block_shape`) for 4-D input."""
    if block_size is not None and block_shape is not None:
        raise ValueError("Cannot specify both 'block_shape' and 'block_size'")
    size = block_size if block_shape is None else block_shape
    return np.array([size, size], np.int64)


def _rank4(result):
    result.set_shape(result.shape.with_rank(4))
    return result


@export("compat.v1.space_to_batch", "compat.v1.nn.space_to_batch")
def space_to_batch_v1(input, paddings, block_size=None, name=None, block_shape=None):
    """TF 1's space_to_batch: `space_to_batch_nd` of a 4-D `input` by square blocks.

    >>> tf.compat.v1.space_to_batch(tf.ones([1, 4, 4, 1]), [[0, 0], [0, 0]], 2).shape
    TensorShape([4, 2, 2, 1])
    """
    block = _v1_block(block_size, block_shape)
    return _rank4(space_to_batch_nd(input, block, paddings, name))


@export("compat.v1.batch_to_space")
def batch_to_space_v1(input, crops, block_size, name=None, block_shape=None):
    """TF 1's batch_to_space: `batch_to_space` of a 4-D `input` by square blocks.

    >>> tf.compat.v1.batch_to_space(tf.ones([4, 1, 1, 1]), [[0, 0], [0, 0]], 2).shape
    TensorShape([1, 2, 2, 1])
    """
    block = _v1_block(block_size, block_shape)
    return _rank4(batch_to_space_nd(input, block, crops, name))


def _space_args(op, pads_name):
    """A space-to-batch op's block shape and paddings (crops): attrs or run-time inputs."""
    return _given(op.inputs[1:], *(op.attrs.get(k) for k in ("block_shape", pads_name)))


@register_gradient("SpaceToBatchND")
def _space_to_batch_grad(op, dy):
    return (batch_to_space_nd(dy, *_space_args(op, "paddings")),) + \
        (None,) * (len(op.inputs) - 1)


@register_gradient("BatchToSpaceND")
def _batch_to_space_grad(op, dy):
    return (space_to_batch_nd(dy, *_space_args(op, "crops")),) + (None,) * (len(op.inputs) - 1)


@export("required_space_to_batch_paddings")
def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops) making `input_shape` plus `base_paddings` divisible by
    `block_shape`, as `space_to_batch_nd` and `batch_to_space` take them (int32).

    >>> tf.required_space_to_batch_paddings([5, 7], [2, 3])[0]
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[0, 1],
           [0, 2]], dtype=int32)>
    """
    block = np.asarray(_constant_ints(block_shape, "block_shape", "Pad")).reshape(-1)
    base = np.zeros((block.size, 2), np.int64) if base_paddings is None else \
        _constant_ints(base_paddings, "base_paddings", "Pad")
    if isinstance(input_shape, (list, tuple)) and any(isinstance(v, Tensor) for v in input_shape):
        input_shape = stack([cast_ops.cast(convert_to_tensor(v), _d.int32) for v in input_shape])
    known = get_static_value(convert_to_tensor(input_shape))
    if known is None:  # (sizes known at run time only: the same arithmetic on tensors)
        sizes = reshape(cast_ops.cast(input_shape, _d.int32), [-1])
        start, after, block = (constant(v.astype(np.int32)) for v in (base[:, 0], base[:, 1],
                                                                    block))
        end = after + (block - (sizes + start + after) % block) % block
        return stack([start, end], 1), stack([zeros_like(start), end - after], 1)
    sizes = np.asarray(known, np.int64).reshape(-1)
    start = base[:, 0]
    full = sizes + base[:, 0] + base[:, 1]
    end = base[:, 1] + (block - full % block) % block
    paddings = np.stack([start, end], 1).astype(np.int32)
    crops = np.stack([np.zeros_like(start), end - base[:, 1]], 1).astype(np.int32)
    return convert_to_tensor(paddings), convert_to_tensor(crops)
