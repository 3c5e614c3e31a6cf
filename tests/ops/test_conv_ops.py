"""Convolutions and pooling: TensorFlow's values, references, adjoints, errors, shape rules."""
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from eagerflow import errors, TensorShape
from tests.internals import conv_ops as c
from tests.op_errors import op_text
from tests.ops.specs.nn import (
    ref_conv, ref_conv_filter_grad, ref_conv_input_grad, ref_depthwise, ref_max_pool_grad_grad,
    ref_pool, ref_pool_grad, same_pads)

F32, F64 = np.float32, np.float64


def _rand(*shape, dtype=F64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _pads(padding, sizes, ksize, strides, dilations):
    if padding == "SAME":
        return same_pads(sizes, ksize, strides, dilations)
    if padding == "VALID":
        return [(0, 0)] * len(sizes)
    return padding


def _attr_padding(padding):
    return padding if isinstance(padding, str) else [[0, 0], *padding, [0, 0]]


# ----------------------------------------------------------------------------- TensorFlow values

# Inputs of the cases below, and outputs computed by TensorFlow 2 on CPU.
_X = (np.arange(1 * 4 * 5 * 2).reshape(1, 4, 5, 2) % 7 - 3).astype(F32)
_W = (np.arange(3 * 3 * 2 * 2).reshape(3, 3, 2, 2) % 5 - 2).astype(F32)
_XT = (np.arange(1 * 2 * 3 * 2).reshape(1, 2, 3, 2) % 5 - 2).astype(F32)
_WD = (np.arange(2 * 2 * 2 * 2).reshape(2, 2, 2, 2) % 3 - 1).astype(F32)
_X3 = (np.arange(1 * 2 * 2 * 3 * 2).reshape(1, 2, 2, 3, 2) % 5 - 2).astype(F32)
_W3 = (np.arange(2 * 3 * 2 * 1 * 2).reshape(2, 3, 2, 1, 2) % 3 - 1).astype(F32)

_TF_CASES = {
    "conv2d SAME stride 2": (lambda: tf.nn.conv2d(_X, _W, 2, "SAME"), [
        [[-1, 16], [21, 0], [-6, -7]], [[8, -8], [1, -6], [-9, 9]]]),
    "conv2d VALID dilation 2": (lambda: tf.nn.conv2d(_X, _W[:2], 1, "VALID", dilations=2), [
        [[7, 8]], [[-13, 1]]]),
    "conv2d explicit": (lambda: tf.nn.conv2d(_X, _W, [1, 2], [[0, 0], [1, 0], [0, 2], [0, 0]]), [
        [[-14, 4], [1, -7], [-2, -2]], [[21, -3], [-7, -4], [4, 4]],
        [[-14, 12], [21, -3], [-7, 2]]]),
    "conv2d_transpose": (lambda: tf.nn.conv2d_transpose(_XT, _W, [1, 4, 5, 2], 2), [
        [[-2, 2], [-5, 6], [-2, 0], [0, -3], [8, -2]],
        [[2, -4], [6, -3], [0, 2], [-3, 9], [-2, -2]],
        [[-6, 6], [-8, 2], [0, -2], [19, -9], [-4, 0]],
        [[1, -1], [4, -2], [-1, 5], [-5, 0], [2, -4]]]),
    "conv3d_transpose SAME": (lambda: tf.nn.conv3d_transpose(_X3, _W3, [1, 3, 4, 5, 1],
                                                         [1, 2, 2, 2, 1]), [
        [[2, -1, 0, -1, -2], [-1, 2, 1, 0, -2], [0, -2, -2, 0, 6], [0, 1, 2, -1, -1]],
        [[2, -1, 0, -1, -2], [-1, 2, 1, 0, -2], [0, -2, -2, 0, 6], [0, 1, 2, -1, -1]],
        [[0, -1, -2, 4, 1], [1, 0, -2, -2, 0], [-2, 0, 6, -3, -1], [2, -1, -1, 2, 1]]]),
    "conv3d_transpose VALID": (lambda: tf.nn.conv3d_transpose(_X3, _W3, [1, 3, 4, 6, 1],
                                                          [1, 1, 2], "VALID"), [
        [[2, -1, 0, -1, -2, 4], [0, 1, 0, -1, 0, -3], [-1, 0, 1, 0, 3, 0],
         [-1, 0, -1, 2, -1, -1]],
        [[2, -2, -2, 3, -1, 3], [0, 0, 0, -4, 0, -3], [0, 0, 4, 0, 3, 0], [-2, 2, -2, 1, -2, 0]],
        [[0, -1, -2, 4, 1, -1], [0, -1, 0, -3, 0, 0], [1, 0, 3, 0, 0, 0],
         [-1, 2, -1, -1, -1, 1]]]),
    "depthwise_conv2d": (lambda: tf.nn.depthwise_conv2d(_X, _WD, [1, 2, 2, 1], "SAME"), [
        [[1, -1, 1, 0], [-3, 6, 5, -4], [3, -1, -1, 3]],
        [[-5, -1, 0, 1], [5, -1, -3, -3], [3, 0, -2, 3]]]),
    "avg_pool2d SAME": (lambda: tf.nn.avg_pool2d(_X, [2, 3], [2, 2], "SAME"), [
        [[-0.5, 0.5], [1 / 6, 0], [0.25, -0.5]], [[0.25, -0.5], [1 / 3, 1 / 6], [-0.75, 0.25]]]),
    "max_pool2d SAME": (lambda: tf.nn.max_pool2d(_X, 3, [1, 2], "SAME"), [
        [[2, 3], [3, 3], [3, 2]], [[3, 3], [3, 3], [3, 3]], [[3, 3], [3, 3], [2, 3]],
        [[3, 2], [3, 3], [2, 3]]]),
    "conv2d_backprop_filter": (lambda: c.conv2d_backprop_filter(
        _X, [3, 3, 2, 2], tf.nn.conv2d(_X, _W, 2, "SAME"), [1, 2, 2, 1], "SAME"), [
        [[[-59, 9], [-10, 54]], [[87, -85], [45, -25]], [[50, -12], [-68, -10]]],
        [[[67, -17], [74, -21]], [[-74, -17], [-67, 29]], [[-17, 36], [12, 38]]],
        [[[-54, -14], [-39, -21]], [[15, 69], [36, -34]], [[44, -32], [64, -16]]]]),
}


@pytest.mark.parametrize("case", sorted(_TF_CASES))
def test_matches_tensorflow(case):
    fn, want = _TF_CASES[case]
    got = fn()
    assert got.dtype == tf.float32
    want = np.asarray(want, F32)
    np.testing.assert_allclose(got.numpy().reshape(want.shape[-3:] if want.ndim == 3 else
                                                   want.shape), want, rtol=1e-6, atol=1e-6)


# ----------------------------------------------------------------------------- references

_GEOMETRIES = [((s1, s2), (d1, d2), padding)
               for s1, s2 in [(1, 1), (2, 1), (3, 2)]
               for d1, d2 in [(1, 1), (2, 1)]
               for padding in ["SAME", "VALID", [(2, 0), (1, 3)]]]


@pytest.mark.parametrize("strides,dilations,padding", _GEOMETRIES)
@pytest.mark.parametrize("groups", [1, 2])
def test_conv2d_matches_reference(strides, dilations, padding, groups):
    x = _rand(2, 7, 6, 4)
    w = _rand(3, 2, 4 // groups, 4, seed=1)
    got = tf.nn.conv2d(x, w, list(strides), _attr_padding(padding), dilations=list(dilations))
    pads = _pads(padding, (7, 6), (3, 2), strides, dilations)
    np.testing.assert_allclose(got.numpy(), ref_conv(x, w, strides, dilations, pads), atol=1e-12)


@pytest.mark.parametrize("strides,dilations,padding", _GEOMETRIES)
def test_conv2d_transpose_matches_reference(strides, dilations, padding):
    x_shape = (2, 7, 6, 3)
    w = _rand(3, 2, 3, 4, seed=1)
    pads = _pads(padding, x_shape[1:3], (3, 2), strides, dilations)
    out_shape = ref_conv(np.zeros(x_shape), w, strides, dilations, pads).shape
    dy = _rand(*out_shape, seed=2)
    got = tf.nn.conv2d_transpose(dy, w, list(x_shape), list(strides), _attr_padding(padding),
                             dilations=list(dilations))
    np.testing.assert_allclose(got.numpy(),
                               ref_conv_input_grad(dy, w, x_shape, strides, dilations, pads),
                               atol=1e-12)


@pytest.mark.parametrize("strides,dilations,padding", [
    ((1, 1, 1), (1, 1, 1), "SAME"), ((2, 1, 3), (1, 1, 1), "SAME"), ((2, 2, 1), (1, 1, 1), "VALID"),
    ((1, 1, 1), (2, 1, 2), "SAME"), ((1, 1, 1), (1, 2, 1), "VALID")])
@pytest.mark.parametrize("channels_first", [False, True])
def test_conv3d_transpose_matches_reference(strides, dilations, padding, channels_first):
    x_shape = (2, 5, 4, 6, 3)
    w = _rand(3, 2, 2, 3, 4, seed=1)
    pads = _pads(padding, x_shape[1:4], (3, 2, 2), strides, dilations)
    dy = _rand(*ref_conv(np.zeros(x_shape), w, strides, dilations, pads).shape, seed=2)
    want = ref_conv_input_grad(dy, w, x_shape, strides, dilations, pads)
    if channels_first:  # (in float32: TF's CPU refuses NCDHW in float64)
        got = tf.nn.conv3d_transpose(_nchw(dy).astype(F32), w.astype(F32),
                                 list(_nchw(np.zeros(x_shape)).shape), list(strides), padding,
                                 "NCDHW", list(dilations))
        np.testing.assert_allclose(np.moveaxis(got.numpy(), 1, -1), want, rtol=1e-5, atol=1e-4)
    else:
        got = tf.nn.conv3d_transpose(dy, w, list(x_shape), list(strides), padding,
                                 dilations=list(dilations))
        np.testing.assert_allclose(got.numpy(), want, atol=1e-12)


def test_conv3d_transpose_is_conv3d_input_gradient():
    x, w = tf.constant(_rand(1, 4, 5, 3, 2)), tf.constant(_rand(2, 3, 2, 2, 3, seed=1))
    dy = tf.constant(_rand(1, 2, 3, 2, 3, seed=2))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv3d(x, w, [1, 2, 2, 2, 1], "SAME")
    np.testing.assert_allclose(
        tape.gradient(y, x, output_gradients=dy).numpy(),
        tf.nn.conv3d_transpose(dy, w, x.shape, 2).numpy(), atol=1e-12)
    assert tf.nn.conv3d_transpose is c.conv3d_transpose


@pytest.mark.parametrize("strides,dilations,padding", _GEOMETRIES)
def test_conv2d_backprop_filter_matches_reference(strides, dilations, padding):
    x = _rand(2, 7, 6, 4)
    pads = _pads(padding, (7, 6), (3, 2), strides, dilations)
    out_shape = ref_conv(x, np.zeros((3, 2, 2, 6)), strides, dilations, pads).shape
    dy = _rand(*out_shape, seed=2)
    got = c.conv2d_backprop_filter(x, [3, 2, 2, 6], dy, [1, *strides, 1],
                                   _attr_padding(padding), dilations=[1, *dilations, 1])
    np.testing.assert_allclose(
        got.numpy(), ref_conv_filter_grad(x, dy, (3, 2, 2, 6), strides, dilations, pads),
        atol=1e-11)


@pytest.mark.parametrize("strides,dilations,padding", _GEOMETRIES)
def test_depthwise_matches_reference(strides, dilations, padding):
    x, w = _rand(1, 6, 7, 3), _rand(2, 3, 3, 2, seed=1)
    # (the op itself: tf.nn.depthwise_conv2d strides a dilated input's grids instead)
    explicit = not isinstance(padding, str)
    got = tf.raw_ops.DepthwiseConv2dNative(
        input=x, filter=w, strides=[1, *strides, 1], padding="EXPLICIT" if explicit else padding,
        explicit_paddings=np.ravel(_attr_padding(padding)).tolist() if explicit else [],
        dilations=[1, *dilations, 1])
    pads = _pads(padding, (6, 7), (2, 3), strides, dilations)
    np.testing.assert_allclose(got.numpy(), ref_depthwise(x, w, strides, dilations, pads),
                               atol=1e-12)


@pytest.mark.parametrize("ksize,strides,padding", [
    ((2, 2), (2, 2), "SAME"), ((3, 3), (1, 1), "SAME"), ((3, 2), (2, 3), "SAME"),
    ((2, 3), (1, 2), "VALID"), ((4, 1), (3, 1), "VALID"), ((1, 1), (2, 2), "SAME")])
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool2d_matches_reference(ksize, strides, padding, kind):
    x = _rand(2, 7, 5, 3)
    fn = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d
    got = fn(x, list(ksize), list(strides), padding)
    pads = _pads(padding, (7, 5), ksize, strides, (1, 1))
    np.testing.assert_allclose(got.numpy(), ref_pool(x, ksize, strides, pads, kind), atol=1e-12)


# ----------------------------------------------------------------------------- adjoint property

@settings(max_examples=40, deadline=None)
@given(size=st.tuples(st.integers(1, 7), st.integers(1, 7)),
       ksize=st.tuples(st.integers(1, 3), st.integers(1, 3)),
       strides=st.tuples(st.integers(1, 3), st.integers(1, 3)),
       dilations=st.tuples(st.integers(1, 2), st.integers(1, 2)),
       padding=st.sampled_from(["SAME", "VALID"]), groups=st.sampled_from([1, 2]))
def test_gradients_are_adjoint_to_conv2d(size, ksize, strides, dilations, padding, groups):
    """<conv(x, w), dy> == <x, input_grad(dy, w)> == <w, filter_grad(x, dy)>."""
    eff = [(k - 1) * d + 1 for k, d in zip(ksize, dilations)]
    if padding == "VALID" and any(s < e for s, e in zip(size, eff)):
        return
    x = _rand(2, *size, 2 * groups)
    w = _rand(*ksize, 2, 2 * groups, seed=1)
    y = tf.nn.conv2d(x, w, list(strides), padding, dilations=list(dilations)).numpy()
    dy = _rand(*y.shape, seed=2)
    dx = c.conv2d_backprop_input(list(x.shape), w, dy, [1, *strides, 1], padding,
                                 dilations=[1, *dilations, 1]).numpy()
    dw = c.conv2d_backprop_filter(x, list(w.shape), dy, [1, *strides, 1], padding,
                                  dilations=[1, *dilations, 1]).numpy()
    assert np.isclose((y * dy).sum(), (x * dx).sum())
    assert np.isclose((y * dy).sum(), (w * dw).sum())


@pytest.mark.parametrize("strides,padding,groups", [((1, 1), "SAME", 2), ((2, 1), "VALID", 1),
                                                    ((1, 1), "VALID", 1)])
def test_batch_chunks_match_reference(monkeypatch, strides, padding, groups):
    """GEMMs over chunks of the batch, the last one smaller, reusing one buffer."""
    monkeypatch.setattr(c, "_CHUNK_BYTES", 2 * 7 * 6 * 6 * 4 * 8)  # about 2 images a chunk
    x, w = _rand(5, 7, 6, 4), _rand(3, 2, 4 // groups, 6, seed=1)
    pads = _pads(padding, (7, 6), (3, 2), strides, (1, 1))
    y = tf.nn.conv2d(x, w, list(strides), padding).numpy()
    np.testing.assert_allclose(y, ref_conv(x, w, strides, (1, 1), pads), atol=1e-12)
    dy = _rand(*y.shape, seed=2)
    attrs = ([1, *strides, 1], padding)
    np.testing.assert_allclose(c.conv2d_backprop_input(x.shape, w, dy, *attrs).numpy(),
                               ref_conv_input_grad(dy, w, x.shape, strides, (1, 1), pads),
                               atol=1e-12)
    np.testing.assert_allclose(c.conv2d_backprop_filter(x, w.shape, dy, *attrs).numpy(),
                               ref_conv_filter_grad(x, dy, w.shape, strides, (1, 1), pads),
                               atol=1e-11)
    one = _rand(2, 4, 4, 6, seed=3)  # one kernel position: a channels-last product
    np.testing.assert_allclose(
        tf.nn.conv2d_transpose(one, w[:1, :1], [2, 4, 4, 4], 1, "VALID").numpy(),
        ref_conv_input_grad(one, w[:1, :1], (2, 4, 4, 4), (1, 1), (1, 1), [(0, 0)] * 2),
        atol=1e-12)


@pytest.mark.parametrize("strides,padding", [((1, 1), "SAME"), ((2, 1), "VALID")])
@pytest.mark.parametrize("groups", [1, 2])
def test_input_gradient_of_many_channels_matches_reference(strides, padding, groups):
    """Channels enough per group for the kernel positions' values to be summed channels-last."""
    x_shape, w = (2, 5, 4, 64 * groups), _rand(3, 2, 64, 4, seed=1)
    pads = _pads(padding, (5, 4), (3, 2), strides, (1, 1))
    dy = _rand(*ref_conv(np.zeros(x_shape), w, strides, (1, 1), pads).shape, seed=2)
    got = c.conv2d_backprop_input(list(x_shape), w, dy, [1, *strides, 1], padding)
    np.testing.assert_allclose(
        got.numpy(), ref_conv_input_grad(dy, w, x_shape, strides, (1, 1), pads), atol=1e-12)


def _pool_vjp(kind, x, ksize, strides, padding, dy, ddx=None):
    """The pooling gradient at `x` for `dy`; with `ddx`, that gradient's own vjp in `dy`."""
    pool = tf.nn.max_pool2d if kind == "max" else tf.nn.avg_pool2d
    x, dy = tf.constant(x), tf.constant(dy)
    with tf.GradientTape() as outer:
        outer.watch(dy)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = pool(x, list(ksize), list(strides), padding)
        dx = inner.gradient(y, x, output_gradients=dy)
    return dx if ddx is None else outer.gradient(dx, dy, output_gradients=tf.constant(ddx))


@settings(max_examples=60, deadline=None)
@given(size=st.tuples(st.integers(1, 8), st.integers(1, 8)),
       ksize=st.tuples(st.integers(1, 4), st.integers(1, 4)),
       strides=st.tuples(st.integers(1, 4), st.integers(1, 4)),
       padding=st.sampled_from(["SAME", "VALID"]), kind=st.sampled_from(["max", "avg"]),
       ties=st.booleans())
def test_pool_gradients_match_reference(size, ksize, strides, padding, kind, ties):
    """Overlapping, disjoint and gapped windows, each window's first maximum among ties."""
    if padding == "VALID" and any(s < k for s, k in zip(size, ksize)):
        return
    x = _rand(2, *size, 3)
    if ties:
        x = np.round(x)
    pads = _pads(padding, size, ksize, strides, (1, 1))
    out_sizes = ref_pool(x, ksize, strides, pads, kind).shape[1:-1]
    dy = _rand(2, *out_sizes, 3, seed=1)
    np.testing.assert_allclose(_pool_vjp(kind, x, ksize, strides, padding, dy).numpy(),
                               ref_pool_grad(x, dy, ksize, strides, pads, kind), atol=1e-12)
    if kind == "max":
        ddx = _rand(*x.shape, seed=2)
        np.testing.assert_array_equal(
            _pool_vjp(kind, x, ksize, strides, padding, dy, ddx).numpy(),
            ref_max_pool_grad_grad(x, ddx, out_sizes, ksize, strides, pads))


def test_max_pool_gradients_route_values_exactly():
    """inf, NaN and -0.0 reach each window's first maximum unchanged, and nowhere else."""
    x = np.array([[3, 3, 1, 5], [0, 3, 5, 5]], F32).reshape(1, 2, 4, 1)
    dy = np.array([np.inf, np.nan], F32).reshape(1, 1, 2, 1)
    dx = _pool_vjp("max", x, (2, 2), (2, 2), "VALID", dy).numpy().reshape(2, 4)
    np.testing.assert_array_equal(dx, [[np.inf, 0, 0, np.nan], [0, 0, 0, 0]])
    ddx = np.array([[-0.0, np.inf, 1, 2], [3, 4, 5, 6]], F32).reshape(x.shape)
    ddy = _pool_vjp("max", x, (2, 2), (2, 2), "VALID", dy, ddx).numpy().ravel()
    np.testing.assert_array_equal(ddy, [0, 2])
    assert np.signbit(ddy[0])


# ----------------------------------------------------------------------------- layouts, dtypes

def _nchw(a):
    return np.moveaxis(a, -1, 1)


def test_nchw_equals_nhwc():
    # (float32: TF's CPU kernels take channels-first layouts in float32 and bfloat16 only)
    x, w, wd = (_rand(2, 6, 5, 4, dtype=F32), _rand(3, 3, 2, 4, dtype=F32, seed=1),
                _rand(2, 2, 4, 2, dtype=F32, seed=2))
    pairs = [
        (tf.nn.conv2d(x, w, 2, "SAME"), tf.nn.conv2d(_nchw(x), w, 2, "SAME", data_format="NCHW")),
        (tf.nn.conv2d(x, w, 1, [[0, 0], [1, 0], [2, 1], [0, 0]]),
         tf.nn.conv2d(_nchw(x), w, 1, [[0, 0], [0, 0], [1, 0], [2, 1]], data_format="NCHW")),
        (tf.nn.depthwise_conv2d(x, wd, [1, 2, 1, 1], "SAME"),
         tf.nn.depthwise_conv2d(_nchw(x), wd, [1, 1, 2, 1], "SAME", data_format="NCHW")),
        (tf.nn.max_pool2d(x, 3, 2, "SAME"),
         tf.nn.max_pool2d(_nchw(x), 3, 2, "SAME", data_format="NCHW")),
        (tf.nn.avg_pool(x, 2, 1, "SAME"),
         tf.nn.avg_pool(_nchw(x), 2, 1, "SAME", data_format="NCHW")),
    ]
    for nhwc, nchw in pairs:
        np.testing.assert_allclose(_nchw(nhwc.numpy()), nchw.numpy(), atol=1e-5)
    y = tf.nn.conv2d(x, w, 2, "SAME").numpy()
    np.testing.assert_allclose(
        _nchw(tf.nn.conv2d_transpose(y, w, x.shape, 2).numpy()),
        tf.nn.conv2d_transpose(_nchw(y), w, _nchw(x).shape, 2, data_format="NCHW").numpy(),
        atol=1e-5)


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16])
def test_half_precision_keeps_dtype(dtype):
    x, w = _rand(1, 5, 5, 2), _rand(3, 3, 2, 3, seed=1)
    xh, wh = tf.cast(tf.constant(x), dtype), tf.cast(tf.constant(w), dtype)
    for got, want in [(tf.nn.conv2d(xh, wh, 1, "SAME"), tf.nn.conv2d(x, w, 1, "SAME")),
                      (tf.nn.avg_pool2d(xh, 2, 2, "SAME"), tf.nn.avg_pool2d(x, 2, 2, "SAME")),
                      (tf.nn.max_pool2d(xh, 2, 2, "SAME"), tf.nn.max_pool2d(x, 2, 2, "SAME"))]:
        assert got.dtype == dtype
        np.testing.assert_allclose(tf.cast(got, tf.float64).numpy(), want.numpy(), rtol=0.05,
                                   atol=0.1)


def test_int32_conv_is_exact():
    x = np.arange(2 * 4 * 4 * 2, dtype=np.int32).reshape(2, 4, 4, 2) % 9 - 4
    w = np.arange(2 * 2 * 2 * 3, dtype=np.int32).reshape(2, 2, 2, 3) % 5 - 2
    got = tf.nn.conv2d(x, w, 1, "VALID")
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), ref_conv(x, w, (1, 1), (1, 1), [(0, 0)] * 2))


