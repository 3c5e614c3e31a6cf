"""Specs of the nn ops (nn_ops.py) and convolutions/pooling (conv_ops.py).

The convolution and pooling references below loop over output and kernel
positions directly (slow, obviously correct on tiny shapes); test_conv_ops.py
reuses them.
"""
import numpy as np

import eagerflow as tf
from tests.internals import conv_ops as c, dispatch, nn_ops as n, registry
from tests.ops.spec import OpSpec, graph_op, positive, rand

F32, F64 = np.float32, np.float64
FLOATS = (F32, F64)


# ----------------------------------------------------------------------------- references

def same_pads(sizes, ksize, strides, dilations=None):
    """TensorFlow's SAME paddings: out = ceil(size / stride), the odd pad element after."""
    dilations = dilations or [1] * len(sizes)
    pads = []
    for size, k, s, d in zip(sizes, ksize, strides, dilations):
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def _outs(padded, ksize, strides, dilations):
    return [(p - (k - 1) * d - 1) // s + 1 for p, k, s, d in zip(padded, ksize, strides,
                                                                   dilations)]


def ref_conv(x, w, strides, dilations, pads):
    """Grouped N-D convolution of channels-last `x` with `w` (*k, c / groups, out)."""
    nd = w.ndim - 2
    xp = np.pad(x.astype(F64), [(0, 0), *pads, (0, 0)])
    cg, o = w.shape[-2:]
    groups = x.shape[-1] // cg
    og = o // groups
    outs = _outs(xp.shape[1:-1], w.shape[:nd], strides, dilations)
    y = np.zeros((x.shape[0], *outs, o))
    for pos in np.ndindex(*outs):
        for kpos in np.ndindex(*w.shape[:nd]):
            idx = tuple(p * s + k * d for p, s, k, d in zip(pos, strides, kpos, dilations))
            window = xp[(slice(None), *idx)]
            for g in range(groups):
                y[(slice(None), *pos, slice(g * og, (g + 1) * og))] += (
                    window[:, g * cg:(g + 1) * cg] @ w[kpos][:, g * og:(g + 1) * og])
    return y.astype(x.dtype)


def ref_conv_input_grad(dy, w, x_shape, strides, dilations, pads):
    """The adjoint of `ref_conv` with respect to its input (of shape `x_shape`)."""
    nd = w.ndim - 2
    cg, o = w.shape[-2:]
    groups = x_shape[-1] // cg
    og = o // groups
    padded = [s + b + a for s, (b, a) in zip(x_shape[1:-1], pads)]
    dx = np.zeros((x_shape[0], *padded, x_shape[-1]))
    for pos in np.ndindex(*dy.shape[1:-1]):
        for kpos in np.ndindex(*w.shape[:nd]):
            idx = tuple(p * s + k * d for p, s, k, d in zip(pos, strides, kpos, dilations))
            for g in range(groups):
                dx[(slice(None), *idx, slice(g * cg, (g + 1) * cg))] += (
                    dy[(slice(None), *pos, slice(g * og, (g + 1) * og))]
                    @ w[kpos][:, g * og:(g + 1) * og].T)
    crop = tuple(slice(b, b + s) for s, (b, _) in zip(x_shape[1:-1], pads))
    return dx[(slice(None), *crop)].astype(dy.dtype)


def ref_conv_filter_grad(x, dy, w_shape, strides, dilations, pads):
    """The adjoint of `ref_conv` with respect to its filter (of shape `w_shape`)."""
    nd = len(w_shape) - 2
    cg, o = w_shape[-2:]
    groups = x.shape[-1] // cg
    og = o // groups
    xp = np.pad(x.astype(F64), [(0, 0), *pads, (0, 0)])
    dw = np.zeros(w_shape)
    for pos in np.ndindex(*dy.shape[1:-1]):
        for kpos in np.ndindex(*w_shape[:nd]):
            idx = tuple(p * s + k * d for p, s, k, d in zip(pos, strides, kpos, dilations))
            for g in range(groups):
                dw[kpos][:, g * og:(g + 1) * og] += (
                    xp[(slice(None), *idx, slice(g * cg, (g + 1) * cg))].T
                    @ dy[(slice(None), *pos, slice(g * og, (g + 1) * og))])
    return dw.astype(x.dtype)


def ref_depthwise(x, w, strides, dilations, pads):
    """Depthwise convolution: grouped with one input channel per group."""
    return ref_conv(x, w.reshape(*w.shape[:-2], 1, -1), strides, dilations, pads)


def ref_pool(x, ksize, strides, pads, kind):
    """Max or mean of each window over its real (unpadded) elements, channels-last."""
    nd = len(ksize)
    sizes = x.shape[1:-1]
    outs = _outs([s + b + a for s, (b, a) in zip(sizes, pads)], ksize, strides, [1] * nd)
    y = np.zeros((x.shape[0], *outs, x.shape[-1]), x.dtype)
    for pos in np.ndindex(*outs):
        window = x[(slice(None), *_region(pos, sizes, ksize, strides, pads))]
        window = window.reshape(x.shape[0], -1, x.shape[-1])
        y[(slice(None), *pos)] = window.max(1) if kind == "max" else window.mean(1)
    return y


def _region(pos, sizes, ksize, strides, pads):
    """The real (unpadded) input slices of the pooling window at output position `pos`."""
    region = []
    for p, s, k, size, (before, _) in zip(pos, strides, ksize, sizes, pads):
        start = p * s - before
        region.append(slice(max(start, 0), min(start + k, size)))
    return tuple(region)


def _first_maxima(x, out_sizes, ksize, strides, pads):
    """Yields (output position, batch, channel, input index) of each window's first maximum."""
    for pos in np.ndindex(*out_sizes):
        region = _region(pos, x.shape[1:-1], ksize, strides, pads)
        window = x[(slice(None), *region)]
        for b, ch in np.ndindex(x.shape[0], x.shape[-1]):
            at = np.unravel_index(window[b, ..., ch].argmax(), window.shape[1:-1])
            yield pos, b, ch, (b, *(r.start + i for r, i in zip(region, at)), ch)


def ref_pool_grad(x, dy, ksize, strides, pads, kind):
    """The adjoint of `ref_pool` at `x`: each window's `dy` to its first maximum, or shared
    evenly among its real elements."""
    dx = np.zeros(x.shape)
    if kind == "max":
        for pos, b, ch, at in _first_maxima(x, dy.shape[1:-1], ksize, strides, pads):
            dx[at] += dy[(b, *pos, ch)]
        return dx.astype(dy.dtype)
    for pos in np.ndindex(*dy.shape[1:-1]):
        region = _region(pos, x.shape[1:-1], ksize, strides, pads)
        count = np.prod([r.stop - r.start for r in region])
        share = dy[(slice(None), *pos)] / count
        dx[(slice(None), *region)] += share.reshape(len(share), *(1,) * len(pos), -1)
    return dx.astype(dy.dtype)


def ref_max_pool_grad_grad(x, ddx, out_sizes, ksize, strides, pads):
    """`ddx` at each window's first maximum: the adjoint of max pooling's gradient."""
    y = np.zeros((x.shape[0], *out_sizes, x.shape[-1]), ddx.dtype)
    for pos, b, ch, at in _first_maxima(x, out_sizes, ksize, strides, pads):
        y[(b, *pos, ch)] = ddx[at]
    return y


def _log_softmax(x, axis=-1):
    x64 = x.astype(F64)
    shifted = x64 - x64.max(axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis, keepdims=True))


def _cast_like(fn):
    """A reference computed in float64 and returned in its first argument's dtype."""
    return lambda x, *rest: np.asarray(fn(x.astype(F64), *rest)).astype(x.dtype)


# ----------------------------------------------------------------------------- activations

