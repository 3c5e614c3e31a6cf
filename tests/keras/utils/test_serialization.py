"""Configs as Keras serializes them: values converted to the types JSON holds."""
import json

import numpy as np

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
