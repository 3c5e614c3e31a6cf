"""TF 1's probability distributions (``tf.compat.v1.distributions``).

A `Distribution` holds its parameters as tensors (read once, when it is built) and
answers ``sample``, ``log_prob``, ``cdf``, ``entropy``, ``mean`` ... with ops, so they run
eagerly, in a `function` or in a TF 1 graph alike. Samples are drawn with the same
random ops, in the same order, as TF's, so a seeded program draws TF's numbers.

>>> tfd = tf.compat.v1.distributions
>>> dist = tfd.Normal(loc=0.0, scale=2.0)
>>> round(float(dist.log_prob(0.0)), 4)
-1.6121
>>> float(tfd.kl_divergence(dist, tfd.Normal(1.0, 2.0)))
0.125
"""
import hashlib
import math
import operator

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import graph_mode
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor, is_tensor
from eagerflow._src.core.tensor_shape import TensorShape, as_shape
from eagerflow._src.graph.functional_ops import map_fn
from eagerflow._src.graph.static_value import get_static_value
from eagerflow._src.ops import (array_ops, cast_ops, debugging_ops, linalg_ops, math_ops, nn_ops,
                                random_ops, reduction_ops)


# -- helpers ----------------------------------------------------------------------------------

def _with_checks(checks, x):
    """`x`, running after the assertion ops `checks` in a graph (eagerly they have run)."""
    checks = [c for c in checks if c is not None]
    if not checks or context.executing_eagerly():
        return x
    with graph_mode.control_dependencies(checks):
        return cast_ops.identity(x)


def _fill_like_batch(dist, value):
    return array_ops.fill(dist.batch_shape_tensor(),
                          np.array(value, dist.dtype.as_numpy_dtype))


def _new_seed(seed, salt):
    """The op seed TF derives from `seed` for a distribution's second random op."""
    if seed is None:
        return None
    digest = hashlib.md5((str(seed) + salt).encode("utf-8")).hexdigest()
    return int(digest[:8], 16) & 0x7FFFFFFF


def _largest_integer(dtype):
    """The largest integer `dtype` holds exactly (a float's mantissa, an int's max)."""
    if dtype.is_floating:
        return 2 ** (np.finfo(dtype.as_numpy_dtype).nmant + 1)
    if dtype == _d.bool:
        return 1
    return int(np.iinfo(dtype.as_numpy_dtype).max)


def _check_categorical_param(param):
    """`param` (logits or probs), checked to have a last axis of at least 2 events."""
    dtype = param.dtype.base_dtype
    if not dtype.is_floating:
        raise TypeError(f"Unable to validate size of unrecognized dtype ({dtype.name}).")
    limit = _largest_integer(dtype)
    if param.shape.rank == 0:
        raise ValueError("A categorical-distribution parameter must have at least 1 dimension.")
    size = param.shape[-1] if param.shape.rank is not None else None
    if size is not None:
        if size < 2:
            raise ValueError("A categorical-distribution parameter must have at least 2 events.")
        if size > limit:
            raise ValueError(f"Number of classes exceeds `dtype` precision, i.e., {dtype.name} "
                             f"implies shape ({size}) cannot exceed {limit}.")
        return param
    events = array_ops.shape(param)[-1]
    return _with_checks([
        debugging_ops.assert_rank_at_least(
            param, 1, message="A categorical-distribution parameter must have at least 1 "
                              "dimension."),
        debugging_ops.assert_greater_equal(
            events, 2, message="A categorical-distribution parameter must have at least 2 "
                               "events."),
        debugging_ops.assert_less_equal(
            events, limit, message=f"Number of classes exceeds `dtype` precision, i.e., "
                                   f"{dtype.name} dtype cannot exceed {limit} shape.")], param)


def _integer_form_checks(x, int_dtype, message):
    """Assertions that float `x` holds whole numbers (that survive a cast to `int_dtype`)."""
    if x.dtype.is_integer:
        return []
    whole = cast_ops.cast(cast_ops.cast(x, int_dtype), x.dtype)
    return [debugging_ops.assert_equal(x, whole, message=message)]


def _check_nonnegative_integers(x):
    """`x`, checked to hold non-negative whole numbers (counts)."""
    x = convert_to_tensor(x)
    checks = [debugging_ops.assert_non_negative(x, message=f"'{x}' must be non-negative.")]
    if not x.dtype.is_integer:
        int_dtype = {_d.float16: _d.int16, _d.float32: _d.int32,
                     _d.float64: _d.int64}[x.dtype.base_dtype]
        checks += _integer_form_checks(x, int_dtype,
                                       f"'{x}' cannot contain fractional components.")
    return _with_checks(checks, x)


def _check_class_indices(x, target_dtype):
    """`x`, checked to hold non-negative values castable to the integer `target_dtype`
    without loss (Bernoulli's and Categorical's events under validate_args)."""
    x = convert_to_tensor(x)
    if not (x.dtype.is_integer or x.dtype == _d.bool or x.dtype.is_floating):
        raise TypeError(f"{x.dtype.name}.dtype must be floating- or integer-type.")
    checks = [debugging_ops.assert_non_negative(x, message="Elements must be non-negative.")]
    if x.dtype.is_floating:
        checks += _integer_form_checks(
            x, target_dtype, f"Elements must be {target_dtype.name}-equivalent.")
    elif _largest_integer(x.dtype) > _largest_integer(target_dtype):
        limit = _largest_integer(target_dtype)
        checks.append(debugging_ops.assert_less_equal(
            x, convert_to_tensor(limit, x.dtype), message=f"Elements cannot exceed {limit}."))
    return _with_checks(checks, x)


def _logits_and_probs(logits, probs, multidimensional, validate_args):
    """Both parameterizations from whichever one was given (softmax/sigmoid or log)."""
    if (probs is None) == (logits is None):
        raise ValueError("Must pass probs or logits, but not both.")
    if probs is None:
        logits = convert_to_tensor(logits, name="logits")
        if not logits.dtype.is_floating:
            raise TypeError("logits must having floating type.")
        if multidimensional:
            if validate_args:
                logits = _check_categorical_param(logits)
            return logits, nn_ops.softmax(logits, name="probs")
        return logits, math_ops.sigmoid(logits, name="probs")
    probs = convert_to_tensor(probs, name="probs")
    if not probs.dtype.is_floating:
        raise TypeError("probs must having floating type.")
    if validate_args:
        one = convert_to_tensor(1.0, probs.dtype)
        checks = [debugging_ops.assert_non_negative(probs)]
        if multidimensional:
            probs = _check_categorical_param(probs)
            checks.append(debugging_ops.assert_near(reduction_ops.reduce_sum(probs, -1), one,
                                                    message="probs does not sum to 1."))
        else:
            checks.append(debugging_ops.assert_less_equal(
                probs, one, message="probs has components greater than 1."))
        probs = _with_checks(checks, probs)
    with graph_mode.name_scope("logits"):
        if multidimensional:
            return math_ops.log(probs), probs
        return math_ops.log(probs) - math_ops.log1p(-probs), probs


def _log_combinations(n, counts):
    """log(n! / prod(counts!)): the number of orderings of `counts` draws."""
    return (math_ops.lgamma(n + 1.0)
            - reduction_ops.reduce_sum(math_ops.lgamma(counts + 1.0), axis=[-1]))


def _check_normal_dtype(x, name):
    """TypeError unless `x` is float32 or float64 (the standard normal's functions)."""
    if x.dtype not in (_d.float32, _d.float64):
        raise TypeError(f"{name}.dtype={x.dtype} is not handled, see docstring for "
                        f"supported types.")


def _ndtr(x):
    """The standard normal CDF of float32/float64 `x`, in a scope of its own."""
    _check_normal_dtype(x, "x")
    with graph_mode.name_scope("ndtr"):
        return _ndtr_of(x)


def _ndtr_of(x):
    """The standard normal CDF, through erf near 0 and erfc in the tails (for accuracy)."""
    half_sqrt2 = convert_to_tensor(0.5 * math.sqrt(2.0), x.dtype)
    w = x * half_sqrt2
    z = math_ops.abs(w)
    tail = array_ops.where(w > 0.0, 2.0 - math_ops.erfc(z), math_ops.erfc(z))
    return 0.5 * array_ops.where(z < half_sqrt2, 1.0 + math_ops.erf(w), tail)


