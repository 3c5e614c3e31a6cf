"""Specs of the fake-quantization ops (quantization_ops.py), against a float64 reference of
TF's nudged grid (inputs stay clear of the half-step ties where float32 rounding decides).

Their gradients are TF's straight-through estimates, not derivatives of the step function,
so finite differences cannot check them; tests/ops/test_quantization.py checks them
against TF's values."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec, rand

_STE = "straight-through estimate, checked against TF in test_quantization.py"
_X = rand(3, 4, low=-3, high=3)


def _nudge(low, high, bits=8, narrow=False):
    qmin, qmax = (1 if narrow else 0), 2 ** bits - 1
    scale = (high - low) / (qmax - qmin)
    zero = np.clip(np.floor(qmin - low / scale + 0.5), qmin, qmax)
    return (qmin - zero) * scale, (qmax - zero) * scale, scale


def _fake_quant(x, low, high, bits=8, narrow=False):
    lo, hi, scale = _nudge(np.float64(low), np.float64(high), bits, narrow)
    return (np.floor((np.clip(x, lo, hi) - lo) / scale + 0.5) * scale + lo).astype(np.float32)


def _grads(g, x, low, high, bits=8, narrow=False, axes=None):
    lo, hi, _ = _nudge(np.float64(low), np.float64(high), bits, narrow)
    inside = (x >= lo) & (x <= hi)
    return (np.where(inside, g, 0).astype(np.float32),
            np.sum(np.where(x < lo, g, 0), axis=axes).astype(np.float32),
            np.sum(np.where(x > hi, g, 0), axis=axes).astype(np.float32))


_LOW, _HIGH = np.float32([-1.0, -2.5, 0.3, -0.2]), np.float32([1.5, 0.5, 2.0, 0.2])
Q = tf.quantization
SPECS = [
    OpSpec("FakeQuantWithMinMaxArgs",
           lambda x: Q.fake_quant_with_min_max_args(x, -1.3, 2.1, num_bits=5), [_X],
           lambda x: _fake_quant(x, np.float32(-1.3), np.float32(2.1), 5), rtol=1e-5,
           atol=1e-6, grad=_STE),
    OpSpec("FakeQuantWithMinMaxArgsGradient",
           lambda g, x: Q.fake_quant_with_min_max_args_gradient(g, x, -1.3, 2.1,
                                                                narrow_range=True),
           [rand(3, 4, seed=1), _X],
           lambda g, x: _grads(g, x, np.float32(-1.3), np.float32(2.1), narrow=True)[0],
           grad="not differentiable in TF"),
    OpSpec("FakeQuantWithMinMaxVars",
           lambda x, lo, hi: Q.fake_quant_with_min_max_vars(x, lo, hi, num_bits=4),
           [_X, np.float32(-0.7), np.float32(1.9)],
           lambda x, lo, hi: _fake_quant(x, lo, hi, 4), rtol=1e-5, atol=1e-6, grad=_STE),
    OpSpec("FakeQuantWithMinMaxVarsGradient",
           lambda g, x, lo, hi: Q.fake_quant_with_min_max_vars_gradient(g, x, lo, hi),
           [rand(3, 4, seed=2), _X, np.float32(-0.7), np.float32(1.9)],
           lambda g, x, lo, hi: _grads(g, x, lo, hi), rtol=1e-5, atol=1e-6,
           grad="not differentiable in TF"),
    OpSpec("FakeQuantWithMinMaxVarsPerChannel",
           lambda x, lo, hi: Q.fake_quant_with_min_max_vars_per_channel(x, lo, hi, 6, True),
           [_X, _LOW, _HIGH], lambda x, lo, hi: _fake_quant(x, lo, hi, 6, True),
           rtol=1e-5, atol=1e-6, grad=_STE),
    OpSpec("FakeQuantWithMinMaxVarsPerChannelGradient",
           lambda g, x, lo, hi: Q.fake_quant_with_min_max_vars_per_channel_gradient(
               g, x, lo, hi),
           [rand(3, 4, seed=3), _X, _LOW, _HIGH],
           lambda g, x, lo, hi: _grads(g, x, lo, hi, axes=0), rtol=1e-5, atol=1e-6,
           grad="not differentiable in TF"),
]


def _qdq(x, low, high, signed=True, bits=8, given=False, half_up=False, narrow=False):
    """quantize_and_dequantize of one range, in float64."""
    qmin = (-(2 ** (bits - 1)) + narrow) if signed else 0
    qmax = 2 ** (bits - 1) - 1 if signed else 2 ** bits - 1
    if not given:
        low, high = x.min(), x.max()
    from_min = qmin / low if qmin * low > 0 else np.inf
    from_max = qmax / high if qmax * high > 0 else np.inf
    if from_min < from_max:
        scale, inverse = from_min, low / qmin
        high = qmax * inverse
    else:
        scale, inverse = from_max, high / qmax
        low = qmin * inverse
    if given:
        x = np.clip(x, low, high)
    rounded = np.floor(x * scale + 0.5) if half_up else np.rint(x * scale)
    return (rounded * inverse).astype(x.dtype)


_Y = rand(2, 5, low=-1.5, high=2.5, seed=4)
SPECS += [
    OpSpec("QuantizeAndDequantizeV4",
           lambda x: Q.quantize_and_dequantize_v2(x, -1.0, 2.0, num_bits=4, range_given=True),
           [_Y], lambda x: _qdq(x.astype(np.float64), -1.0, 2.0, bits=4, given=True).astype(
               np.float32),
           rtol=1e-5, atol=1e-6, grad=_STE),
    OpSpec("QuantizeAndDequantizeV4",
           lambda x: Q.quantize_and_dequantize_v2(x, 0.0, 0.0, signed_input=False, num_bits=5,
                                                  round_mode="HALF_UP"),
           [_Y.astype(np.float64)],
           lambda x: _qdq(x, 0, 0, signed=False, bits=5, half_up=True),
           name="QuantizeAndDequantizeV4-unsigned-float64", grad=_STE),
    OpSpec("QuantizeAndDequantizeV4",
           lambda x: Q.quantize_and_dequantize_v2(x, [0.0, 0.0], [0.0, 0.0], num_bits=3,
                                                  axis=0, narrow_range=True),
           [_Y], lambda x: np.stack([_qdq(r.astype(np.float64), 0, 0, bits=3, narrow=True)
                                     for r in x]).astype(np.float32),
           rtol=1e-5, atol=1e-6, name="QuantizeAndDequantizeV4-axis", grad=_STE),
    OpSpec("QuantizeAndDequantizeV2",
           lambda x: Q.quantize_and_dequantize(x, -1.0, 2.0, num_bits=3),
           [_Y], lambda x: _qdq(x.astype(np.float64), -1.0, 2.0, bits=3).astype(np.float32),
           rtol=1e-5, atol=1e-6, grad=_STE),
    OpSpec("QuantizeAndDequantizeV3",
           lambda x: tf.raw_ops.QuantizeAndDequantizeV3(input=x, input_min=-1.0, input_max=2.0,
                                                        num_bits=3),
           [_Y], lambda x: _qdq(x.astype(np.float64), -1.0, 2.0, bits=3,
                                given=True).astype(np.float32),
           rtol=1e-5, atol=1e-6, grad=_STE),
    OpSpec("QuantizeAndDequantizeV4Grad",
           lambda g, x: tf.raw_ops.QuantizeAndDequantizeV4Grad(
               gradients=g, input=x, input_min=-1.0, input_max=1.0)[0],
           [rand(2, 5, seed=5), _Y],
           lambda g, x: np.where((x >= -1) & (x <= 1), g, 0).astype(np.float32),
           grad="not differentiable here (TF's gradient of it does not apply)"),
]


def _quantized_integers(x):
    q = tf.quantization.quantize(x, -1.0, 6.0, tf.quint8)
    return tf.bitcast(q.output, tf.uint8), q.output_min, q.output_max


def _round_trip(x):
    q = tf.quantization.quantize(x, -1.0, 6.0, tf.qint8, mode="SCALED", narrow_range=True)
    return tf.quantization.dequantize(*q, mode="SCALED", narrow_range=True)


_QUANTIZE_X = np.float32([-1.0, 0.0, 0.3, 1.7, 2.2, 6.0, 10.0])
SPECS += [
    # (MIN_COMBINED: (x - min) times 255 / (max - min), half up)
    OpSpec("QuantizeV2", _quantized_integers, [_QUANTIZE_X],
           lambda x: (np.floor((np.clip(x, -1, 6) + 1) * 255 / 7 + 0.5).astype(np.uint8),
                      np.float32(-1.0), np.float32(6.0)), grad="TF registers no gradient"),
    # (SCALED, narrow: 127 / 6 per unit, each way)
    OpSpec("Dequantize", _round_trip, [_QUANTIZE_X],
           lambda x: (np.round(np.clip(x, -6, 6) * 127 / 6) * 6 / 127).astype(np.float32),
           grad="TF registers no gradient"),
]


def _joined(x):
    a = tf.quantization.quantize(x, 0.0, 3.0, tf.quint8)
    b = tf.quantization.quantize(x, -1.0, 5.0, tf.quint8)
    out = tf.quantization.quantized_concat(0, [a.output, b.output], [a.output_min, b.output_min],
                                           [a.output_max, b.output_max])
    return tf.bitcast(out.output, tf.uint8), out.output_min, out.output_max


SPECS += [
    # (both onto [-1, 5]: a's integers through their values, b's as they are)
    OpSpec("QuantizedConcat", _joined, [np.float32([0.0, 3.0])],
           lambda x: (np.uint8([43, 171, 43, 170]), np.float32(-1.0), np.float32(5.0)),
           grad="TF registers no gradient"),
]
