"""Fused batch normalization: ``FusedBatchNormV3`` and its gradient ``FusedBatchNormGradV3``.

One kernel normalizes per channel (NHWC, NCHW, NDHWC or NCDHW) with one reduction
for the mean and one for the centered variance, then scales and shifts the
centered copy in place; the gradient kernel does the same for ``dx``, ``dscale``
and ``doffset``. As TensorFlow's CPU kernels: the batch variance output is
Bessel-corrected (for moving averages) while the normalization and
``reserve_space_2`` use the biased one; 16-bit inputs are computed in float32.

>>> y, mean, variance = fused_batch_norm(tf.constant([[[[1.0], [3.0]]]]), [1.0], [0.0],
...                                      epsilon=0.0)
>>> y.numpy().ravel(), mean.numpy(), variance.numpy()
(array([-1.,  1.], dtype=float32), array([2.], dtype=float32), array([2.], dtype=float32))
"""
import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import attr_dtype_error, no_kernel_error, register
from eagerflow._src.core.registry import register_gradient
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.backend import onednn_normalization
from eagerflow._src.backend.api_export import export
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.nn_ops import _RELU_GRAD, shape_text
from eagerflow._src.ops.wrappers import as_tensor

_RANKS = {"NHWC": 4, "NCHW": 4, "NDHWC": 5, "NCDHW": 5}
_BLOCK = 2048


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _channels_first(data_format):
    return data_format.startswith("NC")


def _as_ncs(xp, x, data_format, dtype):
    """`x` as an (N, C, S) array of `dtype`, and whether it is a private copy.

    Channels-last data is (N*spatial, C, 1): every kernel then reduces over axes
    0 and 2 and broadcasts per-channel vectors shaped (C, 1).
    """
    if _channels_first(data_format):
        view = x.reshape(x.shape[0], x.shape[1], -1)
    else:
        view = x.reshape(-1, x.shape[-1], 1)
    if view.dtype != dtype:
        return view.astype(dtype), True
    return view, False


