"""Graphs to and from TensorFlow's `GraphDef` and `FunctionDef` protobufs.

`graph_to_graph_def` writes a graph as TF writes a function's graph: inputs
as ``Placeholder`` nodes, values as ``Const`` nodes holding a ``TensorProto``,
variables as ``Placeholder``s of dtype resource read and written by
``ReadVariableOp``/``AssignVariableOp``, each op in TF's form (its attrs and
inputs as its `NodeForm` declares, see ``core.node_forms``), stateful ops
kept in program order by control inputs, and a ``NoOp`` the outputs wait on.
An attr holding a function body (control flow branches, a called function) is
written as a ``func`` attr naming it, its `FunctionDef` in the GraphDef's
library: a body is a graph (its placeholders are the arguments), or an object
with ``name``, ``graph``, ``inputs`` and ``outputs``; an attr may also hold the
name of a body in the graph's ``functions`` (name -> body). `import_graph_def`
reads a GraphDef back into the graph being built, op by op, with eagerflow's
kernels; a ``func`` attr is read as the body's graph (`Library.graph`).

The protobuf runtime is imported with this module, never by ``import eagerflow``.
"""
import re

import numpy as np

from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import registry
from eagerflow._src.core.node_forms import (ExtraInputs, from_tf_node, table_ops, tf_args,
                                             tf_node, tf_nodes)
from eagerflow._src.core.protos import framework as pb
from eagerflow._src.core.protos.tensors import (  # noqa: F401  (graph_def.tensor_proto...)
    shape_from_proto, shape_proto, tensor_from_proto, tensor_proto)
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.graph.executor import needed_operations
from eagerflow._src.graph.function_library import FunctionBody, add_function, lookup
from eagerflow._src.graph.graph import (
    Graph, SymbolicTensor, gradient_override, overridden_gradient)

# TF's GraphDef version this writer follows (TF 2.21's producer); readers accept any.
PRODUCER = 2474

# -- values ------------------------------------------------------------------------
# (TensorProto and TensorShapeProto conversions live with the messages: core.protos.tensors)

class Library:
    """A function library (``FunctionDefLibrary``): FunctionDefs by name, with the body
    graphs they were written from (once each, under unique names) or are read into."""

    def __init__(self, function_defs=(), add_shapes=False):
        self.functions = {f.signature.name: f for f in function_defs}
        # (the FunctionDefs written give their nodes' and arguments' shapes, as a
        # SavedModel's do)
        self.add_shapes = add_shapes
        self._names = {}   # id(body graph) -> its function's name, as written
        self._graphs = {}  # name -> body graph, as read
        self._kept = []

    def add(self, body):
        """The name of `body`'s FunctionDef (see the module docstring), written into the
        library on first use."""
        name = self._names.get(id(body))
        if name is None:
            base = name = re.sub(r"[^A-Za-z0-9_.\-]", "_", body.name) or "function"
            n = 0
            while name in self.functions:
                n += 1
                name = f"{base}_{n}"
            self._names[id(body)] = name
            self._kept.append(body)  # (alive while the library is: its id names it)
            self.functions[name] = None  # (taken while its body is written)
            function_def(body, name, self)
        return name

    def written(self):
        """``(name, body)`` of each body written into the library by `add`."""
        return [(self._names[id(body)], body) for body in self._kept]

    def graph(self, name):
        """The body graph of the FunctionDef `name`, read once."""
        if name not in self._graphs:
            self._graphs[name] = function_graph(name, self)
        return self._graphs[name]


def attr_value(value, library=None):
    """The `AttrValue` of a Python attr value (`library`: the `Library` a graph-valued
    attr's FunctionDef is written into)."""
    if isinstance(value, (bool, np.bool_)):
        return pb.AttrValue(b=bool(value))
    if isinstance(value, (int, np.integer)):
        return pb.AttrValue(i=int(value))
    if isinstance(value, (float, np.floating)):
        return pb.AttrValue(f=float(value))
    if isinstance(value, str):
        return pb.AttrValue(s=value.encode())
    if isinstance(value, bytes):
        return pb.AttrValue(s=value)
    if isinstance(value, _d.DType):
        return pb.AttrValue(type=value.as_datatype_enum)
    if isinstance(value, TensorShape):
        return pb.AttrValue(shape=shape_proto(value))
    if isinstance(value, np.ndarray):
        return pb.AttrValue(tensor=tensor_proto(value))
    if isinstance(value, Graph) or hasattr(value, "graph") and hasattr(value, "outputs"):
        if library is None:
            raise TypeError("A graph-valued attr needs a function library to be written into.")
        return pb.AttrValue(func=pb.NameAttrList(name=library.add(value)))
    if isinstance(value, (list, tuple)):
        out = pb.AttrValue(list=pb.AttrValue.ListValue())
        for v in value:
            # (a list inside a list is a shape: TF's list attrs hold no lists, and raw ops
            # take list(shape) attrs as lists of dimensions)
            one = attr_value(TensorShape(v) if isinstance(v, (list, tuple)) else v, library)
            kind = one.WhichOneof("value")
            target = getattr(out.list, kind)
            if kind in ("shape", "tensor", "func"):
                target.add().CopyFrom(getattr(one, kind))
            else:
                target.append(getattr(one, kind))
        return out
    raise TypeError(f"An attr value of type {type(value).__name__} has no AttrValue: "
                    f"{value!r}")


