"""`RaggedTensor`: a tensor whose rows have different lengths, made of ordinary tensors.

A ragged tensor is its `values` (a tensor, or a ragged tensor for ragged ranks above 1)
cut into rows by `row_splits` (int64 or int32, ``[nrows + 1]``): row ``i`` is
``values[row_splits[i]:row_splits[i + 1]]``. Every op on it is an op on those components,
so it runs eagerly, traces into `function` (a `RaggedTensorSpec` argument is its
components) and passes gradients to its `flat_values`.

>>> rt = tf.RaggedTensor.from_row_lengths([1, 2, 3], row_lengths=[2, 0, 1])
>>> print(rt)
<tf.RaggedTensor [[1, 2], [], [3]]>
>>> rt.to_tensor().numpy().tolist()
[[1, 2], [0, 0], [3, 0]]
"""
import numpy as np

from eagerflow._src.backend.api_export import SymbolicCall, export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import constant as _constant
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register, \
    register_gradient
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec, TypeSpec
from eagerflow._src.ops import array_ops, cast_ops, debugging_ops, math_ops, reduction_ops
from eagerflow._src.ops import shape_rules
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.core.composite_tensor import CompositeTensor

_SPLITS_DTYPES = (_d.int32, _d.int64)


def _splits_dtype(dtype):
    dtype = _d.as_dtype(dtype)
    if dtype not in _SPLITS_DTYPES:
        raise ValueError("row_splits must have dtype int32 or int64")
    return dtype


def _as_index(value, dtype, what):
    """`value` as a 1-D index tensor of `dtype` (int32 or int64); a tensor of the other index
    dtype is cast, as TF's factories do for a Python/NumPy value."""
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
        value = convert_to_tensor(value)  # (a list of tensors: packed, as TF converts it)
    if isinstance(value, Tensor) or getattr(type(value), "__tf_tensor__", None) is not None:
        t = convert_to_tensor(value)
        if t.dtype not in _SPLITS_DTYPES:
            raise ValueError(f"{what} must have dtype int32 or int64")
        if t.dtype != dtype:
            t = cast_ops.cast(t, dtype)
        return t
    if not isinstance(value, np.ndarray) and np.asarray(value).dtype.kind in "fc" and \
            np.asarray(value).size:
        raise ValueError(f"{what} must have dtype int32 or int64")  # (a NumPy array is cast)
    return convert_to_tensor(np.asarray(value, dtype.as_numpy_dtype) if not isinstance(
        value, (list, tuple)) or value else np.zeros([0], dtype.as_numpy_dtype), dtype)


def _eager(*tensors):
    return all(type(t) is EagerTensor for t in tensors)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _check_splits(splits, nvals):
    """TF's checks of `validate=True`, eagerly (a graph runs them as its values arrive)."""
    s = splits._data
    if s.ndim != 1:
        raise ValueError(f"Shape {TensorShape(s.shape)} must have rank 1")
    if s.size == 0:
        raise ValueError("row_splits tensor may not be empty.")
    # (TF's assertions, with their messages)
    invalid = "Arguments to from_row_splits do not form a valid RaggedTensor"
    if s[0] != 0:
        debugging_ops.assert_equal(splits[0], array_ops.zeros([], splits.dtype),
                                   message=f"{invalid}:zero")
    if (np.diff(s) < 0).any():
        debugging_ops.assert_non_negative(math_ops.subtract(splits[1:], splits[:-1]),
                                          message=f"{invalid}:monotonic")
    if nvals is not None and s[-1] != nvals:
        debugging_ops.assert_equal(splits[-1], _constant(nvals, splits.dtype), message=(
            "Arguments to _from_row_partition do not form a valid RaggedTensor"))


def _graph_check_splits(splits, values):
    """TF's assertions of `validate` in a graph, run with it: the splits start at 0, never
    decrease and end at the number of `values`."""
    invalid = "Arguments to from_row_splits do not form a valid RaggedTensor"
    debugging_ops.assert_equal(splits[:1], array_ops.zeros([1], splits.dtype),
                               message=f"{invalid}:zero")
    debugging_ops.assert_non_negative(math_ops.subtract(splits[1:], splits[:-1]),
                                      message=f"{invalid}:monotonic")
    nvals = values.nrows(out_type=splits.dtype) if isinstance(values, RaggedTensor) else \
        array_ops.shape(values, out_type=splits.dtype)[0]
    debugging_ops.assert_equal(splits[-1], nvals, message=(
        "Arguments to _from_row_partition do not form a valid RaggedTensor"))


def _splits_of_lengths(lengths, validate):
    """The row splits of rows of `lengths` (TF's check of `validate`: none negative)."""
    if _eager(lengths):
        if validate and (lengths._data < 0).any():
            debugging_ops.assert_non_negative(lengths, message=(
                "Arguments to from_row_lengths do not form a valid RowPartition"))
        data = np.zeros(lengths._data.size + 1, lengths._data.dtype)
        np.cumsum(lengths._data, out=data[1:])
        return EagerTensor._wrap(data)
    if validate:
        debugging_ops.assert_non_negative(lengths, message=(
            "Arguments to from_row_lengths do not form a valid RowPartition"))
    zero = array_ops.zeros([1], lengths.dtype)
    return array_ops.concat([zero, reduction_ops.cumsum(lengths)], 0)


def _splits_of_rowids(rowids, nrows, dtype, validate):
    """``(row splits, nrows)`` of values in rows `rowids` (sorted), `nrows` rows (default:
    the last id + 1)."""
    rowids.shape.assert_has_rank(1)
    if nrows is None:
        if _eager(rowids):
            nrows = EagerTensor._wrap(np.asarray(
                rowids._data[-1] + 1 if rowids._data.size else 0, dtype.as_numpy_dtype))
        else:
            nrows = math_ops.add(reduction_ops.reduce_max(
                array_ops.concat([_constant([-1], dtype), rowids], 0)),
                _constant(1, dtype))
    else:
        nrows = _as_index(nrows, dtype, "nrows")
        # (TF's checks of values known while building, before its assertions)
        ids, n = get_static_value(rowids), get_static_value(nrows)
        if n is not None and n.ndim == 0:
            if n < 0:
                raise ValueError(f"Expected nrows >= 0; got {int(n)}")
            if ids is not None and ids.size and not n >= ids[-1] + 1:
                raise ValueError(f"Expected nrows >= value_rowids[-1] + 1; got nrows={int(n)}, "
                                 f"value_rowids[-1]={int(ids[-1])}")
        nrows.shape.assert_has_rank(0)
    if _eager(rowids, nrows):
        ids = rowids._data
        # (TF's assertions, with their messages: the first id not negative, ids sorted)
        message = "Arguments to from_value_rowids do not form a valid RowPartition"
        if validate and ids.size and ids[0] < 0:
            debugging_ops.assert_non_negative(rowids[:1], message=message)
        if validate and (np.diff(ids) < 0).any():
            debugging_ops.assert_non_negative(math_ops.subtract(rowids[1:], rowids[:-1]),
                                              message=message)
        counts = np.bincount(ids, minlength=int(nrows._data)).astype(ids.dtype)
        data = np.zeros(counts.size + 1, ids.dtype)
        np.cumsum(counts, out=data[1:])
        return EagerTensor._wrap(data), nrows
    if validate:  # (in a graph: TF's assertions, run with it)
        message = "Arguments to from_value_rowids do not form a valid RowPartition"
        debugging_ops.assert_non_negative(rowids[:1], message=message)
        debugging_ops.assert_non_negative(math_ops.subtract(rowids[1:], rowids[:-1]),
                                          message=message)
        debugging_ops.assert_less(rowids[-1:], array_ops.reshape(nrows, [1]), message=message)
    counts = reduction_ops.unsorted_segment_sum(array_ops.ones_like(rowids), rowids, nrows)
    return array_ops.concat([array_ops.zeros([1], dtype), reduction_ops.cumsum(counts)],
                            0), nrows


