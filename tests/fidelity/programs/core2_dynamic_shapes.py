import tensorflow as tf

tf.random.set_seed(7)


@tf.function
def noise(x):
    n = tf.shape(x)[0]
    a = tf.random.normal(shape=(n, 2), seed=1)
    b = tf.random.uniform([n, 2], seed=2)
    c = tf.random.stateless_normal([n, 3], seed=[1, 2])
    d = tf.random.categorical(tf.zeros([n, 3]), n, seed=3)
    e = tf.random.truncated_normal([n, n + 1], seed=4)
    print("static:", a.shape, b.shape, c.shape, d.shape, e.shape)
    print("filled:", tf.zeros([n, 2]).shape, tf.fill((n, 2), 1.5).shape)
    return a, b, c, d, e


outs = noise(tf.ones((4, 1)))
print([o.shape for o in outs])
print(outs[2])
spec = noise.get_concrete_function(tf.TensorSpec([None, 1]))
print(spec.structured_outputs[0].shape, spec.structured_outputs[3].shape)
print([o.shape for o in spec(tf.ones((3, 1)))])

print(tf.function(lambda: tf.range(2)).get_concrete_function().structured_outputs.shape)
for args in [(5, 1, -2), (0.0, 1.0, 0.3), (0,), (2.5,), (1.0, 0.0, -0.25), (2, 2)]:
    out = tf.function(lambda: tf.range(*args)).get_concrete_function().structured_outputs
    print(args, out.shape, out.dtype)
try:
    tf.function(lambda: tf.range(3, 1)).get_concrete_function()
except ValueError as e:
    print("ValueError:", str(e).split(" for ")[0].split("\n")[-1].strip())

weights = []


@tf.function
def scale(x):
    print("tracing scale")
    if not weights:
        weights.append(tf.Variable(2.0))
    return weights[0] * x


print(scale(tf.constant(1.5)).numpy(), scale(tf.constant(2.5)).numpy())
print(scale.experimental_get_tracing_count())
print(scale.pretty_printed_concrete_signatures(verbose=False))


class Dense(tf.Module):
    def __init__(self):
        self.w = None

    @tf.function
    def __call__(self, x):
        print("tracing Dense", x.shape)
        if self.w is None:
            self.w = tf.Variable(tf.ones([x.shape[-1], 2]))
        return x @ self.w


m = Dense()
print(m(tf.ones([1, 3])).numpy())
print(m(tf.ones([2, 3])).shape, m.__call__.experimental_get_tracing_count())
