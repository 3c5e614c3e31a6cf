"""Callbacks: hooks `fit`, `evaluate` and `predict` call at each epoch and batch.

`CallbackList` calls the callbacks in order: the user's, then `History`, then
`ProgbarLogger`, so a callback that adds to the logs (``lr``) is recorded and
printed, and messages that start with a newline break the progress bar's
line as in Keras. Batch indices are 0-based. Batch hooks that no callback
overrides are not called at all.

>>> class Count(tf.keras.callbacks.Callback):
...     def on_epoch_end(self, epoch, logs=None):
...         print("epoch", epoch, sorted(logs))
>>> calls = tf.keras.callbacks.CallbackList([Count()])
>>> calls.on_epoch_end(0, {"loss": 0.5})
epoch 0 ['loss']
"""
import copy
import csv
import os
import re
import shutil
import time
from collections.abc import Iterable

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint.checkpoint import Checkpoint, CheckpointOptions, list_variables
from eagerflow._src.checkpoint.management import CheckpointManager, checkpoints_iterator, \
    latest_checkpoint
from eagerflow._src.core import errors
from eagerflow._src.core import nest
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras import backend
from eagerflow._src.keras.optimizers.optimizer import Optimizer
from eagerflow._src.keras.utils.io_utils import print_msg
from eagerflow._src.keras.utils.progbar import Progbar

__all__ = ["BaseLogger", "CSVLogger", "Callback", "CallbackList", "EarlyStopping", "History",
           "LambdaCallback", "LearningRateScheduler", "ModelCheckpoint", "ProgbarLogger",
           "ReduceLROnPlateau", "TensorBoard", "TerminateOnNaN"]

_logger = _log.logger


def _default(method):
    """Marks a `Callback` hook as the base class's no-op, so a `CallbackList` can skip it."""
    method._is_default = True
    return method


def _overridden(*hooks):
    return any(not getattr(hook, "_is_default", False) for hook in hooks)


def sync_to_numpy_or_python_type(structure):
    """`structure` with tensors as NumPy values and scalars as Python numbers.

    >>> sync_to_numpy_or_python_type({"loss": np.float32(0.5)})
    {'loss': 0.5}
    """
    def convert(value):
        if isinstance(value, Tensor):
            value = value.numpy()
        if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
            return value.item()
        return value
    return nest.map_structure(convert, structure)


@export("keras.callbacks.Callback")
class Callback:
    """Base class: override any `on_*` hook; `model` and `params` are set before training.

    `params` holds ``verbose``, ``epochs`` and ``steps``. With
    `_supports_tf_logs` True, a callback receives the logs as `fit` has them
    (possibly tensors) instead of Python numbers.
    """

    def __init__(self):
        self.validation_data = None
        self.model = None
        # `params` exists only once `set_params` ran (fit/evaluate/predict), as in Keras.
        self._supports_tf_logs = False

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    @_default
    def on_batch_begin(self, batch, logs=None):
        """A backwards-compatible alias of `on_train_batch_begin`."""

    @_default
    def on_batch_end(self, batch, logs=None):
        """A backwards-compatible alias of `on_train_batch_end`."""

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of an epoch of `fit`."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch of `fit`, with the epoch's (and validation) logs."""

    @_default
    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    @_default
    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    @_default
    def on_test_batch_begin(self, batch, logs=None):
        """Called before each batch of `evaluate` (and of validation in `fit`)."""

    @_default
    def on_test_batch_end(self, batch, logs=None):
        """Called after each batch of `evaluate`, with the metrics so far."""

    @_default
    def on_predict_batch_begin(self, batch, logs=None):
        """Called before each batch of `predict`."""

    @_default
    def on_predict_batch_end(self, batch, logs=None):
        """Called after each batch of `predict`, with ``{'outputs': ...}``."""

    def on_train_begin(self, logs=None):
        """Called when `fit` starts."""

    def on_train_end(self, logs=None):
        """Called when `fit` ends, with the last epoch's logs."""

    def on_test_begin(self, logs=None):
        """Called when `evaluate` (or validation) starts."""

    def on_test_end(self, logs=None):
        """Called when `evaluate` ends."""

    def on_predict_begin(self, logs=None):
        """Called when `predict` starts."""

    def on_predict_end(self, logs=None):
        """Called when `predict` ends."""

    def _implements_train_batch_hooks(self):
        return _overridden(self.on_batch_begin, self.on_batch_end, self.on_train_batch_begin,
                           self.on_train_batch_end)

    def _implements_test_batch_hooks(self):
        return _overridden(self.on_test_batch_begin, self.on_test_batch_end)

    def _implements_predict_batch_hooks(self):
        return _overridden(self.on_predict_batch_begin, self.on_predict_batch_end)