def attr_from_proto(proto, library=None):
    """The Python value of an `AttrValue` (the inverse of `attr_value`); a ``func`` is the
    body graph read from `library` (a `Library`)."""
    kind = proto.WhichOneof("value")
    if kind is None:
        return ()  # an empty list
    if kind == "list":
        lst = proto.list
        for field in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
            items = getattr(lst, field)
            if len(items):
                return tuple(attr_from_proto(_one(field, v), library) for v in items)
        return ()
    value = getattr(proto, kind)
    if kind == "s":
        try:
            return value.decode()
        except UnicodeDecodeError:
            return value
    if kind == "type":
        return _d.as_dtype(value)
    if kind == "shape":
        return shape_from_proto(value)
    if kind == "tensor":
        return tensor_from_proto(value)
    if kind == "func":
        if library is None or value.name not in library.functions:
            raise errors.NotFoundError(None, None, f"Function {value.name} is not in the "
                                                   f"library.")
        return library.graph(value.name)
    if kind == "placeholder":
        raise errors.UnimplementedError(None, None, f"An attr placeholder ({value}) of a "
                                                    f"function body is not supported.")
    return value


def _one(field, v):
    out = pb.AttrValue()
    if field in ("shape", "tensor", "func"):
        getattr(out, field).CopyFrom(v)
    else:
        setattr(out, field, v)
    return out


# -- writing -----------------------------------------------------------------------------

def _tensor_name(t):
    """TF's name of a tensor as a NodeDef input: ``node`` for output 0, else ``node:i``."""
    return t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"


def _handle_key(variable):
    """A variable's key among the resource placeholders: its handle's id (an assignment's
    result shares the handle, and is the same variable)."""
    return id(getattr(variable, "_handle", None) or variable)


