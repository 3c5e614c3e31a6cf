"""TF 1's model analyzer (``tf.compat.v1.profiler``): the float operations and parameters of a
graph, counted from its static shapes the way TF counts them, as ``GraphNodeProto`` (the
``scope`` view) or ``MultiGraphNodeProto`` (the ``op`` view) trees, and the report TF prints.

>>> import eagerflow as tf
>>> g = tf.Graph()
>>> with g.as_default():
...     _ = tf.matmul(tf.ones([2, 3]), tf.ones([3, 4]))
>>> builder = tf.compat.v1.profiler.ProfileOptionBuilder
>>> opts = builder(builder.float_operation()).with_empty_output().build()
>>> tf.compat.v1.profiler.profile(g, options=opts).total_float_ops
48
"""
import copy
import math
import re
import sys

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import errors
from eagerflow._src.core.protos import framework  # noqa: F401 (TensorShapeProto first)
from eagerflow._src.core.protos.schema import build

_classes = build("tensorflow/core/profiler/tfprof_output.proto", """
    package tensorflow.tfprof;
    message GraphNodeProto {
      string name = 1;
      int64 run_count = 21;
      int64 exec_micros = 2;
      int64 accelerator_exec_micros = 17;
      int64 cpu_exec_micros = 18;
      int64 requested_bytes = 3;
      int64 peak_bytes = 24;
      int64 residual_bytes = 25;
      int64 output_bytes = 26;
      int64 parameters = 4;
      int64 float_ops = 13;
      repeated string devices = 10;
      int64 total_definition_count = 23;
      int64 total_run_count = 22;
      int64 total_exec_micros = 6;
      int64 total_accelerator_exec_micros = 19;
      int64 total_cpu_exec_micros = 20;
      int64 total_requested_bytes = 7;
      int64 total_peak_bytes = 27;
      int64 total_residual_bytes = 28;
      int64 total_output_bytes = 29;
      int64 total_parameters = 8;
      int64 total_float_ops = 14;
      repeated TensorShapeProto shapes = 11;
      map<int32, TensorShapeProto> input_shapes = 16;
      repeated GraphNodeProto children = 12;
    }
    message MultiGraphNodeProto {
      string name = 1;
      int64 exec_micros = 2;
      int64 accelerator_exec_micros = 12;
      int64 cpu_exec_micros = 13;
      int64 requested_bytes = 3;
      int64 peak_bytes = 16;
      int64 residual_bytes = 17;
      int64 output_bytes = 18;
      int64 parameters = 4;
      int64 float_ops = 5;
      int64 total_exec_micros = 6;
      int64 total_accelerator_exec_micros = 14;
      int64 total_cpu_exec_micros = 15;
      int64 total_requested_bytes = 7;
      int64 total_peak_bytes = 19;
      int64 total_residual_bytes = 20;
      int64 total_output_bytes = 21;
      int64 total_parameters = 8;
      int64 total_float_ops = 9;
      repeated GraphNodeProto graph_nodes = 10;
      repeated MultiGraphNodeProto children = 11;
    }
    message AdviceProto {
      message Checker { repeated string reports = 2; }
      map<string, Checker> checkers = 1;
    }
""")
_classes.update(build("tensorflow/core/profiler/tfprof_log.proto", """
    package tensorflow.tfprof;
    message OpLogEntry {
      string name = 1;
      int64 float_ops = 2;
      repeated string types = 3;
    }
    message OpLogProto {
      repeated OpLogEntry log_entries = 1;
      map<int64, string> id_to_string = 2;
    }
"""))
for _cls in ("GraphNodeProto", "MultiGraphNodeProto", "AdviceProto", "OpLogProto"):
    _classes[_cls].__module__ = "eagerflow.compat.v1.profiler"
GraphNodeProto = export("compat.v1.profiler.GraphNodeProto")(_classes["GraphNodeProto"])
MultiGraphNodeProto = export("compat.v1.profiler.MultiGraphNodeProto")(
    _classes["MultiGraphNodeProto"])
