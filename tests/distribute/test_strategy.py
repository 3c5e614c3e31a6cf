"""tf.distribute on one device: the strategies of the distributed-training tutorials."""
import numpy as np
import pytest

import eagerflow as tf


def test_default_strategy_and_contexts():
    s = tf.distribute.get_strategy()
    assert type(s).__name__ == "_DefaultDistributionStrategy"
    assert s.num_replicas_in_sync == 1
    assert not tf.distribute.has_strategy()
    assert not tf.distribute.in_cross_replica_context()
    assert type(tf.distribute.get_replica_context()).__name__ == "_DefaultReplicaContext"
    # outside any strategy the replica id is a Python int, inside `run` a tensor
    assert type(tf.distribute.get_replica_context().replica_id_in_sync_group) is int
    with s.scope():
        assert not tf.distribute.has_strategy()


def test_scope_sets_strategy_and_variables_are_plain():
    m = tf.distribute.MirroredStrategy()
    assert m.num_replicas_in_sync == 1
    with m.scope():
        assert tf.distribute.has_strategy()
        assert tf.distribute.get_strategy() is m
        assert tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        v = tf.Variable(1.0)
        with m.scope():  # nesting the same strategy is fine
            assert tf.distribute.get_strategy() is m
    assert isinstance(v, tf.Variable)
    assert not tf.distribute.has_strategy()


def test_mixing_strategies_raises():
    m = tf.distribute.MirroredStrategy()
    o = tf.distribute.OneDeviceStrategy("/cpu:0")
    with m.scope():
        with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects"):
            with o.scope():
                pass
        assert tf.distribute.get_strategy() is m


def test_run_and_replica_context():
    m = tf.distribute.MirroredStrategy(["/cpu:0"])
    seen = {}

    def step(x, scale=1.0):
        ctx = tf.distribute.get_replica_context()
        seen["n"] = ctx.num_replicas_in_sync
        seen["id"] = int(ctx.replica_id_in_sync_group)
        seen["in_cross"] = tf.distribute.in_cross_replica_context()
        return ctx.all_reduce(tf.distribute.ReduceOp.SUM, x * scale)

    out = m.run(step, args=(tf.constant([1.0, 2.0]),), kwargs={"scale": 3.0})
    np.testing.assert_allclose(out.numpy(), [3.0, 6.0])
    assert seen == {"n": 1, "id": 0, "in_cross": False}
    assert m.experimental_local_results(out)[0] is out


def test_reduce():
    m = tf.distribute.MirroredStrategy()
    assert float(m.reduce("SUM", tf.constant([1.0, 2.0, 3.0]), axis=0)) == 6.0
    np.testing.assert_allclose(
        m.reduce(tf.distribute.ReduceOp.MEAN, tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=0).numpy(),
        [2.0, 3.5])
    assert float(m.reduce("SUM", 3.0, axis=None)) == 3.0
    with pytest.raises(ValueError, match="'MAX' is not a valid ReduceOp"):
        m.reduce("MAX", 1.0, axis=None)
    assert str(tf.distribute.ReduceOp.SUM) == "ReduceOp.SUM"


def test_distributed_datasets():
    m = tf.distribute.MirroredStrategy()
    dd = m.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
    assert [x.numpy().tolist() for x in dd] == [[0, 1], [2, 3]]
    it = iter(dd)
    assert next(it).numpy().tolist() == [0, 1]
    assert it.get_next().numpy().tolist() == [2, 3]

    contexts = []

    def dataset_fn(ctx):
        contexts.append(ctx)
        return tf.data.Dataset.range(3).batch(ctx.get_per_replica_batch_size(2))

    dd2 = m.distribute_datasets_from_function(dataset_fn)
    assert [x.numpy().tolist() for x in dd2] == [[0, 1], [2]]
    assert str(contexts[0]) == "tf.distribute.InputContext(input pipeline id 0, total: 1)"
    assert (contexts[0].num_input_pipelines, contexts[0].input_pipeline_id) == (1, 0)


def _dense():
    # a seeded initializer: both programs start from the same weights
    return tf.keras.layers.Dense(1, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=1))


def _data():
    rng = np.random.RandomState(0)
    x = rng.rand(32, 4).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], "float32")).astype("float32")
    return x, y


