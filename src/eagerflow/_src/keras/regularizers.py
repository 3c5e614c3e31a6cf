"""Weight penalties (``tf.keras.regularizers``): callables from a tensor to a scalar loss.

Factors are stored as `floatx()` NumPy scalars, as Keras stores them, so a
penalty on float64 weights uses the float32-rounded factor, like tf_keras.

>>> tf.keras.regularizers.L2(0.5)(tf.constant([1.0, 2.0]))
<tf.Tensor: shape=(), dtype=float32, numpy=2.5>
>>> tf.keras.regularizers.get("l1").get_config()
{'l1': 0.009999999776482582}
"""
import math

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import convert
from eagerflow._src.keras import backend
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import array_ops, linalg_ops, math_ops, nn_ops, reduction_ops


def _check_penalty_number(x):
    if not isinstance(x, (float, int)):
        raise ValueError(f"Value {x} is not a valid regularization penalty number, expected "
                         f"an int or float value.")
    if math.isinf(x) or math.isnan(x):
        raise ValueError(f"Value {x} is not a valid regularization penalty number, an "
                         f"infinite number or NaN are not valid values.")


def _factor(value, default=None):
    """`value` (or `default` for None) checked and stored as a `floatx()` scalar."""
    value = default if value is None else value
    _check_penalty_number(value)
    return backend.cast_to_floatx(value)


def _single_factor(value, kwargs):
    """The factor of `L1`/`L2`, which also accept it as ``l`` (its name before TF 2.3)."""
    value = kwargs.pop("l", value)
    if kwargs:
        raise TypeError(f"Argument(s) not recognized: {kwargs}")
    return _factor(value, 0.01)


def _l1(factor, x):
    return factor * reduction_ops.reduce_sum(math_ops.abs(x))


def _l2(factor, x):
    # l2_loss halves the sum of squares, hence the 2.
    return 2.0 * factor * nn_ops.l2_loss(x)


@export("keras.regularizers.Regularizer")
class Regularizer:
    """Base class of regularizers: subclasses implement ``__call__(x)`` and `get_config`.

    >>> class Sum(tf.keras.regularizers.Regularizer):
    ...     def __call__(self, x):
    ...         return tf.reduce_sum(x)
    ...     def get_config(self):
    ...         return {}
    >>> Sum()(tf.constant([1.0, 2.0])).numpy()
    np.float32(3.0)
    """

    def __call__(self, x):
        return 0.0

    def get_config(self):
        """The constructor arguments, as a JSON-serializable dict."""
        raise NotImplementedError(f"{self} does not implement get_config()")

    @classmethod
    def from_config(cls, config):
        """A regularizer built from `get_config`'s output."""
        return cls(**config)


