"""Fake quantization (``tf.quantization.fake_quant_*``): float32 values rounded to the grid
of `num_bits`-bit integers spanning [min, max], as quantization-aware training simulates.

TF first "nudges" the range so that 0.0 falls on the grid: the zero point ``qmin - min /
scale`` (scale ``(max - min) / (qmax - qmin)``) is rounded half away from zero into
[qmin, qmax] (qmin 1 with `narrow_range`, else 0; qmax ``2**num_bits - 1``) and the range
moved with it. Inputs are clamped to the nudged range, then rounded to the nearest step
(half up). Gradients pass through inside the nudged range (boundaries included); the
variable forms also give `min` and `max` the gradients of the inputs below and above it.
All arithmetic is float32, as TF's kernels do it.

>>> tf.quantization.fake_quant_with_min_max_args([-0.1, 0.26, 2.0], -1.0, 1.5)
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([-0.09803922,  0.2647059 ,  1.5       ], dtype=float32)>
"""
import collections

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, is_tensor_like
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, attr_dtype_error, batching_rules, \
    no_kernel_error, register, register_gradient
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import shape_rules as rules

_F32 = np.float32


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _check_bits(num_bits):
    if not 2 <= num_bits <= 16:
        raise _invalid("num_bits must be between 2 and 16, inclusive")


