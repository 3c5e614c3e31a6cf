"""Keras (``tf.keras``) with tf_keras (Keras 2) semantics."""
from eagerflow._src.keras.engine.input_layer import Input  # noqa: F401
from eagerflow._src.keras.engine.sequential import Sequential  # noqa: F401
from eagerflow._src.keras.engine.training import Model  # noqa: F401
from eagerflow.keras import (  # noqa: F401
    activations, backend, callbacks, constraints, datasets, initializers, layers, losses,
    metrics, mixed_precision, models, optimizers, preprocessing, regularizers, saving, utils)

__version__ = "2.21.0"
