"""Layer: building, weights, tracking, training/mask propagation, losses and configs."""
import json
import threading

import numpy as np
import pytest

import eagerflow as tf
from tests.concurrency import in_threads
from tests.keras.models import OneDense

keras = tf.keras


class Scale(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def build(self, input_shape):
        self.w = self.add_weight("w", shape=(input_shape[-1],), initializer="ones")
        self.steps = self.add_weight("steps", shape=(), initializer="zeros", trainable=False)

    def call(self, inputs):
        return inputs * self.w


class Recorder(keras.layers.Layer):
    def call(self, inputs, training=None):
        self.seen = training
        return inputs


class Block(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.inner = [Scale(), Recorder()]
        self.extra = {"last": keras.layers.Dense(2)}

    def call(self, inputs):
        for layer in self.inner:
            inputs = layer(inputs)
        return self.extra["last"](inputs)


def test_build_on_first_call_names_weights_in_layer_scope():
    keras.backend.clear_session()
    layer = Scale()
    assert not layer.built
    out = layer(np.array([[1.0, 2.0]]))
    assert layer.built
    np.testing.assert_array_equal(out.numpy(), [[1.0, 2.0]])
    assert out.dtype == tf.float32  # float64 input cast to the compute dtype
    assert [w.name for w in layer.weights] == ["scale/w:0", "scale/steps:0"]
    assert [w.name for w in layer.trainable_weights] == ["scale/w:0"]
    assert [w.name for w in layer.non_trainable_weights] == ["scale/steps:0"]
    assert Scale().name == "scale_1"


def test_nested_layers_tracked_in_assignment_order_and_scoped():
    keras.backend.clear_session()
    block = Block()
    block(np.ones((1, 3), "float32"))
    assert [w.name for w in block.trainable_weights] == [
        "block/scale/w:0", "block/dense/kernel:0", "block/dense/bias:0"]
    assert [w.name for w in block.non_trainable_weights] == ["block/scale/steps:0"]
    assert [type(m).__name__ for m in block.submodules] == ["Scale", "Recorder", "Dense"]


def test_trainable_flag_propagates_to_sublayers():
    block = Block()
    block(np.ones((1, 3), "float32"))
    block.trainable = False
    assert block.trainable_weights == []
    assert len(block.non_trainable_weights) == 4
    assert not block.extra["last"].trainable


def test_training_flag_reaches_nested_layers():
    block = Block()
    block(np.ones((1, 3), "float32"), training=True)
    assert block.inner[1].seen is True
    block(np.ones((1, 3), "float32"))
    assert block.inner[1].seen is None
    keras.backend.set_learning_phase(1)
    try:
        block(np.ones((1, 3), "float32"))
        assert block.inner[1].seen is True  # a bool, as tf_keras passes it
    finally:
        keras.backend.clear_session()


def test_get_and_set_weights():
    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    kernel = np.arange(6, dtype="float32").reshape(3, 2)
    layer.set_weights([kernel, np.ones(2, "float32")])
    np.testing.assert_array_equal(layer.get_weights()[0], kernel)
    np.testing.assert_array_equal(layer(np.ones((1, 3), "float32")).numpy(), [[7.0, 10.0]])
    with pytest.raises(ValueError, match="weight shape \\(3, 2\\) is not compatible with "
                                         "provided weight shape \\(4, 2\\)"):
        layer.set_weights([np.zeros((4, 2)), np.zeros(2)])
    with pytest.raises(ValueError, match="with a weight list of length 1, but the layer was "
                                         "expecting 2 weights"):
        layer.set_weights([kernel])


def test_set_weights_takes_a_python_list_as_a_scalar_as_keras_does():
    layer = keras.layers.Dense(2)
    layer.build((None, 2))
    with pytest.raises(ValueError, match="weight shape \\(2,\\) is not compatible with "
                                         "provided weight shape \\(\\)"):
        layer.set_weights([np.ones((2, 2)), [1.0, 2.0]])
    np.testing.assert_array_equal(layer.bias.numpy(), [0.0, 0.0])  # nothing assigned
    layer.set_weights([tf.ones((2, 2)), tf.ones(2)])  # (tensors have shapes)
    scalar = keras.layers.Layer()
    scalar.w = scalar.add_weight("s", shape=(), initializer="zeros")
    scalar.set_weights([3.0])
    assert float(scalar.w) == 3.0


def test_count_params_needs_build():
    layer = keras.layers.Dense(2, name="d")
    with pytest.raises(ValueError, match="You tried to call `count_params` on layer d, but "
                                         "the layer isn't built"):
        layer.count_params()
    layer.build((None, 3))
    assert layer.count_params() == 8


def test_input_spec_errors_name_the_layer():
    layer = keras.layers.Dense(3, name="dense_x")
    with pytest.raises(ValueError, match='Input 0 of layer "dense_x" is incompatible with the '
                                         'layer: expected min_ndim=2, found ndim=1. Full shape '
                                         'received: \\(1,\\)'):
        layer(np.ones((1,), "float32"))
    layer(np.ones((2, 4), "float32"))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 4, but "
                                         "received input with shape \\(2, 5\\)"):
        layer(np.ones((2, 5), "float32"))


def test_a_call_without_inputs_is_tf_keras_value_error():
    with pytest.raises(ValueError, match=r"^The first argument to `Layer\.call` must always "
                                         r"be passed\.$"):
        keras.layers.Dense(2)()


def test_unknown_constructor_keyword():
    with pytest.raises(TypeError, match="Keyword argument not understood"):
        keras.layers.Dense(3, foo=1)


def test_add_loss_and_regularizers():
    class Penalized(keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(tf.reduce_sum(inputs))
            return inputs

    layer = Penalized()
    layer(tf.constant([1.0, 2.0]))
    assert [float(l) for l in layer.losses] == [3.0]
    layer(tf.constant([1.0]))  # a new top-level call starts afresh
    assert [float(l) for l in layer.losses] == [1.0]
    dense = keras.layers.Dense(1, kernel_initializer="ones", kernel_regularizer="l2")
    dense(np.ones((1, 2), "float32"))
    np.testing.assert_allclose([float(l) for l in dense.losses], [0.02], rtol=1e-6)


def test_activity_regularizer_divides_by_batch():
    dense = keras.layers.Dense(1, kernel_initializer="ones",
                               activity_regularizer=keras.regularizers.L1(1.0))
    dense(np.ones((4, 2), "float32"))
    np.testing.assert_allclose(float(dense.losses[0]), 2.0)  # sum |2| * 4 / 4


def test_masks_propagate():
    embed = keras.layers.Embedding(5, 2, mask_zero=True)
    out = embed(tf.constant([[1, 0, 2]]))
    np.testing.assert_array_equal(out._keras_mask.numpy(), [[True, False, True]])
    dense = keras.layers.Dense(3)
    np.testing.assert_array_equal(dense(out)._keras_mask.numpy(), [[True, False, True]])


def test_config_round_trip():
    layer = keras.layers.Dense(3, activation="relu", name="x", input_shape=(4,))
    config = layer.get_config()
    assert config["batch_input_shape"] == (None, 4)
    assert list(config)[:4] == ["name", "trainable", "dtype", "batch_input_shape"]
    clone = keras.layers.Dense.from_config(config)
    assert clone.get_config() == config
    assert keras.layers.Layer().get_config()["dtype"] == "float32"


def test_layer_inside_function_builds_eagerly():
    layer = keras.layers.Dense(2, kernel_initializer="ones")

    @tf.function
    def run(x):
        return layer(x)

    np.testing.assert_array_equal(run(tf.ones((1, 3))).numpy(), [[3.0, 3.0]])
    assert layer.kernel.numpy().shape == (3, 2)


def test_mixed_precision_policy_is_accepted():
    layer = keras.layers.Layer(dtype="mixed_float16")
    assert layer.compute_dtype == "float16" and layer.dtype == "float32"
    assert repr(layer.dtype_policy) == '<Policy "mixed_float16">'
    assert layer(tf.constant([1.0])).dtype == tf.float16


def test_mixed_float16_computes_in_half_and_keeps_float32_weights():
    layer = keras.layers.Dense(2, dtype="mixed_float16", kernel_initializer="ones")
    with tf.GradientTape() as tape:
        out = layer(np.ones((1, 3), "float32"))
        loss = tf.reduce_sum(tf.cast(out, "float32"))
    assert out.dtype == tf.float16 and layer.kernel.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [[3.0, 3.0]])
    grads = tape.gradient(loss, layer.trainable_weights)
    assert [g.dtype for g in grads] == [tf.float32, tf.float32]
    assert (layer.kernel * 1).dtype == tf.float32  # outside the call: float32


# ----------------------------------------------------------------------------- containers
# Expected values are what tf_keras 2.x shows for the same code.

class _Holder(keras.layers.Layer):
    def build(self, input_shape):
        self.v1 = tf.Variable(1.0, name="v1")
        self.vs = [tf.Variable(2.0, name="v2")]
        self.w = self.add_weight("w", ())
        self.sub = [keras.layers.Dense(1, name="da")]
        self.d = {"b": keras.layers.Dense(1, name="db"), "a": keras.layers.Dense(1, name="dc")}
        self.vs.append(tf.Variable(3.0, name="v3"))
        self.vs.append(tf.Variable(4.0, name="v4", trainable=False))
        self.sub.append(keras.layers.Dense(1, name="dd"))
        self.d["c"] = tf.Variable(5.0, name="v5")
        self.late = tf.Variable(6.0, name="v6")

    def call(self, x):
        for layer in self.sub:
            x = layer(x)
        return self.d["a"](self.d["b"](x))


def test_attribute_containers_print_as_wrappers():
    layer = keras.layers.Layer()
    layer.a, layer.d = [1], {"x": [2]}
    assert str(layer.a) == "ListWrapper([1])" and isinstance(layer.a, list)
    assert str(layer.d) == "{'x': ListWrapper([2])}" and isinstance(layer.d, dict)
    bn = keras.layers.BatchNormalization(axis=-1)
    bn(np.zeros((2, 3, 4), "float32"))
    assert str(bn.get_config()["axis"]) == "ListWrapper([2])"
    assert str(keras.metrics.Precision(thresholds=0.3).thresholds) == "ListWrapper([0.3])"
    assert str(keras.metrics.TruePositives(thresholds=[0.3, 0.6]).get_config()["thresholds"]) \
        == "ListWrapper([0.3, 0.6])"


def test_containers_mutated_after_assignment_are_tracked():
    layer = _Holder(name="l")
    layer(tf.ones((1, 1)))
    assert [w.name for w in layer.trainable_weights] == [
        "l/v1:0", "l/v2:0", "l/w:0", "l/v6:0", "l/v3:0", "l/v5:0", "l/da/kernel:0",
        "l/da/bias:0", "l/dd/kernel:0", "l/dd/bias:0", "l/dc/kernel:0", "l/dc/bias:0",
        "l/db/kernel:0", "l/db/bias:0"]
    assert [w.name for w in layer.non_trainable_weights] == ["l/v4:0"]
    assert [m.name for m in layer.submodules] == ["da", "dd", "dc", "db"]


def test_containers_mutated_after_assignment_are_tracked_by_models():
    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.blocks = []
            self.blocks.append(keras.layers.Dense(2, name="first"))
            self.extra = []

        def call(self, x):
            return self.blocks[0](x)

    net = Net()
    net(np.zeros((1, 3), "float32"))
    net.extra.append(tf.Variable(1.0, name="extra"))
    assert [layer.name for layer in net.layers] == ["first"]
    assert [w.name for w in net.weights] == ["net/first/kernel:0", "net/first/bias:0",
                                             "extra:0"]


def test_a_reassigned_attribute_moves_last():
    layer = keras.layers.Layer()
    layer.a = keras.layers.Dense(1, name="first")
    layer.b = keras.layers.Dense(1, name="second")
    layer.a = keras.layers.Dense(1, name="third")
    assert [m.name for m in layer.submodules] == ["second", "third"]


def test_graph_lists_of_models_stay_plain():
    x = keras.Input((3,))
    model = keras.Model(x, keras.layers.Dense(2)(x))
    for value in (model.inputs, model.outputs, model.input_names, model.output_names):
        assert type(value) is list
    assert type(keras.layers.Lambda(lambda t: t, arguments={"k": 1}).arguments) is dict
    rnn = keras.layers.LSTM(2)
    rnn(np.zeros((1, 2, 3), "float32"))
    assert type(rnn.input_spec) is list


def test_default_compute_output_shape_calls_in_inference_mode():
    # tf_keras 2.21: the default compute_output_shape calls `call` with training=False
    # (printed "training= False"), and compute_output_signature does the same.
    seen = []

    class Probe(keras.layers.Layer):
        def call(self, inputs, training=None):
            seen.append(training)
            return inputs

    assert tuple(Probe().compute_output_shape((2, 3))) == (2, 3)
    Probe().compute_output_signature(tf.TensorSpec((2, 3)))
    assert seen == [False, False]


def test_add_metric_of_a_metric_result_tracks_that_metric():
    # the subclassing guide's LogisticEndpoint: add_metric(self.accuracy_fn(...), name=...)
    class LogisticEndpoint(tf.keras.layers.Layer):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.accuracy_fn = tf.keras.metrics.BinaryAccuracy()

        def call(self, targets, logits):
            self.add_metric(self.accuracy_fn(targets, logits), name="accuracy")
            return tf.nn.softmax(logits)

    layer = LogisticEndpoint()
    layer(tf.ones((2, 2)), tf.ones((2, 2)))
    layer(tf.zeros((2, 2)), tf.ones((2, 2)))
    assert [m.name for m in layer.metrics] == ["binary_accuracy"]
    assert float(layer.metrics[0].result()) == 0.5  # updated once per call, not twice

    class Standalone(tf.keras.layers.Layer):
        def call(self, x):
            self.add_metric(tf.keras.metrics.Mean(name="m")(x))
            return x

    other = Standalone()
    other(tf.constant([1.0, 3.0]))
    assert [m.name for m in other.metrics] == ["m"] and float(other.metrics[0].result()) == 2.0


def test_add_weight_takes_an_int_shape_and_names_a_missing_initializer():
    class Weights(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.a = self.add_weight("a", shape=3, initializer="ones")

    layer = Weights()
    layer(tf.ones((1, 2)))
    assert layer.a.shape.as_list() == [3]

    class Strings(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", shape=(2,), dtype="string")

    with pytest.raises(ValueError, match=r"An initializer for variable w of type "
                                         r"<dtype: 'string'> is required for layer strings\. "
                                         r"Received: None\."):
        Strings()(tf.ones((1, 2)))


def test_dense_casts_integer_and_bool_inputs_to_its_compute_dtype():
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones")
    np.testing.assert_allclose(dense(tf.constant([[1, 2, 3]])), [[6.0, 6.0]])
    np.testing.assert_allclose(dense(tf.constant([[True, False, True]])), [[2.0, 2.0]])
    inputs = tf.keras.Input((3,), dtype="int32")
    assert tf.keras.layers.Dense(2)(inputs).dtype == tf.float32


def test_updates_is_deprecated_and_empty_as_in_tf_keras():
    layer = tf.keras.layers.BatchNormalization()
    layer(np.ones((2, 3), "float32"), training=True)
    with pytest.warns(UserWarning, match=r"^`layer.updates` will be removed in a future version\. "
                                         r"This property should not be used in TensorFlow 2.0, "
                                         r"as `updates` are applied automatically\.$"):
        assert layer.updates == []


def test_from_config_reports_a_failed_rebuild_as_type_error_naming_class_and_config():
    # tf_keras wraps any error of the constructor (an unknown activation is a ValueError)
    with pytest.raises(TypeError, match=r"^Error when deserializing class 'Dense' using "
                                        r"config=\{'units': 2, 'activation': 'nope'\}\.\n\n"
                                        r"Exception encountered: Unknown activation function "
                                        r"'nope' cannot be deserialized\.$"):
        tf.keras.layers.Dense.from_config({"units": 2, "activation": "nope"})
    with pytest.raises(TypeError, match="Error when deserializing class 'Dense'"):
        tf.keras.layers.deserialize({"class_name": "Dense", "config": {"units": 2, "bad": 1}})


class _WeightsAtInit(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.add_weight(shape=(2, 3), name="w")

    def call(self, x):
        return x @ self.w


@pytest.mark.parametrize("make", [lambda: tf.keras.layers.Flatten(),
                                  lambda: tf.keras.layers.Lambda(lambda x: x), _WeightsAtInit])
def test_count_params_of_an_unbuilt_layer_is_tfs_value_error(make):
    # TF raises for every layer not built yet, even one without a build of its own
    layer = make()
    with pytest.raises(ValueError, match="You tried to call `count_params` on layer .*, but "
                                         "the layer isn't built"):
        layer.count_params()
    assert not layer.built


def test_variables_are_not_autocast_to_the_compute_dtype():
    # tf_keras autocasts tensors only: a float64 variable passes a float32 layer as float64,
    # except where the layer casts its inputs itself (Dense, Layer/BatchNormalization)
    variable = tf.Variable(np.array([[-1.0, 2.0]]))
    tensor = tf.constant(np.array([[-1.0, 2.0]]))
    for layer in (tf.keras.layers.ReLU(), tf.keras.layers.Activation("sigmoid"),
                  tf.keras.layers.Dropout(0.5), tf.keras.layers.Flatten(),
                  tf.keras.layers.Softmax(), tf.keras.layers.LeakyReLU()):
        assert layer(variable).dtype == tf.float64, layer.name
        assert layer(tensor).dtype == tf.float32, layer.name
    for layer in (tf.keras.layers.Dense(1), tf.keras.layers.LayerNormalization(),
                  tf.keras.layers.BatchNormalization()):
        assert layer(variable).dtype == tf.float32, layer.name
    np.testing.assert_allclose(tf.keras.layers.LayerNormalization()(variable).numpy(),
                               [[-0.9998, 0.9998]], atol=1e-4)
    half = tf.Variable(np.array([[-1.0, 2.0]], np.float16))
    assert tf.keras.layers.ReLU()(half).dtype == tf.float16


def test_float64_losses_keep_their_dtype():
    # tf_keras 2.21: a float64 layer's activity loss is float64, and fit sums the losses in
    # the widest float dtype among them
    layer = tf.keras.layers.Dense(2, dtype="float64", activity_regularizer="l2",
                                  kernel_initializer="ones")
    layer(np.ones((2, 3)))
    assert [loss.dtype for loss in layer.losses] == [tf.float64]
    np.testing.assert_allclose(layer.losses[0].numpy(), 0.18, rtol=1e-6)

    class Losses(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(tf.cast(x, tf.float64)))
            self.add_loss(2)
            return x
    losses = Losses()
    losses(np.ones((1, 2), np.float32))
    assert [loss.dtype for loss in losses.losses] == [tf.float64, tf.float32]
    model = tf.keras.Sequential([tf.keras.layers.Dense(
        1, dtype="float64", activity_regularizer="l2", kernel_regularizer="l1",
        input_shape=(3,), kernel_initializer="ones")])
    model.compile("sgd", "mse")
    history = model.fit(np.ones((2, 3)), np.ones((2, 1)), verbose=0, epochs=2)
    np.testing.assert_allclose(history.history["loss"], [4.12, 3.48495], rtol=1e-5)
    mixed = tf.keras.Sequential([
        tf.keras.layers.Dense(1, activity_regularizer="l2", input_shape=(3,),
                              kernel_initializer="ones"),
        tf.keras.layers.Dense(1, dtype="float64", kernel_regularizer="l2",
                              kernel_initializer="ones")])
    mixed.compile("sgd", "mse")
    history = mixed.fit(np.ones((2, 3)), np.ones((2, 1)), verbose=0, epochs=2)
    np.testing.assert_allclose(history.history["loss"], [4.1, 2.20971], rtol=1e-5)


def test_a_functional_model_casts_a_variable_to_its_inputs_dtype():
    # tf_keras casts (and squeezes) the tensors fed to its inputs; a variable, a composite
    # tensor there, is cast only
    inputs = tf.keras.Input((2,))
    model = tf.keras.Model(inputs, tf.keras.layers.ReLU()(inputs))
    assert model(tf.Variable(np.array([[-1.0, 2.0]]))).dtype == tf.float32
    assert model(tf.constant(np.array([[-1.0, 2.0]]))).dtype == tf.float32
    assert model(np.array([[-1.0, 2.0]])).dtype == tf.float32


def test_loss_and_metric_values_are_taken_only_in_a_call():
    # As tf_keras: outside a call, a loss must be symbolic or a callable and a metric
    # symbolic; a value was silently kept (and counted in every later loss)
    layer = keras.layers.Dense(1)
    for loss in (tf.constant(1.0), 1.0, [lambda: tf.constant(2.0), tf.constant(1.0)]):
        with pytest.raises(ValueError, match=r"^Expected a symbolic Tensors or a callable for "
                                             r"the loss value. Please wrap your loss "
                                             r"computation in a zero argument `lambda`.$"):
            layer.add_loss(loss)
    assert [float(x) for x in layer.losses] == [2.0]  # (the callable, kept as Keras keeps it)
    layer.add_loss(None)
    with pytest.raises(ValueError, match=r"^Expected a symbolic Tensor for the metric value, "
                                         r"received: tf.Tensor\(1.0, shape=\(\), "
                                         r"dtype=float32\)$"):
        layer.add_metric(tf.constant(1.0), name="m")
    assert layer.metrics == []
    with pytest.raises(TypeError, match="Unknown keyword arguments"):
        layer.add_metric(tf.constant(1.0), name="m", other=1)

    class Counted(keras.layers.Layer):
        def call(self, inputs):
            self.add_loss(tf.reduce_sum(inputs))
            self.add_metric(tf.reduce_sum(inputs), name="total", aggregation="sum")
            return inputs

    inputs = keras.Input((2,))
    model = keras.Model(inputs, keras.layers.Dense(1, activity_regularizer="l2")(
        Counted()(inputs)))
    model.add_loss(tf.reduce_mean(inputs))  # (symbolic: a loss of each call)
    with pytest.raises(ValueError, match="Expected a symbolic Tensors"):
        model.add_loss(tf.constant(1.0))
    model(np.ones((2, 2), "float32"))
    assert len(model.losses) == 3
    assert model.metrics[0].name == "total" and float(model.metrics[0].result()) == 4.0


def test_a_loss_tensor_added_in_a_traced_function_outside_a_call_fails_as_in_tf_keras():
    # tf_keras: a tensor of a traced function is not symbolic for add_loss; outside a layer's
    # call it fails (in a custom train_step too), a callable is taken, and in a call it is
    model = keras.Sequential([keras.layers.Dense(1)])
    model.build((None, 3))

    @tf.function
    def adds(x):
        model.add_loss(tf.reduce_sum(x))
        return model(x)

    with pytest.raises(ValueError, match="Expected a symbolic Tensors or a callable for the "
                                         "loss value."):
        adds(tf.ones((2, 3)))
    assert model.losses == []

    @tf.function
    def adds_callable():
        model.add_loss(lambda: tf.reduce_sum(model.layers[0].kernel) * 0.0 + 2.0)
        return tf.add_n(model.losses)

    assert float(adds_callable()) == 2.0

    class Stepped(OneDense):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                self.add_loss(tf.reduce_sum(y_pred))
                loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
            self.optimizer.minimize(loss, self.trainable_variables, tape=tape)
            return {"loss": loss}

    stepped = Stepped()
    stepped.compile("sgd", "mse")
    with pytest.raises(ValueError) as info:
        stepped.fit(np.ones((4, 3), "float32"), np.ones((4, 1), "float32"), verbose=0)
    assert str(info.value).startswith("in user code:")
    assert "Expected a symbolic Tensors or a callable" in str(info.value)


def test_a_callable_loss_returning_a_number_is_a_floatx_tensor():
    layer = keras.layers.Dense(1)
    layer.add_loss(lambda: 2.0)
    layer.add_loss(lambda: 3)
    losses = layer.losses
    assert [type(loss).__name__ for loss in losses] == ["EagerTensor", "EagerTensor"]
    assert [loss.dtype for loss in losses] == [tf.float32, tf.float32]
    assert [loss.numpy() for loss in losses] == [2.0, 3.0]


def test_a_mask_given_to_a_layer_without_masking_is_named_as_a_tensor_prints():
    class NoMasking(keras.layers.Layer):
        def call(self, x):
            return x
    with pytest.raises(TypeError, match=r"^Layer no_masking does not support masking, but was "
                                        r"passed an input_mask: tf.Tensor\(\[\[False  True\]\], "
                                        r"shape=\(1, 2\), dtype=bool\)$"):
        NoMasking(name="no_masking").compute_mask(tf.ones((1, 2)),
                                                  tf.constant([[False, True]]))


def test_add_variable_warns_that_it_is_deprecated():
    layer = keras.layers.Layer()
    with pytest.warns(UserWarning, match=r"^`layer.add_variable` is deprecated and will be "
                                         r"removed in a future version\. Please use the "
                                         r"`layer.add_weight\(\)` method instead\.$"):
        weight = layer.add_variable("w", shape=(2,), initializer="ones")
    assert weight.name == "w:0" and layer.weights == [weight]


@pytest.mark.parametrize("make, shape", [
    (lambda L: L.Conv2D(2, 2), (None, 5, 5, 3)),
    (lambda L: L.DepthwiseConv1D(2), (None, 5, 3)),
    (lambda L: L.BatchNormalization(), (None, 4)),
    (lambda L: L.LayerNormalization(), (None, 4)),
    (lambda L: L.Embedding(5, 2), (None, 4)),
    (lambda L: L.LSTM(2), (None, 3, 4)),
    (lambda L: L.PReLU(), (None, 4)),
    (lambda L: L.Bidirectional(L.GRU(2)), (None, 3, 4)),
    (lambda L: L.EinsumDense("ab,bc->ac", output_shape=2), (None, 4)),
    (lambda L: L.Attention(), [(None, 3, 4), (None, 3, 4)]),
    (lambda L: L.Conv2D(2, 2), tf.TensorShape((None, 5, 5, 3))),
])
def test_a_built_in_layer_built_directly_records_its_build_config(make, shape):
    # as tf_keras's layers, whose builds end in the base's: what a wrapper's config, or a
    # `.keras` archive, saves of a layer built by `build` alone
    layer = make(tf.keras.layers)
    layer.build(shape)
    expected = [list(s) for s in shape] if isinstance(shape, list) else list(shape)
    assert json.loads(json.dumps(layer.get_build_config())) == {"input_shape": expected}


def test_a_wrapped_layer_built_by_its_wrapper_has_a_build_config():
    wrapper = tf.keras.layers.TimeDistributed(tf.keras.layers.Conv2D(2, 2))
    wrapper.build((None, 3, 5, 5, 3))
    assert tf.keras.layers.serialize(wrapper)["config"]["layer"]["build_config"] == \
        {"input_shape": (None, 5, 5, 3)}


def test_a_users_layer_that_does_not_call_the_base_build_records_only_when_called():
    class Mine(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", shape=(input_shape[-1],))

        def call(self, x):
            return x * self.w

    layer = Mine()
    layer.build((None, 2))
    assert layer.get_build_config() is None  # (as in tf_keras)
    other = Mine()
    other(tf.ones((1, 2)))
    assert other.get_build_config() == {"input_shape": (1, 2)}


def test_a_called_layer_records_the_shape_of_its_call():
    # (as tf_keras: what the wrapper's own build kept is replaced by the call's shape)
    wrapper = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(3))
    wrapper(tf.keras.Input((2, 6)))
    config = tf.keras.layers.serialize(wrapper)
    assert config["build_config"] == {"input_shape": (None, 2, 6)}
    assert config["config"]["layer"]["build_config"] == {"input_shape": (None, 6)}


@pytest.mark.parametrize("name", ["my dense!", "-x", "_z"])
def test_a_layer_name_no_graph_can_hold_raises_when_the_model_is_built(name):
    # TF 2.21: "'my dense!/' is not a valid root scope name" (it built the model)
    with pytest.raises(ValueError, match="is not a valid root scope name"):
        tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name=name)])


@pytest.mark.parametrize("name", ["a/b", "x-y", "1abc", "ok_name"])
def test_layer_names_a_graph_can_hold_build(name):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name=name)])
    assert [w.name for w in model.weights] == [f"{name}/kernel:0", f"{name}/bias:0"]


