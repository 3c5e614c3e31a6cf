"""Keras callbacks behave and print as tf_keras 2.21's.

The expected values (stopping epochs, restored weights, learning rates,
messages, files) were recorded by driving tf_keras with the same scripted
logs; `_drive` runs epochs whose weights mark the epoch number, so the
restored weights tell which epoch they came from.
"""
import contextlib
import io
import logging
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras import saving
from eagerflow.keras.utils import Progbar

callbacks = keras.callbacks

DIP = [1.0, 0.9, 0.95, 0.97, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9]
TINY_STEPS = [1.0, 0.9999, 0.9998, 0.99, 0.98999, 0.9898, 0.9897]
BOUNCE = [0.3, 0.5, 0.2, 0.2001, 0.1999, 0.25, 0.3, 0.35, 0.4]


def _model(lr=0.01):
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile(keras.optimizers.SGD(lr), "mse")
    return model


def _drive(callback, values, model=None, batches=0):
    """Runs epochs whose ``val_loss`` is `values[epoch]` (``val_acc`` is 1 minus it) and whose
    bias is the epoch number; returns (model, printed text)."""
    model = model or _model()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        calls = callbacks.CallbackList([callback], add_history=True, model=model, verbose=0,
                                       epochs=len(values), steps=batches or 1)
        model.stop_training = False
        calls.on_train_begin()
        logs = {}
        for epoch, value in enumerate(values):
            calls.on_epoch_begin(epoch)
            model.set_weights([np.full((2, 1), epoch, "float32"),
                               np.full((1,), epoch, "float32")])
            for batch in range(batches):
                calls.on_train_batch_begin(batch)
                calls.on_train_batch_end(batch, {"loss": value + batch / 10})
                if model.stop_training:
                    break
            logs = {"loss": value * 2, "val_loss": value, "val_acc": 1 - value}
            calls.on_epoch_end(epoch, logs)
            if model.stop_training:
                break
        calls.on_train_end(logs)
    return model, out.getvalue()


def _linear_data(n=20):
    x = np.linspace(-1, 1, 2 * n).reshape(n, 2).astype("float32")
    return x, (x[:, :1] * 2 + 1).astype("float32")


# -- CallbackList -----------------------------------------------------------------------

def test_callback_list_puts_history_then_progress_bar_after_the_users_callbacks():
    mine = callbacks.Callback()
    model = _model()
    calls = callbacks.CallbackList([[mine]], add_history=True, add_progbar=True, model=model,
                                   verbose=1, epochs=1, steps=1)
    kinds = [type(c) for c in calls]
    assert kinds == [callbacks.Callback, callbacks.History, callbacks.ProgbarLogger]
    assert model.history is calls.callbacks[1]
    assert mine.model is model and mine.params == {"verbose": 1, "epochs": 1, "steps": 1}


