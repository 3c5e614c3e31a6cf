import sys
import tensorflow as tf
import numpy as np


def p(*args, **kwargs):
    tf.print(*args, output_stream=sys.stdout, **kwargs)
    sys.stdout.flush()


p(tf.constant([1, 2, 3]))
p("x:", tf.constant([1.5, 2.0, -3.25]))
p(tf.constant([[1.5, 2.0], [3.0, 4.0]]))
p(tf.range(10))
p(tf.range(10), summarize=-1)
p(tf.range(10), summarize=2)
p(tf.reshape(tf.range(100), [10, 10]))
p(tf.reshape(tf.range(24), [2, 3, 4]))
p(tf.reshape(tf.range(48), [3, 8, 2]), summarize=1)
p(tf.constant(3.14159), tf.constant(1.0 / 3), tf.constant(1.0 / 3, tf.float64))
p(tf.constant(1e-8), tf.constant(1e10), tf.constant(123456789.0))
p(tf.constant([0.1, 0.25, 100.0, 1e-3]), tf.constant([1e20, 1.0]))
p(tf.constant(np.nan), tf.constant(np.inf), tf.constant(-0.0))
p(tf.constant(0.1, tf.float16), tf.constant(0.1, tf.bfloat16))
p(tf.constant(-7, tf.int8), tf.constant(2**40, tf.int64), tf.constant(65535, tf.uint16))
p(tf.constant("abc"))
p(tf.constant("abc"), tf.constant(["a", "bc"]))
p(tf.constant(["a\nb", 'q"t', "tab\t", "é"]))
p(tf.constant(True), tf.constant([True, False]))
p(tf.zeros([0]), tf.zeros([0, 2]))
p({"b": tf.constant(1), "a": [tf.constant(2.0), "s"]})
p([1, 2], (3, 4.5), None, "plain", np.float32(1.5))
p(tf.constant([1, 2]), sep=", ", end="!\n")
p("a", "b", sep="")
p()
p(tf.Variable([1.0, 2.0]))
p("literal {} braces", tf.constant(1))
p(tf.TensorShape([1, 2]), tf.float32)
print(tf.strings.format("x={} y={}", (tf.constant([1, 2]), tf.constant(3.5))))
print(tf.strings.format("{}", tf.range(10), summarize=2))
print(tf.strings.format("v: {}", [tf.constant("a")]))
print(tf.strings.format("{} and {}", ("a", 1)))
print(tf.strings.format("<>", [1], placeholder="<>"))
tf.print("to stderr")

def show(fn):
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__)

show(lambda: tf.strings.format("{} {}", [tf.constant(1)]))
show(lambda: tf.print(1, output_stream="bogus"))
