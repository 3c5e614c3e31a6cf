"""Graph operations to TFLite builtin operators: one lowering rule per graph op type.

A `SubgraphBuilder` walks a traced function's optimized program (constants
folded, bias and activation fused) and asks `RULES[op.type]` to emit TFLite
operators for each operation; variables read by the function become constant
buffers. Operators nothing returned depends on are pruned at the end.

>>> cf = tf.function(lambda x: tf.nn.relu6(x + 1.0)).get_concrete_function(
...     tf.TensorSpec([None, 2], tf.float32))
>>> from eagerflow._src.lite.schema import read_model
>>> model = read_model(ModelBuilder().model([("x", cf, ["x"], ["y"])], signatures=False))
>>> [(model["operator_codes"][op["opcode_index"]]["builtin_code"],  # ADD, RELU6 fused
...   op["builtin_options"]["fused_activation_function"])
...  for op in model["subgraphs"][0]["operators"]]
[(0, 3)]
"""
import numpy as np

from eagerflow._src.graph.passes.constant_folding import fold_constants
from eagerflow._src.graph.passes.pipeline import optimize
from eagerflow._src.graph.passes.program import derive, rewrite
from eagerflow._src.lite import schema
from eagerflow._src.lite.interpreter import _Subgraph
from eagerflow._src.lite.kernels import registrar

RULES = {}
_ACTIVATIONS = {b"Relu": "RELU", b"Relu6": "RELU6"}  # (TFLite fuses no tanh into FC)
_UNFUSED = {b"Sigmoid": "LOGISTIC", b"Tanh": "TANH", b"Elu": "ELU"}


class ConversionError(Exception):
    """An operation no rule lowers (the converter raises TF's ``ConverterError`` for it)."""

    def __init__(self, op):
        super().__init__(op.type)
        self.op = op


rule = registrar(RULES)   # ``@rule("Conv2D", ...)``: the lowering of those graph ops


class ModelBuilder:
    """Buffers and operator codes shared by a model's subgraphs."""

    def __init__(self, quantize=False, float16=False):
        self.buffers = [{}]
        self.codes, self.code_index = [], {}
        self.quantize, self.float16 = quantize, float16

    def buffer(self, array):
        self.buffers.append({"data": np.ascontiguousarray(array).tobytes()})
        return len(self.buffers) - 1

    def opcode(self, name):
        if name not in self.code_index:
            number = schema.OPERATORS[name]
            self.code_index[name] = len(self.codes)
            self.codes.append({"deprecated_builtin_code":
                               min(number, schema.PLACEHOLDER_FOR_GREATER_OP_CODES),
                               "builtin_code": number, "version": 1})
        return self.code_index[name]

    def model(self, functions, signatures=True):
        """The ``.tflite`` bytes of `functions`: ``(signature key, concrete function,
        input names, output names)`` each, one subgraph each."""
        subgraphs, signature_defs = [], []
        for n, (key, concrete, in_names, out_names) in enumerate(functions):
            sub = SubgraphBuilder(self, concrete, key if signatures else None,
                                  in_names, out_names)
            subgraphs.append(sub.build())
            if sub.unknown:
                _infer_shapes(self, subgraphs, n)
            if signatures:
                signature_defs.append({
                    "inputs": [{"name": k, "tensor_index": i}
                               for k, i in zip(in_names, subgraphs[-1]["inputs"])],
                    "outputs": [{"name": k, "tensor_index": i}
                                for k, i in zip(out_names, subgraphs[-1]["outputs"])],
                    "signature_key": key, "subgraph_index": n})
        model = {"version": schema.SCHEMA_VERSION, "operator_codes": self.codes,
                 "subgraphs": subgraphs, "description": "MLIR Converted.",
                 "buffers": self._used_buffers(subgraphs)}
        if signature_defs:
            model["signature_defs"] = signature_defs
        return schema.write_model(model)


    def _used_buffers(self, subgraphs):
        """The buffers some tensor reads (the empty one first), tensors renumbered to them:
        constants that folding or float16 storage replaced are left out."""
        used = sorted({t["buffer"] for sub in subgraphs for t in sub["tensors"]} - {0})
        new = {old: n + 1 for n, old in enumerate(used)}
        for sub in subgraphs:
            for t in sub["tensors"]:
                t["buffer"] = new.get(t["buffer"], 0)
        return [{}] + [self.buffers[old] for old in used]


