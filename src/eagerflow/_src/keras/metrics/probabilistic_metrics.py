"""Probabilistic metrics: the means of crossentropies, KL divergence and Poisson loss.

>>> tf.keras.metrics.BinaryCrossentropy()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])
<tf.Tensor: shape=(), dtype=float32, numpy=0.8149242401123047>
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import losses
from eagerflow._src.keras.metrics.base_metric import MeanMetricWrapper


@export("keras.metrics.Poisson")
class Poisson(MeanMetricWrapper):
    """The mean of ``y_pred - y_true * log(y_pred)``.

    >>> tf.keras.metrics.Poisson()([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.4999999701976776>
    """

    def __init__(self, name="poisson", dtype=None):
        super().__init__(losses.poisson, name, dtype=dtype)


@export("keras.metrics.KLDivergence")
class KLDivergence(MeanMetricWrapper):
    """The mean Kullback-Leibler divergence ``sum(y_true * log(y_true / y_pred))``.

    >>> tf.keras.metrics.KLDivergence()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.45814305543899536>
    """

    def __init__(self, name="kullback_leibler_divergence", dtype=None):
        super().__init__(losses.kl_divergence, name, dtype=dtype)


@export("keras.metrics.BinaryCrossentropy")
class BinaryCrossentropy(MeanMetricWrapper):
    """The mean binary crossentropy of probabilities (or logits, `from_logits`).

    >>> tf.keras.metrics.BinaryCrossentropy()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]],
    ...                                       sample_weight=[1, 0])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.9162905216217041>
    """

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0):
        super().__init__(losses.binary_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing)


@export("keras.metrics.CategoricalCrossentropy")
class CategoricalCrossentropy(MeanMetricWrapper):
    """The mean crossentropy of one-hot labels and class probabilities (or logits).

    >>> tf.keras.metrics.CategoricalCrossentropy()([[0, 1, 0], [0, 0, 1]],
    ...                                            [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.1769392490386963>
    """

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0, axis=-1):
        super().__init__(losses.categorical_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


@export("keras.metrics.SparseCategoricalCrossentropy")
class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The mean crossentropy of integer labels and class probabilities (or logits); labels
    equal to `ignore_class` are left out.

    >>> tf.keras.metrics.SparseCategoricalCrossentropy()([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.1769392490386963>
    """

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False,
                 ignore_class=None, axis=-1):
        super().__init__(losses.sparse_categorical_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)
