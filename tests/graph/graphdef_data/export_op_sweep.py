"""Writes one GraphDef per registry-sweep spec (the spec traced in a function), with its
inputs and eagerflow's outputs, for `check_op_sweep_in_tf.py` to run in real TensorFlow.

    PYTHONPATH=src:. python tests/graph/graphdef_data/export_op_sweep.py OUT_DIR
"""
import os
import sys

import numpy as np

import eagerflow as tf
from tests.internals import graph_def as _graph_def
from tests.ops.specs import all_specs


def main(out):
    os.makedirs(out, exist_ok=True)
    failed = {}
    for i, spec in enumerate(all_specs()):
        args = [np.asarray(a) for a in spec.args]
        try:
            fn = tf.function(spec.fn)
            cf = fn.get_concrete_function(*[tf.TensorSpec(a.shape, tf.as_dtype(a.dtype))
                                            for a in args])
            outs = cf(*[tf.constant(a) for a in args])
            outs = outs if isinstance(outs, (list, tuple)) else [outs]
            gd = _graph_def.graph_to_graph_def(cf.graph)
        except Exception as e:  # noqa: BLE001 (a report, not a test)
            failed[spec.name] = f"{type(e).__name__}: {str(e)[:150]}"
            continue
        stem = os.path.join(out, f"{i:04d}_{spec.name}")
        with open(stem + ".pb", "wb") as f:
            f.write(gd.SerializeToString())
        np.savez(stem + ".npz", **{f"in{j}": a for j, a in enumerate(args)},
                 **{f"out{j}": np.asarray(o) for j, o in enumerate(outs)},
                 inputs=np.array([t.op.name for t in cf.inputs]),
                 outputs=np.array([t.name for t in cf.outputs]), op=spec.op)
    for name, why in sorted(failed.items()):
        print(f"not written: {name}: {why}")
    print(f"{len(failed)} specs not written")


if __name__ == "__main__":
    main(sys.argv[1])
