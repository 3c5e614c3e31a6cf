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
