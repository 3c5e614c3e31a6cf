"""CIFAR-100 small colour images in 100 classes, grouped in 20 superclasses
(``tf.keras.datasets.cifar100``).

>>> (x_train, y_train), _ = tf.keras.datasets.cifar100.load_data()  # doctest: +SKIP
>>> x_train.shape, y_train.shape  # doctest: +SKIP
((50000, 32, 32, 3), (50000, 1))
"""
import os

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.datasets import remote
from eagerflow._src.keras.datasets.cifar10 import load_batch


@export("keras.datasets.cifar100.load_data")
def load_data(label_mode="fine", cache_dir=None):
    """``(x_train, y_train), (x_test, y_test)``: uint8 images and ``(n, 1)`` labels, the 100
    classes (`label_mode` "fine") or the 20 superclasses ("coarse")."""
    if label_mode not in ["fine", "coarse"]:
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: '
                         f"label_mode={label_mode}.")
    path = remote.fetch("cifar-100-python.tar.gz", "cifar-100-python", cache_dir=cache_dir,
                        untar=True)
    splits = []
    for name in ("train", "test"):
        x, y = load_batch(os.path.join(path, name), label_key=label_mode + "_labels")
        y = np.reshape(y, (len(y), 1))
        if backend.image_data_format() == "channels_last":
            x = x.transpose(0, 2, 3, 1)
        splits.append((x, y))
    return tuple(splits)
