"""The Lambda layer's checks on the variables its function makes, as tf_keras 2.21."""
import numpy as np
import pytest

import eagerflow as tf


def test_lambda_refuses_a_variable_its_function_creates():
    layer = tf.keras.layers.Lambda(lambda t: t * tf.Variable(2.0, name="vv"))
    with pytest.raises(ValueError) as info:
        layer(np.ones((1, 2), np.float32))
    message = str(info.value)
    assert message.startswith("Exception encountered when calling layer 'lambda")
    assert "The following Variables were created within a Lambda layer (lambda" in message
    assert "/vv:0' shape=() dtype=float32" in message


def test_lambda_allows_outside_variables_and_generator_state():
    scale = tf.Variable(3.0)
    layer = tf.keras.layers.Lambda(lambda t: t * scale)
    assert layer(np.ones((1, 2), np.float32)).numpy().tolist() == [[3.0, 3.0]]
    noisy = tf.keras.layers.Lambda(
        lambda t: t + tf.random.Generator.from_seed(1).normal([2]))
    assert noisy(np.ones((1, 2), np.float32)).shape == (1, 2)


def test_a_lambda_reading_a_variable_it_does_not_track_warns_once(caplog):
    import logging
    v = tf.Variable(2.0)
    layer = tf.keras.layers.Lambda(lambda t: t * v, name="lv")
    inputs = tf.keras.Input((4,))
    with caplog.at_level(logging.WARNING, "eagerflow"):
        model = tf.keras.Model(inputs, layer(inputs))
        model(np.ones((1, 4), "float32"))
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1 and messages[0].startswith(
        "\nThe following Variables were used a Lambda layer's call (lv), but\n"
        "are not present in its tracked objects:\n  <tf.Variable")
    assert layer.weights == []
    caplog.clear()
    with caplog.at_level(logging.WARNING, "eagerflow"):  # (none read: nothing said)
        tf.keras.layers.Lambda(lambda t: t * 2.0)(inputs)
    assert caplog.records == []


def test_legacy_format_deserialization_loads_a_python_lambda():
    # tf_keras 2.21: the legacy format has no safe mode; the new one refuses the bytecode
    layer = tf.keras.layers.Lambda(lambda x: x + 1)
    for config in (tf.keras.layers.serialize(layer, use_legacy_format=True),
                   tf.keras.layers.serialize(layer)):
        again = tf.keras.layers.deserialize(config, use_legacy_format=True)
        assert again(tf.constant([1.0])).numpy().tolist() == [2.0]
    with pytest.raises(ValueError, match="Requested the deserialization of a Lambda layer"):
        tf.keras.layers.deserialize(tf.keras.layers.serialize(layer))
    for legacy in (True, False):
        with pytest.raises(ValueError, match=r"Cannot deserialize empty config. Received: "
                                             r"config=\{\}"):
            tf.keras.layers.deserialize({}, use_legacy_format=legacy)