class _Writer:
    """Writes the nodes of one graph (into a GraphDef's node list or a FunctionDef's)."""

    def __init__(self, graph, library, own_inputs_only=False):
        self.graph = graph
        self.library = library
        # (a TF 1 graph's: a node's inputs beyond TF's are left out, see `ExtraInputs`)
        self.own_inputs_only = own_inputs_only
        self.bodies = getattr(graph, "functions", None) or {}  # name -> body, by name
        self.nodes = []
        self.names = {op.name for op in graph.get_operations()}
        self.resources = {}  # `_handle_key(variable)` -> name of its resource placeholder

    def unique(self, name):
        base, n = name, 0
        while name in self.names:
            n += 1
            name = f"{base}_{n}"
        self.names.add(name)
        return name

    def input_name(self, t, consumer):
        if isinstance(t, SymbolicTensor):
            return _tensor_name(t)
        # a variable (captured, or an argument's stand-in): a resource placeholder
        found = self.resources.get(_handle_key(t))
        if found is None:
            found = self.resources[_handle_key(t)] = self.unique(f"{consumer}/resource")
            self.nodes.append(pb.NodeDef(name=found, op="Placeholder", attr={
                "dtype": pb.AttrValue(type=_d.resource.as_datatype_enum),
                "shape": pb.AttrValue(shape=shape_proto([]))}))
            self.variables.append(t)
        return found

    def write(self, operations, outputs=()):
        """Appends the NodeDefs of `operations` (`outputs`: the tensors the graph returns);
        returns every node written. Stateful ops keep their order by control inputs, each
        on the one before, and the outputs' nodes wait on a ``NoOp`` after them all."""
        self.variables = []
        previous, stateful = None, []
        for op in operations:
            node = self.node(op)
            if op.stateful:
                if previous is not None and previous not in node.input:
                    node.input.append("^" + previous)
                previous = node.name
                stateful.append(node.name)
        if stateful:  # as TF's function graphs: the results come after every effect
            noop = pb.NodeDef(name=self.unique("NoOp"), op="NoOp",
                              input=["^" + s for s in stateful])
            self.nodes.append(noop)
            returned = {t.op.name for t in outputs if isinstance(t, SymbolicTensor)}
            before = _ancestors(self.nodes, stateful)  # (a value an effect reads comes first,
            # as does a stateful node returned: an inner loop's results)
            for node in self.nodes:
                if node.name in returned and node.name not in before:
                    node.input.append("^" + noop.name)
        return self.nodes

    def cast(self, op, i, dtype):
        """The name of a ``Cast`` node giving `op`'s input `i` in `dtype`, as TF's op takes it."""
        t = op.inputs[i]
        name = self.unique(f"{op.name}/Cast")
        self.nodes.append(pb.NodeDef(name=name, op="Cast", input=[_tensor_name(t)], attr={
            "SrcT": attr_value(t.dtype), "DstT": attr_value(dtype),
            "Truncate": pb.AttrValue(b=False)}))
        return name

    def body_of(self, value, function=False):
        """The body an attr names (a function name in the graph's library, or in any library
        when the op declares the attr a `function` one), else `value`."""
        def find(name):
            found = self.bodies.get(name) if isinstance(name, str) else None
            if found is None and function and isinstance(name, str):
                found = lookup(name)
            return found
        if isinstance(value, (list, tuple)) and value:
            found = [find(v) for v in value]
            return found if all(b is not None for b in found) else value
        found = find(value)
        return value if found is None else found

    def lowered(self, op, lower):
        """`op` as a ``PartitionedCall`` of a library function holding the graph `lower`
        builds on placeholders of the op's input shapes and dtypes (see ``NodeForm.lower``)."""
        graph = Graph(f"{op.name}_lowered")
        with context.building(graph):
            args = [graph.placeholder(t.dtype, t.shape, f"arg{i}")
                    for i, t in enumerate(op.inputs)]
            try:
                outputs = list(lower(args, dict(op.attrs)))
            except ValueError as e:
                raise errors.UnimplementedError(
                    None, op.name, f"The node {op.name} ({op.type}) cannot be written as "
                                   f"TensorFlow's: {e}.") from None
        # (a name unique in the process, as TF's runtime holds the functions of every graph)
        body = FunctionBody(graph.name, graph, args, outputs)
        node = pb.NodeDef(name=op.name, op="PartitionedCall",
                          input=[self.input_name(t, op.name) for t in op.inputs])
        node.attr["Tin"].CopyFrom(attr_value(tuple(t.dtype for t in op.inputs)))
        node.attr["Tout"].CopyFrom(attr_value(tuple(t.dtype for t in op.outputs)))
        node.attr["f"].CopyFrom(attr_value(body, self.library))
        return node

    def node(self, op):
        if op.type == "Placeholder":
            node = pb.NodeDef(name=op.name, op="Placeholder", attr={
                "dtype": attr_value(op.attrs["dtype"]),
                "shape": attr_value(TensorShape(op.attrs["shape"]))})
        elif op.type == "Const" and op.attrs.get("dtype") in (_d.variant, _d.resource):
            # a captured Python-side value (a dataset, an iterator, a table): as in TF, an
            # input of the graph, fed where it runs, since no TensorProto holds it
            node = pb.NodeDef(name=op.name, op="Placeholder", attr={
                "dtype": attr_value(getattr(op.value, "graph_def_dtype", op.attrs["dtype"])),
                "shape": attr_value(TensorShape([]))})
        elif op.type == "Const":
            node = _const_node(op.name, op.value, op.attrs.get("dtype"))
        elif op.type == "NoOp":  # (a TF 1 graph's `group`: only control inputs)
            node = pb.NodeDef(name=op.name, op="NoOp")
        elif op.op_def is None or not op.op_def.registered and op.op_def not in tf_nodes:
            # (an op built around Python closures, not in the registry: nothing names it)
            raise errors.UnimplementedError(None, op.name, f"The node {op.name} ({op.type}) "
                                                           f"has no GraphDef form.")
        elif getattr(tf_nodes.get(op.op_def, None), "lower", None) is not None:
            node = self.lowered(op, tf_nodes.get(op.op_def).lower)
        else:
            try:
                try:
                    op_type, attrs, inputs, constants = tf_node(op.op_def, op.name, op.inputs,
                                                                op.attrs, op.outputs)
                except ExtraInputs as e:
                    if not self.own_inputs_only:
                        raise
                    op_type, attrs, inputs, constants = tf_node(
                        op.op_def, op.name, op.inputs[:e.own], op.attrs, op.outputs)
            except ValueError as e:
                raise errors.UnimplementedError(
                    None, op.name, f"The node {op.name} ({op.type}) cannot be written as "
                                   f"TensorFlow's: {e}.") from None
            names = {}
            for name, array in constants:
                names[name] = self.unique(name)
                self.nodes.append(_const_node(names[name], array))
            node = pb.NodeDef(name=op.name, op=op_type)
            for kind, value in inputs:
                if kind == "const":
                    node.input.append(names[value])
                elif kind == "cast":
                    node.input.append(self.cast(op, *value))
                else:
                    node.input.append(self.input_name(op.inputs[value], op.name))
            functions = tf_nodes.get(op.op_def, None)
            functions = functions.functions if functions is not None else ()
            for k, v in sorted(attrs.items()):
                if v is None:
                    continue
                try:
                    node.attr[k].CopyFrom(attr_value(self.body_of(v, k in functions),
                                                     self.library))
                except TypeError:
                    if not k.startswith("_"):
                        raise
                    del node.attr[k]  # an eagerflow note TF has no form for (a value kept)
            if "Tin" in attrs and node.attr["Tin"].HasField("list"):
                # a call passing a table (a variant constant here): a resource in TF
                held = [getattr(getattr(t.op, "value", None), "graph_def_dtype", None)
                        if getattr(getattr(t, "op", None), "type", None) == "Const" and
                        t.dtype == _d.variant else None for t in op.inputs]
                if any(held) and len(held) == len(node.attr["Tin"].list.type):
                    for i, dtype in enumerate(held):
                        if dtype is not None:
                            node.attr["Tin"].list.type[i] = dtype.as_datatype_enum
        # the control dependencies of a TF 1 graph's node (`control_dependencies`)
        node.input.extend("^" + dep for dep in _control_deps(op.graph, op.name)
                          if "^" + dep not in node.input)
        override = gradient_override(op)
        if override is not None:  # (from `gradient_override_map`)
            node.attr["_gradient_op_type"].s = override.encode()
        self.nodes.append(node)
        return node