def test_logs_reach_callbacks_as_python_numbers_unless_they_take_tensors():
    seen = {}

    class Plain(callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen["plain"] = logs["loss"]

    class Raw(callbacks.Callback):
        def __init__(self):
            super().__init__()
            self._supports_tf_logs = True

        def on_train_batch_end(self, batch, logs=None):
            seen["raw"] = logs["loss"]

    loss = tf.constant(0.5)
    callbacks.CallbackList([Plain(), Raw()]).on_train_batch_end(0, {"loss": loss})
    assert type(seen["plain"]) is float and seen["raw"] == 0.5
    callbacks.CallbackList([Raw()]).on_train_batch_end(0, {"loss": loss})
    assert seen["raw"] is loss


def test_on_batch_hooks_are_the_train_batch_hooks():
    batches = []

    class Old(callbacks.Callback):
        def on_batch_end(self, batch, logs=None):
            batches.append(batch)

    calls = callbacks.CallbackList([Old()])
    calls.on_train_batch_end(0, {})
    calls.on_batch_end(1, {})
    calls.on_test_batch_end(2, {})
    assert batches == [0, 1]


def test_fit_gives_callbacks_0_based_batch_indices_and_the_last_logs_at_the_end():
    events = []
    spy = callbacks.LambdaCallback(
        on_batch_begin=lambda batch, logs: events.append(("begin", batch)),
        on_batch_end=lambda batch, logs: events.append(("end", batch, type(logs["loss"]))),
        on_train_end=lambda logs: events.append(("train_end", sorted(logs))))
    x, y = _linear_data()
    _model().fit(x, y, batch_size=8, epochs=1, verbose=0, callbacks=[spy],
                 validation_data=(x[:4], y[:4]))
    assert events == [("begin", 0), ("end", 0, float), ("begin", 1), ("end", 1, float),
                      ("begin", 2), ("end", 2, float), ("train_end", ["loss", "val_loss"])]


# -- ProgbarLogger and History ------------------------------------------------------------

def _progress(monkeypatch, verbose, steps):
    clock = iter(np.arange(0.0, 100.0, 0.25))
    monkeypatch.setattr(Progbar, "_time", staticmethod(lambda: float(next(clock))))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        calls = callbacks.CallbackList([callbacks.ProgbarLogger("steps")], verbose=verbose,
                                       epochs=2, steps=steps)
        calls.on_train_begin()
        for epoch in range(2):
            calls.on_epoch_begin(epoch)
            for batch in range(3):
                calls.on_train_batch_end(batch, {"loss": tf.constant(1.0 / (batch + 1 + epoch)),
                                                 "acc": 0.5})
            calls.on_test_begin()  # validation inside fit prints nothing
            calls.on_test_batch_end(0, {"loss": 9.0})
            calls.on_test_end({"loss": 9.0})
            calls.on_epoch_end(epoch, {"loss": 0.6, "acc": 0.5, "val_loss": 0.25})
        calls = callbacks.CallbackList([callbacks.ProgbarLogger("steps")], verbose=verbose,
                                       epochs=1, steps=steps)
        calls.on_test_begin()
        for batch in range(3):
            calls.on_test_batch_end(batch, {"loss": 2.0 * batch})
        calls.on_test_end({"loss": 2.0})
        calls.on_predict_begin()
        for batch in range(3):
            calls.on_predict_batch_end(batch, {"outputs": np.ones(2)})
        calls.on_predict_end()
    return out.getvalue()


def test_progress_bar_verbose_2_prints_one_line_per_epoch(monkeypatch):
    assert _progress(monkeypatch, 2, 3) == (
        "Epoch 1/2\n3/3 - 0s - loss: 0.6000 - acc: 0.5000 - val_loss: 0.2500 - 250ms/epoch - "
        "83ms/step\nEpoch 2/2\n3/3 - 0s - loss: 0.6000 - acc: 0.5000 - val_loss: 0.2500 - "
        "250ms/epoch - 83ms/step\n3/3 - 0s - loss: 2.0000 - 250ms/epoch - 83ms/step\n"
        "3/3 - 0s - 250ms/epoch - 83ms/step\n")


@pytest.mark.parametrize("steps", [3, None])
def test_progress_bar_verbose_1_redraws_per_batch(monkeypatch, steps):
    lines = [line.rstrip("\b ") for line in _progress(monkeypatch, 1, steps).split("\r")]
    unknown = steps is None  # the first epoch counts its steps; the next ones know them
    assert lines[0] == "Epoch 1/2\n"
    assert lines[1] == ("      1/Unknown - 0s 250ms/step" if unknown else
                        "1/3 [=========>....................] - ETA: 0s") + \
        " - loss: 1.0000 - acc: 0.5000"
    assert lines[4] == ("3/3 [==============================] - 1s 375ms/step - loss: 0.6083 - "
                        "acc: 0.5000 - val_loss: 0.2500\nEpoch 2/2\n")
    assert lines[6] == "2/3 [===================>..........] - ETA: 0s - loss: 0.4167 - acc: 0.5000"
    assert lines[-5] == "3/3 [==============================] - 1s 375ms/step - loss: 2.0000\n"
    assert lines[-1] == "3/3 [==============================] - 1s 375ms/step\n"


@pytest.mark.parametrize("verbose", [1, 2])
def test_progress_bar_counting_samples_takes_its_target_from_the_steps_run(monkeypatch,
                                                                             verbose):
    # As tf_keras: without `size` in the logs nothing is counted, so the target is the
    # number of steps the epoch ran (kept for the next epochs)
    clock = iter(np.arange(0.0, 100.0, 0.25))
    monkeypatch.setattr(Progbar, "_time", staticmethod(lambda: float(next(clock))))
    x, y = _linear_data()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        _model().fit(x, y, batch_size=8, epochs=2, verbose=verbose,
                     callbacks=[callbacks.ProgbarLogger()])
        _model().predict(x, batch_size=8, verbose=verbose, callbacks=[callbacks.ProgbarLogger()])
    lines = [line.rstrip("\b ") for line in out.getvalue().replace("\r", "\n").split("\n")]
    if verbose == 2:
        assert lines[1].startswith("3/3 - 0s - loss: ")
        assert lines[1].endswith(" - 250ms/epoch - 83ms/sample")
        assert lines[3].startswith("3/3 - 0s - loss: ")
        assert lines[4] == "3/3 - 0s - 250ms/epoch - 83ms/sample"
    else:
        assert lines[2].startswith("      0/Unknown - 0s 0s/sample - loss: ")
        assert lines[5].startswith("3/3 [==============================] - 1s 333ms/sample - loss")
        assert lines[8].startswith("0/3 [..............................] - ETA: 0s - loss: ")
        assert lines[-2] == "3/3 [==============================] - 1s 333ms/sample"


def test_history_records_every_epoch():
    model, _ = _drive(callbacks.Callback(), [0.5, 0.25])
    assert model.history.epoch == [0, 1]
    assert model.history.history == {"loss": [1.0, 0.5], "val_loss": [0.5, 0.25],
                                     "val_acc": [0.5, 0.75]}


def test_base_logger_averages_by_batch_size():
    logger = callbacks.BaseLogger(stateful_metrics=["acc"])
    logger.on_epoch_begin(0)
    logger.on_batch_end(0, {"size": 1, "loss": 1.0, "acc": 0.2})
    logger.on_batch_end(1, {"size": 3, "loss": 3.0, "acc": 0.7})
    logs = {}
    logger.on_epoch_end(0, logs)
    assert logs == {"loss": 2.5, "acc": 0.7}


# -- EarlyStopping ------------------------------------------------------------------------

@pytest.mark.parametrize("config, values, stopped, best_epoch, bias, epochs, printed", [
    (dict(patience=2, restore_best_weights=True), DIP, 3, 1, 1.0, 4, ""),
    (dict(patience=2, restore_best_weights=True), TINY_STEPS, 0, 6, 6.0, 7, ""),
    (dict(patience=2, restore_best_weights=True), BOUNCE, 6, 4, 4.0, 7, ""),
    (dict(patience=1, min_delta=0.05, restore_best_weights=True), DIP, 2, 1, 1.0, 3, ""),
    (dict(patience=1, min_delta=0.05, restore_best_weights=True), TINY_STEPS, 1, 0, 0.0, 2,
     ""),
    (dict(patience=3, baseline=0.5, restore_best_weights=True), DIP, 2, 1, 1.0, 3, ""),
    (dict(patience=3, baseline=0.5, restore_best_weights=True), BOUNCE, 7, 4, 4.0, 8, ""),
    (dict(patience=2, start_from_epoch=3, restore_best_weights=True), DIP, 6, 4, 4.0, 7, ""),
    (dict(patience=0, min_delta=-0.01, verbose=1, restore_best_weights=True), DIP, 2, 1, 1.0,
     3, "Epoch 3: early stopping\nRestoring model weights from the end of the best epoch: 2.\n"),
    (dict(patience=2, min_delta=0.0001, verbose=1), DIP, 3, 1, 3.0, 4,
     "Epoch 4: early stopping\n"),
    (dict(patience=2, min_delta=0.0001, verbose=1), TINY_STEPS, 0, 5, 6.0, 7, ""),
    (dict(patience=2, min_delta=0.0001, verbose=1), BOUNCE, 6, 4, 6.0, 7,
     "Epoch 7: early stopping\n"),
])
def test_early_stopping_matches_tf_keras(config, values, stopped, best_epoch, bias, epochs,
                                         printed):
    stop = callbacks.EarlyStopping(**config)
    model, out = _drive(stop, values)
    assert (stop.stopped_epoch, stop.best_epoch) == (stopped, best_epoch)
    assert model.get_weights()[1][0] == bias  # which epoch's weights the model ends with
    assert model.history.epoch == list(range(epochs))
    assert out == printed


def test_early_stopping_auto_mode_follows_the_metric_name():
    for monitor, maximizes in [("val_acc", True), ("val_accuracy", True), ("auc", True),
                               ("val_loss", False), ("val_acc_loss", False)]:
        assert (callbacks.EarlyStopping(monitor).monitor_op is np.greater) == maximizes
    assert callbacks.EarlyStopping("val_accuracy", mode="min").monitor_op is np.less
    stop = callbacks.EarlyStopping("val_acc", patience=2)
    _drive(stop, DIP)  # val_acc = 1 - val_loss: it peaks at epoch 1
    assert (stop.stopped_epoch, stop.best_epoch) == (3, 1)


def test_early_stopping_warns_about_a_missing_metric_and_a_bad_mode(caplog):
    with caplog.at_level(logging.WARNING, "eagerflow"):
        stop = callbacks.EarlyStopping("val_lost", mode="smallest")
        _drive(stop, [1.0])
    assert [r.getMessage() for r in caplog.records] == [
        "EarlyStopping mode smallest is unknown, fallback to auto mode.",
        "Early stopping conditioned on metric `val_lost` which is not available. Available "
        "metrics are: loss,val_loss,val_acc"]


def test_early_stopping_in_fit_restores_the_best_epoch():
    x, y = _linear_data()
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,),
                                                 kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(0.5), "mse")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        history = model.fit(x, y, batch_size=20, epochs=20, verbose=0, shuffle=False,
                            validation_data=(x[::3], y[::3] + 0.3),
                            callbacks=[callbacks.EarlyStopping(patience=2, verbose=1,
                                                               restore_best_weights=True)])
    assert out.getvalue() == ("Epoch 5: early stopping\n"
                              "Restoring model weights from the end of the best epoch: 3.\n")
    assert history.epoch == [0, 1, 2, 3, 4]
    np.testing.assert_allclose(model.get_weights()[0].ravel(), [0.94858, 0.99717], atol=1e-5)


