"""Keras optimizers (``tf.keras.optimizers``)."""
from eagerflow._src.keras.optimizers import (  # noqa: F401
    SGD, Adadelta, Adafactor, Adagrad, Adam, Adamax, AdamW, Ftrl, Lion, Nadam, Optimizer, RMSprop,
    deserialize, get, serialize)
from eagerflow.keras.optimizers import legacy, schedules  # noqa: F401,E402
