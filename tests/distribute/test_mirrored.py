"""MirroredStrategy over two logical CPUs: replicas, per-replica values, mirrored variables."""
import contextlib
import numpy as np
import pytest

import eagerflow as tf


def _replica_id():
    return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)


def test_one_replica_per_logical_cpu(two_cpus):
    s = two_cpus
    assert s.num_replicas_in_sync == 2
    assert s.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",
                                         "/job:localhost/replica:0/task:0/device:CPU:1")
    assert tf.distribute.MirroredStrategy(["/cpu:0"]).num_replicas_in_sync == 1
    with pytest.raises(AssertionError, match="No duplicates allowed"):  # TF's assert
        tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:0"])
    # an empty list of devices is every local one, as with none given
    assert tf.distribute.MirroredStrategy([]).extended.worker_devices == s.extended.worker_devices


def test_run_gives_per_replica_values_and_reduce(two_cpus):
    s = two_cpus
    r = s.run(lambda x: x * (_replica_id() + 1), args=(tf.constant([1.0, 2.0]),))
    assert type(r).__name__ == "PerReplica"
    assert str(r) == ("PerReplica:{\n  0: tf.Tensor([1. 2.], shape=(2,), dtype=float32),\n"
                      "  1: tf.Tensor([2. 4.], shape=(2,), dtype=float32)\n}")
    assert [v.numpy().tolist() for v in s.experimental_local_results(r)] == [[1, 2], [2, 4]]
    np.testing.assert_allclose(s.reduce("SUM", r, axis=None).numpy(), [3.0, 6.0])
    np.testing.assert_allclose(s.reduce("MEAN", r, axis=None).numpy(), [1.5, 3.0])
    assert s.reduce("SUM", r, axis=0).numpy() == 9.0
    assert s.reduce(tf.distribute.ReduceOp.MEAN, r, axis=0).numpy() == 2.25
    np.testing.assert_allclose(s.gather(r, axis=0).numpy(), [1, 2, 2, 4])
    # the same object in every replica is returned as it is
    c = tf.constant(5.0)
    assert s.run(lambda: c) is c
    assert s.reduce("MEAN", c, axis=None).numpy() == 5.0
    with pytest.raises(ValueError, match="A non-DistributedValues value 3.0 cannot be reduced "
                                         "with the given reduce op ReduceOp.SUM"):
        s.reduce("SUM", 3.0, axis=None)
    # in a tf.function too
    step = tf.function(lambda x: s.run(lambda y: y * (_replica_id() + 1), args=(x,)))
    out = step(tf.constant([1.0]))
    assert [v.numpy().tolist() for v in out.values] == [[1.0], [2.0]]


def test_all_reduce_and_merge_call(two_cpus):
    s = two_cpus

    def step():
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("SUM", _replica_id() + 1.0), ctx.all_reduce("MEAN", [_replica_id()])
    total, (mean,) = s.run(step)
    assert [v.numpy() for v in total.values] == [3.0, 3.0]
    assert [v.numpy() for v in mean.values] == [0.5, 0.5]
    total = tf.function(lambda: s.run(step))()[0]
    assert [v.numpy() for v in total.values] == [3.0, 3.0]
    seen = []

    def merge(strategy, value):
        seen.append((tf.distribute.in_cross_replica_context(), type(value).__name__))
        return strategy.reduce("SUM", value, axis=None)
    out = s.run(lambda: tf.distribute.get_replica_context().merge_call(
        merge, args=(_replica_id() + 1,)))
    assert seen == [(True, "PerReplica")] and out.numpy() == 3.0