@export("keras.callbacks.CallbackList")
class CallbackList:
    """Calls each hook on every callback in order; adds `History` and the progress bar.

    Logs reach the callbacks as Python numbers unless all of them take tensors.
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None,
                 **params):
        self.callbacks = nest.flatten(callbacks) if callbacks else []
        self._history = next((c for c in self.callbacks if isinstance(c, History)), None)
        progbar = next((c for c in self.callbacks if isinstance(c, ProgbarLogger)), None)
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if progbar is None and add_progbar:
            self.callbacks.append(ProgbarLogger(count_mode="steps"))
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)
        # (as Keras, a callback whose __init__ did not call Callback's takes Python numbers)
        self._supports_tf_logs = all(getattr(c, "_supports_tf_logs", False)
                                     for c in self.callbacks)
        self._batch_hooks_support_tf_logs = all(
            getattr(c, "_supports_tf_logs", False) for c in self.callbacks
            if c._implements_train_batch_hooks() or c._implements_test_batch_hooks()
            or c._implements_predict_batch_hooks())
        self._calls_train_batch_hooks = any(
            c._implements_train_batch_hooks() for c in self.callbacks)
        self._calls_test_batch_hooks = any(
            c._implements_test_batch_hooks() for c in self.callbacks)
        self._calls_predict_batch_hooks = any(
            c._implements_predict_batch_hooks() for c in self.callbacks)

    def append(self, callback):
        self.callbacks.append(callback)

    def set_params(self, params):
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model):
        self.model = model
        if self._history is not None:
            model.history = self._history
        for callback in self.callbacks:
            callback.set_model(model)

    def __iter__(self):
        return iter(self.callbacks)

    def _process_logs(self, logs, is_batch_hook=False):
        if logs is None:
            return {}
        if self._supports_tf_logs or is_batch_hook and self._batch_hooks_support_tf_logs:
            return logs
        return sync_to_numpy_or_python_type(logs)

    def _call(self, hook, logs, *index):
        logs = self._process_logs(logs)
        for callback in self.callbacks:
            getattr(callback, hook)(*index, logs)

    def _call_batch(self, hook, batch, logs):
        logs = self._process_logs(logs, is_batch_hook=True)
        for callback in self.callbacks:
            getattr(callback, hook)(batch, logs)

    def on_train_batch_begin(self, batch, logs=None):
        if self._calls_train_batch_hooks:
            self._call_batch("on_train_batch_begin", batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        if self._calls_train_batch_hooks:
            self._call_batch("on_train_batch_end", batch, logs)

    on_batch_begin = on_train_batch_begin
    on_batch_end = on_train_batch_end

    def on_test_batch_begin(self, batch, logs=None):
        if self._calls_test_batch_hooks:
            self._call_batch("on_test_batch_begin", batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if self._calls_test_batch_hooks:
            self._call_batch("on_test_batch_end", batch, logs)

    def on_predict_batch_begin(self, batch, logs=None):
        if self._calls_predict_batch_hooks:
            self._call_batch("on_predict_batch_begin", batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        if self._calls_predict_batch_hooks:
            self._call_batch("on_predict_batch_end", batch, logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", logs, epoch)

    def on_epoch_end(self, epoch, logs=None):
        self._call("on_epoch_end", logs, epoch)

    def on_train_begin(self, logs=None):
        self._call("on_train_begin", logs)

    def on_train_end(self, logs=None):
        self._call("on_train_end", logs)

    def on_test_begin(self, logs=None):
        self._call("on_test_begin", logs)

    def on_test_end(self, logs=None):
        self._call("on_test_end", logs)

    def on_predict_begin(self, logs=None):
        self._call("on_predict_begin", logs)

    def on_predict_end(self, logs=None):
        self._call("on_predict_end", logs)


@export("keras.callbacks.BaseLogger")
class BaseLogger(Callback):
    """Averages the batch logs over each epoch, weighted by each batch's ``size`` entry.

    Values named in `stateful_metrics` are taken as last logged.

    >>> logger = tf.keras.callbacks.BaseLogger()
    >>> logger.set_params({"metrics": ["loss"]})
    >>> logger.on_epoch_begin(0)
    >>> logger.on_batch_end(0, {"size": 2, "loss": 1.0})
    >>> logger.on_batch_end(1, {"size": 2, "loss": 3.0})
    >>> logs = {}
    >>> logger.on_epoch_end(0, logs)
    >>> logs["loss"]
    2.0
    """

    def __init__(self, stateful_metrics=None):
        super().__init__()
        self.stateful_metrics = set(stateful_metrics or [])
        self.seen = 0
        self.totals = {}

    def on_epoch_begin(self, epoch, logs=None):
        self.seen = 0
        self.totals = {}

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        size = logs.get("size", 0)
        self.seen += size * logs.get("num_steps", 1)
        for key, value in logs.items():
            if key in self.stateful_metrics:
                self.totals[key] = value
            else:
                self.totals[key] = self.totals.get(key, 0) + value * size

    def on_epoch_end(self, epoch, logs=None):
        if logs is None:
            return
        # Keras 1's params listed the metrics; without that list every logged value but the
        # batch bookkeeping is averaged.
        metrics = getattr(self, "params", {}).get("metrics") or [
            key for key in self.totals if key not in ("batch", "size", "num_steps")]
        for key in metrics:
            if key in self.stateful_metrics:
                logs[key] = self.totals[key]
            elif key in self.totals:
                logs[key] = self.totals[key] / self.seen


@export("keras.callbacks.TerminateOnNaN")
class TerminateOnNaN(Callback):
    """Stops training at the first batch whose ``loss`` is NaN or infinite.

    >>> callback = tf.keras.callbacks.TerminateOnNaN()
    >>> callback.set_model(type("Model", (), {"stop_training": False})())
    >>> callback.on_batch_end(3, {"loss": float("nan")})
    Batch 3: Invalid loss, terminating training
    """

    def __init__(self):
        super().__init__()
        self._supports_tf_logs = True

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None:
            loss = sync_to_numpy_or_python_type(loss)
            if np.isnan(loss) or np.isinf(loss):
                print_msg(f"Batch {batch}: Invalid loss, terminating training")
                self.model.stop_training = True


@export("keras.callbacks.ProgbarLogger")
class ProgbarLogger(Callback):
    """Prints Keras's progress bar (``verbose=1``) or one line per epoch (``verbose=2``).

    `count_mode` is ``'steps'`` (what `fit` uses) or ``'samples'`` (counting
    the ``size`` entry of the batch logs). Values named in
    `stateful_metrics`, and the model's metrics, are shown as logged; the
    others are averaged over the epoch.
    """

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        self._supports_tf_logs = True
        if count_mode not in ("samples", "steps"):
            raise ValueError(f'Unknown `count_mode`: {count_mode}. Expected values are '
                             f'["samples", "steps"]')
        self.use_steps = count_mode == "steps"
        self.stateful_metrics = set(stateful_metrics or ())
        self.seen = self._steps = 0
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1
        self._call_batch_hooks = True
        self._called_in_fit = False  # validation inside fit prints nothing of its own

    def set_params(self, params):
        super().set_params(params)
        self.verbose = params["verbose"]
        self.epochs = params["epochs"]
        self.target = params.get("steps") if self.use_steps else params.get("samples")
        # verbose=2 prints at epoch ends only; an unknown target is counted batch by batch.
        self._call_batch_hooks = self.verbose == 1 or self.target is None

    def _implements_train_batch_hooks(self):
        return self._call_batch_hooks

    def _implements_test_batch_hooks(self):
        return self._call_batch_hooks

    def _implements_predict_batch_hooks(self):
        return self._call_batch_hooks

    def on_train_begin(self, logs=None):
        self._called_in_fit = True

    def on_epoch_begin(self, epoch, logs=None):
        self._reset_progbar()
        self._maybe_init_progbar()
        if self.verbose and self.epochs > 1:
            print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset_progbar()
            self._maybe_init_progbar()

    def on_predict_begin(self, logs=None):
        self._reset_progbar()
        self._maybe_init_progbar()

    def on_train_batch_end(self, batch, logs=None):
        self._batch_update_progbar(batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._batch_update_progbar(batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._batch_update_progbar(batch, None)  # the predictions are no metrics

    def on_epoch_end(self, epoch, logs=None):
        self._finalize_progbar(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize_progbar(logs)

    def on_predict_end(self, logs=None):
        self._finalize_progbar(logs)

    def _reset_progbar(self):
        self.seen = self._steps = 0
        self.progbar = None

    def _maybe_init_progbar(self):
        # The model's metrics may only exist after the first step built them.
        if self.model is not None:
            self.stateful_metrics.update(m.name for m in self.model.metrics)
        if self.progbar is None:
            self.progbar = Progbar(target=self.target, verbose=self.verbose,
                                   stateful_metrics=self.stateful_metrics,
                                   unit_name="step" if self.use_steps else "sample")
        self.progbar._update_stateful_metrics(self.stateful_metrics)

    def _batch_update_progbar(self, batch, logs):
        logs = logs or {}
        self._maybe_init_progbar()
        self._steps = batch + 1  # (Keras's step counter of the model)
        if self.use_steps:
            self.seen = batch + 1
        else:
            logs = copy.copy(logs)
            size = logs.pop("size", 0)
            self.seen += logs.pop("num_steps", 1) * size
            logs.pop("batch", None)
        if self.verbose == 1:
            logs = sync_to_numpy_or_python_type(logs)
            self.progbar.update(self.seen, list(logs.items()), finalize=False)

    def _finalize_progbar(self, logs):
        logs = sync_to_numpy_or_python_type(logs or {})
        if self.target is None:
            # As Keras: the steps run, in samples the steps times the logged batch size
            steps = self._steps * (1 if self.use_steps else logs.get("size", 1))
            self.target = steps or self.seen
            self.progbar.target = self.target
        self.progbar.update(self.target, list(logs.items()), finalize=True)


@export("keras.callbacks.History")
class History(Callback):
    """Records each epoch's logs in `history` (``{'loss': [...], ...}``); `fit` returns it."""

    def __init__(self):
        super().__init__()
        self.history = {}  # (`epoch` comes with training, as in Keras)

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self


