"""TF 1's graph tools kept by TF 2 (``tf.compat.v1``): `import_graph_def` and `wrap_function`,
which together run a frozen graph (a ``GraphDef``) as TF 2 documents.

>>> gd = tf.function(lambda x: tf.nn.relu(x)).get_concrete_function(
...     tf.TensorSpec([None], tf.float32)).graph.as_graph_def()
>>> imported = tf.compat.v1.wrap_function(
...     lambda: tf.compat.v1.import_graph_def(gd, name=""), [])
>>> relu = imported.prune("x:0", "Identity:0")
>>> relu(tf.constant([-1.0, 2.0]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>

The messages live in `messages`, which imports the protobuf runtime: ``tf.compat.v1``
loads on first use, so ``import eagerflow`` does not import protobuf.
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors, nest
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.function.concrete_function import ConcreteFunction
from eagerflow._src.function.polymorphic_function import output_tensor
from eagerflow._src.graph.graph import Graph, Operation, SymbolicTensor

@export("import_graph_def", "graph_util.import_graph_def", "compat.v1.import_graph_def",
        "compat.v1.graph_util.import_graph_def")
def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Imports the nodes of `graph_def` (a ``GraphDef``) into the graph being built, running
    each with eagerflow's kernels.

    `input_map` maps names of `graph_def`'s tensors (``"x:0"``) to tensors used in their
    place; `return_elements` names tensors (``"y:0"``) or operations (``"train"``) to
    return, else None is returned; `name` prefixes the imported names (``"import"`` by
    default; ``""`` keeps them). A node of an op eagerflow lacks raises NotFoundError.
    `op_dict` and `producer_op_list` are accepted and ignored, as in TF 2.
    """
    del op_dict, producer_op_list
    from eagerflow._src.graph import graph_def as _graph_def  # noqa: PLC0415
    from eagerflow._src.compat import graph_mode  # noqa: PLC0415
    graph = graph_mode.v1_graph()
    input_map = dict(input_map or {})
    handles = [n for n in getattr(graph_def, "node", ()) if n.op == "VarHandleOp"
               and f"{n.name}:0" not in input_map and n.name not in input_map]
    if graph is None or not handles:
        return _graph_def.import_graph_def(graph_def, input_map, return_elements, name)
    # A TF 1 graph's variables (``VarHandleOp``s): graph variables of this graph, their
    # handles fed in, initialized by running the graph's own initializers.
    from eagerflow._src.compat import variable_scope  # noqa: PLC0415
    from eagerflow._src.core import dtypes as _d  # noqa: PLC0415
    scope = "import" if name is None else name
    prefix = graph.unique_name(scope) + "/" if scope else ""
    kept = type(graph_def)()
    kept.CopyFrom(graph_def)
    names = {h.name for h in handles}
    for node in kept.node:
        if node.name in names:
            dtype, shape = node.attr["dtype"].type, node.attr["shape"].shape
            node.ClearField("attr")
            node.op = "Placeholder"
            node.attr["dtype"].type = _d.resource.as_datatype_enum
            var = variable_scope.GraphVariable._of_imported_graph(
                graph, f"{prefix}{node.name}:0", _d.as_dtype(dtype),
                TensorShape(None if shape.unknown_rank else
                            [d.size if d.size >= 0 else None for d in shape.dim]), True)
            input_map[f"{node.name}:0"] = var
    out = _graph_def.import_graph_def(kept, input_map, return_elements, prefix or "")
    for node in handles:
        var = input_map[f"{node.name}:0"]
        for attr, found in (("_initializer_op", f"{prefix}{node.name}/Assign"),
                            ("_snapshot", f"{prefix}{node.name}/Read/ReadVariableOp:0")):
            try:
                setattr(var, attr, graph.as_graph_element(found))
            except (KeyError, ValueError):
                pass  # (not TF's layout: no initializer or snapshot by name)
    return out


