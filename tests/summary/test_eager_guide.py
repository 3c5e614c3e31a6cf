"""The summaries example of TF's eager execution guide (tensorflow.org/guide/eager), as
written there: the events TF 2.21 writes."""
import glob

import numpy as np

import eagerflow as tf
from tests.summary.test_reference import tensor_value


def test_scalars_every_hundred_steps(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    logdir = "./tb/"
    writer = tf.summary.create_file_writer(logdir)
    steps = 1000
    with writer.as_default():  # or call writer.set_as_default() before the loop.
        for i in range(steps):
            step = i + 1
            # Calculate loss with your real train function.
            loss = 1 - 0.001 * step
            if step % 100 == 0:
                tf.summary.scalar('loss', loss, step=step)
    writer.flush()
    (path,) = glob.glob("tb/events.out.tfevents.*")
    events = [tf.compat.v1.Event.FromString(r)
              for r in tf.compat.v1.io.tf_record_iterator(path)]
    assert events[0].file_version == "brain.Event:2"
    scalars = [(e.step, e.summary.value[0]) for e in events[1:]]
    assert [s for s, _ in scalars] == list(range(100, 1001, 100))
    assert {v.tag for _, v in scalars} == {"loss"}
    assert {v.metadata.plugin_data.plugin_name for _, v in scalars} == {"scalars"}
    values = [float(tensor_value(v.tensor)) for _, v in scalars]
    np.testing.assert_array_equal(values, np.float32([1 - 0.001 * s for s in range(100, 1001,
                                                                                   100)]))
