"""`strategy.extended.reduce_to` / `batch_reduce_to` and the options named tuples, as the
distributed training guide uses them (expected values from TF 2.21)."""
import pytest

import eagerflow as tf


def test_reduce_to_and_batch_reduce_to():
    strategy = tf.distribute.MirroredStrategy(devices=["/cpu:0"])
    with strategy.scope():
        v = tf.Variable(1.0)
    out = strategy.extended.reduce_to(tf.distribute.ReduceOp.SUM, tf.constant(2.0),
                                      destinations=v)
    assert float(out) == 2.0
    r = strategy.run(lambda: tf.constant(3.0))
    outs = strategy.extended.batch_reduce_to("MEAN", [(r, v), (tf.constant(4.0), v)])
    assert [float(o) for o in outs] == [3.0, 4.0]


def test_input_and_run_options_are_named_tuples_with_defaults():
    o = tf.distribute.InputOptions(experimental_fetch_to_device=False)
    assert isinstance(o, tuple)
    assert o == tf.distribute.InputOptions(experimental_fetch_to_device=False)
    assert repr(tf.distribute.InputOptions()) == (
        "InputOptions(experimental_fetch_to_device=True, experimental_replication_mode="
        "<InputReplicationMode.PER_WORKER: 'PER_WORKER'>, "
        "experimental_place_dataset_on_device=False, experimental_per_replica_buffer_size=1)")
    assert repr(tf.distribute.RunOptions()) == (
        "RunOptions(experimental_enable_dynamic_batch_size=True, "
        "experimental_bucketizing_dynamic_shape=False, experimental_xla_options=None)")
    with pytest.raises(AttributeError):
        o.experimental_fetch_to_device = True