class WrappedFunction(ConcreteFunction):
    """A function traced once into a graph by `wrap_function`, whose parts can be cut out
    with `prune`."""

    def __init__(self, name, graph, inputs, structured_outputs, input_signature):
        try:
            super().__init__(name, graph, inputs, structured_outputs, input_signature)
        except errors.InvalidArgumentError as e:
            # It needs placeholders no input feeds (an imported graph's): calls fail, while
            # `prune` can still cut out the parts that run.
            def run(*_, error=e):
                raise error
            self._run = run
            self._call_gradient = None

    def prune(self, feeds, fetches, name=None, input_signature=None):
        """A function computing `fetches` from `feeds`, both tensors (or their names) of
        this function's graph: it runs only the operations between them.

        `feeds` and `fetches` may be nested structures (or single tensors); the result takes
        the feeds, in order, and returns the fetches in their structure. A fetched operation
        is run for its effects and returns None.
        """
        del input_signature
        graph = self.graph
        flat_feeds = [_element(graph, f) for f in nest.flatten(feeds)]
        structured = nest.map_structure(lambda f: _element(graph, f), fetches)
        flat_fetches = nest.flatten(structured)
        for f in flat_feeds:
            if not isinstance(f, SymbolicTensor):
                raise ValueError(f"Feeds must be tensors, got {f!r}.")
        return _prune(graph, flat_feeds, structured, flat_fetches, name or f"pruned_{self.name}")


def _element(graph, obj):
    if isinstance(obj, (str, SymbolicTensor, Operation)):
        return graph.as_graph_element(obj)
    raise TypeError(f"Can only prune with tensors, operations or their names, got {obj!r}.")


def needed_ops(graph, feeds, fetches):
    """The operations of `graph` that computing `fetches` (tensors and operations) from
    `feeds` runs, control inputs included, in the graph's order."""
    control = getattr(graph, "control_inputs", {})
    by_name = {op.name: op for op in graph.get_operations()}
    fed = {id(t) for t in feeds}
    # (a fetched tensor that is fed is the value fed: what computes it is not needed)
    needed, stack = set(), [f.op if isinstance(f, SymbolicTensor) else f for f in fetches
                            if id(f) not in fed]
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed.add(id(op))
        for t in op.inputs:
            if isinstance(t, SymbolicTensor) and id(t) not in fed:
                stack.append(t.op)
        for dep in _control_deps(op.name, control):
            if dep in by_name:
                stack.append(by_name[dep])
    return [op for op in graph.get_operations() if id(op) in needed]