def _uniform_nrows(length, nrows, nvals, validate):
    """The number of rows of `uniform_row_length` `length` (`nrows`, or as many as `nvals`
    values fill), with TF's checks of the values known while building."""
    length.shape.assert_has_rank(0)
    known = get_static_value(length)
    if nrows is None and known is None:
        nrows = math_ops.floordiv(nvals, math_ops.maximum(length, _constant(1, length.dtype)))
    elif nrows is None:  # (as TF: 0 rows of length 0)
        nrows = (_constant(0, length.dtype) if known == 0 else math_ops.floordiv(nvals, length))
    known = [get_static_value(t) for t in (length, nrows, nvals)]
    if validate and not any(k is None for k in known):
        k_length, k_nrows, k_nvals = (int(k) for k in known)
        if k_nrows * k_length != k_nvals:
            raise ValueError(f"uniform_row_length={k_length} times nrows={k_nrows} must equal "
                             f"nvals={k_nvals}")
        if k_length < 0:
            raise ValueError("uniform_row_length must be >= 0.")
    return nrows


def _nvals(values):
    """The number of rows of `values` (a tensor or ragged tensor): an int when known."""
    if isinstance(values, RaggedTensor):
        return values.nrows()
    return values.shape[0] if values.shape.rank else None


class NestedRows:
    """The nesting of a value made of `_values` split into rows by `_row_splits`, its values
    perhaps another of its kind: `RaggedTensor`'s, and TF 1's `RaggedTensorValue`'s."""

    __slots__ = ()

    @property
    def flat_values(self):
        """The innermost values, whatever the ragged rank."""
        values = self._values
        while isinstance(values, NestedRows):
            values = values._values
        return values

    @property
    def nested_row_splits(self):
        """The row splits of every ragged dimension, outermost first."""
        out, rt = [], self
        while isinstance(rt, NestedRows):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self):
        values = self._values
        return values.ragged_rank + 1 if isinstance(values, NestedRows) else 1


