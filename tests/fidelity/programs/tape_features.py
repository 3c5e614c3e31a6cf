import tensorflow as tf

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x)
    z = x * x + y
print(tape.gradient(z, [x, y]))
print([v.name for v in tape.watched_variables()])

with tf.GradientTape() as tape:
    a = x * x
    with tape.stop_recording():
        b = y * y
    c = a + b
print(tape.gradient(c, [x, y]))

with tf.GradientTape() as tape:
    out = x * 2
print(tape.gradient(out, y))
with tf.GradientTape() as tape:
    out = x * 2
print(tape.gradient(out, y, unconnected_gradients="zero"))

i = tf.Variable(3)
with tf.GradientTape() as tape:
    r = tf.cast(i, tf.float32) * 2.0
print(tape.gradient(r, i))

k = tf.constant(3)
with tf.GradientTape() as tape:
    tape.watch(k)
    r = k * k
print(tape.gradient(r, k))

with tf.GradientTape() as tape:
    r = tf.cast(x, tf.int32)
print(tape.gradient(r, x))

s = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    g = tf.gather(s, [1, 1])
    loss = tf.reduce_sum(g * g)
grad = tape.gradient(loss, s)
print(grad)
print(grad.indices, grad.values, grad.dense_shape)
print(type(grad).__name__)
print(tf.convert_to_tensor(grad))

xx = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(xx)
    yy = xx ** 2
    zz = tf.reduce_sum(yy)
print(tape.jacobian(yy, xx))
print(tape.gradient(zz, xx))
print(tape.jacobian(zz, xx))
del tape

w = tf.Variable(tf.ones([3, 2]))
xb = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
with tf.GradientTape() as tape:
    yb = tf.nn.sigmoid(xb @ w)
print(tape.jacobian(yb, w).shape)

with tf.GradientTape() as tape:
    tape.watch(xb)
    yb = xb * xb
print(tape.batch_jacobian(yb, xb))

v = tf.Variable(1.0)
def loss_fn():
    return tf.cond(v > 0, lambda: v * v, lambda: -v)
with tf.GradientTape() as tape:
    l = loss_fn()
print(tape.gradient(l, v))

with tf.GradientTape() as tape:
    l = tf.while_loop(lambda i, acc: i < 3, lambda i, acc: (i + 1, acc * v * 2.0),
                      [0, tf.constant(1.0)])[1]
print(tape.gradient(l, v))

@tf.custom_gradient
def clip_grad(x):
    def grad(dy):
        return tf.clip_by_norm(dy, 0.5)
    return tf.identity(x), grad

with tf.GradientTape() as tape:
    tape.watch(xx)
    out = tf.reduce_sum(clip_grad(xx) * 10.0)
print(tape.gradient(out, xx))

with tf.GradientTape() as tape:
    tape.watch(xx)
    out = tf.reduce_sum(tf.stop_gradient(xx) * xx)
print(tape.gradient(out, xx))

with tf.GradientTape() as t1:
    t1.watch(xx)
    with tf.GradientTape() as t2:
        t2.watch(xx)
        out = tf.reduce_sum(xx ** 3)
    g = t2.gradient(out, xx)
print(g, t1.gradient(g, xx))

with tf.GradientTape() as tape:
    out = x * 3
try:
    with tf.GradientTape() as tape:
        pass
    tape.gradient(None, x)
except Exception as e:
    print(type(e).__name__, e)
with tf.GradientTape() as tape:
    out = x * 3
    try:
        print(tape.gradient(out, x))
    except Exception as e:
        print(type(e).__name__, e)


# recompute_grad and a custom gradient with variables
@tf.recompute_grad
def block(t):
    return tf.tanh(t * 2.0)


with tf.GradientTape() as tape:
    tape.watch(xx)
    out = tf.reduce_sum(block(xx))
print(tape.gradient(out, xx))

# third derivative, and gradients of a gather through a function
x3 = tf.Variable(0.5)
with tf.GradientTape() as t3:
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y3 = tf.sin(x3) * x3
        d1 = t1.gradient(y3, x3)
    d2 = t2.gradient(d1, x3)
d3 = t3.gradient(d2, x3)
print([round(float(d), 5) for d in (d1, d2, d3)])


@tf.function
def embed_loss(table, ids):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(table, ids) ** 2)
    return tf.convert_to_tensor(tape.gradient(loss, table))


print(embed_loss(s, tf.constant([0, 0, 1])))
