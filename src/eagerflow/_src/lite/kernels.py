"""Kernels of TFLite's builtin operators, on NumPy arrays (convolutions and pooling through
eagerflow's own ops).

``KERNELS[name](inputs, options, out_types)`` returns the operator's output arrays;
`inputs` holds None for an omitted optional input (index -1), `options` the
operator's option table as a dict (empty when it has none) and `out_types` the
NumPy dtypes of its outputs.

>>> KERNELS["ADD"]([np.float32([1, -2]), np.float32([3, 1])], {"fused_activation_function": 1},
...                [np.dtype(np.float32)])
[array([4., 0.], dtype=float32)]
"""
import numpy as np

from eagerflow._src.ops import conv_ops

KERNELS = {}
_PADDING = {0: "SAME", 1: "VALID"}


def registrar(table):
    """A decorator factory: ``@registrar(table)(*names)`` enters a function in `table`
    under each name."""
    def named(*names):
        def register(fn):
            for name in names:
                table[name] = fn
            return fn
        return register
    return named


_kernel = registrar(KERNELS)


def activate(x, code):
    """`x` through a fused activation (the schema's ``ActivationFunctionType``)."""
    if code == 1:
        return np.maximum(x, 0).astype(x.dtype, copy=False)
    if code == 2:
        return np.clip(x, -1, 1).astype(x.dtype, copy=False)
    if code == 3:
        return np.clip(x, 0, 6).astype(x.dtype, copy=False)
    if code == 4:
        return np.tanh(x)
    if code:
        raise RuntimeError(f"Fused activation {code} is not supported.")
    return x


def _act(options):
    return options.get("fused_activation_function", 0) if options else 0


def _elementwise(name, fn):
    def kernel(inputs, options, out_types):
        with np.errstate(all="ignore"):
            out = fn(*inputs)
        return [activate(np.asarray(out, out_types[0]), _act(options))]
    KERNELS[name] = kernel


def _wide(fn):
    """`fn` computed in float64 for float32 inputs, then rounded once (as close to the
    correctly rounded result as TFLite's libm kernels)."""
    def wide(x):
        return fn(x.astype(np.float64)).astype(x.dtype) if x.dtype == np.float32 else fn(x)
    return wide


def _floor_div(a, b):
    # (floats: the quotient's floor in double, as TFLite's kernel takes it)
    return np.floor_divide(a, b) if a.dtype.kind in "iu" else \
        np.floor(a.astype(np.float64) / b).astype(a.dtype)


def _div(a, b):
    return np.floor_divide(a, b) if np.issubdtype(a.dtype, np.integer) else a / b


for _name, _fn in [("ADD", np.add), ("SUB", np.subtract), ("MUL", np.multiply),
                   ("DIV", _div), ("MAXIMUM", np.maximum), ("MINIMUM", np.minimum),
                   ("POW", np.power), ("SQUARED_DIFFERENCE", lambda a, b: np.square(a - b)),
                   ("EXP", _wide(np.exp)), ("LOG", _wide(np.log)), ("SQRT", np.sqrt),
                   ("RSQRT", _wide(lambda x: 1 / np.sqrt(x))), ("NEG", np.negative),
                   ("ABS", np.abs), ("SQUARE", np.square), ("FLOOR", np.floor),
                   ("LOGISTIC", _wide(lambda x: 1 / (1 + np.exp(-x)))),
                   ("TANH", _wide(np.tanh)),
                   ("RELU", lambda x: np.maximum(x, 0)), ("RELU6", lambda x: np.clip(x, 0, 6)),
                   ("RELU_N1_TO_1", lambda x: np.clip(x, -1, 1)),
                   ("HARD_SWISH", lambda x: x * np.clip(x + 3, 0, 6) / 6),
                   ("ELU", lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0)))),
                   ("LESS", np.less), ("GREATER", np.greater),
                   ("GREATER_EQUAL", np.greater_equal), ("LESS_EQUAL", np.less_equal),
                   ("EQUAL", np.equal), ("NOT_EQUAL", np.not_equal),
                   ("LOGICAL_OR", np.logical_or), ("LOGICAL_AND", np.logical_and),
                   ("LOGICAL_NOT", np.logical_not), ("SELECT", np.where),
                   ("SELECT_V2", np.where), ("SIN", _wide(np.sin)), ("COS", _wide(np.cos)),
                   ("FLOOR_DIV", _floor_div), ("FLOOR_MOD", np.mod), ("CEIL", np.ceil),
                   ("ROUND", np.round), ("SIGN", np.sign), ("ZEROS_LIKE", np.zeros_like),
                   ("ATAN2", np.arctan2)]:
    _elementwise(_name, _fn)


