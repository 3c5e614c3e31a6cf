"""Dataset iterators in checkpoints shared with TensorFlow 2.21: TF saves an iterator's
position as a variant tensor (``ITERATOR_STATE``, its C++ kernels' state) and eagerflow as its
own int64 tensors, so neither restores the other's; both refuse it with a clear error rather
than resume at a wrong position, and the rest of the checkpoint still carries over.

data/tf/iterator was written by ``make_tf_checkpoints.py iterator`` with real TF;
data/ours/iterator by ``make_ours.py iterator``, and TF's error reading it recorded by
``tf_reads_ours.py iterator`` in data/ours/iterator/tf_error.txt."""
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.checkpoint.reference import DATA


def _iterator():
    return iter(tf.data.Dataset.range(20).batch(2))


def test_restoring_tfs_iterator_state_raises_naming_it():
    it = _iterator()
    assert next(it).numpy().tolist() == [0, 1]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"TensorFlow's iterator state \(it/\.ATTRIBUTES/ITERATOR_STATE, "
                             r"a variant tensor"):
        tf.train.Checkpoint(it=it, v=tf.Variable(0.0)).read(
            os.path.join(DATA, "tf", "iterator", "ckpt"))
    assert next(it).numpy().tolist() == [2, 3]  # (left where it was)


def test_the_rest_of_a_tf_checkpoint_with_an_iterator_restores():
    v = tf.Variable(0.0)
    tf.train.Checkpoint(v=v).read(os.path.join(DATA, "tf", "iterator", "ckpt")).expect_partial()
    assert float(v.numpy()) == 3.5
    reader = tf.train.load_checkpoint(os.path.join(DATA, "tf", "iterator", "ckpt"))
    assert reader.get_variable_to_dtype_map()["it/.ATTRIBUTES/ITERATOR_STATE"] == tf.variant


def test_tf_refuses_our_iterator_state_and_ours_resumes_it():
    path = os.path.join(DATA, "ours", "iterator", "ckpt")
    with open(os.path.join(DATA, "ours", "iterator", "tf_error.txt")) as f:
        recorded = f.read()
    assert recorded.startswith("NotFoundError: ")
    assert "Key it/.ATTRIBUTES/ITERATOR_STATE not found in checkpoint" in recorded
    names = sorted(name for name, _ in tf.train.list_variables(path))
    assert "it/.ATTRIBUTES/ITERATOR_POSITION" in names
    assert not [n for n in names if n.endswith("ITERATOR_STATE")]
    it = _iterator()
    tf.train.Checkpoint(it=it, v=tf.Variable(0.0)).read(path).assert_consumed()
    np.testing.assert_array_equal(next(it).numpy(), [10, 11])
