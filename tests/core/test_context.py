import threading

import pytest
import eagerflow as tf
from tests.internals import context


class _Recorder:
    def __init__(self):
        self.ops = []

    def record(self, op, inputs, attrs, outputs):
        self.ops.append(op.name)


def test_recorders_see_ops_in_their_block_only():
    rec = _Recorder()
    with context.recording(rec):
        tf.constant(1.0) * 2.0
    tf.constant(1.0) + 1.0
    assert rec.ops == ["Mul"]
    assert context.get().fast


def test_recorders_are_per_thread():
    rec, other = _Recorder(), []

    def work():
        other.append(context.get().recorders)
        tf.constant(1.0) - 1.0

    with context.recording(rec):
        t = threading.Thread(target=work)
        t.start()
        t.join()
    assert other == [()] and rec.ops == []


def test_variable_reads_and_writes_are_ops():
    rec = _Recorder()
    v = tf.Variable(1.0)
    with context.recording(rec):
        v + 1.0
        v.assign_add(1.0)
    assert rec.ops == ["ReadVariableOp", "AddV2", "AssignAddVariableOp"]


def test_config_settings_round_trip():
    tf.config.threading.set_intra_op_parallelism_threads(2)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 2
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU"):
        tf.config.experimental.set_memory_growth(cpu, True)  # as in TF: GPUs only
    assert tf.config.list_physical_devices("GPU") == [] or tf.config.get_visible_devices("GPU")


def test_async_and_executor_scopes_run_ops_as_usual():
    with tf.experimental.async_scope():
        assert int(tf.constant(1) + 1) == 2
    tf.experimental.async_clear_error()
    with tf.experimental.function_executor_type("SINGLE_THREADED_EXECUTOR"):
        assert int(tf.function(lambda: tf.constant(2) * 2)()) == 4
    with pytest.raises(tf.errors.InvalidArgumentError):  # errors still surface at the op
        with tf.experimental.async_scope():
            tf.reshape(tf.ones([4]), [3])