def _log_ndtr(x):
    """log of the standard normal CDF, accurate far into both tails: -ndtr(-x) above the
    point where log(1 - e) ~ -e, the asymptotic series of Mills' ratio far below."""
    if x.dtype == _d.float64:
        lower, upper = np.float64(-20.0), np.float64(8.0)
    elif x.dtype == _d.float32:
        lower, upper = np.float32(-10.0), np.float32(5.0)
    else:
        raise TypeError(f"x.dtype={x.dtype} is not supported.")
    with graph_mode.name_scope("log_ndtr"):
        return _log_ndtr_of(x, lower, upper)


def _log_ndtr_of(x, lower, upper):
    """log Phi(x): -ndtr(-x) above `upper`, log(ndtr(x)) down to `lower`, a series below."""
    middle = math_ops.log(_ndtr_of(math_ops.maximum(x, lower)))
    # log Phi(t) = -t^2/2 - log(-t) - log(2 pi)/2 + log(1 - 1/t^2 + 3/t^4 - 15/t^6) for t << 0
    t = math_ops.minimum(x, lower)
    t2 = math_ops.square(t)
    series = 1.0 - 1.0 / t2 + 3.0 / (t2 * t2) - 15.0 / (t2 * t2 * t2)
    far = (-0.5 * t2 - math_ops.log(-t) - 0.5 * math.log(2.0 * math.pi)
           + math_ops.log(series))
    return array_ops.where(x > upper, -_ndtr_of(-x), array_ops.where(x > lower, middle, far))


def _log_cdf_laplace(z):
    """log of the standard Laplace CDF, split at 0 so neither side overflows."""
    below = z - math.log(2.0)
    above = math_ops.log1p(-0.5 * math_ops.exp(-math_ops.abs(z)))
    return array_ops.where(z < 0.0, below, above)


# -- the base class ---------------------------------------------------------------------------

@export("compat.v1.distributions.ReparameterizationType")
class ReparameterizationType:
    """Whether a distribution's samples are differentiable functions of its parameters.

    Compare with ``is``: `FULLY_REPARAMETERIZED` and `NOT_REPARAMETERIZED` are the two
    instances.
    """

    def __init__(self, rep_type):
        self._rep_type = rep_type

    def __repr__(self):
        return f"<Reparameterization Type: {self._rep_type}>"

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
export("compat.v1.distributions.FULLY_REPARAMETERIZED")(FULLY_REPARAMETERIZED)
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")
export("compat.v1.distributions.NOT_REPARAMETERIZED")(NOT_REPARAMETERIZED)


def _not_implemented(method, dist):
    return NotImplementedError(f"{method} is not implemented: {type(dist).__name__}")


