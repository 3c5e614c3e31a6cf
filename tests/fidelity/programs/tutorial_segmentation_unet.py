"""Image segmentation as tensorflow.org's tutorial (small random images and masks): a U-Net of
Conv2D/Conv2DTranspose blocks with batch normalization and dropout, per-pixel sample weights
from a dataset map, predicted masks, and tf.image.resize methods."""
import numpy as np
import tensorflow as tf
np.set_printoptions(precision=4, suppress=True)
tf.keras.utils.set_random_seed(6)
def upsample(filters, size, apply_dropout=False):
  initializer = tf.random_normal_initializer(0., 0.02)
  result = tf.keras.Sequential()
  result.add(tf.keras.layers.Conv2DTranspose(filters, size, strides=2, padding='same', kernel_initializer=initializer, use_bias=False))
  result.add(tf.keras.layers.BatchNormalization())
  if apply_dropout:
      result.add(tf.keras.layers.Dropout(0.5))
  result.add(tf.keras.layers.ReLU())
  return result
def downsample(filters, size):
  initializer = tf.random_normal_initializer(0., 0.02)
  result = tf.keras.Sequential()
  result.add(tf.keras.layers.Conv2D(filters, size, strides=2, padding='same', kernel_initializer=initializer, use_bias=False))
  result.add(tf.keras.layers.BatchNormalization())
  result.add(tf.keras.layers.LeakyReLU())
  return result
def unet_model(output_channels:int):
  inputs = tf.keras.layers.Input(shape=[16, 16, 3])
  skips = []
  x = inputs
  for down in [downsample(8, 3), downsample(16, 3), downsample(16, 3)]:
    x = down(x); skips.append(x)
  skips = reversed(skips[:-1])
  for up, skip in zip([upsample(16, 3, True), upsample(8, 3)], skips):
    x = up(x)
    concat = tf.keras.layers.Concatenate()
    x = concat([x, skip])
  last = tf.keras.layers.Conv2DTranspose(filters=output_channels, kernel_size=3, strides=2, padding='same')
  x = last(x)
  return tf.keras.Model(inputs=inputs, outputs=x)
model = unet_model(output_channels=3)
model.compile(optimizer='adam', loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=['accuracy'])
rng = np.random.RandomState(0)
images = rng.rand(12, 16, 16, 3).astype('float32'); masks = rng.randint(0, 3, (12, 16, 16, 1))
def add_sample_weights(image, label):
  class_weights = tf.constant([2.0, 2.0, 1.0])
  class_weights = class_weights/tf.reduce_sum(class_weights)
  sample_weights = tf.gather(class_weights, indices=tf.cast(label, tf.int32))
  return image, label, sample_weights
ds = tf.data.Dataset.from_tensor_slices((images, masks)).batch(4)
h = model.fit(ds.map(add_sample_weights), epochs=2, verbose=0)
print({k: np.round(v, 4) for k, v in h.history.items()})
h = model.fit(ds, epochs=2, verbose=0, validation_data=ds)
print({k: np.round(v, 4) for k, v in h.history.items()})
def create_mask(pred_mask):
  pred_mask = tf.math.argmax(pred_mask, axis=-1)
  pred_mask = pred_mask[..., tf.newaxis]
  return pred_mask[0]
pm = create_mask(model.predict(images[:1], verbose=0))
print(pm.shape, pm[:3, :6, 0].numpy())
print(tf.image.resize(images[:1], (8, 8)).numpy()[0, 0, :2], tf.image.resize(masks[:1], (8, 8), method='nearest').numpy()[0, 0, :4, 0])
print(tf.image.resize(images[:1], (5, 7), method='bicubic', antialias=True).numpy()[0, 0, :2])
print(tf.image.resize(images[:1], (20, 20), method='area').numpy()[0, 1, :2])
print(tf.image.resize_with_pad(images[0], 10, 20).numpy()[4, :3, 0])
