"""Checkpoints written by TensorFlow 2.21 restore here, and TensorFlow restores ours.

data/tf/ was written by data/make_tf_checkpoints.py with real TF; data/ours/
by data/make_ours.py with eagerflow, then read back by TF with
data/tf_reads_ours.py, which recorded what TF found in data/ours/tf_read.npz.
"""
import json
import os
import shutil

import numpy as np
import pytest

import eagerflow as tf
from tests.checkpoint.reference import (DATA, Ref, as_saved, keras_data, keras_model,
                                        keras_weights, module_values)

TF_DIR = os.path.join(DATA, "tf")
OURS = os.path.join(DATA, "ours")


@pytest.fixture(scope="module")
def expected():
    with np.load(os.path.join(TF_DIR, "expected.npz")) as f:
        return dict(f)


def test_tf_module_checkpoint_restores_every_dtype(expected):
    ref = Ref(module_values(0))
    ckpt = tf.train.Checkpoint(module=ref, extra=[tf.Variable(0.0)])
    path = tf.train.latest_checkpoint(os.path.join(TF_DIR, "module"))
    assert os.path.basename(path) == "ckpt-2"
    status = ckpt.restore(path)
    status.assert_consumed()
    assert int(ckpt.save_counter.numpy()) == 2
    assert float(ckpt.extra[0].numpy()) == 4.0
    graph = tf.train.Checkpoint(module=ref, extra=ckpt.extra)
    found = 0
    for key, value in expected.items():
        if not key.startswith("module/") or "save_counter" in key or "extra" in key:
            continue
        path_names = key[len("module/module/"):].split("/.ATTRIBUTES")[0].split("/")
        obj = ref
        for name in path_names:
            obj = obj[int(name) if isinstance(obj, (list, tuple)) else name] \
                if isinstance(obj, (list, tuple, dict)) else getattr(obj, name)
        np.testing.assert_array_equal(as_saved(obj.numpy()), value, err_msg=key)
        found += 1
    assert found == len(module_values(0))
    del graph


def test_tf_reader_functions_see_tf_dtypes_and_shapes():
    prefix = os.path.join(TF_DIR, "module", "ckpt-2")
    with open(os.path.join(TF_DIR, "module_dtypes.json")) as f:
        dtypes = json.load(f)
    reader = tf.train.load_checkpoint(prefix)
    shapes = reader.get_variable_to_shape_map()
    by_dtype = reader.get_variable_to_dtype_map()
    for key, (dtype, shape) in dtypes.items():
        assert by_dtype[key].name == dtype
        assert shapes[key] == shape
        assert reader.has_tensor(key)
    assert dict(tf.train.list_variables(prefix)) == {**{k: s for k, (_, s) in dtypes.items()},
                                                      "_CHECKPOINTABLE_OBJECT_GRAPH": []}
    assert tf.train.load_variable(prefix, "module/by_name/s/.ATTRIBUTES/VARIABLE_VALUE") == \
        b"step 2"
    # a directory means its latest checkpoint
    assert tf.train.load_variable(os.path.join(TF_DIR, "module"),
                                  "save_counter/.ATTRIBUTES/VARIABLE_VALUE") == 2


def test_tf_keras_checkpoint_restores_into_unbuilt_model_and_optimizer(expected):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    status = tf.train.Checkpoint(model=model, optimizer=model.optimizer).restore(
        os.path.join(TF_DIR, "keras", "ckpt-1"))
    status.assert_existing_objects_matched()
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()  # the model has no weights yet
    x, y = keras_data()
    np.testing.assert_allclose(model.predict(x, verbose=0), expected["keras/predict"],
                               rtol=1e-5, atol=1e-6)
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    status.assert_consumed()  # the slots, created by the step, got the saved values
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_allclose(w, expected[f"keras/after_step/{i}"], rtol=1e-5, atol=1e-6)
    assert int(model.optimizer.iterations.numpy()) == 4


def test_tf_keras_save_weights_load_here(expected):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    path = tf.train.latest_checkpoint(os.path.join(TF_DIR, "weights"))
    assert os.path.basename(path) == "w"
    status = model.load_weights(path)
    x, y = keras_data()
    np.testing.assert_allclose(model.predict(x, verbose=0), expected["keras/predict"],
                               rtol=1e-5, atol=1e-6)
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_allclose(w, expected[f"keras/after_step/{i}"], rtol=1e-5, atol=1e-6)
    status.assert_consumed()


