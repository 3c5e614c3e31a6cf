"""Keras's legacy HDF5 files (``.h5``), read and written through h5py, in tf_keras's layout.

A whole model (`save_model_to_hdf5`) is a file whose attributes hold
``model_config`` (the JSON of ``{"class_name", "config"}``), ``keras_version``,
``backend`` and, for a compiled model, ``training_config`` (the compile
arguments); its weights are in the group ``model_weights`` and its
optimizer's variables in ``optimizer_weights``. A weights file
(`save_weights_to_hdf5`) is such a ``model_weights`` group on its own: the
attribute ``layer_names`` lists the layers, each layer's group lists its
``weight_names`` and holds a dataset per weight under the weight's name.
Loading matches the saved layers that have weights to the model's, in
order (or by layer name), checks every count and shape, then assigns.

h5py is optional (``pip install h5py``); without it these functions raise
an ImportError saying so.

>>> import os, tempfile
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
>>> path = os.path.join(tempfile.mkdtemp(), "model.h5")
>>> model.save(path)
>>> restored = tf.keras.models.load_model(path)
>>> [w.shape for w in restored.weights]
[TensorShape([3, 2]), TensorShape([2])]
"""
import io
import os
import tempfile

import numpy as np

from eagerflow._src.backend import log as _log
from eagerflow._src.keras import backend
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import file_system
from eagerflow._src.keras.engine.functional import Functional
from eagerflow._src.keras.mixed_precision.loss_scale_optimizer import LossScaleOptimizerV3
from eagerflow._src.keras.optimizers.optimizer import Optimizer

_DOCTEST_REQUIRES = ("h5py",)
_logger = _log.logger
KERAS_VERSION = "2.21.0"
# HDF5 refuses attributes over this many bytes: longer lists are split into
# ``name0``, ``name1``, ... as Keras splits them.
_ATTRIBUTE_LIMIT = 64512
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"


def h5py_module(what):
    """The h5py module, or an ImportError saying that `what` needs it."""
    try:
        import h5py
    except ImportError:
        raise ImportError(f"{what} needs the h5py package, which is not installed: "
                          f"`pip install h5py`.") from None
    return h5py


def is_hdf5(filepath):
    """Whether `filepath` is an HDF5 file (by its first bytes)."""
    try:
        with file_system.open_file(filepath, "rb") as f:
            return f.read(8) == HDF5_SIGNATURE
    except OSError:
        return False


def atomic_h5(filepath, write, what):
    """Calls `write(h5py_file)` on a temporary file next to `filepath`, then renames it over
    `filepath`: a failed save leaves the previous file as it was (on another file system
    than the local one, ``ram://``, the file is made in memory and written whole)."""
    h5py = h5py_module(what)
    if file_system.resolve(filepath)[0] is not file_system.LOCAL:
        buffer = io.BytesIO()
        with h5py.File(buffer, "w") as f:
            write(f)
        file_system.makedirs(file_system.dirname(filepath))
        file_system.write_atomically(filepath, buffer.getvalue())
        return
    directory = os.path.dirname(os.path.abspath(filepath))
    os.makedirs(directory, exist_ok=True)  # as tf_keras, which creates missing directories
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(filepath)}.",
                                suffix=".tmp")
    os.close(fd)
    try:
        with h5py.File(temp, "w") as f:
            write(f)
        os.replace(temp, filepath)
    except BaseException:
        os.unlink(temp)
        raise


def open_h5(filepath, what):
    """The HDF5 file `filepath` opened for reading (h5py's OSError if it is not one)."""
    h5py = h5py_module(what)
    if file_system.resolve(filepath)[0] is not file_system.LOCAL:
        with file_system.open_file(filepath, "rb") as f:
            return h5py.File(io.BytesIO(f.read()), "r")
    return h5py.File(filepath, "r")


def _save_attribute(group, name, values):
    """Stores the list `values` (strings as UTF-8 bytes) as the attribute `name`, split into
    numbered chunks when it exceeds HDF5's attribute size limit."""
    data = [v.encode("utf8") if isinstance(v, str) else v for v in values]
    array = np.asarray(data)
    pieces = [array]
    while any(piece.nbytes > _ATTRIBUTE_LIMIT for piece in pieces):
        if len(pieces) >= len(array):
            raise RuntimeError(f"The following attributes cannot be saved to HDF5 file because "
                               f"they are larger than {_ATTRIBUTE_LIMIT} bytes: {values[:1]}")
        pieces = np.array_split(array, len(pieces) + 1)
    if len(pieces) == 1:  # (a list: h5py stores its strings at their own lengths, as TF's)
        group.attrs[name] = data
    else:
        for i, piece in enumerate(pieces):
            group.attrs[f"{name}{i}"] = piece


