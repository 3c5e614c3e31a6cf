# Elements of every dtype through slicing, batching and printing.
import numpy as np
import tensorflow as tf
for arr in [np.array([True, False]), np.array([1, 2], np.int8), np.array([1, 2], np.uint16), np.array([1.5, 2.5], np.float16),
            np.array([1 + 2j, 3j], np.complex64), np.array([b"a", b"bc"]), np.array(["x", "yz"]), np.array([[1.0, 2.0]], np.float64)]:
    ds = tf.data.Dataset.from_tensor_slices(arr)
    print(ds.element_spec, list(ds.as_numpy_iterator()), [str(e) for e in ds.batch(2)])
ds = tf.data.Dataset.from_tensor_slices(tf.constant([[1, 2], [3, 4]], tf.bfloat16))
print(ds.element_spec, list(ds.as_numpy_iterator()))
print(tf.data.Dataset.from_tensors(tf.constant(["é", "ü"])).element_spec, list(tf.data.Dataset.from_tensors(tf.constant(["é", "ü"])).as_numpy_iterator()))
print(list(tf.data.Dataset.range(3).map(lambda x: tf.strings.as_string(x) + "!").batch(2).as_numpy_iterator()))
print(list(tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.bool)).batch(2).as_numpy_iterator()))
