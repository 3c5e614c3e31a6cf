"""Filter and bias gradient fusion: ``Conv2DBackpropFilter(x, dy)`` and
``BiasAddGrad(dy)`` of the same output gradient become one
``_Conv2DBackpropFilterWithBias``, as TensorFlow's oneDNN builds fuse them.

A convolution with a bias has both gradients read the bias add's gradient `dy`:
fused, oneDNN sums the bias gradient in its pass over `dy` for the filter's, and
`dy` (as large as the convolution's result) is not read again. Both ops must be
channels last, of a floating-point dtype; the fused op runs where the first of
the two ran, so the filter gradient's input must be computed by then. Each
``BiasAddGrad`` pairs with one filter gradient at most.

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
from eagerflow._src.graph.passes.program import Rewriter, derive
from eagerflow._src.ops.conv_ops import _BACKPROP_FILTER
from eagerflow._src.ops.fused_ops import _CONV2D_BACKPROP_FILTER_WITH_BIAS
from eagerflow._src.ops.nn_ops import _BIAS_ADD_GRAD

_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def fuse_conv_bias_gradients(program):
    """`program` with each filter gradient and bias gradient of one output gradient as one op."""
    users = program.users()
    position = {id(op): i for i, op in enumerate(program.operations)}
    pairs, paired = {}, set()
    for op in program.operations:
        found = _pair(op, users, position, paired)
        if found is not None:
            first = min(found, key=lambda o: position[id(o)])
            pairs[id(first)] = found
            paired.update(id(o) for o in found)
    if not pairs:
        return program
    out = Rewriter(program)
    for op in program.operations:
        found = pairs.get(id(op))
        if found is not None:
            bias_grad, filter_grad = found
            fused = derive(filter_grad, _CONV2D_BACKPROP_FILTER_WITH_BIAS,
                           [out.read(t) for t in filter_grad.inputs], filter_grad.attrs,
                           specs=[(t.shape, t.dtype)
                                  for t in (*filter_grad.outputs, *bias_grad.outputs)])
            out.emit(fused)
            out.replace(filter_grad.outputs[0], fused.outputs[0])
            out.replace(bias_grad.outputs[0], fused.outputs[1])
        elif id(op) not in paired:
            out.emit(out.current(op))
    return out.program()


def _pair(bias_grad, users, position, paired):
    """(`bias_grad`, the filter gradient of the same output gradient) when they fuse, else
    None."""
    if (bias_grad.op_def is not _BIAS_ADD_GRAD
            or bias_grad.attrs.get("data_format", "NHWC") != "NHWC"):
        return None
    dy = bias_grad.inputs[0]
    if dy.dtype not in _FLOATS or dy.shape.rank != 4:
        return None
    for reader in users.get(id(dy), ()):
        if (reader is None or reader.op_def is not _BACKPROP_FILTER or id(reader) in paired
                or reader.inputs[1] is not dy
                or reader.attrs.get("data_format", "NHWC") != "NHWC"):
            continue
        x = reader.inputs[0]
        # the fused op runs at the first of the two: x must be there by then
        if position.get(id(x.op), -1) < min(position[id(bias_grad)], position[id(reader)]):
            return bias_grad, reader
    return None
