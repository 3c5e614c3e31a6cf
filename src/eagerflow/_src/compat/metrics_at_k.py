"""TF 1's streaming metrics of the top `k` predicted classes (``tf.compat.v1.metrics``):
precision, recall and mean average precision at `k`, over labels that are class ids (a
`SparseTensor`, or a dense tensor with one id per row or padded with ids out of range).
The counts they keep are float64 local variables; values are float64.

>>> g = tf.compat.v1.Graph()
>>> with g.as_default():
...     labels = tf.constant([[3], [0]], tf.int64)
...     scores = tf.constant([[0.1, 0.2, 0.3, 0.9], [0.2, 0.5, 0.1, 0.0]])
...     p, update = tf.compat.v1.metrics.precision_at_k(labels, scores, k=1)
...     init = tf.compat.v1.local_variables_initializer()
>>> with tf.compat.v1.Session(graph=g) as sess:
...     _ = sess.run(init)
...     float(sess.run(update))
0.5
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat import variable_scope as vs
from eagerflow._src.compat.metrics_v1 import _collect, _graph_only, _metric_variable
from eagerflow._src.compat.v1_aliases import convert_to_tensor_or_sparse_tensor
from eagerflow._src.core import dtypes as _d
from eagerflow._src.ops import array_ops, cast_ops, math_ops, reduction_ops, set_ops, sparse_ops
from eagerflow._src.ops.sparse_tensor import SparseTensor

_F64 = _d.float64


def _at_k_name(name, k=None, class_id=None):
    name = f"{name}_at_k" if k is None else f"{name}_at_{k}"
    return name if class_id is None else f"{name}_class{class_id}"


def _expanded_labels(labels, predictions):
    """`labels` of one id per row given a last dimension of 1, to match `predictions`'
    rank."""
    labels = convert_to_tensor_or_sparse_tensor(labels)
    rank, want = labels.shape.rank, predictions.shape.rank
    if rank is None or want is None:
        raise ValueError(f"Unexpected labels shape {labels.shape} for predictions shape "
                         f"{predictions.shape}: the ranks of both must be known.")
    if want == rank:
        return labels
    if want == rank + 1:
        if isinstance(labels, SparseTensor):
            return sparse_ops.expand_dims(labels, -1)
        return array_ops.expand_dims(labels, -1)
    raise ValueError(f"Unexpected labels shape {labels.shape} for predictions shape "
                     f"{predictions.shape}. Predictions rank should be the same rank as "
                     f"labels rank or labels rank plus one .")


def _only_class(ids, class_id):
    """The entries of `ids` equal to `class_id` (once per row), as a SparseTensor."""
    if isinstance(ids, SparseTensor):
        return sparse_ops.retain(ids, math_ops.equal(ids.values, class_id))
    shape = array_ops.shape(ids, out_type=_d.int64)
    one_per_row = array_ops.fill(array_ops.concat([shape[:-1], [1]], 0),
                                 cast_ops.cast(class_id, _d.int64))
    kept = set_ops.set_intersection(one_per_row, ids)
    return SparseTensor(kept.indices, kept.values, shape)


def _weighted_count(set_of, labels, predictions_idx, class_id, weights):
    """The size of ``set_of(predictions_idx, labels)`` per row (float64), times `weights`."""
    if class_id is not None:
        labels, predictions_idx = (_only_class(labels, class_id),
                                   _only_class(predictions_idx, class_id))
    count = cast_ops.cast(set_ops.set_size(set_of(predictions_idx, labels)), _F64)
    if weights is not None:
        count = math_ops.multiply(count, cast_ops.cast(weights, _F64))
    return count


def _true_positives(labels, predictions_idx, class_id=None, weights=None):
    return _weighted_count(set_ops.set_intersection, labels, predictions_idx, class_id,
                           weights)


def _false_positives(labels, predictions_idx, class_id=None, weights=None):
    return _weighted_count(set_ops.set_difference, labels, predictions_idx, class_id,
                           weights)


def _false_negatives(labels, predictions_idx, class_id=None, weights=None):
    return _weighted_count(lambda p, lab: set_ops.set_difference(p, lab, aminusb=False),
                           labels, predictions_idx, class_id, weights)


def _streaming_count(counter, what, labels, predictions_idx, k, class_id, weights):
    """A float64 local variable named `what` at `k` (in the current name scope) and the op
    adding the batch's total of `counter` to it."""
    with graph_mode.name_scope(None, _at_k_name(what, k, class_id)) as scope:
        total = reduction_ops.reduce_sum(counter(labels, predictions_idx, class_id, weights))
        variable = _metric_variable([], _F64, scope)
        return variable, vs.assign_add(variable, total, name="update")


