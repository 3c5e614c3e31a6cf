"""Writing a SavedModel (``tf.saved_model.save``) as TensorFlow writes one.

``saved_model.pb`` holds one `MetaGraphDef` (tags ``serve``): a GraphDef whose
function library has a `FunctionDef` per saved concrete function (variables
passed in as resource arguments, TF's form), a node per signature input
(``serving_default_x``) feeding a ``StatefulPartitionedCall`` of the
signature's function, the `SignatureDef`s naming those tensors, and the
`SavedObjectGraph`: the objects reachable from the root (user objects,
variables, functions with their concrete functions, the ``signatures`` map),
each concrete function's bound inputs and structured signatures; and TF's save and
restore functions of the variables (``SaveV2``/``RestoreV2``) called from nodes the
`SaverDef` names, which TF 1's loader and TF Serving run to restore the variables.
``variables/`` is a checkpoint of the same object graph, node for node, and
``fingerprint.pb`` the SavedModel's fingerprint.
"""
import collections
import collections.abc
import inspect
import os

import numpy as np

from eagerflow._src.autodiff import backprop
from eagerflow._src.checkpoint import bundle, trackable
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors, nest, versions
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.protos import framework as fw_pb
from eagerflow._src.core.protos import saved_model as pb
from eagerflow._src.core.protos.tensors import shape_proto
from eagerflow._src.core.resource import TrackableResource
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable, VarHandle
from eagerflow._src.function.concrete_function import ConcreteFunction
from eagerflow._src.function.polymorphic_function import Function
from eagerflow._src.graph import graph_def as gd
from eagerflow._src.graph.graph import Graph, SymbolicTensor
from eagerflow._src.ops import file_system
from eagerflow._src.ops import lookup_ops
from eagerflow._src.saved_model import fingerprinting, structure
from eagerflow._src.saved_model import load as _load

SERVING = "serve"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
INIT_OP_SIGNATURE_KEY = "__saved_model_init_op"

FullArgSpec = collections.namedtuple(
    "FullArgSpec", ["args", "varargs", "varkw", "defaults", "kwonlyargs", "kwonlydefaults",
                    "annotations"])


class _FunctionNode:
    """A `tf.function` attribute of a saved object: its concrete functions are its children."""

    def __init__(self, function, concretes):
        self.function, self.concretes = function, concretes

    def _trackable_children(self):
        return [(f"trace_{i}", c) for i, c in enumerate(self.concretes)]


class _SignatureNode:
    """The ``signatures`` of the root: name -> signature wrapper."""

    def __init__(self, signatures):
        self.signatures = signatures

    def _trackable_children(self):
        return sorted(self.signatures.items())


class _SignatureFunction:
    """A signature: a concrete function taking keyword tensors and returning a dict."""

    def __init__(self, concrete, keys, out_keys):
        self.concrete = concrete    # the function it calls
        self.keys = keys            # input name of each of the concrete function's inputs
        # its outputs by name, sorted: ``(name, spec, positions)``, `spec` a composite's
        # (None for a tensor), `positions` its tensors' among the concrete function's outputs
        self.out_keys = out_keys

    def _trackable_children(self):
        return []


class _TableInitializer:
    """A static table's ``_initializer``: its vocabulary file (``_filename``), if any."""

    def __init__(self, initializer, asset):
        self.initializer, self.asset = initializer, asset

    def _trackable_children(self):
        return [] if self.asset is None else [("_filename", self.asset)]


class _Asset:
    """A file copied to ``assets/``: its path at save time."""

    def __init__(self, path):
        self.path = path

    def _trackable_children(self):
        return []


class _ResourceFunction:
    """One of a table's functions TF's loader runs: ``_create_resource``, ``_initialize``
    or ``_destroy_resource`` (written as FunctionDefs of TF's ops, not traced)."""

    def __init__(self, table, kind):
        self.table, self.kind = table, kind

    def _trackable_children(self):
        return []


class _SaveableFunction:
    """A mutable table's ``save_fn`` or ``restore_fn``: how TF's loader checkpoints its
    entries (``table-keys``, ``table-values``)."""

    def __init__(self, table, kind):
        self.table, self.kind = table, kind

    def _trackable_children(self):
        return []


def _table_children(table, assets):
    """A table's children in TF's order (`assets`: path -> its `_Asset`, shared)."""
    if isinstance(table, _load._RestoredResource):  # (a loaded one, saved again)
        out = [("_initializer", vars(table)["_initializer"])] \
            if "_initializer" in vars(table) else []
        return out + [(name, _ResourceFunction(table, name)) for name in (
            "_create_resource", "_initialize", "_destroy_resource")]
    if not isinstance(table, lookup_ops._Table):  # a user's resource: its `_initialize` traced
        initialize = Function(table._initialize, "_initialize", (), autograph=False)
        return [("_create_resource", _ResourceFunction(table, "_create_resource")),
                ("_initialize", _FunctionNode(initialize,
                                              [initialize.get_concrete_function()])),
                ("_destroy_resource", _ResourceFunction(table, "_destroy_resource"))]
    out = []
    init = getattr(table, "_initializer", None)
    if init is not None:
        asset = None
        if isinstance(init, lookup_ops.TextFileInitializer):
            asset = init._asset if init._asset is not None else \
                assets.setdefault(init._filename, _Asset(init._filename))
        out.append(("_initializer", _TableInitializer(init, asset)))
    return out + [(name, _ResourceFunction(table, name)) for name in (
        "_create_resource", "_initialize", "_destroy_resource")]


# (tables, loaded resources and a user's TrackableResource, whose handle must be a table's)
_TABLES = (TrackableResource,)
_ASSETS = (_Asset, _load._RestoredAsset)


# the values of the resource tensors a SavedModel re-creates: tables, and variables made
# by name (``VarHandleOp``)
_RESOURCE_VALUES = (lookup_ops.TableValue, VarHandle)


def _table_value(resource):
    """The table or variable behind a resource's handle (made now, as TF makes it when
    saving); TF's loader re-creates a user's resource by its ``_create_resource`` function,
    which eagerflow writes for a table's and a ``VarHandleOp``'s."""
    value = getattr(resource.resource_handle, "_data", None)
    if not isinstance(value, _RESOURCE_VALUES):
        raise errors.UnimplementedError(
            None, None, f"Cannot save {type(resource).__name__}: eagerflow saves a "
                        f"TrackableResource only when its _create_resource returns a lookup "
                        f"table's resource_handle or a VarHandleOp's resource.")
    return value


def _asset_path(asset):
    """The path of an asset's file at save time."""
    if isinstance(asset, _Asset):
        return asset.path
    return asset.asset_path.numpy().decode()


def _functions_of(obj):
    """``[(name, Function or ConcreteFunction)]`` of `obj`'s attributes, sorted by name, as TF
    saves them (methods decorated in the class included)."""
    if isinstance(obj, (Variable, list, tuple, dict, _FunctionNode, _SignatureNode,
                        _SignatureFunction, ConcreteFunction, *_TABLES,
                        _TableInitializer, *_ASSETS, _ResourceFunction, _SaveableFunction)):
        return []
    names = set(vars(obj)) if hasattr(obj, "__dict__") else set()
    for cls in type(obj).__mro__:
        names.update(k for k, v in vars(cls).items() if isinstance(v, Function))
    names -= (getattr(obj, "_TF_MODULE_IGNORED_PROPERTIES", frozenset()) |
              getattr(obj, "_UNTRACKED_ATTRIBUTES", frozenset()))
    out = []
    for name in sorted(names):
        try:
            static = inspect.getattr_static(obj, name)
        except AttributeError:
            continue
        if isinstance(static, (Function, ConcreteFunction, _load.RestoredFunction)):
            out.append((name, getattr(obj, name)))
    return out


def _concretes(function):
    """The concrete functions TF saves of `function`: its input signature's, or its traces."""
    if isinstance(function, ConcreteFunction):
        return [function]
    if isinstance(function, _load.RestoredFunction):  # (a loaded object's, saved again)
        return list(function.concrete_functions)
    if function._input_signature is not None:
        return [function.get_concrete_function()]
    return [c for _, c in function._traces]


