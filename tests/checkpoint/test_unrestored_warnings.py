"""The warnings TF logs when a restore that left values of the checkpoint unrestored is
collected without `expect_partial` (messages and order as TF 2.21 logs them)."""
import gc
import os
import subprocess
import sys

import pytest

import eagerflow as tf

_DETECTING = ("Detecting that an object or model or tf.train.Checkpoint is being deleted with "
              "unrestored values. See the following logs for the specific values in question. "
              "To silence these warnings, use `status.expect_partial()`. See "
              "https://www.tensorflow.org/api_docs/python/tf/train/Checkpoint#restorefor "
              "details about the status object returned by the restore function.")
_MISSING = "Value in checkpoint could not be found in the restored object: "


@pytest.fixture
def saved(tmp_path):
    module = tf.Module()
    module.w = tf.Variable(5.0)
    module.sub = tf.Module()
    module.sub.z = tf.Variable(6.0)
    return tf.train.Checkpoint(a=tf.Variable(1.0), b=tf.Variable([2.0, 3.0]),
                               m=module).write(str(tmp_path / "c"))


def _logged(caplog):
    gc.collect()
    return [r.getMessage() for r in caplog.records if r.name == "tensorflow"]


def test_values_never_restored_are_logged_when_the_restore_is_collected(saved, caplog):
    caplog.set_level("WARNING")
    for method in ("read", "restore"):
        getattr(tf.train.Checkpoint(a=tf.Variable(0.0)), method)(saved)
        # (in the order of the checkpoint's nodes)
        assert _logged(caplog) == [_DETECTING, _MISSING + "(root).b", _MISSING + "(root).m.w",
                                   _MISSING + "(root).m.sub.z"]
        caplog.clear()


def test_no_warning_with_expect_partial_or_once_everything_is_restored(saved, caplog):
    caplog.set_level("WARNING")
    tf.train.Checkpoint(a=tf.Variable(0.0)).read(saved).expect_partial()
    assert _logged(caplog) == []
    module = tf.Module()
    checkpoint = tf.train.Checkpoint(a=tf.Variable(0.0), m=module)
    status = checkpoint.read(saved)
    checkpoint.b = tf.Variable([0.0, 0.0])  # (restored as it is added)
    module.w = tf.Variable(0.0)
    module.sub = tf.Module()
    module.sub.z = tf.Variable(0.0)
    assert module.sub.z.numpy() == 6.0
    del status, checkpoint, module
    assert _logged(caplog) == []


def test_the_warning_waits_for_the_objects_still_waiting_for_values(saved, caplog):
    caplog.set_level("WARNING")
    checkpoint = tf.train.Checkpoint(a=tf.Variable(0.0), b=tf.Variable([0.0, 0.0]))
    checkpoint.restore(saved)  # (the status dropped: `m` may still be added)
    assert _logged(caplog) == []
    del checkpoint
    assert _logged(caplog) == [_DETECTING, _MISSING + "(root).m.w", _MISSING + "(root).m.sub.z"]


def test_saving_leaves_the_root_logger_alone(tmp_path):
    # TF's saver logs on Python's root logger, which gives it a handler: TF's warnings then
    # print twice, and a later logging.basicConfig of the program does nothing. Not here.
    script = (
        "import logging\n"
        "import eagerflow as tf\n"
        "tf.get_logger().warning('before')\n"
        f"path = tf.train.Checkpoint(a=tf.Variable(1.0), b=tf.Variable(2.0)).write("
        f"{str(tmp_path / 'c')!r})\n"
        "tf.get_logger().warning('after')\n"
        "tf.train.Checkpoint(a=tf.Variable(0.0)).read(path)\n"
        "assert not logging.getLogger().handlers\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, check=True)
    assert result.stderr.splitlines() == [
        "WARNING:tensorflow:before", "WARNING:tensorflow:after",
        f"WARNING:tensorflow:{_DETECTING}", f"WARNING:tensorflow:{_MISSING}(root).b"]
