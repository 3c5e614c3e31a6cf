"""Writes the SavedModels eagerflow makes, for TensorFlow to load (run by hand, not by tests):

    PYTHONPATH=src /root/efvenv/bin/python tests/saved_model/data/make_ours.py
    /root/tfvenv/bin/python tests/saved_model/data/load_ours_in_tf.py
"""
import os
import shutil
import subprocess
import sys

import numpy as np

import eagerflow as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

from tests.saved_model.programs import (  # noqa: E402
    custom_gradient_module, dense_table_module, ragged_class, subclassed_model,
    vector_table_module)

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

    keras()


def keras(out=HERE):
    """Keras models saved by model.save (no suffix: a SavedModel), which tf_keras's
    load_model reads (``... make_ours.py keras`` writes these alone), in `out`."""
    tf.keras.backend.clear_session()  # (layers named as in a fresh process)
    # a Keras model after a step of training
    tf.keras.utils.set_random_seed(7)
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh", input_shape=(4,),
                                                       name="hidden"),
                                 tf.keras.layers.Dense(2, name="out")])
    model.compile(tf.keras.optimizers.Adam(0.1), "mse")
    xk = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    model.fit(xk, np.ones((2, 2), np.float32), epochs=1, verbose=0)
    path = os.path.join(out, "ours_keras")
    shutil.rmtree(path, ignore_errors=True)
    model.save(path)
    np.save(os.path.join(out, "ours_keras_y.npy"), model(xk).numpy())
    # a functional model (an Input, a layer used on two paths, Concatenate), uncompiled
    tf.keras.utils.set_random_seed(8)
    inputs = tf.keras.Input((4,), name="features")
    hidden = tf.keras.layers.Dense(5, activation="relu", name="hidden")(inputs)
    joined = tf.keras.layers.Concatenate(name="joined")([hidden, inputs])
    functional = tf.keras.Model(inputs, tf.keras.layers.Dense(
        2, name="out", kernel_regularizer=tf.keras.regularizers.l2(0.01))(joined),
        name="functional")
    path = os.path.join(out, "ours_keras_functional")
    shutil.rmtree(path, ignore_errors=True)
    functional.save(path)
    np.save(os.path.join(out, "ours_keras_functional_y.npy"), functional(xk).numpy())
    # a small CNN after a step of training: convolution, batch normalization (moving
    # statistics), pooling, dropout
    tf.keras.utils.set_random_seed(0)
    cnn = tf.keras.Sequential([
        tf.keras.layers.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 1)),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Dropout(0.5),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(3, activation="softmax")])
    cnn.compile("adam", "sparse_categorical_crossentropy")
    xc = np.random.RandomState(0).rand(2, 8, 8, 1).astype(np.float32)
    cnn.fit(xc, np.array([0, 2]), epochs=1, verbose=0)
    path = os.path.join(out, "ours_keras_cnn")
    shutil.rmtree(path, ignore_errors=True)
    cnn.save(path)
    np.save(os.path.join(out, "ours_keras_cnn_x.npy"), xc)
    np.save(os.path.join(out, "ours_keras_cnn_y.npy"), cnn(xc).numpy())
    # a Sequential model inside a functional one, called twice
    tf.keras.utils.set_random_seed(2)
    inner = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))], name="inner")
    inputs = tf.keras.Input((4,), name="x")
    joined = tf.keras.layers.Concatenate()([inner(inputs), inner(inputs * 2.0)])
    nested = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(joined), name="nested")
    path = os.path.join(out, "ours_keras_nested")
    shutil.rmtree(path, ignore_errors=True)
    nested.save(path)
    np.save(os.path.join(out, "ours_keras_nested_y.npy"), nested(xk).numpy())
    # an LSTM (an RNN layer, built from a 3-D shape)
    tf.keras.utils.set_random_seed(1)
    rnn = tf.keras.Sequential([tf.keras.layers.LSTM(3, input_shape=(5, 2)),
                               tf.keras.layers.Dense(2)])
    xr = np.random.RandomState(0).rand(2, 5, 2).astype(np.float32)
    path = os.path.join(out, "ours_keras_lstm")
    shutil.rmtree(path, ignore_errors=True)
    rnn.save(path)
    np.save(os.path.join(out, "ours_keras_lstm_x.npy"), xr)
    np.save(os.path.join(out, "ours_keras_lstm_y.npy"), rnn(xr).numpy())


