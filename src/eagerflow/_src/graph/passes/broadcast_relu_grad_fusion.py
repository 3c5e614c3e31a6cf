"""Broadcast + ReLU gradient fusion: ``ReluGrad(BroadcastTo(g, shape(r)), r)`` becomes one
``_BroadcastReluGrad(g, r)``, which never writes the broadcast array.

The gradient of a mean or sum over some axes (a global average pooling's) is its small
incoming gradient broadcast back to the input's shape; where that input is a ReLU's result,
the ReLU's gradient reads the broadcast array once and drops it. Fused, the small gradient
is broadcast as it is multiplied by the ReLU's mask: one pass over memory and one array
fewer, with the same values bit for bit. The broadcast must be read by that ``ReluGrad``
alone (and not be returned), of a floating-point dtype, to the ReLU gradient's own shape:
given when traced (both fully known and equal), or at run time as ``Shape`` of the
ReLU's result itself (an unknown batch, say). The fused op runs where the ``ReluGrad`` ran.

>>> from eagerflow._src.graph.passes.pipeline import optimize
>>> def grad(x, dy):
...     with tf.GradientTape() as tape:
...         tape.watch(x)
...         pooled = tf.reduce_mean(tf.nn.relu(x), axis=[1, 2])
...     return tape.gradient(pooled, x, output_gradients=dy)
>>> cf = tf.function(grad).get_concrete_function(tf.TensorSpec([2, 3, 3, 4]),
...                                              tf.TensorSpec([2, 4]))
>>> sorted({op.type for op in optimize(cf.graph, cf.inputs, cf.outputs).operations}
...        & {"BroadcastTo", "ReluGrad", "_BroadcastReluGrad"})
['_BroadcastReluGrad']
"""
from eagerflow._src.core import dtypes
from eagerflow._src.graph.passes.program import const_value, derive, substitute
from eagerflow._src.ops.array_ops import _BROADCAST_TO, _SHAPE
from eagerflow._src.ops.fused_ops import _BROADCAST_RELU_GRAD
from eagerflow._src.ops.nn_ops import _RELU_GRAD

_FLOATS = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64)


def fuse_broadcast_relu_gradients(program):
    """`program` with each ReLU gradient of a broadcast gradient as one op."""
    users = program.users()
    builders, absorbed = {}, set()
    for op in program.operations:
        found = _match(op, users)
        if found is not None:
            builders[id(op)] = _builder(op, found[0])
            absorbed.update(id(o) for o in found[1:])
    return substitute(program, builders, absorbed) if builders else program


def _builder(relu_grad, broadcast):
    def build(read):
        return derive(relu_grad, _BROADCAST_RELU_GRAD,
                      [read(broadcast.inputs[0]), read(relu_grad.inputs[1])], {}), \
            relu_grad.outputs
    return build


def _match(relu_grad, users):
    """(the broadcast, the ops only it read: itself, its ``Shape``) when `relu_grad`
    fuses, else None."""
    if relu_grad.op_def is not _RELU_GRAD:
        return None
    full, features = relu_grad.inputs
    broadcast = full.op
    if (getattr(broadcast, "op_def", None) is not _BROADCAST_TO or full.dtype not in _FLOATS
            or full is features or users.get(id(full), ()) != [relu_grad]):
        return None
    small = broadcast.inputs[0]
    if small.shape.rank is None or small.shape.rank > (features.shape.rank or 0):
        return None
    if len(broadcast.inputs) == 1:  # the shape known when traced
        shape = tuple(broadcast.attrs["shape"])
        if not features.shape.is_fully_defined() or shape != tuple(features.shape.as_list()):
            return None
        return broadcast, broadcast
    shape = broadcast.inputs[1]
    value = const_value(shape)
    if value is not None:
        if (not features.shape.is_fully_defined()
                or tuple(int(d) for d in value) != tuple(features.shape.as_list())):
            return None
        return broadcast, broadcast
    if getattr(shape.op, "op_def", None) is not _SHAPE or shape.op.inputs[0] is not features:
        return None
    if users.get(id(shape), ()) == [broadcast]:
        return broadcast, broadcast, shape.op
    return broadcast, broadcast
