"""Structured data with Keras preprocessing layers as tensorflow.org's tutorial (a synthetic
pet table): Normalization, StringLookup, IntegerLookup and CategoryEncoding adapted on a
dataset of feature dicts, a functional model over them, saved and reloaded."""
import numpy as np
import tensorflow as tf
np.set_printoptions(precision=4, suppress=True)
tf.keras.utils.set_random_seed(9)
rng = np.random.RandomState(0)
N = 200
data = {
  'Age': rng.randint(1, 120, N).astype('int64'),
  'Type': rng.choice(['Cat', 'Dog'], N),
  'Breed1': rng.choice(['Tabby', 'Mixed Breed', 'Siamese', 'Husky', 'Poodle'], N),
  'Fee': rng.choice([0, 50, 100, 200], N).astype('int64'),
  'PhotoAmt': rng.randint(0, 10, N).astype('float32'),
  'MaturitySize': rng.choice(['Small', 'Medium', 'Large'], N),
}
target = (rng.rand(N) < 0.3 + 0.4 * (data['Type'] == 'Dog')).astype('int64')
idx = np.arange(N); train_idx, val_idx, test_idx = idx[:140], idx[140:170], idx[170:]
def df_to_dataset(index, shuffle=True, batch_size=32):
  d = {key: value[index][:, tf.newaxis] for key, value in data.items()}
  ds = tf.data.Dataset.from_tensor_slices((dict(d), target[index]))
  if shuffle:
    ds = ds.shuffle(buffer_size=len(index))
  ds = ds.batch(batch_size)
  ds = ds.prefetch(batch_size)
  return ds
batch_size = 5
train_ds = df_to_dataset(train_idx, batch_size=batch_size)
[(train_features, label_batch)] = train_ds.take(1)
print('Every feature:', list(train_features.keys()))
print('A batch of ages:', train_features['Age'])
print('A batch of targets:', label_batch)

def get_normalization_layer(name, dataset):
  normalizer = tf.keras.layers.Normalization(axis=None)
  feature_ds = dataset.map(lambda x, y: x[name])
  normalizer.adapt(feature_ds)
  return normalizer
photo_count_col = train_features['PhotoAmt']
layer = get_normalization_layer('PhotoAmt', train_ds)
print(layer(photo_count_col))

def get_category_encoding_layer(name, dataset, dtype, max_tokens=None):
  if dtype == 'string':
    index = tf.keras.layers.StringLookup(max_tokens=max_tokens)
  else:
    index = tf.keras.layers.IntegerLookup(max_tokens=max_tokens)
  feature_ds = dataset.map(lambda x, y: x[name])
  index.adapt(feature_ds)
  encoder = tf.keras.layers.CategoryEncoding(num_tokens=index.vocabulary_size())
  return lambda feature: encoder(index(feature))
test_type_col = train_features['Type']
test_type_layer = get_category_encoding_layer(name='Type', dataset=train_ds, dtype='string')
print(test_type_layer(test_type_col))
test_age_col = train_features['Age']
test_age_layer = get_category_encoding_layer(name='Age', dataset=train_ds, dtype='int64', max_tokens=5)
print(test_age_layer(test_age_col))

batch_size = 32
train_ds = df_to_dataset(train_idx, batch_size=batch_size)
val_ds = df_to_dataset(val_idx, shuffle=False, batch_size=batch_size)
test_ds = df_to_dataset(test_idx, shuffle=False, batch_size=batch_size)
all_inputs = []
encoded_features = []
for header in ['PhotoAmt', 'Fee']:
  numeric_col = tf.keras.Input(shape=(1,), name=header)
  normalization_layer = get_normalization_layer(header, train_ds)
  encoded_numeric_col = normalization_layer(numeric_col)
  all_inputs.append(numeric_col)
  encoded_features.append(encoded_numeric_col)
age_col = tf.keras.Input(shape=(1,), name='Age', dtype='int64')
encoding_layer = get_category_encoding_layer(name='Age', dataset=train_ds, dtype='int64', max_tokens=5)
encoded_age_col = encoding_layer(age_col)
all_inputs.append(age_col)
encoded_features.append(encoded_age_col)
categorical_cols = ['Type', 'Breed1', 'MaturitySize']
for header in categorical_cols:
  categorical_col = tf.keras.Input(shape=(1,), name=header, dtype='string')
  encoding_layer = get_category_encoding_layer(name=header, dataset=train_ds, dtype='string', max_tokens=5)
  encoded_categorical_col = encoding_layer(categorical_col)
  all_inputs.append(categorical_col)
  encoded_features.append(encoded_categorical_col)
all_features = tf.keras.layers.concatenate(encoded_features)
x = tf.keras.layers.Dense(32, activation="relu")(all_features)
x = tf.keras.layers.Dropout(0.5)(x)
output = tf.keras.layers.Dense(1)(x)
model = tf.keras.Model(all_inputs, output)
model.compile(optimizer='adam', loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), metrics=["accuracy"])
model.summary()
h = model.fit(train_ds, epochs=4, validation_data=val_ds, verbose=0)
print({k: np.round(v, 4) for k, v in h.history.items()})
loss, accuracy = model.evaluate(test_ds, verbose=0)
print("Accuracy", round(accuracy, 4), round(loss, 4))
import tempfile, os
d = tempfile.mkdtemp()
model.save(os.path.join(d, 'my_pet_classifier.keras'))
reloaded_model = tf.keras.models.load_model(os.path.join(d, 'my_pet_classifier.keras'))
sample = {'Type': 'Cat', 'Age': 3, 'Breed1': 'Tabby', 'Fee': 100, 'PhotoAmt': 2, 'MaturitySize': 'Small'}
input_dict = {name: tf.convert_to_tensor([value]) for name, value in sample.items()}
predictions = reloaded_model.predict(input_dict, verbose=0)
prob = tf.nn.sigmoid(predictions[0])
print("This particular pet had a %.1f percent probability of getting adopted." % (100 * prob[0]))
print(model.predict(input_dict, verbose=0))