@export("compat.v1.distributions.Distribution")
class Distribution:
    """The base of TF 1's distributions: shapes, naming and the public methods.

    A subclass sets its parameters and implements the private ``_log_prob``, ``_cdf``,
    ``_sample_n`` ... it supports; the public methods open the distribution's name scope,
    convert `value` to the distribution's dtype and fall back between related methods
    (``prob`` from ``_log_prob``, ``stddev`` from ``_variance`` ...), raising
    NotImplementedError for the rest.

    `sample(sample_shape)` draws ``prod(sample_shape)`` samples with ``_sample_n`` and
    gives them the shape ``sample_shape + batch_shape + event_shape``.

    >>> dist = tf.compat.v1.distributions.Dirichlet([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    >>> dist.batch_shape, dist.event_shape
    (TensorShape([2]), TensorShape([3]))
    >>> dist.sample([4, 5], seed=1).shape
    TensorShape([4, 5, 2, 3])
    """

    def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats,
                 parameters=None, graph_parents=None, name=None):
        graph_parents = [] if graph_parents is None else graph_parents
        for i, t in enumerate(graph_parents):
            if t is None or not is_tensor(t):
                raise ValueError(f"Graph parent item {i} is not a Tensor; {t}.")
        if not name or name[-1] != "/":  # a name, not yet a scope: make it one
            with graph_mode.name_scope(name or type(self).__name__) as name:
                pass
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._allow_nan_stats = allow_nan_stats
        self._validate_args = validate_args
        self._parameters = parameters or {}
        self._graph_parents = graph_parents
        self._name = _scope_name(name)

    # -- attributes ----------------------------------------------------------------------------

    @property
    def name(self):
        """The distribution's name scope (None eagerly, where TF 1 scopes have no name)."""
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self):
        """The arguments the distribution was made with (as given), by name."""
        return {k: v for k, v in self._parameters.items()
                if not k.startswith("__") and k != "self"}

    @property
    def reparameterization_type(self):
        return self._reparameterization_type

    @property
    def allow_nan_stats(self):
        return self._allow_nan_stats

    @property
    def validate_args(self):
        return self._validate_args

    def copy(self, **override_parameters_kwargs):
        """A new distribution of this type with the same parameters but those given."""
        return type(self)(**dict(self.parameters, **override_parameters_kwargs))

    @classmethod
    def param_shapes(cls, sample_shape, name="DistributionParamShapes"):
        """The shapes of the parameters giving samples of shape `sample_shape`, by name."""
        with graph_mode.name_scope(name):
            return cls._param_shapes(sample_shape)

    @classmethod
    def param_static_shapes(cls, sample_shape):
        """`param_shapes` as TensorShapes; `sample_shape` must be fully known."""
        if isinstance(sample_shape, TensorShape):
            if not sample_shape.is_fully_defined():
                raise ValueError("TensorShape sample_shape must be fully defined")
            sample_shape = sample_shape.as_list()
        shapes = {}
        for name, shape in cls.param_shapes(sample_shape).items():
            value = get_static_value(shape)
            if value is None:
                raise ValueError("sample_shape must be a fully-defined TensorShape or "
                                 "list/tuple")
            shapes[name] = TensorShape(value)
        return shapes

    # The parameters (held as ``_<name>``, read by a property of that name) whose broadcast
    # shape is the batch's, each of the samples' shape in `param_shapes`: ("loc", "scale")
    _broadcast_params = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in cls.__dict__.get("_broadcast_params", ()):
            if name not in cls.__dict__:
                setattr(cls, name, property(operator.attrgetter("_" + name),
                                            doc=f"The `{name}` parameter (a tensor)."))

    def _init_params(self, parameters, name, checks=None):
        """Sets up a distribution of the `_broadcast_params` given in `parameters`: each
        becomes a tensor of its own, all of one float dtype, read after `checks()` (the
        argument assertions, made only when `validate_args`)."""
        validate_args = parameters["validate_args"]
        with graph_mode.name_scope(name) as name:
            deps = checks() if validate_args and checks is not None else []
            values = [_param(parameters[p], p, deps) for p in self._broadcast_params]
            debugging_ops.assert_same_float_dtype(values)
        for p, value in zip(self._broadcast_params, values):
            setattr(self, "_" + p, value)
        Distribution.__init__(self, values[0].dtype, FULLY_REPARAMETERIZED, validate_args,
                              parameters["allow_nan_stats"], parameters, values, name)

    @classmethod
    def _param_shapes(cls, sample_shape):
        if not cls._broadcast_params:
            raise NotImplementedError("_param_shapes not implemented")
        return Distribution._same_shapes(cls._broadcast_params, sample_shape)

    @staticmethod
    def _same_shapes(names, sample_shape):
        shape = convert_to_tensor(sample_shape, _d.int32)
        return dict.fromkeys(names, shape)

    # -- shapes ----------------------------------------------------------------------------

    @property
    def batch_shape(self):
        """The static shape of the batch of distributions this one holds."""
        return as_shape(self._batch_shape())

    @property
    def event_shape(self):
        """The static shape of one sample of one distribution of the batch."""
        return as_shape(self._event_shape())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return convert_to_tensor(self.batch_shape.as_list(), _d.int32,
                                         name="batch_shape")
            return self._batch_shape_tensor()

    def event_shape_tensor(self, name="event_shape_tensor"):
        with self._name_scope(name):
            if self.event_shape.is_fully_defined():
                return convert_to_tensor(self.event_shape.as_list(), _d.int32,
                                         name="event_shape")
            return self._event_shape_tensor()

    # Whether every event is a scalar (most distributions here): the event shapes are then
    # (), not unknown.
    _scalar_events = False

    def _batch_shape(self):
        if self._broadcast_params:
            return _broadcast_shape(*self._broadcast_values())
        return TensorShape(None)

    def _broadcast_values(self):
        return [getattr(self, "_" + name) for name in self._broadcast_params]

    def _event_shape(self):
        return TensorShape([] if self._scalar_events else None)

    def _batch_shape_tensor(self):
        if self._broadcast_params:
            return _broadcast_shape_tensor(*self._broadcast_values())
        raise _not_implemented("batch_shape_tensor", self)

    def _event_shape_tensor(self):
        if self._scalar_events:
            return convert_to_tensor([], _d.int32)
        raise _not_implemented("event_shape_tensor", self)

    def is_scalar_batch(self, name="is_scalar_batch"):
        with self._name_scope(name):
            return self._is_scalar(self.batch_shape, self.batch_shape_tensor, name)

    def is_scalar_event(self, name="is_scalar_event"):
        with self._name_scope(name):
            return self._is_scalar(self.event_shape, self.event_shape_tensor, name)

    @staticmethod
    def _is_scalar(static_shape, shape_tensor, name):
        if static_shape.rank is not None:
            return convert_to_tensor(static_shape.rank == 0, name=name)
        shape = shape_tensor()
        if shape.shape.rank is not None and shape.shape[0] is not None:
            return convert_to_tensor(shape.shape.as_list() == [0], name=name)
        return math_ops.equal(array_ops.shape(shape)[0], 0)

    # -- sampling ----------------------------------------------------------------------------

    def sample(self, sample_shape=(), seed=None, name="sample"):
        """Samples of shape ``sample_shape + batch_shape + event_shape``; `seed` is the
        op seed of the random ops (with the global seed, it fixes the numbers)."""
        with self._name_scope(name):
            sample_shape = convert_to_tensor(sample_shape, _d.int32, name="sample_shape")
            static = get_static_value(sample_shape)
            if sample_shape.shape.rank not in (None, 0, 1):
                raise ValueError("Input is neither scalar nor vector.")
            if static is not None:
                n = np.prod(static, dtype=np.int32)
                sample_shape = convert_to_tensor(np.reshape(static, [-1]).astype(np.int32),
                                                 name="sample_shape")
            else:
                n = reduction_ops.reduce_prod(sample_shape)
                sample_shape = array_ops.reshape(sample_shape, [-1])
            samples = self._sample_n(n, seed)
            final_shape = array_ops.concat([sample_shape, array_ops.shape(samples)[1:]], 0)
            samples = array_ops.reshape(samples, final_shape)
            if static is not None and not context.executing_eagerly():  # what is known
                samples.set_shape(TensorShape(np.reshape(static, [-1]).tolist())
                                  .concatenate(self.batch_shape).concatenate(self.event_shape))
            return samples

    def _sample_n(self, n, seed=None):
        raise _not_implemented("sample_n", self)

    # -- methods of a value -------------------------------------------------------------------

    def _value_method(self, name, value, method, fallback=None):
        """``getattr(self, method)(value)`` in the name scope `name`, else `fallback`."""
        with self._name_scope(name):
            value = convert_to_tensor(value, name="value", dtype_hint=self.dtype)
            try:
                return getattr(self, method)(value)
            except NotImplementedError as original:
                if fallback is None:
                    raise
                try:
                    return fallback(value)
                except NotImplementedError:
                    raise original from None

    def log_prob(self, value, name="log_prob"):
        """log(probability density or mass) of `value`."""
        return self._value_method(name, value, "_log_prob",
                                  lambda v: math_ops.log(self._prob(v)))

    def prob(self, value, name="prob"):
        """The probability density (or mass) of `value`."""
        return self._value_method(name, value, "_prob",
                                  lambda v: math_ops.exp(self._log_prob(v)))

    def log_cdf(self, value, name="log_cdf"):
        return self._value_method(name, value, "_log_cdf",
                                  lambda v: math_ops.log(self._cdf(v)))

    def cdf(self, value, name="cdf"):
        """P[X <= value]."""
        return self._value_method(name, value, "_cdf",
                                  lambda v: math_ops.exp(self._log_cdf(v)))

    def log_survival_function(self, value, name="log_survival_function"):
        return self._value_method(name, value, "_log_survival_function",
                                  lambda v: math_ops.log1p(-self.cdf(v)))

    def survival_function(self, value, name="survival_function"):
        """P[X > value] = 1 - cdf(value)."""
        return self._value_method(name, value, "_survival_function",
                                  lambda v: 1.0 - self.cdf(v))

    def quantile(self, value, name="quantile"):
        """The x with cdf(x) = `value`."""
        return self._value_method(name, value, "_quantile")

    def _log_prob(self, value):
        raise _not_implemented("log_prob", self)

    def _prob(self, value):
        raise _not_implemented("prob", self)

    def _log_cdf(self, value):
        raise _not_implemented("log_cdf", self)

    def _cdf(self, value):
        raise _not_implemented("cdf", self)

    def _log_survival_function(self, value):
        raise _not_implemented("log_survival_function", self)

    def _survival_function(self, value):
        raise _not_implemented("survival_function", self)

    def _quantile(self, value):
        raise _not_implemented("quantile", self)

    # -- statistics ----------------------------------------------------------------------------

    def _statistic(self, name, method, fallback=None):
        with self._name_scope(name):
            try:
                return getattr(self, method)()
            except NotImplementedError as original:
                if fallback is None:
                    raise
                try:
                    return fallback()
                except NotImplementedError:
                    raise original from None

    def entropy(self, name="entropy"):
        """The Shannon entropy, in nats."""
        return self._statistic(name, "_entropy")

    def mean(self, name="mean"):
        return self._statistic(name, "_mean")

    def mode(self, name="mode"):
        return self._statistic(name, "_mode")

    def variance(self, name="variance"):
        return self._statistic(name, "_variance",
                               lambda: math_ops.square(self._stddev()))

    def stddev(self, name="stddev"):
        return self._statistic(name, "_stddev", lambda: math_ops.sqrt(self._variance()))

    def covariance(self, name="covariance"):
        """The covariance matrix of a vector-valued distribution's events."""
        return self._statistic(name, "_covariance")

    def _entropy(self):
        raise _not_implemented("entropy", self)

    def _mean(self):
        raise _not_implemented("mean", self)

    def _mode(self):
        raise _not_implemented("mode", self)

    def _variance(self):
        raise _not_implemented("variance", self)

    def _stddev(self):
        raise _not_implemented("stddev", self)

    def _covariance(self):
        raise _not_implemented("covariance", self)

    def cross_entropy(self, other, name="cross_entropy"):
        """The cross entropy H[self, other] = entropy + KL[self || other], in nats."""
        with self._name_scope(name):
            return cross_entropy(self, other, allow_nan_stats=self.allow_nan_stats)

    def kl_divergence(self, other, name="kl_divergence"):
        """KL[self || other], from the function registered for the two types."""
        with self._name_scope(name):
            return kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

    # -- printing and naming ----------------------------------------------------------------

    def __str__(self):
        batch = (f", batch_shape={self.batch_shape}"
                 if self.batch_shape.rank is not None else "")
        event = (f", event_shape={self.event_shape}"
                 if self.event_shape.rank is not None else "")
        return (f'tfp.distributions.{type(self).__name__}("{self.name}"{batch}{event}, '
                f"dtype={self.dtype.name})")

    def __repr__(self):
        return (f"<tfp.distributions.{type(self).__name__} '{self.name}' "
                f"batch_shape={self.batch_shape} event_shape={self.event_shape} "
                f"dtype={self.dtype.name}>")

    def _name_scope(self, name):
        """The scope ``<distribution's scope>/<name>/`` the ops of a method are made in."""
        return _NestedScope(self.name, name)

    def _nan_unless(self, value, defined, param, message):
        """A statistic `value` defined only where `defined` (where ``param > 1``): NaN
        elsewhere when allow_nan_stats, else `value` after checking 1 < `param` throughout
        (InvalidArgumentError with `message`)."""
        if self.allow_nan_stats:
            nan = array_ops.fill(array_ops.shape(value),
                                 np.array(np.nan, self.dtype.as_numpy_dtype))
            return array_ops.where(defined, value, nan)
        one = array_ops.ones([], self.dtype)
        return _with_checks([debugging_ops.assert_less(one, param, message=message)], value)


