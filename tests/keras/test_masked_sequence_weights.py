"""Per-sequence sample weights on a masked sequence model: Keras gives the weights an
axis to broadcast over the mask's time steps, for the loss and the weighted metrics."""
import numpy as np

import eagerflow as tf


def test_evaluate_weighs_masked_sequences_per_sample():
    x = np.array([[3, 5, 2, 0, 0], [4, 1, 0, 0, 0], [1, 2, 3, 4, 5]])
    y = np.array([[5, 2, 7, 0, 0], [1, 3, 0, 0, 0], [2, 3, 4, 5, 6]])
    inputs = tf.keras.Input((None,), dtype="int64")
    hidden = tf.keras.layers.Embedding(9, 4, mask_zero=True)(inputs)
    hidden = tf.keras.layers.LSTM(4, return_sequences=True)(hidden)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(9)(hidden))
    for i, w in enumerate(model.weights):
        w.assign(tf.reshape(tf.cos(tf.range(tf.size(w), dtype=tf.float32) * 0.3 + i),
                            w.shape) * 0.5)
    model.compile(optimizer="sgd",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"], weighted_metrics=["accuracy"])
    logs = model.evaluate(x, y, sample_weight=np.array([1.0, 0.5, 2.0]), verbose=0,
                          return_dict=True)
    # TF 2.21's values
    np.testing.assert_allclose(logs["loss"], 2.968518018722534, rtol=1e-5)
    np.testing.assert_allclose(logs["accuracy"], 0.1, rtol=1e-6)
    np.testing.assert_allclose(logs["weighted_accuracy"], 0.1428571492433548, rtol=1e-6)
