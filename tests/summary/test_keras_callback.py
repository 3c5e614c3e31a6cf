"""Keras's TensorBoard callback writes what tf_keras writes: train/ and validation/ runs,
epoch and batch scalars, weight histograms, the learning rate, the model's graph."""
import glob
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.summary.test_reference import tensor_value


def runs(logdir):
    """run -> [(step, tag, plugin or event kind)] over the run's event files, in order."""
    out = {}
    for run in sorted(os.listdir(logdir)):
        events = []
        for path in sorted(glob.glob(os.path.join(logdir, run, "events.out.tfevents.*"))):
            for record in tf.compat.v1.io.tf_record_iterator(path):
                e = tf.compat.v1.Event.FromString(record)
                if e.HasField("summary"):
                    v = e.summary.value[0]
                    events.append((e.step, v.tag, v.metadata.plugin_data.plugin_name))
                elif e.HasField("graph_def"):
                    events.append((e.step, "", "graph_def"))
        out[run] = events
    return out


def data():
    x = np.random.RandomState(0).normal(size=(10, 3)).astype("float32")
    return x, x.sum(1, keepdims=True)


def test_epochs_histograms_validation_and_graph(tmp_path):
    x, y = data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), name="d1"),
                                 tf.keras.layers.Dense(1, name="d2")])
    model.compile("sgd", "mse", metrics=["mae"])
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1)
    history = model.fit(x, y, batch_size=4, epochs=2, validation_data=(x, y),
                        callbacks=[callback], verbose=0)
    got = runs(tmp_path)
    assert sorted(got) == ["train", "validation"]
    weights = ["d1/kernel_0/histogram", "d1/bias_0/histogram", "d2/kernel_0/histogram",
               "d2/bias_0/histogram"]
    want_train = [(0, "keras", "graph_keras_model"), (0, "", "graph_def")]
    for epoch in range(2):
        want_train += [(epoch, "epoch_loss", "scalars"), (epoch, "epoch_mae", "scalars")]
        want_train += [(epoch, w, "histograms") for w in weights]
    assert got["train"] == want_train
    assert got["validation"] == [
        (3, "evaluation_loss_vs_iterations", "scalars"),
        (3, "evaluation_mae_vs_iterations", "scalars"),
        (0, "epoch_loss", "scalars"), (0, "epoch_mae", "scalars"),
        (6, "evaluation_loss_vs_iterations", "scalars"),
        (6, "evaluation_mae_vs_iterations", "scalars"),
        (1, "epoch_loss", "scalars"), (1, "epoch_mae", "scalars")]
    (path,) = glob.glob(os.path.join(tmp_path, "validation", "events.*"))
    losses = [tensor_value(e.summary.value[0].tensor) for e in map(
        tf.compat.v1.Event.FromString, tf.compat.v1.io.tf_record_iterator(path))
        if e.HasField("summary") and e.summary.value[0].tag == "epoch_loss"]
    np.testing.assert_allclose(losses, history.history["val_loss"], rtol=1e-6)


def test_batches_learning_rate_and_steps_per_second(tmp_path):
    x, y = data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,), name="d1")])
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 2, 0.5)
    model.compile(tf.keras.optimizers.SGD(schedule), "mse")
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), update_freq="batch",
                                              write_steps_per_second=True, write_graph=False)
    model.fit(x, y, batch_size=4, epochs=2, callbacks=[callback], verbose=0)
    model.evaluate(x, y, callbacks=[callback], verbose=0)
    got = runs(tmp_path)
    want = []
    for epoch in range(2):
        for step in range(3 * epoch + 1, 3 * epoch + 4):
            want += [(step, "batch_steps_per_second", "scalars"), (step, "batch_loss", "scalars")]
        want += [(epoch, "epoch_loss", "scalars"), (epoch, "epoch_learning_rate", "scalars"),
                 (epoch, "epoch_steps_per_second", "scalars")]
    assert got["train"] == want
    assert got["validation"] == [(6, "evaluation_loss_vs_iterations", "scalars")]
    (path,) = glob.glob(os.path.join(tmp_path, "train", "events.*"))
    rates = [float(tensor_value(e.summary.value[0].tensor)) for e in map(
        tf.compat.v1.Event.FromString, tf.compat.v1.io.tf_record_iterator(path))
        if e.HasField("summary") and e.summary.value[0].tag == "epoch_learning_rate"]
    np.testing.assert_allclose(rates, [0.1 * 0.5 ** 1.5, 0.1 * 0.5 ** 3], rtol=1e-6)


def test_update_freq_every_n_batches_and_weight_images(tmp_path):
    x, y = data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), name="d")])
    model.compile("sgd", "mse")
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), update_freq=2, histogram_freq=2,
                                              write_images=True, write_graph=False)
    model.fit(x, y, batch_size=4, epochs=2, callbacks=[callback], verbose=0)
    assert runs(tmp_path)["train"] == [
        (2, "batch_loss", "scalars"), (0, "epoch_loss", "scalars"),
        (0, "d/kernel_0/histogram", "histograms"), (0, "d/kernel_0/image", "images"),
        (0, "d/bias_0/histogram", "histograms"), (0, "d/bias_0/image", "images"),
        (4, "batch_loss", "scalars"), (6, "batch_loss", "scalars"),
        (1, "epoch_loss", "scalars")]


def test_unknown_arguments_are_refused():
    with pytest.raises(ValueError, match=r"Unrecognized arguments in `TensorBoard` Callback: "
                                         r"\['bogus'\]"):
        tf.keras.callbacks.TensorBoard(bogus=1)
