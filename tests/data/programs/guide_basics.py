# The "Basic mechanics" and "Reading input data" sections of TensorFlow's tf.data guide.
import numpy as np
import tensorflow as tf

dataset = tf.data.Dataset.from_tensor_slices([8, 3, 0, 8, 2, 1])
print(dataset)
for elem in dataset:
    print(elem.numpy())
it = iter(dataset)
print(next(it).numpy())
print(dataset.reduce(0, lambda state, value: state + value).numpy())

dataset1 = tf.data.Dataset.from_tensor_slices(tf.random.uniform([4, 10]))
print(dataset1.element_spec)
dataset2 = tf.data.Dataset.from_tensor_slices(
    (tf.random.uniform([4]),
     tf.random.uniform([4, 100], maxval=100, dtype=tf.int32)))
print(dataset2.element_spec)
dataset3 = tf.data.Dataset.zip((dataset1, dataset2))
print(dataset3.element_spec)

dataset1 = tf.data.Dataset.from_tensor_slices(
    tf.random.uniform([4, 10], minval=1, maxval=10, dtype=tf.int32))
for z in dataset1:
    print(z.shape, z.dtype)
dataset2 = tf.data.Dataset.from_tensor_slices(
    (tf.random.uniform([4]), tf.random.uniform([4, 100], maxval=100, dtype=tf.int32)))
for a, (b, c) in tf.data.Dataset.zip((dataset1, dataset2)).take(2):
    print("shapes: {a.shape}, {b.shape}, {c.shape}".format(a=a, b=b, c=c))

# Consuming NumPy arrays
images = np.arange(6 * 4 * 4, dtype=np.uint8).reshape(6, 4, 4)
labels = np.array([9, 0, 0, 3, 0, 2], dtype=np.uint8)
images = images / 255
dataset = tf.data.Dataset.from_tensor_slices((images, labels))
print(dataset)
for image, label in dataset.take(2):
    print(image.shape, image.dtype, label)


# Consuming Python generators
def count(stop):
    i = 0
    while i < stop:
        yield i
        i += 1


for n in count(5):
    print(n)
ds_counter = tf.data.Dataset.from_generator(count, args=[25], output_types=tf.int32,
                                            output_shapes=(), )
for count_batch in ds_counter.repeat().batch(10).take(10):
    print(count_batch.numpy())


def gen_series():
    rng = np.random.default_rng(0)
    i = 0
    while i < 12:
        size = rng.integers(0, 10)
        yield i, rng.normal(size=(size,))
        i += 1


for i, series in gen_series():
    print(i, ":", str(series.round(2)))
    if i > 5:
        break
ds_series = tf.data.Dataset.from_generator(
    gen_series,
    output_types=(tf.int32, tf.float32),
    output_shapes=((), (None,)))
print(ds_series)
ds_series_batch = ds_series.shuffle(20, seed=3).padded_batch(10)
ids, sequence_batch = next(iter(ds_series_batch))
print(ids.numpy())
print()
print(sequence_batch.numpy().round(2))

ds = tf.data.Dataset.from_generator(
    gen_series, output_signature=(tf.TensorSpec(shape=(), dtype=tf.int32),
                                  tf.TensorSpec(shape=(None,), dtype=tf.float32)))
print(ds.element_spec)
print(ds.cardinality().numpy())