def _channel_sum(xp, a, b=None):
    """Per-channel sum of (N, C, S) array `a` (or of ``a * b``), in `a`'s dtype.

    Blocks of about 2048 elements per channel are summed in `a`'s dtype and the
    block sums in float64: accurate on millions of elements, and as fast as one
    plain reduction.
    """
    n, c, s = a.shape
    block = max(1, _BLOCK // s)
    whole = n // block * block
    spec = "bncs->bc" if b is None else "bncs,bncs->bc"
    operands = (a,) if b is None else (a, b)
    total = xp.einsum(spec, *(t[:whole].reshape(-1, block, c, s) for t in operands)).sum(
        0, dtype=xp.float64)
    if whole < n:
        total += xp.einsum(spec, *(t[None, whole:] for t in operands))[0]
    return total.astype(a.dtype)


def _check(x, data_format, **per_channel):
    """TensorFlow's checks of the input rank and of the per-channel vectors' sizes."""
    rank = _RANKS.get(data_format)
    if rank is None:
        raise _invalid(f"Invalid data format: {data_format}")
    if x.ndim != rank:
        raise _invalid(f"input must be {rank}-dimensional{shape_text(x.shape)}")
    channels = x.shape[1 if _channels_first(data_format) else -1]
    for role, v in per_channel.items():
        if v.ndim != 1:
            raise _invalid(f"{role} must be 1-dimensional{shape_text(v.shape)}")
        if v.shape[0] != channels:
            raise _invalid(f"{role} must have the same number of elements as the channels "
                           f"of x, got {v.shape[0]} and {channels}")


def _running(xp, mean, variance, batch_mean, batch_var, count, exponential_avg_factor,
             is_training):
    """The running mean and variance outputs: in training the batch's, the variance
    Bessel-corrected, blended into `mean` and `variance` by `exponential_avg_factor`."""
    if not is_training:
        return mean.copy(), variance.copy()
    dtype = batch_var.dtype
    corrected = batch_var * dtype.type(count / (count - 1) if count > 1 else 1)
    if exponential_avg_factor == 1.0:
        return batch_mean, corrected
    keep, factor = dtype.type(1 - exponential_avg_factor), dtype.type(exponential_avg_factor)
    return keep * mean + factor * batch_mean, keep * variance + factor * corrected


def _fused_batch_norm(xp, x, scale, offset, mean, variance, epsilon=1e-4,
                      exponential_avg_factor=1.0, data_format="NHWC", is_training=True):
    uses_stats = not is_training or exponential_avg_factor != 1.0
    _check(x, data_format, scale=scale, offset=offset,
           **({"mean": mean, "variance": variance} if uses_stats else {}))
    dtype = scale.dtype
    native = (onednn_normalization.batch_norm(x, scale, offset, mean, variance, epsilon,
                                              is_training, data_format) if xp is np else None)
    if native is not None:
        y, batch_mean, batch_var = native
        count = x.size // max(batch_mean.size, 1)
        return (y, *_running(xp, mean, variance, batch_mean, batch_var, count,
                             exponential_avg_factor, is_training),
                batch_mean.copy(), batch_var.copy(), xp.zeros((0,), dtype))
    data, owned = _as_ncs(xp, x, data_format, dtype)
    count = data.shape[0] * data.shape[2]
    if is_training:
        batch_mean = _channel_sum(xp, data) / dtype.type(max(count, 1))
    else:
        batch_mean = mean
    # centered in place when `data` is already a private copy
    y = xp.subtract(data, batch_mean[:, None], out=data if owned else None)
    if is_training:
        batch_var = _channel_sum(xp, y, y) / dtype.type(max(count, 1))
    else:
        batch_var = variance
    running_mean, running_var = _running(xp, mean, variance, batch_mean, batch_var, count,
                                         exponential_avg_factor, is_training)
    multiplier = scale / xp.sqrt(batch_var + dtype.type(epsilon))
    y *= multiplier[:, None]
    if offset.any():  # a pass saved for layer normalization and center=False
        y += offset[:, None]
    y = y.reshape(x.shape).astype(x.dtype, copy=False)
    # the reserve spaces are copies: no two outputs share a buffer
    return (y, running_mean, running_var, batch_mean.copy(), batch_var.copy(),
            xp.zeros((0,), dtype))


def _check_grad(y_backprop, x, scale, reserve_space_1, reserve_space_2, data_format):
    _check(x, data_format, scale=scale, reserve_space_1=reserve_space_1,
           reserve_space_2=reserve_space_2)
    if y_backprop.shape != x.shape:
        raise _invalid(f"x and y_backprop must have same shape, but x has shape "
                       f"{shape_text(x.shape)} and y_backprop has shape "
                       f"{shape_text(y_backprop.shape)}")


def _fused_batch_norm_grad(xp, y_backprop, x, scale, reserve_space_1, reserve_space_2,
                           reserve_space_3, epsilon=1e-4, data_format="NHWC", is_training=True):
    _check_grad(y_backprop, x, scale, reserve_space_1, reserve_space_2, data_format)
    dtype = scale.dtype
    native = (onednn_normalization.batch_norm_grad(
        y_backprop, x, scale, reserve_space_1, reserve_space_2, epsilon, is_training,
        data_format) if xp is np else None)
    if native is not None:
        empty = xp.zeros((0,), dtype)
        return (*native, empty, empty)
    dy, _ = _as_ncs(xp, y_backprop, data_format, dtype)
    data, owned = _as_ncs(xp, x, data_format, dtype)
    count = dtype.type(max(data.shape[0] * data.shape[2], 1))
    inv_std = 1 / xp.sqrt(reserve_space_2 + dtype.type(epsilon))
    offset_backprop = _channel_sum(xp, dy)
    centered = xp.subtract(data, reserve_space_1[:, None], out=data if owned else None)
    spread = _channel_sum(xp, dy, centered)  # sum(dy * (x - mean)) per channel
    scale_backprop = spread * inv_std
    multiplier = scale * inv_std
    if is_training:
        # dx = scale * inv_std * (dy - mean(dy) - x_hat * mean(dy * x_hat)), reusing `centered`
        centered *= (-(inv_std * inv_std) * spread / count)[:, None]
        centered += dy
        centered -= (offset_backprop / count)[:, None]
        centered *= multiplier[:, None]
        dx = centered
    else:
        dx = dy * multiplier[:, None]
    dx = dx.reshape(x.shape).astype(x.dtype, copy=False)
    empty = xp.zeros((0,), dtype)
    return dx, scale_backprop, offset_backprop, empty, empty


def _channels(x, data_format):
    if x.shape.rank is None:
        return None
    return x.shape[1 if _channels_first(data_format) else -1]


def _fused_batch_norm_rule(x, scale, offset, mean, variance, data_format="NHWC", **_):
    shape, channels = x.shape, _channels(x, data_format)
    if shape.rank is None:  # traced with a rank unknown: the op's, its channels the scale's
        channels = next((t.shape[0] for t in (scale, offset) if t.shape.rank == 1
                         and t.shape[0] is not None), None)
        dims = [None] * len(data_format)
        dims[1 if _channels_first(data_format) else -1] = channels
        shape = TensorShape(dims)
    vector = (TensorShape([channels]), scale.dtype)
    return [(shape, x.dtype), vector, vector, vector, vector,
            (TensorShape([0]), scale.dtype)]


def _fused_batch_norm_grad_rule(y_backprop, x, scale, *_, data_format="NHWC", **__):
    vector = (TensorShape([_channels(x, data_format)]), scale.dtype)
    empty = (TensorShape([0]), scale.dtype)
    return [(x.shape, x.dtype), vector, vector, empty, empty]


_FLOATS = (_d.float16, _d.bfloat16, _d.float32, _d.float64)
# Every output is a new array (`fresh`): a graph's element-wise op may write over a dead
# one (a residual block's sum over the normalization's result).
# TF's FusedBatchNormV3 takes no float64 (T: half, bfloat16, float; U: bfloat16, float), and
# its CPU kernels only float32 parameters (U).
_V3_TYPES = (_d.float16, _d.bfloat16, _d.float32)
_V3_PARAMETER_TYPES = (_d.bfloat16, _d.float32)
_FUSED_BATCH_NORM = register("FusedBatchNormV3", _fused_batch_norm, _fused_batch_norm_rule,
                             multi=True, dtypes=_V3_TYPES, fresh=True)
tf_nodes[_FUSED_BATCH_NORM] = NodeForm(
    types={"T": 0, "U": 1}, outputs=("y", "batch_mean", "batch_variance", "reserve_space_1",
                                     "reserve_space_2", "reserve_space_3"))
tf_args[_FUSED_BATCH_NORM] = ("x", "scale", "offset", "mean", "variance")
tf_defaults[_FUSED_BATCH_NORM] = {"epsilon": 1e-4, "exponential_avg_factor": 1.0,
                                 "data_format": "NHWC", "is_training": True}
_FUSED_BATCH_NORM_GRAD = register("FusedBatchNormGradV3", _fused_batch_norm_grad,
                                  _fused_batch_norm_grad_rule, multi=True, tied=(0, 1),
                                  dtypes=_FLOATS, fresh=True)
tf_nodes[_FUSED_BATCH_NORM_GRAD] = NodeForm(
    types={"T": 0, "U": 2}, outputs=("x_backprop", "scale_backprop", "offset_backprop",
                                     "reserve_space_4", "reserve_space_5"))
tf_args[_FUSED_BATCH_NORM_GRAD] = ("y_backprop", "x", "scale", "reserve_space_1", "reserve_space_2",
                                   "reserve_space_3")
tf_defaults[_FUSED_BATCH_NORM_GRAD] = {"epsilon": 1e-4, "data_format": "NHWC", "is_training": True}


# FusedBatchNorm and FusedBatchNormV2 (and their gradients), as older graphs hold them: V3's
# kernels without its reserve_space_3 (V1 takes float32 alone, V2 no float64).
def _fused_batch_norm_v2(xp, *inputs, **attrs):
    return _fused_batch_norm(xp, *inputs, **attrs)[:5]


def _fused_batch_norm_grad_v2(xp, *inputs, **attrs):
    return _fused_batch_norm_grad(xp, *inputs, None, **attrs)


_OLDER = {}  # forward op's name -> its gradient op
for _name, _dtypes, _types in (("FusedBatchNorm", (_d.float32,), {"T": 0}),
                               ("FusedBatchNormV2", _FLOATS[:3], {"T": 0, "U": 1})):
    _forward = register(_name, _fused_batch_norm_v2,
                        lambda *args, **attrs: _fused_batch_norm_rule(*args, **attrs)[:5],
                        multi=True, dtypes=_dtypes, fresh=True)
    tf_nodes[_forward] = NodeForm(types=_types, outputs=tf_nodes.get(_FUSED_BATCH_NORM).outputs[:5])
    tf_args[_forward] = tf_args.get(_FUSED_BATCH_NORM)
    tf_defaults[_forward] = tf_defaults.get(_FUSED_BATCH_NORM)
    _grad = register(_name.replace("Norm", "NormGrad"), _fused_batch_norm_grad_v2,
                     _fused_batch_norm_grad_rule, multi=True, tied=(0, 1), dtypes=_dtypes,
                     fresh=True)
    tf_nodes[_grad] = NodeForm(
        types={**_types, "U": 2} if "U" in _types else _types,
        outputs=("x_backprop", "scale_backprop", "offset_backprop", "reserve_space_3",
                 "reserve_space_4"))
    tf_args[_grad] = tf_args.get(_FUSED_BATCH_NORM_GRAD)[:5]
    tf_defaults[_grad] = tf_defaults.get(_FUSED_BATCH_NORM_GRAD)
    _OLDER[_forward.name] = _grad
    batching_rules.assign(PER_ELEMENT, _forward, _grad)  # (once per batch element, as V3)


def _check_parameter_dtypes(x, tensors):
    """TF's checks of the per-channel tensors' dtype (attribute U), once `x`'s is allowed."""
    if x.dtype not in _V3_TYPES:
        return  # (dispatch's check of attribute T reports it)
    names = ("scale", "offset", "mean", "variance")
    for name, t in zip(names, tensors):
        if t.dtype not in _V3_PARAMETER_TYPES:
            raise attr_dtype_error("FusedBatchNormV3", "U", t.dtype, _V3_PARAMETER_TYPES,
                                   param=name)
    if not context.executing_eagerly():  # a graph takes the first tensor's type for all
        for name, t in zip(names[1:], tensors[1:]):
            if t.dtype != tensors[0].dtype:
                raise TypeError(f"Input '{name}' of 'FusedBatchNormV3' Op has type "
                                f"{t.dtype.name} that does not match type "
                                f"{tensors[0].dtype.name} of argument 'scale'.")
    for t in tensors:
        if t.dtype != _d.float32:
            raise no_kernel_error("FusedBatchNormV3", {"T": x.dtype, "U": t.dtype},
                                  (_d.bfloat16, _d.float16, _d.float32),
                                  graph=not context.executing_eagerly())


def fused_batch_norm_v3(x, scale, offset, mean, variance, epsilon=0.0001,
                        exponential_avg_factor=1.0, data_format="NHWC", is_training=True,
                        name=None):
    """The six outputs of ``FusedBatchNormV3`` (as ``tf.raw_ops.FusedBatchNormV3``).

    ``(y, batch_mean, batch_variance, reserve_space_1, reserve_space_2, reserve_space_3)``:
    in training the reserve spaces hold the batch mean and the biased batch variance.

    >>> outputs = fused_batch_norm_v3(tf.constant([[[[1.0], [3.0]]]]), [1.0], [0.0], [], [])
    >>> outputs[2].numpy(), outputs[4].numpy()  # corrected and biased batch variance
    (array([2.], dtype=float32), array([1.], dtype=float32))
    """
    x = as_tensor(x)
    # Non-tensors convert to float32, the parameters' dtype: a float32 variable reads as
    # float32 even in a layer whose mixed policy reads weights as float16.
    inputs = [x] + [as_tensor(v, None if isinstance(v, Tensor) else _d.float32)
                    for v in (scale, offset, mean, variance)]
    _check_parameter_dtypes(x, inputs[1:])
    attrs = {"epsilon": float(epsilon), "exponential_avg_factor": float(exponential_avg_factor),
             "data_format": data_format, "is_training": bool(is_training)}
    return dispatch(_FUSED_BATCH_NORM, tuple(inputs), attrs, name=name)


@export("compat.v1.nn.fused_batch_norm")
def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None,
                     exponential_avg_factor=1.0):
    """Batch normalization of 4-D or 5-D `x` per channel: ``(y, running_mean, running_var)``.

    Training normalizes with the batch statistics and returns them (the variance
    Bessel-corrected), blended into `mean` and `variance` when
    `exponential_avg_factor` is not 1; inference normalizes with `mean` and `variance`.

    >>> fused_batch_norm(tf.constant([[[[2.0]]]]), [2.0], [1.0], [1.0], [4.0], epsilon=0.0,
    ...                  is_training=False)[0].numpy().ravel()
    array([2.], dtype=float32)
    """
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is "
                         "False or `exponential_avg_factor` != 1.0. Received: `mean` "
                         f"{mean!r} and `variance` {variance!r}")
    return fused_batch_norm_v3(x, scale, offset, [] if mean is None else mean,
                               [] if variance is None else variance, epsilon,
                               exponential_avg_factor, data_format, is_training, name)[:3]


