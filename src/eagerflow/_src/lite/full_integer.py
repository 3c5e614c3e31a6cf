"""Full integer post-training quantization: a float ``.tflite`` model, calibrated on a
representative dataset, as int8 operators (TF's converter with a ``representative_dataset``).

Calibration runs the float model on each sample and keeps each tensor's minimum and
maximum. Activations become int8 with the asymmetric parameters of their range (zero
included); convolution and dense weights int8 per channel (symmetric, narrow range), their
biases int32 at the input scale times the weight scale. Operators whose int8 kernels need
fixed output parameters (softmax, logistic, tanh) get them; operators that only move values
(pooling, reshapes, slices) keep their input's; a concatenation's inputs take its
parameters. Operators TFLite's quantizer leaves in float (even when only int8 operators
are asked for, as TF's converter does) run between DEQUANTIZE and QUANTIZE. Float inputs and
outputs are quantized at entry and dequantized at exit, unless the inference types are int8
or uint8.

>>> params_of(-1.0, 3.0)
(0.01568627450980392, -64)
"""
import numpy as np

from eagerflow._src.lite import quantized, schema
from eagerflow._src.lite.interpreter import _Subgraph
from eagerflow._src.lite.lowering import used_buffers

# operators TFLite runs on int8 tensors (the rest fall back to float)
_INT8 = frozenset({
    "FULLY_CONNECTED", "CONV_2D", "DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D", "MAX_POOL_2D",
    "ADD", "SUB", "MUL", "CONCATENATION", "RESHAPE", "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE",
    "SOFTMAX", "LOGISTIC", "TANH", "RELU", "RELU6", "RELU_N1_TO_1", "LEAKY_RELU", "MEAN",
    "SUM", "REDUCE_MAX", "REDUCE_MIN", "PAD", "STRIDED_SLICE", "SLICE", "RESIZE_BILINEAR",
    "RESIZE_NEAREST_NEIGHBOR", "MAXIMUM", "MINIMUM", "HARD_SWISH", "GATHER", "SPLIT",
    "SPLIT_V", "TILE", "PACK", "EXP", "GELU", "SQUARED_DIFFERENCE", "RSQRT",
    "LOG_SOFTMAX", "SHAPE", "ARG_MAX", "ABS", "DIV", "SQRT", "LOG", "TRANSPOSE_CONV",
    "BATCH_MATMUL"})
# per-channel weights: operator -> the weights' channel axis
_WEIGHTS = {"FULLY_CONNECTED": 0, "CONV_2D": 0, "DEPTHWISE_CONV_2D": 3, "TRANSPOSE_CONV": 0}
# (positions of the data input and the bias of those operators, when not 0 and 2)
_POSITIONS = {"TRANSPOSE_CONV": (2, 3)}
# outputs of fixed parameters, as TFLite's int8 kernels require them
_FIXED = {"SOFTMAX": (1 / 256, -128), "LOGISTIC": (1 / 256, -128), "TANH": (1 / 128, 0),
          "LOG_SOFTMAX": (16 / 256, 127)}
# operators whose output keeps the parameters of their data input (its position)
_SAME = {"MAX_POOL_2D": 0, "AVERAGE_POOL_2D": 0, "RESHAPE": 0, "SQUEEZE": 0,
         "EXPAND_DIMS": 0, "TRANSPOSE": 0, "STRIDED_SLICE": 0, "SLICE": 0, "PAD": 0,
         "GATHER": 0, "SPLIT": 1, "SPLIT_V": 0, "TILE": 0, "RESIZE_NEAREST_NEIGHBOR": 0,
         "RESIZE_BILINEAR": 0,
         "REDUCE_MAX": 0, "REDUCE_MIN": 0, "PACK": 0}
_FLOAT = schema.TYPE_NUMBERS[np.dtype(np.float32)]
_I8, _U8, _I32 = (schema.TYPE_NUMBERS[np.dtype(t)] for t in (np.int8, np.uint8, np.int32))


