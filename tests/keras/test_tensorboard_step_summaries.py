"""Summaries written inside a training or test step (a `train_step` override, a layer's
`call`) go where tf_keras's TensorBoard callback sends them: the train or validation run,
at the step count the loop began with, every `update_freq` steps."""
import numpy as np
import pytest

import eagerflow as tf
from tests.summary.test_keras_callback import runs


class _Mean(tf.keras.layers.Layer):
    def call(self, x):
        tf.summary.scalar("mean", tf.reduce_mean(x))
        return x


class _Model(tf.keras.Model):
    def train_step(self, data):
        out = super().train_step(data)
        tf.summary.scalar("lr", self.optimizer.learning_rate)
        tf.summary.scalar("at_iterations", 1.0, step=self.optimizer.iterations)
        return out


def _model(run_eagerly):
    inputs = tf.keras.Input((2,))
    outputs = tf.keras.layers.Dense(1, kernel_initializer="ones")(_Mean(name="stat")(inputs))
    model = _Model(inputs, outputs, name="net")
    model.compile(tf.keras.optimizers.SGD(0.01), "mse", run_eagerly=run_eagerly)
    return model


def _values(logdir):
    return {run: [(step, tag) for step, tag, _ in events if tag != "keras"]
            for run, events in runs(logdir).items()}


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_step_summaries_go_to_the_callbacks_writers(tmp_path, run_eagerly):
    x = np.arange(12, dtype="float32").reshape(6, 2)
    y = np.ones((6, 1), "float32")
    model = _model(run_eagerly)
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path / "fit"), update_freq=2)
    model.fit(x, y, batch_size=2, epochs=1, verbose=0, shuffle=False,
              validation_data=(x[:4], y[:4]), callbacks=[callback])
    # (as tf_keras: steps 1 and 3 of 3 are recorded, at step 0 unless one is given)
    got = runs(tmp_path / "fit")
    assert _values(tmp_path / "fit") == {
        "train": [(0, "net/stat/mean"), (0, "lr"), (1, "at_iterations"),
                  (0, "net/stat/mean"), (0, "lr"), (3, "at_iterations"), (0, "epoch_loss")],
        "validation": [(0, "net/stat/mean"), (3, "evaluation_loss_vs_iterations"),
                       (0, "epoch_loss")]}
    assert got["train"][0][2] == "graph_keras_model"
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path / "eval"), update_freq=1)
    model.evaluate(x, y, batch_size=3, verbose=0, callbacks=[callback])
    assert _values(tmp_path / "eval") == {
        "train": [],
        "validation": [(0, "net/stat/mean"), (0, "net/stat/mean"),
                       (3, "evaluation_loss_vs_iterations")]}
    means = [float(tf.make_ndarray(e.summary.value[0].tensor))
             for e in tf.compat.v1.train.summary_iterator(
                 str(next((tmp_path / "eval" / "validation").glob("events*"))))
             if e.summary.value and e.summary.value[0].tag == "net/stat/mean"]
    assert means == [2.5, 8.5]


def test_epoch_update_freq_leaves_step_summaries_unwritten(tmp_path):
    x = np.ones((4, 2), "float32")
    model = _model(False)
    model.fit(x, x[:, :1], batch_size=2, verbose=0,
              callbacks=[tf.keras.callbacks.TensorBoard(str(tmp_path), write_graph=False)])
    assert _values(tmp_path) == {"train": [(0, "epoch_loss")]}
