"""Optimizer updates of large variables: oneDNN's Adam and the NumPy kernels' kept
scratch buffers give the documented formulas' values."""
import numpy as np
import pytest

import eagerflow as tf
from tests.concurrency import in_threads
from tests.internals import needs_onednn, onednn, threads

# Above the sizes where the native Adam and the kept scratch buffers take over.
SHAPE = (300, 300)


@pytest.fixture(params=[True, False], ids=["onednn", "numpy"])
def path(request):
    if request.param and not onednn.enabled():
        pytest.skip("oneDNN is not available here")
    onednn.set_enabled(request.param)
    yield request.param
    onednn.set_enabled(None)


def _adam_reference(w, grads, lr=0.01, beta1=0.9, beta2=0.999, epsilon=1e-7):
    w, m, v = w.astype(np.float64), np.zeros_like(w, np.float64), np.zeros_like(w, np.float64)
    for t, g in enumerate(grads, 1):
        m += (g - m) * (1 - beta1)
        v += (g * g - v) * (1 - beta2)
        with np.errstate(invalid="ignore"):  # inf / inf where the gradient is infinite
            w -= lr * np.sqrt(1 - beta2 ** t) / (1 - beta1 ** t) * m / (np.sqrt(v) + epsilon)
    return w


def _data(seed=0, steps=3, shape=SHAPE):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(shape).astype(np.float32)
    return w, [rng.standard_normal(shape).astype(np.float32) * (t + 1) for t in range(steps)]


def _train_and_check(opt, data, reference):
    """Trains a variable per (initial value, gradients) pair of `data` with `opt`, each step
    updating all of them, and checks each against ``reference(initial value, gradients)``."""
    variables = [tf.Variable(w) for w, _ in data]
    for t in range(len(data[0][1])):
        opt.apply_gradients([(tf.constant(grads[t]), var)
                             for var, (_, grads) in zip(variables, data)])
    for var, (w, grads) in zip(variables, data):
        np.testing.assert_allclose(var.numpy(), reference(w, grads), rtol=1e-5, atol=1e-6)


@pytest.fixture
def chunk_counts(monkeypatch):
    """The part counts of the updates split over the threads, with a budget of two and the
    cores taken as idle whatever other processes do."""
    monkeypatch.setattr(threads, "budget", lambda: 2)
    monkeypatch.setattr(threads, "_look", lambda: None)
    monkeypatch.setattr(threads, "contended", False)
    parts, run_in_chunks = [], threads.in_chunks
    monkeypatch.setattr(threads, "in_chunks",
                        lambda count, run: parts.append(count) or run_in_chunks(count, run))
    return parts


def test_keras_adam_matches_the_formula(path):
    _train_and_check(tf.keras.optimizers.Adam(0.01), [_data()], _adam_reference)


def test_adam_in_a_function_keeps_earlier_reads(path):
    w, grads = _data(1)
    var = tf.Variable(w)
    opt = tf.keras.optimizers.Adam(0.01)

    @tf.function
    def step(g):
        before = var.read_value()
        opt.apply_gradients([(g, var)])
        return before

    before = step(tf.constant(grads[0]))
    np.testing.assert_array_equal(before.numpy(), w)
    np.testing.assert_allclose(var.numpy(), _adam_reference(w, grads[:1]), rtol=1e-5,
                               atol=1e-6)


def test_non_finite_gradients_spread_as_in_numpy(path):
    w, grads = _data(2, steps=1)
    grads[0][0, :3] = np.nan, np.inf, -np.inf
    var = tf.Variable(w)
    tf.keras.optimizers.Adam(0.01).apply_gradients([(tf.constant(grads[0]), var)])
    out = var.numpy()
    assert np.isnan(out[0, :3]).all()  # inf/inf in the step
    np.testing.assert_allclose(out[1:], _adam_reference(w, grads)[1:], rtol=1e-5, atol=1e-6)


def _v1_session_trained(make_optimizer, w, grads):
    """`w` trained on `grads` by a TF 1 optimizer's apply_gradients run in a Session."""
    v1 = tf.compat.v1
    g = v1.Graph()
    with g.as_default():
        var = v1.Variable(w)
        grad = v1.placeholder(tf.float32, SHAPE)
        train = make_optimizer().apply_gradients([(grad, var)])
        init = v1.global_variables_initializer()
    with v1.Session(graph=g) as sess:
        sess.run(init)
        for step_grad in grads:
            sess.run(train, {grad: step_grad})
        return sess.run(var)


