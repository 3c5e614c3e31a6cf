"""Reading a SavedModel (``tf.saved_model.load``): the object graph rebuilt as plain objects
with their variables restored from ``variables/`` and their functions run from the
GraphDef's function library on eagerflow's kernels, without the Python code that made them.
"""
import collections.abc
import copy
import inspect
import numbers
import os

import numpy as np
from google.protobuf import message, text_format

from eagerflow._src.backend.api_export import export
from eagerflow._src.autodiff.backprop import name_gradient
from eagerflow._src.checkpoint import bundle, trackable
from eagerflow._src.core import context, errors, nest
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import registry
from eagerflow._src.core.node_forms import tf_nodes
from eagerflow._src.core.module import Module
from eagerflow._src.core.protos import checkpoint as ckpt_pb
from eagerflow._src.core.protos import framework as fw_pb
from eagerflow._src.core.protos import saved_model as pb
from eagerflow._src.core.protos.tensors import shape_from_proto, tensor_from_proto
from eagerflow._src.core.resource import TrackableResource
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
# (the optional ops TF's gradients of branches use, which functions may hold)
from eagerflow._src.data import iterator_graph  # noqa: F401
from eagerflow._src.core.variables import (
    Variable, VarHandle, VariableAggregationV2, VariableSynchronization)
from eagerflow._src.function.concrete_function import ConcreteFunction
from eagerflow._src.function.polymorphic_function import (
    Function, FunctionSpec, binding_error)
from eagerflow._src.graph import graph_def as gd
from eagerflow._src.graph.graph import Graph, SymbolicTensor
from eagerflow._src.ops import array_ops, file_system
from eagerflow._src.saved_model import structure

SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"


def read_saved_model(export_dir):
    """The `SavedModel` proto of `export_dir`, with TF's OSErrors for a missing or damaged
    file."""
    export_dir = os.fspath(export_dir)
    pbtxt = os.path.join(export_dir, SAVED_MODEL_FILENAME_PBTXT)
    path = os.path.join(export_dir, SAVED_MODEL_FILENAME_PB)
    proto = pb.SavedModel()
    if file_system.isfile(path):  # (on any file system: ``ram://`` too)
        with file_system.open_file(path, "rb") as f:
            data = f.read()
        try:
            proto.ParseFromString(data)
        except message.DecodeError:
            raise OSError(f"Cannot parse file b'{path}': Error parsing message with type "
                          f"'tensorflow.SavedModel': Wire format was corrupt.") from None
    elif file_system.isfile(pbtxt):
        with file_system.open_file(pbtxt, "rb") as f:
            try:
                text_format.Parse(f.read().decode("utf-8"), proto)
            except text_format.ParseError as e:
                raise OSError(f"Cannot parse file {pbtxt}: {e}.") from None
    else:
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.sep}"
                      f"{{{SAVED_MODEL_FILENAME_PBTXT}|{SAVED_MODEL_FILENAME_PB}}}")
    return proto


def _meta_graph(proto, tags, export_dir):
    graphs = list(proto.meta_graphs)
    if tags is None:
        if len(graphs) != 1:
            raise ValueError(f"Importing a SavedModel with `tf.saved_model.load` requires a "
                             f"`tags=` argument if there is more than one MetaGraph. Got "
                             f"`tags=None`, but there are {len(graphs)} MetaGraphs in the "
                             f"SavedModel with tag sets: "
                             f"{[list(g.meta_info_def.tags) for g in graphs]}. Pass a `tags=` "
                             f"argument to load this SavedModel.")
        return graphs[0]
    if isinstance(tags, str):
        tags = [tags]
    for g in graphs:
        if set(g.meta_info_def.tags) == set(tags):
            return g
    if len(graphs) == 1:
        raise ValueError(f"Got an incompatible argument to `tags`: {list(tags)}. The "
                         f"SavedModel at {export_dir} has one MetaGraph with tags "
                         f"{list(graphs[0].meta_info_def.tags)}. You may omit the argument, "
                         f"pass 'None', or pass matching tags.")
    raise ValueError(f"The SavedModel at {export_dir} has no MetaGraph with tags "
                     f"{list(tags)}; its tag sets are "
                     f"{[list(g.meta_info_def.tags) for g in graphs]}.")


# TF's identifiers of saved containers, and what they load as
_CONTAINERS = {"trackable_list_wrapper": list, "trackable_tuple_wrapper": list,
               "trackable_dict_wrapper": dict}


class _UserObject(Module):
    """A restored object: its children as attributes (TF's ``_UserObject``)."""

    # (TF's is no `tf.Module`: a Keras layer holding it counts none of its variables among
    # its weights)
    _NOT_A_MODULE = True

    def __init__(self):
        super().__init__(name=None)


def _saved_attribute(name):
    """A `Module` attribute that a restored object has only when it was saved (a Keras
    object's ``variables`` list), as TF's restored objects: AttributeError otherwise."""

    def get(self):
        try:
            return self.__dict__[name]
        except KeyError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                 f"'{name}'") from None

    def set_(self, value):
        self.__dict__[name] = value

    return property(get, set_)


_SAVED_ONLY = ("name", "name_scope", "variables", "trainable_variables",
               "non_trainable_variables", "submodules", "with_name_scope")
