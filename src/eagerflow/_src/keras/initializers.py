"""Weight initializers (``tf.keras.initializers``), with tf_keras's behaviour.

An initializer is a callable ``init(shape, dtype=None)`` returning a tensor
(of `backend.floatx()` unless `dtype` says otherwise). Random initializers
draw with stateless ops from the seed ``[seed, 0]``, fixed once per instance:
the given `seed`, else one drawn at the first call from the generator of
`tf.keras.utils.set_random_seed` (which makes initial weights reproducible),
or from Python's `random` without one. An instance therefore returns the same
values on every call, and an unseeded one reused warns, as in tf_keras.

>>> init = tf.keras.initializers.get("glorot_uniform")
>>> init((2, 3)).shape
TensorShape([2, 3])
>>> tf.keras.initializers.serialize(tf.keras.initializers.RandomNormal(stddev=0.1,
...                                                                    seed=1))["config"]
{'mean': 0.0, 'stddev': 0.1, 'seed': 1}
>>> tf.keras.initializers.GlorotUniform(seed=0)((2, 3)).numpy()
array([[-0.6331334 ,  0.45134532,  0.657406  ],
       [ 0.59327614, -0.24409002,  0.81141686]], dtype=float32)
"""
import inspect
import math
import re
import warnings

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _dtypes
from eagerflow._src.core import convert
from eagerflow._src.keras import backend
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import array_ops, linalg_ops, math_ops

_PARTITION_SHAPE = "partition_shape"
_PARTITION_OFFSET = "partition_offset"
_ALLOWED_KWARGS = [_PARTITION_SHAPE, _PARTITION_OFFSET, "layout"]
# The standard deviation of a standard normal truncated to [-2, 2]: dividing by
# it gives truncated draws the variance the scaling rule asks for.
_TRUNCATED_STDDEV = 0.87962566103423978


@export("keras.initializers.Initializer")
class Initializer:
    """Base class of initializers: subclasses implement ``__call__(shape, dtype=None, **kwargs)``
    and, when their constructor takes arguments, `get_config`.

    >>> class Halves(tf.keras.initializers.Initializer):
    ...     def __call__(self, shape, dtype=None, **kwargs):
    ...         return 0.5 * tf.keras.initializers.Ones()(shape, dtype)
    >>> Halves()((2,)).numpy()
    array([0.5, 0.5], dtype=float32)
    """

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError(
            "Initializer subclasses must implement the `__call__()` method.")

    def get_config(self):
        """The constructor arguments, as a JSON-serializable dict."""
        return {}

    @classmethod
    def from_config(cls, config):
        """An initializer built from `get_config`'s output.

        >>> tf.keras.initializers.RandomUniform.from_config({"minval": 0, "maxval": 1,
        ...                                                  "seed": 2}).maxval
        1
        """
        # Configs saved by older versions may carry a dtype, which initializers no longer take.
        return cls(**{k: v for k, v in config.items() if k != "dtype"})


def _prepare(initializer, shape, dtype, kwargs, check_dtype=None, partitionable=True):
    """The ``(shape, dtype)`` a call draws: keyword arguments and dtype checked, the
    dtype defaulting to `floatx()`, a partition's own shape replacing the full one."""
    unknown = [k for k in kwargs if k not in _ALLOWED_KWARGS]
    if unknown:
        raise TypeError(f"Unknown keyword arguments: {unknown}. Allowed keyword arguments: "
                        f"{_ALLOWED_KWARGS}.")
    if not partitionable and (_PARTITION_SHAPE in kwargs or _PARTITION_OFFSET in kwargs):
        raise ValueError(f"{type(initializer).__name__} initializer doesn't support "
                         f"partition-related arguments.")
    if kwargs.get("layout") is not None:
        raise NotImplementedError("DTensor layouts are not supported.")
    dtype = _dtypes.as_dtype(backend.floatx() if dtype is None else dtype)
    if check_dtype is not None:
        check_dtype(dtype)
    # (an unknown dimension left as None, for the op's own error about it)
    return tuple(d if d is None else int(d) for d in kwargs.get(_PARTITION_SHAPE, shape)), dtype


def _numeric_or_bool(dtype):
    if not dtype.is_numpy_compatible or dtype == _dtypes.string:
        raise ValueError(f"Expected numeric or boolean dtype, got {dtype}.")


def _float_or_int(dtype):
    if not (dtype.is_floating or dtype.is_integer):
        raise ValueError(f"Expected float or integer dtype, got {dtype}.")


def _floating(dtype):
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")


@export("keras.initializers.Zeros", "keras.initializers.zeros")
class Zeros(Initializer):
    """Zeros (any numeric or boolean dtype).

    >>> tf.keras.initializers.Zeros()((2,), dtype="int32").numpy()
    array([0, 0], dtype=int32)
    """

    def __call__(self, shape, dtype=None, **kwargs):
        shape, dtype = _prepare(self, shape, dtype, kwargs, _numeric_or_bool)
        return array_ops.zeros(shape, dtype)


