"""MNIST handwritten digits (``tf.keras.datasets.mnist``).

>>> (x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()  # doctest: +SKIP
>>> x_train.shape, x_train.dtype, y_test.shape  # doctest: +SKIP
((60000, 28, 28), dtype('uint8'), (10000,))
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.datasets import remote


@export("keras.datasets.mnist.load_data")
def load_data(path="mnist.npz", cache_dir=None):
    """``(x_train, y_train), (x_test, y_test)``: 28x28 uint8 images and uint8 labels 0-9.

    `path` is the file name in the cache (``~/.keras/datasets`` unless
    `cache_dir` says otherwise).

    >>> (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()  # doctest: +SKIP
    >>> y_train[:3]  # doctest: +SKIP
    array([5, 0, 4], dtype=uint8)
    """
    path = remote.fetch("mnist.npz", path, cache_dir=cache_dir)
    with np.load(path) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
