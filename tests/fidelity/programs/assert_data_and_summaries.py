import numpy as np
import tensorflow as tf

# TF 1's assertions show their `data` (with the message first, where they take it)
# in place of their own text; graphs' Assert ops summarize each item as TF's kernel does.
x = tf.range(10.0)


def show(fn):
    try:
        print("passed", fn())
    except Exception as e:
        text = str(e)
        if "assertion failed" in text:  # (a graph's error: its node names are our own)
            text = "assertion failed" + text.split("assertion failed")[1].split("\n\t")[0]
        elif "in user code" in text:  # (raised while tracing: the frames are the file's)
            text = text.split("Error: ", 1)[1]
        print(type(e).__name__, repr(text))


show(lambda: tf.compat.v1.assert_equal(x, x + 1, data=[x]))
show(lambda: tf.compat.v1.assert_equal(x, x + 1, data=[x, "s"], summarize=2, message="mm"))
show(lambda: tf.compat.v1.assert_equal(x, x + 1, data=[], message="m"))
show(lambda: tf.compat.v1.assert_equal(x, x, data=[x]))
show(lambda: tf.compat.v1.assert_less(x, x, data=[x], summarize=0))
show(lambda: tf.compat.v1.assert_none_equal(x, x, data=[x > 1, tf.constant(5.0)]))
show(lambda: tf.compat.v1.assert_non_positive(x, data=[x], message="dropped", summarize=1))
show(lambda: tf.compat.v1.assert_near(x, x + 1, data=[x], summarize=2, message="dropped"))
show(lambda: tf.compat.v1.assert_equal(x, x + 1, data=[
    tf.constant(True), tf.constant(["a", "é"]), np.array([1, 2]), [1, 2], tf.zeros([0]),
    tf.constant([1.5, 2.25], tf.float16), tf.cast(x[:2], tf.float64) / 3]))

# assert_near needs a float or complex dtype (NumPy's finfo), as TF's does
show(lambda: tf.debugging.assert_near(tf.constant([1]), tf.constant([1])))
show(lambda: tf.debugging.assert_near(tf.constant([1]), tf.constant([1]), rtol=1, atol=1))
show(lambda: tf.debugging.assert_near(tf.constant([1 + 1j]), tf.constant([1 + 1j])))


@tf.function
def in_graph(a):
    tf.compat.v1.assert_equal(a, a + 1, data=[a, "hey"], summarize=2, message="mm")
    return a


show(lambda: in_graph(x))


@tf.function
def sign_in_graph(a):
    tf.compat.v1.assert_positive(-a, data=[a, "hey"], message="dropped")
    return a


show(lambda: sign_in_graph(x))


@tf.function
def known_while_tracing():
    tf.compat.v1.assert_equal(tf.constant(1), tf.constant(2), data=[tf.constant([1, 2]), "s"])
    return 1


show(known_while_tracing)

for summarize in (None, 2, 5, 20, -1, 0):
    @tf.function
    def summaries(a):
        tf.debugging.Assert(False, [a, a * 1.5, tf.reshape(a, [2, 5]), "s"],
                            summarize=summarize)
        return a
    show(lambda: summaries(x))


@tf.function
def dtypes(a):
    tf.debugging.Assert(False, [a > 1, tf.cast(a, tf.float16) / 3, tf.cast(a, tf.float64) / 3,
                                tf.constant(["é\n", "b'q"]), tf.complex(a, a), tf.zeros([0, 2]),
                                tf.constant(1e20), tf.constant(np.nan)], summarize=4)
    return a


show(lambda: dtypes(tf.range(3.0)))
