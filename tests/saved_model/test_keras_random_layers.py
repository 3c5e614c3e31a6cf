"""Keras models holding the random image layers (each keeps a `tf.random.Generator`) save as
a SavedModel: the generator's draws in the traced training call are written as TF's ops, the
model loads back, inference is the layers' identity, and training draws again."""
import numpy as np
import pytest

import eagerflow as tf

layers = tf.keras.layers


def _model():
    augment = tf.keras.Sequential([
        layers.RandomFlip("horizontal"), layers.RandomRotation(0.1), layers.RandomZoom(0.1),
        layers.RandomTranslation(0.1, 0.1), layers.RandomContrast(0.2),
        layers.RandomBrightness(0.2), layers.GaussianNoise(0.1), layers.Dropout(0.2)])
    inputs = tf.keras.Input((8, 8, 3))
    x = layers.Conv2D(2, 3)(augment(inputs))
    outputs = layers.Dense(2)(layers.Flatten()(x))
    return tf.keras.Model(inputs, outputs)


def _images():
    return np.random.default_rng(0).random((2, 8, 8, 3)).astype("float32")


def test_savedmodel_of_random_layers_loads_with_same_inference(tmp_path):
    model, x = _model(), _images()
    expected = model.predict(x, verbose=0)
    model.save(str(tmp_path / "sm"))
    loaded = tf.keras.models.load_model(str(tmp_path / "sm"))
    assert [type(l).__name__ for l in loaded.layers[1].layers][:3] == [
        "RandomFlip", "RandomRotation", "RandomZoom"]
    np.testing.assert_allclose(loaded.predict(x, verbose=0), expected, atol=1e-6)
    assert not np.allclose(loaded(x, training=True).numpy(), expected, atol=1e-3)
    restored = tf.saved_model.load(str(tmp_path / "sm"))
    np.testing.assert_allclose(restored(x).numpy(), expected, atol=1e-6)


@pytest.mark.parametrize("name", ["m.keras", "m.h5"])
def test_keras_and_h5_of_random_layers_still_load(tmp_path, name):
    model, x = _model(), _images()
    expected = model.predict(x, verbose=0)
    model.save(str(tmp_path / name))
    loaded = tf.keras.models.load_model(str(tmp_path / name))
    np.testing.assert_allclose(loaded.predict(x, verbose=0), expected, atol=1e-6)


def test_function_drawing_from_generator_with_run_time_shape_saves(tmp_path):
    class Module(tf.Module):
        def __init__(self):
            self.generator = tf.random.Generator.from_seed(3)

        @tf.function(input_signature=[tf.TensorSpec([None])])
        def __call__(self, x):
            seed = self.generator.make_seeds()[:, 0]
            noise = tf.random.stateless_uniform(tf.shape(x), seed)
            return x + noise, self.generator.uniform_full_int([2], tf.int64)

    module = Module()
    noisy, ints = module(tf.zeros([5]))
    tf.saved_model.save(module, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    first, first_ints = loaded(tf.zeros([5]))
    second, _ = loaded(tf.zeros([5]))
    assert first.shape == [5] and first_ints.dtype == tf.int64 and first_ints.shape == [2]
    assert ((first.numpy() >= 0) & (first.numpy() < 1)).all()
    assert not np.array_equal(first.numpy(), second.numpy())