# -- ReduceLROnPlateau and LearningRateScheduler -------------------------------------------

@pytest.mark.parametrize("monitor, mode, best", [("val_loss", "auto", np.inf),
                                                 ("val_acc", "auto", -np.inf),
                                                 ("val_auc", "auto", np.inf),
                                                 ("loss", "max", -np.inf)])
def test_reduce_on_plateau_has_keras_monitor_op_before_training(monitor, mode, best):
    # As Keras ('auto' maximizes names holding "acc" only): improves by more than min_delta
    reduce = callbacks.ReduceLROnPlateau(monitor=monitor, mode=mode, min_delta=0.1)
    assert reduce.best == best
    maximizes = best < 0
    assert bool(reduce.monitor_op(0.55, 0.5)) is False
    assert bool(reduce.monitor_op(0.65, 0.5)) is maximizes
    assert bool(reduce.monitor_op(0.35, 0.5)) is not maximizes


@pytest.mark.parametrize("config, values, rates, printed", [
    (dict(patience=2, factor=0.5), DIP,
     [0.01] * 4 + [0.005] * 3 + [0.0025] * 2 + [0.00125],
     [(4, "0.004999999888241291"), (7, "0.0024999999441206455"),
      (9, "0.0012499999720603228")]),
    (dict(patience=1, factor=0.5, cooldown=2), BOUNCE,
     [0.01, 0.01, 0.005, 0.005, 0.0025, 0.0025, 0.00125, 0.00125, 0.000625], None),
    (dict(patience=1, factor=0.1, min_lr=0.0005), DIP,
     [0.01] * 3 + [0.001] + [0.0005] * 6,
     [(3, "0.0010000000474974513"), (4, "0.0005")]),
    (dict(patience=1, factor=0.3, min_delta=0.01), BOUNCE,
     [0.01, 0.01, 0.003, 0.003, 0.00090000004, 0.00027000002, 8.1000006e-05, 2.4300003e-05,
      7.290001e-06], None),
    (dict(patience=0, factor=0.7, mode="max"), [1.0, 1.0, 1.0],
     [0.01, 0.01, 0.0069999998], [(2, "0.00699999975040555"), (3, "0.004899999592453241")]),
    (dict(patience=1, factor=0.5, min_lr=0.01), DIP, [0.01] * 10, []),
])
def test_reduce_lr_on_plateau_matches_tf_keras(config, values, rates, printed):
    reduce = callbacks.ReduceLROnPlateau(verbose=1, **config)
    model, out = _drive(reduce, values)
    lr = model.history.history["lr"]
    assert all(type(r) is np.float32 for r in lr)
    assert lr == [np.float32(r) for r in rates]
    if printed is not None:
        assert out == "".join(f"\nEpoch {epoch}: ReduceLROnPlateau reducing learning rate to "
                              f"{rate}.\n" for epoch, rate in printed)


