"""Records TensorFlow's outputs of the cases of geometry_cases.py and codec_cases.py (run once
with a TensorFlow install; the output is checked in):

    /root/tfvenv/bin/python -m tests.image.record_tf

Writes data/geometry_tf.npz and data/codecs_tf.npz: per case, its output arrays as
``<case>#<i>`` (string outputs as bytes arrays), or ``<case>#error`` with the exception's
class name when TF raised; and data/tf_geometry_graph.pb/.npz, TF's GraphDef of
geometry_graph.py's program with its outputs.
"""
import os

import numpy as np

from tests.image import codec_cases, geometry_cases, geometry_graph

DATA = os.path.join(os.path.dirname(__file__), "data")


def record(tf, cases):
    out = {}
    for name, fn in cases.items():
        try:
            result = fn(tf)
        except Exception as e:  # noqa: BLE001 (recorded)
            out[f"{name}#error"] = np.array(type(e).__name__)
            continue
        results = result if isinstance(result, tuple) else (result,)
        for i, r in enumerate(results):
            value = r.numpy()
            out[f"{name}#{i}"] = np.array(value, dtype=object) if isinstance(value, bytes) \
                else value
    return out


def _save(path, arrays):
    strings = {k: v for k, v in arrays.items() if v.dtype == object}
    plain = {k: v for k, v in arrays.items() if v.dtype != object}
    for k, v in strings.items():  # npz without pickles: a string scalar as uint8 bytes
        plain[k + "@bytes"] = np.frombuffer(v.item(), np.uint8)
    np.savez_compressed(path, **plain)


def record_graph(tf):
    """TF's GraphDef of geometry_graph's program, and its inputs' names and outputs."""
    args = geometry_graph.inputs()
    concrete = tf.function(lambda *xs: geometry_graph.graph_program(tf, *xs)) \
        .get_concrete_function(*[tf.TensorSpec(np.shape(a), tf.as_dtype(
            tf.string if a.dtype == object else a.dtype)) for a in args])
    with open(geometry_graph.GRAPH + ".pb", "wb") as f:
        f.write(concrete.graph.as_graph_def().SerializeToString())
    outs = concrete(*[tf.constant(a) for a in args])
    np.savez_compressed(geometry_graph.GRAPH + ".npz",
                        feeds=np.array([t.name for t in concrete.inputs]),
                        fetches=np.array([t.name for t in concrete.outputs]),
                        **{f"out{i}": o.numpy() for i, o in enumerate(outs)})


def main():
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
    _save(os.path.join(DATA, "geometry_tf.npz"), record(tf, geometry_cases.CASES))
    _save(os.path.join(DATA, "codecs_tf.npz"), record(tf, codec_cases.CASES))
    record_graph(tf)


if __name__ == "__main__":
    main()