class _ObjectGraph:
    """The saved objects, breadth first from the root (TF's node order)."""

    slots, _slot_keys = (), None  # (as `trackable.Graph`'s)

    def __init__(self, root, signatures, default=None):
        """`default`: a Keras model's serving function, saved as its root's
        ``_default_save_signature`` (as tf_keras does: what saving it again serves)."""
        self.objects, self.paths, self.edges = [root], [()], [[]]
        self.ids = {id(root): 0}
        self.functions = {}  # id(Function) -> _FunctionNode
        self.tables = {}  # id(a table's resource tensor) -> the table's node id
        self.asset_paths = {}  # id(a loaded asset's path tensor) -> the asset's node id
        assets = {}
        queue = collections.deque([0])
        while queue:
            i = queue.popleft()
            obj = self.objects[i]
            if isinstance(obj, _TABLES):
                self.tables[id(_table_value(obj))] = i
                edges = _table_children(obj, assets)
            else:
                edges = list(trackable.children(obj))
            if isinstance(obj, _load._RestoredAsset):
                self.asset_paths[id(obj.asset_path)] = i
            taken = {name for name, _ in edges}
            if not isinstance(obj, (*_TABLES, _TableInitializer, _ResourceFunction,
                                    *_ASSETS, list, tuple, dict)):
                # static tables (and a user's resources), which checkpoints skip (they
                # hold nothing to save)
                edges += [(k, v) for k, v in sorted(getattr(obj, "__dict__", {}).items())
                          if isinstance(v, TrackableResource) and k not in taken and
                          all(c is not v for _, c in edges)]
                taken = {name for name, _ in edges}
            hook = getattr(type(obj), "_saved_model_children", None)  # (a Keras layer's)
            # (a list's functions: a Keras layer's regularization losses, traced)
            listed = [(str(k), v) for k, v in enumerate(obj)
                      if isinstance(v, (Function, ConcreteFunction))] \
                if isinstance(obj, (list, tuple)) else []
            for name, function in _functions_of(obj) + listed + (
                    obj._saved_model_children() if hook is not None else []):
                if name in taken:
                    continue
                taken.add(name)
                if not isinstance(function, (Function, ConcreteFunction,
                                             _load.RestoredFunction)) or \
                        isinstance(function, ConcreteFunction) and hook is None:
                    # (a concrete function attribute is a bare concrete function, as TF's)
                    edges.append((name, function))
                    continue
                node = self.functions.get(id(function))
                if node is None:
                    node = self.functions[id(function)] = _FunctionNode(function,
                                                                        _concretes(function))
                edges.append((name, node))
            if i == 0:
                hook = getattr(type(obj), "_saved_model_call", None)  # (a Keras model's)
                call = obj._saved_model_call() if hook is not None else None
                if call is not None and "__call__" not in taken:
                    node = self.functions[id(call)] = _FunctionNode(call, _concretes(call))
                    edges.append(("__call__", node))
                if default is not None and "_default_save_signature" not in taken:
                    edges.append(("_default_save_signature", default))
                edges.append(("signatures", _SignatureNode(signatures)))
            for name, child in edges:
                j = self.ids.get(id(child))
                if j is None:
                    j = self.ids[id(child)] = len(self.objects)
                    self.objects.append(child)
                    self.paths.append(self.paths[i] + (name,))
                    self.edges.append([])
                    queue.append(j)
                self.edges[i].append((j, name))

        # the slot variables of optimizers that keep them by variable (the legacy ones), as
        # the checkpoint lists them: nodes after the others, referenced by the optimizer
        trackable.Graph._add_slots(self, self.ids)
        # a mutable table's save and restore functions, after every other node (as TF's)
        self.saveables = {}  # table's node id -> (save_fn's, restore_fn's)
        for i, obj in enumerate(list(self.objects)):
            if isinstance(obj, (lookup_ops.MutableHashTable, lookup_ops.DenseHashTable)) and \
                    obj._checkpoint or isinstance(obj, _load._RestoredMutableTable):
                ids = []
                for kind in ("save_fn", "restore_fn"):
                    ids.append(len(self.objects))
                    self.objects.append(_SaveableFunction(obj, kind))
                    self.paths.append(self.paths[i] + (kind,))
                    self.edges.append([])
                self.saveables[i] = tuple(ids)

    def checkpoint(self):
        """The `trackable.Graph` of these nodes: the checkpoint's object graph, node for node."""
        graph = trackable.Graph.__new__(trackable.Graph)
        graph.objects, graph.paths, graph.edges = self.objects, self.paths, self.edges
        graph.slots, graph._slot_keys = self.slots, self._slot_keys
        return graph


# -- signatures ------------------------------------------------------------------------------

def _call_op(stateful):
    """The op calling a function, as TF picks it: by whether the function has state."""
    return "StatefulPartitionedCall" if stateful else "PartitionedCall"


def _signature_concrete(value):
    if isinstance(value, ConcreteFunction):
        # a loaded signature (outputs read as specs) is saved as the function it wraps
        return getattr(value, "_wrapped", value)
    if isinstance(value, Function) and value._input_signature is not None:
        return value.get_concrete_function()
    if isinstance(value, _load.RestoredFunction) and value._input_signature is not None and \
            len(value.concrete_functions) == 1:
        return value.concrete_functions[0]
    raise ValueError(f"Expected a TensorFlow function for which to generate a signature, but "
                     f"got {value}. Only `tf.functions` with an input signature or concrete "
                     f"functions can be used as a signature.")


def _find_default_signature(root):
    """TF's choice of ``serving_default`` when none is given: the root's one function with
    an input signature that makes a valid signature (tensors in, tensors out), if it has
    exactly one; functions returning nothing (a setter) are not candidates. A function named
    ``_default_save_signature`` (a loaded Keras model's) is the one."""
    functions = _functions_of(root)
    named = [f for name, f in functions if name == "_default_save_signature"]
    if named:
        return named[0]
    found = [f for _, f in functions
             if isinstance(f, (Function, _load.RestoredFunction)) and
             f._input_signature is not None and _valid_default(f)]
    return found[0] if len(found) == 1 else None


def _valid_default(function):
    if not all(isinstance(s, TensorSpec) or _is_composite_spec(s)
               for s in nest.flatten(function._input_signature)):
        return False  # (a signature takes tensors: a composite input takes its components)
    try:
        _output_keys(function.get_concrete_function(), DEFAULT_SERVING_SIGNATURE_DEF_KEY)
    except ValueError:
        return False
    return True


def _is_composite_spec(spec):
    """Whether `spec` is a ragged, sparse or extension type's, taken as its components."""
    return not isinstance(spec, TensorSpec) and hasattr(spec, "_component_specs")


def _keras_default_signature(root):
    """A Keras model's serving function (a concrete function), or None."""
    hook = getattr(type(root), "_default_save_signature", None)
    return root._default_save_signature() if callable(hook) else None


def _canonical_signatures(root, signatures, default=None):
    """`signatures` as ``{key: concrete function}``; `default`: a Keras model's serving
    function, the default when none is given."""
    if signatures is None:
        found = default if default is not None else _find_default_signature(root)
        signatures = {} if found is None else {DEFAULT_SERVING_SIGNATURE_DEF_KEY: found}
    elif not isinstance(signatures, collections.abc.Mapping):  # (a loaded object's map too)
        signatures = {DEFAULT_SERVING_SIGNATURE_DEF_KEY: signatures}
    out = {}
    for key, value in signatures.items():
        if not isinstance(key, str):
            raise ValueError(f"Expected signature keys to be strings, got {key!r}.")
        concrete = _signature_concrete(value)
        out[key] = _SignatureFunction(concrete, _input_keys(concrete),
                                      _output_keys(concrete, key))
    return out


def _input_keys(concrete):
    """The signature's name of each input of `concrete` (a spec's name, else its argument's)."""
    keys = []
    inputs = iter(concrete._inputs)
    for name, _, value in concrete._parameters():
        leaves = [v for v in nest.flatten(value)
                  if isinstance(v, TensorSpec) or _is_composite_spec(v)]
        for i, spec in enumerate(leaves):
            key = getattr(spec, "name", None) or (name if len(leaves) == 1 else f"{name}_{i}")
            if isinstance(spec, TensorSpec):
                # (a nested spec is named by its path; TF's key is its placeholder's name)
                placeholder = next(inputs, None)
                keys.append(key if len(leaves) == 1 or placeholder is None
                            else placeholder.op.name)
            else:  # a composite's tensors, as TF names them: x, x_1, x_2, ...
                count = len(nest.flatten(spec, expand_composites=True))
                keys += [f"{key}_{j}" if j else key for j in range(count)]
                for _ in range(count):
                    next(inputs, None)
    if len(keys) != len(concrete._inputs) or len(set(keys)) != len(keys):
        keys = [t.op.name for t in concrete._inputs]
    return keys


def _composite_spec(value):
    """The spec of a composite tensor a SavedModel can record (ragged, sparse, an extension
    type with a registered name), else None."""
    spec = getattr(value, "_type_spec", None)
    if getattr(spec, "_tf_registered_name", None) is not None:
        return spec
    return spec if type(spec) in structure.composite_specs() else None


def _output_keys(concrete, signature_key):
    """The signature's outputs (see `_SignatureFunction.out_keys`): tensors and composite
    tensors (TF's signatures return ragged and sparse ones, by their components)."""
    outputs = concrete.structured_outputs

    def allowed(v):
        return isinstance(v, SymbolicTensor) or _composite_spec(v) is not None
    where = (f"in the output of the function {concrete._inference_name} used to generate the "
             f"SavedModel signature {signature_key!r}")
    if isinstance(outputs, dict):
        names = sorted(outputs)
        values = [outputs[k] for k in names]
    elif hasattr(outputs, "_asdict"):  # a namedtuple's outputs are named by its fields
        names, values = list(outputs._fields), list(outputs)
    else:
        values = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        names = [f"output_{i}" for i in range(len(values))]
    for name, value in zip(names, values):
        if not isinstance(name, str):
            raise ValueError(f"Got a dictionary with a non-string key {name!r} {where}.")
        if not allowed(value):
            raise ValueError(f"Got a non-Tensor value {value!r} for key {name!r} {where}. "
                             f"Outputs for functions used as signatures must be a single "
                             f"Tensor, a sequence of Tensors, or a dictionary from string to "
                             f"Tensor.")
    entries, position = [], 0  # (the outputs are the values' tensors, in the values' order)
    for name, value in zip(names, values):
        spec = _composite_spec(value)
        n = 1 if spec is None else len(nest.flatten(value, expand_composites=True))
        entries.append((str(name), spec, list(range(position, position + n))))
        position += n
    return sorted(entries, key=lambda e: e[0])


# -- writing ---------------------------------------------------------------------------------