for _name in _SAVED_ONLY:
    setattr(_UserObject, _name, _saved_attribute(_name))
_UserObject.__dir__ = lambda self: [n for n in Module.__dir__(self)
                                    if n not in _SAVED_ONLY or n in self.__dict__]


class _CallableUserObject(_UserObject):
    """A restored object that was callable: calls run its restored ``__call__``."""

    def __call__(self, *args, **kwargs):
        return self.__dict__["__call__"](*args, **kwargs)


_CallableUserObject.__name__ = _CallableUserObject.__qualname__ = "_UserObject"  # (TF's name)


def _restored_optimizer():
    """A Keras optimizer's node, revived as tf_keras revives it: a `RestoredOptimizer`
    (the loaded variables become its attributes)."""
    from eagerflow._src.keras.optimizers.optimizer import RestoredOptimizer  # noqa: PLC0415
    return RestoredOptimizer()


class _RestoredResource(_UserObject, TrackableResource):
    """A restored resource (a lookup table): its handle, made empty, then filled by its
    saved ``_initialize`` function and the checkpoint's values (TF's ``RestoredResource``)."""

    def __init__(self, handle, creator=None):
        _UserObject.__init__(self)
        TrackableResource.__init__(self)
        self._resource_handle = handle
        self._creator = creator  # (the NodeDef of the op making it: what saving it writes)

    resource_handle = property(lambda self: self._resource_handle)

    def _initialize(self):  # (replaced by the saved function, a child of the same name)
        return None


_RestoredResource.__name__ = _RestoredResource.__qualname__ = "RestoredResource"  # (TF's)


class _RestoredMutableTable(_RestoredResource):
    """A restored mutable table: a checkpoint (or a SavedModel saved again) holds its
    entries, as TF's ``table-keys`` and ``table-values``."""

    key_dtype = property(lambda self: self._resource_handle._data.key_dtype)
    value_dtype = property(lambda self: self._resource_handle._data.value_dtype)

    def _serialize_to_tensors(self):
        from eagerflow._src.core.convert import convert_to_tensor  # noqa: PLC0415
        from eagerflow._src.ops import lookup_ops  # noqa: PLC0415
        table = self._resource_handle._data
        buckets, empty = 0, None
        if self._creator.op == "MutableDenseHashTableV2":  # (its buckets, as TF's)
            buckets = self._creator.attr["initial_num_buckets"].i or \
                lookup_ops.DEFAULT_NUM_BUCKETS
            empty = table.reserved[0]
        keys, values = lookup_ops.export_entries(table, buckets, empty)
        return {"table": {"-keys": convert_to_tensor(keys, table.key_dtype),
                          "-values": convert_to_tensor(values, table.value_dtype)}}

    def _restore_from_tensors(self, tensors):
        _import_table(self, tensors["table"]["-keys"], tensors["table"]["-values"])


_RestoredMutableTable.__name__ = "RestoredResource"  # (TF's)


@export("saved_model.Asset", "compat.v1.saved_model.Asset")
class Asset:
    """A file a SavedModel keeps (a vocabulary): saving copies it into the SavedModel's
    ``assets/``; `asset_path` (a string tensor) is its path, which functions may read, and,
    once loaded, the path of the copy.

    >>> tf.saved_model.Asset("vocab.txt").asset_path.numpy()
    b'vocab.txt'
    """

    def __init__(self, path):
        from eagerflow._src.core.convert import convert_to_tensor  # noqa: PLC0415
        with context.init_scope():
            self.asset_path = convert_to_tensor(path, _d.string)

    def _trackable_children(self):
        return []


_RestoredAsset = Asset  # (what loading makes of a SavedModel's asset)


# the ops that make a table's resource, in a saved ``_create_resource`` function
_TABLE_OPS = ("HashTableV2", "MutableHashTableV2", "MutableHashTableOfTensorsV2",
              "MutableDenseHashTableV2", "HashTable", "MutableHashTable",
              "MutableHashTableOfTensors")


class _SignatureMap(collections.abc.Mapping):
    """The ``signatures`` of a loaded object: name -> concrete function returning a dict."""

    def __init__(self):
        self._signatures = {}

    def __getitem__(self, key):
        return self._signatures[key]

    def __iter__(self):
        return iter(self._signatures)

    def __len__(self):
        return len(self._signatures)

    def __repr__(self):
        return f"_SignatureMap({self._signatures})"


class _SignatureFunction(ConcreteFunction):
    """A loaded signature: its ``structured_outputs`` are the specs the signature declared
    (a tensor's `TensorSpec` named by its key), as TF's are; calls still return tensors (and
    ragged or sparse ones)."""

    def _pack(self, flat):
        values = iter(flat)  # (a backward traced for it has its graph's tensors as outputs)
        leaves = [next(values) if isinstance(s, (TensorSpec, SymbolicTensor)) else s
                  for s in nest.flatten(self.structured_outputs, expand_composites=True)]
        return nest.pack_sequence_as(self.structured_outputs, leaves, expand_composites=True)


