"""TF 1's partitioned variables: `get_variable(..., partitioner=...)` splits a variable
along one axis into shards ``name/part_0``, ``name/part_1``, ... (the first shards one row
longer when the axis does not divide evenly) and returns a `PartitionedVariable` over them,
which converts to their concatenation. A partitioner maps ``(shape, dtype)`` to the number
of shards along each axis.

>>> with tf.compat.v1.Graph().as_default():
...     w = tf.compat.v1.get_variable(
...         "w", [5, 2], partitioner=tf.compat.v1.fixed_size_partitioner(2))
...     [v.name for v in w], w.shape
(['w/part_0:0', 'w/part_1:0'], TensorShape([5, 2]))
"""
import collections.abc
import inspect
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, cast_ops


def _element_size(dtype, bytes_per_string_element):
    dtype = _d.as_dtype(dtype)
    return bytes_per_string_element if dtype.base_dtype == _d.string else dtype.size


@export("compat.v1.fixed_size_partitioner")
def fixed_size_partitioner(num_shards, axis=0):
    """A partitioner of `num_shards` shards along `axis` (fewer when the axis is shorter).

    >>> tf.compat.v1.fixed_size_partitioner(3)(shape=tf.TensorShape([10, 4]), dtype=tf.float32)
    [3, 1]
    """
    def _partitioner(shape, **unused_args):
        partitions = [1] * len(shape)
        partitions[axis] = min(num_shards, shape.as_list()[axis])
        return partitions
    return _partitioner


@export("compat.v1.variable_axis_size_partitioner")
def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16,
                                   max_shards=None):
    """A partitioner of as few shards along `axis` as keep each within `max_shard_bytes`
    (one slice of the axis at least; at most `max_shards`); strings count
    `bytes_per_string_element` each.

    >>> tf.compat.v1.variable_axis_size_partitioner(100)(tf.TensorShape([10, 4]), tf.float32)
    [2, 1]
    """
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive. "
                         f"Currently, max_shard_bytes is {max_shard_bytes} and"
                         f"bytes_per_string_element is {bytes_per_string_element}")
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape, dtype):
        if not isinstance(shape, TensorShape):
            raise ValueError(f"shape is not a TensorShape: {shape}")
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        partitions, length = [1] * shape.rank, shape.as_list()[axis]
        slice_bytes = (1.0 * (shape.num_elements() / length)
                       * _element_size(dtype, bytes_per_string_element))
        slices_per_shard = max(1, math.floor(max_shard_bytes / slice_bytes))
        shards = int(math.ceil(1.0 * length / slices_per_shard))
        partitions[axis] = min(max_shards, shards) if max_shards else shards
        return partitions
    return _partitioner


@export("compat.v1.min_max_variable_partitioner")
def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10,
                                 bytes_per_string_element=16):
    """A partitioner of shards of `min_slice_size` bytes at least along `axis`, at most
    `max_partitions` of them (and no more than the axis is long).

    >>> p = tf.compat.v1.min_max_variable_partitioner(4, min_slice_size=64)
    >>> p(tf.TensorShape([10, 4]), tf.float32)
    [3, 1]
    """
    def _partitioner(shape, dtype):
        if axis >= len(shape):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is "
                             f"only {shape}")
        total = shape.num_elements() * _element_size(dtype, bytes_per_string_element)
        partitions = [1] * len(shape)
        partitions[axis] = max(1, min(shape.as_list()[axis], max_partitions,
                                      int(math.ceil(total / min_slice_size))))
        return partitions
    return _partitioner


class _PartitionInfo:
    """Where a shard lies in its full variable (passed to initializers that take
    `partition_info`, whose scale then follows the full shape)."""

    def __init__(self, full_shape, var_offset):
        self.full_shape, self.var_offset = list(full_shape), list(var_offset)


class SaveSliceInfo:
    """A shard's place in its full variable: `full_name`, `full_shape`, `var_offset`,
    `var_shape`; `spec` in TF's checkpoint form (``"7 2 0,3:0,2"``)."""

    def __init__(self, full_name, full_shape, var_offset, var_shape):
        self.full_name, self.full_shape = full_name, list(full_shape)
        self.var_offset, self.var_shape = list(var_offset), list(var_shape)

    @property
    def spec(self):
        full = " ".join(str(d) for d in self.full_shape)
        return full + " " + ":".join(f"{o},{s}" for o, s in zip(self.var_offset,
                                                                self.var_shape))


