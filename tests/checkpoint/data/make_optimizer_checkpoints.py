"""Writes tf/optimizers/ with real TensorFlow (not run by tests).

    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/make_optimizer_checkpoints.py

For each Keras optimizer in `OPTIMIZERS`: a small model compiled with it and
trained two steps is saved with ``save_weights`` (``tf/optimizers/<name>/w``);
``expected.npz`` holds, per optimizer, the model's weights and the
optimizer's variables after one more `train_on_batch` step, the result a
restored model must reproduce.
"""
import os
import shutil

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf", "optimizers")

OPTIMIZERS = {
    "sgd": lambda o: o.SGD(0.1, momentum=0.9, nesterov=True),
    "adam": lambda o: o.Adam(0.01, amsgrad=True),
    "adamw": lambda o: o.AdamW(0.01, weight_decay=0.1),
    "rmsprop": lambda o: o.RMSprop(0.01, momentum=0.5, centered=True),
    "adagrad": lambda o: o.Adagrad(0.1),
    "adadelta": lambda o: o.Adadelta(1.0),
    "adamax": lambda o: o.Adamax(0.01),
    "nadam": lambda o: o.Nadam(0.01),
    "ftrl": lambda o: o.Ftrl(0.1, l1_regularization_strength=0.01),
    "lion": lambda o: o.Lion(0.01),
    "adafactor": lambda o: o.Adafactor(0.1),
}


def data():
    rng = np.random.RandomState(3)
    return rng.randn(16, 3).astype("float32"), rng.randn(16, 2).astype("float32")


def build(keras, name):
    """A model with a matrix, vectors and non-trainable weights, compiled with `name`."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                              keras.layers.BatchNormalization(), keras.layers.Dense(2)])
    model.compile(OPTIMIZERS[name](keras.optimizers), loss="mse")
    return model


def main():
    import tensorflow as tf
    shutil.rmtree(HERE, ignore_errors=True)
    x, y = data()
    expected = {}
    for name in OPTIMIZERS:
        tf.keras.utils.set_random_seed(1)
        model = build(tf.keras, name)
        model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
        model.save_weights(os.path.join(HERE, name, "w"))
        model.train_on_batch(x[:8], y[:8])
        for i, w in enumerate(model.get_weights()):
            expected[f"{name}/weights/{i}"] = w
        for i, v in enumerate(model.optimizer.variables):
            expected[f"{name}/optimizer/{i}"] = v.numpy()
    np.savez(os.path.join(HERE, "expected.npz"), **expected)


if __name__ == "__main__":
    main()
