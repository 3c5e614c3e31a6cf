import tensorflow as tf
import numpy as np

for d in [tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int8, tf.int16, tf.int32, tf.int64,
          tf.uint8, tf.uint16, tf.uint32, tf.uint64, tf.bool, tf.complex64, tf.complex128, tf.string]:
    print(repr(d), str(d), d.name, d.size, d.is_floating, d.is_integer, d.is_complex,
          d.is_unsigned, d.is_bool, d.is_numpy_compatible, d.as_datatype_enum, d.real_dtype)
print(tf.float32.min, tf.float32.max, tf.int8.min, tf.uint16.max, tf.float16.max)
print(tf.int32.limits, tf.uint8.limits, tf.bool.limits)
print(tf.as_dtype("float32"), tf.as_dtype(np.int64), tf.as_dtype(np.dtype("bool")), tf.as_dtype(float))
print(tf.as_dtype("half"), tf.as_dtype("double"), tf.as_dtype(bool), tf.as_dtype(7))
print(tf.float32 == "float32", tf.float32 == np.float32, tf.float32 == tf.float64, tf.float32 != tf.int32)
print(tf.float32.as_numpy_dtype, tf.string.as_numpy_dtype, tf.bool.as_numpy_dtype)
print(tf.float32.is_compatible_with(tf.float32), tf.int32.is_compatible_with(tf.int64))
print(tf.dtypes.float32 is tf.float32, tf.dtypes.as_dtype("int8") is tf.int8)
print(tf.float64.base_dtype, tf.complex128.real_dtype)
print({tf.float32: 1}[tf.float32], hash(tf.float32) == hash(tf.float32))
spec = tf.TensorSpec([None, 3], tf.float32)
print(spec)
print(repr(spec), spec.shape, spec.dtype, spec.name)
print(tf.TensorSpec(shape=(2,), dtype=tf.int64, name="x"))
print(tf.TensorSpec([]), tf.TensorSpec(None, tf.string))
print(spec.is_compatible_with(tf.zeros([5, 3])), spec.is_compatible_with(tf.zeros([5, 4])))
print(spec.is_compatible_with(tf.TensorSpec([2, 3])), spec == tf.TensorSpec([None, 3]))
print(tf.TensorSpec.from_tensor(tf.constant([1, 2])))
print(tf.TensorSpec.from_tensor(tf.constant([1, 2]), name="t"))
print(tf.TensorSpec([1], tf.float32) == tf.TensorSpec([1], tf.float64))

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.as_dtype("float33"))
show(lambda: tf.as_dtype(int))
show(lambda: tf.as_dtype(None))
show(lambda: tf.as_dtype(str))
show(lambda: tf.as_dtype(bytes))
show(lambda: tf.as_dtype(np.str_))
show(lambda: tf.as_dtype(object))
show(lambda: tf.string.max)
show(lambda: tf.bool.min)
show(lambda: tf.complex64.max)
show(lambda: tf.float16.limits)
show(lambda: tf.TensorSpec([1], "nope"))
