"""TF 1's loss functions (``tf.compat.v1.losses``): each returns the weighted loss reduced
as `Reduction` says (by default the weighted sum over the number of nonzero weights) and,
in a graph, adds it to the ``losses`` collection.

>>> float(tf.compat.v1.losses.absolute_difference([[1.0], [2.0]], [[2.0], [4.0]],
...                                               weights=[[1.0], [0.0]]))
1.0
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.compat.graph_mode import GraphKeys
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.ops import array_ops, cast_ops, math_ops, nn_ops, reduction_ops


@export("compat.v1.losses.Reduction")
class Reduction:
    """How `compute_weighted_loss` reduces the weighted losses."""
    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE,
                cls.SUM_OVER_NONZERO_WEIGHTS, cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Key should be one of {cls.all()}.")


def _float(x):
    return cast_ops.cast(convert_to_tensor(x), _d.float32)


def _div_no_nan(total, count):
    return dispatch(math_ops._DIV_NO_NAN, (total, count), name="value")


def _num_present(losses, weights):
    """How many of `losses` have a nonzero weight."""
    if isinstance(weights, float) and weights != 0.0:
        return cast_ops.cast(array_ops.size(losses), losses.dtype)
    with graph_mode.name_scope(None, "num_present") as scope:
        present = array_ops.where(math_ops.equal(weights, 0.0), array_ops.zeros_like(weights),
                                  array_ops.ones_like(weights))
        present = present * array_ops.ones_like(losses)
        return reduction_ops.reduce_sum(present, name=scope.rstrip("/").rsplit("/", 1)[-1])


@export("compat.v1.losses.add_loss")
def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    """Adds `loss` to `loss_collection` (in a graph; eagerly nothing is collected)."""
    if loss_collection and graph_mode.v1_graph() is not None:
        graph_mode.add_to_collection(loss_collection, loss)


@export("compat.v1.losses.compute_weighted_loss")
def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``losses * weights`` (`weights` broadcast to `losses`), reduced by `reduction`."""
    Reduction.validate(reduction)
    with graph_mode.name_scope(scope, "weighted_loss"):
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype
        raw_weights = weights
        losses, weights = _float(losses), _float(weights)
        _check_broadcastable(weights, losses)
        weighted = math_ops.multiply(losses, weights)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = reduction_ops.reduce_sum(weighted)
            if reduction == Reduction.MEAN:
                loss = _div_no_nan(loss, reduction_ops.reduce_sum(
                    array_ops.ones_like(losses) * weights))
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = _div_no_nan(loss, _num_present(losses, raw_weights if isinstance(
                    raw_weights, float) else weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = _div_no_nan(loss, cast_ops.cast(array_ops.size(losses), losses.dtype))
        if input_dtype != _d.float32:
            loss = cast_ops.cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


def _check_broadcastable(weights, values):
    """TF 1's rule: `weights` is a scalar or has `values`' rank, each dim 1 or equal."""
    w, v = weights.shape, values.shape
    if w.rank is None or v.rank is None or w.rank == 0:
        return
    if w.rank != v.rank or any(a is not None and b is not None and a not in (1, b)
                               for a, b in zip(w.as_list(), v.as_list())):
        raise ValueError(f"weights can not be broadcast to values. values.rank={v.rank}. "
                         f"weights.rank={w.rank}. values.shape={v}. weights.shape={w}.")


def _pair(labels, predictions, first="labels", second="predictions"):
    """`labels` and `predictions` as float32 tensors of compatible shapes."""
    if labels is None:
        raise ValueError(f"Argument `{first}` must not be None.")
    if predictions is None:
        raise ValueError(f"Argument `{second}` must not be None.")
    predictions, labels = _float(predictions), _float(labels)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return labels, predictions


def _elementwise(default_name, fn, first="labels", second="predictions"):
    def loss(labels, predictions, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, **kwargs):
        with graph_mode.name_scope(scope, default_name) as scope:
            labels, predictions = _pair(labels, predictions, first, second)
            return compute_weighted_loss(fn(labels, predictions, **kwargs), weights, scope,
                                         loss_collection, reduction=reduction)
    return loss


@export("compat.v1.losses.absolute_difference")
def absolute_difference(labels, predictions, weights=1.0, scope=None,
                        loss_collection=GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """The weighted ``|predictions - labels|``."""
    return _elementwise("absolute_difference",
                        lambda y, p: math_ops.abs(math_ops.subtract(p, y)))(
        labels, predictions, weights, scope, loss_collection, reduction)


@export("compat.v1.losses.mean_squared_error")
def mean_squared_error(labels, predictions, weights=1.0, scope=None,
                       loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """The weighted ``(predictions - labels)^2``."""
    return _elementwise("mean_squared_error",
                        lambda y, p: math_ops.squared_difference(p, y))(
        labels, predictions, weights, scope, loss_collection, reduction)


@export("compat.v1.losses.log_loss")
def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None,
             loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """The weighted binary cross entropy of probabilities `predictions`."""
    def fn(y, p):
        return (-math_ops.multiply(y, math_ops.log(p + epsilon))
                - math_ops.multiply(1 - y, math_ops.log(1 - p + epsilon)))
    return _elementwise("log_loss", fn)(labels, predictions, weights, scope, loss_collection,
                                        reduction)


@export("compat.v1.losses.hinge_loss")
def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """The weighted ``max(0, 1 - (2 labels - 1) logits)`` of 0/1 `labels`."""
    def fn(y, z):
        ones = array_ops.ones_like(y)
        return nn_ops.relu(math_ops.subtract(ones, math_ops.multiply(
            math_ops.subtract(2 * y, ones), z)))
    return _elementwise("hinge_loss", fn, second="logits")(
        labels, logits, weights, scope, loss_collection, reduction)


@export("compat.v1.losses.huber_loss")
def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None,
               loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """The weighted Huber loss: quadratic within `delta` of the labels, linear beyond."""
    def fn(y, p):
        error = math_ops.abs(math_ops.subtract(p, y))
        quadratic = math_ops.minimum(error, delta)
        linear = math_ops.subtract(error, quadratic)
        return 0.5 * math_ops.multiply(quadratic, quadratic) + delta * linear
    return _elementwise("huber_loss", fn)(labels, predictions, weights, scope,
                                          loss_collection, reduction)


@export("compat.v1.losses.sigmoid_cross_entropy")
def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0,
                          scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """The weighted sigmoid cross entropy; `label_smoothing` moves labels towards 1/2."""
    def fn(y, z):
        if label_smoothing > 0:
            y = y * (1 - label_smoothing) + 0.5 * label_smoothing
        return nn_ops.sigmoid_cross_entropy_with_logits(labels=y, logits=z, name="xentropy")
    return _elementwise("sigmoid_cross_entropy_loss", fn, "multi_class_labels", "logits")(
        multi_class_labels, logits, weights, scope, loss_collection, reduction)


@export("compat.v1.losses.softmax_cross_entropy")
def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """The weighted softmax cross entropy of each example (`weights` per example);
    `label_smoothing` moves labels towards ``1 / num_classes``."""
    if onehot_labels is None:
        raise ValueError("Argument `onehot_labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with graph_mode.name_scope(scope, "softmax_cross_entropy_loss") as scope:
        logits = convert_to_tensor(logits)
        labels = cast_ops.cast(onehot_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(labels.shape)
        if label_smoothing > 0:
            classes = cast_ops.cast(array_ops.shape(labels)[-1], logits.dtype)
            labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
        labels = cast_ops.stop_gradient(labels, name="labels_stop_gradient")
        losses = nn_ops.softmax_cross_entropy_with_logits(labels, logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


@export("compat.v1.losses.sparse_softmax_cross_entropy")
def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None,
                                 loss_collection=GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """The weighted softmax cross entropy of class indices `labels` (a trailing axis of
    size 1 in `labels` or `weights` is dropped)."""
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    with graph_mode.name_scope(scope, "sparse_softmax_cross_entropy_loss") as scope:
        labels, logits = convert_to_tensor(labels), convert_to_tensor(logits)
        rank = logits.shape.rank
        if rank is not None and labels.shape.rank == rank and labels.shape[-1] == 1:
            labels = array_ops.squeeze(labels, [-1])
        weights = convert_to_tensor(weights)
        if rank is not None and weights.shape.rank == rank and weights.shape[-1] == 1:
            weights = array_ops.squeeze(weights, [-1])
        losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels, logits,
                                                                 name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection,
                                     reduction=reduction)


@export("compat.v1.losses.cosine_distance")
def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None,
                    loss_collection=GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """The weighted ``1 - sum(labels * predictions, axis)`` (both unit-normalized)."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    return _elementwise("cosine_distance_loss", lambda y, p: 1.0 - reduction_ops.reduce_sum(
        math_ops.multiply(p, y), axis=(axis,), keepdims=True))(
        labels, predictions, weights, scope, loss_collection, reduction)


@export("compat.v1.losses.mean_pairwise_squared_error")
def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None,
                                loss_collection=GraphKeys.LOSSES):
    """The weighted sum over the batch of the mean, over each example's pairs of elements,
    of ``((p_i - p_j) - (l_i - l_j)) ** 2`` (computed as TF does, from sums of the
    differences).

    >>> loss = tf.compat.v1.losses.mean_pairwise_squared_error([[0., 1., 3.]], [[1., 1., 1.]])
    >>> round(float(loss), 4)
    4.6667
    """
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if predictions is None:
        raise ValueError("Argument `predictions` must not be None.")
    with graph_mode.name_scope(scope, "mean_pairwise_squared_error"):
        weights = cast_ops.cast(convert_to_tensor(weights), _d.float32)
        labels = cast_ops.cast(convert_to_tensor(labels), _d.float32)
        predictions = cast_ops.cast(convert_to_tensor(predictions), _d.float32)
        predictions.shape.assert_is_compatible_with(labels.shape)
        _check_broadcastable(weights, labels)
        diffs = math_ops.subtract(predictions, labels)

        def per_example(x):
            return reduction_ops.reduce_sum(x, axis=array_ops.range(1, array_ops.rank(x)),
                                            keepdims=True)
        if (graph_mode.v1_graph() is None and weights.shape.rank == 0
                and bool(math_ops.not_equal(weights, 0.0))):
            # (TF eagerly counts every element for a nonzero scalar weight, not each
            # example's)
            present = cast_ops.cast(array_ops.size(diffs), _d.float32)
        else:
            present = per_example(array_ops.where(
                math_ops.equal(weights, 0.0), array_ops.zeros_like(weights),
                array_ops.ones_like(weights)) * array_ops.ones_like(diffs))
        term1 = 2.0 * math_ops.divide_no_nan(per_example(math_ops.square(diffs)),
                                             math_ops.maximum(present - 1, 0.0), name="value")
        term2 = 2.0 * math_ops.divide_no_nan(
            math_ops.square(per_example(diffs)),
            math_ops.maximum(math_ops.multiply(present, present - 1), 0.0), name="value")
        loss = reduction_ops.reduce_sum(math_ops.multiply(term1 - term2, weights))
        mean_loss = array_ops.where(reduction_ops.reduce_sum(present) > 0, loss,
                                    array_ops.zeros_like(loss), name="value")
        add_loss(mean_loss, loss_collection)
        return mean_loss


@export("compat.v1.losses.get_losses")
def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
    """The losses of `loss_collection` (whose names match `scope`)."""
    return graph_mode.get_collection(loss_collection, scope)


@export("compat.v1.losses.get_regularization_losses")
def get_regularization_losses(scope=None):
    return graph_mode.get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


@export("compat.v1.losses.get_regularization_loss")
def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses (0.0 when there are none)."""
    losses = get_regularization_losses(scope)
    if losses:
        return reduction_ops.add_n(losses, name=name)
    return convert_to_tensor(0.0)


@export("compat.v1.losses.get_total_loss")
def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of the collected losses (and regularization losses)."""
    losses = get_losses(scope)
    if add_regularization_losses:
        losses = losses + get_regularization_losses(scope)
    return reduction_ops.add_n(losses, name=name)
