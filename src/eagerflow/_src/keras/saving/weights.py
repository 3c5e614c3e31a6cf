"""`save_weights` / `load_weights`: a model's variables under TensorFlow's checkpoint keys.

Each variable is keyed by the path TF's object-based checkpoints give it:
the attribute (or list index, or dict key) names from the model down to the
variable, found breadth first, plus ``/.ATTRIBUTES/VARIABLE_VALUE``. The
layers of a functional or `Sequential` model are ``layer_with_weights-<i>``
(counting the layers that have weights), a weight created by `add_weight`
is named by its ``name``, and the optimizer's state is under ``optimizer/``.
The values go to a TF checkpoint (``path.index`` and
``path.data-00000-of-00001`` with the model as the object graph's root, and
the directory's ``checkpoint`` file), which TF's `load_weights` reads too; a
path ending in ``.safetensors`` gets one safetensors file instead. Both are
written atomically. Loading checks every key, shape and dtype first and
assigns only when all match.

>>> import os, tempfile
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
>>> sorted(checkpoint_keys(model))
['layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE', \
'layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE']
>>> path = os.path.join(tempfile.mkdtemp(), "ckpt")
>>> save_weights(model, path)
>>> status = load_weights(model, path)
"""
import collections
import contextlib
import json
import os
import re
import weakref
import zipfile

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.checkpoint import bundle, checkpoint, management, trackable
from eagerflow._src.core import context, errors
from eagerflow._src.core.protos import checkpoint as pb
from eagerflow._src.core.module import leaves
from eagerflow._src.core.variables import Variable
from eagerflow._src.keras import backend
from eagerflow._src.keras.engine import base_layer
from eagerflow._src.keras.optimizers.legacy import OptimizerV2
from eagerflow._src.keras.optimizers.optimizer import Optimizer
from eagerflow._src.keras.optimizers.optimizer_v1 import TFOptimizer
from eagerflow._src.keras.saving import h5_format, keras_archive, safetensors_format
from eagerflow._src.keras.utils.io_utils import print_msg
from eagerflow._src.ops import file_system

_logger = _log.logger
_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
_OPTIMIZER = "optimizer/"
# The name TF gives a variable created without one: such a variable is
# tracked by the attribute holding it, not by its name.
_DEFAULT_NAME = re.compile(r"Variable(_\d+)?")
ARCHIVE_WEIGHTS = "model.weights.safetensors"  # the weights inside a `.keras` archive


def checkpoint_keys(root):
    """``{key: variable}`` for every variable reachable from `root`, keyed as TF keys it.

    The first path found breadth first names a variable, as in TF, so a
    layer shared by two attributes is saved once, under the shorter path.
    """
    found = {}
    seen = {id(root)}
    queue = collections.deque([("", root)])
    while queue:
        prefix, obj = queue.popleft()
        for name, child in _children(obj):
            if id(child) in seen:
                continue
            seen.add(id(child))
            path = prefix + name.replace(".", "..").replace("/", ".S")  # TF's escaping
            if not isinstance(child, Variable):
                queue.append((path + "/", child))
            elif path + _SUFFIX in found:
                raise ValueError(f"Cannot save weights: variables {found[path + _SUFFIX].name} "
                                 f"and {child.name} would both be saved as {path}. Give the "
                                 f"weights of a layer distinct names (`add_weight(name=...)`).")
            else:
                found[path + _SUFFIX] = child
    return found


def _children(obj):
    """``(name, object)`` pairs of what `obj` tracks, in TF's order."""
    return [(name, child) for name, child in trackable.children(obj) if _tracks(child)]


def _tracks(value):
    """Whether `value` is, or holds, something a checkpoint saves."""
    return any(isinstance(leaf, (Variable, base_layer.Layer, Optimizer))
               for leaf in leaves(value))


def _local_name(variable):
    """``kernel`` for ``dense/kernel:0``: the name `add_weight` was given."""
    return variable.name.rpartition(":")[0].rpartition("/")[2]


def _layer_index(model, keys_by_variable):
    """``[[layer name, [keys of its weights in `weights` order]], ...]`` for `by_name` loading."""
    found = []
    for layer in getattr(model, "layers", []):
        variables = [w for w in layer.weights if isinstance(w, Variable)]
        if variables:
            found.append([layer.name, [keys_by_variable[id(w)] for w in variables]])
    return found


