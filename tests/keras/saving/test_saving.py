"""Weights and models saved to safetensors files and `.keras` archives.

The checkpoint keys were listed from tf_keras 2.21 (``model.save_weights`` in
TF format, then ``tf.train.list_variables``) for the same models.
"""
import json
import logging
import os
import subprocess
import sys
import zipfile

import ml_dtypes
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras import saving
from tests.internals import checkpoint_keys, safetensors_format

SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"


def _keys(model):
    return sorted(key[:-len(SUFFIX)] for key in checkpoint_keys(model))


def _data(n=16):
    x = np.linspace(-1, 1, 2 * n).reshape(n, 2).astype("float32")
    return x, (x[:, :1] * 2 - x[:, 1:] + 1).astype("float32")


def _model(optimizer="adam"):
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(2,)),
                              keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    model.compile(optimizer, "mse", metrics=["mae"])
    return model


# -- the safetensors format -------------------------------------------------------------------

def test_safetensors_round_trips_every_dtype(tmp_path):
    tensors = {"f32": np.arange(6, dtype="float32").reshape(2, 3),
               "bf16": np.array([1.5, -2], ml_dtypes.bfloat16), "bool": np.array([True, False]),
               "i8": np.array([1, -2, 3], "int8"), "scalar": np.array(3.25),
               "empty": np.zeros((0, 4), "int64"), "c64": np.array([1 + 2j], "complex64"),
               "u16": np.array([7], "uint16"), "f16": np.array([0.5], "float16"),
               "big_endian": np.array([1.0, 2.0], ">f4")}
    path = tmp_path / "t.safetensors"
    safetensors_format.save_file(tensors, path, {"format": "np"})
    loaded, metadata = safetensors_format.load_file(path)
    assert metadata == {"format": "np"}
    assert loaded.keys() == tensors.keys()
    for name, value in tensors.items():
        assert loaded[name].dtype == value.dtype.newbyteorder("=")
        np.testing.assert_array_equal(loaded[name], value)
    data = path.read_bytes()
    header = int.from_bytes(data[:8], "little")
    assert header % 8 == 0  # the data starts 8-byte aligned, and each tensor in it too
    entries = json.loads(data[8:8 + header])
    assert entries["f32"]["dtype"] == "F32" and entries["f32"]["shape"] == [2, 3]
    assert all(entries[name]["data_offsets"][0] % value.dtype.itemsize == 0
               for name, value in tensors.items())


def test_safetensors_reads_the_reference_implementations_files():
    # Written by the `safetensors` package 0.8 (safetensors.numpy.save_file).
    data = (b'\xc0\x00\x00\x00\x00\x00\x00\x00{"__metadata__":{"x":"y"},"b":{"dtype":"I64",'
            b'"shape":[1,2],"data_offsets":[0,16]},"a":{"dtype":"F32","shape":[3],'
            b'"data_offsets":[16,28]},"e":{"dtype":"F16","shape":[0],"data_offsets":[28,28]}}'
            b'\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
            b'\x00\x00\x80?\x00\x00\x00@')
    tensors, metadata = safetensors_format.deserialize(data)
    assert metadata == {"x": "y"}
    np.testing.assert_array_equal(tensors["b"], [[1, 2]])
    np.testing.assert_array_equal(tensors["a"], np.arange(3, dtype="float32"))
    assert tensors["e"].shape == (0,) and tensors["e"].dtype == np.float16


def _file(header, body=b""):
    text = json.dumps(header).encode()
    return len(text).to_bytes(8, "little") + text + body