# -- gradients ---------------------------------------------------------------------------
# As TensorFlow: no gradient reaches the statistics (inputs or outputs), only dy flows.

@register_gradient("FusedBatchNormV3")
@register_gradient("FusedBatchNormV2")
@register_gradient("FusedBatchNorm")
def _fused_batch_norm_backprop(op, dy, *_):
    x, scale = op.inputs[:2]
    dx, dscale, doffset, _, _ = dispatch(
        _OLDER.get(op.name, _FUSED_BATCH_NORM_GRAD), (dy, x, scale, *op.outputs[3:]),
        {"epsilon": op.attrs["epsilon"], "data_format": op.attrs["data_format"],
         "is_training": op.attrs["is_training"]})
    return dx, dscale, doffset, None, None


@register_gradient("FusedBatchNormGradV3")
@register_gradient("FusedBatchNormGradV2")
@register_gradient("FusedBatchNormGrad")
def _fused_batch_norm_grad_backprop(op, ddx, ddscale, ddoffset, *_):
    """Second derivatives, in closed form; in training the statistics are those of x.

    With x_hat = (x - mean) * r, r = 1 / sqrt(var + epsilon), m elements per channel
    and the sums per channel a = sum(dy), b = sum(dy x_hat), u = sum(ddx),
    p = sum(ddx x_hat), q = sum(ddx dy), the grad op computes
    dx = scale r / m (m dy - a - x_hat b), dscale = b and doffset = a.
    """
    dy, x, scale, mean, variance = op.inputs[:5]
    data_format = op.attrs["data_format"]
    dtype = scale.dtype
    rank = x.shape.rank
    channel_axis = 1 if _channels_first(data_format) else rank - 1
    axes = [i for i in range(rank) if i != channel_axis]
    per_channel = [-1 if i == channel_axis else 1 for i in range(rank)]

    def widen(t):  # per-channel vector -> broadcastable against x
        return array_ops.reshape(t, per_channel)

    def total(t):
        return reduction_ops.reduce_sum(t, axes)
    dy, x, ddx = (cast(t, dtype) for t in (dy, x, ddx))
    r = math_ops.rsqrt(math_ops.add(variance, op.attrs["epsilon"]))
    x_hat = math_ops.multiply(math_ops.subtract(x, widen(mean)), widen(r))
    ddscale_x_hat = math_ops.multiply(widen(ddscale), x_hat)
    if not op.attrs["is_training"]:
        d_dy = math_ops.add(math_ops.add(math_ops.multiply(widen(scale * r), ddx),
                                         ddscale_x_hat), widen(ddoffset))
        d_x = math_ops.multiply(widen(ddscale * r), dy)
        d_scale = math_ops.multiply(r, total(math_ops.multiply(ddx, dy)))
        return (cast(d_dy, op.inputs[0].dtype), cast(d_x, op.inputs[1].dtype), d_scale,
                *[None] * (len(op.inputs) - 3))
    m = math_ops.realdiv(cast(array_ops.size(x), dtype), cast(array_ops.size(scale), dtype))
    a, b = total(dy), total(math_ops.multiply(dy, x_hat))
    u, p = total(ddx), total(math_ops.multiply(ddx, x_hat))
    q = total(math_ops.multiply(ddx, dy))

    def centered_combination(v, sum_v, sum_v_x_hat):  # m v - sum(v) - x_hat sum(v x_hat)
        return math_ops.subtract(math_ops.subtract(math_ops.multiply(m, v), widen(sum_v)),
                                 math_ops.multiply(x_hat, widen(sum_v_x_hat)))
    d_dy = math_ops.add(math_ops.multiply(widen(scale * r / m), centered_combination(ddx, u, p)),
                        math_ops.add(ddscale_x_hat, widen(ddoffset)))
    d_scale = r / m * (m * q - u * a - p * b)
    x_hat_coefficient = (a * u + 3.0 * b * p - m * q) / m
    curvature = math_ops.add(
        math_ops.subtract(math_ops.multiply(x_hat, widen(x_hat_coefficient)),
                          math_ops.add(math_ops.multiply(widen(p), dy),
                                       math_ops.multiply(widen(b), ddx))),
        widen((p * a + b * u) / m))
    d_x = math_ops.add(math_ops.multiply(widen(scale * r * r / m), curvature),
                       math_ops.multiply(widen(ddscale * r / m), centered_combination(dy, a, b)))
    return (cast(d_dy, op.inputs[0].dtype), cast(d_x, op.inputs[1].dtype), d_scale,
            *[None] * (len(op.inputs) - 3))


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _FUSED_BATCH_NORM_GRAD, _FUSED_BATCH_NORM)


