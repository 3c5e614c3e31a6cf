import functools
import sys

import numpy as np
import tensorflow as tf

out = sys.stdout


def show(fn, *args, **kwargs):
    try:
        print(fn(*args, **kwargs))
    except Exception as e:  # noqa: BLE001
        print(type(e).__name__, "|", str(e).strip().splitlines()[-1][:200])


# binding errors of input_signature calls
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32)])
def collatz(x):
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


show(collatz, y=tf.constant([1]))
show(collatz, tf.constant([1]), x=tf.constant([2]))
show(collatz, tf.constant([1]), tf.constant([2]))

# tf.print of complex and sparse tensors
tf.print(tf.constant(1 + 2j), tf.constant([1j, 2j]), output_stream=out)
tf.print(tf.zeros((2, 2), tf.complex64), tf.zeros((20,), tf.complex128), output_stream=out)
tf.print(tf.sparse.SparseTensor([[0, 1], [1, 0]], [5.5, 1.0], [2, 2]), output_stream=out)
tf.print("s:", [tf.sparse.SparseTensor([[0, 1]], ["a"], [2, 2])], output_stream=out)
print(tf.strings.format("{}", tf.zeros((3, 2), tf.complex64)))


# ragged constants and symbolic names inside functions
@tf.function
def inside(x):
    r = tf.ragged.constant([[1, 2], [3]])
    print(r.values.dtype, r.row_splits.dtype, r.shape)
    print(tf.zeros([2]), tf.ones([2]), tf.zeros_like(x), tf.ones_like(x))
    return r + 1


print(inside(tf.constant([1.0])))
print(tf.function(lambda x: x).get_concrete_function(tf.TensorSpec(None, tf.int64)))


# NumPy scalars are tensors; decorated functions keep their decorator
@tf.function
def twice(x):
    print("tracing", type(x).__name__ != "float32")
    return x * 2


print(twice(np.float32(1.5)), twice(np.float32(2.5)), twice(np.int64(2)))
print(twice.experimental_get_tracing_count())


def times_ten(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 10
    return wrapper


@tf.function
@times_ten
def plus_one(x):
    return x + 1


print(plus_one(tf.constant(1)))


@tf.function
def to_none(n):
    x = tf.constant(1)
    for _ in tf.range(n):
        x = None
    return x


show(to_none, tf.constant(2))

shape = tf.TensorShape([2, None, 3])
show(shape.assert_is_compatible_with, [1, 2, 3])
print(shape.as_proto().dim[0].size, tf.TensorShape(None).as_proto().unknown_rank)
show(tf.TensorSpec([2]).most_specific_compatible_type, tf.TensorSpec([3]))