AdviceProto = export("compat.v1.profiler.AdviceProto")(_classes["AdviceProto"])
OpLogProto = export("compat.v1.profiler.OpLogProto")(_classes["OpLogProto"])

_ALL_OPTIONS = ("max_depth", "min_bytes", "min_peak_bytes", "min_residual_bytes",
                "min_output_bytes", "min_micros", "min_accelerator_micros", "min_cpu_micros",
                "min_params", "min_float_ops", "min_occurrence", "step", "order_by",
                "account_type_regexes", "start_name_regexes", "trim_name_regexes",
                "show_name_regexes", "hide_name_regexes", "account_displayed_op_only", "select",
                "output")


def _base_options(**changes):
    opts = {"max_depth": 10000, "min_bytes": 0, "min_micros": 0, "min_params": 0,
            "min_float_ops": 0, "min_occurrence": 0, "order_by": "name",
            "account_type_regexes": [".*"], "start_name_regexes": [".*"],
            "trim_name_regexes": [], "show_name_regexes": [".*"], "hide_name_regexes": [],
            "account_displayed_op_only": True, "select": [], "step": -1, "output": "stdout"}
    opts.update(changes)
    return opts


@export("compat.v1.profiler.ProfileOptionBuilder")
class ProfileOptionBuilder:
    """Builds the options dict `profile` takes; the static methods give the usual ones.

    >>> ProfileOptionBuilder.float_operation()["select"]
    ['float_ops']
    """

    def __init__(self, options=None):
        if options is None:  # TF's starting point: every node's time, 100 levels deep
            options = _base_options(max_depth=100, account_displayed_op_only=False,
                                    select=["micros"])
        self._options = copy.deepcopy(options)

    @staticmethod
    def trainable_variables_parameter():
        """Counts the parameters of trainable variables, by scope."""
        return _base_options(account_type_regexes=["_trainable_variables"], select=["params"])

    @staticmethod
    def float_operation():
        """Counts the float operations of the ops TF has a formula for."""
        return _base_options(min_float_ops=1, order_by="float_ops", select=["float_ops"])

    @staticmethod
    def time_and_memory(min_micros=1, min_bytes=1, min_accelerator_micros=0,
                        min_cpu_micros=0, min_peak_bytes=0, min_residual_bytes=0,
                        min_output_bytes=0):
        """Time and memory (nothing is measured here: a graph is not run)."""
        opts = _base_options(min_bytes=min_bytes, min_micros=min_micros, order_by="micros",
                             select=["micros", "bytes"])
        opts.update(min_peak_bytes=min_peak_bytes, min_residual_bytes=min_residual_bytes,
                    min_output_bytes=min_output_bytes, min_accelerator_micros=min_accelerator_micros,
                    min_cpu_micros=min_cpu_micros)
        return {k: opts[k] for k in ("max_depth", "min_bytes", "min_peak_bytes",
                                      "min_residual_bytes", "min_output_bytes", "min_micros",
                                      "min_accelerator_micros", "min_cpu_micros", "min_params",
                                      "min_float_ops", "min_occurrence", "order_by",
                                      "account_type_regexes", "start_name_regexes",
                                      "trim_name_regexes", "show_name_regexes",
                                      "hide_name_regexes", "account_displayed_op_only",
                                      "select", "step", "output")}

    def build(self):
        """The options dict."""
        return copy.deepcopy(self._options)

    def _set(self, **changes):
        self._options.update(changes)
        return self

    def with_max_depth(self, max_depth):
        return self._set(max_depth=max_depth)

    def with_min_memory(self, min_bytes=0, min_peak_bytes=0, min_residual_bytes=0,
                        min_output_bytes=0):
        return self._set(min_bytes=min_bytes, min_peak_bytes=min_peak_bytes,
                         min_residual_bytes=min_residual_bytes, min_output_bytes=min_output_bytes)

    def with_min_execution_time(self, min_micros=0, min_accelerator_micros=0, min_cpu_micros=0):
        return self._set(min_micros=min_micros, min_accelerator_micros=min_accelerator_micros,
                         min_cpu_micros=min_cpu_micros)

    def with_min_parameters(self, min_params):
        return self._set(min_params=min_params)

    def with_min_occurrence(self, min_occurrence):
        return self._set(min_occurrence=min_occurrence)

    def with_min_float_operations(self, min_float_ops):
        return self._set(min_float_ops=min_float_ops)

    def with_accounted_types(self, account_type_regexes):
        return self._set(account_type_regexes=list(account_type_regexes))

    def with_node_names(self, start_name_regexes=None, show_name_regexes=None,
                        hide_name_regexes=None, trim_name_regexes=None):
        for key, value in (("start_name_regexes", start_name_regexes),
                           ("show_name_regexes", show_name_regexes),
                           ("hide_name_regexes", hide_name_regexes),
                           ("trim_name_regexes", trim_name_regexes)):
            if value is not None:
                self._options[key] = list(value)
        return self

    def account_displayed_op_only(self, is_true):
        return self._set(account_displayed_op_only=is_true)

    def with_empty_output(self):
        return self._set(output="none")

    def with_stdout_output(self):
        return self._set(output="stdout")

    def with_file_output(self, outfile):
        return self._set(output="file:outfile=%s" % outfile)

    def with_timeline_output(self, timeline_file):
        return self._set(output="timeline:outfile=%s" % timeline_file)

    def with_pprof_output(self, pprof_file):
        return self._set(output="pprof:outfile=%s" % pprof_file)

    def order_by(self, attribute):
        return self._set(order_by=attribute)

    def select(self, attributes):
        return self._set(select=list(attributes))

    def with_step(self, step):
        return self._set(step=step)


