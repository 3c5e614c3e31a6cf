"""Conditions of graph ifs and loops, and what converted loops on eager tensors return."""
import numpy as np
import pytest

import eagerflow as tf


def _branch(x):
    if x > 0:
        y = x + 1
    else:
        y = x - 1
    return y


def _truthy(x):
    if x:
        x = x + 1
    return x


def _countdown(x):
    while x > 0:
        x = x - 1
    return x


@pytest.mark.parametrize("fn, statement", [(_branch, "if statement"),
                                           (_countdown, "while loop")])
def test_condition_with_several_elements_fails_when_traced(fn, statement):
    with pytest.raises(ValueError, match=f"condition of {statement} expected to be `tf.bool` "
                                         r"scalar, got Tensor\(.*shape=\(2,\), dtype=bool\)"):
        tf.function(fn).get_concrete_function(tf.TensorSpec([2], tf.int32))


def test_condition_of_another_dtype_fails_when_traced():
    with pytest.raises(ValueError, match="to use as boolean Tensor, use `tf.cast`"):
        tf.function(_truthy)(tf.constant(2))


def test_condition_with_one_element_or_unknown_shape_runs():
    assert tf.function(_branch)(tf.constant([3])).numpy().tolist() == [4]
    f = tf.function(_branch, input_signature=[tf.TensorSpec([None], tf.int32)])
    assert f(tf.constant([-3])).numpy().tolist() == [-4]
    with pytest.raises(tf.errors.InvalidArgumentError):
        f(tf.constant([1, 2]))


def _count_down_counting(x):
    y = 0
    while x > 0:
        x -= 1
        y += 1
    return y


def _sum_over(x):
    total = 0.5
    for v in x:
        total = total * 2
    return total


def test_to_graph_loops_on_eager_tensors_carry_tensors():
    y = tf.autograph.to_graph(_count_down_counting)(tf.constant(2))
    assert isinstance(y, tf.Tensor) and y.numpy() == 2
    total = tf.autograph.to_graph(_sum_over)(tf.constant([1, 2]))
    assert isinstance(total, tf.Tensor) and total.dtype == tf.float32 and total.numpy() == 2.0
    assert tf.autograph.to_graph(_count_down_counting)(2) == 2  # Python values stay Python


def test_to_graph_keeps_python_results_that_no_loop_touches():
    assert type(tf.autograph.to_graph(lambda x: 3)(tf.constant(1))) is int
    assert type(tf.autograph.to_graph(_branch)(1)) is int
    result = tf.autograph.to_graph(_branch)(tf.constant(1))
    np.testing.assert_equal(result.numpy(), 2)


def _accumulate(values):
    total = 0
    for v in values:
        total += v
    return total


def test_to_graph_loop_changing_a_dtype_fails_as_in_tf():
    with pytest.raises(TypeError, match="'total' has dtype int32 before the loop, but dtype "
                                        "float32 after one iteration"):
        tf.autograph.to_graph(_accumulate)(tf.constant([1.0, 2.0]))
    assert tf.autograph.to_graph(_accumulate)(tf.constant([1, 2])).numpy() == 3