def _load_attribute(group, name):
    """The list of strings stored by `_save_attribute` (also split into chunks)."""
    if name in group.attrs:
        values = list(group.attrs[name])
    else:
        values, i = [], 0
        while f"{name}{i}" in group.attrs:
            values += list(group.attrs[f"{name}{i}"])
            i += 1
    return [v.decode("utf8") if isinstance(v, bytes) else str(v) for v in values]


def _layer_weights(layer):
    """A layer's weights in the order Keras's HDF5 files list them."""
    return _variables_only(layer, list(layer.trainable_weights) +
                           list(layer.non_trainable_weights))


def _top_level_weights(model):
    return _variables_only(model, list(model._trainable_weights) +
                           list(model._non_trainable_weights))


def _variables_only(layer, weights):
    """`weights`, which HDF5 files can hold only when all are variables (not an adapted
    vocabulary), as in tf_keras."""
    if any(not isinstance(w, Variable) for w in weights):
        raise NotImplementedError(
            f"Save or restore weights that is not an instance of `tf.Variable` is not "
            f"supported in h5, use `save_format='tf'` instead. Received a model or layer "
            f"{type(layer).__name__} with weights {weights}")
    return weights


def _save_subset(group, weights):
    names = [w.name for w in weights]
    _save_attribute(group, "weight_names", names)
    for name, value in zip(names, backend.batch_get_value(weights)):
        group.create_dataset(name, data=value)


def save_weights_to_hdf5_group(f, model):
    """Writes `model`'s weights to the HDF5 group `f`, layer by layer."""
    layers = list(getattr(model, "layers", []))
    _save_attribute(f, "layer_names", [layer.name for layer in layers])
    f.attrs["backend"] = b"tensorflow"  # (bytes: ASCII strings, as tf_keras writes them)
    f.attrs["keras_version"] = KERAS_VERSION.encode()
    # in order of name, as in Keras: a group "a/b" (a layer's) made before "a" would make
    # "a" (another layer's) already
    for layer in sorted(layers, key=lambda layer: layer.name):
        _save_subset(f.create_group(layer.name), _layer_weights(layer))
    _save_subset(f.create_group("top_level_model_weights"), _top_level_weights(model))


def _saved_values(group):
    return [np.asarray(group[name]) for name in _load_attribute(group, "weight_names")]


def _rnn_values(layer, values):
    """Saved `values` of an LSTM or GRU layer (or a Bidirectional one) as `layer` takes them:
    those a CuDNNLSTM or CuDNNGRU saved (a bias of both the input and the recurrent part,
    each gate's input kernel laid out for cuDNN) converted as Keras converts them, and
    back; others as they are."""
    inner = getattr(layer, "forward_layer", None)
    if inner is not None and len(values) % 2 == 0:
        half = len(values) // 2
        backward = getattr(layer, "backward_layer", inner)
        return _rnn_values(inner, values[:half]) + _rnn_values(backward, values[half:])
    kind = type(layer).__name__
    if kind not in ("LSTM", "GRU") or len(values) != 3:
        return values
    kernel, recurrent, bias = values
    units, gates = recurrent.shape[0], 4 if kind == "LSTM" else 3
    if bias.shape != (2 * gates * units,):  # not saved by a cuDNN layer
        if kind == "GRU" and bias.shape == (2, gates * units) and not layer.reset_after:
            raise ValueError("GRU(reset_after=True) is not compatible with "
                             "GRU(reset_after=False)")
        return values

    def per_gate(matrix, convert):
        return np.concatenate([convert(m) for m in np.split(matrix, gates, axis=1)], axis=1)
    # cuDNN keeps a gate's input kernel as a (units, inputs) matrix in the same memory
    kernel = per_gate(kernel, lambda k: k.reshape(k.shape[::-1]).T)
    recurrent = per_gate(recurrent, lambda k: k.T)
    if kind == "LSTM":
        bias = bias[:gates * units] + bias[gates * units:]
    elif layer.reset_after:
        bias = bias.reshape(2, -1)
    else:
        raise ValueError("CuDNNGRU is not compatible with GRU(reset_after=False)")
    return [kernel, recurrent, bias]


def _checked_pairs(weights, values, where):
    """``[(weight, value)]`` with `value` cast to the weight's dtype; a ValueError from
    `where(weight, expected, received)` when a shape differs."""
    pairs = []
    for weight, value in zip(weights, values):
        expected, received = tuple(weight.shape.as_list()), value.shape
        if not weight.shape.is_compatible_with(received):
            raise ValueError(where(weight, expected, received))
        pairs.append((weight, value.astype(weight.dtype.as_numpy_dtype, copy=False)))
    return pairs


def _assign(pairs):
    backend.batch_set_value(pairs)


