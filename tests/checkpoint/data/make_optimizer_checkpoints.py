"""Writes tf/optimizers/ with real TensorFlow (not run by tests).

    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/make_optimizer_checkpoints.py

For each Keras optimizer in `OPTIMIZERS`: a small model compiled with it and
trained two steps is saved with ``save_weights`` (``tf/optimizers/<name>/w``);
``expected.npz`` holds, per optimizer, the model's weights and the
optimizer's variables (and loss scale) after one more `train_on_batch` step,
the result a restored model must reproduce.
"""
import os
import shutil

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf", "optimizers")

OPTIMIZERS = {
    "sgd": lambda k: k.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    "adam": lambda k: k.optimizers.Adam(0.01, amsgrad=True),
    "adamw": lambda k: k.optimizers.AdamW(0.01, weight_decay=0.1),
    "rmsprop": lambda k: k.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
    "adagrad": lambda k: k.optimizers.Adagrad(0.1),
    "adadelta": lambda k: k.optimizers.Adadelta(1.0),
    "adamax": lambda k: k.optimizers.Adamax(0.01),
    "nadam": lambda k: k.optimizers.Nadam(0.01),
    "ftrl": lambda k: k.optimizers.Ftrl(0.1, l1_regularization_strength=0.01),
    "lion": lambda k: k.optimizers.Lion(0.01),
    "adafactor": lambda k: k.optimizers.Adafactor(0.1),
    # a legacy (OptimizerV2) optimizer wrapped for loss scaling: TF's OptimizerV2 layout,
    # slots by variable, and the scale's state under ``loss_scale``
    "loss_scale_legacy": lambda k: k.mixed_precision.LossScaleOptimizer(
        k.optimizers.legacy.Adam(0.01), initial_scale=64.0, dynamic_growth_steps=2),
}


def data():
    rng = np.random.RandomState(3)
    return rng.randn(16, 3).astype("float32"), rng.randn(16, 2).astype("float32")


def build(keras, name):
    """A model with a matrix, vectors and non-trainable weights, compiled with `name`."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                              keras.layers.BatchNormalization(), keras.layers.Dense(2)])
    model.compile(OPTIMIZERS[name](keras), loss="mse")
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
        variables = model.optimizer.variables
        for i, v in enumerate(variables() if callable(variables) else variables):
            expected[f"{name}/optimizer/{i}"] = v.numpy()
        if hasattr(model.optimizer, "loss_scale"):
            expected[f"{name}/loss_scale"] = model.optimizer.loss_scale.numpy()
            expected[f"{name}/good_steps"] = model.optimizer.dynamic_counter.numpy()
    np.savez(os.path.join(HERE, "expected.npz"), **expected)


if __name__ == "__main__":
    main()
