"""Functional models built on intermediate tensors (tf_keras cuts the graph there).

Expected values recorded from TensorFlow 2.21 with tf_keras.
"""
import numpy as np
import pytest

import eagerflow as tf


@pytest.fixture(autouse=True)
def _fresh_session():
    tf.keras.backend.clear_session()


def _chain():
    a = tf.keras.Input(shape=(3,), name="a")
    h = tf.keras.layers.Dense(4, name="d1")(a)
    h2 = tf.keras.layers.Dense(5, name="d2")(h)
    return a, h, tf.keras.layers.Dense(2, name="d3")(h2)


def test_model_on_intermediate_tensor_gets_new_input_and_drops_upstream():
    _, h, out = _chain()
    model = tf.keras.Model(h, out)
    assert [layer.name for layer in model.layers] == ["input_1", "d2", "d3"]
    assert type(model.layers[0]).__name__ == "InputLayer"
    assert model.input_names == ["input_1"] and model.output_names == ["d3"]
    assert [w.name for w in model.weights] == ["d2/kernel:0", "d2/bias:0", "d3/kernel:0",
                                               "d3/bias:0"]
    assert model(np.ones((2, 4), np.float32)).shape == (2, 2)
    assert model.input_shape == (None, 4) and model.output_shape == (None, 2)
    config = model.get_config()
    assert config["input_layers"] == [["input_1", 0, 0]]
    assert [(c["name"], c["inbound_nodes"]) for c in config["layers"]] == [
        ("input_1", []), ("d2", [[["input_1", 0, 0, {}]]]), ("d3", [[["d2", 0, 0, {}]]])]
    rebuilt = tf.keras.Model.from_config(config)
    assert [layer.name for layer in rebuilt.layers] == ["input_1", "d2", "d3"]
    assert tf.keras.Input(shape=(1,)).name == "input_2"  # the new input took a name


def test_cut_model_shares_weights_and_the_full_model_still_works():
    a, h, out = _chain()
    cut = tf.keras.Model(h, out)
    full = tf.keras.Model(a, out)
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    d1 = full.get_layer("d1")
    np.testing.assert_allclose(full(x).numpy(), cut(d1(x)).numpy(), rtol=1e-6)
    assert [layer.name for layer in full.layers] == ["a", "d1", "d2", "d3"]


def test_dict_of_intermediate_and_input_tensors(capsys):
    i1 = tf.keras.Input(shape=(1,), name="i1")
    b = tf.keras.Input(shape=(2,), name="b")
    e1 = tf.keras.layers.Dense(2, name="e1")(i1)
    c = tf.keras.layers.Concatenate(name="cat")([e1, b])
    o = tf.keras.layers.Dense(1, name="o")(c)
    model = tf.keras.Model({"h": e1, "b": b}, [o, c])
    assert [layer.name for layer in model.layers] == ["input_1", "b", "cat", "o"]
    config = model.get_config()
    assert config["input_layers"] == {"h": ["input_1", 0, 0], "b": ["b", 0, 0]}
    assert config["output_layers"] == [["o", 0, 0], ["cat", 0, 0]]
    rebuilt = tf.keras.Model.from_config(config)
    assert rebuilt.input_names == ["b", "input_1"]
    assert [t.shape for t in rebuilt({"h": np.ones((1, 2)), "b": np.ones((1, 2))})] == [
        (1, 1), (1, 4)]
    model.summary()
    printed = capsys.readouterr().out
    assert "['input_1[0][0]'," in printed and "['cat[1][0]']" in printed


def test_cut_errors_as_tf_keras():
    a = tf.keras.Input(shape=(3,), name="a")
    b = tf.keras.Input(shape=(2,), name="b")
    h = tf.keras.layers.Dense(4, name="d1")(a)
    c = tf.keras.layers.Concatenate(name="cat")([h, b])
    with pytest.raises(ValueError, match="Found input tensor cannot be reached given provided "
                                         "output tensors"):
        tf.keras.Model(h, c)
    with pytest.raises(ValueError, match="Found unvisited input tensors that are disconnected "
                                         "from the outputs"):
        tf.keras.Model([h, b], tf.keras.layers.Dense(1)(h))
    with pytest.raises(ValueError, match="Found unexpected instance while processing input "
                                         "tensors for keras functional model"):
        tf.keras.Model(np.ones((2, 3)), h)


