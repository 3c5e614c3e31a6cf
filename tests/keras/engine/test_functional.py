"""The functional API, Sequential, summaries and configs."""
import contextlib
import io
import re
import sys

import numpy as np
import pytest

import eagerflow as tf
from tests.keras.models import Scaled

keras = tf.keras


def _summary(model):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.summary()
    return out.getvalue()


def test_keras_tensor_repr():
    keras.backend.clear_session()
    x = keras.Input(shape=(3,))
    assert repr(x) == "<KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'input_1')>"
    assert str(x) == ("KerasTensor(type_spec=TensorSpec(shape=(None, 3), dtype=tf.float32, "
                      "name='input_1'), name='input_1', description=\"created by layer "
                      "'input_1'\")")
    y = keras.layers.Dense(2, name="d")(x)
    assert repr(y) == "<KerasTensor: shape=(None, 2) dtype=float32 (created by layer 'd')>"


def test_functional_model_replays_layers_and_ops():
    a = keras.Input((3,), name="a")
    b = keras.Input((2,), name="b")
    da, db = keras.layers.Dense(4, name="da"), keras.layers.Dense(4, name="db")
    h = tf.concat([da(a), db(b)], axis=-1) * 2.0
    out = keras.layers.Dense(1, name="out")(h)
    model = keras.Model([a, b], out)
    assert type(model).__name__ == "Functional"
    xa, xb = np.ones((2, 3), "float32"), np.ones((2, 2), "float32")
    got = model([xa, xb]).numpy()
    expected = out_layer(model, "out", np.concatenate(
        [da(xa).numpy(), db(xb).numpy()], axis=-1) * 2.0)
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    assert [layer.name for layer in model.layers] == [
        "a", "b", "da", "db", "tf.concat", "tf.math.multiply", "out"]
    np.testing.assert_allclose(model({"a": xa, "b": xb}).numpy(), got)


def out_layer(model, name, x):
    return model.get_layer(name)(x).numpy()


def test_shared_layer_and_nested_model():
    shared = keras.layers.Dense(2, kernel_initializer="ones")
    x = keras.Input((2,))
    inner = keras.Model(x, shared(x))
    y = keras.Input((2,))
    outer = keras.Model(y, inner(y) + shared(y))
    np.testing.assert_array_equal(outer(np.ones((1, 2), "float32")).numpy(), [[4.0, 4.0]])
    assert len(outer.trainable_weights) == 2


def test_graph_disconnected():
    a, b = keras.Input((2,)), keras.Input((2,))
    out = a + b
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(a, keras.layers.Dense(1)(out))


def test_sequential_weights_and_summary():
    keras.backend.clear_session()
    model = keras.Sequential([keras.layers.Dense(4, input_shape=(3,)), keras.layers.Dense(2)])
    assert [w.name for w in model.weights] == [
        "dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0"]
    assert _summary(model) == """\
Model: "sequential"
_________________________________________________________________
 Layer (type)                Output Shape              Param #   
=================================================================
 dense (Dense)               (None, 4)                 16        
                                                                 
 dense_1 (Dense)             (None, 2)                 10        
                                                                 
=================================================================
Total params: 26 (104.00 Byte)
Trainable params: 26 (104.00 Byte)
Non-trainable params: 0 (0.00 Byte)
_________________________________________________________________
"""


def test_sequential_builds_on_first_call_and_pops():
    model = keras.Sequential()
    model.add(keras.layers.Dense(4))
    model.add(keras.layers.Dense(2))
    assert not model.built
    assert model(np.zeros((5, 3), "float32")).shape == (5, 2)
    assert model.output_shape == (5, 2)  # the batch size of the first call, as in Keras
    model.pop()
    assert model(np.zeros((5, 3), "float32")).shape == (5, 4)
    with pytest.raises(ValueError, match="should have unique names"):
        model.add(keras.layers.Dense(1, name=model.layers[0].name))


