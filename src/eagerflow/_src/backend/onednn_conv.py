"""Convolutions on oneDNN: forward (with a bias and an activation fused), and both gradients.

The convolution kernels call these once their shape checks have passed and
`usable` has said yes (oneDNN switched on, float32 or bfloat16 NumPy arrays,
none empty); each returns the result, or None where oneDNN has no
implementation of the case, and the NumPy code runs instead. Arrays keep TensorFlow's layouts:
activations channels-last or channels-first as `data_format` says, filters
``(*kernel, in_channels / groups, out_channels)``; each is described to oneDNN
with its own strides, so only the filter, whose layout oneDNN chooses
("any": plain filters send the gradients to slow GEMM code), is reordered,
once per call. A depthwise filter ``(*kernel, channels, multiplier)`` is the
grouped filter ``(*kernel, 1, channels * multiplier)`` in the same memory.

Primitives are cached by everything they depend on: shapes, dtype, layout,
strides, dilations, paddings (TF's SAME may pad one more element after than
before; oneDNN takes both sides), groups and the fused operations.

>>> x, w = np.ones((1, 3, 3, 1), np.float32), np.ones((2, 2, 1, 1), np.float32)
>>> if usable(np, x, w):  # NHWC, strides and dilations 1, no padding, one group
...     y = forward(x, w, (1, 1), (1, 1), [(0, 0), (0, 0)], False, 1)
...     assert y.shape == (1, 2, 2, 1) and (y == 4).all()
"""
import ctypes
import math

import numpy as np

from eagerflow._src.backend import onednn
from eagerflow._src.backend import onednn_api as api
from eagerflow._src.backend import onednn_eltwise, threads

try:
    import ml_dtypes
    _BF16 = np.dtype(ml_dtypes.bfloat16)
    _NATIVE = frozenset({np.dtype(np.float32), _BF16})
except ImportError:  # pragma: no cover - ml_dtypes is a dependency
    _BF16, _NATIVE = None, frozenset({np.dtype(np.float32)})
_F32 = np.dtype(np.float32)

# oneDNN's ReLU post-op (alpha 0) takes a maximum that turns NaN into 0: so does TensorFlow's
# fused convolution on oneDNN (a Relu after Conv2D and BiasAdd in a graph), and so do the
# NumPy kernels of the fused ops. Its leaky ReLU (alpha not 0) multiplies, keeping NaN.
RELU = LEAKY_RELU = api.ELTWISE_RELU


def usable(xp, *arrays):
    """True when oneDNN should run a convolution of `arrays` (its inputs)."""
    if xp is not np or arrays[0].dtype not in _NATIVE:
        return False
    for a in arrays:
        if not a.size:
            return False
    return onednn.enabled()


def _result(array):
    """`array`, or None to have NumPy compute it again: oneDNN's bfloat16 kernels (AMX
    tiles) multiply the zeros padding their blocks by an inf or NaN of the input, which
    spreads NaN to outputs whose windows hold only finite values."""
    if array.dtype == _BF16 and not np.isfinite(array).all():
        return None
    return array


def _activation(shape, dtype, channels_first):
    """oneDNN's (N, C, *spatial) dims and the byte strides of a C-contiguous `shape`."""
    if channels_first:
        return tuple(shape), onednn.plain_strides(shape, dtype)
    n, *spatial, c = shape
    dims = (n, c, *spatial)
    return dims, onednn.plain_strides(dims, dtype, (0, *range(2, len(dims)), 1))


def _described(shape, dtype, channels_first):
    dims, byte_strides = _activation(shape, dtype, channels_first)
    return onednn.describe(dims, dtype, byte_strides)