def _spec(t, name=None):
    return TensorSpec(t.shape, t.dtype, name)


def _signature_value(value):
    """A traced value as its `StructuredValue`-ready form (tensors as `TensorSpec`s)."""
    def leaf(v):
        if isinstance(v, SymbolicTensor):
            return _spec(v)
        if isinstance(v, (EagerTensor, np.ndarray)):
            return TensorSpec(v.shape, v.dtype)
        if hasattr(getattr(v, "_type_spec", None), "_to_components"):  # a composite: its spec
            return v._type_spec
        return v
    return nest.map_structure(leaf, value)


def _output_signature(value):
    """The outputs `value` of a traced function as specs named by their place in it, as TF
    names them: the keys, fields and indices on the way, joined by ``_`` (``"nested_k1"``,
    ``"tensor_0"``; a lone tensor is ``"unknown"``)."""
    def paths(v, path):  # in the order `nest.flatten` gives the leaves
        if isinstance(v, collections.abc.Mapping):
            return [p for k in sorted(v) for p in paths(v[k], path + (k,))]
        if hasattr(v, "_asdict"):
            return [p for f, x in zip(v._fields, v) for p in paths(x, path + (f,))]
        if isinstance(v, (list, tuple)):
            return [p for i, x in enumerate(v) for p in paths(x, path + (i,))]
        return [path]
    leaves = nest.flatten(value)
    named = [_spec(v, _spec_name("_".join(str(p) for p in path)))
             if isinstance(v, SymbolicTensor) else v
             for v, path in zip(leaves, paths(value, ()))]
    return _signature_value(nest.pack_sequence_as(value, named))


def _spec_name(name):
    """`name` as a spec's name: lower case, each other character than letters and digits
    ``_``, and ``tensor_`` before one not starting with a letter."""
    if not name:
        return "unknown"
    name = "".join(c if c.isalnum() else "_" for c in name.lower())
    return name if name[0].isalpha() else f"tensor_{name}"


def _input_signature(concrete):
    args, kwargs = concrete.structured_input_signature
    named_args = []
    parameters = concrete._parameters()
    params = [name for name, kind, _ in parameters if kind != "KEYWORD_ONLY"]
    if all(kind == "POSITIONAL_OR_KEYWORD" for _, kind, _ in parameters[:len(params)]):
        # (as TF records them: the positional parameters left at their defaults too, so that
        # a loader binding a call to the whole signature finds this function)
        args = tuple(args) + tuple(value for _, _, value in parameters[len(args):len(params)])
    for i, a in enumerate(args):
        if isinstance(a, TensorSpec) and a.name is None and i < len(params):
            a = TensorSpec(a.shape, a.dtype, params[i])
        named_args.append(a)
    kwargs = {k: TensorSpec(v.shape, v.dtype, v.name or k) if isinstance(v, TensorSpec) else v
              for k, v in kwargs.items()}
    return _signature_value((tuple(named_args), kwargs))


def _encode(value, what):
    try:
        return structure.encode(value)
    except TypeError as e:
        raise ValueError(f"Unable to save {what}: {e}") from None


