"""Custom layers and functions through `.keras` archives, `.h5` files and configs."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.models import Scaled


@keras.utils.register_keras_serializable(package="probe")
class Scale(Scaled):
    """`Scaled`, registered."""


class Unregistered(keras.layers.Layer):
    def call(self, x):
        return x * 2


def _functional(layer):
    inputs = keras.Input((3,))
    return keras.Model(inputs, layer(keras.layers.Dense(2)(inputs)))


@pytest.mark.parametrize("name", ["m.keras", "m.h5"])
def test_registered_layer_in_functional_model_round_trips(tmp_path, name):
    model = _functional(Scale(3.0, name="sc"))
    model.save(tmp_path / name)
    loaded = keras.models.load_model(tmp_path / name)
    assert type(loaded.layers[-1]) is Scale and loaded.layers[-1].factor == 3.0
    x = np.ones((2, 3), "float32")
    np.testing.assert_allclose(loaded(x), model(x))


def test_registered_layer_from_functional_config():
    model = _functional(Scale(3.0))
    clone = keras.Model.from_config(model.get_config())
    assert type(clone.layers[-1]) is Scale


def test_archive_with_unknown_class_raises_type_error(tmp_path):
    model = _functional(Unregistered())
    model.save(tmp_path / "m.keras")
    with pytest.raises(TypeError, match="Cannot deserialize object of type `Unregistered`"):
        keras.models.load_model(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras",
                                     custom_objects={"Unregistered": Unregistered})
    assert type(loaded.layers[-1]) is Unregistered


def test_archive_with_unknown_loss_function_raises_type_error(tmp_path):
    def my_loss(y, p):
        return tf.reduce_mean(tf.abs(y - p))
    model = _functional(keras.layers.Dense(1))
    model.compile("adam", loss=my_loss)
    model.save(tmp_path / "m.keras")
    with pytest.raises(TypeError, match="Could not locate function 'my_loss'"):
        keras.models.load_model(tmp_path / "m.keras")
    assert keras.models.load_model(tmp_path / "m.keras", compile=False).optimizer is None
    model.save(tmp_path / "m.h5")
    with pytest.raises(ValueError, match="Unknown loss function: 'my_loss'"):
        keras.models.load_model(tmp_path / "m.h5")


def test_unknown_metric_function_fails_the_load_though_get_gives_the_name_back(tmp_path):
    # tf_keras's metrics.get returns a name it does not know; its loaders do not take one
    def my_metric(y, p):
        return tf.reduce_mean(p)
    model = _functional(keras.layers.Dense(1))
    model.compile("sgd", "mse", metrics=[my_metric])
    model.save(tmp_path / "m.keras")
    with pytest.raises(TypeError, match="Could not locate function 'my_metric'"):
        keras.models.load_model(tmp_path / "m.keras")
    model.save(tmp_path / "m.h5")
    with pytest.raises(ValueError, match="Unknown metric function: 'my_metric'"):
        keras.models.load_model(tmp_path / "m.h5")
    assert keras.metrics.get("my_metric") == "my_metric"


class Shaped(keras.Model):
    built_with = []

    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = keras.layers.Dense(units)

    def build(self, input_shape):
        Shaped.built_with.append(input_shape)
        super().build(input_shape)

    def call(self, x):
        return self.dense(x)

    def get_config(self):
        return {"units": self.units}


def test_subclassed_model_is_built_from_its_archive_with_a_tensor_shape(tmp_path):
    model = Shaped()
    model.build((None, 4))
    model.save(tmp_path / "m.keras")
    Shaped.built_with.clear()
    loaded = keras.models.load_model(tmp_path / "m.keras", custom_objects={"Shaped": Shaped})
    assert loaded.built and loaded.units == 3
    assert isinstance(Shaped.built_with[0], tf.TensorShape)
    assert Shaped.built_with[0].as_list() == [None, 4]
    x = np.ones((1, 4), "float32")
    np.testing.assert_allclose(loaded(x), model(x))


def test_custom_class_config_names_its_module_and_registered_name():
    config = keras.layers.serialize(Unregistered())
    assert (config["module"], config["class_name"], config["registered_name"]) == \
        (__name__, "Unregistered", "Unregistered")
    registered = keras.layers.serialize(Scale())
    assert (registered["module"], registered["registered_name"]) == (__name__, "probe>Scale")
    assert keras.layers.serialize(keras.layers.Dense(2))["module"] == "keras.layers"


def test_custom_class_without_custom_objects_raises_type_error():
    model = _functional(Unregistered(name="un"))
    config = model.get_config()
    for spec in config["layers"]:
        if spec["class_name"] == "Unregistered":
            spec["module"] = None  # as a class defined in __main__ is written
    with pytest.raises(TypeError, match="Cannot deserialize object of type `Unregistered`"):
        keras.Model.from_config(config)
    with pytest.raises(TypeError, match="`Unregistered`"):
        keras.layers.deserialize({"module": None, "class_name": "Unregistered", "config": {},
                                  "registered_name": "Unregistered"})
    loaded = keras.Model.from_config(config, custom_objects={"Unregistered": Unregistered})
    assert type(loaded.layers[-1]) is Unregistered
    # the legacy format still names the unknown class in a ValueError
    with pytest.raises(ValueError, match="Unknown layer: 'Unregistered'"):
        keras.layers.deserialize({"class_name": "Unregistered", "config": {}})


def test_a_model_of_a_layer_class_not_known_fails_to_load_as_in_tf_keras(tmp_path):
    model = _functional(Unregistered(name="un"))
    model.save(tmp_path / "m.h5")
    # (tf_keras 2.21: the .h5 loader's legacy ValueError; a config's stand-in name for the
    # class, called as the layer, a TypeError)
    with pytest.raises(ValueError, match=r"^Unknown layer: 'Unregistered'\. Please ensure "
                                         r"you are using a `keras.utils.custom_object_scope`"):
        keras.models.load_model(tmp_path / "m.h5")
    for build in (lambda: keras.models.model_from_json(model.to_json()),
                  lambda: keras.Model.from_config(model.get_config())):
        with pytest.raises(TypeError, match="^'str' object is not callable$"):
            build()
    loaded = keras.models.load_model(tmp_path / "m.h5",
                                     custom_objects={"Unregistered": Unregistered})
    assert type(loaded.get_layer("un")) is Unregistered


@keras.utils.register_keras_serializable(package="probe")
def half_mse(y, p):
    return tf.reduce_mean(tf.square(y - p)) * 0.5


def test_h5_and_savedmodel_record_registered_objects_and_built_metrics_as_tf_keras(tmp_path):
    # tf_keras's legacy serialization (its .h5 and SavedModel loaders find a registered class
    # or function only by its registered name; built metrics keep their names): TF 2.21
    # loads these files with the custom layer and loss, and fit's history names 'mae'
    import h5py
    import json
    model = _functional(Scale(1.5))
    model.compile(keras.optimizers.RMSprop(0.01), loss=half_mse, metrics=["mae"])
    x = np.arange(12, dtype="float32").reshape(4, 3) / 10
    y = x.sum(1, keepdims=True)
    model.fit(x, y, verbose=0)
    model.save(tmp_path / "m.h5")
    with h5py.File(tmp_path / "m.h5", "r") as f:
        layers = json.loads(f.attrs["model_config"])["config"]["layers"]
        training = json.loads(f.attrs["training_config"])
    assert [layer["class_name"] for layer in layers] == ["InputLayer", "Dense", "probe>Scale"]
    assert not any("module" in layer or "registered_name" in layer for layer in layers)
    assert training["loss"] == "probe>half_mse"
    assert training["metrics"] == [[{"class_name": "MeanMetricWrapper", "config": {
        "name": "mae", "dtype": "float32", "fn": "mean_absolute_error"}}]]
    model.save(tmp_path / "sm", save_format="tf")
    for path in ("m.h5", "sm"):
        loaded = keras.models.load_model(tmp_path / path)
        assert type(loaded.layers[2]) is Scale and loaded.layers[2].factor == 1.5
        assert sorted(loaded.fit(x, y, verbose=0).history) == ["loss", "mae"]


def _doubled_relu(x):
    return tf.nn.relu(x) * 2


def test_layer_deserialize_resolves_nested_function_from_custom_objects():
    # A Dense's activation written as a function config is found in the custom objects
    # passed to deserialize, though Dense.from_config itself takes none (as tf_keras).
    config = keras.layers.serialize(keras.layers.Dense(3, activation=_doubled_relu))
    assert config["config"]["activation"]["class_name"] == "function"
    layer = keras.layers.deserialize(config, custom_objects={"_doubled_relu": _doubled_relu})
    assert layer.activation is _doubled_relu
    layer = keras.utils.deserialize_keras_object(
        config, custom_objects={"Dense": keras.layers.Dense, "_doubled_relu": _doubled_relu})
    assert layer.activation is _doubled_relu
    with pytest.raises(TypeError, match="Error when deserializing class 'Dense'"):
        keras.layers.deserialize(config)


_OFFSET = 10.0


def _lambda_model():
    inputs = keras.Input((3,))
    x = keras.layers.Lambda(lambda t: t * 2.0 + 1.0, name="affine")(inputs)
    x = keras.layers.Lambda(lambda t, k: t * k, arguments={"k": 0.5})(x)
    scale = 3.0
    x = keras.layers.Lambda(lambda t: t * scale + _OFFSET)(x)  # a closure and a global
    return keras.Model(inputs, keras.layers.Dense(2, kernel_initializer="ones")(x))


def test_lambda_layers_save_their_bytecode_and_load_where_tf_keras_loads_them(tmp_path):
    model = _lambda_model()
    data = np.arange(6, dtype="float32").reshape(2, 3)
    expected = model.predict(data, verbose=0)
    config = model.get_config()["layers"][1]["config"]
    assert config["function_type"] == "lambda" and config["module"] == __name__
    assert config["output_shape_type"] == "raw" and config["arguments"] == {}
    code, defaults, closure = model.get_config()["layers"][3]["config"]["function"]
    assert isinstance(code, str) and defaults is None and closure == (3.0,)
    # h5 files and SavedModels load them; a .keras archive only outside safe mode
    for name in ("m.h5", "saved"):
        model.save(tmp_path / name)
        loaded = keras.models.load_model(tmp_path / name)
        np.testing.assert_allclose(loaded.predict(data, verbose=0), expected)
    model.save(tmp_path / "m.keras")
    with pytest.raises(ValueError, match="Requested the deserialization of a Lambda layer"):
        keras.models.load_model(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras", safe_mode=False)
    np.testing.assert_allclose(loaded.predict(data, verbose=0), expected)
    # from configs: refused in safe mode (the default), except by Lambda.from_config itself
    with pytest.raises(ValueError, match="Requested the deserialization of a Lambda layer"):
        keras.Model.from_config(model.get_config())
    with pytest.raises(ValueError, match="Requested the deserialization of a Lambda layer"):
        keras.models.model_from_json(model.to_json())
    layer = keras.layers.Lambda.from_config(model.layers[3].get_config())
    np.testing.assert_allclose(layer(np.ones((1, 3), "float32")), [[13.0, 13.0, 13.0]])



class _Subclassed(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(3)

    def call(self, x):
        return self.dense(x)


def _saved_subclassed(path, module):
    cls = type("_Subclassed", (_Subclassed,), {"__module__": module})
    model = cls()
    model.compile("adam", "mse", metrics=["mae"])
    model.fit(np.ones((4, 2)), np.ones((4, 3)), verbose=0)
    model.save(path)
    return cls


def test_archive_of_an_unknown_model_class_names_it_and_its_config(tmp_path):
    cls = _saved_subclassed(tmp_path / "s.keras", "__main__")
    # (tf_keras 2.21's message, the whole config of the model included)
    expected = (
        "Could not locate class '_Subclassed'. Make sure custom classes are decorated with "
        "`@keras.saving.register_keras_serializable()`. Full object config: {'module': None, "
        "'class_name': '_Subclassed', 'config': {'name': 'private__subclassed', 'trainable': "
        "True, 'dtype': 'float32'}, 'registered_name': '_Subclassed', "
        "'build_config': {'input_shape': [None, 2]}, 'compile_config': {'optimizer': 'adam', "
        "'loss': 'mse', 'metrics': ['mae'], 'loss_weights': None, 'weighted_metrics': None, "
        "'run_eagerly': None, 'steps_per_execution': None, 'jit_compile': None}}")
    with pytest.raises(TypeError) as info:
        keras.models.load_model(tmp_path / "s.keras")
    assert str(info.value) == expected
    loaded = keras.models.load_model(tmp_path / "s.keras", custom_objects={"_Subclassed": cls})
    assert type(loaded) is cls


def test_archive_model_class_is_imported_from_its_module(tmp_path):
    """As tf_keras: a class defined in an importable module needs no custom objects."""
    _saved_subclassed(tmp_path / "s.keras", __name__)
    assert type(keras.models.load_model(tmp_path / "s.keras")) is _Subclassed
    _saved_subclassed(tmp_path / "t.keras", "no_such_module_here")
    with pytest.raises(TypeError, match="^Could not deserialize class '_Subclassed' because its "
                                        "parent module no_such_module_here cannot be imported. "
                                        "Full object config: {'module': 'no_such_module_here'"):
        keras.models.load_model(tmp_path / "t.keras")


def test_deserialize_keras_object_imports_a_custom_classs_module():
    config = keras.layers.serialize(Unregistered(name="u"))
    assert config["module"] == __name__
    assert type(keras.saving.deserialize_keras_object(config)) is Unregistered


def test_deserialize_keras_object_plain_dicts_and_unknown_classes_as_tf_keras():
    # a dict that is no config: its values deserialized, as tf_keras's generic deserializer
    config = {"a": 1, "opt": keras.optimizers.serialize(keras.optimizers.SGD(0.5))}
    out = keras.saving.deserialize_keras_object(config)
    assert out["a"] == 1 and float(out["opt"].learning_rate) == 0.5
    with pytest.raises(TypeError, match=r"^Could not locate class 'Nope'\. Make sure custom "
                                        r"classes are decorated with .* Full object config: "
                                        r"\{'class_name': 'Nope', 'config': \{\}\}$"):
        keras.saving.deserialize_keras_object({"class_name": "Nope", "config": {}})
    # a family's deserializer: tf_keras's ValueError for a dict without a class name
    with pytest.raises(ValueError, match=r"^Unknown `config` as a `dict`, config=\{'bad': 1\}$"):
        keras.layers.deserialize({"bad": 1})
    with pytest.raises(TypeError, match="^Error when deserializing class 'Dense' using "
                                        "config={}"):
        keras.layers.deserialize({"class_name": "Dense"})


class _CustomCompile(keras.Model):
    """A model whose `compile` takes its own arguments, saved and restored through its own
    `get_compile_config` and `compile_from_config`."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(2)

    def call(self, x):
        return self.dense(x)

    def compile(self, optimizer, loss_fn):
        super().compile(optimizer=optimizer, loss=loss_fn)
        self.model_optimizer, self.loss_fn = optimizer, loss_fn

    def get_compile_config(self):
        return {"model_optimizer": self.model_optimizer, "loss_fn": self.loss_fn}

    def compile_from_config(self, config):
        self.compile(keras.utils.deserialize_keras_object(config["model_optimizer"]),
                     keras.utils.deserialize_keras_object(config["loss_fn"]))


