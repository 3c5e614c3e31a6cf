"""keras.utils.TimedThread and keras.estimator.model_to_estimator (tf_keras 2.21 names)."""
import logging
import threading

import pytest

from eagerflow import keras


class Counter(keras.utils.TimedThread):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0
        self.twice = threading.Event()

    def on_interval(self):
        self.calls += 1
        if self.calls >= 2:
            self.twice.set()


def test_timed_thread_calls_on_interval_until_stopped(caplog):
    thread = Counter(interval=0.001)
    assert not thread.is_alive() and thread.daemon
    with thread:
        assert thread.twice.wait(10)
        with caplog.at_level(logging.WARNING, "eagerflow"):
            thread.start()  # (already running: a warning)
        assert "Thread is already running." in caplog.text
    thread.thread.join(10)
    assert not thread.is_alive()
    with pytest.raises(NotImplementedError, match="Needs to be implemented in subclasses of "
                                                  "`TimedThread`"):
        keras.utils.TimedThread(1).on_interval()


def test_model_to_estimator_is_unavailable_as_in_tf_2_21():
    with pytest.raises(NotImplementedError, match="tf.keras.estimator.model_to_estimator "
                                                  "function not available in your "
                                                  "installation."):
        keras.estimator.model_to_estimator(keras.Sequential())
