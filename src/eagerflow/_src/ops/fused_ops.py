"""Fused kernels the graph passes substitute for chains of ops (no public API).

``_FusedMatMul`` computes ``activation(matmul(a, b) + bias)`` and
``_FusedConv2D`` ``activation(conv2d(x, filter) + bias)`` (channels last) in
one kernel, as ``_FusedDepthwiseConv2dNative`` and ``_FusedConv3D`` do for their
convolutions: the product is the only array allocated; the bias is added and the
activation applied in place. ``fused_ops`` names the chain as TensorFlow
does: ``[b"BiasAdd"]`` or ``[b"BiasAdd", b"Relu"]`` (``Relu6``, ``Elu``,
``LeakyRelu``, ``Tanh``, ``Sigmoid``); ``num_args`` counts the operands after
the product's own (the bias: 1). ``_FusedConv2D`` also takes
``[b"FusedBatchNorm", activation]``: an inference batch normalization of the
convolution (its four operands scale, offset, mean and variance, and `epsilon`).

``_Conv2DBackpropFilterWithBias`` is ``Conv2DBackpropFilter`` and the
``BiasAddGrad`` of the same output gradient (channels last) in one op, as
TensorFlow's oneDNN builds fuse them: on oneDNN the threads computing the
filter gradient sum the bias gradient too, each over the part of the output
gradient it has just read (or while the other computes the filter's).

``_BroadcastReluGrad`` is ``ReluGrad(BroadcastTo(gradients, shape(features)), features)``,
the gradient of a mean or sum (a global average pooling's) reaching a ReLU's, without
the broadcast array: the ReLU's mask is written into the result, then multiplied by the
small gradient broadcast on the fly, as ReluGrad multiplies (a NaN or infinite gradient
gives NaN where the feature is not positive, a NaN feature masks). On oneDNN, large float32
ones write the broadcast gradient, then mask it in place, on every core.

>>> from eagerflow._src.core.dispatch import dispatch
>>> dispatch(_FUSED_MATMUL, (tf.constant([[1.0, -2.0]]), tf.constant([[1.0], [1.0]]),
...                          tf.constant([0.5])), {"fused_ops": [b"BiasAdd", b"Relu"]})
<tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[0.]], dtype=float32)>
"""
import math

import numpy as np

from eagerflow._src.backend import onednn_conv, onednn_eltwise
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import registry
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_args, tf_nodes
from eagerflow._src.ops import math_ops, nn_ops  # noqa: F401 (registers the activations)
from eagerflow._src.ops import conv_ops
from eagerflow._src.ops.array_ops import _BROADCAST_TO
from eagerflow._src.ops.conv_ops import _BACKPROP_FILTER, _CONV2D
from eagerflow._src.ops.fused_batch_norm_ops import _FUSED_BATCH_NORM
from eagerflow._src.ops.linalg_ops import _MATMUL


# TensorFlow's fused float32 and bfloat16 products on x86 run on oneDNN, whose ReLU gives 0
# where the sum is NaN (a standalone Relu, and float16/float64, keep NaN): the fused ReLUs
# here do the same on either backend, so a NaN input gives TF's numbers in `fit`/`predict`.
_BFLOAT16 = np.dtype(_d.bfloat16.as_numpy_dtype)
_NAN_TO_ZERO = frozenset({np.dtype(np.float32), _BFLOAT16})


def _relu(xp, y):
    if y.dtype in _NAN_TO_ZERO:
        with np.errstate(invalid="ignore"):  # (bfloat16's fmax flags a NaN operand)
            xp.fmax(y, 0, out=y)
    else:
        xp.maximum(y, 0, out=y)


def _relu6(xp, y):
    _relu(xp, y)
    xp.minimum(y, 6, out=y)


def _tanh(xp, y):
    xp.tanh(y, out=y)


# Activations that overwrite the product; the others run their registered kernel.
_IN_PLACE = {b"Relu": _relu, b"Relu6": _relu6, b"Tanh": _tanh}
ACTIVATIONS = frozenset({b"Relu", b"Relu6", b"Elu", b"LeakyRelu", b"Tanh", b"Sigmoid"})
# The activation ops, each with its name in ``fused_ops`` (graph fusion absorbs them).
ACTIVATION_OPS = {registry.get(name.decode()): name for name in ACTIVATIONS}


def _bias_activation(xp, y, bias, fused_ops, leakyrelu_alpha):
    """``activation(y + bias)``, the bias along the last axis, in `y` where it can: `y` is
    a new array the product made, safe to overwrite."""
    y += bias
    if len(fused_ops) < 2:
        return y
    return _activate(xp, y, fused_ops[1], leakyrelu_alpha)