def _control_deps(graph, name):
    """The control dependencies of `graph`'s op `name` (a TF 1 graph's, or an imported
    function's): an imported ``NoOp`` kept as no op stands for its own dependencies."""
    control = getattr(graph, "control_inputs", {})
    deps = list(control.get(name, ()))
    if not deps:
        return deps
    ops, out, seen = {o.name for o in graph._operations}, [], set()
    while deps:
        dep = deps.pop(0)
        if dep in seen:
            continue
        seen.add(dep)
        if dep not in ops and dep in control:
            deps[:0] = control[dep]
        else:
            out.append(dep)
    return out


def _ancestors(nodes, names):
    """The names of `names` and of the nodes they depend on (by data or control inputs)."""
    by_name = {n.name: n for n in nodes}
    found, stack = set(), list(names)
    while stack:
        name = stack.pop()
        if name in found or name not in by_name:
            continue
        found.add(name)
        stack.extend(ref.lstrip("^").split(":")[0] for ref in by_name[name].input)
    return found


def _const_node(name, array, dtype=None):
    array = np.asarray(array)
    dtype = dtype or _d.from_numpy(array.dtype)
    return pb.NodeDef(name=name, op="Const", attr={
        "dtype": pb.AttrValue(type=dtype.as_datatype_enum),
        "value": pb.AttrValue(tensor=tensor_proto(array, dtype))})


def _ops_of(graph, outputs):
    """The operations to write: the outputs' and every stateful one, in creation order."""
    return needed_operations(graph, list(outputs), inline=False)


def graph_to_graph_def(graph, add_shapes=False, variables=None, own_inputs_only=False):
    """`graph` as TF's `GraphDef`: every operation, in creation order (with `add_shapes`,
    each node's ``_output_shapes``). `variables`, a dict, receives the variable each
    resource placeholder stands for, by the placeholder's name. `own_inputs_only`: a TF 1
    graph's nodes taking inputs TF's ops have not are written without them (see
    `ExtraInputs`), where a function's are refused."""
    library = Library()
    writer = _Writer(graph, library, own_inputs_only)
    nodes = writer.write(graph.get_operations(), graph.outputs)
    if variables is not None:
        variables.update({writer.resources[_handle_key(v)]: v for v in writer.variables})
    if add_shapes:
        _add_shapes(nodes, {op.name: op for op in graph.get_operations()})
    gd = pb.GraphDef(node=nodes, versions=pb.VersionDef(producer=PRODUCER))
    if library.functions:
        gd.library.function.extend(library.functions.values())
    return gd


def _add_shapes(nodes, by_name):
    """Gives each node its outputs' static shapes as its ``_output_shapes`` attr, as TF
    writes them where it exports a graph with its shapes (TF reading a function body
    takes the shapes it cannot infer from there: a call's results)."""
    for node in nodes:
        op = by_name.get(node.name)
        found = None if op is None else [t.shape for t in op.outputs]
        count = None if op is None else _tf_output_count(node, op)
        if count is not None and len(found) != count:
            continue  # (TF's node has other outputs: a loop's captures as loop variables)
        if op is None and node.op == "Const":
            found = [TensorShape(tensor_from_proto(node.attr["value"].tensor).shape)]
        if op is None and node.op == "Placeholder":
            found = [shape_from_proto(node.attr["shape"].shape)]
        if found is not None:
            node.attr["_output_shapes"].CopyFrom(attr_value([TensorShape(s) for s in found]))


def _tf_output_count(node, op):
    """How many outputs TF's node has, where its attrs or the op say (else None)."""
    listed = node.attr["Tout"].list.type if "Tout" in node.attr else None
    if listed is not None and node.attr["Tout"].WhichOneof("value") == "list":
        return len(listed)
    if node.op in ("While", "StatelessWhile"):
        return len(node.attr["T"].list.type)
    return None


# -- function bodies -------------------------------------------------------------------------

def _arg_name(name):
    """A FunctionDef argument name, as TF requires (``[a-z][a-z0-9_]*``)."""
    out = "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in name.lower())
    return out if out[:1].isalpha() else "arg_" + out


def output_arg_name(op_def, index, attrs=None):
    """TF's name of output `index` of `op_def`'s node as a FunctionDef body refers to it:
    ``(arg name, index within the arg)``. A `NodeForm`'s output ``(name, attr)`` is a list
    of as many outputs as the node's attr `attr` (in `attrs`) says."""
    form = tf_nodes.get(op_def)
    names = getattr(form, "outputs", None) or _default_output_names(op_def)
    if len(names) == 1 and isinstance(names[0], str):
        return names[0], index
    for name in names:
        name, count = (name, 1) if isinstance(name, str) else (name[0], int(attrs[name[1]]))
        if index < count:
            return name, index
        index -= count
    raise IndexError(f"{op_def.name} has no output {index}")


def _output_offset(names, arg, node):
    """The index of the first output of list or single output `arg` of a node (a NodeDef)
    whose form's outputs are `names` (see `output_arg_name`)."""
    offset = 0
    for name in names:
        if isinstance(name, str):
            if name == arg:
                return offset
            offset += 1
            continue
        if name[0] == arg:
            return offset
        offset += node.attr[name[1]].i
    return 0


