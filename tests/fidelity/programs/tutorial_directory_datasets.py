"""Loading text and images from class directories as tensorflow.org's tutorials do (files written
to a temporary folder): text_dataset_from_directory and image_dataset_from_directory with
seeded training/validation splits, label modes, TextLineDataset and list_files."""
import numpy as np, os, tempfile
import tensorflow as tf
d = tempfile.mkdtemp()
rng = np.random.RandomState(0)
words = "alpha beta gamma delta eps zeta eta theta".split()
for cls in ['neg', 'pos']:
    os.makedirs(os.path.join(d, 'text', cls))
    for i in range(7):
        with open(os.path.join(d, 'text', cls, f'{i}.txt'), 'w') as f:
            f.write(' '.join(rng.choice(words, 4)) + (' <br />' if i % 2 else ''))
batch_size = 4; seed = 42
raw_train_ds = tf.keras.utils.text_dataset_from_directory(os.path.join(d, 'text'), batch_size=batch_size,
    validation_split=0.2, subset='training', seed=seed, class_names=['neg', 'pos'])
raw_val_ds = tf.keras.utils.text_dataset_from_directory(os.path.join(d, 'text'), batch_size=batch_size,
    validation_split=0.2, subset='validation', seed=seed, class_names=['neg', 'pos'])
print(raw_train_ds.class_names, raw_train_ds.element_spec)
for text_batch, label_batch in raw_train_ds.take(1):
  for i in range(3):
    print("Review", text_batch.numpy()[i], "Label", label_batch.numpy()[i])
print([l.numpy().tolist() for _, l in raw_val_ds])
a = tf.keras.utils.text_dataset_from_directory(os.path.join(d, 'text'), labels='inferred', label_mode='categorical', shuffle=False, batch_size=None)
print(a.class_names, [l.numpy().tolist() for _, l in a.take(3)])
b, c = tf.keras.utils.text_dataset_from_directory(os.path.join(d, 'text'), validation_split=0.3, subset='both', seed=1, max_length=10)
print(len(b), len(c), [t.numpy().tolist() for t, _ in c.take(1)])
for cls in ['cat', 'dog']:
    os.makedirs(os.path.join(d, 'img', cls))
    for i in range(5):
        img = (rng.rand(6, 8, 3) * 255).astype('uint8')
        tf.io.write_file(os.path.join(d, 'img', cls, f'{i}.png'), tf.io.encode_png(img))
train_ds = tf.keras.utils.image_dataset_from_directory(os.path.join(d, 'img'), validation_split=0.2, subset="training", seed=123, image_size=(4, 4), batch_size=3)
print(train_ds.class_names, train_ds.element_spec)
for image_batch, labels_batch in train_ds:
    print(image_batch.shape, labels_batch.numpy(), np.round(image_batch.numpy()[0, 0, 0], 2))
g = tf.keras.utils.image_dataset_from_directory(os.path.join(d, 'img'), image_size=(3, 3), batch_size=2, color_mode='grayscale', label_mode='binary', shuffle=False, crop_to_aspect_ratio=True)
for x, y in g.take(1): print(x.numpy()[0, :, :, 0].round(1), y.numpy())
lines = tf.data.TextLineDataset([os.path.join(d, 'text', 'neg', '0.txt'), os.path.join(d, 'text', 'pos', '1.txt')])
print(list(lines.as_numpy_iterator()))
files = tf.data.Dataset.list_files(os.path.join(d, 'text', '*', '*.txt'), shuffle=False)
print(len(files), [os.path.basename(f) for f in files.take(3).as_numpy_iterator()])
tf.keras.utils.set_random_seed(3)
files = tf.data.Dataset.list_files(os.path.join(d, 'text', 'pos', '*.txt'))
print([os.path.basename(f) for f in files.as_numpy_iterator()])
