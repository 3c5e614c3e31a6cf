"""Op values on paths found by comparing programs with TF 2.21 (values checked there)."""
import numpy as np

import eagerflow as tf


def test_scale_regularization_loss_sums_a_tensor_of_losses():
    assert float(tf.nn.scale_regularization_loss(tf.ones([3, 4]))) == 12.0
    assert float(tf.nn.scale_regularization_loss([tf.ones([2]), tf.ones([2])])) == 4.0
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        loss = tf.nn.scale_regularization_loss(x * x)
    assert loss.shape == ()
    np.testing.assert_allclose(t.gradient(loss, x), [2.0, 4.0])