@export("RaggedTensor")
@CompositeTensor.register
class RaggedTensor(NestedRows):
    """A tensor with rows of different lengths (``tf.RaggedTensor``); made with its factory
    classmethods (`from_row_lengths`, `from_row_splits`, ...) or `tf.ragged.constant`."""

    # NumPy defers binary operators to us (np.int32(2) + rt -> rt.__radd__), as for a Tensor:
    # its own would turn the rows into an object array
    __array_priority__ = 100

    def __init__(self, values, row_splits, cached_row_lengths=None, cached_value_rowids=None,
                 cached_nrows=None, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._row_lengths = cached_row_lengths
        self._value_rowids = cached_value_rowids
        self._nrows = cached_nrows
        self._uniform_row_length = uniform_row_length  # (a tensor: rows of one length)

    # -- factories --------------------------------------------------------------------------
    @classmethod
    def _from_splits(cls, values, row_splits, validate=True, **cached):
        if not isinstance(values, RaggedTensor):
            values = convert_to_tensor(values)
            if values.shape.rank == 0:
                raise ValueError("values must have rank >= 1")
        elif values.row_splits.dtype != row_splits.dtype:
            raise ValueError("dtype mismatch: values.row_splits.dtype="
                             f"{values.row_splits.dtype!r} and row_splits.dtype="
                             f"{row_splits.dtype!r}; use with_row_splits_dtype to convert")
        if validate and _eager(row_splits):
            n = _nvals(values)
            _check_splits(row_splits, int(n) if isinstance(n, (int, EagerTensor)) else None)
        if validate and not context.executing_eagerly():
            _graph_check_splits(row_splits, values)
        return cls(values, row_splits, internal=True, **cached)

    @classmethod
    def _index_dtype(cls, values, *indices):
        if isinstance(values, RaggedTensor):
            return values.row_splits.dtype
        for i in indices:
            if isinstance(i, Tensor) and i.dtype in _SPLITS_DTYPES:
                return i.dtype
        return _d.int64

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Rows ``values[row_splits[i]:row_splits[i + 1]]``.

        >>> print(tf.RaggedTensor.from_row_splits([3, 1, 4, 1, 5], [0, 4, 4, 5]))
        <tf.RaggedTensor [[3, 1, 4, 1], [], [5]]>
        """
        splits = _as_index(row_splits, cls._index_dtype(values, row_splits), "row_splits")
        return cls._from_splits(values, splits, validate)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Consecutive rows of `row_lengths` values each."""
        lengths = _as_index(row_lengths, cls._index_dtype(values, row_lengths), "row_lengths")
        return cls._from_splits(values, _splits_of_lengths(lengths, validate), validate,
                                cached_row_lengths=lengths)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Row ``value_rowids[i]`` holds value ``i`` (ids sorted); `nrows` rows (default: the
        last id + 1)."""
        dtype = cls._index_dtype(values, value_rowids, nrows)
        rowids = _as_index(value_rowids, dtype, "value_rowids")
        splits, nrows = _splits_of_rowids(rowids, nrows, dtype, validate)
        if not isinstance(values, RaggedTensor):
            values = convert_to_tensor(values)
        values.shape[:1].assert_is_compatible_with(rowids.shape)
        return cls._from_splits(values, splits, validate, cached_value_rowids=rowids,
                                cached_nrows=nrows)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        """Row ``i`` from ``row_starts[i]`` to the next row's start (the last to the end)."""
        dtype = cls._index_dtype(values, row_starts)
        starts = _as_index(row_starts, dtype, "row_starts")
        n = _nrows_of(values, dtype)
        return cls._from_splits(values, array_ops.concat([starts, array_ops.reshape(n, [1])],
                                                         0), validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        """Row ``i`` from the previous row's limit (0 for the first) to ``row_limits[i]``."""
        limits = _as_index(row_limits, cls._index_dtype(values, row_limits), "row_limits")
        return cls._from_splits(values, array_ops.concat(
            [array_ops.zeros([1], limits.dtype), limits], 0), validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Rows of `uniform_row_length` values each."""
        dtype = cls._index_dtype(values, uniform_row_length)
        length = _as_index(uniform_row_length, dtype, "UniformRowLength")
        nrows = _uniform_nrows(length, None if nrows is None else convert_to_tensor(
            nrows, dtype), _nrows_of(values, dtype), validate)
        splits = math_ops.multiply(array_ops.range(math_ops.add(
            nrows, _constant(1, dtype)), dtype=dtype), length)
        return cls._from_splits(values, splits, validate, uniform_row_length=length)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        """One ragged dimension per entry of `nested_row_splits`, outermost first."""
        if isinstance(nested_row_splits, (Tensor, np.ndarray)):
            raise TypeError("nested_row_splits must be a list of Tensors")
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate=True):
        """One ragged dimension per entry of `nested_row_lengths`, outermost first."""
        if isinstance(nested_row_lengths, (Tensor, np.ndarray)):
            raise TypeError("nested_row_lengths must be a list of Tensors")
        result = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        """One ragged dimension per entry of `nested_value_rowids`, outermost first."""
        ids = list(nested_value_rowids)
        nrows = [None] * len(ids) if nested_nrows is None else list(nested_nrows)
        if len(nrows) != len(ids):
            raise ValueError("Argument `nested_nrows` must have the same length as argument "
                             "`nested_value_rowids`")
        result = flat_values
        for rowids, n in reversed(list(zip(ids, nrows))):
            result = cls.from_value_rowids(result, rowids, n, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=_d.int64):
        """The rows of dense `tensor`, cut to `lengths`, or with trailing `padding` removed.

        >>> print(tf.RaggedTensor.from_tensor([[1, 0], [2, 3]], padding=0))
        <tf.RaggedTensor [[1], [2, 3]]>
        """
        if lengths is not None and padding is not None:
            raise ValueError("Specify argument `lengths` or `padding`, but not both.")
        dtype = _splits_dtype(row_splits_dtype)
        if not isinstance(ragged_rank, int):
            raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
        if ragged_rank <= 0:
            raise ValueError(f"Argument `ragged_rank` must be greater than 0. Received "
                             f"{ragged_rank}.")
        tensor = convert_to_tensor(tensor)
        rank = tensor.shape.rank
        if rank is not None and rank < 2:
            raise ValueError(f"The rank of a RaggedTensor must be greater than 1, i.e., a list "
                             f"of scalars won't have ragged dimensions. Received argument "
                             f"`tensor` with rank {rank}.")
        tensor.shape.with_rank_at_least(ragged_rank + 1)
        if isinstance(lengths, (list, tuple)) and lengths and not isinstance(
                lengths[0], (int, float)):  # (as TF: one vector of lengths per dimension)
            if ragged_rank not in (1, len(lengths)):  # (1: the default, as TF takes it)
                raise ValueError(f"If Argument `lengths` is a tuple of row_lengths, argument "
                                 f"`ragged_rank` must be len(lengths): {len(lengths)}. "
                                 f"Received ragged_rank: {ragged_rank}.")
            tensor.shape.with_rank_at_least(len(lengths) + 1)
            values = tensor
            nested = []
            for level, level_lengths in enumerate(lengths):
                level_lengths = _as_index(level_lengths, dtype, "lengths")
                width = array_ops.shape(values, out_type=dtype)[1]
                values = array_ops.boolean_mask(values, array_ops.sequence_mask(
                    math_ops.minimum(level_lengths, width), width))
                nested.append(level_lengths)
            return cls.from_nested_row_lengths(values, nested, validate=False)
        if padding is not None:
            inner = tensor.shape[ragged_rank + 1:]
            padding_shape = convert_to_tensor(padding).shape
            if not padding_shape.is_compatible_with(inner):
                raise ValueError(f"Shapes {padding_shape} and {inner} are incompatible")
        if ragged_rank > 1:  # the outer dims uniform, the innermost cut as asked
            shape = array_ops.shape(tensor, out_type=dtype)
            inner = array_ops.reshape(tensor, array_ops.concat(
                [_constant([-1], dtype), shape[2:]], 0))
            if lengths is not None and not isinstance(lengths, (list, tuple)):
                lengths = array_ops.reshape(lengths, [-1])
            values = cls.from_tensor(inner, lengths, padding, ragged_rank - 1,
                                     row_splits_dtype=dtype)
            return cls.from_uniform_row_length(values, shape[1], shape[0])
        shape = array_ops.shape(tensor, out_type=dtype)
        nrows, ncols = shape[0], shape[1]
        if padding is not None:
            padding = convert_to_tensor(padding, tensor.dtype)
            pad = math_ops.equal(tensor, padding)
            if tensor.shape.rank > 2:
                pad = reduction_ops.reduce_all(pad, axis=list(range(2, tensor.shape.rank)))
            kept = cast_ops.cast(math_ops.logical_not(pad), dtype)
            positions = math_ops.add(array_ops.range(ncols, dtype=dtype),
                                     _constant(1, dtype))
            lengths = reduction_ops.reduce_max(math_ops.multiply(kept, positions), axis=1)
            lengths = math_ops.maximum(lengths, _constant(0, dtype))
        if lengths is None:
            values = array_ops.reshape(tensor, array_ops.concat(
                [_constant([-1], dtype), shape[2:]], 0))
            return cls.from_uniform_row_length(values, ncols, nrows)
        lengths = _as_index(lengths, dtype, "lengths")
        lengths = math_ops.minimum(lengths, ncols)
        mask = array_ops.sequence_mask(lengths, ncols)
        return cls.from_row_lengths(array_ops.boolean_mask(tensor, mask), lengths,
                                    validate=False)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=_d.int64):
        """The rows of 2-D `SparseTensor` `st_input` (indices in row-major order)."""
        if not isinstance(st_input, SparseTensor):
            raise TypeError(f"st_input must be tf.SparseTensor; got {type(st_input).__name__}")
        if st_input.shape.rank is not None and st_input.shape.rank != 2:
            raise ValueError(f"rank(st_input) must be 2.")
        dtype = _splits_dtype(row_splits_dtype)
        rows = cast_ops.cast(st_input.indices[:, 0], dtype)
        rt = cls.from_value_rowids(st_input.values, rows,
                                   cast_ops.cast(st_input.dense_shape[0], dtype),
                                   validate=False)
        # Each row's columns must be 0, 1, 2, ... (right-ragged), else entries would move.
        cols = cast_ops.cast(st_input.indices[:, 1], dtype)
        first = array_ops.gather(rt.row_splits, rows)  # where each entry's row starts
        place = math_ops.subtract(array_ops.range(array_ops.shape(rows, out_type=dtype)[0],
                                                  dtype=dtype), first)
        if _eager(cols, place):
            ok = _constant(cols._data.shape == place._data.shape and not (
                (cols._data != place._data).any() or (np.diff(rows._data) < 0).any()))
        else:
            ok = reduction_ops.reduce_all(math_ops.equal(cols, place))
        # (TF's Assert, its error showing the indices)
        debugging_ops.Assert(ok, ["SparseTensor is not right-ragged", "SparseTensor.indices =",
                                  st_input.indices])
        return rt

    # -- components -----------------------------------------------------------------------
    values = property(lambda self: self._values,
                      doc="The concatenated rows (a tensor, or a ragged tensor).")
    row_splits = property(lambda self: self._row_splits, doc="Where each row starts and ends.")

    dtype = property(lambda self: self.flat_values.dtype)

    @property
    def shape(self):
        """The static shape: rows, None per ragged dimension, then the values' inner dims."""
        n = self._row_splits.shape[0]
        values_shape = self._values.shape
        uniform = None if self._uniform_row_length is None else get_static_value(
            self._uniform_row_length)
        rows = TensorShape([None if n is None else n - 1,
                            None if uniform is None else int(uniform)])
        return rows.concatenate(values_shape[1:] if values_shape.rank is not None
                                else TensorShape(None))

    def get_shape(self):
        return self.shape

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    def row_lengths(self, axis=1, name=None):
        """The length of each row (of dimension `axis`; a negative `axis` counts from the
        last dimension).

        >>> tf.ragged.constant([[[1, 2], [3]], [[4]]]).row_lengths(axis=-1).to_list()
        [[2, 1], [1]]
        """
        rank = None if axis in (0, 1) else self.shape.rank
        if rank is not None:
            if not -rank <= axis < rank:
                raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
            axis %= rank
        if axis == 0:
            return self.nrows()
        if axis == 1:
            s = self._row_splits
            return self._cached("_row_lengths", lambda: EagerTensor._wrap(np.diff(s._data))
                                if _eager(s) else math_ops.subtract(s[1:], s[:-1]))
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1))
        if axis < 0:
            raise ValueError("Negative axis values are not supported")
        return self.with_values(array_ops.fill(array_ops.stack(
            [array_ops.shape(self._values, out_type=self.row_splits_dtype)[0]]),
            array_ops.shape(self._values, out_type=self.row_splits_dtype)[axis - 1]))

    def _cached(self, attr, compute):
        """The encoding `attr` of the row partition, computed once. Kept only where the
        splits live: one computed in a graph nested in theirs (a loop's body, a branch) is
        out of reach of the graph holding them."""
        value = getattr(self, attr)
        if value is None:
            value = compute()
            s = self._row_splits
            if _eager(s) or getattr(s, "graph", None) is context.get().graph:
                setattr(self, attr, value)
        return value

    def nested_row_lengths(self, name=None):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_lengths())
            rt = rt._values
        return tuple(out)

    def value_rowids(self, name=None):
        """The row of each value."""
        s = self._row_splits
        if _eager(s):
            data = s._data
            return self._cached("_value_rowids", lambda: EagerTensor._wrap(np.repeat(
                np.arange(data.size - 1, dtype=data.dtype), np.diff(data))))
        return self._cached("_value_rowids", lambda: array_ops.repeat(
            array_ops.range(self.nrows(), dtype=s.dtype), self.row_lengths()))

    def nested_value_rowids(self, name=None):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.value_rowids())
            rt = rt._values
        return tuple(out)

    def nrows(self, out_type=None, name=None):
        """The number of rows (a scalar tensor)."""
        s = self._row_splits
        n = self._cached("_nrows", lambda: EagerTensor._wrap(
            np.asarray(s._data.size - 1, s._data.dtype)) if _eager(s) else math_ops.subtract(
                array_ops.shape(s, out_type=s.dtype)[0], _constant(1, s.dtype)))
        return n if out_type is None or _d.as_dtype(out_type) == n.dtype else \
            cast_ops.cast(n, out_type)

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    @property
    def uniform_row_length(self):
        """The length of every row when they are known to have one (a scalar tensor), else
        None."""
        return self._uniform_row_length

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The smallest dense shape holding this tensor (int64, or `out_type`).

        >>> tf.ragged.constant([[1, 2], [3]]).bounding_shape().numpy().tolist()
        [2, 2]
        """
        dtype = self.row_splits_dtype if out_type is None else _d.as_dtype(out_type)
        dims = [self.nrows(out_type=dtype)]
        rt = self
        while isinstance(rt, RaggedTensor):
            lengths = rt.row_lengths()
            longest = reduction_ops.reduce_max(array_ops.concat(
                [array_ops.zeros([1], lengths.dtype), lengths], 0))
            dims.append(cast_ops.cast(longest, dtype) if lengths.dtype != dtype else longest)
            rt = rt._values
        shape = array_ops.concat([array_ops.stack(dims), array_ops.shape(rt, out_type=dtype)[1:]],
                                 0)
        return shape if axis is None else array_ops.gather(shape, axis)

    # -- derived tensors --------------------------------------------------------------------
    def with_values(self, new_values):
        """This tensor's row partition over `new_values` (as many rows as `values`)."""
        if not isinstance(new_values, RaggedTensor):
            new_values = convert_to_tensor(new_values)
        new_values.shape.with_rank_at_least(1)
        # (a different number of values would cut the rows wrongly without a word)
        self._values.shape[:1].assert_is_compatible_with(new_values.shape[:1])
        return RaggedTensor(new_values, self._row_splits, self._row_lengths,
                            self._value_rowids, self._nrows, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values):
        """This tensor's nested row partitions over `new_values` (as many rows as
        `flat_values`)."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        """This tensor with its row partitions cast to `dtype` (int32 or int64)."""
        dtype = _splits_dtype(dtype)
        if dtype == self.row_splits_dtype:
            return self
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.with_row_splits_dtype(dtype)
        uniform = self._uniform_row_length
        return RaggedTensor(values, cast_ops.cast(self._row_splits, dtype), internal=True,
                            uniform_row_length=None if uniform is None
                            else cast_ops.cast(uniform, dtype))

    def merge_dims(self, outer_axis, inner_axis):
        """Dimensions `outer_axis` to `inner_axis` (inclusive) merged into one.

        >>> print(tf.ragged.constant([[1, 2], [3]]).merge_dims(0, 1))
        tf.Tensor([1 2 3], shape=(3,), dtype=int32)
        """
        rank = self.shape.rank
        for name, axis in (("outer_axis", outer_axis), ("inner_axis", inner_axis)):
            if not -rank <= axis < rank:
                raise ValueError(f"{name}={axis} out of bounds: expected {-rank}<={name}<{rank}")
        if outer_axis < 0:
            outer_axis += rank
        if inner_axis < 0:
            inner_axis += rank
        if outer_axis > inner_axis:
            raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to "
                             f"inner_axis ({inner_axis}).")
        if outer_axis == inner_axis:
            return self
        if outer_axis == 0:
            values = self._values
            if inner_axis == 1:
                return values
            if isinstance(values, RaggedTensor):
                return values.merge_dims(0, inner_axis - 1)
            return array_ops.reshape(values, array_ops.concat(
                [[-1], array_ops.shape(values)[inner_axis:]], 0))
        if outer_axis >= 2:
            values = self._values
            return self.with_values(values.merge_dims(outer_axis - 1, inner_axis - 1)
                                    if isinstance(values, RaggedTensor) else
                                    array_ops.reshape(values, array_ops.concat(
                                        [array_ops.shape(values)[:outer_axis - 1], [-1],
                                         array_ops.shape(values)[inner_axis:]], 0)))
        rt = self
        for _ in range(inner_axis - outer_axis):  # dim 1 absorbs dim 2, then the next
            values = rt._values
            if isinstance(values, RaggedTensor):
                splits = array_ops.gather(values.row_splits, rt.row_splits)
                rt = RaggedTensor(values.values, splits, internal=True)
            else:
                shape = array_ops.shape(values, out_type=rt.row_splits_dtype)
                merged = array_ops.reshape(values, array_ops.concat(
                    [array_ops.reshape(math_ops.multiply(shape[0], shape[1]), [1]),
                     shape[2:]], 0))
                rt = RaggedTensor(merged, math_ops.multiply(rt.row_splits, shape[1]),
                                  internal=True)
        return rt

    def to_tensor(self, default_value=None, name=None, shape=None):
        """The dense tensor: rows padded with `default_value` (0, "") to the bounding shape,
        or to `shape` (its None / -1 dims bounding), truncating longer rows.

        >>> tf.ragged.constant([[1, 2], [3]]).to_tensor(9).numpy().tolist()
        [[1, 2], [3, 9]]
        """
        return to_tensor(self, default_value, name, shape)

    def to_sparse(self, name=None):
        """The `SparseTensor` of the values, at their positions in the bounding shape."""
        flat = self.flat_values
        index = None  # the outer index of each element of the current level
        rt = self
        while isinstance(rt, RaggedTensor):
            rows = cast_ops.cast(rt.value_rowids(), _d.int64)
            splits = cast_ops.cast(rt.row_splits, _d.int64)
            cols = math_ops.subtract(array_ops.range(array_ops.shape(rows, out_type=_d.int64)[0],
                                                     dtype=_d.int64),
                                     array_ops.gather(splits, rows))
            parent = array_ops.expand_dims(rows, 1) if index is None else \
                array_ops.gather(index, rows)
            index = array_ops.concat([parent, array_ops.expand_dims(cols, 1)], 1)
            rt = rt._values
        values = flat
        if flat.shape.rank is None or flat.shape.rank > 1:
            inner = array_ops.where(array_ops.ones_like(flat[0], dtype=_d.bool))
            m = array_ops.shape(inner, out_type=_d.int64)[0]
            n = array_ops.shape(index, out_type=_d.int64)[0]
            index = array_ops.concat([array_ops.repeat(index, m, axis=0),
                                      array_ops.tile(inner, array_ops.stack(
                                          [n, _constant(1, _d.int64)]))], 1)
            values = array_ops.reshape(flat, [-1])
        return SparseTensor(index, values, self.bounding_shape(out_type=_d.int64))

    def to_list(self):
        """The nested Python lists of the values (eagerly)."""
        if not _eager(*self.nested_row_splits):
            raise ValueError("RaggedTensor.to_list() is only supported in eager mode.")
        values = self._values
        values = values.to_list() if isinstance(values, RaggedTensor) else \
            np.asarray(values).tolist()
        splits = self._row_splits._data.tolist()
        return [values[a:b] for a, b in zip(splits[:-1], splits[1:])]

    def numpy(self):
        """The rows as NumPy arrays: one array when they have one length, else an object
        array of row arrays (as TF's ``numpy``)."""
        values = self._values.numpy() if isinstance(self._values, RaggedTensor) else \
            np.asarray(self._values)
        splits = self._row_splits.numpy()
        rows = [values[a:b] for a, b in zip(splits[:-1], splits[1:])]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if all(len(r) == len(rows[0]) for r in rows):
            return np.array(rows)
        out = np.empty(len(rows), object)
        for i, r in enumerate(rows):
            out[i] = r
        return out

    def _is_eager(self):
        return _eager(self.flat_values, *self.nested_row_splits)

    # -- printing -----------------------------------------------------------------------------
    def __repr__(self):
        if self._is_eager():
            with np.printoptions(formatter={"all": _format}):
                return f"<tf.RaggedTensor {_format(self.numpy())}>"
        return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"

    __str__ = __repr__

    # -- conversions ---------------------------------------------------------------------------
    def __tf_tensor__(self, dtype=None, name=None):
        # An op's argument: the op is dispatched (see `ragged_dispatch`), or fails as in TF.
        raise _NotATensor(self)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.numpy(), dtype)

    def __len__(self):
        raise TypeError("object of type 'RaggedTensor' has no len()")

    def __hash__(self):  # (its == compares elementwise, as a tensor's)
        raise TypeError("RaggedTensor is unhashable.")

    def __iter__(self):
        """Its rows, where their number is known (eagerly, or fixed in a graph); a loop of
        a function over rows only run time counts is a graph loop (AutoGraph's)."""
        n = get_static_value(self.nrows())
        if n is None:
            raise TypeError("Cannot iterate over a RaggedTensor whose number of rows is known "
                            "only at run time: loop over tf.range(rt.nrows()) or use "
                            "tf.map_fn.")
        return (self[i] for i in range(int(n)))

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    @property
    def _type_spec(self):
        return RaggedTensorSpec.from_value(self)

    def _shape_invariant_to_type_spec(self, shape):
        """The spec of the ragged tensors a loop carries when `shape` is their invariant."""
        return RaggedTensorSpec(shape, self.dtype, self.ragged_rank, self.row_splits.dtype)


