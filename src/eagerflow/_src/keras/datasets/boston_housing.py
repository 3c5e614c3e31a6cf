"""Boston housing prices (``tf.keras.datasets.boston_housing``): 13 features per house and
its median value in thousands of dollars.

>>> (x_train, y_train), _ = tf.keras.datasets.boston_housing.load_data()  # doctest: +SKIP
>>> x_train.shape, y_train.shape  # doctest: +SKIP
((404, 13), (404,))
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.datasets import imdb, remote


@export("keras.datasets.boston_housing.load_data")
def load_data(path="boston_housing.npz", test_split=0.2, seed=113, cache_dir=None):
    """``(x_train, y_train), (x_test, y_test)``: the houses shuffled with `seed`, the last
    `test_split` of them for testing."""
    assert 0 <= test_split < 1
    path = remote.fetch("boston_housing.npz", path, cache_dir=cache_dir)
    with np.load(path, allow_pickle=True) as f:
        x, y = f["x"], f["y"]
    x, y = imdb._shuffled(np.random.RandomState(seed), x, y)
    split = int(len(x) * (1 - test_split))
    return (np.array(x[:split]), np.array(y[:split])), (np.array(x[split:]),
                                                        np.array(y[split:]))
