"""Restores data/ours/ (written by eagerflow) with real TensorFlow; records what it read.

    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/tf_reads_ours.py

Restores the module checkpoint into the TF twin of its objects and the Keras
one into a TF model not built yet and its Adam optimizer, asserts with
`assert_consumed` (after one training step creates the slots), and writes
every restored value (bfloat16 as bits, strings in hex) to ours/tf_read.npz.
"""
import os
import sys

import numpy as np
import tensorflow as tf

from make_tf_checkpoints import Ref, as_saved, keras_data, module_values

OURS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ours")


def main():
    out = {}
    ref = Ref(module_values(0))
    extra = [tf.Variable(0.0)]
    status = tf.train.Checkpoint(module=ref, extra=extra).restore(
        os.path.join(OURS, "module", "ckpt-1"))
    status.assert_consumed()
    out["status/module_consumed"] = True
    root = tf.train.Checkpoint(module=ref, extra=extra)
    root.save_counter.assign(1)
    for key, _ in tf.train.list_variables(os.path.join(OURS, "module", "ckpt-1")):
        if key == "_CHECKPOINTABLE_OBJECT_GRAPH":
            continue
        names = key.split("/.ATTRIBUTES")[0].split("/")
        obj = root
        for name in names:
            obj = obj[int(name)] if isinstance(obj, (list, tuple)) else \
                obj[name] if isinstance(obj, dict) else getattr(obj, name)
        out["module/ckpt-1/" + key] = as_saved(obj.numpy())

    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    status = tf.train.Checkpoint(model=model, optimizer=model.optimizer).restore(
        os.path.join(OURS, "keras", "ckpt-1"))
    x, y = keras_data()
    model.predict(x, verbose=0)
    model.optimizer.build(model.trainable_variables)
    status.assert_consumed()
    out["status/keras_consumed"] = True
    saved = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
    saved.save_counter.assign(1)
    prefix = os.path.join(OURS, "tf_resaved")
    path = saved.write(prefix)
    for key, _ in tf.train.list_variables(path):
        if key != "_CHECKPOINTABLE_OBJECT_GRAPH":
            out["keras/ckpt-1/" + key] = tf.train.load_variable(path, key)
    for name in os.listdir(OURS):
        if name.startswith("tf_resaved"):
            os.remove(os.path.join(OURS, name))
    np.savez(os.path.join(OURS, "tf_read.npz"), **out)
    legacy()


def legacy():
    """Restores ours/legacy/<name>/ckpt-1 into a TF model not built yet and its legacy
    optimizer, asserts `assert_consumed` once the slots exist, and records every restored
    value and the weights after one more step in ours/legacy/tf_read.npz."""
    from make_tf_checkpoints import LEGACY, keras_data as data
    out = {}
    x, y = data()
    for name, make in LEGACY.items():
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                     tf.keras.layers.Dense(2)])
        model.compile(optimizer=make(tf.keras.optimizers.legacy), loss="mse")
        status = tf.train.Checkpoint(model=model, optimizer=model.optimizer).restore(
            os.path.join(OURS, "legacy", name, "ckpt-1"))
        model.predict(x, verbose=0)
        model.optimizer._create_all_weights(model.trainable_variables)
        status.assert_consumed()
        out[f"{name}/consumed"] = True
        out[f"{name}/predict"] = model.predict(x, verbose=0)
        saved = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
        prefix = os.path.join(OURS, "legacy", "tf_resaved")
        path = saved.write(prefix)
        for key, _ in tf.train.list_variables(path):
            if key != "_CHECKPOINTABLE_OBJECT_GRAPH":
                out[f"{name}/{key}"] = tf.train.load_variable(path, key)
        for file in os.listdir(os.path.join(OURS, "legacy")):
            if file.startswith("tf_resaved"):
                os.remove(os.path.join(OURS, "legacy", file))
        model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
        for i, w in enumerate(model.get_weights()):
            out[f"{name}/after_step/{i}"] = w
    np.savez(os.path.join(OURS, "legacy", "tf_read.npz"), **out)


def iterator():
    """``tf_reads_ours.py iterator``: TF's restore of ours/iterator/ (an eagerflow iterator
    state) into a TF iterator; the error it raises is written to ours/iterator/tf_error.txt."""
    it = iter(tf.data.Dataset.range(20).batch(2))
    try:
        tf.train.Checkpoint(it=it, v=tf.Variable(0.0)).read(
            os.path.join(OURS, "iterator", "ckpt"))
        found = "restored without an error"
    except Exception as e:  # noqa: BLE001 (the error TF raises is what is recorded)
        found = f"{type(e).__name__}: {e}"
    with open(os.path.join(OURS, "iterator", "tf_error.txt"), "w") as f:
        f.write(found + "\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["iterator"]:
        iterator()
    elif sys.argv[1:] == ["legacy"]:
        legacy()
    else:
        main()
