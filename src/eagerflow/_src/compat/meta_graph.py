"""TF 1's meta graphs (``tf.compat.v1.train.import_meta_graph`` and
``export_meta_graph``): a ``MetaGraphDef`` holds a graph's ``GraphDef``, its
collections (variables as ``VariableDef``s, tensors and operations by name) and the
``SaverDef`` of its `Saver`; `Saver.save` writes one beside each checkpoint
(``model-3.meta``).

`import_meta_graph` rebuilds such a graph, TF's or eagerflow's, in the default
graph: its variables become graph variables (set up by their initializers or a
restore), its collections are filled again, and the returned `Saver` restores the
checkpoint the meta graph came with.

>>> import os, tempfile
>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
...     w = tf.compat.v1.get_variable("w", [], initializer=tf.compat.v1.ones_initializer())
...     y = tf.identity(x * w, name="y")
...     saver = tf.compat.v1.train.Saver()
>>> with tf.compat.v1.Session(graph=g) as sess:
...     _ = sess.run(w.assign(3.0))
...     path = saver.save(sess, os.path.join(tempfile.mkdtemp(), "model"))
>>> with tf.compat.v1.Graph().as_default():
...     restorer = tf.compat.v1.train.import_meta_graph(path + ".meta")
...     with tf.compat.v1.Session() as sess:
...         restorer.restore(sess, path)
...         sess.run("y:0", {"x:0": [1.0, 2.0]})
array([3., 6.], dtype=float32)
"""
import contextlib
import os

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.checkpoint import save_restore_ops  # noqa: F401 (a saver's SaveV2, RestoreV2)
from eagerflow._src.compat import graph_mode, variable_scope
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.compat.partitioned_variables import SaveSliceInfo
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable
from eagerflow._src.graph.graph import Operation, SymbolicTensor

# The collections whose items are variables (written as VariableDefs).
_VARIABLE_COLLECTIONS = (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES,
                         GraphKeys.LOCAL_VARIABLES, GraphKeys.MODEL_VARIABLES,
                         GraphKeys.GLOBAL_STEP, "moving_average_variables",
                         "trainable_resource_variables")
_messages = {}


def _protos():
    """(the saved-model messages module, the VariableDef class), built on first use."""
    if not _messages:
        from eagerflow._src.core.protos import saved_model  # noqa: PLC0415
        from eagerflow._src.core.protos.schema import build  # noqa: PLC0415
        # TF's variable.proto's VariableDef, field for field (the enums as their numbers)
        built = build("eagerflow/compat/variable_def.proto", """
            package eagerflow.compat;
            message SaveSliceInfoDef {
              string full_name = 1; repeated int64 full_shape = 2;
              repeated int64 var_offset = 3; repeated int64 var_shape = 4;
            }
            message VariableDef {
              string variable_name = 1; string initial_value_name = 6;
              string initializer_name = 2; string snapshot_name = 3;
              SaveSliceInfoDef save_slice_info_def = 4; bool is_resource = 5;
              bool trainable = 7; int32 synchronization = 8; int32 aggregation = 9;
            }""")
        _messages.update(pb=saved_model, VariableDef=built["VariableDef"])
    return _messages["pb"], _messages["VariableDef"]


def _op_name(name):
    return name[1:] if name.startswith("^") else name.split(":")[0]


def _read(meta_graph_or_file):
    pb, _ = _protos()
    if not isinstance(meta_graph_or_file, str):
        return meta_graph_or_file
    if not os.path.exists(meta_graph_or_file):
        raise OSError(f"File does not exist. Received: {meta_graph_or_file}.")
    with open(meta_graph_or_file, "rb") as f:
        data = f.read()
    meta = pb.MetaGraphDef()
    try:
        meta.ParseFromString(data)
    except Exception:  # noqa: BLE001 (a text meta graph: `as_text=True`)
        from google.protobuf import text_format  # noqa: PLC0415
        meta = pb.MetaGraphDef()
        text_format.Merge(data.decode("utf-8"), meta)
    return meta