# -- batch normalization and ReLU in one op -----------------------------------------------
# ``_FusedBatchNormEx`` with activation_mode "Relu" is ``relu(FusedBatchNormV3(...)[0])``
# with the other outputs of FusedBatchNormV3; ``_FusedBatchNormGradEx`` takes the gradient
# of that ReLU's result (and the result itself, `y`) and gives FusedBatchNormGradV3's
# outputs. TensorFlow's remapper makes the same pair; here the graph passes make them
# (`graph.passes.batch_norm_fusion`) from a function's ops and their gradients. In
# training on oneDNN the ReLU runs inside the normalization, which keeps its mask in
# reserve_space_3 for the gradient; elsewhere reserve_space_3 is empty and the gradient
# masks with `y`, as ReluGrad does. With a side input (num_side_inputs 1, as TensorFlow's
# remapper makes on GPUs: a residual block's sum) the result is
# ``relu(FusedBatchNormV3(...)[0] + side_input)``, reserve_space_3 is empty, and the
# gradients are those of the ops it stands for (`graph.passes.batch_norm_add_fusion`).

_ACTIVATION_MODES = ("Identity", "Relu")


def _activation_mode(activation_mode):
    if activation_mode not in _ACTIVATION_MODES:
        raise _invalid(f"Unsupported activation mode: {activation_mode}")
    return activation_mode == "Relu"