def test_distributed_dataset_splits_batches(two_cpus):
    s = two_cpus
    batches = [[v.numpy().tolist() for v in b.values]
               for b in s.experimental_distribute_dataset(tf.data.Dataset.range(7).batch(3))]
    assert batches == [[[0, 1], [2]], [[3, 4], [5]], [[6], []]]
    x, y = next(iter(s.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices(([[1.0], [2.0], [3.0], [4.0]], [0, 1, 2, 3])).batch(4))))
    assert [v.numpy().tolist() for v in y.values] == [[0, 1], [2, 3]]
    contexts = []

    def dataset_fn(ctx):
        contexts.append((ctx.num_input_pipelines, ctx.input_pipeline_id,
                         ctx.num_replicas_in_sync, ctx.get_per_replica_batch_size(8)))
        return tf.data.Dataset.range(8).batch(ctx.get_per_replica_batch_size(8))
    got = [[v.numpy().tolist() for v in b.values]
           for b in s.distribute_datasets_from_function(dataset_fn)]
    assert contexts == [(1, 0, 2, 4)] and got == [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    values = s.experimental_distribute_values_from_function(
        lambda ctx: ctx.replica_id_in_sync_group)
    assert str(values) == "PerReplica:{\n  0: 0,\n  1: 1\n}"


def test_mirrored_variables(two_cpus):
    s = two_cpus
    with s.scope():
        v = tf.Variable(1.0)
        w = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
        m = tf.Variable(0.0, aggregation=tf.VariableAggregation.MEAN)
        first = tf.Variable(0.0, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
        with pytest.raises(ValueError, match="aggregation=MEAN and a non-floating dtype"):
            tf.Variable(0, aggregation=tf.VariableAggregation.MEAN)
    assert type(v).__name__ == "MirroredVariable" and isinstance(v, tf.Variable)
    assert str(v) == (
        "MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, "
        "numpy=1.0>,\n  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, "
        "numpy=1.0>\n}")
    assert v.synchronization == tf.VariableSynchronization.ON_WRITE
    assert [c.device for c in v.values] == list(s.extended.worker_devices)
    v.assign(3.0)  # cross-replica: every copy
    assert [float(c.numpy()) for c in v.values] == [3.0, 3.0]

    def update():
        r = _replica_id() + 1.0
        w.assign_add(r)
        m.assign_add(r)
        first.assign_add(r)
        return m.read_value()
    out = s.run(update)
    assert [x.numpy() for x in out.values] == [1.5, 1.5]
    assert (w.numpy(), m.numpy(), first.numpy()) == (3.0, 1.5, 1.0)
    with pytest.raises(ValueError, match="A non-DistributedValues value 1.5 cannot be reduced"):
        s.run(lambda: w.assign_add(1.5))
    # one replica's update of an unaggregated variable applies once
    s.run(lambda: v.assign_add(1.0))
    assert v.numpy() == 4.0


def test_a_copy_written_on_its_own_keeps_its_value(two_cpus):
    # (values as TF 2.21 prints them) each copy of a mirrored variable is its own: updating
    # every copy updates each once, and one copy's update leaves the others as they were
    s = two_cpus
    with s.scope():
        v = tf.Variable(1.0)
        w = tf.Variable(2.0)
    for c in v.values:
        c.assign_add(1.0)
    assert [float(c.numpy()) for c in v.values] == [2.0, 2.0] and v.numpy() == 2.0
    v.values[0].assign(5.0)
    assert [float(c.numpy()) for c in v.values] == [5.0, 2.0] and v.numpy() == 5.0
    v.assign_add(1.0)  # (the variable's update applies to each copy)
    assert [float(c.numpy()) for c in v.values] == [6.0, 3.0]
    for c in w.values:
        c.assign(c * 2)
    assert [float(c.numpy()) for c in w.values] == [4.0, 4.0]

    def step():  # each replica reads its own copy; gradients reach the variable
        with tf.GradientTape() as tape:
            loss = v * v * (_replica_id() + 1.0)
        return v.read_value(), tf.convert_to_tensor(v), tape.gradient(loss, v)
    read, converted, grad = s.run(step)
    assert [float(x) for x in read.values] == [6.0, 3.0]
    assert [float(x) for x in converted.values] == [6.0, 3.0]
    assert [float(x) for x in grad.values] == [12.0, 12.0]
    # an unaggregated update in a replica updates the replica's copy
    out = s.run(lambda: v.assign_add(_replica_id() + 1.0))
    assert [float(x) for x in out.values] == [7.0, 5.0]
    assert [float(c.numpy()) for c in v.values] == [7.0, 5.0] and v.numpy() == 7.0

    @tf.function
    def every_copy():
        v.assign(3.0)
        for c in v.values:
            c.assign_add(1.0)
        return v.read_value()
    assert every_copy().numpy() == 4.0
    assert [float(c.numpy()) for c in v.values] == [4.0, 4.0]


def test_an_unaggregated_update_in_each_replica_updates_its_own_copy(two_cpus):
    # (as TF 2.21) without aggregation each replica writes its own copy, so the copies
    # differ afterwards; the variable reads as the first copy outside the replicas
    s = two_cpus
    with s.scope():
        v = tf.Variable(0.0)

    def step():
        v.assign(_replica_id() + 5.0)
        return v * 1.0
    assert [float(x) for x in s.run(step).values] == [5.0, 6.0]
    assert [float(c.numpy()) for c in v.values] == [5.0, 6.0] and v.numpy() == 5.0
    assert [float(x) for x in s.run(tf.function(lambda: v + 0.0)).values] == [5.0, 6.0]
    with s.scope():
        w = tf.Variable(0.0)
    traced = tf.function(lambda: s.run(lambda: w.assign_add(_replica_id() + 1.0)))
    assert [float(x) for x in traced().values] == [1.0, 2.0]
    assert [float(c.numpy()) for c in w.values] == [1.0, 2.0]


def test_custom_training_loop_sums_replica_gradients(two_cpus):
    """Two replicas of half the batch train as one replica of the whole batch."""
    rng = np.random.RandomState(0)
    x = rng.rand(16, 3).astype("float32")
    y = rng.randint(0, 2, size=(16,)).astype("int64")

    def train(strategy):
        tf.keras.utils.set_random_seed(1)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
            optimizer = tf.keras.optimizers.Adam(0.1)
            loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(
                from_logits=True, reduction=tf.keras.losses.Reduction.NONE)
            accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

        def step(inputs):
            images, labels = inputs
            with tf.GradientTape() as tape:
                predictions = model(images, training=True)
                loss = tf.nn.compute_average_loss(loss_fn(labels, predictions))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            accuracy.update_state(labels, predictions)
            return loss

        @tf.function
        def distributed_step(inputs):
            losses = strategy.run(step, args=(inputs,))
            return strategy.reduce("SUM", losses, axis=None)
        data = strategy.experimental_distribute_dataset(
            tf.data.Dataset.from_tensor_slices((x, y)).batch(8))
        losses = [float(distributed_step(b)) for _ in range(3) for b in data]
        return losses, float(accuracy.result()), int(optimizer.iterations), model

    losses, acc, iterations, model = train(two_cpus)
    one_losses, one_acc, one_iterations, _ = train(tf.distribute.MirroredStrategy(["/cpu:0"]))
    assert iterations == one_iterations == 6
    np.testing.assert_allclose(losses, one_losses, rtol=1e-5)
    assert acc == one_acc
    assert type(model.layers[0].kernel).__name__ == "MirroredVariable"


def test_central_storage_devices():
    c = tf.distribute.experimental.CentralStorageStrategy()
    assert c.extended.worker_devices == ["/job:localhost/replica:0/task:0/device:CPU:0"]
    assert c.extended.parameter_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",)
    assert c.num_replicas_in_sync == 1 and c.run(lambda: tf.constant(1.0)).numpy() == 1.0


def test_scope_only_in_cross_replica_context(two_cpus):
    s = two_cpus
    with pytest.raises(RuntimeError, match="Method requires being in cross-replica context"):
        s.run(lambda: s.scope().__enter__())
    with s.scope():
        with s.scope():  # nested, outside `run`
            assert tf.distribute.in_cross_replica_context()


def test_gather_takes_only_a_distributed_value_itself(two_cpus):
    # As TF 2.21's MirroredStrategy: a nest of per-replica values is not gathered leaf by
    # leaf, it comes back as the first replica's nest (a plain value as it is)
    s = two_cpus
    out = s.run(lambda: {"a": tf.fill([2, 1], _replica_id()),
                         "b": (tf.fill([1, 3], _replica_id() + 10), tf.fill([2], _replica_id()))})
    assert s.gather(out["a"], axis=1).numpy().tolist() == [[0.0, 1.0], [0.0, 1.0]]
    got = s.gather(out, axis=0)
    assert tf.nest.map_structure(lambda t: t.numpy().tolist(), got) == {
        "a": [[0.0], [0.0]], "b": ([[10.0, 10.0, 10.0]], [0.0, 0.0])}
    assert s.gather([1.0, 2.0], axis=0) == [1.0, 2.0]
    local = s.experimental_local_results(out)
    assert type(local) is tuple and len(local) == 2
    assert local[1]["b"][0].numpy().tolist() == [[11.0, 11.0, 11.0]]
    with pytest.raises(RuntimeError, match=r"^tf.distribute.Strategy.gather method requires "
                                           r"cross-replica context, use "
                                           r"get_replica_context\(\).all_gather\(\) instead$"):
        s.run(lambda: s.gather(tf.constant(1.0), 0))


def test_all_reduce_keeps_indexed_slices_sparse(two_cpus):
    # As TF: the replicas' rows together (a MEAN scales them); one replica's as they are.
    def step():
        ctx = tf.distribute.get_replica_context()
        row = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0
        grad = tf.IndexedSlices(tf.reshape(row, [1, 1]),
                                tf.reshape(ctx.replica_id_in_sync_group, [1]),
                                tf.constant([3, 1]))
        return ctx.all_reduce("SUM", grad), ctx.all_reduce("MEAN", grad)

    total, mean = two_cpus.experimental_local_results(two_cpus.run(step))[0]
    assert isinstance(total, tf.IndexedSlices) and isinstance(mean, tf.IndexedSlices)
    assert total.values.numpy().tolist() == [[1.0], [2.0]]
    assert total.indices.numpy().tolist() == [0, 1]
    assert mean.values.numpy().tolist() == [[0.5], [1.0]]
    single = tf.distribute.OneDeviceStrategy("/cpu:0").run(
        lambda: tf.distribute.get_replica_context().all_reduce(
            "SUM", tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([2, 1]))))
    assert isinstance(single, tf.IndexedSlices)


def test_mirrored_variables_refuse_sync_none_and_unknown_aggregations(two_cpus):
    with two_cpus.scope():
        with pytest.raises(ValueError, match=r"^`NONE` variable synchronization mode is not "
                                             r"supported with tf.distribute strategy. Please "
                                             r"change the `synchronization` for variable: x$"):
            tf.Variable(0.0, synchronization=tf.VariableSynchronization.NONE, name="x")
        with pytest.raises(ValueError, match=r"^Invalid variable aggregation mode: 3 for "
                                             r"variable: None$"):
            tf.Variable(0.0, aggregation=3)
        v1 = tf.Variable(0.0, aggregation=tf.compat.v1.VariableAggregation.ONLY_FIRST_TOWER)
        assert type(v1).__name__ == "MirroredVariable"
    # a single-device strategy keeps such a variable as it is
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.NONE)
    assert type(v).__name__ == "ResourceVariable"


