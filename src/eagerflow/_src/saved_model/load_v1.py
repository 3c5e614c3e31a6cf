"""TF 1 SavedModels (``simple_save``, ``SavedModelBuilder``: a graph, SignatureDefs naming its
tensors, no object graph) loaded by ``tf.saved_model.load``, as TF 2 loads them.

The variables are the graph's ``VarHandleOp`` nodes, made eager variables holding the
values saved under their names in ``variables/``. The graph's nodes that the signatures
need (not the initializers or the saver's) are imported into one function graph, reading
those variables, and each signature is the part of it between its inputs and outputs: a
function taking its inputs by key and returning a dict of its outputs. The loaded object
has `signatures`, `variables`, `graph`, `prune` and TF's version strings.
"""
import os

import numpy as np

from eagerflow._src.backend.wire import read_varint as _varint
from eagerflow._src.checkpoint import bundle
from eagerflow._src.compat import v1 as compat_v1
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.module import Module
from eagerflow._src.core.protos.tensors import shape_from_proto
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.core.variables import Variable
from eagerflow._src.function.concrete_function import ConcreteFunction

_INIT_OP_KEY = "__saved_model_init_op"
_TRAIN_OP_KEY = "__saved_model_train_op"


class LoadedV1Model(Module):
    """A TF 1 SavedModel loaded in TF 2 (TF's ``AutoTrackable`` of ``load_v1_in_v2``)."""

    def __init__(self, variables):
        super().__init__(name=None)
        self._loaded_variables = list(variables)

    @property
    def variables(self):
        """The graph's variables, in the graph's order (a list, as TF gives it)."""
        return list(self._loaded_variables)


def _node_of(name):
    return name.lstrip("^").split(":")[0]


def _needed(graph_def, fetches, feeds):
    """The names of the nodes `fetches` (node names) depend on, stopping at `feeds`."""
    by_name = {n.name: n for n in graph_def.node}
    needed, stack = set(), list(fetches)
    while stack:
        name = stack.pop()
        if name in needed or name not in by_name:
            continue
        needed.add(name)
        if name in feeds:
            continue
        stack.extend(_node_of(i) for i in by_name[name].input)
    return needed


def _variable_name(variable_def):
    """Field 1 (``variable_name``) of a serialized ``VariableDef``."""
    pos = 0
    while pos < len(variable_def):
        key, pos = _varint(variable_def, pos)
        value, pos = _varint(variable_def, pos)  # a varint, or a length
        if key == 0x0A:
            return variable_def[pos:pos + value].decode("utf-8")
        if key & 7 == 2:
            pos += value
        elif key & 7:
            return ""  # (no other wire types come before the name)
    return ""


def _trainable_names(meta_graph):
    """The names of the variables the MetaGraph's ``trainable_variables`` collection lists
    (None: no such collection)."""
    if "trainable_variables" not in meta_graph.collection_def:
        return None
    collection = meta_graph.collection_def["trainable_variables"]
    return {_variable_name(raw).split(":")[0] for raw in collection.bytes_list.value}


def _spec(info, name):
    shape = TensorShape(None) if info.tensor_shape.unknown_rank else TensorShape(
        [None if d.size < 0 else d.size for d in info.tensor_shape.dim])
    return TensorSpec(shape, _d.as_dtype(info.dtype), name)


def load(export_dir, meta_graph, skip_checkpoint=False):
    """The object TF 2 loads from the TF 1 SavedModel `meta_graph` in `export_dir`
    (`skip_checkpoint`: its variables are left without values, as TF leaves them)."""
    graph_def = meta_graph.graph_def
    signatures = {k: v for k, v in meta_graph.signature_def.items()
                  if k not in (_INIT_OP_KEY, _TRAIN_OP_KEY)}
    prefix = os.path.join(export_dir, "variables", "variables")
    reader = bundle.BundleReader(prefix) if bundle.exists(prefix) and not skip_checkpoint \
        else None
    trainable = _trainable_names(meta_graph)
    variables = {}
    for node in graph_def.node:
        if node.op not in ("VarHandleOp", "VariableV2", "Variable"):
            continue
        if node.op != "VarHandleOp":
            raise errors.UnimplementedError(
                None, node.name, f"The TF 1 SavedModel at {export_dir} holds reference "
                                 f"variables ({node.op} {node.name!r}), which are not supported.")
        dtype = _d.as_dtype(node.attr["dtype"].type)
        if skip_checkpoint:  # (a placeholder value, dropped below: the variable has none)
            shape = shape_from_proto(node.attr["shape"].shape)
            value = np.zeros([d or 0 for d in shape.as_list()], dtype.as_numpy_dtype)
        else:
            key = node.name if reader is None or reader.has_tensor(node.name) else \
                node.attr["shared_name"].s.decode() or node.name
            if reader is None or not reader.has_tensor(key):
                raise errors.NotFoundError(None, None, f"Key {node.name} not found in "
                                                       f"checkpoint {prefix}")
            value = reader.get_tensor(key)
        variable = variables[node.name] = Variable(
            value, name=node.name, dtype=dtype,
            trainable=trainable is None or node.name in trainable)
        if skip_checkpoint:
            variable.handle.value = None
    feeds = {_node_of(i.name) for s in signatures.values() for i in s.inputs.values()}
    fetches = [_node_of(o.name) for s in signatures.values() for o in s.outputs.values()]
    needed = _needed(graph_def, fetches + sorted(feeds), feeds)
    subset = type(graph_def)()
    subset.versions.CopyFrom(graph_def.versions)
    subset.library.CopyFrom(graph_def.library)
    for node in graph_def.node:
        if node.name not in needed:
            continue
        if node.name in variables:  # (fed with the variable: a placeholder of its handle)
            stand_in = subset.node.add(name=node.name, op="Placeholder")
            stand_in.attr["dtype"].type = _d.resource.as_datatype_enum
        else:
            subset.node.add().CopyFrom(node)
    input_map = {f"{name}:0": v for name, v in variables.items() if name in needed}
    wrapped = compat_v1.wrap_function(
        lambda: compat_v1.import_graph_def(subset, input_map=input_map, name=""), [],
        name="wrapped_function")

    loaded = LoadedV1Model(variables.values())
    loaded.graph = wrapped.graph
    loaded.prune = wrapped.prune
    loaded.tensorflow_version = meta_graph.meta_info_def.tensorflow_version
    loaded.tensorflow_git_version = meta_graph.meta_info_def.tensorflow_git_version
    from eagerflow._src.saved_model.load import _SignatureMap  # noqa: PLC0415 (a cycle)
    loaded.signatures = _SignatureMap()
    for key, signature in sorted(signatures.items()):
        names = sorted(signature.inputs)
        pruned = wrapped.prune([signature.inputs[n].name for n in names],
                               {k: signature.outputs[k].name  # (by key, as TF's)
                                for k in sorted(signature.outputs)})
        specs = {n: _spec(signature.inputs[n], n) for n in names}
        loaded.signatures._signatures[key] = ConcreteFunction(
            key, pruned.graph, pruned._inputs, pruned.structured_outputs, ((), specs))
    return loaded
