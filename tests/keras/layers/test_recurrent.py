"""Recurrent layers against NumPy cells: SimpleRNN, LSTM and GRU (and their cells, RNN,
StackedRNNCells) with fixed weights; sequences and states, go_backwards, masks, stateful
layers, initial states, dropout, gradients against finite differences, configs, weight
names, errors, and traced functions (unrolled and while_loop) equal to eager, as tf_keras
2.21 has them."""
import logging

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import activations, backend
from eagerflow.keras.layers import Dense, deserialize, serialize
from eagerflow.keras.layers import (GRU, LSTM, RNN, AbstractRNNCell, GRUCell, LSTMCell, SimpleRNN,
    SimpleRNNCell, StackedRNNCells)
from tests.internals import recurrent

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 5, 4)).astype(np.float32)
MASK = np.array([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0], [0, 1, 0, 1, 1]], bool)


# -- NumPy reference ----------------------------------------------------------------------------

def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_simple(x, states, kernel, recurrent_kernel, bias):
    h = np.tanh(x @ kernel + states[0] @ recurrent_kernel + bias)
    return h, [h]


def np_lstm(x, states, kernel, recurrent_kernel, bias):
    h, c = states
    i, f, g, o = np.split(x @ kernel + h @ recurrent_kernel + bias, 4, axis=-1)
    c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
    h = _sigmoid(o) * np.tanh(c)
    return h, [h, c]


def np_gru(x, states, kernel, recurrent_kernel, bias, reset_after=True):
    h = states[0]
    units = h.shape[-1]
    input_bias, recurrent_bias = bias if reset_after else (bias, np.zeros_like(bias))
    x_z, x_r, x_h = np.split(x @ kernel + input_bias, 3, axis=-1)
    if reset_after:
        r_z, r_r, r_h = np.split(h @ recurrent_kernel + recurrent_bias, 3, axis=-1)
        z, r = _sigmoid(x_z + r_z), _sigmoid(x_r + r_r)
        candidate = np.tanh(x_h + r * r_h)
    else:
        r_z, r_r = np.split(h @ recurrent_kernel[:, :2 * units], 2, axis=-1)
        z, r = _sigmoid(x_z + r_z), _sigmoid(x_r + r_r)
        candidate = np.tanh(x_h + (r * h) @ recurrent_kernel[:, 2 * units:])
    h = z * h + (1 - z) * candidate
    return h, [h]


def np_rnn(step, x, states, mask=None, go_backwards=False, zero_output=False):
    """Keras's loop: masked steps keep the states and repeat the last output (or zeros)."""
    order = range(x.shape[1] - 1, -1, -1) if go_backwards else range(x.shape[1])
    outputs, previous = [], None
    for t in order:
        output, new = step(x[:, t], states)
        if mask is not None:
            m = mask[:, t, None]
            fill = np.zeros_like(output) if zero_output or previous is None else previous
            output = np.where(m, output, fill)
            new = [np.where(m, n, s) for n, s in zip(new, states)]
        outputs.append(output)
        previous, states = output, new
    return np.stack(outputs, 1), states


def set_weights(layer, x, seed=1, **call_kwargs):
    """Builds `layer` on `x` and gives it fixed random weights (returned)."""
    layer(x, **call_kwargs)
    rng = np.random.default_rng(seed)
    weights = [rng.uniform(-0.6, 0.6, w.shape.as_list()).astype(w.dtype.as_numpy_dtype)
               for w in layer.weights]
    layer.set_weights(weights)
    return weights


def zeros(units, count=1):
    return [np.zeros((X.shape[0], units), np.float32) for _ in range(count)]


CELLS = {
    "simple": (SimpleRNN, np_simple, 1),
    "lstm": (LSTM, np_lstm, 2),
    "gru": (GRU, np_gru, 1),
}


# -- values -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(CELLS))
def test_layer_against_numpy(kind):
    layer_class, step, n_states = CELLS[kind]
    layer = layer_class(3, return_sequences=True, return_state=True)
    weights = set_weights(layer, X)
    outputs, *states = layer(X)
    expected, expected_states = np_rnn(lambda x, s: step(x, s, *weights), X, zeros(3, n_states))
    np.testing.assert_allclose(outputs.numpy(), expected, rtol=1e-5, atol=1e-6)
    for state, want in zip(states, expected_states):
        np.testing.assert_allclose(state.numpy(), want, rtol=1e-5, atol=1e-6)
    assert outputs.shape == (3, 5, 3) and len(states) == n_states


def test_gru_reset_before():
    layer = GRU(3, return_sequences=True, reset_after=False)
    weights = set_weights(layer, X)
    assert layer.cell.bias.shape == (9,)
    expected, _ = np_rnn(lambda x, s: np_gru(x, s, *weights, reset_after=False), X, zeros(3))
    np.testing.assert_allclose(layer(X).numpy(), expected, rtol=1e-5, atol=1e-6)