def test_frozen_sublayer_weights_follow_the_layers_own_non_trainable_ones():
    class Holder(keras.layers.Layer):
        def __init__(self):
            super().__init__(name="holder")
            self.inner = keras.layers.Dense(2, name="inner")

        def build(self, input_shape):
            self.w = self.add_weight("w", shape=(1,))
            self.frozen = self.add_weight("frozen", shape=(), trainable=False)

        def call(self, x):
            return self.inner(x) + self.w

    layer = Holder()
    layer(np.ones((1, 3), "float32"))
    layer.inner.trainable = False
    # As tf_keras: a layer's own non-trainable weights, then each sublayer's.
    assert [w.name for w in layer.non_trainable_weights] == [
        "holder/frozen:0", "holder/inner/kernel:0", "holder/inner/bias:0"]
    assert [w.shape for w in layer.get_weights()] == [(1,), (), (3, 2), (2,)]


class _EagerOnly(keras.layers.Layer):
    """Reads its input's values: it can only run eagerly."""

    def __init__(self, **kwargs):
        super().__init__(dynamic=True, **kwargs)

    def call(self, x):
        return x * 2 if x.numpy().sum() > 0 else x

    def compute_output_shape(self, input_shape):
        return input_shape


def test_dynamic_layer_joins_a_functional_model_without_tracing_its_call():
    inputs = keras.Input((2,))
    layer = _EagerOnly()
    outputs = layer(inputs)
    assert outputs.shape.as_list() == [None, 2] and outputs.dtype == tf.float32
    assert not layer.built
    model = keras.Model(inputs, outputs)
    model.compile("sgd", "mse")
    assert model.run_eagerly
    np.testing.assert_array_equal(model.predict(np.ones((2, 2)), verbose=0), [[2, 2], [2, 2]])


