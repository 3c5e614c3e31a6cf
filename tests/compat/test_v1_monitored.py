"""TF 1's monitored sessions and session-run hooks against TF's recorded results
(`data/make_v1_monitored_data.py`)."""
import json
import logging
import os

import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_monitored_programs import PROGRAMS

with open(os.path.join(os.path.dirname(__file__), "data", "v1_monitored.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_give_tfs_results(name, tmp_path):
    assert PROGRAMS[name](tf1, str(tmp_path)) == RECORDED[name]


def test_hook_arguments_are_checked_as_tf_checks_them():
    with pytest.raises(ValueError, match="One of num_steps or last_step must be specified"):
        tf1.train.StopAtStepHook()
    with pytest.raises(ValueError, match="Only one of num_steps or last_step"):
        tf1.train.StopAtStepHook(num_steps=1, last_step=2)
    with pytest.raises(ValueError, match="exactly one of save_secs or save_steps"):
        tf1.train.CheckpointSaverHook("/tmp/x")
    with pytest.raises(ValueError, match="either at_end and/or exactly one of every_n_iter"):
        tf1.train.LoggingTensorHook({})


def test_a_hook_needing_the_global_step_fails_without_one():
    with tf1.Graph().as_default():
        tf1.Variable(1.0)
        with pytest.raises(RuntimeError, match="Global step should be created to use "
                                               "StopAtStepHook"):
            tf1.train.MonitoredSession(hooks=[tf1.train.StopAtStepHook(num_steps=1)])


def test_the_graph_is_finalized_and_feeds_of_hooks_join_the_run():
    with tf1.Graph().as_default() as g:
        x = tf1.placeholder(tf.float32, [])
        y = tf1.placeholder(tf.float32, [])
        total = x + y

        class Feed(tf1.train.SessionRunHook):
            def before_run(self, run_context):
                return tf1.train.SessionRunArgs(total, feed_dict={y: 10.0})

            def after_run(self, run_context, run_values):
                self.seen = float(run_values.results)

        hook = Feed()
        with tf1.train.MonitoredSession(hooks=[hook]) as sess:
            assert float(sess.run(total, feed_dict={x: 1.0})) == 11.0
            assert hook.seen == 11.0
            with pytest.raises(RuntimeError, match="Graph is finalized"):
                tf.constant(1.0)
            assert g.finalized
        assert not g.finalized  # (closing gives the graph back as it was, as TF's does)
        tf.constant(1.0)


def test_monitored_training_session_writes_step_rate_and_merged_summaries(tmp_path):
    # Events as TF 2.21 writes them for this program: a START session log and the merged
    # summaries at step 1, then summaries (tags from the summary ops' names, `loss_1` as
    # `loss` names the square) and `global_step/sec` every 2 steps.
    g = tf1.Graph()
    with g.as_default():
        step = tf1.train.get_or_create_global_step()
        w = tf1.Variable(1.0, name="w")
        loss = tf1.square(w, name="loss")
        tf1.summary.scalar("loss", loss)
        tf1.summary.scalar("w", w)
        train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        with tf1.train.MonitoredTrainingSession(
                checkpoint_dir=str(tmp_path), save_summaries_steps=2,
                save_checkpoint_steps=3, log_step_count_steps=2) as sess:
            for _ in range(5):
                sess.run(train)
    tf1.summary.FileWriterCache.clear()
    files = sorted(f for f in os.listdir(tmp_path) if f.startswith("events.out.tfevents."))
    assert len(files) == 1
    seen = []
    for record in tf1.io.tf_record_iterator(str(tmp_path / files[0])):
        event = tf1.Event.FromString(record)
        if event.HasField("session_log"):
            seen.append((event.step, tf1.SessionLog.SessionStatus.Name(event.session_log.status)))
        elif event.HasField("graph_def") or event.HasField("meta_graph_def"):
            seen.append((event.step, event.WhichOneof("what")))
        elif event.HasField("summary"):
            seen.append((event.step, [v.tag if v.tag == "global_step/sec" else
                                      (v.tag, round(v.simple_value, 4))
                                      for v in event.summary.value]))
    # (the graph twice: written by the event file's writer, then by the checkpoint saver,
    # which logs each checkpoint)
    assert seen == [(0, "graph_def"), (0, "meta_graph_def"), (0, "graph_def"),
                    (0, "meta_graph_def"), (0, "CHECKPOINT"),
                    (1, "START"), (1, [("loss_1", 1.0), ("w_1", 1.0)]),
                    (3, ["global_step/sec"]), (3, [("loss_1", 0.4096), ("w_1", 0.64)]),
                    (3, "CHECKPOINT"),
                    (5, ["global_step/sec"]), (5, [("loss_1", 0.1678), ("w_1", 0.4096)]),
                    (5, "CHECKPOINT")]
    assert os.path.exists(tmp_path / "graph.pbtxt")


def test_checkpoint_saver_writes_the_graph_without_warning(tmp_path, caplog):
    # TF's saver hook gives its writer the graph itself: nothing is logged about passing a
    # GraphDef (we warned once per session that it was deprecated).
    g = tf1.Graph()
    with g.as_default():
        step = tf1.train.get_or_create_global_step()
        train = tf1.assign_add(step, 1)
        with caplog.at_level(logging.WARNING):
            with tf1.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path),
                                                    save_summaries_steps=None,
                                                    save_summaries_secs=None) as sess:
                sess.run(train)
    tf1.summary.FileWriterCache.clear()
    assert "GraphDef" not in caplog.text
    assert os.path.exists(tmp_path / "graph.pbtxt")