class _Monitor:
    """The quantity a callback watches: which way it improves, and its value in the logs.

    `maximize` decides ``'auto'`` mode from the quantity's name: each callback
    keeps Keras's own rule. `delta` is the signed margin an improvement must
    pass (positive when maximizing).

    >>> monitor = _Monitor("EarlyStopping", "val_accuracy", "auto",
    ...                    lambda name: name.endswith("accuracy"), min_delta=0.1, missing="")
    >>> bool(monitor.better(0.9 - monitor.delta, 0.85)), monitor.worst
    (False, -inf)
    """

    def __init__(self, owner, monitor, mode, maximize, min_delta, missing):
        if mode not in ("auto", "min", "max"):
            _logger.warning(f"{owner} mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        self.monitor = monitor
        self.maximizes = mode == "max" or mode == "auto" and maximize(monitor)
        self.better = np.greater if self.maximizes else np.less
        self.delta = min_delta if self.maximizes else -min_delta
        self.worst = -np.inf if self.maximizes else np.inf
        self._missing = missing

    def value(self, logs):
        """The quantity in `logs`, or None (with a warning) when it is not there."""
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            _logger.warning(self._missing.format(monitor=self.monitor,
                                                 available=",".join(logs)))
        return value


@export("keras.callbacks.ModelCheckpoint")
class ModelCheckpoint(Callback):
    """Saves the model (or only its weights) every epoch, or every `save_freq` batches.

    `filepath` may hold ``{epoch}`` (1-based), ``{batch}`` and any logged
    value (``'w-{epoch:02d}-{val_loss:.2f}'``). With `save_best_only`, only a
    save whose `monitor` value beats the best so far (and
    `initial_value_threshold`) is written; `mode` says whether lower
    (``'min'``) or higher (``'max'``) is better (``'auto'``: higher when the
    name holds ``acc``). Whole models go to `.keras` archives, weights to
    `save_weights` files. `options` is checked as TF checks it, then ignored.

    >>> checkpoint = tf.keras.callbacks.ModelCheckpoint("best.weights", save_best_only=True,
    ...                                                 mode="min")
    >>> checkpoint.best
    inf
    """

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch", options=None,
                 initial_value_threshold=None, **kwargs):
        super().__init__()
        self._supports_tf_logs = True
        _check_save_options(options, save_weights_only, os.fspath(filepath))
        self.load_weights_on_restart = kwargs.get("load_weights_on_restart", False)
        if "load_weights_on_restart" in kwargs:
            _logger.warning("`load_weights_on_restart` argument is deprecated. Please use "
                            "`model.load_weights()` for loading weights before the start of "
                            "`model.fit()`.")
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f'Unrecognized save_freq: {save_freq}. Expected save_freq are '
                             f'"epoch" or integer')
        if "period" in kwargs:
            _logger.warning("`period` argument is deprecated. Please use `save_freq` to "
                            "specify the frequency in number of batches seen.")
        self.period = kwargs.get("period", 1)
        self.monitor = monitor
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self.epochs_since_last_save = 0
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = -1
        self._current_epoch = 0
        self._monitor = _Monitor(
            "ModelCheckpoint", monitor, mode,
            lambda name: "acc" in name or name.startswith("fmeasure"), 0,
            "Can save best model only with {monitor} available, skipping.")
        self.monitor_op = self._monitor.better
        self.best = self._monitor.worst if initial_value_threshold is None \
            else initial_value_threshold

    def _implements_train_batch_hooks(self):
        return self.save_freq != "epoch"

    def on_train_begin(self, logs=None):
        if not self.load_weights_on_restart:
            return
        found = _latest_file_matching(self.filepath)
        if found is None or not (os.path.exists(found) or not found.endswith(".h5") and
                                 os.path.exists(found + ".index")):
            return
        try:
            self.model.load_weights(found)
        except (OSError, ValueError) as e:
            raise ValueError(f"Error loading file from {found}. Reason: {e}") from None

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self.epochs_since_last_save += 1
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _should_save_on_batch(self, batch):
        """Counts batches across epochs (a batch index that goes back means a new epoch)."""
        if self.save_freq == "epoch":
            return False
        if batch <= self._last_batch_seen:
            self._batches_seen_since_last_saving += batch + 1
        else:
            self._batches_seen_since_last_saving += batch - self._last_batch_seen
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _save_model(self, epoch, batch, logs):
        if not isinstance(self.save_freq, int) and self.epochs_since_last_save < self.period:
            return
        logs = sync_to_numpy_or_python_type(logs or {})
        self.epochs_since_last_save = 0
        filepath = self._get_file_path(epoch, batch, logs)
        directory = os.path.dirname(filepath)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if not self.save_best_only:
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            self._save(filepath)
            return
        current = self._monitor.value(logs)
        if current is None:
            return
        if self.monitor_op(current, self.best):
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} "
                          f"to {current:.5f}, saving model to {filepath}")
            self.best = current
            self._save(filepath)
        elif self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from "
                      f"{self.best:.5f}")

    def _save(self, filepath):
        try:
            if self.save_weights_only:
                self.model.save_weights(filepath, overwrite=True)
            else:
                self.model.save(filepath, overwrite=True)
        except IsADirectoryError:
            raise OSError(f"Please specify a non-directory filepath for ModelCheckpoint. "
                          f"Filepath used is an existing directory: {filepath}") from None

    def _get_file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}") from None