# TensorFlow 2.21's epoch losses for both programs (the same under MirroredStrategy and without)
_TF_LOSSES = [1.0933353900909424, 0.7067512273788452, 0.6356199383735657]


def _custom_loop(strategy):
    """The custom training loop of the tutorial: strategy.run + strategy.reduce in a tf.function."""
    x, y = _data()
    global_batch = 8
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), _dense()])
        loss_object = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)
        optimizer = tf.keras.optimizers.SGD(0.1)

        def compute_loss(labels, predictions):
            per_example = loss_object(labels, predictions)
            return tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)

    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch)
    dist_dataset = strategy.experimental_distribute_dataset(dataset)

    def train_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            loss = compute_loss(labels, model(features, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def distributed_train_epoch(dist_ds):
        total = 0.0
        batches = 0.0
        for batch in dist_ds:
            per_replica = strategy.run(train_step, args=(batch,))
            total += strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
            batches += 1.0
        return total / batches

    return [float(distributed_train_epoch(dist_dataset)) for _ in range(3)]


def test_custom_training_loop_matches_default_strategy():
    with_strategy = _custom_loop(tf.distribute.MirroredStrategy())
    without = _custom_loop(tf.distribute.get_strategy())
    np.testing.assert_allclose(with_strategy, without, rtol=1e-6)
    np.testing.assert_allclose(with_strategy, _TF_LOSSES, rtol=1e-5)


def _fit(strategy):
    x, y = _data()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), _dense()])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
    return model, history.history["loss"]


def test_keras_fit_under_scope():
    strategy = tf.distribute.MirroredStrategy()
    model, losses = _fit(strategy)
    assert model.distribute_strategy is strategy
    plain, plain_losses = _fit(tf.distribute.get_strategy())
    assert plain.distribute_strategy is tf.distribute.get_strategy()
    np.testing.assert_allclose(losses, plain_losses, rtol=1e-6)
    np.testing.assert_allclose(losses, _TF_LOSSES, rtol=1e-5)


def test_experimental_options():
    opts = tf.distribute.experimental.CommunicationOptions()
    assert str(opts) == ("Options(bytes_per_pack=0,timeout_seconds=None, "
                         "implementation=CommunicationImplementation.AUTO)")
    assert str(tf.distribute.experimental.CommunicationImplementation.AUTO) == \
        "CommunicationImplementation.AUTO"


def test_run_and_reduce_need_cross_replica_context():
    s = tf.distribute.MirroredStrategy()
    msg = "Method requires being in cross-replica context"
    with pytest.raises(RuntimeError, match=msg):
        s.run(lambda: s.run(lambda: 1))
    with pytest.raises(RuntimeError, match=msg):
        s.run(lambda: s.reduce("SUM", 1.0, axis=None))

    def merged():
        return tf.distribute.get_replica_context().merge_call(
            lambda st: (tf.distribute.in_cross_replica_context(), st is s))
    assert s.run(merged) == (True, True)


def test_device_names():
    host = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert tf.distribute.OneDeviceStrategy("/cpu:0").extended.worker_devices == (host,)
    assert tf.distribute.MirroredStrategy(["/cpu:0"]).extended.worker_devices == (host,)
    assert tf.distribute.MirroredStrategy().extended.worker_devices == (host,)


def test_explicit_iterator_passed_to_function():
    s = tf.distribute.MirroredStrategy()
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(2))
    it = iter(dd)

    @tf.function
    def step(iterator):
        return s.run(lambda x: x * 2, args=(next(iterator),))

    assert step(it).numpy().tolist() == [0, 2]
    assert step(it).numpy().tolist() == [4, 6]
    assert it.element_spec == tf.TensorSpec([None], tf.int64)
    assert dd.element_spec == tf.TensorSpec([None], tf.int64)


def test_loss_scaling_needs_replica_context():
    s = tf.distribute.MirroredStrategy()
    with s.scope():
        with pytest.raises(RuntimeError, match="You are calling `compute_average_loss` in cross "
                                               "replica context"):
            tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))
        with pytest.raises(RuntimeError, match="`scale_regularization_loss` in cross replica"):
            tf.nn.scale_regularization_loss(tf.constant(2.0))
        out = s.run(tf.nn.compute_average_loss, args=(tf.constant([1.0, 2.0, 3.0]),),
                    kwargs={"global_batch_size": 4})
    assert float(out) == 1.5
    assert float(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))) == 2.0


