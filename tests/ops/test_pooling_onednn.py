"""Pooling on oneDNN: values and gradients equal to the NumPy kernels'."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from tests.concurrency import in_threads
from tests.internals import needs_onednn, onednn


def _pool(x, average, ksize, strides, padding, data_format):
    nd = x.ndim - 2
    if nd == 2:
        fn = tf.nn.avg_pool2d if average else tf.nn.max_pool2d
    else:
        fn = tf.nn.avg_pool3d if average else tf.nn.max_pool3d
    return fn(x, ksize, strides, padding, data_format=data_format)


def _value_and_gradient(x, dy, pool):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = pool(x)
    return y.numpy(), tape.gradient(y, x, output_gradients=tf.constant(dy)).numpy()


def _both_paths(x, pool, dy=None):
    """(value, gradient) of `pool` on oneDNN and on NumPy."""
    results = []
    for flag in (True, False):
        onednn.set_enabled(flag)
        try:
            y = pool(tf.constant(x)).numpy()
            out = dy if dy is not None else np.random.default_rng(1).standard_normal(
                y.shape).astype(np.float32)
            results.append(_value_and_gradient(x, out, pool))
        finally:
            onednn.set_enabled(None)
    return results


def _channels_first(shape):
    return (shape[0], shape[-1], *shape[1:-1])


@needs_onednn
@settings(max_examples=60, deadline=None)
@given(nd=st.sampled_from([2, 3]), data=st.data(), average=st.booleans(),
       padding=st.sampled_from(["SAME", "VALID"]), channels_first=st.booleans())
def test_pooling_matches_numpy(nd, data, average, padding, channels_first):
    sizes = data.draw(st.lists(st.integers(1, 7), min_size=nd, max_size=nd))
    ksize = data.draw(st.lists(st.integers(1, 4), min_size=nd, max_size=nd))
    strides = data.draw(st.lists(st.integers(1, 3), min_size=nd, max_size=nd))
    if padding == "VALID":
        sizes = [max(s, k) for s, k in zip(sizes, ksize)]
    shape = (data.draw(st.integers(1, 3)), *sizes, data.draw(st.integers(1, 5)))
    data_format = "NHWC" if nd == 2 else "NDHWC"
    if channels_first:
        shape, data_format = _channels_first(shape), "NCHW" if nd == 2 else "NCDHW"
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    if data.draw(st.booleans()):  # ties: a window's maximum several times over
        x = np.round(x)
    (y1, g1), (y2, g2) = _both_paths(
        x, lambda v: _pool(v, average, ksize, strides, padding, data_format))
    np.testing.assert_allclose(y1, y2, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(g1, g2, rtol=1e-5, atol=1e-6)


@needs_onednn
@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_explicit_padding_matches_numpy(average, data_format):
    x = np.random.default_rng(2).standard_normal((2, 6, 5, 3)).astype(np.float32)
    paddings = [[0, 0], [1, 2], [2, 0], [0, 0]]
    if data_format == "NCHW":
        x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
        paddings = [[0, 0], [0, 0], [1, 2], [2, 0]]
    fn = tf.nn.avg_pool2d if average else tf.nn.max_pool2d
    if average:  # TF's AvgPool takes no explicit paddings: the kernel does
        from tests.internals import conv_ops, dispatch
        def pool(v):
            return dispatch(conv_ops._AVG_POOL, (v,), {
                "ksize": [1, 3, 3, 1] if data_format == "NHWC" else [1, 1, 3, 3],
                "strides": [1, 2, 1, 1] if data_format == "NHWC" else [1, 1, 2, 1],
                "padding": "EXPLICIT", "data_format": data_format,
                "explicit_paddings": [p for pair in paddings for p in pair]})
    else:
        def pool(v):
            return fn(v, 3, (2, 1), paddings, data_format=data_format)
    (y1, g1), (y2, g2) = _both_paths(x, pool)
    np.testing.assert_allclose(y1, y2, rtol=1e-6)
    np.testing.assert_allclose(g1, g2, rtol=1e-5, atol=1e-6)


@needs_onednn
@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("padding, ksize, strides", [("VALID", 2, 2), ("SAME", 3, 1),
                                                     ("SAME", 3, 2)])
def test_non_finite_inputs_match_numpy(average, padding, ksize, strides):
    x = np.array([np.nan, 1, 1, np.nan, 2, 2, -np.inf, np.nan, 0, 0, np.inf, np.inf,
                  0, -0.0, np.nan, -np.inf], np.float32).reshape(1, 4, 4, 1)
    for case in (x, np.full_like(x, np.nan), np.full_like(x, -np.inf), np.zeros_like(x)):
        (y1, g1), (y2, g2) = _both_paths(
            case, lambda v: _pool(v, average, ksize, strides, padding, "NHWC"),
            dy=np.ones((1, 2, 2, 1) if strides == 2 else (1, 4, 4, 1), np.float32))
        np.testing.assert_allclose(y1, y2, rtol=1e-6)  # NaN where NaN
        np.testing.assert_allclose(g1, g2, rtol=1e-6)


def test_max_pool_gradient_goes_to_the_first_maximum(path):
    x = tf.zeros((1, 4, 4, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 3, 1, "SAME")
    expected = [[4, 2, 2, 0], [2, 1, 1, 0], [2, 1, 1, 0], [0, 0, 0, 0]]
    assert tape.gradient(y, x).numpy()[0, :, :, 0].tolist() == expected


def test_average_pool_same_excludes_the_padding(path):
    x = tf.reshape(tf.range(1.0, 10.0), (1, 3, 3, 1))
    y = tf.nn.avg_pool2d(x, 2, 2, "SAME")
    assert y.numpy().ravel().tolist() == [3.0, 4.5, 7.5, 9.0]


def test_in_a_function_with_unknown_batch(path):
    @tf.function(input_signature=[tf.TensorSpec([None, 6, 6, 2])])
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.nn.max_pool2d(x, 2, 2, "VALID") ** 2) + tf.reduce_sum(
                tf.nn.avg_pool2d(x, 3, 2, "SAME"))
        return y, tape.gradient(y, x)
    x = np.random.default_rng(3).standard_normal((3, 6, 6, 2)).astype(np.float32)
    y, g = step(tf.constant(x))
    onednn.set_enabled(False)
    y_ref, g_ref = step(tf.constant(x))
    np.testing.assert_allclose(y.numpy(), y_ref.numpy(), rtol=1e-5)
    np.testing.assert_allclose(g.numpy(), g_ref.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(0, 4, 4, 2), (2, 4, 4, 0), (2, 1, 1, 2)])
def test_empty_inputs_and_outputs(path, shape):
    x = tf.zeros(shape)
    for fn in (tf.nn.max_pool2d, tf.nn.avg_pool2d):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x, 2, 2, "VALID")
        assert y.shape == (shape[0], shape[1] // 2, shape[2] // 2, shape[3])
        assert tape.gradient(y, x).shape == shape


def test_half_precision_and_variables(path):
    v = tf.Variable(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.max_pool2d(v, 2, 2, "VALID"))
    assert tape.gradient(y, v).numpy().sum() == 4.0
    x = tf.constant(np.arange(16).reshape(1, 4, 4, 1), tf.bfloat16)
    assert tf.nn.avg_pool2d(x, 2, 2, "VALID").dtype == tf.bfloat16
    assert tf.nn.max_pool2d(x, 2, 2, "VALID").numpy().ravel().tolist() == [5, 7, 13, 15]


def test_several_threads(path):
    rng = np.random.default_rng(4)
    inputs = [rng.standard_normal((2, 8, 8, 3)).astype(np.float32) for _ in range(4)]
    expected = [tf.nn.max_pool2d(x, 3, 2, "SAME").numpy() for x in inputs]
    results = in_threads(lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME").numpy(),
                         [(x,) for x in inputs], repeat=20)
    for i in range(4):
        np.testing.assert_array_equal(results[i], expected[i])


# TensorFlow's routing of max pooling gradients (read off TF 2.21): MaxPoolGrad sends a
# window's gradient to its first element, passed on to each later one strictly greater
# (a NaN first keeps it); MaxPool3DGrad to every element within 1e-5 of the pooled value
# (an infinite one never); both MaxPoolGradGrad ops take the first element equal to it.
_MIXED = np.array([np.nan, 1, 1, np.nan, 2, 2, -np.inf, np.nan, 0, 0, np.inf, np.inf,
                   0, -0.0, np.nan, -np.inf], np.float32).reshape(1, 4, 4, 1)


def _gradient(pool, x, dy=None):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = pool(x)
    return tape.gradient(y, x, output_gradients=dy).numpy().ravel().tolist()


@pytest.mark.parametrize("x, ksize, strides, padding, expected", [
    (_MIXED, 2, 2, "VALID", [1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0]),
    (_MIXED, 3, 1, "SAME", [4, 0, 1, 0, 1, 1, 0, 0, 1, 0, 8, 0, 0, 0, 0, 0]),
    (_MIXED, 3, 2, "SAME", [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0]),
    (np.full((1, 4, 4, 1), np.nan, np.float32), 3, 1, "SAME",
     [4, 2, 2, 0, 2, 1, 1, 0, 2, 1, 1, 0, 0, 0, 0, 0]),
    (np.full((1, 4, 4, 1), -np.inf, np.float32), 3, 1, "SAME",
     [4, 2, 2, 0, 2, 1, 1, 0, 2, 1, 1, 0, 0, 0, 0, 0]),
])
def test_max_pool_gradient_routes_non_finite_windows_as_tensorflow(path, x, ksize, strides,
                                                                   padding, expected):
    assert _gradient(lambda v: tf.nn.max_pool2d(v, ksize, strides, padding), x) == expected


def test_max_pool3d_gradient_goes_to_every_maximum(path):
    zeros = np.zeros((1, 3, 3, 3, 1), np.float32)
    assert _gradient(lambda v: tf.nn.max_pool3d(v, 2, 1, "VALID"), zeros) == [
        1, 2, 1, 2, 4, 2, 1, 2, 1, 2, 4, 2, 4, 8, 4, 2, 4, 2, 1, 2, 1, 2, 4, 2, 1, 2, 1]
    for values, expected in (([1, 1 + 3e-6, 0.5, 1 - 2e-5], [1, 1, 0, 0]),
                             ([np.inf, 2, np.nan, 1], [0, 0, 0, 0])):
        x = np.array(values, np.float32).reshape(1, 1, 2, 2, 1)
        assert _gradient(lambda v: tf.nn.max_pool3d(v, (1, 2, 2), 1, "VALID"), x) == expected


@pytest.mark.parametrize("nd", [2, 3])
def test_max_pool_second_derivative_takes_the_first_equal_element(path, nd):
    x = np.array([np.nan, 1, 2, 2], np.float32).reshape((1,) * (nd - 1) + (2, 2, 1))
    pool = tf.nn.max_pool2d if nd == 2 else tf.nn.max_pool3d
    ksize = 2 if nd == 2 else (1, 2, 2)
    x, dy = tf.constant(x), tf.ones((1,) * (nd + 1) + (1,))
    ddx = tf.reshape(tf.range(1.0, 5.0), x.shape)
    with tf.GradientTape() as outer:
        outer.watch(dy)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = pool(x, ksize, 1, "VALID")
        g = inner.gradient(y, x, output_gradients=dy)
    assert outer.gradient(g, dy, output_gradients=ddx).numpy().ravel().tolist() == [3.0]


@needs_onednn
@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("shape, ksize, strides, padding", [
    ((2, 9, 7, 3), 3, 2, "SAME"), ((1, 6, 6, 4), 2, 1, "VALID"), ((2, 5, 4, 6, 2), 2, 2, "SAME")])
def test_bfloat16_runs_natively_within_its_precision(average, shape, ksize, strides, padding):
    import ml_dtypes
    rng = np.random.default_rng(4)
    x = rng.standard_normal(shape).astype(ml_dtypes.bfloat16)
    data_format = "NHWC" if len(shape) == 4 else "NDHWC"
    pool = lambda t: _pool(t, average, ksize, strides, padding, data_format)  # noqa: E731
    y = pool(tf.constant(x)).numpy()
    dy = rng.standard_normal(y.shape).astype(ml_dtypes.bfloat16)
    onednn.clear_cache()
    (y1, g1), (y2, g2) = _both_paths(x, pool, dy)
    # (average pooling widens 16-bit floats to float32 around its kernel)
    assert any(k[0] == "pooling" and (average or k[-2] == x.dtype) and p is not None
               for k, p in list(onednn._cache.items()))
    assert y1.dtype == y2.dtype == g1.dtype == g2.dtype == x.dtype
    if not average:
        np.testing.assert_array_equal(y1, y2)  # a selection: exact
    for got, want in ((y1, y2), (g1, g2)):
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32),
                                   rtol=2e-2, atol=2e-2)
