import tensorflow as tf

print(tf.truncatemod(tf.constant([7, -7]), 3), tf.truncatemod(tf.constant([7.5, -7.5]), 2.0))
print(tf.truncatediv(tf.constant([-7]), 2))
print(tf.math.xlogy(tf.constant([0.0, 1.0]), tf.constant([0.0, 1.0])))
print(tf.math.xdivy(tf.constant([0.0, 1.0]), tf.constant([0.0, 2.0])))
print(tf.math.xlog1py(tf.constant([0.0]), tf.constant([-1.0])))
print(tf.math.log_sigmoid(tf.constant([-100.0])))
print(tf.math.reciprocal_no_nan(tf.constant([2.0, 0.0, -4.0])))
print(tf.math.zero_fraction(tf.constant([0, 1, 0, 3])), tf.nn.zero_fraction(tf.zeros([2, 2])))
print(tf.scalar_mul(2, tf.constant([1.0, 2.0])), tf.math.scalar_mul(3, tf.constant([1, 2])))
print(tf.math.invert_permutation([3, 4, 0, 2, 1]))
print(tf.math.is_non_decreasing([1, 1, 2]), tf.math.is_strictly_increasing([1, 1, 2]))
print(tf.math.is_strictly_increasing(tf.constant([[1, 2], [3, 4]])), tf.math.is_non_decreasing([]))
print(tf.math.polyval([1.0, 2.0, 3.0], 2.0), tf.math.polyval([1, 2], tf.constant([3, 4])))
print(tf.stop_gradient(tf.constant([1.0, 2.0])), tf.stop_gradient([1, 2]))
print(tf.identity_n([tf.constant(1), 2.0]))
print(tf.ensure_shape(tf.constant([[1, 2]]), [None, 2]))
print(tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0])))
print(tf.math.cumulative_logsumexp(tf.constant([0.0, 0.0, 0.0]), exclusive=True))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.math.xlogy(tf.constant([1]), tf.constant([2])))
show(lambda: tf.math.reciprocal_no_nan(tf.constant([2, 0])))
show(lambda: tf.scalar_mul(2.5, tf.constant([1, 2])))
show(lambda: tf.scalar_mul(tf.constant([2.0]), tf.constant([1.0])))
show(lambda: tf.math.invert_permutation([0, 0]))
show(lambda: tf.math.invert_permutation([0, 5]))
show(lambda: tf.ensure_shape(tf.constant([1, 2]), [3]))
show(lambda: tf.identity_n(tf.constant(1)))
show(lambda: tf.math.log_sigmoid(tf.constant([1])))
show(lambda: tf.truncatemod(tf.constant([7]), 2.5))
