"""The pre-2.11 optimizer names (``tf.keras.optimizers.legacy``): the same classes here."""
from eagerflow._src.keras.optimizers import (  # noqa: F401
    SGD, Adadelta, Adagrad, Adam, Adamax, Ftrl, Nadam, Optimizer, RMSprop)
