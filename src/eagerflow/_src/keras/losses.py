"""Keras 2 losses (``tf.keras.losses``): `Loss` classes, the functions they wrap, and
`get`/`serialize`/`deserialize`.

A loss function maps ``(y_true, y_pred)`` to one loss per sample (the last axis reduced).
Every built-in class is a `LossFunctionWrapper` around one of them, and `Loss.__call__`
weighs and reduces those per-sample losses in one place, `compute_weighted_loss`.

>>> tf.keras.losses.MeanSquaredError()([[0., 1.], [0., 0.]], [[1., 1.], [1., 0.]])
<tf.Tensor: shape=(), dtype=float32, numpy=0.5>
"""
import functools
import warnings

import numpy as np

from eagerflow._src.autograph import conversion
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, distribution_context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor, is_tensor
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_spec import TensorSpec
from eagerflow._src.graph import control_flow, functional_ops
from eagerflow._src.graph.graph import SymbolicTensor
from eagerflow._src.keras import backend, late
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import array_ops, debugging_ops, math_ops, nn_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.wrappers import as_tensor
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec

# log(2) as Keras computes it (a float32 constant), so that float64 losses match too.
_LOG_2 = float(np.float32(np.log(2.0)))


@export("keras.losses.Reduction")
class Reduction:
    """How a `Loss` reduces its weighted per-sample losses.

    ``AUTO`` is ``SUM_OVER_BATCH_SIZE`` outside distribution strategies; ``NONE`` keeps
    them; ``SUM`` adds them up; ``SUM_OVER_BATCH_SIZE`` divides that sum by their number.

    >>> tf.keras.losses.Reduction.validate("sum")
    >>> tf.keras.losses.Reduction.all()
    ('auto', 'none', 'sum', 'sum_over_batch_size')
    """

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


# ----------------------------------------------------------------------------- masks

def set_mask(tensor, mask):
    """Attaches boolean `mask` to `tensor` (``tensor._keras_mask``): masked losses weigh 0."""
    tensor._keras_mask = mask


def get_mask(tensor):
    """The mask attached to `tensor` by `set_mask` (or a Keras layer), else None."""
    return getattr(tensor, "_keras_mask", None)


# ----------------------------------------------------------------------------- weighting

def _match_rank(tensor, rank):
    """`tensor` with its last axis squeezed or added when its rank is one off `rank`.

    Scalars and unknown ranks are left alone.
    """
    own = tensor.shape.rank
    if not own or rank is None:
        return tensor
    if own == rank + 1:
        return array_ops.squeeze(tensor, [-1])
    if own == rank - 1:
        return array_ops.expand_dims(tensor, -1)
    return tensor


def weights_like(sample_weight, values):
    """`sample_weight` with its last axis squeezed or added when its rank is one off the
    rank of `values` (see `_match_rank`). As Keras, where either rank is unknown until the
    graph runs (a step traced for batches of several ranks), that is decided then: the
    weights ``(batch,)`` of losses ``(batch, steps)`` must not broadcast along the steps.
    """
    own, rank = sample_weight.shape.rank, values.shape.rank
    if own == 0 or own is not None and rank is not None:
        return _match_rank(sample_weight, rank)
    own = array_ops.rank(sample_weight)
    diff = own - array_ops.rank(values)

    def matched():
        return control_flow.cond(
            math_ops.equal(diff, 1), lambda: array_ops.squeeze(sample_weight, [-1]),
            lambda: control_flow.cond(math_ops.equal(diff, -1),
                                      lambda: array_ops.expand_dims(sample_weight, -1),
                                      lambda: sample_weight))
    return control_flow.cond(math_ops.equal(own, 0), lambda: sample_weight, matched)


def _squeeze_pair(y_true, y_pred):
    """Drops a trailing axis of length 1 that one of `y_true`, `y_pred` has beyond the other.

    A `y_pred` with one more axis than `y_true` is squeezed only when that axis is known to
    have length 1: it may hold class scores for sparse labels.
    """
    true_shape, pred_shape = y_true.shape, y_pred.shape
    true_rank, pred_rank = true_shape.rank, pred_shape.rank
    if true_rank is None or pred_rank is None:
        return y_true, y_pred
    if pred_rank == true_rank + 1 and pred_shape[-1] == 1:
        return y_true, array_ops.squeeze(y_pred, [-1])
    if true_rank == pred_rank + 1 and true_shape[-1] in (1, None):
        return array_ops.squeeze(y_true, [-1]), y_pred
    return y_true, y_pred


def _reduce(losses, reduction):
    if reduction == Reduction.NONE:
        return losses
    if reduction == Reduction.SUM:
        return reduction_ops.reduce_sum(losses)
    count = losses.shape.num_elements()
    if count is None:
        size = cast(array_ops.size(losses), losses.dtype)
        return math_ops.divide_no_nan(reduction_ops.reduce_sum(losses), size)
    # the mean is the sum over the count; an empty batch costs 0, not NaN
    return reduction_ops.reduce_mean(losses) if count else reduction_ops.reduce_sum(losses)


def compute_weighted_loss(losses, sample_weight=None, reduction=Reduction.SUM_OVER_BATCH_SIZE):
    """`losses` times `sample_weight`, reduced as `reduction` says.

    A weight of rank one less (or more) than `losses` gets its last axis added (or
    squeezed); integer losses are reduced as float32 and cast back.

    >>> compute_weighted_loss(tf.constant([1.0, 3.0]), [1.0, 0.0])
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """
    Reduction.validate(reduction)
    if reduction == Reduction.AUTO:
        reduction = Reduction.SUM_OVER_BATCH_SIZE
    if not isinstance(losses, RaggedTensor):  # (a ragged one is reduced over its values)
        losses = as_tensor(losses)
    input_dtype = losses.dtype
    if not input_dtype.is_floating:
        losses = cast(losses, _d.float32)
    if sample_weight is not None:
        sample_weight = weights_like(cast(sample_weight, losses.dtype), losses)
        losses = math_ops.multiply(losses, sample_weight)
    return cast(_reduce(losses, reduction), input_dtype)


