"""A function called from another traced function is one call op naming its body, as in TF.

Values are TF 2.21's for the same programs.
"""
import re

import numpy as np
import pytest

import eagerflow as tf


def _calls(graph):
    return [op for op in graph.get_operations() if op.type.endswith("PartitionedCall")]


def test_a_nested_call_is_a_call_op_whose_body_is_in_the_library_and_the_graph_def():
    v = tf.Variable(2.0)

    @tf.function
    def reads(x):
        return x * x * v

    @tf.function
    def pure(x):
        return x * 3.0

    @tf.function
    def outer(x):
        return reads(x) + pure(x)

    assert outer(tf.constant(3.0)).numpy() == 27.0
    graph = outer.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    calls = _calls(graph)
    # a body reading a variable makes the stateful call, taking the variable's handle
    assert [op.type for op in calls] == ["StatefulPartitionedCall", "PartitionedCall"]
    assert [op.name for op in calls] == ["StatefulPartitionedCall", "PartitionedCall"]
    assert calls[0].inputs[1] is v
    assert "Mul" not in [op.type for op in graph.get_operations()]
    names = [op.get_attr("f").name for op in calls]
    assert names[0].startswith("__inference_reads_") and names[1].startswith("__inference_pure_")
    assert all(name in graph.functions for name in names)

    gd = graph.as_graph_def()
    nodes = {n.name: n for n in gd.node}
    assert nodes["StatefulPartitionedCall"].attr["f"].func.name == names[0]
    assert [t for t in nodes["StatefulPartitionedCall"].attr["Tin"].list.type] == [
        tf.float32.as_datatype_enum, tf.resource.as_datatype_enum]
    library = {f.signature.name: f for f in gd.library.function}
    assert sorted(library) == sorted(names)
    assert [a.type for a in library[names[0]].signature.input_arg] == [
        tf.float32.as_datatype_enum, tf.resource.as_datatype_enum]


def test_each_call_of_one_function_names_one_body_and_traces_once():
    traces = []

    @tf.function
    def inner(x):
        traces.append(1)
        return tf.tanh(x)

    @tf.function
    def outer(x):
        return inner(x) + inner(-x) + inner(x * 2.0)

    x = tf.constant([0.5, -1.0])
    np.testing.assert_allclose(outer(x).numpy(), np.tanh(2 * x.numpy()), rtol=1e-6)
    outer(tf.constant([1.0, 2.0]))
    assert len(traces) == 1 and inner.experimental_get_tracing_count() == 1
    calls = _calls(outer.get_concrete_function(x).graph)
    assert len(calls) == 3 and len({op.get_attr("f").name for op in calls}) == 1
    outer(tf.constant([1.0, 2.0, 3.0]))  # a new shape: both retrace, as in TF
    assert inner.experimental_get_tracing_count() == 2


def test_gradients_through_nested_calls_with_tapes_inside_and_outside():
    v = tf.Variable(2.0)
    w = tf.Variable([1.0, -1.0])

    @tf.function
    def inner(x, var):
        var.assign_add(tf.ones_like(var))
        return tf.reduce_sum(x * x * var) * v

    @tf.function
    def outer(x):
        with tf.GradientTape(persistent=True) as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = inner(x, w)
            g = t1.gradient(y, [x, w, v])
        return y, g, t2.gradient(g[0], x), t2.gradient(g[0], w)

    y, (gx, gw, gv), gxx, gxw = outer(tf.constant([1.0, 2.0]))
    assert y.numpy() == 4.0 and gv.numpy() == 2.0
    np.testing.assert_allclose(gx.numpy(), [8.0, 0.0])
    np.testing.assert_allclose(gw.numpy(), [2.0, 8.0])
    np.testing.assert_allclose(gxx.numpy(), [8.0, 0.0])
    np.testing.assert_allclose(gxw.numpy(), [4.0, 8.0])
    np.testing.assert_allclose(w.numpy(), [2.0, 0.0])  # updated once, not by the gradient
    graph = outer.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    forward = [op for op in _calls(graph) if op.get_attr("f").name.startswith("__forward_inner_")]
    assert len(forward) == 1 and forward[0].type == "StatefulPartitionedCall"

    # another variable of the same spec: no new trace, the call updates it
    w2 = tf.Variable([5.0, 5.0])

    @tf.function
    def outer2(x):
        return inner(x, w2)

    assert outer2(tf.constant([1.0, 1.0])).numpy() == 24.0
    np.testing.assert_allclose(w2.numpy(), [6.0, 6.0])
    assert inner.experimental_get_tracing_count() == 1
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = outer2(x)
    gx, gw, gv = tape.gradient(y, [x, w2, v])
    np.testing.assert_allclose(gx.numpy(), [28.0, 56.0])
    np.testing.assert_allclose(gw.numpy(), [2.0, 8.0])
    assert gv.numpy() == 35.0


def test_a_function_closing_over_a_tensor_of_the_caller_takes_it_as_an_input():
    @tf.function
    def outer(x):
        s = x * 2.0

        @tf.function
        def f(y):
            return y * s

        with tf.GradientTape() as tape:
            tape.watch(x)
            r = f(x)
        return r, tape.gradient(r, x)

    r, g = outer(tf.constant(3.0))
    assert r.numpy() == 18.0 and g.numpy() == 6.0
    calls = _calls(outer.get_concrete_function(tf.constant(3.0)).graph)
    assert calls[0].inputs[1].op.type == "Mul"  # s
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        r = outer(x)[0]
    np.testing.assert_allclose(tape.gradient(r, x).numpy(), [4.0, 8.0])


