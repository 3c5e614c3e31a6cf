"""Metrics computed from confusion-matrix counts at decision thresholds: TruePositives,
FalsePositives, TrueNegatives, FalseNegatives, Precision, Recall, the four
"X at Y" metrics (SensitivityAtSpecificity, ...) and AUC.

All of them keep one count per threshold of some of the four cells and update them with
`update_confusion_matrix_variables`. A prediction is positive at a threshold when it is
strictly greater; a label is positive when it is non-zero.

>>> m = tf.keras.metrics.Precision(thresholds=[0.3, 0.6])
>>> m([0, 1, 1, 1], [0.5, 0.4, 0.7, 0.2])
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6666667, 1.       ], dtype=float32)>
"""
import enum

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core.convert import constant
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.keras import backend, losses
from eagerflow._src.keras.metrics.base_metric import Metric, broadcast_weights, \
    ragged_flat_values
from eagerflow._src.ops import array_ops, debugging_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.wrappers import as_tensor
from eagerflow._src.ragged.ragged_tensor import RaggedTensor

# The threshold of Precision/Recall with `top_k`: every score kept by top-k is above it.
NEG_INF = -1e10


class ConfusionMatrix(enum.Enum):
    TRUE_POSITIVES = "tp"
    FALSE_POSITIVES = "fp"
    TRUE_NEGATIVES = "tn"
    FALSE_NEGATIVES = "fn"


class AUCCurve(enum.Enum):
    """The curve whose area `AUC` computes."""

    ROC = "ROC"
    PR = "PR"
    PR_GAIN = "PR_GAIN"

    @staticmethod
    def from_str(key):
        for curve, keys in ((AUCCurve.PR, ("pr", "PR")), (AUCCurve.ROC, ("roc", "ROC")),
                            (AUCCurve.PR_GAIN, ("pr_gain", "prgain", "PR_GAIN", "PRGAIN"))):
            if key in keys:
                return curve
        raise ValueError(f'Invalid AUC curve value: "{key}". Expected values are '
                         f'["PR", "ROC", "PR_GAIN"]')


class AUCSummationMethod(enum.Enum):
    """How `AUC` sums the area between thresholds: trapezoids, or upper or lower steps."""

    INTERPOLATION = "interpolation"
    MAJORING = "majoring"
    MINORING = "minoring"

    @staticmethod
    def from_str(key):
        for method in AUCSummationMethod:
            if key in (method.value, method.value.capitalize()):
                return method
        raise ValueError(f'Invalid AUC summation method value: "{key}". Expected values are '
                         f'["interpolation", "majoring", "minoring"]')


# ----------------------------------------------------------------------------- thresholds

def parse_init_thresholds(thresholds, default_threshold=0.5):
    """`thresholds` (one or a list, each in [0, 1]) as a list; `default_threshold` if None."""
    if thresholds is None:
        return [default_threshold]
    listed = list(thresholds) if isinstance(thresholds, (list, tuple, np.ndarray)) \
        else [thresholds]
    invalid = [t for t in listed if t is None or t < 0 or t > 1]
    if invalid:
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {invalid}")
    return listed


def is_evenly_distributed_thresholds(thresholds):
    """Whether `thresholds` are ``i / (n - 1)`` for i in 0..n-1 (n >= 3), which allows
    counting by bucket instead of comparing every prediction with every threshold."""
    n = len(thresholds)
    if n < 3:
        return False
    return bool(np.allclose(thresholds, np.arange(n, dtype=np.float32) / (n - 1),
                            atol=backend.epsilon()))


# ----------------------------------------------------------------------------- counting

def _filter_top_k(x, k):
    """`x` with all but the `k` largest scores of each row set to NEG_INF."""
    _, indices = reduction_ops.top_k(x, k, sorted=False)
    kept = reduction_ops.reduce_sum(
        array_ops.one_hot(indices, array_ops.shape(x)[-1], dtype=x.dtype), axis=-2)
    return math_ops.add(math_ops.multiply(x, kept),
                        math_ops.multiply(NEG_INF, math_ops.subtract(1.0, kept)))


