"""`save_model` / `load_model`: a whole model in one `.keras` zip archive, or an `.h5` file.

The archive holds ``config.json`` (the model's ``{"class_name", "config"}``,
how to build it, and its compile arguments), ``metadata.json`` (Keras
version and date) and the weights with the optimizer's state: with h5py
installed, ``model.weights.h5`` in Keras's own layout (see `keras_archive`),
so that tf_keras loads the archive and eagerflow loads tf_keras's; without
h5py, ``model.weights.safetensors`` (keyed as `save_weights` keys them), an
archive only eagerflow reads. `load_model` reads both, and `.h5` files in
tf_keras's legacy layout (see `h5_format`). Archives are written
atomically; `load_model` rebuilds the model from its config, compiles it and
restores the weights, or raises before returning anything half-loaded.

>>> import os, tempfile
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
>>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
>>> tf.keras.saving.save_model(model, path)
>>> [w.shape for w in tf.keras.saving.load_model(path).weights] == [w.shape for w in model.weights]
True
"""
import collections.abc
import datetime
import inspect
import io
import json
import os
import tempfile
import warnings
import zipfile

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import file_system
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras import layers as layers_mod
from eagerflow._src.keras import losses as losses_mod
from eagerflow._src.keras import metrics as metrics_mod
from eagerflow._src.keras import optimizers
from eagerflow._src.keras.saving import h5_format, keras_archive, safetensors_format, weights
from eagerflow._src.keras.saving import saved_model_functions  # noqa: F401 (late)
from eagerflow._src.keras.engine.base_layer import Layer
from eagerflow._src.keras.engine.functional import Functional
from eagerflow._src.keras.engine.training import Model
from eagerflow._src.keras.metrics import Metric
from eagerflow._src.keras.mixed_precision.loss_scale_optimizer import LossScaleOptimizer
from eagerflow._src.keras.optimizers import legacy
from eagerflow._src.keras.optimizers.legacy import OptimizerV2
from eagerflow._src.keras.optimizers.optimizer import Optimizer, RestoredOptimizer
from eagerflow._src.keras.optimizers.optimizer_v1 import TFOptimizer
from eagerflow._src.keras.utils import serialization

_logger = _log.logger
_CONFIG = "config.json"
_METADATA = "metadata.json"
_KERAS_VERSION = "2.21.0"


@export("keras.saving.save_model", "keras.models.save_model")
def save_model(model, filepath, overwrite=True, save_format=None, **kwargs):
    """Saves `model`'s architecture, compile arguments and weights to `filepath`.

    A path ending in ``.h5`` (or `save_format="h5"`) gets tf_keras's legacy
    HDF5 file, through h5py (`include_optimizer=False` leaves out the compile
    arguments and the optimizer's state); a path ending in ``.keras`` (or
    `save_format="keras"`) the `.keras` archive, which takes no other argument;
    `save_format="tf"` on an ``.h5`` or ``.keras`` path HDF5 again, and on any
    other path (the default there), as tf_keras does, a SavedModel directory
    (`tf.saved_model.save`'s, with the model's config recorded for
    `load_model`, its ``__call__`` and its ``serving_default`` signature;
    `signatures` and `options` as there). `save_traces` is accepted and ignored.
    """
    filepath = weights.check_path(filepath, "save the model to", save_format)
    save_format = _save_format(filepath, save_format)
    if save_format == "h5":
        try:  # (h5py's first import resets the warnings registry: the warning must follow it)
            h5_format.h5py_module("Saving as HDF5")
        except ImportError:
            pass
        warnings.warn("You are saving your model as an HDF5 file via `model.save()`. This file "
                      "format is considered legacy. We recommend using instead the native "
                      "TF-Keras format, e.g. `model.save('my_model.keras')`.", stacklevel=2)
    if save_format == "keras":
        if not weights.may_write(filepath, overwrite):
            return
        if kwargs:
            raise ValueError(f"The following argument(s) are not supported with the native "
                             f"TF-Keras format: {list(kwargs)}")
        if not filepath.endswith(".keras"):
            raise ValueError(f"Invalid `filepath` argument: expected a `.keras` extension. "
                             f"Received: filepath={filepath}")
        if not model.built:
            warnings.warn("You are saving a model that has not yet been built. It might not "
                          "contain any weights yet. Consider building the model first by "
                          "calling it on some data.", stacklevel=2)
        _save_archive(model, filepath)
        return
    unknown = set(kwargs) - {"include_optimizer", "signatures", "options", "save_traces"}
    if unknown:  # (as the legacy saver's own signature rejects them)
        raise TypeError(f"save_model() got an unexpected keyword argument "
                        f"'{sorted(unknown)[0]}'")
    _build_compiled(model)
    if save_format == "h5" or filepath.endswith((".h5", ".hdf5", ".keras")):
        if weights.may_write(filepath, overwrite):
            _save_model_to_hdf5(model, filepath, kwargs.get("include_optimizer", True))
        return
    if weights.may_write(filepath, overwrite):
        _save_saved_model(model, filepath, kwargs)


def _save_format(filepath, save_format):
    """``"keras"``, ``"h5"`` or ``"tf"``: `save_format` (by any of its names) or, without
    one, as `filepath` ends (``.keras``, ``.h5``/``.hdf5``, anything else), as tf_keras."""
    if save_format:
        found = {"keras": "keras", "keras_v3": "keras", "h5": "h5", "hdf5": "h5",
                 "tf": "tf", "tensorflow": "tf"}.get(save_format)
        if found is None:
            raise ValueError(f"Unknown `save_format` argument. Expected one of 'keras', 'tf', "
                             f"or 'h5'. Received: save_format={save_format}")
        return found
    if filepath.endswith(".keras"):
        return "keras"
    return "h5" if filepath.endswith((".h5", ".hdf5")) else "tf"


