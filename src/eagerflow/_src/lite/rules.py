"""Lowering rules of single graph operations: ``RULES[op type](sub, op)`` emits the TFLite
operators of `op` through `sub`, a `lowering.SubgraphBuilder`, or raises `ConversionError`.

Rules fold what TF's converter folds: a fused or following ReLU into the operator
before it, a constant bias add into a convolution's or dense layer's zero bias.

>>> sorted(k for k in RULES if k.startswith("Conv"))
['Conv2D', 'Conv2DBackpropInput', 'Conv3D']
"""
import numpy as np

from eagerflow._src.lite import schema
from eagerflow._src.lite.kernels import registrar

RULES = {}
_ACTIVATIONS = {b"Relu": "RELU", b"Relu6": "RELU6"}  # (TFLite fuses no tanh into FC)
_UNFUSED = {b"Sigmoid": "LOGISTIC", b"Tanh": "TANH", b"Elu": "ELU"}


class ConversionError(Exception):
    """An operation no rule lowers (the converter raises TF's ``ConverterError`` for it);
    `message`, when given, TF's error for it (``'tf.Op' op ...``) instead of an unsupported
    operator's."""

    def __init__(self, op, message=None):
        super().__init__(op.type)
        self.op, self.message = op, message


# (TF's converter writes a recurrent layer's sequence as a tensor list, which needs its
# batch size)
UNKNOWN_BATCH = ("'tf.TensorListReserve' op requires element_shape to be static during TF "
                 "Lite transformation pass")


rule = registrar(RULES)   # ``@rule("Conv2D", ...)``: the lowering of those graph ops
# (dynamic range quantization leaves smaller weights in float, as TF's converter does)
MIN_QUANTIZED = 1024


def _activation(sub, op, fused_ops):
    """(fused activation code, ``(operator, options, fields)`` to apply after or None) of a
    fused op's trailing activation."""
    tail = [f for f in fused_ops if f != b"BiasAdd"]
    if not tail:
        return 0, None
    if len(tail) == 1 and tail[0] in _ACTIVATIONS:
        return schema.ACTIVATIONS[_ACTIVATIONS[tail[0]]], None
    if len(tail) == 1 and tail[0] in _UNFUSED and _UNFUSED[tail[0]] in schema.OPERATORS:
        return 0, (_UNFUSED[tail[0]], None, {})
    if tail == [b"LeakyRelu"]:   # (TF's converter: a LEAKY_RELU after the operator)
        return 0, ("LEAKY_RELU", "LeakyReluOptions",
                   {"alpha": float(op.attrs.get("leakyrelu_alpha", 0.2))})
    raise ConversionError(op)


def _with_activation(sub, op, emit):
    """Runs ``emit(output index, act code)`` for `op`, then its unfusable activation."""
    code, after = _activation(sub, op, list(op.attrs.get("fused_ops", ())))
    out = op.outputs[0]
    if after is None:
        emit(sub.result(out), code)
    else:
        mid = sub.scratch(out, "_pre")
        emit(mid, code)
        name, options, fields = after
        sub.emit(name, [mid], [sub.result(out)], options, **fields)


def _bias(sub, op, units, dtype):
    if len(op.inputs) > 2:
        return sub.input(op.inputs[2])
    return sub.const(np.zeros([units], dtype), op.name + "_bias")


@rule("MatMul", "_FusedMatMul")
def _matmul(sub, op):
    a, b = op.inputs[:2]
    w = sub.value(b)
    if op.attrs.get("transpose_a") or w is None or a.shape.rank != 2:
        if op.type != "MatMul":
            raise ConversionError(op)
        sub.emit("BATCH_MATMUL", [sub.input(a), sub.input(b)], [sub.result(op.outputs[0])],
                 "BatchMatMulOptions", adj_x=bool(op.attrs.get("transpose_a")),
                 adj_y=bool(op.attrs.get("transpose_b")))
        return
    weights = w if op.attrs.get("transpose_b") else w.T
    ins = [sub.input(a), _weights(sub, weights, op.name + "/weights", 0),
           sub.input(op.inputs[2]) if len(op.inputs) > 2 else -1]
    hybrid = sub.tensors[ins[1]]["type"] == schema.TYPE_NUMBERS[np.dtype(np.int8)]
    _with_activation(sub, op, lambda out, act: sub.emit(
        "FULLY_CONNECTED", ins, [out], "FullyConnectedOptions", fused_activation_function=act,
        asymmetric_quantize_inputs=hybrid))