def _default_output_names(op_def):
    """TF's usual output names: ``z`` of binary math ops, ``y`` of unary ones shaped like
    their input, else ``output`` (a `NodeForm` declares the others)."""
    if op_def.tied_pair and not op_def.multi:
        return ("z",)
    if op_def.shape is registry.same_shape and op_def.tied == (0,):
        return ("y",)
    return ("output",)


def _signature(body):
    """``(inputs, outputs)`` of a body: a graph's own, or those a body object gives (a
    concrete function's arguments: not the captures it lists among its `inputs`)."""
    inputs = getattr(body, "_inputs", None)
    return list(body.inputs if inputs is None else inputs), list(body.outputs)


def _is_argument(op):
    """Whether `op` is an argument of its graph's FunctionDef: a placeholder, or a captured
    resource held by reference (a lookup table), which a SavedModel passes in as TF does."""
    return op.type == "Placeholder" or (
        op.type == "Const" and getattr(op.value, "captured_as_argument", False))


def function_arguments(graph):
    """What the arguments of `graph`'s FunctionDef stand for, in order: its inputs (the
    arguments of the traced function), the outer tensors it captured (fed to their
    placeholders), then the variables it reads or writes (as resource handles)."""
    inputs, outputs = _signature(graph)
    graph = getattr(graph, "graph", graph)
    args = list(inputs)
    captured = {id(inner): outer for outer, inner in graph.captures}
    ops = _ops_of(graph, outputs)
    fed = {id(t) for t in args}
    # (a call's input; only where the placeholder standing for it is one: the same graph
    # written as a function of its own again captures the constant)
    fed |= {id(c) for c, p in getattr(graph, "fed_constants", ()) if id(p) in fed}
    for op in ops:
        if _is_argument(op) and id(op.outputs[0]) not in fed:
            args.append(captured.get(id(op.outputs[0]), op.outputs[0]))
    seen = set()
    for op in ops:
        for t in op.inputs:
            if not isinstance(t, SymbolicTensor) and id(t) not in seen:
                seen.add(id(t))
                args.append(t)
    return args


def function_def(graph, name, library=None, keep=()):
    """A body `graph` as a `FunctionDef` named `name`: its arguments are those
    `function_arguments` lists, its results `graph.outputs`. It is added to `library` (a
    `Library`), as are the FunctionDefs of the graph-valued attrs of its ops. The ops of
    the tensors `keep` are written too (values a saved gradient function reads)."""
    library = Library() if library is None else library
    inputs, outputs = _signature(graph)
    graph = getattr(graph, "graph", graph)
    fdef = pb.FunctionDef(signature=pb.OpDef(name=name))
    writer = _Writer(graph, library)
    handles = {id(t) for t in inputs}
    for key, t in getattr(graph, "handle_arguments", {}).items():
        if id(t) in handles:  # a variable whose handle is an argument already
            writer.resources[key] = t.op.name
    ops = _ops_of(graph, list(outputs) + list(keep))
    nodes = writer.write(ops, outputs)
    args = {}  # placeholder node name -> argument name
    placeholders = [t.op for t in inputs]
    # (a table a call body holds as a constant comes in as its fed placeholder's argument)
    fed = {c.op.name: p.op.name for c, p in getattr(graph, "fed_constants", ())
           if id(p) in handles}
    placeholders += [op for op in ops if _is_argument(op) and op not in placeholders
                     and op.name not in fed]
    for op in placeholders:
        arg = args[op.name] = _unique_arg(_arg_name(op.name), args)
        held = next((c.op for c, p in getattr(graph, "fed_constants", ()) if p.op is op),
                    op)  # (what a fed placeholder stands for)
        dtype = getattr(held.value, "graph_def_dtype", None) if held.type == "Const" else None
        fdef.signature.input_arg.add(name=arg, type=(dtype or op.attrs["dtype"])
                                     .as_datatype_enum)
    for const, placeholder in fed.items():
        if placeholder in args:
            args[const] = args[placeholder]
    for v in writer.variables:
        resource = writer.resources[_handle_key(v)]
        arg = args[resource] = _unique_arg(_arg_name(resource), args)
        fdef.signature.input_arg.add(name=arg, type=_d.resource.as_datatype_enum)
    by_name = {op.name: op for op in graph.get_operations()}
    if library.add_shapes:
        _add_shapes(nodes, by_name)
        for i, op in enumerate(placeholders):
            if op.outputs[0].dtype != _d.resource:
                fdef.arg_attr[i].attr["_output_shapes"].CopyFrom(
                    attr_value([op.outputs[0].shape]))
    for node in nodes:
        if node.op == "Placeholder" and node.name in args:
            continue
        body = fdef.node_def.add()
        body.CopyFrom(node)
        del body.input[:]
        for ref in node.input:
            body.input.append(_body_ref(ref, args, by_name, nodes))
    # (its side effects, TF's control outputs: TF runs them even where no output needs them)
    for node in fdef.node_def:
        op = by_name.get(node.name)
        if op is not None and op.stateful and node.op not in ("Placeholder", "NoOp"):
            fdef.signature.control_output.append(node.name)
            fdef.control_ret[node.name] = node.name
            fdef.signature.is_stateful = True
    results = {}
    for t in outputs:
        out = results[id(t)] = _unique_arg(_arg_name(t.op.name), results)
        fdef.signature.output_arg.add(name=out, type=t.dtype.as_datatype_enum)
        fdef.ret[out] = _body_ref(_tensor_name(t), args, by_name, nodes)
    library.functions[name] = fdef
    return fdef


