"""TF's checkpoint ops ``SaveV2`` and ``RestoreV2``: what a TF 1 `Saver` builds into its graph
(``save/SaveV2``, ``save/RestoreV2``; a sharded one's ``ShardedFilename`` and
``MergeV2Checkpoints`` too), so that a meta graph imported into a function
(``tf.compat.v1.wrap_function``) saves and restores its variables by running them.

Each takes the checkpoint's prefix, the tensors' names and their slice specs (``""`` for a
whole tensor, else TF's ``"<full shape> <start,length or -:...>"``); ``RestoreV2`` gives the
tensors of its ``dtypes``, ``SaveV2`` writes its tensors as one checkpoint.

>>> import os, tempfile
>>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
>>> tf.raw_ops.SaveV2(prefix=prefix, tensor_names=["w"], shape_and_slices=[""],
...                   tensors=[tf.constant([1.0, 2.0])])
>>> tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=["w"], shape_and_slices=[""],
...                      dtypes=[tf.float32])
[<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>]
"""
import os
import shutil

import numpy as np

from eagerflow._src.checkpoint import bundle
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, kernel_type_name, register
from eagerflow._src.core.tensor_shape import TensorShape

_NO_GRAD = "checkpoint op"


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def _strings(array, what, count=None):
    """The text of string array `array` (TF's ``tensor_names``, ``shape_and_slices``)."""
    flat = [_text(v) for v in np.asarray(array, object).reshape(-1).tolist()]
    if count is not None and len(flat) != count:
        raise errors.InvalidArgumentError(
            None, None, f"Input {what} should have as many elements as there are tensors: "
                        f"got {len(flat)} for {count}")
    return flat


def parse_slice(spec):
    """``(full shape, [(start, length)])`` of TF's slice spec ``"4 2 0,2:-"`` (a length -1,
    ``-``, takes the whole dimension), or None for ``""`` (the whole tensor)."""
    spec = spec.strip()
    if not spec:
        return None
    *dims, extents = spec.split(" ")
    try:
        shape = [int(d) for d in dims]
    except ValueError:
        raise errors.InvalidArgumentError(None, None, f"Expected a shape and slice spec, got "
                                                      f"'{spec}'") from None
    parts = []
    for extent in extents.split(":"):
        pair = extent.split(",")
        if extent == "-":
            parts.append((0, -1))
        elif len(pair) == 2 and all(p.lstrip("-").isdigit() for p in pair):
            parts.append((int(pair[0]), int(pair[1])))
        else:
            raise errors.InvalidArgumentError(
                None, None, f"Expected a pair of numbers or '-' but got '{extent}': string = "
                            f"{extents}")
    if len(parts) != len(shape):
        raise errors.InvalidArgumentError(None, None, f"Expected a shape and slice spec, got "
                                                      f"'{spec}'")
    return shape, [(s, d - s if n < 0 else n) for (s, n), d in zip(parts, shape)]


def _restore(xp, prefix, tensor_names, shape_and_slices, dtypes):
    prefix = _text(np.asarray(prefix, object).reshape(()).item())
    names = _strings(tensor_names, "tensor_names")
    specs = _strings(shape_and_slices, "shape_and_slices", len(names))
    if len(names) != len(dtypes):
        raise errors.InvalidArgumentError(
            None, None, f"Mismatch between number of tensors to restore ({len(names)}) and "
                        f"number of dtypes ({len(dtypes)})")
    reader = bundle.BundleReader(prefix)
    out = []
    for name, spec, dtype in zip(names, specs, dtypes):
        if reader.dtype(name) != dtype:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {name}; expected dtype {kernel_type_name(dtype)} does "
                            f"not equal original dtype {kernel_type_name(reader.dtype(name))}")
        value = reader.get_tensor(name)
        sliced = parse_slice(spec)
        if sliced is not None:
            value = value[tuple(slice(s, s + n) for s, n in sliced[1])]
        out.append(value)
    return tuple(out)


