"""Device names, parsing and discovery.

A device is named the way TensorFlow names it: ``/job:localhost/replica:0/
task:0/device:CPU:0``.  Users may write any of the short forms (``/cpu:0``,
``GPU:1``, ``/device:CPU:0``); :func:`canonical_device` maps them to the full
name of a device that exists here.  A GPU is only offered when CuPy finds one;
placement is soft, as in TensorFlow: asking for a missing GPU runs on the CPU.
"""
import collections
import functools
import re
from eagerflow._src.backend.api_export import export

_JOB_PREFIX = "/job:localhost/replica:0/task:0/device:"
_SPEC_RE = re.compile(
    r"^(?:/job:(?P<job>[^/]+))?(?:/replica:(?P<replica>\d+))?(?:/task:(?P<task>\d+))?"
    r"(?:/?(?:device:)?(?P<type>[A-Za-z_]+)(?::(?P<index>\d+|\*))?)?$")



@export("config.PhysicalDevice")
class PhysicalDevice(collections.namedtuple("PhysicalDevice", ["name", "device_type"])):
    """A physical device of this machine, as `tf.config.list_physical_devices` lists it."""

    __slots__ = ()


@export("config.LogicalDevice")
class LogicalDevice(collections.namedtuple("LogicalDevice", ["name", "device_type"])):
    """A logical device ops can be placed on, as `tf.config.list_logical_devices` lists it."""

    __slots__ = ()


@export("DeviceSpec")
class DeviceSpec:
    """A parsed device name, e.g. ``DeviceSpec.from_string('/gpu:1')``.

    >>> tf.DeviceSpec.from_string("/cpu:0").to_string()
    '/device:CPU:0'
    """

    __slots__ = ("job", "replica", "task", "device_type", "device_index")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job, self.replica, self.task = job, replica, task
        self.device_type = device_type.upper() if device_type else None
        self.device_index = device_index

    @classmethod
    def from_string(cls, spec):
        m = _SPEC_RE.match(spec.strip())
        if m is None:
            raise ValueError(f"Unknown device specification: {spec!r}")
        index = m["index"]
        return cls(m["job"], int(m["replica"]) if m["replica"] else None,
                   int(m["task"]) if m["task"] else None, m["type"],
                   int(index) if index not in (None, "*") else None)

    def to_string(self):
        parts = []
        if self.job is not None:
            parts.append(f"/job:{self.job}")
        if self.replica is not None:
            parts.append(f"/replica:{self.replica}")
        if self.task is not None:
            parts.append(f"/task:{self.task}")
        if self.device_type is not None:
            index = "*" if self.device_index is None else self.device_index
            parts.append(f"/device:{self.device_type}:{index}")
        return "".join(parts)

    def __repr__(self):
        return (f"<DeviceSpec(job={self.job}, replica={self.replica}, task={self.task}, "
                f"device_type={self.device_type}, device_index={self.device_index})>")

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())


@functools.lru_cache(maxsize=None)
def _gpu_count():
    """Number of CUDA devices CuPy can use (0 when CuPy is absent)."""
    try:
        import cupy  # noqa: F401  (optional; only probed on demand)
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:  # no CuPy, no driver, no device: all mean "no GPU"
        return 0


def list_devices(device_type=None):
    """Full names of the devices of `device_type` ('CPU', 'GPU' or None for all)."""
    names = [_JOB_PREFIX + "CPU:0"]
    names += [f"{_JOB_PREFIX}GPU:{i}" for i in range(_gpu_count())]
    if device_type is None:
        return names
    return [n for n in names if n.rsplit(":", 2)[-2] == device_type.upper()]


def host_device():
    return _JOB_PREFIX + "CPU:0"


default_device = host_device


@functools.lru_cache(maxsize=64)
def canonical_device(spec):
    """Full name of the device that `spec` places on (soft placement).

    >>> canonical_device("/gpu:0")  # on a machine without a GPU
    '/job:localhost/replica:0/task:0/device:CPU:0'
    """
    if not spec:
        return host_device()
    parsed = DeviceSpec.from_string(spec)
    kind = parsed.device_type or "CPU"
    index = parsed.device_index or 0
    if kind == "GPU" and index < _gpu_count():
        return f"{_JOB_PREFIX}GPU:{index}"
    if kind == "CPU" and index < len(_logical_configurations.get(_HOST_PHYSICAL) or [None]):
        return f"{_JOB_PREFIX}CPU:{index}"  # one of the logical CPUs the host was split into
    return host_device()


def device_string_of(array):
    """Device name of an array held by a backend array library."""
    device = getattr(array, "device", None)
    if device is None or isinstance(device, str):  # NumPy arrays (device == 'cpu')
        return host_device()
    return f"{_JOB_PREFIX}GPU:{getattr(device, 'id', 0)}"


@export("config.list_physical_devices", "config.experimental.list_physical_devices")
def list_physical_devices(device_type=None):
    """Physical devices of `device_type`: ``[PhysicalDevice('/physical_device:CPU:0', 'CPU')]``."""
    if device_type is not None and device_type != device_type.upper():
        return []  # TF matches the type exactly: 'cpu' names no device
    return [PhysicalDevice("/physical_device:" + n.rsplit("device:", 1)[1],
                           n.rsplit(":", 2)[-2]) for n in list_devices(device_type)]


@export("config.list_logical_devices", "config.experimental.list_logical_devices")
def list_logical_devices(device_type=None):
    """Logical devices of `device_type`, e.g. ``[LogicalDevice('/device:CPU:0', 'CPU')]``:
    one per physical device, or as many as `set_logical_device_configuration` gave it (all
    of them run on that physical device)."""
    out, counts = [], collections.Counter()
    for physical in list_physical_devices(device_type):
        kind = physical.device_type
        for _ in range(len(_logical_configurations.get(physical.name) or [None])):
            out.append(LogicalDevice(f"/device:{kind}:{counts[kind]}", kind))
            counts[kind] += 1
    return out


@export("config.LogicalDeviceConfiguration", "config.experimental.VirtualDeviceConfiguration")
class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration",
        ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """The configuration of one logical device a physical device is split into.

    >>> tf.config.LogicalDeviceConfiguration(memory_limit=1024)
    LogicalDeviceConfiguration(memory_limit=1024, experimental_priority=None, \
experimental_device_ordinal=None)
    """

    def __new__(cls, memory_limit=None, experimental_priority=None,
                experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority,
                               experimental_device_ordinal)


_logical_configurations = {}  # physical device name -> its LogicalDeviceConfigurations
_HOST_PHYSICAL = "/physical_device:CPU:0"


@export("config.set_logical_device_configuration",
        "config.experimental.set_virtual_device_configuration")
def set_logical_device_configuration(device, logical_devices):
    """Splits physical `device` into the logical devices `logical_devices` configure (a
    list of `LogicalDeviceConfiguration`), as `list_logical_devices` then reports."""
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices():
        raise ValueError("Unrecognized device: %s" % repr(device))
    if device.device_type == "CPU" and any(
            c.memory_limit is not None for c in logical_devices or ()):
        raise ValueError("Setting memory limit on CPU virtual devices is currently not supported")
    _logical_configurations[device.name] = list(logical_devices) if logical_devices else None
    canonical_device.cache_clear()  # names of logical devices now exist (or no longer do)


@export("config.get_logical_device_configuration",
        "config.experimental.get_virtual_device_configuration")
def get_logical_device_configuration(device):
    """The `LogicalDeviceConfiguration`s set for physical `device`, or None."""
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices():
        raise ValueError("Unrecognized device: %s" % repr(device))
    return _logical_configurations.get(device.name)