def _unary(op, fn, ref, dtypes=FLOATS, data=rand, shape=(3, 4), **kw):
    return [OpSpec(op, fn, [data(*shape, dtype=d)], ref, name=f"{op}-{np.dtype(d).name}", **kw)
            for d in dtypes]


def _elu(x):
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0)))


_ACTIVATIONS = [
    *_unary("Relu", tf.nn.relu, lambda x: np.maximum(x, 0).astype(x.dtype),
            dtypes=FLOATS + (np.int32, np.int64)),
    *[OpSpec("ReluGrad", n.relu_grad, [rand(3, 4, dtype=dt, seed=1), rand(3, 4, dtype=dt)],
             lambda dy, x: dy * (x > 0), name=f"ReluGrad-{np.dtype(dt).name}")
      for dt in FLOATS],
    OpSpec("ReluGrad", n.relu_grad, [np.array([np.nan, np.inf, 1.0], F32),
                                     np.array([-1.0, -1.0, 2.0], F32)],
           lambda dy, x: np.array([np.nan, np.nan, 1.0], F32), grad="NaN inputs",
           name="ReluGrad-nan-stays-nan"),
    *[OpSpec("Relu6Grad", n.relu6_grad,
             [rand(3, 4, dtype=dt, seed=1), rand(3, 4, dtype=dt, low=-8, high=8)],
             lambda dy, x: dy * ((x > 0) & (x < 6)), name=f"Relu6Grad-{np.dtype(dt).name}",
             grad="integer" if dt == np.int32 else True) for dt in FLOATS + (np.int32,)],
    *[OpSpec("LeakyReluGrad", lambda dy, x: n.leaky_relu_grad(dy, x, alpha), [
        rand(3, 4, dtype=dt, seed=1), rand(3, 4, dtype=dt)],
        _cast_like(lambda dy, x: np.where(x > 0, dy, alpha * dy)),
        name=f"LeakyReluGrad-{alpha}-{np.dtype(dt).name}")
      for dt in FLOATS for alpha in (0.2, 1.5)],
    *[OpSpec("EluGrad", n.elu_grad,
             [rand(3, 4, dtype=dt, seed=1), rand(3, 4, dtype=dt, low=-0.9, high=2)],
             _cast_like(lambda dy, y: np.where(y < 0, dy * (y + 1), dy)),
             name=f"EluGrad-{np.dtype(dt).name}") for dt in FLOATS],
    *[OpSpec("SeluGrad", n.selu_grad,
             [rand(3, 4, dtype=dt, seed=1), rand(3, 4, dtype=dt, low=-1.7, high=2)],
             _cast_like(lambda dy, y: np.where(y < 0, dy * (y + 1.7580993408473766),
                                               dy * 1.0507009873554805)),
             name=f"SeluGrad-{np.dtype(dt).name}") for dt in FLOATS],
    *[OpSpec("SoftsignGrad", n.softsign_grad, [rand(3, 4, dtype=dt, seed=1), rand(3, 4, dtype=dt)],
             _cast_like(lambda dy, x: dy / (1 + np.abs(x)) ** 2),
             name=f"SoftsignGrad-{np.dtype(dt).name}") for dt in FLOATS],
    *[OpSpec("SoftplusGrad", lambda dy, x: tf.raw_ops.SoftplusGrad(gradients=dy, features=x),
             [rand(3, 4, dtype=dt, seed=1), rand(3, 4, dtype=dt, low=-8, high=8)],
             _cast_like(lambda dy, x: dy / (1 + np.exp(-x))),
             name=f"SoftplusGrad-{np.dtype(dt).name}") for dt in FLOATS],
    *_unary("Relu6", tf.nn.relu6, lambda x: np.clip(x, 0, 6).astype(x.dtype),
            data=lambda *s, dtype: rand(*s, dtype=dtype, low=-8, high=8),
            dtypes=FLOATS + (np.int32,)),
    *_unary("LeakyRelu", tf.nn.leaky_relu, _cast_like(lambda x: np.where(x > 0, x, 0.2 * x))),
    OpSpec("LeakyRelu", lambda x: tf.nn.leaky_relu(x, alpha=1.5), [rand(3, 4, dtype=F64)],
           lambda x: np.where(x > 0, x, 1.5 * x), name="LeakyRelu-alpha1.5"),
    OpSpec("LeakyRelu", tf.nn.leaky_relu, [np.array([-2, 0, 3], np.int32)],
           lambda x: np.array([-0.4, 0, 3], F32), name="LeakyRelu-int-as-float32"),
    *_unary("Elu", tf.nn.elu, _cast_like(_elu)),
    *_unary("Selu", tf.nn.selu, _cast_like(lambda x: 1.0507009873554805 * np.where(
        x > 0, x, 1.6732632423543772 * np.expm1(np.minimum(x, 0))))),
    *_unary("Softsign", tf.math.softsign, _cast_like(lambda x: x / (1 + np.abs(x)))),
]


def _gelu(x, approximate=False):
    from math import erf
    if approximate:
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + np.vectorize(erf)(x / np.sqrt(2)))


_COMPOSITES = [
    *[OpSpec("Erfc", tf.nn.gelu, [rand(3, 4, dtype=d)], _cast_like(_gelu),
             name=f"gelu-{np.dtype(d).name}") for d in FLOATS],
    *[OpSpec("Tanh", lambda x: tf.nn.gelu(x, approximate=True), [rand(3, 4, dtype=d)],
             _cast_like(lambda x: _gelu(x, True)), name=f"gelu-approximate-{np.dtype(d).name}")
      for d in FLOATS],
    *[OpSpec("Sigmoid", lambda x: tf.nn.silu(x, beta=1.5), [rand(3, 4, dtype=d)],
             _cast_like(lambda x: x / (1 + np.exp(-1.5 * x))), name=f"silu-{np.dtype(d).name}")
      for d in FLOATS],
    *[OpSpec("Log1p", lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
             [rand(3, 4, dtype=d, low=0, high=1), rand(3, 4, dtype=d, low=-30, high=30, seed=1)],
             lambda z, x: (np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))).astype(
                 x.dtype),
             name=f"sigmoid_cross_entropy-{np.dtype(d).name}") for d in FLOATS],
    *[OpSpec("Rsqrt", lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
             [rand(2, 3, dtype=d), rand(3, dtype=d, seed=1), positive(3, dtype=d, seed=2),
              rand(3, dtype=d, seed=3), rand(3, dtype=d, seed=4)],
             lambda x, m, v, o, s: ((x - m) / np.sqrt(v + 1e-3) * s + o).astype(x.dtype),
             name=f"batch_normalization-{np.dtype(d).name}") for d in FLOATS],
    OpSpec("Rsqrt", lambda x, m, v: tf.nn.batch_normalization(x, m, v, None, None, 0.5),
           [rand(2, 3, dtype=F32), rand(3, dtype=F32, seed=1), positive(3, dtype=F32, seed=2)],
           lambda x, m, v: ((x - m) / np.sqrt(v + 0.5)).astype(F32),
           name="batch_normalization-no-offset-scale"),
]


# ----------------------------------------------------------------------------- softmax, losses

def _softmax_specs():
    specs = []
    for d in FLOATS:
        for axis in (None, 0, -2):
            ax = -1 if axis is None else axis
            specs += [
                OpSpec("Softmax", lambda x, a=axis: tf.math.softmax(x, a), [rand(3, 4, 2, dtype=d)],
                       lambda x, a=ax: np.exp(_log_softmax(x, a)).astype(x.dtype),
                       name=f"Softmax-{np.dtype(d).name}-axis{axis}"),
                OpSpec("LogSoftmax", lambda x, a=axis: tf.math.log_softmax(x, a),
                       [rand(3, 4, 2, dtype=d)], lambda x, a=ax: _log_softmax(x, a).astype(x.dtype),
                       name=f"LogSoftmax-{np.dtype(d).name}-axis{axis}")]
    return specs


