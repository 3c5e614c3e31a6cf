"""keras.layers.experimental.RandomFourierFeatures, against tf_keras 2.21."""
import json

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

RandomFourierFeatures = keras.layers.experimental.RandomFourierFeatures
X = np.arange(4, dtype="float32").reshape(2, 2) / 4


def test_values_for_fixed_weights_and_the_weights_layout():
    layer = RandomFourierFeatures(3, scale=2.0)
    layer.build((None, 2))
    assert [w.name for w in layer.weights] == ["kernel_scale:0", "unscaled_kernel:0", "bias:0"]
    assert [w.trainable for w in layer.weights] == [True, False, False]
    assert layer.trainable_weights == []  # (the layer is not trainable by default)
    layer.set_weights([np.array([2.0], "float32"),
                       np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], "float32"),
                       np.array([0.1, 0.2, 0.3], "float32")])
    np.testing.assert_allclose(layer(X), [[0.9996875, 0.96574426, 0.8525245],
                                          [0.9996875, 0.6313527, -0.22720204]], rtol=1e-6)
    assert json.dumps(layer.get_config(), sort_keys=True) == (
        '{"dtype": "float32", "kernel_initializer": "gaussian", "name": '
        f'"{layer.name}", "output_dim": 3, "scale": 2.0, "trainable": false}}')


def test_default_scales_and_a_trainable_laplacian_layer():
    laplacian = RandomFourierFeatures(5, kernel_initializer="laplacian", trainable=True)
    assert laplacian(X).shape == (2, 5)
    assert laplacian.scale == 1.0 and len(laplacian.trainable_weights) == 1
    gaussian = RandomFourierFeatures(5)
    gaussian(np.ones((1, 8), "float32"))
    assert gaussian.scale == pytest.approx(2.0)  # sqrt(8 / 2)
    out = gaussian(np.ones((1, 8), "float32")).numpy()
    assert np.all(np.abs(out) <= 1.0)


@pytest.mark.parametrize("make, message", [
    (lambda: RandomFourierFeatures(0), "`output_dim` should be a positive integer. Received: 0"),
    (lambda: RandomFourierFeatures(2, kernel_initializer="poly"),
     "Unsupported `kernel_initializer`: poly Expected one of: ['gaussian', 'laplacian']"),
    (lambda: RandomFourierFeatures(2, scale=-1.0),
     "When provided, `scale` should be a positive float. Received: -1.0"),
    (lambda: RandomFourierFeatures(2)(np.ones((2, 2, 2), "float32")),
     "The rank of the input tensor should be 2. Received input with rank 3 instead. Full "
     "input shape received: (2, 2, 2)"),
])
def test_errors(make, message):
    with pytest.raises(ValueError) as e:
        make()
    assert message in str(e.value)


def test_in_a_model():
    model = keras.Sequential([keras.Input((2,)), RandomFourierFeatures(4, scale=1.0),
                              keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    model.fit(X, np.ones((2, 1)), verbose=0)
    assert model.output_shape == (None, 1)
    assert RandomFourierFeatures(2).compute_output_shape((None, 4)) == tf.TensorShape([None, 2])
    config = keras.layers.serialize(model.layers[0])
    assert config["module"] == "keras.layers.experimental"
    assert type(keras.layers.deserialize(config)) is RandomFourierFeatures