def test_functional_summary_has_connections():
    keras.backend.clear_session()
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    out = keras.layers.Dense(1, name="out")(keras.layers.Dense(3, name="h")(a))
    model = keras.Model([a, b], [out, keras.layers.Dense(1, name="o2")(b)])
    text = _summary(model)
    assert (" Layer (type)                Output Shape                 Param #   "
            "Connected to") in text
    assert " a (InputLayer)              [(None, 3)]                  0         []" in text
    assert " h (Dense)                   (None, 3)                    12        ['a[0][0]']" in text


def test_config_round_trip_rebuilds_the_graph():
    x = keras.Input((3,))
    h = keras.layers.Dense(4, activation="relu")(x)
    model = keras.Model(x, keras.layers.Dense(2)(h))
    clone = keras.Model.from_config(model.get_config())
    assert [type(l).__name__ for l in clone.layers] == ["InputLayer", "Dense", "Dense"]
    clone.set_weights(model.get_weights())
    data = np.random.rand(2, 3).astype("float32")
    np.testing.assert_allclose(clone(data).numpy(), model(data).numpy(), rtol=1e-6)
    seq = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    again = keras.Sequential.from_config(seq.get_config())
    assert again.layers[0].get_config()["units"] == 2
    assert keras.models.clone_model(seq).count_params() == seq.count_params()


def test_a_nested_models_calls_are_numbered_from_one_in_configs_as_tf_keras():
    # tf_keras counts the node a nested model's own inputs make as its node 0, so its
    # calls in the outer model are 1, 2, ...; configs and SavedModels it writes say so
    inner = keras.Sequential([keras.layers.Dense(3, input_shape=(4,))], name="inner")
    inputs = keras.Input((4,), name="i")
    once = inner(inputs)
    joined = keras.layers.Concatenate(name="joined")([inner(inputs), once])
    model = keras.Model(inputs, keras.layers.Dense(1, name="o")(joined))
    config = model.get_config()
    assert [layer["inbound_nodes"] for layer in config["layers"][1:]] == [  # (tf_keras's)
        [[["i", 0, 0, {}]], [["i", 0, 0, {}]]],
        [[["inner", 2, 0, {}], ["inner", 1, 0, {}]]],
        [[["joined", 0, 0, {}]]]]
    rebuilt = keras.Model.from_config(config)
    rebuilt.set_weights(model.get_weights())
    x = np.arange(8, dtype="float32").reshape(2, 4)
    np.testing.assert_allclose(rebuilt(x).numpy(), model(x).numpy(), rtol=1e-6)
    assert rebuilt.get_config()["layers"][2]["inbound_nodes"] == \
        config["layers"][2]["inbound_nodes"]


def test_subclassed_model_build():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(2)

        def call(self, x):
            return self.d(x)

    net = Net()
    net.build((None, 5))
    assert net.built and net.count_params() == 12
    with pytest.raises(ValueError, match="has not yet been built"):
        Net().summary()


def test_layers_made_while_connecting_count_their_names_apart():
    # tf_keras counts the names made inside a layer connected into a functional model apart
    class Outer(keras.layers.Layer):
        def build(self, input_shape):
            self.inner = keras.layers.Dense(2)

        def call(self, x):
            return self.inner(x)

    keras.backend.clear_session()
    x = keras.Input((3,))
    first, second = Outer(), Outer()
    second(first(x))
    assert first.inner.name == second.inner.name == "dense"
    assert keras.layers.Dense(1).name == "dense"
    eager = Outer()
    eager(tf.ones((1, 3)))
    assert eager.inner.name == "dense_1"


def test_list_of_one_input_and_output_is_unwrapped():
    inp = keras.Input((2,))
    out = keras.layers.Dense(1, kernel_initializer="ones")(inp)
    model = keras.Model([inp], [out])
    x = np.ones((3, 2), "float32")
    assert isinstance(model(x), tf.Tensor) and model(x).shape == (3, 1)
    assert isinstance(model.predict(x, verbose=0), np.ndarray)
    assert model.output_shape == (None, 1) and model.input_shape == (None, 2)
    assert model.outputs == [model.output]
    assert model.get_config()["output_layers"] == [[model.layers[-1].name, 0, 0]]
    # a tuple of one stays a tuple, as in tf_keras
    assert isinstance(keras.Model(inp, (out,))(x), tuple)


