import sys

import tensorflow as tf


class Counter(tf.Module):
    def __init__(self):
        self.count = None

    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)


c = Counter()
print(c(), c(), c.count)


@tf.function
def bad(x):
    v = tf.Variable(1.0)
    return v * x


try:
    bad(tf.constant(2.0))
except ValueError as e:
    print("ValueError:", str(e).strip().splitlines()[-1].strip())

v = tf.Variable(1.0)


@tf.function
def scale(x):
    v.assign(v * 2)
    return x * v


print(scale(tf.constant(1.0)), scale(tf.constant(1.0)), v.numpy())
print(scale.experimental_get_tracing_count())

tf.config.run_functions_eagerly(True)


@tf.function
def eager_fn(x):
    print("running", x)
    return x + 1


print(eager_fn(tf.constant(1)), eager_fn(tf.constant(2)))
print(tf.config.functions_run_eagerly())
tf.config.run_functions_eagerly(False)
print(eager_fn(tf.constant(1)))
print(eager_fn(tf.constant(3)))
print(tf.config.functions_run_eagerly())


@tf.function
def f(x):
    print("Traced with", x)
    tf.print("Executed with", x, output_stream=sys.stdout)


for arg in (1, 1, 2, tf.constant(1), tf.constant(2), [1, 2], [1, 2], (1, 2), {"a": 1}, None,
            1.0, True, "s"):
    f(arg)
print(f.experimental_get_tracing_count())


class Obj:
    pass


o1, o2 = Obj(), Obj()


@tf.function
def g(o):
    print("trace g")
    return 1


g(o1)
g(o1)
g(o2)
print(g.experimental_get_tracing_count())

model_weights = tf.Variable([[0.5], [-0.5]])
opt_lr = 0.1


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((x @ model_weights - y) ** 2)
    grad = tape.gradient(loss, model_weights)
    model_weights.assign_sub(opt_lr * grad)
    return loss


xs = tf.constant([[1.0, 2.0], [3.0, 4.0]])
ys = tf.constant([[1.0], [2.0]])
for _ in range(3):
    print(train_step(xs, ys).numpy().round(5))
print(model_weights.numpy().round(5), train_step.experimental_get_tracing_count())
