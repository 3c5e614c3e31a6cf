"""TF 2's initializers of the top-level namespace (``tf.zeros_initializer`` and kin).

Each is an object called as ``init(shape, dtype)`` for a tensor of that shape. The random
ones with a `seed` draw from the stateless ops with seed ``[seed, 0]`` (the same values at
every call); without one, from the stateful ops under the global seed, as TF's do.

>>> tf.constant_initializer([1, 2])(shape=[2], dtype=tf.float32)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import constant
from eagerflow._src.ops import array_ops, random_ops


class Initializer:
    """Base of the initializers: ``__call__(shape, dtype)``, `get_config`, `from_config`."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError("Initializer subclasses must implement the __call__() method.")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config.pop("dtype", None)
        return cls(**config)

    _partitionable = True

    def _validate_kwargs(self, kwargs, shape=None):
        """`shape`, or the partition's shape that `kwargs` give (a partitioned variable's)."""
        for key in kwargs:
            if key not in ("partition_shape", "partition_offset"):
                raise TypeError(f"Keyword argument should be one of "
                                f"['partition_shape', 'partition_offset']. Received: {key}")
            if not self._partitionable:
                raise ValueError(f"{type(self).__name__} initializer doesn't support "
                                 f"partition-related arguments")
        return kwargs.get("partition_shape", shape)


def _numeric(dtype):
    dtype = _d.as_dtype(dtype)
    if not dtype.is_numpy_compatible or dtype == _d.string:
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype}.")
    return dtype


def _floating(dtype):
    dtype = _d.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype}.")
    return dtype


@export("zeros_initializer")
class Zeros(Initializer):
    """Tensors of zeros."""

    def __call__(self, shape, dtype=_d.float32, **kwargs):
        shape = self._validate_kwargs(kwargs, shape)
        return array_ops.zeros(shape, _numeric(dtype))


@export("ones_initializer")
class Ones(Initializer):
    """Tensors of ones."""

    def __call__(self, shape, dtype=_d.float32, **kwargs):
        shape = self._validate_kwargs(kwargs, shape)
        return array_ops.ones(shape, _numeric(dtype))


@export("constant_initializer")
class Constant(Initializer):
    """Tensors holding `value` (a scalar fills the shape; a list or array gives every value)."""

    def __init__(self, value=0, support_partition=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__}. Expected Python scalar, list or tuple of "
                            f"values, or numpy.ndarray.")
        self.value = value
        self._partitionable = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        self._validate_kwargs(kwargs)  # (the whole shape: a scalar fills a shard alike)
        return constant(self.value, dtype=None if dtype is None else _d.as_dtype(dtype),
                        shape=shape)

    def get_config(self):
        return {"value": self.value}


class _Random(Initializer):
    def __init__(self, seed):
        self.seed = seed

    def _seed(self):
        return None if self.seed is None else [self.seed, 0]


@export("random_uniform_initializer")
class RandomUniform(_Random):
    """Values drawn uniformly from ``[minval, maxval)``."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def __call__(self, shape, dtype=_d.float32, **kwargs):
        shape = self._validate_kwargs(kwargs, shape)
        dtype = _d.as_dtype(dtype)
        if not dtype.is_floating and not dtype.is_integer:
            raise ValueError(f"Argument `dtype` expected to be numeric or boolean. "
                             f"Received {dtype}.")
        if self.seed is None:
            return random_ops.uniform(shape, self.minval, self.maxval, dtype)
        return random_ops.stateless_uniform(shape, self._seed(), self.minval, self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


@export("random_normal_initializer")
class RandomNormal(_Random):
    """Values drawn from a normal distribution."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def __call__(self, shape, dtype=_d.float32, **kwargs):
        shape = self._validate_kwargs(kwargs, shape)
        dtype = _floating(dtype)
        if self.seed is None:
            return random_ops.normal(shape, self.mean, self.stddev, dtype)
        return random_ops.stateless_normal(shape, self._seed(), self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}