def test_collectives_of_a_mirrored_variable_take_each_replicas_copy(two_cpus):
    # a distributed variable is its replicas' copies (TF sums and gathers them); a value
    # every replica shares (a captured tensor) comes back as it is, one per replica
    s = two_cpus
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    shared = tf.constant([5.0])

    def step():
        ctx = tf.distribute.get_replica_context()
        return (ctx.all_reduce("SUM", v), ctx.all_gather(v, axis=0),
                ctx.all_reduce("MEAN", v), ctx.all_gather(shared, axis=0))
    for run in (lambda: s.run(step), tf.function(lambda: s.run(step))):
        total, gathered, mean, same = run()
        assert [t.numpy().tolist() for t in total.values] == [[2.0, 4.0]] * 2
        assert [t.numpy().tolist() for t in gathered.values] == [[1.0, 2.0, 1.0, 2.0]] * 2
        assert [t.numpy().tolist() for t in mean.values] == [[1.0, 2.0]] * 2
        assert isinstance(same, tf.distribute.DistributedValues)
        assert [t.numpy().tolist() for t in same.values] == [[5.0]] * 2


def test_extended_value_container_and_replica_calls(two_cpus):
    s = two_cpus
    with s.scope():
        v = tf.Variable(1.0)
        r = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    assert all(s.extended.value_container(c) is v for c in v.values)
    assert all(s.extended.value_container(c) is r for c in r.values)
    t = tf.constant(1.0)
    assert s.extended.value_container(t) is t
    ids = s.extended.call_for_each_replica(
        lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    assert [int(i) for i in ids.values] == [0, 1]
    assert s.extended.non_slot_devices([v]) == s.extended.worker_devices
    assert s.extended.experimental_require_static_shapes is False


def test_run_of_a_tf_function_traces_each_replicas_step(two_cpus):
    # (values as TF 2.21 prints them) a `tf.function` given to `run` is each replica's own
    # step: its replica id, and its optimizer's merge_call, in every replica
    s = two_cpus

    @tf.function
    def shifted(x):
        return x + _replica_id()
    assert [float(v) for v in s.run(shifted, args=(tf.constant(1.0),)).values] == [1.0, 2.0]
    assert shifted.experimental_get_tracing_count() == 0  # (TF's: `run` traces its own)

    x = np.arange(24, dtype="float32").reshape(8, 3) / 10
    y = np.arange(8, dtype="float32").reshape(8, 1)
    with s.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.build((None, 3))
        opt = tf.keras.optimizers.SGD(0.01)
        mean = tf.keras.metrics.Mean()

    @tf.function
    def train_step(inputs):
        xb, yb = inputs
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(tf.square(model(xb) - yb)[:, 0],
                                              global_batch_size=8)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        mean.update_state(loss)
        return loss
    batch = next(iter(s.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(8))))
    losses = [s.run(train_step, args=(batch,)) for _ in range(2)]
    np.testing.assert_allclose([[float(v) for v in r.values] for r in losses],
                               [[0.0175, 0.037499964], [0.01827579, 0.031405233]], rtol=1e-6)
    np.testing.assert_allclose(model.layers[0].kernel.numpy().ravel(),
                               [1.0079452, 1.0081134, 1.0082817], rtol=1e-6)
    np.testing.assert_allclose(mean.result().numpy(), 0.026170246, rtol=1e-6)


