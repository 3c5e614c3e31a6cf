"""Keras 2 metrics (``tf.keras.metrics``): `Metric` classes, the functions they average,
and `get`/`serialize`/`deserialize`.

String identifiers name a class (``'AUC'``, instantiated with its defaults) or a function
(``'mse'``, ``'binary_accuracy'``); `get_metric_object` is what ``compile`` does with one,
resolving ``'accuracy'`` and ``'crossentropy'`` by the shapes of an output.

>>> tf.keras.metrics.get("AUC").curve
<AUCCurve.ROC: 'ROC'>
>>> tf.keras.metrics.get("mse").__name__
'mean_squared_error'
"""

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode as _graph_mode
from eagerflow._src.keras import losses as _losses
# Loss functions double as metric functions, under the same names and aliases.
from eagerflow._src.keras.losses import (  # noqa: F401
    BCE, KLD, MAE, MAPE, MSE, MSLE, bce, binary_crossentropy, binary_focal_crossentropy,
    categorical_crossentropy, categorical_focal_crossentropy, categorical_hinge, hinge,
    kl_divergence, kld, kullback_leibler_divergence, log_cosh, logcosh, mae, mape,
    mean_absolute_error, mean_absolute_percentage_error, mean_squared_error,
    mean_squared_logarithmic_error, mse, msle, poisson, sparse_categorical_crossentropy,
    squared_hinge)
from eagerflow._src.keras.metrics.accuracy_metrics import (  # noqa: F401
    Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
    SparseTopKCategoricalAccuracy, TopKCategoricalAccuracy, accuracy, binary_accuracy,
    categorical_accuracy, sparse_categorical_accuracy, sparse_top_k_categorical_accuracy,
    top_k_categorical_accuracy)
from eagerflow._src.keras.metrics.base_metric import (  # noqa: F401
    Mean, MeanMetricWrapper, MeanTensor, Metric, Reduce, Reduction, Sum)
from eagerflow._src.keras.metrics.confusion_metrics import (  # noqa: F401
    AUC, FalseNegatives, FalsePositives, Precision, PrecisionAtRecall, Recall,
    RecallAtPrecision, SensitivityAtSpecificity, SensitivitySpecificityBase,
    SpecificityAtSensitivity, TrueNegatives, TruePositives)
from eagerflow._src.keras.metrics.f_score_metrics import F1Score, FBetaScore  # noqa: F401
from eagerflow._src.keras.metrics.hinge_metrics import (  # noqa: F401
    CategoricalHinge, Hinge, SquaredHinge)
from eagerflow._src.keras.metrics.iou_metrics import (  # noqa: F401
    BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU)
from eagerflow._src.keras.metrics.py_metric import PyMetric  # noqa: F401
from eagerflow._src.keras.metrics.probabilistic_metrics import (  # noqa: F401
    BinaryCrossentropy, CategoricalCrossentropy, KLDivergence, Poisson,
    SparseCategoricalCrossentropy)
from eagerflow._src.keras.metrics.regression_metrics import (  # noqa: F401
    CosineSimilarity, LogCoshError, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanRelativeError, MeanSquaredError, MeanSquaredLogarithmicError, R2Score,
    RootMeanSquaredError, cosine_similarity)
from eagerflow._src.keras.utils import serialization


acc = ACC = accuracy
cosine_proximity = cosine_similarity

_NOT_METRICS = {"Reduction", "serialize", "deserialize", "get", "get_metric_object",
                "PyMetric"}


@export("keras.metrics.serialize")
def serialize(metric, use_legacy_format=False):
    """A metric as a config dict (a function as its name).

    >>> tf.keras.metrics.serialize(tf.keras.metrics.Mean())["config"]
    {'name': 'mean', 'dtype': 'float32'}
    """
    return _IDENTIFIERS.serialize(metric, use_legacy_format)


@export("keras.metrics.deserialize")
def deserialize(config, custom_objects=None, use_legacy_format=False):
    """The metric a name or config dict describes (classes are instantiated).

    >>> tf.keras.metrics.deserialize({"class_name": "Precision",
    ...                               "config": {"thresholds": 0.7}}).thresholds
    ListWrapper([0.7])
    """
    return _IDENTIFIERS.deserialize(config, custom_objects)


@export("keras.metrics.get")
def get(identifier):
    """A metric from a name, a config dict or a callable.

    >>> type(tf.keras.metrics.get("CategoricalCrossentropy")).__name__
    'CategoricalCrossentropy'
    >>> tf.keras.metrics.get("categorical_crossentropy").__name__
    'categorical_crossentropy'
    """
    return _IDENTIFIERS.get(identifier)


def get_metric_object(identifier, y_true, y_pred):
    """The `Metric` that ``compile(metrics=[identifier])`` tracks for an output with labels
    like `y_true` and predictions like `y_pred` (anything with a ``shape``), or None.

    ``'accuracy'``/``'acc'`` and ``'crossentropy'``/``'ce'`` mean the binary variant for
    predictions with a last axis of 1, the sparse one for labels with fewer axes (or a last
    axis of 1 against several classes), else the categorical one. Functions and losses are
    averaged by a `MeanMetricWrapper` named as given.

    >>> get_metric_object("acc", tf.TensorSpec([None, 1]), tf.TensorSpec([None, 10])).name
    'acc'
    """
    if identifier is None:
        return None
    if str(identifier).lower() in ("accuracy", "acc", "crossentropy", "ce"):
        true_shape, pred_shape = y_true.shape.as_list(), y_pred.shape.as_list()
        is_binary = pred_shape[-1] == 1
        is_sparse = len(true_shape) < len(pred_shape) or \
            true_shape[-1] == 1 and pred_shape[-1] != 1
        accuracy_named = str(identifier).lower() in ("accuracy", "acc")
        if is_binary:
            metric = binary_accuracy if accuracy_named else binary_crossentropy
        elif is_sparse:
            metric = sparse_categorical_accuracy if accuracy_named else \
                sparse_categorical_crossentropy
        else:
            metric = categorical_accuracy if accuracy_named else categorical_crossentropy
    else:
        metric = get(identifier)
    if isinstance(metric, Metric):
        return metric
    if isinstance(identifier, str):
        name = identifier if _graph_mode.tf2_enabled() else _v1_name(identifier, metric)
    elif isinstance(metric, _losses.Loss):
        name = metric.name
    else:
        name = getattr(metric, "__name__", None)
        if name is None:
            raise ValueError(f"Metric should be a callable, received: {metric}")
    return MeanMetricWrapper(metric, name=name)


def _v1_name(identifier, metric):
    """TF 1's name of a metric given by name (after `disable_v2_behavior`): ``acc`` and
    ``ce`` for the accuracies and crossentropies, else the function's own name."""
    if identifier.lower() in ("accuracy", "acc"):
        return "acc"
    if identifier.lower() in ("crossentropy", "ce"):
        return "ce"
    return getattr(metric, "__name__", identifier)


_MODULE_OBJECTS = {name: obj for name, obj in globals().items()
                   if not name.startswith("_") and name not in _NOT_METRICS and callable(obj)}
_IDENTIFIERS = serialization.Identifiers(
    "metric function", _MODULE_OBJECTS, Metric, "keras.metrics", get_kind="metric",
    none=serialization.Identifiers.NO_DEFAULT, unknown_names_pass=True)