@export("keras.initializers.Ones", "keras.initializers.ones")
class Ones(Initializer):
    """Ones (any numeric or boolean dtype).

    >>> tf.keras.initializers.Ones()((2,)).numpy()
    array([1., 1.], dtype=float32)
    """

    def __call__(self, shape, dtype=None, **kwargs):
        shape, dtype = _prepare(self, shape, dtype, kwargs, _numeric_or_bool)
        return array_ops.ones(shape, dtype)


@export("keras.initializers.Constant", "keras.initializers.constant")
class Constant(Initializer):
    """`value` everywhere: a scalar, or values with as many elements as the shape.

    >>> tf.keras.initializers.Constant(3)((2,)).numpy()
    array([3., 3.], dtype=float32)
    """

    def __init__(self, value=0):
        self.value = value

    def __call__(self, shape, dtype=None, **kwargs):
        shape, dtype = _prepare(self, shape, dtype, kwargs)
        return convert.constant(self.value, dtype=dtype, shape=shape)

    def get_config(self):
        return {"value": self.value}


class _Random(Initializer):
    """An initializer drawing stateless random values from a seed fixed per instance."""

    def __init__(self, seed):
        self.seed = seed
        self._random_generator = backend.RandomGenerator(seed, rng_type="stateless")
        self._used = False

    def _nonce(self, kwargs):
        """What a partition's offset folds into the seed, so that partitions of one variable
        differ (None for a whole variable)."""
        offset = kwargs.get(_PARTITION_OFFSET)
        if offset is None:  # partitions of one variable legitimately share the instance
            self._warn_reuse()
        return hash(tuple(offset)) if offset else None

    def _warn_reuse(self):
        if self._used and self.seed is None:
            warnings.warn(
                f"The initializer {type(self).__name__} is unseeded and being called "
                f"multiple times, which will return identical values each time (even if "
                f"the initializer is unseeded). Please update your code to provide a "
                f"seed to the initializer, or avoid using the same initializer instance "
                f"more than once.", stacklevel=4)
        self._used = True


@export("keras.initializers.RandomUniform", "keras.initializers.random_uniform")
class RandomUniform(_Random):
    """Uniform values in [minval, maxval) (floats, or integers with integer bounds).

    >>> x = tf.keras.initializers.RandomUniform(-1.0, 1.0, seed=4)((100,)).numpy()
    >>> bool(x.min() >= -1.0 and x.max() < 1.0)
    True
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval = minval
        self.maxval = maxval

    def __call__(self, shape, dtype=None, **kwargs):
        shape, dtype = _prepare(self, shape, dtype, kwargs, _float_or_int)
        return self._random_generator.random_uniform(shape, self.minval, self.maxval, dtype,
                                                     self._nonce(kwargs))

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class _Normal(_Random):
    """Values of a normal distribution of mean `mean` and standard deviation `stddev`,
    drawn by the generator's method `_draw`."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean = mean
        self.stddev = stddev

    def __call__(self, shape, dtype=None, **kwargs):
        shape, dtype = _prepare(self, shape, dtype, kwargs, _floating)
        draw = getattr(self._random_generator, self._draw)
        return draw(shape, self.mean, self.stddev, dtype, self._nonce(kwargs))

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


@export("keras.initializers.RandomNormal", "keras.initializers.random_normal")
class RandomNormal(_Normal):
    """Normal values of mean `mean` and standard deviation `stddev`.

    >>> tf.keras.initializers.RandomNormal(mean=1.0, stddev=0.0)((2,)).numpy()
    array([1., 1.], dtype=float32)
    """

    _draw = "random_normal"


@export("keras.initializers.TruncatedNormal", "keras.initializers.truncated_normal")
class TruncatedNormal(_Normal):
    """Normal values re-drawn until within 2 standard deviations of the mean.

    >>> x = tf.keras.initializers.TruncatedNormal(stddev=1.0, seed=1)((1000,)).numpy()
    >>> bool(abs(x).max() <= 2.0)
    True
    """

    _draw = "truncated_normal"


def _compute_fans(shape):
    """``(fan_in, fan_out)`` of a weight shape: a kernel ``(..., in, out)`` counts its
    receptive field (the leading dimensions) in both.

    >>> _compute_fans((3, 3, 16, 32))
    (144, 288)
    """
    if not shape:
        return 1, 1
    if len(shape) <= 2:
        return int(shape[0]), int(shape[-1])
    receptive_field = math.prod(shape[:-2])
    return int(shape[-2] * receptive_field), int(shape[-1] * receptive_field)


