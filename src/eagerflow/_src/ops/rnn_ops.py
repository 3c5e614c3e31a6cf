"""Fused recurrent layers: ``_FusedRNN`` runs a whole LSTM, GRU or SimpleRNN sequence as one op.

The op takes Keras's weights as they are: ``kernel (C, G*H)``,
``recurrent_kernel (H, G*H)`` and ``bias`` (``(G*H,)``, or ``(2, 3*H)`` for a GRU
with `reset_after`), gates in Keras's order (i, f, c, o for LSTM; z, r, h for
GRU, which is oneDNN's u, r, o), then the initial states ``h0`` (and ``c0`` for
LSTM). It returns the outputs of every step (``(N, T, H)``, or ``(T, N, H)``
with `time_major`), the final states, and a workspace (bytes) that its
gradient ``_FusedRNNGrad`` reads: oneDNN's, or the gate activations of the
NumPy kernel, then the configuration and which kernel wrote it.

The kernels run oneDNN's RNN primitives (forward training, backward over the
whole sequence) for float32 when `onednn.enabled()`, else NumPy. The NumPy
code is written once over a small namespace of array functions (`_NP`) and
runs over tensors too (`_OPS`): that composite formulation gives the gradient
where an active tape records it (to differentiate it again), and the gradient
op's own gradient is reverse mode through it (through `vjp`, which the Keras
layers provide: a tape is a layer above ops). TensorFlow has
no CPU op for these (its CPU Keras layers export a While loop): a GraphDef
holds their steps instead, the composite formulation (`NodeForm.lower`), or
a While loop over them for an unknown number of steps.

>>> y, h, c, _ = fused_rnn(tf.ones((2, 3, 4)), tf.zeros((4, 8)), tf.zeros((2, 8)),
...                        tf.zeros((8,)), tf.zeros((2, 2)), tf.zeros((2, 2)), mode="lstm")
>>> y.shape, h.numpy()[0]
(TensorShape([2, 3, 2]), array([0., 0.], dtype=float32))
"""
import ctypes

import numpy as np

from eagerflow._src.backend import onednn
from eagerflow._src.backend import onednn_api as api
from eagerflow._src.backend import threads
from eagerflow._src.core import context
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register, \
    register_gradient
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, float_math, linalg_ops, math_ops, reduction_ops
from eagerflow._src.ops.nn_ops import shape_text
from eagerflow._src.ops.wrappers import as_tensor

GATES = {"lstm": 4, "gru": 3, "rnn": 1}
# a workspace's last byte: the NumPy kernel's, or oneDNN's over this many parts of the batch
_NUMPY_WORKSPACE, _ONEDNN_WORKSPACE = 0, 1


# -- the composite formulation, over NumPy arrays or over tensors ---------------------------

class _NP:
    """Array functions of the NumPy kernels."""
    sigmoid = staticmethod(lambda x: float_math.sigmoid(np, x))
    tanh = staticmethod(lambda x: float_math.tanh(np, x))
    split = staticmethod(lambda x, n: np.split(x, n, axis=-1))
    concat = staticmethod(lambda xs: np.concatenate(xs, axis=-1))
    stack = staticmethod(np.stack)
    sum0 = staticmethod(lambda x: x.sum(0))

    @staticmethod
    def matmul(a, b, transpose_b=False, transpose_a=False):
        return (a.T if transpose_a else a) @ (b.T if transpose_b else b)

    @staticmethod
    def flat(x):  # (T, N, K) -> (T*N, K)
        return x.reshape(-1, x.shape[-1])

    @staticmethod
    def unflat(x, like):  # (T*N, K) -> (T, N, K) with `like`'s leading dims
        return x.reshape(like.shape[0], -1, x.shape[-1])


class _OPS:
    """The same functions as ops on tensors: the composite (differentiable) formulation."""
    sigmoid = staticmethod(math_ops.sigmoid)
    tanh = staticmethod(math_ops.tanh)
    split = staticmethod(lambda x, n: array_ops.split(x, n, axis=-1))
    concat = staticmethod(lambda xs: array_ops.concat(xs, -1))
    stack = staticmethod(array_ops.stack)
    sum0 = staticmethod(lambda x: reduction_ops.reduce_sum(x, 0))
    matmul = staticmethod(linalg_ops.matmul)

    @staticmethod
    def flat(x):
        return array_ops.reshape(x, [-1, x.shape[-1]])

    @staticmethod
    def unflat(x, like):
        return array_ops.reshape(x, [like.shape[0], -1, x.shape[-1]])


def _biases(mode, bias):
    """The bias of the input part and the one of the recurrent part (GRU's second row)."""
    return (bias[0], bias[1]) if mode == "gru" else (bias, None)


def _forward(ns, mode, xs, kernel, recurrent_kernel, bias, h, c=None):
    """The whole sequence of time-major `xs` ``(T, N, C)``: ``(ys, h, c, saved)``.

    `saved` holds what `_backward` needs beyond the outputs ``ys (T, N, H)``:
    LSTM's gate activations and cell states, GRU's gates and the recurrent part of
    its candidate.
    """
    input_bias, recurrent_bias = _biases(mode, bias)
    projected = ns.unflat(ns.matmul(ns.flat(xs), kernel) + input_bias, xs)
    ys, acts, extra = [], [], []
    for t in range(xs.shape[0]):
        h, c, act, more = _step(ns, mode, projected[t], recurrent_kernel, recurrent_bias, h, c)
        if act is not None:
            acts.append(act)
            extra.append(more)
        ys.append(h)
    saved = (ns.stack(acts), ns.stack(extra)) if acts else ()
    return ns.stack(ys), h, c, saved


