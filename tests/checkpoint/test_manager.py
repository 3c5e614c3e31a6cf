"""tf.train.CheckpointManager: numbering, keeping, intervals, resuming a directory."""
import os

import pytest

import eagerflow as tf


def _files(directory):
    return sorted(os.listdir(directory))


def test_keeps_the_latest_max_to_keep(tmp_path):
    directory = str(tmp_path)
    ckpt = tf.train.Checkpoint(v=tf.Variable(0.0))
    manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=2, checkpoint_name="model")
    assert manager.latest_checkpoint is None and manager.checkpoints == []
    for i in range(3):
        ckpt.v.assign(float(i))
        manager.save()
    assert [os.path.basename(p) for p in manager.checkpoints] == ["model-2", "model-3"]
    assert _files(directory) == ["checkpoint", "model-2.data-00000-of-00001", "model-2.index",
                                 "model-3.data-00000-of-00001", "model-3.index"]
    state = tf.train.get_checkpoint_state(directory)
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == \
        ["model-2", "model-3"]
    assert len(state.all_model_checkpoint_timestamps) == 2
    # a new manager resumes the directory
    again = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(-1.0)), directory,
                                       max_to_keep=2, checkpoint_name="model")
    assert again.checkpoints == manager.checkpoints
    assert again.latest_checkpoint == tf.train.latest_checkpoint(directory)
    assert again.restore_or_initialize() == again.latest_checkpoint
    assert float(again.checkpoint.v.numpy()) == 2.0


def test_checkpoint_number_and_max_to_keep_none(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(0.0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=None)
    assert os.path.basename(manager.save(checkpoint_number=10)) == "ckpt-10"
    assert os.path.basename(manager.save(checkpoint_number=tf.Variable(20))) == "ckpt-20"
    assert os.path.basename(manager.save()) == "ckpt-3"  # save_counter counted every save
    assert len(manager.checkpoints) == 3


def test_keep_checkpoint_every_n_hours_preserves_what_leaves_the_active_set(tmp_path):
    ckpt = tf.train.Checkpoint(v=tf.Variable(0.0))
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=1,
                                         keep_checkpoint_every_n_hours=1e-12)
    for _ in range(3):
        manager.save()
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-3"]
    assert sum(name.endswith(".index") for name in _files(str(tmp_path))) == 3


def test_checkpoint_interval_with_step_counter(tmp_path):
    step = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(step=step)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=None,
                                         step_counter=step, checkpoint_interval=5)
    saved = []
    for i in range(12):
        step.assign(i)
        saved.append(manager.save() is not None)
    assert [i for i, s in enumerate(saved) if s] == [0, 5, 10]
    step.assign(11)
    assert manager.save(check_interval=False) is not None
    assert manager.save(check_interval=False) is None  # this step is saved already
    assert manager.checkpoint_interval == 5


def test_restore_or_initialize_calls_init_fn_without_checkpoints(tmp_path):
    calls = []
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)),
                                         str(tmp_path), max_to_keep=3,
                                         init_fn=lambda: calls.append(1))
    assert manager.restore_or_initialize() is None and calls == [1]


def test_arguments_checked():
    with pytest.raises(ValueError, match="Expected a positive integer or `None` for "
                                         "`max_to_keep`, got 0."):
        tf.train.CheckpointManager(tf.train.Checkpoint(), "/nonexistent", max_to_keep=0)
    with pytest.raises(ValueError, match="`step_counter` should be passed if "
                                         "`checkpoint_interval` is not None."):
        tf.train.CheckpointManager(tf.train.Checkpoint(), "/nonexistent", max_to_keep=1,
                                   checkpoint_interval=2)


def test_checkpoints_iterator_yields_each_new_checkpoint(tmp_path):
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0)) == []
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    first = checkpoint.save(str(tmp_path / "ckpt"))
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0)) == [first]
    calls = []

    def timeout_fn():  # wait once more, then stop
        calls.append(1)
        return len(calls) > 1
    found = list(tf.train.checkpoints_iterator(str(tmp_path / "none"), timeout=0,
                                               timeout_fn=timeout_fn))
    assert found == [] and len(calls) == 2
    iterator = tf.train.checkpoints_iterator(str(tmp_path), timeout=1.5)
    assert next(iterator) == first
    second = checkpoint.save(str(tmp_path / "ckpt"))  # appears while the iterator waits
    assert next(iterator) == second
