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
    # (eagerly, as TF's: the op's node is named by its type, and the text ends with no name;
    # the first value not finite says which)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r" Nan in summary histogram for: HistogramSummary "
                             r"\[Op:HistogramSummary\]$"):
        tf1.summary.histogram("h", [1.0, np.nan, np.inf])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r" Infinity in Histogram for: HistogramSummary "):
        tf1.summary.histogram("h", [1.0, np.inf, np.nan])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r" tags and values are not the same shape: \[\] != \[2\] "
                             r"\(tag 'f/f/s'\) \[Op:ScalarSummary\]$"):
        tf1.summary.scalar("s", [1.0, 2.0], family="f")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r" sample_rate must be rank-0 or contain a single value "
                             r"\[Op:AudioSummaryV2\]$"):
        tf1.summary.audio("a", tf.zeros([1, 2, 1]), tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="to have dtype string, got <dtype: 'int32'>$"):
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



def test_summary_ops_in_graphs_check_as_tfs():
    g = tf1.Graph()
    with g.as_default():
        values = tf1.placeholder(tf.float32, None)
        # (as TF's: the histogram's error names its node; shapes are checked when run)
        histogram = tf1.summary.histogram("h", values, family="f")
        scalar = tf1.summary.scalar("vec", values)
        rate = tf1.placeholder(tf.float32, None)
        audio = tf1.summary.audio("a", tf.zeros([1, 3, 1]), rate)
        with pytest.raises(TypeError, match=r"^Value passed to parameter 'values' has DataType "
                                            r"bool not in list of allowed values: float32, "
                                            r"float64, int32, uint8, int16, int8, int64, "):
            tf1.summary.histogram("b", tf.constant([True]))
        with pytest.raises(ValueError, match=r"^List argument 'inputs' to 'MergeSummary' Op "
                                             r"with length 0 shorter than minimum length 1\.$"):
            tf1.summary.merge([])
    with tf1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Nan in summary histogram for: f/h\n"):
            sess.run(histogram, {values: [np.nan]})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"tags and values are not the same shape: \[\] != \[2\] "
                                 r"\(tag 'vec'\)"):
            sess.run(scalar, {values: [1.0, 2.0]})
        assert tf1.Summary.FromString(sess.run(scalar, {values: 3.0})).value[0].simple_value \
            == 3.0
        for one in ([8000.0], [[8000.0]]):  # (a rate of one element, of any rank)
            summary = tf1.Summary.FromString(sess.run(audio, {rate: one}))
            assert summary.value[0].audio.sample_rate == 8000.0

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
    assert tf1.summary.get_summary_description(node) == tf1.summary.SummaryDescription(
        type_hint="scalar")
    assert not hasattr(tf1, "SummaryDescription")  # (TF names it under summary only)
    with pytest.raises(ValueError, match="^Can't get_summary_description on ScalarSummary$"):
        tf1.summary.get_summary_description(tf1.NodeDef(op="ScalarSummary"))


def _summary(tag, **value):
    return tf1.Summary(value=[tf1.Summary.Value(tag=tag, **value)])


def test_file_writer_events_reach_the_file_without_close(tmp_path):
    # (as TF's: at exit, and when no one holds the writer any more)
    import gc
    import subprocess
    import sys
    code = ("import eagerflow.compat.v1 as tf1\n"
            "with tf1.Graph().as_default():\n"
            f"    w = tf1.summary.FileWriter({str(tmp_path / 'exit')!r})\n"
            "w.add_summary(tf1.Summary(value=[tf1.Summary.Value(tag='s', simple_value=1.0)]), 3)\n")
    src = os.path.join(os.path.dirname(tf.__file__), "..")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120,
                   env=dict(os.environ, PYTHONPATH=os.path.abspath(src)))
    assert [(e.step, [v.tag for v in e.summary.value]) for e in _events(tmp_path / "exit")] \
        == [(0, []), (3, ["s"])]

    def write():
        with tf1.Graph().as_default():
            tf1.summary.FileWriter(str(tmp_path / "dropped")).add_summary(
                _summary("d", simple_value=2.0), 4)

    write()
    gc.collect()
    assert [e.step for e in _events(tmp_path / "dropped")] == [0, 4]


def test_file_writer_add_graph_warns_and_checks_as_tfs(tmp_path, caplog):
    g = tf1.Graph()
    with g.as_default():
        tf.constant(1.0, name="c")
        writer = tf1.summary.FileWriter(str(tmp_path))
    with caplog.at_level("WARNING", logger="tensorflow"):
        writer.add_graph(g.as_graph_def(), global_step=1)
        writer.add_graph(None, graph_def=g, global_step=2)
    assert [r.getMessage() for r in caplog.records] == [
        "Passing a `GraphDef` to the SummaryWriter is deprecated. Pass a `Graph` object "
        "instead, such as `sess.graph`.",
        "When passing a `Graph` object, please use the `graph` named argument instead of "
        "`graph_def`."]
    with pytest.raises(TypeError, match=r"^The passed graph must be an instance of `Graph` "
                                        r"or the deprecated `GraphDef`$"):
        writer.add_graph("graph")
    with pytest.raises(TypeError, match="^meta_graph_def must be type MetaGraphDef, saw type: "):
        writer.add_meta_graph(g.as_graph_def())
    writer.close()
    assert [(e.step, e.WhichOneof("what")) for e in _events(tmp_path)] == [
        (0, "file_version"), (1, "graph_def"), (2, "graph_def")]
    with pytest.warns(UserWarning, match="^Attempting to use a closed FileWriter"):
        writer.flush()
    with g.as_default(), pytest.raises(TypeError, match="^graph_def must be of type GraphDef"):
        tf1.summary.FileWriter(str(tmp_path / "b"), graph_def=g)


def test_file_writer_writes_metadata_only_with_a_tags_first_value(tmp_path):
    metadata = tf1.SummaryMetadata(plugin_data=tf1.SummaryMetadata.PluginData(
        plugin_name="scalars"))
    with tf1.Graph().as_default():
        writer = tf1.summary.FileWriter(str(tmp_path))
    writer.add_summary(_summary("plain", simple_value=1.0), 1)
    writer.add_summary(_summary("plain", simple_value=2.0, metadata=metadata), 2)
    writer.add_summary(_summary("meta", simple_value=3.0, metadata=metadata), 3)
    writer.add_summary(_summary("meta", simple_value=4.0, metadata=metadata), 4)
    writer.close()
    assert [v.HasField("metadata") for e in _events(tmp_path)[1:] for v in e.summary.value] \
        == [False, False, True, False]
