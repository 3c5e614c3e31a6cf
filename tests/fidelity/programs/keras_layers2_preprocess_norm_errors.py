import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(21)
data = np.array([[0.1, 0.2, 0.3], [0.8, 0.9, 1.0], [1.5, 1.6, 1.7]], dtype="float32")

# Normalization learns mean and variance from data with adapt().
norm = tf.keras.layers.Normalization()
print(norm.is_adapted)
norm.adapt(data)
print(norm.is_adapted)
print(np.round(norm.mean.numpy(), 4), np.round(norm.variance.numpy(), 4))
print(np.round(norm(data).numpy(), 4))
print(norm.get_config())
print([w.name for w in norm.weights], norm.count_params() if norm.built else None)
norm_axis = tf.keras.layers.Normalization(axis=None)
norm_axis.adapt(data)
print(norm_axis.mean.shape, np.round(norm_axis.mean.numpy(), 4),
      np.round(norm_axis(data).numpy()[0], 4))
fixed = tf.keras.layers.Normalization(mean=2.0, variance=4.0)
print(fixed(np.array([[2.0], [4.0]], "float32")).numpy().tolist())
inv = tf.keras.layers.Normalization(mean=2.0, variance=4.0, invert=True)
print(inv(np.array([[0.0], [1.0]], "float32")).numpy().tolist())
imgs = np.arange(2 * 2 * 2 * 3, dtype="float32").reshape(2, 2, 2, 3)
per_channel = tf.keras.layers.Normalization(axis=-1)
per_channel.adapt(imgs)
print(np.round(per_channel.mean.numpy(), 4), per_channel.mean.shape)
try:
    tf.keras.layers.Normalization(mean=1.0)
except Exception as e:
    print(type(e).__name__, e)

# Rescaling, Resizing and CenterCrop in an image model.
inputs = tf.keras.Input(shape=(6, 6, 3))
x = tf.keras.layers.Rescaling(1.0 / 255, offset=-0.5)(inputs)
x = tf.keras.layers.Resizing(4, 4)(x)
x = tf.keras.layers.CenterCrop(2, 2)(x)
x = tf.keras.layers.Flatten()(x)
outputs = tf.keras.layers.Dense(1)(x)
model = tf.keras.Model(inputs, outputs)
model.summary()
pix = np.arange(6 * 6 * 3, dtype="float32").reshape(1, 6, 6, 3)
print(np.round(model.layers[1](pix).numpy()[0, 0, :2], 4))
print(np.round(model.layers[2](pix).numpy()[0, :, :, 0], 3))
print(model.layers[3](pix).numpy()[0, :, :, 0].tolist())
print(model.layers[1].get_config(), model.layers[2].get_config())
print(tf.keras.layers.Resizing(3, 3, interpolation="nearest")(pix).numpy()[0, :, :, 0].tolist())
print(tf.keras.layers.Resizing(3, 2, crop_to_aspect_ratio=True)(pix).shape)

# BatchNormalization: batch statistics in training, moving averages in inference.
bn = tf.keras.layers.BatchNormalization(momentum=0.5, epsilon=1e-3)
batch = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]], dtype="float32")
print(np.round(bn(batch, training=True).numpy(), 4))
print(np.round(bn.moving_mean.numpy(), 4), np.round(bn.moving_variance.numpy(), 4))
print(np.round(bn(batch, training=False).numpy(), 4))
print(np.round(bn(batch).numpy(), 4))
bn.trainable = False
print(np.round(bn(batch, training=True).numpy(), 4))
print(np.round(bn.moving_mean.numpy(), 4))
print([w.name for w in bn.weights], [w.trainable for w in bn.weights])

model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones",
                                                   input_shape=(2,)),
                             tf.keras.layers.BatchNormalization(momentum=0.0)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
model.fit(batch, batch, batch_size=3, epochs=1, verbose=0)
print(np.round(model.layers[1].moving_mean.numpy(), 4))
print(np.round(model.predict(batch, verbose=0), 4))
print(np.round(model.evaluate(batch, batch, verbose=0), 4))

# Layer call errors: wrong ranks and incompatible feature sizes.
dense = tf.keras.layers.Dense(3)
dense(np.ones((2, 4), "float32"))
errors = [
    lambda: dense(np.ones((2, 5), "float32")),
    lambda: tf.keras.layers.Dense(3)(np.ones((4,), "float32")),
    lambda: tf.keras.layers.LSTM(2)(np.ones((2, 3), "float32")),
    lambda: tf.keras.layers.Conv1D(2, 2)(np.ones((2, 3), "float32")),
    lambda: tf.keras.layers.Concatenate()([np.ones((2, 3)), np.ones((3, 3))]),
    lambda: tf.keras.layers.Add()([np.ones((2, 3)), np.ones((2, 4))]),
    lambda: tf.keras.layers.Reshape((4,))(np.ones((2, 3))),
    lambda: tf.keras.layers.BatchNormalization(axis=3)(np.ones((2, 3))),
    lambda: tf.keras.layers.Embedding(5, 2, input_length=3)(tf.keras.Input((4,))),
    lambda: tf.keras.layers.Dense(0),
    lambda: tf.keras.layers.Dropout(1.5),
    lambda: tf.keras.layers.Permute((1, 3))(np.ones((2, 3, 4))),
    lambda: tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])(np.ones((1, 4))),
]
for fn in errors:
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__, "|", str(e).splitlines()[0])
        if isinstance(e, ValueError):
            print("   ", " ".join(str(e).split())[:300])