def test_feature_space_tutorial_flow():
    """TF's "structured data classification with FeatureSpace": a model on the encoded
    features, trained with fit on the preprocessed dataset."""
    tf.keras.utils.set_random_seed(1)
    data = {"age": np.array([20., 35., 50., 28., 61., 44.], np.float32),
            "city": np.array(["a", "b", "a", "c", "b", "a"]),
            "n": np.array([1, 2, 1, 3, 2, 1], np.int64)}
    labels = np.array([0, 1, 0, 1, 1, 0], np.float32)
    ds = tf.data.Dataset.from_tensor_slices((data, labels)).batch(2)
    space = tf.keras.utils.FeatureSpace(
        features={"age": "float_normalized", "city": "string_categorical",
                  "n": "integer_categorical"}, output_mode="concat")
    space.adapt(ds.map(lambda x, _: x))
    preprocessed = ds.map(lambda x, y: (space(x), y))
    encoded = space.get_encoded_features()
    x = tf.keras.layers.Dense(8, activation="relu")(encoded)
    out = tf.keras.layers.Dense(1, activation="sigmoid")(x)
    model = tf.keras.Model(inputs=encoded, outputs=out)
    assert [layer.name for layer in model.layers] == ["input_1", "dense", "dense_1"]
    assert [w.shape for w in model.weights] == [(9, 8), (8,), (8, 1), (1,)]
    assert model.input_names == ["input_1"] and model.output_names == ["dense_1"]
    model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    history = model.fit(preprocessed, epochs=2, verbose=0)
    assert sorted(history.history) == ["accuracy", "loss"]
    assert len(history.history["loss"]) == 2
    inputs = space.get_inputs()
    inference = tf.keras.Model(inputs, model(space(inputs)))
    sample = {k: v[:2] for k, v in data.items()}
    np.testing.assert_allclose(inference(sample).numpy(),
                               model(space(sample)).numpy(), rtol=1e-6)


def test_shared_layer_called_before_and_after_the_cut_rebuilds_from_config():
    # tf_keras lists the shared layer's calls of the cut model out of order (its first call
    # uses its second's output); the model still rebuilds from that config
    inp = tf.keras.Input((4,))
    shared = tf.keras.layers.Dense(4, name="shared", kernel_initializer="ones")
    a = shared(inp)
    h = tf.keras.layers.Dense(4, name="mid", kernel_initializer="ones")(a)
    c = shared(shared(h))
    out = tf.keras.layers.Dense(4, name="mid2", kernel_initializer="ones")(c)
    model = tf.keras.Model(a, out)
    config = model.get_config()
    assert [(c["name"], c["inbound_nodes"]) for c in config["layers"]] == [
        ("input_2", []), ("mid", [[["input_2", 0, 0, {}]]]),
        ("shared", [[["shared", 1, 0, {}]], [["mid", 0, 0, {}]]]),
        ("mid2", [[["shared", 0, 0, {}]]])]
    rebuilt = tf.keras.Model.from_config(config)
    assert [layer.name for layer in rebuilt.layers] == ["input_2", "mid", "shared", "mid2"]
    x = np.ones((1, 4), np.float32)
    np.testing.assert_allclose(rebuilt(x).numpy(), model(x).numpy())
    np.testing.assert_allclose(model(x).numpy(), np.full((1, 4), 256.0))
    cut = tf.keras.Model(h, c)
    again = tf.keras.Model.from_config(cut.get_config())
    np.testing.assert_allclose(again(x).numpy(), np.full((1, 4), 16.0))
