"""Running traced graphs: what runs, captures, static values and errors."""
import re
import threading

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import executor, inline_calls


def test_only_needed_and_stateful_operations_run():
    v = tf.Variable(0.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        unused = tf.reshape(x, [7])  # would fail for 3 elements: pruned, never run
        del unused
        v.assign_add(1.0)  # stateful: runs although nothing uses it
        return x * 2.0

    cf = f.get_concrete_function()
    ops = [op.type for op in executor.needed_operations(cf.graph, cf.outputs)]
    assert "Reshape" not in ops and "AssignAddVariableOp" in ops
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0, 3.0])).numpy(), [2.0, 4.0, 6.0])
    assert v.numpy() == 1.0


def test_shapes_known_while_tracing_are_static_values():
    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32)])
    def f(x):
        n = tf.shape(x)
        return tf.reshape(x, [n[0] * n[1]]), tf.zeros(tf.shape(x)[::-1])

    flat, zeros = f(tf.ones([2, 3]))
    assert flat.shape == (6,) and zeros.shape == (3, 2)


def test_a_shape_known_only_at_run_time_runs():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return tf.zeros(tf.shape(x))

    assert f(tf.ones([2, 3])).shape == (2, 3)


def test_a_static_argument_known_only_at_run_time_says_so():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(x):
        return tf.one_hot([1], 3, axis=tf.shape(x)[0] - 2)

    # (as TF's wrapper refuses a tensor for the attr)
    with pytest.raises(TypeError, match="Expected int for argument 'axis' not <tf.Tensor 'sub:0'"):
        f(tf.constant([0, 1]))


def test_a_function_called_while_tracing_is_inlined():
    @tf.function
    def inner(x):
        return x * 3.0

    @tf.function
    def outer(x):
        return inner(x) + 1.0

    assert outer(tf.constant(2.0)).numpy() == 7.0
    cf = outer.get_concrete_function(tf.TensorSpec([], tf.float32))
    types = [op.type for op in cf.graph.get_operations()]
    assert types.count("PartitionedCall") == 1 and "Mul" not in types  # a call, as in TF
    # what runs (and what a tape recording the graph sees) is the body's ops in its place
    ran = [op.type for op in executor.needed_operations(cf.graph, cf.outputs)]
    assert ran.count("Mul") == 1 and "PartitionedCall" not in ran
    assert "PartitionedCall" in [op.type for op in executor.needed_operations(
        cf.graph, cf.outputs, inline=False)]


def test_a_leaked_symbolic_tensor_cannot_run():
    leaked = []

    @tf.function
    def f(x):
        leaked.append(x * 2.0)
        return x

    f(tf.constant(1.0))
    g = tf.function(lambda: leaked[0] + 1.0)
    with pytest.raises(TypeError, match="is out of scope and cannot be used here"):  # as TF
        g()


def test_kernel_errors_keep_their_class_and_name_the_user_line():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32),
                                  tf.TensorSpec([None], tf.float32)])
    def f(a, b):
        return a + b

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.ones([2]), tf.ones([3]))
    message = str(info.value)
    assert "Incompatible shapes: [2] vs. [3]" in message
    assert "test_executor.py" in message and "node add" in message


def _node_and_function(fn, *args):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn(*args)
    lines = str(info.value).splitlines()
    return lines[2], lines[-1]