def _step(ns, mode, projected, recurrent_kernel, recurrent_bias, h, c):
    """One step from the projected input ``(N, G*H)``: ``(h, c, activations, extra)``, the
    last two what `_forward` saves (None for SimpleRNN)."""
    inner = ns.matmul(h, recurrent_kernel)
    if mode == "lstm":
        z_i, z_f, z_c, z_o = ns.split(projected + inner, 4)
        i, f, g, o = ns.sigmoid(z_i), ns.sigmoid(z_f), ns.tanh(z_c), ns.sigmoid(z_o)
        c = f * c + i * g
        h = o * ns.tanh(c)
        return h, c, ns.concat([i, f, g, o]), c
    if mode == "gru":
        x_z, x_r, x_h = ns.split(projected, 3)
        r_z, r_r, r_h = ns.split(inner + recurrent_bias, 3)
        z, r = ns.sigmoid(x_z + r_z), ns.sigmoid(x_r + r_r)
        candidate = ns.tanh(x_h + r * r_h)
        h = z * h + (1 - z) * candidate
        return h, c, ns.concat([z, r, candidate]), r_h
    return ns.tanh(projected + inner), c, None, None


def _backward(ns, mode, xs, kernel, recurrent_kernel, h0, c0, ys, saved, dys, dh, dc):
    """Gradients of the sequence `_forward` ran, given those of ``ys``, the last ``h``
    and ``c``: ``(dxs, dkernel, drecurrent_kernel, dbias, dh0, dc0)``."""
    steps = xs.shape[0]
    input_grads, recurrent_grads = [None] * steps, [None] * steps
    if saved:
        acts, extra = saved
    for t in range(steps - 1, -1, -1):
        dh, dc, input_grads[t], recurrent_grads[t] = _backward_step(
            ns, mode, recurrent_kernel, dh + dys[t], dc, acts[t] if saved else None,
            extra[t] if saved else None, (extra[t - 1] if t else c0) if mode == "lstm" else None,
            ys[t - 1] if t else h0, ys[t])
    d_in = ns.flat(ns.stack(input_grads))
    d_rec = d_in if mode != "gru" else ns.flat(ns.stack(recurrent_grads))
    previous = ns.flat(ns.stack([h0] + [ys[t] for t in range(steps - 1)]))
    dxs = ns.unflat(ns.matmul(d_in, kernel, transpose_b=True), xs)
    dkernel = ns.matmul(ns.flat(xs), d_in, transpose_a=True)
    drecurrent = ns.matmul(previous, d_rec, transpose_a=True)
    dbias = ns.sum0(d_in)
    if mode == "gru":
        dbias = ns.stack([dbias, ns.sum0(d_rec)])
    return dxs, dkernel, drecurrent, dbias, dh, dc


def _backward_step(ns, mode, recurrent_kernel, dh, dc, act, extra, c_prev, h_prev, y):
    """One step of `_backward`, given the gradient `dh` of its output `y` and `dc` of its
    cell state: ``(dh, dc, input gradient, recurrent gradient)`` (of the gates)."""
    if mode == "lstm":
        i, f, g, o = ns.split(act, 4)
        tanh_c = ns.tanh(extra)
        dc = dc + dh * o * (1 - tanh_c * tanh_c)
        grad = ns.concat([dc * g * i * (1 - i), dc * c_prev * f * (1 - f),
                          dc * i * (1 - g * g), dh * tanh_c * o * (1 - o)])
        return ns.matmul(grad, recurrent_kernel, transpose_b=True), dc * f, grad, grad
    if mode == "gru":
        z, r, candidate = ns.split(act, 3)
        d_z = dh * (h_prev - candidate) * z * (1 - z)
        d_h = dh * (1 - z) * (1 - candidate * candidate)
        d_r = d_h * extra * r * (1 - r)
        recurrent = ns.concat([d_z, d_r, d_h * r])
        dh = dh * z + ns.matmul(recurrent, recurrent_kernel, transpose_b=True)
        return dh, dc, ns.concat([d_z, d_r, d_h]), recurrent
    grad = dh * (1 - y * y)
    return ns.matmul(grad, recurrent_kernel, transpose_b=True), dc, grad, grad


# -- checks --------------------------------------------------------------------------------

def _check(op_name, mode, x, kernel, recurrent_kernel, bias, h0, c0):
    """TF-style InvalidArgumentErrors for inputs that do not fit together."""
    def fail(message):
        raise errors.InvalidArgumentError(None, op_name, f"{message} [Op:{op_name}]")

    def text(shape):
        return f"[{','.join(map(str, shape))}]"
    if mode not in GATES:
        fail(f"Unknown recurrent mode '{mode}'; expected one of {sorted(GATES)}")
    if x.ndim != 3:
        fail(f"input must be 3-dimensional{shape_text(x.shape)}")
    if h0.ndim != 2:
        fail(f"h0 must be 2-dimensional{shape_text(h0.shape)}")
    gates, units = GATES[mode], h0.shape[-1]
    width = gates * units
    if kernel.shape != (x.shape[-1], width):
        fail(f"kernel must be [input_size, {gates} * units] = {text((x.shape[-1], width))}, "
             f"got {text(kernel.shape)}")
    if recurrent_kernel.shape != (units, width):
        fail(f"recurrent_kernel must be [units, {gates} * units] = {text((units, width))}, "
             f"got {text(recurrent_kernel.shape)}")
    want = (2, width) if mode == "gru" else (width,)
    if bias.shape != want:
        fail(f"bias must be {text(want)}, got {text(bias.shape)}")
    if (mode == "lstm") != (c0 is not None):
        fail(f"{mode} takes {'h0 and c0' if mode == 'lstm' else 'one initial state h0'}")
    if c0 is not None and c0.shape != h0.shape:
        fail(f"c0 must have the shape of h0 {text(h0.shape)}, got {text(c0.shape)}")


