"""Variables passed to a `function`: keyed by dtype, shape and trainability, not identity
(checked against TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


def test_variables_of_one_spec_share_a_trace_and_each_call_reads_its_own():
    @tf.function
    def double(v):
        return v * 2

    assert double(tf.Variable(1)).numpy() == 2
    assert double(tf.Variable(2)).numpy() == 4
    assert double.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("other", [lambda: tf.Variable(1.0), lambda: tf.Variable([1, 2]),
                                   lambda: tf.Variable(3, trainable=False)])
def test_another_dtype_shape_or_trainability_retraces(other):
    @tf.function
    def double(v):
        return v * 2

    double(tf.Variable(1))
    double(tf.Variable(5, name="renamed"))  # the name does not count
    assert double.experimental_get_tracing_count() == 1
    other_variable = other()
    np.testing.assert_array_equal(double(other_variable).numpy(), other_variable.numpy() * 2)
    assert double.experimental_get_tracing_count() == 2


def test_assignment_reaches_the_variable_passed():
    @tf.function
    def bump(v, x):
        v.assign_add(x)
        return v.read_value()

    a, b = tf.Variable(1.0), tf.Variable(10.0)
    assert bump(a, 1.0).numpy() == 2.0
    assert bump(b, 1.0).numpy() == 11.0
    assert (a.numpy(), b.numpy()) == (2.0, 11.0)
    assert bump.experimental_get_tracing_count() == 1


def test_an_assignments_result_is_the_variable_passed():
    @tf.function
    def outer(v):
        @tf.function
        def inner(w):
            return w.assign_add(1.0)
        return inner(v) + 1.0

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    assert outer(a).numpy() == 3.0
    assert outer(b).numpy() == 4.0
    assert (a.numpy(), b.numpy()) == (2.0, 3.0)
    assert outer.experimental_get_tracing_count() == 1


def test_gradient_flows_to_the_variable_passed():
    @tf.function
    def scale(v, x):
        return v * x

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:  # trainable arguments are watched, as in TF
        y = scale(a, 3.0)
    assert tape.gradient(y, a).numpy() == 3.0
    with tf.GradientTape() as tape:
        y = scale(b, 3.0)
    grads = tape.gradient(y, [a, b])
    assert grads[0] is None and grads[1].numpy() == 3.0
    assert scale.experimental_get_tracing_count() == 1


def test_higher_order_gradients_through_a_variable_argument():
    @tf.function
    def weighted(v, x):
        return tf.reduce_sum(v * x)

    weighted(tf.Variable([1.0, 1.0, 1.0]), tf.constant([0.0, 0.0, 0.0]))
    d = tf.Variable([5.0, 5.0, 5.0])
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = weighted(d, tf.constant([1.0, 2.0, 3.0]))
            y = y * y
        g = inner.gradient(y, d)
        s = tf.reduce_sum(g)
    np.testing.assert_array_equal(g.numpy(), [60.0, 120.0, 180.0])
    np.testing.assert_array_equal(outer.gradient(s, d).numpy(), [12.0, 24.0, 36.0])
    assert weighted.experimental_get_tracing_count() == 1


def test_control_flow_reads_the_variable_passed():
    @tf.function
    def pick(v, p):
        if p > 0:
            r = v * 2.0
        else:
            r = v * 3.0
        return r

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    assert pick(a, tf.constant(1)).numpy() == 2.0
    assert pick(b, tf.constant(-1)).numpy() == 6.0
    with tf.GradientTape() as tape:
        y = pick(b, tf.constant(-1))
    grads = tape.gradient(y, [a, b])
    assert grads[0] is None and grads[1].numpy() == 3.0

    @tf.function
    def accumulate(v, n):
        total = tf.zeros_like(v)
        for _ in tf.range(n):
            total += v
            v.assign_add(tf.ones_like(v))
        return total

    c, d = tf.Variable([1.0, 2.0]), tf.Variable([10.0, 20.0])
    np.testing.assert_array_equal(accumulate(c, tf.constant(3)).numpy(), [6.0, 9.0])
    np.testing.assert_array_equal(accumulate(d, tf.constant(2)).numpy(), [21.0, 41.0])
    np.testing.assert_array_equal(d.numpy(), [12.0, 22.0])
    assert pick.experimental_get_tracing_count() == accumulate.experimental_get_tracing_count() == 1


def test_the_same_variable_twice_is_its_own_trace():
    @tf.function
    def add(x, y):
        x.assign_add(1.0)
        return x + y

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    assert add(a, b).numpy() == 4.0
    assert add(b, a).numpy() == 5.0
    assert add.experimental_get_tracing_count() == 1
    assert add(a, a).numpy() == 6.0  # x and y are one variable: the sum sees the increment
    assert add.experimental_get_tracing_count() == 2


def test_variables_in_containers_and_keywords():
    @tf.function
    def first_plus_second(vs):
        return vs[0] + vs[1]

    assert first_plus_second([tf.Variable(1.0), tf.Variable(2.0)]).numpy() == 3.0
    assert first_plus_second([tf.Variable(3.0), tf.Variable(4.0)]).numpy() == 7.0

    @tf.function
    def twice(d, *, k):
        return d["a"] * 2 + k

    assert twice({"a": tf.Variable(1.0)}, k=tf.Variable(0.5)).numpy() == 2.5
    assert twice({"a": tf.Variable(3.0)}, k=tf.Variable(1.0)).numpy() == 7.0
    assert first_plus_second.experimental_get_tracing_count() == 1
    assert twice.experimental_get_tracing_count() == 1


def test_a_modules_variables_are_captured_by_identity():
    class Holder(tf.Module):
        def __init__(self, x):
            self.v = tf.Variable(x)

    @tf.function
    def read(m):
        return m.v * 2

    m1, m2 = Holder(1.0), Holder(2.0)
    assert [read(m).numpy() for m in (m1, m2, m1)] == [2.0, 4.0, 2.0]
    m1.v = tf.Variable(10.0)  # as in TF: the trace for m1 keeps the variable it captured
    assert read(m1).numpy() == 2.0
    assert read.experimental_get_tracing_count() == 2


def test_closure_variables_stay_captured_by_identity():
    c = tf.Variable(1.0)

    @tf.function
    def times(x):
        return c * x

    assert times(2.0).numpy() == 2.0
    c.assign(3.0)
    assert times(2.0).numpy() == 6.0
    assert len(times.get_concrete_function(2.0).captured_inputs) == 1


def test_the_function_sees_the_variable_itself():
    seen = []

    @tf.function
    def probe(v):
        seen.append((v, v.name))
        return v + 1

    first = tf.Variable(1, name="first")
    probe(first)
    probe(tf.Variable(5, name="second"))
    assert len(seen) == 1 and seen[0][0] is first and seen[0][1] == "first:0"


def test_input_signature_reads_a_variable_as_a_tensor():
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def double(x):
        return x * 2

    assert double(tf.Variable(3.0)).numpy() == 6.0
    assert double(tf.Variable(4.0)).numpy() == 8.0
    assert double.experimental_get_tracing_count() == 1


def test_reduce_retracing_relaxes_a_variables_shape():
    @tf.function(reduce_retracing=True)
    def total(v):
        return tf.reduce_sum(v)

    results = [total(tf.Variable(np.arange(n, dtype=np.float32))).numpy() for n in (2, 3, 4)]
    assert results == [1.0, 3.0, 6.0]
    assert total.experimental_get_tracing_count() == 2


def test_concrete_function_of_a_variable():
    @tf.function
    def double(v):
        return v * 2

    cf = double.get_concrete_function(tf.Variable(1))
    spec = "VariableSpec(shape=(), dtype=tf.int32, trainable=True, alias_id=0)"
    assert str(cf) == (f"ConcreteFunction Input Parameters:\n  v (POSITIONAL_OR_KEYWORD): {spec}\n"
                       f"Output Type:\n  TensorSpec(shape=(), dtype=tf.int32, name=None)\n"
                       f"Captures:\n  None")
    assert repr(cf.structured_input_signature) == f"(({spec},), {{}})"
    assert cf.captured_inputs == []
    assert cf(tf.Variable(7)).numpy() == 14
    assert double(tf.Variable(3)).numpy() == 6
    assert double.experimental_get_tracing_count() == 1
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input #0\(zero-based\) was expected to be a resource tensor but "
                             r"is a int32 tensor"):
        cf(tf.constant(3))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Trying to read variable with wrong dtype. Expected int32 got float"):
        cf(tf.Variable(3.0))


def test_retracing_explanation_names_the_variable_specs():
    @tf.function
    def double(v):
        return v * 2

    double(tf.Variable(1))
    double(tf.Variable(1.0))
    assert double.experimental_explain_retracing().splitlines()[1:] == [
        "  1. first call: v=VariableSpec(shape=(), dtype=tf.int32, trainable=True, alias_id=0)",
        "  2. v changed from VariableSpec(shape=(), dtype=tf.int32, trainable=True, alias_id=0) "
        "to VariableSpec(shape=(), dtype=tf.float32, trainable=True, alias_id=0)"]


def test_threads_calling_one_trace_with_their_own_variables(monkeypatch):
    """Each thread's call reads and writes the variable it passed, never another thread's.

    Both calls meet inside the graph (a print that waits for the other thread), so each has
    bound its variable before either writes the second time, and the first to bind goes on
    first.
    """
    import sys
    import threading
    import time

    meet, arrived = threading.Barrier(2, timeout=10), []

    class Rendezvous:
        def write(self, text):
            if "meet" in text:
                arrived.append(threading.current_thread())
                meet.wait()
                if arrived[-1] is threading.current_thread():
                    time.sleep(0.2)  # the thread that bound last lets the other go on first

        def flush(self):
            pass

    @tf.function
    def bump_twice(v):
        v.assign_add(1.0)
        tf.print("meet", output_stream=sys.stdout)
        v.assign_add(1.0)
        return v.read_value()

    monkeypatch.setattr(sys, "stdout", Rendezvous())
    a, b = tf.Variable(0.0), tf.Variable(100.0)
    bump_twice.get_concrete_function(a)  # one trace, before the threads
    results = {}
    threads = [threading.Thread(target=lambda v=v: results.update({id(v): bump_twice(v)}))
               for v in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert (a.numpy(), b.numpy()) == (2.0, 102.0)
    assert results[id(a)].numpy() == 2.0 and results[id(b)].numpy() == 102.0
    assert bump_twice.experimental_get_tracing_count() == 1


def test_a_traced_graph_lists_the_variables_it_reads_but_not_its_arguments():
    v, w = tf.Variable(2.0, name="vv"), tf.Variable(3.0, name="ww")
    made = []

    @tf.function
    def f(x, arg):
        if not made:
            made.append(tf.Variable(1.0, name="made"))
        return x * v + arg + made[0]

    cf = f.get_concrete_function(tf.TensorSpec([]), w)
    # TF 2.21: FuncGraph.variables, a tuple, in the order they were read
    assert [x.name for x in cf.graph.variables] == ["vv:0", "made:0"]
    assert tf.function(lambda x: x + 1).get_concrete_function(1.0).graph.variables == ()