def test_v1_session_adam_matches_the_formula(path):
    w, grads = _data(3)
    out = _v1_session_trained(lambda: tf.compat.v1.train.AdamOptimizer(0.01, epsilon=1e-7),
                              w, grads)
    np.testing.assert_allclose(out, _adam_reference(w, grads), rtol=1e-5, atol=1e-6)


def _check_native_and_numpy_agree(make_optimizer, w, grads):
    """Trains `w` on `grads` with oneDNN's updates and with NumPy's: the variable and
    every slot agree within float32 rounding."""
    results = []
    for flag in (True, False):
        onednn.set_enabled(flag)
        try:
            var = tf.Variable(w)
            opt = make_optimizer()
            for g in grads:
                opt.apply_gradients([(tf.constant(g), var)])
            results.append((var.numpy(), *(s.numpy() for s in opt.variables[1:])))
        finally:
            onednn.set_enabled(None)
    for native, numpy_ in zip(*results):
        np.testing.assert_allclose(native, numpy_, rtol=2e-6, atol=1e-7)


@needs_onednn
def test_native_and_numpy_adam_agree():
    _check_native_and_numpy_agree(lambda: tf.keras.optimizers.Adam(0.01), *_data(4, steps=5))


def _rmsprop_reference(w, grads, lr=0.01, rho=0.9, epsilon=1e-7):
    w, ms = w.astype(np.float64), np.zeros_like(w, np.float64)
    for g in grads:
        ms = rho * ms + (1 - rho) * g * g
        w -= lr * g / np.sqrt(ms + epsilon)
    return w


def test_scratch_buffers_serve_variables_of_any_size(path):
    # updates of variables of growing and shrinking sizes reuse the same buffers
    shapes = [(200, 200), (400, 300), (180, 190), (300, 300)]
    data = [_data(10 + i, steps=2, shape=s) for i, s in enumerate(shapes)]
    _train_and_check(tf.keras.optimizers.RMSprop(0.01), data, _rmsprop_reference)


def test_threads_updating_at_once(path):
    def train(seed):
        _train_and_check(tf.keras.optimizers.Adam(0.01), [_data(seed, shape=(200 + seed, 300))],
                         _adam_reference)

    in_threads(train, [(s,) for s in range(4)], repeat=3)


@needs_onednn
def test_a_large_variable_is_updated_in_parts_on_idle_threads(chunk_counts):
    data = [_data(5, shape=(701, 301))]
    _train_and_check(tf.keras.optimizers.Adam(0.01), data, _adam_reference)
    assert chunk_counts == [2] * len(data[0][1])


@pytest.mark.parametrize("shape", [(), (0,), (0, 5), (7,), (32767,), (32768,), (97, 131),
                                   (2, 3, 4099), (2, 3, 8193)])
def test_adam_of_any_size_matches_the_formula(path, shape):
    _train_and_check(tf.keras.optimizers.Adam(0.01), [_data(6, steps=3, shape=shape)],
                     _adam_reference)


def test_adam_of_variables_of_one_size_in_turn(path):
    # two variables (and their slots) of one size take turns on the same native update
    data = [_data(7 + i, steps=3, shape=(240, 180)) for i in range(2)]
    _train_and_check(tf.keras.optimizers.Adam(0.01), data, _adam_reference)


def test_raw_adam_with_a_transposed_gradient_and_changing_hyperparameters(path):
    rng = np.random.default_rng(8)
    w = rng.standard_normal((200, 200)).astype(np.float32)
    var, m, v = tf.Variable(w), tf.Variable(tf.zeros_like(w)), tf.Variable(tf.zeros_like(w))
    ref_w, ref_m, ref_v = (a.astype(np.float64) for a in (w, np.zeros_like(w), np.zeros_like(w)))
    for t, (lr, beta1, beta2, epsilon) in enumerate(
            [(0.01, 0.9, 0.999, 1e-7), (0.1, 0.5, 0.9, 1e-3), (0.001, 0.0, 0.5, 0.0)], 1):
        g = rng.standard_normal((200, 200)).astype(np.float32)
        tf.raw_ops.ResourceApplyAdam(
            var=var.handle, m=m.handle, v=v.handle, beta1_power=beta1 ** t,
            beta2_power=beta2 ** t, lr=lr, beta1=beta1, beta2=beta2, epsilon=epsilon,
            grad=tf.transpose(tf.constant(g)))
        g = g.T.astype(np.float64)
        ref_m += (g - ref_m) * (1 - beta1)
        ref_v += (g * g - ref_v) * (1 - beta2)
        alpha = lr * np.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        ref_w -= alpha * ref_m / (np.sqrt(ref_v) + epsilon)
    for got, want in ((var, ref_w), (m, ref_m), (v, ref_v)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-6)