def _prune(graph, feeds, structured, fetches, name):
    """A `ConcreteFunction` of a new graph holding the operations of `graph` between
    `feeds` and `fetches` (control inputs recorded by `import_graph_def` included)."""
    control = getattr(graph, "control_inputs", {})
    needed = {id(op) for op in needed_ops(graph, feeds, fetches)}
    pruned = Graph(name)
    pruned.functions.update(graph.functions)  # (the bodies its calls and loops name)
    mapping = {}
    with context.building(pruned):
        inputs, fed_variables = [], {}
        for t in feeds:
            inner = pruned.placeholder(t.dtype, t.shape, t.op.name)
            mapping[id(t)] = inner
            inputs.append(inner)
            if t.op.type == "ReadVariableOp" and getattr(t.op.inputs[0], "_ref", False):
                # A TF 1 ref variable fed (its read, which a Session feeds for it): every
                # read of the variable in the run is the value fed, as in TF.
                fed_variables[id(t.op.inputs[0])] = inner
        # A read of a variable that waits on nothing runs first, as in TF (whose executor
        # has it ready once the variable's handle is): a run fetching a variable and an
        # update of it without a dependency between them gives the value before the update.
        ops = [op for op in graph.get_operations() if id(op) in needed]
        # A TF 1 ref variable fetched itself (its snapshot, which nothing else of the run
        # takes) is the variable's buffer, which TF reads once the run is over: it shows
        # the run's updates.
        fetched = {id(f) for f in fetches if isinstance(f, SymbolicTensor)}
        taken = {id(t) for op in ops for t in op.inputs}
        last = [op for op in ops if op.type == "ReadVariableOp"
                and getattr(op.inputs[0], "_ref", False) and id(op.outputs[0]) in fetched
                and id(op.outputs[0]) not in taken]
        lasts = {id(op) for op in last}
        first = [op for op in ops if op.type == "ReadVariableOp" and not any(
            isinstance(t, SymbolicTensor) for t in op.inputs) and not _control_deps(
                op.name, control) and id(op) not in lasts]
        firsts = lasts | {id(op) for op in first}
        for op in first + [op for op in ops if id(op) not in firsts] + last:
            if all(id(t) in mapping for t in op.outputs) and op.outputs:
                continue  # a fed placeholder
            if op.type == "Placeholder":
                attrs = op.attrs
                # (TF's kernel gives the shape only when it has dimensions)
                shape = TensorShape(attrs["shape"])
                shape = f" and shape {_shape_text(shape)}" if shape.rank else ""
                raise errors.InvalidArgumentError(
                    None, op.name, f"You must feed a value for placeholder tensor '{op.name}' "
                                   f"with dtype {_dtype_text(attrs['dtype'])}{shape}")
            if op.type == "NoOp":  # (`group`: what it waits on is already needed)
                continue
            if op.type == "ReadVariableOp" and id(op.inputs[0]) in fed_variables:
                mapping[id(op.outputs[0])] = fed_variables[id(op.inputs[0])]
                continue
            if op.type == "Const":
                mapping[id(op.outputs[0])] = pruned.constant(op.value, name=op.name)
                continue
            args = [mapping.get(id(t), t) if isinstance(t, SymbolicTensor) else t
                    for t in op.inputs]
            out = pruned.create_op(op.op_def, args, dict(op.attrs), name=op.name)
            made = out if op.op_def.multi else (out,)
            for old, new in zip(op.outputs, made):
                mapping[id(old)] = new
            made_op = mapping[id(op)] = pruned.get_operations()[-1]
            made_op.location = op.location  # (where the user made it, for run errors)
    outputs = nest.map_structure(
        lambda f: mapping[id(f)] if isinstance(f, SymbolicTensor) else None, structured)
    # (no structured signature, as TF's: calls bind to the flat one, tensors in feed order)
    return ConcreteFunction(name, pruned, inputs, outputs, ((), {}))


def _dtype_text(dtype):
    """A dtype as TF's runtime messages name it (``float``, ``double``, ``int32``)."""
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def _shape_text(shape):
    """A shape as TF's runtime messages write it (``[?,3]``, ``<unknown>``)."""
    shape = TensorShape(shape)
    if shape.rank is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


def _control_deps(name, control):
    """The operations `name` waits on, through NoOps (which imported graphs drop)."""
    out, stack = [], list(control.get(name, ()))
    seen = set()
    while stack:
        dep = stack.pop()
        if dep in seen:
            continue
        seen.add(dep)
        out.append(dep)
        stack.extend(control.get(dep, ()))
    return out


@export("compat.v1.wrap_function")
def wrap_function(fn, signature, name=None):
    """Traces `fn` once, on placeholders of `signature` (a list of `TensorSpec`s), into a
    graph; returns a `WrappedFunction` calling it, whose `prune` cuts parts out of it
    (``tf.compat.v1.wrap_function``)."""
    name = name or getattr(fn, "__name__", "wrapped_function")
    graph = Graph(name)
    graph.runs_by_name = True  # (its operations are fetched by name with `prune`)
    specs = list(signature or ())
    with context.building(graph):
        args = [graph.placeholder(s.dtype, s.shape, s.name or f"arg{i}")
                for i, s in enumerate(specs)]
        outputs = fn(*args)
        outputs = nest.map_structure(
            lambda t: t if isinstance(t, (SymbolicTensor, Operation)) or t is None
            else output_tensor(t, fn), outputs)
    outputs = nest.map_structure(lambda t: None if isinstance(t, Operation) else t, outputs)
    return WrappedFunction(name, graph, list(graph.inputs), outputs, (tuple(specs), {}))
