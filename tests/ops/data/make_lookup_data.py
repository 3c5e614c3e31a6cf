"""Writes tf_tables/ck: TF's checkpoint of a MutableHashTable and a DenseHashTable.

Run with TensorFlow 2.21: ``python tests/ops/data/make_lookup_data.py``.
"""
import os

import tensorflow as tf

m = tf.Module()
m.t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
m.t.insert(["a", "b"], [1, 2])
m.d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1, empty_key=0,
                                            deleted_key=-1, initial_num_buckets=8)
m.d.insert([5, 7], [50, 70])
tf.train.Checkpoint(m=m).write(os.path.join(os.path.dirname(__file__), "tf_tables", "ck"))
print(tf.strings.to_hash_bucket_fast(["é" * 70], 1000).numpy())
