"""TF 1's random initializers (``tf.compat.v1.random_normal_initializer`` and kin).

Unlike Keras's, they draw with the stateful random ops, so an unseeded one takes its op
seed from the graph's sequence under `set_random_seed`: a TF 1 program's initial values
are those TF gives it. Their defaults are TF 1's (unit standard deviation, ``[0, 1)``),
and they take a `dtype`.

>>> init = tf.compat.v1.truncated_normal_initializer(stddev=0.1, seed=3)
>>> init([2]).shape, init.stddev, init.get_config()["dtype"]
(TensorShape([2]), 0.1, 'float32')
"""

import math

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.compat import v1_names as _v1_names
from eagerflow._src.core import dtypes as _d
from eagerflow._src.keras import initializers as _init
from eagerflow._src.ops import array_ops, linalg_ops, math_ops, random_ops


def _fans(shape):
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    receptive = math.prod(shape[:-2])
    return int(shape[-2] * receptive), int(shape[-1] * receptive)


def _shape(shape):
    return [int(d) for d in shape]


class _V1(_init.Initializer):
    """A TF 1 initializer: its `dtype` is the default of ``__call__``'s."""

    def __init__(self, seed=None, dtype=_d.float32):
        self.seed = seed
        self.dtype = _d.as_dtype(dtype)

    def _dtype(self, dtype):
        return _d.as_dtype(dtype) if dtype is not None else self.dtype

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("partition_info", None)
        return cls(**config)


class Zeros(_V1):
    """Zeros of the dtype asked (strings too: empty ones).

    >>> tf.compat.v1.zeros_initializer(dtype=tf.int32)([2]).numpy()
    array([0, 0], dtype=int32)
    """

    def __init__(self, dtype=_d.float32):
        self.dtype = _d.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return array_ops.zeros(shape, self._dtype(dtype))

    def get_config(self):
        return {"dtype": self.dtype.name}


class Ones(Zeros):
    """Ones of the dtype asked."""

    def __call__(self, shape, dtype=None, partition_info=None):
        return array_ops.ones(shape, self._dtype(dtype))


class Constant(_V1):
    """`value` (a scalar, or values in the order of the shape) as TF 1's `tf.constant` makes
    it of `shape`: while a graph is built, fewer values than the shape holds are padded
    with the last one; with `verify_shape`, `value` must have the shape exactly.

    >>> tf.compat.v1.constant_initializer(3, dtype=tf.int32)([2]).numpy()
    array([3, 3], dtype=int32)
    """

    def __init__(self, value=0, dtype=_d.float32, verify_shape=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value)} (expected Python "
                            f"scalar, list or tuple of values, or numpy.ndarray).")
        self.value, self._verify_shape = value, verify_shape
        self.dtype = _d.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        verify = self._verify_shape if verify_shape is None else verify_shape
        return _v1_names.constant(self.value, self._dtype(dtype), shape, verify_shape=verify)

    def get_config(self):
        # (the value as given: a numpy array stays one, as TF's config keeps it)
        return {"value": self.value, "dtype": self.dtype.name}


class RandomUniform(_V1):
    """Uniform values in ``[minval, maxval)`` (``maxval`` 1 for floats when None)."""

    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=_d.float32):
        super().__init__(seed, dtype)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.uniform(_shape(shape), self.minval, self.maxval, self._dtype(dtype),
                                  seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, **super().get_config()}


@export("compat.v1.uniform_unit_scaling_initializer",
        "compat.v1.initializers.uniform_unit_scaling")
class UniformUnitScaling(_V1):
    """Uniform values in ``[-m, m)``, ``m = factor * sqrt(3 / input_size)``, the input size
    the product of the dimensions but the last (of the whole variable for a shard): the
    scale that keeps a linear layer's output variance (deprecated in TF 1 for
    `variance_scaling_initializer`).

    >>> init = tf.compat.v1.uniform_unit_scaling_initializer(seed=1)
    >>> bool(tf.reduce_max(tf.abs(init([12, 4]))) <= 0.5)
    True
    """

    def __init__(self, factor=1.0, seed=None, dtype=_d.float32):
        dtype = _d.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError(f"Argument `dtype` is expected to be floating point. Received: "
                             f"{dtype}.")
        super().__init__(seed, dtype)
        self.factor = factor

    def __call__(self, shape, dtype=None, partition_info=None):
        shape = _shape(shape)
        scale_shape = shape if partition_info is None else _shape(partition_info.full_shape)
        input_size = max(math.prod(float(d) for d in scale_shape[:-1]), 1.0)
        limit = math.sqrt(3 / input_size) * self.factor
        return random_ops.uniform(shape, -limit, limit, self._dtype(dtype), seed=self.seed)

    def get_config(self):
        return {"factor": self.factor, **super().get_config()}


