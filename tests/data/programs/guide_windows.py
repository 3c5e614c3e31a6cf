# The "Preprocessing data" and "Time series windowing" sections of the tf.data guide.
import tensorflow as tf

range_ds = tf.data.Dataset.range(100000)
batches = range_ds.batch(10, drop_remainder=True)
for batch in batches.take(5):
    print(batch.numpy())


def dense_1_step(batch):
    return batch[:-1], batch[1:]


predict_dense_1_step = batches.map(dense_1_step)
for features, label in predict_dense_1_step.take(3):
    print(features.numpy(), " => ", label.numpy())

batches = range_ds.batch(15, drop_remainder=True)


def label_next_5_steps(batch):
    return (batch[:-5], batch[-5:])


predict_5_steps = batches.map(label_next_5_steps)
for features, label in predict_5_steps.take(3):
    print(features.numpy(), " => ", label.numpy())

feature_length = 10
label_length = 3
features = range_ds.batch(feature_length, drop_remainder=True)
labels = range_ds.batch(feature_length).skip(1).map(lambda labels: labels[:label_length])
predicted_steps = tf.data.Dataset.zip((features, labels))
for features, label in predicted_steps.take(5):
    print(features.numpy(), " => ", label.numpy())

window_size = 5
windows = range_ds.window(window_size, shift=1)
for sub_ds in windows.take(5):
    print(sub_ds)
for x in windows.flat_map(lambda x: x).take(30):
    print(x.numpy(), end=' ')
print()


def sub_to_batch(sub):
    return sub.batch(window_size, drop_remainder=True)


for example in windows.flat_map(sub_to_batch).take(5):
    print(example.numpy())


def make_window_dataset(ds, window_size=5, shift=1, stride=1):
    windows = ds.window(window_size, shift=shift, stride=stride)

    def sub_to_batch(sub):
        return sub.batch(window_size, drop_remainder=True)

    windows = windows.flat_map(sub_to_batch)
    return windows


ds = make_window_dataset(range_ds, window_size=10, shift=5, stride=3)
for example in ds.take(10):
    print(example.numpy())

dense_labels_ds = ds.map(dense_1_step)
for inputs, labels in dense_labels_ds.take(3):
    print(inputs.numpy(), "=>", labels.numpy())
print(dense_labels_ds.element_spec)