class PartitionedVariable:
    """The shards of a variable split along one axis (what `get_variable` returns given a
    partitioner): iterating gives the shard variables in order; as a tensor it is their
    concatenation; `assign` and friends split their value across the shards."""

    def __init__(self, name, shape, dtype, variable_list, partitions):
        if not isinstance(variable_list, (list, tuple)):
            raise TypeError(f"variable_list is not a list or tuple: {variable_list}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError(f"partitions is not a list or tuple: {partitions}")
        if not all(p >= 1 for p in partitions):
            raise ValueError(f"partition values must be positive: {partitions}")
        if not variable_list:
            raise ValueError("variable_list may not be empty")
        self._variable_list = sorted(variable_list,
                                     key=lambda v: v._save_slice_info.var_offset)
        self._name, self._shape, self._dtype = name, TensorShape(shape), _d.as_dtype(dtype)
        self._partitions = list(partitions)

    def __iter__(self):
        return iter(self._variable_list)

    def __len__(self):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError(f"Cannot get a length for {len(axes)} > 1 partition axes")
        return len(self._variable_list)

    def _partition_axes(self):
        if all(p == 1 for p in self._partitions):
            return [0]
        return [i for i, p in enumerate(self._partitions) if p > 1]

    def _concat(self):
        if len(self._variable_list) == 1:
            with context.name_scope_push(""):
                return cast_ops.identity(self._variable_list[0], name=self._name)
        with context.name_scope_push(self._name + "/ConcatPartitions/"):
            joined = array_ops.concat(self._variable_list, self._partition_axes()[0])
        with context.name_scope_push(""):
            return cast_ops.identity(joined, name=self._name)

    def as_tensor(self):
        """The concatenated value (outside the control dependencies in force)."""
        with graph_mode.control_dependencies(None):
            return self._concat()

    def __tf_tensor__(self, dtype=None, name=None):
        if dtype is not None and not _d.as_dtype(dtype).is_compatible_with(self._dtype):
            raise ValueError(f"Incompatible type conversion requested to type "
                             f"'{_d.as_dtype(dtype).name}' for variable of type "
                             f"'{self._dtype.name}'")
        return self.as_tensor()

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    def _get_variable_list(self):
        return self._variable_list

    def _get_partitions(self):
        return self._partitions

    def _apply(self, method, value, kwargs):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise NotImplementedError(
                f"Cannot do assign action along more than one dimension: {axes}.  "
                f"Multi-axis partition assign action is not supported ")
        if isinstance(value, PartitionedVariable):
            values = list(value)
        elif isinstance(value, list):
            values = value
        else:
            sizes = [v.shape[axes[0]] for v in self._variable_list]
            values = array_ops.split(convert_to_tensor(value, self._dtype), sizes, axis=axes[0])
        read_value = kwargs.get("read_value", True)
        results = [getattr(v, method)(part, **kwargs)
                   for v, part in zip(self._variable_list, values)]
        return results if read_value else [getattr(r, "op", r) for r in results]

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Assigns each shard its part of `value` (split along the partition axis)."""
        return self._apply("assign", value, {"name": name, "read_value": read_value})

    def assign_add(self, value, use_locking=False, name=None, read_value=True):
        return self._apply("assign_add", value, {"name": name, "read_value": read_value})

    def assign_sub(self, value, use_locking=False, name=None, read_value=True):
        return self._apply("assign_sub", value, {"name": name, "read_value": read_value})

    def __repr__(self):
        return (f"<PartitionedVariable '{self._name}' shape={self._shape} "
                f"dtype={self._dtype.name} partitions={self._partitions}>")


def _partitions_of(partitioner, shape, dtype):
    """`partitioner`'s shards per axis for a new variable, checked as TF checks them."""
    if not shape.is_fully_defined():
        raise ValueError(f"Shape of a new partitioned variable must be fully defined, but "
                         f"instead was {shape}.")
    if shape.rank < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, collections.abc.Sequence):
        raise ValueError(f"Partitioner must return a sequence, but saw: {slicing}")
    if len(slicing) != shape.rank:
        raise ValueError(f"Partitioner returned a partition list that does not match the "
                         f"Variable's rank: {slicing} vs. {shape}")
    if any(p < 1 for p in slicing):
        raise ValueError(f"Partitioner returned zero partitions for some axes: {slicing}")
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError(f"Can only slice a variable along one dimension: shape: {shape}, "
                         f"partitioning: {slicing}")
    return list(slicing)


def _slices(full_shape, partitions):
    """(offset, shape) of each shard: the first ``length % n`` one longer."""
    axis, n = next(((i, p) for i, p in enumerate(partitions) if p > 1), (0, 1))
    longer, base = full_shape[axis] % n, full_shape[axis] // n
    offset = [0] * len(full_shape)
    for i in range(n):
        shape = list(full_shape)
        shape[axis] = base + (i < longer)
        yield list(offset), shape
        offset[axis] += shape[axis]


