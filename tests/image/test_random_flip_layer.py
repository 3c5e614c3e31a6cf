"""keras.layers.RandomFlip: seeded draws, the training switch, dtype and config.

Expected values are TF 2.21 + tf_keras 2.21's observed outputs.
"""
import numpy as np
import pytest

import eagerflow as tf

IMG = tf.reshape(tf.range(12, dtype=tf.float32), [2, 2, 3, 1])


def pixels(t):
    return t.numpy()[..., 0].tolist()


def test_seeded_flips_follow_keras_generator():
    flip = tf.keras.layers.RandomFlip(seed=1)
    assert pixels(flip(IMG)) == pixels(IMG)  # a direct call without `training` is inference
    assert pixels(flip(IMG, training=True)) == [[[5, 4, 3], [2, 1, 0]], [[9, 10, 11], [6, 7, 8]]]
    assert flip.weights == []
    assert flip.get_config() == {"name": flip.name, "trainable": True, "dtype": "float32",
                                 "rng_type": "stateful", "mode": "horizontal_and_vertical",
                                 "seed": 1}


def test_sequential_trains_by_default_and_casts_to_float():
    model = tf.keras.Sequential([tf.keras.layers.RandomFlip("horizontal", seed=4)])
    assert pixels(model(IMG)) == [[[2, 1, 0], [5, 4, 3]], [[8, 7, 6], [11, 10, 9]]]
    assert pixels(model(IMG, training=False)) == pixels(IMG)
    out = tf.keras.layers.RandomFlip("vertical", seed=5)(
        tf.constant(np.arange(12).reshape(2, 3, 2), tf.uint8))
    assert out.dtype == tf.float32
    assert out.numpy()[..., 0].tolist() == [[6, 8, 10], [0, 2, 4]]


def test_draws_advance_inside_dataset_map():
    flip = tf.keras.layers.RandomFlip("horizontal", seed=7)
    ds = tf.data.Dataset.from_tensor_slices(tf.reshape(tf.range(24.0), [4, 2, 3, 1]))
    flipped = [x.numpy()[0, 0, 0] != 6 * i for i, x in
               enumerate(ds.map(lambda x: flip(x, training=True)))]
    assert flipped == [False, False, True, False]


def test_unknown_mode():
    with pytest.raises(ValueError, match="received an unknown mode argument diagonal"):
        tf.keras.layers.RandomFlip("diagonal")
