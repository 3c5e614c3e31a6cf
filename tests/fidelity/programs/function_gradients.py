import numpy as np
import tensorflow as tf

@tf.function
def hess(x):
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.reduce_sum(tf.sin(x) * x)
        g = t1.gradient(y, x)
    return g, t2.jacobian(g, x)

g, h = hess(tf.constant([0.5, 1.0, 2.0]))
print(np.round(g.numpy(), 5))
print(np.round(h.numpy(), 5))

@tf.function
def graph_gradients(x):
    y = x * x + tf.exp(x)
    return tf.gradients(y, x)

print(graph_gradients(tf.constant([0.0, 1.0])))

@tf.function
def unconnected(x, z):
    y = x * 2.0
    return tf.gradients(y, [x, z]), tf.gradients(y, [x, z], unconnected_gradients="zero")

print(unconnected(tf.constant(1.0), tf.constant(2.0)))

@tf.function
def ta_loop(x):
    ta = tf.TensorArray(tf.float32, size=3)
    acc = x
    for i in tf.range(3):
        acc = acc * x
        ta = ta.write(i, acc)
    return ta.stack()

x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    out = ta_loop(x)
print(out, tape.gradient(out, x))

v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(v @ v))
    grad = tape.gradient(loss, v)
    v.assign_sub(0.01 * grad)
    return loss, grad

for _ in range(2):
    loss, grad = step()
    print(np.round(loss.numpy(), 3), np.round(grad.numpy(), 3))

@tf.function
def batch_jac(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.softmax(x)
    return tape.batch_jacobian(y, x)

print(np.round(batch_jac(tf.constant([[1.0, 2.0, 3.0]])).numpy(), 4))

@tf.custom_gradient
def clip_grad(x):
    def grad(dy):
        return tf.clip_by_norm(dy, 1.0)
    return tf.identity(x), grad

@tf.function
def use_clip(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(clip_grad(x) * 10.0)
    return tape.gradient(y, x)

print(use_clip(tf.constant([1.0, 1.0])))

x = tf.Variable(3.0)
def f():
    return x * x
opt_grads = tf.GradientTape()
with opt_grads:
    y = f()
print(opt_grads.gradient(y, x))
print(tf.test.compute_gradient(lambda t: t * t, [tf.constant([1.0, 2.0])]))