def _as_signature(concrete):
    """A copy of a loaded signature's concrete function whose outputs read as specs."""
    if type(concrete) is not ConcreteFunction or not isinstance(concrete.structured_outputs,
                                                                 dict):
        return concrete
    if not all(isinstance(t, (Tensor, TensorSpec)) or hasattr(t, "_type_spec")
               for t in concrete.structured_outputs.values()):
        return concrete
    signature = copy.copy(concrete)
    signature.__class__ = _SignatureFunction
    signature._wrapped = concrete  # (what saving it again writes)
    signature.structured_outputs = {
        k: TensorSpec(t.shape, t.dtype, k) if isinstance(t, (Tensor, TensorSpec))
        else t._type_spec for k, t in concrete.structured_outputs.items()}
    return signature


class RestoredFunction:
    """A saved `tf.function`: calls run the saved concrete function whose signature the
    arguments match."""

    def __init__(self, name, concrete_functions, fullargspec, input_signature=None):
        self.__name__ = self._name = name
        self.concrete_functions = list(concrete_functions)
        # (as saved: what saving it again records)
        self._fullargspec, self._input_signature = fullargspec, input_signature
        self._params = _parameters(fullargspec)
        self._function = None
        if input_signature is not None and len(self.concrete_functions) == 1:
            # Calls bind to the input signature, with TF's errors, as the saved function's did.
            concrete = self.concrete_functions[0]

            def call(*args, **kwargs):
                return concrete(*args, **kwargs)

            if self._params is not None:
                call.__signature__ = inspect.Signature(self._params)
            self._function = Function(call, name, tuple(input_signature), autograph=False)
            # (its retracing counted alone, not with every restored function's `call`)
            self._function._call_stats_key = self

    def _canonical(self, args, kwargs):
        if self._params is None:
            return tuple(args), dict(kwargs)
        signature = inspect.Signature(self._params)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise binding_error(signature, e, args, kwargs) from None
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def __call__(self, *args, **kwargs):
        if self._function is not None:
            return self._function(*args, **kwargs)
        if not self.concrete_functions:  # (a function never traced before saving)
            raise ValueError("Found zero restored functions for caller function.")
        c_args, c_kwargs = self._canonical(args, kwargs)
        for concrete in self.concrete_functions:
            if _matches((c_args, c_kwargs), concrete.structured_input_signature):
                return concrete(*c_args, **c_kwargs)
        raise self._no_match(args, kwargs)

    def _no_match(self, args, kwargs):
        """TF's ValueError for arguments no saved concrete function matches: the arguments
        (defaults applied) and each option's, one per line."""
        try:
            args, kwargs = self._canonical(args, kwargs)
        except TypeError:
            pass
        options = "\n\n".join(f"Option {i + 1}:\n{_listed(*c.structured_input_signature)}"
                                for i, c in enumerate(self.concrete_functions))
        return ValueError(f"Could not find matching concrete function to call loaded from the "
                          f"SavedModel. Got:\n{_listed(args, kwargs)}\n\n Expected these "
                          f"arguments to match one of the following "
                          f"{len(self.concrete_functions)} option(s):\n\n{options}")

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Each saved concrete function's signature, as it prints them, in saved order."""
        return ("\n\n" if verbose else "\n").join(concrete.pretty_printed_signature(verbose)
                                                 for concrete in self.concrete_functions)

    def get_concrete_function(self, *args, **kwargs):
        """The saved concrete function these arguments (tensors or `TensorSpec`s) match."""
        if self._function is not None:
            if args or kwargs:  # (bound to the input signature: TF's TypeError otherwise)
                self._function.get_concrete_function(*args, **kwargs)
            return self.concrete_functions[0]  # (the one an input signature fixed)
        c_args, c_kwargs = self._canonical(args, kwargs)
        for concrete in self.concrete_functions:
            if _matches((c_args, c_kwargs), concrete.structured_input_signature):
                return concrete
        raise self._no_match(args, kwargs)

    @property
    def input_signature(self):
        """The saved function's input signature (a tuple of specs), or None if it had none."""
        return None if self._input_signature is None else tuple(self._input_signature)

    @property
    def function_spec(self):
        """The saved binding of calls: ``fullargspec`` and ``input_signature``."""
        return FunctionSpec(None if self._params is None else inspect.Signature(self._params),
                            self.input_signature, False, fullargspec=self._fullargspec)

    name = "restored_function_body"  # (TF's name of every restored function)

    def __get__(self, instance, owner=None):
        return self

    def __repr__(self):
        return f"<RestoredFunction {self._name} at 0x{id(self):x}>"


def _listed(args, kwargs):
    """Positional arguments one per line, then keyword arguments, as TF's errors list them
    (a tensor by its repr, with its shape and dtype)."""
    lines = [f"  Positional arguments ({len(args)} total):"]
    lines += [f"    * {arg!r}" if isinstance(arg, Tensor) else f"    * {arg}" for arg in args]
    return "\n".join(lines + [f"  Keyword arguments: {kwargs}"])


def _parameters(fullargspec):
    """`inspect.Parameter`s of a saved ``FullArgSpec`` (None when there is none)."""
    if not isinstance(fullargspec, tuple) or not hasattr(fullargspec, "args"):
        return None
    P = inspect.Parameter
    args = list(fullargspec.args or [])
    defaults = list(fullargspec.defaults or [])
    first_default = len(args) - len(defaults)
    params = [P(a, P.POSITIONAL_OR_KEYWORD,
                default=defaults[i - first_default] if i >= first_default else P.empty)
              for i, a in enumerate(args)]
    if fullargspec.varargs:
        params.append(P(fullargspec.varargs, P.VAR_POSITIONAL))
    kw_defaults = fullargspec.kwonlydefaults or {}
    params += [P(k, P.KEYWORD_ONLY, default=kw_defaults.get(k, P.empty))
               for k in fullargspec.kwonlyargs or []]
    if fullargspec.varkw:
        params.append(P(fullargspec.varkw, P.VAR_KEYWORD))
    return params


