"""Builders of public op functions: argument conversion in front of `dispatch`.

>>> from eagerflow._src.core import registry
>>> add = binary(registry.get("AddV2"))   # add(x, y, name=None)
>>> add([1, 2], 3)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 5], dtype=int32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import TypeDispatch
from eagerflow._src.core import context
from eagerflow._src.core.convert import convert_to_tensor, is_tensor_like, operand
from eagerflow._src.core.dispatch import binary_function, graph_operand_error, unary_function
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.ops import late


def as_tensor(value, dtype=None):
    """`value` as a tensor; variables are read, Python/NumPy values converted."""
    if type(value) is EagerTensor and dtype is None:
        return value
    return convert_to_tensor(value, dtype)


def defaulted(value, default, allowed=None):
    """`value` as the input of an op whose type attr defaults to `default`, as TF's ops
    convert it: a tensor or variable keeps its dtype, a NumPy array run eagerly is cast to
    `default`, and another value (a NumPy array traced) converts by itself, taking `default`
    when its own dtype is not one of `allowed` (None: any).

    >>> defaulted(np.zeros(2), tf.float32).dtype
    tf.float32
    >>> defaulted([1, 2], tf.float32, allowed=(tf.float32, tf.int32)).dtype
    tf.int32
    """
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biuf" and \
            context.executing_eagerly():
        return convert_to_tensor(np.asarray(value).astype(default.as_numpy_dtype))
    if hasattr(value, "dtype") and not isinstance(value, (np.ndarray, np.generic)):
        return as_tensor(value)
    tensor = convert_to_tensor(value)
    if allowed is not None and tensor.dtype not in allowed:
        return convert_to_tensor(value, default)
    return tensor


def binary_operands(x, y):
    """Converts a pair of operands; a non-tensor takes the other operand's dtype (or TypeError).

    With no tensor among them, `x` converts on its own and `y` takes its dtype.
    While a graph is built, a non-tensor `x` converts on its own, as TF's
    graph-mode op wrappers convert inputs in order: ``subtract(3, float_tensor)``
    then raises TF's TypeError for mismatched inputs. A Python float still takes
    the tensor's dtype (TF would raise for a float64 tensor), since library code
    writes ``subtract(1.0, x)`` for an x of any float dtype.
    """
    if not isinstance(x, Tensor):
        if is_tensor_like(x):
            x = convert_to_tensor(x)
        elif is_tensor_like(y):
            y = convert_to_tensor(y)
            if type(x) is float or context.executing_eagerly():
                x = operand(x, y)
            else:
                x = convert_to_tensor(x)
        else:
            x = convert_to_tensor(x)
    if type(y) is not EagerTensor:
        y = operand(y, x)
    return x, y


def hinted_operands(x, y):
    """`x` converted on its own, then `y` to x's dtype where it can, else to its own.

    How ``add`` and ``truediv`` convert: ``add(1.5, int_tensor)`` reaches the op,
    which reports the dtype mismatch.
    """
    x = as_tensor(x)
    if type(y) is not EagerTensor:
        y = operand(y, x, fallback=True)
    return x, y


def binary(op, doc=None, fallback=False, args=("x", "y")):
    """``fn(x, y, name=None)`` running elementwise binary `op`, its operands named `args`.

    Operands convert with `binary_operands`, or with `hinted_operands` when `fallback`.
    """
    def convert(x, y):
        if type(x) is EagerTensor:
            return x, operand(y, x, fallback)  # the hot case: `x * 0.5`
        return hinted_operands(x, y) if fallback else binary_operands(x, y)
    fn = binary_function(op, convert, listed=not fallback, args=args)
    fn.__qualname__ = "binary.fn"  # see name_functions
    fn.__doc__ = doc
    return fn


def unary(op, doc=None, sparse=False, listed=True, arg="x"):
    """``fn(x, name=None)`` running elementwise unary `op`, `x` named `arg`; with `sparse`
    (ops with f(0) = 0 that TF maps over a `SparseTensor`'s values) on sparse tensors too.
    `listed`: TF's function passes `x` to its op unconverted (see `unary_function`)."""
    fn = unary_function(op, convert_to_tensor, sparse_values if sparse else None, listed, arg)
    fn.__qualname__ = "unary.fn"  # see name_functions
    fn.__doc__ = doc
    return fn


def sparse_values(fn, x, name=None):
    """``fn`` of a `SparseTensor`'s values, with its indices and shape (NotImplemented for
    anything else)."""
    if not isinstance(x, late.sparse_tensor.SparseTensor):
        return NotImplemented
    return late.sparse_tensor.SparseTensor(x.indices, fn(x.values, name), x.dense_shape)


def name_functions(namespace):
    """Gives functions built by `binary`/`unary` in a module their public name and module.

    Call at the end of a module: ``name_functions(globals())``.  Aliases defined
    later (``mod = floormod``) keep the first name.
    """
    for name, value in list(namespace.items()):
        if getattr(value, "__qualname__", "").startswith(("binary.", "unary.")):
            value.__name__ = value.__qualname__ = name
            value.__module__ = namespace["__name__"]


def reflected(fn):
    """The reflected operator of binary `fn`: ``other <op> self``.

    `other` must convert to self's dtype (TypeError otherwise), as in TF.
    """
    def method(self, other):
        try:
            converted = operand(other, self)
        except TypeDispatch as e:  # (no dispatch for `value <op> tensor`: TF's ValueError)
            raise ValueError(str(e)) from None
        except TypeError as e:
            raise graph_operand_error(None, other, self, e) from None
        return fn(converted, self)
    return method
