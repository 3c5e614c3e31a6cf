"""Imbalanced classification as tensorflow.org's tutorial (a synthetic 6% positive set): the
metrics list (AUC, PR AUC, precision, recall, counts), an output bias initializer, class_weight,
EarlyStopping restoring the best weights, and oversampling with sample_from_datasets."""
import numpy as np
import tensorflow as tf
from tensorflow import keras
np.set_printoptions(precision=4, suppress=True)
tf.keras.utils.set_random_seed(5)
rng = np.random.RandomState(0)
N = 600
pos_mask = rng.rand(N) < 0.06
features = rng.randn(N, 6).astype(np.float32)
features[pos_mask] += 1.5
labels = pos_mask.astype(np.float32)
neg, pos = np.bincount(labels.astype(int))
total = neg + pos
print('Examples:\n    Total: {}\n    Positive: {} ({:.2f}% of total)\n'.format(total, pos, 100 * pos / total))
train_features, val_features, test_features = features[:400], features[400:500], features[500:]
train_labels, val_labels, test_labels = labels[:400], labels[400:500], labels[500:]
train_features = np.clip(train_features, -5, 5)

METRICS = [
      keras.metrics.BinaryCrossentropy(name='cross entropy'),
      keras.metrics.MeanSquaredError(name='Brier score'),
      keras.metrics.TruePositives(name='tp'),
      keras.metrics.FalsePositives(name='fp'),
      keras.metrics.TrueNegatives(name='tn'),
      keras.metrics.FalseNegatives(name='fn'),
      keras.metrics.BinaryAccuracy(name='accuracy'),
      keras.metrics.Precision(name='precision'),
      keras.metrics.Recall(name='recall'),
      keras.metrics.AUC(name='auc'),
      keras.metrics.AUC(name='prc', curve='PR'),
]

def make_model(metrics=METRICS, output_bias=None):
  if output_bias is not None:
    output_bias = tf.keras.initializers.Constant(output_bias)
  model = keras.Sequential([
      keras.layers.Dense(16, activation='relu', input_shape=(train_features.shape[-1],)),
      keras.layers.Dropout(0.5),
      keras.layers.Dense(1, activation='sigmoid', bias_initializer=output_bias),
  ])
  model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3),
      loss=keras.losses.BinaryCrossentropy(), metrics=metrics)
  return model

EPOCHS = 4
BATCH_SIZE = 64
early_stopping = tf.keras.callbacks.EarlyStopping(monitor='val_prc', verbose=1, patience=10, mode='max', restore_best_weights=True)
model = make_model()
model.summary()
print(model.predict(train_features[:4], verbose=0))
results = model.evaluate(train_features, train_labels, batch_size=BATCH_SIZE, verbose=0)
print("Loss: {:0.4f}".format(results[0]))
initial_bias = np.log([pos / neg])
print(initial_bias)
model = make_model(output_bias=initial_bias)
print(model.predict(train_features[:4], verbose=0))
results = model.evaluate(train_features, train_labels, batch_size=BATCH_SIZE, verbose=0)
print("Loss: {:0.4f}".format(results[0]))
import os, tempfile
initial_weights = os.path.join(tempfile.mkdtemp(), 'initial.weights.h5')
model.save_weights(initial_weights)
model = make_model()
model.load_weights(initial_weights)
model.layers[-1].bias.assign([0.0])
zero_bias_history = model.fit(train_features, train_labels, batch_size=BATCH_SIZE, epochs=3,
    validation_data=(val_features, val_labels), verbose=0)
print({k: np.round(v, 4) for k, v in zero_bias_history.history.items()})

model = make_model()
model.load_weights(initial_weights)
baseline_history = model.fit(train_features, train_labels, batch_size=BATCH_SIZE, epochs=EPOCHS,
    callbacks=[early_stopping], validation_data=(val_features, val_labels), verbose=0)
print({k: np.round(v, 4) for k, v in baseline_history.history.items()})
train_predictions_baseline = model.predict(train_features, batch_size=BATCH_SIZE, verbose=0)
baseline_results = model.evaluate(test_features, test_labels, batch_size=BATCH_SIZE, verbose=0)
for name, value in zip(model.metrics_names, baseline_results):
  print(name, ': ', value)
print(model.evaluate(test_features, test_labels, batch_size=BATCH_SIZE, verbose=0, return_dict=True))

weight_for_0 = (1 / neg) * (total / 2.0)
weight_for_1 = (1 / pos) * (total / 2.0)
class_weight = {0: weight_for_0, 1: weight_for_1}
print('Weight for class 0: {:.2f}'.format(weight_for_0))
print('Weight for class 1: {:.2f}'.format(weight_for_1))
weighted_model = make_model()
weighted_model.load_weights(initial_weights)
weighted_history = weighted_model.fit(train_features, train_labels, batch_size=BATCH_SIZE, epochs=EPOCHS,
    callbacks=[early_stopping], validation_data=(val_features, val_labels), class_weight=class_weight, verbose=0)
print({k: np.round(v, 4) for k, v in weighted_history.history.items()})

# oversampling with sample_from_datasets
bool_train_labels = train_labels != 0
pos_features = train_features[bool_train_labels]; neg_features = train_features[~bool_train_labels]
pos_labels = train_labels[bool_train_labels]; neg_labels = train_labels[~bool_train_labels]
BUFFER_SIZE = 1000
def make_ds(features, labels):
  ds = tf.data.Dataset.from_tensor_slices((features, labels))
  ds = ds.shuffle(BUFFER_SIZE).repeat()
  return ds
pos_ds = make_ds(pos_features, pos_labels)
neg_ds = make_ds(neg_features, neg_labels)
def resampled():
  return tf.data.Dataset.sample_from_datasets([pos_ds, neg_ds], weights=[0.5, 0.5]).batch(BATCH_SIZE).prefetch(2)
resampled_steps_per_epoch = int(np.ceil(2.0 * neg / BATCH_SIZE))
print(resampled_steps_per_epoch)
resampled_model = make_model()
resampled_model.load_weights(initial_weights)
output_layer = resampled_model.layers[-1]
output_layer.bias.assign([0])
val_ds = tf.data.Dataset.from_tensor_slices((val_features, val_labels)).cache().batch(BATCH_SIZE).prefetch(2)
resampled_history = resampled_model.fit(resampled(), epochs=2, steps_per_epoch=4,
    callbacks=[early_stopping], validation_data=val_ds, verbose=0)
print({k: np.round(v, 4) for k, v in resampled_history.history.items()})
print(resampled_model.predict(test_features[:5], verbose=0).ravel())
