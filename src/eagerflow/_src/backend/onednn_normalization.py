"""Batch normalization, forward and backward, on oneDNN.

The functions take the arrays of ``FusedBatchNormV3`` and its gradient in
TensorFlow's layout (channels last or first, 4-D or 5-D) and return the
results, or None where oneDNN is off or has no kernel for the case: the
caller's NumPy code runs then, as it does for channels-first data (oneDNN's
kernel for it is slower than NumPy's) except a single example's in training:
Keras's layer normalization, which oneDNN's layer normalization kernel runs.
Data may be float32 or bfloat16 (oneDNN computes in float32 and rounds the
results once, as the NumPy code does), the statistics, scale and offset float32.
oneDNN sees channels-last data as (batch, channels, *spatial) through the
arrays' strides. It gives the batch statistics with the biased variance; the
caller derives the running statistics from them.
"""
import ctypes
import math

import numpy as np

from eagerflow._src.backend import onednn
from eagerflow._src.backend import onednn_api as api
from eagerflow._src.backend import threads

_F32 = np.dtype(np.float32)
try:
    import ml_dtypes
    _DATA = frozenset({_F32, np.dtype(ml_dtypes.bfloat16)})
except ImportError:  # pragma: no cover - ml_dtypes is a dependency
    _DATA = frozenset({_F32})


# oneDNN sums each thread's share of a channel in float32, one element after another:
# on larger channels its statistics lose digits that NumPy's blocked sums keep
_MOST_PER_CHANNEL = 1 << 16


def _usable(x, data_format, *vectors):
    """float32 or bfloat16 data (statistics, scale and offset in float32, as TF's)."""
    if x.dtype not in _DATA or x.size == 0 or any(v.dtype != _F32 for v in vectors):
        return False
    if x.size // x.shape[-1] > _MOST_PER_CHANNEL:
        return False
    # channels first runs oneDNN's generic kernel, slower than NumPy's
    return not data_format.startswith("NC") and onednn.enabled()