def test_dynamic_layer_without_compute_output_shape_cannot_join_a_functional_model():
    class Plain(keras.layers.Layer):
        def __init__(self):
            super().__init__(dynamic=True)

        def call(self, x):
            return x

    with pytest.raises(NotImplementedError, match="implement the `compute_output_shape` "
                                                  "method on your layer \\(Plain\\)"):
        Plain()(keras.Input((3,)))


def test_trainable_must_be_a_boolean():
    with pytest.raises(TypeError, match="Expected `trainable` argument to be a boolean, but "
                                        "got: yes"):
        keras.layers.Layer(trainable="yes")


def test_add_weight_accepts_and_ignores_partitioner():
    weight = keras.layers.Layer().add_weight("a", shape=(2,), partitioner=None)
    assert weight.shape == (2,)
    with pytest.raises(TypeError, match="Unknown keyword argument"):
        keras.layers.Layer().add_weight("a", shape=(2,), foo=1)


def test_layer_called_on_none_builds_with_an_unknown_shape():
    seen = []

    class Probe(keras.layers.Layer):
        def build(self, input_shape):
            seen.append(input_shape)

        def call(self, x):
            return x

    assert Probe()(None) is None
    assert isinstance(seen[0], tf.TensorShape) and seen[0].rank is None


def test_submodules_include_plain_modules_held_by_layers():
    class Holder(keras.layers.Layer):
        def __init__(self):
            super().__init__(name="holder")
            self.mods = [tf.Module(name="in_list")]
            self.one = tf.Module(name="one")
            self.dense = keras.layers.Dense(1, name="dense_in_holder")

    class Outer(keras.Model):
        def __init__(self):
            super().__init__()
            self.first = tf.Module(name="first")
            self.holder = Holder()

    names = [m.name for m in Outer().submodules]
    assert names == ["first", "holder", "in_list", "one", "dense_in_holder"]


