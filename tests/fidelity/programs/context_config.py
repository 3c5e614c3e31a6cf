import tensorflow as tf

print(tf.executing_eagerly())
print([d.device_type for d in tf.config.list_physical_devices("CPU")])
print(len(tf.config.list_logical_devices("CPU")) >= 1)
print(tf.config.list_physical_devices("GPU") == [] or True)
with tf.device("/CPU:0"):
    x = tf.constant([1.0, 2.0])
    print(x.device.endswith("CPU:0"))
with tf.name_scope("block"):
    v = tf.Variable(1.0, name="v")
    print(v.name)
    with tf.name_scope("inner"):
        print(tf.Variable(2.0, name="w").name)
with tf.name_scope("block"):
    print(tf.Variable(1.0, name="v").name)
print(tf.Variable(1.0, name="top").name)
with tf.name_scope("scope") as scope:
    print(repr(scope))
print(tf.config.get_soft_device_placement())
print(tf.config.threading.get_inter_op_parallelism_threads() >= 0 if hasattr(tf.config, "threading") else True)
print(tf.DeviceSpec.from_string("/job:localhost/replica:0/task:0/device:CPU:0").device_type)
print(tf.DeviceSpec(device_type="GPU", device_index=1).to_string())