def _positives_by_bucket(true_w, false_w, y_pred, thresholds, labels):
    """(tp, fp) at evenly spaced `thresholds`: each prediction falls in the bucket of the
    highest threshold below it; a reverse cumulative sum turns bucket sums into counts.

    With a number of `labels` (multi-label counts), each label has its own buckets.
    """
    n = len(thresholds)
    y_pred = reduction_ops.clip_by_value(y_pred, 0.0, 1.0)
    bucket = math_ops.subtract(math_ops.ceil(math_ops.multiply(y_pred, float(n - 1))), 1.0)
    if thresholds[0] < 0.0 or thresholds[-1] > 1.0:
        # the end thresholds lie just outside [0, 1]: 0 is above the first one
        bucket = math_ops.maximum(bucket, 0.0)
    bucket = cast(bucket, "int32")
    segments = n
    if labels is not None:
        bucket = math_ops.add(math_ops.multiply(bucket, labels), array_ops.range(labels))
        segments = n * labels

    def counts(weights):
        # predictions at or below the lowest threshold have bucket -1 and are dropped
        sums = reduction_ops.unsorted_segment_sum(weights, bucket, segments)
        if labels is not None:
            sums = array_ops.reshape(sums, [n, labels])
        return reduction_ops.cumsum(sums, axis=0, reverse=True)
    return counts(true_w), counts(false_w)


def _positives_by_comparison(true_w, false_w, y_pred, thresholds):
    """(tp, fp) at any `thresholds`, comparing each prediction with each threshold."""
    thresholds = constant(np.reshape(thresholds, [-1] + [1] * y_pred.shape.rank),
                          dtype=y_pred.dtype)
    above = cast(math_ops.greater(y_pred, thresholds), y_pred.dtype)
    return (reduction_ops.reduce_sum(math_ops.multiply(above, true_w), axis=1),
            reduction_ops.reduce_sum(math_ops.multiply(above, false_w), axis=1))