def weights_file(model):
    """``(tensors, metadata)``: what `save_weights` writes for `model`."""
    keys = checkpoint_keys(model)
    by_variable = {id(v): k for k, v in keys.items()}
    tensors = {key: variable.numpy() for key, variable in keys.items()}
    return tensors, {"layers": json.dumps(_layer_index(model, by_variable))}


def check_path(filepath, what, save_format=None):
    """`filepath` as a string."""
    return os.fspath(filepath)


def hdf5_kind(filepath, save_format=None):
    """``"weights.h5"`` (Keras's layout), ``"h5"`` (tf_keras's legacy layout) or None, by
    `filepath`'s suffix or `save_format`."""
    if filepath.endswith(".weights.h5"):
        return "weights.h5"
    if save_format in ("h5", "hdf5") or filepath.endswith((".h5", ".hdf5")):
        return "h5"
    return None


def may_write(filepath, overwrite):
    """Whether to write `filepath`: yes unless it exists and the user declines overwriting it."""
    if overwrite or not file_system.exists(filepath):
        return True
    answer = input(f"[WARNING] {filepath} already exists - overwrite? [y/n]").strip().lower()
    while answer not in ("y", "n"):
        answer = input('Enter "y" (overwrite) or "n" (cancel).').strip().lower()
    if answer == "n":
        return False
    print_msg("[TIP] Next time specify overwrite=True!")
    return True


def save_weights(model, filepath, overwrite=True, save_format=None, options=None):
    """Writes the values of `model`'s variables (and its optimizer's) under `filepath`.

    A TF checkpoint with that prefix (and the directory's ``checkpoint`` file,
    so that `tf.train.latest_checkpoint` finds it); an HDF5 file for a path
    ending in ``.h5``, ``.hdf5`` or ``.keras`` (or `save_format="h5"`), in
    Keras's layout for ``.weights.h5``, else tf_keras's legacy one; or a
    safetensors file for a path ending in ``.safetensors``. `load_weights`
    reads each back. `options` is accepted for compatibility and ignored.
    """
    filepath = check_path(filepath, "save weights to", save_format)
    kind = _weights_format(filepath, save_format)
    if kind != "tf":
        if may_write(filepath, overwrite):
            (keras_archive.save_weights if kind == "weights.h5"
             else h5_format.save_weights_to_hdf5)(model, filepath)
        return
    tf_format = _is_tf_format(filepath)
    if may_write(bundle.index_path(filepath) if tf_format else filepath, overwrite):
        # As TF's checkpoint writer: missing directories of the prefix are created.
        file_system.makedirs(file_system.dirname(filepath) or ".")
        if tf_format:
            with _keras_session_values(model):
                checkpoint.save_objects(model, [], filepath)
            management.update_checkpoint_state(file_system.dirname(filepath), filepath,
                                               [filepath])
        else:
            tensors, metadata = weights_file(model)
            safetensors_format.save_file(tensors, filepath, metadata)


def _keras_session(model):
    """The Keras session (which initializes them) where `model`'s variables are those of a
    TF 1 graph (or will be: a model not built yet in TF 1's graph mode), as tf_keras saves
    and restores them there; else None."""
    if not (any(trackable.in_session(v) for v in model.weights) if model.built
            else backend.building_v1_graph()):
        return None
    from eagerflow._src.compat import session  # noqa: PLC0415 (a peer of keras)
    return session.get_session()


def _keras_session_values(model):
    """A context in which `model`'s variables have their values in its Keras session."""
    keras_session = _keras_session(model)
    return contextlib.nullcontext() if keras_session is None else \
        trackable.session_scope(keras_session)


