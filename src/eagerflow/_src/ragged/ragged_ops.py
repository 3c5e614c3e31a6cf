"""`tf.ragged` and TF's functions on ragged arguments.

A public function given a `RaggedTensor` cannot convert it to a tensor: the conversion raises
`SymbolicCall`, and the function's dispatch support (see `api_export`) hands the call to the
dispatcher here, which runs the function's ragged version: elementwise functions on the
`flat_values`, reductions as segment reductions over the rows, `concat`, `gather`, `where`,
`shape`, ... Nothing of this is on the path of dense arguments.

>>> digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
>>> print(digits * 2 + 1)
<tf.RaggedTensor [[7, 3, 9, 3], [], [11, 19, 5], [13], []]>

(``tf.add(digits, 3)``, ``tf.reduce_sum(digits, axis=1)``: the same, dispatched.)
"""
import builtins
import collections

import numpy as np

from eagerflow._src.backend import api_export
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core import nest
from eagerflow._src.core.convert import constant as _constant
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.convert import convert_to_tensor, get_static_value, to_array
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops, debugging_ops, math_ops, parsing_ops, \
    reduction_ops, slicing
from eagerflow._src.ops import sparse_ops
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ragged import ragged_kernels, user_functions
from eagerflow._src.ragged.ragged_tensor import _RAGGED_RANGE, RaggedTensor, _eager, _NotATensor

_I64 = _d.int64


# -- tf.ragged.constant --------------------------------------------------------------------------
def _depths(value, depth, scalars, lists):
    if isinstance(value, (list, tuple)):
        lists.append(depth + 1)
        for v in value:
            _depths(v, depth + 1, scalars, lists)
    else:
        scalars.add(depth)


def _as_lists(value):
    """`value` with its NumPy arrays as lists (of NumPy scalars, keeping their dtype)."""
    if isinstance(value, np.ndarray) and value.ndim:
        return [_as_lists(v) for v in value]
    if isinstance(value, (list, tuple)) and any(isinstance(v, (np.ndarray, list, tuple))
                                                 for v in value):
        return [_as_lists(v) for v in value]
    return value


@export("ragged.constant")
def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=_I64):
    """A `RaggedTensor` of nested Python lists `pylist` (rows of any lengths).

    >>> print(tf.ragged.constant([[1, 2], [3]]))
    <tf.RaggedTensor [[1, 2], [3]]>
    """
    if isinstance(pylist, RaggedTensor):
        raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
    pylist = _as_lists(pylist)
    parts = host_parts(pylist, dtype, ragged_rank, inner_shape, row_splits_dtype)
    if parts is None:
        return _constant(pylist, dtype, shape=inner_shape)  # (a tensor, as TF's)
    values, splits = parts
    return RaggedTensor.from_nested_row_splits(
        convert_to_tensor(values), [convert_to_tensor(s) for s in splits], validate=False)


def host_parts(pylist, dtype, ragged_rank, inner_shape, row_splits_dtype, as_numpy=False):
    """The flat values and nested row splits (NumPy arrays) of the ragged value of nested
    lists `pylist` (as `constant` takes them), or None where it is a plain tensor's: host
    arrays, not tensors, so that while tracing they are still values. Values of no `dtype`
    take TF's default dtypes (int32, float32), or NumPy's `as_numpy`."""
    scalars, lists = set(), []
    _depths(pylist, 0, scalars, lists)
    if len(scalars) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    if ragged_rank is not None and ragged_rank < 0:
        raise ValueError(f"Invalid ragged_rank={ragged_rank}: must be nonnegative")
    scalar_depth = next(iter(scalars)) if scalars else None
    max_depth = max(lists, default=0)
    if scalar_depth is not None:
        if max_depth > scalar_depth:
            raise ValueError(f"Invalid pylist={pylist!r}: empty list nesting is greater than "
                             f"scalar value nesting")
        if ragged_rank is not None and max_depth < ragged_rank:
            raise ValueError(f"Invalid pylist={pylist}, max depth smaller than "
                             f"ragged_rank={ragged_rank}")
    if inner_shape is not None and ragged_rank is not None:
        expected = ragged_rank + len(inner_shape) + 1
        if (scalar_depth is not None and expected != scalar_depth) or \
                (scalar_depth is None and expected < max_depth):
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank="
                             f"{ragged_rank} and dim(inner_shape)={len(inner_shape)}")
    if ragged_rank == 0 or ragged_rank is None and (
            max_depth < 2 or inner_shape is not None and max_depth - len(inner_shape) < 2):
        return None
    if ragged_rank is None:
        ragged_rank = max(1, max_depth - 1) if scalar_depth is None else \
            max(1, scalar_depth - 1 - len(inner_shape or ()))
    depth = max_depth if scalar_depth is None else scalar_depth
    if scalar_depth is not None and scalar_depth <= ragged_rank:
        raise ValueError(f"pylist has scalar values depth {scalar_depth}, but ragged_rank="
                         f"{ragged_rank} requires scalar value depth greater than {ragged_rank}")
    items, nested_lengths = list(pylist), []
    for _ in builtins.range(ragged_rank - 1):
        nested_lengths.append([len(r) for r in items])
        items = [v for r in items for v in r]
    nested_lengths.append([len(r) for r in items])
    items = [v for r in items for v in r]
    dtype = None if dtype is None else _d.as_dtype(dtype)
    if items:
        values = np.array(items, None if dtype is None else dtype.as_numpy_dtype) \
            if as_numpy else to_array(items, dtype)
    else:
        shape = [0] + list(inner_shape or [0] * max(depth - 1 - ragged_rank, 0))
        values = np.zeros(shape, dtype.as_numpy_dtype if dtype is not None else
                          np.float64 if as_numpy else np.float32)
        if dtype == _d.string:
            values = values.astype(object)
    if inner_shape is not None and items:
        values = values.reshape([len(items)] + list(inner_shape))
    splits_dtype = _d.as_dtype(row_splits_dtype).as_numpy_dtype
    splits = []
    for lengths in nested_lengths:
        s = np.zeros(len(lengths) + 1, splits_dtype)
        np.cumsum(lengths, out=s[1:])
        splits.append(s)
    return values, splits


# -- tf.ragged.range -----------------------------------------------------------------------------
@export("ragged.range")
def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001 (TF's name)
          row_splits_dtype=_I64):
    """Row ``i`` is ``range(starts[i], limits[i], deltas[i])`` (scalars broadcast).

    >>> print(tf.ragged.range([3, 0, 2]))
    <tf.RaggedTensor [[0, 1, 2], [], [0, 1]]>
    """
    if limits is None:
        starts, limits = 0, starts
    limits = convert_to_tensor(limits, dtype)
    starts = convert_to_tensor(starts, limits.dtype if dtype is None else dtype)
    deltas = convert_to_tensor(deltas, limits.dtype if dtype is None else dtype)
    if not (starts.dtype == limits.dtype == deltas.dtype):
        starts, deltas = (cast_ops.cast(t, limits.dtype) for t in (starts, deltas))
    # (TF's op: scalars broadcast against vectors of one length)
    splits, values = dispatch(_RAGGED_RANGE, (starts, limits, deltas),
                              {"Tsplits": _d.as_dtype(row_splits_dtype)}, name)
    return RaggedTensor.from_row_splits(values, splits, validate=False)


@export("ragged.row_splits_to_segment_ids")
def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value of row partition `splits`.

    >>> tf.ragged.row_splits_to_segment_ids([0, 2, 3]).numpy().tolist()
    [0, 0, 1]
    """
    splits = convert_to_tensor(splits) if isinstance(splits, Tensor) else \
        convert_to_tensor(splits, _I64)
    if splits.shape.rank != 1:
        raise ValueError(f"splits must be a vector, got shape {splits.shape}")
    lengths = math_ops.subtract(splits[1:], splits[:-1])
    ids = array_ops.repeat(array_ops.range(array_ops.size(lengths, out_type=splits.dtype),
                                           dtype=splits.dtype), lengths)
    return ids if out_type is None else cast_ops.cast(ids, out_type)


@export("ragged.segment_ids_to_row_splits")
def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row splits of sorted `segment_ids` (`num_segments` rows: the last id + 1).

    >>> tf.ragged.segment_ids_to_row_splits([0, 0, 1]).numpy().tolist()
    [0, 2, 3]
    """
    out_type = _I64 if out_type is None else _d.as_dtype(out_type)
    return RaggedTensor.from_value_rowids(array_ops.zeros_like(segment_ids), cast_ops.cast(
        convert_to_tensor(segment_ids), out_type), num_segments).row_splits