class _Writer:
    def __init__(self, root, signatures):
        self.root = root
        default = self.default = _keras_default_signature(root)
        self.signatures = _canonical_signatures(root, signatures, default)
        self.graph = _ObjectGraph(root, self.signatures, default)
        self.library = gd.Library(add_shapes=True)
        self.proto = pb.SavedObjectGraph()
        self.graph_def = fw_pb.GraphDef(versions=fw_pb.VersionDef(producer=gd.PRODUCER,
                                                                  min_consumer=12))
        self.names = {}  # id(ConcreteFunction) -> its FunctionDef's name
        self.bound = {}  # id(ConcreteFunction) -> node ids of its captured values
        self.constants = {}  # id(captured tensor) -> node id of its constant
        self.uid = 0
        self.written = {}  # FunctionDef name -> the ConcreteFunction written under it
        self.custom_gradients = True  # SaveOptions.experimental_custom_gradients

    def unique(self, name):
        self.uid += 1
        return f"{name}_{self.uid}"

    def concrete(self, cf):
        """Writes `cf`'s FunctionDef and its SavedConcreteFunction; returns its name."""
        name = self.names.get(id(cf))
        if name is not None:
            return name
        name = self.names[id(cf)] = self.unique(f"__inference_{cf._name}")
        self.written[name] = cf
        args = gd.function_arguments(cf)
        fdef = gd.function_def(cf, name, self.library)
        bound = []
        for value in args[len(cf._inputs):]:
            bound.append(self._captured(value, cf))
        self._bind_asset_paths(cf, fdef, bound)
        for i, t in enumerate(cf._inputs):  # (their shapes written with the body's)
            fdef.arg_attr[i].attr["_user_specified_name"].s = t.op.name.encode()
        saved = self.proto.concrete_functions[name]
        saved.bound_inputs.extend(bound)
        saved.canonicalized_input_signature.CopyFrom(
            _encode(_input_signature(cf), f"the inputs of function {cf._name!r}"))
        outputs = vars(cf)["_saved_output_signature"] if \
            "_saved_output_signature" in vars(cf) else _output_signature(cf.structured_outputs)
        saved.output_signature.CopyFrom(_encode(outputs, f"the outputs of function {cf._name!r}"))
        self.bound[id(cf)] = bound
        return name

    def _bind_asset_paths(self, cf, fdef, bound):
        """Makes each asset path `cf` captured (as a constant: the path at save time) an
        argument bound to its asset, as TF saves it, so that the loaded function reads the
        copy under ``assets/``."""
        graph = getattr(cf, "graph", cf)
        consts = {inner.op.name: self.graph.asset_paths[id(outer)]
                  for outer, inner in getattr(graph, "captures", ())
                  if id(outer) in self.graph.asset_paths and
                  getattr(getattr(inner, "op", None), "type", None) == "Const"}
        consts = {name: node for name, node in consts.items()
                  if any(n.name == name for n in fdef.node_def)}
        if not consts:
            return
        taken = {a.name for a in fdef.signature.input_arg}
        renamed = {}
        for name, node in consts.items():
            arg = next(a for a in (f"asset_path_{i}" if i else "asset_path"
                                   for i in range(len(taken) + 1)) if a not in taken)
            taken.add(arg)
            fdef.signature.input_arg.add(name=arg, type=_d.string.as_datatype_enum)
            renamed[f"{name}:output:0"] = arg
            bound.append(node)
        kept = [n for n in fdef.node_def if n.name not in consts]
        del fdef.node_def[:]
        for node in kept:
            inputs = [renamed.get(i, i) for i in node.input if i[1:] not in consts]
            del node.input[:]
            node.input.extend(inputs)
        fdef.node_def.extend(kept)
        for key, value in list(fdef.ret.items()):
            fdef.ret[key] = renamed.get(value, value)

    def _captured(self, value, cf):
        """The node id of a value a function captures: a saved variable or table, or a
        constant."""
        table = value if isinstance(value, _RESOURCE_VALUES) else \
            getattr(value, "_data", None)
        if isinstance(table, _RESOURCE_VALUES):
            found = self.graph.tables.get(id(table))
            if found is None:
                raise AssertionError(
                    f"Tried to export a function which references an 'untracked' resource. "
                    f"TensorFlow objects (e.g. tf.Variable) captured by functions must be "
                    f"'tracked' by assigning them to an attribute of a tracked object or "
                    f"assigned to an attribute of the main object directly. (a lookup table "
                    f"captured by the function {cf._name!r})")
            return found
        if isinstance(value, Variable):
            # (a replica's copy of a distributed variable is saved as the variable)
            container = getattr(value, "_distributed_container", None)
            value = value if container is None else container
            found = self.graph.ids.get(id(value))
            if found is None:
                raise AssertionError(
                    f"Tried to export a function which references an 'untracked' resource. "
                    f"TensorFlow objects (e.g. tf.Variable) captured by functions must be "
                    f"'tracked' by assigning them to an attribute of a tracked object or "
                    f"assigned to an attribute of the main object directly. \n\n Trackable "
                    f"Python objects referring to this tensor (from gc.get_referrers, limited "
                    f"to two hops):\n{value!r} (captured by the function {cf._name!r})")
            return found
        found = self.graph.asset_paths.get(id(value))  # (a loaded asset's path: its node)
        if found is not None:
            return found
        found = self.constants.get(id(value))  # (a forward value a gradient function reads
        # is a captured_tensor node there, made by `_gradient_functions`)
        if found is None:
            array = np.asarray(value._data if isinstance(value, EagerTensor) else value)
            op = self.unique("Const")
            self.graph_def.node.add().CopyFrom(gd._const_node(op, array))
            found = self.constants[id(value)] = len(self.graph.objects) + len(self.extra)
            self.extra.append(_constant_node(op))
        return found

    def signature_function(self, sig, key):
        """Writes the FunctionDef of signature `key` (a call of its concrete function taking
        and returning tensors by name, in sorted order); returns its name.

        As TF writes it: ``__inference_signature_wrapper_<function>_<n>``, its captured
        inputs ``unknown``, ``unknown_0``, ..., a ``PartitionedCall`` of a function without
        state (``StatefulPartitionedCall`` otherwise, run through a ``NoOp`` before the
        outputs), and each output an ``Identity`` (``identity``, ``identity_1``, ...)."""
        inner = self.concrete(sig.concrete)
        inner_name = inner[len("__inference_"):] if inner.startswith("__inference_") else inner
        inner_name = inner_name.rpartition("_")[0] if inner_name.rpartition("_")[2].isdigit() \
            else inner_name
        name = self.unique(f"__inference_signature_wrapper_{inner_name}")
        cf = sig.concrete
        fdef = fw_pb.FunctionDef(signature=fw_pb.OpDef(name=name))
        order = sorted(range(len(sig.keys)), key=lambda i: sig.keys[i])
        arg_names = {}
        for i in order:
            arg = gd._arg_name(sig.keys[i])
            arg_names[i] = arg
            fdef.signature.input_arg.add(name=arg, type=cf._inputs[i].dtype.as_datatype_enum)
            attrs = fdef.arg_attr[len(arg_names) - 1].attr
            attrs["_user_specified_name"].s = sig.keys[i].encode()
            attrs["_output_shapes"].list.shape.add().CopyFrom(shape_proto(cf._inputs[i].shape))
        inner_def = self.library.functions[inner]
        captured = list(inner_def.signature.input_arg)[len(cf._inputs):]
        unknown = [f"unknown_{j - 1}" if j else "unknown" for j in range(len(captured))]
        for arg, capture in zip(unknown, captured):
            fdef.signature.input_arg.add(name=arg, type=capture.type)
        stateful = inner_def.signature.is_stateful
        call = fdef.node_def.add(name=_call_op(stateful), op=_call_op(stateful))
        call.input.extend([arg_names[i] for i in range(len(cf._inputs))] + unknown)
        call.attr["Tin"].CopyFrom(gd.attr_value(tuple(_d.as_dtype(a.type) for a in
                                                      inner_def.signature.input_arg)))
        call.attr["Tout"].CopyFrom(gd.attr_value(tuple(t.dtype for t in cf.outputs)))
        call.attr["f"].func.name = inner
        call.attr["_output_shapes"].CopyFrom(gd.attr_value([t.shape for t in cf.outputs]))
        for attr in ("config", "config_proto", "executor_type"):
            call.attr[attr].s = b""
        if stateful:  # (the outputs wait for the call, TF's control output)
            fdef.signature.is_stateful = True
            fdef.signature.control_output.append(call.name)
            fdef.control_ret[call.name] = call.name
            fdef.node_def.add(name="NoOp", op="NoOp", input=[f"^{call.name}"])
        for out_key, _, positions in sig.out_keys:
            for k in positions:
                j = len(fdef.signature.output_arg)
                node = fdef.node_def.add(name=f"Identity_{j}" if j else "Identity",
                                         op="Identity",
                                         input=[f"{call.name}:output:{k}"] +
                                         (["^NoOp"] if stateful else []))
                node.attr["T"].type = cf.outputs[k].dtype.as_datatype_enum
                node.attr["_output_shapes"].CopyFrom(gd.attr_value([cf.outputs[k].shape]))
                out = node.name.lower()
                fdef.signature.output_arg.add(name=out,
                                              type=cf.outputs[k].dtype.as_datatype_enum)
                fdef.ret[out] = f"{node.name}:output:0"
        self.library.functions[name] = fdef
        saved = self.proto.concrete_functions[name]
        saved.bound_inputs.extend(self.bound[id(cf)])
        saved.canonicalized_input_signature.CopyFrom(_encode(
            ((), {sig.keys[i]: _spec(cf._inputs[i], sig.keys[i]) for i in order}),
            f"the signature {key!r}"))
        saved.output_signature.CopyFrom(_encode(
            {out_key: spec if spec is not None else _spec(cf.outputs[positions[0]], out_key)
             for out_key, spec, positions in sig.out_keys}, f"the signature {key!r}"))
        return name

    def signature_def(self, sig, key, function_name, handles):
        """The SignatureDef of `key`, and the GraphDef nodes it names: a placeholder per input
        feeding a ``StatefulPartitionedCall`` of the signature function."""
        cf = sig.concrete
        out = pb.SignatureDef(method_name=PREDICT_METHOD_NAME)
        order = sorted(range(len(sig.keys)), key=lambda i: sig.keys[i])
        inputs = []
        for i in order:
            t = cf._inputs[i]
            node = self.graph_def.node.add(name=self._node_name(f"{key}_{sig.keys[i]}"),
                                           op="Placeholder")
            node.attr["dtype"].type = t.dtype.as_datatype_enum
            node.attr["shape"].shape.CopyFrom(shape_proto(t.shape))
            inputs.append(node.name)
            out.inputs[sig.keys[i]].CopyFrom(pb.TensorInfo(
                name=f"{node.name}:0", dtype=t.dtype.as_datatype_enum,
                tensor_shape=shape_proto(t.shape)))
        captured = [self._asset_variable(n, handles) if n in self.asset_ids else handles[n]
                    for n in self.bound[id(cf)]]
        fdef = self.library.functions[function_name]
        op = _call_op(fdef.signature.is_stateful)  # (as TF: by whether the function has state)
        call = self.graph_def.node.add(name=self._node_name(op), op=op)
        call.input.extend(inputs + captured)
        call.attr["Tin"].CopyFrom(gd.attr_value(tuple(_d.as_dtype(a.type) for a in
                                                      fdef.signature.input_arg)))
        call.attr["Tout"].CopyFrom(gd.attr_value(tuple(_d.as_dtype(a.type) for a in
                                                       fdef.signature.output_arg)))
        call.attr["f"].func.name = function_name
        for attr in ("config", "config_proto", "executor_type"):
            call.attr[attr].s = b""
        j = 0  # (the call's outputs: each output's tensors, in the order of their names)
        for out_key, spec, positions in sig.out_keys:
            infos = []
            for k in positions:
                t = cf.outputs[k]
                infos.append(pb.TensorInfo(name=f"{call.name}:{j}", dtype=t.dtype.as_datatype_enum,
                                           tensor_shape=shape_proto(t.shape)))
                j += 1
            if spec is None:
                out.outputs[out_key].CopyFrom(infos[0])
            else:  # TF's composite TensorInfo: the spec, and a TensorInfo per component
                composite = out.outputs[out_key].composite_tensor
                composite.type_spec.CopyFrom(structure.encode(spec).type_spec_value)
                composite.components.extend(infos)
        return out

    def _asset_variable(self, node_id, handles):
        """What a signature reads an asset's path from, as TF writes it: a string variable
        the init op assigns the path fed to the asset's placeholder (made once)."""
        read = self.asset_reads.get(node_id)
        if read is None:
            name = self._node_name("Variable")
            var = self.graph_def.node.add(name=name, op="VarHandleOp")
            var.attr["dtype"].type = _d.string.as_datatype_enum
            var.attr["shape"].shape.SetInParent()
            var.attr["shared_name"].s = name.encode()
            var.attr["container"].s = b""
            assign = self.graph_def.node.add(name=f"{name}/Assign", op="AssignVariableOp",
                                             input=[name, handles[node_id]])
            assign.attr["dtype"].type = _d.string.as_datatype_enum
            self.asset_inits.append(f"^{assign.name}")
            read = self.graph_def.node.add(name=self._node_name("ReadVariableOp"),
                                           op="ReadVariableOp", input=[name]).name
            self.graph_def.node[-1].attr["dtype"].type = _d.string.as_datatype_enum
            self.asset_reads[node_id] = read
        return read

    def _table_node(self, table, graph_def):
        """The op making `table` (TF's ``HashTableV2``, ``MutableHashTableV2``,
        ``MutableHashTableOfTensorsV2`` or ``MutableDenseHashTableV2``), added to `graph_def`
        (a GraphDef or FunctionDef)."""
        creator = getattr(table, "_creator", None)  # (a loaded table's: written as it was)
        data = table.resource_handle._data
        if isinstance(data, VarHandle):
            return self._variable_node(table, data, graph_def)
        key_dtype = getattr(table, "key_dtype", data.key_dtype)
        value_dtype = getattr(table, "value_dtype", data.value_dtype)
        op = "HashTableV2" if getattr(table, "_initializer", None) is not None or \
            isinstance(table, lookup_ops.StaticVocabularyTable) else "MutableHashTableV2"
        name = "hash_table" if op == "HashTableV2" else "MutableHashTable"
        dense = isinstance(table, lookup_ops.DenseHashTable)
        if dense:
            op, name = "MutableDenseHashTableV2", "MutableDenseHashTable"
        elif data.value_shape:  # (a table of vectors)
            op = "MutableHashTableOfTensorsV2"
        if creator is not None:
            op, dense = creator.op, creator.op == "MutableDenseHashTableV2"
            name = "hash_table" if op.startswith("HashTable") else op[:-2]
        graph = isinstance(graph_def, fw_pb.GraphDef)
        inputs = []
        if dense:  # (its empty and deleted keys: constants it takes)
            reserved = (table._empty_key, table._deleted_key) if creator is None else \
                data.reserved
            for key_name, key in zip(("empty_key", "deleted_key"), reserved):
                key_name = self._node_name(key_name) if graph else key_name
                const = (graph_def.node if graph else graph_def.node_def).add(name=key_name,
                                                                              op="Const")
                const.attr["dtype"].type = key_dtype.as_datatype_enum
                value = np.array(key, object if key_dtype == _d.string else
                                 key_dtype.as_numpy_dtype)
                const.attr["value"].CopyFrom(gd.attr_value(value))
                inputs.append(key_name if graph else f"{key_name}:output:0")
        if graph:
            name = self._node_name(name)
            node = graph_def.node.add(name=name, op=op, input=inputs)
        else:
            node = graph_def.node_def.add(name=name, op=op, input=inputs)
        if creator is not None:
            for key, value in creator.attr.items():
                node.attr[key].CopyFrom(value)
        else:
            if dense:
                node.attr["initial_num_buckets"].i = table._num_buckets
                node.attr["max_load_factor"].f = 0.8
            if dense or data.value_shape:
                node.attr["value_shape"].shape.SetInParent()
                for size in data.value_shape:
                    node.attr["value_shape"].shape.dim.add(size=size)
        node.attr["key_dtype"].type = key_dtype.as_datatype_enum
        node.attr["value_dtype"].type = value_dtype.as_datatype_enum
        # (unique in the SavedModel, and the same each save)
        node.attr["shared_name"].s = \
            f"table_{self.graph.tables[id(table.resource_handle._data)]}".encode()
        node.attr["container"].s = b""
        node.attr["use_node_name_sharing"].b = False
        return node

    def _variable_node(self, resource, handle, graph_def):
        """The ``VarHandleOp`` making the variable of `resource`'s `handle`, added to
        `graph_def` (a GraphDef or FunctionDef)."""
        if isinstance(graph_def, fw_pb.GraphDef):
            node = graph_def.node.add(name=self._node_name("VarHandleOp"), op="VarHandleOp")
        else:
            node = graph_def.node_def.add(name="VarHandleOp", op="VarHandleOp")
        node.attr["dtype"].type = handle.var_dtype.as_datatype_enum
        node.attr["shape"].shape.CopyFrom(shape_proto(handle.var_shape))
        node.attr["shared_name"].s = \
            f"resource_{self.graph.tables[id(handle)]}".encode()  # (unique in the SavedModel)
        node.attr["container"].s = b""
        node.attr["allowed_devices"].list.SetInParent()
        return node

    def _resource_function(self, obj):
        """Writes the FunctionDef of a table's `_ResourceFunction` and its
        SavedConcreteFunction; returns its name."""
        table, kind = obj.table, obj.kind
        name = self.unique({"_create_resource": "__inference__creator",
                            "_initialize": "__inference__initializer",
                            "_destroy_resource": "__inference__destroyer"}[kind])
        fdef = fw_pb.FunctionDef(signature=fw_pb.OpDef(name=name, is_stateful=True))
        out_dtype = _d.int32
        bound = []
        table_id = self.graph.tables[id(table.resource_handle._data)]
        resource = _d.resource.as_datatype_enum
        init = getattr(table, "_initializer", None)
        last = result = None
        saved = getattr(table, "_saved_initializer", None)
        if kind == "_initialize" and saved is not None:
            # a loaded table's saved function, written again as it was
            original, fdefs, captured = saved
            for function, function_def in fdefs.items():
                if function != original:
                    self.library.functions.setdefault(function, function_def)
            fdef.CopyFrom(fdefs[original])
            fdef.signature.name = name
            bound = [self.graph.ids[id(c)] if isinstance(c, _load._RestoredAsset) else
                     self._captured(c.resource_handle if isinstance(c, _TABLES) else c, None)
                     for c in captured]
        elif kind == "_create_resource":
            out_dtype = _d.resource
            made = self._table_node(table, fdef)
            last = made.name
            fdef.signature.control_output.append(last)
            fdef.control_ret[last] = last
            result = f"{last}:{'resource' if made.op == 'VarHandleOp' else 'table_handle'}:0"
        elif kind == "_initialize" and isinstance(init, lookup_ops.KeyValueTensorInitializer):
            fdef.signature.input_arg.add(name="table_handle", type=resource)
            keys, values = init._keys, init._values
            fdef.signature.input_arg.add(name="keys", type=keys.dtype.as_datatype_enum)
            fdef.signature.input_arg.add(name="values", type=values.dtype.as_datatype_enum)
            bound = [table_id, self._captured(keys, None), self._captured(values, None)]
            last = "key_value_init/LookupTableImportV2"
            node = fdef.node_def.add(name=last, op="LookupTableImportV2",
                                     input=["table_handle", "keys", "values"])
            node.attr["Tin"].type = keys.dtype.as_datatype_enum
            node.attr["Tout"].type = values.dtype.as_datatype_enum
        elif kind == "_initialize" and isinstance(init, lookup_ops.TextFileInitializer):
            fdef.signature.input_arg.add(name="asset_filepath", type=_d.string.as_datatype_enum)
            fdef.signature.input_arg.add(name="table_handle", type=resource)
            asset = next(c for c in self.graph.objects
                         if isinstance(c, _ASSETS) and _asset_path(c) == init._filename)
            bound = [self.graph.ids[id(asset)], table_id]
            last = "text_file_init/InitializeTableFromTextFileV2"
            node = fdef.node_def.add(name=last, op="InitializeTableFromTextFileV2",
                                     input=["table_handle", "asset_filepath"])
            node.attr["key_index"].i = init._key_index
            node.attr["value_index"].i = init._value_index
            node.attr["vocab_size"].i = -1 if init._vocab_size is None else init._vocab_size
            node.attr["delimiter"].s = init._delimiter
            node.attr["offset"].i = init._offset
        if kind == "_initialize" and saved is not None:
            pass
        elif kind != "_create_resource":
            const = fdef.node_def.add(name="Const", op="Const")
            const.attr["dtype"].type = _d.int32.as_datatype_enum
            const.attr["value"].CopyFrom(gd.attr_value(np.array(1, np.int32)))
            node = fdef.node_def.add(name="Identity", op="Identity", input=["Const:output:0"])
            if last is not None:
                node.input.append(f"^{last}")
                fdef.signature.control_output.append(last)
                fdef.control_ret[last] = last
            node.attr["T"].type = _d.int32.as_datatype_enum
            result = "Identity:output:0"
        else:
            node = fdef.node_def.add(name="Identity", op="Identity", input=[result])
            node.attr["T"].type = resource
            result = "Identity:output:0"
        if not fdef.signature.output_arg and result is not None:  # (a saved one: as it was)
            fdef.signature.output_arg.add(name="identity", type=out_dtype.as_datatype_enum)
            fdef.ret["identity"] = result
        self.library.functions[name] = fdef
        saved = self.proto.concrete_functions[name]
        saved.bound_inputs.extend(bound)
        saved.canonicalized_input_signature.CopyFrom(_encode(((), {}), "a table's function"))
        saved.output_signature.CopyFrom(_encode(
            TensorSpec([], out_dtype) if fdef.signature.output_arg else None,
            "a table's function"))
        if kind == "_initialize":
            self.table_inits.append((name, bound))
        return name

    def _saveable_function(self, node, obj):
        """Writes a mutable table's ``save_fn`` (checkpoint key -> names, slices and tensors
        of its keys and values) or ``restore_fn`` (keys, values -> import), as TF's."""
        table, kind = obj.table, obj.kind
        kd, vd = table.key_dtype, table.value_dtype
        name = self.unique(f"__inference_{kind}")
        fdef = fw_pb.FunctionDef(signature=fw_pb.OpDef(name=name, is_stateful=True))
        string, resource = _d.string.as_datatype_enum, _d.resource.as_datatype_enum

        def const(node_name, value, dtype):
            c = fdef.node_def.add(name=node_name, op="Const")
            c.attr["dtype"].type = dtype.as_datatype_enum
            c.attr["value"].CopyFrom(gd.attr_value(value))
            return f"{node_name}:output:0"

        def identity(node_name, ref, dtype, control):
            n = fdef.node_def.add(name=node_name, op="Identity", input=[ref, f"^{control}"])
            n.attr["T"].type = dtype.as_datatype_enum
            out = gd._arg_name(node_name.lower())
            fdef.signature.output_arg.add(name=out, type=dtype.as_datatype_enum)
            fdef.ret[out] = f"{node_name}:output:0"

        if kind == "save_fn":
            fdef.signature.input_arg.add(name="checkpoint_key", type=string)
            fdef.signature.input_arg.add(name="table_handle", type=resource)
            export = "table_export/LookupTableExportV2"
            n = fdef.node_def.add(name=export, op="LookupTableExportV2", input=["table_handle"])
            n.attr["Tkeys"].type = kd.as_datatype_enum
            n.attr["Tvalues"].type = vd.as_datatype_enum
            refs = []
            for j, suffix in enumerate(("-keys", "-values")):
                add = f"add_{j}"
                suffix_ref = const(f"{add}/y", np.array(suffix.encode(), object), _d.string)
                a = fdef.node_def.add(name=add, op="Add", input=["checkpoint_key", suffix_ref])
                a.attr["T"].type = string
                refs += [(f"{add}:z:0", _d.string),
                         (const(f"Const_{j}", np.array(b"", object), _d.string), _d.string),
                         (f"{export}:{'keys' if j == 0 else 'values'}:0", (kd, vd)[j])]
            for j, (ref, dtype) in enumerate(refs):
                identity(f"Identity_{j}" if j else "Identity", ref, dtype, export)
            fdef.signature.control_output.append(export)
            fdef.control_ret[export] = export
            params = ["checkpoint_key"]
            inputs = ((TensorSpec([], _d.string, "checkpoint_key"),), {})
            outputs = [{"name": TensorSpec([], _d.string, f"tensor_{j}_name"),
                        "slice_spec": TensorSpec([], _d.string, f"tensor_{j}_slice_spec"),
                        "tensor": TensorSpec(None, dtype, f"tensor_{j}_tensor")}
                       for j, dtype in enumerate((kd, vd))]
        else:
            params = ["restored_tensors_0", "restored_tensors_1"]
            for param, dtype in zip(params, (kd, vd)):
                fdef.signature.input_arg.add(name=param, type=dtype.as_datatype_enum)
            fdef.signature.input_arg.add(name="table_handle", type=resource)
            imported = "table_restore/LookupTableImportV2"
            n = fdef.node_def.add(name=imported, op="LookupTableImportV2",
                                  input=["table_handle", *params])
            n.attr["Tin"].type = kd.as_datatype_enum
            n.attr["Tout"].type = vd.as_datatype_enum
            identity("Identity", const("Const", np.array(1, np.int32), _d.int32), _d.int32,
                     imported)
            fdef.signature.control_output.append(imported)
            fdef.control_ret[imported] = imported
            inputs = ((TensorSpec(None, kd, params[0]), TensorSpec(None, vd, params[1])), {})
            outputs = TensorSpec([], _d.int32, "unknown")
        self.library.functions[name] = fdef
        saved = self.proto.concrete_functions[name]
        saved.bound_inputs.append(self.graph.tables[id(table.resource_handle._data)])
        saved.canonicalized_input_signature.CopyFrom(_encode(inputs, "a table's function"))
        saved.output_signature.CopyFrom(_encode(outputs, "a table's function"))
        bare = node.bare_concrete_function
        bare.concrete_function_name = name
        bare.argument_keywords.extend(params)
        bare.allowed_positional_arguments = len(params)
        bare.function_spec.fullargspec.CopyFrom(_encode(
            FullArgSpec(params, None, None, None, [], None, {}), "a table's function"))
        bare.function_spec.input_signature.none_value.SetInParent()

    def _gradient_functions(self):
        """Writes, as TF does, the gradient function of each op a custom gradient names by
        its ``_gradient_op_type`` (a `tf.custom_gradient`'s ``IdentityN``) in the functions
        saved: traced on the gradients of the op's outputs, it is listed in the library's
        ``registered_gradients``; the forward values it reads are ``captured_tensor``
        nodes naming the function they belong to. A gradient reading values of a function
        the SavedModel does not list is left out (the loaded op then has no gradient)."""
        done = set()
        functions = [(name, cf.graph, cf._inputs, cf) for name, cf in self.written.items()]
        functions += [(name, getattr(body, "graph", body), list(body.inputs), body)
                      for name, body in self.library.written()]  # (called ones, branches)
        for name, graph, inputs, source in functions:
            for op in graph.get_operations():
                op_type = (op.attrs or {}).get("_gradient_op_type")
                if op_type is None or op_type in done:
                    continue
                done.add(op_type)
                grad = backprop.gradient_function(op_type)
                if grad is None or not all(o.dtype.is_numpy_compatible for o in op.outputs):
                    continue
                traced = _trace_gradient(grad, op)
                if traced is None:
                    continue
                names = {id(t): i for i, t in enumerate(inputs)}
                fdef = self.library.functions[name]
                captured = {}
                for outer, _ in traced.graph.captures:
                    if not isinstance(outer, SymbolicTensor):
                        continue
                    if outer.graph is not graph:
                        break
                    if id(outer) in names:  # (an argument: the placeholder of its name)
                        tensor = f"{fdef.signature.input_arg[names[id(outer)]].name}:0"
                    elif outer.op.type == "Placeholder":
                        break
                    else:
                        tensor = outer.name
                    node = captured[id(outer)] = pb.SavedObject()
                    node.captured_tensor.name = tensor
                    node.captured_tensor.concrete_function = name
                else:
                    if not self._keep_captured(name, source, traced.graph.captures):
                        continue
                    for key, node in captured.items():
                        self.constants[key] = len(self.graph.objects) + len(self.extra)
                        self.extra.append(node)
                    self.graph_def.library.registered_gradients.add(
                        gradient_func=self.concrete(traced), registered_op_type=op_type)

    def _keep_captured(self, name, source, captures):
        """Writes FunctionDef `name` again (from `source`) with the ops of the forward values
        a gradient function reads when they are not written (no output needs them); False
        when that would change its arguments."""
        fdef = self.library.functions[name]
        present = {n.name for n in fdef.node_def} | {a.name for a in fdef.signature.input_arg}
        missing = [outer for outer, _ in captures if isinstance(outer, SymbolicTensor) and
                   outer.op.type != "Placeholder" and outer.op.name not in present]
        if not missing:
            return True
        again = gd.function_def(source, name, self.library, keep=missing)
        if [a.name for a in again.signature.input_arg] != \
                [a.name for a in fdef.signature.input_arg]:
            self.library.functions[name] = fdef
            return False
        for i, attrs in fdef.arg_attr.items():
            again.arg_attr[i].CopyFrom(attrs)
        return True

    def _node_name(self, name):
        name = "".join(c if c.isalnum() or c in "_-./" else "_" for c in name)
        taken = {n.name for n in self.graph_def.node}
        base, n = name, 0
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        return name

    def write(self):
        objects = self.graph.objects
        self.extra = []  # constant nodes, after the object graph's
        self.assets = []  # the _Assets, in their asset_file_def order
        self.table_inits = []  # (function name, node ids of its bound inputs) per table
        nodes = [None] * len(objects)
        for i, obj in enumerate(objects):
            node = pb.SavedObject()
            for j, name in self.graph.edges[i]:
                node.children.add(node_id=j, local_name=name)
            if isinstance(obj, Variable):
                node.variable.dtype = obj.dtype.as_datatype_enum
                node.variable.shape.CopyFrom(shape_proto(obj.shape))
                node.variable.trainable = obj.trainable
                node.variable.synchronization = obj.synchronization.value
                node.variable.aggregation = obj.aggregation.value
                node.variable.name = obj.name.rpartition(":")[0] or obj.name
            elif isinstance(obj, _FunctionNode):
                names = [self.concrete(c) for c in obj.concretes]
                node.function.concrete_functions.extend(names)
                if isinstance(obj.function, Function):
                    spec = node.function.function_spec
                    spec.fullargspec.CopyFrom(_encode(obj.function.function_spec.fullargspec,
                                                      "a function's arguments"))
                    signature = obj.function._input_signature
                    spec.input_signature.CopyFrom(_encode(
                        None if signature is None else tuple(signature),
                        "a function's input_signature"))
                elif isinstance(obj.function, _load.RestoredFunction) and \
                        obj.function._fullargspec is not None:
                    spec = node.function.function_spec
                    spec.fullargspec.CopyFrom(_encode(obj.function._fullargspec,
                                                      "a function's arguments"))
                    spec.input_signature.CopyFrom(_encode(obj.function._input_signature,
                                                          "a function's input_signature"))
                for j, name in self.graph.edges[i]:
                    node.dependencies.add(node_id=j, local_name=name)
            elif obj is self.default and self.graph.paths[i] == ("_default_save_signature",):
                # as tf_keras writes it: called with its inputs' tensors, by their names
                bare = node.bare_concrete_function
                bare.concrete_function_name = self.concrete(obj)
                names = [s.name for s in nest.flatten(obj.structured_input_signature)
                         if isinstance(s, TensorSpec)]
                bare.argument_keywords.extend(names)
                bare.allowed_positional_arguments = len(names)
                bare.function_spec.fullargspec.CopyFrom(_encode(FullArgSpec(
                    ["args_0"], None, None, None, [], None, {}), "a function's arguments"))
                bare.function_spec.input_signature.none_value.SetInParent()
            elif isinstance(obj, ConcreteFunction):
                self._bare(node, obj, self.concrete(obj), obj._parameters())
            elif isinstance(obj, _SignatureFunction):
                pass  # below, once every variable has its handle
            elif isinstance(obj, _TABLES):
                node.resource.SetInParent()
                if i in self.graph.saveables:
                    save_id, restore_id = self.graph.saveables[i]
                    node.saveable_objects["table"].save_function = save_id
                    node.saveable_objects["table"].restore_function = restore_id
            elif isinstance(obj, _SaveableFunction):
                self._saveable_function(node, obj)
            elif isinstance(obj, _ASSETS):
                node.asset.asset_file_def_index = len(self.assets)
                self.assets.append(obj)
            elif isinstance(obj, _ResourceFunction):
                name = self._resource_function(obj)
                node.function.concrete_functions.append(name)
                spec = node.function.function_spec
                spec.fullargspec.CopyFrom(_encode(FullArgSpec([], None, None, None, [], None,
                                                              {}), "a function's arguments"))
                spec.input_signature.CopyFrom(_encode((), "a function's input_signature"))
            elif isinstance(obj, _SignatureNode):
                node.user_object.identifier = "signature_map"
                node.user_object.version.producer = node.user_object.version.min_consumer = 1
            else:
                node.user_object.identifier = (
                    "trackable_dict_wrapper" if isinstance(obj, dict) else
                    "trackable_tuple_wrapper" if isinstance(obj, tuple) else
                    "trackable_list_wrapper" if isinstance(obj, list) else
                    "_generic_user_object")
                node.user_object.version.producer = node.user_object.version.min_consumer = 1
                # (a class TF's loader revives by its identifier: a Keras optimizer's)
                revived = getattr(type(obj), "_saved_model_identifier", None)
                if revived is not None:
                    node.user_object.identifier = revived[0]
                    node.user_object.version.producer = revived[1]
                    node.user_object.version.min_consumer = revived[2]
            nodes[i] = node
        for optimizer, variable, name, slot in self.graph.slots:
            nodes[optimizer].slot_variables.add(original_variable_node_id=variable,
                                                slot_name=name, slot_variable_node_id=slot)
        # the variables as the GraphDef's VarHandleOps, for the signatures' calls
        handles = {}
        for i, obj in enumerate(objects):
            if isinstance(obj, Variable):
                name = self._node_name(nodes[i].variable.name or "Variable")
                node = self.graph_def.node.add(name=name, op="VarHandleOp")
                node.attr["dtype"].type = obj.dtype.as_datatype_enum
                node.attr["shape"].shape.CopyFrom(shape_proto(obj.shape))
                node.attr["shared_name"].s = name.encode()
                node.attr["container"].s = b""
                handles[i] = name
        for i, obj in enumerate(objects):  # the tables, as TF's ops making them
            if isinstance(obj, _TABLES):
                handles[i] = self._table_node(obj, self.graph_def).name
        for k, asset in enumerate(self.assets):  # (their placeholders, added below)
            handles[self.graph.ids[id(asset)]] = (f"asset_path_initializer_{k}" if k
                                                  else "asset_path_initializer")
        self.asset_ids = {self.graph.ids[id(asset)] for asset in self.assets}
        self.asset_reads, self.asset_inits = {}, []
        self.handles = dict(handles)
        signature_defs = {}
        for i, obj in enumerate(objects):
            if isinstance(obj, _SignatureFunction):
                key = self.graph.paths[i][-1]
                name = self.signature_function(obj, key)
                keys = sorted(obj.keys)
                nodes[i].bare_concrete_function.concrete_function_name = name
                nodes[i].bare_concrete_function.argument_keywords.extend(keys)
                # (as TF writes it: a signature of one input takes it positionally, others
                # are called by keyword)
                nodes[i].bare_concrete_function.allowed_positional_arguments = int(len(keys) == 1)
                nodes[i].bare_concrete_function.function_spec.fullargspec.CopyFrom(_encode(
                    FullArgSpec([], None, None, None, keys, None, {}), "a signature"))
                nodes[i].bare_concrete_function.function_spec.input_signature.none_value \
                    .SetInParent()
                for n in self.bound[id(obj.concrete)]:
                    if n not in handles and n >= len(objects):
                        handles[n] = self.extra[n - len(objects)].constant.operation
                signature_defs[key] = self.signature_def(obj, key, name, handles)
        init = list(self.asset_inits)
        for asset in self.assets:  # (fed each asset's path by TF 1's loader)
            node = self.graph_def.node.add(name=handles[self.graph.ids[id(asset)]],
                                           op="Placeholder")
            node.attr["dtype"].type = _d.string.as_datatype_enum
            node.attr["shape"].shape.SetInParent()
        for function, bound in self.table_inits:  # (TF 1's loader and TF Serving run these)
            call = self.graph_def.node.add(name=self._node_name("StatefulPartitionedCall"),
                                           op="StatefulPartitionedCall")
            call.input.extend(handles[n] if n in handles else
                              self.extra[n - len(objects)].constant.operation
                              for n in bound)
            fdef = self.library.functions[function]
            call.attr["Tin"].CopyFrom(gd.attr_value(tuple(_d.as_dtype(a.type) for a in
                                                          fdef.signature.input_arg)))
            call.attr["Tout"].CopyFrom(gd.attr_value((_d.int32,)))
            call.attr["f"].func.name = function
            for attr in ("config", "config_proto", "executor_type"):
                call.attr[attr].s = b""
            init.append(f"^{call.name}")
        self.graph_def.node.add(name="NoOp", op="NoOp", input=init)
        signature_defs[INIT_OP_SIGNATURE_KEY] = pb.SignatureDef(outputs={
            INIT_OP_SIGNATURE_KEY: pb.TensorInfo(name="NoOp", tensor_shape=fw_pb.TensorShapeProto(
                unknown_rank=True))})
        if self.custom_gradients:
            self._gradient_functions()
        self.proto.nodes.extend(nodes + self.extra)
        self.graph_def.library.function.extend(self.library.functions.values())
        meta = pb.MetaGraphDef(graph_def=self.graph_def, object_graph_def=self.proto)
        meta.meta_info_def.tags.append(SERVING)
        meta.meta_info_def.tensorflow_version = versions.VERSION
        meta.meta_info_def.tensorflow_git_version = versions.GIT_VERSION
        meta.meta_info_def.stripped_default_attrs = True
        for key, value in signature_defs.items():
            meta.signature_def[key].CopyFrom(value)
        meta.saver_def.CopyFrom(pb.SaverDef(version=2))
        for asset in self.assets:
            meta.asset_file_def.add(filename=os.path.basename(_asset_path(asset))).tensor_info.name = \
                f"{self.handles[self.graph.ids[id(asset)]]}:0"
        return pb.SavedModel(saved_model_schema_version=1, meta_graphs=[meta])

    def add_saver(self, meta, checkpoint, object_graph):
        """TF's save and restore of the variables: two functions the GraphDef calls from
        nodes that `meta`'s SaverDef names (``saver_filename``, the save's output, the
        restore), as TF's C++ loader (TF Serving) restores a SavedModel's variables.
        `checkpoint`: the `trackable.Graph` of variables/; `object_graph`: its proto."""
        variables = [(self.handles[i], checkpoint.key(i, trackable.VARIABLE_VALUE), obj)
                     for i, obj in enumerate(self.graph.objects)
                     if i in self.handles and isinstance(obj, Variable)]
        string = _d.string.as_datatype_enum
        # mutable tables: their entries, exported and imported by the same functions
        tables = [(self.handles[i], checkpoint.key(i, "table"), obj)
                  for i, obj in enumerate(self.graph.objects) if i in self.graph.saveables]
        table_keys = [f"{key}{suffix}" for _, key, _ in tables for suffix in ("-keys",
                                                                               "-values")]
        table_dtypes = tuple(d for _, _, t in tables for d in (t.key_dtype, t.value_dtype))
        keys = [key for _, key, _ in variables] + table_keys + [trackable.OBJECT_GRAPH_KEY]
        dtypes = tuple(v.dtype for _, _, v in variables) + table_dtypes + (_d.string,)

        def strings(fdef, name, values):
            node = fdef.node_def.add(name=name, op="Const")
            node.attr["dtype"].type = string
            node.attr["value"].CopyFrom(gd.attr_value(np.array(values, dtype=object)))

        def handle_arg(fdef, name, var):
            arg = fdef.signature.input_arg.add(name=name, type=_d.resource.as_datatype_enum)
            arg.handle_data.add(dtype=var.dtype.as_datatype_enum, shape=shape_proto(var.shape))

        def arg_name(prefix, j, var_name):
            return gd._arg_name(f"{prefix}_{j}_{var_name}" if j else f"{prefix}_{var_name}")

        save_name = self.unique("__inference__traced_save")
        save = fw_pb.FunctionDef(signature=fw_pb.OpDef(name=save_name, is_stateful=True))
        save.signature.input_arg.add(name="file_prefix", type=string)
        reads = []
        for j, (handle, _, var) in enumerate(variables):
            arg = arg_name("read", j, handle)
            handle_arg(save, arg, var)
            read = save.node_def.add(name=f"Read_{j}/ReadVariableOp" if j else
                                     "Read/ReadVariableOp", op="ReadVariableOp", input=[arg])
            read.attr["dtype"].type = var.dtype.as_datatype_enum
            reads.append(f"{read.name}:value:0")
        for j, (handle, _, table) in enumerate(tables):
            arg = arg_name("export", j, handle)
            save.signature.input_arg.add(name=arg, type=_d.resource.as_datatype_enum)
            export = save.node_def.add(name=f"Export_{j}/LookupTableExportV2",
                                       op="LookupTableExportV2", input=[arg])
            export.attr["Tkeys"].type = table.key_dtype.as_datatype_enum
            export.attr["Tvalues"].type = table.value_dtype.as_datatype_enum
            reads += [f"{export.name}:keys:0", f"{export.name}:values:0"]
        save.signature.input_arg.add(name="savev2_const", type=string)
        strings(save, "SaveV2/tensor_names", keys)
        strings(save, "SaveV2/shape_and_slices", [""] * len(keys))
        node = save.node_def.add(name="SaveV2", op="SaveV2", input=[
            "file_prefix", "SaveV2/tensor_names:output:0", "SaveV2/shape_and_slices:output:0",
            *reads, "savev2_const"])
        node.attr["dtypes"].CopyFrom(gd.attr_value(dtypes))
        node = save.node_def.add(name="Identity", op="Identity",
                                 input=["file_prefix", "^SaveV2"])
        node.attr["T"].type = string
        save.signature.output_arg.add(name="identity", type=string)
        save.ret["identity"] = "Identity:output:0"
        save.signature.control_output.append("SaveV2")
        save.control_ret["SaveV2"] = "SaveV2"

        restore_name = self.unique("__inference__traced_restore")
        restore = fw_pb.FunctionDef(signature=fw_pb.OpDef(name=restore_name, is_stateful=True))
        restore.signature.input_arg.add(name="file_prefix", type=string)
        strings(restore, "RestoreV2/tensor_names", keys)
        strings(restore, "RestoreV2/shape_and_slices", [""] * len(keys))
        node = restore.node_def.add(name="RestoreV2", op="RestoreV2", input=[
            "file_prefix", "RestoreV2/tensor_names:output:0",
            "RestoreV2/shape_and_slices:output:0"])
        node.attr["dtypes"].CopyFrom(gd.attr_value(dtypes))
        assigns = []
        for j, (handle, _, var) in enumerate(variables):
            arg = arg_name("assignvariableop", j, handle)
            handle_arg(restore, arg, var)
            suffix = f"_{j}" if j else ""
            node = restore.node_def.add(name=f"Identity{suffix}", op="Identity",
                                        input=[f"RestoreV2:tensors:{j}"])
            node.attr["T"].type = var.dtype.as_datatype_enum
            node = restore.node_def.add(name=f"AssignVariableOp{suffix}", op="AssignVariableOp",
                                        input=[arg, f"Identity{suffix}:output:0"])
            node.attr["dtype"].type = var.dtype.as_datatype_enum
            assigns.append(node.name)
            restore.signature.control_output.append(node.name)
            restore.control_ret[node.name] = node.name
        for j, (handle, _, table) in enumerate(tables):
            arg = arg_name("import", j, handle)
            restore.signature.input_arg.add(name=arg, type=_d.resource.as_datatype_enum)
            first = len(variables) + 2 * j
            node = restore.node_def.add(name=f"Import_{j}/LookupTableImportV2",
                                        op="LookupTableImportV2",
                                        input=[arg, f"RestoreV2:tensors:{first}",
                                               f"RestoreV2:tensors:{first + 1}"])
            node.attr["Tin"].type = table.key_dtype.as_datatype_enum
            node.attr["Tout"].type = table.value_dtype.as_datatype_enum
            assigns.append(node.name)
            restore.signature.control_output.append(node.name)
            restore.control_ret[node.name] = node.name
        node = restore.node_def.add(name="Identity_out", op="Identity",
                                    input=["file_prefix", *(f"^{a}" for a in assigns)])
        node.attr["T"].type = string
        restore.signature.output_arg.add(name="identity_out", type=string)
        restore.ret["identity_out"] = "Identity_out:output:0"
        self.graph_def.library.function.extend([save, restore])

        filename = self.graph_def.node.add(name=self._node_name("saver_filename"),
                                           op="Placeholder")
        filename.attr["dtype"].type = string
        filename.attr["shape"].shape.SetInParent()
        const = self.graph_def.node.add(name=self._node_name("Const"), op="Const")
        const.attr["dtype"].type = string
        const.attr["value"].CopyFrom(gd.attr_value(np.array(object_graph, dtype=object)))
        calls = []
        for fdef, extra in ((save, [const.name]), (restore, [])):
            call = self.graph_def.node.add(name=self._node_name("StatefulPartitionedCall"),
                                           op="StatefulPartitionedCall")
            call.input.extend([filename.name, *(h for h, _, _ in variables),
                               *(h for h, _, _ in tables), *extra])
            call.attr["Tin"].CopyFrom(gd.attr_value(tuple(
                _d.as_dtype(a.type) for a in fdef.signature.input_arg)))
            call.attr["Tout"].CopyFrom(gd.attr_value((_d.string,)))
            call.attr["f"].func.name = fdef.signature.name
            for attr in ("config", "config_proto", "executor_type"):
                call.attr[attr].s = b""
            calls.append(call.name)
        meta.graph_def.CopyFrom(self.graph_def)
        meta.saver_def.CopyFrom(pb.SaverDef(
            filename_tensor_name=f"{filename.name}:0", save_tensor_name=f"{calls[0]}:0",
            restore_op_name=calls[1], version=2))

    @staticmethod
    def _bare(node, cf, name, params):
        bare = node.bare_concrete_function
        saved = vars(cf).get("_saved_bare")
        if saved is not None:  # (a loaded one: called as it was)
            bare.CopyFrom(saved)
            bare.concrete_function_name = name
            return
        bare.concrete_function_name = name
        bare.argument_keywords.extend(n for n, kind, _ in params if kind != "POSITIONAL_ONLY")
        bare.allowed_positional_arguments = sum(kind != "KEYWORD_ONLY" for _, kind, _ in params)


