"""Keras layers called on SparseTensors (values from TF 2.21)."""
import numpy as np
import pytest
import eagerflow as tf


def test_dense_multiplies_a_sparse_tensor_by_its_kernel():
    layer = tf.keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="ones")
    x = tf.sparse.SparseTensor([[0, 1], [2, 0]], [2.0, 3.0], [3, 4])
    with tf.GradientTape() as tape:
        y = layer(x)
        loss = tf.reduce_sum(y ** 2)
    assert y.numpy().tolist() == [[3] * 3, [1] * 3, [4] * 3]
    assert tf.convert_to_tensor(tape.gradient(loss, layer.kernel)).numpy().tolist() == \
        [[24] * 3, [12] * 3, [0] * 3, [0] * 3]


def test_dense_casts_integer_sparse_values_to_its_dtype():
    layer = tf.keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)
    x = tf.sparse.SparseTensor([[0, 0], [0, 2]], [1, 2], [1, 3])
    assert layer(x).numpy().tolist() == [[3.0]]


def _sparse_model():
    x = tf.keras.Input(shape=(4,), sparse=True)
    y = tf.keras.layers.Dense(2, kernel_initializer="ones")(x)
    return tf.keras.Model(x, y)


_DATA = tf.sparse.SparseTensor([(0, 0), (0, 1), (0, 2), (4, 3), (5, 0), (5, 1)],
                               [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], (6, 4))


def test_functional_model_on_a_sparse_input():
    model = _sparse_model()
    assert model.input_shape == (None, 4) and model.output_shape == (None, 2)
    assert model.get_config()["layers"][0]["config"]["sparse"] is True
    expected = [[3, 3], [0, 0], [0, 0], [0, 0], [1, 1], [2, 2]]
    assert model(_DATA).numpy().tolist() == expected
    assert model.predict(_DATA, batch_size=4, verbose=0).tolist() == expected


def test_fit_on_sparse_data_batches_its_rows():
    import numpy as np
    model = _sparse_model()
    model.compile("sgd", "mse")
    targets = np.arange(12, dtype=np.float32).reshape(6, 2)
    history = model.fit(_DATA, targets, epochs=3, batch_size=2, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert np.isfinite(model.evaluate(_DATA, targets, verbose=0))


def test_hashing_and_discretization_of_sparse_ids_stay_sparse():
    # TF: output_mode "int" maps a SparseTensor's values in place (it failed converting one)
    strings = tf.SparseTensor([[0, 0], [1, 2]], ["a", "zz"], [2, 3])
    hashed = tf.keras.layers.Hashing(5)(strings)
    assert isinstance(hashed, tf.SparseTensor)
    assert hashed.indices.numpy().tolist() == [[0, 0], [1, 2]]
    assert hashed.values.numpy().tolist() == [4, 2]  # TF 2.21's bins
    numbers = tf.SparseTensor([[0, 0], [1, 2]], [0.5, 7.0], [2, 3])
    buckets = tf.keras.layers.Discretization(bin_boundaries=[1.0, 5.0])(numbers)
    assert isinstance(buckets, tf.SparseTensor) and buckets.values.numpy().tolist() == [0, 2]


def test_a_layers_sparse_output_feeds_the_next_layer_of_a_functional_model():
    # as in tf_keras: a SparseKerasTensor between two layers is part of the model's graph
    tf.keras.backend.clear_session()  # (the layer names TF gives in a fresh program)
    inp = tf.keras.Input(shape=(3,), dtype="int64")
    encoded = tf.keras.layers.CategoryEncoding(num_tokens=5, output_mode="multi_hot",
                                               sparse=True)(inp)
    out = tf.keras.layers.Dense(2, kernel_initializer="ones")(encoded)
    model = tf.keras.Model(inp, out)
    assert [layer.name for layer in model.layers] == ["input_1", "category_encoding", "dense"]
    x = np.array([[0, 1, 4], [2, 2, 3]])
    np.testing.assert_array_equal(model(x).numpy(), [[3.0, 3.0], [2.0, 2.0]])  # TF 2.21's
    copy = tf.keras.Model.from_config(model.get_config())
    copy.set_weights(model.get_weights())
    np.testing.assert_array_equal(copy(x).numpy(), model(x).numpy())
    model.compile("sgd", "mse")
    history = model.fit(x, np.zeros((2, 2)), epochs=2, verbose=0)
    assert history.history["loss"][1] < history.history["loss"][0]


def _embedding(sparse=False):
    rows = tf.keras.initializers.Constant(np.arange(18).reshape(6, 3) / 10.0)
    return tf.keras.layers.Embedding(6, 3, embeddings_initializer=rows, sparse=sparse)


def test_embedding_looks_up_sparse_ids_as_tf_keras():
    ids = tf.sparse.from_dense(tf.constant([[1, 0], [0, 2]]))
    layer = _embedding()
    with tf.GradientTape() as tape:
        dense = layer(ids)  # (missing entries take row 0)
        loss = tf.reduce_sum(dense)
    np.testing.assert_allclose(dense.numpy(), [[[0.3, 0.4, 0.5], [0, 0.1, 0.2]],
                                               [[0, 0.1, 0.2], [0.6, 0.7, 0.8]]], rtol=1e-6)
    assert tf.convert_to_tensor(tape.gradient(loss, layer.embeddings)).numpy()[:3, 0].tolist() \
        == [2.0, 1.0, 1.0]
    rows = _embedding(sparse=True)(ids)
    assert isinstance(rows, tf.SparseTensor)
    assert rows.indices.numpy().tolist() == [[0, 0, 0], [0, 0, 1], [0, 0, 2],
                                             [1, 1, 0], [1, 1, 1], [1, 1, 2]]
    np.testing.assert_allclose(rows.values.numpy(), [0.3, 0.4, 0.5, 0.6, 0.7, 0.8], rtol=1e-6)
    assert rows.dense_shape.numpy().tolist() == [2, 2, 3]
    from_dense_ids = _embedding(sparse=True)(tf.constant([[1, 0]]))
    assert from_dense_ids.indices.numpy().tolist() == [[0, 0, 0], [0, 0, 1], [0, 0, 2],
                                                       [0, 1, 1], [0, 1, 2]]
    with pytest.raises(ValueError, match="^`mask_zero` cannot be enabled when "
                                         "`tf.keras.layers.Embedding` is used with "
                                         "`tf.SparseTensor` input.$"):
        tf.keras.layers.Embedding(6, 3, mask_zero=True, sparse=True)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "uint32", "uint64", "float64"])
def test_embedding_casts_ids_of_other_dtypes_to_int32(dtype):
    looked_up = _embedding()(tf.constant([[1, 0]], dtype))
    np.testing.assert_allclose(looked_up.numpy(), [[[0.3, 0.4, 0.5], [0, 0.1, 0.2]]], rtol=1e-6)
