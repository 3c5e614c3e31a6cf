"""TF's RNN cell wrappers (``tf.nn.RNNCellDropoutWrapper``, ``tf.nn.RNNCellResidualWrapper``,
``tf.nn.RNNCellDeviceWrapper``) around LSTM, GRU and SimpleRNN cells in ``RNN``: outputs
with fixed weights, seeded dropout (plain and variational), state filters, errors and
configs as TF 2.21 records them (cell_wrapper_cases.py, data/cell_wrappers_tf.json); then
masks' statistics, training, traced functions, and models saved and loaded."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.keras.layers.cell_wrapper_cases import X, cases, jsonable, weights

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "data", "cell_wrappers_tf.json")) as f:
    EXPECTED = json.load(f)
CASES = cases(tf)
W, R, D = tf.nn.RNNCellDropoutWrapper, tf.nn.RNNCellResidualWrapper, tf.nn.RNNCellDeviceWrapper


def assert_close(actual, expected, path="result"):
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and sorted(actual) == sorted(expected), path
        for key in expected:
            assert_close(actual[key], expected[key], f"{path}[{key!r}]")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), path
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_close(a, e, f"{path}[{i}]")
    elif isinstance(expected, float):
        assert actual == pytest.approx(expected, rel=1e-5, abs=1e-6), path
    else:
        assert actual == expected, path


@pytest.mark.parametrize("name", sorted(CASES))
def test_as_tf(name):
    tf.keras.backend.clear_session()
    expected = EXPECTED[name]
    if isinstance(expected, dict) and "error" in expected:
        with pytest.raises(Exception) as info:
            CASES[name]()
        assert type(info.value).__name__ == expected["error"]
        lines, expected_lines = str(info.value).split("\n"), expected["message"].split("\n")
        assert lines[0] == expected_lines[0]
        if len(expected_lines) > 2:  # (the cause, reported by the RNN layer)
            assert lines[2][:60] == expected_lines[2][:60]
        return
    assert_close(jsonable(CASES[name]()), expected)


def test_public_names_load_keras_on_first_use():
    assert [c.__name__ for c in (W, R, D)] == ["DropoutWrapper", "ResidualWrapper",
                                              "DeviceWrapper"]
    assert {"RNNCellDropoutWrapper", "RNNCellResidualWrapper",
            "RNNCellDeviceWrapper"} <= set(dir(tf.nn))
    assert isinstance(W(tf.keras.layers.GRUCell(2)), tf.keras.layers.AbstractRNNCell)


def test_a_model_saved_by_tf_loads():
    model = tf.keras.models.load_model(os.path.join(HERE, "data", "cell_wrappers_tf.h5"))
    cell = model.layers[1].cell
    assert [type(c).__name__ for c in (cell, cell.cell, cell.cell.cell, cell.cell.cell.cell)] \
        == ["ResidualWrapper", "DeviceWrapper", "DropoutWrapper", "GRUCell"]
    np.testing.assert_allclose(model(X).numpy(), EXPECTED["saved_model_outputs"],
                               rtol=1e-5, atol=1e-6)


def _model(kind, **dropout):
    cell = {"lstm": tf.keras.layers.LSTMCell, "gru": tf.keras.layers.GRUCell,
            "simple": tf.keras.layers.SimpleRNNCell}[kind](3)
    cell = R(D(W(cell, **dropout), "/cpu:0"), residual_fn=_scaled_sum)
    inputs = tf.keras.Input((4, 3))
    model = tf.keras.Model(inputs, tf.keras.layers.RNN(cell, return_sequences=True)(inputs))
    model.layers[1].set_weights(weights(kind))
    return model


def _scaled_sum(inputs, outputs):
    return 2.0 * inputs + outputs


@pytest.mark.parametrize("kind", ["lstm", "gru", "simple"])
@pytest.mark.parametrize("path", ["model.h5", "model.keras", "saved_model"])
def test_models_save_and_load(tmp_path, kind, path):
    # (tf_keras refuses to load an LSTM cell in a DropoutWrapper, and SavedModels and
    # `.keras` archives of wrapped cells; eagerflow loads them all)
    model = _model(kind, seed=4)
    expected = model(X).numpy()
    model.save(str(tmp_path / path))
    loaded = tf.keras.models.load_model(str(tmp_path / path), safe_mode=False)  # (bytecode)
    np.testing.assert_allclose(loaded(X).numpy(), expected, rtol=1e-6)
    assert loaded.layers[1].cell._residual_fn(1.0, 1.0) == 3.0
    assert [w.name for w in loaded.weights] == [w.name for w in model.weights]


def test_json_keeps_the_config():
    model = _model("gru", input_keep_prob=0.5, variational_recurrent=True,
                   input_size=tf.TensorShape([3]), dtype=tf.float32, seed=2)
    config = json.loads(model.to_json())["config"]["layers"][1]["config"]["cell"]
    assert (config["module"], config["class_name"], config["registered_name"]) == (
        "tensorflow.python.keras.layers.rnn_cell_wrapper_v2", "ResidualWrapper",
        "ResidualWrapper")
    assert config["config"]["residual_fn_type"] == "lambda"
    dropout = config["config"]["cell"]["config"]["cell"]["config"]
    assert dropout["input_size"] == [3] and dropout["input_keep_prob"] == 0.5
    with pytest.raises(ValueError, match="Requested the deserialization of a layer with a "
                                         "Python `lambda`"):
        tf.keras.models.model_from_json(model.to_json())


def test_residual_fn_by_name():
    config = {**R(tf.keras.layers.SimpleRNNCell(2)).get_config(),
              "residual_fn": "_scaled_sum", "residual_fn_type": "function",
              "residual_fn_module": __name__}
    back = tf.keras.layers.deserialize({"class_name": "ResidualWrapper", "config": config},
                                       custom_objects={"_scaled_sum": _scaled_sum})
    assert back._residual_fn is _scaled_sum
    with pytest.raises(ValueError, match="Unknown function in wrapper: '_scaled_sum'"):
        tf.keras.layers.deserialize({"class_name": "ResidualWrapper", "config": config})


def _identity_rnn(units, **dropout):
    """An RNN whose outputs are the inputs its DropoutWrapper lets through."""
    cell = tf.keras.layers.SimpleRNNCell(units, kernel_initializer="identity",
                                         recurrent_initializer="zeros", use_bias=False,
                                         activation=None)
    return tf.keras.layers.RNN(W(cell, **dropout), return_sequences=True)


def test_variational_masks_are_shared_by_steps_and_rows():
    layer = _identity_rnn(500, input_keep_prob=0.5, variational_recurrent=True,
                          input_size=tf.TensorShape([500]), dtype=tf.float32)
    out = layer(tf.ones([3, 4, 500])).numpy()
    assert (out == out[:1, :1]).all()
    assert sorted(set(out.ravel().tolist())) == [0.0, 2.0]
    np.testing.assert_array_equal(layer(tf.ones([3, 4, 500])).numpy(), out)  # (drawn once)
    assert 0.4 < (out[0, 0] > 0).mean() < 0.6


def test_masks_differ_by_step_and_keep_their_rate():
    out = _identity_rnn(2000, input_keep_prob=0.7)(tf.ones([3, 4, 2000])).numpy()
    np.testing.assert_allclose(sorted(set(out.ravel().tolist())), [0.0, 1 / 0.7], rtol=1e-6)
    assert (out[:, 0] != out[:, 1]).any() and (out[0] != out[1]).any()
    assert 0.67 < (out > 0).mean() < 0.73
    inference = _identity_rnn(2000, input_keep_prob=0.7)(tf.ones([1, 2, 2000]), training=False)
    assert 0.67 < (inference.numpy() > 0).mean() < 0.73  # a DropoutWrapper always drops


def test_training_and_gradients():
    tf.keras.backend.clear_session()
    inputs = tf.keras.Input((4, 3))
    layer = tf.keras.layers.RNN(W(tf.keras.layers.GRUCell(3), input_keep_prob=0.8,
                                  output_keep_prob=0.9, state_keep_prob=0.7))
    model = tf.keras.Model(inputs, layer(inputs))
    model.compile("sgd", "mse")
    before = [w.numpy() for w in model.weights]
    history = model.fit(np.ones((8, 4, 3)), np.zeros((8, 3)), epochs=2, batch_size=4,
                        verbose=0)
    assert len(history.history["loss"]) == 2
    assert all((b != w.numpy()).any() for b, w in zip(before, model.weights))
    assert [w.name for w in model.weights] == [
        "rnn/dropout_wrapper/kernel:0", "rnn/dropout_wrapper/recurrent_kernel:0",
        "rnn/dropout_wrapper/bias:0"]


def test_in_a_function_with_unknown_dims():
    layer = tf.keras.layers.RNN(R(D(tf.keras.layers.SimpleRNNCell(3), "/cpu:0")),
                                return_sequences=True)
    layer(X)
    layer.set_weights(weights("simple"))
    traced = tf.function(layer, input_signature=[tf.TensorSpec([None, None, 3])])
    np.testing.assert_allclose(traced(X).numpy(), EXPECTED["simple_nested"][0], rtol=1e-5,
                               atol=1e-6)
    with tf.GradientTape() as tape:
        out = layer(tf.constant(X))
    assert [g.shape for g in tape.gradient(out, layer.trainable_weights)] == [
        tf.TensorShape([3, 3]), tf.TensorShape([3, 3]), tf.TensorShape([3])]


def test_a_keep_probability_of_one_wraps_the_cell_unchanged():
    for kind, make in [("lstm", tf.keras.layers.LSTMCell), ("gru", tf.keras.layers.GRUCell),
                       ("simple", tf.keras.layers.SimpleRNNCell)]:
        plain = tf.keras.layers.RNN(make(3), return_sequences=True, return_state=True)
        plain(X)
        plain.set_weights(weights(kind))
        for a, b in zip(plain(X), EXPECTED[f"{kind}_keep1"]):
            np.testing.assert_allclose(a.numpy(), b, rtol=1e-5, atol=1e-6)


def test_the_device_wrapper_places_the_steps():
    cell = D(tf.keras.layers.GRUCell(2), "/cpu:0")
    output, _ = cell(tf.ones([1, 3]), [tf.zeros([1, 2])])
    assert output.device.endswith("device:CPU:0")
    assert cell.get_config()["device"] == "/cpu:0"