def test_reduce_lr_on_plateau_rejects_a_factor_of_one():
    with pytest.raises(ValueError, match="does not support a factor >= 1.0. Got 1.0"):
        callbacks.ReduceLROnPlateau(factor=1.0)


@pytest.mark.parametrize("schedule, rates, printed", [
    (lambda epoch, lr: lr * 0.5, [0.005, 0.0025],
     ["0.004999999888241291", "0.0024999999441206455"]),
    (lambda epoch: 0.1 / (epoch + 1), [0.1, 0.05], ["0.1", "0.05"]),
    (lambda epoch, lr: lr * tf.math.exp(-0.1), [0.009048374, 0.008187308],
     ["0.009048374369740486", "0.008187307976186275"]),
])
def test_learning_rate_scheduler_sets_and_logs_the_rate(schedule, rates, printed):
    model, out = _drive(callbacks.LearningRateScheduler(schedule, verbose=1), [1.0, 1.0])
    assert model.history.history["lr"] == [np.float32(r) for r in rates]
    assert out == "".join(f"\nEpoch {epoch}: LearningRateScheduler setting learning rate to "
                          f"{rate}.\n" for epoch, rate in enumerate(printed, 1))


def test_learning_rate_scheduler_wants_a_float():
    with pytest.raises(ValueError, match='The output of the "schedule" function should be '
                                         'float. Got: 1'):
        _drive(callbacks.LearningRateScheduler(lambda epoch, lr: 1), [1.0])


