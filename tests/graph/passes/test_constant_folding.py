"""Constant folding: Const-only pure ops and static-shape ops become Consts."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from tests.internals import constant_folding, eliminate_dead_code, fold_constants
from tests.graph.passes.helpers import assert_same_results, traced, types

_MATRIX = tf.TensorSpec([2, 3], tf.float32)


def _folded(fn, *specs):
    before = traced(fn, *specs)
    return before, eliminate_dead_code(fold_constants(before))


def test_constant_subexpressions_fold_into_one_const():
    before, after = _folded(lambda x: x * (tf.constant(2.0) * 3.0 + 1.0), _MATRIX)
    assert types(before).count("Const") == 3 and types(after) == ["Const", "Mul"]
    const = after.operations[1]
    assert const.value == np.float32(7.0) and const.outputs[0].dtype == tf.float32
    assert const.location == before.operations[-2].location  # the folded op's user line


def test_shape_size_and_rank_of_static_shapes_fold():
    def f(x):
        return tf.cast(tf.shape(x), tf.float32), tf.size(x), tf.rank(x), tf.zeros_like(x)

    before, after = _folded(f, _MATRIX)
    assert types(after) == ["Const"] * 4
    assert_same_results(before, after, np.ones([2, 3], np.float32))


def test_dynamic_shapes_do_not_fold():
    before, after = _folded(lambda x: tf.shape(x), tf.TensorSpec([None, 3], tf.float32))
    assert types(after) == ["Shape"]


def test_stateful_ops_never_fold():
    before, after = _folded(lambda: tf.random.uniform([2]) + tf.constant(1.0))
    assert "RandomUniform" in types(after) and "AddV2" in types(after)


def test_large_results_stay_ops(monkeypatch):
    monkeypatch.setattr(constant_folding, "MAX_FOLDED_ELEMENTS", 5)
    before, after = _folded(lambda: tf.ones([2, 3]) * 2.0)
    assert "Mul" in types(after)


def test_failing_kernels_are_left_to_run_time():
    def f():
        return tf.constant(1) // tf.constant(0)

    before, after = _folded(f)
    assert types(after) == types(before)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float32, (2, 3), elements=st.floats(-10, 10, width=32)),
       hnp.arrays(np.float32, (3,), elements=st.floats(-10, 10, width=32)))
def test_folding_keeps_results(x, c):
    def f(v):
        k = tf.constant(c)
        return v * tf.exp(k) - tf.reduce_sum(k * k), tf.reshape(k, [3, 1]) + 0.0

    before, after = _folded(f, _MATRIX)
    assert "Exp" not in types(after)
    assert_same_results(before, after, x)


@pytest.mark.parametrize("dtype", [tf.int32, tf.float64])
def test_folded_consts_keep_the_static_dtype(dtype):
    before, after = _folded(lambda: tf.ones([2], dtype) + tf.ones([2], dtype))
    [const] = after.operations
    assert const.value.dtype == dtype.as_numpy_dtype


_TENS = np.array([10.0, 7.0, 1.0, 200.0], np.float32)
_BY_RECIPROCAL = [1.6666667461395264, 1.1666667461395264, 0.1666666716337204, 33.333335876464844]
_BY_DIVISION = [1.6666666269302368, 1.1666666269302368, 0.1666666716337204, 33.33333206176758]


def test_division_by_a_constant_is_a_product_in_functions_as_in_tf():
    # values recorded from TensorFlow 2.21: one ulp from eager division
    before, after = _folded(lambda x: x / 6.0, tf.TensorSpec([4], tf.float32))
    assert "RealDiv" in types(before) and types(after) == ["Const", "Mul"]
    assert tf.function(lambda x: x / 6.0)(_TENS).numpy().tolist() == _BY_RECIPROCAL
    assert tf.function(lambda x: tf.math.xdivy(x, 6.0))(_TENS).numpy().tolist() == \
        _BY_RECIPROCAL
    assert (_TENS / tf.constant(6.0)).numpy().tolist() == _BY_DIVISION
    c = tf.constant(6.0)  # captured: an argument of the function, no constant
    assert tf.function(lambda x: x / c)(_TENS).numpy().tolist() == _BY_DIVISION
    assert tf.function(lambda x: tf.math.divide_no_nan(x, 6.0))(_TENS).numpy().tolist() == \
        _BY_DIVISION
    assert tf.function(lambda x: tf.math.xdivy(x, 0.0))(tf.constant([0.0])).numpy() == [0.0]
    mapped = tf.data.Dataset.from_tensors(_TENS).map(lambda x: x / 6.0)
    assert next(iter(mapped)).numpy().tolist() == _BY_DIVISION  # tf.data keeps divisions


def test_constants_are_pushed_down_into_sums_and_products_to_fold_as_tfs():
    # (values from TF 2.21: grappler's constant folding runs (1 - x) + 1e-7 as (1 + 1e-7) - x,
    # 1 + 1e-7 rounded to float32 once: 2 ulps of 1 above x = 1 - 1e-7, not 1e-7 + 1 ulp)
    x = tf.Variable([0.99999988, 1e-7, 0.3], dtype=tf.float32)
    expected = {
        lambda: (1 - x) + 1e-7: [2.384185791015625e-07, 1.0, 0.7000001072883606],
        lambda: (x - 1.0) + 1e-7: [0.0, -0.9999997615814209, -0.6999998688697815],
        lambda: (1.0 + x) + 1e-7: [2.0, 1.000000238418579, 1.3000001907348633],
        lambda: (x + 1e-7) - 1.0: [0.0, -0.9999997615814209, -0.6999998688697815],
        lambda: 1.0 - (x - 1e-7): [2.384185791015625e-07, 1.0, 0.7000001072883606],
        lambda: (x * 3.0) * 0.1: [0.29999998211860657, 3.000000248221113e-08,
                                  0.09000000357627869],
        lambda: tf.math.divide(x, 3.0) * 0.1: [0.03333333134651184, 3.33333360913457e-09,
                                               0.010000000707805157],
        lambda: 0.3 - (0.2 - (x + 0.1)): [1.1999999284744263, 0.2000001221895218, 0.5],
    }
    for fn, values in expected.items():
        assert tf.function(fn)().numpy().tolist() == values
    # a difference of computed values takes the constant in too, as in TF: x + (0.1 - y)
    y = tf.Variable([3.0, 1e8, -2.5], dtype=tf.float32)
    assert tf.function(lambda: (x - y) + 0.1)().numpy().tolist() == [
        -1.9000002145767212, -100000000.0, 2.8999998569488525]
    assert tf.function(lambda: (y - x) - 0.1)().numpy().tolist() == [
        1.9000000953674316, 100000000.0, -2.9000000953674316]
    # but not a sum of them (TF's arithmetic optimizer orders those), nor where the constant
    # would broadcast x to more elements
    assert tf.function(lambda: (x + y) + 0.1)().numpy().tolist() == ((x + y) + 0.1).numpy(
        ).tolist()
    before, after = _folded(lambda a: (a[0] - a[1]) + tf.ones([2, 3]), _MATRIX)
    pushed = eliminate_dead_code(constant_folding.fold_and_push_down_constants(before))
    assert types(pushed)[-3:] == ["Sub", "Const", "AddV2"]
    # left alone: a child read elsewhere too, float16 (as TF), and two computed leaves

    @tf.function
    def shared():
        y = 1 - x
        return tf.stack([y + 1e-7, y])

    assert shared().numpy()[0].tolist() == [2.1920928361396363e-07, 1.0, 0.7000001072883606]
    half = tf.cast(x, tf.float16)
    assert tf.function(lambda: (1 - half) + tf.constant(1e-3, tf.float16))().numpy().tolist() \
        == ((1 - half) + tf.constant(1e-3, tf.float16)).numpy().tolist()
    before, after = _folded(lambda a: (a * a) * 0.5, _MATRIX)
    assert types(after) == ["Mul", "Const", "Mul"]
    before, after = _folded(lambda a: (1.0 - a) + 2.0, _MATRIX)
    pushed = eliminate_dead_code(constant_folding.fold_and_push_down_constants(before))
    assert types(pushed) == ["Const", "Sub"] and pushed.operations[1].value == np.float32(3.0)
    assert_same_results(before, pushed, np.arange(6, dtype=np.float32).reshape(2, 3))
