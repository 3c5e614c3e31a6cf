import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
images = np.random.RandomState(1).rand(4, 28, 28, 1).astype("float32")

encoder = tf.keras.Sequential([
    tf.keras.layers.Input(shape=(28, 28, 1)),
    tf.keras.layers.Conv2D(8, (3, 3), activation="relu", padding="same", strides=2),
    tf.keras.layers.Conv2D(4, (3, 3), activation="relu", padding="same", strides=2),
], name="encoder")
decoder = tf.keras.Sequential([
    tf.keras.layers.Conv2DTranspose(4, kernel_size=3, strides=2, activation="relu",
                                    padding="same"),
    tf.keras.layers.Conv2DTranspose(8, kernel_size=3, strides=2, activation="relu",
                                    padding="same"),
    tf.keras.layers.Conv2D(1, kernel_size=(3, 3), activation="sigmoid", padding="same"),
], name="decoder")


class Denoise(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def call(self, x):
        return self.decoder(self.encoder(x))


autoencoder = Denoise()
autoencoder.compile(optimizer="adam", loss=tf.keras.losses.MeanSquaredError())
noisy = np.clip(images + 0.2 * np.random.RandomState(2).randn(*images.shape), 0.0,
                1.0).astype("float32")
hist = autoencoder.fit(noisy, images, epochs=2, batch_size=3, shuffle=False, verbose=0)
print(len(hist.history["loss"]))
autoencoder.encoder.summary()
autoencoder.decoder.summary()
print(autoencoder.encoder(images).shape, autoencoder(images).shape)
print([w.name for w in autoencoder.decoder.weights])

# A functional U-Net-like block: pooling, upsampling, cropping, padding, concatenation.
inp = tf.keras.Input(shape=(15, 15, 3), name="img")
x = tf.keras.layers.ZeroPadding2D(padding=((1, 0), (1, 0)))(inp)
print(x.shape)
c1 = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu", name="c1")(x)
p1 = tf.keras.layers.MaxPooling2D(pool_size=(2, 2))(c1)
c2 = tf.keras.layers.Conv2D(8, 3, padding="valid", name="c2")(p1)
print(p1.shape, c2.shape)
c2 = tf.keras.layers.ZeroPadding2D(1)(c2)
u1 = tf.keras.layers.UpSampling2D(size=(2, 2), interpolation="nearest")(c2)
merged = tf.keras.layers.Concatenate(axis=-1)([u1, c1])
print(u1.shape, merged.shape)
out = tf.keras.layers.Conv2D(3, 1, name="head")(merged)
out = tf.keras.layers.Cropping2D(cropping=((1, 0), (1, 0)))(out)
unet = tf.keras.Model(inp, out, name="tiny_unet")
unet.summary()
y = unet(np.ones((2, 15, 15, 3), "float32"))
print(y.shape, y.dtype)

# Output shapes of common layers for odd sizes, strides and dilation.
x = tf.ones((1, 9, 9, 2))
for layer in [
    tf.keras.layers.Conv2D(3, 3, strides=2, padding="valid"),
    tf.keras.layers.Conv2D(3, 3, strides=2, padding="same"),
    tf.keras.layers.Conv2D(3, 3, dilation_rate=2),
    tf.keras.layers.Conv2DTranspose(3, 3, strides=2, padding="valid"),
    tf.keras.layers.Conv2DTranspose(3, 3, strides=2, padding="same", output_padding=1),
    tf.keras.layers.SeparableConv2D(4, 3, depth_multiplier=2),
    tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2, padding="same"),
    tf.keras.layers.MaxPooling2D(3, strides=2),
    tf.keras.layers.AveragePooling2D(2, padding="same"),
    tf.keras.layers.GlobalMaxPooling2D(keepdims=True),
    tf.keras.layers.UpSampling2D((2, 3), interpolation="bilinear"),
    tf.keras.layers.Cropping2D(((2, 1), (0, 3))),
    tf.keras.layers.ZeroPadding2D(((0, 1), (2, 0))),
]:
    got = layer(x)
    print(type(layer).__name__, got.shape, layer.compute_output_shape(x.shape),
          layer.count_params())

# Deterministic values with fixed weights.
img = np.arange(16, dtype="float32").reshape(1, 4, 4, 1)
conv = tf.keras.layers.Conv2D(1, 2, strides=2, kernel_initializer="ones",
                              bias_initializer="zeros")
print(conv(img).numpy().squeeze().tolist())
tconv = tf.keras.layers.Conv2DTranspose(1, 2, strides=2, kernel_initializer="ones",
                                        use_bias=False)
print(tconv(np.array([[[[1.0], [2.0]]]], "float32")).numpy().squeeze().tolist())
print(tf.keras.layers.MaxPooling2D()(img).numpy().squeeze().tolist())
print(tf.keras.layers.AveragePooling2D(3, 1)(img).numpy().squeeze().tolist())
print(tf.keras.layers.UpSampling2D(interpolation="bilinear")(img[:, :2, :2]).numpy()
      .squeeze().round(4).tolist())
print(tf.keras.layers.Cropping2D(1)(img).numpy().squeeze().tolist())
print(conv.get_config())
print(tconv.get_config()["output_padding"], tconv.get_config()["strides"])

# Errors from wrong ranks and too-small inputs.
for bad in [lambda: tf.keras.layers.Conv2D(2, 3)(tf.ones((4, 4, 1))),
            lambda: tf.keras.layers.Conv2D(2, 5)(tf.ones((1, 3, 3, 1))),
            lambda: tf.keras.layers.MaxPooling2D()(tf.ones((2, 4))),
            lambda: tf.keras.layers.Conv2D(2, 3, padding="full"),
            lambda: tf.keras.layers.Cropping2D(((3, 3), (0, 0)))(tf.ones((1, 4, 4, 1)))]:
    try:
        bad()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