@export("keras.initializers.VarianceScaling", "keras.initializers.variance_scaling")
class VarianceScaling(_Random):
    """Values of variance ``scale / n``, with ``n`` the fan in, fan out or their mean.

    `distribution`: ``"truncated_normal"`` (its standard deviation corrected for the
    truncation), ``"untruncated_normal"`` or ``"uniform"`` (within
    ``±sqrt(3 * scale / n)``).

    >>> init = tf.keras.initializers.VarianceScaling(scale=2.0, mode="fan_in",
    ...                                              distribution="uniform", seed=0)
    >>> bool(abs(init((50, 10)).numpy()).max() <= (6 / 50) ** 0.5)
    True
    """

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if scale <= 0.0:
            raise ValueError(f"`scale` must be positive float. Received: scale={scale}.")
        allowed_modes = {"fan_in", "fan_out", "fan_avg"}
        if mode not in allowed_modes:
            raise ValueError(f"Invalid `mode` argument: {mode}. Please use one of the "
                             f"{allowed_modes}.")
        distribution = distribution.lower()
        if distribution == "normal":  # the name Keras 1 used for the truncated one
            distribution = "truncated_normal"
        allowed_distributions = {"uniform", "truncated_normal", "untruncated_normal"}
        if distribution not in allowed_distributions:
            raise ValueError(f"Invalid `distribution` argument: {distribution}.Allowed "
                             f"distributions: {allowed_distributions}.")
        super().__init__(seed)
        self.scale = scale
        self.mode = mode
        self.distribution = distribution

    def __call__(self, shape, dtype=None, **kwargs):
        shape, dtype = _prepare(self, shape, dtype, kwargs, _floating)
        nonce, rng = self._nonce(kwargs), self._random_generator
        fan_in, fan_out = _compute_fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        variance = self.scale / max(1.0, fan[self.mode])
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(variance) / _TRUNCATED_STDDEV
            return rng.truncated_normal(shape, 0.0, stddev, dtype, nonce)
        if self.distribution == "untruncated_normal":
            return rng.random_normal(shape, 0.0, math.sqrt(variance), dtype, nonce)
        limit = math.sqrt(3.0 * variance)
        return rng.random_uniform(shape, -limit, limit, dtype, nonce)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed}


class _Preset(VarianceScaling):
    """A `VarianceScaling` whose scale, mode and distribution are fixed by the class."""

    _preset = {}

    def __init__(self, seed=None):
        super().__init__(seed=seed, **self._preset)

    def get_config(self):
        return {"seed": self.seed}


@export("keras.initializers.GlorotUniform", "keras.initializers.glorot_uniform")
class GlorotUniform(_Preset):
    """Glorot (Xavier) uniform: within ``±sqrt(6 / (fan_in + fan_out))``.

    >>> bool(abs(tf.keras.initializers.GlorotUniform(seed=1)((4, 2)).numpy()).max() <= 1.0)
    True
    """

    _preset = {"scale": 1.0, "mode": "fan_avg", "distribution": "uniform"}


@export("keras.initializers.GlorotNormal", "keras.initializers.glorot_normal")
class GlorotNormal(_Preset):
    """Glorot (Xavier) normal: truncated normal of stddev ``sqrt(2 / (fan_in + fan_out))``.

    >>> tf.keras.initializers.GlorotNormal(seed=1)((4, 2)).dtype
    tf.float32
    """

    _preset = {"scale": 1.0, "mode": "fan_avg", "distribution": "truncated_normal"}


@export("keras.initializers.HeUniform", "keras.initializers.he_uniform")
class HeUniform(_Preset):
    """He uniform: within ``±sqrt(6 / fan_in)``.

    >>> bool(abs(tf.keras.initializers.HeUniform(seed=1)((6, 2)).numpy()).max() <= 1.0)
    True
    """

    _preset = {"scale": 2.0, "mode": "fan_in", "distribution": "uniform"}


@export("keras.initializers.HeNormal", "keras.initializers.he_normal")
class HeNormal(_Preset):
    """He normal: truncated normal of stddev ``sqrt(2 / fan_in)``.

    >>> tf.keras.initializers.HeNormal(seed=1)((3, 3, 8, 16)).shape
    TensorShape([3, 3, 8, 16])
    """

    _preset = {"scale": 2.0, "mode": "fan_in", "distribution": "truncated_normal"}


@export("keras.initializers.LecunUniform", "keras.initializers.lecun_uniform")
class LecunUniform(_Preset):
    """LeCun uniform: within ``±sqrt(3 / fan_in)``.

    >>> bool(abs(tf.keras.initializers.LecunUniform(seed=1)((3, 2)).numpy()).max() <= 1.0)
    True
    """

    _preset = {"scale": 1.0, "mode": "fan_in", "distribution": "uniform"}