def _frozen(op):
    """A ``Const`` of the value a variable read gives now (for `rewrite`), else None."""
    if op.type != "ReadVariableOp" or not hasattr(op.inputs[0], "numpy"):
        return None
    t = op.outputs[0]
    const = derive(op, None, (), {"dtype": t.dtype}, type_name="Const",
                   value=np.asarray(op.inputs[0].numpy()), specs=[(t.shape, t.dtype)])
    return [const], list(const.outputs)


class SubgraphBuilder:
    """Lowers one concrete function into a ``SubGraph`` dict."""

    def __init__(self, model, concrete, key, in_names, out_names):
        self.model = model
        # (variables read become constants, and what follows from constants folds)
        self.program = fold_constants(rewrite(
            optimize(concrete.graph, concrete.inputs, concrete.outputs), _frozen))
        self.key, self.in_names, self.out_names = key, in_names, out_names
        self.tensors, self.operators = [], []
        self.index = {}     # id(graph tensor) -> TFLite tensor index
        self.known = {}     # id(graph tensor) -> its constant value
        self.unknown = []   # TFLite tensors of unknown shape
        self.producer = {}  # TFLite tensor -> the operator writing it
        self.gelu = {}      # id(erfc's output in a gelu) -> gelu's input
        self.users = self.program.users()

    # -- tensors -------------------------------------------------------------------------------

    def add_tensor(self, name, shape, dtype, buffer=0, signature=None):
        t = {"name": name, "shape": [int(d) for d in shape],
             "type": schema.TYPE_NUMBERS[np.dtype(dtype)], "buffer": buffer}
        if signature is not None and any(d == -1 for d in signature):
            t["shape_signature"] = [int(d) for d in signature]
        self.tensors.append(t)
        return len(self.tensors) - 1

    def const(self, array, name):
        array = np.asarray(array)
        return self.add_tensor(name, array.shape, array.dtype, self.model.buffer(array))

    def result(self, t, name=None):
        """A new TFLite tensor for the graph tensor `t` (an operation's output)."""
        dims = [-1 if d is None else d for d in t.shape.as_list()] if t.shape.rank is not None \
            else None   # (a loaded function's graph may not know it: found by running)
        i = self.add_tensor(name or t.op.name, [1 if d == -1 else d for d in dims or ()],
                            t.dtype.as_numpy_dtype, signature=dims)
        if dims is None or -1 in dims[1:]:
            self.unknown.append(i)
        self.index[id(t)] = i
        return i

    def scratch(self, like, suffix):
        """A new intermediate tensor shaped like the graph tensor `like`."""
        i = self.result(like, like.op.name + suffix)
        del self.index[id(like)]
        return i

    def constant_of(self, i):
        """The array of constant TFLite tensor `i`, or None when it is computed."""
        t = self.tensors[i]
        if not t["buffer"]:
            return None
        return np.frombuffer(self.model.buffers[t["buffer"]]["data"],
                             schema.TENSOR_TYPES[t["type"]]).reshape(t["shape"])

    def value(self, t):
        """The constant value of graph tensor `t`, or None."""
        if id(t) not in self.known and getattr(t, "op", None) is not None:
            if t.op.type == "Const":
                self.known[id(t)] = np.asarray(t.op.value)
            elif t.op.type == "ReadVariableOp":
                self.known[id(t)] = np.asarray(t.op.inputs[0].numpy())
        return self.known.get(id(t))

    def input(self, t):
        """The TFLite tensor index of graph tensor `t` (constants on first use)."""
        if id(t) not in self.index:
            value = self.value(t)
            if value is None:
                raise ConversionError(t.op)
            self.index[id(t)] = self.const(value, t.op.name)
        return self.index[id(t)]

    def emit(self, name, inputs, outputs, options=None, **fields):
        op = {"opcode_index": self.model.opcode(name), "inputs": list(inputs),
              "outputs": list(outputs)}
        if options is not None:
            op["builtin_options_type"] = schema.OPTION_NUMBERS[options]
            op["builtin_options"] = fields
        op["name"] = name
        self.operators.append(op)
        for i in op["outputs"]:
            self.producer[i] = op
        return op

    def fusible(self, t, names):
        """The TFLite operator (one of `names`) producing graph tensor `t` when nothing else
        reads `t` and the operator has no fused activation yet, else None."""
        op = self.producer.get(self.index.get(id(t)))
        if op is None or op["name"] not in names or len(self.users.get(id(t), ())) != 1 or \
                op["builtin_options"].get("fused_activation_function", 0):
            return None
        return op

    def alias(self, t, op, out):
        """Makes graph tensor `out` the result of `op` (which produced `t`)."""
        i = self.index[id(t)]
        self.index[id(out)] = i
        self.tensors[i]["name"] = out.op.name

    # -- building ------------------------------------------------------------------------------

    def build(self):
        program = self.program
        for n, t in enumerate(program.inputs):
            name = self.in_names[n]
            self.result(t, f"{self.key}_{name}:0" if self.key else name)
        for op in program.operations:
            if op.type == "Placeholder":
                continue
            if op.type in ("Const", "ReadVariableOp"):
                continue  # (their values are taken where used)
            lower = RULES.get(op.type)
            if lower is None:
                raise ConversionError(op)
            lower(self, op)
        outputs = []
        for n, t in enumerate(program.outputs):
            if id(t) not in self.index or self.index[id(t)] in outputs or \
                    self.index[id(t)] in self.program_inputs():
                # (an output that is a constant, an input or another output: copied)
                src = self.input(t)
                shape = np.int32([-1 if d is None else d for d in t.shape.as_list()])
                self.emit("RESHAPE", [src, self.const(shape, t.op.name + "/shape")],
                          [self.result(t)])
            i = self.index[id(t)]
            self.tensors[i]["name"] = (f"StatefulPartitionedCall:{n}" if self.key
                                       else self.out_names[n])
            outputs.append(i)
        if self.model.float16:
            self._half_constants()
        return self._pruned([self.index[id(t)] for t in program.inputs], outputs)

    def _half_constants(self):
        """Float constants stored as float16, DEQUANTIZE operators first making them float32
        (TF's float16 quantization)."""
        halves, ops = {}, self.operators
        self.operators = []
        for op in ops:
            for n, i in enumerate(op["inputs"]):
                array = self.constant_of(i) if i >= 0 else None
                if array is None or array.dtype != np.float32:
                    continue
                if i not in halves:
                    t = self.tensors[i]
                    half = self.const(array.astype(np.float16), t["name"])
                    halves[i] = self.add_tensor(t["name"] + "_dequantized", t["shape"],
                                                np.float32)
                    self.emit("DEQUANTIZE", [half], [halves[i]])
                op["inputs"][n] = halves[i]
        self.operators += ops

    def program_inputs(self):
        return [self.index[id(t)] for t in self.program.inputs]

    def _pruned(self, inputs, outputs):
        """The subgraph with only the operators the outputs need, tensors renumbered."""
        needed, kept = set(outputs), []
        for op in reversed(self.operators):
            if needed.intersection(op["outputs"]):
                kept.append(op)
                needed.update(i for i in op["inputs"] if i >= 0)
        kept.reverse()
        for op in kept:
            op.pop("name", None)
        used = sorted(needed.union(inputs))
        new = {old: n for n, old in enumerate(used)}
        for op in kept:
            op["inputs"] = [new[i] if i >= 0 else -1 for i in op["inputs"]]
            op["outputs"] = [new[i] for i in op["outputs"]]
        return {"tensors": [self.tensors[i] for i in used],
                "inputs": [new[i] for i in inputs], "outputs": [new[i] for i in outputs],
                "operators": kept, "name": "main"}


