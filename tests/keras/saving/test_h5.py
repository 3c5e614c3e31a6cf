"""`.h5` files in tf_keras's legacy layout and `.weights.h5` files in Keras's layout."""
import json
import logging
import subprocess
import sys
import warnings
import zipfile

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

h5py = pytest.importorskip("h5py")


def _data(n=16):
    x = np.linspace(-1, 1, 2 * n).reshape(n, 2).astype("float32")
    return x, (x[:, :1] * 2 - x[:, 1:] + 1).astype("float32")


def _model(optimizer="adam", units=3):
    model = keras.Sequential([keras.layers.Dense(units, input_shape=(2,), name="a"),
                              keras.layers.BatchNormalization(name="bn"),
                              keras.layers.Dense(1, name="b")])
    model.compile(optimizer, "mse", metrics=["mae"])
    return model


def _functional(units=3):
    inputs = keras.Input((2,))
    hidden = keras.layers.Dense(units, activation="relu", name="a")(inputs)
    return keras.Model(inputs, keras.layers.Dense(1, name="b")(hidden))


class Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.scale = self.add_weight("scale", shape=(input_shape[-1],), initializer="ones")

    def call(self, inputs):
        return inputs * self.scale


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(3)
        self.blocks = [keras.layers.Dense(2), keras.layers.Dense(1)]

    def call(self, inputs):
        return self.blocks[1](self.blocks[0](self.hidden(inputs)))


def f_shape(path, name):
    with h5py.File(path, "r") as f:
        return f[name].shape


def _values(model):
    return [w.numpy().copy() for w in model.weights]


def test_a_compiled_model_round_trips_through_h5(tmp_path):
    x, y = _data()
    model = _model(keras.optimizers.Adam(0.01))
    model.fit(x, y, epochs=2, verbose=0)
    path = tmp_path / "new_directory" / "model.h5"
    with pytest.warns(UserWarning, match="You are saving your model as an HDF5 file"):
        model.save(path)
    with h5py.File(path, "r") as f:
        assert {"model_config", "keras_version", "backend", "training_config"} <= set(f.attrs)
        assert list(f["model_weights"].attrs["layer_names"]) == ["a", "bn", "b"]
        assert list(f["model_weights/a"].attrs["weight_names"]) == [
            "a/kernel:0", "a/bias:0"]
        assert f["model_weights/bn/bn/moving_variance:0"].shape == (3,)
        assert f["optimizer_weights/iteration:0"][()] == int(model.optimizer.iterations)
    loaded = keras.models.load_model(path)
    assert type(loaded.optimizer).__name__ == "Adam"
    assert float(loaded.optimizer.learning_rate) == pytest.approx(0.01)
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    assert loaded.evaluate(x, y, verbose=0) == pytest.approx(model.evaluate(x, y, verbose=0))
    assert not keras.models.load_model(path, compile=False)._is_compiled


def test_h5_by_save_format_and_without_optimizer(tmp_path):
    model = _model()
    model.fit(*_data(), verbose=0)
    path = tmp_path / "model"
    model.save(path, save_format="h5", include_optimizer=False)
    with h5py.File(path, "r") as f:  # no suffix: HDF5 all the same
        assert "optimizer_weights" not in f and "training_config" not in f.attrs
    loaded = keras.models.load_model(path)
    assert not loaded._is_compiled
    np.testing.assert_allclose(loaded.predict(_data()[0], verbose=0),
                               model.predict(_data()[0], verbose=0))
    model.save_weights(tmp_path / "w", save_format="h5")
    target = _model()
    target.load_weights(tmp_path / "w")  # found to be HDF5 by its first bytes
    np.testing.assert_array_equal(_values(target)[0], _values(model)[0])