def _scope_name(scope):
    """A TF 1 scope's name: None eagerly, as TF 1's name_scope yields there."""
    return None if context.executing_eagerly() else scope


class _NestedScope:
    """``name_scope(outer)`` then ``name_scope(inner)``, as one context manager."""

    def __init__(self, outer, inner):
        self._scopes = (graph_mode.name_scope(outer), graph_mode.name_scope(inner))

    def __enter__(self):
        self._scopes[0].__enter__()
        return _scope_name(self._scopes[1].__enter__())

    def __exit__(self, *exc):
        self._scopes[1].__exit__(*exc)
        return self._scopes[0].__exit__(*exc)


# -- KL divergence ----------------------------------------------------------------------------

_DIVERGENCES = {}


def _registered_kl(type_a, type_b):
    """The KL function registered for the closest pair of base classes of the types."""
    best, best_distance = None, None
    for i, parent_a in enumerate(type_a.__mro__):
        for j, parent_b in enumerate(type_b.__mro__):
            fn = _DIVERGENCES.get((parent_a, parent_b))
            if fn is not None and (best is None or i + j < best_distance):
                best, best_distance = fn, i + j
    return best


@export("compat.v1.distributions.kl_divergence")
def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
    """KL[a || b], computed by the function registered (`RegisterKL`) for their types.

    With ``allow_nan_stats=False`` a NaN in the result raises InvalidArgumentError.

    >>> tfd = tf.compat.v1.distributions
    >>> float(tfd.kl_divergence(tfd.Bernoulli(probs=0.5), tfd.Bernoulli(probs=0.5)))
    0.0
    """
    kl_fn = _registered_kl(type(distribution_a), type(distribution_b))
    if kl_fn is None:
        raise NotImplementedError(
            f"No KL(distribution_a || distribution_b) registered for distribution_a type "
            f"{type(distribution_a).__name__} and distribution_b type "
            f"{type(distribution_b).__name__}")
    with graph_mode.name_scope("KullbackLeibler"):
        kl = kl_fn(distribution_a, distribution_b, name=name)
        if allow_nan_stats:
            return kl
        kl = cast_ops.identity(kl, name="kl")
        check = debugging_ops.Assert(
            math_ops.logical_not(reduction_ops.reduce_any(math_ops.is_nan(kl))),
            [f"KL calculation between {distribution_a.name} and {distribution_b.name} "
             f"returned NaN values (and was called with allow_nan_stats=False). Values:", kl])
        return _with_checks([check], kl)


def cross_entropy(ref, other, allow_nan_stats=True, name=None):
    """H[ref, other] = entropy(ref) + KL[ref || other]."""
    with graph_mode.name_scope(name, "cross_entropy"):
        return ref.entropy() + kl_divergence(ref, other, allow_nan_stats=allow_nan_stats)


@export("compat.v1.distributions.RegisterKL")
class RegisterKL:
    """A decorator registering ``kl_fn(a, b, name=None)`` as KL[a || b] for the two
    distribution classes (and their subclasses without a closer registration).

    >>> tfd = tf.compat.v1.distributions
    >>> class MyNormal(tfd.Normal):
    ...     pass
    >>> @tfd.RegisterKL(MyNormal, MyNormal)
    ... def _kl(a, b, name=None):
    ...     return tf.constant(42.0)
    >>> float(tfd.kl_divergence(MyNormal(0.0, 1.0), MyNormal(0.0, 1.0)))
    42.0
    """

    def __init__(self, dist_cls_a, dist_cls_b):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn):
        if not callable(kl_fn):
            raise TypeError(f"kl_fn must be callable, received: {kl_fn}")
        if self._key in _DIVERGENCES:
            raise ValueError(f"KL({self._key[0].__name__} || {self._key[1].__name__}) has "
                             f"already been registered to: {_DIVERGENCES[self._key]}")
        _DIVERGENCES[self._key] = kl_fn
        return kl_fn


# -- the distributions ------------------------------------------------------------------------

def _param(value, name, checks=()):
    """A parameter as a tensor of its own (read now, after `checks` in a graph)."""
    checks = [c for c in checks if c is not None]
    if checks and not context.executing_eagerly():
        with graph_mode.control_dependencies(checks):
            return cast_ops.identity(value, name=name)
    return cast_ops.identity(value, name=name)


def _broadcast_shape(*tensors):
    """The static broadcast shape of the tensors' shapes."""
    shape = tensors[0].shape
    for t in tensors[1:]:
        shape = array_ops.broadcast_static_shape(shape, t.shape)
    return shape


def _broadcast_shape_tensor(*tensors):
    shape = array_ops.shape(tensors[0])
    for t in tensors[1:]:
        shape = array_ops.broadcast_dynamic_shape(shape, array_ops.shape(t))
    return shape


def _sample_shape(n, dist):
    """``[n] + batch_shape``: the shape of `n` scalar samples of `dist`'s batch."""
    return array_ops.concat([[n], dist.batch_shape_tensor()], 0)


@export("compat.v1.distributions.Normal")
class Normal(Distribution):
    """The normal (Gaussian) distribution of mean `loc` and standard deviation `scale`.

    >>> dist = tf.compat.v1.distributions.Normal(loc=[0.0, 1.0], scale=1.0)
    >>> dist.batch_shape
    TensorShape([2])
    >>> dist.cdf(1.0).numpy()
    array([0.8413447, 0.5      ], dtype=float32)
    """
    _scalar_events = True

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
        self._init_params(dict(locals()), name,
                          lambda: [debugging_ops.assert_positive(scale)])

    _broadcast_params = ("loc", "scale")

    def _sample_n(self, n, seed=None):
        draws = random_ops.normal(_sample_shape(n, self), dtype=self.loc.dtype, seed=seed)
        return draws * self.scale + self.loc

    def _z(self, x):
        with graph_mode.name_scope("standardize"):
            return (x - self.loc) / self.scale

    def _log_prob(self, x):
        return (-0.5 * math_ops.square(self._z(x))
                - (0.5 * math.log(2.0 * math.pi) + math_ops.log(self.scale)))

    def _log_cdf(self, x):
        return _log_ndtr(self._z(x))

    def _cdf(self, x):
        return _ndtr(self._z(x))

    def _log_survival_function(self, x):
        return _log_ndtr(-self._z(x))

    def _survival_function(self, x):
        return _ndtr(-self._z(x))

    def _entropy(self):
        scale = self.scale * array_ops.ones_like(self.loc)
        return 0.5 * math.log(2.0 * math.pi * math.e) + math_ops.log(scale)

    def _mean(self):
        return self.loc * array_ops.ones_like(self.scale)

    def _mode(self):
        return self._mean()

    def _stddev(self):
        return self.scale * array_ops.ones_like(self.loc)

    def _quantile(self, p):
        # Outside [0, 1] the quantile is the nearer infinity (as TF's), not ndtri's NaN.
        _check_normal_dtype(p, "p")
        inf = array_ops.fill(array_ops.shape(p), np.array(np.inf, p.dtype.as_numpy_dtype))
        z = array_ops.where(p <= 0.0, -inf, array_ops.where(p >= 1.0, inf, math_ops.ndtri(p)))
        with graph_mode.name_scope("reconstruct"):
            return z * self.scale + self.loc