def test_literal_values_of_tf_keras():
    # values tf_keras 2.21 gives for these weights (w below) and inputs
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 3, 2)

    def w(shape, k):
        return (np.sin(np.arange(np.prod(shape)) * 0.7 + k) * 0.5).astype(np.float32) \
            .reshape(shape)
    expected = {
        LSTM: [[[-0.29997438, -0.10589764], [-0.30681923, -0.07063136],
                [-0.25146982, -0.06720773]],
               [[-0.09551898, -0.0926617], [-0.07803272, -0.10573719],
                [-0.02576686, -0.10891436]]],
        GRU: [[[-0.21456297, -0.201497], [-0.34368575, -0.30486745],
               [-0.386895, -0.32906976]],
              [[-0.11420404, -0.11877163], [-0.11077102, -0.1454034],
               [-0.02152067, -0.11581507]]],
        SimpleRNN: [[[0.05146467, -0.43134665], [0.10625387, -0.16927709],
                     [0.3777136, 0.13494192]],
                    [[0.5291964, 0.34581545], [0.8032285, 0.7184059],
                     [0.91007286, 0.86729056]]],
    }
    for layer_class, values in expected.items():
        layer = layer_class(2, return_sequences=True)
        layer(x)
        layer.set_weights([w(v.shape.as_list(), k) for k, v in enumerate(layer.weights)])
        np.testing.assert_allclose(layer(x).numpy(), values, rtol=1e-5, atol=1e-6)


def test_last_output_and_shapes():
    layer = LSTM(3)
    weights = set_weights(layer, X)
    expected, _ = np_rnn(lambda x, s: np_lstm(x, s, *weights), X, zeros(3, 2))
    np.testing.assert_allclose(layer(X).numpy(), expected[:, -1], rtol=1e-5, atol=1e-6)
    assert layer.compute_output_shape((None, 5, 4)) == (None, 3)
    layer = LSTM(3, return_sequences=True, return_state=True)
    assert layer.compute_output_shape((2, 5, 4)) == [(2, 5, 3), (2, 3), (2, 3)]


@pytest.mark.parametrize("kind", sorted(CELLS))
def test_go_backwards(kind):
    layer_class, step, n_states = CELLS[kind]
    layer = layer_class(2, return_sequences=True, go_backwards=True)
    weights = set_weights(layer, X)
    expected, _ = np_rnn(lambda x, s: step(x, s, *weights), X, zeros(2, n_states),
                         go_backwards=True)
    # the outputs come in the order the steps ran: the last input's first
    np.testing.assert_allclose(layer(X).numpy(), expected, rtol=1e-5, atol=1e-6)


def test_time_major():
    layer = LSTM(3, return_sequences=True, time_major=True)
    weights = set_weights(layer, X.transpose(1, 0, 2))
    expected, _ = np_rnn(lambda x, s: np_lstm(x, s, *weights), X, zeros(3, 2))
    np.testing.assert_allclose(layer(X.transpose(1, 0, 2)).numpy(), expected.transpose(1, 0, 2),
                               rtol=1e-5, atol=1e-6)
    assert layer.compute_output_shape((5, None, 4)) == (5, None, 3)


def test_cells_one_step():
    x, h = X[:, 0], RNG.standard_normal((3, 2)).astype(np.float32)
    for cell, step, states in [(SimpleRNNCell(2), np_simple, [h]),
                               (LSTMCell(2), np_lstm, [h, 2 * h]),
                               (GRUCell(2), np_gru, [h])]:
        output, new_states = cell(x, states)
        want, want_states = step(x, states, *[w.numpy() for w in cell.weights])
        np.testing.assert_allclose(output.numpy(), want, rtol=1e-5, atol=1e-6)
        for state, expected in zip(new_states, want_states):
            np.testing.assert_allclose(state.numpy(), expected, rtol=1e-5, atol=1e-6)
    # a single state tensor in, a single state tensor out
    output, state = GRUCell(2)(x, h)
    assert isinstance(state, tf.Tensor) and state.shape == (3, 2)


def test_lstm_cell_weights():
    cell = LSTMCell(3, name="lstm_cell")
    cell(X[:, 0], [np.zeros((3, 3), np.float32)] * 2)
    assert [(w.name, w.shape.as_list()) for w in cell.weights] == [
        ("lstm_cell/kernel:0", [4, 12]), ("lstm_cell/recurrent_kernel:0", [3, 12]),
        ("lstm_cell/bias:0", [12])]
    # unit_forget_bias: the forget gate's bias (the second quarter) starts at one
    np.testing.assert_array_equal(cell.bias.numpy(), [0] * 3 + [1] * 3 + [0] * 6)
    cell = LSTMCell(3, unit_forget_bias=False, bias_initializer="ones")
    cell(X[:, 0], [np.zeros((3, 3), np.float32)] * 2)
    np.testing.assert_array_equal(cell.bias.numpy(), np.ones(12))
    initial = cell.get_initial_state(batch_size=2, dtype="float32")
    assert isinstance(initial, list) and [s.shape for s in initial] == [(2, 3), (2, 3)]