def test_custom_objects_in_h5(tmp_path):
    def my_loss(y, p):
        return tf.reduce_mean(tf.abs(y - p))

    model = keras.Sequential([keras.layers.Dense(2, input_shape=(2,)), Scale()])
    model.compile("sgd", my_loss)
    model.layers[1].scale.assign([2.0, 3.0])
    path = tmp_path / "m.h5"
    model.save(path)
    with pytest.raises(ValueError, match="Unknown layer: 'Scale'"):
        keras.models.load_model(path)
    loaded = keras.models.load_model(path, custom_objects={"Scale": Scale, "my_loss": my_loss})
    np.testing.assert_array_equal(loaded.layers[1].scale.numpy(), [2.0, 3.0])
    assert loaded.loss is my_loss
    # tf_keras names custom functions plainly, and metrics by their wrapper's config.
    with h5py.File(path, "r+") as f:
        config = json.loads(f.attrs["training_config"])
        config["loss"] = "my_loss"
        config["metrics"] = [[{"class_name": "MeanMetricWrapper",
                               "config": {"name": "my_loss", "dtype": "float32",
                                          "fn": "my_loss"}}, "mae"]]
        f.attrs["training_config"] = json.dumps(config)
    loaded = keras.models.load_model(path, custom_objects={"Scale": Scale, "my_loss": my_loss})
    assert loaded.loss is my_loss
    logs = loaded.evaluate(np.ones((2, 2)), np.ones((2, 2)), verbose=0, return_dict=True)
    assert sorted(logs) == ["loss", "mae", "my_loss"]


def test_functional_weights_load_in_layer_order_or_by_name(tmp_path):
    source = _functional()
    path = tmp_path / "w.h5"
    source.save_weights(path)
    target = _functional()  # other layer names, same order
    target.get_layer("a")._name = "x"
    target.load_weights(path)
    for a, b in zip(_values(target), _values(source)):
        np.testing.assert_array_equal(a, b)
    renamed = _functional()
    renamed.get_layer("a")._name = "x"
    before = renamed.get_layer("x").kernel.numpy()
    renamed.load_weights(path, by_name=True)  # only "b" matches
    np.testing.assert_array_equal(renamed.get_layer("x").kernel.numpy(), before)
    np.testing.assert_array_equal(renamed.get_layer("b").kernel.numpy(),
                                  source.get_layer("b").kernel.numpy())


def test_h5_weights_of_layers_whose_names_nest(tmp_path):
    # "a/pad" before "a" in the model (as in MobileNetV3): Keras writes the groups in order
    # of name, so that "a" is made before "a/pad" makes it as its parent
    inputs = keras.Input((4, 4, 2))
    x = keras.layers.ZeroPadding2D(name="a/pad")(inputs)
    x = keras.layers.Conv2D(3, 3, name="a")(x)
    x = keras.layers.BatchNormalization(name="a/bn")(x)
    model = keras.Model(inputs, x)
    path = tmp_path / "w.h5"
    model.save_weights(path)
    target = keras.models.clone_model(model)
    target.load_weights(path)
    target.load_weights(path, by_name=True)
    for a, b in zip(target.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_mismatches_raise_before_anything_is_assigned(tmp_path):
    path = tmp_path / "w.h5"
    _functional(units=3).save_weights(path)
    target = _functional(units=4)
    before = _values(target)
    # (TF's message: its assignment's, leading space included)
    with pytest.raises(ValueError, match=r"^Cannot assign value to variable ' a/kernel:0': Shape "
                                         r"mismatch\.The variable shape \(2, 4\), and the "
                                         r"assigned value shape \(2, 3\) are incompatible\.$"):
        target.load_weights(path)
    for a, b in zip(_values(target), before):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="Layer count mismatch when loading weights from file. "
                                         "Model expected 3 layers, found 2 saved layers."):
        _model().load_weights(path)
    # By name, layers are numbered as saved, the input layer first.
    with pytest.raises(ValueError, match=r"Shape mismatch in layer #1 \(named a\)"):
        target.load_weights(path, by_name=True)


def test_by_name_skip_mismatch_warns(tmp_path, caplog):
    path = tmp_path / "w.h5"
    source = _functional(units=3)
    source.save_weights(path)
    target = _functional(units=4)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        target.load_weights(path, by_name=True, skip_mismatch=True)
    assert "Skipping loading weights for layer #1 (named a) due to mismatch in shape" in \
        caplog.text
    with pytest.raises(ValueError, match="skip_mismatch can only be set to True when by_name"):
        target.load_weights(path, skip_mismatch=True)