def _side_input(x, side_inputs, num_side_inputs, relu):
    """The one side input (or None), checked as TensorFlow's kernel checks it."""
    if len(side_inputs) != num_side_inputs or num_side_inputs > 1:
        raise _invalid(f"_FusedBatchNormEx supports at most one side input, got "
                       f"{len(side_inputs)} (num_side_inputs={num_side_inputs})")
    if not side_inputs:
        return None
    side = side_inputs[0]
    if not relu:
        raise _invalid("_FusedBatchNormEx: Identity activation is not supported with "
                       "non-empty side input")
    if side.shape != x.shape or side.dtype != x.dtype:
        raise _invalid(f"side_input must have the shape and dtype of x, got "
                       f"{shape_text(side.shape)} {side.dtype} and {shape_text(x.shape)} "
                       f"{x.dtype}")
    return side


def _fused_batch_norm_ex(xp, x, scale, offset, mean, variance, *side_inputs, epsilon=1e-4,
                         exponential_avg_factor=1.0, data_format="NHWC", is_training=True,
                         activation_mode="Identity", num_side_inputs=0):
    relu = _activation_mode(activation_mode)
    side = _side_input(x, side_inputs, num_side_inputs, relu)
    if relu and is_training and xp is np:
        _check(x, data_format, scale=scale, offset=offset,
               **({"mean": mean, "variance": variance} if exponential_avg_factor != 1.0
                  else {}))
        if side is None:
            native = onednn_normalization.batch_norm_relu(x, scale, offset, epsilon,
                                                          data_format)
        else:
            native = onednn_normalization.batch_norm_add_relu(x, scale, offset, side,
                                                              epsilon, data_format)
            if native is not None:
                native = (*native, xp.zeros((0,), scale.dtype))
        if native is not None:
            y, batch_mean, batch_var, workspace = native
            count = x.size // max(batch_mean.size, 1)
            return (y, *_running(xp, mean, variance, batch_mean, batch_var, count,
                                 exponential_avg_factor, is_training),
                    batch_mean.copy(), batch_var.copy(), workspace)
    outputs = _fused_batch_norm(xp, x, scale, offset, mean, variance, epsilon,
                                exponential_avg_factor, data_format, is_training)
    if side is not None:  # y is a new array
        xp.add(outputs[0], side, out=outputs[0])
    if relu:
        xp.maximum(outputs[0], xp.zeros((), outputs[0].dtype), out=outputs[0])
    return outputs