def _as_rows(x, data_format, training):
    """A single example's channels-first `x` as (channels, elements) rows, or None.

    Batch normalization in training of one example, channels first, normalizes each
    channel's row: layer normalization of the rows, which is how Keras's
    LayerNormalization calls this op. oneDNN's layer normalization kernel is fast there.
    """
    if (not training or not data_format.startswith("NC") or x.shape[0] != 1
            or x.dtype != _F32 or x.size == 0 or x.size // x.shape[1] > _MOST_PER_CHANNEL):
        return None
    return x.reshape(x.shape[1], -1)


def _layer_norm(backward, rows, epsilon):
    """The cached oneDNN layer normalization (forward training, or backward data) of rows
    shaped `rows`, without scale and shift."""
    key = ("layer_norm_rows", backward, tuple(rows), float(epsilon))

    def build():
        try:
            attr = onednn.attributes()  # kept alive while the descriptors are made
            data = onednn.describe(rows, np.float32, onednn.plain_strides(rows, np.float32))
            stats = onednn.describe(rows[:1], np.float32, (4,))
            forward_pd = onednn._Handle("dnnl_primitive_desc_destroy")
            onednn.lib().dnnl_layer_normalization_forward_primitive_desc_create(
                ctypes.byref(forward_pd.value), onednn._engine, api.FORWARD_TRAINING,
                data.handle, data.handle, stats.handle, epsilon, 0, attr.value)
            vectors = {api.ARG_MEAN: stats, api.ARG_VARIANCE: stats}
            if not backward:
                return onednn.Primitive(forward_pd, {api.ARG_SRC: data, api.ARG_DST: data,
                                                     **vectors}, keep=(data, stats))
            pd = onednn._Handle("dnnl_primitive_desc_destroy")
            onednn.lib().dnnl_layer_normalization_backward_primitive_desc_create(
                ctypes.byref(pd.value), onednn._engine, api.BACKWARD_DATA, data.handle,
                data.handle, data.handle, stats.handle, epsilon, 0, forward_pd.value,
                attr.value)
            plain = {api.ARG_SRC: data, api.ARG_DIFF_DST: data, api.ARG_DIFF_SRC: data,
                     **vectors}
            return onednn.Primitive(pd, plain, keep=(data, stats, forward_pd))
        except api.DnnlError as error:  # refused configurations fall back to NumPy
            raise api.Unsupported(str(error), api.UNIMPLEMENTED) from None
    return onednn.cached(key, build)


def _rows_forward(rows, shape, scale, offset, epsilon):
    if scale.dtype != _F32 or offset.dtype != _F32 or not onednn.enabled():
        return None
    prim = _layer_norm(False, rows.shape, epsilon)
    if prim is None:
        return None
    rows = np.ascontiguousarray(rows)
    y = np.empty(rows.shape, _F32)
    mean, variance = np.empty(rows.shape[0], _F32), np.empty(rows.shape[0], _F32)
    prim({api.ARG_SRC: rows}, {api.ARG_DST: y, api.ARG_MEAN: mean, api.ARG_VARIANCE: variance})
    if not (scale == 1).all():
        y *= scale[:, None]
    if offset.any():
        y += offset[:, None]
    return y.reshape(shape), mean, variance


def _rows_backward(dy, rows, shape, scale, mean, variance, epsilon):
    if any(v.dtype != _F32 for v in (dy, scale, mean, variance)) or not onednn.enabled():
        return None
    prim = _layer_norm(True, rows.shape, epsilon)
    if prim is None:
        return None
    rows, mean, variance = (np.ascontiguousarray(a) for a in (rows, mean, variance))
    dy = np.ascontiguousarray(dy).reshape(rows.shape)
    dx = np.empty(rows.shape, _F32)
    prim({api.ARG_SRC: rows, api.ARG_DIFF_DST: dy, api.ARG_MEAN: mean,
          api.ARG_VARIANCE: variance}, {api.ARG_DIFF_SRC: dx})
    if not (scale == 1).all():
        dx *= scale[:, None]
    inv_std = 1 / np.sqrt(variance + np.float32(epsilon))
    dscale = np.einsum("cs,cs->c", dy, rows - mean[:, None]) * inv_std
    return dx.reshape(shape), dscale, dy.sum(1)


def _describe(shape, channels_first, dtype=_F32):
    """The `Desc` of a C-contiguous array of TF-layout `shape`, in oneDNN's order."""
    nd = len(shape) - 2
    order = (0, 1, *range(2, nd + 2)) if channels_first else (0, nd + 1, *range(1, nd + 1))
    strides = onednn.plain_strides(shape, dtype)
    return onednn.describe([shape[i] for i in order], dtype, [strides[i] for i in order])


def _flags(training):
    flags = api.USE_SCALE | api.USE_SHIFT
    return flags if training else flags | api.USE_GLOBAL_STATS


def _forward_pd(prop, data, epsilon, flags):
    pd, attr = onednn._Handle("dnnl_primitive_desc_destroy"), onednn.attributes()
    onednn.lib().dnnl_batch_normalization_forward_primitive_desc_create(
        ctypes.byref(pd.value), onednn._engine, prop, data.handle, data.handle, epsilon, flags,
        attr.value)
    return _shared(pd)


def _shared(pd):
    """`pd`, moved off oneDNN's first kernel when the primitive runs on several threads:
    that kernel's threads wait for each other by spinning (twenty times slower than one
    thread as soon as another process runs), the next one's only at OpenMP's barriers.
    On one thread the first kernel is the faster."""
    if threads.primitive_threads() > 1:
        onednn.skip_implementations(pd, ("bnorm_jit:",))
    return pd


def _primitive(backward, shape, channels_first, epsilon, training, dtype=_F32, relu=False):
    """The cached forward (or backward) batch normalization of one configuration; with
    `relu`, followed by a ReLU whose mask the forward keeps in a workspace (the backward
    applies it to the gradient)."""
    key = ("batch_norm", backward, tuple(shape), channels_first, float(epsilon), training,
           relu, dtype)

    def build():
        try:
            attr = onednn.attributes()  # kept alive while the descriptors are made
            data = _describe(shape, channels_first, dtype)
            flags = _flags(training) | (api.FUSE_NORM_RELU if relu else 0)
            prop = api.FORWARD_TRAINING if training or backward else api.FORWARD_INFERENCE
            forward_pd = _forward_pd(prop, data, epsilon, flags)
            # (the per-channel vectors described, so that their bindings are kept)
            vector = onednn.describe((shape[1 if channels_first else -1],), _F32, (4,))
            vectors = {api.ARG_MEAN: vector, api.ARG_VARIANCE: vector, api.ARG_SCALE: vector}
            if relu:
                vectors[api.ARG_WORKSPACE] = None
            if not backward:
                return onednn.Primitive(forward_pd, {api.ARG_SRC: data, api.ARG_DST: data,
                                                     api.ARG_SHIFT: vector, **vectors},
                                        keep=(data, vector))
            pd = onednn._Handle("dnnl_primitive_desc_destroy")
            onednn.lib().dnnl_batch_normalization_backward_primitive_desc_create(
                ctypes.byref(pd.value), onednn._engine, api.BACKWARD, data.handle, data.handle,
                data.handle, epsilon, flags, forward_pd.value, attr.value)
            _shared(pd)
            plain = {api.ARG_SRC: data, api.ARG_DIFF_DST: data, api.ARG_DIFF_SRC: data,
                     api.ARG_DIFF_SCALE: vector, api.ARG_DIFF_SHIFT: vector, **vectors}
            return onednn.Primitive(pd, plain, keep=(data, vector, forward_pd))
        except api.DnnlError as error:  # refused configurations fall back to NumPy
            raise api.Unsupported(str(error), api.UNIMPLEMENTED) from None
    return onednn.cached(key, build)


def _channels(x, channels_first):
    return x.shape[1] if channels_first else x.shape[-1]


def batch_norm(x, scale, offset, mean, variance, epsilon, training, data_format):
    """``(y, batch mean, biased batch variance)`` of training, or ``(y, mean, variance)`` of
    inference with the given statistics; None where oneDNN does not run it."""
    rows = _as_rows(x, data_format, training)
    if rows is not None:
        return _rows_forward(rows, x.shape, scale, offset, epsilon)
    vectors = (scale, offset) if training else (scale, offset, mean, variance)
    if not _usable(x, data_format, *vectors):
        return None
    channels_first = data_format.startswith("NC")
    prim = _primitive(False, x.shape, channels_first, epsilon, training, x.dtype)
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
    rows = _as_rows(x, data_format, training)
    if rows is not None:
        return _rows_backward(dy, rows, x.shape, scale, mean, variance, epsilon)
    if dy.dtype != x.dtype or not _usable(x, data_format, scale, mean, variance):
        return None
    channels_first = data_format.startswith("NC")
    prim = _primitive(True, x.shape, channels_first, epsilon, training, x.dtype)
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


def _finite(mean, variance, scale, offset, epsilon):
    """Whether the statistics, scale and offset are all finite and ``variance + epsilon``
    positive, as a fused ReLU needs: one sum of the four (any inf or NaN makes it
    non-finite; a finite sum that overflows only sends the caller to its exact path) and
    the smallest variance, three times faster than a check per vector.

    >>> ones = np.ones(2, _F32)
    >>> _finite(ones, ones, ones, np.array([1.0, np.inf], _F32), 1e-3)
    False
    """
    total = mean + variance
    total += scale
    total += offset
    # (the ufuncs' reductions: ndarray.sum and min go through Python wrappers)
    return (math.isfinite(_sum(total)) and
            bool(_least(variance) + np.float32(epsilon) > 0))


_sum, _least = np.add.reduce, np.minimum.reduce


def _workspace_items(prim):
    """float32 elements holding the ReLU mask workspace of `prim` (a whole number of them)."""
    return -(-prim.size(api.ARG_WORKSPACE) // 4)


def batch_norm_relu(x, scale, offset, epsilon, data_format):
    """``(relu(y), batch mean, biased batch variance, workspace)`` of batch normalization in
    training followed by a ReLU, in one pass; None where oneDNN does not run it.

    The workspace (float32 elements holding oneDNN's mask) goes to `batch_norm_relu_grad`.
    Where a statistic, the scale or the offset is not finite the result would differ from
    ReLU's (oneDNN's ReLU gives 0 for NaN): None then, and the caller runs the two steps.
    """
    if not _usable(x, data_format, scale, offset):
        return None
    prim = _primitive(False, x.shape, False, epsilon, True, x.dtype, relu=True)
    if prim is None:
        return None
    x = np.ascontiguousarray(x)
    scale, offset = np.ascontiguousarray(scale), np.ascontiguousarray(offset)
    y = np.empty(x.shape, x.dtype)
    channels = x.shape[-1]
    mean, variance = np.empty(channels, _F32), np.empty(channels, _F32)
    workspace = np.empty(_workspace_items(prim), _F32)
    prim({api.ARG_SRC: x, api.ARG_SCALE: scale, api.ARG_SHIFT: offset},
         {api.ARG_DST: y, api.ARG_MEAN: mean, api.ARG_VARIANCE: variance,
          api.ARG_WORKSPACE: workspace})
    if not _finite(mean, variance, scale, offset, epsilon):
        return None
    return y, mean, variance, workspace


def batch_norm_relu_grad(dy, x, scale, mean, variance, workspace, epsilon, data_format):
    """``(dx, dscale, doffset)`` of `batch_norm_relu` given the gradient `dy` of its
    result and the `workspace` it gave; None where oneDNN does not run it (or `workspace`
    is not one of this configuration's: the caller masks `dy` itself then)."""
    if dy.dtype != x.dtype or not _usable(x, data_format, scale, mean, variance, workspace):
        return None
    prim = _primitive(True, x.shape, False, epsilon, True, x.dtype, relu=True)
    if prim is None or workspace.shape != (_workspace_items(prim),):
        return None
    dy, x, scale, mean, variance, workspace = (
        np.ascontiguousarray(a) for a in (dy, x, scale, mean, variance, workspace))
    channels = x.shape[-1]
    dx = np.empty(x.shape, x.dtype)
    dscale, doffset = np.empty(channels, _F32), np.empty(channels, _F32)
    prim({api.ARG_DIFF_DST: dy, api.ARG_SRC: x, api.ARG_SCALE: scale, api.ARG_MEAN: mean,
          api.ARG_VARIANCE: variance, api.ARG_WORKSPACE: workspace},
         {api.ARG_DIFF_SRC: dx, api.ARG_DIFF_SCALE: dscale, api.ARG_DIFF_SHIFT: doffset})
    return dx, dscale, doffset


def batch_norm_add_relu(x, scale, offset, side, epsilon, data_format):
    """``(relu(y + side), batch mean, biased batch variance)`` for the result `y` of batch
    normalization in training, the sum and ReLU in one pass over the result; None where
    oneDNN does not run it.

    The normalization gives ``-y`` (its scale and offset negated), and a binary
    primitive ``max(-y, side) - (-y)`` writes over it: that is ``side + y`` where it is
    positive and 0 elsewhere, a NaN of `side` kept (where oneDNN's ReLU would give 0), as
    NumPy's ``maximum(y + side, 0)`` bit for bit: the primitive is checked on such values
    when made. None too where a statistic, the scale or the offset is not finite.
    """
    if (x.dtype != _F32 or side.dtype != _F32 or side.shape != x.shape
            or not _usable(x, data_format, scale, offset)):
        return None
    prim = _primitive(False, x.shape, False, epsilon, True)
    add_relu = _negated_add_relu(x.size)
    if prim is None or add_relu is None:
        return None
    x, side = np.ascontiguousarray(x), np.ascontiguousarray(side)
    scale, offset = np.ascontiguousarray(scale), np.ascontiguousarray(offset)
    channels = x.shape[-1]
    out = np.empty(x.shape, _F32)
    mean, variance = np.empty(channels, _F32), np.empty(channels, _F32)
    prim({api.ARG_SRC: x, api.ARG_SCALE: -scale, api.ARG_SHIFT: -offset},
         {api.ARG_DST: out, api.ARG_MEAN: mean, api.ARG_VARIANCE: variance})
    if not _finite(mean, variance, scale, offset, epsilon):
        return None
    add_relu({api.ARG_SRC_0: out, api.ARG_SRC_1: side, api.post_op_arg(0): out},
             {api.ARG_DST: out})
    return out, mean, variance


def _negated_add_relu(n):
    """The cached binary primitive ``max(a, b) - a + 0`` over `n` float32 elements (``a``
    is both its first operand and its post-op's), or None where its results differ from
    ``maximum(b - a, 0)``'s on NaN or signed zeros (its kernel picks ``b`` when one is
    NaN, and the final ``+ 0`` turns -0 into 0, as NumPy's maximum with 0 does)."""
    def build():
        try:
            prim = _binary_max_sub(n)
            probe = _binary_max_sub(len(_PROBE_A))
        except api.DnnlError as error:
            raise api.Unsupported(str(error), api.UNIMPLEMENTED) from None
        got = np.empty_like(_PROBE_A)
        probe({api.ARG_SRC_0: _PROBE_A, api.ARG_SRC_1: _PROBE_B, api.post_op_arg(0): _PROBE_A},
              {api.ARG_DST: got})
        with np.errstate(all="ignore"):
            want = np.maximum(_PROBE_B - _PROBE_A, np.float32(0))
        if not np.array_equal(got.view(np.int32), want.view(np.int32)):
            raise api.Unsupported("binary maximum drops NaN", api.UNIMPLEMENTED)
        return prim
    return onednn.cached(("negated_add_relu", n), build, serial=True)


def _binary_max_sub(n):
    flat = onednn.describe((n,), _F32, (4,))
    attr = onednn.attributes(((api.BINARY_SUB, flat), (api.ELTWISE_LINEAR, 1.0, 0.0)))
    pd = onednn._Handle("dnnl_primitive_desc_destroy")
    onednn.lib().dnnl_binary_primitive_desc_create(
        ctypes.byref(pd.value), onednn._engine, api.BINARY_MAX, flat.handle, flat.handle,
        flat.handle, attr.value)
    return onednn.Primitive(pd, {api.ARG_SRC_0: flat, api.ARG_SRC_1: flat, api.ARG_DST: flat,
                                 api.post_op_arg(0): flat}, keep=(attr,))


# negated results and side inputs whose sums take every sign, zero, infinity and NaN, 16
# of each so that the kernel's vector code runs them
_PROBE_A = np.repeat(np.array([0.0, -0.0, 1.0, -1.0, 3e38, -3e38, 2.5, 1e-45], _F32), 16)
_PROBE_B = np.tile(np.array([np.nan, -np.nan, -1.0, 1.0, np.inf, -np.inf, -0.0, 0.0, 1e-45,
                             -1e-45, 3e38, -3e38, 2.5, -2.5, 100.0, -100.0], _F32), 8)