def test_subclassed_models_save_weights_only(tmp_path):
    model = Net()
    x = np.ones((2, 4), "float32")
    model(x)
    with pytest.raises(NotImplementedError, match="Saving the model to HDF5 format requires the "
                                                  "model to be a Functional model"):
        model.save(tmp_path / "m.h5")
    for suffix in ("w.h5", "w.weights.h5"):
        model.save_weights(tmp_path / suffix)
        target = Net()
        target(x)
        target.load_weights(tmp_path / suffix)
        np.testing.assert_array_equal(target(x).numpy(), model(x).numpy())
    with pytest.raises(ValueError, match="Unable to load weights saved in HDF5 format into a "
                                         "subclassed Model which has not created its variables"):
        Net().load_weights(tmp_path / "w.h5")


def test_weights_h5_layout_and_errors(tmp_path):
    model = Net()
    model(np.ones((1, 4), "float32"))
    path = tmp_path / "net.weights.h5"
    model.save_weights(path)
    with h5py.File(path, "r") as f:
        names = []
        f.visititems(lambda name, obj: names.append(name)
                     if isinstance(obj, h5py.Dataset) else None)
    # As tf_keras 2.21 writes it: the model's `layers` come first in Keras's walk (attributes
    # in reverse alphabetical order), each named by its class.
    assert sorted(names) == ["layers/dense/vars/0", "layers/dense/vars/1",
                             "layers/dense_1/vars/0", "layers/dense_1/vars/1",
                             "layers/dense_2/vars/0", "layers/dense_2/vars/1"]
    assert f_shape(path, "layers/dense_1/vars/0") == (3, 2)
    model = _model()
    model.save_weights(tmp_path / "seq.weights.h5")
    other = keras.Sequential([keras.layers.Dense(3, input_shape=(2,)),
                              keras.layers.BatchNormalization(), keras.layers.Dense(1),
                              keras.layers.Dense(1)])  # `layers/dense_2` is not in the file
    before = _values(other)
    with pytest.raises(ValueError, match="expected 2 variables, but received 0 variables"):
        other.load_weights(tmp_path / "seq.weights.h5")
    for a, b in zip(_values(other), before):
        np.testing.assert_array_equal(a, b)
    wide = _model(units=4)
    before = _values(wide)
    with pytest.raises(ValueError, match=r"^Cannot assign value to variable ' a/kernel:0'"
                                         r": Shape mismatch.The variable shape \(2, 4\), and "
                                         r"the assigned value shape \(2, 3\) are incompatible"):
        wide.load_weights(tmp_path / "seq.weights.h5")
    for a, b in zip(_values(wide), before):
        np.testing.assert_array_equal(a, b)


def test_truncated_files_raise(tmp_path):
    model = _model()
    for name, save in [("m.h5", model.save), ("w.h5", model.save_weights),
                       ("w.weights.h5", model.save_weights)]:
        path = tmp_path / name
        save(path)
        path.write_bytes(path.read_bytes()[:1000])
        with pytest.raises(OSError, match="truncated file"):
            (keras.models.load_model if name == "m.h5" else _model().load_weights)(path)


def test_keras_archives_in_both_layouts_load(tmp_path, monkeypatch):
    x, y = _data()
    model = _model()
    model.fit(x, y, verbose=0)
    model.save(tmp_path / "new.keras")
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "h5py", None)
        model.save(tmp_path / "old.keras")
        with pytest.raises(ImportError, match="`pip install h5py`"):
            model.save(tmp_path / "m.h5")
        with pytest.raises(ImportError, match="`pip install h5py`"):
            model.load_weights(tmp_path / "new.keras")
    with zipfile.ZipFile(tmp_path / "old.keras") as archive:
        assert "model.weights.safetensors" in archive.namelist()
    for name in ("new.keras", "old.keras"):
        loaded = keras.models.load_model(tmp_path / name)
        np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
        target = _model()
        target.load_weights(tmp_path / name)
        np.testing.assert_allclose(target.predict(x, verbose=0), model.predict(x, verbose=0))


