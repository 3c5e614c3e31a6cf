"""Model and layer methods of tf_keras 2.21 that programs call: get_weight_paths, add_update,
Conv's convolution_op, ConvLSTM's cell arguments, distribute_reduction_method."""
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def test_get_weight_paths_of_sequential_functional_and_subclassed_models():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,)),
                              keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    paths = model.get_weight_paths()
    assert list(paths) == ["dense.kernel", "dense.bias", "batch_normalization.gamma",
                           "batch_normalization.beta", "batch_normalization.moving_mean",
                           "batch_normalization.moving_variance", "dense_1.kernel",
                           "dense_1.bias"]
    assert paths["dense.kernel"] is model.layers[0].kernel

    class Blocks(keras.Model):
        def __init__(self):
            super().__init__()
            self.a = keras.layers.Dense(1)
            self.blocks = [keras.layers.Dense(2), keras.layers.Dense(3)]
            self.v = tf.Variable(1.0)

        def call(self, x):
            return self.a(self.blocks[1](self.blocks[0](x))) * self.v

    blocks = Blocks()
    blocks(np.ones((1, 3)))
    # breadth first: the model's own variable before those of its layers
    assert list(blocks.get_weight_paths()) == ["v", "a.kernel", "a.bias", "blocks.0.kernel",
                                               "blocks.0.bias", "blocks.1.kernel",
                                               "blocks.1.bias"]


def test_get_weight_paths_of_a_nested_model_follow_its_layers_then_checkpoint_names():
    inner = keras.Sequential([keras.layers.Dense(2, name="i1"),
                              keras.layers.BatchNormalization(name="ibn")], name="inner")
    inputs = keras.Input((3,))
    shared = keras.layers.Dense(3, name="sh")
    outer = keras.Model(inputs, keras.layers.Dense(1, name="top")(inner(shared(shared(inputs)))))
    # a functional model walks its layers in order; inside the nested model, paths
    # use the checkpoint names of its layers
    assert list(outer.get_weight_paths()) == [
        "sh.kernel", "sh.bias", "inner.layer_with_weights-0.kernel",
        "inner.layer_with_weights-0.bias", "inner.layer_with_weights-1.gamma",
        "inner.layer_with_weights-1.beta", "inner.layer_with_weights-1.moving_mean",
        "inner.layer_with_weights-1.moving_variance", "top.kernel", "top.bias"]
    assert list(inner.get_weight_paths())[:2] == ["i1.kernel", "i1.bias"]

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.inner = inner
            self.v = tf.Variable(1.0)

        def call(self, x):
            return self.inner(x) * self.v

    sub = Sub()
    sub(np.ones((1, 3)))
    assert list(sub.get_weight_paths())[:2] == ["v", "inner.layer_with_weights-0.kernel"]


def test_add_update_runs_callables_eagerly_and_in_functions():
    class Counter(keras.layers.Layer):
        def build(self, shape):
            self.count = self.add_weight("count", shape=(), initializer="zeros",
                                         trainable=False)

        def call(self, x):
            self.add_update(lambda: self.count.assign_add(1.0))
            self.add_update(self.count.assign_add(10.0))
            return x

    layer = Counter()
    layer(tf.ones(1))
    assert float(layer.count) == 11.0
    tf.function(lambda x: layer(x))(tf.ones(1))
    assert float(layer.count) == 22.0


def test_convolution_op_is_the_convolution_a_subclass_overrides():
    class Standardized(keras.layers.Conv2D):
        def convolution_op(self, inputs, kernel):
            mean, var = tf.nn.moments(kernel, axes=[0, 1, 2], keepdims=True)
            return super().convolution_op(inputs, (kernel - mean) / tf.sqrt(var + 1e-10))

    x = np.random.RandomState(0).rand(1, 5, 5, 2).astype("float32")
    k = np.random.RandomState(1).rand(3, 3, 2, 4).astype("float32")
    layer = Standardized(4, 3, padding="same", strides=2,
                         kernel_initializer=keras.initializers.Constant(k))
    out = layer(x).numpy()
    # (tf_keras 2.21's values)
    np.testing.assert_allclose(out[0, 0, 0], [2.0393, -0.689, 3.9445, 0.8906], atol=1e-4)
    np.testing.assert_allclose(out[0, 2, 2], [-0.5435, 0.7015, -2.0267, 0.8911], atol=1e-4)
    conv = keras.layers.Conv1D(2, 2, padding="causal", dilation_rate=2,
                               kernel_initializer="ones")
    np.testing.assert_array_equal(conv(np.ones((1, 5, 1), "float32")).numpy().ravel(),
                                  [1, 1, 1, 1, 2, 2, 2, 2, 2, 2])
    np.testing.assert_array_equal(
        conv.convolution_op(np.ones((1, 5, 1), "float32"), tf.ones((2, 1, 2))).numpy().ravel(),
        [2.0] * 6)


def test_conv_lstm_exposes_its_cell_arguments():
    layer = keras.layers.ConvLSTM2D(2, 3, padding="same", dropout=0.1)
    assert (layer.filters, layer.kernel_size, layer.padding, layer.strides, layer.data_format,
            layer.dilation_rate, layer.dropout, layer.recurrent_dropout) == \
        (2, (3, 3), "same", (1, 1), "channels_last", (1, 1), 0.1, 0.0)
    assert (layer.activation.__name__, layer.recurrent_activation.__name__) == \
        ("tanh", "hard_sigmoid")
    assert layer.use_bias and layer.unit_forget_bias
    assert type(layer.kernel_initializer).__name__ == "GlorotUniform"


def test_distribute_reduction_method_and_state_updates():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    assert model.distribute_reduction_method == "auto"
    model.distribute_reduction_method = "sum"
    assert model.distribute_reduction_method == "sum"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert model.state_updates == []
    assert "`Model.state_updates` will be removed" in str(caught[0].message)


def test_layers_made_while_a_function_traces_count_their_names_apart():
    # (tf_keras names them in the traced function's graph: from scratch in each trace)
    assert keras.layers.Dense(1).name == "dense"

    @tf.function
    def make(x):
        assert keras.layers.Dense(1).name == "dense"
        return x

    make(tf.ones(1))
    assert keras.layers.Dense(1).name == "dense_1"

    class Lazy(keras.layers.Layer):
        def build(self, shape):
            self.inner = keras.layers.Dense(1)

        def call(self, x):
            return self.inner(x)

    traced = Lazy()
    tf.function(lambda x: traced(x))(tf.ones((1, 2)))
    assert traced.inner.name == "dense"
    eager = Lazy()
    eager(tf.ones((1, 2)))
    assert eager.inner.name == "dense_2"
    linear = keras.experimental.LinearModel()
    linear.compile("sgd", "mse")
    linear.fit(np.ones((2, 2)), np.ones((2, 1)), verbose=0)  # built in fit's traced step
    assert [layer.name for layer in linear.layers] == ["dense"]
    assert keras.layers.Dense(1).name == "dense_3"


def test_model_from_config_explains_a_config_its_constructor_does_not_take():
    class Tower(keras.Model):
        def __init__(self, units):
            super().__init__()
            self.dense = keras.layers.Dense(units)

        def call(self, x):
            return self.dense(x)

        def get_config(self):
            return {"width": 3}

    with pytest.raises(TypeError, match="Unable to revive model from config") as info:
        Tower.from_config(Tower(3).get_config())
    assert "Received config={'width': 3}" in str(info.value)
    with pytest.raises(TypeError, match="Unable to revive model from config"):
        keras.Model.from_config({"layers": []})
