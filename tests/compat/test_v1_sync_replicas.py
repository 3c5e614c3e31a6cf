"""TF 1's ``train.SyncReplicasOptimizer`` with one worker (replicas_to_aggregate=1): each
step applies the wrapped optimizer's update, as TF's does once its chief aggregated the
worker's gradients; values are TF 2.21's (inline)."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

# TF 2.21: MomentumOptimizer(0.05, 0.9) on this regression, step by step (loss before the
# step, then global step and w after it)
TF_STEPS = [(20.5, 1, [1.95, -0.6]), (5.982501, 2, [2.3, -0.00500011]),
            (24.499245, 3, [1.5185001, -0.9745001]), (1.2393181, 4, [0.78805023, -1.8354999]),
            (19.928139, 5, [1.0714703, -1.2265348])]


def _regression():
    step = tf1.train.get_or_create_global_step()
    w = tf1.Variable([1.0, -2.0], name="w")
    x, y = tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1.0, 0.0])
    return step, w, tf.reduce_mean(tf.square(tf.linalg.matvec(x, w) - y))


def test_one_worker_steps_as_the_wrapped_optimizer_in_a_monitored_session():
    with tf1.Graph().as_default():
        step, w, loss = _regression()
        opt = tf1.train.SyncReplicasOptimizer(tf1.train.MomentumOptimizer(0.05, 0.9),
                                              replicas_to_aggregate=1, total_num_replicas=1)
        train = opt.minimize(loss, global_step=step)
        assert train.dtype == tf.int64 and train.shape == ()
        assert [v.name for v in tf1.local_variables()] == ["sync_rep_local_step:0"]
        assert [v.name for v in tf1.global_variables()] == ["global_step:0", "w:0",
                                                            "w/Momentum:0"]
        assert opt.get_slot_names() == ["momentum"]
        assert opt.get_slot(w, "momentum").name == "w/Momentum:0"
        assert [v.name for v in opt.variables()] == ["w/Momentum:0"]
        hook = opt.make_session_run_hook(is_chief=True)
        with tf1.train.MonitoredTrainingSession(hooks=[hook]) as sess:
            for i, (want_loss, want_step, want_w) in enumerate(TF_STEPS):
                token, got_loss = sess.run([train, loss])
                got_step, got_w = sess.run([step, w])
                # (the local step: the global step the gradients were computed at)
                assert token == i and got_step == want_step
                np.testing.assert_allclose(got_loss, want_loss, rtol=1e-6)
                np.testing.assert_allclose(got_w, want_w, rtol=1e-6)


def test_a_worker_hook_initializes_its_local_step_from_the_global_step():
    with tf1.Graph().as_default():
        step, w, loss = _regression()
        opt = tf1.train.SyncReplicasOptimizer(tf1.train.GradientDescentOptimizer(0.05), 1)
        train = opt.minimize(loss, global_step=step)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(step.assign(7))
            hook = opt.make_session_run_hook(is_chief=False)
            hook.begin()
            hook.after_create_session(sess, None)
            assert sess.run(opt._local_step) == 7
            assert sess.run(train) == 7 and sess.run(step) == 8


def test_errors_are_tfs():
    with tf1.Graph().as_default():
        step, w, _ = _regression()
        opt = tf1.train.SyncReplicasOptimizer(tf1.train.GradientDescentOptimizer(0.1),
                                              replicas_to_aggregate=2, total_num_replicas=1)
        with pytest.raises(ValueError, match=r"Should be called after apply_gradients\(\)."):
            opt.get_chief_queue_runner()
        with pytest.raises(ValueError, match=r"get_init_tokens_op\(\) should be called after"):
            opt.get_init_tokens_op()
        with pytest.raises(ValueError, match="Must supply at least one variable"):
            opt.apply_gradients([], step)
        with pytest.raises(ValueError, match="Global step is required to check staleness"):
            opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
        opt.apply_gradients([(tf.constant([1.0, 1.0]), w)], step)
        with pytest.raises(ValueError, match=r"Too few tokens to finish the first step: 0 "
                                             r"\(given\) vs 1 \(needed\)"):
            opt.get_init_tokens_op(0)
        unused = tf1.train.SyncReplicasOptimizer(tf1.train.GradientDescentOptimizer(0.1), 1)
        with pytest.raises(ValueError, match="SyncReplicasOptimizer.apply_gradient should be "
                                             "called before using the hook."):
            unused.make_session_run_hook(True).begin()


def test_a_queue_of_negative_capacity_has_no_limit():
    # (the token queue of SyncReplicasOptimizer is one: TF's -1 means unbounded)
    q = tf.queue.FIFOQueue(-1, tf.int32, shapes=())
    for i in range(5):
        q.enqueue(i)
    assert q.size().numpy() == 5 and q.dequeue_many(5).numpy().tolist() == [0, 1, 2, 3, 4]
