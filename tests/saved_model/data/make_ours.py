"""Writes the SavedModels eagerflow makes, for TensorFlow to load (run by hand, not by tests):

    PYTHONPATH=src /root/efvenv/bin/python tests/saved_model/data/make_ours.py
    /root/tfvenv/bin/python tests/saved_model/data/load_ours_in_tf.py
"""
import os
import shutil

import numpy as np

import eagerflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))


class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable([2.0, -1.0, 0.5], name="scale")


class Model(tf.Module):
    """Nested modules, a dict result, a captured constant, a traced function without a
    signature and one with an int32 input."""

    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.bias = tf.Variable(1.5, name="bias")
        self.offset = tf.constant([0.0, 1.0, 2.0])

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="features")])
    def predict(self, features):
        y = features * self.inner.scale + self.bias + self.offset
        return {"scores": y, "total": tf.reduce_sum(y, axis=1)}

    @tf.function
    def count(self, n):
        return tf.range(n) * 2


def main():
    path = os.path.join(HERE, "ours_module")
    shutil.rmtree(path, ignore_errors=True)
    m = Model()
    m.count(tf.constant(4))
    tf.saved_model.save(m, path)
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 4.0]], np.float32)
    np.save(os.path.join(HERE, "ours_module_x.npy"), x)

    # a Keras model after a step of training, saved by model.save (no suffix: a SavedModel)
    tf.keras.utils.set_random_seed(7)
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh", input_shape=(4,),
                                                       name="hidden"),
                                 tf.keras.layers.Dense(2, name="out")])
    model.compile(tf.keras.optimizers.Adam(0.1), "mse")
    xk = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    model.fit(xk, np.ones((2, 2), np.float32), epochs=1, verbose=0)
    path = os.path.join(HERE, "ours_keras")
    shutil.rmtree(path, ignore_errors=True)
    model.save(path)
    np.save(os.path.join(HERE, "ours_keras_y.npy"), model(xk).numpy())


if __name__ == "__main__":
    main()