def _xent(labels, logits, axis=-1):
    return -(labels * _log_softmax(logits, axis)).sum(axis).astype(logits.dtype)


def _sparse_xent(labels, logits):
    picked = np.take_along_axis(_log_softmax(logits), labels[..., None].astype(np.intp), -1)
    return -picked[..., 0].astype(logits.dtype)


def _distribution(*shape, dtype, seed=0):
    p = positive(*shape, dtype=dtype, seed=seed)
    return (p / p.sum(-1, keepdims=True)).astype(dtype)


_LOSSES = [
    *[OpSpec("SoftmaxCrossEntropyWithLogits", tf.nn.softmax_cross_entropy_with_logits,
             [_distribution(4, 5, dtype=d), rand(4, 5, dtype=d, seed=1)], _xent,
             name=f"SoftmaxCrossEntropy-{np.dtype(d).name}") for d in FLOATS],
    OpSpec("SoftmaxCrossEntropyWithLogits",
           lambda z, x: tf.nn.softmax_cross_entropy_with_logits(z, x, axis=0),
           [_distribution(5, 3, dtype=F64).T.copy(), rand(3, 5, dtype=F64, seed=1)],
           lambda z, x: _xent(z, x, 0), name="SoftmaxCrossEntropy-axis0"),
    OpSpec("SoftmaxCrossEntropyWithLogits", tf.nn.softmax_cross_entropy_with_logits,
           [_distribution(1, 5, dtype=F32), rand(2, 3, 5, dtype=F32, seed=1)], _xent,
           name="SoftmaxCrossEntropy-broadcast-labels"),
    *[OpSpec("SparseSoftmaxCrossEntropyWithLogits", tf.nn.sparse_softmax_cross_entropy_with_logits,
             [np.array([0, 4, 2, 1], it), rand(4, 5, dtype=d, seed=1)], _sparse_xent,
             name=f"SparseSoftmaxCrossEntropy-{np.dtype(d).name}-{np.dtype(it).name}")
      for d in FLOATS for it in (np.int32, np.int64)],
    OpSpec("SparseSoftmaxCrossEntropyWithLogits", tf.nn.sparse_softmax_cross_entropy_with_logits,
           [np.array([[0, 2], [1, 1]], np.int32), rand(2, 2, 3, dtype=F32)], _sparse_xent,
           name="SparseSoftmaxCrossEntropy-3d"),
    *_unary("L2Loss", tf.nn.l2_loss, lambda t: np.asarray((t.astype(F64) ** 2).sum() / 2, t.dtype)),
]


def _in_top_k(targets, predictions, k):
    score = np.take_along_axis(predictions, targets[:, None].astype(np.intp), 1)
    return (predictions > score).sum(1) < k


_IN_TOP_K = [
    OpSpec("InTopKV2", lambda t, p, k=k: tf.math.in_top_k(t, p, k),
           [np.array([0, 3, 1, 2, 4], it), rand(5, 6, dtype=F32, seed=3)],
           lambda t, p, k=k: _in_top_k(t, p, k), grad="boolean output",
           name=f"InTopKV2-k{k}-{np.dtype(it).name}")
    for k in (1, 3) for it in (np.int32, np.int64)] + [
    OpSpec("InTopKV2", tf.math.in_top_k,
           [np.array([0, 3, 1, 2, 4], it), rand(5, 6, dtype=F32, seed=3), np.array(2, it)],
           _in_top_k, grad="boolean output", name=f"InTopKV2-k-tensor-{np.dtype(it).name}")
    for it in (np.int32, np.int64)]


_BIAS_ADD = [
    *[OpSpec("BiasAdd", tf.nn.bias_add, [rand(2, 3, 4, dtype=d), rand(4, dtype=d, seed=1)],
             lambda x, b: x + b, name=f"BiasAdd-{np.dtype(d).name}")
      for d in FLOATS + (np.int32,)],
    OpSpec("BiasAdd", lambda x, b: tf.nn.bias_add(x, b, data_format="NCHW"),
           [rand(2, 3, 4, 5, dtype=F64), rand(3, dtype=F64, seed=1)],
           lambda x, b: x + b[:, None, None], name="BiasAdd-NCHW"),
    OpSpec("BiasAddV1", lambda x, b: tf.raw_ops.BiasAddV1(value=x, bias=b),
           [rand(2, 3, 4, dtype=F64), rand(4, dtype=F64, seed=1)], lambda x, b: x + b,
           name="BiasAddV1"),
    *[OpSpec("BiasAddGrad", n.bias_add_grad, [rand(2, 3, 4, dtype=d)],
             lambda dy: dy.sum((0, 1), dy.dtype), name=f"BiasAddGrad-{np.dtype(d).name}")
      for d in FLOATS + (np.int32,)],
    OpSpec("BiasAddGrad", lambda dy: n.bias_add_grad(dy, data_format="NCHW"),
           [rand(2, 3, 4, 5, dtype=F64)], lambda dy: dy.sum((0, 2, 3)), name="BiasAddGrad-NCHW"),
    OpSpec("BiasAddGrad", n.bias_add_grad, [rand(2, 3, dtype=np.float16)],
           lambda dy: dy.astype(F32).sum(0).astype(np.float16), rtol=1e-3,
           name="BiasAddGrad-float16"),
    # large enough for the product with ones (reduction_ops.add_reduce)
    OpSpec("BiasAddGrad", n.bias_add_grad, [rand(8, 16, 16, 8, dtype=F32)],
           lambda dy: dy.astype(F64).sum((0, 1, 2)).astype(F32), rtol=1e-5, atol=1e-4,
           grad="16384 finite differences: the small specs check the gradient",
           name="BiasAddGrad-large"),
]


# ----------------------------------------------------------------------------- convolutions

def _conv_spec(x_shape, w_shape, strides, padding, dilations=None, dtype=F64, name=None, **kw):
    """A Conv2D/Conv3D spec; `padding` is "SAME", "VALID" or a list of spatial pairs."""
    nd = len(w_shape) - 2
    dilations = dilations or (1,) * nd
    x, w = rand(*x_shape, dtype=dtype), rand(*w_shape, dtype=dtype, seed=1)
    sizes = x_shape[-nd - 1:-1]
    if padding == "SAME":
        pads = same_pads(sizes, w_shape[:nd], strides, dilations)
    elif padding == "VALID":
        pads = [(0, 0)] * nd
    else:
        pads, padding = padding, [[0, 0], *padding, [0, 0]]
    public = {2: tf.nn.conv2d, 3: tf.nn.conv3d}[nd]
    call = lambda x, w: public(x, w, list(strides), padding, dilations=list(dilations))
    lead = x_shape[:-nd - 1]

    def ref(x, w):
        y = ref_conv(x.reshape(-1, *x.shape[-nd - 1:]), w, strides, dilations, pads)
        return y.reshape(*lead, *y.shape[1:])
    return OpSpec({2: "Conv2D", 3: "Conv3D"}[nd], call, [x, w], ref,
                  name=name or f"Conv{nd}D-{x_shape}-{w_shape}-{strides}-{padding}-{dilations}",
                  **kw)


def _nchw(fn):
    """`fn` of channels-last args run through its NCHW form."""
    def ref(x, w):
        return np.moveaxis(fn(np.moveaxis(x, 1, -1), w), -1, 1)
    return ref