def _check_save_options(options, save_weights_only, filepath):
    """TF's checks of ModelCheckpoint's `options`: checkpoint options for weights, SavedModel
    options (which a `.keras` archive refuses) for whole models."""
    from eagerflow._src.saved_model.api import SaveOptions  # noqa: PLC0415 (above Keras)
    if save_weights_only:
        if options is not None and not isinstance(options, CheckpointOptions):
            raise TypeError(f"If save_weights_only is True, then `options` must be either "
                            f"None or a tf.train.CheckpointOptions. Got {options}.")
        return
    if filepath.endswith(".keras") and options is not None:
        raise ValueError("The native TF-Keras format does not support the `options` "
                         "argument. Please remove the `options` argument, or use the "
                         "SavedModel format by removing the `.keras` extension from the "
                         "model filepath.")
    if options is not None and not isinstance(options, SaveOptions):
        raise TypeError(f"If save_weights_only is False, then `options` must be either None "
                        f"or a tf.saved_model.SaveOptions. Got {options}.")


def _latest_file_matching(pattern):
    """The file a `ModelCheckpoint` path pattern (``w.{epoch:02d}.h5``) last wrote, as tf_keras
    finds it: the directory's latest TF checkpoint if it matches, else the most recently
    modified match (the greatest path among those modified last together); None if none."""
    directory = os.path.dirname(pattern)
    name = "^" + re.sub(r"{.*}", r".*", os.path.basename(pattern)) + "$"
    latest = latest_checkpoint(directory or ".")
    if latest is not None and re.match(name, os.path.basename(latest)):
        return latest
    if not os.path.isdir(directory or "."):
        return None
    found = [os.path.join(directory, f) for f in os.listdir(directory or ".")
             if re.match(name, f)]
    if not found:
        return None
    newest = max(os.path.getmtime(f) for f in found)
    return max(f for f in found if os.path.getmtime(f) == newest)


@export("keras.callbacks.EarlyStopping")
class EarlyStopping(Callback):
    """Stops training when `monitor` has not improved for `patience` epochs.

    An improvement must beat the best value by more than `min_delta`; `mode`
    says which way is better (``'auto'``: higher for names ending in
    ``acc``, ``accuracy`` or ``auc``). With `baseline`, the patience only
    resets on improvements that also beat the baseline. Epochs before
    `start_from_epoch` are not watched. With `restore_best_weights`, the
    weights of the best epoch are restored when training ends.

    >>> stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2)
    >>> stop.on_train_begin()
    >>> stop.set_model(type("Model", (), {"stop_training": False})())
    >>> for epoch, loss in enumerate([1.0, 0.5, 0.6, 0.7]):
    ...     stop.on_epoch_end(epoch, {"loss": loss})
    >>> stop.stopped_epoch, stop.best_epoch
    (3, 1)
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self._monitor = _Monitor(
            "EarlyStopping", monitor, mode,
            lambda name: name.endswith(("acc", "accuracy", "auc")), abs(min_delta),
            "Early stopping conditioned on metric `{monitor}` which is not available. "
            "Available metrics are: {available}")
        self.monitor_op = self._monitor.better
        self.min_delta = self._monitor.delta
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights = None  # `best` and `best_epoch` only exist once training begins

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = self._monitor.worst
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            # Until something improves, the first watched epoch counts as the best.
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_msg(f"Restoring model weights from the end of the best epoch: "
                          f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        return self._monitor.value(logs)

    def _is_improvement(self, value, reference):
        return self._monitor.better(value - self._monitor.delta, reference)


@export("keras.callbacks.LearningRateScheduler")
class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate at each epoch's start to `schedule(epoch, lr)`
    (or `schedule(epoch)`), and logs it as ``lr``.

    >>> scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5)
    """

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        if not hasattr(optimizer, "lr"):
            raise ValueError('Optimizer must have a "lr" attribute.')
        try:  # a schedule taking only the epoch raises TypeError when given the rate
            lr = self.schedule(epoch, float(backend.get_value(optimizer.lr)))
        except TypeError:
            lr = self.schedule(epoch)
        if not isinstance(lr, (Tensor, float, np.float32, np.float64)):
            raise ValueError(f'The output of the "schedule" function should be float. '
                             f"Got: {lr}")
        if isinstance(lr, Tensor) and not lr.dtype.is_floating:
            raise ValueError(f"The dtype of `lr` Tensor should be float. Got: {lr.dtype}")
        backend.set_value(optimizer.lr, lr)
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to "
                      f"{lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = backend.get_value(self.model.optimizer.lr)