def _trace_gradient(grad, op):
    """Gradient function `grad` of graph op `op` as a ConcreteFunction of the gradients of
    the op's outputs (``result_grads_i``) returning those of its inputs (None where none),
    or None if it does not trace."""
    graph = Graph("internal_grad_fn")
    specs = [TensorSpec(t.shape, t.dtype, f"result_grads_{i}") for i, t in enumerate(op.outputs)]
    with context.building(graph):
        dys = [graph.placeholder(s.dtype, s.shape, s.name) for s in specs]
        try:
            results = grad(backprop.OpView(op.op_def, list(op.inputs), list(op.outputs),
                                           dict(op.attrs)), *dys)
        except Exception:  # noqa: BLE001 (as before: the loaded op has no gradient)
            return None
        results = [None if r is None else convert_to_tensor(r) for r in
                   (results if isinstance(results, (list, tuple)) else [results])]
    return ConcreteFunction("internal_grad_fn", graph, dys, results, ((None, *specs), {}))


def _constant_node(op):
    node = pb.SavedObject()
    node.constant.operation = op
    return node


def _object_metadata(saved_model, graph, describe):
    """The ``SavedMetadata`` of tf_keras's ``keras_metadata.pb``: for each object that
    `describe` gives ``(identifier, metadata JSON)`` (a Keras layer or model), its node, path
    and metadata, from which tf_keras's loader rebuilds it; each such node's identifier is
    set in `saved_model`'s object graph too."""
    nodes = saved_model.meta_graphs[0].object_graph_def.nodes
    found = pb.KerasSavedMetadata()
    for i, obj in enumerate(graph.objects):
        described = describe(obj) if nodes[i].WhichOneof("kind") == "user_object" else None
        if described is None:
            continue
        identifier, metadata = described
        nodes[i].user_object.identifier = identifier
        node = found.nodes.add(node_id=i, node_path=".".join(("root",) + graph.paths[i]),
                               identifier=identifier, metadata=metadata)
        node.version.producer, node.version.min_consumer = 2, 1
    return found