def test_extra_batch_dims():
    x, w = _rand(2, 3, 5, 5, 2), _rand(3, 3, 2, 4, seed=1)
    got = tf.nn.conv2d(x, w, 1, "SAME")
    assert got.shape == (2, 3, 5, 5, 4)
    np.testing.assert_allclose(got.numpy()[1, 2], tf.nn.conv2d(x[1, 2:], w, 1, "SAME").numpy()[0])


# ----------------------------------------------------------------------------- edge cases

def test_empty_batch_and_empty_outputs():
    w = _rand(3, 3, 2, 4)
    assert tf.nn.conv2d(np.zeros((0, 5, 5, 2)), w, 1, "SAME").shape == (0, 5, 5, 4)
    assert tf.nn.conv2d(np.zeros((1, 5, 5, 2)), _rand(8, 8, 2, 1), 2, "VALID").shape == (1, 0, 0, 1)
    assert tf.nn.max_pool2d(np.zeros((1, 5, 5, 2)), 6, 1, "VALID").shape == (1, 0, 0, 2)
    assert tf.nn.avg_pool2d(np.zeros((0, 4, 4, 1)), 2, 2, "SAME").shape == (0, 2, 2, 1)
    dx = tf.nn.conv2d_transpose(np.zeros((1, 0, 0, 1)), _rand(8, 8, 2, 1), [1, 5, 5, 2], 2, "VALID")
    np.testing.assert_array_equal(dx.numpy(), np.zeros((1, 5, 5, 2)))


