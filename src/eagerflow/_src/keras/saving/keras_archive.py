"""Keras 3-style weights files (``.weights.h5``, and ``model.weights.h5`` in `.keras` archives).

The file mirrors the model's object tree as Keras's saving library walks it:
every layer, optimizer and metric reachable from the model through its
attributes (in reverse alphabetical order of their names, the first path
found naming an object) gets a group at its path holding ``vars/0``,
``vars/1``, ... its own variables in creation order. Objects in a list
(such as ``layers``) are named by their class in snake case, numbered when
repeated: ``layers/dense``, ``layers/dense_1``, ``optimizer/vars/0`` (the
iteration count, then the slots). Loading checks every count and shape
before assigning anything.

h5py is optional (``pip install h5py``).

>>> import os, tempfile
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
>>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
>>> model.save_weights(path)
>>> model.load_weights(path)
>>> sorted(variable_paths(model))
['layers/dense', 'vars']
"""
import io
import re
import warnings

import numpy as np

from eagerflow._src.core.variables import Variable
from eagerflow._src.keras.engine import base_layer
from eagerflow._src.keras.engine.training import Model
from eagerflow._src.keras.losses import Loss
from eagerflow._src.keras.metrics.base_metric import Metric
from eagerflow._src.keras.mixed_precision.loss_scale_optimizer import LossScaleOptimizer
from eagerflow._src.keras.optimizers import optimizer as optimizer_lib
from eagerflow._src.keras.optimizers.legacy import OptimizerV2
from eagerflow._src.keras.optimizers.optimizer import Optimizer
from eagerflow._src.keras.saving import h5_format

_DOCTEST_REQUIRES = ("h5py",)
ARCHIVE_WEIGHTS = "model.weights.h5"  # the weights inside a `.keras` archive in Keras's layout
# Attributes Keras's walk does not follow: views of other attributes.
_SKIP = frozenset({"submodules", "weights", "non_trainable_weights", "trainable_weights",
                   "variables", "non_trainable_variables", "trainable_variables",
                   "inbound_nodes", "outbound_nodes", "input_shape", "output_shape",
                   "_trainable_weights", "_non_trainable_weights", "_self_tracked_layers",
                   "_input_layer", "_input_layers", "_output_layers"})
# The model properties that hold trackables (the rest are instance attributes).
_MODEL_PROPERTIES = ("layers", "metrics", "optimizer")


def _snake_case(name):
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()
    return "private" + name if name.startswith("_") else name


def _trackable(value):
    """Whether Keras's walk saves `value`'s state: not a legacy optimizer's, nor that of a
    LossScaleOptimizer around one, which tf_keras makes a legacy optimizer too (its archives
    leave them out)."""
    return isinstance(value, (base_layer.Layer, Optimizer, Loss)) and \
        not isinstance(value, OptimizerV2) and \
        not isinstance(getattr(value, "inner_optimizer", None), OptimizerV2)


def _attributes(obj):
    names = {name for name in vars(obj) if name not in _SKIP and not name.startswith("__")}
    if isinstance(obj, Model):
        names.update(_MODEL_PROPERTIES)
    if isinstance(obj, LossScaleOptimizer):  # its inner optimizer under Keras's name
        names = (names - {"_optimizer"}) | {"inner_optimizer"}
    for name in sorted(names, reverse=True):
        try:
            value = getattr(obj, name)
        except Exception:  # noqa: BLE001 - a property that cannot be read holds nothing
            continue
        yield name, value


def _own_variables(obj):
    if isinstance(obj, Optimizer):
        return list(obj.variables)
    if isinstance(obj, base_layer.Layer):
        return [w for w in list(obj._trainable_weights) + list(obj._non_trainable_weights)
                if isinstance(w, Variable)]  # (not an adapted vocabulary: it is an asset)
    return None  # losses have no state


def _extra_state(obj):
    """State that Keras's layout leaves out but eagerflow keeps, in groups tf_keras ignores:
    a dynamic loss scale and its count of good steps."""
    if isinstance(obj, LossScaleOptimizer) and obj.dynamic:
        return {"loss_scale": [obj._scale, obj._counter]}
    return {}


def _walk(obj, path, visited, found):
    visited.add(id(obj))
    variables = _own_variables(obj)
    if variables is not None:
        found[path or "vars"] = (obj, variables, False)
    for name, extra in _extra_state(obj).items():
        found[f"{path}/{name}"] = (obj, extra, True)  # optional: absent from tf_keras's files
    for name, child in _attributes(obj):
        child_path = f"{path}/{name}" if path else name
        if _trackable(child):
            if id(child) not in visited:
                _walk(child, child_path, visited, found)
        elif isinstance(child, (list, tuple, dict, set)) and not isinstance(child, str):
            used = {}
            items = child.values() if isinstance(child, dict) else child
            for item in list(items):
                if not _trackable(item) or id(item) in visited:
                    continue
                key = _snake_case(type(item).__name__)
                if key in used:
                    used[key] += 1
                    key = f"{key}_{used[key]}"
                else:
                    used[key] = 0
                _walk(item, f"{child_path}/{key}", visited, found)


