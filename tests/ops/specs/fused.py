"""Specs of the fused kernels the graph passes substitute (fused_ops.py).

The references compose NumPy's own matmul (or the reference convolution of
specs/nn.py), bias add and activations, so each fused variant is checked
against the chain of ops it replaces.
"""
import ml_dtypes
import numpy as np

from tests.internals import (_BROADCAST_RELU_GRAD, _CONV2D_BACKPROP_FILTER_WITH_BIAS,
                             _FUSED_CONV2D, _FUSED_CONV3D, _FUSED_DEPTHWISE, _FUSED_MATMUL,
                             dispatch)
from tests.ops.spec import OpSpec, rand
from tests.ops.specs.nn import ref_conv, ref_conv_filter_grad, ref_depthwise, same_pads

_NOT_DIFFERENTIABLE = "made by graph fusion after gradients are built"

_ACTIVATIONS = {
    None: lambda y: y,
    b"Relu": lambda y: np.maximum(y, 0),
    b"Relu6": lambda y: np.clip(y, 0, 6),
    b"Elu": lambda y: np.where(y > 0, y, np.expm1(np.minimum(y, 0))),
    b"LeakyRelu": lambda y: np.where(y > 0, y, 0.3 * y),
    b"Tanh": np.tanh,
    b"Sigmoid": lambda y: 1 / (1 + np.exp(-y)),
}


def _fused(activation, transpose_a=False, transpose_b=False):
    attrs = {"transpose_a": transpose_a, "transpose_b": transpose_b,
             "fused_ops": [b"BiasAdd"] + ([activation] if activation else []),
             "leakyrelu_alpha": 0.3}
    return lambda a, b, bias: dispatch(_FUSED_MATMUL, (a, b, bias), attrs)


def _reference(activation, transpose_a=False, transpose_b=False):
    def ref(a, b, bias):
        wide = [x.astype(np.float64) for x in (a, b, bias)]
        a64 = wide[0].T if transpose_a else wide[0]
        b64 = wide[1].T if transpose_b else wide[1]
        return _ACTIVATIONS[activation](a64 @ b64 + wide[2]).astype(a.dtype)
    return ref


def _spec(activation, dtype=np.float32, transpose_a=False, transpose_b=False, rtol=1e-5):
    a = _data((5, 4) if transpose_a else (4, 5), dtype, 1)
    b = _data((3, 5) if transpose_b else (5, 3), dtype, 2)
    name = "-".join(["_FusedMatMul", (activation or b"BiasAdd").decode(), np.dtype(dtype).name]
                    + ["ta"] * transpose_a + ["tb"] * transpose_b)
    return OpSpec("_FusedMatMul", _fused(activation, transpose_a, transpose_b),
                  [a, b, _data((3,), dtype, 3)],
                  _reference(activation, transpose_a, transpose_b), rtol=rtol, atol=rtol,
                  grad=_NOT_DIFFERENTIABLE, name=name)


def _conv_spec(activation, dtype=np.float32, strides=(1, 1), padding="VALID", rtol=1e-5):
    x, w = _data((2, 5, 6, 3), dtype, 1), _data((3, 3, 3, 4), dtype, 2)
    attrs = {"strides": [1, *strides, 1], "padding": padding, "explicit_paddings": [],
             "data_format": "NHWC", "dilations": [1, 1, 1, 1], "num_args": 1,
             "fused_ops": [b"BiasAdd"] + ([activation] if activation else []),
             "leakyrelu_alpha": 0.3}
    pads = same_pads((5, 6), (3, 3), strides) if padding == "SAME" else [(0, 0)] * 2

    def ref(x, w, bias):
        y = ref_conv(x.astype(np.float64), w.astype(np.float64), strides, (1, 1), pads)
        return _ACTIVATIONS[activation](y + bias.astype(np.float64)).astype(x.dtype)
    name = "-".join(["_FusedConv2D", (activation or b"BiasAdd").decode(), np.dtype(dtype).name,
                     padding, str(strides)])
    return OpSpec("_FusedConv2D", lambda x, w, bias: dispatch(_FUSED_CONV2D, (x, w, bias), attrs),
                  [x, w, _data((4,), dtype, 3)], ref, rtol=rtol, atol=rtol,
                  grad=_NOT_DIFFERENTIABLE, name=name)


