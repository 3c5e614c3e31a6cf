"""tf.summary.create_noop_writer: as TF 2.21's, making it the default changes nothing (values
TF printed for the same program)."""
import os

import eagerflow as tf


def test_noop_writer_leaves_the_default_writer_and_step(tmp_path):
    noop = tf.summary.create_noop_writer()
    with noop.as_default(step=4):
        assert not bool(tf.summary.scalar("x", 1.0, step=1))
        assert tf.summary.experimental.get_step() is None
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=3):
        with noop.as_default(step=9):
            assert bool(tf.summary.scalar("b", 1.0))  # TF 2.21: True, written at step 3
            assert tf.summary.should_record_summaries()
            assert int(tf.summary.experimental.get_step()) == 3
        noop.set_as_default(step=11)
        assert int(tf.summary.experimental.get_step()) == 3
    writer.close()
    (name,) = os.listdir(tmp_path)
    found = [(e.step, v.tag) for e in tf.compat.v1.train.summary_iterator(
        os.path.join(tmp_path, name)) for v in e.summary.value]
    assert found == [(3, "b")]
