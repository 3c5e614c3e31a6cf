"""Programs specialized to input shapes: same results, shapes folded, errors unchanged."""
import numpy as np
import pytest

import eagerflow as tf
from tests.internals import executor, Graph, optimize, specialize


def _mean_rows(x):
    return tf.reduce_sum(x * 2.0, axis=0) / tf.cast(tf.shape(x)[0], tf.float32)


def _concrete(fn, spec):
    return tf.function(fn, input_signature=[spec]).get_concrete_function()


def test_specialized_copy_has_concrete_shapes_and_folds_shape_arithmetic():
    cf = _concrete(_mean_rows, tf.TensorSpec([None, 3]))
    graph, inputs, outputs = specialize.specialize(cf.graph, cf.inputs, cf.outputs, [(4, 3)])
    assert inputs[0].shape.as_list() == [4, 3]
    assert outputs[0].shape.as_list() == [3]
    assert "Shape" in [op.type for op in optimize(cf.graph, cf.inputs, cf.outputs).operations]
    assert "Shape" not in [op.type for op in optimize(graph, inputs, outputs).operations]
    program = executor.compile_graph(graph, inputs, outputs, "copy")
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(program(x)[0], x.sum(0) * 2 / 4)
    # the copy keeps the names and the user's locations of the original's operations
    names = {op.name: op.location for op in cf.graph.get_operations()}
    for op in graph.get_operations():
        assert names[op.name] == op.location


def test_a_shape_seen_twice_gets_its_own_program():
    f = tf.function(_mean_rows, input_signature=[tf.TensorSpec([None, 3])])
    run = f.get_concrete_function()._run
    assert isinstance(run, specialize.ShapeSpecialized)
    for n in (4, 4, 4, 5):
        x = np.random.default_rng(n).random((n, 3), dtype=np.float32)
        np.testing.assert_allclose(f(tf.constant(x)).numpy(), x.sum(0) * 2 / n, rtol=1e-6)
    assert list(run._programs) == [((4, 3),)]  # 5 rows were seen once: the generic program
    assert run._programs[((4, 3),)] is not run._generic


def test_fully_known_inputs_compile_one_program():
    cf = _concrete(_mean_rows, tf.TensorSpec([4, 3]))
    assert not isinstance(cf._run, specialize.ShapeSpecialized)


def test_beyond_the_limit_shapes_run_the_generic_program(monkeypatch):
    monkeypatch.setattr(specialize, "_MAX_SHAPES", 2)
    f = tf.function(_mean_rows, input_signature=[tf.TensorSpec([None, 3])])
    for n in (1, 1, 2, 2, 3, 3, 3):
        x = np.ones((n, 3), np.float32)
        np.testing.assert_array_equal(f(tf.constant(x)).numpy(), [2.0, 2.0, 2.0])
    run = f.get_concrete_function()._run
    assert run._programs[((3, 3),)] is run._generic
    assert run._programs[((1, 3),)] is not run._generic


def test_stateful_ops_run_once_per_call_in_the_specialized_program():
    v = tf.Variable(0.0)

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def total(x):
        v.assign_add(tf.reduce_sum(x))
        return v.read_value()

    for _ in range(3):
        total(tf.ones([2]))
    assert v.numpy() == 6.0


def test_a_copy_that_fails_leaves_the_generic_program(monkeypatch):
    def broken(*args):
        raise RuntimeError("no copy")
    monkeypatch.setattr(specialize, "specialize", broken)
    f = tf.function(_mean_rows, input_signature=[tf.TensorSpec([None, 3])])
    for _ in range(3):
        assert f(tf.ones([2, 3])).numpy().tolist() == [2.0, 2.0, 2.0]
    run = f.get_concrete_function()._run
    assert run._programs[((2, 3),)] is run._generic


def test_run_time_errors_read_as_the_generic_programs():
    @tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([None, 2])])
    def product(a, b):
        return tf.matmul(a, b)

    messages = []
    for _ in range(3):  # generic, generic, then specialized
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            product(tf.ones([3, 2]), tf.ones([3, 2]))
        messages.append(str(e.value))
    assert messages[0] == messages[2]
    assert "test_specialize.py" in messages[2]


def test_inputs_incompatible_with_the_trace_are_refused():
    g = Graph("g")
    x = g.placeholder(tf.float32, [None, 3], "x")
    with pytest.raises(ValueError):
        specialize.specialize(g, [x], [x], [(2, 4)])
