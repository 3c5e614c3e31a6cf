"""Writes data/ours/ with eagerflow (not run by tests): the checkpoints TF reads back.

    PYTHONPATH=src python tests/checkpoint/data/make_ours.py [legacy]
    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/tf_reads_ours.py [legacy]   # real TF

(``legacy``: only the checkpoints of the legacy optimizers, ours/legacy/.)
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

import eagerflow as tf  # noqa: E402
from tests.checkpoint.reference import (DATA, Ref, keras_data, keras_model,  # noqa: E402
                                        keras_weights, module_values)


def main():
    out = os.path.join(DATA, "ours")
    shutil.rmtree(out, ignore_errors=True)
    ref = Ref(module_values(1))
    tf.train.Checkpoint(module=ref, extra=[tf.Variable(3.0)]).save(
        os.path.join(out, "module", "ckpt"))
    tf.keras.backend.clear_session()  # the layers' names are saved (dense, dense_1)
    model = keras_model()
    model.set_weights(keras_weights())
    x, y = keras_data()
    model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
    tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(
        os.path.join(out, "keras", "ckpt"))
    legacy()


LEGACY = {"adam": lambda o: o.Adam(0.05), "sgd": lambda o: o.SGD(0.05, momentum=0.9),
          "rmsprop": lambda o: o.RMSprop(0.01, momentum=0.5, centered=True),
          "nadam": lambda o: o.Nadam(0.02)}


def legacy():
    """ours/legacy/<name>/ckpt-1: the Keras model with a legacy optimizer after three steps."""
    out = os.path.join(DATA, "ours", "legacy")
    shutil.rmtree(out, ignore_errors=True)
    x, y = keras_data()
    for name, make in LEGACY.items():
        tf.keras.backend.clear_session()
        model = keras_model()
        model.compile(optimizer=make(tf.keras.optimizers.legacy), loss="mse")
        model.set_weights(keras_weights())
        model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
        tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(
            os.path.join(out, name, "ckpt"))


def iterator():
    """``make_ours.py iterator`` writes ours/iterator/ alone: the iterator of
    make_tf_checkpoints.py's ``iterator`` beside a variable, in eagerflow's own iterator
    state, which TF does not read (tf_reads_ours.py records its error)."""
    out = os.path.join(DATA, "ours", "iterator")
    shutil.rmtree(out, ignore_errors=True)
    it = iter(tf.data.Dataset.range(20).batch(2))
    for _ in range(5):
        next(it)
    tf.train.Checkpoint(it=it, v=tf.Variable(3.5)).write(os.path.join(out, "ckpt"))


if __name__ == "__main__":
    if sys.argv[1:] == ["iterator"]:
        iterator()
    elif sys.argv[1:] == ["legacy"]:
        legacy()
    else:
        main()
