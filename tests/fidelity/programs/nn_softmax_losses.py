import tensorflow as tf
import numpy as np

logits = tf.constant([[2.0, 1.0, 0.1], [1.0, 1.0, 1.0]])
print(np.round(tf.nn.softmax(logits).numpy(), 4))
print(tf.nn.softmax(logits).shape, tf.nn.softmax(logits, axis=0).dtype)
print(tf.nn.softmax(tf.constant([0.0, 0.0])))
print(tf.nn.softmax(tf.constant([[1.0, 1.0, 1.0, 1.0]])))
print(np.round(tf.nn.log_softmax(logits).numpy(), 4))
print(tf.nn.softmax(tf.constant([1000.0, 1000.0])))
print(np.round(tf.math.softmax(tf.constant([1.0, 2.0], dtype=tf.float64)).numpy(), 6))
labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 0.5, 0.5]])
ce = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
print(ce.shape, ce.dtype, np.round(ce.numpy(), 4))
sce = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0, 2]), logits=logits)
print(sce.shape, sce.dtype, np.round(sce.numpy(), 4))
bce = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0, 0.0]), logits=tf.constant([0.0, 0.0]))
print(bce.shape, np.round(bce.numpy(), 4))
print(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0], tf.int64), logits=tf.constant([[0.0, 0.0]])).dtype)
print(tf.nn.softmax(tf.zeros([2, 0])))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.nn.softmax(tf.constant([1, 2])))
show(lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([3, 0]), logits=logits))
show(lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([0.0, 1.0]), logits=logits))
show(lambda: tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant([[1.0, 0.0]]), logits=logits))
show(lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0]), logits=tf.constant([0.0, 1.0])))
show(lambda: tf.nn.softmax(logits, axis=2))
