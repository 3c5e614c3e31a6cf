"""`config`: device discovery and runtime settings (``tf.config``).

Settings that tune TensorFlow's own thread pools or GPU allocator are
accepted and remembered so programs that set them run unchanged.

>>> list_physical_devices("CPU")
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
"""
from eagerflow._src import backend

list_physical_devices = backend.list_physical_devices
list_logical_devices = backend.list_logical_devices

_settings = {"intra_op_parallelism_threads": 0, "inter_op_parallelism_threads": 0,
             "op_determinism": False, "soft_device_placement": True}
_visible = {}
_memory_growth = {}


def get_visible_devices(device_type=None):
    """The devices ops may run on (all physical devices unless restricted)."""
    devices = list_physical_devices(device_type)
    if device_type in _visible:
        return list(_visible[device_type])
    return devices


def set_visible_devices(devices, device_type=None):
    """Restricts the devices of `device_type` that are visible (recorded)."""
    if not isinstance(devices, (list, tuple)):
        devices = [devices]
    _visible[device_type] = list(devices)


def set_memory_growth(device, enable):
    """Accepted for compatibility: NumPy allocates on demand already."""
    if device not in list_physical_devices():
        raise ValueError(f"Unrecognized device: {device!r}")
    _memory_growth[device] = bool(enable)


def get_memory_growth(device):
    return _memory_growth.get(device, False)


def set_intra_op_parallelism_threads(num_threads):
    _settings["intra_op_parallelism_threads"] = int(num_threads)


def get_intra_op_parallelism_threads():
    return _settings["intra_op_parallelism_threads"]


def set_inter_op_parallelism_threads(num_threads):
    _settings["inter_op_parallelism_threads"] = int(num_threads)


def get_inter_op_parallelism_threads():
    return _settings["inter_op_parallelism_threads"]


def enable_op_determinism():
    """Kernels here are deterministic already; the request is recorded."""
    _settings["op_determinism"] = True


def set_soft_device_placement(enabled):
    _settings["soft_device_placement"] = bool(enabled)


def get_soft_device_placement():
    return _settings["soft_device_placement"]


_run_functions_eagerly = [False]


def run_functions_eagerly(run_eagerly):
    """Makes every `function` run its Python body eagerly instead of its graph (debugging)."""
    _run_functions_eagerly[0] = bool(run_eagerly)


def functions_run_eagerly():
    """Whether `run_functions_eagerly(True)` is in effect."""
    return _run_functions_eagerly[0]
