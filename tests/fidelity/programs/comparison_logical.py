import tensorflow as tf

x = tf.constant([1, 2, 3, 4])
y = tf.constant([4, 2, 1, 4])
print(x == y)
print(x != y)
print(x < y, x <= y, x > y, x >= y)
print(x == 2)
print(x > 2.0 if False else x > 2)
print(tf.equal(x, y), tf.not_equal(x, 3))
print(tf.less(x, 3), tf.greater_equal(x, y))
print(tf.constant([1.0, float("nan")]) == tf.constant([1.0, float("nan")]))
a = tf.constant([True, False, True, False])
b = tf.constant([True, True, False, False])
print(a & b, a | b, a ^ b, ~a)
print(tf.logical_and(a, b), tf.logical_or(a, b), tf.logical_not(a))
print(tf.math.logical_xor(a, b))
print(x == None)
print(x != None)
print(x == tf.constant([1, 2]))
print(x == "a" if False else "skip")
print(tf.constant("a") == tf.constant("a"))
print(tf.constant(["a", "b"]) == "a")
print(tf.reduce_all(x == x), tf.reduce_any(x > 3))
print(bool(tf.constant(True)), bool(tf.constant(0.0)))
print(tf.constant(3) in [1, 3] if False else "skip")
try:
    print(tf.constant([1, 2]) == 1.5)
except Exception as e:
    print(type(e).__name__)
try:
    bool(tf.constant([True, False]))
except Exception as e:
    print(type(e).__name__)
try:
    hash(tf.constant(1))
except Exception as e:
    print(type(e).__name__, e)
try:
    print(tf.logical_and(x, y))
except Exception as e:
    print(type(e).__name__)
print(tf.where(x > 2, x, -x))
print(tf.math.equal(tf.constant([1.0, 2.0]), 1.0))
