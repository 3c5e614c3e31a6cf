"""Element-wise kernels on oneDNN (ReluGrad, BroadcastTo): values equal to the NumPy kernels' bit for bit."""
import numpy as np
import pytest

import eagerflow as tf
from tests.concurrency import in_threads
from tests.internals import onednn, registry

F32 = np.float32
LARGE = (64, 32, 32, 8)  # 2**19 elements: above the size where oneDNN takes over
SPECIAL = np.array([np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf, 1e-45, -1e-45, 1e-38, -2.5,
                    3.0, np.float32(3.4e38)], F32)


def _native_kinds():
    return {key[0] for key, primitive in list(onednn._cache.items()) if primitive is not None}


def _relu_gradient(x, dy):
    """The gradient of relu at `x` given the upstream `dy` (TF: dy * (relu(x) > 0))."""
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.relu(x)
    return tape.gradient(y, x, output_gradients=tf.constant(dy)).numpy()


def _expected(x, dy):
    with np.errstate(invalid="ignore"):
        return dy * (np.maximum(x, 0) > 0).astype(F32)  # relu(NaN) is NaN, and NaN > 0 False


def _special_arrays(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(LARGE).astype(F32)
    dy = rng.standard_normal(LARGE).astype(F32)
    # every pair of special values, at the start and scattered over the arrays
    n = SPECIAL.size
    pairs_x, pairs_dy = np.repeat(SPECIAL, n), np.tile(SPECIAL, n)
    flat_x, flat_dy = x.reshape(-1), dy.reshape(-1)
    flat_x[:n * n], flat_dy[:n * n] = pairs_x, pairs_dy
    spots = rng.choice(flat_x.size, 1000, replace=False)
    flat_x[spots], flat_dy[spots] = rng.choice(SPECIAL, 1000), rng.choice(SPECIAL, 1000)
    return x, dy


def test_relu_gradient_of_special_values_is_tensorflows_bit_for_bit(path):
    x, dy = _special_arrays()
    onednn.clear_cache()
    got = _relu_gradient(x, dy)
    assert ("relu_grad" in _native_kinds()) == path
    expected = _expected(x, dy)
    np.testing.assert_array_equal(got.view(np.int32), expected.view(np.int32))
    # TF's values: the gradient where relu's output is positive, 0 (times it) elsewhere
    n = SPECIAL.size
    table = got.reshape(-1)[:n * n].reshape(n, n)  # table[i, j]: x = SPECIAL[i], dy = SPECIAL[j]
    np.testing.assert_array_equal(table[SPECIAL > 0], np.tile(SPECIAL, ((SPECIAL > 0).sum(), 1)))
    assert np.isnan(table[:, 0]).all() and np.isnan(table[np.isnan(SPECIAL) | (SPECIAL <= 0), 4]).all()
    assert (table[np.isnan(SPECIAL), 2] == 0).all()  # NaN features: the mask is 0


def test_relu_gradient_in_a_function_equals_the_numpy_path():
    x, dy = _special_arrays(seed=1)

    @tf.function
    def grad(x, dy):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.relu(x * 2.0)
        return tape.gradient(y, x, output_gradients=dy)

    results = []
    for flag in (True, False):
        onednn.set_enabled(flag)
        try:
            results.append(grad(tf.constant(x), tf.constant(dy)).numpy())
        finally:
            onednn.set_enabled(None)
    np.testing.assert_array_equal(results[0].view(np.int32), results[1].view(np.int32))


@pytest.mark.parametrize("case", ["small", "transposed", "broadcast", "float64"])
def test_arrays_oneDNN_does_not_take_keep_the_numpy_kernel(path, case):
    x, dy = _special_arrays(seed=2)
    if case == "small":
        x, dy = x[:1, :2], dy[:1, :2]
    elif case == "transposed":
        x, dy = np.transpose(x, (3, 1, 2, 0)), np.transpose(dy, (3, 1, 2, 0))
    elif case == "float64":
        x, dy = x.astype(np.float64), dy.astype(np.float64)
    onednn.clear_cache()
    if case == "broadcast":  # dy a broadcast view: NumPy reads it as it is
        dy = np.broadcast_to(dy[:1], dy.shape)
    got = _relu_gradient(x, dy)
    assert "relu_grad" not in _native_kinds()
    np.testing.assert_array_equal(got, _expected(x, dy))


def test_switched_off_by_the_environment(monkeypatch):
    monkeypatch.setenv("TF_ENABLE_ONEDNN_OPTS", "0")
    onednn.clear_cache()
    x, dy = _special_arrays(seed=3)
    got = _relu_gradient(x, dy)
    assert "relu_grad" not in _native_kinds()
    np.testing.assert_array_equal(got.view(np.int32), _expected(x, dy).view(np.int32))


def test_threads_share_the_primitive(path):
    arrays = [_special_arrays(seed) for seed in range(4)]
    results = in_threads(_relu_gradient, arrays, repeat=3)
    for (x, dy), got in zip(arrays, results):
        np.testing.assert_array_equal(got.view(np.int32), _expected(x, dy).view(np.int32))


@pytest.mark.parametrize("into", ["gradients", "features"])
def test_relu_gradient_written_over_an_input_is_bit_for_bit(path, into):
    # what a compiled function does when one of them is a dead intermediate
    x, dy = _special_arrays(seed=4)
    expected = _expected(x, dy)
    g, f = dy.copy(), x.copy()
    out = g if into == "gradients" else f
    got = registry.get("ReluGrad").host_kernel(g, f, out=out)
    assert got is out
    np.testing.assert_array_equal(got.view(np.int32), expected.view(np.int32))
    # a small or float64 pair runs the NumPy kernel, in place as well
    g64, f64 = dy[:2, :3].astype(np.float64), x[:2, :3].astype(np.float64)
    got = registry.get("ReluGrad").host_kernel(g64, f64, out=g64)
    assert got is g64
    np.testing.assert_array_equal(got, _expected(x[:2, :3], dy[:2, :3]).astype(np.float64))


_BROADCASTS = [((64, 1, 1, 32), (64, 16, 16, 32)),  # a global average pooling's gradient
               ((32,), (300, 30, 32)), ((5, 1, 7), (3, 5, 9000, 7)), ((1, 300000), (2, 300000)),
               ((64, 1, 1, 1), (64, 16, 16, 32)), ((), (600, 500))]


@pytest.mark.parametrize("source, shape", _BROADCASTS)
def test_broadcast_to_large_arrays_equals_the_numpy_path(path, source, shape):
    rng = np.random.default_rng(6)
    x = rng.standard_normal(source).astype(F32)
    x.reshape(-1)[:SPECIAL.size] = SPECIAL[:x.size]
    onednn.clear_cache()
    got = tf.broadcast_to(tf.constant(x), shape)
    assert got.shape == shape and got.dtype == tf.float32
    # oneDNN copies when rows are read from the source (not a last axis broadcast)
    assert ("broadcast" in _native_kinds()) == (path and source[-1:] not in ((), (1,)))
    np.testing.assert_array_equal(got.numpy().view(np.int32),
                                  np.broadcast_to(x, shape).view(np.int32))


def test_broadcast_of_a_strided_source_and_in_a_function(path):
    x = np.random.default_rng(7).standard_normal((64, 2, 1, 64)).astype(F32)[:, ::2]
    got = registry.get("BroadcastTo").host_kernel(x, (64, 12, 12, 64))
    np.testing.assert_array_equal(got, np.broadcast_to(x, (64, 12, 12, 64)))
    grad = tf.function(lambda v: tf.broadcast_to(v, [64, 12, 12, 64]) * 1.0)
    got = grad(tf.constant(x)).numpy()
    np.testing.assert_array_equal(got, np.broadcast_to(x, (64, 12, 12, 64)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        tf.broadcast_to(tf.constant(x), [64, 12, 12, 63])