def _model_config(model, compile_config):
    """The model's config as the `.keras` archive and the SavedModel hold it: its class and
    config, how to build it and (when compiled) `compile_config`."""
    config = layers_mod.serialize(model)
    config["build_config"] = model.get_build_config()
    if compile_config is not None:
        config["compile_config"] = compile_config
    return config


def _save_saved_model(model, filepath, kwargs):
    """`save_model` to a SavedModel directory, with tf_keras's metadata of each layer."""
    from eagerflow._src.saved_model import save as saved_model  # noqa: PLC0415 (above Keras)
    optimizer = vars(model).get("optimizer")
    # As tf_keras, `include_optimizer=False` saves neither the optimizer's variables nor the
    # compile arguments: the model loads uncompiled.
    include_optimizer = kwargs.get("include_optimizer", True) or optimizer is None
    config = _model_config(model, _compile_config(model) if include_optimizer else None)
    _check_inputs_known(model)
    identifier = type(model)._saved_model_identifier[0]
    try:
        if not include_optimizer:
            object.__setattr__(model, "optimizer", None)
        config.update(_saved_model_metadata(model, config))
        metadata = json.dumps(config, default=_json_default)
        saved_model.save(model, filepath, kwargs.get("signatures"), kwargs.get("options"),
                         root_metadata=metadata, root_identifier=identifier,
                         object_metadata=lambda obj: (
                             (identifier, metadata) if obj is model else _object_metadata(obj)))
    finally:
        if not include_optimizer:
            object.__setattr__(model, "optimizer", optimizer)
    for path, obj in _asset_holders(model).items():  # (vocabularies, for load_model)
        table = getattr(getattr(obj, "lookup_table", None), "resource_handle", None)
        if table is not None and not getattr(table._data, "initialized", True):
            continue  # (never adapted: restored so, as TF restores its table)
        folder = os.path.join(filepath, _ASSETS, "keras", *path.split("/"))
        file_system.makedirs(folder)
        obj.save_assets(folder)


def _save_archive(model, filepath):
    """`save_model` to a `.keras` archive: its compile config holds the arguments `compile`
    was given (an optimizer given by name is saved by name), as tf_keras's."""
    config = _model_config(model, _archive_compile_config(model))
    tensors, metadata = weights.weights_file(model) if not keras_archive.available() else ({}, {})
    metadata_json = {"keras_version": _KERAS_VERSION,
                     "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(_METADATA, json.dumps(metadata_json))
        archive.writestr(_CONFIG, json.dumps(config, default=_json_default))
        if keras_archive.available():
            archive.writestr(keras_archive.ARCHIVE_WEIGHTS, keras_archive.weights_bytes(model))
        else:
            archive.writestr(weights.ARCHIVE_WEIGHTS,
                             safetensors_format.serialize(tensors, metadata))
        _save_assets(model, archive)
    file_system.write_atomically(filepath, buffer.getvalue())


def _check_inputs_known(model):
    """tf_keras's refusal to save as a SavedModel a model whose inputs are unknown (never
    called, nor given an `Input`): it could not trace the model's call."""
    if not isinstance(model, Model) or model.save_spec() is not None:
        return
    if type(model).__name__ == "Sequential":
        raise ValueError(f"Model {model!r} cannot be saved because the input shape is not "
                         f"available. Please specify an input shape either by calling "
                         f"`build(input_shape)` directly, or by calling the model on actual "
                         f"data using `Model()`, `Model.fit()`, or `Model.predict()`.")
    raise ValueError(f"Model {model!r} cannot be saved either because the input shape is not "
                     f"available or because the forward pass of the model is not defined.To "
                     f"define a forward pass, please override `Model.call()`. To specify an "
                     f"input shape, either call `build(input_shape)` directly, or call the "
                     f"model on actual data using `Model()`, `Model.fit()`, or "
                     f"`Model.predict()`. If you have a custom training step, please make sure "
                     f"to invoke the forward pass in train step through `Model.__call__`, i.e. "
                     f"`model(inputs)`, as opposed to `model.call()`.")


def model_to_json(model, **kwargs):
    """`model`'s class and config as JSON text; `kwargs` go to `json.dumps`."""
    config = {"class_name": type(model).__name__, "config": model.get_config(),
              "keras_version": _KERAS_VERSION, "backend": "tensorflow"}
    return json.dumps(config, default=_json_default, **kwargs)


@export("keras.models.model_from_json")
def model_from_json(json_string, custom_objects=None):
    """The model (with fresh weights) that `model_to_json` described."""
    with serialization.CustomObjectScope(custom_objects or {}):
        return layers_mod.deserialize(json.loads(json_string, object_hook=_bytes_from_json))


def _bytes_from_json(entry):
    """A JSON object made bytes where it stands for some (a vocabulary given as a string
    tensor): ``{"class_name": "__bytes__", "value": ...}`` as tf_keras writes them in `.h5`
    files, or with the value under ``"config"`` as its newer serialization writes them."""
    if entry.get("class_name") == "__bytes__":
        value = entry.get("value", (entry.get("config") or {}).get("value"))
        if isinstance(value, str):
            return value.encode("utf-8")
    return entry


@export("keras.models.model_from_yaml")
def model_from_yaml(yaml_string, custom_objects=None):
    """Removed, as in TF since 2.6 (YAML can run arbitrary code): RuntimeError."""
    raise RuntimeError("Method `model_from_yaml()` has been removed due to security risk of "
                       "arbitrary code execution. Please use `Model.to_json()` and "
                       "`model_from_json()` instead.")


def _json_default(value):
    """JSON for the values configs hold besides JSON's own: shapes and NumPy values."""
    if isinstance(value, TensorShape):
        return value.as_list() if value.rank is not None else None
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"Cannot serialize {value!r} (of type {type(value).__name__}) to JSON.")