class _RaggedGradient:
    """TF's composite-gradient protocol: gradients of a ragged tensor are those of its flat
    values, in its row partition."""

    @staticmethod
    def get_gradient_components(value):
        return value.flat_values

    @staticmethod
    def replace_gradient_components(value, component_grads):
        return value.with_flat_values(convert_to_tensor(component_grads))


RaggedTensor.__composite_gradient__ = _RaggedGradient()

# Hooks ``hook(cls, name, args, kwargs)`` on the factory class methods below, returning the
# call's result, or NotImplemented for calls they leave alone: Keras makes a layer of a
# factory given a functional model's symbolic tensors, as tf_keras does.
FACTORY_HOOKS = []
FACTORIES = ("from_value_rowids", "from_row_splits", "from_row_lengths", "from_row_starts",
             "from_row_limits", "from_uniform_row_length", "from_nested_value_rowids",
             "from_nested_row_splits", "from_nested_row_lengths", "from_tensor", "from_sparse")


def _hooked(name):
    method = getattr(RaggedTensor, name).__func__

    def factory(cls, *args, **kwargs):
        for hook in FACTORY_HOOKS:
            result = hook(cls, name, args, kwargs)
            if result is not NotImplemented:
                return result
        return method(cls, *args, **kwargs)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = method.__doc__
    return classmethod(factory)


