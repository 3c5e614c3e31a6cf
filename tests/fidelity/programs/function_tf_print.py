import sys

import tensorflow as tf

out = sys.stdout
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
tf.print(x, output_stream=out)
tf.print("a", x, "b", sep="|", end="!\n", output_stream=out)
tf.print({"a": x, "b": [1, 2]}, output_stream=out)
tf.print([x, 3, "s"], output_stream=out)
tf.print(tf.range(100), summarize=3, output_stream=out)
tf.print(tf.range(100), output_stream=out)
tf.print(tf.range(10), output_stream=out)
tf.print(tf.range(10), summarize=-1, output_stream=out)
tf.print(tf.reshape(tf.range(60), (3, 4, 5)), summarize=2, output_stream=out)
tf.print(tf.constant("hello"), tf.constant(["a", "b"]), output_stream=out)
tf.print(tf.constant(True), tf.constant([1.5, 2.25e-5, 1e10]), output_stream=out)
tf.print(tf.constant(3.0), 4.0, 5, None, output_stream=out)
tf.print(output_stream=out)
tf.print(tf.constant([], dtype=tf.float32), tf.zeros((2, 0)), output_stream=out)
tf.print(tf.constant(1, dtype=tf.int64), tf.constant(2.5, dtype=tf.float64), output_stream=out)
tf.print(tf.constant([1.0, 2.0, 3.0]) / 3.0, output_stream=out)
tf.print(tf.constant([True, False]), tf.Variable([1.0, 2.0]), output_stream=out)
tf.print((1, x), summarize=-1, output_stream=out)
tf.print("%d items" % 3, "tensor:", tf.constant([1, 2]), sep="\t", output_stream=out)


@tf.function
def traced(v, n):
    tf.print("v =", v, "n =", n, output_stream=out)
    tf.print({"sum": tf.reduce_sum(v), "n": n}, output_stream=out)
    for i in tf.range(n):
        tf.print("step", i, end="; ", output_stream=out)
    tf.print(output_stream=out)
    return v * 2


print(traced(tf.constant([1.5, -2.0]), tf.constant(3)))
print(traced(tf.constant([0.5, 2.0]), 2))
