"""Partitioning and stitching by index, and fixed-width histograms.

`dynamic_partition` splits a tensor's rows into groups by a partition id per
row; `dynamic_stitch` interleaves rows back into one tensor by index (so each
undoes the other, and each one's gradient is the other).
`histogram_fixed_width` counts values in equal-width bins.

>>> tf.dynamic_partition([10, 20, 30], [1, 0, 1], 2)[1]
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([10, 30], dtype=int32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor, get_static_value, is_tensor_like
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import kernel_type_name, register, register_gradient
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, no_gradient_entry
from eagerflow._src.ops import array_ops, cast_ops, late, math_ops, shape_rules
from eagerflow._src.ops.reduction_ops import check_attr_dtype, clip_by_value
from eagerflow._src.ops.wrappers import as_tensor, binary_operands


def _bad(message):
    return errors.InvalidArgumentError(None, None, message)


# -- DynamicPartition -------------------------------------------------------------------------

def _dynamic_partition_kernel(xp, data, partitions, num_partitions):
    if data.shape[:partitions.ndim] != partitions.shape:
        raise _bad(f"data.shape must start with partitions.shape, got data.shape = "
                   f"{shape_text(data.shape)}, partitions.shape = {shape_text(partitions.shape)}")
    bad = (partitions < 0) | (partitions >= num_partitions)
    if bad.any():
        at = np.unravel_index(int(xp.argmax(bad.reshape(-1))), partitions.shape)
        raise _bad(f"partitions{shape_text(at)} = {int(partitions[at])} is not in "
                   f"[0, {num_partitions})")
    rows = data.reshape((partitions.size,) + data.shape[partitions.ndim:])
    ids = partitions.reshape(-1)
    return tuple(rows[ids == p] for p in range(num_partitions))


def _dynamic_partition_rule(data, partitions, num_partitions):
    if data.shape.rank is not None and partitions.shape.rank is not None:
        shape_rules.merge_prefix("DynamicPartition", data.shape, partitions.shape,
                                 [data.shape, partitions.shape])
    if data.shape.rank is None or partitions.shape.rank is None:
        return [(unknown_shape(), data.dtype)] * num_partitions
    return [(TensorShape([None] + data.shape.as_list()[partitions.shape.rank:]), data.dtype)
            ] * num_partitions


_DYNAMIC_PARTITION = register("DynamicPartition", _dynamic_partition_kernel,
                              _dynamic_partition_rule, multi=True, tied=())
tf_nodes[_DYNAMIC_PARTITION] = NodeForm(types={"T": 0}, outputs=("outputs",))
tf_args[_DYNAMIC_PARTITION] = ("data", "partitions")


@export("dynamic_partition")
def dynamic_partition(data, partitions, num_partitions, name=None):
    """Splits `data` into `num_partitions` tensors by the int32 `partitions`, a partition id
    for each of data's leading ``partitions.shape`` elements (in order within each part).

    >>> [p.numpy().tolist() for p in tf.dynamic_partition([10, 20, 30, 40], [0, 1, 1, 0], 2)]
    [[10, 40], [20, 30]]
    """
    data = as_tensor(data)
    partitions = convert_to_tensor(partitions, _d.int32)
    num_partitions = int(num_partitions)
    if num_partitions < 1:
        raise errors.op_error(errors.InvalidArgumentError, "DynamicPartition",
                              f"Value for attr 'num_partitions' of {num_partitions} must be at "
                              f"least minimum 1")
    return list(dispatch(_DYNAMIC_PARTITION, (data, partitions),
                         {"num_partitions": num_partitions}, name))


# -- DynamicStitch ----------------------------------------------------------------------------

def _stitch_kernel(op_name):
    """The kernel of `op_name` (DynamicStitch, or ParallelDynamicStitch: the same values)."""
    def kernel(xp, *arrays):
        n = len(arrays) // 2
        indices, data = arrays[:n], arrays[n:]
        for i, t in enumerate(indices):  # (a raw op's: tf.dynamic_stitch converts to int32)
            if t.dtype != np.int32:
                raise errors.before_kernel(_bad(
                    f"cannot compute {op_name} as input #{i}(zero-based) was expected to be a "
                    f"int32 tensor but is a {kernel_type_name(_d.from_numpy(t.dtype))} tensor "
                    f"[Op:{op_name}]"))
        for i, d in enumerate(data[1:], n + 1):  # the data share one dtype (TF's type attr)
            if d.dtype != data[0].dtype:
                names = [kernel_type_name(_d.from_numpy(t.dtype)) for t in (data[0], d)]
                raise errors.before_kernel(_bad(
                    f"cannot compute {op_name} as input #{i}(zero-based) was expected to be a "
                    f"{names[0]} tensor but is a {names[1]} tensor [Op:{op_name}]"))
        inner = data[0].shape[indices[0].ndim:]
        for i, (idx, d) in enumerate(zip(indices, data)):
            if d.shape[:idx.ndim] != idx.shape:
                raise _bad(f"data[{i}].shape = {shape_text(d.shape)} does not start with "
                           f"indices[{i}].shape = {shape_text(idx.shape)}")
            if d.shape[idx.ndim:] != inner:
                raise _bad(f"Need data[0].shape[{indices[0].ndim}:] = data[{i}].shape"
                           f"[{idx.ndim}:], got data[0].shape = {shape_text(data[0].shape)}, "
                           f"data[{i}].shape = {shape_text(d.shape)}, indices[0].shape = "
                           f"{shape_text(indices[0].shape)}, indices[{i}].shape = "
                           f"{shape_text(idx.shape)}")
            if (idx < 0).any():
                raise _bad(f"indices[{int(xp.argmax(idx.reshape(-1) < 0))}] is out of range")
        rows = 1 + max((int(idx.max()) for idx in indices if idx.size), default=-1)
        out = xp.zeros((rows,) + inner, data[0].dtype)
        if out.dtype == object:
            out[...] = b""
        for idx, d in zip(indices, data):  # later positions overwrite earlier ones
            out[idx.reshape(-1)] = d.reshape((idx.size,) + inner)
        return out
    return kernel


def _stitch_rule(op_name):
    def rule(*inputs):
        n = len(inputs) // 2
        shapes = [t.shape for t in inputs]
        for idx, d in zip(inputs[:n], inputs[n:]):
            if idx.shape.rank is not None and d.shape.rank is not None:
                shape_rules.merge_prefix(op_name, d.shape, idx.shape, shapes)
        indices, data = inputs[0], inputs[n]
        if data.shape.rank is None or indices.shape.rank is None:
            return unknown_shape(), data.dtype
        # as TF's shape function: the rows are known when every index is
        known = [shape_rules.known_value(t) for t in inputs[:n]]
        rows = None if any(k is None for k in known) else 1 + max(
            (int(np.max(k)) for k in known if np.size(k)), default=-1)
        return TensorShape([rows] + data.shape.as_list()[indices.shape.rank:]), data.dtype
    return rule


def _register_stitch(op_name):
    op = register(op_name, _stitch_kernel(op_name), _stitch_rule(op_name), tied=())
    # TF's N counts the pairs (the indices, then as many data), T is the data's dtype
    tf_nodes[op] = NodeForm(
        types={}, ignored=("N", "T"),
        rewrite=lambda attrs, inputs: {**attrs, "N": len(inputs) // 2,
                                       "T": inputs[len(inputs) // 2].dtype})
    tf_args[op] = ("*indices", "*data")
    tf_nodes.get(op).outputs = ("merged",)
    return op


_DYNAMIC_STITCH = _register_stitch("DynamicStitch")
# (TF's parallel kernel: which of repeated indices wins is not defined; here the last, as
# DynamicStitch)
_PARALLEL_DYNAMIC_STITCH = _register_stitch("ParallelDynamicStitch")


def _tensor_list(values, dtype=None):
    """A list of tensors from a list (or a tensor, whose rows are the list)."""
    if isinstance(values, Tensor) or not isinstance(values, (list, tuple)):
        return array_ops.unstack(as_tensor(values))
    if dtype is not None:  # (a tensor keeps its dtype: the op rejects one it does not take)
        return [v if isinstance(v, Tensor) else convert_to_tensor(v, dtype) for v in values]
    return array_ops._matching(values)


@export("dynamic_stitch")
def dynamic_stitch(indices, data, name=None):
    """Interleaves the values of `data` into one tensor: ``merged[indices[m][i]] =
    data[m][i]`` (a later position wins where indices repeat; rows no index names are 0).

    >>> tf.dynamic_stitch([[0, 2], [1, 3]], [[1.0, 2.0], [3.0, 4.0]])
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([1., 3., 2., 4.], dtype=float32)>
    """
    indices = _tensor_list(indices, _d.int32)
    data = _tensor_list(data)
    if len(data) != len(indices):
        raise ValueError(f"List argument 'data' to 'dynamic_stitch' Op with length {len(data)} "
                         f"must match length {len(indices)} of argument 'indices'.")
    if not indices:
        raise errors.op_error(errors.InvalidArgumentError, "DynamicStitch",
                              "DynamicStitch needs at least one pair of indices and data")
    for i, idx in enumerate(indices):
        if idx.dtype != _d.int32 and context.get().graph is not None:
            raise TypeError(f"Input 'indices' of 'DynamicStitch' Op has type {idx.dtype.name} "
                            f"that does not match expected type of int32.")
        if idx.dtype != _d.int32:
            raise errors.op_error(
                errors.InvalidArgumentError, "DynamicStitch",
                f"cannot compute DynamicStitch as input #{i}(zero-based) was expected to be a "
                f"int32 tensor but is a {kernel_type_name(idx.dtype)} tensor")
    return dispatch(_DYNAMIC_STITCH, (*indices, *data), name=name)


@register_gradient("DynamicPartition")
def _dynamic_partition_grad(op, *grads):
    # Partition the positions of the rows as the rows were, then stitch the gradients back.
    data, partitions = op.inputs
    positions = array_ops.reshape(array_ops.range(array_ops.size(partitions)),
                                  array_ops.known_shape(partitions))
    parts = dynamic_partition(positions, partitions, op.attrs["num_partitions"])
    return array_ops.reshape(dynamic_stitch(parts, list(grads)),
                             array_ops.known_shape(data)), None


@register_gradient("DynamicStitch")
@register_gradient("ParallelDynamicStitch")
def _dynamic_stitch_grad(op, dy):
    # Each value's gradient is read back at its index (even where a later value overwrote
    # it, as in TF).
    n = len(op.inputs) // 2
    return (None,) * n + tuple(array_ops.gather(dy, idx) for idx in op.inputs[:n])


# -- HistogramFixedWidth ----------------------------------------------------------------------

def _bounds_text(value_range):
    """The two bounds as TF's messages show them: integers bare, floats as %g."""
    return ", ".join(str(v) if isinstance(v, int) else f"{v:g}" for v in value_range.tolist())