@export("compat.v1.train.import_meta_graph")
def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """Adds the graph of a ``MetaGraphDef`` (or the file holding one) to the default graph,
    under `import_scope`; returns a `Saver` of its variables (None without any).

    Its variables become graph variables of the default graph, its collections are
    filled again, and its own save and restore operations are left out: the `Saver`
    returned restores checkpoints by the variables' names.
    """
    del clear_devices, kwargs
    return import_with_variables(meta_graph_or_file, import_scope)[0]


# The nodes holding variables: TF 2's resource handles, TF 1's ref variables
_REF_HOLDERS = ("VariableV2", "Variable")
_HOLDERS = ("VarHandleOp",) + _REF_HOLDERS
# TF 1's ops updating a ref variable (its first input) -> the resource op doing the same
_REF_UPDATES = {"Assign": "AssignVariableOp", "AssignAdd": "AssignAddVariableOp",
                "AssignSub": "AssignSubVariableOp"}


def _resource_op(op):
    """The resource-variable op of TF 1's ref op `op` (``ApplyAdam``: ``ResourceApplyAdam``),
    or None."""
    from eagerflow._src.core import registry  # noqa: PLC0415
    name = _REF_UPDATES.get(op) or (f"Resource{op}" if op.startswith(("Apply", "SparseApply"))
                                    else None)
    try:
        return name and registry.get(name).name
    except Exception:  # noqa: BLE001 (no such op here: the node stays, and fails as TF's)
        return None


def _as_resource_ops(graph_def, refs):
    """Rewrites the nodes of `graph_def` that use TF 1's ref variables `refs` (node name ->
    dtype enum)
    as the resource-variable ops eagerflow runs, in place: a variable's ``read`` Identity
    is a ``ReadVariableOp``, ``Assign``/``ApplyAdam``... the resource op updating it; a
    value such an update outputs (the ref) is a read after it, and any other use of the
    ref a fresh read."""
    def base(ref):
        return ref.lstrip("^").split(":")[0]

    updated, extra = {}, []
    for node in graph_def.node:
        data = [r for r in node.input if not r.startswith("^")]
        if not data or base(data[0]) not in refs:
            continue
        dtype = node.attr["T"].type if "T" in node.attr else node.attr["dtype"].type
        if node.op == "Identity":
            node.op = "ReadVariableOp"
            del node.attr["T"]
            node.attr["dtype"].type = dtype
            continue
        if node.op == "IsVariableInitialized":
            node.op = "VarIsInitializedOp"
            del node.attr["dtype"]
            continue
        made = _resource_op(node.op)
        if made is None:
            continue
        if node.op in _REF_UPDATES:
            for key in ("T", "validate_shape", "use_locking"):
                if key in node.attr:
                    del node.attr[key]
            node.attr["dtype"].type = dtype
        node.op = made
        updated[node.name] = (base(data[0]), dtype)
    for node in graph_def.node:
        for i, ref in enumerate(node.input):
            name = base(ref)
            if ref.startswith("^") or node.name in updated and name in refs:
                continue  # (an update's variables, its slots too, are what it updates)
            if name in updated:  # the ref an update outputs: the value after it
                variable, dtype = updated[name]
                read, waits = f"{name}/_value", [variable, "^" + name]
            elif name in refs and not (i == 0 and node.op in ("ReadVariableOp",
                                                              "VarIsInitializedOp")):
                variable = name  # a ref used as a value: a read
                read, waits = f"{name}/_value", [name]
                dtype = refs[name]
            else:
                continue
            node.input[i] = read
            if read not in extra:
                extra.append(read)
                added = graph_def.node.add(name=read, op="ReadVariableOp")
                added.input.extend(waits)
                added.attr["dtype"].type = dtype


