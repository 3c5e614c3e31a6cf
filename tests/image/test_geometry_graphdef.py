"""The ops of image_ops.py and image_codecs.py in TF's GraphDef: TF's graph of
geometry_graph.py's program (gradient ops included) runs here with TF's results, and
eagerflow's graph of it reads back as it was written."""
import importlib.util

import numpy as np
import pytest

import eagerflow as tf
from tests.image.geometry_graph import GRAPH, graph_program, inputs

pytestmark = pytest.mark.skipif(importlib.util.find_spec("PIL") is None,
                                reason="the program decodes through Pillow")


def _run(gd, feeds, fetches, args):
    wrapped = tf.compat.v1.wrap_function(lambda: tf.compat.v1.import_graph_def(gd, name=""), [])
    return wrapped.prune(list(feeds), list(fetches))(*[tf.constant(a) for a in args])


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=3e-5, atol=3e-5)
    else:
        np.testing.assert_array_equal(got, want)


def test_tfs_graph_runs_with_tfs_results():
    with open(GRAPH + ".pb", "rb") as f:
        gd = tf.compat.v1.GraphDef.FromString(f.read())
    data = np.load(GRAPH + ".npz")
    ops = {n.op for n in gd.node}
    assert {"ResizeBilinear", "ResizeBilinearGrad", "ResizeNearestNeighbor",
            "ResizeNearestNeighborGrad", "ResizeBicubic", "ResizeBicubicGrad", "ResizeArea",
            "ScaleAndTranslate", "ScaleAndTranslateGrad", "CropAndResize",
            "CropAndResizeGradImage", "CropAndResizeGradBoxes", "ExtractImagePatches",
            "DecodePng", "DecodeJpeg", "DecodeImage", "DecodeGif", "DecodeBmp", "EncodePng",
            "EncodeJpeg", "ExtractJpegShape", "DrawBoundingBoxesV2",
            "EncodeJpegVariableQuality"} <= ops
    outs = _run(gd, data["feeds"], data["fetches"], inputs())
    assert len(outs) == len(data["fetches"])
    for i, got in enumerate(outs):
        _same(got, data[f"out{i}"])


def test_our_graph_reads_back():
    args = inputs()
    concrete = tf.function(lambda *xs: graph_program(tf, *xs)).get_concrete_function(
        *[tf.TensorSpec(np.shape(a), tf.string if a.dtype == object else tf.as_dtype(a.dtype))
          for a in args])
    gd = tf.compat.v1.GraphDef.FromString(concrete.graph.as_graph_def().SerializeToString())
    feeds = [t.name for t in concrete.inputs[:len(args)]]  # (the arguments': not captures)
    outs = _run(gd, feeds, [t.name for t in concrete.outputs], args)
    for got, want in zip(outs, concrete(*[tf.constant(a) for a in args])):
        _same(got, want)
