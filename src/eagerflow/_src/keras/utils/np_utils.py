"""NumPy array helpers of ``tf.keras.utils``: one-hot encoding and normalization.

>>> tf.keras.utils.to_categorical([0, 2], num_classes=3)
array([[1., 0., 0.],
       [0., 0., 1.]], dtype=float32)
"""
import numpy as np
from eagerflow._src.backend.api_export import export


def _flat_labels(y, num_classes):
    """Integer labels flattened, their shape without a trailing axis of size 1, and
    `num_classes` (``max(y) + 1`` by default)."""
    y = np.array(y, dtype="int")
    shape = y.shape
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    y = y.reshape(-1)
    return y, shape, num_classes or np.max(y) + 1


@export("keras.utils.to_categorical")
def to_categorical(y, num_classes=None, dtype="float32"):
    """One-hot encodes integer class labels; the class axis is added last.

    A trailing axis of size 1 (labels shaped ``(n, 1)``) is replaced, not kept.
    `num_classes` defaults to ``max(y) + 1``.

    >>> tf.keras.utils.to_categorical([[1], [0]])
    array([[0., 1.],
           [1., 0.]], dtype=float32)
    """
    y, shape, num_classes = _flat_labels(y, num_classes)
    categorical = np.zeros((y.shape[0], num_classes), dtype=dtype)
    categorical[np.arange(y.shape[0]), y] = 1
    return categorical.reshape(shape + (num_classes,))


@export("keras.utils.to_ordinal")
def to_ordinal(y, num_classes=None, dtype="float32"):
    """Ordinal (cumulative) encoding of integer labels: class k has its first k of the
    ``num_classes - 1`` entries set.

    >>> tf.keras.utils.to_ordinal([0, 2], num_classes=3)
    array([[0., 0.],
           [1., 1.]], dtype=float32)
    """
    y, shape, num_classes = _flat_labels(y, num_classes)
    ordinal = (np.arange(num_classes - 1)[None, :] < y[:, None]).astype(dtype)
    return ordinal.reshape(shape + (num_classes - 1,))


@export("keras.utils.normalize")
def normalize(x, axis=-1, order=2):
    """`x` divided by its `order`-norm along `axis` (all-zero slices stay zero).

    >>> tf.keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
    array([[0.6, 0.8],
           [0. , 0. ]])
    """
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