def _unique_arg(name, taken):
    names = set(taken.values())
    base, n = name, 0
    while name in names:
        n += 1
        name = f"{base}_{n}"
    return name


def _body_ref(ref, args, by_name, nodes):
    """A GraphDef input reference (``node:i``) as a FunctionDef body writes it (`args`:
    placeholder name -> argument name)."""
    if ref.startswith("^"):
        return ref
    node, _, index = ref.partition(":")
    index = int(index or 0)
    if node in args:
        return args[node]
    op = by_name.get(node)
    if op is None or op.op_def is None:  # a Const written for an attr input, or a Const
        return f"{node}:output:{index}"
    arg, within = output_arg_name(op.op_def, index, op.attrs)
    return f"{node}:{arg}:{within}"


def function_graph(name, library):
    """The body graph of the FunctionDef `name` of `library` (a `Library`); its inputs are
    the function's arguments."""
    fdef = library.functions.get(name)
    if fdef is None:
        raise errors.NotFoundError(None, None, f"Function {name} is not in the library.")
    body = Graph(name)
    with context.building(body):
        feeds = {}
        for arg in fdef.signature.input_arg:
            feeds[arg.name] = body.placeholder(_d.as_dtype(arg.type), TensorShape(None),
                                               arg.name)
        ops = {n.name: n for n in fdef.node_def}
        nodes = [pb.NodeDef() for _ in fdef.node_def]
        for node, src in zip(nodes, fdef.node_def):
            node.CopyFrom(src)
            del node.input[:]
            node.input.extend(_graph_ref(r, ops) for r in src.input)
        made = _Importer(body, library).run(nodes, feeds)
        refs = [_graph_ref(fdef.ret[a.name], ops) for a in fdef.signature.output_arg]
        body.outputs = [made[r if ":" in r else f"{r}:0"] for r in refs]  # (an argument)
    return body


def body_graph_def(fdef, library=None):
    """The body of FunctionDef `fdef` as a `GraphDef`, as TF instantiates it (and its run
    metadata shows it): an ``_Arg`` node per argument, the body's nodes with graph inputs
    (``node:i``), a ``<result>_RetVal`` ``_Retval`` node per result; `library` (a `Library`)
    gives the functions it calls."""
    nodes = {n.name: n for n in fdef.node_def}
    out = pb.GraphDef(versions=pb.VersionDef(producer=PRODUCER))
    for i, arg in enumerate(fdef.signature.input_arg):
        node = out.node.add(name=arg.name, op="_Arg")
        if i in fdef.arg_attr:
            for key, value in fdef.arg_attr[i].attr.items():
                node.attr[key].CopyFrom(value)
        node.attr["T"].type = arg.type
        node.attr["index"].i = i
    for src in fdef.node_def:
        node = out.node.add()
        node.CopyFrom(src)
        del node.input[:]
        node.input.extend(_first_as_node(_graph_ref(r, nodes)) for r in src.input)
    for i, arg in enumerate(fdef.signature.output_arg):
        node = out.node.add(name=f"{arg.name}_RetVal", op="_Retval",
                            input=[_first_as_node(_graph_ref(fdef.ret[arg.name], nodes))])
        node.attr["T"].type = arg.type
        node.attr["index"].i = i
    if library is not None:
        out.library.function.extend(f for name, f in library.functions.items()
                                    if f is not None and f is not fdef)
    return out


def _first_as_node(ref):
    """A GraphDef input naming a node's first output by the node alone (``mul``)."""
    return ref[:-2] if ref.endswith(":0") else ref


def _graph_ref(ref, ops):
    """A FunctionDef body reference (``node:arg:i``) as a GraphDef input (``node:j``);
    `ops`: the body's NodeDef (or op type) of each node name."""
    if ref.startswith("^"):
        return ref
    parts = ref.split(":")
    if len(parts) == 1:
        return ref  # a function argument
    node = parts[0]
    arg, index = parts[1], int(parts[2]) if len(parts) > 2 else 0
    found = ops.get(node)
    op_type = getattr(found, "op", found)
    if op_type is not None and op_type not in ("Const", "Placeholder"):
        try:
            op_def = registry.get(op_type)
        except errors.NotFoundError:
            return f"{node}:{index}"
        form = tf_nodes.get(op_def)
        names = getattr(form, "outputs", None) or ()
        if len(names) > 1:
            index += _output_offset(names, arg, found)
    return f"{node}:{index}"


# -- reading -----------------------------------------------------------------------------

