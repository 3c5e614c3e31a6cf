"""TF functions and operators applied to Keras tensors become `TFOpLambda` layers.

The expected names, summaries and configs are what tf_keras 2.21 prints for the same
programs.
"""
import ast
import contextlib
import inspect
import io
import json
import os
import sys

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import dispatch, registry

keras = tf.keras


def _summary(model, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.summary(**kwargs)
    return out.getvalue()


def _outputs(model, data):
    return [np.asarray(t) for t in tf.nest.flatten(model(data))]


def _x():
    return keras.Input((3, 4))


def _bools():
    return keras.Input((3,), dtype="bool")


def _ints():
    return keras.Input((3,), dtype="int32")


@pytest.mark.parametrize("make, apply, name, class_name", [
    (_x, lambda x: x / 255.0, "tf.math.truediv", "TFOpLambda"),
    (_x, lambda x: 1.0 / x, "tf.math.truediv", "TFOpLambda"),
    (_x, lambda x: x + 1, "tf.__operators__.add", "TFOpLambda"),
    (_x, lambda x: 2 + x, "tf.__operators__.add", "TFOpLambda"),
    (_x, lambda x: x - 1, "tf.math.subtract", "TFOpLambda"),
    (_x, lambda x: x * 2, "tf.math.multiply", "TFOpLambda"),
    (_x, lambda x: x // 2, "tf.compat.v1.floor_div", "TFOpLambda"),
    (_x, lambda x: x % 2, "tf.math.floormod", "TFOpLambda"),
    (_x, lambda x: x ** 2, "tf.math.pow", "TFOpLambda"),
    (_x, lambda x: -x, "tf.math.negative", "TFOpLambda"),
    (_x, lambda x: abs(x), "tf.math.abs", "TFOpLambda"),
    (_x, lambda x: x > 0, "tf.math.greater", "TFOpLambda"),
    (_x, lambda x: x <= 1, "tf.math.less_equal", "TFOpLambda"),
    (_x, lambda x: x == x, "tf.__operators__.eq", "TFOpLambda"),
    (_x, lambda x: x != 1.0, "tf.__operators__.ne", "TFOpLambda"),
    (_x, lambda x: x @ tf.ones((4, 2)), "tf.linalg.matmul", "TFOpLambda"),
    (_x, lambda x: x[:, 0], "tf.__operators__.getitem", "SlicingOpLambda"),
    (_bools, lambda b: b & b, "tf.math.logical_and", "TFOpLambda"),
    (_bools, lambda b: ~b, "tf.math.logical_not", "TFOpLambda"),
    (_ints, lambda i: i & i, "tf.bitwise.bitwise_and", "TFOpLambda"),
    (_x, tf.nn.relu, "tf.nn.relu", "TFOpLambda"),
    (_x, tf.sigmoid, "tf.math.sigmoid", "TFOpLambda"),
    (_x, tf.nn.softmax, "tf.nn.softmax", "TFOpLambda"),
    (_x, tf.math.softmax, "tf.nn.softmax", "TFOpLambda"),
    (_x, tf.nn.swish, "tf.nn.silu", "TFOpLambda"),
    (_x, tf.nn.gelu, "tf.nn.gelu", "TFOpLambda"),
    (_x, lambda x: tf.nn.l2_normalize(x, axis=-1), "tf.math.l2_normalize", "TFOpLambda"),
    (_x, lambda x: tf.concat([x, x], -1), "tf.concat", "TFOpLambda"),
    (_x, lambda x: tf.stack([x, x], 1), "tf.stack", "TFOpLambda"),
    (_x, lambda x: tf.reshape(x, (-1, 12)), "tf.reshape", "TFOpLambda"),
    (_x, lambda x: tf.expand_dims(x, 1), "tf.expand_dims", "TFOpLambda"),
    (_x, lambda x: tf.squeeze(x[:, :1], 1), "tf.compat.v1.squeeze", "TFOpLambda"),
    (_x, lambda x: tf.transpose(x, [0, 2, 1]), "tf.compat.v1.transpose", "TFOpLambda"),
    (_x, lambda x: tf.cast(x, "int32"), "tf.cast", "TFOpLambda"),
    (_x, lambda x: tf.reduce_mean(x, axis=1), "tf.math.reduce_mean", "TFOpLambda"),
    (_x, tf.reduce_sum, "tf.math.reduce_sum", "TFOpLambda"),
    (_x, lambda x: tf.matmul(x, x, transpose_b=True), "tf.linalg.matmul", "TFOpLambda"),
    (_x, lambda x: tf.where(x > 0, x, 0.0), "tf.where", "TFOpLambda"),
    (_x, tf.shape, "tf.compat.v1.shape", "TFOpLambda"),
    (_x, lambda x: tf.math.mod(x, 2.0), "tf.math.floormod", "TFOpLambda"),
    (_x, lambda x: tf.math.floordiv(x, 2.0), "tf.compat.v1.floor_div", "TFOpLambda"),
    (_x, lambda x: tf.divide(x, 2.0), "tf.math.truediv", "TFOpLambda"),
    (_x, lambda x: tf.add(x, 1.0), "tf.math.add", "TFOpLambda"),
    (_x, lambda x: tf.einsum("bij,bkj->bik", x, x), "tf.einsum", "TFOpLambda"),
    (_x, lambda x: tf.linalg.einsum("bij,bkj->bik", x, x), "tf.einsum", "TFOpLambda"),
    (_x, lambda x: tf.tensordot(x, tf.ones((4, 2)), 1), "tf.tensordot", "TFOpLambda"),
    (_x, lambda x: tf.norm(x, axis=-1), "tf.compat.v1.norm", "TFOpLambda"),
    (_x, lambda x: tf.gather(x, [0, 2], axis=1), "tf.compat.v1.gather", "TFOpLambda"),
    (_x, lambda x: tf.pad(x, [[0, 0], [1, 1], [0, 0]]), "tf.compat.v1.pad", "TFOpLambda"),
    (_x, lambda x: tf.split(x, 2, axis=2), "tf.split", "TFOpLambda"),
    (_x, lambda x: tf.nn.top_k(x, 2), "tf.math.top_k", "TFOpLambda"),
    (_x, lambda x: tf.clip_by_value(x, 0.0, 1.0), "tf.clip_by_value", "TFOpLambda"),
])
def test_calls_are_layers_named_as_tf_keras_names_them(make, apply, name, class_name):
    keras.backend.clear_session()
    out = tf.nest.flatten(apply(make()))[0]
    layer = out.node.layer
    assert (layer.name, type(layer).__name__) == (name, class_name)
    assert layer.get_config() == {"name": name, "trainable": True, "dtype": "float32",
                                  "function": name[3:]}
    assert layer.count_params() == 0 and not layer.weights


def test_keras_tensors_name_their_layer():
    keras.backend.clear_session()
    y = keras.Input((3,)) / 255.0
    assert repr(y) == ("<KerasTensor: shape=(None, 3) dtype=float32 (created by layer "
                       "'tf.math.truediv')>")
    assert str(y) == ("KerasTensor(type_spec=TensorSpec(shape=(None, 3), dtype=tf.float32, "
                      "name=None), name='tf.math.truediv/truediv:0', description=\"created by "
                      "layer 'tf.math.truediv'\")")
    assert (y / 2).node.layer.name == "tf.math.truediv_1"


def _mnist():
    keras.backend.clear_session()
    inputs = keras.Input((28, 28))
    x = inputs / 255.0
    x = keras.layers.Flatten()(x)
    x = keras.layers.Dense(128, activation="relu")(x)
    return keras.Model(inputs, keras.layers.Dense(10)(x))


def test_summary_of_a_sequential_like_model():
    model = _mnist()
    assert [type(layer).__name__ for layer in model.layers] == [
        "InputLayer", "TFOpLambda", "Flatten", "Dense", "Dense"]
    assert model.count_params() == 101770
    assert _summary(model) == """\
Model: "model"
_________________________________________________________________
 Layer (type)                Output Shape              Param #   
=================================================================
 input_1 (InputLayer)        [(None, 28, 28)]          0         
                                                                 
 tf.math.truediv (TFOpLambd  (None, 28, 28)            0         
 a)                                                              
                                                                 
 flatten (Flatten)           (None, 784)               0         
                                                                 
 dense (Dense)               (None, 128)               100480    
                                                                 
 dense_1 (Dense)             (None, 10)                1290      
                                                                 
=================================================================
Total params: 101770 (397.54 KB)
Trainable params: 101770 (397.54 KB)
Non-trainable params: 0 (0.00 Byte)
_________________________________________________________________
"""


def _gated():
    keras.backend.clear_session()
    a, b = keras.Input((8,), name="a"), keras.Input((8,), name="b")
    h = keras.layers.Dense(16, name="hidden")(tf.concat([a, b], axis=-1))
    s1, s2 = tf.split(h, 2, axis=-1)
    g = tf.nn.relu(s1) * tf.sigmoid(s2)
    m = tf.reduce_mean(g, axis=-1, keepdims=True)
    return keras.Model([a, b], [keras.layers.Dense(1, name="out")(g - m), g[:, 0]])


def test_summary_of_a_branching_model():
    assert _summary(_gated()) == """\
Model: "model"
__________________________________________________________________________________________________
 Layer (type)                Output Shape                 Param #   Connected to                  
==================================================================================================
 a (InputLayer)              [(None, 8)]                  0         []                            
                                                                                                  
 b (InputLayer)              [(None, 8)]                  0         []                            
                                                                                                  
 tf.concat (TFOpLambda)      (None, 16)                   0         ['a[0][0]',                   
                                                                     'b[0][0]']                   
                                                                                                  
 hidden (Dense)              (None, 16)                   272       ['tf.concat[0][0]']           
                                                                                                  
 tf.split (TFOpLambda)       [(None, 8),                  0         ['hidden[0][0]']              
                              (None, 8)]                                                          
                                                                                                  
 tf.nn.relu (TFOpLambda)     (None, 8)                    0         ['tf.split[0][0]']            
                                                                                                  
 tf.math.sigmoid (TFOpLambd  (None, 8)                    0         ['tf.split[0][1]']            
 a)                                                                                               
                                                                                                  
 tf.math.multiply (TFOpLamb  (None, 8)                    0         ['tf.nn.relu[0][0]',          
 da)                                                                 'tf.math.sigmoid[0][0]']     
                                                                                                  
 tf.math.reduce_mean (TFOpL  (None, 1)                    0         ['tf.math.multiply[0][0]']    
 ambda)                                                                                           
                                                                                                  
 tf.math.subtract (TFOpLamb  (None, 8)                    0         ['tf.math.multiply[0][0]',    
 da)                                                                 'tf.math.reduce_mean[0][0]'] 
                                                                                                  
 out (Dense)                 (None, 1)                    9         ['tf.math.subtract[0][0]']    
                                                                                                  
 tf.__operators__.getitem (  (None,)                      0         ['tf.math.multiply[0][0]']    
 SlicingOpLambda)                                                                                 
                                                                                                  
==================================================================================================
Total params: 281 (1.10 KB)
Trainable params: 281 (1.10 KB)
Non-trainable params: 0 (0.00 Byte)
__________________________________________________________________________________________________
"""


def test_summary_with_a_long_line_and_inputs_of_different_depths():
    keras.backend.clear_session()
    x = keras.Input((4, 6), name="tokens")
    att = tf.matmul(keras.layers.Dense(6, name="q")(x), x, transpose_b=True) / tf.sqrt(6.0)
    y = keras.layers.LayerNormalization(name="ln")(x + tf.matmul(tf.nn.softmax(att), x))
    lines = _summary(keras.Model(x, tf.reshape(y, (-1, 24))), line_length=120).splitlines()
    assert lines[2] == (" Layer (type)                       Output Shape                        "
                        "Param #     Connected to                        ")
    assert lines[15:17] == [
        " tf.linalg.matmul_1 (TFOpLambda)    (None, 4, 6)                        0           "
        "['tf.nn.softmax[0][0]',             ",
        "                                                                                     "
        "'tokens[0][0]']                    "]
    keras.backend.clear_session()
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    out = keras.layers.Dense(1, name="out")(keras.layers.Dense(3, name="h")(a))
    model = keras.Model([a, b], [out, keras.layers.Dense(1, name="o2")(b)])
    assert [layer.name for layer in model.layers] == ["a", "h", "b", "out", "o2"]


def test_summary_with_a_trainable_column():
    keras.backend.clear_session()
    a, b = keras.Input((8,), name="a"), keras.Input((8,), name="b")
    h = tf.concat([a, b, a * 2.0, b - 1.0], axis=-1)
    lines = _summary(keras.Model([a, b], keras.layers.Dense(3, name="d")(h)),
                     show_trainable=True).splitlines()
    assert {len(line) for line in lines[1:-4]} == {109}
    assert lines[2].rstrip() == (" Layer (type)                Output Shape                 "
                                 "Param #   Connected to                  Trainable")
    assert [line.rstrip() for line in lines[8:18]] == [
        " tf.math.multiply (TFOpLamb  (None, 8)                    0         ['a[0][0]']"
        "                   Y",
        " da)",
        "",
        " tf.math.subtract (TFOpLamb  (None, 8)                    0         ['b[0][0]']"
        "                   Y",
        " da)",
        "",
        " tf.concat (TFOpLambda)      (None, 32)                   0         ['a[0][0]',"
        "                   Y",
        "                                                                     'b[0][0]',",
        "                                                                     "
        "'tf.math.multiply[0][0]',",
        "                                                                     "
        "'tf.math.subtract[0][0]']"]


def _ops_model():
    keras.backend.clear_session()
    x = keras.Input((28, 28), name="pixels")
    a = x / 255.0
    c = tf.concat([a, 2 - a], axis=-1)
    e = tf.reduce_mean(c[:, 0, ::2], axis=1)
    f = tf.reshape(a, (-1, 784))
    h = keras.layers.Dense(4, name="dense")(tf.where(f > 0.5, f, 0.0))
    return keras.Model(x, [e, tf.nn.softmax(h) * tf.cast(e[:, None] > 0.1, "float32")])


def test_config_holds_each_calls_arguments_as_tf_keras_does():
    model = _ops_model()
    config = json.loads(json.dumps(model.get_config()))
    slice_all = {"start": None, "stop": None, "step": None}
    assert {layer["name"]: layer["inbound_nodes"] for layer in config["layers"]} == {
        "pixels": [],
        "tf.math.truediv": [["pixels", 0, 0, {"y": 255.0, "name": None}]],
        "tf.math.subtract": [["_CONSTANT_VALUE", -1, 2.0,
                              {"y": ["tf.math.truediv", 0, 0], "name": None}]],
        "tf.concat": [[["tf.math.truediv", 0, 0, {"axis": -1}],
                       ["tf.math.subtract", 0, 0, {"axis": -1}]]],
        "tf.reshape": [["tf.math.truediv", 0, 0, {"shape": [-1, 784]}]],
        "tf.__operators__.getitem": [["tf.concat", 0, 0, {"slice_spec": [
            slice_all, 0, {"start": None, "stop": None, "step": 2}]}]],
        "tf.math.greater": [["tf.reshape", 0, 0, {"y": 0.5, "name": None}]],
        "tf.math.reduce_mean": [["tf.__operators__.getitem", 0, 0, {"axis": 1}]],
        "tf.where": [["tf.math.greater", 0, 0, {"x": ["tf.reshape", 0, 0], "y": 0.0}]],
        "dense": [[["tf.where", 0, 0, {}]]],
        "tf.__operators__.getitem_1": [["tf.math.reduce_mean", 0, 0,
                                        {"slice_spec": [slice_all, None]}]],
        "tf.math.greater_1": [["tf.__operators__.getitem_1", 0, 0, {"y": 0.1, "name": None}]],
        "tf.nn.softmax": [["dense", 0, 0, {}]],
        "tf.cast": [["tf.math.greater_1", 0, 0, {"dtype": "float32"}]],
        "tf.math.multiply": [["tf.nn.softmax", 0, 0, {"y": ["tf.cast", 0, 0], "name": None}]],
    }
    assert [layer["name"] for layer in config["layers"]] == [layer.name for layer in model.layers]
    assert [layer.name for layer in model.layers] == [
        "pixels", "tf.math.truediv", "tf.math.subtract", "tf.concat", "tf.__operators__.getitem",
        "tf.reshape", "tf.math.reduce_mean", "tf.math.greater", "tf.where",
        "tf.__operators__.getitem_1", "dense", "tf.math.greater_1", "tf.nn.softmax", "tf.cast",
        "tf.math.multiply"]
    assert config["input_layers"] == [["pixels", 0, 0]]
    assert config["output_layers"] == [["tf.math.reduce_mean", 0, 0], ["tf.math.multiply", 0, 0]]
    assert config["layers"][3]["class_name"] == "TFOpLambda"
    assert config["layers"][3]["config"] == {"name": "tf.concat", "trainable": True,
                                             "dtype": "float32", "function": "concat"}


@pytest.mark.parametrize("build", [_ops_model, _gated, _mnist])
def test_config_round_trip_and_clone_compute_the_same(build):
    model = build()
    config = json.loads(json.dumps(model.get_config()))
    data = [np.random.default_rng(0).random((2, *x.shape[1:])).astype("float32")
            for x in model.inputs]
    for clone in (keras.Model.from_config(config), keras.models.clone_model(model)):
        assert [(type(c).__name__, c.name) for c in clone.layers] == \
            [(type(m).__name__, m.name) for m in model.layers]
        assert json.loads(json.dumps(clone.get_config())) == config
        clone.set_weights(model.get_weights())
        for got, want in zip(_outputs(clone, data), _outputs(model, data)):
            np.testing.assert_allclose(got, want, rtol=1e-6)


def test_from_config_makes_calls_once_their_inputs_exist():
    model = _gated()
    config = model.get_config()
    config["layers"] = config["layers"][::-1]
    clone = keras.Model.from_config(config)
    clone.set_weights(model.get_weights())
    data = [np.ones((1, 8), "float32"), np.zeros((1, 8), "float32")]
    for got, want in zip(_outputs(clone, data), _outputs(model, data)):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    config["layers"] = [spec for spec in config["layers"] if spec["name"] != "hidden"]
    with pytest.raises(ValueError, match="is called on tensors that no layer of the config "
                                         "produces"):
        keras.Model.from_config(config)


def test_calls_keep_keyword_and_non_tensor_arguments():
    keras.backend.clear_session()
    q, v = keras.Input((4, 8), name="q"), keras.Input((4, 8), name="v")
    a = keras.layers.MultiHeadAttention(2, 4, name="mha")(q, v)
    b = keras.layers.MultiHeadAttention(2, 4, name="mha2")(q, value=v, key=v)
    c = keras.layers.Dropout(0.0, name="drop")(a, training=True)
    xs = [q, v]
    d = keras.layers.Dense(8, name="dense")(xs[1])
    e = keras.layers.Concatenate(name="cat")([c, b, d])
    model = keras.Model([q, v], keras.layers.BatchNormalization(name="bn")(e, False))
    config = json.loads(json.dumps(model.get_config()))
    assert {layer["name"]: layer["inbound_nodes"] for layer in config["layers"]} == {
        "q": [], "v": [],
        "mha": [[["q", 0, 0, {"value": ["v", 0, 0]}]]],
        "mha2": [[["q", 0, 0, {"value": ["v", 0, 0], "key": ["v", 0, 0]}]]],
        "drop": [[["mha", 0, 0, {"training": True}]]],
        "dense": [[["v", 0, 0, {}]]],
        "cat": [[["drop", 0, 0, {}], ["mha2", 0, 0, {}], ["dense", 0, 0, {}]]],
        "bn": [[["cat", 0, 0, {"training": False}]]],
    }
    clone = keras.Model.from_config(config)
    assert clone.get_layer("mha2")._inbound_nodes[0].call_kwargs.keys() == {"value", "key"}
    clone.set_weights(model.get_weights())
    data = [np.random.default_rng(1).random((2, 4, 8)).astype("float32") for _ in range(2)]
    np.testing.assert_allclose(_outputs(clone, data)[0], _outputs(model, data)[0], rtol=1e-5)


def test_one_layer_per_call_whatever_its_ops():
    keras.backend.clear_session()
    x = keras.Input((3,))
    n = tf.nn.l2_normalize(x, axis=-1)
    mean, variance = tf.nn.moments(x, axes=[1])
    assert mean.node is variance.node and mean.node.layer.name == "tf.nn.moments"
    assert [t._keras_history[2] for t in (mean, variance)] == [0, 1]
    model = keras.Model(x, [n, variance])
    assert [layer.name for layer in model.layers] == [
        "input_1", "tf.math.l2_normalize", "tf.nn.moments"]
    data = np.array([[1.0, 2.0, 2.0]], "float32")
    got_n, got_var = _outputs(model, data)
    np.testing.assert_allclose(got_n, [[1 / 3, 2 / 3, 2 / 3]], rtol=1e-6)
    np.testing.assert_allclose(got_var, [np.var([1.0, 2.0, 2.0])], rtol=1e-6)


def test_tensors_bounding_slices_are_inputs_of_the_slice():
    keras.backend.clear_session()
    x = keras.Input((5, 2), name="x")
    y = x[:, 1:tf.shape(x)[1] - 1]
    assert [t.node.layer.name for t in y.node.keras_inputs] == ["x", "tf.math.subtract"]
    model = keras.Model(x, y)
    config = json.loads(json.dumps(model.get_config()))
    assert config["layers"][-1]["inbound_nodes"] == [["x", 0, 0, {"slice_spec": [
        {"start": None, "stop": None, "step": None},
        {"start": 1, "stop": ["tf.math.subtract", 0, 0], "step": None}]}]]
    data = np.arange(20, dtype="float32").reshape(2, 5, 2)
    for m in (model, keras.Model.from_config(config)):
        np.testing.assert_array_equal(m(data).numpy(), data[:, 1:4])


def test_a_call_that_fails_leaves_no_node():
    keras.backend.clear_session()
    x = keras.Input((3, 4))
    with pytest.raises(ValueError, match="Invalid reduction dimension 5"):
        tf.nn.l2_normalize(x, axis=5)  # fails at its second op
    assert x.node.layer._outbound_nodes == []
    y = tf.nn.l2_normalize(x, axis=1)
    assert y.node.layer.name == "tf.math.l2_normalize_1"
    assert [layer.name for layer in keras.Model(x, y).layers] == [
        "input_1", "tf.math.l2_normalize_1"]


def test_ops_inside_layers_are_part_of_the_layer():
    class Scale(keras.layers.Layer):
        def call(self, inputs):
            return tf.nn.relu(inputs) * 2.0 + tf.reduce_mean(inputs)

    keras.backend.clear_session()
    x = keras.Input((3,))
    y = keras.layers.Lambda(lambda t: t[:, :2] / 2.0)(Scale()(x))
    assert [type(layer).__name__ for layer in keras.Model(x, y).layers] == [
        "InputLayer", "Scale", "Lambda"]


def test_the_model_replays_what_each_call_did():
    keras.backend.clear_session()
    x = keras.Input((3, 4))
    model = keras.Model(x, tf.norm(x, axis=-1) + tf.nn.moments(x, axes=[2])[1])
    data = np.random.default_rng(2).random((2, 3, 4)).astype("float32")
    want = np.linalg.norm(data, axis=-1) + np.var(data, axis=2)
    np.testing.assert_allclose(model(data).numpy(), want, rtol=1e-5)
    with tf.GradientTape() as tape:
        inputs = tf.constant(data)
        tape.watch(inputs)
        total = tf.reduce_sum(model(inputs))
    assert tape.gradient(total, inputs).shape == (2, 3, 4)


def test_calls_under_a_profiler_are_the_same_layers():
    seen = []

    def profiler(frame, event, arg):
        seen.append(event)

    keras.backend.clear_session()
    x = keras.Input((3,))
    sys.setprofile(profiler)
    try:
        y = tf.nn.relu(x) / 2.0
        mean, variance = tf.nn.moments(x, axes=[1])
    finally:
        assert sys.getprofile() is profiler
        sys.setprofile(None)
    assert seen
    assert [layer.name for layer in keras.Model(x, [y, variance]).layers] == [
        "input_1", "tf.nn.relu", "tf.math.truediv", "tf.nn.moments"]
    assert mean.node is variance.node


def test_an_op_no_public_function_made_fails_as_in_tf():
    keras.backend.clear_session()
    x = keras.Input((3,))
    with pytest.raises(TypeError, match=r"You are passing KerasTensor\(.*\), an intermediate "
                                        r"TF-Keras symbolic input/output, to a TF API that does "
                                        r"not allow registering custom dispatchers"):
        dispatch(registry.get("Relu"), (x,))
    assert x.node.layer._outbound_nodes == []


@pytest.mark.parametrize("apply, name", [
    (lambda x: tf.nn.l2_normalize(x, axis=-1), "tf.math.l2_normalize"),
    (lambda x: tf.reduce_mean(x, axis=1), "tf.math.reduce_mean"),
    (lambda x: tf.concat([x, x * 1.0], -1), "tf.concat"),
    (lambda x: tf.linalg.matmul(x, x, transpose_b=True), "tf.linalg.matmul"),
    (lambda x: tf.nn.softmax(x, axis=1), "tf.nn.softmax"),
    (lambda x: tf.norm(x, axis=-1), "tf.compat.v1.norm"),
])
def test_a_composite_function_is_one_layer(apply, name):
    keras.backend.clear_session()
    x = keras.Input((3, 4))
    y = apply(x)
    model = keras.Model(x, y)
    assert model.layers[-1].name == name
    assert len(model.layers) == (3 if name == "tf.concat" else 2)
    # the public functions it runs inside make no layers of their own, not even unused ones
    assert len({id(node) for node in x.node.layer._outbound_nodes}) == len(model.layers) - 1
    for inner in (tf.math.square, tf.reduce_sum, tf.math.rsqrt, tf.math.maximum):
        layer = (inner(x, x) if inner is tf.math.maximum else inner(x)).node.layer
        assert not layer.name.endswith("_1")
    data = np.random.default_rng(3).random((2, 3, 4)).astype("float32")
    np.testing.assert_allclose(model(data).numpy(), apply(tf.constant(data)).numpy(), rtol=1e-6)


def test_the_user_passed_arguments_are_the_nodes():
    keras.backend.clear_session()
    x = keras.Input((3, 4))
    y = tf.math.reduce_sum(x, 1, keepdims=True, name="total")
    config = json.loads(json.dumps(keras.Model(x, y).get_config()))
    assert config["layers"][1]["inbound_nodes"] == [
        ["input_1", 0, 0, {"axis": 1, "keepdims": True, "name": "total"}]]


def test_functions_called_through_tf_nest_are_the_layers():
    keras.backend.clear_session()
    a, b = keras.Input((3,)), keras.Input((3,))
    outputs = tf.nest.map_structure(lambda t: tf.nn.relu(t) * 2.0, [a, b])
    assert [t.node.layer.name for t in outputs] == ["tf.math.multiply", "tf.math.multiply_1"]
    assert [t.node.layer.name for t in tf.nest.map_structure(tf.math.exp, [a, b])] == [
        "tf.math.exp", "tf.math.exp_1"]


def test_a_call_returning_nothing_makes_no_node():
    keras.backend.clear_session()
    x = keras.Input((3,))
    assert tf.debugging.assert_equal(x, x) is None
    assert x.node.layer._outbound_nodes == []


def test_keras_backend_functions_make_the_layers_of_the_tf_functions_they_call():
    keras.backend.clear_session()
    x = keras.Input((3,))
    assert keras.backend.mean(x, axis=-1).node.layer.name == "tf.math.reduce_mean"


def test_the_call_of_keras_tensors_is_not_found_by_walking_the_stack():
    source = open(os.path.join(os.path.dirname(tf.__file__), "_src", "keras", "layers",
                               "tf_op_layers.py"), encoding="utf-8").read()
    names = {node.attr for node in ast.walk(ast.parse(source))
             if isinstance(node, ast.Attribute)}
    assert not names & {"setprofile", "getprofile", "_getframe", "f_locals", "f_back",
                        "f_code"}


def test_public_functions_keep_their_names_and_signatures():
    assert tf.add is tf.math.add and tf.reduce_sum is tf.math.reduce_sum
    assert tf.reduce_sum._tf_api_names == ("math.reduce_sum", "reduce_sum")
    assert tf.reshape.__name__ == "reshape" and tf.reshape.__doc__ == tf.reshape.__wrapped__.__doc__
    assert str(inspect.signature(tf.matmul)).startswith("(a, b, transpose_a=False, ")
    assert list(inspect.signature(tf.reduce_sum).parameters) == [
        "input_tensor", "axis", "keepdims", "name"]
    assert tf.reduce_sum(tf.constant([[1, 2]]), 1, True).numpy().tolist() == [[3]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension"):
        tf.reduce_sum(tf.constant([1]), axis=3)


def _gating_sum():
    keras.backend.clear_session()
    x = keras.Input((2, 4), name="x")
    y = tf.reduce_sum(tf.cast(x[..., ::2] > 0.5, "float32") * (1.0 - x[..., 1::2]), axis=-1)
    return keras.Model(x, y)


# tf_keras's config of `_gating_sum` (``model.to_json()``).
_TF_KERAS_CONFIG = {"name": "model", "trainable": True, "layers": [
    {"module": "keras.layers", "class_name": "InputLayer", "config": {
        "batch_input_shape": [None, 2, 4], "dtype": "float32", "sparse": False, "ragged": False,
        "name": "x", "optional": False}, "registered_name": None, "name": "x",
     "inbound_nodes": []},
    {"module": "tf_keras.src.layers.core.tf_op_layer", "class_name": "SlicingOpLambda",
     "config": {"name": "tf.__operators__.getitem", "trainable": True, "dtype": "float32",
                "function": "__operators__.getitem"},
     "registered_name": "SlicingOpLambda", "build_config": {"input_shape": [None, 2, 4]},
     "name": "tf.__operators__.getitem", "inbound_nodes": [["x", 0, 0, {"slice_spec": [
         {"class_name": "__ellipsis__"}, {"start": None, "stop": None, "step": 2}]}]]},
    {"module": "tf_keras.src.layers.core.tf_op_layer", "class_name": "TFOpLambda",
     "config": {"name": "tf.math.greater", "trainable": True, "dtype": "float32",
                "function": "math.greater"},
     "registered_name": "TFOpLambda", "build_config": {"input_shape": [None, 2, 2]},
     "name": "tf.math.greater",
     "inbound_nodes": [["tf.__operators__.getitem", 0, 0, {"y": 0.5, "name": None}]]},
    {"module": "tf_keras.src.layers.core.tf_op_layer", "class_name": "SlicingOpLambda",
     "config": {"name": "tf.__operators__.getitem_1", "trainable": True, "dtype": "float32",
                "function": "__operators__.getitem"},
     "registered_name": "SlicingOpLambda", "build_config": {"input_shape": [None, 2, 4]},
     "name": "tf.__operators__.getitem_1", "inbound_nodes": [["x", 0, 0, {"slice_spec": [
         {"class_name": "__ellipsis__"}, {"start": 1, "stop": None, "step": 2}]}]]},
    {"module": "tf_keras.src.layers.core.tf_op_layer", "class_name": "TFOpLambda",
     "config": {"name": "tf.cast", "trainable": True, "dtype": "float32", "function": "cast"},
     "registered_name": "TFOpLambda", "build_config": {"input_shape": [None, 2, 2]},
     "name": "tf.cast", "inbound_nodes": [["tf.math.greater", 0, 0, {"dtype": "float32"}]]},
    {"module": "tf_keras.src.layers.core.tf_op_layer", "class_name": "TFOpLambda",
     "config": {"name": "tf.math.subtract", "trainable": True, "dtype": "float32",
                "function": "math.subtract"},
     "registered_name": "TFOpLambda", "build_config": {"input_shape": []},
     "name": "tf.math.subtract", "inbound_nodes": [["_CONSTANT_VALUE", -1, 1.0, {
         "y": ["tf.__operators__.getitem_1", 0, 0], "name": None}]]},
    {"module": "tf_keras.src.layers.core.tf_op_layer", "class_name": "TFOpLambda",
     "config": {"name": "tf.math.multiply", "trainable": True, "dtype": "float32",
                "function": "math.multiply"},
     "registered_name": "TFOpLambda", "build_config": {"input_shape": [None, 2, 2]},
     "name": "tf.math.multiply",
     "inbound_nodes": [["tf.cast", 0, 0, {"y": ["tf.math.subtract", 0, 0], "name": None}]]},
    {"module": "tf_keras.src.layers.core.tf_op_layer", "class_name": "TFOpLambda",
     "config": {"name": "tf.math.reduce_sum", "trainable": True, "dtype": "float32",
                "function": "math.reduce_sum"},
     "registered_name": "TFOpLambda", "build_config": {"input_shape": [None, 2, 2]},
     "name": "tf.math.reduce_sum", "inbound_nodes": [["tf.math.multiply", 0, 0, {"axis": -1}]]}],
    "input_layers": [["x", 0, 0]], "output_layers": [["tf.math.reduce_sum", 0, 0]]}


def test_configs_are_interchangeable_with_tf_keras():
    def essentials(config):
        return [{key: layer[key] for key in ("class_name", "config", "name", "inbound_nodes")}
                for layer in config["layers"]]
    config = json.loads(json.dumps(_gating_sum().get_config()))
    assert essentials(config) == essentials(_TF_KERAS_CONFIG)
    assert {k: v for k, v in config.items() if k != "layers"} == \
        {k: v for k, v in _TF_KERAS_CONFIG.items() if k != "layers"}
    model = keras.Model.from_config(_TF_KERAS_CONFIG)
    data = np.array([[[0.1, 0.2, 0.9, 0.4], [0.7, 0.6, 0.3, 0.8]]], "float32")
    np.testing.assert_allclose(model(data).numpy(), [[0.6, 0.4]], rtol=1e-6)


def test_configs_name_module_registered_name_and_build_shapes_as_tf_keras():
    """As tf_keras 2.21 writes them (recorded): the layers' module and registered name, and
    the shapes of their first argument's tensors (none for a string, [] for a number)."""
    keras.backend.clear_session()
    x, s = keras.Input([3, 4]), keras.Input([], name="s")
    a = tf.einsum("bij,bkj->bik", x, x)
    b = tf.reduce_sum(a) * s
    c = tf.concat([x[:, 0], 2 - x[:, 1]], axis=-1)
    model = keras.Model([x, s], [a, b, c, tf.math.add(s, 1.0)])
    config = json.loads(json.dumps(model.get_config()))
    want = {"tf.einsum": None, "tf.math.reduce_sum": {"input_shape": [None, 3, 3]},
            "tf.math.multiply": {"input_shape": []},
            "tf.__operators__.getitem": {"input_shape": [None, 3, 4]},
            "tf.math.subtract": {"input_shape": []},
            "tf.concat": {"input_shape": [[None, 4], [None, 4]]},
            "tf.math.add": {"input_shape": [None]}}
    layers = {layer["name"]: layer for layer in config["layers"]}
    for name, build in want.items():
        layer = layers[name]
        assert layer.get("build_config") == build, name
        assert layer["module"] == "tf_keras.src.layers.core.tf_op_layer"
        assert layer["registered_name"] == layer["class_name"]
    assert layers["tf.__operators__.getitem"]["class_name"] == "SlicingOpLambda"
    clone = keras.Model.from_config(config)
    assert json.loads(json.dumps(clone.get_config())) == config