def _weights_format(filepath, save_format):
    """How `save_weights` writes `filepath`, as tf_keras chooses: ``"weights.h5"`` (Keras's
    layout) for a path ending in ``.weights.h5`` whatever `save_format` says, else ``"h5"``
    (the legacy layout) or ``"tf"`` (a checkpoint) by `save_format`, or by the path's
    suffix (``.h5``, ``.hdf5`` and ``.keras`` are HDF5)."""
    if filepath.endswith(".weights.h5"):
        return "weights.h5"
    is_h5 = filepath.endswith((".h5", ".hdf5", ".keras"))
    if save_format is None:
        return "h5" if is_h5 else "tf"
    kind = {"tf": "tf", "tensorflow": "tf", "h5": "h5", "hdf5": "h5",
            "keras": "h5"}.get(save_format.lower().strip())
    if kind is None:
        raise ValueError(f'Unknown format. Received: `save_format`={save_format}. Was '
                         f'expecting one of {{"tf", "h5"}}.')
    if kind == "tf" and is_h5:
        raise ValueError(f'save_weights got save_format="tf"/"tensorflow", but the filepath '
                         f'({filepath}) looks like an HDF5 file. Omit the ".h5"/".keras" when '
                         f'saving in TensorFlow format.')
    return kind


def _is_tf_format(filepath):
    return not filepath.endswith((".safetensors", ".keras"))


class CheckpointLoadStatus:
    """What `load_weights` returns, as TF's checkpoint load status: everything the model
    has was restored (or loading raised, or waits for the model's variables); saved values
    not used (yet) are `unused`."""

    def __init__(self, unused, object_graph=None, unbound=(), matched=None):
        self._unused = unused  # a set that a deferred restoration empties as it goes
        self._object_graph = object_graph  # (a TF checkpoint's serialized object graph)
        self._unbound = list(unbound)  # the model's variables a partial restore left alone
        self._matched = matched  # (how many values a partial restore assigned)
        self._warning = None  # (the finalizer logging values not restored)

    @property
    def unused(self):
        return sorted(self._unused)

    def _assert_bound(self):
        if self._unbound:
            n, shown = len(self._unbound), self._unbound[:10]
            raise AssertionError(f"Found {n} Python objects that were not bound to checkpointed "
                                 f"values, likely due to changes in the Python program. Showing "
                                 f"{len(shown)} of {n} unmatched objects: {shown}")

    def assert_consumed(self):
        self._assert_bound()
        if self.unused and self._object_graph is not None:
            # As TF: the first node of the checkpoint's object graph holding a value not
            # restored, named by its path and printed as the proto
            proto, missing = _unused_nodes(self._object_graph, self._unused)
            if missing:
                raise AssertionError(f"Unresolved object in checkpoint "
                                     f"{trackable.node_names(proto)[missing[0]]}: "
                                     f"{proto.nodes[missing[0]]}")
        if self.unused:
            raise AssertionError(f"Unresolved values in the checkpoint: {self.unused}")
        return self

    def assert_existing_objects_matched(self):
        self._assert_bound()
        return self

    def assert_nontrivial_match(self):
        """Raises TF's AssertionError where a TF checkpoint matched none of the model's
        variables (it holds another program's objects)."""
        if self._matched == 0 and self._unbound:
            raise AssertionError(f"Nothing except the root object matched a checkpointed "
                                 f"value. Typically this means that the checkpoint does not "
                                 f"match the Python program. The following objects have no "
                                 f"matching checkpointed value: {self._unbound}")
        return self

    def expect_partial(self):
        """Silences the warnings about values not restored."""
        if self._warning is not None:
            self._warning.detach()
        return self

    def run_restore_ops(self, session=None):
        """Nothing to run: values are assigned when loading."""

    def initialize_or_restore(self, session=None):
        """Nothing to run: values are assigned when loading."""


