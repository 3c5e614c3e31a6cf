"""Sync-on-read variables of a MirroredStrategy: each replica updates its own copy; reads
outside `run` combine the copies by the variable's aggregation."""
import os

import numpy as np
import pytest

import eagerflow as tf


def _rid():
    return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)


def _on_read(s, aggregation, value=2.0):
    with s.scope():
        return tf.Variable(value, synchronization=tf.VariableSynchronization.ON_READ,
                           aggregation=aggregation)


def _local(s, v):
    return [float(np.squeeze(x.numpy())) for x in s.experimental_local_results(v)]


def test_each_replica_updates_its_own_copy(two_cpus):
    s = two_cpus
    mean = _on_read(s, tf.VariableAggregation.MEAN)
    total = _on_read(s, tf.VariableAggregation.SUM)
    first = _on_read(s, tf.VariableAggregation.ONLY_FIRST_REPLICA)
    for v in (mean, total, first):
        s.run(lambda: v.assign_add(_rid() + 1.0))
        assert _local(s, v) == [3.0, 4.0]
    assert mean.numpy() == 3.5 and (mean + 0).numpy() == 3.5
    assert total.numpy() == 7.0 and tf.identity(total).numpy() == 7.0
    assert first.numpy() == 3.0
    assert tf.function(lambda: mean.read_value())().numpy() == 3.5
    # in a replica, a read is its own copy's
    r = s.run(lambda: mean.read_value() * 1.0)
    assert [float(x) for x in r.values] == [3.0, 4.0]
    assert s.reduce("SUM", total, axis=None).numpy() == 7.0
    # in a function too
    step = tf.function(lambda: s.run(lambda: mean.assign_add(_rid())))
    step()
    assert _local(s, mean) == [3.0, 5.0]


def test_cross_replica_writes(two_cpus):
    s = two_cpus
    mean = _on_read(s, tf.VariableAggregation.MEAN)
    mean.assign(6.0)
    assert _local(s, mean) == [6.0, 6.0]
    assert mean.assign_add(1.0).numpy() == 7.0
    total = _on_read(s, tf.VariableAggregation.SUM)
    assert total.numpy() == 4.0  # every copy starts at the initial value
    assert total.assign(6.0).numpy() == 6.0
    assert _local(s, total) == [3.0, 3.0]  # each copy's share
    count = _on_read(s, tf.VariableAggregation.SUM, 4)
    count.assign(7)
    assert [int(x.numpy()) for x in s.experimental_local_results(count)] == [3, 3]
    none = _on_read(s, tf.VariableAggregation.NONE)
    with pytest.raises(ValueError, match="Could not convert from `tf.VariableAggregation`"):
        none.numpy()


def test_batch_norm_moving_mean_is_the_replicas_mean(two_cpus, tmp_path):
    s = two_cpus
    with s.scope():
        bn = tf.keras.layers.BatchNormalization(momentum=0.5)
        bn.build((None, 1))
    assert type(bn.moving_mean).__name__ == "SyncOnReadVariable"
    data = tf.constant([[1.0], [1.0], [5.0], [5.0]])
    dd = s.experimental_distribute_dataset(tf.data.Dataset.from_tensors(data))
    step = tf.function(lambda x: s.run(lambda b: bn(b, training=True), args=(x,)))
    for x in dd:
        step(x)
    # replica 0 saw the mean 1, replica 1 the mean 5: each moved halfway from 0
    assert _local(s, bn.moving_mean) == [0.5, 2.5]
    np.testing.assert_allclose(bn.moving_mean.numpy(), [1.5])
    path = tf.train.Checkpoint(bn=bn).save(os.path.join(tmp_path, "ckpt"))
    np.testing.assert_allclose(tf.train.load_variable(
        path, "bn/moving_mean/.ATTRIBUTES/VARIABLE_VALUE"), [1.5])
    plain = tf.keras.layers.BatchNormalization()
    plain.build((None, 1))
    tf.train.Checkpoint(bn=plain).restore(path)
    np.testing.assert_allclose(plain.moving_mean.numpy(), [1.5])


def test_metric_sums_replicas(two_cpus):
    s = two_cpus
    with s.scope():
        m = tf.keras.metrics.Mean()
    s.run(lambda: m.update_state(_rid() * 4.0))
    assert _local(s, m.total) == [0.0, 4.0]
    assert m.result().numpy() == 2.0 and m.count.numpy() == 2.0
    # outside `run`, TF's ValueError: a SUM copy cannot take an increment for every replica
    with pytest.raises(ValueError, match="does not support `assign_add` in cross-replica"):
        m.update_state(8.0)
    assert m.result().numpy() == 2.0
    m.reset_state()
    assert _local(s, m.total) == [0.0, 0.0]


def test_sum_copies_refuse_cross_replica_increments(two_cpus):
    s = two_cpus
    total = _on_read(s, tf.VariableAggregation.SUM, 1.0)
    with pytest.raises(ValueError, match="does not support `assign_add` in cross-replica "
                                         "context when aggregation is set to "
                                         "`tf.VariableAggregation.SUM`"):
        total.assign_add(1.0)
    with pytest.raises(ValueError, match="does not support `assign_sub`"):
        tf.function(lambda: total.assign_sub(1.0))()
    assert _local(s, total) == [1.0, 1.0]
    mean = _on_read(s, tf.VariableAggregation.MEAN, 1.0)
    assert mean.assign_add(1.0).numpy() == 2.0  # other aggregations take them


def test_fit_under_one_replica_updates_metrics_in_the_replica():
    # a MirroredStrategy of one device still makes sync-on-read metric variables, which
    # Keras updates inside the replica (outside it a SUM copy refuses an increment)
    s = tf.distribute.MirroredStrategy(["/cpu:0"])
    x = np.arange(12, dtype=np.float32).reshape(6, 2) / 10
    y = np.ones((6, 1), np.float32)
    with s.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    h = model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    assert [type(m.total).__name__ for m in model.metrics] == ["SyncOnReadVariable"] * 2
    np.testing.assert_allclose(h.history["loss"], [0.480414], rtol=1e-5)
    np.testing.assert_allclose(h.history["mae"], [0.602073], rtol=1e-5)
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), [0.455158, 0.589489], rtol=1e-5)


def test_saved_model_of_a_model_trained_under_the_strategy(two_cpus, tmp_path):
    # a SavedModel holds each sync-on-read variable as TF saves it: its copies combined
    x = np.random.RandomState(0).randn(16, 3).astype("float32")
    y = x.sum(1, keepdims=True)

    def make():
        return tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)),
                                    tf.keras.layers.BatchNormalization(),
                                    tf.keras.layers.Dense(1)])
    with two_cpus.scope():
        model = make()
        model.compile("adam", "mse")
    model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    tf.saved_model.save(model, str(tmp_path / "m"))
    plain = make()
    plain.set_weights(model.get_weights())
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    np.testing.assert_allclose(loaded(x[:3]).numpy(), plain(x[:3]).numpy(), rtol=1e-5)
