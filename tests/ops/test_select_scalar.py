"""tf.where with a scalar condition picks one of two same-shaped tensors whole."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("dtype", [tf.uint8, tf.float32, tf.int64, tf.bool, tf.string])
def test_scalar_condition_picks_a_whole_tensor(dtype):
    x = tf.cast(tf.constant([[1, 0], [1, 1]]), dtype) if dtype != tf.string else \
        tf.constant([[b"a", b"b"], [b"c", b"d"]])
    y = tf.reverse(x, [1])
    np.testing.assert_array_equal(tf.where(tf.constant(True), x, y).numpy(), x.numpy())
    np.testing.assert_array_equal(tf.where(False, x, y).numpy(), y.numpy())

    @tf.function
    def f(c):
        return tf.where(c, x, y)
    np.testing.assert_array_equal(f(tf.constant(False)).numpy(), y.numpy())


def test_scalar_condition_with_a_variable_and_a_gradient():
    v = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as tape:
        out = tf.reduce_sum(tf.where(True, v * 2., tf.zeros([3])))
    assert float(out) == 12.
    np.testing.assert_array_equal(tape.gradient(out, v).numpy(), [2., 2., 2.])
