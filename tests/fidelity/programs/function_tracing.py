import sys

import tensorflow as tf


# Python side effects run while tracing; tf.print runs on every call.
@tf.function
def add(a, b):
    print("Tracing with", a, b)
    tf.print("Executing with", a, b, output_stream=sys.stdout)
    return a + b


print(add(tf.constant(1), tf.constant(2)))
print(add(tf.constant(1.5), tf.constant(2.5)))
print(add(tf.constant(3), tf.constant(4)))
print(add(1, 2))
print(add(1, 2))
print(add(2, 2))
print(add(1.0, 2.0))  # equal to (1, 2): the same trace
print(add.experimental_get_tracing_count())


# Shapes and dtypes retrace; reduce_retracing relaxes the shape.
@tf.function
def double(x):
    print("trace double", x)
    return x * 2


print(double(tf.constant([1.0, 2.0])))
print(double(tf.constant([1.0, 2.0, 3.0])))
print(double(tf.constant([[1.0]])))
print(double.experimental_get_tracing_count())


@tf.function(reduce_retracing=True)
def relaxed(x):
    print("trace relaxed", x)
    return x + 1


for n in (2, 3, 4, 5):
    print(relaxed(tf.ones([n])))
print(relaxed.experimental_get_tracing_count())


# Arguments are bound to the signature: defaults and keywords do not retrace.
@tf.function
def step(x, training=False, *, scale=1):
    print("trace step", training, scale)
    return x * scale


step(tf.constant(1))
step(tf.constant(1), False)
step(tf.constant(1), training=False, scale=1)
step(x=tf.constant(1))
step(tf.constant(1), True)
print(step.experimental_get_tracing_count())
for args, kwargs in (((), {}), ((1, 2, 3), {}), ((1,), {"bad": 2})):
    try:
        step(*args, **kwargs)
    except TypeError as e:
        print("TypeError:", e)


# input_signature: one trace, and TypeError for what does not fit.
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32)])
def next_collatz(x):
    print("Tracing with", x)
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)


print(next_collatz(tf.constant([1, 2])))
print(next_collatz(tf.constant([5, 6, 7])))
for bad in (tf.constant([[1, 2], [3, 4]]), tf.constant([1.0, 2.0])):
    try:
        next_collatz(bad)
    except TypeError as e:
        print("TypeError:", e)
print(next_collatz.experimental_get_tracing_count())
