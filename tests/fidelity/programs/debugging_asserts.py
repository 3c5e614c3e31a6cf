import tensorflow as tf

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(tf.debugging.assert_equal(x, x))
print(tf.debugging.assert_less(x, 5.0), tf.debugging.assert_greater_equal(x, 1.0))
print(tf.debugging.assert_positive(x), tf.debugging.assert_non_negative(tf.zeros([2])))
print(tf.debugging.assert_near(x, x + 1e-7))
print(tf.debugging.assert_rank(x, 2), tf.debugging.assert_rank_at_least(x, 1))
print(tf.debugging.assert_type(x, tf.float32), tf.debugging.assert_integer(tf.constant([1])))
print(tf.debugging.assert_shapes([(x, ("N", 2)), (tf.zeros([2, 5]), ("N", "M"))]))
print(tf.debugging.check_numerics(x, "x is bad"))
print(tf.debugging.assert_all_finite(tf.constant([1.5]), "bad"))
print(tf.debugging.is_numeric_tensor(x), tf.debugging.is_numeric_tensor(tf.constant("s")))
print(tf.debugging.Assert(tf.reduce_all(x > 0), [x]))
print(tf.assert_equal(1, 1), tf.assert_less(1, 2), tf.assert_greater(2, 1), tf.assert_rank(x, 2))
print(tf.debugging.assert_scalar(tf.constant(3)))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.debugging.assert_equal(x, x + 1))
show(lambda: tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3])))
show(lambda: tf.debugging.assert_equal(tf.constant([1]), 1.5))
show(lambda: tf.debugging.assert_less(x, 2.0))
show(lambda: tf.debugging.assert_negative(x))
show(lambda: tf.debugging.assert_near(1.0, 1.1))
show(lambda: tf.debugging.assert_rank(x, 3))
show(lambda: tf.debugging.assert_rank_in(x, [0, 1]))
show(lambda: tf.debugging.assert_type(x, tf.int32))
show(lambda: tf.debugging.assert_integer(x))
show(lambda: tf.debugging.assert_scalar(x))
show(lambda: tf.debugging.assert_shapes([(x, ("N", 3))]))
show(lambda: tf.debugging.assert_shapes([(x, ("N", 2)), (tf.zeros([3]), ("N",))]))
show(lambda: tf.debugging.check_numerics(tf.constant([float("nan")]), "nan here"))
show(lambda: tf.debugging.check_numerics(tf.constant([1]), "ints"))
show(lambda: tf.debugging.Assert(False, ["message"]))
