"""Bidirectional, TimeDistributed and Masking: values against the wrapped layers run by
hand, merge modes, states, masks, weight names, configs and errors as tf_keras 2.21 has
them."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import backend
from eagerflow.keras.layers import (Bidirectional, Dense, deserialize, Dropout, Embedding, GRU,
    Layer, LSTM, Masking, serialize, SimpleRNN, TimeDistributed)

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 5, 4)).astype(np.float32)
MASK = np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [1, 1, 0, 0, 0]], bool)


def halves(bidirectional, x, **kwargs):
    """The forward and backward layers of `bidirectional` run by hand (same weights)."""
    forward, backward = bidirectional.forward_layer, bidirectional.backward_layer
    return forward(x, **kwargs), backward(x, **kwargs)


def randomize(layer):
    for w in layer.weights:
        w.assign(RNG.uniform(-0.5, 0.5, w.shape.as_list()).astype(np.float32))


# -- Bidirectional ------------------------------------------------------------------------------

@pytest.mark.parametrize("merge_mode, merge", [
    ("concat", lambda a, b: np.concatenate([a, b], -1)),
    ("sum", np.add), ("mul", np.multiply), ("ave", lambda a, b: (a + b) / 2),
])
def test_bidirectional_merge_modes(merge_mode, merge):
    layer = Bidirectional(LSTM(3, return_sequences=True), merge_mode=merge_mode)
    layer(X)
    randomize(layer)
    forward, backward = halves(layer, X)
    # the backward outputs are put back in time order before merging
    expected = merge(forward.numpy(), backward.numpy()[:, ::-1])
    np.testing.assert_allclose(layer(X).numpy(), expected, rtol=1e-6, atol=1e-6)
    assert layer(X).shape == layer.compute_output_shape((3, 5, 4))


def test_bidirectional_does_not_track_the_layer_it_copies(tmp_path):
    # The layer given is only a template: a built one adds neither its weights, its
    # checkpoint entries nor its trainable flag to the wrapper's (tf_keras 2.21).
    gru = GRU(3, return_sequences=True)
    gru(X[:1, :2])
    layer = Bidirectional(gru, merge_mode="sum")
    layer(X)
    assert len(layer.weights) == len(layer.trainable_weights) == len(layer.variables) == 6
    assert [type(s).__name__ for s in layer._flatten_layers()] == [
        "Bidirectional", "GRU", "GRUCell", "GRU", "GRUCell"]
    assert [s.name for s in layer.submodules] == [
        "forward_" + gru.name, "backward_" + gru.name, gru.name] + ["gru_cell"] * 3
    path = tf.train.Checkpoint(l=layer).write(str(tmp_path / "ck"))
    names = [name for name, _ in tf.train.list_variables(path)]
    assert not [name for name in names if name.startswith("l/layer/")]
    assert len(names) == 7
    layer.trainable = False
    assert gru.trainable and not layer.forward_layer.trainable
    assert layer.trainable_weights == []


def test_bidirectional_without_merge_and_with_states():
    layer = Bidirectional(GRU(2, return_state=True), merge_mode=None)
    layer(X)
    randomize(layer)
    forward_out, backward_out, forward_state, backward_state = layer(X)
    (f, f_state), (b, b_state) = halves(layer, X)
    for got, want in [(forward_out, f), (backward_out, b), (forward_state, f_state),
                      (backward_state, b_state)]:
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)
    shapes = layer.compute_output_shape((3, 5, 4))
    assert [tuple(s.as_list()) for s in shapes] == [(3, 2)] * 4
    summed = Bidirectional(LSTM(2, return_state=True), merge_mode="sum")
    assert [t.shape for t in summed(X)] == [(3, 2)] * 5
    assert len(summed.compute_output_shape((3, 5, 4))) == 5


def test_bidirectional_initial_state():
    layer = Bidirectional(LSTM(2, return_sequences=True))
    layer(X)
    randomize(layer)
    states = [RNG.standard_normal((3, 2)).astype(np.float32) for _ in range(4)]
    got = layer(X, initial_state=states).numpy()
    forward = layer.forward_layer(X, initial_state=states[:2]).numpy()
    backward = layer.backward_layer(X, initial_state=states[2:]).numpy()
    np.testing.assert_allclose(got, np.concatenate([forward, backward[:, ::-1]], -1),
                               rtol=1e-6)
    np.testing.assert_allclose(layer([X, *states]).numpy(), got, rtol=1e-6)
    with pytest.raises(ValueError, match="should be a list containing the states"):
        layer(X, initial_state=states[:3])


def test_bidirectional_mask():
    layer = Bidirectional(SimpleRNN(2, return_sequences=True), merge_mode="ave")
    layer(X, mask=MASK)
    randomize(layer)
    got = layer(X, mask=MASK)
    forward, backward = halves(layer, X, mask=MASK)
    expected = (forward.numpy() + backward.numpy()[:, ::-1]) / 2
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6, atol=1e-7)
    # both halves zero the masked steps, so a merged masked step is zeros
    np.testing.assert_array_equal(got.numpy()[~MASK], 0.0)
    np.testing.assert_array_equal(np.asarray(got._keras_mask), MASK)


def test_bidirectional_weights_and_backward_layer():
    backend.clear_session()
    layer = Bidirectional(LSTM(3), backward_layer=GRU(3, go_backwards=True))
    layer(X)
    assert [w.name for w in layer.weights] == [
        "bidirectional/forward_lstm/lstm_cell/kernel:0",
        "bidirectional/forward_lstm/lstm_cell/recurrent_kernel:0",
        "bidirectional/forward_lstm/lstm_cell/bias:0",
        "bidirectional/backward_gru/gru_cell/kernel:0",
        "bidirectional/backward_gru/gru_cell/recurrent_kernel:0",
        "bidirectional/backward_gru/gru_cell/bias:0"]
    assert layer.backward_layer.go_backwards and not layer.forward_layer.go_backwards
    assert layer.layer.weights == []  # the wrapped layer itself is only a template


def test_bidirectional_in_function():
    layer = Bidirectional(LSTM(3, return_sequences=True))
    eager = layer(X, mask=MASK)
    traced = tf.function(lambda x: layer(x, mask=MASK))(tf.constant(X))
    np.testing.assert_allclose(traced.numpy(), eager.numpy(), rtol=1e-5, atol=1e-6)


def test_bidirectional_initial_weights_and_stateful():
    template = Bidirectional(SimpleRNN(2))
    template(X)
    values = [w.numpy() + 0.5 for w in template.weights]
    layer = Bidirectional(SimpleRNN(2), weights=values)
    layer(X)
    for w, v in zip(layer.weights, values):
        np.testing.assert_array_equal(w.numpy(), v)
    stateful = Bidirectional(LSTM(2, stateful=True))
    stateful(X)
    stateful.reset_states()
    assert all(np.all(s.numpy() == 0) for s in stateful.forward_layer.states)
    with pytest.raises(AttributeError, match="Layer must be stateful"):
        layer.reset_states()


def test_bidirectional_config_round_trip():
    layer = Bidirectional(GRU(2, return_sequences=True), merge_mode="mul",
                          backward_layer=LSTM(2, go_backwards=True, return_sequences=True))
    config = layer.get_config()
    assert config["merge_mode"] == "mul" and config["layer"]["class_name"] == "GRU"
    assert config["backward_layer"]["class_name"] == "LSTM"
    clone = deserialize(serialize(layer))
    assert clone.get_config() == config
    assert isinstance(clone.backward_layer, LSTM)


def test_bidirectional_errors():
    with pytest.raises(ValueError, match="Invalid merge mode"):
        Bidirectional(LSTM(2), merge_mode="max")
    with pytest.raises(ValueError, match="Please initialize `Bidirectional` layer"):
        Bidirectional(object())
    with pytest.raises(ValueError, match="should have different `go_backwards` value"):
        Bidirectional(LSTM(2), backward_layer=LSTM(2))
    with pytest.raises(ValueError, match='same value for attribute "return_sequences"'):
        Bidirectional(LSTM(2), backward_layer=LSTM(2, go_backwards=True,
                                                   return_sequences=True))


# -- TimeDistributed ------------------------------------------------------------------------------

def test_time_distributed_dense():
    backend.clear_session()
    layer = TimeDistributed(Dense(2))
    y = layer(X)
    kernel, bias = layer.layer.kernel.numpy(), layer.layer.bias.numpy()
    np.testing.assert_allclose(y.numpy(), X @ kernel + bias, rtol=1e-5, atol=1e-6)
    assert [w.name for w in layer.weights] == ["time_distributed/kernel:0",
                                               "time_distributed/bias:0"]
    assert layer.compute_output_shape((None, 5, 4)) == (None, 5, 2)
    assert layer.input_spec.shape == (None, None, 4)


def test_time_distributed_unknown_dims_and_function():
    layer = TimeDistributed(Dense(3))
    run = tf.function(lambda x: layer(x),
                      input_signature=[tf.TensorSpec([None, None, 4], tf.float32)])
    y = run(X)
    np.testing.assert_allclose(y.numpy(), X @ layer.layer.kernel.numpy(), rtol=1e-5, atol=1e-6)


class Scale(Layer):
    """A layer outside the built-ins: TimeDistributed calls it step by step."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0

    def call(self, inputs):
        self.calls += 1
        return inputs * 2.0


