"""Keras's preprocessing utilities (``tf.keras.preprocessing``)."""
from eagerflow.keras.preprocessing import sequence  # noqa: F401
