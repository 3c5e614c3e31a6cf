"""TF 1's ragged values: `RaggedTensorValue` (what `Session.run` fetches of a `RaggedTensor`
and feeds to one), `constant_value` and the ragged `placeholder`."""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import dtypes as _d
from eagerflow._src.ragged import ragged_ops
from eagerflow._src.ragged.ragged_tensor import NestedRows, RaggedTensor


@export("compat.v1.ragged.RaggedTensorValue")
class RaggedTensorValue(NestedRows):
    """The value of a `RaggedTensor` in NumPy arrays: `values` (an array, or another
    `RaggedTensorValue`) split into rows by `row_splits` (its `flat_values`,
    `nested_row_splits` and `ragged_rank` as a `RaggedTensor`'s).

    >>> v = tf.compat.v1.ragged.constant_value([[1, 2], [3]])
    >>> print(v)
    <tf.RaggedTensorValue [[1, 2], [3]]>
    >>> v.row_splits
    array([0, 2, 3])
    """

    def __init__(self, values, row_splits):
        if not (isinstance(row_splits, (np.ndarray, np.generic)) and
                row_splits.dtype in (np.int64, np.int32) and row_splits.ndim == 1):
            raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
        if not isinstance(values, (np.ndarray, np.generic, RaggedTensorValue)):
            raise TypeError("values must be a numpy array or a RaggedTensorValue")
        if isinstance(values, RaggedTensorValue) and row_splits.dtype != values.row_splits.dtype:
            raise ValueError("row_splits and values.row_splits must have the same dtype")
        self._values, self._row_splits = values, row_splits

    values = property(lambda self: self._values, doc="The concatenated rows.")
    row_splits = property(lambda self: self._row_splits, doc="Where each row starts and ends.")
    row_splits_dtype = property(lambda self: self._row_splits.dtype)

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self):
        """(rows, None, ...the values' uniform dims)."""
        return (self._row_splits.shape[0] - 1, None) + tuple(self._values.shape[1:])

    def to_list(self):
        """The value as nested Python lists."""
        values = self._values.to_list() if isinstance(self._values, RaggedTensorValue) \
            else self._values.tolist()
        splits = self._row_splits.tolist()
        return [values[start:stop] for start, stop in zip(splits[:-1], splits[1:])]

    def __str__(self):
        return f"<tf.RaggedTensorValue {self.to_list()}>"

    def __repr__(self):
        return f"tf.RaggedTensorValue(values={self._values!r}, row_splits={self._row_splits!r})"


def from_parts(flat_values, nested_row_splits):
    """The `RaggedTensorValue` of `flat_values` split by `nested_row_splits` (outermost
    first)."""
    value = flat_values
    for splits in reversed(nested_row_splits):
        value = RaggedTensorValue(value, splits)
    return value


@export("compat.v1.ragged.constant_value")
def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None,
                   row_splits_dtype="int64"):
    """The `RaggedTensorValue` of nested Python lists (as `tf.ragged.constant` reads them),
    or a NumPy array where they have no ragged dimension.

    >>> tf.compat.v1.ragged.constant_value([[1.5], []]).to_list()
    [[1.5], []]
    """
    if isinstance(pylist, (RaggedTensor, RaggedTensorValue)):
        raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
    pylist = ragged_ops._as_lists(pylist)
    parts = ragged_ops.host_parts(pylist, dtype, ragged_rank, inner_shape, row_splits_dtype,
                                  as_numpy=True)
    if parts is None:  # (NumPy's array, of NumPy's default dtypes, as TF's)
        array = np.array(pylist, None if dtype is None else _d.as_dtype(dtype).as_numpy_dtype)
        return array if inner_shape is None or array.shape[-len(inner_shape):] == tuple(
            inner_shape) else array.reshape((-1, *inner_shape))
    return from_parts(*parts)


@export("compat.v1.ragged.placeholder")
def placeholder(dtype, ragged_rank, value_shape=None, name=None):
    """A `RaggedTensor` whose value each `Session.run` feeds (a `RaggedTensorValue`):
    `ragged_rank` ragged dimensions over values of `value_shape`.

    >>> with tf.compat.v1.Graph().as_default():
    ...     tf.compat.v1.ragged.placeholder(tf.float32, 1, [2]).shape
    TensorShape([None, None, 2])
    """
    if graph_mode.v1_graph() is None:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    with graph_mode.name_scope(name, "RaggedPlaceholder"):
        flat_values = graph_mode.placeholder(dtype, [None, *(value_shape or [])],
                                             name="flat_values")
        splits = [graph_mode.placeholder(_d.int64, [None], name=f"row_splits_{i}")
                  for i in range(ragged_rank)]
    return RaggedTensor.from_nested_row_splits(flat_values, splits, validate=False)
