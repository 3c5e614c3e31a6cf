"""A Keras SavedModel written by tf_keras (data/tf_keras_model_save: Adam(0.1), "mse", one
fit step) loads compiled from its training_config, its optimizer fresh, as tf_keras 2.21
loads it (printed: Adam 0.1 0 ['iteration:0'])."""
import os

import numpy as np

import eagerflow as tf

DATA = os.path.join(os.path.dirname(__file__), "data")


def test_tf_keras_savedmodel_loads_compiled_with_a_fresh_optimizer():
    model = tf.keras.models.load_model(os.path.join(DATA, "tf_keras_model_save"))
    assert type(model.optimizer).__name__ == "Adam"
    np.testing.assert_allclose(model.optimizer.learning_rate.numpy(), 0.1)
    assert int(model.optimizer.iterations) == 0
    assert [v.name for v in model.optimizer.variables] == ["iteration:0"]
    x = np.ones((2, 3), np.float32) if model.input_shape[-1] == 3 else \
        np.ones((2, model.input_shape[-1]), np.float32)
    model.fit(x, np.ones((2, 2), np.float32), epochs=1, verbose=0)
    assert int(model.optimizer.iterations) == 1

