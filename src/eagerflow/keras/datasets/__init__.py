"""Keras's small datasets (``tf.keras.datasets``)."""
from eagerflow.keras.datasets import cifar10, fashion_mnist, imdb, mnist  # noqa: F401
