"""Summary tags take the name scopes they are written in, as TF's: ``tf.name_scope``s and,
inside a function, the scope of the cond or while_loop op around them."""
import glob
import os

import eagerflow as tf


def tags(logdir):
    (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
    return [(e.step, v.tag) for r in tf.compat.v1.io.tf_record_iterator(path)
            for e in [tf.compat.v1.Event.FromString(r)] for v in e.summary.value]


def test_tags_in_control_flow_of_a_function(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def log(x):
        with writer.as_default(step=0):
            if x > 0:  # (AutoGraph's cond)
                tf.summary.scalar("positive", x)
            tf.cond(x > 0, lambda: tf.summary.scalar("named", x), lambda: False, name="check")
            with tf.name_scope("outer"):
                tf.cond(x > 0, lambda: tf.summary.histogram("h", [x], buckets=1),
                        lambda: False)
            for i in tf.range(2):  # (AutoGraph's while_loop)
                tf.summary.scalar("each", x, step=tf.cast(i, tf.int64))
        return x

    log(tf.constant(1.0))
    # eagerly, control flow opens no name scope
    with writer.as_default(step=5):
        tf.cond(tf.constant(True), lambda: tf.summary.scalar("eager", 1.0), lambda: False)
    writer.close()
    assert tags(tmp_path) == [(0, "cond/positive"), (0, "check/named"), (0, "outer/cond/h"),
                              (0, "while/each"), (1, "while/each"), (5, "eager")]