for _name in FACTORIES:
    setattr(RaggedTensor, _name, _hooked(_name))


class _NotATensor(SymbolicCall):
    """A ragged tensor given where a tensor is needed: the public function called is
    dispatched (see `api_export`). Its message is written only when it is read."""

    def __init__(self, value):
        super().__init__()
        self.value = value

    def __str__(self):
        if isinstance(self.value, str):  # (made again with a message: a layer's call names it)
            return self.value
        return (f"Failed to convert elements of {self.value} to Tensor. Consider casting "
                f"elements to a supported type. See "
                f"https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.")


def _nrows_of(values, dtype):
    if isinstance(values, RaggedTensor):
        return values.nrows(out_type=dtype)
    return array_ops.shape(values, out_type=dtype)[0]


def _format(x):
    """TF's text of a ragged tensor's NumPy value: NumPy's layout with ", " between
    elements, each element as ``str`` gives it."""
    if isinstance(x, np.ndarray):
        if x.size:
            return np.array2string(x, separator=", ")
        return repr(x.tolist())
    return str(x)


# -- RaggedTensorSpec ----------------------------------------------------------------------------
@export("RaggedTensorSpec")
class RaggedTensorSpec(TypeSpec):
    """The type of a `RaggedTensor`: shape, dtype, ragged rank and row-splits dtype.

    >>> tf.RaggedTensorSpec([None, None], tf.int32)
    RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)
    """

    def __init__(self, shape=None, dtype=_d.float32, ragged_rank=None,
                 row_splits_dtype=_d.int64, flat_values_spec=None):
        self._shape = TensorShape(shape)
        self._dtype = _d.as_dtype(dtype)
        self._row_splits_dtype = _splits_dtype(row_splits_dtype)
        self._flat_values_spec = flat_values_spec
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank. "
                                 f"Received shape={self._shape}")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be less than "
                             f"the rank of `shape` ({rank}).")
        self._ragged_rank = ragged_rank

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: self._flat_values_spec)
    value_type = property(lambda self: RaggedTensor)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        if isinstance(other, RaggedTensor):
            other = RaggedTensorSpec.from_value(other)
        elif isinstance(other, (Tensor, TensorSpec)) and self._ragged_rank == 0:
            return self._dtype == other.dtype and self._shape.is_compatible_with(other.shape)
        return (isinstance(other, RaggedTensorSpec) and self._dtype == other.dtype
                and self._ragged_rank == other.ragged_rank
                and self._row_splits_dtype == other.row_splits_dtype
                and self._shape.is_compatible_with(other.shape))

    def most_specific_common_supertype(self, others):
        shape = self._shape
        for o in others:
            if not isinstance(o, RaggedTensorSpec) or (o.dtype, o.ragged_rank,
                                                       o.row_splits_dtype) != (
                    self._dtype, self._ragged_rank, self._row_splits_dtype):
                return None
            shape = shape.most_specific_compatible_shape(o.shape)
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    @property
    def _flat_shape(self):
        """The static shape of `flat_values` (of the value itself for ragged rank 0: a
        tensor, such as a row of a ragged tensor)."""
        if self._shape.rank is None or self._ragged_rank == 0:
            return self._shape
        return TensorShape([None]).concatenate(self._shape[self._ragged_rank + 1:])

    @property
    def _component_specs(self):
        if self._ragged_rank == 0:
            return [TensorSpec(self._shape, self._dtype)]
        nrows = self._shape[0] if self._shape.rank is not None else None
        splits = [TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)]
        splits += [TensorSpec([None], self._row_splits_dtype)] * (self._ragged_rank - 1)
        return [TensorSpec(self._flat_shape, self._dtype)] + splits

    def _to_components(self, value):
        if not isinstance(value, RaggedTensor):
            return [value]
        return [value.flat_values] + list(value.nested_row_splits)

    def _from_components(self, components):
        flat, *splits = components
        if isinstance(flat, Tensor) and not isinstance(flat, EagerTensor) and \
                flat.shape.rank is None and self._shape.rank is not None:
            flat.set_shape(self._flat_shape)
        result = flat
        dims = self._shape.as_list() if self._shape.rank is not None else [None] * (
            len(splits) + 1)
        for level in reversed(range(len(splits))):
            s = splits[level]
            uniform = dims[level + 1]  # (a dimension the spec knows: rows of one length)
            result = RaggedTensor(result, s, internal=True, uniform_row_length=None
                                  if uniform is None else _constant(uniform, s.dtype))
        return result

    def __eq__(self, other):
        return (type(other) is RaggedTensorSpec and self._dtype == other.dtype
                and self._ragged_rank == other.ragged_rank
                and self._row_splits_dtype == other.row_splits_dtype
                and repr(self._shape) == repr(other.shape))

    def __hash__(self):
        return hash((self._dtype, self._ragged_rank, self._row_splits_dtype, repr(self._shape)))

    def __repr__(self):
        return (f"RaggedTensorSpec({self._shape!r}, {self._dtype!r}, {self._ragged_rank}, "
                f"{self._row_splits_dtype!r})")


# -- RaggedTensorToTensor -------------------------------------------------------------------------
def _positions(nrows, splits):
    """For each value, its index along every ragged dimension (outermost first), and the
    bounding size of each."""
    index = [np.arange(nrows)]
    sizes = [nrows]
    for s in splits:
        lengths = np.diff(s)
        parent = np.repeat(np.arange(lengths.size), lengths)
        cols = np.arange(parent.size) - s[:-1][parent]
        index = [a[parent] for a in index] + [cols]
        sizes.append(int(lengths.max(initial=0)))
    return index, sizes


