import numpy as np
import tensorflow as tf


def show(label, value):
    value = tf.convert_to_tensor(value)
    array = value.numpy()
    if value.dtype.is_floating:
        array = np.round(array.astype(np.float64), 4)
    print(label, value.dtype.name, array.tolist())


# a random op in vectorized_map's function draws once for all rows, seeded as in a
# function traced anew; the global sequence does not advance
tf.random.set_seed(1)
show("uniform rows", tf.vectorized_map(lambda x: x + tf.random.uniform([3]), tf.zeros([4])))
show("global uniform after", tf.random.uniform([2]))
show("uniform rows again", tf.vectorized_map(lambda x: x + tf.random.uniform([3]), tf.zeros([4])))
tf.random.set_seed(1)
show("normal rows", tf.vectorized_map(lambda x: x + tf.random.normal([2]), tf.zeros([3])))
show("op seed rows", tf.vectorized_map(lambda x: tf.random.uniform([3], seed=5), tf.zeros([4])))
show("one op seed twice",
     tf.vectorized_map(lambda x: tf.random.uniform([2], seed=4) - tf.random.uniform([2], seed=4),
                       tf.zeros([2])))
tf.random.set_seed(4)
show("int rows", tf.vectorized_map(
    lambda r: tf.random.uniform([2], maxval=10, dtype=tf.int32), tf.zeros([3])))
show("truncated and scalar", tf.vectorized_map(
    lambda r: tf.random.truncated_normal([2], seed=3) + tf.random.uniform([], seed=3),
    tf.zeros([3])))
show("dropout", tf.vectorized_map(lambda r: tf.nn.dropout(r, 0.5, seed=1), tf.ones([3, 4])))
show("shape of the row", tf.vectorized_map(lambda r: r + tf.random.uniform(tf.shape(r)),
                                           tf.zeros([3, 2])))
tf.random.set_seed(2)
show("categorical", tf.vectorized_map(
    lambda r: tf.random.categorical(tf.math.log([[0.5, 0.5], [0.2, 0.8]]), 3), tf.zeros([4])))
show("poisson", tf.vectorized_map(lambda r: tf.random.poisson([2], [1.0, 2.0], seed=3),
                                  tf.zeros([3])))
show("gamma", tf.vectorized_map(lambda r: tf.random.gamma([2], 1.0), tf.zeros([3])))
show("global uniform after", tf.random.uniform([1]))


# in a function: the op takes its seed in the function's graph, as the ops around it
@tf.function
def around(x):
    before = tf.random.uniform([2])
    rows = tf.vectorized_map(lambda r: r + tf.random.normal([2]), x)
    return before, rows, tf.random.uniform([2])


tf.random.set_seed(3)
for i in range(2):
    for name, value in zip(["before", "rows", "after"], around(tf.zeros([3, 2]))):
        show(f"call {i} {name}", value)


@tf.function(input_signature=[tf.TensorSpec([None, 2])])
def unknown_rows(x):
    return tf.vectorized_map(lambda r: (r * tf.random.uniform([2]),
                                        tf.random.categorical([[0.0, 0.0, 1.0]], 2)), x)


tf.random.set_seed(3)
for rows in (3, 2):
    for value in unknown_rows(tf.ones([rows, 2])):
        show(f"unknown rows {rows}", value)

x = tf.Variable(tf.ones([3, 2]))
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.vectorized_map(lambda r: r * tf.random.uniform([2], seed=2), x))
show("gradient", tape.gradient(y, x))

# a Generator draws row by row, after the draw of the function's trace (which TF runs too)
g = tf.random.Generator.from_seed(1)
show("generator rows", tf.vectorized_map(lambda r: r + g.uniform([2]), tf.zeros([2, 2])))
show("generator state", g.state)
show("generator after", g.normal([2]))


@tf.function
def generator_rows(x):
    return tf.vectorized_map(lambda r: r + g.normal([3]), x)


for i in range(2):
    show(f"generator in a function {i}", generator_rows(tf.zeros([2, 3])))
    show(f"generator state {i}", g.state)

# a map in a map: the inner map's ops draw for the rows of both
tf.random.set_seed(1)
show("nested", tf.vectorized_map(
    lambda x: tf.vectorized_map(lambda y: y + tf.random.uniform([]), x), tf.zeros([2, 3])))
show("nested categorical", tf.vectorized_map(
    lambda x: tf.vectorized_map(lambda y: tf.random.categorical([[0.0, 0.0]], 2), x),
    tf.zeros([2, 3])))
show("global uniform after", tf.random.uniform([1]))
tf.random.set_seed(1)
show("eager map_fn of a map", tf.map_fn(
    lambda x: tf.vectorized_map(lambda y: y + tf.random.uniform([]), x), tf.zeros([2, 3])))
