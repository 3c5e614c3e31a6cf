"""keras.metrics.experimental.PyMetric: Python state, updated on eager tensors even in fit."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


class MaxError(keras.metrics.experimental.PyMetric):
    def __init__(self, name="max_err", **kwargs):
        super().__init__(name=name, **kwargs)

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.seen.append((type(y_true).__name__, tuple(y_true.shape)))
        self.largest = max(self.largest,
                           float(np.max(np.abs(y_true.numpy() - y_pred.numpy()))))

    def reset_state(self):
        self.largest, self.seen = 0.0, []

    def result(self):
        return self.largest


def test_py_metric_alone():
    metric = MaxError()
    assert (metric.name, metric.dtype, metric.largest, metric.variables) == \
        ("max_err", "float32", 0.0, [])
    metric.update_state(tf.constant([1.0, 2.0]), tf.constant([1.5, 0.0]))
    result = metric.result()
    assert result.dtype == tf.float32 and float(result) == 2.0
    assert float(metric(tf.constant([0.0]), tf.constant([5.0]))) == 5.0
    metric.reset_state()
    assert metric.largest == 0.0
    with pytest.raises(NotImplementedError, match="Subclasses should implement `merge_state`"):
        metric.merge_state([metric])
    with pytest.raises(NotImplementedError, match="Subclasses should implement `reset_state`"):
        keras.metrics.experimental.PyMetric()


def test_py_metric_in_fit_and_evaluate_matches_tf_keras():
    x = np.arange(8, dtype="float32").reshape(4, 2)
    y = np.ones((4, 1), "float32")
    metric = MaxError()
    model = keras.Sequential([keras.layers.Dense(1, kernel_initializer="zeros",
                                                 input_shape=(2,))])
    model.compile("sgd", "mse", metrics=[metric])
    history = model.fit(x, y, epochs=2, batch_size=2, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["max_err"], [1.0, 0.8516], atol=1e-4)
    np.testing.assert_allclose(history.history["loss"], [0.7066, 0.3145], atol=1e-4)
    assert metric.seen == [("EagerTensor", (2, 1))] * 2  # eager, reset each epoch
    results = model.evaluate(x, y, verbose=0, return_dict=True)
    assert results["max_err"] == pytest.approx(0.8674357, abs=1e-6)