def _ragged_to_tensor(xp, shape, values, default_value, *splits, row_partition_types):
    splits = [np.asarray(s) for s in splits]
    types = [t.decode() if isinstance(t, bytes) else t for t in row_partition_types]
    if types and types[0] == "FIRST_DIM_SIZE":
        # TF's other form (row count, then each level's value_rowids): as row_splits
        nrows, converted = int(splits[0]), []
        for rowids in splits[1:]:
            rowids = rowids.reshape(-1)
            counts = np.bincount(rowids, minlength=nrows) if rowids.size else \
                np.zeros(nrows, np.int64)
            converted.append(np.concatenate([[0], np.cumsum(counts)]).astype(rowids.dtype))
            nrows = rowids.size
        splits = converted
    nrows = splits[0].size - 1
    for s in splits:
        if s.size == 0 or s[0] != 0 or (np.diff(s) < 0).any():
            raise _invalid("Invalid row_splits: the splits must start at 0 and not decrease")
    if splits[-1][-1] != values.shape[0]:
        raise _invalid(f"Invalid row_splits: the last split is {int(splits[-1][-1])} but "
                       f"values has {values.shape[0]} rows")
    ragged = len(splits)
    shape = np.asarray(shape)
    # (a scalar -1, TF's form of "no shape asked for": every dimension bounding)
    shape = [-1] * (ragged + values.ndim) if shape.ndim == 0 else [int(d) for d in shape]
    if len(shape) != ragged + values.ndim:
        raise _invalid(f"rt_input.shape and shape=[{','.join(map(str, shape))}] are "
                       f"incompatible: rt_input.rank = {ragged + values.ndim} but shape.rank = "
                       f"{len(shape)}")
    inner = list(values.shape[1:])
    for want, have in zip(shape[ragged + 1:], inner):
        if want >= 0 and want != have:
            raise _invalid(f"The inner dimensions of shape {shape} do not match the values' "
                           f"shape {list(values.shape)}")
    if ragged == 1 and (shape[0] < 0 or shape[0] == nrows):
        # The common case: one boolean mask of the filled positions.
        lengths = np.diff(splits[0])
        width = int(lengths.max(initial=0)) if shape[1] < 0 else shape[1]
        out = np.empty([nrows, width] + inner, values.dtype)
        out[...] = default_value
        if width >= (lengths.max(initial=0)):
            out[np.arange(width) < lengths[:, None]] = values
            return out
    index, sizes = _positions(nrows, splits)
    dims = [s if d < 0 else d for s, d in zip(sizes, shape)] + inner
    out = np.empty(dims, values.dtype)
    out[...] = default_value
    keep = np.ones(values.shape[0], bool)
    for a, d in zip(index, dims):
        keep &= a < d
    if keep.all():
        out[tuple(index)] = values
    else:
        out[tuple(a[keep] for a in index)] = values[keep]
    return out


def _ragged_to_tensor_rule(shape, values, default_value, *splits, row_partition_types):
    known = shape_rules.known_elements(shape) if shape.shape.rank != 0 else None
    rank = None if values.shape.rank is None else values.shape.rank + len(splits)
    if known is None or not known:
        known = [None] * rank if rank is not None else None
    if known is None:
        return TensorShape(None), values.dtype
    dims = [None if d is None or d < 0 else d for d in known]
    if dims[0] is None and splits[0].shape.rank and splits[0].shape[0] is not None:
        dims[0] = splits[0].shape[0] - 1
    if values.shape.rank is not None:
        inner = values.shape.as_list()[1:]
        dims[len(splits) + 1:] = [d if d is not None else i
                                  for d, i in zip(dims[len(splits) + 1:], inner)]
    return TensorShape(dims), values.dtype


_RAGGED_TO_TENSOR = register("RaggedTensorToTensor", _ragged_to_tensor, _ragged_to_tensor_rule,
                             tied=(1, 2), input_names=("values", "default_value"))
batching_rules[_RAGGED_TO_TENSOR] = PER_ELEMENT
tf_nodes[_RAGGED_TO_TENSOR] = NodeForm(
    types={"T": 1, "Tindex": 3, "Tshape": 0}, ignored=("num_row_partition_tensors",),
    outputs=("result",),
    rewrite=lambda attrs, inputs: {**attrs, "num_row_partition_tensors": len(inputs) - 3})
tf_args[_RAGGED_TO_TENSOR] = ("shape", "values", "default_value", "*row_partition_tensors")


@register_gradient("RaggedTensorToTensor")
def _ragged_to_tensor_grad(op, grad):
    shape, values, default_value, *splits = op.inputs
    ragged = len(splits)
    # Where each value went: its position + 1 in a tensor of the outer dims (0: none).
    nvals = array_ops.shape(values, out_type=_d.int64)[0]
    ids = math_ops.add(array_ops.range(nvals, dtype=_d.int64), _constant(1, _d.int64))
    outer_shape = shape[:ragged + 1] if shape.shape.rank != 0 else shape
    placed = dispatch(_RAGGED_TO_TENSOR, (outer_shape, ids, array_ops.zeros([], _d.int64),
                                          *splits), op.attrs)
    inner = array_ops.shape(values, out_type=_d.int64)[1:]
    flat_grad = array_ops.reshape(grad, array_ops.concat(
        [_constant([-1], _d.int64), inner], 0))
    where = math_ops.subtract(array_ops.reshape(placed, [-1]), _constant(1, _d.int64))
    values_grad = reduction_ops.unsorted_segment_sum(flat_grad, where, nvals)
    default_grad = None
    if default_value.shape.rank == 0:
        default_grad = math_ops.subtract(reduction_ops.reduce_sum(grad),
                                         reduction_ops.reduce_sum(values_grad))
    return [None, values_grad, default_grad] + [None] * ragged


# -- TF's ops of ragged components that graphs TF wrote hold ----------------------------------
def _ragged_range(xp, starts, limits, deltas, Tsplits):
    arrays = [np.asarray(a) for a in (starts, limits, deltas)]
    for what, a in zip(("starts", "limits", "deltas"), arrays):
        if a.ndim > 1:
            raise _invalid(f"{what} must be a scalar or vector")
    sizes = {a.size for a in arrays if a.ndim == 1}
    if len(sizes) > 1:
        raise _invalid("starts, limits, and deltas must have the same shape")
    n = sizes.pop() if sizes else 1
    start, limit, delta = (np.broadcast_to(a.reshape(-1) if a.ndim else a, (n,))
                           for a in arrays)
    if (delta == 0).any():
        raise _invalid("Requires delta != 0")
    if start.dtype.kind in "iu":  # (the count rounded up, in integers)
        span = limit.astype(np.int64) - start
        step = delta.astype(np.int64)
        counts = (span + step - np.sign(step)) // step
    else:
        counts = np.ceil((limit.astype(np.float64) - start) / delta).astype(np.int64)
    counts = np.maximum(counts, 0)
    splits = np.zeros(n + 1, np.int64)
    np.cumsum(counts, out=splits[1:])
    rows = np.repeat(np.arange(n), counts)
    position = np.arange(splits[-1]) - splits[:-1][rows]
    values = (start[rows] + position * delta[rows]).astype(start.dtype)
    return [splits.astype(_d.as_dtype(Tsplits).as_numpy_dtype), values]


def _ragged_range_rule(starts, limits, deltas, Tsplits):
    # one row per element of the vectors (scalars broadcast): one row for scalars only
    ranks = [t.shape.rank for t in (starts, limits, deltas)]
    rows = None
    if ranks == [0, 0, 0]:
        rows = 1
    elif None not in ranks:
        rows = next((t.shape[0] for t in (starts, limits, deltas)
                     if t.shape.rank == 1 and t.shape[0] is not None), None)
    splits = TensorShape([None if rows is None else rows + 1])
    return [(splits, _d.as_dtype(Tsplits)), (TensorShape([None]), starts.dtype)]


_RAGGED_RANGE = register("RaggedRange", _ragged_range, _ragged_range_rule, multi=True,
                         tied=(0, 1, 2), not_differentiable="integer row splits",
                         dtypes=(_d.bfloat16, _d.float32, _d.float64, _d.int32, _d.int64),
                         input_names=("starts", "limits", "deltas"))
tf_nodes[_RAGGED_RANGE] = NodeForm(outputs=("rt_nested_splits", "rt_dense_values"))
tf_args[_RAGGED_RANGE] = ("starts", "limits", "deltas")
tf_defaults[_RAGGED_RANGE] = {"Tsplits": _d.int64}


