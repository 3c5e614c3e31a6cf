"""Buffer reuse: ufunc results written into dead intermediates, never into visible arrays."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from tests.internals import _MEAN, onednn, plan_buffer_reuse, reduction_ops
from tests.graph.passes.helpers import assert_same_results, evaluate, traced

_MATRIX = tf.TensorSpec([2, 3], tf.float32)
_W = tf.TensorSpec([3, 3], tf.float32)


def _planned(fn, *specs):
    before = traced(fn, *specs)
    return before, plan_buffer_reuse(before)


def _reused(program):
    """(op type, type of the op that made the overwritten tensor) pairs."""
    return sorted((op.type, t.op.type) for op, t in program.reuse.items())


def test_elementwise_chains_reuse_dead_products():
    before, after = _planned(lambda x, w: tf.exp(tf.matmul(x, w)) * 2.0 - 1.0, _MATRIX, _W)
    # Exp makes a new array (it is not a ufunc that could write into MatMul's)
    assert _reused(after) == [("Mul", "Exp"), ("Sub", "Mul")]
    rng = np.random.default_rng(0)
    assert_same_results(before, after, rng.normal(size=(2, 3)).astype(np.float32),
                        rng.normal(size=(3, 3)).astype(np.float32))


def test_inputs_consts_and_outputs_are_never_overwritten():
    def f(x, w):
        y = tf.matmul(x, w)
        return y, tf.exp(y), x * 2.0, tf.constant(np.ones([2, 3], np.float32)) + 1.0

    before, after = _planned(f, _MATRIX, _W)
    assert after.reuse == {}
    x = np.ones([2, 3], np.float32)
    kept = x.copy()
    evaluate(after, x, np.eye(3, dtype=np.float32))
    np.testing.assert_array_equal(x, kept)


def test_arrays_that_views_or_assignments_keep_are_never_overwritten():
    v = tf.Variable(np.zeros([2, 3], np.float32))

    def f(x, w):
        y = tf.matmul(x, w)
        r = tf.reshape(y, [6])  # a view of y's array
        z = tf.exp(x) + 1.0  # AssignVariableOp keeps z's array as the variable's value
        v.assign(z)
        return r, tf.exp(y) * 2.0, tf.exp(z) * 2.0

    before, after = _planned(f, _MATRIX, _W)
    overwritten = {t.op.type for t in after.reuse.values()}
    assert "MatMul" not in overwritten
    assert all(t.op.type != "AddV2" for t in after.reuse.values())


def test_captured_variable_arrays_are_never_overwritten():
    v = tf.Variable(np.full([2, 3], 3.0, np.float32))

    @tf.function
    def f(x):
        return (v * 2.0 + x) * 3.0, v.read_value() + 1.0

    before = v.numpy()
    for _ in range(3):
        f(tf.ones([2, 3]))
    np.testing.assert_array_equal(v.numpy(), before)


def test_compiled_functions_run_with_reuse_and_keep_results(optimizer_options):
    def f(x):
        y = tf.square(x - 1.0)
        return tf.tanh(y * y) + y, tf.reduce_sum(y)

    x = tf.constant(np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3))
    optimizer_options.set_experimental_options({"memory_optimization": False})
    want = tf.function(f)(x)
    optimizer_options.set_experimental_options({"memory_optimization": True})
    got = tf.function(f)(x)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.numpy(), w.numpy())


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float32, (2, 3), elements=st.floats(-3, 3, width=32)))
def test_reuse_keeps_results(x):
    def f(v, w):
        h = tf.matmul(v, w)
        a = tf.exp(h) - h
        b = tf.maximum(a, h) * a
        return b + tf.reduce_sum(a), tf.negative(b)

    w = np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3)
    before, after = _planned(f, _MATRIX, _W)
    assert after.reuse
    assert_same_results(before, after, x, w)


def test_relu_gradients_write_over_a_dead_gradient():
    def f(x, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.reduce_mean(tf.nn.relu(tf.matmul(x, w)), axis=0)
        return tape.gradient(y, w)

    before, after = _planned(f, _MATRIX, _W)
    # the mean's gradient broadcast to the product's shape, or relu's output: both dead
    assert [pair for pair in _reused(after) if pair[0] == "ReluGrad"] in (
        [("ReluGrad", "BroadcastTo")], [("ReluGrad", "Relu")])
    rng = np.random.default_rng(0)
    assert_same_results(before, after, rng.normal(size=(2, 3)).astype(np.float32),
                        rng.normal(size=(3, 3)).astype(np.float32))


@pytest.mark.parametrize("native", [True, False])
def test_residual_sums_write_over_the_normalization_result(native):
    """A residual block's sum (batch normalization's result plus the skip) and its ReLU
    write over the normalization's dead result; values and gradients are unchanged."""
    spec = tf.TensorSpec([4, 3, 3, 8], tf.float32)
    vector = tf.TensorSpec([8], tf.float32)

    def block(x, skip, scale, offset):
        with tf.GradientTape() as tape:
            tape.watch([x, skip, scale])
            y = tf.raw_ops.FusedBatchNormV3(x=x, scale=scale, offset=offset, mean=[], variance=[],
                                            epsilon=1e-3)[0]
            out = tf.nn.relu(y + skip)
        return (out, *tape.gradient(out, [x, skip, scale],
                                    output_gradients=tf.cos(out) + 1.0))

    before, after = _planned(block, spec, spec, vector, vector)
    assert ("AddV2", "FusedBatchNormV3") in _reused(after)
    rng = np.random.default_rng(0)
    feeds = [rng.normal(size=(4, 3, 3, 8)).astype(np.float32),
             rng.normal(size=(4, 3, 3, 8)).astype(np.float32),
             rng.uniform(0.5, 2, 8).astype(np.float32), rng.normal(size=8).astype(np.float32)]
    onednn.set_enabled(native)
    try:
        assert_same_results(before, after, *feeds)
        compiled = [t.numpy() for t in tf.function(block)(*map(tf.constant, feeds))]
    finally:
        onednn.set_enabled(None)
    for got, want in zip(compiled, evaluate(before, *feeds)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_pooled_relu_gradient_writes_over_the_pooled_features():
    """A global average pooling keeps no view of its input: once pooled, the ReLU's result is
    dead after its gradient reads it, which writes over it."""
    def f(x, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            h = tf.nn.relu(tf.nn.conv2d(x, w, 1, "VALID"))
            loss = tf.reduce_sum(tf.reduce_mean(h, axis=[1, 2]))
        return tape.gradient(loss, w)

    specs = tf.TensorSpec([2, 5, 5, 3]), tf.TensorSpec([3, 3, 3, 4])
    before = traced(f, *specs)
    after = plan_buffer_reuse(before)
    assert ("ReluGrad", "Relu") in _reused(after)
    rng = np.random.default_rng(2)
    assert_same_results(before, after, rng.normal(size=(2, 5, 5, 3)).astype(np.float32),
                        rng.normal(size=(3, 3, 3, 4)).astype(np.float32))


@pytest.mark.parametrize("shape,axis,dtype", [
    ((3, 4), None, np.float32), ((3, 1, 4), (1,), np.float32), ((3, 4), (), np.float32),
    ((3, 1), (1,), np.int32), ((2, 1), (1,), np.float16), ((2, 64, 64, 32), (1, 2), np.float32)])
def test_mean_never_returns_a_view_of_its_input(shape, axis, dtype):
    """(Mean is declared to keep no view: buffer reuse may overwrite its input once read.)"""
    x = np.arange(np.prod(shape)).reshape(shape).astype(dtype)
    for keepdims in (False, True):
        got = _MEAN.host_kernel(x, axis=axis, keepdims=keepdims)
        assert not np.shares_memory(got, x)


def test_gradients_meeting_at_a_fork_sum_over_a_dead_gradient():
    """AddN (the gradients of a tensor read twice, as at a residual block's fork) writes over
    one of its dead inputs; values are unchanged, three inputs keep their order of adding."""
    def f(x, w):
        with tf.GradientTape() as tape:
            tape.watch(x)
            h = tf.matmul(x, w)
            y = tf.exp(h) * 2.0 + tf.sin(h) * 3.0 + tf.tanh(h)
        return tape.gradient(y, x)

    before, after = _planned(f, _MATRIX, _W)
    assert [pair[0] for pair in _reused(after)].count("AddN") == 1
    rng = np.random.default_rng(3)
    assert_same_results(before, after, rng.normal(size=(2, 3)).astype(np.float32),
                        rng.normal(size=(3, 3)).astype(np.float32))


@pytest.mark.parametrize("count", [2, 3, 4])
def test_add_n_into_any_of_its_inputs_adds_in_input_order(count):
    _add_n = reduction_ops._add_n
    rng = np.random.default_rng(count)
    arrays = [rng.normal(size=(5, 7)).astype(np.float32) * 10.0 ** i for i in range(count)]
    want = arrays[0].copy()
    for a in arrays[1:]:
        want += a
    for at in range(count):
        inputs = [a.copy() for a in arrays]
        got = _add_n(np, *inputs, out=inputs[at])
        assert got is inputs[at]
        np.testing.assert_array_equal(got, want)
    fresh = np.empty_like(want)
    assert _add_n(np, *arrays, out=fresh) is fresh
    np.testing.assert_array_equal(fresh, want)
    np.testing.assert_array_equal(_add_n(np, arrays[0], arrays[0], out=arrays[0].copy()),
                                  arrays[0] * 2)
    twice = arrays[0].copy()
    np.testing.assert_array_equal(_add_n(np, twice, twice, twice, out=twice), arrays[0] * 3)
