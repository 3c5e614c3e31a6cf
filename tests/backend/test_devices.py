import pytest

import eagerflow as tf
from eagerflow import DeviceSpec
from tests.internals import canonical_device

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


@pytest.mark.parametrize("spec", ["/cpu:0", "CPU:0", "/device:CPU:0", CPU, "", "/gpu:0"])
def test_canonical_device_soft_placement(spec):
    # no GPU here: GPU requests fall back to the CPU, as TF's soft placement does
    expected = CPU if "gpu" not in spec.lower() or not tf.config.list_physical_devices("GPU") \
        else "/job:localhost/replica:0/task:0/device:GPU:0"
    assert canonical_device(spec) == expected


def test_device_spec_parsing():
    assert DeviceSpec.from_string("/gpu:1").to_string() == "/device:GPU:1"
    assert DeviceSpec.from_string(CPU).job == "localhost"
    with pytest.raises(ValueError):
        DeviceSpec.from_string("/bogus:x:y")


def test_device_context_and_tensor_device():
    with tf.device("/cpu:0"):
        t = tf.constant([1.0])
    assert t.device == CPU
    with tf.device("/gpu:0"):
        assert (tf.constant([1.0]) + 1).numpy()[0] == 2.0


def test_config_lists_devices():
    cpus = tf.config.list_physical_devices("CPU")
    assert cpus[0].name == "/physical_device:CPU:0" and cpus[0].device_type == "CPU"
    logical = tf.config.list_logical_devices()
    assert logical[0].name == "/device:CPU:0"
    assert tf.executing_eagerly()


def test_device_spec_repr_lists_its_fields():
    assert repr(DeviceSpec.from_string("/job:w/replica:1/task:2/GPU:*")) == (
        "<DeviceSpec(job=w, replica=1, task=2, device_type=GPU, device_index=None)>")
    assert str(DeviceSpec(device_type="cpu", device_index=0)) == (
        "<DeviceSpec(job=None, replica=None, task=None, device_type=CPU, device_index=0)>")
