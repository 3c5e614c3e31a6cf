import numpy as np
import tensorflow as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


x = tf.constant([1.0, 2.0, -3.0])


def second(v):
    with tf.GradientTape() as t2:
        t2.watch(v)
        with tf.GradientTape() as t1:
            t1.watch(v)
            y = tf.reduce_sum(log1pexp(v))
        g = t1.gradient(y, v)
    return t2.gradient(g, v)


print(np.round(second(x).numpy(), 5))
print(np.round(tf.function(second)(x).numpy(), 5))

P = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 3.0)
ROWS = [tf.TensorSpec([None, 3], tf.float32)]
ANY = [tf.TensorSpec([None, None], tf.float32)]


@tf.function(input_signature=ANY)
def pooled(p):
    with tf.GradientTape() as t:
        t.watch(p)
        y = tf.nn.avg_pool1d(p[None], 2, 1, "VALID") ** 2
    return t.gradient(y, p)


print(np.round(pooled(P).numpy(), 4))


@tf.function(input_signature=ANY)
def gathered(p):
    with tf.GradientTape() as t:
        t.watch(p)
        y = tf.gather(p, [0, 2, 0]) * 2.0
    return t.gradient(y, p)


g = gathered(P)
print(type(g).__name__, g.values.numpy().tolist(), g.indices.numpy(), g.dense_shape.numpy())
print(len(tf.nest.flatten(g, expand_composites=True)))


@tf.function(input_signature=ROWS)
def jac(p):
    with tf.GradientTape(persistent=True) as t:
        t.watch(p)
        y = tf.gather(p, [2, 0])
        m = tf.reduce_max(p, axis=0)
    return t.jacobian(y, p), t.jacobian(m, p), t.jacobian(tf.ones([2]), p,
                                                           unconnected_gradients="zero")


for j in jac(P):
    print(j.shape, np.round(j.numpy(), 4).reshape(-1, 3).sum(0))


@tf.function(input_signature=ANY)
def bjac(p):
    with tf.GradientTape() as t:
        t.watch(p)
        y = tf.reshape(p, [4, 3]) ** 2
    return t.batch_jacobian(y, p)


print(np.round(bjac(P).numpy(), 4))

y, mean, var = tf.compat.v1.nn.fused_batch_norm(tf.reshape(P, [1, 2, 2, 3]), tf.ones([3]),
                                                tf.zeros([3]))
print(np.round(y.numpy(), 4).ravel(), np.round(mean.numpy(), 4), np.round(var.numpy(), 4))
