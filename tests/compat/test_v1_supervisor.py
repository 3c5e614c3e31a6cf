"""TF 1's Supervisor, SessionManager and LooperThread (``tf.compat.v1.train``), as TF 2.21
runs them."""
import os
import threading

import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def _model():
    w = tf1.Variable(1.0, name="w")
    step = tf1.train.get_or_create_global_step()
    train = tf1.train.GradientDescentOptimizer(0.1).minimize(w * w, global_step=step)
    return w, step, train


def test_supervisor_initializes_then_restores_from_its_logdir(tmp_path):
    logdir = str(tmp_path)
    with tf.Graph().as_default() as g:
        w, step, train = _model()
        sv = tf1.train.Supervisor(logdir=logdir, save_model_secs=0, save_summaries_secs=0)
        assert type(sv.saver).__name__ == "Saver" and sv.is_chief
        assert (sv.global_step.name, sv.init_op.name, sv.summary_op) == ("global_step:0",
                                                                         "init", None)
        assert sv.save_path == os.path.join(logdir, "model.ckpt")
        assert sv.summary_writer is not None and sv.coord is not None and g.finalized
        with sv.managed_session() as sess:
            for _ in range(3):
                sess.run(train)
            assert [round(float(v), 5) for v in sess.run([w, step])] == [0.512, 3.0]
            assert not sv.should_stop()
            sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
        assert sv.should_stop()
        assert "graph.pbtxt" in os.listdir(logdir)
        assert any(f.startswith("events.out.tfevents") for f in os.listdir(logdir))
    with tf.Graph().as_default():
        w, step, _ = _model()
        sv = tf1.train.Supervisor(logdir=logdir, save_model_secs=0, save_summaries_secs=0)
        with sv.managed_session() as sess:
            assert [round(float(v), 5) for v in sess.run([w, step])] == [0.512, 3.0]
        sess = sv.prepare_or_wait_for_session()
        assert round(float(sess.run(w)), 5) == 0.512
        sv.stop()
        assert sv.should_stop()


def test_managed_session_runs_the_queue_runners_and_ends_on_out_of_range():
    with tf.Graph().as_default():
        batch = tf1.train.batch([tf1.train.range_input_producer(
            5, num_epochs=1, shuffle=False).dequeue()], 2)
        sv = tf1.train.Supervisor(logdir=None)
        got = []
        with sv.managed_session() as sess:
            while not sv.should_stop():
                got.append(sess.run(batch).tolist())
        assert got == [[0, 1], [2, 3]]

    with tf.Graph().as_default():
        tf1.Variable(1.0)
        sv = tf1.train.Supervisor(logdir=None)
        with pytest.raises(ValueError, match="boom"):
            with sv.managed_session():
                raise ValueError("boom")


def test_session_manager():
    with tf.Graph().as_default():
        w = tf1.Variable(2.0, name="w")
        manager = tf1.train.SessionManager(ready_op=tf1.report_uninitialized_variables())
        sess = manager.prepare_session("", init_op=tf1.global_variables_initializer())
        assert float(sess.run(w)) == 2.0
        _, initialized = manager.recover_session("", checkpoint_dir=None)
        assert initialized is False
        sess = manager.prepare_session("", init_fn=lambda s: s.run(w.initializer))
        assert float(sess.run(w)) == 2.0
        with pytest.raises(RuntimeError, match="Model is not initialized and no init_op or "
                                               "init_fn or local_init_op was given"):
            manager.prepare_session("")
        with pytest.raises(RuntimeError, match="Init operations did not make model ready"):
            manager.prepare_session("", init_fn=lambda s: None)
        with pytest.raises(tf.errors.DeadlineExceededError,
                           match="Session was not ready after waiting"):
            tf1.train.SessionManager(ready_op=tf1.report_uninitialized_variables(),
                                     recovery_wait_secs=0.01).wait_for_session(
                                         "", max_wait_secs=0.05)


def test_looper_thread():
    assert tf.train.Coordinator is tf1.train.Coordinator  # (TF 2's namespace has it too)
    coord = tf1.train.Coordinator()
    calls = []
    done = threading.Event()

    def step(tag):
        calls.append(tag)
        if len(calls) == 3:
            coord.request_stop()
            done.set()
    looper = tf1.train.LooperThread.loop(coord, None, step, args=("x",))
    assert done.wait(10)
    coord.join([looper])
    assert calls == ["x", "x", "x"]
    with pytest.raises(ValueError, match="'args' and 'kwargs' argument require that you "
                                         "also pass 'target'"):
        tf1.train.LooperThread(tf1.train.Coordinator(), 1, args=(1,))