def test_time_distributed_custom_layer_runs_per_step():
    layer = TimeDistributed(Scale())
    np.testing.assert_allclose(layer(X).numpy(), 2 * X)
    assert layer.layer.calls == 6  # (as Keras's loop: its first step once more, before)


def test_time_distributed_mask_and_training():
    inputs = np.array([[1, 2, 0], [3, 0, 0]])
    embedded = Embedding(4, 2, mask_zero=True)(inputs)
    layer = TimeDistributed(Dense(3))
    y = layer(embedded)
    np.testing.assert_array_equal(np.asarray(y._keras_mask), inputs != 0)
    dropout = TimeDistributed(Dropout(0.5))
    ones = np.ones((4, 3, 8), np.float32)
    np.testing.assert_array_equal(dropout(ones).numpy(), ones)
    assert np.any(dropout(ones, training=True).numpy() == 0)


def test_time_distributed_config_and_errors():
    layer = TimeDistributed(Dense(2, activation="relu"))
    clone = deserialize(serialize(layer))
    assert clone.get_config() == layer.get_config()
    assert layer.get_config()["layer"]["class_name"] == "Dense"
    with pytest.raises(ValueError, match="should be passed an `input_shape ` with at least 3"):
        TimeDistributed(Dense(2))(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="Please initialize `TimeDistributed` layer"):
        TimeDistributed("dense")


