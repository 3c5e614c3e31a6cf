"""`TensorArray`: a list of tensors of one dtype, written and read by index (``tf.TensorArray``).

Executing eagerly it is a Python list of tensors that `write` changes in
place (and returns the same array), so a tape records nothing but the ops
that `stack`, `concat` and friends run on the tensors.  In a graph its whole
state is `flow`, a list tensor (ops/list_ops.py): `write` returns a new
TensorArray on a new flow and leaves the old one as it was, which is what
lets `while_loop` and `cond` carry it as one loop variable or result.

What a TensorArray and those written from it share: the dtype, the size
and, with `infer_shape`, the element shape, refined by every write.

>>> ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, 2.0)
>>> ta.stack()
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
"""
import copy
import operator

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import constant, convert_to_tensor, get_static_value
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import FieldSpec, TensorSpec, value_specs
from eagerflow._src.ops import array_ops, cast_ops, list_ops


@export("TensorArray")
class TensorArray:
    """A list of tensors of `dtype`, eagerly a Python list and in graphs a `flow` tensor.

    ``write`` returns the array to use from then on (``ta = ta.write(i, x)``).
    `size` is required eagerly and unless a `flow` is given; `dynamic_size`
    lets writes grow the array; reads of unwritten elements give zeros of the
    element shape.
    """

    def __new__(cls, *args, **kwargs):
        if cls is TensorArray:
            cls = _EagerTensorArray if context.executing_eagerly() else _GraphTensorArray
        return super().__new__(cls)

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        self._dtype = _d.as_dtype(dtype)
        self._infer_shape = infer_shape
        self._shape_cell = [TensorShape(element_shape)]  # shared with the arrays written from it
        self._start(size, dynamic_size, clear_after_read, handle, flow)

    dtype = property(lambda self: self._dtype)
    dynamic_size = property(lambda self: self._dynamic_size)
    handle = property(lambda self: None)  # TF2 arrays have no resource handle
    flow = property(lambda self: self._flow)

    @property
    def element_shape(self):
        """The static shape of the elements, as far as it is known."""
        return self._shape_cell[0]

    def _value(self, value):
        """`value` as a tensor of this array's dtype (TF's error when it has another)."""
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        if value.dtype != self._dtype:
            raise errors.InvalidArgumentError(
                None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying to write "
                f"dtype {value.dtype.name} ")
        return value

    def _merge_shape(self, shape, message):
        """Checks an element shape against the known one; refines it when `infer_shape`."""
        known = self._shape_cell[0]
        if not shape.is_compatible_with(known):
            raise ValueError(message.format(shape=shape, known=known))
        if self._infer_shape:
            self._shape_cell[0] = known.merge_with(shape)

    def unstack(self, value, name=None):
        """Writes the rows of `value` as elements 0, 1, ...; returns the array to use."""
        return self._unstack(self._value(value))

    def scatter(self, indices, value, name=None):
        """Writes row ``j`` of `value` as element ``indices[j]``; returns the array to use."""
        return self._scatter(indices, self._value(value))

    def split(self, value, lengths, name=None):
        """Writes consecutive pieces of `value`, ``lengths[i]`` rows each, as elements."""
        return self._split(self._value(value), convert_to_tensor(lengths))

    def close(self, name=None):
        """Releases the elements (eagerly); in a graph there is nothing to release."""

    def grad(self, source, flow=None, name=None):
        """TF 1's gradient array: TF 2 arrays have none (their gradients flow without it)."""
        if context.executing_eagerly():
            raise NotImplementedError(
                "TensorArray.grad is not supported when executing eagerly; eager's gradient "
                "implementation does not use/need this function to compute gradients of "
                "operations that use TensorArrays.")
        raise NotImplementedError()