def test_importing_eagerflow_does_not_import_h5py():
    code = "import sys, eagerflow; print('h5py' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


def test_mixed_precision_archive_records_the_inner_optimizer(tmp_path):
    # As tf_keras records it (compile wraps it again under the float16 policy), so tf_keras
    # loads the archive; the dynamic loss scale is kept in a group tf_keras ignores.
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = _model(keras.optimizers.Adam(0.01))
        model.fit(*_data(), verbose=0)
        model.optimizer._scale.assign(1024.0)
        model.save(tmp_path / "m.keras")
        with zipfile.ZipFile(tmp_path / "m.keras") as archive:
            config = json.loads(archive.read("config.json"))
        assert config["compile_config"]["optimizer"]["class_name"] == "Adam"
        loaded = keras.models.load_model(tmp_path / "m.keras")
        assert type(loaded.optimizer).__name__ == "LossScaleOptimizerV3"
        assert float(loaded.optimizer.loss_scale) == 1024.0
    finally:
        keras.mixed_precision.set_global_policy(None)


@pytest.mark.parametrize("name", ["m.h5", "sm"])
def test_mixed_precision_legacy_formats_record_the_loss_scale_optimizer(tmp_path, name):
    # tf_keras's .h5 training_config and SavedModel metadata hold the model's optimizer
    # itself: loaded under the float32 policy, the model still has a loss scale optimizer.
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = _model(keras.optimizers.SGD(0.01))
    finally:
        keras.mixed_precision.set_global_policy(None)
    model.fit(*_data(), verbose=0)
    model.save(tmp_path / name)
    if name.endswith(".h5"):
        import h5py  # noqa: PLC0415 (an optional dependency)
        with h5py.File(tmp_path / name) as f:
            optimizer = json.loads(f.attrs["training_config"])["optimizer_config"]
        assert optimizer["class_name"] == "LossScaleOptimizerV3"
        assert optimizer["config"]["inner_optimizer"]["module"] == "keras.optimizers"
        assert optimizer["config"]["dynamic_growth_steps"] == 2000
    loaded = keras.models.load_model(tmp_path / name)
    assert type(loaded.optimizer).__name__ == "LossScaleOptimizerV3"
    assert type(loaded.optimizer.inner_optimizer).__name__ == "SGD"
    assert float(loaded.optimizer.loss_scale) == 32768.0


@pytest.mark.parametrize("name", ["m.h5", "m.keras", "w.h5", "w.weights.h5", "w",
                                  "no_h5py.keras"])
def test_adapted_normalization_uses_its_loaded_statistics(tmp_path, name, monkeypatch):
    if name.startswith("no_h5py"):
        monkeypatch.setitem(sys.modules, "h5py", None)  # the safetensors archive
    def build():
        return keras.Sequential([keras.layers.Normalization(input_shape=(3,)),
                                 keras.layers.Dense(2)])

    model = build()
    model.layers[0].adapt(np.arange(12.0).reshape(4, 3) ** 2)
    x = np.ones((2, 3), "float32")
    path = tmp_path / name
    if name.startswith(("m", "no_h5py")):
        model.save(path)
        loaded = keras.models.load_model(path)
    else:
        model.save_weights(path)
        loaded = build()
        loaded.load_weights(path)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0),
                               rtol=1e-6)


class ManyWeights(keras.layers.Layer):
    def build(self, input_shape):
        for i in range(800):  # 800 names of 100 bytes: over HDF5's 64 KB attribute limit
            self.add_weight(f"w{i:04d}_" + "x" * 90, shape=(1,), initializer="zeros")

    def call(self, inputs):
        return inputs