def _compile_config(model):
    """The arguments `model` was compiled with, serialized, or None if it was not compiled
    (or a loss or metric cannot be serialized: the model then loads uncompiled)."""
    if not getattr(model, "_is_compiled", False):  # (a layer saved alone: never compiled)
        return None
    try:
        optimizer = model.optimizer
        optimizer = [optimizers.serialize(_compiled_optimizer(o)) for o in optimizer] \
            if isinstance(optimizer, (list, tuple)) else \
            optimizers.serialize(_compiled_optimizer(optimizer))
        return {"optimizer": optimizer,
                "loss": _serialize(model.compiled_loss._user_losses),
                "metrics": _serialize(model.compiled_metrics._user_metrics),
                "loss_weights": _serialize(model.compiled_loss._user_weights),
                "weighted_metrics": _serialize(model.compiled_metrics._user_weighted),
                "run_eagerly": model._run_eagerly,
                "steps_per_execution": None,
                "jit_compile": model._jit_compile}
    except (ValueError, TypeError) as e:
        _logger.warning(f"The model's compile arguments cannot be saved ({e}); the model will "
                        f"load uncompiled.")
        return None


def _archive_compile_config(model):
    """`get_compile_config` of a compiled model (None for a layer, or a model not compiled),
    or None with a warning when its arguments cannot be serialized."""
    get = getattr(model, "get_compile_config", None)
    if get is None or not getattr(model, "_is_compiled", False):
        return None
    try:
        return get()
    except (ValueError, TypeError) as e:
        _logger.warning(f"The model's compile arguments cannot be saved ({e}); the model will "
                        f"load uncompiled.")
        return None


def _compiled_optimizer(optimizer):
    """The optimizer to record as compiled: the inner one of a loss scale optimizer with
    the settings `compile` gives under a float16 policy (it wraps it again on loading), as
    tf_keras records it, so that tf_keras loads the file."""
    if isinstance(optimizer, LossScaleOptimizer):
        config = optimizer.get_config()
        if (config.get("dynamic"), config.get("initial_scale"),
                config.get("dynamic_growth_steps")) == (True, 2.0 ** 15, 2000):
            return optimizer.inner_optimizer
    return optimizer


def _serialize(value):
    """Strings (Keras's names), numbers and None as they are; containers element by element;
    functions by name, marked as functions; other objects by their config."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [_serialize(v) for v in value]
    if isinstance(value, dict):
        return {k: _serialize(v) for k, v in value.items()}
    if not hasattr(value, "get_config") and not inspect.isfunction(value):
        return {"class_name": "function", "config": serialization.get_registered_name(value)}
    return serialization.serialize_keras_object(value)


def _deserialize(value, module):
    """`_serialize` undone with `module`'s `get` and `deserialize` (inside the custom objects'
    scope, so custom functions and classes are found)."""
    if isinstance(value, list):
        return [_deserialize(v, module) for v in value]
    if isinstance(value, dict) and value.get("class_name") == "function":
        try:
            return module.get(value["config"])
        except ValueError:
            if not serialization.in_archive_loading():
                raise
            raise TypeError(f"Could not locate function {value['config']!r}. Make sure custom "
                            f"classes are decorated with "
                            f"`@keras.saving.register_keras_serializable()`. Full object "
                            f"config: {value}") from None
    if isinstance(value, dict) and "class_name" in value:
        return module.deserialize(value)
    if isinstance(value, dict):
        return {k: _deserialize(v, module) for k, v in value.items()}
    return value


@export("keras.saving.load_model", "keras.models.load_model")
def load_model(filepath, custom_objects=None, compile=True, safe_mode=True, **kwargs):
    """The model saved in the `.keras` archive or `.h5` file `filepath`, compiled unless
    `compile` is False.

    `custom_objects` maps the names of custom layers, losses and metrics to
    their classes or functions. In `safe_mode`, a `.keras` archive's Lambda
    layers holding Python bytecode are refused (`.h5` files and SavedModels
    load them, as in tf_keras). TF's SavedModel-only arguments are accepted
    and ignored.
    """
    filepath = weights.check_path(filepath, "load a model from")
    fs, local = file_system.resolve(filepath)
    if not fs.exists(local):
        raise OSError(f"No file or directory found at {filepath}")
    with serialization.model_loading():
        return _load_model(filepath, fs, local, custom_objects, compile, safe_mode)


def _load_model(filepath, fs, local, custom_objects, compile, safe_mode):
    source = filepath
    if fs.isdir(local):
        with serialization.safe_mode_scope(False):  # (as tf_keras: a Lambda's bytecode too)
            return _load_saved_model(filepath, custom_objects, compile)
    if h5_format.is_hdf5(filepath):
        return _load_model_from_hdf5(filepath, custom_objects, compile)
    if fs is not file_system.LOCAL:  # (a `.keras` archive in ram://, read into memory)
        with fs.open(local, "rb") as f:
            source = io.BytesIO(f.read())
    if not zipfile.is_zipfile(source):  # (TF reads it as HDF5 then: h5py's OSError)
        raise OSError("Unable to synchronously open file (file signature not found)")
    try:
        with zipfile.ZipFile(source) as archive:
            config = json.loads(archive.read(_CONFIG), object_hook=_bytes_from_json)
            keras_layout = keras_archive.ARCHIVE_WEIGHTS in archive.namelist()
            data = archive.read(keras_archive.ARCHIVE_WEIGHTS if keras_layout
                                else weights.ARCHIVE_WEIGHTS)
    except (zipfile.BadZipFile, KeyError, ValueError) as e:
        raise errors.DataLossError(None, None, f"Unable to load model from {filepath}: it is "
                                               f"not a complete `.keras` archive ({e}). The "
                                               f"file is truncated or corrupt.") from None
    if not keras_layout:
        tensors, metadata = safetensors_format.deserialize(data, filepath)
    with serialization.CustomObjectScope(custom_objects or {}), \
            serialization.archive_loading(), serialization.safe_mode_scope(safe_mode):
        model = _deserialize_archived_model(config)
        build_config = config.get("build_config")
        if not model.built and build_config:
            model.build_from_config(build_config)
        compile_config = config.get("compile_config")
        if compile and compile_config:
            model.compile_from_config(compile_config)  # (a model's own, when it has one)
    if keras_layout:
        keras_archive.load_weights_bytes(model, data)
    else:
        weights.restore(model, tensors, metadata)
    with zipfile.ZipFile(source) as archive:
        _load_assets(model, archive)
    return model


_ASSETS = "assets"


def _deserialize_archived_model(config):
    """The model an archive's config describes; a model class that cannot be found raises
    tf_keras's TypeError naming the class and the whole config (a layer inside it, its own)."""
    try:
        return layers_mod.deserialize(config)
    except TypeError as e:
        if str(e) != serialization.unknown_in_archive(config.get("class_name")):
            raise
    if serialization.from_module(config) is not None:  # (a class its module defines)
        return serialization.deserialize_keras_object(config)
    raise TypeError(f"Could not locate class '{config['class_name']}'. Make sure custom classes "
                    f"are decorated with `@keras.saving.register_keras_serializable()`. Full "
                    f"object config: {config}")


