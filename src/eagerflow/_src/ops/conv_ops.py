"""Convolutions and pooling: a strided window view of the input and one matrix product.

Kernels work on channels-last arrays ``(batch, *spatial, channels)``. `_patches`
views every output position's window without copying; a convolution turns that
view into columns once and contracts them with the filter in a single (grouped)
GEMM per chunk of the batch, and so does its filter gradient. The input gradient is
one GEMM too, giving every kernel position's share, which `_fold` (the adjoint of
the window view) sums back with one contiguous add per kernel position. Pooling
reduces the window view one kernel position at a time, and its gradients fold each
window's share back the same way. Depthwise convolution, whose per-channel filters
are too small for a GEMM, accumulates over kernel positions; its gradients are
those of a grouped convolution with one input channel per group.

Float32 and bfloat16 convolutions and their gradients run on oneDNN where it
loads (`onednn_conv`); the NumPy code here runs otherwise (results equal up to rounding).

>>> x = tf.constant(np.arange(9.0, dtype=np.float32).reshape(1, 3, 3, 1))
>>> tf.nn.conv2d(x, tf.constant(np.ones((2, 2, 1, 1), np.float32)), 1, "VALID").shape
TensorShape([1, 2, 2, 1])
"""
import collections
import contextlib
import itertools
import math
import warnings
import weakref

import numpy as np

from eagerflow._src.backend import onednn_conv, onednn_pooling
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors
from eagerflow._src.core.convert import get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import FLOAT, register, register_gradient
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.ops import array_ops, cast_ops, reduction_ops, shape_rules
from eagerflow._src.ops.nn_ops import matching, matching_own, shape_text, static_ints, widened
from eagerflow._src.ops.wrappers import as_tensor, defaulted

_CONV_TYPES = FLOAT + (_d.int32,)
_MAX_POOL_TYPES = FLOAT + (_d.int8, _d.int16, _d.int32, _d.int64, _d.uint8, _d.uint16)
_PADDINGS = ("SAME", "VALID", "EXPLICIT")


def _invalid(message):
    return shape_rules.static_error(message)


def _unimplemented(message):
    return errors.UnimplementedError(None, None, message)


# TF's CPU kernels take channels-first layouts only through oneDNN, which has float32 and
# bfloat16 kernels: in the other dtypes the default kernels refuse them.
_CHANNELS_FIRST_CPU_TYPES = (np.dtype(np.float32), np.dtype(_d.bfloat16.as_numpy_dtype))
_CHANNELS_FIRST_REFUSALS = {
    "Conv2D": lambda f: _unimplemented("The Conv2D op currently only supports the NHWC tensor "
                                       f"format on the CPU. The op was given the format: {f}"),
    "Conv3D": lambda f: errors.InvalidArgumentError(
        None, None, "CPU implementation of Conv3D currently only supports the NHWC tensor "
                    "format."),
    "DepthwiseConv2dNative": lambda f: _unimplemented(
        "Depthwise convolution on CPU is only supported for NHWC format"),
    "MaxPool": lambda f: errors.InvalidArgumentError(
        None, None, "Default MaxPoolingOp only supports NHWC on device type CPU"),
    "AvgPool": lambda f: errors.InvalidArgumentError(
        None, None, "Default AvgPoolingOp only supports NHWC on device type CPU"),
    # the input gradients, which conv2d_transpose and conv3d_transpose run
    "Conv2DCustomBackpropInput": lambda f: errors.InvalidArgumentError(
        None, None, "Conv2DCustomBackpropInputOp only supports NHWC."),
    "Conv3DBackpropInputOp": lambda f: errors.InvalidArgumentError(
        None, None, "Conv3DBackpropInputOpV2 only supports NDHWC on the CPU."),
    "DepthwiseConv2DBackpropInput": lambda f: _unimplemented(
        "Depthwise convolution on CPU is only supported for NHWC format"),
}


def _check_cpu_layout(xp, x, data_format, op_name):
    """TF's CPU refusal of a channels-first `data_format` for inputs of dtypes without a
    oneDNN kernel (float16, float64, integers)."""
    if xp is np and _channels_first(data_format) and x.dtype not in _CHANNELS_FIRST_CPU_TYPES:
        raise _CHANNELS_FIRST_REFUSALS[op_name](data_format)


# ----------------------------------------------------------------------------- geometry

def _channels_first(data_format):
    return data_format.startswith("NC")


def _spatial(values, data_format):
    """The spatial entries of a per-dimension attr (strides, dilations, ksize, paddings)."""
    return tuple(values[2:]) if _channels_first(data_format) else tuple(values[1:-1])


def _outer(values, data_format):
    """The batch and channel entries of a per-dimension attr."""
    return (values[0], values[1]) if _channels_first(data_format) else (values[0], values[-1])


def _explicit_pairs(explicit_paddings, rank, data_format):
    pairs = [tuple(explicit_paddings[2 * i:2 * i + 2]) for i in range(rank)]
    if len(explicit_paddings) != 2 * rank:
        raise _invalid(f"explicit_paddings attribute must contain {2 * rank} values, but got: "
                       f"{len(explicit_paddings)}")
    if any(p < 0 for p in explicit_paddings):
        raise _invalid("All elements of explicit_paddings must be nonnegative")
    if any(_outer(pairs, data_format)[i] != (0, 0) for i in range(2)):
        raise _invalid("Nonzero explicit padding in the batch or depth dimensions is not "
                       "supported")
    return _spatial(pairs, data_format)