@_kernel("LEAKY_RELU")
def _leaky_relu(inputs, options, out_types):
    x = inputs[0]
    return [np.where(x >= 0, x, x * np.float32(options["alpha"])).astype(out_types[0])]


@_kernel("PRELU")
def _prelu(inputs, options, out_types):
    x, alpha = inputs[:2]
    return [np.where(x >= 0, x, x * alpha).astype(out_types[0])]


@_kernel("SPACE_TO_BATCH_ND")
def _space_to_batch_nd(inputs, options, out_types):
    """Blocks of the spatial dimensions (after padding) moved into the batch."""
    x, block, pads = inputs[0], [int(b) for b in np.ravel(inputs[1])], np.asarray(inputs[2])
    m = len(block)
    x = np.pad(x, [(0, 0)] + [tuple(int(p) for p in row) for row in pads.reshape(m, 2)] +
               [(0, 0)] * (x.ndim - m - 1))
    batch, rest = x.shape[0], x.shape[m + 1:]
    split = [batch] + [d for n, b in zip(x.shape[1:m + 1], block) for d in (n // b, b)]
    y = x.reshape(split + list(rest))
    order = [2 + 2 * k for k in range(m)] + [0] + [1 + 2 * k for k in range(m)] + \
        list(range(2 * m + 1, y.ndim))
    y = np.transpose(y, order)
    return [np.ascontiguousarray(y.reshape([batch * int(np.prod(block))] +
                                           [n // b for n, b in zip(x.shape[1:m + 1], block)] +
                                           list(rest)))]


@_kernel("BATCH_TO_SPACE_ND")
def _batch_to_space_nd(inputs, options, out_types):
    """The inverse of SPACE_TO_BATCH_ND: batch blocks back into the spatial dimensions,
    then cropped."""
    x, block, crops = inputs[0], [int(b) for b in np.ravel(inputs[1])], np.asarray(inputs[2])
    m = len(block)
    batch = x.shape[0] // int(np.prod(block))
    spatial, rest = list(x.shape[1:m + 1]), list(x.shape[m + 1:])
    y = x.reshape(block + [batch] + spatial + rest)
    order = [m] + [d for k in range(m) for d in (m + 1 + k, k)] + \
        list(range(2 * m + 1, y.ndim))
    y = np.transpose(y, order).reshape([batch] + [n * b for n, b in zip(spatial, block)] +
                                       rest)
    crops = crops.reshape(m, 2).astype(int)
    index = (slice(None),) + tuple(slice(int(lo), y.shape[1 + k] - int(hi))
                                   for k, (lo, hi) in enumerate(crops))
    return [np.ascontiguousarray(y[index])]


@_kernel("GELU")
def _gelu(inputs, options, out_types):
    x = inputs[0].astype(np.float64)
    if options.get("approximate"):
        y = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    else:
        from math import erf  # noqa: PLC0415 (the standard library's, per element)
        y = 0.5 * x * (1 + np.vectorize(erf)(x / np.sqrt(2)))
    return [y.astype(out_types[0])]


@_kernel("SOFTMAX")
def _softmax(inputs, options, out_types):
    x = inputs[0] * np.float32(options.get("beta", 1.0) if options else 1.0)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return [(e / e.sum(axis=-1, keepdims=True)).astype(out_types[0])]


@_kernel("LOG_SOFTMAX")
def _log_softmax(inputs, options, out_types):
    x = inputs[0] - inputs[0].max(axis=-1, keepdims=True)
    return [(x - np.log(np.exp(x).sum(axis=-1, keepdims=True))).astype(out_types[0])]


@_kernel("FULLY_CONNECTED")
def _fully_connected(inputs, options, out_types):
    x, w, b = (inputs + [None])[:3]
    units, depth = w.shape
    y = x.reshape(-1, depth) @ w.T.astype(x.dtype, copy=False)
    if b is not None:
        y = y + b
    if options and options.get("keep_num_dims"):
        y = y.reshape(x.shape[:-1] + (units,))
    return [activate(y.astype(out_types[0], copy=False), _act(options))]


def _strides(options):
    return [1, options["stride_h"], options["stride_w"], 1]


def _dilations(options):
    return [1, options.get("dilation_h_factor", 1), options.get("dilation_w_factor", 1), 1]


@_kernel("CONV_2D")
def _conv_2d(inputs, options, out_types):
    x, w, b = (inputs + [None])[:3]
    filters = np.ascontiguousarray(np.transpose(w, (1, 2, 3, 0)))  # OHWI -> HWIO
    if filters.shape[2] != x.shape[3]:  # grouped: split channels
        groups = x.shape[3] // filters.shape[2]
        per = filters.shape[3] // groups
        y = np.concatenate([_conv(x[..., g * filters.shape[2]:(g + 1) * filters.shape[2]],
                                  filters[..., g * per:(g + 1) * per], options)
                            for g in range(groups)], axis=-1)
    else:
        y = _conv(x, filters, options)
    return [_biased(y, b, options, out_types)]


def _conv(x, filters, options):
    return conv_ops.conv2d(x, filters, _strides(options), _PADDING[options["padding"]],
                           dilations=_dilations(options)).numpy()


def _biased(y, b, options, out_types):
    if b is not None:
        y = y + b
    return activate(y.astype(out_types[0], copy=False), _act(options))


@_kernel("CONV_3D")
def _conv_3d(inputs, options, out_types):
    x, w, b = (inputs + [None])[:3]   # (filters DHWIO, as TF's)
    strides = [1, options["stride_d"], options["stride_h"], options["stride_w"], 1]
    dilations = [1, options.get("dilation_d_factor", 1), options.get("dilation_h_factor", 1),
                 options.get("dilation_w_factor", 1), 1]
    y = conv_ops.conv3d(x, w, strides, _PADDING[options["padding"]],
                        dilations=dilations).numpy()
    return [_biased(y, b, options, out_types)]


@_kernel("TRANSPOSE_CONV")
def _transpose_conv(inputs, options, out_types):
    shape, w, x, b = (inputs + [None])[:4]
    filters = np.ascontiguousarray(np.transpose(w, (1, 2, 0, 3)))  # OHWI -> HWOI
    y = conv_ops.conv2d_transpose(x, filters, [int(d) for d in shape], _strides(options),
                                  _PADDING[options["padding"]]).numpy()
    return [_biased(y, b, options, out_types)]


@_kernel("DEPTHWISE_CONV_2D")
def _depthwise_conv_2d(inputs, options, out_types):
    x, w, b = (inputs + [None])[:3]
    channels = x.shape[3]
    filters = np.ascontiguousarray(w.reshape(w.shape[1], w.shape[2], channels, -1))
    y = conv_ops.depthwise_conv2d(x, filters, _strides(options), _PADDING[options["padding"]],
                                  dilations=_dilations(options)[1:3]).numpy()
    return [_biased(y, b, options, out_types)]


def _pool(op):
    def kernel(inputs, options, out_types):
        ksize = [1, options["filter_height"], options["filter_width"], 1]
        y = op(inputs[0], ksize, _strides(options), _PADDING[options["padding"]]).numpy()
        return [activate(y, _act(options))]
    return kernel


KERNELS["MAX_POOL_2D"] = _pool(conv_ops.max_pool2d)
KERNELS["AVERAGE_POOL_2D"] = _pool(conv_ops.avg_pool2d)


@_kernel("RESHAPE")
def _reshape(inputs, options, out_types):
    shape = inputs[1] if len(inputs) > 1 and inputs[1] is not None else \
        (options or {}).get("new_shape")
    shape = [int(d) for d in np.ravel(shape)] if shape is not None else []
    return [inputs[0].reshape(shape)]


def _reducer(fn):
    def kernel(inputs, options, out_types):
        axis = tuple(int(a) for a in np.ravel(inputs[1]))
        keep = bool(options and options.get("keep_dims"))
        return [np.asarray(fn(inputs[0], axis=axis, keepdims=keep)).astype(out_types[0])]
    return kernel


KERNELS["MEAN"] = _reducer(np.mean)
KERNELS["SUM"] = _reducer(np.sum)
KERNELS["REDUCE_MAX"] = _reducer(np.max)
KERNELS["REDUCE_PROD"] = _reducer(np.prod)
KERNELS["REDUCE_MIN"] = _reducer(np.min)
KERNELS["REDUCE_ANY"] = _reducer(np.any)


@_kernel("ADD_N")
def _add_n(inputs, options, out_types):
    total = inputs[0]
    for x in inputs[1:]:
        total = total + x
    return [np.asarray(total, out_types[0])]


@_kernel("CUMSUM")
def _cumsum(inputs, options, out_types):
    x, axis = inputs[0], int(np.ravel(inputs[1])[0])
    if options.get("reverse"):
        x = np.flip(x, axis)
    out = np.cumsum(x, axis=axis, dtype=x.dtype)
    if options.get("exclusive"):   # (each sum without its own element)
        out = out - x
    if options.get("reverse"):
        out = np.flip(out, axis)
    return [np.ascontiguousarray(out, out_types[0])]


@_kernel("DEPTH_TO_SPACE")
def _depth_to_space(inputs, options, out_types):
    x, b = inputs[0], int(options["block_size"])
    n, h, w, c = x.shape
    out = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return [out.reshape(n, h * b, w * b, c // (b * b))]


@_kernel("SPACE_TO_DEPTH")
def _space_to_depth(inputs, options, out_types):
    x, b = inputs[0], int(options["block_size"])
    n, h, w, c = x.shape
    out = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return [out.reshape(n, h // b, w // b, b * b * c)]


@_kernel("L2_NORMALIZATION")
def _l2_normalization(inputs, options, out_types):
    # (over the last axis, the norm at least 1e-6, as TFLite's kernel divides)
    x = inputs[0]
    norm = np.sqrt(np.sum(np.square(x), axis=-1, keepdims=True, dtype=np.float32))
    return [activate((x / np.maximum(norm, np.float32(1e-6))).astype(out_types[0]),
                     _act(options))]


@_kernel("TOPK_V2")
def _top_k(inputs, options, out_types):
    x, k = inputs[0], int(np.ravel(inputs[1])[0])
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]   # (ties: the first first)
    return [np.take_along_axis(x, order, -1), order.astype(out_types[1])]


@_kernel("ONE_HOT")
def _one_hot(inputs, options, out_types):
    indices, depth, on, off = inputs[0], int(np.ravel(inputs[1])[0]), inputs[2], inputs[3]
    axis = options.get("axis", -1)
    hot = np.expand_dims(indices, -1) == np.arange(depth)
    out = np.where(hot, on, off).astype(out_types[0])
    return [np.moveaxis(out, -1, axis) if axis != -1 else out]


@_kernel("RANGE")
def _range(inputs, options, out_types):
    start, limit, delta = (np.ravel(v)[0] for v in inputs[:3])
    return [np.arange(start, limit, delta).astype(out_types[0])]


@_kernel("MIRROR_PAD")
def _mirror_pad(inputs, options, out_types):
    mode = "reflect" if options.get("mode", 0) == 0 else "symmetric"
    return [np.pad(inputs[0], [[int(a), int(b)] for a, b in inputs[1]], mode=mode)]


@_kernel("GATHER_ND")
def _gather_nd(inputs, options, out_types):
    params, indices = inputs[:2]
    return [np.array(params[tuple(np.moveaxis(indices, -1, 0))])]


@_kernel("MATRIX_DIAG")
def _matrix_diag(inputs, options, out_types):
    x = inputs[0]
    return [x[..., np.newaxis] * np.eye(x.shape[-1], dtype=x.dtype)]


@_kernel("SEGMENT_SUM")
def _segment_sum(inputs, options, out_types):
    data, ids = inputs[0], np.ravel(inputs[1]).astype(np.int64)
    out = np.zeros((int(ids.max()) + 1 if ids.size else 0,) + data.shape[1:], data.dtype)
    np.add.at(out, ids, data)
    return [out]


@_kernel("SLICE")
def _slice(inputs, options, out_types):
    x, begin, size = inputs[0], [int(b) for b in inputs[1]], [int(n) for n in inputs[2]]
    return [np.array(x[tuple(slice(b, None if n == -1 else b + n)
                              for b, n in zip(begin, size))])]


@_kernel("SPLIT")
def _split(inputs, options, out_types):
    axis, x = int(np.ravel(inputs[0])[0]), inputs[1]
    return [np.array(p) for p in np.split(x, options["num_splits"], axis=axis)]


@_kernel("SPLIT_V")
def _split_v(inputs, options, out_types):
    x, sizes, axis = inputs[0], [int(n) for n in inputs[1]], int(np.ravel(inputs[2])[0])
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] - (sum(sizes) + 1)
    return [np.array(p) for p in np.split(x, np.cumsum(sizes)[:-1], axis=axis)]


@_kernel("CONCATENATION")
def _concatenation(inputs, options, out_types):
    return [activate(np.concatenate(inputs, axis=options["axis"]), _act(options))]


@_kernel("PAD")
def _pad(inputs, options, out_types):
    return [np.pad(inputs[0], np.asarray(inputs[1]).astype(np.int64))]


@_kernel("TRANSPOSE")
def _transpose(inputs, options, out_types):
    return [np.ascontiguousarray(np.transpose(inputs[0], [int(p) for p in inputs[1]]))]


@_kernel("SQUEEZE")
def _squeeze(inputs, options, out_types):
    dims = (options or {}).get("squeeze_dims")
    dims = tuple(int(d) for d in dims) if dims is not None and len(dims) else None
    return [np.squeeze(inputs[0], axis=dims)]


@_kernel("EXPAND_DIMS")
def _expand_dims(inputs, options, out_types):
    return [np.expand_dims(inputs[0], int(np.ravel(inputs[1])[0]))]


@_kernel("GATHER")
def _gather(inputs, options, out_types):
    return [np.take(inputs[0], inputs[1], axis=options.get("axis", 0))]


@_kernel("RESIZE_NEAREST_NEIGHBOR")
def _resize_nearest(inputs, options, out_types):
    x, size = inputs[0], [int(d) for d in inputs[1]]
    index = [_nearest(x.shape[axis], n, options) for axis, n in ((1, size[0]), (2, size[1]))]
    return [np.ascontiguousarray(x[:, index[0]][:, :, index[1]])]


def _nearest(before, after, options):
    """The source index of each of `after` positions resized from `before` (TF's rule)."""
    align = options.get("align_corners") and after > 1
    scale = (before - 1) / (after - 1) if align else before / after
    at = np.arange(after, dtype=np.float64)
    if options.get("half_pixel_centers"):
        at = at + 0.5
    source = _round(at * scale) if align else np.floor(at * scale)
    return np.minimum(source.astype(np.int64), before - 1)


@_kernel("RESIZE_BILINEAR")
def _resize_bilinear(inputs, options, out_types):
    x, size = inputs[0], [int(d) for d in inputs[1]]
    (y0, y1, dy), (x0, x1, dx) = [_bilinear(x.shape[axis], n, options)
                                  for axis, n in ((1, size[0]), (2, size[1]))]
    dy, dx = dy[None, :, None, None], dx[None, None, :, None]
    top = x[:, y0][:, :, x0] * (1 - dx) + x[:, y0][:, :, x1] * dx
    bottom = x[:, y1][:, :, x0] * (1 - dx) + x[:, y1][:, :, x1] * dx
    return [(top * (1 - dy) + bottom * dy).astype(out_types[0])]


def _bilinear(before, after, options):
    """(lower source index, upper source index, weight of the upper) of each position, as
    TFLite's reference kernel computes them (in float32)."""
    align = options.get("align_corners") and after > 1
    scale = np.float32((before - 1) / (after - 1) if align else before / after)
    at = np.arange(after, dtype=np.float32)
    source = (at + np.float32(0.5)) * scale - np.float32(0.5) \
        if options.get("half_pixel_centers") else at * scale
    lower = np.maximum(np.floor(source), 0).astype(np.int64)
    upper = np.minimum(np.ceil(source), before - 1).astype(np.int64)
    return lower, upper, (source - lower).astype(np.float32)


@_kernel("TILE")
def _tile(inputs, options, out_types):
    return [np.tile(inputs[0], [int(m) for m in inputs[1]])]


@_kernel("FILL")
def _fill(inputs, options, out_types):
    return [np.full([int(d) for d in inputs[0]], inputs[1], out_types[0])]


@_kernel("CAST")
def _cast(inputs, options, out_types):
    return [inputs[0].astype(out_types[0])]


@_kernel("SHAPE")
def _shape(inputs, options, out_types):
    return [np.asarray(inputs[0].shape, out_types[0])]


@_kernel("PACK")
def _pack(inputs, options, out_types):
    return [np.stack(inputs, axis=options["axis"])]


@_kernel("UNPACK")
def _unpack(inputs, options, out_types):
    x = np.moveaxis(inputs[0], options.get("axis", 0), 0)
    return [np.array(part) for part in x]


@_kernel("REVERSE_V2")
def _reverse(inputs, options, out_types):
    return [np.flip(inputs[0], tuple(int(a) for a in np.ravel(inputs[1])))]


def _arg(pick, worst):
    def kernel(inputs, options, out_types):
        # (TFLite keeps the first of the greatest (least) by ``>`` (``<``): a NaN never
        # wins, unless it leads)
        x, axis = inputs[0], int(np.ravel(inputs[1])[0])
        if x.dtype.kind == "f":
            lead = np.isnan(np.take(x, [0], axis=axis))
            x = np.where(np.isnan(x), worst, x)
            found = np.where(np.squeeze(lead, axis), 0, pick(x, axis=axis))
        else:
            found = pick(x, axis=axis)
        return [np.asarray(found, out_types[0])]
    return kernel


KERNELS["ARG_MAX"] = _arg(np.argmax, -np.inf)
KERNELS["ARG_MIN"] = _arg(np.argmin, np.inf)


@_kernel("BATCH_MATMUL")
def _batch_matmul(inputs, options, out_types):
    a, b = inputs[:2]
    if options.get("adj_x"):
        a = np.swapaxes(a, -1, -2)
    if options.get("adj_y"):
        b = np.swapaxes(b, -1, -2)
    return [np.matmul(a, b).astype(out_types[0])]


@_kernel("STRIDED_SLICE")
def _strided_slice(inputs, options, out_types):
    x, begin, end, strides = inputs[0], *(np.ravel(v) for v in inputs[1:4])
    index, dim = [], 0
    for i in range(len(begin)):
        bit = 1 << i
        if options.get("new_axis_mask", 0) & bit:
            index.append(np.newaxis)
            continue
        if options.get("shrink_axis_mask", 0) & bit:
            index.append(int(begin[i]))
        else:
            start = None if options.get("begin_mask", 0) & bit else int(begin[i])
            stop = None if options.get("end_mask", 0) & bit else int(end[i])
            index.append(slice(start, stop, int(strides[i])))
        dim += 1
    return [np.array(x[tuple(index)])]


# the inputs of UNIDIRECTIONAL_SEQUENCE_LSTM that are its state, which it updates in place
LSTM_STATE = (18, 19)


@_kernel("UNIDIRECTIONAL_SEQUENCE_LSTM")
def sequence_lstm(inputs, options, out_types, scales=None):
    """TFLite's float LSTM over a sequence: gates ``i, f, o = sigmoid(...)`` and cell input
    ``g = act(...)`` from the input and the previous output (plus peepholes of the cell
    when given; ``i = 1 - f`` without input gate weights), ``c = f * c + i * g`` (clipped
    to `cell_clip`), ``h = o * act(c)`` (projected and clipped to `proj_clip` when
    given). Returns the outputs of every step, then the last output and cell state (the
    variable inputs 18 and 19, which the interpreter updates).

    With int8 input and recurrent weights (`scales`: each input's scale, None for a
    float one), the hybrid kernel: each step's input and previous output quantized per
    batch row (`_quantize_rows`), multiplied by the weights in integers and scaled, added
    to the gate's bias in float32."""
    x = inputs[0]
    (w_i, w_f, w_c, w_o), (r_i, r_f, r_c, r_o) = inputs[1:5], inputs[5:9]
    (p_i, p_f, p_o), (b_i, b_f, b_c, b_o) = inputs[9:12], inputs[12:16]
    projection, projection_bias = inputs[16:18]
    h, c = (np.array(v, np.float32) for v in inputs[18:20])
    if any(v is not None for v in inputs[20:24]):
        raise RuntimeError("UNIDIRECTIONAL_SEQUENCE_LSTM with layer normalization is not "
                           "supported.")
    act = _act(options)
    cell_clip, proj_clip = options.get("cell_clip", 0.0), options.get("proj_clip", 0.0)
    steps = x if options.get("time_major") else np.swapaxes(x, 0, 1)
    hybrid = scales is not None and any(v is not None for v in scales[1:9])
    asymmetric = bool(options.get("asymmetric_quantize_inputs"))
    # (each gate's weights and their scale: None for float ones)
    weight_scales = {id(inputs[n]): scales[n] for n in range(1, 9)} if hybrid else {}

    def product(rows, quantized_rows, w):   # rows @ w.T (in integers for int8 weights)
        scale = weight_scales.get(id(w))
        if scale is None:
            return rows @ w.T
        q, row_scales, offsets = quantized_rows
        w = w.astype(np.int32)
        acc = q @ w.T - offsets[:, None] * w.sum(axis=1)[None, :]
        return acc.astype(np.float32) * (row_scales * np.float32(scale))[:, None]

    def gate(w, r, b, peephole, cell):
        if hybrid:   # (in float32: the bias, plus the input's part, plus the recurrent one)
            z = np.zeros((len(h), len(w)), np.float32) + (b if b is not None else 0)
            z = z + product(step, step_q, w)
            z = z + product(h, h_q, r)
        else:
            z = step @ w.T + h @ r.T + (b if b is not None else 0)
        if peephole is not None:
            z = z + cell * peephole
        return z

    outputs = []
    for step in steps:
        if hybrid:
            step_q, h_q = _quantize_rows(step, asymmetric), _quantize_rows(h, asymmetric)
        f = _sigmoid(gate(w_f, r_f, b_f, p_f, c))
        i = 1 - f if w_i is None else _sigmoid(gate(w_i, r_i, b_i, p_i, c))
        g = activate(gate(w_c, r_c, b_c, None, c).astype(np.float32), act)
        c = (f * c + i * g).astype(np.float32)
        if cell_clip > 0:
            c = np.clip(c, -cell_clip, cell_clip)
        o = _sigmoid(gate(w_o, r_o, b_o, p_o, c))
        h = (o * activate(c, act)).astype(np.float32)
        if projection is not None:
            h = h @ projection.T + (projection_bias if projection_bias is not None else 0)
            if proj_clip > 0:
                h = np.clip(h, -proj_clip, proj_clip)
            h = h.astype(np.float32)
        outputs.append(h)
    out = np.stack(outputs) if options.get("time_major") else np.stack(outputs, axis=1)
    return [out.astype(out_types[0]), h, c]


def _sigmoid(z):
    return (1 / (1 + np.exp(-z.astype(np.float64)))).astype(np.float32)


@_kernel("DEQUANTIZE")
def _dequantize(inputs, options, out_types):
    return [inputs[0].astype(out_types[0])]  # (quantized inputs are dequantized on reading)


def _round(x):
    """Rounding halves away from zero, as TFLite's kernels round."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def _quantize_rows(x, asymmetric):
    """Each row of float `x` as int8 with its scale and zero point, as TFLite's hybrid
    kernels quantize their inputs (per batch row)."""
    q = np.zeros(x.shape, np.int32)
    scales = np.ones(len(x), np.float32)
    offsets = np.zeros(len(x), np.int32)
    for b, row in enumerate(x):
        if asymmetric:
            lo, hi = min(0.0, float(row.min())), max(0.0, float(row.max()))
            if lo == hi:
                continue
            scale = (hi - lo) / 255.0
            from_min, from_max = -128 - lo / scale, 127 - hi / scale
            zero = from_min if 128 + abs(lo / scale) < 127 + abs(hi / scale) else from_max
            zero = -128 if zero <= -128 else 127 if zero >= 127 else int(_round(zero))
            q[b] = np.clip(_round(zero + row * (1.0 / scale)), -128, 127)
            scales[b], offsets[b] = scale, zero
        else:
            top = float(np.abs(row).max()) if row.size else 0.0
            if top == 0:
                continue
            q[b] = np.clip(_round(row * (127.0 / top)), -127, 127)
            scales[b] = top / 127.0
    return q, scales, offsets


def hybrid_fully_connected(x, weights, channel_scales, bias, options, out_type):
    """FULLY_CONNECTED of float `x` by int8 `weights` (per-channel `channel_scales`):
    the inputs quantized per row, products summed in integers, as TFLite computes it."""
    units, depth = weights.shape
    rows = x.reshape(-1, depth)
    q, scales, offsets = _quantize_rows(rows, bool(options.get("asymmetric_quantize_inputs")))
    w = weights.astype(np.int32)
    acc = q @ w.T - offsets[:, None] * w.sum(axis=1)[None, :]
    channel = np.broadcast_to(np.asarray(channel_scales, np.float32), (units,))
    y = acc.astype(np.float32) * (scales[:, None] * channel[None, :])
    if bias is not None:
        y = y + bias
    if options.get("keep_num_dims"):
        y = y.reshape(x.shape[:-1] + (units,))
    return activate(y.astype(out_type, copy=False), _act(options))


def hybrid_conv(name, x, weights, channel_scales, bias, options, out_type):
    """CONV_2D or DEPTHWISE_CONV_2D of float `x` by int8 `weights` as TFLite's per-channel
    hybrid kernels compute it: each batch item quantized (asymmetric), integer products
    summed exactly, then scaled per channel and per item."""
    q, scales, offsets = _quantize_rows(x.reshape(len(x), -1), asymmetric=True)
    shifted = (q - offsets[:, None]).reshape(x.shape).astype(np.float64)
    acc = KERNELS[name]([shifted, weights.astype(np.float64)], dict(options,
                        fused_activation_function=0), [np.dtype(np.float64)])[0]
    channel = np.asarray(channel_scales, np.float32)
    y = acc.astype(np.float32) * channel * scales.reshape((-1,) + (1,) * (acc.ndim - 1))
    return _biased(y, bias, options, [out_type])
