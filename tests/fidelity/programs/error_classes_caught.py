# Mistakes programs catch: the class TF raises (and its first line) eagerly, while tracing
# and in Keras and tf.data.
import os
import tempfile

import numpy as np
import tensorflow as tf


def show(label, fn):
    try:
        fn()
        print(label, "-> no error")
    except Exception as e:  # noqa: BLE001 (the error is what is printed)
        lines = [line.strip() for line in str(e).strip().splitlines() if line.strip()]
        text = lines[0] if lines else ""
        if text == "in user code:":  # (the error itself is last)
            text = lines[-1].split(f"{type(e).__name__}: ", 1)[-1]
        if text.startswith("{{function_node"):
            text = text.split("}} ", 1)[1]
        text = text.split(" for '{{node")[0]  # (the node TF names)
        print(f"{label} -> {type(e).__name__}: {text[:120]}")


f = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec([None], tf.float32)])
show("get_concrete_function of another spec",
     lambda: f.get_concrete_function(tf.TensorSpec([None], tf.int32)))
ds = tf.data.Dataset.range(5)
show("take(2.0)", lambda: ds.take(2.0))
show("batch('a')", lambda: ds.batch("a"))
print(len(list(ds.prefetch(None))))


@tf.function
def total(x):
    s = 0.0
    for v in x:
        s += v
    return s


show("loop over a scalar", lambda: total(tf.constant(1.0)))
show("truncatediv by zero", lambda: tf.truncatediv(tf.constant([1]), tf.constant([0])))
show("truncatemod by zero", lambda: tf.truncatemod(tf.constant([1]), tf.constant([0])))
show("Dense on a string", lambda: tf.keras.layers.Dense(2, name="d")("abc"))
it = iter(tf.data.Dataset.range(1))
next(it)
try:
    it.get_next()
except tf.errors.OutOfRangeError as e:
    print("get_next at the end:", e.op, e.error_code)
show("assert_non_positive", lambda: tf.debugging.assert_non_positive(tf.constant([1])))
show("InvalidArgumentError('msg')", lambda: tf.errors.InvalidArgumentError("msg"))
show("OpError without a code", lambda: tf.errors.OpError(None, None, "m"))
print(tf.errors.NotFoundError(None, None, "x").experimental_payloads)
x = tf.Variable(2.0)
show("gradient of a tape never entered", lambda: tf.GradientTape().gradient(x, x))
with tf.GradientTape(persistent=True) as tape:
    y = x * 2
show("reset after the block", tape.reset)
show("jacobian unconnected_gradients='foo'",
     lambda: tape.jacobian(y, x, unconnected_gradients="foo", experimental_use_pfor=False))
a = tf.sparse.SparseTensor([[0, 0]], [1.0], [2, 2])
show("sparse.add of other shapes",
     lambda: tf.sparse.add(a, tf.sparse.SparseTensor([[0, 0]], [1.0], [3, 3])))
show("vocabulary file missing", lambda: tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
    "/nonexistent/vocab.txt", tf.string, 0, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1))
show("fill of a float shape, traced", lambda: tf.function(lambda: tf.fill([2.0], 1))())
show("zeros of a negative shape, traced", lambda: tf.function(lambda: tf.zeros([2, -3]))())
show("eye(-1), traced", lambda: tf.function(lambda: tf.eye(-1))())
show("categorical of a vector, traced",
     lambda: tf.function(lambda v: tf.random.categorical(v, 2))(tf.ones([3])))
with tempfile.TemporaryDirectory() as d:
    small = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,),
                                                       kernel_initializer="ones")])
    small.save_weights(os.path.join(d, "w"))
    bigger = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,)),
                                  tf.keras.layers.Dense(1)])
    status = bigger.load_weights(os.path.join(d, "w"))
    print(bigger.layers[0].kernel.numpy().tolist())
    show("assert_consumed", status.assert_consumed)
    with open(os.path.join(d, "g.keras"), "w") as out:
        out.write("garbage")
    show("load_model of garbage", lambda: tf.keras.models.load_model(os.path.join(d, "g.keras")))