def _nudged(low, high, num_bits, narrow_range):
    """(nudged min, nudged max, scale, inverse scale) of the range [low, high] (float32
    scalars or per-channel vectors)."""
    qmin, qmax = _F32(1 if narrow_range else 0), _F32((1 << num_bits) - 1)
    low, high = np.asarray(low, _F32), np.asarray(high, _F32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        scale = (high - low) / (qmax - qmin)
        inverse = (qmax - qmin) / (high - low)  # (TF's, not the reciprocal of the scale)
        zero_from_min = qmin - low / scale
        rounded = np.sign(zero_from_min) * np.floor(np.abs(zero_from_min) + _F32(0.5))
        zero = np.where(zero_from_min < qmin, qmin,
                        np.where(zero_from_min > qmax, qmax, rounded)).astype(_F32)
        return (qmin - zero) * scale, (qmax - zero) * scale, scale, inverse


def _quantized(x, low, high, num_bits, narrow_range, divide=False):
    """`x` fake-quantized; `divide`: steps counted by dividing by the scale (TF's scalar
    variable form) rather than multiplying by its inverse (the others). A range of
    exactly [0, 0] gives zeros."""
    nudged_min, nudged_max, scale, inverse = _nudged(low, high, num_bits, narrow_range)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        offset = np.floor(-nudged_min * inverse + _F32(0.5))
        shifted = np.maximum(np.minimum(x, nudged_max), nudged_min) - nudged_min
        steps = shifted / scale if divide else shifted * inverse
        out = (np.floor(steps - offset + _F32(0.5)) * scale).astype(_F32)
    return np.where((np.asarray(low) == 0) & (np.asarray(high) == 0), _F32(0), out)


def _inside(x, low, high, num_bits, narrow_range):
    """(inside the nudged range, below it, above it) of each input; a range of exactly
    [0, 0] lets every gradient through to the input."""
    nudged_min, nudged_max = _nudged(low, high, num_bits, narrow_range)[:2]
    zero = (np.asarray(low) == 0) & (np.asarray(high) == 0)
    return ((x >= nudged_min) & (x <= nudged_max)) | zero, (x < nudged_min) & ~zero, \
        (x > nudged_max) & ~zero


def _check_args(low, high, num_bits):
    if not low < high:
        raise _invalid(f"min has to be smaller than max, was: {low:g} >= {high:g}")
    _check_bits(num_bits)


def _same_shape(op_name, gradients, inputs, variables):
    if gradients.shape == inputs.shape:
        return
    if variables:
        raise _invalid("gradient and input must be the same size")
    raise _invalid(f"Inputs to operation {op_name} of type {op_name} must have the same size "
                   f"and shape.  Input 0: {errors.shape_text(gradients.shape)} != input 1: "
                   f"{errors.shape_text(inputs.shape)}")


def _check_range(x, low, high, per_channel):
    """TF's checks of the `min` and `max` inputs (scalars, or one per channel)."""
    rank = 1 if per_channel else 0
    for name, value in (("min", low), ("max", high)):
        if value.ndim != rank:
            raise _invalid(f"`{name}` must be rank {rank} but is rank {value.ndim}")
    if per_channel:
        if x.ndim == 0:
            raise _invalid("inputs must be at least rank 1, got shape []")
        for name, value in (("min", low), ("max", high)):
            if value.shape[0] != x.shape[-1]:
                raise _invalid(f"{name} has incorrect size, expected {x.shape[-1]} was "
                               f"{value.shape[0]}")


# -- kernels -----------------------------------------------------------------------------------

def _args_kernel(xp, inputs, min=-6.0, max=6.0, num_bits=8, narrow_range=False):
    _check_args(_F32(min), _F32(max), num_bits)
    return _quantized(inputs, _F32(min), _F32(max), num_bits, narrow_range)


def _args_grad_kernel(xp, gradients, inputs, min=-6.0, max=6.0, num_bits=8,
                      narrow_range=False):
    _check_args(_F32(min), _F32(max), num_bits)
    _same_shape("FakeQuantWithMinMaxArgsGradient", gradients, inputs, False)
    inside = _inside(inputs, _F32(min), _F32(max), num_bits, narrow_range)[0]
    return np.where(inside, gradients, _F32(0)).astype(_F32)


def _vars_kernel(per_channel):
    def kernel(xp, inputs, min, max, num_bits=8, narrow_range=False):
        _check_bits(num_bits)
        _check_range(inputs, min, max, per_channel)
        return _quantized(inputs, min, max, num_bits, narrow_range, divide=not per_channel)
    return kernel


def _vars_grad_kernel(per_channel):
    def kernel(xp, gradients, inputs, min, max, num_bits=8, narrow_range=False):
        _check_bits(num_bits)
        _same_shape("", gradients, inputs, True)
        _check_range(inputs, min, max, per_channel)
        inside, below, above = _inside(inputs, min, max, num_bits, narrow_range)
        axes = tuple(range(inputs.ndim - 1)) if per_channel else None
        zero = _F32(0)
        return (np.where(inside, gradients, zero).astype(_F32),
                np.sum(np.where(below, gradients, zero), axis=axes, dtype=_F32),
                np.sum(np.where(above, gradients, zero), axis=axes, dtype=_F32))
    return kernel


# -- shape rules -------------------------------------------------------------------------------

def _args_rule(inputs, **_):
    return inputs.shape, _d.float32


def _args_grad_rule(gradients, inputs, **_):
    return inputs.shape, _d.float32


def _check_range_ranks(op_name, inputs, per_channel):
    for i in (len(inputs) - 2, len(inputs) - 1):
        rules.check_rank(op_name, inputs, i, rank=1 if per_channel else 0)


def _vars_rule(op_name, per_channel):
    def rule(inputs, min, max, **_):
        _check_range_ranks(op_name, [inputs, min, max], per_channel)
        return inputs.shape, _d.float32
    return rule


def _vars_grad_rule(op_name, per_channel):
    def rule(gradients, inputs, min, max, **_):
        _check_range_ranks(op_name, [gradients, inputs, min, max], per_channel)
        channels = TensorShape([inputs.shape[-1] if inputs.shape.rank else None]) \
            if per_channel else TensorShape([])
        return [(inputs.shape, _d.float32), (channels, _d.float32), (channels, _d.float32)]
    return rule


# -- registration ------------------------------------------------------------------------------

_NOT_DIFFERENTIABLE = "TF declares it not differentiable"
_F32_ONLY = dict(dtypes=(_d.float32,), type_attr=None)
_ARGS = register("FakeQuantWithMinMaxArgs", _args_kernel, _args_rule, **_F32_ONLY)
_ARGS_GRAD = register("FakeQuantWithMinMaxArgsGradient", _args_grad_kernel, _args_grad_rule,
                      tied=(0, 1), not_differentiable=_NOT_DIFFERENTIABLE,
                      **_F32_ONLY)
_VARS, _VARS_GRAD = {}, {}
for _channel, _suffix in ((False, ""), (True, "PerChannel")):
    _name = f"FakeQuantWithMinMaxVars{_suffix}"
    _VARS[_channel] = register(_name, _vars_kernel(_channel), _vars_rule(_name, _channel),
                               tied=(0, 1, 2), **_F32_ONLY)
    _VARS_GRAD[_channel] = register(
        f"{_name}Gradient", _vars_grad_kernel(_channel),
        _vars_grad_rule(f"{_name}Gradient", _channel), multi=True, tied=(0, 1, 2, 3),
        not_differentiable=_NOT_DIFFERENTIABLE, **_F32_ONLY)
    tf_nodes[_VARS[_channel]] = NodeForm(types={}, outputs=("outputs",))
    tf_args[_VARS[_channel]] = ("inputs", "min", "max")
    tf_nodes[_VARS_GRAD[_channel]] = NodeForm(
        types={}, outputs=("backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"))
    tf_args[_VARS_GRAD[_channel]] = ("gradients", "inputs", "min", "max")
tf_nodes[_ARGS] = NodeForm(types={}, outputs=("outputs",))
tf_args[_ARGS] = ("inputs",)
tf_nodes[_ARGS_GRAD] = NodeForm(types={}, outputs=("backprops",))
tf_args[_ARGS_GRAD] = ("gradients", "inputs")
batching_rules.assign(PER_ELEMENT, _ARGS, _ARGS_GRAD, *_VARS.values(), *_VARS_GRAD.values())


@register_gradient("FakeQuantWithMinMaxArgs")
def _args_grad(op, dy):
    return dispatch(_ARGS_GRAD, (dy, op.inputs[0]), dict(op.attrs))


def _vars_grad(per_channel):
    def grad(op, dy):
        return dispatch(_VARS_GRAD[per_channel], (dy, *op.inputs), dict(op.attrs))
    return grad


register_gradient("FakeQuantWithMinMaxVars")(_vars_grad(False))
register_gradient("FakeQuantWithMinMaxVarsPerChannel")(_vars_grad(True))


# -- public functions --------------------------------------------------------------------------

def _floats(*values):
    return [convert_to_tensor(v, _d.float32) for v in values]


def _attrs(num_bits, narrow_range, **more):
    return {**more, "num_bits": int(num_bits), "narrow_range": bool(narrow_range)}


@export("quantization.fake_quant_with_min_max_args",
        "compat.v1.fake_quant_with_min_max_args")
def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8, narrow_range=False,
                                 name=None):
    """`inputs` rounded to the `num_bits`-bit grid of the (nudged) range [min, max].

    >>> tf.quantization.fake_quant_with_min_max_args([0.3, 7.0], num_bits=4)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0. , 5.6], dtype=float32)>
    """
    x, = _floats(inputs)
    return dispatch(_ARGS, (x,), _attrs(num_bits, narrow_range, min=float(min),
                                        max=float(max)), name=name)


