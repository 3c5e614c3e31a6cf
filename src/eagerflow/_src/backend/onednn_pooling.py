"""Max and average pooling, forward and backward, on oneDNN.

Each function takes the arrays of a pooling kernel in their TensorFlow layout
(channels last or first, 1 to 3 spatial dims) with the window's spatial
ksize, strides and (before, after) paddings, and returns the result, or None
where oneDNN is off or has no kernel for the case: the caller's NumPy code
runs then. oneDNN sees every layout as (batch, channels, *spatial) through the
arrays' strides, so nothing is transposed.

Average pooling excludes the padding from each window's count, as TensorFlow's
SAME padding does. Max pooling's gradient routes each window's gradient to the
first of its maxima, through the workspace of a forward pass run again inside
the gradient kernel (the gradient op gets x, not the forward's workspace);
inputs holding NaN or nothing above the lowest float go to NumPy, which routes
those windows as TensorFlow does.
"""
import ctypes

import numpy as np

from eagerflow._src.backend import onednn
from eagerflow._src.backend import onednn_api as api

try:
    import ml_dtypes
    _TYPES = (np.dtype(np.float32), np.dtype(ml_dtypes.bfloat16))
except ImportError:  # pragma: no cover - ml_dtypes is a dependency
    _TYPES = (np.dtype(np.float32),)


def _usable(x, pads, ksize):
    """Whether oneDNN should run a pooling of `x`: float32 or bfloat16 (averaged in
    float32, rounded once), non-empty, every window real."""
    if x.dtype not in _TYPES or x.size == 0 or not onednn.enabled():
        return False
    # a window made of padding alone (explicit paddings as large as the window) has no
    # element to average or take the max of: the NumPy kernels define those
    return all(b < k and a < k for (b, a), k in zip(pads, ksize))


def _lowest(dtype):
    """The lowest finite value of float `dtype` (NumPy's finfo knows no bfloat16)."""
    return (ml_dtypes.finfo if dtype == _TYPES[-1] else np.finfo)(dtype).min


def _logical(shape, channels_first):
    """(batch, channels, *spatial) of a TF-layout shape, and the axis order that gives it."""
    nd = len(shape) - 2
    order = (0, 1, *range(2, nd + 2)) if channels_first else (0, nd + 1, *range(1, nd + 1))
    return tuple(shape[i] for i in order), order


def _describe(shape, channels_first, dtype):
    """The `Desc` of a C-contiguous array of TF-layout `shape`, in oneDNN's order."""
    logical, order = _logical(shape, channels_first)
    strides = onednn.plain_strides(shape, dtype)
    return onednn.describe(logical, dtype, [strides[i] for i in order])


def _forward_pd(prop, algorithm, src, dst, ksize, strides, pads):
    pd, attr = onednn._Handle("dnnl_primitive_desc_destroy"), onednn.attributes()
    nd = len(ksize)
    onednn.lib().dnnl_pooling_forward_primitive_desc_create(
        ctypes.byref(pd.value), onednn._engine, prop, algorithm, src.handle, dst.handle,
        onednn.dims(strides), onednn.dims(ksize), onednn.dims([0] * nd),
        onednn.dims([b for b, _ in pads]), onednn.dims([a for _, a in pads]),
        attr.value)
    return pd


def _backward_pd(algorithm, diff_src, diff_dst, ksize, strides, pads, hint):
    pd, attr = onednn._Handle("dnnl_primitive_desc_destroy"), onednn.attributes()
    nd = len(ksize)
    onednn.lib().dnnl_pooling_backward_primitive_desc_create(
        ctypes.byref(pd.value), onednn._engine, algorithm, diff_src.handle, diff_dst.handle,
        onednn.dims(strides), onednn.dims(ksize), onednn.dims([0] * nd),
        onednn.dims([b for b, _ in pads]), onednn.dims([a for _, a in pads]), hint.value,
        attr.value)
    return pd


def _build(build):
    """`build()`, with oneDNN's refusals (invalid or unimplemented) made `Unsupported`."""
    try:
        return build()
    except api.DnnlError as error:
        raise api.Unsupported(str(error), api.UNIMPLEMENTED) from None


