"""Writes the reference checkpoints of tests/checkpoint with real TensorFlow (not run by tests).

    TF_USE_LEGACY_KERAS=1 python tests/checkpoint/data/make_tf_checkpoints.py

Writes, under tf/: a `tf.Module` of nested variables, lists, dicts and tuples
in every dtype a checkpoint stores (``module/ckpt-1``, ``-2`` and the
``checkpoint`` file of `Checkpoint.save`), a Keras model with its Adam
optimizer after three training steps (``keras/ckpt-1``, and its
``save_weights`` in ``weights/w``), and a
`CheckpointManager` directory (``manager/``); expected.npz holds the values
and results the tests compare with (bfloat16 as its uint16 bits).

``make_tf_checkpoints.py legacy`` writes tf/legacy/ alone: the Keras model with each
of some legacy (OptimizerV2) optimizers after three steps, and legacy/expected.npz.
"""
import json
import os
import shutil
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

from tests.checkpoint.programs import as_saved, build, keras_data, keras_weights  # noqa: E402,F401

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf")


_PROGRAMS = build(tf)
module_values = _PROGRAMS.module_values
Ref = _PROGRAMS.Ref
keras_model = _PROGRAMS.keras_model


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
    legacy()


LEGACY = {"adam": lambda o: o.Adam(0.05), "sgd": lambda o: o.SGD(0.05, momentum=0.9),
          "rmsprop": lambda o: o.RMSprop(0.01, momentum=0.5, centered=True),
          "nadam": lambda o: o.Nadam(0.02)}


def legacy():
    """Each legacy optimizer's checkpoint (TF's OptimizerV2 layout: ``iter``, hyperparameter
    variables, slots under ``.OPTIMIZER_SLOT``) after three steps, then one more step."""
    out = os.path.join(HERE, "legacy")
    shutil.rmtree(out, ignore_errors=True)
    expected = {}
    x, y = keras_data()
    for name, make in LEGACY.items():
        model = keras_model()
        model.compile(optimizer=make(tf.keras.optimizers.legacy), loss="mse")
        model.set_weights(keras_weights())
        model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
        path = tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(
            os.path.join(out, name, "ckpt"))
        expected[f"{name}/predict"] = model.predict(x, verbose=0)
        for key, _ in tf.train.list_variables(path):
            if key != "_CHECKPOINTABLE_OBJECT_GRAPH":
                expected[f"{name}/{key}"] = tf.train.load_variable(path, key)
        model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
        for i, w in enumerate(model.get_weights()):
            expected[f"{name}/after_step/{i}"] = w
    np.savez(os.path.join(out, "expected.npz"), **expected)


def iterator():
    """``make_tf_checkpoints.py iterator`` writes tf/iterator/ alone: a dataset iterator
    (range(20), batched by 2, five batches taken) beside a variable: TF saves the iterator's
    position as its variant ``ITERATOR_STATE``, which eagerflow does not read."""
    out = os.path.join(HERE, "iterator")
    shutil.rmtree(out, ignore_errors=True)
    it = iter(tf.data.Dataset.range(20).batch(2))
    for _ in range(5):
        next(it)
    tf.train.Checkpoint(it=it, v=tf.Variable(3.5)).write(os.path.join(out, "ckpt"))


def python_state():
    """``make_tf_checkpoints.py python_state`` writes tf/python_state/: a PythonState's
    string (three float64s as bytes) beside a variable."""
    out = os.path.join(HERE, "python_state")
    shutil.rmtree(out, ignore_errors=True)

    class Floats(tf.train.experimental.PythonState):
        def serialize(self):
            return np.array([1.0, 2.0, 3.0]).tobytes()

        def deserialize(self, string_value):
            raise NotImplementedError

    tf.train.Checkpoint(state=Floats(), v=tf.Variable(3.5)).write(os.path.join(out, "ckpt"))


if __name__ == "__main__":
    if sys.argv[1:] == ["iterator"]:
        iterator()
    elif sys.argv[1:] == ["python_state"]:
        python_state()
    elif sys.argv[1:] == ["legacy"]:
        legacy()
    else:
        main()