def _matches(value, signature):
    """Whether a call's canonical ``(args, kwargs)`` fits a saved input signature."""
    if isinstance(signature, TensorSpec):
        if isinstance(value, TensorSpec):
            return signature.is_compatible_with(value)
        dtype = getattr(value, "dtype", None)
        if isinstance(dtype, _d.DType) and dtype != signature.dtype:
            return False  # (a tensor of another dtype: no trace takes it, as in TF)
        shape = getattr(value, "shape", None)
        if shape is None:
            value = np.asarray(value)
            shape = value.shape
            if value.dtype.kind not in "biufcSUO":
                return False
        return TensorShape(signature.shape).is_compatible_with(TensorShape(shape))
    if hasattr(signature, "_to_components"):  # a composite's spec (RaggedTensorSpec)
        return signature.is_compatible_with(value)
    if isinstance(signature, dict):
        return (isinstance(value, dict) and set(value) == set(signature) and
                all(_matches(value[k], signature[k]) for k in signature))
    if isinstance(signature, (tuple, list)):
        # (a list traced takes a list, a tuple a tuple, as in TF)
        return (isinstance(value, (tuple, list)) and
                isinstance(value, list) == isinstance(signature, list) and
                len(value) == len(signature) and
                all(_matches(v, s) for v, s in zip(value, signature)))
    if not (type(value) is type(signature) or
            isinstance(value, numbers.Number) and isinstance(signature, numbers.Number)):
        return False
    try:  # (Python numbers equal as values: 3 takes the trace of 3.0, True that of 1, as in TF)
        return bool(value == signature)
    except (TypeError, ValueError):
        return False


