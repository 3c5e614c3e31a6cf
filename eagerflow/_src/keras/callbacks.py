"""Callbacks: hooks `fit`, `evaluate` and `predict` call at each epoch and batch.

>>> class Count(Callback):
...     def on_epoch_end(self, epoch, logs=None):
...         print("epoch", epoch, sorted(logs))
>>> calls = CallbackList([Count()])
>>> calls.on_epoch_end(0, {"loss": 0.5})
epoch 0 ['loss']
"""
import numpy as np

from eagerflow._src.keras.utils.io_utils import print_msg
from eagerflow._src.keras.utils.progbar import Progbar


class Callback:
    """Base class: override any `on_*` hook; `model` and `params` are set before training."""

    def __init__(self):
        self.validation_data = None
        self.model = None
        self.params = {}
        self._supports_tf_logs = False

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_batch_begin(self, batch, logs=None):
        """A backwards-compatible alias of `on_train_batch_begin`."""

    def on_batch_end(self, batch, logs=None):
        """A backwards-compatible alias of `on_train_batch_end`."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of an epoch of `fit`."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch of `fit`, with the epoch's (and validation) logs."""

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """Called before each batch of `evaluate` (and of validation in `fit`)."""

    def on_test_batch_end(self, batch, logs=None):
        """Called after each batch of `evaluate`."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Called before each batch of `predict`."""

    def on_predict_batch_end(self, batch, logs=None):
        """Called after each batch of `predict`."""

    def on_train_begin(self, logs=None):
        """Called when `fit` starts."""

    def on_train_end(self, logs=None):
        """Called when `fit` ends."""

    def on_test_begin(self, logs=None):
        """Called when `evaluate` (or validation) starts."""

    def on_test_end(self, logs=None):
        """Called when `evaluate` ends."""

    def on_predict_begin(self, logs=None):
        """Called when `predict` starts."""

    def on_predict_end(self, logs=None):
        """Called when `predict` ends."""


_HOOKS = ("on_batch_begin", "on_batch_end", "on_epoch_begin", "on_epoch_end",
          "on_train_batch_begin", "on_train_batch_end", "on_test_batch_begin",
          "on_test_batch_end", "on_predict_batch_begin", "on_predict_batch_end",
          "on_train_begin", "on_train_end", "on_test_begin", "on_test_end",
          "on_predict_begin", "on_predict_end")


class CallbackList:
    """Calls each hook on every callback in order; adds the progress bar and `History`."""

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        self.callbacks = list(callbacks or [])
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.insert(0, ProgbarLogger(count_mode="steps"))
        if add_history and not any(isinstance(c, History) for c in self.callbacks):
            self.callbacks.append(History())
        self.model = model
        self.params = params
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)
        for hook in _HOOKS:
            setattr(self, hook, self._broadcast(hook))

    def append(self, callback):
        self.callbacks.append(callback)

    def set_params(self, params):
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model):
        self.model = model
        for callback in self.callbacks:
            callback.set_model(model)

    def _broadcast(self, hook):
        def call(*args, **kwargs):
            for callback in self.callbacks:
                getattr(callback, hook)(*args, **kwargs)
        call.__name__ = hook
        return call

    def __iter__(self):
        return iter(self.callbacks)


class History(Callback):
    """Records each epoch's logs in `history` (``{'loss': [...], ...}``); `fit` returns it."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)

    def set_model(self, model):
        super().set_model(model)
        model.history = self


class ProgbarLogger(Callback):
    """Prints Keras's progress bar and epoch lines (``verbose`` 1 or 2 of `fit`)."""

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        if count_mode not in ("samples", "steps"):
            raise ValueError(f'Unknown `count_mode`: {count_mode}. Expected values are '
                             f'["samples", "steps"]')
        self.use_steps = count_mode == "steps"
        self.stateful_metrics = set(stateful_metrics or ())
        self.seen = 0
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1
        self._called_in_fit = False  # validation inside fit prints nothing of its own

    def set_params(self, params):
        self.verbose = params.get("verbose", 1)
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps") if self.use_steps else params.get("samples")

    def _start(self):
        self.seen = 0
        self.progbar = Progbar(target=self.target, verbose=self.verbose,
                               stateful_metrics=self._stateful(),
                               unit_name="step" if self.use_steps else "sample")

    def _stateful(self):
        names = set(self.stateful_metrics)
        if self.model is not None:
            names.update(m.name for m in self.model.metrics)
        return names

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_epoch_begin(self, epoch, logs=None):
        self._start()
        if self.verbose and self.epochs > 1:
            print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._update(batch, logs)

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._start()

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._update(batch, logs)

    def on_predict_begin(self, logs=None):
        self._start()

    def on_predict_batch_end(self, batch, logs=None):
        self._update(batch, None)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize(logs)

    def on_predict_end(self, logs=None):
        self._finalize(None)

    def _update(self, batch, logs):
        if self.progbar is None:
            self._start()
        self.seen = batch if self.use_steps else self.seen + batch
        if self.verbose == 1:
            self.progbar._update_stateful_metrics(self._stateful())
            self.progbar.update(self.seen, _values(logs), finalize=False)

    def _finalize(self, logs):
        if self.progbar is None:
            self._start()
        self.progbar._update_stateful_metrics(self._stateful())
        if self.progbar.target is None:
            self.progbar.target = self.seen
        self.progbar.update(self.progbar.target, _values(logs), finalize=True)


def _values(logs):
    """Logs as ``(name, number)`` pairs for the progress bar."""
    pairs = []
    for key, value in (logs or {}).items():
        if hasattr(value, "numpy"):
            value = value.numpy()
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value.item()
        pairs.append((key, value))
    return pairs
