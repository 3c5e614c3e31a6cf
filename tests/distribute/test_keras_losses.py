"""Keras losses under a distribution strategy: a custom loop must reduce the per-example
losses itself; `compile`'s losses average over the batch as usual."""
import numpy as np
import pytest

import eagerflow as tf


def test_batch_averaging_loss_refused_under_a_strategy():
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    y = tf.ones([4, 2])
    for reduction in ("auto", "sum_over_batch_size"):
        loss = tf.keras.losses.MeanSquaredError(reduction=reduction)
        assert float(loss(y, y * 0)) == 1.0  # outside any strategy
        with s.scope():
            with pytest.raises(ValueError, match=r"^Please use `tf.keras.losses.Reduction.SUM` "
                                                 r"or `tf.keras.losses.Reduction.NONE`"):
                loss(y, y * 0)
        with pytest.raises(ValueError, match="Please use"):
            s.run(lambda: loss(y, y * 0))
    with s.scope():
        none = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)
        per = s.run(lambda: tf.nn.compute_average_loss(none(y, y * 0), global_batch_size=8))
        assert float(per) == 0.5
        summed = tf.keras.losses.MeanSquaredError(reduction="sum")
        assert float(summed(y, y * 0)) == 4.0


def test_compiled_loss_averages_under_a_strategy():
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    x = np.ones((8, 2), np.float32)
    with s.scope():
        loss = tf.keras.losses.MeanSquaredError()
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        model.compile("sgd", loss=loss)
        history = model.fit(x, np.ones((8, 1)), batch_size=4, epochs=1, verbose=0,
                            shuffle=False)
    assert history.history["loss"][0] > 0
    with s.scope():
        assert float(loss(tf.ones([2, 1]), tf.zeros([2, 1]))) == 1.0  # given to compile
