"""TF 1's CuDNNLSTM and CuDNNGRU (``tf.compat.v1.keras.layers``) as tf_keras 2.21 has them:
arguments, configs, weights in cuDNN's layout, functional models of them, the error of a
call without a GPU, and (with one) the values of LSTM and GRU equations on cuDNN's
weights."""
import numpy as np
import pytest

import eagerflow as tf
from tests.internals import recurrent

CuDNNLSTM = tf.compat.v1.keras.layers.CuDNNLSTM
CuDNNGRU = tf.compat.v1.keras.layers.CuDNNGRU
RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 4, 5)).astype(np.float32)


def test_names():
    assert not hasattr(tf.keras.layers, "CuDNNLSTM")
    assert CuDNNLSTM.__name__ == "CuDNNLSTM" and CuDNNGRU.__name__ == "CuDNNGRU"


def test_lstm_config_and_weights():
    layer = CuDNNLSTM(3, return_sequences=True, name="c")
    config = layer.get_config()
    assert list(config) == [
        "name", "trainable", "dtype", "return_sequences", "return_state", "go_backwards",
        "stateful", "time_major", "units", "kernel_initializer", "recurrent_initializer",
        "bias_initializer", "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
        "bias_regularizer", "activity_regularizer", "kernel_constraint",
        "recurrent_constraint", "bias_constraint"]
    assert config["bias_initializer"]["class_name"] == "Zeros" and config["units"] == 3
    assert repr(layer.cell) == "cell(state_size=(3, 3))"
    assert repr(layer.input_spec) == "[InputSpec(ndim=3)]"
    assert CuDNNLSTM.from_config(config).get_config() == config
    layer(tf.keras.Input((4, 5)))
    assert [(w.name, tuple(w.shape)) for w in layer.weights] == [
        ("c/kernel:0", (5, 12)), ("c/recurrent_kernel:0", (3, 12)), ("c/bias:0", (24,))]
    # the recurrent bias's forget gate starts at ones
    np.testing.assert_array_equal(layer.bias.numpy(), [0] * 15 + [1] * 3 + [0] * 6)
    with pytest.raises(TypeError, match="dropout"):
        CuDNNLSTM(3, dropout=0.1)


def test_gru_config_and_weights():
    layer = CuDNNGRU(3, name="c")
    config = layer.get_config()
    assert "unit_forget_bias" not in config and config["time_major"] is False
    assert repr(layer.cell) == "cell(state_size=3)"
    layer.build((None, 4, 5))
    assert [tuple(w.shape) for w in layer.weights] == [(5, 9), (3, 9), (18,)]
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(18))


def test_functional_models_are_built_of_them():
    x = tf.keras.Input((4, 5))
    outputs = CuDNNLSTM(3, return_state=True)(x)
    assert [t.shape.as_list() for t in outputs] == [[None, 3]] * 3
    model = tf.keras.Model(x, CuDNNGRU(3, return_sequences=True)(x))
    assert model.output_shape == (None, 4, 3) and model.count_params() == 90
    assert model.get_config()["layers"][1]["class_name"] == "CuDNNGRU"


@pytest.mark.parametrize("cls, mode", [(CuDNNLSTM, "lstm"), (CuDNNGRU, "gru")])
def test_a_call_without_a_gpu_fails_as_tfs_op(cls, mode, monkeypatch):
    monkeypatch.setattr(recurrent, "_gpus", lambda: [])
    layer = cls(3)
    with pytest.raises(tf.errors.NotFoundError) as info:
        layer(X)
    assert "Could not find device for node: {{node CudnnRNNV3}} = CudnnRNNV3[T=DT_FLOAT, " \
        in str(info.value)
    assert f'rnn_mode="{mode}"' in str(info.value)
    assert "  device='GPU'; T in [DT_FLOAT]\n" in str(info.value)
    assert layer.built and len(layer.weights) == 3  # (built before the op fails, as in TF)
    with pytest.raises(ValueError, match="Masking is not supported for CuDNN RNNs."):
        layer(X, mask=np.ones((2, 4), bool))


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def test_lstm_values_on_a_gpu(monkeypatch):
    monkeypatch.setattr(recurrent, "_gpus", lambda: ["GPU:0"])
    layer = CuDNNLSTM(3, return_sequences=True, return_state=True)
    layer.build(X.shape)
    for w in layer.weights:
        w.assign(RNG.uniform(-0.5, 0.5, w.shape.as_list()).astype(np.float32))
    kernel, recurrent_kernel, bias = (w.numpy().astype(np.float64) for w in layer.weights)
    h, c = np.zeros((2, 3)), np.zeros((2, 3))
    expected = []
    for t in range(4):
        z = X[:, t] @ kernel + h @ recurrent_kernel + bias[:12] + bias[12:]
        i, f, g, o = np.split(z, 4, -1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        expected.append(h)
    out, h_out, c_out = layer(X)
    np.testing.assert_allclose(out.numpy(), np.stack(expected, 1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h_out.numpy(), h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c_out.numpy(), c, rtol=1e-5, atol=1e-6)


def test_gru_values_on_a_gpu(monkeypatch):
    monkeypatch.setattr(recurrent, "_gpus", lambda: ["GPU:0"])
    layer = CuDNNGRU(3, go_backwards=True)
    layer.build(X.shape)
    for w in layer.weights:
        w.assign(RNG.uniform(-0.5, 0.5, w.shape.as_list()).astype(np.float32))
    kernel, recurrent_kernel, bias = (w.numpy().astype(np.float64) for w in layer.weights)
    h = RNG.standard_normal((2, 3)).astype(np.float32)
    got = layer(X, initial_state=[h]).numpy()
    h = h.astype(np.float64)
    for t in reversed(range(4)):
        xz, xr, xh = np.split(X[:, t] @ kernel + bias[:9], 3, -1)
        hz, hr, hh = np.split(h @ recurrent_kernel + bias[9:], 3, -1)
        z, r = _sigmoid(xz + hz), _sigmoid(xr + hr)
        h = z * h + (1 - z) * np.tanh(xh + r * hh)
    np.testing.assert_allclose(got, h, rtol=1e-5, atol=1e-6)


def test_a_graph_without_a_gpu_fails_as_it_runs(monkeypatch):
    monkeypatch.setattr(recurrent, "_gpus", lambda: [])
    x = tf.keras.Input((4, 5))
    model = tf.keras.Model(x, CuDNNGRU(3)(x))  # (built, as in TF)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="No OpKernel was registered to support Op .{0,4}CudnnRNNV3"):
        model.predict(X, verbose=0)
    layer = CuDNNLSTM(3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="rnn_mode=.{0,4}lstm"):
        tf.function(layer)(X)
