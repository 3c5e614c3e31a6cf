"""Keras models under Python's pickle protocol and `copy.deepcopy`, as tf_keras supports
them: a built model travels as the bytes of its `.keras` archive.

>>> import pickle
>>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
>>> again = pickle.loads(pickle.dumps(model))
>>> [w.shape.as_list() for w in again.weights]
[[3, 2], [2]]
"""
import os
import shutil
import tempfile

from eagerflow._src.keras.saving import saving_lib


def serialize_model_as_bytecode(model):
    """The bytes of `model`'s `.keras` archive."""
    folder = tempfile.mkdtemp()
    try:
        path = os.path.join(folder, "model.keras")
        saving_lib.save_model(model, path)
        with open(path, "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def deserialize_model_from_bytecode(serialized_model):
    """The model whose `.keras` archive `serialized_model` holds (Lambda layers' code too,
    as pickling trusts what it loads)."""
    folder = tempfile.mkdtemp()
    try:
        path = os.path.join(folder, "model.keras")
        with open(path, "wb") as f:
            f.write(serialized_model)
        return saving_lib.load_model(path, safe_mode=False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