def _weights(sub, array, name, axis):
    """A constant weights tensor: int8 with per-channel scales along `axis` (None: one
    scale for all) when the model is quantized (dynamic range) and the weights are large
    enough, else float."""
    array = np.ascontiguousarray(array)
    if not sub.model.quantize or array.dtype != np.float32 or array.size < MIN_QUANTIZED:
        return sub.const(array, name)
    channels = array[np.newaxis] if axis is None else np.moveaxis(array, axis, 0)
    scales = np.abs(channels.reshape(len(channels), -1)).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    shape = [1] * array.ndim
    if axis is not None:
        shape[axis] = -1
    q = np.clip(np.round(array / scales.reshape(shape)), -127, 127).astype(np.int8)
    i = sub.const(q, name)
    sub.tensors[i]["quantization"] = {"scale": scales.astype(np.float32),
                                      "zero_point": np.zeros(len(scales), np.int64),
                                      "quantized_dimension": axis or 0}
    return i


def _conv_options(op):
    strides, dilations = op.attrs["strides"], op.attrs.get("dilations") or (1, 1, 1, 1)
    if op.attrs.get("data_format", "NHWC") != "NHWC" or op.attrs["padding"] == "EXPLICIT":
        raise ConversionError(op)
    return dict(padding=schema.PADDING[op.attrs["padding"]], stride_h=int(strides[1]),
                stride_w=int(strides[2]), dilation_h_factor=int(dilations[1]),
                dilation_w_factor=int(dilations[2]))


@rule("Conv2D", "_FusedConv2D")
def _conv2d(sub, op):
    x, f = op.inputs[:2]
    w = sub.value(f)
    if w is None or (op.type == "_FusedConv2D" and op.attrs.get("num_args", 1) != 1):
        raise ConversionError(op)
    options = _conv_options(op)
    ins = [sub.input(x), _weights(sub, np.transpose(w, (3, 0, 1, 2)), op.name + "/filter", 0),
           _bias(sub, op, w.shape[3], w.dtype)]
    _with_activation(sub, op, lambda out, act: sub.emit(
        "CONV_2D", ins, [out], "Conv2DOptions", fused_activation_function=act, **options))


@rule("Conv3D", "_FusedConv3D")
def _conv3d(sub, op):
    x, f = op.inputs[:2]
    w = sub.value(f)
    strides, dilations = op.attrs["strides"], op.attrs.get("dilations") or (1,) * 5
    if w is None or op.attrs.get("data_format", "NDHWC") != "NDHWC":
        raise ConversionError(op)
    # TF's converter adds a Conv3D's bias after it (a ReLU fused into the ADD); a constant
    # zero bias followed by an activation it drops, the activation then on its own
    bias = op.inputs[2] if len(op.inputs) > 2 else None
    code, after = _activation(sub, op, list(op.attrs.get("fused_ops", ())))
    value = None if bias is None else sub.value(bias)
    drop = (code or after) and value is not None and not np.any(value)
    out = op.outputs[0]
    conv = sub.result(out) if bias is None else sub.scratch(out, "_conv")
    sub.emit("CONV_3D", [sub.input(x), sub.const(w, op.name + "/filter"), -1], [conv],
             "Conv3DOptions", padding=schema.PADDING[op.attrs["padding"]],
             stride_d=int(strides[1]), stride_h=int(strides[2]), stride_w=int(strides[3]),
             dilation_d_factor=int(dilations[1]), dilation_h_factor=int(dilations[2]),
             dilation_w_factor=int(dilations[3]))
    if bias is None:
        return
    if not drop:
        _with_activation(sub, op, lambda out, act: sub.emit(
            "ADD", [conv, sub.input(bias)], [out], "AddOptions", fused_activation_function=act))
    elif code:
        name = next(k for k, v in schema.ACTIVATIONS.items() if v == code)
        sub.emit(name, [conv], [sub.result(out)])
    else:
        name, options, fields = after
        sub.emit(name, [conv], [sub.result(out)], options, **fields)


