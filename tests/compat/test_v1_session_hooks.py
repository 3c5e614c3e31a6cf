"""TF 1 session-run hooks and training-loop helpers of ``tf.compat.v1.train``
(NanTensorHook, FeedFnHook, FinalOpsHook, GlobalStepWaiterHook, SecondOrStepTimer, ...),
as TF 2.21 runs them."""
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def test_second_or_step_timer():
    timer = tf1.train.SecondOrStepTimer(every_steps=2)
    assert timer.should_trigger_for_step(0)
    assert timer.update_last_triggered_step(0) == (None, None)
    assert not timer.should_trigger_for_step(1) and timer.should_trigger_for_step(2)
    assert timer.last_triggered_step() == 0
    with pytest.raises(ValueError, match="Either every_secs or every_steps should be "
                                         "provided."):
        tf1.train.SecondOrStepTimer()
    with pytest.raises(ValueError, match="Can not provide both every_secs and every_steps."):
        tf1.train.SecondOrStepTimer(every_secs=1, every_steps=1)


def _model():
    x = tf1.placeholder(tf.float32, [])
    w = tf1.Variable(1.0)
    loss = w * x
    step = tf1.train.get_or_create_global_step()
    train = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    return x, w, loss, step, train


def test_feed_fn_nan_tensor_and_final_ops_hooks():
    assert issubclass(tf1.train.NanLossDuringTrainingError, RuntimeError)
    assert str(tf1.train.NanLossDuringTrainingError()) == "NaN loss during training."
    with tf.Graph().as_default():
        x, w, loss, step, train = _model()
        feeds = iter([1.0, 2.0, float("nan"), 3.0])
        final = tf1.train.FinalOpsHook(w * 10.0)
        losses = []
        with pytest.raises(tf1.train.NanLossDuringTrainingError):
            with tf1.train.MonitoredSession(hooks=[
                    tf1.train.FeedFnHook(lambda: {x: next(feeds)}),
                    tf1.train.NanTensorHook(loss), final]) as sess:
                for _ in range(4):
                    losses.append(float(sess.run([train, loss])[1]))
        assert [round(v, 5) for v in losses] == [1.0, 1.8]
        assert final.final_ops_values is None  # (the session ended on the error)

        feeds = iter([1.0, float("nan"), 3.0])
        final = tf1.train.FinalOpsHook({"w": w, "step": step}, {x: 1.0})
        seen = []
        with tf1.train.MonitoredSession(hooks=[
                tf1.train.FeedFnHook(lambda: {x: next(feeds)}),
                tf1.train.NanTensorHook(loss, fail_on_nan_loss=False), final]) as sess:
            while not sess.should_stop():
                seen.append(float(sess.run(loss)))
        assert seen[0] == 1.0 and seen[1] != seen[1] and len(seen) == 2
        assert final.final_ops_values == {"w": 1.0, "step": 0}


def test_global_step_waiter_listener_and_assert_global_step():
    with tf.Graph().as_default():
        x, w, loss, step, train = _model()
        with tf1.train.MonitoredSession(hooks=[
                tf1.train.GlobalStepWaiterHook(wait_until_step=0)]) as sess:
            assert sess.run(step) == 0
        listener = tf1.train.CheckpointSaverListener()
        assert [m for m in dir(listener) if not m.startswith("_")] == [
            "after_save", "before_save", "begin", "end"]
        assert tf1.train.assert_global_step(step) is None
        with pytest.raises(TypeError, match="Existing \"global_step\" does not have integer "
                                            "type: <dtype: 'float32'>"):
            tf1.train.assert_global_step(w)
        with pytest.raises(TypeError, match=r"Existing \"global_step\" is not scalar: \(1,\)"):
            tf1.train.assert_global_step(tf.constant([1]))


def test_basic_train_loop_runs_until_the_supervisor_stops():
    class Supervisor:
        steps = 0

        class _Managed:
            def __enter__(self):
                return "session"

            def __exit__(self, *exc):
                return False

        def managed_session(self, master):
            return self._Managed()

        def should_stop(self):
            return self.steps >= 3

    sv = Supervisor()

    def step(sess, by, scale=1):
        assert sess == "session"
        sv.steps += by * scale
    tf1.train.basic_train_loop(sv, step, args=[1], kwargs={"scale": 1})
    assert sv.steps == 3


def test_checkpoints_iterator(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable(1.0)).save(str(tmp_path / "c"))
    assert tf1.train.checkpoints_iterator is tf.train.checkpoints_iterator
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.2)) == [path]
    calls = []

    def timeout_fn():
        calls.append(1)
        return len(calls) > 1
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.2,
                                              timeout_fn=timeout_fn)) == [path]
    assert len(calls) == 2
    assert list(tf.train.checkpoints_iterator(str(tmp_path / "none"), timeout=0.2)) == []


def test_session_creators():
    with tf.Graph().as_default() as g:
        w = tf1.Variable(3.0, name="w")

        class Mine(tf1.train.SessionCreator):
            def create_session(self):
                sess = tf1.Session()
                sess.run(w.initializer)
                return sess
        with tf1.train.MonitoredSession(session_creator=Mine()) as sess:
            assert float(sess.run(w)) == 3.0
            assert not g.finalized  # (only a scaffold finalizes the graph)
        with pytest.raises(TypeError, match="Can't instantiate abstract class"):
            tf1.train.SessionCreator()
        with tf1.train.MonitoredSession(
                session_creator=tf1.train.ChiefSessionCreator()) as sess:
            assert float(sess.run(w)) == 3.0 and g.finalized
        with pytest.raises(tf.errors.DeadlineExceededError):  # (nothing initializes it)
            tf1.train.WorkerSessionCreator(max_wait_secs=0.05).create_session()
