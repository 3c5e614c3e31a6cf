"""Layer.save_own_variables / load_own_variables, and .keras archives honouring overrides."""
import io
import os
import zipfile

import h5py
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


@keras.utils.register_keras_serializable("own_variables_test")
class Scaled(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.factor = 1.0

    def build(self, shape):
        self.w = self.add_weight("w", shape=(shape[-1],), initializer="ones")

    def call(self, x):
        return x * self.w * self.factor

    def save_own_variables(self, store):
        super().save_own_variables(store)
        store["factor"] = np.array(self.factor)

    def load_own_variables(self, store):
        self.factor = float(np.array(store["factor"]))
        self.w.assign(np.array(store["0"]))


def test_base_methods_write_and_read_the_layers_variables():
    dense = keras.layers.Dense(2)
    dense.build((None, 3))
    store = {}
    dense.save_own_variables(store)
    assert sorted(store) == ["0", "1"] and [v.shape for v in store.values()] == [(3, 2), (2,)]
    with pytest.raises(ValueError, match=r"Layer 'dense\w*' expected 2 variables, but received 1 "
                                         r"variables during loading. Expected: \['kernel:0', "
                                         r"'bias:0'\]"):
        dense.load_own_variables({"0": store["0"]})
    dense.load_own_variables({"0": np.ones((3, 2)), "1": np.ones(2)})
    np.testing.assert_array_equal(dense.bias, [1.0, 1.0])


def test_keras_archive_uses_a_layers_own_saving(tmp_path):
    layer = Scaled()
    model = keras.Sequential([keras.Input((2,)), layer])
    layer.factor = 3.0
    layer.w.assign([1.0, 2.0])
    path = os.path.join(tmp_path, "scaled.keras")
    model.save(path)
    with h5py.File(io.BytesIO(zipfile.ZipFile(path).read("model.weights.h5")), "r") as f:
        assert sorted(f["layers/scaled/vars"]) == ["0", "factor"]
    loaded = keras.models.load_model(path)
    assert loaded.layers[0].factor == 3.0
    np.testing.assert_array_equal(loaded(np.ones((1, 2), "float32")), [[3.0, 6.0]])