def test_tf_manager_directory_is_resumed(tmp_path):
    directory = str(tmp_path / "manager")
    shutil.copytree(os.path.join(TF_DIR, "manager"), directory)
    ckpt = tf.train.Checkpoint(v=tf.Variable(-1.0))
    manager = tf.train.CheckpointManager(ckpt, directory, max_to_keep=2)
    assert [os.path.basename(p) for p in manager.checkpoints] == ["ckpt-2", "ckpt-3"]
    assert manager.restore_or_initialize() == os.path.join(directory, "ckpt-3")
    assert float(ckpt.v.numpy()) == 2.0 and int(ckpt.save_counter.numpy()) == 3
    assert os.path.basename(manager.save()) == "ckpt-4"
    assert sorted(os.listdir(directory)) == [
        "checkpoint", "ckpt-3.data-00000-of-00001", "ckpt-3.index",
        "ckpt-4.data-00000-of-00001", "ckpt-4.index"]


# -- TF restores ours ------------------------------------------------------------------

def test_tf_read_every_value_we_wrote():
    with np.load(os.path.join(OURS, "tf_read.npz")) as f:
        tf_read = dict(f)
    assert tf_read["status/module_consumed"] and tf_read["status/keras_consumed"]
    for name in ("module/ckpt-1", "keras/ckpt-1"):
        reader = tf.train.load_checkpoint(os.path.join(OURS, name))
        for key in reader.get_variable_to_shape_map():
            if key != "_CHECKPOINTABLE_OBJECT_GRAPH":
                np.testing.assert_array_equal(as_saved(tf.train.load_variable(
                    os.path.join(OURS, name), key)), tf_read[f"{name}/{key}"], err_msg=key)


def test_we_still_write_what_tf_read(tmp_path):
    """The module checkpoint TF read is, byte for byte, what eagerflow writes today."""
    ref = Ref(module_values(1))
    tf.train.Checkpoint(module=ref, extra=[tf.Variable(3.0)]).save(str(tmp_path / "ckpt"))
    for suffix in (".index", ".data-00000-of-00001"):
        with open(os.path.join(OURS, "module", "ckpt-1" + suffix), "rb") as f:
            theirs = f.read()
        with open(str(tmp_path / "ckpt-1") + suffix, "rb") as f:
            assert f.read() == theirs, suffix
    # the Keras model's object graph, too (its values depend on the training kernels)
    tf.keras.backend.clear_session()  # the layers' names are saved (dense, dense_1)
    model = keras_model()
    model.set_weights(keras_weights())
    x, y = keras_data()
    model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
    tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(str(tmp_path / "k"))
    key = "_CHECKPOINTABLE_OBJECT_GRAPH"
    assert tf.train.load_variable(str(tmp_path / "k-1"), key) == tf.train.load_variable(
        os.path.join(OURS, "keras", "ckpt-1"), key)


# -- legacy (OptimizerV2) optimizers, both ways ----------------------------------------------

LEGACY = {"adam": lambda o: o.Adam(0.05), "sgd": lambda o: o.SGD(0.05, momentum=0.9),
          "rmsprop": lambda o: o.RMSprop(0.01, momentum=0.5, centered=True),
          "nadam": lambda o: o.Nadam(0.02)}


@pytest.fixture(scope="module")
def legacy_expected():
    with np.load(os.path.join(TF_DIR, "legacy", "expected.npz")) as f:
        return dict(f)