# ---- float operations, from static shapes ----------------------------------------------------

def _dims(tensor):
    shape = tensor.shape
    if shape.rank is None:
        return None
    dims = shape.as_list()
    return None if any(d is None for d in dims) else dims


def _count(tensor):
    dims = _dims(tensor)
    if dims is None:
        raise ValueError("incomplete shape")
    return math.prod(dims)


def _attr(op, name, default=None):
    try:
        return op.get_attr(name)
    except Exception:  # noqa: BLE001 (an attr the op does not have)
        return default


def _kernel_area(op):
    return math.prod(_attr(op, "ksize"))  # the batch and depth entries are 1


def _conv(op):
    return 2 * _count(op.outputs[0]) * math.prod(_dims(op.inputs[1])[:-1])


def _flops(op):
    """TF's float-op count of `op`: 0 where TF has no formula, None where a shape it needs is
    unknown."""
    kind = op.type
    try:
        if kind in _ELEMENTWISE_OUT:
            return _count(op.outputs[0])
        if kind in _UNARY:
            return _count(op.inputs[0])
        if kind in ("Rsqrt", "SquaredDifference"):
            return 2 * _count(op.outputs[0])
        if kind == "RsqrtGrad":
            return 4 * _count(op.outputs[0])
        if kind == "AddN":
            return (len(op.inputs) - 1) * _count(op.outputs[0])
        if kind in ("ArgMax", "ArgMin", "Sum", "BiasAddGrad"):
            return _count(op.inputs[0]) - _count(op.outputs[0])
        if kind == "Mean":
            return _count(op.inputs[0])
        if kind == "L2Loss":
            return 3 * _count(op.inputs[0]) - 1
        if kind == "Softmax":
            return 5 * _count(op.outputs[0])
        if kind == "MatMul":
            a = _dims(op.inputs[0])
            return 2 * _count(op.outputs[0]) * (a[-2] if _attr(op, "transpose_a") else a[-1])
        if kind in ("BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"):
            # TF takes the inner size from x's last dimension, adjoint or not
            return 2 * _count(op.outputs[0]) * _dims(op.inputs[0])[-1]
        if kind in ("Conv2D", "Conv3D"):
            return _conv(op)
        # (a backprop's sizes are attrs here, not inputs: its gradient is the last input)
        if kind == "Conv2DBackpropInput":
            return 2 * _count(op.inputs[-1]) * math.prod(_dims(op.inputs[-2])[:-1])
        if kind == "Conv2DBackpropFilter":
            return 2 * _count(op.inputs[-1]) * math.prod(_dims(op.outputs[0])[:-1])
        if kind == "Dilation2D":
            return 2 * _count(op.outputs[0]) * math.prod(_dims(op.inputs[1])[:2])
        if kind == "DepthwiseConv2dNative":
            return 2 * _count(op.outputs[0]) * math.prod(_dims(op.inputs[1])[:2])
        if kind in ("MaxPool", "AvgPool"):
            if str(_attr(op, "data_format", "NHWC")).startswith(("NC", "b'NC")):
                return None  # TF cannot count these: it takes their shapes as unknown
            return _kernel_area(op) * _count(op.outputs[0])
        if kind == "AvgPoolGrad":
            return 2 * _kernel_area(op) * _count(op.inputs[-1])
        if kind == "MaxPoolGrad":
            return _count(op.inputs[0]) + _count(op.inputs[1])
    except (ValueError, TypeError, IndexError):
        return None
    return 0