def finalize_layers(model):
    """Lets layers that derive state from their weights (a `Normalization` adapted before
    saving) recompute it from the loaded values."""
    for layer in model._flatten_layers():
        layer.finalize_state()


def _check_built(model):
    """tf_keras's refusal to load an HDF5 file into a model not built (not a functional one,
    which always is), before anything reads its weights."""
    if not getattr(model, "built", True):
        raise ValueError("Unable to load weights saved in HDF5 format into a subclassed Model "
                         "which has not created its variables yet. Call the Model first, then "
                         "load the weights.")


def load_weights_from_hdf5_group(f, model):
    """Assigns the weights in the HDF5 group `f` to `model`'s layers that have weights, in
    order; every count and shape is checked before anything is assigned."""
    layers = [layer for layer in getattr(model, "layers", []) if _layer_weights(layer)]
    names = [name for name in _load_attribute(f, "layer_names")
             if _load_attribute(f[name], "weight_names")]
    if len(names) != len(layers):
        raise ValueError(f"Layer count mismatch when loading weights from file. Model expected "
                         f"{len(layers)} layers, found {len(names)} saved layers.")
    pairs = []
    for k, (name, layer) in enumerate(zip(names, layers)):
        weights, values = _layer_weights(layer), _rnn_values(layer, _saved_values(f[name]))
        if len(values) != len(weights):
            raise ValueError(f"Weight count mismatch for layer #{k} (named {layer.name} in the "
                             f"current model, {name} in the save file). Layer expects "
                             f"{len(weights)} weight(s). Received {len(values)} saved weight(s)")
        pairs += _checked_pairs(  # (TF's error: its assignment's)
            weights, values,
            lambda w, e, r: (
                f"Cannot assign value to variable ' {w.name}': Shape mismatch.The variable "
                f"shape {e}, and the assigned value shape {r} are incompatible."))
    if "top_level_model_weights" in f:
        weights, values = _top_level_weights(model), _saved_values(f["top_level_model_weights"])
        if len(values) != len(weights):
            raise ValueError(f"Weight count mismatch for top-level weights when loading weights "
                             f"from file. Model expects {len(weights)} top-level weight(s). "
                             f"Received {len(values)} saved top-level weight(s)")
        pairs += _checked_pairs(
            weights, values,
            lambda w, e, r: (f"Shape mismatch in model for top-level weight {w.name}. Weight "
                             f"expects shape {e}. Received saved weight with shape {r}"))
    _assign(pairs)
    finalize_layers(model)


def _mismatch(skip, error, warning):
    if not skip:
        raise ValueError(error)
    _logger.warning(warning)


def match_by_name(layers, saved, skip_mismatch, weights_of, fits):
    """Keras's by-name matching: ``[(weight, k, i)]`` pairing each weight of the layers named
    as the `k`-th of `saved` (``[(layer name, [saved value, ...])]``) with its `i`-th value.
    `weights_of(layer)` lists a layer's weights in saved order; `fits(weight, value)` checks a
    shape. A layer whose count or a weight whose shape does not fit raises ValueError, or with
    `skip_mismatch` is left as it is with a warning."""
    index = {}
    for layer in layers:
        index.setdefault(layer.name, []).append(layer)
    matched = []
    for k, (name, values) in enumerate(saved):
        for layer in index.get(name, []):
            weights = weights_of(layer)
            if len(values) != len(weights):
                counts = (f"Layer expects {len(weights)} weight(s). Received {len(values)} "
                          f"saved weight(s)")
                _mismatch(skip_mismatch,
                          f"Weight count mismatch for layer #{k} (named {layer.name}). {counts}",
                          f"Skipping loading of weights for layer #{k} (named {layer.name}) due "
                          f"to mismatch in number of weights. {counts}")
                continue
            for i, (weight, value) in enumerate(zip(weights, values)):
                expected = tuple(weight.shape.as_list())
                if not fits(weight, value):
                    shapes = (f"for weight {weight.name}. Weight expects shape {expected}. "
                              f"Received saved weight with shape {value.shape}")
                    _mismatch(skip_mismatch,
                              f"Shape mismatch in layer #{k} (named {layer.name}) {shapes}",
                              f"Skipping loading weights for layer #{k} (named {layer.name}) "
                              f"due to mismatch in shape {shapes}")
                    continue
                matched.append((weight, k, i))
    return matched


