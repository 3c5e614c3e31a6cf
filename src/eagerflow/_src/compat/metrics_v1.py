"""TF 1's streaming metrics (``tf.compat.v1.metrics``): each returns ``(value, update_op)``,
two tensors of a graph: running `update_op` adds a batch to the totals the metric keeps in
local variables (``accuracy/total``, ``accuracy/count``, in the ``local_variables`` and
``metric_variables`` collections), and `value` reads the result so far.
`local_variables_initializer` starts them over.

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     acc, update = tf.compat.v1.metrics.accuracy([1, 0, 1], [1, 1, 1])
...     init = tf.compat.v1.local_variables_initializer()
>>> with tf.compat.v1.Session(graph=g) as sess:
...     _ = sess.run(init)
...     _ = sess.run(update)
...     round(float(sess.run(acc)), 4)
0.6667
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.ops import array_ops, cast_ops, linalg_ops, math_ops, reduction_ops
from eagerflow._src.ops import confusion_matrix as _confusion_matrix


def _graph_only(name):
    if graph_mode.v1_graph() is None:
        raise RuntimeError(f"tf.metrics.{name} is not supported when eager execution is "
                           f"enabled.")


def _metric_variable(shape, dtype, name):
    """A local variable of zeros, in the local and metric variables (TF's `metric_variable`)."""
    return vs.GraphVariable(lambda: array_ops.zeros(shape, dtype), trainable=False,
                            collections=[GraphKeys.LOCAL_VARIABLES,
                                         GraphKeys.METRIC_VARIABLES], name=name)


def _squeezed(predictions, labels, weights=None):
    """`predictions`, `labels` and `weights` with a trailing dimension of 1 dropped where
    the other has one dimension fewer (TF's `_remove_squeezable_dimensions`)."""
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels = convert_to_tensor(labels)
        p, lab = predictions.shape.rank, labels.shape.rank
        if p is not None and lab is not None:
            if lab == p + 1 and labels.shape[-1] == 1:
                labels = array_ops.squeeze(labels, [-1])
            elif p == lab + 1 and predictions.shape[-1] == 1:
                predictions = array_ops.squeeze(predictions, [-1])
    if weights is not None:
        weights = convert_to_tensor(weights)
        w, p = weights.shape.rank, predictions.shape.rank
        if w is not None and p is not None and w == p + 1 and weights.shape[-1] == 1:
            weights = array_ops.squeeze(weights, [-1])
    return predictions, labels, weights


def _collect(collections, tensor):
    if collections:
        graph_mode.get_default_graph().add_to_collections(collections, tensor)


def _div_no_nan(total, count, name):
    return math_ops.divide_no_nan(total, math_ops.maximum(count, 0.0), name=name)


def _running_mean(total, count, added, num_values, values, metrics_collections,
                  updates_collections):
    """A mean metric's value and update op: `added` summed into `total` and (after `values`
    are computed) `num_values` into `count`, each op put in its collections."""
    update_total = vs.assign_add(total, added)
    with graph_mode.control_dependencies([values]):
        update_count = vs.assign_add(count, num_values)
    value = _div_no_nan(total, count, "value")
    update_op = _div_no_nan(update_total, update_count, "update_op")
    _collect(metrics_collections, value)
    _collect(updates_collections, update_op)
    return value, update_op


@export("compat.v1.metrics.mean")
def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of all `values` so far."""
    _graph_only("mean")
    with vs.variable_scope(name, "mean"):
        values = cast_ops.cast(convert_to_tensor(values), _d.float32)
        total = _metric_variable([], _d.float32, "total")
        count = _metric_variable([], _d.float32, "count")
        if weights is None:
            num_values = cast_ops.cast(array_ops.size(values), _d.float32)
        else:
            values, _, weights = _squeezed(values, None, weights)
            weights = cast_ops.cast(weights, _d.float32) * array_ops.ones_like(values)
            values = math_ops.multiply(values, weights)
            num_values = reduction_ops.reduce_sum(weights)
        return _running_mean(total, count, reduction_ops.reduce_sum(values), num_values, values,
                             metrics_collections, updates_collections)


@export("compat.v1.metrics.accuracy")
def accuracy(labels, predictions, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """How often `predictions` equal `labels`, so far."""
    _graph_only("accuracy")
    predictions, labels, weights = _squeezed(predictions, labels, weights)
    predictions.shape.assert_is_compatible_with(labels.shape)
    if labels.dtype != predictions.dtype:
        predictions = cast_ops.cast(predictions, labels.dtype)
    correct = cast_ops.cast(math_ops.equal(predictions, labels), _d.float32)
    return mean(correct, weights, metrics_collections, updates_collections, name or "accuracy")


def _mean_of(error, name, labels, predictions, weights, metrics_collections,
             updates_collections, default):
    _graph_only(default)
    predictions, labels, weights = _squeezed(predictions, labels, weights)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return mean(error(labels, predictions), weights, metrics_collections, updates_collections,
                name or default)


@export("compat.v1.metrics.mean_squared_error")
def mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    """The mean of ``(labels - predictions) ** 2`` so far."""
    return _mean_of(math_ops.squared_difference, name, labels, predictions, weights,
                    metrics_collections, updates_collections, "mean_squared_error")


@export("compat.v1.metrics.mean_absolute_error")
def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The mean of ``|predictions - labels|`` so far."""
    return _mean_of(lambda lab, p: math_ops.abs(math_ops.subtract(p, lab)), name, labels,
                    predictions, weights, metrics_collections, updates_collections,
                    "mean_absolute_error")


@export("compat.v1.metrics.root_mean_squared_error")
def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """The square root of the mean squared error so far."""
    mse, update_mse = _mean_of(math_ops.squared_difference, name, labels, predictions,
                               weights, None, None, "root_mean_squared_error")
    value, update_op = math_ops.sqrt(mse), math_ops.sqrt(update_mse)
    _collect(metrics_collections, value)
    _collect(updates_collections, update_op)
    return value, update_op


def _count_condition(condition, weights, metrics_collections, updates_collections):
    count = _metric_variable([], _d.float32, "count")
    values = cast_ops.cast(condition, _d.float32)
    if weights is not None:
        values = math_ops.multiply(values, cast_ops.cast(weights, _d.float32))
    value = cast_ops.identity(count)
    update_op = vs.assign_add(count, reduction_ops.reduce_sum(values))
    _collect(metrics_collections, value)
    _collect(updates_collections, update_op)
    return value, update_op


def _as_bools(labels, predictions, weights):
    """`predictions`, `labels` (both as booleans) and `weights`, squeezed to match."""
    return _squeezed(cast_ops.cast(convert_to_tensor(predictions), _d.bool),
                     cast_ops.cast(convert_to_tensor(labels), _d.bool), weights)


def _condition_counter(default, want_label, want_prediction):
    def counter(labels, predictions, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
        _graph_only(default)
        with vs.variable_scope(name, default):
            predictions, labels, weights = _as_bools(labels, predictions, weights)
            condition = math_ops.logical_and(math_ops.equal(labels, want_label),
                                             math_ops.equal(predictions, want_prediction))
            return _count_condition(condition, weights, metrics_collections,
                                    updates_collections)
    counter.__name__ = default
    counter.__doc__ = (f"The (weighted) number of {default.replace('_', ' ')} so far (labels "
                       f"and predictions taken as booleans).")
    return counter


true_positives = _condition_counter("true_positives", True, True)
false_positives = _condition_counter("false_positives", False, True)
true_negatives = _condition_counter("true_negatives", False, False)
false_negatives = _condition_counter("false_negatives", True, False)
for _name in ("true_positives", "false_positives", "true_negatives", "false_negatives"):
    export(f"compat.v1.metrics.{_name}").export_constant(__name__, _name)
del _name


def _ratio(default, other_counter):
    def metric(labels, predictions, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        _graph_only(default)
        with vs.variable_scope(name, default):
            predictions, labels, weights = _as_bools(labels, predictions, weights)
            tp, tp_update = true_positives(labels, predictions, weights)
            other, other_update = other_counter(labels, predictions, weights)

            def ratio(tp, other, name):
                total = math_ops.add(tp, other)
                return array_ops.where(math_ops.greater(total, 0.0), math_ops.divide(tp, total),
                                       array_ops.zeros_like(tp), name=name)
            value = ratio(tp, other, "value")
            update_op = ratio(tp_update, other_update, "update_op")
            _collect(metrics_collections, value)
            _collect(updates_collections, update_op)
            return value, update_op
    metric.__name__ = default
    return metric


precision = _ratio("precision", false_positives)
precision.__doc__ = "true positives / (true positives + false positives), so far."
recall = _ratio("recall", false_negatives)
recall.__doc__ = "true positives / (true positives + false negatives), so far."
export("compat.v1.metrics.precision").export_constant(__name__, "precision")
export("compat.v1.metrics.recall").export_constant(__name__, "recall")


_CONFUSION_KEYS = ("tp", "fn", "tn", "fp")
_CONFUSION_NAMES = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives",
                    "fp": "false_positives"}


def _check_unit_interval(predictions):
    """Predictions known now must lie in [0, 1], as TF's build-time assertion requires."""
    known = get_static_value(predictions)
    if known is not None and (np.any(known < 0) or np.any(known > 1)):
        raise errors.InvalidArgumentError(None, None, "predictions must be in [0, 1]")


def _at_thresholds(labels, predictions, thresholds, weights, includes=_CONFUSION_KEYS):
    """The counts of `includes` ('tp', 'fn', 'tn', 'fp') at each threshold: `predictions`
    above a threshold are positive. Returns ({key: variable}, {key: update}); the variables
    (float32 ``[len(thresholds)]``) are made in the order tp, fn, tn, fp (TF's
    `_confusion_matrix_at_thresholds`)."""
    for key in includes:
        if key not in _CONFUSION_KEYS:
            raise ValueError(f"Invalid key: {key}")
    predictions = convert_to_tensor(predictions)
    _check_unit_interval(predictions)
    predictions, labels, weights = _squeezed(
        cast_ops.cast(predictions, _d.float32),
        cast_ops.cast(convert_to_tensor(labels), _d.bool), weights)
    n = len(thresholds)
    # (thresholds x examples) comparisons
    flat_p = array_ops.reshape(predictions, [1, -1])
    positive = array_ops.reshape(labels, [1, -1])
    above = math_ops.greater(flat_p, array_ops.reshape(
        convert_to_tensor(list(thresholds), _d.float32), [n, 1]))
    conditions = {"tp": lambda: math_ops.logical_and(positive, above),
                  "fn": lambda: math_ops.logical_and(positive, math_ops.logical_not(above)),
                  "tn": lambda: math_ops.logical_and(math_ops.logical_not(positive),
                                                     math_ops.logical_not(above)),
                  "fp": lambda: math_ops.logical_and(math_ops.logical_not(positive), above)}
    w = None if weights is None else array_ops.reshape(
        cast_ops.cast(weights, _d.float32) * array_ops.ones_like(predictions), [1, -1])
    values, updates = {}, {}
    for key in _CONFUSION_KEYS:
        if key in includes:
            c = cast_ops.cast(conditions[key](), _d.float32)
            variable = _metric_variable([n], _d.float32, _CONFUSION_NAMES[key])
            values[key] = variable
            updates[key] = vs.assign_add(
                variable, reduction_ops.reduce_sum(c if w is None else c * w, 1))
    return values, updates


def _both(metrics_collections, updates_collections, compute, values, updates):
    """`compute` of the variables and of their updates, each added to its collections."""
    value = compute(*[cast_ops.identity(v) for v in values], "value")
    update_op = compute(*updates, "update_op")
    _collect(metrics_collections, value)
    _collect(updates_collections, update_op)
    return value, update_op


def _thresholds_of(num_thresholds, last=1.0 + 1e-7):
    """`num_thresholds` thresholds spread over [0, 1], the first just below 0 and the last
    `last`."""
    return ([0.0 - 1e-7] + [(i + 1) * 1.0 / (num_thresholds - 1)
                            for i in range(num_thresholds - 2)] + [last])


@export("compat.v1.metrics.auc")
def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
    """The area under the ROC (or PR) curve so far, over `num_thresholds` thresholds of
    `predictions` (in [0, 1]), summed as `summation_method` says: ``"trapezoidal"``,
    ``"minoring"`` / ``"majoring"`` (the lower / higher end of each interval), or
    ``"careful_interpolation"`` (for PR: precision interpolated along the positives
    predicted, as Davis and Goadrich's; for ROC the trapezoidal rule)."""
    _graph_only("auc")
    if curve not in ("ROC", "PR"):
        raise ValueError(f'Curve must be either ROC or PR. Curve {curve} is unknown.')
    if summation_method not in ("trapezoidal", "careful_interpolation", "minoring",
                                "majoring"):
        raise ValueError(f"Invalid summation_method: {summation_method} summation_method "
                         "should be 'trapezoidal', 'careful_interpolation', 'minoring', "
                         "or 'majoring'.")
    with vs.variable_scope(name, "auc"):
        if thresholds is not None:
            kept = [0.0 - 1e-7, *sorted(thresholds), 1.0 + 1e-7]
        else:
            kept = _thresholds_of(num_thresholds)
        n = len(kept)
        values, updates = _at_thresholds(labels, predictions, kept, weights)

        def area(tp, fn, tn, fp, name):
            if curve == "PR" and summation_method == "careful_interpolation":
                return _interpolated_pr_area(tp, fp, fn, n, name)
            epsilon = 1.0e-6
            rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + epsilon), rec
            else:
                x, y = rec, math_ops.divide(tp + epsilon, tp + fp + epsilon)
            if summation_method == "minoring":
                height = math_ops.minimum(y[:n - 1], y[1:])
            elif summation_method == "majoring":
                height = math_ops.maximum(y[:n - 1], y[1:])
            else:
                height = (y[:n - 1] + y[1:]) / 2.0
            return reduction_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], height),
                                            name=name)
        return _both(metrics_collections, updates_collections, area,
                     [values[k] for k in _CONFUSION_KEYS], [updates[k] for k in _CONFUSION_KEYS])


