# Nested elements (named tuples, dicts, tuples inside dicts) through sources and transformations.
import collections
import numpy as np
import tensorflow as tf
P = collections.namedtuple("P", "x y")
ds = tf.data.Dataset.from_tensor_slices(P(np.arange(4), np.arange(4.0)))
print(ds)
print(ds.batch(2))
print(ds.map(lambda p: P(p.y, p.x)).element_spec)
print(ds.map(lambda p: {"z": p.x, "a": (p.y, True)}).element_spec)
for e in ds.map(lambda p: {"z": p.x, "a": (p.y, True)}).batch(3):
    print(e)
d = tf.data.Dataset.from_tensor_slices({"img": np.zeros((4, 2, 2), np.uint8), "label": [1, 2, 3, 4]})
print(d.padded_batch(2, padded_shapes={"img": [3, 3], "label": []}, padding_values={"img": np.uint8(9), "label": 0}).element_spec)
print(next(iter(d.padded_batch(2, padded_shapes={"img": [3, 3], "label": []}, padding_values={"img": np.uint8(9), "label": 0}))))
g = tf.data.Dataset.from_generator(lambda: iter([{"a": 1, "b": [1.0, 2.0]}]), output_signature={"a": tf.TensorSpec([], tf.int32), "b": tf.TensorSpec([None], tf.float32)})
print(g.element_spec, list(g.as_numpy_iterator()))
v = {"w": tf.Variable([1.0, 2.0]), "n": tf.constant([3, 4])}
print(tf.data.Dataset.from_tensor_slices(v).element_spec)
print(tf.data.Dataset.from_tensors(v).element_spec)
z = tf.data.Dataset.zip({"a": tf.data.Dataset.range(2), "b": (tf.data.Dataset.range(2), tf.data.Dataset.range(2).map(lambda x: tf.cast(x, tf.float16)))})
print(z)
print(list(z.as_numpy_iterator()))
print(tf.data.Dataset.range(6).batch(2).map(lambda b: P(b, b)).unbatch().element_spec)
print(tf.data.Dataset.range(3).map(lambda x: True).element_spec, tf.data.Dataset.range(3).map(lambda x: "s").element_spec, tf.data.Dataset.range(3).map(lambda x: np.float64(1.5)).element_spec)
it = iter(tf.data.Dataset.range(3).map(lambda x: {"k": x}))
print(next(it))
print(it.element_spec)
print(tf.data.Dataset.range(5).window(2).flat_map(lambda w: w.batch(2)).element_spec)
print(tf.data.Dataset.range(5).map(lambda x: (x, x)).window(2).flat_map(lambda a, b: tf.data.Dataset.zip((a.batch(2), b.batch(2, drop_remainder=True)))).element_spec)
