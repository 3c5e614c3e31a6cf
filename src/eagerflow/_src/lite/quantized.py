"""Integer (int8 / uint8) kernels of fully quantized TFLite models.

Convolutions, dense layers, additions, products, batch products and
requantizations follow the integer kernels TF's interpreter runs bit for bit:
int32 sums of ``(input - input zero point) * weights`` plus the int32 bias,
rescaled by the float32 ratio of the scales (`fp32_requantize`, as XNNPACK, to
which TF's interpreter delegates most int8 operators, rescales) or by a
fixed-point multiplier (`quantize_multiplier`, as TFLite's own kernels do),
shifted to the output zero point and clamped to the fused activation's range. Other
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
    """int64 array `x` times ``multiplier * 2**(shift - 31)``, rounded as TFLite's own
    kernels round (gemmlowp's: a saturating rounding doubling high multiply, then a
    rounding right shift)."""
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


def fp32_requantize(acc, scale):
    """int32 sums `acc` times float32 `scale`, rounded half to even: how XNNPACK (the
    kernels TF's interpreter delegates int8 convolutions, dense layers and products to)
    rescales them."""
    scaled = acc.astype(np.float32) * np.asarray(scale, np.float32)
    return np.rint(np.clip(scaled, -2.0 ** 31, 2.0 ** 31 - 128)).astype(np.int64)


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
    """CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV (inputs: output shape, weights, input,
    bias) or FULLY_CONNECTED on quantized tensors, bit for bit; `tensors` those of the
    input and the weights."""
    shape = None
    if name == "TRANSPOSE_CONV":
        shape, inputs = inputs[0], [inputs[2], inputs[1]] + list(inputs[3:])
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
    elif shape is not None:
        acc = kernels.KERNELS[name]([shape, w.astype(np.float64), shifted], float_options,
                                    f64)[0]
    else:
        acc = kernels.KERNELS[name]([shifted, w.astype(np.float64)], float_options, f64)[0]
    acc = np.rint(acc).astype(np.int64)
    if bias is not None:
        acc = acc + bias.astype(np.int64)
    channels = acc.shape[-1]
    scales = np.broadcast_to(w_scales, (channels,)) if len(w_scales) else np.ones(channels)
    if shape is None:   # (XNNPACK's convolutions and dense layers)
        out = fp32_requantize(acc, in_scale[0] * scales.astype(np.float32) / out_scale[0])
    else:               # (TFLite's own transposed convolution, per channel)
        out = np.stack([_rescale(acc[..., c], float(np.float64(in_scale[0]) * np.float64(s) /
                                                    np.float64(out_scale[0])))
                        for c, s in enumerate(scales)], axis=-1)
    out = out + int(out_zero[0])
    lo, hi = _activation_range(options.get("fused_activation_function", 0), out_scale[0],
                               int(out_zero[0]), out_dtype)
    return np.clip(out, lo, hi).astype(out_dtype)


def _rescale(x, real):
    """int64 `x` times the positive real `real`, as TFLite's integer kernels multiply."""
    multiplier, shift = quantize_multiplier(real)
    return multiply_by_quantized_multiplier(x, multiplier, shift)


def requantize(q, in_tensor, out_tensor, out_dtype):
    """QUANTIZE of quantized integers `q` to another scale or zero point, as TF's
    interpreter computes it (through XNNPACK, by default): the ratio of the scales as a
    multiplier of 8 fractional bits, rounded half up."""
    (s_in,), (z_in,) = params(in_tensor)
    (s_out,), (z_out,) = params(out_tensor)
    ratio = np.float32(s_in) / np.float32(s_out)
    lo, hi = _RANGES[np.dtype(out_dtype)]
    if not 1 / 256 <= ratio <= 128:   # (beyond XNNPACK's range: TFLite's own kernel)
        out = _rescale(q.astype(np.int64) - z_in, float(np.float64(s_in) / np.float64(s_out)))
        return np.clip(out + z_out, lo, hi).astype(out_dtype)
    multiplier = int(np.rint(np.float32(256) * ratio))
    out = ((q.astype(np.int64) - z_in) * multiplier + 128) >> 8
    return np.clip(out + z_out, lo, hi).astype(out_dtype)


def integer_binary(name, a, b, tensors, options, out_tensor, out_dtype):
    """ADD, SUB or MUL of int8 (uint8) tensors: sums of inputs scaled to twice the larger
    input scale (20 bits up) as TFLite's kernels add, products of the inputs less their
    zero points rescaled in float32 (`fp32_requantize`)."""
    (sa,), (za,) = params(tensors[0])
    (sb,), (zb,) = params(tensors[1])
    (so,), (zo,) = params(out_tensor)
    a, b = a.astype(np.int64) - za, b.astype(np.int64) - zb
    if name == "MUL":
        out = fp32_requantize(a * b, np.float32(sa) * np.float32(sb) / np.float32(so))
    else:
        left = 20
        twice = 2 * max(float(sa), float(sb))
        a = _rescale(a << left, float(sa) / twice)
        b = _rescale(b << left, float(sb) / twice)
        out = _rescale(a + b if name == "ADD" else a - b, twice / ((1 << left) * float(so)))
    lo, hi = _activation_range(options.get("fused_activation_function", 0), so, int(zo),
                               out_dtype)
    return np.clip(out + zo, lo, hi).astype(out_dtype)


def integer_batch_matmul(a, b, tensors, options, out_tensor, out_dtype):
    """BATCH_MATMUL of int8 tensors as TF's interpreter computes it: products of the left
    operand less its zero point by the right operand as it is (TFLite's int8 kernel takes
    the right operand's zero point as 0), rescaled to the output."""
    (sa,), (za,) = params(tensors[0])
    (sb,), _ = params(tensors[1])
    (so,), (zo,) = params(out_tensor)
    a, b = a.astype(np.int64) - za, b.astype(np.int64)
    if options.get("adj_x"):
        a = np.swapaxes(a, -1, -2)
    if options.get("adj_y"):
        b = np.swapaxes(b, -1, -2)
    out = fp32_requantize(np.matmul(a, b), np.float32(sa) * np.float32(sb) / np.float32(so))
    lo, hi = _RANGES[np.dtype(out_dtype)]
    return np.clip(out + zo, lo, hi).astype(out_dtype)