def _algorithm(average):
    return api.POOLING_AVG_EXCLUDE_PADDING if average else api.POOLING_MAX


def _primitives(average, training, in_shape, out_shape, channels_first, ksize, strides, pads,
                dtype):
    """The cached (forward, backward or None) primitives of one pooling configuration."""
    key = ("pooling", average, training, tuple(in_shape), tuple(out_shape), channels_first,
           tuple(ksize), tuple(strides), tuple(map(tuple, pads)), dtype)

    def build():
        src = _describe(in_shape, channels_first, dtype)
        dst = _describe(out_shape, channels_first, dtype)
        prop = api.FORWARD_TRAINING if training else api.FORWARD_INFERENCE
        forward_pd = _forward_pd(prop, _algorithm(average), src, dst, ksize, strides, pads)
        plain = {api.ARG_SRC: src, api.ARG_DST: dst}
        if training and not average:
            plain[api.ARG_WORKSPACE] = None
        forward = onednn.Primitive(forward_pd, plain, keep=(src, dst))
        if not training:
            return forward, None
        backward_pd = _backward_pd(_algorithm(average), src, dst, ksize, strides, pads,
                                   forward_pd)
        plain = {api.ARG_DIFF_DST: dst, api.ARG_DIFF_SRC: src}
        if not average:
            plain[api.ARG_WORKSPACE] = None
        return forward, onednn.Primitive(backward_pd, plain, keep=(src, dst, forward))
    return onednn.cached(key, lambda: _build(build))


def pool(average, x, out_shape, ksize, strides, pads, data_format):
    """The max (or average, when `average`) pooling of `x` into `out_shape`, or None."""
    if not _usable(x, pads, ksize) or not all(out_shape):
        return None
    channels_first = data_format.startswith("NC")
    prims = _primitives(average, False, x.shape, out_shape, channels_first, ksize, strides, pads,
                        x.dtype)
    if prims is None:
        return None
    x = np.ascontiguousarray(x)
    y = np.empty(out_shape, x.dtype)
    prims[0]({api.ARG_SRC: x}, {api.ARG_DST: y})
    return y


def max_pool_grad(x, dy, ksize, strides, pads, data_format):
    """The gradient of max pooling `x` for output gradient `dy`, or None."""
    if not _usable(x, pads, ksize) or dy.dtype != x.dtype or dy.size == 0:
        return None
    channels_first = data_format.startswith("NC")
    prims = _primitives(False, True, x.shape, dy.shape, channels_first, ksize, strides, pads,
                        x.dtype)
    if prims is None:
        return None
    # oneDNN sends a window's gradient elsewhere than TensorFlow when the window starts
    # with NaN or holds nothing above the lowest float (padding then competes): NumPy's
    # kernel routes those as TensorFlow does
    if not x.min() > _lowest(x.dtype):  # NaN fails too
        return None
    forward, backward = prims
    x, dy = np.ascontiguousarray(x), np.ascontiguousarray(dy)
    workspace = np.empty(forward.size(api.ARG_WORKSPACE), np.uint8)
    forward({api.ARG_SRC: x}, {api.ARG_DST: np.empty(dy.shape, x.dtype),
                               api.ARG_WORKSPACE: workspace})
    dx = np.empty(x.shape, x.dtype)
    backward({api.ARG_DIFF_DST: dy, api.ARG_WORKSPACE: workspace}, {api.ARG_DIFF_SRC: dx})
    return dx


def avg_pool_grad(dy, in_shape, ksize, strides, pads, data_format):
    """The gradient of average pooling an input of `in_shape` for output gradient `dy`, or
    None."""
    if not _usable(dy, pads, ksize) or not all(in_shape):
        return None
    channels_first = data_format.startswith("NC")
    prims = _primitives(True, True, in_shape, dy.shape, channels_first, ksize, strides, pads,
                        dy.dtype)
    if prims is None:
        return None
    dx = np.empty(tuple(in_shape), dy.dtype)
    prims[1]({api.ARG_DIFF_DST: np.ascontiguousarray(dy)}, {api.ARG_DIFF_SRC: dx})
    return dx
