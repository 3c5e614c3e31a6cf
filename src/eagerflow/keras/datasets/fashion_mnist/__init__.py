"""Fashion-MNIST (``tf.keras.datasets.fashion_mnist``)."""
from eagerflow._src.keras.datasets.fashion_mnist import load_data  # noqa: F401
