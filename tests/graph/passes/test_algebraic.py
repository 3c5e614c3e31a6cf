"""Algebraic simplification: neutral constants, double negation/transpose, chains."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from tests.internals import _lossless, eliminate_dead_code, simplify
from tests.graph.passes.helpers import assert_same_results, traced, types

_MATRIX = tf.TensorSpec([2, 3], tf.float32)
_ROWS = tf.TensorSpec([None, 3], tf.float32)


def _simplified(fn, *specs):
    before = traced(fn, *specs)
    return before, eliminate_dead_code(simplify(before))


@pytest.mark.parametrize("fn", [lambda x: x * 1.0, lambda x: 1.0 * x, lambda x: x + 0.0,
                                lambda x: 0.0 + x, lambda x: x - 0.0, lambda x: x / 1.0,
                                lambda x: x * tf.constant(np.ones([1, 3], np.float32)),
                                lambda x: tf.identity(x),
                                lambda x: -(-x), lambda x: tf.stop_gradient(x)],
                         ids=["x*1", "1*x", "x+0", "0+x", "x-0", "x/1", "x*ones", "identity",
                              "neg-neg", "stop_gradient"])
@pytest.mark.parametrize("spec", [_MATRIX, _ROWS], ids=["static", "dynamic"])
def test_no_op_arithmetic_is_removed(fn, spec):
    before, after = _simplified(fn, spec)
    assert types(after) == []
    assert after.outputs[0] is after.inputs[0]


@pytest.mark.parametrize("fn", [lambda x: x * tf.ones([4, 2, 3]), lambda x: x + tf.zeros([2, 1, 1]),
                                lambda x: x * 2.0, lambda x: 0.0 - x, lambda x: 1.0 / x],
                         ids=["broadcast-mul", "broadcast-add", "x*2", "0-x", "1/x"])
def test_ops_that_change_the_value_or_shape_stay(fn):
    before, after = _simplified(fn, _MATRIX)
    assert types(after) == types(before)


def test_dynamic_shapes_keep_a_broadcasting_neutral_constant():
    before, after = _simplified(lambda x: x * tf.ones([2, 3]), _ROWS)
    assert "Mul" in types(after)


def test_transposes_compose():
    before, after = _simplified(
        lambda x: tf.transpose(tf.transpose(x, [1, 2, 0]), [2, 0, 1]) * 2.0,
        tf.TensorSpec([2, 3, 4], tf.float32))
    assert "Transpose" not in types(after)
    before, after = _simplified(
        lambda x: tf.transpose(tf.transpose(x, [1, 0, 2]), [0, 2, 1]),
        tf.TensorSpec([2, 3, 4], tf.float32))
    assert types(after) == ["Transpose"]
    [transpose] = [op for op in after.operations if op.type == "Transpose"]
    assert transpose.attrs["perm"] == [1, 2, 0]
    assert_same_results(before, after, np.arange(24, dtype=np.float32).reshape(2, 3, 4))


def test_reshape_chains_collapse():
    before, after = _simplified(lambda x: tf.reshape(tf.reshape(x, [3, 2]), [6]), _MATRIX)
    assert types(after) == ["Reshape"]
    before, after = _simplified(lambda x: tf.reshape(tf.reshape(x, [6]), [2, 3]), _MATRIX)
    assert types(after) == []
    assert_same_results(before, after, np.arange(6, dtype=np.float32).reshape(2, 3))


def test_reshapes_of_dynamic_shapes_stay():
    before, after = _simplified(lambda x: tf.reshape(tf.reshape(x, [-1]), [-1, 3]), _ROWS)
    assert types(after) == ["Reshape", "Reshape"]


def test_a_reshape_to_a_shape_of_unknown_rank_stays():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(shape):
        return tf.reshape(tf.ones([2, 3]), shape)

    assert f(tf.constant([3, 2])).shape == (3, 2)
    assert f(tf.constant([6])).numpy().tolist() == [1.0] * 6


def test_a_collapsed_reshape_keeps_its_computed_shape_input():
    # the gradient of tf.reshape(y, [1, 1, 3]) reshapes back to tf.shape(y), unknown here
    @tf.function(input_signature=[tf.TensorSpec([2, 3, 3]), tf.TensorSpec([None, 1])])
    def f(x, y):
        with tf.GradientTape() as tape:
            tape.watch(y)
            out = tf.reduce_sum(x * tf.reshape(y, [1, 1, 3]))
        return tape.gradient(out, y), tf.reshape(tf.reshape(x, [18]), tf.shape(x))

    x = np.arange(18, dtype=np.float32).reshape(2, 3, 3)
    grad, same = f(tf.constant(x), tf.ones([3, 1]))
    assert grad.numpy().tolist() == x.sum(axis=(0, 1)).reshape(3, 1).tolist()
    assert same.numpy().tolist() == x.tolist()


def test_cast_chains_through_lossless_types_collapse():
    before, after = _simplified(lambda x: tf.cast(tf.cast(x, tf.float64), tf.int32), _MATRIX)
    assert types(after) == ["Cast"]
    x = np.array([[1.5, -2.7, 3.0], [1e6, -0.5, 7.9]], np.float32)
    assert_same_results(before, after, x)
    before, after = _simplified(lambda x: tf.cast(tf.cast(x, tf.float64), tf.float32), _MATRIX)
    assert types(after) == []


def test_lossy_cast_chains_stay():
    before, after = _simplified(lambda x: tf.cast(tf.cast(x, tf.int32), tf.float32), _MATRIX)
    assert types(after) == ["Cast", "Cast"]
    before, after = _simplified(lambda x: tf.cast(tf.cast(x, tf.float16), tf.float32), _MATRIX)
    assert types(after) == ["Cast", "Cast"]


@pytest.mark.parametrize("src, dst, exact", [
    (tf.bool, tf.bfloat16, True), (tf.int8, tf.float16, True), (tf.int16, tf.float16, False),
    (tf.int32, tf.float64, True), (tf.int64, tf.float64, False), (tf.uint8, tf.int8, False),
    (tf.uint16, tf.int32, True), (tf.float16, tf.bfloat16, False), (tf.bfloat16, tf.float32, True),
    (tf.float32, tf.complex64, True), (tf.complex64, tf.float32, False),
    (tf.complex64, tf.complex128, True), (tf.float64, tf.complex64, False)])
def test_lossless_casts(src, dst, exact):
    assert _lossless(src, dst) is exact


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float32, (2, 3), elements=st.floats(-1e3, 1e3, width=32)))
def test_simplification_keeps_results(x):
    def f(v):
        t = tf.transpose(tf.transpose(v))
        r = tf.reshape(tf.reshape(-(-t), [3, 2]), [6])
        return tf.identity(r * 1.0 + 0.0) / 1.0, tf.cast(tf.cast(v, tf.float64), tf.float32) - 0.0

    before, after = _simplified(f, _MATRIX)
    assert types(after) == ["Reshape"]
    assert_same_results(before, after, x)
