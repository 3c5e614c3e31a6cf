"""GradientTape semantics (the eager guide's examples and TF's rules)."""
import gc
import threading

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import context


def test_guide_w_times_w():
    w = tf.Variable([[1.0]])
    with tf.GradientTape() as tape:
        loss = w * w
    grad = tape.gradient(loss, w)
    assert repr(grad) == "<tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[2.]], " \
                         "dtype=float32)>"


def test_guide_persistent_tape():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        z = y * y
    assert g.gradient(z, x).numpy() == 108.0
    assert g.gradient(y, x).numpy() == 6.0
    del g


def test_non_persistent_tape_is_one_shot():
    x = tf.constant(3.0)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    g.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used"):
        g.gradient(y, x)


def test_constants_need_watch_and_variables_are_auto_watched():
    x = tf.constant(2.0)
    v = tf.Variable(3.0)
    frozen = tf.Variable(4.0, trainable=False)
    with tf.GradientTape() as g:
        y = x * v * frozen
    dx, dv, dfrozen = g.gradient(y, [x, v, frozen])
    assert dx is None and dv.numpy() == 8.0 and dfrozen is None
    assert g.watched_variables() == (v,)


def test_watch_accessed_variables_false():
    v = tf.Variable(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as g:
        y = v * v
    assert g.gradient(y, v) is None
    with tf.GradientTape(watch_accessed_variables=False) as g:
        g.watch(v)
        y = v * v
    assert g.gradient(y, v).numpy() == 6.0


def test_variable_replaced_by_tensor_is_no_longer_watched():
    x = tf.Variable(2.0)
    grads = []
    for _ in range(2):
        with tf.GradientTape() as g:
            y = x + 1
        grads.append(g.gradient(y, x))
        x = x + 1  # the classic slip: x is now a Tensor, which no tape watches
    assert grads[0].numpy() == 1.0 and grads[1] is None


def test_nested_structures_and_multiple_targets():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape() as g:
        out = {"p": a * b, "q": [a * a, b]}
    grads = g.gradient(out, {"x": a, "y": (b,)})
    assert grads["x"].numpy() == 4.0 and grads["y"][0].numpy() == 2.0


def test_unconnected_gradients():
    x, y = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as g:
        z = x * 2
    assert g.gradient(z, y) is None
    assert g.gradient(z, y, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() == 0.0
    assert g.gradient(z, y, unconnected_gradients="zero").numpy() == 0.0


def test_output_gradients_weight_targets():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    got = g.gradient(y, x, output_gradients=tf.constant([10.0, 100.0]))
    assert got.numpy().tolist() == [20.0, 400.0]


def test_output_gradients_shape_mismatch():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    with pytest.raises(tf.errors.InvalidArgumentError, match="shape of output_gradients"):
        g.gradient(y, x, output_gradients=tf.constant([1.0, 2.0, 3.0]))


def test_integer_sources_give_none(caplog):
    x = tf.constant(2)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    assert g.gradient(y, x) is None


def test_bad_sources_and_targets():
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * 2
    with pytest.raises(TypeError, match="sources must be tensors or variables"):
        g.gradient(y, 3.0)
    with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
        g.watch("a")


def test_stop_recording_and_reset():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        with g.stop_recording():
            y = x * x
        z = x * 3
    assert g.gradient(y, x) is None and g.gradient(z, x).numpy() == 3.0
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
        g.reset()
        g.watch(x)
        z = x * 5
    assert g.gradient(z, x).numpy() == 5.0
    assert context.get().recorders == ()  # a reset tape leaves nothing recording behind


def test_tapes_used_outside_their_block_raise_as_in_tf():
    x = tf.Variable(2.0)
    for call in (lambda t: t.gradient(x, x), lambda t: t.jacobian(x, x),
                 lambda t: t.batch_jacobian(tf.ones([2, 2]) * x, tf.ones([2, 2]))):
        with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used"):
            call(tf.GradientTape(persistent=True))  # never entered: it has no tape yet
    with pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not "):
        with tf.GradientTape().stop_recording():
            pass
    with tf.GradientTape(persistent=True) as g:
        y = x * 2
    for call in (g.reset, lambda: g.stop_recording().__enter__()):
        with pytest.raises(ValueError, match="^Tape is not recording.$"):
            call()
    for call in (g.gradient, g.jacobian):
        with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'foo'"):
            call(y, x, unconnected_gradients="foo")
    assert float(g.gradient(y, x)) == 2.0


def test_second_and_third_order():
    x = tf.Variable(2.0)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = x * x * x
            dy = t1.gradient(y, x)
        d2y = t2.gradient(dy, x)
    d3y = t3.gradient(d2y, x)
    assert (dy.numpy(), d2y.numpy(), d3y.numpy()) == (12.0, 12.0, 6.0)


def test_broadcast_gradients_reduce_to_input_shape():
    x = tf.Variable(np.ones((2, 3), np.float32))
    b = tf.Variable(np.ones((3,), np.float32))
    s = tf.Variable(2.0)
    with tf.GradientTape() as g:
        y = tf.reduce_sum(x * b * s + b)
    dx, db, ds = g.gradient(y, [x, b, s])
    assert dx.shape == (2, 3) and db.numpy().tolist() == [6.0, 6.0, 6.0] and ds.numpy() == 6.0


def test_tapes_are_per_thread():
    x = tf.constant(1.0)
    seen = []

    def other():
        seen.append(x * 5)  # runs while the main thread's tape records: not seen by it

    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        t = threading.Thread(target=other)
        t.start()
        t.join()
        y = x * 2
    assert g.gradient(seen[0], x) is None
    assert g.gradient(y, x).numpy() == 2.0


def test_unwatched_ops_are_not_recorded():
    x = tf.constant(1.0)
    with tf.GradientTape() as g:
        for _ in range(10):
            x * 2.0
    assert g._recorder.entries == []


def test_tape_memory_is_released():
    v = tf.Variable(np.ones(4, np.float32))

    def steps(n):
        for _ in range(n):
            with tf.GradientTape() as g:
                loss = tf.reduce_sum(v * v)
            g.gradient(loss, v)
        gc.collect()
        return len(gc.get_objects())

    before = steps(5)  # the first steps fill one-time caches (isinstance checks, ...)
    grown = steps(200) - before
    assert grown < 20


def test_jacobian_matches_finite_structure():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        z = tf.matmul(x, x)
    jy = g.jacobian(y, x)
    assert jy.shape == (2, 2, 2, 2)
    np.testing.assert_allclose(tf.reshape(jy, [4, 4]).numpy(), np.diag([2.0, 4.0, 6.0, 8.0]))
    jz = g.jacobian(z, x).numpy()
    # dz[i,k]/dx[a,b] = delta_ia x[b,k] + x[i,a] delta_kb
    xv = x.numpy()
    want = np.einsum("ia,bk->ikab", np.eye(2), xv) + np.einsum("ia,kb->ikab", xv, np.eye(2))
    np.testing.assert_allclose(jz, want)
    assert g.jacobian(y, tf.constant(1.0)) is None


def test_batch_jacobian():
    x = tf.constant(np.arange(6.0, dtype=np.float32).reshape(3, 2))
    w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.matmul(x, w)  # (3, 3): each row depends on its own x row only
    bj = g.batch_jacobian(y, x)
    assert bj.shape == (3, 3, 2)
    np.testing.assert_allclose(bj.numpy(), np.broadcast_to(w.numpy().T, (3, 3, 2)))
    with pytest.raises(RuntimeError):
        g.batch_jacobian(y, x)


def test_gradients_no_source_needs_are_not_computed():
    from tests.internals import context

    class Count:
        def __init__(self):
            self.ops = []

        def record(self, op, inputs, attrs, outputs):
            self.ops.append(op.name)

    x = tf.constant(np.ones((4, 3), np.float32))
    w = tf.Variable(np.ones((3, 2), np.float32))
    with tf.GradientTape() as g:
        y = tf.reduce_sum(tf.matmul(x, w) * x[:, :2])
    seen = Count()
    with context.recording(seen):
        dw = g.gradient(y, w)
    assert dw.shape == (3, 2)
    # one GEMM for dW; the data side (dX) of the matmul and of the product is skipped
    assert seen.ops.count("MatMul") == 1


def test_watched_variables_are_listed_in_creation_order():
    a, b, c = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b"), tf.Variable(3.0, name="c")
    with tf.GradientTape() as tape:
        c * a + b  # read c, a, b
    assert [v.name for v in tape.watched_variables()] == ["a:0", "b:0", "c:0"]
    with tf.GradientTape() as tape:
        for v in (b, c, a):
            tape.watch(v)
    assert [v.name for v in tape.watched_variables()] == ["a:0", "b:0", "c:0"]


def test_integer_sources_get_none_and_only_watching_them_is_logged(caplog, monkeypatch):
    from tests.internals import tape as tape_module
    monkeypatch.setattr(tape_module, "_warnings_given", {})
    i, v = tf.constant(3), tf.Variable(3)
    for _ in range(7):
        with tf.GradientTape() as tape:
            tape.watch(i)
            y = tf.cast(v, tf.float32) * tf.cast(i, tf.float32)
        assert tape.gradient(y, [i, v]) == [None, None]
    # the watch warning at most 5 times (as TF); integer sources once per dtype (TF is
    # silent), targets silently
    watched = "The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32"
    source = ("The dtype of the source tensor must be floating (e.g. tf.float32) when calling "
              "GradientTape.gradient, got tf.int32; its gradient is None.")
    assert [r.getMessage() for r in caplog.records] == [watched, source] + [watched] * 4


def test_gradients_of_integer_sources_are_none_without_a_warning(caplog, monkeypatch):
    from tests.internals import tape as tape_module
    monkeypatch.setattr(tape_module, "_warnings_given", {})
    with tf.compat.v1.Graph().as_default():
        k = tf.compat.v1.placeholder(tf.int32, [])
        x = tf.compat.v1.placeholder(tf.float32, [2])
        assert tf.compat.v1.gradients(tf.cast(k, tf.float32) * x, [k, x])[0] is None

    @tf.function
    def f(i):
        return tf.gradients(tf.cast(i, tf.float32) * 2.0, i)
    assert f(tf.constant(1)) == [None]
    assert not [r for r in caplog.records if "source tensor" in r.getMessage()]


def test_a_none_target_is_a_type_error():
    with tf.GradientTape() as tape:
        pass
    with pytest.raises(TypeError, match=r"^Argument `target` should be a list or nested "
                                        r"structure of Tensors, Variables or CompositeTensors "
                                        r"to be differentiated, but received None.$"):
        tape.gradient(None, tf.Variable(1.0))


# A target that is itself a source: its gradient includes the target's own incoming
# gradient, even when the tape never saw it (TF 2.21's values).
def test_variable_target_gets_its_identity_gradient():
    v0, v1 = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as t:
        result = v0
    g0, g1 = t.gradient(result, [v0, v1])
    assert g0.numpy() == 1.0 and g1 is None
    with tf.GradientTape() as t:
        pass
    assert t.gradient(v0, v0).numpy() == 1.0
    with tf.GradientTape() as t:
        result = v0
    assert [g.numpy() for g in t.gradient(result, [v0, v1],
                                           unconnected_gradients="zero")] == [1.0, 0.0]


def test_structured_targets_holding_variables():
    v0, v1 = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as t:
        y = v1 * 2.0
    g = t.gradient({"a": [v0], "b": y}, {"x": v0, "y": v1})
    assert (g["x"].numpy(), g["y"].numpy()) == (1.0, 2.0)
    with tf.GradientTape() as t:
        y = v0 * 1.0
    g0, g1 = t.gradient([v0, y], [v0, v1])  # the identity and the path through y add up
    assert g0.numpy() == 2.0 and g1 is None
    with tf.GradientTape() as t:
        pass
    assert [g.numpy() for g in t.gradient([v0, v0], [v0, v0])] == [2.0, 2.0]


def test_target_as_source_in_every_kind_of_tape():
    v = tf.Variable(2.0)
    w = tf.Variable([[1.0, 2.0]])
    frozen = tf.Variable(5.0, trainable=False)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(watch_accessed_variables=False) as t:
        pass
    assert t.gradient(v, v).numpy() == 1.0
    with tf.GradientTape() as t:
        pass
    assert t.gradient(frozen, frozen).numpy() == 1.0
    with tf.GradientTape() as t:
        pass
    np.testing.assert_array_equal(t.gradient(x, x).numpy(), [1.0, 1.0])
    with tf.GradientTape() as t:
        pass
    assert t.gradient(v, v, output_gradients=tf.constant(5.0)).numpy() == 5.0
    with tf.GradientTape(persistent=True) as t:
        y = v * v
    assert t.gradient(v, v).numpy() == 1.0 and t.gradient([v, y], v).numpy() == 5.0
    with tf.GradientTape() as t:
        pass
    np.testing.assert_array_equal(t.jacobian(w, w).numpy().reshape(2, 2), np.eye(2))
    with tf.GradientTape() as t:
        pass
    np.testing.assert_array_equal(t.batch_jacobian(w, w).numpy(), [np.eye(2)])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            result = v
        g = t1.gradient(result, v)
    assert g.numpy() == 1.0 and t2.gradient(g, v) is None

    @tf.function
    def step():
        with tf.GradientTape() as t:
            result = v
        return t.gradient(result, [v, frozen])
    g, none = step()
    assert g.numpy() == 1.0 and none is None


def test_target_as_source_repeatedly():
    v0, v1 = tf.Variable(2.0), tf.Variable(3.0)
    for _ in range(3):  # a repeated tape may run a compiled backward pass
        with tf.GradientTape() as t:
            y = v1 * v1
        g0, g1 = t.gradient([v0, y], [v0, v1])
        assert (g0.numpy(), g1.numpy()) == (1.0, 6.0)


def test_jacobian_of_a_known_target_by_a_source_of_dims_unknown_when_traced():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def jac(p):
        with tf.GradientTape(persistent=True) as t:
            t.watch(p)
            y = tf.gather(p, [2, 0])
            z = tf.constant([1.0, 2.0])
        return t.jacobian(y, p), t.jacobian(z, p, unconnected_gradients="zero")

    j, zeros = jac(tf.ones([4, 3]))
    want = np.zeros((2, 3, 4, 3), np.float32)
    for row, src in enumerate([2, 0]):
        for col in range(3):
            want[row, col, src, col] = 1.0
    np.testing.assert_array_equal(j.numpy(), want)
    np.testing.assert_array_equal(zeros.numpy(), np.zeros((2, 4, 3), np.float32))


def test_batch_jacobian_by_a_source_of_dims_unknown_when_traced():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def jac(p):
        with tf.GradientTape(persistent=True) as t:
            t.watch(p)
            y = tf.reshape(p, [4, 3]) * 2.0
            z = tf.ones([4, 2])
        return t.batch_jacobian(y, p), t.batch_jacobian(z, p, unconnected_gradients="zero")

    j, zeros = jac(tf.ones([4, 3]))
    np.testing.assert_array_equal(j.numpy(), np.broadcast_to(2 * np.eye(3), (4, 3, 3)))
    np.testing.assert_array_equal(zeros.numpy(), np.zeros((4, 2, 3), np.float32))


def _weighted_gradient(fn, output_gradients, x=(1.0, 2.0, 3.0)):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x, output_gradients=output_gradients)


def test_a_scalar_output_gradient_flows_as_it_is_as_in_tf():
    # TF does not broadcast it first: each op's gradient does, as its arithmetic does
    g = _weighted_gradient(lambda x: x * 2.0, tf.constant(3.0))
    assert g.shape == () and float(g) == 6.0
    g = _weighted_gradient(lambda x: x * 2.0, 3.0)
    assert g.shape == () and float(g) == 6.0
    g = _weighted_gradient(tf.square, [tf.constant(2.0)])
    assert g.numpy().tolist() == [4.0, 8.0, 12.0]
    g = _weighted_gradient(lambda x: x * tf.ones([2, 3]), tf.constant(2.0))
    assert g.numpy().tolist() == [4.0, 4.0, 4.0]
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = v * 3.0
    g = tape.gradient(y, v, output_gradients=tf.constant(2.0))
    assert g.shape == () and float(g) == 6.0

    @tf.function
    def weighted(w):
        return _weighted_gradient(lambda x: x * 2.0, w)

    assert float(weighted(tf.constant(3.0))) == 6.0


def test_output_gradients_of_another_dtype_or_none_fail_as_in_tf():
    for w in (tf.constant(3), 3, tf.constant(3.0, tf.float64), np.array([1.0, 2.0, 3.0])):
        with pytest.raises(tf.errors.InvalidArgumentError):
            _weighted_gradient(lambda x: x * 2.0, w)
    with pytest.raises(ValueError, match="Attempt to convert a value \\(None\\)"):
        _weighted_gradient(lambda x: x * 2.0, [None])


def test_watch_while_no_tape_records_watches_nothing():
    x = tf.constant([1.0, 2.0])
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape(watch_accessed_variables=False) as t:
        with t.stop_recording():
            t.watch([x, v])  # no tape records here: ignored, as in TF
        y = x * v
    assert t.gradient(y, [x, v]) == [None, None]
    # another tape recording: the watch holds
    with tf.GradientTape() as outer:
        with tf.GradientTape() as t:
            with t.stop_recording():
                t.watch(x)
            y = x * x
        np.testing.assert_allclose(t.gradient(y, x), [2.0, 4.0])
    # between two blocks of a persistent tape: ignored too
    t = tf.GradientTape(persistent=True)
    with t:
        pass
    t.watch(x)
    with t:
        y = x * x
    assert t.gradient(y, x) is None
    # what is not a tensor raises all the same, printed as str() prints it
    with pytest.raises(ValueError, match=r"^Passed in object abc of type 'str', not tf\.Tensor"):
        t.watch("abc")


def test_ops_reading_only_integer_watched_tensors_are_not_recorded():
    x = tf.constant([3.0, 1.0, 3.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        i = tf.math.top_k(x, 2).indices  # an integer output of a recorded op
        doubled = i * 2
        counts = tf.math.bincount(tf.unique(x).idx)
        mixed = tf.cast(tf.argsort(x), tf.float32) * tf.sort(x)
    # as in TF: no gradient reaches x through integers (None, not zeros or an error)
    assert t.gradient(doubled, x) is None
    assert t.gradient(counts, x) is None
    np.testing.assert_allclose(t.gradient(mixed, x), [0.0, 1.0, 2.0])
    n = tf.constant([1, 2])
    with tf.GradientTape() as t:
        t.watch(n)
        y = n * 2
    assert t.gradient(y, n) is None


@pytest.mark.parametrize("use_pfor", [True, False])
def test_jacobian_of_an_empty_target_is_empty_zeros_for_connected_sources(use_pfor):
    # TF 2.21: zeros shaped target + source in the source's dtype; None for an unconnected
    # source (zeros with unconnected_gradients='zero')
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    u = tf.constant([1.0, 2.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, u])
        y = tf.zeros([0, 2]) + tf.reduce_sum(x)
    jx, ju = tape.jacobian(y, [x, u], experimental_use_pfor=use_pfor)
    assert jx.shape == [0, 2, 2, 2] and jx.dtype == tf.float32
    assert ju is None
    ju = tape.jacobian(y, u, unconnected_gradients="zero", experimental_use_pfor=use_pfor)
    assert ju.shape == [0, 2, 2] and ju.dtype == tf.float64


def test_jacobian_in_a_function_of_unknown_batch_called_with_an_empty_one():
    # TF 2.21: shape (0, 2, 0, 2); (3, 2, 3, 2) with the batch's identity times two
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def f(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = a * 2.0
        return tape.jacobian(y, a)

    assert f(tf.zeros([0, 2])).shape == [0, 2, 0, 2]
    full = f(tf.ones([3, 2])).numpy()
    assert full.shape == (3, 2, 3, 2)
    np.testing.assert_array_equal(full.reshape(6, 6), 2 * np.eye(6))