@export("ragged.stack_dynamic_partitions")
def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row ``i`` holds the elements of `data` whose partition is ``i`` (in their order).

    >>> tf.ragged.stack_dynamic_partitions([1, 2, 3, 4], [1, 0, 1, 1], 3).to_list()
    [[2], [1, 3, 4], []]
    """
    if not isinstance(data, RaggedTensor):  # (a ragged tensor's rows are its elements)
        data = convert_to_tensor(data)
    partitions = convert_to_tensor(partitions, dtype_hint=_d.int32)  # row splits: its dtype
    if partitions.shape.rank is not None and partitions.shape.rank != 1 and \
            (isinstance(data, RaggedTensor) or
             partitions.shape != data.shape[:partitions.shape.rank]):
        raise ValueError("partitions must have the shape of data's outer dimensions")
    if partitions.shape.rank != 1:
        data = array_ops.reshape(data, array_ops.concat(
            [[-1], array_ops.shape(data)[partitions.shape.rank:]], 0))
        partitions = array_ops.reshape(partitions, [-1])
    if _eager(partitions):
        p = partitions._data
        if p.size and (p.min() < 0 or p.max() >= int(num_partitions)):
            raise errors.InvalidArgumentError(None, None, f"Every element in partitions must "
                                                          f"be in [0, {int(num_partitions)})")
    order = reduction_ops.argsort(partitions, stable=True)
    lengths = reduction_ops.unsorted_segment_sum(array_ops.ones_like(partitions),
                                                 partitions, num_partitions)
    picked = gather(data, order) if isinstance(data, RaggedTensor) else \
        array_ops.gather(data, order)
    return RaggedTensor.from_row_lengths(picked, lengths, validate=False)


# -- helpers -------------------------------------------------------------------------------------
def _to_ragged(value, ragged_rank, splits_dtype=_I64):
    """`value` as a ragged tensor of `ragged_rank` (a dense one: each row full; a ragged one
    of a lower ragged rank: its uniform inner dimensions as full ragged ones)."""
    if isinstance(value, RaggedTensor):
        more = ragged_rank - value.ragged_rank
        if more > 0 and value.flat_values.shape.rank is not None and \
                value.flat_values.shape.rank > more:
            return value.with_flat_values(RaggedTensor.from_tensor(
                value.flat_values, ragged_rank=more, row_splits_dtype=value.row_splits_dtype))
        return value
    try:
        t = convert_to_tensor(value)
    except (ValueError, TypeError):
        return constant(value, ragged_rank=ragged_rank, row_splits_dtype=splits_dtype)
    return RaggedTensor.from_tensor(t, ragged_rank=ragged_rank, row_splits_dtype=splits_dtype)


def _same_splits(a, b, levels=None):
    """Whether ragged tensors `a` and `b` have one row partition (checked eagerly); of their
    first `levels` ragged dimensions only, when given."""
    sa, sb = a.nested_row_splits[:levels], b.nested_row_splits[:levels]
    if len(sa) != len(sb):
        return False
    for x, y in zip(sa, sb):
        if x is y:
            continue
        if _eager(x, y):
            if x._data.shape != y._data.shape or (x._data != y._data).any():
                return False
        elif x.shape.is_fully_defined() and y.shape.is_fully_defined() and x.shape != y.shape:
            return False
        else:  # (known when the graph runs: an assertion, kept in program order)
            debugging_ops.assert_equal(x, y, message="Inputs must have identical ragged "
                                                     "splits")
    return True


def _incompatible(a, b):
    """The error for ragged `a` and `b` of different row partitions: eagerly TF's assertion
    that failed (row counts, then the splits of each level), else one naming the shapes."""
    for x, y in zip(a.nested_row_splits, b.nested_row_splits):
        if _eager(x, y):
            try:
                if x.shape != y.shape:  # (TF compares whether the shapes are equal)
                    debugging_ops.assert_equal(_constant(False), _constant(True))
                debugging_ops.assert_equal(x, y)
            except errors.InvalidArgumentError as e:
                return e
    return errors.InvalidArgumentError(
        None, None, f"Ragged tensors have incompatible row partitions: {a.shape} and {b.shape}")


def _aligned(values, ragged):
    """`values` (tensors, ragged tensors, Python values) as the flat values of `ragged`'s
    partition: ragged ones must share it; a dense one broadcasts against the inner dims, or,
    of the ragged tensor's full rank with size 1 at ragged dims, along the rows."""
    out = []
    flat_rank = ragged.flat_values.shape.rank
    for v in values:
        if isinstance(v, RaggedTensor):
            if v is not ragged and not _same_splits(v, ragged):
                out.append(_broadcast_ragged(v, ragged))
                continue
            out.append(v.flat_values)
            continue
        if v is None or isinstance(v, (str, bytes)) or not isinstance(
                v, (Tensor, list, tuple, np.ndarray, int, float, bool, np.generic)) and \
                getattr(type(v), "__tf_tensor__", None) is None:
            out.append(v)
            continue
        if not isinstance(v, Tensor) and getattr(type(v), "__tf_tensor__", None) is None:
            # (TF's conversion: the ragged tensor's dtype preferred, else the value's own)
            v = convert_to_tensor(v, dtype_hint=ragged.dtype)
        out.append(_broadcast_dense(v, ragged, flat_rank))
    return out


def _ones_at(rt):
    """The levels of `rt`'s ragged dimensions whose rows hold one element by construction
    (``expand_dims``)."""
    levels, level = [], 0
    while isinstance(rt, RaggedTensor):
        if rt.uniform_row_length is not None and get_static_value(rt.uniform_row_length) == 1:
            levels.append(level)
        rt, level = rt.values, level + 1
    return levels


def _broadcast_ragged(v, ragged):
    """The flat values of ragged `v` as `ragged`'s: `v`'s dimensions facing `ragged`'s ragged
    ones either of `ragged`'s lengths or (made by ``expand_dims``) of length 1,
    repeated along that dimension of `ragged`; else TF's error."""
    v = _to_ragged(v, ragged.ragged_rank)  # (its uniform inner dimensions as ragged ones)
    ones = _ones_at(v)
    if v.ragged_rank != ragged.ragged_rank:
        raise _incompatible(ragged, v)
    dtype = ragged.row_splits_dtype
    n, m = ragged.nrows(out_type=dtype), v.nrows(out_type=dtype)
    if _eager(n, m) and int(n._data) != int(m._data):
        raise _incompatible(ragged, v)
    # for each element of `ragged` at the current level, the index of its element in `v`
    where = array_ops.range(ragged.nrows(out_type=dtype), dtype=dtype)
    a, b = ragged, v
    for level in builtins.range(ragged.ragged_rank):
        starts = cast_ops.cast(b.row_splits[:-1], dtype)
        ids = a.value_rowids()
        if level in ones:  # (the one element of v's row, for each element of a's)
            where = array_ops.gather(array_ops.gather(starts, where), ids)
        else:
            lengths = cast_ops.cast(b.row_lengths(), dtype)
            if _eager(where, lengths):
                if not np.array_equal(a.row_lengths()._data, lengths._data[where._data]):
                    raise _incompatible(ragged, v)
            else:
                debugging_ops.assert_equal(a.row_lengths(), array_ops.gather(lengths, where),
                                           message="Ragged tensors have incompatible row "
                                                   "lengths")
            offsets = math_ops.subtract(array_ops.range(array_ops.shape(
                ids, out_type=dtype)[0], dtype=dtype), array_ops.gather(a.row_splits, ids))
            where = math_ops.add(array_ops.gather(array_ops.gather(starts, where), ids), offsets)
        a, b = a.values, b.values
    return array_ops.gather(b, where)


def _broadcast_dense(v, ragged, flat_rank):
    """Dense `v` as an operand of `ragged`'s flat values. Its dimensions line up with the
    ragged tensor's last ones: those within the uniform inner dimensions broadcast as they
    are; any reaching the ragged (or row) dimensions must be 1 there, or, at full rank,
    ``[nrows, 1, ..., 1, inner...]`` (one value per row)."""
    shape = v.shape
    rank = shape.rank
    inner = None if flat_rank is None else flat_rank - 1
    if rank is None or inner is None or rank <= inner:
        return v
    dims = shape.as_list()
    outer = dims[:rank - inner]  # (the dims facing the ragged tensor's rows and ragged dims)
    if all(d == 1 for d in outer):
        return array_ops.reshape(v, dims[rank - inner:]) if None not in dims[rank - inner:] \
            else array_ops.reshape(v, array_ops.shape(v)[rank - inner:])
    full, k = ragged.shape.rank, ragged.ragged_rank
    if rank == full and all(d == 1 for d in outer[1:]):
        rows = array_ops.reshape(v, array_ops.concat([array_ops.shape(v)[:1],
                                                      array_ops.shape(v)[k + 1:]], 0))
        nrows = ragged.shape[0]
        if outer[0] is not None and nrows is not None and outer[0] != nrows:
            raise _unbroadcastable(v, ragged)
        return array_ops.gather(rows, _row_of_each_value(ragged))
    if rank == full and (outer[0] is None or ragged.shape[0] in (None, outer[0])):
        # (dims facing ragged ones that are the rows' lengths, or 1)
        try:
            return _broadcast_ragged(RaggedTensor.from_tensor(
                v, ragged_rank=k, row_splits_dtype=ragged.row_splits_dtype), ragged)
        except errors.InvalidArgumentError:
            raise _unbroadcastable(v, ragged) from None
    raise _unbroadcastable(v, ragged)


def _row_of_each_value(ragged):
    """The (outermost) row of each of `ragged`'s flat values."""
    ids = ragged.value_rowids()
    inner = ragged.values
    while isinstance(inner, RaggedTensor):
        ids = array_ops.gather(ids, inner.value_rowids())
        inner = inner.values
    return ids