def test_long_weight_name_lists_are_split_into_chunks(tmp_path):
    model = keras.Sequential([ManyWeights(input_shape=(1,))])
    for i, weight in enumerate(model.weights):
        weight.assign([float(i)])
    path = tmp_path / "w.h5"
    model.save_weights(path)
    with h5py.File(path, "r") as f:
        group = f[model.layers[0].name]
        assert "weight_names" not in group.attrs and "weight_names0" in group.attrs
        assert sum(len(group.attrs[k]) for k in group.attrs) == 800
    target = keras.Sequential([ManyWeights(input_shape=(1,))])
    target.load_weights(path)
    assert [float(w.numpy()[0]) for w in target.weights] == [float(i) for i in range(800)]


def test_load_model_of_a_weights_file_says_it_has_no_config(tmp_path):
    model = _model()
    for name in ("w.h5", "w.weights.h5"):
        model.save_weights(tmp_path / name)
        with pytest.raises(ValueError, match="No model config found in the file at"):
            keras.models.load_model(tmp_path / name)


def test_hdf5_legacy_warning_is_shown_once_and_attributed_as_tf_keras_does(tmp_path):
    # model.save's warning points inside Keras (so repeated saves, e.g. by ModelCheckpoint,
    # show it once, even across h5py's first import); save_model's points at its caller.
    code = (
        "import os, sys, eagerflow as tf\n"
        "m = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])\n"
        "m.compile('sgd', 'mse')\n"
        "d = sys.argv[1]\n"
        "m.save(os.path.join(d, 'a.h5'))\n"
        "m.save(os.path.join(d, 'b.h5'))\n"
        "tf.keras.models.save_model(m, os.path.join(d, 'c.h5'))  # caller\n")
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                            text=True, check=True)
    lines = result.stderr.splitlines()
    shown = [line for line in lines if "UserWarning: You are saving your model as an HDF5" in line]
    assert len(shown) == 2
    assert "eagerflow" in shown[0] and "<string>:7:" in shown[1]
    assert "Compiled the loaded model" not in result.stderr


def test_saving_an_uncompiled_model_warns_its_metrics_are_unbuilt(tmp_path, caplog):
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        with pytest.warns(UserWarning):
            model.save(tmp_path / "m.h5")
        model.save(tmp_path / "m.keras")
    assert caplog.text.count("Compiled the loaded model, but the compiled metrics have yet "
                             "to be built.") == 1


def test_custom_activation_function_round_trips_by_name(tmp_path):
    def doubled(x):
        return x * 2.0
    model = tf.keras.Sequential([tf.keras.Input((2,)),
                                 tf.keras.layers.Dense(2, activation=doubled)])
    path = str(tmp_path / "m.h5")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.save(path)
        loaded = tf.keras.models.load_model(path, custom_objects={"doubled": doubled},
                                            compile=False)
    assert loaded.layers[0].activation is doubled


def test_a_subclassed_model_is_refused_before_its_compile_arguments_are_serialized(tmp_path):
    class Schedule(keras.optimizers.schedules.LearningRateSchedule):  # no get_config
        def __call__(self, step):
            return 0.1

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    model = Sub()
    model(np.ones((1, 2), "float32"))
    model.compile(keras.optimizers.Adam(Schedule()), "mse")
    with pytest.raises(NotImplementedError, match="requires the model to be a Functional"):
        model.save(tmp_path / "m.h5")


@pytest.mark.parametrize("trained", [True, False])
@pytest.mark.parametrize("name", ["m.h5", "mdir"])
def test_multi_output_metrics_keep_their_output_names_through_legacy_formats(
        tmp_path, name, trained):
    # TF 2.21's results: the legacy savers build the compiled metrics first (so their saved
    # names hold the outputs'), the loaders keep those names and build the metrics at once
    tf.keras.backend.clear_session()  # (the AUC's name counts the AUCs made before)
    inp = tf.keras.Input((3,))
    m = tf.keras.Model(inp, [tf.keras.layers.Dense(4, kernel_initializer="ones", name="cls")(inp),
                             tf.keras.layers.Dense(1, kernel_initializer="ones", name="reg")(inp)])
    m.compile("sgd", loss=["sparse_categorical_crossentropy", "mse"],
              metrics=[["accuracy"], ["mae", tf.keras.metrics.AUC()]])
    x, y = np.ones((4, 3), "float32"), [np.array([0, 1, 2, 3]), np.ones((4, 1), "float32")]
    if trained:
        m.fit(x, y, verbose=0)
    m.save(str(tmp_path / name))
    loaded = tf.keras.models.load_model(str(tmp_path / name))
    names = ["loss", "cls_loss", "reg_loss", "cls_accuracy", "reg_mae", "reg_auc"]
    assert loaded.metrics_names == names
    assert list(loaded.evaluate(x, y, verbose=0, return_dict=True)) == names