def _asset_holders(model):
    """``{path: object}`` of the objects with assets (a lookup layer's vocabulary), at their
    paths in Keras's walk of the model."""
    return {path: obj for path, (obj, _, optional) in keras_archive.variable_paths(model).items()
            if not optional and hasattr(obj, "save_assets")}


def _save_assets(model, archive):
    """Each object's `save_assets` files, under ``assets/<its path>/`` (as tf_keras)."""
    for path, obj in _asset_holders(model).items():
        with tempfile.TemporaryDirectory() as folder:
            obj.save_assets(folder)
            for name in sorted(os.listdir(folder)):
                archive.write(os.path.join(folder, name), f"{_ASSETS}/{path}/{name}")


def _load_assets(model, archive):
    names = archive.namelist()
    for path, obj in _asset_holders(model).items():
        prefix = f"{_ASSETS}/{path}/"
        files = [n for n in names if n.startswith(prefix) and "/" not in n[len(prefix):]]
        if not files:
            continue
        with tempfile.TemporaryDirectory() as folder:
            for name in files:
                with open(os.path.join(folder, name[len(prefix):]), "wb") as f:
                    f.write(archive.read(name))
            obj.load_assets(folder)


def _saved_model_compile_arguments(config):
    """`compile`'s arguments from a SavedModel's Keras metadata `config`, or None: from its
    ``training_config`` as tf_keras's loader takes them (a loss named there comes back as its
    function), else from the ``compile_config`` eagerflow wrote without one."""
    if config.get("training_config"):
        return compile_arguments_from_training_config(config["training_config"])
    if config.get("compile_config"):
        return _compile_arguments(config["compile_config"])
    return None


def _load_saved_model(path, custom_objects, compile):
    """The model of a SavedModel directory that `save_model` (or tf_keras's ``model.save``)
    wrote: rebuilt from the config recorded with it, its weights restored from the
    SavedModel's checkpoint."""
    from eagerflow._src.checkpoint import checkpoint  # noqa: PLC0415
    from eagerflow._src.core.module import Module  # noqa: PLC0415
    from eagerflow._src.core.protos import saved_model as pb  # noqa: PLC0415
    from eagerflow._src.saved_model import load as saved_model  # noqa: PLC0415 (above Keras)
    proto = saved_model.read_saved_model(path)
    nodes = proto.meta_graphs[0].object_graph_def.nodes if proto.meta_graphs else ()
    metadata = nodes[0].user_object.metadata if nodes else ""
    keras_metadata = os.path.join(path, "keras_metadata.pb")
    if not metadata and file_system.isfile(keras_metadata):  # tf_keras's
        with file_system.open_file(keras_metadata, "rb") as f:
            found = pb.KerasSavedMetadata.FromString(f.read())
        metadata = next((n.metadata for n in found.nodes if n.node_path == "root"), "")
    if not metadata:
        raise ValueError(f"Unable to create a TF-Keras model from SavedModel at {path}. This "
                         f"SavedModel was exported with `tf.saved_model.save`, and lacks the "
                         f"TF-Keras metadata file. Please save your TF-Keras model by calling "
                         f"`model.save` or `tf.keras.models.save_model`. Note that you can "
                         f"still load this SavedModel with `tf.saved_model.load`.")
    config = _vocabulary_files_from_tables(_tuples(json.loads(metadata)))
    with serialization.CustomObjectScope(custom_objects or {}):
        try:
            model = layers_mod.deserialize({"class_name": config["class_name"],
                                            "config": config["config"]})
        except (ValueError, TypeError):  # a class not known here: revived from its saved
            # functions (a functional model naming one raises TypeError, as tf_keras)
            model = _revive(path, nodes, config)
            if model is None:
                raise
            model = _revived_network(model, config)
            arguments = _saved_model_compile_arguments(config) if compile else None
            if compile and arguments is not None:
                model.compile(**arguments)
            elif compile:
                _logger.warning(_NOT_COMPILED)
            _set_versions(model, proto)
            return model
        shape = (config.get("build_config") or {}).get("input_shape") or \
            config.get("build_input_shape")
        # (as tf_keras's loader, not for a dict of inputs: such models' layers, feature
        # columns' say, may take no float placeholders; they build when called)
        if not model.built and shape and not isinstance(shape, dict):
            model.build(_tuples(shape))
        arguments = _saved_model_compile_arguments(config) if compile else None
    # As tf_keras: the saved optimizer is revived as a `RestoredOptimizer` holding its
    # variables, which compiling replaces with a new optimizer (so it starts anew)
    extra = [("optimizer", Module())]
    restoration = checkpoint.restore_objects(
        model, extra, os.path.join(path, saved_model.VARIABLES_DIRECTORY,
                                   saved_model.VARIABLES_FILENAME))
    if compile and arguments is not None:
        with serialization.CustomObjectScope(custom_objects or {}):
            model.compile(**arguments)
            model.compiled_metrics.from_serialized = True  # (named as saved)
            _build_compiled(model)
        if isinstance(model.optimizer, OptimizerV2) and model.optimizer.get_slot_names():
            _logger.warning("Your optimizer uses slots. Slots cannot be restored from "
                            "saved_model, as a result, your model is starting with  a new "
                            "initialized optimizer.")
    else:
        if compile:
            _logger.warning(_NOT_COMPILED)
        found = next((r.node_id for r in nodes[0].children if r.local_name == "optimizer"),
                     None)
        if found is not None and nodes[found].user_object.identifier == \
                Optimizer._saved_model_identifier[0]:
            model.optimizer = RestoredOptimizer.from_checkpoint(
                restoration.proto, restoration.reader, found)
        elif found is not None and nodes[found].user_object.identifier == \
                OptimizerV2._saved_model_identifier[0]:
            model.optimizer = legacy.RestoredOptimizer.from_checkpoint(restoration, found)
    for asset_path, obj in _asset_holders(model).items():
        folder = os.path.join(path, _ASSETS, "keras", *asset_path.split("/"))
        if file_system.isdir(folder):
            obj.load_assets(folder)
    _restore_tables(model, path, nodes)
    h5_format.finalize_layers(model)  # state derived from weights (an adapted Discretization)
    # as tf_keras's loaded model: the SavedModel's signatures, on the model's variables
    model.signatures = _LoadedSignatures(path, nodes, restoration)
    _set_versions(model, proto)
    return model


