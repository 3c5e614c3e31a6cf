"""Dead-code elimination: drops operations that neither outputs nor side effects need.

Stateful operations (variable updates, prints, random draws, asserts) always
stay, in program order; so does everything they and the outputs read.

>>> from eagerflow._src.graph.passes.program import Program
>>> def program_of(fn, *shapes):
...     specs = [tf.TensorSpec(s, tf.float32) for s in shapes]
...     cf = tf.function(fn).get_concrete_function(*specs)
...     return Program.from_graph(cf.graph, cf.inputs, cf.outputs)
>>> def f(x):
...     unused = x + 1.0
...     return x * 2.0
>>> [op.type for op in program_of(f, [2]).operations]
['Placeholder', 'Const', 'AddV2', 'Const', 'Mul', 'Identity']
>>> [op.type for op in eliminate_dead_code(program_of(f, [2])).operations]
['Placeholder', 'Const', 'Mul', 'Identity']
"""
from eagerflow._src.graph.passes.program import Program


def eliminate_dead_code(program):
    """`program` without the operations whose results nothing uses."""
    producer = {id(t): op for op in program.operations for t in op.outputs}
    stack = [producer[id(t)] for t in program.outputs if id(t) in producer]
    stack += [op for op in program.operations if op.stateful]
    live = set()
    while stack:
        op = stack.pop()
        if id(op) in live:
            continue
        live.add(id(op))
        # Variables and tensors of other graphs have no producer here.
        stack.extend(producer[id(t)] for t in op.inputs if id(t) in producer)
    return Program([op for op in program.operations if id(op) in live], program.inputs,
                   program.outputs, program.reuse)