@export("keras.regularizers.L1L2")
class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x ** 2)`` (both factors default to 0 here, to 0.01 in
    `l1_l2` and the ``"l1_l2"`` identifier).

    >>> tf.keras.regularizers.L1L2(l1=1.0, l2=1.0)(tf.constant([1.0, -2.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=8.0>
    """

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _factor(l1, 0.0)
        self.l2 = _factor(l2, 0.0)

    def __call__(self, x):
        penalty = convert.constant(0.0, dtype=x.dtype)
        if self.l1:
            penalty += _l1(self.l1, x)
        if self.l2:
            penalty += _l2(self.l2, x)
        return penalty

    def get_config(self):
        return {"l1": float(self.l1), "l2": float(self.l2)}


@export("keras.regularizers.L1", "keras.regularizers.l1")
class L1(Regularizer):
    """``l1 * sum(|x|)``.

    >>> tf.keras.regularizers.L1(0.5)(tf.constant([1.0, -2.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1.5>
    """

    def __init__(self, l1=0.01, **kwargs):
        self.l1 = _single_factor(l1, kwargs)

    def __call__(self, x):
        return _l1(self.l1, x)

    def get_config(self):
        return {"l1": float(self.l1)}


@export("keras.regularizers.L2", "keras.regularizers.l2")
class L2(Regularizer):
    """``l2 * sum(x ** 2)``.

    >>> tf.keras.regularizers.L2(0.5)(tf.constant([1.0, -2.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=2.5>
    """

    def __init__(self, l2=0.01, **kwargs):
        self.l2 = _single_factor(l2, kwargs)

    def __call__(self, x):
        return _l2(self.l2, x)

    def get_config(self):
        return {"l2": float(self.l2)}


@export("keras.regularizers.OrthogonalRegularizer", "keras.regularizers.orthogonal_regularizer")
class OrthogonalRegularizer(Regularizer):
    """``factor`` times the mean absolute cosine between distinct rows (``mode="rows"``) or
    columns (``mode="columns"``) of a matrix: 0 when they are orthogonal.

    >>> tf.keras.regularizers.OrthogonalRegularizer(1.0)(
    ...     tf.constant([[1.0, 0.0], [0.0, 1.0]])).numpy()
    np.float32(0.0)
    """

    def __init__(self, factor=0.01, mode="rows"):
        _check_penalty_number(factor)
        self.factor = backend.cast_to_floatx(factor)
        if mode not in {"rows", "columns"}:
            raise ValueError(f'Invalid value for argument `mode`. Expected one of '
                             f'{{"rows", "columns"}}. Received: mode={mode}')
        self.mode = mode

    def __call__(self, inputs):
        if inputs.shape.rank != 2:
            raise ValueError(f"Inputs to OrthogonalRegularizer must have rank 2. Received: "
                             f"inputs.shape == {inputs.shape}")
        axis = 1 if self.mode == "rows" else 0
        unit = reduction_ops.l2_normalize(inputs, axis=axis)
        cosines = linalg_ops.matmul(unit, unit, transpose_a=axis == 0, transpose_b=axis == 1)
        size = inputs.shape[1 - axis]
        off_diagonal = cosines * (1.0 - array_ops.eye(size, dtype=inputs.dtype))
        # Each pair appears twice in the matrix, hence the halving.
        num_pairs = size * (size - 1.0) / 2.0
        return (self.factor * 0.5 * reduction_ops.reduce_sum(math_ops.abs(off_diagonal))
                / num_pairs)

    def get_config(self):
        return {"factor": float(self.factor), "mode": self.mode}


@export("keras.regularizers.l1_l2")
def l1_l2(l1=0.01, l2=0.01):
    """An `L1L2` regularizer, both factors defaulting to 0.01.

    >>> tf.keras.regularizers.l1_l2().get_config()
    {'l1': 0.009999999776482582, 'l2': 0.009999999776482582}
    """
    return L1L2(l1=l1, l2=l2)


l1 = L1
l2 = L2
orthogonal_regularizer = OrthogonalRegularizer

_ALL_OBJECTS = {
    "Regularizer": Regularizer, "L1": L1, "L2": L2, "L1L2": L1L2,
    "OrthogonalRegularizer": OrthogonalRegularizer, "l1": l1, "l2": l2, "l1_l2": l1_l2,
    "orthogonal_regularizer": orthogonal_regularizer}
# The function's name stands for its default regularizer.
_IDENTIFIERS = serialization.Identifiers("regularizer", _ALL_OBJECTS, Regularizer,
                                         "keras.regularizers", factories={"l1_l2": l1_l2},
                                         unknown_names_pass=True)


@export("keras.regularizers.serialize")
def serialize(regularizer, use_legacy_format=False):
    """`regularizer`'s config dict (``module``, ``class_name``, ``config``,
    ``registered_name``); only ``class_name`` and ``config`` in the legacy format.

    >>> tf.keras.regularizers.serialize(tf.keras.regularizers.L1(0.5))["config"]
    {'l1': 0.5}
    """
    return _IDENTIFIERS.serialize(regularizer, use_legacy_format)


@export("keras.regularizers.deserialize")
def deserialize(config, custom_objects=None, use_legacy_format=False):
    """The regularizer a config dict or name describes (both formats are read alike).

    >>> tf.keras.regularizers.deserialize("l1_l2").get_config()
    {'l1': 0.009999999776482582, 'l2': 0.009999999776482582}
    """
    return _IDENTIFIERS.deserialize(config, custom_objects)


@export("keras.regularizers.get")
def get(identifier):
    """A regularizer from a name (an instance with default factors), a config dict or a
    callable (returned as is, classes included).

    >>> tf.keras.regularizers.get("l2").get_config()
    {'l2': 0.009999999776482582}
    """
    return _IDENTIFIERS.get(identifier)
