"""Fashion-MNIST clothing images (``tf.keras.datasets.fashion_mnist``).

>>> (x_train, y_train), (x_test, y_test) = (  # doctest: +SKIP
...     tf.keras.datasets.fashion_mnist.load_data())
>>> x_train.shape, y_train.dtype  # doctest: +SKIP
((60000, 28, 28), dtype('uint8'))
"""
import gzip
import os

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.datasets import remote

# IDX files: a 8-byte header before labels, 16 bytes before images.
_LABEL_HEADER = 8
_IMAGE_HEADER = 16


def _read_idx(path, header):
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), np.uint8, offset=header)


@export("keras.datasets.fashion_mnist.load_data")
def load_data(cache_dir=None):
    """``(x_train, y_train), (x_test, y_test)``: 28x28 uint8 images and uint8 labels 0-9.

    >>> _, (x_test, y_test) = tf.keras.datasets.fashion_mnist.load_data()  # doctest: +SKIP
    >>> x_test.shape  # doctest: +SKIP
    (10000, 28, 28)
    """
    splits = []
    for prefix in ("train", "t10k"):
        labels, images = (
            remote.fetch(name, name, cache_dir=cache_dir,
                         cache_subdir=os.path.join("datasets", "fashion-mnist"))
            for name in (f"{prefix}-labels-idx1-ubyte.gz", f"{prefix}-images-idx3-ubyte.gz"))
        y = _read_idx(labels, _LABEL_HEADER)
        x = _read_idx(images, _IMAGE_HEADER).reshape(len(y), 28, 28)
        splits.append((x, y))
    return tuple(splits)