def import_with_variables(meta_graph_or_file, import_scope=None):
    """`import_meta_graph`'s `Saver` (or None), and every variable imported, by node name
    (also those of no collection: a TF 2 SavedModel's).

    Into a function being traced (``tf.compat.v1.wrap_function``, as TF 2 loads a TF 1
    checkpoint), the variables are made uninitialized, as TF lifts them out of the function:
    the graph's initializers or its saver's restore operation (kept, with its save) set them.
    """
    from eagerflow._src.compat import saver as _saver  # noqa: PLC0415
    from eagerflow._src.graph import graph_def as _graph_def  # noqa: PLC0415
    pb, variable_def = _protos()
    meta = _read(meta_graph_or_file)
    in_function = graph_mode.v1_graph() is None and context.get().graph is not None
    graph = context.get().graph if in_function else graph_mode.default_v1_graph()
    prefix = f"{import_scope}/" if import_scope else ""
    definitions = {}
    for key in _VARIABLE_COLLECTIONS:
        collection = meta.collection_def.get(key) if key in meta.collection_def else None
        if collection is not None and collection.WhichOneof("kind") == "bytes_list":
            for raw in collection.bytes_list.value:
                found = variable_def.FromString(raw)
                definitions.setdefault(_op_name(found.variable_name), found)
    for node in meta.graph_def.node:  # (handles no collection names: variables all the same)
        if node.op in _HOLDERS and node.name not in definitions:
            definitions[node.name] = variable_def(variable_name=f"{node.name}:0")
    saver_scope, saver_nodes = None, set()
    if meta.HasField("saver_def") and meta.saver_def.restore_op_name and not in_function:
        saver_scope = meta.saver_def.restore_op_name.rpartition("/")[0] + "/"
        if saver_scope == "/":  # (TF 2's SavedModel: the saver's calls and filename, unscoped)
            saver_scope = None
            saver_nodes = {_op_name(getattr(meta.saver_def, f)) for f in (
                "restore_op_name", "save_tensor_name", "filename_tensor_name")}
    nodes = {n.name: n for n in meta.graph_def.node}
    kept = type(meta.graph_def)()
    kept.CopyFrom(meta.graph_def)
    del kept.node[:]
    for node in meta.graph_def.node:
        if node.name in definitions:  # a variable's handle: fed by the variable made below
            fed = kept.node.add(name=node.name, op="Placeholder")
            fed.attr["dtype"].type = _d.resource.as_datatype_enum
            continue
        if node.name in saver_nodes or (saver_scope and node.name.startswith(saver_scope)):
            continue  # (the saver's own ops)
        kept.node.add().CopyFrom(node)
    # (by their dtypes: in `kept`, their nodes are placeholders of their handles)
    refs = {n.name: n.attr["dtype"].type for n in meta.graph_def.node
            if n.name in definitions and n.op in _REF_HOLDERS}
    if refs:
        _as_resource_ops(kept, refs)
    variables, input_map = {}, {}
    for name, definition in definitions.items():
        node = nodes.get(name)
        if node is None:
            continue
        dtype = _d.as_dtype(node.attr["dtype"].type)
        shape = TensorShape(None if node.attr["shape"].shape.unknown_rank else
                            [d.size if d.size >= 0 else None
                             for d in node.attr["shape"].shape.dim])
        if in_function:
            var = _uninitialized(f"{prefix}{name}:0", dtype, shape, definition.trainable)
        else:
            var = variable_scope.GraphVariable._of_imported_graph(
                graph, f"{prefix}{name}:0", dtype, shape, definition.trainable)
            var._ref = name in refs  # (TF 1's ref variable: read and updated as one here)
        variables[name] = var
        input_map[f"{name}:0"] = var
    with contextlib.nullcontext() if in_function else graph.as_default():
        _graph_def.import_graph_def(kept, input_map, None, import_scope or "")
    for name, definition in definitions.items():
        var = variables.get(name)
        if var is None or in_function:
            continue
        if definition.initializer_name:
            var._initializer_op = graph.get_operation_by_name(
                prefix + definition.initializer_name)
        if definition.snapshot_name:
            var._snapshot = graph.get_tensor_by_name(prefix + definition.snapshot_name)
        if definition.initial_value_name:
            var._initial_value = graph.get_tensor_by_name(
                prefix + definition.initial_value_name)
        if definition.save_slice_info_def.full_name:  # (a shard of a partitioned variable)
            info = definition.save_slice_info_def
            var._save_slice_info = SaveSliceInfo(info.full_name, info.full_shape,
                                                 info.var_offset, info.var_shape)
    for key, collection in meta.collection_def.items():
        kind = collection.WhichOneof("kind")
        if kind == "bytes_list" and key in _VARIABLE_COLLECTIONS:
            for raw in collection.bytes_list.value:
                var = variables.get(_op_name(variable_def.FromString(raw).variable_name))
                if var is not None:
                    graph.add_to_collection(key, var)
        elif kind == "node_list":
            for name in collection.node_list.value:
                try:
                    graph.add_to_collection(key, graph.as_graph_element(prefix + name))
                except (KeyError, ValueError):
                    pass  # (an op left out: the saver's)
        elif kind == "int64_list":
            for value in collection.int64_list.value:
                graph.add_to_collection(key, int(value))
        elif kind == "float_list":
            for value in collection.float_list.value:
                graph.add_to_collection(key, float(value))
        elif kind == "bytes_list":
            for value in collection.bytes_list.value:
                graph.add_to_collection(key, value)
    saved = [v for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES)
             if any(v is w for w in variables.values())]
    if not saved:
        return None, variables  # (as TF: no variables to save)
    if in_function:  # (its own saver's ops save and restore them: the SaverDef names them)
        saver = _saver.Saver({v.name[len(prefix):].split(":")[0]: v for v in saved})
        if meta.HasField("saver_def"):
            saver._imported_def = meta.saver_def
        return saver, variables
    by_key = _saver_keys(meta.graph_def, saver_scope, variables) if saver_scope else None
    if by_key:  # (the variables the graph's own saver restores, under its keys)
        with graph.as_default():
            return _saver.Saver(by_key), variables
    by_key = {}  # (a partitioned variable's shards together, under its name)
    for v in saved:
        info = getattr(v, "_save_slice_info", None)
        if info is None:
            by_key[v.name[len(prefix):].split(":")[0]] = v
        else:
            by_key.setdefault(info.full_name, []).append(v)
    with graph.as_default():
        return _saver.Saver(by_key), variables


