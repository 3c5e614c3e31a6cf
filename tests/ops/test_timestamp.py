"""tf.timestamp: a float64 clock reading, read again each time a function runs (as in TF)."""
import time

import eagerflow as tf


def test_eager_reading():
    before = time.time()
    t = tf.timestamp()
    assert t.dtype == tf.float64 and t.shape == ()
    assert before <= float(t) <= time.time()
    assert tf.raw_ops.Timestamp().dtype == tf.float64


def test_function_reads_the_clock_each_run():
    @tf.function
    def f():
        return tf.timestamp()

    first = f()
    while time.time() <= float(first):
        pass
    assert float(f()) > float(first)
    ops = [n.op for n in f.get_concrete_function().graph.as_graph_def().node]
    assert "Timestamp" in ops


def test_gradient_through_other_inputs():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.timestamp() * tf.cast(x, tf.float64)
    assert tape.gradient(y, x) is not None
