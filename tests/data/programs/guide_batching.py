# The "Batching dataset elements" and "Training workflows" sections of the tf.data guide.
import tensorflow as tf

inc_dataset = tf.data.Dataset.range(100)
dec_dataset = tf.data.Dataset.range(0, -100, -1)
dataset = tf.data.Dataset.zip((inc_dataset, dec_dataset))
batched_dataset = dataset.batch(4)
for batch in batched_dataset.take(4):
    print([arr.numpy() for arr in batch])
print(batched_dataset)
batched_dataset = dataset.batch(7, drop_remainder=True)
print(batched_dataset)

dataset = tf.data.Dataset.range(100)
dataset = dataset.map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
dataset = dataset.padded_batch(4, padded_shapes=(None,))
for batch in dataset.take(2):
    print(batch.numpy())
    print()

titanic_lines = tf.data.Dataset.range(627)


def batch_sizes(ds):
    return [len(batch) for batch in ds]


titanic_batches = titanic_lines.repeat(3).batch(128)
print(batch_sizes(titanic_batches))
titanic_batches = titanic_lines.batch(128).repeat(3)
print(batch_sizes(titanic_batches))

epochs = 3
dataset = titanic_lines.batch(128)
for epoch in range(epochs):
    for batch in dataset:
        print(batch.shape)
    print("End of epoch: ", epoch)

tf.random.set_seed(17)
lines = titanic_lines.map(lambda x: tf.strings.as_string(x))
counter = tf.data.experimental.Counter()
dataset = tf.data.Dataset.zip((counter, lines))
dataset = dataset.shuffle(buffer_size=100)
dataset = dataset.batch(20)
print(dataset)
n, line_batch = next(iter(dataset))
print(n.numpy())

dataset = tf.data.Dataset.zip((counter, lines))
shuffled = dataset.shuffle(buffer_size=100).batch(10).repeat(2)
print("Here are the item ID's near the epoch boundary:\n")
for n, line_batch in shuffled.skip(60).take(5):
    print(n.numpy())

shuffled = dataset.repeat(2).shuffle(buffer_size=100).batch(10)
print("Here are the item ID's near the epoch boundary:\n")
for n, line_batch in shuffled.skip(55).take(15):
    print(n.numpy())