def load_weights(model, filepath, skip_mismatch=False, by_name=False, options=None):
    """Assigns the values in `filepath` (from `save_weights`, or a `.keras` archive) to `model`.

    By default every variable of the model must be in the file with the same
    shape and dtype (a ValueError otherwise, before anything is assigned), except
    that a TF checkpoint restores the variables it has (the status tells the rest);
    the optimizer's state is restored when the file has it and it fits.
    With `by_name`, layers take the weights saved by the layer of the same
    name, and `skip_mismatch` skips (with a warning) those that do not fit.
    """
    filepath = check_path(filepath, "load weights from")
    # (Keras's layouts first: there `by_name` is ignored and `skip_mismatch` skips any layer
    # whose weights do not fit, as in tf_keras)
    if filepath.endswith(".weights.h5"):
        return keras_archive.load_weights(model, filepath, skip_mismatch)
    if filepath.endswith(".keras") and zipfile.is_zipfile(filepath):
        with zipfile.ZipFile(filepath) as archive:
            if keras_archive.ARCHIVE_WEIGHTS in archive.namelist():
                data = archive.read(keras_archive.ARCHIVE_WEIGHTS)
                return keras_archive.load_weights_bytes(model, data, skip_mismatch)
    if skip_mismatch and not by_name:
        raise ValueError("When calling model.load_weights, skip_mismatch can only be set to "
                         "True when by_name is True.")
    if hdf5_kind(filepath) or h5_format.is_hdf5(filepath):
        return h5_format.load_weights_from_hdf5(model, filepath, by_name, skip_mismatch)
    if by_name and _is_tf_format(filepath) and bundle.exists(filepath):
        # (as tf_keras: the checkpoint is read, then loading by name refused)
        load_weights(model, filepath, options=options)
        raise NotImplementedError("Weights may only be loaded based on topology into Models "
                                  "when loading TensorFlow-formatted weights (got by_name=True "
                                  "to load_weights).")
    if not by_name and _is_tf_format(filepath) and bundle.exists(filepath) and (
            all(k.startswith(_OPTIMIZER) for k in checkpoint_keys(model)) or
            _is_legacy(getattr(model, "optimizer", None)) or
            not _has_object_graph(filepath)):
        # A model not built yet (or with a legacy optimizer, whose slots and hyperparameters
        # hang off the object graph): its weights and its optimizer's slots get their values
        # as they are created, matched through the checkpoint's object graph as TF does.
        # (one written by name, TF 1's `Saver`, matches the variables by their names)
        restoration = checkpoint.restore_objects(model, [], filepath)
        status = checkpoint.load_status(restoration, (model, []))
        keras_session = _keras_session(model)
        if keras_session is not None:  # (as tf_keras: the restore runs in its session now,
            status.run_restore_ops(keras_session)  # and the values of variables made later,
            restoration.session = keras_session  # the optimizer's slots, go there as made)
        return status
    tensors, metadata = read_weights(filepath)
    # (a TF checkpoint restores what matches, as TF's does: the status tells the rest)
    partial = _is_tf_format(filepath) and bundle.exists(filepath)
    optimizer = getattr(model, "optimizer", None)
    if partial and isinstance(optimizer, Optimizer) and not _is_legacy(optimizer) and \
            any("/.OPTIMIZER_SLOT/" in key for key in tensors):
        raise ValueError("You are trying to restore a checkpoint from a legacy TF-Keras "
                         "optimizer into a v2.11+ Optimizer, which can cause errors. Please "
                         "update the optimizer referenced in your code to be an instance of "
                         "`tf.keras.optimizers.legacy.Optimizer`, e.g.: "
                         "`tf.keras.optimizers.legacy.Adam`.")
    status = restore(model, tensors, metadata, by_name, skip_mismatch, partial)
    return status.assert_nontrivial_match() if partial else status  # (as TF's load_weights)


def _is_legacy(optimizer):
    """Whether `optimizer` keeps its state as TF's object graph lays it out (slots by
    variable): a legacy optimizer, a loss scale optimizer around one, or a TF 1 optimizer."""
    return isinstance(optimizer, (OptimizerV2, TFOptimizer)) or \
        isinstance(getattr(optimizer, "inner_optimizer", None), OptimizerV2)


def _has_object_graph(filepath):
    reader = bundle.BundleReader(filepath)
    try:
        return reader.has_tensor(trackable.OBJECT_GRAPH_KEY)
    finally:
        reader.close()


def read_weights(filepath):
    """``(tensors, metadata)`` from a TF checkpoint, a weights file or a `.keras` archive."""
    if _is_tf_format(filepath) and bundle.exists(filepath):
        reader = bundle.BundleReader(filepath)
        tensors = {key: reader.get_tensor(key) for key in reader.keys()}  # all checked
        graph = tensors.pop(trackable.OBJECT_GRAPH_KEY, None)
        if graph is None:
            return tensors, {}
        return tensors, {trackable.OBJECT_GRAPH_KEY: graph.item() if isinstance(
            graph, np.ndarray) else graph}
    if not file_system.exists(filepath):
        raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: "
                                               f"Failed to find any matching files for "
                                               f"{filepath}")
    if filepath.endswith(".keras") and zipfile.is_zipfile(filepath):
        with zipfile.ZipFile(filepath) as archive:
            return safetensors_format.deserialize(archive.read(ARCHIVE_WEIGHTS), filepath)
    return safetensors_format.load_file(filepath)