# -- ModelCheckpoint ------------------------------------------------------------------------

def _checkpoint(tmp_path, monkeypatch, values, batches=0, **config):
    monkeypatch.chdir(tmp_path)
    checkpoint = callbacks.ModelCheckpoint(**config)
    model, out = _drive(checkpoint, values, batches=batches)
    files = sorted(os.path.relpath(os.path.join(root, name), tmp_path)
                   for root, _, names in os.walk(tmp_path) for name in names)
    return checkpoint, model, out, files


def _tf_checkpoints(*prefixes):
    """The files of TF checkpoints written by `save_weights` with these prefixes."""
    files = {os.path.join(os.path.dirname(p), "checkpoint") for p in prefixes}
    for p in prefixes:
        files |= {p + ".index", p + ".data-00000-of-00001"}
    return sorted(files)


def test_model_checkpoint_saves_the_best_weights(tmp_path, monkeypatch):
    checkpoint, model, out, files = _checkpoint(
        tmp_path, monkeypatch, DIP[:6], filepath="best-{epoch:02d}-{val_loss:.2f}.ckpt",
        save_best_only=True, save_weights_only=True, verbose=1)
    assert out == (
        "\nEpoch 1: val_loss improved from inf to 1.00000, saving model to best-01-1.00.ckpt\n"
        "\nEpoch 2: val_loss improved from 1.00000 to 0.90000, saving model to "
        "best-02-0.90.ckpt\n"
        "\nEpoch 3: val_loss did not improve from 0.90000\n"
        "\nEpoch 4: val_loss did not improve from 0.90000\n"
        "\nEpoch 5: val_loss improved from 0.90000 to 0.85000, saving model to "
        "best-05-0.85.ckpt\n"
        "\nEpoch 6: val_loss did not improve from 0.85000\n")
    assert files == _tf_checkpoints("best-01-1.00.ckpt", "best-02-0.90.ckpt", "best-05-0.85.ckpt")
    assert checkpoint.best == 0.85
    model.load_weights("best-05-0.85.ckpt")
    assert model.get_weights()[1][0] == 4.0  # saved at the end of epoch 5


def test_model_checkpoint_threshold_and_mode(tmp_path, monkeypatch):
    checkpoint, _, out, _ = _checkpoint(
        tmp_path, monkeypatch, DIP[:2], filepath="best.ckpt", save_best_only=True,
        save_weights_only=True, verbose=1, initial_value_threshold=0.92)
    assert out == ("\nEpoch 1: val_loss did not improve from 0.92000\n"
                   "\nEpoch 2: val_loss improved from 0.92000 to 0.90000, saving model to "
                   "best.ckpt\n")
    assert callbacks.ModelCheckpoint("x", monitor="val_acc").best == -np.inf
    assert callbacks.ModelCheckpoint("x", monitor="fmeasure").monitor_op is np.greater
    assert callbacks.ModelCheckpoint("x", monitor="val_loss", mode="max").best == -np.inf


def test_model_checkpoint_every_n_batches_counts_across_epochs(tmp_path, monkeypatch):
    _, _, out, files = _checkpoint(tmp_path, monkeypatch, DIP[:6], batches=4,
                                   filepath="b-{epoch}-{batch}.ckpt", save_weights_only=True,
                                   verbose=1, save_freq=3)
    saved = ["b-1-3", "b-2-2", "b-3-1", "b-3-4", "b-4-3", "b-5-2", "b-6-1", "b-6-4"]
    assert files == _tf_checkpoints(*[name + ".ckpt" for name in saved])
    assert out == "".join(f"\nEpoch {name.split('-')[1]}: saving model to {name}.ckpt\n"
                          for name in saved)


def test_model_checkpoint_best_of_batches(tmp_path, monkeypatch):
    _, _, out, files = _checkpoint(tmp_path, monkeypatch, [0.5, 0.5, 0.4], batches=4,
                                   filepath="b-{epoch}-{batch}-{loss:.3f}.ckpt",
                                   save_weights_only=True, save_freq=2, save_best_only=True,
                                   monitor="loss")
    assert files == _tf_checkpoints("b-1-2-0.600.ckpt", "b-3-2-0.500.ckpt")


