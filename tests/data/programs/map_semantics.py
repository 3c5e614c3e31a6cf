# How functions given to map, filter and reduce run: traced once, then per element.
import re
import sys

import numpy as np
import tensorflow as tf


def double(x):
    print("tracing with", x)
    tf.print("element", x, output_stream=sys.stdout)
    return x * 2


ds = tf.data.Dataset.range(3).map(double)
print(ds.element_spec)
print(list(ds.as_numpy_iterator()))
print(list(ds.as_numpy_iterator()))


def branchy(x):
    if x % 2 == 0:
        return x // 2
    else:
        return 3 * x + 1


print(list(tf.data.Dataset.range(6).map(branchy).as_numpy_iterator()))


def loop(x):
    total = tf.constant(0, tf.int64)
    for i in tf.range(x):
        total += i
    return total


print(list(tf.data.Dataset.range(6).map(loop).as_numpy_iterator()))
features = tf.data.Dataset.from_tensor_slices({"x": [1.0, 2.0], "y": [3, 4]})
print(features.map(lambda d: d["x"] * tf.cast(d["y"], tf.float32)).element_spec)
print(list(features.map(lambda d: {"sum": d["x"] + 1.0, **d}).as_numpy_iterator()))
print(tf.data.Dataset.range(4).map(lambda x: tf.ones([x])).element_spec)
print(tf.data.Dataset.range(4).batch(2).map(lambda x: tf.reduce_sum(x)).element_spec)
print(tf.data.Dataset.range(4).map(lambda x: (x, [x, x])).element_spec)
print(tf.data.Dataset.range(4).map(lambda x: 1.0).element_spec)


def bad_predicate(x):
    return x


for build in [lambda: tf.data.Dataset.range(3).filter(bad_predicate),
              lambda: tf.data.Dataset.range(3).map(lambda x: x + undefined_name),
              lambda: tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(3).map(
                  lambda x: tf.cast(x, tf.int32))),
              lambda: tf.data.Dataset.range(3).batch(0),
              lambda: list(tf.data.Dataset.from_tensor_slices([1.0, 0.0]).map(
                  lambda x: tf.debugging.check_numerics(1.0 / x, "bad value")))]:
    try:
        build()
    except Exception as e:
        last = re.sub(r"\{\{function_node [^}]*\}\} ", "", str(e).strip().splitlines()[-1])
        print(type(e).__name__, last.split(" [[")[0].split(" [Op:")[0].strip()[:160])

v = tf.Variable(10, dtype=tf.int64)
ds = tf.data.Dataset.range(3).map(lambda x: x + v)
print(list(ds.as_numpy_iterator()))
v.assign(20)
print(list(ds.as_numpy_iterator()))
print(tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x))
print(tf.data.Dataset.range(5).map(lambda x: (x, 2 * x)).reduce(
    (np.int64(0), np.int64(1)), lambda s, x: (s[0] + x[0], s[1] + x[1])))
print(tf.data.Dataset.range(1, 4).reduce(tf.zeros([0], tf.int64),
                                          lambda s, x: tf.concat([s, [x]], 0)))
