"""Isotonic regression: the closest monotonic sequence to each row, in least squares.

The ``IsotonicRegression`` op fits a non-increasing sequence along the last axis by pool
adjacent violators: values go onto a stack of blocks (sum, count), and a block whose
mean exceeds the one before it merges with it until none does. Equal means stay apart,
and a NaN compares false, so it never merges. It also returns each element's block
index within its row; the gradient averages the incoming one over each block.

>>> y, segments = tf.nn.isotonic_regression([[1.0, 3.0, 2.0, 4.0]], decreasing=False)
>>> y.numpy().tolist(), segments.numpy().tolist()
([[1.0, 2.5, 2.5, 4.0]], [[0, 1, 1, 2]])
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import FLOAT, PER_ELEMENT, batching_rules, register, \
    register_gradient
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.wrappers import as_tensor


def _fit_row(row, out, segments):
    sums, counts = [], []
    for v in row.astype(np.float64):
        total, count = v, 1
        # (a NaN mean compares false: it never merges)
        while sums and sums[-1] / counts[-1] < total / count:
            total, count = total + sums.pop(), count + counts.pop()
        sums.append(total)
        counts.append(count)
    start = 0
    for index, (total, count) in enumerate(zip(sums, counts)):
        out[start:start + count] = total / count
        segments[start:start + count] = index
        start += count


def _output_dtype(dtype):
    """The dtype of the fit of `dtype` values: the same for floats, float64 for int32 and
    int64, float32 for int8 and int16 (TF's kernels, whose output_dtype must be it)."""
    if dtype.is_floating:
        return dtype
    return _d.float32 if dtype in (_d.int8, _d.int16) else _d.float64


def _isotonic(xp, x, output_dtype=None):
    # (output_dtype: TF's attr, read from a graph or raw op call; the raw op checks it)
    out_dtype = _output_dtype(_d.as_dtype(x.dtype)).as_numpy_dtype
    if x.size == 0:
        return x.astype(out_dtype), np.zeros(x.shape, np.int32)
    rows = x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)
    out = np.empty(rows.shape, out_dtype)
    segments = np.empty(rows.shape, np.int32)
    for row, fitted, ids in zip(rows, out, segments):
        _fit_row(row, fitted, ids)
    return out.reshape(x.shape), segments.reshape(x.shape)


def _isotonic_rule(x, output_dtype=None):
    return [(x.shape, _output_dtype(x.dtype)), (x.shape, _d.int32)]


_ISOTONIC = register("IsotonicRegression", _isotonic, _isotonic_rule, multi=True,
                     dtypes=FLOAT + (_d.int8, _d.int16, _d.int32, _d.int64),
                     grad_takes_none=True)
# (output_dtype: TF's attr of the output's dtype, which a raw op call given another fails)
tf_nodes[_ISOTONIC] = NodeForm(outputs=("output", "segments"),
                               types={"T": 0, "output_dtype": "out0"})
tf_args[_ISOTONIC] = ("input",)
batching_rules[_ISOTONIC] = PER_ELEMENT


@register_gradient("IsotonicRegression")
def _isotonic_grad(op, dy, _):
    """Each element's gradient is the mean of the incoming one over its block."""
    if dy is None:
        return None
    segments = op.outputs[1]
    width = array_ops.shape(segments, out_type=_d.int64)[-1]
    flat = cast(array_ops.reshape(segments, [-1]), _d.int64)
    row = array_ops.range(array_ops.size(flat, out_type=_d.int64), dtype=_d.int64) // width
    ids = row * width + flat  # blocks numbered across rows
    means = reduction_ops.unsorted_segment_mean(array_ops.reshape(dy, [-1]), ids,
                                                array_ops.size(flat, out_type=_d.int64))
    return array_ops.reshape(array_ops.gather(means, ids), array_ops.shape(dy))


@export("nn.isotonic_regression")
def isotonic_regression(inputs, decreasing=True, axis=-1):
    """The non-increasing (or, with ``decreasing=False``, non-decreasing) sequence
    closest to `inputs` along `axis` in least squares, and each element's block index.

    Integer inputs give float64 values (int8 and int16 float32).

    >>> y, segments = tf.nn.isotonic_regression([3.0, 1.0, 2.0])
    >>> y.numpy().tolist(), segments.numpy().tolist()
    ([3.0, 1.5, 1.5], [0, 1, 1])
    """
    x = as_tensor(inputs)
    if not x.dtype.is_floating:  # (int8 and int16 in float32, as TF's type promotions)
        x = cast(x, _d.float32 if x.dtype in (_d.int8, _d.int16) else _d.float64)
    rank = x.shape.rank
    axis = int(axis)
    last = axis == -1 or (rank is not None and axis == rank - 1)
    if not last:
        if rank is None:
            raise ValueError("isotonic_regression needs inputs of known rank along an axis "
                             "other than the last")
        axis %= rank
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = array_ops.transpose(x, perm)
    if not decreasing:
        x = math_ops.negative(x)
    y, segments = dispatch(_ISOTONIC, (x,), {})
    if not decreasing:
        y = math_ops.negative(y)
    if not last:
        y, segments = array_ops.transpose(y, perm), array_ops.transpose(segments, perm)
    return y, segments