def _ratio_at_top_k(default, other, other_name, labels, predictions_idx, k, class_id, weights,
                    metrics_collections, updates_collections, name):
    """tp / (tp + other) so far of the top-k ids `predictions_idx` (nan before any)."""
    with graph_mode.name_scope(name, _at_k_name(default, k, class_id)) as scope:
        labels = _expanded_labels(labels, predictions_idx)
        top_k_idx = cast_ops.cast(predictions_idx, _d.int64)
        tp, tp_update = _streaming_count(_true_positives, "true_positive", labels, top_k_idx,
                                         k, class_id, weights)
        o, o_update = _streaming_count(other, other_name, labels, top_k_idx, k, class_id,
                                       weights)
        value = math_ops.divide(tp, math_ops.add(tp, o), name=scope)
        update_op = math_ops.divide(tp_update, math_ops.add(tp_update, o_update),
                                    name="update")
        _collect(metrics_collections, value)
        _collect(updates_collections, update_op)
        return value, update_op


@export("compat.v1.metrics.precision_at_top_k")
def precision_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                       metrics_collections=None, updates_collections=None, name=None):
    """The fraction of the top-k predicted class ids `predictions_idx` found among the
    labels so far (for `class_id` alone, when given)."""
    _graph_only("precision_at_top_k")
    return _ratio_at_top_k("precision", _false_positives, "false_positive", labels,
                           predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


@export("compat.v1.metrics.recall_at_top_k")
def recall_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                    metrics_collections=None, updates_collections=None, name=None):
    """The fraction of the labels found among the top-k predicted class ids
    `predictions_idx` so far (for `class_id` alone, when given)."""
    _graph_only("recall_at_top_k")
    return _ratio_at_top_k("recall", _false_negatives, "false_negative", labels,
                           predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


def _at_k(default, at_top_k, labels, predictions, k, class_id, weights, metrics_collections,
          updates_collections, name):
    with graph_mode.name_scope(name, _at_k_name(default, k, class_id)) as scope:
        top_k_idx = reduction_ops.top_k(predictions, k)[1]
        return at_top_k(labels, top_k_idx, k, class_id, weights, metrics_collections,
                        updates_collections, scope)


@export("compat.v1.metrics.precision_at_k")
def precision_at_k(labels, predictions, k, class_id=None, weights=None,
                   metrics_collections=None, updates_collections=None, name=None):
    """The fraction of the `k` classes of highest `predictions` found among the labels,
    so far (for `class_id` alone, when given)."""
    _graph_only("sparse_precision_at_k")
    return _at_k("precision", precision_at_top_k, labels, predictions, k, class_id, weights,
                 metrics_collections, updates_collections, name)


@export("compat.v1.metrics.sparse_precision_at_k")
def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None,
                          metrics_collections=None, updates_collections=None, name=None):
    """`precision_at_k` (deprecated name)."""
    return precision_at_k(labels, predictions, k, class_id, weights, metrics_collections,
                          updates_collections, name)


@export("compat.v1.metrics.recall_at_k")
def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """The fraction of the labels among the `k` classes of highest `predictions`, so far
    (for `class_id` alone, when given)."""
    _graph_only("recall_at_k")
    return _at_k("recall", recall_at_top_k, labels, predictions, k, class_id, weights,
                 metrics_collections, updates_collections, name)


def _tiled_labels(labels, k):
    """`labels` [D..., n] repeated `k` times along a new axis before the last: [D..., k, n]."""
    if isinstance(labels, SparseTensor):
        expanded = sparse_ops.expand_dims(labels, -2)
        return expanded if k == 1 else sparse_ops.concat(-2, [expanded] * k)
    expanded = array_ops.expand_dims(labels, -2)
    if k == 1:
        return expanded
    ones = array_ops.ones_like(array_ops.shape(labels))
    return array_ops.tile(expanded, array_ops.concat((ones[:-1], [k], ones[-1:]), 0))