@pytest.mark.parametrize("data, why", [
    (b"\x05\x00", "too short"),
    (b"\xff" * 8 + b"{}", "the header claims"),
    (_file({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}, b"\0" * 4),
     "the tensors cover 8 bytes of data but the file holds 4"),
    (_file({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}, b"\0" * 4),
     "needs 8 bytes, its offsets span 4"),
    (_file({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
            "b": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 8),
     "starts at byte 0, expected 4"),
    (_file({"a": {"dtype": "Q7", "shape": [1], "data_offsets": [0, 1]}}, b"\0"),
     "unknown dtype 'Q7'"),
    (_file({"a": {"dtype": "U8", "shape": [-1], "data_offsets": [0, 1]}}, b"\0"),
     "invalid shape"),
    (_file({"a": [1, 2]}), "must hold exactly dtype, shape and data_offsets"),
    (_file({"__metadata__": {"a": 1}}), "__metadata__ must map strings to strings"),
    (b"\x04\x00\x00\x00\x00\x00\x00\x00{{{{", "not valid JSON"),
])
def test_safetensors_reports_corrupt_files(data, why):
    with pytest.raises(tf.errors.DataLossError, match="truncated or corrupt") as error:
        safetensors_format.deserialize(data, "w.safetensors")
    assert why in str(error.value) and "w.safetensors" in str(error.value)


def test_safetensors_writes_atomically(tmp_path, monkeypatch):
    path = tmp_path / "w.safetensors"
    safetensors_format.save_file({"a": np.ones(2)}, path)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="dtype complex128 has no safetensors equivalent"):
        safetensors_format.save_file({"a": np.ones(2), "b": np.ones(1, "complex128")}, path)

    def crash(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        safetensors_format.save_file({"a": np.zeros(3)}, path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["w.safetensors"]  # no temporary file left behind


# -- checkpoint keys ---------------------------------------------------------------------------

def test_keys_of_a_trained_sequential_model_and_its_optimizer():
    model = _model()
    model.fit(*_data(), epochs=1, verbose=0)
    layers = ["layer_with_weights-0/bias", "layer_with_weights-0/kernel",
              "layer_with_weights-1/beta", "layer_with_weights-1/gamma",
              "layer_with_weights-1/moving_mean", "layer_with_weights-1/moving_variance",
              "layer_with_weights-2/bias", "layer_with_weights-2/kernel"]
    optimizer = ["optimizer/_iterations", "optimizer/_learning_rate"] + sorted(
        f"optimizer/_variables/{i}" for i in range(1, 13))
    assert _keys(model) == layers + optimizer


def test_keys_of_subclassed_models_follow_attributes_and_weight_names():
    class Block(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(name="w0", shape=(2,))  # tracked by its name
            self.vs = [tf.Variable(1.0), tf.Variable(2.0)]  # by the attribute and index
            self.named = tf.Variable(1.0)
            self.add_weight(name="loose", shape=())
            self.inner = keras.layers.Dense(2)
            self.d = {"b": keras.layers.Dense(1), "a": keras.layers.Dense(1)}

        def call(self, x):
            return x * self.w + self.inner(x) + self.d["a"](x) + self.d["b"](x)

    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.block = Block()
            self.shared = self.block  # saved once, under the first name
            self.blocks = [keras.layers.Dense(2), keras.layers.Dense(2)]
            self.tracker = keras.metrics.Mean()
            self.odd = {"a.b": keras.layers.Dense(1), "c/d": keras.layers.Dense(1)}  # escaped

        def call(self, x):
            x = self.block(x)
            for block in self.blocks:
                x = block(x)
            return x + self.odd["a.b"](x) + self.odd["c/d"](x)

    net = Net()
    net(np.ones((1, 2), "float32"))
    assert _keys(net) == [
        "block/d/a/bias", "block/d/a/kernel", "block/d/b/bias", "block/d/b/kernel",
        "block/inner/bias", "block/inner/kernel", "block/loose", "block/named", "block/vs/0",
        "block/vs/1", "block/w0", "blocks/0/bias", "blocks/0/kernel", "blocks/1/bias",
        "blocks/1/kernel", "odd/a..b/bias", "odd/a..b/kernel", "odd/c.Sd/bias",
        "odd/c.Sd/kernel", "tracker/count", "tracker/total"]


def test_keys_of_nested_models_and_wrapped_layers():
    inner = keras.Sequential([keras.layers.Dense(2, input_shape=(2,)), keras.layers.Dense(2)])
    x = keras.Input((2,))
    outer = keras.Model(x, keras.layers.Dense(1)(inner(x)))
    assert _keys(outer) == [
        "layer_with_weights-0/layer_with_weights-0/bias",
        "layer_with_weights-0/layer_with_weights-0/kernel",
        "layer_with_weights-0/layer_with_weights-1/bias",
        "layer_with_weights-0/layer_with_weights-1/kernel",
        "layer_with_weights-1/bias", "layer_with_weights-1/kernel"]
    rnn = keras.Sequential([
        keras.Input((3, 2)), keras.layers.LSTM(2, return_sequences=True),
        keras.layers.TimeDistributed(keras.layers.Dense(1)),
        keras.layers.Bidirectional(keras.layers.GRU(2))])
    assert _keys(rnn) == [
        "layer_with_weights-0/cell/bias", "layer_with_weights-0/cell/kernel",
        "layer_with_weights-0/cell/recurrent_kernel", "layer_with_weights-1/layer/bias",
        "layer_with_weights-1/layer/kernel",
        *(f"layer_with_weights-2/{direction}_layer/cell/{name}"
          for direction in ("backward", "forward")
          for name in ("bias", "kernel", "recurrent_kernel"))]


def test_an_optimizer_with_a_schedule_saves_its_current_rate():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile(keras.optimizers.Adam(keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9)),
                  "mse")
    assert _keys(model)[-2:] == ["optimizer/_current_learning_rate", "optimizer/_iterations"]


# -- save_weights / load_weights ------------------------------------------------------------

@pytest.fixture
def one_thread():
    """Native reductions (batch normalization's) sum in an order that depends on the thread
    count, which follows the machine's load; the two trainings compared must share one."""
    tf.config.threading.set_intra_op_parallelism_threads(1)
    yield
    tf.config.threading.set_intra_op_parallelism_threads(0)


def test_weights_and_optimizer_state_round_trip(tmp_path, one_thread):
    x, y = _data()
    model = _model()
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    path = str(tmp_path / "ckpt")
    model.save_weights(path)
    model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)

    resumed = _model()
    status = resumed.load_weights(path)
    assert int(resumed.optimizer.iterations) == 8
    # (as TF: the slots wait for the first step, which makes them)
    with pytest.raises(AssertionError, match=r"\(root\)\.optimizer\._variables\.1"):
        status.assert_consumed()
    resumed.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    assert status.assert_consumed() is status
    for a, b in zip(model.get_weights(), resumed.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_nadam_state_loaded_before_the_first_step_advances_as_tfs(tmp_path):
    # As tf_keras: the optimizer's variables are made (and restored) in the first traced
    # step, which is traced again, so its momentum product advances once in that step (it
    # advanced twice: 0.02677 where TF has 0.05334, and the weights drifted from TF's).
    x = np.arange(24, dtype="float32").reshape(8, 3) / 10
    y = np.arange(8, dtype="float32").reshape(8, 1) / 10

    def make():
        model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,),
                                                     kernel_initializer="ones")])
        model.compile(keras.optimizers.Nadam(0.01), "mse")
        return model
    model = make()
    model.fit(x, y, epochs=1, verbose=0, batch_size=4, shuffle=False)
    path = str(tmp_path / "ckpt")
    model.save_weights(path)
    resumed = make()
    resumed.load_weights(path)
    products = []
    for _ in range(3):
        resumed.train_on_batch(x[:4], y[:4])
        products.append(float(resumed.optimizer._u_product.numpy()))
    np.testing.assert_allclose(products, [0.053342607, 0.014301727, 0.004064218], rtol=1e-6)
    np.testing.assert_allclose(resumed.get_weights()[0].ravel(),
                               [0.9722571, 0.9718943, 0.9715752], rtol=1e-6)


