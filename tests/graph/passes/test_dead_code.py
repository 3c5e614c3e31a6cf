"""Dead-code elimination: unused pure ops go, stateful ops stay in program order."""
import numpy as np

import eagerflow as tf
from tests.internals import eliminate_dead_code, fold_constants, Program
from tests.graph.passes.helpers import evaluate, types

_VECTOR = tf.TensorSpec([3], tf.float32)


def _unpruned(fn, *specs):
    cf = tf.function(fn).get_concrete_function(*specs)
    return Program.from_graph(cf.graph, cf.inputs, cf.outputs)


def test_unused_pure_operations_are_dropped():
    def f(x):
        unused = tf.exp(x) + 1.0
        del unused
        return x * 2.0

    program = _unpruned(f, _VECTOR)
    assert "Exp" in types(program)
    assert types(eliminate_dead_code(program)) == ["Const", "Mul"]


def test_stateful_operations_stay_in_program_order():
    v = tf.Variable(0.0)

    def f(x):
        v.assign(1.0)
        tf.print(x)
        v.assign_add(tf.reduce_sum(x))
        return tf.constant(0.0)

    kept = types(eliminate_dead_code(_unpruned(f, _VECTOR)))
    stateful = [t for t in kept if t in ("AssignVariableOp", "PrintV2", "AssignAddVariableOp")]
    assert stateful == ["AssignVariableOp", "PrintV2", "AssignAddVariableOp"]
    assert "Sum" in kept  # read by a stateful op


def test_ops_orphaned_by_folding_are_swept():
    def f(x):
        return x * tf.cast(tf.size(x), tf.float32)

    folded = fold_constants(eliminate_dead_code(_unpruned(f, _VECTOR)))
    swept = eliminate_dead_code(folded)
    assert len(swept.operations) < len(folded.operations)
    assert types(swept) == ["Const", "Mul"]
    x = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_array_equal(evaluate(swept, x)[0], x * 3)
