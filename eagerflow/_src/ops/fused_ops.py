"""Fused kernels the graph passes substitute for chains of ops (no public API).

``_FusedMatMul`` computes ``activation(matmul(a, b) + bias)`` in one kernel:
the product is the only array allocated; the bias is added and the
activation applied in place. ``fused_ops`` names the chain as TensorFlow
does: ``[b"BiasAdd"]`` or ``[b"BiasAdd", b"Relu"]`` (``Relu6``, ``Elu``,
``LeakyRelu``, ``Tanh``, ``Sigmoid``).

>>> dispatch(_FUSED_MATMUL, (constant([[1.0, -2.0]]), constant([[1.0], [1.0]]),
...                          constant([0.5])), {"fused_ops": [b"BiasAdd", b"Relu"]})
<tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[0.]], dtype=float32)>
"""
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import registry
from eagerflow._src.ops import math_ops, nn_ops  # noqa: F401 (registers the activations)
from eagerflow._src.ops.linalg_ops import _MATMUL


def _relu(xp, y):
    xp.maximum(y, 0, out=y)


def _relu6(xp, y):
    xp.maximum(y, 0, out=y)
    xp.minimum(y, 6, out=y)


def _tanh(xp, y):
    xp.tanh(y, out=y)


# Activations that overwrite the product; the others run their registered kernel.
_IN_PLACE = {b"Relu": _relu, b"Relu6": _relu6, b"Tanh": _tanh}
ACTIVATIONS = frozenset({b"Relu", b"Relu6", b"Elu", b"LeakyRelu", b"Tanh", b"Sigmoid"})


def _fused_matmul(xp, a, b, bias, transpose_a=False, transpose_b=False, fused_ops=(b"BiasAdd",),
                  leakyrelu_alpha=0.2):
    y = _MATMUL.kernel(xp, a, b, transpose_a, transpose_b)  # a new array: safe to overwrite
    y += bias
    if len(fused_ops) < 2:
        return y
    activation = fused_ops[1]
    in_place = _IN_PLACE.get(activation)
    if in_place is not None:
        in_place(xp, y)
        return y
    attrs = {"alpha": leakyrelu_alpha} if activation == b"LeakyRelu" else {}
    return registry.get(activation.decode()).kernel(xp, y, **attrs)


def _fused_matmul_rule(a, b, bias, transpose_a=False, transpose_b=False, **_):
    return _MATMUL.shape(a, b, transpose_a, transpose_b)


_FUSED_MATMUL = registry.register(
    "_FusedMatMul", _fused_matmul, _fused_matmul_rule, tied=(0, 1, 2),
    dtypes=(_d.bfloat16, _d.float16, _d.float32),
    not_differentiable="made by graph fusion after gradients are built")