def _activate(xp, y, activation, leakyrelu_alpha):
    """`activation` (its name in ``fused_ops``) of `y`, in place where it can."""
    in_place = _IN_PLACE.get(activation)
    if in_place is not None:
        in_place(xp, y)
        return y
    attrs = {"alpha": leakyrelu_alpha} if activation == b"LeakyRelu" else {}
    return registry.get(activation.decode()).kernel(xp, y, **attrs)


def _fused_matmul(xp, a, b, bias, transpose_a=False, transpose_b=False, fused_ops=(b"BiasAdd",),
                  num_args=1, leakyrelu_alpha=0.2):
    if a.dtype == _BFLOAT16:
        # TF's fused bfloat16 product (oneDNN) adds the bias to the float32 product and
        # applies the activation before rounding once to bfloat16; the unfused ops round
        # the product first (so a Dense layer's `predict` under mixed_bfloat16 differs from
        # its eager call in TF)
        wide = [t.astype(np.float32) for t in (a, b, bias)]
        return _bias_activation(xp, _MATMUL.kernel(xp, wide[0], wide[1], transpose_a,
                                                   transpose_b), wide[2],
                                fused_ops, leakyrelu_alpha).astype(a.dtype)
    return _bias_activation(xp, _MATMUL.kernel(xp, a, b, transpose_a, transpose_b), bias,
                            fused_ops, leakyrelu_alpha)


def _fused_matmul_rule(a, b, bias, transpose_a=False, transpose_b=False, **_):
    return _MATMUL.shape(a, b, transpose_a, transpose_b)


# Channels last only (the bias is added along the last axis), as TF's remapper fuses on CPU.
def _fused_conv2d(xp, x, w, *args, strides, padding, explicit_paddings, data_format,
                  dilations, fused_ops=(b"BiasAdd",), num_args=1, epsilon=1e-4,
                  leakyrelu_alpha=0.2):
    if fused_ops[0] == b"FusedBatchNorm":
        return _normalized_conv2d(xp, x, w, *args, strides=strides, padding=padding,
                                  explicit_paddings=explicit_paddings, data_format=data_format,
                                  dilations=dilations, fused_ops=fused_ops, epsilon=epsilon,
                                  leakyrelu_alpha=leakyrelu_alpha)
    bias, = args
    if (data_format == "NHWC" and bias.shape == w.shape[-1:]
            and onednn_conv.usable(xp, x, w, bias)):
        y = _native_fused_conv2d(x, w, bias, strides, padding, explicit_paddings, dilations,
                                 fused_ops, leakyrelu_alpha)
        if y is not None:
            return y
    y = _CONV2D.kernel(xp, x, w, strides=strides, padding=padding,
                       explicit_paddings=explicit_paddings, data_format=data_format,
                       dilations=dilations)  # attrs by name: the kernel widens its arrays
    return _bias_activation(xp, y, bias, fused_ops, leakyrelu_alpha)


def _normalized_conv2d(xp, x, w, scale, offset, mean, variance, fused_ops, epsilon,
                       leakyrelu_alpha, data_format, **window):
    """``activation(FusedBatchNormV3(conv2d(x, w), ..., is_training=False))``: the ops it
    stands for, the activation in place (a fused ReLU gives 0 for NaN, as TF's)."""
    y = _CONV2D.kernel(xp, x, w, data_format=data_format, **window)
    y = _FUSED_BATCH_NORM.kernel(xp, y, scale, offset, mean, variance, epsilon=epsilon,
                                 data_format=data_format, is_training=False)[0]
    if len(fused_ops) < 2:
        return y
    return _activate(xp, y, fused_ops[1], leakyrelu_alpha)


def _fused_convolution(convolution):
    """The kernel and shape rule of `convolution` + bias (+ activation), channels last."""
    def kernel(xp, x, w, bias, fused_ops=(b"BiasAdd",), num_args=1, leakyrelu_alpha=0.2,
               **window):
        return _bias_activation(xp, convolution.kernel(xp, x, w, **window), bias, fused_ops,
                                leakyrelu_alpha)

    def rule(x, w, bias, fused_ops=None, num_args=None, leakyrelu_alpha=None, **window):
        return convolution.shape(x, w, **window)
    return kernel, rule


