"""Graph operations to TFLite builtin operators: one lowering rule per graph op type.

A `SubgraphBuilder` walks a traced function's optimized program (constants
folded, bias and activation fused) and asks `RULES[op.type]` (from `rules` and
`composite_rules`) to emit TFLite operators for each operation; variables read
by the function become constant buffers. Operators nothing returned depends on
are pruned at the end.

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

from eagerflow._src.core import context
from eagerflow._src.core.node_forms import tf_nodes
from eagerflow._src.graph.graph import Graph
from eagerflow._src.graph.passes.constant_folding import fold_constants
from eagerflow._src.graph.passes.pipeline import optimize
from eagerflow._src.graph.passes.program import Program, derive, rewrite
from eagerflow._src.lite import composite_rules, schema  # noqa: F401 (registers its rules)
from eagerflow._src.lite.interpreter import _Subgraph
from eagerflow._src.lite.rules import RULES, UNKNOWN_BATCH, ConversionError

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
        input names, output names[, order])`` each, one subgraph each; `order`, the
        positions of the function's outputs in the order the subgraph lists them (a Keras
        model's own order of its outputs)."""
        subgraphs, signature_defs = [], []
        for n, (key, concrete, in_names, out_names, *order) in enumerate(functions):
            order = list(order[0]) if order else list(range(len(out_names)))
            sub = SubgraphBuilder(self, concrete, key if signatures else None,
                                  in_names, out_names, order)
            subgraphs.append(sub.build())
            if sub.unknown:
                _infer_shapes(self, subgraphs, n)
            if signatures:   # (by name, as TF's converter lists them)
                outputs = dict(zip(order, subgraphs[-1]["outputs"]))
                signature_defs.append({
                    "inputs": sorted(({"name": k, "tensor_index": i}
                                      for k, i in zip(in_names, subgraphs[-1]["inputs"])),
                                     key=lambda m: m["name"]),
                    "outputs": sorted(({"name": k, "tensor_index": outputs[p]}
                                       for p, k in enumerate(out_names)),
                                      key=lambda m: m["name"]),
                    "signature_key": key, "subgraph_index": n})
        model = {"version": schema.SCHEMA_VERSION, "operator_codes": self.codes,
                 "subgraphs": subgraphs, "description": "MLIR Converted.",
                 "buffers": used_buffers(self.buffers, subgraphs)}
        if signature_defs:
            model["signature_defs"] = signature_defs
        return schema.write_model(model)


def used_buffers(buffers, subgraphs):
    """The `buffers` some tensor of `subgraphs` reads (the empty one first), tensors
    renumbered to them: constants that folding, float16 storage or quantization replaced
    are left out."""
    used = sorted({int(t["buffer"]) for sub in subgraphs for t in sub["tensors"]} - {0})
    new = {old: n + 1 for n, old in enumerate(used)}
    for sub in subgraphs:
        for t in sub["tensors"]:
            t["buffer"] = new.get(int(t["buffer"]), 0)
    return [{}] + [buffers[old] for old in used]


def _frozen(op):
    """A ``Const`` of the value a variable read gives now (for `rewrite`), else None."""
    if op.type != "ReadVariableOp" or not hasattr(op.inputs[0], "numpy"):
        return None
    t = op.outputs[0]
    const = derive(op, None, (), {"dtype": t.dtype}, type_name="Const",
                   value=np.asarray(op.inputs[0].numpy()), specs=[(t.shape, t.dtype)])
    return [const], list(const.outputs)


def _unfused(op):
    """The operations of a fused GRU or SimpleRNN (``_FusedRNN``, which no TFLite operator
    runs: TF's converter writes these layers' steps) and the tensors of its outputs: its
    steps as ops TF has (the form a GraphDef holds), reading `op`'s inputs. None for other
    operations, and for a batch of unknown size (TF's converter needs one)."""
    if op.type != "_FusedRNN" or op.attrs.get("mode") == "lstm":
        return None
    x = op.inputs[0]
    if x.shape.rank != 3 or x.shape[1 if op.attrs.get("time_major") else 0] is None:
        raise ConversionError(op, UNKNOWN_BATCH)
    graph = Graph(f"{op.name}_steps")
    with context.building(graph), graph.name_scope(op.name):
        args = [graph.placeholder(t.dtype, t.shape, f"arg{i}") for i, t in enumerate(op.inputs)]
        outputs = list(tf_nodes.get(op.op_def).lower(args, dict(op.attrs)))
    fed = {id(a.op): t for a, t in zip(args, op.inputs)}
    steps = rewrite(Program.from_graph(graph, args, outputs),
                    lambda o: ((), [fed[id(o)]]) if id(o) in fed else None)
    return steps.operations, steps.outputs


def _prepared(op):
    """What stands in for `op` before lowering (see `rewrite`): a variable read's value,
    a fused GRU's or SimpleRNN's steps, or None (kept)."""
    return _frozen(op) or _unfused(op)


class SubgraphBuilder:
    """Lowers one concrete function into a ``SubGraph`` dict."""

    def __init__(self, model, concrete, key, in_names, out_names, order=None):
        self.model = model
        program = optimize(concrete.graph, concrete._inputs, concrete.outputs)
        # (TF's signature calls a function reading variables with StatefulPartitionedCall)
        self.call = "StatefulPartitionedCall" if any(
            op.type == "ReadVariableOp" for op in program.operations) else "PartitionedCall"
        # (variables read become constants, and what follows from constants folds)
        # (and fused GRUs and SimpleRNNs become their steps)
        self.program = fold_constants(rewrite(program, _prepared))
        self.key, self.in_names, self.out_names = key, in_names, out_names
        self.order = list(range(len(out_names))) if order is None else order
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
             "type": schema.STRING if np.dtype(dtype) == object else
             schema.TYPE_NUMBERS[np.dtype(dtype)], "buffer": buffer}
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
        inputs = self.program_inputs()
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
        for n in self.order:
            t = program.outputs[n]
            if id(t) not in self.index or self.index[id(t)] in outputs or \
                    self.index[id(t)] in inputs:
                # (an output that is a constant, an input or another output: copied)
                src = self.input(t)
                shape = np.int32([-1 if d is None else d for d in t.shape.as_list()])
                self.emit("RESHAPE", [src, self.const(shape, t.op.name + "/shape")],
                          [self.result(t)])
            i = self.index[id(t)]
            self.tensors[i]["name"] = (f"{self.call}:{n}" if self.key
                                       else self.out_names[n])
            outputs.append(i)
        if self.model.float16:
            self._half_constants()
        return self._pruned(inputs, outputs)

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
                needed.update(op["outputs"])   # (those nothing reads too: it writes them)
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
