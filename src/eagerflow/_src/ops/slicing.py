"""Tensor indexing: ``tensor[key]`` as TensorFlow does it, through one "StridedSlice" op.

A key is an int, a slice, ``...``, ``None`` (new axis), a scalar integer
tensor, or a tuple/list of those; a boolean tensor or array masks instead
(`boolean_mask`). NumPy-style lists of indices are not supported (use
`gather`). The key becomes the op's begin/end/strides and five bit masks, so
the op is one node in a graph and one step for a tape; the kernel turns
them back into a tuple of Python slices (cached) and indexes the array once.

>>> getitem(tf.constant([[1, 2, 3], [4, 5, 6]]), (1, slice(None, None, -1)))
<tf.Tensor: shape=(3,), dtype=int32, numpy=array([6, 5, 4], dtype=int32)>
"""
import functools
import numbers
import operator

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.convert import convert_to_tensor, get_static_value, is_tensor_like
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args, tf_defaults
from eagerflow._src.core.registry import (
    kernel_type_name, register, register_gradient, takes_narrow)
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import Dimension, TensorShape, unknown_shape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.ops import cast_ops, late
from eagerflow._src.ops.wrappers import as_tensor

_INDEX_DTYPES = (_d.int16, _d.int32, _d.int64)
_BAD_KEY = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
            "tf.int32/tf.int64 tensors are valid indices, got {!r}")


def _bad(message):
    return errors.InvalidArgumentError(None, None, message)


# -- the op ----------------------------------------------------------------------------------

_UNKNOWN = type("_Unknown", (), {"__repr__": lambda self: "?"})()  # a bound known at run time

@functools.lru_cache(maxsize=4096)
def _index_tuple(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                 shrink_axis_mask):
    """The NumPy index (ints, slices, None, one Ellipsis) that the op's attrs spell."""
    if not len(begin) == len(end) == len(strides):
        raise _bad(f"Expected begin, end, and strides to be 1D equal size tensors, but got "
                   f"shapes [{len(begin)}], [{len(end)}], and [{len(strides)}] instead.")
    if ellipsis_mask & (ellipsis_mask - 1):
        raise _bad("Multiple ellipses in slice spec not allowed")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if s == 0:
            raise _bad(f"strides[{i}] must be non-zero")
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            if s != 1 and s is not _UNKNOWN:
                raise _bad("only stride 1 allowed on non-range indexing.")
            index.append(b)
        else:
            index.append(slice(None if begin_mask & bit else b, None if end_mask & bit else e, s))
    if not ellipsis_mask:
        # Trailing dims are taken whole either way; with an Ellipsis NumPy always
        # returns an array (a view), never a NumPy scalar.
        index.append(Ellipsis)
    return tuple(index)


def _consumed(index):
    """How many input dims the entries of `index` other than None/Ellipsis take."""
    return sum(1 for item in index if item is not None and item is not Ellipsis)


def _too_many(rank):
    if rank == 0:
        return _bad("Attempting to slice scalar input.")
    return _bad(f"Index out of range using input dim {rank}; input has only {rank} dims")


def _walk(index, dims):
    """Yields (entry, input dim number) for each entry of `index`; Ellipsis spans its dims."""
    spanned = len(dims) - _consumed(index)
    if spanned < 0:
        raise _too_many(len(dims))
    dim = 0
    for item in index:
        yield item, dim
        if item is Ellipsis:
            dim += spanned
        elif item is not None:
            dim += 1


def _index_error(shape, index):
    """TF's error for `index` that NumPy refused on an array of `shape`."""
    for item, dim in _walk(index, shape):
        if isinstance(item, int) and not -shape[dim] <= item < shape[dim]:
            where = item + shape[dim] if item < 0 else item
            return _bad(f"slice index {where} of dimension {dim} out of bounds.")
    return _bad(f"Invalid index for shape {list(shape)}")