@export("compat.v1.distributions.Bernoulli")
class Bernoulli(Distribution):
    """Coin flips: 1 with probability `probs` (or ``sigmoid(logits)``), else 0, as `dtype`.

    >>> dist = tf.compat.v1.distributions.Bernoulli(probs=0.25)
    >>> float(dist.prob(1))
    0.25
    """
    _scalar_events = True

    def __init__(self, logits=None, probs=None, dtype=_d.int32, validate_args=False,
                 allow_nan_stats=True, name="Bernoulli"):
        parameters = dict(locals())
        with graph_mode.name_scope(name) as name:
            self._logits, self._probs = _logits_and_probs(logits, probs, False, validate_args)
        super().__init__(dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._logits, self._probs], name)

    @staticmethod
    def _param_shapes(sample_shape):
        return {"logits": convert_to_tensor(sample_shape, _d.int32)}

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape(self):
        return self._logits.shape

    def _batch_shape_tensor(self):
        return array_ops.shape(self._logits)

    def _sample_n(self, n, seed=None):
        uniform = random_ops.uniform(_sample_shape(n, self), seed=seed, dtype=self.probs.dtype)
        return cast_ops.cast(math_ops.less(uniform, self.probs), self.dtype)

    def _log_prob(self, event):
        if self.validate_args:
            event = _check_class_indices(event, _d.bool)
        event = cast_ops.cast(event, self.logits.dtype)
        logits = self.logits
        if not (event.shape.is_fully_defined() and logits.shape.is_fully_defined()
                and event.shape == logits.shape):
            logits, event = (array_ops.ones_like(event) * logits,
                             array_ops.ones_like(logits) * event)
        return -nn_ops.sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self):
        return (-self.logits * (math_ops.sigmoid(self.logits) - 1)
                + math_ops.softplus(-self.logits))

    def _mean(self):
        return cast_ops.identity(self.probs)

    def _variance(self):
        return self._mean() * (1.0 - self.probs)

    def _mode(self):
        return cast_ops.cast(self.probs > 0.5, self.dtype)


def _broadcast_event_and_params(event, params, dtype):
    """Categorical events (as integers) and per-event parameters broadcast against each
    other: the events to ``params.shape[:-1]``'s broadcast, the parameters along."""
    if event.dtype.is_floating:
        event = cast_ops.cast(event, _d.int32)
    elif not event.dtype.is_integer:
        raise TypeError(f"`value` should have integer `dtype` or `self.dtype` ({dtype})")
    static = (params.shape.rank is not None and params.shape[:-1].is_fully_defined()
              and event.shape.is_fully_defined())
    if not static or params.shape[:-1] != event.shape:
        params = params * array_ops.ones_like(event[..., None], dtype=params.dtype)
        event = event * array_ops.ones(array_ops.shape(params)[:-1], dtype=event.dtype)
    return event, params


@export("compat.v1.distributions.Categorical")
class Categorical(Distribution):
    """One of K classes, class k with probability ``probs[..., k]`` (or
    ``softmax(logits)[..., k]``).

    >>> dist = tf.compat.v1.distributions.Categorical(probs=[0.5, 0.25, 0.25])
    >>> float(dist.prob(1))
    0.25
    """
    _scalar_events = True

    def __init__(self, logits=None, probs=None, dtype=_d.int32, validate_args=False,
                 allow_nan_stats=True, name="Categorical"):
        parameters = dict(locals())
        with graph_mode.name_scope(name) as name:
            self._logits, self._probs = _logits_and_probs(logits, probs, True, validate_args)
            if validate_args:
                self._logits = _check_categorical_param(self._logits)
            static = self._logits.shape.with_rank_at_least(1)
            self._batch_rank = (static.rank - 1 if static.rank is not None
                                else array_ops.rank(self._logits) - 1)
            if static.rank is not None and static[-1] is not None:
                self._event_size = convert_to_tensor(static[-1], _d.int32, name="event_size")
            else:
                with graph_mode.name_scope("event_size"):
                    self._event_size = array_ops.shape(self._logits)[-1]
        super().__init__(dtype, NOT_REPARAMETERIZED, validate_args, allow_nan_stats,
                         parameters, [self._logits, self._probs], name)

    @property
    def event_size(self):
        """The number of classes K (a scalar int32 tensor)."""
        return self._event_size

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape(self):
        return self.logits.shape[:-1]

    def _batch_shape_tensor(self):
        return array_ops.shape(self.logits)[:-1]

    def _sample_n(self, n, seed=None):
        logits = (self.logits if self.logits.shape.rank == 2
                  else array_ops.reshape(self.logits, [-1, self.event_size]))
        draws = random_ops.categorical(logits, n, seed=seed,
                                       dtype=_d.int64 if self.dtype.size > 4 else _d.int32)
        draws = array_ops.reshape(array_ops.transpose(draws), _sample_shape(n, self))
        return cast_ops.cast(draws, self.dtype)

    def _checked_classes(self, k):
        if self.validate_args:
            k = _check_class_indices(k, _d.int32)
        return k

    def _cdf(self, k):
        k, probs = _broadcast_event_and_params(self._checked_classes(k), self.probs,
                                               self.dtype.base_dtype)
        flat_probs = array_ops.reshape(probs, (-1, self._event_size))
        below = array_ops.sequence_mask(array_ops.reshape(k, [-1]), self._event_size)
        flat_cdf = reduction_ops.reduce_sum(
            array_ops.where(below, flat_probs, array_ops.zeros_like(flat_probs)), axis=-1)
        return array_ops.reshape(flat_cdf, array_ops.shape(k))

    def _log_prob(self, k):
        k, logits = _broadcast_event_and_params(self._checked_classes(k), self.logits,
                                                self.dtype.base_dtype)
        return -nn_ops.sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _entropy(self):
        return -reduction_ops.reduce_sum(nn_ops.log_softmax(self.logits) * self.probs, axis=-1)

    def _mode(self):
        return cast_ops.cast(reduction_ops.argmax(self.logits, axis=self._batch_rank),
                             self.dtype)


@export("compat.v1.distributions.Gamma")
class Gamma(Distribution):
    """The gamma distribution of shape `concentration` and inverse scale `rate`.

    >>> dist = tf.compat.v1.distributions.Gamma(concentration=2.0, rate=4.0)
    >>> float(dist.mean())
    0.5
    """
    _scalar_events = True

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True,
                 name="Gamma"):
        self._init_params(dict(locals()), name,
                          lambda: [debugging_ops.assert_positive(concentration),
                                   debugging_ops.assert_positive(rate)])

    _broadcast_params = ("concentration", "rate")

    def _sample_n(self, n, seed=None):
        return random_ops.gamma([n], self.concentration, self.rate, dtype=self.dtype,
                                seed=seed)

    def _checked_value(self, x):
        debugging_ops.assert_same_float_dtype([x], self.dtype)
        if not self.validate_args:
            return x
        return _with_checks([debugging_ops.assert_positive(x)], x)

    def _log_prob(self, x):
        x = self._checked_value(x)
        return ((math_ops.xlogy(self.concentration - 1.0, x) - self.rate * x)
                - (math_ops.lgamma(self.concentration)
                   - self.concentration * math_ops.log(self.rate)))

    def _cdf(self, x):
        return math_ops.igamma(self.concentration, self.rate * self._checked_value(x))

    def _entropy(self):
        return (self.concentration - math_ops.log(self.rate)
                + math_ops.lgamma(self.concentration)
                + (1.0 - self.concentration) * math_ops.digamma(self.concentration))

    def _mean(self):
        return self.concentration / self.rate

    def _variance(self):
        return self.concentration / math_ops.square(self.rate)

    def _stddev(self):
        return math_ops.sqrt(self.concentration) / self.rate

    def _mode(self):
        mode = (self.concentration - 1.0) / self.rate
        return self._nan_unless(mode, self.concentration > 1.0, self.concentration,
                                "mode not defined when any concentration <= 1")


@export("compat.v1.distributions.Exponential")
class Exponential(Gamma):
    """The exponential distribution of `rate`: Gamma(1, rate).

    >>> dist = tf.compat.v1.distributions.Exponential(rate=2.0)
    >>> float(dist.mean())
    0.5
    """

    def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
        parameters = dict(locals())
        with graph_mode.name_scope(name) as name:
            self._rate = convert_to_tensor(rate, name="rate")
        super().__init__(concentration=array_ops.ones([], dtype=self._rate.dtype),
                         rate=self._rate, allow_nan_stats=allow_nan_stats,
                         validate_args=validate_args, name=name)
        self._parameters = parameters
        self._graph_parents = self._graph_parents + [self._rate]

    @staticmethod
    def _param_shapes(sample_shape):
        return {"rate": convert_to_tensor(sample_shape, _d.int32)}

    @property
    def rate(self):
        return self._rate

    def _log_survival_function(self, value):
        return self._log_prob(value) - math_ops.log(self._rate)

    def _sample_n(self, n, seed=None):
        # Uniform in [tiny, 1): -log of it is finite.
        tiny = np.finfo(self.dtype.as_numpy_dtype).tiny
        shape = array_ops.concat([[n], array_ops.shape(self._rate)], 0)
        uniform = random_ops.uniform(shape, minval=tiny, maxval=1.0, seed=seed,
                                     dtype=self.dtype)
        return -math_ops.log(uniform) / self._rate


