"""``tf.compat.v1.keras.utils.track_tf1_style_variables`` and its companions, run as the
"Use TF1.x models in TF2 workflows" guide runs them (checked against TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf

v1 = tf.compat.v1
KEY = "/.ATTRIBUTES/VARIABLE_VALUE"


class DenseLayer(tf.keras.layers.Layer):
    def __init__(self, units, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.units = units

    @v1.keras.utils.track_tf1_style_variables
    def call(self, inputs):
        with v1.variable_scope("dense"):
            kernel = v1.get_variable(shape=[inputs.shape[-1], self.units],
                                     regularizer=tf.keras.regularizers.L2(),
                                     initializer=v1.initializers.glorot_normal, name="kernel")
            bias = v1.get_variable(shape=[self.units], initializer=v1.initializers.zeros,
                                   name="bias")
            return v1.nn.bias_add(tf.linalg.matmul(inputs, kernel), bias)


def test_get_variable_makes_the_layers_variables_once():
    layer = DenseLayer(10)
    x = tf.random.normal(shape=(8, 20))
    assert layer(x).shape == (8, 10)
    assert [v.name for v in layer.trainable_variables] == ["dense/bias:0", "dense/kernel:0"]
    kernel = layer._tf1_style_var_store._vars["dense/kernel"]
    np.testing.assert_allclose(float(layer.losses[0]),
                               0.01 * float(tf.reduce_sum(kernel ** 2)), rtol=1e-6)
    for var in layer.trainable_variables:
        var.assign(var * 0.0)
    assert [float(loss) for loss in layer.losses] == [0.0]  # (the loss is a live one)
    assert float(tf.reduce_sum(layer(x))) == 0.0
    assert len(layer.trainable_variables) == 2 and len(layer.losses) == 1


def test_functional_model_checkpoint_keys(tmp_path):
    inputs = tf.keras.Input(shape=(20,))
    model = tf.keras.Model(inputs=inputs, outputs=DenseLayer(10)(inputs))
    model(tf.ones((8, 20)))
    assert [w.name for w in model.weights] == ["dense/bias:0", "dense/kernel:0"]
    assert len(model.losses) == 1
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "ckpt"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH",
        "model/layer_with_weights-0/_tf1_style_var_store/_vars/dense.Sbias" + KEY,
        "model/layer_with_weights-0/_tf1_style_var_store/_vars/dense.Skernel" + KEY]


class CompatV1LayerModel(tf.keras.layers.Layer):
    @v1.keras.utils.track_tf1_style_variables
    def call(self, inputs, training=None):
        with v1.variable_scope("model"):
            out = v1.layers.conv2d(inputs, 3, 3, kernel_regularizer="l2")
            out = v1.layers.flatten(out)
            out = v1.layers.dropout(out, training=training)
            return v1.layers.dense(out, 10, kernel_regularizer="l2")


def test_compat_v1_layers_reuse_their_variables_by_scope():
    layer = CompatV1LayerModel()
    x = tf.random.normal(shape=(8, 5, 5, 5))
    first = layer(x)
    names = ["model/conv2d/bias:0", "model/conv2d/kernel:0", "model/dense/bias:0",
             "model/dense/kernel:0"]
    assert [v.name for v in layer.trainable_variables] == names
    np.testing.assert_array_equal(layer(x).numpy(), first.numpy())
    assert [v.name for v in layer.trainable_variables] == names
    assert len(layer.losses) == 2


def test_batch_normalization_updates_its_moving_statistics():
    class CompatV1BatchNorm(tf.keras.layers.Layer):
        @v1.keras.utils.track_tf1_style_variables
        def call(self, inputs, training=None):
            with v1.variable_scope("batch_norm_layer"):
                return v1.layers.batch_normalization(inputs, training=training)

    inputs = tf.keras.Input(shape=(5, 5, 5))
    model = tf.keras.Model(inputs=inputs, outputs=CompatV1BatchNorm()(inputs))
    x = tf.random.normal(shape=(8, 5, 5, 5))
    model(x, training=False)
    names = ["batch_norm_layer/batch_normalization/moving_mean:0",
             "batch_norm_layer/batch_normalization/moving_variance:0"]
    assert [v.name for v in model.non_trainable_variables] == names
    mean, variance = model.non_trainable_variables
    assert not mean.numpy().any() and (variance.numpy() == 1).all()
    model(x, training=True)
    assert mean.numpy().any() and (variance.numpy() != 1).any()


def test_nested_shim_layers_keep_their_own_stores(tmp_path):
    class Inner(tf.keras.layers.Layer):
        @v1.keras.utils.track_tf1_style_variables
        def call(self, inputs):
            with v1.variable_scope("dense"):
                kernel = v1.get_variable("kernel", [inputs.shape[-1], 10],
                                         regularizer=tf.keras.regularizers.L2())
            return tf.linalg.matmul(inputs, kernel)

    class Outer(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self._dense_layer = Inner()

        @v1.keras.utils.track_tf1_style_variables
        def call(self, inputs):
            with v1.variable_scope("outer"):
                v1.layers.dense(inputs, 3)
                return self._dense_layer(v1.layers.dense(inputs, 4))

    layer = Outer()
    assert layer(tf.ones((5, 5))).shape == (5, 10)
    assert [(v.name, tuple(v.shape)) for v in layer.trainable_weights] == [
        ("outer/dense/kernel:0", (4, 10)), ("outer/dense/bias:0", (3,)),
        ("outer/dense/kernel:0", (5, 3)), ("outer/dense_1/bias:0", (4,)),
        ("outer/dense_1/kernel:0", (5, 4))]
    assert len(layer.losses) == 1
    path = tf.train.Checkpoint(layer).write(str(tmp_path / "nested"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert "_dense_layer/_tf1_style_var_store/_vars/outer.Sdense.Skernel" + KEY in keys
    assert "_tf1_style_var_store/_vars/outer.Sdense_1.Sbias" + KEY in keys


def test_template_in_a_shim_layer(tmp_path):
    class ScaleByY(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()

            def my_op(x, scalar_name):
                var1 = v1.get_variable(scalar_name, shape=[],
                                       regularizer=v1.keras.regularizers.L2(),
                                       initializer=v1.constant_initializer(1.5))
                return x * var1
            self.scale_by_y = v1.make_template("scale_by_y", my_op, scalar_name="y")

        @v1.keras.utils.track_tf1_style_variables
        def call(self, inputs):
            with v1.variable_scope("layer"):
                return self.scale_by_y(inputs)

    layer = ScaleByY()
    out = layer(tf.ones(shape=(2, 3)))
    layer(tf.ones(shape=(2, 3)))
    assert (out.numpy() == 1.5).all()
    assert [v.name for v in layer.weights] == ["layer/scale_by_y/y:0"]
    np.testing.assert_allclose([float(loss) for loss in layer.losses], [0.0225], rtol=1e-6)
    path = tf.train.Checkpoint(layer).write(str(tmp_path / "template"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "scale_by_y/y" + KEY]


def test_partly_migrated_model_reads_the_checkpoint_of_the_old_one(tmp_path):
    class OOStyle(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.conv_1 = v1.layers.Conv2D(3, 3, kernel_regularizer="l2")
            self.conv_2 = v1.layers.Conv2D(4, 4, kernel_regularizer="l2")

        @v1.keras.utils.track_tf1_style_variables
        def call(self, inputs):
            with v1.variable_scope("model"):
                out = self.conv_2(self.conv_1(inputs))
                return v1.layers.conv2d(out, 5, 5, kernel_regularizer="l2")

    def record_scope(scope_name):
        with v1.variable_scope(scope_name):
            pass

    class PartlyNative(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.conv_1 = tf.keras.layers.Conv2D(3, 3, kernel_regularizer="l2")
            self.conv_2 = tf.keras.layers.Conv2D(4, 4, kernel_regularizer="l2")

        @v1.keras.utils.track_tf1_style_variables
        def call(self, inputs):
            with v1.variable_scope("model"):
                out = self.conv_1(inputs)
                record_scope("conv2d")
                out = self.conv_2(out)
                record_scope("conv2d_1")
                return v1.layers.conv2d(out, 5, 5, kernel_regularizer="l2")

    layer = OOStyle()
    layer(tf.ones(shape=(10, 10, 10, 10)))
    assert [v.name for v in layer.weights] == [
        "model/conv2d/kernel:0", "model/conv2d/bias:0", "model/conv2d_1/kernel:0",
        "model/conv2d_1/bias:0", "model/conv2d_2/bias:0", "model/conv2d_2/kernel:0"]
    assert len(layer.losses) == 5  # (the Conv2Ds' own losses too, as in TF)
    path = tf.train.Checkpoint(layer).write(str(tmp_path / "oo"))
    assert [k for k, _ in tf.train.list_variables(path)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH",
        "_tf1_style_var_store/_vars/model.Sconv2d_2.Sbias" + KEY,
        "_tf1_style_var_store/_vars/model.Sconv2d_2.Skernel" + KEY,
        "conv_1/bias" + KEY, "conv_1/kernel" + KEY, "conv_2/bias" + KEY,
        "conv_2/kernel" + KEY]
    migrated = PartlyNative()
    migrated(tf.ones(shape=(10, 10, 10, 10)))
    assert [v.name for v in migrated.weights][4:] == ["model/conv2d_2/bias:0",
                                                      "model/conv2d_2/kernel:0"]
    tf.train.Checkpoint(migrated).read(path).assert_consumed()
    for a, b in zip(layer.weights, migrated.weights):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_module_methods_and_errors():
    class M(tf.Module):
        @v1.keras.utils.track_tf1_style_variables
        def __call__(self, x):
            return x * v1.get_variable("mv", [], initializer=v1.ones_initializer())

    m = M()
    assert float(m(tf.constant(3.0))) == 3.0 and float(m(tf.constant(2.0))) == 2.0
    assert [v.name for v in m.variables] == ["mv:0"]

    class E(tf.keras.layers.Layer):
        @v1.keras.utils.track_tf1_style_variables
        def call(self, x):
            v1.get_variable("v", [2])
            return v1.get_variable("v", [3])
    with pytest.raises(ValueError, match=r"Trying to share variable v, but specified shape "
                                         r"\(3,\) and found shape \(2,\)\."):
        E()(tf.ones([1]))
    with pytest.raises(ValueError, match="must be applied to a method of a subclassed "
                                         "`tf.Module`"):
        v1.keras.utils.track_tf1_style_variables(lambda self, x: x)(object(), 1)
    with pytest.raises(ValueError, match="Tried to call get_or_create_layer in eager mode"):
        v1.keras.utils.get_or_create_layer("x", lambda: tf.keras.layers.Dense(2))


def test_get_or_create_layer_tracks_a_nested_model():
    class Nested(tf.keras.layers.Layer):
        def build_model(self):
            return tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_regularizer="l2")])

        @v1.keras.utils.track_tf1_style_variables
        def call(self, inputs):
            with v1.variable_scope("outer"):
                model = v1.keras.utils.get_or_create_layer("model", self.build_model)
                return model(inputs)

    layer = Nested()
    layer(tf.ones((2, 4)))
    layer(tf.ones((2, 4)))
    assert sorted(layer._tf1_style_var_store._layers) == ["outer/model"]
    assert len(layer.trainable_weights) == 2
    assert len(layer.losses) == 1


def test_deterministic_random_test_tool_repeats_the_draws():
    def draws(mode):
        tool = v1.keras.utils.DeterministicRandomTestTool(mode=mode)
        with tool.scope():
            a, b = tf.random.normal([3]), tf.random.uniform([3])
        return a.numpy(), b.numpy(), tool.operation_seed

    first, second = draws("num_random_ops"), draws("num_random_ops")
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])
    assert first[2] == 2
    assert draws("constant")[2] == 0
    with pytest.raises(ValueError, match="Mode arg must be 'constant' or 'num_random_ops'. "
                                         "Got: other"):
        v1.keras.utils.DeterministicRandomTestTool(mode="other")