@export("quantization.fake_quant_with_min_max_args_gradient",
        "compat.v1.fake_quant_with_min_max_args_gradient")
def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6, num_bits=8,
                                          narrow_range=False, name=None):
    """`gradients` where `inputs` lies inside the nudged range, else 0.

    >>> tf.quantization.fake_quant_with_min_max_args_gradient([1., 1.], [0.5, 9.0])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>
    """
    dy, x = _floats(gradients, inputs)
    return dispatch(_ARGS_GRAD, (dy, x), _attrs(num_bits, narrow_range, min=float(min),
                                                max=float(max)), name=name)


@export("quantization.fake_quant_with_min_max_vars",
        "compat.v1.fake_quant_with_min_max_vars")
def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8, narrow_range=False, name=None):
    """`fake_quant_with_min_max_args` with the range given as scalar tensors (variables that
    training adjusts: they get gradients).

    >>> tf.quantization.fake_quant_with_min_max_vars([0.3, 2.0], -1.0, 1.5)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.30392158, 1.5       ], dtype=float32)>
    """
    return dispatch(_VARS[False], _floats(inputs, min, max), _attrs(num_bits, narrow_range),
                    name=name)


@export("quantization.fake_quant_with_min_max_vars_gradient",
        "compat.v1.fake_quant_with_min_max_vars_gradient")
def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max, num_bits=8,
                                          narrow_range=False, name=None):
    """(gradients inside the nudged range, sum of those below it, sum of those above it).

    >>> [t.numpy() for t in tf.quantization.fake_quant_with_min_max_vars_gradient(
    ...     [1., 2., 4.], [-3., 0.5, 9.], -1.0, 1.0)]
    [array([0., 2., 0.], dtype=float32), np.float32(1.0), np.float32(4.0)]
    """
    return tuple(dispatch(_VARS_GRAD[False], _floats(gradients, inputs, min, max),
                          _attrs(num_bits, narrow_range), name=name))


@export("quantization.fake_quant_with_min_max_vars_per_channel",
        "compat.v1.fake_quant_with_min_max_vars_per_channel")
def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8, narrow_range=False,
                                             name=None):
    """`fake_quant_with_min_max_vars` with one range per channel (the last axis).

    >>> tf.quantization.fake_quant_with_min_max_vars_per_channel(
    ...     [[0.3, 0.3]], [-1.0, 0.0], [1.0, 0.2], num_bits=2)
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0.        , 0.20000002]], dtype=float32)>
    """
    return dispatch(_VARS[True], _floats(inputs, min, max), _attrs(num_bits, narrow_range),
                    name=name)


@export("quantization.fake_quant_with_min_max_vars_per_channel_gradient",
        "compat.v1.fake_quant_with_min_max_vars_per_channel_gradient")
def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max, num_bits=8,
                                                      narrow_range=False, name=None):
    """`fake_quant_with_min_max_vars_gradient` per channel (sums over all but the last axis).

    >>> [t.numpy() for t in tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(
    ...     [[1., 2.]], [[-3., 0.5]], [-1., 0.], [1., 0.2])]
    [array([[0., 0.]], dtype=float32), array([1., 0.], dtype=float32), array([0., 2.], dtype=float32)]
    """
    return tuple(dispatch(_VARS_GRAD[True], _floats(gradients, inputs, min, max),
                          _attrs(num_bits, narrow_range), name=name))


# -- quantize and dequantize -------------------------------------------------------------------
# ``QuantizeAndDequantizeV2`` and ``V4`` (the same forward computation; V2's gradient passes
# everything through, V4's only what lies in [input_min, input_max]): the range (given, or
# the input's own minimum and maximum) is scaled onto the signed or unsigned integers of
# `num_bits` bits keeping 0 exact, from the side that limits the scale; values are scaled,
# rounded (half to even, or half up) and scaled back, clamped first when the range is given.
# With `axis` (not -1) each slice along it has its own range. Arithmetic is the input's type.

_QDQ_TYPES = (_d.bfloat16, _d.float16, _d.float32, _d.float64)


def _qdq_slices(x, axis):
    """`x` as [outer, channels, inner] for `axis` (-1: one channel)."""
    if axis == -1:
        return x.reshape(1, 1, -1)
    return x.reshape(int(np.prod(x.shape[:axis])), x.shape[axis], -1)


def _qdq_scale(low, high, signed, num_bits, narrow_range, dtype):
    """(clamp low, clamp high, scale, inverse scale) of one range, as TF computes them."""
    if signed:
        qmin = -(1 << (num_bits - 1)) + (1 if narrow_range else 0)
        qmax = (1 << (num_bits - 1)) - 1
    else:
        qmin, qmax = 0, (1 << num_bits) - 1
    big = np.finfo(dtype).max
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        from_min = dtype(qmin / low) if qmin * low > 0 else big
        from_max = dtype(qmax / high) if qmax * high > 0 else big
        if from_min < from_max:
            inverse = dtype(low / dtype(qmin))
            return low, dtype(dtype(qmax) * inverse), from_min, inverse
        inverse = dtype(high / dtype(qmax))
        return dtype(dtype(qmin) * inverse), high, from_max, inverse