def test_model_checkpoint_period_and_directories(tmp_path, monkeypatch, caplog):
    with caplog.at_level(logging.WARNING, "eagerflow"):
        _, _, out, files = _checkpoint(tmp_path, monkeypatch, DIP[:4],
                                       filepath="sub/dir/p-{epoch}.ckpt",
                                       save_weights_only=True, verbose=1, period=2)
    assert files == _tf_checkpoints("sub/dir/p-2.ckpt", "sub/dir/p-4.ckpt")
    assert "`period` argument is deprecated" in caplog.text


def test_model_checkpoint_saves_whole_models(tmp_path, monkeypatch):
    _, model, _, files = _checkpoint(tmp_path, monkeypatch, DIP[:3], filepath="m-{epoch}.keras",
                                     save_best_only=True)
    assert files == ["m-1.keras", "m-2.keras"]
    loaded = saving.load_model("m-2.keras")
    assert loaded.get_weights()[1][0] == 1.0


def test_model_checkpoint_errors(tmp_path, monkeypatch, caplog):
    with caplog.at_level(logging.WARNING, "eagerflow"):
        _, _, _, files = _checkpoint(tmp_path, monkeypatch, [1.0], filepath="x.ckpt",
                                     save_best_only=True, monitor="nothere")
    assert files == [] and "Can save best model only with nothere available, skipping." in \
        caplog.text
    with pytest.raises(KeyError, match='Failed to format this callback filepath: "{nope}.ckpt"'):
        _checkpoint(tmp_path, monkeypatch, [1.0], filepath="{nope}.ckpt")
    os.mkdir(tmp_path / "taken.keras")
    with pytest.raises(OSError, match="Please specify a non-directory filepath"):
        _checkpoint(tmp_path, monkeypatch, [1.0], filepath="taken.keras")
    # a path without a suffix is a SavedModel, written into an existing directory, as in TF
    os.mkdir(tmp_path / "taken")
    _, _, _, files = _checkpoint(tmp_path, monkeypatch, [1.0], filepath="taken")
    assert os.path.join("taken", "saved_model.pb") in files
    # weights are a checkpoint beside the directory, as in TF
    _, _, _, files = _checkpoint(tmp_path, monkeypatch, [1.0], filepath="taken",
                                 save_weights_only=True)
    assert "taken.index" in files
    with pytest.raises(ValueError, match="Unrecognized save_freq: daily"):
        callbacks.ModelCheckpoint("x", save_freq="daily")


# -- TerminateOnNaN, CSVLogger, LambdaCallback ------------------------------------------------

def test_terminate_on_nan_stops_training():
    stop = callbacks.TerminateOnNaN()
    model, out = _drive(stop, [1.0, float("nan"), 0.5], batches=2)
    assert out == "Batch 0: Invalid loss, terminating training\n"
    assert model.history.epoch == [0, 1]


def test_csv_logger_writes_and_appends(tmp_path):
    path = tmp_path / "log.csv"
    _drive(callbacks.CSVLogger(path), [0.5, 0.25])
    _drive(callbacks.CSVLogger(path, separator=";", append=True), [0.5])
    assert path.read_bytes() == (b"epoch,loss,val_acc,val_loss\r\n0,1.0,0.5,0.5\r\n"
                                 b"1,0.5,0.75,0.25\r\n0;1.0;0.5;0.5\r\n")
    logger = callbacks.CSVLogger(path)
    logger.on_train_begin()
    logger.on_epoch_end(0, {"loss": 0.5, "vector": np.array([1, 2])})
    logger.on_train_end()
    assert path.read_bytes() == (b'epoch,loss,vector,val_loss,val_vector\r\n'
                                 b'0,0.5,"""[1, 2]""",NA,NA\r\n')


def test_csv_logger_in_a_missing_folder_fails_as_tf_file_system_does(tmp_path):
    path = tmp_path / "missing" / "log.csv"
    with pytest.raises(tf.errors.NotFoundError, match=f"^{path}; No such file or directory$"):
        callbacks.CSVLogger(path).on_train_begin()


def test_lambda_callback_calls_the_given_functions():
    events = []
    callback = callbacks.LambdaCallback(
        on_epoch_begin=lambda epoch, logs: events.append(("epoch", epoch)),
        on_train_end=lambda logs: events.append(("end", logs["val_loss"])),
        on_test_end=lambda logs: events.append("test"))
    _drive(callback, [0.5, 0.25])
    callback.on_test_end({})
    assert events == [("epoch", 0), ("epoch", 1), ("end", 0.25), "test"]