_NOT_COMPILED = ("No training configuration found in save file, so the model was *not* "
                 "compiled. Compile it manually.")


def _set_versions(model, proto):
    """The TF versions a loaded SavedModel records, on the model as tf_keras sets them."""
    info = proto.meta_graphs[0].meta_info_def if proto.meta_graphs else None
    model.tensorflow_version = info.tensorflow_version if info else ""
    model.tensorflow_git_version = info.tensorflow_git_version if info else ""


class _LoadedSignatures(collections.abc.Mapping):
    """The ``signatures`` of a Keras model loaded from a SavedModel: name -> concrete
    function returning a dict, as `tf.saved_model.load` gives them, running on the model's
    own variables (read from the SavedModel when first used)."""

    def __init__(self, path, nodes, restoration):
        self._path = path
        self._variables = {}  # SavedModel node id -> the model's variable restored from it
        for i, node in enumerate(nodes):
            found = restoration.object(i) if node.WhichOneof("kind") == "variable" else None
            if isinstance(found, Variable) and \
                    found.dtype.as_datatype_enum == node.variable.dtype:
                self._variables[i] = found
        self._signatures = None

    def _loaded(self):
        if self._signatures is None:
            from eagerflow._src.saved_model import load as saved_model  # noqa: PLC0415
            root = saved_model.load_nodes(self._path, self._variables)[0]
            self._signatures = dict(getattr(root, "signatures", None) or {})
            self._variables = None
        return self._signatures

    def __getitem__(self, key):
        return self._loaded()[key]

    def __iter__(self):
        return iter(self._loaded())

    def __len__(self):
        return len(self._loaded())

    def __repr__(self):
        return f"_SignatureMap({self._loaded()})"


def _revived_network(model, config):
    """A functional model naming a class not known here, as tf_keras revives one: its graph
    rebuilt from the config around the layers `model` (its revived form) holds, so it has
    its inputs, outputs and input layers; `model` itself if the config is not a graph's."""
    inner = config.get("config")
    if config.get("class_name") not in ("Functional", "Model") or not isinstance(inner, dict) \
            or not all(k in inner for k in ("layers", "input_layers", "output_layers")):
        return model
    created = {layer.name: layer for layer in model.layers}
    try:
        network = Functional.from_config(inner, _created_layers=created)
    except (ValueError, TypeError, KeyError):  # (a graph the revived layers cannot rebuild)
        return model
    network._name = model.name
    return network


def _revive(path, nodes, root_config):
    """The model of a SavedModel whose class is not known here (a subclassed model saved
    without its class), as tf_keras revives one: see `saved_model_functions.revive`."""
    from eagerflow._src.core.protos import saved_model as pb  # noqa: PLC0415
    metadata = {}
    keras_metadata = os.path.join(path, "keras_metadata.pb")
    if file_system.isfile(keras_metadata):
        with file_system.open_file(keras_metadata, "rb") as f:
            for node in pb.KerasSavedMetadata.FromString(f.read()).nodes:
                metadata[node.node_id] = (node.identifier, _tuples(json.loads(node.metadata)))
    metadata[0] = (nodes[0].user_object.identifier, root_config)

    def rebuild(config, scope):
        layer = layers_mod.deserialize({"class_name": config["class_name"],
                                        "config": config["config"]})
        shape = _shape_from_json(config.get("build_input_shape"))
        if not layer.built and shape:
            with context.name_scope_push(scope):  # (its weights named as they were saved)
                layer.build(shape)
        return layer

    return saved_model_functions.revive(path, nodes, metadata, rebuild, Model, Layer)


def _shape_from_json(value):
    """A build input shape from its JSON (`_shape_json`'s): ``TensorShape`` objects as
    tuples, nested shapes element by element."""
    if isinstance(value, dict) and value.get("class_name") == "TensorShape":
        items = value.get("items")
        return None if items is None else tuple(items)
    if isinstance(value, dict):
        return {k: _shape_from_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_shape_from_json(v) for v in value)
    return value


