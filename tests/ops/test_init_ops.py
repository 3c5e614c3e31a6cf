"""TF 2's top-level initializers (tf.zeros_initializer, tf.random_normal_initializer, ...)."""
import numpy as np
import pytest

import eagerflow as tf


def test_deterministic_initializers():
    assert tf.zeros_initializer()([2], tf.int32).numpy().tolist() == [0, 0]
    assert tf.ones_initializer()(shape=(3,), dtype="float64").dtype == tf.float64
    np.testing.assert_array_equal(tf.constant_initializer(3)([2, 2]).numpy(), np.full([2, 2], 3))
    out = tf.constant_initializer([1, 2, 3, 4])([2, 2], tf.float32)
    assert out.dtype == tf.float32 and out.numpy().tolist() == [[1, 2], [3, 4]]
    assert tf.zeros_initializer()([4], partition_shape=[1]).shape == (1,)
    assert tf.constant_initializer(2).get_config() == {"value": 2}


def test_seeded_initializers_give_the_stateless_ops_values():
    np.testing.assert_array_equal(
        tf.random_normal_initializer(0.0, 2.0, seed=1)([3]).numpy(),
        tf.random.stateless_normal([3], seed=[1, 0], stddev=2.0).numpy())
    np.testing.assert_array_equal(
        tf.random_uniform_initializer(0, 10, seed=5)([3], tf.int32).numpy(),
        tf.random.stateless_uniform([3], [5, 0], 0, 10, tf.int32).numpy())
    init = tf.random_uniform_initializer.from_config({"minval": 0, "maxval": 1, "seed": 2})
    np.testing.assert_array_equal(init([2]).numpy(), init([2]).numpy())  # the same each call


def test_initializer_errors():
    with pytest.raises(ValueError, match="expected to be numeric or boolean"):
        tf.zeros_initializer()([2], tf.string)
    with pytest.raises(ValueError, match="expected to be floating point"):
        tf.random_normal_initializer(seed=1)([3], tf.int32)
    with pytest.raises(TypeError, match="Invalid type for initial value: EagerTensor"):
        tf.constant_initializer(tf.constant(1.0))
    with pytest.raises(TypeError, match="Keyword argument should be one of"):
        tf.zeros_initializer()([2], foo=1)
    with pytest.raises(ValueError, match="doesn't support partition-related"):
        tf.constant_initializer(1)([2], partition_shape=[1])
