"""Arrays and devices: the only place that knows which array library runs kernels.

Everything above this layer asks the backend for the array module (`xp`) of a
device instead of importing NumPy or CuPy for computation itself.
"""
from eagerflow._src.backend.devices import (
    DeviceSpec, canonical_device, default_device, host_device, list_devices, PhysicalDevice,
    LogicalDevice, device_string_of, list_logical_devices, list_physical_devices)
from eagerflow._src.backend.arrays import xp_for_device, to_host, is_array, numpy_module
from eagerflow._src.backend.host_memory import keep_freed_memory
from eagerflow._src.backend.special import special

keep_freed_memory()

__all__ = ["DeviceSpec", "canonical_device", "default_device", "host_device", "list_devices",
           "PhysicalDevice", "LogicalDevice", "device_string_of", "list_logical_devices",
           "list_physical_devices", "xp_for_device", "to_host",
           "is_array", "numpy_module", "special"]