def _infer_shapes(builder, subgraphs, n):
    """Gives the tensors of subgraph `n` the shapes running it finds: with its unknown
    input dimensions 1, then 2 (those that change are unknown in ``shape_signature``)."""
    model = schema.read_model(schema.write_model({
        "subgraphs": subgraphs, "operator_codes": builder.codes, "buffers": builder.buffers}))
    tensors = subgraphs[n]["tensors"]
    found = []
    for batch in (1, 2):
        sub = _Subgraph(model, n)
        for i in sub.inputs:
            signature = tensors[i].get("shape_signature", tensors[i]["shape"])
            sub.shapes[i] = np.int32([batch if d == -1 else d for d in signature])
        sub.resized = True
        sub.allocate()
        found.append(sub.shapes)
    for i, t in enumerate(tensors):
        if t["buffer"]:
            continue
        one, two = found[0][i], found[1][i]
        t["shape"] = [int(d) for d in one]
        signature = [-1 if a != b else int(a) for a, b in zip(one, two)]
        t.pop("shape_signature", None)
        if -1 in signature:
            t["shape_signature"] = signature


# -- rules ------------------------------------------------------------------------------------

def _activation(sub, op, fused_ops):
    """(fused activation code, op name to apply after) of a fused op's trailing activation."""
    tail = [f for f in fused_ops if f != b"BiasAdd"]
    if not tail:
        return 0, None
    if len(tail) == 1 and tail[0] in _ACTIVATIONS:
        return schema.ACTIVATIONS[_ACTIVATIONS[tail[0]]], None
    if len(tail) == 1 and tail[0] in _UNFUSED and _UNFUSED[tail[0]] in schema.OPERATORS:
        return 0, _UNFUSED[tail[0]]
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
        sub.emit(after, [mid], [sub.result(out)])


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
    """A constant weights tensor: int8 with per-channel scales along `axis` when the model
    is quantized (dynamic range) and the weights are large enough, else float."""
    array = np.ascontiguousarray(array)
    if not sub.model.quantize or array.dtype != np.float32 or array.size < 1024:
        return sub.const(array, name)
    moved = np.moveaxis(array, axis, 0).reshape(array.shape[axis], -1)
    scales = np.abs(moved).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    shape = [1] * array.ndim
    shape[axis] = -1
    q = np.clip(np.round(array / scales.reshape(shape)), -127, 127).astype(np.int8)
    i = sub.const(q, name)
    sub.tensors[i]["quantization"] = {"scale": scales.astype(np.float32),
                                      "zero_point": np.zeros(len(scales), np.int64),
                                      "quantized_dimension": axis}
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


