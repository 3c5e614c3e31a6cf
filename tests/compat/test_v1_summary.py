"""TF 1's summaries (``tf.compat.v1.summary``) and `FileWriter`, against TF's recorded
results (`data/make_v1_summary_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_summary_programs import audio, file_writer, summaries

with open(os.path.join(os.path.dirname(__file__), "data", "v1_summary.json")) as _f:
    RECORDED = json.load(_f)


def test_summary_ops_serialize_as_tfs_with_its_names_tags_and_collection():
    assert summaries(tf1) == RECORDED["summaries"]


def test_file_writer_events_are_tfs():
    got, want = file_writer(tf1), RECORDED["file_writer"]
    assert got == want


def test_audio_summaries_and_the_event_file_name_are_tfs():
    assert audio(tf1) == RECORDED["audio"]


def test_audio_summary_errors_are_tfs():
    g = tf1.Graph()
    with g.as_default():
        flat = tf1.summary.audio("bad", tf.zeros([2]), 8000)
    with tf1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Tensor must be 3-D or 2-D, got: \[2\]"):
            sess.run(flat)


def test_summary_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Nan in summary histogram for: h"):
        tf1.summary.histogram("h", [1.0, np.nan])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Infinity in Histogram for: h"):
        tf1.summary.histogram("h", [1.0, np.inf])
    with pytest.raises(ValueError, match="to have dtype string, got"):
        tf1.summary.text("bad", tf.constant(1))
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf1.summary.merge_all()
    with pytest.raises(RuntimeError, match="FileWriter is not compatible with eager"):
        tf1.summary.FileWriter("/tmp/unused")
    g = tf1.Graph()
    with g.as_default():
        a = tf1.summary.scalar("a", 1.0)
        twice = tf1.summary.merge([a, a])
        garbage = tf1.summary.merge([tf.constant(b"\xff\xff")])
    with tf1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Duplicate tag a found in summary inputs"):
            sess.run(twice)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Could not parse one of the summary inputs"):
            sess.run(garbage)


def test_eager_scalar_is_its_serialized_summary():
    assert tf1.summary.scalar("eager", 1.5).numpy() == b"\n\x0c\n\x05eager\x15\x00\x00\xc0?"


def _events(logdir):
    import glob
    (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
    return [tf.compat.v1.Event.FromString(r) for r in tf1.io.tf_record_iterator(path)]


def test_file_writer_writes_the_meta_graph_only_when_made_with_a_graph(tmp_path):
    # (as TF: add_graph writes the GraphDef alone, with its shapes; the constructor adds
    # the meta graph)
    g = tf1.Graph()
    with g.as_default():
        tf.constant([1.0, 2.0], name="c")
        writer = tf1.summary.FileWriter(str(tmp_path), graph=g)
        writer.add_graph(g, global_step=3)
        writer.add_graph(g.as_graph_def(), global_step=4)
        writer.close()
    kinds = [(e.step, e.WhichOneof("what")) for e in _events(tmp_path)]
    assert kinds == [(0, "file_version"), (0, "graph_def"), (0, "meta_graph_def"),
                     (3, "graph_def"), (4, "graph_def")]
    (node,) = tf1.GraphDef.FromString(_events(tmp_path)[3].graph_def).node
    assert [d.size for d in node.attr["_output_shapes"].list.shape[0].dim] == [2]


def test_a_closed_file_writer_warns_and_writes_nothing(tmp_path):
    with tf1.Graph().as_default():
        writer = tf1.summary.FileWriter(str(tmp_path))
    writer.close()
    with pytest.warns(UserWarning, match=r"^Attempting to use a closed FileWriter\. The "
                                         r"operation will be a noop unless the FileWriter is "
                                         r"explicitly reopened\.$"):
        writer.add_summary(tf1.Summary(value=[tf1.Summary.Value(tag="a", simple_value=1.0)]))
    assert [e.WhichOneof("what") for e in _events(tmp_path)] == ["file_version"]


def test_get_summary_description():
    node = tf1.NodeDef(op="TensorSummary")
    node.attr["description"].s = b'{"typeHint": "scalar"}'
    assert tf1.summary.get_summary_description(node) == tf1.SummaryDescription(
        type_hint="scalar")
    with pytest.raises(ValueError, match="^Can't get_summary_description on ScalarSummary$"):
        tf1.summary.get_summary_description(tf1.NodeDef(op="ScalarSummary"))
