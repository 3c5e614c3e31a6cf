"""Filter and bias gradient fusion: ``Conv2DBackpropFilter(x, dy)`` and
``BiasAddGrad(dy)`` of the same output gradient become one
``_Conv2DBackpropFilterWithBias``, as TensorFlow's oneDNN builds fuse them.

A convolution with a bias has both gradients read the bias add's gradient `dy`:
fused, oneDNN sums the bias gradient in its pass over `dy` for the filter's, and
`dy` (as large as the convolution's result) is not read again. Both ops must be
channels last, of a floating-point dtype. Where a dimension is unknown when
traced, gradients reach the filter's through a sum over the axes broadcast at
run time (none: a convolution's input is not broadcast), which keeps each
channel's elements apart: the bias gradient of that sum is the same. The fused
op runs where the first of the two ran when the filter gradient's inputs are
there by then, else where the second ran when nothing reads the first one's
result in between. Each ``BiasAddGrad`` pairs with one filter gradient at most.

>>> from eagerflow._src.graph.passes.pipeline import optimize
>>> def grads(x, w, b):
...     with tf.GradientTape() as tape:
...         tape.watch([w, b])
...         y = tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "VALID"), b)
...         loss = tf.reduce_sum(y * y)
...     return tape.gradient(loss, [w, b])
>>> cf = tf.function(grads).get_concrete_function(
...     tf.TensorSpec([2, 4, 4, 3]), tf.TensorSpec([3, 3, 3, 2]), tf.TensorSpec([2]))
>>> sorted({op.type for op in optimize(cf.graph, cf.inputs, cf.outputs).operations}
...        & {"BiasAddGrad", "Conv2DBackpropFilter", "_Conv2DBackpropFilterWithBias"})
['_Conv2DBackpropFilterWithBias']
"""
from eagerflow._src.core import dtypes
from eagerflow._src.graph.passes.program import const_value, derive, substitute
from eagerflow._src.ops.array_ops import _BROADCAST_GRADIENT_ARGS, _RESHAPE, _SHAPE
from eagerflow._src.ops.conv_ops import _BACKPROP_FILTER
from eagerflow._src.ops.fused_ops import _CONV2D_BACKPROP_FILTER_WITH_BIAS
from eagerflow._src.ops.nn_ops import _BIAS_ADD_GRAD
from eagerflow._src.ops.reduction_ops import _SUM

_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def fuse_conv_bias_gradients(program):
    """`program` with each filter gradient and bias gradient of one output gradient as one op."""
    users = program.users()
    position = {id(op): i for i, op in enumerate(program.operations)}
    pairs, paired = {}, set()
    for op in program.operations:
        found = _pair(op, users, position, paired)
        if found is not None:
            where, bias_grad, filter_grad = found
            pairs[id(where)] = bias_grad, filter_grad
            paired.update((id(bias_grad), id(filter_grad)))
    if not pairs:
        return program
    return substitute(program, {key: _builder(*pair) for key, pair in pairs.items()}, paired)


def _builder(bias_grad, filter_grad):
    def build(read):
        fused = derive(filter_grad, _CONV2D_BACKPROP_FILTER_WITH_BIAS,
                       [read(t) for t in filter_grad.inputs], filter_grad.attrs,
                       specs=[(t.shape, t.dtype)
                              for t in (*filter_grad.outputs, *bias_grad.outputs)])
        return fused, (filter_grad.outputs[0], bias_grad.outputs[0])
    return build


def _pair(bias_grad, users, position, paired):
    """(where the fused op runs, `bias_grad`, the filter gradient of the same output
    gradient) when they fuse, else None."""
    if (bias_grad.op_def is not _BIAS_ADD_GRAD
            or bias_grad.attrs.get("data_format", "NHWC") != "NHWC"):
        return None
    dy = bias_grad.inputs[0]
    if dy.dtype not in _FLOATS or dy.shape.rank != 4:
        return None
    for read in (dy, *_unbroadcast(dy, users)):
        for reader in users.get(id(read), ()):
            if (reader is None or reader.op_def is not _BACKPROP_FILTER
                    or len(reader.inputs) != 2  # (filter sizes known at run time only)
                    or id(reader) in paired or reader.inputs[1] is not read
                    or reader.attrs.get("data_format", "NHWC") != "NHWC"):
                continue
            where = _placement(bias_grad, reader, users, position)
            if where is not None:
                return where, bias_grad, reader
    return None


def _unbroadcast(dy, users):
    """The tensors a gradient's reduction to its input's shape at run time makes of `dy`
    (``Reshape(Sum(dy, BroadcastGradientArgs(shape, ...)[0], keepdims), ...)``, where a
    dimension is unknown when traced) that keep its last axis: the bias gradient of each
    is `dy`'s, as the sum adds elements of the same channel alone."""
    channels = dy.shape[-1]
    if channels is None:
        return []
    found = []
    for total in users.get(id(dy), ()):
        if (total is None or total.op_def is not _SUM or total.inputs[0] is not dy
                or not total.attrs.get("keepdims") or len(total.inputs) != 2):
            continue
        axes = total.inputs[1]
        if (getattr(axes.op, "op_def", None) is not _BROADCAST_GRADIENT_ARGS
                or axes is not axes.op.outputs[0] or _last(axes.op.inputs[0]) != channels):
            continue
        for reshape in users.get(id(total.outputs[0]), ()):
            if (reshape is not None and reshape.op_def is _RESHAPE
                    and reshape.inputs[0] is total.outputs[0]
                    and reshape.outputs[0].shape.rank == 4
                    and reshape.outputs[0].shape[-1] == channels):
                found.append(reshape.outputs[0])
    return found


def _last(shape):
    """The last element of 1-D shape tensor `shape` where known when traced, else None."""
    value = const_value(shape)
    if value is not None:
        return int(value[-1]) if len(value) else None
    if getattr(shape.op, "op_def", None) is _SHAPE:
        dims = shape.op.inputs[0].shape
        return dims[-1] if dims.rank else None
    return None


def _placement(bias_grad, filter_grad, users, position):
    """The op of the two where the fused op can run, or None: at the first where the filter
    gradient's inputs are there by then, else at the second where nothing reads the first
    one's result in between."""
    first, second = sorted((bias_grad, filter_grad), key=lambda op: position[id(op)])
    if all(position.get(id(t.op), -1) < position[id(first)] for t in filter_grad.inputs):
        return first
    readers = [reader for t in first.outputs for reader in users.get(id(t), ())]
    if all(reader is None or position[id(reader)] > position[id(second)]
           for reader in readers):
        return second
    return None