class _CustomCompileOnly(_CustomCompile):
    get_compile_config = keras.Model.get_compile_config
    compile_from_config = keras.Model.compile_from_config


def _trained_saved_and_loaded(cls, path):
    model = cls()
    model.compile(optimizer="SGD", loss_fn="mean_squared_error")
    model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    model.save(path)
    with keras.utils.custom_object_scope({cls.__name__: cls}):
        return keras.models.load_model(path)


def test_load_model_compiles_through_the_models_own_compile_from_config(tmp_path, caplog):
    restored = _trained_saved_and_loaded(_CustomCompile, tmp_path / "m.keras")
    assert (restored.model_optimizer, restored.loss_fn) == ("SGD", "mean_squared_error")
    assert type(restored.optimizer).__name__ == "SGD"
    # (a custom `compile` without them: as tf_keras, not compiled, with a warning)
    restored = _trained_saved_and_loaded(_CustomCompileOnly, tmp_path / "n.keras")
    assert restored.optimizer is None
    assert "`compile()` was not called as part of model loading because the model's " \
           "`compile()` method is custom." in caplog.text


class _UnregisteredInit(keras.initializers.Initializer):
    """An initializer of a class never registered: its config names its module."""

    def __call__(self, shape, dtype=None, **kwargs):
        return tf.ones(shape, dtype)


