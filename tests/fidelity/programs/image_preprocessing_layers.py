import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(7)
L = tf.keras.layers
rng = np.random.RandomState(0)
img = (rng.rand(4, 16, 16, 3) * 255).astype(np.float32)
labels = np.array([0, 1, 2, 1])


def show(name, t):
    print(name, t.dtype.name, tuple(t.shape), np.round(t.numpy().ravel()[:4], 3),
          round(float(tf.reduce_sum(tf.cast(t, tf.float64))), 1))


for method in ["bilinear", "bicubic", "area", "lanczos3", "mitchellcubic"]:
    show(f"Resizing-{method}", L.Resizing(5, 7, interpolation=method)(img))
show("Resizing-crop", L.Resizing(6, 4, crop_to_aspect_ratio=True, interpolation="bicubic")(img))
for layer in [L.RandomRotation(0.2, seed=2), L.RandomZoom((-0.2, 0.3), seed=3),
              L.RandomTranslation(0.1, 0.2, seed=4, fill_mode="wrap"),
              L.RandomHeight(0.3, seed=5), L.RandomWidth(0.3, seed=6)]:
    print(layer.get_config())
    show(layer.name, layer(img, training=True))
    show(layer.name + "-inference", layer(img))

resize_and_rescale = tf.keras.Sequential([L.Resizing(12, 12), L.Rescaling(1.0 / 255)])
data_augmentation = tf.keras.Sequential([L.RandomFlip("horizontal_and_vertical"),
                                         L.RandomRotation(0.2)])
ds = tf.data.Dataset.from_tensor_slices((img, labels)).batch(2)
ds = ds.map(lambda x, y: (resize_and_rescale(x), y))
ds = ds.map(lambda x, y: (data_augmentation(x, training=True), y))
print(ds.element_spec)
for x, y in ds:
    show("augmented", x)


@tf.function(input_signature=[tf.TensorSpec([None, None, None, 3], tf.float32)])
def pad(x):
    return tf.image.resize_with_pad(x, 6, 6)


x = np.arange(80, dtype=np.float32).reshape(1, 8, 10, 1).repeat(3, axis=-1)
show("resize_with_pad-function", pad(x))
print(np.round(pad(x).numpy()[0, :, :, 0], 2))
print(np.round(tf.image.resize_with_pad(x, 6, 6).numpy()[0, :, :, 0], 2))
print(tf.function(lambda v: v / 6.0)(tf.constant([10.0, 7.0])).numpy().tolist())
show("v1-resize_image_with_pad",
     tf.compat.v1.image.resize_image_with_pad(x, 5, 9, align_corners=True))
