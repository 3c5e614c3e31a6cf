"""Mixed precision policies (``tf.keras.mixed_precision``)."""
from eagerflow._src.keras.mixed_precision.policy import (  # noqa: F401
    Policy, global_policy, set_global_policy)
