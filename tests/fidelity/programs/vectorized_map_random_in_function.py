import numpy as np
import tensorflow as tf


def show(label, value):
    value = tf.convert_to_tensor(value)
    array = value.numpy()
    if value.dtype.is_floating:
        array = np.round(array.astype(np.float64), 4)
    print(label, value.dtype.name, array.tolist())


# Inside a function, vectorized_map's random ops in branches and loops of its function
# draw as they do eagerly: once for the rows that reach them together.  Each is an op of
# the function, going on along its stream from one call to the next.
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])


def branches(r):
    return tf.cond(r[0] > 2.0, lambda: tf.random.uniform([2], seed=5),
                   lambda: tf.random.normal([2], seed=5))


tf.random.set_seed(1)
f = tf.function(lambda x: tf.vectorized_map(branches, x))
show("cond", f(x))
show("cond again", f(x))
show("global uniform after", tf.random.uniform([2]))
tf.random.set_seed(1)
show("cond after set_seed", f(x))
show("cond of other rows", f(tf.constant([[4.0, 0.0], [0.0, 0.0]])))

tf.random.set_seed(3)
loop = tf.function(lambda x: tf.vectorized_map(
    lambda r: tf.while_loop(lambda i, a: tf.cast(i, tf.float32) < r[0],
                            lambda i, a: (i + 1, a + tf.random.uniform([2], seed=7)),
                            (0, r), parallel_iterations=1)[1], x))
show("loop of a row's steps", loop(x))
show("loop again", loop(tf.constant([[3.0, 0.0], [1.0, 0.0], [2.0, 0.0]])))
show("global uniform after", tf.random.uniform([2]))

# rows known only at run time, and a tensor of the function captured by the map's
tf.random.set_seed(2)


@tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([])])
def scaled(x, scale):
    return tf.vectorized_map(lambda r: tf.cond(
        r[0] > 2.0, lambda: scale * tf.random.uniform([2], seed=1), lambda: r * scale), x)


show("rows of run time", scaled(x, 10.0))
show("rows of run time again", scaled(x[:2], 10.0))

# gradients flow through it
tf.random.set_seed(4)


@tf.function
def gradient(x, scale):
    with tf.GradientTape() as tape:
        tape.watch([x, scale])
        y = tf.vectorized_map(lambda r: tf.cond(
            r[0] > 2.0, lambda: scale * r * tf.random.uniform([2], seed=3),
            lambda: r * r * tf.random.normal([2], seed=3)), x)
    return (y,) + tuple(tape.gradient(y, [x, scale]))


y, dx, dscale = gradient(x, tf.constant(2.0))
show("values", y)
show("gradient of the rows", dx)
show("gradient of a captured tensor", dscale)
show("global uniform after", tf.random.uniform([2]))

# a variable the map's function reads (at the top, in a branch, in a loop): its value is
# read when the function runs, and gradients flow to it
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
tf.random.set_seed(1)
w = tf.Variable(2.0)
scaled_by_variable = tf.function(lambda x: tf.vectorized_map(lambda r: w * tf.cond(
    r[0] > 2.0, lambda: tf.random.uniform([2], seed=5),
    lambda: tf.random.normal([2], seed=5)), x))
show("variable", scaled_by_variable(x))
w.assign(3.0)
show("variable again", scaled_by_variable(x))
show("global uniform after", tf.random.uniform([2]))

tf.random.set_seed(6)
read_in_branch = tf.function(lambda x: tf.vectorized_map(lambda r: w * r * tf.cond(
    r[0] > 2.0, lambda: tf.random.uniform([2], seed=5), lambda: w * r), x))
with tf.GradientTape() as tape:
    y = read_in_branch(x)
show("variable in a branch", y)
show("gradient of the variable", tape.gradient(y, w))


@tf.function
def variable_gradient(x):
    with tf.GradientTape() as tape:
        y = tf.vectorized_map(lambda r: tf.cond(
            r[0] > 2.0, lambda: r * tf.random.uniform([2], seed=3),
            lambda: r * tf.random.normal([2], seed=3)) * w, x)
    return y, tape.gradient(y, w)


tf.random.set_seed(7)
y, dw = variable_gradient(x)
show("values", y)
show("gradient of the variable in the function", dw)

tf.random.set_seed(9)
variable_loop = tf.function(lambda x: tf.vectorized_map(
    lambda r: tf.while_loop(lambda i, a: tf.cast(i, tf.float32) < r[0],
                            lambda i, a: (i + 1, a + w * tf.random.uniform([2], seed=7)),
                            (0, r), parallel_iterations=1)[1], x))
show("variable in a loop", variable_loop(x))

# a Generator's draws in a branch or loop of the map's function: as eagerly, at each call
g = tf.random.Generator.from_seed(7)
generator_branches = tf.function(lambda x: tf.vectorized_map(lambda r: w * tf.cond(
    r[0] > 2.0, lambda: g.uniform([2]), lambda: g.normal([2])), x))
show("generator in a branch", generator_branches(x))
show("generator in a branch again", generator_branches(x))
show("generator after", g.uniform([2]))
g = tf.random.Generator.from_seed(3)
tf.random.set_seed(5)
generator_loop = tf.function(lambda x: tf.vectorized_map(
    lambda r: tf.while_loop(lambda i, a: tf.cast(i, tf.float32) < r[0] / 2,
                            lambda i, a: (i + 1, a + g.uniform([2])
                                          + tf.random.uniform([2], seed=2)), (0, r))[1], x))
show("generator in a loop", generator_loop(x))
show("generator in a loop again", generator_loop(x[1:]))
show("generator after", g.uniform([2]))
