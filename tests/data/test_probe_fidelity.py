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


def test_rebatch_of_ragged_components():
    rows = tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]], row_splits_dtype=tf.int32)
    ds = tf.data.Dataset.from_tensor_slices({"r": rows, "d": [1, 2, 3, 4]}).batch(3)
    got = [(e["r"].to_list(), e["d"].numpy().tolist()) for e in ds.rebatch(2)]
    assert got == [([[1, 2], [3]], [1, 2]), ([[], [4, 5, 6]], [3, 4])]
    assert [e["r"].to_list() for e in ds.rebatch([1, 2])] == [[[1, 2]], [[3], []], [[4, 5, 6]]]
    assert {e["r"].row_splits.dtype for e in ds.rebatch(2)} == {tf.int32}


def test_snapshot_prints_as_tfs(tmp_path):
    ds = tf.data.Dataset.range(3).snapshot(str(tmp_path / "snap"))
    assert repr(ds) == "<_MapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert _values(ds) == [0, 1, 2]


def test_padded_shape_of_minus_one_pads_to_the_longest():
    ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.range(x)).padded_batch(
        3, padded_shapes=[-1])
    assert repr(ds.element_spec) == "TensorSpec(shape=(None, None), dtype=tf.int64, name=None)"
    assert [b.numpy().tolist() for b in ds] == [[[0, 0, 0], [0, 1, 0], [0, 1, 2]]]