def test_loading_checks_everything_before_assigning(tmp_path):
    path = str(tmp_path / "ckpt")
    keras.Sequential([keras.layers.Dense(3, input_shape=(2,)),
                      keras.layers.Dense(3)]).save_weights(path)
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(2,)),
                              keras.layers.Dense(4, name="wide")])
    before = model.get_weights()
    # (TF restores a checkpoint's values in the order of their keys: the bias first)
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(3,\) when "
                                         r"attempting to restore variable with shape \(4,\) "
                                         r"and name wide/bias:0"):
        model.load_weights(path)
    for a, b in zip(before, model.get_weights()):  # not even the first layer was assigned
        np.testing.assert_array_equal(a, b)
    bigger = keras.Sequential([keras.layers.Dense(3, input_shape=(2,)), keras.layers.Dense(3),
                               keras.layers.Dense(1)])
    with pytest.raises(AssertionError, match="Found 2 Python objects that were not bound"):
        bigger.load_weights(path).assert_consumed()


def test_loading_into_a_model_not_built_yet_restores_as_the_weights_get_created(tmp_path):
    path = str(tmp_path / "sub" / "ckpt")  # missing directories are created
    saved = keras.Sequential([keras.layers.Dense(3, input_shape=(2,)), keras.layers.Dense(3)])
    saved.save_weights(path)
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(3)])
    status = model.load_weights(path)
    assert type(status).__name__ == "CheckpointLoadStatus"
    with pytest.raises(AssertionError):
        status.assert_consumed()
    x = np.ones((1, 2), "float32")
    # The first call already computes with the saved values.
    np.testing.assert_array_equal(model(x).numpy(), saved(x).numpy())
    assert status.assert_consumed() is status