def _conv_batch_norm_spec(activation, rtol=1e-5):
    """Conv2D, then an inference batch normalization (scale, offset, mean, variance)."""
    x, w = _data((2, 5, 6, 3), np.float32, 1), _data((3, 3, 3, 4), np.float32, 2)
    stats = [np.abs(_data((4,), np.float32, seed)) + 0.5 for seed in (3, 4, 5, 6)]
    attrs = {"strides": [1, 1, 1, 1], "padding": "SAME", "explicit_paddings": [],
             "data_format": "NHWC", "dilations": [1, 1, 1, 1], "num_args": 4, "epsilon": 0.01,
             "fused_ops": [b"FusedBatchNorm"] + ([activation] if activation else []),
             "leakyrelu_alpha": 0.3}

    def ref(x, w, scale, offset, mean, variance):
        y = ref_conv(x.astype(np.float64), w.astype(np.float64), (1, 1), (1, 1),
                     same_pads((5, 6), (3, 3), (1, 1)))
        y = (y - mean) * (scale / np.sqrt(variance.astype(np.float64) + 0.01)) + offset
        return _ACTIVATIONS[activation](y).astype(x.dtype)
    return OpSpec("_FusedConv2D", lambda *args: dispatch(_FUSED_CONV2D, args, attrs),
                  [x, w, *stats], ref, rtol=rtol, atol=rtol, grad=_NOT_DIFFERENTIABLE,
                  name="-".join(["_FusedConv2D", "FusedBatchNorm",
                                 (activation or b"").decode()]))


def _other_conv_spec(op, activation, dtype=np.float32, rtol=1e-5):
    """``_FusedDepthwiseConv2dNative`` (2-D, multiplier 2) or ``_FusedConv3D``."""
    depthwise = op is _FUSED_DEPTHWISE
    sizes, ksize = ((5, 6), (3, 2)) if depthwise else ((4, 5, 3), (2, 3, 2))
    x = _data((2, *sizes, 3), dtype, 1)
    w = _data((*ksize, 3, 2 if depthwise else 4), dtype, 2)
    strides = (2,) * len(sizes)
    pads = same_pads(sizes, ksize, strides)
    attrs = {"strides": [1, *strides, 1], "padding": "SAME", "explicit_paddings": [],
             "data_format": "NHWC" if depthwise else "NDHWC", "dilations": [1] * (len(sizes) + 2),
             "num_args": 1, "fused_ops": [b"BiasAdd"] + ([activation] if activation else []),
             "leakyrelu_alpha": 0.3}

    def ref(x, w, bias):
        y = (ref_depthwise if depthwise else ref_conv)(x.astype(np.float64),
                                                       w.astype(np.float64), strides,
                                                       (1,) * len(sizes), pads)
        return _ACTIVATIONS[activation](y + bias.astype(np.float64)).astype(x.dtype)
    return OpSpec(op.name, lambda x, w, bias: dispatch(op, (x, w, bias), attrs),
                  [x, w, _data((6 if depthwise else 4,), dtype, 3)], ref, rtol=rtol, atol=rtol,
                  grad=_NOT_DIFFERENTIABLE,
                  name="-".join([op.name, (activation or b"BiasAdd").decode(),
                                 np.dtype(dtype).name]))


