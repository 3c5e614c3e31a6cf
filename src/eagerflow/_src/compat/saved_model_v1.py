"""TF 1's SavedModel API (``tf.compat.v1.saved_model``): `Builder` and `simple_save` write a
v1 graph with its variables and SignatureDefs, in TF's layout (``saved_model.pb``, the
variables as a name-based checkpoint in ``variables/``, restored by the graph's own
``SaverDef``), and `load` brings one, TF's or eagerflow's, into a `Session`'s graph.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "model")
>>> with tf.compat.v1.Graph().as_default():
...     x = tf.compat.v1.placeholder(tf.float32, [None], name="x")
...     w = tf.compat.v1.Variable(3.0, name="w")
...     y = tf.identity(x * w, name="y")
...     with tf.compat.v1.Session() as sess:
...         _ = sess.run(tf.compat.v1.global_variables_initializer())
...         tf.compat.v1.saved_model.simple_save(sess, path, {"x": x}, {"y": y})
>>> with tf.compat.v1.Session(graph=tf.compat.v1.Graph()) as sess:
...     meta = tf.compat.v1.saved_model.load(sess, ["serve"], path)
...     sig = meta.signature_def["serving_default"]
...     sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: [1.0, 2.0]})
array([3., 6.], dtype=float32)
"""
import os

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode, meta_graph, variable_scope
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape

_NS = "compat.v1.saved_model."
SERVING, TRAINING, GPU, TPU = "serve", "train", "gpu", "tpu"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
CLASSIFY_METHOD_NAME = "tensorflow/serving/classify"
REGRESS_METHOD_NAME = "tensorflow/serving/regress"
PREDICT_INPUTS, PREDICT_OUTPUTS = "inputs", "outputs"
CLASSIFY_INPUTS, CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES = "inputs", "classes", "scores"
REGRESS_INPUTS, REGRESS_OUTPUTS = "inputs", "outputs"
ASSETS_DIRECTORY, ASSETS_KEY = "assets", "saved_model_assets"
DEBUG_DIRECTORY, DEBUG_INFO_FILENAME_PB = "debug", "saved_model_debug_info.pb"
LEGACY_INIT_OP_KEY, MAIN_OP_KEY = "legacy_init_op", "saved_model_main_op"
SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT = "saved_model.pb", "saved_model.pbtxt"
SAVED_MODEL_SCHEMA_VERSION = 1
VARIABLES_DIRECTORY = VARIABLES_FILENAME = "variables"
_INIT_OP_SIGNATURE_KEY = "__saved_model_init_op"  # (TF 2's builder: the init op's signature)

for _name in ("SERVING", "TRAINING", "GPU", "TPU"):
    export(_NS + _name, _NS + "tag_constants." + _name).export_constant(__name__, _name)
for _name in ("DEFAULT_SERVING_SIGNATURE_DEF_KEY", "PREDICT_METHOD_NAME", "CLASSIFY_METHOD_NAME",
              "REGRESS_METHOD_NAME", "PREDICT_INPUTS", "PREDICT_OUTPUTS", "CLASSIFY_INPUTS",
              "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES", "REGRESS_INPUTS",
              "REGRESS_OUTPUTS"):
    export(_NS + _name, _NS + "signature_constants." + _name).export_constant(__name__, _name)
for _name in ("ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB",
              "LEGACY_INIT_OP_KEY", "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB",
              "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "VARIABLES_DIRECTORY",
              "VARIABLES_FILENAME"):
    export(_NS + _name, _NS + "constants." + _name).export_constant(__name__, _name)


def _pb():
    pb, _ = meta_graph._protos()
    return pb


@export(_NS + "build_tensor_info", _NS + "utils.build_tensor_info")
def build_tensor_info(tensor):
    """The ``TensorInfo`` of a graph tensor (its name, dtype and shape) for a SignatureDef."""
    if graph_mode.executing_eagerly():
        raise RuntimeError("`build_tensor_info` is not supported in eager execution.")
    info = _pb().TensorInfo(name=tensor.name, dtype=tensor.dtype.as_datatype_enum)
    shape = TensorShape(tensor.shape)
    if shape.rank is None:
        info.tensor_shape.unknown_rank = True
    else:
        info.tensor_shape.SetInParent()
        for d in shape.as_list():
            info.tensor_shape.dim.add(size=-1 if d is None else d)
    return info


