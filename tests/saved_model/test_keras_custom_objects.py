"""Loading Keras models with custom layers: the errors tf_keras 2.21 raises when the class is
not given (a `.keras` archive: TypeError; an `.h5` file: ValueError), and the load when it is."""
import numpy as np
import pytest

import eagerflow as tf


class CustomLayer(tf.keras.layers.Layer):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(input_shape[-1], self.units),
                                 initializer="ones")

    def call(self, x):
        return tf.matmul(x, self.w)

    def get_config(self):
        return {**super().get_config(), "units": self.units}


def _model():
    return tf.keras.Sequential([tf.keras.Input((4,)), CustomLayer(3, name="cl")])


def test_keras_archive_with_unregistered_class_raises_type_error(tmp_path):
    path = str(tmp_path / "c.keras")
    _model().save(path)
    with pytest.raises(TypeError, match=r"^Cannot deserialize object of type `CustomLayer`\. "
                                        r"If `CustomLayer` is a custom class, please register "
                                        r"it using the `@keras\.saving\."
                                        r"register_keras_serializable\(\)` decorator\.$"):
        tf.keras.models.load_model(path)
    loaded = tf.keras.models.load_model(path, custom_objects={"CustomLayer": CustomLayer})
    assert type(loaded.layers[-1]) is CustomLayer
    assert [w.name for w in loaded.weights] == ["cl/w:0"]


def test_h5_with_unregistered_class_still_raises_value_error(tmp_path):
    path = str(tmp_path / "c.h5")
    _model().save(path)
    with pytest.raises(ValueError, match="Unknown layer: 'CustomLayer'"):
        tf.keras.models.load_model(path)
    # the archive's TypeError does not leak into later loads of other formats
    tf.keras.models.load_model(path, custom_objects={"CustomLayer": CustomLayer})
    with pytest.raises(ValueError, match="Unknown layer"):
        tf.keras.layers.deserialize({"class_name": "CustomLayer", "config": {}})


def test_h5_of_an_untrained_optimizer_loads_its_state_without_warning(tmp_path, caplog):
    # tf_keras 2.21 pairs the saved optimizer weights with the built optimizer's in order:
    # an Adam saved before its first step holds only its iteration count, which loads
    # without the "Error in loading the saved optimizer state" warning.
    import numpy as np
    m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)])
    m.compile("adam", "mse")
    m.optimizer.iterations.assign(7)
    path = str(tmp_path / "b.h5")
    m.save(path)
    with caplog.at_level("WARNING"):
        loaded = tf.keras.models.load_model(path)
    assert "optimizer state" not in caplog.text
    assert int(loaded.optimizer.iterations) == 7
    m.fit(np.ones((2, 4)), np.ones((2, 3)), verbose=0)
    m.save(path)
    loaded = tf.keras.models.load_model(path)
    assert [v.numpy().tolist() for v in loaded.optimizer.variables] == \
        [v.numpy().tolist() for v in m.optimizer.variables]


@tf.keras.utils.register_keras_serializable(package="probe_sm")
class _Registered(tf.keras.Model):
    def __init__(self, units=4, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = tf.keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)

    def get_config(self):
        return {"units": self.units}


def test_registered_subclassed_model_builds_from_tf_keras_build_input_shape(tmp_path):
    # tf_keras's keras_metadata gives the build shape only as build_input_shape, a
    # TensorShape in its JSON form (TF 2.21 writes {"class_name": "TensorShape", ...})
    import json
    import numpy as np
    from tests.internals import fingerprinting
    pb = fingerprinting.pb
    model = _Registered(3)
    x = np.ones((8, 2), np.float32)
    expected = model(x).numpy()
    path = tmp_path / "sm"
    model.save(path)
    metadata_path = path / "keras_metadata.pb"
    metadata = pb.KerasSavedMetadata.FromString(metadata_path.read_bytes())
    root = json.loads(metadata.nodes[0].metadata)
    root.pop("build_config", None)
    root["build_input_shape"] = {"class_name": "TensorShape", "items": [8, 2]}
    metadata.nodes[0].metadata = json.dumps(root)
    metadata_path.write_bytes(metadata.SerializeToString())
    loaded = tf.keras.models.load_model(path)
    assert type(loaded) is _Registered and loaded.units == 3
    np.testing.assert_allclose(loaded(x).numpy(), expected, rtol=1e-6)


class _MeanTracking(tf.keras.layers.Layer):
    def call(self, x):
        self.add_metric(tf.reduce_mean(x), name="mean_in")
        return x * 2.0


