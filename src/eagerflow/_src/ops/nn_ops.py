"""Neural-network ops: activations, softmax, losses, normalization, dropout and lookups.

Ops with a kernel of their own (`Relu`, `Softmax`, `SoftmaxCrossEntropyWithLogits`, ...)
are registered under TensorFlow's names; the rest (`gelu`, `moments`, `dropout`,
`batch_normalization`, ...) are composites of registered ops, as in TensorFlow,
so their gradients come from the ops they use.

>>> tf.nn.relu(tf.constant([-1.0, 2.0]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
"""
import numbers
import types

import numpy as np

from eagerflow._src.backend import onednn_eltwise
from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, distribution_context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core import registry
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.registry import (
    attr_dtype_error, check_dtypes, fixed_input_error, register, register_gradient,
    same_shape)
from eagerflow._src.core.convert import convert_input, get_static_value, is_tensor_like
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.core.registry import NN_FLOAT, NUMBER_TYPES, REAL_NUMBER_TYPES
from eagerflow._src.ops import array_ops, float_math, half_sums, late, math_ops, reduction_ops
from eagerflow._src.ops import partition_ops
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.cast_ops import cast, identity, stop_gradient
from eagerflow._src.ops.wrappers import as_tensor, name_functions, unary

_HALF_TYPES = (np.dtype(np.float16), np.dtype(_d.bfloat16.as_numpy_dtype))
_FLOAT16 = np.dtype(np.float16)
_BFLOAT16 = np.dtype(_d.bfloat16.as_numpy_dtype)
# softmax and cross entropy kernels with TensorFlow's rounding (16-bit floats widen to float32)
_EXACT_TYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _exact(xp, a):
    """Whether `a` takes the kernels that reproduce TF's CPU results bit for bit (only when
    `config.experimental.enable_tf_cpu_float_emulation` is on)."""
    return float_math.emulating(xp, a) and a.dtype in _EXACT_TYPES

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _invalid(message):
    return rules.static_error(message)


def widened(kernel):
    """A kernel running in float32 for 16-bit float inputs, cast back to their dtype.

    Every 16-bit float input is widened; each output is cast to the first input's dtype.
    """
    def run(xp, *arrays, **attrs):
        dtype = arrays[0].dtype
        if dtype not in _HALF_TYPES:
            return kernel(xp, *arrays, **attrs)
        out = kernel(xp, *(a.astype(xp.float32) if a.dtype in _HALF_TYPES else a
                           for a in arrays), **attrs)
        if isinstance(out, tuple):
            return tuple(o.astype(dtype) for o in out)
        return out.astype(dtype)
    return run


def static_ints(value):
    """A Python int or (nested) list of ints from an int, sequence, shape or eager tensor."""
    if isinstance(value, Tensor):  # eager, or symbolic with a value known when traced
        known = get_static_value(value)
        if known is None:  # a graph tensor's value: TF's wrappers iterate over it, which fails
            iter(value)
            value = value.numpy().tolist()
        else:
            value = known.tolist()
    if isinstance(value, TensorShape):
        value = value.as_list()
    if isinstance(value, np.ndarray):  # (NumPy's int64 arrays too, which TF converts)
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [static_ints(v) for v in value]
    return int(value)


def matching(*values):
    """`values` as tensors of one dtype, converted as TensorFlow converts an op's inputs.

    The dtype of the first tensor among `values` (else of the first value converted)
    is imposed on the others; a value that cannot take it raises TypeError.
    """
    dtype = next((v.dtype for v in values if isinstance(v, Tensor)), None)
    out = []
    for v in values:
        t = as_tensor(v, None if isinstance(v, Tensor) else dtype)
        dtype = dtype or t.dtype
        out.append(t)
    return out


def matching_own(*values):
    """`matching`, with variables (and other tensor-likes) taken in their own dtype first,
    as TF's wrappers that convert each argument before the op (conv2d, bias_add): a dtype
    mismatch is then the op's InvalidArgumentError, not a conversion's ValueError."""
    return matching(*(as_tensor(v) if is_tensor_like(v) else v for v in values))


# ----------------------------------------------------------------------------- activations

def _relu(xp, x, out=None):
    return xp.maximum(x, xp.zeros((), x.dtype), out=out)


def _relu6(xp, x):
    return xp.minimum(xp.maximum(x, xp.zeros((), x.dtype)), xp.asarray(6, x.dtype))


def _alpha(xp, alpha, dtype):
    # TF's alpha attr is a float32: float64 features see 0.2 as 0.20000000298...
    with np.errstate(over="ignore", under="ignore"):
        return xp.asarray(np.float32(alpha), dtype)


def _leaky_relu(xp, x, alpha):
    return xp.where(x > 0, x, x * _alpha(xp, alpha, x.dtype))


def _softsign(xp, x):
    return x / (1 + xp.abs(x))


_RELU = register("Relu", _relu, same_shape, dtypes=REAL_NUMBER_TYPES + (_d.qint8,),
                 elementwise=True, fresh=True, takes_out=True)
tf_args[_RELU] = ("features",)
_RELU6 = register("Relu6", _relu6, same_shape, dtypes=REAL_NUMBER_TYPES)
tf_args[_RELU6] = ("features",)
_LEAKY_RELU = register("LeakyRelu", _leaky_relu, same_shape, dtypes=NN_FLOAT)
tf_args[_LEAKY_RELU] = ("features",)
tf_defaults[_LEAKY_RELU] = {"alpha": 0.2}
_ELU = register("Elu", float_math.elu, same_shape, dtypes=NN_FLOAT)
tf_args[_ELU] = ("features",)
_SELU = register("Selu", float_math.selu, same_shape, dtypes=NN_FLOAT)
tf_args[_SELU] = ("features",)
_SOFTSIGN = register("Softsign", _softsign, same_shape, dtypes=NN_FLOAT)
tf_args[_SOFTSIGN] = ("features",)
for _op in (_RELU, _RELU6, _LEAKY_RELU, _ELU, _SELU, _SOFTSIGN):
    tf_nodes[_op] = NodeForm(outputs=("activations",))


def _check_same_shapes(op_name, a, b):
    if a.shape != b.shape:
        raise _invalid(f"Inputs to operation {op_name} of type {op_name} must have the same "
                       f"size and shape.  Input 0: {shape_text(a.shape)} != input 1: "
                       f"{shape_text(b.shape)}")


def _relu_grad(xp, gradients, features, out=None):
    # A product with the mask, as TF's kernel: a NaN gradient stays NaN, and it is
    # several times faster than a select over inputs of mixed signs. The mask is written
    # as numbers into the result, which the product overwrites: one array allocated, no
    # boolean temporary (5-15% faster on large arrays). `out` (a graph's dead array of the
    # result's shape, perhaps `gradients` or `features`) takes the result in place.
    _check_same_shapes("ReluGrad", gradients, features)
    if xp is np:
        done = onednn_eltwise.relu_grad(gradients, features, out)  # one pass on every core
        if done is not None:
            return done
    if out is not None:
        return xp.multiply(gradients, xp.greater(features, 0), out=out)
    out = xp.greater(features, 0, out=xp.empty_like(gradients))
    out *= gradients
    return out


_RELU_GRAD = register("ReluGrad", _relu_grad, rules.same_shapes("ReluGrad"), tied=(0, 1),
                      dtypes=REAL_NUMBER_TYPES, fresh=True, takes_out=True)
tf_nodes[_RELU_GRAD] = NodeForm(outputs=("backprops",))
tf_args[_RELU_GRAD] = ("gradients", "features")


def relu_grad(gradients, features, name=None):
    """The gradient of `relu` given its upstream `gradients` and its output or input `features`.

    >>> relu_grad(tf.constant([1.0, 2.0]), tf.constant([-1.0, 3.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
    """
    return dispatch(_RELU_GRAD, (as_tensor(gradients), as_tensor(features)), name=name)


# The other activations' gradients are ops of their own too: one kernel where the
# composite takes three to five ops (comparisons, a select, products).

def _relu6_grad(xp, gradients, features):
    return gradients * ((features > 0) & (features < 6))  # a product, as ReluGrad


def _leaky_relu_grad(xp, gradients, features, alpha):
    return xp.where(features > 0, gradients, gradients * _alpha(xp, alpha, gradients.dtype))


def _elu_grad(xp, gradients, outputs):
    # below zero, d/dx (exp(x) - 1) = outputs + 1
    return xp.where(outputs < 0, gradients * (outputs + 1), gradients)


def _selu_grad(xp, gradients, outputs):
    scale = xp.asarray(_SELU_SCALE, gradients.dtype)
    below = gradients * (outputs + xp.asarray(_SELU_SCALE * _SELU_ALPHA, outputs.dtype))
    return xp.where(outputs < 0, below, gradients * scale)


def _softsign_grad(xp, gradients, features):
    d = xp.asarray(xp.abs(features))  # (1 + |x|)^2, in place
    d += 1
    d *= d
    return xp.divide(gradients, d, out=d)


def _softplus_grad(xp, gradients, features):
    # as TF's kernel: gradients / (1 + exp(-features)), gradients * sigmoid(features)
    d = xp.exp(xp.negative(features))
    d += 1
    return xp.divide(gradients, d, out=d)


def _activation_grad_op(tf_name, kernel, dtypes=NN_FLOAT):
    """Registers ``kernel(xp, gradients, features_or_outputs, **attrs)`` as an op."""
    def checked(xp, gradients, features, **attrs):
        _check_same_shapes(tf_name, gradients, features)  # no broadcasting, as TF's
        return kernel(xp, gradients, features, **attrs)
    op = register(tf_name, checked, rules.same_shapes(tf_name), tied=(0, 1), dtypes=dtypes,
                  fresh=True)
    tf_nodes[op] = NodeForm(outputs=("backprops",))
    return op


_RELU6_GRAD = _activation_grad_op("Relu6Grad", _relu6_grad, REAL_NUMBER_TYPES)
tf_args[_RELU6_GRAD] = ("gradients", "features")
_LEAKY_RELU_GRAD = _activation_grad_op("LeakyReluGrad", _leaky_relu_grad)
tf_args[_LEAKY_RELU_GRAD] = ("gradients", "features")
tf_defaults[_LEAKY_RELU_GRAD] = {"alpha": 0.2}
_ELU_GRAD = _activation_grad_op("EluGrad", _elu_grad)
tf_args[_ELU_GRAD] = ("gradients", "outputs")
_SELU_GRAD = _activation_grad_op("SeluGrad", _selu_grad)
tf_args[_SELU_GRAD] = ("gradients", "outputs")
_SOFTSIGN_GRAD = _activation_grad_op("SoftsignGrad", _softsign_grad)
tf_args[_SOFTSIGN_GRAD] = ("gradients", "features")
# (TF's softplus gradient is the product with sigmoid; the op is a raw op and GraphDef node)
_SOFTPLUS_GRAD = _activation_grad_op("SoftplusGrad", _softplus_grad)
tf_args[_SOFTPLUS_GRAD] = ("gradients", "features")


