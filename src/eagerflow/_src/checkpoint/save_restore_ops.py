"""TF's checkpoint ops ``SaveV2`` and ``RestoreV2``: what a TF 1 `Saver` builds into its graph
(``save/SaveV2``, ``save/RestoreV2``), so that a meta graph imported into a function
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
import numpy as np

from eagerflow._src.checkpoint import bundle
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import kernel_type_name, register
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
    bundle.write_bundle(prefix, values, dtypes)
    return ()


def _restore_rule(prefix, tensor_names, shape_and_slices, dtypes):
    return [(TensorShape(None), dtype) for dtype in dtypes]


RESTORE_V2 = register("RestoreV2", _restore, _restore_rule, multi=True, tied=(), stateful=True,
                      not_differentiable=_NO_GRAD, replayable=True)
SAVE_V2 = register("SaveV2", _save, lambda *_, **__: [], multi=True, tied=(), stateful=True,
                   not_differentiable=_NO_GRAD)
tf_nodes[RESTORE_V2] = NodeForm(types={}, outputs=("tensors",))
tf_nodes[SAVE_V2] = NodeForm(types={"dtypes": "*3"})
tf_args[RESTORE_V2] = ("prefix", "tensor_names", "shape_and_slices")
tf_args[SAVE_V2] = ("prefix", "tensor_names", "shape_and_slices", "*tensors")