def test_from_config_with_a_custom_layer_whose_config_has_no_name():
    # the functional API guide's CustomDense: get_config returns only its own arguments
    class CustomDense(keras.layers.Layer):
        def __init__(self, units=32):
            super().__init__()
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units), trainable=True)

        def call(self, inputs):
            return tf.matmul(inputs, self.w)

        def get_config(self):
            return {"units": self.units}

    inputs = keras.Input((4,))
    model = keras.Model(inputs, keras.layers.Dense(2)(CustomDense(10)(inputs)))
    rebuilt = keras.Model.from_config(model.get_config(),
                                      custom_objects={"CustomDense": CustomDense})
    assert type(rebuilt.layers[1]) is CustomDense and rebuilt.layers[1].units == 10
    assert rebuilt.layers[1].name != model.layers[1].name  # a fresh name, as in tf_keras
    assert rebuilt.output_shape == (None, 2)


def test_symbolic_add_loss_and_add_metric_of_a_functional_model():
    # the training guide: model.add_loss / model.add_metric on the model's own tensors
    inputs = keras.Input(shape=(3,))
    x = keras.layers.Dense(4, kernel_initializer="ones", name="d")(inputs)
    model = keras.Model(inputs, keras.layers.Dense(1, kernel_initializer="ones")(x))
    model.add_loss(tf.reduce_sum(x) * 0.001)
    model.add_metric(tf.reduce_mean(x), name="xm")
    assert [type(layer).__name__ for layer in model.layers] == [
        "InputLayer", "Dense", "Dense", "TFOpLambda", "TFOpLambda", "AddLoss", "TFOpLambda",
        "AddMetric"]
    assert [m.name for m in model.metrics] == ["xm"]
    model.compile("sgd", "mse")
    x1 = np.ones((2, 3), "float32")
    result = model.evaluate(x1, np.zeros((2, 1)), verbose=0, return_dict=True)
    # mse 12**2 plus 0.001 * the sum of the 2x4 activations of 3
    assert result["loss"] == pytest.approx(144.024) and result["xm"] == pytest.approx(3.0)
    model(x1)
    assert len(model.losses) == 1 and float(model.losses[0]) == pytest.approx(0.024)
    rebuilt = keras.Model.from_config(model.get_config())
    assert [layer.name for layer in rebuilt.layers] == [layer.name for layer in model.layers]
    rebuilt.set_weights(model.get_weights())
    rebuilt.compile("sgd", "mse")
    again = rebuilt.evaluate(x1, np.zeros((2, 1)), verbose=0, return_dict=True)
    assert again["loss"] == pytest.approx(144.024) and again["xm"] == pytest.approx(3.0)


def test_sparse_and_ragged_inputs_print_as_keras_tensors():
    sparse = keras.Input(shape=(4,), sparse=True, name="sp")
    ragged = keras.Input(shape=(None,), ragged=True, dtype="int64", name="rg")
    assert repr(sparse) == ("<KerasTensor: type_spec=SparseTensorSpec(TensorShape([None, 4]), "
                            "tf.float32) (created by layer 'sp')>")
    assert str(ragged) == ("KerasTensor(type_spec=RaggedTensorSpec(TensorShape([None, None]), "
                           "tf.int64, 1, tf.int64), name='rg', description=\"created by layer "
                           "'rg'\")")
    assert type(sparse).__name__ == "SparseKerasTensor"
    assert type(ragged).__name__ == "RaggedKerasTensor"
    model = keras.Model(sparse, keras.layers.Dense(2, kernel_initializer="ones")(sparse))
    value = tf.sparse.SparseTensor([[0, 1], [1, 2]], [1.0, 2.0], [2, 4])
    np.testing.assert_allclose(model(value), [[1.0, 1.0], [2.0, 2.0]])
    with pytest.raises(ValueError, match="Only provide the `shape` OR `batch_input_shape`"):
        keras.Input(shape=(2,), batch_shape=(None, 2))