def test_max_pool_ignores_nan_and_starts_from_lowest():
    x = np.array([np.nan, 1, np.nan, -np.inf, -np.inf, 2, -np.inf, np.nan], F32)
    got = tf.nn.max_pool2d(x.reshape(1, 2, 4, 1), 2, 2, "SAME").numpy().ravel()
    np.testing.assert_array_equal(got, [2, np.finfo(F32).min])


def test_max_pool_padding_never_wins():
    x = tf.constant(-np.arange(1, 26, dtype=np.int8).reshape(1, 5, 5, 1))
    got = tf.nn.max_pool2d(x, 2, 2, "SAME")  # (a NumPy array would be cast to float32)
    assert got.dtype == tf.int8
    np.testing.assert_array_equal(got.numpy()[0, :, :, 0],
                                  [[-1, -3, -5], [-11, -13, -15], [-21, -23, -25]])


def test_avg_pool_same_counts_real_elements_only():
    x = np.ones((1, 3, 3, 1), F32)
    np.testing.assert_array_equal(tf.nn.avg_pool2d(x, 3, 1, "SAME").numpy(), x)


def test_max_pool_dispatches_by_rank():
    assert tf.nn.max_pool(np.ones((1, 4, 4, 4, 1), F32), 2, 2, "SAME").shape == (1, 2, 2, 2, 1)
    assert tf.nn.avg_pool(np.ones((1, 4, 4, 1), F32), 2, 2, "SAME").shape == (1, 2, 2, 1)
    with pytest.raises(ValueError, match=r"`input.shape.rank` must be 3, 4 or 5. Received: "
                                         r"input.shape=\(5, 2\) of rank 2."):
        tf.nn.max_pool(np.ones((5, 2), F32), 2, 2, "SAME")


def test_eager_tensors_as_attrs():
    x, w = _rand(1, 5, 5, 1), _rand(3, 3, 1, 1, seed=1)
    got = tf.nn.conv2d(x, w, tf.constant([2, 2]), "SAME", dilations=tf.constant(1))
    np.testing.assert_array_equal(got.numpy(), tf.nn.conv2d(x, w, 2, "SAME").numpy())
    out = tf.nn.conv2d_transpose(got, w, tf.constant([1, 5, 5, 1]), 2)
    assert out.shape == (1, 5, 5, 1)


# ----------------------------------------------------------------------------- run-time shapes

def test_transpose_output_shape_known_at_run_time():
    """An output shape from ``tf.shape`` becomes the op's input: the static shape keeps
    what is known, the values equal the eager ones."""
    w = _rand(3, 3, 3, 2, 1, seed=1).astype(F32)

    @tf.function(input_signature=[tf.TensorSpec([None, None, 2, None, 1])])
    def fn(x):
        s = tf.shape(x)
        y = tf.nn.conv3d_transpose(x, w, [s[0], 2 * s[1], 4, 2 * s[3], 2], 2)
        assert y.shape.as_list() == [None, None, 4, None, 2]
        return y
    for shape in [(1, 2, 2, 3, 1), (2, 3, 2, 1, 1)]:
        x = _rand(*shape).astype(F32)
        sizes = [shape[0], 2 * shape[1], 4, 2 * shape[3], 2]
        np.testing.assert_allclose(fn(x).numpy(), tf.nn.conv3d_transpose(x, w, sizes, 2).numpy(),
                                   rtol=1e-6, atol=1e-6)


def test_conv2d_transpose_spatial_sizes_known_at_run_time():
    w = _rand(3, 3, 2, 4, seed=1).astype(F32)

    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 4])])
    def fn(x):
        s = tf.shape(x)
        y = tf.nn.conv2d_transpose(x, w, tf.stack([2 * s[1] + 1, 2 * s[2] + 1]), 2, "VALID")
        assert y.shape.as_list() == [None, None, None, 2]
        return y
    x = _rand(2, 3, 2, 4).astype(F32)
    np.testing.assert_allclose(fn(x).numpy(),
                               tf.nn.conv2d_transpose(x, w, [7, 5], 2, "VALID").numpy(), atol=1e-5)
    with pytest.raises(errors.InvalidArgumentError, match="Size of out_backprop doesn't match"):
        tf.function(lambda x, s: tf.nn.conv3d_transpose(x, w[None], s, 1, "VALID"))(
            np.ones((1, 2, 2, 2, 4), F32), tf.constant([1, 9, 9, 9, 2]))


def test_gradient_errors_end_with_the_name_unless_sizes_are_a_python_list():
    x, w = tf.ones((2, 5, 5, 3)), tf.ones((3, 3, 4, 3))
    cases = [(lambda: tf.nn.conv2d_transpose(x, w, [2, 10, 10, 5], 2), False),
             (lambda: tf.nn.conv2d_transpose(x, w, (2, 10, 10, 5), 2), False),
             (lambda: tf.nn.conv2d_transpose(x, w, tf.constant([2, 10, 10, 5]), 2), True),
             (lambda: tf.nn.conv1d_transpose(tf.ones((1, 4, 3)), tf.ones((3, 2, 3)),
                                             [1, 10, 2], 2), True),  # TF makes the sizes
             (lambda: tf.raw_ops.Conv2DBackpropFilter(
                 input=tf.ones((2, 10, 10, 5)), filter_sizes=[3, 3, 4, 3], out_backprop=x,
                 strides=[1, 2, 2, 1], padding="SAME"), False)]
    for call, named in cases:
        with pytest.raises((errors.InvalidArgumentError, errors.AbortedError)) as info:
            call()
        assert str(info.value).endswith("] name: ") is named, str(info.value)