def test_layer_with_add_metric_saves_its_metric_with_the_call_functions(tmp_path):
    # the call functions update the metric's variables: the SavedModel tracks the metric
    # through the model's ``keras_api``, as tf_keras does
    inp = tf.keras.Input((3,))
    model = tf.keras.Model(inp, _MeanTracking(name="mt")(inp))
    model(tf.ones((2, 3)))
    tf.saved_model.save(model, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert loaded(tf.ones((1, 3))).numpy().tolist() == [[2.0, 2.0, 2.0]]
    assert [n for n, _ in tf.train.list_variables(str(tmp_path / "m" / "variables" / "variables"))
            if "total" in n or "count" in n] == [
        "keras_api/metrics/0/count/.ATTRIBUTES/VARIABLE_VALUE",
        "keras_api/metrics/0/total/.ATTRIBUTES/VARIABLE_VALUE"]


def test_functional_savedmodel_with_unknown_layer_class_revives_it(tmp_path):
    # tf_keras 2.21: a functional SavedModel whose layer class is not known where it loads
    # revives that layer from its saved functions, its config as saved (it raised TypeError)
    inputs = tf.keras.Input((4,), name="x")
    model = tf.keras.Model(inputs, CustomLayer(3, name="cl")(inputs))
    path = str(tmp_path / "sm")
    model.save(path)
    x = np.ones((2, 4), "float32")
    loaded = tf.keras.models.load_model(path)  # (CustomLayer is registered nowhere)
    layer = loaded.get_layer("cl")
    assert not isinstance(layer, CustomLayer)
    assert layer.get_config()["units"] == 3
    np.testing.assert_array_equal(loaded(x).numpy(), np.full((2, 3), 4.0))


def test_sequential_savedmodel_with_unknown_layer_class_revives_each_layer_once(tmp_path):
    # tf_keras 2.21: layers ['cl', 'd'], weights ['cl/w:0', 'd/kernel:0', 'd/bias:0'], and
    # fit trains them all (each layer was revived twice: its weights too, some untrained)
    model = tf.keras.Sequential([tf.keras.Input((4,)), CustomLayer(3, name="cl"),
                                 tf.keras.layers.Dense(1, kernel_initializer="ones",
                                                       name="d")])
    model.compile("sgd", "mse")
    path = str(tmp_path / "sm")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert [layer.name for layer in loaded.layers] == ["cl", "d"]
    assert [w.name for w in loaded.weights] == ["cl/w:0", "d/kernel:0", "d/bias:0"]
    x = np.ones((2, 4), "float32")
    np.testing.assert_array_equal(loaded(x).numpy(), [[12.0], [12.0]])
    loaded.fit(x, np.zeros((2, 1), "float32"), verbose=0)
    assert not np.array_equal(loaded.get_layer("d").weights[0].numpy(), np.ones((3, 1)))
    assert not np.array_equal(loaded.get_layer("cl").weights[0].numpy(), np.ones((4, 3)))


def test_tf_functional_savedmodel_of_custom_objects_loads_with_and_without_them():
    """TF's SavedModel of programs.custom_functional_model (make_tf_savedmodels.py
    custom_functional): given its custom objects, and without them (the layers of unknown
    classes revived, the functional graph rebuilt around them: its input layer, inputs and
    outputs, as tf_keras gives), it reports and computes what TF's loads did."""
    import json
    import os
    from tests.saved_model.programs import custom_functional_model, custom_functional_results
    data = os.path.join(os.path.dirname(__file__), "data")
    with open(os.path.join(data, "tf_outputs.json")) as f:
        expected = json.load(f)["tf_keras_custom_functional"]
    path = os.path.join(data, "tf_keras_custom_functional")
    x = np.array(expected["x"], np.float32)
    _, _, custom = custom_functional_model(tf, 0)
    for key, model in (("with_custom_objects",
                        tf.keras.models.load_model(path, custom_objects=custom)),
                       ("revived", tf.keras.models.load_model(path))):
        got = custom_functional_results(tf, model, x)
        want = expected[key]
        assert got["layers"] == want["layers"], key
        assert (got["inputs"], got["outputs"]) == (want["inputs"], want["outputs"]), key
        np.testing.assert_allclose(got["predict"], want["predict"], rtol=1e-5, err_msg=key)
        np.testing.assert_allclose(got["evaluate"], want["evaluate"], rtol=1e-5, err_msg=key)
