"""Element-wise kernels on oneDNN: one pass over large arrays, on the thread budget.

`relu_grad` masks a gradient; `broadcast` writes a broadcast array;
`broadcast_relu_grad` masks a gradient broadcast to the features' shape.

NumPy runs an element-wise expression one ufunc (one pass over memory) at a
time on one thread; oneDNN's binary primitive with post-ops chains the steps
in one pass on every thread, or on one while other processes keep the cores
busy: a pass this short ends when the last thread of its team has had its
time slice (a ReLU gradient of 350k elements took 13 times its idle time on
four threads under load, twice on one). Each function returns the result, or None where
oneDNN should not run (switched off, not float32, small or non-contiguous
arrays): the caller's NumPy code runs then, with the same values bit for bit.

oneDNN's comparisons take NaN as greater than anything and its maximum turns
NaN into the other operand, so NaN features are first replaced by 0 (the
maximum with 0), then compared: ``gradients * (features > 0)`` exactly as
TensorFlow's ReluGrad, a NaN gradient giving NaN wherever it is.

>>> g, f = np.ones(1 << 18, np.float32), np.full(1 << 18, np.nan, np.float32)
>>> f[:2] = 1.0, -1.0
>>> out = relu_grad(g, f)  # None where oneDNN is off or missing
>>> out is None or (out[:3].tolist() == [1.0, 0.0, 0.0] and float(out.sum()) == 1.0)
True
"""
import ctypes

import numpy as np

from eagerflow._src.backend import onednn
from eagerflow._src.backend import onednn_api as api

# Below this many elements (1 MB) NumPy's passes, in cache, cost less than a native call.
MIN_SIZE = 1 << 18
_F32 = np.dtype(np.float32)


def relu_grad(gradients, features, out=None):
    """``gradients * (features > 0)`` (TF's ReluGrad) in one pass, or None; into `out` when
    given (an array of their shape, which may be either of them: each element is read
    before it is written)."""
    arrays = (gradients, features) if out is None else (gradients, features, out)
    if not onednn.flat_float32(arrays, MIN_SIZE):
        return None
    n = gradients.size

    def build():
        flat = onednn.describe((n,), _F32, (4,))
        scalar = onednn.describe((1,), _F32, (4,))
        # max(features, 0) (NaN -> 0), > 0, times the gradients
        attr = onednn.attributes(((api.BINARY_GT, scalar), (api.BINARY_MUL, flat)))
        pd = onednn._Handle("dnnl_primitive_desc_destroy")
        onednn.lib().dnnl_binary_primitive_desc_create(
            ctypes.byref(pd.value), onednn._engine, api.BINARY_MAX, flat.handle,
            scalar.handle, flat.handle, attr.value)
        plain = {api.ARG_SRC_0: flat, api.ARG_SRC_1: scalar, api.ARG_DST: flat,
                 api.post_op_arg(0): scalar, api.post_op_arg(1): flat}
        return onednn.Primitive(pd, plain, keep=(attr,))

    primitive = onednn.cached(("relu_grad", n), build)
    if primitive is None:
        return None
    if out is None:
        out = np.empty(gradients.shape, _F32)
    primitive({api.ARG_SRC_0: features, api.ARG_SRC_1: _ZERO, api.post_op_arg(0): _ZERO,
               api.post_op_arg(1): gradients}, {api.ARG_DST: out})
    return out


_ZERO = np.zeros(1, _F32)
_ZERO.flags.writeable = False


def broadcast_relu_grad(gradients, features, out=None):
    """``relu_grad`` of `gradients` broadcast to the shape of `features`, or None: the
    broadcast written out, then masked in place (two passes on every core; measured in
    a CNN's training step, 0.24 ms against NumPy's 0.37 for 600k elements: oneDNN's
    binary primitives take no such broadcast in their post-ops, but its reorder does).
    Into `out` when given (which may be `features`: the broadcast goes to an array of its
    own then).
    """
    shape = features.shape
    arrays = (features,) if out is None else (features, out)
    if gradients.dtype != _F32 or not onednn.flat_float32(arrays, MIN_SIZE):
        return None
    if out is None:
        out = np.empty(shape, _F32)
    spread = np.empty(shape, _F32) if np.may_share_memory(out, features) else out
    if not broadcast(np.broadcast_to(gradients, shape), spread):
        return None
    return relu_grad(spread, features, out)


def broadcast(source, out):
    """Copies `source`, a NumPy broadcast view (zero strides along its broadcast axes), into
    C-contiguous `out` of its shape, on the thread budget: oneDNN's reorder reads strides
    of zero as NumPy does. False where oneDNN should not run (switched off, not float32,
    small arrays, negative or odd strides, or only oneDNN's reference code), or need not:
    NumPy fills rows from one element (a last axis broadcast) as fast. The caller copies
    then."""
    if (out.size < MIN_SIZE or out.dtype != _F32 or source.dtype != _F32
            or out.ndim > api.MAX_NDIMS or not out.flags.c_contiguous or not source.strides
            or source.strides[-1] == 0 or any(s < 0 or s % 4 for s in source.strides)
            or not onednn.enabled()):
        return False

    def build():
        primitive = onednn.Primitive.reorder(onednn.describe(out.shape, _F32, source.strides),
                                             onednn.describe(out.shape, _F32, out.strides))
        if primitive.implementation().startswith("ref"):  # a loop per element
            raise api.Unsupported("reference implementation only", api.UNIMPLEMENTED)
        return primitive

    primitive = onednn.cached(("broadcast", out.shape, source.strides), build)
    if primitive is None:
        return False
    primitive({api.ARG_SRC: source}, {api.ARG_DST: out})
    return True