def _uninitialized(name, dtype, shape, trainable):
    """A variable named `name` with no value yet (reading it fails until it is assigned)."""
    dims = [d or 0 for d in shape.as_list()] if shape.rank is not None else [0]
    with context.init_scope():  # (a stand-in value of the dtype, dropped below)
        var = Variable(np.full(dims, b"", object) if dtype == _d.string else
                       np.zeros(dims, dtype.as_numpy_dtype),
                       trainable=trainable, shape=shape, dtype=dtype)
    var._handle.value = None
    var._name = name
    return var


def _saver_keys(graph_def, scope, variables):
    """``{checkpoint key: variable, or the shards of a partitioned one}`` that the saver
    under `scope` restores (its ``RestoreV2``'s tensor names and slice specs, and the
    variables its assignments of each output set), or None where it is not TF's layout."""
    nodes = {n.name: n for n in graph_def.node}
    restore = nodes.get(scope + "RestoreV2")
    if restore is None or len(restore.input) < 3:
        return None

    def strings(name):
        node = nodes.get(_op_name(name))
        if node is None or node.op != "Const":
            return None
        return [v.decode() for v in node.attr["value"].tensor.string_val]

    names, specs = strings(restore.input[1]), strings(restore.input[2])
    if not names or specs is None:
        return None
    outputs = {}  # an Identity of one of the restore's outputs -> that output's index
    for node in graph_def.node:
        if node.name.startswith(scope) and node.op == "Identity" and node.input and \
                _op_name(node.input[0]) == restore.name:
            outputs[node.name] = int(node.input[0].partition(":")[2] or 0)
    keys = {}
    for node in graph_def.node:
        if not node.name.startswith(scope) or node.op not in ("AssignVariableOp", "Assign") \
                or len(node.input) < 2:
            continue
        var, index = variables.get(_op_name(node.input[0])), outputs.get(_op_name(node.input[1]))
        if var is None or index is None:
            return None
        if index < len(specs) and specs[index]:
            keys.setdefault(names[index], []).append(var)
        else:
            keys[names[index]] = var
    return keys


