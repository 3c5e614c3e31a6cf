import numpy as np
import tensorflow as tf


def show(label, value):
    value = tf.convert_to_tensor(value)
    array = value.numpy()
    if value.dtype.is_floating:
        array = np.round(array.astype(np.float64), 4)
    print(label, value.dtype.name, array.tolist())


# A vectorized_map in the function of another is vectorized along both: a random op in a
# branch of the inner function draws once for all the pairs of rows taking the branch.
# (TF's vectorized function fails where the outer rows have unlike numbers of rows taking it.)
x = tf.constant([[1.0, 3.0], [4.0, 0.0]])


def outer(x):
    return tf.vectorized_map(lambda x: tf.vectorized_map(lambda y: tf.cond(
        y > 2.0, lambda: tf.random.uniform([], seed=5), lambda: -y), x), x)


tf.random.set_seed(1)
show("nested", outer(x))
show("nested again", outer(x))
show("global uniform after", tf.random.uniform([2]))
tf.random.set_seed(1)
f = tf.function(outer)
show("nested in a function", f(x))
show("nested in a function again", f(x))
show("global uniform after", tf.random.uniform([2]))

tf.random.set_seed(2)
show("draws in both", tf.vectorized_map(
    lambda r: tf.vectorized_map(lambda y: tf.cond(
        y > 2.0, lambda: tf.random.uniform([], seed=1), lambda: -y), r)
    + tf.random.uniform([2], seed=2), tf.constant([[1.0, 3.0], [4.0, 0.0], [0.0, 5.0]])))

# gradients flow through both
tf.random.set_seed(4)
v = tf.constant([[1.0, 3.0], [4.0, 0.5]])
with tf.GradientTape() as tape:
    tape.watch(v)
    y = tf.vectorized_map(lambda x: tf.vectorized_map(lambda y: tf.cond(
        y > 2.0, lambda: y * tf.random.uniform([], seed=5), lambda: y * y), x), v)
show("values", y)
show("gradient", tape.gradient(y, v))
