import numpy as np
import tensorflow as tf

mp = tf.keras.mixed_precision

# policies and the weights of a layer under one
mp.set_global_policy("mixed_float16")
print(mp.global_policy(), mp.Policy("mixed_bfloat16").compute_dtype)


class Scale(tf.keras.layers.Layer):
    def build(self, shape):
        self.w = self.add_weight("w", shape=(2,), initializer=tf.constant_initializer(1 / 3))

    def call(self, x):
        print("in call:", self.w.dtype, repr(self.w))
        return x * self.w


layer = Scale(name="scale")
y = layer(tf.ones((2,)))
print(y.dtype, y.numpy(), layer.w.dtype, repr(layer.w))

# a custom training loop with dynamic loss scaling
model = tf.keras.Sequential([
    tf.keras.layers.Dense(4, activation="relu", kernel_initializer="ones", input_shape=(3,)),
    tf.keras.layers.Dense(2, kernel_initializer="ones"),
    tf.keras.layers.Activation("linear", dtype="float32")])
opt = mp.LossScaleOptimizer(tf.keras.optimizers.SGD(0.01), initial_scale=2.0 ** 15,
                            dynamic_growth_steps=2)
loss_fn = tf.keras.losses.MeanSquaredError()
X = tf.constant(np.linspace(-1, 1, 12).reshape(4, 3), tf.float32)
Y = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])


@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
        scaled = opt.get_scaled_loss(loss)
    grads = opt.get_unscaled_gradients(tape.gradient(scaled, model.trainable_variables))
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss, scaled, grads[0]


for i in range(5):
    loss, scaled, g0 = step(X, Y)
    print(i, loss.numpy(), scaled.numpy(), g0.dtype.name, g0.numpy()[0],
          opt.loss_scale.numpy(), opt.dynamic_counter.numpy())
loss, scaled, g0 = step(X * 60000.0, Y)  # overflows: the step is skipped, the scale halves
print("overflow", loss.numpy(), opt.loss_scale.numpy(), opt.iterations.numpy())
print(np.round(model.layers[0].kernel.numpy()[0], 5))

# model.fit under the policy, the softmax in float32
tf.keras.utils.set_random_seed(0)
inputs = tf.keras.Input(shape=(4,))
h = tf.keras.layers.Dense(8, activation="relu", kernel_initializer="ones")(inputs)
h = tf.keras.layers.Dense(3, kernel_initializer=tf.keras.initializers.Constant(0.1))(h)
outputs = tf.keras.layers.Activation("softmax", dtype="float32")(h)
net = tf.keras.Model(inputs, outputs)
net.compile(tf.keras.optimizers.Adam(1e-3), "sparse_categorical_crossentropy", ["accuracy"])
print(type(net.optimizer).__name__, h.dtype, outputs.dtype)
data = np.arange(32, dtype="float32").reshape(8, 4) / 32.0
labels = np.array([0, 1, 2, 0, 1, 2, 0, 1])
history = net.fit(data, labels, epochs=3, batch_size=4, verbose=0)
print({k: [round(v, 4) for v in vs] for k, vs in history.history.items()})
print(np.round(net.predict(data[:2], verbose=0), 4))
mp.set_global_policy("float32")

# float16 arithmetic rounds as TF's CPU kernels round it
half = tf.float16
print(tf.reduce_sum(tf.fill([5000], tf.constant(0.1, half))),
      tf.reduce_mean(tf.fill([5000], tf.constant(0.1, half))))
print(tf.reduce_sum(tf.constant([60000.0, 60000.0, -60000.0], half)))
grid = ((np.arange(2 * 7 * 7 * 3) * 7919 % 1000) / 250).astype(np.float16).reshape(2, 7, 7, 3)
print(tf.reduce_mean(grid, [1, 2]))
print(tf.nn.avg_pool2d(grid, 3, 2, "SAME")[0, :, :, 0])
print(tf.math.reduce_euclidean_norm(grid), tf.reduce_prod(1 + (grid[0, 0] - 2) / 50))
print(tf.nn.softmax(tf.constant([[1.0, 2.0, 3.0]], half)),
      tf.nn.log_softmax(tf.constant([[1.0, 2.0, 3.0]], half)))
print(tf.nn.log_softmax(tf.constant([[1.0, 2.0, 3.0]], tf.bfloat16)))
print(tf.nn.depthwise_conv2d(grid, tf.fill([3, 3, 3, 1], tf.constant(0.37, half)),
                             [1, 1, 1, 1], "VALID")[0, 0])
print(tf.nn.selu(tf.constant([-3.0, -1.0, 0.5], half)),
      tf.nn.softplus(tf.constant([-6.0, -4.5, 1.0], half)))
print(tf.keras.layers.GlobalAveragePooling2D(dtype="mixed_float16")(grid))