def _rmsprop_momentum_reference(w, grads, lr=0.01, rho=0.9, momentum=0.9, epsilon=1e-7,
                                initial=0.0):
    w, ms = w.astype(np.float64), np.full_like(w, initial, np.float64)
    mom = np.zeros_like(w)
    for g in grads:
        ms = rho * ms + (1 - rho) * g * g
        mom = momentum * mom + lr * g / np.sqrt(ms + epsilon)
        w -= mom
    return w


def _adagrad_reference(w, grads, lr=0.01, initial=0.1, epsilon=1e-7):
    w, accum = w.astype(np.float64), np.full_like(w, initial, np.float64)
    for g in grads:
        accum += g * g
        w -= lr * g / np.sqrt(accum + epsilon)
    return w


def _momentum_reference(w, grads, lr=0.01, momentum=0.9):
    w, m = w.astype(np.float64), np.zeros_like(w, np.float64)
    for g in grads:
        m = momentum * m - lr * g
        w += m
    return w


def _sgd_reference(w, grads, lr=0.01):
    w = w.astype(np.float64)
    for g in grads:
        w -= lr * g
    return w


def _adamw_reference(w, grads, lr=0.01, weight_decay=0.05, beta1=0.9, beta2=0.999,
                     epsilon=1e-7):
    w, m, v = w.astype(np.float64), np.zeros_like(w, np.float64), np.zeros_like(w, np.float64)
    for t, g in enumerate(grads, 1):
        w -= w * weight_decay * lr
        m += (g - m) * (1 - beta1)
        v += (g * g - v) * (1 - beta2)
        w -= lr * np.sqrt(1 - beta2 ** t) / (1 - beta1 ** t) * m / (np.sqrt(v) + epsilon)
    return w


OPTIMIZERS = {
    "rmsprop": (lambda: tf.keras.optimizers.RMSprop(0.01), _rmsprop_reference),
    "rmsprop_momentum": (lambda: tf.keras.optimizers.RMSprop(0.01, momentum=0.9),
                         _rmsprop_momentum_reference),
    "adagrad": (lambda: tf.keras.optimizers.Adagrad(0.01), _adagrad_reference),
    "momentum": (lambda: tf.keras.optimizers.SGD(0.01, momentum=0.9), _momentum_reference),
    "sgd": (lambda: tf.keras.optimizers.SGD(0.01), _sgd_reference),
    "adamw": (lambda: tf.keras.optimizers.AdamW(0.01, weight_decay=0.05), _adamw_reference),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
@pytest.mark.parametrize("shape", [(), (0, 3), (97, 131), (701, 301)])
def test_keras_optimizers_match_their_formulas(path, name, shape):
    make, reference = OPTIMIZERS[name]
    _train_and_check(make(), [_data(9, steps=3, shape=shape)], reference)


@needs_onednn
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_native_and_numpy_optimizers_agree(name):
    _check_native_and_numpy_agree(OPTIMIZERS[name][0], *_data(10, steps=4, shape=(701, 301)))


def test_v1_rmsprop_with_momentum_matches_the_formula(path):
    w, grads = _data(11)
    out = _v1_session_trained(lambda: tf.compat.v1.train.RMSPropOptimizer(
        0.01, decay=0.9, momentum=0.9, epsilon=1e-7), w, grads)
    # (TF 1's mean square starts at one)
    np.testing.assert_allclose(out, _rmsprop_momentum_reference(w, grads, initial=1.0),
                               rtol=1e-5, atol=1e-6)


@needs_onednn
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_other_optimizers_update_in_parts_on_idle_threads(chunk_counts, name):
    make, reference = OPTIMIZERS[name]
    _train_and_check(make(), [_data(12, shape=(701, 301))], reference)
    assert chunk_counts and set(chunk_counts) == {2}
