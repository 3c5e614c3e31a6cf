import tensorflow as tf
import numpy as np

g = tf.random.Generator.from_seed(123)
print(g.normal([3]).shape, g.uniform([2, 2], minval=1, maxval=5, dtype=tf.int32).dtype)
print(g.truncated_normal([5]).dtype, g.uniform_full_int([2], dtype=tf.int64).dtype)
g2 = tf.random.Generator.from_seed(123)
a = g2.normal([3])
g3 = tf.random.Generator.from_seed(123)
b = g3.normal([3])
print(bool(tf.reduce_all(a == b)))
g4 = tf.random.Generator.from_non_deterministic_state()
print(g4.normal([2]).shape)
s1, s2 = g.split(2)
print(type(s1).__name__, s1.normal([1]).shape)
print(tf.random.get_global_generator().normal([2]).shape)
print(tf.random.stateless_normal([2, 3], seed=[4, 2], dtype=tf.float64).dtype)
print(tf.random.stateless_truncated_normal([4], seed=[1, 1]).shape)
print(tf.random.stateless_categorical(tf.math.log([[0.5, 0.5]]), 3, seed=[7, 17]).shape)
x = tf.random.stateless_uniform([1000], seed=[3, 4])
print(bool(tf.reduce_min(x) >= 0.0), bool(tf.reduce_max(x) < 1.0))
n = tf.random.stateless_normal([10000], seed=[1, 2])
print(abs(float(tf.reduce_mean(n))) < 0.05, abs(float(tf.math.reduce_std(n)) - 1.0) < 0.05)
tf.random.set_seed(0)
u1 = tf.random.uniform([2])
u2 = tf.random.uniform([2])
print(bool(tf.reduce_all(u1 == u2)))
print(tf.random.uniform([3, 0]).shape, tf.random.normal([]).shape)
print(tf.random.fold_in([1, 2], 3).shape if hasattr(tf.random, "fold_in") else "n/a")
print(tf.random.categorical(tf.constant([[-1e9, 0.0]]), 3))
d = tf.random.shuffle(tf.constant([[1, 2], [3, 4], [5, 6]]))
print(d.shape, sorted(d.numpy()[:, 0].tolist()))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.random.Generator.from_seed(1).normal([2], dtype=tf.int32))
show(lambda: tf.random.stateless_normal([2], seed=[1, 2, 3]))
show(lambda: tf.random.categorical([0.5, 0.5], 2))
