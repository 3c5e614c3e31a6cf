"""Optimizer updates on oneDNN: Adam's three element-wise updates in three passes.

NumPy runs Adam's update as a dozen ufuncs, each a pass over the variable's
memory on one thread; here each moment update and the variable's step are one
oneDNN primitive (a binary or eltwise op with post-ops) on the thread budget,
in place. The step's scalars come as one-element tensors at each call, so one
primitive per variable size serves every step and every hyperparameter.
Results agree with the NumPy kernels within float32 rounding (the step
multiplies by the reciprocal of the denominator instead of dividing by it).
Functions return True when done, False where oneDNN should not run (switched
off, not float32, small or non-contiguous arrays): the NumPy kernel runs then.

>>> w, m, v = (np.zeros(1 << 16, np.float32) for _ in range(3))
>>> g = np.ones(1 << 16, np.float32)
>>> done = adam(w, m, v, np.float32(0.1), np.float32(0.1), np.float32(0.001), 1e-7, g)
>>> not done or (round(float(m[0]), 6), round(float(v[0]), 6), round(float(w[0]), 4))
(0.1, 0.001, -0.3162)
"""
import ctypes

import numpy as np

from eagerflow._src.backend import onednn
from eagerflow._src.backend import onednn_api as api
from eagerflow._src.backend import threads

# Below this many elements NumPy's dozen passes, in cache, cost less than three native calls
# (measured: 1.3x as fast as NumPy at 100k elements, 1.6x from 200k, slower below 32k).
MIN_SIZE = 1 << 16
_F32 = np.dtype(np.float32)


def _primitive(n, alg, post_ops, scalar_second=False):
    """A cached in-place binary primitive over `n` floats: `alg` of a flat first operand and
    a flat (or one-element: `scalar_second`) second one, then `post_ops`, each a binary
    ("scalar" or "flat", algorithm) pair or an eltwise (algorithm, alpha, beta) triple."""
    def build():
        flat = onednn.describe((n,), _F32, (4,))
        scalar = onednn.describe((1,), _F32, (4,))
        ops = [(op[1], scalar if op[0] == "scalar" else flat) if isinstance(op[0], str)
               else op for op in post_ops]
        attr = onednn.attributes(ops)
        second = scalar if scalar_second else flat
        pd = onednn._Handle("dnnl_primitive_desc_destroy")
        onednn.lib().dnnl_binary_primitive_desc_create(
            ctypes.byref(pd.value), onednn._engine, alg, flat.handle, second.handle,
            flat.handle, attr.value)
        plain = {api.ARG_SRC_0: flat, api.ARG_SRC_1: second, api.ARG_DST: flat}
        for i, op in enumerate(ops):
            if len(op) == 2:  # binary: its operand
                plain[api.post_op_arg(i)] = op[1]
        return onednn.Primitive(pd, plain, keep=(attr, scalar), kept_bindings=True)

    # One OpenMP thread: under load a primitive's threads, spinning at its barriers, made
    # the update several times slower (idle cores share a large update in parts instead,
    # see `adam`, each thread with primitives of its own).
    return onednn.cached(("optimizer", n, alg, tuple(post_ops), scalar_second, threads.slot()),
                         build, serial=True)


# A variable is updated in parts of at least this many elements on the intra-op threads
# while no other process keeps the cores busy (each part's passes on one thread). Under
# load it runs whole: an update takes a fraction of a millisecond, less than the scheduler
# may hold a thread that took a part off its core meanwhile (timed in turn with
# TensorFlow under load, the MLP step ran no faster with the parts).
SPLIT_SIZE = 1 << 16


def adam(w, m, v, alpha, decay1, decay2, epsilon, g):
    """In place: m += (g - m) decay1; v += (g*g - v) decay2;
    w -= alpha m / (sqrt(v) + epsilon). True when done."""
    if not onednn.flat_float32((w, m, v, g), MIN_SIZE):
        return False
    n = w.size
    parts = min(threads.budget(), n // SPLIT_SIZE)
    if parts > 1 and not threads.contended:
        w, m, v, g = (a.reshape(n) for a in (w, m, v, g))
        cut = [n * i // parts // 16 * 16 for i in range(parts)] + [n]
        if not all(_primitives(cut[i + 1] - cut[i]) for i in range(parts)):
            return False  # (before any part is updated)
        done = threads.in_chunks(parts, lambda i: _adam(
            *(a[cut[i]:cut[i + 1]] for a in (w, m, v, g)), alpha, decay1, decay2, epsilon))
        return all(done)
    return _adam(w, m, v, g, alpha, decay1, decay2, epsilon)


def _primitives(n):
    """Adam's three primitives over `n` floats (None for each oneDNN has not)."""
    moment = _primitive(n, api.BINARY_SUB, (("scalar", api.BINARY_MUL),
                                            ("flat", api.BINARY_ADD)))
    square = _primitive(n, api.BINARY_MUL, (("flat", api.BINARY_SUB),
                                            ("scalar", api.BINARY_MUL),
                                            ("flat", api.BINARY_ADD)))
    # (oneDNN's eltwise primitive has no fast kernel with binary post-ops: a binary one
    # multiplying by 1 leads)
    step = _primitive(n, api.BINARY_MUL, ((api.ELTWISE_SQRT, 0.0, 0.0),
                                          ("scalar", api.BINARY_ADD),
                                          (api.ELTWISE_POW, 1.0, -1.0),
                                          ("flat", api.BINARY_MUL),
                                          ("scalar", api.BINARY_MUL),
                                          ("flat", api.BINARY_ADD)), scalar_second=True)
    return None if moment is None or square is None or step is None else (moment, square, step)


def _adam(w, m, v, g, alpha, decay1, decay2, epsilon):
    n = w.size
    primitives = _primitives(n)
    if primitives is None:
        return False
    moment, square, step = primitives
    w, m, v, g = (a.reshape(n) for a in (w, m, v, g))
    scalars = np.array([decay1, decay2, epsilon, -alpha, 1], _F32)
    d1, d2, eps, neg_alpha, one = (scalars[i:i + 1] for i in range(5))
    post = api.post_op_arg
    # m = (g - m) * decay1 + m
    moment({api.ARG_SRC_0: g, api.ARG_SRC_1: m, post(0): d1, post(1): m}, {api.ARG_DST: m})
    # v = (g * g - v) * decay2 + v
    square({api.ARG_SRC_0: g, api.ARG_SRC_1: g, post(0): v, post(1): d2, post(2): v},
           {api.ARG_DST: v})
    # w = 1 / (sqrt(v) + epsilon) * m * -alpha + w
    step({api.ARG_SRC_0: v, api.ARG_SRC_1: one, post(1): eps, post(3): m, post(4): neg_alpha,
          post(5): w}, {api.ARG_DST: w})
    return True
