"""Weight constraints (``tf.keras.constraints``): projections applied to a weight after
each optimizer update.

Norms are taken along `axis` (default 0: over the inputs of each unit of a
``Dense`` kernel; ``[0, 1, 2]`` for each filter of a ``Conv2D`` kernel).

>>> tf.keras.constraints.MaxNorm(1.0)(tf.constant([[3.0], [4.0]])).numpy().ravel()
array([0.6, 0.8], dtype=float32)
>>> tf.keras.constraints.get("non_neg")(tf.constant([-1.0, 2.0])).numpy()
array([-0.,  2.], dtype=float32)
"""

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import convert
from eagerflow._src.keras import backend
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import array_ops, cast_ops, math_ops, reduction_ops


@export("keras.constraints.Constraint")
class Constraint:
    """Base class of constraints: subclasses implement ``__call__(w)`` returning the
    projected weight (the base returns `w` unchanged).

    >>> class Clip(tf.keras.constraints.Constraint):
    ...     def __call__(self, w):
    ...         return tf.clip_by_value(w, -1.0, 1.0)
    >>> Clip()(tf.constant([-3.0, 0.5])).numpy()
    array([-1. ,  0.5], dtype=float32)
    """

    def __call__(self, w):
        return w

    def get_config(self):
        """The constructor arguments, as a JSON-serializable dict."""
        return {}

    @classmethod
    def from_config(cls, config):
        """A constraint built from `get_config`'s output."""
        return cls(**config)


def _norms(w, axis):
    return math_ops.sqrt(reduction_ops.reduce_sum(math_ops.square(w), axis=axis,
                                                  keepdims=True))


def _clip(x, min_value, max_value):
    # As Keras's backend.clip: an upper bound below the lower one becomes the lower one.
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) \
            and max_value < min_value:
        max_value = min_value
    return reduction_ops.clip_by_value(x, min_value, max_value)


def _rescale(w, norms, desired):
    """`w` with its norms scaled to `desired` (epsilon keeps zero vectors at zero)."""
    return w * (desired / (backend.epsilon() + norms))


@export("keras.constraints.MaxNorm", "keras.constraints.max_norm")
class MaxNorm(Constraint):
    """Rescales vectors whose norm along `axis` exceeds `max_value` down to it.

    >>> tf.keras.constraints.MaxNorm(2.0, axis=1)(tf.constant([[3.0, 4.0]])).numpy()
    array([[1.2, 1.6]], dtype=float32)
    """

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        return _rescale(w, norms, _clip(norms, 0, self.max_value))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


@export("keras.constraints.NonNeg", "keras.constraints.non_neg")
class NonNeg(Constraint):
    """Zeroes the negative weights.

    >>> tf.keras.constraints.NonNeg()(tf.constant([-1.0, 2.0])).numpy()
    array([-0.,  2.], dtype=float32)
    """

    def __call__(self, w):
        return w * cast_ops.cast(math_ops.greater_equal(w, 0.0), backend.floatx())


