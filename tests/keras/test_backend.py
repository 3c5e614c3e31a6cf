"""keras.backend: global settings, name counters, learning phase and helpers; dtype policies."""
import numpy as np
import pytest

import eagerflow as tf

K = tf.keras.backend


def test_floatx_epsilon_and_image_format():
    assert K.floatx() == "float32" and K.epsilon() == 1e-7
    assert K.image_data_format() == "channels_last"
    with pytest.raises(ValueError, match="Unknown `floatx` value: float8"):
        K.set_floatx("float8")
    with pytest.raises(ValueError, match="data_format"):
        K.set_image_data_format("nhwc")
    K.set_floatx("float64")
    try:
        assert K.cast_to_floatx([1.0]).dtype == np.float64
        assert tf.keras.layers.Dense(1).dtype == "float64"
    finally:
        K.set_floatx("float32")


def test_uids_restart_with_the_session():
    K.clear_session()
    assert (K.get_uid("x"), K.get_uid("x"), K.get_uid("y")) == (1, 2, 1)
    assert tf.keras.layers.Dense(1).name == "dense"
    assert tf.keras.Input((2,)).name == "input_1"
    K.clear_session()
    assert K.get_uid("x") == 1
    assert tf.keras.Input((2,)).name == "input_1"


def test_learning_phase_and_train_phase_selection():
    K.clear_session()
    assert K.learning_phase() == 0
    assert K.in_train_phase(1.0, 2.0) == 2.0
    assert K.in_train_phase(lambda: "train", lambda: "test", training=True) == "train"
    assert K.in_test_phase("test", "train", training=False) == "test"
    K.set_learning_phase(1)
    try:
        assert K.in_train_phase("train", "test") == "train"
    finally:
        K.clear_session()
    with pytest.raises(ValueError, match="Expected learning phase to be 0 or 1"):
        K.set_learning_phase(2)

    @tf.function
    def choose(flag):
        return K.in_train_phase(lambda: tf.constant(1.0), lambda: tf.constant(0.0), flag)

    assert float(choose(tf.constant(True))) == 1.0
    assert float(choose(tf.constant(False))) == 0.0


def test_shape_and_value_helpers():
    v = tf.Variable(np.zeros((2, 3), "float32"))
    assert K.int_shape(v) == (2, 3) and K.ndim(v) == 2 and K.dtype(v) == "float32"
    assert K.count_params(v) == 6
    K.set_value(v, np.ones((2, 3)))
    np.testing.assert_array_equal(K.get_value(v), np.ones((2, 3)))
    K.batch_set_value([(v, np.full((2, 3), 2.0))])
    np.testing.assert_array_equal(K.batch_get_value([v])[0], np.full((2, 3), 2.0))
    assert K.is_keras_tensor(tf.keras.Input((2,))) and not K.is_keras_tensor(tf.constant(1.0))


def test_dtype_policies():
    policy = tf.keras.mixed_precision.Policy("mixed_bfloat16")
    assert (policy.compute_dtype, policy.variable_dtype) == ("bfloat16", "float32")
    with pytest.raises(ValueError, match="Cannot convert value float8 to a mixed precision"):
        tf.keras.mixed_precision.Policy("float8")
    with pytest.raises(TypeError, match="must be a string, not a DType"):
        tf.keras.mixed_precision.Policy(tf.float32)
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        assert tf.keras.layers.Dense(1).compute_dtype == "float16"
        with pytest.raises(ValueError, match="floating-point policies"):
            tf.keras.mixed_precision.set_global_policy("int32")
    finally:
        tf.keras.mixed_precision.set_global_policy(None)
    assert tf.keras.mixed_precision.global_policy().name == "float32"
