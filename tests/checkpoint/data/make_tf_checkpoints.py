"""Writes the reference checkpoints of tests/checkpoint with real TensorFlow (not run by tests).

    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/make_tf_checkpoints.py

Writes, under tf/: a `tf.Module` of nested variables, lists, dicts and tuples
in every dtype a checkpoint stores (``module/ckpt-1``, ``-2`` and the
``checkpoint`` file of `Checkpoint.save`), a Keras model with its Adam
optimizer after three training steps (``keras/ckpt-1``, and its
``save_weights`` in ``weights/w``), and a
`CheckpointManager` directory (``manager/``); expected.npz holds the values
and results the tests compare with (bfloat16 as its uint16 bits).
"""
import json
import os
import shutil

import numpy as np
import tensorflow as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf")


def module_values(step):
    """The variables of the reference module, by attribute path, at save `step`."""
    s = float(step)
    return {
        "f32": np.array([[1.5, -2.0, s]], np.float32),
        "f64": np.array([np.pi, -s], np.float64),
        "f16": np.array([0.5, 65504.0, -s], np.float16),
        "bf16": tf.constant([1.5, -3.0, s], tf.bfloat16),
        "i8": np.array([-128, 127], np.int8), "i16": np.array([-300, 300], np.int16),
        "i32": np.array(7 * step, np.int32), "i64": np.array([2 ** 40, -step], np.int64),
        "u8": np.array([0, 255], np.uint8), "u16": np.array([65535], np.uint16),
        "u32": np.array([2 ** 32 - 1], np.uint32), "u64": np.array([2 ** 63], np.uint64),
        "b": np.array([True, False]), "c64": np.array([1 + 2j], np.complex64),
        "c128": np.array([[-1.5j]], np.complex128),
        "s": tf.constant(f"step {step}"),
        "strings": tf.constant([[b"", b"\xff\x00bytes"], ["caf\u00e9", "x" * 200]]),
        "empty": np.zeros((0, 3), np.float32),
    }


class Inner(tf.Module):
    def __init__(self, v):
        super().__init__()
        self.w = tf.Variable(v, name="w")


class Ref(tf.Module):
    def __init__(self, values):
        super().__init__()
        names = sorted(values)
        self.first = tf.Variable(values[names[0]], name=names[0])
        self.inner = Inner(values[names[1]])
        self.layers = [Inner(values[names[2]]), {"z": tf.Variable(values[names[3]]),
                                                  "a": [tf.Variable(values[names[4]])]}]
        self.pair = (tf.Variable(values[names[5]]), 4)
        self.by_name = {n: tf.Variable(values[n], name=n) for n in names[6:]}
        self.shared = self.inner
        self.sizes = [1, 2]


def keras_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    return model


def keras_data():
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
    y = np.stack([x.sum(1), x[:, 0] * x[:, 1]], 1).astype(np.float32)
    return x, y


def keras_weights():
    return [np.linspace(-0.5, 0.5, 12, dtype=np.float32).reshape(3, 4),
            np.array([0.1, -0.1, 0.0, 0.2], np.float32),
            np.linspace(0.3, -0.3, 8, dtype=np.float32).reshape(4, 2),
            np.array([0.05, -0.05], np.float32)]


def main():
    shutil.rmtree(HERE, ignore_errors=True)
    expected = {}
    # A module saved twice: `ckpt-2` holds the values of step 2.
    values = module_values(1)
    ref = Ref(values)
    ckpt = tf.train.Checkpoint(module=ref, extra=[tf.Variable(3.0)])
    ckpt.save(os.path.join(HERE, "module", "ckpt"))
    for var, new in zip(ref.variables, Ref(module_values(2)).variables):
        var.assign(new)
    ckpt.extra[0].assign(4.0)
    ckpt.save(os.path.join(HERE, "module", "ckpt"))
    reader = tf.train.load_checkpoint(os.path.join(HERE, "module", "ckpt-2"))
    dtypes = {}
    for key, shape in tf.train.list_variables(os.path.join(HERE, "module", "ckpt-2")):
        if key == "_CHECKPOINTABLE_OBJECT_GRAPH":
            continue
        value = reader.get_tensor(key)
        dtype = reader.get_variable_to_dtype_map()[key]
        dtypes[key] = [dtype.name, shape]
        if dtype == tf.bfloat16:
            value = np.asarray(value).view(np.uint16)
        elif dtype == tf.string:
            value = np.asarray(value, object)
            value = np.array([v.hex() for v in value.reshape(-1)]).reshape(value.shape)
        expected["module/" + key] = value
    with open(os.path.join(HERE, "module_dtypes.json"), "w") as f:
        json.dump(dtypes, f, indent=1, sort_keys=True)

    # A Keras model and its optimizer after three steps; then what one more step gives.
    tf.keras.utils.set_random_seed(0)
    model = keras_model()
    model.set_weights(keras_weights())
    x, y = keras_data()
    model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
    ckpt = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
    ckpt.save(os.path.join(HERE, "keras", "ckpt"))
    model.save_weights(os.path.join(HERE, "weights", "w"))
    expected["keras/predict"] = model.predict(x, verbose=0)
    for key, _ in tf.train.list_variables(os.path.join(HERE, "keras", "ckpt-1")):
        if key != "_CHECKPOINTABLE_OBJECT_GRAPH":
            expected["keras/" + key] = tf.train.load_variable(
                os.path.join(HERE, "keras", "ckpt-1"), key)
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    for i, w in enumerate(model.get_weights()):
        expected[f"keras/after_step/{i}"] = w

    # A manager keeping two of three checkpoints.
    ckpt = tf.train.Checkpoint(v=tf.Variable(0.0))
    manager = tf.train.CheckpointManager(ckpt, os.path.join(HERE, "manager"), max_to_keep=2)
    for i in range(3):
        ckpt.v.assign(float(i))
        manager.save()
    np.savez(os.path.join(HERE, "expected.npz"), **expected)


if __name__ == "__main__":
    main()