def test_keras_tensors_have_no_numpy_attribute():
    inputs = keras.Input((3,))
    outputs = keras.layers.Dense(2)(inputs)
    assert not hasattr(inputs, "numpy") and not hasattr(outputs, "numpy")
    with pytest.raises(AttributeError, match="numpy"):
        outputs.numpy()
    assert hasattr(tf.constant(1.0), "numpy")


def test_clone_model_with_lambda_layers():
    inputs = keras.Input((3,))
    dense = keras.layers.Dense(2, kernel_initializer="ones")(inputs)
    outputs = keras.layers.Lambda(lambda t, k: t * k, arguments={"k": 2.0}, name="dbl")(dense)
    model = keras.Model(inputs, outputs)
    clone = keras.models.clone_model(model)
    assert [type(layer).__name__ for layer in clone.layers] == ["InputLayer", "Dense", "Lambda"]
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone(np.ones((1, 3), "float32")), [[6.0, 6.0]])
    seq = keras.Sequential([keras.layers.Dense(2, input_shape=(3,)),
                            keras.layers.Lambda(lambda t: t + 1)])
    assert type(keras.models.clone_model(seq).layers[1]).__name__ == "Lambda"
    config = model.get_config()["layers"][2]["config"]  # outside a clone: its bytecode
    assert config["function_type"] == "lambda" and len(config["function"]) == 3


def test_dict_inputs_with_extra_keys_are_ignored_with_a_warning():
    inputs = {"a": keras.Input((1,), name="a"), "b": keras.Input((1,), name="b")}
    model = keras.Model(inputs, keras.layers.Add()([inputs["a"], inputs["b"]]))
    data = {"a": np.array([[1.0]]), "b": np.array([[2.0]]), "extra": np.array([[5.0]])}
    with pytest.warns(UserWarning, match=r"Input dict contained keys \['extra'\] which did "
                                         r"not match any model input"):
        np.testing.assert_allclose(model(data), [[3.0]])
    model.compile("sgd", "mse")
    with pytest.warns(UserWarning, match="extra"):
        model.fit(data, np.array([[3.0]]), verbose=0)


def test_input_from_an_eager_tensor_takes_its_shape_and_dtype():
    t = tf.constant([[1.0, 2.0]])
    x = tf.keras.Input(tensor=t, name="inp")
    assert (x.shape.as_list(), x.dtype) == ([1, 2], tf.float32)
    model = tf.keras.Model(x, tf.keras.layers.Dense(3, kernel_initializer="ones")(x))
    layer = model.layers[0]
    assert (layer.name, layer.is_placeholder) == ("inp", False)
    assert layer.get_config()["batch_input_shape"] == (1, 2)
    assert model(np.ones((3, 2))).numpy().tolist() == [[2.0] * 3] * 3
    assert model(t).numpy().tolist() == [[3.0] * 3]
    assert tf.keras.Input(tensor=tf.constant([1, 2])).dtype == tf.int32


def test_graph_disconnected_names_the_layer_needing_the_missing_input():
    # As Keras: the first layer (in the order they run) with an input the model's inputs do
    # not give, and the layers before it that had all theirs.
    a, b = tf.keras.Input((2,), name="a"), tf.keras.Input((2,), name="b")
    h = tf.keras.layers.Dense(2, name="h")(a)
    g = tf.keras.layers.Dense(2, name="g")(b)
    out = tf.keras.layers.Dense(1, name="o")(tf.keras.layers.Add(name="add")([h, g]))
    with pytest.raises(ValueError, match=r"at layer \"g\". The following previous layers were "
                                         r"accessed without issue: \['h'\]$"):
        tf.keras.Model(a, out)
    with pytest.raises(ValueError, match=r"at layer \"h\". The following previous layers were "
                                         r"accessed without issue: \[\]$"):
        tf.keras.Model(b, out)


