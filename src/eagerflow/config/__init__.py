"""Devices and runtime settings (``tf.config``)."""
from eagerflow._src.core.config import (  # noqa: F401
    functions_run_eagerly, run_functions_eagerly, get_soft_device_placement, get_visible_devices, list_logical_devices, list_physical_devices,
    set_soft_device_placement, set_visible_devices)
from eagerflow.config import experimental, optimizer, threading  # noqa: F401