def restore(model, tensors, metadata, by_name=False, skip_mismatch=False, partial=False):
    """Checks, then assigns, saved `tensors` to `model`'s variables; returns a
    `CheckpointLoadStatus`. `partial`: weights missing on either side are no error."""
    if not by_name and all(k.startswith(_OPTIMIZER) for k in checkpoint_keys(model)):
        return _restore_on_creation(model, tensors)
    deferred = partial and _defers_optimizer(model, tensors)
    matched = (_match_by_name(model, tensors, metadata, skip_mismatch) if by_name
               else _match_by_key(model, tensors, partial, with_optimizer=not deferred))
    # (one session run in TF 1's graph mode, as the HDF5 loader's)
    backend.batch_set_value([(variable, value) for _, variable, value in matched])
    h5_format.finalize_layers(model)  # state derived from weights (an adapted Normalization)
    unbound = [v for k, v in checkpoint_keys(model).items()
               if partial and not k.startswith(_OPTIMIZER) and k not in tensors]
    status = CheckpointLoadStatus(set(tensors) - {key for key, _, _ in matched},
                                  metadata.get(trackable.OBJECT_GRAPH_KEY), unbound,
                                  len(matched) if partial else None)
    if partial and status.unused and status._object_graph is not None:
        # as TF: values of the checkpoint left unused are logged when the model goes
        # (or the program ends), unless `expect_partial` was called on the status
        status._warning = weakref.finalize(model, _log_unrestored, status._object_graph,
                                           status._unused)
    if deferred:
        _restore_optimizer_when_built(model, tensors, status._unused)
    return status


def _defers_optimizer(model, tensors):
    """Whether the optimizer state of a TF checkpoint waits for the optimizer's first step,
    as TF's restore waits for variables not made yet: the optimizer has made none (made at
    once, its first step would not make them: a traced step, not traced again, would count
    differently, as Nadam's momentum product does)."""
    optimizer = getattr(model, "optimizer", None)
    return isinstance(optimizer, Optimizer) and not isinstance(optimizer, OptimizerV2) and \
        not getattr(optimizer, "_built", False) and \
        not hasattr(optimizer, "inner_optimizer") and not backend.building_v1_graph() and \
        any(k.startswith(_OPTIMIZER) for k in tensors)


def _restore_optimizer_when_built(model, tensors, unused):
    """Gives `model`'s optimizer the checkpoint's state (`tensors`) not restored yet once its
    first step has made its variables; the keys restored leave `unused`."""
    root = weakref.ref(model)

    def restore():
        owner = root()
        if owner is None:
            return
        # (another optimizer's state is left in the checkpoint, as TF's restore leaves
        # values its objects have no place for)
        matched = [m for m in _match_optimizer(owner, checkpoint_keys(owner), tensors,
                                               warn=False) if m[0] in unused]
        with context.init_scope():  # (made while a step is traced: their values, eagerly)
            for _, variable, value in matched:
                variable.assign(value)
        unused.difference_update(key for key, _, _ in matched)

    model.optimizer.__dict__["_restore_when_built"] = restore


def _unused_nodes(object_graph, unused):
    """(the checkpoint's object graph proto, the indices of its nodes holding a value among
    `unused`)."""
    proto = pb.TrackableObjectGraph()
    proto.ParseFromString(object_graph)
    return proto, [i for i, node in enumerate(proto.nodes)
                   if any(a.checkpoint_key in unused for a in node.attributes)]


def _log_unrestored(object_graph, unused):
    proto, missing = _unused_nodes(object_graph, unused)
    if missing:
        checkpoint.log_unrestored(proto, missing)


def _restore_on_creation(model, tensors):
    """Restores saved `tensors` into `model`'s variables as they get created (a model not
    built yet), as TF restores a checkpoint: the first call already sees the saved values."""
    pending = {k: v for k, v in tensors.items() if not k.startswith(_OPTIMIZER)}
    unused = set(tensors)
    root = weakref.ref(model)

    def hook(variable):
        owner = root()
        if owner is not None:
            for key, candidate in checkpoint_keys(owner).items():
                if candidate is variable and key in pending:
                    with context.init_scope():  # also when created while tracing
                        variable.assign(_checked(variable, pending.pop(key)))
                    unused.discard(key)
        if owner is None or not pending:
            base_layer.WEIGHT_CREATION_HOOKS.remove(hook)

    if pending:
        base_layer.WEIGHT_CREATION_HOOKS.append(hook)
    return CheckpointLoadStatus(unused)


