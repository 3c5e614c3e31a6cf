"""Batch normalization, forward and backward, on oneDNN.

The functions take the arrays of ``FusedBatchNormV3`` and its gradient in
TensorFlow's layout (channels last or first, 4-D or 5-D) and return the
results, or None where oneDNN is off or has no kernel for the case: the
caller's NumPy code runs then, as it does for channels-first data (oneDNN's
kernel for it is slower than NumPy's). oneDNN sees channels-last data as
(batch, channels, *spatial) through the arrays' strides. It gives the batch statistics with the
biased variance; the caller derives the running statistics from them.
"""
import ctypes

import numpy as np

from eagerflow._src.backend import onednn
from eagerflow._src.backend import onednn_api as api

_F32 = np.dtype(np.float32)


# oneDNN sums each thread's share of a channel in float32, one element after another:
# on larger channels its statistics lose digits that NumPy's blocked sums keep
_MOST_PER_CHANNEL = 1 << 16


def _usable(x, data_format, *vectors):
    if x.dtype != _F32 or x.size == 0 or any(v.dtype != _F32 for v in vectors):
        return False
    if x.size // x.shape[-1] > _MOST_PER_CHANNEL:
        return False
    # channels first runs oneDNN's generic kernel, slower than NumPy's
    return not data_format.startswith("NC") and onednn.enabled()


def _describe(shape, channels_first):
    """The `Desc` of a C-contiguous float32 array of TF-layout `shape`, in oneDNN's order."""
    nd = len(shape) - 2
    order = (0, 1, *range(2, nd + 2)) if channels_first else (0, nd + 1, *range(1, nd + 1))
    strides = onednn.plain_strides(shape, np.float32)
    return onednn.describe([shape[i] for i in order], np.float32, [strides[i] for i in order])


def _flags(training):
    flags = api.USE_SCALE | api.USE_SHIFT
    return flags if training else flags | api.USE_GLOBAL_STATS


def _forward_pd(prop, data, epsilon, flags):
    pd = onednn._Handle("dnnl_primitive_desc_destroy")
    onednn.lib().dnnl_batch_normalization_forward_primitive_desc_create(
        ctypes.byref(pd.value), onednn._engine, prop, data.handle, data.handle, epsilon, flags,
        None)
    return pd


def _primitive(backward, shape, channels_first, epsilon, training):
    """The cached forward (or backward) batch normalization of one configuration."""
    key = ("batch_norm", backward, tuple(shape), channels_first, float(epsilon), training)

    def build():
        try:
            data = _describe(shape, channels_first)
            flags = _flags(training)
            prop = api.FORWARD_TRAINING if training or backward else api.FORWARD_INFERENCE
            forward_pd = _forward_pd(prop, data, epsilon, flags)
            vectors = {api.ARG_MEAN: None, api.ARG_VARIANCE: None, api.ARG_SCALE: None}
            if not backward:
                return onednn.Primitive(forward_pd, {api.ARG_SRC: data, api.ARG_DST: data,
                                                     api.ARG_SHIFT: None, **vectors},
                                        keep=(data,))
            pd = onednn._Handle("dnnl_primitive_desc_destroy")
            onednn.lib().dnnl_batch_normalization_backward_primitive_desc_create(
                ctypes.byref(pd.value), onednn._engine, api.BACKWARD, data.handle, data.handle,
                data.handle, epsilon, flags, forward_pd.value, None)
            plain = {api.ARG_SRC: data, api.ARG_DIFF_DST: data, api.ARG_DIFF_SRC: data,
                     api.ARG_DIFF_SCALE: None, api.ARG_DIFF_SHIFT: None, **vectors}
            return onednn.Primitive(pd, plain, keep=(data, forward_pd))
        except api.DnnlError as error:  # refused configurations fall back to NumPy
            raise api.Unsupported(str(error), api.UNIMPLEMENTED) from None
    return onednn.cached(key, build)


def _channels(x, channels_first):
    return x.shape[1] if channels_first else x.shape[-1]


def batch_norm(x, scale, offset, mean, variance, epsilon, training, data_format):
    """``(y, batch mean, biased batch variance)`` of training, or ``(y, mean, variance)`` of
    inference with the given statistics; None where oneDNN does not run it."""
    vectors = (scale, offset) if training else (scale, offset, mean, variance)
    if not _usable(x, data_format, *vectors):
        return None
    channels_first = data_format.startswith("NC")
    prim = _primitive(False, x.shape, channels_first, epsilon, training)
    if prim is None:
        return None
    x = np.ascontiguousarray(x)
    scale, offset = np.ascontiguousarray(scale), np.ascontiguousarray(offset)
    y = np.empty(x.shape, x.dtype)
    if training:
        channels = _channels(x, channels_first)
        mean, variance = np.empty(channels, _F32), np.empty(channels, _F32)
        prim({api.ARG_SRC: x, api.ARG_SCALE: scale, api.ARG_SHIFT: offset},
             {api.ARG_DST: y, api.ARG_MEAN: mean, api.ARG_VARIANCE: variance})
    else:
        mean, variance = np.ascontiguousarray(mean), np.ascontiguousarray(variance)
        prim({api.ARG_SRC: x, api.ARG_SCALE: scale, api.ARG_SHIFT: offset, api.ARG_MEAN: mean,
              api.ARG_VARIANCE: variance}, {api.ARG_DST: y})
    return y, mean, variance


def batch_norm_grad(dy, x, scale, mean, variance, epsilon, training, data_format):
    """``(dx, dscale, doffset)`` of batch normalization with statistics `mean` and
    (biased) `variance`, or None where oneDNN does not run it."""
    if not _usable(x, data_format, dy, scale, mean, variance):
        return None
    channels_first = data_format.startswith("NC")
    prim = _primitive(True, x.shape, channels_first, epsilon, training)
    if prim is None:
        return None
    arrays = [np.ascontiguousarray(a) for a in (dy, x, scale, mean, variance)]
    dy, x, scale, mean, variance = arrays
    channels = _channels(x, channels_first)
    dx = np.empty(x.shape, x.dtype)
    dscale, doffset = np.empty(channels, _F32), np.empty(channels, _F32)
    prim({api.ARG_DIFF_DST: dy, api.ARG_SRC: x, api.ARG_SCALE: scale, api.ARG_MEAN: mean,
          api.ARG_VARIANCE: variance},
         {api.ARG_DIFF_SRC: dx, api.ARG_DIFF_SCALE: dscale, api.ARG_DIFF_SHIFT: doffset})
    return dx, dscale, doffset