def _fused_batch_norm_grad_ex(xp, y_backprop, x, scale, reserve_space_1, reserve_space_2,
                              reserve_space_3, offset, y, epsilon=1e-4, data_format="NHWC",
                              is_training=True, activation_mode="Identity"):
    relu = _activation_mode(activation_mode)
    if relu:
        _check_grad(y_backprop, x, scale, reserve_space_1, reserve_space_2, data_format)
        if y.shape != x.shape:
            raise _invalid(f"x and y must have same shape, but x has shape "
                           f"{shape_text(x.shape)} and y has shape {shape_text(y.shape)}")
        if is_training and xp is np and reserve_space_3.size:
            native = onednn_normalization.batch_norm_relu_grad(
                y_backprop, x, scale, reserve_space_1, reserve_space_2, reserve_space_3,
                epsilon, data_format)
            if native is not None:
                empty = xp.zeros((0,), scale.dtype)
                return (*native, empty, empty)
        y_backprop = _RELU_GRAD.kernel(xp, y_backprop, y)
    return _fused_batch_norm_grad(xp, y_backprop, x, scale, reserve_space_1, reserve_space_2,
                                  reserve_space_3, epsilon, data_format, is_training)


def _fused_batch_norm_ex_rule(*args, **attrs):
    # reserve_space_3 holds oneDNN's mask: its size depends on the kernel that runs
    return _fused_batch_norm_rule(*args[:5], **attrs)[:5] + [
        (TensorShape([None]), args[1].dtype)]