def test_control_flow_in_a_function_called_with_different_variables_uses_each():
    """A branch and a loop body of the callee reach the variable argument of each call (they
    used to reach the one the callee was traced with)."""
    a, b = tf.Variable(1.0), tf.Variable(10.0)

    @tf.function
    def bump(x, var):
        return tf.cond(x > 0, lambda: var.assign_add(1.0) * 1.0, lambda: var * 1.0)

    @tf.function
    def bumps(x):
        return bump(x, a) + bump(x, b)

    assert bumps(tf.constant(1.0)).numpy() == 13.0
    assert (a.numpy(), b.numpy()) == (2.0, 11.0)
    assert bump(tf.constant(1.0), b).numpy() == 12.0 and (a.numpy(), b.numpy()) == (2.0, 12.0)

    @tf.function
    def inner(x, var):
        r = tf.cond(x > 0, lambda: var * x, lambda: var * 2.0)
        _, s = tf.while_loop(lambda i, s: i < 2, lambda i, s: (i + 1, s * var), (0, r))
        return s

    @tf.function
    def outer(x):
        return inner(x, a) + inner(x, b) * 2.0

    a.assign(1.0)
    b.assign(10.0)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = outer(x)
    assert y.numpy() == 6003.0
    assert [g.numpy() for g in tape.gradient(y, [x, a, b])] == [2001.0, 9.0, 1800.0]

    @tf.function
    def inside(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = outer(x)
        return y, tape.gradient(y, [x, a, b])

    y, grads = inside(tf.constant(-1.0))
    assert y.numpy() == 4002.0 and [g.numpy() for g in grads] == [0.0, 6.0, 1200.0]


def test_a_nested_function_makes_its_variable_from_the_outer_input_on_the_first_call_only():
    made = []

    @tf.function
    def inner(x):
        if not made:
            made.append(tf.Variable(x * 2))
        return made[0] + 1

    @tf.function
    def outer(x):
        return inner(x)

    # TF 2.21: the first call assigns 2.0; the second reads it (no new initial value)
    assert outer(tf.constant(1.0)).numpy() == 3.0
    assert outer(tf.constant(5.0)).numpy() == 3.0
    assert made[0].numpy() == 2.0
    assert (inner.experimental_get_tracing_count(), outer.experimental_get_tracing_count()) \
        == (2, 1)


def test_a_method_making_its_variable_from_an_input_three_functions_deep():
    class M(tf.Module):
        v = None

        @tf.function
        def inner(self, x):
            if self.v is None:
                self.v = tf.Variable(x + 1.0)
            return self.v * 2.0

    m = M()
    middle = tf.function(lambda x: m.inner(x) + 1.0)
    outer = tf.function(lambda x: middle(x) * 10.0)
    assert outer(tf.constant(1.0)).numpy() == 50.0
    assert outer(tf.constant(7.0)).numpy() == 50.0
    assert m.inner(tf.constant(9.0)).numpy() == 4.0
    assert m.v.numpy() == 2.0


def test_a_nested_function_making_a_variable_on_every_trace_fails_in_user_code():
    @tf.function
    def inner(x):
        v = tf.Variable(x)
        return v + 1

    @tf.function
    def outer(x):
        return inner(x)

    with pytest.raises(ValueError) as info:
        outer(tf.constant(1.0))
    text = str(info.value)
    # TF's framing names the outer call's line and then the inner creation's
    assert text.startswith("in user code:")
    assert text.index("in outer") < text.index("in inner") < text.index(
        "ValueError: tf.function only supports singleton tf.Variables created on the first "
        "call.")


def test_a_nested_function_making_variables_on_a_later_trace_fails():
    made = []

    @tf.function
    def inner(x):
        if x.shape.rank == 1:
            made.append(tf.Variable(x))
        return x + 1

    @tf.function
    def outer(x):
        return inner(x)

    assert outer(tf.constant(1.0)).numpy() == 2.0
    with pytest.raises(ValueError, match="Creating variables on a non-first call to a "
                                         "function decorated with tf.function."):
        outer(tf.constant([1.0]))


def test_a_concrete_function_is_named_as_tf_names_its_body_everywhere():
    @tf.function
    def f(x):
        return tf.gather(x, 3)

    cf = f.get_concrete_function(tf.TensorSpec([2]))
    other = f.get_concrete_function(tf.TensorSpec([3]))
    assert isinstance(cf.name, bytes) and re.fullmatch(rb"__inference_f_\d+", cf.name)
    assert cf.name != other.name
    assert cf.graph.name == "f"
    assert cf.function_def.signature.name.encode() == cf.name

    @tf.function
    def outer(x):
        return f(x) * 2.0

    call, = _calls(outer.get_concrete_function(tf.TensorSpec([2])).graph)
    assert call.get_attr("f").name.encode() == cf.name
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        cf(tf.constant([1, 2]))
    assert str(info.value).endswith(f"[Op:{cf.name.decode()}]")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        cf(tf.constant([1.0, 2.0]))
    assert str(info.value).endswith(f"[Op:{cf.name.decode()}]")
