"""Accuracy metrics: how often predictions match labels, as functions (one value per
sample) and as `MeanMetricWrapper`s of those functions.

>>> m = tf.keras.metrics.SparseCategoricalAccuracy()
>>> m([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0.0]])
<tf.Tensor: shape=(), dtype=float32, numpy=0.5>
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import backend
from eagerflow._src.keras.metrics.base_metric import MeanMetricWrapper, ragged_flat_values
from eagerflow._src.ops import array_ops, math_ops, nn_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.wrappers import as_tensor


# ----------------------------------------------------------------------------- matches

def _binary_matches(y_true, y_pred, threshold=0.5):
    """1.0 where `y_pred` above `threshold` agrees with `y_true`, else 0.0."""
    y_pred = as_tensor(y_pred)
    above = cast(math_ops.greater(y_pred, cast(threshold, y_pred.dtype)), y_pred.dtype)
    return cast(math_ops.equal(y_true, above), backend.floatx())


def _sparse_categorical_matches(y_true, y_pred):
    """1.0 where the index of `y_pred`'s largest score equals the integer label `y_true`.

    Labels with a trailing axis of 1 (``[[2], [1]]``) give matches of their own shape.
    """
    y_true, y_pred = as_tensor(y_true), as_tensor(y_pred)
    true_shape = y_true.shape
    keep_axis = true_shape.rank is not None and true_shape.rank == y_pred.shape.rank
    if keep_axis:
        y_true = array_ops.squeeze(y_true, [-1])
    predicted = reduction_ops.argmax(y_pred, axis=-1)
    if predicted.dtype != y_true.dtype:
        predicted = cast(predicted, y_true.dtype)
    matches = cast(math_ops.equal(y_true, predicted), backend.floatx())
    if keep_axis:
        matches = array_ops.expand_dims(matches, -1)
    return matches


def _sparse_top_k_matches(y_true, y_pred, k=5):
    """1.0 where the integer label `y_true` is among the `k` largest scores of `y_pred`."""
    labels, y_pred = as_tensor(y_true), as_tensor(y_pred)
    if y_pred.shape.rank is not None and y_pred.shape.rank > 2:
        y_pred = array_ops.reshape(y_pred, [-1, y_pred.shape[-1]])
    flatten = labels.shape.rank is not None and labels.shape.rank > 1
    matches = nn_ops.in_top_k(cast(array_ops.reshape(labels, [-1]) if flatten else labels,
                                   "int32"), y_pred, k)
    matches = cast(matches, backend.floatx())
    if flatten:
        shape = labels.shape.as_list() if labels.shape.is_fully_defined() else \
            array_ops.shape(labels)
        matches = array_ops.reshape(matches, shape)
    return matches


def _labels_of(one_hot):
    return reduction_ops.argmax(one_hot, axis=-1)


# ----------------------------------------------------------------------------- functions

def accuracy(y_true, y_pred):
    """1.0 where `y_pred` equals `y_true` exactly, else 0.0: the function named
    ``"accuracy"`` (``tf.keras.metrics.get``); tf_keras has no public name for it.

    >>> tf.keras.metrics.get("accuracy")([1, 2], [1, 3])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>
    """
    [y_pred, y_true], _ = ragged_flat_values([y_pred, y_true])
    y_true, y_pred = as_tensor(y_true), as_tensor(y_pred)
    y_true.shape.assert_is_compatible_with(y_pred.shape)
    if y_true.dtype != y_pred.dtype:
        y_pred = cast(y_pred, y_true.dtype)
    return cast(math_ops.equal(y_true, y_pred), backend.floatx())


@export("keras.metrics.binary_accuracy")
def binary_accuracy(y_true, y_pred, threshold=0.5):
    """The fraction of binary predictions (above `threshold`) matching labels, per sample.

    >>> tf.keras.metrics.binary_accuracy([[1], [1], [0], [0]], [[0.9], [0.2], [0.1], [0.6]])
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([1., 0., 1., 0.], dtype=float32)>
    """
    return reduction_ops.reduce_mean(_binary_matches(y_true, y_pred, threshold), axis=-1)


@export("keras.metrics.categorical_accuracy")
def categorical_accuracy(y_true, y_pred):
    """1.0 where the largest score of `y_pred` is at the one-hot label's index.

    >>> tf.keras.metrics.categorical_accuracy([[0, 0, 1], [0, 1, 0]],
    ...                                       [[0.1, 0.9, 0.8], [0.05, 0.95, 0.0]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
    """
    return _sparse_categorical_matches(_labels_of(y_true), y_pred)


@export("keras.metrics.sparse_categorical_accuracy")
def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the largest score of `y_pred` is at the integer label's index.

    >>> tf.keras.metrics.sparse_categorical_accuracy([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0.0]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
    """
    matches = _sparse_categorical_matches(y_true, y_pred)
    if matches.shape.rank is not None and matches.shape.rank > 1 and matches.shape[-1] == 1:
        matches = array_ops.squeeze(matches, [-1])
    return matches


@export("keras.metrics.top_k_categorical_accuracy")
def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the one-hot label's index is among the `k` largest scores.

    >>> tf.keras.metrics.top_k_categorical_accuracy([[0, 0, 1], [0, 1, 0]],
    ...                            [[0.1, 0.9, 0.8], [0.05, 0.95, 0.0]], k=1)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
    """
    return _sparse_top_k_matches(_labels_of(y_true), y_pred, k)


@export("keras.metrics.sparse_top_k_categorical_accuracy")
def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the integer label is among the `k` largest scores.

    >>> tf.keras.metrics.sparse_top_k_categorical_accuracy(
    ...     [2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0.0]], k=2)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    return _sparse_top_k_matches(y_true, y_pred, k)


# ----------------------------------------------------------------------------- classes

@export("keras.metrics.Accuracy")
class Accuracy(MeanMetricWrapper):
    """How often `y_pred` equals `y_true`.

    >>> tf.keras.metrics.Accuracy()([[1], [2], [3], [4]], [[0], [2], [3], [4]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.75>
    """

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype=dtype)


@export("keras.metrics.BinaryAccuracy")
class BinaryAccuracy(MeanMetricWrapper):
    """How often predictions above `threshold` match binary labels.

    >>> tf.keras.metrics.BinaryAccuracy()([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.75>
    """

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(_binary_matches, name, dtype=dtype, threshold=threshold)


@export("keras.metrics.CategoricalAccuracy")
class CategoricalAccuracy(MeanMetricWrapper):
    """How often the largest score is at the one-hot label's index.

    >>> tf.keras.metrics.CategoricalAccuracy()([[0, 0, 1], [0, 1, 0]],
    ...                                        [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype=dtype)


@export("keras.metrics.SparseCategoricalAccuracy")
class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the largest score is at the integer label's index.

    >>> tf.keras.metrics.SparseCategoricalAccuracy()([2, 1], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(_sparse_categorical_matches, name, dtype=dtype)


@export("keras.metrics.TopKCategoricalAccuracy")
class TopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the one-hot label's index is among the `k` largest scores.

    >>> tf.keras.metrics.TopKCategoricalAccuracy(k=1)([[0, 0, 1], [0, 1, 0]],
    ...                                               [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype=dtype, k=k)


@export("keras.metrics.SparseTopKCategoricalAccuracy")
class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the `k` largest scores.

    >>> tf.keras.metrics.SparseTopKCategoricalAccuracy(k=1)([2, 1],
    ...                                                     [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(_sparse_top_k_matches, name, dtype=dtype, k=k)
