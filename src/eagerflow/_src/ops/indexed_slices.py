"""`IndexedSlices`: a sparse gradient, rows `values` at positions `indices` of a dense tensor.

The gradient of a gather along axis 0 is one: only the gathered rows get a
value.  It converts to a dense tensor wherever a tensor is needed (duplicate
indices add up).

>>> s = tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([2]), tf.constant([3, 2]))
>>> tf.convert_to_tensor(s).numpy().tolist()
[[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]
"""
import warnings

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.dtypes import variant
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import FieldSpec, TensorSpec, value_specs
from eagerflow._src.ops import late
from eagerflow._src.core.composite_tensor import CompositeTensor

# A graph that densifies slices of at least this many elements warns (as TF does): the
# dense gradient of a large embedding table can exhaust memory.
_LARGE_DENSE_ELEMENTS = 100_000_000


@export("IndexedSlices")
@CompositeTensor.register
class IndexedSlices:
    """A sparse representation of a tensor of shape `dense_shape` (``tf.IndexedSlices``)."""

    def __init__(self, values, indices, dense_shape=None):
        self._values, self._indices, self._dense_shape = values, indices, dense_shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    device = property(lambda self: self._values.device)

    @property
    def shape(self):
        if self._dense_shape is None:
            return TensorShape([None]).concatenate(self._values.shape[1:])
        value = get_static_value(self._dense_shape)
        return TensorShape(None if value is None else [int(d) for d in value])

    @property
    def _type_spec(self):  # a composite: tf.function returns it, nest expands it
        return IndexedSlicesSpec.from_value(self)

    def _shape_invariant_to_type_spec(self, shape):
        """The spec of the slices a loop carries when `shape` is their dense shape's
        invariant (any number of slices)."""
        return IndexedSlicesSpec(shape, self.dtype, self._indices.dtype,
                                 None if self._dense_shape is None else self._dense_shape.dtype,
                                 [None])

    def __tf_tensor__(self, dtype=None, name=None):
        if dtype is not None and not _d.as_dtype(dtype).is_compatible_with(self.dtype):
            raise ValueError(f"Incompatible tensor conversion requested to `dtype` "
                             f"{_d.as_dtype(dtype).name} for IndexedSlices ({self}) with dtype "
                             f"{self.dtype.name}")
        if self._dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices without "
                             f"dense_shape: {self!s}")
        dense_shape = get_static_value(self._dense_shape)
        if (dense_shape is not None and not context.executing_eagerly()
                and np.prod(dense_shape, dtype=np.int64) >= _LARGE_DENSE_ELEMENTS):
            warnings.warn(f"Converting sparse IndexedSlices to a dense Tensor with "
                          f"{int(np.prod(dense_shape, dtype=np.int64))} elements. This may "
                          f"consume a large amount of memory.", stacklevel=2)
        rows = self._dense_shape[0] if dense_shape is None else int(dense_shape[0])
        dense = late.reduction_ops.unsorted_segment_sum(self._values, self._indices, rows)
        return convert_to_tensor(dense, dtype=dtype)

    def __neg__(self):
        return IndexedSlices(late.math_ops.negative(self._values), self._indices,
                             self._dense_shape)

    def __array__(self, dtype=None, copy=None):
        return convert_to_tensor(self).__array__(dtype, copy)

    def __str__(self):
        dense = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{dense})"


@export("IndexedSlicesSpec")
class IndexedSlicesSpec(FieldSpec):
    """The type of an `IndexedSlices`: its dense shape, the dtypes of its values, indices
    and dense shape (None: it has none), and the shape of its indices.

    >>> tf.IndexedSlicesSpec([10, 3], tf.float32)
    IndexedSlicesSpec(TensorShape([10, 3]), tf.float32, tf.int64, None, TensorShape([None]))
    """

    __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype",
                 "_indices_shape")

    def __init__(self, shape=None, dtype=_d.float32, indices_dtype=_d.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = TensorShape(shape)
        self._values_dtype = _d.as_dtype(dtype)
        self._indices_dtype = _d.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else \
            _d.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape(indices_shape).with_rank(1)

    value_type = property(lambda self: IndexedSlices)

    def _serialize(self):
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)

    @classmethod
    def from_value(cls, value):
        if not isinstance(value, IndexedSlices):
            raise TypeError(f"Expected value to be an IndexedSlices, but saw: {type(value)}")
        return cls(value.shape, value.dtype, value.indices.dtype,
                   None if value.dense_shape is None else value.dense_shape.dtype,
                   value.indices.shape)

    @property
    def _component_specs(self):
        specs = [TensorSpec(self._indices_shape.concatenate(self._shape[1:]),
                            self._values_dtype),
                 TensorSpec(self._indices_shape, self._indices_dtype)]
        if self._dense_shape_dtype is not None:
            specs.append(TensorSpec([self._shape.rank], self._dense_shape_dtype))
        return tuple(specs)

    def _to_components(self, value):
        parts = (value.values, value.indices)
        return parts if value.dense_shape is None else (*parts, value.dense_shape)

    def _from_components(self, components):
        return IndexedSlices(*components)


value_specs[IndexedSlices] = IndexedSlicesSpec.from_value


def deduplicated(slices):
    """`slices` (an `IndexedSlices`) with the values of repeated indices summed, each index
    once, in the order of first appearance (what TF's sparse updates are given).

    >>> s = deduplicated(tf.IndexedSlices(tf.constant([1.0, 2.0, 4.0]), tf.constant([3, 0, 3])))
    >>> s.indices.numpy().tolist(), s.values.numpy().tolist()
    ([3, 0], [5.0, 2.0])
    """
    indices, positions = late.reduction_ops.unique(slices.indices)
    values = late.reduction_ops.unsorted_segment_sum(slices.values, positions,
                                                     late.array_ops.shape(indices)[0])
    return IndexedSlices(values, indices, slices.dense_shape)


def concat_slices(pieces):
    """The sum of the `IndexedSlices` `pieces`: their slices listed in order.  Where their
    indices' dtypes differ, all are int64 (as TF's sum of sparse gradients makes them)."""
    indices = [p.indices for p in pieces]
    if len({i.dtype for i in indices}) > 1:
        indices = [late.cast_ops.cast(i, _d.int64) for i in indices]
    return IndexedSlices(late.array_ops.concat([p.values for p in pieces], 0),
                         late.array_ops.concat(indices, 0), pieces[0].dense_shape)


def add_sparse_or_dense(a, b):
    """`a + b` for gradients that may be `IndexedSlices` (two sparse ones stay sparse)."""
    if isinstance(a, IndexedSlices) and isinstance(b, IndexedSlices):
        # the later arrival first: a backward pass meets ops last to first, and TF's sum
        # lists their slices in the order the ops ran
        return concat_slices([b, a])
    if a.dtype is variant:  # gradients of a list: summed element by element
        return late.list_ops.add(a, b)
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    if (a.shape != b.shape and a.shape.is_fully_defined() and b.shape.is_fully_defined()):
        # gradients of one tensor never broadcast: TF sums them by AddN, which fails (a
        # custom gradient of another shape than its input's), listed in the order their
        # ops ran (as above)
        return late.reduction_ops.add_n([b, a])
    return late.math_ops.add(a, b)
