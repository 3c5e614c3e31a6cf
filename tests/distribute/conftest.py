"""Fixtures: the host CPU split into logical devices, and a MirroredStrategy over them."""
import pytest

import eagerflow as tf


def _mirrored_over(n):
    cpu = tf.config.list_physical_devices("CPU")[0]
    saved = tf.config.get_logical_device_configuration(cpu)
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * n)
    try:
        yield tf.distribute.MirroredStrategy()
    finally:
        tf.config.set_logical_device_configuration(cpu, saved)


@pytest.fixture
def two_cpus():
    yield from _mirrored_over(2)


@pytest.fixture
def three_cpus():
    yield from _mirrored_over(3)