def test_summary_of_a_chain_whose_layer_is_also_called_in_another_model():
    # As Keras: only the calls made in the model count, so it is listed as a Sequential is
    layer = keras.layers.Dense(2, name="reuse")
    first, second = keras.Input((5,)), keras.Input((5,))
    keras.Model(first, layer(first))
    model = keras.Model(second, layer(second))
    assert "Connected to" not in _summary(model)
    both = keras.Model([first, second], [layer(first), layer(second)])
    assert "Connected to" in _summary(both)


def test_sequential_can_apply_a_layer_added_twice():
    # As Keras: a shared activation layer is applied at each place, listed once
    act = keras.layers.ReLU()
    dense = keras.layers.Dense(3, kernel_initializer="identity")
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(3,), kernel_initializer="ones"),
                              act, dense, act, dense])
    assert [layer.name for layer in model.layers] == [model.layers[0].name, act.name, dense.name]
    assert len(model.weights) == 4 and model.output_shape == (None, 3)
    x = np.array([[1.0, -2.0, 4.0]], "float32")
    np.testing.assert_allclose(model(x), [[3.0, 3.0, 3.0]])
    assert _summary(model).count(f" {act.name} (ReLU) ") == 1
    lazy = keras.Sequential([keras.layers.Dense(2, kernel_initializer="ones"), act,
                             keras.layers.Dense(2, kernel_initializer="ones"), act])
    np.testing.assert_allclose(lazy(np.array([[1.0, -3.0]])), [[0.0, 0.0]])
    assert len(lazy.layers) == 3
    assert len(keras.models.clone_model(model).layers) == 3
    assert len(model.get_config()["layers"]) == 4  # (the input layer, then each layer once)


def test_clone_model_of_a_functional_model_makes_its_layers_with_clone_function():
    inp = keras.Input((3,), name="x")
    shared = keras.layers.Dense(2, name="shared")
    out = keras.layers.Add()([shared(inp), shared(inp * 2.0)])
    model = keras.Model(inp, out)
    seen = []

    def clone(layer):
        seen.append(layer.name)
        config = layer.get_config()
        if isinstance(layer, keras.layers.Dense):
            config["name"] += "_c"
        return type(layer).from_config(config)

    cloned = keras.models.clone_model(model, clone_function=clone)
    # every layer but the input, "shared" once
    assert seen == [layer.name for layer in model.layers[1:]] and "shared" in seen
    assert [layer.name for layer in cloned.layers] == [
        layer.name + ("_c" if layer is shared else "") for layer in model.layers]
    assert cloned.get_layer("shared_c") is not shared
    assert cloned(tf.ones((1, 3))).shape == (1, 2)


def test_clone_model_makes_each_layer_from_its_own_class_and_keeps_the_input_names():
    """As tf_keras: a clone's layers are made from their classes (a custom class needs no
    registering) and a Sequential model's input layer is cloned by name."""
    inp = keras.Input((3,), name="x")
    model = keras.Model(inp, keras.layers.Dense(2)(Scaled(3.0)(inp)))
    cloned = keras.models.clone_model(model)
    assert [type(layer).__name__ for layer in cloned.layers] == [
        "InputLayer", "Scaled", "Dense"]
    assert cloned.layers[1] is not model.layers[1] and cloned.layers[1].factor == 3.0
    assert cloned.inputs[0].name == "x"
    seq = keras.Sequential([keras.Input((3,), name="zz"), keras.layers.Dense(2)])
    assert keras.models.clone_model(seq).inputs[0].name == "zz"


