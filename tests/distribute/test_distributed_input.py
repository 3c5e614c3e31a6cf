"""Distributed datasets over three logical CPUs: in eager code, in loops a function traces,
as function arguments, and the specs of their elements."""
import numpy as np
import pytest

import eagerflow as tf


def _sum_step(s, x):
    return s.reduce("SUM", s.run(tf.reduce_sum, args=(x,)), axis=None)


def test_loop_in_function_splits_each_batch(three_cpus):
    s = three_cpus
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4))

    @tf.function
    def captured():
        total = tf.constant(0, tf.int64)
        for x in dd:
            total += _sum_step(s, x)
        return total

    @tf.function
    def argument(dd):
        total = tf.constant(0, tf.int64)
        for x in dd:
            total += _sum_step(s, x)
        return total

    # each element once: every replica sums its own part of the batch
    assert captured().numpy() == 45
    assert argument(dd).numpy() == 45
    from_fn = s.distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.range(12).batch(2))
    assert argument(from_fn).numpy() == 66


def test_iterator_in_function_and_optional(three_cpus):
    s = three_cpus
    it = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(6)))
    step = tf.function(lambda it: s.run(lambda v: v * 2, args=(next(it),)))
    r = step(it)
    assert [v.numpy().tolist() for v in r.values] == [[0, 2], [4, 6], [8, 10]]
    opt = it.get_next_as_optional()
    assert opt.has_value().numpy()
    assert [v.numpy().tolist() for v in opt.get_value().values] == [[6], [7], []]
    assert not it.get_next_as_optional().has_value().numpy()


def test_element_spec_is_per_replica(three_cpus):
    s = three_cpus
    spec = s.experimental_distribute_dataset(
        tf.data.Dataset.range(12).batch(6, drop_remainder=True)).element_spec
    assert repr(spec) == "PerReplicaSpec(" + ", ".join(
        ["TensorSpec(shape=(2,), dtype=tf.int64, name=None)"] * 3) + ")"
    spec = s.experimental_distribute_dataset(tf.data.Dataset.range(12).batch(5)).element_spec
    assert [v.shape.as_list() for v in spec._component_specs] == [[None]] * 3
    spec = s.distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.range(8).batch(4, drop_remainder=True)).element_spec
    assert [v.shape.as_list() for v in spec._component_specs] == [[4]] * 3
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert repr(one.experimental_distribute_dataset(
        tf.data.Dataset.range(8).batch(4)).element_spec) == \
        "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"


def test_reduce_mean_along_axis(three_cpus):
    s = three_cpus
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(6))
    r = s.run(lambda x: x * tf.cast(
        tf.distribute.get_replica_context().replica_id_in_sync_group + 1, x.dtype),
        args=(next(iter(dd)),))
    mean = s.reduce("MEAN", r, axis=0)  # an integer mean is a float64, as TF's
    assert mean.dtype == tf.float64
    np.testing.assert_allclose(mean.numpy(), 38 / 6)
    f = s.run(lambda: tf.constant([[1.0, 2.0]]) * tf.cast(
        tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32))
    np.testing.assert_allclose(s.reduce("MEAN", f, axis=-1).numpy(), [1.5])
    np.testing.assert_allclose(s.reduce("MEAN", f, axis=1).numpy(), [1.5])


def test_per_replica_batch_size_message():
    with pytest.raises(ValueError) as e:
        tf.distribute.InputContext(1, 0, 3).get_per_replica_batch_size(7)
    assert str(e.value) == ("The `global_batch_size` 7 is not divisible by "
                            "`num_replicas_in_sync` 3 ")


def test_reduce_and_local_results_of_values_every_replica_shares(three_cpus):
    s = three_cpus
    # an integer mean across replicas is a float64, as TF divides
    r = s.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "MEAN", tf.constant(3) + tf.distribute.get_replica_context().replica_id_in_sync_group))
    assert [(v.dtype, float(v)) for v in r.values] == [(tf.float64, 4.0)] * 3
    ints = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([ctx.replica_id_in_sync_group] * 2))
    mean = s.reduce("MEAN", ints, axis=None)
    assert mean.dtype == tf.float64 and mean.numpy().tolist() == [1.0, 1.0]
    # a value every replica shares: each replica reduces it along the axis
    assert s.reduce("SUM", [1.0, 2.0], axis=0).numpy() == 9.0
    assert s.reduce("MEAN", tf.constant([1, 2]), axis=0).numpy() == 1.5
    assert s.reduce("MEAN", 3.0, axis=None) == 3.0  # given back as it is
    local = s.experimental_local_results({"a": tf.constant(1), "b": [tf.constant(2)]})
    assert len(local) == 3 and [int(d["b"][0]) for d in local] == [2, 2, 2]
    assert s.experimental_local_results(3) == (3,)


