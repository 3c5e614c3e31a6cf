import tensorflow as tf
import numpy as np

t = tf.constant([1, 2])
v = tf.Variable([1.5, 2.5])
print(tf.convert_to_tensor([t, t]))
print(tf.convert_to_tensor([t, [3, 4]]))
print(tf.convert_to_tensor([tf.constant(1.0), 2]))
print(tf.convert_to_tensor([tf.constant(1), np.float32(2.5)]))
print(tf.convert_to_tensor([tf.constant(1), 2], dtype=tf.float32))
print(tf.convert_to_tensor([[tf.constant(1)], [2]]))
print(tf.convert_to_tensor([v, v]))
print(tf.constant(v), tf.constant(v, dtype=tf.int32))
print(tf.constant(t, shape=[2, 1]), tf.constant(t, dtype=tf.int32))
print(tf.convert_to_tensor(range(3)), tf.convert_to_tensor(range(0)))
print(tf.convert_to_tensor(tf.TensorShape([1, 2])), tf.convert_to_tensor(tf.TensorShape([])))
print(tf.reshape([1, 2, 3, 4], tf.TensorShape([2, 2])))
print(tf.zeros(tf.TensorShape([2])), tf.zeros(tf.shape(t)))
print(tf.constant(3.4e38), tf.constant(1e40, dtype=tf.float32), tf.constant(1e40, dtype=tf.float64))
print(tf.constant(float("inf")), tf.constant([float("-inf")]), tf.constant(1e-50))
print(tf.constant(70000.0, dtype=tf.float16), tf.constant(np.array([1e40]), dtype=tf.float32))
print(tf.constant(["é", b"\xff"]))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.constant(t, dtype=tf.float32))
show(lambda: tf.convert_to_tensor([1.0, tf.constant(2)]))
show(lambda: tf.convert_to_tensor([tf.constant(1), tf.constant(2.0)]))
show(lambda: tf.convert_to_tensor([tf.constant([1, 2]), [3]]))
show(lambda: tf.convert_to_tensor(tf.TensorShape([1, None])))
show(lambda: tf.convert_to_tensor(tf.TensorShape(None)))
show(lambda: tf.constant(1e40))
show(lambda: tf.constant([1, -1e39]))
show(lambda: tf.Variable(1e40))
show(lambda: tf.stack([1.0, tf.constant(2)]))