_CONVS = [
    _conv_spec((2, 5, 6, 3), (3, 3, 3, 4), (2, 2), "SAME", dtype=F32, rtol=1e-4, atol=1e-5),
    _conv_spec((1, 6, 5, 2), (3, 2, 2, 3), (1, 2), "SAME", dilations=(2, 1)),
    _conv_spec((1, 7, 7, 2), (3, 3, 2, 2), (2, 2), "VALID", dilations=(2, 2)),
    _conv_spec((2, 4, 5, 2), (2, 3, 2, 2), (1, 1), [(1, 2), (0, 1)]),
    _conv_spec((1, 5, 5, 4), (3, 3, 2, 6), (1, 1), "SAME", name="Conv2D-grouped"),
    _conv_spec((2, 1, 4, 4, 2), (2, 2, 2, 3), (1, 1), "VALID", name="Conv2D-batch-dims"),
    _conv_spec((1, 4, 4, 2), (3, 3, 2, 2), (1, 1), "SAME", dtype=np.int32,
               name="Conv2D-int32", grad="integer"),
    # (channels-first layouts run on CPU in float32 and bfloat16 only, as in TF)
    OpSpec("Conv2D", lambda x, w: tf.nn.conv2d(x, w, 2, "SAME", data_format="NCHW"),
           [rand(1, 3, 5, 4, dtype=F32), rand(3, 3, 3, 2, dtype=F32, seed=1)],
           _nchw(lambda x, w: ref_conv(x, w, (2, 2), (1, 1), same_pads((5, 4), (3, 3), (2, 2)))),
           rtol=1e-4, atol=1e-5, name="Conv2D-NCHW"),
    _conv_spec((1, 4, 5, 3, 2), (2, 3, 2, 2, 3), (1, 2, 1), "SAME"),
    _conv_spec((1, 5, 4, 4, 1), (2, 2, 2, 1, 2), (2, 1, 1), "VALID", dilations=(1, 2, 1),
               dtype=F32),
]


def _depthwise_spec(x_shape, w_shape, strides, padding, dilations=(1, 1), dtype=F64):
    pads = (same_pads(x_shape[1:3], w_shape[:2], strides, dilations) if padding == "SAME"
            else [(0, 0)] * 2)
    return OpSpec("DepthwiseConv2dNative",
                  lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, *strides, 1], padding,
                                                  dilations=list(dilations)),
                  [rand(*x_shape, dtype=dtype), rand(*w_shape, dtype=dtype, seed=1)],
                  lambda x, w: ref_depthwise(x, w, strides, dilations, pads),
                  name=f"Depthwise-{x_shape}-{w_shape}-{strides}-{padding}-{dilations}")


_DEPTHWISE = [
    _depthwise_spec((2, 5, 5, 3), (3, 3, 3, 2), (2, 2), "SAME", dtype=F32),
    _depthwise_spec((1, 6, 7, 2), (2, 3, 2, 1), (1, 1), "VALID", dilations=(2, 2)),
    _depthwise_spec((1, 4, 6, 2), (3, 3, 2, 3), (1, 2), "SAME"),
    OpSpec("DepthwiseConv2dNative",
           lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 2, 1], "SAME", data_format="NCHW"),
           [rand(2, 3, 5, 4, dtype=F32), rand(2, 3, 3, 2, dtype=F32, seed=1)],
           _nchw(lambda x, w: ref_depthwise(x, w, (2, 1), (1, 1),
                                            same_pads((5, 4), (2, 3), (2, 1)))),
           rtol=1e-4, atol=1e-5, name="Depthwise-NCHW"),
    # its gradient ops: the grouped convolution's, the filter (kh, kw, c, m) as (kh, kw, 1, c * m)
    OpSpec("DepthwiseConv2dNativeBackpropInput",
           lambda w, dy: tf.nn.depthwise_conv2d_backprop_input([2, 5, 5, 3], w, dy, [1, 2, 2, 1],
                                                               "SAME"),
           [rand(3, 3, 3, 2, dtype=F64), rand(2, 3, 3, 6, dtype=F64, seed=1)],
           lambda w, dy: ref_conv_input_grad(dy, w.reshape(3, 3, 1, 6), (2, 5, 5, 3), (2, 2),
                                             (1, 1), same_pads((5, 5), (3, 3), (2, 2))),
           name="DepthwiseBackpropInput-SAME"),
    OpSpec("DepthwiseConv2dNativeBackpropInput",
           graph_op(lambda s, w, dy: tf.raw_ops.DepthwiseConv2dNativeBackpropInput(
               input_sizes=s, filter=w, out_backprop=dy, strides=[1, 1, 1, 1],
               padding="VALID"), "DepthwiseConv2dNativeBackpropInput"),
           [np.array([1, 4, 5, 2], np.int32), rand(2, 3, 2, 1, dtype=F32),
            rand(1, 3, 3, 2, dtype=F32, seed=1)],
           lambda s, w, dy: ref_conv_input_grad(dy, w.reshape(2, 3, 1, 2), tuple(s), (1, 1),
                                                (1, 1), [(0, 0), (0, 0)]),
           grad="its sizes are an input known at run time only", rtol=1e-4, atol=1e-5,
           name="DepthwiseBackpropInput-run-time-sizes"),
    OpSpec("DepthwiseConv2dNativeBackpropFilter",
           lambda x, dy: tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 3, 2], dy,
                                                                [1, 2, 2, 1], "SAME"),
           [rand(2, 5, 5, 3, dtype=F64), rand(2, 3, 3, 6, dtype=F64, seed=1)],
           lambda x, dy: ref_conv_filter_grad(x, dy, (3, 3, 1, 6), (2, 2), (1, 1),
                                              same_pads((5, 5), (3, 3), (2, 2))).reshape(
                                                  3, 3, 3, 2),
           name="DepthwiseBackpropFilter-SAME"),
]


def _transpose_spec(x_shape, w_shape, strides, padding, dilations=None, dtype=F64,
                    two_sizes=False, channels_first=False, run_time_sizes=False):
    """A Conv2DBackpropInput/Conv3DBackpropInputV2 spec through conv2d/conv3d_transpose, or
    (`run_time_sizes`) with the output shape as the op's third input, as in a function
    where only run time knows it. `x_shape` (the output's) is channels-last."""
    nd = len(w_shape) - 2
    dilations = dilations or (1,) * nd
    pads = (same_pads(x_shape[1:-1], w_shape[:nd], strides, dilations) if padding == "SAME"
            else [(0, 0)] * nd)
    outs = _outs([n + b + a for n, (b, a) in zip(x_shape[1:-1], pads)], w_shape[:nd], strides,
                 dilations)
    dy_shape = (x_shape[0], *outs, w_shape[-1])
    op = {2: "Conv2DBackpropInput", 3: "Conv3DBackpropInputV2"}[nd]
    public = {2: tf.nn.conv2d_transpose, 3: tf.nn.conv3d_transpose}[nd]
    ref = lambda dy, w: ref_conv_input_grad(dy, w, x_shape, strides, dilations, pads)
    sizes = list(x_shape[1:-1] if two_sizes else x_shape)
    data_format = {2: "NHWC", 3: "NDHWC"}[nd]
    if channels_first:
        data_format = data_format[0] + "C" + data_format[1:-1]
        dy_shape, sizes = _first(dy_shape), _first(sizes)
        ref = _nchw(ref)
    args = [rand(*dy_shape, dtype=dtype), rand(*w_shape, dtype=dtype, seed=1)]
    attrs = dict(strides=list(strides), padding=padding, data_format=data_format,
                 dilations=list(dilations))
    fn = lambda dy, w: public(dy, w, sizes, **attrs)
    if run_time_sizes:
        attrs = c._conv_attrs(nd, attrs.pop("strides"), attrs.pop("padding"), data_format,
                              attrs.pop("dilations"), (data_format,))
        fn = lambda dy, w, sizes: dispatch(registry.get(op), (w, dy, sizes), attrs)
        args.append(np.array(sizes, np.int64))
    return OpSpec(op, fn, args, lambda dy, w, *_: ref(dy, w),
                  name=f"{op}-{x_shape}-{w_shape}-{strides}-{padding}-{dilations}-"
                       f"{data_format}{'-run-time' if run_time_sizes else ''}")