def _filter(shape, dtype, groups):
    """oneDNN's weight dims, ``([groups,] out / groups, in / groups, *kernel)``, and the
    byte strides of a C-contiguous TF filter `shape`."""
    *ksize, cg, o = shape
    size = np.dtype(dtype).itemsize
    ks = [size * cg * o * int(np.prod(ksize[i + 1:], dtype=np.int64)) for i in range(len(ksize))]
    if groups == 1:
        return (o, cg, *ksize), (size, size * o, *ks)
    return (groups, o // groups, cg, *ksize), (size * (o // groups), size, size * o, *ks)


def _geometry(strides, dilations, pads):
    return (onednn.dims(strides), onednn.dims([d - 1 for d in dilations]),
            onednn.dims([p[0] for p in pads]), onednn.dims([p[1] for p in pads]))


def _forward_pd(src, weights, bias, dst, geometry, attr=None, pd=None):
    pd = onednn._Handle("dnnl_primitive_desc_destroy") if pd is None else pd
    attr = onednn.attributes() if attr is None else attr
    onednn.lib().dnnl_convolution_forward_primitive_desc_create(
        ctypes.byref(pd.value), onednn._engine, api.FORWARD_TRAINING, api.CONVOLUTION_DIRECT,
        src.handle, weights.handle, None if bias is None else bias.handle, dst.handle,
        *geometry, attr.value)
    return pd


def _primitive(pd, plain, keep):
    """The `onednn.Primitive` of `pd`, or `Unsupported` where oneDNN found only its reference
    code (a loop per element, slower than NumPy's GEMMs)."""
    primitive = onednn.Primitive(pd, plain, keep)
    if primitive.implementation().startswith("ref"):
        raise api.Unsupported("reference implementation only", api.UNIMPLEMENTED)
    return primitive


class _Case:
    """The descriptions of one convolution's arrays, as given (`x`, `w`, `y`) and as its
    primitive descriptors are asked for them: the filter "any", and channels-first
    activations "any" too (on plain channels-first arrays oneDNN has only GEMM code, on
    channels-last ones its direct kernels)."""

    def __init__(self, x_shape, w_shape, y_shape, dtype, channels_first, groups, strides,
                 dilations, pads):
        self.x = _described(x_shape, dtype, channels_first)
        self.y = _described(y_shape, dtype, channels_first)
        dims, byte_strides = _filter(w_shape, dtype, groups)
        self.w = onednn.describe(dims, dtype, byte_strides)
        self.w_any = onednn.describe(dims, dtype, None)
        self.geometry = _geometry(strides, dilations, pads)
        self.x_any, self.y_any = self.x, self.y
        if channels_first:
            self.x_any = onednn.describe(_activation(x_shape, dtype, True)[0], dtype, None)
            self.y_any = onednn.describe(_activation(y_shape, dtype, True)[0], dtype, None)

    def hint(self):
        """The forward primitive descriptor the gradients' descriptors are made from."""
        return _forward_pd(self.x_any, self.w_any, None, self.y_any, self.geometry)


def _out_shape(x_shape, w_shape, channels_first, strides, dilations, pads):
    nd = len(strides)
    sizes = x_shape[2:] if channels_first else x_shape[1:-1]
    # no window fits where the kernel outgrows the padded input: an empty output
    outs = [max((size + b + a - (k - 1) * d - 1) // s + 1, 0) for size, k, s, d, (b, a) in
            zip(sizes, w_shape[:nd], strides, dilations, pads)]
    return (x_shape[0], w_shape[-1], *outs) if channels_first else (x_shape[0], *outs, w_shape[-1])


def forward(x, w, strides, dilations, pads, channels_first, groups, bias=None, post_ops=()):
    """The convolution of `x` (one batch dim) with filter `w`, ``activation(conv + bias)``
    when given a `bias` and `post_ops` ((algorithm, alpha, beta) each, see `LEAKY_RELU`);
    None where oneDNN has no implementation."""
    x, w = np.ascontiguousarray(x), np.ascontiguousarray(w)
    dtype = x.dtype
    key = ("conv", x.shape, w.shape, dtype, channels_first, groups, tuple(strides),
           tuple(dilations), tuple(map(tuple, pads)), bias is not None, tuple(post_ops))

    def build():
        y_shape = _out_shape(x.shape, w.shape, channels_first, strides, dilations, pads)
        if 0 in y_shape:
            raise api.Unsupported("empty output", api.UNIMPLEMENTED)
        case = _Case(x.shape, w.shape, y_shape, dtype, channels_first, groups, strides,
                     dilations, pads)
        b = None if bias is None else onednn.describe((w.shape[-1],), dtype, (dtype.itemsize,))
        attr = onednn.attributes(post_ops)
        pd = _forward_pd(case.x_any, case.w_any, b, case.y_any, case.geometry, attr)
        direct = _direct_kernel(dtype, w.shape, groups, strides, dilations, pads)
        if direct:
            pd = _preferring(pd, lambda new: _forward_pd(
                case.x_any, case.w_any, b, case.y_any, case.geometry, attr, new), direct)
        plain = {api.ARG_SRC: case.x, api.ARG_WEIGHTS: case.w, api.ARG_DST: case.y}
        if b is not None:
            plain[api.ARG_BIAS] = b
        primitive = _primitive(pd, plain, keep=(case, attr))
        primitive.out_shape = y_shape  # (the key's arrays and geometry fix it)
        return primitive

    primitive = onednn.cached(key, build, shares=True)
    if primitive is None:
        return None
    y = np.empty(primitive.out_shape, dtype)
    inputs = {api.ARG_SRC: x, api.ARG_WEIGHTS: w}
    if bias is not None:
        inputs[api.ARG_BIAS] = np.ascontiguousarray(bias)
    primitive(inputs, {api.ARG_DST: y})
    return _result(y)


def backward_data(w, dy, x_shape, strides, dilations, pads, channels_first, groups):
    """The gradient of a convolution with respect to its input of `x_shape` (one batch
    dim), given filter `w` and output gradient `dy`; None where oneDNN has none."""
    w, dy = np.ascontiguousarray(w), np.ascontiguousarray(dy)
    x_shape = tuple(x_shape)
    if 0 in x_shape:
        return None
    primitive = _gradient("data", x_shape, w.shape, dy.shape, dy.dtype, strides, dilations,
                          pads, channels_first, groups)
    if primitive is None:
        return None
    dx = np.empty(x_shape, dy.dtype)
    primitive({api.ARG_WEIGHTS: w, api.ARG_DIFF_DST: dy}, {api.ARG_DIFF_SRC: dx})
    return _result(dx)


# A filter gradient split over the batch (see `backward_weights`) has parts of at least
# this many examples and multiply-adds (a part costs tens of microseconds in Python, and
# oneDNN's kernel does less per example on fewer: two parts of 16 take 5-10% more time than
# the whole batch of 32, four parts of 8 20-40% more).
_PART, _PART_WORK = 16, 1 << 23
# An unsplit filter gradient's bias gradient is summed on another thread meanwhile from
# this many elements of `dy` (handing it over costs tens of microseconds).
_BIAS_APART = 1 << 18


def backward_weights(x, dy, w_shape, strides, dilations, pads, channels_first, groups,
                     bias=False):
    """The gradient of a convolution with respect to its filter of `w_shape`, given its
    input `x` (one batch dim) and output gradient `dy`; None where oneDNN has none. With
    `bias` (channels last), the pair (filter gradient, bias gradient): `dy` summed over all
    but its last axis, each part of the batch by the thread that just read it for the
    filter's, or by another thread while one computes an unsplit filter gradient
    (oneDNN's own bias gradient costs more than the filter's pass saves).

    oneDNN's kernel for it sums its threads' shares after a barrier where they spin
    (three to twenty times slower than one thread once another process runs): on
    several threads, float32 batches are split instead, each part's gradient computed
    on one thread (`threads.in_chunks`), and the parts summed in order; work too small
    to split runs on one thread. The batch is split while other processes keep the cores
    busy: the threads taking parts each get their share of the cores, as TensorFlow's
    pool threads do, where one thread alone gets one share. While the cores are otherwise
    idle (or the budget is held, `threads.set_fixed`), the whole batch runs on oneDNN's
    threads instead: 10-30% faster than parts handed to helper threads on two cores
    (32x32x32x16 by 3x3x16x16: 0.61-0.67 ms against 0.80-0.90). Its sum's order
    differs, so the last bits of the result then depend on the load, as batch
    normalization's statistics do.
    """
    x, dy = np.ascontiguousarray(x), np.ascontiguousarray(dy)
    w_shape = tuple(w_shape)
    if 0 in w_shape:
        return None
    args = (w_shape, strides, dilations, pads, channels_first, groups)
    batch = x.shape[0]
    work = dy.size * math.prod(map(int, w_shape[:-1]))  # multiply-adds (exact)
    parts = min(-(-batch // _PART), work // _PART_WORK)
    if parts >= 2 and x.dtype == _F32 and threads.for_primitive() >= 2:
        dw = _filter_gradient(x, dy, *args)  # on the budget: the cores are otherwise idle
        if dw is None:
            return None
        return (_result(dw), channel_sums(dy)) if bias else _result(dw)
    if parts < 2 or x.dtype != _F32 or threads.budget() < 2:
        serial = threads.budget() > 1
        if not (bias and serial and dy.size >= _BIAS_APART):
            dw = _filter_gradient(x, dy, *args, serial=serial)
            if dw is None:
                return None
            return (_result(dw), channel_sums(dy)) if bias else _result(dw)
        # the filter gradient on one thread, the bias gradient on another meanwhile
        dw, db = threads.in_chunks(2, lambda i: channel_sums(dy) if i else _filter_gradient(
            x, dy, *args, serial=True))
        return None if dw is None else (_result(dw), db)
    bounds = [batch * i // parts for i in range(parts + 1)]

    def part(i):
        x_part, dy_part = x[bounds[i]:bounds[i + 1]], dy[bounds[i]:bounds[i + 1]]
        dw = _filter_gradient(x_part, dy_part, *args, serial=True)
        return dw, (channel_sums(dy_part) if bias and dw is not None else None)
    grads = threads.in_chunks(parts, part)
    if any(dw is None for dw, _ in grads):
        return None
    dw, db = grads[0]
    for g, b in grads[1:]:
        dw += g
        if bias:
            db += b
    return (dw, db) if bias else dw


def channel_sums(a):
    """C-contiguous `a` summed over all but its last axis, in its dtype: on oneDNN, a row of
    ones times `a` as a matrix of rows (large float32 `a`, on the thread budget; measured
    1.4-2.5x as fast as NumPy's sum under load, which holds the calling thread alone, and
    on one thread 0.9x at 16 channels, 1.6x at 32); else rows of about 1024
    elements added together, then their channels (NumPy's sum down a narrow last axis
    takes a call of its inner loop per row, a product with ones spins BLAS's threads)."""
    channels = a.shape[-1]
    rows = a.reshape(-1, channels)
    if (a.size >= onednn_eltwise.MIN_SIZE and a.dtype == _F32 and channels > 1
            and onednn.enabled()):
        total = _summed_rows(rows)
        if total is not None:
            return total
    k = max(1024 // max(channels, 1), 1)
    whole = len(rows) - len(rows) % k
    with np.errstate(invalid="ignore", over="ignore"):  # (inf - inf is NaN, as TF sums)
        total = rows[:whole].reshape(-1, k * channels).sum(0).reshape(k, channels).sum(0)
        if whole < len(rows):
            total += rows[whole:].sum(0)
    return total


def _summed_rows(rows):
    """C-contiguous float32 matrix `rows` summed down its columns by oneDNN's matmul with a
    row of ones; None where oneDNN has no fast kernel for it."""
    n, channels = rows.shape

    def build():
        ones = onednn.describe((1, n), _F32, (4 * n, 4))
        matrix = onednn.describe((n, channels), _F32, (4 * channels, 4))
        total = onednn.describe((1, channels), _F32, (4 * channels, 4))
        attr = onednn.attributes()
        pd = onednn._Handle("dnnl_primitive_desc_destroy")
        onednn.lib().dnnl_matmul_primitive_desc_create(
            ctypes.byref(pd.value), onednn._engine, ones.handle, matrix.handle, None,
            total.handle, attr.value)
        return _primitive(pd, {api.ARG_SRC: ones, api.ARG_WEIGHTS: matrix,
                               api.ARG_DST: total}, keep=(attr,))

    primitive = onednn.cached(("channel_sums", n, channels), build, shares=True)
    if primitive is None:
        return None
    total = np.empty(channels, _F32)
    primitive({api.ARG_SRC: _ones(n), api.ARG_WEIGHTS: rows}, {api.ARG_DST: total})
    return total


_ONES = np.ones(0, _F32)
_ONES_KEPT = 1 << 22  # (16 MB at most kept between calls)


def _ones(n):
    """A read-only float32 row of `n` ones (a view of one kept array, grown as needed)."""
    global _ONES
    ones = _ONES
    if len(ones) < n:
        ones = np.ones(n, _F32)
        ones.flags.writeable = False
        if n <= _ONES_KEPT:
            _ONES = ones
    return ones[:n]


def _filter_gradient(x, dy, w_shape, strides, dilations, pads, channels_first, groups,
                     serial=False):
    primitive = _gradient("weights", x.shape, w_shape, dy.shape, x.dtype, strides, dilations,
                          pads, channels_first, groups, serial)
    if primitive is None:
        return None
    dw = np.empty(w_shape, x.dtype)
    primitive({api.ARG_SRC: x, api.ARG_DIFF_DST: dy}, {api.ARG_DIFF_WEIGHTS: dw})
    return dw


# oneDNN's first choice for a float32 convolution and its input gradient, its brgemm code
# ("brg..."), is slower than its direct kernels on some narrow ones (measured on AVX-512
# with AMX, one thread): "jit:avx512_core" on unpadded or strided ones, 8-10% faster forward
# up to 32 channels (mixed at 64) and 5-40% for the input gradient up to 64 (padded ones of
# stride 1 are as fast or faster on brgemm), and "jit_1x1:avx512_core" on the input
# gradient of strided 1x1 ones, 2-3x faster up to 64 channels (as fast at 128; not forward,
# nor of stride 1).
_DIRECT, _DIRECT_1X1 = "jit:avx512_core", "jit_1x1:avx512_core"
_DIRECT_CHANNELS, _DIRECT_DATA_CHANNELS = 32, 64


def _direct_kernel(dtype, w_shape, groups, strides, dilations, pads, data=False):
    """The direct kernel to prefer to oneDNN's brgemm one (see `_DIRECT`), or None; `data`:
    for the input gradient. Not for grouped or depthwise convolutions (kernels of their own)
    nor dilated ones (unmeasured)."""
    if dtype != _F32 or groups != 1 or max(dilations) > 1:
        return None
    channels, strided = max(w_shape[-2], w_shape[-1]), max(strides) > 1
    if channels > (_DIRECT_DATA_CHANNELS if data else _DIRECT_CHANNELS):
        return None
    if all(k == 1 for k in w_shape[:-2]):
        return _DIRECT_1X1 if data and strided else None
    return _DIRECT if strided or not any(a or b for a, b in pads) else None


def _preferring(pd, create, implementation):
    """`pd` (a created primitive descriptor), or one `create(new handle)` made and moved on
    to `implementation` where oneDNN has it for the same operation."""
    if onednn.implementation(pd) == implementation:
        return pd
    other = create(onednn._Handle("dnnl_primitive_desc_destroy"))
    while onednn.implementation(other) != implementation:
        if onednn.lib().dnnl_primitive_desc_next_impl(other.value) != api.SUCCESS:
            return pd
    return other


def _gradient(wrt, x_shape, w_shape, dy_shape, dtype, strides, dilations, pads,
              channels_first, groups, serial=False):
    """The cached primitive of a convolution's gradient with respect to its input
    (`wrt` "data") or its filter ("weights"), or None; a `serial` one (on one thread) is
    the calling thread's own (`threads.slot`): helper threads run them at once."""
    key = (f"conv_backward_{wrt}", x_shape, w_shape, dy_shape, dtype, channels_first, groups,
           tuple(strides), tuple(dilations), tuple(map(tuple, pads)),
           threads.slot() if serial else None)

    def build():
        case = _Case(x_shape, w_shape, dy_shape, dtype, channels_first, groups, strides,
                     dilations, pads)
        hint, attr = case.hint(), onednn.attributes()
        pd = onednn._Handle("dnnl_primitive_desc_destroy")
        lib, out = onednn.lib(), ctypes.byref(pd.value)
        if wrt == "data":
            def create(pd):
                lib.dnnl_convolution_backward_data_primitive_desc_create(
                    ctypes.byref(pd.value), onednn._engine, api.CONVOLUTION_DIRECT,
                    case.x_any.handle, case.w_any.handle, case.y_any.handle, *case.geometry,
                    hint.value, attr.value)
                return pd
            create(pd)
            direct = _direct_kernel(dtype, w_shape, groups, strides, dilations, pads, True)
            if direct:
                pd = _preferring(pd, create, direct)
            plain = {api.ARG_DIFF_SRC: case.x, api.ARG_WEIGHTS: case.w,
                     api.ARG_DIFF_DST: case.y}
        else:
            lib.dnnl_convolution_backward_weights_primitive_desc_create(
                out, onednn._engine, api.CONVOLUTION_DIRECT, case.x_any.handle,
                case.w_any.handle, None, case.y_any.handle, *case.geometry, hint.value,
                attr.value)
            plain = {api.ARG_SRC: case.x, api.ARG_DIFF_DST: case.y,
                     api.ARG_DIFF_WEIGHTS: case.w}
        return _primitive(pd, plain, keep=(case, hint, attr))

    # the filter gradient's kernel sums the threads' shares after a spinning barrier: on
    # one thread while other processes keep the cores busy
    return onednn.cached(key, build, serial=serial, shares=wrt == "data")
