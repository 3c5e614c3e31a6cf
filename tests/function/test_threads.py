"""A function called from several threads at once: one trace per signature, and no call
running before the first call has assigned the variables it made."""
import threading

import numpy as np

import eagerflow as tf
from tests.concurrency import in_threads


def _first_trace_waits_for_a_second(body):
    """`body` wrapped so that its first trace waits (a while at most) for a second trace to
    start: one that the first trace lets happen meanwhile runs at once."""
    traces, second = [], threading.Event()

    def traced(*args):
        traces.append(None)
        if len(traces) == 1:
            second.wait(timeout=0.5)
        else:
            second.set()
        return body(*args)
    return traced, traces


def test_threads_calling_a_new_function_at_once_trace_it_once():
    traced, traces = _first_trace_waits_for_a_second(lambda x: x * 2.0 + 1.0)
    f = tf.function(traced)
    results = in_threads(lambda i: float(f(tf.constant(float(i)))), [(i,) for i in range(4)])
    assert results == [1.0, 3.0, 5.0, 7.0]
    assert len(traces) == 1
    assert f.experimental_get_tracing_count() == 1


def test_threads_wait_for_the_first_call_to_initialize_variables_made_from_inputs():
    class Scale(tf.Module):
        def __init__(self):
            self.v = None

        def body(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x))
            return self.v * x

    m = Scale()
    traced, _ = _first_trace_waits_for_a_second(m.body)
    f = tf.function(traced)
    results = in_threads(lambda i: f(tf.constant([float(i)])).numpy().tolist(),
                         [(i,) for i in range(4)])
    assert results == [[0.0], [1.0], [2.0], [3.0]]
    assert len(m.variables) == 1


def test_a_function_with_an_input_signature_traces_once_from_threads():
    traced, traces = _first_trace_waits_for_a_second(lambda x: tf.reduce_sum(x))
    f = tf.function(traced, input_signature=[tf.TensorSpec([None], tf.float32)])
    results = in_threads(lambda i: float(f(tf.ones([i + 1]))), [(i,) for i in range(4)])
    assert results == [1.0, 2.0, 3.0, 4.0]
    assert len(traces) == 1


def test_assign_add_from_threads_lands_every_update():
    counter = tf.Variable(0)
    total = tf.Variable(0.0)

    @tf.function
    def add():
        total.assign_add(1.0)

    def work():
        for _ in range(100):
            counter.assign_add(1)
            add()
    in_threads(work, [()] * 4)
    assert int(counter) == 400
    assert float(total) == 400.0


def test_scatter_updates_from_threads_land_every_update():
    # (each reads the variable and writes it back: other threads' updates in between were
    # lost, [-285, 285, 0, 0] where TF gives [-400, 400, 0, 0])
    v = tf.Variable(tf.zeros([4]))
    w = tf.Variable(tf.zeros([4]))

    def work():
        for _ in range(100):
            v.scatter_add(tf.IndexedSlices(tf.ones([1]), tf.constant([1])))
            v.assign_sub(tf.constant([1.0, 0.0, 0.0, 0.0]))
            v.scatter_mul(tf.IndexedSlices(tf.ones([1]), tf.constant([2])))
            w.scatter_nd_add([[3]], [1.0])
            tf.raw_ops.ResourceScatterAdd(resource=w.handle, indices=[0], updates=[1.0])
    in_threads(work, [()] * 4)
    assert v.numpy().tolist() == [-400.0, 400.0, 0.0, 0.0]
    assert w.numpy().tolist() == [400.0, 0.0, 0.0, 400.0]


def test_tapes_of_other_threads_record_nothing_of_this_one():
    v = tf.Variable(2.0)
    ready, done = threading.Event(), threading.Event()
    seen = {}

    def outer():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(v)
            ready.set()
            done.wait(timeout=5)
        seen["tape"] = tape

    def other():
        ready.wait(timeout=5)
        seen["y"] = v * 5.0
        done.set()
    in_threads(lambda g: g(), [(outer,), (other,)])
    assert seen["tape"].gradient(seen["y"], v) is None
    np.testing.assert_equal(seen["y"].numpy(), 10.0)