_UNKNOWN = {"module": "some.module", "class_name": "Foo", "config": {},
            "registered_name": "Foo"}


def test_a_config_of_an_unknown_class_naming_its_module_stands_for_its_name():
    """As tf_keras: a new-format config (one naming its module) of a class a family does not
    know deserializes to the class's name, which fails where it is used (a layer's initializer
    as the layer builds); a legacy config (no module) fails at once, an activation's too."""
    assert keras.initializers.get(_UNKNOWN) == "Foo"
    assert keras.constraints.get(_UNKNOWN) == "Foo"
    assert keras.losses.deserialize(_UNKNOWN) == "Foo"
    dense = keras.layers.Dense(2, kernel_initializer=_UNKNOWN)
    assert dense.kernel_initializer == "Foo"
    with pytest.raises(ValueError, match="^Unknown initializer: 'Foo'"):
        dense(tf.ones([1, 2]))
    with pytest.raises(ValueError, match="^Unknown initializer: 'Foo'"):
        keras.initializers.get({"class_name": "Foo", "config": {}})
    with pytest.raises(ValueError, match=r"^Unknown activation function "
                                         r"'\{'module': 'some.module', .*\}' cannot be "
                                         r"deserialized\.$"):
        keras.activations.get(_UNKNOWN)
    model = keras.Sequential.from_config({"name": "s", "layers": [
        {"class_name": "Dense", "module": "keras.layers", "registered_name": None,
         "config": {"units": 2, "kernel_initializer": _UNKNOWN}}]})
    assert model.layers[0].kernel_initializer == "Foo"
    assert keras.optimizers.get(_UNKNOWN) == "Foo"
    with pytest.raises(ValueError, match="^Unknown optimizer: 'Foo'"):
        model.compile(optimizer=_UNKNOWN, loss="mse")


def test_bidirectional_rnn_with_an_unregistered_initializer_fails_as_it_builds():
    """Bidirectional rebuilds its layer from its config: the initializer of a class never
    registered becomes its name, refused as the layer builds (as tf_keras's, not before)."""
    layer = keras.layers.Bidirectional(keras.layers.GRU(3, kernel_initializer=_UnregisteredInit()))
    assert layer.forward_layer.cell.kernel_initializer == "_UnregisteredInit"
    with pytest.raises(ValueError, match="^Unknown initializer: '_UnregisteredInit'"):
        layer(tf.ones([2, 4, 3]))