def _unbroadcastable(v, ragged):
    return errors.InvalidArgumentError(
        None, None, f"Unable to broadcast the dense shape {v.shape} to the ragged shape "
                    f"{ragged.shape}: its dimensions facing the ragged ones must be 1")


def _first_ragged(values):
    return next((v for v in values if isinstance(v, RaggedTensor)), None)


def check_splits_dtypes(values):
    """TF's ValueError when the ragged tensors among `values` split their rows with
    different dtypes (int32 and int64)."""
    dtypes = {v.row_splits.dtype for v in values if isinstance(v, RaggedTensor)}
    if len(dtypes) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible "
                         "dtypes.")


def elementwise(fn, arguments, names):
    """``fn(**arguments)`` with the ragged tensors among the arguments `names` (a list of
    tensors in one argument counts) replaced by their flat values; the result takes their
    row partition."""
    leaves = []
    for n in names:
        v = arguments.get(n)
        leaves.extend(v if isinstance(v, (list, tuple)) and _first_ragged(v) is not None
                      else [v])
    # (the partition of the result: of a ragged tensor without dimensions of length 1 that
    # broadcast, where one has them)
    ragged = min((v for v in leaves if isinstance(v, RaggedTensor)),
                 key=lambda v: (-v.ragged_rank, len(_ones_at(v))))
    args = dict(arguments)
    for n in names:
        v = args.get(n)
        if isinstance(v, (list, tuple)) and _first_ragged(v) is not None:
            # (a list of ragged tensors is combined as map_flat_values combines them)
            _check_one_partition([x for x in v if isinstance(x, RaggedTensor)])
            args[n] = type(v)(_aligned(v, ragged))
        elif n in args:
            args[n] = _aligned([v], ragged)[0]
    result = fn(**args)
    return ragged.with_flat_values(result)


def _check_one_partition(ragged):
    """TF's errors for ragged tensors whose flat values `map_flat_values` would combine but
    whose row partitions differ: flat values of other sizes, then other row splits."""
    sizes = {r.flat_values.shape[0] for r in ragged}
    if len(sizes) > 1 and None not in sizes:
        raise ValueError(f"Input RaggedTensors' flat_values must all have the same "
                         f"outer-dimension size.  Got sizes: {sizes}")
    for r in ragged[1:]:
        if ragged[0].ragged_rank != r.ragged_rank:
            raise ValueError("Inputs must have identical ragged splits")
        if not _same_splits(ragged[0], r):
            raise errors.InvalidArgumentError(
                None, None, "RowPartition._merge_precomputed_encodings: partitions have "
                            "incompatible row_splits")