def variable_paths(model):
    """``{path: (object, [its own variables], optional)}``, the groups Keras's weights file
    has for `model` (the model's own variables are at ``vars``)."""
    found = {}
    _walk(model, "", set(), found)
    return found


def save_weights_to_group(f, model):
    """Writes `model`'s state to the open HDF5 file `f`."""
    for path, (obj, variables, _) in variable_paths(model).items():
        group = f.require_group(path if path == "vars" else f"{path}/vars")
        if _saves_itself(obj):  # (a layer that writes its own state)
            obj.save_own_variables(group)
            continue
        for i, variable in enumerate(variables):
            group.create_dataset(str(i), data=np.asarray(variable.numpy()))


def _saves_itself(obj):
    """Whether `obj` is a layer whose class overrides how its state is saved and loaded."""
    return isinstance(obj, base_layer.Layer) and (
        type(obj).save_own_variables is not base_layer.Layer.save_own_variables or
        type(obj).load_own_variables is not base_layer.Layer.load_own_variables)


def _saved(f, path):
    key = path if path == "vars" else f"{path}/vars"
    if key not in f:
        return []
    group = f[key]
    return [np.asarray(group[str(i)]) for i in range(len(group))]


def load_weights_from_group(f, model, skip_mismatch=False):
    """Assigns the state saved in the open HDF5 file `f` to `model`: layers must match in
    variable count and shapes (checked for all before anything is assigned); an optimizer
    or metric whose saved state does not fit keeps its own, with a warning."""
    # (an optimizer not built yet keeps its state, with a warning, as tf_keras's does: the
    # `.keras` loader builds it when it compiles the model)
    found = variable_paths(model)
    pairs = []
    for path, (obj, variables, optional) in found.items():
        if _saves_itself(obj):
            key = path if path == "vars" else f"{path}/vars"
            pairs.append((obj, f[key] if key in f else {}))
            continue
        values = _saved(f, path)
        if optional and not values:
            continue
        lenient = not isinstance(obj, base_layer.Layer) or _is_metric(obj)
        problem = _problem(obj, variables, values)
        if problem is None:
            pairs += [(v, x.astype(v.dtype.as_numpy_dtype, copy=False))
                      for v, x in zip(variables, values)]
        elif isinstance(obj, Optimizer):
            optimizer_lib._warn_skipped_loading(obj, len(variables), len(values))
        elif lenient or skip_mismatch:
            if not lenient:  # (a Python warning, as tf_keras's)
                warnings.warn(f"Could not load weights in object {obj}. Skipping object. "
                              f"Exception encountered: {problem}", stacklevel=2)
        else:
            raise ValueError(problem)
    for variable, value in pairs:
        if isinstance(variable, base_layer.Layer):  # (a layer loading its own state)
            variable.load_own_variables(value)
        else:
            variable.assign(value)
    h5_format.finalize_layers(model)


def _is_metric(obj):
    return isinstance(obj, Metric)


def _path_of(found, obj):
    return next((path for path, (o, _, optional) in found.items()
                 if o is obj and not optional), None)


def _problem(obj, variables, values):
    """Why `values` cannot be loaded into `variables` (None if they can)."""
    if len(values) != len(variables):
        return (f"Layer '{obj.name}' expected {len(variables)} variables, but received "
                f"{len(values)} variables during loading. Expected: "
                f"{[v.name for v in variables]}")
    for variable, value in zip(variables, values):
        if not variable.shape.is_compatible_with(value.shape):
            return (f"Cannot assign value to variable ' {variable.name}': Shape mismatch.The "
                    f"variable shape {tuple(variable.shape.as_list())}, and the assigned value "
                    f"shape {tuple(value.shape)} are incompatible.")  # (tf_keras's: assign's)
    return None


def available():
    """Whether h5py is installed (`.keras` archives are then written in Keras's layout)."""
    try:
        import h5py  # noqa: F401
    except ImportError:
        return False
    return True


def save_weights(model, filepath):
    """Writes `model`'s state to the weights file `filepath` (``.weights.h5``)."""
    h5_format.atomic_h5(filepath, lambda f: save_weights_to_group(f, model),
                        "Saving weights to `.weights.h5`")


def load_weights(model, filepath, skip_mismatch=False):
    """Loads the weights file `filepath` (``.weights.h5``) into `model`."""
    with h5_format.open_h5(filepath, "Loading weights from `.weights.h5`") as f:
        load_weights_from_group(f, model, skip_mismatch)


def weights_bytes(model):
    """The bytes of `model`'s ``model.weights.h5``, for a `.keras` archive."""
    h5py = h5_format.h5py_module("Saving a `.keras` archive in Keras's layout")
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        save_weights_to_group(f, model)
    return buffer.getvalue()


def load_weights_bytes(model, data, skip_mismatch=False):
    """Loads a ``model.weights.h5`` read from a `.keras` archive into `model`."""
    h5py = h5_format.h5py_module("Loading a `.keras` archive written by Keras")
    with h5py.File(io.BytesIO(data), "r") as f:
        load_weights_from_group(f, model, skip_mismatch)