def test_weight_names_and_order():
    backend.clear_session()  # the names of a fresh session, as tf_keras gives them
    expected = {
        LSTM(3): [("lstm/lstm_cell/kernel:0", [4, 12]),
                  ("lstm/lstm_cell/recurrent_kernel:0", [3, 12]),
                  ("lstm/lstm_cell/bias:0", [12])],
        GRU(3): [("gru/gru_cell/kernel:0", [4, 9]), ("gru/gru_cell/recurrent_kernel:0", [3, 9]),
                 ("gru/gru_cell/bias:0", [2, 9])],
        SimpleRNN(3, use_bias=False): [
            ("simple_rnn/simple_rnn_cell/kernel:0", [4, 3]),
            ("simple_rnn/simple_rnn_cell/recurrent_kernel:0", [3, 3])],
        RNN([LSTMCell(2), GRUCell(3)]): [
            ("rnn/stacked_rnn_cells/lstm_cell/kernel:0", [4, 8]),
            ("rnn/stacked_rnn_cells/lstm_cell/recurrent_kernel:0", [2, 8]),
            ("rnn/stacked_rnn_cells/lstm_cell/bias:0", [8]),
            ("rnn/stacked_rnn_cells/gru_cell/kernel:0", [2, 9]),
            ("rnn/stacked_rnn_cells/gru_cell/recurrent_kernel:0", [3, 9]),
            ("rnn/stacked_rnn_cells/gru_cell/bias:0", [2, 9])],
    }
    for layer, names in expected.items():
        assert layer.weights == []  # built on the first call
        layer(X)
        assert [(w.name, w.shape.as_list()) for w in layer.weights] == names


# -- masks --------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(CELLS))
@pytest.mark.parametrize("go_backwards", [False, True])
def test_mask_carries_states(kind, go_backwards):
    layer_class, step, n_states = CELLS[kind]
    layer = layer_class(2, return_sequences=True, return_state=True, go_backwards=go_backwards)
    weights = set_weights(layer, X, mask=MASK)
    outputs, *states = layer(X, mask=MASK)
    expected, expected_states = np_rnn(lambda x, s: step(x, s, *weights), X,
                                       zeros(2, n_states), MASK, go_backwards)
    np.testing.assert_allclose(outputs.numpy(), expected, rtol=1e-5, atol=1e-6)
    for state, want in zip(states, expected_states):
        np.testing.assert_allclose(state.numpy(), want, rtol=1e-5, atol=1e-6)
    # the output mask is the input mask with return_sequences
    np.testing.assert_array_equal(np.asarray(outputs._keras_mask), MASK)


def test_mask_repeats_or_zeroes_outputs():
    layer = SimpleRNN(2, return_sequences=True)
    weights = set_weights(layer, X, mask=MASK)
    outputs = layer(X, mask=MASK).numpy()
    # row 1 is masked from step 3 on: its output repeats step 2's
    np.testing.assert_array_equal(outputs[1, 3], outputs[1, 2])
    np.testing.assert_array_equal(outputs[2, 0], [0, 0])  # masked before any step ran
    zeroed = SimpleRNN(2, return_sequences=True, zero_output_for_mask=True)
    zeroed(X, mask=MASK)
    zeroed.set_weights(weights)
    expected, _ = np_rnn(lambda x, s: np_simple(x, s, *weights), X, zeros(2), MASK,
                         zero_output=True)
    np.testing.assert_allclose(zeroed(X, mask=MASK).numpy(), expected, rtol=1e-5, atol=1e-6)
    assert zeroed.get_config()["zero_output_for_mask"] is True


def test_masking_layer_then_lstm():
    from eagerflow.keras.layers import Masking
    x = X.copy()
    x[~MASK] = 0.0
    layer = LSTM(2, return_sequences=True)
    weights = set_weights(layer, x)
    outputs = layer(Masking()(x))
    expected, _ = np_rnn(lambda v, s: np_lstm(v, s, *weights), x, zeros(2, 2), MASK)
    np.testing.assert_allclose(outputs.numpy(), expected, rtol=1e-5, atol=1e-6)
    assert getattr(LSTM(2)(Masking()(x)), "_keras_mask", None) is None  # no sequence


# -- states -------------------------------------------------------------------------------------

