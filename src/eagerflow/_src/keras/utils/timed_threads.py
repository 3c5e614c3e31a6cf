"""`TimedThread`: a daemon thread calling `on_interval` every `interval` seconds.

>>> import threading
>>> ticks = threading.Event()
>>> class Tick(tf.keras.utils.TimedThread):
...     def on_interval(self):
...         ticks.set()
>>> with Tick(interval=0.01) as thread:
...     _ = ticks.wait(5)
>>> ticks.is_set()
True
"""
import threading

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export


@export("keras.utils.TimedThread")
class TimedThread:
    """Runs `on_interval` (which subclasses implement) every `interval` seconds on a thread,
    from `start` (or entering a ``with`` block) until `stop` (or leaving it); other keyword
    arguments go to `threading.Thread` (``daemon`` defaults to True)."""

    def __init__(self, interval, **kwargs):
        self.interval = interval
        self.daemon = kwargs.pop("daemon", True)
        self.thread_kwargs = kwargs
        self.thread = None
        self.thread_stop_event = None

    def _call_on_interval(self):
        while not self.thread_stop_event.is_set():
            self.on_interval()
            self.thread_stop_event.wait(self.interval)

    def start(self):
        """Starts the thread (a warning, and nothing else, if it is running)."""
        if self.thread and self.thread.is_alive():
            _log.logger.warning("Thread is already running.")
            return
        self.thread = threading.Thread(target=self._call_on_interval, daemon=self.daemon,
                                       **self.thread_kwargs)
        self.thread_stop_event = threading.Event()
        self.thread.start()

    def stop(self):
        """Asks the thread to stop after its current call."""
        if self.thread_stop_event:
            self.thread_stop_event.set()

    def is_alive(self):
        return self.thread.is_alive() if self.thread else False

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *args, **kwargs):
        self.stop()

    def on_interval(self):
        raise NotImplementedError("Runs every x interval seconds. Needs to be implemented in "
                                  "subclasses of `TimedThread`")
