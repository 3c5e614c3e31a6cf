import numpy as np
import tensorflow as tf

# The eager guide's tape examples.
w = tf.Variable([[1.0]])
with tf.GradientTape() as tape:
    loss = w * w
print(tape.gradient(loss, w))

x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as g:
    g.watch(x)
    y = x * x
    z = y * y
print(g.gradient(z, x), g.gradient(y, x))
del g


def log1pexp(x):
    return tf.math.log(1 + tf.exp(x))


@tf.custom_gradient
def log1pexp_stable(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


for fn in (log1pexp, log1pexp_stable):
    x = tf.constant(100.0)
    with tf.GradientTape() as t:
        t.watch(x)
        value = fn(x)
    print(value, t.gradient(value, x))

# Nested tapes: second and third derivatives.
x = tf.Variable(1.5)
with tf.GradientTape() as t3:
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = x * x * x
        dy = t1.gradient(y, x)
    d2y = t2.gradient(dy, x)
print(dy, d2y, t3.gradient(d2y, x))

# Structures, unconnected sources, integer sources.
a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
with tf.GradientTape(persistent=True) as t:
    out = {"p": a * b, "q": [tf.sin(a)]}
print(t.gradient(out, {"a": a, "rest": (b, c)}))
print(t.gradient(out, c, unconnected_gradients=tf.UnconnectedGradients.ZERO))
i = tf.constant(2)
with tf.GradientTape() as t:
    t.watch(i)
    j = i * i
print(t.gradient(j, i))

# Broadcasting, matmul and reductions.
x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
bias = tf.Variable([0.5, -0.5, 1.0])
kernel = tf.Variable(np.ones((3, 2), np.float32))
with tf.GradientTape() as t:
    h = tf.nn.relu(tf.matmul(x + bias, kernel))
    loss = tf.reduce_mean(tf.square(h)) + tf.reduce_max(x * bias)
dbias, dkernel = t.gradient(loss, [bias, kernel])
print(np.round(dbias.numpy(), 4), np.round(dkernel.numpy(), 4))

# Sparse gradients of gathers.
table = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as t:
    rows = tf.gather(table, [2, 0, 2])
    loss = tf.reduce_sum(rows * 2.0)
g = t.gradient(loss, table)
print(type(g).__name__)
print(g)
print(tf.convert_to_tensor(g))

# Jacobians.
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    y = x * x
print(t.jacobian(y, x).shape, t.batch_jacobian(y, x).shape)
print(t.batch_jacobian(y, x))

# A one-shot tape can be used once.
with tf.GradientTape() as t:
    t.watch(x)
    y = x * 2.0
t.gradient(y, x)
try:
    t.gradient(y, x)
except RuntimeError as e:
    print(type(e).__name__)
print(tf.stop_gradient(x * 2.0))
