"""TF 1 monitored-session programs (``tf.compat.v1.train.MonitoredTrainingSession`` and its
hooks) run by both TF (to record their results, `data/make_v1_monitored_data.py`) and
eagerflow (`test_v1_monitored.py`): each takes the ``compat.v1`` module and a scratch
directory and returns a JSON-able value."""
import os


def _model(tf):
    step = tf.train.get_or_create_global_step()
    w = tf.Variable(2.0, name="w")
    loss = tf.square(w - 1.0, name="loss")
    train = tf.train.GradientDescentOptimizer(0.25).minimize(loss, global_step=step)
    return step, w, loss, train


class _Recorder:
    """A hook's calls in order (the hook class made from the module's SessionRunHook)."""

    def __new__(cls, tf, calls, fetch):
        class Recorder(tf.train.SessionRunHook):
            def begin(self):
                calls.append("begin")

            def after_create_session(self, session, coord):
                calls.append("after_create_session")

            def before_run(self, run_context):
                calls.append("before_run")
                return tf.train.SessionRunArgs(fetch)

            def after_run(self, run_context, run_values):
                calls.append(["after_run", float(run_values.results)])

            def end(self, session):
                calls.append("end")
        return Recorder()


def stop_at_step(tf, scratch):
    """StopAtStepHook ends the loop; a recording hook sees every call; checkpoints are
    saved every 2 steps and at the end, and a new session restores the last one."""
    ckpt = os.path.join(scratch, "stop")
    calls = []
    g = tf.Graph()
    with g.as_default():
        step, w, loss, train = _model(tf)
        hooks = [tf.train.StopAtStepHook(last_step=5), _Recorder(tf, calls, loss)]
        losses = []
        with tf.train.MonitoredTrainingSession(checkpoint_dir=ckpt, hooks=hooks,
                                               save_checkpoint_steps=2,
                                               save_summaries_steps=None,
                                               save_summaries_secs=None,
                                               log_step_count_steps=None) as sess:
            finalized = g.finalized
            while not sess.should_stop():
                losses.append(float(sess.run(loss)))
                sess.run(train)
            stopped = sess.should_stop()
    files = sorted(f for f in os.listdir(ckpt) if f.startswith("model.ckpt") and
                   f.endswith(".index"))
    g2 = tf.Graph()
    with g2.as_default():
        step2, w2, _, _ = _model(tf)
        with tf.train.MonitoredTrainingSession(checkpoint_dir=ckpt,
                                               save_summaries_steps=None,
                                               save_summaries_secs=None,
                                               log_step_count_steps=None) as sess:
            restored = [int(sess.run(step2)), float(sess.run(w2))]
    return {"calls": calls, "losses": losses, "finalized": finalized, "stopped": stopped,
            "files": files, "restored": restored,
            "latest": os.path.basename(tf.train.latest_checkpoint(ckpt))}


def num_steps(tf, scratch):
    """StopAtStepHook(num_steps) counts from the step the session starts at; a
    SingularMonitoredSession runs the init ops and gives its raw session."""
    g = tf.Graph()
    with g.as_default():
        step, w, loss, train = _model(tf)
        x = tf.placeholder(tf.float32, [])
        doubled = 2.0 * x
        runs = 0
        with tf.train.SingularMonitoredSession(
                hooks=[tf.train.StopAtStepHook(num_steps=3)]) as sess:
            raw = sess.raw_session().run(step)
            fed = float(sess.run(doubled, feed_dict={x: 4.0}))
            while not sess.should_stop():
                sess.run(train)
                runs += 1
            final = int(sess.raw_session().run(step))
    return {"raw_step": int(raw), "fed": fed, "runs": runs, "final": final}


def out_of_range_ends(tf, scratch):
    """An OutOfRangeError from a dataset ends a MonitoredSession's `with` block quietly."""
    g = tf.Graph()
    with g.as_default():
        nxt = tf.data.make_one_shot_iterator(tf.data.Dataset.range(3)).get_next()
        seen = []
        with tf.train.MonitoredSession() as sess:
            while not sess.should_stop():
                seen.append(int(sess.run(nxt)))
        after = sess.should_stop()
    return {"seen": seen, "should_stop_after": after}


def logging_hook(tf, scratch):
    """LoggingTensorHook's messages, every 2 iterations and at the end."""
    import logging
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    logger = tf.get_logger()
    handler = Keep()
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        g = tf.Graph()
        with g.as_default():
            step, w, loss, train = _model(tf)
            hook = tf.train.LoggingTensorHook({"loss": loss, "rate": tf.constant(0.25)},
                                              every_n_iter=2, at_end=True)
            hook2 = tf.train.LoggingTensorHook([loss], every_n_iter=3,
                                               formatter=lambda v: "L=%.4f" % list(v.values())[0])
            with tf.train.MonitoredSession(hooks=[hook, hook2]) as sess:
                for _ in range(5):
                    sess.run(train)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    # (the elapsed seconds vary)
    return [r.split(" (")[0] for r in records if r.startswith(("loss =", "L="))]


PROGRAMS = {"stop_at_step": stop_at_step, "num_steps": num_steps,
            "out_of_range_ends": out_of_range_ends, "logging_hook": logging_hook}
