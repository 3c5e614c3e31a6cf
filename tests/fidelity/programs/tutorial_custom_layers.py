import tensorflow as tf
import numpy as np
tf.keras.utils.set_random_seed(1)

class Linear(tf.keras.layers.Layer):
    def __init__(self, units=32, input_dim=32):
        super().__init__()
        self.w = self.add_weight(shape=(input_dim, units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(units,), initializer="zeros", trainable=True)
    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b

x = tf.ones((2, 2))
linear_layer = Linear(4, 2)
y = linear_layer(x)
print(y)
print(linear_layer.weights)

class ComputeSum(tf.keras.layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.total = tf.Variable(initial_value=tf.zeros((input_dim,)), trainable=False)
    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total

my_sum = ComputeSum(2)
x = tf.ones((2, 2))
y = my_sum(x)
print(y.numpy())
y = my_sum(x)
print(y.numpy())
print("weights:", len(my_sum.weights))
print("non-trainable weights:", len(my_sum.non_trainable_weights))
print("trainable_weights:", my_sum.trainable_weights)

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
    def call(self, inputs):
        return self.activity_reg(inputs)

layer = OuterLayer()
assert len(layer.losses) == 0
_ = layer(tf.zeros(1, 1))
print(len(layer.losses), layer.losses)
_ = layer(tf.zeros(1, 1))
print(len(layer.losses))

class OuterLayerWithKernelRegularizer(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(32, kernel_regularizer=tf.keras.regularizers.l2(1e-3))
    def call(self, inputs):
        return self.dense(inputs)

layer = OuterLayerWithKernelRegularizer()
_ = layer(tf.zeros((1, 1)))
print(layer.losses)

inputs = tf.keras.Input(shape=(3,))
outputs = ActivityRegularizationLayer()(inputs)
model = tf.keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.random((2, 3)), np.random.random((2, 3)), verbose=0)
model.compile(optimizer="adam")
h = model.fit(np.random.random((2, 3)), np.random.random((2, 3)), verbose=0)
print(sorted(h.history))

class LogisticEndpoint(tf.keras.layers.Layer):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.loss_fn = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    def call(self, targets, logits, sample_weights=None):
        loss = self.loss_fn(targets, logits, sample_weights)
        self.add_loss(loss)
        return tf.nn.softmax(logits)

layer = LogisticEndpoint()
targets = tf.ones((2, 2))
logits = tf.ones((2, 2))
y = layer(targets, logits)
print("layer.metrics:", layer.metrics)
print(layer.losses)
inputs = tf.keras.Input(shape=(3,), name="inputs")
targets = tf.keras.Input(shape=(10,), name="targets")
logits = tf.keras.layers.Dense(10)(inputs)
predictions = LogisticEndpoint(name="predictions")(logits, targets)
model = tf.keras.Model(inputs=[inputs, targets], outputs=predictions)
model.compile(optimizer="adam")
data = {"inputs": np.random.random((3, 3)), "targets": np.random.random((3, 10))}
h = model.fit(data, verbose=0)
print(sorted(h.history))

class Linear2(tf.keras.layers.Layer):
    def __init__(self, units=32, **kwargs):
        super().__init__(**kwargs)
        self.units = units
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(self.units,), initializer="random_normal", trainable=True)
    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b
    def get_config(self):
        config = super().get_config()
        config.update({"units": self.units})
        return config

layer = Linear2(64)
config = layer.get_config()
print(config)
new_layer = Linear2.from_config(config)
print(new_layer.units, new_layer.name)

class CustomDropout(tf.keras.layers.Layer):
    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate
    def call(self, inputs, training=None):
        if training:
            return tf.nn.dropout(inputs, rate=self.rate, seed=1)
        return inputs
cd = CustomDropout(0.5)
print(cd(tf.ones((2, 4)), training=True))
print(cd(tf.ones((2, 4))))

class Sampling(tf.keras.layers.Layer):
    def call(self, inputs):
        z_mean, z_log_var = inputs
        batch = tf.shape(z_mean)[0]
        dim = tf.shape(z_mean)[1]
        epsilon = tf.keras.backend.random_normal(shape=(batch, dim))
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon

class Encoder(tf.keras.layers.Layer):
    def __init__(self, latent_dim=4, intermediate_dim=8, name="encoder", **kwargs):
        super().__init__(name=name, **kwargs)
        self.dense_proj = tf.keras.layers.Dense(intermediate_dim, activation="relu")
        self.dense_mean = tf.keras.layers.Dense(latent_dim)
        self.dense_log_var = tf.keras.layers.Dense(latent_dim)
        self.sampling = Sampling()
    def call(self, inputs):
        x = self.dense_proj(inputs)
        z_mean = self.dense_mean(x)
        z_log_var = self.dense_log_var(x)
        z = self.sampling((z_mean, z_log_var))
        return z_mean, z_log_var, z

class Decoder(tf.keras.layers.Layer):
    def __init__(self, original_dim, intermediate_dim=8, name="decoder", **kwargs):
        super().__init__(name=name, **kwargs)
        self.dense_proj = tf.keras.layers.Dense(intermediate_dim, activation="relu")
        self.dense_output = tf.keras.layers.Dense(original_dim, activation="sigmoid")
    def call(self, inputs):
        x = self.dense_proj(inputs)
        return self.dense_output(x)

class VariationalAutoEncoder(tf.keras.Model):
    def __init__(self, original_dim, intermediate_dim=8, latent_dim=4, name="autoencoder", **kwargs):
        super().__init__(name=name, **kwargs)
        self.original_dim = original_dim
        self.encoder = Encoder(latent_dim=latent_dim, intermediate_dim=intermediate_dim)
        self.decoder = Decoder(original_dim, intermediate_dim=intermediate_dim)
    def call(self, inputs):
        z_mean, z_log_var, z = self.encoder(inputs)
        reconstructed = self.decoder(z)
        kl_loss = -0.5 * tf.reduce_mean(z_log_var - tf.square(z_mean) - tf.exp(z_log_var) + 1)
        self.add_loss(kl_loss)
        return reconstructed

original_dim = 16
vae = VariationalAutoEncoder(original_dim, 8, 4)
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
mse_loss_fn = tf.keras.losses.MeanSquaredError()
loss_metric = tf.keras.metrics.Mean()
x_train = np.random.RandomState(0).rand(32, original_dim).astype("float32")
train_dataset = tf.data.Dataset.from_tensor_slices(x_train).shuffle(32, seed=0).batch(8)
for epoch in range(2):
    for step, x_batch_train in enumerate(train_dataset):
        with tf.GradientTape() as tape:
            reconstructed = vae(x_batch_train)
            loss = mse_loss_fn(x_batch_train, reconstructed)
            loss += sum(vae.losses)
        grads = tape.gradient(loss, vae.trainable_weights)
        optimizer.apply_gradients(zip(grads, vae.trainable_weights))
        loss_metric(loss)
        if step % 2 == 0:
            print("step %d: mean loss = %.4f" % (step, loss_metric.result()))
vae.compile(optimizer, loss=tf.keras.losses.MeanSquaredError())
h = vae.fit(x_train, x_train, epochs=2, batch_size=8, verbose=0)
print([round(v, 4) for v in h.history['loss']])
vae.summary()
print(len(vae.losses), [type(l).__name__ for l in vae.submodules][:5])

class MaskedSum(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
    def call(self, inputs, mask=None):
        if mask is None:
            return tf.reduce_sum(inputs, axis=1)
        m = tf.cast(mask, inputs.dtype)[..., None]
        return tf.reduce_sum(inputs * m, axis=1)
    def compute_mask(self, inputs, mask=None):
        return None
emb = tf.keras.layers.Embedding(5, 2, mask_zero=True)
seq = tf.constant([[1, 2, 0], [3, 0, 0]])
e = emb(seq)
print(e._keras_mask)
print(MaskedSum()(e).shape)
inp = tf.keras.Input((None,), dtype="int32")
out = MaskedSum()(tf.keras.layers.Embedding(5, 2, mask_zero=True)(inp))
m = tf.keras.Model(inp, out)
print(m.output_shape, m(seq).shape)
print(m.compute_output_shape((None, 7)) if False else m.output.shape)

class TrackedDict(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.blocks = {"a": tf.keras.layers.Dense(2), "b": [tf.keras.layers.Dense(3)]}
    def call(self, x):
        return self.blocks["b"][0](self.blocks["a"](x))
td = TrackedDict()
td(tf.ones((1, 4)))
print(len(td.trainable_weights), [w.name for w in td.trainable_weights])
print(type(td.blocks).__name__, type(td.blocks["b"]).__name__)