def save(obj, export_dir, signatures=None, options=None, root_metadata=None,
         root_identifier=None, object_metadata=None):
    """Writes `obj` as a SavedModel in `export_dir`; see the public docstring. Keras gives
    the root's `root_metadata` (its config, as JSON) and `root_identifier`, as tf_keras
    records them in the root's ``SavedUserObject``, and `object_metadata`, a function giving
    ``(identifier, metadata JSON)`` of each Keras object (None for others), written as
    tf_keras's ``keras_metadata.pb``."""
    if not trackable.is_trackable(obj) or isinstance(obj, (list, tuple, dict)):
        raise ValueError(f"Expected an object of type `Trackable`, such as `tf.Module` or a "
                         f"subclass of the `Trackable` class, for export. Got {obj} with type "
                         f"{type(obj)}.")
    export_dir = os.fspath(export_dir)
    writer = _Writer(obj, signatures)
    writer.custom_gradients = getattr(options, "experimental_custom_gradients", True)
    saved_model = writer.write()
    aliases = getattr(options, "function_aliases", None) or {}
    meta_info = saved_model.meta_graphs[0].meta_info_def
    for alias, function in aliases.items():
        functions = list(function) if isinstance(function, (list, tuple, set)) else [function]
        if not all(isinstance(f, (Function, ConcreteFunction)) for f in functions):
            raise TypeError(f"Unsupported type f{type(function)}. Functions in "
                            f"`function_aliases` should be created by tf.function, or concrete "
                            f"functions, or collections of concrete functions.")
        for concrete in [c for f in functions for c in _concretes(f)]:
            name = writer.names.get(id(concrete))
            if name is not None:  # (a function the SavedModel holds)
                meta_info.function_aliases[name] = alias
    root = saved_model.meta_graphs[0].object_graph_def.nodes[0]
    if root.WhichOneof("kind") == "user_object":
        if root_metadata is not None:
            root.user_object.metadata = root_metadata
        if root_identifier is not None:
            root.user_object.identifier = root_identifier
    keras_metadata = None
    if object_metadata is not None:
        keras_metadata = _object_metadata(saved_model, writer.graph, object_metadata)
    checkpoint = writer.graph.checkpoint()
    proto, tensors, dtypes = checkpoint.serialize()
    # (constants a function captures are nodes of the SavedObjectGraph, not the checkpoint's)
    for _ in writer.extra:
        proto.nodes.add().has_checkpoint_values.value = False
    tensors[trackable.OBJECT_GRAPH_KEY] = np.array(proto.SerializeToString(), object)
    dtypes[trackable.OBJECT_GRAPH_KEY] = _d.string
    # (on any file system: ``ram://`` too)
    variables = os.path.join(export_dir, "variables")
    file_system.makedirs(variables)
    file_system.makedirs(os.path.join(export_dir, "assets"))
    for asset in writer.assets:  # (a table's vocabulary file)
        path = _asset_path(asset)
        target = os.path.join(export_dir, "assets", os.path.basename(path))
        if os.path.abspath(path) != os.path.abspath(target):
            file_system.copy_between(*file_system.resolve(path), *file_system.resolve(target))
    bundle.write_bundle(os.path.join(variables, "variables"), tensors, dtypes)
    writer.add_saver(saved_model.meta_graphs[0], checkpoint, proto.SerializeToString())
    data = saved_model.SerializeToString(deterministic=True)  # (maps in key order)
    file_system.write_atomically(os.path.join(export_dir, "saved_model.pb"), data)
    if keras_metadata is not None:
        file_system.write_atomically(os.path.join(export_dir, "keras_metadata.pb"),
                      keras_metadata.SerializeToString())
    fingerprinting.write_fingerprint(export_dir, saved_model)