def test_conv3d_kernels_take_no_groups():
    # as TF's CPU kernels: an input depth that is a multiple of the filter's is refused
    # (in the words of its oneDNN kernels for float32, of its Eigen ones for float64)
    w = tf.ones((2, 2, 2, 4, 4))
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"\} input and filter must have the same depth: 8 vs 4 \[Op:Conv3D\]"):
        tf.nn.conv3d(tf.ones((1, 4, 4, 4, 8)), w, [1] * 5, "SAME")
    with pytest.raises(errors.InvalidArgumentError, match=r"\} Number of channels in filter "
                                                          r"\(4\) must match last dimension"):
        tf.nn.conv3d(tf.ones((1, 4, 4, 4, 8), tf.float64), tf.cast(w, tf.float64), [1] * 5, "SAME")
    with pytest.raises(errors.InvalidArgumentError, match="same depth: 8 vs 4"):
        tf.nn.conv3d_transpose(tf.ones((1, 3, 3, 3, 4)), w, [1, 6, 6, 6, 8], 2)
    with pytest.raises(errors.InvalidArgumentError,
                       match="input and filter_sizes must have the same number of channels. Got "
                             "8 for input and 4 for filter_sizes"):
        tf.raw_ops.Conv3DBackpropFilterV2(
            input=tf.ones((1, 6, 6, 6, 8), tf.float64), filter_sizes=[2, 2, 2, 4, 3],
            out_backprop=tf.ones((1, 3, 3, 3, 3), tf.float64), strides=[1, 2, 2, 2, 1],
            padding="SAME")
    # Keras's grouped Conv3D still runs, group by group
    layer = tf.keras.layers.Conv3D(6, 2, groups=2, padding="same")
    x = tf.constant(np.random.default_rng(0).normal(size=(1, 3, 3, 3, 4)).astype(F32))
    y = layer(x)
    k = layer.kernel.numpy()
    halves = [tf.nn.conv3d(x[..., 2 * g:2 * g + 2], k[..., 3 * g:3 * g + 3], [1] * 5, "SAME")
              for g in range(2)]
    np.testing.assert_allclose(y.numpy(), tf.concat(halves, -1).numpy() + layer.bias.numpy(),
                               rtol=1e-6, atol=1e-6)


def _conv_of_x(x, w):
    return tf.nn.conv2d(x, w, 2, "SAME")


def _transpose_of_x(x, w):
    s = tf.shape(x)
    return tf.nn.conv2d_transpose(x, tf.transpose(w, [0, 1, 3, 2]),
                              [s[0], 2 * s[1], 2 * s[2], 2], 2)


@pytest.mark.parametrize("op", [_conv_of_x, _transpose_of_x])
def test_gradients_with_spatial_sizes_known_at_run_time(op):
    """The input gradients of a convolution, and of its transpose, take ``shape(x)`` when
    only run time knows the sizes of `x`."""
    w = tf.constant(_rand(3, 2, 3, 2, seed=1))

    def loss_and_grads(x):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            loss = tf.reduce_sum(tf.sin(op(x, w)))
        return tape.gradient(loss, [x, w])

    fn = tf.function(loss_and_grads, input_signature=[tf.TensorSpec([None, None, None, 3],
                                                                    tf.float64)])
    for shape in [(1, 4, 5, 3), (2, 3, 3, 3)]:
        x = tf.constant(_rand(*shape, seed=2))
        for got, want in zip(fn(x), loss_and_grads(x)):
            np.testing.assert_allclose(got.numpy(), want.numpy(), atol=1e-12)


# ----------------------------------------------------------------------------- 1-D

def _needs_array_ops():
    if not all(hasattr(tf, n) for n in ("expand_dims", "squeeze")):
        pytest.skip("array_ops.expand_dims/squeeze not available")


@pytest.mark.parametrize("stride,dilation,padding", [(1, 1, "SAME"), (2, 1, "SAME"),
                                                     (1, 2, "VALID"), (3, 1, "VALID")])
def test_conv1d_matches_reference(stride, dilation, padding):
    _needs_array_ops()
    x, w = _rand(2, 9, 3), _rand(3, 3, 4, seed=1)
    got = tf.nn.conv1d(x, w, stride, padding, dilations=dilation)
    pads = _pads(padding, (9,), (3,), (stride,), (dilation,))
    np.testing.assert_allclose(got.numpy(), ref_conv(x, w, (stride,), (dilation,), pads),
                               atol=1e-12)
    # (channels-first in float32: TF's CPU refuses it in float64)
    ncw = tf.nn.conv1d(np.moveaxis(x, -1, 1).astype(F32), w.astype(F32), [stride], padding,
                       data_format="NCW", dilations=[dilation])
    np.testing.assert_allclose(np.moveaxis(ncw.numpy(), 1, -1), got.numpy(), atol=1e-5)


def test_pool1d_matches_tensorflow():
    _needs_array_ops()
    x = np.arange(10, dtype=F32).reshape(1, 5, 2)
    np.testing.assert_array_equal(tf.nn.max_pool1d(x, 2, 2, "SAME").numpy(),
                                  [[[2, 3], [6, 7], [8, 9]]])
    np.testing.assert_array_equal(tf.nn.avg_pool1d(x, 3, 2, "SAME").numpy(),
                                  [[[1, 2], [4, 5], [7, 8]]])
    np.testing.assert_array_equal(tf.nn.max_pool(x, 2, 2, "SAME").numpy(),
                                  [[[2, 3], [6, 7], [8, 9]]])
    np.testing.assert_array_equal(
        tf.nn.max_pool1d(x, 2, 2, [[0, 0], [1, 0], [0, 0]]).numpy(), [[[0, 1], [4, 5], [8, 9]]])
    ncw = tf.nn.avg_pool1d(np.moveaxis(x, -1, 1), 3, 2, "SAME", data_format="NCW")
    np.testing.assert_array_equal(np.moveaxis(ncw.numpy(), 1, -1), [[[1, 2], [4, 5], [7, 8]]])


def test_conv1d_rejects_explicit_padding():
    _needs_array_ops()
    with pytest.raises(TypeError, match="Expected string for argument 'padding'"):
        tf.nn.conv1d(_rand(1, 5, 1), _rand(3, 1, 1), 1, [[0, 0], [1, 1], [0, 0]])


# ----------------------------------------------------------------------------- errors

_X4, _W4 = np.ones((1, 5, 5, 2), F32), np.ones((3, 3, 2, 4), F32)


