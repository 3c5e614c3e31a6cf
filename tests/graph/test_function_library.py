"""Control flow, calls and custom gradients in a traced graph are plain data: registered ops
whose attributes name functions held in the graph's function library."""
import numpy as np

import eagerflow as tf
from tests.internals import registry

# What an attribute may hold: numbers, strings, dtypes, shapes, arrays, tensors (and lists).
_PLAIN = (bool, int, float, str, bytes, np.generic, np.ndarray, tf.DType, tf.TensorShape,
          tf.Tensor, type(None))


def _graph(fn, *specs):
    return tf.function(fn).get_concrete_function(*specs).graph


def _ops(graph, op_type):
    return [op for op in graph.get_operations() if op.type == op_type]


def _walk(graph, seen=None):
    """Every operation of `graph` and of the bodies its library holds, each body once."""
    seen = set() if seen is None else seen
    yield from graph.get_operations()
    for name, body in graph.functions.items():
        if name not in seen:
            seen.add(name)
            yield from _walk(body.graph, seen)


def _plain(value):
    if isinstance(value, (list, tuple)):
        return all(map(_plain, value))
    return isinstance(value, _PLAIN)


def test_cond_names_its_branches_in_the_library():
    g = _graph(lambda x: tf.cond(x > 0, lambda: x * 2.0, lambda: -x), tf.TensorSpec([3]))
    op, = _ops(g, "StatelessIf")
    then_body = g.functions[op.get_attr("then_branch").name]
    else_body = g.functions[op.get_attr("else_branch").name]
    assert op.get_attr("then_branch").name != op.get_attr("else_branch").name
    assert op.get_attr("Tcond") == tf.bool
    assert list(op.get_attr("Tin")) == [tf.float32]
    assert list(op.get_attr("Tout")) == [tf.float32]
    assert [s.as_list() for s in op.get_attr("output_shapes")] == [[3]]
    for body in (then_body, else_body):  # each takes every input after the predicate
        assert [(t.dtype, t.shape.as_list()) for t in body.inputs] == [(tf.float32, [3])]
        assert [t.dtype for t in body.outputs] == [tf.float32]
        assert all(t.graph is body.graph for t in (*body.inputs, *body.outputs))
    assert "Mul" in [o.type for o in then_body.graph.get_operations()]
    assert "Neg" in [o.type for o in else_body.graph.get_operations()]


def test_while_names_its_condition_and_body():
    def f(x):
        return tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * x), [0, x],
                             parallel_iterations=7)
    g = _graph(f, tf.TensorSpec([], tf.float32))
    op, = _ops(g, "StatelessWhile")
    assert op.get_attr("parallel_iterations") == 7
    assert list(op.get_attr("T")) == [tf.int32, tf.float32, tf.float32]  # x is captured
    assert [s.as_list() for s in op.get_attr("output_shapes")] == [[], []]
    test, body = g.functions[op.get_attr("cond").name], g.functions[op.get_attr("body").name]
    assert [t.dtype for t in test.inputs] == [tf.int32, tf.float32, tf.float32]
    assert [t.dtype for t in test.outputs] == [tf.bool]
    assert [t.dtype for t in body.outputs] == [tf.int32, tf.float32]


def test_switch_case_names_every_branch():
    g = _graph(lambda i, x: tf.switch_case(i, [lambda: x, lambda: x * 2.0, lambda: -x]),
               tf.TensorSpec([], tf.int32), tf.TensorSpec([]))
    op, = _ops(g, "StatelessCase")
    names = [b.name for b in op.get_attr("branches")]
    assert len(set(names)) == 3 and all(name in g.functions for name in names)


def test_stateful_bodies_make_the_stateful_ops():
    v = tf.Variable(0.0)

    def f(x):
        y = tf.cond(x > 0, lambda: v.assign_add(x), lambda: tf.identity(x))
        return tf.while_loop(lambda i: i < 2, lambda i: (v.assign_add(1.0), i + 1)[1], [0])
    g = _graph(f, tf.TensorSpec([]))
    assert _ops(g, "If") and _ops(g, "While")
    assert not _ops(g, "StatelessIf") and not _ops(g, "StatelessWhile")
    assert tf.resource in _ops(g, "If")[0].get_attr("Tin")  # the variable, by its handle


