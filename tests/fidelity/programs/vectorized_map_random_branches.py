import numpy as np
import tensorflow as tf


def show(label, value):
    value = tf.convert_to_tensor(value)
    array = value.numpy()
    if value.dtype.is_floating:
        array = np.round(array.astype(np.float64), 4)
    print(label, value.dtype.name, array.tolist())


# A random op in a branch of vectorized_map's function draws once for the rows taking the
# branch; in a loop, once per step for the rows still running (its stream going on).
# (TF's loops whose steps depend on the row draw so too, but with parallel iterations now
# and then out of order: the loops below run one at a time.)
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])


def branches(r):
    return tf.cond(r[0] > 2.0, lambda: tf.random.uniform([2], seed=5),
                   lambda: tf.random.normal([2], seed=5))


tf.random.set_seed(1)
show("cond", tf.vectorized_map(branches, x))
show("cond again", tf.vectorized_map(branches, x))
show("global uniform after", tf.random.uniform([2]))
show("all rows in one branch", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 20.0, lambda: tf.random.uniform([2], seed=5),
                      lambda: tf.random.normal([2], seed=5)), x))
tf.random.set_seed(5)
show("unseeded ops in branches", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: tf.random.uniform([2]),
                      lambda: tf.random.normal([2])), x))
show("global uniform after", tf.random.uniform([2]))
show("switch_case", tf.vectorized_map(
    lambda r: tf.switch_case(tf.cast(r[0], tf.int32) % 3, [
        lambda: tf.random.uniform([2], seed=1), lambda: tf.random.normal([2], seed=1),
        lambda: tf.random.truncated_normal([2], seed=1)]),
    tf.constant([[0.0], [1.0], [2.0], [0.0], [1.0]])))
tf.random.set_seed(6)
show("branch and top", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: r + tf.random.uniform([2], seed=1),
                      lambda: r - tf.random.uniform([2], seed=1))
    + tf.random.uniform([2], seed=1), x))
show("gamma and poisson in branches", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: tf.random.gamma([2], 2.0, seed=1),
                      lambda: tf.random.poisson([2], 3.0, seed=1)), x))
show("gamma of a row's alpha", tf.vectorized_map(lambda r: tf.random.gamma([2], r, seed=1), x))
show("categorical in branches", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: tf.random.categorical([r], 4, seed=1),
                      lambda: tf.random.categorical([[0.0, 0.0]], 4, seed=2)), x))
tf.random.set_seed(1)
show("nested conds", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: tf.cond(
        r[1] > 5.0, lambda: tf.random.uniform([2], seed=5),
        lambda: 10 + tf.random.uniform([2], seed=5)), lambda: tf.random.normal([2], seed=5)),
    tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [4.0, 1.0]])))

# categorical of a row's logits: one op on the logits of all rows
logits = tf.constant([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0], [0.0, 0.0, 5.0]])
tf.random.set_seed(2)
show("categorical of a row", tf.vectorized_map(
    lambda l: tf.random.categorical(l[None], 5, seed=3), logits))
show("categorical of two rows", tf.vectorized_map(
    lambda l: tf.random.categorical([l, -l], 3, seed=3), logits))
show("global uniform after", tf.random.uniform([2]))


def steps(limit):
    def fn(r):
        return tf.while_loop(lambda i, a: limit(i, r),
                             lambda i, a: (i + 1, a + tf.random.uniform([2], seed=7)),
                             (0, r), parallel_iterations=1)[1]
    return fn


tf.random.set_seed(3)
show("loop of fixed steps", tf.vectorized_map(steps(lambda i, r: i < 3), x))
show("global uniform after", tf.random.uniform([2]))
show("loop of a row's steps", tf.vectorized_map(
    steps(lambda i, r: tf.cast(i, tf.float32) < r[0]), x))
show("loop of a row's steps again", tf.vectorized_map(
    steps(lambda i, r: tf.cast(i, tf.float32) < r[0]),
    tf.constant([[3.0, 0.0], [1.0, 0.0], [2.0, 0.0]])))
show("global uniform after", tf.random.uniform([2]))
tf.random.set_seed(3)
show("loop of random steps", tf.vectorized_map(
    lambda r: tf.while_loop(lambda i, a: tf.random.uniform([], seed=8) < 0.7,
                            lambda i, a: (i + 1, a + tf.random.uniform([2], seed=7)),
                            (0, r))[1], x))
show("cond in a loop", tf.vectorized_map(
    lambda r: tf.while_loop(
        lambda i, a: tf.cast(i, tf.float32) < r[1] - 1,
        lambda i, a: (i + 1, tf.cond(a[0] > 4.0, lambda: a + tf.random.uniform([2], seed=7),
                                     lambda: a + 2 * tf.random.normal([2], seed=7))),
        (0, r))[1], x))
tf.random.set_seed(7)
show("maximum_iterations", tf.vectorized_map(
    lambda r: tf.while_loop(lambda i, a: True,
                            lambda i, a: (i + 1, a + tf.random.normal([2], seed=2)),
                            (0, r), maximum_iterations=2)[1], x))
tf.random.set_seed(7)
show("maximum_iterations of a row", tf.vectorized_map(
    lambda r: tf.while_loop(lambda i, a: True,
                            lambda i, a: (i + 1, a + tf.random.normal([2], seed=2)),
                            (0, r), maximum_iterations=tf.cast(r[0], tf.int32),
                            parallel_iterations=1)[1],
    tf.constant([[1.0, 2.0], [3.0, 4.0], [2.0, 6.0]])))

# dropout in a branch
tf.random.set_seed(4)
dropout = tf.keras.layers.Dropout(0.5, seed=3)
show("dropout layer in a branch", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: dropout(r, training=True), lambda: r * 10.0), x))
tf.random.set_seed(4)
show("nn.dropout in a branch", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: tf.nn.dropout(r, 0.5, seed=3), lambda: r * 10.0), x))

# stateless ops give each row the values of its seed
show("stateless in branches", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: tf.random.stateless_uniform([2], seed=[1, 2]),
                      lambda: tf.random.stateless_normal([2], seed=[3, 4])), x))

# a Generator draws row by row, after the draws of the first row's path (TF's trace runs
# them), each branch for its rows in turn, each loop step for the rows still running
g = tf.random.Generator.from_seed(7)
show("generator in branches", tf.vectorized_map(
    lambda r: tf.cond(r[0] > 2.0, lambda: g.uniform([2]), lambda: g.normal([2])), x))
show("generator after", g.uniform([2]))
g = tf.random.Generator.from_seed(3)
show("generator in a loop", tf.vectorized_map(
    lambda r: tf.while_loop(lambda i, a: tf.cast(i, tf.float32) < r[0] / 2,
                            lambda i, a: (i + 1, a + g.uniform([2])), (0, r))[1], x))
show("generator after", g.uniform([2]))

# gradients flow through the rows' branches
v = tf.Variable(x)
with tf.GradientTape() as tape:
    y = tf.vectorized_map(lambda r: tf.cond(r[0] > 2.0, lambda: r * tf.random.uniform(
        [2], seed=3), lambda: r * r), v)
show("gradient", tape.gradient(y, v))


@tf.function
def inner(r):
    return tf.cond(r[0] > 2.0, lambda: tf.random.uniform([2], seed=5), lambda: -r)


tf.random.set_seed(1)
show("function called in the map", tf.vectorized_map(inner, x))
