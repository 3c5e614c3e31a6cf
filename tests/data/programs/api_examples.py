# Examples in the style of tf.data.Dataset's API documentation, printed.
import collections

import numpy as np
import tensorflow as tf


def show(ds):
    print(ds.element_spec)
    print(list(ds.as_numpy_iterator()))


show(tf.data.Dataset.range(8).batch(3))
show(tf.data.Dataset.range(8).batch(3, drop_remainder=True))
a = tf.data.Dataset.range(1, 4)
b = tf.data.Dataset.range(4, 8)
show(a.concatenate(b))
show(tf.data.Dataset.from_tensor_slices({'a': [1, 2], 'b': [3, 4]}).enumerate(start=5))
show(tf.data.Dataset.from_tensor_slices([1, 2, 3]).filter(lambda x: x < 3))
show(tf.data.Dataset.from_tensor_slices([1, 2, 3]).filter(lambda x: tf.math.equal(x, 1)))
show(tf.data.Dataset.from_tensor_slices([[1, 2, 3], [4, 5, 6], [7, 8, 9]]).flat_map(
    tf.data.Dataset.from_tensor_slices))
show(tf.data.Dataset.from_tensors([1, 2, 3]))
show(tf.data.Dataset.from_tensors(([1, 2, 3], 'A')))
show(tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4], [5, 6])))
show(tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).map(lambda x, y: x + y))
show(tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [3, 4], "c": [5, 6]}))
show(tf.data.Dataset.from_tensor_slices(([1, 2], ['a', 'b'])))
Point = collections.namedtuple("Point", ["x", "y"])
show(tf.data.Dataset.from_tensor_slices(Point([1, 2], [3, 4])).map(lambda p: p.x * p.y))
show(tf.data.Dataset.range(2, 5))
show(tf.data.Dataset.range(1, 5, 2))
show(tf.data.Dataset.range(5, 1))
show(tf.data.Dataset.range(5, 1, -2))
show(tf.data.Dataset.range(1, 5, 2, output_type=tf.float32))
print(tf.data.Dataset.range(5).reduce(np.int64(0), lambda x, _: x + 1).numpy())
print(tf.data.Dataset.range(5).reduce(np.int64(0), lambda x, y: x + y).numpy())
show(tf.data.Dataset.from_tensor_slices([1, 2, 3]).repeat(3))
show(tf.data.Dataset.range(10).skip(7))
show(tf.data.Dataset.range(10).take(3))
show(tf.data.Dataset.range(10).take_while(lambda x: x < 5))
show(tf.data.Dataset.range(10).shard(num_shards=3, index=0))
show(tf.data.Dataset.from_tensor_slices([1, 37, 2, 37, 2, 1]).unique())
show(tf.data.Dataset.from_tensor_slices(["b", "a", "b"]).unique())
show(tf.data.Dataset.range(10).scan(np.int64(0), lambda state, i: (state + i, state + i)))
elements = [[1, 2, 3], [1, 2], [1, 2, 3, 4]]
show(tf.data.Dataset.from_generator(lambda: elements, tf.int64, output_shapes=[None])
     .unbatch())
show(tf.data.Dataset.range(1, 4).interleave(
    lambda x: tf.data.Dataset.from_tensors(x).repeat(6), cycle_length=2, block_length=4))
for window in tf.data.Dataset.range(7).window(3):
    print(window)
for window in tf.data.Dataset.range(7).window(3, 2, 1, True):
    print(list(window.as_numpy_iterator()))
nested = tf.data.Dataset.zip((tf.data.Dataset.range(7), tf.data.Dataset.range(7)))
for x, y in nested.window(3, drop_remainder=True):
    print(list(x.as_numpy_iterator()), list(y.as_numpy_iterator()))
ds = tf.data.Dataset.from_tensor_slices({'a': [1, 2, 3], 'b': [4, 5, 6]}).window(2)
for w in ds:
    print({k: list(v.as_numpy_iterator()) for k, v in w.items()})
show(a.map(lambda x: x * 2))
show(tf.data.Dataset.range(1, 4).map(lambda x: (x, {"a": x * 2})))
show(tf.data.Dataset.range(1, 5).map(lambda x: tf.fill([x], x)).padded_batch(
    2, padded_shapes=(None,), padding_values=np.int64(-1)))
elements = [([1, 2, 3], [10]), ([4, 5], [11, 12])]
show(tf.data.Dataset.from_generator(lambda: iter(elements), (tf.int32, tf.int32))
     .padded_batch(2, padded_shapes=([4], [None]), padding_values=(-1, 100)))
show(tf.data.Dataset.range(10).group_by_window(
    key_func=lambda x: x % 2, reduce_func=lambda key, ds: ds.batch(4), window_size=4))
elements = [[0], [1, 2, 3, 4], [5, 6, 7], [7, 8, 9, 10, 11], [13, 14, 15, 16, 19, 20],
            [21, 22]]
ds = tf.data.Dataset.from_generator(lambda: elements, tf.int32, output_shapes=[None])
show(ds.bucket_by_sequence_length(element_length_func=lambda elem: tf.shape(elem)[0],
                                  bucket_boundaries=[3, 5], bucket_batch_sizes=[2, 2, 2]))
show(ds.bucket_by_sequence_length(element_length_func=lambda elem: tf.shape(elem)[0],
                                  bucket_boundaries=[4, 7], bucket_batch_sizes=[2, 2, 2],
                                  pad_to_bucket_boundary=True, padding_values=-1))
show(tf.data.Dataset.range(8).batch(4).rebatch(batch_size=2))
show(tf.data.Dataset.range(8).batch(4).rebatch(batch_size=[2, 1, 1]))
ds = tf.data.Dataset.range(3)
print(ds.cardinality().numpy(), ds.repeat().cardinality() == tf.data.INFINITE_CARDINALITY,
      ds.filter(lambda x: True).cardinality() == tf.data.UNKNOWN_CARDINALITY)
print(len(ds))
show(tf.data.Dataset.range(5).shuffle(5, seed=42))
ds = tf.data.Dataset.range(3).shuffle(3, seed=42, reshuffle_each_iteration=True)
print(list(ds.as_numpy_iterator()), list(ds.as_numpy_iterator()))
show(tf.data.Dataset.random(seed=4).take(2))
show(tf.data.Dataset.zip(tf.data.Dataset.range(1, 4), tf.data.Dataset.range(4, 7)))
show(tf.data.Dataset.zip((tf.data.Dataset.range(1, 4), (tf.data.Dataset.range(4, 7),
                                                        tf.data.Dataset.range(7, 10)))))
show(tf.data.Dataset.zip(tf.data.Dataset.range(1, 4), tf.data.Dataset.range(13, 15)))
datasets = [tf.data.Dataset.from_tensors("foo").repeat(), tf.data.Dataset.from_tensors("bar")
            .repeat(), tf.data.Dataset.from_tensors("baz").repeat()]
choice_dataset = tf.data.Dataset.range(3).repeat(3)
show(tf.data.Dataset.choose_from_datasets(datasets, choice_dataset))
show(tf.data.Dataset.sample_from_datasets(
    [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 13)], weights=[0.5, 0.5], seed=7))
print(tf.data.Dataset.from_tensors([1, 2]).get_single_element())
it = iter(tf.data.Dataset.range(2))
print(it.get_next(), it.get_next_as_optional().get_value(), it.get_next_as_optional().has_value())