def _first(shape):
    """A channels-last shape (or per-dim list) in channels-first order."""
    return [shape[0], shape[-1], *shape[1:-1]]


_BACKPROPS = [
    _transpose_spec((1, 6, 6, 2), (3, 3, 2, 4), (2, 2), "SAME", dtype=F32),
    _transpose_spec((2, 7, 6, 2), (2, 3, 2, 3), (2, 2), "VALID", two_sizes=True),
    _transpose_spec((1, 4, 5, 2), (3, 3, 2, 2), (1, 1), "SAME", dilations=(2, 1)),
    _transpose_spec((1, 5, 6, 3), (3, 2, 3, 2), (2, 2), "SAME", run_time_sizes=True),
    _transpose_spec((1, 4, 5, 3, 2), (3, 2, 3, 2, 3), (2, 2, 2), "SAME", dtype=F32),
    _transpose_spec((2, 4, 5, 4, 3), (2, 3, 2, 3, 2), (2, 2, 1), "VALID"),
    _transpose_spec((1, 3, 2, 3, 1), (2, 2, 2, 1, 2), (1, 1, 1), "SAME", dilations=(2, 1, 2)),
    _transpose_spec((1, 4, 3, 3, 2), (3, 2, 2, 2, 2), (2, 1, 1), "SAME", dtype=F32,
                    channels_first=True),
    _transpose_spec((1, 5, 3, 3, 2), (3, 2, 2, 2, 2), (2, 2, 1), "VALID", run_time_sizes=True),
    OpSpec("Conv2DBackpropInput",
           lambda w, dy: c.conv2d_backprop_input([1, 5, 5, 4], w, dy, [1, 1, 1, 1], "SAME"),
           [rand(3, 3, 2, 6, dtype=F64), rand(1, 5, 5, 6, dtype=F64, seed=1)],
           lambda w, dy: ref_conv_input_grad(dy, w, (1, 5, 5, 4), (1, 1), (1, 1),
                                             same_pads((5, 5), (3, 3), (1, 1))),
           name="conv2d_backprop_input-grouped"),
    OpSpec("Conv2DBackpropFilter",
           lambda x, dy: c.conv2d_backprop_filter(x, [3, 3, 3, 2], dy, [1, 2, 2, 1], "SAME"),
           [rand(2, 5, 6, 3, dtype=F32), rand(2, 3, 3, 2, dtype=F32, seed=1)],
           lambda x, dy: ref_conv_filter_grad(x, dy, (3, 3, 3, 2), (2, 2), (1, 1),
                                              same_pads((5, 6), (3, 3), (2, 2))),
           rtol=1e-4, atol=1e-5, name="conv2d_backprop_filter-f32"),
    OpSpec("Conv2DBackpropFilter",
           lambda x, dy: c.conv2d_backprop_filter(x, [2, 2, 2, 4], dy, [1, 1, 1, 1], "VALID",
                                                  dilations=[1, 2, 1, 1]),
           [rand(1, 5, 4, 4, dtype=F64), rand(1, 3, 3, 4, dtype=F64, seed=1)],
           lambda x, dy: ref_conv_filter_grad(x, dy, (2, 2, 2, 4), (1, 1), (2, 1),
                                              [(0, 0), (0, 0)]),
           name="conv2d_backprop_filter-grouped-dilated"),
]


def _run_time_filter_spec(x_shape, w_shape, strides, padding):
    """A Conv2DBackpropFilter/Conv3DBackpropFilterV2 spec with the filter's shape as the
    op's third input, as in a function where only run time knows it (channels-last)."""
    nd = len(w_shape) - 2
    op = {2: "Conv2DBackpropFilter", 3: "Conv3DBackpropFilterV2"}[nd]
    pads = (same_pads(x_shape[1:-1], w_shape[:nd], strides, (1,) * nd) if padding == "SAME"
            else [(0, 0)] * nd)
    outs = _outs([n + b + a for n, (b, a) in zip(x_shape[1:-1], pads)], w_shape[:nd], strides,
                 (1,) * nd)
    attrs = c._conv_attrs(nd, list(strides), padding, {2: "NHWC", 3: "NDHWC"}[nd], None,
                          ("NHWC", "NDHWC"))
    return OpSpec(op, lambda x, dy, sizes: dispatch(registry.get(op), (x, dy, sizes), attrs),
                  [rand(*x_shape, dtype=F64), rand(x_shape[0], *outs, w_shape[-1], dtype=F64,
                                                   seed=1), np.array(w_shape, np.int32)],
                  lambda x, dy, _: ref_conv_filter_grad(x, dy, w_shape, strides, (1,) * nd,
                                                        pads),
                  name=f"{op}-{x_shape}-{w_shape}-{strides}-{padding}-run-time")


_BACKPROPS += [_run_time_filter_spec((2, 5, 6, 3), (3, 2, 3, 2), (2, 1), "SAME"),
               _run_time_filter_spec((1, 4, 5, 3, 2), (2, 3, 2, 2, 3), (1, 2, 1), "VALID")]


# ----------------------------------------------------------------------------- pooling

def _pool_spec(kind, x_shape, ksize, strides, padding, dtype=F64, **kw):
    nd = len(ksize)
    pads = (same_pads(x_shape[1:-1], ksize, strides) if padding == "SAME"
            else [(0, 0)] * nd if padding == "VALID" else padding)
    attr_padding = padding if isinstance(padding, str) else [[0, 0], *padding, [0, 0]]
    public = {("max", 2): tf.nn.max_pool2d, ("avg", 2): tf.nn.avg_pool2d,
              ("max", 3): tf.nn.max_pool3d,
              ("avg", 3): tf.nn.avg_pool3d}[kind, nd]
    op = {"max": "MaxPool", "avg": "AvgPool"}[kind] + ("3D" if nd == 3 else "")
    return OpSpec(op, lambda x: public(x, list(ksize), list(strides), attr_padding),
                  [rand(*x_shape, dtype=dtype, low=-9, high=9)],
                  lambda x: ref_pool(x, ksize, strides, pads, kind),
                  name=f"{op}-{np.dtype(dtype).name}-{x_shape}-{ksize}-{strides}-{padding}",
                  **kw)


_POOLS = [
    _pool_spec("max", (2, 5, 6, 3), (2, 2), (2, 2), "SAME", dtype=F32),
    _pool_spec("max", (1, 5, 5, 2), (3, 2), (1, 2), "VALID"),
    _pool_spec("max", (1, 5, 5, 2), (2, 2), (3, 3), "SAME"),
    _pool_spec("max", (1, 4, 5, 1), (2, 2), (2, 2), [(1, 1), (0, 1)]),
    _pool_spec("max", (1, 5, 5, 2), (3, 3), (2, 2), "SAME", dtype=np.int8, grad="integer"),
    _pool_spec("avg", (2, 5, 6, 3), (3, 3), (2, 2), "SAME", dtype=F32),
    _pool_spec("avg", (1, 5, 5, 2), (2, 3), (2, 1), "VALID"),
    _pool_spec("avg", (1, 4, 4, 1), (3, 3), (1, 1), "SAME"),
    OpSpec("AvgPool", lambda x: tf.nn.avg_pool(x, 2, 2, "SAME", data_format="NCHW"),
           [rand(1, 2, 5, 5, dtype=F32)],
           lambda x: np.moveaxis(ref_pool(np.moveaxis(x, 1, -1), (2, 2), (2, 2),
                                          same_pads((5, 5), (2, 2), (2, 2)), "avg"), -1, 1),
           rtol=1e-4, atol=1e-5, name="AvgPool-NCHW"),
    OpSpec("MaxPool", lambda x: tf.nn.max_pool2d(x, [1, 1, 3, 2], [1, 1, 2, 1], "SAME",
                                            data_format="NCHW"),
           [rand(2, 3, 5, 4, dtype=F32, low=-9, high=9)],
           lambda x: np.moveaxis(ref_pool(np.moveaxis(x, 1, -1), (3, 2), (2, 1),
                                          same_pads((5, 4), (3, 2), (2, 1)), "max"), -1, 1),
           name="MaxPool-NCHW"),
    # (3-D pooling has float32 and bfloat16 CPU kernels only, as in TF)
    _pool_spec("max", (1, 4, 5, 3, 2), (2, 2, 2), (2, 2, 1), "SAME", dtype=F32),
    _pool_spec("avg", (1, 4, 5, 3, 2), (2, 3, 2), (1, 2, 2), "SAME", dtype=F32),
]


