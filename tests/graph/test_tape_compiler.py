"""Compiled backward passes: a repeated tape's gradient equals the eager one."""
import gc
import threading

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.internals import registry, tape_compiler
from tests.ops.specs import all_specs

GRAD_SPECS = [s for s in all_specs() if s.grad is True]

# Ops whose backward passes stay eager, and why.
PLAYED_EAGERLY = {}


@pytest.fixture(autouse=True)
def _fresh_cache():
    tape_compiler._cache.clear()
    yield
    tape_compiler._cache.clear()


def _program(entries_of, targets, sources):
    """The cache entry for this tape's structure (a count, a program, or the failure mark)."""
    key, _ = tape_compiler._structure(entries_of, targets, [None], sources)
    return tape_compiler._cache.get(key)


def _gradients(spec, args):
    tensors = [tf.constant(a) for a in args]
    wrt = [t for t, a in zip(tensors, args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(wrt)
        out = spec.fn(*tensors)
        outs = out if isinstance(out, (list, tuple)) else [out]
        loss = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64)) for o in outs
                         if o.dtype.is_floating])
    first = tape.gradient(loss, wrt)
    second = tape.gradient(loss, wrt)   # the same structure again: compiled
    return first, second, _program(tape._recorder.entries, [loss], wrt)


@pytest.mark.parametrize("spec", GRAD_SPECS, ids=lambda s: s.name)
def test_compiled_gradient_equals_eager(spec):
    if not any(isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in spec.args):
        pytest.skip("no floating input")
    out = spec.fn(*map(tf.constant, spec.args))
    if not any(o.dtype.is_floating for o in (out if isinstance(out, (list, tuple)) else [out])):
        pytest.skip("no floating output")
    first, second, program = _gradients(spec, spec.args)
    if spec.op in PLAYED_EAGERLY:
        assert program is tape_compiler._FAILED
    else:
        assert isinstance(program, tape_compiler._Program), program
    for a, b in zip(first, second):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(np.asarray(tf.convert_to_tensor(b)),
                                       np.asarray(tf.convert_to_tensor(a)), rtol=1e-6, atol=0)


def _twice(step):
    """`step()` run eagerly, then compiled (the second sighting of its structure)."""
    first = step()
    second = step()
    return first, second


def _close(a, b):
    for x, y in zip(tf.nest.flatten(a), tf.nest.flatten(b)):
        np.testing.assert_allclose(np.asarray(y), np.asarray(x), rtol=1e-6)


def _compiled_count():
    return sum(isinstance(p, tape_compiler._Program) for p in tape_compiler._cache.values())


def test_training_step_compiles_once_and_matches_eager():
    x = tf.constant(np.linspace(-1, 1, 50, dtype=np.float32))
    y = 3 * x + 2
    w, b = tf.Variable(5.0), tf.Variable(10.0)
    history = []
    for _ in range(4):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(x * w + b - y))
        dw, db = tape.gradient(loss, [w, b])
        history.append((dw.numpy(), db.numpy()))
        w.assign_sub(0.1 * dw)
        b.assign_sub(0.1 * db)
    assert _compiled_count() == 1
    # the same steps, played eagerly from the start
    tape_compiler._cache.clear()
    w.assign(5.0), b.assign(10.0)
    for dw_seen, db_seen in history:
        with tf.GradientTape(persistent=True) as tape:  # persistent: never the same key twice
            loss = tf.reduce_mean(tf.square(x * w + b - y))
        dw, db = tape.gradient(loss, [w, b])
        tape_compiler._cache.clear()
        np.testing.assert_allclose(dw_seen, dw.numpy(), rtol=1e-6)
        np.testing.assert_allclose(db_seen, db.numpy(), rtol=1e-6)
        w.assign_sub(0.1 * dw)
        b.assign_sub(0.1 * db)


def test_wiring_is_part_of_the_structure():
    a, b = tf.constant([1.0, 2.0]), tf.constant([5.0, 7.0])

    def grads(order):
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            p, q = (a, b) if order else (b, a)
            loss = tf.reduce_sum((p - q) * p)
        return tape.gradient(loss, [a, b])

    for order in (True, False, True, False):
        da, db = grads(order)
        p, q = (a.numpy(), b.numpy()) if order else (b.numpy(), a.numpy())
        dp, dq = 2 * p - q, -p
        expected = (dp, dq) if order else (dq, dp)
        np.testing.assert_allclose(da.numpy(), expected[0])
        np.testing.assert_allclose(db.numpy(), expected[1])
    assert _compiled_count() == 2


def test_shapes_and_dtypes_are_part_of_the_structure():
    for value in ([1.0, 2.0], [1.0, 2.0, 3.0], np.array([1.0, 2.0]), [1.0, 2.0], [4.0, 5.0, 6.0]):
        x = tf.constant(value)
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(x * x * x)
        g = tape.gradient(loss, x)
        assert g.dtype == x.dtype and g.shape == x.shape
        np.testing.assert_allclose(g.numpy(), 3 * np.square(np.asarray(value)), rtol=1e-6)
    assert _compiled_count() == 2  # float32 of 2 and of 3 elements; float64 seen once


