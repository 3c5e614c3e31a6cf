"""``tf.config.experimental``."""
from eagerflow._src.core.config import (  # noqa: F401
    enable_op_determinism, get_memory_growth, get_visible_devices, list_logical_devices,
    list_physical_devices, set_memory_growth, set_visible_devices)
