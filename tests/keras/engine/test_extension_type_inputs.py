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


def test_an_extension_type_without_a_shape_is_no_keras_input():
    class Masked(tf.experimental.ExtensionType):
        values: tf.Tensor
    with pytest.raises(ValueError, match="KerasTensor only supports TypeSpecs that have a "
                                         "shape field; got Masked.Spec, which does not have "
                                         "a shape."):
        tf.keras.Input(type_spec=Masked.Spec(values=tf.TensorSpec([None])))
