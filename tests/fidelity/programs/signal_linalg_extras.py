import numpy as np
import tensorflow as tf

x = tf.constant([[1.0, 2.0, 3.0, 4.0, 0.0, -1.0], [0.5, -0.5, 2.0, 1.0, 1.0, 3.0]])


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
def cepstra(frames):
    dct = tf.signal.dct(frames, type=2, norm="ortho")
    print("dct", dct.shape)
    return dct, tf.signal.idct(frames, type=4, n=4), tf.signal.mfccs_from_log_mel_spectrograms(frames)


for t in cepstra(x):
    print(np.round(t.numpy(), 4))


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
def window(n):
    w = tf.signal.hann_window(n)
    print("hann", w.shape)
    return w


print(window(tf.constant(5)))
print(tf.signal.overlap_and_add(tf.constant([[-0.0, 1.0], [2.0, 3.0]]), 1))
print(tf.math.unsorted_segment_sum(tf.constant([-0.0, -0.0, 1.0]), [0, 0, 1], 3))

bands = tf.constant([[1.0, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
print(tf.linalg.banded_triangular_solve(bands, tf.ones([4, 1])))
print(tf.linalg.banded_triangular_solve(bands, tf.ones([4, 1]), lower=False))
print(tf.linalg.diag(tf.constant([[1.0, 2, 3], [4, 5, 0]]), k=(0, 1)))
print(tf.linalg.set_diag(tf.reshape(tf.range(12.0), [3, 4]),
                         tf.constant([[-1.0, -2, -3], [-4, -5, -6]]), k=(0, 1), align="LEFT_RIGHT"))
print(tf.math.sobol_sample(3, 4, skip=2))
top = tf.math.approx_max_k(tf.constant([[1.0, 3.0, 3.0, 5.0], [0.0, 7.0, 7.0, 2.0]]), 2)
print(top.values, top.indices)

data = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.sparse.segment_mean(data, [0, 2, 2], [0, 0, 1]))
grad = tape.gradient(y, data)
print(type(grad).__name__, grad)
try:
    tf.sparse.segment_mean(tf.constant([[1, 2]]), [0], [0])
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