def test_keras_fit_evaluate_predict_inside_scope():
    x, y = _data()
    strategy = tf.distribute.MirroredStrategy()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), _dense()])
        model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
        history = model.fit(ds, epochs=2, verbose=0)
        loss, mae = model.evaluate(ds, verbose=0)
        pred = model.predict(x[:2], verbose=0)
    plain = tf.keras.Sequential([tf.keras.Input((4,)), _dense()])
    plain.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    np.testing.assert_allclose(history.history["loss"],
                               plain.fit(ds, epochs=2, verbose=0).history["loss"], rtol=1e-6)
    np.testing.assert_allclose([loss, mae], plain.evaluate(ds, verbose=0), rtol=1e-6)
    np.testing.assert_allclose(pred, plain.predict(x[:2], verbose=0), rtol=1e-6)


def test_cross_device_ops_and_public_classes():
    for cls in (tf.distribute.HierarchicalCopyAllReduce, tf.distribute.NcclAllReduce,
                tf.distribute.ReductionToOneDevice):
        s = tf.distribute.MirroredStrategy(cross_device_ops=cls())
        assert isinstance(cls(), tf.distribute.CrossDeviceOps)
        assert s.num_replicas_in_sync == 1
    with pytest.raises(ValueError, match="HierarchicalCopy requires num_packs >= 0, but -1"):
        tf.distribute.HierarchicalCopyAllReduce(num_packs=-1)
    s = tf.distribute.MirroredStrategy()
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(2))
    assert isinstance(dd, tf.distribute.DistributedDataset)
    assert isinstance(iter(dd), tf.distribute.DistributedIterator)
    assert isinstance(s.extended, tf.distribute.StrategyExtended)
    assert isinstance(s, tf.distribute.Strategy)


def test_compile_under_another_strategy_raises():
    s = tf.distribute.MirroredStrategy()
    outside = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    with s.scope():
        with pytest.raises(ValueError, match=r"was not created in the distribution strategy "
                                             r"scope of \(.*MirroredStrategy"):
            outside.compile("sgd", "mse")
        inside = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
        with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy"):
            inside.compile("sgd", "mse")
    inside.compile("sgd", "mse")  # outside any scope: fine
    assert inside.distribute_strategy is s
    assert type(inside.variables[0]).__name__ == "MirroredVariable"
    assert type(outside.variables[0]).__name__ == "ResourceVariable"


def test_tutorial_epoch_and_iterator_loops_in_function():
    s = tf.distribute.MirroredStrategy()
    dd = s.experimental_distribute_dataset(
        tf.data.Dataset.range(6).map(lambda v: tf.cast(v, tf.float32)).batch(2))

    @tf.function
    def distributed_epoch(dataset):
        total_loss = 0.0
        num_batches = 0
        for x in dataset:
            per_replica = s.run(tf.reduce_sum, args=(x,))
            total_loss += s.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
            num_batches += 1
        return total_loss / tf.cast(num_batches, dtype=tf.float32)

    assert float(distributed_epoch(dd)) == 5.0

    @tf.function
    def two_steps(iterator):
        total = 0.0
        for _ in tf.range(2):
            total += s.reduce("SUM", next(iterator), axis=0)
        return total

    assert float(two_steps(iter(dd))) == 6.0


def test_reduce_and_run_edge_cases():
    s = tf.distribute.MirroredStrategy()
    with pytest.raises(ValueError, match="positional args must be a list or tuple"):
        s.run(lambda a: a, args=tf.constant([1.0, 2.0]))
    assert float(s.run(lambda a, b: a + b, args=[1.0, 2.0])) == 3.0
    mean = s.reduce("MEAN", tf.constant([1, 2]), axis=0)  # TF's integer mean is a float64
    assert mean.dtype == tf.float64 and float(mean) == 1.5
    np.testing.assert_allclose(
        s.reduce("MEAN", tf.constant([[1.0, 2.0], [3.0, 6.0]]), axis=1).numpy(), [1.5, 4.5])
    v = tf.Variable([1.0, 2.0])
    assert s.reduce(tf.distribute.ReduceOp.MEAN, v, axis=None) is v
    assert float(s.reduce("sum", 1.0, axis=None)) == 1.0

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def mean_over_batch(x):
        return s.reduce("MEAN", s.run(lambda t: t * 2.0, args=(x,)), axis=0)

    np.testing.assert_allclose(mean_over_batch(tf.constant([[1.0, 2.0], [3.0, 4.0]])).numpy(),
                               [4.0, 6.0])


