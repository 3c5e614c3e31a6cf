"""Lowering rules of operations TF's converter rewrites as several TFLite operators: two-operand
einsums, batch normalization (folded into the convolution before it, or as moments),
resizing and gathering.

>>> "Einsum" in RULES and "FusedBatchNormV3" in RULES
True
"""
import numpy as np

from eagerflow._src.lite.rules import MIN_QUANTIZED, RULES, UNKNOWN_BATCH, ConversionError, \
    _operand, _weights, rule

@rule("Einsum")
def _einsum(sub, op):
    """A two-operand einsum as TF's converter lowers it: each operand transposed and
    reshaped to ``[batch..., rows, contracted]``, a BATCH_MATMUL (a FULLY_CONNECTED for
    constant weights without batch labels), the product reshaped and transposed back."""
    equation = op.attrs["equation"]
    equation = equation.decode() if isinstance(equation, bytes) else equation
    if len(op.inputs) != 2 or "." in equation or "->" not in equation:
        raise ConversionError(op)
    (la, lb), lo = equation.replace(" ", "").split("->")[0].split(","), \
        equation.replace(" ", "").split("->")[1]
    a, b = op.inputs
    labels = la + lb + lo
    if any(len(set(x)) != len(x) for x in (la, lb, lo)) or set(lo) - set(la + lb) or \
            a.shape.rank != len(la) or b.shape.rank != len(lb):
        raise ConversionError(op)
    size = {}
    for t, ls in ((a, la), (b, lb)):
        for label, d in zip(ls, t.shape.as_list()):
            size[label] = size.get(label) or d
    batch = [c for c in lo if c in la and c in lb]
    contract = [c for c in la if c in lb and c not in lo]
    free_a = [c for c in la if c not in lb]
    free_b = [c for c in lb if c not in la]
    if (set(free_a) | set(free_b)) - set(lo):
        raise ConversionError(op)   # (a label summed within one operand)

    def count(group):
        dims = [size[c] for c in group]
        return None if None in dims else int(np.prod(dims, dtype=np.int64))

    rows, inner, cols = count(free_a), count(contract), count(free_b)
    if inner is None:
        raise ConversionError(op)
    left = _arranged(sub, op, a, la, batch + free_a + contract,
                     [size[c] for c in batch] + [rows, inner])
    w = sub.value(b)
    dtype = op.outputs[0].dtype.as_numpy_dtype
    flat = [size[c] for c in batch] + [rows, cols]
    product = sub.add_tensor(op.name + "/product", [1 if d is None else d for d in flat], dtype,
                             signature=[-1 if d is None else d for d in flat])
    if w is not None and not batch and cols is not None:
        weights = np.transpose(w, [lb.index(c) for c in contract + free_b]).reshape(inner, cols)
        sub.emit("FULLY_CONNECTED", [left, _weights(sub, weights.T, op.name + "/weights", 0),
                                     -1], [product], "FullyConnectedOptions",
                 keep_num_dims=True)
    else:
        right = _arranged(sub, op, b, lb, batch + contract + free_b,
                          [size[c] for c in batch] + [inner, cols])
        sub.emit("BATCH_MATMUL", [left, right], [product], "BatchMatMulOptions")
    order = batch + free_a + free_b
    shape = [size[c] for c in order]
    if [c for c in lo] == order and flat == shape:
        sub.index[id(op.outputs[0])] = product
        sub.tensors[product]["name"] = op.name
        return
    if sum(d is None for d in shape) > 1:
        raise ConversionError(op)
    spread = product
    if shape != flat:
        spread = sub.add_tensor(op.name + "/spread", [1 if d is None else d for d in shape],
                                dtype, signature=[-1 if d is None else d for d in shape])
        sub.emit("RESHAPE", [product, sub.const(np.int32([-1 if d is None else d
                                                          for d in shape]),
                                                op.name + "/shape")], [spread])
    if list(lo) == order:
        sub.index[id(op.outputs[0])] = spread
        return
    sub.emit("TRANSPOSE", [spread, sub.const(np.int32([order.index(c) for c in lo]),
                                             op.name + "/perm")],
             [sub.result(op.outputs[0])], "TransposeOptions")


def _arranged(sub, op, t, labels, order, shape):
    """The TFLite tensor of graph tensor `t` (its dimensions named by `labels`) transposed
    to `order` and reshaped to `shape` (None: the one unknown dimension)."""
    if sum(d is None for d in shape) > 1:
        raise ConversionError(op)
    value = sub.value(t)
    perm = [labels.index(c) for c in order]
    dims = [-1 if d is None else d for d in shape]
    if value is not None:
        return sub.const(np.transpose(value, perm).reshape(dims), t.op.name + "/arranged")
    dtype = t.dtype.as_numpy_dtype
    current = sub.input(t)
    if perm != sorted(perm):
        moved = [t.shape.as_list()[p] for p in perm]
        out = sub.add_tensor(t.op.name + "/transposed", [1 if d is None else d for d in moved],
                             dtype, signature=[-1 if d is None else d for d in moved])
        sub.emit("TRANSPOSE", [current, sub.const(np.int32(perm), t.op.name + "/perm")],
                 [out], "TransposeOptions")
        current = out
    if [d for d in shape] != [t.shape.as_list()[p] for p in perm]:
        out = sub.add_tensor(t.op.name + "/reshaped", [1 if d is None else d for d in shape],
                             dtype, signature=dims)
        sub.emit("RESHAPE", [current, sub.const(np.int32(dims), t.op.name + "/shape")], [out])
        current = out
    return current


