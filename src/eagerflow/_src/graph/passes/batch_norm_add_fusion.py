"""Batch normalization + residual sum + ReLU fusion: ``relu(FusedBatchNormV3(x)[0] + side)``
becomes one ``_FusedBatchNormEx`` with `side` as its side input, as TensorFlow's remapper
fuses them on GPUs. On oneDNN the sum and the ReLU then take one pass over the result
instead of two.

A normalization in training fuses when its result is read by one ``AddV2`` alone,
whose other operand (the side input) has the same fully known shape, and whose sum is
read by one ``Relu`` alone. The gradient ops stay as they were: the ReLU's gradient
reads the fused op's result, the normalization's its reserve spaces (reserve_space_3
is empty). The fused op runs where both the normalization's inputs and the side input
are ready. Variable updates in between that read the normalization's other outputs (a
Keras layer's moving statistics) run after it, where no op in between reads or writes
their variable; where another op in between reads those outputs, nothing fuses.

>>> from eagerflow._src.graph.passes.pipeline import optimize
>>> from eagerflow._src.ops.fused_batch_norm_ops import fused_batch_norm
>>> def block(x, skip, scale, offset):
...     return tf.nn.relu(fused_batch_norm(x, scale, offset)[0] + skip)
>>> spec = tf.TensorSpec([2, 2, 2, 3])
>>> cf = tf.function(block).get_concrete_function(spec, spec, tf.TensorSpec([3]),
...                                               tf.TensorSpec([3]))
>>> program = optimize(cf.graph, cf.inputs, cf.outputs)
>>> sorted({op.type for op in program.operations} & {"AddV2", "Relu", "_FusedBatchNormEx"})
['_FusedBatchNormEx']
"""
from eagerflow._src.graph.passes.program import Rewriter, derive
from eagerflow._src.ops.fused_batch_norm_ops import _FUSED_BATCH_NORM, _FUSED_BATCH_NORM_EX
from eagerflow._src.ops.math_ops import _ADD
from eagerflow._src.ops.nn_ops import _RELU

_ATTRS = ("epsilon", "exponential_avg_factor", "data_format", "is_training")
_UPDATES = {"AssignVariableOp", "AssignSubVariableOp", "AssignAddVariableOp"}


def fuse_batch_norm_add_relu(program):
    """`program` with each batch normalization + side input sum + ReLU as one fused op."""
    users = program.users()
    position = {id(op): i for i, op in enumerate(program.operations)}
    plans = [plan for plan in (_plan(op, users, position, program.operations)
                               for op in program.operations) if plan]
    if not plans:
        return program
    after, absorbed = {}, set()
    for bn, add, relu, side, at, deferred in plans:
        after.setdefault(id(at), []).append((bn, relu, side, deferred))
        absorbed.update((id(bn), id(add), id(relu)), (id(op) for op in deferred))
    out = Rewriter(program)
    for op in program.operations:
        if id(op) not in absorbed:
            out.emit(out.current(op))
        for bn, relu, side, deferred in after.get(id(op), ()):
            fused = _fused(bn, relu, side, out.read)
            out.emit(fused)
            out.replace(relu.outputs[0], fused.outputs[0])
            for old, new in zip(bn.outputs[1:], fused.outputs[1:]):
                out.replace(old, new)
            for update in deferred:
                out.emit(out.current(update))
    return out.program()


def _plan(add, users, position, operations):
    """(bn, add, relu, side input, the op after which the fused op runs, the variable
    updates to run after it), or None."""
    if add.op_def is not _ADD:
        return None
    readers = users.get(id(add.outputs[0]), ())
    if len(readers) != 1 or readers[0] is None or readers[0].op_def is not _RELU:
        return None
    relu = readers[0]
    for result, side in ((add.inputs[0], add.inputs[1]), (add.inputs[1], add.inputs[0])):
        bn = result.op
        if (getattr(bn, "op_def", None) is not _FUSED_BATCH_NORM or result is not bn.outputs[0]
                or not bn.attrs.get("is_training", True)
                or users.get(id(result), ()) != [add]
                or not side.shape.is_fully_defined()
                or side.shape.as_list() != result.shape.as_list()):
            continue
        # after the normalization, or after the side input's op where that comes later
        at = bn
        if position.get(id(side.op), -1) > position[id(bn)]:
            at = side.op
        deferred = _deferred(bn, at, users, position, operations)
        if deferred is not None:
            return bn, add, relu, side, at, deferred
    return None


def _deferred(bn, at, users, position, operations):
    """The readers of `bn`'s statistics that run before `at`, in order, where each is an
    update of a variable that no op up to `at` reads or writes; None where one is not."""
    end = position[id(at)]
    early = sorted({id(reader): reader for t in bn.outputs[1:]
                    for reader in users.get(id(t), ())
                    if reader is not None and position[id(reader)] <= end}.values(),
                   key=lambda op: position[id(op)])
    for update in early:
        if update.type not in _UPDATES or any(users.get(id(t)) for t in update.outputs):
            return None
        variable = update.inputs[0]
        if any(any(t is variable for t in op.inputs)
               for op in operations[position[id(update)] + 1:end + 1]):
            return None
    return early


def _fused(bn, relu, side, read):
    attrs = {k: bn.attrs[k] for k in _ATTRS if k in bn.attrs}
    attrs.update(activation_mode="Relu", num_side_inputs=1)
    inputs = [read(t) for t in bn.inputs] + [read(side)]
    return derive(bn, _FUSED_BATCH_NORM_EX, inputs, attrs,
                  specs=[(relu.outputs[0].shape, relu.outputs[0].dtype)]
                  + [(t.shape, t.dtype) for t in bn.outputs[1:5]]
                  + [_FUSED_BATCH_NORM_EX.shape(*bn.inputs, **attrs)[5]])
