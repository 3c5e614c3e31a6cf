"""``tf.compat.v1.keras.layers.disable_v2_dtype_behavior``: layers made after it take their
first input's dtype and cast nothing, as tf_keras 2.21's; metrics stay floatx."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.fixture
def v1_dtypes():
    tf.compat.v1.keras.layers.disable_v2_dtype_behavior()
    try:
        yield
    finally:
        tf.compat.v1.keras.layers.enable_v2_dtype_behavior()


def test_layers_take_their_first_inputs_dtype(v1_dtypes):
    dense = tf.keras.layers.Dense(2)
    assert dense.dtype is None and dense.dtype_policy.name == "_infer"
    assert dense.get_config()["dtype"] is None
    assert dense(np.ones((1, 3), "float64")).dtype == tf.float64
    assert dense.dtype == "float64" and dense.kernel.dtype == tf.float64
    # nothing is cast: a layer given a dtype computes with inputs as they come
    assert tf.keras.layers.Dense(2, dtype="float32")(np.ones((1, 3), "float64")).dtype == \
        tf.float32
    model = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    model.fit(tf.ones((4, 3), "float64"), np.ones((4, 1)), verbose=0)
    assert [layer.dtype for layer in model.layers] == ["float64", "float64"]
    # (NumPy floats come to `fit` as floatx)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.compile("sgd", "mse")
    model.fit(np.ones((4, 3), "float64"), np.ones((4, 2)), verbose=0)
    assert model.layers[0].dtype == "float32"
    assert tf.keras.metrics.Mean().dtype == "float32"


def test_enabling_again_restores_the_global_policy(v1_dtypes):
    tf.compat.v1.keras.layers.enable_v2_dtype_behavior()
    layer = tf.keras.layers.Dense(2)
    assert layer.dtype == "float32"
    assert layer(np.ones((1, 3), "float64")).dtype == tf.float32
