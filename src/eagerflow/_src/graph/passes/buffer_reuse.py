"""Buffer reuse: elementwise results written into intermediates that are already dead.

An operation whose kernel is a NumPy ufunc (``AddV2``, ``Mul``, ``Neg``,
``Exp``, ...), or declares that it `takes_out` as they do (``ReluGrad``: writing
over an array just read costs no fresh memory to fill, about half its time),
can write its result with ``out=`` into the array of a tensor
read for the last time at or before it, with the same fully known shape and
dtype, instead of allocating a new one. Only arrays nothing else can see
qualify: made by an op declared ``fresh`` (a new array: never an input,
constant, capture or variable value), not returned, and read only by ops
declared to keep no view of them (a reshape or a variable assignment would).

>>> from eagerflow._src.graph.passes.program import Program
>>> def program_of(fn, *shapes):
...     specs = [tf.TensorSpec(s, tf.float32) for s in shapes]
...     cf = tf.function(fn).get_concrete_function(*specs)
...     return Program.from_graph(cf.graph, cf.inputs, cf.outputs)
>>> program = program_of(lambda x, w: (x @ w) * 2.0 + 1.0, [32, 32], [32, 32])
>>> plan_buffer_reuse(program).reuse  # the product's array is written twice more
{<tf.Operation 'mul' type=Mul>: <tf.Tensor 'matmul:0' shape=(32, 32) dtype=float32>,
 <tf.Operation 'add' type=AddV2>: <tf.Tensor 'mul:0' shape=(32, 32) dtype=float32>}
"""
import numpy as np

from eagerflow._src.graph.passes.program import Program


def plan_buffer_reuse(program):
    """`program` with `reuse` naming, per ufunc op, the dead tensor it overwrites."""
    outputs = {id(t) for t in program.outputs}
    produced = {id(t) for op in program.operations for t in op.outputs}
    users = program.users()
    last_use = {}
    for i, op in enumerate(program.operations):
        for t in op.inputs:
            last_use[id(t)] = i

    def reusable(t):
        return (id(t) in produced and id(t) not in outputs and _allocates(t.op) and _fixed(t)
                and all(_keeps_no_view(user) for user in users[id(t)]))

    free = {}  # (shape, dtype) -> tensors whose arrays are dead
    reuse = {}
    for i, op in enumerate(program.operations):
        for t in {id(t): t for t in op.inputs}.values():
            if last_use[id(t)] == i and reusable(t):
                free.setdefault(_slot(t), []).append(t)
        if (_ufunc(op) or _takes_out(op)) and _fixed(op.outputs[0]):
            dead = free.get(_slot(op.outputs[0]))
            if dead:
                reuse[op] = dead.pop()
    return Program(program.operations, program.inputs, program.outputs, reuse)


def _ufunc(op):
    kernel = op.op_def.host_kernel if op.op_def is not None else None
    return isinstance(kernel, np.ufunc) and kernel.nout == 1 and not op.op_def.multi


def _takes_out(op):
    return op.op_def is not None and op.op_def.takes_out


def _allocates(op):
    return op.op_def is not None and op.op_def.fresh


def _keeps_no_view(op):
    return op is not None and op.op_def is not None and op.op_def.keeps_no_view


def _fixed(t):
    """A fully known shape with at least one dimension: NumPy gives arrays, not scalars."""
    return t.shape.is_fully_defined() and t.shape.rank > 0


def _slot(t):
    return tuple(t.shape.as_list()), t.dtype
