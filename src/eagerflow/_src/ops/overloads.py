"""Operator overloads of `Tensor` and `Variable`, installed once when ops are imported.

`+`, `*`, `/`, `//`, `%`, `**`, `@`, unary `-`, `abs`, `~`, `&`, `|`, `^`,
comparisons, `==`/`!=` (elementwise, as TF2) and `[]` all dispatch the same
registered ops as the public functions. In graphs, the ops of binary operators
are named after the operator (``mul``, ``add``, ``truediv``), as TensorFlow
names them; the public functions name theirs after the op (``Mul``).

>>> tf.constant([1, 2]) * 2 + 1
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 5], dtype=int32)>
"""
import types

import numpy as np

from eagerflow._src import backend
from eagerflow._src.backend.api_export import SymbolicCall, dispatch_call, undispatched
from eagerflow._src.core import context, errors
from eagerflow._src.core.composite_tensor import CompositeTensor
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import constant, convert_to_tensor, is_tensor_like
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import (
    bitwise_ops, cast_ops, linalg_ops, math_ops, slicing, variable_ops)
from eagerflow._src.ops.shape_rules import broadcast_shapes
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ops.wrappers import as_tensor, binary_operands, reflected


def _bool_or_bitwise(logical, bitwise, op_name):
    """`&`, `|`, `^`: logical ops on bool tensors, bitwise ops on integer tensors."""
    op_name = errors.ScopeName(op_name)
    def fn(x, y, name=op_name):
        try:
            a, b = binary_operands(x, y)
        except SymbolicCall:  # (a value of a type with dispatch targets: TF's logical op's)
            return dispatch_call(logical, {"x": x, "y": y, "name": name})
        return (logical if a.dtype == _d.bool else bitwise)(a, b, name)
    return fn




def _named(fn, name):
    """A copy of public function `fn` whose `name` argument defaults to `name`.

    The copy runs the same code, so an operator costs nothing more than the
    function; only graphs see the difference, in the op's name.
    """
    fn = undispatched(fn)  # Keras tensors' operators dispatch to their own layers
    code = fn.__code__
    params = code.co_varnames[:code.co_argcount]
    defaults = list(fn.__defaults__)
    defaults[params.index("name") - (len(params) - len(defaults))] = errors.ScopeName(name)
    copy = types.FunctionType(code, fn.__globals__, fn.__name__, tuple(defaults),
                              fn.__closure__)
    copy.__kwdefaults__, copy.__doc__ = fn.__kwdefaults__, fn.__doc__
    copy.__qualname__, copy.__module__ = fn.__qualname__, fn.__module__
    return copy


_mul = _named(math_ops.multiply, "mul")


def _multiply(x, y):
    """`*`: bool tensors multiply as int32 (any other operand too), giving bools back."""
    if isinstance(y, SparseTensor):  # `dense * st`: the product at st's entries, as TF's
        return y * x
    # (by its scalar type: an unpickled array's dtype is an equal but other instance)
    if type(x) is EagerTensor and x._data.dtype.type is not np.bool_:  # the hot case
        return _mul(x, y)
    if x.dtype is _d.bool:
        x, y = (cast_ops.cast(as_tensor(v), _d.int32) for v in (x, y))
        return cast_ops.cast(_mul(x, y), _d.bool)
    return _mul(x, y)


def _invert(x):
    x = as_tensor(x)
    return math_ops.logical_not(x) if x.dtype == _d.bool else bitwise_ops.invert(x)


def _legacy_graph():
    """Whether a TF 1 graph is being built (also around a function traced in it), where TF
    compares tensors and variables by identity (``var in list`` finds the variable)."""
    outer = context.outer_graph
    return outer is not None and outer() is not None


def _equality(op, lenient, incompatible):
    """`==` / `!=`: elementwise; None compares unequal, as do unbroadcastable shapes. While a
    TF 1 graph is built, identity, as TF's.

    Unlike arithmetic, a non-tensor operand must convert to the tensor's dtype
    (TypeError otherwise), as in TF. In a graph, shapes not fully known take the
    `lenient` op, which compares unbroadcastable shapes unequal when it runs.
    """
    def fn(self, other):
        if other is None:
            return incompatible
        if context.get().graph is not None and _legacy_graph():
            return self is not other if incompatible else self is other
        # (a variable, though a composite tensor, compares elementwise as a tensor does)
        if isinstance(other, CompositeTensor) and \
                not isinstance(other, (SparseTensor, Variable)) and \
                type(other).__eq__ is not object.__eq__:
            return NotImplemented  # (a ragged tensor compares itself: its ``==``, reflected)
        x = as_tensor(self)
        y = other if is_tensor_like(other) else convert_to_tensor(other, x.dtype)
        x, y = binary_operands(x, y)
        try:
            broadcast_shapes(x.shape, y.shape)
        except Exception:  # shapes that never broadcast are simply unequal
            return constant(incompatible)
        if not (x.shape.is_fully_defined() and y.shape.is_fully_defined()):
            if not context.executing_eagerly():
                return dispatch(lenient, (x, y), name="Equal" if incompatible is False
                                else "NotEqual")
        return op(x, y)
    return fn


_BINARY = {
    "add": _named(math_ops.add, "add"), "sub": _named(math_ops.subtract, "sub"),
    "mul": _multiply, "truediv": _named(math_ops.truediv, "truediv"),
    "floordiv": _named(math_ops.floordiv, "floordiv"),
    "mod": _named(math_ops.floormod, "mod"), "pow": _named(math_ops.pow, "pow"),
    "matmul": _named(linalg_ops.matmul, "matmul"),
    "and": _bool_or_bitwise(math_ops.logical_and, bitwise_ops.bitwise_and, "and"),
    "or": _bool_or_bitwise(math_ops.logical_or, bitwise_ops.bitwise_or, "or"),
    "xor": _bool_or_bitwise(math_ops.logical_xor, bitwise_ops.bitwise_xor, "xor"),
}
_METHODS = {
    "__neg__": math_ops.negative, "__abs__": math_ops.abs, "__invert__": _invert,
    "__lt__": math_ops.less, "__le__": math_ops.less_equal, "__gt__": math_ops.greater,
    "__ge__": math_ops.greater_equal,
    "__eq__": _equality(math_ops.equal, math_ops.EQUAL_LENIENT, False),
    "__ne__": _equality(math_ops.not_equal, math_ops.NOT_EQUAL_LENIENT, True),
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


def _cpu(self):
    """A copy of this tensor in host memory (TF 1's; ``tf.identity`` under ``tf.device``
    replaces it)."""
    with context.device("/device:CPU:0"):
        return cast_ops.identity(self)


def _gpu(self, gpu_index=0):
    """A copy of this tensor on GPU `gpu_index` (TF 1's; ``tf.identity`` under ``tf.device``
    replaces it): RuntimeError where there is no such GPU."""
    name = f"GPU:{gpu_index}"
    if ":GPU:" not in backend.canonical_device(name):
        raise RuntimeError(f"{name} unknown device.")
    with context.device(name):
        return cast_ops.identity(self)


EagerTensor.cpu, EagerTensor.gpu = _cpu, _gpu