def params_of(lo, hi):
    """``(scale, zero point)`` of int8 values spanning ``[lo, hi]`` (widened to hold zero)."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    if hi == lo:
        return 1.0, 0
    scale = (hi - lo) / 255.0
    zero = -128 - lo / scale
    return scale, int(np.clip(quantized._round(zero), -128, 127))


def _same(a, b):
    """Whether parameters `a` and `b` are the same once stored (scales as float32)."""
    return np.float32(a[0]) == np.float32(b[0]) and a[1] == b[1]


def _as_list(sample, names):
    """A representative sample as the subgraph's input arrays (by position): a list of
    them, a dict by input name, or ``(signature key, dict)``."""
    if isinstance(sample, tuple) and len(sample) == 2 and isinstance(sample[0], str) and \
            isinstance(sample[1], dict):
        sample = sample[1]
    if isinstance(sample, dict):
        return [np.asarray(sample[n]) for n in names]
    if isinstance(sample, (list, tuple)):
        return [np.asarray(v) for v in sample]
    raise ValueError(f"You need to provide either a dictionary with input names and values, a "
                     f"tuple with signature key and a dictionary with input names and values, "
                     f"or an array with input values in the order of input tensors of the "
                     f"graph in the representative_dataset function. Unsupported value from "
                     f"dataset: {sample}.")


def calibrate(model, samples, index=0, names=()):
    """``{tensor: [min, max]}`` of subgraph `index`'s float tensors over `samples`."""
    ranges = {}
    sub = _Subgraph(model, index)
    for sample in samples:
        arrays = _as_list(sample, names)
        for i, a in zip(sub.inputs, arrays):
            signature = sub.tensors[i].get("shape_signature")
            signature = signature if signature is not None else sub.tensors[i]["shape"]
            for d, (want, got) in enumerate(zip(signature, a.shape)):
                if want != -1 and want != got:
                    raise RuntimeError(
                        f"Attempting to resize dimension {d} of tensor {i} with value {want} "
                        f"to {got}. ResizeInputTensorStrict only allows mutating unknown "
                        f"dimensions identified by -1.")
            sub.shapes[i] = np.asarray(a.shape, np.int32)
        sub.resized = True
        sub.allocate()
        for i, a in zip(sub.inputs, arrays):
            sub.store(i, a.astype(sub.dtype(i)))
        sub.run()
        for i, v in sub.values.items():
            if i in sub.constants or v.dtype != np.float32 or not v.size:
                continue
            lo, hi = float(np.nanmin(v)), float(np.nanmax(v))
            if i in ranges:
                lo, hi = min(lo, ranges[i][0]), max(hi, ranges[i][1])
            ranges[i] = [lo, hi]
    return ranges


def quantize_model(model, samples, input_type, output_type):
    """The model dict `model` (float, as `schema.read_model` gives it) fully quantized.

    `samples` are the representative inputs: of its only subgraph, or, for a model of
    several signatures, ``(signature key, inputs by name)`` pairs, each signature's
    subgraph calibrated on its own; `input_type` and `output_type` the NumPy dtypes of its
    float inputs and outputs (float32, int8 or uint8).
    """
    signatures = model.get("signature_defs") or [None]
    samples = list(samples) if len(signatures) > 1 else samples
    for signature in signatures:
        index = signature["subgraph_index"] if signature else 0
        mine = samples
        if len(signatures) > 1:
            mine = [s for s in samples if isinstance(s, tuple) and len(s) == 2 and
                    s[0] == signature["signature_key"]]
        # (the inputs' names in the subgraph's order: a signature lists them by name)
        by_index = {int(m["tensor_index"]): m["name"] for m in signature["inputs"]} \
            if signature else {}
        names = [by_index[int(i)] for i in model["subgraphs"][index]["inputs"]] \
            if by_index else ()
        ranges = calibrate(model, mine, index, names)
        _Quantizer(model, index, ranges).run(np.dtype(input_type), np.dtype(output_type))
        _prune(model, index)
    return model