def _relevant(labels, k):
    """The number of labels of each row (the ids >= 0 of a dense tensor), at most `k`."""
    if isinstance(labels, SparseTensor):
        return math_ops.minimum(set_ops.set_size(labels), k)
    found = reduction_ops.reduce_sum(array_ops.where(
        math_ops.greater_equal(labels, 0), array_ops.ones_like(labels),
        array_ops.zeros_like(labels)), axis=-1)
    return math_ops.minimum(found, cast_ops.cast(k, found.dtype))


def _average_precision(labels, predictions_idx):
    """The average precision of each row of the top ids `predictions_idx` (float64)."""
    predictions_idx = cast_ops.cast(predictions_idx, _d.int64)
    if predictions_idx.shape.rank == 0:
        raise ValueError("The rank of `predictions_idx` must be at least 1.")
    k = predictions_idx.shape[-1]
    if k is None:
        raise ValueError("The last dimension of predictions_idx must be set. Currently, it "
                         "is None.")
    labels = _expanded_labels(labels, predictions_idx)
    # is the i-th prediction a label? (a set of one id against the labels, k times)
    relevant = _true_positives(_tiled_labels(labels, k),
                               array_ops.expand_dims(predictions_idx, -1))
    precision = math_ops.divide(reduction_ops.cumsum(relevant, axis=-1),
                                reduction_ops.cumsum(array_ops.ones_like(relevant), axis=-1))
    total = reduction_ops.reduce_sum(math_ops.multiply(precision, relevant), axis=(-1,))
    return math_ops.divide(total, cast_ops.cast(_relevant(labels, k), _F64))


def _ids_in_range(labels, num_classes):
    """`labels` with the ids >= `num_classes` made -1 (ids of no class)."""
    def clean(values):
        return array_ops.where(math_ops.greater_equal(values, num_classes),
                               -1 * array_ops.ones_like(values), values)
    if isinstance(labels, SparseTensor):
        return SparseTensor(labels.indices, clean(labels.values), labels.dense_shape)
    return clean(labels)


@export("compat.v1.metrics.average_precision_at_k")
def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """The mean so far of the average precision at `k` of each row: the precision at each
    rank of the `k` highest `predictions` that hits a label, summed and divided by the
    number of labels (at most `k`); ids out of [0, num_classes) are no label."""
    _graph_only("sparse_average_precision_at_k")
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    with graph_mode.name_scope(name, _at_k_name("average_precision", k)) as scope:
        predictions = convert_to_tensor_or_sparse_tensor(predictions)
        top_k_idx = reduction_ops.top_k(predictions, k)[1]
        labels = convert_to_tensor_or_sparse_tensor(labels)
        labels = _ids_in_range(labels, cast_ops.cast(array_ops.shape(predictions)[-1],
                                                     _d.int64))
        average = _average_precision(labels, top_k_idx)
        if weights is not None:
            weights = cast_ops.cast(weights, _F64) * array_ops.ones_like(average)
            average = math_ops.multiply(average, weights)
        # (TF's scope is "max_1": its "max" meets the Max op of its range check)
        with graph_mode.name_scope(None, "max_1") as max_scope:
            count = _metric_variable([], _F64, max_scope)
            batch_count = (cast_ops.cast(array_ops.size(average), _F64) if weights is None
                           else reduction_ops.reduce_sum(weights))
            count_update = vs.assign_add(count, batch_count, name="update")
        with graph_mode.name_scope(None, "total") as total_scope:
            total = _metric_variable([], _F64, total_scope)
            total_update = vs.assign_add(total, reduction_ops.reduce_sum(average),
                                         name="update")
        value = math_ops.divide_no_nan(total, count, name="mean")
        update_op = math_ops.divide_no_nan(total_update, count_update, name=scope)
        _collect(metrics_collections, value)
        _collect(updates_collections, update_op)
        return value, update_op


@export("compat.v1.metrics.sparse_average_precision_at_k")
def sparse_average_precision_at_k(labels, predictions, k, weights=None,
                                  metrics_collections=None, updates_collections=None,
                                  name=None):
    """`average_precision_at_k` (deprecated name)."""
    return average_precision_at_k(labels, predictions, k, weights, metrics_collections,
                                  updates_collections, name)