# ----------------------------------------------------------------------------- gradient ops

def _vjp(fn, x, dy):
    """d<fn(x), dy>/dx by the tape: runs the gradient ops of the op that `fn` calls."""
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x, output_gradients=dy)


def _pads(padding, sizes, ksize, strides, dilations=None):
    if padding == "SAME":
        return same_pads(sizes, ksize, strides, dilations)
    return [(0, 0)] * len(sizes) if padding == "VALID" else padding


def _pool_grad_specs(kind, x_shape, ksize, strides, padding, dtype=F64):
    """Specs of the gradient ops of max or average pooling, run through the tape."""
    nd = len(ksize)
    pads = _pads(padding, x_shape[1:-1], ksize, strides)
    attr_padding = padding if isinstance(padding, str) else [[0, 0], *padding, [0, 0]]
    public = {("max", 2): tf.nn.max_pool2d, ("avg", 2): tf.nn.avg_pool2d,
              ("max", 3): tf.nn.max_pool3d,
              ("avg", 3): tf.nn.avg_pool3d}[kind, nd]

    def pool(x):
        return public(x, list(ksize), list(strides), attr_padding)
    x = rand(*x_shape, dtype=dtype, low=-9, high=9)
    out_sizes = ref_pool(x, ksize, strides, pads, kind).shape[1:-1]
    dy = rand(x_shape[0], *out_sizes, x_shape[-1], dtype=dtype, seed=1)
    op = {"max": "MaxPool", "avg": "AvgPool"}[kind] + ("3D" if nd == 3 else "") + "Grad"
    name = f"{x_shape}-{ksize}-{strides}-{padding}"
    if kind == "avg":  # the input's values do not matter, only its shape
        zeros = np.zeros(x_shape, dtype)
        return [OpSpec(op, lambda dy: _vjp(pool, tf.constant(zeros), dy), [dy],
                       lambda dy: ref_pool_grad(zeros, dy, ksize, strides, pads, "avg"),
                       name=f"{op}-{name}")]
    return [
        OpSpec(op, lambda x, dy: _vjp(pool, x, dy), [x, dy],
               lambda x, dy: ref_pool_grad(x, dy, ksize, strides, pads, "max"),
               name=f"{op}-{name}"),
        OpSpec(op + "Grad", lambda x, dy, ddx: _vjp(lambda d: _vjp(pool, x, d), dy, ddx),
               [x, dy, rand(*x_shape, dtype=dtype, seed=2)],
               lambda x, dy, ddx: ref_max_pool_grad_grad(x, ddx, out_sizes, ksize, strides,
                                                         pads),
               name=f"{op}Grad-{name}")]


