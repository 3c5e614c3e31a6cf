"""SavedModels of functions taking and returning extension types that name themselves
(``__name__``), recorded as TF records them (EXTENSION_TYPE_SPEC by registered name)."""
import typing

import pytest

import eagerflow as tf
from tests.internals import saved_model_structure as structure


class _Inner(tf.experimental.ExtensionType):
    x: tf.Tensor
    __name__ = "ef_tests.Inner"


class _Network(tf.experimental.ExtensionType):
    shape: tf.TensorShape
    work: tf.Tensor
    inner: _Inner
    label: str = "a"
    sizes: typing.Tuple[int, ...] = (1, 2)
    __name__ = "ef_tests.Network"


class _Module(tf.Module):
    def __init__(self):
        self.v = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def make(self, w):
        return _Network(tf.TensorShape([]), w * self.v, _Inner(w))

    @tf.function
    def scale(self, net):
        return _Network(net.shape, net.work * self.v, net.inner, net.label)


def test_extension_types_round_trip_through_a_saved_model(tmp_path):
    m = _Module()
    net = _Network(tf.TensorShape([]), tf.constant([1.0, 2.0]), _Inner(tf.constant([3.0])), "b")
    m.scale(net)
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    out = loaded.make(tf.constant([1.0, 2.0]))
    assert type(out) is _Network and out.work.numpy().tolist() == [2.0, 4.0]
    assert out.inner.x.numpy().tolist() == [1.0, 2.0] and out.sizes == (1, 2)
    out = loaded.scale(net)
    assert out.label == "b" and out.work.numpy().tolist() == [2.0, 4.0]
    result = loaded.signatures["serving_default"](w=tf.constant([1.0]))
    assert list(result) == ["output_0"] and type(result["output_0"]) is _Network


def test_the_spec_is_recorded_by_its_registered_name():
    spec = _Network.Spec(shape=tf.TensorShape([]), work=tf.TensorSpec([None], tf.float32),
                         inner=_Inner.Spec(x=tf.TensorSpec([None], tf.float32)), label="a",
                         sizes=(1, 2))
    proto = structure.encode(spec).type_spec_value
    assert proto.type_spec_class_name == "ef_tests.Network.Spec"
    assert proto.num_flat_components == 2
    assert structure.decode(structure.encode(spec)) == spec


def test_an_unnamed_extension_type_cannot_be_saved(tmp_path):
    class Unnamed(tf.experimental.ExtensionType):
        values: tf.Tensor

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def g(self, w):
            return Unnamed(w)
    with pytest.raises(ValueError, match="Unable to save the outputs of function"):
        tf.saved_model.save(M(), str(tmp_path))
