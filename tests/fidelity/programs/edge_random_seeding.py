import numpy as np
import tensorflow as tf


def show(label, value):
    value = tf.convert_to_tensor(value)
    array = value.numpy()
    if value.dtype.is_floating:
        array = np.round(array.astype(np.float64), 4)
    print(label, value.dtype.name, array.tolist())


# global and op seeds, eagerly: the same sequence after set_seed again
tf.random.set_seed(42)
show("uniform", tf.random.uniform([3]))
show("uniform again", tf.random.uniform([3]))
show("normal op seed", tf.random.normal([2], seed=7))
show("normal op seed again", tf.random.normal([2], seed=7))
tf.random.set_seed(42)
show("uniform after set_seed", tf.random.uniform([3]))
show("int32", tf.random.uniform([4], 0, 10, dtype=tf.int32))
show("int64", tf.random.uniform([2], 0, 2 ** 40, dtype=tf.int64))
show("truncated_normal", tf.random.truncated_normal([3], seed=1))
show("shuffle", tf.random.shuffle(tf.range(6), seed=3))
show("categorical", tf.random.categorical(tf.math.log([[0.5, 0.5], [0.1, 0.9]]), 5, seed=2))
show("gamma", tf.random.gamma([3], 2.0, seed=4))
show("poisson", tf.random.poisson([3], 4.0, seed=4))
show("float64", tf.random.uniform([2], dtype=tf.float64, seed=5))
show("normal with a mean per element", tf.random.normal([2], mean=[0.0, 10.0], seed=3))
show("dropout", tf.nn.dropout(tf.ones([6]), 0.5, seed=1))

# stateless ops
seed = [1, 2]
show("stateless_uniform", tf.random.stateless_uniform([3], seed=seed))
show("stateless_normal", tf.random.stateless_normal([3], seed=seed))
show("stateless_truncated_normal", tf.random.stateless_truncated_normal([3], seed=seed))
show("stateless int", tf.random.stateless_uniform([3], seed=seed, minval=0, maxval=100,
                                                  dtype=tf.int32))
show("stateless full int", tf.random.stateless_uniform([3], seed=seed, minval=None,
                                                       maxval=None, dtype=tf.int32))
show("stateless_categorical", tf.random.stateless_categorical([[0.0, 1.0]], 4, seed=seed))
show("stateless_binomial", tf.random.stateless_binomial([3], seed=seed, counts=10.0, probs=0.3))
show("stateless_poisson", tf.random.stateless_poisson([3], seed=seed, lam=3.0))
show("stateless_gamma", tf.random.stateless_gamma([3], seed=seed, alpha=2.0))
show("stateless_shuffle", tf.random.experimental.stateless_shuffle(tf.range(6), seed=seed))
show("stateless_fold_in", tf.random.experimental.stateless_fold_in(seed, 3))
show("stateless_split", tf.random.experimental.stateless_split(seed, 2))

# generators
g = tf.random.Generator.from_seed(1)
show("generator uniform", g.uniform([3]))
show("generator normal", g.normal([3]))
show("generator int", g.uniform([3], 0, 10, dtype=tf.int32))
show("generator truncated_normal", g.truncated_normal([3]))
show("generator full int", g.uniform_full_int([2], dtype=tf.int64))
show("generator binomial", g.binomial([3], counts=5.0, probs=0.5))
for i, child in enumerate(g.split(2)):
    show(f"generator split {i}", child.normal([2]))
show("generator state", tf.random.Generator.from_seed(5).state)
traced_generator = tf.random.Generator.from_seed(9)


@tf.function
def from_generator():
    return traced_generator.normal([2])


show("generator in tf.function", from_generator())
show("generator in tf.function again", from_generator())

# ops in tf.function draw fresh numbers on each call; set_seed restarts them
tf.random.set_seed(3)


@tf.function
def draws():
    return tf.random.uniform([2]), tf.random.uniform([2], seed=1)


show("function first call", draws())
show("function second call", draws())
tf.random.set_seed(3)
show("function after set_seed", draws())
show("eager after the function", tf.random.uniform([2]))
