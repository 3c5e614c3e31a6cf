"""Structured-data preprocessing layers on the paths a table of mixed columns takes (ragged
categories, NaN in adapted numbers ...): the expected values are TF 2.21's (tf_keras)."""
import numpy as np

import eagerflow as tf

layers = tf.keras.layers


def test_discretization_adapt_sorts_nan_as_tf():
    # TF summarizes with its own sort, which leaves a leading NaN first (NumPy's puts it last)
    layer = layers.Discretization(num_bins=3)
    layer.adapt(np.array([np.nan, 1.0, 2.0, 3.0, 4.0, 5.0]))
    np.testing.assert_array_equal(layer.bin_boundaries, [np.nan, 3.0])
    assert layer(tf.constant([0.0, 3.0, np.nan])).numpy().tolist() == [1, 2, 2]


def test_category_encoding_of_ragged_rows():
    rows = tf.ragged.constant([[0, 1, 1], [3]])
    multi_hot = layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")(rows)
    assert multi_hot.dtype == tf.float32
    assert multi_hot.numpy().tolist() == [[1, 1, 0, 0], [0, 0, 0, 1]]
    counts = layers.CategoryEncoding(num_tokens=4, output_mode="count")(
        rows, count_weights=tf.ragged.constant([[0.5, 1.0, 2.0], [3.0]]))
    assert counts.numpy().tolist() == [[0.5, 3.0, 0, 0], [0, 0, 0, 3.0]]
    assert tf.math.bincount(rows, axis=-1, dtype="float32").numpy().tolist() == \
        [[1, 2, 0, 0], [0, 0, 0, 1]]