def update_confusion_matrix_variables(variables_to_update, y_true, y_pred, thresholds,
                                      top_k=None, class_id=None, sample_weight=None,
                                      multi_label=False, label_weights=None,
                                      thresholds_distributed_evenly=False):
    """Adds the (weighted) confusion-matrix counts of a batch at each of `thresholds` to the
    variables of `variables_to_update` (a dict from `ConfusionMatrix` cells).

    The counts have shape ``[len(thresholds)]``, or ``[len(thresholds), labels]`` with
    `multi_label` (then `y_pred` is ``[batch, labels]``). `top_k` keeps only each row's
    k largest predictions; `class_id` counts only that class (the last axis).

    >>> tp = tf.Variable([0.0, 0.0])
    >>> update_confusion_matrix_variables({ConfusionMatrix.TRUE_POSITIVES: tp},
    ...                                   [1, 1, 0], [0.4, 0.8, 0.9], [0.3, 0.5])
    >>> tp.numpy()
    array([2., 1.], dtype=float32)
    """
    if multi_label and label_weights is not None:
        raise ValueError("`label_weights` for multilabel data should be handled outside of "
                         "`update_confusion_matrix_variables` when `multi_label` is True.")
    if not variables_to_update:
        return
    invalid = [key for key in variables_to_update if key not in list(ConfusionMatrix)]
    if invalid:
        raise ValueError(f'Invalid keys: "{invalid}". Valid variable key options are: '
                         f'"{list(ConfusionMatrix)}"')
    state = next(iter(variables_to_update.values()))
    dtype = state.dtype
    y_true, y_pred = cast(y_true, dtype), cast(y_pred, dtype)
    if not multi_label:
        [y_pred, y_true], _ = ragged_flat_values([y_pred, y_true], sample_weight)
    pred_rank = y_pred.shape.rank  # weights follow the rank before any squeeze, as in Keras
    y_true, y_pred = losses._squeeze_pair(y_true, y_pred)
    y_pred.shape.assert_is_compatible_with(y_true.shape)
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        y_true = y_true[..., class_id:class_id + 1]
        y_pred = y_pred[..., class_id:class_id + 1]

    weights = None
    if sample_weight is not None:
        sample_weight = losses._match_rank(cast(sample_weight, dtype), pred_rank)
        weights = broadcast_weights(sample_weight, y_pred)
    if label_weights is not None:
        label_weights = broadcast_weights(
            array_ops.expand_dims(cast(label_weights, dtype), 0), y_pred)
        weights = label_weights if weights is None else math_ops.multiply(weights,
                                                                          label_weights)
    is_true = cast(math_ops.not_equal(y_true, 0.0), dtype)
    if not multi_label:
        y_pred, is_true = array_ops.reshape(y_pred, [-1]), array_ops.reshape(is_true, [-1])
        if weights is not None:
            weights = array_ops.reshape(weights, [-1])
    is_false = math_ops.subtract(1.0, is_true)
    true_w, false_w = (is_true, is_false) if weights is None else \
        (math_ops.multiply(is_true, weights), math_ops.multiply(is_false, weights))

    thresholds = np.asarray(thresholds, dtype=dtype.as_numpy_dtype)
    if thresholds_distributed_evenly:
        tp, fp = _positives_by_bucket(true_w, false_w, y_pred, thresholds,
                                      state.shape[1] if multi_label else None)
    else:
        tp, fp = _positives_by_comparison(true_w, false_w, y_pred, thresholds)
    counts = {ConfusionMatrix.TRUE_POSITIVES: lambda: tp,
              ConfusionMatrix.FALSE_POSITIVES: lambda: fp,
              ConfusionMatrix.FALSE_NEGATIVES: lambda: math_ops.subtract(
                  reduction_ops.reduce_sum(true_w, axis=0), tp),
              ConfusionMatrix.TRUE_NEGATIVES: lambda: math_ops.subtract(
                  reduction_ops.reduce_sum(false_w, axis=0), fp)}
    for cell, variable in variables_to_update.items():
        variable.assign_add(counts[cell](), read_value=False)


# ----------------------------------------------------------------------------- metrics

class _ConfusionMatrixMetric(Metric):
    """State: one count per threshold for each of the cells in `_CELLS`, pairs of a
    `ConfusionMatrix` cell and the variable's name (an attribute of the metric)."""

    _CELLS = ()
    top_k = None
    class_id = None

    def _parse_thresholds(self, thresholds, default_threshold):
        """Counts at `thresholds` (one or a list, checked), or at `default_threshold`."""
        self.init_thresholds = thresholds
        thresholds = parse_init_thresholds(thresholds, default_threshold)
        self._set_thresholds(thresholds, is_evenly_distributed_thresholds(thresholds))

    def _set_thresholds(self, thresholds, evenly):
        self.thresholds = thresholds
        self._thresholds_distributed_evenly = evenly
        self._build_cells((len(thresholds),))

    def _build_cells(self, shape):
        self._cells = {}
        for cell, name in self._CELLS:
            variable = self.add_weight(name, shape=shape, initializer="zeros")
            setattr(self, name, variable)
            self._cells[cell] = variable

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's counts; `sample_weight` weighs each prediction."""
        update_confusion_matrix_variables(
            self._cells, y_true, y_pred, self.thresholds, top_k=self.top_k,
            class_id=self.class_id, sample_weight=sample_weight,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly)

    def _per_threshold(self, values):
        """`values` as a scalar when there is only one threshold."""
        return values[0] if len(self.thresholds) == 1 else values

    def _rate(self, cell, other):
        """count(cell) / (count(cell) + count(other)) at each threshold, 0 where both are 0."""
        hits = self._cells[cell].value()
        return math_ops.divide_no_nan(hits, math_ops.add(hits, self._cells[other]))


class _ConditionCount(_ConfusionMatrixMetric):
    """The (weighted) number of predictions in one confusion-matrix cell, per threshold."""

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._parse_thresholds(thresholds, default_threshold=0.5)

    def result(self):
        return self._per_threshold(self.accumulator.value())

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