def test_nested_bodies_are_in_the_outermost_library():
    def f(x):
        def body(i, s):
            return i + 1, tf.cond(s > 1.0, lambda: s * 0.5, lambda: s + 1.0)
        return tf.while_loop(lambda i, s: i < 4, body, [0, x])[1]
    g = _graph(f, tf.TensorSpec([]))
    loop, = _ops(g, "StatelessWhile")
    loop_body = g.functions[loop.get_attr("body").name]
    branch, = _ops(loop_body.graph, "StatelessIf")
    for attr in ("then_branch", "else_branch"):
        name = branch.get_attr(attr).name
        assert loop_body.graph.functions[name] is g.functions[name]
    assert float(tf.function(f)(tf.constant(5.0))) == float(f(tf.constant(5.0))) == 1.625


def test_custom_gradient_names_its_gradient():
    @tf.custom_gradient
    def clipped(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = clipped(x) * 5.0
        return tape.gradient(y, x)

    g = grad.get_concrete_function(tf.TensorSpec([2])).graph
    op, = _ops(g, "IdentityN")
    assert isinstance(op.get_attr("_gradient_op_type"), str)
    np.testing.assert_array_equal(grad(tf.constant([1.0, 2.0])), [1.0, 1.0])


def test_custom_gradient_higher_order_under_nested_tapes():
    @tf.custom_gradient
    def cube(x):
        return x * x * x, lambda dy: dy * 3.0 * x * x

    @tf.function
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = cube(x)
            dy = inner.gradient(y, x)
        return outer.gradient(dy, x)

    assert float(second(tf.constant(2.0))) == 12.0
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dy = inner.gradient(y, x)
    assert float(outer.gradient(dy, x)) == 12.0


def test_no_op_of_a_traced_graph_holds_a_python_object():
    v = tf.Variable(1.0)

    @tf.custom_gradient
    def halved(x):
        return x * 0.5, lambda dy: dy * 0.5

    @tf.function
    def inner(x):
        return tf.cond(x > 1.0, lambda: halved(x), lambda: x + v)

    @tf.function
    def f(x, n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        i, s = tf.constant(0), x
        while i < n:
            s = inner(s) * v
            ta = ta.write(i, s)
            i += 1
        r = tf.switch_case(n % 2, [lambda: s, lambda: -s])
        return r + tf.reduce_sum(ta.stack())

    with tf.GradientTape() as tape:
        x = tf.constant(3.0)
        tape.watch(x)
        y = f(x, tf.constant(4))
    assert tape.gradient(y, x) is not None
    g = f.get_concrete_function(tf.TensorSpec([]), tf.TensorSpec([], tf.int32)).graph
    types = set()
    for op in _walk(g):
        types.add(op.type)
        if op.op_def is not None:  # (placeholders and constants are the graph's own)
            assert registry.get(op.type) is op.op_def, op
        for name, value in op.attrs.items():
            assert _plain(value), (op.type, name, value)
    assert {"While", "If", "StatelessCase", "IdentityN"} <= types


def test_a_traced_gradient_of_control_flow_is_plain_data_too():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, s: i < 3,
                              lambda i, s: (i + 1, tf.cond(s > 0, lambda: s * s, lambda: -s)),
                              [0, x])[1]
        return tape.gradient(y, x)

    assert float(grad(tf.constant(1.5))) == 8 * 1.5 ** 7
    g = grad.get_concrete_function(tf.TensorSpec([])).graph
    ops = list(_walk(g))
    assert sum(op.type == "StatelessWhile" for op in ops) >= 2  # the loop and its gradient's
    for op in ops:
        if op.op_def is not None:
            assert registry.get(op.type) is op.op_def, op
        assert all(_plain(value) for value in op.attrs.values()), op


def test_a_nested_call_brings_its_functions_along():
    @tf.function
    def inner(x):
        return tf.cond(x > 0, lambda: x * x, lambda: -x)

    @tf.function
    def outer(x):
        return inner(x) + inner(-x)

    g = outer.get_concrete_function(tf.TensorSpec([])).graph
    calls = _ops(g, "PartitionedCall")
    assert len(calls) == 2 and calls[0].get_attr("f").name == calls[1].get_attr("f").name
    ifs = _ops(g.functions[calls[0].get_attr("f").name].graph, "StatelessIf")
    assert len(ifs) == 1  # in the body the calls name
    for op in ifs:
        assert op.get_attr("then_branch").name in g.functions
        assert op.get_attr("else_branch").name in g.functions
    assert float(outer(tf.constant(3.0))) == 12.0

    x = tf.constant(3.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = outer(x)
        dy = t1.gradient(y, x)
    assert float(dy) == 7.0  # 2x + 1
    assert float(t2.gradient(dy, x)) == 2.0