class _Loader:
    def __init__(self, meta_graph, export_dir, variables=None, skip_checkpoint=False):
        """`variables`: ``{node id: Variable}`` given for the variable nodes they name (the
        functions capture them and the checkpoint's values are assigned to them).
        `skip_checkpoint`: the checkpoint is not read; the variables made are left without
        a value, as TF leaves them, for the user to assign."""
        self.proto = meta_graph.object_graph_def
        _add_default_attrs(meta_graph)
        gradients = _custom_gradients(meta_graph)
        self.library = gd.Library(meta_graph.graph_def.library.function)
        self.export_dir = export_dir
        self.concrete = {}
        nodes = self.proto.nodes
        self.nodes = [None] * len(nodes)
        # values first (functions capture them), then functions, then the rest
        for i, node in enumerate(nodes):
            if variables and i in variables and node.WhichOneof("kind") == "variable":
                self.nodes[i] = variables[i]
            elif node.WhichOneof("kind") == "variable":
                self.nodes[i] = self._variable(node.variable)
            elif node.WhichOneof("kind") == "constant":
                self.nodes[i] = self._constant(meta_graph.graph_def, node.constant.operation)
            elif node.WhichOneof("kind") == "resource":
                self.nodes[i] = self._resource(i)
            elif node.WhichOneof("kind") == "asset":
                self.nodes[i] = self._asset(meta_graph, node.asset)
        if skip_checkpoint:
            for obj in self.nodes:
                if isinstance(obj, Variable) and not (variables and obj in variables.values()):
                    obj.handle.value = None
        else:
            self._restore_values()
        # a table's create and destroy functions are not run here (the table is made above)
        skip = set()
        for i, node in enumerate(nodes):
            if node.WhichOneof("kind") == "resource":
                for ref in node.children:
                    if ref.local_name in ("_create_resource", "_destroy_resource"):
                        skip.add(ref.node_id)
                        skip.update(r.node_id for r in nodes[ref.node_id].children)
        for i, node in enumerate(nodes):
            kind = node.WhichOneof("kind")
            if i in skip:
                self.nodes[i] = _UserObject()
            elif kind == "bare_concrete_function":
                try:
                    self.nodes[i] = self._bare(node.bare_concrete_function)
                except NotImplementedError:  # (as a function's, below)
                    self.nodes[i] = _UserObject()
            elif kind == "function":
                spec = structure.decode(node.function.function_spec.fullargspec)
                name = node.function.concrete_functions[0] if node.function.concrete_functions \
                    else "function"
                try:
                    concretes = [self.get_concrete(n) for n in node.function.concrete_functions]
                except NotImplementedError:
                    # one taking what eagerflow cannot feed (a Keras layer's `adapt_step`
                    # takes a dataset iterator): left out, as the rest still runs
                    self.nodes[i] = _UserObject()
                    continue
                signature = structure.decode(node.function.function_spec.input_signature)
                restored = self.nodes[i] = RestoredFunction(_function_name(name), concretes,
                                                            spec, signature)
                for concrete in concretes:  # (printed and bound by the Python parameters)
                    if restored._params and not any(p.kind in (p.VAR_POSITIONAL,
                                                               p.VAR_KEYWORD)
                                                    for p in restored._params):
                        concrete._python_parameters = restored._params
            elif kind == "user_object" and node.user_object.identifier == "signature_map":
                self.nodes[i] = _SignatureMap()
            elif kind == "user_object" and node.user_object.identifier in _CONTAINERS:
                self.nodes[i] = _CONTAINERS[node.user_object.identifier]()
            elif kind == "user_object" and \
                    node.user_object.identifier == "experimentalOptimizer":
                self.nodes[i] = _restored_optimizer()
            elif self.nodes[i] is None:
                self.nodes[i] = _UserObject()
        # lists and dicts are filled first, inner ones before outer ones (an object holding
        # one keeps a copy)
        for i in reversed(range(len(nodes))):
            obj = self.nodes[i]
            if isinstance(obj, list):
                items = sorted(((int(r.local_name), r.node_id) for r in nodes[i].children
                                if r.local_name.isdigit()))
                obj.extend(self.nodes[j] for _, j in items)
            elif isinstance(obj, dict):
                obj.update((r.local_name, self.nodes[r.node_id]) for r in nodes[i].children)
        for i, node in enumerate(nodes):
            obj = self.nodes[i]
            for ref in node.children:
                child = self.nodes[ref.node_id]
                if isinstance(obj, _SignatureMap):
                    obj._signatures[ref.local_name] = _as_signature(child)
                elif isinstance(obj, _UserObject):
                    if ref.local_name == "__call__":
                        obj.__class__ = _CallableUserObject
                    try:
                        setattr(obj, ref.local_name, child)
                    except (AttributeError, TypeError):
                        pass  # (a name the object cannot take: a property of Module)
                elif node.WhichOneof("kind") == "user_object" and \
                        node.user_object.identifier == "experimentalOptimizer":
                    setattr(obj, ref.local_name, child)  # (its variables, lists of them)
        for i, node in enumerate(nodes):  # (what saving a table again writes)
            if node.WhichOneof("kind") == "resource":
                self.nodes[i]._saved_initializer = self._saved_initializer(node)
        for obj in self.nodes:  # (TF runs them at load, before any call)
            if isinstance(obj, _RestoredResource) and isinstance(
                    vars(obj).get("_initialize"), (ConcreteFunction, RestoredFunction)):
                obj._initialize()
        for function, gradient in gradients.items():
            try:
                gradient.concrete = self.get_concrete(function)
            except (NotImplementedError, errors.OpError):  # (as before: no gradient)
                pass
        root = self.nodes[0]
        if isinstance(root, _UserObject) and "signatures" not in vars(root):
            root.signatures = _SignatureMap()

    def _variable(self, proto):
        dtype = _d.as_dtype(proto.dtype)
        shape = shape_from_proto(proto.shape)
        dims = [d if d is not None else 0 for d in (shape.as_list() if shape.rank is not None
                                                      else [])]
        value = (np.full(dims, b"", object) if dtype == _d.string else
                 np.zeros(dims, dtype.as_numpy_dtype))
        with context.init_scope():
            return Variable(value, trainable=proto.trainable, name=proto.name or None,
                            dtype=dtype, shape=shape,
                            synchronization=VariableSynchronization(proto.synchronization),
                            aggregation=VariableAggregationV2(proto.aggregation))

    def _constant(self, graph_def, operation):
        for node in graph_def.node:
            if node.name == operation and node.op == "Const":
                from eagerflow._src.core.convert import convert_to_tensor  # noqa: PLC0415
                return convert_to_tensor(tensor_from_proto(node.attr["value"].tensor))
        raise errors.NotFoundError(None, None, f"The SavedModel's constant {operation} is not "
                                               f"in its graph.")

    def _resource(self, i):
        """An empty table for resource node `i`, of the dtypes its ``_create_resource``
        function's table op names."""
        from eagerflow._src.ops import lookup_ops  # noqa: PLC0415
        nodes = self.proto.nodes
        found = None
        for ref in nodes[i].children:
            child = nodes[ref.node_id]
            if ref.local_name == "_create_resource" and child.WhichOneof("kind") == "function":
                for name in child.function.concrete_functions:
                    fdef = self.library.functions.get(name)
                    if found is None:
                        found = next((n for n in getattr(fdef, "node_def", ())
                                      if n.op in _TABLE_OPS or n.op == "VarHandleOp"), None)
                        made_by = fdef
        from eagerflow._src.core.tensor import EagerTensor  # noqa: PLC0415
        if found is not None and found.op == "VarHandleOp":
            # a variable of its own (its saved `_initialize` assigns it), whatever the name
            handle = VarHandle("localhost", found.attr["shared_name"].s.decode() or found.name,
                               _d.as_dtype(found.attr["dtype"].type),
                               shape_from_proto(found.attr["shape"].shape), {})
            creator = fw_pb.NodeDef()
            creator.CopyFrom(found)
            return _RestoredResource(EagerTensor._wrap(handle), creator)
        if found is None:
            raise errors.UnimplementedError(None, None, f"The SavedModel's resource (node {i}) "
                                                        f"is not a lookup table: eagerflow "
                                                        f"cannot restore it.")
        value = lookup_ops.TableValue(_d.as_dtype(found.attr["key_dtype"].type),
                                      _d.as_dtype(found.attr["value_dtype"].type))
        # (a static table is looked up only once its saved initializer has run, as in TF)
        value.static = found.op in ("HashTableV2", "HashTable")
        if "value_shape" in found.attr:  # (a table of vectors; a dense table's may be [])
            value.value_shape = tuple(d.size for d in found.attr["value_shape"].shape.dim)
        if found.op == "MutableDenseHashTableV2":  # (its empty and deleted keys: constants)
            consts = {n.name: n for n in made_by.node_def if n.op == "Const"}
            value.reserved = tuple(
                tensor_from_proto(consts[ref.split(":")[0]].attr["value"].tensor)
                .reshape(()).item() for ref in found.input[:2])
        creator = fw_pb.NodeDef()
        creator.CopyFrom(found)
        kind = _RestoredMutableTable if found.op.startswith(("MutableHashTable",
                                                             "MutableDenseHashTable")) \
            else _RestoredResource
        return kind(EagerTensor._wrap(value), creator)

    def _saved_initializer(self, node):
        """``(name, {name: FunctionDef}, captured objects)`` of a table's saved
        ``_initialize`` function (with the functions it calls), or None."""
        ref = next((r for r in node.children if r.local_name == "_initialize"), None)
        function = None if ref is None else self.proto.nodes[ref.node_id]
        if function is None or function.WhichOneof("kind") != "function" or \
                not function.function.concrete_functions:
            return None
        name = function.function.concrete_functions[0]
        fdefs, queue = {}, [name]
        while queue:
            fdef = self.library.functions.get(queue.pop())
            if fdef is None or fdef.signature.name in fdefs:
                continue
            fdefs[fdef.signature.name] = fdef
            queue += [a.func.name for n in fdef.node_def for a in n.attr.values()
                      if a.HasField("func")]
        if name not in fdefs:
            return None
        bound = self.proto.concrete_functions[name].bound_inputs
        return name, fdefs, [self.nodes[i] for i in bound]

    def _asset(self, meta_graph, proto):
        """An asset: the path of its file under ``assets/``, a string tensor."""
        from eagerflow._src.core.convert import convert_to_tensor  # noqa: PLC0415
        filename = meta_graph.asset_file_def[proto.asset_file_def_index].filename
        path = os.path.join(self.export_dir, "assets", filename)
        return _RestoredAsset(convert_to_tensor(path.encode()))

    def _restore_values(self):
        prefix = os.path.join(self.export_dir, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
        if not bundle.exists(prefix):
            if any(isinstance(n, Variable) for n in self.nodes):
                # (TF's loader raises Python's error here, not tf.errors.NotFoundError)
                raise FileNotFoundError(
                    f"Unsuccessful TensorSliceReader constructor: Failed to find any "
                    f"matching files for {prefix}\n You may be trying to load on a different "
                    f"device from the computational device. Consider setting the "
                    f"`experimental_io_device` option in `tf.saved_model.LoadOptions` to the "
                    f"io_device such as '/job:localhost'.")
            return
        reader = bundle.BundleReader(prefix)
        try:
            graph = ckpt_pb.TrackableObjectGraph()
            data = reader.get_tensor(trackable.OBJECT_GRAPH_KEY)
            graph.ParseFromString(data.item() if isinstance(data, np.ndarray) else data)
            # (the checkpoint's nodes are the SavedObjectGraph's, in the same order)
            for i, node in enumerate(graph.nodes):
                obj = self.nodes[i] if i < len(self.nodes) else None
                for attribute in node.attributes:
                    if isinstance(obj, Variable) and attribute.name == trackable.VARIABLE_VALUE:
                        trackable.assign_variable(obj, reader.get_tensor(
                            attribute.checkpoint_key), attribute.checkpoint_key)
                    elif isinstance(obj, _RestoredResource) and attribute.name == "table":
                        # a mutable table's entries (TF's ``table-keys``, ``table-values``)
                        _import_table(obj, reader.get_tensor(attribute.checkpoint_key + "-keys"),
                                      reader.get_tensor(attribute.checkpoint_key + "-values"))
        finally:
            reader.close()

    def _bare(self, proto):
        concrete = self.get_concrete(proto.concrete_function_name)
        concrete._saved_bare = proto  # (how saving it again calls it: keywords, positions)
        # (the positions its flat call takes: a signature's none, so TF's TypeError for them)
        concrete._num_positional_args = proto.allowed_positional_arguments
        return concrete

    def get_concrete(self, name):
        found = self.concrete.get(name)
        if found is None:
            found = self.concrete[name] = self._build(name)
        return found

    def _build(self, name):
        saved = self.proto.concrete_functions[name]
        fdef = self.library.functions.get(name)
        if fdef is None:
            raise errors.NotFoundError(None, None, f"The SavedModel's function {name} is not in "
                                                   f"its function library.")
        signature = structure.decode(saved.canonicalized_input_signature)
        if not isinstance(signature, tuple) or len(signature) != 2:
            signature = (tuple(signature or ()), {})
        signature = (tuple(signature[0]), dict(signature[1]))
        out_signature = structure.decode(saved.output_signature)
        captured = [self.nodes[i] for i in saved.bound_inputs]
        # (a forward value a gradient function reads is its input: see `_custom_gradients`)
        fed = [self.proto.nodes[i].WhichOneof("kind") == "captured_tensor"
               for i in saved.bound_inputs]
        specs = [c for s in nest.flatten(signature) for c in _component_specs(s)]
        args = list(fdef.signature.input_arg)
        n_inputs = len(args) - len(captured)
        graph = Graph(name)
        feeds, inputs = {}, []
        with context.building(graph):
            for i, arg in enumerate(args[:n_inputs]):
                shape = specs[i].shape if i < len(specs) else TensorShape(None)
                t = graph.placeholder(_d.as_dtype(arg.type), shape, arg.name)
                feeds[arg.name] = t
                inputs.append(t)
            for arg, value, is_fed in zip(args[n_inputs:], captured, fed):
                if is_fed:
                    t = feeds[arg.name] = graph.placeholder(_d.as_dtype(arg.type),
                                                            TensorShape(None), arg.name)
                    inputs.append(t)
                    continue
                if isinstance(value, _RestoredResource):
                    value = value.resource_handle
                elif isinstance(value, _RestoredAsset):
                    value = value.asset_path
                if value is None:
                    raise errors.UnimplementedError(None, None, f"The function {name} captures "
                                                                f"an object eagerflow cannot "
                                                                f"restore.")
                feeds[arg.name] = value if isinstance(value, Variable) else \
                    graph.capture(value)
            ops = {n.name: n for n in fdef.node_def}
            nodes = []
            for src in fdef.node_def:
                node = fw_pb.NodeDef()
                node.CopyFrom(src)
                del node.input[:]
                node.input.extend(gd._graph_ref(r, ops) for r in src.input)
                nodes.append(node)
            made = gd._Importer(graph, self.library).run(nodes, feeds)
            refs = [gd._graph_ref(fdef.ret[a.name], ops) for a in fdef.signature.output_arg]
            outputs = iter([made[r if ":" in r else f"{r}:0"] for r in refs])
        def shaped(t, s):
            if t.shape.is_compatible_with(s.shape):
                t.set_shape(s.shape)  # (what the saved signature knew: a call's shape may not)
            return t
        leaves = [shaped(next(outputs), s) if isinstance(s, TensorSpec) else
                  s._from_components([shaped(next(outputs), c) for c in s._component_specs])
                  if hasattr(s, "_from_components") else s
                  for s in nest.flatten(out_signature)]
        structured = nest.pack_sequence_as(out_signature, leaves)
        declared = frozenset(s.name for s in nest.flatten((signature, out_signature))
                             if isinstance(s, TensorSpec) and s.name)
        concrete = ConcreteFunction(_function_name(name), graph, inputs, structured, signature,
                                    None, declared)
        concrete._saved_output_signature = out_signature  # (what saving it again writes)
        return concrete


def _custom_gradients(meta_graph):
    """Prepares the custom gradients the SavedModel records (``registered_gradients``) for
    the functions about to be read: each is registered under a new name (the saved one may
    be taken in this process), which the ops naming it (``_gradient_op_type``) are given;
    the forward values a gradient function reads (its ``captured_tensor`` inputs) are made
    extra inputs (and outputs) of those ops, so the gradient finds them among the op's
    inputs wherever the function runs. Returns ``{gradient function's name: its
    _RestoredGradient}``."""
    library = meta_graph.graph_def.library
    proto = meta_graph.object_graph_def
    fdefs = {f.signature.name: f for f in library.function}
    found = {}
    for gdef in library.registered_gradients:
        saved = proto.concrete_functions.get(gdef.gradient_func)
        grad_def = fdefs.get(gdef.gradient_func)
        if saved is None or grad_def is None or not gdef.registered_op_type:
            continue
        n_args = len(grad_def.signature.input_arg) - len(saved.bound_inputs)
        extra = [(proto.nodes[i].captured_tensor, grad_def.signature.input_arg[n_args + j].type)
                 for j, i in enumerate(saved.bound_inputs)
                 if proto.nodes[i].WhichOneof("kind") == "captured_tensor"]
        owners = {c.concrete_function for c, _ in extra}
        if len(owners) > 1 or owners and next(iter(owners)) not in fdefs:
            continue  # (values of several functions: left without a gradient)
        old_type = gdef.registered_op_type.encode()
        users = [(f, n) for f in library.function for n in f.node_def
                 if "_gradient_op_type" in n.attr and n.attr["_gradient_op_type"].s == old_type]
        if extra and any(f.signature.name not in owners for f, _ in users):
            continue
        gradient = _RestoredGradient(len(extra))
        new_type = name_gradient("CustomGradient", gradient)  # (the saved name may be taken)
        for fdef, node in users:
            node.attr["_gradient_op_type"].s = new_type.encode()
            if extra:
                ops = {n.name: n for n in fdef.node_def}
                args = {a.name for a in fdef.signature.input_arg}
                refs = list(node.input)
                del node.input[:]
                node.input.extend([r for r in refs if not r.startswith("^")] +
                                  [_body_ref(c.name, ops, args) for c, _ in extra] +
                                  [r for r in refs if r.startswith("^")])
                node.attr["T"].list.type.extend(dtype for _, dtype in extra)
        found[gdef.gradient_func] = gradient
    return found


def _body_ref(name, ops, args):
    """Tensor `name` (``node:i``, as a graph names it) as a FunctionDef body refers to it."""
    node, _, index = name.partition(":")
    index = int(index or 0)
    if node in args:
        return node
    form = tf_nodes.get(registry.all_ops().get(ops[node].op)) if node in ops else None
    for arg in getattr(form, "outputs", None) or ("output",):
        arg = arg if isinstance(arg, str) else arg[0]
        for j in range(index + 1):
            ref = f"{node}:{arg}:{j}"
            if gd._graph_ref(ref, ops) == f"{node}:{index}":
                return ref
    return f"{node}:output:{index}"


class _RestoredGradient:
    """The gradient a loaded custom gradient's function computes: it takes the incoming
    gradient of each output of the op (zeros where none comes) and the op's extra inputs,
    and returns the gradient of each input (None for the extra ones)."""

    kept = []  # as TF's loader registers them: for the life of the process

    def __init__(self, n_extra):
        self.n_extra, self.concrete = n_extra, None
        self.kept.append(self)

    def __call__(self, op, *dys):
        if self.concrete is None:
            raise LookupError(f"No gradient defined for operation'{op.type}' (op type: "
                              f"{op.type}): the SavedModel's gradient function of it could "
                              f"not be read.")
        k = len(op.outputs) - self.n_extra
        # (a variable's handle stands for its own gradient, which the function never reads)
        dys = [(t if t.dtype == _d.resource else array_ops.zeros_like(t)) if dy is None else dy
               for t, dy in zip(op.outputs[:k], dys[:k])]
        results = self.concrete.call_flat([*dys, *op.inputs[k:]])
        return [*nest.flatten(results), *[None] * self.n_extra]


def _import_table(resource, keys, values):
    """Fills a restored table with checkpointed entries."""
    from eagerflow._src.ops import lookup_ops  # noqa: PLC0415
    lookup_ops.import_entries(resource.resource_handle._data, np.asarray(keys),
                              np.asarray(values))


def _component_specs(spec):
    """The `TensorSpec`s of the graph inputs standing for one leaf of a saved signature."""
    if isinstance(spec, TensorSpec):
        return [spec]
    return list(getattr(spec, "_component_specs", ()))


def _add_default_attrs(meta_graph):
    """Puts back the attrs TF left out for holding their default values
    (``stripped_default_attrs``), from the OpDefs the MetaGraph lists."""
    defaults = {}
    for op in meta_graph.meta_info_def.stripped_op_list.op:
        found = {a.name: a.default_value for a in op.attr if a.HasField("default_value")}
        if found:
            defaults[op.name] = found
    if not defaults:
        return
    nodes = list(meta_graph.graph_def.node)
    for fdef in meta_graph.graph_def.library.function:
        nodes.extend(fdef.node_def)
    for node in nodes:
        for name, value in defaults.get(node.op, {}).items():
            if name not in node.attr:
                node.attr[name].CopyFrom(value)


def _function_name(name):
    """``__inference_f_17`` -> ``f``: the Python name of a saved concrete function."""
    if name.startswith("__inference_"):
        name = name[len("__inference_"):].rpartition("_")[0] or name
    return name


def load_nodes(export_dir, variables):
    """The loaded objects of the SavedModel in `export_dir`, by node id, its variable nodes
    named in `variables` (``{node id: Variable}``) being those given (Keras's revival of a
    model of a class it does not have: the layers it rebuilt hold them)."""
    export_dir = os.fspath(export_dir)
    meta_graph = _meta_graph(read_saved_model(export_dir), None, export_dir)
    return _Loader(meta_graph, export_dir, variables).nodes


def load(export_dir, tags=None, options=None):
    """Loads the SavedModel in `export_dir`; see the public docstring."""
    export_dir = os.fspath(export_dir)
    proto = read_saved_model(export_dir)
    meta_graph = _meta_graph(proto, tags, export_dir)
    if not meta_graph.HasField("object_graph_def") or not meta_graph.object_graph_def.nodes:
        from eagerflow._src.saved_model import load_v1  # noqa: PLC0415 (TF 1's, seldom)
        _add_default_attrs(meta_graph)
        return load_v1.load(export_dir, meta_graph, getattr(
            options, "experimental_skip_checkpoint", False))
    loader = _Loader(meta_graph, export_dir, skip_checkpoint=getattr(
        options, "experimental_skip_checkpoint", False))
    root = loader.nodes[0]
    if isinstance(root, _UserObject):  # (as TF's root records them)
        root.tensorflow_version = meta_graph.meta_info_def.tensorflow_version
        root.tensorflow_git_version = meta_graph.meta_info_def.tensorflow_git_version
    if getattr(options, "experimental_load_function_aliases", False):
        by_alias = {}
        for name, alias in sorted(meta_graph.meta_info_def.function_aliases.items()):
            by_alias.setdefault(alias, []).append(name)
        aliases = {}
        for alias, names in by_alias.items():
            found = next((obj for obj in loader.nodes if isinstance(obj, RestoredFunction) and
                          {c._name for c in obj.concrete_functions} ==
                          {_function_name(n) for n in names}), None)
            aliases[alias] = found or RestoredFunction(
                alias, [loader.get_concrete(n) for n in names], None)
        root.function_aliases = aliases
    return root