def test_initial_state():
    h0 = RNG.standard_normal((3, 2)).astype(np.float32)
    c0 = RNG.standard_normal((3, 2)).astype(np.float32)
    layer = LSTM(2, return_state=True)
    weights = set_weights(layer, X)
    expected, expected_states = np_rnn(lambda x, s: np_lstm(x, s, *weights), X, [h0, c0])
    for result in (layer(X, initial_state=[h0, c0]), layer([X, h0, c0])):
        np.testing.assert_allclose(result[0].numpy(), expected[:, -1], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(result[2].numpy(), expected_states[1], rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="Layer has 2 states but was passed 1 initial states"):
        layer(X, initial_state=[h0])
    # (a built layer's: where the states meet the weights, as in tf_keras)
    with pytest.raises(tf.errors.InvalidArgumentError):
        layer(X, initial_state=[h0, np.zeros((3, 5), np.float32)])



def test_initial_state_checked_as_the_layer_builds():
    # Keras checks the states against the cell's sizes before the call (no call context)
    for layer, sizes in ((LSTM(3), "[3, 3]"), (GRU(3), "[3]")):
        with pytest.raises(ValueError) as info:
            layer(X, initial_state=[np.zeros((3, 3), np.float32)] * 3)
        assert str(info.value) == (
            "An `initial_state` was passed that is not compatible with `cell.state_size`. "
            "Received `state_spec`=ListWrapper([" + ", ".join(
                ["InputSpec(shape=(3, 3), ndim=2)"] * 3) + "]); however `cell.state_size` is "
            + sizes)
        # (the cell is built by then: its weights drew from the random streams, as in TF)
        assert not layer.built and layer.cell.built and len(layer.weights) == 3


def test_stateful_carries_states():
    layer = GRU(2, stateful=True, return_sequences=True)
    weights = set_weights(layer, X[:, :2])
    layer.reset_states()
    first, second = layer(X[:, :2]).numpy(), layer(X[:, 2:]).numpy()
    expected, final = np_rnn(lambda x, s: np_gru(x, s, *weights), X, zeros(2))
    np.testing.assert_allclose(np.concatenate([first, second], 1), expected, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(layer.states[0].numpy(), final[0], rtol=1e-5, atol=1e-6)
    assert layer.weights == layer.trainable_weights and len(layer.weights) == 3
    layer.reset_states()
    np.testing.assert_allclose(layer(X[:, :2]).numpy(), first, rtol=1e-6)
    layer.reset_states([np.ones((3, 2))])
    np.testing.assert_array_equal(layer.states[0].numpy(), np.ones((3, 2)))
    with pytest.raises(ValueError, match="State 0 is incompatible"):
        layer.reset_states([np.ones((2, 2))])
    with pytest.raises(AttributeError, match="Layer must be stateful"):
        GRU(2).reset_states()
    unbatched = LSTM(2, stateful=True)
    with pytest.raises(ValueError, match="needs to know its batch size"):
        unbatched(tf.keras.Input(shape=(None, 4)))


def test_stateful_states_are_not_weights_of_a_model():
    model = tf.keras.Sequential([LSTM(3, stateful=True, batch_input_shape=(2, None, 4))])
    assert model.non_trainable_weights == [] and len(model.weights) == 3
    assert len(model.layers[0].states) == 2


def test_builtin_layers_take_no_constants():
    layer = GRU(2)
    layer(X)
    with pytest.raises(ValueError, match="initial states") as info:
        layer(X, initial_state=[zeros(2)[0]] * 2)
    assert "initial_state=" in str(info.value) and "constants" not in str(info.value)


def test_stateful_in_function():
    layer = LSTM(2, stateful=True)
    set_weights(layer, X)
    layer.reset_states()
    eager = [layer(X).numpy() for _ in range(2)]
    layer.reset_states()
    run = tf.function(lambda x: layer(x))
    traced = [run(X).numpy() for _ in range(2)]
    np.testing.assert_allclose(traced, eager, rtol=1e-5, atol=1e-6)
    assert not np.allclose(traced[0], traced[1])


# -- dropout ------------------------------------------------------------------------------------

def test_dropout_only_in_training():
    layer = LSTM(3, dropout=0.5, recurrent_dropout=0.5, return_sequences=True)
    plain = LSTM(3, return_sequences=True)
    weights = set_weights(layer, X)
    plain(X)
    plain.set_weights(weights)
    # (the plain layer runs fused, the other its loop: float32 rounding apart)
    np.testing.assert_allclose(layer(X).numpy(), plain(X).numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(layer(X, training=False).numpy(), plain(X).numpy(), rtol=1e-6,
                               atol=1e-7)
    assert not np.allclose(layer(X, training=True).numpy(), plain(X).numpy())
    assert layer.cell.implementation == 1  # as Keras, under recurrent dropout


def test_dropout_mask_is_one_per_sequence():
    # inputs all zero but one feature: with input dropout the first step's output shows
    # which units were kept, and a kept unit stays kept at every step
    layer = SimpleRNN(1, dropout=0.5, kernel_initializer="ones",
                      recurrent_initializer="zeros", return_sequences=True)
    x = np.ones((200, 6, 1), np.float32)
    outputs = layer(x, training=True).numpy()[..., 0]
    assert np.all(outputs == outputs[:, :1])
    assert 0.3 < np.mean(outputs == 0) < 0.7
    cell = SimpleRNNCell(2, dropout=0.5)
    mask = cell.get_dropout_mask_for_cell(tf.ones((2, 3)), training=True)
    assert mask is cell.get_dropout_mask_for_cell(tf.ones((2, 3)), training=True)
    cell.reset_dropout_mask()
    assert mask is not cell.get_dropout_mask_for_cell(tf.ones((2, 3)), training=True)
    np.testing.assert_array_equal(
        SimpleRNNCell(2, dropout=0.5).get_dropout_mask_for_cell(tf.ones((2, 3)), False), 1.0)
    assert SimpleRNNCell(2).get_dropout_mask_for_cell(tf.ones((2, 3)), True) is None


@pytest.mark.parametrize("layer_class, unroll, losses", [
    (LSTM, False, [5.015502452850342, 3.220339059829712]),
    (GRU, False, [0.4803194999694824, 0.33372724056243896]),
    (SimpleRNN, False, [5.343590259552002, 3.3229897022247314]),
    (LSTM, True, [5.126131534576416, 3.2848899364471436])])
def test_recurrent_dropout_in_fit_draws_each_steps_mask_as_tf(layer_class, unroll, losses):
    # In a function, Keras's loop is a while_loop whose body draws the recurrent dropout
    # mask anew at every step; unrolled, one mask serves every step (TF's losses)
    rng = np.random.RandomState(0)
    x, y = rng.rand(11, 4, 3).astype("float32"), rng.rand(11, 1).astype("float32")
    tf.random.set_seed(0)
    model = tf.keras.Sequential([
        tf.keras.Input((4, 3)),
        layer_class(3, recurrent_dropout=0.3, kernel_initializer="ones",
                    recurrent_initializer="ones", unroll=unroll),
        Dense(1, kernel_initializer="ones")])
    model.compile("sgd", "mse")
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], losses, rtol=1e-6)


# -- gradients ----------------------------------------------------------------------------------

@pytest.mark.parametrize("layer_class", [LSTM, GRU])
def test_gradients_against_finite_differences(layer_class):
    x = RNG.standard_normal((2, 3, 2))
    mask = np.array([[1, 1, 0], [1, 1, 1]], bool)
    layer = layer_class(2, return_sequences=True, dtype="float64")
    set_weights(layer, x, mask=mask)
    probe = RNG.standard_normal((2, 3, 2))

    def loss():
        return tf.reduce_sum(layer(x, mask=mask) * probe)
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = loss()
    grads = tape.gradient(value, [x, *layer.weights])
    assert value.dtype == tf.float64
    for variable, grad in zip(layer.weights, grads[1:]):
        numeric = np.zeros(variable.shape.as_list())
        base = variable.numpy()
        for index in np.ndindex(*base.shape):
            for sign in (1, -1):
                shifted = base.copy()
                shifted[index] += sign * 1e-6
                variable.assign(shifted)
                numeric[index] += sign * loss().numpy() / 2e-6
            variable.assign(base)
        np.testing.assert_allclose(grad.numpy(), numeric, rtol=1e-5, atol=1e-7)
    assert grads[0].shape == (2, 3, 2)
    # the masked step of row 0 contributes nothing through its input
    np.testing.assert_array_equal(grads[0].numpy()[0, 2], 0.0)


def test_gradient_in_function_equals_eager(loop_kind):
    layer = LSTM(3, return_sequences=True)
    set_weights(layer, X, mask=MASK)

    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.square(layer(x, mask=MASK)))
        return tape.gradient(loss, [x, *layer.weights])
    eager = grads(tf.constant(X))
    traced = tf.function(grads)(tf.constant(X))
    for a, b in zip(eager, traced):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