def _filter_bias_grad_spec(dtype=np.float32, strides=(1, 1), padding="VALID", rtol=1e-5):
    x_shape, w_shape = (2, 5, 6, 3), (3, 3, 3, 4)
    pads = same_pads((5, 6), (3, 3), strides) if padding == "SAME" else [(0, 0)] * 2
    dy_shape = ref_conv(np.zeros(x_shape), np.zeros(w_shape), strides, (1, 1), pads).shape
    attrs = {"filter_sizes": w_shape, "strides": [1, *strides, 1], "padding": padding,
             "explicit_paddings": [], "data_format": "NHWC", "dilations": [1, 1, 1, 1]}

    def ref(x, dy):
        wide = [a.astype(np.float64) for a in (x, dy)]
        return (ref_conv_filter_grad(*wide, w_shape, strides, (1, 1), pads).astype(x.dtype),
                wide[1].sum((0, 1, 2)).astype(x.dtype))
    return OpSpec("_Conv2DBackpropFilterWithBias",
                  lambda x, dy: dispatch(_CONV2D_BACKPROP_FILTER_WITH_BIAS, (x, dy), attrs),
                  [_data(x_shape, dtype, 1), _data(dy_shape, dtype, 2)], ref, rtol=rtol,
                  atol=rtol, grad=_NOT_DIFFERENTIABLE,
                  name="-".join(["_Conv2DBackpropFilterWithBias", np.dtype(dtype).name, padding,
                                 str(strides)]))


def _broadcast_relu_grad_spec(g_shape, shape, dtype=np.float32):
    """ReluGrad(BroadcastTo(g, shape), features), with features of 0 (no gradient) among them."""
    features = _data(shape, dtype, 2)
    features.flat[::3] = 0

    def ref(g, features):
        return (np.broadcast_to(g, features.shape) * (features > 0)).astype(features.dtype)
    return OpSpec("_BroadcastReluGrad",
                  lambda g, features: dispatch(_BROADCAST_RELU_GRAD, (g, features), {}),
                  [_data(g_shape, dtype, 1), features], ref, rtol=0, atol=0,
                  grad=_NOT_DIFFERENTIABLE,
                  name=f"_BroadcastReluGrad-{g_shape}-{shape}-{np.dtype(dtype).name}")


def _data(shape, dtype, seed):
    """Random inputs; bfloat16 ones integral, so that every sum is exact (compared bitwise)."""
    if dtype == ml_dtypes.bfloat16:
        return rand(*shape, dtype=np.int32, seed=seed).astype(dtype)
    return rand(*shape, dtype=dtype, seed=seed)


SPECS = [
    *[_spec(activation) for activation in _ACTIVATIONS],
    _spec(b"Relu", transpose_a=True, transpose_b=True),
    _spec(b"Relu", np.float16, rtol=1e-2),
    _spec(None, ml_dtypes.bfloat16, rtol=5e-2),
    *[_conv_spec(activation) for activation in _ACTIVATIONS],
    _conv_spec(b"Relu", strides=(2, 2), padding="SAME"),
    _conv_spec(b"Relu", np.float64),
    _conv_spec(b"Relu", np.float16, rtol=1e-2),
    _conv_spec(None, ml_dtypes.bfloat16, rtol=5e-2),
    *[_conv_batch_norm_spec(activation) for activation in (None, b"Relu", b"Relu6", b"Elu")],
    *[_other_conv_spec(op, activation) for op in (_FUSED_DEPTHWISE, _FUSED_CONV3D)
      for activation in (None, b"Relu", b"Relu6", b"Sigmoid")],
    *[_other_conv_spec(op, b"Relu", dtype, rtol) for op in (_FUSED_DEPTHWISE, _FUSED_CONV3D)
      for dtype, rtol in ((np.float64, 1e-10), (np.float16, 1e-2),
                          (ml_dtypes.bfloat16, 5e-2))],
    _filter_bias_grad_spec(),
    _filter_bias_grad_spec(strides=(2, 2), padding="SAME"),
    _filter_bias_grad_spec(np.float64),
    _filter_bias_grad_spec(np.float16, rtol=1e-2),
    _filter_bias_grad_spec(ml_dtypes.bfloat16, rtol=5e-2),
    _broadcast_relu_grad_spec((2, 1, 1, 3), (2, 4, 5, 3)),
    _broadcast_relu_grad_spec((3,), (2, 4, 3)),
    _broadcast_relu_grad_spec((2, 1, 1, 3), (2, 4, 5, 3), np.float64),
    _broadcast_relu_grad_spec((2, 1, 3), (2, 4, 3), np.float16),
    _broadcast_relu_grad_spec((1, 2, 1), (3, 2, 4), ml_dtypes.bfloat16),
]
