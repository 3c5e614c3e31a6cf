import tensorflow as tf

tf.random.set_seed(42)
print(tf.random.uniform([3]))
print(tf.random.normal([2, 2]))
print(tf.random.truncated_normal([4], mean=1.0, stddev=0.5))
print(tf.random.uniform([5], minval=-3, maxval=7, dtype=tf.int32))
print(tf.random.uniform([2], dtype=tf.float64))
print(tf.random.shuffle(tf.range(6)))
print(tf.random.categorical(tf.math.log([[0.1, 0.9], [0.7, 0.3]]), 5))
print(tf.random.uniform([2], seed=1), tf.random.uniform([2], seed=1))
print(tf.nn.dropout(tf.ones([2, 3]), 0.5, seed=3))
print(tf.random.stateless_uniform([2], seed=[1, 2]))
print(tf.random.stateless_normal([3], seed=[3, 4], dtype=tf.float16))
print(tf.random.stateless_truncated_normal([2, 2], seed=[5, 6]))
print(tf.random.stateless_uniform([3], seed=[1, 2], minval=0, maxval=100, dtype=tf.int64))
print(tf.random.stateless_categorical([[0.0, 1.0, 2.0]], 4, seed=[9, 9]))
g = tf.random.Generator.from_seed(1)
print(g.normal([3]))
print(g.uniform([2], minval=1.0, maxval=2.0), g.state.numpy())
print(g.uniform_full_int([2], dtype=tf.int64))
tf.random.set_seed(7)


@tf.function
def draw():
    return tf.random.uniform([2]), tf.random.normal([2], seed=5)


print(draw())
print(draw())