@export("keras.metrics.TruePositives")
class TruePositives(_ConditionCount):
    """The (weighted) number of positive labels predicted positive.

    >>> tf.keras.metrics.TruePositives()([0, 1, 1, 1], [1, 0, 1, 1])
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """

    _CELLS = ((ConfusionMatrix.TRUE_POSITIVES, "accumulator"),)


@export("keras.metrics.FalsePositives")
class FalsePositives(_ConditionCount):
    """The (weighted) number of negative labels predicted positive.

    >>> tf.keras.metrics.FalsePositives()([0, 1, 0, 0], [0, 0, 1, 1])
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """

    _CELLS = ((ConfusionMatrix.FALSE_POSITIVES, "accumulator"),)


@export("keras.metrics.TrueNegatives")
class TrueNegatives(_ConditionCount):
    """The (weighted) number of negative labels predicted negative.

    >>> tf.keras.metrics.TrueNegatives()([0, 1, 0, 0], [1, 1, 0, 0])
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """

    _CELLS = ((ConfusionMatrix.TRUE_NEGATIVES, "accumulator"),)


@export("keras.metrics.FalseNegatives")
class FalseNegatives(_ConditionCount):
    """The (weighted) number of positive labels predicted negative.

    >>> tf.keras.metrics.FalseNegatives()([0, 1, 1, 1], [0, 1, 0, 0])
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """

    _CELLS = ((ConfusionMatrix.FALSE_NEGATIVES, "accumulator"),)


class _PrecisionOrRecall(_ConfusionMatrixMetric):
    """tp / (tp + x) per threshold, x the second cell: false positives or false negatives.

    Without `thresholds`, a prediction is positive above 0.5, or, with `top_k`, when it is
    among its row's k largest.
    """

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.top_k = top_k
        self.class_id = class_id
        self._parse_thresholds(thresholds, default_threshold=0.5 if top_k is None else NEG_INF)

    def result(self):
        (hit, _), (miss, _) = self._CELLS
        return self._per_threshold(self._rate(hit, miss))

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


@export("keras.metrics.Precision")
class Precision(_PrecisionOrRecall):
    """The fraction of positive predictions whose label is positive.

    >>> tf.keras.metrics.Precision()([0, 1, 1, 1], [1, 0, 1, 1])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.6666666865348816>
    """

    _CELLS = ((ConfusionMatrix.TRUE_POSITIVES, "true_positives"),
              (ConfusionMatrix.FALSE_POSITIVES, "false_positives"))


@export("keras.metrics.Recall")
class Recall(_PrecisionOrRecall):
    """The fraction of positive labels predicted positive.

    >>> tf.keras.metrics.Recall()([0, 1, 1, 1], [1, 0, 1, 1])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.6666666865348816>
    """

    _CELLS = ((ConfusionMatrix.TRUE_POSITIVES, "true_positives"),
              (ConfusionMatrix.FALSE_NEGATIVES, "false_negatives"))


_ALL_CELLS = ((ConfusionMatrix.TRUE_POSITIVES, "true_positives"),
              (ConfusionMatrix.TRUE_NEGATIVES, "true_negatives"),
              (ConfusionMatrix.FALSE_POSITIVES, "false_positives"),
              (ConfusionMatrix.FALSE_NEGATIVES, "false_negatives"))


# The rates that the "X at Y" metrics trade against each other, as (cell, other cell) of
# count(cell) / (count(cell) + count(other)).
_SENSITIVITY = (ConfusionMatrix.TRUE_POSITIVES, ConfusionMatrix.FALSE_NEGATIVES)
_SPECIFICITY = (ConfusionMatrix.TRUE_NEGATIVES, ConfusionMatrix.FALSE_POSITIVES)
_PRECISION = (ConfusionMatrix.TRUE_POSITIVES, ConfusionMatrix.FALSE_POSITIVES)