def _check_layout(op_name, x, h0, time_major):
    batch = x.shape[1 if time_major else 0]
    if h0.shape[0] != batch:
        raise errors.InvalidArgumentError(
            None, op_name, f"h0 must be [batch, units] with the batch {batch} of the input "
                           f"{list(x.shape)}, got {list(h0.shape)} [Op:{op_name}]")
    if x.shape[0 if time_major else 1] == 0:
        raise errors.InvalidArgumentError(
            None, op_name, f"Cannot run a recurrent layer over 0 time steps: input "
                           f"{list(x.shape)} [Op:{op_name}]")


# -- oneDNN ---------------------------------------------------------------------------------

def _trailer(mode, time_major, x, units, kind):
    """The bytes a workspace ends with: the configuration that made it, then which kernel
    (the last byte: `_NUMPY_WORKSPACE`, or oneDNN's number of batch parts). The gradient
    reads only a workspace its own configuration made."""
    config = np.array([GATES[mode], time_major, *x.shape, units], np.int64).view(np.uint8)
    return np.append(config, np.uint8(kind))


_TRAILER = 8 * 6 + 1


def _workspace_kind(workspace, mode, time_major, x, units):
    """Which kernel wrote `workspace` for this configuration, or None (not for it)."""
    if workspace.size < _TRAILER:
        return None
    kind = int(workspace[-1])
    if not np.array_equal(workspace[-_TRAILER:], _trailer(mode, time_major, x, units, kind)):
        return None
    if kind == _NUMPY_WORKSPACE:
        saved = 0 if mode == "rnn" else (GATES[mode] + 1) * units
        if workspace.size - _TRAILER != x.shape[0] * x.shape[1] * saved * x.dtype.itemsize:
            return None
    return kind


class _Primitives:
    """The forward primitive of one configuration, and its backward one once asked for."""

    def __init__(self, mode, time_major, steps, batch, features, units):
        self.mode = mode
        gates = GATES[mode]
        f32, size = np.float32, 4
        if time_major:
            src = onednn.describe((steps, batch, features), f32, onednn.plain_strides(
                (steps, batch, features), f32))
            dst = onednn.describe((steps, batch, units), f32, onednn.plain_strides(
                (steps, batch, units), f32))
        else:  # (N, T, C) arrays seen as oneDNN's (T, N, C): its `ntc` layout
            src = onednn.describe((steps, batch, features), f32,
                                  (features * size, steps * features * size, size))
            dst = onednn.describe((steps, batch, units), f32,
                                  (units * size, steps * units * size, size))
        state = (1, 1, batch, units)
        states = onednn.describe(state, f32, onednn.plain_strides(state, f32))
        shapes = {"layer": (1, 1, features, gates, units), "iter": (1, 1, units, gates, units)}
        plain = {k: onednn.describe(s, f32, onednn.plain_strides(s, f32))
                 for k, s in shapes.items()}
        chosen = {k: onednn.describe(s, f32, None) for k, s in shapes.items()}
        bias_shape = (1, 1, gates + (mode == "gru"), units)
        bias = onednn.describe(bias_shape, f32, onednn.plain_strides(bias_shape, f32))
        self.descs = (src, dst, states, plain, chosen, bias)
        lib, engine = onednn.lib(), onednn._engine
        self.attr = onednn.attributes()  # the scratchpad comes with each call
        attr = self.attr.value
        pd = onednn._Handle("dnnl_primitive_desc_destroy")
        out = ctypes.byref(pd.value)
        wl, wi = chosen["layer"].handle, chosen["iter"].handle
        if mode == "lstm":
            lib.dnnl_lstm_forward_primitive_desc_create(
                out, engine, api.FORWARD_TRAINING, api.LEFT2RIGHT, src.handle, states.handle,
                states.handle, wl, wi, None, None, bias.handle, dst.handle, states.handle,
                states.handle, 0, attr)
        elif mode == "gru":
            lib.dnnl_lbr_gru_forward_primitive_desc_create(
                out, engine, api.FORWARD_TRAINING, api.LEFT2RIGHT, src.handle, states.handle,
                wl, wi, bias.handle, dst.handle, states.handle, 0, attr)
        else:
            lib.dnnl_vanilla_rnn_forward_primitive_desc_create(
                out, engine, api.FORWARD_TRAINING, api.ELTWISE_TANH, api.LEFT2RIGHT,
                src.handle, states.handle, wl, wi, bias.handle, dst.handle, states.handle, 0,
                0.0, 0.0, attr)
        args = {api.ARG_SRC_LAYER: src, api.ARG_SRC_ITER: states,
                api.ARG_WEIGHTS_LAYER: plain["layer"], api.ARG_WEIGHTS_ITER: plain["iter"],
                api.ARG_BIAS: bias, api.ARG_DST_LAYER: dst, api.ARG_DST_ITER: states,
                api.ARG_WORKSPACE: None}
        if mode == "lstm":
            args.update({api.ARG_SRC_ITER_C: states, api.ARG_DST_ITER_C: states})
        self.forward = onednn.Primitive(pd, args, keep=(chosen["layer"], chosen["iter"]))
        self.workspace = self.forward.size(api.ARG_WORKSPACE)
        self._backward = None

    def backward(self):
        """The backward primitive (built on first use); None where oneDNN has none."""
        if self._backward is None:
            try:
                self._backward = self._build_backward()
            except api.Unsupported:
                self._backward = False
        return self._backward or None

    def _build_backward(self):
        src, dst, states, plain, chosen, bias = self.descs
        lib, engine, mode, attr = onednn.lib(), onednn._engine, self.mode, self.attr.value
        pd = onednn._Handle("dnnl_primitive_desc_destroy")
        out, hint = ctypes.byref(pd.value), self.forward._pd.value
        wl, wi = chosen["layer"].handle, chosen["iter"].handle
        overwrite = 1  # dnnl_rnn_flags_diff_weights_overwrite: no stale sums in the buffers
        s, d, b = src.handle, dst.handle, bias.handle
        it = states.handle
        if mode == "lstm":
            lib.dnnl_lstm_backward_primitive_desc_create(
                out, engine, api.BACKWARD, api.LEFT2RIGHT, s, it, it, wl, wi, None, None, b, d,
                it, it, s, it, it, wl, wi, None, None, b, d, it, it, overwrite, hint, attr)
        elif mode == "gru":
            lib.dnnl_lbr_gru_backward_primitive_desc_create(
                out, engine, api.BACKWARD, api.LEFT2RIGHT, s, it, wl, wi, b, d, it, s, it, wl,
                wi, b, d, it, overwrite, hint, attr)
        else:
            lib.dnnl_vanilla_rnn_backward_primitive_desc_create(
                out, engine, api.BACKWARD, api.ELTWISE_TANH, api.LEFT2RIGHT, s, it, wl, wi, b,
                d, it, s, it, wl, wi, b, d, it, overwrite, 0.0, 0.0, hint, attr)
        args = {api.ARG_SRC_LAYER: src, api.ARG_SRC_ITER: states,
                api.ARG_WEIGHTS_LAYER: plain["layer"], api.ARG_WEIGHTS_ITER: plain["iter"],
                api.ARG_BIAS: bias, api.ARG_DST_LAYER: dst, api.ARG_DST_ITER: states,
                api.ARG_WORKSPACE: None, api.ARG_DIFF_SRC_LAYER: src,
                api.ARG_DIFF_SRC_ITER: states, api.ARG_DIFF_WEIGHTS_LAYER: plain["layer"],
                api.ARG_DIFF_WEIGHTS_ITER: plain["iter"], api.ARG_DIFF_BIAS: bias,
                api.ARG_DIFF_DST_LAYER: dst, api.ARG_DIFF_DST_ITER: states}
        if mode == "lstm":
            args.update({api.ARG_SRC_ITER_C: states, api.ARG_DST_ITER_C: states,
                         api.ARG_DIFF_SRC_ITER_C: states, api.ARG_DIFF_DST_ITER_C: states})
        return onednn.Primitive(pd, args, keep=(chosen["layer"], chosen["iter"]))


