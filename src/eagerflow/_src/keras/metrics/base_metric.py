"""`Metric`, the base of ``tf.keras.metrics``, and the reductions built on it: `Sum`, `Mean`,
`MeanMetricWrapper` (the mean of a per-sample function) and `MeanTensor`.

A metric is a `Layer` whose state lives in non-trainable variables: `update_state` adds a
batch to them with ``assign_add`` (eagerly or inside a traced function), `result` reads
them, `reset_state` zeroes them.

>>> m = tf.keras.metrics.Mean()
>>> m.update_state([1.0, 3.0])
<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=2.0>
>>> m([5.0, 7.0])
<tf.Tensor: shape=(), dtype=float32, numpy=4.0>
"""
import abc
import enum
import functools
import warnings

import numpy as np

from eagerflow._src.autograph import conversion
from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import context, distribution_context, nest
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable, VariableAggregation, VariableSynchronization
from eagerflow._src.keras import backend, losses
from eagerflow._src.keras.engine import base_layer
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast, identity
from eagerflow._src.ragged.ragged_tensor import RaggedTensor


@export("keras.metrics.Metric")
class Metric(base_layer.Layer, metaclass=abc.ABCMeta):
    """Base class of metrics: subclasses create their state with `add_weight` and implement
    `update_state` and `result`.

    >>> class Total(tf.keras.metrics.Metric):
    ...     def __init__(self, name="total", **kwargs):
    ...         super().__init__(name=name, **kwargs)
    ...         self.total = self.add_weight("total", initializer="zeros")
    ...     def update_state(self, values):
    ...         self.total.assign_add(tf.reduce_sum(tf.cast(values, self.dtype)))
    ...     def result(self):
    ...         return self.total
    >>> Total()([1, 2, 3])  # eagerflow returns the variable itself  # doctest: +SKIP
    <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
    """

    _saved_model_identifier = None  # (saved as a plain object, as ever)

    _TRACKED_AS_LAYER = False  # a model's metrics are not its sub-layers

    def __init__(self, name=None, dtype=None, **kwargs):
        # (a metric's values are floatx without a dtype, even under TF 1's dtype behaviour)
        super().__init__(name=name, dtype=dtype or backend.floatx(), **kwargs)
        self.stateful = True
        self.built = True
        self._value_dtype = _dtypes.as_dtype(self.dtype)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        method = cls.__dict__.get("result")
        if callable(method) and not getattr(method, "_across_replicas", False):
            cls.result = _result_across_replicas(method)
        # Keras converts a user's `update_state` and `result` with AutoGraph when they run in
        # a graph, even when library code (a model's train step) calls them.
        if cls.__module__.split(".")[0] != "eagerflow":
            for name, to_result in (("update_state", False), ("result", True)):
                method = cls.__dict__.get(name)
                if callable(method) and not getattr(method, "_graph_converted", False):
                    setattr(cls, name, _converted_in_graphs(method, to_result))
        method = cls.__dict__.get("update_state")  # (converted first, for a user's)
        if callable(method) and not getattr(method, "_grouped", False):
            cls.update_state = _grouped_in_v1_graphs(method)

    def __call__(self, *args, **kwargs):
        """Updates the state with the arguments of `update_state` and returns `result()`."""
        graph = context.get().graph
        if graph is None or not hasattr(graph, "control_dependencies"):
            self.update_state(*args, **kwargs)  # (a function orders its stateful ops itself)
            return self._marked(self.result())
        # A TF 1 graph runs only what a fetch needs: the result waits for the update's writes.
        first = len(graph.get_operations())
        self.update_state(*args, **kwargs)
        updates = [op for op in graph.get_operations()[first:] if op.stateful]
        with graph.control_dependencies(updates):
            return self._marked(nest.map_structure(identity, self.result()))

    def _marked(self, result):
        """`result`, remembering this metric: `Layer.add_metric` then tracks the metric
        itself, already updated, as Keras does."""
        for tensor in nest.flatten(result):
            try:
                tensor._metric_obj = self
            except AttributeError:
                pass
        return result

    def __str__(self):
        args = ",".join(f"{k}={v}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"

    def __deepcopy__(self, memo=None):
        try:
            new = self.from_config(self.get_config())
        except NotImplementedError as e:
            raise NotImplementedError(
                f"Calling `__deepcopy__()` on a TF-Keras metric requires the metric to be "
                f"serializable,  i.e. it should implement `get_config()`.\n\nError "
                f"encountered during serialization: [{e}]") from e
        if self.weights:
            new.set_weights(self.get_weights())
        if memo is not None:
            memo[id(self)] = new
        return new

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @abc.abstractmethod
    def update_state(self, *args, **kwargs):
        """Adds a batch to the state."""
        raise NotImplementedError("Must be implemented in subclasses.")

    @abc.abstractmethod
    def result(self):
        """The metric's value from the current state (a tensor or a dict of tensors)."""
        raise NotImplementedError("Must be implemented in subclasses.")

    def reset_state(self):
        """Sets every state variable to zero."""
        if type(self).reset_states is not Metric.reset_states:
            warnings.warn(f"Metric {type(self).__name__} implements a `reset_states()` method; "
                          f"rename it to `reset_state()` (without the final \"s\"). The name "
                          f"`reset_states()` has been deprecated to improve API consistency.",
                          stacklevel=2)
            return self.reset_states()
        for v in self.variables:
            v.assign(np.zeros(v.shape.as_list(), v.dtype.as_numpy_dtype))
        return None

    def reset_states(self):
        """Deprecated name of `reset_state`."""
        return self.reset_state()

    def merge_state(self, metrics):
        """Adds the states of `metrics` (metrics of the same kind) to this one's.

        >>> a, b = tf.keras.metrics.Sum(), tf.keras.metrics.Sum()
        >>> _ = a.update_state(1.0), b.update_state(2.0)
        >>> _ = a.merge_state([b])
        >>> a.result()
        <tf.Tensor: shape=(), dtype=float32, numpy=3.0>
        """
        own = self.weights
        for metric in metrics:
            if len(own) != len(metric.weights):
                raise ValueError(f"Metric {metric} is not compatible with {self}")
        return [w.assign_add(other) for metric in metrics for w, other in
                zip(own, metric.weights)]

    def add_weight(self, name, shape=(), aggregation=VariableAggregation.SUM,
                   synchronization=VariableSynchronization.ON_READ, initializer=None,
                   dtype=None):
        """A non-trainable state variable of the metric's dtype."""
        return backend.out_of_collections(super().add_weight(
            name=name, shape=shape, dtype=self.dtype if dtype is None else dtype,
            trainable=False, initializer=initializer, synchronization=synchronization,
            aggregation=aggregation))


def _result_across_replicas(method):
    """`result` computed once for all replicas when they run in sync (Keras under a
    strategy of several): from every replica's state, not the calling replica's own."""

    @functools.wraps(method)
    def result(self):
        replica = distribution_context.synced_replica()
        if replica is None:
            return method(self)
        return replica.merge_call(lambda strategy: method(self))

    result._across_replicas = True
    return result


def _grouped_in_v1_graphs(method):
    """`update_state` that, called while a TF 1 graph is built, returns one operation running
    all its updates, as Keras's does (a session runs only what a fetch needs: returning the
    last update alone, a `Mean` fetched for it counted its values but never summed them)."""

    @functools.wraps(method)
    def update_state(self, *args, **kwargs):
        graph = graph_mode.v1_graph()
        if graph is None:
            return method(self, *args, **kwargs)
        first = len(graph.get_operations())
        method(self, *args, **kwargs)
        return graph_mode.group(*[op for op in graph.get_operations()[first:] if op.stateful])

    update_state._grouped = True
    return update_state


def _converted_in_graphs(method, to_result):
    """`method` run through AutoGraph while tracing; results become tensors as Keras's do."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        fn = method if context.executing_eagerly() else conversion.convert(method)
        out = fn(self, *args, **kwargs)
        return _result_tensors(self, out) if to_result else out

    wrapper._graph_converted = True
    return wrapper


def _result_tensors(metric, value):
    if isinstance(value, dict):
        return {k: identity(v) for k, v in value.items()}
    try:
        return identity(value)
    except (ValueError, TypeError) as e:
        raise RuntimeError(f"The output of `metric.result()` can only be a single "
                           f"Tensor/Variable, or a dict of Tensors/Variables. For metric "
                           f"{metric.name}, got result {value}.") from e


# ----------------------------------------------------------------------------- weighting

def check_2d_shapes(metric_name, y_true_shape, y_pred_shape):
    """Raises Keras's ValueError unless both shapes are (batch_size, known output_dim)."""
    if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
        raise ValueError(f"{metric_name} expects 2D inputs with shape (batch_size, "
                         f"output_dim). Received input shapes: y_pred.shape="
                         f"{y_pred_shape} and y_true.shape={y_true_shape}.")
    if y_pred_shape[-1] is None or y_true_shape[-1] is None:
        raise ValueError(f"{metric_name} expects 2D inputs with shape (batch_size, "
                         f"output_dim), with output_dim fully defined (not None). "
                         f"Received input shapes: y_pred.shape={y_pred_shape} and "
                         f"y_true.shape={y_true_shape}.")


def broadcast_weights(weights, values):
    """`weights` broadcast to the shape of `values`; a ValueError when Keras would refuse
    (weights must be a scalar or have the same rank, each axis 1 or matching)."""
    w_shape, v_shape = weights.shape, values.shape
    if w_shape.rank == 0:
        return math_ops.multiply(weights, array_ops.ones_like(values))
    if w_shape.is_fully_defined() and v_shape.is_fully_defined() and w_shape == v_shape:
        return weights
    if w_shape.rank is not None and v_shape.rank is not None:
        if w_shape.rank != v_shape.rank:
            raise ValueError(f"weights can not be broadcast to values. values.rank="
                             f"{v_shape.rank}. weights.rank={w_shape.rank}. values.shape="
                             f"{v_shape}. weights.shape={w_shape}.")
        for w, v in zip(w_shape.as_list(), v_shape.as_list()):
            if w not in (1, None) and v is not None and w != v:
                raise ValueError(f"weights can not be broadcast to values. values.shape="
                                 f"{v_shape}. weights.shape={w_shape}.")
    return math_ops.multiply(weights, array_ops.ones_like(values))


def weigh(values, sample_weight, reduce_extra_axes=reduction_ops.reduce_mean):
    """(`values` times the weights, the weights as broadcast), as Keras weighs metric values.

    Weights of rank one less (or more) than `values` get an axis added (or squeezed); weights
    of lower rank still weigh `values` reduced over their extra trailing axes.
    """
    sample_weight = losses.weights_like(cast(sample_weight, values.dtype), values)
    try:
        sample_weight = broadcast_weights(sample_weight, values)
    except ValueError:
        extra = list(range(sample_weight.shape.rank, values.shape.rank))
        values = reduce_extra_axes(values, axis=extra)
    return math_ops.multiply(values, sample_weight), sample_weight


def apply_mask(values, sample_weight, mask):
    """`sample_weight` zeroed where `mask` (Keras's ``_keras_mask`` of `values`) is False."""
    if mask is None:
        return sample_weight
    mask = cast(mask, values.dtype)
    if sample_weight is None:
        return mask
    sample_weight = losses.weights_like(cast(sample_weight, mask.dtype), mask)
    return math_ops.multiply(sample_weight, mask)


def ragged_flat_values(values, mask=None):
    """The list `values` (and a `mask` or sample weight) as a metric takes them: ragged ones,
    all of one row partition, become their flat values with a last axis of 1 added (a
    ragged `mask` too); dense ones stay as they are. Mixing ragged and dense is a TypeError.
    """
    ragged = [isinstance(v, RaggedTensor) for v in values]
    if all(ragged) and (mask is None or isinstance(mask, RaggedTensor)):
        splits = [v.nested_row_splits for v in values]
        losses.assert_splits_match(splits)
        if isinstance(mask, RaggedTensor):
            losses.assert_splits_match([splits[0], mask.nested_row_splits])
            mask = array_ops.expand_dims(mask.flat_values, -1)
        values = [array_ops.expand_dims(v.flat_values, -1) for v in values]
    elif any(ragged):
        raise TypeError(f"Some of the inputs are not tf.RaggedTensor. Input received: "
                        f"{values}")
    elif isinstance(mask, RaggedTensor):
        raise TypeError(f"Ragged mask is not allowed with non-ragged inputs. Input received: "
                        f"{values}, mask received: {mask}")
    return values, mask


# ----------------------------------------------------------------------------- reductions

class Reduction(enum.Enum):
    """How `Reduce` combines values: their sum, their weighted mean, or the weighted sum over
    their number."""

    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"
    WEIGHTED_MEAN = "weighted_mean"


class Reduce(Metric):
    """Reduces all the values it is given to one number (see `Reduction`).

    >>> Reduce(Reduction.SUM, name="s")([1.0, 2.0])
    <tf.Tensor: shape=(), dtype=float32, numpy=3.0>
    """

    def __init__(self, reduction, name, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.reduction = Reduction(reduction)
        self.total = self.add_weight("total", initializer="zeros")
        if self.reduction is not Reduction.SUM:
            self.count = self.add_weight("count", initializer="zeros")

    def update_state(self, values, sample_weight=None):
        """Adds `values` (weighted by `sample_weight`, broadcastable to them) to the state."""
        [values], sample_weight = ragged_flat_values([values], sample_weight)
        try:
            values = cast(values, self._value_dtype)
        except (ValueError, TypeError) as e:
            message = (f"The output of a metric function can only be a single Tensor. "
                       f"Received: {values}. ")
            if isinstance(values, dict):
                message += "To return a dict of values, implement a custom Metric subclass."
            raise RuntimeError(message) from e
        if sample_weight is not None:
            values, sample_weight = weigh(
                values, sample_weight, reduction_ops.reduce_sum
                if self.reduction is Reduction.SUM else reduction_ops.reduce_mean)
        total = self.total.assign_add(reduction_ops.reduce_sum(values))
        if self.reduction is Reduction.SUM:
            return total
        if sample_weight is not None and self.reduction is Reduction.WEIGHTED_MEAN:
            return self.count.assign_add(reduction_ops.reduce_sum(sample_weight))
        count = values.shape.num_elements()
        if count is None:
            count = cast(array_ops.size(values), self._value_dtype)
        return self.count.assign_add(count)

    def result(self):
        if self.reduction is Reduction.SUM:
            return self.total.value()
        return math_ops.divide_no_nan(self.total, self.count)


@export("keras.metrics.Sum")
class Sum(Reduce):
    """The (weighted) sum of the values.

    >>> tf.keras.metrics.Sum()([1, 3, 5, 7])
    <tf.Tensor: shape=(), dtype=float32, numpy=16.0>
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(Reduction.SUM, name=name, dtype=dtype)


@export("keras.metrics.Mean")
class Mean(Reduce):
    """The (weighted) mean of the values: ``sum(w * x) / sum(w)``.

    >>> tf.keras.metrics.Mean()([1, 3, 5, 7], sample_weight=[1, 1, 0, 0])
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(Reduction.WEIGHTED_MEAN, name=name, dtype=dtype)


@export("keras.metrics.MeanMetricWrapper")
class MeanMetricWrapper(Mean):
    """The mean of ``fn(y_true, y_pred, **kwargs)``, one value per sample.

    >>> m = tf.keras.metrics.MeanMetricWrapper(lambda t, p: abs(t - p), name="mean_error")
    >>> m([1.0, 2.0], [2.0, 4.0])
    <tf.Tensor: shape=(), dtype=float32, numpy=1.5>
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the values of ``fn(y_true, y_pred)`` weighted by `sample_weight`."""
        y_true = cast(y_true, self._value_dtype)
        y_pred = cast(y_pred, self._value_dtype)
        [y_true, y_pred], sample_weight = ragged_flat_values([y_true, y_pred], sample_weight)
        y_true, y_pred = losses._squeeze_pair(y_true, y_pred)
        fn = self._fn if context.executing_eagerly() else conversion.convert(self._fn)
        matches = fn(y_true, y_pred, **self._fn_kwargs)
        sample_weight = apply_mask(matches, sample_weight, losses.get_mask(matches))
        return super().update_state(matches, sample_weight=sample_weight)

    def get_config(self):
        config = {k: v.numpy() if isinstance(v, (Tensor, Variable)) else v
                  for k, v in self._fn_kwargs.items()}
        if type(self) is MeanMetricWrapper:
            # the function itself, as in Keras (`serialize` writes it as a function's config,
            # which `from_config` resolves with `get`)
            config["fn"] = self._fn
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        fn = config.pop("fn", None)
        if cls is MeanMetricWrapper:
            from eagerflow._src.keras.metrics import get  # noqa: PLC0415 (the package imports this)
            return cls(get(fn), **config)
        return cls(**config)


@export("keras.metrics.MeanTensor")
class MeanTensor(Metric):
    """The element-wise (weighted) mean of tensors of one shape.

    >>> m = tf.keras.metrics.MeanTensor()
    >>> _ = m.update_state([0, 1, 2, 3]), m.update_state([4, 5, 6, 7])
    >>> m.result()
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([2., 3., 4., 5.], dtype=float32)>
    """

    def __init__(self, name="mean_tensor", dtype=None, shape=None):
        super().__init__(name=name, dtype=dtype)
        self._shape = None
        self._total = None
        self._count = None
        if shape is not None:
            self._build(shape)

    def _build(self, shape):
        self._shape = TensorShape(shape)
        self._build_input_shape = self._shape
        self._total = self.add_weight("total", shape=shape, initializer="zeros")
        self._count = self.add_weight("count", shape=shape, initializer="zeros")

    @property
    def total(self):
        return self._total

    @property
    def count(self):
        return self._count

    def update_state(self, values, sample_weight=None):
        """Adds `values` (always of the first call's shape) weighted by `sample_weight`."""
        values = cast(values, self._value_dtype)
        if self._shape is None:
            self._build(values.shape)
        elif values.shape != self._shape:
            raise ValueError(f"MeanTensor input values must always have the same shape. "
                             f"Expected shape (set during the first call): {self._shape}. "
                             f"Got: {values.shape}.")
        num_values = array_ops.ones_like(values)
        if sample_weight is not None:
            values, sample_weight = weigh(values, sample_weight)
            num_values = math_ops.multiply(num_values, sample_weight)
        self._total.assign_add(values)
        return self._count.assign_add(num_values)

    def result(self):
        if self._shape is None:
            raise ValueError("MeanTensor does not have any value yet. Please call the "
                             "MeanTensor instance or use `.update_state(value)` before "
                             "retrieving the result.")
        return math_ops.divide_no_nan(self._total, self._count)

