import tensorflow as tf


class Scaler(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.scale = tf.Variable(2.0, name="scale")
        self.count = tf.Variable(0, dtype=tf.int64, trainable=False, name="count")

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], dtype=tf.float32, name="x")])
    def __call__(self, x):
        self.count.assign_add(1)
        return {"scaled": x * self.scale, "total": tf.reduce_sum(x, axis=1)}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def set_scale(self, value):
        self.scale.assign(value)
        return self.scale.read_value()


m = Scaler(name="scaler")
out = m(tf.ones([2, 3]))
print(sorted(out.keys()))
print(out["scaled"])
print(out["total"])
print(m(tf.constant([[1.0, 2.0, 3.0]]))["total"])
print(m.count.numpy())
print(m.set_scale(tf.constant(0.5)))
print(m.scale)
cf = m.__call__.get_concrete_function()
print(cf.structured_input_signature)
print(cf.structured_outputs)
print([t.shape for t in cf.outputs])
print(m.__call__.input_signature)
print(m.set_scale.input_signature)
try:
    m(tf.ones([2, 4]))
except (TypeError, ValueError) as e:
    print(type(e).__name__)
try:
    m(tf.ones([2, 3], tf.float64))
except (TypeError, ValueError) as e:
    print(type(e).__name__)
print([v.name for v in m.variables])
print([v.name for v in m.trainable_variables])


@tf.function
def squares(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i * i, tf.float32))
    return ta.stack()


print(squares(tf.constant(5)))
print(squares(tf.constant(0)))

ta = tf.TensorArray(tf.int32, size=3)
ta = ta.write(0, 10)
ta = ta.write(1, 20)
ta = ta.write(2, 30)
print(ta.size())
print(ta.read(1))
print(ta.stack())
print(ta.gather([2, 0]))
print(ta.dtype, ta.element_shape)

ta2 = tf.TensorArray(tf.float32, size=2, element_shape=tf.TensorShape([2]))
ta2 = ta2.unstack(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
print(ta2.concat())
print(ta2.element_shape)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def running_mean(xs):
    ta = tf.TensorArray(tf.float32, size=tf.shape(xs)[0])
    total = tf.constant(0.0)
    for i in tf.range(tf.shape(xs)[0]):
        total += xs[i]
        ta = ta.write(i, total / tf.cast(i + 1, tf.float32))
    return ta.stack()


print(running_mean(tf.constant([2.0, 4.0, 6.0, 8.0])))
print(running_mean.get_concrete_function().structured_input_signature)


class Counter(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = None

    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(tf.zeros([2]))
        self.v.assign_add(x)
        return self.v.read_value()


c = Counter()
print(c(tf.constant([1.0, 2.0])))
print(c(tf.constant([1.0, 2.0])))
print(len(c.variables), c.v.shape)
print(c.__call__.experimental_get_tracing_count())
