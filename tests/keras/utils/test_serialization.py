"""Configs as Keras serializes them: values converted to the types JSON holds."""
import json

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras


class _Holder(keras.layers.Layer):
    def get_config(self):
        return {"arr": np.array([1, 2]), "f": np.float32(0.1), "i": np.int64(3),
                "sh": tf.TensorShape(None), "t": tf.constant([1.0, 2.0]), "dt": tf.float16,
                "tup": (np.int32(1), [tf.TensorShape([2])]), "init": keras.initializers.Ones(),
                "f64": np.float64(0.1), "b": np.bool_(True)}


def test_config_values_are_converted():
    # the values tf_keras 2.x gives
    config = keras.utils.serialize_keras_object(_Holder())["config"]
    assert config == {
        "arr": {"class_name": "__numpy__", "config": {"value": [1, 2], "dtype": "int64"}},
        "f": 0.10000000149011612, "i": 3, "sh": None,
        "t": {"class_name": "__tensor__", "config": {"value": [1.0, 2.0], "dtype": "float32"}},
        "dt": "float16", "tup": (1, [[2]]),
        "init": {"module": "keras.initializers", "class_name": "Ones", "config": {},
                 "registered_name": None},
        "f64": 0.1, "b": True}
    assert type(config["f64"]) is np.float64 and type(config["b"]) is bool  # floats pass


def test_optimizer_learning_rate_serializes_as_a_python_float():
    config = keras.optimizers.serialize(keras.optimizers.SGD())["config"]
    assert type(config["learning_rate"]) is float
    assert config["learning_rate"] == 0.009999999776482582
    assert type(keras.optimizers.SGD().get_config()["learning_rate"]) is np.float32


def test_attention_shapes_are_shapes_in_the_layer_and_lists_in_the_model():
    x = keras.Input((4, 5))
    mha = keras.layers.MultiHeadAttention(2, 3, name="m")
    model = keras.Model(x, mha(x, x))
    assert mha.get_config()["query_shape"] == tf.TensorShape([None, 4, 5])
    assert isinstance(mha.get_config()["key_shape"], tf.TensorShape)
    config = model.get_config()
    assert config["layers"][1]["config"]["value_shape"] == [None, 4, 5]
    json.dumps(config)
    restored = keras.Model.from_config(config)
    assert restored.layers[1].get_config()["query_shape"] == tf.TensorShape([None, 4, 5])


def test_wrapped_lists_serialize_as_lists():
    bn = keras.layers.BatchNormalization(axis=[1, 2])
    assert type(keras.layers.serialize(bn)["config"]["axis"]) is list


_FAMILIES = ["activations", "initializers", "regularizers", "constraints", "losses", "metrics",
             "layers"]


def _plain(x):
    return x


@pytest.mark.parametrize("family", _FAMILIES)
def test_every_family_deserializes_a_function_to_itself(family):
    # tf_keras: a Python function given to `deserialize` is its own deserialization
    assert getattr(keras, family).deserialize(_plain) is _plain


@pytest.mark.parametrize("family, name, expected", [
    ("activations", "relu", "relu"), ("losses", "mse", "mean_squared_error"),
    ("metrics", "mse", "mean_squared_error")])
def test_functions_in_keras_format_deserialize_by_name(family, name, expected):
    config = {"module": "builtins", "class_name": "function", "config": name,
              "registered_name": "function"}
    assert getattr(keras, family).deserialize(config).__name__ == expected


def test_legacy_format_names_registered_classes_by_their_registered_name():
    @keras.utils.register_keras_serializable(package="legacy_names")
    class HalfLoss(keras.losses.Loss):
        def call(self, y_true, y_pred):
            return y_pred / 2

    @keras.utils.register_keras_serializable(package="legacy_names")
    class OtherMean(keras.metrics.Mean):
        pass

    assert keras.losses.serialize(HalfLoss(), use_legacy_format=True)["class_name"] == \
        "legacy_names>HalfLoss"
    assert keras.metrics.serialize(OtherMean(), use_legacy_format=True)["class_name"] == \
        "legacy_names>OtherMean"


