"""Which format `save`, `save_weights` and `load_weights` pick, and what they write, as in
tf_keras 2.21 (values checked against it)."""
import json
import warnings
import zipfile

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

h5py = pytest.importorskip("h5py")


def _model(units=2, optimizer="adam"):
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(4,), name="a"),
                              keras.layers.Dense(units, name="b")])
    model.compile(optimizer, "mse")
    return model


def _archive_config(path):
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("config.json"))


# -- model.save -------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [dict(include_optimizer=False), dict(save_traces=False),
                                    dict(signatures=None), dict(foo=1)])
def test_keras_archive_refuses_the_legacy_savers_arguments(tmp_path, kwargs):
    with pytest.raises(ValueError, match=r"^The following argument\(s\) are not supported with "
                                         r"the native TF-Keras format: \['"):
        _model().save(tmp_path / "m.keras", **kwargs)


def test_keras_save_format_needs_the_keras_extension(tmp_path):
    with pytest.raises(ValueError, match="^Invalid `filepath` argument: expected a `.keras` "
                                         "extension. Received: filepath="):
        _model().save(tmp_path / "m", save_format="keras")


def test_tf_save_format_on_an_h5_or_keras_path_writes_hdf5(tmp_path):
    model = _model()
    for name in ("m.keras", "m.h5"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (no HDF5 warning: the format asked was 'tf')
            model.save(tmp_path / name, save_format="tf")
        assert h5py.is_hdf5(tmp_path / name)
        assert keras.models.load_model(tmp_path / name).layers[0].name == "a"


def test_the_legacy_savers_reject_unknown_arguments(tmp_path):
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        _model().save(tmp_path / "m_sm", foo=1)


def test_saving_an_unbuilt_model_to_an_archive_warns(tmp_path):
    model = keras.Sequential([keras.layers.Dense(2)])
    with pytest.warns(UserWarning, match="^You are saving a model that has not yet been built"):
        model.save(tmp_path / "m.keras")


def test_archive_compile_config_holds_the_compile_arguments(tmp_path):
    def my_loss(y, p):
        return tf.reduce_mean(tf.square(y - p))

    model = _model(optimizer="adam")
    model.compile("adam", my_loss, metrics=["mae"], steps_per_execution=2)
    model.optimizer.learning_rate.assign(0.5)
    model.save(tmp_path / "m.keras")
    config = _archive_config(tmp_path / "m.keras")["compile_config"]
    assert config["optimizer"] == "adam"  # (as given: not the optimizer's current config)
    assert config["steps_per_execution"] == 2
    assert config["loss"] == {"module": "builtins", "class_name": "function",
                              "config": "my_loss", "registered_name": "function"}
    loaded = keras.models.load_model(tmp_path / "m.keras", custom_objects={"my_loss": my_loss})
    # tf_keras compiles a fresh 'adam': its learning rate is the default again
    assert float(loaded.optimizer.learning_rate) == pytest.approx(0.001)


@pytest.mark.parametrize("wrap", [False, True])
def test_legacy_optimizer_state_stays_out_of_the_archive(tmp_path, wrap):
    optimizer = keras.optimizers.legacy.Adam(0.01)
    if wrap:  # tf_keras's LossScaleOptimizer around a legacy one is legacy too
        optimizer = keras.mixed_precision.LossScaleOptimizer(optimizer, initial_scale=64.0,
                                                             dynamic_growth_steps=1)
    model = _model(optimizer=optimizer)
    model.fit(np.ones((4, 4)), np.ones((4, 2)), verbose=0)
    model.save(tmp_path / "m.keras")
    with zipfile.ZipFile(tmp_path / "m.keras") as archive:
        archive.extract("model.weights.h5", tmp_path)
    with h5py.File(tmp_path / "model.weights.h5") as f:
        assert sorted(f) == ["layers", "metrics", "vars"]
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert int(loaded.optimizer.iterations) == 0
    if wrap:  # the scale starts again from the initial one
        assert float(loaded.optimizer.loss_scale) == 64.0


def test_h5_model_config_is_tf_kerass_legacy_layout(tmp_path):
    inputs = keras.Input((3,), name="inp")
    inner = keras.Sequential([keras.layers.Dense(3, name="in_d")], name="inner")
    model = keras.Model(inputs, inner(keras.layers.Dense(3, name="sh")(inputs)))
    model.compile(keras.optimizers.SGD(0.1), "mse")
    with pytest.warns(UserWarning):
        model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5") as f:
        config = json.loads(f.attrs["model_config"])
        training = json.loads(f.attrs["training_config"])
        assert sorted(f.attrs) == ["backend", "keras_version", "model_config",
                                   "training_config"]
        assert list(f["model_weights"].attrs["layer_names"]) == ["inp", "sh", "inner"]
        assert f["model_weights"].attrs["backend"] == "tensorflow"
    assert sorted(config) == ["class_name", "config"]
    dense = config["config"]["layers"][1]
    assert sorted(dense) == ["class_name", "config", "inbound_nodes", "name"]
    assert dense["config"]["kernel_initializer"] == {
        "module": "keras.initializers", "class_name": "GlorotUniform",
        "config": {"seed": None}, "registered_name": None}
    nested = config["config"]["layers"][2]
    assert sorted(nested["config"]["layers"][0]) == ["class_name", "config"]
    assert training["optimizer_config"]["class_name"] == "Custom>SGD"


# -- save_weights / load_weights ----------------------------------------------------------
def test_save_weights_tf_format_on_an_h5_path_raises(tmp_path):
    with pytest.raises(ValueError, match='^save_weights got save_format="tf"/"tensorflow", but '
                                         r"the filepath \(.*w.h5\) looks like an HDF5 file"):
        _model().save_weights(str(tmp_path / "w.h5"), save_format="tf")


@pytest.mark.parametrize("name,save_format", [("w.keras", None), ("w", "keras"),
                                              ("w", "H5 ")])
def test_save_weights_keras_path_or_format_writes_legacy_hdf5(tmp_path, name, save_format):
    model = _model()
    model.save_weights(tmp_path / name, save_format=save_format)
    with h5py.File(tmp_path / name) as f:
        assert list(f.attrs["layer_names"]) == ["a", "b"]
    other = _model()
    assert other.load_weights(tmp_path / name) is None
    np.testing.assert_array_equal(other.layers[1].kernel.numpy(), model.layers[1].kernel.numpy())


def test_keras_layout_loads_with_skip_mismatch_alone(tmp_path):
    _model().save_weights(tmp_path / "w.weights.h5")
    other = _model(units=5)
    with pytest.warns(UserWarning, match="^Could not load weights in object .*Skipping object"):
        assert other.load_weights(tmp_path / "w.weights.h5", skip_mismatch=True) is None


def test_checkpoint_by_name_restores_then_raises(tmp_path):
    model = _model()
    model.save_weights(str(tmp_path / "ckpt"))
    other = _model()
    with pytest.raises(NotImplementedError, match="^Weights may only be loaded based on "
                                                  "topology"):
        other.load_weights(str(tmp_path / "ckpt"), by_name=True)
    np.testing.assert_array_equal(other.layers[0].kernel.numpy(), model.layers[0].kernel.numpy())


def test_h5_into_an_unbuilt_sequential_raises_tf_kerass_error(tmp_path):
    _model().save_weights(tmp_path / "w.h5")
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="^Unable to load weights saved in HDF5 format into a "
                                         "subclassed Model which has not created its variables "
                                         "yet. Call the Model first, then load the weights.$"):
        model.load_weights(tmp_path / "w.h5")


