"""A Keras SavedModel whose optimizer is a legacy one, loaded without compiling: as tf_keras,
the model's optimizer is a revived legacy `RestoredOptimizer` holding the saved
hyperparameters and slots, which neither applies gradients nor gives a config."""
import numpy as np
import pytest

import eagerflow as tf


def _saved(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="d")])
    model.compile(optimizer=tf.keras.optimizers.legacy.Adam(0.01), loss="mse")
    model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    path = str(tmp_path / "sm")
    model.save(path)
    return model, path


def test_load_without_compile_revives_legacy_optimizer(tmp_path):
    model, path = _saved(tmp_path)
    loaded = tf.keras.models.load_model(path, compile=False)
    optimizer = loaded.optimizer
    assert type(optimizer).__name__ == "RestoredOptimizer"
    assert isinstance(optimizer, tf.keras.optimizers.legacy.Optimizer)
    assert [w.name for w in optimizer.weights] == [
        "d/kernel/m:0", "d/bias/m:0", "d/kernel/v:0", "d/bias/v:0", "iter:0"]
    assert optimizer.get_slot_names() == ["m", "v"]
    np.testing.assert_allclose(optimizer.weights[0].numpy(),
                               model.optimizer.get_slot(model.layers[0].kernel, "m").numpy())
    assert optimizer.iterations.numpy() == 0  # (tf_keras's: a new counter)
    assert np.isclose(optimizer.learning_rate.numpy(), 0.01)
    assert np.isclose(optimizer.beta_1.numpy(), 0.9)
    with pytest.raises(NotImplementedError, match="Restoring functional Optimizers"):
        optimizer.get_config()
    with pytest.raises(NotImplementedError):
        optimizer.apply_gradients([(tf.ones([2]), loaded.layers[0].bias)])


def test_load_with_compile_gets_legacy_adam(tmp_path):
    _, path = _saved(tmp_path)
    loaded = tf.keras.models.load_model(path)
    assert type(loaded.optimizer) is tf.keras.optimizers.legacy.Adam
    assert np.isclose(loaded.optimizer.get_config()["learning_rate"], 0.01)
