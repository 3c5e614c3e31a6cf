"""Runs the GraphDefs `export_op_sweep.py` wrote in real TensorFlow and compares the
outputs with eagerflow's. Run with TensorFlow's Python:

    python tests/graph/graphdef_data/check_op_sweep_in_tf.py OUT_DIR
"""
import collections
import glob
import sys

import numpy as np
import tensorflow as tf


def run(stem):
    gd = tf.compat.v1.GraphDef.FromString(open(stem + ".pb", "rb").read())
    data = np.load(stem + ".npz", allow_pickle=True)
    fn = tf.compat.v1.wrap_function(lambda: tf.compat.v1.import_graph_def(gd, name=""), [])
    feeds = [fn.graph.get_tensor_by_name(f"{n}:0") for n in data["inputs"]]
    fetches = [fn.graph.get_tensor_by_name(n) for n in data["outputs"]]
    pruned = fn.prune(feeds, fetches)
    got = pruned(*[tf.constant(data[f"in{i}"]) for i in range(len(feeds))])
    for i, g in enumerate(got):
        want = np.asarray(data[f"out{i}"])
        g = np.asarray(g.numpy())
        if want.dtype.kind in "fc":
            np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-5)
        elif want.dtype.kind in "OSU":
            assert [x if isinstance(x, bytes) else str(x).encode() for x in g.reshape(-1)] == \
                [x if isinstance(x, bytes) else str(x).encode() for x in want.reshape(-1)]
        elif str(data["op"]) not in ("RandomUniformInt", "Multinomial"):
            np.testing.assert_array_equal(g, want)


def main(out):
    results = collections.Counter()
    for pb in sorted(glob.glob(f"{out}/*.pb")):
        stem = pb[:-3]
        try:
            run(stem)
            results["ok"] += 1
        except Exception as e:  # noqa: BLE001
            results["failed"] += 1
            first = str(e).strip().splitlines()[0][:200] if str(e).strip() else ""
            print(f"{stem.split('/')[-1]}: {type(e).__name__}: {first}")
    print(dict(results))


if __name__ == "__main__":
    main(sys.argv[1])