def test_a_tf_function_called_in_each_replica_traces_per_replica(two_cpus):
    # (as TF 2.21, which traces it once per replica device)
    s = two_cpus

    @tf.function
    def shifted(x):
        return x + _replica_id()
    out = s.run(lambda x: shifted(x), args=(tf.constant(1.0),))
    assert [float(v) for v in out.values] == [1.0, 2.0]
    out = tf.function(lambda x: s.run(shifted, args=(x,)))(tf.constant(2.0))
    assert [float(v) for v in out.values] == [2.0, 3.0]
    assert shifted.experimental_get_tracing_count() == 2
    assert float(shifted(tf.constant(1.0))) == 1.0  # (outside any replica)


def test_extended_update_with_per_replica_values_updates_each_copy(two_cpus):
    # (values as TF 2.21 prints them) each copy takes its replica's value
    s = two_cpus
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    v.assign_add([1.0, 1.0])
    per = s.run(lambda: _replica_id() + tf.zeros([2]))
    out = s.extended.update(v, lambda var, t: var.assign_add(t), args=(per,))
    assert [x.numpy().tolist() for x in s.experimental_local_results(out)] == \
        [[2.0, 3.0], [3.0, 4.0]]
    assert [c.numpy().tolist() for c in v.values] == [[2.0, 3.0], [3.0, 4.0]]
    s.extended.update(v, lambda var, t: var.assign(t * 2), kwargs={"t": tf.ones([2])})
    assert [c.numpy().tolist() for c in v.values] == [[2.0, 2.0], [2.0, 2.0]]


