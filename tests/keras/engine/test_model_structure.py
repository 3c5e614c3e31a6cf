"""Models as tf_keras 2.21 shows them: summaries, weight order, inferred Sequential graphs,
input checks and the errors of failing calls.

Expected strings were captured from tf_keras running the same code.
"""
import contextlib
import io

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras


@pytest.fixture(autouse=True)
def fresh_names():
    keras.backend.clear_session()


def _summary(model, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.summary(**kwargs)
    return out.getvalue()


def _nested():
    inner = keras.Sequential([keras.layers.Dense(8), keras.layers.Dense(4)], name="inner")
    return keras.Sequential([keras.Input((6,)), inner, keras.layers.Dense(1)])


def test_summary_expands_nested_models():
    top, bottom = "|" + "\u00af" * 74 + "|", "\u00af" * 76
    assert _summary(_nested(), expand_nested=True, show_trainable=True) == f"""\
Model: "sequential"
____________________________________________________________________________
 Layer (type)                Output Shape              Param #   Trainable  
============================================================================
 inner (Sequential)          (None, 4)                 92        Y          
{top}
| dense (Dense)              (None, 8)                 56        Y         |
|                                                                          |
| dense_1 (Dense)            (None, 4)                 36        Y         |
{bottom}
 dense_2 (Dense)             (None, 1)                 5         Y          
                                                                            
============================================================================
Total params: 97 (388.00 Byte)
Trainable params: 97 (388.00 Byte)
Non-trainable params: 0 (0.00 Byte)
____________________________________________________________________________
"""


def test_summary_layer_range_matches_names_as_patterns():
    text = _summary(_nested(), layer_range=["dense", "dense"])
    assert " dense_2 (Dense)" in text and "inner" not in text
    with pytest.raises(ValueError, match="do not match the layer names"):
        _summary(_nested(), layer_range=["x", "y"])


def test_summary_marks_layers_a_subclassed_model_never_called():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.used, self.unused = keras.layers.Dense(2), keras.layers.Dense(3)

        def call(self, x):
            return self.used(x)
    net = Net()
    net(np.zeros((1, 4), "float32"))
    assert " dense_1 (Dense)             multiple                  0 (unused)" in _summary(net)


def test_model_weights_are_listed_layer_by_layer():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,)),
                              keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    assert [w.name for w in model.weights] == [
        "dense/kernel:0", "dense/bias:0", "batch_normalization/gamma:0",
        "batch_normalization/beta:0", "batch_normalization/moving_mean:0",
        "batch_normalization/moving_variance:0", "dense_1/kernel:0", "dense_1/bias:0"]
    assert [w.shape for w in model.get_weights()][3:5] == [(2,), (2,)]
    model.layers[1].trainable = False
    assert [w.name for w in model.non_trainable_weights] == [
        "batch_normalization/gamma:0", "batch_normalization/beta:0",
        "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]


def test_weights_of_an_unbuilt_sequential_model():
    with pytest.raises(ValueError, match="Weights for model 'sequential' have not yet been "
                                         "created. Weights are created when the model is first "
                                         "called on inputs or `build\\(\\)` is called"):
        keras.Sequential([keras.layers.Dense(2)]).weights


def test_sequential_infers_its_input_from_the_first_call_then_relaxes_it():
    model = keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(2)])
    model(np.zeros((2, 5), "float32"))
    assert model.input_shape == (2, 5) and model.output_shape == (2, 2)
    assert model.get_config()["layers"][0]["config"]["name"] == "dense_input"
    model(np.zeros((3, 5), "float32"))
    assert model.input_shape == (None, 5)
    assert [len(layer._inbound_nodes) for layer in model.layers] == [1, 1]
    built = keras.Sequential([keras.layers.Dense(3)])
    built.build((4, 2))
    assert built.output_shape == (4, 3)


def test_sequential_connects_each_added_layer_once():
    model = keras.Sequential([keras.Input((3,))] + [keras.layers.Dense(2) for _ in range(3)])
    assert [len(layer._inbound_nodes) for layer in model.layers] == [1, 1, 1]
    model.pop()
    assert model.output_shape == (None, 2) and len(model.layers) == 2