def load_weights_from_hdf5_group_by_name(f, model, skip_mismatch=False):
    """Assigns saved weights to the model's layers of the same name; other layers keep
    theirs. With `skip_mismatch`, a layer whose weights do not fit is skipped with a
    warning; otherwise nothing is assigned and a ValueError says which."""
    by_name = {layer.name: layer for layer in reversed(getattr(model, "layers", []))}
    saved = [(name, _rnn_values(by_name[name], _saved_values(f[name])) if name in by_name
              else _saved_values(f[name])) for name in _load_attribute(f, "layer_names")]
    matched = match_by_name(getattr(model, "layers", []), saved, skip_mismatch, _layer_weights,
                            lambda w, v: w.shape.is_compatible_with(v.shape))
    _assign([(weight, saved[k][1][i].astype(weight.dtype.as_numpy_dtype, copy=False))
             for weight, k, i in matched])
    finalize_layers(model)


def save_weights_to_hdf5(model, filepath):
    """Writes `model`'s weights to the HDF5 file `filepath` (tf_keras's `save_weights` layout)."""
    atomic_h5(filepath, lambda f: save_weights_to_hdf5_group(f, model),
              "Saving weights to HDF5 (`.h5`)")


def load_weights_from_hdf5(model, filepath, by_name=False, skip_mismatch=False):
    """Loads the weights file `filepath` (or the weights of a whole-model `.h5` file)."""
    with open_h5(filepath, "Loading weights from HDF5 (`.h5`)") as f:
        if "layer_names" not in f.attrs and "model_weights" in f:
            f = f["model_weights"]
        _check_built(model)
        if by_name:
            load_weights_from_hdf5_group_by_name(f, model, skip_mismatch)
        else:
            load_weights_from_hdf5_group(f, model)


def check_savable(model):
    """A NotImplementedError, as tf_keras's first check, for a model no HDF5 file holds (a
    subclassed model)."""
    if not isinstance(model, Functional):
        raise NotImplementedError(
            "Saving the model to HDF5 format requires the model to be a Functional model or a "
            "Sequential model. It does not work for subclassed models, because such models "
            "are defined via the body of a Python method, which isn't safely serializable. "
            "Consider saving to the Tensorflow SavedModel format (by setting save_format=\"tf\") "
            "or using `save_weights`.")


def save_model_to_hdf5(model, filepath, model_config, training_config=None):
    """Writes `model`'s weights with `model_config` (JSON) and, when given, `training_config`
    (JSON) and the optimizer's variables to the HDF5 file `filepath`."""
    check_savable(model)

    def write(f):
        f.attrs["keras_version"] = KERAS_VERSION
        f.attrs["backend"] = "tensorflow"
        f.attrs["model_config"] = model_config.encode()
        save_weights_to_hdf5_group(f.create_group("model_weights"), model)
        if training_config is not None:
            f.attrs["training_config"] = training_config.encode()
            variables = list(model.optimizer.variables)
            if variables:
                _save_subset(f.create_group("optimizer_weights"), variables)

    atomic_h5(filepath, write, "Saving a model to HDF5 (`.h5`)")


def model_configs(f, filepath):
    """``(model_config, training_config)``: the JSON texts of a whole-model file (the
    second None when the model was saved uncompiled)."""
    configs = []
    for name in ("model_config", "training_config"):
        value = f.attrs.get(name)
        configs.append(value.decode("utf-8") if isinstance(value, bytes) else value)
    if configs[0] is None:
        raise ValueError(f"No model config found in the file at {filepath}.")
    return tuple(configs)


def load_optimizer_weights(f, model):
    """Restores the ``optimizer_weights`` of the whole-model file `f` into `model`'s
    optimizer, creating its slots first; a state that does not fit is skipped with a
    warning, as tf_keras does."""
    if "optimizer_weights" not in f or not isinstance(model.optimizer, Optimizer):
        return
    # (a legacy optimizer's `iterations` and hyperparameters too, in TF 1's graph mode made
    # when first used)
    getattr(model.optimizer, "_create_all_weights", model.optimizer.build)(
        model.trainable_variables)
    if isinstance(model.optimizer, LossScaleOptimizerV3):
        # tf_keras's `set_weights` refuses it (the wrapper itself is never built): its
        # state is never restored from an `.h5` file
        _logger.warning("Error in loading the saved optimizer state. As a result, your model "
                        "is starting with a freshly initialized optimizer.")
        return
    values = _saved_values(f["optimizer_weights"])
    variables = list(model.optimizer.variables)
    # Paired in order, as tf_keras's `set_weights` pairs them: a state saved before the
    # first step (the iteration count alone) restores that count and leaves the slots.
    pairs = list(zip(variables, values))
    if any(v.shape != x.shape for v, x in pairs):
        _logger.warning("Error in loading the saved optimizer state. As a result, your "
                        "model is starting with a freshly initialized optimizer.")
        return
    # (one session run in TF 1's graph mode, where assigning would only build the ops)
    backend.batch_set_value([(v, x.astype(v.dtype.as_numpy_dtype, copy=False))
                             for v, x in pairs])