class _Importer:
    """Adds the nodes of a GraphDef to `graph` (being built) through `create_op`."""

    def __init__(self, graph, library, prefix=""):
        self.graph, self.library, self.prefix = graph, library, prefix
        self.bodies = {}  # id(body graph read from the library) -> its FunctionBody
        # (a TF 1 graph's, or one `wrap_function` imports it into: its operations are run by
        # name, a constant and a NoOp with their control inputs)
        self.by_name = not graph.building_function or getattr(graph, "runs_by_name", False)
        self.control = getattr(graph, "control_inputs", None)
        if self.control is None:
            self.control = graph.control_inputs = {}

    def run(self, nodes, feeds):
        """`feeds`: tensor name (``x``, ``x:1``) -> tensor given in its place. Returns every
        tensor made, by its GraphDef name (``node:i``)."""
        made = {}
        for name, t in feeds.items():
            made[name if ":" in name else f"{name}:0"] = t
        for node in _topological(nodes):
            if node.op == "Placeholder" and f"{node.name}:0" in made:
                continue  # fed: nothing to make
            self.node(node, made)
        return made

    def named(self, value):
        """An attr value, a body graph (a ``func`` attr) made a function of the graph's library
        and named by it, as control flow and calls hold their functions."""
        if isinstance(value, tuple) and value and all(isinstance(v, Graph) for v in value):
            return tuple(self.named(v) for v in value)
        if not isinstance(value, Graph):
            return value
        body = self.bodies.get(id(value))
        if body is None:
            body = self.bodies[id(value)] = FunctionBody(value.name, value, value.inputs,
                                                         value.outputs)
            add_function(self.graph, body)
        return body.name

    def tensor(self, ref, made, consumer):
        name = ref if ":" in ref else f"{ref}:0"
        try:
            return made[name]
        except KeyError:
            raise ValueError(f"Node '{consumer}': Unknown input node '{ref}'") from None

    def node(self, node, made):
        graph, name = self.graph, self.prefix + node.name
        attrs = {k: self.named(attr_from_proto(v, self.library)) for k, v in node.attr.items()}
        data = [r for r in node.input if not r.startswith("^")]
        control = [self.prefix + r[1:] for r in node.input if r.startswith("^")]
        if node.op == "Placeholder":
            op = graph._add(None, "Placeholder", graph._unique(name), (),
                            {"dtype": attrs["dtype"], "shape": attrs.get("shape",
                                                                         TensorShape(None))},
                            [(TensorShape(attrs.get("shape", TensorShape(None))),
                              attrs["dtype"])])
            made.setdefault(f"{node.name}:0", op.outputs[0])
            return
        if node.op == "Const":
            value = attrs["value"]
            const = graph.constant(value, name=graph._unique(name))
            made.setdefault(f"{node.name}:0", const)
            if control and self.by_name:
                # (a TF 1 graph's constant made under `control_dependencies` waits as well)
                self.control[const.op.name] = control
            return
        if node.op == "NoOp":
            if self.by_name:  # (`init`, a saver's `save/restore_all`)
                name = graph._add(None, "NoOp", graph._unique(name), (), {}, []).name
            self.control[name] = control
            return
        if node.op == "PlaceholderWithDefault":
            # its input unless a run feeds another value (a TF 1 saver's filename): an
            # Identity of it, of the less specific shape, whose value is never folded
            with context.building(graph):
                graph.create_op(registry.get("Identity"), [self.tensor(data[0], made, node.name)],
                                {}, name=name)
            out = graph.get_operations()[-1].outputs[0]
            out._shape, out._fed_default = TensorShape(attrs.get("shape")), True
            made.setdefault(f"{node.name}:0", out)
            if control:
                self.control[out.op.name] = control
            return
        try:
            op_def = registry.get(node.op)
        except errors.NotFoundError:
            raise errors.NotFoundError(
                None, None, f"Op type not registered '{node.op}' in binary running on "
                            f"eagerflow. Make sure the Op and Kernel are registered in the "
                            f"binary running in this process.") from None
        inputs = []
        for ref in data:
            t = self.tensor(ref, made, node.name)
            value = None
            if isinstance(t, SymbolicTensor) and t.dtype.is_numpy_compatible:
                # a constant, or what constants and static shapes determine (a dim of a
                # shape TF computes at run time): what eagerflow may hold as an attr
                value = t.op.value if t.op.type == "Const" else t.static_value()
            inputs.append((t, value))
        try:
            our_attrs, our_inputs = from_tf_node(op_def, attrs, inputs)
        except ValueError as e:
            raise errors.UnimplementedError(None, node.name, f"Node '{node.name}': {e}.") \
                from None
        if any(isinstance(t, SymbolicTensor) and t.dtype == _d.resource for t in our_inputs):
            # a variable's handle only run time gives: TF's attrs say what it holds
            op = graph._add(op_def, op_def.name, graph._unique(name), tuple(our_inputs),
                            our_attrs, _resource_specs(node, attrs, op_def, our_attrs,
                                                       our_inputs))
        else:
            with context.building(graph):
                graph.create_op(op_def, our_inputs, our_attrs, name=name)
            op = graph.get_operations()[-1]
        if control:
            self.control[name] = control
        override = attrs.get("_gradient_op_type")
        if override is not None and "_gradient_op_type" not in op.attrs:
            # (a `gradient_override_map`'s, on an op that does not keep it as an attr)
            overridden_gradient(op, override if isinstance(override, str) else
                                   override.decode())
        for i, t in enumerate(op.outputs):  # (a fed tensor stays what `input_map` gave)
            made.setdefault(f"{node.name}:{i}", t)