@export(_NS + "get_tensor_from_tensor_info", _NS + "utils.get_tensor_from_tensor_info")
def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The tensor of `graph` (the default graph) that `tensor_info` names."""
    graph = graph or graph_mode.default_v1_graph()
    if tensor_info.WhichOneof("encoding") != "name":
        raise ValueError(f"Invalid TensorInfo.encoding: {tensor_info.WhichOneof('encoding')}")
    prefix = f"{import_scope}/" if import_scope else ""
    return graph.get_tensor_by_name(prefix + tensor_info.name)


@export(_NS + "build_signature_def", _NS + "signature_def_utils.build_signature_def")
def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    """A ``SignatureDef`` of `inputs` and `outputs` (dicts of ``TensorInfo``) and
    `method_name`."""
    signature = _pb().SignatureDef()
    for key, info in (inputs or {}).items():
        signature.inputs[key].CopyFrom(info)
    for key, info in (outputs or {}).items():
        signature.outputs[key].CopyFrom(info)
    if method_name is not None:
        signature.method_name = method_name
    if defaults:
        raise NotImplementedError("build_signature_def: `defaults` are not supported yet.")
    return signature


@export(_NS + "predict_signature_def", _NS + "signature_def_utils.predict_signature_def")
def predict_signature_def(inputs, outputs):
    """The predict ``SignatureDef`` of `inputs` and `outputs` (dicts of graph tensors by key)."""
    if not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()},
                               PREDICT_METHOD_NAME)


_DT_STRING, _DT_FLOAT = _d.string.as_datatype_enum, _d.float32.as_datatype_enum


def _checked_info(tensor, want, message):
    info = build_tensor_info(tensor)
    if info.dtype != want:
        raise ValueError(message.format(info.dtype))
    return info


@export(_NS + "classification_signature_def",
        _NS + "signature_def_utils.classification_signature_def")
def classification_signature_def(examples, classes, scores):
    """The classify ``SignatureDef`` of the serialized `examples` (a string tensor) and
    the `classes` (strings) and/or `scores` (floats) predicted for them."""
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if not isinstance(examples, Tensor):
        raise ValueError(f"Classification `examples` must be a string Tensor. Found "
                         f"`examples` of type {type(examples)}.")
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    inputs = {CLASSIFY_INPUTS: _checked_info(
        examples, _DT_STRING,
        "Classification input tensors must be of type string. Found tensors of type {}")}
    outputs = {}
    if classes is not None:
        outputs[CLASSIFY_OUTPUT_CLASSES] = _checked_info(
            classes, _DT_STRING, "Classification classes must be of type string Tensor. Found "
                                 "tensors of type {}.`")
    if scores is not None:
        outputs[CLASSIFY_OUTPUT_SCORES] = _checked_info(
            scores, _DT_FLOAT, "Classification scores must be a float Tensor.")
    return build_signature_def(inputs, outputs, CLASSIFY_METHOD_NAME)


@export(_NS + "regression_signature_def", _NS + "signature_def_utils.regression_signature_def")
def regression_signature_def(examples, predictions):
    """The regress ``SignatureDef`` of the serialized `examples` (a string tensor) and the
    float `predictions` for them."""
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if not isinstance(examples, Tensor):
        raise ValueError(f"Expected regression `examples` to be of type Tensor. Found "
                         f"`examples` of type {type(examples)}.")
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    inputs = {REGRESS_INPUTS: _checked_info(
        examples, _DT_STRING,
        "Regression input tensors must be of type string. Found tensors with type {}.")}
    outputs = {REGRESS_OUTPUTS: _checked_info(
        predictions, _DT_FLOAT,
        "Regression output tensors must be of type float. Found tensors with type {}.")}
    return build_signature_def(inputs, outputs, REGRESS_METHOD_NAME)


@export(_NS + "is_valid_signature", _NS + "signature_def_utils.is_valid_signature")
def is_valid_signature(signature_def):
    """Whether `signature_def` is a valid predict (some inputs and outputs), regress
    (string ``inputs``, float ``outputs``) or classify (string ``inputs``; string
    ``classes`` and/or float ``scores``) signature."""
    if signature_def is None:
        return False
    s = signature_def
    inputs, outputs = set(s.inputs.keys()), set(s.outputs.keys())
    if s.method_name == PREDICT_METHOD_NAME:
        return bool(inputs) and bool(outputs)
    if s.method_name == REGRESS_METHOD_NAME:
        return (inputs == {REGRESS_INPUTS} and s.inputs[REGRESS_INPUTS].dtype == _DT_STRING
                and outputs == {REGRESS_OUTPUTS}
                and s.outputs[REGRESS_OUTPUTS].dtype == _DT_FLOAT)
    if s.method_name == CLASSIFY_METHOD_NAME:
        allowed = {CLASSIFY_OUTPUT_CLASSES: _DT_STRING, CLASSIFY_OUTPUT_SCORES: _DT_FLOAT}
        return (inputs == {CLASSIFY_INPUTS} and s.inputs[CLASSIFY_INPUTS].dtype == _DT_STRING
                and all(allowed.get(k) == s.outputs[k].dtype for k in outputs))
    return False


@export(_NS + "main_op.main_op")
def main_op():
    """One op initializing the global and local variables and the tables (TF 1's default
    main op of a SavedModel)."""
    return graph_mode.group(variable_scope.global_variables_initializer(),
                            variable_scope.local_variables_initializer(),
                            variable_scope.tables_initializer())


@export(_NS + "main_op_with_restore", _NS + "main_op.main_op_with_restore")
def main_op_with_restore(restore_op_name):
    """`main_op` followed by the restore op `restore_op_name`."""
    with graph_mode.control_dependencies([main_op()]):
        return graph_mode.group(restore_op_name)


@export(_NS + "maybe_saved_model_directory", _NS + "loader.maybe_saved_model_directory")
def maybe_saved_model_directory(export_dir):
    """Whether `export_dir` holds a ``saved_model.pb`` or ``saved_model.pbtxt``."""
    export_dir = os.fspath(export_dir)
    return any(os.path.isfile(os.path.join(export_dir, f))
               for f in (SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT))


@export(_NS + "contains_saved_model")
def contains_saved_model(export_dir):
    """Whether `export_dir` holds a SavedModel (see `maybe_saved_model_directory`)."""
    return maybe_saved_model_directory(export_dir)


@export(_NS + "load", _NS + "loader.load")
def load(sess, tags, export_dir, import_scope=None, **saver_kwargs):
    """Loads the MetaGraph of `tags` from the SavedModel in `export_dir` into `sess`'s graph,
    restores its variables in `sess` and runs its init op; returns the ``MetaGraphDef``,
    whose SignatureDefs name the tensors to run. A TF 2 SavedModel (``tf.saved_model.save``)
    loads too: its variables restored from their objects' checkpoint keys."""
    from eagerflow._src.saved_model.load import read_saved_model  # noqa: PLC0415
    export_dir = os.fspath(export_dir)
    proto = read_saved_model(export_dir)
    tags = [tags] if isinstance(tags, str) else list(tags)
    found = [m for m in proto.meta_graphs if set(m.meta_info_def.tags) == set(tags)]
    if not found:
        available = [set(m.meta_info_def.tags) for m in proto.meta_graphs]
        raise RuntimeError(
            f"MetaGraphDef associated with tags {str(tags).strip('[]')} could not be found in "
            f"SavedModel, with available tags '{available}'. To inspect available tag-sets "
            f"in the SavedModel, please use the SavedModel CLI: `saved_model_cli`.")
    meta = found[0]
    graph = sess.graph
    del saver_kwargs
    prefix = os.path.join(export_dir, VARIABLES_DIRECTORY, VARIABLES_FILENAME)
    with graph.as_default():
        saver, variables = meta_graph.import_with_variables(meta, import_scope)
        if len(meta.object_graph_def.nodes):  # a TF 2 SavedModel: keys by object, not name
            saver = _object_saver(meta, prefix, variables)
    if saver is not None:
        saver.restore(sess, prefix)
    prefix = f"{import_scope}/" if import_scope else ""
    # (the init op is fed each asset's path: its file under the SavedModel's assets/)
    feeds = {graph.get_tensor_by_name(prefix + asset.tensor_info.name):
             os.path.join(export_dir, ASSETS_DIRECTORY, asset.filename)
             for asset in meta.asset_file_def}
    init = meta.signature_def.get(_INIT_OP_SIGNATURE_KEY)
    if init is not None and _INIT_OP_SIGNATURE_KEY in init.outputs:
        sess.run(graph.get_operation_by_name(
            prefix + init.outputs[_INIT_OP_SIGNATURE_KEY].name.split(":")[0]), feeds)
    else:
        for key in (MAIN_OP_KEY, LEGACY_INIT_OP_KEY):
            ops = meta.collection_def[key].node_list.value if key in meta.collection_def else []
            if ops:
                sess.run(graph.get_operation_by_name(prefix + ops[0].split(":")[0]), feeds)
                break
    return meta