def _qdq_check(x, low, high, signed_input, num_bits, range_given, round_mode, axis):
    if round_mode not in ("HALF_TO_EVEN", "HALF_UP"):
        raise _invalid(f"Value for attr 'round_mode' of \"{round_mode}\" is not in the list of "
                       f"allowed values: \"HALF_TO_EVEN\", \"HALF_UP\"")
    if axis < -1:
        raise _invalid(f"Axis must be at least -1. Found {axis}")
    if axis >= x.ndim:
        raise _invalid(f"Shape must be at least rank {axis + 1} but is rank {x.ndim}")
    if not 0 < num_bits < (62 if signed_input else 63):
        raise _invalid(f"num_bits is out of range: {num_bits} with signed_input_ "
                       f"{int(bool(signed_input))}")
    if not range_given:  # (the range inputs go unread)
        return
    # TF 2.21 wants a vector range with an axis, then a scalar one: a given range works
    # without an axis only
    for name, value in (("input_min", low), ("input_max", high)):
        if axis != -1 and value.ndim != 1:
            raise _invalid(f"Shape must be rank 1 for {name}_tensor when the axis is "
                           f"specified")
    for name, value in (("input_min", low), ("input_max", high)):
        if value.ndim != 0:
            raise _invalid(f"{name} must be a scalar.")


def _qdq_kernel(xp, input, input_min, input_max, signed_input=True, num_bits=8,
                range_given=False, round_mode="HALF_TO_EVEN", narrow_range=False, axis=-1):
    _qdq_check(input, input_min, input_max, signed_input, num_bits, range_given, round_mode,
               axis)
    dtype = input.dtype.type
    slices = _qdq_slices(input, axis)
    if range_given:
        lows, highs = input_min.reshape(-1), input_max.reshape(-1)
        for low, high in zip(lows, highs):
            if not low <= high:
                raise _invalid(f"Invalid range: input_min {float(low):g} > input_max "
                               f"{float(high):g}")
    elif slices.size:
        lows, highs = slices.min(axis=(0, 2)), slices.max(axis=(0, 2))
    else:
        return input.copy()
    out = np.empty_like(slices)
    rounding = np.rint if round_mode == "HALF_TO_EVEN" else (
        lambda v: np.floor(v + dtype(0.5)))
    with np.errstate(invalid="ignore", over="ignore"):
        for i, (low, high) in enumerate(zip(lows, highs)):
            low, high, scale, inverse = _qdq_scale(dtype(low), dtype(high), signed_input,
                                                   num_bits, narrow_range, dtype)
            chip = slices[:, i]
            if range_given:
                chip = np.maximum(np.minimum(chip, high), low)
            out[:, i] = rounding(chip * scale) * inverse
    return out.reshape(input.shape)


def _qdq_grad_kernel(xp, gradients, input, input_min, input_max, axis=-1):
    if gradients.shape != input.shape:
        raise _invalid("gradient and input must be the same size")
    slices, dy = _qdq_slices(input, axis), _qdq_slices(gradients, axis)
    lows, highs = input_min.reshape(-1), input_max.reshape(-1)
    if lows.size != slices.shape[1] or highs.size != slices.shape[1]:
        raise _invalid(f"input_min and input_max must have {slices.shape[1]} values")
    inside = (slices >= lows[None, :, None]) & (slices <= highs[None, :, None])
    zero = input.dtype.type(0)
    return (np.where(inside, dy, zero).reshape(input.shape), np.zeros_like(input_min),
            np.zeros_like(input_max))


def _qdq_rule(input, input_min, input_max, axis=-1, **_):
    return input.shape, input.dtype


def _qdq_grad_rule(gradients, input, input_min, input_max, axis=-1):
    return [(input.shape, input.dtype), (input_min.shape, input.dtype),
            (input_max.shape, input.dtype)]


def _qdq_v3_kernel(xp, input, input_min, input_max, num_bits, signed_input=True,
                   range_given=True, narrow_range=False, axis=-1):
    """The kernel of QuantizeAndDequantizeV3: V2's, its bit count an input (rounding half to
    even)."""
    if np.ndim(num_bits) != 0:
        raise _invalid(f"Shape must be rank 0 but is rank {np.ndim(num_bits)}")
    return _qdq_kernel(xp, input, input_min, input_max, signed_input, int(num_bits),
                       range_given, "HALF_TO_EVEN", narrow_range, axis)


_QDQ_KERNELS = (_d.float64, _d.float32)  # (TF's CPU has none for half and bfloat16)
_QDQ = {version: register(f"QuantizeAndDequantize{version}", _qdq_kernel, _qdq_rule,
                          tied=(0, 1, 2), dtypes=_QDQ_TYPES, kernels=_QDQ_KERNELS)
        for version in ("V2", "V4")}
_QDQ["V3"] = register("QuantizeAndDequantizeV3", _qdq_v3_kernel, _qdq_rule, tied=(0, 1, 2),
                      dtypes=_QDQ_TYPES, kernels=_QDQ_KERNELS)
_QDQ_GRAD = register("QuantizeAndDequantizeV4Grad", _qdq_grad_kernel, _qdq_grad_rule,
                     multi=True, tied=(0, 1, 2, 3), dtypes=_QDQ_TYPES, kernels=_QDQ_KERNELS,
                     not_differentiable="TF's gradient of it does not apply")
for _op in (*_QDQ.values(), _QDQ_GRAD):
    tf_nodes[_op] = NodeForm(outputs=("output",) if _op is not _QDQ_GRAD else (
        "input_backprop", "input_min_backprop", "input_max_backprop"))
    tf_args[_op] = (("gradients", "input", "input_min", "input_max") if _op is _QDQ_GRAD else
                    ("input", "input_min", "input_max", "num_bits") if _op is _QDQ["V3"] else
                    ("input", "input_min", "input_max"))
