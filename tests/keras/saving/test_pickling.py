"""Keras models under pickle and copy.deepcopy, as tf_keras takes them: a built model through
its `.keras` archive (values checked against TF 2.21)."""
import copy
import pickle

import numpy as np

import eagerflow as tf


def _model():
    model = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(2, kernel_initializer="ones")])
    model.compile("adam", "mse")
    return model


def test_a_built_model_pickles_with_its_weights_and_compile_arguments():
    model = _model()
    model.layers[0].kernel.assign(np.arange(6, dtype="float32").reshape(3, 2))
    again = pickle.loads(pickle.dumps(model))
    assert type(again).__name__ == "Sequential" and again is not model
    np.testing.assert_array_equal(again(np.ones((1, 3), "float32")).numpy(), [[6.0, 9.0]])
    assert again.loss == "mse" and type(again.optimizer).__name__ == "Adam"


def test_deepcopy_of_a_built_model_is_independent():
    model = _model()
    twin = copy.deepcopy(model)
    twin.layers[0].kernel.assign(tf.zeros([3, 2]))
    assert model(np.ones((1, 3), "float32")).numpy().tolist() == [[3.0, 3.0]]
    assert twin(np.ones((1, 3), "float32")).numpy().tolist() == [[0.0, 0.0]]


def test_deepcopy_of_a_model_not_yet_built_copies_its_layers():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    twin = copy.deepcopy(model)
    assert not twin.built and twin.layers[0] is not model.layers[0]
    assert twin(np.ones((1, 4), "float32")).shape == (1, 2) and not model.built
