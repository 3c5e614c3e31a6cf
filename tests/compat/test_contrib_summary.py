"""``tf.contrib.summary`` (the eager guide's summaries) over ``tf.summary``: events as TF 1.x
wrote them, against TF's recorded v1 summaries (`data/make_v1_summary_data.py`)."""
import glob
import json
import os


import eagerflow as tf
import eagerflow.compat.v1 as tf1
import eagerflow.contrib.summary as summary
from tests import internals

from tests.compat.v1_summary_programs import VALUES

with open(os.path.join(os.path.dirname(__file__), "data", "v1_summary.json")) as _f:
    RECORDED = json.load(_f)["summaries"]


def _events(logdir):
    (path,) = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    return [e for e in tf1.train.summary_iterator(path) if e.WhichOneof("what") == "summary"]


def test_the_guides_loop_writes_every_n_global_steps(tmp_path):
    global_step = tf1.train.get_or_create_global_step()
    writer = summary.create_file_writer(str(tmp_path))
    writer.set_as_default()
    try:
        for _ in range(5):
            global_step.assign_add(1)
            with summary.record_summaries_every_n_global_steps(2):
                summary.scalar("loss", 3.0)
                summary.histogram("h0", VALUES[0])
        with summary.always_record_summaries():
            summary.generic("raw", tf.constant([1, 2]), step=9)
        with summary.never_record_summaries():
            assert not summary.scalar("loss", 1.0, step=10).numpy()
    finally:
        internals.summary_state.writer = None  # (else it stays the default)
        writer.close()
    events = _events(str(tmp_path))
    assert [e.step for e in events] == [2, 2, 4, 4, 9]
    # scalar and histogram values as TF 1's summaries, byte for byte
    assert events[0].summary.SerializeToString().hex() == RECORDED["values"][0]
    assert events[1].summary.SerializeToString().hex() == RECORDED["values"][4]
    raw = events[4].summary.value[0]
    assert raw.tag == "raw"
    assert tf.io.parse_tensor(raw.tensor.SerializeToString(), tf.int32).numpy().tolist() == [1, 2]


def test_without_a_writer_nothing_is_written():
    internals.summary_state.writer = None
    assert not summary.scalar("x", 1.0, step=0).numpy()
    assert summary.eval_dir("/m") == os.path.join("/m", "eval")
    assert summary.eval_dir("/m", "test") == os.path.join("/m", "eval_test")


def test_in_a_graph_the_summary_ops_run_with_the_session(tmp_path):
    g = tf1.Graph()
    with g.as_default():
        step = tf1.train.get_or_create_global_step()
        x = tf1.placeholder(tf.float32, [])
        writer = summary.create_file_writer(str(tmp_path))
        with writer.as_default(), summary.always_record_summaries():
            summary.scalar("loss", x * 2.0)
        increment = step.assign_add(1)
        ops = summary.all_summary_ops()
        assert len(ops) == 1
        close = writer.close()  # (in a graph, an op: the writer closes when it runs)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for _ in range(2):
                sess.run(increment)
                sess.run(ops, {x: 1.5})
            sess.run(close)
    events = _events(str(tmp_path))
    assert [e.step for e in events] == [1, 2]
    assert events[0].summary.SerializeToString().hex() == RECORDED["values"][0]