def _primitives(mode, time_major, x, units, part=False):
    """The cached primitives for inputs like `x` (float32, C-contiguous), or None; a `part`
    of a batch split over threads runs on one thread, the calling thread's own
    (`threads.slot`), so that helper threads run theirs at once."""
    if x.dtype != np.float32 or not onednn.enabled():
        return None
    steps, batch = (x.shape[0], x.shape[1]) if time_major else (x.shape[1], x.shape[0])
    key = ("_FusedRNN", mode, time_major, steps, batch, x.shape[2], units,
           threads.slot() if part else None)
    # Each time step is a few small products, each a parallel region of its own: below
    # this size, waking a second thread for every one costs more than it brings.
    serial = part or batch * units * (x.shape[2] + units) < _SERIAL_WORK
    return onednn.cached(key, lambda: _Primitives(mode, time_major, steps, batch, x.shape[2],
                                                  units), serial)


_SERIAL_WORK = 1 << 21  # multiply-adds per gate per step (batch 64, 64 units, 16 inputs: 327k)
# While no other process keeps the cores busy, a batch whose per-step products are too
# small to share (`_SERIAL_WORK`) runs in parts of at least this many examples, each on one
# thread (`threads.in_chunks`): rows of a batch are independent sequences, so the threads
# meet once, at the end, rather than at every step. (One thread, LSTM(64) over 32 steps of
# 16 inputs, forward and backward: batch 64 3.2 ms, 32 1.8 ms, 16 1.0 ms.) Under load too:
# the parts cost a fifth more CPU time than the whole batch, but each thread taking parts
# gets its share of the cores, where the whole batch on one thread gets one share (timed
# in turn with TensorFlow under load, bench/interleaved.py, the LSTM step ran a third faster).
_PART = 16