def test_one_replica_strategies():
    default = tf.distribute.get_strategy()
    assert default.reduce("SUM", 3.0, axis=None) == 3.0
    assert default.experimental_distribute_values_from_function(
        lambda ctx: ctx.replica_id_in_sync_group) == 0
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert one.reduce("SUM", [1.0, 2.0], axis=0).numpy() == 3.0
    mirrored = tf.distribute.MirroredStrategy(["/cpu:0"])
    assert str(mirrored.experimental_distribute_values_from_function(
        lambda ctx: ctx.replica_id_in_sync_group)) == "PerReplica:{\n  0: 0\n}"
    assert mirrored.reduce("SUM", 3.0, axis=None).dtype == tf.float32


def test_datasets_from_function_pad_the_last_step_with_empty_batches(three_cpus):
    s = three_cpus
    dd = s.distribute_datasets_from_function(lambda ctx: tf.data.Dataset.range(7).batch(2))
    steps = [[v.numpy().tolist() for v in s.experimental_local_results(b)] for b in dd]
    assert steps == [[[0, 1], [2, 3], [4, 5]], [[6], [], []]]

    @tf.function
    def loop(dd):
        total, n = tf.constant(0, tf.int64), tf.constant(0)
        for x in dd:
            total += _sum_step(s, x)
            n += 1
        return total, n

    total, n = loop(dd)
    assert (int(total), int(n)) == (21, 2)


def test_values_are_distributed_values_and_reduce_keeps_shapes(three_cpus):
    s = three_cpus
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(5).batch(5))
    r = s.run(lambda x: x * 2, args=(next(iter(dd)),))
    assert isinstance(r, tf.distribute.DistributedValues)
    with s.scope():
        v = tf.Variable(1.0)
    assert isinstance(v, tf.distribute.DistributedValues)
    # the replicas' parts differ in shape ([2], [2], [1]): no broadcasting
    with pytest.raises(tf.errors.InvalidArgumentError):
        s.reduce("SUM", r, axis=None)


def test_get_next_past_the_end_is_the_out_of_range_error():
    strategy = tf.distribute.MirroredStrategy()
    for distributed in (
            strategy.experimental_distribute_dataset(tf.data.Dataset.range(3).batch(2)),
            strategy.distribute_datasets_from_function(
                lambda ctx: tf.data.Dataset.range(3).batch(2))):
        iterator = iter(distributed)
        iterator.get_next()
        iterator.get_next()
        with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
            iterator.get_next()
    with pytest.raises(AttributeError, match="'list' object has no attribute 'element_spec'"):
        strategy.distribute_datasets_from_function(lambda ctx: [1, 2])


def test_distributed_dataset_reduce_gives_per_replica_elements(two_cpus):
    # each replica sums its own part of every batch: each element is counted once
    s = two_cpus
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(7).batch(4))

    def add(state, x):
        return state + _sum_step(s, x)
    assert dd.reduce(tf.constant(0, tf.int64), add).numpy() == 21
    assert tf.function(lambda: dd.reduce(tf.constant(0, tf.int64), add))().numpy() == 21
    assert tf.function(lambda d: d.reduce(tf.constant(0, tf.int64), add))(dd).numpy() == 21
    from_fn = s.distribute_datasets_from_function(lambda ctx: tf.data.Dataset.range(5).batch(2))
    assert tf.function(lambda: from_fn.reduce(tf.constant(0, tf.int64), add))().numpy() == 10
    # the state is made of tensors, as a loop's variables are
    count = dd.reduce((0, tf.constant(0, tf.int64)), lambda st, x: (st[0] + 1, st[1]))
    assert count[0].dtype == tf.int32 and count[0].numpy() == 2


