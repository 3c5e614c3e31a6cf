"""Keras files written by real tf_keras 2.21 load here, and files written here load in tf_keras.

The files in ``data/`` were written by ``data/make_interop_data.py``: ``tf_*``
by tf_keras (with the predictions and optimizer variables it had, in
``tf_expected.npz``), ``ef_*`` by eagerflow, then loaded by tf_keras, which
recorded what it computed from them in ``tf_reads_ef.npz``.
"""
import importlib.util
import pathlib

import numpy as np
import pytest

from eagerflow import keras

h5py = pytest.importorskip("h5py")

DATA = pathlib.Path(__file__).parent / "data"
_spec = importlib.util.spec_from_file_location("make_interop_data",
                                               DATA / "make_interop_data.py")
make_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_data)
NAMES = make_data.NAMES
TRAINED = ("mlp", "lstm")  # compiled with Adam and trained a few steps


@pytest.fixture(scope="module")
def tf_expected():
    return dict(np.load(DATA / "tf_expected.npz"))


@pytest.fixture(scope="module")
def tf_reads_ef():
    return dict(np.load(DATA / "tf_reads_ef.npz"))


def _optimizer_values(model):
    return [v.numpy() for v in model.optimizer.variables]


@pytest.mark.parametrize("suffix", [".h5", ".keras"])
@pytest.mark.parametrize("name", NAMES)
def test_models_saved_by_tf_keras_load_and_predict_the_same(name, suffix, tf_expected):
    model = keras.models.load_model(DATA / f"tf_{name}{suffix}")
    np.testing.assert_allclose(model.predict(tf_expected[f"{name}_x"], verbose=0),
                               tf_expected[f"{name}_y"], rtol=1e-5, atol=1e-6)
    if name in TRAINED:
        assert type(model.optimizer).__name__ == "Adam"
        values = _optimizer_values(model)
        assert int(values[0]) == 3 if name == "mlp" else 2  # the steps tf_keras took
        expected = [tf_expected[f"{name}_optimizer_{i}"] for i in range(len(values))]
        assert f"{name}_optimizer_{len(values)}" not in tf_expected
        for value, want in zip(values, expected):
            np.testing.assert_allclose(value, want, rtol=1e-6)
    else:
        assert model.optimizer is None


@pytest.mark.parametrize("suffix", ["_w.h5", ".weights.h5", ".h5", ".keras"])
@pytest.mark.parametrize("name", NAMES)
def test_weights_saved_by_tf_keras_load_into_a_model_built_here(name, suffix, tf_expected):
    model = make_data.build(keras, name)
    model.load_weights(DATA / f"tf_{name}{suffix}")
    np.testing.assert_allclose(model.predict(tf_expected[f"{name}_x"], verbose=0),
                               tf_expected[f"{name}_y"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_files_saved_here_give_tf_keras_our_predictions(name, tf_reads_ef):
    x = np.load(DATA / "ef_expected.npz")[f"{name}_x"]
    for suffix in ("h5", "keras"):
        model = keras.models.load_model(DATA / f"ef_{name}.{suffix}")
        prediction = model.predict(x, verbose=0)
        np.testing.assert_allclose(tf_reads_ef[f"{name}_{suffix}_y"], prediction,
                                   rtol=1e-5, atol=1e-6)
        if name in TRAINED:
            for i, value in enumerate(_optimizer_values(model)):
                np.testing.assert_array_equal(tf_reads_ef[f"{name}_{suffix}_optimizer_{i}"],
                                              value)
    for suffix in ("_w.h5", ".weights.h5"):
        np.testing.assert_allclose(tf_reads_ef[f"{name}{suffix}_y"], prediction,
                                   rtol=1e-5, atol=1e-6)


def _layout(path):
    """Every group and dataset of an HDF5 file with its attribute names and shape, and the
    layer and weight name lists."""
    found = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            names = {k: [v.decode() if isinstance(v, bytes) else v for v in obj.attrs[k]]
                     for k in ("layer_names", "weight_names") if k in obj.attrs}
            found[name] = (sorted(obj.attrs), getattr(obj, "shape", None),
                           str(getattr(obj, "dtype", "")), names)
        visit("/", f)
        f.visititems(visit)
    return found


@pytest.mark.parametrize("suffix", [".h5", "_w.h5", ".weights.h5"])
@pytest.mark.parametrize("name", NAMES)
def test_files_written_now_have_tf_keras_layout(name, suffix, tmp_path):
    # The same models written by tf_keras and now by eagerflow: same groups, datasets,
    # shapes, dtypes, attributes and layer and weight names.
    keras.backend.clear_session()  # the layer names tf_keras's process gave: the models
    for earlier in NAMES[:NAMES.index(name)]:  # were built one after the other
        make_data.build(keras, earlier)
    model = make_data.build(keras, name)
    x, y = make_data.data(name)
    if y is not None:
        model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    path = tmp_path / f"m{suffix}"
    (model.save if suffix == ".h5" else model.save_weights)(path)
    assert _layout(path) == _layout(DATA / f"tf_{name}{suffix}")


@pytest.mark.parametrize("name, expected", [
    ("lstm", [0.41842085, 0.39615935]), ("gru", [-0.11943452, -0.08310795]),
    ("bi", [-0.39856997, -0.36937827])])
@pytest.mark.parametrize("by_name", [False, True])
def test_cudnn_weights_load_into_lstm_and_gru(name, expected, by_name):
    # weights of tf_keras's CuDNNLSTM / CuDNNGRU (data/make_cudnn_data.py) convert as Keras
    # converts them; the predictions are tf_keras's after the same load
    rnn = {"lstm": lambda: keras.layers.LSTM(3, name="rnn"),
           "gru": lambda: keras.layers.GRU(3, name="rnn"),
           "bi": lambda: keras.layers.Bidirectional(keras.layers.LSTM(3), name="bi")}[name]()
    model = keras.Sequential([keras.Input((5, 4)), rnn, keras.layers.Dense(1, name="d")])
    model.load_weights(DATA / f"cudnn_{name}_w.h5", by_name=by_name)
    x = np.random.RandomState(1).rand(2, 5, 4).astype("float32")
    np.testing.assert_allclose(model.predict(x, verbose=0).ravel(), expected, atol=1e-5)


def test_cudnn_gru_weights_need_reset_after():
    model = keras.Sequential([keras.Input((5, 4)), keras.layers.GRU(3, reset_after=False),
                              keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=r"^CuDNNGRU is not compatible with "
                                         r"GRU\(reset_after=False\)$"):
        model.load_weights(DATA / "cudnn_gru_w.h5")