def _ragged_gather(xp, *arrays, OUTPUT_RAGGED_RANK):
    splits = [np.asarray(s) for s in arrays[:-2]]
    values, indices = np.asarray(arrays[-2]), np.asarray(arrays[-1])
    nrows = splits[0].size - 1
    rows = indices.reshape(-1).astype(np.int64)
    bad = (rows < 0) | (rows >= nrows)
    if bad.any():
        where = int(np.argmax(bad))
        raise _invalid(f"indices[{where}] = {int(rows[where])} is not in [0, {nrows})")
    out = []
    for d in range(1, indices.ndim):  # (the indices' inner dimensions: uniform rows)
        out.append(np.arange(int(np.prod(indices.shape[:d])) + 1) * indices.shape[d])
    for level in splits:  # each gathered row's values, level by level
        starts, lengths = level[rows], level[rows + 1] - level[rows]
        cut = np.zeros(rows.size + 1, np.int64)
        np.cumsum(lengths, out=cut[1:])
        out.append(cut)
        rows = np.repeat(starts - cut[:-1], lengths) + np.arange(cut[-1])
    if indices.ndim == 0:  # (one row: not a partition)
        out = out[1:]
    if len(out) != OUTPUT_RAGGED_RANK:
        raise _invalid(f"OUTPUT_RAGGED_RANK is {OUTPUT_RAGGED_RANK}, but the indices and "
                       f"params give {len(out)}")
    return [s.astype(splits[0].dtype) for s in out] + [values[rows]]


def _ragged_gather_rule(*inputs, OUTPUT_RAGGED_RANK):
    splits, values = inputs[:-2], inputs[-2]
    inner = TensorShape(None) if values.shape.rank is None else values.shape[1:]
    return [(TensorShape([None]), splits[0].dtype)] * OUTPUT_RAGGED_RANK + [
        (TensorShape([None]).concatenate(inner), values.dtype)]


_RAGGED_GATHER = register("RaggedGather", _ragged_gather, _ragged_gather_rule, multi=True,
                          tied=(), not_differentiable="TF's gradient is not written yet")
tf_nodes[_RAGGED_GATHER] = NodeForm(
    types={"Tsplits": 0, "Tvalues": "out0", "Tindices": 0}, ignored=("PARAMS_RAGGED_RANK",),
    outputs=(("output_nested_splits", "OUTPUT_RAGGED_RANK"), "output_dense_values"),
    rewrite=lambda attrs, inputs: {**attrs, "PARAMS_RAGGED_RANK": len(inputs) - 2,
                                   "Tvalues": inputs[-2].dtype, "Tindices": inputs[-1].dtype})
tf_args[_RAGGED_GATHER] = ("*params_nested_splits", "params_dense_values", "indices")


def _ragged_to_sparse(xp, *arrays):
    splits, values = [np.asarray(s) for s in arrays[:-1]], np.asarray(arrays[-1])
    _check_nested_splits(splits, values.shape[0])
    columns, position = [], np.arange(values.shape[0])
    for level in reversed(splits):  # each value's position in its row, then its row's
        rows = np.searchsorted(level, position, side="right") - 1
        columns.append(position - level[rows])
        position = rows
    columns.append(position)
    columns.reverse()
    inner = list(values.shape[1:])
    count = int(np.prod(inner, dtype=np.int64))
    outer = np.stack(columns, 1).astype(np.int64) if columns else np.zeros((0, 0), np.int64)
    indices = outer
    if inner:  # (each value's elements, in row-major order)
        grid = np.indices(inner).reshape(len(inner), -1).T.astype(np.int64)
        indices = np.concatenate([np.repeat(outer, count, 0),
                                  np.tile(grid, (len(outer), 1))], 1)
    shape = [splits[0].size - 1] + [int(np.diff(s).max(initial=0)) for s in splits] + inner
    return [indices, values.reshape(-1), np.array(shape, np.int64)]


def _check_nested_splits(splits, nvals):
    for i, s in enumerate(splits):
        inner = splits[i + 1].size - 1 if i + 1 < len(splits) else nvals
        if s.size == 0 or s[0] != 0 or (np.diff(s) < 0).any():
            raise _invalid("Invalid ragged splits: each level's must start at 0 and not "
                           "decrease")
        if s[-1] != inner:
            raise _invalid("Final value of ragged splits must match the length the "
                           "corresponding ragged values.")


def _ragged_to_sparse_rule(*inputs):
    splits, values = inputs[:-1], inputs[-1]
    rank = None if values.shape.rank is None else len(splits) + values.shape.rank
    return [(TensorShape([None, rank]), _d.int64), (TensorShape([None]), values.dtype),
            (TensorShape([rank]), _d.int64)]


_RAGGED_TO_SPARSE = register("RaggedTensorToSparse", _ragged_to_sparse, _ragged_to_sparse_rule,
                             multi=True, tied=(), not_differentiable=(
                                 "TF's gradient of the values is not written yet"))
tf_nodes[_RAGGED_TO_SPARSE] = NodeForm(
    types={"T": "out1", "Tsplits": 0}, ignored=("RAGGED_RANK",),
    outputs=("sparse_indices", "sparse_values", "sparse_dense_shape"),
    rewrite=lambda attrs, inputs: {**attrs, "RAGGED_RANK": len(inputs) - 1})
tf_args[_RAGGED_TO_SPARSE] = ("*rt_nested_splits", "rt_dense_values")
batching_rules.assign(PER_ELEMENT, _RAGGED_RANGE, _RAGGED_TO_SPARSE, _RAGGED_GATHER)


def to_tensor(rt, default_value=None, name=None, shape=None):
    """`RaggedTensor.to_tensor` (op ``RaggedTensorToTensor``)."""
    flat = rt.flat_values
    dtype = flat.dtype
    if default_value is None:
        default_value = b"" if dtype == _d.string else np.zeros((), dtype.as_numpy_dtype)
    try:
        default_value = convert_to_tensor(default_value, dtype)
    except ValueError as e:
        raise ValueError(f"default_value: {e}") from None
    splits = rt.nested_row_splits
    index_dtype = splits[0].dtype
    if shape is None:  # (TF's form: a scalar -1)
        shape_t = _constant(-1, index_dtype)
    else:
        if isinstance(shape, TensorShape):
            shape = [-1 if d is None else d for d in shape.as_list()]
        elif isinstance(shape, (list, tuple)):
            TensorShape(shape)  # (TF's ValueError for a negative dimension)
            shape = [-1 if d is None else d for d in shape]
        shape_t = convert_to_tensor(shape, index_dtype) if not isinstance(shape, Tensor) \
            else cast_ops.cast(shape, index_dtype)
    attrs = {"row_partition_types": ("ROW_SPLITS",) * len(splits)}
    try:
        return dispatch(_RAGGED_TO_TENSOR, (shape_t, flat, default_value, *splits), attrs, name)
    except errors.OpError as e:
        raise errors.counted(e, "RaggedTensorToTensor", "num_row_partition_tensors",
                             len(splits)) from None


def is_ragged(value):
    return isinstance(value, RaggedTensor)


# -- RowPartition ------------------------------------------------------------------------------

def _partition_index(value, what, dtype, dtype_hint):
    """`value` as a 1-D index tensor: of `dtype` if given, else of its own index dtype (a
    tensor's), `dtype_hint` or int64."""
    if dtype is None:
        own = getattr(value, "dtype", None)
        if isinstance(value, Tensor) or isinstance(value, np.ndarray) and own.kind in "iu":
            dtype = _d.as_dtype(own)
        else:
            dtype = dtype_hint or _d.int64
    elif isinstance(value, Tensor) and value.dtype != _d.as_dtype(dtype):
        raise ValueError(f"dtype mismatch: {what} has dtype {value.dtype!r}, expected "
                         f"{_d.as_dtype(dtype)!r}")
    if not isinstance(value, Tensor) and np.asarray(value).dtype.kind not in "iub":
        if np.asarray(value).size:
            raise ValueError(f"{what} must have dtype int32 or int64")
    dtype = _d.as_dtype(dtype)
    if dtype not in _SPLITS_DTYPES:
        raise ValueError(f"{what} must have dtype int32 or int64")
    return _as_index(value, dtype, what)