def test_fit_and_predict_see_any_batch_size():
    shapes = []

    class Probe(keras.layers.Layer):
        def call(self, x):
            shapes.append(tuple(x.shape))
            return x
    model = keras.Sequential([Probe(), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    model.fit(np.zeros((10, 3)), np.zeros((10, 1)), batch_size=4, verbose=0)
    model.predict(np.zeros((10, 3)), batch_size=4, verbose=0)
    assert set(shapes) == {(None, 3)}
    assert model.output_shape == (None, 1)


def test_functional_models_check_their_inputs():
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    model = keras.Model([a, b], keras.layers.Concatenate()([a, b]))
    assert repr(model.input_spec) == "[InputSpec(shape=(None, 3), ndim=2), " \
                                     "InputSpec(shape=(None, 2), ndim=2)]"
    with pytest.raises(ValueError, match=r'^Input 1 of layer "model" is incompatible with the '
                                         r"layer: expected shape=\(None, 2\), found "
                                         r"shape=\(4, 3\)$"):
        model([np.zeros((4, 3)), np.zeros((4, 3))])
    with pytest.raises(ValueError, match='^Missing data for input "a". You passed a data '
                                         "dictionary with keys \\['b', 'c'\\]"):
        model({"b": np.zeros((4, 2)), "c": np.zeros((4, 3))})
    assert model({"b": np.zeros((4, 2)), "a": np.zeros((4, 3))}).shape == (4, 5)
    with pytest.raises(ValueError, match=r"expects 2 input\(s\), but it received 1 input "
                                         r"tensors. Inputs received: \[<tf.Tensor: "
                                         r"shape=\(4, 3\), dtype=float64"):
        model([np.zeros((4, 3))])


def test_functional_inputs_lose_or_gain_a_last_axis_of_one_and_take_the_input_dtype():
    x = keras.Input((3,))
    model = keras.Model(x, keras.layers.Dense(1)(x))
    assert model(np.zeros((4, 3, 1))).shape == (4, 1)
    ints = keras.Input((2,), dtype="int32")
    assert keras.Model(ints, ints * 2)(np.array([[1.5, 2.5]])).numpy().tolist() == [[2, 4]]


def test_an_explicit_sequential_input_is_checked_against_its_shape():
    model = keras.Sequential([keras.layers.Dense(4, input_shape=(3,))])
    with pytest.raises(ValueError, match=r'^Input 0 of layer "sequential" is incompatible with '
                                         r"the layer: expected shape=\(None, 3\), found "
                                         r"shape=\(4, 2, 3\)$"):
        model(np.zeros((4, 2, 3), "float32"))


def test_errors_in_call_name_the_layer_and_its_arguments():
    class Bad(keras.layers.Layer):
        def call(self, x, training=None, **kwargs):
            raise ValueError("bad input")
    with pytest.raises(ValueError) as info:
        Bad()(np.zeros((2, 3), "float32"), training=True, foo=3)
    assert str(info.value) == """\
Exception encountered when calling layer 'bad' (type Bad).

bad input

Call arguments received by layer 'bad' (type Bad):
  \u2022 x=tf.Tensor(shape=(2, 3), dtype=float32)
  \u2022 training=True
  \u2022 kwargs={'foo': '3'}"""


def test_only_the_innermost_failing_call_is_described():
    model = keras.Sequential([keras.layers.Dense(4), keras.layers.Dense(2)])
    model(np.zeros((2, 3), "float32"))
    with pytest.raises(ValueError) as info:
        model(np.zeros((4, 5), "float32"))
    assert str(info.value) == """\
Exception encountered when calling layer 'sequential' (type Sequential).

Input 0 of layer "dense" is incompatible with the layer: expected axis -1 of input shape to \
have value 3, but received input with shape (4, 5)

Call arguments received by layer 'sequential' (type Sequential):
  \u2022 inputs=tf.Tensor(shape=(4, 5), dtype=float32)
  \u2022 training=None
  \u2022 mask=None"""


def test_connecting_a_layer_that_fails_quotes_its_name_twice():
    class Bad(keras.layers.Layer):
        def call(self, x):
            raise TypeError("no")
    with pytest.raises(TypeError, match='^Exception encountered when calling layer "bad" '):
        Bad()(keras.Input((2,)))


def test_a_sequential_starting_with_a_model_takes_its_input_shape():
    inner = keras.Sequential([keras.layers.Flatten(input_shape=(6, 6)), keras.layers.Dense(4)])
    outer = keras.Sequential([inner, keras.layers.Softmax()])
    assert outer.input_shape == (None, 6, 6) and outer.output_shape == (None, 4)
    outer(np.zeros((5, 6, 6), "float32"))
    assert outer.output_shape == (None, 4)  # not inferred from the call's batch
    with pytest.raises(ValueError, match="An empty Model cannot be used as a Layer."):
        keras.Sequential([keras.Sequential()])


def test_a_model_subclass_built_from_inputs_and_outputs_is_functional():
    class Mixin:
        pass

    class Sub(Mixin, keras.Model):
        pass

    class SubSub(Sub):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.extra = 1

    inputs = keras.Input((2,))
    outputs = keras.layers.Dense(1)(inputs)
    model = SubSub(inputs, outputs)
    assert isinstance(model, keras.Model) and model.extra == 1
    assert [c.__name__ for c in type(model).__mro__[:5]] == [
        "SubSub", "Sub", "Mixin", "Functional", "Model"]
    assert model.name == "sub_sub" and model.output_shape == (None, 1)
    assert len(model.layers) == 2
    assert Sub(inputs=inputs, outputs=outputs).name == "sub"
    assert model(np.ones((3, 2), "float32")).shape == (3, 1)


def test_subclasses_of_sequential_are_named_after_their_class():
    class Tower(keras.Sequential):
        pass

    assert keras.Sequential().name == "sequential"
    assert Tower().name == "tower"


def test_metric_attributes_count_among_a_models_weights_but_not_a_sequentials():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.total = keras.metrics.Sum()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    net = Net()
    net(np.ones((1, 2), "float32"))
    assert [w.name.split("/")[-1] for w in net.weights] == ["total:0", "kernel:0", "bias:0"]
    assert [w.name for w in net.non_trainable_weights] == ["total:0"]
    assert len(net.get_weights()) == 3 and net.count_params() == 4
    seq = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    seq.tracker = keras.metrics.Mean()
    assert len(seq.weights) == 2


def test_an_input_layer_reports_its_input_shape_in_a_list():
    inputs = keras.Input((3,), name="features")
    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    layer = model.get_layer("features")
    assert layer.input_shape == [(None, 3)] and layer.output_shape == [(None, 3)]
    assert model.layers[1].input_shape == (None, 3)


def test_fitting_a_sequential_model_on_unbatched_scalars_fails_in_its_dense_layer():
    # an input layer of batch_input_shape () or None has an input of unknown rank
    assert keras.layers.InputLayer(batch_input_shape=()).output.shape.rank is None
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.arange(4, dtype="float32")
    with pytest.raises(ValueError, match='Input 0 of layer "dense.*" is incompatible with the '
                                         'layer: expected min_ndim=2, found ndim=0. Full shape '
                                         r'received: \(\)'):
        model.fit(tf.data.Dataset.from_tensor_slices((x, x)), epochs=1, verbose=0)


def test_get_layer_without_name_or_index_says_to_give_one():
    inputs = keras.Input((3,), name="features")
    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    with pytest.raises(ValueError, match="Provide either a layer name or layer index"):
        model.get_layer()
    with pytest.raises(ValueError, match="No such layer: nope"):
        model.get_layer("nope")


def test_a_string_called_on_a_layer_with_an_input_spec_is_a_type_error():
    with pytest.raises(TypeError, match=r"^Inputs to a layer should be tensors\. Got 'abc' "
                       r"\(of type <class 'str'>\) as input for layer 'dense_s'\.$"):
        keras.layers.Dense(2, name="dense_s")("abc")

    class Length(keras.layers.Layer):  # no spec: the layer takes the string
        def call(self, x):
            return tf.strings.length(x)

    assert int(Length()("abc")) == 3


class _Dtypes(tf.keras.layers.Layer):
    """Records the dtype it is called with (and casts nothing itself)."""

    def __init__(self, **kwargs):
        super().__init__(autocast=False, **kwargs)
        self.seen = []

    def call(self, x):
        self.seen.append(x.dtype)
        return x


def test_a_sequential_takes_its_inputs_in_their_dtype():
    # As tf_keras: a Sequential casts nothing; its inferred graph's input has the dtype of
    # the first call's input (its explicit `Input`, when given, still casts)
    for value, dtype in ((np.ones((1, 2)), tf.float64), (tf.ones((1, 2), tf.int32), tf.int32)):
        layer = _Dtypes()
        model = tf.keras.Sequential([layer])
        assert model(value).dtype == dtype
        assert layer.seen[-1] == dtype and model.inputs[0].dtype == dtype
    layer = _Dtypes()
    model = tf.keras.Sequential([tf.keras.Input((2,)), layer])
    assert model(np.ones((1, 2))).dtype == tf.float32


def test_a_sequential_of_one_layer_given_alone():
    model = tf.keras.Sequential(tf.keras.layers.Dense(2))
    assert len(model.layers) == 1
    assert model(np.ones((1, 3))).shape == (1, 2)


def test_build_gives_call_its_training_argument_and_refuses_other_required_ones():
    seen = []

    class Training(tf.keras.Model):
        def call(self, x, training):
            seen.append(training)
            return x

    class Extra(tf.keras.Model):
        def call(self, x, y):
            return x

    class NoInputs(tf.keras.Model):
        def call(self, *args):
            return args[0]

    Training().build((None, 3))
    assert seen == [False]
    with pytest.raises(ValueError, match=r"^Currently, you cannot build your model if it has "
                                         r"positional or keyword arguments that are not "
                                         r"inputs to the model"):
        Extra().build((None, 3))
    with pytest.raises(ValueError, match=r"^You can only call `build\(\)` on a model if its "
                                         r"`call\(\)` method accepts an `inputs` argument\.$"):
        NoInputs().build((None, 3))
    with pytest.raises(ValueError, match=r"^Specified input shape is not one of the valid "
                                         r"types\. .* User provided input type: "
                                         r"<class 'str'>\.$"):
        Training().build("x")


def test_build_tells_when_the_layers_do_not_take_float_inputs():
    class Strings(tf.keras.layers.Layer):
        def call(self, x):
            return tf.strings.length(x)

    class Lengths(tf.keras.Model):
        def call(self, x):
            return tf.strings.length(x)

    for model in (Lengths(), tf.keras.Sequential([Strings()])):
        with pytest.raises(ValueError, match=r"^You cannot build your model by calling `build` "
                                             r"if your layers do not support float type "
                                             r"inputs\. (?s:.*)\n\nThe actual error from `call` "
                                             r"is: "):
            model.build((None, 4))


def test_a_sequential_built_for_a_list_of_inputs_builds_its_layers():
    model = tf.keras.Sequential([tf.keras.layers.Concatenate(), tf.keras.layers.Dense(2)])
    model.build([(None, 3), (None, 3)])
    assert [tuple(w.shape) for w in model.weights] == [(6, 2), (2,)]


def test_compute_output_shape_of_a_model_follows_the_given_input_shape():
    # (tf_keras's values: the batch size and the other dimensions given reach the outputs)
    keras = tf.keras
    x = keras.Input((None, 3))
    model = keras.Model(x, keras.layers.Dense(2)(x))
    assert model.compute_output_shape((5, 7, 3)).as_list() == [5, 7, 2]
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    two = keras.Model({"a": a, "b": b}, [keras.layers.concatenate([a, b]), a])
    assert [s.as_list() for s in two.compute_output_shape({"a": (4, 3), "b": (4, 2)})] == [
        [4, 5], [4, 3]]
    with pytest.raises(ValueError, match="the model expects 2 input tensors"):
        two.compute_output_shape((4, 3))
    tokens = keras.Input((None,), dtype="int32")  # (placeholders of the inputs' dtypes)
    embedded = keras.Model(tokens, keras.layers.Embedding(10, 4)(tokens))
    assert embedded.compute_output_shape((7, 5)).as_list() == [7, 5, 4]
    unbuilt = keras.Sequential([keras.layers.Dense(2)])  # (layer by layer, unbuilt too)
    assert tuple(unbuilt.compute_output_shape((5, 3))) == (5, 2)