@pytest.mark.parametrize("call,error,message", [
    (lambda: tf.nn.conv2d(np.ones((1, 5, 5, 3), F32), _W4, 1, "SAME"), errors.InvalidArgumentError,
     r"input depth must be evenly divisible by filter depth: 3 vs 2 \[Op:Conv2D\]"),
    (lambda: tf.nn.conv2d(np.ones((1, 5, 5, 4), F32), np.ones((3, 3, 2, 5), F32), 1, "SAME"),
     errors.InvalidArgumentError, "output depth must be evenly divisible by number of groups: "
                                  "5 vs 2"),
    (lambda: tf.nn.conv2d(_X4, np.ones((7, 7, 2, 4), F32), 1, "VALID"), errors.InvalidArgumentError,
     r"Computed output size would be negative: -1 \[input_size: 5, effective_filter_size: 7, "
     r"stride: 1\]"),
    (lambda: tf.nn.conv2d(np.ones((5, 5, 2), F32), _W4, 1, "VALID"), errors.InvalidArgumentError,
     r"convolution input must be 4-dimensional: \[5,5,2\]"),
    (lambda: tf.nn.conv2d(_X4, np.ones((3, 3, 2), F32), 1, "VALID"), errors.InvalidArgumentError,
     r"convolution filter must be 4-dimensional: \[3,3,2\]"),
    (lambda: tf.nn.conv2d(_X4, _W4, [1, 1, 1], "SAME"), ValueError,
     r"strides should be of length 1, 2 or 4. Received: strides=\[1, 1, 1\] of length 3"),
    (lambda: tf.nn.conv2d(_X4, _W4, [2, 1, 1, 1], "SAME"), errors.UnimplementedError,
     "does not yet support strides in the batch and depth dimensions"),
    (lambda: tf.nn.conv2d(_X4, _W4, 0, "SAME"), errors.InvalidArgumentError,
     "Row and column strides should be larger than 0."),
    (lambda: tf.nn.conv2d(_X4, _W4, 1, "SAME", dilations=0), errors.InvalidArgumentError,
     "Dilated rates should be larger than 0."),
    (lambda: tf.nn.conv2d(_X4, _W4, 1, "SAME", dilations=[2, 1, 1, 1]), errors.UnimplementedError,
     "does not yet support dilations in the batch and depth dimensions"),
    (lambda: tf.nn.conv2d(_X4, _W4, 1, "same"), errors.InvalidArgumentError,
     "Value for attr 'padding' of \"same\" is not in the list of allowed values: \"SAME\", "
     "\"VALID\", \"EXPLICIT\""),
    (lambda: tf.nn.conv2d(_X4, _W4, 1, "SAME", data_format="HWCN"), errors.InvalidArgumentError,
     "Value for attr 'data_format' of \"HWCN\""),
    (lambda: tf.nn.conv2d(_X4, _W4, 1, [[1, 2], [0, 1]]), ValueError,
     r"When padding is a list, it must be of size 4. Received: padding=\[\[1, 2\], \[0, 1\]\] "
     r"of size 2"),
    (lambda: tf.nn.conv2d(_X4, _W4, 1, [[0, 0], [1], [0, 0], [0, 0]]), ValueError,
     "each element of `padding` must be a list/tuple of size 2"),
    (lambda: tf.nn.conv2d(_X4, _W4, 1, [[1, 0], [1, 2], [0, 1], [0, 0]]),
     errors.InvalidArgumentError,
     "Nonzero explicit padding in the batch or depth dimensions is not supported"),
    (lambda: tf.nn.conv2d(_X4, _W4, 1, [[0, 0], [-1, 0], [0, 0], [0, 0]]),
     errors.InvalidArgumentError, "All elements of explicit_paddings must be nonnegative"),
    (lambda: tf.nn.conv2d(tf.constant(_X4), tf.constant(_W4, tf.float64), 1, "VALID"),
     errors.InvalidArgumentError, "cannot compute _MklNativeConv2D as input #1"),
    (lambda: tf.nn.conv2d(_X4.astype(bool), _W4.astype(bool), 1, "VALID"),
     errors.InvalidArgumentError, "Value for attr 'T' of bool"),
    (lambda: tf.nn.depthwise_conv2d(np.ones((1, 5, 5, 3), F32), np.ones((3, 3, 2, 3), F32),
                                [1, 1, 1, 1], "SAME"), errors.InvalidArgumentError,
     "input and filter must have the same depth: 3 vs 2"),
    # (TF's oneDNN kernels abort on an out_backprop that does not fit: see TF_WRONG in the
    # differential tests)
    (lambda: tf.nn.conv2d_transpose(np.ones((1, 3, 3, 4), F32), _W4, [1, 8, 8, 2], 2),
     errors.InvalidArgumentError,
     r"Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 3, "
     r"computed = 4 spatial_dim: 1 input: 8 filter: 3 output: 3 stride: 2 dilation: 1 "
     r"\[Op:Conv2DBackpropInput\]"),
    (lambda: tf.nn.conv2d_transpose(np.ones((1, 3, 3, 3), F32), _W4, [1, 6, 6, 2], 2),
     errors.InvalidArgumentError,
     "Conv2DCustomBackpropInput: filter and out_backprop must have the same out_depth"),
    (lambda: tf.nn.conv2d_transpose(np.ones((1, 3, 3, 4), F32), _W4, [1, 6, 6, 3], 2),
     errors.InvalidArgumentError, r"^input depth must be evenly divisible by filter depth: "
                                  r"3 vs 2 \[Op:Conv2DBackpropInput\]$"),
    (lambda: tf.nn.conv2d_transpose(np.ones((1, 3, 3, 4), F32), _W4, [6, 6, 2], 2),
     errors.InvalidArgumentError,
     "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: 3"),
    (lambda: tf.nn.conv2d_transpose(np.ones((1, 3, 3, 4), F32), _W4, [2, 6, 6, 2], 2),
     errors.InvalidArgumentError,
     r"Conv2DCustomBackpropInput: input and out_backprop must have the same batch size. Input "
     r"batch: 2, outbackprop batch: 1, batch_dim: 0 \[Op:Conv2DBackpropInput\]"),
    (lambda: tf.nn.conv2d_transpose(np.ones((1, 3, 3, 4), F32), _W4, tf.constant([1., 6, 6, 2]), 2),
     errors.InvalidArgumentError,
     "Value for attr 'Tshape' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.nn.conv3d_transpose(_X3, _W3, [3, 4, 5], 2), errors.InvalidArgumentError,
     r"^input tensor must have 5 dimensions \[Op:Conv3DBackpropInputV2\]$"),
    (lambda: tf.nn.conv3d_transpose(_X3, _W3, [1, 5, 4, 5, 1], 2), errors.InvalidArgumentError,
     r"Conv3DBackpropInputOp: Size of out_backprop doesn't match computed: actual = 2, "
     r"computed = 3 spatial_dim: 1 input: 5 filter: 2 output: 2 stride: 2 dilation: 1 "
     r"\[Op:Conv3DBackpropInputV2\]"),
    (lambda: tf.nn.conv3d_transpose(_X3, _W3, [2, 3, 4, 5, 1], 2), errors.InvalidArgumentError,
     "Conv3DBackpropInputOp: input and out_backprop must have the same batch size. Input "
     "batch: 2, outbackprop batch: 1, batch_dim: 0"),
    (lambda: tf.nn.conv3d_transpose(_X3, _W3, [1, 3, 4, 5, 1], 2, "same"),
     errors.InvalidArgumentError, "Value for attr 'padding' of \"same\" is not in the list of "
                                  "allowed values: \"SAME\", \"VALID\"$"),
    (lambda: tf.nn.conv3d_transpose(_X3, _W3, [1, 3, 4, 5, 1], 2, [[0, 0]] * 5), TypeError,
     "Expected string for argument 'padding'"),
    (lambda: tf.nn.conv3d_transpose(_X3, _W3, [1, 3, 4, 5, 1], 2, data_format="NHWC"),
     errors.InvalidArgumentError, "Value for attr 'data_format' of \"NHWC\" is not in the list "
                                  "of allowed values: \"NDHWC\", \"NCDHW\""),
    (lambda: tf.nn.conv3d_transpose(_X3, _W3, [1, 3, 4, 5, 1], [2, 2]), ValueError,
     r"strides should be of length 1, 3 or 5. Received: strides=\[2, 2\] of length 2"),
    (lambda: tf.nn.conv3d_transpose(_X3, _W3, [1, 3, 4, 5, 1], [1, 2, 2, 2, 2]),
     errors.UnimplementedError, "does not yet support strides in the batch and depth"),
    (lambda: tf.nn.conv3d_transpose(_X3.astype(np.int32), _W3.astype(np.int32), [1, 3, 4, 5, 1],
                                2), errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values"),
    (lambda: tf.nn.max_pool2d(_X4, [2, 2, 2, 1], 1, "SAME"), errors.UnimplementedError,
     "Pooling is not yet supported on the batch dimension."),
    (lambda: tf.nn.max_pool2d(_X4, [1, 2, 2, 2], 1, "SAME"), errors.UnimplementedError,
     "depth dimension"),
    (lambda: tf.nn.max_pool2d(_X4, 0, 2, "SAME"), errors.InvalidArgumentError,
     "Sliding window ksize must be positive. The specified or inferred ksize is: 1,0,0,1"),
    (lambda: tf.nn.max_pool2d(_X4, 2, 0, "SAME"), errors.InvalidArgumentError,
     "Stride must be > 0, but got 0"),
    (lambda: tf.nn.max_pool2d(_X4, [2, 2, 2], 2, "SAME"), ValueError,
     r"ksize should be of length 1, 2 or 4. Received: ksize=\[2, 2, 2\] of length 3"),
    (lambda: tf.nn.max_pool2d(np.ones((5, 5, 2), F32), 2, 2, "SAME"), errors.InvalidArgumentError,
     r"input must be 4-dimensional: \[5,5,2\] \[Op:MaxPool\]"),
    (lambda: tf.nn.avg_pool2d(_X4, 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]), TypeError,
     "Expected string for argument 'padding'"),
    (lambda: tf.nn.avg_pool2d(_X4.astype(np.int32), 2, 2, "SAME"), errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values"),
    (lambda: tf.nn.max_pool2d(tf.constant(_X4.astype(bool)), 2, 2, "SAME"),
         errors.InvalidArgumentError,
     "Value for attr 'T' of bool is not in the list of allowed values"),
])
def test_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert re.search(message, op_text(info.value)), str(info.value)


# ----------------------------------------------------------------------------- shape rules

class _Static:
    def __init__(self, shape, dtype=tf.float32):
        self.shape, self.dtype = TensorShape(shape), dtype


def _attrs(strides=(1, 1, 1, 1), padding="SAME", data_format="NHWC", dilations=(1, 1, 1, 1)):
    return {"strides": strides, "padding": padding, "explicit_paddings": (),
            "data_format": data_format, "dilations": dilations}


def test_conv_rule_with_unknown_dims():
    rule = c._CONV2D.shape
    shape, dtype = rule(_Static([None, 7, None, 3]), _Static([3, 3, 3, 8]),
                        **_attrs(strides=(1, 2, 2, 1)))
    assert shape.as_list() == [None, 4, None, 8] and dtype == tf.float32
    shape, _ = rule(_Static([2, 7, 7, 3]), _Static(None), **_attrs(padding="VALID"))
    assert shape.as_list() == [2, None, None, None]
    # an input of unknown rank has the op's, as TF's shape function gives it
    assert rule(_Static(None), _Static([3, 3, 3, 8]), **_attrs())[0].as_list() == \
        [None, None, None, 8]
    assert rule(_Static(None), _Static([3, 3, 3, 8]), **_attrs(data_format="NCHW"))[0] \
        .as_list() == [None, 8, None, None]
    assert c._MAX_POOL.shape(_Static(None), ksize=(1, 2, 2, 1), strides=(1, 2, 2, 1),
                             padding="SAME", data_format="NHWC")[0].as_list() == [None] * 4
    shape, _ = rule(_Static([2, 3, 9, None]), _Static([3, 3, 3, 8]),
                    **_attrs(data_format="NCHW", strides=(1, 1, 1, 2)))
    assert shape.as_list() == [2, 8, 9, None]
    # (TF's shape function's words, not its kernel's: a rule checks a graph's ops)
    with pytest.raises(ValueError, match=r"^Depth of input \(3\) is not a multiple of input "
                                         r"depth of filter \(2\)"):
        rule(_Static([None, 7, 7, 3]), _Static([3, 3, 2, 8]), **_attrs())


def test_backprop_and_pool_rules():
    shape, _ = c._BACKPROP_INPUT.shape(_Static([3, 3, 2, 4]), _Static([None, None, None, 4]),
                                       input_sizes=(1, 6, 6, 2), **_attrs(strides=(1, 2, 2, 1)))
    assert shape.as_list() == [None, 6, 6, 2]  # TF's: the batch is out_backprop's
    # as TF's shape function, a graph's shape inference leaves out_backprop to the kernel
    shape, _ = c._BACKPROP_INPUT.shape(_Static([3, 3, 2, 4]), _Static([1, 3, 4, 4]),
                                       input_sizes=(1, 6, 6, 2), **_attrs(strides=(1, 2, 2, 1)))
    assert shape.as_list() == [1, 6, 6, 2]
    attrs3 = dict(strides=(1, 2, 2, 1, 1), padding="SAME", explicit_paddings=(),
                  data_format="NDHWC", dilations=(1,) * 5)
    shape, _ = c._BACKPROP_INPUT3D.shape(_Static([3, 3, 3, 2, 4]), _Static([None, 3, 3, 3, 4]),
                                         _Static([5], tf.int32), **attrs3)
    assert shape.as_list() == [None] * 5
    shape, _ = c._BACKPROP_INPUT3D.shape(_Static([3, 3, 3, 2, 4]), _Static([None, 3, 3, 3, 4]),
                                         tf.constant([2, 6, 5, 3, 2]), **attrs3)
    assert shape.as_list() == [2, 6, 5, 3, 2]
    with pytest.raises(errors.InvalidArgumentError, match="input tensor must have 5 dimensions"):
        c._BACKPROP_INPUT3D.shape(_Static(None), _Static(None), _Static([4], tf.int32), **attrs3)
    shape, _ = c._BACKPROP_FILTER.shape(_Static(None), _Static(None), filter_sizes=(3, 3, 2, 4),
                                        **_attrs())
    assert shape.as_list() == [3, 3, 2, 4]
    shape, _ = c._MAX_POOL.shape(_Static([None, 5, None, 2]), ksize=(1, 2, 2, 1),
                                 strides=(1, 2, 2, 1), padding="SAME", data_format="NHWC")
    assert shape.as_list() == [None, 3, None, 2]


# -- convolution, separable_conv2d, conv1d_transpose ----------------------------------------------

def _normal(*shape, seed=0):
    return tf.constant(np.random.default_rng(seed).normal(size=shape).astype(np.float32))


def test_convolution_runs_the_convolution_of_the_filters_rank():
    x, w = _normal(2, 5, 6, 3), _normal(3, 2, 3, 4, seed=1)
    np.testing.assert_array_equal(tf.nn.convolution(x, w, padding="SAME", strides=2).numpy(),
                                  tf.nn.conv2d(x, w, 2, "SAME").numpy())
    np.testing.assert_array_equal(tf.nn.convolution(x[:, 0], w[0], dilations=2).numpy(),
                                  tf.nn.conv1d(x[:, 0], w[0], 1, "VALID", dilations=2).numpy())
    x3, w3 = tf.reshape(x, [2, 5, 6, 3, 1]), _normal(2, 2, 2, 1, 2, seed=2)
    np.testing.assert_array_equal(tf.nn.convolution(x3, w3).numpy(),
                                  tf.nn.conv3d(x3, w3, [1] * 5, "VALID").numpy())
    with pytest.raises(ValueError, match="not supported in conjunction with `dilation_rate"):
        tf.nn.convolution(x, w, strides=2, dilations=2)
    with pytest.raises(ValueError, match="must be 1, 2, or 3"):
        tf.nn.convolution(x, tf.ones([3, 3]))


def test_separable_conv2d_is_a_depthwise_then_a_pointwise_convolution():
    x, dw, pw = _normal(2, 5, 6, 3), _normal(2, 2, 3, 2, seed=1), _normal(1, 1, 6, 4, seed=2)
    with tf.GradientTape() as tape:
        tape.watch([dw, pw])
        y = tf.nn.separable_conv2d(x, dw, pw, [1, 2, 2, 1], "SAME")
    want = tf.nn.conv2d(tf.nn.depthwise_conv2d(x, dw, [1, 2, 2, 1], "SAME"), pw, 1, "VALID")
    np.testing.assert_allclose(y.numpy(), want.numpy(), rtol=1e-6)
    assert all(g is not None for g in tape.gradient(y, [dw, pw]))
    with pytest.raises(ValueError, match="Dimensions 2 and 1 are not compatible"):
        tf.nn.separable_conv2d(x, dw, tf.ones([2, 1, 6, 4]), [1, 1, 1, 1], "SAME")


@pytest.mark.parametrize("data_format", ["NWC", "NCW"])
def test_conv1d_transpose_is_conv2d_transpose_over_a_unit_height(data_format):
    x, w = _normal(2, 6, 3), _normal(3, 2, 3, seed=1)
    want = tf.nn.conv2d_transpose(x[:, None], w[None], [2, 1, 12, 2], [1, 1, 2, 1], "SAME")[:, 0]
    if data_format == "NCW":
        got = tf.nn.conv1d_transpose(tf.transpose(x, [0, 2, 1]), w, [2, 2, 12], 2,
                                     data_format="NCW")
        got = tf.transpose(got, [0, 2, 1])
    else:
        got = tf.nn.conv1d_transpose(x, w, tf.constant([2, 12, 2]), 2)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_geometry_checked_at_run_time_raises_every_time_and_keeps_values_per_shape():
    """Kernels remember geometries they checked: a bad one raises on every call, and
    each shape gets its own output."""
    f = tf.function(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"),
                    input_signature=[tf.TensorSpec([None, None, None, None]),
                                     tf.TensorSpec([3, 3, 2, 4])])
    w = np.ones((3, 3, 2, 4), np.float32)
    for _ in range(2):
        with pytest.raises(errors.InvalidArgumentError, match="evenly divisible by filter depth"):
            f(np.ones((1, 5, 5, 3), np.float32), w)
    for size in (5, 4, 5):
        y = f(np.ones((1, size, size, 2), np.float32), w).numpy()
        assert y.shape == (1, size, size, 4) and y[0, 0, 0, 0] == 8 and y[0, 1, 1, 0] == 18
    with pytest.raises(errors.InvalidArgumentError, match="evenly divisible by filter depth"):
        f(np.ones((1, 5, 5, 3), np.float32), w)


@pytest.mark.parametrize("pool, x", [
    (lambda v: tf.nn.avg_pool1d(v[None], 2, 1, "VALID"), np.ones((4, 3), np.float32)),
    (lambda v: tf.nn.avg_pool2d(v[None, ..., None], 2, 2, "SAME"),
     np.arange(15, dtype=np.float32).reshape(3, 5)),
    (lambda v: tf.nn.avg_pool3d(v[None, None, ..., None], [1, 2, 2], 1, "VALID"),
     np.ones((3, 4), np.float32))])
def test_avg_pool_gradient_with_spatial_dims_unknown_when_traced(pool, x):
    def grads(v):
        with tf.GradientTape() as t2:
            t2.watch(v)
            with tf.GradientTape() as t:
                t.watch(v)
                y = tf.reduce_sum(pool(v) * pool(v))
            g = t.gradient(y, v)
        return g, t2.gradient(g, v)

    unknown = tf.function(grads, input_signature=[tf.TensorSpec([None, None], tf.float32)])
    for got, want in zip(unknown(tf.constant(x)), grads(tf.constant(x))):
        assert got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


_UNKNOWN_FILTER_CASES = [
    (lambda x, w: tf.nn.conv1d(x, w, 2, "SAME"), (2, 9, 3), (3, 3, 4)),
    (lambda x, w: tf.nn.conv2d(x, w, 2, "VALID"), (2, 7, 8, 3), (3, 2, 3, 4)),
    (lambda x, w: tf.nn.conv2d(x, w, 1, [[0, 0], [1, 2], [0, 1], [0, 0]], dilations=2),
     (2, 7, 8, 3), (3, 2, 3, 4)),
    (lambda x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME"), (1, 5, 6, 7, 2), (2, 3, 2, 2, 3)),
    (lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), (2, 7, 8, 3), (3, 3, 3, 2)),
    (lambda x, w: tf.nn.conv2d_transpose(x, w, [2, 8, 10, 2], 2, "SAME"), (2, 4, 5, 4),
     (3, 3, 2, 4)),
    (lambda x, w: tf.nn.conv3d_transpose(x, w, [1, 4, 6, 4, 2], 2, "SAME"), (1, 2, 3, 2, 4),
     (2, 2, 2, 2, 4)),
]


@pytest.mark.parametrize("conv, x_shape, w_shape", _UNKNOWN_FILTER_CASES)
@pytest.mark.parametrize("rank_known", [True, False])
def test_gradients_with_filter_shape_known_at_run_time(conv, x_shape, w_shape, rank_known):
    """A filter whose shape only run time knows (even its rank) takes ``shape(w)`` as its
    gradient's `filter_sizes`; first and second derivatives equal the eager ones."""
    def grads(x, w):
        with tf.GradientTape() as outer:
            outer.watch(w)
            with tf.GradientTape() as tape:
                tape.watch([x, w])
                loss = tf.reduce_sum(tf.sin(conv(x, w)))
            dx, dw = tape.gradient(loss, [x, w])
            curvature = tf.reduce_sum(dw * dw)
        return dx, dw, outer.gradient(curvature, w)

    def spec(shape):
        return tf.TensorSpec([None] * len(shape) if rank_known else None, tf.float64)

    traced = tf.function(grads, input_signature=[spec(x_shape), spec(w_shape)])
    x, w = tf.constant(_rand(*x_shape, seed=2)), tf.constant(_rand(*w_shape, seed=3))
    for got, want in zip(traced(x, w), grads(x, w)):
        assert got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10, atol=1e-12)


