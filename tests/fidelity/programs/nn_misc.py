import tensorflow as tf
import numpy as np

x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
mean, var = tf.nn.moments(x, axes=[0])
print(mean, var)
m2, v2 = tf.nn.moments(x, axes=[0, 1], keepdims=True)
print(m2.shape, v2.shape, m2.numpy().item(), np.round(v2.numpy().item(), 5))
bn = tf.nn.batch_normalization(x, mean, var, offset=None, scale=None, variance_epsilon=0.0)
print(np.round(bn.numpy(), 4))
print(tf.nn.batch_normalization(x, mean, var, tf.constant([1.0, 1.0]), tf.constant([2.0, 2.0]), 1e-3).shape)
print(np.round(tf.nn.l2_normalize(x, axis=1).numpy(), 4))
params = tf.constant([[0.0, 0.1], [1.0, 1.1], [2.0, 2.1]])
print(tf.nn.embedding_lookup(params, [2, 0, 2]))
print(tf.nn.embedding_lookup(params, [[0], [1]]).shape)
d = tf.nn.dropout(tf.ones([100, 100]), rate=0.5, seed=1)
print(d.shape, d.dtype, set(np.unique(d.numpy()).tolist()) <= {0.0, 2.0})
print(tf.nn.dropout(tf.ones([3]), rate=0.0))
print(tf.nn.in_top_k(targets=tf.constant([0, 1]), predictions=tf.constant([[0.9, 0.1], [0.9, 0.1]]), k=1))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0])) if hasattr(tf.nn, "compute_average_loss") else "skip")

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.nn.dropout(tf.ones([3]), rate=1.5))
show(lambda: tf.nn.dropout(tf.ones([3], tf.int32), rate=0.5))
show(lambda: tf.nn.embedding_lookup(params, [5]))
show(lambda: tf.nn.moments(x, axes=[2]))
