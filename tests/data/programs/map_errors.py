# Errors of map and filter functions failing on an element: TF's class, the dataset that
# ran the function, and the failing op's message; py_function and numpy_function in maps.
import re

import numpy as np
import tensorflow as tf


def positive(x):
    tf.debugging.assert_positive(x - 1, message="must be pos")
    return x


def parse(a):
    return np.int64(10 // (a - 2)) if a != 2 else np.int64(int("q"))


def show(ds):
    try:
        print([v.tolist() if hasattr(v, "tolist") else v for v in ds.as_numpy_iterator()])
    except Exception as e:
        text = re.sub(r"\{\{function_node [^}]*\}\} ", "", str(e)).split(" [Op:")[0]
        text = re.sub(r"pyfunc_\d+", "pyfunc_N", text)
        first = text.splitlines()[0]
        found = re.match(r"Error in user-defined function passed to (\w+):\d+ transformation "
                         r"with iterator: Iterator::Root::\S+: (.*)", first)
        print(type(e).__name__, *(found.groups() if found else [first]))


r = tf.data.Dataset.range(4)
show(r.map(positive))
show(r.map(positive, num_parallel_calls=2))
show(r.map(lambda x: tf.math.floordiv(tf.constant(1, tf.int32), tf.cast(x, tf.int32))))
show(r.map(lambda x: tf.gather([1, 2], x)))
show(r.filter(lambda x: tf.gather([True, False], x)))
show(r.map(lambda x: tf.debugging.check_numerics(1.0 / tf.cast(x, tf.float32), "bad value")))
show(r.map(lambda x: tf.numpy_function(parse, [x], tf.int64)))
show(r.map(lambda x: tf.py_function(lambda a: a * 2, [x], tf.int64), num_parallel_calls=2))
show(r.map(lambda x: tf.py_function(lambda a: tf.cast(a, tf.int32), [x], tf.int64)))
show(r.map(lambda x: tf.numpy_function(lambda a: a.astype(np.float64), [x], tf.int64)))
show(r.map(lambda x: tf.numpy_function(lambda a: (a, a), [x], tf.int64)))
show(r.map(lambda x: tf.py_function(lambda a: [a, a + 1], [x], [tf.int64, tf.int64])))
show(r.map(lambda x: tf.numpy_function(lambda a: a + 1, [x], tf.int64)).batch(2))


def shaped(x):
    y = tf.py_function(lambda a: tf.fill([2], a), [x], tf.int64)
    print("static shape", y.shape)
    y.set_shape([2])
    return y


ds = r.map(shaped).batch(2)
print(ds.element_spec)
show(ds)
print(r.map(lambda x: tf.numpy_function(np.square, [x], tf.int64)).element_spec)