def _native_fused_conv2d(x, w, bias, strides, padding, explicit_paddings, dilations, fused_ops,
                         leakyrelu_alpha):
    """`_fused_conv2d` on oneDNN, the bias (and a ReLU or leaky ReLU) fused into the
    convolution; other activations run their kernel on its result, in place where they can.

    The fused ReLU gives 0 where the sum is NaN, as `_relu` does."""
    _, pads = conv_ops._checked_geometry(x.shape, w.shape, strides, padding,
                                         explicit_paddings, "NHWC", dilations)
    activation = fused_ops[1] if len(fused_ops) > 1 else None
    post_ops = ()
    if activation == b"Relu" and x.dtype == np.float32:
        # (bfloat16 results are checked for NaN that the padding of oneDNN's blocks can
        # spread, which a fused ReLU would hide)
        post_ops = ((onednn_conv.RELU, 0.0, 0.0),)
    elif activation == b"LeakyRelu" and leakyrelu_alpha != 0:
        post_ops = ((onednn_conv.LEAKY_RELU, float(leakyrelu_alpha), 0.0),)
    y = onednn_conv.forward(conv_ops._flat(x, 2), w, *conv_ops._native_window(
        x.shape, w.shape, strides, "NHWC", dilations, pads), bias=bias, post_ops=post_ops)
    if y is None:
        return None
    y = y.reshape(*x.shape[:-3], *y.shape[1:])
    if activation is None or post_ops:
        return y
    return _activate(np, y, activation, leakyrelu_alpha)


def _fused_conv2d_rule(x, w, *args, strides, padding, explicit_paddings, data_format,
                       dilations, **_):
    return _CONV2D.shape(x, w, strides, padding, explicit_paddings, data_format, dilations)


def _conv2d_backprop_filter_with_bias(xp, x, dy, filter_sizes, strides, padding,
                                      explicit_paddings, data_format, dilations):
    attrs = {"filter_sizes": filter_sizes, "strides": strides, "padding": padding,
             "explicit_paddings": explicit_paddings, "data_format": data_format,
             "dilations": dilations}
    if data_format == "NHWC" and x.dtype == np.float32 and onednn_conv.usable(xp, x, dy):
        pads = conv_ops._checked_backprop_geometry(
            "Conv2DBackpropFilter", x.shape, filter_sizes, dy.shape, strides, padding,
            explicit_paddings, data_format, dilations)
        grads = onednn_conv.backward_weights(
            conv_ops._flat(x, 2), conv_ops._flat(dy, 2), filter_sizes, *conv_ops._native_window(
                x.shape, filter_sizes, strides, data_format, dilations, pads), bias=True)
        if grads is not None:
            return grads
    if dy.dtype == _BFLOAT16:  # oneDNN sums a bfloat16 bias gradient in float32, rounded once
        bias_grad = nn_ops._BIAS_ADD_GRAD.kernel(xp, dy.astype(xp.float32),
                                                 data_format=data_format).astype(dy.dtype)
    else:
        bias_grad = nn_ops._BIAS_ADD_GRAD.kernel(xp, dy, data_format=data_format)
    return _BACKPROP_FILTER.kernel(xp, x, dy, **attrs), bias_grad


def _conv2d_backprop_filter_with_bias_rule(x, dy, data_format, **attrs):
    dw = _BACKPROP_FILTER.shape(x, dy, data_format=data_format, **attrs)
    return [dw, nn_ops._BIAS_ADD_GRAD.shape(dy, data_format=data_format)]


def _broadcast_relu_grad(xp, gradients, features, out=None):
    shape = features.shape
    try:
        fits = gradients.ndim <= features.ndim and np.broadcast_shapes(gradients.shape,
                                                                        shape) == shape
    except ValueError:
        fits = False
    if not fits:  # the errors of the ops it stands for
        return nn_ops._RELU_GRAD.kernel(xp, _BROADCAST_TO.kernel(xp, gradients, shape),
                                        features)
    if xp is np:
        done = onednn_eltwise.broadcast_relu_grad(gradients, features, out)
        if done is not None:
            return done
    # The mask as booleans, then copied as numbers: a comparison writing floats casts in
    # buffered loops, several times slower. `out`, an array of the result's shape, may be
    # `features`: the mask is made before it is written.
    mask = xp.greater(features, 0)
    if out is None:
        out = xp.empty(shape, gradients.dtype)
    xp.copyto(out, mask)
    return xp.multiply(out, _rows(xp, gradients, shape), out=out)


def _rows(xp, gradients, shape):
    """`gradients` (broadcast to `shape`), written out along its innermost broadcast axis
    where that is small: NumPy's loops broadcasting an operand run once per row of what
    follows that axis (per channel vector of an image gradient, 2-3x slower)."""
    g = gradients.reshape((1,) * (len(shape) - gradients.ndim) + gradients.shape)
    axis = next((i for i in reversed(range(len(shape))) if g.shape[i] != shape[i]), None)
    if axis is None:
        return g
    rows = g.shape[:axis] + shape[axis:]
    if math.prod(rows) * 8 > math.prod(shape):
        return g
    return xp.ascontiguousarray(xp.broadcast_to(g, rows))