_VOCABULARY_LAYERS = ("StringLookup", "IntegerLookup", "TextVectorization")


def _vocabulary_files_from_tables(config):
    """`config` with its lookup layers' vocabulary files dropped (as tf_keras's SavedModel
    records them): their tables come from the SavedModel, whose assets hold the files, so a
    model loads after the original files are gone."""
    if isinstance(config, list):
        return [_vocabulary_files_from_tables(c) for c in config]
    if not isinstance(config, dict):
        return config
    inner = config.get("config")
    if config.get("class_name") in _VOCABULARY_LAYERS and isinstance(inner, dict) and \
            isinstance(inner.get("vocabulary"), str):
        return {**config, "config": {**inner, "vocabulary": None,
                                     "has_input_vocabulary": True}}
    return {k: _vocabulary_files_from_tables(v) for k, v in config.items()}


def _restore_tables(model, path, nodes):
    """Fills the empty lookup tables of `model`'s layers (an adapted vocabulary tf_keras
    records in neither config nor checkpoint) from the SavedModel's tables, found by path."""
    from eagerflow._src.checkpoint import trackable  # noqa: PLC0415
    from eagerflow._src.saved_model import load as saved_model  # noqa: PLC0415 (above Keras)
    wanted = []
    seen, queue = {id(model)}, [((), model)]
    while queue:
        names, obj = queue.pop(0)
        table = getattr(obj, "lookup_table", None)
        if table is not None and hasattr(table, "resource_handle") and \
                not table.resource_handle._data.entries:
            wanted.append((names + ("lookup_table",), table))
        for name, child in trackable.children(obj):
            if id(child) not in seen:
                seen.add(id(child))
                queue.append((names + (name,), child))
    if not wanted or not any(n.WhichOneof("kind") == "resource" for n in nodes):
        return
    loaded = saved_model.load(path)
    for names, table in wanted:
        found = loaded
        for name in names:
            found = found[int(name)] if isinstance(found, list) and name.isdigit() else \
                getattr(found, name, None)
            if found is None:
                break
        handle = getattr(found, "resource_handle", None)
        if handle is not None and hasattr(handle._data, "entries"):
            table.resource_handle._data.entries = dict(handle._data.entries)
            table.resource_handle._data.initialized = handle._data.initialized


def _tuples(value):
    """`value` (JSON) with tf_keras's tuples (``{"class_name": "__tuple__", "items": [...]}``)
    made tuples, at any depth."""
    if isinstance(value, dict):
        if value.get("class_name") == "__tuple__":
            return tuple(_tuples(v) for v in value["items"])
        if value.get("class_name") == "TensorShape" and set(value) == {"class_name", "items"}:
            # (a build input shape, as tf_keras's JSON writes a `TensorShape`)
            return None if value["items"] is None else tuple(value["items"])
        return {k: _tuples(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_tuples(v) for v in value]
    return value


def _compile_arguments(config):
    """`model.compile`'s keyword arguments from a saved compile config."""
    arguments = dict(config)
    optimizer = config["optimizer"]
    # (a list: one optimizer per part of a model, as `WideDeepModel` is compiled)
    arguments["optimizer"] = [_optimizer(o) for o in optimizer] \
        if isinstance(optimizer, list) else _optimizer(optimizer)
    arguments["loss"] = _deserialize(config["loss"], losses_mod)
    arguments["metrics"] = _deserialize(config["metrics"], metrics_mod)
    arguments["weighted_metrics"] = _deserialize(config["weighted_metrics"], metrics_mod)
    return arguments


def _optimizer(config):
    if isinstance(config, str):  # as tf_keras's archives hold the optimizers given by name
        config = optimizers.get(config)
    return config if isinstance(config, Optimizer) else optimizers.deserialize(config)


def compile_arguments_from_training_config(config):
    """`model.compile`'s keyword arguments from the ``training_config`` of an `.h5` file.

    tf_keras saves metrics as the configs of their wrappers, nested per output; a
    wrapper of a function is given back by its name."""
    optimizer = config["optimizer_config"]
    if isinstance(optimizer, dict) and optimizer.get("class_name", "").startswith("Custom>"):
        try:  # a registered custom optimizer keeps its name; Keras's own lose the prefix
            optimizer = optimizers.deserialize(optimizer)
        except ValueError:
            optimizer = dict(optimizer, class_name=optimizer["class_name"][len("Custom>"):])
    return _compile_arguments({
        "optimizer": optimizer, "loss": _legacy_loss(_custom(config.get("loss"))),
        "metrics": _plain_metrics(config.get("metrics")),
        "weighted_metrics": _plain_metrics(config.get("weighted_metrics")),
        "loss_weights": config.get("loss_weights")})


def _legacy_loss(value):
    """tf_keras's legacy loaders give a loss named in the training_config back as its
    function (``'mse'``: ``mean_squared_error``), nested per output."""
    if isinstance(value, str):  # (an unknown name: TF's ValueError)
        return losses_mod.deserialize(value)
    if isinstance(value, list):
        return [_legacy_loss(v) for v in value]
    if isinstance(value, dict) and "class_name" not in value:
        return {k: _legacy_loss(v) for k, v in value.items()}
    return value


def _custom(value):
    """`value` with the names of custom objects (in scope or registered) replaced by the
    objects, which `compile` would not find outside `load_model`'s custom objects scope."""
    if isinstance(value, str):
        return serialization.get_registered_object(value) or value
    if isinstance(value, list):
        return [_custom(v) for v in value]
    if isinstance(value, dict) and "class_name" not in value:
        return {k: _custom(v) for k, v in value.items()}
    return value


def _plain_metrics(value):
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list):
        value = value[0]  # one output's list
    if isinstance(value, list):
        return [_plain_metrics(v) for v in value]
    if isinstance(value, dict) and value.get("class_name") == "MeanMetricWrapper":
        config = value["config"]
        custom = serialization.get_registered_object(config.get("fn", ""))
        if custom is None and (not _metric_name_known(config.get("name")) or
                               config.get("name") in _RESOLVED_BY_SHAPE):
            # (a multi-output model's metric, named after its output: `cls_accuracy`; an
            # 'accuracy' keeps the function it was resolved to, which the outputs alone,
            # taken as labels, may not tell: sparse labels of a last axis of 1)
            return metrics_mod.deserialize(value)
        return custom or config.get("name")
    return _custom(value)