def _histogram_kernel(xp, values, value_range, nbins, dtype):
    if nbins is not None and type(nbins) is not int:  # an input: known at run time only
        nbins = None if nbins.ndim else int(nbins)
    if value_range.ndim != 1:
        raise _bad("value_range should be a vector.")
    if value_range.shape[0] != 2:
        raise _bad("value_range should be a vector of 2 elements.")
    if nbins is None:
        raise _bad("nbins should be a scalar.")
    low, high = value_range.tolist()
    if not low < high:
        raise _bad(f"value_range should satisfy value_range[0] < value_range[1], but got "
                   f"'[{_bounds_text(value_range)}]'")
    if nbins <= 0:
        raise _bad(f"nbins should be a positive number, but got '{nbins}'")
    if values.dtype.kind == "f" and xp.isnan(values).any():
        raise _bad("Histogram values must not contain NaN")
    # Bin positions in float64 (exact for int32; int64 differences would overflow in int64),
    # values below the range in bin 0, above it in the last.
    step = (float(high) - float(low)) / nbins
    offset = xp.maximum(values.astype(xp.float64), float(low)) - float(low)
    bins = xp.minimum(offset / step, nbins - 1).astype(xp.int64)
    return xp.bincount(bins.reshape(-1), minlength=nbins).astype(dtype.as_numpy_dtype)