@rule("DepthwiseConv2dNative")
def _depthwise(sub, op):
    x, f = op.inputs
    w = sub.value(f)
    if w is None:
        raise ConversionError(op)
    h, wd, c, m = w.shape
    ins = [sub.input(x), _weights(sub, w.reshape(1, h, wd, c * m), op.name + "/filter", 3),
           sub.const(np.zeros([c * m], w.dtype), op.name + "_bias")]
    sub.emit("DEPTHWISE_CONV_2D", ins, [sub.result(op.outputs[0])], "DepthwiseConv2DOptions",
             depth_multiplier=int(m), **_conv_options(op))


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
           "SelectV2": ("SELECT_V2", None)}


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
    if op.attrs.get("axis", -1) not in (-1, op.inputs[0].shape.rank - 1):
        raise ConversionError(op)
    if op.type == "Softmax":
        sub.emit("SOFTMAX", [sub.input(op.inputs[0])], [sub.result(op.outputs[0])],
                 "SoftmaxOptions", beta=1.0)
    else:
        sub.emit("LOG_SOFTMAX", [sub.input(op.inputs[0])], [sub.result(op.outputs[0])],
                 "LogSoftmaxOptions")


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


_REDUCERS = {"Mean": "MEAN", "Sum": "SUM", "Max": "REDUCE_MAX", "Min": "REDUCE_MIN",
             "Prod": "REDUCE_PROD"}


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


@rule("ArgMax")
def _arg_max(sub, op):
    out = op.outputs[0]
    sub.emit("ARG_MAX", [sub.input(op.inputs[0]), _operand(sub, op, 1, "axis")],
             [sub.result(out)], "ArgMaxOptions",
             output_type=schema.TYPE_NUMBERS[np.dtype(out.dtype.as_numpy_dtype)])


@rule("Pack")
def _pack(sub, op):
    sub.emit("PACK", [sub.input(t) for t in op.inputs], [sub.result(op.outputs[0])],
             "PackOptions", values_count=len(op.inputs), axis=int(op.attrs.get("axis", 0)))


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
    if any(v is None for v in values) or op.attrs.get("data_format", "NHWC") != "NHWC":
        raise ConversionError(op)
    scale, offset, mean, variance = values
    multiplier = (scale / np.sqrt(variance + np.float32(op.attrs["epsilon"]))).astype(np.float32)
    shift = (offset - mean * multiplier).astype(np.float32)
    if _fold_scale(sub, x, op.outputs[0], multiplier, shift):
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
