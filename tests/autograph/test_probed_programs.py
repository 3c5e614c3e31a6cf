"""AutoGraph programs found by comparing with TF 2.21 (results checked there)."""
import numpy as np

import eagerflow as tf


def test_for_over_a_range_that_is_empty_because_start_is_past_limit():
    # tf.range(2, 0, 2) alone fails, but a loop over it runs no times, as in TF
    @tf.function
    def f(n, d):
        s = tf.constant(0.0)
        for k in tf.range(2, n, 2):
            s += 1.0
        for m in tf.range(0, n, d):
            s += 100.0
            if s > 2000.0:
                break
        for j in tf.range(0.0, tf.cast(n, tf.float32), 0.75):
            s += j
        return s, k, m

    assert [v.numpy().tolist() for v in f(tf.constant(0), tf.constant(1))] == [0.0, 2, 0]
    assert [v.numpy().tolist() for v in f(tf.constant(5), tf.constant(2))] == [317.75, 4, 4]
    assert [v.numpy().tolist() for v in f(tf.constant(6), tf.constant(-1))] == [23.0, 4, 0]


def test_a_loop_variable_set_to_none_is_tfs_value_error():
    import pytest

    @tf.function
    def f(n):
        x = tf.constant(1)
        for i in tf.range(n):
            x = None
        return x

    with pytest.raises(ValueError, match="'x' is None at the end of the iteration."):
        f(tf.constant(2))


def _times_ten(fn):
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 10
    return wrapper


@tf.function
@_times_ten
def _add_one(x):
    if x > 0:
        return x + 1
    return x


def test_a_functools_wraps_wrapper_is_converted_itself_not_the_function_it_wraps():
    assert int(_add_one(tf.constant(1))) == 20 and int(_add_one(tf.constant(-1))) == -10
