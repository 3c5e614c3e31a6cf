"""Inlining: a graph's calls of library functions replaced by copies of the functions' ops.

A traced function calling another keeps the call as one op naming the callee's
body (``PartitionedCall``), as TensorFlow does; what runs it, and what a tape
recording the graph's ops sees, is the body's ops copied in its place (as
TensorFlow's function optimizer inlines calls), so the passes work across the
call and the gradient differentiates the ops that ran.

An op is expanded when its `inline_rules` rule (filled where the op is
registered) returns the body it calls: an object with ``graph``, ``inputs``
(placeholders, one per input of the op) and ``outputs``. Variables the body's
ops use directly stand for the op's input at the place of their handle's
argument (``graph.handle_arguments``: id of the handle -> its placeholder).
Each output of the call becomes an ``Identity`` of the body's result whose
output is the call's own tensor, so the ops reading it stay as they are.

>>> @tf.function
... def inner(x):
...     return x * 2.0
>>> @tf.function
... def outer(x):
...     return inner(x) + 1.0
>>> graph = outer.get_concrete_function(tf.TensorSpec([])).graph
>>> [op.type for op in inlined_operations(graph)]
['Placeholder', 'Const', 'Mul', 'Identity', 'Identity', 'Const', 'AddV2', 'Identity']
"""
import threading

from eagerflow._src.core import registry
from eagerflow._src.core.registry import RuleTable
from eagerflow._src.graph.graph import Operation, SymbolicTensor, keep_gradient_override

# `OpDef` -> ``rule(op)``: the body a call op runs (see the module docstring), or None to
# leave the op as it is.
inline_rules = RuleTable("inline", lambda op: True)
# `.graphs`: ids of the graphs this thread is inlining (a function calling itself stays a
# call); per thread, as another thread inlining the same function is no recursion.
_expanding = threading.local()


def inlined_operations(graph):
    """`graph`'s operations in creation order, every call expanded (recursively); the same
    copies each time while the graph is unchanged (tapes and programs share them)."""
    ops = graph._operations
    cached = graph.__dict__.get("_inlined")
    if cached is not None and cached[0] == len(ops):
        return cached[1]
    found = list(ops)
    if any(op.op_def is not None and op.op_def in inline_rules for op in ops):
        expanding = _expanding.__dict__.setdefault("graphs", set())
        expanding.add(id(graph))
        try:
            found = [new for op in ops for new in _expanded(op)]
        finally:
            expanding.discard(id(graph))
    graph._inlined = (len(ops), found)
    return found


def _expanded(op):
    """`op`, or the copies of the body it calls followed by the Identities of its outputs."""
    rule = inline_rules.get(op.op_def) if op.op_def is not None else None
    body = rule(op) if rule is not None else None
    if body is None or id(body.graph) in _expanding.__dict__.get("graphs", ()):
        return [op]
    inputs = list(body.inputs)
    if len(inputs) != len(op.inputs):
        return [op]
    env = {id(t): outer for t, outer in zip(inputs, op.inputs)}
    for constant, fed in getattr(body.graph, "fed_constants", ()):
        # an eager tensor the body holds as a constant: the call's input for it (a constant
        # too, the caller's capture), through which a tape reaches the tensor
        if id(fed) in env:
            env[id(constant)] = env[id(fed)]
    position = {id(t): i for i, t in enumerate(inputs)}
    handles = {key: op.inputs[position[id(t)]]
               for key, t in getattr(body.graph, "handle_arguments", {}).items()
               if id(t) in position}
    from eagerflow._src.graph.passes.dead_code import eliminate_dead_code  # noqa: PLC0415
    from eagerflow._src.graph.passes.program import Program  # noqa: PLC0415
    needed = eliminate_dead_code(Program(inlined_operations(body.graph), inputs,
                                         body.outputs)).operations
    prefix = f"{op.name}/"
    copies = []
    for inner in needed:
        if inner.outputs and all(id(t) in env for t in inner.outputs):
            continue  # an argument
        if inner.type == "Placeholder":
            return [op]  # it needs a value no input of the call gives
        args = []
        for t in inner.inputs:
            if isinstance(t, SymbolicTensor):
                if id(t) not in env:
                    return [op]  # (a tensor of another graph)
                args.append(env[id(t)])
            else:  # a variable: the call's input when its handle is an argument
                args.append(handles.get(id(getattr(t, "_handle", None)), t))
        copy = Operation(op.graph, inner.op_def, inner.type, prefix + inner.name, tuple(args),
                         inner.attrs, inner.location, inner.value)
        copy.outputs = tuple(SymbolicTensor(copy, i, t.shape, t.dtype)
                             for i, t in enumerate(inner.outputs))
        keep_gradient_override(inner, copy)
        for t, new in zip(inner.outputs, copy.outputs):
            env[id(t)] = new
        copies.append(copy)
    identity = registry.get("Identity")
    for i, (t, result) in enumerate(zip(op.outputs, body.outputs)):
        value = env.get(id(result), result)
        out = Operation(op.graph, identity, "Identity", f"{op.name}/output_{i}", (value,),
                        {}, op.location)
        out.outputs = (t,)  # the call's own tensor: its readers stay as they are
        copies.append(out)
    return copies