def test_backup_and_restore_resumes_an_interrupted_fit(tmp_path):
    x = np.linspace(-1, 1, 40).reshape(20, 2).astype("float32")
    y = x[:, :1] * 2

    def model():
        m = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        m.compile(tf.keras.optimizers.Adam(0.1), "mse")
        return m

    class Interrupt(tf.keras.callbacks.Callback):
        fire = True

        def on_epoch_begin(self, epoch, logs=None):
            if epoch == 3 and self.fire:
                raise RuntimeError("Interrupting!")

    backup = tf.keras.callbacks.BackupAndRestore(backup_dir=str(tmp_path / "backup"))
    interrupt = Interrupt()
    with pytest.raises(RuntimeError):
        model().fit(x, y, epochs=6, batch_size=5, callbacks=[backup, interrupt], verbose=0,
                    shuffle=False)
    assert sorted(os.listdir(tmp_path / "backup" / "chief")) == [
        "checkpoint", "ckpt-3.data-00000-of-00001", "ckpt-3.index"]
    interrupt.fire = False
    resumed = model()
    history = resumed.fit(x, y, epochs=6, batch_size=5, callbacks=[backup, interrupt],
                          verbose=0, shuffle=False)
    assert history.epoch == [3, 4, 5] and int(resumed.optimizer.iterations) == 24
    uninterrupted = model()
    full = uninterrupted.fit(x, y, epochs=6, batch_size=5, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], full.history["loss"][3:], atol=1e-5)
    np.testing.assert_allclose(resumed.get_weights()[0], uninterrupted.get_weights()[0],
                               atol=1e-5)
    assert os.listdir(tmp_path / "backup") == []  # deleted once fit finished


def test_backup_and_restore_warns_about_an_unbuilt_model(tmp_path, caplog):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # no input shape: unbuilt
    model.compile("sgd", "mse")
    backup = tf.keras.callbacks.BackupAndRestore(str(tmp_path / "b"))
    with caplog.at_level(logging.WARNING, "eagerflow"):
        model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=0, callbacks=[backup])
    assert [r.getMessage().split(" Model ")[0] for r in caplog.records] == [
        "To use the BackupAndRestore callback, the model must be built before `fit()` is "
        "called."]


def test_backup_every_n_batches_resumes_at_the_next_batch(tmp_path):
    # TF 2.21 (values recorded): the epoch backed up in its middle goes on at its next
    # batch, running its remaining steps on the first batches of the data
    x = np.arange(300, dtype="float32").reshape(100, 3) / 300.0
    y = np.ones((100, 10), "float32")

    def model():
        tf.keras.utils.set_random_seed(0)
        m = tf.keras.models.Sequential([tf.keras.layers.Dense(10, input_shape=(3,))])
        m.compile(tf.keras.optimizers.SGD(0.01), loss="mse")
        return m

    class Stop(tf.keras.callbacks.Callback):
        def on_train_batch_begin(self, batch, logs=None):
            if int(self.model.optimizer.iterations) == 14:
                raise RuntimeError("stop")

    backup = tf.keras.callbacks.BackupAndRestore(str(tmp_path / "b"), save_freq=3,
                                                 delete_checkpoint=False)
    with pytest.raises(RuntimeError):
        model().fit(x, y, epochs=3, batch_size=10, callbacks=[backup, Stop()], verbose=0,
                    shuffle=False)
    resumed = model()
    history = resumed.fit(x, y, epochs=3, batch_size=10, callbacks=[backup], verbose=0,
                          shuffle=False)
    assert history.epoch == [1, 2] and int(resumed.optimizer.iterations) == 30
    np.testing.assert_allclose(history.history["loss"], [0.86027, 0.81132], atol=1e-5)
    saved = tf.train.latest_checkpoint(str(tmp_path / "b" / "chief"))
    assert tf.train.load_variable(saved, "ckpt_saved_epoch/.ATTRIBUTES/VARIABLE_VALUE") == 2
    assert tf.train.load_variable(saved, "ckpt_saved_batch/.ATTRIBUTES/VARIABLE_VALUE") == 7


def test_params_and_model_before_fit():
    # tf_keras 2.21: Callback().params -> AttributeError("'Callback' object has no attribute
    # 'params'"), Callback().model -> None; a bare CallbackList has neither attribute.
    cb = tf.keras.callbacks.Callback()
    assert cb.model is None
    with pytest.raises(AttributeError, match="'Callback' object has no attribute 'params'"):
        cb.params
    cl = tf.keras.callbacks.CallbackList()
    with pytest.raises(AttributeError):
        cl.params
    with pytest.raises(AttributeError):
        cl.model
    cl = tf.keras.callbacks.CallbackList([cb], epochs=2)
    assert cb.params == {"epochs": 2}