@export("experimental.RowPartition")
class RowPartition:
    """How a ragged dimension cuts a flat list of ``nvals`` values into ``nrows`` rows
    (``tf.experimental.RowPartition``): its row splits, and the other encodings (row
    lengths, value row ids, ...) computed once when asked for, or given. A `RaggedTensor`'s
    outer partition is its ``_row_partition``.

    >>> p = tf.experimental.RowPartition.from_row_lengths([2, 0, 3])
    >>> p.row_splits().numpy().tolist(), p.value_rowids().numpy().tolist()
    ([0, 2, 2, 5], [0, 0, 2, 2, 2])
    """

    def __init__(self, row_splits, row_lengths=None, value_rowids=None, nrows=None,
                 uniform_row_length=None, nvals=None, internal=False):
        if internal is not _INTERNAL:
            raise ValueError("RowPartition constructor is private; please use one of the "
                             "factory methods instead (e.g., "
                             "RowPartition.from_row_lengths())")
        # (the encodings a RaggedTensor holds, and computes as they are asked for)
        self._rows = RaggedTensor(None, row_splits, cached_row_lengths=row_lengths,
                                  cached_value_rowids=value_rowids, cached_nrows=nrows,
                                  internal=True, uniform_row_length=uniform_row_length)
        self._nvals = nvals
        # the encodings given (TF's `_has_precomputed_*`; the others are computed when asked)
        self._given = {name for name, t in (("row_lengths", row_lengths),
                                            ("value_rowids", value_rowids), ("nrows", nrows),
                                            ("nvals", nvals)) if t is not None}

    @classmethod
    def _of(cls, rt):
        """The outer partition of the ragged tensor `rt` (sharing its tensors)."""
        return cls(rt._row_splits, rt._row_lengths, rt._value_rowids, rt._nrows,
                   rt._uniform_row_length, internal=_INTERNAL)

    # -- factories ----------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        """Rows ``[row_splits[i], row_splits[i + 1])``."""
        splits = _partition_index(row_splits, "row_splits", dtype, dtype_hint)
        if splits.shape.rank not in (None, 1):
            raise ValueError(f"Shape {splits.shape} must have rank 1")
        if validate and _eager(splits):
            _check_splits(splits, None)
        return cls(splits, internal=_INTERNAL)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        """Consecutive rows of `row_lengths` values each."""
        lengths = _partition_index(row_lengths, "row_lengths", dtype, dtype_hint)
        return cls(_splits_of_lengths(lengths, validate), row_lengths=lengths,
                   internal=_INTERNAL)

    @classmethod
    def from_value_rowids(cls, value_rowids, nrows=None, validate=True, dtype=None,
                          dtype_hint=None):
        """Value ``i`` in row ``value_rowids[i]`` (sorted); `nrows` rows (default: the last
        id + 1)."""
        rowids = _partition_index(value_rowids, "value_rowids", dtype, dtype_hint)
        splits, nrows = _splits_of_rowids(rowids, nrows, rowids.dtype, validate)
        return cls(splits, value_rowids=rowids, nrows=nrows, internal=_INTERNAL)

    @classmethod
    def from_row_starts(cls, row_starts, nvals, validate=True, dtype=None, dtype_hint=None):
        """Row ``i`` from ``row_starts[i]`` to the next row's start (the last to `nvals`)."""
        starts = _partition_index(row_starts, "row_starts", dtype, dtype_hint)
        nvals = _as_index(nvals, starts.dtype, "nvals")
        return cls.from_row_splits(array_ops.concat([starts, array_ops.reshape(nvals, [1])],
                                                    0), validate)

    @classmethod
    def from_row_limits(cls, row_limits, validate=True, dtype=None, dtype_hint=None):
        """Row ``i`` from the previous row's limit (0 for the first) to ``row_limits[i]``."""
        limits = _partition_index(row_limits, "row_limits", dtype, dtype_hint)
        return cls.from_row_splits(array_ops.concat(
            [array_ops.zeros([1], limits.dtype), limits], 0), validate)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals=None, nrows=None,
                                validate=True, dtype=None, dtype_hint=None):
        """Rows of `uniform_row_length` values each: `nrows` of them, or as many as `nvals`
        values fill."""
        if nvals is None and nrows is None:
            raise ValueError("Either nvals or nrows must be specified")
        length = _partition_index(uniform_row_length, "uniform_row_length", dtype, dtype_hint)
        nvals = None if nvals is None else _as_index(nvals, length.dtype, "nvals")
        nrows = _uniform_nrows(length, None if nrows is None else _as_index(
            nrows, length.dtype, "nrows"), nvals, validate)
        if nvals is None:
            nvals = math_ops.multiply(nrows, length)
        splits = math_ops.multiply(array_ops.range(math_ops.add(nrows, _constant(
            1, length.dtype)), dtype=length.dtype), length)
        return cls(splits, nrows=nrows, uniform_row_length=length, nvals=nvals,
                   internal=_INTERNAL)

    # -- encodings ----------------------------------------------------------------------------
    def row_splits(self):
        return self._rows._row_splits

    def row_lengths(self):
        return self._rows.row_lengths()

    def value_rowids(self):
        return self._rows.value_rowids()

    def nrows(self):
        return self._rows.nrows()

    def nvals(self):
        return self.row_splits()[-1] if self._nvals is None else self._nvals

    def row_starts(self):
        return self._rows.row_starts()

    def row_limits(self):
        return self._rows.row_limits()

    def uniform_row_length(self):
        """The length of every row when they have one by construction, else None."""
        return self._rows._uniform_row_length

    def is_uniform(self):
        return self._rows._uniform_row_length is not None

    def offsets_in_rows(self):
        """The position of each value within its row."""
        rowids = self.value_rowids()
        positions = array_ops.range(self.nvals(), dtype=rowids.dtype)
        return math_ops.subtract(positions, array_ops.gather(self.row_starts(), rowids))

    @property
    def dtype(self):
        return self.row_splits().dtype

    @property
    def static_nrows(self):
        n = self.row_splits().shape[0]
        if n is not None:
            return n - 1
        return _static_int(self._rows._nrows)

    @property
    def static_nvals(self):
        found = _static_int(self._nvals)
        if found is None and "value_rowids" in self._given:
            found = self._rows._value_rowids.shape[0]
        return found

    @property
    def static_uniform_row_length(self):
        return _static_int(self._rows._uniform_row_length)

    def with_dtype(self, dtype):
        """This partition with index dtype `dtype` (int32 or int64), every encoding cast."""
        dtype = _splits_dtype(dtype)
        if dtype == self.dtype:
            return self
        rows = self._rows

        def cast(t):
            return None if t is None else cast_ops.cast(t, dtype)
        return RowPartition(cast(rows._row_splits), cast(rows._row_lengths),
                            cast(rows._value_rowids), cast(rows._nrows),
                            cast(rows._uniform_row_length), cast(self._nvals),
                            internal=_INTERNAL)

    def _has_precomputed_row_splits(self):
        return True

    def _has_precomputed_row_lengths(self):
        return "row_lengths" in self._given

    def _has_precomputed_value_rowids(self):
        return "value_rowids" in self._given

    def _has_precomputed_nrows(self):
        return "nrows" in self._given

    def _has_precomputed_nvals(self):
        return "nvals" in self._given

    def __repr__(self):
        if self.is_uniform():
            return (f"tf.RowPartition(nrows={_shown(self.nrows())}, uniform_row_length="
                    f"{_shown(self.uniform_row_length())})")
        return f"tf.RowPartition(row_splits={_shown(self.row_splits())})"


_INTERNAL = object()  # (RowPartition's constructor is private)


def _static_int(t):
    value = None if t is None else get_static_value(t)
    return None if value is None else int(value)


def _shown(t):
    return np.asarray(t._data) if _eager(t) else t


def _row_partition(self):
    """The partition of this tensor's outer ragged dimension."""
    return RowPartition._of(self)


def _from_row_partition(cls, values, row_partition, validate=True):
    """The ragged tensor whose rows `row_partition` cuts `values` into."""
    rows = row_partition._rows
    return cls._from_splits(values, rows._row_splits, validate,
                            cached_row_lengths=rows._row_lengths,
                            cached_value_rowids=rows._value_rowids, cached_nrows=rows._nrows,
                            uniform_row_length=rows._uniform_row_length)


RaggedTensor._row_partition = property(_row_partition)
RaggedTensor._from_row_partition = classmethod(_from_row_partition)
