# Sparse tensors as dataset elements: slices, batches, maps returning them, parsing.
import numpy as np
import tensorflow as tf


def show(ds):
    print(ds.element_spec, int(ds.cardinality()))
    for e in ds:
        print(e)


st = tf.SparseTensor([[0, 1], [2, 0], [2, 2], [3, 3]], [5, 7, 9, 11], [4, 4])
show(tf.data.Dataset.from_tensor_slices(st))
show(tf.data.Dataset.from_tensors(st))
show(tf.data.Dataset.from_tensor_slices(st).batch(3))
show(tf.data.Dataset.from_tensor_slices(st).batch(3, drop_remainder=True))
show(tf.data.Dataset.from_tensor_slices(st).batch(2).unbatch())
show(tf.data.Dataset.from_tensors(st).unbatch())
show(tf.data.Dataset.from_tensor_slices(st).map(tf.sparse.to_dense))
show(tf.data.Dataset.from_tensor_slices(st).map(lambda s: s.values * 2))
show(tf.data.Dataset.from_tensor_slices(st).filter(lambda s: tf.size(s.values) > 0))
show(tf.data.Dataset.from_tensor_slices(st).shuffle(4, seed=1).take(2))
show(tf.data.Dataset.from_tensor_slices(st).shuffle(4, seed=1).batch(2))
show(tf.data.Dataset.from_tensor_slices(st).repeat(2).shuffle(8, seed=2).batch(3, True).take(1))
print(list(tf.data.Dataset.from_tensor_slices(st).as_numpy_iterator()))

# maps that return sparse tensors of varying dense shapes, then batches of them
ragged = tf.data.Dataset.range(1, 5).map(
    lambda n: tf.SparseTensor(tf.reshape(tf.range(0, n, 2), [-1, 1]),
                              tf.range(0, n, 2) * 10, tf.reshape(n, [1])))
show(ragged)
show(ragged.batch(3))
show(ragged.batch(2).map(lambda s: tf.sparse.to_dense(s)))
show(ragged.map(lambda s: tf.sparse.SparseTensor(s.indices, tf.cast(s.values, tf.float32) / 4,
                                                 s.dense_shape)))

# nests holding sparse tensors
nest = tf.data.Dataset.from_tensor_slices(
    {"s": st, "d": tf.constant([1.0, 2.0, 3.0, 4.0]), "t": (tf.constant([1, 2, 3, 4]), st)})
show(nest.take(2))
show(nest.batch(2).take(1))
show(tf.data.Dataset.zip((tf.data.Dataset.from_tensor_slices(st), tf.data.Dataset.range(2))))
show(nest.map(lambda e: (e["s"], e["d"] * 2)).take(2))


# the commonest case: parsing examples with variable-length features inside map
def example(tokens, label):
    return tf.train.Example(features=tf.train.Features(feature={
        "tokens": tf.train.Feature(int64_list=tf.train.Int64List(value=tokens)),
        "label": tf.train.Feature(float_list=tf.train.FloatList(value=[label])),
    })).SerializeToString()


records = [example([3, 1, 4], 1.0), example([], 0.0), example([1, 5], 1.0), example([9], 0.0)]
features = {"tokens": tf.io.VarLenFeature(tf.int64),
            "label": tf.io.FixedLenFeature([], tf.float32)}
parsed = tf.data.Dataset.from_tensor_slices(records).map(
    lambda r: tf.io.parse_single_example(r, features))
show(parsed)
show(parsed.batch(2))
show(tf.data.Dataset.from_tensor_slices(records).batch(3).map(
    lambda r: tf.io.parse_example(r, features)))
show(parsed.batch(4).map(lambda e: tf.sparse.to_dense(e["tokens"])))
show(parsed.map(lambda e: tf.sparse.to_dense(e["tokens"])).padded_batch(2))

try:
    tf.data.Dataset.from_tensor_slices(st).padded_batch(2)
except TypeError as e:
    print("TypeError", e)
try:
    tf.data.Dataset.from_tensors(tf.SparseTensor(tf.zeros([0, 0], tf.int64), [], [])).unbatch()
except ValueError as e:
    print("ValueError", str(e).split(".")[0])

# dense elements batched into sparse tensors
lengths = tf.data.Dataset.range(4).map(lambda x: tf.fill([x], x))
show(lengths.sparse_batch(2, [4]))
show(lengths.sparse_batch(3, [None]))
show(tf.data.Dataset.range(3).sparse_batch(2, []))
show(tf.data.Dataset.from_tensor_slices([["a", "b"], ["c", "d"]]).apply(
    tf.data.experimental.dense_to_sparse_batch(2, [3])))
for bad in [lengths.sparse_batch(2, [1]), lengths.sparse_batch(2, [4, 2])]:
    try:
        list(bad)
    except tf.errors.OpError as e:
        print(type(e).__name__, str(e).split("}} ")[-1].split(" [Op:")[0])
