"""tf.data paths real programs take, each checked against what TF 2 gives."""
import os

import pytest

import eagerflow as tf


def _values(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def _cores():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _three_each(x):
    return tf.data.Dataset.range(x * 10, x * 10 + 3)


def test_parallel_interleave_cycles_over_no_more_inputs_than_threads():
    # without a cycle_length, one thread opens one input at a time
    ds = tf.data.Dataset.range(4).interleave(_three_each, num_parallel_calls=1)
    assert _values(ds) == [0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32]


def test_autotuned_parallel_interleave_cycles_over_a_third_of_the_cores():
    ds = tf.data.Dataset.range(4).interleave(_three_each, num_parallel_calls=tf.data.AUTOTUNE)
    cycle = -(-_cores() // 3)
    expected = [int(v) for v in tf.data.Dataset.range(4).interleave(_three_each,
                                                                   cycle_length=cycle)]
    assert _values(ds) == expected


def test_interleave_with_more_threads_than_its_cycle_is_refused():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="`num_parallel_calls` is 3 and `cycle_length` is 2"):
        tf.data.Dataset.range(4).interleave(_three_each, cycle_length=2, num_parallel_calls=3)
    # a cycle picked from the cores is checked as the iteration starts
    ds = tf.data.Dataset.range(4).interleave(_three_each, num_parallel_calls=_cores() + 1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=f"`num_parallel_calls` is {_cores() + 1} and `cycle_length` is"):
        iter(ds)
