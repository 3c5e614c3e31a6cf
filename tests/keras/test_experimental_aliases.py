"""The `experimental` namespaces of tf_keras name the same classes as the stable ones."""
import numpy as np

import eagerflow as tf
from eagerflow import keras


def test_optimizers_experimental_are_the_optimizers():
    for name in ["Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Nadam",
                 "Optimizer", "RMSprop", "SGD"]:
        assert getattr(keras.optimizers.experimental, name) is getattr(keras.optimizers, name)
    opt = keras.optimizers.experimental.AdamW(learning_rate=0.1, weight_decay=0.1)
    v = tf.Variable([1.0])
    opt.apply_gradients([(tf.constant([1.0]), v)])
    assert int(opt.iterations) == 1


def test_experimental_schedules_and_layers():
    assert keras.experimental.CosineDecay is keras.optimizers.schedules.CosineDecay
    assert keras.experimental.CosineDecayRestarts is \
        keras.optimizers.schedules.CosineDecayRestarts
    pre = keras.layers.experimental.preprocessing
    for name in ["Normalization", "Rescaling", "Resizing", "CenterCrop"]:
        assert getattr(pre, name) is getattr(keras.layers, name)
    assert issubclass(pre.Normalization, pre.PreprocessingLayer)
    assert keras.layers.experimental.EinsumDense is keras.layers.EinsumDense
    norm = pre.Normalization()
    norm.adapt(np.array([[1.0], [3.0]], "float32"))
    np.testing.assert_allclose(norm(np.array([[3.0]], "float32")), [[1.0]], rtol=1e-6)