class SensitivitySpecificityBase(_ConfusionMatrixMetric):
    """The best `_DEPENDENT` rate among the thresholds where the `_CONSTRAINED` rate is at
    least `value` (0 when it never is).

    Counts are kept at `num_thresholds` evenly spaced thresholds in [0, 1] (at 0.5 when it
    is 1). Subclasses name the constraint (`_VALUE_NAME`) and the two rates.
    """

    _CELLS = _ALL_CELLS
    _VALUE_NAME = None

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if self._VALUE_NAME is not None and (value < 0 or value > 1):
            raise ValueError(f"Argument `{self._VALUE_NAME}` must be in the range [0, 1]. "
                             f"Received: {self._VALUE_NAME}={value}")
        super().__init__(name=name, dtype=dtype)
        if num_thresholds <= 0:
            raise ValueError(f"Argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds}")
        self.value = value
        self.class_id = class_id
        self.num_thresholds = num_thresholds
        if self._VALUE_NAME is not None:
            setattr(self, self._VALUE_NAME, value)
        if num_thresholds == 1:
            self._set_thresholds([0.5], False)
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._set_thresholds([0.0] + inner + [1.0], True)

    def result(self):
        feasible = math_ops.greater_equal(self._rate(*self._CONSTRAINED), self.value)
        dependent = self._rate(*self._DEPENDENT)
        # rates are never negative, so 0 stands for "no feasible threshold"
        return reduction_ops.reduce_max(
            array_ops.where(feasible, dependent, array_ops.zeros_like(dependent)))

    def get_config(self):
        config = {**super().get_config(), "class_id": self.class_id}
        if self._VALUE_NAME is not None:
            config.update(num_thresholds=self.num_thresholds, **{self._VALUE_NAME: self.value})
        return config


@export("keras.metrics.SensitivityAtSpecificity")
class SensitivityAtSpecificity(SensitivitySpecificityBase):
    """The best sensitivity (recall) where the specificity is at least `specificity`.

    >>> m = tf.keras.metrics.SensitivityAtSpecificity(0.5)
    >>> m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    _VALUE_NAME = "specificity"
    _CONSTRAINED, _DEPENDENT = _SPECIFICITY, _SENSITIVITY

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(specificity, num_thresholds, class_id, name, dtype)


@export("keras.metrics.SpecificityAtSensitivity")
class SpecificityAtSensitivity(SensitivitySpecificityBase):
    """The best specificity where the sensitivity (recall) is at least `sensitivity`.

    >>> m = tf.keras.metrics.SpecificityAtSensitivity(0.5)
    >>> m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.6666666865348816>
    """

    _VALUE_NAME = "sensitivity"
    _CONSTRAINED, _DEPENDENT = _SENSITIVITY, _SPECIFICITY

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)


@export("keras.metrics.PrecisionAtRecall")
class PrecisionAtRecall(SensitivitySpecificityBase):
    """The best precision where the recall is at least `recall`.

    >>> m = tf.keras.metrics.PrecisionAtRecall(0.5)
    >>> m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    _VALUE_NAME = "recall"
    _CONSTRAINED, _DEPENDENT = _SENSITIVITY, _PRECISION

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds, class_id, name, dtype)


@export("keras.metrics.RecallAtPrecision")
class RecallAtPrecision(SensitivitySpecificityBase):
    """The best recall where the precision is at least `precision`.

    >>> m = tf.keras.metrics.RecallAtPrecision(0.8)
    >>> m([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """

    _VALUE_NAME = "precision"
    _CONSTRAINED, _DEPENDENT = _PRECISION, _SENSITIVITY

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds, class_id, name, dtype)