def _takes_partition_info(initializer):
    try:
        parameters = inspect.signature(initializer).parameters
    except (TypeError, ValueError):
        return False
    return "partition_info" in parameters


def _shard_initializer(initializer, info):
    if not _takes_partition_info(initializer):
        return initializer

    def init(shape, dtype=None):
        return initializer(shape, dtype=dtype, partition_info=info)
    return init


def get_partitioned_variable(get_single, full, name, shape, dtype, initializer, partitioner,
                             reuse, store):
    """The `PartitionedVariable` ``full`` (`name` in its scope) of `get_variable`: made of
    shards ``name/part_<i>`` by ``get_single(name, shape, dtype, initializer)``, or found
    in `store` (full name -> partitioned variable) when the scope reuses it."""
    if partitioner is not None and not callable(partitioner):
        raise ValueError(f"Partitioner must be callable, but received: {partitioner}")
    from_tensor = isinstance(initializer, Tensor)
    shape = TensorShape(shape)
    if from_tensor:
        shape = shape.merge_with(initializer.shape)
    partitions = None
    if not reuse or partitioner:
        partitions = _partitions_of(partitioner, shape, dtype)
    found = store.get(full)
    if found is not None:
        if reuse is False or reuse is None:
            raise ValueError(f"Partitioned variable with name {full} already exists. Did you "
                             f"mean to set reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
        if not shape.is_compatible_with(found.shape):
            raise ValueError(f"Trying to reuse partitioned variable {full}, but specified "
                             f"shape {shape} and found shape {found.shape}.")
        if not _d.as_dtype(dtype).is_compatible_with(found.dtype):
            raise ValueError(f"Trying to reuse partitioned variable {full}, but specified "
                             f"dtype {_d.as_dtype(dtype).name} and found dtype "
                             f"{found.dtype.name}.")
        if partitions is not None and found._get_partitions() != partitions:
            raise ValueError(f"Trying to reuse partitioned variable {full}, but specified "
                             f"partitions {partitions} and found partitions "
                             f"{found._get_partitions()}.")
        return found
    if reuse is True:
        raise ValueError(f"PartitionedVariable {full} does not exist, or was not created with "
                         f"tf.get_variable(). Did you mean to set reuse=False or "
                         f"reuse=tf.AUTO_REUSE in VarScope?")
    full_shape = shape.as_list()
    shards = []
    for i, (offset, part_shape) in enumerate(_slices(full_shape, partitions)):
        info = _PartitionInfo(full_shape, offset)
        if initializer is None or callable(initializer) and not from_tensor:
            init, init_shape = (None if initializer is None
                                else _shard_initializer(initializer, info)), part_shape
        else:
            value = (initializer if from_tensor
                     else convert_to_tensor(initializer, dtype=dtype))
            with context.name_scope_push(f"{full}/part_{i}/PartitionedInitializer/"):
                init = array_ops.slice(value, offset, part_shape)
            dtype, init_shape = init.dtype.base_dtype, None
        shard = get_single(f"{name}/part_{i}" if name else f"part_{i}", init_shape, dtype, init)
        shard._save_slice_info = SaveSliceInfo(full, full_shape, offset, part_shape)
        shards.append(shard)
    variable = PartitionedVariable(full, shape, dtype, shards, partitions)
    if graph_mode.v1_graph() is not None:
        store[full] = variable
    return variable


@export("compat.v1.create_partitioned_variables")
def create_partitioned_variables(shape, slicing, initializer, dtype=_d.float32, trainable=True,
                                 collections=None, name=None, reuse=None):
    """The shard variables of a variable of `shape` cut into `slicing[i]` pieces along
    each axis i (one axis only), in a variable scope `name` (default
    ``PartitionedVariable``). Deprecated in TF: use `get_variable` with a partitioner."""
    from eagerflow._src.compat import variable_scope as vs  # noqa: PLC0415 (it imports this)
    if len(shape) != len(slicing):
        raise ValueError(f"The 'shape' and 'slicing' of a partitioned Variable must have the "
                         f"length: shape: {shape}, slicing: {slicing}")
    if len(shape) < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1: shape: {shape}")
    with vs.variable_scope(name, "PartitionedVariable", reuse=reuse):
        return list(vs.get_variable("", shape, dtype, initializer, trainable=trainable,
                                    collections=collections,
                                    partitioner=lambda **unused: slicing))
