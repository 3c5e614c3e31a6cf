"""keras.utils.SidecarEvaluator, SidecarEvaluatorModelExport and tf.train.checkpoints_iterator,
as in tf_keras 2.21."""
import contextlib
import io
import os
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

X = np.arange(8, dtype="float32").reshape(4, 2)
Y = np.ones((4, 1), "float32")


def _model():
    model = keras.Sequential([keras.layers.Dense(1, kernel_initializer="zeros",
                                                 input_shape=(2,))])
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    return model


def _train(directory):
    model = _model()
    manager = tf.train.CheckpointManager(
        tf.train.Checkpoint(model=model, optimizer=model.optimizer), directory, max_to_keep=5)
    for _ in range(2):
        model.fit(X, Y, verbose=0, batch_size=4)
        manager.save()
    return manager


def test_checkpoints_iterator_yields_the_latest_then_times_out(tmp_path):
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.1)) == []
    manager = _train(str(tmp_path))
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.1)) == \
        [manager.latest_checkpoint]
    calls = []
    assert list(tf.train.checkpoints_iterator(
        str(tmp_path), timeout=0.1, timeout_fn=lambda: calls.append(1) or True)) == \
        [manager.latest_checkpoint]
    assert calls == [1]


def test_sidecar_evaluator_evaluates_the_latest_checkpoint(tmp_path):
    directory = str(tmp_path)
    _train(directory)
    results = []

    class Record(keras.callbacks.Callback):
        def on_test_end(self, logs=None):
            results.append(dict(logs))

    evaluated = _model()
    data = tf.data.Dataset.from_tensor_slices((X, Y)).batch(2)
    with contextlib.redirect_stdout(io.StringIO()):
        keras.utils.SidecarEvaluator(evaluated, data, directory, steps=2, max_evaluations=2,
                                     callbacks=[Record()]).start()
    assert len(results) == 1 and sorted(results[0]) == ["loss", "mae"]
    assert results[0]["loss"] == pytest.approx(1017.9455, rel=1e-6)
    assert results[0]["mae"] == pytest.approx(27.44, rel=1e-6)
    assert int(evaluated.optimizer.iterations) == 2
    np.testing.assert_allclose(evaluated.get_weights()[0].ravel(), [-3.32, -3.96], atol=1e-4)

    export = os.path.join(directory, "export", "best-{epoch}")
    callback = keras.callbacks.SidecarEvaluatorModelExport(
        export_filepath=export, checkpoint_filepath=os.path.join(directory, "ckpt-{epoch}"),
        save_weights_only=True, verbose=1, monitor="loss", mode="min")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        keras.utils.SidecarEvaluator(_model(), data, directory, steps=2, max_evaluations=2,
                                     callbacks=[callback]).start()
    assert re.search(r"Epoch 2: loss improved from inf to 1017\.945\d\d, saving model to ",
                     out.getvalue())
    assert sorted(os.listdir(os.path.join(directory, "export"))) == [
        "best-2.data-00000-of-00001", "best-2.index", "checkpoint"]
