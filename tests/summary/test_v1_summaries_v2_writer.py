"""TF 1's summaries (``tf.compat.v1.summary``) outside TF 1's graph mode go to TF 2's
default writer, as TF 2 sends them: tagged as TF 1 tags them, at TF 2's step (or TF 1's
global step), returning an empty string. The expected events were read from the files
TensorFlow 2.21 writes for the same calls."""
import glob
import os
import warnings

import numpy as np
import pytest

import eagerflow as tf

v1 = tf.compat.v1


def summaries(logdir):
    """(step, tag, plugin, value) of each summary in `logdir`'s event file."""
    (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
    out = []
    for e in tf.compat.v1.train.summary_iterator(path):
        for v in e.summary.value:
            value = tf.make_ndarray(v.tensor)
            if v.metadata.plugin_data.plugin_name in ("images", "audio"):
                value = value.shape
            else:
                value = value.tolist()
            out.append((e.step, v.tag, v.metadata.plugin_data.plugin_name, value))
    return out


def test_v1_summaries_write_to_the_default_writer(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path)).as_default(step=2):
        with tf.name_scope("outer"):
            results = [
                v1.summary.scalar("s", 1.0),
                v1.summary.scalar("s", 1.0, family="fam"),
                v1.summary.histogram("h", [1.0, 3.0], family="fam"),
                v1.summary.text("t", tf.constant("a")),
                v1.summary.image("i", np.zeros((2, 1, 1, 3), np.uint8), max_outputs=1,
                                 family="f2"),
            ]
        results.append(v1.summary.scalar("a b", 1.0))
        results.append(v1.summary.audio("a2", tf.zeros([1, 4]), 100))  # (channels added)

        @tf.function
        def f(x):
            with tf.name_scope("fn"):
                return v1.summary.scalar("inner", x)

        results += [f(tf.constant(1.0)), f(tf.constant(2.0))]
        with tf.summary.record_if(False):
            results.append(v1.summary.scalar("not_recorded", 1.0))
        with pytest.raises(ValueError, match=r"^Expected scalar shape, saw shape: \(2,\)\.$"):
            v1.summary.scalar("vector", [1.0, 2.0])
    assert [(r.dtype, r.numpy()) for r in results] == [(tf.string, b"")] * len(results)
    written = summaries(tmp_path)
    histogram = written.pop(2)
    assert histogram[:3] == (2, "fam/outer/fam/h", "histograms")
    assert np.array(histogram[3]).shape == (30, 3)
    assert written == [
        (2, "outer/s", "scalars", 1.0),
        (2, "fam/outer/fam/s", "scalars", 1.0),
        (2, "outer/t", "text", b"a"),
        (2, "f2/outer/f2/i", "images", (3,)),
        (2, "a_b", "scalars", 1.0),
        (2, "a2", "audio", (1, 2)),
        (2, "fn/inner", "scalars", 1.0),
        (2, "fn/inner", "scalars", 2.0),
    ]


def test_without_a_writer_or_step_they_stay_tf1_summaries():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = v1.summary.scalar("a", 1.0)
    assert v1.Summary.FromString(value.numpy()).value[0].simple_value == 1.0
    assert [str(w.message) for w in caught] == [
        "Cannot activate TF2 compatibility support for TF1 summary ops: default summary "
        "writer not found."]
    with tf.summary.create_noop_writer().as_default(step=1), \
            pytest.warns(UserWarning, match="default summary writer not found"):
        assert v1.summary.scalar("a", 1.0).numpy() != b""  # (a no-op writer is no default)