def _object_saver(meta, prefix, variables):
    """A `Saver` restoring the imported `variables` of a TF 2 SavedModel's MetaGraph from its
    object-based checkpoint: each variable object's ``VARIABLE_VALUE`` key, matched to the
    graph's variable of its name."""
    from eagerflow._src.checkpoint import bundle, trackable  # noqa: PLC0415
    from eagerflow._src.compat.saver import Saver  # noqa: PLC0415
    from eagerflow._src.core.protos import checkpoint as ckpt_pb  # noqa: PLC0415
    if not variables or not bundle.exists(prefix):
        return None
    reader = bundle.BundleReader(prefix)
    try:
        graph = ckpt_pb.TrackableObjectGraph.FromString(
            reader.get_tensor(trackable.OBJECT_GRAPH_KEY).item())
    finally:
        reader.close()
    keys, seen = {}, set()
    for i, node in enumerate(meta.object_graph_def.nodes):
        if node.WhichOneof("kind") != "variable" or i >= len(graph.nodes):
            continue
        if node.variable.name in seen:  # (which graph variable is whose: not by name)
            raise errors.UnimplementedError(
                None, None, f"The SavedModel at {os.path.dirname(os.path.dirname(prefix))} has "
                            f"two variables named {node.variable.name!r}; loading it into a "
                            f"Session is not supported (use tf.saved_model.load).")
        seen.add(node.variable.name)
        var = variables.get(node.variable.name)
        for attribute in graph.nodes[i].attributes:
            if attribute.name == "VARIABLE_VALUE" and var is not None:
                keys[attribute.checkpoint_key] = var
    return Saver(keys) if keys else None


