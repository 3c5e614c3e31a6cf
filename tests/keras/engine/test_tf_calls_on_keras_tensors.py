"""TF calls on Keras tensors: layer names, recorded arguments and values as tf_keras 2.21 has
them (``TF_USE_LEGACY_KERAS=1``, ``json.loads(model.to_json())``)."""
import json

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
_DATA = np.linspace(0.1, 1.2, 24, dtype="float32").reshape(2, 3, 4)
_ALL = {"start": None, "stop": None, "step": None}


def _softmax(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


# (call on a Keras tensor of shape (None, 3, 4), tf_keras's layers after the input as
#  [name, class, inbound nodes], NumPy's value of the model's output)
CASES = {
    "exp": (lambda x: tf.exp(x), [["tf.math.exp", "TFOpLambda", [["input_1", 0, 0, {}]]]],
            np.exp),
    "abs": (lambda x: tf.abs(x), [["tf.math.abs", "TFOpLambda", [["input_1", 0, 0, {}]]]],
            np.abs),
    "rsqrt": (lambda x: tf.math.rsqrt(x),
              [["tf.math.rsqrt", "TFOpLambda", [["input_1", 0, 0, {}]]]],
              lambda d: 1 / np.sqrt(d)),
    "keywords": (lambda x: tf.reduce_max(x, axis=[1], keepdims=True),
                 [["tf.math.reduce_max", "TFOpLambda",
                   [["input_1", 0, 0, {"axis": [1], "keepdims": True}]]]],
                 lambda d: d.max(1, keepdims=True)),
    "positional": (lambda x: tf.math.reduce_logsumexp(x, 1),
                   [["tf.math.reduce_logsumexp", "TFOpLambda",
                     [["input_1", 0, 0, {"axis": 1}]]]],
                   lambda d: np.log(np.exp(d).sum(1))),
    "keyword_bounds": (lambda x: tf.clip_by_value(x, clip_value_min=0.0, clip_value_max=1.0),
                       [["tf.clip_by_value", "TFOpLambda", [["input_1", 0, 0, {
                           "clip_value_min": 0.0, "clip_value_max": 1.0}]]]],
                       lambda d: np.clip(d, 0, 1)),
    "nested_list": (lambda x: tf.concat([x, x * 2], axis=1),
                    [["tf.math.multiply", "TFOpLambda",
                      [["input_1", 0, 0, {"y": 2, "name": None}]]],
                     ["tf.concat", "TFOpLambda", [[["input_1", 0, 0, {"axis": 1}],
                                                   ["tf.math.multiply", 0, 0, {"axis": 1}]]]]],
                    lambda d: np.concatenate([d, d * 2], 1)),
    "list_by_keyword": (lambda x: tf.stack(values=[x, x], axis=-1),
                        [["tf.stack", "TFOpLambda", [[["input_1", 0, 0, {"axis": -1}],
                                                      ["input_1", 0, 0, {"axis": -1}]]]]],
                        lambda d: np.stack([d, d], -1)),
    "like": (lambda x: tf.ones_like(x),
             [["tf.ones_like", "TFOpLambda", [["input_1", 0, 0, {}]]]], np.ones_like),
    "argmax": (lambda x: tf.argmax(x, axis=-1),
               [["tf.math.argmax", "TFOpLambda", [["input_1", 0, 0, {"axis": -1}]]]],
               lambda d: d.argmax(-1)),
    "cumsum": (lambda x: tf.math.cumsum(x, axis=1),
               [["tf.math.cumsum", "TFOpLambda", [["input_1", 0, 0, {"axis": 1}]]]],
               lambda d: d.cumsum(1)),
    "nn_keyword": (lambda x: tf.nn.leaky_relu(x, alpha=0.1),
                   [["tf.nn.leaky_relu", "TFOpLambda", [["input_1", 0, 0, {"alpha": 0.1}]]]],
                   lambda d: np.where(d > 0, d, 0.1 * d)),
    "alias": (lambda x: tf.math.log_softmax(x),
              [["tf.nn.log_softmax", "TFOpLambda", [["input_1", 0, 0, {}]]]],
              lambda d: np.log(_softmax(d, -1))),
    "newaxis": (lambda x: x[:, tf.newaxis, 1:],
                [["tf.__operators__.getitem", "SlicingOpLambda", [["input_1", 0, 0, {
                    "slice_spec": [_ALL, None, {"start": 1, "stop": None, "step": None}]}]]]],
                lambda d: d[:, None, 1:]),
    "ellipsis": (lambda x: x[..., -1],
                 [["tf.__operators__.getitem", "SlicingOpLambda", [["input_1", 0, 0, {
                     "slice_spec": [{"class_name": "__ellipsis__"}, -1]}]]]],
                 lambda d: d[..., -1]),
    "reflected_pow": (lambda x: 2.0 ** x,
                      [["tf.math.pow", "TFOpLambda", [["_CONSTANT_VALUE", -1, 2.0, {
                          "y": ["input_1", 0, 0], "name": None}]]]],
                      lambda d: 2.0 ** d),
    "reflected_sub": (lambda x: 1.0 - x,
                      [["tf.math.subtract", "TFOpLambda", [["_CONSTANT_VALUE", -1, 1.0, {
                          "y": ["input_1", 0, 0], "name": None}]]]],
                      lambda d: 1.0 - d),
    "unary_operators": (lambda x: abs(-x),
                        [["tf.math.negative", "TFOpLambda",
                          [["input_1", 0, 0, {"name": None}]]],
                         ["tf.math.abs", "TFOpLambda",
                          [["tf.math.negative", 0, 0, {"name": None}]]]],
                        lambda d: np.abs(-d)),
    # TF's generated op wrappers record every argument, `name` too
    "generated_unary": (lambda x: tf.nn.relu(x),
                        [["tf.nn.relu", "TFOpLambda", [["input_1", 0, 0, {"name": None}]]]],
                        lambda d: np.maximum(d, 0)),
    "generated_binary": (lambda x: tf.math.maximum(x, 0.5),
                         [["tf.math.maximum", "TFOpLambda",
                           [["input_1", 0, 0, {"y": 0.5, "name": None}]]]],
                         lambda d: np.maximum(d, 0.5)),
    "generated_tile": (lambda x: tf.tile(x, [1, 2, 1]),
                       [["tf.tile", "TFOpLambda",
                         [["input_1", 0, 0, {"multiples": [1, 2, 1], "name": None}]]]],
                       lambda d: np.tile(d, [1, 2, 1])),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_calls_become_the_layers_tf_keras_makes(case):
    apply, layers, reference = CASES[case]
    keras.backend.clear_session()
    x = keras.Input((3, 4))
    model = keras.Model(x, apply(x))
    config = json.loads(model.to_json())["config"]
    assert [[layer["name"], layer["class_name"], layer["inbound_nodes"]]
            for layer in config["layers"][1:]] == layers
    np.testing.assert_allclose(model(_DATA).numpy(), reference(_DATA), rtol=1e-5)
    clone = keras.Model.from_config(model.get_config())
    np.testing.assert_allclose(clone(_DATA).numpy(), reference(_DATA), rtol=1e-5)


def test_static_attributes_make_no_layer():
    keras.backend.clear_session()
    x = keras.Input((3, 4))
    assert x.shape == tf.TensorShape([None, 3, 4]) and x.dtype == tf.float32
    assert [layer.name for layer in keras.Model(x, x[:, 0]).layers] == [
        "input_1", "tf.__operators__.getitem"]


def test_layer_names_follow_the_export_declarations():
    keras.backend.clear_session()
    x = keras.Input((3, 4))
    names = [tf.linalg.matmul(x, x, transpose_b=True), tf.transpose(x, [0, 2, 1]),
             tf.divide(x, 2.0), tf.math.softmax(x), tf.linalg.einsum("bij->bji", x)]
    assert [t.node.layer.name for t in names] == [
        "tf.linalg.matmul", "tf.compat.v1.transpose", "tf.math.truediv", "tf.nn.softmax",
        "tf.einsum"]
    assert tf.transpose._tf_api_names[0] == "transpose"
    assert tf.transpose._tf_dispatch_name == "compat.v1.transpose"


def test_functions_tf_does_not_dispatch_are_no_layers():
    keras.backend.clear_session()
    a, b = keras.Input((3,)), keras.Input((3,))
    outputs = tf.nest.map_structure(tf.nn.relu, [a, b])
    assert [t.node.layer.name for t in outputs] == ["tf.nn.relu", "tf.nn.relu_1"]
    assert [layer.name for layer in keras.Model([a, b], outputs).layers] == [
        "input_1", "input_2", "tf.nn.relu", "tf.nn.relu_1"]


@pytest.mark.parametrize("apply", [
    lambda x: tf.map_fn(lambda r: r * 2.0, x),
    lambda x: tf.map_fn(lambda r: r * 2.0, x, fn_output_signature=tf.float32),
    lambda x: tf.while_loop(lambda i: tf.reduce_sum(i) < 10.0, lambda i: (i * 2.0,), (x,))])
def test_loops_tf_does_not_dispatch_raise_tf_kerass_type_error(apply):
    """tf_keras makes no layer of them: they raise TypeError on building the arguments'
    TypeSpecs, a TypeError itself (not a subclass)."""
    keras.backend.clear_session()
    x = keras.Input((4,))
    with pytest.raises(TypeError) as raised:
        apply(x)
    assert type(raised.value) is TypeError
    assert str(raised.value) == (
        f"Could not build a TypeSpec for {x} of unsupported type {type(x)}.")
    assert x.node.layer._outbound_nodes == []


@pytest.mark.parametrize("apply, shape", [
    (lambda x: tf.vectorized_map(lambda r: r * 2.0, x), (4,)),
    (tf.signal.rfft, (4,)), (tf.linalg.slogdet, (2, 2)),
    (tf.function(lambda v: v * 2.0), (4,)), (np.asarray, (4,)), (tf.constant, (4,))])
def test_other_functions_tf_does_not_dispatch_raise_tf_kerass_type_error(apply, shape):
    keras.backend.clear_session()
    x = keras.Input(shape)
    with pytest.raises(TypeError) as raised:
        apply(x)
    assert type(raised.value) is TypeError
    assert str(raised.value).startswith(
        f"You are passing {x}, an intermediate TF-Keras symbolic input/output, to a TF API "
        f"that does not allow registering custom dispatchers, such as `tf.cond`, "
        f"`tf.function`, gradient tapes, or `tf.map_fn`. TF-Keras Functional model "
        f"construction only supports TF API calls that *do* support dispatching")
    assert x.node.layer._outbound_nodes == []


def test_a_cast_to_the_same_dtype_is_a_layer_as_in_tf_keras():
    keras.backend.clear_session()
    x = keras.Input((3,))
    y = tf.cast(x, tf.float32)
    assert y is not x and y.node.layer.name == "tf.cast"
    z = keras.layers.Dense(2)(x)
    model = keras.Model(x, [y, tf.cast(z, "float32"), tf.cast(x, tf.float64)])
    assert [layer.name for layer in model.layers] == [
        "input_1", "dense", "tf.cast", "tf.cast_1", "tf.cast_2"]
    a, _, c = model(np.ones((2, 3), np.float32))
    assert a.dtype == tf.float32 and c.dtype == tf.float64
    np.testing.assert_allclose(a.numpy(), np.ones((2, 3)))


def test_a_tape_cannot_watch_a_keras_tensor():
    keras.backend.clear_session()
    x = keras.Input((4,))
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError) as raised:
            tape.watch(x)
    assert str(raised.value) == (f"Passed in object {x} of type 'KerasTensor', not tf.Tensor or "
                                 f"tf.Variable or ExtensionType.")


def test_numpy_function_on_a_keras_tensor_is_a_layer_of_unknown_shape():
    a = tf.keras.Input((3,), name="a")
    out = tf.numpy_function(lambda x: x * 2, [a], tf.float32)
    assert out.shape.rank is None and out._keras_history.layer.name == "tf.numpy_function"
    model = tf.keras.Model(a, out)
    np.testing.assert_allclose(model(np.ones((1, 3), "float32")), [[2.0, 2.0, 2.0]])


def test_a_tf_call_reading_an_untracked_variable_warns_once(caplog):
    import logging
    a = tf.keras.Input((3,))
    v = tf.Variable(2.0)
    with caplog.at_level(logging.WARNING, "eagerflow"):
        out = a * v
        model = tf.keras.Model(a, out)
        model(np.ones((1, 3), "float32"))
    assert [r.getMessage() for r in caplog.records] == [
        "The following Variables were used in a Lambda layer's call (tf.math.multiply), but "
        "are not present in its tracked objects:   <tf.Variable 'Variable:0' shape=() "
        "dtype=float32>. This is a strong indication that the Lambda layer should be "
        "rewritten as a subclassed Layer."]
