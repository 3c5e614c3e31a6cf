import tensorflow as tf
import numpy as np

# Python scalars and their default dtypes
for value in [1, -7, 2**31 - 1, 2**31, 1.5, -0.0, 1e-8, 3.0, True, False, 1 + 2j, "hi", b"raw"]:
    t = tf.constant(value)
    print(repr(t))
    print(t)

# NumPy scalars keep their dtype
for value in [np.float64(2.5), np.int64(3), np.int8(-4), np.uint16(9), np.float16(0.1),
              np.complex64(1 - 1j), np.bool_(True)]:
    t = tf.constant(value)
    print(repr(t))
    print(t.dtype, t.shape)

print(tf.constant(1.0 / 3.0))
print(tf.constant(1.0 / 3.0, dtype=tf.float64))
print(tf.constant(123456789.0))
print(tf.constant(1e20))
print(tf.constant(float("nan")))
print(tf.constant(float("-inf")))
print(repr(tf.constant(2, dtype=tf.float32)))
print(repr(tf.constant(7, dtype=tf.uint8)))
print(repr(tf.constant(0.5, dtype=tf.bfloat16)))
print(repr(tf.constant(0.1, dtype=tf.float16)))