def relu6_grad(gradients, features, name=None):
    """The gradient of `relu6` given its upstream `gradients` and its input `features`.

    >>> relu6_grad(tf.constant([1.0, 2.0, 3.0]), tf.constant([-1.0, 3.0, 7.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 2., 0.], dtype=float32)>
    """
    return dispatch(_RELU6_GRAD, matching(gradients, features), name=name)


def leaky_relu_grad(gradients, features, alpha=0.2, name=None):
    """The gradient of `leaky_relu` given its upstream `gradients` and its input `features`.

    >>> leaky_relu_grad(tf.constant([1.0, 2.0]), tf.constant([-1.0, 3.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.2, 2. ], dtype=float32)>
    """
    return dispatch(_LEAKY_RELU_GRAD, matching(gradients, features), {"alpha": float(alpha)},
                    name=name)


def elu_grad(gradients, outputs, name=None):
    """The gradient of `elu` given its upstream `gradients` and its `outputs`.

    >>> elu_grad(tf.constant([1.0, 2.0]), tf.constant([-0.5, 3.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 2. ], dtype=float32)>
    """
    return dispatch(_ELU_GRAD, matching(gradients, outputs), name=name)


def selu_grad(gradients, outputs, name=None):
    """The gradient of `selu` given its upstream `gradients` and its `outputs`.

    >>> selu_grad(tf.constant([1.0]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.050701], dtype=float32)>
    """
    return dispatch(_SELU_GRAD, matching(gradients, outputs), name=name)


