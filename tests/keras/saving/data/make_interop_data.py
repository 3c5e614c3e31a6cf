"""Writes the Keras files the interop tests read; run by hand, never by the tests.

    TF_USE_LEGACY_KERAS=1 python make_interop_data.py tf        # with TensorFlow + tf_keras
    PYTHONPATH=src python make_interop_data.py eagerflow        # with eagerflow and h5py
    TF_USE_LEGACY_KERAS=1 python make_interop_data.py tf-reads  # with TensorFlow + tf_keras

``tf`` saves three models (a Dense/BatchNormalization classifier trained a few
steps with Adam, a functional Conv2D/BatchNormalization model, an
Embedding/LSTM regressor trained with Adam) as ``tf_<name>.h5`` (whole model),
``tf_<name>.keras``, ``tf_<name>_w.h5`` and ``tf_<name>.weights.h5``, with
their inputs, predictions and optimizer variables in ``tf_expected.npz``.
``eagerflow`` does the same with eagerflow (``ef_*`` files, ``ef_expected.npz``).
``tf-reads`` loads the ``ef_*`` files with tf_keras and records the
predictions and optimizer variables it got in ``tf_reads_ef.npz``.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def build(keras, name):
    if name == "mlp":
        model = keras.Sequential([keras.layers.Dense(8, activation="relu", input_shape=(4,)),
                                  keras.layers.BatchNormalization(),
                                  keras.layers.Dense(3, activation="softmax")])
        model.compile(keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy",
                      metrics=["accuracy"])
    elif name == "cnn":
        inputs = keras.Input((6, 6, 2))
        x = keras.layers.Conv2D(3, 3, activation="relu")(inputs)
        x = keras.layers.BatchNormalization()(x)
        outputs = keras.layers.Dense(2)(keras.layers.Flatten()(x))
        model = keras.Model(inputs, outputs)
    else:
        model = keras.Sequential([keras.layers.Embedding(12, 4, input_length=5),
                                  keras.layers.LSTM(6), keras.layers.Dense(1)])
        model.compile(keras.optimizers.Adam(0.02), "mse")
    return model


def data(name):
    rng = np.random.RandomState(7)
    if name == "mlp":
        return rng.randn(24, 4).astype("float32"), rng.randint(0, 3, 24)
    if name == "cnn":
        return rng.randn(5, 6, 6, 2).astype("float32"), None
    return rng.randint(0, 12, (16, 5)), rng.randn(16, 1).astype("float32")


NAMES = ("mlp", "cnn", "lstm")


def write(tf, prefix):
    keras = tf.keras
    keras.utils.set_random_seed(3)
    expected = {}
    for name in NAMES:
        model = build(keras, name)
        x, y = data(name)
        if y is not None:
            model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
            for i, v in enumerate(model.optimizer.variables):
                expected[f"{name}_optimizer_{i}"] = v.numpy()
        expected[f"{name}_x"] = x
        expected[f"{name}_y"] = model.predict(x, verbose=0)
        base = os.path.join(HERE, f"{prefix}_{name}")
        model.save(base + ".h5")
        model.save(base + ".keras")
        model.save_weights(base + "_w.h5")
        model.save_weights(base + ".weights.h5")
    np.savez(os.path.join(HERE, f"{prefix}_expected.npz"), **expected)


def tf_reads():
    import tensorflow as tf
    keras = tf.keras
    got = {}
    for name in NAMES:
        x = np.load(os.path.join(HERE, "ef_expected.npz"))[f"{name}_x"]
        base = os.path.join(HERE, f"ef_{name}")
        for kind in ("h5", "keras"):
            model = keras.models.load_model(f"{base}.{kind}")
            got[f"{name}_{kind}_y"] = model.predict(x, verbose=0)
            if model.optimizer is not None and name != "cnn":
                for i, v in enumerate(model.optimizer.variables):
                    got[f"{name}_{kind}_optimizer_{i}"] = v.numpy()
        for kind in ("_w.h5", ".weights.h5"):
            model = build(keras, name)
            model.load_weights(base + kind)
            got[f"{name}{kind}_y"] = model.predict(x, verbose=0)
    np.savez(os.path.join(HERE, "tf_reads_ef.npz"), **got)


if __name__ == "__main__":
    if sys.argv[1] == "tf":
        import tensorflow
        write(tensorflow, "tf")
    elif sys.argv[1] == "eagerflow":
        import eagerflow
        write(eagerflow, "ef")
    else:
        tf_reads()