def _max_pool_v2_specs():
    """MaxPoolV2 and its gradient ops, ksize and strides given as inputs, through the tape."""
    window = dict(ksize=[1, 3, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
    pads = _pads("SAME", (5, 6), (3, 2), (2, 2))

    def pool(x):
        return tf.raw_ops.MaxPoolV2(input=x, **window)
    x = rand(2, 5, 6, 3, dtype=F64, low=-9, high=9)
    dy = rand(2, 3, 3, 3, dtype=F64, seed=1)
    return [
        OpSpec("MaxPoolV2", pool, [x], lambda x: ref_pool(x, (3, 2), (2, 2), pads, "max"),
               name="MaxPoolV2-SAME"),
        OpSpec("MaxPoolGradV2", lambda x, dy: _vjp(pool, x, dy), [x, dy],
               lambda x, dy: ref_pool_grad(x, dy, (3, 2), (2, 2), pads, "max"),
               name="MaxPoolGradV2-SAME"),
        OpSpec("MaxPoolGradGradV2", lambda x, dy, ddx: _vjp(lambda d: _vjp(pool, x, d), dy, ddx),
               [x, dy, rand(2, 5, 6, 3, dtype=F64, seed=2)],
               lambda x, dy, ddx: ref_max_pool_grad_grad(x, ddx, (3, 3), (3, 2), (2, 2), pads),
               name="MaxPoolGradGradV2-SAME")]


def _conv3d_grad_specs(x_shape, w_shape, strides, padding, dilations=(1, 1, 1)):
    """Specs of Conv3D's input and filter gradient ops, run through the tape."""
    x, w = rand(*x_shape, dtype=F64), rand(*w_shape, dtype=F64, seed=1)
    pads = _pads(padding, x_shape[1:-1], w_shape[:3], strides, dilations)

    def conv(x, w):
        return tf.nn.conv3d(x, w, [1, *strides, 1], padding, dilations=[1, *dilations, 1])
    dy = rand(*ref_conv(x, w, strides, dilations, pads).shape, dtype=F64, seed=2)
    name = f"{x_shape}-{w_shape}-{strides}-{padding}-{dilations}"
    return [
        OpSpec("Conv3DBackpropInputV2", lambda x, w, dy: _vjp(lambda x: conv(x, w), x, dy),
               [x, w, dy], lambda x, w, dy: ref_conv_input_grad(dy, w, x.shape, strides,
                                                                dilations, pads),
               name=f"Conv3DBackpropInputV2-{name}"),
        OpSpec("Conv3DBackpropFilterV2", lambda x, w, dy: _vjp(lambda w: conv(x, w), w, dy),
               [x, w, dy], lambda x, w, dy: ref_conv_filter_grad(x, dy, w.shape, strides,
                                                                 dilations, pads),
               name=f"Conv3DBackpropFilterV2-{name}")]


_GRADIENT_OPS = [
    *_pool_grad_specs("max", (2, 5, 6, 3), (2, 2), (2, 2), "SAME"),
    *_pool_grad_specs("max", (1, 5, 5, 2), (3, 2), (1, 2), "VALID"),
    *_pool_grad_specs("max", (1, 4, 5, 1), (2, 2), (2, 2), [(1, 1), (0, 1)]),
    *_pool_grad_specs("max", (1, 4, 5, 3, 2), (2, 2, 2), (2, 2, 1), "SAME", dtype=F32),
    *_pool_grad_specs("avg", (2, 5, 6, 3), (3, 3), (2, 2), "SAME"),
    *_pool_grad_specs("avg", (1, 5, 5, 2), (2, 3), (2, 1), "VALID", dtype=F32),
    *_pool_grad_specs("avg", (1, 4, 5, 3, 2), (2, 3, 2), (1, 2, 2), "SAME", dtype=F32),
    *_max_pool_v2_specs(),
    *_conv3d_grad_specs((1, 4, 5, 3, 2), (2, 3, 2, 2, 3), (1, 2, 1), "SAME"),
    *_conv3d_grad_specs((2, 5, 4, 4, 1), (2, 2, 2, 1, 2), (2, 1, 1), "VALID", (1, 2, 1)),
]


def _lrn_ref(x, r, bias, alpha, beta):
    x64 = x.astype(F64)
    sq = np.pad(x64 ** 2, [(0, 0)] * 3 + [(r, r)])
    window = sum(sq[..., k:k + x.shape[-1]] for k in range(2 * r + 1))
    return (x64 / (bias + alpha * window) ** beta).astype(x.dtype)


_LRN = [
    OpSpec("LRN", lambda x, a=a: tf.nn.local_response_normalization(x, *a),
           [rand(2, 3, 2, 6, dtype=dt)], lambda x, a=a: _lrn_ref(x, *a),
           name=f"LRN-{i}-{np.dtype(dt).name}", rtol=1e-5 if dt == F32 else 2e-3,
           atol=1e-6 if dt == F32 else 2e-3, grad=True if dt == F32 else "float16")
    for i, a in enumerate([(5, 1.0, 1.0, 0.5), (2, 1.5, 0.3, 0.75), (1, 2.0, 0.5, 1.0)])
    for dt in (F32, np.float16)]


def _lrn_grad_ref(dy, x, r, bias, alpha, beta):
    """The vector-Jacobian product of `_lrn_ref` in float64: the adjoint of each output's
    dependence on its own input and on the squares in its window."""
    dy64, x64 = dy.astype(F64), x.astype(F64)
    pad = [(0, 0)] * 3 + [(r, r)]
    window = lambda t: sum(np.pad(t, pad)[..., k:k + x.shape[-1]] for k in range(2 * r + 1))
    norm = bias + alpha * window(x64 ** 2)
    y = x64 * norm ** -beta
    return (dy64 * norm ** -beta - 2 * alpha * beta * x64 * window(dy64 * y / norm)).astype(
        x.dtype)


_LRN += [
    OpSpec("LRNGrad", lambda dy, x, a=a: tf.raw_ops.LRNGrad(
        input_grads=dy, input_image=x, output_image=tf.nn.local_response_normalization(x, *a),
        depth_radius=a[0], bias=a[1], alpha=a[2], beta=a[3]),
        [rand(2, 3, 2, 6, seed=1), rand(2, 3, 2, 6)], lambda dy, x, a=a: _lrn_grad_ref(dy, x, *a),
        rtol=1e-4, atol=1e-5, grad="TF registers no gradient for it", name=f"LRNGrad-{i}")
    for i, a in enumerate([(5, 1.0, 1.0, 0.5), (2, 1.5, 0.3, 0.75)])]

def _pool_argmax_ref(x, k, s, padding, with_batch=False):
    n, h, w, c = x.shape
    if padding == "SAME":
        oh, ow = -(-h // s), -(-w // s)
        top = max((oh - 1) * s + k - h, 0) // 2
        left = max((ow - 1) * s + k - w, 0) // 2
    else:
        oh, ow, top, left = (h - k) // s + 1, (w - k) // s + 1, 0, 0
    out = np.zeros((n, oh, ow, c), x.dtype)
    arg = np.zeros((n, oh, ow, c), np.int64)
    for b, i, j, d in np.ndindex(n, oh, ow, c):
        best, at = None, None
        for y in range(i * s - top, i * s - top + k):
            for z in range(j * s - left, j * s - left + k):
                if 0 <= y < h and 0 <= z < w and (best is None or x[b, y, z, d] > best):
                    best, at = x[b, y, z, d], (y * w + z) * c + d
        out[b, i, j, d] = best
        arg[b, i, j, d] = at + (b * h * w * c if with_batch else 0)
    return out, arg


_POOL_ARGMAX = [
    OpSpec("MaxPoolWithArgmax", lambda x, a=a: tuple(tf.nn.max_pool_with_argmax(x, *a)),
           [rand(2, 5, 6, 3, dtype=F32)], lambda x, a=a: _pool_argmax_ref(x, *a),
           name=f"MaxPoolWithArgmax-{a[2]}-{a[0]}")
    for a in [(2, 2, "VALID"), (3, 2, "SAME")]] + [
    OpSpec("MaxPoolWithArgmax", lambda x: tuple(tf.nn.max_pool_with_argmax(
        x, 2, 1, "VALID", include_batch_in_index=True)), [rand(2, 3, 4, 2, dtype=F64)],
        lambda x: _pool_argmax_ref(x, 2, 1, "VALID", True), name="MaxPoolWithArgmax-batch")]


def _grad_argmax_ref(x, dy, k, s, padding, with_batch=False):
    """Each of `dy` added at its window's argmax (overlapping windows add up)."""
    flat = _pool_argmax_ref(x, k, s, padding, with_batch)[1]
    if not with_batch:
        flat = flat + (np.arange(x.shape[0]) * (x.size // x.shape[0]))[:, None, None, None]
    dx = np.zeros(x.size, dy.dtype)
    np.add.at(dx, flat.ravel(), dy.ravel())
    return dx.reshape(x.shape)


_POOL_ARGMAX += [
    OpSpec("MaxPoolGradWithArgmax", lambda x, dy, a=a: tf.raw_ops.MaxPoolGradWithArgmax(
        input=x, grad=dy, argmax=tf.nn.max_pool_with_argmax(
            x, a[0], a[1], a[2], include_batch_in_index=a[3]).argmax,
        ksize=[1, a[0], a[0], 1], strides=[1, a[1], a[1], 1], padding=a[2],
        include_batch_in_index=a[3]),
        [rand(2, 5, 6, 3, dtype=F64), rand(2, *shape, 3, dtype=F64, seed=1)],
        lambda x, dy, a=a: _grad_argmax_ref(x, dy, *a), name=f"MaxPoolGradWithArgmax-{a}")
    for a, shape in [((2, 2, "VALID", False), (2, 3)), ((3, 1, "SAME", True), (5, 6))]]

def _isotonic(x):
    """The non-increasing least-squares fit by its min-max formula, row by row:
    ``y[i] = min over j <= i of max over k >= i of mean(x[j..k])``."""
    rows = x.reshape(-1, x.shape[-1]).astype(F64)
    out = np.empty_like(rows)
    for r, row in enumerate(rows):
        n = len(row)
        means = {(j, k): row[j:k + 1].mean() for j in range(n) for k in range(j, n)}
        for i in range(n):
            out[r, i] = min(max(means[j, k] for k in range(i, n)) for j in range(i + 1))
    return out.reshape(x.shape).astype(x.dtype)


_ISOTONIC = [
    OpSpec("IsotonicRegression", lambda x: tf.nn.isotonic_regression(x)[0],
           [np.array([[1.0, 3.0, 2.0, 4.0, 0.5], [4.0, 3.5, 2.0, 2.25, -1.0]], d)], _isotonic,
           name=f"IsotonicRegression-{np.dtype(d).name}")
    for d in (F32, F64)] + [
    OpSpec("IsotonicRegression",
           lambda x: tf.nn.isotonic_regression(x, decreasing=False, axis=0)[0],
           [rand(4, 3, dtype=F64, seed=5)],
           lambda x: -_isotonic(-x.T).T, name="IsotonicRegression-increasing-axis0"),
    OpSpec("IsotonicRegression",
           lambda x: tf.raw_ops.IsotonicRegression(input=x, output_dtype=tf.float64).output,
           [np.array([[1, 3, 2, 4, 0], [4, 3, 2, 2, -1]], np.int32)],
           lambda x: _isotonic(x.astype(F64)), name="IsotonicRegression-int32-raw",
           grad="integer input")]


def _dilation_ref(x, w, strides=(1, 1), rates=(1, 1), same=False):
    """Dilation by loops: each output the maximum of input + filter over the in-bounds
    taps, with the winning tap's input and filter positions."""
    n, h, wd, c = x.shape
    kh, kw, _ = w.shape
    eff = [(kh - 1) * rates[0] + 1, (kw - 1) * rates[1] + 1]
    if same:
        oh, ow = -(-h // strides[0]), -(-wd // strides[1])
        top = max((oh - 1) * strides[0] + eff[0] - h, 0) // 2
        left = max((ow - 1) * strides[1] + eff[1] - wd, 0) // 2
    else:
        oh, ow = (h - eff[0]) // strides[0] + 1, (wd - eff[1]) // strides[1] + 1
        top = left = 0
    out = np.empty((n, oh, ow, c), x.dtype)
    for b, i, j, ch in np.ndindex(n, oh, ow, c):
        best = None
        for di, dj in np.ndindex(kh, kw):
            r, q = i * strides[0] - top + di * rates[0], j * strides[1] - left + dj * rates[1]
            if 0 <= r < h and 0 <= q < wd:
                v = x[b, r, q, ch] + w[di, dj, ch]
                best = v if best is None or v > best else best
        out[b, i, j, ch] = best
    return out


_MORPHOLOGY = [
    OpSpec("Dilation2D", lambda x, w: tf.nn.dilation2d(x, w, [1, 1, 1, 1], "VALID", "NHWC",
                                                       [1, 1, 1, 1]),
           [rand(2, 4, 5, 2, dtype=d, seed=1), rand(2, 3, 2, dtype=d, seed=2)],
           _dilation_ref, name=f"Dilation2D-{np.dtype(d).name}") for d in (F32, F64)] + [
    OpSpec("Dilation2D", lambda x, w: tf.nn.dilation2d(x, w, [1, 2, 1, 1], "SAME", "NHWC",
                                                       [1, 1, 2, 1]),
           [rand(1, 5, 6, 3, dtype=F64, seed=3), rand(2, 2, 3, dtype=F64, seed=4)],
           lambda x, w: _dilation_ref(x, w, (2, 1), (1, 2), same=True),
           name="Dilation2D-same-strided-dilated"),
    OpSpec("Dilation2DBackpropInput",
           lambda x, w, dy: tf.raw_ops.Dilation2DBackpropInput(
               input=x, filter=w, out_backprop=dy, strides=[1, 1, 1, 1], rates=[1, 1, 1, 1],
               padding="VALID"),
           [np.array([[[[1.0], [5.0], [2.0]]]], F32), np.zeros((1, 2, 1), F32),
            np.array([[[[10.0], [20.0]]]], F32)],
           lambda x, w, dy: np.array([[[[0.0], [30.0], [0.0]]]], F32),
           grad="a routing of gradients"),
    OpSpec("Dilation2DBackpropFilter",
           lambda x, w, dy: tf.raw_ops.Dilation2DBackpropFilter(
               input=x, filter=w, out_backprop=dy, strides=[1, 1, 1, 1], rates=[1, 1, 1, 1],
               padding="VALID"),
           [np.array([[[[1.0], [5.0], [2.0]]]], F32), np.zeros((1, 2, 1), F32),
            np.array([[[[10.0], [20.0]]]], F32)],
           lambda x, w, dy: np.array([[[20.0], [10.0]]], F32),  # 5 is tap 1, then tap 0
           grad="a routing of gradients"),
]


SPECS = (_ACTIVATIONS + _COMPOSITES + _softmax_specs() + _LOSSES + _IN_TOP_K + _BIAS_ADD
         + _CONVS + _DEPTHWISE + _BACKPROPS + _POOLS + _GRADIENT_OPS + _LRN + _POOL_ARGMAX
         + _ISOTONIC + _MORPHOLOGY)


def _fractional_ref(kind):
    """Pooling over the windows the op's own sequences give (its second and third outputs
    checked for their bounds), by loops."""
    def check(outs, args):
        x = args[0]
        out, rows, cols = outs
        assert rows[0] == 0 and rows[-1] == x.shape[1] and cols[0] == 0 and cols[-1] == x.shape[2]
        assert set(np.diff(rows)) <= {1, 2} and set(np.diff(cols)) <= {1, 2}
        expected = np.empty(out.shape, x.dtype)
        for i, j in np.ndindex(len(rows) - 1, len(cols) - 1):
            window = x[:, rows[i]:rows[i + 1], cols[j]:cols[j + 1]]
            expected[:, i, j] = window.max((1, 2)) if kind == "max" else window.mean((1, 2))
        np.testing.assert_allclose(out, expected, rtol=1e-6)
    return check


SPECS += [
    OpSpec(f"Fractional{kind.title()}Pool",
           lambda x, fn=fn: tuple(fn(x, [1, 1.5, 1.7, 1], seed=3)),
           [rand(2, 6, 7, 2, dtype=F64, seed=9)], check=_fractional_ref(kind),
           grad="checked against finite differences in test_fractional_pool.py (the sequence "
                "outputs are integers)")
    for kind, fn in (("max", tf.nn.fractional_max_pool), ("avg", tf.nn.fractional_avg_pool))]
SPECS += [
    OpSpec("FractionalMaxPoolGrad",
           lambda x, y, dy, r, c: tf.raw_ops.FractionalMaxPoolGrad(
               orig_input=x, orig_output=y, out_backprop=dy, row_pooling_sequence=r,
               col_pooling_sequence=c),
           [np.array([[[[1.0], [5.0], [2.0]], [[7.0], [0.0], [3.0]]]], F32),
            np.array([[[[7.0], [3.0]]]], F32), np.array([[[[10.0], [20.0]]]], F32),
            np.array([0, 2], np.int64), np.array([0, 2, 3], np.int64)],
           lambda *a: np.array([[[[0.0], [0.0], [0.0]], [[10.0], [0.0], [20.0]]]], F32),
           grad="a routing of gradients"),
    OpSpec("FractionalAvgPoolGrad",
           lambda s, dy, r, c: tf.raw_ops.FractionalAvgPoolGrad(
               orig_input_tensor_shape=s, out_backprop=dy, row_pooling_sequence=r,
               col_pooling_sequence=c, overlapping=True),
           [np.array([1, 2, 3, 1], np.int64), np.array([[[[12.0], [6.0]]]], F32),
            np.array([0, 2], np.int64), np.array([0, 1, 3], np.int64)],
           # overlapping windows: columns 0..1 and 1..2 (its end bound included)
           lambda *a: np.array([[[[3.0], [4.5], [1.5]], [[3.0], [4.5], [1.5]]]], F32),
           grad="made only by a gradient"),
]


def _depth_to_space(x, k=2):
    b, h, w, c = x.shape
    return x.reshape(b, h, w, k, k, c // (k * k)).transpose(0, 1, 3, 2, 4, 5).reshape(
        b, h * k, w * k, c // (k * k))


def _space_to_depth(x, k=2):
    b, h, w, c = x.shape
    return x.reshape(b, h // k, k, w // k, k, c).transpose(0, 1, 3, 2, 4, 5).reshape(
        b, h // k, w // k, k * k * c)


SPECS += [
    OpSpec("DepthToSpace", lambda x: tf.nn.depth_to_space(x, 2), [rand(2, 2, 3, 8, dtype=F64)],
           _depth_to_space),
    OpSpec("DepthToSpace", lambda x: tf.raw_ops.DepthToSpace(input=x, block_size=3),
           [np.arange(36, dtype=np.int32).reshape(1, 1, 2, 18)],
           lambda x: _depth_to_space(x, 3), name="DepthToSpace-int-3", grad="integer"),
    OpSpec("SpaceToDepth", lambda x: tf.nn.space_to_depth(x, 2), [rand(2, 4, 6, 3, dtype=F64)],
           _space_to_depth),
    OpSpec("SpaceToDepth", lambda x: tf.raw_ops.SpaceToDepth(input=x, block_size=2),
           [np.array([[[[True], [False]], [[False], [True]]]])], _space_to_depth,
           name="SpaceToDepth-bool", grad="boolean"),
]
SPECS += [
    OpSpec("InTopK", lambda p, t: tf.raw_ops.InTopK(predictions=p, targets=t, k=2),
           [np.array([[0.1, 0.9, 0.5], [0.3, 0.2, 0.1], [0.5, 0.5, 0.1]], F32),
            np.array([2, 2, 1], np.int64)],
           lambda p, t: np.array([True, False, True]), grad="boolean output"),
]