def softsign_grad(gradients, features, name=None):
    """The gradient of `softsign` given its upstream `gradients` and its input `features`.

    >>> softsign_grad(tf.constant([4.0]), tf.constant([-1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    return dispatch(_SOFTSIGN_GRAD, matching(gradients, features), name=name)


relu = unary(_RELU, """Computes max(features, 0) element-wise.

    >>> tf.nn.relu(tf.constant([-1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>
    """, arg="features")
export("nn.relu")(relu)
relu6 = unary(_RELU6, """Computes min(max(features, 0), 6) element-wise.

    >>> tf.nn.relu6(tf.constant([-1.0, 3.0, 8.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 3., 6.], dtype=float32)>
    """, listed=False, arg="features")  # (TF's converts features first)
export("nn.relu6", "keras.activations.relu6")(relu6)
elu = unary(_ELU, """Computes features if > 0 else exp(features) - 1.

    >>> tf.nn.elu(tf.constant([-1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.63212055,  2.        ], dtype=float32)>
    """, arg="features")
export("nn.elu")(elu)
selu = unary(_SELU, """Computes scale * (features if > 0 else alpha * (exp(features) - 1)).

    >>> tf.nn.selu(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.      , 1.050701], dtype=float32)>
    """, arg="features")
export("nn.selu")(selu)
softsign = unary(_SOFTSIGN, """Computes features / (abs(features) + 1).

    >>> tf.math.softsign(tf.constant([-1.0, 3.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.5 ,  0.75], dtype=float32)>
    """, arg="features")
export("nn.softsign", "math.softsign")(softsign)


@export("nn.leaky_relu", "keras.activations.leaky_relu")
def leaky_relu(features, alpha=0.2, name=None):
    """Computes features if > 0 else alpha * features; integers are computed as float32.

    >>> tf.nn.leaky_relu(tf.constant([-1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.2,  2. ], dtype=float32)>
    """
    x = as_tensor(features)
    if x.dtype.is_integer:
        x = cast(x, _d.float32)
    if isinstance(alpha, Tensor) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"Expected float for argument 'alpha' not {alpha!r}.")
    return dispatch(_LEAKY_RELU, (x,), {"alpha": float(alpha)}, name=name)


def _float_features(features):
    x = as_tensor(features)
    if not x.dtype.is_floating:
        raise ValueError("`features.dtype` must be a floating point tensor."
                         f"Received:features.dtype={x.dtype}")
    return x


_GELU_CUBIC = float(np.float32(0.044715))
_GELU_SQRT_HALF = float(np.float32(0.7071067811865476))


@export("nn.gelu")
def gelu(features, approximate=False, name=None):
    """Gaussian error linear unit: features * P(X <= features) for X ~ N(0, 1).

    With `approximate`, the tanh approximation is used.

    >>> tf.nn.gelu(tf.constant([-1.0, 0.5]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.15865526,  0.34573123], dtype=float32)>
    """
    x = _float_features(features)
    # the constants TensorFlow casts to the features' dtype are float32 numbers first
    if approximate:
        cubic = math_ops.multiply(_GELU_CUBIC, math_ops.pow(x, 3))
        inner = math_ops.multiply(0.7978845608028654, math_ops.add(x, cubic))
        cdf = math_ops.add(math_ops.tanh(inner), 1.0)
    else:
        # erfc(-x / sqrt(2)) = 1 + erf(x / sqrt(2)), without the cancellation for x < 0
        cdf = math_ops.erfc(math_ops.multiply(math_ops.negative(x), _GELU_SQRT_HALF))
    return math_ops.multiply(math_ops.multiply(0.5, x), cdf)


@export("nn.silu", "nn.swish")
def silu(features, beta=1.0):
    """Computes features * sigmoid(beta * features) (swish).

    >>> tf.nn.silu(tf.constant([-1.0, 0.0])).numpy().round(4)
    array([-0.2689,  0.    ], dtype=float32)
    """
    x = as_tensor(features)
    if not context.executing_eagerly():
        # TF leaves beta's Cast in the graph; what it rejects while tracing is `x` given to
        # the product (a string) or to the sigmoid (an integer)
        check_dtypes(registry.get("Mul"), [np.dtype(x.dtype.as_numpy_dtype)], building=True)
    beta = cast(as_tensor(beta), x.dtype)
    return math_ops.multiply(x, math_ops.sigmoid(math_ops.multiply(beta, x)))


swish = silu


# ----------------------------------------------------------------------------- softmax

def _shifted(xp, x, axis):
    """(x - max(x), log of the sum of exp of that) along `axis`: a stable log-normalizer."""
    if x.ndim == 0:
        raise _invalid("logits must have >= 1 dimension, got []")
    if x.shape[axis] == 0:
        return x, x.sum(axis, keepdims=True)
    shifted = x - x.max(axis, keepdims=True)
    return shifted, xp.log(xp.exp(shifted).sum(axis, keepdims=True))


def _softmax(xp, logits, axis):
    if logits.dtype == _FLOAT16 and xp is np and logits.ndim and logits.shape[axis]:
        return _half_softmax(logits, axis, log=False)
    return _widened_softmax(xp, logits, axis=axis)


def _log_softmax(xp, logits, axis):
    # (TF's bfloat16 log_softmax rounds each step too; its bfloat16 softmax runs in float32)
    if logits.dtype in _HALF_TYPES and xp is np and logits.ndim and logits.shape[axis]:
        return _half_softmax(logits, axis, log=True)
    return _widened_log_softmax(xp, logits, axis=axis)


def _half_softmax(logits, axis, log):
    """16-bit (log) softmax in TF's CPU kernel's steps, each rounded to the dtype: the logits
    less their row's maximum, their exponentials, the row sums as float16 Sum adds them, then
    the exponentials times the sums' reciprocals (or the shifted logits less the sums'
    logarithms). A row with a NaN or +inf is NaN throughout, as in TF."""
    rows = np.moveaxis(logits, axis, -1)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        shifted = rows - np.fmax.reduce(rows, -1, keepdims=True)
        e = np.exp(shifted.astype(np.float32)).astype(logits.dtype)
        sums = half_sums.tf_sum(e, (-1,), keepdims=True).astype(np.float32)
        if log:
            out = shifted - np.log(sums).astype(logits.dtype)
        else:
            out = e * (1 / sums).astype(logits.dtype)
    return np.ascontiguousarray(np.moveaxis(out, -1, axis))


@widened
def _widened_softmax(xp, logits, axis):
    if logits.ndim == 0:
        raise _invalid("logits must have >= 1 dimension, got []")
    if logits.shape[axis] == 0:
        return logits
    if _exact(xp, logits):
        return float_math.softmax(logits, axis)
    # the shift ignores NaN logits, so that a row's finite logits stay finite below
    e = xp.asarray(logits - xp.fmax.reduce(logits, axis, keepdims=True))
    xp.exp(e, out=e)  # in place: one array allocated
    sums = e.sum(axis, keepdims=True)
    if logits.dtype != np.float64 and not xp.isfinite(sums).all():
        # TF's float32 kernel: a row holding NaN or +inf (or only -inf) is NaN at those
        # logits and 0 elsewhere; its float64 kernel makes the whole row NaN
        broken = xp.where(xp.isnan(e), e, xp.zeros_like(e))
        return xp.where(xp.isfinite(sums), e / sums, broken)
    return xp.divide(e, sums, out=e)


@widened
def _widened_log_softmax(xp, logits, axis):
    if _exact(xp, logits) and logits.ndim and logits.shape[axis]:
        return float_math.log_softmax(logits, axis)
    shifted, log_norm = _shifted(xp, logits, axis)
    return shifted - log_norm


_SOFTMAX = register("Softmax", _softmax, rules.at_least_rank(1, "Softmax"), dtypes=NN_FLOAT)
_LOG_SOFTMAX = register("LogSoftmax", _log_softmax, rules.at_least_rank(1, "LogSoftmax"),
                       dtypes=NN_FLOAT)
tf_nodes[_SOFTMAX] = NodeForm(implied={"axis": -1}, outputs=("softmax",))
tf_args[_SOFTMAX] = ("logits",)
tf_nodes[_LOG_SOFTMAX] = NodeForm(implied={"axis": -1}, outputs=("logsoftmax",))
tf_args[_LOG_SOFTMAX] = ("logits",)


def _axis(axis, rank):
    """A Python int axis (-1 for None and for the last axis: TF's Softmax node has no axis),
    checked against `rank` when known."""
    array_ops.tested_in_python(axis, -1)
    axis = -1 if axis is None else int(axis)
    if axis != -1 and rank is not None and not -rank <= axis < rank:
        # TF's Python wrapper raises this one itself, in graphs too
        raise errors.InvalidArgumentError(
            None, None, f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the "
                        f"number of dimensions in the input. Received: dim={axis}")
    return -1 if rank is not None and axis % max(rank, 1) == rank - 1 else axis


@export("nn.softmax", "math.softmax")
def softmax(logits, axis=None, name=None):
    """Computes exp(logits) / sum(exp(logits), axis) (default: the last axis).

    >>> tf.math.softmax(tf.constant([0.0, 0.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0.5], dtype=float32)>
    """
    x = as_tensor(logits)
    # (a new name: Keras reads this frame's arguments as the call made them)
    dim = -1 if axis is None else _axis(axis, x.shape.rank)
    return dispatch(_SOFTMAX, (x,), {"axis": dim}, name=name)


@export("nn.log_softmax", "math.log_softmax", "keras.activations.log_softmax")
def log_softmax(logits, axis=None, name=None):
    """Computes logits - log(sum(exp(logits), axis)) (default: the last axis).

    >>> tf.math.log_softmax(tf.constant([0.0, 0.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.6931472, -0.6931472], dtype=float32)>
    """
    x = as_tensor(logits)
    # (a new name: Keras reads this frame's arguments as the call made them)
    dim = -1 if axis is None else _axis(axis, x.shape.rank)
    return dispatch(_LOG_SOFTMAX, (x,), {"axis": dim}, name=name)


@export("nn.crelu", dispatch_name="compat.v1.nn.crelu")
def crelu(features, axis=-1, name=None):
    """Concatenates relu(features) and relu(-features) along `axis`.

    >>> tf.nn.crelu(tf.constant([1.0, -2.0]))
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([1., 0., 0., 2.], dtype=float32)>
    """
    x = as_tensor(features)
    return array_ops.concat([relu(x), relu(math_ops.negative(x))], axis, name=name)


@export("nn.log_poisson_loss")
def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """Negative log-likelihood of `targets` under Poisson rates exp(`log_input`).

    With `compute_full_loss`, Stirling's approximation of log(targets!) is added
    where targets are outside [0, 1].

    >>> tf.nn.log_poisson_loss(tf.constant([1.0]), tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    log_input = as_tensor(log_input)
    targets = as_tensor(targets, log_input.dtype)
    if not log_input.shape.is_compatible_with(targets.shape):
        raise ValueError(f"`log_input` and `targets` must have the same shape, received "
                         f"({log_input.shape} vs {targets.shape}).")
    loss = math_ops.subtract(math_ops.exp(log_input), math_ops.multiply(log_input, targets))
    if not compute_full_loss:
        return loss
    stirling = math_ops.add(
        math_ops.subtract(math_ops.multiply(targets, math_ops.log(targets)), targets),
        math_ops.multiply(0.5, math_ops.log(math_ops.multiply(2 * np.pi, targets))))
    # (TF leaves out only targets in [0, 1]: a negative one's term is NaN)
    small = math_ops.logical_and(math_ops.greater_equal(targets, 0.0),
                                 math_ops.less_equal(targets, 1.0))
    return math_ops.add(loss, array_ops.where(small, array_ops.zeros_like(targets), stirling),
                        name=name)


@export("nn.weighted_cross_entropy_with_logits")
def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross entropy with the positive term weighted by `pos_weight`.

    >>> tf.nn.weighted_cross_entropy_with_logits(tf.constant([1.0]), tf.constant([0.0]), 2.0)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.3862944], dtype=float32)>
    """
    logits = as_tensor(logits)
    labels = as_tensor(labels, logits.dtype)
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({logits.shape} vs {labels.shape}).")
    pos_weight = as_tensor(pos_weight, None if isinstance(pos_weight, Tensor) else logits.dtype)
    log_weight = math_ops.add(math_ops.multiply(math_ops.subtract(pos_weight, 1.0), labels), 1.0)
    # log(1 + exp(-|x|)) + max(-x, 0) is log(1 + exp(-x)) without overflow
    softplus_neg = math_ops.add(math_ops.log1p(math_ops.exp(math_ops.negative(
        math_ops.abs(logits)))), relu(math_ops.negative(logits)))
    return math_ops.add(math_ops.multiply(math_ops.subtract(1.0, labels), logits),
                        math_ops.multiply(log_weight, softplus_neg), name=name)


def _block_kernel(op_name):
    """The kernel of DepthToSpace or SpaceToDepth: one reshape, transpose and reshape."""
    def kernel(xp, x, block_size, data_format="NHWC"):
        if data_format != "NHWC":  # (TF's CPU kernels take NHWC only)
            raise errors.NotFoundError(
                None, None, f"Could not find device for node: {{{{node {op_name}}}}} = "
                f"{op_name}[block_size={block_size}, data_format=\"{data_format}\"]: only "
                "data_format NHWC has a CPU kernel")
        if x.ndim != 4:
            raise errors.InvalidArgumentError(
                None, None, f"Input rank should be: 4 instead of: {x.ndim}")
        b, h, w, c = x.shape
        k = block_size
        if op_name == "DepthToSpace":
            if c % (k * k):
                raise errors.InvalidArgumentError(
                    None, None, f"Input depth dimension {c} should be divisible by: {k * k}")
            blocks = x.reshape(b, h, w, k, k, c // (k * k)).transpose(0, 1, 3, 2, 4, 5)
            return blocks.reshape(b, h * k, w * k, c // (k * k))
        if h % k or w % k:
            raise errors.InvalidArgumentError(
                None, None, f"Image width {w} and height {h} should be divisible by "
                            f"block_size: {k}")
        blocks = x.reshape(b, h // k, k, w // k, k, c).transpose(0, 1, 3, 2, 4, 5)
        return blocks.reshape(b, h // k, w // k, k * k * c)
    return kernel


def _block_rule(op_name):
    def rule(x, block_size, data_format="NHWC"):
        if x.shape.rank is None:
            return TensorShape([None] * 4), x.dtype
        rules.check_rank(op_name, [x], 0, 4)
        if data_format != "NHWC":  # (NCHW: TF's kernels on other devices)
            return TensorShape([None] * 4), x.dtype
        k = block_size
        b, h, w, c = x.shape.as_list()
        if op_name == "DepthToSpace":
            if c is not None and c % (k * k):
                raise rules.shape_error(op_name, f"Dimension size must be evenly divisible by "
                                                 f"{k * k} but is {c}", [x.shape])
            return TensorShape([b, _times(h, k), _times(w, k),
                                None if c is None else c // (k * k)]), x.dtype
        for d in (h, w):
            if d is not None and d % k:
                raise rules.shape_error(op_name, f"Dimension size must be evenly divisible by "
                                                 f"{k} but is {d}", [x.shape])
        return TensorShape([b, None if h is None else h // k, None if w is None else w // k,
                            None if c is None else c * k * k]), x.dtype
    return rule


def _times(d, k):
    return None if d is None else d * k


_DEPTH_TO_SPACE = register("DepthToSpace", _block_kernel("DepthToSpace"),
                           _block_rule("DepthToSpace"))
_SPACE_TO_DEPTH = register("SpaceToDepth", _block_kernel("SpaceToDepth"),
                           _block_rule("SpaceToDepth"))
for _op in (_DEPTH_TO_SPACE, _SPACE_TO_DEPTH):
    tf_defaults[_op] = {"data_format": "NHWC"}
    batching_rules[_op] = PER_ELEMENT


def _block_op(op, input, block_size, data_format, name):
    x = as_tensor(input)
    block_size = array_ops.attr_int(block_size, "block_size")
    if block_size < 2:
        raise _invalid(f"Value for attr 'block_size' of {block_size} must be at least min "
                       f"value 2")
    if isinstance(data_format, bytes):
        data_format = data_format.decode()
    if data_format not in ("NHWC", "NCHW", "NCHW_VECT_C"):
        raise _invalid(f"Value for attr 'data_format' of \"{data_format}\" is not in the list "
                       f"of allowed values: \"NHWC\", \"NCHW\", \"NCHW_VECT_C\"")
    return dispatch(op, (x,), {"block_size": block_size, "data_format": data_format}, name)


@export("nn.space_to_depth")
def space_to_depth(input, block_size, data_format="NHWC", name=None):
    """Moves each block_size x block_size spatial block of NHWC `input` into the depth.

    >>> tf.nn.space_to_depth(tf.constant([[[[0], [1]], [[2], [3]]]]), 2)
    <tf.Tensor: shape=(1, 1, 1, 4), dtype=int32, numpy=array([[[[0, 1, 2, 3]]]], dtype=int32)>
    """
    return _block_op(_SPACE_TO_DEPTH, input, block_size, data_format, name)


@export("nn.depth_to_space")
def depth_to_space(input, block_size, data_format="NHWC", name=None):
    """Moves depth of NHWC `input` into block_size x block_size spatial blocks.

    >>> tf.nn.depth_to_space(tf.constant([[[[0, 1, 2, 3]]]]), 2).shape
    TensorShape([1, 2, 2, 1])
    """
    return _block_op(_DEPTH_TO_SPACE, input, block_size, data_format, name)


# (each moves the other's gradient back)
register_gradient("DepthToSpace")(lambda op, dy: space_to_depth(
    dy, op.attrs["block_size"], op.attrs.get("data_format", "NHWC")))
register_gradient("SpaceToDepth")(lambda op, dy: depth_to_space(
    dy, op.attrs["block_size"], op.attrs.get("data_format", "NHWC")))


# ----------------------------------------------------------------------------- bias_add

def _bias_axis(x_dims, bias_dims, data_format):
    """Checks `bias_add` shapes (None: unknown rank); returns the input's channel axis."""
    if x_dims is not None and len(x_dims) < 2:  # (the input is checked first, as TF's kernel)
        raise _invalid(f"Input tensor must be at least 2D: {shape_text(x_dims)}")
    if bias_dims is not None and len(bias_dims) != 1:
        raise _invalid(f"Biases must be 1D: {shape_text(bias_dims)}")
    if x_dims is None:
        return None
    axis = 1 if data_format == "NCHW" else len(x_dims) - 1
    if bias_dims is not None and None not in (x_dims[axis], bias_dims[0]) \
            and x_dims[axis] != bias_dims[0]:
        where = "channel" if data_format == "NCHW" else "last"
        raise _invalid(f"Must provide as many biases as the {where} dimension of the input "
                       f"tensor: {shape_text(bias_dims)} vs. {shape_text(x_dims)}")
    return axis


def _bias_add(xp, value, bias, data_format):
    axis = _bias_axis(value.shape, bias.shape, data_format)
    return value + bias.reshape((-1,) + (1,) * (value.ndim - axis - 1))


def _bias_add_rule(value, bias, data_format, op_name="BiasAdd"):
    rules.check_rank(op_name, [value, bias], 0, at_least=2)  # TF's shape function's words
    rules.check_rank(op_name, [value, bias], 1, rank=1)
    dims = None if value.shape.rank is None else list(value.shape)
    bias_dims = None if bias.shape.rank is None else list(bias.shape)
    axis = _bias_axis(dims, bias_dims, data_format)
    if axis is None:
        return unknown_shape(), value.dtype
    if dims[axis] is None and bias_dims is not None:
        dims[axis] = bias_dims[0]
    return TensorShape(dims), value.dtype


_BIAS_ADD = register("BiasAdd", _bias_add, _bias_add_rule, tied=(0, 1), dtypes=NUMBER_TYPES,
                     fresh=True)
tf_nodes[_BIAS_ADD] = NodeForm(outputs=("output",))
tf_args[_BIAS_ADD] = ("value", "bias")
tf_defaults[_BIAS_ADD] = {"data_format": "NHWC"}
# BiasAdd's first version, as older graphs hold it: channels last, no data_format
_BIAS_ADD_V1 = register("BiasAddV1", lambda xp, value, bias: _bias_add(xp, value, bias, "NHWC"),
                        lambda value, bias: _bias_add_rule(value, bias, "NHWC", "BiasAddV1"),
                        tied=(0, 1),
                        dtypes=NUMBER_TYPES, fresh=True)
tf_nodes[_BIAS_ADD_V1] = NodeForm(outputs=("output",))
tf_args[_BIAS_ADD_V1] = ("value", "bias")


@export("nn.bias_add")
def bias_add(value, bias, data_format=None, name=None):
    """Adds the 1-D `bias` along the channel axis of `value` (last, or 1 for "NC...").

    >>> tf.nn.bias_add(tf.constant([[1.0, 2.0]]), tf.constant([10.0, 20.0]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[11., 22.]], dtype=float32)>
    """
    if data_format is not None and data_format.startswith("NC"):
        data_format = "NCHW"
    elif data_format is None or (data_format.startswith("N") and data_format.endswith("C")):
        data_format = "NHWC"
    else:
        raise ValueError("`data_format` must be of the form `N...C` or `NC...`. Received: "
                         f"data_format={data_format}")
    value, bias = matching_own(value, bias)
    return dispatch(_BIAS_ADD, (value, bias), {"data_format": data_format}, name=name)


@widened  # TF accumulates float16 (and channels-first bfloat16) in float32
def _wide_bias_add_grad(xp, out_backprop, data_format):
    axis = _bias_axis(out_backprop.shape, None, data_format)
    return reduction_ops.add_reduce(
        xp, out_backprop, tuple(i for i in range(out_backprop.ndim) if i != axis))


def _bias_add_grad(xp, out_backprop, data_format):
    if xp is np and out_backprop.dtype == _BFLOAT16 and out_backprop.ndim > 1 and \
            not data_format.startswith("NC"):
        # TF's CPU kernel adds channels-last bfloat16 rows one after another in bfloat16:
        # a Dense bias's gradient under mixed_bfloat16 rounds at each row
        return half_sums.sequential_sum(out_backprop.reshape(-1, out_backprop.shape[-1]), 0)
    return _wide_bias_add_grad(xp, out_backprop, data_format=data_format)


def _bias_add_grad_rule(out_backprop, data_format):
    dims = None if out_backprop.shape.rank is None else list(out_backprop.shape)
    axis = _bias_axis(dims, None, data_format)
    return TensorShape([None if axis is None else dims[axis]]), out_backprop.dtype


_BIAS_ADD_GRAD = register("BiasAddGrad", _bias_add_grad, _bias_add_grad_rule, dtypes=NUMBER_TYPES)
tf_args[_BIAS_ADD_GRAD] = ("out_backprop",)
tf_defaults[_BIAS_ADD_GRAD] = {"data_format": "NHWC"}


def bias_add_grad(out_backprop, data_format="NHWC", name=None):
    """The gradient of `bias_add` for its bias: `out_backprop` summed over all axes but the
    channel axis ("NHWC": last, "NCHW": 1).

    >>> bias_add_grad(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 6.], dtype=float32)>
    """
    return dispatch(_BIAS_ADD_GRAD, (as_tensor(out_backprop),), {"data_format": data_format},
                    name=name)


# ----------------------------------------------------------------------------- losses

@widened
def _softmax_xent(xp, features, labels, axis):
    if features.ndim == 0:
        raise _invalid("logits must have >= 1 dimension, got []")
    try:
        features, labels = xp.broadcast_arrays(features, labels)
    except ValueError:
        raise _invalid(f"logits and labels must be broadcastable: logits_size="
                       f"{shape_text(features.shape)} labels_size="
                       f"{shape_text(labels.shape)}") from None
    if _exact(xp, features) and features.shape[axis]:
        # as rows of a matrix, the class axis last
        rows = [np.moveaxis(a, axis, -1) for a in (features, labels)]
        shape = rows[0].shape
        loss, backprop = float_math.softmax_cross_entropy(
            *(r.reshape(-1, shape[-1]) for r in rows))
        return loss.reshape(shape[:-1]), np.moveaxis(backprop.reshape(shape), -1, axis)
    shifted, log_norm = _shifted(xp, features, axis)
    neg_log_probs = log_norm - shifted  # not -(log probs): a perfect fit costs +0, not -0
    return (labels * neg_log_probs).sum(axis), xp.exp(-neg_log_probs) - labels


def _softmax_xent_rule(features, labels, axis):
    shape = rules.broadcast_shapes(features.shape, labels.shape,
                                   "SoftmaxCrossEntropyWithLogits")
    if not shape.rank:  # unknown, or a scalar the kernel rejects
        return [(unknown_shape(), features.dtype), (shape, features.dtype)]
    loss = [d for i, d in enumerate(shape) if i != axis % shape.rank]
    return [(TensorShape(loss), features.dtype), (shape, features.dtype)]


def _check_labels(labels, classes):
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        bad = labels.min() if labels.min() < 0 else labels.max()
        values = " ".join(str(v) for v in labels.ravel().tolist())
        raise _invalid(f"Received a label value of {bad} which is outside the valid range of "
                       f"[0, {classes}).  Label values: {values}")


def _check_sparse_xent_shapes(features, labels):
    """TF's kernel checks of logits (2-D) against labels (1-D, one per row); eagerflow's
    own wrapper also passes one axis or more than two, labels then matching all but the
    class axis."""
    if features.ndim < 1:
        raise _invalid(f"logits must be 2-D, but got shape {shape_text(features.shape)}")
    if features.ndim == 2 and labels.ndim != 1:
        raise _invalid(f"labels must be 1-D, but got shape {shape_text(labels.shape)}")
    if labels.shape != features.shape[:-1]:
        raise _invalid(f"logits and labels must have the same first dimension, got logits "
                       f"shape {shape_text(features.shape)} and labels shape "
                       f"{shape_text(labels.shape)}")


@widened
def _sparse_softmax_xent(xp, features, labels):
    _check_sparse_xent_shapes(features, labels)
    classes = features.shape[-1]
    if classes == 0:
        raise _invalid(f"Must have at least one class, but got logits shape "
                       f"{shape_text(features.shape)}")
    _check_labels(labels, classes)
    if _exact(xp, features):
        loss, backprop = float_math.sparse_softmax_cross_entropy(
            features.reshape(-1, classes), labels.reshape(-1))
        return loss.reshape(labels.shape), backprop.reshape(features.shape)
    if xp is np and classes <= _FEW_CLASSES:
        return _sparse_softmax_xent_few_classes(features, labels)
    shifted, log_norm = _shifted(xp, features.reshape(-1, classes), -1)
    # not -(log probs): a perfect fit costs +0, not -0 (in place: `shifted` is a new array)
    neg_log_probs = xp.subtract(log_norm, shifted, out=shifted)
    rows, labels_flat = xp.arange(labels.size), labels.reshape(-1)
    picked = neg_log_probs[rows, labels_flat]
    backprop = xp.exp(xp.negative(neg_log_probs))
    backprop[rows, labels_flat] -= 1  # (minus the one-hot labels)
    return picked.reshape(labels.shape), backprop.reshape(features.shape)


# NumPy reduces along a short last axis several times as slowly as across rows: up to this
# many classes the loss runs on the logits transposed, classes first (measured: 1.7x as
# fast for 128 rows of 10 classes, 1.6x of 100, 0.6x of 1000).
_FEW_CLASSES = 128


def _sparse_softmax_xent_few_classes(features, labels):
    classes = features.shape[-1]
    by_class = np.array(features.reshape(-1, classes).T, order="C")  # (a copy: one row's
    # transpose is contiguous already)
    by_class -= by_class.max(0)
    # (summed in float64: across rows NumPy adds the classes one by one, and a float32 sum
    # of many small terms would drift further than the row kernel's pairwise one; the sum is
    # rounded to the logits' dtype before its log, as TF's kernel takes it, so that a
    # confident row's small loss is TF's, not a more precise one)
    log_norm = np.log(np.exp(by_class).sum(0, dtype=np.float64).astype(by_class.dtype))
    # not -(log probs): a perfect fit costs +0, not -0
    neg_log_probs = np.subtract(log_norm, by_class, out=by_class)
    rows, labels_flat = np.arange(labels.size), labels.reshape(-1)
    picked = neg_log_probs[labels_flat, rows]
    backprop = np.exp(np.negative(neg_log_probs))
    backprop[labels_flat, rows] -= 1  # (minus the one-hot labels)
    return (picked.reshape(labels.shape),
            np.ascontiguousarray(backprop.T).reshape(features.shape))


def _sparse_softmax_xent_rule(features, labels):
    f, l = features.shape, labels.shape
    shapes = (f, l)
    name = "SparseSoftmaxCrossEntropyWithLogits"
    if f.rank == 0:
        raise rules.shape_error(name, "Shape must be rank 2 but is rank 0", shapes)
    if f.rank == 2 and l.rank is not None and l.rank != 1:
        raise rules.shape_error(name, f"Shape must be rank 1 but is rank {l.rank}", shapes)
    if f.rank is not None and l.rank == f.rank - 1:
        for p, q in zip(f[:-1].as_list(), l.as_list()):
            if p is not None and q is not None and p != q:
                raise rules.shape_error(name, f"Dimensions must be equal, but are {p} and {q}",
                                        shapes)
        labels_shape = l.merge_with(f[:-1])
    else:
        labels_shape = l
    return [(labels_shape, features.dtype), (features.shape, features.dtype)]


def _l2_loss(xp, t):
    return xp.asarray((t * t).sum() / 2, t.dtype)


_SOFTMAX_XENT = register("SoftmaxCrossEntropyWithLogits", _softmax_xent, _softmax_xent_rule,
                         multi=True, tied=(0, 1), dtypes=NN_FLOAT, grad_takes_none=True)
tf_nodes[_SOFTMAX_XENT] = NodeForm(outputs=("loss", "backprop"))
tf_args[_SOFTMAX_XENT] = ("features", "labels")
tf_defaults[_SOFTMAX_XENT] = {"axis": -1}  # (TF's op takes the last axis alone)
_SPARSE_SOFTMAX_XENT = register("SparseSoftmaxCrossEntropyWithLogits", _sparse_softmax_xent,
                                _sparse_softmax_xent_rule, multi=True, dtypes=NN_FLOAT,
                                grad_takes_none=True)
tf_nodes[_SPARSE_SOFTMAX_XENT] = NodeForm(types={"T": 0, "Tlabels": 1},
                                                outputs=("loss", "backprop"))
tf_args[_SPARSE_SOFTMAX_XENT] = ("features", "labels")
_L2_LOSS = register("L2Loss", widened(_l2_loss), lambda t: (TensorShape([]), t.dtype),
                    dtypes=NN_FLOAT)
tf_args[_L2_LOSS] = ("t",)


@export("nn.softmax_cross_entropy_with_logits",
        dispatch_name="compat.v1.nn.softmax_cross_entropy_with_logits_v2")
def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """Cross entropy between `labels` (a distribution along `axis`) and softmax(`logits`).

    `labels` are cast to the dtype of `logits`; the result drops `axis`.

    >>> tf.nn.softmax_cross_entropy_with_logits(tf.constant([[0.0, 1.0]]),
    ...                                         tf.constant([[0.0, 0.0]]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.6931472], dtype=float32)>
    """
    logits = as_tensor(logits)
    labels = cast(as_tensor(labels), logits.dtype)
    axis = _axis(axis, logits.shape.rank)
    loss, _ = dispatch(_SOFTMAX_XENT, (logits, labels), {"axis": axis}, name=name)
    return loss


@export("nn.sparse_softmax_cross_entropy_with_logits",
        dispatch_name="compat.v1.nn.sparse_softmax_cross_entropy_with_logits")
def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """Cross entropy between class indices `labels` and softmax(`logits`) over the last axis.

    Labels outside [0, num_classes) raise InvalidArgumentError.

    >>> tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([1]), tf.constant([[0.0, 0.0]]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.6931472], dtype=float32)>
    """
    logits_in = logits
    labels, logits = as_tensor(labels), as_tensor(logits)
    if labels.dtype not in (_d.int32, _d.int64):
        if not context.executing_eagerly():  # TF's TypeError as the op is added
            raise attr_dtype_error(_SPARSE_SOFTMAX_XENT.name, "Tlabels", labels.dtype,
                                   (_d.int32, _d.int64))
        raise errors.InvalidArgumentError(
            None, _SPARSE_SOFTMAX_XENT.name,
            f"Value for attr 'Tlabels' of {_kernel_name(labels.dtype)} is not in the list of "
            f"allowed values: int32, int64 [Op:SparseSoftmaxCrossEntropyWithLogits]")
    _check_sparse_shapes(labels.shape, logits.shape, logits_in)
    # (in a graph, inside TF's scope: ``SparseSoftmaxCrossEntropyWithLogits/<the op>``)
    with context.op_scope(name or "SparseSoftmaxCrossEntropyWithLogits"):
        loss, _ = dispatch(_SPARSE_SOFTMAX_XENT, (logits, labels), name=name)
    return loss


def _kernel_name(dtype):
    return registry.kernel_type_name(dtype)


def _check_sparse_shapes(labels, logits, logits_in):
    if logits.rank == 0:
        raise ValueError(f"`logits` cannot be a scalar. Received logits={logits_in}`")
    if labels.rank is None or logits.rank is None:
        return
    if labels.rank != logits.rank - 1:
        raise ValueError(f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                         f"labels.shape={labels} of rank {labels.rank} and "
                         f"logits.shape={logits} of rank {logits.rank}")
    if not labels.is_compatible_with(logits[:-1]):
        raise ValueError("`labels.shape` must equal `logits.shape` except for the last "
                         f"dimension. Received: labels.shape={labels} and logits.shape={logits}")


@export("nn.sigmoid_cross_entropy_with_logits",
        dispatch_name="compat.v1.nn.sigmoid_cross_entropy_with_logits")
def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Cross entropy of independent binary `labels` and sigmoid(`logits`), element-wise.

    Computed stably as max(x, 0) - x * z + log(1 + exp(-|x|)).

    >>> tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1.0]),
    ...                                         logits=tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.6931472], dtype=float32)>
    """
    logits, labels = as_tensor(logits), as_tensor(labels)
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({logits.shape} vs {labels.shape}).")
    with context.op_scope(name or "logistic_loss") as scope:
        # maximum/minimum rather than relu/abs: their gradients at 0 keep d/dx = sigmoid(x) - z
        positive_part = math_ops.maximum(logits, 0)
        neg_abs = math_ops.minimum(math_ops.negative(logits), logits)
        return math_ops.add(math_ops.subtract(positive_part, math_ops.multiply(logits, labels)),
                            math_ops.log1p(math_ops.exp(neg_abs)), name=scope or name)


@export("nn.l2_loss")
def l2_loss(t, name=None):
    """Computes sum(t ** 2) / 2.

    >>> tf.nn.l2_loss(tf.constant([1.0, 2.0, 3.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=7.0>
    """
    return dispatch(_L2_LOSS, (as_tensor(t),), name=name)


def _require_replica_context(name):
    # TF's losses are scaled per replica: inside a strategy's scope they belong in `run`
    if distribution_context.in_cross_replica_scope():
        raise RuntimeError(f"You are calling `{name}` in cross replica context, while it was "
                           f"expected to be called in replica context.")


@export("nn.compute_average_loss")
def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """Sum of the (weighted) per-example losses over the global batch size.

    The batch size defaults to the number of examples (one replica); a zero
    batch size gives 0. Integer losses are averaged as float64.

    >>> tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """
    _require_replica_context("compute_average_loss")
    loss = as_tensor(per_example_loss)
    if loss.shape.rank == 0:
        raise ValueError(f"Invalid value passed for `per_example_loss`. Expected a tensor with "
                         f"at least rank 1. Received per_example_loss="
                         f"{loss.numpy() if isinstance(loss, EagerTensor) else loss} with rank 0")
    if sample_weight is not None:
        # TF weighs in float32 and casts back: an integer loss is truncated there
        weight = _weight_rank_like(loss, cast(as_tensor(sample_weight), _d.float32))
        loss = cast(math_ops.multiply(cast(loss, _d.float32), weight), loss.dtype)
    if global_batch_size is None:  # the replica's batch times the number of replicas
        global_batch_size = array_ops.shape(loss)[0]
        replicas = distribution_context.num_replicas_in_sync()
        if replicas != 1:
            global_batch_size = math_ops.multiply(global_batch_size, replicas)
    else:
        # TF's checks and messages (inside a function, a size only run time knows is
        # checked when the function runs)
        late.debugging_ops.assert_integer(global_batch_size,
                                          message="global_batch_size must be an integer.")
        late.debugging_ops.assert_non_negative(
            global_batch_size, message="global_batch_size must be non-negative.")
    total = reduction_ops.reduce_sum(loss)
    return math_ops.divide_no_nan(total, cast(global_batch_size, total.dtype))


def _weight_rank_like(loss, weight):
    """`weight` with its last axis squeezed (or one added) when its rank is one more (or one
    less) than `loss`'s, as TF matches a sample weight to the losses; a scalar stays one.
    Without static ranks the graph decides when it runs."""
    rank, loss_rank = weight.shape.rank, loss.shape.rank
    if rank == 0:
        return weight
    if rank is not None and loss_rank is not None:
        if rank == loss_rank + 1:
            return array_ops.squeeze(weight, [-1])
        if rank == loss_rank - 1:
            return array_ops.expand_dims(weight, -1)
        return weight
    rank, diff = array_ops.rank(weight), math_ops.subtract(array_ops.rank(weight),
                                                           array_ops.rank(loss))
    nonscalar = math_ops.not_equal(rank, 0)
    squeeze = cast(math_ops.logical_and(nonscalar, math_ops.equal(diff, 1)), _d.int32)
    expand = cast(math_ops.logical_and(nonscalar, math_ops.equal(diff, -1)), _d.int32)
    kept = array_ops.shape(weight)[:math_ops.subtract(rank, squeeze)]
    return array_ops.reshape(weight, array_ops.concat(
        [kept, array_ops.fill(array_ops.reshape(expand, [1]), 1)], 0))


@export("nn.scale_regularization_loss")
def scale_regularization_loss(regularization_loss):
    """Sums a list of regularization losses, scaled for one replica.

    >>> tf.nn.scale_regularization_loss([tf.constant(2.0), tf.constant(1.0)])
    <tf.Tensor: shape=(), dtype=float32, numpy=3.0>
    """
    _require_replica_context("scale_regularization_loss")
    if isinstance(regularization_loss, (list, tuple)):
        regularization_loss = reduction_ops.add_n(regularization_loss)
    # a tensor of per-weight losses is summed, as TensorFlow does
    return math_ops.truediv(reduction_ops.reduce_sum(regularization_loss),
                            distribution_context.num_replicas_in_sync())


# ----------------------------------------------------------------------------- in_top_k

def _in_top_k(xp, predictions, targets, k):
    if k.ndim != 0:
        raise _invalid(f"k must be 0-D, got shape {shape_text(k.shape)}")
    if predictions.ndim != 2:
        raise _invalid("predictions must be 2-dimensional")
    if targets.ndim != 1:
        raise _invalid("targets must be 1-dimensional")
    if predictions.shape[0] != targets.shape[0]:
        raise _invalid(f"First dimension of predictions {predictions.shape[0]} must match "
                       f"length of targets {targets.shape[0]}")
    classes = predictions.shape[1]
    valid = (targets >= 0) & (targets < classes)
    safe = xp.where(valid, targets, 0).astype(xp.intp)
    target_score = xp.take_along_axis(predictions, safe[:, None], 1)
    # ties are in; a row holding any non-finite score is never in the top k
    rank = (predictions > target_score).sum(1)
    return valid & xp.isfinite(predictions).all(1) & (rank < k)


def _in_top_k_shape(predictions, targets, k):
    """A vector with one entry per row; ranks and the batch size are checked as TF does."""
    shapes = [t.shape for t in (predictions, targets, k)]
    for shape, rank in zip(shapes, (2, 1)):  # k's rank is the kernel's to check
        if shape.rank not in (None, rank):
            raise rules.shape_error(
                "InTopKV2", f"Shape must be rank {rank} but is rank {shape.rank}", shapes)
    rows = None if predictions.shape.rank is None else predictions.shape[0]
    batch = None if targets.shape.rank is None else targets.shape[0]
    if None not in (rows, batch) and rows != batch:
        raise rules.shape_error(
            "InTopKV2", f"Dimensions must be equal, but are {rows} and {batch}", shapes)
    return TensorShape([batch if batch is not None else rows]), _d.bool


# k is an input, not an attr: a graph may compute it
_IN_TOP_K = register("InTopKV2", _in_top_k, _in_top_k_shape, tied=(1, 2),
                     dtypes=(_d.int32, _d.int64), not_differentiable="boolean output",
                     input_names=("targets", "k"))
tf_nodes[_IN_TOP_K] = NodeForm(types={"T": 1}, outputs=("precision",))
tf_args[_IN_TOP_K] = ("predictions", "targets", "k")


# TF's first InTopK, whose k is an attr: older graphs and raw op calls hold it
_SCALAR_K = types.SimpleNamespace(shape=TensorShape([]))  # (the attr, as the rule takes k)
_IN_TOP_K_V1 = register(
    "InTopK", lambda xp, predictions, targets, k: _in_top_k(
        xp, predictions, targets, np.asarray(k, targets.dtype)),
    lambda predictions, targets, k: _in_top_k_shape(predictions, targets, _SCALAR_K),
    tied=(1,), dtypes=(_d.int32, _d.int64), not_differentiable="boolean output")
tf_nodes[_IN_TOP_K_V1] = NodeForm(types={"T": 1}, outputs=("precision",))
tf_args[_IN_TOP_K_V1] = ("predictions", "targets")
batching_rules[_IN_TOP_K_V1] = PER_ELEMENT


@export("math.in_top_k", "nn.in_top_k")
def in_top_k(targets, predictions, k, name=None):
    """Whether each target class is among the `k` highest `predictions` of its row.

    Ties with the k-th score count as in; out-of-range targets and rows with a
    non-finite score give False.

    >>> tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[0.1, 0.9], [0.1, 0.9]]), 1)
    <tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>
    """
    if type(targets) in (list, tuple) or type(predictions) in (list, tuple):
        # TF's slower path, for Python sequences, converts the predictions to float32
        predictions = as_tensor(predictions, _d.float32)
    targets = as_tensor(targets)
    predictions = convert_input(predictions, _d.float32)
    if predictions.dtype != _d.float32:  # (the op's fixed float input)
        raise fixed_input_error(_IN_TOP_K, 0, "predictions", _d.float32, predictions.dtype,
                                building=not isinstance(predictions, EagerTensor))
    # a Python k takes the targets' dtype; a tensor k keeps its own (the op checks they match)
    k = k if isinstance(k, Tensor) else as_tensor(k, targets.dtype)
    return dispatch(_IN_TOP_K, (predictions, targets, k), name=name)


# ----------------------------------------------------------------------------- composites

@export("nn.moments")
def moments(x, axes, shift=None, keepdims=False, name=None):
    """Mean and variance of `x` over `axes` (`shift` is unused, as in TensorFlow).

    float16 inputs are reduced in float32.

    >>> mean, variance = tf.nn.moments(tf.constant([1.0, 3.0]), [0])
    >>> float(mean), float(variance)
    (2.0, 1.0)
    """
    with context.op_scope(name or "moments"):  # (``moments/Squeeze`` in a graph)
        x, axes, y = _moments_input(x, axes)
        mean = reduction_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        # the mean's gradient stopped, as in TF: first derivatives through it are zero anyway
        # (the deviations sum to zero), and second derivatives then equal TF's
        variance = reduction_ops.reduce_mean(
            math_ops.squared_difference(y, stop_gradient(mean)), axes, keepdims=True,
            name="variance")
        if not keepdims and (axes is None or axes):
            mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
        return cast(mean, x.dtype), cast(variance, x.dtype)


def _moments_input(x, axes):
    """`x` as a tensor, `axes` as a list (None: all), and `x` widened for reduction
    (float16 -> float32)."""
    x = as_tensor(x)
    if axes is None:  # every axis (None where the rank is unknown: reductions take all)
        axes = None if x.shape.rank is None else list(range(x.shape.rank))
    else:
        axes = static_ints(axes)
        axes = [axes] if isinstance(axes, int) else axes
    return x, axes, cast(x, _d.float32) if x.dtype == _d.float16 else x


@export("nn.weighted_moments", dispatch_name="compat.v1.nn.weighted_moments")
def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """Mean and variance of `x` over `axes`, each element counted `frequency_weights` times.

    >>> mean, variance = tf.nn.weighted_moments(tf.constant([1.0, 2.0]), [0],
    ...                                         tf.constant([3.0, 1.0]))
    >>> float(mean), float(variance)
    (1.25, 0.1875)
    """
    x, axes, y = _moments_input(x, axes)
    weights = cast(as_tensor(frequency_weights), y.dtype)
    weights = math_ops.add(weights, array_ops.zeros_like(y))  # broadcast to x's shape
    total = reduction_ops.reduce_sum(weights, axes, keepdims=True)
    # divide_no_nan, as TF: all-zero weights give a mean and variance of 0, not NaN
    mean = math_ops.divide_no_nan(
        reduction_ops.reduce_sum(math_ops.multiply(weights, y), axes, keepdims=True), total)
    spread = reduction_ops.reduce_sum(
        math_ops.multiply(weights, math_ops.squared_difference(y, mean)), axes, keepdims=True)
    variance = math_ops.divide_no_nan(spread, total)
    if not keepdims and (axes is None or axes):
        mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
    return cast(mean, x.dtype), cast(variance, x.dtype)


@export("nn.sufficient_statistics", dispatch_name="compat.v1.nn.sufficient_statistics")
def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum, sum of squares, shift) of `x` over `axes`, the sums taken of x - shift.

    >>> [float(v) for v in tf.nn.sufficient_statistics(tf.constant([1.0, 3.0]), [0])[:3]]
    [2.0, 4.0, 10.0]
    """
    x = as_tensor(x)
    axes = static_ints(axes)
    axes = [axes] if isinstance(axes, int) else axes
    dims = [x.shape[a] for a in axes]
    if None in dims:  # known only at run time
        counts = cast(reduction_ops.reduce_prod(array_ops.gather(array_ops.shape(x), axes)),
                      x.dtype)
    else:
        counts = cast(int(np.prod(dims, dtype=np.int64)), x.dtype)
    if shift is not None:
        shift = cast(as_tensor(shift), x.dtype)
        x = math_ops.subtract(x, shift)
    return (counts, reduction_ops.reduce_sum(x, axes, keepdims=keepdims),
            reduction_ops.reduce_sum(math_ops.square(x), axes, keepdims=keepdims), shift)


@export("nn.normalize_moments")
def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """Mean and variance from sufficient statistics (see `sufficient_statistics`).

    >>> [float(v) for v in tf.nn.normalize_moments(tf.constant(2.0), tf.constant(4.0),
    ...                                            tf.constant(10.0), None)]
    [2.0, 1.0]
    """
    inverse_count = math_ops.reciprocal(as_tensor(counts))
    shifted_mean = math_ops.multiply(mean_ss, inverse_count)
    mean = shifted_mean if shift is None else math_ops.add(shifted_mean, shift)
    variance = math_ops.subtract(math_ops.multiply(variance_ss, inverse_count),
                                 math_ops.square(shifted_mean))
    return mean, variance


@export("nn.batch_normalization")
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """Normalizes: scale * (x - mean) / sqrt(variance + variance_epsilon) + offset.

    `offset` and `scale` may be None (no shift, no scaling).

    >>> tf.nn.batch_normalization(tf.constant([3.0]), 1.0, 4.0, None, None, 0.0)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>
    """
    # Python's operators, as TF's: numbers add as numbers, and in a graph the ops are
    # TF's, named as its (``batchnorm/add_1``)
    with context.op_scope(name or "batchnorm"):
        x = as_tensor(x)
        inv = math_ops.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv = inv * scale
        return x * cast(inv, x.dtype) + cast(
            -mean * inv if offset is None else offset - mean * inv, x.dtype)


@export("nn.batch_norm_with_global_normalization")
def batch_norm_with_global_normalization(input, mean, variance, beta, gamma, variance_epsilon,
                                         scale_after_normalization, name=None):
    """`batch_normalization` with offset `beta`, and scale `gamma` when
    `scale_after_normalization`.

    >>> tf.nn.batch_norm_with_global_normalization(tf.constant([3.0]), 1.0, 4.0, 0.5, 2.0,
    ...                                            0.0, True)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.5], dtype=float32)>
    """
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon,
                               name=name)


@export("nn.dropout")
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zeroes each element with probability `rate` and scales the rest by 1 / (1 - rate).

    `noise_shape` (broadcast against `x`) shares one draw across broadcast dims.

    >>> tf.nn.dropout(tf.constant([1.0, 2.0]), 0.0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    return _dropout(x, rate, noise_shape, lambda shape, dtype: late.random_ops.uniform(
        shape, dtype=dtype, seed=seed), name)


@export("nn.experimental.general_dropout")
def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """`dropout` whose mask is ``uniform_sampler(shape, dtype) < rate``: a sampler of
    Uniform[0, 1) values such as a `tf.random.Generator`'s ``uniform``.

    >>> g = tf.random.Generator.from_seed(7)
    >>> tf.nn.experimental.general_dropout(tf.constant([1.1, 2.2, 3.3]), 0.5,
    ...                                    g.uniform).shape
    TensorShape([3])
    """
    return _dropout(x, rate, noise_shape, uniform_sampler, name)


@export("nn.experimental.stateless_dropout")
def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """`dropout` whose mask is `stateless_uniform` of `seed` (shape [2]): the same seed
    drops the same elements."""
    return _dropout(x, rate, noise_shape, lambda shape, dtype: late.random_ops.stateless_uniform(
        shape, seed, dtype=dtype, alg="auto_select" if rng_alg is None else rng_alg), name)


def _dropout(x, rate, noise_shape, uniform, name=None):
    """`x` with elements where ``uniform(noise shape, dtype) < rate`` zeroed, the rest scaled:
    TF's ops (in a graph, in its ``dropout`` scope), ``SelectV2(keep, x * scale, 0)``."""
    with context.op_scope(name or "dropout"):
        x = as_tensor(x)
        if not x.dtype.is_floating:
            raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. "
                             f"Received: x_dtype={x.dtype}")
        if isinstance(rate, numbers.Real):
            if not 0 <= rate < 1:
                raise ValueError("`rate` must be a scalar tensor or a float in the range "
                                 f"[0, 1). Received: rate={rate}")
            if rate == 0:
                return x
            scaled = math_ops.multiply(x, array_ops.constant(1 / (1 - rate), x.dtype),
                                       name="Mul")
        else:
            rate = _rate_tensor(rate, x.dtype)
            kept = math_ops.subtract(array_ops.constant(1, x.dtype), rate, name="Sub")
            scaled = math_ops.realdiv(x, kept, name="RealDiv")
        noise = uniform(shape=_noise_shape(x, noise_shape), dtype=x.dtype)
        keep = math_ops.greater_equal(noise, rate, name="GreaterEqual")
        # (a dropped element is 0 even where x is inf or NaN)
        out = array_ops.where(keep, scaled, array_ops.constant(0, x.dtype), name="SelectV2")
    if out.shape != x.shape and out.shape.is_compatible_with(x.shape):
        out.set_shape(x.shape)  # (a rate of unknown shape is a scalar: x keeps its shape)
    return out


def _rate_tensor(rate, dtype):
    rate = as_tensor(rate)
    if rate.shape.rank not in (0, None):  # (a placeholder of unknown shape is fed a scalar)
        raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
    if rate.dtype != dtype:
        raise ValueError("`x.dtype` must be compatible with `rate.dtype`. Received: "
                         f"x.dtype={dtype} and rate.dtype={rate.dtype}")
    return rate


def _noise_shape(x, noise_shape):
    """The shape to draw: `x`'s, or `noise_shape` with its None dims taken from `x`.

    A list of ints when every dim is known while tracing, else a shape tensor
    (dims only known at run time come from ``shape(x)``).
    """
    if noise_shape is None:
        if x.shape.is_fully_defined():
            return x.shape.as_list()
        return array_ops.shape(x)
    if isinstance(noise_shape, Tensor):
        known = get_static_value(noise_shape)
        if known is None:
            return noise_shape
        noise_shape = known.tolist()
    dims = []
    for i, d in enumerate(noise_shape):
        if d is None and x.shape.rank is not None:
            d = x.shape[i]
        elif isinstance(d, Tensor):
            known = get_static_value(d)
            d = d if known is None else int(known)
        dims.append(d)
    if all(isinstance(d, numbers.Integral) for d in dims):
        return [int(d) for d in dims]
    runtime = array_ops.shape(x)
    return array_ops.stack([runtime[i] if d is None else cast(d, _d.int32) if
                            isinstance(d, Tensor) else d for i, d in enumerate(dims)])


@export("nn.embedding_lookup", dispatch_name="compat.v1.nn.embedding_lookup")
def embedding_lookup(params, ids, max_norm=None, name=None):
    """Gathers rows of `params` at `ids`; a list of shards is split by TF's "div" layout
    (of a table of ``R`` rows in ``n`` shards, the first ``R % n`` shards hold one row
    more than the others, each a consecutive range of ids).

    With `max_norm`, each looked-up embedding is rescaled to an l2-norm of at most `max_norm`.

    >>> tf.nn.embedding_lookup(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[3., 4.]], dtype=float32)>
    >>> shards = [tf.constant([[0.0], [1.0]]), tf.constant([[2.0]])]
    >>> tf.nn.embedding_lookup(shards, tf.constant([2, 0])).numpy()
    array([[2.],
           [0.]], dtype=float32)
    """
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("Length of params is currently 0. Need at least one param.")
        if len(params) > 1:
            # (each id's shard and row by the layout of the rows' total, not the shards'
            # own sizes: shards laid out otherwise give TF's rows or its out-of-range error)
            return sharded_lookup(list(params), as_tensor(ids), "div", max_norm, name)
        params = params[0]
    ids = as_tensor(ids)
    with context.op_scope(name or "embedding_lookup") as scope:
        # (a variable's rows read straight from it, by TF's ResourceGather)
        result = array_ops.gather(params, ids, name=scope)
        if max_norm is not None:
            result = _clip_rows(result, max_norm, ids)
        # (in a graph TF's result is ``embedding_lookup/Identity``)
        return result if scope is None else identity(result)


def sharded_lookup(shards, ids, partition_strategy, max_norm, name):
    """Rows `ids` of the table the `shards` hold: each id's shard and row in it (by id
    modulo the shard count, or TF's "div" layout, its first shards one row longer), a
    gather from each shard (a sparse gradient for each) and the rows put back in order."""
    n = len(shards)
    flat = array_ops.reshape(ids, [-1])
    if partition_strategy == "mod":
        shard_of, row = flat % n, flat // n
    else:
        total = reduction_ops.add_n([cast(array_ops.shape(s)[0], flat.dtype)
                                     for s in shards])
        per, extras = total // n, total % n
        shard_of = math_ops.maximum(flat // (per + 1), (flat - extras) // per)
        early = cast(shard_of < extras, flat.dtype)
        row = early * (flat % (per + 1)) + (1 - early) * ((flat - extras) % per)
    shard_of = cast(shard_of, "int32")
    rows = partition_ops.dynamic_partition(row, shard_of, n)
    places = partition_ops.dynamic_partition(
        array_ops.range(array_ops.size(flat)), shard_of, n)
    found = [embedding_lookup(s, r, max_norm=max_norm) for s, r in zip(shards, rows)]
    out = partition_ops.dynamic_stitch(places, found)
    return array_ops.reshape(out, array_ops.concat(
        [array_ops.shape(ids), array_ops.shape(out)[1:]], 0), name=name)


def _clip_rows(embeddings, max_norm, ids):
    """Rescales each embedding (the dims after the ids' dims) to an l2-norm <= max_norm."""
    if ids.shape.rank is None or embeddings.shape.rank is None:  # (ranks run time knows)
        axes = array_ops.range(array_ops.rank(ids), array_ops.rank(embeddings))
    else:
        axes = list(range(ids.shape.rank, embeddings.shape.rank))
    # (TF's is `clip_by_norm`'s: its rounding, x * max_norm / norm, is the one users see)
    return reduction_ops.clip_by_norm(embeddings, max_norm, axes)


# -- gradients ---------------------------------------------------------------------------
# Written with the public ops so outer tapes record them (higher-order derivatives).

def _selected(cond, dy, other=None):
    """`dy` where `cond` holds, else `other` (default zeros)."""
    return array_ops.where(cond, dy, array_ops.zeros_like(dy) if other is None else other)


def _activation_grad(name, fn):
    """Registers d/dx of an activation as ``fn(x, y, dy, attrs)`` (y: the op's output)."""
    register_gradient(name)(lambda op, dy: fn(op.inputs[0], op.outputs, dy, op.attrs))


register_gradient("Relu")(lambda op, dy: relu_grad(dy, op.outputs))
# (of the output, as TF's: the gradient's own gradient then reaches x through Relu6, and
# higher derivatives are zeros rather than unconnected)
_activation_grad("Relu6", lambda x, y, dy, a: relu6_grad(dy, y))
_activation_grad("LeakyRelu", lambda x, y, dy, a: leaky_relu_grad(dy, x, a["alpha"]))
_activation_grad("Elu", lambda x, y, dy, a: elu_grad(dy, y))
_activation_grad("Selu", lambda x, y, dy, a: selu_grad(dy, y))
_activation_grad("Softsign", lambda x, y, dy, a: softsign_grad(dy, x))


def _masked_grad_grad(name, grad):
    """Registers the gradient of a gradient op ``name(gradients, features)`` that is linear in
    `gradients` with a slope that is piecewise constant in `features`."""
    def grad_grad(op, ddz):
        features = op.inputs[1]
        return (grad(ddz, features, op.attrs),
                array_ops.zeros_like(features) if op.needs(1) else None)
    register_gradient(name)(grad_grad)


_masked_grad_grad("ReluGrad", lambda ddz, x, a: relu_grad(ddz, x))
_masked_grad_grad("Relu6Grad", lambda ddz, x, a: relu6_grad(ddz, x))
_masked_grad_grad("LeakyReluGrad", lambda ddz, x, a: leaky_relu_grad(ddz, x, a["alpha"]))


def _exponential_grad_grad(name, grad):
    """Registers the gradient of EluGrad/SeluGrad ``(gradients, outputs)``: below zero the
    result is ``gradients * (outputs + c)``, whose slope in `outputs` is `gradients`."""
    def grad_grad(op, ddz):
        gradients, outputs = op.inputs
        return grad(ddz, outputs), _selected(math_ops.less(outputs, 0),
                                             math_ops.multiply(ddz, gradients))
    register_gradient(name)(grad_grad)


_exponential_grad_grad("EluGrad", elu_grad)
_exponential_grad_grad("SeluGrad", selu_grad)


@register_gradient("SoftsignGrad")
def _softsign_grad_grad(op, ddz):
    # z = g / (1 + |x|)^2: dz/dx = -2 g sign(x) / (1 + |x|)^3
    gradients, features = op.inputs
    denominator = math_ops.add(math_ops.abs(features), 1.0)
    d_features = math_ops.realdiv(
        math_ops.multiply(math_ops.multiply(ddz, gradients),
                          math_ops.multiply(math_ops.sign(features), -2.0)),
        math_ops.multiply(math_ops.square(denominator), denominator))
    return softsign_grad(ddz, features), d_features


@register_gradient("SoftplusGrad")
def _softplus_grad_grad(op, ddz):
    # z = g sigmoid(x): dz/dg = sigmoid(x), dz/dx = g sigmoid(x) (1 - sigmoid(x))
    gradients, features = op.inputs
    s = math_ops.sigmoid(features)
    return (math_ops.multiply(ddz, s),
            math_ops.multiply(math_ops.multiply(ddz, gradients),
                              math_ops.multiply(s, math_ops.subtract(1.0, s))))


_activation_grad("L2Loss", lambda x, y, dy, a: math_ops.multiply(x, dy))


def _softmax_backward(softmax, dy, axis):
    """The vector-Jacobian product of softmax along `axis`: (dy - <dy, softmax>) * softmax."""
    inner = reduction_ops.reduce_sum(math_ops.multiply(dy, softmax, name="mul"), axis,
                                     keepdims=True)
    return math_ops.multiply(math_ops.subtract(dy, inner, name="sub"), softmax, name="mul")


@register_gradient("Softmax")
def _softmax_grad(op, dy):
    return _softmax_backward(op.outputs, dy, op.attrs["axis"])


@register_gradient("LogSoftmax")
def _log_softmax_grad(op, dy):
    total = reduction_ops.reduce_sum(dy, op.attrs["axis"], keepdims=True)
    return math_ops.subtract(dy, math_ops.multiply(math_ops.exp(op.outputs), total))


register_gradient("BiasAdd")(lambda op, dy: (dy, bias_add_grad(dy, op.attrs["data_format"])))
# (as TF's: a sum over all but the last axis, not BiasAddGrad)
register_gradient("BiasAddV1")(lambda op, dy: (dy, reduction_ops.reduce_sum(
    dy, array_ops.range(array_ops.rank(dy) - 1))))


@register_gradient("BiasAddGrad")
def _bias_add_grad_grad(op, dbias):
    """TF's: `dbias` broadcast along the channel axis of the summed `out_backprop`."""
    out_backprop = op.inputs[0]
    if op.attrs["data_format"] == "NCHW":
        dbias = array_ops.reshape(dbias, [-1] + [1] * (out_backprop.shape.rank - 2))
    return array_ops.broadcast_to(dbias, array_ops.shape(out_backprop))


def _add_present(a, b):
    """a + b, where None stands for a gradient that nothing sent."""
    return b if a is None else a if b is None else math_ops.add(a, b)


def _xent_logits_grad(logits, loss_grad, backprop, backprop_grad, axis):
    """d/d(logits) of a cross entropy's (loss, backprop = softmax - labels) outputs, either
    gradient None where none reached it (backprop's only in second derivatives)."""
    return _add_present(
        None if loss_grad is None else
        math_ops.multiply(array_ops.expand_dims(loss_grad, axis), backprop, name="mul"),
        None if backprop_grad is None else
        _softmax_backward(softmax(logits, axis), backprop_grad, axis))


@register_gradient("SoftmaxCrossEntropyWithLogits")
def _softmax_xent_grad(op, loss_grad, backprop_grad):
    logits, _ = op.inputs
    axis = op.attrs["axis"]
    d_logits = _xent_logits_grad(logits, loss_grad, op.outputs[1], backprop_grad, axis)
    if not op.needs(1):  # labels are most often data
        return d_logits, None
    # As TF's: only the loss reaches the labels; backprop's own share (-1 per element) does not
    d_labels = array_ops.zeros_like(op.inputs[1]) if loss_grad is None else math_ops.multiply(
        array_ops.expand_dims(loss_grad, axis), math_ops.negative(log_softmax(logits, axis)),
        name="mul")
    return d_logits, d_labels


@register_gradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_xent_grad(op, loss_grad, backprop_grad):
    return _xent_logits_grad(op.inputs[0], loss_grad, op.outputs[1], backprop_grad, -1), None



# -- local response normalization ------------------------------------------------------------

def _lrn(xp, x, depth_radius, bias, alpha, beta):
    """x / (bias + alpha * (sum of the squares of the channels within depth_radius))^beta,
    in the input's precision as TF's kernel computes it."""
    if x.ndim != 4:
        raise _invalid("in must be 4-dimensional")
    norm = _lrn_window_sum(xp, x * x, depth_radius)
    norm = norm * xp.asarray(alpha, x.dtype) + xp.asarray(bias, x.dtype)
    if beta == 1:
        return x / norm
    if beta == 0.5:
        return x / xp.sqrt(norm)
    return x * xp.power(norm, xp.asarray(-beta, x.dtype))


def _lrn_window_sum(xp, t, radius):
    """Along the last axis, the sum of each element's neighbours within `radius` (itself
    included), by shifted copies of `t` padded with zeros."""
    padded = xp.pad(t, [(0, 0)] * (t.ndim - 1) + [(radius, radius)])
    out = xp.zeros_like(t)
    for k in range(2 * radius + 1):
        out += padded[..., k:k + t.shape[-1]]
    return out


def _lrn_rule(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    if x.shape.rank is not None and x.shape.rank != 4:
        raise rules.shape_error("LRN", f"Shape must be rank 4 but is rank {x.shape.rank}",
                                [x.shape])
    return (TensorShape([None] * 4) if x.shape.rank is None else x.shape), x.dtype


_LRN_TYPES = (_d.float16, _d.bfloat16, _d.float32)
_LRN = register("LRN", _lrn, _lrn_rule, dtypes=_LRN_TYPES)
tf_args[_LRN] = ("input",)
tf_defaults[_LRN] = {"depth_radius": 5, "bias": 1.0, "alpha": 1.0, "beta": 0.5}
batching_rules[_LRN] = PER_ELEMENT


@widened
def _lrn_grad_kernel(xp, input_grads, input_image, output_image, depth_radius, bias, alpha,
                     beta):
    """TF's LRNGrad, the gradient of LRN (see `_lrn_grad`) given its input and output."""
    if not input_grads.ndim == input_image.ndim == output_image.ndim == 4:
        raise _invalid("inputs must be 4-dimensional")
    if not input_grads.shape == input_image.shape == output_image.shape:
        raise _invalid("input_grads, input_image, and out_image should have the same shape")
    dtype = input_image.dtype
    norm = _lrn_window_sum(xp, input_image * input_image, depth_radius)
    norm = norm * xp.asarray(alpha, dtype) + xp.asarray(bias, dtype)
    spread = _lrn_window_sum(xp, input_grads * output_image / norm, depth_radius)
    return (input_grads * xp.power(norm, xp.asarray(-beta, dtype))
            - xp.asarray(2 * alpha * beta, dtype) * input_image * spread)


def _lrn_grad_rule(input_grads, input_image, output_image, **_):
    inputs = (input_grads, input_image, output_image)
    for i in range(3):
        rules.check_rank("LRNGrad", inputs, i, rank=4)
    shape = TensorShape([None] * 4)
    for t in inputs:
        if not shape.is_compatible_with(t.shape):
            raise rules.shape_error("LRNGrad", rules.merge_failure(shape, t.shape),
                                    [t.shape for t in inputs])
        shape = shape.merge_with(t.shape)
    return shape, input_grads.dtype


# TF computes LRN's gradient with this op and registers no gradient for it; eagerflow's
# gradient of LRN is made of ops (it has second derivatives), this op is for raw calls and
# GraphDefs that hold it
_LRN_GRAD_INPUTS = ("input_grads", "input_image", "output_image")
_LRN_GRAD = register("LRNGrad", _lrn_grad_kernel, _lrn_grad_rule, tied=(0, 1, 2),
                     dtypes=_LRN_TYPES, input_names=_LRN_GRAD_INPUTS)
tf_args[_LRN_GRAD] = _LRN_GRAD_INPUTS
tf_defaults[_LRN_GRAD] = tf_defaults.get(_LRN)
batching_rules[_LRN_GRAD] = PER_ELEMENT
registry.no_gradient_entry("LRNGrad")


def _lrn_window_sum_ops(t, radius):
    padded = array_ops.pad(t, [[0, 0]] * 3 + [[radius, radius]])
    total = None
    for k in range(2 * radius + 1):
        end = k - 2 * radius
        part = padded[..., k:end if end else None]
        total = part if total is None else math_ops.add(total, part)
    return total


@register_gradient("LRN")
def _lrn_grad(op, dy):
    """TF's LRNGrad: with N = bias + alpha * S, y = x N^-beta,
    dx = dy N^-beta - 2 alpha beta x * S-window(dy y / N)."""
    x, y = op.inputs[0], op.outputs
    radius, bias = op.attrs["depth_radius"], op.attrs["bias"]
    alpha, beta = op.attrs["alpha"], op.attrs["beta"]
    norm = bias + alpha * _lrn_window_sum_ops(math_ops.square(x), radius)
    spread = _lrn_window_sum_ops(dy * y / norm, radius)
    return dy * math_ops.pow(norm, cast(-beta, x.dtype)) - (2 * alpha * beta) * x * spread


@export("nn.local_response_normalization", "nn.lrn")
def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):
    """Local response normalization over the channels (last axis) of a 4-D tensor:
    ``input / (bias + alpha * sum(input[..., d - r:d + r + 1] ** 2)) ** beta``.

    >>> tf.nn.local_response_normalization(tf.ones([1, 1, 1, 2]), depth_radius=1)
    <tf.Tensor: shape=(1, 1, 1, 2), dtype=float32, numpy=array([[[[0.57735026, 0.57735026]]]], dtype=float32)>
    """
    attrs = {"depth_radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha),
             "beta": float(beta)}
    x = as_tensor(input)
    if not isinstance(input, Tensor) and x.dtype not in _LRN_TYPES and \
            isinstance(input, (np.ndarray, list, tuple, float, int)):
        x = as_tensor(np.asarray(input, np.float32))  # (as TF: to the op's default, float32)
    return dispatch(_LRN, (x,), attrs, name=name)


name_functions(globals())


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _BIAS_ADD, _BIAS_ADD_V1, _BIAS_ADD_GRAD, _IN_TOP_K, _L2_LOSS, _LOG_SOFTMAX,
                      _SOFTMAX, _SOFTMAX_XENT, _SPARSE_SOFTMAX_XENT)

