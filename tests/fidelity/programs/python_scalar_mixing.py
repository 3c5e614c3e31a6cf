import tensorflow as tf
import numpy as np

f = tf.constant([1.0, 2.0])
i = tf.constant([1, 2])
d = tf.constant([1.0, 2.0], dtype=tf.float64)
h = tf.constant([1.0, 2.0], dtype=tf.float16)
print(f + 1, 1 + f, f * 2, 2 * f, f - 1, 1 - f, f / 2, 2 / f)
print(i + 1, 1 - i, i * 3, i // 2, i % 2, 2 ** i, i ** 2)
print(d * 0.5)
print(h + 1.5)
print(i / 2)
print(f ** 0.5)
print(repr(f + np.float32(1)))
print(repr(np.float32(1) + f))
print(repr(f + np.array([1.0, 2.0], dtype=np.float32)))
print(repr(np.array([1.0, 2.0], dtype=np.float32) * f))
print(repr(i + True))
print(repr(tf.constant([True, False]) & True))
print(repr(tf.constant(3) * [1, 2]))
print(repr([1, 2] + tf.constant([3, 4])))
print(repr(tf.constant(2.0) * (1, 2)))
print(repr(tf.constant(5, dtype=tf.uint8) + 3))
print(repr(tf.constant(5, dtype=tf.int64) + 2**40))

def show(fn):
    try:
        print(repr(fn()))
    except Exception as e:
        print(type(e).__name__)

show(lambda: i * 0.5)
show(lambda: i + 1.0)
show(lambda: f + d)
show(lambda: i + tf.constant([1, 2], dtype=tf.int64))
show(lambda: f + "a")
show(lambda: f + np.float64(1))
show(lambda: f + np.array([1.0, 2.0]))
show(lambda: i + 2**40)
show(lambda: tf.constant(5, dtype=tf.uint8) + 300)
show(lambda: tf.constant(5, dtype=tf.uint8) - 6)
show(lambda: f + None)
show(lambda: tf.constant("a") + tf.constant("b"))
show(lambda: tf.constant("a") + "b")
