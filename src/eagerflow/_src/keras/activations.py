"""Keras 2 activation functions (``tf.keras.activations``) and `get`/`serialize`/`deserialize`.

`softmax` and `sigmoid` remember their input as ``_keras_logits`` on the (eager) result,
so that crossentropy losses of their output are computed from the logits.

>>> tf.keras.activations.relu(tf.constant([-1.0, 2.0]), max_value=1.0)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
"""
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.keras.utils import serialization
from eagerflow._src.ops import array_ops, math_ops, nn_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.wrappers import as_tensor


def _with_logits(output, logits):
    # Eager results only: in graphs losses find the logits from the producing op, which
    # also covers `tf.nn.softmax` and `tf.sigmoid` as in TensorFlow.
    if type(output) is EagerTensor:
        output._keras_logits = logits
    return output


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along `axis` (an int or a tuple of ints); `x` of rank 2 or more.

    >>> tf.keras.activations.softmax(tf.constant([[0.0, 0.0]]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0.5, 0.5]], dtype=float32)>
    """
    x = as_tensor(x)
    rank = x.shape.rank
    if rank is not None and rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    if isinstance(axis, int):
        output = nn_ops.softmax(x, axis=axis)
    else:
        exps = math_ops.exp(math_ops.subtract(x, reduction_ops.reduce_max(x, axis,
                                                                          keepdims=True)))
        output = math_ops.truediv(exps, reduction_ops.reduce_sum(exps, axis, keepdims=True))
    return _with_logits(output, x)


def sigmoid(x):
    """1 / (1 + exp(-x)).

    >>> tf.keras.activations.sigmoid(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    x = as_tensor(x)
    return _with_logits(math_ops.sigmoid(x), x)


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """x above `threshold` (else 0), capped at `max_value`, minus alpha * (threshold - x) below.

    >>> tf.keras.activations.relu(tf.constant([-3.0, 1.0, 8.0]), alpha=0.5, max_value=6.0)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.5,  1. ,  6. ], dtype=float32)>
    """
    x = as_tensor(x)
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return nn_ops.leaky_relu(x, alpha=alpha)
        below = math_ops.negative(x)
        negative_part = nn_ops.relu(math_ops.add(below, threshold) if threshold != 0 else below)
    clip_max = max_value is not None
    if threshold != 0:
        x = math_ops.multiply(x, cast(math_ops.greater(x, threshold), x.dtype))
    elif max_value == 6:
        x = nn_ops.relu6(x)  # one op for the common relu6
        clip_max = False
    else:
        x = nn_ops.relu(x)
    if clip_max:
        x = reduction_ops.clip_by_value(x, as_tensor(0, x.dtype), as_tensor(max_value, x.dtype))
    if alpha != 0.0:
        x = math_ops.subtract(x, math_ops.multiply(as_tensor(alpha, x.dtype), negative_part))
    return x


def elu(x, alpha=1.0):
    """x if x > 0 else alpha * (exp(x) - 1).

    >>> tf.keras.activations.elu(tf.constant([-1.0, 2.0]), alpha=0.5)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.31606027,  2.        ], dtype=float32)>
    """
    x = as_tensor(x)
    res = nn_ops.elu(x)
    if alpha == 1:
        return res
    return array_ops.where(math_ops.greater(x, 0), res, math_ops.multiply(alpha, res))


def selu(x):
    """scale * elu(x, alpha), with Klambauer et al.'s self-normalizing constants.

    >>> tf.keras.activations.selu(tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.050701], dtype=float32)>
    """
    return nn_ops.selu(x)


def softplus(x):
    """log(exp(x) + 1).

    >>> tf.keras.activations.softplus(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.6931472], dtype=float32)>
    """
    return math_ops.softplus(x)


def softsign(x):
    """x / (|x| + 1).

    >>> tf.keras.activations.softsign(tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    return nn_ops.softsign(x)


def swish(x):
    """x * sigmoid(x) (also called silu).

    >>> tf.keras.activations.swish(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.7310586], dtype=float32)>
    """
    x = as_tensor(x)
    return math_ops.multiply(x, math_ops.sigmoid(x))


def gelu(x, approximate=False):
    """x * P(X <= x) for X ~ N(0, 1); with `approximate`, its tanh approximation.

    >>> tf.keras.activations.gelu(tf.constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.8413447], dtype=float32)>
    """
    return nn_ops.gelu(x, approximate)


def tanh(x):
    """The hyperbolic tangent.

    >>> tf.keras.activations.tanh(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.], dtype=float32)>
    """
    return math_ops.tanh(x)


def exponential(x):
    """exp(x).

    >>> tf.keras.activations.exponential(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    return math_ops.exp(x)


def hard_sigmoid(x):
    """Keras 2's piecewise-linear sigmoid: clip(0.2 * x + 0.5, 0, 1).

    >>> tf.keras.activations.hard_sigmoid(tf.constant([-3.0, 1.0, 3.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0. , 0.7, 1. ], dtype=float32)>
    """
    x = as_tensor(x)
    x = math_ops.add(math_ops.multiply(x, as_tensor(0.2, x.dtype)), as_tensor(0.5, x.dtype))
    return reduction_ops.clip_by_value(x, 0.0, 1.0)


def linear(x):
    """x, unchanged.

    >>> tf.keras.activations.linear(2.0)
    2.0
    """
    return x


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


def serialize(activation, use_legacy_format=False):
    """An activation's name (a config dict for objects with `get_config`).

    `use_legacy_format` is accepted for compatibility: both formats name functions alike.

    >>> tf.keras.activations.serialize(tf.keras.activations.relu)
    'relu'
    """
    return serialization.serialize_keras_object(activation)


def deserialize(name, custom_objects=None, use_legacy_format=False):
    """The activation a name (or config dict) refers to; both formats are read alike.

    >>> tf.keras.activations.deserialize("tanh") is tf.keras.activations.tanh
    True
    """
    if isinstance(name, str) and serialization.get_registered_object(
            name, custom_objects, _MODULE_OBJECTS) is None:
        raise ValueError(f"Unknown activation function '{name}' cannot be deserialized.")
    return serialization.deserialize_keras_object(name, _MODULE_OBJECTS, custom_objects,
                                                  "activation function")


def get(identifier):
    """An activation from a name, a config dict or a callable; None means `linear`.

    >>> tf.keras.activations.get("relu") is tf.keras.activations.relu
    True
    >>> tf.keras.activations.get(None) is tf.keras.activations.linear
    True
    """
    if identifier is None:
        return linear
    if not isinstance(identifier, (str, dict)) and not callable(identifier):
        raise TypeError(f"Could not interpret activation function identifier: {identifier}")
    if isinstance(identifier, str):
        return deserialize(identifier)
    return serialization.get(identifier, _MODULE_OBJECTS, "activation function")


_MODULE_OBJECTS = {name: globals()[name] for name in (
    "elu", "exponential", "gelu", "hard_sigmoid", "leaky_relu", "linear", "log_softmax", "mish",
    "relu", "relu6", "selu", "sigmoid", "silu", "softmax", "softplus", "softsign", "swish",
    "tanh")}