@export("compat.v1.train.export_meta_graph")
def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False,
                      strip_default_attrs=False, save_debug_info=False, **kwargs):
    """The ``MetaGraphDef`` of `graph` (the default graph): its ``GraphDef`` (variables as
    TF's ``VarHandleOp`` nodes), its collections (those of `collection_list`, else all)
    and `saver_def`; written to `filename` when given (as text with `as_text`)."""
    del export_scope, clear_devices, clear_extraneous_savers, strip_default_attrs
    del save_debug_info, kwargs
    from eagerflow._src.core import versions  # noqa: PLC0415
    pb, variable_def = _protos()
    graph = graph or graph_mode.default_v1_graph()
    meta = pb.MetaGraphDef()
    if meta_info_def is not None:
        meta.meta_info_def.CopyFrom(meta_info_def)
    meta.meta_info_def.tensorflow_version = versions.VERSION
    meta.meta_info_def.tensorflow_git_version = versions.GIT_VERSION
    if graph_def is None:
        graph_def = graph_def_of(graph)
    meta.graph_def.ParseFromString(graph_def.SerializeToString())
    if saver_def is not None:
        meta.saver_def.CopyFrom(saver_def)
    keys = collection_list if collection_list is not None else graph.get_all_collection_keys()
    for key in keys:
        items = graph.get_collection(key)
        if not items:
            continue
        if all(isinstance(v, variable_scope.GraphVariable) for v in items):
            entry = meta.collection_def[key].bytes_list
            for v in items:
                entry.value.append(_variable_def(v, variable_def).SerializeToString())
        elif all(isinstance(v, (SymbolicTensor, Operation)) for v in items):
            meta.collection_def[key].node_list.value.extend(v.name for v in items)
        elif all(isinstance(v, float) for v in items):
            meta.collection_def[key].float_list.value.extend(items)
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in items):
            meta.collection_def[key].int64_list.value.extend(items)
        elif all(isinstance(v, (bytes, str)) for v in items):
            meta.collection_def[key].bytes_list.value.extend(
                v.encode() if isinstance(v, str) else v for v in items)
        # (other objects have no form TF reads: left out, as TF warns and does)
    if filename:
        directory = os.path.dirname(filename)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if as_text:
            from google.protobuf import text_format  # noqa: PLC0415
            with open(filename, "w") as f:
                f.write(text_format.MessageToString(meta))
        else:
            with open(filename, "wb") as f:
                f.write(meta.SerializeToString())
    return meta


def _variable_def(var, variable_def):
    return variable_def(
        variable_name=var.name, initializer_name=var.initializer.name,
        snapshot_name=var._snapshot.name if getattr(var, "_snapshot", None) is not None
        else "", initial_value_name=getattr(var._initial_value, "name", "") or "",
        is_resource=True, trainable=var.trainable, save_slice_info_def=_slice_info_def(var))


def _slice_info_def(var):
    """A partitioned variable's shard's place in the full variable (``SaveSliceInfoDef``)."""
    info = getattr(var, "_save_slice_info", None)
    if info is None:
        return None
    return {"full_name": info.full_name, "full_shape": info.full_shape,
            "var_offset": info.var_offset, "var_shape": info.var_shape}