batching_rules.assign(PER_ELEMENT, *_QDQ.values(), _QDQ_GRAD)


@register_gradient("QuantizeAndDequantizeV3")
def _qdq_v3_grad(op, dy):
    return dy, None, None, None


@register_gradient("QuantizeAndDequantizeV2")
def _qdq_v2_grad(op, dy):
    return dy, None, None


@register_gradient("QuantizeAndDequantizeV4")
def _qdq_v4_grad(op, dy):
    return tuple(dispatch(_QDQ_GRAD, (dy, *op.inputs), {"axis": op.attrs.get("axis", -1)}))


def _qdq(version, input, input_min, input_max, signed_input, num_bits, range_given,
         round_mode, name, narrow_range, axis):
    x = convert_to_tensor(input)
    if axis is None:
        axis = -1
    elif axis < 0:
        if x.shape.rank is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= x.shape.rank
    low, high = (convert_to_tensor(v, x.dtype) for v in (input_min, input_max))
    if round_mode not in ("HALF_TO_EVEN", "HALF_UP"):  # (TF checks the attr as it builds)
        op_name = _QDQ[version].name
        raise errors.before_kernel(errors.InvalidArgumentError(
            None, op_name, f"Value for attr 'round_mode' of \"{round_mode}\" is not in the "
            f"list of allowed values: \"HALF_TO_EVEN\", \"HALF_UP\"\n\t; NodeDef: {{{{node "
            f"{op_name}}}}}; Op<name={op_name}> [Op:{op_name}]"))
    attrs = {"signed_input": bool(signed_input), "num_bits": int(num_bits),
             "range_given": bool(range_given), "round_mode": round_mode,
             "narrow_range": bool(narrow_range), "axis": int(axis)}
    return dispatch(_QDQ[version], (x, low, high), attrs, name=name)


@export("quantization.quantize_and_dequantize_v2")
def quantize_and_dequantize_v2(input, input_min, input_max, signed_input=True, num_bits=8,
                               range_given=False, round_mode="HALF_TO_EVEN", name=None,
                               narrow_range=False, axis=None):
    """`input` quantized to `num_bits`-bit integers and back (the range `input_min`,
    `input_max` when `range_given`, else the input's); its gradient is zero outside
    [input_min, input_max].

    >>> tf.quantization.quantize_and_dequantize_v2([-1.0, 0.3, 2.0], -1.0, 2.0, num_bits=3)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.3333334,  0.       ,  2.       ], dtype=float32)>
    """
    return _qdq("V4", input, input_min, input_max, signed_input, num_bits, range_given,
                round_mode, name, narrow_range, axis)


@export("quantization.quantize_and_dequantize")
def quantize_and_dequantize(input, input_min, input_max, signed_input=True, num_bits=8,
                            range_given=False, round_mode="HALF_TO_EVEN", name=None,
                            narrow_range=False, axis=None):
    """`quantize_and_dequantize_v2` whose gradient passes through everywhere (deprecated in
    TF for that reason).

    >>> tf.quantization.quantize_and_dequantize([-1.0, 0.3, 2.0], -1.0, 2.0, num_bits=3)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.3333334,  0.       ,  2.       ], dtype=float32)>
    """
    return _qdq("V2", input, input_min, input_max, signed_input, num_bits, range_given,
                round_mode, name, narrow_range, axis)


# -- QuantizeV2, Dequantize: float32 tensors to quantized integers and back ------------------------
#
# The range is first widened to hold 0 (and to at least `ensure_minimum_range` times its larger
# magnitude, 1 at least). MIN_COMBINED spreads [min, max] over all the integers of T; MIN_FIRST
# rounds x and min onto a grid of 2**bits steps apart and subtracts; SCALED scales by one factor
# keeping 0 at 0 (the range then one the integers span). As on TF's CPU, 8-bit SCALED with
# HALF_TO_EVEN and MIN_FIRST to quint8 without `narrow_range` or an axis take oneDNN's kernels:
# the former's signed range symmetric, the latter rounding x and -min times the scale at once.
# Arithmetic is float32 as TF's kernels do it; out-of-range casts wrap as C++'s do on x86.

_QUANTIZED = (_d.qint8, _d.quint8, _d.qint32, _d.qint16, _d.quint16)
_MODES = ("MIN_COMBINED", "MIN_FIRST", "SCALED")
_ROUND_MODES = ("HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN")


def _integers(T):
    """The integer dtype quantized dtype `T` holds, and its lowest and highest values."""
    base = T.as_numpy_dtype[0]
    info = np.iinfo(base)
    return base, int(info.min), int(info.max)


def _per_channel(value, rank, axis):
    """Range `value` (a vector along `axis`, or a scalar) shaped to broadcast to the input."""
    value = np.asarray(value, _F32)
    if axis == -1:
        return value.reshape(())
    shape = [1] * rank
    shape[axis] = -1
    return value.reshape(shape)


def _to_integers(values, base):
    with np.errstate(invalid="ignore", over="ignore"):  # (C++'s cast: out of range, the lowest)
        wide = values.astype(np.int64) if base.itemsize < 8 else values.astype(base)
    if base.itemsize >= 4:
        too_far = ~np.isfinite(values) | (values >= 2.0 ** (8 * base.itemsize - 1)) | (
            values < -(2.0 ** (8 * base.itemsize - 1)))
        wide = np.where(too_far, np.iinfo(base).min if base.kind == "i" else 0, wide)
    return wide.astype(base)


