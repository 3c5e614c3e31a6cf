import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)


class Linear(tf.keras.layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units),
                                 initializer="random_normal", trainable=True, name="w")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros",
                                 trainable=True, name="b")

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config


lin = Linear(4)
print(lin.built, lin.weights)
y = lin(tf.ones((2, 3)))
print(lin.built, y.shape, [w.name for w in lin.weights])
print([tuple(w.shape) for w in lin.trainable_weights], lin.non_trainable_weights)
cfg = lin.get_config()
print(cfg)
clone = Linear.from_config(cfg)
print(clone.name, clone.units, clone.built)


class ComputeSum(tf.keras.layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.total = tf.Variable(initial_value=tf.zeros((input_dim,)), trainable=False)

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


s = ComputeSum(2)
s(tf.ones((2, 2)))
print(s(tf.ones((2, 2))).numpy())
print(len(s.weights), len(s.non_trainable_weights), len(s.trainable_weights))


class ActivityRegularizationLayer(tf.keras.layers.Layer):
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * tf.reduce_sum(inputs))
        return inputs


class OuterLayer(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.activity_reg = ActivityRegularizationLayer(1e-2)
        self.dense = tf.keras.layers.Dense(
            2, kernel_regularizer=tf.keras.regularizers.l2(1e-3), kernel_initializer="ones")

    def call(self, inputs):
        return self.dense(self.activity_reg(inputs))


outer = OuterLayer()
print(len(outer.losses))
_ = outer(tf.ones((1, 3)))
print(len(outer.losses), [round(float(l), 5) for l in outer.losses])
_ = outer(tf.ones((1, 3)))
print(len(outer.losses))
print([l.name for l in outer.submodules], [w.name for w in outer.weights])


class MLPBlock(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.linear_1 = Linear(8)
        self.linear_2 = Linear(4)
        self.linear_3 = Linear(1)

    def call(self, inputs):
        x = tf.nn.relu(self.linear_1(inputs))
        x = tf.nn.relu(self.linear_2(x))
        return self.linear_3(x)


mlp = MLPBlock()
yy = mlp(tf.ones(shape=(3, 5)))
print("weights:", len(mlp.weights), "trainable weights:", len(mlp.trainable_weights))
print([w.name for w in mlp.weights])
mlp.linear_2.trainable = False
print(len(mlp.trainable_weights), len(mlp.non_trainable_weights))
print([w.name for w in mlp.non_trainable_weights])
mlp.trainable = False
print(len(mlp.trainable_weights), mlp.linear_1.trainable)


class CustomDropout(tf.keras.layers.Layer):
    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs, training=None):
        if training:
            return tf.nn.dropout(inputs, rate=self.rate)
        return inputs

    def get_config(self):
        return {**super().get_config(), "rate": self.rate}


cd = CustomDropout(0.5)
ones = tf.ones((2, 4))
print(cd(ones).numpy().tolist(), cd(ones, training=False).numpy().tolist())
out = cd(ones, training=True).numpy()
print(sorted(set(out.ravel().tolist())) <= [0.0, 2.0])

inputs = tf.keras.Input(shape=(3,))
h = Linear(4, name="lin_a")(inputs)
h = CustomDropout(0.5, name="drop")(h)
outputs = Linear(1, name="lin_b")(h)
model = tf.keras.Model(inputs, outputs)
model.summary()
config = model.get_config()
print([l["class_name"] for l in config["layers"]])


class ResBlock(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.bn = tf.keras.layers.BatchNormalization()
        self.proj = tf.keras.layers.Dense(units, use_bias=False)

    def build(self, input_shape):
        self.scale = self.add_weight("scale", shape=(), initializer="ones")
        super().build(input_shape)

    def call(self, inputs, training=False):
        return self.scale * self.bn(self.proj(inputs), training=training) + inputs


rb = ResBlock(3, name="res")
r = rb(np.arange(6, dtype="float32").reshape(2, 3), training=True)
print(np.round(r.numpy(), 4))
print([w.name for w in rb.weights])
print([w.name for w in rb.trainable_weights])
print(np.round(rb.bn.moving_mean.numpy(), 4))
rb.bn.trainable = False
print(len(rb.trainable_weights), len(rb.non_trainable_weights))


class Lazy(tf.keras.layers.Layer):
    def call(self, x):
        return x * 2


lz = Lazy()
print(lz.name, lz.dtype, lz.compute_dtype, lz(np.array([1, 2])).numpy(), lz.built)
print(lz.compute_output_shape((None, 2)))
try:
    Linear(2).add_weight(shape=(2,), initializer="no_such_init")
except Exception as e:
    print(type(e).__name__, str(e).split(".")[0])
try:
    tf.keras.layers.Layer(foo=1)
except Exception as e:
    print(type(e).__name__, e)
w = Linear(3)
w.build((None, 2))
print(w.built is False, len(w.weights))
w2 = tf.keras.layers.Dense(2, name="named")
w2.build((None, 4))
print([v.name for v in w2.weights], w2.kernel.dtype, w2.input_spec)

# Rebuilding the functional model from its config (custom classes by name).
restored = tf.keras.Model.from_config(config, custom_objects={"Linear": Linear,
                                                               "CustomDropout": CustomDropout})
print([l.name for l in restored.layers], restored.count_params())
