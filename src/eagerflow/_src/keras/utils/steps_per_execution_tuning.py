"""`StepsPerExecutionTuner`: tunes a ``steps_per_execution`` variable from the training
throughput (``optimizer.iterations`` a second), on a thread of its own.

>>> optimizer = tf.keras.optimizers.SGD()
>>> steps = tf.Variable(2, dtype="int64")
>>> tuner = tf.keras.utils.StepsPerExecutionTuner(optimizer, steps, interval=0.01)
>>> thread = tuner.start()
>>> tuner.stop()
>>> thread.join(5)
>>> int(steps.numpy())
2
"""
import threading
import time

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export


@export("keras.utils.StepsPerExecutionTuner")
class StepsPerExecutionTuner:
    """Every `interval` seconds, measures the steps per second `optimizer` has run; every
    `change_spe_interval` measurements, compares their average with the previous one and
    changes `spe_variable`: a throughput more than `change_threshold` (a fraction) higher
    repeats the last change (times 1.5 after a rise, times 0.5 after a fall), one that
    much lower reverses it, and one within it keeps the value. The first change is a
    rise. `start` runs the measurements on a daemon thread until `stop`.
    """

    def __init__(self, optimizer, spe_variable, interval=5, change_spe_interval=10,
                 change_threshold=0.1):
        self.optimizer = optimizer
        self._steps_per_execution = spe_variable
        self.interval = interval
        self.change_spe_interval = change_spe_interval
        self.spe_change_threshold = change_threshold
        self.steps_per_execution_stop_event = threading.Event()
        self.thread = None

    @property
    def steps_per_execution(self):
        """The tuned variable; setting it assigns the variable (and restarts from it)."""
        return self._steps_per_execution

    @steps_per_execution.setter
    def steps_per_execution(self, value):
        self._steps_per_execution.assign(value)
        self.init_spe = value

    def start(self):
        """Starts tuning on a daemon thread, and returns it (the running one, if any)."""
        if self.thread and self.thread.is_alive():
            return self.thread
        self._begin_tuning()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self.thread

    def stop(self):
        """Stops the thread after its current measurement."""
        self.steps_per_execution_stop_event.set()

    def _run(self):
        while not self.steps_per_execution_stop_event.is_set():
            self._measure_and_tune()
            self.steps_per_execution_stop_event.wait(self.interval)

    def _begin_tuning(self):
        self.start_time = time.time()
        self.init_iterations = self.optimizer.iterations.numpy()
        self.init_spe = self._steps_per_execution.numpy().item()
        self.spe_last_logged = {"iteration": self.init_iterations,
                                "time_secs": self.start_time}
        self.rgsps = []  # the recent measurements, in global steps a second
        self.avg_rgsps = 0
        self.prev_avg_rgsps = 0
        self.spe_tune_last_action_add = True
        self.spe_measurement_count = 0

    def _measure_and_tune(self):
        self.spe_measurement_count += 1
        iteration, now = self.optimizer.iterations.numpy(), time.time()
        last = self.spe_last_logged
        self.rgsps.append((iteration - last["iteration"]) / (now - last["time_secs"]))
        del self.rgsps[:-self.change_spe_interval]
        if iteration == 0:  # nothing has run yet: nothing to measure against
            self.start_time = now
            return
        last["iteration"], last["time_secs"] = iteration, now
        try:
            if self._should_tune():
                self._tune()
        except RuntimeError:  # (a variable gone with its program: tuning ends quietly)
            _log.logger.exception("Steps per execution autotuner failed to run.")

    def _should_tune(self):
        # a measurement of no steps is a pause (an epoch's end), not a throughput
        return (self.spe_measurement_count % self.change_spe_interval == 0
                and bool(self.rgsps) and self.rgsps[-1] != 0)

    def _tune(self):
        self.avg_rgsps = sum(self.rgsps) / len(self.rgsps)
        faster = self.avg_rgsps > (1 + self.spe_change_threshold) * self.prev_avg_rgsps
        slower = self.avg_rgsps < (1 - self.spe_change_threshold) * self.prev_avg_rgsps
        variable = self._steps_per_execution
        current = variable.numpy().item()
        new = current
        if faster or slower:
            if slower:  # the last change made it worse: the other way now
                self.spe_tune_last_action_add = not self.spe_tune_last_action_add
            new = current * (1.5 if self.spe_tune_last_action_add else 0.5)
        if current >= variable.dtype.max / 1.5:
            new = current  # (as large as it may grow)
        elif current <= 0:
            new = self.init_spe
        variable.assign(np.round(new))
        self.prev_avg_rgsps = self.avg_rgsps