def _round(values, round_mode):
    if round_mode == "HALF_TO_EVEN":
        return np.rint(values)
    return np.sign(values) * np.floor(np.abs(values) + _F32(0.5))


def _quantize_v2(xp, input, min_range, max_range, T, mode="MIN_COMBINED",
                 round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False, axis=-1,
                 ensure_minimum_range=0.01):
    if round_mode == "HALF_TO_EVEN" and mode != "SCALED":
        raise _invalid(f"Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode "
                       f"is '{mode}'.")
    if mode == "MIN_FIRST" and axis != -1:
        raise errors.UnimplementedError(
            None, None, "MIN_FIRST mode is not implemented for Quantize with axis != -1.")
    x = np.asarray(input, _F32)
    low_in, high_in = np.asarray(min_range, _F32), np.asarray(max_range, _F32)
    if axis != -1 and (low_in.ndim != 1 or x.ndim <= axis or low_in.size != x.shape[axis]):
        raise _invalid(f"min_range and max_range must be vectors of the size of input "
                       f"dimension {axis}")
    for name, value in (("min_range", low_in), ("max_range", high_in)):
        if axis == -1 and value.size != 1:
            raise _invalid(f"If axis is not specified, {name} must contain a single float "
                           f"element, but it contains {value.size} elements")
    if (high_in < low_in).any():
        raise _invalid("input_max_range must be larger than input_min_range.")
    low, high = _per_channel(low_in, x.ndim, axis), _per_channel(high_in, x.ndim, axis)
    base, lowest, highest = _integers(T)
    low = np.minimum(_F32(0), low)
    epsilon = np.maximum(_F32(1), np.maximum(np.abs(low), np.abs(high))) * _F32(
        ensure_minimum_range)
    high = np.maximum(_F32(0), np.maximum(high, low + epsilon))
    one_dnn = axis == -1 and not narrow_range and base.itemsize == 1
    signed = lowest < 0
    if mode == "MIN_COMBINED":
        scale = _F32(float(highest) - float(lowest)) / (high - low)
        shifted = (np.clip(x, low, high) - low) * scale
        q = (_round(shifted - _F32((highest - lowest + 1) / 2), round_mode) if signed
             else np.floor(shifted + _F32(0.5)))
    elif mode == "MIN_FIRST" and one_dnn and T == _d.quint8:
        scale = _F32(highest) / (high - low)
        q = np.rint(np.clip(x, low, high) * scale - low * scale)
    elif mode == "MIN_FIRST":
        q = _integers_of(np.broadcast_to(x, x.shape), low.item(), high.item(), base)
    else:  # SCALED
        least = lowest + (1 if narrow_range or one_dnn and round_mode == "HALF_TO_EVEN"
                          and signed else 0)
        big = np.finfo(_F32).max
        with np.errstate(divide="ignore", invalid="ignore"):
            from_low = np.where(least * low > 0, _F32(least) / low, big)
            from_high = np.where(highest * high > 0, _F32(highest) / high, big)
        scale = np.minimum(from_low, from_high).astype(_F32)
        low, high = _F32(least) / scale, _F32(highest) / scale
        q = _round(np.clip(x, low, high) * scale, round_mode)
    q = _to_integers(q.astype(_F32), base)
    return (q.view(T.as_numpy_dtype), np.asarray(low, _F32).reshape(low_in.shape),
            np.asarray(high, _F32).reshape(high_in.shape))


def _dequantize(xp, input, min_range, max_range, mode="MIN_COMBINED", narrow_range=False,
                axis=-1, dtype=_d.float32):
    base = input.dtype[0]
    q = input.view(base).astype(_F32)
    info = np.iinfo(base)
    lowest, highest = int(info.min), int(info.max)
    low = _per_channel(min_range, q.ndim, axis)
    high = _per_channel(max_range, q.ndim, axis)
    if mode == "MIN_COMBINED":
        scale = (high - low) / _F32(float(highest) - float(lowest))
        out = ((q + _F32((highest - lowest + 1) / 2)) * scale + low if lowest < 0
               else q * scale + low)
    elif mode == "MIN_FIRST":
        out = _real_values(input.view(base), low.item(), high.item(), base)
    else:  # SCALED
        least = lowest + (1 if narrow_range else 0)
        scale = (high / _F32(highest) if lowest == 0 else
                 np.maximum(low / _F32(least), high / _F32(highest)))
        out = q * scale
    return out.astype(_F32).astype(dtype.as_numpy_dtype)


def _quantize_rule(input, min_range, max_range, T, **_):
    return [(input.shape, T), (min_range.shape, _d.float32), (max_range.shape, _d.float32)]


_QuantizeV2 = collections.namedtuple("QuantizeV2", ["output", "output_min", "output_max"])
_QUANTIZE_V2 = register("QuantizeV2", _quantize_v2, _quantize_rule, multi=True, tied=(0,),
                        dtypes=(_d.float32,), input_names=("input",))
tf_nodes[_QUANTIZE_V2] = NodeForm(types={}, outputs=("output", "output_min", "output_max"))
tf_args[_QUANTIZE_V2] = ("input", "min_range", "max_range")
_DEQUANTIZE = register("Dequantize", _dequantize,
                       lambda input, low, high, dtype=_d.float32, **_: (input.shape, dtype),
                       tied=())
tf_nodes[_DEQUANTIZE] = NodeForm(types={"T": 0})
tf_args[_DEQUANTIZE] = ("input", "min_range", "max_range")
batching_rules.assign(PER_ELEMENT, _QUANTIZE_V2, _DEQUANTIZE)