_RESOLVED_BY_SHAPE = ("accuracy", "acc", "crossentropy", "ce")


def _metric_name_known(name):
    """Whether `compile` resolves the metric `name` (``accuracy`` by the outputs' shape)."""
    if name in _RESOLVED_BY_SHAPE:
        return True
    try:
        found = metrics_mod.get(name)
    except (ValueError, TypeError):
        return False
    return not isinstance(found, str)  # (a name it does not know stands for itself)


def _training_config(model):
    """tf_keras's ``training_config`` of a compiled model (its compile arguments), as its
    legacy serialization writes it (`.h5` files, SavedModel metadata), or None.

    The optimizer is the model's own: a loss scale optimizer stays one (by its registered
    name, its inner optimizer in the newer serialization, as `get_config` gives it)."""
    compile_config = _compile_config(model)
    if compile_config is None:
        return None
    training_config = {key: compile_config[key] for key in
                       ("loss", "metrics", "weighted_metrics", "loss_weights")}
    optimizer = compile_config["optimizer"]
    if isinstance(optimizer, dict) and optimizer.get("class_name") == \
            type(model.optimizer).__name__:  # (by its registered name: 'Custom>Adam')
        optimizer = dict(optimizer, class_name=serialization.get_registered_name(
            type(model.optimizer)))
    training_config["optimizer_config"] = optimizer
    # the metrics as built by training, each output's (as tf_keras records them once built:
    # its loader then gives them their names, 'mae' rather than 'mean_absolute_error')
    container = model.compiled_metrics
    if getattr(container, "_outputs", None) is not None:
        for key, built in (("metrics", container._metrics),
                           ("weighted_metrics", container._weighted)):
            if training_config[key] is not None:
                training_config[key] = [[metrics_mod.serialize(m) for m in group
                                         if m is not None] for group in built]
    training_config = _legacy_serialization(training_config)
    if isinstance(model.optimizer, LossScaleOptimizer):
        training_config["optimizer_config"] = {
            "class_name": serialization.get_registered_name(type(model.optimizer)),
            "config": model.optimizer.get_config()}
    return training_config


def _saved_model_metadata(layer, config=None):
    """What tf_keras records of a layer or model in a SavedModel (beside its class name and
    config): the attributes its loader sets on the layer it rebuilds from the config, and
    the input shape to build it with."""
    # (tf_keras's legacy serialization: its loader finds a registered class by its name)
    config = _legacy_serialization(config or layers_mod.serialize(layer))
    policy = getattr(layer, "dtype_policy", None)
    out = {"name": layer.name, "trainable": layer.trainable,
           "expects_training_arg": "training" in inspect.signature(layer.call).parameters,
           "dtype": getattr(policy, "name", None) or layer.dtype,
           "batch_input_shape": config["config"].get("batch_input_shape"),
           "stateful": bool(getattr(layer, "stateful", False)),
           "must_restore_from_config": False, "preserve_input_structure_in_config": False,
           "autocast": True, "class_name": config["class_name"], "config": config["config"],
           "build_input_shape": _shape_json(layer._build_input_shape)}
    if isinstance(layer, Model):
        out["is_graph_network"] = isinstance(layer, Functional)
        out.update(keras_version=_KERAS_VERSION, backend="tensorflow",
                   model_config={"class_name": config["class_name"], "config": config["config"]})
        if getattr(layer, "optimizer", None) is not None:
            training_config = _training_config(layer)
            if training_config is not None:  # (read by tf_keras's legacy deserialization)
                out["training_config"] = training_config
    return out


def _shape_json(shape):
    """A build input shape as tf_keras's JSON writes it: a shape as its ``TensorShape``
    object (a plain list would read as a list of shapes), nested shapes element by element."""
    if shape is None:
        return None
    if isinstance(shape, TensorShape):
        return {"class_name": "TensorShape",
                "items": shape.as_list() if shape.rank is not None else None}
    if isinstance(shape, dict):
        return {key: _shape_json(value) for key, value in shape.items()}
    if isinstance(shape, (list, tuple)):
        if all(d is None or isinstance(d, (int, np.integer)) for d in shape):
            return {"class_name": "TensorShape", "items": [None if d is None else int(d)
                                                           for d in shape]}
        return [_shape_json(s) for s in shape]
    return shape


def _object_metadata(obj):
    """``(identifier, metadata JSON)`` of a Keras layer or model inside a SavedModel, as
    tf_keras's ``keras_metadata.pb`` holds them; None for other objects."""
    if isinstance(obj, Metric) or not isinstance(obj, Layer):
        return None
    return (type(obj)._saved_model_identifier[0],
            json.dumps(_saved_model_metadata(obj), default=_json_default))


