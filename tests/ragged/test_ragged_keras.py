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


# Ragged labels and predictions in Keras losses and metrics (values recorded from TF 2.21 with
# tf_keras): a loss runs row by row; a metric counts every value.
_YT = [[1.0, 0.0], [1.0], [0.0, 1.0, 1.0]]
_YP = [[0.8, 0.1], [0.6], [0.3, 0.7, 0.9]]


def test_keras_losses_of_ragged_tensors_go_row_by_row():
    yt, yp = tf.ragged.constant(_YT), tf.ragged.constant(_YP)
    losses = tf.keras.losses
    assert losses.mean_squared_error(yt, yp).numpy() == pytest.approx([0.025, 0.16, 0.06333334])
    assert losses.binary_crossentropy(yt, yp).numpy() == pytest.approx(
        [0.1642519, 0.5108254, 0.27290332])
    assert losses.MeanSquaredError()(yt, yp).numpy() == pytest.approx(0.08277777)
    assert losses.MeanAbsoluteError()(yt, yp).numpy() == pytest.approx(0.26111111)
    assert losses.BinaryCrossentropy()(yt, yp).numpy() == pytest.approx(0.31599355)
    assert losses.MeanSquaredError()(yt, yp, sample_weight=[1.0, 2.0, 0.0]).numpy() == \
        pytest.approx(0.115)
    # a dense y_true meets y_pred padded
    assert losses.mean_squared_error(yt.to_tensor(), yp).numpy() == pytest.approx(
        [0.01666667, 0.05333333, 0.06333334])
    assert tf.function(losses.mean_squared_error)(yt, yp).numpy() == pytest.approx(
        [0.025, 0.16, 0.06333334])
    # rows of vectors: a loss per vector, a ragged tensor of them
    y3 = tf.ragged.constant([[[1.0, 0.0]], [[0.0, 1.0], [1.0, 0.0]]], ragged_rank=1)
    p3 = tf.ragged.constant([[[0.9, 0.1]], [[0.2, 0.8], [0.6, 0.4]]], ragged_rank=1)
    out = losses.categorical_crossentropy(y3, p3)
    assert isinstance(out, tf.RaggedTensor)
    assert out.flat_values.numpy() == pytest.approx([0.10536055, 0.22314353, 0.5108256])
    assert out.row_lengths().numpy().tolist() == [1, 2]
    assert losses.CategoricalCrossentropy()(y3, p3).numpy() == pytest.approx(0.27977654)
    y4 = tf.ragged.constant([[[1.0, 0.0]], [[0.0, 1.0], [1.0]]])
    p4 = tf.ragged.constant([[[0.9, 0.1]], [[0.2, 0.8], [0.6]]])
    assert losses.mean_squared_error(y4, p4).flat_values.numpy() == pytest.approx(
        [0.01, 0.04, 0.16])
    assert losses.MeanSquaredError()(y4, p4).numpy() == pytest.approx(0.07)
    labels = tf.ragged.constant([[0], [1, 2]])
    scores = tf.ragged.constant([[[0.9, 0.05, 0.05]], [[0.1, 0.8, 0.1], [0.2, 0.2, 0.6]]],
                                ragged_rank=1)
    assert losses.SparseCategoricalCrossentropy()(labels, scores).numpy() == \
        pytest.approx(0.27977657)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Inputs must have identical ragged splits"):
        losses.mean_squared_error(yt, tf.ragged.constant([[1.0], [1.0], [0.0, 1.0, 1.0]]))


def test_keras_metrics_of_ragged_tensors_count_every_value():
    yt, yp = tf.ragged.constant(_YT), tf.ragged.constant(_YP)
    expected = {"MeanSquaredError": 0.06666666, "MeanAbsoluteError": 0.23333333,
                "RootMeanSquaredError": 0.25819889, "BinaryAccuracy": 1.0, "Accuracy": 0.0,
                "AUC": 1.0, "Precision": 1.0, "Recall": 1.0}
    for name, value in expected.items():
        metric = getattr(tf.keras.metrics, name)()
        metric.update_state(yt, yp)
        assert metric.result().numpy() == pytest.approx(value), name
    mean = tf.keras.metrics.Mean()
    mean.update_state(yt)
    assert mean.result().numpy() == pytest.approx(0.6666667)
    with pytest.raises(TypeError, match="Some of the inputs are not tf.RaggedTensor"):
        tf.keras.metrics.MeanSquaredError().update_state(yt, yp.to_tensor())


