"""Hinge metrics: the means of the hinge losses, for labels of -1 and 1 (or 0 and 1).

>>> tf.keras.metrics.Hinge()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])
<tf.Tensor: shape=(), dtype=float32, numpy=1.2999999523162842>
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras import losses
from eagerflow._src.keras.metrics.base_metric import MeanMetricWrapper


@export("keras.metrics.Hinge")
class Hinge(MeanMetricWrapper):
    """The mean of ``max(1 - y_true * y_pred, 0)``.

    >>> tf.keras.metrics.Hinge()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], sample_weight=[1, 0])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.100000023841858>
    """

    def __init__(self, name="hinge", dtype=None):
        super().__init__(losses.hinge, name, dtype=dtype)


@export("keras.metrics.SquaredHinge")
class SquaredHinge(MeanMetricWrapper):
    """The mean of ``max(1 - y_true * y_pred, 0) ** 2``.

    >>> tf.keras.metrics.SquaredHinge()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.8600000143051147>
    """

    def __init__(self, name="squared_hinge", dtype=None):
        super().__init__(losses.squared_hinge, name, dtype=dtype)


@export("keras.metrics.CategoricalHinge")
class CategoricalHinge(MeanMetricWrapper):
    """The mean of ``max(0, 1 + max((1 - y_true) * y_pred) - sum(y_true * y_pred))``.

    >>> tf.keras.metrics.CategoricalHinge()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.4000000953674316>
    """

    def __init__(self, name="categorical_hinge", dtype=None):
        super().__init__(losses.categorical_hinge, name, dtype=dtype)