def _parts(mode, time_major, x, units):
    """How many parts of the batch the oneDNN kernels run on, each on a thread: 1 unless
    the batch is batch-major (its parts contiguous), large and the work per step small."""
    batch = x.shape[0]
    if time_major or batch * units * (x.shape[2] + units) >= _SERIAL_WORK:
        return 1
    return max(min(threads.budget(), batch // _PART, 255), 1)


def _rows(batch, parts):
    """The rows of each part of a batch-major batch (a single part: every array whole)."""
    if parts == 1:
        return [slice(None)]
    return [slice(batch * i // parts, batch * (i + 1) // parts) for i in range(parts)]


def _workspace_offsets(mode, time_major, x, units, parts):
    """Where each part's oneDNN workspace starts in the whole one (64-byte aligned), and
    the whole one's size before its trailer; None where oneDNN has no primitive for one."""
    if parts == 1:
        prims = _primitives(mode, time_major, x, units)
        return None if prims is None else ([0], prims.workspace)
    offsets, end = [], 0
    for rows in _rows(x.shape[0], parts):
        prims = _primitives(mode, time_major, x[rows], units, part=True)
        if prims is None:
            return None
        offsets.append(end)
        end += -(-prims.workspace // 64) * 64
    return offsets, end


def _in_parts(parts, run):
    """``run(i)`` for each part, on the intra-op threads when there are several."""
    return [run(0)] if parts == 1 else threads.in_chunks(parts, run)


def _dnnl_bias(mode, bias):
    """Keras's bias in oneDNN's layout: LBR-GRU's four rows are u, r, o of the input part
    plus the recurrent ones where they add, then the recurrent bias of the candidate."""
    if mode != "gru":
        return bias
    width = bias.shape[1] // 3
    return np.concatenate([bias[0, :2 * width] + bias[1, :2 * width], bias[0, 2 * width:],
                           bias[1, 2 * width:]])


def _c(a):
    return np.ascontiguousarray(a, np.float32)


# -- kernels ------------------------------------------------------------------------------

def _fused_rnn(xp, x, kernel, recurrent_kernel, bias, h0, *c0, mode="lstm", time_major=False):
    c0 = c0[0] if c0 else None
    _check("_FusedRNN", mode, x, kernel, recurrent_kernel, bias, h0, c0)
    _check_layout("_FusedRNN", x, h0, time_major)
    units = h0.shape[-1]
    lstm = mode == "lstm"
    parts = _parts(mode, time_major, x, units) if xp is np else 0
    layout = _workspace_offsets(mode, time_major, x, units, parts) if parts else None
    if layout is not None:
        offsets, size = layout
        x, h0, c0 = _c(x), _c(h0), None if c0 is None else _c(c0)
        kernel, recurrent_kernel = _c(kernel), _c(recurrent_kernel)
        bias = _c(_dnnl_bias(mode, bias))
        y = np.empty(x.shape[:2] + (units,), np.float32)
        h, c = np.empty(h0.shape, np.float32), np.empty(h0.shape, np.float32) if lstm else None
        workspace = onednn.aligned(size + _TRAILER)
        workspace[-_TRAILER:] = _trailer(mode, time_major, x, units, parts)
        cut = _rows(x.shape[0], parts)

        def run(i):
            rows = cut[i]
            part = x[rows]
            prims = _primitives(mode, time_major, part, units, part=parts > 1)
            end = offsets[i] + prims.workspace
            inputs = {api.ARG_SRC_LAYER: part, api.ARG_SRC_ITER: h0[rows],
                      api.ARG_WEIGHTS_LAYER: kernel, api.ARG_WEIGHTS_ITER: recurrent_kernel,
                      api.ARG_BIAS: bias}
            outputs = {api.ARG_DST_LAYER: y[rows], api.ARG_DST_ITER: h[rows],
                       api.ARG_WORKSPACE: workspace[offsets[i]:end]}
            if lstm:
                inputs[api.ARG_SRC_ITER_C] = c0[rows]
                outputs[api.ARG_DST_ITER_C] = c[rows]
            prims.forward(inputs, outputs)
        _in_parts(parts, run)
        return (y, h, c, workspace) if lstm else (y, h, workspace)
    xs = x if time_major else x.swapaxes(0, 1)
    ys, h, c, saved = _forward(_NP, mode, xs, kernel, recurrent_kernel, bias, h0, c0)
    y = ys if time_major else np.ascontiguousarray(ys.swapaxes(0, 1))
    workspace = np.concatenate([a.reshape(-1).view(np.uint8) for a in saved] + [
        _trailer(mode, time_major, x, units, _NUMPY_WORKSPACE)])
    return (y, h, c, workspace) if lstm else (y, h, workspace)


def _unpack(mode, workspace, dtype, steps, batch, units):
    """The NumPy kernel's saved arrays from its workspace bytes."""
    if mode == "rnn":
        return ()
    values = np.frombuffer(workspace[:-_TRAILER].tobytes(), dtype)
    gates = GATES[mode] * units
    cut = steps * batch * gates
    return (values[:cut].reshape(steps, batch, gates),
            values[cut:].reshape(steps, batch, units))


def _fused_rnn_grad(xp, x, kernel, recurrent_kernel, bias, h0, *rest, mode="lstm",
                    time_major=False):
    lstm = mode == "lstm"
    if lstm:
        c0, y, h, c, workspace, dy, dh, dc = rest
    else:
        (y, h, workspace, dy, dh), c0, c, dc = rest, None, None, None
    _check("_FusedRNNGrad", mode, x, kernel, recurrent_kernel, bias, h0, c0)
    _check_layout("_FusedRNNGrad", x, h0, time_major)
    if dy.shape != y.shape or dh.shape != h0.shape:
        raise errors.InvalidArgumentError(
            None, "_FusedRNNGrad", f"the gradients {list(dy.shape)} and {list(dh.shape)} do not "
                                   f"match the outputs {list(y.shape)} and {list(h0.shape)} "
                                   f"[Op:_FusedRNNGrad]")
    units = h0.shape[-1]
    kind = _workspace_kind(workspace, mode, time_major, x, units)
    layout = None
    if kind is not None and kind >= _ONEDNN_WORKSPACE and xp is np and \
            (kind == 1 or not time_major):  # (only batch-major batches are split)
        layout = _workspace_offsets(mode, time_major, x, units, kind)
        if layout is not None and layout[1] + _TRAILER != workspace.size:
            layout = None
    parts = kind
    if layout is not None:
        offsets = layout[0]
        cut = _rows(x.shape[0], parts)
        prims = [_primitives(mode, time_major, x[rows], units, part=parts > 1) for rows in cut]
        if any(p.backward() is None for p in prims):
            layout = None
    if layout is not None:
        dx, dh0 = np.empty(x.shape, np.float32), np.empty(h0.shape, np.float32)
        dc0 = np.empty(h0.shape, np.float32) if lstm else None
        ws = workspace[:-_TRAILER]
        if ws.__array_interface__["data"][0] % 64:
            ws = onednn.aligned(ws.size)
            ws[...] = workspace[:-_TRAILER]
        x, h0, y, h, dy, dh = (_c(a) for a in (x, h0, y, h, dy, dh))
        kernel, recurrent_kernel = _c(kernel), _c(recurrent_kernel)
        bias = _c(_dnnl_bias(mode, bias))
        if lstm:
            c0, c, dc = _c(c0), _c(c), _c(dc)
        bias_size = (GATES[mode] + (mode == "gru")) * units

        def run(i):
            rows = cut[i]
            part = x[rows]
            backward = _primitives(mode, time_major, part, units, part=parts > 1).backward()
            weights = (np.empty(kernel.shape, np.float32),
                       np.empty(recurrent_kernel.shape, np.float32),
                       np.zeros(bias_size, np.float32))
            inputs = {api.ARG_SRC_LAYER: part, api.ARG_SRC_ITER: h0[rows],
                      api.ARG_WEIGHTS_LAYER: kernel, api.ARG_WEIGHTS_ITER: recurrent_kernel,
                      api.ARG_BIAS: bias, api.ARG_DST_LAYER: y[rows], api.ARG_DST_ITER: h[rows],
                      api.ARG_WORKSPACE: ws[offsets[i]:offsets[i] + prims[i].workspace],
                      api.ARG_DIFF_DST_LAYER: dy[rows], api.ARG_DIFF_DST_ITER: dh[rows]}
            outputs = {api.ARG_DIFF_SRC_LAYER: dx[rows], api.ARG_DIFF_SRC_ITER: dh0[rows],
                       api.ARG_DIFF_WEIGHTS_LAYER: weights[0],
                       api.ARG_DIFF_WEIGHTS_ITER: weights[1], api.ARG_DIFF_BIAS: weights[2]}
            if lstm:
                inputs.update({api.ARG_SRC_ITER_C: c0[rows], api.ARG_DST_ITER_C: c[rows],
                               api.ARG_DIFF_DST_ITER_C: dc[rows]})
                outputs[api.ARG_DIFF_SRC_ITER_C] = dc0[rows]
            backward(inputs, outputs)
            return weights
        sums = _in_parts(parts, run)
        dkernel, drecurrent, dbias = sums[0]
        for more in sums[1:]:  # (summed in order: the same bits whichever thread ran a part)
            dkernel += more[0]
            drecurrent += more[1]
            dbias += more[2]
        if mode == "gru":
            dbias = dbias.reshape(4, units)
            dbias = np.stack([dbias[:3].reshape(-1),
                              np.concatenate([dbias[0], dbias[1], dbias[3]])])
        result = (dx, dkernel, drecurrent, dbias, dh0)
        return result + (dc0,) if lstm else result
    xs = x if time_major else x.swapaxes(0, 1)
    dys = dy if time_major else dy.swapaxes(0, 1)
    ys = y if time_major else y.swapaxes(0, 1)
    steps, batch = xs.shape[:2]
    if kind == _NUMPY_WORKSPACE:
        saved = _unpack(mode, workspace, x.dtype, steps, batch, units)
    else:  # oneDNN's workspace (only oneDNN reads it), or another's: the forward pass again
        ys, _, _, saved = _forward(_NP, mode, xs, kernel, recurrent_kernel, bias, h0, c0)
    dxs, dkernel, drecurrent, dbias, dh0, dc0 = _backward(
        _NP, mode, xs, kernel, recurrent_kernel, h0, c0, ys, saved, dys, dh, dc)
    dx = dxs if time_major else np.ascontiguousarray(dxs.swapaxes(0, 1))
    result = (dx, dkernel, drecurrent, dbias, dh0)
    return result + (dc0,) if lstm else result


# -- shape rules ----------------------------------------------------------------------------

def _dim(shape, i):
    return None if shape.rank is None else shape[i]


def _fused_rnn_rule(x, kernel, recurrent_kernel, bias, h0, *c0, mode="lstm",
                    time_major=False):
    units = _dim(recurrent_kernel.shape, 0)
    if units is None:
        units = _dim(h0.shape, 1)
    steps, batch = (_dim(x.shape, 0), _dim(x.shape, 1))
    if not time_major:
        steps, batch = batch, steps
    if batch is None:
        batch = _dim(h0.shape, 0)
    y = TensorShape([steps, batch, units] if time_major else [batch, steps, units])
    state = (TensorShape([batch, units]), x.dtype)
    workspace = (TensorShape([None]), _d.uint8)
    return [(y, x.dtype), state] + ([state] if mode == "lstm" else []) + [workspace]


def _fused_rnn_grad_rule(x, kernel, recurrent_kernel, bias, h0, *rest, mode="lstm", **_):
    shapes = [(t.shape, t.dtype) for t in (x, kernel, recurrent_kernel, bias, h0)]
    return shapes + [(rest[0].shape, rest[0].dtype)] if mode == "lstm" else shapes


_FLOATS = (_d.float32, _d.float64)
_FUSED_RNN = register("_FusedRNN", _fused_rnn, _fused_rnn_rule, multi=True,
                      tied=(0, 1, 2, 3, 4), dtypes=_FLOATS, grad_takes_none=True)
_FUSED_RNN_GRAD = register("_FusedRNNGrad", _fused_rnn_grad, _fused_rnn_grad_rule, multi=True,
                           tied=(0, 1, 2, 3, 4), dtypes=_FLOATS)


# ``(while_loop, TensorArray)`` of the graph layer, which the Keras layers fill (as `vjp`):
# a sequence of unknown length is written as a loop over its steps.
loops = None


def _static_steps(x, time_major):
    """Whether `x` has a static number of time steps, else whether a loop can run them."""
    if x.shape.rank is not None and x.shape[0 if time_major else 1] is not None:
        return True
    if loops is None:
        raise ValueError("a fused recurrent layer is written as its steps, which needs the "
                         "number of time steps statically here; give the input a static "
                         "time dimension, or build the layer with unroll=True")
    return False


def _loop(mode, time_major, x, kernel, recurrent_kernel, bias, h0, c0=None):
    """The sequence as a While loop over its steps: ``[y, h(, c)]``."""
    while_loop, TensorArray = loops
    xs = x if time_major else array_ops.transpose(x, [1, 0, 2])
    steps = array_ops.shape(xs)[0]
    xs_ta = TensorArray(xs.dtype, size=steps).unstack(xs)
    ys_ta = TensorArray(xs.dtype, size=steps, element_shape=h0.shape)
    input_bias, recurrent_bias = _biases(mode, bias)
    lstm = mode == "lstm"

    def body(t, ys_ta, h, *c):
        projected = _OPS.matmul(xs_ta.read(t), kernel) + input_bias
        h, c, _, _ = _step(_OPS, mode, projected, recurrent_kernel, recurrent_bias, h,
                           c[0] if lstm else None)
        return (t + 1, ys_ta.write(t, h), h) + ((c,) if lstm else ())

    zero = array_ops.zeros([], _d.int32)
    _, ys_ta, *states = while_loop(lambda t, *_: t < steps, body,
                                   (zero, ys_ta, h0) + ((c0,) if lstm else ()))
    ys = ys_ta.stack()
    return [ys if time_major else array_ops.transpose(ys, [1, 0, 2])] + states


def _loop_gradient(mode, time_major, x, kernel, recurrent_kernel, bias, h0, c0, dy, dh, dc):
    """`_backward` as While loops: the forward steps again, saving what `_backward_step`
    reads, then the steps in reverse order; the weights' gradients from all steps after."""
    while_loop, TensorArray = loops
    lstm, dtype = mode == "lstm", x.dtype
    xs = x if time_major else array_ops.transpose(x, [1, 0, 2])
    dys = dy if time_major else array_ops.transpose(dy, [1, 0, 2])
    steps = array_ops.shape(xs)[0]
    input_bias, recurrent_bias = _biases(mode, bias)
    xs_ta = TensorArray(dtype, size=steps).unstack(xs)
    zero = array_ops.zeros([], _d.int32)
    c0 = c0 if lstm else array_ops.zeros_like(h0)  # (unused: a loop variable of one dtype)

    def forward(t, ys_ta, acts_ta, extra_ta, h, c):
        projected = _OPS.matmul(xs_ta.read(t), kernel) + input_bias
        h, new_c, act, more = _step(_OPS, mode, projected, recurrent_kernel, recurrent_bias,
                                    h, c if lstm else None)
        if act is None:  # (SimpleRNN saves its outputs only)
            act = more = h
        return (t + 1, ys_ta.write(t, h), acts_ta.write(t, act), extra_ta.write(t, more), h,
                new_c if lstm else c)

    arrays = [TensorArray(dtype, size=steps) for _ in range(3)]
    _, ys_ta, acts_ta, extra_ta, _, _ = while_loop(lambda t, *_: t < steps, forward,
                                                   (zero, *arrays, h0, c0))
    ys, extra = ys_ta.stack(), extra_ta.stack()
    previous = array_ops.concat([array_ops.expand_dims(h0, 0), ys[:-1]], 0)
    c_previous = array_ops.concat([array_ops.expand_dims(c0, 0), extra[:-1]], 0)
    read = [TensorArray(dtype, size=steps).unstack(v)
            for v in (dys, acts_ta.stack(), extra, c_previous, previous, ys)]

    def backward(k, dxs_ta, in_ta, rec_ta, dh, dc):
        t = steps - 1 - k
        dy_t, act, more, c_prev, h_prev, y = [ta.read(t) for ta in read]
        dh, dc, d_in, d_rec = _backward_step(_OPS, mode, recurrent_kernel, dh + dy_t, dc,
                                             act, more, c_prev, h_prev, y)
        return (k + 1, dxs_ta.write(t, _OPS.matmul(d_in, kernel, transpose_b=True)),
                in_ta.write(t, d_in), rec_ta.write(t, d_rec), dh, dc)

    arrays = [TensorArray(dtype, size=steps) for _ in range(3)]
    dc = dc if lstm else array_ops.zeros_like(h0)
    _, dxs_ta, in_ta, rec_ta, dh0, dc0 = while_loop(lambda k, *_: k < steps, backward,
                                                    (zero, *arrays, dh, dc))
    d_in, d_rec = _OPS.flat(in_ta.stack()), _OPS.flat(rec_ta.stack())
    dxs = dxs_ta.stack()
    dkernel = _OPS.matmul(_OPS.flat(xs), d_in, transpose_a=True)
    drecurrent = _OPS.matmul(_OPS.flat(previous), d_rec, transpose_a=True)
    dbias = _OPS.sum0(d_in)
    if mode == "gru":
        dbias = _OPS.stack([dbias, _OPS.sum0(d_rec)])
    result = [dxs if time_major else array_ops.transpose(dxs, [1, 0, 2]), dkernel, drecurrent,
              dbias, dh0]
    return result + [dc0] if lstm else result


def _lower_fused_rnn(inputs, attrs):
    """`_FusedRNN` as ops TF has: its steps (the composite formulation), no workspace."""
    mode, time_major = attrs["mode"], attrs["time_major"]
    x = inputs[0]
    workspace = array_ops.zeros([0], _d.uint8)
    if not _static_steps(x, time_major):
        return _loop(mode, time_major, *inputs) + [workspace]
    xs = x if time_major else array_ops.transpose(x, [1, 0, 2])
    c0 = inputs[5] if mode == "lstm" else None
    ys, h, c, _ = _forward(_OPS, mode, xs, *inputs[1:5], c0)
    y = ys if time_major else array_ops.transpose(ys, [1, 0, 2])
    return [y, h] + ([c] if mode == "lstm" else []) + [workspace]


def _lower_fused_rnn_grad(inputs, attrs):
    """`_FusedRNNGrad` as ops TF has: the composite gradient (the forward steps again), as
    While loops for an unknown number of steps."""
    mode, time_major = attrs["mode"], attrs["time_major"]
    count = 6 if mode == "lstm" else 5
    primals, cotangents = inputs[:count], inputs[-3:] if mode == "lstm" else inputs[-2:]
    if mode != "lstm":
        primals, cotangents = primals + [None], cotangents + [None]
    if not _static_steps(inputs[0], time_major):
        return _loop_gradient(mode, time_major, *primals, *cotangents)
    return _composite_gradient(mode, time_major, primals, cotangents)


# TensorFlow has no CPU op for these (its Keras layers export a While loop): a GraphDef
# holds the steps instead.
tf_nodes[_FUSED_RNN] = NodeForm(lower=_lower_fused_rnn)
tf_nodes[_FUSED_RNN_GRAD] = NodeForm(lower=_lower_fused_rnn_grad)
# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _FUSED_RNN, _FUSED_RNN_GRAD)


def fused_rnn(x, kernel, recurrent_kernel, bias, h0, c0=None, mode="lstm", time_major=False,
              name=None):
    """Runs a whole recurrent layer: ``(outputs, h[, c], workspace)`` (see the module doc).

    `mode` is ``"lstm"`` (states `h0` and `c0`), ``"gru"`` (Keras's GRU with
    `reset_after`) or ``"rnn"`` (SimpleRNN with tanh).
    """
    inputs = [as_tensor(v) for v in (x, kernel, recurrent_kernel, bias, h0)]
    if c0 is not None:
        inputs.append(as_tensor(c0))
    return dispatch(_FUSED_RNN, tuple(inputs), {"mode": mode, "time_major": bool(time_major)},
                    name=name)


# -- gradients ----------------------------------------------------------------------------

def _recorded(tensors):
    """Whether an active tape would record ops reading `tensors` (a higher derivative)."""
    for recorder in context.get().recorders:
        watched = getattr(recorder, "watched", None)  # (a tape's; observers have none)
        if watched is not None and any(id(t) in watched for t in tensors if t is not None):
            return True
    return False


def _composite_gradient(mode, time_major, primals, cotangents):
    """The gradients of the whole sequence from ops (recomputing the forward pass), so that
    they can be differentiated again."""
    x, kernel, recurrent_kernel, bias, h0, c0 = primals
    dy, dh, dc = cotangents
    if x.shape[0 if time_major else 1] is None:
        raise errors.UnimplementedError(
            None, "_FusedRNN", "A second derivative of a fused recurrent layer needs the number "
                               "of time steps statically; give the input a static time "
                               "dimension or build the layer with unroll=True.")
    xs = x if time_major else array_ops.transpose(x, [1, 0, 2])
    dys = dy if time_major else array_ops.transpose(dy, [1, 0, 2])
    ys, _, _, saved = _forward(_OPS, mode, xs, kernel, recurrent_kernel, bias, h0, c0)
    dxs, dkernel, drecurrent, dbias, dh0, dc0 = _backward(
        _OPS, mode, xs, kernel, recurrent_kernel, h0, c0, ys, saved, dys, dh, dc)
    dx = dxs if time_major else array_ops.transpose(dxs, [1, 0, 2])
    result = [dx, dkernel, drecurrent, dbias, dh0]
    return result + [dc0] if mode == "lstm" else result


@register_gradient("_FusedRNN")
def _fused_rnn_backprop(op, *grads):
    mode, time_major = op.attrs["mode"], op.attrs["time_major"]
    lstm = mode == "lstm"
    y, h = op.outputs[0], op.outputs[1]
    dy = array_ops.zeros_like(y) if grads[0] is None else grads[0]
    dh = array_ops.zeros_like(h) if grads[1] is None else grads[1]
    dc = None
    if lstm:
        dc = array_ops.zeros_like(op.outputs[2]) if grads[2] is None else grads[2]
    primals = list(op.inputs) + ([] if lstm else [None])
    if _recorded(list(op.inputs) + [dy, dh, dc]):
        return _composite_gradient(mode, time_major, primals, (dy, dh, dc))
    outputs = list(op.outputs[:-1])
    inputs = list(op.inputs) + outputs + [op.outputs[-1], dy, dh] + ([dc] if lstm else [])
    return list(dispatch(_FUSED_RNN_GRAD, tuple(inputs), op.attrs))


# ``vjp(fn, args, output_grads) -> grads of args``: reverse mode through `fn` (ops on tensors),
# which needs a tape, a layer above this one: the Keras layers that use the op fill it.
vjp = None


@register_gradient("_FusedRNNGrad")
def _fused_rnn_grad_backprop(op, *grads):
    """The gradient op's gradient: reverse mode through the composite gradient (see
    `_composite_gradient`). Reached where the gradient op ran with no tape recording it and
    is differentiated afterwards (a traced backward function differentiated again)."""
    if vjp is None:
        raise errors.UnimplementedError(
            None, "_FusedRNNGrad", "The gradient of a fused recurrent layer cannot be "
                                   "differentiated again here; build the layer with "
                                   "unroll=True.")
    mode, time_major = op.attrs["mode"], op.attrs["time_major"]
    lstm = mode == "lstm"
    inputs = list(op.inputs)
    count = 6 if lstm else 5
    primals, cotangents = inputs[:count], inputs[-3:] if lstm else inputs[-2:]

    def gradient(*args):
        p, c = list(args[:count]), list(args[count:])
        if not lstm:
            p, c = p + [None], c + [None]
        return _composite_gradient(mode, time_major, p, c)
    result = list(vjp(gradient, primals + cotangents, list(grads)))
    outputs = (3 if lstm else 2) + 1  # y, h (, c) and the workspace get none
    return result[:count] + [None] * outputs + result[count:]
