"""Records TF's ``tf.raw_ops`` signature of every op of ``eagerflow.raw_ops``, the names of
TF's raw ops, and TF's results of the sample calls of `tests/compat/raw_ops_programs.py`,
into `raw_ops.json`.

Run with TensorFlow 2.x from the project root:
``PYTHONPATH=src python tests/compat/data/make_raw_ops_data.py``.
"""
import inspect
import json
import os
import sys

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import op_def_registry

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from raw_ops_programs import gradients, samples  # noqa: E402

import eagerflow  # noqa: E402


def signature(name):
    """TF's raw op `name`: its Python name, input arguments (``*`` marking a list), attrs
    with their defaults (a repr, or None when required) and output arguments."""
    fn = getattr(tf.raw_ops, name, None)
    if fn is None:
        return None
    op_def = op_def_registry.get(name)
    params = list(inspect.signature(fn).parameters.values())
    n = len(op_def.input_arg)
    mark = ["*" if a.number_attr or a.type_list_attr else "" for a in op_def.input_arg]
    outs = ["*" * bool(a.number_attr or a.type_list_attr) + a.name for a in op_def.output_arg]
    return {"function": fn.__name__,
            "args": [m + p.name for m, p in zip(mark, params[:n])],
            "attrs": [[p.name, None if p.default is inspect.Parameter.empty else repr(p.default)]
                      for p in params[n:] if p.name != "name"],
            "outputs": outs}


def plain(value):
    """A result as JSON: a tensor as ``{"dtype", "shape", "value"}``, structures as lists or
    ``{"fields": names, "values": [...]}`` for a namedtuple."""
    if value is None:
        return None
    if hasattr(value, "_fields"):
        return {"fields": list(value._fields), "values": [plain(v) for v in value]}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    array = np.asarray(value.numpy(), dtype=object if value.dtype == tf.string else None)
    if array.dtype == object:
        data = np.array([b.decode("latin-1") for b in array.reshape(-1)],
                        dtype=object).reshape(array.shape).tolist()
    elif array.dtype.kind == "c":
        data = [_floats(array.real), _floats(array.imag)]
    else:
        data = _floats(array) if array.dtype.kind == "f" else array.tolist()
    return {"dtype": value.dtype.name, "shape": list(array.shape), "value": data}


def _floats(array):
    """A float array as nested lists, each value to the digits its dtype holds."""
    digits = 17 if array.dtype == np.float64 else 9
    rounded = np.vectorize(lambda v: float(f"{v:.{digits}g}"), otypes=[np.float64])
    return rounded(array.astype(np.float64)).tolist() if array.size else array.tolist()


def main():
    sigs = {n: signature(n) for n in dir(eagerflow.raw_ops)}
    tf_ops = sorted(n for n in dir(tf.raw_ops) if n[:1].isupper())
    results = {}
    for name, kwargs in samples(tf).items():
        try:
            results[name] = plain(kwargs() if callable(kwargs) else
                                  getattr(tf.raw_ops, name)(**kwargs))
        except Exception as e:  # noqa: BLE001 (a sample TF refuses: its error class)
            results[name] = {"error": type(e).__name__}
    grads = {}
    for name, kwargs in samples(tf).items():
        if callable(kwargs):
            continue
        try:
            found = gradients(tf, name, kwargs)
        except Exception as e:  # noqa: BLE001 (an op TF has no gradient for: its error class)
            grads[name] = {"error": type(e).__name__}
            continue
        if found is not None:
            grads[name] = {k: plain(g) for k, g in found.items()}
    sections = {"gradients": grads, "results": results, "signatures": sigs}
    lines = [f'"tf_ops": {json.dumps(tf_ops)}']  # (one op a line: diffs show the ops changed)
    for section, entries in sections.items():
        lines.append(f'"{section}": {{\n' + ",\n".join(
            f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
            for k, v in sorted(entries.items())) + "\n}")
    with open(os.path.join(HERE, "raw_ops.json"), "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main()
