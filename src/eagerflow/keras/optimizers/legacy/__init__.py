"""The pre-2.11 optimizers (``tf.keras.optimizers.legacy``): tf_keras's OptimizerV2 classes."""
from eagerflow._src.keras.optimizers.legacy import (  # noqa: F401
    SGD, Adadelta, Adagrad, Adam, Adamax, Ftrl, Nadam, Optimizer, RMSprop)
