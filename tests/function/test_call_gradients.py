"""Gradients through calls of traced functions: one recorded op, a backward traced once."""
import gc

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import dispatch, OpDef, same_shape


def _entries(tape):
    return [entry[0].name for entry in tape._recorder.entries]


def _gradients_both_ways(fn, args, sources_of):
    """Gradients of fn(*args) by `sources_of(args)`, through a traced call and eagerly."""
    results = []
    for run in (tf.function(fn), fn):
        with tf.GradientTape() as tape:
            tape.watch([a for a in args if isinstance(a, tf.Tensor)])
            out = run(*args)
        if run is not fn:
            assert _entries(tape) == ["PartitionedCall"]
        results.append(tape.gradient(out, sources_of(args)))
    return results


def _assert_same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g is None) == (w is None)
        if g is not None:
            np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(),
                                       tf.convert_to_tensor(w).numpy(), rtol=1e-5, atol=1e-6)


# --- one op per call ---------------------------------------------------------------------------


def test_a_call_is_one_recorded_op_named_as_tf_names_it():
    v = tf.Variable(2.0)
    pure = tf.function(lambda x: tf.sin(x) * x + 1.0)
    stateful = tf.function(lambda x: tf.sin(x) * v)
    x = tf.constant(0.5)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a = pure(x)
        b = stateful(x)
    assert _entries(tape) == ["PartitionedCall", "StatefulPartitionedCall"]
    assert tape.gradient(a, x).numpy() == pytest.approx(np.cos(0.5) * 0.5 + np.sin(0.5))
    assert tape.gradient(b, v).numpy() == pytest.approx(np.sin(0.5))


def test_a_call_nobody_watches_is_not_recorded():
    f = tf.function(lambda x: x * 2.0)
    with tf.GradientTape() as tape:
        y = f(tf.constant(1.0))
    assert _entries(tape) == []
    assert y.numpy() == 2.0


def _mlp(x, labels, layers):
    h = x
    for i, (w, b) in enumerate(layers):
        h = tf.matmul(h, w) + b
        if i < len(layers) - 1:
            h = tf.nn.relu(h)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=h))


def _layers(rng, sizes):
    return [(tf.Variable(rng.normal(0, 0.3, (m, n)).astype(np.float32)),
             tf.Variable(rng.normal(0, 0.1, n).astype(np.float32)))
            for m, n in zip(sizes, sizes[1:])]


def test_mlp_gradients_match_eager():
    rng = np.random.default_rng(0)
    layers = _layers(rng, [6, 5, 4, 3])
    x = tf.constant(rng.normal(size=(8, 6)).astype(np.float32))
    labels = tf.constant(rng.integers(0, 3, 8).astype(np.int32))
    variables = [v for layer in layers for v in layer]
    traced = tf.function(_mlp)
    results = []
    for run in (traced, _mlp):
        with tf.GradientTape() as tape:
            loss = run(x, labels, layers)
        results.append(tape.gradient(loss, variables))
    assert len(results[0]) == 6
    _assert_same(*results)


@pytest.mark.parametrize("fn", [
    lambda x, y: tf.reduce_sum(x * y + tf.exp(x) / (1.0 + y * y)),
    lambda x, y: tf.reduce_max(tf.tanh(x)[:, None] * y, axis=0),  # broadcasting
    lambda x, y: (tf.concat([x, y], 0) ** 2, tf.reduce_prod(x)),   # several outputs
])
def test_gradients_match_eager(fn):
    x = tf.constant([0.5, -1.0, 2.0])
    y = tf.constant([1.5, 0.25, -0.5])
    _assert_same(*_gradients_both_ways(fn, [x, y], lambda args: args))