def test_remote_monitor_posts_each_epochs_logs(caplog):
    import http.server
    import json as json_mod
    import threading
    import urllib.parse

    received = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            received.append((self.path, self.headers["Content-Type"], body))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        root = f"http://127.0.0.1:{server.server_port}"
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        model.compile("sgd", "mse")
        x, y = np.ones((4, 2), "float32"), np.ones((4, 1), "float32")
        model.fit(x, y, epochs=2, verbose=0, callbacks=[tf.keras.callbacks.RemoteMonitor(root)])
        model.fit(x, y, epochs=1, verbose=0, callbacks=[
            tf.keras.callbacks.RemoteMonitor(root, path="/p", send_as_json=True)])
    finally:
        server.shutdown()
        server.server_close()
    assert [r[:2] for r in received] == [
        ("/publish/epoch/end/", "application/x-www-form-urlencoded")] * 2 + [
        ("/p", "application/json")]
    form = json_mod.loads(urllib.parse.parse_qs(received[1][2])["data"][0])
    assert form["epoch"] == 1 and isinstance(form["loss"], float)
    assert json_mod.loads(received[2][2])["epoch"] == 0
    # a server that cannot be reached: tf_keras's warning, and training goes on
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        model.fit(x, y, epochs=1, verbose=0, callbacks=[
            tf.keras.callbacks.RemoteMonitor(f"http://127.0.0.1:{server.server_port}")])
    assert f"Warning: could not reach RemoteMonitor root server at http://127.0.0.1:" \
           f"{server.server_port}" in caplog.text


def test_evaluate_and_predict_give_the_model_a_fresh_history():
    # As Keras: each adds a `History` of its own, so `model.history` no longer is fit's
    model = _model()
    x, y = _linear_data()
    history = model.fit(x, y, epochs=2, verbose=0)
    assert model.history is history and history.epoch == [0, 1]
    model.evaluate(x, y, verbose=0)
    assert model.history is not history and model.history.history == {}
    assert not hasattr(model.history, "epoch")  # (until training begins)
    after_evaluate = model.history
    model.predict(x, verbose=0)
    assert model.history is not after_evaluate and sorted(history.history) == ["loss"]
    mine = keras.callbacks.History()
    model.evaluate(x, y, verbose=0, callbacks=[mine])
    assert model.history is mine


def test_fit_and_predict_take_a_callback_list_as_it_is():
    # As tf_keras: no History or progress bar is added; `fit` returns `model.history`
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    x, y = np.ones((4, 3)), np.ones((4, 1))
    first = model.fit(x, y, verbose=0)
    seen = []
    given = callbacks.CallbackList([callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: seen.append((epoch, sorted(logs))))])
    assert model.fit(x, y, epochs=2, verbose=1, callbacks=given) is first
    assert seen == [(0, ["loss"]), (1, ["loss"])] and first.epoch == [0]
    assert [type(c).__name__ for c in given] == ["LambdaCallback"]
    with_history = callbacks.CallbackList([], add_history=True, model=model)
    assert model.fit(x, y, epochs=2, verbose=0, callbacks=with_history).epoch == [0, 1]
    ends = []
    given = callbacks.CallbackList([callbacks.LambdaCallback(on_predict_end=ends.append)])
    assert model.predict(x, verbose=1, callbacks=given).shape == (4, 1)
    assert ends == [{}] and len(given.callbacks) == 1


def test_a_callback_whose_init_skips_callbacks_init_still_runs():
    # As tf_keras: set_model and set_params give it what it needs
    seen = []

    class NoSuper(callbacks.Callback):
        def __init__(self, tag):
            self.tag = tag

        def on_train_batch_end(self, batch, logs=None):
            seen.append((self.tag, batch, type(logs["loss"])))

        def on_epoch_end(self, epoch, logs=None):
            seen.append((self.tag, epoch, self.params["epochs"]))

    model = _model()
    x, y = _linear_data(4)
    model.fit(x, y, epochs=2, verbose=0, callbacks=[NoSuper("a")], validation_data=(x, y))
    model.evaluate(x, y, verbose=0, callbacks=[NoSuper("b")])
    assert seen == [("a", 0, float), ("a", 0, 2), ("a", 0, float), ("a", 1, 2)]


def test_early_stopping_has_no_best_until_training_begins():
    stop = callbacks.EarlyStopping(monitor="val_accuracy")
    assert not hasattr(stop, "best") and not hasattr(stop, "best_epoch")
    assert (stop.wait, stop.stopped_epoch, stop.best_weights) == (0, 0, None)
    stop.on_train_begin()
    assert (stop.best, stop.best_epoch) == (-np.inf, 0)
