"""rejection_resample prints TF's warning to stderr (its first 10 times) while the sampler
rejects half the data or more."""
import time

import numpy as np

import eagerflow as tf

_WARNING = "Proportion of examples rejected by sampler is high: "


def _labelled(counts):
    labels = np.concatenate([np.full([n], c, np.int64) for c, n in enumerate(counts)])
    return tf.data.Dataset.from_tensor_slices(labels).map(lambda c: (tf.cast(c, tf.float32), c))


def test_high_rejection_is_printed_ten_times(capfd):
    resampled = _labelled([90, 10]).rejection_resample(
        class_func=lambda f, c: c, target_dist=[0.5, 0.5], initial_dist=[0.9, 0.1], seed=42)
    assert len(list(resampled.take(15))) == 15
    lines = capfd.readouterr().err.splitlines()
    assert lines.count(_WARNING + "[0.9][0.9 0.1][0 1]") == 10
    assert len([line for line in lines if line.startswith(_WARNING)]) == 10


def test_low_rejection_prints_nothing(capfd):
    resampled = _labelled([5, 95]).rejection_resample(  # (rejects 5%)
        class_func=lambda f, c: c, target_dist=[0.01, 0.99], initial_dist=[0.05, 0.95], seed=1)
    list(resampled.take(5))
    assert _WARNING not in capfd.readouterr().err


def test_data_already_at_the_target_is_never_filtered_nor_warned_of(capfd):
    """Estimated at the target (an acceptance of 0/0): every element comes from the data as
    it is, the filtering branch is never read (TF's prefetch starts on its first request),
    so nothing is printed; TF 2.21's elements (recorded)."""
    data = tf.data.Dataset.range(8).map(lambda x: (x, x % 2))
    resampled = data.rejection_resample(lambda x, y: tf.cast(y, tf.int32), [0.5, 0.5], seed=3)
    got = [tuple(int(v) for v in tf.nest.flatten(e)) for e in resampled.take(4)]
    assert got == [(0, 0, 0), (1, 1, 1), (0, 2, 0), (1, 3, 1)]
    assert _WARNING not in capfd.readouterr().err


def test_prefetch_runs_nothing_until_its_first_element_is_asked_for():
    calls = []

    def count(x):
        calls.append(int(x))
        return x
    ds = tf.data.Dataset.range(5).map(
        lambda x: tf.py_function(count, [x], tf.int64)).prefetch(2)
    iterator = iter(ds)
    time.sleep(0.2)
    assert calls == []
    assert int(next(iterator)) == 0 and calls[0] == 0