def test_filter_gradient_sizes_given_at_run_time():
    """Conv2DBackpropFilter's `filter_sizes` as a tensor only run time knows: the values of
    a constant one, and TF's errors for a wrong one."""
    x, dy = tf.constant(_rand(2, 7, 8, 3)), tf.constant(_rand(2, 4, 4, 4, seed=1))
    fn = tf.function(
        lambda x, dy, sizes: tf.raw_ops.Conv2DBackpropFilter(
            input=x, filter_sizes=sizes, out_backprop=dy, strides=[1, 2, 2, 1], padding="SAME"),
        input_signature=[tf.TensorSpec(None, tf.float64)] * 2 + [tf.TensorSpec(None, tf.int32)])
    assert fn.get_concrete_function().outputs[0].shape.as_list() == [None] * 4
    want = tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=[3, 2, 3, 4], out_backprop=dy,
                                           strides=[1, 2, 2, 1], padding="SAME")
    np.testing.assert_allclose(fn(x, dy, tf.constant([3, 2, 3, 4])).numpy(), want.numpy())
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"filter must be 4-dimensional: \[3,2,3\]"):
        fn(x, dy, tf.constant([3, 2, 3]))
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"filter_tensor must be a vector, got \[1,4\]"):
        fn(x, dy, tf.constant([[3, 2, 3, 4]]))


def test_conv1d_transpose_with_a_list_output_shape_in_a_function():
    x, w = tf.constant(_rand(2, 9, 4)), tf.constant(_rand(3, 2, 4, seed=1))
    fn = tf.function(lambda x, w: tf.nn.conv1d_transpose(x, w, [2, 18, 2], 2, "SAME"))
    np.testing.assert_allclose(fn(x, w).numpy(),
                               tf.nn.conv1d_transpose(x, w, [2, 18, 2], 2, "SAME").numpy())


