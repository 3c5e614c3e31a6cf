"""tf_keras 2.21 names: keras.utils.legacy (serialization in the format before 2.13),
keras.backend.experimental's random-generator switch, layers.experimental.SyncBatchNormalization."""
import logging

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

legacy = keras.utils.legacy


def test_legacy_serialize_keeps_class_name_and_config():
    config = legacy.serialize_keras_object(keras.layers.Dense(2, name="d"))
    assert sorted(config) == ["class_name", "config"] and config["class_name"] == "Dense"
    assert config["config"]["name"] == "d" and config["config"]["units"] == 2
    # (values that are configs already stay as the layer gives them)
    assert config["config"]["kernel_initializer"]["module"] == "keras.initializers"
    assert legacy.serialize_keras_object(keras.activations.relu) == "relu"
    assert legacy.serialize_keras_object(None) is None
    with pytest.raises(ValueError, match="Cannot serialize relu because it doesn't implement "
                                         "`get_config\\(\\)`."):
        legacy.serialize_keras_object("relu")


def test_legacy_deserialize_finds_classes_in_the_given_tables():
    layer = legacy.deserialize_keras_object({"class_name": "Dense", "config": {"units": 3}},
                                            module_objects={"Dense": keras.layers.Dense})
    assert type(layer) is keras.layers.Dense and layer.units == 3
    layer = legacy.deserialize_keras_object({"class_name": "Dense", "config": {"units": 3}},
                                            custom_objects={"Dense": keras.layers.Dense})
    assert layer.units == 3
    with pytest.raises(ValueError, match="Unknown object: 'Dense'. Please ensure you are using "
                                         "a `keras.utils.custom_object_scope`"):
        legacy.deserialize_keras_object({"class_name": "Dense", "config": {"units": 3}})
    with pytest.raises(ValueError, match="Could not interpret serialized object: 3"):
        legacy.deserialize_keras_object(3)
    relu = legacy.deserialize_keras_object("relu", module_objects={"relu": keras.activations.relu})
    assert relu is keras.activations.relu
    assert legacy.deserialize_keras_object(None) is None


def test_legacy_round_trip_of_nested_objects():
    config = legacy.serialize_keras_object(keras.optimizers.schedules.ExponentialDecay(0.1, 10,
                                                                                       0.5))
    schedule = legacy.deserialize_keras_object(
        config, module_objects={"ExponentialDecay": keras.optimizers.schedules.ExponentialDecay})
    assert float(schedule(10)) == pytest.approx(0.05)


def test_tf_random_generator_switch():
    switch = keras.backend.experimental
    assert switch.is_tf_random_generator_enabled() is False
    switch.enable_tf_random_generator()
    try:
        assert switch.is_tf_random_generator_enabled() is True
    finally:
        switch.disable_tf_random_generator()
    assert switch.is_tf_random_generator_enabled() is False


def test_sync_batch_normalization_is_synchronized_batch_normalization(caplog):
    with caplog.at_level(logging.WARNING, "eagerflow"):
        layer = keras.layers.experimental.SyncBatchNormalization(momentum=0.5)
        keras.layers.experimental.SyncBatchNormalization()
    deprecated = [r for r in caplog.records if "SyncBatchNormalization` endpoint is deprecated"
                  in r.getMessage()]
    assert len(deprecated) <= 1  # (logged once per process)
    assert layer.synchronized and layer.name.startswith("sync_batch_normalization")
    assert "synchronized" not in layer.get_config()
    out = layer(np.array([[0.0], [2.0]], "float32"), training=True)
    np.testing.assert_allclose(out, [[-1.0], [1.0]], atol=1e-3)
    assert float(layer.moving_mean[0]) == 0.5
    config = keras.layers.serialize(layer)
    assert (config["class_name"], config["module"]) == ("SyncBatchNormalization",
                                                        "keras.layers.experimental")
    assert type(keras.layers.deserialize(config)) is keras.layers.experimental.SyncBatchNormalization


def test_compat_v1_keras_aliases():
    v1 = tf.compat.v1.keras
    for name in ("cosine", "cosine_proximity"):
        assert getattr(v1.losses, name) is tf.keras.losses.cosine_similarity
        assert getattr(v1.metrics, name) is tf.keras.losses.cosine_similarity
    assert v1.models.LinearModel is tf.keras.experimental.LinearModel
    assert v1.models.WideDeepModel is tf.keras.experimental.WideDeepModel
    assert v1.losses.MeanSquaredError is tf.keras.losses.MeanSquaredError
    assert v1.models.Sequential is tf.keras.Sequential
