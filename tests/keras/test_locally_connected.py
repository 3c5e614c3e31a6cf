"""LocallyConnected1D/2D: weight layouts, outputs (compared with tf_keras's) and training."""
import numpy as np
import pytest

import eagerflow as tf

X = (np.arange(2 * 5 * 4 * 3, dtype=np.float32).reshape(2, 5, 4, 3) % 7) / 7

# (data_format, implementation, padding) -> (kernel shape, bias shape, checksum by tf_keras)
CASES_2D = {
    ("channels_last", 1, "valid"): ((4, 18, 2), (2, 2, 2), 4.036571502685547),
    ("channels_last", 2, "valid"): ((5, 4, 3, 2, 2, 2), (2, 2, 2), 4.034286022186279),
    ("channels_last", 2, "same"): ((5, 4, 3, 3, 4, 2), (3, 4, 2), 29.68171501159668),
    ("channels_last", 3, "valid"): ((144,), (2, 2, 2), 4.04542875289917),
    ("channels_first", 1, "valid"): ((4, 18, 2), (2, 2, 2), 3.971428871154785),
    ("channels_first", 2, "same"): ((3, 5, 4, 2, 3, 4), (3, 4, 2), 30.8145751953125),
    ("channels_first", 3, "valid"): ((144,), (2, 2, 2), 4.052000045776367),
}
CASES_1D = {
    ("channels_last", 1, "valid"): ((4, 6, 3), (4, 3), 3.8077142238616943),
    ("channels_last", 2, "same"): ((5, 3, 5, 3), (5, 3), 6.65942907333374),
    ("channels_last", 3, "valid"): ((72,), (4, 3), 3.5931427478790283),
    ("channels_first", 1, "valid"): ((4, 6, 3), (4, 3), 3.565999984741211),
    ("channels_first", 2, "same"): ((3, 5, 3, 5), (5, 3), 6.584571838378906),
    ("channels_first", 3, "valid"): ((72,), (4, 3), 3.9777143001556396),
}


def _checksum(layer, x):
    layer.build(x.shape)
    layer.set_weights([np.arange(w.numpy().size, dtype=np.float32).reshape(w.shape) % 5 / 5
                       for w in layer.weights])
    y = layer(x)
    return [tuple(w.shape) for w in layer.weights], float(
        tf.reduce_sum(tf.reshape(y, [-1]) * tf.cast(tf.range(tf.size(y)), tf.float32) / 100))


@pytest.mark.parametrize("key", list(CASES_2D))
def test_2d_matches_keras(key):
    data_format, implementation, padding = key
    x = X if data_format == "channels_last" else np.transpose(X, [0, 3, 1, 2])
    layer = tf.keras.layers.LocallyConnected2D(2, (2, 3), strides=(2, 1), padding=padding,
                                               data_format=data_format,
                                               implementation=implementation)
    shapes, checksum = _checksum(layer, x)
    kernel, bias, expected = CASES_2D[key]
    assert shapes == [kernel, bias]
    np.testing.assert_allclose(checksum, expected, rtol=1e-6)


@pytest.mark.parametrize("key", list(CASES_1D))
def test_1d_matches_keras(key):
    data_format, implementation, padding = key
    x = X[:, :, 0, :] if data_format == "channels_last" else np.transpose(X[:, :, 0, :],
                                                                          [0, 2, 1])
    layer = tf.keras.layers.LocallyConnected1D(3, 2, padding=padding, data_format=data_format,
                                               implementation=implementation)
    shapes, checksum = _checksum(layer, x)
    kernel, bias, expected = CASES_1D[key]
    assert shapes == [kernel, bias]
    np.testing.assert_allclose(checksum, expected, rtol=1e-6)


def test_in_a_model():
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([tf.keras.layers.LocallyConnected1D(4, 3, input_shape=(10, 2)),
                                 tf.keras.layers.Flatten()])
    assert model.output_shape == (None, 32) and model.count_params() == 224
    layer = model.layers[0]
    assert [w.name for w in layer.weights] == ["locally_connected1d/kernel:0",
                                               "locally_connected1d/bias:0"]
    config = layer.get_config()
    assert config["kernel_size"] == (3,) and config["implementation"] == 1
    model2 = tf.keras.Sequential([tf.keras.layers.LocallyConnected2D(
        3, (3, 3), strides=2, input_shape=(8, 8, 2))])
    assert model2.output_shape == (None, 3, 3, 3) and model2.count_params() == 513
    model2.compile("adam", "mse")
    history = model2.fit(np.ones((4, 8, 8, 2)), np.zeros((4, 3, 3, 3)), verbose=0, epochs=3)
    assert history.history["loss"][-1] < history.history["loss"][0]
    with pytest.raises(ValueError, match='only "valid" is supported if implementation is 1'):
        tf.keras.layers.LocallyConnected1D(2, 3, padding="same")


@pytest.mark.parametrize("make, shape", [
    (lambda: tf.keras.layers.LocallyConnected1D(2, 3), (5, 3)),
    (lambda: tf.keras.layers.LocallyConnected2D(2, 3), (5, 5, 3))])
def test_models_of_locally_connected_layers_load_from_json_and_h5(make, shape, tmp_path):
    x = tf.keras.Input(shape)
    model = tf.keras.Model(x, make()(x))
    data = np.random.default_rng(0).standard_normal((2, *shape)).astype(np.float32)
    again = tf.keras.models.model_from_json(model.to_json())
    again.set_weights(model.get_weights())
    np.testing.assert_allclose(again(data).numpy(), model(data).numpy())
    config = tf.keras.layers.serialize(model.layers[1], use_legacy_format=True)
    assert type(tf.keras.layers.deserialize(config)) is type(model.layers[1])
    with pytest.warns(UserWarning, match="legacy"):
        model.save(tmp_path / "m.h5")
    loaded = tf.keras.models.load_model(tmp_path / "m.h5")
    np.testing.assert_allclose(loaded(data).numpy(), model(data).numpy())
