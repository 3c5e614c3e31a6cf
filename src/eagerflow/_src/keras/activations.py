"""Keras 2 activation functions (``tf.keras.activations``) and `get`/`serialize`/`deserialize`.

`softmax` and `sigmoid` remember their input as ``_keras_logits`` on the result,
so that crossentropy losses of their output are computed from the logits.

>>> tf.keras.activations.relu(tf.constant([-1.0, 2.0]), max_value=1.0)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
"""
from eagerflow._src.keras import backend
from eagerflow._src.keras.backend import with_logits as _with_logits
from eagerflow._src.backend.api_export import export
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import math_ops, nn_ops
from eagerflow._src.ops.wrappers import as_tensor


@export("keras.activations.softmax")
def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along `axis` (an int or a tuple of ints); `x` of rank 2 or more.

    >>> tf.keras.activations.softmax(tf.constant([[0.0, 0.0]]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0.5, 0.5]], dtype=float32)>
    """
    return backend.softmax(x, axis)


@export("keras.activations.sigmoid")
def sigmoid(x):
    """1 / (1 + exp(-x)).

    >>> tf.keras.activations.sigmoid(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    x = as_tensor(x)
    return _with_logits(math_ops.sigmoid(x), x)


@export("keras.activations.relu")
def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """x above `threshold` (else 0), capped at `max_value`, minus alpha * (threshold - x) below.

    >>> tf.keras.activations.relu(tf.constant([-3.0, 1.0, 8.0]), alpha=0.5, max_value=6.0)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.5,  1. ,  6. ], dtype=float32)>
    """
    return backend.relu(x, alpha=alpha, max_value=max_value, threshold=threshold)


@export("keras.activations.elu")
def elu(x, alpha=1.0):
    """x if x > 0 else alpha * (exp(x) - 1).

    >>> tf.keras.activations.elu(tf.constant([-1.0, 2.0]), alpha=0.5)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.31606027,  2.        ], dtype=float32)>
    """
    return backend.elu(x, alpha)


@export("keras.activations.selu")
def selu(x):
    """scale * elu(x, alpha), with Klambauer et al.'s self-normalizing constants.

    >>> tf.keras.activations.selu(tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.050701], dtype=float32)>
    """
    return nn_ops.selu(x)


@export("keras.activations.softplus")
def softplus(x):
    """log(exp(x) + 1).

    >>> tf.keras.activations.softplus(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.6931472], dtype=float32)>
    """
    return math_ops.softplus(x)


@export("keras.activations.softsign")
def softsign(x):
    """x / (|x| + 1).

    >>> tf.keras.activations.softsign(tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    return nn_ops.softsign(x)


@export("keras.activations.swish", "keras.activations.silu")
def swish(x):
    """x * sigmoid(x) (also called silu).

    >>> tf.keras.activations.swish(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.7310586], dtype=float32)>
    """
    x = as_tensor(x)
    return math_ops.multiply(x, math_ops.sigmoid(x))


@export("keras.activations.gelu")
def gelu(x, approximate=False):
    """x * P(X <= x) for X ~ N(0, 1); with `approximate`, its tanh approximation.

    >>> tf.keras.activations.gelu(tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.8413447], dtype=float32)>
    """
    return nn_ops.gelu(x, approximate)


@export("keras.activations.tanh")
def tanh(x):
    """The hyperbolic tangent.

    >>> tf.keras.activations.tanh(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.], dtype=float32)>
    """
    return math_ops.tanh(x)


@export("keras.activations.exponential")
def exponential(x):
    """exp(x).

    >>> tf.keras.activations.exponential(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    return math_ops.exp(x)


@export("keras.activations.hard_sigmoid")
def hard_sigmoid(x):
    """Keras 2's piecewise-linear sigmoid: clip(0.2 * x + 0.5, 0, 1).

    >>> tf.keras.activations.hard_sigmoid(tf.constant([-3.0, 1.0, 3.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0. , 0.7, 1. ], dtype=float32)>
    """
    return backend.hard_sigmoid(x)


@export("keras.activations.linear")
def linear(x):
    """x, unchanged.

    >>> tf.keras.activations.linear(2.0)
    2.0
    """
    return x


@export("keras.activations.mish")
def mish(x):
    """x * tanh(softplus(x)).

    >>> tf.keras.activations.mish(tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.8650984], dtype=float32)>
    """
    x = as_tensor(x)
    return math_ops.multiply(x, math_ops.tanh(math_ops.softplus(x)))


silu = swish
leaky_relu = nn_ops.leaky_relu
log_softmax = nn_ops.log_softmax
relu6 = nn_ops.relu6


@export("keras.activations.serialize")
def serialize(activation, use_legacy_format=False):
    """An activation's name (a config dict for objects with `get_config`).

    `use_legacy_format` is accepted for compatibility: both formats name functions alike.

    >>> tf.keras.activations.serialize(tf.keras.activations.relu)
    'relu'
    """
    return _IDENTIFIERS.serialize(activation, use_legacy_format)


@export("keras.activations.deserialize")
def deserialize(name, custom_objects=None, use_legacy_format=False):
    """The activation a name (or config dict) refers to; both formats are read alike.

    >>> tf.keras.activations.deserialize("tanh") is tf.keras.activations.tanh
    True
    """
    return _IDENTIFIERS.deserialize(name, custom_objects)


@export("keras.activations.get")
def get(identifier):
    """An activation from a name, a config dict or a callable; None means `linear`.

    >>> tf.keras.activations.get("relu") is tf.keras.activations.relu
    True
    >>> tf.keras.activations.get(None) is tf.keras.activations.linear
    True
    """
    return _IDENTIFIERS.get(identifier)


_MODULE_OBJECTS = {name: globals()[name] for name in (
    "elu", "exponential", "gelu", "hard_sigmoid", "leaky_relu", "linear", "log_softmax", "mish",
    "relu", "relu6", "selu", "sigmoid", "silu", "softmax", "softplus", "softsign", "swish",
    "tanh")}
_IDENTIFIERS = serialization.Identifiers(
    "activation function", _MODULE_OBJECTS, none=linear, get_error=TypeError, names_builtins=True,
    unknown="Unknown activation function '{}' cannot be deserialized.")
