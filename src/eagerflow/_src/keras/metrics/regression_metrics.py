"""Regression metrics: means of per-sample errors (the loss functions of the same names),
their root, the mean relative error, cosine similarity and the R^2 score.

>>> tf.keras.metrics.MeanSquaredError()([[0, 1], [0, 0]], [[1, 1], [0, 0]])
<tf.Tensor: shape=(), dtype=float32, numpy=0.25>
"""
import warnings

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.keras import losses
from eagerflow._src.keras.metrics.base_metric import (
    Mean, MeanMetricWrapper, Metric, check_2d_shapes, ragged_flat_values)
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine of the angle between `y_true` and `y_pred` along `axis`.

    >>> cosine_similarity([[0., 1.], [1., 1.]], [[1., 0.], [1., 1.]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.        , 0.99999994], dtype=float32)>
    """
    y_true = reduction_ops.l2_normalize(y_true, axis=axis)
    y_pred = reduction_ops.l2_normalize(y_pred, axis=axis)
    return reduction_ops.reduce_sum(math_ops.multiply(y_true, y_pred), axis=axis)


@export("keras.metrics.MeanSquaredError")
class MeanSquaredError(MeanMetricWrapper):
    """The mean of ``(y_true - y_pred) ** 2``.

    >>> tf.keras.metrics.MeanSquaredError()([[0, 1], [0, 0]], [[1, 1], [0, 0]],
    ...                                     sample_weight=[1, 0])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses.mean_squared_error, name, dtype=dtype)


@export("keras.metrics.MeanAbsoluteError")
class MeanAbsoluteError(MeanMetricWrapper):
    """The mean of ``abs(y_true - y_pred)``.

    >>> tf.keras.metrics.MeanAbsoluteError()([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.25>
    """

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses.mean_absolute_error, name, dtype=dtype)


@export("keras.metrics.MeanAbsolutePercentageError")
class MeanAbsolutePercentageError(MeanMetricWrapper):
    """The mean of ``100 * abs((y_true - y_pred) / y_true)`` (denominators at least epsilon).

    >>> tf.keras.metrics.MeanAbsolutePercentageError()([[1, 2]], [[2, 2]])
    <tf.Tensor: shape=(), dtype=float32, numpy=50.0>
    """

    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(losses.mean_absolute_percentage_error, name, dtype=dtype)


@export("keras.metrics.MeanSquaredLogarithmicError")
class MeanSquaredLogarithmicError(MeanMetricWrapper):
    """The mean of ``(log(y_true + 1) - log(y_pred + 1)) ** 2``.

    >>> tf.keras.metrics.MeanSquaredLogarithmicError()([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.12011321634054184>
    """

    def __init__(self, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(losses.mean_squared_logarithmic_error, name, dtype=dtype)


@export("keras.metrics.LogCoshError")
class LogCoshError(MeanMetricWrapper):
    """The mean of ``log(cosh(y_pred - y_true))``.

    >>> tf.keras.metrics.LogCoshError()([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.1084451973438263>
    """

    def __init__(self, name="logcosh", dtype=None):
        super().__init__(losses.log_cosh, name, dtype=dtype)


@export("keras.metrics.CosineSimilarity")
class CosineSimilarity(MeanMetricWrapper):
    """The mean cosine similarity of `y_true` and `y_pred` along `axis`.

    >>> tf.keras.metrics.CosineSimilarity(axis=1)([[0., 1.], [1., 1.]], [[1., 0.], [1., 1.]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.4999999701976776>
    """

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name, dtype=dtype, axis=axis)


@export("keras.metrics.RootMeanSquaredError")
class RootMeanSquaredError(Mean):
    """The square root of the (weighted) mean of ``(y_true - y_pred) ** 2``.

    >>> tf.keras.metrics.RootMeanSquaredError()([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the squared errors of the batch, weighted by `sample_weight`."""
        y_true = cast(y_true, self._value_dtype)
        y_pred = cast(y_pred, self._value_dtype)
        y_true, y_pred = losses._squeeze_pair(y_true, y_pred)
        return super().update_state(math_ops.squared_difference(y_pred, y_true),
                                    sample_weight=sample_weight)

    def result(self):
        return math_ops.sqrt(math_ops.divide_no_nan(self.total, self.count))