def _positive_bins(nbins, values, value_range):
    """`nbins` for the output's shape; TF's shape function rejects one below 1."""
    if nbins is not None and type(nbins) is not int:  # an input: known at run time only
        if nbins.shape.rank not in (None, 0):
            raise shape_rules.shape_error(
                "HistogramFixedWidth", f"Shape must be rank 0 but is rank {nbins.shape.rank}",
                [values.shape, value_range.shape, nbins.shape])
        return None
    if nbins is not None and nbins <= 0:
        raise shape_rules.shape_error(
            "HistogramFixedWidth", f"Requires nbins > 0: {nbins}",
            [values.shape, value_range.shape, TensorShape([])], computed=[(2, nbins)])
    return nbins


_HISTOGRAM = register(
    "HistogramFixedWidth", _histogram_kernel,
    lambda values, value_range, nbins, dtype: (TensorShape([_positive_bins(nbins, values,
                                                                           value_range)]), dtype),
    tied=(0, 1), dtypes=(_d.int32, _d.int64, _d.float32, _d.float64))
no_gradient_entry("HistogramFixedWidth")  # (a gradient reaches it only as the target)
tf_nodes[_HISTOGRAM] = NodeForm(inputs=(0, 1, AttrInput("nbins", type_attr=None, kind=int,
                                                        runtime=True)),
                               outputs=("out",))
