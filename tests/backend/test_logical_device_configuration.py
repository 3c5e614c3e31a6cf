"""tf.config.set_logical_device_configuration / get_logical_device_configuration."""
import pytest

import eagerflow as tf


def test_split_the_cpu_into_logical_devices():
    cpu = tf.config.list_physical_devices("CPU")[0]
    before = tf.config.get_logical_device_configuration(cpu)
    try:
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
        assert len(tf.config.get_logical_device_configuration(cpu)) == 2
        assert [d.name for d in tf.config.list_logical_devices("CPU")] == ["/device:CPU:0",
                                                                           "/device:CPU:1"]
        with tf.device("/CPU:1"):  # placement is soft: it runs on the one host device
            assert float(tf.constant(1.0) + 1) == 2.0
    finally:
        tf.config.set_logical_device_configuration(cpu, before)
    assert [d.name for d in tf.config.list_logical_devices("CPU")] == ["/device:CPU:0"]
    assert tf.config.experimental.VirtualDeviceConfiguration is \
        tf.config.LogicalDeviceConfiguration
    assert repr(tf.config.LogicalDeviceConfiguration(memory_limit=1024)) == (
        "LogicalDeviceConfiguration(memory_limit=1024, experimental_priority=None, "
        "experimental_device_ordinal=None)")
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.get_logical_device_configuration("CPU:0")