@export("keras.callbacks.ReduceLROnPlateau")
class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` when `monitor` has not improved for
    `patience` epochs, then waits `cooldown` epochs; never below `min_lr`.

    An improvement must beat the best value by more than `min_delta`; `mode`
    says which way is better (``'auto'``: higher when the name holds ``acc``).
    The current rate is logged as ``lr``.

    >>> reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.2, patience=5,
    ...                                               min_lr=0.001)
    """

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got {factor}")
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
            _logger.warning("`epsilon` argument is deprecated and will be removed, use "
                            "`min_delta` instead.")
        self.monitor = monitor
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.mode = mode
        self._reset()

    def _reset(self):
        self._monitor = _Monitor(
            "Learning rate reduction", self.monitor, self.mode, lambda name: "acc" in name,
            self.min_delta,
            "Learning rate reduction is conditioned on metric `{monitor}` which is not "
            "available. Available metrics are: {available}")
        # As Keras: whether the first value improves on the second by more than min_delta
        self.monitor_op = lambda a, b: self._monitor.better(a, b + self._monitor.delta)
        self.best = self._monitor.worst
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["lr"] = backend.get_value(self.model.optimizer.lr)
        current = self._monitor.value(logs)
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce(epoch)

    def _reduce(self, epoch):
        old_lr = backend.get_value(self.model.optimizer.lr)
        if old_lr > np.float32(self.min_lr):
            # float32 arithmetic, as the message Keras prints comes out of it.
            new_lr = max(old_lr * self.factor, self.min_lr)
            backend.set_value(self.model.optimizer.lr, new_lr)
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to "
                          f"{new_lr}.")
            self.cooldown_counter = self.cooldown
            self.wait = 0

    def in_cooldown(self):
        return self.cooldown_counter > 0


@export("keras.callbacks.CSVLogger")
class CSVLogger(Callback):
    """Writes one CSV row per epoch (``epoch`` then the logs, sorted by name) to `filename`.

    With `append`, rows are added to an existing file (without a second
    header).

    >>> logger = tf.keras.callbacks.CSVLogger("training.log", separator=";")
    """

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        self.filename = os.fspath(filename)
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None

    def on_train_begin(self, logs=None):
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as f:
                self.append_header = not f.readline()
        # newline="": the csv module writes its own "\r\n" row endings.
        try:
            self.csv_file = open(self.filename, "a" if self.append else "w", newline="")
        except FileNotFoundError:  # (TF's file system's error: tf_keras opens it with GFile)
            raise errors.NotFoundError(None, None, f"{self.filename}; No such file or "
                                                   f"directory") from None

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            # Without validation in the first epoch, Keras still makes room for it.
            if not any(key.startswith("val_") for key in self.keys):
                self.keys += ["val_" + key for key in self.keys]
        if self.writer is None:
            dialect = type("Dialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys,
                                         dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((key, _csv_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        self.csv_file.close()
        self.writer = None


def _csv_value(value):
    """A CSV cell: sequences as ``"[1, 2]"``, everything else as is."""
    if isinstance(value, str) or isinstance(value, np.ndarray) and value.ndim == 0:
        return value
    if isinstance(value, Iterable):
        return f'"[{", ".join(map(str, value))}]"'
    return value


@export("keras.callbacks.LambdaCallback")
class LambdaCallback(Callback):
    """A callback made of the given functions: ``on_epoch_end(epoch, logs)``,
    ``on_batch_end(batch, logs)``, ``on_train_begin(logs)``, ...; other hooks
    (``on_test_end=...``) may be passed by keyword too.

    >>> callback = tf.keras.callbacks.LambdaCallback(
    ...     on_epoch_end=lambda epoch, logs: print(epoch, logs))
    >>> callback.on_epoch_end(0, {"loss": 0.5})
    0 {'loss': 0.5}
    """

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None,
                 on_batch_end=None, on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        hooks = {"on_epoch_begin": on_epoch_begin, "on_epoch_end": on_epoch_end,
                 "on_batch_begin": on_batch_begin, "on_batch_end": on_batch_end,
                 "on_train_begin": on_train_begin, "on_train_end": on_train_end}
        self.__dict__.update((name, hook) for name, hook in hooks.items() if hook is not None)


@export("keras.callbacks.RemoteMonitor")
class RemoteMonitor(Callback):
    """Sends each epoch's logs to a server: an HTTP POST to ``root + path`` of the logs (with
    ``epoch``) as JSON, under form field `field`, or as the request's JSON body with
    `send_as_json`; `headers` are added. A server that cannot be reached is logged, as
    tf_keras logs it.

    >>> monitor = tf.keras.callbacks.RemoteMonitor()
    >>> monitor.root + monitor.path
    'http://localhost:9000/publish/epoch/end/'
    """

    def __init__(self, root="http://localhost:9000", path="/publish/epoch/end/", field="data",
                 headers=None, send_as_json=False):
        super().__init__()
        self.root = root
        self.path = path
        self.field = field
        self.headers = headers
        self.send_as_json = send_as_json

    def on_epoch_end(self, epoch, logs=None):
        import json  # noqa: PLC0415
        import urllib.error  # noqa: PLC0415
        import urllib.parse  # noqa: PLC0415
        import urllib.request  # noqa: PLC0415
        send = {"epoch": epoch}
        for key, value in (logs or {}).items():
            send[key] = value.item() if isinstance(value, (np.ndarray, np.generic)) else value
        headers = dict(self.headers or {})
        if self.send_as_json:
            body = json.dumps(send).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        else:
            body = urllib.parse.urlencode({self.field: json.dumps(send)}).encode("utf-8")
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        request = urllib.request.Request(self.root + self.path, data=body, headers=headers,
                                         method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10):
                pass
        except urllib.error.HTTPError:
            pass  # (an answer, whatever its status: as tf_keras, whose post does not check it)
        except (urllib.error.URLError, OSError, ValueError):
            _logger.warning("Warning: could not reach RemoteMonitor root server at "
                            + str(self.root))


def _summary():
    """`eagerflow._src.summary` (loaded on first use: it loads protobuf)."""
    from eagerflow._src import summary  # noqa: PLC0415
    return summary


def _text_escape(text):
    """`text` as a string of protobuf's text format (C escapes, UTF-8 bytes in octal)."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in "\"'\\":
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif char == "\r":
            out.append("\\r")
        elif 32 <= byte < 127:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return "".join(out)


_TENSORBOARD_LEGACY_ARGS = ("write_grads", "embeddings_layer_names", "embeddings_data",
                            "batch_size")


@export("keras.callbacks.BackupAndRestore", "keras.callbacks.experimental.BackupAndRestore")
class BackupAndRestore(Callback):
    """Backs up the model, its optimizer and the epoch reached into `backup_dir` during
    `fit`, so that a `fit` interrupted (an exception, a killed process) and run again with
    this callback resumes after the last finished epoch instead of starting over.

    `save_freq` is "epoch" or a number of batches (an interrupted epoch is then redone from
    its start). The backup is deleted when `fit` finishes, unless `delete_checkpoint` is
    False.
    """

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True,
                 save_before_preemption=False):
        super().__init__()
        self.backup_dir, self.save_freq = backup_dir, save_freq
        self.delete_checkpoint = delete_checkpoint
        self.save_before_preemption = save_before_preemption
        if not save_freq and not save_before_preemption:
            raise ValueError("Either `save_freq` or `save_before_preemption` must be set.")
        self._supports_tf_logs = True
        # (TF's count of batches since the last backup, kept from one `fit` to the next)
        self._batches_since_save, self._last_batch_seen = 0, -1

    def on_train_begin(self, logs=None):
        if not self.model.built:  # (its variables are restored once they are made)
            _logger.warning("To use the BackupAndRestore callback, the model must be built "
                            "before `fit()` is called. Model %s is not built yet: build it "
                            "first by calling it on a batch of data.", self.model)
        # (TF's checkpoint: the epoch and batch last backed up)
        self._epoch = Variable(-1, dtype="int64", trainable=False)
        self._batch = Variable(-1, dtype="int64", trainable=False)
        self._checkpoint = Checkpoint(model=self.model, ckpt_saved_epoch=self._epoch,
                                      ckpt_saved_batch=self._batch)
        self._manager = CheckpointManager(self._checkpoint,
                                          os.path.join(self.backup_dir, "chief"), max_to_keep=1)
        if self._manager.latest_checkpoint:
            self._checkpoint.restore(self._manager.latest_checkpoint)
            epoch, batch = int(self._epoch.numpy()), int(self._batch.numpy())
            steps = (getattr(self, "params", None) or {}).get("steps")
            # `fit` reads these after on_train_begin: where TF resumes (an epoch backed up
            # in its middle goes on at its next batch, running its remaining steps)
            if self.save_freq == "epoch" or batch < 0:
                self.model._initial_epoch_from_backup = epoch + 1
            elif steps is not None and batch == steps - 1:
                self.model._initial_epoch_from_backup = epoch + 1
            else:
                self.model._initial_epoch_from_backup = epoch
                self.model._initial_step_from_backup = batch + 1

    def _save(self, epoch, batch=-1):
        self._epoch.assign(epoch)
        self._batch.assign(batch)
        self._manager.save()

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq and self.save_freq != "epoch":
            # (TF's count: a batch index not past the last one seen starts a new epoch)
            self._batches_since_save += batch + 1 if batch <= self._last_batch_seen \
                else batch - self._last_batch_seen
            self._last_batch_seen = batch
            if self._batches_since_save >= self.save_freq:
                self._batches_since_save = 0
                self._save(self._current_epoch, batch)

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_epoch_end(self, epoch, logs=None):
        if self.save_freq == "epoch":
            self._save(epoch)

    def on_train_end(self, logs=None):
        if self.delete_checkpoint:
            shutil.rmtree(os.path.join(self.backup_dir, "chief"), ignore_errors=True)
        del self._checkpoint, self._manager


@export("keras.callbacks.TensorBoard")
class TensorBoard(Callback):
    """Writes TensorBoard event files under `log_dir`: ``train/`` and ``validation/``.

    Each epoch's logs go as ``epoch_<name>`` scalars at step `epoch` (validation
    logs, without their ``val_`` prefix, to ``validation/``), with the learning
    rate (``epoch_learning_rate``) when it follows a schedule; with `update_freq`
    "batch" or an integer n, the batch logs go as ``batch_<name>`` every n steps
    (counted from 1 in each `fit`). `histogram_freq`: histograms of every weight
    every that many epochs (and images of them with `write_images`);
    `write_graph`: the model's config (``keras``) and the traced training step's
    graph. As in tf_keras, the batch logs and the graph are written only where the
    batch hooks run: with the progress bar (``verbose=1``), another callback with
    batch hooks, or `write_steps_per_second`. `evaluate` writes ``evaluation_<name>_vs_iterations`` to ``validation/``.
    `embeddings_freq`: the projector's ``projector_config.pbtxt`` (naming the first
    Embedding layer's table, with `embeddings_metadata`, a path or a dict by layer name)
    and, every that many epochs, the weights as ``train/keras_embedding.ckpt-<epoch>``.
    `profile_batch` (a batch, or a first and last batch, counted over the whole `fit`)
    profiles those batches (``tf.profiler.experimental``) into ``<log_dir>/plugins/profile``
    and writes the graphs they ran as ``batch_<last>``.

    >>> callback = tf.keras.callbacks.TensorBoard(log_dir="./logs", histogram_freq=1)
    """

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None, **kwargs):
        super().__init__()
        unrecognized = [k for k in kwargs if k not in _TENSORBOARD_LEGACY_ARGS]
        if unrecognized:
            raise ValueError(f"Unrecognized arguments in `TensorBoard` Callback: "
                             f"{unrecognized}")
        for key in kwargs:
            _logger.warning("`%s` is deprecated in the TensorBoard callback and is ignored.",
                            key)
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.profile_batch = profile_batch
        self._init_profile_batch(profile_batch)
        self.embeddings_freq = embeddings_freq
        self.embeddings_metadata = embeddings_metadata
        self._writers = {}
        self._graph_written = True
        self._batch_start = self._epoch_start = 0.0
        self._epoch_iterations = self._train_step = 0
        self._pushed = []  # (the writers made default while a loop runs)

    def set_model(self, model):
        self.model = model
        self._train_dir = os.path.join(self.log_dir, "train")
        self._val_dir = os.path.join(self.log_dir, "validation")
        self._writers = {}
        self._graph_written = not self.write_graph
        if self.write_graph:
            self._write_model_config()
        if self.embeddings_freq:
            self._configure_embeddings()

    def _init_profile_batch(self, profile_batch):
        """Checks `profile_batch` (an int, a pair, or ``"start,stop"``) as TF does."""
        message = (f"profile_batch must be a non-negative integer or 2-tuple of positive "
                   f"integers. A pair of positive integers signifies a range of batches to "
                   f"profile. Found: {profile_batch}")
        if isinstance(profile_batch, str):
            profile_batch = [int(part) for part in profile_batch.split(",")]
        if isinstance(profile_batch, int):
            start = stop = profile_batch
        elif isinstance(profile_batch, (tuple, list)) and len(profile_batch) == 2:
            start, stop = profile_batch
        else:
            raise ValueError(message)
        if start < 0 or stop < start:
            raise ValueError(message)
        self._start_batch, self._stop_batch = start, stop
        self._profiler_started = False  # (only the profiler this callback started is stopped)
        if start > 0:  # (tf_keras warms the profiler up)
            self._start_profiler(logdir="")
            self._stop_profiler(save=False)
        self._is_tracing = False
        self._global_train_batch = self._epoch = 0
        self._step_span = None  # the profile's span of the step running
        self._should_trace = bool(start or stop)

    def _start_profiler(self, logdir):
        if self._profiler_started:
            return
        try:
            _summary().profiler.start(logdir=logdir)
            self._profiler_started = True
        except errors.AlreadyExistsError as e:  # (profiling errors do not stop training)
            _logger.error("Failed to start profiler: %s", e.message)

    def _stop_profiler(self, save=True):
        if not self._profiler_started:
            return
        try:
            _summary().profiler.stop(save=save)
        except errors.UnavailableError as e:
            _logger.error("Failed to stop profiler: %s", e.message)
        finally:
            self._profiler_started = False

    def _start_trace(self):
        _summary().summary_ops.trace_on(graph=True, profiler=False)
        self._start_profiler(logdir=self.log_dir)
        self._is_tracing = True

    def _end_step_span(self):
        if self._step_span is not None:
            self._step_span.__exit__(None, None, None)
            self._step_span = None

    def _stop_trace(self):
        self._end_step_span()
        summary = _summary()
        with self._writer("train").as_default(), summary.writer.record_if(True):
            summary.summary_ops.trace_export(name=f"batch_{self._stop_batch}",
                                             step=self._stop_batch)
        self._stop_profiler()
        self._is_tracing = False

    def _configure_embeddings(self):
        """Writes ``projector_config.pbtxt``: the Embedding layers' tables for TensorBoard's
        projector (TF names the first weighted layer's, as Keras checkpoints have it)."""
        entries = []
        for layer in self.model.layers:
            # (by class name: callbacks come before the layers among Keras's modules)
            if any(c.__name__ == "Embedding" for c in type(layer).__mro__):
                entry = [("tensor_name",
                          "layer_with_weights-0/embeddings/.ATTRIBUTES/VARIABLE_VALUE")]
                if isinstance(self.embeddings_metadata, str):
                    entry.append(("metadata_path", self.embeddings_metadata))
                elif self.embeddings_metadata is not None and \
                        layer.name in self.embeddings_metadata:
                    entry.append(("metadata_path", self.embeddings_metadata.pop(layer.name)))
                entries.append(entry)
        if self.embeddings_metadata and not isinstance(self.embeddings_metadata, str):
            raise ValueError(f"Unrecognized `Embedding` layer names passed to "
                             f"`keras.callbacks.TensorBoard` `embeddings_metadata` argument: "
                             f"{self.embeddings_metadata.keys()}")
        text = "".join("embeddings {\n" + "".join(f'  {k}: "{_text_escape(v)}"\n'
                                                   for k, v in entry) + "}\n"
                       for entry in entries)
        os.makedirs(self.log_dir, exist_ok=True)
        with open(os.path.join(self.log_dir, "projector_config.pbtxt"), "w") as f:
            f.write(text)

    def _log_embeddings(self, epoch):
        self.model.save_weights(os.path.join(self.log_dir, "train",
                                             f"keras_embedding.ckpt-{epoch}"))

    def _writer(self, which):
        if which not in self._writers:
            folder = self._train_dir if which == "train" else self._val_dir
            self._writers[which] = _summary().writer.create_file_writer(folder)
        return self._writers[which]

    def _iterations(self):
        optimizer = getattr(self.model, "optimizer", None)
        iterations = getattr(optimizer, "iterations", None)
        return None if iterations is None else int(backend.get_value(iterations))

    def _write_model_config(self):
        """The model's JSON config (``keras``, TensorBoard's Keras model graph), for
        Sequential and functional models."""
        if not any(c.__name__ in ("Sequential", "Functional") for c in type(self.model).__mro__):
            return
        try:
            config = self.model.to_json()
        except Exception as e:  # noqa: BLE001 (a model that cannot say its config trains on)
            _logger.warning("Model failed to serialize as JSON. Ignoring... %s", e)
            return
        summary = _summary()
        metadata = summary.protos.SummaryMetadata(
            plugin_data=summary.protos.SummaryMetadata.PluginData(
                plugin_name="graph_keras_model", content=b"1"))
        with self._writer("train").as_default(), summary.writer.record_if(True):
            summary.summary_ops.write("keras", config, step=0, metadata=metadata)

    def _write_train_graph(self):
        self._graph_written = True
        traces = getattr(self.model.train_function, "_signatures", None)
        if traces:
            summary = _summary()
            with self._writer("train").as_default(), summary.writer.record_if(True):
                summary.summary_ops.graph(traces[-1].graph)

    def _implements_train_batch_hooks(self):
        # As tf_keras: the batch hooks (which write the graph and the batch scalars) ask
        # to be called only to profile or time steps; other callbacks may get them called
        return self.write_steps_per_second or self._should_trace

    def _push_writer(self, which, loop):
        """Makes `which` writer the default one while `loop` ("train" or "test") runs, as
        tf_keras does unless `update_freq` is "epoch": the summaries written inside the
        steps then go there, at the step count the loop began with (0), whenever that
        count is a multiple of `update_freq`."""
        if self.update_freq == "epoch":
            return
        counter_of = getattr(self.model, "_counter", None)
        if counter_of is None:
            return
        counter = counter_of(loop)
        freq = self.update_freq
        contexts = (self._writer(which).as_default(step=int(counter.numpy())),
                    _summary().writer.record_if(lambda: counter % freq == 0))
        for context in contexts:
            context.__enter__()
        self._pushed.append(contexts)

    def _pop_writer(self):
        if self._pushed:
            writer, recording = self._pushed.pop()
            recording.__exit__(None, None, None)
            writer.__exit__(None, None, None)

    def on_train_begin(self, logs=None):
        self._train_step = 0  # (as the model's train counter, from 0 in each fit)
        self._global_train_batch = 0
        self._push_writer("train", "train")

    def on_test_begin(self, logs=None):
        self._push_writer("validation", "test")

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1
        if self.write_steps_per_second:
            self._batch_start = time.time()
        if self._should_trace and self._global_train_batch == self._start_batch:
            self._start_trace()
        self._end_step_span()  # (a step that met the end of the data began, never ended)
        if self._is_tracing:  # (each profiled step a span of the profile, as tf_keras's)
            self._step_span = _summary().profiler.Trace(
                "train", epoch_num=self._epoch, step_num=batch, _r=1).__enter__()

    def on_train_batch_end(self, batch, logs=None):
        self._train_step += 1
        if not self._graph_written:
            self._write_train_graph()
        self._end_step_span()
        if self._is_tracing and self._global_train_batch >= self._stop_batch:
            self._stop_trace()
        if self.update_freq == "epoch":
            return
        step = self._train_step
        if step % self.update_freq:
            return
        ops = _summary().summary_ops
        with self._writer("train").as_default(step=step):
            if self.write_steps_per_second:
                ops.scalar("batch_steps_per_second", 1.0 / (time.time() - self._batch_start))
            for name, value in (logs or {}).items():
                if np.ndim(value) == 0:
                    ops.scalar("batch_" + name, value)

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch = epoch
        if self.write_steps_per_second:
            self._epoch_iterations = self._iterations() or 0
            self._epoch_start = time.time()

    def on_epoch_end(self, epoch, logs=None):
        self._log_epoch_metrics(epoch, logs)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)
        if self.embeddings_freq and epoch % self.embeddings_freq == 0:
            self._log_embeddings(epoch)

    def _log_epoch_metrics(self, epoch, logs):
        if not logs:
            return
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        optimizer = getattr(self.model, "optimizer", None)
        schedule = getattr(optimizer, "_learning_rate", None)
        if callable(schedule) and hasattr(schedule, "get_config"):  # a LearningRateSchedule
            train["learning_rate"] = schedule(optimizer.iterations)
        if self.write_steps_per_second:
            seconds = time.time() - self._epoch_start
            train["steps_per_second"] = ((self._iterations() or 0) - self._epoch_iterations) \
                / seconds if seconds > 0 else 0.0
        summary = _summary()
        with summary.writer.record_if(True):
            for which, values in (("train", train), ("validation", val)):
                if values:
                    with self._writer(which).as_default(step=epoch):
                        for name, value in values.items():
                            summary.summary_ops.scalar("epoch_" + name, value)

    def _log_weights(self, epoch):
        summary = _summary()
        with self._writer("train").as_default(step=epoch), summary.writer.record_if(True):
            for layer in self.model.layers:
                for weight in layer.weights:
                    if not isinstance(weight, Variable):  # (an adapted vocabulary)
                        continue
                    name = weight.name.replace(":", "_")
                    summary.summary_ops.histogram(name + "/histogram", weight)
                    if self.write_images:
                        self._log_weight_as_image(weight, name + "/image")
        self._writer("train").flush()

    def _log_weight_as_image(self, weight, name):
        """A weight as a grayscale image, as Keras shows them: vectors as one row, matrices
        wider than tall, 3-D kernels one image per output channel."""
        image = np.squeeze(np.asarray(backend.get_value(weight)))
        if image.ndim == 1:
            image = image.reshape(1, -1, 1, 1)
        elif image.ndim == 2:
            if image.shape[0] > image.shape[1]:
                image = image.T
            image = image.reshape(1, *image.shape, 1)
        elif image.ndim == 3:
            if backend.image_data_format() == "channels_last":
                image = np.transpose(image, (2, 0, 1))
            image = image.reshape(*image.shape, 1)
        if image.ndim == 4 and image.shape[-1] in (1, 3, 4):
            _summary().summary_ops.image(name, image)

    def on_test_end(self, logs=None):
        step = self._iterations()
        if step is not None and logs:
            summary = _summary()
            with summary.writer.record_if(True), \
                    self._writer("validation").as_default(step=step):
                for name, value in logs.items():
                    summary.summary_ops.scalar("evaluation_" + name + "_vs_iterations", value)
        self._pop_writer()

    def on_train_end(self, logs=None):
        self._pop_writer()
        if self._is_tracing:
            self._stop_trace()
        for writer in self._writers.values():
            writer.close()
        self._writers = {}


# -- SidecarEvaluator ----------------------------------------------------------------------
_ITERATIONS_UNINITIALIZED = -1
_CHECKPOINT_TIMEOUT_SEC = 30


@export("keras.utils.SidecarEvaluator")
class SidecarEvaluator:
    """Evaluates `model` on `data` (for `steps`) each time a training job writes a new
    checkpoint into `checkpoint_dir`, until the checkpoint numbered `max_evaluations` (or
    until none comes for 30 seconds); `callbacks` go to each `evaluate`.

    Checkpoints are those of ``tf.train.Checkpoint(model=..., optimizer=...)`` (a
    `CheckpointManager`) or `ModelCheckpoint` weights files.
    """

    def __init__(self, model, data, checkpoint_dir, steps=None, max_evaluations=None,
                 callbacks=None):
        self.model = model
        self.data = data
        self.checkpoint_dir = checkpoint_dir
        self._iterations = Variable(_ITERATIONS_UNINITIALIZED, name="iterations",
                                    dtype="int64")
        self.max_evaluations = max_evaluations
        self.steps = steps
        self.callbacks = callbacks or []

    def _timeout_fn(self):
        _logger.info(f"No checkpoints appear to be found after {_CHECKPOINT_TIMEOUT_SEC} "
                     f"seconds. Please check if you are properly using a "
                     f"`tf.train.Checkpoint/CheckpointManager` or "
                     f"`tf.keras.callbacks.ModelCheckpoint(save_weights_only=True)` to save "
                     f"checkpoints by the training. See `tf.keras.SidecarEvaluator` doc for "
                     f"recommended flows of saving checkpoints.")
        return False

    def start(self):
        """Evaluates each new checkpoint as it appears (blocking)."""
        new_optimizer = isinstance(self.model.optimizer, Optimizer)
        if self.model.optimizer and new_optimizer:
            checkpoint = Checkpoint(model=self.model, optimizer=self.model.optimizer)
        else:
            checkpoint = Checkpoint(model=self.model,
                                    optimizer=Checkpoint(iter=self._iterations))
        for latest in checkpoints_iterator(self.checkpoint_dir,
                                           timeout=_CHECKPOINT_TIMEOUT_SEC,
                                           timeout_fn=self._timeout_fn):
            try:
                checkpoint.restore(latest).expect_partial()
                if "model" not in {name.split("/")[0] for name, _ in list_variables(latest)}:
                    self.model.load_weights(latest)  # (a ModelCheckpoint weights file)
                if self.model.optimizer and not new_optimizer:
                    self.model.optimizer.iterations.assign(self._iterations)
            except errors.OpError as e:
                if isinstance(e, errors.UnavailableError):
                    raise
                _logger.info(f"SidecarEvaluator encountered an error when loading the "
                             f"checkpoint at {latest}. Retrying. Error: "
                             f"{e.__class__.__name__}: {e}")
                continue
            if int(self._iterations.numpy()) == _ITERATIONS_UNINITIALIZED and \
                    not new_optimizer:
                raise RuntimeError(f"Variable `iterations` cannot be loaded from the checkpoint "
                                   f"file at {self.checkpoint_dir}. Please ensure `iterations` "
                                   f"is included in the checkpoint saved during training.")
            _logger.info(f"Evaluation starts: Model weights loaded from latest checkpoint file "
                         f"{latest}")
            self.model.evaluate(self.data, steps=self.steps, callbacks=self.callbacks,
                                verbose=2)
            results = {}
            for metric in self.model.metrics:
                result = metric.result()
                results.update(result if isinstance(result, dict) else {metric.name: result})
            _logger.info("End of evaluation. Metrics: " + " ".join(
                f"{name}={np.asarray(value)}" for name, value in results.items()))
            if self.max_evaluations and \
                    self.max_evaluations <= int(latest.split("-")[-1]):
                _logger.info("Last checkpoint evaluated. SidecarEvaluator stops.")
                return


@export("keras.experimental.SidecarEvaluator")
class SidecarEvaluatorExperimental(SidecarEvaluator):
    """Deprecated name of `tf.keras.utils.SidecarEvaluator`."""

    def __init__(self, *args, **kwargs):
        _logger.warning("`tf.keras.experimental.SidecarEvaluator` endpoint is deprecated and "
                        "will be removed in a future release. Please use "
                        "`tf.keras.utils.SidecarEvaluator`.")
        super().__init__(*args, **kwargs)


@export("keras.callbacks.SidecarEvaluatorModelExport")
class SidecarEvaluatorModelExport(ModelCheckpoint):
    """A `SidecarEvaluator` callback saving the model (to `export_filepath`, which may hold
    ``{epoch}``: the number of the checkpoint evaluated, from those matching
    `checkpoint_filepath`) when an evaluation beats the best so far."""

    def __init__(self, export_filepath, checkpoint_filepath, **kwargs):
        super().__init__(filepath=export_filepath, save_best_only=True, **kwargs)
        self._checkpoint_filepath = checkpoint_filepath

    def on_test_begin(self, logs=None):
        found = _latest_file_matching(self._checkpoint_filepath)
        self.export_index = 0 if found is None else \
            int(re.match(r".*ckpt-(?P<ckpt>\d+)", found)["ckpt"]) - 1

    def on_test_end(self, logs=None):
        self.epochs_since_last_save += 1
        self._save_model(epoch=self.export_index, batch=None, logs=logs)
