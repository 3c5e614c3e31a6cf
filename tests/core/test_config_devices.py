"""`tf.config` device settings and `tf.device` strings on a machine with no GPU, as TF 2.21
answers them."""
import numpy as np
import pytest

import eagerflow as tf

needs_no_gpu = pytest.mark.skipif(bool(tf.config.list_physical_devices("GPU")),
                                  reason="checks TF's answers on a machine without a GPU")
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


@needs_no_gpu
def test_soft_placement_falls_back_to_the_cpu():
    with tf.device("/GPU:0"):
        x = tf.constant([1.0]) + 1
        v = tf.Variable(1.0)
    assert x.device == CPU0 and v.device == CPU0


@needs_no_gpu
def test_hard_placement_on_a_missing_device_raises():
    tf.config.set_soft_device_placement(False)
    try:
        with pytest.raises(tf.errors.InvalidArgumentError, match=(
                r"Could not satisfy device specification '/job:localhost/replica:0/task:0/"
                r"device:GPU:0'. enable_soft_placement=0. Supported device types \[CPU\]. All "
                r"available devices \[/job:localhost/replica:0/task:0/device:CPU:0\].")):
            with tf.device("/GPU:0"):
                tf.constant([1.0]) + 1
        with tf.device("/cpu:0"):
            assert (tf.constant(1) + 1).device == CPU0
    finally:
        tf.config.set_soft_device_placement(True)


def test_device_string_that_does_not_parse():
    with pytest.raises(ValueError, match="Unknown attribute 'XYZ' is encountered while parsing "
                                         "the device spec: '/XYZ:0'."):
        with tf.device("/XYZ:0"):
            pass
    with pytest.raises(ValueError, match="Unknown attribute 'garbage'"):
        with tf.device("garbage"):
            pass
    with tf.device("/job:localhost/replica:0/task:0/device:CPU:0"):
        pass


def test_memory_settings_on_the_cpu():
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU and "
                                         "non-Pluggable devices"):
        tf.config.experimental.set_memory_growth(cpu, True)
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(cpu)
    assert tf.config.experimental.get_memory_info("CPU:0") == {"current": 0, "peak": 0}
    assert tf.config.experimental.get_memory_info("/device:CPU:0") == {"current": 0, "peak": 0}
    with pytest.raises(ValueError, match="No matching devices found for 'XPU:0'"):
        tf.config.experimental.get_memory_info("XPU:0")
    assert tf.config.experimental.reset_memory_stats("CPU:0") is None
    with pytest.raises(ValueError, match="Unrecognized device: 'x'"):
        tf.config.set_visible_devices(["x"])


def test_logical_device_configuration_and_switches():
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert tf.config.get_logical_device_configuration(cpu) is None
    assert repr(tf.config.LogicalDeviceConfiguration(memory_limit=10)) == (
        "LogicalDeviceConfiguration(memory_limit=10, experimental_priority=None, "
        "experimental_device_ordinal=None)")
    assert tf.config.experimental.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration
    assert tf.config.experimental.get_device_details(cpu) == {}
    assert tf.config.optimizer.get_jit() == ""
    tf.config.optimizer.set_jit(True)
    assert tf.config.optimizer.get_jit() == "autoclustering"
    tf.config.optimizer.set_jit(False)
    assert tf.config.optimizer.get_jit() == ""
    assert tf.debugging.get_log_device_placement() is False
    tf.debugging.set_log_device_placement(False)
    assert tf.config.experimental.tensor_float_32_execution_enabled() is True
    assert tf.config.experimental.get_device_policy() == "silent"


def test_device_classes_are_public_and_compare_with_listed_devices():
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert cpu == tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
    assert repr(cpu) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    logical = tf.config.list_logical_devices("CPU")[0]
    assert isinstance(logical, tf.config.LogicalDevice)
    assert repr(logical) == "LogicalDevice(name='/device:CPU:0', device_type='CPU')"


def test_build_info_and_graph_def_versions():
    info = tf.sysconfig.get_build_info()
    assert info["is_cuda_build"] is False and info["is_rocm_build"] is False
    assert info["is_cuda_build"] == tf.test.is_built_with_cuda()
    assert tf.test.is_built_with_xla() is True  # jit_compile=True is accepted
    assert tf.version.GRAPH_DEF_VERSION == 2474
    assert tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER == 0


def test_traced_tensors_carry_the_requested_device():
    seen = []

    @tf.function
    def f(x):
        with tf.device("/cpu:0"):
            y = x * 2
            with tf.device(None):
                seen.append((x + 1).device)
        with tf.device("/GPU:0"):
            seen.append((y + 1).op.device)
        with tf.device("/job:localhost"):
            seen.append((y + 1).device)
        seen.append((y + 1).device)
        seen.insert(0, y.device)
        return y

    f(tf.constant(1.0))
    assert seen == ["/device:CPU:0", "", "/device:GPU:0", "/job:localhost", ""]


def test_synchronous_execution_setting_reads_back():
    assert tf.config.experimental.get_synchronous_execution() is True
    tf.config.experimental.set_synchronous_execution(False)
    try:
        assert tf.config.experimental.get_synchronous_execution() is False
    finally:
        tf.config.experimental.set_synchronous_execution(True)


def test_config_setters_check_arguments_as_tf():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_visible_devices(cpu)  # one device, not in a list
    assert tf.config.get_visible_devices() == [cpu]
    with pytest.raises(ValueError, match="device must be a tf.config.PhysicalDevice, but got: "
                                         "CPU:0"):
        tf.config.experimental.get_device_details("CPU:0")
    with pytest.raises(ValueError, match="Invalid argument `device_policy`: 'bogus'. Please "
                                         "refer to https://www.tensorflow.org/"):
        tf.config.experimental.set_device_policy("bogus")
    with pytest.raises(ValueError, match="Setting memory limit on CPU virtual devices is "
                                         "currently not supported"):
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration(memory_limit=100)])
    assert tf.config.get_logical_device_configuration(cpu) is None


def test_mlir_bridge_switches_are_accepted():
    assert tf.config.experimental.enable_mlir_bridge() is None
    assert tf.config.experimental.disable_mlir_bridge() is None


def test_device_types_match_exactly():
    assert tf.config.list_physical_devices("cpu") == []
    assert tf.config.list_logical_devices("cpu") == []
    assert len(tf.config.list_physical_devices("CPU")) == 1


def test_tensor_float_32_switch_takes_what_converts_as_a_number():
    try:
        for value, enabled in ((0, False), (1.0, True), (None, False), (np.bool_(True), True)):
            tf.config.experimental.enable_tensor_float_32_execution(value)
            assert tf.config.experimental.tensor_float_32_execution_enabled() is enabled
        for value in ("yes", [1], ()):
            with pytest.raises(TypeError, match="incompatible function arguments"):
                tf.config.experimental.enable_tensor_float_32_execution(value)
    finally:
        tf.config.experimental.enable_tensor_float_32_execution(True)
