import tensorflow as tf

a = tf.constant([0b1100, 0b1010, 255], dtype=tf.int32)
b = tf.constant([0b1010, 0b0110, 1], dtype=tf.int32)
print(tf.bitwise.bitwise_and(a, b), tf.bitwise.bitwise_or(a, b), tf.bitwise.bitwise_xor(a, b))
print(tf.bitwise.invert(a))
print(tf.bitwise.invert(tf.constant([0, 255], tf.uint8)))
print(tf.bitwise.left_shift(a, 2), tf.bitwise.right_shift(a, 1))
print(tf.bitwise.right_shift(tf.constant([-8]), 1))
print(a & b, a | b, a ^ b, ~a)
print(tf.bitwise.left_shift(tf.constant([1], tf.int8), tf.constant([7], tf.int8)))
print(tf.bitwise.left_shift(tf.constant([1], tf.int64), 40))
print(tf.bitwise.bitwise_and(tf.constant([7], tf.uint16), 3))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([1.0])))
show(lambda: tf.bitwise.bitwise_and(a, tf.constant([1], tf.int64)))
show(lambda: tf.constant([1.0]) & tf.constant([1.0]))