@export("keras.metrics.AUC")
class AUC(_ConfusionMatrixMetric):
    """The area under the ROC or precision-recall curve, estimated from counts at
    `num_thresholds` thresholds (or at the given `thresholds`, plus ones just below 0 and
    just above 1).

    `summation_method` sums trapezoids ('interpolation'; for PR, Davis & Goadrich's
    interpolation), or the upper ('majoring') or lower ('minoring') steps. With
    `multi_label`, each label (last axis of ``[batch, labels]`` inputs) has its own curve
    and the result is their mean, weighted by `label_weights` if given. With `from_logits`,
    predictions go through a sigmoid first.

    >>> m = tf.keras.metrics.AUC(num_thresholds=3)
    >>> m([0, 0, 1, 1], [0, 0.5, 0.3, 0.9])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.75>
    """

    _CELLS = _ALL_CELLS

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        curve = curve if isinstance(curve, AUCCurve) else AUCCurve.from_str(curve)
        if not isinstance(summation_method, AUCSummationMethod):
            summation_method = AUCSummationMethod.from_str(summation_method)
        from_thresholds = thresholds is not None
        if from_thresholds:
            num_thresholds = len(thresholds) + 2
            thresholds = sorted(thresholds)
            evenly = is_evenly_distributed_thresholds(np.array([0.0] + thresholds + [1.0]))
        else:
            if num_thresholds <= 1:
                raise ValueError(f"Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1)
                          for i in range(num_thresholds - 2)]
            evenly = True
        super().__init__(name=name, dtype=dtype)
        self._init_from_thresholds = from_thresholds
        self.num_thresholds = num_thresholds
        # the end thresholds lie just outside [0, 1] so that predictions of 0 and 1 count
        self._thresholds = np.array([0.0 - backend.epsilon()] + thresholds +
                                    [1.0 + backend.epsilon()])
        self._thresholds_distributed_evenly = evenly
        self.curve = curve
        self.summation_method = summation_method
        self.multi_label = multi_label
        self.num_labels = num_labels
        if label_weights is not None:
            label_weights = constant(label_weights, dtype=self.dtype)
            debugging_ops.assert_non_negative(
                label_weights, message="All values of `label_weights` must be non-negative.")
        self.label_weights = label_weights
        self._from_logits = from_logits
        self._built = False
        if multi_label:
            if num_labels:
                self._build(TensorShape([None, num_labels]))
        elif num_labels:
            raise ValueError("`num_labels` is needed only when `multi_label` is True.")
        else:
            self._build(None)

    @property
    def thresholds(self):
        """The thresholds (NumPy floats), the two just outside [0, 1] included."""
        return list(self._thresholds)

    def _build(self, shape):
        if self.multi_label:
            if shape.rank != 2:
                raise ValueError(f"`y_pred` must have rank 2 when `multi_label=True`. Found "
                                 f"rank {shape.rank}. Full shape received for `y_pred`: "
                                 f"{shape}")
            self._num_labels = shape[1]
            self._build_cells((self.num_thresholds, self._num_labels))
        else:
            self._build_cells((self.num_thresholds,))
        self._build_input_shape = shape
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the batch's counts; `sample_weight` weighs each prediction."""
        if not isinstance(y_pred, RaggedTensor):  # (whose values count, see below)
            y_pred = as_tensor(y_pred)
        if not self._built:
            self._build(y_pred.shape)
        if self.multi_label or self.label_weights is not None:
            self._check_labels(y_true)
        if self._from_logits:
            y_pred = math_ops.sigmoid(y_pred)
        update_confusion_matrix_variables(
            self._cells, y_true, y_pred, self._thresholds, sample_weight=sample_weight,
            multi_label=self.multi_label,
            label_weights=None if self.multi_label else self.label_weights,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly)

    def _check_labels(self, y_true):
        """Labels ``[batch, labels]`` agree with the counts' and `label_weights`' labels (TF's
        check, naming the tensor that first fixed the number of labels)."""
        shapes = [(y_true, ("N", "L"))]
        if self.multi_label:
            shapes += [(variable, ("T", "L")) for variable in self._cells.values()]
        if self.label_weights is not None:
            shapes.append((self.label_weights, ("L",)))
        debugging_ops.assert_shapes(shapes, message="Number of labels is not consistent.")

    def _area(self, terms):
        """The sum of `terms` over thresholds, averaged over labels with `multi_label`."""
        if not self.multi_label:
            return reduction_ops.reduce_sum(terms)
        by_label = reduction_ops.reduce_sum(terms, axis=0)
        if self.label_weights is None:
            return reduction_ops.reduce_mean(by_label)
        return math_ops.divide_no_nan(
            reduction_ops.reduce_sum(math_ops.multiply(by_label, self.label_weights)),
            reduction_ops.reduce_sum(self.label_weights))

    def interpolate_pr_auc(self):
        """The PR-AUC with precision interpolated between thresholds as Davis & Goadrich
        (2006) do: the precision of a linear interpolation of the counts, integrated
        exactly over recall."""
        tp = self.true_positives.value()
        positives = math_ops.add(tp, self.false_positives)
        d_tp = math_ops.subtract(tp[:-1], tp[1:])
        d_p = math_ops.subtract(positives[:-1], positives[1:])
        slope = math_ops.divide_no_nan(d_tp, math_ops.maximum(d_p, 0.0))
        intercept = math_ops.subtract(tp[1:], math_ops.multiply(slope, positives[1:]))
        p_ratio = array_ops.where(
            math_ops.logical_and(math_ops.greater(positives[:-1], 0.0),
                                 math_ops.greater(positives[1:], 0.0)),
            math_ops.divide_no_nan(positives[:-1], math_ops.maximum(positives[1:], 0.0)),
            array_ops.ones_like(positives[1:]))
        increment = math_ops.divide_no_nan(
            math_ops.multiply(slope, math_ops.add(
                d_tp, math_ops.multiply(intercept, math_ops.log(p_ratio)))),
            math_ops.maximum(math_ops.add(tp[1:], self.false_negatives[1:]), 0.0))
        return self._area(increment)

    def result(self):
        if self.curve is AUCCurve.PR and \
                self.summation_method is AUCSummationMethod.INTERPOLATION:
            return self.interpolate_pr_auc()
        tp, tn, fp, fn = (self._cells[cell].value() for cell, _ in self._CELLS)
        recall = math_ops.divide_no_nan(tp, math_ops.add(tp, fn))
        if self.curve is AUCCurve.ROC:
            x, y = math_ops.divide_no_nan(fp, math_ops.add(fp, tn)), recall
        elif self.curve is AUCCurve.PR:
            x, y = recall, math_ops.divide_no_nan(tp, math_ops.add(tp, fp))
        else:
            x, y = self._gains(tp, tn, fp, fn)
        if self.summation_method is AUCSummationMethod.INTERPOLATION:
            heights = math_ops.divide(math_ops.add(y[:-1], y[1:]), 2.0)
        elif self.summation_method is AUCSummationMethod.MINORING:
            heights = math_ops.minimum(y[:-1], y[1:])
        else:
            heights = math_ops.maximum(y[:-1], y[1:])
        return self._area(math_ops.multiply(math_ops.subtract(x[:-1], x[1:]), heights))

    @staticmethod
    def _gains(tp, tn, fp, fn):
        """(recall gain, precision gain) at each threshold (Flach & Kull, 2015)."""
        scale = math_ops.divide_no_nan(math_ops.add(tp, fn), math_ops.add(fp, tn))
        no_tp = math_ops.equal(tp, 0.0)
        recall_gain = math_ops.subtract(1.0, math_ops.multiply(
            scale, math_ops.divide_no_nan(fn, tp)))
        precision_gain = math_ops.subtract(1.0, math_ops.multiply(
            scale, math_ops.divide_no_nan(fp, tp)))
        recall_gain = array_ops.where(no_tp, array_ops.zeros_like(recall_gain), recall_gain)
        precision_gain = array_ops.where(no_tp, array_ops.ones_like(precision_gain),
                                         precision_gain)
        return math_ops.maximum(recall_gain, 0.0), precision_gain

    def get_config(self):
        config = {**super().get_config(), "num_thresholds": self.num_thresholds,
                  "curve": self.curve.value, "summation_method": self.summation_method.value,
                  "multi_label": self.multi_label, "num_labels": self.num_labels,
                  "label_weights": None if self.label_weights is None else
                  self.label_weights.numpy(),
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return config