@pytest.mark.parametrize("signature", [[None, 4, 4, 3], [None, None, None, 3], None])
def test_conv2d_transpose_traced_takes_its_batch_from_its_input(signature):
    # as TF's shape function: a Python output_shape's batch is checked, not taken (it was)
    w = tf.zeros([3, 3, 5, 3])
    fn = tf.function(lambda z: tf.nn.conv2d_transpose(z, w, [2, 8, 8, 5], 2, "SAME"),
                     input_signature=[tf.TensorSpec(signature)])
    assert fn.get_concrete_function().structured_outputs.shape.as_list() == [None, 8, 8, 5]
    assert fn(tf.ones([2, 4, 4, 3])).shape == (2, 8, 8, 5)
    one_d = tf.function(lambda z: tf.nn.conv1d_transpose(z, w[0], [2, 8, 5], 2, "SAME"),
                        input_signature=[tf.TensorSpec([None, 4, 3])])
    assert one_d.get_concrete_function().structured_outputs.shape.as_list() == [None, 8, 5]


def test_conv2d_transpose_traced_checks_batch_and_depth_as_tf_merges_them():
    w = tf.zeros([3, 3, 5, 3])
    with pytest.raises(ValueError, match=re.escape(
            "Dimensions must be equal, but are 3 and 2 for '{{node conv2d_transpose}} = "
            "Conv2DBackpropInput[") + r".*" + re.escape(
            "with input shapes: [4], [3,3,5,3], [2,4,4,3] and with input tensors computed as "
            "partial shapes: input[0] = [3,8,8,5].")):
        tf.function(lambda z: tf.nn.conv2d_transpose(z, w, [3, 8, 8, 5], 2))(tf.ones([2, 4, 4, 3]))
    with pytest.raises(ValueError, match=re.escape(
            "Dimensions must be equal, but are 4 and 3 for '{{node conv2d_transpose}}") +
            r".*" + re.escape("with input shapes: [4], [3,3,5,3], [2,4,4,4].")):
        tf.function(lambda z: tf.nn.conv2d_transpose(z, w, [2, 8, 8, 5], 2))(tf.ones([2, 4, 4, 4]))


def _f64(shape):
    return tf.ones(shape, tf.float64)


def _var(shape):
    return tf.Variable(tf.ones(shape))


# TF's wrappers convert a variable argument in its own dtype before the op, which then
# reports the mismatch; the transposed convolutions convert it to the other input's dtype
@pytest.mark.parametrize("call", [
    lambda: tf.nn.conv2d(_f64([1, 3, 3, 1]), _var([1, 1, 1, 1]), 1, "SAME"),
    lambda: tf.nn.conv2d(_var([1, 3, 3, 1]), _f64([1, 1, 1, 1]), 1, "SAME"),
    lambda: tf.nn.conv1d(_f64([1, 3, 1]), _var([1, 1, 1]), 1, "SAME"),
    lambda: tf.nn.conv3d(_f64([1, 3, 3, 3, 1]), _var([1, 1, 1, 1, 1]), [1] * 5, "SAME"),
    lambda: tf.nn.depthwise_conv2d(_var([1, 3, 3, 1]), _f64([1, 1, 1, 1]), [1] * 4, "SAME"),
    lambda: tf.nn.bias_add(_var([1, 2]), _f64([2])),
    lambda: tf.nn.bias_add(_f64([1, 2]), _var([2])),
], ids=["conv2d", "conv2d-variable-input", "conv1d", "conv3d", "depthwise", "bias_add",
        "bias_add-variable-bias"])
def test_a_variable_of_another_dtype_is_the_ops_error(call):
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"as input #1\(zero-based\) was expected to be a (double|float) "
                             r"tensor but is a (float|double) tensor"):
        call()


def test_a_variable_filter_of_another_dtype_fails_converting_in_transposed_convolutions():
    with pytest.raises(ValueError, match="Incompatible type conversion requested to type "
                                         "float64 for `tf.Variable of type float32"):
        tf.nn.conv2d_transpose(_var([1, 3, 3, 1]), _f64([1, 1, 1, 1]), [1, 3, 3, 1], 1)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_depthwise_filter_longer_than_the_input_gives_an_empty_output(dtype):
    # TF's float64 kernel (its float32 oneDNN one returns uninitialized memory of the
    # input's size)
    y = tf.nn.depthwise_conv2d(tf.ones([1, 2, 2, 1], dtype), tf.ones([3, 1, 1, 1], dtype),
                               [1, 1, 1, 1], "VALID")
    assert y.shape == [1, 0, 2, 1] and y.dtype == dtype
    y = tf.nn.depthwise_conv2d(tf.ones([1, 2, 2, 2], dtype), tf.ones([3, 3, 2, 2], dtype),
                               [1, 1, 1, 1], "VALID")
    assert y.shape == [1, 0, 0, 4]
    assert tf.nn.conv2d(tf.ones([1, 1, 2, 2], dtype), tf.ones([1, 3, 2, 2], dtype), 1,
                        "VALID").shape == [1, 1, 0, 2]
    assert tf.keras.layers.DepthwiseConv2D(3, dtype=dtype)(
        tf.ones([1, 2, 2, 2], dtype)).shape == [1, 0, 0, 2]


def test_sizes_given_as_numpy_arrays():
    # (a NumPy int64 array of sizes raised TypeError: only 0-dimensional arrays convert)
    x, w = tf.ones([2, 4, 4, 3]), tf.ones([3, 3, 5, 3])
    expected = tf.nn.conv2d_transpose(x, w, [2, 8, 8, 5], 2).numpy()
    np.testing.assert_array_equal(
        tf.nn.conv2d_transpose(x, w, np.array([2, 8, 8, 5]), 2).numpy(), expected)
    traced = tf.function(lambda a: tf.nn.conv2d_transpose(a, w, np.array([2, 8, 8, 5]), 2))
    np.testing.assert_array_equal(traced(x).numpy(), expected)
    grad = tf.compat.v1.nn.conv2d_backprop_filter(x, np.array([3, 3, 3, 5]), tf.ones([2, 4, 4, 5]),
                                                  [1, 1, 1, 1], "SAME")
    assert grad.shape == (3, 3, 3, 5)


def _traced_shape(fn, spec):
    return tf.function(fn, input_signature=[tf.TensorSpec(spec)]).get_concrete_function(
    ).structured_outputs.shape.as_list()


def test_dilated_wrappers_lose_spatial_dims_unknown_while_tracing_as_tf():
    # TF's depthwise/separable/atrous convolutions, nn.convolution and nn.pool run a dilated
    # op on a space-to-batch view whose padding an unknown spatial dim leaves to run time
    depthwise = tf.ones([3, 3, 3, 2])
    cases = {
        "depthwise": lambda x: tf.nn.depthwise_conv2d(x, depthwise, [1, 1, 1, 1], "VALID",
                                                     dilations=[2, 3]),
        "separable": lambda x: tf.nn.separable_conv2d(x, depthwise, tf.ones([1, 1, 6, 4]),
                                                     [1, 1, 1, 1], "SAME", dilations=[2, 2]),
        "atrous": lambda x: tf.nn.atrous_conv2d(x, tf.ones([3, 3, 3, 4]), 2, "VALID"),
        "convolution": lambda x: tf.nn.convolution(x, tf.ones([3, 3, 3, 4]), padding="VALID",
                                                   dilations=[2, 1]),
        "pool": lambda x: tf.nn.pool(x, [2, 2], "MAX", padding="VALID", dilations=[2, 2]),
    }
    channels = {"depthwise": 6, "separable": 4, "atrous": 4, "convolution": 4, "pool": 3}
    for name, fn in cases.items():
        assert _traced_shape(fn, [2, None, 9, 3]) == [2, None, None, channels[name]], name
        assert _traced_shape(fn, [None, None, 9, 3]) == [None, None, None, channels[name]]
        known = _traced_shape(fn, [None, 7, 9, 3])  # (all spatial dims known: all computed)
        assert known[0] is None and None not in known[1:], name
    # the op itself, its rate-1 form and conv2d keep what they know
    assert _traced_shape(lambda x: tf.nn.depthwise_conv2d(x, depthwise, [1, 1, 1, 1], "VALID"),
                         [2, None, 9, 3]) == [2, None, 7, 6]
    assert _traced_shape(lambda x: tf.raw_ops.DepthwiseConv2dNative(
        input=x, filter=depthwise, strides=[1, 1, 1, 1], padding="VALID",
        dilations=[1, 2, 1, 1]), [2, None, 9, 3]) == [2, None, 7, 6]
    assert _traced_shape(lambda x: tf.nn.conv2d(x, tf.ones([3, 3, 3, 4]), 1, "VALID",
                                                dilations=2), [2, None, 9, 3]) == [2, None, 5, 4]
    # channels first: only the batch dim stays
    assert _traced_shape(lambda x: tf.nn.depthwise_conv2d(
        x, depthwise, [1, 1, 1, 1], "SAME", data_format="NCHW", dilations=[2, 2]),
        [2, 3, None, 9]) == [2, None, None, None]


def test_depthwise_backprop_input_shape_is_its_input_sizes_as_tf():
    fn = lambda x: tf.nn.depthwise_conv2d_backprop_input(  # noqa: E731
        tf.shape(x), tf.ones([3, 3, 3, 2]), tf.ones([2, 7, 9, 6]), [1, 1, 1, 1], "SAME")
    assert _traced_shape(fn, [None, 7, 9, 3]) == [None, 7, 9, 3]
    fn = lambda x: tf.nn.depthwise_conv2d_backprop_input(  # noqa: E731
        [2, 7, 9, 3], tf.ones([3, 3, 3, 2]), x[..., :1] * tf.ones([6]), [1, 1, 1, 1], "SAME")
    assert _traced_shape(fn, [None, 7, 9, 3]) == [2, 7, 9, 3]