@pytest.mark.parametrize("name, damaged, why", [
    ("ckpt.safetensors", "ckpt.safetensors", "truncated or corrupt"),
    ("ckpt", "ckpt.data-00000-of-00001", "truncated")])
def test_a_truncated_file_leaves_the_model_untouched(tmp_path, name, damaged, why):
    model = _model()
    model.save_weights(tmp_path / name)
    damaged = tmp_path / damaged
    damaged.write_bytes(damaged.read_bytes()[:-5])
    before = model.get_weights()
    with pytest.raises(tf.errors.DataLossError, match=why):
        model.load_weights(tmp_path / name)
    for a, b in zip(before, model.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_weights_are_a_tf_checkpoint_unless_named_safetensors(tmp_path):
    model = _model()
    model.save_weights(str(tmp_path / "w"))
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "w.data-00000-of-00001", "w.index"]
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "w")
    assert sorted(k for k, _ in tf.train.list_variables(str(tmp_path / "w"))) == sorted(
        ["_CHECKPOINTABLE_OBJECT_GRAPH", *checkpoint_keys(model)])
    # the object graph's root is the model: tf.train.Checkpoint(root=model) reads it too
    other = _model()
    tf.train.Checkpoint(root=other).read(str(tmp_path / "w")).assert_existing_objects_matched()
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(NotImplementedError, match="Weights may only be loaded based on "
                                                  "topology"):
        other.load_weights(str(tmp_path / "w"), by_name=True)
    model.save_weights(str(tmp_path / "w.safetensors"))
    tensors, _ = safetensors_format.load_file(str(tmp_path / "w.safetensors"))
    assert sorted(tensors) == sorted(checkpoint_keys(model))


