"""Runs the GraphDefs eagerflow wrote (`make_eagerflow_graphs.py`) in real TensorFlow and
checks TF's outputs, and its variables after the call, against eagerflow's. Run with
TensorFlow's Python from the repository root:

    python tests/graph/graphdef_data/run_eagerflow_graphs_in_tf.py

Variables are fed as TF variables holding the same values (their handles feed the
graph's resource placeholders).
"""
import glob
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))


def _same(got, want):
    if want.dtype.kind in "OSU":
        return [bytes(v) for v in got.reshape(-1)] == \
            [v if isinstance(v, bytes) else str(v).encode() for v in want.reshape(-1)]
    return got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6,
                                                   equal_nan=True)


def check(path):
    gd = tf.compat.v1.GraphDef.FromString(open(path, "rb").read())
    data = np.load(path[:-3] + ".npz", allow_pickle=True)
    fn = tf.compat.v1.wrap_function(lambda: tf.compat.v1.import_graph_def(gd, name=""), [])
    resources = list(data["resources"])
    variables = [tf.Variable(data[f"var_before{i}"]) for i in range(len(resources))]
    feeds = [fn.graph.get_tensor_by_name(n) for n in data["feeds"]]
    feeds += [fn.graph.get_tensor_by_name(f"{r}:0") for r in resources]
    fetches = [fn.graph.get_tensor_by_name(n) for n in data["fetches"]]
    pruned = fn.prune(feeds, fetches)
    inputs = [data[f"in{i}"] for i in range(len(data["feeds"]))]
    got = pruned(*[tf.constant(a) for a in inputs], *[v.handle for v in variables])
    results = [_same(g.numpy(), data[f"out{i}"]) for i, g in enumerate(got)]
    results += [_same(v.numpy(), data[f"var_after{i}"]) for i, v in enumerate(variables)]
    return results


if __name__ == "__main__":
    for path in sorted(glob.glob(os.path.join(HERE, "ef_*.pb"))):
        results = check(path)
        print(f"{os.path.basename(path)}: {sum(results)}/{len(results)} outputs and variables "
              f"equal to eagerflow's{'' if all(results) else '  <-- DIFFERENT'}")