tf_args[_HISTOGRAM] = ("values", "value_range", "nbins")
tf_defaults[_HISTOGRAM] = {"dtype": _d.int32}


def _nbins_value(nbins):
    """`nbins` as a Python int, or None when it is not a scalar (the kernel reports it), or
    an int32 tensor when run time alone knows it (the op's input, as in TF)."""
    dynamic = array_ops.run_time_tensor(nbins)
    if dynamic is not None:
        if dynamic.dtype != _d.int32:
            raise TypeError(f"Input 'nbins' of 'HistogramFixedWidth' Op has type "
                            f"{dynamic.dtype.name} that does not match expected type of int32.")
        return dynamic
    value = np.asarray(nbins)
    return None if value.ndim else int(value)


@export("histogram_fixed_width")
def histogram_fixed_width(values, value_range, nbins=100, dtype=_d.int32, name=None):
    """Counts `values` in `nbins` equal-width bins spanning ``value_range = [low, high]``;
    values below low count in the first bin, values above high in the last.

    >>> tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0], nbins=5)
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([2, 1, 1, 0, 2], dtype=int32)>
    """
    dtype = _d.as_dtype(dtype)
    check_attr_dtype("HistogramFixedWidth", "dtype", dtype, (_d.int32, _d.int64))
    given = (values, value_range)
    values, value_range = binary_operands(values, value_range)
    try:
        nbins = _nbins_value(nbins)
        if isinstance(nbins, Tensor):
            return dispatch(_HISTOGRAM, (values, value_range, nbins), {"dtype": dtype}, name)
        return dispatch(_HISTOGRAM, (values, value_range), {"nbins": nbins, "dtype": dtype},
                        name)
    except errors.OpError as e:  # (TF's wrapper opens a name scope and converts nothing)
        raise errors.listed(errors.scoped(e), *given) from None


@export("histogram_fixed_width_bins")
def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=_d.int32, name=None):
    """The bin index (int32, in [0, nbins)) of each element of `values` in `nbins`
    equal-width bins spanning `value_range`, out-of-range values clipped to the end bins.

    As in TF, `dtype` is accepted and ignored.

    >>> tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0], nbins=5)
    <tf.Tensor: shape=(6,), dtype=int32, numpy=array([0, 0, 1, 2, 4, 4], dtype=int32)>
    """
    values = as_tensor(values)
    shape = array_ops.known_shape(values)
    values = array_ops.reshape(values, [-1])
    value_range = as_tensor(value_range)
    nbins = convert_to_tensor(nbins, _d.int32)
    positive = math_ops.greater(nbins, 0)
    if context.executing_eagerly():
        if not bool(positive):
            raise _bad(f"Expected '{positive!s}' to be true. Summarized data: "
                       f"b'nbins {nbins!s} must > 0'")
    else:
        late.debugging_ops.Assert(positive, [f"nbins {nbins} must > 0"])
    nbins_float = cast_ops.cast(nbins, values.dtype)
    scaled = math_ops.truediv(math_ops.subtract(values, value_range[0]),
                              math_ops.subtract(value_range[1], value_range[0]))
    indices = math_ops.floor(math_ops.multiply(nbins_float, scaled))
    indices = clip_by_value(indices, 0, math_ops.subtract(nbins_float, 1))
    return array_ops.reshape(cast_ops.cast(indices, _d.int32), shape, name=name)


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _DYNAMIC_PARTITION, _DYNAMIC_STITCH, _PARALLEL_DYNAMIC_STITCH,
                      _HISTOGRAM)
