"""Batch normalization + ReLU fusion: ``relu(FusedBatchNormV3(x)[0])`` becomes one
``_FusedBatchNormEx``, and its gradient ``FusedBatchNormGradV3(ReluGrad(g, r), x, ...)``
one ``_FusedBatchNormGradEx``, as TensorFlow's remapper fuses them.

A normalization in training fuses when its result is read by one ``Relu`` alone
(and is not returned); its gradient ops fuse with it when each reads the ReLU's
gradient ``ReluGrad(g, r)`` of the fused ReLU's result `r`, read by that gradient op
alone. Where the normalization has another gradient op (a second derivative, say),
nothing fuses: every op stays as it was. The fused gradient op takes the fused
op's reserve spaces, in which oneDNN's kernel leaves the ReLU's mask.

>>> from eagerflow._src.graph.passes.pipeline import optimize
>>> from eagerflow._src.ops.fused_batch_norm_ops import fused_batch_norm
>>> def step(x, scale, offset):
...     with tf.GradientTape() as tape:
...         tape.watch(x)
...         y = tf.nn.relu(fused_batch_norm(x, scale, offset)[0])
...     return tape.gradient(y, x)
>>> cf = tf.function(step).get_concrete_function(
...     tf.TensorSpec([2, 2, 2, 3]), tf.TensorSpec([3]), tf.TensorSpec([3]))
>>> program = optimize(cf.graph, cf.inputs, cf.outputs)
>>> sorted({op.type for op in program.operations} & {"Relu", "ReluGrad", "_FusedBatchNormEx",
...                                                  "_FusedBatchNormGradEx"})
['_FusedBatchNormEx', '_FusedBatchNormGradEx']
"""
from eagerflow._src.graph.passes.program import Rewriter, derive
from eagerflow._src.ops.fused_batch_norm_ops import (
    _FUSED_BATCH_NORM, _FUSED_BATCH_NORM_EX, _FUSED_BATCH_NORM_GRAD, _FUSED_BATCH_NORM_GRAD_EX)
from eagerflow._src.ops.nn_ops import _RELU, _RELU_GRAD

_FORWARD_ATTRS = ("epsilon", "exponential_avg_factor", "data_format", "is_training")
_GRAD_ATTRS = ("epsilon", "data_format", "is_training")


def fuse_batch_norm_relu(program):
    """`program` with each batch normalization + ReLU (and their gradients) as fused ops."""
    users = program.users()
    plans = [plan for plan in (_plan(op, users) for op in program.operations) if plan]
    if not plans:
        return program
    forward = {id(bn): (bn, relu, grads) for bn, relu, grads in plans}
    absorbed = {id(relu) for _, relu, _ in plans}
    grads = {}
    for bn, relu, pairs in plans:
        for relu_grad, grad in pairs:
            absorbed.add(id(relu_grad))
            grads[id(grad)] = (bn, relu_grad, grad)
    out = Rewriter(program)
    fused_of = {}
    for op in program.operations:
        if id(op) in forward:
            bn, relu, _ = forward[id(op)]
            fused = _fused_forward(bn, relu, out.read)
            out.emit(fused)
            out.replace(relu.outputs[0], fused.outputs[0])
            for old, new in zip(bn.outputs[1:], fused.outputs[1:]):
                out.replace(old, new)
            fused_of[id(bn)] = fused
        elif id(op) in grads:
            bn, relu_grad, grad = grads[id(op)]
            fused = _fused_grad(grad, relu_grad, bn, fused_of[id(bn)], out.read)
            out.emit(fused)
            for old, new in zip(grad.outputs, fused.outputs):
                out.replace(old, new)
        elif id(op) not in absorbed:
            out.emit(out.current(op))
    return out.program()


def _plan(bn, users):
    """(bn, its ReLU, [(ReluGrad, gradient op)]) when `bn` fuses, else None."""
    if bn.op_def is not _FUSED_BATCH_NORM or not bn.attrs.get("is_training", True):
        return None
    readers = users.get(id(bn.outputs[0]), ())
    if len(readers) != 1 or readers[0] is None or readers[0].op_def is not _RELU:
        return None
    relu = readers[0]
    result = relu.outputs[0]
    pairs = []
    for t in bn.outputs[3:]:
        for reader in users.get(id(t), ()):
            if reader is None or reader.op_def is not _FUSED_BATCH_NORM_GRAD:
                return None
            if any(pair[1] is reader for pair in pairs):
                continue
            relu_grad = reader.inputs[0].op
            if (reader.inputs[1] is not bn.inputs[0] or reader.inputs[2] is not bn.inputs[1]
                    or [id(t) for t in reader.inputs[3:]] != [id(t) for t in bn.outputs[3:]]
                    or any(reader.attrs.get(k) != bn.attrs.get(k) for k in _GRAD_ATTRS)
                    or getattr(relu_grad, "op_def", None) is not _RELU_GRAD
                    or relu_grad.inputs[1] is not result
                    or users.get(id(relu_grad.outputs[0]), ()) != [reader]):
                return None
            pairs.append((relu_grad, reader))
    return bn, relu, pairs


def _fused_forward(bn, relu, read):
    attrs = {k: bn.attrs[k] for k in _FORWARD_ATTRS if k in bn.attrs}
    attrs["activation_mode"] = "Relu"
    return derive(bn, _FUSED_BATCH_NORM_EX, [read(t) for t in bn.inputs], attrs,
                  specs=[(relu.outputs[0].shape, relu.outputs[0].dtype)]
                  + [(t.shape, t.dtype) for t in bn.outputs[1:5]]
                  + [_FUSED_BATCH_NORM_EX.shape(*bn.inputs, **attrs)[5]])


def _fused_grad(grad, relu_grad, bn, fused, read):
    attrs = {k: grad.attrs[k] for k in _GRAD_ATTRS if k in grad.attrs}
    attrs["activation_mode"] = "Relu"
    inputs = [read(relu_grad.inputs[0]), read(bn.inputs[0]), read(bn.inputs[1]),
              *fused.outputs[3:], read(bn.inputs[2]), fused.outputs[0]]
    return derive(grad, _FUSED_BATCH_NORM_GRAD_EX, inputs, attrs)
