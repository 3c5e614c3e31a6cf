"""Batching for `fit`: each epoch's shuffled order, as tf_keras draws it."""
import sys
import types

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import DataHandler, keras_backend as backend
from tests.keras.models import OneDense


def _orders(epochs, **kwargs):
    x = np.arange(10, dtype=np.float32).reshape(10, 1)
    handler = DataHandler(x, x, batch_size=4, epochs=epochs, shuffle=True, **kwargs)
    return [[b[0].numpy().ravel().astype(int).tolist() for b in handler.batches()]
            for _ in handler.enumerate_epochs()]


def test_epochs_are_shuffled_as_tf_keras_shuffles_them():
    try:
        tf.keras.utils.set_random_seed(0)  # global seed 0: the shuffle's seed pair (0, 2**31 - 1)
        assert _orders(3) == [[[2, 0, 5, 8], [7, 1, 9, 6], [3, 4]],
                              [[2, 9, 4, 7], [1, 8, 5, 6], [0, 3]],
                              [[4, 7, 6, 0], [1, 2, 8, 5], [3, 9]]]
        tf.random.set_seed(5)
        assert _orders(2) == [[[7, 4, 5, 9], [1, 2, 8, 6], [0, 3]],
                              [[6, 4, 9, 0], [3, 5, 2, 1], [7, 8]]]
        assert _orders(1) == _orders(1)  # each fit starts the same sequence again
    finally:
        tf.random.set_seed(None)
        backend._SEED_GENERATOR.generator = None


def test_fit_shuffles_each_epoch_as_tf_keras():
    seen = []

    class Recording(OneDense):
        def train_step(self, data):
            seen.append(data[0].numpy().ravel().astype(int).tolist())
            return {}

    x = np.arange(10, dtype=np.float32).reshape(10, 1)
    model = Recording()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    try:
        tf.keras.utils.set_random_seed(0)
        model.fit(x, x, batch_size=4, epochs=2, shuffle=True, verbose=0)
    finally:
        tf.random.set_seed(None)
        backend._SEED_GENERATOR.generator = None
    assert seen == [[2, 0, 5, 8], [7, 1, 9, 6], [3, 4], [2, 9, 4, 7], [1, 8, 5, 6], [0, 3]]


class _Series:
    """What the data adapter sees of a pandas Series: rows of one column."""

    def __init__(self, values):
        self._values = np.asarray(values)
        self.shape = self._values.shape

    def to_numpy(self):
        return self._values

    def __array__(self, dtype=None, copy=None):
        return self._values if dtype is None else self._values.astype(dtype)


class _SeenShapes(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense, self.seen = tf.keras.layers.Dense(1, kernel_initializer="ones"), []

    def call(self, inputs):
        self.seen.append(tuple(inputs["a"].shape))
        return self.dense(tf.stack([tf.cast(inputs[k], tf.float32) for k in "ab"], -1))


def test_pandas_series_are_columns_in_fit_evaluate_and_predict(monkeypatch):
    # As Keras: a Series of n rows is an (n, 1) array, so a model summing a dict of them
    # on a new last axis predicts (n, 1, 1) (a Series given directly is (n,)).
    monkeypatch.setitem(sys.modules, "pandas", types.SimpleNamespace(Series=_Series))
    x = {"a": _Series(np.arange(4.0)), "b": _Series(np.ones(4))}
    model = _SeenShapes()
    model.compile("sgd", "mse", run_eagerly=True)
    model.fit(x, _Series(np.arange(4.0)), batch_size=4, epochs=1, verbose=0,
              validation_split=0.5)
    assert model.predict(x, verbose=0).shape == (4, 1, 1)
    assert model.predict_on_batch(x).shape == (4, 1, 1)
    assert set(model.seen) == {(2, 1), (4, 1)}
    np.testing.assert_allclose(model.evaluate(x, _Series(np.zeros(4)), verbose=0),
                               np.mean(np.square(model.predict(x, verbose=0))), rtol=1e-6)


def test_a_real_pandas_frame_and_series():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [0.0, 1.0, 0.0]})
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones",
                                                       input_shape=(1,))])
    assert model.predict(frame["a"], verbose=0).tolist() == [[1.0], [2.0], [3.0]]
    model = _SeenShapes()
    model.predict(dict(frame), verbose=0)
    assert {shape[1:] for shape in model.seen} == {(1,)}  # (traced: rows unknown)


def test_numpy_floating_data_is_taken_in_floatx_and_tensors_in_their_dtype():
    # As tf_keras: NumPy floating arrays of any width become floatx; tensors and variables
    # keep their dtype
    seen = []

    class Dtypes(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__(autocast=False)

        def call(self, x):
            seen.append(x.dtype)
            return tf.cast(x, tf.float32)

    cases = [(np.ones((2, 2), np.float16), tf.float32), (np.ones((2, 2)), tf.float32),
             (tf.ones((2, 2), tf.float64), tf.float64), (tf.ones((2, 2), tf.float16), tf.float16),
             (tf.Variable(np.ones((2, 2))), tf.float64), (np.ones((2, 2), np.int64), tf.int64)]
    for data, dtype in cases:
        model = tf.keras.Sequential([Dtypes()])
        model.compile("sgd", "mse", run_eagerly=True)
        seen.clear()
        model.predict(data, verbose=0)
        model.evaluate(data, np.ones((2, 2)), verbose=0)
        assert seen and set(seen) == {dtype}, (data, seen)