@rule("ResizeBilinear", "ResizeNearestNeighbor")
def _resize(sub, op):
    bilinear = op.type == "ResizeBilinear"
    sub.emit("RESIZE_BILINEAR" if bilinear else "RESIZE_NEAREST_NEIGHBOR",
             [sub.input(op.inputs[0]), _operand(sub, op, 1, "size")],
             [sub.result(op.outputs[0])],
             "ResizeBilinearOptions" if bilinear else "ResizeNearestNeighborOptions",
             align_corners=bool(op.attrs.get("align_corners")),
             half_pixel_centers=bool(op.attrs.get("half_pixel_centers")))


@rule("GatherV2")
def _gather(sub, op):
    axis = op.attrs.get("axis")
    if axis is None:
        axis = int(sub.value(op.inputs[2]))
    sub.emit("GATHER", [sub.input(op.inputs[0]), sub.input(op.inputs[1])],
             [sub.result(op.outputs[0])], "GatherOptions", axis=int(axis))


@rule("FusedBatchNormV3", "FusedBatchNorm")
def _batch_norm(sub, op):
    x, scale, offset, mean, variance = op.inputs[:5]
    if op.attrs.get("is_training", True):
        _normalized(sub, op)
        return
    values = [sub.value(t) for t in (scale, offset, mean, variance)]
    layout = op.attrs.get("data_format", "NHWC")
    if any(v is None for v in values) or layout not in ("NHWC", "NCHW"):
        raise ConversionError(op)
    scale, offset, mean, variance = values
    multiplier = (scale / np.sqrt(variance + np.float32(op.attrs["epsilon"]))).astype(np.float32)
    shift = (offset - mean * multiplier).astype(np.float32)
    if layout == "NCHW":   # (channels first: the factors broadcast along the channel axis)
        multiplier, shift = multiplier.reshape(-1, 1, 1), shift.reshape(-1, 1, 1)
    elif _fold_scale(sub, x, op.outputs[0], multiplier, shift):
        return
    mid = sub.scratch(op.outputs[0], "_scaled")
    sub.emit("MUL", [sub.input(x), sub.const(multiplier, op.name + "/mul")], [mid], "MulOptions")
    sub.emit("ADD", [mid, sub.const(shift, op.name + "/sub")], [sub.result(op.outputs[0])],
             "AddOptions")


def _filled(sub, t):
    """The scalar a graph tensor of one repeated value holds (a constant, or a ``Fill`` of a
    constant), else None."""
    value = sub.value(t)
    if value is None and t.op.type == "Fill":
        found = [sub.value(i) for i in t.op.inputs]
        value = next((v for v in found if v is not None and v.ndim == 0), None)
    if value is None or value.size == 0 or np.any(value != np.ravel(value)[0]):
        return None
    return np.ravel(value)[0]


def _normalized(sub, op):
    """A batch normalization in training mode (how Keras's layer normalization runs) as
    TF's converter lowers moments: MEAN, SQUARED_DIFFERENCE, MEAN, ADD, RSQRT, SUB, MUL,
    with a scale and offset of one repeated value (ones and zeros)."""
    x, scale, offset = op.inputs[:3]
    scale, offset = _filled(sub, scale), _filled(sub, offset)
    if scale is None or offset is None:
        raise ConversionError(op)
    axes = sub.const(np.int32([0, 2, 3] if op.attrs.get("data_format") == "NCHW"
                              else [0, 1, 2]), op.name + "/axes")
    out, dtype = op.outputs[0], np.float32

    def step(name, ins, options=None, suffix=""):
        i = sub.scratch(out, suffix) if suffix else sub.result(out)
        sub.emit(name, ins, [i], options, **({"keep_dims": True} if name == "MEAN" else {}))
        return i

    src = sub.input(x)
    mean = step("MEAN", [src, axes], "ReducerOptions", "/mean")
    squares = step("SQUARED_DIFFERENCE", [src, mean], None, "/squares")
    variance = step("MEAN", [squares, axes], "ReducerOptions", "/variance")
    eps = sub.const(np.asarray(op.attrs["epsilon"], dtype), op.name + "/epsilon")
    rsqrt = step("RSQRT", [step("ADD", [variance, eps], "AddOptions", "/shifted")], None,
                 "/rsqrt")
    centered = step("SUB", [src, mean], "SubOptions", "/centered")
    tail = [("MUL", scale, "MulOptions", 1), ("ADD", offset, "AddOptions", 0)]
    tail = [t for t in tail if t[1] != t[3]]
    result = step("MUL", [centered, rsqrt], "MulOptions", "/scaled" if tail else "")
    for n, (name, value, options, _) in enumerate(tail):
        result = step(name, [result, sub.const(np.asarray(value, dtype), f"{op.name}/{name}")],
                      options, "" if n == len(tail) - 1 else f"/{name.lower()}")


