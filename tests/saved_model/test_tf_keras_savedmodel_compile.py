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



def test_loss_named_in_a_training_config_comes_back_as_its_function(tmp_path):
    # tf_keras 2.21: model.loss of a loaded .h5 or tf_keras SavedModel compiled with "mse"
    # is the function mean_squared_error (a .keras archive keeps the string "mse")
    model = tf.keras.models.load_model(os.path.join(DATA, "tf_keras_model_save"))
    assert model.loss.__name__ == "mean_squared_error"
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    m.compile("adam", "mse")
    m.save(str(tmp_path / "a.h5"))
    assert tf.keras.models.load_model(str(tmp_path / "a.h5")).loss.__name__ == \
        "mean_squared_error"
    m.save(str(tmp_path / "a.keras"))
    assert tf.keras.models.load_model(str(tmp_path / "a.keras")).loss == "mse"


def test_own_savedmodel_loads_compiled_from_its_training_config(tmp_path):
    # tf_keras 2.21 loads a SavedModel (its own or eagerflow's) compiled from its
    # training_config: a loss named there is its function, as for TF's own file above
    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    m.compile(tf.keras.optimizers.SGD(0.5), "sparse_categorical_crossentropy",
              metrics=["accuracy"])
    m.save(str(tmp_path / "sm"))
    loaded = tf.keras.models.load_model(str(tmp_path / "sm"))
    assert loaded.loss.__name__ == "sparse_categorical_crossentropy"
    assert type(loaded.optimizer).__name__ == "SGD"
    np.testing.assert_allclose(loaded.optimizer.learning_rate.numpy(), 0.5)
    loaded.fit(np.ones((2, 3), np.float32), np.array([0, 1]), epochs=1, verbose=0)
    assert int(loaded.optimizer.iterations) == 1