@rule("DepthwiseConv2dNative", "_FusedDepthwiseConv2dNative")
def _depthwise(sub, op):
    x, f = op.inputs[:2]
    w = sub.value(f)
    if w is None:
        raise ConversionError(op)
    h, wd, c, m = w.shape
    ins = [sub.input(x), _weights(sub, w.reshape(1, h, wd, c * m), op.name + "/filter", 3),
           _bias(sub, op, c * m, w.dtype)]
    options = _conv_options(op)
    _with_activation(sub, op, lambda out, act: sub.emit(
        "DEPTHWISE_CONV_2D", ins, [out], "DepthwiseConv2DOptions",
        fused_activation_function=act, depth_multiplier=int(m), **options))


@rule("MaxPool", "AvgPool")
def _pool(sub, op):
    ksize, strides = op.attrs["ksize"], op.attrs["strides"]
    if op.attrs.get("data_format", "NHWC") != "NHWC":
        raise ConversionError(op)
    sub.emit("MAX_POOL_2D" if op.type == "MaxPool" else "AVERAGE_POOL_2D",
             [sub.input(op.inputs[0])], [sub.result(op.outputs[0])], "Pool2DOptions",
             padding=schema.PADDING[op.attrs["padding"]], stride_h=int(strides[1]),
             stride_w=int(strides[2]), filter_height=int(ksize[1]), filter_width=int(ksize[2]))


_BINARY = {"AddV2": ("ADD", "AddOptions"), "Add": ("ADD", "AddOptions"),
           "Sub": ("SUB", "SubOptions"), "Mul": ("MUL", "MulOptions"),
           "RealDiv": ("DIV", "DivOptions"), "Maximum": ("MAXIMUM", "MaximumMinimumOptions"),
           "Minimum": ("MINIMUM", "MaximumMinimumOptions"), "Pow": ("POW", None),
           "SquaredDifference": ("SQUARED_DIFFERENCE", None), "BiasAdd": ("ADD", "AddOptions"),
           "Less": ("LESS", None), "Greater": ("GREATER", None),
           "GreaterEqual": ("GREATER_EQUAL", None), "LessEqual": ("LESS_EQUAL", None),
           "Equal": ("EQUAL", None), "NotEqual": ("NOT_EQUAL", None),
           "LogicalOr": ("LOGICAL_OR", None), "LogicalAnd": ("LOGICAL_AND", None),
           "FloorDiv": ("FLOOR_DIV", None), "FloorMod": ("FLOOR_MOD", None),
           "SelectV2": ("SELECT_V2", None), "Atan2": ("ATAN2", None)}


@rule(*_BINARY)
def _binary(sub, op):
    name, options = _BINARY[op.type]
    if name == "ADD" and _fold_bias(sub, op):
        return
    if name == "MUL" and _gelu(sub, op):
        return
    if op.type == "BiasAdd" and op.attrs.get("data_format", "NHWC") != "NHWC":
        raise ConversionError(op)
    sub.emit(name, [sub.input(t) for t in op.inputs], [sub.result(op.outputs[0])], options)


def _fold_bias(sub, op):
    """Folds the addition of a constant vector into the zero bias of the convolution or
    dense operator before it (as TF's converter does); whether it did."""
    x, b = op.inputs
    bias = sub.value(b)
    producer = sub.fusible(x, ("FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D"))
    if bias is None or bias.ndim != 1 or producer is None or \
            x.shape.rank is None or x.shape[-1] != bias.shape[0]:
        return False
    current = producer["inputs"][2] if len(producer["inputs"]) > 2 else -1
    if current >= 0 and np.any(sub.constant_of(current) != 0):
        return False   # (a bias computed, or not zero: an ADD of its own)
    if current < 0:
        producer["inputs"].append(-1)
        producer["inputs"] = producer["inputs"][:3]
    producer["inputs"][2] = sub.const(bias, b.op.name)
    sub.alias(x, producer, op.outputs[0])
    return True


def _scalar(sub, t, value):
    v = sub.value(t)
    return v is not None and v.size == 1 and abs(float(v) - value) < 1e-6


def _product_of(t, sub, value):
    """`x` when graph tensor `t` is ``x * value`` (either order), else None."""
    if t.op.type != "Mul":
        return None
    a, b = t.op.inputs
    return a if _scalar(sub, b, value) else b if _scalar(sub, a, value) else None