def test_errors_in_control_flow_bodies_name_the_node_under_the_op_as_tf():
    # (TF numbers its functions: the suffix here is eagerflow's own count)
    x, n = tf.constant([1.0, 2.0]), tf.constant(5)

    @tf.function
    def branch(x, n):
        if n > 0:
            y = tf.gather(x, n)
        else:
            y = x[0]
        return y

    @tf.function
    def loop(x, n):
        i, y = tf.constant(0), tf.constant(0.0)
        while i < n:
            y = tf.gather(x, n)
            i += 1
        return y

    @tf.function
    def nested(x, n):
        with tf.name_scope("blk"):
            return tf.cond(n > 0, lambda: tf.cond(n > 1, lambda: tf.gather(x, n),
                                                  lambda: x[0], name="mycond"), lambda: x[0])

    @tf.function
    def switch(x, n):
        return tf.switch_case(n - 5, [lambda: tf.gather(x, n), lambda: x[0]])

    for fn, node in [(branch, "cond/GatherV2"), (loop, "while/GatherV2"),
                     (nested, "blk/cond/mycond/GatherV2"),
                     (switch, "switch_case/indexed_case/GatherV2")]:
        detected, last = _node_and_function(fn, x, n)
        assert detected == f"Detected at node {node} defined at (most recent call last):"
        assert re.fullmatch(rf"\t \[\[{{{{node {node}}}}}\]\] \[Op:__inference_"
                            rf"{fn.__name__}_\d+\]", last), last


def test_switch_case_op_and_branches_are_named_as_tf_names_them():
    @tf.function
    def s(x, n):
        return tf.switch_case(n, [lambda: x * 2.0, lambda: x[0:1]])

    graph = s.get_concrete_function(tf.TensorSpec([2]), tf.TensorSpec([], tf.int32)).graph
    case, = [op for op in graph.get_operations() if op.type == "StatelessCase"]
    assert case.name == "switch_case/indexed_case"
    assert [re.sub(r"_\d+$", "", f) for f in [b.name for b in case.get_attr("branches")]] == [
        "switch_case_indexed_case_branch0", "switch_case_indexed_case_branch1"]


def test_set_shape_narrows_a_static_shape():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(x):
        x.set_shape([None, 3])
        seen.append(x.shape.as_list())
        with pytest.raises(ValueError, match="not compatible"):
            x.set_shape([2, 4])
        return x

    f(tf.ones([2, 3]))
    assert seen == [[None, 3]]


def test_a_thread_inlining_a_function_leaves_other_threads_free_to_inline_it(monkeypatch):
    # While one thread expands `middle`'s body (paused at its call of `inner`), another
    # expands a function calling `middle`: that call is not a recursive one, so it is
    # inlined there too.
    @tf.function
    def inner(x):
        return x * 3.0

    @tf.function
    def middle(x):
        return inner(x) + 1.0

    @tf.function
    def first(x):
        return middle(x) - 1.0

    @tf.function
    def second(x):
        return middle(x) + 2.0

    spec = tf.TensorSpec([], tf.float32)
    concretes = [f.get_concrete_function(spec) for f in (first, second)]
    graphs = [cf.graph for cf in concretes]
    middle_graph = middle.get_concrete_function(spec).graph
    for graph in graphs + [middle_graph]:
        graph.__dict__.pop("_inlined", None)  # expanded afresh below
    paused, resumed = threading.Barrier(2, timeout=30), threading.Barrier(2, timeout=30)
    rules = inline_calls.inline_rules
    inline = rules.get(next(op for op in middle_graph.get_operations()
                            if op.type == "PartitionedCall").op_def)
    pausing = threading.current_thread()

    def pause_inside_middle(op):
        body = inline(op)
        if threading.current_thread() is pausing and body.graph is not middle_graph:
            paused.wait()  # inside middle's expansion, at its call of inner
            resumed.wait()
        return body
    for op_def in {op.op_def for op in middle_graph.get_operations() if "Call" in op.type}:
        monkeypatch.setitem(rules._rules, op_def, pause_inside_middle)
    ran = {}

    def expand_second():
        paused.wait()
        ran["second"] = [op.type for op in executor.needed_operations(graphs[1], concretes[1].outputs)]
        resumed.wait()
    other = threading.Thread(target=expand_second)
    other.start()
    ran["first"] = [op.type for op in executor.needed_operations(graphs[0], concretes[0].outputs)]
    other.join()
    for types in ran.values():
        assert "PartitionedCall" not in types and types.count("Mul") == 1, types
