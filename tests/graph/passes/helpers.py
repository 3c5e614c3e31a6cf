"""Programs of traced functions, and a plain interpreter to run them, for the pass tests."""
import numpy as np
import eagerflow as tf
from eagerflow import Variable
from tests.internals import eliminate_dead_code, Program


def traced(fn, *specs):
    """The pruned program of `fn` traced for `specs` (before any other pass)."""
    cf = tf.function(fn).get_concrete_function(*specs)
    return eliminate_dead_code(Program.from_graph(cf.graph, cf.inputs, cf.outputs))


def types(program):
    """The op types of `program`, without placeholders and the identities marking outputs."""
    outputs = {id(t) for t in program.outputs}
    return [op.type for op in program.operations if op.type != "Placeholder"
            and not (op.type == "Identity" and id(op.outputs[0]) in outputs)]


def evaluate(program, *feeds):
    """Runs `program` op by op with the host kernels (honouring `reuse`): output arrays."""
    env = {id(t): np.asarray(v) for t, v in zip(program.inputs, feeds)}

    def value(t):
        return t._handle if isinstance(t, Variable) else env[id(t)]

    for op in program.operations:
        if op.type == "Const":
            env[id(op.outputs[0])] = op.value
        elif op.op_def is not None:
            args = [value(t) for t in op.inputs]
            extra = {} if op not in program.reuse else {"out": value(program.reuse[op])}
            result = op.op_def.host_kernel(*args, **op.attrs, **extra)
            for t, v in zip(op.outputs, result if op.op_def.multi else (result,)):
                env[id(t)] = v
    return [np.asarray(value(t)) for t in program.outputs]


def assert_same_results(before, after, *feeds):
    """`before` and `after` give equal outputs (same dtypes, NaN where NaN) on `feeds`."""
    want = evaluate(before, *feeds)
    got = evaluate(after, *feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
