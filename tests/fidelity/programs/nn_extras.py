import tensorflow as tf
import numpy as np

print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0])))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), sample_weight=0.5))
print(tf.nn.compute_average_loss(tf.constant([1.0, 2.0]), global_batch_size=4))
print(tf.nn.compute_average_loss(tf.constant([1, 2])))
print(tf.nn.scale_regularization_loss([tf.constant(2.0), tf.constant(1.0)]))
print(tf.nn.crelu(tf.constant([[1.0, -2.0]])))
print(tf.nn.weighted_moments(tf.constant([1.0, 2.0]), [0], tf.constant([3.0, 1.0])))
counts, m_ss, v_ss, shift = tf.nn.sufficient_statistics(tf.constant([[1.0, 2.0], [3.0, 5.0]]), [0])
print(counts, m_ss, v_ss, shift)
print(tf.nn.normalize_moments(counts, m_ss, v_ss, None))
print(tf.nn.log_poisson_loss(tf.constant([1.0, 2.0]), tf.constant([0.0, 0.0])))
print(tf.nn.weighted_cross_entropy_with_logits(labels=tf.constant([1.0, 0.0]), logits=tf.constant([0.0, 0.0]), pos_weight=3.0).shape)
print(tf.nn.space_to_depth(tf.reshape(tf.range(16), [1, 4, 4, 1]), 2))
print(tf.nn.depth_to_space(tf.reshape(tf.range(8), [1, 1, 2, 4]), 2))
print(tf.linalg.normalize(tf.constant([3.0, 4.0])))
print(tf.linalg.normalize(tf.constant([[3.0, 4.0], [6.0, 8.0]]), axis=1)[1])
print(tf.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0]], logits=[[100.0, 0.0]]))
print(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0], logits=[[100.0, 0.0]]))
print(tf.strings.split(tf.constant("the quick  brown fox")))
print(tf.strings.split("a,b,,c", sep=","), tf.strings.split("a b c", maxsplit=1))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.nn.compute_average_loss(tf.constant(3.0)))
show(lambda: tf.nn.compute_average_loss(tf.constant([1.0]), global_batch_size=2.5))
show(lambda: tf.nn.space_to_depth(tf.ones([1, 3, 3, 1]), 2))
show(lambda: tf.nn.depth_to_space(tf.ones([1, 1, 1, 3]), 2))
show(lambda: tf.nn.space_to_depth(tf.ones([1, 2, 2, 1]), 1))
show(lambda: tf.linalg.normalize(tf.constant([3, 4])))
