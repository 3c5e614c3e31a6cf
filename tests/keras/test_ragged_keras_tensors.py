"""Ragged Keras tensors in functional models, as tf_keras 2.21 builds them: TF functions and
operators make `TFOpLambda` layers, row-partition properties and methods make
`InstanceProperty` / `InstanceMethod` layers, factories make `ClassMethod` layers."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _rt():
    return tf.ragged.constant([[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]])


def _layers(model):
    return [f"{type(layer).__name__}:{layer.name}" for layer in model.layers[1:]]


def test_map_flat_values_of_a_ragged_input_makes_the_op_a_layer():
    inp = keras.Input(shape=(None,), ragged=True)
    out = tf.ragged.map_flat_values(tf.math.square, inp)
    assert str(out) == ("KerasTensor(type_spec=RaggedTensorSpec(TensorShape([None, None]), "
                        "tf.float32, 1, tf.int64), description=\"created by layer "
                        "'tf.math.square'\")")
    model = keras.Model(inp, out)
    assert _layers(model) == ["TFOpLambda:tf.math.square"]
    assert model(_rt()).to_list() == [[1.0, 4.0], [9.0], [16.0, 25.0, 36.0]]
    scaled = tf.ragged.map_flat_values(tf.multiply, inp, 3.0)
    assert keras.Model(inp, scaled)(_rt()).to_list() == [[3.0, 6.0], [9.0], [12.0, 15.0, 18.0]]


def test_map_flat_values_of_a_dense_layer_on_a_ragged_input():
    inp = keras.Input(shape=(None, 2), ragged=True)
    assert inp.ragged_rank == 1  # ragged up to its last unknown axis, as tf_keras's
    x = tf.ragged.map_flat_values(keras.layers.Dense(3, kernel_initializer="ones"), inp)
    assert type(x).__name__ == "RaggedKerasTensor" and x.shape.as_list() == [None, None, 3]
    model = keras.Model(inp, tf.reduce_mean(x, axis=1))
    assert _layers(model) == ["Dense:dense", "TFOpLambda:tf.math.reduce_mean"]
    value = tf.ragged.constant([[[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]]], ragged_rank=1)
    np.testing.assert_array_equal(model(value), [[3.0] * 3, [9.0] * 3])


@pytest.mark.parametrize("make, layers, expected", [
    (lambda x: x - 1, ["TFOpLambda:tf.math.subtract"], [[0.0, 1.0], [2.0], [3.0, 4.0, 5.0]]),
    (lambda x: x * 2, ["TFOpLambda:tf.math.multiply"], [[2.0, 4.0], [6.0], [8.0, 10.0, 12.0]]),
    (lambda x: x + x, ["TFOpLambda:tf.math.add"], [[2.0, 4.0], [6.0], [8.0, 10.0, 12.0]]),
    (lambda x: -x, ["TFOpLambda:tf.math.negative"], [[-1.0, -2.0], [-3.0], [-4.0, -5.0, -6.0]]),
    (lambda x: x // 2, ["TFOpLambda:tf.compat.v1.floor_div"], [[0.0, 1.0], [1.0], [2.0, 2.0, 3.0]]),
    (lambda x: x[:, :1], ["SlicingOpLambda:tf.__operators__.ragged_getitem"],
     [[1.0], [3.0], [4.0]]),
    (lambda x: tf.ragged.boolean_mask(x, x > 2),
     ["TFOpLambda:tf.math.greater", "TFOpLambda:tf.ragged.boolean_mask"],
     [[], [3.0], [4.0, 5.0, 6.0]]),
    (lambda x: tf.concat([x, x], axis=1), ["TFOpLambda:tf.concat"],
     [[1.0, 2.0, 1.0, 2.0], [3.0, 3.0], [4.0, 5.0, 6.0, 4.0, 5.0, 6.0]]),
    (lambda x: x.with_flat_values(x.flat_values * 2),
     ["InstanceProperty:input.flat_values", "TFOpLambda:tf.math.multiply",
      "InstanceMethod:input.with_flat_values"], [[2.0, 4.0], [6.0], [8.0, 10.0, 12.0]]),
    (lambda x: tf.RaggedTensor.from_row_lengths(x.flat_values, x.row_lengths()),
     ["InstanceProperty:input.flat_values", "InstanceMethod:input.row_lengths",
      "ClassMethod:tf.RaggedTensor.from_row_lengths"], [[1.0, 2.0], [3.0], [4.0, 5.0, 6.0]]),
])
def test_ragged_outputs_of_operators_functions_and_methods(make, layers, expected):
    inp = keras.Input(shape=(None,), ragged=True)
    out = make(inp)
    assert type(out).__name__ == "RaggedKerasTensor"
    assert repr(out).startswith("<KerasTensor: type_spec=RaggedTensorSpec(")
    model = keras.Model(inp, out)
    assert _layers(model) == layers
    assert model(_rt()).to_list() == expected


@pytest.mark.parametrize("make, layer, expected", [
    (lambda x: x.flat_values, "InstanceProperty:input.flat_values", [1, 2, 3, 4, 5, 6]),
    (lambda x: x.values, "InstanceProperty:input.values", [1, 2, 3, 4, 5, 6]),
    (lambda x: x.row_lengths(), "InstanceMethod:input.row_lengths", [2, 1, 3]),
    (lambda x: x.nrows(), "InstanceMethod:input.nrows", 3),
    (lambda x: x.bounding_shape(), "InstanceMethod:input.bounding_shape", [3, 3]),
    (lambda x: x.to_tensor(default_value=-1.0), "InstanceMethod:input.to_tensor",
     [[1, 2, -1], [3, -1, -1], [4, 5, 6]]),
    (lambda x: tf.reduce_sum(x, axis=1), "TFOpLambda:tf.math.reduce_sum", [3, 3, 15]),
])
def test_dense_outputs_of_ragged_inputs(make, layer, expected):
    inp = keras.Input(shape=(None,), ragged=True)
    out = make(inp)
    assert f"created by layer '{layer.split(':')[1]}'" in repr(out)
    model = keras.Model(inp, out)
    assert _layers(model) == [layer]
    np.testing.assert_array_equal(model(_rt()), expected)


def test_a_ragged_model_is_rebuilt_from_its_config():
    inp = keras.Input(shape=(None,), ragged=True)
    out = inp.with_flat_values(tf.math.square(inp.flat_values)).to_tensor()
    model = keras.Model(inp, out)
    clone = keras.Model.from_config(model.get_config())
    np.testing.assert_array_equal(clone(_rt()), model(_rt()))
    np.testing.assert_array_equal(clone(_rt()), [[1, 4, 0], [9, 0, 0], [16, 25, 36]])


def test_ragged_tensors_inside_a_layer_call_are_plain_ragged_tensors():
    class RowSums(keras.layers.Layer):
        def call(self, x):
            return tf.math.unsorted_segment_sum(x.flat_values, x.value_rowids(), x.nrows())

    inp = keras.Input(shape=(None,), ragged=True)
    model = keras.Model(inp, RowSums()(inp))
    assert _layers(model) == ["RowSums:row_sums"]
    np.testing.assert_array_equal(model(_rt()), [3.0, 3.0, 15.0])


def test_a_ragged_shape_cannot_be_a_keras_tensor():
    inp = keras.Input(shape=(None,), ragged=True)
    with pytest.raises(ValueError, match="KerasTensor only supports TypeSpecs that have a shape "
                                         "field; got DynamicRaggedShape.Spec, which does not "
                                         "have a shape."):
        tf.shape(inp)