def test_output_gradients_feed_the_program():
    x = tf.constant([1.0, 2.0, 3.0])
    for scale in (1.0, 2.0, 3.0):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        g = tape.gradient(y, x, output_gradients=tf.constant([scale, 0.0, 1.0]))
        np.testing.assert_allclose(g.numpy(), [2 * scale, 0.0, 6.0])
    assert _compiled_count() == 1


def test_higher_order_gradients_stay_eager_and_correct():
    x = tf.constant(3.0)
    for _ in range(3):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x * x * x
            dy = inner.gradient(y, x)
        assert float(dy) == 27.0
        assert float(outer.gradient(dy, x)) == 18.0


def test_persistent_tape_inside_its_context_records_its_gradients():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x * x
        g1 = tape.gradient(y, x)
        g2 = tape.gradient(y, x)
    assert float(g1) == float(g2) == 12.0
    assert float(tape.gradient(g2, x)) == 12.0


def test_custom_gradients_are_played_eagerly():
    @tf.custom_gradient
    def clipped(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -0.5, 0.5)

    x = tf.constant([1.0, 2.0])
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(clipped(x) * 3.0)
        np.testing.assert_allclose(tape.gradient(loss, x).numpy(), [0.5, 0.5])
    assert _compiled_count() == 0


def test_a_gradient_that_cannot_trace_is_played_eagerly(monkeypatch):
    sin = registry.get("Sin")
    # eager-only: reads a value while computing the gradient
    monkeypatch.setattr(sin, "grad", lambda op, dy: dy * float(np.cos(op.inputs[0].numpy())))
    x = tf.constant(0.5)
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x) * 2.0
        np.testing.assert_allclose(float(tape.gradient(y, x)), 2 * np.cos(0.5), rtol=1e-6)
    assert list(tape_compiler._cache.values()) == [tape_compiler._FAILED]


def test_jacobian_runs_one_program_for_every_row():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    jac = tape.jacobian(y, x)
    np.testing.assert_allclose(jac.numpy(), np.diag([2.0, 4.0, 6.0]))
    assert _compiled_count() == 1


def test_sparse_gradients_come_back_as_indexed_slices():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(v, [2, 0, 2]) * 2.0)
        g = tape.gradient(loss, v)
        assert isinstance(g, tf.IndexedSlices)
        np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), [[2, 2], [0, 0], [4, 4]])
    assert _compiled_count() == 1


def test_unconnected_and_intermediate_sources():
    x, z = tf.constant(2.0), tf.constant(5.0)
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch([x, z])
            h = x * x
            y = h * 3.0
        gx, gz, gh = tape.gradient(y, [x, z, h],
                                   unconnected_gradients=tf.UnconnectedGradients.ZERO)
        assert (float(gx), float(gz), float(gh)) == (12.0, 0.0, 3.0)
    assert _compiled_count() == 1


def test_the_cache_is_bounded():
    for n in range(tape_compiler._MAX_PROGRAMS + 10):
        x = tf.zeros([n + 1])
        for _ in range(2):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(x * 2.0)
            assert tape.gradient(y, x).shape == [n + 1]
    assert len(tape_compiler._cache) <= tape_compiler._MAX_PROGRAMS


def test_threads_share_programs_safely():
    errors_seen = []

    def work(k):
        try:
            x = tf.constant(np.full(8, float(k), np.float32))
            for _ in range(50):
                with tf.GradientTape() as tape:
                    tape.watch(x)
                    y = tf.reduce_sum(tf.sin(x) * x)
                g = tape.gradient(y, x).numpy()
                np.testing.assert_allclose(g, np.cos(k) * k + np.sin(k), rtol=1e-5)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors_seen.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors_seen


def test_compiled_steps_do_not_keep_objects_alive():
    x = tf.constant(np.ones(16, np.float32))
    w = tf.Variable(2.0)

    def steps(n):
        for _ in range(n):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(x * w)
            tape.gradient(loss, w)

    steps(50)
    gc.collect()
    before = len(gc.get_objects())
    steps(500)
    gc.collect()
    assert len(gc.get_objects()) - before < 50


def test_errors_inside_the_program_keep_their_class():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.linalg.inv(x))
        g = tape.gradient(y, x)
        assert np.all(np.isfinite(g.numpy()))
    assert _compiled_count() == 1
    with pytest.raises(errors.InvalidArgumentError):
        tf.linalg.inv(tf.zeros([2, 3]))


def test_unhashable_attrs_are_played_eagerly():
    from tests.internals import dispatch
    transpose = registry.get("Transpose")
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(dispatch(transpose, (x,), {"perm": [1, 0]}) * [[1.0, 2.0],
                                                                          [3.0, 4.0]])
        np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[1.0, 3.0], [2.0, 4.0]])
    assert not tape_compiler._cache
