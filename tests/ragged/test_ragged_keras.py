"""Ragged inputs in Keras: functional `Input(ragged=True)`, recurrent layers and `fit`,
against values recorded from TensorFlow (tests/ragged/keras_*_tf.json)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf

HERE = os.path.dirname(__file__)


def _load(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)


def _linspace_weights(model):
    model.set_weights([np.linspace(-.5, .5, w.size).reshape(w.shape).astype("float32")
                       for w in model.get_weights()])


@pytest.mark.parametrize("key", sorted(_load("keras_rnn_tf.json")))
def test_recurrent_layers_on_ragged_input(key):
    kind, sequences, backwards = key.split("-")
    expected_type, expected = _load("keras_rnn_tf.json")[key]
    x = tf.ragged.constant([[[.1, .2], [.3, -.4], [.5, .6]], [[-.7, .8], [.9, 1.]],
                            [[.2, -.3]]], ragged_rank=1)
    layer = getattr(tf.keras.layers, kind)(3, return_sequences=bool(int(sequences)),
                                           go_backwards=bool(int(backwards)))
    layer.build((None, None, 2))
    layer.set_weights([np.linspace(-1, 1, w.size).reshape(w.shape).astype("float32")
                       for w in layer.get_weights()])
    out = layer(x)
    assert type(out).__name__ == expected_type
    if expected_type == "RaggedTensor":
        assert out.row_lengths().numpy().tolist() == [3, 2, 1]
        for row, want in zip(out.to_list(), expected):
            np.testing.assert_allclose(row, want, rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_functional_ragged_input_shapes_and_config():
    inp = tf.keras.Input(shape=(None,), ragged=True, dtype="int64")
    assert isinstance(inp, tf.RaggedTensor)
    assert inp.shape.as_list() == [None, None] and inp.dtype == tf.int64
    emb = tf.keras.layers.Embedding(20, 4)(inp)
    assert isinstance(emb, tf.RaggedTensor) and emb.shape.as_list() == [None, None, 4]
    seq = tf.keras.layers.GRU(3, return_sequences=True)(emb)
    assert isinstance(seq, tf.RaggedTensor) and seq.shape.as_list() == [None, None, 3]
    model = tf.keras.Model(inp, seq)
    config = model.get_config()["layers"][0]["config"]
    assert config["ragged"] is True and config["batch_input_shape"] == (None, None)
    clone = tf.keras.Model.from_config(model.get_config())
    out = clone(tf.ragged.constant([[1, 2, 3], [4]], dtype=tf.int64))
    assert out.row_lengths().numpy().tolist() == [3, 1]


def test_functional_ragged_input_takes_dense_and_int32_rows():
    inp = tf.keras.Input(shape=(None,), ragged=True, dtype="int64")
    out = tf.keras.layers.GlobalAveragePooling1D()(tf.keras.layers.Embedding(5, 2)(inp))
    model = tf.keras.Model(inp, out)
    ragged = model(tf.ragged.constant([[1, 2], [3, 4]]))
    dense = model(tf.constant([[1, 2], [3, 4]]))
    np.testing.assert_allclose(ragged.numpy(), dense.numpy())


@pytest.mark.parametrize("kind", ["gap", "LSTM", "GRU"])
def test_text_model_on_ragged_ids_trains_as_tf(kind):
    losses, predictions = _load("keras_fit_tf.json")[kind]
    inp = tf.keras.Input(shape=(None,), ragged=True, dtype="int64")
    emb = tf.keras.layers.Embedding(10, 4)(inp)
    hidden = tf.keras.layers.GlobalAveragePooling1D()(emb) if kind == "gap" else \
        getattr(tf.keras.layers, kind)(3)(emb)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(1)(hidden))
    _linspace_weights(model)
    model.compile(tf.keras.optimizers.SGD(0.5), "mse")
    x = tf.ragged.constant([[1, 2, 3], [4, 5], [6], [7, 8, 9, 1]], dtype=tf.int64)
    y = np.array([0., 1., 1., 0.], np.float32)
    history = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(2), epochs=3,
                        verbose=0)
    np.testing.assert_allclose(history.history["loss"], losses, rtol=1e-5)
    np.testing.assert_allclose(model.predict(x, verbose=0), predictions, rtol=1e-5, atol=1e-6)


def test_keras_backend_functions_run_on_ragged_tensors():
    K = tf.keras.backend
    x = tf.ragged.constant([[1., -2.], [3.]])
    # values recorded from tf_keras
    assert np.isclose(K.mean(x).numpy(), 0.6666667)
    np.testing.assert_allclose(K.sqrt(x).flat_values.numpy(), [1., 0., 1.7320508], rtol=1e-6)
    np.testing.assert_allclose(K.elu(x).flat_values.numpy(), [1., -0.86466473, 3.], rtol=1e-6)
    np.testing.assert_allclose(K.hard_sigmoid(x).flat_values.numpy(), [0.7, 0.1, 1.],
                               rtol=1e-6)
    out = K.softmax(x)
    assert isinstance(out, tf.RaggedTensor)
    np.testing.assert_allclose(out.flat_values.numpy(), [0.95257413, 0.047425874, 1.],
                               rtol=1e-6)


def test_keras_backend_error_on_ragged_is_tfs():
    x = tf.ragged.constant([[1., -2.], [3.]])
    with pytest.raises(ValueError, match="'RaggedTensor' has no len"):
        tf.keras.backend.transpose(x)
    transpose = tf.function(tf.keras.backend.transpose)
    with pytest.raises(TypeError) as info:
        transpose(x)
    assert "Failed to convert elements of tf.RaggedTensor" in str(info.value)


def test_keras_backend_reshape_and_flatten_of_ragged():
    """As tf_keras: the flat values reshaped."""
    K = tf.keras.backend
    x = tf.ragged.constant([[1., -2.], [3.]])
    assert K.reshape(x, (3, 1)).numpy().tolist() == [[1.], [-2.], [3.]]
    assert K.flatten(x).numpy().tolist() == [1., -2., 3.]
    with pytest.raises(ValueError, match="All relevant dimensions must be uniform"):
        K.batch_flatten(x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="requested shape has 6"):
        tf.keras.layers.Reshape((3,))(x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="requires a multiple of 2"):
        tf.keras.layers.Flatten()(x)
