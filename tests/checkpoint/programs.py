"""The objects the reference checkpoints are saved from, written once for both frameworks.

`build(tf)` makes them with the given `tf` module: real TensorFlow in
data/make_tf_checkpoints.py and data/tf_reads_ours.py, eagerflow in
reference.py (and so in data/make_ours.py and the tests), so that a checkpoint
of one side restores into the other's objects, attribute for attribute.
"""
import types

import ml_dtypes
import numpy as np


def build(tf):
    """`module_values`, `Inner`, `Ref`, `keras_model`, `keras_data`, `keras_weights` for `tf`."""

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
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh",
                                                           input_shape=(3,)),
                                     tf.keras.layers.Dense(2)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
        return model

    return types.SimpleNamespace(module_values=module_values, Inner=Inner, Ref=Ref,
                                 keras_model=keras_model, keras_data=keras_data,
                                 keras_weights=keras_weights)


def keras_data():
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3)
    y = np.stack([x.sum(1), x[:, 0] * x[:, 1]], 1).astype(np.float32)
    return x, y


def keras_weights():
    return [np.linspace(-0.5, 0.5, 12, dtype=np.float32).reshape(3, 4),
            np.array([0.1, -0.1, 0.0, 0.2], np.float32),
            np.linspace(0.3, -0.3, 8, dtype=np.float32).reshape(4, 2),
            np.array([0.05, -0.05], np.float32)]


def as_saved(value):
    """A checkpoint value as expected.npz stores it (bfloat16 bits, strings in hex)."""
    value = np.asarray(value)
    if value.dtype == ml_dtypes.bfloat16:
        return value.view(np.uint16)
    if value.dtype == object or value.dtype.kind == "S":
        return np.array([bytes(v).hex() for v in value.reshape(-1)]).reshape(value.shape)
    return value


# -- TF 1 partitioned variables -------------------------------------------------------------

PARTITIONED_VALUES = {
    "w": np.arange(15, dtype=np.float32).reshape(5, 3),
    "s/emb": np.arange(7, dtype=np.int64) * 10,
    "c": np.arange(12, dtype=np.float32).reshape(2, 6) / 4,
    "big": np.linspace(-1, 1, 300),  # (offsets above 63 take more than a byte in a key)
    "u": np.array([1.5, -2.5], np.float32),
}

# shards and axis of each variable, by restore layout ("saved": as the checkpoints are written)
PARTITIONED_LAYOUTS = {
    "saved": {"w": (2, 0), "s/emb": (3, 0), "c": (3, 1), "big": (2, 0), "u": None},
    "other": {"w": (3, 0), "s/emb": (2, 0), "c": (2, 1), "big": (4, 0), "u": (2, 0)},
    "whole": {name: None for name in PARTITIONED_VALUES},
}


def partitioned_variables(tf, layout, zero=False):
    """The variables of `PARTITIONED_VALUES` in TF 1's default graph, each split as
    `PARTITIONED_LAYOUTS[layout]` says (``get_variable`` with a fixed-size partitioner),
    starting from the values or (`zero`) from zeros; ``{name: variable}``."""
    tf1 = tf.compat.v1
    out = {}
    for name, value in PARTITIONED_VALUES.items():
        split = PARTITIONED_LAYOUTS[layout][name]
        start = np.zeros_like(value) if zero else value
        scope, _, short = name.rpartition("/")
        with tf1.variable_scope(scope or tf1.get_variable_scope()):
            out[name] = tf1.get_variable(
                short, initializer=tf.constant(start),
                partitioner=split and tf1.fixed_size_partitioner(split[0], axis=split[1]))
    return out


def partitioned_restored(tf, prefix):
    """``{layout: {name: value}}`` of TF's `Saver` restoring `prefix` into each layout, and
    ``{name: value}`` through the checkpoint's meta graph."""
    tf1 = tf.compat.v1
    out = {}
    for layout in PARTITIONED_LAYOUTS:
        with tf.Graph().as_default():
            variables = partitioned_variables(tf, layout, zero=True)
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                tf1.train.Saver().restore(sess, prefix)
                out[layout] = {name: as_json(sess.run(tf.convert_to_tensor(v)))
                               for name, v in variables.items()}
    with tf.Graph().as_default():
        saver = tf1.train.import_meta_graph(prefix + ".meta")
        with tf1.Session() as sess:
            saver.restore(sess, prefix)
            values = {v.name: sess.run(v) for v in tf1.global_variables()}
    out["meta_graph"] = {name: as_json(value) for name, value in sorted(values.items())}
    return out


def partitioned_listed(tf, prefix):
    """What TF's reader lists of `prefix`, and each tensor's value (or the error raised)."""
    reader = tf.train.load_checkpoint(prefix)
    values = {}
    for key, _ in tf.train.list_variables(prefix):
        try:
            values[key] = as_json(reader.get_tensor(key))
        except Exception as e:  # noqa: BLE001 (the error TF raises is what is recorded)
            values[key] = f"{type(e).__name__}: {e}"
    return {"list_variables": tf.train.list_variables(prefix),
            "dtypes": {k: v.name for k, v in reader.get_variable_to_dtype_map().items()},
            "debug_string": reader.debug_string().decode("latin-1"), "values": values}


def as_json(value):
    """A checkpoint value as the partitioned data's JSON holds it."""
    return np.asarray(value).tolist()