@export("keras.constraints.UnitNorm", "keras.constraints.unit_norm")
class UnitNorm(Constraint):
    """Rescales vectors along `axis` to norm 1.

    >>> tf.keras.constraints.UnitNorm(axis=1)(tf.constant([[3.0, 4.0]])).numpy()
    array([[0.6, 0.8]], dtype=float32)
    """

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (backend.epsilon() + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


@export("keras.constraints.MinMaxNorm", "keras.constraints.min_max_norm")
class MinMaxNorm(Constraint):
    """Moves norms along `axis` a fraction `rate` of the way into [min_value, max_value]:
    ``rate * clip(norm) + (1 - rate) * norm`` (`rate=1` enforces the bounds exactly).

    >>> constraint = tf.keras.constraints.MinMaxNorm(1.0, 2.0, rate=0.5, axis=1)
    >>> constraint(tf.constant([[0.0, 4.0]])).numpy()
    array([[0., 3.]], dtype=float32)
    """

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = (self.rate * _clip(norms, self.min_value, self.max_value)
                   + (1 - self.rate) * norms)
        return _rescale(w, norms, desired)

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


def _radial_sources(size):
    """For a ``size x size`` kernel, the diagonal index whose value fills each position.

    Positions on one square ring around the centre share a value, taken from the
    diagonal as Keras takes it: the centre (a cell, or a 2x2 block for even sizes)
    from index ``size // 2 - 1``, the ring at distance ``d >= 1`` from
    ``size // 2 + d - 1`` (odd sizes) or ``size // 2 + d`` (even sizes).

    >>> _radial_sources(3)
    array([[1, 1, 1],
           [1, 0, 1],
           [1, 1, 1]])
    """
    half = size // 2
    i = np.arange(size)
    distance = np.abs(i - half) if size % 2 else np.maximum(half - 1 - i, i - half)
    ring = np.maximum.outer(distance, distance)
    return np.where(ring == 0, half - 1, half + ring - size % 2)


@export("keras.constraints.RadialConstraint", "keras.constraints.radial_constraint")
class RadialConstraint(Constraint):
    """Makes each ``(height, width)`` slice of a square Conv2D kernel constant on square
    rings around its centre, each ring taking one of the kernel's diagonal values.

    >>> k = tf.keras.constraints.RadialConstraint()(tf.reshape(tf.range(9.0), (3, 3, 1, 1)))
    >>> tf.reshape(k, (3, 3)).numpy()
    array([[4., 4., 4.],
           [4., 0., 4.],
           [4., 4., 4.]], dtype=float32)
    """

    def __call__(self, w):
        shape = w.shape
        if shape.rank != 4:
            raise ValueError(f"The weight tensor must have rank 4. Received weight tensor "
                             f"with shape: {shape}")
        sources = _radial_sources(shape[0])
        indices = convert.constant(np.stack([sources, sources], axis=-1).astype(np.int32))
        return array_ops.reshape(array_ops.gather_nd(w, indices), shape)


max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm
radial_constraint = RadialConstraint

_ALL_OBJECTS = {
    "Constraint": Constraint, "MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm,
    "MinMaxNorm": MinMaxNorm, "RadialConstraint": RadialConstraint, "max_norm": max_norm,
    "non_neg": non_neg, "unit_norm": unit_norm, "min_max_norm": min_max_norm,
    "radial_constraint": radial_constraint,
    # Keras 1's names, still found in saved configs.
    "maxnorm": MaxNorm, "nonneg": NonNeg, "unitnorm": UnitNorm}
_IDENTIFIERS = serialization.Identifiers("constraint", _ALL_OBJECTS, Constraint,
                                         "keras.constraints", get_kind="constraint function")


@export("keras.constraints.serialize")
def serialize(constraint, use_legacy_format=False):
    """`constraint`'s config dict (``module``, ``class_name``, ``config``,
    ``registered_name``); only ``class_name`` and ``config`` in the legacy format.

    >>> tf.keras.constraints.serialize(tf.keras.constraints.MaxNorm(3))["config"]
    {'max_value': 3, 'axis': 0}
    """
    return _IDENTIFIERS.serialize(constraint, use_legacy_format)


@export("keras.constraints.deserialize")
def deserialize(config, custom_objects=None, use_legacy_format=False):
    """The constraint a config dict or name describes (both formats are read alike).

    >>> tf.keras.constraints.deserialize({"class_name": "UnitNorm", "config": {"axis": 1}}).axis
    1
    """
    return _IDENTIFIERS.deserialize(config, custom_objects)


@export("keras.constraints.get")
def get(identifier):
    """A constraint from a name (a default instance), a config dict or a callable
    (returned as is, classes included).

    >>> tf.keras.constraints.get("max_norm").get_config()
    {'max_value': 2, 'axis': 0}
    """
    return _IDENTIFIERS.get(identifier)