@rule("Erfc")
def _erfc(sub, op):
    # only as part of gelu, ``0.5 * x * erfc(-x / sqrt(2))`` (found at the product, `_gelu`)
    scaled = _product_of(op.inputs[0], sub, 0.5 ** 0.5)
    if scaled is None or scaled.op.type != "Neg":
        raise ConversionError(op)
    sub.gelu[id(op.outputs[0])] = scaled.op.inputs[0]


def _gelu(sub, op):
    """Lowers ``(0.5 * x) * erfc(-x / sqrt(2))`` to GELU; whether `op` was that product."""
    for half, erfc in (op.inputs, op.inputs[::-1]):
        x = sub.gelu.get(id(erfc))
        if x is not None and _product_of(half, sub, 0.5) is x:
            sub.emit("GELU", [sub.input(x)], [sub.result(op.outputs[0])], "GeluOptions",
                     approximate=False)
            return True
    return False


_UNARY = {"Relu": "RELU", "Relu6": "RELU6", "Sigmoid": "LOGISTIC", "Tanh": "TANH",
          "Exp": "EXP", "Log": "LOG", "Sqrt": "SQRT", "Rsqrt": "RSQRT", "Neg": "NEG",
          "Abs": "ABS", "Square": "SQUARE", "Floor": "FLOOR", "Elu": "ELU",
          "LogicalNot": "LOGICAL_NOT", "Sin": "SIN", "Cos": "COS", "Ceil": "CEIL",
          "Round": "ROUND", "Sign": "SIGN", "ZerosLike": "ZEROS_LIKE"}


_FUSED_ACTIVATIONS = {"Relu": "RELU", "Relu6": "RELU6"}
_TAKES_ACTIVATION = ("FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D", "ADD", "SUB", "MUL",
                     "DIV", "CONCATENATION", "MAX_POOL_2D", "AVERAGE_POOL_2D")


@rule(*_UNARY)
def _unary(sub, op):
    if op.type in _FUSED_ACTIVATIONS:  # (into the operator before, as TF's converter fuses)
        producer = sub.fusible(op.inputs[0], _TAKES_ACTIVATION)
        if producer is not None:
            producer["builtin_options"]["fused_activation_function"] = \
                schema.ACTIVATIONS[_FUSED_ACTIVATIONS[op.type]]
            sub.alias(op.inputs[0], producer, op.outputs[0])
            return
    sub.emit(_UNARY[op.type], [sub.input(op.inputs[0])], [sub.result(op.outputs[0])])


@rule("Identity", "StopGradient", "PreventGradient", "Snapshot")
def _identity(sub, op):
    t = op.inputs[0]
    if id(t) in sub.known:
        sub.known[id(op.outputs[0])] = sub.known[id(t)]
    else:
        sub.index[id(op.outputs[0])] = sub.input(t)


@rule("Softmax", "LogSoftmax")
def _softmax(sub, op):
    x, out = op.inputs[0], op.outputs[0]
    rank = x.shape.rank
    axis = op.attrs.get("axis", -1)
    if rank is None and axis != -1:
        raise ConversionError(op)
    axis = axis % rank if rank else -1
    last = axis == -1 or axis == rank - 1
    if last:
        src, dst = sub.input(x), sub.result(out)
    else:   # (TF's converter: the axis transposed last and back)
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        perm = sub.const(np.int32(perm), op.name + "/perm")
        src, dst = sub.scratch(out, "/transposed"), sub.scratch(out, "/moved")
        sub.emit("TRANSPOSE", [sub.input(x), perm], [src], "TransposeOptions")
        for i in (src, dst):   # (the moved axis's shape)
            shape = list(sub.tensors[i]["shape"])
            shape[axis], shape[-1] = shape[-1], shape[axis]
            sub.tensors[i]["shape"] = shape
            signature = sub.tensors[i].get("shape_signature")
            if signature:
                signature = list(signature)
                signature[axis], signature[-1] = signature[-1], signature[axis]
                sub.tensors[i]["shape_signature"] = signature
    if op.type == "Softmax":
        sub.emit("SOFTMAX", [src], [dst], "SoftmaxOptions", beta=1.0)
    else:
        sub.emit("LOG_SOFTMAX", [src], [dst], "LogSoftmaxOptions")
    if not last:
        sub.emit("TRANSPOSE", [dst, perm], [sub.result(out)], "TransposeOptions")