def _masked_weights(losses, sample_weight, mask, reduction):
    """`sample_weight` zeroed where `mask` is False; under SUM_OVER_BATCH_SIZE the others
    grow so that the mean runs over the unmasked entries only."""
    mask = cast(mask, losses.dtype)
    if reduction == Reduction.SUM_OVER_BATCH_SIZE:
        total = cast(array_ops.size(mask), losses.dtype)
        mask = math_ops.multiply(mask, math_ops.truediv(total, reduction_ops.reduce_sum(mask)))
    if sample_weight is None:
        return mask
    sample_weight = weights_like(cast(sample_weight, mask.dtype), mask)
    return math_ops.multiply(sample_weight, mask)


# ----------------------------------------------------------------------------- base classes

@export("keras.losses.Loss")
class Loss:
    """Base class of losses: subclasses implement ``call(y_true, y_pred)``, returning one
    loss per sample; calling the loss weighs and reduces them.

    >>> class MeanError(tf.keras.losses.Loss):
    ...     def call(self, y_true, y_pred):
    ...         return tf.reduce_mean(y_pred - y_true, axis=-1)
    >>> MeanError()(tf.constant([[0.0, 1.0]]), tf.constant([[1.0, 3.0]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1.5>
    """

    def __init__(self, reduction=Reduction.AUTO, name=None):
        Reduction.validate(reduction)
        self.reduction = reduction
        self.name = name

    def __call__(self, y_true, y_pred, sample_weight=None):
        """The weighted, reduced loss of `y_pred` against `y_true`.

        `sample_weight` scales the losses: a scalar scales all, shape ``[batch]`` each
        sample, and a shape matching the per-sample losses each of them.
        """
        if context.executing_eagerly():
            return self._weighted(self.call(y_true, y_pred), y_pred, sample_weight)
        with context.name_scope(self._scope_name()):
            # the user's `call` gets AutoGraph, as the function calling the loss does
            losses = conversion.convert(self.call)(y_true, y_pred)
            return self._weighted(losses, y_pred, sample_weight)

    def _weighted(self, losses, y_pred, sample_weight):
        reduction = self._get_reduction()
        in_mask, out_mask = get_mask(y_pred), get_mask(losses)
        mask = in_mask if out_mask is None else out_mask
        if in_mask is not None and out_mask is not None:
            mask = math_ops.logical_and(in_mask, out_mask)
        if mask is not None:
            sample_weight = _masked_weights(losses, sample_weight, mask, reduction)
        return compute_weighted_loss(losses, sample_weight, reduction)

    _allow_sum_over_batch_size = False  # (set for the losses `compile` is given)

    def _get_reduction(self):
        if not self._allow_sum_over_batch_size and distribution_context.current_strategy() \
                is not None and self.reduction in (Reduction.AUTO,
                                                   Reduction.SUM_OVER_BATCH_SIZE):
            raise ValueError(
                "Please use `tf.keras.losses.Reduction.SUM` or `tf.keras.losses.Reduction."
                "NONE` for loss reduction when losses are used with `tf.distribute.Strategy`, "
                "except for specifying losses in `Model.compile()` for use by the built-in "
                "training looop `Model.fit()`.\nA custom training loop sums the per-example "
                "losses itself (`tf.nn.compute_average_loss`).")
        if self.reduction == Reduction.AUTO:
            return Reduction.SUM_OVER_BATCH_SIZE
        return self.reduction

    def _scope_name(self):
        if self.name is None:
            return type(self).__name__.strip("_")
        return "lambda" if self.name == "<lambda>" else self.name.strip("_")

    def call(self, y_true, y_pred):
        """The loss of each sample: `y_pred`'s shape less its last axis."""
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A `Loss` computing ``fn(y_true, y_pred, **kwargs)``.

    >>> LossFunctionWrapper(tf.keras.losses.mean_absolute_error, name="mae")([[1.0]], [[3.0]])
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """

    def __init__(self, fn, reduction=Reduction.AUTO, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        if is_tensor(y_pred) and is_tensor(y_true):
            y_true, y_pred = _squeeze_pair(y_true, y_pred)
        fn = self.fn if context.executing_eagerly() else conversion.convert(self.fn)
        return fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        for key, value in self._fn_kwargs.items():
            config[key] = backend.get_value(value) if is_tensor(value) else value
        config["fn"] = serialization.get_registered_name(self.fn)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        fn = config.pop("fn", None)
        if fn and cls is LossFunctionWrapper:
            config["fn"] = get(fn)
        return cls(**config)


# ----------------------------------------------------------------------------- helpers

def assert_splits_match(nested_splits_lists):
    """Checks that ragged tensors (by their `nested_row_splits`) share one row partition:
    a ValueError for different ragged ranks, else assertions (which, in a graph, run in
    order)."""
    message = "Inputs must have identical ragged splits"
    first = nested_splits_lists[0]
    if any(len(splits) != len(first) for splits in nested_splits_lists):
        raise ValueError(f"{message}. Input received: {nested_splits_lists}")
    for splits in nested_splits_lists[1:]:
        for a, b in zip(first, splits):
            debugging_ops.assert_equal(a, b, message=message)


def _ragged_loss(loss_fn, y_true, y_pred, y_pred_extra_dim=False, **kwargs):
    """`loss_fn` (with `kwargs`) of a ragged `y_pred`, as TF Keras computes it: with a ragged
    `y_true`, row by row, the rows' losses stacked (a ragged tensor when each row's loss is a
    vector); a dense `y_true` meets `y_pred` padded. With `y_pred_extra_dim`, `y_pred` has
    one more axis (class scores), which may be ragged."""
    loss_fn = functools.partial(loss_fn, **kwargs)
    if not isinstance(y_true, RaggedTensor):
        return loss_fn(y_true, y_pred.to_tensor())
    inner = y_pred.shape.as_list()[1:-1]
    spec = RaggedTensorSpec(inner, y_pred.dtype) if inner else TensorSpec([], y_pred.dtype)
    true_splits, pred_splits = y_true.nested_row_splits, y_pred.nested_row_splits
    if y_pred_extra_dim and len(true_splits) == len(pred_splits) - 1:
        pred_splits = pred_splits[:-1]  # (the class axis: ragged or not)
    assert_splits_match([true_splits, pred_splits])

    def row_loss(row):
        loss = loss_fn(*row)
        if len(inner) > 1 and not isinstance(loss, RaggedTensor):
            return RaggedTensor.from_tensor(loss)
        return loss.to_tensor() if len(inner) <= 1 and isinstance(loss, RaggedTensor) \
            else loss

    return functional_ops.map_fn(row_loss, (y_true, y_pred), fn_output_signature=spec)


def _inputs(y_true, y_pred):
    """(`y_true` cast to y_pred's dtype, `y_pred` as a tensor). The conversion is the public
    function's, as Keras calls it: a ragged `y_pred` (of a loss with no ragged version)
    raises TF's error, a Keras tensor makes the conversion a layer."""
    y_pred = convert_to_tensor(y_pred)
    return cast(y_true, y_pred.dtype), y_pred


def _mean(x, axis=-1):
    return reduction_ops.reduce_mean(x, axis)


def _check_axis(axis):
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")


def _smooth(y_true, label_smoothing, axis=None):
    """`y_true` moved by `label_smoothing` toward the uniform distribution over its classes:
    those along `axis`, or two (binary labels) when `axis` is None."""
    if not isinstance(label_smoothing, Tensor) and not label_smoothing:
        return y_true
    smoothing = as_tensor(label_smoothing, y_true.dtype)
    classes = 2.0 if axis is None else y_true.shape[axis]
    if classes is None:
        classes = cast(array_ops.shape(y_true)[axis], y_true.dtype)
    return math_ops.add(math_ops.multiply(y_true, math_ops.subtract(1.0, smoothing)),
                        math_ops.truediv(smoothing, classes))


def _warn_one_class(y_pred, fn_name):
    if y_pred.shape.rank and y_pred.shape[-1] == 1:
        warnings.warn(f"In loss {fn_name}, expected y_pred.shape to be (batch_size, "
                      f"num_classes) with num_classes > 1. Received: y_pred.shape="
                      f"{y_pred.shape}. Consider using 'binary_crossentropy' if you only "
                      f"have 2 classes.", SyntaxWarning, stacklevel=3)


def _logits(output, from_logits, op_type, fn_name):
    """(logits, True) when `output` is a softmax's or sigmoid's result, else unchanged.

    Crossentropies of such outputs are computed from the logits, which is exact where
    clipped probabilities are not: `activations.softmax`/`sigmoid` attach their input as
    ``_keras_logits``, and in graphs the producing op tells.
    """
    logits = getattr(output, "_keras_logits", None)
    # (not a layer's symbolic output in a model being built: the op's input is no layer's
    # output, and tf_keras sees a placeholder there)
    if logits is None and isinstance(output, SymbolicTensor) and output.op.type == op_type \
            and not _layer_output_being_built(output) and _over_last_axis(output):
        logits = output.op.inputs[0]
    if logits is None:
        return output, from_logits
    if from_logits:
        warnings.warn(f'"`{fn_name}` received `from_logits=True`, but the `output` argument '
                      f"was produced by a {op_type} activation and thus does not represent "
                      f"logits. Was this intended?", stacklevel=3)
    return logits, True


def _layer_output_being_built(output):
    """Whether `output` is a layer's `KerasTensor` in a model being built (not a TF 1
    graph's tensor, whose producing op tf_keras does look at)."""
    return isinstance(output, late.engine.keras_tensor.KerasTensor) and \
        "_keras_history" in vars(output)


def _over_last_axis(output):
    """Whether the op making `output` works along its last axis (a sigmoid has no axis)."""
    axis, rank = output.op.attrs.get("axis", -1), output.shape.rank
    return axis == -1 or (rank is not None and axis == rank - 1)


def _clipped(probs):
    """`probs` clipped to [epsilon, 1 - epsilon], so that their logs stay finite."""
    eps = as_tensor(backend.epsilon(), probs.dtype)
    return reduction_ops.clip_by_value(probs, eps, math_ops.subtract(1.0, eps))


def _binary_crossentropy(target, output, from_logits):
    output, from_logits = _logits(output, from_logits, "Sigmoid", "binary_crossentropy")
    if from_logits:
        return nn_ops.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = _clipped(output)
    eps = backend.epsilon()
    positive = math_ops.multiply(target, math_ops.log(math_ops.add(output, eps)))
    negative = math_ops.multiply(math_ops.subtract(1.0, target),
                                 math_ops.log(math_ops.add(math_ops.subtract(1.0, output), eps)))
    return math_ops.negative(math_ops.add(positive, negative))


def _maybe_signed_labels(y_true):
    """Labels of 0s and 1s as -1s and 1s; other labels as they are."""
    is_binary = reduction_ops.reduce_all(math_ops.logical_or(math_ops.equal(y_true, 0.0),
                                                             math_ops.equal(y_true, 1.0)))
    return array_ops.where(is_binary, math_ops.subtract(math_ops.multiply(2.0, y_true), 1.0),
                           y_true)


# ----------------------------------------------------------------------------- loss functions

@export("keras.losses.mean_squared_error", "keras.metrics.mean_squared_error", "keras.losses.MSE",
        "keras.losses.mse", "keras.metrics.MSE", "keras.metrics.mse")
def mean_squared_error(y_true, y_pred):
    """mean((y_true - y_pred) ** 2) over the last axis.

    >>> tf.keras.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(mean_squared_error, y_true, y_pred)
    y_true, y_pred = _inputs(y_true, y_pred)
    return _mean(math_ops.squared_difference(y_pred, y_true))


@export("keras.losses.mean_absolute_error", "keras.metrics.mean_absolute_error", "keras.losses.MAE",
        "keras.losses.mae", "keras.metrics.MAE", "keras.metrics.mae")
def mean_absolute_error(y_true, y_pred):
    """mean(|y_true - y_pred|) over the last axis.

    >>> tf.keras.losses.mean_absolute_error([[0.0, 1.0]], [[1.0, 3.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.5], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(mean_absolute_error, y_true, y_pred)
    y_true, y_pred = _inputs(y_true, y_pred)
    return _mean(math_ops.abs(math_ops.subtract(y_pred, y_true)))


@export("keras.losses.mean_absolute_percentage_error",
        "keras.metrics.mean_absolute_percentage_error", "keras.losses.MAPE", "keras.losses.mape",
        "keras.metrics.MAPE", "keras.metrics.mape")
def mean_absolute_percentage_error(y_true, y_pred):
    """100 * mean(|(y_true - y_pred) / y_true|) over the last axis (|y_true| >= epsilon).

    >>> tf.keras.losses.mean_absolute_percentage_error([[2.0, 4.0]], [[1.0, 4.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([25.], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(mean_absolute_percentage_error, y_true, y_pred)
    y_true, y_pred = _inputs(y_true, y_pred)
    denominator = math_ops.maximum(math_ops.abs(y_true), backend.epsilon())
    diff = math_ops.abs(math_ops.truediv(math_ops.subtract(y_true, y_pred), denominator))
    return math_ops.multiply(100.0, _mean(diff))


@export("keras.losses.mean_squared_logarithmic_error",
        "keras.metrics.mean_squared_logarithmic_error", "keras.losses.MSLE", "keras.losses.msle",
        "keras.metrics.MSLE", "keras.metrics.msle")
def mean_squared_logarithmic_error(y_true, y_pred):
    """mean((log(y_pred + 1) - log(y_true + 1)) ** 2) over the last axis (values >= epsilon).

    >>> tf.keras.losses.mean_squared_logarithmic_error([[0.0, 1.0]], [[1.0, 1.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.24022643], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(mean_squared_logarithmic_error, y_true, y_pred)
    y_true, y_pred = _inputs(y_true, y_pred)
    eps = backend.epsilon()
    first = math_ops.log(math_ops.add(math_ops.maximum(y_pred, eps), 1.0))
    second = math_ops.log(math_ops.add(math_ops.maximum(y_true, eps), 1.0))
    return _mean(math_ops.squared_difference(first, second))


@export("keras.losses.squared_hinge", "keras.metrics.squared_hinge")
def squared_hinge(y_true, y_pred):
    """mean(max(1 - y_true * y_pred, 0) ** 2) over the last axis; 0/1 labels become -1/1.

    >>> tf.keras.losses.squared_hinge([[1.0, 0.0]], [[0.5, -2.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.125], dtype=float32)>
    """
    y_true, y_pred = _inputs(y_true, y_pred)
    y_true = _maybe_signed_labels(y_true)
    margin = math_ops.maximum(math_ops.subtract(1.0, math_ops.multiply(y_true, y_pred)), 0.0)
    return _mean(math_ops.square(margin))


@export("keras.losses.hinge", "keras.metrics.hinge")
def hinge(y_true, y_pred):
    """mean(max(1 - y_true * y_pred, 0)) over the last axis; 0/1 labels become -1/1.

    >>> tf.keras.losses.hinge([[1.0, 0.0]], [[0.5, -2.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.25], dtype=float32)>
    """
    y_true, y_pred = _inputs(y_true, y_pred)
    y_true = _maybe_signed_labels(y_true)
    return _mean(math_ops.maximum(math_ops.subtract(1.0, math_ops.multiply(y_true, y_pred)),
                                  0.0))


@export("keras.losses.categorical_hinge")
def categorical_hinge(y_true, y_pred):
    """max(neg - pos + 1, 0): pos the score of the true class, neg the best other score.

    >>> tf.keras.losses.categorical_hinge([[0.0, 1.0]], [[0.3, 0.6]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.7], dtype=float32)>
    """
    y_true, y_pred = _inputs(y_true, y_pred)
    pos = reduction_ops.reduce_sum(math_ops.multiply(y_true, y_pred), axis=-1)
    neg = reduction_ops.reduce_max(
        math_ops.multiply(math_ops.subtract(1.0, y_true), y_pred), axis=-1)
    return math_ops.maximum(math_ops.add(math_ops.subtract(neg, pos), 1.0),
                            as_tensor(0.0, y_pred.dtype))


@export("keras.losses.huber")
def huber(y_true, y_pred, delta=1.0):
    """mean of x**2 / 2 where |x| <= delta, else delta * |x| - delta**2 / 2, for x the error.

    Computed in `floatx()`.

    >>> tf.keras.losses.huber([[0.0, 0.0]], [[0.5, 3.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.3125], dtype=float32)>
    """
    y_pred = cast(y_pred, backend.floatx())
    y_true = cast(y_true, backend.floatx())
    delta = cast(delta, backend.floatx())
    error = math_ops.subtract(y_pred, y_true)
    abs_error = math_ops.abs(error)
    half = as_tensor(0.5, abs_error.dtype)
    quadratic = math_ops.multiply(half, math_ops.square(error))
    linear = math_ops.subtract(math_ops.multiply(delta, abs_error),
                               math_ops.multiply(half, math_ops.square(delta)))
    return _mean(array_ops.where(math_ops.less_equal(abs_error, delta), quadratic, linear))


@export("keras.losses.log_cosh", "keras.metrics.log_cosh", "keras.losses.logcosh",
        "keras.metrics.logcosh")
def log_cosh(y_true, y_pred):
    """mean(log(cosh(y_pred - y_true))) over the last axis, without overflow.

    >>> tf.keras.losses.log_cosh([[0.0]], [[1.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.4337808], dtype=float32)>
    """
    y_true, y_pred = _inputs(y_true, y_pred)
    x = math_ops.subtract(y_pred, y_true)
    # log(cosh(x)) = x + log(1 + exp(-2x)) - log(2)
    value = math_ops.subtract(math_ops.add(x, math_ops.softplus(math_ops.multiply(-2.0, x))),
                              _LOG_2)
    return _mean(value)


@export("keras.losses.categorical_crossentropy", "keras.metrics.categorical_crossentropy")
def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-sum(y_true * log(y_pred)) along `axis`, `y_pred` being probabilities or logits.

    Probabilities are normalized to sum to 1 and clipped to [epsilon, 1 - epsilon].

    >>> tf.keras.losses.categorical_crossentropy([[0, 1, 0], [0, 0, 1]],
    ...                                          [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.05129331, 2.3025851 ], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(categorical_crossentropy, y_true, y_pred, from_logits=from_logits,
                            label_smoothing=label_smoothing, axis=axis)
    _check_axis(axis)
    y_true, y_pred = _inputs(y_true, y_pred)
    _warn_one_class(y_pred, "categorical_crossentropy")
    y_true = _smooth(y_true, label_smoothing, axis)
    y_true.shape.assert_is_compatible_with(y_pred.shape)
    y_pred, from_logits = _logits(y_pred, from_logits, "Softmax", "categorical_crossentropy")
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    y_pred = math_ops.truediv(y_pred, reduction_ops.reduce_sum(y_pred, axis, keepdims=True))
    log_probs = math_ops.log(_clipped(y_pred))
    return math_ops.negative(reduction_ops.reduce_sum(math_ops.multiply(y_true, log_probs), axis))


@export("keras.losses.categorical_focal_crossentropy",
        "keras.metrics.categorical_focal_crossentropy")
def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """Categorical crossentropy with each class's term scaled by alpha * (1 - p) ** gamma.

    >>> tf.keras.losses.categorical_focal_crossentropy([[0, 1, 0]], [[0.05, 0.9, 0.05]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.0002634], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(categorical_focal_crossentropy, y_true, y_pred, alpha=alpha,
                            gamma=gamma, from_logits=from_logits,
                            label_smoothing=label_smoothing, axis=axis)
    _check_axis(axis)
    y_true, y_pred = _inputs(y_true, y_pred)
    _warn_one_class(y_pred, "categorical_focal_crossentropy")
    y_true = _smooth(y_true, label_smoothing, -1)
    y_true.shape.assert_is_compatible_with(y_pred.shape)
    y_pred, from_logits = _logits(y_pred, from_logits, "Softmax",
                                  "categorical_focal_crossentropy")
    if from_logits:
        y_pred = nn_ops.softmax(y_pred, axis=axis)
    y_pred = math_ops.truediv(y_pred, reduction_ops.reduce_sum(y_pred, axis, keepdims=True))
    y_pred = _clipped(y_pred)
    cce = math_ops.multiply(math_ops.negative(y_true), math_ops.log(y_pred))
    weight = math_ops.multiply(math_ops.pow(math_ops.subtract(1.0, y_pred), gamma), alpha)
    return reduction_ops.reduce_sum(math_ops.multiply(weight, cce), axis)


@export("keras.losses.sparse_categorical_crossentropy",
        "keras.metrics.sparse_categorical_crossentropy")
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1,
                                    ignore_class=None):
    """-log(y_pred[y_true]) for integer class labels `y_true` and class scores along `axis`.

    Labels equal to `ignore_class` cost 0 and are masked out of the mean.

    >>> tf.keras.losses.sparse_categorical_crossentropy([1, 2], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.05129344, 2.3025851 ], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(sparse_categorical_crossentropy, y_true, y_pred,
                            y_pred_extra_dim=True, from_logits=from_logits, axis=axis,
                            ignore_class=ignore_class)
    target, output = as_tensor(y_true), as_tensor(y_pred)
    if target.dtype not in (_d.int32, _d.int64):
        target = cast(target, _d.int64)
    output, from_logits = _logits(output, from_logits, "Softmax",
                                  "sparse_categorical_crossentropy")
    if not from_logits:
        output = math_ops.log(_clipped(output))
    rank = output.shape.rank
    if rank is not None:
        axis %= rank
        if axis != rank - 1:
            output = array_ops.transpose(output, [*range(axis), *range(axis + 1, rank), axis])
    elif axis != -1:
        raise ValueError(f"Cannot compute sparse categorical crossentropy with `axis={axis}` "
                         f"on an output tensor with unknown rank")
    target_rank = target.shape.rank
    # labels of any other rank are read as one label per row of class scores
    flattened = None not in (rank, target_rank) and target_rank != rank - 1
    if flattened or ignore_class is not None:
        batch_shape = _leading_shape(output)
    if flattened:
        classes = output.shape[-1]
        target = array_ops.reshape(target, [-1])
        output = array_ops.reshape(output, [-1, array_ops.shape(output)[-1]
                                            if classes is None else classes])
    if ignore_class is None:
        losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
        return array_ops.reshape(losses, batch_shape) if flattened and rank >= 3 else losses
    valid = math_ops.not_equal(target, cast(ignore_class, target.dtype))
    # ignored labels may lie outside the classes: score them as class 0, then zero them
    target = array_ops.where(valid, target, array_ops.zeros_like(target))
    losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    losses = array_ops.where(valid, losses, array_ops.zeros_like(losses))
    losses = array_ops.reshape(losses, batch_shape)
    set_mask(losses, array_ops.reshape(valid, batch_shape))
    return losses


def _leading_shape(output):
    """`output`'s shape less its last axis: a list when static, else a tensor."""
    leading = output.shape[:-1]
    if leading.is_fully_defined():
        return leading.as_list()
    return array_ops.shape(output)[:-1]


@export("keras.losses.binary_crossentropy", "keras.metrics.binary_crossentropy")
def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """mean(-y_true * log(y_pred) - (1 - y_true) * log(1 - y_pred)) along `axis`.

    >>> tf.keras.losses.binary_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.9162905 , 0.71355796], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(binary_crossentropy, y_true, y_pred, from_logits=from_logits,
                            label_smoothing=label_smoothing, axis=axis)
    y_true, y_pred = _inputs(y_true, y_pred)
    y_true = _smooth(y_true, label_smoothing)
    return _mean(_binary_crossentropy(y_true, y_pred, from_logits), axis)


@export("keras.losses.binary_focal_crossentropy", "keras.metrics.binary_focal_crossentropy")
def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary crossentropy scaled by (1 - p_t) ** gamma, p_t the probability of the truth.

    With `apply_class_balancing`, positives are also scaled by `alpha` and negatives by
    ``1 - alpha``.

    >>> tf.keras.losses.binary_focal_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]],
    ...                                           gamma=2)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.3298646 , 0.20579833], dtype=float32)>
    """
    if isinstance(y_pred, RaggedTensor):
        return _ragged_loss(binary_focal_crossentropy, y_true, y_pred,
                            apply_class_balancing=apply_class_balancing, alpha=alpha,
                            gamma=gamma, from_logits=from_logits,
                            label_smoothing=label_smoothing, axis=axis)
    y_true, y_pred = _inputs(y_true, y_pred)
    y_true = _smooth(y_true, label_smoothing)
    probs = math_ops.sigmoid(y_pred) if from_logits else y_pred
    not_true = math_ops.subtract(1.0, y_true)
    p_t = math_ops.add(math_ops.multiply(y_true, probs),
                       math_ops.multiply(not_true, math_ops.subtract(1.0, probs)))
    focal = math_ops.multiply(math_ops.pow(math_ops.subtract(1.0, p_t), gamma),
                              _binary_crossentropy(y_true, y_pred, from_logits))
    if apply_class_balancing:
        weight = math_ops.add(math_ops.multiply(y_true, alpha),
                              math_ops.multiply(not_true, 1.0 - alpha))
        focal = math_ops.multiply(weight, focal)
    return _mean(focal, axis)


@export("keras.losses.kl_divergence", "keras.metrics.kl_divergence", "keras.losses.KLD",
        "keras.losses.kld", "keras.losses.kullback_leibler_divergence", "keras.metrics.KLD",
        "keras.metrics.kld", "keras.metrics.kullback_leibler_divergence")
def kl_divergence(y_true, y_pred):
    """sum(y_true * log(y_true / y_pred)) over the last axis, both clipped to [epsilon, 1].

    >>> tf.keras.losses.kl_divergence([[0.0, 1.0]], [[0.5, 0.5]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.69314563], dtype=float32)>
    """
    y_true, y_pred = _inputs(y_true, y_pred)
    y_true = reduction_ops.clip_by_value(y_true, backend.epsilon(), 1.0)
    y_pred = reduction_ops.clip_by_value(y_pred, backend.epsilon(), 1.0)
    return reduction_ops.reduce_sum(
        math_ops.multiply(y_true, math_ops.log(math_ops.truediv(y_true, y_pred))), axis=-1)


@export("keras.losses.poisson", "keras.metrics.poisson")
def poisson(y_true, y_pred):
    """mean(y_pred - y_true * log(y_pred + epsilon)) over the last axis.

    >>> tf.keras.losses.poisson([[1.0]], [[1.0]])
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.9999999], dtype=float32)>
    """
    y_true, y_pred = _inputs(y_true, y_pred)
    log_pred = math_ops.log(math_ops.add(y_pred, backend.epsilon()))
    return _mean(math_ops.subtract(y_pred, math_ops.multiply(y_true, log_pred)))


@export("keras.losses.cosine_similarity", "compat.v1.keras.losses.cosine",
        "compat.v1.keras.losses.cosine_proximity", "compat.v1.keras.metrics.cosine",
        "compat.v1.keras.metrics.cosine_proximity")
def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine of the angle between `y_true` and `y_pred` along `axis`.

    >>> tf.keras.losses.cosine_similarity([[0., 1.], [1., 1.]], [[1., 0.], [1., 1.]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.        , -0.99999994], dtype=float32)>
    """
    y_true = reduction_ops.l2_normalize(y_true, axis=axis)
    y_pred = reduction_ops.l2_normalize(y_pred, axis=axis)
    return math_ops.negative(reduction_ops.reduce_sum(math_ops.multiply(y_true, y_pred),
                                                      axis=axis))


bce = BCE = binary_crossentropy
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh
huber_loss = huber


# ----------------------------------------------------------------------------- loss classes

@export("keras.losses.MeanSquaredError")
class MeanSquaredError(LossFunctionWrapper):
    """The mean of squared errors (`mean_squared_error`).

    >>> mse = tf.keras.losses.MeanSquaredError()
    >>> print(mse([[0., 1.], [0., 0.]], [[1., 1.], [1., 0.]], sample_weight=[0.7, 0.3]))
    tf.Tensor(0.25, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="mean_squared_error"):
        super().__init__(mean_squared_error, name=name, reduction=reduction)


@export("keras.losses.MeanAbsoluteError")
class MeanAbsoluteError(LossFunctionWrapper):
    """The mean of absolute errors (`mean_absolute_error`).

    >>> print(tf.keras.losses.MeanAbsoluteError(reduction="sum")([[0., 1.], [0., 0.]],
    ...                                                          [[1., 1.], [1., 0.]]))
    tf.Tensor(1.0, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="mean_absolute_error"):
        super().__init__(mean_absolute_error, name=name, reduction=reduction)


@export("keras.losses.MeanAbsolutePercentageError")
class MeanAbsolutePercentageError(LossFunctionWrapper):
    """The mean of absolute errors relative to the truth, in percent.

    >>> print(tf.keras.losses.MeanAbsolutePercentageError()([[2., 1.], [2., 3.]],
    ...                                                     [[1., 1.], [1., 0.]]))
    tf.Tensor(50.0, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="mean_absolute_percentage_error"):
        super().__init__(mean_absolute_percentage_error, name=name, reduction=reduction)


@export("keras.losses.MeanSquaredLogarithmicError")
class MeanSquaredLogarithmicError(LossFunctionWrapper):
    """The mean of squared differences of log(1 + value).

    >>> print(tf.keras.losses.MeanSquaredLogarithmicError()([[0., 1.], [0., 0.]],
    ...                                                     [[1., 1.], [1., 0.]]))
    tf.Tensor(0.24022643, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="mean_squared_logarithmic_error"):
        super().__init__(mean_squared_logarithmic_error, name=name, reduction=reduction)


@export("keras.losses.BinaryCrossentropy")
class BinaryCrossentropy(LossFunctionWrapper):
    """Crossentropy of independent binary labels (`binary_crossentropy`).

    >>> print(tf.keras.losses.BinaryCrossentropy(from_logits=True)([0, 1, 0, 0],
    ...                                                            [-18.6, 0.51, 2.94, -12.8]))
    tf.Tensor(0.865458, shape=(), dtype=float32)
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="binary_crossentropy"):
        super().__init__(binary_crossentropy, name=name, reduction=reduction,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits


@export("keras.losses.BinaryFocalCrossentropy")
class BinaryFocalCrossentropy(LossFunctionWrapper):
    """Binary crossentropy focused on hard examples (`binary_focal_crossentropy`).

    >>> print(tf.keras.losses.BinaryFocalCrossentropy(gamma=2, from_logits=True)([0, 1, 0, 0],
    ...                                                    [-18.6, 0.51, 2.94, -12.8]))
    tf.Tensor(0.6912122, shape=(), dtype=float32)
    """

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                 label_smoothing=0.0, axis=-1, reduction=Reduction.AUTO,
                 name="binary_focal_crossentropy"):
        super().__init__(binary_focal_crossentropy, apply_class_balancing=apply_class_balancing,
                         alpha=alpha, gamma=gamma, name=name, reduction=reduction,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.apply_class_balancing = apply_class_balancing
        self.alpha = alpha
        self.gamma = gamma


@export("keras.losses.CategoricalCrossentropy")
class CategoricalCrossentropy(LossFunctionWrapper):
    """Crossentropy of one-hot (or soft) labels (`categorical_crossentropy`).

    >>> print(tf.keras.losses.CategoricalCrossentropy()([[0, 1, 0], [0, 0, 1]],
    ...                                                 [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]))
    tf.Tensor(1.1769392, shape=(), dtype=float32)
    """

    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="categorical_crossentropy"):
        super().__init__(categorical_crossentropy, name=name, reduction=reduction,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


@export("keras.losses.CategoricalFocalCrossentropy")
class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """Categorical crossentropy focused on hard examples (`categorical_focal_crossentropy`).

    >>> print(tf.keras.losses.CategoricalFocalCrossentropy()([[0., 1., 0.], [0., 0., 1.]],
    ...                                [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]))
    tf.Tensor(0.23315276, shape=(), dtype=float32)
    """

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="categorical_focal_crossentropy"):
        super().__init__(categorical_focal_crossentropy, alpha=alpha, gamma=gamma, name=name,
                         reduction=reduction, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.alpha = alpha
        self.gamma = gamma


@export("keras.losses.SparseCategoricalCrossentropy")
class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Crossentropy of integer class labels (`sparse_categorical_crossentropy`).

    >>> print(tf.keras.losses.SparseCategoricalCrossentropy()([1, 2],
    ...                                                       [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]))
    tf.Tensor(1.1769392, shape=(), dtype=float32)
    """

    def __init__(self, from_logits=False, ignore_class=None, reduction=Reduction.AUTO,
                 name="sparse_categorical_crossentropy"):
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction,
                         from_logits=from_logits, ignore_class=ignore_class)


@export("keras.losses.CosineSimilarity")
class CosineSimilarity(LossFunctionWrapper):
    """Minus the cosine similarity of labels and predictions (`cosine_similarity`).

    >>> print(tf.keras.losses.CosineSimilarity(axis=1)([[0., 1.], [1., 1.]], [[1., 0.], [1., 1.]]))
    tf.Tensor(-0.49999997, shape=(), dtype=float32)
    """

    def __init__(self, axis=-1, reduction=Reduction.AUTO, name="cosine_similarity"):
        super().__init__(cosine_similarity, reduction=reduction, name=name, axis=axis)


@export("keras.losses.Hinge")
class Hinge(LossFunctionWrapper):
    """The hinge loss (`hinge`).

    >>> print(tf.keras.losses.Hinge()([[0., 1.], [0., 0.]], [[0.6, 0.4], [0.4, 0.6]]))
    tf.Tensor(1.3, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="hinge"):
        super().__init__(hinge, name=name, reduction=reduction)


@export("keras.losses.SquaredHinge")
class SquaredHinge(LossFunctionWrapper):
    """The squared hinge loss (`squared_hinge`).

    >>> print(tf.keras.losses.SquaredHinge()([[0., 1.], [0., 0.]], [[0.6, 0.4], [0.4, 0.6]]))
    tf.Tensor(1.86, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="squared_hinge"):
        super().__init__(squared_hinge, name=name, reduction=reduction)


@export("keras.losses.CategoricalHinge")
class CategoricalHinge(LossFunctionWrapper):
    """The categorical hinge loss (`categorical_hinge`).

    >>> print(tf.keras.losses.CategoricalHinge()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]]))
    tf.Tensor(1.4000001, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="categorical_hinge"):
        super().__init__(categorical_hinge, name=name, reduction=reduction)


@export("keras.losses.Poisson")
class Poisson(LossFunctionWrapper):
    """The Poisson loss (`poisson`).

    >>> print(tf.keras.losses.Poisson()([[0., 1.], [0., 0.]], [[1., 1.], [0., 0.]]))
    tf.Tensor(0.49999997, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="poisson"):
        super().__init__(poisson, name=name, reduction=reduction)


@export("keras.losses.LogCosh")
class LogCosh(LossFunctionWrapper):
    """The mean log of the hyperbolic cosine of the error (`log_cosh`).

    >>> print(tf.keras.losses.LogCosh()([[0., 1.], [0., 0.]], [[1., 1.], [0., 0.]]))
    tf.Tensor(0.1084452, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="log_cosh"):
        super().__init__(log_cosh, name=name, reduction=reduction)


@export("keras.losses.KLDivergence")
class KLDivergence(LossFunctionWrapper):
    """The Kullback-Leibler divergence of predictions from labels (`kl_divergence`).

    >>> print(tf.keras.losses.KLDivergence()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]]))
    tf.Tensor(0.45814306, shape=(), dtype=float32)
    """

    def __init__(self, reduction=Reduction.AUTO, name="kl_divergence"):
        super().__init__(kl_divergence, name=name, reduction=reduction)


@export("keras.losses.Huber")
class Huber(LossFunctionWrapper):
    """The Huber loss: squared near 0, linear beyond `delta` (`huber`).

    >>> print(tf.keras.losses.Huber()([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]]))
    tf.Tensor(0.155, shape=(), dtype=float32)
    """

    def __init__(self, delta=1.0, reduction=Reduction.AUTO, name="huber_loss"):
        super().__init__(huber, name=name, reduction=reduction, delta=delta)


# ----------------------------------------------------------------------------- identifiers

@export("keras.losses.serialize")
def serialize(loss, use_legacy_format=False):
    """A loss as a config dict (a function as its name).

    >>> tf.keras.losses.serialize(tf.keras.losses.MeanSquaredError())["config"]
    {'reduction': 'auto', 'name': 'mean_squared_error', 'fn': 'mean_squared_error'}
    """
    return _IDENTIFIERS.serialize(loss, use_legacy_format)


@export("keras.losses.deserialize")
def deserialize(name, custom_objects=None, use_legacy_format=False):
    """The loss a name or config dict describes (classes are instantiated); both formats
    are read alike.

    >>> tf.keras.losses.deserialize("mse").__name__
    'mean_squared_error'
    """
    return _IDENTIFIERS.deserialize(name, custom_objects)


@export("keras.losses.get")
def get(identifier):
    """A loss from a name, a config dict or a callable; None stays None.

    >>> tf.keras.losses.get("CategoricalCrossentropy").name
    'categorical_crossentropy'
    """
    return _IDENTIFIERS.get(identifier)


_NOT_LOSSES = {"Reduction", "compute_weighted_loss", "get_mask", "set_mask", "serialize",
               "deserialize", "get"}
_MODULE_OBJECTS = {name: obj for name, obj in globals().items()
                   if not name.startswith("_") and name not in _NOT_LOSSES and callable(obj)
                   and getattr(obj, "__module__", None) == __name__}
_IDENTIFIERS = serialization.Identifiers("loss function", _MODULE_OBJECTS, Loss, "keras.losses")