def _broadcast_relu_grad_rule(gradients, features):
    return features.shape, gradients.dtype


_NOT_DIFFERENTIABLE = "made by graph fusion after gradients are built"
_FUSED_MATMUL = registry.register(
    "_FusedMatMul", _fused_matmul, _fused_matmul_rule, tied=(0, 1, 2),
    dtypes=(_d.bfloat16, _d.float16, _d.float32), not_differentiable=_NOT_DIFFERENTIABLE,
    fresh=True)
_FUSED_CONV2D = registry.register(
    "_FusedConv2D", _fused_conv2d, _fused_conv2d_rule, tied=(0, 1, 2),
    dtypes=(_d.bfloat16, _d.float16, _d.float32, _d.float64),
    not_differentiable=_NOT_DIFFERENTIABLE, fresh=True)
_FUSED_DEPTHWISE = registry.register(
    "_FusedDepthwiseConv2dNative", *_fused_convolution(conv_ops._DEPTHWISE), tied=(0, 1, 2),
    dtypes=(_d.bfloat16, _d.float16, _d.float32, _d.float64),
    not_differentiable=_NOT_DIFFERENTIABLE, fresh=True)
_FUSED_CONV3D = registry.register(
    "_FusedConv3D", *_fused_convolution(conv_ops._CONV3D), tied=(0, 1, 2),
    dtypes=(_d.bfloat16, _d.float16, _d.float32, _d.float64),
    not_differentiable=_NOT_DIFFERENTIABLE, fresh=True)
_CONV2D_BACKPROP_FILTER_WITH_BIAS = registry.register(
    "_Conv2DBackpropFilterWithBias", _conv2d_backprop_filter_with_bias,
    _conv2d_backprop_filter_with_bias_rule, multi=True, tied=(0, 1),
    dtypes=(_d.bfloat16, _d.float16, _d.float32, _d.float64),
    not_differentiable=_NOT_DIFFERENTIABLE)
# (not `elementwise`: its float32 kernel runs on every core itself, as ReluGrad's; the
# NumPy passes gained nothing split over the threads)
_BROADCAST_RELU_GRAD = registry.register(
    "_BroadcastReluGrad", _broadcast_relu_grad, _broadcast_relu_grad_rule, tied=(0, 1),
    dtypes=(_d.bfloat16, _d.float16, _d.float32, _d.float64),
    not_differentiable=_NOT_DIFFERENTIABLE, fresh=True, takes_out=True)
# Graph fusion: a product followed by a bias add (and an activation) becomes its fused op.
registry.fusion_rules[_MATMUL] = _FUSED_MATMUL
registry.fusion_rules[_CONV2D] = _FUSED_CONV2D
registry.fusion_rules[conv_ops._DEPTHWISE] = _FUSED_DEPTHWISE
registry.fusion_rules[conv_ops._CONV3D] = _FUSED_CONV3D
# The products whose fused op also takes an inference batch normalization for the bias: TF's
# remapper fuses it on CPU in float32 alone (a bfloat16 one keeps a ReLU's NaN).
BATCH_NORM_FUSIONS = {_CONV2D: frozenset({np.dtype(np.float32)})}


# No batching rule: a vectorized graph runs these once per batch element.
registry.batching_rules.assign(registry.PER_ELEMENT, _FUSED_MATMUL, _FUSED_CONV2D,
                               _FUSED_DEPTHWISE, _FUSED_CONV3D,
                               _CONV2D_BACKPROP_FILTER_WITH_BIAS, _BROADCAST_RELU_GRAD)
# TF's nodes take their extra inputs (the bias) as a list of `num_args`
tf_nodes[_FUSED_MATMUL] = NodeForm(fixed={"num_args": 1}, byte_attrs={"fused_ops"},
                                   outputs=("product",))
# (its `num_args` varies: 4 for a batch normalization)
tf_nodes[_FUSED_CONV2D] = NodeForm(byte_attrs={"fused_ops"}, outputs=("output",))
for _op in (_FUSED_DEPTHWISE, _FUSED_CONV3D):
    tf_nodes[_op] = NodeForm(fixed={"num_args": 1}, byte_attrs={"fused_ops"},
                             outputs=("output",))
tf_nodes[_CONV2D_BACKPROP_FILTER_WITH_BIAS] = NodeForm(
    inputs=(0, AttrInput("filter_sizes", type_attr=None), 1), outputs=("output", "bias_grad"))
tf_args[_CONV2D_BACKPROP_FILTER_WITH_BIAS] = ("input", "filter_sizes", "out_backprop")
tf_nodes[_BROADCAST_RELU_GRAD] = NodeForm(outputs=("backprops",))
tf_args[_BROADCAST_RELU_GRAD] = ("gradients", "features")