def test_a_model_holding_a_stateful_layer_is_stateful():
    # as tf_keras: `stateful` is the layer's own flag or that of any layer inside it
    model = keras.Sequential([keras.layers.Masking(), keras.layers.LSTM(1, stateful=True)])
    assert model.stateful and not keras.Sequential([keras.layers.Dense(1)]).stateful
    assert not keras.layers.LSTM(1).stateful
    model.layers[1].stateful = False
    assert not model.stateful


def test_autotune_steps_per_execution_follows_compile():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    assert model.autotune_steps_per_execution is False
    model.compile("sgd", "mse", steps_per_execution="auto")
    assert model.autotune_steps_per_execution is True
    model.compile("sgd", "mse")
    assert model.autotune_steps_per_execution is False


def test_compute_output_signature_is_compute_output_shapes_in_a_dtype():
    # tf_keras 2.21: the shapes `compute_output_shape` gives (a Lambda's declared one, a
    # random layer's unknown sizes), of the layer's compute dtype (its output's, once
    # called); only TensorSpecs are taken
    layers = keras.layers
    spec = layers.Lambda(lambda x: x * 2, output_shape=(7,)).compute_output_signature(
        tf.TensorSpec((None, 5, 4)))
    assert spec == tf.TensorSpec((None, 7), tf.float32)
    assert layers.RandomHeight(0.2).compute_output_signature(
        tf.TensorSpec((None, 6, 6, 3))) == tf.TensorSpec((None, None, 6, 3))
    # (PReLU's weights need the sizes: the call cannot run, the shape rule can)
    assert layers.PReLU().compute_output_signature(
        tf.TensorSpec((2, None, 4))) == tf.TensorSpec((2, None, 4))
    assert layers.Dense(2, dtype="float16").compute_output_signature(
        tf.TensorSpec((None, 3))) == tf.TensorSpec((None, 2), tf.float16)
    dense = layers.Dense(2, dtype="float64")
    dense(keras.Input((3,), dtype="float64"))
    assert dense.compute_output_signature(tf.TensorSpec((None, 3))).dtype == tf.float64
    assert layers.LSTM(2, return_state=True).compute_output_signature(
        tf.TensorSpec((None, 4, 3))) == [tf.TensorSpec((None, 2))] * 3
    with pytest.raises(TypeError, match="Only TensorSpec signature types are supported"):
        layers.Dense(2).compute_output_signature((None, 3))


