"""Autoencoders as tensorflow.org's tutorial (small random images, a synthetic ECG set): a dense
autoencoder, a convolutional denoiser on noisy inputs, and anomaly detection by a
reconstruction-error threshold."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers, losses
from tensorflow.keras.models import Model
np.set_printoptions(precision=4, suppress=True)
tf.keras.utils.set_random_seed(11)
rng = np.random.RandomState(1)
x_train = rng.rand(64, 8, 8).astype('float32')
x_test = rng.rand(16, 8, 8).astype('float32')

class Autoencoder(Model):
  def __init__(self, latent_dim, shape):
    super(Autoencoder, self).__init__()
    self.latent_dim = latent_dim
    self.shape = shape
    self.encoder = tf.keras.Sequential([
      layers.Flatten(),
      layers.Dense(latent_dim, activation='relu'),
    ])
    self.decoder = tf.keras.Sequential([
      layers.Dense(tf.math.reduce_prod(shape).numpy(), activation='sigmoid'),
      layers.Reshape(shape)
    ])
  def call(self, x):
    encoded = self.encoder(x)
    decoded = self.decoder(encoded)
    return decoded

shape = x_test.shape[1:]
autoencoder = Autoencoder(16, shape)
autoencoder.compile(optimizer='adam', loss=losses.MeanSquaredError())
h = autoencoder.fit(x_train, x_train, epochs=3, shuffle=True, validation_data=(x_test, x_test), verbose=0)
print({k: np.round(v, 5) for k, v in h.history.items()})
encoded_imgs = autoencoder.encoder(x_test).numpy()
decoded_imgs = autoencoder.decoder(encoded_imgs).numpy()
print(encoded_imgs.shape, decoded_imgs.shape, decoded_imgs[0, 0])

# denoising
x_train4 = x_train[..., tf.newaxis]
x_test4 = x_test[..., tf.newaxis]
noise_factor = 0.2
x_train_noisy = x_train4 + noise_factor * tf.random.normal(shape=x_train4.shape)
x_test_noisy = x_test4 + noise_factor * tf.random.normal(shape=x_test4.shape)
x_train_noisy = tf.clip_by_value(x_train_noisy, clip_value_min=0., clip_value_max=1.)
x_test_noisy = tf.clip_by_value(x_test_noisy, clip_value_min=0., clip_value_max=1.)
print(x_test_noisy[0, 0, :4, 0].numpy())

class Denoise(Model):
  def __init__(self):
    super(Denoise, self).__init__()
    self.encoder = tf.keras.Sequential([
      layers.Input(shape=(8, 8, 1)),
      layers.Conv2D(8, (3, 3), activation='relu', padding='same', strides=2),
      layers.Conv2D(4, (3, 3), activation='relu', padding='same', strides=2)])
    self.decoder = tf.keras.Sequential([
      layers.Conv2DTranspose(4, kernel_size=3, strides=2, activation='relu', padding='same'),
      layers.Conv2DTranspose(8, kernel_size=3, strides=2, activation='relu', padding='same'),
      layers.Conv2D(1, kernel_size=(3, 3), activation='sigmoid', padding='same')])
  def call(self, x):
    encoded = self.encoder(x)
    decoded = self.decoder(encoded)
    return decoded

autoencoder = Denoise()
autoencoder.compile(optimizer='adam', loss=losses.MeanSquaredError())
h = autoencoder.fit(x_train_noisy, x_train4, epochs=3, shuffle=True, validation_data=(x_test_noisy, x_test4), verbose=0)
print({k: np.round(v, 5) for k, v in h.history.items()})
autoencoder.encoder.summary()
autoencoder.decoder.summary()
encoded_imgs = autoencoder.encoder(x_test_noisy).numpy()
decoded_imgs = autoencoder.decoder(encoded_imgs).numpy()
print(decoded_imgs[0, 0, :4, 0])

# anomaly detection (ECG-like)
t = np.linspace(0, 2 * np.pi, 20)
normal = np.sin(t)[None] + 0.05 * rng.randn(80, 20)
anomal = np.cos(3 * t)[None] + 0.05 * rng.randn(20, 20)
data = np.concatenate([normal, anomal]).astype(np.float32)
labels = np.concatenate([np.ones(80), np.zeros(20)]).astype(bool)
perm = rng.permutation(100)
data, labels = data[perm], labels[perm]
train_data, test_data = data[:70], data[70:]
train_labels, test_labels = labels[:70], labels[70:]
min_val = tf.reduce_min(train_data)
max_val = tf.reduce_max(train_data)
train_data = (train_data - min_val) / (max_val - min_val)
test_data = (test_data - min_val) / (max_val - min_val)
train_data = tf.cast(train_data, tf.float32)
test_data = tf.cast(test_data, tf.float32)
normal_train_data = train_data[train_labels]
normal_test_data = test_data[test_labels]
anomalous_train_data = train_data[~train_labels]
anomalous_test_data = test_data[~test_labels]
print(normal_train_data.shape, anomalous_test_data.shape)

class AnomalyDetector(Model):
  def __init__(self):
    super(AnomalyDetector, self).__init__()
    self.encoder = tf.keras.Sequential([
      layers.Dense(16, activation="relu"),
      layers.Dense(8, activation="relu"),
      layers.Dense(4, activation="relu")])
    self.decoder = tf.keras.Sequential([
      layers.Dense(8, activation="relu"),
      layers.Dense(16, activation="relu"),
      layers.Dense(20, activation="sigmoid")])
  def call(self, x):
    encoded = self.encoder(x)
    decoded = self.decoder(encoded)
    return decoded

autoencoder = AnomalyDetector()
autoencoder.compile(optimizer='adam', loss='mae')
history = autoencoder.fit(normal_train_data, normal_train_data, epochs=5, batch_size=16,
          validation_data=(test_data, test_data), shuffle=True, verbose=0)
print({k: np.round(v, 5) for k, v in history.history.items()})
reconstructions = autoencoder.predict(normal_train_data, verbose=0)
train_loss = tf.keras.losses.mae(reconstructions, normal_train_data)
threshold = np.mean(train_loss) + np.std(train_loss)
print("Threshold: ", threshold)
reconstructions = autoencoder.predict(anomalous_test_data, verbose=0)
test_loss = tf.keras.losses.mae(reconstructions, anomalous_test_data)
print(test_loss.numpy()[:4])

def predict(model, data, threshold):
  reconstructions = model(data)
  loss = tf.keras.losses.mae(reconstructions, data)
  return tf.math.less(loss, threshold)

def print_stats(predictions, labels):
  from math import isnan
  tp = np.sum(predictions & labels); fp = np.sum(predictions & ~labels)
  fn = np.sum(~predictions & labels)
  print("Accuracy = {}".format(np.mean(predictions == labels)))
  print("Precision = {}".format(tp / (tp + fp)))
  print("Recall = {}".format(tp / (tp + fn)))
preds = predict(autoencoder, test_data, threshold)
print(preds.dtype, preds.shape)
print_stats(preds.numpy(), test_labels)
