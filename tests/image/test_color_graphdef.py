"""The registered image ops in TF's GraphDef: TF's graph (written by record_tf_color.py) runs
here with TF's results, and eagerflow's graph reads back as it was written."""

import numpy as np

import eagerflow as tf
from tests.image.color_cases import INPUTS
from tests.image.record_tf_color import GRAPH, GRAPH_INPUTS, graph_program


def _run(gd, feeds, fetches, args):
    wrapped = tf.compat.v1.wrap_function(
        lambda: tf.compat.v1.import_graph_def(gd, name=""), [])
    return wrapped.prune(list(feeds), list(fetches))(*[tf.constant(a) for a in args])


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_tfs_graph_runs_with_tfs_results():
    with open(GRAPH + ".pb", "rb") as f:
        gd = tf.compat.v1.GraphDef.FromString(f.read())
    data = np.load(GRAPH + ".npz")
    ops = {n.op for n in gd.node}
    assert {"RGBToHSV", "HSVToRGB", "AdjustHue", "AdjustSaturation", "AdjustContrastv2",
            "NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5",
            "NonMaxSuppressionWithOverlaps", "CombinedNonMaxSuppression"} <= ops
    outs = _run(gd, data["feeds"], data["fetches"], [INPUTS[k] for k in GRAPH_INPUTS])
    for i, got in enumerate(outs):
        _same(got, data[f"out{i}"])


def test_our_graph_reads_back():
    args = [INPUTS[k] for k in GRAPH_INPUTS]
    concrete = tf.function(lambda *xs: graph_program(tf, *xs)).get_concrete_function(
        *[tf.TensorSpec(a.shape, tf.as_dtype(a.dtype)) for a in args])
    gd = tf.compat.v1.GraphDef.FromString(concrete.graph.as_graph_def().SerializeToString())
    feeds = [t.name for t in concrete.inputs[:len(args)]]  # (the arguments': not captures)
    outs = _run(gd, feeds, [t.name for t in concrete.outputs], args)
    for got, want in zip(outs, concrete(*[tf.constant(a) for a in args])):
        _same(got, want)
