"""Specs of the fused recurrent op ``_FusedRNN`` and its gradient op (rnn_ops.py).

The references are plain float64 loops written from the Keras equations; the
gradient op's reference takes central finite differences of them. Both the
oneDNN and the NumPy kernels are compared in tests/keras/layers/test_fused_recurrent.py.
"""
import numpy as np

import eagerflow as tf
from tests.internals import rnn_ops
from tests.ops.spec import OpSpec, rand

F64 = np.float64
_SHAPES = {"lstm": 4, "gru": 3, "rnn": 1}


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def ref_rnn(mode, x, kernel, recurrent_kernel, bias, h, c=None):
    """(outputs (N, T, H), h, c) of Keras's equations, in float64."""
    x, kernel, recurrent_kernel, bias, h = (np.asarray(a, F64) for a in
                                            (x, kernel, recurrent_kernel, bias, h))
    c = None if c is None else np.asarray(c, F64)
    units, ys = h.shape[-1], []
    for t in range(x.shape[1]):
        if mode == "gru":
            xz, xr, xh = np.split(x[:, t] @ kernel + bias[0], 3, -1)
            rz, rr, rh = np.split(h @ recurrent_kernel + bias[1], 3, -1)
            z, r = _sigmoid(xz + rz), _sigmoid(xr + rr)
            h = z * h + (1 - z) * np.tanh(xh + r * rh)
        elif mode == "lstm":
            zs = x[:, t] @ kernel + h @ recurrent_kernel + bias
            i, f, g, o = (zs[:, k * units:(k + 1) * units] for k in range(4))
            c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
            h = _sigmoid(o) * np.tanh(c)
        else:
            h = np.tanh(x[:, t] @ kernel + h @ recurrent_kernel + bias)
        ys.append(h)
    return np.stack(ys, 1), h, c


def _args(mode, batch=2, steps=3, features=2, units=2, dtype=F64):
    gates = _SHAPES[mode]
    args = [rand(batch, steps, features, dtype=dtype, seed=1),
            rand(features, gates * units, dtype=dtype, low=-1, high=1, seed=2),
            rand(units, gates * units, dtype=dtype, low=-1, high=1, seed=3),
            rand(*((2, 3 * units) if mode == "gru" else (gates * units,)), dtype=dtype,
                 low=-1, high=1, seed=4),
            rand(batch, units, dtype=dtype, low=-1, high=1, seed=5)]
    if mode == "lstm":
        args.append(rand(batch, units, dtype=dtype, low=-1, high=1, seed=6))
    return args


def _forward_spec(mode, dtype=F64, **kw):
    def fn(*args):
        return rnn_ops.fused_rnn(*args[:5], *args[5:], mode=mode)[:-1]

    def ref(*args):
        y, h, c = ref_rnn(mode, *args)
        out = [y, h] + ([c] if mode == "lstm" else [])
        return [a.astype(dtype) for a in out]
    return OpSpec("_FusedRNN", fn, _args(mode, dtype=dtype), ref,
                  name=f"_FusedRNN-{mode}-{np.dtype(dtype).name}", **kw)


def _loss(mode, args, weights):
    y, h, c = ref_rnn(mode, *args)
    return (y * weights[0]).sum() + (h * weights[1]).sum() + (
        (c * weights[2]).sum() if mode == "lstm" else 0)


def _grad_spec(mode):
    """The gradients of a weighting of the outputs, from the tape (the gradient op)."""
    rng = np.random.default_rng(7)
    args = _args(mode)
    batch, steps, units = args[0].shape[0], args[0].shape[1], args[4].shape[1]
    weights = [rng.uniform(0.5, 1.5, (batch, steps, units)), rng.uniform(0.5, 1.5, (batch, units)),
               rng.uniform(0.5, 1.5, (batch, units))]

    def fn(*tensors):
        with tf.GradientTape() as tape:
            tape.watch(tensors)
            out = rnn_ops.fused_rnn(*tensors[:5], *tensors[5:], mode=mode)
            loss = tf.reduce_sum(out[0] * weights[0]) + tf.reduce_sum(out[1] * weights[1])
            if mode == "lstm":
                loss += tf.reduce_sum(out[2] * weights[2])
        return tape.gradient(loss, list(tensors))

    def ref(*args):
        grads = []
        for i, a in enumerate(args):
            g = np.zeros(a.shape)
            for j in range(a.size):
                plus, minus = [b.copy() for b in args], [b.copy() for b in args]
                plus[i].flat[j] += 1e-6
                minus[i].flat[j] -= 1e-6
                g.flat[j] = (_loss(mode, plus, weights) - _loss(mode, minus, weights)) / 2e-6
            grads.append(g)
        return grads
    return OpSpec("_FusedRNNGrad", fn, args, ref, rtol=1e-6, atol=1e-7,
                  grad="its gradient is the composite formulation's (nested tapes, tested with "
                       "the layers)", name=f"_FusedRNNGrad-{mode}")


SPECS = [
    _forward_spec("lstm"),
    _forward_spec("gru"),
    _forward_spec("rnn"),
    _forward_spec("lstm", np.float32, rtol=1e-5, atol=1e-6, grad="float64 spec above"),
    _forward_spec("gru", np.float32, rtol=1e-5, atol=1e-6, grad="float64 spec above"),
    _grad_spec("lstm"),
    _grad_spec("gru"),
    _grad_spec("rnn"),
]