def test_distributed_dataset_argument_traces_once_per_spec():
    s = tf.distribute.MirroredStrategy()

    @tf.function
    def total(ds):
        t = tf.constant(0, tf.int64)
        for x in ds:
            t += s.reduce("SUM", x, axis=0)
        return t

    assert int(total(s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2)))) == 6
    assert int(total(s.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(2)))) == 45
    assert total.experimental_get_tracing_count() == 1


def test_distribute_dataset_needs_a_dataset():
    with pytest.raises(AttributeError, match="'list' object has no attribute '_variant_tensor'"):
        tf.distribute.MirroredStrategy().experimental_distribute_dataset([1, 2])


def test_mirrored_run_called_eagerly_warns_five_times():
    import subprocess
    import sys
    code = ("import eagerflow as tf\n"
            "s = tf.distribute.MirroredStrategy()\n"
            "f = tf.function(lambda: s.run(lambda: tf.constant(1.0)))\n"
            "f()\n"  # traced: no warning
            "tf.distribute.OneDeviceStrategy('/cpu:0').run(lambda: tf.constant(1.0))\n"
            "for _ in range(7):\n"
            "    s.run(lambda: tf.constant(1.0))\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stderr
    assert err.count("WARNING:tensorflow:Using MirroredStrategy eagerly has significant "
                     "overhead currently.") == 5


def test_mirrored_run_of_a_tf_function_does_not_warn():
    import subprocess
    import sys
    code = ("import eagerflow as tf\n"
            "s = tf.distribute.MirroredStrategy()\n"
            "step = tf.function(lambda: tf.constant(1.0))\n"
            "for _ in range(6):\n"
            "    s.run(step)\n"  # TF runs a tf.function's replicas in its graph
            "s.run(lambda: tf.constant(1.0))\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stderr
    assert err.count("WARNING:tensorflow:Using MirroredStrategy eagerly has significant "
                     "overhead currently.") == 1


def test_values_from_function_are_per_replica():
    s = tf.distribute.MirroredStrategy()
    v = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([1.0, 2.0]) * (ctx.replica_id_in_sync_group + 1))
    assert str(v) == "PerReplica:{\n  0: tf.Tensor([1. 2.], shape=(2,), dtype=float32)\n}"
    local = s.experimental_local_results(v)
    assert len(local) == 1 and local[0].numpy().tolist() == [1.0, 2.0]
    out = s.run(lambda x, y: x * 2 + y, args=(v,), kwargs={"y": v})
    assert out.numpy().tolist() == [3.0, 6.0]
    assert float(s.reduce("MEAN", v, axis=0)) == 1.5
    assert s.gather(v, axis=0).numpy().tolist() == [1.0, 2.0]
    assert tf.function(lambda x: s.run(lambda t: t + 1, args=(x,)))(v).numpy().tolist() == [2, 3]


def test_strategies_report_the_device_asked_for():
    gpu = "/job:localhost/replica:0/task:0/device:GPU:0"
    assert tf.distribute.OneDeviceStrategy("/gpu:0").extended.worker_devices == (gpu,)
    assert tf.distribute.MirroredStrategy(["/gpu:0"]).extended.worker_devices == (gpu,)
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert s.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",)


def test_mirrored_strategy_logs_its_devices_at_info(caplog):
    import logging
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        tf.distribute.MirroredStrategy()
        tf.distribute.OneDeviceStrategy("/cpu:0")
    assert caplog.messages == ["Using MirroredStrategy with devices "
                               "('/job:localhost/replica:0/task:0/device:CPU:0',)"]


def test_reduce_without_axis_keeps_a_list_or_tuple_structure():
    # As TF: each value of the nest is reduced on its own (a MirroredStrategy's SUM makes
    # each a tensor, a MEAN leaves Python numbers as they are); with an axis, a list of
    # numbers or tensors is reduced as the one tensor it makes.
    mirrored, one = tf.distribute.MirroredStrategy(), tf.distribute.OneDeviceStrategy("/cpu:0")
    total = mirrored.reduce("SUM", [tf.constant(1.0), tf.constant([2.0, 4.0])], axis=None)
    assert isinstance(total, list) and [t.numpy().tolist() for t in total] == [1.0, [2.0, 4.0]]
    summed = mirrored.reduce("SUM", [1.0, 2.0], axis=None)
    assert isinstance(summed, list) and [repr(t) for t in summed] == [
        "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>",
        "<tf.Tensor: shape=(), dtype=float32, numpy=2.0>"]
    assert mirrored.reduce("MEAN", [1.0, 2.0], axis=None) == [1.0, 2.0]
    pair = one.reduce("SUM", (tf.constant([1.0, 3.0]),), axis=None)
    assert isinstance(pair, tuple) and pair[0].numpy().tolist() == [1.0, 3.0]
    assert float(one.reduce("SUM", [1.0, 2.0], axis=0)) == 3.0
    assert mirrored.reduce("SUM", [[1, 2], [3, 4]], axis=0).numpy().tolist() == [4, 6]


def test_extended_read_var_reads_in_cross_replica_context():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(6.0)
    value = strategy.extended.read_var(v)
    assert repr(value) == "<tf.Tensor: shape=(), dtype=float32, numpy=6.0>"


@pytest.mark.parametrize("make, context, extended", [
    (tf.distribute.MirroredStrategy, "_MirroredReplicaContext", "MirroredExtended"),
    (lambda: tf.distribute.OneDeviceStrategy("/cpu:0"), "_OneDeviceReplicaContext",
     "OneDeviceExtended"),
    (tf.distribute.get_strategy, "ReplicaContext", "_DefaultDistributionExtended"),
    (tf.distribute.experimental.CentralStorageStrategy, "_MirroredReplicaContext",
     "ParameterServerStrategyExtended"),
    (tf.distribute.MultiWorkerMirroredStrategy, "_MirroredReplicaContext",
     "CollectiveAllReduceExtended"),
])
def test_replica_contexts_and_extended_apis_are_named_as_tf_names_them(make, context, extended):
    strategy = make()
    name = strategy.run(lambda: type(tf.distribute.get_replica_context()).__name__)
    traced = tf.function(lambda: strategy.run(
        lambda: tf.constant(type(tf.distribute.get_replica_context()).__name__)))
    assert name == context and traced().numpy().decode() == context
    assert isinstance(tf.distribute.get_replica_context(), tf.distribute.ReplicaContext)
    assert type(strategy.extended).__name__ == extended
    assert isinstance(strategy.extended, tf.distribute.StrategyExtended)


def test_replica_context_devices_as_tf_gives_them():
    mirrored = tf.distribute.MirroredStrategy()
    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert mirrored.run(lambda: tf.distribute.get_replica_context().devices) == [[device]]
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert one.run(lambda: tf.distribute.get_replica_context().devices) == (device,)
    assert tf.distribute.get_replica_context().devices == ("",)


def test_default_strategy_distributes_a_dataset_as_it_is():
    default = tf.distribute.get_strategy()
    dataset = tf.data.Dataset.range(3)
    assert default.experimental_distribute_dataset(dataset) is dataset
    contexts = []
    made = default.distribute_datasets_from_function(
        lambda ctx: contexts.append(ctx) or dataset)
    assert made is dataset
    assert (contexts[0].num_input_pipelines, contexts[0].input_pipeline_id,
            contexts[0].num_replicas_in_sync) == (1, 0, 1)


def test_default_strategy_names_no_devices():
    # (as TF 2.21) the default strategy places nothing itself; one replica
    extended = tf.distribute.get_strategy().extended
    with pytest.raises(RuntimeError, match="worker_devices.. method unsupported by default"):
        extended.worker_devices
    with pytest.raises(RuntimeError, match="parameter_devices.. method unsupported"):
        extended.parameter_devices
    assert tf.distribute.get_strategy().num_replicas_in_sync == 1
    one = tf.distribute.OneDeviceStrategy("/cpu:0").extended
    assert (one.experimental_should_init, one.experimental_between_graph) == (True, False)


def test_value_context_prints_its_replica():
    # (as TF 2.21 prints it)
    assert str(tf.distribute.experimental.ValueContext(1, 2)) == \
        "tf.distribute.ValueContext(replica id 1,  total replicas in sync: 2)"
