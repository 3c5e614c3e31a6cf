"""Mixed precision (``tf.keras.mixed_precision``): dtype policies and loss scaling."""
from eagerflow._src.keras.mixed_precision.loss_scale_optimizer import (  # noqa: F401
    LossScaleOptimizer)
from eagerflow._src.keras.mixed_precision.policy import (  # noqa: F401
    Policy, global_policy, set_global_policy)
