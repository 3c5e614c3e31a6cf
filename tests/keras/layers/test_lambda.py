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