def test_unknown_dimensions_match_eager():
    w = tf.Variable([1.0, 2.0, 3.0])

    def fn(x):
        return tf.reduce_sum(tf.reshape(x * w, [-1]) ** 2) + tf.reduce_mean(tf.transpose(x))

    traced = tf.function(fn, input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    for n in (2, 5):
        x = tf.reshape(tf.range(3.0 * n), [n, 3])
        results = []
        for run in (traced, fn):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = run(x)
            results.append(tape.gradient(y, [x, w]))
        _assert_same(*results)


def test_chained_calls_and_a_custom_gradient_inside():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        return tf.math.log(1.0 + e), lambda dy: dy * (1.0 - 1.0 / (1.0 + e))

    square = tf.function(lambda x: x * x)
    soft = tf.function(lambda x: log1pexp(x) * 2.0)
    x = tf.constant(0.8)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = soft(square(square(x) + 1.0))
    assert _entries(tape).count("PartitionedCall") == 3
    u = (0.8 ** 2 + 1.0) ** 2
    want = 2.0 / (1.0 + np.exp(-u)) * 2 * (0.8 ** 2 + 1.0) * 2 * 0.8
    assert tape.gradient(y, x).numpy() == pytest.approx(want, rel=1e-5)


# --- higher order ------------------------------------------------------------------------------


def _cubes(x):
    return tf.reduce_sum(x * x * x)


def _second_derivative(fn, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        dy = inner.gradient(y, x)
    return dy, outer.gradient(dy, x)


def test_second_derivative_through_a_call():
    x = tf.constant([1.0, -2.0, 0.5])
    _assert_same(_second_derivative(tf.function(_cubes), x), _second_derivative(_cubes, x))


def test_second_derivative_of_a_backward_that_keeps_nothing():
    f = tf.function(lambda x: x + 1.0)  # its gradient needs no forward value
    x = tf.constant(2.0)
    dy, d2y = _second_derivative(f, x)
    assert dy.numpy() == 1.0 and d2y is None


def test_second_derivative_with_one_persistent_tape():
    f = tf.function(_cubes)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        dy = tape.gradient(y, x)
    np.testing.assert_allclose(tape.gradient(dy, x).numpy(), 6.0 * x.numpy())


def test_third_derivative_and_jacobian_of_a_gradient():
    f = tf.function(lambda x: tf.reduce_sum(tf.sin(x) * x))
    x = tf.constant([0.3, 1.2])
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            d1 = t1.gradient(y, x)
        d2 = t2.jacobian(d1, x)
    d3 = t3.gradient(d2, x)
    xs = x.numpy()
    np.testing.assert_allclose(np.diag(d2.numpy()), 2 * np.cos(xs) - xs * np.sin(xs), rtol=1e-5)
    np.testing.assert_allclose(d3.numpy(), -3 * np.sin(xs) - xs * np.cos(xs), rtol=1e-5)


def test_second_derivative_by_a_variable_read_and_assigned_in_the_call():
    v = tf.Variable(3.0)

    @tf.function
    def f(x):
        v.assign_add(1.0)
        return x * v * v

    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = f(tf.constant(2.0))
        g = inner.gradient(y, v)
    assert v.numpy() == 4.0
    assert g.numpy() == 16.0                        # 2 * x * v
    assert outer.gradient(g, v).numpy() == 4.0     # 2 * x


def test_a_tape_started_after_the_call_sees_no_dependence():
    f = tf.function(_cubes)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = f(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        dy = inner.gradient(y, x)
    assert outer.gradient(dy, x) is None  # as in TF: the saved values are not x


def test_jacobian_through_a_call():
    fn = lambda x: tf.stack([x[0] * x[1], tf.sin(x[1])])  # noqa: E731
    x = tf.constant([2.0, 0.5])
    results = []
    for run in (tf.function(fn), fn):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = run(x)
        results.append([tape.jacobian(y, x)])
    _assert_same(*results)


# --- state -------------------------------------------------------------------------------------


def test_stateful_ops_run_once_per_call(capsys):
    counter = tf.Variable(0.0)
    w = tf.Variable(2.0)

    @tf.function
    def f(x):
        counter.assign_add(1.0)
        tf.print("called")
        return x * w

    x = tf.constant(3.0)
    for persistent in (False, True):
        with tf.GradientTape(persistent=persistent) as tape:
            y = f(x)
        assert tape.gradient(y, w).numpy() == 3.0
        if persistent:
            assert tape.gradient(y, w).numpy() == 3.0
    assert counter.numpy() == 2.0
    assert capsys.readouterr().err.count("called") == 2


def test_captured_trainable_variables_are_watched():
    read = tf.Variable(1.0)
    assigned = tf.Variable(1.0)
    frozen = tf.Variable(1.0, trainable=False)

    @tf.function
    def f(x):
        assigned.assign_add(1.0)
        return x * read * frozen

    with tf.GradientTape() as tape:
        f(tf.constant(1.0))
    assert {id(v) for v in tape.watched_variables()} == {id(read), id(assigned)}
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = f(tf.constant(1.0))
    assert tape.watched_variables() == () and _entries(tape) == []
    assert tape.gradient(y, read) is None


# --- outputs and unconnected gradients ---------------------------------------------------------


def test_captured_tensors_are_inputs_of_the_call():
    c = tf.constant([2.0, -1.0])
    f = tf.function(lambda x: tf.reduce_sum(x * c * c))
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(c)
        y = f(x)
    assert _entries(tape) == ["PartitionedCall"]
    np.testing.assert_allclose(tape.gradient(y, c).numpy(), 2 * x.numpy() * c.numpy())


_C = tf.constant(2.0)
_D = tf.constant(3.0)


def _loop(x):
    return tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * _C), [0, x])[1]


def _nested_loops(x):
    def body(i, a):
        a = tf.while_loop(lambda j, b: j < 2, lambda j, b: (j + 1, b * _C + _D), [0, a])[1]
        return i + 1, a
    return tf.while_loop(lambda i, a: i < 2, body, [0, x])[1]


def _for_loop(x):
    for _ in tf.range(3):
        x = x * _C
    return x


def _if(x):
    if x > 0:
        x = x * _C
    return x


# (function, its argument, gradient by _C) as TF 2.21 gives them
_CAPTURED_IN_BODIES = [
    (_loop, 1.0, 12.0),
    (lambda x: tf.cond(x > 0, lambda: x * _C, lambda: x - _C), 1.0, 1.0),
    (lambda x: tf.cond(x > 0, lambda: x * _C, lambda: x - _C * _C), -1.0, -4.0),
    (_nested_loops, 1.0, 83.0),
    (_for_loop, 1.0, 12.0),
    (_if, 1.0, 1.0),
    (lambda x: tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a * _C),
                             [0, x * _C])[1] + _C, 1.0, 13.0),
    (lambda x: tf.cond(x > 0, lambda: _loop(x), lambda: x), 1.0, 12.0),
    # a function called by the function (the call's body holds the tensor too)
    (lambda x: tf.function(lambda y: y * _C * _C)(x) + 1.0, 3.0, 12.0),
    (lambda x: tf.function(_loop)(x) + 1.0, 1.0, 12.0),
    (lambda x: tf.while_loop(lambda i, a: i < 2,
                             lambda i, a: (i + 1, tf.function(_loop)(a)), [0, x])[1], 1.0, 192.0),
]


