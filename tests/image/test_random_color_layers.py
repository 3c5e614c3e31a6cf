"""keras.layers.RandomContrast and RandomBrightness with seeds.

Expected values are TF 2.21 + tf_keras 2.21's observed outputs.
"""
import numpy as np
import pytest

import eagerflow as tf

IMG = tf.constant((np.random.RandomState(0).rand(2, 3, 4, 3) * 255).astype(np.float32))


def head(t, n=4):
    return t.numpy().ravel()[:n]


def test_random_contrast_seeded_draws():
    layer = tf.keras.layers.RandomContrast(0.5, seed=6)
    np.testing.assert_allclose(head(layer(IMG, training=True)),
                               [141.901, 187.873, 154.415, 140.729], atol=2e-3)
    np.testing.assert_allclose(head(layer(IMG, training=True)),
                               [139.429, 180.915, 153.516, 138.472], atol=2e-3)
    # (TF also augments in this third call, made without `training`)
    np.testing.assert_allclose(head(layer(IMG)), [139.216, 180.313, 153.439, 138.277], atol=2e-3)
    assert layer.get_config()["rng_type"] == "stateful"
    with pytest.raises(ValueError, match="cannot have negative values"):
        tf.keras.layers.RandomContrast(1.5)


def test_random_brightness_seeded_draws_and_range():
    layer = tf.keras.layers.RandomBrightness(0.2, seed=8)
    np.testing.assert_allclose(head(layer(IMG, training=True)),
                               [145.256, 187.682, 159.013, 144.254], atol=2e-3)
    np.testing.assert_allclose(head(layer(IMG, training=True)),
                               [121.313, 163.739, 135.07, 120.311], atol=2e-3)
    np.testing.assert_allclose(head(layer(IMG[0], training=True)),
                               [119.639, 162.065, 133.396, 118.637], atol=2e-3)
    config = layer.get_config()
    assert list(config["factor"]) == [-0.2, 0.2] and list(config["value_range"]) == [0, 255]
    unit = tf.keras.layers.RandomBrightness((-0.5, 0.1), value_range=(0, 1), seed=2)
    np.testing.assert_allclose(head(unit(IMG / 255, training=True)),
                               [0.624, 0.79, 0.678, 0.62], atol=2e-3)
    with pytest.raises(ValueError, match="should be a list of two numbers. Got 5"):
        tf.keras.layers.RandomBrightness(0.1, value_range=5)
    with pytest.raises(ValueError, match="Expected the input image to be rank 3 or 4"):
        tf.keras.layers.RandomBrightness(0.1)(tf.zeros([2, 2]), training=True)


def test_sequential_of_both_on_uint8():
    model = tf.keras.Sequential([tf.keras.layers.RandomBrightness(0.3, seed=1),
                                 tf.keras.layers.RandomContrast(0.3, seed=2)])
    out = model(tf.cast(IMG, tf.uint8))
    assert out.dtype == tf.float32
    np.testing.assert_allclose(head(out), [180.937, 220.474, 195.475, 180.087], atol=2e-3)