_ELEMENTWISE_OUT = frozenset((
    "Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Pow", "BiasAdd",
    "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"))
_UNARY = frozenset(("Neg", "Square", "Log", "Reciprocal", "AssignSub", "AssignAdd"))

_VARIABLE_OPS = frozenset(("VariableV2", "Variable", "VarHandleOp", "VariableV1"))


# ---- the node tree ---------------------------------------------------------------------------

class _Node:
    __slots__ = ("name", "op", "types", "float_ops", "parameters", "children", "shape")

    def __init__(self, name, op=None):
        self.name, self.op, self.children = name, op, []
        self.types, self.float_ops, self.parameters, self.shape = [], 0, 0, None


def _graph_nodes(graph, run_meta=None):
    # Only trainable variables get a type of their own: TF marks resource variables with
    # `_trainable_variables` but not `_variables`.
    trainable = {getattr(v, "op", v).name for v in graph.get_collection("trainable_variables")}
    nodes = {}
    missing = 0
    for op in graph.get_operations():
        node = _Node(op.name, op)
        node.types = [op.type]
        if op.name in trainable:
            node.types.append("_trainable_variables")
        node.float_ops = _flops(op)
        if node.float_ops is None:
            missing += 1
            node.float_ops = 0
        if op.type in _VARIABLE_OPS:
            shape = _attr(op, "shape")
            dims = None if shape is None else _shape_dims(shape)
            if dims is not None:
                node.shape = dims
                node.parameters = math.prod(dims)
        nodes[op.name] = node
    # A variable's handle op stands outside the graph's op list here: add it from the
    # collections, with its shape as its parameters.
    for collection in ("variables", "trainable_variables"):
        for var in graph.get_collection(collection):
            op = getattr(var, "op", None)
            if op is None or op.name in nodes:
                continue
            node = _Node(op.name, op)
            node.types = [op.type]
            if op.name in trainable:
                node.types.append("_trainable_variables")
            dims = _shape_dims(var.shape)
            if dims is not None:
                node.shape, node.parameters = dims, math.prod(dims)
            nodes[op.name] = node
    if missing and run_meta is None:
        sys.stderr.write("%d ops no flops stats due to incomplete shapes.\n" % missing)
    return nodes


def _shape_dims(shape):
    if hasattr(shape, "as_list"):
        if shape.rank is None:
            return None
        dims = shape.as_list()
    else:
        dims = list(shape)
    return None if any(d is None or d < 0 for d in dims) else dims


