"""Mixed precision policies and loss scaling (``tf.keras.mixed_precision``)."""
from eagerflow._src.keras.mixed_precision import (  # noqa: F401
    LossScaleOptimizer, Policy, global_policy, set_global_policy)
