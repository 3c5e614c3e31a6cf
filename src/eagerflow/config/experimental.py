"""``tf.config.experimental``."""
from eagerflow._src.core.config import (  # noqa: F401
    enable_op_determinism, enable_tf_cpu_float_emulation, get_memory_growth,
    get_visible_devices, list_logical_devices, list_physical_devices, set_memory_growth,
    set_visible_devices, tf_cpu_float_emulation_enabled)
