"""`tf.keras.utils.StepsPerExecutionTuner` as tf_keras 2.21 has it: its arguments, the
thread `start` runs until `stop`, and its changes of the variable for a given series of
throughputs (on a stand-in clock)."""
import numpy as np

import eagerflow as tf
from tests.internals import steps_per_execution_tuning


def test_arguments_and_the_variable():
    steps = tf.Variable(4, dtype="int64")
    tuner = tf.keras.utils.StepsPerExecutionTuner(tf.keras.optimizers.SGD(), steps)
    assert (tuner.interval, tuner.change_spe_interval, tuner.spe_change_threshold) == \
        (5, 10, 0.1)
    assert tuner.steps_per_execution is steps and tuner.thread is None
    tuner.steps_per_execution = 7
    assert steps.numpy() == 7 and tuner.init_spe == 7


def test_start_runs_a_daemon_thread_until_stop():
    tuner = tf.keras.utils.StepsPerExecutionTuner(
        tf.keras.optimizers.SGD(), tf.Variable(2, dtype="int64"), interval=0.01)
    thread = tuner.start()
    assert thread.daemon and tuner.start() is thread
    tuner.stop()
    thread.join(10)
    assert not thread.is_alive()


def test_changes_follow_the_throughput(monkeypatch):
    # Steps a second, two measurements a change, as tf_keras changes the variable for them:
    # a rise (x1.5) while faster, the other way (x0.5) once slower, nothing in between or
    # across a measurement of no steps.
    clock = iter(range(100))
    monkeypatch.setattr(steps_per_execution_tuning.time, "time", lambda: float(next(clock)))
    optimizer, steps = tf.keras.optimizers.SGD(), tf.Variable(4, dtype="int64")
    tuner = tf.keras.utils.StepsPerExecutionTuner(optimizer, steps, change_spe_interval=2)
    tuner._begin_tuning()
    seen = []
    for rate in [10, 10, 30, 30, 31, 31, 5, 5, 5, 5, 0, 0]:
        optimizer.iterations.assign_add(rate)
        tuner._measure_and_tune()
        seen.append(int(steps.numpy()))
    assert seen == [4, 6, 6, 9, 9, 9, 9, 4, 4, 4, 4, 4]
    steps.assign(0)  # a variable emptied starts again from its first value
    for rate in [3, 3]:
        optimizer.iterations.assign_add(rate)
        tuner._measure_and_tune()
    assert steps.numpy() == 4