def _interpolated_pr_area(tp, fp, fn, n, name):
    """The PR curve's area with precision interpolated between thresholds: within an
    interval the true and all predicted positives (P) vary linearly, so precision is
    ``(intercept + slope * P) / P`` and its integral over recall is
    ``slope * (dTP + intercept * log(P_A / P_B)) / positives`` (``slope * dTP`` for an
    interval starting at no predicted positives)."""
    dtp = tp[:n - 1] - tp[1:]
    p = tp + fp
    slope = math_ops.divide_no_nan(dtp, math_ops.maximum(p[:n - 1] - p[1:], 0.0))
    intercept = tp[1:] - math_ops.multiply(slope, p[1:])
    ratio = array_ops.where(
        math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
        math_ops.divide_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0.0)),
        array_ops.ones_like(p[1:]))
    return reduction_ops.reduce_sum(
        math_ops.divide_no_nan(slope * (dtp + intercept * math_ops.log(ratio)),
                            math_ops.maximum(tp[1:] + fn[1:], 0.0)), name=name)


def _count_at_thresholds(key):
    default = _CONFUSION_NAMES[key]

    def counter(labels, predictions, thresholds, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
        _graph_only(f"{default}_at_thresholds")
        with vs.variable_scope(name, default):
            values, updates = _at_thresholds(labels, predictions, thresholds, weights, (key,))
            value = cast_ops.identity(values[key])
            _collect(metrics_collections, value)
            _collect(updates_collections, updates[key])
            return value, updates[key]
    counter.__name__ = f"{default}_at_thresholds"
    counter.__doc__ = (f"The (weighted) number of {default.replace('_', ' ')} at each of "
                       f"`thresholds` so far (a prediction above a threshold is positive).")
    export(f"compat.v1.metrics.{default}_at_thresholds").export_constant(
        __name__, counter.__name__)
    return counter


true_positives_at_thresholds = _count_at_thresholds("tp")
false_negatives_at_thresholds = _count_at_thresholds("fn")
true_negatives_at_thresholds = _count_at_thresholds("tn")
false_positives_at_thresholds = _count_at_thresholds("fp")


def _ratio_at_thresholds(default, other):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        _graph_only(default)
        with vs.variable_scope(name, default):
            values, updates = _at_thresholds(labels, predictions, thresholds, weights,
                                             ("tp", other))

            def ratio(tp, o, which):
                return math_ops.divide(tp, 1e-7 + tp + o, name=f"{default[:-14]}_{which}")
            return _both(metrics_collections, updates_collections, ratio,
                         [values["tp"], values[other]], [updates["tp"], updates[other]])
    metric.__name__ = default
    export(f"compat.v1.metrics.{default}").export_constant(__name__, default)
    return metric


precision_at_thresholds = _ratio_at_thresholds("precision_at_thresholds", "fp")
precision_at_thresholds.__doc__ = (
    "true positives / (true positives + false positives) at each of `thresholds`, so far.")
recall_at_thresholds = _ratio_at_thresholds("recall_at_thresholds", "fn")
recall_at_thresholds.__doc__ = (
    "true positives / (true positives + false negatives) at each of `thresholds`, so far.")


def _rate(a, b):
    return math_ops.divide(a, a + b + 1e-7)


@export("compat.v1.metrics.sensitivity_at_specificity")
def sensitivity_at_specificity(labels, predictions, specificity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The sensitivity (recall) so far at the threshold whose specificity is nearest
    `specificity`, among `num_thresholds` thresholds of `predictions` (in [0, 1])."""
    _graph_only("sensitivity_at_specificity")
    if specificity < 0 or specificity > 1:
        raise ValueError("`specificity` must be in the range [0, 1]. Currently, "
                         f"`specificity` got {specificity}.")
    with vs.variable_scope(name, "sensitivity_at_specificity"):
        values, updates = _at_thresholds(labels, predictions, _thresholds_of(num_thresholds),
                                         weights)

        def at(tp, fn, tn, fp, name):
            # (the first threshold of the nearest specificity)
            i = cast_ops.cast(reduction_ops.argmin(
                math_ops.abs(_rate(tn, fp) - specificity), 0), _d.int32)
            return math_ops.divide(tp[i], tp[i] + fn[i] + 1e-7, name)
        return _both(metrics_collections, updates_collections, at,
                     [values[k] for k in _CONFUSION_KEYS], [updates[k] for k in _CONFUSION_KEYS])


@export("compat.v1.metrics.specificity_at_sensitivity")
def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None,
                               num_thresholds=200, metrics_collections=None,
                               updates_collections=None, name=None):
    """The specificity so far at the threshold whose sensitivity (recall) is nearest
    `sensitivity` (the last such threshold), among `num_thresholds` thresholds of
    `predictions` (in [0, 1])."""
    _graph_only("specificity_at_sensitivity")
    if sensitivity < 0 or sensitivity > 1:
        raise ValueError("`sensitivity` must be in the range [0, 1]. Currently, "
                         f"`sensitivity` is {sensitivity}.")
    with vs.variable_scope(name, "specificity_at_sensitivity"):
        values, updates = _at_thresholds(labels, predictions,
                                         _thresholds_of(num_thresholds, 1.0 - 1e-7), weights)

        def at(tp, fn, tn, fp, name):
            distance = math_ops.abs(_rate(tp, fn) - sensitivity)
            nearest = cast_ops.cast(math_ops.equal(
                distance, reduction_ops.reduce_min(distance)), _d.int64)
            # (the last threshold of the nearest sensitivity: the first of the running
            # count's maximum)
            i = cast_ops.cast(reduction_ops.argmax(reduction_ops.cumsum(nearest), 0), _d.int32)
            return math_ops.divide(tn[i], tn[i] + fp[i] + 1e-7, name)
        return _both(metrics_collections, updates_collections, at,
                     [values[k] for k in _CONFUSION_KEYS], [updates[k] for k in _CONFUSION_KEYS])


@export("compat.v1.metrics.mean_tensor")
def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None,
                name=None):
    """The element-wise (weighted) mean of all `values` so far, of `values`' shape."""
    _graph_only("mean_tensor")
    with vs.variable_scope(name, "mean"):
        values = cast_ops.cast(convert_to_tensor(values), _d.float32)
        total = _metric_variable(values.shape, _d.float32, "total_tensor")
        count = _metric_variable(values.shape, _d.float32, "count_tensor")
        num_values = array_ops.ones_like(values)
        if weights is not None:
            values, _, weights = _squeezed(values, None, weights)
            weights = cast_ops.cast(weights, _d.float32) * array_ops.ones_like(values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        return _running_mean(total, count, values, num_values, values, metrics_collections,
                             updates_collections)


@export("compat.v1.metrics.percentage_below")
def percentage_below(values, threshold, weights=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """The (weighted) fraction of `values` below `threshold` so far."""
    _graph_only("percentage_below")
    below = cast_ops.cast(math_ops.less(values, threshold), _d.float32)
    return mean(below, weights, metrics_collections, updates_collections,
                name or "percentage_below_threshold")


@export("compat.v1.metrics.mean_relative_error")
def mean_relative_error(labels, predictions, normalizer, weights=None,
                        metrics_collections=None, updates_collections=None, name=None):
    """The mean of ``|labels - predictions| / normalizer`` so far (0 where `normalizer`
    is 0)."""
    _graph_only("mean_relative_error")
    predictions, labels, weights = _squeezed(predictions, labels, weights)
    predictions, normalizer, _ = _squeezed(predictions, normalizer)
    predictions.shape.assert_is_compatible_with(normalizer.shape)
    errors_ = array_ops.where(math_ops.equal(normalizer, 0.0), array_ops.zeros_like(labels),
                              math_ops.divide(math_ops.abs(labels - predictions), normalizer))
    return mean(errors_, weights, metrics_collections, updates_collections,
                name or "mean_relative_error")


@export("compat.v1.metrics.mean_cosine_distance")
def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """1 minus the mean so far of the dot products of `labels` and `predictions` along
    `dim` (the cosine distance of unit vectors)."""
    _graph_only("mean_cosine_distance")
    predictions, labels, weights = _squeezed(predictions, labels, weights)
    radial = reduction_ops.reduce_sum(math_ops.multiply(predictions, labels), axis=[dim],
                                      keepdims=True)
    distance, update_op = mean(radial, weights, None, None, name or "mean_cosine_distance")
    value, update_op = math_ops.subtract(1.0, distance), math_ops.subtract(1.0, update_op)
    _collect(metrics_collections, value)
    _collect(updates_collections, update_op)
    return value, update_op


def _confusion(labels, predictions, num_classes, weights, dtype):
    """The batch's confusion matrix (rows: labels), every argument flattened first."""
    predictions, labels, weights = _squeezed(predictions, labels, weights)
    flat = [array_ops.reshape(t, [-1]) for t in (labels, predictions)]
    if weights is not None:
        weights = array_ops.reshape(
            cast_ops.cast(weights, dtype) * array_ops.ones_like(labels, dtype), [-1])
    return _confusion_matrix.confusion_matrix(*flat, num_classes, weights=weights, dtype=dtype)


@export("compat.v1.metrics.mean_iou")
def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """The mean over classes of the intersection over union (``true positives / (true
    positives + false positives + false negatives)``) so far, the classes neither labelled
    nor predicted left out; `update_op` adds the batch to the confusion matrix it keeps
    (float64, ``total_confusion_matrix``)."""
    _graph_only("mean_iou")
    with vs.variable_scope(name, "mean_iou"):
        total = _metric_variable([num_classes, num_classes], _d.float64,
                                 "total_confusion_matrix")
        update_op = vs.assign_add(total, _confusion(labels, predictions, num_classes,
                                                    weights, _d.float64))
        matrix = cast_ops.cast(total, _d.float32)
        hits = linalg_ops.diag_part(matrix)
        union = reduction_ops.reduce_sum(matrix, 0) + reduction_ops.reduce_sum(matrix, 1) - hits
        seen = reduction_ops.reduce_sum(cast_ops.cast(math_ops.not_equal(union, 0.0),
                                                      _d.float32))
        iou = math_ops.divide(hits, array_ops.where(math_ops.greater(union, 0.0), union,
                                                    array_ops.ones_like(union)))
        value = array_ops.where(math_ops.greater(seen, 0.0),
                                math_ops.divide(reduction_ops.reduce_sum(iou), seen), 0.0)
        _collect(metrics_collections, value)
        _collect(updates_collections, update_op)
        return value, update_op


@export("compat.v1.metrics.mean_per_class_accuracy")
def mean_per_class_accuracy(labels, predictions, num_classes, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
    """The mean over classes of the accuracy on each class's examples so far (0 for a class
    without any); `update_op` gives the accuracy of each class (float32 ``[num_classes]``)."""
    _graph_only("mean_per_class_accuracy")
    with vs.variable_scope(name, "mean_accuracy"):
        total = _metric_variable([num_classes], _d.float32, "total")
        count = _metric_variable([num_classes], _d.float32, "count")
        batch = _confusion(labels, predictions, num_classes, weights, _d.float32)
        update_total = vs.assign_add(total, reduction_ops.reduce_sum(batch, 1))
        update_count = vs.assign_add(count, linalg_ops.diag_part(batch))
        value = reduction_ops.reduce_mean(math_ops.divide_no_nan(count, total),
                                          name="mean_accuracy")
        update_op = math_ops.divide_no_nan(update_count, update_total, name="update_op")
        _collect(metrics_collections, value)
        _collect(updates_collections, update_op)
        return value, update_op