def test_evaluate_and_fit_with_ragged_labels():
    inp = tf.keras.Input(shape=(None,), ragged=True)
    model = tf.keras.Model(inp, tf.keras.layers.Lambda(lambda r: r * 2.0)(inp))
    model.compile("sgd", "mse", metrics=["mae"])
    yt = tf.ragged.constant(_YT)
    assert model.evaluate(yt, yt, verbose=0) == pytest.approx([0.72222227, 0.66666669])
    x = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    y = tf.ragged.constant([[0, 1, 2], [1], [2, 0]])
    inp = tf.keras.Input(shape=(None,), ragged=True, dtype=tf.int32)
    e = tf.keras.layers.Embedding(10, 4, embeddings_initializer="ones")(inp)
    out = tf.keras.layers.Dense(3, kernel_initializer="ones", activation="softmax")(e)
    model = tf.keras.Model(inp, out)
    model.compile("sgd", "sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])
    history = model.fit(x, y, epochs=2, verbose=0).history
    assert history["loss"] == pytest.approx([1.0986123] * 2)
    assert history["sparse_categorical_accuracy"] == pytest.approx([1 / 3] * 2)


def test_input_of_a_ragged_or_sparse_type_spec():
    spec = tf.RaggedTensorSpec([None, None, None], tf.int32, ragged_rank=1)
    inp = tf.keras.Input(type_spec=spec)
    assert inp.type_spec == spec
    inp = tf.keras.Input(type_spec=tf.RaggedTensorSpec([None, None], tf.float32))
    assert inp.type_spec == tf.RaggedTensorSpec([None, None], tf.float32)
    sparse = tf.keras.Input(type_spec=tf.SparseTensorSpec([None, 3], tf.float32))
    assert sparse.type_spec == tf.SparseTensorSpec([None, 3], tf.float32)
    model = tf.keras.Model(inp, tf.reduce_sum(inp, axis=1))
    assert model.layers[0].get_config()["type_spec"] == inp.type_spec
    config = json.loads(model.to_json())["config"]["layers"][0]["config"]
    assert config["type_spec"] == {
        "class_name": "__typespec__", "spec_name": "RaggedTensorSpec",
        "module": "tensorflow.python.ops.ragged.ragged_tensor",
        "config": [[None, None], "float32", 1, "int64"], "registered_name": None}
    loaded = tf.keras.models.model_from_json(model.to_json())
    assert loaded.inputs[0].type_spec == inp.type_spec
    assert loaded(tf.ragged.constant([[1.0, 2.0], [3.0]])).numpy().tolist() == [3.0, 3.0]
    with pytest.raises(ValueError, match="Cannot set both `sparse` and `ragged` to `True` in "
                                         "a Keras `Input`."):
        tf.keras.Input(shape=(None,), ragged=True, sparse=True)
    with pytest.raises(ValueError, match="Cannot set both sparse and ragged to True in a "
                                         "TF-Keras input."):
        tf.keras.layers.InputLayer(input_shape=(None,), ragged=True, sparse=True)


def test_time_distributed_applies_its_layer_to_every_step_of_ragged_rows():
    rows = tf.ragged.constant([[[1.0]], [[2.0], [3.0]]], ragged_rank=1)
    layer = tf.keras.layers.TimeDistributed(
        tf.keras.layers.Dense(2, kernel_initializer="ones"))
    out = layer(rows)
    assert isinstance(out, tf.RaggedTensor)
    assert out.to_list() == [[[1.0, 1.0]], [[2.0, 2.0], [3.0, 3.0]]]
    inp = tf.keras.Input(shape=(None, 1), ragged=True)
    model = tf.keras.Model(inp, layer(inp))
    assert model(rows).to_list() == out.to_list()
    with pytest.raises(ValueError, match="All inputs has to be either ragged or not"):
        tf.keras.layers.TimeDistributed(tf.keras.layers.Concatenate())(
            [rows, tf.ones([2, 2, 1])])


def test_validation_split_names_ragged_and_sparse_inputs_it_cannot_split():
    inp = tf.keras.Input(shape=(None,), ragged=True)
    model = tf.keras.Model(inp, tf.reduce_sum(inp, axis=1, keepdims=True))
    model.compile("sgd", "mse")
    x = tf.ragged.constant([[1.0, 2.0], [3.0], [4.0], [5.0, 6.0]])
    with pytest.raises(ValueError) as e:
        model.fit(x, np.ones((4, 1)), validation_split=0.5, verbose=0)
    assert str(e.value) == ("`validation_split` is only supported for Tensors or NumPy arrays, "
                            f"found following types in the input: {[type(x)]}")
    st = tf.sparse.from_dense(np.eye(4, dtype=np.float32))
    dense = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    dense.compile("sgd", "mse")
    with pytest.raises(ValueError, match=r"found following types in the input: \[<class "
                                         r"'[a-z_.]*SparseTensor'>\]$"):
        dense.fit(st, np.ones((4, 1)), validation_split=0.5, verbose=0)


def test_multi_head_attention_of_ragged_sequences():
    query = tf.ragged.constant([[[1.], [2.]], [[3.]]], ragged_rank=1)
    value = tf.ragged.constant([[[1.], [0.5], [2.]], [[3.]]], ragged_rank=1)
    layer = tf.keras.layers.MultiHeadAttention(2, 2, kernel_initializer="ones")
    out = layer(query, value)
    assert isinstance(out, tf.RaggedTensor)
    assert out.row_lengths().numpy().tolist() == [2, 1]
    # (the values are padded with zeros, unmasked, as Keras does)
    np.testing.assert_allclose(out.flat_values.numpy().ravel(),
                               [6.7588267, 7.699443, 11.999928], rtol=1e-5)
    dense = layer(tf.ones([2, 2, 1]), value)
    np.testing.assert_allclose(dense.numpy().ravel(),
                               [6.7588267, 6.7588267, 11.664764, 11.664764], rtol=1e-5)
