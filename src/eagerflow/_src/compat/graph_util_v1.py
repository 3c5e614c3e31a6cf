"""TF 1's ``tf.compat.v1.graph_util`` for GraphDef messages: the part of a graph an output
needs (`extract_sub_graph`), a graph frozen with its variables' values as constants
(`convert_variables_to_constants`), and identities spliced out (`remove_training_nodes`).

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     w = tf.compat.v1.Variable(2.0, name="w")
...     y = tf.identity(w * 3.0, name="y")
>>> with tf.compat.v1.Session(graph=g) as sess:
...     sess.run(w.initializer)
...     frozen = tf.compat.v1.graph_util.convert_variables_to_constants(
...         sess, g.as_graph_def(), ["y"])
>>> [(n.name, n.op) for n in frozen.node][:2]
[('w', 'Const'), ('ReadVariableOp', 'Identity')]
"""
import copy

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.protos.framework import GraphDef, NodeDef
from eagerflow._src.ops.tensor_util import make_tensor_proto

_VARIABLE_OPS = {"Assign", "AssignAdd", "AssignSub", "Queue", "ScatterAdd", "ScatterSub",
                 "ScatterUpdate", "TruncatedNormal", "Variable", "VariableV2"}
# (the ops holding a variable's value, which freezing turns into constants)
_HOLDERS = {"VarHandleOp", "Variable", "VariableV2", "AutoReloadVariable"}


def const_node(name, array, dtype):
    """A ``Const`` NodeDef named `name` holding `array` as `dtype` (a frozen variable)."""
    node = NodeDef(name=name, op="Const")
    node.attr["dtype"].type = dtype.as_datatype_enum
    node.attr["value"].tensor.CopyFrom(make_tensor_proto(array, dtype))
    return node


def _node_name(name):
    return name[1:] if name.startswith("^") else name.split(":")[0]


def _colocated(node):
    """The names of the nodes `node` is colocated with (``loc:@name`` in ``_class``)."""
    if "_class" not in node.attr:
        return []
    names = [s.decode() for s in node.attr["_class"].list.s]
    return [n[5:] if n.startswith("loc:@") else n for n in names]


@export("compat.v1.graph_util.extract_sub_graph")
def extract_sub_graph(graph_def, dest_nodes):
    """The nodes of `graph_def` that `dest_nodes` (names) need, inputs and colocations
    followed, in their original order (with its function library and versions)."""
    if not isinstance(graph_def, GraphDef):
        raise TypeError(f"graph_def must be a graph_pb2.GraphDef proto, but got type "
                        f"{type(graph_def)}.")
    if isinstance(dest_nodes, str):
        raise TypeError(f"dest_nodes must be an iterable of strings, but got type "
                        f"{type(dest_nodes)}.")
    by_name, needs, order = {}, {}, {}
    for i, node in enumerate(graph_def.node):
        name = _node_name(node.name)
        by_name[name], order[name] = node, i
        needs[name] = [_node_name(x) for x in node.input] + _colocated(node)
    for name in dest_nodes:
        assert name in by_name, f"{name} is not in graph"
    kept, pending = set(), list(dest_nodes)
    while pending:
        name = pending.pop(0)
        if name not in kept:
            kept.add(name)
            pending.extend(needs.get(name, ()))
    out = GraphDef()
    for name in sorted(kept, key=order.__getitem__):
        out.node.extend([copy.deepcopy(by_name[name])])
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def _variable_values(sess, names):
    """The values in `sess` of the graph variables of node `names`."""
    variables = {v.name.split(":")[0]: v
                 for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES)
                 for v in sess.graph.get_collection(key)}
    missing = [n for n in names if n not in variables]
    if missing:
        raise ValueError(f"Cannot find the variable that is an input to the ReadVariableOp "
                         f"of {missing[0]}.")
    return dict(zip(names, sess.run([variables[n] for n in names])))