@export("TensorArraySpec")
class TensorArraySpec(FieldSpec):
    """The type of a `TensorArray`: element shape, dtype, `dynamic_size`, `infer_shape`.

    >>> tf.TensorArraySpec([2], tf.float32, dynamic_size=True)
    TensorArraySpec(TensorShape([2]), tf.float32, True, True)
    """

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

    def __init__(self, element_shape=None, dtype=_d.float32, dynamic_size=False,
                 infer_shape=True):
        self._element_shape = TensorShape(element_shape)
        self._dtype = _d.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    value_type = property(lambda self: TensorArray)
    # (a TensorArray is carried as its one list tensor)
    _component_specs = property(lambda self: [TensorSpec([], _d.variant)])

    def _serialize(self):
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    @classmethod
    def from_value(cls, value):
        if not isinstance(value, TensorArray):
            raise TypeError(f"Expected value to be a TensorArray, but saw: {type(value)}")
        return cls(value.element_shape, value.dtype, value.dynamic_size, value._infer_shape)

    def _from_components(self, components):  # (its flow: a graph's array)
        return _GraphTensorArray(self._dtype, flow=components[0],
                                 dynamic_size=self._dynamic_size, infer_shape=self._infer_shape,
                                 element_shape=self._element_shape)

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value  # (infer_shape aside, as TF's)
        if isinstance(other, TensorArray):
            other = TensorArraySpec.from_value(other)
        return (type(other) is TensorArraySpec and other._dtype == self._dtype and
                other._dynamic_size == self._dynamic_size and
                other._element_shape.is_compatible_with(self._element_shape))

    def most_specific_common_supertype(self, others):
        # As TF's: the dtype and dynamic_size must agree; the element shape stays this one's.
        if not all(type(o) is TensorArraySpec and o._dtype == self._dtype and
                   o._dynamic_size == self._dynamic_size for o in others):
            return None
        return TensorArraySpec(self._element_shape, self._dtype, self._dynamic_size,
                               self._infer_shape and all(o._infer_shape for o in others))


value_specs[TensorArray] = TensorArraySpec.from_value


