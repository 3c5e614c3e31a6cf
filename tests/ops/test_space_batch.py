"""tf.space_to_batch_nd / space_to_batch / nn.space_to_batch / batch_to_space against TF's
recorded values."""
import numpy as np
import pytest

import eagerflow as tf


def test_round_trip_values_and_padding():
    x = tf.reshape(tf.range(2 * 4 * 6 * 1), [2, 4, 6, 1])
    y = tf.space_to_batch_nd(x, [2, 3], [[0, 0], [0, 0]])
    assert y.shape == (12, 2, 2, 1)
    assert y[:, :, :, 0].numpy()[:3].tolist() == [[[0, 3], [12, 15]], [[24, 27], [36, 39]],
                                                   [[1, 4], [13, 16]]]
    assert bool(tf.reduce_all(tf.batch_to_space(y, [2, 3], [[0, 0], [0, 0]]) == x))
    padded = tf.space_to_batch(tf.ones([1, 3, 3, 2]), [2, 2], [[1, 0], [0, 1]])
    assert padded.shape == (4, 2, 2, 2)
    assert padded[:, :, :, 0].numpy().tolist() == [
        [[0.0, 0.0], [1.0, 1.0]], [[0.0, 0.0], [1.0, 0.0]], [[1.0, 1.0], [1.0, 1.0]],
        [[1.0, 0.0], [1.0, 0.0]]]
    assert tf.batch_to_space(padded, [2, 2], [[1, 0], [0, 1]]).shape == (1, 3, 3, 2)
    assert tf.nn.space_to_batch(tf.ones([1, 4, 1]), [2], [[0, 0]]).shape == (2, 2, 1)


def test_gradient_function_and_errors():
    v = tf.Variable(tf.cast(tf.reshape(tf.range(48), [2, 4, 6, 1]), tf.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.space_to_batch_nd(v, [2, 3], [[1, 1], [0, 0]]) * 2)
    assert float(tf.reduce_sum(tape.gradient(loss, v))) == 96.0
    fn = tf.function(lambda a: tf.space_to_batch_nd(a, [2, 2], [[0, 0], [0, 0]]),
                     input_signature=[tf.TensorSpec([None, 4, 4, 1], tf.float32)])
    assert fn(tf.ones([3, 4, 4, 1])).shape == (12, 2, 2, 1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"padded_shape\[0\]=4 is not divisible by block_shape\[0\]=3"):
        tf.space_to_batch_nd(tf.ones([2, 4, 6, 1]), [3, 3], [[0, 0], [0, 0]])
