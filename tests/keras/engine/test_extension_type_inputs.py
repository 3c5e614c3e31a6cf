"""Extension types as the inputs and outputs of Keras functional and Sequential models
(``tf.keras.Input(type_spec=...)``), as the extension types guide uses them (expected
texts from TF 2.21 / tf_keras)."""
import pytest

import eagerflow as tf


class Network(tf.experimental.ExtensionType):
    shape: tf.TensorShape
    work: tf.Tensor
    bandwidth: tf.Tensor

    def __init__(self, work, bandwidth):
        self.work = tf.convert_to_tensor(work)
        self.bandwidth = tf.convert_to_tensor(bandwidth)
        self.shape = self.work.shape[:-1].merge_with(self.bandwidth.shape[:-2])


class Double(tf.keras.layers.Layer):
    def call(self, network):
        return Network(network.work * 2.0, network.bandwidth)


SPEC = Network.Spec(shape=None, work=tf.TensorSpec(None, tf.float32),
                    bandwidth=tf.TensorSpec(None, tf.float32))
NET = Network([5.0, 3, 8], [[0.0, 2, 0], [2, 0, 3], [0, 3, 0]])


def test_functional_and_sequential_models_of_extension_types():
    x = tf.keras.Input(type_spec=SPEC)
    model = tf.keras.Model(x, Double()(x))
    out = model(NET)
    assert type(out) is Network and out.work.numpy().tolist() == [10.0, 6.0, 16.0]
    model = tf.keras.Sequential([tf.keras.layers.Input(type_spec=SPEC), Double()])
    out = model(NET)
    assert type(out) is Network and out.work.numpy().tolist() == [10.0, 6.0, 16.0]


def test_symbolic_extension_type_prints_as_a_keras_tensor():
    x = tf.keras.Input(type_spec=SPEC, name="net")
    spec = ("Network.Spec(shape=TensorShape(None), work=TensorSpec(shape=<unknown>, "
            "dtype=tf.float32, name=None), bandwidth=TensorSpec(shape=<unknown>, "
            "dtype=tf.float32, name=None))")
    assert str(x) == f"KerasTensor(type_spec={spec}, description=\"created by layer 'net'\")"
    assert repr(x) == f"<KerasTensor: type_spec={spec} (created by layer 'net')>"
    y = Double(name="double")(x)
    assert str(y).endswith("description=\"created by layer 'double'\")")
    assert x.type_spec == SPEC and y.type_spec == SPEC


def test_an_extension_type_without_a_shape_is_no_keras_input():
    class Masked(tf.experimental.ExtensionType):
        values: tf.Tensor
    with pytest.raises(ValueError, match="KerasTensor only supports TypeSpecs that have a "
                                         "shape field; got Masked.Spec, which does not have "
                                         "a shape."):
        tf.keras.Input(type_spec=Masked.Spec(values=tf.TensorSpec([None])))


class Masked(tf.experimental.BatchableExtensionType):
    __name__ = "tests.keras.extension_type_inputs.Masked"  # (so a SavedModel can hold it)
    values: tf.Tensor
    mask: tf.Tensor
    shape = property(lambda self: self.values.shape)
    dtype = property(lambda self: self.values.dtype)

    def with_default(self, default):
        return tf.where(self.mask, self.values, default)

    class Spec:
        shape = property(lambda self: self.values.shape)
        dtype = property(lambda self: self.values.dtype)

        def with_shape(self, shape):
            return Masked.Spec(tf.TensorSpec(shape, self.values.dtype),
                               tf.TensorSpec(shape, self.mask.dtype))


def test_fit_evaluate_and_predict_take_extension_type_data():
    # (batched as a dataset of their rows, as SparseTensors are)
    x = Masked([[1., -2., 3.], [4., 5., 6.]], [[True, False, True], [True, True, False]])
    inp = tf.keras.Input(type_spec=Masked.Spec(tf.TensorSpec([None, 3], tf.float32),
                                               tf.TensorSpec([None, 3], tf.bool)))
    masked = tf.keras.layers.Lambda(lambda m: m.with_default(0.))(inp)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(2, kernel_initializer="ones")(masked))
    assert model.predict(x, verbose=0).tolist() == [[4., 4.], [9., 9.]]
    assert model.predict(x, batch_size=1, verbose=0).tolist() == [[4., 4.], [9., 9.]]
    model.compile("sgd", "mse")
    assert model.evaluate(x, tf.ones([2, 2]), verbose=0) == 36.5
    assert model.fit(x, tf.ones([2, 2]), verbose=0).history["loss"] == [36.5]


class MaskedDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = tf.keras.layers.Dense(units, kernel_initializer="ones")

    def call(self, x):
        return self.dense(x.with_default(0.))

    def get_config(self):
        return dict(super().get_config(), units=self.units)


def _masked_model():
    inp = tf.keras.Input(type_spec=Masked.Spec(tf.TensorSpec([None, 3], tf.float32),
                                               tf.TensorSpec([None, 3], tf.bool)))
    return tf.keras.Model(inp, MaskedDense(2)(inp))


def test_an_extension_type_input_is_configured_by_its_spec():
    config = _masked_model().get_config()["layers"][0]["config"]

    def tensor_spec(dtype):
        return {"class_name": "__typespec__", "spec_name": "TensorSpec",
                "module": "tensorflow.python.framework.tensor",
                "config": [[None, 3], dtype, None], "registered_name": None}

    # TF 2.21 / tf_keras: the layer's name and its serialized spec, nothing else
    assert config == {"name": config["name"], "type_spec": {
        "class_name": "__typespec__", "spec_name": "Masked.Spec", "module": __name__,
        "config": {"values": tensor_spec("float32"), "mask": tensor_spec("bool")},
        "registered_name": "Masked.Spec"}}


@pytest.mark.parametrize("how", ["config", "keras", "tf", "h5"])
def test_a_model_of_extension_type_inputs_is_rebuilt_from_its_config(how, tmp_path):
    model = _masked_model()
    x = Masked([[1., -2., 3.]], [[True, False, True]])
    custom = {"MaskedDense": MaskedDense}
    if how == "config":
        rebuilt = tf.keras.Model.from_config(model.get_config(), custom_objects=custom)
    else:
        path = str(tmp_path / ("m" if how == "tf" else f"m.{how}"))
        model.save(path, save_format="tf" if how == "tf" else None)
        rebuilt = tf.keras.models.load_model(path, custom_objects=custom, compile=False)
    assert rebuilt.layers[0].get_config()["type_spec"] == model.layers[0].get_config()[
        "type_spec"]
    assert rebuilt(x).numpy().tolist() == [[4., 4.]]


def test_an_input_of_a_named_tensor_spec_takes_its_name():
    x = tf.keras.Input(type_spec=tf.TensorSpec([None, 3], name="features"))
    assert x.name == "features" and x._keras_history.layer.name == "features"
    y = tf.keras.Input(name="given", type_spec=tf.TensorSpec([None, 3], name="features"))
    assert y._keras_history.layer.name == "given"  # (an explicit name wins)
    assert tf.keras.Input(type_spec=tf.TensorSpec([None, 3])).name.startswith("input_")