def _checked_concentration(concentration, validate_args):
    if not validate_args:
        return concentration
    return _with_checks([debugging_ops.assert_positive(
        concentration, message="Concentration parameter must be positive.")], concentration)


@export("compat.v1.distributions.Beta")
class Beta(Distribution):
    """The beta distribution on [0, 1] of concentrations `concentration1` (of x) and
    `concentration0` (of 1 - x).

    >>> dist = tf.compat.v1.distributions.Beta(2.0, 2.0)
    >>> float(dist.mean())
    0.5
    """
    _scalar_events = True

    def __init__(self, concentration1=None, concentration0=None, validate_args=False,
                 allow_nan_stats=True, name="Beta"):
        parameters = dict(locals())
        with graph_mode.name_scope(name) as name:
            self._concentration1 = _checked_concentration(
                convert_to_tensor(concentration1, name="concentration1"), validate_args)
            self._concentration0 = _checked_concentration(
                convert_to_tensor(concentration0, name="concentration0"), validate_args)
            debugging_ops.assert_same_float_dtype([self._concentration1, self._concentration0])
            self._total_concentration = self._concentration1 + self._concentration0
        super().__init__(self._total_concentration.dtype, FULLY_REPARAMETERIZED, validate_args,
                         allow_nan_stats, parameters,
                         [self._concentration1, self._concentration0,
                          self._total_concentration], name)

    @staticmethod
    def _param_shapes(sample_shape):
        return Distribution._same_shapes(("concentration1", "concentration0"), sample_shape)

    @property
    def concentration1(self):
        return self._concentration1

    @property
    def concentration0(self):
        return self._concentration0

    @property
    def total_concentration(self):
        return self._total_concentration

    def _batch_shape(self):
        return self.total_concentration.shape

    def _batch_shape_tensor(self):
        return array_ops.shape(self.total_concentration)

    def _sample_n(self, n, seed=None):
        ones = array_ops.ones_like(self.total_concentration, dtype=self.dtype)
        gamma1 = random_ops.gamma([n], ones * self.concentration1, dtype=self.dtype, seed=seed)
        gamma0 = random_ops.gamma([n], ones * self.concentration0, dtype=self.dtype,
                                  seed=_new_seed(seed, "beta"))
        return gamma1 / (gamma1 + gamma0)

    def _checked_value(self, x):
        if not self.validate_args:
            return x
        return _with_checks([
            debugging_ops.assert_positive(x, message="sample must be positive"),
            debugging_ops.assert_less(x, array_ops.ones([], self.dtype),
                                      message="sample must be less than `1`.")], x)

    def _log_normalization(self):
        return (math_ops.lgamma(self.concentration1) + math_ops.lgamma(self.concentration0)
                - math_ops.lgamma(self.total_concentration))

    def _log_prob(self, x):
        x = self._checked_value(x)
        return ((math_ops.xlogy(self.concentration1 - 1.0, x)
                 + (self.concentration0 - 1.0) * math_ops.log1p(-x))
                - self._log_normalization())

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _log_cdf(self, x):
        return math_ops.log(self._cdf(x))

    def _cdf(self, x):
        return math_ops.betainc(self.concentration1, self.concentration0, x)

    def _entropy(self):
        return (self._log_normalization()
                - (self.concentration1 - 1.0) * math_ops.digamma(self.concentration1)
                - (self.concentration0 - 1.0) * math_ops.digamma(self.concentration0)
                + (self.total_concentration - 2.0) * math_ops.digamma(self.total_concentration))

    def _mean(self):
        return self._concentration1 / self._total_concentration

    def _variance(self):
        mean = self._mean()
        return mean * (1.0 - mean) / (1.0 + self.total_concentration)

    def _mode(self):
        mode = (self.concentration1 - 1.0) / (self.total_concentration - 2.0)
        if self.allow_nan_stats:
            defined = math_ops.logical_and(self.concentration1 > 1.0,
                                           self.concentration0 > 1.0)
            return array_ops.where(defined, mode, _fill_like_batch(self, np.nan))
        one = array_ops.ones([], self.dtype)
        return _with_checks([
            debugging_ops.assert_less(one, self.concentration1,
                                      message="Mode undefined for concentration1 <= 1."),
            debugging_ops.assert_less(one, self.concentration0,
                                      message="Mode undefined for concentration0 <= 1.")],
            mode)


class _OverCategories(Distribution):
    """A distribution over vectors of categories, set by a `concentration` per category:
    the batch is `concentration`'s leading dims (those of its sum, `total_concentration`),
    an event its last dim."""

    @property
    def concentration(self):
        return self._concentration

    @property
    def total_concentration(self):
        return self._total_concentration

    def _batch_shape(self):
        return self.total_concentration.shape

    def _batch_shape_tensor(self):
        return array_ops.shape(self.total_concentration)

    def _event_shape(self):
        return self.concentration.shape.with_rank_at_least(1)[-1:]

    def _event_shape_tensor(self):
        return array_ops.shape(self.concentration)[-1:]


@export("compat.v1.distributions.Dirichlet")
class Dirichlet(_OverCategories):
    """The Dirichlet distribution over the probability simplex of `concentration`'s last
    axis (K events).

    >>> dist = tf.compat.v1.distributions.Dirichlet([1.0, 1.0, 2.0])
    >>> dist.mean().numpy()
    array([0.25, 0.25, 0.5 ], dtype=float32)
    """

    def __init__(self, concentration, validate_args=False, allow_nan_stats=True,
                 name="Dirichlet"):
        parameters = dict(locals())
        with graph_mode.name_scope(name) as name:
            concentration = convert_to_tensor(concentration, name="concentration")
            if validate_args:
                concentration = _with_checks([
                    debugging_ops.assert_positive(
                        concentration, message="Concentration parameter must be positive."),
                    debugging_ops.assert_rank_at_least(
                        concentration, 1,
                        message="Concentration parameter must have >=1 dimensions."),
                    debugging_ops.assert_less(
                        1, array_ops.shape(concentration)[-1],
                        message="Concentration parameter must have event_size >= 2.")],
                    concentration)
            self._concentration = concentration
            self._total_concentration = reduction_ops.reduce_sum(concentration, -1)
        super().__init__(concentration.dtype, FULLY_REPARAMETERIZED, validate_args,
                         allow_nan_stats, parameters,
                         [self._concentration, self._total_concentration], name)

    def _sample_n(self, n, seed=None):
        gamma = random_ops.gamma([n], self.concentration, dtype=self.dtype, seed=seed)
        return gamma / reduction_ops.reduce_sum(gamma, -1, keepdims=True)

    def _log_prob(self, x):
        if self.validate_args:
            x = _with_checks([
                debugging_ops.assert_positive(x, message="samples must be positive"),
                debugging_ops.assert_near(array_ops.ones([], self.dtype),
                                          reduction_ops.reduce_sum(x, -1),
                                          message="sample last-dimension must sum to `1`")],
                x)
        return (reduction_ops.reduce_sum(math_ops.xlogy(self.concentration - 1.0, x), -1)
                - math_ops.lbeta(self.concentration))

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _entropy(self):
        k = cast_ops.cast(self.event_shape_tensor()[0], self.dtype)
        return (math_ops.lbeta(self.concentration)
                + (self.total_concentration - k) * math_ops.digamma(self.total_concentration)
                - reduction_ops.reduce_sum((self.concentration - 1.0)
                                           * math_ops.digamma(self.concentration), axis=-1))

    def _mean(self):
        return self.concentration / self.total_concentration[..., None]

    def _scale_term(self):
        return math_ops.rsqrt(1.0 + self.total_concentration[..., None])

    def _variance(self):
        scale = self._scale_term()
        x = scale * self._mean()
        return x * (scale - x)

    def _covariance(self):
        x = self._scale_term() * self._mean()
        return linalg_ops.set_diag(-linalg_ops.matmul(x[..., None], x[..., None, :]),
                                   self._variance())

    def _mode(self):
        k = cast_ops.cast(self.event_shape_tensor()[0], self.dtype)
        mode = (self.concentration - 1.0) / (self.total_concentration[..., None] - k)
        defined = reduction_ops.reduce_all(self.concentration > 1.0, axis=-1)
        return self._nan_unless(mode, defined, self.concentration,
                                "Mode undefined when any concentration <= 1")