@rule("Selu")
def _selu(sub, op):
    """``scale * x`` where ``x > 0``, else ``scale * alpha * (exp(x) - 1)`` (as TF lowers
    it: GREATER, MUL, EXP, SUB, MUL, SELECT_V2)."""
    x, out = op.inputs[0], op.outputs[0]
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    src = sub.input(x)
    dtype = x.dtype.as_numpy_dtype

    def step(name, ins, suffix, options=None):
        i = sub.scratch(out, suffix)
        sub.emit(name, ins, [i], options)
        return i

    positive = sub.add_tensor(op.name + "/positive", sub.tensors[src]["shape"], np.bool_,
                              signature=sub.tensors[src].get("shape_signature"))
    sub.emit("GREATER", [src, sub.const(np.zeros([], dtype), op.name + "/zero")], [positive])
    scaled = step("MUL", [src, sub.const(np.asarray(scale, dtype), op.name + "/scale")],
                  "/scaled", "MulOptions")
    exp = step("EXP", [src], "/exp")
    less = step("SUB", [exp, sub.const(np.ones([], dtype), op.name + "/one")], "/expm1",
                "SubOptions")
    negative = step("MUL", [less, sub.const(np.asarray(scale * alpha, dtype),
                                            op.name + "/scale_alpha")], "/negative",
                    "MulOptions")
    sub.emit("SELECT_V2", [positive, scaled, negative], [sub.result(out)])


def _chain(sub, op, steps):
    """Emits `steps`, ``(operator, options, constant operand or None, operand first)``
    each applied to the result so far (from `op`'s input), the last one giving `op`'s
    output."""
    out, dtype = op.outputs[0], op.inputs[0].dtype.as_numpy_dtype
    current = sub.input(op.inputs[0])
    for n, (name, options, operand, first) in enumerate(steps):
        dst = sub.result(out) if n == len(steps) - 1 else sub.scratch(out, f"/{name.lower()}")
        ins = [current]
        if operand is not None:
            c = sub.const(np.asarray(operand, dtype), f"{op.name}/{name.lower()}_operand")
            ins = [c, current] if first else [current, c]
        sub.emit(name, ins, [dst], options)
        current = dst


@rule("Softplus")
def _softplus(sub, op):   # (as TF's converter: log(exp(x) + 1))
    _chain(sub, op, [("EXP", None, None, False), ("ADD", "AddOptions", 1, False),
                     ("LOG", None, None, False)])


@rule("Log1p")
def _log1p(sub, op):   # (as TF's converter: log(x + 1))
    _chain(sub, op, [("ADD", "AddOptions", 1, False), ("LOG", None, None, False)])


@rule("Expm1")
def _expm1(sub, op):   # (exp(x) - 1)
    _chain(sub, op, [("EXP", None, None, False), ("SUB", "SubOptions", 1, False)])


@rule("Softsign")
def _softsign(sub, op):   # (x / (|x| + 1))
    x = sub.input(op.inputs[0])
    _chain(sub, op, [("ABS", None, None, False), ("ADD", "AddOptions", 1, False)])
    denominator = sub.index.pop(id(op.outputs[0]))
    sub.emit("DIV", [x, denominator], [sub.result(op.outputs[0])], "DivOptions")


@rule("LeakyRelu")
def _leaky_relu(sub, op):
    sub.emit("LEAKY_RELU", [sub.input(op.inputs[0])], [sub.result(op.outputs[0])],
             "LeakyReluOptions", alpha=float(op.attrs.get("alpha", 0.2)))


def _operand(sub, op, position, attr, dtype=np.int32):
    """An operand given as input `position` or, in eagerflow's graphs, as attribute `attr`."""
    if len(op.inputs) > position:
        return sub.input(op.inputs[position])
    return sub.const(np.asarray(op.attrs[attr], dtype), f"{op.name}/{attr}")


@rule("Reshape")
def _reshape(sub, op):
    out = op.outputs[0]
    dims = out.shape.as_list() if out.shape.rank is not None else None
    if dims is not None and sum(d is None for d in dims) <= 1:
        shape = sub.const(np.int32([-1 if d is None else d for d in dims]), op.name + "/shape")
    else:
        shape = _operand(sub, op, 1, "shape")
    sub.emit("RESHAPE", [sub.input(op.inputs[0]), shape], [sub.result(out)])