def _bounds_of(bounds, begin, end, strides):
    """begin/end/strides: the attrs, or the three run-time vectors when the op has them (a
    node read from TF's form has as inputs only those it lacks as attrs, in that order)."""
    if len(bounds) == 3:
        return tuple(tuple(b.tolist()) for b in bounds)
    found = iter(bounds)
    return tuple(tuple(next(found).tolist()) if v is None else v for v in (begin, end, strides))


def _strided_slice_kernel(xp, x, *bounds, begin=None, end=None, strides=None, begin_mask=0,
                          end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
    # bounds: begin/end/strides known only at run time (the attrs then hold None for those)
    begin, end, strides = _bounds_of(bounds, begin, end, strides)
    index = _index_tuple(begin, end, strides, begin_mask, end_mask, ellipsis_mask,
                         new_axis_mask, shrink_axis_mask)
    try:
        return x[index]
    except IndexError:
        raise _index_error(x.shape, index) from None


def _strided_slice_rule(x, *bounds, begin=None, end=None, strides=None, begin_mask=0,
                        end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
    if bounds:  # the attrs hold None for the entries known only at run time
        # As in TF, a vector with one such entry is unknown as a whole (masks still apply).
        vectors, found = [], iter(bounds if len(bounds) < 3 else ())
        for vector in (begin, end, strides):
            if vector is None:  # (read from TF's form: the vectors it lacks are its inputs)
                length = _length(next(found))
                if length is None:
                    return unknown_shape(), x.dtype
                vector = (None,) * length
            vectors.append(vector)
        begin, end, strides = ((_UNKNOWN,) * len(t) if None in t else t for t in vectors)
    index = _index_tuple(begin, end, strides, begin_mask, end_mask, ellipsis_mask,
                         new_axis_mask, shrink_axis_mask)
    if x.shape.rank is None:
        return unknown_shape(), x.dtype
    dims = x.shape.as_list()
    out = []
    for item, dim in _walk(index, dims):
        if item is Ellipsis:
            out.extend(dims[dim:dim + len(dims) - _consumed(index)])
        elif item is None:
            out.append(1)
        elif isinstance(item, slice):
            n = dims[dim]
            known = n is not None and _UNKNOWN not in (item.start, item.stop, item.step)
            out.append(len(range(*item.indices(n))) if known else None)
        elif item is _UNKNOWN:
            continue  # an index known at run time: the dimension goes either way
        elif dims[dim] is not None and not -dims[dim] <= item < dims[dim]:
            raise _index_error(dims, index)
    return TensorShape(out), x.dtype


def _length(vector):
    """The length of a bound vector given as an input; None when unknown."""
    return vector.shape[0] if vector.shape.rank == 1 else None


def _tf_bounds(attrs, inputs):
    """TF's form takes the bounds as inputs: the run-time vectors when the op has them (the
    attrs then only keep what tracing knew), else constants of the attrs."""
    if len(inputs) == 1:
        return attrs
    return {k: v for k, v in attrs.items() if k not in ("begin", "end", "strides")}


_STRIDED_SLICE = register("StridedSlice", _strided_slice_kernel, _strided_slice_rule, tied=(),
                          moves_elements=True)
tf_nodes[_STRIDED_SLICE] = NodeForm(inputs=(0, *(AttrInput(b, type_attr="Index", runtime=True)
                                                for b in ("begin", "end", "strides"))),
                                    rewrite=_tf_bounds)
takes_narrow(_d.FLOAT8, _STRIDED_SLICE)  # (TF has a kernel for float8, not for int4)


def _index_vector(value):
    """A begin/end/strides argument as a NumPy array; None while tracing when it is known
    only at run time (a Python list or constant is known: a Const while tracing)."""
    return get_static_value(as_tensor(value))


def _static_bounds(begin, end, strides):
    """begin/end/strides as equal-length tuples of ints, with TF's checks; None when one
    is known only at run time."""
    arrays = [_index_vector(begin), _index_vector(end)]
    if arrays[0] is None or arrays[1] is None:
        return None
    arrays.append(np.ones_like(arrays[0]) if strides is None else _index_vector(strides))
    if arrays[2] is None:
        return None
    if any(a.ndim != 1 for a in arrays) or len({a.shape for a in arrays}) != 1:
        shapes = [shape_text(a.shape) for a in arrays]
        raise errors.InvalidArgumentError(None, "StridedSlice", errors.eager_message(
            f"Expected begin, end, and strides to be 1D equal size tensors, but got shapes "
            f"{shapes[0]}, {shapes[1]}, and {shapes[2]} instead.", "StridedSlice", name=""))
    for a in arrays:
        if a.dtype.kind not in "iu":
            raise errors.op_error(errors.InvalidArgumentError, "StridedSlice",
                                  f"Value for attr 'Index' of "
                                  f"{kernel_type_name(_d.from_numpy(a.dtype))} is not in the "
                                  f"list of allowed values: int16, int32, int64")
    return tuple(tuple(a.tolist()) for a in arrays)


@export("strided_slice")
def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """The strided slice of `input_` from `begin` to `end` (exclusive) by `strides`.

    Bit i of a mask applies to entry i: `begin_mask`/`end_mask` ignore the
    bound (take the whole range), `ellipsis_mask` is ``...``, `new_axis_mask`
    inserts a dimension of 1, and `shrink_axis_mask` takes index `begin[i]`
    and drops the dimension. `var` is accepted for compatibility and unused.

    >>> tf.strided_slice([[1, 2, 3], [4, 5, 6]], [0, 2], [2, 0], [1, -1])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[3, 2],
           [6, 5]], dtype=int32)>
    """
    masks = {"begin_mask": int(begin_mask), "end_mask": int(end_mask),
             "ellipsis_mask": int(ellipsis_mask), "new_axis_mask": int(new_axis_mask),
             "shrink_axis_mask": int(shrink_axis_mask)}
    try:
        bounds = _static_bounds(begin, end, strides)
        if bounds is not None:
            return dispatch(_STRIDED_SLICE, (as_tensor(input_),),
                            dict(masks, begin=bounds[0], end=bounds[1], strides=bounds[2]), name)
    except errors.OpError as e:
        raise errors.listed(e, input_, begin, end, strides) from None
    # Bounds known only when the graph runs: entry by entry, as `tensor[key]` passes them.
    vectors = [as_tensor(begin), as_tensor(end)]
    vectors.append(late.array_ops.ones_like(vectors[0]) if strides is None else as_tensor(strides))
    if any(v.shape.rank != 1 or v.shape[0] is None for v in vectors):
        raise ValueError(f"strided_slice needs begin, end and strides of known length while "
                         f"tracing; got shapes {[v.shape for v in vectors]}.")
    entries = [tuple(late.array_ops.unstack(v)) for v in vectors]
    return _slice(as_tensor(input_),
                  dict(masks, begin=entries[0], end=entries[1], strides=entries[2]), name)


# -- tensor[key] -----------------------------------------------------------------------------

def _index(item):
    """An int from one index entry or slice bound, or TF's error for an invalid one."""
    if isinstance(item, (numbers.Integral, Dimension)) and not isinstance(item, bool):
        return operator.index(item)
    dtype = getattr(item, "dtype", None)
    if dtype is None or isinstance(item, bool):
        raise TypeError(_BAD_KEY.format(item))
    try:
        dtype = _d.as_dtype(dtype)
    except TypeError:
        raise TypeError(_BAD_KEY.format(item)) from None
    shape = item.shape
    rank = len(shape) if type(shape) is tuple or shape.rank is not None else 0  # (None: run
    if dtype not in _INDEX_DTYPES or rank == 1:  # time tells, as the op's input)
        raise TypeError(_BAD_KEY.format(item))
    if rank > 1:
        raise errors.op_error(errors.InvalidArgumentError, "StridedSlice",
                              f"Only scalar integer tensors can index a tensor, got shape "
                              f"{list(item.shape)}")
    if not isinstance(item, (np.ndarray, np.generic, EagerTensor)):
        item = as_tensor(item)  # a variable is read: a symbolic read while tracing
        if type(item) is not EagerTensor:
            return item  # known when the graph runs: the op takes the bounds as inputs
    return int(np.asarray(item))


def _bound(value):
    """A slice bound or step: None, or an int (checked like an index entry)."""
    return value if value is None or type(value) is int else _index(value)


def _key_attrs(key):
    """The StridedSlice attrs spelling `key`, a tuple of index entries."""
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    bit = 1
    for item in key:
        kind = type(item)
        if kind is slice:
            start, stop, step = _bound(item.start), _bound(item.stop), _bound(item.step)
            if start is None:
                begin_mask |= bit
                start = 0
            if stop is None:
                end_mask |= bit
                stop = 0
            begin.append(start)
            end.append(stop)
            strides.append(1 if step is None else step)
        elif item is None or item is Ellipsis:
            if item is None:
                new_axis_mask |= bit
            else:
                ellipsis_mask |= bit
            begin.append(0)
            end.append(0)
            strides.append(1)
        else:
            at = item if kind is int else _index(item)
            begin.append(at)
            end.append(at + 1)
            strides.append(1)
            shrink_axis_mask |= bit
        bit <<= 1
    return {"begin": tuple(begin), "end": tuple(end), "strides": tuple(strides),
            "begin_mask": begin_mask, "end_mask": end_mask, "ellipsis_mask": ellipsis_mask,
            "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask}


def _run_time_bounds(attrs):
    """`attrs` and the op's extra inputs: none when every bound is an int; else the
    begin/end/strides vectors, with attrs keeping the entries known while tracing (None
    for the others), so the static shape stays as precise as it can be."""
    vectors = (attrs["begin"], attrs["end"], attrs["strides"])
    if all(type(v) is int for vector in vectors for v in vector):
        return attrs, ()
    kinds = {v.dtype for vector in vectors for v in vector if not isinstance(v, int)}
    dtype = _d.int64 if _d.int64 in kinds else _d.int32
    bounds = tuple(late.array_ops.stack([convert_to_tensor(v, dtype) if isinstance(v, int)
                                         else cast_ops.cast(v, dtype) for v in vector])
                   if vector else convert_to_tensor(np.zeros(0, dtype.as_numpy_dtype))
                   for vector in vectors)
    attrs = dict(attrs, **{key: tuple(v if isinstance(v, int) else None for v in vector)
                           for key, vector in zip(("begin", "end", "strides"), vectors)})
    return attrs, bounds


def _slice(tensor, attrs, name):
    """Runs StridedSlice; bounds that are symbolic tensors become the op's run-time inputs."""
    attrs, bounds = _run_time_bounds(attrs)
    return dispatch(_STRIDED_SLICE, (tensor, *bounds), attrs, name)


_INT_KEYS = {}  # int -> attrs of tensor[int], the most common key
# TF opens a name scope (yielding ``strided_slice/`` eagerly too) for `tensor[key]`
_GETITEM_NAME = errors.ScopeName("strided_slice", "strided_slice/")


def _int_key_attrs(i):
    attrs = _INT_KEYS.get(i)
    if attrs is None:
        attrs = _key_attrs((i,))
        if len(_INT_KEYS) < 1024:
            _INT_KEYS[i] = attrs
    return attrs


def _is_mask(key):
    """Keys that select with a boolean mask rather than index."""
    if isinstance(key, bool):
        return True
    if isinstance(key, np.ndarray):
        return key.dtype == np.bool_
    return is_tensor_like(key) and as_tensor(key).dtype == _d.bool


_PLAIN_BOUND = (int, type(None))


def _plain_index(key):
    """The NumPy index StridedSlice's kernel builds for tuple `key`, when `key` holds only
    ints, slices with int or None bounds, None and one Ellipsis; else None.

    The kernel indexes the array with exactly this (an Ellipsis appended when there is
    none, so the result is always an array), so eager code can skip the attrs round trip.
    """
    ellipsis = False
    for item in key:
        kind = type(item)
        if kind is slice:
            if (type(item.start) not in _PLAIN_BOUND or type(item.stop) not in _PLAIN_BOUND
                    or type(item.step) not in _PLAIN_BOUND):
                return None
        elif item is Ellipsis:
            if ellipsis:
                return None
            ellipsis = True
        elif kind is not int and item is not None:
            return None
    return key if ellipsis else key + (Ellipsis,)


_SINGLE_KEYS = (int, slice, type(None), type(Ellipsis))


def getitem(tensor, slice_spec):
    """``tensor[slice_spec]`` with TensorFlow's semantics.

    Out-of-range integer indices raise InvalidArgumentError; slices clamp like
    Python's. A list key is read as a tuple (``t[[0, 1]]`` is ``t[0, 1]``).

    >>> getitem(tf.constant([[1, 2], [3, 4]]), (Ellipsis, 0))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 3], dtype=int32)>
    """
    if type(tensor) is not EagerTensor:
        tensor = as_tensor(tensor)
    kind = type(slice_spec)
    if (kind is tuple or kind in _SINGLE_KEYS) and type(tensor) is EagerTensor and (
            context._lookup(None) or context.get()).fast:
        # Eager, no tape: index the array as the kernel would. Bad keys (out of range,
        # zero steps, too many dims) take the op's path below for TF's errors.
        index = _plain_index(slice_spec if kind is tuple else (slice_spec,))
        if index is not None:
            try:
                out = tensor._data[index]
            except (IndexError, ValueError, TypeError):
                pass
            else:
                result = EagerTensor()
                result._data = out
                return result
    if type(slice_spec) is int:
        attrs = _int_key_attrs(slice_spec)
    elif type(slice_spec) in (tuple, list):
        return _slice(tensor, _key_attrs(slice_spec), _GETITEM_NAME)
    elif _is_mask(slice_spec):
        return late.array_ops.boolean_mask(tensor, slice_spec)
    else:
        attrs = _key_attrs((slice_spec,))
    return _slice(tensor, attrs, _GETITEM_NAME)


# -- gradients ---------------------------------------------------------------------------

def _strided_slice_grad_kernel(xp, dy, *extra, shape, begin, end, strides, **masks):
    # extra: the input's shape when not fully known while tracing, then the run-time bounds
    # when the sliced op had them: (), (shape,), (begin, end, strides) or all four.
    if len(extra) in (1, 4):
        shape, extra = tuple(extra[0].tolist()), extra[1:]
    out = xp.zeros(shape, dy.dtype)
    out[_index_tuple(*_bounds_of(extra, begin, end, strides), **masks)] = dy
    return out


_STRIDED_SLICE_GRAD = register(
    "StridedSliceGrad", _strided_slice_grad_kernel,
    lambda dy, *_, shape, **__: (TensorShape(shape), dy.dtype), tied=())
tf_nodes[_STRIDED_SLICE_GRAD] = NodeForm(inputs=(
    *(AttrInput(b, type_attr="Index") for b in ("shape", "begin", "end", "strides")), 0))
tf_args[_STRIDED_SLICE_GRAD] = ("shape", "begin", "end", "strides", "dy")
# (TF's defaults of the masks of a strided slice)
MASK_DEFAULTS = dict.fromkeys(("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                               "shrink_axis_mask"), 0)
tf_defaults[_STRIDED_SLICE_GRAD] = tf_defaults[_STRIDED_SLICE] = MASK_DEFAULTS


def strided_slice_grad(dy, shape, begin, end, strides, begin_mask=0, end_mask=0,
                       ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0, name=None):
    """Zeros of `shape` with `dy` written at the strided slice the other arguments spell.

    >>> strided_slice_grad(tf.constant([5, 6]), [4], [1], [3], [1])
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 5, 6, 0], dtype=int32)>
    """
    bounds = _static_bounds(begin, end, strides)
    if bounds is None:
        raise ValueError("strided_slice_grad needs begin, end and strides known while tracing.")
    begin, end, strides = bounds
    attrs = {"shape": tuple(int(d) for d in shape), "begin": begin, "end": end,
             "strides": strides, "begin_mask": int(begin_mask), "end_mask": int(end_mask),
             "ellipsis_mask": int(ellipsis_mask), "new_axis_mask": int(new_axis_mask),
             "shrink_axis_mask": int(shrink_axis_mask)}
    return dispatch(_STRIDED_SLICE_GRAD, (as_tensor(dy),), attrs, name)


@register_gradient("StridedSlice")
def _strided_slice_backward(op, dy):
    x, bounds = op.inputs[0], tuple(op.inputs[1:])
    if x.shape.is_fully_defined():
        grad = dispatch(_STRIDED_SLICE_GRAD, (dy, *bounds), dict(op.attrs, shape=tuple(x.shape)))
    else:
        static = None if x.shape.rank is None else tuple(x.shape.as_list())
        grad = dispatch(_STRIDED_SLICE_GRAD, (dy, late.array_ops.shape(x), *bounds),
                        dict(op.attrs, shape=static))
    return (grad, *[None] * len(bounds)) if bounds else grad


@register_gradient("StridedSliceGrad")
def _strided_slice_grad_backward(op, ddx):
    extra = op.inputs[1:]
    bounds = extra[1:] if len(extra) in (1, 4) else extra
    attrs = {k: v for k, v in op.attrs.items() if k != "shape"}
    return dispatch(_STRIDED_SLICE, (ddx, *bounds), attrs), *[None] * len(extra)


def _strided_slice_batched(op, args):
    """Batching: the same slice of every element (the batch axis taken whole ahead of the
    spec); bounds that differ by element (a random crop's): None."""
    (x, _), *bounds = args
    if any(b for _, b in bounds):
        return _windows(x, bounds, op.attrs)
    attrs = dict(op.attrs)
    if bounds:
        bounds = [np.concatenate([[0 if i < 2 else 1], b]).astype(b.dtype)
                  for i, (b, _) in enumerate(bounds)]
    else:
        for name, first in (("begin", 0), ("end", 0), ("strides", 1)):
            attrs[name] = (first,) + tuple(attrs[name])
    for name in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                 "shrink_axis_mask"):
        attrs[name] = attrs.get(name, 0) << 1 | (name in ("begin_mask", "end_mask"))
    return [_strided_slice_kernel(np, x, *bounds, **attrs)]


def _windows(x, bounds, attrs):
    """Batching slices whose bounds differ by element: when they are windows of one size
    (a random crop's), all gathered at once; else None."""
    if attrs.get("ellipsis_mask") or attrs.get("new_axis_mask") or \
            attrs.get("shrink_axis_mask"):
        return None
    n, dims = len(x), x.shape[1:]
    begin, end, strides = (np.broadcast_to(b, (n,) + b.shape[-1:]) if not batched else b
                           for b, batched in bounds)
    r = begin.shape[1]
    if r > len(dims) or not (strides == 1).all():
        return None
    lengths = np.array(dims[:r], np.int64)
    masked = [[bool(attrs.get(m, 0) >> d & 1) for d in range(r)] for m in ("begin_mask",
                                                                           "end_mask")]

    def resolved(bound, whole):  # Python's slice bounds for stride 1
        bound = bound.astype(np.int64)
        bound = np.clip(np.where(bound < 0, bound + lengths, bound), 0, lengths)
        return np.where(masked[whole], lengths if whole else 0, bound)

    starts = resolved(begin, 0)
    spans = resolved(end, 1) - starts
    size = spans[0].tolist()
    if (spans != spans[0]).any() or min(size, default=1) <= 0:
        return None
    view = np.lib.stride_tricks.sliding_window_view(x, size, axis=tuple(range(1, r + 1)))
    picked = view[(np.arange(n),) + tuple(starts.T)]  # (n, the dims after r, the window)
    rest = picked.ndim - 1 - r
    return [picked.transpose((0,) + tuple(range(rest + 1, rest + 1 + r))
                             + tuple(range(1, rest + 1)))]


batching_rules[_STRIDED_SLICE] = _strided_slice_batched
# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _STRIDED_SLICE_GRAD)