def test_preprocessing_output_signatures_declare_keras_dtypes():
    layers = keras.layers
    # CategoryEncoding declares int64 (its outputs are floats)
    assert layers.CategoryEncoding(5).compute_output_signature(
        tf.TensorSpec((None, 3), tf.int64)) == tf.TensorSpec((None, 5), tf.int64)
    assert layers.CategoryEncoding(5, sparse=True).compute_output_signature(
        tf.TensorSpec((None, 3), tf.int64)) == tf.SparseTensorSpec([None, 5], tf.int64)
    # Hashing's is sparse for sparse inputs only
    assert layers.Hashing(5, sparse=True, output_mode="one_hot").compute_output_signature(
        tf.TensorSpec((None, 1), tf.string)) == tf.TensorSpec((None, 1), tf.float32)
    assert layers.StringLookup(vocabulary=["a"], invert=True).compute_output_signature(
        tf.TensorSpec((None, 3), tf.int64)) == tf.TensorSpec((None, 3), tf.string)
    assert layers.Normalization(mean=1.0, variance=2.0).compute_output_signature(
        tf.TensorSpec((None, 3), tf.float64)) == tf.TensorSpec((None, 3), tf.float64)
    assert layers.TextVectorization(output_mode="count", vocabulary=["a"]) \
        .compute_output_signature(tf.TensorSpec((None,), tf.string)) == \
        tf.TensorSpec((None, 2), tf.float32)
    assert layers.TextVectorization(output_sequence_length=4).compute_output_signature(
        tf.TensorSpec((None,), tf.string)) == tf.TensorSpec((None, 4), tf.int64)


def test_a_layer_called_first_from_threads_at_once_builds_once():
    # The first build waits (a while at most) for a second one to start: none may, as the
    # threads calling meanwhile wait for the build instead of building again.
    second = threading.Event()

    class Slow(tf.keras.layers.Layer):
        builds = 0

        def build(self, input_shape):
            Slow.builds += 1
            if Slow.builds == 1:
                second.wait(timeout=0.5)
            else:
                second.set()
            self.w = self.add_weight("w", shape=(input_shape[-1],), initializer="ones")

        def call(self, x):
            return x * self.w

    layer = Slow()
    results = in_threads(lambda i: layer(tf.fill([1, 2], float(i))).numpy().tolist(),
                         [(i,) for i in range(4)])
    assert results == [[[float(i)] * 2] for i in range(4)]
    assert Slow.builds == 1 and len(layer.weights) == 1