def _window(sizes, ksize, strides, dilations, padding, pairs=None):
    """Output sizes and (before, after) paddings of each spatial dim (None where unknown).

    SAME pads so that ``out = ceil(size / stride)``, putting the odd element after;
    sizes follow ``(size + pads - effective_kernel + stride) / stride`` truncated.
    """
    outs, pads = [], []
    for i, (size, k, s, d) in enumerate(zip(sizes, ksize, strides, dilations)):
        eff = None if k is None else (k - 1) * d + 1
        if padding == "EXPLICIT":
            pad = pairs[i]
        elif padding == "VALID":
            pad = (0, 0)
        elif size is None or eff is None:
            pad = None
        else:
            total = max((-(-size // s) - 1) * s + eff - size, 0)
            pad = (total // 2, total - total // 2)
        pads.append(pad)
        if size is None or pad is None or eff is None:
            outs.append(None)
            continue
        span = size + pad[0] + pad[1] - eff + s
        out = span // s if span >= 0 else -(-span // s)  # C division truncates toward zero
        if out < 0:
            raise _invalid(f"Computed output size would be negative: {out} [input_size: {size}, "
                           f"effective_filter_size: {eff}, stride: {s}]")
        outs.append(out)
    return outs, pads


def _check_conv_attrs(strides, dilations, data_format):
    if any(s != 1 for s in _outer(strides, data_format)):
        raise _unimplemented("Current implementation does not yet support strides in the batch "
                             "and depth dimensions.")
    if any(s < 1 for s in strides):
        raise _invalid("Row and column strides should be larger than 0.")
    if any(d != 1 for d in _outer(dilations, data_format)):
        raise _unimplemented("Current implementation does not yet support dilations in the batch "
                             "and depth dimensions.")
    if any(d < 1 for d in dilations):
        raise _invalid("Dilated rates should be larger than 0.")


def _dims(shape):
    return None if shape.rank is None else list(shape)


def _split(dims, nd, data_format):
    """(leading batch dims, spatial dims, channels) of a data_format-ordered shape."""
    if _channels_first(data_format):
        return dims[:-nd - 1], dims[-nd:], dims[-nd - 1]
    return dims[:-nd - 1], dims[-nd - 1:-1], dims[-1]


def _join(lead, spatial, channels, data_format):
    if _channels_first(data_format):
        return [*lead, channels, *spatial]
    return [*lead, *spatial, channels]


def _divides(part, whole):
    return part is None or whole is None or (part > 0 and whole % part == 0)


def _conv_geometry(x_dims, w_dims, strides, padding, explicit_paddings, data_format, dilations,
                   depthwise=False):
    """Checks a forward convolution; returns (output dims or None, paddings).

    `x_dims`/`w_dims` are lists of ints or None (None itself: unknown rank).
    The filter is ``(*kernel, in_channels / groups, out_channels)``, or
    ``(*kernel, in_channels, multiplier)`` when `depthwise`.
    """
    nd = len(strides) - 2
    _check_conv_attrs(strides, dilations, data_format)
    pairs = (_explicit_pairs(explicit_paddings, nd + 2, data_format)
             if padding == "EXPLICIT" else None)
    if x_dims is not None and len(x_dims) < nd + 2:
        raise _invalid(f"convolution input must be {nd + 2}-dimensional: {shape_text(x_dims)}")
    if w_dims is not None and len(w_dims) != nd + 2:
        raise _invalid(f"convolution filter must be {nd + 2}-dimensional: {shape_text(w_dims)}")
    ksize = [None] * nd if w_dims is None else w_dims[:nd]
    w_in, w_out = (None, None) if w_dims is None else w_dims[nd:]
    if x_dims is None:  # a rank unknown when traced: the op's own, as TF's shape functions
        x_dims = [None] * (nd + 2)
    lead, sizes, depth = _split(x_dims, nd, data_format)
    if depthwise:
        if None not in (depth, w_in) and depth != w_in:
            raise _invalid(f"input and filter must have the same depth: {depth} vs {w_in}")
        channels = None if None in (w_in, w_out) else w_in * w_out
    else:
        if not _divides(w_in, depth):
            raise _invalid(f"input depth must be evenly divisible by filter depth: {depth} vs "
                           f"{w_in}")
        groups = None if None in (depth, w_in) else depth // w_in
        if not _divides(groups, w_out):
            raise _invalid(f"output depth must be evenly divisible by number of groups: {w_out} "
                           f"vs {groups}")
        channels = w_out
    outs, pads = _window(sizes, ksize, _spatial(strides, data_format),
                         _spatial(dilations, data_format), padding, pairs)
    return _join(lead, outs, channels, data_format), pads


# ----------------------------------------------------------------------------- array kernels

def _pad(xp, x, pads, value=0):
    """`x` (batch, *spatial, channels) padded by (before, after) pairs of spatial dims."""
    if not any(any(p) for p in pads):
        return x
    return xp.pad(x, [(0, 0), *pads, (0, 0)], constant_values=value)


def _patches(xp, x, ksize, strides, dilations):
    """A copy-free view ``(batch, *out, *ksize, channels)`` of the windows of padded `x`.

    Windows overlap in memory: the view is only ever read.
    """
    n, *sizes, c = x.shape
    # no window fits when the kernel outgrows the input (TensorFlow's size is then 0)
    outs = [max((size - (k - 1) * d - 1) // s + 1, 0) for size, k, s, d in
            zip(sizes, ksize, strides, dilations)]
    sn, *ss, sc = x.strides
    return xp.lib.stride_tricks.as_strided(
        x, (n, *outs, *ksize, c),
        (sn, *(st * s for st, s in zip(ss, strides)), *(st * d for st, d in zip(ss, dilations)),
         sc))


def _taps(windows):
    """The views ``(batch, *out, channels)`` of each kernel position of `_patches`, in
    row-major kernel order."""
    nd = (windows.ndim - 2) // 2
    lead = (slice(None),) * (nd + 1)
    return [windows[lead + pos]
            for pos in itertools.product(*map(range, windows.shape[nd + 1:2 * nd + 1]))]


def _columns(xp, patches, groups, buf):
    """Windows as GEMM operands ``(groups, positions, window * channels_per_group)``, each
    row a window in (kernel position, channel) order: one copy into the start of flat
    `buf`, none where the windows are the input itself (1x1 kernels)."""
    nd = (patches.ndim - 2) // 2
    cg = patches.shape[-1] // groups
    cols = split = xp.moveaxis(patches.reshape(*patches.shape[:-1], groups, cg), -2, 0)
    if not split.flags.c_contiguous:
        cols = _view(buf, split.shape)
        cols[...] = split
    return cols.reshape(
        groups, math.prod(patches.shape[:nd + 1]), math.prod(patches.shape[nd + 1:-1]) * cg)


# Bytes of GEMM operands (columns, or their products) built per batch chunk: a whole
# large batch's would be copied into fresh, uncached memory on every call.
_CHUNK_BYTES = 1 << 23


def _chunks(n, image_bytes):
    """Slices of a batch of `n` images, each slice's GEMM operands about `_CHUNK_BYTES` at
    `image_bytes` per image (one image at least)."""
    step = max(_CHUNK_BYTES // max(image_bytes, 1), 1)
    return [slice(start, min(start + step, n)) for start in range(0, n, step)]


def _scratch(xp, parts, image_size, dtype):
    """Flat memory for the largest of `parts` at `image_size` elements per image, reused by
    every chunk: fresh memory costs a page fault per page touched, on every call."""
    return xp.empty((parts[0].stop - parts[0].start) * image_size if parts else 0, dtype)


def _view(buf, shape):
    """A C-contiguous `shape` array over the start of flat `buf`."""
    return buf[:math.prod(shape)].reshape(shape)


def _grouped_filter(w, groups):
    """Filter ``(*k, cg, out)`` as ``(groups, window * cg, out / groups)``."""
    *ksize, cg, out = w.shape
    w = w.reshape(math.prod(ksize) * cg, groups, out // groups)
    return w.transpose(1, 0, 2)


def _conv(xp, x, w, strides, dilations, pads):
    """Convolution of channels-last `x` (n, *sizes, c) with `w` (*k, cg, out)."""
    nd = w.ndim - 2
    groups, o = x.shape[-1] // w.shape[-2], w.shape[-1]
    patches = _patches(xp, _pad(xp, x, pads), w.shape[:nd], strides, dilations)
    n, outs = patches.shape[0], patches.shape[1:nd + 1]
    w = _grouped_filter(w, groups)
    y = xp.empty((groups, n, math.prod(outs), o // groups), x.dtype)
    parts = _chunks(n, patches[:1].nbytes)
    buf = _scratch(xp, parts, patches[:1].size, x.dtype)
    for part in parts:
        cols = _columns(xp, patches[part], groups, buf)
        xp.matmul(cols, w, out=y[:, part].reshape(*cols.shape[:2], o // groups))
    return xp.moveaxis(y, 0, -2).reshape(n, *outs, o)


def _depthwise(xp, x, w, strides, dilations, pads, rounding=None):
    """Depthwise convolution of channels-last `x` (n, *sizes, c) with `w` (*k, c, multiplier).

    Each channel has its own tiny filter, too small an inner dimension for a GEMM:
    the windows are multiplied and accumulated one kernel position at a time (each partial
    sum rounded to the dtype `rounding` if given, as TF's float16 kernel rounds it).
    """
    nd = w.ndim - 2
    taps = _taps(_patches(xp, _pad(xp, x, pads), w.shape[:nd], strides, dilations))
    filters = w.reshape(len(taps), *w.shape[-2:])
    y = xp.empty((*taps[0].shape, w.shape[-1]), x.dtype)
    for m in range(w.shape[-1]):  # one channel-contiguous accumulation per multiplier
        acc = xp.zeros(taps[0].shape, x.dtype)
        for tap, f in zip(taps, filters[..., m]):
            acc += tap * f
            if rounding is not None:
                acc[...] = acc.astype(rounding)
        y[..., m] = acc
    # output channel c * multiplier + m (sized, not -1: an empty output has no size to infer)
    return y.reshape(*y.shape[:-2], y.shape[-2] * y.shape[-1])


def _conv_filter_grad(xp, x, dy, filter_shape, strides, dilations, pads):
    """The gradient of `_conv` with respect to a filter of `filter_shape`: one GEMM per
    chunk of the batch."""
    *ksize, cg, o = filter_shape
    groups = x.shape[-1] // cg
    patches = _patches(xp, _pad(xp, x, pads), ksize, strides, dilations)
    dw = xp.zeros((groups, math.prod(ksize) * cg, o // groups), x.dtype)
    parts = _chunks(x.shape[0], patches[:1].nbytes)
    buf = _scratch(xp, parts, patches[:1].size, x.dtype)
    for part in parts:
        cols = _columns(xp, patches[part], groups, buf)
        dw += xp.matmul(cols.transpose(0, 2, 1),
                        xp.moveaxis(dy[part].reshape(cols.shape[1], groups, o // groups), 1, 0))
    return dw.transpose(1, 0, 2).reshape(*ksize, cg, o)


# The most rows (output positions) a float16 filter gradient sums as TensorFlow's CPU kernel
# does, one after another in float16. TF's kernel adds float16 products into float16 sums; on
# small convolutions (a small model's) over all rows in order, which is matched exactly. Larger
# ones it splits in ways that depend on the shapes and the machine's threads; those keep the
# float32 product (its error is below TF's own, and a sum in float16 steps costs ten times
# the time).
_HALF_ROWS = 384


def _conv_filter_grad_in_half(xp, x, dy, filter_shape, strides, dilations, pads):
    """`_conv_filter_grad` of float16 `x` and `dy` (at most `_HALF_ROWS` output positions)
    summed as TensorFlow's CPU kernel does: each output position's product, in order, added
    to a float16 running sum (product and sum computed in float32, the sum rounded to
    float16 at once). Summed in float32, the gradient of a small mixed_float16 model's
    convolution differed from TensorFlow's from the third digit."""
    *ksize, cg, o = filter_shape
    groups = x.shape[-1] // cg
    patches = _patches(xp, _pad(xp, x, pads), ksize, strides, dilations)
    cols = _columns(xp, patches, groups, xp.empty(patches.size, x.dtype)).astype(xp.float32)
    rows, window = cols.shape[1], cols.shape[2]
    dy = xp.moveaxis(dy.reshape(rows, groups, o // groups), 1, 0).astype(xp.float32)
    total = xp.zeros((groups, window, o // groups), xp.float32)
    product = xp.empty_like(total)
    for i in range(rows):
        xp.multiply(cols[:, i, :, None], dy[:, i, None, :], out=product)
        total += product
        total[...] = total.astype(xp.float16)
    return total.astype(xp.float16).transpose(1, 0, 2).reshape(*ksize, cg, o)


# The adjoint of the window view, shared by the convolution's input gradient and the
# pooling gradients. Window tap t (kernel position times dilation) of output i reads padded
# input s * i + t = s * (i + t // s) + t % s: on the "phase" t % s of the input, a grid of
# stride s, it is a plain shift by t // s. With the grid flattened, every tap of a phase
# adds one contiguous slice at one offset, rather than a strided scatter of short channel
# runs (several times slower); windows starting on the grid's spare rows add zeros.

def _grid(sizes, strides, pads):
    """Each phase's grid: the padded input sizes divided by the strides, rounded up."""
    return [-(-(size + b + a) // s) for size, s, (b, a) in zip(sizes, strides, pads)]


def _widen(xp, a, grid, buf=None):
    """Channels-last per-window values ``(n, *outs, c)`` zero-extended to ``(n, *grid, c)``,
    in flat `buf` if given."""
    if list(a.shape[1:-1]) == list(grid):
        return a
    shape = (a.shape[0], *grid, a.shape[-1])
    wide = xp.empty(shape, a.dtype) if buf is None else _view(buf, shape)
    inside = (slice(None),)
    for out in a.shape[1:-1]:  # zero only the spare slabs, then copy `a` once
        wide[inside + (slice(out, None),)] = 0
        inside += (slice(out),)
    wide[inside] = a
    return wide


def _by_channel(a):
    """Channels-last `a` viewed as ``(channels, positions)``."""
    return a.reshape(math.prod(a.shape[:-1]), a.shape[-1]).T  # -1 fails on zero channels


def _fold(xp, cols, dx, ksize, strides, dilations, pads):
    """Window values summed back into the input positions they came from: into `dx`,
    channels-last ``(n, *sizes, channels)``, which it returns.

    `cols[p]` holds kernel position p's values over the flattened `_grid`, channels
    leading: ``(..., positions)`` in any memory layout.
    """
    n, *sizes, channels = dx.shape
    grid = _grid(sizes, strides, pads)
    size = n * math.prod(grid)
    adds = {}  # phase -> [(kernel position, flat shift)]
    for p, pos in enumerate(itertools.product(*map(range, ksize))):
        taps = [q * d for q, d in zip(pos, dilations)]
        shift = sum(t // s * math.prod(grid[i + 1:])
                    for i, (t, s) in enumerate(zip(taps, strides)))
        adds.setdefault(tuple(t % s for t, s in zip(taps, strides)), []).append((p, shift))
    block = max((1 << 17) // max(channels, 1), 1)  # positions whose sums stay in cache
    for phase in itertools.product(*map(range, strides)):
        terms = adds.get(phase, [])
        if len(terms) == 1 and terms[0][1] == 0:  # one unshifted tap: its values as they are
            acc = cols[terms[0][0]]
        else:
            acc = xp.empty_like(cols[0])
            for start in range(0, size, block):
                stop = min(start + block, size)
                acc[..., start:stop] = 0
                for p, shift in terms:
                    if max(start, shift) < stop:
                        acc[..., max(start, shift):stop] += \
                            cols[p][..., max(start - shift, 0):stop - shift]
        acc = xp.moveaxis(acc.reshape(channels, n, *grid), 0, -1)
        # the phase holds unpadded rows s * q + r - b, from the first q with that >= 0
        dst, src = [slice(None)], [slice(None)]
        for r, s, (b, _), length in zip(phase, strides, pads, sizes):
            q = max(-((r - b) // s), 0)
            row = s * q + r - b
            dst.append(slice(row, length, s))
            src.append(slice(q, q + max(-(-(length - row) // s), 0)))
        dx[tuple(dst)] = acc[tuple(src)]
    return dx


def _conv_input_grad(xp, dy, w, sizes, channels, strides, dilations, pads):
    """The gradient of `_conv` with respect to its input of spatial `sizes`: a GEMM gives
    each kernel position's values on the `_grid` and `_fold` sums them."""
    nd = w.ndim - 2
    ksize, (cg, o) = w.shape[:nd], w.shape[nd:]
    groups, taps, n = channels // cg, math.prod(ksize), dy.shape[0]
    grid = _grid(sizes, strides, pads)
    w = w.reshape(taps, cg, groups, o // groups).transpose(2, 0, 1, 3)
    w = w.reshape(groups, taps * cg, o // groups)
    dx = xp.empty((n, *sizes, channels), dy.dtype)
    parts = _chunks(n, taps * channels * math.prod(grid) * dy.itemsize)
    wides = _scratch(xp, parts, math.prod(grid) * o, dy.dtype)
    products = _scratch(xp, parts, taps * channels * math.prod(grid), dy.dtype)
    for part in parts:
        wide = _widen(xp, dy[part], grid, wides)
        size = math.prod(wide.shape[:-1])  # positions
        wide = wide.reshape(size, groups, o // groups).transpose(1, 0, 2)
        # `_fold` sums each kernel position's values faster with them contiguous (channels
        # first), unless its channels already make long runs or there is nothing to sum
        if taps == 1 or cg >= 64:
            cols = xp.matmul(wide, w.transpose(0, 2, 1),
                             out=_view(products, (groups, size, taps * cg)))
            cols = cols.reshape(groups, size, taps, cg).transpose(2, 0, 3, 1)
        else:
            cols = xp.matmul(w, wide.transpose(0, 2, 1),
                             out=_view(products, (groups, taps * cg, size)))
            cols = cols.reshape(groups, taps, cg, size).transpose(1, 0, 2, 3)
        _fold(xp, cols, dx[part], ksize, strides, dilations, pads)
    return dx


def _to_last(xp, x, nd, data_format):
    """`x` channels-last with its leading batch dims flattened into one."""
    if _channels_first(data_format):
        x = xp.moveaxis(x, -nd - 1, -1)
    return x.reshape(math.prod(x.shape[:-nd - 1]), *x.shape[-nd - 1:])


def _from_last(xp, y, lead, nd, data_format):
    y = y.reshape(*lead, *y.shape[1:])
    return xp.moveaxis(y, -1, -nd - 1) if _channels_first(data_format) else y


def _flat(a, nd):
    """`a` with its batch dims flattened into one (oneDNN's N)."""
    return a.reshape(-1, *a.shape[-nd - 1:])


def _native_window(x_dims, w_dims, strides, data_format, dilations, pads):
    """The geometry arguments of the `onednn_conv` functions for an input of `x_dims` and a
    filter of `w_dims`: (spatial strides, spatial dilations, paddings, channels first,
    groups)."""
    groups = _split(x_dims, len(strides) - 2, data_format)[2] // w_dims[-2]
    return (_spatial(strides, data_format), _spatial(dilations, data_format), pads,
            _channels_first(data_format), groups)


def _same_depth_3d(depth, filter_depth, dtype, eigen_message):
    """TF's CPU kernels of 3-D convolutions take no groups: the input's depth must be the
    filter's (in TF's words for its oneDNN kernels, or for its Eigen ones)."""
    if depth != filter_depth:
        raise _invalid(f"input and filter must have the same depth: {depth} vs {filter_depth}"
                       if dtype in _ONEDNN_TYPES else eigen_message.format(depth, filter_depth))


def _conv_kernel(depthwise):
    @widened
    def numpy_kernel(xp, x, w, strides, data_format, dilations, pads, **rounding):
        nd = len(strides) - 2
        lead = x.shape[:-nd - 1]
        y = (_depthwise if depthwise else _conv)(
            xp, _to_last(xp, x, nd, data_format), w, _spatial(strides, data_format),
            _spatial(dilations, data_format), pads, **rounding)
        return _from_last(xp, y, lead, nd, data_format)

    def kernel(xp, x, w, strides, padding, explicit_paddings, data_format, dilations):
        _check_cpu_layout(xp, x, data_format, "Conv3D" if len(strides) == 5 else
                          "DepthwiseConv2dNative" if depthwise else "Conv2D")
        if len(strides) == 5:
            _same_depth_3d(x.shape[1 if _channels_first(data_format) else -1], w.shape[-2],
                           w.dtype, "Number of channels in filter ({1}) must match last "
                                    "dimension of input ({0})")
        dims, pads = _checked_geometry(x.shape, w.shape, strides, padding, explicit_paddings,
                                       data_format, dilations, depthwise)
        # (an empty output, a filter longer than the input, is NumPy's to make)
        if onednn_conv.usable(xp, x, w) and (dims is None or all(dims)):
            nd = len(strides) - 2
            # a depthwise filter as the grouped one (*k, 1, channels * multiplier), same
            # memory (`w` itself stays as given, for NumPy's kernel if oneDNN declines)
            grouped = w.reshape(*w.shape[:nd], 1, -1) if depthwise else w
            y = onednn_conv.forward(_flat(x, nd), grouped, *_native_window(
                x.shape, grouped.shape, strides, data_format, dilations, pads))
            if y is not None:
                return y.reshape(*x.shape[:-nd - 1], *y.shape[1:])
        # TF's CPU depthwise kernel multiply-adds float16 in float32, rounding each partial
        # sum to float16
        rounding = {"rounding": np.float16} if depthwise and x.dtype == np.float16 and \
            xp is np else {}
        return numpy_kernel(xp, x, w, strides=strides, data_format=data_format,
                            dilations=dilations, pads=pads, **rounding)
    return kernel


def _shape_function_checks(x, w, nd, data_format, depthwise):
    """TF's shape function's words for inputs a convolution refuses while a graph is built
    (eagerly the kernel's, in `_conv_geometry`): too few dims, channels that do not match."""
    shapes = (x.shape, w.shape)
    if x.shape.rank is not None and x.shape.rank < nd + 2:
        raise shape_rules.shape_error("Conv", f"Shape must be rank {nd + 2} but is rank "
                                              f"{x.shape.rank}", shapes)
    if x.shape.rank is None or w.shape.rank != nd + 2:
        return
    depth, w_in = _split(_dims(x.shape), nd, data_format)[2], w.shape[nd]
    if depth is None or w_in is None:
        return
    if depthwise and depth != w_in:
        raise shape_rules.shape_error("Conv", f"Dimensions must be equal, but are {depth} and "
                                              f"{w_in}", shapes)
    if not depthwise and depth % w_in:
        raise shape_rules.shape_error("Conv", f"Depth of input ({depth}) is not a multiple of "
                                              f"input depth of filter ({w_in})", shapes)


def _conv_rule(depthwise):
    def rule(x, w, strides, padding, explicit_paddings, data_format, dilations):
        _shape_function_checks(x, w, len(strides) - 2, data_format, depthwise)
        try:
            dims, _ = _conv_geometry(_dims(x.shape), _dims(w.shape), strides, padding,
                                     explicit_paddings, data_format, dilations, depthwise)
        except (errors.InvalidArgumentError, ValueError):  # (a negative size: in TF's words)
            _valid_window_fits(x, w, strides, padding, data_format, dilations)
            raise
        _valid_window_fits(x, w, strides, padding, data_format, dilations)
        return TensorShape(dims), x.dtype
    return rule


def _valid_window_fits(x, w, strides, padding, data_format, dilations):
    """As TF's shape function: a (dilated) filter larger than the input fails when the
    graph is built (eagerly only the kernel runs). A dilated one is checked as TF runs it:
    on the input split by the rate (space to batch)."""
    if padding == "VALID" and x.shape.rank is not None and w.shape.rank is not None:
        nd = len(strides) - 2
        sizes = _split(_dims(x.shape), nd, data_format)[1]
        for size, k, rate in zip(sizes, _dims(w.shape)[:nd], _spatial(dilations, data_format)):
            if size is not None and k is not None and (k - 1) * rate + 1 > size:
                raise errors.InvalidArgumentError(
                    None, None, f"Negative dimension size caused by subtracting {k} from "
                                f"{-(-size // rate)}")


# The dtypes TF runs convolutions with its oneDNN kernels for, whose own checks word some
# errors their way. (Where they skip a check, oneDNN aborts (AbortedError): eagerflow
# raises the check's InvalidArgumentError instead, see TF_WRONG in the differential tests.)
_SIZES_DEPTH_3D = ("input and filter_sizes must have the same number of channels. Got {0} "
                   "for input and {1} for filter_sizes")
_ONEDNN_TYPES = (np.dtype(np.float32), np.dtype(np.float16), np.dtype(_d.bfloat16.as_numpy_dtype))


def _backprop_geometry(name, input_sizes, filter_dims, dy_dims, strides, padding,
                       explicit_paddings, data_format, dilations, onednn=False,
                       traced=False):
    """Checks a convolution backprop against the forward geometry; returns the paddings.

    `onednn`: TF runs its oneDNN kernel (see `_ONEDNN_TYPES`). `traced`: a graph's shape
    inference, which (as TF's) does not check out_backprop."""
    nd = len(strides) - 2
    try:
        out_dims, pads = _conv_geometry(input_sizes, filter_dims, strides, padding,
                                        explicit_paddings, data_format, dilations)
    except errors.InvalidArgumentError as e:
        if onednn and e.message.startswith("input depth must be evenly divisible"):
            raise _invalid(e.message) from None
        raise _invalid(f"{name}: {e.message}") from None
    if dy_dims is None or out_dims is None or traced:
        return pads
    if len(dy_dims) != len(out_dims):
        raise _invalid(f"{name}: out_backprop must be {len(out_dims)}-dimensional")
    lead, outs, depth = _split(out_dims, nd, data_format)
    dy_lead, dy_outs, dy_depth = _split(dy_dims, nd, data_format)
    for i, (want, got) in enumerate(zip(lead, dy_lead)):
        if None not in (want, got) and want != got:
            raise _invalid(f"{name}: input and out_backprop must have the same batch size. "
                           f"Input batch: {want}, outbackprop batch: {got}, batch_dim: {i}")
    if None not in (depth, dy_depth) and depth != dy_depth:
        raise _invalid(f"{name}: filter and out_backprop must have the same out_depth")
    ksize = [None] * nd if filter_dims is None else filter_dims[:nd]
    sizes = _split(input_sizes, nd, data_format)[1]
    for i, (want, got) in enumerate(zip(outs, dy_outs)):
        if None not in (want, got) and want != got:
            axis = i + (2 if _channels_first(data_format) else 1)
            raise _invalid(
                f"{name}: Size of out_backprop doesn't match computed: actual = {got}, "
                f"computed = {want} spatial_dim: {axis} input: {sizes[i]} filter: {ksize[i]} "
                f"output: {got} stride: {_spatial(strides, data_format)[i]} "
                f"dilation: {_spatial(dilations, data_format)[i]}")
    return pads


def _remembered(function):
    """`function` (pure, of lists and scalars) keeping its results by their arguments.

    Kernels check the same geometry on every training step, in about as long as
    oneDNN takes to run a small convolution; an argument list seen before reads
    its result instead. Errors are raised anew on every call (nothing is kept).
    The results are shared: callers must not change them.
    """
    results = {}

    def run(*args):
        key = tuple([tuple(a) if isinstance(a, list) else a for a in args])  # (no generator)
        value = results.get(key)
        if value is None:
            value = function(*args)
            if len(results) >= 4096:  # bounded, for programs whose shapes keep changing
                results.clear()
            results[key] = value
        return value
    return run


_checked_geometry = _remembered(_conv_geometry)
_checked_backprop_geometry = _remembered(_backprop_geometry)


def _full_sizes(sizes, nd, dy_dims, w_dims, data_format):
    """The input shape of a convolution's input gradient from its `input_sizes`: all dims
    (nd + 2, or more with several batch dims), or (2-D only) the spatial ones, with the
    batch of out_backprop and the channels of the filter. Entries may be None (unknown
    before run time)."""
    if nd == 2 and len(sizes) == 2:
        return _join([None if dy_dims is None else dy_dims[0]], list(sizes),
                     None if w_dims is None else w_dims[2], data_format)
    if len(sizes) < nd + 2:
        raise _invalid("Conv2DBackpropInput requires input_sizes to contain 4 values or 2 "
                       f"values, but got: {len(sizes)}" if nd == 2 else
                       f"input tensor must have {nd + 2} dimensions")
    return list(sizes)


def _filter_sizes(sizes, rank):
    """A filter gradient's `filter_sizes` (an attr, or an array given at run time) as a
    tuple of `rank` ints."""
    if hasattr(sizes, "ndim"):  # an array: given at run time
        if sizes.ndim != 1:
            raise _invalid(f"filter_tensor must be a vector, got {shape_text(list(sizes.shape))}")
        sizes = tuple(sizes.tolist())
    if len(sizes) != rank:
        raise _invalid(f"filter must be {rank}-dimensional: {shape_text(list(sizes))}")
    return sizes


def _backprop_input(name):
    """Kernel and shape rule of a convolution's input gradient (`name` leads its errors).

    The input's shape is the attr `input_sizes` when known before run time (its batch
    may be None: out_backprop's), else a third input, an integer vector.
    """
    @widened
    def numpy_kernel(xp, w, dy, sizes, pads, strides, data_format, dilations):
        nd = len(strides) - 2
        lead, spatial, channels = _split(sizes, nd, data_format)
        dx = _conv_input_grad(xp, _to_last(xp, dy, nd, data_format), w, spatial, channels,
                              _spatial(strides, data_format), _spatial(dilations, data_format),
                              pads)
        return _from_last(xp, dx, lead, nd, data_format)

    def kernel(xp, w, dy, input_sizes, strides, padding, explicit_paddings, data_format,
               dilations):
        _check_cpu_layout(xp, dy, data_format, name)
        nd = len(strides) - 2
        if type(input_sizes) is not tuple:  # given at run time
            input_sizes = input_sizes.tolist()
        sizes = _full_sizes(input_sizes, nd, dy.shape, w.shape, data_format)
        if sizes[0] is None:  # a batch unknown when traced: the gradient's own
            sizes[0] = dy.shape[0]
        if nd == 3:
            _same_depth_3d(sizes[1 if _channels_first(data_format) else -1], w.shape[-2],
                           w.dtype, _SIZES_DEPTH_3D)
        pads = _checked_backprop_geometry(
            name, sizes, w.shape, dy.shape, strides, padding, explicit_paddings, data_format,
            dilations, w.dtype in _ONEDNN_TYPES)
        if onednn_conv.usable(xp, w, dy):
            dx = onednn_conv.backward_data(
                w, _flat(dy, nd), [math.prod(sizes[:-nd - 1]), *sizes[-nd - 1:]],
                *_native_window(sizes, w.shape, strides, data_format, dilations, pads))
            if dx is not None:
                return dx.reshape(sizes)
        return numpy_kernel(xp, w, dy, sizes=sizes, pads=pads, strides=strides,
                            data_format=data_format, dilations=dilations)

    def rule(w, dy, input_sizes, strides, padding, explicit_paddings, data_format, dilations):
        nd = len(strides) - 2
        if type(input_sizes) is not tuple:  # a tensor: what is known of it before run time
            input_sizes = shape_rules.known_elements(input_sizes)
            if input_sizes is None:  # even its length unknown: the op's rank it must have
                input_sizes = [None] * (nd + 2)
        sizes = _full_sizes(input_sizes, nd, _dims(dy.shape), _dims(w.shape), data_format)
        if nd == 2:  # Conv2DBackpropInput's batch is out_backprop's, checked as TF merges
            sizes[0] = _merged_2d_backprop_batch(input_sizes, sizes[0], w, dy, data_format)
        _backprop_geometry(name, sizes, _dims(w.shape), _dims(dy.shape), strides, padding,
                           explicit_paddings, data_format, dilations, traced=True)
        return TensorShape(sizes), w.dtype
    return kernel, rule


def _merged_2d_backprop_batch(input_sizes, batch, w, dy, data_format):
    """The batch of Conv2DBackpropInput's result when traced: out_backprop's, after TF's
    shape function merges out_backprop's depth with the filter's and (given 4 sizes) its
    batch with `batch`, the one `input_sizes` gives."""
    dy_dims = [None] * 4 if dy.shape.rank is None else _dims(dy.shape)
    depth = _split(dy_dims, 2, data_format)[2]
    w_depth = None if w.shape.rank is None else w.shape[3]
    shapes = [TensorShape([len(input_sizes)]), w.shape, dy.shape]
    if None not in (depth, w_depth) and depth != w_depth:
        raise shape_rules.shape_error(
            "Conv2DBackpropInput", f"Dimensions must be equal, but are {depth} and {w_depth}",
            shapes)
    if len(input_sizes) == 4 and None not in (batch, dy_dims[0]) and batch != dy_dims[0]:
        raise shape_rules.shape_error(
            "Conv2DBackpropInput", f"Dimensions must be equal, but are {batch} and "
            f"{dy_dims[0]}", shapes, partial=(0, list(input_sizes)))
    return dy_dims[0]


def _backprop_filter(name):
    """Kernel and shape rule of a convolution's filter gradient (`name` leads its errors).

    The filter's shape is the attr `filter_sizes` when known before run time, else a third
    input, an integer vector.
    """
    @widened
    def numpy_kernel(xp, x, dy, filter_sizes, pads, strides, data_format, dilations):
        nd = len(strides) - 2
        return _conv_filter_grad(xp, _to_last(xp, x, nd, data_format),
                                 _to_last(xp, dy, nd, data_format), filter_sizes,
                                 _spatial(strides, data_format), _spatial(dilations, data_format),
                                 pads)

    def kernel(xp, x, dy, filter_sizes, strides, padding, explicit_paddings, data_format,
               dilations):
        filter_sizes = _filter_sizes(filter_sizes, len(strides))
        if len(strides) == 5:
            _same_depth_3d(x.shape[1 if _channels_first(data_format) else -1], filter_sizes[-2],
                           x.dtype, _SIZES_DEPTH_3D)
        pads = _checked_backprop_geometry(
            name, x.shape, filter_sizes, dy.shape, strides, padding, explicit_paddings,
            data_format, dilations, x.dtype in _ONEDNN_TYPES)
        if onednn_conv.usable(xp, x, dy):
            nd = len(strides) - 2
            dw = onednn_conv.backward_weights(
                _flat(x, nd), _flat(dy, nd), filter_sizes, *_native_window(
                    x.shape, filter_sizes, strides, data_format, dilations, pads))
            if dw is not None:
                return dw
        if (name == "Conv2DBackpropFilter" and x.dtype == np.float16
                and dy.size <= _HALF_ROWS * int(filter_sizes[-1])):
            return _conv_filter_grad_in_half(
                xp, _to_last(xp, x, 2, data_format), _to_last(xp, dy, 2, data_format),
                filter_sizes, _spatial(strides, data_format), _spatial(dilations, data_format),
                pads)
        return numpy_kernel(xp, x, dy, filter_sizes=filter_sizes, pads=pads, strides=strides,
                            data_format=data_format, dilations=dilations)

    def rule(x, dy, filter_sizes, strides, padding, explicit_paddings, data_format, dilations):
        if not isinstance(filter_sizes, (tuple, list)):  # a tensor: what is known of it
            filter_sizes = shape_rules.known_elements(filter_sizes)
            if filter_sizes is None:  # even its length unknown: the op's rank it must have
                filter_sizes = [None] * len(strides)
        _backprop_geometry(name, _dims(x.shape), list(filter_sizes), _dims(dy.shape), strides,
                           padding, explicit_paddings, data_format, dilations, traced=True)
        return TensorShape(filter_sizes), x.dtype
    return kernel, rule


# ----------------------------------------------------------------------------- pooling

def _pool_geometry(dims, ksize, strides, padding, explicit_paddings, data_format):
    """Checks a pooling; returns (output dims or None, paddings)."""
    nd = len(ksize) - 2
    if ksize[0] != 1 or strides[0] != 1:
        raise _unimplemented("Pooling is not yet supported on the batch dimension.")
    if _outer(ksize, data_format)[1] != 1 or _outer(strides, data_format)[1] != 1:
        raise _unimplemented("Pooling across the depth dimension is not supported.")
    if any(k < 1 for k in ksize):
        raise _invalid("Sliding window ksize must be positive. The specified or inferred ksize "
                       f"is: {','.join(map(str, ksize))}")
    if any(s < 1 for s in strides):
        raise _invalid(f"Stride must be > 0, but got {min(strides)}")
    pairs = (_explicit_pairs(explicit_paddings, nd + 2, data_format)
             if padding == "EXPLICIT" else None)
    if dims is None:  # a rank unknown when traced: the op's own, as TF's shape functions
        dims = [None] * (nd + 2)
    if len(dims) != nd + 2:
        raise _invalid(f"input must be {nd + 2}-dimensional: {shape_text(dims)}")
    lead, sizes, depth = _split(dims, nd, data_format)
    kspatial = _spatial(ksize, data_format)
    outs, pads = _window(sizes, kspatial, _spatial(strides, data_format), (1,) * nd, padding,
                         pairs)
    return _join(lead, outs, depth, data_format), pads


def _valid_counts(xp, sizes, outs, ksize, strides, pads, dtype):
    """How many real (unpadded) elements each output window covers, shaped (*outs, 1)."""
    count = 1
    for axis, (size, out, k, s, (before, _)) in enumerate(zip(sizes, outs, ksize, strides, pads)):
        start = np.arange(out) * s - before
        per_dim = np.minimum(start + k, size) - np.maximum(start, 0)
        count = count * per_dim.reshape((-1,) + (1,) * (len(sizes) - axis - 1))
    return xp.asarray(count[..., None], dtype)


def _window_taps(xp, x, ksize, strides, pads, value=0):
    """Each kernel position's values of the pooling windows of `x` padded with `value`."""
    return _taps(_patches(xp, _pad(xp, x, pads, value), ksize, strides, (1,) * len(ksize)))


def _max_taps(xp, x, ksize, strides, pads):
    """`_window_taps` as max pooling compares them: from the lowest finite value up, so
    that padding, NaN and -inf never exceed a real number."""
    lowest = _d.from_numpy(x.dtype).min
    if x.dtype.kind not in "iu":
        x = xp.fmax(x, xp.asarray(lowest, x.dtype))
    return _window_taps(xp, x, ksize, strides, pads, lowest)


def _accumulate(xp, ufunc, taps):
    """`ufunc` reduced over the taps elementwise, one pass over the output per tap: much
    faster than reducing the strided window axes of the view."""
    acc = ufunc(taps[0], taps[1]) if len(taps) > 1 else xp.array(taps[0])
    for tap in taps[2:]:
        ufunc(acc, tap, out=acc)
    return acc


def _max_windows(xp, x, ksize, strides, pads):
    """The max of each window; windows start from the lowest finite value and skip NaN."""
    return _accumulate(xp, xp.maximum, _max_taps(xp, x, ksize, strides, pads))


def _avg_windows(xp, x, ksize, strides, pads):
    """The mean of each window over its real (unpadded) elements."""
    total = _accumulate(xp, xp.add, _window_taps(xp, x, ksize, strides, pads))
    return total / _valid_counts(xp, x.shape[1:-1], total.shape[1:-1], ksize, strides, pads,
                                 total.dtype)


def _pool_kernel(window_op, average=None):
    """A pooling kernel around channels-last ``window_op``; on oneDNN first where it runs
    (`average`: True or False for average or max pooling, None for NumPy only)."""
    def kernel(xp, x, ksize, strides, padding, data_format, explicit_paddings=()):
        if average is False and len(ksize) == 4:
            _check_cpu_layout(xp, x, data_format, "MaxPool")
        dims, pads = _pool_geometry(list(x.shape), ksize, strides, padding, explicit_paddings,
                                    data_format)
        nd = len(ksize) - 2
        if average is not None and xp is np:
            y = onednn_pooling.pool(average, x, dims, _spatial(ksize, data_format),
                                    _spatial(strides, data_format), pads, data_format)
            if y is not None:
                return y
        y = window_op(xp, _to_last(xp, x, nd, data_format), _spatial(ksize, data_format),
                      _spatial(strides, data_format), pads)
        return _from_last(xp, y, x.shape[:-nd - 1], nd, data_format)
    return kernel


def _first_maxima(xp, x, ksize, strides, pads):
    """Per kernel position, whether it holds its window's gradient, routed as TensorFlow
    does: to the window's first real element, passed on to each later one strictly greater.
    NaN is never greater, but keeps the gradient when it comes first; padding never does,
    so a window of -inf still sends its gradient to a real element."""
    lowest = _d.from_numpy(x.dtype).min
    if x.size and x.min() > lowest:  # no NaN, and padding (lowest) never ties a maximum:
        taps = _window_taps(xp, x, ksize, strides, pads, lowest)  # each window's first
        top = _accumulate(xp, xp.maximum, taps)                   # maximum, found faster
        seen = xp.zeros(top.shape, bool)
        firsts = []
        for tap in taps:
            hit = tap == top
            firsts.append(hit > seen)
            seen |= hit
        return firsts
    taps = _window_taps(xp, x, ksize, strides, pads)
    padded = any(any(p) for p in pads)
    real = _window_taps(xp, xp.ones(x.shape, bool), ksize, strides, pads, False) if padded \
        else None
    best = xp.array(taps[0])
    owner = xp.zeros(best.shape, xp.int16 if len(taps) < 1 << 15 else xp.intp)
    held = xp.array(real[0]) if padded else None
    for i, tap in enumerate(taps[1:], 1):
        take = best < tap
        if padded:
            take |= ~held
            take &= real[i]
            held |= real[i]
        xp.copyto(best, tap, where=take)
        xp.copyto(owner, i, where=take)
    if padded:  # a window of padding alone (a spare one of `_max_scatter`) has no owner
        return [(owner == i) & held for i in range(len(taps))]
    return [owner == i for i in range(len(taps))]


def _equal_maxima(xp, x, y, ksize, strides, pads, first):
    """Per kernel position, where it holds the pooled value `y` of its window (padding
    never does): only the `first` of each window, as both MaxPoolGradGrad ops route; or,
    as MaxPool3DGrad, every element within 1e-5 of it (so never an infinite one)."""
    padded = any(any(p) for p in pads)
    real = _window_taps(xp, xp.ones(x.shape, bool), ksize, strides, pads, False) if padded \
        else None
    near = None if first else xp.asarray(1e-5, x.dtype)
    masks, seen = [], None
    for i, tap in enumerate(_window_taps(xp, x, ksize, strides, pads)):
        if first:
            hit = tap == y
        else:
            with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: no match
                hit = xp.abs(tap - y) < near
        if padded:
            hit &= real[i]
        if first:
            masks.append(hit if seen is None else hit > seen)
            seen = hit if seen is None else seen | hit
        else:
            masks.append(hit)
    return masks


def _masked_bits(a, mask):
    """The bit patterns of `a` where `mask`, zero elsewhere. An integer product selects
    exactly (NaN, inf and -0.0 included) and far faster than a `where`."""
    return a.view(f"u{a.dtype.itemsize}") * mask


# The max pooling gradients take the pooled output `y` as an input, like the forward
# op's outputs in the graph, but find the maxima again in `x`.

def _max_scatter(xp, x, y, dy, ksize, strides, pads):
    """The gradient of max pooling: each window's `dy` goes to its maximum (2-D), or to
    every element equal to the pooled value `y` (3-D, as TensorFlow's MaxPool3DGrad)."""
    sizes = x.shape[1:-1]
    grid = _grid(sizes, strides, pads)
    wide = _widen(xp, dy, grid)
    # maxima found on the whole grid at once: its spare windows (of zero `dy`) see only
    # the extra padding, and `dy` is widened once rather than every tap's values
    spare = [(b, max(a, s * (g - 1) + k - size - b))
             for size, k, s, (b, a), g in zip(sizes, ksize, strides, pads, grid)]
    if len(ksize) == 3:
        masks = _equal_maxima(xp, x, _widen(xp, y, grid), ksize, strides, spare, False)
    else:
        masks = _first_maxima(xp, x, ksize, strides, spare)
    cols = [_by_channel(_masked_bits(wide, mask).view(dy.dtype)) for mask in masks]
    return _fold(xp, cols, xp.empty(x.shape, dy.dtype), ksize, strides, (1,) * len(ksize),
                 pads)


def _max_gather(xp, x, y, ddx, ksize, strides, pads):
    """The gradient of max pooling's gradient with respect to its `dy`: `ddx` at the first
    element of each window equal to the pooled value `y` (zero where none is)."""
    firsts = _equal_maxima(xp, x, y, ksize, strides, pads, True)
    bits = 0
    for tap, first in zip(_window_taps(xp, ddx, ksize, strides, pads), firsts):
        bits = bits | _masked_bits(tap, first)  # one tap per window: the or selects it
    return bits.view(ddx.dtype)


def _avg_scatter(xp, dy, sizes, ksize, strides, pads):
    """The gradient of average pooling: each window's `dy` shared among its real elements."""
    share = dy / _valid_counts(xp, sizes, dy.shape[1:-1], ksize, strides, pads, dy.dtype)
    share = _by_channel(_widen(xp, share, _grid(sizes, strides, pads)))
    dx = xp.empty((dy.shape[0], *sizes, dy.shape[-1]), dy.dtype)
    return _fold(xp, [share] * math.prod(ksize), dx, ksize, strides, (1,) * len(ksize), pads)


def _expect_shapes(*expected):
    """TF's error for the first ``(name, array, shape)`` whose array is not shaped `shape`
    (a max pooling gradient's inputs, which must be shaped as the pooling makes them)."""
    for name, array, shape in expected:
        if array.shape != shape:
            raise _invalid(f"Expected {name} shape to be {shape_text(shape)}, but got "
                           f"{shape_text(array.shape)}")


def _pool_grad_kernel(backward, native=None, grad_like_input=False):
    """A pooling-gradient kernel around channels-last ``backward(xp, *arrays, ksize, ...)``.

    The pooled input's shape is input 0's (max pooling) or the `orig_input_shape`
    attr (average pooling, whose only input is the output gradient). `native`, given
    ``(arrays, shape, ksize, strides, pads, data_format)``, returns the gradient from
    oneDNN or None. `grad_like_input`: the routed gradient (a max pooling's input 2) is
    shaped like the pooled input (MaxPool*GradGrad), else like its output.
    """
    def kernel(xp, *arrays, ksize, strides, padding, data_format, explicit_paddings=(),
               orig_input_shape=None):
        nd = len(ksize) - 2
        if orig_input_shape is None and len(arrays) == 2:  # average pooling's, at run time
            orig_input_shape, arrays = tuple(int(d) for d in arrays[1].tolist()), arrays[:1]
        shape = arrays[0].shape if orig_input_shape is None else orig_input_shape
        if shape[0] is None:  # a batch unknown when traced: the gradient's own
            shape = (arrays[0].shape[0], *shape[1:])
        pooled, pads = _pool_geometry(list(shape), ksize, strides, padding, explicit_paddings,
                                      data_format)
        if len(arrays) == 3:  # a max pooling's (orig_input, orig_output, grad)
            x, y, dy = arrays
            _expect_shapes(("orig_output", y, tuple(pooled)),
                           ("grad", dy, x.shape if grad_like_input else tuple(pooled)))
        if native is not None and xp is np:
            dx = native(arrays, shape, _spatial(ksize, data_format),
                        _spatial(strides, data_format), pads, data_format)
            if dx is not None:
                return dx
        last = [_to_last(xp, a, nd, data_format) for a in arrays]
        if orig_input_shape is not None:
            last.append(_split(list(shape), nd, data_format)[1])
        y = backward(xp, *last, _spatial(ksize, data_format), _spatial(strides, data_format),
                     pads)
        return _from_last(xp, y, y.shape[:1], nd, data_format)
    return kernel


def _pool_grad_rule(like, op_name=None):
    """The shape rule of a pooling gradient whose output is shaped like input `like`; given
    its `op_name`, a MaxPool*GradGrad's, whose routed gradient (input 2) is shaped like the
    pooled input."""
    def rule(*inputs, ksize, strides, padding, data_format, explicit_paddings=(),
             orig_input_shape=None):
        if orig_input_shape is None and len(inputs) == 2:  # a shape known at run time only
            return TensorShape([None] * len(ksize)), inputs[0].dtype
        dims = _dims(inputs[0].shape) if orig_input_shape is None else list(orig_input_shape)
        _pool_geometry(dims, ksize, strides, padding, explicit_paddings, data_format)
        if op_name is not None and not inputs[0].shape.is_compatible_with(inputs[2].shape):
            raise shape_rules.shape_error(
                op_name, shape_rules.merge_failure(inputs[0].shape, inputs[2].shape),
                [t.shape for t in inputs])
        if orig_input_shape is not None:
            return TensorShape(orig_input_shape), inputs[0].dtype
        return inputs[like].shape, inputs[0].dtype
    return rule


def _pool_rule(x, ksize, strides, padding, data_format, explicit_paddings=()):
    try:
        dims, _ = _pool_geometry(_dims(x.shape), ksize, strides, padding, explicit_paddings,
                                 data_format)
    except (errors.InvalidArgumentError, ValueError):  # (a negative size: in TF's words)
        _valid_pool_fits(x, ksize, padding, data_format)
        raise
    _valid_pool_fits(x, ksize, padding, data_format)
    return TensorShape(dims), x.dtype


def _valid_pool_fits(x, ksize, padding, data_format):
    """TF's shape function rejects a window larger than the input (its kernel gives an
    empty result); eagerly only the kernel runs."""
    if padding == "VALID" and x.shape.rank is not None:
        nd = len(ksize) - 2
        sizes = _split(_dims(x.shape), nd, data_format)[1]
        for size, k in zip(sizes, _spatial(ksize, data_format)):
            if size is not None and size < k:
                raise errors.InvalidArgumentError(
                    None, None, f"Negative dimension size caused by subtracting {k} from {size}")


_CONV2D = register("Conv2D", _conv_kernel(False), _conv_rule(False), tied=(0, 1),
                   dtypes=_CONV_TYPES)
tf_nodes[_CONV2D] = NodeForm(ignored={"use_cudnn_on_gpu"}, outputs=("output",))
tf_args[_CONV2D] = ("input", "filter")
tf_defaults[_CONV2D] = {"explicit_paddings": (), "data_format": "NHWC", "dilations": (1, 1, 1, 1)}
_CONV3D = register("Conv3D", _conv_kernel(False), _conv_rule(False), tied=(0, 1), dtypes=FLOAT)
tf_nodes[_CONV3D] = NodeForm(implied={"explicit_paddings": ()}, outputs=("output",))
tf_args[_CONV3D] = ("input", "filter")
tf_defaults[_CONV3D] = {"data_format": "NDHWC", "dilations": (1, 1, 1, 1, 1)}
_DEPTHWISE = register("DepthwiseConv2dNative", _conv_kernel(True), _conv_rule(True),
                      tied=(0, 1), dtypes=FLOAT)
tf_nodes[_DEPTHWISE] = NodeForm(outputs=("output",))
tf_args[_DEPTHWISE] = ("input", "filter")
tf_defaults[_DEPTHWISE] = {"explicit_paddings": (), "data_format": "NHWC",
                           "dilations": (1, 1, 1, 1)}
_BACKPROP_INPUT = register("Conv2DBackpropInput", *_backprop_input("Conv2DCustomBackpropInput"),
                           tied=(0, 1), dtypes=_CONV_TYPES, fresh=True)
tf_nodes[_BACKPROP_INPUT] = NodeForm(
    inputs=(AttrInput("input_sizes", type_attr=None, runtime=True), 0, 1),
    ignored={"use_cudnn_on_gpu"}, outputs=("output",))
tf_args[_BACKPROP_INPUT] = ("input_sizes", "filter", "out_backprop")
tf_defaults[_BACKPROP_INPUT] = {"explicit_paddings": (), "data_format": "NHWC",
                                "dilations": (1, 1, 1, 1)}
_BACKPROP_FILTER = register("Conv2DBackpropFilter", *_backprop_filter("Conv2DBackpropFilter"),
                            tied=(0, 1), dtypes=FLOAT)
tf_nodes[_BACKPROP_FILTER] = NodeForm(
    inputs=(0, AttrInput("filter_sizes", type_attr=None, runtime=True), 1),
    ignored={"use_cudnn_on_gpu"},
    outputs=("output",))
tf_args[_BACKPROP_FILTER] = ("input", "filter_sizes", "out_backprop")
tf_defaults[_BACKPROP_FILTER] = {"explicit_paddings": (), "data_format": "NHWC",
                                 "dilations": (1, 1, 1, 1)}
# A depthwise convolution is a grouped one, one group per input channel, whose filter
# (kh, kw, channels, multiplier) is laid out as (kh, kw, 1, channels * multiplier): its
# gradient ops run the grouped convolution's kernels after TF's own checks.
_DW_INPUT, _DW_FILTER = "DepthwiseConv2DBackpropInput", "DepthwiseConv2DBackpropFilter"
_grouped_input_grad = _backprop_input(_DW_INPUT)[0]
_grouped_filter_grad = _backprop_filter(_DW_FILTER)[0]


def _check_depthwise(name, x_dims, w_dims, dy, data_format):
    """TF's checks of a depthwise gradient's input dims, filter dims and out_backprop."""
    for what, dims in (("input", x_dims), ("filter", w_dims), ("out_backprop", dy.shape)):
        if len(dims) != 4:
            raise _invalid(f"{name}: {what} must be 4-dimensional")
    channels = -1 if not _channels_first(data_format) else 1
    if x_dims[channels] != w_dims[2]:
        raise _invalid(f"{name}: input and filter must have the same in_depth")
    if w_dims[2] * w_dims[3] != dy.shape[channels]:
        raise _invalid(f"{name}: depth_multiplier * in_depth not equal to out_depth")


def _depthwise_input_grad(xp, w, dy, input_sizes, **window):
    sizes = _full_sizes(input_sizes if type(input_sizes) is tuple else input_sizes.tolist(),
                        2, dy.shape, w.shape, window["data_format"])
    _check_depthwise(_DW_INPUT, sizes, w.shape, dy, window["data_format"])
    return _grouped_input_grad(xp, w.reshape(*w.shape[:2], 1, -1), dy, tuple(sizes), **window)


def _depthwise_filter_grad(xp, x, dy, filter_sizes, **window):
    sizes = _filter_sizes(filter_sizes, 4)
    _check_depthwise(_DW_FILTER, x.shape, sizes, dy, window["data_format"])
    grouped = (*sizes[:2], 1, sizes[2] * sizes[3])
    return _grouped_filter_grad(xp, x, dy, grouped, **window).reshape(sizes)


def _sizes_rule(attr, op_name):
    """The shape rule of a depthwise gradient: what is known of its `attr` (the sizes of its
    result) alone, a 4-D shape, as TF's shape function."""
    def rule(*inputs, **attrs):
        sizes = attrs.get(attr)
        if sizes is None:  # a tensor, input 2: what is known of it before run time
            sizes = shape_rules.known_elements(inputs[2])
            if sizes is None:  # even its length unknown
                sizes = [None] * 4
        if len(sizes) != 4:
            shapes = [TensorShape([len(sizes)])] + [t.shape for t in inputs[:2]]
            raise shape_rules.shape_error(op_name, f"Shape must be rank 4 but is rank "
                                                   f"{len(sizes)}", shapes,
                                          partial=(0, list(sizes)))
        return TensorShape(sizes), inputs[0].dtype
    return rule


_DEPTHWISE_INPUT = register("DepthwiseConv2dNativeBackpropInput", _depthwise_input_grad,
                            _sizes_rule("input_sizes", "DepthwiseConv2dNativeBackpropInput"),
                            tied=(0, 1), dtypes=FLOAT)
_DEPTHWISE_FILTER = register("DepthwiseConv2dNativeBackpropFilter", _depthwise_filter_grad,
                             _sizes_rule("filter_sizes", "DepthwiseConv2dNativeBackpropFilter"),
                             tied=(0, 1), dtypes=FLOAT)
for _op, _sizes in ((_DEPTHWISE_INPUT, "input_sizes"), (_DEPTHWISE_FILTER, "filter_sizes")):
    _at = AttrInput(_sizes, type_attr=None, runtime=True)
    tf_nodes[_op] = NodeForm(inputs=(_at, 0, 1) if _op is _DEPTHWISE_INPUT else (0, _at, 1),
                             outputs=("output",))
    tf_defaults[_op] = {"explicit_paddings": (), "data_format": "NHWC",
                        "dilations": (1, 1, 1, 1)}
tf_args[_DEPTHWISE_INPUT] = ("input_sizes", "filter", "out_backprop")
tf_args[_DEPTHWISE_FILTER] = ("input", "filter_sizes", "out_backprop")
# the 3-D gradients take their sizes as attrs (or inputs) too, like the 2-D ones above
_BACKPROP_INPUT3D = register("Conv3DBackpropInputV2", *_backprop_input("Conv3DBackpropInputOp"),
                             tied=(0, 1), dtypes=FLOAT)
tf_nodes[_BACKPROP_INPUT3D] = NodeForm(
    inputs=(AttrInput("input_sizes", type_attr="Tshape", runtime=True), 0, 1),
    implied={"explicit_paddings": ()}, outputs=("output",))
tf_args[_BACKPROP_INPUT3D] = ("input_sizes", "filter", "out_backprop")
tf_defaults[_BACKPROP_INPUT3D] = {"data_format": "NDHWC", "dilations": (1, 1, 1, 1, 1)}
_BACKPROP_FILTER3D = register("Conv3DBackpropFilterV2",
                              *_backprop_filter("Conv3DBackpropFilterOp"), tied=(0, 1),
                              dtypes=FLOAT)
tf_nodes[_BACKPROP_FILTER3D] = NodeForm(
    inputs=(0, AttrInput("filter_sizes", type_attr=None, runtime=True), 1),
    implied={"explicit_paddings": ()},
    outputs=("output",))
tf_args[_BACKPROP_FILTER3D] = ("input", "filter_sizes", "out_backprop")
tf_defaults[_BACKPROP_FILTER3D] = {"data_format": "NDHWC", "dilations": (1, 1, 1, 1, 1)}
_MAX_POOL = register("MaxPool", _pool_kernel(_max_windows, False), _pool_rule,
                     dtypes=_MAX_POOL_TYPES)
tf_defaults[_MAX_POOL] = {"data_format": "NHWC"}
_avg_pool_widened = widened(_pool_kernel(_avg_windows, True))
_avg_pool_in_half = _pool_kernel(_avg_windows)


def _avg_pool(xp, x, *args, **kwargs):
    _check_cpu_layout(xp, x, kwargs["data_format"], "AvgPool")
    # TF's CPU kernel adds each float16 window in float16, row by row, and divides in float16
    if x.dtype == np.float16 and xp is np:
        return _avg_pool_in_half(xp, x, *args, **kwargs)
    return _avg_pool_widened(xp, x, *args, **kwargs)


_AVG_POOL = register("AvgPool", _avg_pool, _pool_rule, dtypes=FLOAT)
tf_args[_AVG_POOL] = ("value",)
tf_defaults[_AVG_POOL] = {"data_format": "NHWC"}
# TF's 3-D pooling has CPU kernels for bfloat16 and float32 only (MaxPool3D allows no float64)
_MAX_POOL3D = register("MaxPool3D", _pool_kernel(_max_windows, False), _pool_rule,
                       dtypes=(_d.float16, _d.bfloat16, _d.float32),
                       kernels=(_d.bfloat16, _d.float32))
tf_defaults[_MAX_POOL3D] = {"data_format": "NDHWC"}
_AVG_POOL3D = register("AvgPool3D", widened(_pool_kernel(_avg_windows, True)), _pool_rule,
                       dtypes=(_d.float16, _d.bfloat16, _d.float32, _d.float64),
                       kernels=(_d.bfloat16, _d.float32))
tf_defaults[_AVG_POOL3D] = {"data_format": "NDHWC"}


def _native_max_grad(arrays, shape, ksize, strides, pads, data_format):
    if len(ksize) == 3:  # oneDNN routes to one maximum, MaxPool3DGrad to every one
        return None
    x, _, dy = arrays
    return onednn_pooling.max_pool_grad(x, dy, ksize, strides, pads, data_format)


def _native_avg_grad(arrays, shape, ksize, strides, pads, data_format):
    return onednn_pooling.avg_pool_grad(arrays[0], shape, ksize, strides, pads, data_format)


def _register_pool_grads(suffix, max_types):
    """Registers the gradient ops of max and average pooling (`suffix`: "" or "3D")."""
    return (register(f"MaxPool{suffix}Grad", _pool_grad_kernel(_max_scatter, _native_max_grad),
                     _pool_grad_rule(0), tied=(0, 1, 2), dtypes=max_types),
            register(f"MaxPool{suffix}GradGrad",
                     _pool_grad_kernel(_max_gather, grad_like_input=True),
                     _pool_grad_rule(1, f"MaxPool{suffix}GradGrad"), tied=(0, 1, 2),
                     dtypes=max_types),
            register(f"AvgPool{suffix}Grad",
                     widened(_pool_grad_kernel(_avg_scatter, _native_avg_grad)),
                     _pool_grad_rule(0), dtypes=FLOAT))


_MAX_POOL_GRAD, _MAX_POOL_GRAD_GRAD, _AVG_POOL_GRAD = _register_pool_grads("", _MAX_POOL_TYPES)
tf_args[_AVG_POOL_GRAD] = ("orig_input_shape", "grad")
tf_defaults[_AVG_POOL_GRAD] = {"data_format": "NHWC"}
tf_args[_MAX_POOL_GRAD] = ("orig_input", "orig_output", "grad")
tf_defaults[_MAX_POOL_GRAD] = {"data_format": "NHWC"}
tf_args[_MAX_POOL_GRAD_GRAD] = ("orig_input", "orig_output", "grad")
tf_defaults[_MAX_POOL_GRAD_GRAD] = {"data_format": "NHWC"}
_MAX_POOL3D_GRAD, _MAX_POOL3D_GRAD_GRAD, _AVG_POOL3D_GRAD = _register_pool_grads("3D", FLOAT)
tf_args[_AVG_POOL3D_GRAD] = ("orig_input_shape", "grad")
tf_defaults[_AVG_POOL3D_GRAD] = {"data_format": "NDHWC"}
tf_args[_MAX_POOL3D_GRAD] = ("orig_input", "orig_output", "grad")
tf_defaults[_MAX_POOL3D_GRAD] = {"data_format": "NDHWC"}
tf_args[_MAX_POOL3D_GRAD_GRAD] = ("orig_input", "orig_output", "grad")
tf_defaults[_MAX_POOL3D_GRAD_GRAD] = {"data_format": "NDHWC"}
# MaxPoolV2 and its gradients take ksize and strides as inputs (constants here): V1's kernels
_MAX_POOL_V2 = register("MaxPoolV2", _pool_kernel(_max_windows, False), _pool_rule,
                        dtypes=_MAX_POOL_TYPES)
_MAX_POOL_GRAD_V2 = register("MaxPoolGradV2",
                             _pool_grad_kernel(_max_scatter, _native_max_grad),
                             _pool_grad_rule(0), tied=(0, 1, 2), dtypes=_MAX_POOL_TYPES)
_MAX_POOL_GRAD_GRAD_V2 = register("MaxPoolGradGradV2",
                                  _pool_grad_kernel(_max_gather, grad_like_input=True),
                                  _pool_grad_rule(1, "MaxPoolGradGradV2"), tied=(0, 1, 2),
                                  dtypes=_MAX_POOL_TYPES)
_WINDOW_INPUTS = (AttrInput("ksize", type_attr=None), AttrInput("strides", type_attr=None))
tf_nodes[_MAX_POOL_V2] = NodeForm(inputs=(0, *_WINDOW_INPUTS), outputs=("output",))
tf_args[_MAX_POOL_V2] = ("input", "ksize", "strides")
tf_defaults[_MAX_POOL_V2] = {"data_format": "NHWC"}
for _op in (_MAX_POOL_GRAD_V2, _MAX_POOL_GRAD_GRAD_V2):
    tf_nodes[_op] = NodeForm(inputs=(0, 1, 2, *_WINDOW_INPUTS), outputs=("output",))
    tf_args[_op] = ("orig_input", "orig_output", "grad", "ksize", "strides")
    tf_defaults[_op] = {"data_format": "NHWC"}
for _op in (_AVG_POOL_GRAD, _AVG_POOL3D_GRAD):
    tf_nodes[_op] = NodeForm(inputs=(AttrInput("orig_input_shape", type_attr=None,
                                               runtime=True), 0),
                             outputs=("output",))


# ----------------------------------------------------------------------------- public API

def _sequence(value, n, channels_first, name):
    """An attr of length n + 2 from an int or a list of 1, n or n + 2 ints."""
    if value is None:
        return (1,) * (n + 2)
    value = static_ints(value)
    value = [value] if isinstance(value, int) else value
    if len(value) == n + 2:
        return tuple(value)
    if len(value) not in (1, n):
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(value)}")
    spatial = value * n if len(value) == 1 else value
    return tuple([1, 1] + spatial if channels_first else [1] + spatial + [1])


def _check_choice(attr, value, allowed):
    if value not in allowed:
        options = ", ".join(f'"{a}"' for a in allowed)
        raise shape_rules.static_error(f"Value for attr '{attr}' of \"{value}\" is not in the "
                                       f"list of allowed values: {options}")


def _padding(padding, rank, allowed=_PADDINGS):
    """(padding attr, explicit_paddings attr) from "SAME"/"VALID" or a list of pairs."""
    if isinstance(padding, str):
        _check_choice("padding", padding, allowed)
        return padding, ()
    if "EXPLICIT" not in allowed:
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    padding = static_ints(padding)
    if len(padding) != rank:
        raise ValueError(f"When padding is a list, it must be of size {rank}. Received: "
                         f"padding={padding} of size {len(padding)}")
    for i, pair in enumerate(padding):
        if len(pair) != 2:
            raise ValueError("When `padding` is a list, each element of `padding` must be a "
                             f"list/tuple of size 2. Received: padding={padding} with element "
                             f"at index {i} of size {len(pair)}")
    return "EXPLICIT", tuple(p for pair in padding for p in pair)


def _conv_attrs(nd, strides, padding, data_format, dilations, formats, paddings=_PADDINGS):
    _check_choice("data_format", data_format, formats)
    first = _channels_first(data_format)
    padding, explicit = _padding(padding, nd + 2, paddings)
    return {"strides": _sequence(strides, nd, first, "strides"), "padding": padding,
            "explicit_paddings": explicit, "data_format": data_format,
            "dilations": _sequence(dilations, nd, first, "dilations")}


@export("nn.conv2d", dispatch_name="compat.v1.nn.conv2d")
def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """Computes a 2-D convolution of `input` (N, H, W, C) with `filters` (kh, kw, C, out).

    `padding` is "SAME", "VALID" or explicit ``[[0, 0], [top, bottom], [left, right],
    [0, 0]]``; `strides` and `dilations` are ints or lists of 1, 2 or 4 ints. Inputs
    with more than one leading batch dimension are accepted; `filters` with fewer
    input channels than `input` make a grouped convolution.

    >>> x = tf.constant(np.ones((1, 4, 4, 1), np.float32))
    >>> tf.nn.conv2d(x, tf.constant(np.ones((3, 3, 1, 2), np.float32)), 2, "SAME").shape
    TensorShape([1, 2, 2, 2])
    """
    x, w = matching_own(input, filters)
    attrs = _conv_attrs(2, strides, padding, data_format, dilations, ("NHWC", "NCHW"))
    return dispatch(_CONV2D, (x, w), attrs, name=name)


@export("nn.conv3d")
def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):
    """Computes a 3-D convolution of `input` (N, D, H, W, C) with `filters` (kd, kh, kw, C, out).

    >>> x = tf.constant(np.ones((1, 3, 3, 3, 1), np.float32))
    >>> tf.nn.conv3d(x, tf.constant(np.ones((2, 2, 2, 1, 1), np.float32)), [1, 1, 1, 1, 1],
    ...              "VALID").shape
    TensorShape([1, 2, 2, 2, 1])
    """
    x, w = matching_own(input, filters)
    attrs = _conv_attrs(3, strides, padding, data_format, dilations, ("NDHWC", "NCDHW"))
    return dispatch(_CONV3D, (x, w), attrs, name=name)


@export("nn.conv1d", dispatch_name="compat.v1.nn.conv1d")
def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """Computes a 1-D convolution of `input` (N, W, C) with `filters` (kw, C, out).

    Runs as a 2-D convolution over a height of one, as TensorFlow does.

    >>> x = tf.constant(np.ones((1, 5, 1), np.float32))
    >>> tf.nn.conv1d(x, tf.constant(np.ones((3, 1, 1), np.float32)), 1, "VALID").shape
    TensorShape([1, 3, 1])
    """
    _check_choice("data_format", data_format, ("NWC", "NCW"))
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    x, w = matching_own(input, filters)
    first = data_format == "NCW"
    axis = -2 if first else -3
    attrs = _conv_attrs(2, _lift(stride, first, "stride"), padding,
                        "NCHW" if first else "NHWC", _lift(dilations, first, "dilations"),
                        ("NHWC", "NCHW"))
    with context.op_scope(name or "conv1d") as scope:  # (in a graph: conv1d/ExpandDims ...)
        y = dispatch(_CONV2D, (array_ops.expand_dims(x, axis), array_ops.expand_dims(w, 0)),
                     attrs, name=scope or name)
        return array_ops.squeeze(y, [axis])


def _lift(value, channels_first, name):
    """A 1-D stride/dilation (int or 1 or 3 ints) as its 2-D attr with a unit height."""
    if value is None:
        return None
    spatial = _sequence(value, 1, channels_first, name)
    return (1, 1, 1, spatial[2]) if channels_first else (1, 1, spatial[1], 1)


# The ops of a graph whose result TF's wrappers compute by ``with_space_to_batch``: in TF's
# graph a BatchToSpaceND, not the op, gives the result, so nothing after it fuses with it
# (graph fusion leaves these alone, keeping a following ReLU's NaN as TF does).
BY_SPACE_TO_BATCH = weakref.WeakSet()


def _as_space_to_batch(y, x, dilations, channels_first):
    """`y`, a dilated op's result on `x`, with the static shape TF's wrappers give it: they
    compute it on `x` cut into a batch of grids (``with_space_to_batch``), whose padding a
    spatial dim unknown while tracing leaves to run time, and the dims after the batch with
    it (all of them for channels first)."""
    if context.executing_eagerly() or all(d == 1 for d in dilations):
        return y
    BY_SPACE_TO_BATCH.add(y.op)
    if x.shape.rank is None or y.shape.rank is None:
        return y
    if None not in (x.shape[2:] if channels_first else x.shape[1:-1]).as_list():
        return y
    dims = y.shape.as_list()
    dims[1:] = [None] * (len(dims) - 1) if channels_first else [None] * (len(dims) - 2) + \
        dims[-1:]
    y._shape = TensorShape(dims)  # (less than the op's rule knows)
    return y


@export("nn.depthwise_conv2d", dispatch_name="compat.v1.nn.depthwise_conv2d")
def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,
                     name=None):
    """Convolves each input channel with its own `channel_multiplier` filters.

    `filter` is ``(kh, kw, in_channels, channel_multiplier)``; output channel
    ``c * channel_multiplier + m`` comes from input channel c and filter m.

    >>> x = tf.constant(np.ones((1, 3, 3, 2), np.float32))
    >>> tf.nn.depthwise_conv2d(x, tf.constant(np.ones((2, 2, 2, 3), np.float32)), [1, 1, 1, 1],
    ...                  "VALID").shape
    TensorShape([1, 2, 2, 6])
    """
    return _depthwise_conv(input, filter, strides, padding, data_format, dilations, name,
                           warn=True)


def _depthwise_conv(input, filter, strides, padding, data_format, dilations, name,  # noqa: A002
                    warn):
    x, w = matching_own(input, filter)
    attrs = _conv_attrs(2, strides, padding, data_format or "NHWC", dilations,
                        ("NHWC", "NCHW"))
    first = (data_format or "NHWC") == "NCHW"
    rates = _spatial_dilations(dilations, 2, first)
    if any(r > 1 for r in rates) and any(s != 1 for s in attrs["strides"]):
        # TF's wrappers dilate by cutting the input into interleaved grids and stride
        # within each grid: not the dilated strided convolution, but the values TF gives
        if warn:
            warnings.warn(f"When dilation rate is greater than 1, then all values of "
                          f"strides must be 1. Received: `dilation rate` {dilations} and "
                          f"`strides` {strides}")
        undilated = dict(attrs, dilations=[1, 1, 1, 1])

        def strided(grids, _, grid_padding):
            return dispatch(_DEPTHWISE, (grids, w), dict(undilated, padding=grid_padding))
        with context.op_scope(name or "depthwise"):
            return with_space_to_batch(x, rates, padding, strided,
                                       filter_shape=array_ops.shape(w),
                                       data_format=data_format or "NHWC")
    with context.op_scope(name or "depthwise") as scope:
        return _as_space_to_batch(dispatch(_DEPTHWISE, (x, w), attrs, name=scope or name), x,
                                  rates, first)


def _spatial_dilations(dilations, n, channels_first):
    """The `n` spatial entries of a conv's `dilations` argument (None: ones)."""
    if dilations is None:
        return [1] * n
    full = _sequence(dilations, n, channels_first, "dilations")
    return list(full[2:] if channels_first else full[1:-1])


@export("nn.convolution")
def convolution(input, filters, strides=None, padding="VALID", data_format=None,
                dilations=None, name=None):
    """A 1-, 2- or 3-D convolution, as `filters`' rank (or else `input`'s) says.

    >>> x = tf.constant(np.ones((1, 5, 5, 1), np.float32))
    >>> tf.nn.convolution(x, tf.constant(np.ones((3, 3, 1, 2), np.float32)), padding="SAME").shape
    TensorShape([1, 5, 5, 2])
    """
    x, w = as_tensor(input), as_tensor(filters)
    rank = w.shape.rank if w.shape.rank is not None else x.shape.rank
    if rank is None:
        raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or "
                         "`filters.shape.rank` must be known. Received: input.shape="
                         f"{x.shape} of rank None and filters.shape={w.shape} of rank None")
    nd = rank - 2
    if nd not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: "
                         f"num_spatial_dims={nd}.")
    first = data_format is not None and data_format.startswith("NC")
    strides = 1 if strides is None else strides
    spatial = slice(2, None) if first else slice(1, -1)
    stride_list = _sequence(strides, nd, first, "strides")[spatial]
    dilation_list = _sequence(1 if dilations is None else dilations, nd, first,
                              "dilations")[spatial]
    if any(d != 1 for d in dilation_list) and any(t != 1 for t in stride_list):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={np.array(stride_list)} and "
                         f"dilation_rate={np.array(dilation_list)}")
    if nd == 1:
        y = conv1d(x, w, strides, padding, "NCW" if first else "NWC", dilations, name)
    elif nd == 2:
        y = conv2d(x, w, strides, padding, "NCHW" if first else "NHWC", dilations, name)
    else:
        y = conv3d(x, w, strides, padding, "NCDHW" if first else "NDHWC", dilations, name)
    return _as_space_to_batch(y, x, dilation_list, first)


@export("nn.separable_conv2d")
def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     data_format=None, dilations=None, name=None):
    """A depthwise convolution followed by a 1x1 convolution mixing its channels.

    `depthwise_filter` is ``(kh, kw, in_channels, multiplier)``, `pointwise_filter`
    ``(1, 1, in_channels * multiplier, out_channels)``.

    >>> x = tf.constant(np.ones((1, 3, 3, 2), np.float32))
    >>> depthwise = tf.constant(np.ones((2, 2, 2, 1), np.float32))
    >>> pointwise = tf.constant(np.ones((1, 1, 2, 4), np.float32))
    >>> tf.nn.separable_conv2d(x, depthwise, pointwise, [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 2, 2, 4])
    """
    depthwise_filter = as_tensor(depthwise_filter)
    pointwise_filter = as_tensor(pointwise_filter)
    pw = pointwise_filter.shape
    for d in (pw[:2] if pw.rank is not None else ()):
        if d not in (1, None):
            raise ValueError(f"Dimensions {d} and 1 are not compatible")
    depthwise = _depthwise_conv(input, depthwise_filter, strides, padding, data_format,
                                dilations, None, warn=False)
    return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], "VALID",
                  data_format=data_format or "NHWC", name=name)


@export("nn.conv1d_transpose")
def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",
                     dilations=None, name=None):
    """The transpose of `conv1d` (its gradient with respect to its input).

    `filters` is ``(kw, out_channels, in_channels)``; `output_shape` has 3 values.

    >>> x = tf.constant(np.ones((1, 2, 1), np.float32))
    >>> tf.nn.conv1d_transpose(x, tf.constant(np.ones((3, 4, 1), np.float32)), [1, 4, 4], 2).shape
    TensorShape([1, 4, 4])
    """
    _check_choice("data_format", data_format, ("NWC", "NCW"))
    first = data_format == "NCW"
    axis = 2 if first else 1
    if isinstance(output_shape, Tensor):
        sizes = array_ops.concat([output_shape[:axis], [1], output_shape[axis:]], 0)
    else:
        sizes = list(output_shape)
        sizes = sizes[:axis] + [1] + sizes[axis:]
        if all(isinstance(v, (int, np.integer)) for v in sizes):
            sizes = as_tensor(sizes)  # (TF passes a tensor it makes: its errors end with a name)
    with context.op_scope(name or "conv1d_transpose") as scope:
        y = conv2d_backprop_input(sizes, array_ops.expand_dims(as_tensor(filters), 0),
                                  array_ops.expand_dims(as_tensor(input), axis),
                                  _lift(strides, first, "strides"),
                                  padding, data_format="NCHW" if first else "NHWC",
                                  dilations=_lift(dilations, first, "dilations") or (1, 1, 1, 1),
                                  name=scope or name)
        return array_ops.squeeze(y, [axis])


def _backprop_input_of(nd, input_sizes, filters, out_backprop, strides, padding, data_format,
                       dilations, name, paddings=_PADDINGS):
    """Runs the `nd`-D input gradient op: `input_sizes` as its attr when known before run
    time, else as its third input."""
    op = _BACKPROP_INPUT if nd == 2 else _BACKPROP_INPUT3D
    w, dy = matching(filters, out_backprop)
    formats = ("NHWC", "NCHW") if nd == 2 else ("NDHWC", "NCDHW")
    attrs = _conv_attrs(nd, strides, padding, data_format, dilations, formats, paddings)
    if isinstance(input_sizes, Tensor):
        array_ops.check_index_dtype(op.name, "Tshape", input_sizes)
    return _dispatch_sized(op, "input_sizes", input_sizes, (w, dy), attrs, name)


def _dispatch_sized(op, sizes_attr, sizes, inputs, attrs, name):
    """Runs gradient `op` on `inputs`: `sizes` (its result's shape) as its attr `sizes_attr`
    when known before run time, else as its last input."""
    at_run_time = array_ops.run_time_tensor(sizes)
    try:
        if at_run_time is None:
            return dispatch(op, inputs, {**attrs, sizes_attr: tuple(static_ints(sizes))},
                            name=name)
        return dispatch(op, (*inputs, at_run_time), attrs, name=name)
    except errors.OpError as e:
        raise errors.listed(e, sizes) from None  # (sizes as a list: TF's slow path)


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,
                          padding=None, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=(1, 1, 1, 1), name=None, filters=None):
    """The gradient of `conv2d` with respect to an input of shape `input_sizes` (4 values,
    or the 2 spatial ones; a tensor known only at run time is fine).

    >>> dy = tf.constant(np.ones((1, 2, 2, 1), np.float32))
    >>> conv2d_backprop_input([1, 3, 3, 1], tf.constant(np.ones((2, 2, 1, 1), np.float32)), dy,
    ...                       [1, 1, 1, 1], "VALID").shape
    TensorShape([1, 3, 3, 1])
    """
    return _backprop_input_of(2, input_sizes, filters if filter is None else filter,
                              out_backprop, strides, padding, data_format, dilations, name)


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1),
                           name=None):
    """The gradient of `conv2d` with respect to a filter of shape `filter_sizes`.

    >>> x = tf.constant(np.ones((1, 3, 3, 1), np.float32))
    >>> dy = tf.constant(np.ones((1, 2, 2, 1), np.float32))
    >>> conv2d_backprop_filter(x, [2, 2, 1, 1], dy, [1, 1, 1, 1], "VALID").shape
    TensorShape([2, 2, 1, 1])
    """
    x, dy = matching(input, out_backprop)
    attrs = _conv_attrs(2, strides, padding, data_format, dilations, ("NHWC", "NCHW"))
    attrs["filter_sizes"] = tuple(static_ints(filter_sizes))
    try:
        return dispatch(_BACKPROP_FILTER, (x, dy), attrs, name=name)
    except errors.OpError as e:
        raise errors.listed(e, filter_sizes) from None


@export("nn.conv2d_transpose")
def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",
                     dilations=None, name=None):
    """The transpose of `conv2d` (the gradient of `conv2d` with respect to its input).

    `filters` is ``(kh, kw, out_channels, in_channels)``; `output_shape` has 4 values
    or the 2 spatial ones.

    >>> x = tf.constant(np.ones((1, 2, 2, 1), np.float32))
    >>> tf.nn.conv2d_transpose(x, tf.constant(np.ones((3, 3, 1, 1), np.float32)), [1, 4, 4, 1],
    ...                        2).shape
    TensorShape([1, 4, 4, 1])
    """
    with context.op_scope(name or "conv2d_transpose") as scope:
        return conv2d_backprop_input(output_shape, filters, input, strides, padding,
                                     data_format=data_format, dilations=dilations,
                                     name=scope or name)


@export("nn.conv3d_transpose")
def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",
                     dilations=None, name=None):
    """The transpose of `conv3d` (the gradient of `conv3d` with respect to its input).

    `filters` is ``(kd, kh, kw, out_channels, in_channels)``; `output_shape` has 5 values.

    >>> x = tf.constant(np.ones((1, 2, 2, 2, 1), np.float32))
    >>> w = tf.constant(np.ones((3, 3, 3, 4, 1), np.float32))
    >>> tf.nn.conv3d_transpose(x, w, [1, 4, 4, 4, 4], 2).shape
    TensorShape([1, 4, 4, 4, 4])
    """
    with context.op_scope(name or "conv3d_transpose") as scope:
        return _backprop_input_of(3, output_shape, filters, input, strides, padding,
                                  data_format, dilations, scope or name, _PADDINGS[:2])


@export("nn.conv_transpose")
def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,
                   dilations=None, name=None):
    """`conv1d_transpose`, `conv2d_transpose` or `conv3d_transpose`, as `output_shape`
    has 3, 4 or 5 values.

    >>> tf.nn.conv_transpose(tf.ones([1, 2, 2, 1]), tf.ones([3, 3, 4, 1]), [1, 4, 4, 4],
    ...                      2).shape
    TensorShape([1, 4, 4, 4])
    """
    if isinstance(output_shape, Tensor):
        n = output_shape.shape[0] if output_shape.shape.rank == 1 else None
    else:
        n = len(output_shape)
    if n not in (3, 4, 5):
        raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: "
                         f"output_shape={output_shape} of length {n}.")
    transpose = {3: conv1d_transpose, 4: conv2d_transpose, 5: conv3d_transpose}[n]
    default = {3: "NWC", 4: "NHWC", 5: "NDHWC"}[n]
    return transpose(input, filters, output_shape, strides, padding,
                     data_format=data_format or default, dilations=dilations, name=name)


@export("nn.atrous_conv2d_transpose")
def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of `atrous_conv2d`: a stride-1 `conv2d_transpose` whose filter taps
    are `rate` apart (NHWC; `filters` is ``(kh, kw, out_channels, in_channels)``).

    >>> tf.nn.atrous_conv2d_transpose(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1, 1]),
    ...                               [1, 5, 5, 1], 2, "VALID").shape
    TensorShape([1, 5, 5, 1])
    """
    value, filters = as_tensor(value), as_tensor(filters)
    if value.shape.rank is not None and filters.shape.rank is not None and \
            not value.shape[3:4].is_compatible_with(filters.shape[3:4]):
        raise ValueError(
            f"`value` channel count must be compatible with `filters` input channel count. "
            f"Received: value.shape={value.shape} with channel count {value.shape[3]} and "
            f"filters.shape={filters.shape} with input channel count {filters.shape[3]}.")
    if isinstance(rate, (int, np.integer)) and rate < 1:
        raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: "
                         f"padding={padding}")
    return conv2d_backprop_input(output_shape, filters, value, [1, 1, 1, 1], padding,
                                 dilations=[1, rate, rate, 1], name=name)


@export("nn.with_space_to_batch")
def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002
                        spatial_dims=None, data_format=None):
    """``op(input, num_spatial_dims, padding)`` made to act as if dilated by
    `dilation_rate`: the spatial dims are cut into `dilation_rate` interleaved grids
    (`space_to_batch_nd`), `op` runs on them with "VALID" padding, and the results are
    woven back (`batch_to_space_nd`). "SAME" needs `filter_shape`, the op's window.

    >>> pool = lambda x, n, p: tf.nn.avg_pool2d(x, 2, 1, p)
    >>> tf.nn.with_space_to_batch(tf.ones([1, 5, 5, 1]), [2, 2], "VALID", pool).shape
    TensorShape([1, 3, 3, 1])
    """
    input = as_tensor(input)
    rate = np.asarray(get_static_value(as_tensor(dilation_rate)))
    if rate.ndim != 1:
        raise ValueError(f"`dilation_rate.shape.rank` must be 1. Received: "
                         f"dilation_rate={dilation_rate} of rank {rate.ndim}")
    if (rate < 1).any():
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rate}")
    explicit = isinstance(padding, (list, tuple))
    if not explicit and padding not in ("SAME", "VALID"):
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: "
                         f"padding={padding}")
    n = rate.size
    if (rate == 1).all():
        return op(input, n, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(f"`filter_shape` must be specified for `padding='SAME'`. "
                             f"Received: filter_shape={filter_shape} and padding={padding}")
        # (the window's spatial dims lead the filter's shape: a whole filter shape will do)
        window = np.asarray(get_static_value(as_tensor(filter_shape))).reshape(-1)[:n]
        extra = (window - 1) * rate
        base = np.stack([extra // 2, extra - extra // 2], 1)
    elif explicit:  # (the pairs of the spatial dims: the grids are padded as the input was)
        pairs = np.asarray(padding, np.int64).reshape(n + 2, 2)
        base = pairs[2:] if data_format is not None and data_format.startswith("NC") else \
            pairs[1:-1]
    else:
        base = np.zeros((n, 2), np.int64)
    if spatial_dims is None:
        first = 2 if data_format is not None and data_format.startswith("NC") else 1
        spatial_dims = range(first, first + n)
    spatial_dims = [int(d) for d in spatial_dims]
    # the dims from 1 to the last spatial one: blocks of 1 (no padding) between those given
    dims = range(1, spatial_dims[-1] + 1)
    block = [int(rate[spatial_dims.index(d)]) if d in spatial_dims else 1 for d in dims]
    base = [base[spatial_dims.index(d)] if d in spatial_dims else (0, 0) for d in dims]
    sizes = [array_ops.shape(input)[d] if input.shape[d] is None else input.shape[d]
             for d in dims]
    paddings, crops = array_ops.required_space_to_batch_paddings(sizes, block, base)
    converted = array_ops.space_to_batch_nd(input, block, paddings)
    return array_ops.batch_to_space_nd(op(converted, n, "VALID"), block, crops)


def _depthwise_backprop(op, sizes_attr, sizes, inputs, strides, padding, data_format,
                        dilations, name):
    """Runs depthwise gradient `op` on `inputs` (see `_dispatch_sized`)."""
    attrs = _conv_attrs(2, strides, padding, data_format, dilations, ("NHWC", "NCHW"))
    return _dispatch_sized(op, sizes_attr, sizes, inputs, attrs, name)


@export("nn.depthwise_conv2d_backprop_input")
def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,
                                    data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of `depthwise_conv2d` with respect to its input, of shape `input_sizes`.

    >>> tf.nn.depthwise_conv2d_backprop_input([1, 3, 3, 1], tf.ones([2, 2, 1, 1]),
    ...                                       tf.ones([1, 2, 2, 1]), [1, 1, 1, 1],
    ...                                       "VALID")[0, :, :, 0].numpy().tolist()
    [[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]]
    """
    return _depthwise_backprop(_DEPTHWISE_INPUT, "input_sizes", input_sizes,
                               matching(filter, out_backprop), strides, padding, data_format,
                               dilations, name)


@export("nn.depthwise_conv2d_backprop_filter")
def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,
                                     data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of `depthwise_conv2d` with respect to its filter, of shape
    `filter_sizes` (``(kh, kw, in_channels, multiplier)``).

    >>> tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 3, 3, 1]), [2, 2, 1, 1],
    ...                                        tf.ones([1, 2, 2, 1]), [1, 1, 1, 1],
    ...                                        "VALID")[:, :, 0, 0].numpy().tolist()
    [[4.0, 4.0], [4.0, 4.0]]
    """
    return _depthwise_backprop(_DEPTHWISE_FILTER, "filter_sizes", filter_sizes,
                               matching(input, out_backprop), strides, padding, data_format,
                               dilations, name)


def _pool(op, input, ksize, strides, padding, data_format, nd, formats, name):
    x = as_tensor(input)
    _check_choice("data_format", data_format, formats)
    first = _channels_first(data_format)
    padding, explicit = _padding(padding, nd + 2,
                                 _PADDINGS if op is _MAX_POOL else _PADDINGS[:2])
    attrs = {"ksize": _sequence(ksize, nd, first, "ksize"),
             "strides": _sequence(strides, nd, first, "strides"), "padding": padding,
             "data_format": data_format}
    if padding == "EXPLICIT":
        attrs["explicit_paddings"] = explicit
    return dispatch(op, (x,), attrs, name=name)


@export("nn.max_pool2d")
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """Max over each window of a 4-D `input`; SAME padding never wins a maximum.

    >>> x = tf.constant(np.arange(16.0, dtype=np.float32).reshape(1, 4, 4, 1))
    >>> tf.nn.max_pool2d(x, 2, 2, "VALID").numpy().ravel()
    array([ 5.,  7., 13., 15.], dtype=float32)
    """
    input = defaulted(input, _d.float32)  # noqa: A001 (NumPy arrays of any dtype: float32)
    with context.op_scope(name or "MaxPool2d") as scope:
        return _pool(_MAX_POOL, input, ksize, strides, padding, data_format, 2,
                     ("NHWC", "NCHW"), scope or name)


@export("nn.avg_pool2d")
def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """Mean over each window of a 4-D `input`; SAME windows average their real elements only.

    >>> x = tf.constant(np.arange(16.0, dtype=np.float32).reshape(1, 4, 4, 1))
    >>> tf.nn.avg_pool2d(x, 2, 2, "VALID").numpy().ravel()
    array([ 2.5,  4.5, 10.5, 12.5], dtype=float32)
    """
    with context.op_scope(name or "AvgPool2D") as scope:
        return _pool(_AVG_POOL, input, ksize, strides, padding, data_format, 2,
                     ("NHWC", "NCHW"), scope or name)


@export("nn.max_pool3d")
def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):
    """Max over each window of a 5-D `input`.

    >>> tf.nn.max_pool3d(tf.constant(np.ones((1, 4, 4, 4, 1), np.float32)), 2, 2, "SAME").shape
    TensorShape([1, 2, 2, 2, 1])
    """
    return _pool(_MAX_POOL3D, input, ksize, strides, padding, data_format, 3,
                 ("NDHWC", "NCDHW"), name)


@export("nn.avg_pool3d")
def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):
    """Mean over each window of a 5-D `input`.

    >>> tf.nn.avg_pool3d(tf.constant(np.ones((1, 4, 4, 4, 1), np.float32)), 2, 2, "SAME").shape
    TensorShape([1, 2, 2, 2, 1])
    """
    return _pool(_AVG_POOL3D, input, ksize, strides, padding, data_format, 3,
                 ("NDHWC", "NCDHW"), name)


def _pool1d(op, input, ksize, strides, padding, data_format, name):
    """A 1-D pooling run as a 2-D one over a height of one, as TensorFlow does (in a graph,
    the scope `name` holds the reshapes and names the pooling op)."""
    _check_choice("data_format", data_format, ("NWC", "NCW"))
    first = data_format == "NCW"
    axis = -2 if first else -3
    if not isinstance(padding, str):  # the unit height gets no padding
        padding = [*padding[:axis + 4], (0, 0), *padding[axis + 4:]]
    with context.op_scope(name) if name else contextlib.nullcontext() as scope:
        y = _pool(op, array_ops.expand_dims(as_tensor(input), axis),
                  _lift(ksize, first, "ksize"), _lift(strides, first, "strides"), padding,
                  "NCHW" if first else "NHWC", 2, ("NHWC", "NCHW"), scope)
        return array_ops.squeeze(y, [axis])


def layer_pool(average, input, ksize, strides, padding, data_format, rank):
    """Pooling of a `rank`-D `input` with TF's op names and no wrapper's scope (``MaxPool``;
    a 1-D one between an ExpandDims and a Squeeze), as Keras's pooling layers run it."""
    if rank == 3:
        return _pool1d(_AVG_POOL if average else _MAX_POOL, input, ksize, strides, padding,
                       data_format, None)
    if rank == 4:
        return _pool(_AVG_POOL if average else _MAX_POOL, input, ksize, strides, padding,
                     data_format, 2, ("NHWC", "NCHW"), None)
    return (avg_pool3d if average else max_pool3d)(input, ksize, strides, padding, data_format)


@export("nn.max_pool1d")
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """Max over each window of a 3-D `input` (N, W, C).

    >>> tf.nn.max_pool1d(tf.constant(np.ones((1, 5, 2), np.float32)), 2, 2, "SAME").shape
    TensorShape([1, 3, 2])
    """
    return _pool1d(_MAX_POOL, input, ksize, strides, padding, data_format, name or "MaxPool1d")


@export("nn.avg_pool1d")
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """Mean over each window of a 3-D `input` (N, W, C).

    >>> tf.nn.avg_pool1d(tf.constant(np.ones((1, 5, 2), np.float32)), 2, 2, "SAME").shape
    TensorShape([1, 3, 2])
    """
    return _pool1d(_AVG_POOL, input, ksize, strides, padding, data_format, name or "AvgPool1D")


_BY_RANK = BY_RANK = {3: (max_pool1d, avg_pool1d, "NWC"), 4: (max_pool2d, avg_pool2d, "NHWC"),
                      5: (max_pool3d, avg_pool3d, "NDHWC")}


def _pool_by_rank(average, input, ksize, strides, padding, data_format, name, rank=None):
    """Pooling of `input` by its rank (`rank` where it is unknown when traced)."""
    x = as_tensor(input)
    if x.shape.rank is None and rank is None:
        raise ValueError("Cannot take the length of shape with unknown rank.")
    rank = rank if x.shape.rank is None else x.shape.rank
    if rank not in _BY_RANK:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: input.shape={x.shape} "
                         f"of rank {rank}.")
    max_fn, avg_fn, default = _BY_RANK[rank]
    fn = avg_fn if average else max_fn
    if fn is max_pool2d:  # (it casts NumPy arrays, so it is given `input`)
        x = input
    if fn is avg_pool2d:  # (TF's runs its op directly: named AvgPool, not AvgPool2D)
        return _pool(_AVG_POOL, x, ksize, strides, padding, data_format or default, 2,
                     ("NHWC", "NCHW"), name)
    return fn(x, ksize, strides, padding, data_format or default, name)


@export("nn.max_pool")
def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """Max pooling of a 3-D, 4-D or 5-D `input` (1, 2 or 3 spatial dims, by rank).

    >>> tf.nn.max_pool(tf.constant(np.ones((1, 4, 4, 1), np.float32)), 2, 2, "VALID").shape
    TensorShape([1, 2, 2, 1])
    """
    return _pool_by_rank(False, input, ksize, strides, padding, data_format, name)


@export("nn.avg_pool")
def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """Average pooling of a 3-D, 4-D or 5-D `input` (1, 2 or 3 spatial dims, by rank).

    >>> tf.nn.avg_pool(tf.constant(np.ones((1, 4, 4, 1), np.float32)), 2, 2, "VALID").shape
    TensorShape([1, 2, 2, 1])
    """
    return _pool_by_rank(True, input, ksize, strides, padding, data_format, name)



def _spatial_ints(values, n, what):
    values = [1] * n if values is None else list(np.broadcast_to(np.asarray(values), (n,))) \
        if np.ndim(values) == 0 else list(values)
    if len(values) != n:
        raise ValueError(f"`len({what})` should be {n}. Received: {what}={values} of length "
                         f"{len(values)}")
    values = np.array(values, dtype=np.int32)
    if np.any(values < 1):
        raise ValueError(f"all values of `{what}` must be positive. Received: {what}={values}")
    return values


@export("nn.pool")
def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,
         dilations=None, name=None):
    """N-D (1 to 3) max or average pooling, with `dilations` (VALID padding, stride 1).

    >>> tf.nn.pool(tf.reshape(tf.range(5.0), [1, 5, 1]), [2], "MAX", dilations=[2])[0, :, 0]
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([2., 3., 4.], dtype=float32)>
    """
    x = as_tensor(input)
    n = len(window_shape)
    if n < 1 or n > 3:
        raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: "
                         f"window_shape={window_shape} of length {n}")
    if x.shape.rank is not None and x.shape.rank != n + 2:
        raise ValueError(f"Shape {x.shape} must have rank {n + 2}")
    dilations = _spatial_ints(dilations, n, "dilation_rate")
    strides = _spatial_ints(strides, n, "strides")
    if np.any(strides > 1) and np.any(dilations > 1):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > "
                         f"1`. Received: strides={strides} and dilation_rate={dilations}")
    if padding == "SAME" and np.any(dilations > 1):
        raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` "
                         f"> 1. Received: padding={padding} and dilation_rate={dilations}")
    if np.any(strides > np.asarray(window_shape)):
        raise ValueError(f"`strides` > `window_shape` not supported due to inconsistency "
                         f"between CPU and GPU implementations. Received: strides={strides} "
                         f"and window_shape={window_shape}")
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    if not np.any(dilations > 1):
        with context.op_scope(name or f"{pooling_type.lower()}_pool") as scope:
            return _pool_by_rank(pooling_type == "AVG", x, list(window_shape),
                                 [int(s) for s in strides], padding, data_format,
                                 scope or name, n + 2)
    # Dilated (VALID, stride 1): each output takes the inputs window_shape apart by the
    # dilations, read as shifted slices of the input, reduced together.
    first = 2 if data_format is not None and data_format.startswith("NC") else 1
    spans = [(w - 1) * d for w, d in zip(window_shape, dilations)]
    parts = []
    for offsets in itertools.product(*(range(w) for w in window_shape)):
        index = [slice(None)] * (n + 2)
        for axis, (k, d, span) in enumerate(zip(offsets, dilations, spans)):
            end = k * d - span
            index[first + axis] = slice(int(k * d), int(end) if end else None)
        parts.append(x[tuple(index)])
    stacked = array_ops.stack(parts)
    reduce = reduction_ops.reduce_mean if pooling_type == "AVG" else reduction_ops.reduce_max
    return _as_space_to_batch(reduce(stacked, axis=0, name=name), x, dilations, first == 2)


@export("nn.atrous_conv2d")
def atrous_conv2d(value, filters, rate, padding, name=None):
    """A 2-D convolution of NHWC `value` whose filter taps are `rate` apart (dilated).

    >>> tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 1]), tf.ones([2, 2, 1, 1]), 2, "VALID").shape
    TensorShape([1, 3, 3, 1])
    """
    rates = _spatial_ints(rate, 2, "dilation_rate")
    return convolution(value, filters, padding=padding, dilations=[int(r) for r in rates],
                       name=name)


# -- max pooling with the argmax ---------------------------------------------------------

def _max_pool_argmax(xp, x, ksize, strides, padding, Targmax=_d.int64,
                     include_batch_in_index=False):
    """TF's MaxPoolWithArgmax: each NHWC window's maximum and its flat index
    ``(y * width + x) * channels + c`` (plus ``b * height * width * channels`` with
    `include_batch_in_index`), the first in row-major order on a tie."""
    if x.ndim != 4:
        raise _invalid(f"tensor_in must be 4-dimensional ({x.ndim})")
    n, h, w, c = x.shape
    (oh, ow), pads = _window([h, w], ksize[1:3], strides[1:3], [1, 1], padding)
    (top, _), (left, _) = pads
    kh, kw = ksize[1:3]
    sh, sw = strides[1:3]
    best = np.full((n, oh, ow, c), -np.inf, np.float64)
    where = np.full((n, oh, ow, c), -1, np.int64)
    rows = np.arange(oh) * sh - top
    cols = np.arange(ow) * sw - left
    for dy in range(kh):  # window taps in row-major order: a later tie does not win
        ys = rows + dy
        ok_y = (ys >= 0) & (ys < h)
        for dx in range(kw):
            xs = cols + dx
            ok = ok_y[:, None] & ((xs >= 0) & (xs < w))[None, :]
            taps = x[:, np.clip(ys, 0, h - 1)][:, :, np.clip(xs, 0, w - 1)].astype(np.float64)
            index = ((np.clip(ys, 0, h - 1)[:, None] * w + np.clip(xs, 0, w - 1)[None, :])
                     [None, :, :, None] * c + np.arange(c))
            take = ok[None, :, :, None] & ((taps > best) | (where < 0))
            best = np.where(take, taps, best)
            where = np.where(take, index, where)
    if include_batch_in_index:
        where = where + (np.arange(n) * h * w * c)[:, None, None, None]
    return best.astype(x.dtype), where.astype(_d.as_dtype(Targmax).as_numpy_dtype)


def _max_pool_argmax_rule(x, ksize, strides, padding, Targmax=_d.int64,
                          include_batch_in_index=False):
    if x.shape.rank is None:
        return [(TensorShape(None), x.dtype), (TensorShape(None), _d.as_dtype(Targmax))]
    if x.shape.rank != 4:
        raise _invalid(f"Shape must be rank 4 but is rank {x.shape.rank}")
    dims = x.shape.as_list()
    (oh, ow), _ = _window(dims[1:3], ksize[1:3], strides[1:3], [1, 1], padding)
    shape = TensorShape([dims[0], oh, ow, dims[3]])
    return [(shape, x.dtype), (shape, _d.as_dtype(Targmax))]


_MAX_POOL_ARGMAX = register("MaxPoolWithArgmax", _max_pool_argmax, _max_pool_argmax_rule,
                            multi=True, dtypes=_MAX_POOL_TYPES, grad_takes_none=True)
tf_nodes[_MAX_POOL_ARGMAX] = NodeForm(types={"T": 0},  # (Targmax: the op's own attr)
                                      outputs=("output", "argmax"))
tf_args[_MAX_POOL_ARGMAX] = ("input",)
tf_defaults[_MAX_POOL_ARGMAX] = {"Targmax": _d.int64, "include_batch_in_index": False}
batching_rules[_MAX_POOL_ARGMAX] = PER_ELEMENT  # (flat indices count from each image)


def _max_pool_grad_argmax(xp, x, grad, argmax, ksize, strides, padding,
                          include_batch_in_index=False):
    """TF's MaxPoolGradWithArgmax: each of `grad` added at its window's flat argmax."""
    if x.ndim != 4:
        raise _invalid(f"tensor_in must be 4-dimensional ({x.ndim})")
    n, h, w, c = x.shape
    (oh, ow), _ = _window([h, w], ksize[1:3], strides[1:3], [1, 1], padding)
    pooled = (n, oh, ow, c)
    _expect_shapes(("grad", grad, pooled), ("argmax", argmax, pooled))
    flat = argmax.astype(np.int64)
    if not include_batch_in_index:  # each image's indices count from its start
        flat = flat + (np.arange(n) * h * w * c)[:, None, None, None]
    if flat.size and (flat.min() < 0 or flat.max() >= x.size):
        raise _invalid(f"Invalid output gradient index: {flat.max()}, 0, {x.size}")
    dx = np.zeros(x.size, grad.dtype)
    np.add.at(dx, flat.reshape(-1), grad.reshape(-1))
    return dx.reshape(x.shape)


_MAX_POOL_GRAD_ARGMAX = register(
    "MaxPoolGradWithArgmax", _max_pool_grad_argmax,
    lambda x, grad, argmax, **_: (x.shape if x.shape.rank is not None
                                  else TensorShape([None] * 4), x.dtype),
    tied=(0, 1), dtypes=FLOAT, input_names=("input", "grad"))
tf_nodes[_MAX_POOL_GRAD_ARGMAX] = NodeForm(types={"T": 0, "Targmax": 2}, outputs=("output",))
tf_args[_MAX_POOL_GRAD_ARGMAX] = ("input", "grad", "argmax")
tf_defaults[_MAX_POOL_GRAD_ARGMAX] = {"include_batch_in_index": False}
batching_rules[_MAX_POOL_GRAD_ARGMAX] = PER_ELEMENT


def _argmax_attrs(op):
    return {k: op.attrs[k] for k in ("ksize", "strides", "padding", "include_batch_in_index")}


@register_gradient("MaxPoolWithArgmax")
def _max_pool_argmax_grad(op, dy, _):
    """TF's MaxPoolGradWithArgmax: each output's gradient added at its argmax."""
    if dy is None:
        return None
    return dispatch(_MAX_POOL_GRAD_ARGMAX, (op.inputs[0], dy, op.outputs[1]), _argmax_attrs(op))


@register_gradient("MaxPoolGradWithArgmax")
def _max_pool_grad_argmax_grad(op, g):
    """(TF has none.) The routed gradient's: `g` read at each argmax; the argmax indices
    are piecewise constant in the input (a zero gradient)."""
    x, _, argmax = op.inputs
    dims = array_ops.shape(x, out_type=_d.int64)
    flat = cast_ops.cast(argmax, _d.int64)
    if not op.attrs["include_batch_in_index"]:
        per_image = reduction_ops.reduce_prod(dims) // dims[0]
        batch = array_ops.reshape(array_ops.range(dims[0], dtype=_d.int64), [-1, 1, 1, 1])
        flat = flat + batch * per_image
    return (array_ops.zeros_like(x), array_ops.gather(array_ops.reshape(g, [-1]), flat), None)


_MaxPoolArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


@export("nn.max_pool_with_argmax")
def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",
                         output_dtype=_d.int64, include_batch_in_index=False, name=None):
    """Max pooling of a 4-D NHWC `input` that also gives each maximum's flat index.

    >>> x = tf.reshape(tf.range(8.0), [1, 2, 4, 1])
    >>> tf.nn.max_pool_with_argmax(x, 2, 2, "VALID").argmax.numpy().ravel()
    array([5, 7])
    """
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    attrs = {"ksize": _sequence(ksize, 2, False, "ksize"),
             "strides": _sequence(strides, 2, False, "strides"), "padding": padding,
             "Targmax": _d.as_dtype(output_dtype),
             "include_batch_in_index": bool(include_batch_in_index)}
    output, argmax = dispatch(_MAX_POOL_ARGMAX, (as_tensor(input),), attrs, name=name)
    return _MaxPoolArgmax(output, argmax)

# -- gradients ---------------------------------------------------------------------------
# Written with ops so outer tapes record them. A convolution's input and filter gradients
# are its backprop ops (one GEMM each), and each of those is differentiated by the other two.

_WINDOW_ATTRS = ("strides", "padding", "explicit_paddings", "data_format", "dilations")
# (convolution, input gradient, filter gradient), and each op's family by its name
_FAMILIES = ((_CONV2D, _BACKPROP_INPUT, _BACKPROP_FILTER),
             (_CONV3D, _BACKPROP_INPUT3D, _BACKPROP_FILTER3D),
             (_DEPTHWISE, _DEPTHWISE_INPUT, _DEPTHWISE_FILTER))
_CONV_FAMILIES = {op.name: family for family in _FAMILIES for op in family}


def _family(op):
    return _CONV_FAMILIES[op.name]


def _window_of(op, **extra):
    return {**{k: op.attrs[k] for k in _WINDOW_ATTRS}, **extra}


def _conv_of(op, x, w):
    return dispatch(_family(op)[0], (x, w), _window_of(op))


def _input_grad_of(op, w, dy, input_sizes):
    attrs = _window_of(op)
    if isinstance(input_sizes, list):
        return dispatch(_family(op)[1], (w, dy), {**attrs, "input_sizes": tuple(input_sizes)})
    return dispatch(_family(op)[1], (w, dy, input_sizes), attrs)


def _filter_grad_of(op, x, dy, filter_sizes):
    attrs = _window_of(op)
    if isinstance(filter_sizes, list):
        return dispatch(_family(op)[2], (x, dy), {**attrs, "filter_sizes": tuple(filter_sizes)})
    return dispatch(_family(op)[2], (x, dy, filter_sizes), attrs)


def _sizes_of(x, batch=True):
    """The shape of `x` as a gradient's `input_sizes` (or `filter_sizes`): a list when
    known before run time, else the tensor ``shape(x)``. `batch`: an input gradient also
    takes a list whose batch alone is unknown (the batch of its out_backprop)."""
    dims = _dims(x.shape)
    return (dims if dims is not None and None not in dims[1 if batch else 0:]
            else array_ops.shape(x))


def _conv_grad(op, dy):
    x, w = op.inputs
    return (_input_grad_of(op, w, dy, _sizes_of(x)),
            _filter_grad_of(op, x, dy, _sizes_of(w, batch=False)))


def _backprop_input_grad(op, ddx):
    w, dy = op.inputs[:2]
    grads = _filter_grad_of(op, ddx, dy, _sizes_of(w, batch=False)), _conv_of(op, ddx, w)
    return grads + (None,) * (len(op.inputs) - 2)  # sizes given as an input: integers


def _backprop_filter_grad(op, ddw):
    x, dy = op.inputs[:2]
    grads = _input_grad_of(op, ddw, dy, _sizes_of(x)), _conv_of(op, x, ddw)
    return grads + (None,) * (len(op.inputs) - 2)  # sizes given as an input: integers


for _family_ops in _FAMILIES:
    for _op, _grad in zip(_family_ops, (_conv_grad, _backprop_input_grad, _backprop_filter_grad)):
        register_gradient(_op.name)(_grad)


_POOL_ATTRS = ("ksize", "strides", "padding", "data_format", "explicit_paddings")
_POOL_GRADS = {"MaxPool": _MAX_POOL_GRAD, "MaxPool3D": _MAX_POOL3D_GRAD,
               "MaxPoolV2": _MAX_POOL_GRAD_V2,
               "AvgPool": _AVG_POOL_GRAD, "AvgPool3D": _AVG_POOL3D_GRAD}


def _pooling(op):
    return {k: op.attrs[k] for k in _POOL_ATTRS if k in op.attrs}


def _max_pool_grad(op, dy):
    return dispatch(_POOL_GRADS[op.name], (op.inputs[0], op.outputs, dy), _pooling(op))


def _avg_pool_grad(op, dy):
    dims = _dims(op.inputs[0].shape)
    if dims is None or None in dims[1:]:  # the input's shape is known at run time only
        return dispatch(_POOL_GRADS[op.name], (dy, array_ops.shape(op.inputs[0])), _pooling(op))
    return dispatch(_POOL_GRADS[op.name], (dy,), {**_pooling(op), "orig_input_shape": tuple(dims)})


def _routing_grad(other):
    """The gradient of MaxPool*Grad or MaxPool*GradGrad: which element is each window's
    maximum is piecewise constant in the pooled input and output (zero gradients); the
    routed tensor's gradient is the `other` routing op, its adjoint."""
    def grad(op, g):
        x, y, _ = op.inputs
        return (array_ops.zeros_like(x), array_ops.zeros_like(y),
                dispatch(other, (x, y, g), _pooling(op)))
    return grad


def _linear_grad(pool_op):
    """The gradient of AvgPool*Grad: average pooling is linear, its adjoint's adjoint."""
    return lambda op, g: (dispatch(pool_op, (g,), _pooling(op)),) + (None,) * (len(op.inputs) - 1)


register_gradient("MaxPool")(_max_pool_grad)
register_gradient("MaxPool3D")(_max_pool_grad)
register_gradient("MaxPoolV2")(_max_pool_grad)
register_gradient("MaxPoolGradV2")(_routing_grad(_MAX_POOL_GRAD_GRAD_V2))
register_gradient("MaxPoolGradGradV2")(_routing_grad(_MAX_POOL_GRAD_V2))
register_gradient("MaxPoolGrad")(_routing_grad(_MAX_POOL_GRAD_GRAD))
register_gradient("MaxPoolGradGrad")(_routing_grad(_MAX_POOL_GRAD))
register_gradient("MaxPool3DGrad")(_routing_grad(_MAX_POOL3D_GRAD_GRAD))
register_gradient("MaxPool3DGradGrad")(_routing_grad(_MAX_POOL3D_GRAD))
register_gradient("AvgPool")(_avg_pool_grad)
register_gradient("AvgPool3D")(_avg_pool_grad)
register_gradient("AvgPoolGrad")(_linear_grad(_AVG_POOL))
register_gradient("AvgPool3DGrad")(_linear_grad(_AVG_POOL3D))


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _AVG_POOL, _AVG_POOL3D, _CONV2D, _BACKPROP_FILTER,
                      _BACKPROP_INPUT, _CONV3D, _BACKPROP_FILTER3D, _BACKPROP_INPUT3D, _DEPTHWISE,
                      _DEPTHWISE_INPUT, _DEPTHWISE_FILTER,
                      _MAX_POOL, _MAX_POOL3D, _MAX_POOL_GRAD, _MAX_POOL_GRAD_GRAD, _AVG_POOL_GRAD,
                      _MAX_POOL3D_GRAD, _MAX_POOL3D_GRAD_GRAD, _AVG_POOL3D_GRAD, _MAX_POOL_V2,
                      _MAX_POOL_GRAD_V2, _MAX_POOL_GRAD_GRAD_V2)