def _matches(regexes, text):
    return any(re.fullmatch(r, text) for r in regexes)


class _Options:
    def __init__(self, options):
        self.opts = _base_options()
        self.opts.update(options)

    def __getattr__(self, name):
        return self.opts.get(name, 0)

    @property
    def select(self):
        return sorted(set(self.opts.get("select", ())))


def _accounted(node, opts):
    return any(_matches(opts.account_type_regexes, t) for t in node.types)


def _accounts_below(node, opts):
    return any((c.op is not None and _accounted(c, opts)) or _accounts_below(c, opts)
               for c in node.children)


def _passes(node, opts, started):
    """Whether `node` is displayed; `started`: whether it or a scope above it matches the
    start regexes."""
    if not started:
        return False
    if node.op is not None and not _accounted(node, opts):
        return False
    if node.op is None and not _accounts_below(node, opts):  # a scope of nothing counted
        return False
    if node.float_ops < opts.min_float_ops or node.parameters < opts.min_params:
        return False
    if opts.min_bytes > 0 or opts.min_micros > 0:  # nothing is measured without a run
        return False
    if not _matches(opts.show_name_regexes, node.name):
        return False
    return not _matches(opts.hide_name_regexes, node.name)


def _sort_key(opts, prefix=""):
    """Rows sort by name, or by their counts (a scope's totals, an op type's own) descending."""
    order = opts.order_by
    if order == "float_ops":
        return lambda n: (-n[1][prefix + "float_ops"], n[0])
    if order == "params":
        return lambda n: (-n[1][prefix + "parameters"], n[0])
    return lambda n: n[0]


def _scope_tree(nodes):
    root = _Node("_TFProfRoot")
    by_name = {}
    for name in sorted(nodes):
        parts = name.split("/")
        parent = root
        for i in range(1, len(parts) + 1):
            prefix = "/".join(parts[:i])
            node = by_name.get(prefix)
            if node is None:
                node = nodes.get(prefix) if i == len(parts) else nodes.get(prefix, None)
                node = node if node is not None else _Node(prefix)
                by_name[prefix] = node
                parent.children.append(node)
            parent = node
    return root


def _graph_tree(nodes):
    """The `graph` view's tree: ops nobody consumes under the root, each op's inputs under it;
    an op shared by several consumers stays under the first one reached (names in order)."""
    copies = {}
    for name, node in nodes.items():
        copy_ = copies[name] = _Node(name, node.op)
        copy_.types, copy_.float_ops = node.types, node.float_ops
        copy_.parameters, copy_.shape = node.parameters, node.shape
    inputs, consumed = {}, set()
    for name, node in nodes.items():
        ins = sorted({t.op.name for t in getattr(node.op, "inputs", ())} & copies.keys())
        inputs[name] = ins
        consumed.update(ins)
    root, visited = _Node("_TFProfRoot"), set()

    def visit(parent, name):
        if name in visited:
            return
        visited.add(name)
        parent.children.append(copies[name])
        for input_name in inputs[name]:
            visit(copies[name], input_name)

    for name in sorted(copies.keys() - consumed):
        visit(root, name)
    return root


def _shown(node, opts, depth, started=False):
    """The displayed subtrees under `node`: (name, stats, children) with hidden nodes' children
    lifted to their shown ancestor; `depth` is the depth of `node`'s children in the scope
    tree (the root's children are at 1: TF shows depths below max_depth)."""
    out = []
    if depth >= opts.max_depth:
        return out
    for child in node.children:
        child_started = started or _matches(opts.start_name_regexes, child.name)
        sub = _shown(child, opts, depth + 1, child_started)
        if _passes(child, opts, child_started):
            out.append(_entry(child, opts, sub))
        else:
            out.extend(sub)
    out.sort(key=_sort_key(opts, "total_"))
    return out