@pytest.mark.parametrize("fn, x, want", _CAPTURED_IN_BODIES)
def test_eager_tensors_captured_by_loops_and_branches_get_gradients(fn, x, want):
    # (the bodies hold the tensor as a constant: a tape outside the function reaches it)
    f = tf.function(fn)
    for persistent in (False, True):
        with tf.GradientTape(persistent=persistent) as tape:
            tape.watch(_C)
            y = f(tf.constant(x))
        np.testing.assert_allclose(tape.gradient(y, _C).numpy(), want)
    with tf.GradientTape() as tape:  # not watched: None, as in TF
        y = f(tf.constant(x))
    assert tape.gradient(y, _C) is None


def test_eager_tensors_captured_by_loops_higher_order_and_with_other_sources():
    f, g = tf.function(_loop), tf.function(_nested_loops)
    x = tf.constant(1.0)
    with tf.GradientTape() as outer:
        outer.watch(_C)
        with tf.GradientTape() as inner:
            inner.watch([x, _C])
            y = f(x)
        gx, gc = inner.gradient(y, [x, _C])
    assert (gx.numpy(), gc.numpy()) == (8.0, 12.0)
    assert outer.gradient(gc, _C).numpy() == 12.0
    h = tf.function(lambda x: f(x) + 1.0)  # through a call inside the function
    with tf.GradientTape() as outer:
        outer.watch(_C)
        with tf.GradientTape() as inner:
            inner.watch(_C)
            y = h(x)
        gc = inner.gradient(y, _C)
    assert gc.numpy() == 12.0 and outer.gradient(gc, _C).numpy() == 12.0
    with tf.GradientTape() as tape:
        tape.watch([_C, _D])
        y = g(x)
    assert [t.numpy() for t in tape.gradient(y, [_C, _D])] == [83.0, 15.0]