# -- Masking --------------------------------------------------------------------------------------

def test_masking():
    x = X.copy()
    x[~MASK] = 0.5
    layer = Masking(mask_value=0.5)
    y = layer(x)
    np.testing.assert_array_equal(np.asarray(y._keras_mask), MASK)
    np.testing.assert_array_equal(y.numpy(), np.where(MASK[..., None], x, 0))
    assert layer.compute_output_shape((None, 5, 4)) == (None, 5, 4)
    assert Masking.from_config(layer.get_config()).mask_value == 0.5
    traced = tf.function(lambda v: layer(v))(tf.constant(x))
    np.testing.assert_array_equal(traced.numpy(), y.numpy())


def test_time_distributed_compute_mask_takes_arrays():
    # (an array's shape is a tuple, which failed before the layer had built)
    mask = np.array([[True, True, False], [True, False, False]])
    out = TimeDistributed(Dense(2)).compute_mask(np.ones((2, 3, 4), "float32"), mask)
    np.testing.assert_array_equal(out.numpy(), mask)


def test_bidirectional_keras_tensor_initial_states_are_node_inputs():
    x = tf.keras.Input((5, 4), name="x")
    h, c = tf.keras.Input((3,), name="h"), tf.keras.Input((3,), name="c")
    layer = Bidirectional(LSTM(3), name="bi")
    model = tf.keras.Model([x, h, c], layer(x, initial_state=[h, c, c, h]))
    none = {"initial_state": None, "constants": None}
    assert model.get_config()["layers"][-1]["inbound_nodes"] == [
        [[name, 0, 0, none] for name in ("x", "h", "c", "c", "h")]]
    assert layer.input_shape == [(None, 5, 4)] + [(None, 3)] * 4
    assert repr(layer.input_spec) == "[InputSpec(ndim=3)]"
    states = [RNG.standard_normal((3, 3)).astype(np.float32) for _ in range(2)]
    expected = layer(X, initial_state=[states[0], states[1], states[1], states[0]]).numpy()
    np.testing.assert_allclose(model([X, *states]).numpy(), expected, rtol=1e-6)
    again = tf.keras.models.model_from_json(model.to_json())
    again.set_weights(model.get_weights())
    np.testing.assert_allclose(again([X, *states]).numpy(), expected, rtol=1e-6)
    with pytest.raises(ValueError, match="with a mix of TF-Keras tensors and non-Keras"):
        Bidirectional(LSTM(3))(x, initial_state=[h, tf.zeros((2, 3)), h, c])
