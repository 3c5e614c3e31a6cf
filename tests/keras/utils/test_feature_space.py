"""tf.keras.utils.FeatureSpace beyond the recorded TF cases (tests/keras/layers/
preprocessing_cases.py): saved to a `.keras` file and loaded back, and the structured-data
tutorial's flow (a preprocessed dataset trains a model on the encoded features)."""
import os

import numpy as np
import pytest

import eagerflow as tf

FS = tf.keras.utils.FeatureSpace
RNG = np.random.default_rng(0)
DATA = {"age": RNG.uniform(20, 70, 32).astype(np.float32),
        "thal": RNG.choice(["a", "b", "c"], 32),
        "sex": RNG.integers(0, 2, 32).astype(np.int64)}


def _adapted_space():
    space = FS(features={"age": "float_normalized", "thal": "string_categorical",
                         "sex": "integer_categorical"},
               crosses=[FS.cross(("thal", "sex"), crossing_dim=4)], output_mode="concat")
    space.adapt(tf.data.Dataset.from_tensor_slices(DATA).batch(8))
    return space


def test_saved_feature_space_loads_with_what_it_learned(tmp_path):
    pytest.importorskip("h5py")
    space = _adapted_space()
    path = os.path.join(tmp_path, "space.keras")
    space.save(path)
    loaded = tf.keras.models.load_model(path)
    assert type(loaded).__name__ == "FeatureSpace"
    batch = {k: v[:5] for k, v in DATA.items()}
    np.testing.assert_allclose(loaded(batch).numpy(), space(batch).numpy(), rtol=1e-6)
    assert loaded.preprocessors["thal"].get_vocabulary() == \
        space.preprocessors["thal"].get_vocabulary()


def test_a_model_trains_on_encoded_features():
    space = _adapted_space()
    labels = (DATA["age"] > 45).astype(np.float32)
    ds = tf.data.Dataset.from_tensor_slices((DATA, labels)).batch(8)
    preprocessed = ds.map(lambda x, y: (space(x), y))
    inputs = tf.keras.Input(space.get_encoded_features().shape[1:])
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, activation="sigmoid")(inputs))
    model.compile("adam", "binary_crossentropy")
    history = model.fit(preprocessed, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    inference = tf.keras.Model(space.get_inputs(), model(space.get_encoded_features()))
    out = inference({"age": tf.constant([[60.0]]), "thal": tf.constant([["b"]]),
                     "sex": tf.constant([[1]], tf.int64)})
    assert out.shape == (1, 1)
