"""break, continue and return inside tensor loops: the flags they set are loop variables."""
import numpy as np
import pytest

import eagerflow as tf


def _find_first_for(x, target):
    found = tf.constant(-1)
    for i in tf.range(tf.shape(x)[0]):
        if x[i] == target:
            found = i
            break
    return found


def _find_first_while(x, target):
    found = tf.constant(-1)
    i = tf.constant(0)
    while i < tf.shape(x)[0]:
        if x[i] == target:
            found = i
            break
        i += 1
    return found


def _find_first_nested_if(x, target):
    found = tf.constant(-1)
    for i in tf.range(tf.shape(x)[0]):
        if x[i] >= 0:
            if x[i] == target:
                found = i
                if found >= 0:
                    break
    return found


def _sum_skipping(x, target):
    total = tf.constant(0)
    for i in tf.range(tf.shape(x)[0]):
        if x[i] == target:
            continue
        total += x[i]
    return total


def _sum_until_while_continue(x, target):
    total = tf.constant(0)
    i = tf.constant(-1)
    while i < tf.shape(x)[0] - 1:
        i += 1
        if x[i] == target:
            continue
        if total > 12:
            break
        total += x[i]
    return total


def _return_in_loop(x, target):
    for i in tf.range(tf.shape(x)[0]):
        if x[i] == target:
            return i
    return tf.constant(-1)


def _return_in_while(x, target):
    i = tf.constant(0)
    while i < tf.shape(x)[0]:
        if x[i] == target:
            return i * 10
        i += 1
    return tf.constant(-1)


def _nested_loops(x, target):
    count = tf.constant(0)
    last = tf.constant(-1)
    for i in tf.range(3):
        for j in tf.range(tf.shape(x)[0]):
            if x[j] == target:
                last = j + i
                break
            count += 1
        if i == 1:
            break
    return count, last


def _python_loop_tensor_break(x, target):
    found = tf.constant(-1)
    for i in range(5):
        if x[i] == target:
            found = tf.constant(i)
            break
    return found


@pytest.mark.parametrize("fn", [
    _find_first_for, _find_first_while, _find_first_nested_if, _sum_skipping,
    _sum_until_while_continue, _nested_loops])
@pytest.mark.parametrize("target", [3, 1, 7])
def test_jumps_in_tensor_loops_match_python(fn, target):
    x, t = tf.constant([5, 3, 9, 3, 1]), tf.constant(target)
    expected = tf.nest.map_structure(lambda v: np.asarray(v), fn(x, t))
    got = tf.nest.map_structure(lambda v: v.numpy(), tf.function(fn)(x, t))
    np.testing.assert_equal(got, expected)


def test_tensor_break_in_a_python_for_loop_raises():
    # TF 2.21: a Python loop cannot stop on a tensor condition (it is not made a TF loop)
    with pytest.raises(NotImplementedError, match="break and return statements which depend "
                       "on a TF condition are not supported in Python for loops. Did you "
                       "intend to make it a TF loop?"):
        tf.function(_python_loop_tensor_break)(tf.constant([5, 3, 9, 3, 1]), tf.constant(3))
    # eagerly the condition is a Python bool: the loop runs
    assert int(_python_loop_tensor_break(tf.constant([5, 3, 9, 3, 1]), tf.constant(3))) == 1


@pytest.mark.parametrize("fn", [_return_in_loop, _return_in_while])
def test_return_inside_a_tensor_loop_raises(fn):
    # TF 2.21's AutoGraph limitation and message
    with pytest.raises(NotImplementedError, match="a return statement cannot be placed inside "
                       "this TensorFlow loop; this may happen if a return statement depends on "
                       "a static Python condition such as a hyperparameter"):
        tf.function(fn)(tf.constant([5, 3, 9, 3, 1]), tf.constant(3))


def test_return_unconditionally_inside_a_tensor_loop_works():
    @tf.function
    def first(x):
        for v in x:
            return v
        return tf.constant(0)

    assert first(tf.constant([4, 5])).numpy() == 4


def test_break_flag_is_a_loop_variable():
    code = tf.autograph.to_code(_find_first_for)
    assert "('break_', 'found')" in code


def _return_in_python_loop_in_tensor_loop(x):
    total = x
    for i in tf.range(3):
        total = total + i
        for j in [1, 2]:
            return total
    return total


def test_return_in_a_python_loop_inside_a_tensor_loop_raises_tfs_error():
    # TF 2.21 raises its Python-loop limitation here, not a loop-variable error
    with pytest.raises(NotImplementedError, match="break and return statements which depend "
                       "on a TF condition are not supported in Python for loops"):
        tf.function(_return_in_python_loop_in_tensor_loop)(tf.constant(0))