class RandomNormal(_V1):
    """Normal values of mean `mean` and standard deviation `stddev`."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=_d.float32):
        super().__init__(seed, dtype)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.normal(_shape(shape), self.mean, self.stddev, self._dtype(dtype),
                                 seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, **super().get_config()}


class TruncatedNormal(RandomNormal):
    """Normal values, those beyond two standard deviations redrawn."""

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.truncated_normal(_shape(shape), self.mean, self.stddev,
                                           self._dtype(dtype), seed=self.seed)


class VarianceScaling(_V1):
    """Values of variance ``scale / fans`` (fans by `mode`), drawn by `distribution`."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=_d.float32):
        if scale <= 0.0:
            raise ValueError("`scale` must be positive float.")
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError(f"Invalid `mode` argument: {mode}")
        distribution = distribution.lower()
        if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError(f"Invalid `distribution` argument: {distribution}")
        super().__init__(seed, dtype)
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def __call__(self, shape, dtype=None, partition_info=None):
        shape, dtype = _shape(shape), self._dtype(dtype)
        # (a shard of a partitioned variable is scaled as the whole variable)
        fan_in, fan_out = _fans(shape if partition_info is None
                                else _shape(partition_info.full_shape))
        fans = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}
        scale = self.scale / max(1.0, fans[self.mode])
        if self.distribution in ("normal", "truncated_normal"):
            # the standard deviation of a unit normal truncated at two deviations
            return random_ops.truncated_normal(shape, 0.0, math.sqrt(scale) / .87962566103423978,
                                               dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.uniform(shape, -limit, limit, dtype, seed=self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                **super().get_config()}


def _preset(name, scale, mode, distribution, doc):
    def __init__(self, seed=None, dtype=_d.float32):
        VarianceScaling.__init__(self, scale, mode, distribution, seed, dtype)

    def get_config(self):
        return _V1.get_config(self)
    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                           "__doc__": doc, "__module__": __name__})


GlorotUniform = _preset("GlorotUniform", 1.0, "fan_avg", "uniform",
                        "Uniform values of variance ``2 / (fan_in + fan_out)``.")
GlorotNormal = _preset("GlorotNormal", 1.0, "fan_avg", "truncated_normal",
                       "Truncated normal values of variance ``2 / (fan_in + fan_out)``.")


def he_normal(seed=None):
    """Truncated normal values of variance ``2 / fan_in``."""
    return VarianceScaling(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed=None):
    """Uniform values of variance ``2 / fan_in``."""
    return VarianceScaling(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed=None):
    """Truncated normal values of variance ``1 / fan_in``."""
    return VarianceScaling(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed=None):
    """Uniform values of variance ``1 / fan_in``."""
    return VarianceScaling(1.0, "fan_in", "uniform", seed)


class Orthogonal(_V1):
    """An orthogonal matrix times `gain`, of a normal matrix's QR decomposition."""

    def __init__(self, gain=1.0, seed=None, dtype=_d.float32):
        super().__init__(seed, dtype)
        self.gain = gain

    def __call__(self, shape, dtype=None, partition_info=None):
        shape, dtype = _shape(shape), self._dtype(dtype)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional")
        rows, cols = math.prod(shape[:-1]), shape[-1]
        flat = (cols, rows) if rows < cols else (rows, cols)
        q, r = linalg_ops.qr(random_ops.normal(flat, dtype=dtype, seed=self.seed))
        q = math_ops.multiply(q, math_ops.sign(linalg_ops.tensor_diag_part(r)))
        if rows < cols:
            q = linalg_ops.matrix_transpose(q)
        return self.gain * array_ops.reshape(q, shape)

    def get_config(self):
        return {"gain": self.gain, **super().get_config()}


class Identity(_V1):
    """`gain` times the identity matrix (2-D shapes), of `dtype` unless called with another.

    >>> tf.compat.v1.initializers.identity(dtype=tf.float64)([2, 2]).dtype
    tf.float64
    """

    def __init__(self, gain=1.0, dtype=_d.float32):
        self.gain = gain
        self.dtype = _d.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return _init.Identity(self.gain)(shape, self._dtype(dtype))

    def get_config(self):
        return {"gain": self.gain, "dtype": self.dtype.name}


def from_keras(initializer):
    """TF 1's counterpart of a Keras random initializer (the same distribution, drawn by
    the stateful ops), as Keras resolves initializers once TF 2's behaviour is disabled;
    any other initializer as it is."""
    init = initializer
    if isinstance(init, _init.VarianceScaling):
        return VarianceScaling(init.scale, init.mode, init.distribution, init.seed)
    if isinstance(init, _init.TruncatedNormal):
        return TruncatedNormal(init.mean, init.stddev, init.seed)
    if isinstance(init, _init.RandomNormal):
        return RandomNormal(init.mean, init.stddev, init.seed)
    if isinstance(init, _init.RandomUniform):
        return RandomUniform(init.minval, init.maxval, init.seed)
    if isinstance(init, _init.Orthogonal):
        return Orthogonal(init.gain, init.seed)
    return initializer
