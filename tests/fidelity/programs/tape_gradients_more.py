import numpy as np
import tensorflow as tf

# embedding gradients are IndexedSlices
emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
with tf.GradientTape() as tape:
    rows = tf.gather(emb, [0, 2, 2])
    loss = tf.reduce_sum(rows * rows)
g = tape.gradient(loss, emb)
print(type(g).__name__)
print(g)
print(tf.convert_to_tensor(g))
print(g.indices, g.values.shape, g.dense_shape)

# output_gradients and several targets
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z = tf.reduce_sum(tf.sin(x))
print(tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.5, 0.0])))
print(tape.gradient([y, z], x))
print(tape.gradient({"a": y, "b": z}, {"x": x}))
del tape

# watch_accessed_variables=False
v = tf.Variable(2.0)
w = tf.Variable(3.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(v)
    out = v * w
print(tape.gradient(out, [v, w]))
print([var.name for var in tape.watched_variables()])

# gradients through control flow, eager and in function
def f(x):
    total = tf.constant(0.0)
    for i in tf.range(3):
        if x > 1.0:
            total += x * tf.cast(i, tf.float32)
        else:
            total -= x
    return total

for fn in (f, tf.function(f)):
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    print(y, tape.gradient(y, x))

# while_loop gradient
x = tf.constant(1.5)
with tf.GradientTape() as tape:
    tape.watch(x)
    _, y = tf.while_loop(lambda i, acc: i < 4, lambda i, acc: (i + 1, acc * x), [0, tf.constant(1.0)])
print(y, tape.gradient(y, x))

# custom gradient with variables
weight = tf.Variable(2.0)
@tf.custom_gradient
def scaled(x):
    y = x * weight
    def grad(upstream, variables=None):
        return upstream * weight, [upstream * x * 10.0]
    return y, grad
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = scaled(x)
print(tape.gradient(y, [x, weight]))

# jacobians
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.tanh(x) * tf.reduce_sum(x, axis=1, keepdims=True)
j = tape.jacobian(y, x)
bj = tape.batch_jacobian(y, x)
print(j.shape, bj.shape)
print(np.round(j.numpy(), 4))
print(np.round(bj.numpy(), 4))
print(tape.jacobian(y, tf.constant(1.0)))
print(tape.jacobian(y, tf.constant(1.0), unconnected_gradients="zero").shape)
del tape

# hessian via nested tapes
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = tf.reduce_sum(x ** 3)
    g = t1.gradient(y, x)
h = t2.jacobian(g, x)
print(g, h)

# stop_gradient, clip, integer
x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * tf.stop_gradient(x) + tf.clip_by_value(x, 0.0, 1.5)
print(tape.gradient(y, x))
with tf.GradientTape() as tape:
    xi = tf.constant(3)
    tape.watch(xi)
    yi = xi * xi
print(tape.gradient(yi, xi))

# errors
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
tape.gradient(y, x)
try:
    tape.gradient(y, x)
except Exception as e:
    print(type(e).__name__, e)
try:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x, output_gradients=tf.constant([1.0, 2.0]))
except Exception as e:
    print(type(e).__name__)  # the class is TF's; the message says more than TF's