_CHANNEL_AXIS = {"CONV_2D": 0, "DEPTHWISE_CONV_2D": 3, "FULLY_CONNECTED": 0}


def _fold_scale(sub, x, out, multiplier, shift):
    """Folds ``x * multiplier + shift`` (per channel) into the float weights and bias of the
    convolution or dense operator producing `x` (TF's converter folds batch normalization
    so); whether it did."""
    producer = sub.fusible(x, tuple(_CHANNEL_AXIS))
    if producer is None:
        return False
    weights = sub.constant_of(producer["inputs"][1])
    current = producer["inputs"][2] if len(producer["inputs"]) > 2 else -1
    bias = np.zeros_like(shift) if current < 0 else sub.constant_of(current)
    if weights is None or weights.dtype != np.float32 or bias is None:
        return False
    shape = [1] * weights.ndim
    shape[_CHANNEL_AXIS[producer["name"]]] = -1
    producer["inputs"][1] = sub.const(weights * multiplier.reshape(shape),
                                      sub.tensors[producer["inputs"][1]]["name"])
    producer["inputs"][2:] = [sub.const(bias * multiplier + shift, out.op.name + "/bias")]
    sub.alias(x, producer, out)
    return True


@rule("_FusedRNN")
def _fused_lstm(sub, op):
    """A Keras LSTM (the fused recurrent op, of zero initial state) as TF's converter
    writes it: one UNIDIRECTIONAL_SEQUENCE_LSTM of the input, input and recurrent weights
    of each gate (Keras's kernel columns: input, forget, cell, output) and the gate biases,
    its output and cell state held in variable tensors (which TFLite carries from one
    invoke to the next); the last output a STRIDED_SLICE of the sequence. The cell state
    is clipped to [-10, 10], as TF's converter writes Keras's LSTMs. Dynamic range
    quantization makes the eight weights int8 (one scale each) when each has 1024
    elements or more; the operator then quantizes its input and output state per step."""
    x, kernel, recurrent, bias, *state = op.inputs
    values = [sub.value(t) for t in (kernel, recurrent, bias, *state)]
    seq, last, cell = op.outputs[:3]
    batch = x.shape[0] if x.shape.rank == 3 and not op.attrs.get("time_major") else None
    if x.shape.rank == 3 and x.shape[1 if op.attrs.get("time_major") else 0] is None:
        raise ConversionError(op, UNKNOWN_BATCH)
    if op.attrs.get("mode") != "lstm" or any(v is None for v in values) or batch is None or \
            any(np.any(v != 0) for v in values[3:]) or sub.users.get(id(cell)):
        raise ConversionError(op)
    kernel, recurrent, bias = values[:3]
    units = recurrent.shape[0]
    gates = range(4)   # (input, forget, cell, output)
    hybrid = sub.model.quantize and min(kernel.shape[0], units) * units >= MIN_QUANTIZED

    def weights(array, name):
        return _weights(sub, array, name, None) if hybrid else sub.const(array, name)
    ins = [sub.input(x)]
    ins += [weights(np.ascontiguousarray(kernel[:, g * units:(g + 1) * units].T),
                    f"{op.name}/input_weights_{g}") for g in gates]
    ins += [weights(np.ascontiguousarray(recurrent[:, g * units:(g + 1) * units].T),
                    f"{op.name}/recurrent_weights_{g}") for g in gates]
    ins += [-1, -1, -1]   # (no peepholes)
    ins += [sub.const(bias[g * units:(g + 1) * units], f"{op.name}/bias_{g}") for g in gates]
    ins += [-1, -1]       # (no projection)
    for name in ("output_state", "cell_state"):
        ins.append(sub.add_tensor(f"{op.name}/{name}", [batch, units], np.float32))
        sub.tensors[ins[-1]]["is_variable"] = True
    ins += [-1] * 4       # (no layer normalization)
    sequence = sub.result(seq) if sub.users.get(id(seq)) or not sub.users.get(id(last)) \
        else sub.scratch(seq, "/sequence")
    sub.emit("UNIDIRECTIONAL_SEQUENCE_LSTM", ins, [sequence],
             "UnidirectionalSequenceLSTMOptions", fused_activation_function=4,
             cell_clip=10.0, time_major=False, asymmetric_quantize_inputs=bool(hybrid))
    if sub.users.get(id(last)):
        spec = [sub.const(np.int32(v), f"{op.name}/last_{k}")
                for k, v in (("begin", [0, -1, 0]), ("end", [0, 0, 0]),
                             ("strides", [1, 1, 1]))]
        sub.emit("STRIDED_SLICE", [sequence] + spec, [sub.result(last)],
                 "StridedSliceOptions", begin_mask=5, end_mask=5, shrink_axis_mask=2)