def _no_gradient(op, *grads):
    # TF registers no gradient for them: differentiating through one is its LookupError
    raise LookupError(f"gradient registry has no entry for: {op.type}")


register_gradient("QuantizeV2")(_no_gradient)
register_gradient("Dequantize")(_no_gradient)


def _axis(x, axis):
    if axis is None:
        return -1
    if axis < 0:
        if x.shape.rank is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= x.shape.rank
    return int(axis)


def _checked_mode(op_name, attr, value, allowed):
    if value not in allowed:
        listed = ", ".join(f'"{v}"' for v in allowed)
        raise errors.before_kernel(errors.InvalidArgumentError(
            None, op_name, f"Value for attr '{attr}' of \"{value}\" is not in the list of "
            f"allowed values: {listed}\n\t; NodeDef: {{{{node {op_name}}}}}; "
            f"Op<name={op_name}> [Op:{op_name}]"))
    return value


@export("quantization.quantize", "compat.v1.quantize")
def quantize(input, min_range, max_range, T, mode="MIN_COMBINED",
             round_mode="HALF_AWAY_FROM_ZERO", name=None, narrow_range=False, axis=None,
             ensure_minimum_range=0.01):
    """`input` (float32) as integers of quantized dtype `T` over [min_range, max_range] (per
    slice along `axis` when given), by `mode`: the quantized tensor and the range it spans.

    >>> q = tf.quantization.quantize([0.0, 1.0, 2.0], 0.0, 2.0, tf.quint8)
    >>> q.output.numpy(), float(q.output_max)
    (array([  0, 128, 255], dtype=uint8), 2.0)
    """
    # (a tensor keeps its dtype, which must be float32: TF's error names it)
    x = convert_to_tensor(input) if is_tensor_like(input) else convert_to_tensor(input,
                                                                               _d.float32)
    T = _d.as_dtype(T)
    attrs = {"T": T, "mode": _checked_mode("QuantizeV2", "mode", mode, _MODES),
             "round_mode": _checked_mode("QuantizeV2", "round_mode", round_mode, _ROUND_MODES),
             "narrow_range": bool(narrow_range), "axis": _axis(x, axis),
             "ensure_minimum_range": float(ensure_minimum_range)}
    if T not in _QUANTIZED:
        raise attr_dtype_error("QuantizeV2", "T", T, _QUANTIZED, param="T")
    return _QuantizeV2(*dispatch(_QUANTIZE_V2, (x, convert_to_tensor(min_range, _d.float32),
                                                convert_to_tensor(max_range, _d.float32)),
                                 attrs, name))


@export("compat.v1.quantize_v2")
def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED", name=None,
                round_mode="HALF_AWAY_FROM_ZERO", narrow_range=False, axis=None,
                ensure_minimum_range=0.01):
    """TF 1's `quantize`, its `name` before `round_mode`."""
    return quantize(input, min_range, max_range, T, mode, round_mode, name, narrow_range,
                    axis, ensure_minimum_range)


@export("quantization.dequantize", "compat.v1.dequantize")
def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None, axis=None,
               narrow_range=False, dtype=_d.float32):
    """Quantized `input` back to floats (`dtype`: float32 or bfloat16) over [min_range,
    max_range], as `quantize` made it in `mode`.

    >>> q = tf.quantization.quantize([0.0, 1.0, 2.0], 0.0, 2.0, tf.quint8)
    >>> tf.quantization.dequantize(*q).numpy()
    array([0.       , 1.0039216, 2.       ], dtype=float32)
    """
    x = convert_to_tensor(input)
    if x.dtype not in _QUANTIZED:
        raise attr_dtype_error("Dequantize", "T", x.dtype, _QUANTIZED, param="input")
    if _d.as_dtype(dtype) not in (_d.bfloat16, _d.float32):
        raise attr_dtype_error("Dequantize", "dtype", _d.as_dtype(dtype),
                               (_d.bfloat16, _d.float32), param="dtype")
    attrs = {"mode": _checked_mode("Dequantize", "mode", mode, _MODES),
             "narrow_range": bool(narrow_range), "axis": _axis(x, axis),
             "dtype": _d.as_dtype(dtype)}
    return dispatch(_DEQUANTIZE, (x, convert_to_tensor(min_range, _d.float32),
                                  convert_to_tensor(max_range, _d.float32)), attrs, name)


# -- QuantizedConcat: quantized tensors joined, each moved onto one range ------------------------

def _real_values(q, low, high, base):
    """TF's QuantizedToFloat of integers `q` over [low, high]: q times the step ``(high -
    low) / (2**bits - 1)`` plus one offset (low rounded to a multiple of the step, less the
    lowest integer's share), both float32 as TF's kernel adds them."""
    low, high = float(low), float(high)
    if low == high:
        return np.full(q.shape, low, _F32)
    steps = float(1 << (8 * base.itemsize))
    step = (high - low) * (steps / (steps - 1.0)) / steps
    low_rounded = np.round(low / float(_F32(step))) * float(_F32(step))
    offset = _F32(low_rounded - np.iinfo(base).min * step)
    return q.astype(_F32) * _F32(step) + offset


def _integers_of(values, low, high, base):
    """TF's FloatToQuantized of float32 `values` onto [low, high], in float32 as TF's kernels:
    x and low times ``(2**bits - 1) / (high - low)`` rounded (half away from 0) apart, clamped
    to the integers (qint32's to +-2.1474835e9, which float32 holds and int32 too)."""
    info = np.iinfo(base)
    low, high = _F32(low), _F32(high)
    steps = float(1 << (8 * base.itemsize))
    scale = _F32(0.0 if low == high else (steps - 1.0) / (float(high) - float(low)))
    q = (_round(values.astype(_F32) * scale, "") - _round(low * scale, "") + _F32(info.min))
    q = np.clip(q, max(_F32(info.min), _F32(-2.147483648e9)),
                min(_F32(info.max), _F32(2.147483520e9)))
    return q.astype(np.int64).astype(base)


