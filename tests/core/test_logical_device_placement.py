"""Eager tensors, variables and strategies' values on the logical CPUs the host is split
into report that logical device (the strings TensorFlow 2.21 prints)."""
import pytest

import eagerflow as tf

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"
CPU1 = "/job:localhost/replica:0/task:0/device:CPU:1"


@pytest.fixture
def two_cpus():
    cpu = tf.config.list_physical_devices("CPU")[0]
    saved = tf.config.get_logical_device_configuration(cpu)
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    try:
        yield
    finally:
        tf.config.set_logical_device_configuration(cpu, saved)


def test_ops_in_a_device_block_run_on_its_logical_cpu(two_cpus):
    with tf.device("/cpu:1"):
        a = tf.constant(1.)
        b = a * 2
        v = tf.Variable(3.)
        results = [a, b, tf.identity(a), v.read_value(), v + 1, tf.convert_to_tensor([1, 2]),
                   tf.constant("s"), tf.range(3), tf.reduce_sum(b)]
    assert [t.device for t in results] == [CPU1] * len(results)
    assert a.backing_device == CPU1 and v.device == CPU1 and v.handle.device == CPU1
    assert float(b) == 2.0


def test_ops_outside_a_device_block_run_on_the_first_cpu(two_cpus):
    with tf.device("/cpu:1"):
        b = tf.constant(2.)
    assert b.device == CPU1
    # TF places an op without a device block on the default device, whatever its inputs'
    assert [t.device for t in (b + 1, tf.identity(b), b + tf.constant(1.), tf.constant(1.) + b,
                               tf.reduce_sum(b), tf.reshape(b, [1]), b[None])] == [CPU0] * 7
    with tf.device("/cpu:0"):
        assert (b + 1).device == CPU0
    assert tf.Variable(1.).device == CPU0


def test_nested_device_blocks(two_cpus):
    with tf.device("/cpu:1"):
        devices = []
        for spec in ("/cpu:0", None, "/gpu:0", "/cpu:5", "/device:CPU:*", "/job:localhost"):
            with tf.device(spec):
                devices.append(tf.constant(2.).device)
    assert devices == [CPU0, CPU0, CPU0, CPU0, CPU1, CPU1]
    with tf.device("/cpu:5"):  # placement is soft: a CPU that is not there is the first
        assert tf.constant(2.).device == CPU0


def test_functions_and_datasets_in_a_device_block(two_cpus):
    f = tf.function(lambda x: x * 2)
    with tf.device("/cpu:1"):
        assert f(tf.constant(1.)).device == CPU1
        assert [e.device for e in tf.data.Dataset.range(2)] == [CPU1, CPU1]
    assert f(tf.constant(1.)).device == CPU0


def test_one_device_strategy_on_a_logical_cpu(two_cpus):
    strategy = tf.distribute.OneDeviceStrategy("/cpu:1")
    with strategy.scope():
        w = tf.Variable(1.)
    assert w.device == CPU1
    assert strategy.run(lambda: tf.constant(1.) + 1).device == CPU1
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.range(2).batch(1))
    assert [e.device for e in dataset] == [CPU1, CPU1]
    assert strategy.experimental_distribute_dataset(
        tf.data.Dataset.range(2).batch(1)).__iter__().get_next().device == CPU1


def test_mirrored_strategy_replicas_on_logical_cpus(two_cpus):
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    result = strategy.run(lambda: tf.constant(1.) * 2)
    assert [t.device for t in result.values] == [CPU0, CPU1]
    with strategy.scope():
        v = tf.Variable(1.)
    assert [t.device for t in v.values] == [CPU0, CPU1]


def test_without_logical_cpus_a_second_cpu_is_the_first():
    with tf.device("/cpu:1"):
        assert tf.constant(1.).device == CPU0


def test_reads_of_a_variable_run_where_it_lives(two_cpus):
    with tf.device("/cpu:1"):
        v = tf.Variable([1., 2., 3.])
    # TF runs a variable's reads (ReadVariableOp, ResourceGather) and updates on its device;
    # ops on what they read run on the default device
    assert [t.device for t in (v.value(), v.sparse_read([0]), tf.gather(v, [0]),
                               tf.convert_to_tensor(v), v.assign_add([1., 1., 1.]))] == [CPU1] * 5
    assert [t.device for t in (v[0], tf.identity(v), v * 2, v.read_value())] == [CPU0] * 4
    assert v.sparse_read([2]).numpy().tolist() == [4.]


def test_gradients_and_keras_weights_on_a_logical_cpu(two_cpus):
    with tf.device("/cpu:1"):
        x = tf.constant([1., 2.])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x * x)
        g = tape.gradient(y, x)
    assert (y.device, g.device) == (CPU1, CPU1)
    assert g.numpy().tolist() == [2., 4.]
    with tf.distribute.OneDeviceStrategy("/cpu:1").scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    assert [w.device for w in model.weights] == [CPU1, CPU1]


def test_mirrored_strategy_dataset_elements_on_the_replicas_devices(two_cpus):
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
    elements = [[t.device for t in e.values] for e in dataset]
    assert elements == [[CPU0, CPU1], [CPU0, CPU1]]
    batches = [[t.numpy().tolist() for t in e.values] for e in dataset]
    assert batches == [[[0], [1]], [[2], [3]]]
    from_function = strategy.distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.range(4).batch(1))
    assert [[t.device for t in e.values] for e in from_function] == [[CPU0, CPU1]] * 2


def test_an_iterators_elements_are_on_the_device_it_was_made_on(two_cpus):
    with tf.device("/cpu:1"):
        it = iter(tf.data.Dataset.range(5))
    assert [next(it).device, it.get_next().device,
            it.get_next_as_optional().get_value().device] == [CPU1] * 3
    with tf.device("/cpu:0"):
        assert next(it).device == CPU1
    it = iter(tf.data.Dataset.range(5))
    with tf.device("/cpu:1"):
        assert [next(it).device, it.get_next().device,
                it.get_next_as_optional().get_value().device] == [CPU0] * 3


def test_all_reduce_results_on_each_replicas_device(two_cpus):
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    def replica_fn():
        return tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.))
    result = strategy.run(replica_fn)
    assert [t.device for t in result.values] == [CPU0, CPU1]
    assert [float(t) for t in result.values] == [2.0, 2.0]
    assert strategy.reduce("SUM", strategy.run(lambda: tf.constant(1.)), axis=None).device == \
        CPU0
    gathered = strategy.run(
        lambda: tf.distribute.get_replica_context().all_gather(tf.constant([1.]), axis=0))
    assert [t.device for t in gathered.values] == [CPU0, CPU1]
