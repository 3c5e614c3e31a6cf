"""`tf.keras.mixed_precision.Policy` compares by identity, as tf_keras's does; its errors."""
import pytest

import eagerflow as tf


def test_policies_of_the_same_name_are_not_equal():
    a = tf.keras.mixed_precision.Policy("mixed_float16")
    b = tf.keras.mixed_precision.Policy("mixed_float16")
    assert (a == b) is False and a == a and a != b
    assert a.name == b.name and a.get_config() == b.get_config()
    assert len({a, b}) == 2


def test_a_layer_dtype_that_names_no_dtype_is_the_dtype_conversion_error():
    # tf_keras: a layer's dtype string is a mixed policy's name or a dtype's (Policy itself
    # raises its own ValueError for an unknown name)
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: "
                                        "'mixed_foo' to a TensorFlow DType."):
        tf.keras.layers.Dense(2, dtype="mixed_foo")
    with pytest.raises(ValueError, match="Cannot convert value mixed_foo to a mixed precision"):
        tf.keras.mixed_precision.Policy("mixed_foo")
    with pytest.raises(TypeError, match=r"Instead, pass DType.name. Received: name=float32$"):
        tf.keras.mixed_precision.Policy(tf.float32)