def test_step_unset_warns_and_global_step_counts(tmp_path):
    with tf.summary.create_file_writer(str(tmp_path / "none")).as_default():
        with pytest.warns(UserWarning, match="global step not set"):
            value = v1.summary.histogram("h", [1.0])
        assert v1.Summary.FromString(value.numpy()).value[0].histo.num == 1
    step = v1.train.get_or_create_global_step()  # (eagerly: the step when none is set)
    try:
        with tf.summary.create_file_writer(str(tmp_path / "global")).as_default():
            step.assign(7)
            assert v1.summary.scalar("at_global_step", 1.0).numpy() == b""
    finally:
        v1.get_default_graph().clear_collection(v1.GraphKeys.GLOBAL_STEP)
    assert summaries(tmp_path / "global") == [(7, "at_global_step", "scalars", 1.0)]


def test_tf1_graph_mode_is_unchanged(tmp_path):
    graph = tf.Graph()
    with graph.as_default(), tf.summary.create_file_writer(str(tmp_path)).as_default(step=1):
        value = v1.summary.scalar("loss", tf.constant(0.5))
        assert value.op.type == "ScalarSummary"
        with v1.Session() as sess:
            assert v1.Summary.FromString(sess.run(value)).value[0].simple_value == 0.5


def test_tf2_summaries_in_a_tf1_graph_run_with_the_session(tmp_path):
    # TF's migration guide's pattern: TF 2 summary ops built into a TF 1 graph, run by
    # fetching them (each summary's result, or all_v2_summary_ops), with the writer's
    # init, flush and close ops
    with tf.Graph().as_default():
        step = tf.Variable(0, dtype=tf.int64)
        step_update = step.assign_add(1)
        x = v1.placeholder(tf.float32, [])
        writer = tf.summary.create_file_writer(str(tmp_path))
        with writer.as_default():
            loss = tf.summary.scalar("loss", x, step=step)
            tf.summary.histogram("h", tf.stack([x, x + 1.0]), step=step, buckets=2)
            with tf.summary.record_if(x > 0):
                tf.summary.scalar("positive", x, step=step)
        all_summary_ops = v1.summary.all_v2_summary_ops()
        writer_flush = writer.flush()
        writer_close = writer.close()
        assert len(all_summary_ops) == 3
        with v1.Session() as sess:
            assert sess.run([writer.init(), step.initializer]) == [None, None]
            assert sess.run(loss, {x: 0.5})  # (the fetched result writes its summary)
            sess.run(step_update)
            sess.run(all_summary_ops, {x: -1.0})
            sess.run(writer_flush)
            assert sorted((s, tag) for s, tag, _, _ in summaries(tmp_path)) == [
                (0, "loss"), (1, "h"), (1, "loss")]
            sess.run(step_update)
            sess.run(all_summary_ops, {x: 2.0})
            sess.run(writer_close)
    # (the ops of one run in any order, as TF's session runs them)
    assert sorted((s, tag, value) for s, tag, _, value in summaries(tmp_path)[-3:]) == [
        (2, "h", [[2.0, 2.5, 1.0], [2.5, 3.0, 1.0]]), (2, "loss", 2.0), (2, "positive", 2.0)]


def test_initialize_checks_the_writer_and_session_and_writes_the_graph(tmp_path):
    with tf.Graph().as_default() as graph:
        tf.constant(1.0) + 2.0
        writer = tf.summary.create_file_writer(str(tmp_path))
        with pytest.raises(RuntimeError, match="^No default tf.contrib.summary.SummaryWriter"):
            v1.summary.initialize()
        with writer.as_default():
            with pytest.raises(ValueError, match="session must be passed if no default"):
                v1.summary.initialize()
            with v1.Session():
                assert v1.summary.initialize(graph=graph) is None
    writer.close()
    (path,) = glob.glob(os.path.join(str(tmp_path), "events.out.tfevents.*"))
    events = list(v1.train.summary_iterator(path))
    assert [(e.step, e.WhichOneof("what")) for e in events] == [
        (0, "file_version"), (0, "graph_def")]
    ops = {n.op for n in tf.compat.v1.GraphDef.FromString(events[1].graph_def).node}
    assert "AddV2" in ops
    assert v1.summary.initialize() is None  # (eagerly: nothing to do)
