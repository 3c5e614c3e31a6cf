import tensorflow as tf

g = tf.random.Generator.from_seed(42)
print(g.normal([2, 2]))
print(g.uniform([3], minval=0, maxval=10, dtype=tf.int32))
print(g.state.shape, g.algorithm)
print(tf.random.stateless_uniform([3], seed=[1, 2]))
print(tf.random.stateless_normal([2], seed=[3, 4], dtype=tf.float64))
print(tf.random.stateless_uniform([4], seed=[5, 6], minval=0, maxval=100, dtype=tf.int64))

true_w, true_b = 3.0, 2.0
x = tf.random.stateless_normal([64], seed=[0, 1])
noise = tf.random.stateless_normal([64], seed=[0, 2]) * 0.1
y = true_w * x + true_b + noise


class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(5.0, name="w")
        self.b = tf.Variable(0.0, name="b")

    def __call__(self, x):
        return self.w * x + self.b


model = Linear()


def loss_fn(target, pred):
    return tf.reduce_mean(tf.square(target - pred))


@tf.function
def train_step(x, y, lr):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, [model.w, model.b])
    clipped, norm = tf.clip_by_global_norm(grads, 5.0)
    for v, gr in zip([model.w, model.b], clipped):
        v.assign_sub(lr * gr)
    return loss, norm


for epoch in range(6):
    loss, norm = train_step(x, y, tf.constant(0.1))
    print(f"epoch {epoch}: loss={loss.numpy():.4f} grad_norm={norm.numpy():.4f} "
          f"w={model.w.numpy():.4f} b={model.b.numpy():.4f}")
print(train_step.experimental_get_tracing_count())
print(round(float(model.w), 2), round(float(model.b), 2))

opt_vars = [tf.Variable([1.0, -2.0]), tf.Variable([[0.5]])]
grads = [tf.constant([30.0, 40.0]), tf.constant([[0.0]])]
clipped, gnorm = tf.clip_by_global_norm(grads, clip_norm=10.0)
print(clipped, gnorm)
clipped, gnorm = tf.clip_by_global_norm([tf.constant([1.0]), None], 10.0)
print(clipped, gnorm)
print(tf.clip_by_norm(tf.constant([[3.0, 4.0], [6.0, 8.0]]), 5.0, axes=[1]))
print(tf.clip_by_value(tf.constant([[1, 5], [9, -3]]), clip_value_min=0, clip_value_max=6))

with tf.GradientTape(persistent=True) as tape:
    z = model.w * 2.0 + model.b ** 2
dz = tape.gradient(z, {"w": model.w, "b": model.b})
print(sorted(dz), [round(float(t), 4) for t in dz.values()])
print(tape.gradient(z, tf.Variable(1.0)))
del tape

acc = tf.Variable(0.0)
for step, val in enumerate(tf.range(1.0, 4.0)):
    acc.assign_add(val * tf.cast(step, tf.float32))
print(acc.numpy())