def _quantized_concat(xp, concat_dim, *parts):
    n = len(parts) // 3
    if n < 2:
        raise _invalid(f"Value for attr 'N' of {n} must be at least minimum 2")
    values, lows, highs = parts[:n], parts[n:2 * n], parts[2 * n:]
    T = _d.from_numpy(values[0].dtype)
    if T not in (_d.qint32, _d.quint8):
        raise no_kernel_error("QuantizedConcat", {"T": T}, (_d.qint32, _d.quint8))
    dim, rank = int(concat_dim), values[0].ndim
    if not 0 <= dim < rank:
        raise _invalid(f"ConcatOp : Expected concatenating dimensions in the range [0, {rank}), "
                       f"but got {dim}")
    text = errors.shape_text
    for i, v in enumerate(values[1:], 1):
        if v.ndim != rank:
            raise _invalid(f"ConcatOp : Ranks of all input tensors should match: shape[0] = "
                           f"{text(values[0].shape)} vs. shape[{i}] = {text(v.shape)}")
        if any(a != b for d, (a, b) in enumerate(zip(values[0].shape, v.shape)) if d != dim):
            raise _invalid(f"ConcatOp : Dimensions of inputs should match: shape[0] = "
                           f"{text(values[0].shape)} vs. shape[{i}] = {text(v.shape)}")
    base = T.as_numpy_dtype[0]
    lows = [_F32(np.reshape(v, -1)[0]) for v in lows]
    highs = [_F32(np.reshape(v, -1)[0]) for v in highs]
    low, high = min(_F32(0), min(lows)), max(highs)
    if np.iinfo(base).min < 0:  # signed: a range symmetric about 0
        high = max(abs(low), abs(high))
        low = -high
    pieces = []
    for v, a, b in zip(values, lows, highs):
        q = v.view(base)
        if a != low or b != high:  # moved onto the output's range through its real values
            q = _integers_of(_real_values(q, a, b, base), low, high, base)
        pieces.append(q)
    return (np.concatenate(pieces, dim).view(T.as_numpy_dtype), np.array(low, _F32),
            np.array(high, _F32))


def _quantized_concat_rule(concat_dim, *parts):
    n = len(parts) // 3
    values = parts[:n]
    dim = rules.known_value(concat_dim)
    shapes = [v.shape for v in values]
    if dim is None or any(s.rank is None for s in shapes):
        shape = TensorShape(None) if all(s.rank is None for s in shapes) else \
            TensorShape([None] * next(s.rank for s in shapes if s.rank is not None))
    else:
        dim = int(dim)
        dims = [None if any(s[d] is None for s in shapes) else
                (sum(s[d] for s in shapes) if d == dim else shapes[0][d])
                for d in range(shapes[0].rank)]
        shape = TensorShape(dims)
    scalar = TensorShape([])
    return [(shape, values[0].dtype), (scalar, _d.float32), (scalar, _d.float32)]


_QuantizedConcat = collections.namedtuple("QuantizedConcat",
                                          ["output", "output_min", "output_max"])
_QUANTIZED_CONCAT = register("QuantizedConcat", _quantized_concat, _quantized_concat_rule,
                             multi=True, tied=())
# TF's N counts the inputs (values, then as many mins and maxes), T is the values' dtype
tf_nodes[_QUANTIZED_CONCAT] = NodeForm(
    types={}, ignored=("N", "T"),
    rewrite=lambda attrs, inputs: {**attrs, "N": (len(inputs) - 1) // 3,
                                   "T": inputs[1].dtype},
    outputs=("output", "output_min", "output_max"))
tf_args[_QUANTIZED_CONCAT] = ("concat_dim", "*values", "*input_mins", "*input_maxes")
batching_rules.assign(PER_ELEMENT, _QUANTIZED_CONCAT)
register_gradient("QuantizedConcat")(_no_gradient)


@export("quantization.quantized_concat", "compat.v1.quantized_concat")
def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
    """Quantized tensors (quint8 or qint32) `values` joined along `concat_dim`, each given
    over its range (`input_mins`, `input_maxes`): those of other ranges than the output's
    (all the inputs' with 0, symmetric for qint32) are quantized again onto it.

    >>> a = tf.quantization.quantize([0.0, 3.0], 0.0, 3.0, tf.quint8)
    >>> b = tf.quantization.quantize([-1.0, 5.0], -1.0, 5.0, tf.quint8)
    >>> out = tf.quantization.quantized_concat(0, [a.output, b.output], [a.output_min,
    ...     b.output_min], [a.output_max, b.output_max])
    >>> tf.bitcast(out.output, tf.uint8).numpy(), float(out.output_min)
    (array([ 43, 171,   0, 255], dtype=uint8), -1.0)
    """
    values = [convert_to_tensor(v) for v in values]
    lows = [convert_to_tensor(v, _d.float32) for v in input_mins]
    highs = [convert_to_tensor(v, _d.float32) for v in input_maxes]
    return _QuantizedConcat(*dispatch(
        _QUANTIZED_CONCAT, [convert_to_tensor(concat_dim, _d.int32), *values, *lows, *highs],
        {}, name))
