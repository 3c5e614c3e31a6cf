"""CIFAR-10 small colour images in 10 classes (``tf.keras.datasets.cifar10``).

>>> (x_train, y_train), (x_test, y_test) = tf.keras.datasets.cifar10.load_data()  # doctest: +SKIP
>>> x_train.shape, y_train.shape  # doctest: +SKIP
((50000, 32, 32, 3), (50000, 1))
"""
import os
import pickle

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.datasets import remote


def load_batch(fpath, label_key="labels"):
    """``(data, labels)`` of one batch file: uint8 ``(n, 3, 32, 32)`` images and a label list.

    The batches are the dataset's own Python pickles (with bytes keys), as its
    authors distribute them.

    >>> data, labels = load_batch("cifar-10-batches-py/test_batch")  # doctest: +SKIP
    >>> data.shape  # doctest: +SKIP
    (10000, 3, 32, 32)
    """
    with open(fpath, "rb") as f:
        batch = {key.decode("utf8"): value
                 for key, value in pickle.load(f, encoding="bytes").items()}
    data = batch["data"]
    return data.reshape(data.shape[0], 3, 32, 32), batch[label_key]


@export("keras.datasets.cifar10.load_data")
def load_data(cache_dir=None):
    """``(x_train, y_train), (x_test, y_test)``: uint8 images and ``(n, 1)`` uint8 labels 0-9.

    Images are ``(n, 32, 32, 3)``, or ``(n, 3, 32, 32)`` when
    ``tf.keras.backend.image_data_format()`` is ``'channels_first'``.

    >>> _, (x_test, y_test) = tf.keras.datasets.cifar10.load_data()  # doctest: +SKIP
    >>> x_test.shape, y_test.dtype  # doctest: +SKIP
    ((10000, 32, 32, 3), dtype('uint8'))
    """
    path = remote.fetch("cifar-10-python.tar.gz", "cifar-10-batches-py", cache_dir=cache_dir,
                        untar=True)
    splits = []
    for names in ([f"data_batch_{i}" for i in range(1, 6)], ["test_batch"]):
        batches = [load_batch(os.path.join(path, name)) for name in names]
        x = np.concatenate([data for data, _ in batches]).astype("uint8")
        y = np.concatenate([labels for _, labels in batches]).astype("uint8").reshape(-1, 1)
        if backend.image_data_format() == "channels_last":
            x = x.transpose(0, 2, 3, 1)
        splits.append((x, y))
    return tuple(splits)
