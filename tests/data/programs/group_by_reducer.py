# tf.data.experimental.group_by_reducer: one output per group, by key.
import numpy as np
import tensorflow as tf
reducer = tf.data.experimental.Reducer(init_func=lambda _: np.int64(0), reduce_func=lambda s, x: s + x, finalize_func=lambda s: s)
ds = tf.data.Dataset.range(10).apply(tf.data.experimental.group_by_reducer(lambda x: x % 3, reducer))
print(ds, [int(x) for x in ds])
reducer = tf.data.experimental.Reducer(init_func=lambda k: (k, tf.zeros([0], tf.int64)), reduce_func=lambda s, x: (s[0], tf.concat([s[1], [x]], 0)), finalize_func=lambda k, xs: {"k": k, "xs": xs})
ds = tf.data.Dataset.range(10).map(lambda x: 9 - x).apply(tf.data.experimental.group_by_reducer(lambda x: x % 3 + 5 * (x % 2), reducer))
print(ds.element_spec)
for e in ds.as_numpy_iterator(): print(e)