@export("compat.v1.distributions.Laplace")
class Laplace(Distribution):
    """The Laplace (double exponential) distribution of median `loc` and scale `scale`.

    >>> dist = tf.compat.v1.distributions.Laplace(loc=0.0, scale=1.0)
    >>> float(dist.cdf(0.0))
    0.5
    """
    _scalar_events = True

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
        self._init_params(dict(locals()), name,
                          lambda: [debugging_ops.assert_positive(scale)])

    _broadcast_params = ("loc", "scale")

    def _sample_n(self, n, seed=None):
        # Uniform in (-1, 1): the inverse CDF of |u| on either side of loc stays finite.
        np_dtype = self.dtype.as_numpy_dtype
        low = np.nextafter(np_dtype(-1.0), np_dtype(0.0))
        u = random_ops.uniform(_sample_shape(n, self), minval=low, maxval=1.0,
                               dtype=self.dtype, seed=seed)
        return self.loc - self.scale * math_ops.sign(u) * math_ops.log1p(-math_ops.abs(u))

    def _z(self, x):
        return (x - self.loc) / self.scale

    def _log_prob(self, x):
        return -math_ops.abs(self._z(x)) - (math.log(2.0) + math_ops.log(self.scale))

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _log_cdf(self, x):
        return _log_cdf_laplace(self._z(x))

    def _log_survival_function(self, x):
        return _log_cdf_laplace(-self._z(x))

    def _cdf(self, x):
        z = self._z(x)
        return 0.5 + 0.5 * math_ops.sign(z) * (1.0 - math_ops.exp(-math_ops.abs(z)))

    def _entropy(self):
        return math.log(2.0) + 1.0 + math_ops.log(self.scale + array_ops.zeros_like(self.loc))

    def _mean(self):
        return self.loc + array_ops.zeros_like(self.scale)

    def _stddev(self):
        return math.sqrt(2.0) * self.scale + array_ops.zeros_like(self.loc)

    def _mode(self):
        return self._mean()


@export("compat.v1.distributions.Multinomial")
class Multinomial(Distribution):
    """Counts of each of K classes in `total_count` draws of a categorical distribution
    of `probs` (or ``softmax(logits)``).

    >>> dist = tf.compat.v1.distributions.Multinomial(total_count=4.0, probs=[0.5, 0.5])
    >>> float(dist.prob([2.0, 2.0]))
    0.375
    """

    def __init__(self, total_count, logits=None, probs=None, validate_args=False,
                 allow_nan_stats=True, name="Multinomial"):
        parameters = dict(locals())
        with graph_mode.name_scope(name) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            if validate_args:
                self._total_count = _check_nonnegative_integers(self._total_count)
            self._logits, self._probs = _logits_and_probs(logits, probs, True, validate_args)
            self._mean_val = self._total_count[..., None] * self._probs
        super().__init__(self._probs.dtype, NOT_REPARAMETERIZED, validate_args,
                         allow_nan_stats, parameters,
                         [self._total_count, self._logits, self._probs], name)

    @property
    def total_count(self):
        return self._total_count

    @property
    def logits(self):
        return self._logits

    @property
    def probs(self):
        return self._probs

    def _batch_shape(self):
        return self._mean_val.shape.with_rank_at_least(1)[:-1]

    def _batch_shape_tensor(self):
        return array_ops.shape(self._mean_val)[:-1]

    def _event_shape(self):
        return self._mean_val.shape.with_rank_at_least(1)[-1:]

    def _event_shape_tensor(self):
        return array_ops.shape(self._mean_val)[-1:]

    def _sample_n(self, n, seed=None):
        k = self.event_shape_tensor()[0]
        n_draws = cast_ops.cast(self.total_count, _d.int32)
        n_draws = array_ops.ones_like(self.logits[..., 0], dtype=_d.int32) * n_draws
        logits = array_ops.ones_like(n_draws[..., None], dtype=self.logits.dtype) * self.logits
        flat_logits = array_ops.reshape(logits, [-1, k])
        flat_draws = n * array_ops.reshape(n_draws, [-1])

        def counts(args):  # n samples of one member of the batch: [n, k]
            row_logits, draws = args
            classes = random_ops.categorical(row_logits[None, ...], draws, seed=seed)
            classes = array_ops.reshape(classes, [n, -1])
            return reduction_ops.reduce_sum(array_ops.one_hot(classes, depth=k), axis=-2)

        x = map_fn(counts, [flat_logits, flat_draws], dtype=self.dtype)
        x = array_ops.transpose(x, perm=[1, 0, 2])
        return array_ops.reshape(x, array_ops.concat([[n], self.batch_shape_tensor(), [k]], 0))

    def _checked_counts(self, counts):
        if not self.validate_args:
            return counts
        counts = _check_nonnegative_integers(counts)
        return _with_checks([debugging_ops.assert_equal(
            self.total_count, reduction_ops.reduce_sum(counts, -1),
            message="counts must sum to `self.total_count`")], counts)

    def _log_prob(self, counts):
        counts = self._checked_counts(counts)
        return (reduction_ops.reduce_sum(counts * nn_ops.log_softmax(self.logits), -1)
                + _log_combinations(self.total_count, counts))

    def _mean(self):
        return cast_ops.identity(self._mean_val)

    def _variance(self):
        p = self.probs * array_ops.ones_like(self.total_count)[..., None]
        return self._mean_val - self._mean_val * p

    def _covariance(self):
        p = self.probs * array_ops.ones_like(self.total_count)[..., None]
        return linalg_ops.set_diag(
            -linalg_ops.matmul(self._mean_val[..., None], p[..., None, :]), self._variance())


@export("compat.v1.distributions.StudentT")
class StudentT(Distribution):
    """Student's t distribution of `df` degrees of freedom, location `loc`, scale `scale`.

    >>> dist = tf.compat.v1.distributions.StudentT(df=3.0, loc=0.0, scale=1.0)
    >>> float(dist.cdf(0.0))
    0.5
    """
    _scalar_events = True

    def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True,
                 name="StudentT"):
        self._init_params(dict(locals()), name,
                          lambda: [debugging_ops.assert_positive(df)])

    _broadcast_params = ("df", "loc", "scale")

    def _ones(self):
        return array_ops.ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _sample_n(self, n, seed=None):
        # A normal over the root of an independent chi-squared(df) / df.
        normal = random_ops.normal(_sample_shape(n, self), dtype=self.dtype, seed=seed)
        df = self.df * self._ones()
        gamma = random_ops.gamma([n], 0.5 * df, 0.5, dtype=self.dtype,
                                 seed=_new_seed(seed, "student_t"))
        return normal * math_ops.rsqrt(gamma / df) * self.scale + self.loc

    def _log_prob(self, x):
        y = (x - self.loc) / self.scale
        unnormalized = -0.5 * (self.df + 1.0) * math_ops.log1p(y ** 2.0 / self.df)
        normalization = (math_ops.log(math_ops.abs(self.scale)) + 0.5 * math_ops.log(self.df)
                         + 0.5 * np.log(np.pi) + math_ops.lgamma(0.5 * self.df)
                         - math_ops.lgamma(0.5 * (self.df + 1.0)))
        return unnormalized - normalization

    def _cdf(self, x):
        y = (x - self.loc) / math_ops.abs(self.scale)
        below = 0.5 * math_ops.betainc(0.5 * self.df, 0.5, self.df / (y ** 2.0 + self.df))
        return array_ops.where(math_ops.less(y, 0.0), below, 1.0 - below)

    def _entropy(self):
        v = self._ones()[..., None]
        halves = array_ops.concat([v * self.df[..., None], v], -1) / 2.0
        return (math_ops.log(math_ops.abs(self.scale)) + 0.5 * math_ops.log(self.df)
                + math_ops.lbeta(halves)
                + 0.5 * (self.df + 1.0) * (math_ops.digamma(0.5 * (self.df + 1.0))
                                           - math_ops.digamma(0.5 * self.df)))

    def _defined_above_one(self, value, message):
        return self._nan_unless(value, math_ops.greater(self.df, self._ones()), self.df,
                                message)

    def _mean(self):
        return self._defined_above_one(self.loc * self._ones(),
                                       "mean not defined for components of df <= 1")

    def _variance(self):
        # df / (df - 2) scale^2 for df > 2, infinite for 1 < df <= 2, NaN below.
        denominator = array_ops.where(math_ops.greater(self.df, 2.0), self.df - 2.0,
                                      array_ops.ones_like(self.df))
        var = self._ones() * math_ops.square(self.scale) * self.df / denominator
        var = array_ops.where(self.df > array_ops.fill(self.batch_shape_tensor(), 2.0), var,
                              _fill_like_batch(self, np.inf))
        return self._defined_above_one(var, "variance not defined for components of df <= 1")

    def _mode(self):
        return cast_ops.identity(self.loc)


