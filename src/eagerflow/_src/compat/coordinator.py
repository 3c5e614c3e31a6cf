"""TF 1's thread coordination (``tf.compat.v1.train.Coordinator``) and
the scaffolding of TF 1 input loops (see `queue_runner`): threads stop together when one
asks them to, and an exception one of them met is raised again by `join`.

>>> coord = tf.compat.v1.train.Coordinator()
>>> coord.should_stop()
False
>>> coord.request_stop()
>>> coord.should_stop()
True
"""
import contextlib
import sys
import threading
import time

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import errors


@export("train.Coordinator", "compat.v1.train.Coordinator")
class Coordinator:
    """Lets threads ask each other to stop (`request_stop`, `should_stop`) and waits for
    them (`join`), raising the exception that stopped them, if any."""

    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def _filter_exception(self, ex):
        if isinstance(ex, tuple):
            ex2 = ex[1]
        else:
            ex2 = ex
        if isinstance(ex2, self._clean_stop_exception_types):
            return None  # (a clean stop: the end of the input)
        return ex

    def request_stop(self, ex=None):
        """Asks the threads to stop; `ex` (an exception or ``sys.exc_info()``) is raised
        by `join`, unless it is one of the clean stop types (OutOfRangeError)."""
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    raise ex[1].with_traceback(ex[2])
                if ex is not None:
                    raise ex
            # (once stopped, the errors of threads ending on the stop are not kept)
            if ex is not None and self._exc_info_to_raise is None and \
                    not self._stop_event.is_set():
                if isinstance(ex, tuple):
                    self._exc_info_to_raise = ex
                else:
                    try:
                        raise ex
                    except BaseException:  # noqa: BLE001 (kept with its traceback)
                        self._exc_info_to_raise = sys.exc_info()
            self._stop_event.set()

    def clear_stop(self):
        """Clears the stop request (and the exception to raise), for a new start."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            if self._stop_event.is_set():
                self._stop_event.clear()

    def should_stop(self):
        """Whether a stop was requested."""
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """A block whose exception requests a stop (to be raised by `join`)."""
        try:
            yield
        except:  # noqa: E722 (every exception, as TF's)
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """Waits until a stop is requested (at most `timeout` seconds); whether it was."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Waits for `threads` (and the registered ones) after a stop request; raises the
        exception given to `request_stop`, or RuntimeError for threads still running
        `stop_grace_period_secs` after the request."""
        with self._lock:
            threads = set(threads or ()) | self._registered_threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        deadline = time.time() + stop_grace_period_secs
        for t in threads:
            t.join(max(0.0, deadline - time.time()))
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                _, value, tb = self._exc_info_to_raise
                raise value.with_traceback(tb)
            if stragglers and not ignore_live_threads:
                raise RuntimeError(f"Coordinator stopped with threads still running: "
                                   f"{' '.join(stragglers)}")

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        """Raises the exception given to `request_stop`, if any."""
        with self._lock:
            if self._exc_info_to_raise:
                _, value, tb = self._exc_info_to_raise
                raise value.with_traceback(tb)