class _EagerTensorArray(TensorArray):
    """Eager arrays: a Python list holding tensors, None (unwritten) or `_CLEARED`."""

    def _start(self, size, dynamic_size, clear_after_read, handle, flow):
        if handle is not None:
            raise ValueError("TensorArray handles are not supported when eager execution is "
                             "enabled.")
        if size is None:
            raise ValueError("Size must be declared for TensorArrays when eager execution is "
                             "enabled.")
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = True if clear_after_read is None else clear_after_read
        self._items = [None] * operator.index(_value(size))  # (a float: Python's TypeError)
        self._flow = constant(0)  # TF's eager arrays carry a dummy flow too

    def _check_shape(self, value):
        self._merge_shape(value.shape, "Incompatible shape for value ({shape}), expected "
                          "({known})")

    def write(self, index, value, name=None):
        """Sets element `index` to `value` (growing the array if `dynamic_size`); returns self."""
        index = _list_index(index)
        value = self._value(value)
        if index < 0:
            raise errors.OutOfRangeError(None, None, f"Writing to negative indices (index "
                                         f"{index}) is not allowed.")
        if index >= len(self._items):
            if not self._dynamic_size:
                raise errors.OutOfRangeError(
                    None, None, f"Tried to write to index {index} but array is not resizeable "
                    f"and size is: {len(self._items)} ")
            self._items += [None] * (index + 1 - len(self._items))
        self._check_shape(value)
        self._items[index] = value
        return self

    def read(self, index, name=None):
        """Element `index` (zeros if never written); with `clear_after_read`, only once."""
        index = _list_index(index)
        if index < 0:
            raise errors.OutOfRangeError(None, None, f"Reading from negative indices (index "
                                         f"{index}) is not allowed.")
        if index >= len(self._items):
            raise errors.OutOfRangeError(None, None, f"Tried to read from index {index} but "
                                         f"array size is: {len(self._items)} ")
        if self._items[index] is _CLEARED:
            raise errors.InvalidArgumentError(
                None, None, f"Could not read index {index} twice because it was cleared after "
                f"a previous read (perhaps try setting clear_after_read = false?)")
        value = self._element(index)
        if self._clear_after_read and self._items[index] is not None:
            self._items[index] = _CLEARED
        return value

    def _element(self, index):
        """Element `index` as a tensor: unwritten and cleared ones are zeros."""
        value = self._items[index]
        if value is None or value is _CLEARED:
            return array_ops.zeros(_full(self.element_shape), self._dtype)
        return value

    def stack(self, name=None):
        """The elements stacked along a new first axis."""
        if not self._items:  # (0,) when the element shape is not known, as TF's
            shape = self.element_shape
            dims = shape.as_list() if shape.is_fully_defined() else []
            return array_ops.zeros([0, *dims], self._dtype)
        return array_ops.stack([self._element(i) for i in range(len(self._items))])

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        # Python's indexing, as TF's eager arrays: -1 is the last element
        picked = [self._element(_list_index(i)) for i in get_static_value(indices).ravel()]
        if not picked:
            return array_ops.zeros([0], self._dtype)
        return array_ops.stack(picked)

    def concat(self, name=None):
        """The elements concatenated along their first axis."""
        values = [self._element(i) for i in range(len(self._items))]
        for i, v in enumerate(values):
            if v.shape.rank == 0:
                raise errors.InvalidArgumentError(
                    None, None, f"Concat saw a scalar shape at index {i} but requires at least "
                    f"vectors.")
        if not values:
            rest = self.element_shape[1:] if self.element_shape.rank else TensorShape(None)
            return array_ops.zeros([0, *_full(rest)], self._dtype)
        return array_ops.concat(values, 0)

    def _unstack(self, value):
        rows = array_ops.unstack(value)
        if len(rows) > len(self._items) and not self._dynamic_size:
            raise ValueError(f"Cannot unstack {len(rows)} tensors into a TensorArray of static "
                             f"size {len(self._items)} ")
        for row in rows:
            self._check_shape(row)
        self._items = list(rows)
        return self

    def _scatter(self, indices, value):
        for index, row in zip(get_static_value(indices).ravel().tolist(),
                              array_ops.unstack(value)):
            self.write(index, row)
        return self

    def _split(self, value, lengths):
        def fail(message):
            raise errors.InvalidArgumentError(None, None, message)
        total = int(lengths.numpy().sum())
        if lengths.shape.rank != 1:
            fail(f"Expected lengths to be a vector, received shape: {lengths.shape.as_list()}")
        if value.shape.rank == 0:
            fail(f"Expected value to be at least a vector, but received shape: "
                 f"{value.shape.as_list()}")
        if total != value.shape[0]:
            fail(f"Expected sum of lengths to be equal to values.shape[0], but sum of lengths "
                 f"is {total} and value's shape is: {value.shape.as_list()} ")
        if not self._dynamic_size and lengths.shape[0] != len(self._items):
            fail(f"TensorArray's size is not equal to the size of lengths ({len(self._items)} "
                 f"vs. {lengths.shape[0]}), and the TensorArray is not marked as dynamically "
                 f"resizeable.")
        self._items = list(array_ops.split(value, lengths))
        return self

    def size(self, name=None):
        """The number of elements (int32)."""
        return constant(len(self._items))

    def identity(self):
        return self

    def close(self, name=None):
        self._items = []


_CLEARED = object()  # marks an element read once by an array with `clear_after_read`


def _value(value):
    """A tensor's value (NumPy's), else `value` as it is."""
    return value.numpy() if isinstance(value, Tensor) else value


def _list_index(index):
    """`index` (an integer, or an integer tensor) as an int for an eager array's list; any
    other number is the TypeError of Python's list indexing, as in TF."""
    index = _value(index)
    if isinstance(index, np.ndarray) and index.ndim == 0:
        index = index[()]
    if not isinstance(index, (int, np.integer)):
        kind = type(index)
        name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        raise TypeError(f"list indices must be integers or slices, not {name}")
    return int(index)


