"""``tf.compat.v1.keras.optimizers``: TF 1's Keras optimizers are the legacy ones (taking
``lr`` and ``decay``), as in tf_keras."""
import numpy as np
import pytest

import eagerflow as tf


def test_v1_keras_optimizers_are_the_legacy_ones():
    v1 = tf.compat.v1.keras.optimizers
    for name in ("Adam", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl",
                 "Optimizer"):
        assert getattr(v1, name) is getattr(tf.keras.optimizers.legacy, name)
    with pytest.warns(UserWarning, match="The `lr` argument is deprecated"):
        adam = v1.Adam(lr=0.01, decay=1e-6)
    assert adam.get_config()["learning_rate"] == pytest.approx(0.01)  # (not the default)
    assert adam.get_config()["decay"] == 1e-6
    var = tf.Variable(1.0)
    sgd = v1.SGD(0.1, decay=0.5)
    for _ in range(2):
        sgd.minimize(lambda: var * var, [var])
    np.testing.assert_allclose(var.numpy(), 0.6933333, rtol=1e-6)  # (tf_keras 2.21)
    assert v1.get is tf.keras.optimizers.get