def test_load_weights_of_a_checkpoint_of_other_objects_raises_as_tf(tmp_path):
    # TF 2.21: load_weights of a tf.train.Checkpoint(model=...) (the model one level down)
    # matches nothing, and its assert_nontrivial_match raises; it silently loaded nothing
    model = _model()
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "c"))
    other = _model()
    before = _values(other)
    with pytest.raises(AssertionError, match="^Nothing except the root object matched a "
                                             "checkpointed value"):
        other.load_weights(path)
    for a, b in zip(_values(other), before):
        np.testing.assert_array_equal(a, b)
    model.save_weights(str(tmp_path / "w"))
    other.load_weights(str(tmp_path / "w")).assert_nontrivial_match()


@pytest.mark.parametrize("name", ["m.h5", "mdir"])
def test_accuracy_resolved_for_sparse_labels_stays_sparse_when_loaded(tmp_path, name):
    # labels of a last axis of 1 against 3 classes (a segmentation's masks): 'accuracy' was
    # the sparse one; the loaded model keeps it (built on its outputs, the name alone would
    # give the categorical one), as tf_keras 2.21's loaders do
    inp = tf.keras.Input((2, 3))
    m = tf.keras.Model(inp, tf.keras.layers.Dense(3, kernel_initializer="identity")(inp))
    m.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    x = np.eye(3, dtype="float32")[[[0, 1], [2, 0], [1, 1], [2, 2]]]
    y = np.array([[[0], [1]], [[2], [1]], [[0], [1]], [[2], [0]]])  # 5 of 8 as predicted
    m.fit(x, y, verbose=0, epochs=1, batch_size=4)
    expected = m.evaluate(x, y, verbose=0, return_dict=True)
    assert expected["accuracy"] == 0.625
    m.save(str(tmp_path / name))
    loaded = tf.keras.models.load_model(str(tmp_path / name))
    assert loaded.evaluate(x, y, verbose=0, return_dict=True) == expected
    assert [type(m).__name__ for m in loaded.metrics] == ["Mean", "MeanMetricWrapper"]
    assert loaded.metrics[1].name == "accuracy"


@pytest.mark.parametrize("name", ["m.h5", "m.keras"])
def test_a_vocabulary_given_as_a_string_tensor_reloads(tmp_path, name):
    # (its config holds bytes: `.h5` files write them as tf_keras's legacy JSON does; the
    # loaders once passed the dicts standing for them to the layer, which raised TypeError)
    words = keras.Input(shape=(2,), dtype="string")
    lookup = keras.layers.StringLookup(vocabulary=tf.constant(["a b", "c", "é"]))
    model = keras.Model(words, lookup(words))
    model.save(str(tmp_path / name))
    if name.endswith(".h5"):
        with h5py.File(tmp_path / name) as f:
            config = json.loads(f.attrs["model_config"])
        assert config["config"]["layers"][1]["config"]["vocabulary"][0] == \
            {"class_name": "__bytes__", "value": "a b"}
    loaded = keras.models.load_model(str(tmp_path / name))
    assert loaded(tf.constant([["a b", "é"]])).numpy().tolist() == [[1, 3]]
    assert loaded.layers[1].get_vocabulary() == ["[UNK]", "a b", "c", "é"]
    again = keras.models.model_from_json(model.to_json())
    assert again.layers[1].get_vocabulary() == ["[UNK]", "a b", "c", "é"]