def test_int_and_python_outputs():
    @tf.function
    def f(x):
        return {"value": x * 3.0, "index": tf.argmax(x), "label": "max"}

    x = tf.constant([1.0, 4.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        out = f(x)
    assert out["label"] == "max" and out["index"].numpy() == 1
    np.testing.assert_allclose(tape.gradient(out["value"], x).numpy(), [3.0, 3.0, 3.0])
    # As in TF, an int output's gradient reaches the call, whose backward gives zeros.
    np.testing.assert_allclose(tape.gradient(out["index"], x).numpy(), [0.0, 0.0, 0.0])


def test_an_input_passed_straight_through():
    v = tf.Variable(2.0)
    f = tf.function(lambda x: (x, x * v))
    x = tf.constant(5.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        same, scaled = f(x)
    assert tape.gradient(same, x).numpy() == 1.0
    # v reaches the call's outputs, so (as in TF) its gradient is zero, not None.
    assert tape.gradient(same, v).numpy() == 0.0
    assert tape.gradient(scaled, [x, v])[1].numpy() == 5.0


def test_unconnected_gradients():
    f = tf.function(lambda x, y: (x * 2.0, y * 3.0))
    x, y, z = tf.constant(1.0), tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        a, b = f(x, y)
    assert tape.gradient(a, [x, y, z]) == [tape.gradient(a, x), None, None]
    zeros = tape.gradient(a, [y, z], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert [g.numpy() for g in zeros] == [0.0, 0.0]
    assert tape.gradient(b, x).numpy() == 0.0  # x reaches the call: zero, as in TF


def test_output_gradients_weight_the_outputs():
    f = tf.function(lambda x: (x * x, tf.sin(x)))
    x = tf.constant(0.7)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = f(x)
    g = tape.gradient([a, b], x, output_gradients=[tf.constant(2.0), tf.constant(-1.0)])
    assert g.numpy() == pytest.approx(2.0 * 2 * 0.7 - np.cos(0.7), rel=1e-6)


def test_gather_from_a_variable_gives_sparse_gradients():
    table = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])

    def fn(i):
        return tf.reduce_sum(tf.gather(table, i) ** 2)

    grads = []
    for run in (tf.function(fn), fn):
        with tf.GradientTape() as tape:
            y = run(tf.constant([0, 2, 0]))
        grads.append(tape.gradient(y, table))
    assert isinstance(grads[0], tf.IndexedSlices)
    _assert_same([grads[0]], [grads[1]])


# --- what is traced, and when ------------------------------------------------------------------


def test_the_backward_is_traced_once_and_prunes_unwanted_gradients():
    w = tf.Variable(np.ones((3, 2), np.float32))
    f = tf.function(lambda x: tf.reduce_sum(tf.matmul(x, w)))
    x = tf.ones([4, 3])
    cf = f.get_concrete_function(x)

    def gradient(watch_x):
        with tf.GradientTape() as tape:
            if watch_x:
                tape.watch(x)
            y = f(x)
        return tape.gradient(y, w)

    first = gradient(False)
    backwards = cf._call_gradient._modes[False].backwards
    traced = dict(backwards)
    np.testing.assert_allclose(gradient(False).numpy(), first.numpy())
    gradient(True)
    assert all(backwards[k] is traced[k] for k in traced)  # reused, not traced again
    matmuls = {k: [op.type for op in b.function.graph.get_operations()].count("MatMul")
               for k, b in backwards.items()}
    assert matmuls[(1,)] == 1 and matmuls[(0, 1)] == 2  # dx only when x is watched


def test_a_function_without_a_backward_is_replayed_op_by_op():
    opaque = OpDef("Opaque", lambda xp, x: x * 2, same_shape, False, (0,), None, False, None)

    @tf.function
    def f(x):
        return dispatch(opaque, (x,)) + x * x

    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    assert y.numpy() == 15.0
    assert "Opaque" in _entries(tape)
    with pytest.raises(LookupError, match="No gradient defined for operation'Opaque'"):
        tape.gradient(y, x)


def test_a_call_inside_a_traced_function_is_a_call_of_a_forward_and_a_backward_function():
    """As in TF: the call under the tape runs a forward function that also returns what the
    gradient keeps, and the gradient is a call of the backward function."""
    inner = tf.function(_cubes)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x)
        return tape.gradient(y, x)

    x = tf.constant([1.0, 2.0])
    np.testing.assert_allclose(step(x).numpy(), 3.0 * x.numpy() ** 2)
    graph = step.get_concrete_function(x).graph
    calls = [op for op in graph.get_operations() if op.type.endswith("PartitionedCall")]
    assert [op.type for op in calls] == ["PartitionedCall", "PartitionedCall"]
    forward, backward = (graph.functions[op.get_attr("f").name] for op in calls)
    assert forward.name.startswith("__forward__cubes_")
    assert backward.name.startswith("__inference___backward__cubes_")
    assert calls[1].inputs[0].op is calls[0]  # it takes what the forward kept


def test_a_failing_call_under_a_tape_names_the_op_and_its_line():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reshape(x, [2, 3]) * 2.0

    reshape_line = f.python_function.__code__.co_firstlineno + 2
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Reshape") as info:
            f(x)
    assert f"line {reshape_line}" in str(info.value)


def test_repeated_recorded_calls_do_not_grow_objects():
    w = tf.Variable([1.0, 2.0])
    f = tf.function(lambda x: tf.reduce_sum(x * w))
    x = tf.constant([3.0, 4.0])

    def step():
        with tf.GradientTape() as tape:
            y = f(x)
        return tape.gradient(y, w)

    for _ in range(50):
        step()
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(1000):
        step()
    gc.collect()
    assert len(gc.get_objects()) - before < 50
