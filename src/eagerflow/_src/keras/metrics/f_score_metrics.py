"""F-scores: the weighted harmonic mean of precision and recall, per class or averaged.

>>> m = tf.keras.metrics.F1Score(threshold=0.5)
>>> m([[1, 1, 1], [1, 0, 0], [1, 1, 0]],
...   [[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]]).numpy()
array([0.5      , 0.8      , 0.6666667], dtype=float32)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.keras.metrics.base_metric import Metric, check_2d_shapes
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast


@export("keras.metrics.FBetaScore")
class FBetaScore(Metric):
    """``(1 + beta**2) * precision * recall / (beta**2 * precision + recall)`` of
    ``[batch, classes]`` multi-label predictions.

    A score counts as positive above `threshold`, or, without one, when it is its row's
    largest. `average`: None (one score per class), 'micro' (from counts over all classes),
    'macro' (mean of the class scores) or 'weighted' (weighted by each class's positives).

    >>> tf.keras.metrics.FBetaScore(beta=2.0, threshold=0.5)([[1, 0], [1, 1]],
    ...                                                      [[0.7, 0.2], [0.4, 0.9]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5555556, 1.       ], dtype=float32)>
    """

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score",
                 dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError(f"Invalid `average` argument value. Expected one of: {{None, "
                             f"'micro', 'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float):
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float. "
                             f"Received: beta={beta} of type '{type(beta)}'")
        if beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be > 0. "
                             f"Received: beta={beta}")
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(f"Invalid `threshold` argument value. It should be a Python "
                                 f"float. Received: threshold={threshold} of type "
                                 f"'{type(threshold)}'")
            if threshold > 1.0 or threshold <= 0.0:
                raise ValueError(f"Invalid `threshold` argument value. It should verify "
                                 f"0 < threshold <= 1. Received: threshold={threshold}")
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.axis = None if average == "micro" else 0
        self.built = False

    def build(self, y_true_shape, y_pred_shape):
        check_2d_shapes("FBetaScore", y_true_shape, y_pred_shape)
        shape = [] if self.average == "micro" else [y_pred_shape[-1]]
        for name in ("true_positives", "false_positives", "false_negatives",
                     "intermediate_weights"):
            setattr(self, name, self.add_weight(name, shape=shape, initializer="zeros"))
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's counts; `sample_weight` weighs each sample."""
        y_true = convert_to_tensor(y_true, self._value_dtype)
        y_pred = convert_to_tensor(y_pred, self._value_dtype)
        if not self.built:
            self.build(y_true.shape, y_pred.shape)
        if self.threshold is None:
            # the row's largest score is the prediction, unless the row is all zeros
            largest = reduction_ops.reduce_max(y_pred, axis=-1, keepdims=True)
            y_pred = math_ops.logical_and(math_ops.greater_equal(y_pred, largest),
                                          math_ops.greater(math_ops.abs(y_pred), 1e-9))
        else:
            y_pred = math_ops.greater(y_pred, self.threshold)
        y_pred = cast(y_pred, self._value_dtype)
        if sample_weight is not None:
            sample_weight = array_ops.expand_dims(
                convert_to_tensor(sample_weight, self._value_dtype), 1)

        def weighted_sum(values):
            if sample_weight is not None:
                values = math_ops.multiply(values, sample_weight)
            return reduction_ops.reduce_sum(values, axis=self.axis)

        missed = math_ops.subtract(1.0, y_pred)
        self.true_positives.assign_add(weighted_sum(math_ops.multiply(y_pred, y_true)))
        self.false_positives.assign_add(
            weighted_sum(math_ops.multiply(y_pred, math_ops.subtract(1.0, y_true))))
        self.false_negatives.assign_add(weighted_sum(math_ops.multiply(missed, y_true)))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        tp = self.true_positives.value()
        precision = math_ops.divide_no_nan(tp, math_ops.add(tp, self.false_positives))
        recall = math_ops.divide_no_nan(tp, math_ops.add(tp, self.false_negatives))
        beta_squared = self.beta ** 2
        score = math_ops.multiply(
            math_ops.divide_no_nan(math_ops.multiply(precision, recall),
                                   math_ops.add(math_ops.multiply(beta_squared, precision),
                                                recall)),
            1.0 + beta_squared)
        if self.average == "weighted":
            weights = math_ops.divide_no_nan(
                self.intermediate_weights,
                reduction_ops.reduce_sum(self.intermediate_weights))
            return reduction_ops.reduce_sum(math_ops.multiply(score, weights))
        if self.average is not None:
            return reduction_ops.reduce_mean(score)
        return score

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


@export("keras.metrics.F1Score")
class F1Score(FBetaScore):
    """The harmonic mean of precision and recall (`FBetaScore` with beta 1).

    >>> tf.keras.metrics.F1Score(threshold=0.5)([[1, 0], [1, 1]], [[0.7, 0.2], [0.4, 0.9]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6666667, 1.       ], dtype=float32)>
    """

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name,
                         dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