@export("keras.initializers.LecunNormal", "keras.initializers.lecun_normal")
class LecunNormal(_Preset):
    """LeCun normal: truncated normal of stddev ``sqrt(1 / fan_in)``.

    >>> tf.keras.initializers.LecunNormal(seed=1)((3, 2)).shape
    TensorShape([3, 2])
    """

    _preset = {"scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal"}


@export("keras.initializers.Orthogonal", "keras.initializers.orthogonal")
class Orthogonal(_Random):
    """An orthogonal matrix times `gain` (orthonormal rows or columns, whichever are fewer);
    a shape of higher rank is a ``(prod(shape[:-1]), shape[-1])`` matrix reshaped.

    >>> q = tf.keras.initializers.Orthogonal(seed=1)((3, 3)).numpy()
    >>> bool(abs(q @ q.T - np.eye(3)).max() < 1e-5)
    True
    """

    def __init__(self, gain=1.0, seed=None):
        super().__init__(seed)
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        shape, dtype = _prepare(self, shape, dtype, kwargs, _floating, partitionable=False)
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        self._warn_reuse()
        rows, cols = math.prod(shape[:-1]), shape[-1]
        a = self._random_generator.random_normal((max(rows, cols), min(rows, cols)),
                                                 dtype=dtype)
        q, r = linalg_ops.qr(a)
        # QR is unique only up to the signs of r's diagonal; fixing them makes q uniformly
        # distributed over orthogonal matrices.
        q = math_ops.multiply(q, math_ops.sign(linalg_ops.tensor_diag_part(r)))
        if rows < cols:
            q = linalg_ops.matrix_transpose(q)
        return self.gain * array_ops.reshape(q, shape)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}


@export("keras.initializers.Identity", "keras.initializers.identity")
class Identity(Initializer):
    """`gain` times the identity matrix (2-D shapes only; rectangular ones allowed).

    >>> tf.keras.initializers.Identity(2.0)((2, 3)).numpy()
    array([[2., 0., 0.],
           [0., 2., 0.]], dtype=float32)
    """

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        shape, dtype = _prepare(self, shape, dtype, kwargs, _floating, partitionable=False)
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        return self.gain * array_ops.eye(*shape, dtype=dtype)

    def get_config(self):
        return {"gain": self.gain}


zeros = Zeros
ones = Ones
constant = Constant
random_uniform = RandomUniform
random_normal = RandomNormal
truncated_normal = TruncatedNormal
variance_scaling = VarianceScaling
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal
he_uniform = HeUniform
he_normal = HeNormal
lecun_uniform = LecunUniform
lecun_normal = LecunNormal
orthogonal = Orthogonal
identity = Identity


def _snake_case(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _names():
    """Every name an initializer config or string may use: class names, their snake_case
    forms, the ``V2`` names of configs saved by TF 2.0 to 2.2, and Keras 1's short names."""
    objects = {}
    for name, cls in list(globals().items()):
        if inspect.isclass(cls) and issubclass(cls, Initializer) and name == cls.__name__ \
                and not name.startswith("_"):
            objects[name] = objects[_snake_case(name)] = cls
            if cls is not Initializer:
                objects[name + "V2"] = cls
            if issubclass(cls, _Preset):
                objects[_snake_case(name) + "V2"] = cls
    objects.update(normal=RandomNormal, uniform=RandomUniform, one=Ones, zero=Zeros)
    return objects


_ALL_OBJECTS = _names()
_IDENTIFIERS = serialization.Identifiers("initializer", _ALL_OBJECTS, Initializer,
                                         "keras.initializers", instantiate=True)


@export("keras.initializers.serialize")
def serialize(initializer, use_legacy_format=False):
    """`initializer`'s config dict (``module``, ``class_name``, ``config``,
    ``registered_name``); only ``class_name`` and ``config`` in the legacy format.

    >>> tf.keras.initializers.serialize(tf.keras.initializers.Zeros())
    {'module': 'keras.initializers', 'class_name': 'Zeros', 'config': {}, 'registered_name': None}
    """
    return _IDENTIFIERS.serialize(initializer, use_legacy_format)


@export("keras.initializers.deserialize")
def deserialize(config, custom_objects=None, use_legacy_format=False):
    """The initializer a config dict or name describes (both formats are read alike).

    >>> tf.keras.initializers.deserialize({"class_name": "Constant", "config": {"value": 2}}).value
    2
    """
    return _IDENTIFIERS.deserialize(config, custom_objects)


@export("keras.initializers.get")
def get(identifier):
    """An initializer from a name, config dict, class (instantiated) or callable.

    >>> type(tf.keras.initializers.get("he_normal")).__name__
    'HeNormal'
    """
    return _IDENTIFIERS.get(identifier)