def _accounted_total(node, opts, key):
    """`key` summed over `node`'s accounted ops and all those below it, displayed or not."""
    own = getattr(node, key) if node.op is not None and _accounted(node, opts) else 0
    return own + sum(_accounted_total(c, opts, key) for c in node.children)


def _entry(node, opts, children):
    own = _accounted(node, opts) if node.op is not None else False
    stats = {"float_ops": node.float_ops if own else 0,
             "parameters": node.parameters if own else 0}
    if opts.account_displayed_op_only:
        totals = {k: v + sum(c[1]["total_" + k] for c in children) for k, v in
                  list(stats.items())}
    else:
        totals = {k: _accounted_total(node, opts, k) for k in stats}
    stats.update({"total_" + k: v for k, v in totals.items()})
    stats["total_definition_count"] = 1 + sum(c[1]["total_definition_count"] for c in children)
    return (node.name, stats, children, node)


def _shape_proto(tensor):
    proto = framework.TensorShapeProto()
    if tensor.shape.rank is None:
        proto.unknown_rank = True
        return proto
    for d in tensor.shape.as_list():
        proto.dim.add(size=-1 if d is None else d)
    return proto


def _graph_node_proto(entry):
    name, stats, children, node = entry
    proto = GraphNodeProto(name=name)
    for key, value in stats.items():
        setattr(proto, key, value)
    if node is not None and node.op is not None:
        for i, t in enumerate(node.op.inputs):
            proto.input_shapes[i].CopyFrom(_shape_proto(t))
    for child in children:
        proto.children.append(_graph_node_proto(child))
    return proto


# ---- the report ------------------------------------------------------------------------------

def _number(n):
    if n < 1000:
        return "%d" % n
    if n < 1000000:
        return "%.2fk" % (n / 1e3)
    if n < 1000000000:
        return "%.2fm" % (n / 1e6)
    return "%.2fb" % (n / 1e9)


_VIEW_DOCS = {
    "scope": "scope: The nodes in the model graph are organized by their names, which is "
             "hierarchical like filesystem.",
    "op": "op: The nodes are operation kernel type, such as MatMul, Conv2D. Graph nodes "
          "belonging to the same type are aggregated together.",
}
_SELECT_DOCS = {
    "params": ("param: Number of parameters (in the Variable).", "# parameters"),
    "float_ops": ("flops: Number of float operations. Note: Please read the implementation "
                  "for the math behind it.", "# float_ops"),
}


_COLUMNS = ("params", "float_ops")  # the report's column order, whatever the selection's


def _options_block(opts):
    lines = ["", "=========================Options============================="]
    for key in _ALL_OPTIONS:
        value = opts.select if key == "select" else opts.opts.get(key, 0)
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            value = ",".join(value)
        elif key == "output":
            value = value if ":" in value else value + ":"
        lines.append("-%-27s%s" % (key, value))
    lines.append("")
    return lines


def _report(opts, cmd, body):
    lines = _options_block(opts)
    lines += ["==================Model Analysis Report======================", "", "Doc:"]
    if cmd in _VIEW_DOCS:
        lines.append(_VIEW_DOCS[cmd])
    lines += [_SELECT_DOCS[sel][0] for sel in opts.select if sel in _SELECT_DOCS]
    heads = [_SELECT_DOCS[sel][1] for sel in _COLUMNS if sel in opts.select]
    lines += ["", "Profile:", "node name | " + " | ".join(heads)]
    lines += body
    lines += ["", "======================End of Report=========================="]
    sys.stdout.write("\n".join(lines) + "\n")