def _prune(model, index):
    """Leaves out of subgraph `index` the tensors no operator reads or writes (the float
    constants quantized copies replaced), and out of the model the buffers no tensor reads."""
    sub = model["subgraphs"][index]
    used = {int(i) for op in sub["operators"] for i in list(op["inputs"]) + list(op["outputs"])}
    used.update(int(i) for i in list(sub["inputs"]) + list(sub["outputs"]))
    new = {old: n for n, old in enumerate(sorted(used - {-1}))}
    sub["tensors"] = [sub["tensors"][old] for old in sorted(new)]
    for op in sub["operators"]:
        op["inputs"] = [new[int(i)] if int(i) >= 0 else -1 for i in op["inputs"]]
        op["outputs"] = [new[int(i)] for i in op["outputs"]]
    sub["inputs"] = [new[int(i)] for i in sub["inputs"]]
    sub["outputs"] = [new[int(i)] for i in sub["outputs"]]
    for signature in model.get("signature_defs") or []:
        if signature["subgraph_index"] == index:
            for m in list(signature["inputs"]) + list(signature["outputs"]):
                m["tensor_index"] = new[int(m["tensor_index"])]
    model["buffers"] = used_buffers(model["buffers"], model["subgraphs"])


class _Quantizer:
    """Rewrites one subgraph's operators and tensors for int8."""

    def __init__(self, model, index, ranges):
        self.model, self.sub = model, model["subgraphs"][index]
        self.tensors = self.sub["tensors"]
        self.ranges = ranges
        self.codes = model["operator_codes"]
        self.buffers = model["buffers"]
        self.float_of, self.int8_of = {}, {}   # activation -> its float / int8 tensor
        self.free = set()    # int8 tensors whose parameters only their range gave
        self.ops = []
        self.was_float = {i for i, t in enumerate(self.tensors) if t["type"] == _FLOAT}
        self.users = {}
        for op in self.sub["operators"]:
            for i in op["inputs"]:
                self.users[int(i)] = self.users.get(int(i), 0) + 1

    # -- tensors ---------------------------------------------------------------------------

    def constant(self, i):
        t = self.tensors[i]
        data = self.buffers[t["buffer"]]["data"] if t["buffer"] else None
        if data is None or not len(data):
            return None
        return np.frombuffer(data, schema.TENSOR_TYPES[t["type"]]).reshape(
            [int(d) for d in t["shape"]])

    def new_tensor(self, like, name, type_number, params=None, array=None):
        t = {k: v for k, v in self.tensors[like].items() if k != "quantization"}
        t.update(name=name, type=type_number, buffer=0, quantization=None)
        if array is not None:
            self.buffers.append({"data": np.ascontiguousarray(array).tobytes()})
            t["buffer"] = len(self.buffers) - 1
        self.tensors.append(t)
        i = len(self.tensors) - 1
        if params is not None:
            self.set_params(i, *params)
        return i

    def set_params(self, i, scales, zeros, axis=0):
        self.tensors[i]["quantization"] = {
            "scale": np.asarray(np.atleast_1d(scales), np.float32),
            "zero_point": np.asarray(np.atleast_1d(zeros), np.int64),
            "quantized_dimension": int(axis)}

    def params(self, i):
        q = self.tensors[i]["quantization"]
        return float(q["scale"][0]), int(q["zero_point"][0])

    def activation(self, i):
        """Whether tensor `i` is a float32 value computed at run time."""
        return i >= 0 and self.tensors[i]["type"] == _FLOAT and self.constant(i) is None

    def range_params(self, i):
        return params_of(*self.ranges.get(i, (0.0, 0.0)))

    def opcode(self, name):
        number = schema.OPERATORS[name]
        for n, code in enumerate(self.codes):
            if schema.operator_code(code) == number:
                return n
        self.codes.append({"deprecated_builtin_code":
                           min(number, schema.PLACEHOLDER_FOR_GREATER_OP_CODES),
                           "builtin_code": number, "version": 1})
        return len(self.codes) - 1

    def emit(self, name, inputs, outputs):
        self.ops.append({"opcode_index": self.opcode(name), "inputs": list(inputs),
                         "outputs": list(outputs)})

    def as_int8(self, i, params=None):
        """The int8 tensor of activation `i` (a QUANTIZE of its float one, made once)."""
        if i not in self.int8_of:
            scale, zero = self.wanted.get(i) or self.range_params(i) if params is None \
                else params
            q = self.new_tensor(i, "tfl.quantize", _I8, (scale, zero))
            self.emit("QUANTIZE", [self.float_of[i]], [q])
            self.int8_of[i] = q
        return self.int8_of[i]

    def as_float(self, i):
        """The float tensor of activation `i` (a DEQUANTIZE of its int8 one, made once)."""
        if i not in self.float_of:
            f = self.new_tensor(i, "tfl.dequantize", _FLOAT)
            self.emit("DEQUANTIZE", [self.int8_of[i]], [f])
            self.float_of[i] = f
        return self.float_of[i]

    def weights(self, i, axis):
        w = self.constant(i).astype(np.float32)
        moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
        top = np.abs(moved).max(axis=1) if moved.size else np.zeros(w.shape[axis], np.float32)
        scales = np.where(top > 0, top / np.float32(127), np.float32(1)).astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.clip(quantized._round(w / scales.reshape(shape)), -127, 127).astype(np.int8)
        return self.new_tensor(i, self.tensors[i]["name"], _I8,
                               (scales, np.zeros(len(scales), np.int64), axis), q), scales

    def bias(self, i, scales):
        b = self.constant(i).astype(np.float64)
        q = np.clip(quantized._round(b / scales.astype(np.float64)), -2 ** 31, 2 ** 31 - 1)
        return self.new_tensor(i, self.tensors[i]["name"], _I32,
                               (scales, np.zeros(len(scales), np.int64), 0),
                               q.astype(np.int32))

    def constant_int8(self, i):
        c = self.constant(i).astype(np.float32)
        scale, zero = params_of(c.min() if c.size else 0, c.max() if c.size else 0)
        q = np.clip(quantized._round(c / np.float32(scale)) + zero, -128, 127).astype(np.int8)
        return self.new_tensor(i, self.tensors[i]["name"], _I8, (scale, zero), q)

    # -- operators -------------------------------------------------------------------------

    def run(self, input_type, output_type):
        # (a concatenation's inputs are quantized with its parameters from the start, or
        # requantized to them right where they are computed, for every reader)
        self.wanted = {}
        for op in self.sub["operators"]:
            if schema.operator_name(self.codes[op["opcode_index"]]) == "CONCATENATION":
                for i in op["inputs"]:
                    self.wanted.setdefault(int(i), self.range_params(int(op["outputs"][0])))
        outputs = {int(i) for i in self.sub["outputs"]}
        for i in self.sub["inputs"]:
            i = int(i)
            if not self.activation(i):
                continue
            if input_type == np.float32:
                self.float_of[i] = i
                continue
            scale, zero = self.range_params(i)
            if input_type == np.int8:
                self.tensors[i]["type"] = _I8
                self.set_params(i, scale, zero)
                self.int8_of[i] = i
            else:   # (uint8: the same scale, the zero point 128 higher; QUANTIZE to int8)
                self.tensors[i]["type"] = _U8
                self.set_params(i, scale, zero + 128)
                q = self.new_tensor(i, "tfl.quantize", _I8, (scale, zero))
                self.emit("QUANTIZE", [i], [q])
                self.int8_of[i] = q
        for op in self.sub["operators"]:
            name = schema.operator_name(self.codes[op["opcode_index"]])
            ins, outs = [int(i) for i in op["inputs"]], [int(i) for i in op["outputs"]]
            floats = [i for i in ins + outs if i in self.was_float]
            if not floats:
                self.ops.append(op)
                for o in outs:
                    self.float_of[o] = o
                continue
            if name in _INT8:
                self.int8_operator(name, op, ins, outs)
                for o in set(outs) & set(self.wanted) - outputs:
                    if self.int8_of.get(o) == o and not _same(self.params(o), self.wanted[o]):
                        q = self.new_tensor(o, self.tensors[o]["name"] + "_requantized", _I8,
                                            self.wanted[o])
                        self.emit("QUANTIZE", [o], [q])
                        self.int8_of[o] = q
            else:
                op["inputs"] = [self.as_float(i) if i in self.int8_of or i in self.float_of
                                else i for i in ins]
                self.ops.append(op)
                for o in outs:
                    self.float_of[o] = o
        for i in self.sub["outputs"]:
            self.output(int(i), output_type)
        self.sub["operators"] = self.ops

    def int8_operator(self, name, op, ins, outs):
        new_ins, scales = [], None
        data, bias = _POSITIONS.get(name, (0, 2))
        for position in sorted(range(len(ins)), key=lambda n: n != data):  # (data first)
            i = ins[position]
            if i in self.int8_of:
                new_ins.append(self.int8_of[i])
            elif i < 0 or i not in self.was_float:
                new_ins.append(i)
            elif self.constant(i) is not None:
                if name in _WEIGHTS and position == 1:
                    w, w_scales = self.weights(i, _WEIGHTS[name])
                    x_scale = np.float32(self.params(new_ins[0])[0])
                    scales = (x_scale * w_scales).astype(np.float32)
                    new_ins.append(w)
                elif name in _WEIGHTS and position == bias:
                    new_ins.append(self.bias(i, scales))
                else:
                    new_ins.append(self.constant_int8(i))
            else:
                new_ins.append(self.as_int8(i))
        if data:   # (back in the operator's order)
            new_ins.insert(data, new_ins.pop(0))
        if name == "CONCATENATION":
            params = self.range_params(outs[0])
            new_ins = [self.retarget(i, params) for i in new_ins]
        for o in outs:
            if self.tensors[o]["type"] != _FLOAT:
                continue
            if name in _FIXED:
                params = _FIXED[name]
            elif name in _SAME:
                params = self.params(new_ins[_SAME[name]])
            else:
                params = self.wanted.get(o) or self.range_params(o)
                self.free.add(o)
            self.tensors[o]["type"] = _I8
            self.set_params(o, *params)
            self.int8_of[o] = o
        op["inputs"] = new_ins
        self.ops.append(op)

    def retarget(self, i, params):
        """Int8 tensor `i` with `params`: its own when only its range gave it parameters and
        the concatenation is its only reader, else a requantized copy."""
        if i < 0 or _same(self.params(i), params):
            return i
        if i in self.free and self.users.get(i, 0) == 1:
            self.set_params(i, *params)
            return i
        q = self.new_tensor(i, self.tensors[i]["name"] + "_requantized", _I8, params)
        self.emit("QUANTIZE", [i], [q])
        return q

    def output(self, i, output_type):
        """Graph output `i` in `output_type`, from its int8 or float tensor."""
        if i in self.int8_of and self.int8_of[i] == i:
            if output_type == np.int8:
                return
            inner = self.rename(i, self.tensors[i]["name"] + "1", _I8)
            if output_type == np.float32:
                self.tensors[i]["type"], self.tensors[i]["quantization"] = _FLOAT, None
                if i in self.float_of:   # (dequantized already for a float reader: that one)
                    self.replace(self.float_of[i], i)
                else:
                    self.emit("DEQUANTIZE", [inner], [i])
            else:
                scale, zero = self.params(inner)
                self.tensors[i]["type"] = _U8
                self.set_params(i, scale, zero + 128)
                self.emit("QUANTIZE", [inner], [i])
        elif i in self.float_of and self.tensors[i]["type"] == _FLOAT and \
                output_type != np.float32:
            scale, zero = self.range_params(i)
            inner = self.rename(i, self.tensors[i]["name"] + "1", _FLOAT)
            self.tensors[i]["type"] = _I8 if output_type == np.int8 else _U8
            self.set_params(i, scale, zero + (128 if output_type == np.uint8 else 0))
            self.emit("QUANTIZE", [inner], [i])

    def rename(self, i, name, type_number):
        """A new tensor taking `i`'s place in the operators so far; its index."""
        new = self.new_tensor(i, name, type_number)
        self.tensors[new]["quantization"] = self.tensors[i]["quantization"]
        self.replace(i, new)
        return new

    def replace(self, old, new):
        """Tensor `new` read and written where the operators so far had `old`."""
        for op in self.ops:
            op["inputs"] = [new if int(j) == old else int(j) for j in op["inputs"]]
            op["outputs"] = [new if int(j) == old else int(j) for j in op["outputs"]]
