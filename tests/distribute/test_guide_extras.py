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


def test_on_read_variables_of_a_mirrored_strategy_are_sync_on_read():
    strategy = tf.distribute.MirroredStrategy(devices=["/cpu:0"])
    with strategy.scope():
        v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
        metric = tf.keras.metrics.Mean()
    assert type(v).__name__ == "SyncOnReadVariable"
    assert repr(v) == ("SyncOnReadVariable:{\n  0: <tf.Variable 'Variable:0' shape=() "
                       "dtype=float32, numpy=1.0>\n}")
    assert type(metric.total).__name__ == "SyncOnReadVariable" and not v.trainable
    strategy.run(lambda: v.assign_add(1.0))
    assert float(v) == 2.0 and len(v.values) == 1
