import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
print(cpu == tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU"))
print(tf.config.list_logical_devices("CPU"))
tf.config.set_visible_devices(cpu)
print(tf.config.get_visible_devices("CPU"))
print(tf.config.experimental.get_synchronous_execution())
print(tf.version.GRAPH_DEF_VERSION, tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER)
print(tf.DeviceSpec.from_string("/job:w/replica:1/task:2/GPU:*"))
for bad in [lambda: tf.config.experimental.get_device_details("CPU:0"),
            lambda: tf.config.experimental.set_device_policy("bogus"),
            lambda: tf.keras.backend.set_floatx(tf.float64)]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, str(e).split(".")[0])


@tf.function
def traced(x):
    with tf.device("/cpu:0"):
        y = x * 2
        print("traced device:", repr(y.device), repr(y.op.device))
    return y


traced(tf.constant(1.0))

strategy = tf.distribute.MirroredStrategy()
print(tf.distribute.get_replica_context().replica_id_in_sync_group)
print(tf.distribute.OneDeviceStrategy("/gpu:0").extended.worker_devices)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([1.0, 2.0]) * (ctx.replica_id_in_sync_group + 1))
print(values)
print(strategy.experimental_local_results(values))
print(strategy.run(lambda x: x * 2, args=(values,)))
print(strategy.reduce("MEAN", values, axis=0))

m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
m.compile("sgd", "mse")
tf.config.run_functions_eagerly(True)
print(m.run_eagerly)
tf.config.run_functions_eagerly(False)
print(m.run_eagerly)

tf.keras.mixed_precision.set_global_policy("mixed_bfloat16")
mha = tf.keras.layers.MultiHeadAttention(num_heads=1, key_dim=2)
print(mha(tf.ones((1, 2, 2)), tf.ones((1, 2, 2))).dtype)
tf.keras.mixed_precision.set_global_policy("float32")