@rule("DepthToSpace", "SpaceToDepth")
def _depth_space(sub, op):
    name = "DEPTH_TO_SPACE" if op.type == "DepthToSpace" else "SPACE_TO_DEPTH"
    options = "DepthToSpaceOptions" if op.type == "DepthToSpace" else "SpaceToDepthOptions"
    sub.emit(name, [sub.input(op.inputs[0])], [sub.result(op.outputs[0])], options,
             block_size=int(op.attrs["block_size"]))


_REDUCERS = {"Mean": "MEAN", "Sum": "SUM", "Max": "REDUCE_MAX", "Min": "REDUCE_MIN",
             "Prod": "REDUCE_PROD", "Any": "REDUCE_ANY"}


@rule(*_REDUCERS)
def _reduce(sub, op):
    if len(op.inputs) < 2 and op.attrs.get("axis") is None:  # (all axes)
        axis = sub.const(np.arange(op.inputs[0].shape.rank, dtype=np.int32), op.name + "/axis")
    else:
        axis = _operand(sub, op, 1, "axis")
    sub.emit(_REDUCERS[op.type], [sub.input(op.inputs[0]), axis],
             [sub.result(op.outputs[0])], "ReducerOptions",
             keep_dims=bool(op.attrs.get("keepdims", op.attrs.get("keep_dims", False))))


@rule("ConcatV2")
def _concat(sub, op):
    values = [t for t in op.inputs if "axis" in op.attrs] or list(op.inputs[:-1])
    axis = op.attrs["axis"] if "axis" in op.attrs else int(sub.value(op.inputs[-1]))
    sub.emit("CONCATENATION", [sub.input(t) for t in values], [sub.result(op.outputs[0])],
             "ConcatenationOptions", axis=int(axis))


# graph op -> (TFLite operator, the attribute (or second input) it takes, its options)
_WITH_OPERAND = {"Pad": ("PAD", "paddings", "PadOptions"),
                 "Transpose": ("TRANSPOSE", "perm", "TransposeOptions"),
                 "ExpandDims": ("EXPAND_DIMS", "axis", "ExpandDimsOptions"),
                 "Tile": ("TILE", "multiples", "TileOptions")}


@rule(*_WITH_OPERAND)
def _with_operand(sub, op):
    name, attr, options = _WITH_OPERAND[op.type]
    sub.emit(name, [sub.input(op.inputs[0]), _operand(sub, op, 1, attr)],
             [sub.result(op.outputs[0])], options)


@rule("Squeeze")
def _squeeze(sub, op):
    sub.emit("SQUEEZE", [sub.input(op.inputs[0])], [sub.result(op.outputs[0])],
             "SqueezeOptions", squeeze_dims=[int(d) for d in op.attrs.get("squeeze_dims", ())])


@rule("Cast")
def _cast(sub, op):
    src, dst = op.inputs[0].dtype.as_numpy_dtype, op.outputs[0].dtype.as_numpy_dtype
    sub.emit("CAST", [sub.input(op.inputs[0])], [sub.result(op.outputs[0])], "CastOptions",
             in_data_type=schema.TYPE_NUMBERS[np.dtype(src)],
             out_data_type=schema.TYPE_NUMBERS[np.dtype(dst)])


@rule("Slice")
def _slice(sub, op):
    sub.emit("SLICE", [sub.input(op.inputs[0]), _operand(sub, op, 1, "begin"),
                       _operand(sub, op, 2, "size")], [sub.result(op.outputs[0])],
             "SliceOptions")


@rule("Split", "SplitV")
def _split(sub, op):
    outs = [sub.result(t) for t in op.outputs]
    if op.type == "Split":
        axis = sub.const(np.int32(op.attrs["axis"]), op.name + "/axis") \
            if "axis" in op.attrs else sub.input(op.inputs[0])
        x = op.inputs[-1] if "axis" not in op.attrs else op.inputs[0]
        sub.emit("SPLIT", [axis, sub.input(x)], outs, "SplitOptions", num_splits=len(outs))
        return
    sub.emit("SPLIT_V", [sub.input(op.inputs[0]), _operand(sub, op, 1, "size_splits"),
                         _operand(sub, op, 2, "axis")], outs, "SplitVOptions",
             num_splits=len(outs))