def _save(xp, prefix, tensor_names, shape_and_slices, *tensors):
    prefix = _text(np.asarray(prefix, object).reshape(()).item())
    names = _strings(tensor_names, "tensor_names", len(tensors))
    specs = _strings(shape_and_slices, "shape_and_slices", len(tensors))
    values, dtypes = {}, {}
    for name, spec, value in zip(names, specs, tensors):
        array = np.asarray(value)
        dtypes[name] = _d.string if array.dtype == object else _d.from_numpy(array.dtype)
        sliced = parse_slice(spec)
        if sliced is None:
            values[name] = array
            continue
        shape, extents = sliced
        found = values.setdefault(name, bundle.Sliced(shape, []))
        found.parts.append(([s for s, _ in extents], array))
    _make_directory(prefix)
    bundle.write_bundle(prefix, values, dtypes)
    return ()


def _make_directory(prefix):
    """The checkpoint's own directory, made as TF's bundle writer does (not its parents)."""
    directory = os.path.dirname(prefix)
    if directory and not os.path.isdir(directory) and os.path.isdir(os.path.dirname(directory)
                                                                    or "."):
        os.mkdir(directory)


def _scalar_text(array):
    return _text(np.asarray(array, object).reshape(()).item())


def _sharded_filename(xp, basename, shard, num_shards):
    return np.asarray(f"{_scalar_text(basename)}-{int(shard):05d}-of-{int(num_shards):05d}"
                      .encode(), object)


def _merge(xp, checkpoint_prefixes, destination_prefix, delete_old_dirs=True,
           allow_missing_files=False):
    values, dtypes = {}, {}
    prefixes = _strings(checkpoint_prefixes, "checkpoint_prefixes")
    for prefix in prefixes:
        if allow_missing_files and not bundle.exists(prefix):
            continue
        reader = bundle.BundleReader(prefix)
        try:
            for key in reader.keys():
                values[key], dtypes[key] = reader.get_tensor(key), reader.dtype(key)
        finally:
            reader.close()
    destination = _scalar_text(destination_prefix)
    _make_directory(destination)
    bundle.write_bundle(destination, values, dtypes)
    for prefix in prefixes:  # (the shards' files, and with `delete_old_dirs` their folders)
        for path in (bundle.index_path(prefix), bundle.data_path(prefix)):
            if os.path.exists(path):
                os.remove(path)
        folder = os.path.dirname(prefix)
        if delete_old_dirs and folder and os.path.isdir(folder) and not os.listdir(folder):
            shutil.rmtree(folder)
    return ()


def _restore_rule(prefix, tensor_names, shape_and_slices, dtypes):
    return [(TensorShape(None), dtype) for dtype in dtypes]


RESTORE_V2 = register("RestoreV2", _restore, _restore_rule, multi=True, tied=(), stateful=True,
                      not_differentiable=_NO_GRAD, replayable=True)
SAVE_V2 = register("SaveV2", _save, lambda *_, **__: [], multi=True, tied=(), stateful=True,
                   not_differentiable=_NO_GRAD)
SHARDED_FILENAME = register("ShardedFilename", _sharded_filename,
                            lambda *_, **__: (TensorShape([]), _d.string), tied=(),
                            not_differentiable=_NO_GRAD)
MERGE_V2 = register("MergeV2Checkpoints", _merge, lambda *_, **__: [], multi=True, tied=(),
                    stateful=True, not_differentiable=_NO_GRAD)
tf_nodes[SHARDED_FILENAME] = NodeForm(types={}, outputs=("filename",))
batching_rules[SHARDED_FILENAME] = PER_ELEMENT
tf_nodes[MERGE_V2] = NodeForm(types={}, defaults={"delete_old_dirs": True,
                                                  "allow_missing_files": False})
tf_args[SHARDED_FILENAME] = ("basename", "shard", "num_shards")
tf_args[MERGE_V2] = ("checkpoint_prefixes", "destination_prefix")
tf_nodes[RESTORE_V2] = NodeForm(types={}, outputs=("tensors",))
tf_nodes[SAVE_V2] = NodeForm(types={"dtypes": "*3"})
tf_args[RESTORE_V2] = ("prefix", "tensor_names", "shape_and_slices")
tf_args[SAVE_V2] = ("prefix", "tensor_names", "shape_and_slices", "*tensors")