# -- generic deserialization -------------------------------------------------------------
@pytest.mark.parametrize("obj", [keras.optimizers.legacy.SGD(0.01, momentum=0.5),
                                 keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9)])
def test_deserialize_keras_object_finds_legacy_optimizers_and_schedules(obj):
    config = keras.saving.serialize_keras_object(obj)
    assert config["module"] == type(obj)._keras_api_names[0].rpartition(".")[0]
    again = keras.saving.deserialize_keras_object(config)
    assert type(again) is type(obj) and again.get_config() == obj.get_config()



def _legacy_adam_model(units=1, legacy=True):
    model = keras.Sequential([keras.layers.Dense(units, input_shape=(2,),
                                                 kernel_initializer="ones")])
    model.compile(keras.optimizers.legacy.Adam(0.01) if legacy else keras.optimizers.Adam(0.01),
                  "mse")
    return model


def test_checkpoint_restores_a_legacy_optimizers_state(tmp_path):
    x = np.linspace(-1, 1, 16).reshape(8, 2).astype("float32")
    y = x[:, :1] * 2 - x[:, 1:]
    model = _legacy_adam_model()
    model.fit(x, y, batch_size=2, epochs=1, verbose=0, shuffle=False)
    model.save_weights(str(tmp_path / "ckpt"))
    other = _legacy_adam_model()
    other.load_weights(str(tmp_path / "ckpt"))
    assert int(other.optimizer.iterations) == 4  # (TF restores it at once)
    for _ in range(2):  # the slots, restored as they are created, give the same steps
        assert other.train_on_batch(x, y) == model.train_on_batch(x, y)
    np.testing.assert_array_equal(other.get_weights()[0], model.get_weights()[0])