def _legacy_model(name, built):
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer=LEGACY[name](tf.keras.optimizers.legacy), loss="mse")
    if built:
        model.build((None, 3))
    return model


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_tf_legacy_optimizer_checkpoint_restores_slots_and_hyperparameters(
        name, legacy_expected):
    # restored before the model has weights or the optimizer slots: each is assigned when made
    model = _legacy_model(name, built=False)
    status = tf.train.Checkpoint(model=model, optimizer=model.optimizer).restore(
        os.path.join(TF_DIR, "legacy", name, "ckpt-1"))
    status.assert_existing_objects_matched()
    assert int(model.optimizer.iterations.numpy()) == 3
    x, y = keras_data()
    np.testing.assert_allclose(model.predict(x, verbose=0), legacy_expected[f"{name}/predict"],
                               rtol=1e-5, atol=1e-6)
    with pytest.raises(AssertionError, match="Unresolved object in checkpoint"):
        status.assert_consumed()  # the slots are not made yet
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    status.assert_consumed()
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_allclose(w, legacy_expected[f"{name}/after_step/{i}"], rtol=1e-5,
                                   atol=1e-6, err_msg=f"{name} weight {i}")
    assert int(model.optimizer.iterations.numpy()) == 4


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_legacy_optimizer_checkpoint_has_tfs_keys_and_values(name, legacy_expected, tmp_path):
    model = _legacy_model(name, built=True)
    model.set_weights(keras_weights())
    x, y = keras_data()
    model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
    path = tf.train.Checkpoint(model=model, optimizer=model.optimizer).save(str(tmp_path / "c"))
    ours = {k for k, _ in tf.train.list_variables(path)} - {"_CHECKPOINTABLE_OBJECT_GRAPH"}
    theirs = {k[len(name) + 1:] for k in legacy_expected
              if k.startswith(name + "/") and "/.ATTRIBUTES/" in k}
    assert ours == theirs
    reader = tf.train.load_checkpoint(path)
    for key in ours:
        np.testing.assert_allclose(reader.get_tensor(key), legacy_expected[f"{name}/{key}"],
                                   rtol=1e-5, atol=1e-6, err_msg=key)
        assert reader.get_tensor(key).dtype == legacy_expected[f"{name}/{key}"].dtype, key
    # and it restores here into a model that has its slots already
    again = _legacy_model(name, built=True)
    again.optimizer.build(again.trainable_variables)
    tf.train.Checkpoint(model=again, optimizer=again.optimizer).restore(path).assert_consumed()
    for a, b in zip(again.optimizer.variables(), model.optimizer.variables()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_restored_hyperparameters_replace_those_given():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(2)])
    opt = tf.keras.optimizers.legacy.Adam(0.5, beta_1=0.5)
    model.compile(optimizer=opt, loss="mse")
    tf.train.Checkpoint(model=model, optimizer=opt).restore(
        os.path.join(TF_DIR, "legacy", "adam", "ckpt-1")).expect_partial()
    assert opt.get_config()["beta_1"] == 0.9 and opt.get_config()["learning_rate"] == 0.05


@pytest.mark.parametrize("name", sorted(LEGACY))
def test_tf_restored_our_legacy_optimizer_checkpoints_and_trains_on_as_we_do(name):
    with np.load(os.path.join(OURS, "legacy", "tf_read.npz")) as f:
        tf_read = dict(f)
    assert tf_read[f"{name}/consumed"]
    path = os.path.join(OURS, "legacy", name, "ckpt-1")
    counter = "save_counter/.ATTRIBUTES/VARIABLE_VALUE"
    keys = {k for k, _ in tf.train.list_variables(path)} - {"_CHECKPOINTABLE_OBJECT_GRAPH",
                                                             counter}
    assert keys == {k[len(name) + 1:] for k in tf_read
                    if k.startswith(name + "/") and "/.ATTRIBUTES/" in k} - {counter}
    for key in keys:
        np.testing.assert_array_equal(tf.train.load_variable(path, key),
                                      tf_read[f"{name}/{key}"], err_msg=key)
    model = _legacy_model(name, built=False)
    status = tf.train.Checkpoint(model=model, optimizer=model.optimizer).restore(path)
    x, y = keras_data()
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    status.assert_consumed()
    for i, w in enumerate(model.get_weights()):
        np.testing.assert_allclose(w, tf_read[f"{name}/after_step/{i}"], rtol=1e-5, atol=1e-6)


class _Floats(tf.train.experimental.PythonState):
    def __init__(self, values=()):
        self.values = np.asarray(values, np.float64)

    def serialize(self):
        return self.values.tobytes()

    def deserialize(self, string_value):
        self.values = np.frombuffer(string_value, np.float64).copy()


def test_python_state_reads_tfs_and_round_trips(tmp_path):
    state, v = _Floats(), tf.Variable(0.0)
    tf.train.Checkpoint(state=state, v=v).restore(
        os.path.join(TF_DIR, "python_state", "ckpt")).assert_nontrivial_match()
    assert state.values.tolist() == [1.0, 2.0, 3.0] and float(v) == 3.5
    path = tf.train.Checkpoint(state=_Floats([4.0, 5.0])).save(str(tmp_path / "ckpt"))
    assert ("state/.ATTRIBUTES/py_state", []) in tf.train.list_variables(path)
    fresh = _Floats()
    tf.train.Checkpoint(state=fresh).restore(path)
    assert fresh.values.tolist() == [4.0, 5.0]
    with pytest.raises(TypeError):
        tf.train.experimental.PythonState()  # abstract