@export("compat.v1.distributions.Uniform")
class Uniform(Distribution):
    """The uniform distribution on [`low`, `high`).

    >>> dist = tf.compat.v1.distributions.Uniform(low=0.0, high=4.0)
    >>> float(dist.prob(1.0))
    0.25
    """
    _scalar_events = True

    def __init__(self, low=0.0, high=1.0, validate_args=False, allow_nan_stats=True,
                 name="Uniform"):
        self._init_params(dict(locals()), name, lambda: [debugging_ops.assert_less(
            low, high, message="uniform not defined when low >= high.")])

    _broadcast_params = ("low", "high")

    def range(self, name="range"):
        """``high - low``."""
        with self._name_scope(name):
            return self.high - self.low

    def _sample_n(self, n, seed=None):
        u = random_ops.uniform(_sample_shape(n, self), dtype=self.dtype, seed=seed)
        return self.low + self.range() * u

    def _prob(self, x):
        x = x * array_ops.ones(self.batch_shape_tensor(), dtype=x.dtype)
        outside = math_ops.logical_or(x < self.low, x >= self.high)
        density = array_ops.where(outside, array_ops.zeros_like(x),
                                  array_ops.ones_like(x) / self.range())
        return array_ops.where(math_ops.is_nan(x), x, density)

    def _cdf(self, x):
        shape = array_ops.broadcast_dynamic_shape(array_ops.shape(x), self.batch_shape_tensor())
        zeros = array_ops.zeros(shape, dtype=self.dtype)
        ones = array_ops.ones(shape, dtype=self.dtype)
        inside = array_ops.where(x < self.low, zeros, (x * ones - self.low) / self.range())
        return array_ops.where(x >= self.high, ones, inside)

    def _entropy(self):
        return math_ops.log(self.range())

    def _mean(self):
        return (self.low + self.high) / 2.0

    def _variance(self):
        return math_ops.square(self.range()) / 12.0

    def _stddev(self):
        return self.range() / math.sqrt(12.0)


@export("compat.v1.distributions.DirichletMultinomial")
class DirichletMultinomial(_OverCategories):
    """Counts of K classes in `total_count` draws from a categorical distribution whose
    probabilities are themselves drawn from Dirichlet(`concentration`).

    >>> dist = tf.compat.v1.distributions.DirichletMultinomial(2.0, [1.0, 1.0])
    >>> dist.mean().numpy()
    array([1., 1.], dtype=float32)
    """

    def __init__(self, total_count, concentration, validate_args=False,
                 allow_nan_stats=True, name="DirichletMultinomial"):
        parameters = dict(locals())
        with graph_mode.name_scope(name) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            if validate_args:
                self._total_count = _check_nonnegative_integers(self._total_count)
            concentration = convert_to_tensor(concentration, name="concentration")
            if validate_args:
                concentration = _checked_concentration(
                    _check_categorical_param(concentration), True)
            self._concentration = concentration
            self._total_concentration = reduction_ops.reduce_sum(concentration, -1)
        super().__init__(concentration.dtype, NOT_REPARAMETERIZED, validate_args,
                         allow_nan_stats, parameters, [self._total_count, concentration],
                         name)

    @property
    def total_count(self):
        return self._total_count

    def _sample_n(self, n, seed=None):
        # Class probabilities from normalized gammas (as logits), then the draws.
        k = self.event_shape_tensor()[0]
        gamma = random_ops.gamma([n], self.concentration, dtype=self.dtype, seed=seed)
        logits = array_ops.reshape(math_ops.log(gamma), [-1, k])
        draws = random_ops.categorical(logits, cast_ops.cast(self.total_count, _d.int32),
                                       seed=_new_seed(seed, "dirichlet_multinomial"))
        x = reduction_ops.reduce_sum(array_ops.one_hot(draws, depth=k), -2)
        x = array_ops.reshape(x, array_ops.concat([[n], self.batch_shape_tensor(), [k]], 0))
        return cast_ops.cast(x, self.dtype)

    def _log_prob(self, counts):
        if self.validate_args:
            counts = _check_nonnegative_integers(counts)
            counts = _with_checks([debugging_ops.assert_equal(
                self.total_count, reduction_ops.reduce_sum(counts, -1),
                message="counts last-dimension must sum to `self.total_count`")], counts)
        return (math_ops.lbeta(self.concentration + counts) - math_ops.lbeta(self.concentration)
                + _log_combinations(self.total_count, counts))

    def _prob(self, counts):
        return math_ops.exp(self._log_prob(counts))

    def _mean(self):
        return self.total_count * (self.concentration / self.total_concentration[..., None])

    def _scale_term(self):
        c0 = self.total_concentration[..., None]
        return math_ops.sqrt((1.0 + c0 / self.total_count) / (1.0 + c0))

    def _variance(self):
        scale = self._scale_term()
        x = scale * self._mean()
        return x * (self.total_count * scale - x)

    def _covariance(self):
        x = self._scale_term() * self._mean()
        return linalg_ops.set_diag(-linalg_ops.matmul(x[..., None], x[..., None, :]),
                                   self._variance())


# -- KL divergences between distributions of one family ---------------------------------------

@RegisterKL(Normal, Normal)
def _kl_normal_normal(a, b, name=None):
    with graph_mode.name_scope(name, "kl_normal_normal"):
        ratio = math_ops.square(a.scale) / math_ops.square(b.scale)
        return (math_ops.squared_difference(a.loc, b.loc) / (2.0 * math_ops.square(b.scale))
                + 0.5 * (ratio - 1.0 - math_ops.log(ratio)))


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
    with graph_mode.name_scope(name, "kl_bernoulli_bernoulli"):
        delta0 = math_ops.softplus(-b.logits) - math_ops.softplus(-a.logits)
        delta1 = math_ops.softplus(b.logits) - math_ops.softplus(a.logits)
        return math_ops.sigmoid(a.logits) * delta0 + math_ops.sigmoid(-a.logits) * delta1


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
    with graph_mode.name_scope(name, "kl_categorical_categorical"):
        delta = nn_ops.log_softmax(a.logits) - nn_ops.log_softmax(b.logits)
        return reduction_ops.reduce_sum(nn_ops.softmax(a.logits) * delta, axis=-1)


@RegisterKL(Beta, Beta)
def _kl_beta_beta(a, b, name=None):
    with graph_mode.name_scope(name, "kl_beta_beta"):
        return (b._log_normalization() - a._log_normalization()  # noqa: SLF001
                - math_ops.digamma(a.concentration1) * (b.concentration1 - a.concentration1)
                - math_ops.digamma(a.concentration0) * (b.concentration0 - a.concentration0)
                + math_ops.digamma(a.total_concentration)
                * (b.total_concentration - a.total_concentration))


@RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(a, b, name=None):
    with graph_mode.name_scope(name, "kl_dirichlet_dirichlet"):
        total = math_ops.digamma(reduction_ops.reduce_sum(a.concentration, axis=-1,
                                                          keepdims=True))
        digamma_diff = math_ops.digamma(a.concentration) - total
        return (reduction_ops.reduce_sum((a.concentration - b.concentration) * digamma_diff,
                                         axis=-1)
                - math_ops.lbeta(a.concentration) + math_ops.lbeta(b.concentration))


@RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(a, b, name=None):
    with graph_mode.name_scope(name, "kl_gamma_gamma"):
        return ((a.concentration - b.concentration) * math_ops.digamma(a.concentration)
                + math_ops.lgamma(b.concentration) - math_ops.lgamma(a.concentration)
                + b.concentration * math_ops.log(a.rate)
                - b.concentration * math_ops.log(b.rate)
                + a.concentration * (b.rate / a.rate - 1.0))