def _match_by_key(model, tensors, partial=False, with_optimizer=True):
    """``[(key, variable, value)]``: every weight of the model must be saved (unless
    `partial`: those that are), and fit; the optimizer's state too `with_optimizer`."""
    keys = checkpoint_keys(model)
    weights = {k: v for k, v in keys.items() if not k.startswith(_OPTIMIZER)}
    saved = {k for k in tensors if not k.startswith(_OPTIMIZER)}
    missing, unexpected = sorted(weights.keys() - saved), sorted(saved - weights.keys())
    if partial:  # (checked in the order of the checkpoint's keys, as TF restores them)
        weights = {k: weights[k] for k in sorted(weights) if k in saved}
    elif missing or unexpected:
        raise ValueError(f"The saved weights do not match the model's: model weights missing "
                         f"from the file: {missing}; saved weights the model does not have: "
                         f"{unexpected}.")
    matched = [(k, v, _checked(v, tensors[k])) for k, v in weights.items()]
    if with_optimizer:
        return matched + _match_optimizer(model, keys, tensors)
    # (the optimizer's variables made so far, `iterations`: their values now; the others'
    # once made, see `_restore_optimizer_when_built`)
    made = sorted(k for k in tensors if k.startswith(_OPTIMIZER) and k in keys)
    return matched + [(k, keys[k], _checked(keys[k], tensors[k])) for k in made]


def _checked(variable, value):
    """`value`, if its shape and dtype fit `variable`; else a ValueError naming both."""
    if not variable.shape.is_compatible_with(value.shape):
        raise ValueError(f"Received incompatible tensor with shape {value.shape} when attempting "
                         f"to restore variable with shape {tuple(variable.shape.as_list())} and "
                         f"name {variable.name}.")
    if value.dtype != np.dtype(variable.dtype.as_numpy_dtype):
        raise ValueError(f"Received tensor of dtype {value.dtype} when attempting to restore "
                         f"variable {variable.name} of dtype {variable.dtype.name}.")
    return value


def _match_optimizer(model, keys, tensors, warn=True):
    """``[(key, variable, value)]`` restoring the optimizer's saved state, when it fits.

    When the file holds slots the optimizer has not created yet, it creates
    them for the model's trainable variables, as its first step would. A
    state that does not fit (another optimizer's) is skipped with a warning,
    as the optimizer's own `load_own_variables` does.
    """
    saved = {k for k in tensors if k.startswith(_OPTIMIZER)}
    optimizer = getattr(model, "optimizer", None)
    if not saved or not isinstance(optimizer, Optimizer):
        return []
    if not saved <= keys.keys():
        with context.name_scope(optimizer.name or "optimizer"):  # (as a step names its slots)
            optimizer.build(model.trainable_variables)
        keys = checkpoint_keys(model)
    if saved <= keys.keys():
        try:
            return [(k, keys[k], _checked(keys[k], tensors[k])) for k in sorted(saved)]
        except ValueError:
            pass
    if warn:
        _logger.warning(f"Skipping variable loading for optimizer '{optimizer.name}', because "
                        f"its variables do not match the saved optimizer's.")
    return []


def _match_by_name(model, tensors, metadata, skip_mismatch):
    """``[(key, variable, value)]`` for the layers whose names were saved, matched as Keras's
    HDF5 loader matches them: weights in `weights` order, counts and shapes checked."""
    layers = json.loads(metadata.get("layers", "[]"))
    saved = [(name, [tensors[key] for key in keys]) for name, keys in layers]
    matched = h5_format.match_by_name(model.layers, saved, skip_mismatch,
                                      lambda layer: [w for w in layer.weights
                                                     if isinstance(w, Variable)],
                                      lambda w, v: tuple(w.shape.as_list()) == v.shape)
    return [(layers[k][1][i], weight, saved[k][1][i]) for weight, k, i in matched]