@rule("Fill")
def _fill(sub, op):
    dims, value = sorted(op.inputs[:2], key=lambda t: -(t.shape.rank or 0))  # (dims: rank 1)
    sub.emit("FILL", [sub.input(dims), sub.input(value)], [sub.result(op.outputs[0])],
             "FillOptions")


@rule("Shape")
def _shape(sub, op):
    out = op.outputs[0]
    sub.emit("SHAPE", [sub.input(op.inputs[0])], [sub.result(out)], "ShapeOptions",
             out_type=schema.TYPE_NUMBERS[np.dtype(out.dtype.as_numpy_dtype)])


@rule("Conv2DBackpropInput")
def _transpose_conv(sub, op):
    f, x = op.inputs[0], op.inputs[1]
    w = sub.value(f)
    if w is None:
        raise ConversionError(op)
    sizes = sub.input(op.inputs[2]) if len(op.inputs) > 2 else \
        sub.const(np.int32(op.attrs["input_sizes"]), op.name + "/output_shape")
    options = _conv_options(op)
    if options.pop("dilation_h_factor") != 1 or options.pop("dilation_w_factor") != 1:
        raise ConversionError(op)
    sub.emit("TRANSPOSE_CONV", [sizes, sub.const(np.transpose(w, (2, 0, 1, 3)),
                                                 op.name + "/filter"), sub.input(x)],
             [sub.result(op.outputs[0])], "TransposeConvOptions", **options)


@rule("ArgMax", "ArgMin")
def _arg_max(sub, op):
    out = op.outputs[0]
    name = "ARG_MAX" if op.type == "ArgMax" else "ARG_MIN"
    sub.emit(name, [sub.input(op.inputs[0]), _operand(sub, op, 1, "axis")],
             [sub.result(out)], "ArgMaxOptions" if op.type == "ArgMax" else "ArgMinOptions",
             output_type=schema.TYPE_NUMBERS[np.dtype(out.dtype.as_numpy_dtype)])


@rule("Cumsum")
def _cumsum(sub, op):
    sub.emit("CUMSUM", [sub.input(op.inputs[0]), _operand(sub, op, 1, "axis")],
             [sub.result(op.outputs[0])], "CumsumOptions",
             exclusive=bool(op.attrs.get("exclusive")), reverse=bool(op.attrs.get("reverse")))


@rule("OneHot")
def _one_hot(sub, op):
    indices, on, off = op.inputs[0], op.inputs[-2], op.inputs[-1]
    depth = sub.input(op.inputs[1]) if len(op.inputs) == 4 else \
        sub.const(np.int32(op.attrs["depth"]), op.name + "/depth")
    sub.emit("ONE_HOT", [sub.input(indices), depth, sub.input(on), sub.input(off)],
             [sub.result(op.outputs[0])], "OneHotOptions", axis=int(op.attrs.get("axis", -1)))


@rule("Range")
def _range(sub, op):
    sub.emit("RANGE", [sub.input(t) for t in op.inputs], [sub.result(op.outputs[0])],
             "RangeOptions")


@rule("MirrorPad")
def _mirror_pad(sub, op):
    mode = op.attrs["mode"]
    mode = mode.decode() if isinstance(mode, bytes) else mode
    sub.emit("MIRROR_PAD", [sub.input(op.inputs[0]), _operand(sub, op, 1, "paddings")],
             [sub.result(op.outputs[0])], "MirrorPadOptions",
             mode=0 if mode.upper() == "REFLECT" else 1)


@rule("TopKV2")
def _top_k(sub, op):
    if not op.attrs.get("sorted", True):
        raise ConversionError(op)
    sub.emit("TOPK_V2", [sub.input(op.inputs[0]), _operand(sub, op, 1, "k")],
             [sub.result(t) for t in op.outputs], "TopKV2Options")


@rule("GatherNd")
def _gather_nd(sub, op):
    if op.attrs.get("batch_dims", 0):
        raise ConversionError(op)
    sub.emit("GATHER_ND", [sub.input(t) for t in op.inputs], [sub.result(op.outputs[0])],
             "GatherNdOptions")


