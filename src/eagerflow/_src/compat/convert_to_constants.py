"""Freezing a TF 2 function: its graph with the values its variables hold now as constants
(``tensorflow.python.framework.convert_to_constants``), the usual way to write a model as one
self-contained GraphDef (``tf.io.write_graph(frozen.graph, ...)``).

As in TF, each captured variable's placeholder becomes a ``Const`` of the variable's value
(under the placeholder's name), its reads ``Identity`` nodes and its gathers (an
embedding's lookup) ``GatherV2``. The frozen
function takes the original's tensor arguments and returns its outputs as a flat list; it
keeps the values it was frozen with, whatever the variables hold later.

>>> v = tf.Variable([1.0, 2.0])
>>> f = tf.function(lambda x: x * v).get_concrete_function(tf.TensorSpec([2]))
>>> frozen = convert_variables_to_constants_v2(f)
>>> sorted({n.op for n in frozen.graph.as_graph_def().node} & {"Const", "ReadVariableOp"})
['Const']
>>> _ = v.assign([5.0, 5.0])
>>> frozen(tf.constant([3.0, 3.0]))[0].numpy()
array([3., 6.], dtype=float32)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat.graph_util_v1 import _node_name, const_node
from eagerflow._src.compat.v1 import import_graph_def, wrap_function
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors, nest
from eagerflow._src.core.protos.framework import GraphDef, NodeDef
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph.graph_def import graph_to_graph_def

# What reads a variable: turned into its op on the constant (TF's own conversions).
_READS = {"ReadVariableOp": "Identity", "ResourceGather": "GatherV2"}


def _converted(node, values):
    """The nodes standing for `node` once the placeholders in `values` are constants."""
    if node.name in values:
        return [const_node(node.name, *values[node.name])]
    if node.op in _READS and node.input and _node_name(node.input[0]) in values:
        out = NodeDef(name=node.name, op=_READS[node.op], input=list(node.input),
                      device=node.device)
        if node.op == "ReadVariableOp":
            out.attr["T"].CopyFrom(node.attr["dtype"])
            return [out]
        axis = const_node(f"{node.name}/axis", 0, _d.int32)
        out.input.append(axis.name)
        out.attr["Tparams"].CopyFrom(node.attr["dtype"])
        out.attr["Tindices"].CopyFrom(node.attr["Tindices"])
        out.attr["Taxis"].type = _d.int32.as_datatype_enum
        out.attr["batch_dims"].i = node.attr["batch_dims"].i
        return [axis, out]
    return [node]


def _check_reads_only(graph_def, frozen):
    """Refuses a graph that does more with a variable of `frozen` (placeholder names) than
    read it."""
    for node in graph_def.node:
        for x in node.input:
            if _node_name(x) in frozen and not x.startswith("^") and node.op not in _READS:
                raise errors.InvalidArgumentError(
                    None, None, f"Cannot freeze the variable captured as {_node_name(x)!r}: op "
                                f"{node.name!r} of type {node.op} uses it (only its reads "
                                f"can become constants).")


def _frozen_graph_def(func):
    captured = {}  # resource placeholder name -> what it stands for
    graph_def = graph_to_graph_def(func.graph, variables=captured)
    values = {}
    for name, obj in captured.items():
        if not isinstance(obj, Variable):
            raise errors.InvalidArgumentError(
                None, None, f"Cannot freeze {name!r}: it captures {type(obj).__name__}, not "
                            f"a variable.")
        values[name] = (obj.numpy(), obj.dtype)
    _check_reads_only(graph_def, values)
    out = GraphDef()
    for node in graph_def.node:
        out.node.extend(_converted(node, values))
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def _function_of(graph_def, func):
    """A function running `graph_def` from `func`'s tensor arguments to its outputs."""
    feeds = [t.name for t in func._inputs]
    fetches = [t.name for t in nest.flatten(func.outputs)]
    wrapped = wrap_function(lambda: import_graph_def(graph_def, name=""), [])
    return wrapped.prune(feeds, fetches)


@export("python.framework.convert_to_constants.convert_variables_to_constants_v2")
def convert_variables_to_constants_v2(func, lower_control_flow=True, aggressive_inlining=False):
    """`func` (a concrete function) frozen: a concrete function whose graph holds its
    variables' present values as constants, taking its tensor arguments and returning its
    outputs as a list. (`lower_control_flow` and `aggressive_inlining` are accepted; its
    control flow stays as it is.)"""
    del lower_control_flow, aggressive_inlining
    return _function_of(_frozen_graph_def(func), func)


@export("python.framework.convert_to_constants.convert_variables_to_constants_v2_as_graph")
def convert_variables_to_constants_v2_as_graph(func, lower_control_flow=True,
                                               aggressive_inlining=False):
    """``(frozen function, its GraphDef)``: see `convert_variables_to_constants_v2`."""
    del lower_control_flow, aggressive_inlining
    graph_def = _frozen_graph_def(func)
    return _function_of(graph_def, func), graph_def
