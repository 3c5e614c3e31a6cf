"""Common-subexpression elimination: identical pure ops and equal Consts merge."""
import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from tests.internals import eliminate_common_subexpressions, eliminate_dead_code
from tests.graph.passes.helpers import assert_same_results, traced, types

_MATRIX = tf.TensorSpec([2, 3], tf.float32)


def _merged(fn, *specs):
    before = traced(fn, *specs)
    return before, eliminate_dead_code(eliminate_common_subexpressions(before))


def test_identical_ops_and_consts_merge_transitively():
    def f(x):
        return tf.exp(x * 2.0) + tf.exp(x * 2.0)

    before, after = _merged(f, _MATRIX)
    assert types(before).count("Exp") == 2 and types(before).count("Const") == 2
    assert types(after) == ["Const", "Mul", "Exp", "AddV2"]


def test_different_attrs_dtypes_or_values_stay_apart():
    def f(x):
        return (tf.reduce_sum(x, 0), tf.reduce_sum(x, 1), tf.constant(1.0),
                tf.constant(1.0, tf.float64), tf.constant(2.0), tf.constant(-0.0),
                tf.constant(0.0))

    before, after = _merged(f, _MATRIX)
    assert types(after) == types(before)


def test_stateful_ops_and_variable_reads_never_merge():
    v = tf.Variable([1.0, 2.0, 3.0])

    def f():
        a = v.read_value()
        v.assign_add([1.0, 1.0, 1.0])
        return a + v.read_value(), tf.random.uniform([2]) - tf.random.uniform([2])

    before, after = _merged(f)
    assert types(after).count("ReadVariableOp") == 2
    assert types(after).count("RandomUniform") == 2


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float32, (2, 3), elements=st.floats(-5, 5, width=32)))
def test_merging_keeps_results(x):
    def f(v):
        a = tf.tanh(v) * tf.reduce_max(v, axis=1, keepdims=True)
        b = tf.tanh(v) * tf.reduce_max(v, axis=1, keepdims=True)
        return a - b, a * 3.0 + b

    before, after = _merged(f, _MATRIX)
    assert types(after).count("Tanh") == 1
    assert_same_results(before, after, x)