@export(_NS + "Builder", _NS + "builder.SavedModelBuilder")
class Builder:
    """Writes a SavedModel of one or more MetaGraphs of a v1 graph
    (``tf.compat.v1.saved_model.Builder``): `add_meta_graph_and_variables` first (it saves
    the variables of a session), then `add_meta_graph` for more tag sets, then `save`."""

    def __init__(self, export_dir):
        export_dir = os.fspath(export_dir)
        if os.path.exists(export_dir):
            if os.listdir(export_dir):
                raise AssertionError(
                    f"Export directory {export_dir} already exists, and isn't empty. Please "
                    f"choose a different export directory, or delete all the contents of the "
                    f"specified directory.")
        else:
            os.makedirs(export_dir)
        self._export_dir = export_dir
        self._saved_model = _pb().SavedModel(saved_model_schema_version=SAVED_MODEL_SCHEMA_VERSION)
        self._has_saved_variables = False
        self._saver = None

    def _saver_of(self, graph, saver):
        if saver is not None:
            return saver
        if self._saver is not None and self._saver._graph is graph:
            return self._saver
        from eagerflow._src.compat.saver import Saver  # noqa: PLC0415
        variables = graph.get_collection(GraphKeys.GLOBAL_VARIABLES)
        if not variables:
            return None  # (as TF: nothing to save, no SaverDef)
        with graph.as_default():
            return Saver(variables, allow_empty=True)

    def _meta_graph(self, graph, saver, tags, signature_def_map, main_op, clear_devices):
        if saver is not None:
            meta = saver.export_meta_graph(clear_devices=clear_devices)
        else:
            meta = meta_graph.export_meta_graph(graph=graph, clear_devices=clear_devices)
        if main_op is not None:
            meta.collection_def[MAIN_OP_KEY].node_list.value.append(
                getattr(main_op, "op", main_op).name)
        meta.meta_info_def.tags.extend(tags)
        for key, signature in (signature_def_map or {}).items():
            meta.signature_def[key].CopyFrom(signature)
        self._saved_model.meta_graphs.add().CopyFrom(meta)

    def add_meta_graph_and_variables(self, sess, tags, signature_def_map=None,
                                     assets_collection=None, legacy_init_op=None,
                                     clear_devices=False, main_op=None,
                                     strip_default_attrs=False, saver=None):
        """Saves the variables of `sess`'s graph as `sess` holds them, and adds that graph as
        the MetaGraph of `tags` with `signature_def_map` ({key: SignatureDef})."""
        del assets_collection, strip_default_attrs
        if self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has already been "
                                 "saved. Please invoke `add_meta_graph()` instead.")
        graph = sess.graph
        saver = self._saver_of(graph, saver)
        directory = os.path.join(self._export_dir, VARIABLES_DIRECTORY)
        os.makedirs(directory, exist_ok=True)
        if saver is not None:
            saver.save(sess, os.path.join(directory, VARIABLES_FILENAME),
                       write_meta_graph=False, write_state=False)
        self._saver = saver
        self._meta_graph(graph, saver, tags, signature_def_map,
                         main_op if main_op is not None else legacy_init_op, clear_devices)
        self._has_saved_variables = True

    def add_meta_graph(self, tags, signature_def_map=None, assets_collection=None,
                       legacy_init_op=None, clear_devices=False, main_op=None,
                       strip_default_attrs=False, saver=None):
        """Adds the default graph as the MetaGraph of `tags` (its variables are those saved
        by `add_meta_graph_and_variables`)."""
        del assets_collection, strip_default_attrs
        if not self._has_saved_variables:
            raise AssertionError("Graph state including variables and assets has not been "
                                 "saved yet. Please invoke `add_meta_graph_and_variables()` "
                                 "first.")
        graph = graph_mode.default_v1_graph()
        self._meta_graph(graph, self._saver_of(graph, saver), tags, signature_def_map,
                         main_op if main_op is not None else legacy_init_op,
                         clear_devices)

    def save(self, as_text=False, experimental_image_format=False,
             experimental_image_writer_options=None):
        """Writes ``saved_model.pb`` (``.pbtxt`` with `as_text`); returns its path (bytes)."""
        del experimental_image_format, experimental_image_writer_options
        if as_text:
            from google.protobuf import text_format  # noqa: PLC0415
            path = os.path.join(self._export_dir, SAVED_MODEL_FILENAME_PBTXT)
            data = text_format.MessageToString(self._saved_model).encode("utf-8")
        else:
            path = os.path.join(self._export_dir, SAVED_MODEL_FILENAME_PB)
            data = self._saved_model.SerializeToString(deterministic=True)
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return path.encode("utf-8")


@export(_NS + "simple_save")
def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Writes `session`'s graph and variables as a SavedModel for serving: tags ``serve``,
    one ``serving_default`` predict signature of `inputs` and `outputs` (dicts of tensors)."""
    builder = Builder(export_dir)
    builder.add_meta_graph_and_variables(
        session, tags=[SERVING],
        signature_def_map={DEFAULT_SERVING_SIGNATURE_DEF_KEY: predict_signature_def(inputs,
                                                                                     outputs)},
        main_op=legacy_init_op, clear_devices=True)
    builder.save()

