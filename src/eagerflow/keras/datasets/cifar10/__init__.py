"""CIFAR-10 (``tf.keras.datasets.cifar10``)."""
from eagerflow._src.keras.datasets.cifar10 import load_data  # noqa: F401