@rule("BatchMatMulV2", "BatchMatMulV3", "BatchMatMul")
def _batch_matmul(sub, op):
    sub.emit("BATCH_MATMUL", [sub.input(t) for t in op.inputs], [sub.result(op.outputs[0])],
             "BatchMatMulOptions", adj_x=bool(op.attrs.get("adj_x")),
             adj_y=bool(op.attrs.get("adj_y")))


@rule("AddN")
def _add_n(sub, op):
    sub.emit("ADD_N", [sub.input(t) for t in op.inputs], [sub.result(op.outputs[0])],
             "AddNOptions")


@rule("SegmentSum")
def _segment_sum(sub, op):
    sub.emit("SEGMENT_SUM", [sub.input(t) for t in op.inputs], [sub.result(op.outputs[0])],
             "SegmentSumOptions")


@rule("MatrixDiagV3", "MatrixDiag")
def _matrix_diag(sub, op):
    if op.type == "MatrixDiagV3" and (
            any(np.any(np.asarray(op.attrs.get(a, d)) != d)
                for a, d in (("k", 0), ("num_rows", -1), ("num_cols", -1),
                             ("padding_value", 0))) or len(op.inputs) > 1):
        raise ConversionError(op)
    sub.emit("MATRIX_DIAG", [sub.input(op.inputs[0])], [sub.result(op.outputs[0])],
             "MatrixDiagOptions")


@rule("Pack")
def _pack(sub, op):
    sub.emit("PACK", [sub.input(t) for t in op.inputs], [sub.result(op.outputs[0])],
             "PackOptions", values_count=len(op.inputs), axis=int(op.attrs.get("axis", 0)))


@rule("Unpack")
def _unpack(sub, op):
    axis = int(op.attrs.get("axis", 0))
    sub.emit("UNPACK", [sub.input(op.inputs[0])], [sub.result(t) for t in op.outputs],
             "UnpackOptions", num=len(op.outputs), axis=axis)


@rule("ReverseV2")
def _reverse(sub, op):
    sub.emit("REVERSE_V2", [sub.input(op.inputs[0]), _operand(sub, op, 1, "axis")],
             [sub.result(op.outputs[0])], "ReverseV2Options")


_MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask")


@rule("StridedSlice")
def _strided_slice(sub, op):
    x = op.inputs[0]
    attrs = dict(op.attrs)
    if attrs.get("ellipsis_mask", 0):
        if len(op.inputs) > 1 or x.shape.rank is None:
            raise ConversionError(op)
        attrs = _without_ellipsis(attrs, x.shape.rank)
    if len(op.inputs) > 1:
        specs = [sub.input(t) for t in op.inputs[1:4]]
    else:
        specs = [sub.const(np.int32(attrs[a]), f"{op.name}/{a}")
                 for a in ("begin", "end", "strides")]
    sub.emit("STRIDED_SLICE", [sub.input(x)] + specs, [sub.result(op.outputs[0])],
             "StridedSliceOptions", **{m: int(attrs.get(m, 0)) for m in _MASKS})


def _without_ellipsis(attrs, rank):
    """Constant strided slice `attrs` with the ellipsis spelled out as full slices of the
    dimensions it stands for (TFLite's kernel takes no ellipsis)."""
    begin, end, strides = list(attrs["begin"]), list(attrs["end"]), list(attrs["strides"])
    masks = {m: attrs.get(m, 0) for m in _MASKS}
    at = next(i for i in range(len(begin)) if attrs["ellipsis_mask"] >> i & 1)
    named = sum(1 for i in range(len(begin)) if i != at and not masks["new_axis_mask"] >> i & 1)
    span = max(rank - named, 0)
    out = {"begin": [], "end": [], "strides": [], **{m: 0 for m in _MASKS}}
    position = 0
    for i in range(len(begin)):
        if i == at:
            for _ in range(span):
                out["begin"].append(0), out["end"].append(0), out["strides"].append(1)
                out["begin_mask"] |= 1 << position
                out["end_mask"] |= 1 << position
                position += 1
            continue
        out["begin"].append(begin[i]), out["end"].append(end[i]), out["strides"].append(strides[i])
        for m in _MASKS:
            if masks[m] >> i & 1:
                out[m] |= 1 << position
        position += 1
    return out