def _scope_text(entry, opts, depth=0):
    name, stats, children, node = entry
    parts = []
    own_shown = node is not None and node.op is not None
    for sel in _COLUMNS:
        if sel not in opts.select:
            continue
        if sel == "params":
            own = _number(stats["parameters"]) if own_shown else "--"
            text = "%s/%s params" % (own, _number(stats["total_parameters"]))
            if node is not None and node.shape is not None and own_shown:
                # (a scalar's shape reads "1", as in TF's report)
                text = "%s, %s" % ("x".join(str(d) for d in node.shape) or "1", text)
            parts.append(text)
        elif sel == "float_ops":
            own = _number(stats["float_ops"]) if own_shown else "--"
            parts.append("%s/%s flops" % (own, _number(stats["total_float_ops"])))
    lines = ["  " * depth + "%s (%s)" % (name, ", ".join(parts))]
    for child in children:
        lines += _scope_text(child, opts, depth + 1)
    return lines


def _scope_view(nodes, opts, graph_view=False):
    root = _graph_tree(nodes) if graph_view else _scope_tree(nodes)
    entry = _entry(root, opts, _shown(root, opts, 1))
    if opts.output == "stdout" or opts.output.startswith("stdout"):
        _report(opts, "scope", _scope_text(entry, opts))
    return _graph_node_proto(entry)


def _op_view(nodes, opts):
    groups = {}
    for node in nodes.values():
        if _accounted(node, opts):
            groups.setdefault(node.op.type, []).append(node)
    rows = []
    for kind, members in groups.items():
        members.sort(key=lambda m: (-m.float_ops, m.name) if opts.order_by == "float_ops"
                     else ((-m.parameters, m.name) if opts.order_by == "params" else m.name))
        rows.append((kind, {"float_ops": sum(m.float_ops for m in members),
                            "parameters": sum(m.parameters for m in members)}, members))
    rows.sort(key=_sort_key(opts))
    # The types nest as a chain (each under the one before), so a row's depth is its index and
    # its totals count the rows after it: TF filters rows by those totals.
    shown = [row for i, row in enumerate(rows)
             if i <= opts.max_depth and _rest(rows, i, "float_ops") >= opts.min_float_ops
             and _rest(rows, i, "parameters") >= opts.min_params
             and _matches(opts.start_name_regexes, row[0])
             and _matches(opts.show_name_regexes, row[0])
             and not _matches(opts.hide_name_regexes, row[0])]
    basis = shown if opts.account_displayed_op_only else rows
    root = MultiGraphNodeProto(name="_TFProfRoot")
    total_f, total_p = _rest(basis, 0, "float_ops"), _rest(basis, 0, "parameters")
    root.total_float_ops, root.total_parameters = total_f, total_p
    parent = root
    body = []
    for row in shown:
        kind, stats, members = row
        at = next(i for i, r in enumerate(basis) if r is row)
        rest_f, rest_p = _rest(basis, at, "float_ops"), _rest(basis, at, "parameters")
        child = parent.children.add(name=kind, float_ops=stats["float_ops"],
                                    parameters=stats["parameters"],
                                    total_float_ops=rest_f, total_parameters=rest_p)
        for m in members:
            gn = child.graph_nodes.add(name=m.name, float_ops=m.float_ops,
                                       total_float_ops=m.float_ops, parameters=m.parameters,
                                       total_parameters=m.parameters, total_definition_count=1)
            for i, t in enumerate(m.op.inputs):
                gn.input_shapes[i].CopyFrom(_shape_proto(t))
        cells = []
        if "params" in opts.select:
            cells.append("%s params (%s, %s)" % (
                _number(stats["parameters"]), _percent(rest_p, total_p),
                _percent(stats["parameters"], total_p)))
        if "float_ops" in opts.select:
            cells.append("%s float_ops (%s, %s)" % (
                _number(stats["float_ops"]), _percent(rest_f, total_f),
                _percent(stats["float_ops"], total_f)))
        body.append((kind, ", ".join(cell.rjust(30) for cell in cells)))
        parent = child
    if opts.output.startswith("stdout"):
        _report(opts, "op", ["%-25s%s" % (kind, cells) for kind, cells in body])
    return root


def _rest(rows, start, key):
    return sum(row[1][key] for row in rows[start:])


