"""MNIST digits (``tf.keras.datasets.mnist``)."""
from eagerflow._src.keras.datasets.mnist import load_data  # noqa: F401
