"""rejection_resample prints TF's warning to stderr (its first 10 times) while the sampler
rejects half the data or more."""
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
