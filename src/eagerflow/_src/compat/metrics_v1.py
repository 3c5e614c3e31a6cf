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
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
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
        update_total = vs.assign_add(total, reduction_ops.reduce_sum(values))
        with graph_mode.control_dependencies([values]):
            update_count = vs.assign_add(count, num_values)
        value = _div_no_nan(total, count, "value")
        update_op = _div_no_nan(update_total, update_count, "update_op")
        _collect(metrics_collections, value)
        _collect(updates_collections, update_op)
        return value, update_op


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


@export("compat.v1.metrics.auc")
def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
    """The area under the ROC (or PR) curve so far, by the trapezoidal rule over
    `num_thresholds` thresholds of `predictions` (in [0, 1])."""
    _graph_only("auc")
    if curve not in ("ROC", "PR"):
        raise ValueError(f'Curve must be either ROC or PR. Curve {curve} is unknown.')
    with vs.variable_scope(name, "auc"):
        if thresholds is not None:
            points = sorted(thresholds)
            kept = [0.0 - 1e-7, *points, 1.0 + 1e-7]
        else:
            kept = [0.0 - 1e-7] + [(i + 1) / (num_thresholds - 1)
                                   for i in range(num_thresholds - 2)] + [1.0 + 1e-7]
        n = len(kept)
        predictions, labels, weights = _squeezed(
            cast_ops.cast(convert_to_tensor(predictions), _d.float32),
            cast_ops.cast(convert_to_tensor(labels), _d.bool), weights)
        # (thresholds x examples) comparisons, as TF's `_confusion_matrix_at_thresholds`
        flat_p = array_ops.reshape(predictions, [1, -1])
        flat_l = array_ops.reshape(labels, [1, -1])
        above = math_ops.greater(flat_p, array_ops.reshape(
            convert_to_tensor(kept, _d.float32), [n, 1]))
        below = math_ops.logical_not(above)
        positive = flat_l
        negative = math_ops.logical_not(positive)
        w = None if weights is None else array_ops.reshape(
            cast_ops.cast(weights, _d.float32) * array_ops.ones_like(predictions), [1, -1])

        def counts(condition):
            c = cast_ops.cast(condition, _d.float32)
            return reduction_ops.reduce_sum(c if w is None else c * w, 1)
        names = (("true_positives", math_ops.logical_and(positive, above)),
                 ("false_negatives", math_ops.logical_and(positive, below)),
                 ("true_negatives", math_ops.logical_and(negative, below)),
                 ("false_positives", math_ops.logical_and(negative, above)))
        values, updates = [], []
        for var_name, condition in names:
            variable = _metric_variable([n], _d.float32, var_name)
            values.append(variable)
            updates.append(vs.assign_add(variable, counts(condition)))

        def area(tp, fn, tn, fp, name):
            epsilon = 1.0e-6
            rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + epsilon), rec
            else:
                x, y = rec, math_ops.divide(tp + epsilon, tp + fp + epsilon)
            return reduction_ops.reduce_sum(
                math_ops.multiply(x[:n - 1] - x[1:], (y[:n - 1] + y[1:]) / 2.0), name=name)
        value = area(*[cast_ops.identity(v) for v in values], "value")
        update_op = area(*updates, "update_op")
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
