"""Keras's text progress bar (``tf.keras.utils.Progbar``), byte for byte.

``Model.fit`` prints its epochs through this class, so every character of the
output (redraw codes, padding, number formats, time units) follows tf_keras.

>>> bar = tf.keras.utils.Progbar(2)
>>> bar.update(1, [("loss", 0.5)])  # doctest: +SKIP
>>> bar.update(2, [("loss", 0.3)])  # doctest: +SKIP
2/2 [==============================] - 0s 3ms/step - loss: 0.4000
"""
import os
import sys
import time

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.utils.io_utils import print_msg


def _redraws_in_place():
    """Whether the bar rewrites its line with ``\\b``/``\\r`` instead of printing new lines.

    Keras's rule, kept as is: ``posix`` is imported on every POSIX system, so
    there the bar redraws in place even into a pipe or a file, and logs come
    out byte-identical to TensorFlow's.
    """
    return ((hasattr(sys.stdout, "isatty") and sys.stdout.isatty())
            or "ipykernel" in sys.modules
            or "posix" in sys.modules
            or "PYCHARM_HOSTED" in os.environ)


def _format_duration(seconds, unit_name):
    """`` 12ms/step``-style text: whole seconds, milliseconds or microseconds per unit."""
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit_name}"
    if seconds >= 1e-3:
        return f" {seconds * 1e3:.0f}ms/{unit_name}"
    return f" {seconds * 1e6:.0f}us/{unit_name}"


def _format_eta(seconds):
    if seconds > 3600:
        return "%d:%02d:%02d" % (seconds // 3600, (seconds % 3600) // 60, seconds % 60)
    if seconds > 60:
        return "%d:%02d" % (seconds // 60, seconds % 60)
    return "%ds" % seconds


@export("keras.utils.Progbar")
class Progbar:
    """Displays a progress bar.

    Args:
        target: total number of steps expected, None if unknown.
        width: width of the bar in characters.
        verbose: 0 (silent), 1 (a bar redrawn at most every `interval`
            seconds) or 2 (one line when the target is reached).
        interval: minimum seconds between two redraws with `verbose=1`.
        stateful_metrics: names of values shown as given; all other values
            are averaged over the steps seen so far.
        unit_name: what a step is called (``'step'``, ``'sample'``).

    The clock is the class attribute `_time`; tests replace it to make the
    printed durations deterministic.

    >>> bar = tf.keras.utils.Progbar(10, verbose=2)
    >>> for step in range(1, 11):
    ...     bar.update(step, [("loss", 1.0 / step)])
    10/10 - ...s - loss: 0.2929 - ...s/epoch - ...s/step
    """

    _time = staticmethod(time.monotonic)

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None,
                 unit_name="step"):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics or ())
        self._dynamic_display = _redraws_in_place()
        self._total_width = 0
        self._seen_so_far = 0
        # name -> [weighted sum, weight]; a stateful value is stored as [value, 1].
        self._values = {}
        self._values_order = []
        self._start = self._time()
        self._last_update = -float("inf")
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end = None
        self._time_after_first_step = None

    def update(self, current, values=None, finalize=None):
        """Records progress up to step `current` and redraws the bar.

        Args:
            current: index of the current step (1-based count of steps done).
            values: list of ``(name, value_for_last_step)`` pairs.
            finalize: whether this is the last update; by default when
                `current` reaches `target`.
        """
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        self._record(current, values or [])
        now = self._time()
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            print_msg(self._redraw(current, now, finalize), line_break=False)
        elif self.verbose == 2 and finalize:
            print_msg(self._summary_line(current, now), line_break=False)
        self._last_update = now

    def add(self, n, values=None):
        """Advances the bar by `n` steps."""
        self.update(self._seen_so_far + n, values)

    def _update_stateful_metrics(self, stateful_metrics):
        self.stateful_metrics = self.stateful_metrics.union(stateful_metrics)

    def _record(self, current, values):
        for name, value in values:
            if name not in self._values_order:
                self._values_order.append(name)
            if name in self.stateful_metrics:
                self._values[name] = [value, 1]
                continue
            # Weighted by the steps since the last update; at least 1 because
            # fit may report the same step twice (last batch, then epoch end).
            weight = max(current - self._seen_so_far, 1)
            if name in self._values:
                self._values[name][0] += value * weight
                self._values[name][1] += weight
            else:
                self._values[name] = [value * weight, weight]
        self._seen_so_far = current

    def _averages(self, small):
        """`` - name: 0.1234`` for every value; ``e`` notation where `small(average)` holds."""
        text = ""
        for name in self._values_order:
            total, weight = self._values[name]
            average = np.mean(total / max(1, weight))
            text += f" - {name}: {average:.4e}" if small(average) else f" - {name}: {average:.4f}"
        return text

    def _count(self, current):
        digits = len(str(int(self.target)))
        return "%*d/%d" % (digits, current, self.target)

    def _redraw(self, current, now, finalize):
        previous_width = self._total_width
        message = "\b" * previous_width + "\r" if self._dynamic_display else "\n"
        if self.target is None:
            bar = "%7d/Unknown" % current
        else:
            filled = int(self.width * float(current) / self.target)
            bar = self._count(current) + " ["
            if filled > 0:
                bar += "=" * (filled - 1) + (">" if current < self.target else "=")
            bar += "." * (self.width - filled) + "]"
        step_time = self._estimate_step_duration(current, now)
        if self.target is None or finalize:
            info = f" - {now - self._start:.0f}s" + _format_duration(step_time, self.unit_name)
        else:
            info = " - ETA: " + _format_eta(step_time * (self.target - current))
        info += self._averages(lambda average: not abs(average) > 1e-3)
        self._total_width = len(bar) + len(info)
        # Blank out what is left of a longer previous line.
        info += " " * (previous_width - self._total_width)
        if finalize:
            info += "\n"
        return message + bar + info

    def _summary_line(self, current, now):
        # Keras compares the signed average here (not its magnitude as in the
        # bar), so negative values print in e notation; kept for identical logs.
        line = (self._count(current) + f" - {now - self._start:.0f}s"
                + self._averages(lambda average: not average > 1e-3))
        if self._time_at_epoch_end is not None:
            epoch_time = self._time_at_epoch_end - self._time_at_epoch_start
            self._time_at_epoch_start = now
            self._time_at_epoch_end = None
            line += (" -" + _format_duration(epoch_time, "epoch")
                     + " -" + _format_duration(epoch_time / self.target, self.unit_name) + "\n")
        return line

    def _estimate_step_duration(self, current, now):
        """Seconds per step, leaving out the first step (it includes tracing) when possible."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            duration = (now - self._time_after_first_step) / (current - 1)
        else:
            duration = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return duration
