import numpy as np
import tensorflow as tf


def show(fn):
    try:
        print(fn())
    except Exception as e:  # TF's device prefix, NodeDef line and op suffix are left out
        text = str(e).split(" [Op:")[0].split("}} ")[-1].splitlines()[0]
        print(f"{type(e).__name__}: {text}")


values = [tf.constant(1, tf.int8), tf.constant(2, tf.uint16), tf.constant(3.5, tf.float16),
          tf.constant(-0.25, tf.float64), tf.constant(True), tf.constant(b"bytes"),
          tf.constant(1 + 2j), tf.constant(7, tf.int64), tf.constant(1.5, tf.bfloat16)]
print(values)
for t in values:
    print(f"{t}", str(t.dtype), repr(t.numpy()))
print(f"loss={tf.constant(0.125):}", f"{tf.constant([1.0, 2.0])}")
print("step %s" % tf.constant(3))
print("{} and {}".format(tf.constant([1, 2]), tf.constant("s")))
print(f"{float(tf.constant(2.5)):.3f}", f"{int(tf.constant(7)):04d}")
print(f"{tf.constant(2.5).numpy():.2f}")
v = tf.Variable([[1, 2], [3, 4]], name="kernel")
print(v)
print(repr(v))
print(str(v))
print([v])
print(f"{v.name} {v.shape} {v.dtype}")
print(tf.Variable(3.0, dtype=tf.float64))
print(tf.Variable(["a", "bc"]))
print(tf.Variable(True, trainable=False).trainable)
print(v.numpy().tolist(), v.value())
print(np.array(v) * 2)
print(tf.constant([[1.5, -2.25], [1e-5, 3.0]]))
print(tf.constant([1e10, 1.0]))
print(tf.constant([0.1, 0.2], tf.float64) + 0.1)
print(tf.constant([np.nan, np.inf, -np.inf]))
print(tf.zeros([2, 0]), tf.ones([0], tf.int32))
print(repr(tf.constant([["x", "yy"]])))

a = tf.constant([1, 2, 3])
show(lambda: a + tf.constant([1, 2]))
show(lambda: tf.ones([2, 3]) * tf.ones([3, 2]))
show(lambda: tf.matmul(tf.ones([2, 3]), tf.ones([2, 3])))
show(lambda: tf.matmul(tf.ones([2, 3, 4]), tf.ones([3, 4, 5])))
show(lambda: a + tf.constant([1.0, 2.0, 3.0]))
show(lambda: tf.constant(1.0) + tf.constant(1, tf.int64))
show(lambda: tf.add(tf.constant(1, tf.int32), tf.constant(1, tf.int64)))
show(lambda: a * 1.5)
show(lambda: tf.gather(a, [3]))
show(lambda: tf.gather(tf.ones([2, 2]), [[0], [-1]]))
show(lambda: tf.gather(a, [0], axis=2))
show(lambda: a[5])
show(lambda: tf.reshape(a, [2, 2]))
show(lambda: tf.reshape(a, [-1, -1]))
show(lambda: tf.concat([tf.ones([2, 2]), tf.ones([3, 3])], axis=0))
show(lambda: tf.concat([tf.ones([2]), tf.ones([2], tf.int32)], axis=0))
show(lambda: tf.stack([tf.ones([2]), tf.ones([3])]))
show(lambda: tf.cast("1", tf.int32))
show(lambda: tf.constant([1, "a"]))
show(lambda: tf.constant([[1, 2], [3]]))
show(lambda: tf.reduce_sum(a, axis=1))
show(lambda: tf.transpose(tf.ones([2, 3]), [0, 0]))
show(lambda: tf.squeeze(tf.ones([2, 3]), axis=0))
show(lambda: tf.split(tf.range(5), 2))
show(lambda: tf.Variable(1.0).assign([1.0, 2.0]))
show(lambda: tf.Variable(1).assign(1.5))
show(lambda: tf.math.log(a))
show(lambda: tf.strings.length(a))
show(lambda: tf.ones([2]) @ tf.ones([2]))
show(lambda: tf.range(1, 5, 0))
show(lambda: tf.one_hot([1], 2)[0, 5])
