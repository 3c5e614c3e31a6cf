"""tf.keras.experimental.LinearModel and WideDeepModel, against values recorded from tf_keras 2.21."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

LinearModel = keras.experimental.LinearModel
WideDeepModel = keras.experimental.WideDeepModel

X = np.arange(12, dtype="float32").reshape(4, 3) / 10
Y = np.array([[1.0], [0.0], [2.0], [1.0]], "float32")


def _wide_deep():
    linear = LinearModel(kernel_initializer="ones",
                         bias_initializer=keras.initializers.Constant(0.5))
    dnn = keras.Sequential([
        keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(0.3),
                           activation="relu"),
        keras.layers.Dense(1, kernel_initializer="ones")])
    return WideDeepModel(linear, dnn)


def test_linear_model_sums_one_kernel_per_input_plus_a_bias():
    model = LinearModel(units=2, activation="sigmoid", kernel_initializer="ones",
                        bias_initializer=keras.initializers.Constant(0.1))
    np.testing.assert_allclose(model(X[:2]), [[0.598688, 0.598688], [0.785835, 0.785835]],
                               rtol=1e-6)
    assert [w.name for w in model.weights] == [f"{model.name}/kernel:0",
                                               f"{model.name}/bias:0"]
    assert isinstance(model, keras.Model) and [type(x).__name__ for x in model.layers] == \
        ["Dense"]
    listed = LinearModel(kernel_initializer="ones", use_bias=False)
    np.testing.assert_array_equal(listed([tf.ones((2, 2)), tf.ones((2, 1)) * 3]), [[5.0]] * 2)
    assert len(listed.weights) == 2 and listed.bias is None
    sparse = tf.sparse.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
    np.testing.assert_array_equal(
        LinearModel(kernel_initializer="ones", bias_initializer="ones")(sparse), [[2.0], [3.0]])


def test_linear_model_dict_inputs_have_a_kernel_per_sorted_key():
    model = LinearModel(kernel_initializer="ones")
    out = model({"b": tf.ones((2, 2)), "a": tf.ones((2, 1)) * 2})
    np.testing.assert_array_equal(out, [[4.0], [4.0]])
    assert [layer.name for layer in model.dense_layers] == ["a", "b"]
    with pytest.raises(ValueError) as e:
        model({"a": tf.ones((2, 1))})
    assert "The `inputs` dictionary does not match the structure expected by the model." \
        in str(e.value)
    assert "\tMissing keys: {'b'}" in str(e.value)


def test_linear_model_trains_with_regularizers_on_dict_inputs():
    x = {"a": np.arange(6, dtype="float32").reshape(3, 2), "b": np.ones((3, 1), "float32")}
    y = np.array([[1.0], [2.0], [3.0]], "float32")
    model = LinearModel(kernel_regularizer="l2", bias_initializer="ones",
                        bias_regularizer=keras.regularizers.l1(0.1))
    model.compile(keras.optimizers.SGD(0.05), "mse", metrics=["mae"])
    history = model.fit(x, y, epochs=3, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [1.76667, 1.65169, 1.54481], atol=1e-5)
    np.testing.assert_allclose(history.history["mae"], [1.0, 1.16167, 0.94346], atol=1e-5)
    np.testing.assert_allclose(model.get_weights()[0].ravel(), [0.34013, 0.41822], atol=1e-5)
    np.testing.assert_allclose(model.get_weights()[2], [1.06318], atol=1e-5)


def test_linear_model_config_round_trip():
    model = LinearModel(units=2, activation="sigmoid", kernel_initializer="ones")
    config = model.get_config()
    assert sorted(config) == ["activation", "bias_initializer", "bias_regularizer", "dtype",
                              "kernel_initializer", "kernel_regularizer", "name", "trainable",
                              "units", "use_bias"]
    assert config["activation"] == "sigmoid" and config["units"] == 2
    clone = LinearModel.from_config(config)
    assert (clone.units, clone.activation.__name__) == (2, "sigmoid")
    assert keras.utils.serialize_keras_object(model)["module"] == "keras.experimental"


def test_wide_deep_model_with_one_optimizer_per_submodel_matches_tf_keras():
    model = _wide_deep()
    model.compile(optimizer=[keras.optimizers.SGD(0.1), keras.optimizers.Adam(0.05)],
                  loss="mse", metrics=["mae"])
    assert [type(o).__name__ for o in model.optimizer] == ["SGD", "Adam"]
    history = model.fit([X[:, :2], X], Y, epochs=3, batch_size=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [2.393195, 0.704209, 0.677745],
                               atol=2e-6)
    np.testing.assert_allclose(history.history["mae"], [1.229822, 0.832913, 0.728913],
                               atol=2e-6)
    weights = model.get_weights()
    np.testing.assert_allclose(weights[0].ravel(), [0.689518, 0.662824], atol=2e-6)
    np.testing.assert_allclose(weights[1], [0.23306], atol=2e-6)
    np.testing.assert_allclose(weights[4].ravel(), [0.782516, 0.782516], atol=2e-6)
    np.testing.assert_allclose(weights[5], [-0.190128], atol=2e-6)
    assert [int(o.iterations) for o in model.optimizer] == [6, 6]
    np.testing.assert_allclose(model.predict([X[:, :2], X], verbose=0).ravel(),
                               [0.109215, 0.514917, 0.92062, 1.372149], atol=2e-6)


def test_wide_deep_model_with_one_optimizer_feeds_both_models_the_same_input():
    model = WideDeepModel(LinearModel(kernel_initializer="ones"),
                          keras.Sequential([keras.layers.Dense(1, kernel_initializer="ones")]),
                          activation="sigmoid")
    model.compile(keras.optimizers.SGD(0.5), "binary_crossentropy")
    history = model.fit(X, Y / 2, epochs=2, batch_size=4, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [1.560421, 1.28019], atol=2e-6)
    for kernel in model.get_weights()[0], model.get_weights()[2]:
        np.testing.assert_allclose(kernel.ravel(), [0.825908, 0.789773, 0.753637], atol=2e-6)


def test_wide_deep_model_config_and_keras_archive_round_trip(tmp_path):
    model = _wide_deep()
    config = model.get_config()
    assert config["linear_model"]["class_name"] == "LinearModel"
    assert config["linear_model"]["module"] == "keras.experimental"
    assert (config["dnn_model"]["class_name"], config["dnn_model"]["module"]) == \
        ("Sequential", "keras")
    clone = WideDeepModel.from_config(json.loads(json.dumps(config)))
    assert (type(clone.linear_model), type(clone.dnn_model)) == (LinearModel, keras.Sequential)

    model.compile(optimizer=["sgd", keras.optimizers.Adam(0.01)], loss="mse")
    model.fit([X[:, :2], X], Y, verbose=0)
    path = os.path.join(tmp_path, "wide_deep.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert type(loaded) is WideDeepModel
    assert [type(o).__name__ for o in loaded.optimizer] == ["SGD", "Adam"]
    np.testing.assert_allclose(loaded.predict([X[:, :2], X], verbose=0),
                               model.predict([X[:, :2], X], verbose=0), rtol=1e-6)
    saved_model = keras.models.load_model(_saved(model.linear_model, tmp_path))
    assert type(saved_model) is LinearModel


def _saved(model, tmp_path):
    path = os.path.join(tmp_path, "linear")
    model.save(path)
    return path


def test_layers_deserialize_knows_the_premade_models():
    layer = keras.layers.deserialize({"class_name": "LinearModel", "config": {"units": 3}})
    assert type(layer) is LinearModel and layer.units == 3


def _sam_inner():
    return keras.Sequential([
        keras.layers.Dense(3, kernel_initializer=keras.initializers.Constant(0.3),
                           activation="tanh", input_shape=(2,)),
        keras.layers.Dense(1, kernel_initializer="ones")])


SAM_X = np.arange(12, dtype="float32").reshape(6, 2) / 6
SAM_Y = np.array([[0.0], [1.0], [0.0], [1.0], [1.0], [0.0]], "float32")


def test_sharpness_aware_minimization_matches_tf_keras():
    SAM = keras.models.experimental.SharpnessAwareMinimization
    model = SAM(_sam_inner(), rho=0.1)
    assert (model.rho, model.num_batch_splits) == (0.1, None)
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    history = model.fit(SAM_X, SAM_Y, epochs=3, batch_size=6, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [1.710531, 0.539266, 0.54033],
                               atol=2e-6)
    np.testing.assert_allclose(history.history["mae"], [0.969076, 0.594771, 0.515686],
                               atol=2e-6)
    np.testing.assert_allclose(model.get_weights()[0][:, 0], [0.142751, 0.130769], atol=2e-6)
    np.testing.assert_allclose(model.get_weights()[3], [-0.197411], atol=2e-6)

    split = SAM(_sam_inner(), num_batch_splits=2)
    split.compile(keras.optimizers.SGD(0.1), "mse")
    history = split.fit(SAM_X, SAM_Y, epochs=2, batch_size=6, verbose=0, shuffle=False,
                        sample_weight=np.arange(6, dtype="float32"))
    np.testing.assert_allclose(history.history["loss"], [6.589492, 9.287438], atol=1e-5)
    np.testing.assert_allclose(split.get_weights()[3], [0.425674], atol=2e-6)

    config = model.get_config()
    assert sorted(config) == ["model", "rho"]
    clone = SAM.from_config(config)
    assert type(clone.model) is keras.Sequential and clone.rho == 0.1