def test_monitored_training_session_logs_its_steps_as_tf(tmp_path, caplog):
    # TF's INFO log of a monitored session that saves, then of one that resumes.
    logs = []
    for _ in range(2):
        g = tf1.Graph()
        with g.as_default():
            step = tf1.train.get_or_create_global_step()
            train = tf1.assign_add(step, 1)
            with caplog.at_level(logging.INFO, logger="tensorflow"):
                caplog.clear()
                with tf1.train.MonitoredTrainingSession(
                        checkpoint_dir=str(tmp_path), save_summaries_steps=None,
                        save_summaries_secs=None, log_step_count_steps=None) as sess:
                    sess.run(train)
            logs.append([r.getMessage().replace(str(tmp_path), "DIR") for r in caplog.records
                         if r.name == "tensorflow" and r.levelno == logging.INFO])
    tf1.summary.FileWriterCache.clear()
    saves = ["Calling checkpoint listeners before saving checkpoint {0}...",
             "Saving checkpoints for {0} into DIR/model.ckpt.",
             "Calling checkpoint listeners after saving checkpoint {0}..."]
    start = ["Running local_init_op.", "Done running local_init_op."]
    assert logs[0] == ["Create CheckpointSaverHook.", "Graph was finalized.", *start,
                       *[m.format(0) for m in saves], *[m.format(1) for m in saves]]
    assert logs[1] == ["Create CheckpointSaverHook.", "Graph was finalized.",
                       "Restoring parameters from DIR/model.ckpt-1", *start,
                       *[m.format(1) for m in saves], *[m.format(2) for m in saves]]


def test_run_step_fn_gives_the_raw_session_and_runs_with_hooks_as_tf():
    g = tf1.Graph()
    with g.as_default():
        step = tf1.train.get_or_create_global_step()
        inc = tf1.assign_add(step, 1)
        seen = []

        class Hook(tf1.train.SessionRunHook):
            def after_run(self, run_context, run_values):
                seen.append("hook")

        def both(step_context):
            return step_context.session.run(step), step_context.run_with_hooks(inc)

        def stop(step_context):
            step_context.request_stop()

        class Stepper:
            def step(self, step_context):
                return step_context.run_with_hooks(inc)

        with tf1.train.MonitoredSession(hooks=[Hook()]) as sess:
            assert sess.run_step_fn(both) == (0, 1) and seen == ["hook"]
            assert sess.run_step_fn(Stepper().step) == 2
            with pytest.raises(ValueError, match=r"Got \('ctx',\) instead\.$"):
                sess.run_step_fn(lambda ctx: None)
            sess.run_step_fn(stop)  # (StopIteration: the block ends, quietly)
            raise AssertionError("not reached")
        assert sess.should_stop()