@pytest.mark.parametrize("padding, expected", [
    ("SAME", [[18, 16, -8], [35, 30, -10], [110, 105, -10], [42, 64, 23]]),
    ("VALID", [[30], [55]]),
    ([[0, 0], [1, 0], [0, 2], [0, 0]], [[16, 18, -9], [30, 35, -10], [105, 110, -10]]),
])
def test_depthwise_conv2d_dilated_and_strided_gives_tfs_grid_values(padding, expected):
    # TF dilates by cutting the input into interleaved grids and strides within each grid
    # (with a warning that strides should be 1): TF 2.21's values
    x = tf.reshape(tf.range(30, dtype=tf.float32), [1, 6, 5, 1])
    w = tf.constant([[[[1.0]], [[2.0]]], [[[-1.0]], [[3.0]]]])
    with pytest.warns(UserWarning, match="strides must be 1"):
        y = tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], padding, dilations=[2, 2])
    np.testing.assert_array_equal(y[0, :, :, 0].numpy(), expected)
    if padding == "SAME":
        with pytest.warns(UserWarning, match="strides must be 1"):
            y = tf.nn.depthwise_conv2d(tf.transpose(x, [0, 3, 1, 2]), w, [1, 1, 2, 2], "SAME",
                                       data_format="NCHW", dilations=[2, 2])
        np.testing.assert_array_equal(y[0, 0].numpy(), expected)


def test_separable_conv2d_dilated_and_strided_and_traced_with_unknown_sizes():
    x = tf.reshape(tf.range(30, dtype=tf.float32), [1, 6, 5, 1])
    w = tf.constant([[[[1.0]], [[2.0]]], [[[-1.0]], [[3.0]]]])
    expected = [[26, 30, 34, 38, -18], [50, 60, 70, 80, -20], [200, 210, 220, 230, -20],
                [124, 130, 136, 142, 48]]  # TF 2.21's
    y = tf.nn.separable_conv2d(x, w, tf.constant([[[[2.0]]]]), [1, 2, 1, 1], "SAME",
                               dilations=[2, 1])
    np.testing.assert_array_equal(y[0, :, :, 0].numpy(), expected)

    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 1])])
    def f(v):
        return tf.nn.separable_conv2d(v, w, tf.constant([[[[2.0]]]]), [1, 2, 1, 1], "SAME",
                                      dilations=[2, 1])
    np.testing.assert_array_equal(f(x)[0, :, :, 0].numpy(), expected)


def test_with_space_to_batch_takes_a_whole_filter_shape_unknown_sizes_and_explicit_padding():
    x = tf.reshape(tf.range(25.0), [1, 5, 5, 1])

    def pool(v, n, padding):
        return tf.nn.avg_pool2d(v, 3, 1, padding)
    want = tf.nn.with_space_to_batch(x, [2, 2], "SAME", pool, filter_shape=[3, 3])
    got = tf.nn.with_space_to_batch(x, [2, 2], "SAME", pool, filter_shape=[3, 3, 1, 1])
    np.testing.assert_array_equal(got.numpy(), want.numpy())

    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 1])])
    def f(v):
        return tf.nn.with_space_to_batch(v, [2, 2], "SAME", pool, filter_shape=[3, 3])
    np.testing.assert_array_equal(f(x).numpy(), want.numpy())
    explicit = tf.nn.with_space_to_batch(x, [2, 2], [[0, 0], [2, 2], [2, 2], [0, 0]], pool)
    np.testing.assert_array_equal(explicit.numpy(), want.numpy())


@pytest.mark.parametrize("dtype", [tf.float16, tf.float64, tf.int32])
def test_channels_first_cpu_kernels_refuse_dtypes_without_onednn(dtype):
    # TF's CPU runs NCHW only through oneDNN (float32, bfloat16): the default kernels refuse it
    x, w = tf.ones([1, 2, 4, 4], dtype), tf.ones([2, 2, 2, 2], dtype)
    with pytest.raises(tf.errors.UnimplementedError,
                       match="Conv2D op currently only supports the NHWC tensor format on the "
                             "CPU. The op was given the format: NCHW"):
        tf.nn.conv2d(x, w, 1, "VALID", data_format="NCHW")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Default MaxPoolingOp only supports NHWC on device type CPU"):
        tf.nn.max_pool2d(x, 2, 2, "VALID", data_format="NCHW")
    if dtype == tf.int32:
        return  # (AvgPool, DepthwiseConv2dNative and Conv3D allow no int32 at all)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Default AvgPoolingOp only supports NHWC on device type CPU"):
        tf.nn.avg_pool2d(x, 2, 2, "VALID", data_format="NCHW")
    with pytest.raises(tf.errors.UnimplementedError,
                       match="Depthwise convolution on CPU is only supported for NHWC format"):
        tf.nn.depthwise_conv2d(x, tf.ones([2, 2, 2, 1], dtype), [1, 1, 1, 1], "VALID",
                               data_format="NCHW")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="CPU implementation of Conv3D currently only supports the NHWC"):
        tf.nn.conv3d(tf.ones([1, 2, 3, 3, 3], dtype), tf.ones([2, 2, 2, 2, 2], dtype),
                     [1, 1, 1, 1, 1], "VALID", data_format="NCDHW")
    # channels-last works in every dtype TF's CPU takes
    assert tf.nn.max_pool2d(tf.ones([1, 4, 4, 2], dtype), 2, 2, "VALID").dtype == dtype


@pytest.mark.parametrize("dtype", [tf.float32, tf.bfloat16])
def test_channels_first_runs_in_float32_and_bfloat16(dtype):
    x = tf.ones([1, 2, 4, 4], dtype)
    assert tf.nn.conv2d(x, tf.ones([2, 2, 2, 3], dtype), 1, "VALID",
                        data_format="NCHW").shape == [1, 3, 3, 3]
    assert tf.nn.max_pool2d(x, 2, 2, "VALID", data_format="NCHW").shape == [1, 2, 2, 2]
    assert tf.nn.avg_pool3d(tf.ones([1, 2, 4, 4, 4], dtype), 2, 2, "VALID",
                            data_format="NCDHW").shape == [1, 2, 2, 2, 2]


def test_3d_pooling_dtypes_as_tf_cpu():
    x = tf.ones([1, 4, 4, 4, 1], tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of double is not in the list of allowed "
                             "values: half, bfloat16, float\n"):
        tf.nn.max_pool3d(x, 2, 2, "VALID")
    with pytest.raises(tf.errors.NotFoundError, match=r"AvgPool3D\[T=DT_DOUBLE"):
        tf.nn.avg_pool3d(x, 2, 2, "VALID")
    for pool in (tf.nn.max_pool3d, tf.nn.avg_pool3d):
        with pytest.raises(tf.errors.NotFoundError, match=r"\[T=DT_HALF"):
            pool(tf.ones([1, 4, 4, 4, 1], tf.float16), 2, 2, "VALID")
        assert pool(tf.ones([1, 4, 4, 4, 1], tf.bfloat16), 2, 2, "VALID").dtype == tf.bfloat16


def test_fused_batch_norm_dtypes_as_tf():
    fbn = tf.compat.v1.nn.fused_batch_norm
    ones = tf.ones([3], tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'T' of double is not in the list of allowed "
                             "values: half, bfloat16, float\n"):
        fbn(tf.ones([1, 2, 2, 3], tf.float64), ones, ones)
    halves = tf.ones([3], tf.bfloat16)
    with pytest.raises(tf.errors.NotFoundError, match="T=DT_FLOAT, U=DT_BFLOAT16"):
        fbn(tf.ones([1, 2, 2, 3]), halves, halves, halves, halves)
    for dtype in (tf.float16, tf.bfloat16, tf.float32):
        y, mean, _ = fbn(tf.ones([1, 2, 2, 3], dtype), tf.ones([3]), tf.zeros([3]))
        assert (y.dtype, mean.dtype) == (dtype, tf.float32)


@pytest.mark.parametrize("dtype", [tf.float16, tf.float64])
def test_channels_first_transposed_convolutions_refuse_dtypes_without_onednn(dtype):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Conv2DCustomBackpropInputOp only supports NHWC\."):
        tf.nn.conv2d_transpose(tf.ones([1, 2, 3, 3], dtype), tf.ones([2, 2, 2, 2], dtype),
                               [1, 2, 3, 3], 1, "SAME", data_format="NCHW")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Conv3DBackpropInputOpV2 only supports NDHWC on the CPU\."):
        tf.nn.conv3d_transpose(tf.ones([1, 2, 3, 3, 3], dtype), tf.ones([2, 2, 2, 2, 2], dtype),
                               [1, 2, 3, 3, 3], [1, 1, 1, 1, 1], "SAME", data_format="NCDHW")
    with pytest.raises(tf.errors.UnimplementedError,
                       match="Depthwise convolution on CPU is only supported for NHWC format"):
        tf.nn.depthwise_conv2d_backprop_input([1, 2, 3, 3], tf.ones([2, 2, 2, 1], dtype),
                                              tf.ones([1, 2, 3, 3], dtype), [1, 1, 1, 1],
                                              "SAME", data_format="NCHW")
    y = tf.nn.conv2d_transpose(tf.ones([1, 2, 3, 3]), tf.ones([2, 2, 2, 2]), [1, 2, 3, 3], 1,
                               "SAME", data_format="NCHW")
    assert y.shape == [1, 2, 3, 3]


def test_float16_filter_gradient_sums_in_float16_as_tensorflow():
    """A float16 filter gradient adds each output position's product to a float16 running
    sum, as TensorFlow's CPU kernel does (summed in float32, it differed from the third
    digit, and so did a mixed_float16 Conv2D model's training)."""
    x = np.sin(np.arange(2 * 5 * 5 * 2)).reshape(2, 5, 5, 2).astype(np.float16)
    dy = (np.cos(np.arange(2 * 4 * 4 * 2)) * 100).reshape(2, 4, 4, 2).astype(np.float16)
    dw = tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=[2, 2, 2, 2], out_backprop=dy,
                                         strides=[1, 1, 1, 1], padding="VALID")
    assert dw.dtype == tf.float16
    assert dw.numpy().ravel().tolist() == [  # TensorFlow 2.21's values
        -430.75, -428.25, 37.4375, -29.34375, 471.25, 396.25, 471.75, 458.0,
        186.625, 228.375, -323.0, -242.125, -536.0, -490.0, -255.75, -287.25]
    w = tf.Variable(np.zeros((2, 2, 2, 2), np.float16))
    with tf.GradientTape() as tape:
        y = tf.nn.conv2d(x, w, 1, "VALID")
        loss = tf.reduce_sum(y * dy)
    assert tape.gradient(loss, w).numpy().tolist() == dw.numpy().tolist()