def test_symbolic_tensors_are_named_within_their_layer_call_only():
    """tf_keras builds each input and layer call in a scratch graph of its own: a layer
    called twice names its outputs alike, and so do two inputs named alike."""
    first, second = keras.Input((4,), name="a"), keras.Input((4,), name="a")
    assert first.name == second.name == "a"
    dense = keras.layers.Dense(2, name="dd")
    assert dense(first).name == dense(second).name == "dd/BiasAdd:0"
    model = keras.Model(first, dense(first))
    assert keras.Model.from_config(model.get_config()).outputs[0].name == "dd/BiasAdd:0"


def test_layer_names_of_a_functional_model_must_be_unique():
    inp = keras.Input((2,))
    outputs = [keras.layers.Dense(1, name="dup_q")(inp), keras.layers.Dense(1, name="dup_q")(inp)]
    with pytest.raises(ValueError, match=r'^The name "dup_q" is used 2 times in the model\. '
                                         r"All layer names should be unique\.$"):
        keras.Model(inp, outputs)


def test_sequential_pop_keeps_the_nodes_of_a_layer_reused_elsewhere():
    # As Keras: the popped layer keeps its node in the popping model, the new last layer
    # forgets the calls on its output.
    d1 = tf.keras.layers.Dense(3, name="d1")
    first = tf.keras.Sequential([tf.keras.Input((4,)), d1, tf.keras.layers.Dense(2)])
    other = tf.keras.Sequential([tf.keras.Input((4,)), d1])
    first.pop()
    assert (len(d1._inbound_nodes), len(d1._outbound_nodes)) == (2, 0)
    last = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(4, name="a"), d1])
    assert len(d1._inbound_nodes) == 3
    last.pop()
    assert len(d1._inbound_nodes) == 3
    assert [layer.name for layer in last.layers] == ["a"] and last.output_shape == (None, 4)
    assert other(np.ones((1, 4), "float32")).shape == (1, 3)
    assert other.output_shape == (None, 3)


def test_a_model_deeper_than_the_recursion_limit_is_built_and_runs():
    # (EfficientNetV2L has about 1000 layers in a chain)
    inputs = keras.Input((2,))
    x = inputs
    for _ in range(sys.getrecursionlimit() + 100):
        x = keras.layers.Activation("linear")(x)
    model = keras.Model(inputs, x)
    assert len(model.layers) == sys.getrecursionlimit() + 101
    np.testing.assert_array_equal(model(np.ones((1, 2), "float32")).numpy(), [[1.0, 1.0]])


def test_a_variable_input_is_cast_to_the_inputs_dtype_but_keeps_its_shape():
    # tf_keras casts a variable (a composite tensor) to its Input's dtype, and only casts it
    v = tf.Variable([[1.0, 2.0]], dtype=tf.float64)
    inp = keras.Input((2,))
    assert keras.Model(inp, keras.layers.ReLU()(inp))(v).dtype == tf.float32
    ints = keras.Input((2,), dtype="int32")
    assert keras.Model(ints, keras.layers.Lambda(lambda x: x)(ints))(v).dtype == tf.int32
    column = keras.Input((2, 1))
    model = keras.Model(column, keras.layers.Lambda(lambda x: x)(column))
    assert model(v).shape == (1, 2) and model(tf.constant([[1.0, 2.0]])).shape == (1, 2, 1)
    same = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        y = keras.Model(inp, keras.layers.ReLU()(inp))(same)
    assert tape.gradient(y, same).numpy().tolist() == [[1.0, 1.0]]


def test_a_model_subclass_without_call_raises_not_implemented_error():
    # (the base layer's call returned the inputs)
    class Bare(keras.Model):
        pass
    model = Bare()
    message = "Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` with"
    with pytest.raises(NotImplementedError, match=re.escape(message)):
        model(tf.ones([1, 2]))
    with pytest.raises(NotImplementedError, match=re.escape(message)):
        model.call(tf.ones([1, 2]))
    with pytest.raises(NotImplementedError):
        model.predict(tf.ones([1, 2]), verbose=0)