def _save_model_to_hdf5(model, filepath, include_optimizer):
    """`save_model` to an `.h5` file: the compile arguments as tf_keras's ``training_config``."""
    h5_format.check_savable(model)
    training_config = None
    if include_optimizer and isinstance(getattr(model, "optimizer", None), TFOptimizer):
        _logger.warning(
            "TensorFlow optimizers do not make it possible to access optimizer attributes or "
            "optimizer state after instantiation. As a result, we cannot save the optimizer as "
            "part of the model save file. You will have to compile your model again after "
            "loading it. Prefer using a TF-Keras optimizer instead (see keras.io/optimizers).")
    elif include_optimizer and isinstance(getattr(model, "optimizer", None), Optimizer):
        training_config = _training_config(model)
        if training_config is not None:
            training_config = json.dumps(_legacy_serialization(training_config),
                                         default=_json_default)
    model_config = json.dumps(_legacy_model_config(json.loads(model_to_json(model))))
    h5_format.save_model_to_hdf5(model, filepath, model_config, training_config)


def _legacy_model_config(config):
    """A model's `to_json` config as tf_keras's `.h5` files hold it: its class and config
    only, and each layer of a model (nested models too) by its legacy serialization (its
    registered name, without module or build config); what the layers' configs hold (an
    initializer's module, a wrapped layer) as they give it, but functions by name."""
    out = {"class_name": config["class_name"], "config": config["config"]}
    layers = out["config"].get("layers") if isinstance(out["config"], dict) else None
    if isinstance(layers, list):
        out["config"] = dict(out["config"], layers=[_legacy_layer(e) for e in layers])
    return _functions_by_name(out)


def _legacy_layer(entry):
    if not isinstance(entry, dict) or "class_name" not in entry:
        return entry
    registered = entry.get("registered_name")
    out = {k: v for k, v in entry.items()
           if k not in ("module", "registered_name", "build_config", "compile_config")}
    if isinstance(registered, str) and registered != out["class_name"]:
        out["class_name"] = registered
    return _legacy_model_config(out) | {k: v for k, v in out.items()
                                        if k not in ("class_name", "config")}


def _functions_by_name(value):
    """`value` with each serialized function replaced by its registered name (tf_keras's
    loaders of `.h5` files find a function only so), and bytes written as tf_keras's `.h5`
    files hold them (``{"class_name": "__bytes__", "value": ...}``)."""
    if isinstance(value, list):
        return [_functions_by_name(v) for v in value]
    if not isinstance(value, dict):
        return value
    if value.get("class_name") == "function" and isinstance(value.get("config"), str):
        return value["config"]
    if value.get("class_name") == "__bytes__" and isinstance(value.get("config"), dict):
        return {"class_name": "__bytes__", "value": value["config"].get("value")}
    return {k: _functions_by_name(v) for k, v in value.items()}


def _legacy_serialization(value):
    """A config as tf_keras's legacy serialization writes it (its `.h5` files): an object
    by its registered name (``"MyPkg>Scale"`` for a registered custom layer), without the
    ``module`` and ``registered_name`` its newer serialization adds (tf_keras's `.h5`
    loader finds a registered class only by that name). A LossScaleOptimizer's inner
    optimizer stays as its `get_config` gives it, with its module, as tf_keras writes it."""
    if isinstance(value, list):
        return [_legacy_serialization(v) for v in value]
    if not isinstance(value, dict) or value.get("class_name") == "__typespec__":
        return value  # (a spec: as the newer serialization writes it)
    out = {k: v if k == "inner_optimizer" else _legacy_serialization(v)
           for k, v in value.items()}
    if out.get("class_name") == "function" and isinstance(out.get("config"), str):
        registered = out.get("registered_name")  # (a function: by its name)
        return registered if isinstance(registered, str) and registered != "function" \
            else out["config"]
    if "class_name" in out and "config" in out and "module" in out:
        registered = out.pop("registered_name", None)
        out.pop("module")
        if isinstance(registered, str) and registered != out["class_name"]:
            out["class_name"] = registered
    return out


def _load_model_from_hdf5(filepath, custom_objects, compile):
    """`load_model` of an `.h5` file (written here or by tf_keras)."""
    with h5_format.open_h5(filepath, "Loading a model from HDF5 (`.h5`)") as f:
        model_config, training_config = h5_format.model_configs(f, filepath)
        with serialization.safe_mode_scope(False), serialization.hdf5_loading():
            # (as tf_keras: a Lambda's bytecode too)
            model = model_from_json(model_config, custom_objects)
        h5_format.load_weights_from_hdf5_group(f["model_weights"], model)
        if not compile:
            return model
        if training_config is None:
            _logger.warning("No training configuration found in the save file, so the model "
                            "was *not* compiled. Compile it manually.")
            return model
        with serialization.CustomObjectScope(custom_objects or {}):
            model.compile(**compile_arguments_from_training_config(json.loads(training_config)))
            model.compiled_metrics.from_serialized = True  # (named as saved)
            _build_compiled(model)
        h5_format.load_optimizer_weights(f, model)
    return model


def _build_compiled(model):
    """tf_keras's legacy savers and loaders (`.h5`, SavedModel) build a functional model's
    compiled loss and metrics on its outputs: saved, the metrics' names hold their outputs'
    (``cls_accuracy``); loaded, `metrics_names` lists them at once. Where they cannot be
    built (an uncompiled model), tf_keras's warning; a metric whose name only a step
    resolves is left to the first step."""
    if getattr(model, "outputs", None) is None:
        return
    if not getattr(model, "_is_compiled", True) or model.compiled_loss is None:
        _logger.warning("Compiled the loaded model, but the compiled metrics have yet to be "
                        "built. `model.compile_metrics` will be empty until you train or "
                        "evaluate the model.")
        return
    outputs = model.outputs
    try:
        if model.compiled_loss._outputs is None:
            model.compiled_loss.build(outputs)
        if model.compiled_metrics._outputs is None:
            model.compiled_metrics.build(outputs, outputs)
    except (ValueError, TypeError):
        model.compiled_loss._outputs = model.compiled_metrics._outputs = None
