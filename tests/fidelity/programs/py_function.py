# tf.py_function and tf.numpy_function: eagerly, in functions, in dataset maps, under tapes,
# with their errors (the traceback TF appends to a message is left out).
import re

import numpy as np
import tensorflow as tf


def show(label, f):
    try:
        print(label, f())
    except Exception as e:
        text = re.sub(r"\{\{function_node [^}]*\}\} ", "", str(e))
        text = re.sub(r"pyfunc_\d+", "pyfunc_N", text).split("\nTraceback")[0]
        lines = [l for l in text.splitlines() if l.strip() and not l.startswith(
            ("Graph execution error", "Detected at node", "  File "))]
        print(label, type(e).__name__, lines[0].split(" [Op:")[0].rstrip())


x = tf.constant([1.0, 2.0])
show("eager", lambda: tf.py_function(lambda a: a * 2, [x], tf.float32))
show("eager list", lambda: tf.py_function(lambda a: a * 2, [x], [tf.float32]))
show("eager tuple", lambda: tf.py_function(lambda a: (a, a + 1), [x], (tf.float32, tf.float32)))
show("eager none", lambda: tf.py_function(lambda a: None, [x], []))
show("python number", lambda: tf.py_function(lambda a: 3, [x], tf.float32))
show("numpy", lambda: tf.numpy_function(lambda a: np.sinh(a), [x], tf.float32))
show("numpy as is", lambda: tf.numpy_function(lambda a: np.int32(1), [x], tf.float32))
show("numpy none", lambda: tf.numpy_function(lambda a: None, [x], []))
show("numpy strings", lambda: tf.numpy_function(lambda s: s, [tf.constant(["ab"])], tf.string))
show("strings", lambda: tf.py_function(lambda s: tf.strings.upper(s), ["ab"], tf.string))
show("variable", lambda: tf.py_function(lambda a: a * 2, [tf.Variable(2.0)], tf.float32))
show("v1", lambda: tf.compat.v1.py_func(lambda a: a + 1, [np.float32(1)], tf.float32))
show("sparse", lambda: tf.sparse.to_dense(tf.py_function(
    lambda s: s.with_values(s.values * 2), [tf.SparseTensor([[0, 1]], [3.0], [2, 2])],
    tf.SparseTensorSpec([2, 2], tf.float32))))


@tf.function
def traced(v):
    y = tf.py_function(lambda a: a * 2, [v], tf.float32)
    z = tf.numpy_function(lambda a: a + 1, [v], tf.float32)
    w = tf.numpy_function(lambda a: a - 1, [v], tf.float32, stateful=False)
    print("static", y.shape, z.shape, y.op.type, z.op.type, w.op.type)
    return y, z, w


show("function", lambda: traced(x))


def fail(exc):
    def f(a):
        raise exc
    return f


for exc in [ValueError("boom"), TypeError("t"), StopIteration(), NotImplementedError("n"),
            MemoryError("m"), KeyError("k"), RuntimeError("r")]:
    name = type(exc).__name__
    show("eager py " + name, lambda: tf.py_function(fail(exc), [x], tf.float32))
    show("graph py " + name, lambda: tf.function(
        lambda v: tf.py_function(fail(exc), [v], tf.float32))(x))
    show("graph np " + name, lambda: tf.function(
        lambda v: tf.numpy_function(fail(exc), [v], tf.float32))(x))
show("eager np ValueError", lambda: tf.numpy_function(fail(ValueError("boom")), [x], tf.float32))
show("wrong dtype", lambda: tf.py_function(lambda a: tf.constant(1), [x], tf.float32))
show("wrong count", lambda: tf.py_function(lambda a: a, [x], [tf.float32, tf.float32]))
show("graph wrong dtype", lambda: tf.function(
    lambda v: tf.numpy_function(lambda a: 3.0, [v], tf.float32))(x))
show("graph wrong count", lambda: tf.function(
    lambda v: tf.numpy_function(lambda a: (a, a), [v], tf.float32))(x))
show("not callable", lambda: tf.py_function(1, [], tf.float32))
show("no Tout", lambda: tf.py_function(lambda: 1, []))

v = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(v)
    y = tf.py_function(lambda a: a * a, [v], tf.float32)
print("gradient", tape.gradient(y, v))
with tf.GradientTape() as tape:
    tape.watch(v)
    y = tf.py_function(lambda a: tf.constant(1.0), [v], tf.float32)
print("unconnected", tape.gradient(y, v))
with tf.GradientTape() as tape:
    tape.watch(v)
    y = tf.numpy_function(lambda a: a * a, [v], tf.float32)
print("numpy gradient", tape.gradient(y, v))
w = tf.Variable(2.0)
with tf.GradientTape() as tape:
    tape.watch(v)
    p, s = tf.py_function(lambda a, b: (a * b, a + b), [v, w], [tf.float32, tf.float32])
    loss = p + 2 * s
print("two inputs", tape.gradient(loss, [v, w]))


@tf.function
def grad_in_function(a):
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.py_function(lambda t: t * t * t, [a], tf.float32)
    return tape.gradient(y, a)


print("in function", grad_in_function(v))

ds = tf.data.Dataset.range(6).map(
    lambda i: tf.py_function(lambda a: a * 2, [i], tf.int64), num_parallel_calls=3)
print(ds.element_spec, list(ds.as_numpy_iterator()))
ds = tf.data.Dataset.range(3).map(lambda i: tf.numpy_function(lambda a: a + 1, [i], tf.int64))
print(ds.element_spec, list(ds.as_numpy_iterator()))