def test_legacy_optimizer_checkpoint_into_a_new_optimizer_raises(tmp_path):
    model = _legacy_adam_model()
    model.train_on_batch(np.ones((2, 2)), np.ones((2, 1)))
    model.save_weights(str(tmp_path / "ckpt"))
    with pytest.raises(ValueError, match="^You are trying to restore a checkpoint from a legacy "
                                         "TF-Keras optimizer into a v2.11\\+ Optimizer"):
        _legacy_adam_model(legacy=False).load_weights(str(tmp_path / "ckpt"))


def test_saved_model_without_the_optimizer_loads_uncompiled(tmp_path):
    # tf_keras 2.21: `include_optimizer=False` leaves out the optimizer's variables and the
    # compile arguments (the loaded model has no optimizer); the model keeps its optimizer
    model = _model()
    x = np.ones((2, 4), "float32")
    model.fit(x, np.zeros((2, 2)), verbose=0)
    model.save(tmp_path / "m_sm", include_optimizer=False)
    assert model.optimizer is not None and model.optimizer.iterations.numpy() == 1
    saved = tf.train.list_variables(str(tmp_path / "m_sm/variables/variables"))
    assert not [name for name, _ in saved if name.startswith("optimizer")]
    loaded = keras.models.load_model(tmp_path / "m_sm")
    assert loaded.optimizer is None
    np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy())
    model.save(tmp_path / "with_sm")  # (by default it is saved)
    assert keras.models.load_model(tmp_path / "with_sm").optimizer is not None


def test_save_weights_of_an_adapted_lookup_layer_after_a_tf1_session(tmp_path):
    # (a TF 1 session used before in the process: save_weights looks for session-held
    # variables among the weights, where a lookup layer's table handler is no variable)
    with tf.Graph().as_default():
        v = tf.compat.v1.get_variable("v", [], initializer=tf.compat.v1.zeros_initializer())
        with tf.compat.v1.Session() as session:
            session.run(v.initializer)
    lookup = tf.keras.layers.StringLookup()
    lookup.adapt(["a", "b", "b", "c"])
    inputs = tf.keras.Input((1,), dtype="string")
    model = tf.keras.Model(inputs, tf.keras.layers.Embedding(5, 2)(lookup(inputs)))
    model.save_weights(str(tmp_path / "model"))
    names = [name for name, _ in tf.train.list_variables(str(tmp_path / "model"))]
    assert "layer_with_weights-0/token_counts/.ATTRIBUTES/table-keys" in names