def _percent(part, whole):
    return "%.2f%%" % (100.0 * part / whole if whole else 0.0)


@export("compat.v1.profiler.profile")
def profile(graph=None, run_meta=None, op_log=None, cmd="scope", options=None):
    """Profiles `graph` (the default graph if None) in the view `cmd` (``scope``, ``op``,
    ``graph`` or ``code``) with `options` (a `ProfileOptionBuilder` dict); prints the report
    where ``options['output']`` is ``stdout`` and returns the tree (`GraphNodeProto` for
    ``scope``/``graph``, `MultiGraphNodeProto` for ``op``/``code``). Ops record no Python
    call stacks here, so ``code`` groups them by type, as ``op`` does."""
    del op_log
    if options is None:
        options = ProfileOptionBuilder.trainable_variables_parameter()
    if graph is None:
        graph = graph_mode.get_default_graph()
    opts = _Options(options)
    if cmd not in ("scope", "graph", "op", "code"):
        raise errors.InvalidArgumentError(None, None, "unknown cmd: %s" % cmd)
    nodes = _graph_nodes(graph, run_meta)
    if cmd in ("scope", "graph"):
        return _scope_view(nodes, opts, graph_view=cmd == "graph")
    return _op_view(nodes, opts)


_CHECKERS = ("ExpensiveOperationChecker", "OperationChecker", "AcceleratorUtilizationChecker")


@export("compat.v1.profiler.advise")
def advise(graph=None, run_meta=None, options=None):
    """An `AdviceProto` of TF's default checkers, each with no reports (nothing is measured
    without a run); prints their headings as TF does."""
    del graph, run_meta, options
    advice = AdviceProto()
    for name in _CHECKERS:
        advice.checkers[name].SetInParent()
    sys.stdout.write("".join("\n%s:\n" % name for name in _CHECKERS))
    return advice


@export("compat.v1.profiler.write_op_log")
def write_op_log(graph, log_dir, op_log=None, run_meta=None, add_trace=True):
    """Writes `log_dir/tfprof_log`: an `OpLogProto` of the ops' float operations and the
    trainable variables (`op_log`'s entries first; no code traces are recorded)."""
    del run_meta, add_trace
    from eagerflow._src.io import gfile  # noqa: PLC0415 (io loads only when a log is written)
    log = OpLogProto()
    if op_log is not None:
        log.CopyFrom(op_log)
    known = {entry.name: entry for entry in log.log_entries}
    for node in _graph_nodes(graph, run_meta=True).values():
        entry = known.get(node.name)
        if entry is None and (node.float_ops or "_trainable_variables" in node.types):
            entry = known[node.name] = log.log_entries.add(name=node.name)
        if entry is not None:
            entry.float_ops = entry.float_ops or node.float_ops
            if "_trainable_variables" in node.types and \
                    "_trainable_variables" not in entry.types:
                entry.types.append("_trainable_variables")
    with gfile.GFile(gfile.join(log_dir, "tfprof_log"), "wb") as f:
        f.write(log.SerializeToString())


@export("compat.v1.profiler.Profiler")
class Profiler:
    """Profiles a graph over steps: `profile_operations`, `profile_name_scope`,
    `profile_graph`, `profile_python` give the `profile` views of it."""

    def __init__(self, graph=None, op_log=None):
        self._graph = graph

    def add_step(self, step, run_meta):
        del step, run_meta

    def profile_operations(self, options):
        return profile(self._graph, cmd="op", options=options)

    def profile_name_scope(self, options):
        return profile(self._graph, cmd="scope", options=options)

    def profile_graph(self, options):
        return profile(self._graph, cmd="graph", options=options)

    def profile_python(self, options):
        return profile(self._graph, cmd="code", options=options)

    def advise(self, options):
        return advise(self._graph, options=options)

    def serialize_to_string(self):
        return b""

    def _write_profile(self, filename):
        del filename