_FUSED_BATCH_NORM_EX = register("_FusedBatchNormEx", _fused_batch_norm_ex,
                                _fused_batch_norm_ex_rule, multi=True, dtypes=_FLOATS,
                                fresh=True)
tf_nodes[_FUSED_BATCH_NORM_EX] = NodeForm(
    types={"T": 0, "U": 1},
    outputs=("y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2",
             "reserve_space_3"))
tf_args[_FUSED_BATCH_NORM_EX] = ("x", "scale", "offset", "mean", "variance")
tf_defaults[_FUSED_BATCH_NORM_EX] = {"epsilon": 1e-4, "exponential_avg_factor": 1.0,
                                    "data_format": "NHWC", "is_training": True,
                                    "activation_mode": "Identity", "num_side_inputs": 0}
_FUSED_BATCH_NORM_GRAD_EX = register(
    "_FusedBatchNormGradEx", _fused_batch_norm_grad_ex, _fused_batch_norm_grad_rule,
    multi=True, tied=(0, 1, 7), dtypes=_FLOATS, fresh=True,
    not_differentiable="made by graph fusion after gradients are built; nested tapes see "
                       "the ops it replaces")
tf_nodes[_FUSED_BATCH_NORM_GRAD_EX] = NodeForm(
    types={"T": 0, "U": 2}, fixed={"num_side_inputs": 0},
    outputs=("x_backprop", "scale_backprop", "offset_backprop", "reserve_space_4",
             "reserve_space_5"))
tf_args[_FUSED_BATCH_NORM_GRAD_EX] = ("y_backprop", "x", "scale", "reserve_space_1",
                                      "reserve_space_2", "reserve_space_3", "offset", "y")
tf_defaults[_FUSED_BATCH_NORM_GRAD_EX] = {"epsilon": 1e-4, "data_format": "NHWC",
                                         "is_training": True, "activation_mode": "Identity"}


@register_gradient("_FusedBatchNormEx")
def _fused_batch_norm_ex_backprop(op, dy, *_):
    x, scale, offset = op.inputs[:3]
    dx, dscale, doffset, _, _ = dispatch(
        _FUSED_BATCH_NORM_GRAD_EX, (dy, x, scale, *op.outputs[3:], offset, op.outputs[0]),
        {key: op.attrs[key] for key in ("epsilon", "data_format", "is_training",
                                        "activation_mode") if key in op.attrs})
    # a side input's gradient is the ReLU's (reserve_space_3 is empty then: the gradient
    # op masks dy with the result as well)
    sides = [dispatch(_RELU_GRAD, (dy, op.outputs[0]), {}) for _ in op.inputs[5:]]
    return (dx, dscale, doffset, None, None, *sides)


batching_rules.assign(PER_ELEMENT, _FUSED_BATCH_NORM_EX, _FUSED_BATCH_NORM_GRAD_EX)