def test_an_input_given_twice_is_refused_first():
    a, b = tf.keras.Input((2,), name="a"), tf.keras.Input((2,), name="b")
    added = tf.keras.layers.Add()([a, b])
    with pytest.raises(ValueError, match=r"^The list of inputs passed to the model contains the "
                                         r"same input multiple times\. All inputs should only "
                                         r"appear once\.Received inputs=\[<KerasTensor: "):
        tf.keras.Model([a, a], added)


def test_from_config_leaves_the_models_own_trainable_flag_out(tmp_path):
    # tf_keras 2.21 writes a functional model's 'trainable' but builds the model without it:
    # a frozen nested model comes back trainable, its layers each frozen by their configs
    inner_in = tf.keras.Input((3,))
    inner = tf.keras.Model(inner_in, tf.keras.layers.Dense(2, name="d")(inner_in), name="inner")
    inner.trainable = False
    inp = tf.keras.Input((3,))
    model = tf.keras.Model(inp, tf.keras.layers.Dense(1)(inner(inp)))
    config = model.get_config()
    assert config["layers"][1]["config"]["trainable"] is False
    for loaded in (tf.keras.Model.from_config(config), tf.keras.models.clone_model(model)):
        assert loaded.layers[1].layers[1].trainable is False
        assert loaded.layers[1].trainable is True
        assert len(loaded.trainable_weights) == 2
        loaded.layers[1].trainable = True
        assert len(loaded.trainable_weights) == 4
    model.save(str(tmp_path / "m.keras"))
    assert tf.keras.models.load_model(str(tmp_path / "m.keras")).layers[1].trainable is True


def test_a_nested_functional_model_is_named_in_configs_as_tf_keras_names_it():
    # tf_keras: the class is not public, so its entry names the module it lives in
    i = keras.Input((2,))
    inner = keras.Model(i, keras.layers.Dense(1)(i), name="inner")
    outer = keras.Sequential([keras.Input((2,)), inner, keras.layers.Dense(1)])
    entry = keras.layers.serialize(inner)
    assert (entry["module"], entry["class_name"], entry["registered_name"]) == \
        ("tf_keras.src.engine.functional", "Functional", "Functional")
    nested = outer.get_config()["layers"][1]
    assert (nested["module"], nested["registered_name"]) == \
        ("tf_keras.src.engine.functional", "Functional")
    again = keras.Sequential.from_config(outer.get_config())
    assert type(again.layers[0]).__name__ == "Functional"
    # a Sequential inside is public: named by the top-level module
    assert keras.layers.serialize(keras.Sequential([keras.layers.Dense(1)]))["module"] == "keras"


def test_model_built_before_clear_session_still_runs_and_saves(tmp_path):
    # A model from before `clear_session` keeps working: called, trained, configured and
    # saved to HDF5 (its tensors were taken for constants, so it could not run or save).
    def build():
        keras.backend.clear_session()
        inp = keras.Input((5,))
        h = keras.layers.Dense(3, kernel_initializer="ones")(inp)
        return keras.Model(inp, keras.layers.Dense(2, kernel_initializer="ones")(h * 2.0 + h[:, :1]))
    model = build()
    build()
    x = np.ones((2, 5), "float32")
    np.testing.assert_allclose(model(x), [[45.0, 45.0]] * 2)
    np.testing.assert_allclose(model.predict(x, verbose=0), [[45.0, 45.0]] * 2)
    assert model.get_config()["layers"][1]["inbound_nodes"] == [[["input_1", 0, 0, {}]]]
    model.save(tmp_path / "m.h5")
    loaded = keras.models.load_model(tmp_path / "m.h5")
    np.testing.assert_allclose(loaded(x), [[45.0, 45.0]] * 2)
    # and its tensors still make models and take new layers
    old = model.layers[1].output
    keras.backend.clear_session()
    extended = keras.Model(model.input, keras.layers.Dense(1, kernel_initializer="ones",
                                                           name="extra")(old))
    np.testing.assert_allclose(extended(x), [[15.0]] * 2)