# -- tf.ragged functions -------------------------------------------------------------------------
@export("ragged.map_flat_values")
def map_flat_values(op, *args, **kwargs):
    """``op(*args, **kwargs)`` on the flat values of the ragged tensors among the arguments
    (which must share one row partition); the result takes that partition.

    >>> print(tf.ragged.map_flat_values(tf.ones_like, tf.ragged.constant([[1, 2], [3]])))
    <tf.RaggedTensor [[1, 1], [1]]>
    """
    leaves = nest.flatten([args, kwargs])
    if any(getattr(v, "_keras_symbolic", False) for v in leaves):
        # A Keras functional model's ragged tensor is no ragged tensor here, as in TF: `op` is
        # called on it as the user's own call (a TF function of it makes a layer).
        return user_functions.call(op, *args, **kwargs)
    ragged = [v for v in leaves if isinstance(v, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    first = ragged[0]
    if len({r.ragged_rank for r in ragged}) > 1:
        raise ValueError("All ragged inputs must have the same ragged_rank.")
    _check_one_partition(ragged)
    swap = (lambda v: v.flat_values if isinstance(v, RaggedTensor) else v)
    result = op(*nest.map_structure(swap, list(args)), **nest.map_structure(swap, kwargs))
    n = first.flat_values.shape[0]
    shape = getattr(result, "shape", None)
    if shape is not None and shape.rank is not None and (shape.rank == 0 or (
            n is not None and shape[0] is not None and shape[0] != n)):
        raise ValueError(f"tf.ragged.map_flat_values requires that the output of `op` have "
                         f"the same outer-dimension size as flat_values of any ragged inputs. "
                         f"(output shape: {result.shape}; expected outer dimension size: {n})")
    return first.with_flat_values(result)


def _boolean_mask_ragged(data, mask):
    """Rows of ragged `data` keeping the elements where ragged `mask` (same partition) is
    True."""
    if isinstance(data.values, RaggedTensor) and isinstance(mask.values, RaggedTensor):
        return data.with_values(_boolean_mask_ragged(data.values, mask.values))
    keep = mask.values
    values = gather(data.values, array_ops.reshape(array_ops.where(keep), [-1])) \
        if isinstance(data.values, RaggedTensor) else array_ops.boolean_mask(data.values, keep)
    lengths = reduction_ops.unsorted_segment_sum(cast_ops.cast(keep, data.row_splits_dtype),
                                                 data.value_rowids(), data.nrows())
    return RaggedTensor.from_row_lengths(values, lengths, validate=False)


@export("ragged.boolean_mask")
def boolean_mask(data, mask, name=None):
    """The elements of `data` where `mask` is True, as ragged rows for every dim of `mask`
    beyond the first.

    >>> print(tf.ragged.boolean_mask([[1, 2], [3, 4]], [[True, False], [True, True]]))
    <tf.RaggedTensor [[1], [3, 4]]>
    """
    if isinstance(mask, RaggedTensor):
        data = _to_ragged(data, mask.ragged_rank, mask.row_splits_dtype)
        # (the mask's ragged dimensions are data's first ones; data may have more)
        if data.ragged_rank < mask.ragged_rank or \
                not _same_splits(data, mask, mask.ragged_rank):
            raise _incompatible(data, mask)
        return _boolean_mask_ragged(data, mask)
    mask = convert_to_tensor(mask, _d.bool)
    if isinstance(data, RaggedTensor):
        if mask.shape.rank != 1:
            raise ValueError("The mask of a ragged tensor must be a ragged tensor or a vector")
        data.shape[:1].assert_is_compatible_with(mask.shape)  # (TF's ValueError)
        return gather(data, array_ops.reshape(array_ops.where(mask), [-1]))
    data = convert_to_tensor(data)
    k = mask.shape.rank
    if k == 1:
        return array_ops.boolean_mask(data, mask)
    values = array_ops.boolean_mask(data, mask)
    lengths = reduction_ops.reduce_sum(cast_ops.cast(mask, _I64), axis=k - 1)
    result = RaggedTensor.from_row_lengths(values, array_ops.reshape(lengths, [-1]),
                                           validate=False)
    shape = array_ops.shape(mask, out_type=_I64)
    for axis in builtins.range(k - 2, 0, -1):
        result = RaggedTensor.from_uniform_row_length(result, shape[axis])
    return result


@export("ragged.stack")
def stack(values, axis=0, name=None):
    """The ragged tensors (or tensors) `values` stacked along a new dimension `axis`.

    >>> print(tf.ragged.stack([tf.constant([1, 2]), tf.constant([3])]))
    <tf.RaggedTensor [[1, 2], [3]]>
    """
    values = list(values)
    if not values:
        raise ValueError("values must not be empty")
    if not any(isinstance(v, RaggedTensor) for v in values):
        tensors = [convert_to_tensor(v) for v in values]
        rank = tensors[0].shape.rank
        if rank is not None and axis < 0:
            axis += rank + 1
        if rank == 1 and axis == 0:  # (vectors of any lengths: the rows)
            lengths = array_ops.stack([array_ops.shape(t, out_type=_I64)[0] for t in tensors])
            return RaggedTensor.from_row_lengths(array_ops.concat(tensors, 0), lengths)
        if rank is not None and axis >= rank - 1:  # (along the innermost ones: a tensor)
            return array_ops.stack(tensors, axis)
        # As TF's: each a ragged tensor of one ragged dimension, so that tensors of other
        # numbers of rows (and other inner shapes) stack.
        values = [RaggedTensor.from_tensor(t, ragged_rank=1) for t in tensors]
    return _concat_or_stack(values, axis, stack_values=True)


def _concat_axis0(values):
    """Ragged tensors of one ragged rank, their rows one after another."""
    if not isinstance(values[0], RaggedTensor):
        return array_ops.concat(values, 0)
    dtype = values[0].row_splits_dtype
    inner = _concat_axis0([v.values for v in values])
    pieces, offset = [values[0].row_splits], values[0].row_splits[-1]
    for v in values[1:]:
        pieces.append(math_ops.add(v.row_splits[1:], offset))
        offset = math_ops.add(offset, v.row_splits[-1])
    splits = array_ops.concat([cast_ops.cast(p, dtype) for p in pieces], 0)
    return RaggedTensor.from_row_splits(inner, splits, validate=False)


def _concat_or_stack(values, axis, stack_values):
    rr = max([v.ragged_rank for v in values if isinstance(v, RaggedTensor)] + [1])
    dtype = next((v.row_splits_dtype for v in values if isinstance(v, RaggedTensor)), _I64)
    values = [_to_ragged(v, rr, dtype) for v in values]
    if len({v.ragged_rank for v in values}) > 1:
        raise ValueError("all inputs must have the same ragged rank")
    rank = values[0].shape.rank
    if axis < 0:
        axis += rank + (1 if stack_values else 0)
    k = len(values)
    if axis == 0:
        joined = _concat_axis0(values)
        if not stack_values:
            return joined
        return RaggedTensor.from_row_lengths(joined, array_ops.stack(
            [v.nrows(out_type=dtype) for v in values]), validate=False)
    if axis == 1:
        # Row i of the result joins row i of each input: the inputs' rows interleaved.
        nrows = values[0].nrows(out_type=_I64)
        for v in values[1:]:
            other = v.nrows(out_type=_I64)
            if _eager(nrows, other):
                if int(nrows) != int(other):
                    raise errors.InvalidArgumentError(
                        None, None, f"Input tensors have incompatible shapes: {int(nrows)} "
                                    f"and {int(other)} rows")
            else:
                debugging_ops.assert_equal(nrows, other, message="Input tensors have "
                                                                 "incompatible shapes.")
        joined = _concat_axis0(values)
        order = array_ops.reshape(array_ops.transpose(array_ops.reshape(
            array_ops.range(math_ops.multiply(nrows, k), dtype=_I64),
            array_ops.stack([_constant(k, _I64), nrows]))), [-1])
        rows = gather(joined, order)
        if stack_values:  # (row splits, not a uniform length: TF's static shape)
            splits = math_ops.multiply(array_ops.range(math_ops.add(nrows, 1), dtype=_I64), k)
            return RaggedTensor.from_row_splits(rows, cast_ops.cast(splits, dtype),
                                                validate=False)
        return RaggedTensor.from_row_splits(rows.values, cast_ops.cast(
            rows.row_splits[::k], rows.row_splits_dtype), validate=False)
    if isinstance(values[0].values, RaggedTensor) or not stack_values and axis > 1:
        inner = [v.values for v in values]
        if all(_same_splits(values[0], v) for v in values):
            joined = _concat_or_stack(inner, axis - 1, stack_values) if isinstance(
                inner[0], RaggedTensor) else (array_ops.stack if stack_values
                                              else array_ops.concat)(inner, axis - 1)
            return values[0].with_values(joined)
    if all(_same_splits(values[0], v) for v in values):
        flat = [v.flat_values for v in values]
        fn = array_ops.stack if stack_values else array_ops.concat
        return values[0].with_flat_values(fn(flat, axis - values[0].ragged_rank))
    raise errors.InvalidArgumentError(None, None, "Input tensors at non-ragged dimensions "
                                                  "must have equal sizes")


def gather(params, indices, axis=0, batch_dims=0):
    """Rows `indices` of ragged `params` (indices dense or ragged), or (`axis` > 0) values
    within its rows."""
    if axis not in (0, None) or batch_dims:
        if not isinstance(params, RaggedTensor):
            if batch_dims != 1 or axis not in (1, -1 + convert_to_tensor(params).shape.rank):
                raise errors.UnimplementedError(
                    None, "GatherV2", "gather of a tensor by ragged indices supports axis=0, "
                                      "and axis=1 with batch_dims=1")
            params = RaggedTensor.from_tensor(params, row_splits_dtype=indices.row_splits_dtype)
        return _gather_axis(params, indices, axis, batch_dims)
    if isinstance(indices, RaggedTensor):
        return indices.with_flat_values(gather(params, indices.flat_values))
    if not isinstance(params, RaggedTensor):
        return array_ops.gather(params, indices)
    indices = convert_to_tensor(indices)
    if indices.shape.rank == 0:
        return getitem(params, indices)
    if indices.shape.rank is not None and indices.shape.rank > 1:
        # (as TF: the indices' inner dimensions become ragged ones of the result)
        return gather(params, RaggedTensor.from_tensor(
            indices, ragged_rank=indices.shape.rank - 1,
            row_splits_dtype=params.row_splits_dtype))
    dtype = params.row_splits_dtype
    splits = params.row_splits
    if _eager(indices, splits):
        s = splits._data
        idx = indices._data.astype(np.int64)
        n = s.size - 1
        if idx.size and ((idx < 0) | (idx >= n)).any():
            where = int(np.argmax((idx < 0) | (idx >= n)))
            raise errors.eager_error(  # (TF's function is named by the ragged ranks)
                errors.InvalidArgumentError, "RaggedGather",
                f"indices[{where}] = {int(idx[where])} is not in [0, {n})",
                counts=[("OUTPUT_RAGGED_RANK", params.ragged_rank),
                        ("PARAMS_RAGGED_RANK", params.ragged_rank)])
        starts, limits = s[:-1][idx], s[1:][idx]
        lengths = limits - starts
        new_splits = np.zeros(idx.size + 1, s.dtype)
        np.cumsum(lengths, out=new_splits[1:])
        positions = np.repeat(starts - new_splits[:-1], lengths) + np.arange(new_splits[-1],
                                                                             dtype=s.dtype)
        positions = EagerTensor._wrap(positions)
        new_splits = EagerTensor._wrap(new_splits)
    else:
        indices = cast_ops.cast(indices, dtype)
        starts = array_ops.gather(splits[:-1], indices)
        limits = array_ops.gather(splits[1:], indices)
        picked = range(starts, limits, row_splits_dtype=dtype)
        positions, new_splits = picked.values, picked.row_splits
    values = params.values
    values = gather(values, positions) if isinstance(values, RaggedTensor) else \
        array_ops.gather(values, positions)
    return RaggedTensor.from_row_splits(values, new_splits, validate=False)


def _gather_axis(params, indices, axis, batch_dims):
    rank = params.shape.rank
    axis = int(axis)
    axis += rank if axis < 0 else 0
    if axis > params.ragged_rank and not batch_dims:  # (a uniform inner dimension)
        return params.with_flat_values(array_ops.gather(params.flat_values, indices,
                                                        axis=axis - params.ragged_rank))
    if axis > 1 and not batch_dims:  # (within each row)
        return params.with_values(gather(params.values, indices, axis - 1))
    if axis == 1 and batch_dims in (0, 1):
        return _gather_in_rows(params, indices, batch_dims)
    raise errors.UnimplementedError(None, "GatherV2", "gather of a RaggedTensor supports "
                                                      "axis=0, and axis=1 with batch_dims 0 "
                                                      "or 1")


def _gather_in_rows(params, indices, batch_dims):
    """Gather along axis 1 of ragged `params`: the values at each row's start plus the
    indices (TF checks no row's length), the same indices for every row or (batch_dims 1)
    each row's own."""
    dtype = params.row_splits_dtype
    starts = params.row_splits[:-1]
    values = params.values
    pick = gather if isinstance(values, RaggedTensor) else array_ops.gather
    if isinstance(indices, RaggedTensor):
        if not batch_dims:
            raise errors.UnimplementedError(None, "GatherV2", "gather within the rows of a "
                                                              "RaggedTensor by ragged indices "
                                                              "supports batch_dims=1")
        flat = cast_ops.cast(indices.values, dtype)
        return indices.with_values(pick(values, math_ops.add(
            flat, array_ops.gather(starts, indices.value_rowids()))))
    indices = convert_to_tensor(indices)
    indices = cast_ops.cast(indices, dtype) if indices.dtype != dtype else indices
    if batch_dims:  # indices [nrows, ...]: row i's own
        extra = indices.shape.rank - 1
    else:
        extra = indices.shape.rank
        indices = array_ops.expand_dims(indices, 0)
    row_starts = array_ops.reshape(starts, array_ops.concat(
        [array_ops.shape(starts, out_type=dtype), array_ops.ones([extra], dtype)], 0))
    return pick(values, math_ops.add(indices, row_starts))


def gather_nd(params, indices, batch_dims=0):
    """The slices of `params` that the index tuples in the last axis of `indices` address
    (either may be ragged; the index tuples themselves may not)."""
    if batch_dims:
        raise ValueError("batch_dims != 0 is not supported for ragged gather yet.")
    if isinstance(indices, RaggedTensor):
        if indices.flat_values.shape.rank is not None and indices.flat_values.shape.rank < 2:
            raise ValueError("The innermost dimension of indices may not be ragged")
        return indices.with_flat_values(gather_nd(params, indices.flat_values))
    indices = convert_to_tensor(indices)
    if not isinstance(params, RaggedTensor):
        return array_ops.gather_nd(params, indices)
    if indices.shape.rank is None:
        raise ValueError("indices.rank be statically known.")
    if indices.shape.rank == 0:
        raise ValueError("indices.rank must be at least 1.")
    k = indices.shape[-1]
    if k is None:
        raise ValueError("indices.shape[-1] must be statically known.")
    if k <= params.ragged_rank and indices.shape.rank == 1:  # (a ragged result has rows)
        return gather_nd(params, array_ops.expand_dims(indices, 0))
    dtype = params.row_splits_dtype
    indices = cast_ops.cast(indices, dtype) if indices.dtype != dtype else indices
    if k == 0:  # the whole of `params` for each (empty) index tuple
        return gather(expand_dims(params, 0), array_ops.zeros(
            array_ops.shape(indices, out_type=dtype)[:-1], dtype))
    # the position in the values of ragged dimension min(k, ragged rank + 1) - 1
    position = indices[..., 0]
    splits = params.nested_row_splits
    for dim in builtins.range(1, min(k, params.ragged_rank + 1)):
        position = math_ops.add(array_ops.gather(splits[dim - 1], position), indices[..., dim])
    if k <= params.ragged_rank:
        inner = params
        for _ in builtins.range(k - 1):
            inner = inner.values
        return gather(inner, position)
    flat = params.flat_values
    if k == params.ragged_rank + 1:
        return array_ops.gather(flat, position)
    return array_ops.gather_nd(flat, array_ops.concat(
        [array_ops.expand_dims(position, -1), indices[..., params.ragged_rank + 1:]], -1))


def getitem(rt, key):
    """``rt[key]``: integers, slices (and `Ellipsis`-free tuples of them)."""
    if not isinstance(key, tuple):
        key = (key,)
    # (a variable indexes as its value does)
    key = tuple(convert_to_tensor(k) if getattr(type(k), "__tf_tensor__", None) is not None
                and not isinstance(k, Tensor) else k for k in key)
    ellipses = [i for i, k in enumerate(key) if k is Ellipsis]  # (by identity: keys hold tensors)
    if ellipses:
        if len(ellipses) > 1:
            raise ValueError("tf.RaggedTensor.__getitem__ does not support multiple ellipses")
        i = ellipses[0]
        filled = rt.shape.rank - (len(key) - 1 - sum(k is None for k in key))
        key = key[:i] + (slice(None),) * max(filled, 0) + key[i + 1:]
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if first is None:  # tf.newaxis: one row holding every row (a uniform dimension)
        outer = RaggedTensor.from_uniform_row_length(rt, rt.nrows(), nrows=1, validate=False)
        return getitem(outer, (slice(None),) + rest) if rest else outer
    splits = rt.row_splits
    if isinstance(first, slice):
        if first == slice(None) and not rest:
            return rt
        rows = rt
        if first != slice(None):
            n = rt.nrows(out_type=_I64)
            start, stop, step = first.start, first.stop, first.step
            if step not in (None, 1):
                idx = array_ops.range(n, dtype=_I64)[first]
            else:
                idx = array_ops.range(n, dtype=_I64)[start:stop]
            rows = gather(rt, idx)
            if rt.uniform_row_length is not None:  # (the rows kept have that length too)
                rows = RaggedTensor(rows.values, rows.row_splits, internal=True,
                                    uniform_row_length=rt.uniform_row_length)
        if not rest:
            return rows
        return _inner_getitem(rows, rest)
    if isinstance(first, (int, np.integer)) or isinstance(first, Tensor):
        i = convert_to_tensor(first)
        n = rt.nrows(out_type=splits.dtype)
        if _eager(i, n):
            k = int(i._data)
            if not -int(n._data) <= k < int(n._data):
                raise IndexError(f"Row key {k} out of bounds")
            k = k % int(n._data) if int(n._data) else k
            a, b = int(splits._data[k]), int(splits._data[k + 1])
            row = rt.values[a:b] if not isinstance(rt.values, RaggedTensor) else \
                getitem(rt.values, slice(a, b))
        else:
            i = cast_ops.cast(i, splits.dtype)
            i = array_ops.where(math_ops.less(i, array_ops.zeros_like(i)),
                                math_ops.add(i, n), i)
            a, b = splits[i], splits[math_ops.add(i, array_ops.ones_like(i))]
            row = getitem(rt.values, slice(a, b)) if isinstance(rt.values, RaggedTensor) \
                else rt.values[a:b]
        if not rest:
            return row
        return getitem(row, rest) if isinstance(row, RaggedTensor) else \
            slicing.getitem(row, rest)
    raise TypeError(f"Cannot index a RaggedTensor with {first!r}")


def _inner_getitem(rt, key):
    """``rt[:, key...]``: `key` applied inside every row."""
    first, rest = key[0], key[1:]
    splits = rt.row_splits
    starts, limits = splits[:-1], splits[1:]
    if first is Ellipsis:
        if not rest:
            return rt
        return rt.with_flat_values(slicing.getitem(rt.flat_values, (Ellipsis,) + rest))
    if first is None:  # each row alone in a new row of length 1: [nrows, 1, ...]
        wrapped = RaggedTensor.from_uniform_row_length(rt, 1, nrows=rt.nrows(), validate=False)
        return getitem(wrapped, (slice(None), slice(None)) + rest) if rest else wrapped
    if isinstance(first, (int, np.integer, Tensor)):
        # (TF's rule: only uniform dimensions take an integer index)
        raise ValueError("Cannot index into an inner ragged dimension.")
    if first == slice(None) and rest and rt.uniform_row_length is not None:
        # (every element of uniform rows: the partition kept, its length known)
        values = rt.values
        return rt.with_values(_inner_getitem(values, rest) if isinstance(
            values, RaggedTensor) else slicing.getitem(values, (slice(None),) + rest))
    if isinstance(first, slice):
        step = 1 if first.step is None else int(first.step)
        if step == 0:
            raise ValueError("slice step cannot be zero")
        lengths = math_ops.subtract(limits, starts)

        def bound(b, default, least=None, most=lengths):
            """Python's bound `b` of each row: within [0, length] going forward, within
            [-1, length - 1] (`least`, `most`) going backward (-1: before the first)."""
            if b is None:
                return default
            zero = array_ops.zeros_like(lengths) if least is None else least
            known = b if not isinstance(b, Tensor) else get_static_value(b)
            if known is None:  # (a bound known when the graph runs)
                b = cast_ops.cast(b, splits.dtype)
                full = array_ops.where(math_ops.less(b, array_ops.zeros_like(b)),
                                       math_ops.add(lengths, b), b)
            else:
                b = _constant(int(known), splits.dtype)
                full = math_ops.add(lengths, b) if int(known) < 0 else b
            return math_ops.minimum(math_ops.maximum(full, zero), most)
        if step > 0:
            lo = bound(first.start, array_ops.zeros_like(lengths))
            hi = math_ops.maximum(bound(first.stop, lengths), lo)
        else:
            least = math_ops.subtract(array_ops.zeros_like(lengths), 1)
            most = math_ops.subtract(lengths, 1)
            lo = bound(first.start, most, least, most)
            hi = math_ops.minimum(bound(first.stop, least, least, most), lo)
        picked = range(math_ops.add(starts, lo), math_ops.add(starts, hi), step,
                       row_splits_dtype=splits.dtype)
        inner = gather(rt.values, picked.values) if isinstance(rt.values, RaggedTensor) else \
            array_ops.gather(rt.values, picked.values)
        result = RaggedTensor.from_row_splits(inner, picked.row_splits, validate=False)
        if not rest:
            return result
        values = result.values
        return result.with_values(_inner_getitem(values, rest) if isinstance(
            values, RaggedTensor) else slicing.getitem(values, (slice(None),) + rest))
    raise TypeError(f"Cannot index a RaggedTensor with {first!r}")


# -- reductions ------------------------------------------------------------------------------------
_SEGMENT = {"sum": reduction_ops.unsorted_segment_sum, "prod": reduction_ops.unsorted_segment_prod,
            "max": reduction_ops.unsorted_segment_max, "min": reduction_ops.unsorted_segment_min}


def _reduce_axis(rt, kind, axis, keepdims=False):
    """`rt` reduced over one `axis` (non-negative), that axis kept (of length 1) with
    `keepdims`."""
    if not isinstance(rt, RaggedTensor):
        reduced = _dense_reduce(kind)(rt, axis=axis)
        return array_ops.expand_dims(reduced, axis) if keepdims else reduced
    if axis > rt.ragged_rank:
        return rt.with_flat_values(_reduce_axis(rt.flat_values, kind, axis - rt.ragged_rank,
                                                keepdims))
    if axis >= 2:
        return rt.with_values(_reduce_axis(rt.values, kind, axis - 1, keepdims))
    if axis == 1:  # the rows' elements reduced together, row by row
        ids, n = rt.value_rowids(), rt.nrows()
    else:  # the elements at each position of the rows reduced together
        ids, n = _segments(rt, 0)
    reduced = _segment_aggregate(kind, rt.values, ids, n)
    return expand_dims(reduced, axis) if keepdims else reduced


def _segment_aggregate(kind, data, ids, n):
    """The rows of `data` (dense or ragged) reduced within the `n` segments `ids`; ragged rows
    position by position, into rows as long as the longest of their segment."""
    if not isinstance(data, RaggedTensor):
        if kind in ("any", "all"):
            seg = _SEGMENT["max" if kind == "any" else "min"]
            return math_ops.greater(seg(cast_ops.cast(data, _d.int32), ids, n),
                                    array_ops.zeros([], _d.int32))
        return _segment_reduce(kind)(data, ids, n)
    lengths = data.row_lengths()
    width = reduction_ops.unsorted_segment_max(lengths, ids, n)
    width = math_ops.maximum(width, array_ops.zeros_like(width))
    splits = array_ops.concat([array_ops.zeros([1], width.dtype),
                               reduction_ops.cumsum(width)], 0)
    rows = data.value_rowids()
    cols = math_ops.subtract(array_ops.range(array_ops.size(rows, out_type=rows.dtype),
                                             dtype=rows.dtype),
                             array_ops.gather(data.row_splits, rows))
    value_ids = math_ops.add(array_ops.gather(splits, array_ops.gather(
        cast_ops.cast(ids, splits.dtype), rows)), cols)
    values = _segment_aggregate(kind, data.values, value_ids, splits[-1])
    return RaggedTensor.from_row_splits(values, splits, validate=False)


def _segments(rt, axis):
    """Segment ids of `rt`'s values for reducing `axis` (0: by column, 1: by row), and their
    number."""
    if axis == 1:
        return rt.value_rowids(), rt.nrows()
    rows = rt.value_rowids()
    cols = math_ops.subtract(array_ops.range(array_ops.size(rows, out_type=rows.dtype),
                                             dtype=rows.dtype),
                             array_ops.gather(rt.row_splits, rows))
    lengths = rt.row_lengths()
    width = reduction_ops.reduce_max(array_ops.concat([array_ops.zeros([1], lengths.dtype),
                                                      lengths], 0))
    return cols, width


def expand_dims(rt, axis):
    """`rt` with a dimension of length 1 inserted at `axis` (as ``tf.expand_dims``)."""
    if not isinstance(rt, RaggedTensor):
        return array_ops.expand_dims(rt, axis)
    if axis < 0:
        axis += rt.shape.rank + 1
    if axis == 0:  # one row of uniform length: the static shape keeps nrows, as in TF
        return RaggedTensor.from_uniform_row_length(rt, rt.nrows(), 1)
    if axis == 1:
        return RaggedTensor.from_uniform_row_length(rt, 1, rt.nrows())
    if axis > rt.ragged_rank:
        return rt.with_flat_values(array_ops.expand_dims(rt.flat_values,
                                                         axis - rt.ragged_rank))
    return rt.with_values(expand_dims(rt.values, axis - 1))


_DENSE_REDUCE = {"sum": reduction_ops.reduce_sum, "prod": reduction_ops.reduce_prod,
                 "max": reduction_ops.reduce_max, "min": reduction_ops.reduce_min,
                 "any": reduction_ops.reduce_any, "all": reduction_ops.reduce_all}


def _dense_reduce(kind):
    """The reduction of dense tensors of `kind`: a name, or an object with ``dense(x,
    axis=None)`` and ``segments(values, ids, n)`` (a string join)."""
    return _DENSE_REDUCE[kind] if isinstance(kind, str) else kind.dense


def _segment_reduce(kind):
    return _SEGMENT[kind] if isinstance(kind, str) else kind.segments


def reduce(rt, kind, axis=None, keepdims=False):
    """Ragged reduction `kind` (sum, prod, max, min, any, all, mean, variance, std) over
    `axis`."""
    if kind in ("variance", "std"):  # as TF: E[x^2] - E[x]^2, clipped at 0
        if rt.dtype.is_complex:
            raise ValueError(f"reduce_{kind} is not supported for RaggedTensors with complex "
                             f"dtypes.")
        mean_of_square = reduce(rt.with_flat_values(math_ops.square(rt.flat_values)), "mean",
                                axis, keepdims)
        mean = reduce(rt, "mean", axis, keepdims)
        variance = map_flat_values(
            lambda a, b: math_ops.maximum(math_ops.subtract(a, math_ops.square(b)),
                                          array_ops.zeros([], a.dtype)), mean_of_square, mean)
        return variance if kind == "variance" else map_flat_values(math_ops.sqrt, variance)
    if kind == "mean":
        total = reduce(rt, "sum", axis, keepdims)
        # (integers divide as TF's truediv casts them: up to 16 bits to float32, else float64)
        target = total.dtype if total.dtype.is_floating or total.dtype.is_complex else \
            _d.float32 if total.dtype.size <= 2 else _d.float64
        ones = rt.with_flat_values(array_ops.ones_like(rt.flat_values, dtype=target))
        count = reduce(ones, "sum", axis, keepdims)
        if target != total.dtype:
            total = total.with_flat_values(cast_ops.cast(total.flat_values, target)) \
                if isinstance(total, RaggedTensor) else cast_ops.cast(total, target)
        return elementwise(math_ops.truediv, {"x": total, "y": count}, ("x", "y")) if \
            isinstance(total, RaggedTensor) else math_ops.truediv(total, count)
    if axis is None:
        return _dense_reduce(kind)(rt.flat_values) if not keepdims else \
            array_ops.reshape(_dense_reduce(kind)(rt.flat_values),
                              [1] * rt.shape.rank)
    rank = rt.shape.rank
    axes = sorted({a + rank if a < 0 else a for a in (
        np.asarray(axis).reshape(-1).tolist() if not isinstance(axis, Tensor)
        else np.asarray(axis).reshape(-1).tolist())}, reverse=True)
    for a in axes:
        if not 0 <= a < rank:
            raise ValueError(f"axis={a} out of bounds: expected {-rank}<=axis<{rank}")
    result = rt
    for a in axes:  # (each kept, as TF keeps them, before the next one is reduced)
        result = _reduce_axis(result, kind, a, keepdims)
    return result


# -- where / shape ---------------------------------------------------------------------------------
def where(condition, x=None, y=None):
    if x is None and y is None:
        st = condition.to_sparse()
        return array_ops.boolean_mask(st.indices, st.values)
    ragged = _first_ragged([condition, x, y])
    flat = _aligned([condition, x, y], ragged)
    return ragged.with_flat_values(array_ops.where(*flat))


# -- cross ------------------------------------------------------------------------------------
def _cross(inputs, hashed, kwargs):
    """The features of each row of `inputs` (ragged, dense and sparse, of rank 2), crossed in
    the order given, as a ragged tensor (TF's op RaggedCross)."""
    ragged, sparse, dense, order = [], [], [], ""
    for i, x in enumerate(inputs):
        if not isinstance(x, (RaggedTensor, SparseTensor)):
            x = convert_to_tensor(x)
        if x.dtype.is_integer:
            x = x.with_values(cast_ops.cast(x.values, _I64)) if not isinstance(
                x, Tensor) else cast_ops.cast(x, _I64)
        elif x.dtype != _d.string:
            raise ValueError(f"Unexpected dtype for inputs[{i}]: <dtype: '{x.dtype.name}'>")
        if isinstance(x, RaggedTensor):
            if x.ragged_rank != 1:
                raise ValueError("tf.ragged.cross only supports inputs with rank=2")
            ragged.append(x)
            order += "R"
        elif isinstance(x, SparseTensor):
            sparse.append(x)
            order += "S"
        else:
            dense.append(x)
            order += "D"
    splits_dtype = _d.int32 if ragged and all(r.row_splits.dtype == _d.int32
                                              for r in ragged) else _I64
    values, splits = ragged_kernels.cross(ragged, sparse, dense, order, hashed,
                                          kwargs.get("num_buckets", 0),
                                          _DEFAULT_CROSS_HASH_KEY if kwargs.get("hash_key")
                                          is None else kwargs["hash_key"],
                                          splits_dtype, kwargs.get("name"))
    return RaggedTensor.from_row_splits(values, splits, validate=False)


_DEFAULT_CROSS_HASH_KEY = 0xDECAFCAFFE


@export("ragged.cross")
def cross(inputs, name=None):
    """The crossed features of each row of `inputs` (2-D ragged or dense tensors or
    SparseTensors of strings or integers): every combination, one from each input in order,
    joined by ``"_X_"``, as a ragged tensor of strings.

    >>> tf.ragged.cross([tf.ragged.constant([["a", "b"], ["c"]]),
    ...                  tf.constant([["d"], ["e"]])]).to_list()
    [[b'a_X_d', b'b_X_d'], [b'c_X_e']]
    """
    return _cross(inputs, False, {"name": name})


@export("ragged.cross_hashed")
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """As `cross`, each combination hashed (FarmHash fingerprints combined as TF does) into
    ``[0, num_buckets)`` (int64; any int64 when `num_buckets` is 0)."""
    return _cross(inputs, True, {"num_buckets": num_buckets, "hash_key": hash_key,
                                 "name": name})


@export("experimental.DynamicRaggedShape")
class DynamicRaggedShape:
    """The shape of a ragged tensor (``tf.shape`` of one): its row lengths per ragged
    dimension and its uniform dimensions."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=False,
                 static_inner_shape=None):
        self._row_partitions = tuple(row_partitions)  # the row lengths of each ragged dim
        self._inner_shape = inner_shape
        self._nrows = None
        # the length of every row of each partition that has one by construction, else None
        self._uniform = (None,) * len(self._row_partitions)

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=_I64):
        """The shape whose dimensions have `lengths`: an int for a uniform dimension, a
        tuple of row lengths for a ragged one.

        >>> tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), 3])
        <DynamicRaggedShape lengths=[2, (2, 1), 3] num_row_partitions=1>
        """
        dtype = _d.as_dtype(dtype)
        lengths = list(lengths)
        ragged = [i for i, n in enumerate(lengths) if not isinstance(n, (int, np.integer))]
        if ragged and ragged[0] == 0:
            raise ValueError("First dimension must be an int")  # (the number of rows)
        k = ragged[-1] if ragged else 0
        if num_row_partitions is not None:
            if num_row_partitions < k or num_row_partitions >= max(len(lengths), 1):
                raise ValueError(f"num_row_partitions={num_row_partitions} does not fit the "
                                 f"lengths {lengths}")
            k = num_row_partitions
        np_dtype = dtype.as_numpy_dtype
        if not k:
            return cls((), _constant(np.asarray(lengths, np_dtype).reshape([-1]), dtype))
        count, partitions, uniform = int(lengths[0]), [], []
        for n in lengths[1:k + 1]:
            if isinstance(n, (int, np.integer)):  # (a uniform dimension inside a ragged one)
                partitions.append(np.full([count], int(n), np_dtype))
                uniform.append(int(n))
                count *= int(n)
            else:
                if len(n) != count:
                    raise ValueError("Shape not consistent.")
                partitions.append(np.asarray(n, np_dtype).reshape([-1]))
                uniform.append(None)
                count = int(np.sum(partitions[-1]))
        shape = cls([_constant(p, dtype) for p in partitions], _constant(
            np.asarray([count] + [int(n) for n in lengths[k + 1:]], np_dtype), dtype))
        shape._nrows = _constant(int(lengths[0]), dtype)
        shape._uniform = tuple(uniform)
        return shape

    @classmethod
    def from_tensor(cls, t, dtype=None):
        dtype = _d.as_dtype(dtype or _I64)
        if isinstance(t, RaggedTensor):
            shape = cls(t.nested_row_lengths(), array_ops.shape(t.flat_values, out_type=dtype))
            shape._nrows = t.nrows(out_type=dtype)
            return shape
        return cls((), array_ops.shape(t, out_type=dtype))

    rank = property(lambda self: len(self._row_partitions) + (
        self._inner_shape.shape[0] if self._inner_shape.shape.rank else 0))
    num_row_partitions = property(lambda self: len(self._row_partitions))
    inner_shape = property(lambda self: self._inner_shape)
    dtype = property(lambda self: self._inner_shape.dtype)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._slice(index)
        if index < 0:
            index += self.rank
        if index == 0 and self._row_partitions:
            return self._nrows
        if 0 < index <= len(self._row_partitions):
            raise ValueError(f"Index {index} is not uniform")
        k = index - len(self._row_partitions)
        return self._inner_shape[k]

    def _slice(self, index):
        if index.step not in (None, 1):
            raise IndexError("Cannot stride through a shape")
        start, stop, _ = index.indices(self.rank)
        if start > 0 and self._row_partitions:
            raise ValueError("All relevant dimensions must be uniform")
        if not self._row_partitions or start > 0:
            return self._inner_shape[start:stop]
        k = len(self._row_partitions)
        if stop > k:  # every ragged dimension and some uniform ones
            shape = DynamicRaggedShape(self._row_partitions, self._inner_shape[:stop - k])
            shape._nrows = self._nrows
            return shape
        # the first `stop` dimensions: `stop - 1` ragged ones over their values' count
        count = self._nrows if stop == 1 else reduction_ops.reduce_sum(
            self._row_partitions[stop - 2])
        shape = DynamicRaggedShape(self._row_partitions[:stop - 1], array_ops.reshape(
            cast_ops.cast(count, self.dtype), [1]))
        shape._nrows = self._nrows
        return shape

    def to_ragged(self, flat_values):
        """A ragged tensor of this shape's row lengths holding `flat_values` (of the inner
        shape)."""
        if not self._row_partitions:
            return flat_values
        result = flat_values
        for lengths, uniform in reversed(list(zip(self._row_partitions, self._uniform))):
            lengths = cast_ops.cast(lengths, self.dtype)
            result = RaggedTensor.from_row_lengths(result, lengths, validate=False) \
                if uniform is None else RaggedTensor.from_uniform_row_length(
                    result, _constant(uniform, self.dtype), nrows=array_ops.shape(lengths, out_type=self.dtype)[0],
                    validate=False)
        return result

    def __tf_tensor__(self, dtype=None, name=None):
        # An op's argument: the op is dispatched (see `ragged_dispatch`), or fails as in TF.
        raise _NotATensor(self)

    @property
    def _type_spec(self):
        # (a composite: a function may return one, as `tf.shape` of a ragged argument)
        return _DynamicRaggedShapeSpec(self.num_row_partitions, self.dtype,
                                       self._inner_shape.shape)

    def static_lengths(self, ragged_lengths=True):
        out = [int(self._nrows)] if self._row_partitions else []
        for lengths, uniform in zip(self._row_partitions, self._uniform):
            out.append(tuple(np.asarray(lengths).tolist()) if uniform is None else uniform)
        out += np.asarray(self._inner_shape).tolist()[1:]
        return out

    def __repr__(self):
        if not self._row_partitions:
            return (f"<DynamicRaggedShape lengths={np.asarray(self._inner_shape).tolist()} "
                    f"num_row_partitions=0>")
        lengths = []
        for d in self.static_lengths():
            lengths.append(str(d) if not isinstance(d, tuple) else
                           "(" + ", ".join(map(str, d)) + ("," if len(d) == 1 else "") + ")")
        return (f"<DynamicRaggedShape lengths=[{', '.join(lengths)}] "
                f"num_row_partitions={self.num_row_partitions}>")


class _DynamicRaggedShapeSpec:
    """The type of a `DynamicRaggedShape`: its components are its row count, the row
    lengths of each ragged dimension and its inner shape."""

    def __init__(self, num_row_partitions, dtype, inner_shape_shape):
        self._num_row_partitions = num_row_partitions
        self._dtype = dtype
        self._inner_shape_shape = TensorShape(inner_shape_shape)

    value_type = property(lambda self: DynamicRaggedShape)

    @property
    def _component_specs(self):
        from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: PLC0415
        if not self._num_row_partitions:
            return [TensorSpec(self._inner_shape_shape, self._dtype)]
        return ([TensorSpec([], self._dtype)]
                + [TensorSpec([None], self._dtype)] * self._num_row_partitions
                + [TensorSpec(self._inner_shape_shape, self._dtype)])

    def _to_components(self, value):
        if not value._row_partitions:
            return [value._inner_shape]
        return [value._nrows, *value._row_partitions, value._inner_shape]

    def _from_components(self, components):
        if not self._num_row_partitions:
            return DynamicRaggedShape((), components[0])
        nrows, *lengths, inner = components
        shape = DynamicRaggedShape(lengths, inner)
        shape._nrows = nrows
        return shape

    def __eq__(self, other):
        return isinstance(other, _DynamicRaggedShapeSpec) and (
            self._num_row_partitions, self._dtype, self._inner_shape_shape) == (
            other._num_row_partitions, other._dtype, other._inner_shape_shape)

    def __hash__(self):
        return hash((self._num_row_partitions, self._dtype))

    def __repr__(self):
        partition = (f"RowPartitionSpec(nrows=None, nvals=None, uniform_row_length=None, "
                     f"dtype={self._dtype!r})")
        partitions = ", ".join([partition] * self._num_row_partitions)
        if self._num_row_partitions == 1:
            partitions += ","
        inner = TensorShape([None] * self._inner_shape_shape[0]
                            if self._inner_shape_shape.rank and
                            self._inner_shape_shape[0] is not None else None)
        return (f"DynamicRaggedShape.Spec(row_partitions=({partitions}), "
                f"static_inner_shape={inner!r}, dtype={self._dtype!r})")


# -- operators ----------------------------------------------------------------------------------
def _operators():
    def binary(fn, reflected=False):
        def op(self, other):
            x, y = (other, self) if reflected else (self, other)
            check_splits_dtypes((x, y))
            return elementwise(fn, {"x": x, "y": y}, ("x", "y"))
        return op

    def unary(fn):
        return lambda self: self.with_flat_values(fn(self.flat_values))

    def invert(x):
        return math_ops.logical_not(x) if x.dtype == _d.bool else \
            api_export.undispatched(_public("bitwise.invert"))(x)

    table = {"add": math_ops.add, "sub": math_ops.subtract, "mul": math_ops.multiply,
             "truediv": math_ops.truediv, "floordiv": math_ops.floordiv,
             "mod": math_ops.floormod, "pow": math_ops.pow,
             "and": math_ops.logical_and, "or": math_ops.logical_or,
             "xor": math_ops.logical_xor}
    for name, fn in table.items():
        fn = api_export.undispatched(fn)
        setattr(RaggedTensor, f"__{name}__", binary(fn))
        setattr(RaggedTensor, f"__r{name}__", binary(fn, reflected=True))
    for name, fn in {"lt": math_ops.less, "le": math_ops.less_equal, "gt": math_ops.greater,
                     "ge": math_ops.greater_equal}.items():
        setattr(RaggedTensor, f"__{name}__", binary(api_export.undispatched(fn)))

    def equality(fn, apart):
        """``==`` / ``!=``: elementwise, or (as TF's) `apart` for a value that does not
        broadcast with the ragged tensor (None, another shape, a value of no tensor)."""
        compare = binary(api_export.undispatched(fn))

        def op(self, other):
            if other is None:
                return apart
            try:
                return compare(self, other)
            except (errors.InvalidArgumentError, ValueError, TypeError):
                return apart
        return op
    RaggedTensor.__eq__ = equality(math_ops.equal, False)
    RaggedTensor.__ne__ = equality(math_ops.not_equal, True)
    def no_matmul(self, other):  # (TF's RaggedTensor has no @: the tensor's converts it)
        if context.executing_eagerly():
            raise ValueError("TypeError: object of type 'RaggedTensor' has no len()\n")
        raise TypeError(str(_NotATensor(self)))
    RaggedTensor.__matmul__ = RaggedTensor.__rmatmul__ = no_matmul
    RaggedTensor.__neg__ = unary(math_ops.negative)
    RaggedTensor.__abs__ = unary(math_ops.abs)
    RaggedTensor.__invert__ = unary(invert)
    RaggedTensor.__getitem__ = getitem


_BY_NAME = None


def _public(name):
    """The function exported as `name` (TF's path, as ``math.add``)."""
    global _BY_NAME
    if _BY_NAME is None:
        _BY_NAME = {}
        for obj, _, attr, names in api_export.EXPORTS:
            if obj is not None and attr is None:
                for n in names:
                    _BY_NAME.setdefault(n, obj)
    return _BY_NAME.get(name)


_operators()


# -- tf.io.RaggedFeature -----------------------------------------------------------------------
class _Partition:
    """A partition of a `RaggedFeature`: `key` names the int64 feature it reads."""

    key = None


def _partition(name, fields, doc):
    cls = type(name, (collections.namedtuple(name, fields), _Partition), {"__doc__": doc})
    cls.__module__ = __name__
    return cls


def _partitioned(p, flat, per_example, part, dtype, validate):
    """`flat` cut into rows by the row starts, row limits or value row ids `part` (one
    example's, or a ragged tensor of each example's, relative to its own values); and the
    number of rows of each example (None for one example)."""
    kind = type(p).__name__
    if per_example is None:
        part = cast_ops.cast(part, dtype)
        make = {"RowStarts": RaggedTensor.from_row_starts,
                "RowLimits": RaggedTensor.from_row_limits,
                "ValueRowIds": RaggedTensor.from_value_rowids}[kind]
        return make(flat, part, validate=validate), None
    values = cast_ops.cast(part.values, dtype)
    counts = cast_ops.cast(part.row_lengths(), dtype)
    if kind == "ValueRowIds":  # an example has as many rows as its largest row id + 1
        nrows = reduce(part.with_flat_values(math_ops.add(values, _constant(1, dtype))), "max",
                       1)
        nrows = math_ops.maximum(nrows, array_ops.zeros_like(nrows))
        first_row = reduction_ops.cumsum(nrows, exclusive=True)
        ids = math_ops.add(values, array_ops.repeat(first_row, counts))
        return RaggedTensor.from_value_rowids(flat, ids, reduction_ops.reduce_sum(nrows),
                                              validate=validate), nrows
    first_value = reduction_ops.cumsum(cast_ops.cast(per_example, dtype), exclusive=True)
    bounds = math_ops.add(values, array_ops.repeat(first_value, counts))
    make = RaggedTensor.from_row_starts if kind == "RowStarts" else RaggedTensor.from_row_limits
    return make(flat, bounds, validate=validate), counts


@export("io.RaggedFeature")
class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A feature of any number of values per example, parsed into a `RaggedTensor` (one row
    per example; for `parse_single_example` the example's values), the values further cut
    by `partitions` (outermost first): `RowLengths`, `RowSplits`, `RowStarts`, `RowLimits`,
    `ValueRowIds` and `UniformRowLength`.

    >>> ex = tf.train.Example(features=tf.train.Features(feature={
    ...     "c": tf.train.Feature(int64_list=tf.train.Int64List(value=[7, 8]))}))
    >>> parsed = tf.io.parse_example([ex.SerializeToString()] * 2,
    ...                              {"c": tf.io.RaggedFeature(tf.int64)})
    >>> parsed["c"].to_list()
    [[7, 8], [7, 8]]
    """

    RowLengths = _partition("RowLengths", ["key"], "Row lengths read from feature `key`.")
    RowSplits = _partition("RowSplits", ["key"], "Row splits read from feature `key`.")
    UniformRowLength = _partition("UniformRowLength", ["length"],
                                  "Rows of `length` values each.")
    RowStarts = _partition("RowStarts", ["key"], "Row starts read from feature `key`.")
    RowLimits = _partition("RowLimits", ["key"], "Row limits read from feature `key`.")
    ValueRowIds = _partition("ValueRowIds", ["key"],
                             "The row of each value, read from feature `key`.")

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=_d.int32,
                validate=False):
        if value_key is not None:
            if not isinstance(value_key, str):
                raise ValueError(f"Argument `value_key` must be a string; got {value_key}")
            if not value_key:
                raise ValueError("Argument `value_key` must not be empty")
        # Example protos hold only int64, float and bytes lists.
        dtype = _d.as_dtype(dtype)
        if dtype not in (_d.int64, _d.float32, _d.string):
            raise ValueError(f"Argument `dtype` must be int64, float32, or bytes; got {dtype!r}")
        row_splits_dtype = _d.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (_d.int32, _d.int64):
            raise ValueError(f"Argument `row_splits_dtype` must be int32 or int64; got "
                             f"{row_splits_dtype!r}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError(f"Argument `partitions` must be a list or tuple. Received "
                            f"partitions={partitions} of type {type(partitions).__name__}.")
        if not isinstance(validate, bool):
            raise TypeError(f"Argument `validate` must be a bool; got {validate!r}")
        kinds = (cls.RowLengths, cls.RowSplits, cls.RowStarts, cls.RowLimits, cls.ValueRowIds,
                 cls.UniformRowLength)
        for p in partitions:
            if not isinstance(p, kinds):
                raise TypeError(f"partitions must be a list of RaggedFeature.Partition, got "
                                f"{p!r}")
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype,
                               validate)

    def _var_len_features(self, key):
        out = {self.value_key or key: parsing_ops.VarLenFeature(self.dtype)}
        for p in self.partitions:
            if getattr(p, "key", None) is not None:
                out[p.key] = parsing_ops.VarLenFeature(_I64)
        return out

    def _from_parsed(self, parsed, key, single, nrows=None):
        """The ragged value of feature `key` from `parsed` (its keys parsed as
        `_var_len_features`); `nrows`: the batch size where it is known while tracing."""
        dtype = self.row_splits_dtype
        values = parsed[self.value_key or key]

        def rows(st):  # the values of each example, as a ragged tensor (batch) or a tensor
            if isinstance(st, tuple):  # (values, row splits), as sequence examples parse
                values, splits = st
                return values if single else RaggedTensor.from_row_splits(
                    values, cast_ops.cast(splits, dtype), validate=False)
            if single:
                return st.values
            return RaggedTensor.from_value_rowids(
                st.values, cast_ops.cast(st.indices[:, 0], dtype),
                cast_ops.cast(st.dense_shape[0], dtype), validate=False)
        current = rows(values)
        flat = current if single else current.values
        per_example = None if single else current.row_lengths()
        for p in reversed(self.partitions):  # (the innermost first)
            if isinstance(p, self.UniformRowLength):
                if not isinstance(flat, RaggedTensor):  # (uniform: still dense)
                    flat = array_ops.reshape(flat, array_ops.concat(
                        [[-1, p.length], array_ops.shape(flat)[1:]], 0))
                else:
                    flat = RaggedTensor.from_uniform_row_length(flat, p.length)
                if per_example is not None:  # (TF divides the splits: a stray value of an
                    # example that is no whole row is counted as the next example's)
                    splits = array_ops.concat([array_ops.zeros([1], dtype),
                                               reduction_ops.cumsum(per_example)], 0)
                    splits = math_ops.floordiv(splits, _constant(p.length, dtype))
                    per_example = math_ops.subtract(splits[1:], splits[:-1])
                continue
            part = rows(parsed[p.key])
            if isinstance(p, (self.RowStarts, self.RowLimits, self.ValueRowIds)):
                flat, per_example = _partitioned(p, flat, per_example, part, dtype,
                                                 self.validate)
                continue
            lengths = cast_ops.cast(part if single else part.values, dtype)
            counts = None if single else part.row_lengths()
            if isinstance(p, self.RowSplits):  # (each example's splits start at 0)
                lengths = math_ops.subtract(lengths[1:], lengths[:-1])
                if not single:
                    # (a difference across two examples' splits is no length: dropped)
                    ids = part.value_rowids()
                    position = array_ops.range(array_ops.size(ids, out_type=ids.dtype),
                                               dtype=ids.dtype)
                    starts = math_ops.equal(array_ops.gather(part.row_splits, ids), position)
                    lengths = array_ops.boolean_mask(lengths,
                                                     math_ops.logical_not(starts)[1:])
                    counts = math_ops.maximum(math_ops.subtract(counts, _constant(1, dtype)),
                                              array_ops.zeros_like(counts))
            flat = RaggedTensor.from_row_lengths(flat, lengths, validate=self.validate)
            per_example = counts
        if single:
            return flat
        if nrows is not None:  # (as TF's row splits have the batch's static length)
            per_example.set_shape([nrows])
        return RaggedTensor.from_row_lengths(flat, per_example, validate=False)

    def _from_parsed_lists(self, parsed, key, outer_splits, single):
        """The value of a feature list: `parsed` holds the (values, row splits) of each key
        with a row per step of every example, `outer_splits` the steps of each example."""
        steps = self._from_parsed(parsed, key, False)
        if single:
            return steps
        return RaggedTensor.from_row_splits(
            steps, cast_ops.cast(outer_splits, self.row_splits_dtype), validate=False)