KEYS = ["a", "green", "x", "c", "zzz", "blue"]
TEXT = ["the bird sat", "zebra cat", ""]


def tables():
    """Lookup tables (``... make_ours.py tables`` writes these alone): a Module with a
    StaticHashTable from constants, a StaticVocabularyTable from a vocabulary file (an asset)
    and a MutableHashTable; a Keras model with a TextVectorization layer, by model.save."""
    path = os.path.join(HERE, "ours_tables")
    shutil.rmtree(path, ignore_errors=True)
    vocab = os.path.join(HERE, "tables_vocab.txt")  # (make_tf_savedmodels.py writes it)
    m = tf.Module()
    m.hash = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], tf.constant([1, 2, 3], tf.int64)),
        default_value=-1)
    m.vocab = tf.lookup.StaticVocabularyTable(
        tf.lookup.TextFileInitializer(vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                                      tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER),
        num_oov_buckets=2)
    m.mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, -1.0)
    m.mutable.insert(["x", "y"], [0.5, 1.5])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def lookup(keys):
        return {"hash": m.hash.lookup(keys), "vocab": m.vocab.lookup(keys),
                "mutable": m.mutable.lookup(keys)}

    m.lookup = lookup
    tf.saved_model.save(m, path)

    path = os.path.join(HERE, "ours_keras_text")
    shutil.rmtree(path, ignore_errors=True)
    layer = tf.keras.layers.TextVectorization(max_tokens=20, output_sequence_length=4)
    layer.adapt(["the cat sat", "the dog ran far", "a bird"])
    inputs = tf.keras.Input((), dtype=tf.string)
    model = tf.keras.Model(inputs, layer(inputs))
    model.save(path)


def ragged():
    """Functions taking and returning ragged (and sparse) tensors, with signatures (``...
    make_ours.py ragged`` writes this alone)."""
    path = os.path.join(HERE, "ours_ragged")
    shutil.rmtree(path, ignore_errors=True)
    m = ragged_class(tf)()
    tf.saved_model.save(m, path, signatures={"serving_default": m.scaled,
                                             "summary": m.summary})


def dense():
    """A Module whose function uses a DenseHashTable (``... make_ours.py dense`` writes it
    alone): programs.dense_table_module."""
    path = os.path.join(HERE, "ours_dense")
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(dense_table_module(tf), path)


def vector_tables():
    """A Module whose function uses tables of vectors (``... make_ours.py vector_tables``
    writes it alone): programs.vector_table_module."""
    path = os.path.join(HERE, "ours_vector_tables")
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(vector_table_module(tf), path)


def custom_gradients(out=HERE):
    """Functions using tf.custom_gradient, their gradients saved
    (programs.custom_gradient_module; ``... make_ours.py custom_gradients`` writes it alone)."""
    path = os.path.join(out, "ours_custom_gradients")
    shutil.rmtree(path, ignore_errors=True)
    m = custom_gradient_module(tf)()
    tf.saved_model.save(m, path, signatures={"f": m.f})


def subclassed(out=HERE):
    """A subclassed Keras model after a step of training, by model.save (``... make_ours.py
    subclassed`` writes it alone): tf_keras revives it from the SavedModel's functions."""
    model, x = subclassed_model(tf, 5)
    path = os.path.join(out, "ours_keras_subclassed")
    shutil.rmtree(path, ignore_errors=True)
    model.save(path)
    np.save(os.path.join(out, "ours_keras_subclassed_y.npy"), model(x).numpy())


if __name__ == "__main__":
    if sys.argv[1:] == ["subclassed"]:
        subclassed()
    elif sys.argv[1:] == ["tables"]:
        tables()
    elif sys.argv[1:] == ["dense"]:
        dense()
    elif sys.argv[1:] == ["vector_tables"]:
        vector_tables()
    elif sys.argv[1:] == ["keras"]:
        keras()
    elif sys.argv[1:] == ["ragged"]:
        ragged()
    elif sys.argv[1:] == ["custom_gradients"]:
        custom_gradients()
    else:
        main()
        tables()
        # (in a fresh interpreter, as the test that compares it writes it: library functions
        # of loops are numbered per process)
        subprocess.run([sys.executable, os.path.abspath(__file__), "ragged"], check=True)
        dense()
        vector_tables()
        subclassed()
        custom_gradients()
