"""A TensorFlow function of the parsing and io ops (Example and SequenceExample parsing,
CSV, raw bytes, tensor serialization, base64), written by TF 2.21 as a GraphDef
(data/tf_io_graph.pb, by data/make_reference.py), imported and run here: TF's results."""
import os
import pathlib

import numpy as np

import eagerflow as tf
from tests.io.test_tf_record import DATA, REFERENCE


def _value(result):
    if result["dtype"] == "string":
        array = np.empty(len(result["hex"]), object)
        array[:] = [bytes.fromhex(v) for v in result["hex"]]
        return array.reshape(result["shape"])
    return np.array(result["values"], result["dtype"]).reshape(result["shape"])


def test_tensorflows_graph_of_io_ops_runs_here():
    graph = REFERENCE["graph"]
    gd = tf.compat.v1.GraphDef.FromString(
        pathlib.Path(os.path.join(DATA, "tf_io_graph.pb")).read_bytes())
    fn = tf.compat.v1.wrap_function(lambda: tf.compat.v1.import_graph_def(gd, name=""), [])
    pruned = fn.prune(graph["inputs"], graph["outputs"])
    args = [[bytes.fromhex(v) for v in a] if isinstance(a, list) else bytes.fromhex(a)
            for a in graph["args"]]
    got = pruned(*[tf.constant(a) for a in args])
    assert len(got) == len(graph["results"])
    for g, want in zip(got, graph["results"]):
        want = _value(want)
        g = np.asarray(g)
        assert g.shape == want.shape and g.dtype == want.dtype
        if want.dtype == object:
            assert g.tolist() == want.tolist()
        else:
            np.testing.assert_array_equal(g, want)