@export("keras.metrics.MeanRelativeError")
class MeanRelativeError(Mean):
    """The mean of ``abs(y_true - y_pred) / normalizer``.

    >>> tf.keras.metrics.MeanRelativeError(normalizer=[1, 3, 2, 3])([1, 3, 2, 3], [2, 4, 6, 8])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.25>
    """

    def __init__(self, normalizer, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.normalizer = cast(normalizer, self._value_dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the relative errors of the batch, weighted by `sample_weight`."""
        y_true = cast(y_true, self._value_dtype)
        y_pred = cast(y_pred, self._value_dtype)
        [y_pred, y_true], sample_weight = ragged_flat_values([y_pred, y_true], sample_weight)
        y_true, y_pred = losses._squeeze_pair(y_true, y_pred)
        normalizer, y_pred = losses._squeeze_pair(self.normalizer, y_pred)
        y_pred.shape.assert_is_compatible_with(y_true.shape)
        errors = math_ops.divide_no_nan(math_ops.abs(math_ops.subtract(y_true, y_pred)),
                                        normalizer)
        return super().update_state(errors, sample_weight=sample_weight)

    def get_config(self):
        return {**super().get_config(), "normalizer": self.normalizer.numpy()}


@export("keras.metrics.R2Score")
class R2Score(Metric):
    """The coefficient of determination of ``[batch, outputs]`` predictions, per output or
    averaged ('uniform_average' or 'variance_weighted_average'); adjusted for
    `num_regressors` independent variables when that is not 0.

    >>> tf.keras.metrics.R2Score()([[1.0], [4.0], [3.0]], [[2.0], [4.0], [4.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5714285373687744>
    """

    def __init__(self, class_aggregation="uniform_average", num_regressors=0,
                 name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of "
                             f"{valid}. Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError(f"Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_weight("num_samples", dtype="int32")
        self.built = False

    def build(self, y_true_shape, y_pred_shape):
        check_2d_shapes("R2Score", y_true_shape, y_pred_shape)
        outputs = [y_pred_shape[-1]]
        self.squared_sum = self.add_weight("squared_sum", shape=outputs, initializer="zeros")
        self.sum = self.add_weight("sum", shape=outputs, initializer="zeros")
        self.total_mse = self.add_weight("residual", shape=outputs, initializer="zeros")
        self.count = self.add_weight("count", shape=outputs, initializer="zeros")
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's sums; `sample_weight` weighs each sample (or each value)."""
        y_true = convert_to_tensor(y_true, self._value_dtype)
        y_pred = convert_to_tensor(y_pred, self._value_dtype)
        if not self.built:
            self.build(y_true.shape, y_pred.shape)
        sample_weight = convert_to_tensor(1 if sample_weight is None else sample_weight,
                                          self._value_dtype)
        if sample_weight.shape.rank == 1:
            sample_weight = array_ops.expand_dims(sample_weight, axis=1)
        sample_weight = math_ops.multiply(sample_weight, array_ops.ones_like(y_true))
        weighted_true = math_ops.multiply(y_true, sample_weight)
        self.sum.assign_add(reduction_ops.reduce_sum(weighted_true, axis=0))
        self.squared_sum.assign_add(
            reduction_ops.reduce_sum(math_ops.multiply(y_true, weighted_true), axis=0))
        self.total_mse.assign_add(reduction_ops.reduce_sum(math_ops.multiply(
            math_ops.squared_difference(y_true, y_pred), sample_weight), axis=0))
        self.count.assign_add(reduction_ops.reduce_sum(sample_weight, axis=0))
        self.num_samples.assign_add(array_ops.size(y_true))

    def result(self):
        mean = math_ops.divide(self.sum, self.count)
        total = math_ops.subtract(self.squared_sum, math_ops.multiply(self.sum, mean))
        scores = math_ops.subtract(1.0, math_ops.divide(self.total_mse, total))
        scores = array_ops.where(math_ops.is_inf(scores), array_ops.zeros_like(scores), scores)
        if self.class_aggregation == "uniform_average":
            score = reduction_ops.reduce_mean(scores)
        elif self.class_aggregation == "variance_weighted_average":
            score = math_ops.divide(reduction_ops.reduce_sum(math_ops.multiply(total, scores)),
                                    reduction_ops.reduce_sum(total))
        else:
            score = scores
        if self.num_regressors == 0:
            return score
        # the sample count decides in Python, as in Keras: eagerly only (a traced count is
        # TF's OperatorNotAllowedInGraphError)
        samples = self.num_samples.value()
        if self.num_regressors > samples - 1:
            warnings.warn("More independent predictors than datapoints in adjusted R2 score. "
                          "Falling back to standard R2 score.", stacklevel=2)
            return score
        if self.num_regressors == samples - 1:
            warnings.warn("Division by zero in Adjusted R2 score. Falling back to standard R2 "
                          "score.", stacklevel=2)
            return score
        n, p = float(samples), float(self.num_regressors)
        return math_ops.subtract(1.0, math_ops.divide(
            math_ops.multiply(math_ops.subtract(1.0, score), n - 1.0), n - p - 1.0))

    def get_config(self):
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