def _resource_specs(node, attrs, op_def, our_attrs, our_inputs=()):
    """The output specs of a node reading a variable through a handle fed at run time."""
    form = tf_nodes.get(op_def, None)
    if "dtype" not in attrs and (op_def in tf_args and tf_args.get(op_def) is None or
                                 op_def in table_ops) and our_inputs:
        # a lookup table's op (its table a Python object): its rule gives its outputs (a
        # captured table is given as it is: its value shape sizes them)
        specs = op_def.shape(*[_Static() if getattr(t, "dtype", None) == _d.resource and
                               _unknown(t) else t for t in our_inputs], **our_attrs)
        return specs if op_def.multi else [specs]
    if op_def.multi and getattr(form, "functions", None):
        try:  # a loop or branch (in a body taking the handle): its attrs give its outputs
            return op_def.shape(*[_Static()] * len(node.input), **our_attrs)
        except (TypeError, KeyError, LookupError):
            pass
    if op_def.multi and not op_def.shape(*[_Static()] * len(node.input), **{}) == []:
        raise errors.UnimplementedError(None, node.name, f"Node '{node.name}' ({node.op}) "
                                                         f"takes a variable eagerflow lacks.")
    if op_def.multi:
        return []
    if "dtype" not in attrs and our_inputs:
        # an op whose outputs' dtype does not depend on what the handle holds (a random
        # generator's state read and skip, a variable's shape): its rule gives them, TF's
        # recorded shape where the rule cannot know it
        spec = op_def.shape(*[_Static() if getattr(t, "dtype", None) == _d.resource else t
                              for t in our_inputs], **our_attrs)
        if spec[1] != _d.resource:
            recorded = attrs.get("_output_shapes")
            if recorded and not spec[0].is_fully_defined():
                spec = (spec[0].merge_with(TensorShape(recorded[0])), spec[1])
            return [spec]
    if "dtype" not in attrs:  # a handle of another resource (a lookup table's)
        raise errors.UnimplementedError(None, node.name, f"Node '{node.name}' ({node.op}) "
                                                         f"takes a resource other than a "
                                                         f"variable, which eagerflow cannot "
                                                         f"restore.")
    shapes = attrs.get("_output_shapes") or (TensorShape(None),)
    return [(TensorShape(shapes[0]), attrs["dtype"])]


class _Static:
    shape, dtype = TensorShape(None), _d.resource


def _unknown(t):
    """Whether resource tensor `t` is fed at run time (not a captured object's handle)."""
    return getattr(t, "static_value", lambda: None)() is None


def _topological(nodes):
    """`nodes` ordered so that each comes after its inputs (control inputs included)."""
    by_name = {n.name: n for n in nodes}
    order, state = [], {}
    for root in nodes:
        if root.name in state:
            continue
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                state[node.name] = 2
                order.append(node)
                continue
            if state.get(node.name) == 2:
                continue
            state[node.name] = 1
            stack.append((node, True))
            for ref in node.input:
                dep = by_name.get(ref.lstrip("^").split(":")[0])
                if dep is not None and state.get(dep.name) is None:
                    stack.append((dep, False))
                elif dep is not None and state.get(dep.name) == 1 and dep is not node:
                    if not any(d is dep and not f for d, f in stack):
                        raise errors.InvalidArgumentError(
                            None, None, f"The GraphDef has a cycle through node {dep.name}.")
    return order


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None):
    """Adds the nodes of `graph_def` to the graph being built (TF's
    ``tf.graph_util.import_graph_def``); see the public docstring."""
    graph = context.get().graph
    if graph is None:  # eagerly: into a graph of its own, as TF imports into its default one
        with context.building(Graph("import")):
            return import_graph_def(graph_def, input_map, return_elements, name)
    if not isinstance(graph_def, pb.GraphDef):
        if type(graph_def).__name__ != "GraphDef" or not hasattr(graph_def,
                                                                 "SerializeToString"):
            raise TypeError("Argument `graph_def` must be a GraphDef proto.")
        graph_def = pb.GraphDef.FromString(graph_def.SerializeToString())  # TF's own class
    prefix = "import" if name is None else name
    if prefix:
        prefix = graph.unique_name(prefix) + "/"
    library = Library(graph_def.library.function)
    feeds = {}
    for key, value in (input_map or {}).items():
        if getattr(value, "_handle", None) is not None:  # a variable, for a resource input
            feeds[key.lstrip("^")] = value
            continue
        if not isinstance(value, SymbolicTensor) or value.graph is not graph:
            value = graph.capture(value) if isinstance(value, SymbolicTensor) else \
                _convert(value)
        feeds[key.lstrip("^")] = value
    names = {n.name for n in graph_def.node}
    for key in feeds:
        if key.split(":")[0] not in names:
            raise ValueError(f"Attempted to map inputs that were not found in graph_def: "
                             f"[{key}]")
    made = _Importer(graph, library, prefix).run(list(graph_def.node), feeds)
    if return_elements is None:
        return None
    out = []
    for element in return_elements:
        if ":" in element:
            if element not in made:
                raise ValueError(f"Requested return tensor '{element}' not found in graph def")
            out.append(made[element])
        else:
            try:
                out.append(graph.get_operation_by_name(prefix + element))
            except KeyError:
                raise ValueError(f"Requested return node '{element}' not found in graph "
                                 f"def") from None
    return out


def _convert(value):
    from eagerflow._src.core.convert import convert_to_tensor
    return convert_to_tensor(value)
