"""Optimizer updates on oneDNN: Adam, RMSprop, Adagrad, SGD (with or without momentum) and
weight decay in one to three element-wise passes each.

NumPy runs Adam's update as a dozen ufuncs, each a pass over the variable's
memory on one thread; here each moment update and the variable's step are one
oneDNN primitive (a binary op with post-ops), in place. The step's scalars live
in a small array of the update's own, rewritten at each call, so one set of
primitives per variable size serves every step and every hyperparameter; the
primitives' memory objects stay bound to the caller's arrays between calls (a
variable's arrays keep their addresses from step to step), so a call costs
little more than its native runs. Results agree with the NumPy kernels within
float32 rounding (moving averages as ``a + (x - a) rate``, and the step
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
import threading

import numpy as np

from eagerflow._src.backend import onednn
from eagerflow._src.backend import onednn_api as api
from eagerflow._src.backend import threads

# Below this many elements NumPy's dozen passes cost less than three native calls. In cache
# they are about as fast at 8k elements (1.5x at 32k, 2.2x at 200k), but inside a training
# step, where the arrays and the native code come back cold after the backward pass, NumPy
# took 40% of oneDNN's time at 9k elements (ResNet's 3x3x32x32 kernel), 45% at 16k (an
# LSTM's 64x256 recurrent kernel), about the same at 18k and 32k, and 1.5x at 37k.
MIN_SIZE = 1 << 15
# Updates without a square root or division take a few NumPy passes, cheap in cache, and
# gain from this size (measured: SGD, with or without momentum, about as fast at 64k
# elements, 1.2-1.3x at 128k, 1.4-1.6x at 200k; weight decay's one pass 1.4x at 64k).
MIN_SIZE_SIMPLE = 1 << 17
MIN_SIZE_DECAY = 1 << 16
_F32 = np.dtype(np.float32)
_BINARY = frozenset((api.BINARY_ADD, api.BINARY_MUL, api.BINARY_SUB))


class _Passes:
    """In-place binary primitives over `n` floats, run one after another on the same operands.

    `arrays` and `scalars` name the operands a call passes (flat arrays of `n`
    floats and numbers); each pass is ``(algorithm, first, second, post_ops,
    destination)``, operands given by name, each post-op an ``(algorithm,
    operand)`` pair (binary) or an ``(algorithm, alpha, beta)`` triple (eltwise).
    """

    def __init__(self, n, arrays, scalars, passes):
        self._scalars = onednn.aligned(4 * len(scalars)).view(np.float32)
        self._targets = [[] for _ in arrays]  # per array: the memory objects it binds
        self._bound = [None] * len(arrays)    # per array: the address its objects hold
        self._lock = threading.Lock()
        self._primitives, self._keep = [], [self._scalars]
        flat = onednn.describe((n,), _F32, (4,))
        scalar = onednn.describe((1,), _F32, (4,))
        index = {name: i for i, name in enumerate(arrays)}
        for algorithm, first, second, post_ops, destination in passes:
            operands = {api.ARG_SRC_0: first, api.ARG_SRC_1: second, api.ARG_DST: destination}
            ops = []
            for i, op in enumerate(post_ops):
                if len(op) == 2:
                    ops.append((op[0], scalar if op[1] in scalars else flat))
                    operands[api.post_op_arg(i)] = op[1]
                else:
                    ops.append(op)
            attr = onednn.attributes(ops)
            pd = onednn._Handle("dnnl_primitive_desc_destroy")
            onednn.lib().dnnl_binary_primitive_desc_create(
                ctypes.byref(pd.value), onednn._engine, algorithm, flat.handle,
                (scalar if second in scalars else flat).handle, flat.handle, attr.value)
            plain = {arg: scalar if name in scalars else flat for arg, name in operands.items()}
            primitive = onednn.Primitive(pd, plain, keep=(attr, flat, scalar))
            for arg, name in operands.items():
                memory = primitive.memory(arg)
                if name in scalars:
                    j = scalars.index(name)
                    self._bind(memory, self._scalars[j:j + 1])
                else:
                    self._targets[index[name]].append(memory)
            size = primitive.size(api.ARG_SCRATCHPAD)
            if size and not primitive.kept(api.ARG_SCRATCHPAD):
                buffer = onednn.aligned(size)
                self._bind(primitive.memory(api.ARG_SCRATCHPAD), buffer)
                self._keep.append(buffer)
            self._primitives.append(primitive)

    @staticmethod
    def _bind(memory, array):
        api.check(onednn.lib().dnnl_memory_set_data_handle(memory, onednn._address(array)),
                  "dnnl_memory_set_data_handle")

    def __call__(self, arrays, scalars):
        """Runs the passes on `arrays` (C-contiguous, of `n` floats) and `scalars`."""
        lib = onednn.lib()
        bind, address = lib.dnnl_memory_set_data_handle, onednn._address
        status = 0
        with self._lock:
            self._scalars[:] = scalars
            bound = self._bound
            for i, array in enumerate(arrays):
                at = address(array)
                if bound[i] != at:
                    for memory in self._targets[i]:
                        status |= bind(memory, at)
                    bound[i] = at
            stream = onednn._stream()
            for primitive in self._primitives:
                status |= primitive.execute(stream)
            status |= lib.dnnl_stream_wait(stream)
            if status:
                self._bound = [None] * len(bound)
        api.check(status, "dnnl_primitive_execute")


def _passes(name, n, spec):
    """The cached `_Passes` of update `name` (`spec`: its arrays, scalars and passes) over
    `n` floats (None where oneDNN has none)."""
    # One OpenMP thread: under load a primitive's threads, spinning at its barriers, made
    # the update several times slower (idle cores share a large update in parts instead,
    # see `_update`, each thread with primitives of its own).
    return onednn.cached(("optimizer", name, n, threads.slot()),
                         lambda: _Passes(n, *spec), serial=True)


# A variable is updated in parts of at least this many elements on the intra-op threads
# while no other process keeps the cores busy (each part's passes on one thread). Under
# load it runs whole: an update takes a fraction of a millisecond, less than the scheduler
# may hold a thread that took a part off its core meanwhile (timed in turn with
# TensorFlow under load, the MLP step ran no faster with the parts).
SPLIT_SIZE = 1 << 16


def _update(name, spec, arrays, scalars, min_size=MIN_SIZE):
    """Runs update `name` on `arrays` (the variable's first) and `scalars`, in parts on idle
    threads where it is large. True when done, False where NumPy should run it."""
    if not onednn.flat_float32(arrays, min_size):
        return False
    n = arrays[0].size
    parts = min(threads.budget(), n // SPLIT_SIZE)
    if parts > 1 and not threads.contended:
        arrays = [a.reshape(n) for a in arrays]
        cut = [n * i // parts // 16 * 16 for i in range(parts)] + [n]
        if not all(_passes(name, cut[i + 1] - cut[i], spec) for i in range(parts)):
            return False  # (before any part is updated)

        def part(i):
            passes = _passes(name, cut[i + 1] - cut[i], spec)
            if passes is None:
                return False
            passes([a[cut[i]:cut[i + 1]] for a in arrays], scalars)
            return True
        return all(threads.in_chunks(parts, part))
    passes = _passes(name, n, spec)
    if passes is None:
        return False
    passes(arrays, scalars)
    return True


# (oneDNN's eltwise primitive has no fast kernel with binary post-ops: where a pass starts
# with an eltwise op, a binary one multiplying by 1 or adding a scalar leads)
_ADAM = (("w", "m", "v", "g"), ("decay1", "decay2", "epsilon", "neg_alpha", "one"), (
    # v = (g * g - v) * decay2 + v
    (api.BINARY_MUL, "g", "g", ((api.BINARY_SUB, "v"), (api.BINARY_MUL, "decay2"),
                                (api.BINARY_ADD, "v")), "v"),
    # m = (g - m) * decay1 + m (after v: the gradient is still in cache, and m is for the step)
    (api.BINARY_SUB, "g", "m", ((api.BINARY_MUL, "decay1"), (api.BINARY_ADD, "m")), "m"),
    # w = 1 / (sqrt(v) + epsilon) * m * -alpha + w
    (api.BINARY_MUL, "v", "one", ((api.ELTWISE_SQRT, 0.0, 0.0), (api.BINARY_ADD, "epsilon"),
                                  (api.ELTWISE_POW, 1.0, -1.0), (api.BINARY_MUL, "m"),
                                  (api.BINARY_MUL, "neg_alpha"), (api.BINARY_ADD, "w")), "w")))


def adam(w, m, v, alpha, decay1, decay2, epsilon, g):
    """In place: m += (g - m) decay1; v += (g*g - v) decay2;
    w -= alpha m / (sqrt(v) + epsilon). True when done."""
    if w.size < MIN_SIZE:
        return False
    return _update("adam", _ADAM, (w, m, v, g), (decay1, decay2, epsilon, -alpha, 1))


# w = 1 / sqrt(a + epsilon) * g * -lr + w: the step of RMSprop and Adagrad
_SCALED_STEP = (api.BINARY_ADD, "a", "epsilon", (
    (api.ELTWISE_SQRT, 0.0, 0.0), (api.ELTWISE_POW, 1.0, -1.0), (api.BINARY_MUL, "g"),
    (api.BINARY_MUL, "neg_lr"), (api.BINARY_ADD, "w")), "w")
_RMS_PROP = (("w", "a", "g"), ("decay", "epsilon", "neg_lr"), (
    # a = (g * g - a) * decay + a
    (api.BINARY_MUL, "g", "g", ((api.BINARY_SUB, "a"), (api.BINARY_MUL, "decay"),
                                (api.BINARY_ADD, "a")), "a"),
    _SCALED_STEP))
_ADAGRAD = (("w", "a", "g"), ("epsilon", "neg_lr"), (
    # a = g * g + a
    (api.BINARY_MUL, "g", "g", ((api.BINARY_ADD, "a"),), "a"),
    _SCALED_STEP))


_RMS_PROP_MOMENTUM = (("w", "a", "mom", "g"), ("decay", "epsilon", "lr", "momentum"), (
    _RMS_PROP[2][0],
    (api.BINARY_MUL, "mom", "momentum", (), "mom"),
    # mom = 1 / sqrt(a + epsilon) * g * lr + mom
    (api.BINARY_ADD, "a", "epsilon", ((api.ELTWISE_SQRT, 0.0, 0.0), (api.ELTWISE_POW, 1.0, -1.0),
                                      (api.BINARY_MUL, "g"), (api.BINARY_MUL, "lr"),
                                      (api.BINARY_ADD, "mom")), "mom"),
    (api.BINARY_SUB, "w", "mom", (), "w")))


def rms_prop(w, ms, mom, lr, decay, momentum, epsilon, g):
    """In place: ms += (g*g - ms) decay; step = lr g / sqrt(ms + epsilon); w -= step, or
    with a momentum accumulator `mom` (None: none) mom = momentum mom + step; w -= mom.
    True when done."""
    if w.size < MIN_SIZE:
        return False
    if mom is None:
        return _update("rms_prop", _RMS_PROP, (w, ms, g), (decay, epsilon, -lr))
    return _update("rms_prop_momentum", _RMS_PROP_MOMENTUM, (w, ms, mom, g),
                   (decay, epsilon, lr, momentum))


def adagrad(w, accum, lr, epsilon, g):
    """In place: accum += g*g; w -= lr g / sqrt(accum + epsilon). True when done."""
    if w.size < MIN_SIZE:
        return False
    return _update("adagrad", _ADAGRAD, (w, accum, g), (epsilon, -lr))


_MOMENTUM = (("w", "a", "g"), ("momentum", "neg_lr"), (
    (api.BINARY_MUL, "a", "momentum", (), "a"),
    (api.BINARY_MUL, "g", "neg_lr", ((api.BINARY_ADD, "a"),), "a"),
    (api.BINARY_ADD, "w", "a", (), "w")))


def momentum(w, accum, lr, g, momentum):
    """In place: accum = momentum accum - lr g; w += accum. True when done."""
    if w.size < MIN_SIZE_SIMPLE:
        return False
    return _update("momentum", _MOMENTUM, (w, accum, g), (momentum, -lr), MIN_SIZE_SIMPLE)


_GRADIENT_DESCENT = (("w", "g"), ("neg_lr",), (
    (api.BINARY_MUL, "g", "neg_lr", ((api.BINARY_ADD, "w"),), "w"),))


def gradient_descent(w, lr, g):
    """In place: w -= lr g. True when done."""
    if w.size < MIN_SIZE_SIMPLE:
        return False
    return _update("gradient_descent", _GRADIENT_DESCENT, (w, g), (-lr,), MIN_SIZE_SIMPLE)


_WEIGHT_DECAY = (("w",), ("neg_rate",), (
    (api.BINARY_MUL, "w", "neg_rate", ((api.BINARY_ADD, "w"),), "w"),))


def weight_decay(w, decay, lr):
    """In place: w -= w (decay lr). True when done."""
    if w.size < MIN_SIZE_DECAY:
        return False
    return _update("weight_decay", _WEIGHT_DECAY, (w,), (-(decay * lr),), MIN_SIZE_DECAY)
