import tensorflow as tf
import numpy as np

c = tf.complex(tf.constant([1.0, -2.0]), tf.constant([2.0, 0.5]))
print(c)
print(repr(tf.complex(1.0, 2.0)))
print(tf.complex(tf.constant([1.0], tf.float64), tf.constant([3.0], tf.float64)))
print(tf.math.real(c), tf.math.imag(c))
print(tf.math.conj(c))
print(tf.abs(tf.constant([3 + 4j])))
print(np.round(tf.math.angle(c).numpy(), 4))
print(tf.math.angle(tf.constant([-1.0, 2.0])))
print(c * c, c + 1, c - tf.complex(1.0, 1.0))
print(tf.constant([1 + 1j], tf.complex64) * 2)
print(tf.reduce_sum(c), tf.reduce_mean(tf.constant([1j, 3j])))
print(tf.cast(c, tf.float32), tf.cast(tf.constant([1.0]), tf.complex128))
print(tf.math.real(tf.constant([1.5])), tf.math.imag(tf.constant([2])))
print(tf.matmul(tf.constant([[1j, 1]]), tf.constant([[1j], [1]])))
print(tf.math.conj(tf.constant([1.5])))
print(tf.sqrt(tf.constant([-4 + 0j])))
print(tf.exp(tf.constant([0j])))
print(tf.constant([1 + 2j]) == tf.constant([1 + 2j]))
print(tf.zeros([2], tf.complex64), tf.ones([1], tf.complex128))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.complex(1, 2))
show(lambda: tf.complex(tf.constant([1.0]), tf.constant([1.0], tf.float64)))
show(lambda: tf.math.real(tf.constant(["a"])))
show(lambda: tf.math.conj(tf.constant([True])))
show(lambda: tf.constant([1j]) < tf.constant([2j]))
show(lambda: tf.reduce_max(tf.constant([1j])))