# -- traced functions ---------------------------------------------------------------------------

@pytest.fixture(params=["unrolled", "while_loop"])
def loop_kind(request, monkeypatch):
    if request.param == "while_loop":
        monkeypatch.setattr(recurrent, "_MAX_UNROLLED_STEPS", 0)
    return request.param


@pytest.mark.parametrize("layer", [
    lambda: LSTM(3, return_sequences=True, return_state=True, go_backwards=True),
    lambda: GRU(3, return_sequences=True, zero_output_for_mask=True),
    lambda: SimpleRNN(3, return_state=True),
    lambda: RNN([LSTMCell(2), SimpleRNNCell(3)], return_sequences=True, return_state=True),
], ids=["lstm", "gru", "simple", "stacked"])
def test_function_equals_eager(layer, loop_kind):
    layer = layer()
    set_weights(layer, X, mask=MASK)
    eager = tf.nest.flatten(layer(X, mask=MASK))
    traced = tf.nest.flatten(tf.function(lambda x: layer(x, mask=MASK))(tf.constant(X)))
    for a, b in zip(eager, traced):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_unknown_time_dimension_runs_a_while_loop():
    # (reset_after=False: a configuration the fused op does not take runs the loop)
    layer = GRU(3, return_sequences=True, reset_after=False)
    weights = set_weights(layer, X)
    run = tf.function(lambda x: layer(x),
                      input_signature=[tf.TensorSpec([None, None, 4], tf.float32)])
    expected, _ = np_rnn(lambda x, s: np_gru(x, s, *weights, reset_after=False), X, zeros(3))
    np.testing.assert_allclose(run(X).numpy(), expected, rtol=1e-5, atol=1e-6)
    op_types = {op.type for op in run.get_concrete_function().graph.get_operations()}
    assert op_types & {"While", "StatelessWhile"}
    with pytest.raises(ValueError, match="Cannot unroll a RNN if the time dimension is "
                                         "undefined"):
        SimpleRNN(2, unroll=True)(tf.keras.Input(shape=(None, 4)))
    for layer in (LSTM(2, unroll=True), GRU(2, unroll=True)):  # (Keras's own calls' words)
        with pytest.raises(ValueError, match="Unrolling requires a fixed number of timesteps"):
            layer(tf.keras.Input(shape=(None, 4)))


def test_functional_api():
    inputs = tf.keras.Input(shape=(None, 4))
    outputs, h, c = LSTM(3, return_sequences=True, return_state=True)(inputs)
    assert outputs.shape.as_list() == [None, None, 3] and h.shape.as_list() == [None, 3]
    assert LSTM(3, unroll=True)(tf.keras.Input(shape=(5, 4))).shape.as_list() == [None, 3]


# -- generic cells ------------------------------------------------------------------------------