def test_element_spec_as_input_signature(two_cpus):
    # the distributed input guide's step: @tf.function(input_signature=[dd.element_spec])
    s = two_cpus
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(10).map(
        lambda i: (tf.cast(i, tf.float32), i)).batch(4))
    assert isinstance(dd.element_spec[0], tf.TypeSpec)

    @tf.function(input_signature=[dd.element_spec])
    def step(inputs):
        def replica(batch):
            x, y = batch
            return tf.reduce_sum(x) + tf.cast(tf.reduce_sum(y), tf.float32)
        return s.reduce("SUM", s.run(replica, args=(inputs,)), axis=None)
    assert [float(step(x)) for x in dd] == [12.0, 44.0, 34.0]
    assert step.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        step((tf.constant([1.0]), tf.constant([1], tf.int64)))


def test_ragged_and_sparse_batches_split_by_rows(two_cpus):
    s = two_cpus
    rt = tf.ragged.constant([[1], [2, 3], [4], [5, 6, 7], [8]])
    dd = s.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(rt).batch(4))
    assert repr(dd.element_spec) == "PerReplicaSpec(" + ", ".join(
        ["RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"] * 2) + ")"
    got = [[v.to_list() for v in b.values] for b in dd]
    assert got == [[[[1], [2, 3]], [[4], [5, 6, 7]]], [[[8]], []]]
    dropped = s.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(rt).batch(4, drop_remainder=True))
    assert dropped.element_spec._component_specs[0].shape.as_list() == [2, None]

    @tf.function
    def total(dist):
        t = tf.constant(0)
        for b in dist:
            t += s.reduce("SUM", s.run(tf.reduce_sum, args=(b,)), axis=None)
        return t
    assert int(total(dd)) == 36
    from_fn = s.distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.from_tensor_slices(rt).batch(2))
    assert [[v.to_list() for v in b.values] for b in from_fn][-1] == [[[8]], []]
    assert int(total(from_fn)) == 36
    dense = tf.constant([[1.0, 0.0], [0.0, 2.0], [3.0, 0.0], [0.0, 0.0], [5.0, 5.0]])
    sp = s.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(tf.sparse.from_dense(dense)).batch(3))
    got = [[tf.sparse.to_dense(v).numpy().tolist() for v in b.values] for b in sp]
    assert got == [[[[1.0, 0.0], [0.0, 2.0]], [[3.0, 0.0]]], [[[0.0, 0.0]], [[5.0, 5.0]]]]


def test_per_replica_input_pipelines(two_cpus):
    s = two_cpus
    contexts = []

    def make(ctx):
        contexts.append((ctx.num_input_pipelines, ctx.input_pipeline_id,
                         ctx.num_replicas_in_sync))
        return tf.data.Dataset.range(5).batch(2).map(lambda b: b + 10 * ctx.input_pipeline_id)
    mode = tf.distribute.InputReplicationMode.PER_REPLICA
    dd = s.distribute_datasets_from_function(make, tf.distribute.InputOptions(
        experimental_replication_mode=mode, experimental_fetch_to_device=True))
    assert contexts == [(2, 0, 2), (2, 1, 2)]  # one pipeline per replica
    got = [[v.numpy().tolist() for v in b.values] for b in dd]
    assert got == [[[0, 1], [10, 11]], [[2, 3], [12, 13]], [[4], [14]]]

    @tf.function
    def total(d):
        t = tf.constant(0, tf.int64)
        for b in d:
            t += s.reduce("SUM", s.run(tf.reduce_sum, args=(b,)), axis=None)
        return t
    assert int(total(dd)) == 70
    with pytest.raises(NotImplementedError, match=r"^InputReplicationMode.PER_REPLICA is only "
                                                  r"supported in `distribute_datasets_from"):
        s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2),
                                          tf.distribute.InputOptions(
                                              experimental_replication_mode=mode))
    with pytest.raises(ValueError, match="you must also specify `PER_REPLICA`"):
        s.distribute_datasets_from_function(make, tf.distribute.InputOptions(
            experimental_place_dataset_on_device=True))
    with pytest.raises(NotImplementedError, match="of tf.distribute.MirroredStrategy$"):
        tf.distribute.OneDeviceStrategy("/cpu:0").distribute_datasets_from_function(
            make, tf.distribute.InputOptions(experimental_replication_mode=mode))