def with_tf_saver(graph_def, scope, variables):
    """`graph_def` with the nodes under `scope` (eagerflow's restore: placeholders and
    assignments) replaced by TF's save and restore nodes of `variables` ({checkpoint
    key: variable}), as TF's `Saver` builds them: TF restores by the ``SaverDef``."""
    import numpy as np  # noqa: PLC0415
    from eagerflow._src.core.protos import framework as fw  # noqa: PLC0415
    from eagerflow._src.core.protos.tensors import tensor_proto  # noqa: PLC0415
    out = type(graph_def)()
    out.CopyFrom(graph_def)
    del out.node[:]
    out.node.extend(n for n in graph_def.node if not n.name.startswith(scope))
    # (a partitioned variable, a list of shards: a shard each under its full name)
    saved = [(key, part, getattr(part, "_save_slice_info", None))
             for key in sorted(variables)
             for part in (variables[key] if isinstance(variables[key], list)
                          else [variables[key]])]
    keys = [key for key, _, _ in saved]
    specs = [info.spec if info is not None and isinstance(variables[key], list) else ""
             for key, _, info in saved]
    string = _d.string.as_datatype_enum

    def add(name, op, inputs=(), **attrs):
        node = out.node.add(name=scope + name, op=op, input=list(inputs))
        for key, value in attrs.items():
            node.attr[key].CopyFrom(value)
        return node.name

    def strings(name, values, shape):
        array = np.array([v.encode() for v in values], object).reshape(shape)
        return add(name, "Const", value=fw.AttrValue(tensor=tensor_proto(array, _d.string)),
                   dtype=fw.AttrValue(type=string))

    scalar = fw.AttrValue(shape=fw.TensorShapeProto())
    filename = add("filename", "PlaceholderWithDefault", [strings("filename/input", ["model"],
                                                                  [])],
                   dtype=fw.AttrValue(type=string), shape=scalar)
    const = add("Const", "PlaceholderWithDefault", [filename], dtype=fw.AttrValue(type=string),
                shape=scalar)
    dtypes = fw.AttrValue(list=fw.AttrValue.ListValue(
        type=[var.dtype.base_dtype.as_datatype_enum for _, var, _ in saved]))
    reads = [var._snapshot.name.split(":")[0] for _, var, _ in saved]
    save = add("SaveV2", "SaveV2", [const, strings("SaveV2/tensor_names", keys, [len(keys)]),
                                    strings("SaveV2/shape_and_slices", specs, [len(keys)]),
                                    *reads], dtypes=dtypes)
    add("control_dependency", "Identity", [const, "^" + save], T=fw.AttrValue(type=string))
    restore = add("RestoreV2", "RestoreV2", [
        const, strings("RestoreV2/tensor_names", keys, [len(keys)]),
        strings("RestoreV2/shape_and_slices", specs, [len(keys)])], dtypes=dtypes)
    assigns = []
    for i, (_, var, _) in enumerate(saved):
        suffix = f"_{i}" if i else ""
        dtype = fw.AttrValue(type=var.dtype.as_datatype_enum)
        value = add(f"Identity{suffix}", "Identity", [f"{restore}:{i}" if i else restore],
                    T=dtype)
        assigns.append(add(f"AssignVariableOp{suffix}", "AssignVariableOp",
                           [var.name.split(":")[0], value], dtype=dtype))
    add("restore_all", "NoOp", ["^" + a for a in assigns])
    return out


def graph_def_of(graph, add_shapes=False):
    """`graph`'s ``GraphDef`` as TF writes a TF 1 graph's (`Graph.as_graph_def`): each of its
    variables a ``VarHandleOp`` node of its own name (which its initializer assigns and its
    reads read), and only the control inputs the graph holds (none that order its stateful
    operations, as a function's graph is written)."""
    from eagerflow._src.graph import graph_def as _graph_def  # noqa: PLC0415
    placeholders = {}  # resource placeholder -> the variable it stands for
    written = _graph_def.graph_to_graph_def(graph, add_shapes, placeholders,
                                             own_inputs_only=True)
    operations = {op.name for op in graph.get_operations()}
    control = getattr(graph, "control_inputs", {})
    handles = {node: (var.name.split(":")[0], var) for node, var in placeholders.items()
               if getattr(var, "_graph", None) is graph}  # (a v1 graph's own variables)
    out = type(written)()
    out.CopyFrom(written)
    del out.node[:]
    for node in written.node:
        if node.name in handles:
            name, var = handles[node.name]
            handle = out.node.add(name=name, op="VarHandleOp")
            handle.attr["dtype"].type = var.dtype.as_datatype_enum
            handle.attr["shape"].shape.CopyFrom(_graph_def.shape_proto(var.shape))
            handle.attr["shared_name"].s = name.encode()
            handle.attr["container"].s = b""
            handle.attr["allowed_devices"].list.SetInParent()
            if add_shapes:
                handle.attr["_output_shapes"].CopyFrom(node.attr["_output_shapes"])
            continue
        if node.op == "NoOp" and node.name not in operations:
            continue  # (the NoOp a function's graph waits on)
        copy = out.node.add()
        copy.CopyFrom(node)
        del copy.input[:]
        for ref in node.input:
            if ref.startswith("^"):
                continue
            op = _op_name(ref)
            copy.input.append(handles[op][0] if op in handles else ref)
        copy.input.extend("^" + d for d in control.get(node.name, ()))
    return out
