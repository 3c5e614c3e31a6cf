"""Operator overloads of `Tensor` and `Variable`, installed once when ops are imported.

`+`, `*`, `/`, `//`, `%`, `**`, `@`, unary `-`, `abs`, `~`, `&`, `|`, `^`,
comparisons, `==`/`!=` (elementwise, as TF2) and `[]` all dispatch the same
registered ops as the public functions.

>>> constant([1, 2]) * 2 + 1
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 5], dtype=int32)>
"""
import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import constant, convert_to_tensor, is_tensor_like
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import (
    bitwise_ops, cast_ops, linalg_ops, math_ops, slicing, variable_ops)
from eagerflow._src.ops.shape_rules import broadcast_shapes
from eagerflow._src.ops.wrappers import as_tensor, binary_operands, reflected


def _bool_or_bitwise(logical, bitwise):
    """`&`, `|`, `^`: logical ops on bool tensors, bitwise ops on integer tensors."""
    def fn(x, y):
        x, y = binary_operands(x, y)
        return (logical if x.dtype == _d.bool else bitwise)(x, y)
    return fn


_BOOL = np.dtype(bool)


def _multiply(x, y):
    """`*`: bool tensors multiply as int32 (any other operand too), giving bools back."""
    if type(x) is EagerTensor and x._data.dtype is not _BOOL:  # the hot case
        return math_ops.multiply(x, y)
    if x.dtype is _d.bool:
        x, y = (cast_ops.cast(as_tensor(v), _d.int32) for v in (x, y))
        return cast_ops.cast(math_ops.multiply(x, y), _d.bool)
    return math_ops.multiply(x, y)


def _invert(x):
    x = as_tensor(x)
    return math_ops.logical_not(x) if x.dtype == _d.bool else bitwise_ops.invert(x)


def _equality(op, incompatible):
    """`==` / `!=`: elementwise; None compares unequal, as do unbroadcastable shapes.

    Unlike arithmetic, a non-tensor operand must convert to the tensor's dtype
    (TypeError otherwise), as in TF.
    """
    def fn(self, other):
        if other is None:
            return incompatible
        x = as_tensor(self)
        y = other if is_tensor_like(other) else convert_to_tensor(other, x.dtype)
        x, y = binary_operands(x, y)
        try:
            broadcast_shapes(x.shape, y.shape)
        except Exception:  # shapes that never broadcast are simply unequal
            return constant(incompatible)
        return op(x, y)
    return fn


_and = _bool_or_bitwise(math_ops.logical_and, bitwise_ops.bitwise_and)
_or = _bool_or_bitwise(math_ops.logical_or, bitwise_ops.bitwise_or)
_xor = _bool_or_bitwise(math_ops.logical_xor, bitwise_ops.bitwise_xor)

_BINARY = {
    "add": math_ops.add, "sub": math_ops.subtract, "mul": _multiply,
    "truediv": math_ops.truediv, "floordiv": math_ops.floordiv, "mod": math_ops.floormod,
    "pow": math_ops.pow, "matmul": linalg_ops.matmul, "and": _and, "or": _or, "xor": _xor,
}
_METHODS = {
    "__neg__": math_ops.negative, "__abs__": math_ops.abs, "__invert__": _invert,
    "__lt__": math_ops.less, "__le__": math_ops.less_equal, "__gt__": math_ops.greater,
    "__ge__": math_ops.greater_equal,
    "__eq__": _equality(math_ops.equal, False), "__ne__": _equality(math_ops.not_equal, True),
    "__getitem__": slicing.getitem,
}
for _name, _fn in _BINARY.items():
    _METHODS[f"__{_name}__"] = _fn
    _METHODS[f"__r{_name}__"] = reflected(_fn)

for _cls in (Tensor, Variable):  # both keep their own __hash__, which raises (as TF2)
    for _name, _fn in _METHODS.items():
        setattr(_cls, _name, _fn)
Variable.__getitem__ = variable_ops.getitem  # a variable's slices can be assigned to
Tensor.OVERLOADABLE_OPERATORS = frozenset(_METHODS)
