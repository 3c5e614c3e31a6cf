"""Event files written here parse to the same summaries as TensorFlow's for the same calls.

The reference files in data/tf_events were written by TensorFlow with
make_reference.py; both sides run `reference_calls.calls`. Events are read with
eagerflow's own reader and messages (no tensorboard needed).
"""
import glob
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.summary.reference_calls import calls, export_trace

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "tf_events")
KINDS = sorted(calls(tf))


def read_events(logdir):
    """The events of the one event file in `logdir`."""
    (path,) = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    return [tf.compat.v1.Event.FromString(r) for r in tf.compat.v1.io.tf_record_iterator(path)]


def tensor_value(proto):
    """The array a summary's ``TensorProto`` holds."""
    dtype = tf.as_dtype(proto.dtype)
    return tf.io.parse_tensor(proto.SerializeToString(), dtype).numpy()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    root = tmp_path_factory.mktemp("events")
    results = {}
    for kind, run in calls(tf).items():
        writer = tf.summary.create_file_writer(str(root / kind))
        with writer.as_default():
            results[kind] = run()
        writer.close()
    return root, results


@pytest.mark.parametrize("kind", KINDS)
def test_events_match_tensorflow(written, kind):
    root, _ = written
    ours, theirs = read_events(root / kind), read_events(os.path.join(DATA, kind))
    assert len(ours) == len(theirs)
    assert ours[0].file_version == theirs[0].file_version == "brain.Event:2"
    assert ours[0].source_metadata == theirs[0].source_metadata
    for a, b in zip(ours[1:], theirs[1:]):
        assert a.step == b.step
        assert len(a.summary.value) == len(b.summary.value) == 1
        va, vb = a.summary.value[0], b.summary.value[0]
        assert va.tag == vb.tag
        assert va.metadata == vb.metadata, va.tag
        assert va.tensor.dtype == vb.tensor.dtype, va.tag
        assert va.tensor.tensor_shape == vb.tensor.tensor_shape, va.tag
        x, y = tensor_value(va.tensor), tensor_value(vb.tensor)
        if va.metadata.plugin_data.plugin_name == "images":
            # width and height, then PNGs: the same pixels (compressed as zlib chooses)
            assert list(x[:2]) == list(y[:2])
            for png_a, png_b in zip(x[2:], y[2:]):
                np.testing.assert_array_equal(tf.io.decode_png(png_a).numpy(),
                                              tf.io.decode_png(png_b).numpy())
        else:  # histogram buckets and WAV bytes included, exactly
            np.testing.assert_array_equal(x, y)
            assert va.tensor == vb.tensor, va.tag


def test_summaries_return_true(written):
    _, results = written
    for kind in ("scalars", "histograms", "images", "text", "audio", "write"):
        assert all(r.dtype == tf.bool and bool(r) for r in results[kind]), kind
    assert results["scopes"][3:] == ["inner", "inner/"]  # summary_scope's tag and scope


def test_traced_graph_is_exported_as_run_metadata(tmp_path):
    assert export_trace(tf, str(tmp_path)) is None  # (as TF: the summary is written)
    (ours,) = [e for e in read_events(tmp_path) if e.HasField("summary")]
    (theirs,) = [e for e in read_events(os.path.join(DATA, "graph")) if e.HasField("summary")]
    va, vb = ours.summary.value[0], theirs.summary.value[0]
    assert va.tag == vb.tag == "f_trace"
    assert va.metadata == vb.metadata
    run = tf.compat.v1.RunMetadata.FromString(va.tensor.string_val[0])
    reference = tf.compat.v1.RunMetadata.FromString(vb.tensor.string_val[0])
    assert len(run.function_graphs) == len(reference.function_graphs) == 1
    ops = {n.op for n in run.function_graphs[0].pre_optimization_graph.node}
    assert {"Mul", "AddV2", "Relu"} <= ops
    assert {"Mul", "AddV2", "Relu"} <= {n.op for n in reference.function_graphs[0]
                                        .partition_graphs[0].node}