def test_optimizer_state_is_restored_only_when_it_fits(tmp_path, caplog):
    x, y = _data()
    trained = _model()
    trained.fit(x, y, epochs=1, verbose=0)
    path = str(tmp_path / "ckpt")
    trained.save_weights(path)

    uncompiled = keras.Sequential([keras.layers.Dense(3, input_shape=(2,)),
                                   keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    status = uncompiled.load_weights(path)
    assert "optimizer/_iterations" + SUFFIX in status.unused
    # As TF: the first node holding a value not restored, by its path, printed as the proto
    with pytest.raises(AssertionError) as raised:
        status.assert_consumed()
    assert str(raised.value).startswith(
        'Unresolved object in checkpoint (root).optimizer._iterations: attributes {\n'
        '  name: "VARIABLE_VALUE"\n  full_name: "iteration"\n'
        '  checkpoint_key: "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE"\n}\n')
    assert status.expect_partial() is status

    # As TF: the saved count of steps is restored into another optimizer's; Adam's slots
    # have no place in SGD's (they stay in the checkpoint, with no warning)
    with caplog.at_level(logging.WARNING, "eagerflow"):
        plain = _model(optimizer="sgd")
        plain.load_weights(path).expect_partial()
        assert int(plain.optimizer.iterations) == 1
        plain.fit(x, y, epochs=1, verbose=0)
    assert "Skipping variable loading" not in caplog.text
    assert int(plain.optimizer.iterations) == 2


def test_load_by_name(tmp_path, caplog):
    path = str(tmp_path / "ckpt.safetensors")
    source = keras.Sequential([keras.layers.Dense(3, input_shape=(2,), name="a"),
                               keras.layers.Dense(1, name="b")])
    source.save_weights(path)
    target = keras.Sequential([keras.layers.Dense(3, input_shape=(2,), name="a"),
                               keras.layers.Dense(5, name="b"), keras.layers.Dense(1, name="c")])
    with pytest.raises(ValueError, match="When calling model.load_weights, skip_mismatch can "
                                         "only be set to True when by_name is True."):
        target.load_weights(path, skip_mismatch=True)
    with pytest.raises(ValueError, match=r"Shape mismatch in layer #1 \(named b\) for weight "
                                         r"b/kernel:0. Weight expects shape \(3, 5\). Received "
                                         r"saved weight with shape \(3, 1\)"):
        target.load_weights(path, by_name=True)
    with caplog.at_level(logging.WARNING, "eagerflow"):
        target.load_weights(path, by_name=True, skip_mismatch=True)
    assert "Skipping loading weights for layer #1 (named b) due to mismatch in shape" in \
        caplog.text
    np.testing.assert_array_equal(target.get_layer("a").kernel.numpy(),
                                  source.get_layer("a").kernel.numpy())


def test_weight_paths_errors(tmp_path):
    model = _model()
    with pytest.raises(ValueError, match='Unknown format. Received: `save_format`=zzz'):
        model.save_weights(str(tmp_path / "w"), save_format="zzz")
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for"):
        model.load_weights(str(tmp_path / "nothing"))


def test_overwrite_false_asks_first(tmp_path, monkeypatch, capsys):
    path = tmp_path / "w.safetensors"
    model = _model()
    model.save_weights(path)
    before = path.read_bytes()
    answers = iter(["maybe", "n"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    keras.Sequential([keras.layers.Dense(1, input_shape=(2,))]).save_weights(path,
                                                                             overwrite=False)
    assert path.read_bytes() == before
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    keras.Sequential([keras.layers.Dense(1, input_shape=(2,))]).save_weights(path,
                                                                             overwrite=False)
    assert path.read_bytes() != before
    assert capsys.readouterr().out == "[TIP] Next time specify overwrite=True!\n"


# -- save_model / load_model -----------------------------------------------------------------

@pytest.mark.parametrize("h5py_installed", [True, False])
def test_a_compiled_model_round_trips_through_a_keras_archive(tmp_path, monkeypatch,
                                                              h5py_installed):
    # With h5py the weights are in Keras's own layout; without it, in a safetensors file
    # only eagerflow reads.
    if h5py_installed:
        pytest.importorskip("h5py")
    else:
        monkeypatch.setitem(sys.modules, "h5py", None)
    weights_file = "model.weights.h5" if h5py_installed else "model.weights.safetensors"
    x, y = _data()
    model = _model(keras.optimizers.Adam(0.01))
    model.fit(x, y, epochs=1, verbose=0)
    path = tmp_path / "model.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == ["config.json", "metadata.json", weights_file]
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
        config = json.loads(archive.read("config.json"))
    assert config["class_name"] == "Sequential"
    assert config["compile_config"]["loss"] == "mse"
    assert config["compile_config"]["metrics"] == ["mae"]

    loaded = saving.load_model(path)
    assert type(loaded.optimizer).__name__ == "Adam"
    assert float(loaded.optimizer.learning_rate) == pytest.approx(0.01)
    assert int(loaded.optimizer.iterations) == int(model.optimizer.iterations)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert loaded.evaluate(x, y, verbose=0) == pytest.approx(model.evaluate(x, y, verbose=0))
    assert not saving.load_model(path, compile=False)._is_compiled
    loaded.load_weights(path)  # the archive's weights alone


def test_compile_arguments_round_trip_with_custom_functions(tmp_path):
    def my_loss(y, p):
        return tf.reduce_mean(tf.abs(y - p))

    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile(keras.optimizers.RMSprop(0.003), my_loss, loss_weights=[0.5],
                  metrics=[keras.metrics.RootMeanSquaredError(), keras.metrics.mean_absolute_error])
    model.save(tmp_path / "m.keras")
    with pytest.raises(TypeError, match="Could not locate function .my_loss."):
        saving.load_model(tmp_path / "m.keras")
    loaded = saving.load_model(tmp_path / "m.keras", custom_objects={"my_loss": my_loss})
    assert loaded.loss is my_loss
    assert type(loaded.optimizer).__name__ == "RMSprop"
    x, y = _data()
    history = loaded.fit(x, y, verbose=0)
    assert sorted(history.history) == ["loss", "mean_absolute_error", "root_mean_squared_error"]


def test_functional_and_subclassed_models_round_trip(tmp_path):
    x = keras.Input((2,))
    functional = keras.Model(x, keras.layers.Dense(1, name="out")(keras.layers.Dense(4)(x)))
    saving.save_model(functional, tmp_path / "f.keras")
    data = np.ones((3, 2), "float32")
    np.testing.assert_allclose(saving.load_model(tmp_path / "f.keras").predict(data, verbose=0),
                               functional.predict(data, verbose=0))

    class Twice(keras.Model):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = keras.layers.Dense(units)

        def call(self, x):
            return 2 * self.dense(x)

        def get_config(self):
            return {"units": self.units, "name": self.name}

    model = Twice(3)
    model(data)
    model.save(tmp_path / "sub")  # no extension: a SavedModel directory, as tf_keras writes
    assert (tmp_path / "sub" / "saved_model.pb").is_file()
    loaded = saving.load_model(tmp_path / "sub", custom_objects={"Twice": Twice})
    assert isinstance(loaded, Twice)
    np.testing.assert_allclose(loaded(data).numpy(), model(data).numpy())


def test_load_model_errors(tmp_path):
    with pytest.raises(OSError, match="No file or directory found at"):
        saving.load_model(tmp_path / "missing.keras")
    with pytest.raises(ValueError, match="Unknown `save_format` argument"):
        _model().save(tmp_path / "m", save_format="zzz")
    path = tmp_path / "m.keras"
    _model().save(path)
    whole = path.read_bytes()
    path.write_bytes(whole[:200])  # no zip archive: TF reads it as HDF5 then
    with pytest.raises(OSError, match=r"^Unable to synchronously open file \(file signature "
                                      r"not found\)$"):
        saving.load_model(path)
    with zipfile.ZipFile(path, "w") as archive:  # an archive without the model's config
        archive.writestr("other.txt", "x")
    with pytest.raises(tf.errors.DataLossError, match="not a complete `.keras` archive"):
        saving.load_model(path)
    with pytest.raises(OSError, match="SavedModel file does not exist at"):
        saving.load_model(tmp_path)


def test_a_saved_model_loads_with_a_new_optimizer_or_a_restored_one(tmp_path):
    # As tf_keras: compiling on load gives a new optimizer (its state is not restored);
    # compile=False gives a RestoredOptimizer holding the saved variables, which cannot train.
    x, y = _data()
    model = _model(keras.optimizers.Adam(0.005))
    model.fit(x, y, epochs=2, verbose=0)
    model.save(tmp_path / "m")
    loaded = saving.load_model(tmp_path / "m")
    assert type(loaded.optimizer).__name__ == "Adam"
    assert int(loaded.optimizer.iterations) == 0
    assert [v.name for v in loaded.optimizer.variables] == ["iteration:0"]
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))

    restored = saving.load_model(tmp_path / "m", compile=False).optimizer
    assert type(restored).__name__ == "RestoredOptimizer" and restored.name == "RestoredOptimizer"
    assert isinstance(restored, keras.optimizers.Optimizer)
    assert int(restored.iterations) == int(model.optimizer.iterations) == 2
    assert restored.learning_rate.name == "learning_rate:0"
    assert float(restored.learning_rate) == pytest.approx(0.005)
    assert [v.name for v in restored.variables()] == [v.name for v in model.optimizer.variables]
    for a, b in zip(restored.variables(), model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    with pytest.raises(NotImplementedError, match="Restoring functional Optimizers from "
                                                  "SavedModels is not currently supported"):
        restored.get_config()
    unsaved = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    unsaved.save(tmp_path / "u")
    assert saving.load_model(tmp_path / "u", compile=False).optimizer is None


def test_a_saved_model_loaded_uncompiled_logs_tf_keras_warning(tmp_path, caplog):
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.save(tmp_path / "m")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        keras.models.load_model(tmp_path / "m", compile=False)
        assert "No training configuration" not in caplog.text
        keras.models.load_model(tmp_path / "m")
    assert "No training configuration found in save file, so the model was *not* compiled. " \
           "Compile it manually." in caplog.text
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    layer = getattr(loaded, "layer_with_weights-0")
    assert type(loaded).__name__ == type(layer).__name__ == "_UserObject"  # (as TF names them)
    np.testing.assert_allclose(layer(np.ones((1, 2), "float32")).numpy(),
                               model(np.ones((1, 2))).numpy(), rtol=1e-6)


def test_optimizer_state_loads_as_tf_keras_loads_it(tmp_path, caplog):
    # load_model of a .keras archive builds the compiled optimizer, then loads its state
    # (warning when the saved state does not fit); load_weights leaves an optimizer that was
    # not built as it is, with the same warning (from tf_keras's absl logger)
    def make():
        model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
        model.compile("adam", "mse")
        return model

    x, y = np.ones((4, 3), "float32"), np.ones((4, 2), "float32")
    trained = make()
    trained.fit(x, y, verbose=0)
    trained.save_weights(tmp_path / "t.weights.h5")
    trained.save(tmp_path / "t.keras")
    untrained = make()
    untrained.save(tmp_path / "u.keras")
    with caplog.at_level(logging.WARNING, logger="absl"):
        loaded = keras.models.load_model(tmp_path / "t.keras")
        assert caplog.text == ""
        assert (len(loaded.optimizer.variables), int(loaded.optimizer.iterations)) == (5, 1)
        loaded = keras.models.load_model(tmp_path / "u.keras")
        assert (len(loaded.optimizer.variables), int(loaded.optimizer.iterations)) == (5, 0)
        assert caplog.records[-1].name == "absl" and caplog.records[-1].getMessage() == (
            "Skipping variable loading for optimizer 'Adam', because it has 5 variables "
            "whereas the saved optimizer has 1 variables. ")
        fresh = make()
        fresh.load_weights(tmp_path / "t.weights.h5")
        assert (len(fresh.optimizer.variables), int(fresh.optimizer.iterations)) == (1, 0)
        assert caplog.records[-1].getMessage() == (
            "Skipping variable loading for optimizer 'Adam', because it has 1 variables "
            "whereas the saved optimizer has 5 variables. ")
    np.testing.assert_array_equal(fresh.get_weights()[0], trained.get_weights()[0])


def test_tf_keras_absl_warnings_print_as_absl_prints_them():
    code = "import eagerflow as tf\ntf.keras.optimizers.Adam(lr=0.1)\n"
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stderr
    assert err == ("WARNING:absl:`lr` is deprecated in TF-Keras optimizer, please use "
                   "`learning_rate` or use the legacy optimizer, e.g.,"
                   "tf.keras.optimizers.legacy.Adam.\n")


def test_a_model_with_an_attention_layer_saves_as_a_saved_model(tmp_path):
    # (its call takes a value beside the inputs: saved without its own call functions)
    tf.keras.utils.set_random_seed(3)
    inputs = keras.Input((4, 3))
    attended = keras.layers.MultiHeadAttention(2, 2)(inputs, inputs)
    model = keras.Model(inputs, keras.layers.Dense(1)(keras.layers.Flatten()(attended)))
    model.save(tmp_path / "m")
    x = np.random.default_rng(0).random((2, 4, 3)).astype("float32")
    np.testing.assert_allclose(keras.models.load_model(tmp_path / "m").predict(x, verbose=0),
                               model.predict(x, verbose=0), rtol=1e-5)
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    np.testing.assert_allclose(loaded(x).numpy(), model.predict(x, verbose=0), rtol=1e-5)
    assert hasattr(getattr(loaded, "layer_with_weights-1"), "keras_api")  # (the Dense)


def test_tf_checkpoint_weights_restore_what_matches_and_the_status_tells_the_rest(tmp_path):
    path = str(tmp_path / "w")
    small = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,),
                                                       kernel_initializer="ones")])
    small.save_weights(path)
    bigger = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,)),
                                  tf.keras.layers.Dense(1)])
    status = bigger.load_weights(path)  # no error: TF restores a checkpoint partially
    np.testing.assert_array_equal(bigger.layers[0].kernel.numpy(), np.ones([3, 2]))
    for check in (status.assert_consumed, status.assert_existing_objects_matched):
        with pytest.raises(AssertionError, match=r"^Found 2 Python objects that were not bound "
                           r"to checkpointed values, .* Showing 2 of 2 unmatched objects"):
            check()
    status.expect_partial()
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(2,\) when "
                       r"attempting to restore variable with shape \(1,\)"):
        tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))]).load_weights(path)
