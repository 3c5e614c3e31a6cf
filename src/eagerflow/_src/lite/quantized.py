"""Integer (int8 / uint8) kernels of fully quantized TFLite models.

Convolutions and dense layers follow TFLite's reference integer kernels bit
for bit: int32 sums of ``(input - input zero point) * weights`` plus the int32
bias, rescaled by a fixed-point multiplier (`quantize_multiplier`), shifted to
the output zero point and clamped to the fused activation's range. Other
operators on quantized tensors run on their real values (dequantized, the
float kernel, quantized again): the same numbers to within one quantization
step.

>>> quantize_multiplier(0.25)
(1073741824, -1)
>>> int(multiply_by_quantized_multiplier(np.int64(1000), 1073741824, -1))
250
"""
import math

import numpy as np

from eagerflow._src.lite import kernels

_RANGES = {np.dtype(np.int8): (-128, 127), np.dtype(np.uint8): (0, 255),
           np.dtype(np.int16): (-32768, 32767)}


def quantize_multiplier(real):
    """``(q31 significand, shift)`` of a positive real multiplier, as TFLite rounds it."""
    if real == 0:
        return 0, 0
    significand, shift = math.frexp(real)
    q = int(_round(significand * (1 << 31)))
    if q == 1 << 31:
        q //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return q, shift


def _round(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def multiply_by_quantized_multiplier(x, multiplier, shift):
    """int64 array `x` times ``multiplier * 2**(shift - 31)``, rounded as gemmlowp rounds
    (a saturating rounding doubling high multiply, then a rounding right shift)."""
    x = np.asarray(x, np.int64)
    multiplier = np.asarray(multiplier, np.int64)
    shift = np.asarray(shift, np.int64)
    x = x * (np.int64(1) << np.maximum(shift, 0))
    product = x * multiplier
    nudge = np.where(product >= 0, np.int64(1 << 30), np.int64(1 - (1 << 30)))
    total = product + nudge
    high = np.where(total >= 0, total // (1 << 31), -((-total) // (1 << 31)))  # (truncates)
    exponent = np.maximum(-shift, 0)
    mask = (np.int64(1) << exponent) - 1
    remainder = high & mask
    threshold = (mask >> 1) + (high < 0)
    return (high >> exponent) + (remainder > threshold)


def params(tensor):
    """``(scales float32 array, zero points int64 array)`` of a quantized tensor dict."""
    q = tensor["quantization"] or {}
    scales = np.asarray(q.get("scale") if q.get("scale") is not None else [], np.float32)
    zeros = np.asarray(q.get("zero_point") if q.get("zero_point") is not None else [],
                       np.int64)
    return scales, zeros


def is_quantized(tensor, dtype):
    return np.dtype(dtype) in _RANGES and len(params(tensor)[0]) > 0


def dequantize(q, tensor, axis=0):
    """The real values of quantized `q` (computed in double, as TFLite's DEQUANTIZE)."""
    scales, zeros = params(tensor)
    shape = [1] * q.ndim
    if len(scales) > 1:
        shape[axis] = -1
    zero = zeros.reshape(shape) if len(zeros) == len(scales) else 0
    return (scales.astype(np.float64).reshape(shape) * (q.astype(np.int64) - zero)).astype(
        np.float32)


def quantize(x, tensor, dtype):
    """Float `x` as the quantized integers of `tensor` (per tensor)."""
    scales, zeros = params(tensor)
    lo, hi = _RANGES[np.dtype(dtype)]
    q = _round(x.astype(np.float32) / scales[0]).astype(np.int64) + int(zeros[0])
    return np.clip(q, lo, hi).astype(dtype)


def _activation_range(code, scale, zero, dtype):
    lo, hi = _RANGES[np.dtype(dtype)]
    def q(v):
        return zero + int(_round(np.float32(v) / np.float32(scale)))
    if code == 1:
        return max(lo, q(0.0)), hi
    if code == 2:
        return max(lo, q(-1.0)), min(hi, q(1.0))
    if code == 3:
        return max(lo, q(0.0)), min(hi, q(6.0))
    return lo, hi


def integer_kernel(name, inputs, tensors, options, out_tensor, out_dtype):
    """CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED on quantized tensors, bit for bit."""
    x, w = inputs[0], inputs[1]
    bias = inputs[2] if len(inputs) > 2 else None
    in_scale, in_zero = params(tensors[0])
    w_scales, _ = params(tensors[1])
    out_scale, out_zero = params(out_tensor)
    shifted = x.astype(np.float64) - float(in_zero[0])   # exact integers in float64
    float_options = dict(options, fused_activation_function=0)
    f64 = [np.dtype(np.float64)]
    if name == "FULLY_CONNECTED":
        acc = shifted.reshape(-1, w.shape[1]) @ w.astype(np.float64).T
        if options.get("keep_num_dims"):
            acc = acc.reshape(x.shape[:-1] + (w.shape[0],))
    else:
        acc = kernels.KERNELS[name]([shifted, w.astype(np.float64)], float_options, f64)[0]
    acc = np.rint(acc).astype(np.int64)
    if bias is not None:
        acc = acc + bias.astype(np.int64)
    channels = acc.shape[-1]
    scales = np.broadcast_to(w_scales, (channels,)) if len(w_scales) else np.ones(channels)
    pairs = [quantize_multiplier(float(np.float64(in_scale[0]) * np.float64(s) /
                                       np.float64(out_scale[0]))) for s in scales]
    multipliers = np.array([p[0] for p in pairs], np.int64)
    shifts = np.array([p[1] for p in pairs], np.int64)
    out = multiply_by_quantized_multiplier(acc, multipliers, shifts) + int(out_zero[0])
    lo, hi = _activation_range(options.get("fused_activation_function", 0), out_scale[0],
                               int(out_zero[0]), out_dtype)
    return np.clip(out, lo, hi).astype(out_dtype)