def test_layers_serialize_in_the_legacy_format():
    config = keras.layers.serialize(keras.layers.Dense(2), use_legacy_format=True)
    assert sorted(config) == ["class_name", "config"] and config["class_name"] == "Dense"
    assert type(keras.layers.deserialize(config)).__name__ == "Dense"


@pytest.mark.parametrize("family, kind, error", [
    ("activations", "activation function", TypeError), ("initializers", "initializer", ValueError),
    ("regularizers", "regularizer", ValueError), ("constraints", "constraint function", ValueError),
    ("losses", "loss function", ValueError), ("metrics", "metric", ValueError),
    ("optimizers", "optimizer", ValueError)])
def test_get_names_the_family_in_its_error(family, kind, error):
    with pytest.raises(error, match=f"^Could not interpret {kind} identifier: 3$"):
        getattr(keras, family).get(3)


def test_serialize_warns_for_objects_of_another_family():
    for family, obj in [("initializers", keras.regularizers.L2()),
                        ("losses", keras.metrics.Mean()),
                        ("optimizers", keras.losses.MeanSquaredError())]:
        with pytest.warns(UserWarning, match=f"The `keras.{family}.serialize\\(\\)` API should "
                                             f"only be used for objects of type"):
            getattr(keras, family).serialize(obj)


def test_serialize_keras_object_takes_plain_values_containers_and_functions():
    # As tf_keras: plain values as they are, containers item by item, functions by their
    # registered name marked as functions (and found again, Keras's own by their name).
    serialize = keras.utils.serialize_keras_object
    assert serialize(3) == 3 and serialize("relu") == "relu" and serialize((1, 2)) == (1, 2)
    assert serialize([1, "a"]) == [1, "a"] and serialize(tf.float32) == "float32"
    assert serialize(tf.TensorShape([1, None])) == [1, None]
    assert serialize({"a": keras.activations.tanh}) == {"a": {
        "module": "builtins", "class_name": "function", "config": "tanh",
        "registered_name": "function"}}
    config = serialize(keras.losses.mean_squared_error)
    assert config["config"] == "mean_squared_error"
    assert keras.utils.deserialize_keras_object(config) is keras.losses.mean_squared_error
    assert keras.activations.serialize(keras.activations.relu) == "relu"


def test_deserialize_keras_object_finds_keras_classes_by_their_module():
    for obj in (tf.keras.layers.Dense(2, name="dd"), tf.keras.initializers.GlorotUniform(seed=1),
                tf.keras.losses.Huber(), tf.keras.optimizers.Adam(0.01)):
        config = tf.keras.utils.serialize_keras_object(obj)
        back = tf.keras.utils.deserialize_keras_object(config)
        assert type(back) is type(obj)
        assert back.get_config() == obj.get_config()


def test_deserialize_keras_object_gives_plain_values_back():
    # As tf_keras's `keras.utils.deserialize_keras_object`: a name that is no custom object is
    # a value (a name `compile` takes, say); a custom object's name gives the object itself
    deserialize = keras.utils.deserialize_keras_object
    assert deserialize("SGD") == "SGD"
    assert deserialize(["mean_squared_error", 3, (1.5, True)]) == \
        ["mean_squared_error", 3, [1.5, True]]
    assert deserialize("Dense", custom_objects={"Dense": keras.layers.Dense}) is \
        keras.layers.Dense
    assert keras.saving.deserialize_keras_object(7) == 7


def test_the_warning_for_a_serialized_lambda_shows_its_source():
    with pytest.warns(UserWarning, match=r"use named Python functions instead\. This is the "
                                         r"`lambda` being serialized: .*lambda x: x \+ 1"):
        keras.utils.serialize_keras_object(lambda x: x + 1)