class MinimalCell(AbstractRNNCell):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", shape=(input_shape[-1], self.units))
        self.built = True

    def call(self, inputs, states):
        output = tf.matmul(inputs, self.kernel) + states[0]
        return output, [output]

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def test_custom_cell_and_stacked_cells():
    layer = RNN([MinimalCell(2), LSTMCell(3)], return_state=True)
    output, minimal_state, (h, c) = layer(X)
    kernel = layer.cell.cells[0].kernel.numpy()
    lstm_weights = [w.numpy() for w in layer.cell.cells[1].weights]
    expected_minimal = np.cumsum(X @ kernel, axis=1)
    expected, states = np_rnn(lambda x, s: np_lstm(x, s, *lstm_weights), expected_minimal,
                              zeros(3, 2))
    np.testing.assert_allclose(minimal_state.numpy(), expected_minimal[:, -1], rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(output.numpy(), expected[:, -1], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(c.numpy(), states[1], rtol=1e-5, atol=1e-5)
    assert layer.cell.state_size == (2, [3, 3]) and layer.cell.output_size == 3


def test_constants():
    class ConstantCell(MinimalCell):
        def call(self, inputs, states, constants):
            output = tf.matmul(inputs, self.kernel) + states[0] + constants[0]
            return output, [output]
    layer = RNN(ConstantCell(2))
    bias = np.ones((3, 2), np.float32)
    output = layer(X, constants=bias)
    expected = np.sum(X @ layer.cell.kernel.numpy(), axis=1) + 5 * bias
    np.testing.assert_allclose(output.numpy(), expected, rtol=1e-5, atol=1e-5)
    assert layer.get_config()["num_constants"] == 1
    with pytest.raises(ValueError, match="does not support constants"):
        RNN(MinimalCell(2))(X, constants=bias)


def test_rnn_function():
    def step(x, states):
        return states[0] + x, [states[0] + x]
    x = np.ones((2, 3, 1), np.float32)
    last, outputs, states = recurrent.rnn(step, x, [np.zeros((2, 1), np.float32)],
                                          mask=np.array([[1, 0, 1], [1, 1, 1]]))
    np.testing.assert_array_equal(outputs.numpy()[..., 0], [[1, 1, 2], [1, 2, 3]])
    np.testing.assert_array_equal(last.numpy()[:, 0], [2, 3])
    with pytest.raises(ValueError, match="Unrolling requires a fixed number of timesteps"):
        tf.function(lambda v: recurrent.rnn(step, v, [tf.zeros((2, 1))], unroll=True),
                    input_signature=[tf.TensorSpec([2, None, 1])])(x)


# -- configs and errors -------------------------------------------------------------------------

@pytest.mark.parametrize("layer", [
    LSTM(3, return_sequences=True, dropout=0.25, kernel_regularizer="l2",
         recurrent_constraint="non_neg", unit_forget_bias=False, stateful=False),
    GRU(2, reset_after=False, activation="relu", go_backwards=True, time_major=True),
    SimpleRNN(4, use_bias=False, recurrent_initializer="ones", unroll=True),
    RNN([LSTMCell(2), GRUCell(3)], return_state=True, zero_output_for_mask=True),
    RNN(SimpleRNNCell(2, recurrent_dropout=0.1)),
], ids=["lstm", "gru", "simple", "stacked", "rnn"])
def test_config_round_trip(layer):
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    assert deserialize(serialize(layer)).get_config() == config


def test_lstm_config_as_tf_keras():
    config = LSTM(3, name="lstm_c").get_config()
    assert list(config) == [
        "name", "trainable", "dtype", "return_sequences", "return_state", "go_backwards",
        "stateful", "unroll", "time_major", "units", "activation", "recurrent_activation",
        "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
        "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
        "activity_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint",
        "dropout", "recurrent_dropout", "implementation"]
    assert config["recurrent_initializer"]["class_name"] == "Orthogonal"
    assert list(GRU(2).get_config())[-2:] == ["implementation", "reset_after"]
    assert "implementation" not in SimpleRNN(2, implementation=2).get_config()
    cell_config = RNN(GRUCell(2, name="g")).get_config()["cell"]
    assert cell_config["class_name"] == "GRUCell" and cell_config["config"]["name"] == "g"


def test_built_cells_have_build_configs_as_tf_keras():
    # (cells, stacks of them and a TimeDistributed Dense record the shape their layer
    # built them for, which configs and .keras files carry)
    layer = RNN([LSTMCell(2), GRUCell(3)])
    layer(X)
    cell = layer.get_config()["cell"]
    assert cell["build_config"] == {"input_shape": (3, 4)}
    assert [c["build_config"] for c in cell["config"]["cells"]] == [
        {"input_shape": (3, 4)}, {"input_shape": (3, 2)}]
    wrapped = tf.keras.layers.TimeDistributed(Dense(2))
    wrapped(X)
    assert wrapped.get_config()["layer"]["build_config"] == {"input_shape": (3, 4)}


def test_cell_initial_states_are_lists_or_tensors():
    states = LSTMCell(2).get_initial_state(batch_size=3, dtype="float32")
    assert type(states) is list and len(states) == 2
    stacked = StackedRNNCells([LSTMCell(2), GRUCell(3)]).get_initial_state(
        batch_size=3, dtype="float32")
    assert type(stacked) is tuple and type(stacked[0]) is list
    assert tf.is_tensor(GRUCell(2).get_initial_state(batch_size=3, dtype="float32"))


def test_layer_attributes_read_the_cell():
    layer = GRU(4, dropout=0.2, recurrent_activation="hard_sigmoid")
    assert (layer.units, layer.dropout, layer.reset_after) == (4, 0.2, True)
    assert layer.recurrent_activation is activations.hard_sigmoid
    assert LSTM(2, dropout=3.0).dropout == 1.0  # clipped to [0, 1] as Keras


def test_regularizer_losses():
    layer = LSTM(2, kernel_regularizer="l2", recurrent_regularizer="l1",
                 activity_regularizer="l2")
    layer(X)
    assert len(layer.losses) == 3


def test_errors():
    with pytest.raises(ValueError, match="expected a positive integer, got 0"):
        LSTM(0)
    with pytest.raises(ValueError, match="should have a `call` method"):
        RNN(object())
    with pytest.raises(ValueError, match="should have a `state_size` attribute"):
        RNN(Dense(2))
    with pytest.raises(ValueError, match="All cells must have a `state_size`"):
        StackedRNNCells([object.__new__(type("C", (), {"call": None}))])
    with pytest.raises(ValueError, match="ndim=3"):
        LSTM(2)(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="batch_size and dtype cannot be None"):
        LSTMCell(2).get_initial_state()


@pytest.mark.parametrize("cell", [GRUCell, LSTMCell, SimpleRNNCell])
def test_a_cell_of_another_dtype_than_its_inputs_raises_as_tf(cell):
    """A float64 cell in a float32 RNN: TF's steps multiply float32 inputs by float64
    weights and raise (the weights are not cast, nor do the fused kernels run)."""
    layer = RNN(cell(3, dtype="float64"))
    with pytest.raises(tf.errors.InvalidArgumentError):
        layer(np.ones((2, 4, 5), np.float32))
    whole = GRU(3, dtype="float64")  # (the layer's own dtype casts its inputs)
    assert whole(np.ones((2, 4, 5), np.float32)).dtype == tf.float64


@pytest.mark.parametrize("make", [
    lambda: tf.keras.layers.LSTM(4), lambda: tf.keras.layers.GRU(4),
    lambda: tf.keras.layers.SimpleRNN(4),
    lambda: tf.keras.layers.RNN(tf.keras.layers.LSTMCell(3))])
def test_zero_time_steps_fail_in_the_first_steps_slice_as_in_tf(make):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"slice index 0 of dimension 0 out of bounds\. \[Op:StridedSlice\]"):
        make()(tf.zeros([2, 0, 3]))


def test_unrolling_zero_time_steps_is_refused_as_in_tf():
    with pytest.raises(ValueError, match="Unrolling requires a fixed number of timesteps."):
        tf.keras.layers.LSTM(4, unroll=True)(tf.zeros([2, 0, 3]))


@pytest.mark.parametrize("make", [
    lambda: tf.keras.layers.SimpleRNN(2, stateful=True),
    lambda: tf.keras.layers.LSTM(2, stateful=True),
    lambda: tf.keras.layers.GRU(2, stateful=True, return_sequences=True),
    lambda: tf.keras.layers.LSTM(2, stateful=True, recurrent_dropout=0.1),
])
def test_stateful_last_single_sample_batch_broadcasts_over_the_states(make):
    # As Keras: predict's last batch of one sample runs against each of the fixed batch's
    # states, so 5 samples in batches of 2 give 6 rows, the last two the one sample
    # continued from each state (not an error).
    x = np.random.RandomState(0).rand(5, 3, 1).astype("float32")
    tf.keras.utils.set_random_seed(1)
    layer = make()
    model = tf.keras.Sequential([tf.keras.Input(batch_shape=(2, 3, 1)), layer])
    got = model.predict(x, batch_size=2, verbose=0)
    model.reset_states()
    want = model.predict(np.concatenate([x, x[4:]]), batch_size=2, verbose=0)
    assert got.shape[0] == 6
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    assert [s.shape for s in layer.states] == [(2, 2)] * len(layer.states)


def test_lstm_adds_the_bias_where_keras_does_under_mixed_float16():
    # Keras's fused step adds the bias after both matmuls; a cell computing its gates one by
    # one (recurrent dropout) adds it to the input part: in float16 the order shows
    x = tf.constant(((np.arange(2 * 10 * 6) * 7919 % 1000) / 500 - 1).reshape(2, 10, 6),
                    tf.float32)
    init = tf.keras.initializers.GlorotUniform
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        outs = [tf.keras.layers.LSTM(4, kernel_initializer=init(6), recurrent_initializer=init(7),
                                     bias_initializer="ones", **kw)(x).numpy()[1].tolist()
                for kw in ({}, {"implementation": 1}, {"unroll": True},
                           {"recurrent_dropout": 0.5})]
    finally:
        tf.keras.mixed_precision.set_global_policy(None)
    fused = [0.455322265625, 0.78515625, 0.79296875, 0.57421875]
    assert outs == [fused, fused, fused, [0.455810546875, 0.78515625, 0.79296875, 0.57421875]]


def test_simple_rnn_implementation_argument_logs_its_deprecation(caplog):
    with caplog.at_level(logging.WARNING, "tensorflow"):
        SimpleRNN(2)
        assert not caplog.records
        layer = SimpleRNN(2, implementation=1)
    assert [r.getMessage() for r in caplog.records] == [
        "The `implementation` argument in `SimpleRNN` has been deprecated. Please remove it "
        "from your layer call."]
    assert "implementation" not in layer.get_config()


@pytest.mark.parametrize("cls, count", [(LSTM, 2), (GRU, 1), (SimpleRNN, 1)])
def test_initial_state_of_the_wrong_size_for_a_built_layer_is_an_invalid_argument(cls, count):
    # tf_keras checks the states' sizes as the layer builds (ValueError); afterwards a wrong
    # size fails where the states meet the weights, with the op's InvalidArgumentError
    x = np.ones((2, 5, 3), "float32")
    with pytest.raises(ValueError, match="not compatible with `cell.state_size`"):
        cls(3)(x, initial_state=[tf.ones((2, 4))] * count)
    layer = cls(3)
    layer(x)
    with pytest.raises(tf.errors.InvalidArgumentError):
        layer(x, initial_state=[tf.ones((2, 4))] * count)


def test_keras_rnn_runs_tf1_cells_with_one_state():
    # (TF 1's cells take their one state bare; a list of it failed in their concat)
    x = np.arange(30, dtype="float32").reshape(2, 5, 3) / 30
    gru = tf.compat.v1.nn.rnn_cell.GRUCell(2, kernel_initializer=tf.keras.initializers.Constant(0.1))
    np.testing.assert_allclose(RNN(gru)(x).numpy(), [[0.0683, 0.0683], [0.1741, 0.1741]],
                               atol=1e-4)
    basic = tf.compat.v1.nn.rnn_cell.BasicRNNCell(2)
    assert RNN(basic, return_state=True)(x)[1].shape == (2, 2)


# -- Keras tensors as initial states and constants: inputs of the layer's node ---------------

@pytest.mark.parametrize("cls, states", [(LSTM, 2), (GRU, 1), (SimpleRNN, 1)])
def test_keras_tensor_initial_states_are_node_inputs(cls, states, tmp_path):
    x = tf.keras.Input((5, 4), name="x")
    hs = [tf.keras.Input((3,), name=f"h{i}") for i in range(states)]
    layer = cls(3, name="rnn")
    y = layer(x, initial_state=hs)
    assert layer.input_shape == [(None, 5, 4)] + [(None, 3)] * states
    assert [t.name for t in layer.input] == ["x"] + [h.name for h in hs]
    assert repr(layer.input_spec) == "[InputSpec(shape=(None, None, 4), ndim=3)]"
    model = tf.keras.Model([x, *hs], y)
    nodes = [[["x", 0, 0, {}]] + [[h.name, 0, 0, {}] for h in hs]]
    assert model.get_config()["layers"][-1]["inbound_nodes"] == nodes
    data = [X, *[RNG.standard_normal((3, 3)).astype(np.float32) for _ in hs]]
    expected = layer(X, initial_state=data[1:]).numpy()
    np.testing.assert_allclose(model(data).numpy(), expected, rtol=1e-6)
    again = tf.keras.models.model_from_json(model.to_json())
    assert again.get_config()["layers"][-1]["inbound_nodes"] == nodes
    model.save(tmp_path / "m.keras")
    loaded = tf.keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(loaded(data).numpy(), expected, rtol=1e-6)
    with pytest.warns(UserWarning, match="legacy"):
        model.save(tmp_path / "m.h5")
    loaded = tf.keras.models.load_model(tmp_path / "m.h5")
    np.testing.assert_allclose(loaded(data).numpy(), expected, rtol=1e-6)


def test_initial_states_from_other_layers_are_connected_in_the_summary():
    x, h = tf.keras.Input((5, 4), name="x"), tf.keras.Input((2,), name="h")
    d1, d2 = Dense(3, name="d1")(h), Dense(3, name="d2")(h)
    model = tf.keras.Model([x, h], LSTM(3, name="rnn")(x, initial_state=[d1, d2]))
    lines = []
    model.summary(print_fn=lines.append, line_length=100)
    row = next(i for i, line in enumerate(lines) if line.startswith(" rnn (LSTM)"))
    assert "['x[0][0]'," in lines[row]
    assert "'d1[0][0]'," in lines[row + 1] and "'d2[0][0]']" in lines[row + 2]


def test_keras_tensor_constants_are_node_inputs():
    class Cell(tf.keras.layers.Layer):
        state_size = 2

        def call(self, inputs, states, constants):
            return inputs + states[0] + constants[0], [states[0] + 1.0]

    x, h, k = (tf.keras.Input(shape, name=n) for shape, n in [((3, 2), "x"), ((2,), "h"),
                                                               ((2,), "k")])
    layer = RNN(Cell(), name="rnn")
    model = tf.keras.Model([x, h, k], layer(x, initial_state=h, constants=k))
    assert model.get_config()["layers"][-1]["inbound_nodes"] == [
        [["x", 0, 0, {}], ["h", 0, 0, {}], ["k", 0, 0, {}]]]
    assert layer.input_shape == [(None, 3, 2), (None, 2), (None, 2)]
    ones = np.ones((1, 3, 2), np.float32)
    # steps: 1+0+1, 1+1+1, 1+2+1 (the state counts the steps from h=0)
    np.testing.assert_allclose(model([ones, np.zeros((1, 2)), np.ones((1, 2))]).numpy(),
                               [[4.0, 4.0]])


def test_initial_states_mixing_keras_and_other_tensors_are_refused():
    x, h = tf.keras.Input((5, 4)), tf.keras.Input((3,))
    with pytest.raises(ValueError, match="cannot be specified via a mix of TF-Keras tensors"):
        LSTM(3)(x, initial_state=[h, tf.zeros((2, 3))])


def test_a_call_given_states_keeps_their_spec():
    layer = LSTM(3)
    layer(X, initial_state=[tf.ones((3, 3))] * 2)
    assert [s.shape for s in layer.state_spec] == [(3, 3), (3, 3)]
    other = LSTM(3)
    other(X)
    assert [s.shape for s in other.state_spec] == [(None, 3), (None, 3)]