def _full(shape):
    """A fully defined shape as a list, else TF's error for zeros of an unknown shape."""
    if not shape.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {shape} to a Tensor.")
    return shape.as_list()


class _GraphTensorArray(TensorArray):
    """Arrays in graphs: a list tensor, `flow`, replaced by every write."""

    def _start(self, size, dynamic_size, clear_after_read, handle, flow):
        if handle is not None:
            raise ValueError("TensorArray handles are not supported: in a graph a TensorArray "
                             "is its `flow`.")
        if size is None and flow is None:
            raise ValueError("Argument `size` must be provided if argument `flow` is not "
                             "provided.")
        self._dynamic_size = dynamic_size  # as given: None unless set, as TF's graph arrays
        self._size = size
        self._flow = (flow if flow is not None
                      else list_ops.reserve(self.element_shape, size, self._dtype))

    def _with_flow(self, flow):
        """The array holding `flow`, sharing everything else with this one."""
        ta = copy.copy(self)
        ta._flow = flow
        return ta

    def _check_shape(self, shape):
        self._merge_shape(shape, "Inconsistent shapes: saw {shape} but expected {known} ")

    def _count(self):
        """The number of elements when it is fixed and known now, else -1."""
        if self._dynamic_size or self._size is None:
            return -1
        count = get_static_value(self._size)
        return -1 if count is None else int(count)

    def write(self, index, value, name=None):
        """The array with element `index` set to `value` (grown if `dynamic_size`)."""
        value = self._value(value)
        self._check_shape(value.shape)
        return self._with_flow(list_ops.set_item(self._flow, index, value,
                                                 bool(self._dynamic_size)))

    def read(self, index, name=None):
        """Element `index` (zeros if never written)."""
        return list_ops.get_item(self._flow, index, self.element_shape, self._dtype)

    def stack(self, name=None):
        """The elements stacked along a new first axis."""
        return list_ops.stack(self._flow, self.element_shape, self._dtype, self._count())

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        return list_ops.gather(self._flow, indices, self.element_shape, self._dtype)

    def concat(self, name=None):
        """The elements concatenated along their first axis."""
        return list_ops.concat(self._flow, self.element_shape, self._dtype)[0]

    def _unstack(self, value):
        self._check_shape(value.shape[1:] if value.shape.rank else TensorShape(None))
        return self._with_flow(list_ops.from_tensor(value, self.element_shape))

    def _scatter(self, indices, value):
        self._check_shape(value.shape[1:] if value.shape.rank else TensorShape(None))
        return self._with_flow(list_ops.scatter(self._flow, value, indices))

    def _split(self, value, lengths):
        if value.shape.rank == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0 for "
                             "'TensorListSplit' (op: 'TensorListSplit').")
        rest = value.shape[1:] if value.shape.rank else TensorShape(None)
        self._check_shape(TensorShape([None]).concatenate(rest))
        return self._with_flow(list_ops.split(value, self.element_shape, lengths))

    def size(self, name=None):
        """The number of elements (int32)."""
        if not self._dynamic_size and self._size is not None:
            return convert_to_tensor(self._size, _d.int32)
        return list_ops.length(self._flow)

    def identity(self):
        """The same array on a flow of its own (an ``Identity`` of this one's)."""
        return self._with_flow(cast_ops.identity(self._flow))


# -- carrying arrays through control flow -------------------------------------------------------

def to_flow(value):
    """The flow of a graph `TensorArray`, for control flow to carry; other values as they are."""
    return value.flow if isinstance(value, _GraphTensorArray) else value


def with_flows(templates, values):
    """`values`, each one standing where a graph `TensorArray` was in `templates` made an array."""
    return [t._with_flow(v) if isinstance(t, _GraphTensorArray) else v
            for t, v in zip(templates, values)]