@export("compat.v1.graph_util.convert_variables_to_constants")
def convert_variables_to_constants(sess, input_graph_def, output_node_names,
                                   variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """The part of `input_graph_def` the `output_node_names` need, with each variable (of
    `variable_names_whitelist` when given, not of `variable_names_blacklist`) a ``Const``
    node of its value in `sess` and its reads ``Identity`` nodes."""
    graph_def = extract_sub_graph(input_graph_def, output_node_names)
    frozen = [n.name for n in graph_def.node if n.op in _HOLDERS
              and (variable_names_whitelist is None or n.name in variable_names_whitelist)
              and (variable_names_blacklist is None
                   or n.name not in variable_names_blacklist)]
    values = _variable_values(sess, frozen)
    out = GraphDef()
    for node in graph_def.node:
        if node.name in values:
            out.node.extend([const_node(node.name, values[node.name],
                                        _d.as_dtype(node.attr["dtype"].type))])
        elif node.op == "ReadVariableOp" and _node_name(node.input[0]) in values:
            read = NodeDef(name=node.name, op="Identity", input=list(node.input),
                           device=node.device)
            read.attr["T"].CopyFrom(node.attr["dtype"])
            out.node.extend([read])
        else:
            out.node.extend([copy.deepcopy(node)])
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def _without_inputs(node, dropped):
    """A copy of `node` with the inputs named in `dropped` left out."""
    out = NodeDef()
    out.CopyFrom(node)
    del out.input[:]
    out.input.extend(x for x in node.input if x.lstrip("^") not in dropped)
    return out


@export("compat.v1.graph_util.remove_training_nodes")
def remove_training_nodes(input_graph, protected_nodes=None):
    """`input_graph` without its CheckNumerics nodes, and with its Identity and
    StopGradient nodes spliced out (their users reading their input instead), except the
    `protected_nodes` and those control dependencies or colocations name."""
    protected = set(protected_nodes or ())
    checks = {n.name for n in input_graph.node
              if n.op == "CheckNumerics" and n.name not in protected}
    nodes = [_without_inputs(n, checks) for n in input_graph.node if n.name not in checks]
    control_inputs, with_control, colocated = set(), set(), set()
    for node in nodes:
        for name in node.input:
            if "^" in name:
                control_inputs.add(name.replace("^", ""))
                with_control.add(node.name)
        colocated.update(_colocated(node))
    splice = {n.name: n.input[0] for n in nodes
              if n.op in ("Identity", "StopGradient") and n.name not in protected
              and n.name not in colocated and n.name not in with_control
              and n.name not in control_inputs}
    out = GraphDef()
    for node in nodes:
        if node.name in splice:
            continue
        new = NodeDef()
        new.CopyFrom(node)
        del new.input[:]
        for name in node.input:
            while name.lstrip("^") in splice:
                name = splice[name.lstrip("^")]
            new.input.append(name)
        out.node.extend([new])
    return out


@export("compat.v1.graph_util.tensor_shape_from_node_def_name")
def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of the tensor `input_name` (``name`` meaning ``name:0``) of
    `graph`."""
    name = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(name).shape


@export("compat.v1.graph_util.must_run_on_cpu")
def must_run_on_cpu(node, pin_variables_on_cpu=False):
    """Whether TF 1 placed the NodeDef (or operation) `node` on the CPU: int32 and string
    constants, int32 stitches and casts, and variables when `pin_variables_on_cpu`."""
    node_def = node if isinstance(node, NodeDef) else node.node_def
    if pin_variables_on_cpu and node_def.op in _VARIABLE_OPS:
        return True
    attr = {"Const": "dtype", "DynamicStitch": "T", "ParallelDynamicStitch": "T",
            "Cast": "SrcT"}.get(node_def.op)
    if attr is None:
        return False
    wanted = (_d.string, _d.int32) if node_def.op == "Const" else (_d.int32,)
    return _d.as_dtype(node_def.attr[attr].type) in wanted
