"""Masks through models used as layers: a model's outputs carry the masks its layers give
them (values from TF 2.21)."""
import numpy as np

import eagerflow as tf


def _masked_ids():
    ids = tf.constant([[1, 2, 0, 0]])
    return tf.keras.layers.Embedding(10, 4, mask_zero=True, embeddings_initializer="ones")(ids)


def test_a_nested_model_that_drops_the_mask_gives_none():
    embedded = _masked_ids()
    pool = tf.keras.Sequential([tf.keras.layers.GlobalAveragePooling1D()])
    assert getattr(pool(embedded), "_keras_mask", None) is None  # (not the input's mask)
    assert pool.compute_mask(embedded, embedded._keras_mask) is None
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(10, 4, mask_zero=True, embeddings_initializer="ones"),
        tf.keras.Sequential([tf.keras.layers.GlobalAveragePooling1D()]),
        tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(loss="mse")
    x, y = np.array([[1, 2, 0, 0], [3, 0, 0, 0]]), np.array([[1.0], [2.0]])
    assert model.evaluate(x, y, verbose=0) == 6.5


def test_functional_models_compute_their_output_masks():
    inputs = tf.keras.Input((None, 4))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(3)(inputs))
    assert model.supports_masking
    embedded = _masked_ids()
    assert model.compute_mask(embedded, embedded._keras_mask).numpy().tolist() == \
        [[True, True, False, False]]
    assert model.compute_mask(embedded, None) is None
    ids = tf.keras.Input((None,), dtype="int64")
    masked = tf.keras.Model(ids, tf.keras.layers.Embedding(10, 4, mask_zero=True)(ids))
    assert masked.compute_mask(tf.constant([[3, 0]]), None).numpy().tolist() == [[True, False]]