def test_per_replica_value_as_a_tensor_only_in_its_replica(two_cpus):
    # (as TF 2.21) a replica converts a PerReplica value to its own value; outside the
    # replicas the value is not one tensor
    s = two_cpus
    pr = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group)))
    assert not tf.is_tensor(pr)
    assert [float(x) for x in s.run(lambda: tf.convert_to_tensor(pr) + 1).values] == [1.0, 2.0]
    traced = tf.function(lambda: s.run(lambda: tf.convert_to_tensor(pr) * 2))
    assert [float(x) for x in traced().values] == [0.0, 2.0]
    for scope in (s.scope(), contextlib.nullcontext()):
        with scope, pytest.raises(ValueError, match="using a PerReplica object while not inside"):
            tf.convert_to_tensor(pr)


def test_gathers_refuse_an_axis_that_is_not_a_dimension(two_cpus):
    # (as TF 2.21: ValueError; the axis counts from 0, negative axes are refused too)
    s = two_cpus
    per = s.run(lambda: tf.ones([2, 3]) * (_replica_id() + 1))
    assert s.gather(per, axis=1).shape == (2, 6)
    for axis in (2, -1):
        with pytest.raises(ValueError, match=f"gather along axis {axis}"):
            s.gather(per, axis=axis)
    with pytest.raises(ValueError, match="axis 0 values of rank 0"):
        s.run(lambda: tf.distribute.get_replica_context().all_gather(tf.constant(1.0), 0))
