"""Elementwise math: arithmetic, comparisons, logic and unary functions.

Each op is registered once (TF's op name, kernel, shape rule, dtype
constraint) and exposed at TF's public name.

>>> tf.add(tf.constant([1, 2]), 3)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 5], dtype=int32)>
"""
import warnings

import numpy as np

from eagerflow._src.backend import special, tracebacks
from eagerflow._src.backend.api_export import (
    SymbolicCall, dispatch_call, dispatches_itself, export)
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core import context
from eagerflow._src.core.convert import convert_input, convert_to_tensor, is_tensor_like
from eagerflow._src.core.convert import get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args, tf_defaults
from eagerflow._src.core.registry import attr_dtype_error
from eagerflow._src.core.registry import get as _op_named
from eagerflow._src.core.registry import (
    BOOL_ONLY, COMPLEX, FLOAT, FLOAT_COMPLEX, NUMBER, SIGNED_INT, SIGNED_NUMBER,
    OpDef, kernel_type_name, register, register_gradient, same_shape)
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.core.registry import INT, NN_FLOAT, REAL_NUMBER_TYPES, UNSIGNED_INT
from eagerflow._src.core.registry import NUMBER_TYPES, no_gradient_entry
from eagerflow._src.ops import float_math, late
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.wrappers import (
    as_tensor, binary, binary_operands, hinted_operands, name_functions, sparse_values, unary)


def _int_division(fn, zero_message="Integer division by zero", error=errors.InvalidArgumentError):
    """`fn` with TF's error on integer division by zero (NumPy would return 0), met only by
    an element divided: an empty `x` divides nothing."""
    def kernel(xp, x, y):
        # (a scalar y: its truth)
        if y.dtype.kind in "iu" and x.size and not (y.all() if y.ndim else y):
            raise error(None, None, zero_message)
        return fn(xp, x, y)
    return kernel


# TF's truncating kernels meet a zero divisor in their generic path, which fails this way.
_TRUNCATE_ZERO = ("Unexpected error in binary operator (only integer div and mod should have "
                  "errors)", errors.InternalError)


def _div_no_nan(xp, x, y):
    safe = xp.where(y == 0, xp.ones((), y.dtype), y)
    return xp.where(y == 0, xp.zeros((), x.dtype), _real_div(xp, x, safe)).astype(
        x.dtype, copy=False)


def _floor_div(xp, x, y):
    if x.dtype.kind in "iu":
        return xp.floor_divide(x, y)
    # floor(x / y), as TF: NumPy's floor_divide follows Python's divmod (-3.8 // inf is -1,
    # inf // -2 NaN; TF's are -0 and -inf), and floor(1 / 0.1) is 10, not divmod's 9
    out = xp.asarray(xp.divide(x, y))
    return xp.floor(out, out=out)


def _floor_mod(xp, x, y):
    if x.dtype.kind in "iu":
        return xp.mod(x, y)
    # the remainder of truncated division, moved into y's sign (exact zeros keep x's sign)
    r = xp.fmod(x, y)
    return xp.where((r != 0) & ((r < 0) != (y < 0)), r + y, r)


def _mul_no_nan(xp, x, y):
    return xp.where(y == 0, xp.zeros((), x.dtype), x * y).astype(x.dtype, copy=False)


def _squared_difference(xp, x, y):
    d = x - y
    return (d * xp.conj(d)) if d.dtype.kind == "c" else d * d


def _float_kernel(fn):
    """A kernel computing in at least float32 and returning the input's dtype."""
    def kernel(xp, x, *rest):
        wide = x.astype(xp.float32) if x.dtype.itemsize < 4 else x
        return xp.asarray(fn(xp, wide, *rest)).astype(x.dtype, copy=False)
    return kernel


def _real_div(xp, x, y):
    if x.dtype.kind == "c":
        return _complex_quotient(xp, x, y)
    return xp.true_divide(x, y).astype(x.dtype, copy=False)


# complex numbers per vector of TF's CPU kernels (AVX: 4 complex64, 2 complex128)
_COMPLEX_LANES = {np.dtype(np.complex64): 4, np.dtype(np.complex128): 2}


def _complex_quotient(xp, x, y):
    """x / y as TF's CPU kernels divide complex numbers, to the last bit: the vectors
    scale y by max(|re y|, |im y|), then multiply by its conjugate; the last ``n % lanes``
    values of the (broadcast) result take Smith's algorithm, as C's complex division does
    (with C's infinities for a zero divisor)."""
    x, y = xp.broadcast_arrays(x, y)
    shape, x, y = x.shape, x.reshape(-1), y.reshape(-1)
    split = x.size - x.size % _COMPLEX_LANES[x.dtype]
    a, b, c, d = x.real, x.imag, y.real, y.imag
    out = xp.empty(x.shape, x.dtype)
    with np.errstate(all="ignore"):
        m = xp.maximum(xp.abs(c[:split]), xp.abs(d[:split]))
        cs, ds = c[:split] / m, d[:split] / m
        den = cs * cs + ds * ds
        out.real[:split] = (a[:split] * cs + b[:split] * ds) / den / m
        out.imag[:split] = (b[:split] * cs - a[:split] * ds) / den / m
        a, b, c, d = a[split:], b[split:], c[split:], d[split:]
        wide = xp.abs(c) >= xp.abs(d)
        r = xp.where(wide, d / c, c / d)
        den = xp.where(wide, c + d * r, c * r + d)
        re = xp.where(wide, a + b * r, a * r + b) / den
        im = xp.where(wide, b - a * r, b * r - a) / den
        lost = xp.isnan(re) & xp.isnan(im)
        if lost.any():  # C's recovery of infinities (Annex G)
            inf = xp.copysign(xp.asarray(np.inf, c.dtype), c)
            zero = (c == 0) & (d == 0) & ~(xp.isnan(a) & xp.isnan(b))
            re, im = xp.where(lost & zero, inf * a, re), xp.where(lost & zero, inf * b, im)
            big = lost & (xp.isinf(a) | xp.isinf(b)) & xp.isfinite(c) & xp.isfinite(d)
            a1 = xp.copysign(xp.isinf(a).astype(c.dtype), a)
            b1 = xp.copysign(xp.isinf(b).astype(c.dtype), b)
            re = xp.where(big, np.inf * (a1 * c + b1 * d), re)
            im = xp.where(big, np.inf * (b1 * c - a1 * d), im)
            small = lost & (xp.isinf(c) | xp.isinf(d)) & xp.isfinite(a) & xp.isfinite(b)
            c1 = xp.copysign(xp.isinf(c).astype(c.dtype), c)
            d1 = xp.copysign(xp.isinf(d).astype(c.dtype), d)
            re = xp.where(small, 0.0 * (a * c1 + b * d1), re)
            im = xp.where(small, 0.0 * (b * c1 - a * d1), im)
        out.real[split:], out.imag[split:] = re, im
    return out.reshape(shape)


def _pow(xp, x, y):
    if x.dtype.kind in "iu" and xp.any(y < 0):
        raise errors.InvalidArgumentError(None, None,
                                          "Integers to negative integer powers are not allowed")
    return float_math.pow(xp, x, y)


# TF's type lists of RealDiv (and Reciprocal) take integers, which have no CPU kernel.
_ALL_NUMBERS = FLOAT + (_d.uint8, _d.int8, _d.uint16, _d.int16, _d.int32, _d.uint32, _d.uint64,
                        _d.int64) + COMPLEX
_U8, _I8, _U16, _I16, _U32, _U64 = _d.uint8, _d.int8, _d.uint16, _d.int16, _d.uint32, _d.uint64
# (each binary op's dtypes are in the order TF's errors list them)
_ADD = register("AddV2", "add", rules.binary, tied=(0, 1),
                dtypes=FLOAT + UNSIGNED_INT + SIGNED_INT + COMPLEX, elementwise=True)


def _add_v1(xp, x, y):
    # (strings concatenate; asarray keeps 0-d results arrays, not bytes)
    return xp.asarray(xp.add(x, y), dtype=object) if x.dtype == object else xp.add(x, y)


# TF 1's Add: strings (`tf.add` of strings runs it) and numbers (TF 1 graphs, raw calls)
_ADD_V1 = register("Add", _add_v1, rules.binary, tied=(0, 1),
                        dtypes=FLOAT + UNSIGNED_INT + SIGNED_INT + COMPLEX + (_d.string,),
                        elementwise=True)
_SUB = register("Sub", "subtract", rules.binary, tied=(0, 1),
                dtypes=FLOAT + (_U8, _I8, _U16, _I16, _d.int32, _d.int64) + COMPLEX + (_U32, _U64),
                elementwise=True)
_MUL = register("Mul", "multiply", rules.binary, tied=(0, 1), dtypes=_ALL_NUMBERS, elementwise=True)
tf_nodes[_ADD_V1] = NodeForm(types={"T": 0})
_F64, _F32, _F16, _BF16 = _d.float64, _d.float32, _d.float16, _d.bfloat16
_REAL_DIV = register("RealDiv", _real_div, rules.binary, tied=(0, 1), dtypes=_ALL_NUMBERS,
                     kernels=(_d.complex128, _d.complex64, _BF16, _F64, _F16, _F32),
                     elementwise=True)
# FloorDiv and TruncateDiv take complex numbers, which have no CPU kernel (NotFoundError)
_DIVISION_DTYPES = FLOAT + (_U8, _I8, _U16, _I16, _d.int32, _U32, _U64, _d.int64) + COMPLEX
_FLOOR_DIV = register("FloorDiv", _int_division(_floor_div),
                      rules.binary, tied=(0, 1), dtypes=_DIVISION_DTYPES,
                      kernels=(_d.float64, _d.bfloat16, _d.float16, _d.float32, _d.int64,
                               _d.int32, _I16, _I8, _U64, _U32, _U16, _U8), elementwise=True)
_FLOOR_MOD = register("FloorMod", _int_division(_floor_mod),
                      rules.binary, tied=(0, 1), dtypes=INT + FLOAT, elementwise=True)
def _truncate_div(xp, x, y):
    if x.dtype.kind not in "iu":  # (bfloat16's kind is "V")
        return xp.trunc(x / y).astype(x.dtype)
    return (xp.abs(x) // xp.abs(y)) * (xp.sign(x) * xp.sign(y))


_TRUNCATE_DIV = register("TruncateDiv", _int_division(_truncate_div, *_TRUNCATE_ZERO),
                         rules.binary, tied=(0, 1), dtypes=_DIVISION_DTYPES,
                         kernels=(_d.float64, _d.float32, _d.bfloat16, _d.float16, _d.int64,
                                  _d.int32, _I16, _I8, _U64, _U32, _U16, _U8),
                         elementwise=True)


def _div(xp, x, y):
    """TF's Div: integers divide rounding toward zero (as C does), others exactly."""
    return _truncate_div(xp, x, y) if x.dtype.kind in "iu" else _real_div(xp, x, y)


# TF's older division op (``tf.raw_ops.Div``), which no public function of TF 2 runs
_DIV = register("Div", _int_division(_div), rules.binary, tied=(0, 1), dtypes=_ALL_NUMBERS,
                elementwise=True)
_POW = register("Pow", _pow, rules.binary, tied=(0, 1),
                dtypes=(_BF16, _F32, _F16, _F64) + SIGNED_INT + COMPLEX, elementwise=True)
_EXTREME_DTYPES = FLOAT + (_I8, _U8, _I16, _U16, _d.int32, _U32, _d.int64, _U64)
_MAXIMUM = register("Maximum", "maximum", rules.binary, tied=(0, 1), dtypes=_EXTREME_DTYPES,
                    elementwise=True)
_MINIMUM = register("Minimum", "minimum", rules.binary, tied=(0, 1), dtypes=_EXTREME_DTYPES,
                    elementwise=True)
_SQUARED_DIFFERENCE = register("SquaredDifference", _squared_difference, rules.binary,
                               tied=(0, 1), dtypes=FLOAT + (_d.int32, _d.int64) + COMPLEX,
                               elementwise=True)
_DIV_NO_NAN = register("DivNoNan", _div_no_nan, rules.binary, tied=(0, 1),
                       dtypes=(_F16, _F32, _BF16, _F64, _d.complex64, _d.complex128),  # TF's order
                       elementwise=True)
_MUL_NO_NAN = register("MulNoNan", _mul_no_nan, rules.binary, tied=(0, 1), dtypes=FLOAT_COMPLEX,
                       elementwise=True)
_TRUNCATE_MOD = register("TruncateMod", _int_division(lambda xp, x, y: xp.fmod(x, y),
                                                      *_TRUNCATE_ZERO),
                         rules.binary, tied=(0, 1),
                         dtypes=(_d.int32, _d.int64, _BF16, _F16, _F32, _F64),
                         kernels=(_F64, _F32, _d.int64, _d.int32), elementwise=True)
# (TF's order for the x*f(y) ops, as their errors list them)
_X_OF_Y_DTYPES = (_F16, _BF16, _F32, _F64, _d.complex64, _d.complex128)
_XLOGY = register("Xlogy", lambda xp, x, y: xp.where(x == 0, xp.zeros((), x.dtype),
                                                     x * xp.log(y)),
                  rules.binary, tied=(0, 1), dtypes=_X_OF_Y_DTYPES, elementwise=True)
_XLOG1PY = register("Xlog1py", lambda xp, x, y: xp.where(x == 0, xp.zeros((), x.dtype),
                                                         x * xp.log1p(y)),
                    rules.binary, tied=(0, 1), dtypes=_X_OF_Y_DTYPES, elementwise=True)
_XDIVY = register("Xdivy",
                  lambda xp, x, y: xp.where(x == 0, xp.zeros((), x.dtype), _real_div(xp, x, y)),
                  rules.binary, tied=(0, 1), dtypes=_X_OF_Y_DTYPES, elementwise=True)
_ATAN2 = register("Atan2", _float_kernel(lambda xp, y, x: xp.arctan2(y, x.astype(y.dtype))),
                  rules.binary, tied=(0, 1), dtypes=FLOAT, elementwise=True)
tf_args[_ATAN2] = ("y", "x")

_EQUAL = register("Equal", "equal", rules.binary_to(_d.bool), tied=(0, 1),
                  not_differentiable="comparison", elementwise=True)
_NOT_EQUAL = register("NotEqual", "not_equal", rules.binary_to(_d.bool), tied=(0, 1),
                      not_differentiable="comparison", elementwise=True)
tf_nodes[_EQUAL] = tf_nodes[_NOT_EQUAL] = NodeForm(fixed={"incompatible_shape_error": True})


def _lenient(name, fn_name, incompatible):
    """`name` as TF's ``==`` and ``!=`` build it in graphs, with attr
    ``incompatible_shape_error=False``: shapes that do not broadcast give the scalar
    `incompatible` when the graph runs (not registered: ``Equal`` is that op)."""
    def kernel(xp, x, y):
        try:
            np.broadcast_shapes(x.shape, y.shape)
        except ValueError:
            return xp.asarray(incompatible)
        return getattr(xp, fn_name)(x, y)
    return OpDef(name, kernel, rules.lenient_broadcast, False, (0, 1), None, False, "comparison")


EQUAL_LENIENT = _lenient("Equal", "equal", False)
NOT_EQUAL_LENIENT = _lenient("NotEqual", "not_equal", True)
# (TF's own node: Equal or NotEqual that does not raise for shapes that do not broadcast)
tf_nodes[EQUAL_LENIENT] = tf_nodes[NOT_EQUAL_LENIENT] = NodeForm(
    fixed={"incompatible_shape_error": False})
_LESS = register("Less", "less", rules.binary_to(_d.bool), tied=(0, 1),
                 dtypes=REAL_NUMBER_TYPES, not_differentiable="comparison", elementwise=True)
_LESS_EQUAL = register("LessEqual", "less_equal", rules.binary_to(_d.bool), tied=(0, 1),
                       dtypes=REAL_NUMBER_TYPES, not_differentiable="comparison", elementwise=True)
_GREATER = register("Greater", "greater", rules.binary_to(_d.bool), tied=(0, 1),
                    dtypes=REAL_NUMBER_TYPES, not_differentiable="comparison", elementwise=True)
_GREATER_EQUAL = register("GreaterEqual", "greater_equal", rules.binary_to(_d.bool),
                          tied=(0, 1), dtypes=REAL_NUMBER_TYPES, not_differentiable="comparison",
                          elementwise=True)
_LOGICAL_AND = register("LogicalAnd", "logical_and", rules.binary, tied=(0, 1),
                        dtypes=BOOL_ONLY, not_differentiable="boolean", elementwise=True)
_LOGICAL_OR = register("LogicalOr", "logical_or", rules.binary, tied=(0, 1), dtypes=BOOL_ONLY,
                       not_differentiable="boolean", elementwise=True)
_LOGICAL_NOT = register("LogicalNot", "logical_not", same_shape, dtypes=BOOL_ONLY,
                        not_differentiable="boolean")

_add_numbers = binary(_ADD, fallback=True)


@export("math.add", "add")
@dispatches_itself  # one of the hottest functions: its dispatch support costs it no call
def add(x, y, name=None):
    """Returns x + y element-wise (strings concatenate).

    `y` takes x's dtype where it can; otherwise the op reports the mismatch.

    >>> tf.add(tf.constant([1.0, 2.0]), 1.0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
    """
    try:
        # (hasobject, not `is`: an unpickled array's dtype is an equal but other instance)
        if type(x) is EagerTensor and not x._data.dtype.hasobject:  # the hot case
            return _add_numbers(x, y, name)
        a, b = hinted_operands(x, y)
        if name is None and not context.executing_eagerly():
            name = "Add"  # (TF's wrapper names the AddV2 node after its scope)
        return dispatch(_ADD_V1 if a.dtype is _d.string else _ADD, (a, b), name=name)
    except SymbolicCall:
        return dispatch_call(add, {"x": x, "y": y, "name": name})
    except errors.OpError as e:  # (TF's wrapper opens a name scope)
        raise tracebacks.filtered(errors.scoped(e)) from None


subtract = binary(_SUB, "Returns x - y element-wise, with broadcasting.")
export("math.subtract", "subtract")(subtract)
multiply = binary(_MUL, """Returns x * y element-wise, with broadcasting.

    >>> tf.multiply(tf.constant([1, 2]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 6], dtype=int32)>
    """)
export("math.multiply", "multiply")(multiply)
realdiv = binary(_REAL_DIV, "Returns x / y element-wise for floating point tensors.")
export("realdiv")(realdiv)
floordiv = binary(_FLOOR_DIV, "Returns floor(x / y) element-wise (`x // y`).")
export("math.floordiv", dispatch_name="compat.v1.floor_div")(floordiv)
floormod = binary(_FLOOR_MOD, "Returns x - floor(x / y) * y element-wise (`x % y`).")
export("math.floormod", "math.mod")(floormod)
mod = floormod
truncatediv = binary(_TRUNCATE_DIV, "Returns x / y rounded toward zero element-wise.")
export("truncatediv")(truncatediv)
pow = binary(_POW, """Returns x ** y element-wise.

    >>> tf.pow(tf.constant([2, 3]), 2)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 9], dtype=int32)>
    """)
export("math.pow", "pow")(pow)
maximum = binary(_MAXIMUM, "Returns max(x, y) element-wise, with broadcasting.")
export("math.maximum", "maximum", "keras.backend.maximum")(maximum)
minimum = binary(_MINIMUM, "Returns min(x, y) element-wise, with broadcasting.")
export("math.minimum", "minimum", "keras.backend.minimum")(minimum)
squared_difference = binary(_SQUARED_DIFFERENCE, "Returns (x - y)(x - y) element-wise.")
export("math.squared_difference")(squared_difference)
truncatemod = binary(_TRUNCATE_MOD, """Returns the remainder of x / y rounded toward zero.

    The result has the sign of x (C's fmod).

    >>> tf.truncatemod(tf.constant([7, -7]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, -1], dtype=int32)>
    """)
export("truncatemod")(truncatemod)
xlogy = binary(_XLOGY, "Returns x * log(y), or 0 where x is 0.")
export("math.xlogy")(xlogy)
xlog1py = binary(_XLOG1PY, "Returns x * log1p(y), or 0 where x is 0.")
export("math.xlog1py")(xlog1py)
xdivy = binary(_XDIVY, "Returns x / y, or 0 where x is 0.")
export("math.xdivy")(xdivy)


@export("math.multiply_no_nan")
def multiply_no_nan(x, y, name=None):
    """Returns x * y, or 0 where y is 0 (even if x is NaN).

    As in TF, `x` converts on its own and `y` must convert to its dtype
    (ValueError otherwise: ``multiply_no_nan(3, float_tensor)``).
    """
    x = as_tensor(x)
    try:
        y = convert_to_tensor(y, x.dtype)
    except ValueError as e:
        if str(e).startswith("Tensor conversion requested"):
            raise ValueError(f"y: {e}") from None
        raise
    return dispatch(_MUL_NO_NAN, (x, y), name=name)


_atan2 = binary(_ATAN2)


@export("math.atan2", "atan2")
def atan2(y, x, name=None):
    """Returns arctan(y / x) element-wise, using the signs of both for the quadrant.

    >>> tf.atan2(tf.constant([1.0]), tf.constant([-1.0])).numpy().round(6)
    array([2.356194], dtype=float32)
    """
    return _atan2(y, x, name)


equal = binary(_EQUAL, "Returns the truth value of (x == y) element-wise.")
export("math.equal", "equal", "keras.backend.equal")(equal)
not_equal = binary(_NOT_EQUAL, "Returns the truth value of (x != y) element-wise.")
export("math.not_equal", "not_equal", "keras.backend.not_equal")(not_equal)
less = binary(_LESS, "Returns the truth value of (x < y) element-wise.")
export("math.less", "less", "keras.backend.less")(less)
less_equal = binary(_LESS_EQUAL, "Returns the truth value of (x <= y) element-wise.")
export("math.less_equal", "less_equal", "keras.backend.less_equal")(less_equal)
greater = binary(_GREATER, "Returns the truth value of (x > y) element-wise.")
export("math.greater", "greater", "keras.backend.greater")(greater)
greater_equal = binary(_GREATER_EQUAL, "Returns the truth value of (x >= y) element-wise.")
export("math.greater_equal", "greater_equal", "keras.backend.greater_equal")(greater_equal)


# The logical ops' inputs are bool, not a type attribute: as in TF, Python values convert to
# bool (an empty list too, which would otherwise be float32), and ints raise TypeError.
def _bools(*values):
    return [v if type(v) is EagerTensor else convert_input(v, _d.bool) for v in values]


def _logical(op, x, y, name):
    try:
        return dispatch(op, _bools(x, y), name=name)
    except errors.OpError as e:
        raise errors.listed(e, x, y) from None  # (Python lists: TF's slower path, no name)


@export("math.logical_and", "logical_and")
def logical_and(x, y, name=None):
    """Returns x AND y element-wise (bool tensors)."""
    return _logical(_LOGICAL_AND, x, y, name)


@export("math.logical_or", "logical_or")
def logical_or(x, y, name=None):
    """Returns x OR y element-wise (bool tensors)."""
    return _logical(_LOGICAL_OR, x, y, name)


@export("math.logical_not", "logical_not")
def logical_not(x, name=None):
    """Returns NOT x element-wise (bool tensors).

    >>> tf.logical_not([[]])
    <tf.Tensor: shape=(1, 0), dtype=bool, numpy=array([], shape=(1, 0), dtype=bool)>
    """
    return dispatch(_LOGICAL_NOT, _bools(x), name=name)


@export("math.logical_xor")
def logical_xor(x, y, name="LogicalXor"):
    """Returns x XOR y element-wise: (x | y) & ~(x & y).

    >>> tf.math.logical_xor(True, False)
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


_DIVISIBLE = (_d.uint8, _d.int8, _d.uint16, _d.int16, _d.uint32, _d.int32, _d.uint64, _d.int64,
              _d.bfloat16, _d.float16, _d.float32, _d.float64, _d.complex64, _d.complex128)
_DIVISIBLE_SET = frozenset(_DIVISIBLE)  # (a tuple's `in` calls DType.__eq__ per entry)


def _division_operands(x, y, fn_name, convert):
    """Operands of `truediv`/`divide_no_nan`, converted by `convert`: one dtype, integers cast
    to floats as TF does (small integers to float32, others to float64).
    """
    x, y = convert(x, y)
    if x.dtype not in _DIVISIBLE_SET:
        expected = ", ".join(map(repr, _DIVISIBLE))
        raise TypeError(f"Invalid dtype {x.dtype!r} in {fn_name}. Expected one of "
                        f"{{{expected}}}.")
    if y.dtype != x.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != "
                        f"{y.dtype!r}.")
    if x.dtype.is_integer:
        target = _d.float32 if x.dtype.size <= 2 else _d.float64
        x, y = late.cast_ops.cast(x, target), late.cast_ops.cast(y, target)
    return x, y


_TRUEDIV = errors.ScopeName("truediv")  # (TF's wrapper opens a scope of this name)


@export("math.truediv", "truediv")
def truediv(x, y, name=None):
    """Returns x / y element-wise, casting integers to floats first.

    >>> tf.truediv(tf.constant([1, 2]), 2)
    <tf.Tensor: shape=(2,), dtype=float64, numpy=array([0.5, 1. ])>
    """
    try:
        if type(x) is EagerTensor and x._data.dtype.kind in "fc" and (
                type(y) is float or type(y) is EagerTensor and y._data.dtype is x._data.dtype):
            # the hot case, floats of one dtype: no casts or checks to make
            return _divide_floats(x, y, name or "truediv")
        x, y = _division_operands(x, y, "__truediv__", hinted_operands)
        return dispatch(_REAL_DIV, (x, y), name=name or _TRUEDIV)  # TF's name in graphs
    except errors.OpError as e:  # (TF's wrapper opens a name scope)
        raise errors.scoped(e) from None
    except SymbolicCall:  # (`tensor / value` of a type with dispatch targets: as the function)
        return dispatch_call(truediv, {"x": x, "y": y, "name": name})


_divide_floats = binary(_REAL_DIV, fallback=True)


@export("math.divide", "divide", dispatch_name="math.truediv")
def divide(x, y, name=None):
    """Computes Python-style division of x by y (`x / y`).

    A non-tensor `x` takes the dtype of tensor `y`.

    >>> tf.divide(tf.constant([4.0]), 2.0)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.], dtype=float32)>
    """
    if not is_tensor_like(x) and is_tensor_like(y):
        x = convert_to_tensor(x, as_tensor(y).dtype)
    return truediv(x, y, name)


@export("math.divide_no_nan")
def divide_no_nan(x, y, name=None):
    """Returns x / y, or 0 where y is 0; integers are cast to floats as in `truediv`.

    >>> tf.math.divide_no_nan(tf.constant([3.0, 1.0]), tf.constant([2.0, 0.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 0. ], dtype=float32)>
    """
    if not is_tensor_like(x) and is_tensor_like(y):  # as `divide`: x takes y's dtype
        x = convert_to_tensor(x, as_tensor(y).dtype)
    x, y = _division_operands(x, y, "tf.math.divide_no_nan", binary_operands)
    return dispatch(_DIV_NO_NAN, (x, y), name=name)


_ABS = register("Abs", "absolute", same_shape, dtypes=FLOAT + SIGNED_INT)
_COMPLEX_ABS = register("ComplexAbs", "absolute", rules.unary_real,
                        dtypes=(_d.complex64, _d.complex128), elementwise=True)
tf_nodes[_COMPLEX_ABS] = NodeForm(types={"T": 0, "Tout": "out0"}, outputs=("y",))


@export("math.abs", "abs", "keras.backend.abs")
def abs(x, name=None):
    """Computes |x| element-wise; complex tensors give their real magnitude.

    >>> tf.abs(tf.constant([-1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    if type(x) is not EagerTensor and isinstance(x, late.sparse_tensor.SparseTensor):
        return sparse_values(abs, x, name)
    x = as_tensor(x)
    return dispatch(_COMPLEX_ABS if x.dtype.is_complex else _ABS, (x,), name=name)


# -- complex numbers --------------------------------------------------------------------------

_REAL = register("Real", "real", rules.unary_real, dtypes=COMPLEX, elementwise=True)
tf_args[_REAL] = ("input",)
_IMAG = register("Imag", "imag", rules.unary_real, dtypes=COMPLEX, elementwise=True)
tf_args[_IMAG] = ("input",)
_CONJ = register("Conj", "conj", same_shape, dtypes=COMPLEX)
tf_nodes[_CONJ] = NodeForm(outputs=("output",))
tf_args[_CONJ] = ("input",)
_ANGLE = register("Angle", "angle", rules.unary_real, dtypes=COMPLEX, elementwise=True)
tf_args[_ANGLE] = ("input",)
_COMPLEX = register(
    "Complex", lambda xp, re, im: xp.asarray(re + 1j * im).astype(
        xp.complex64 if re.dtype == xp.float32 else xp.complex128),
    lambda re, im, **_: (rules.broadcast_shapes(re.shape, im.shape),
                         _d.complex64 if re.dtype == _d.float32 else _d.complex128),
    tied=(0, 1), dtypes=(_d.float32, _d.float64))
for _op in (_REAL, _IMAG, _ANGLE):
    tf_nodes[_op] = NodeForm(types={"T": 0, "Tout": "out0"})
tf_nodes[_COMPLEX] = NodeForm(types={"T": 0, "Tout": "out0"}, outputs=("out",))
tf_args[_COMPLEX] = ("real", "imag")


def _numeric(x, message):
    x = as_tensor(x)
    if not x.dtype.is_numeric:
        raise TypeError(message.format(x.dtype))
    return x


@export("dtypes.complex", "complex")
def complex(real, imag, name=None):
    """The complex tensor ``real + imag * 1j`` (float32 parts give complex64, float64 complex128).

    >>> tf.complex(tf.constant([1.0]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=complex64, numpy=array([1.+2.j], dtype=complex64)>
    """
    real, imag = as_tensor(real), as_tensor(imag)
    if real.dtype != imag.dtype or real.dtype not in (_d.float32, _d.float64):
        raise TypeError(f"The `real` and `imag` components have incorrect types: "
                        f"{real.dtype.name} {imag.dtype.name}. They must be consistent, and one "
                        f"of [tf.float32, tf.float64]")
    return dispatch(_COMPLEX, (real, imag), name=name)


@export("math.real")
def real(input, name=None):
    """The real part of each element (a real tensor is returned as is).

    >>> tf.math.real(tf.constant([1 + 2j]))
    <tf.Tensor: shape=(1,), dtype=float64, numpy=array([1.])>
    """
    x = _numeric(input, "input must be a numeric tensor, but got tensor with dtype {}")
    return dispatch(_REAL, (x,), name=name) if x.dtype.is_complex else x


@export("math.imag")
def imag(input, name=None):
    """The imaginary part of each element (zeros for a real tensor).

    >>> tf.math.imag(tf.constant([1 + 2j]))
    <tf.Tensor: shape=(1,), dtype=float64, numpy=array([2.])>
    """
    x = as_tensor(input)
    if x.dtype.is_complex:
        return dispatch(_IMAG, (x,), name=name)
    return late.array_ops.zeros_like(x)


@export("math.conj")
def conj(x, name=None):
    """The complex conjugate of each element (a real tensor is returned as is).

    >>> tf.math.conj(tf.constant([1 + 2j]))
    <tf.Tensor: shape=(1,), dtype=complex128, numpy=array([1.-2.j])>
    """
    x = _numeric(x, "Expected numeric or variant tensor, got dtype {!r}.")
    return dispatch(_CONJ, (x,), name=name) if x.dtype.is_complex else x


@export("math.angle")
def angle(input, name=None):
    """The argument of each element: atan2(imag, real); pi for negative reals, else 0.

    >>> tf.math.angle(tf.constant([-1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3.1415927, 0.       ], dtype=float32)>
    """
    x = as_tensor(input)
    if x.dtype.is_complex:
        return dispatch(_ANGLE, (x,), name=name)
    return late.array_ops.where(less(x, 0), convert_to_tensor(np.pi, x.dtype),
                                late.array_ops.zeros_like(x))


def _sign(xp, x):
    if x.dtype.kind == "c":
        mag = xp.abs(x)
        return xp.where(mag == 0, xp.zeros((), x.dtype), x / xp.where(mag == 0, 1, mag))
    if x.dtype.kind == "V":  # bfloat16: its NumPy sign keeps -0's sign, TF's gives +0
        return xp.sign(x.astype(xp.float32)).astype(x.dtype)
    return xp.sign(x)


def _round(xp, x):
    # rint, half to even, for every float dtype (bfloat16's NumPy kind is "V", not "f")
    return x if x.dtype.kind in "iub" else xp.rint(x)


def _reg_unary(tf_name, kernel, dtypes, shape=same_shape, tf_output="y", **kw):
    """Registers an elementwise unary op (`tf_output`: TF's name of its output)."""
    op = register(tf_name, kernel, shape, dtypes=dtypes, **kw)
    tf_nodes[op] = NodeForm(outputs=(tf_output,))
    return op


_NEG = _reg_unary("Neg", "negative", SIGNED_NUMBER)
negative = unary(_NEG, "Computes -x element-wise.", sparse=True)
export("math.negative", "negative")(negative)
_sign_op = unary(_reg_unary("Sign", _sign, SIGNED_NUMBER),
                 "Returns -1, 0 or 1 for the sign of x element-wise (x / |x| for complex).")


@export("math.sign", "sign", "keras.backend.sign")
def sign(x, name=None):
    """Returns -1, 0 or 1 for the sign of x element-wise (x / |x| for complex).

    >>> tf.math.sign(tf.constant([0.0, 2.0, -3.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 0.,  1., -1.], dtype=float32)>
    """
    if type(x) is not EagerTensor and isinstance(x, late.sparse_tensor.SparseTensor):
        return sparse_values(sign, x, name)
    x = as_tensor(x)
    if x.dtype.is_complex:  # composed of ops, as TF's: it then has their gradient
        return divide_no_nan(x, _cast(abs(x), x.dtype), name=name)
    return _sign_op(x, name)
square = unary(_reg_unary("Square", "square", NUMBER), "Computes x * x element-wise.", sparse=True)
export("math.square", "square", "keras.backend.square")(square)
sqrt = unary(_reg_unary("Sqrt", "sqrt", FLOAT_COMPLEX), """Computes the square root of x.

    >>> tf.sqrt(tf.constant([4.0, 9.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
    """, sparse=True)
export("math.sqrt", "sqrt")(sqrt)
rsqrt = unary(_reg_unary("Rsqrt", float_math.rsqrt, FLOAT_COMPLEX),
              "Computes 1 / sqrt(x) element-wise.")
export("math.rsqrt")(rsqrt)
exp = unary(_reg_unary("Exp", float_math.exp, FLOAT_COMPLEX, fresh=True),
            "Computes e ** x element-wise.")
export("math.exp", "exp", "keras.backend.exp")(exp)
expm1 = unary(_reg_unary("Expm1", float_math.expm1, FLOAT_COMPLEX),
              "Computes e ** x - 1 element-wise.")
export("math.expm1")(expm1)
log = unary(_reg_unary("Log", float_math.log, FLOAT_COMPLEX, fresh=True),
            "Computes the natural log of x.")
export("math.log", "keras.backend.log")(log)
log1p = unary(_reg_unary("Log1p", float_math.log1p, FLOAT_COMPLEX),
              "Computes log(1 + x) element-wise.")
export("math.log1p")(log1p)
sin = unary(_reg_unary("Sin", float_math.sin, FLOAT_COMPLEX),
            "Computes sine element-wise.", sparse=True)
export("math.sin", "sin", "keras.backend.sin")(sin)
cos = unary(_reg_unary("Cos", float_math.cos, FLOAT_COMPLEX), "Computes cosine element-wise.")
export("math.cos", "cos", "keras.backend.cos")(cos)
tan = unary(_reg_unary("Tan", "tan", FLOAT_COMPLEX), "Computes tangent element-wise.", sparse=True)
export("math.tan", "tan")(tan)
asin = unary(_reg_unary("Asin", "arcsin", FLOAT_COMPLEX),
             "Computes arcsine element-wise.", sparse=True)
export("math.asin", "asin")(asin)
acos = unary(_reg_unary("Acos", "arccos", FLOAT_COMPLEX), "Computes arccosine element-wise.")
export("math.acos", "acos")(acos)
atan = unary(_reg_unary("Atan", "arctan", FLOAT_COMPLEX),
             "Computes arctangent element-wise.", sparse=True)
export("math.atan", "atan")(atan)
sinh = unary(_reg_unary("Sinh", "sinh", FLOAT_COMPLEX), "Computes hyperbolic sine.")
export("math.sinh", "sinh")(sinh)
cosh = unary(_reg_unary("Cosh", "cosh", FLOAT_COMPLEX), "Computes hyperbolic cosine.")
export("math.cosh", "cosh")(cosh)
tanh = unary(_reg_unary("Tanh", float_math.tanh, FLOAT_COMPLEX, fresh=True),
             "Computes hyperbolic tangent.", sparse=True)
export("math.tanh", "nn.tanh", "tanh", "keras.backend.tanh")(tanh)
asinh = unary(_reg_unary("Asinh", "arcsinh", FLOAT_COMPLEX),
              "Computes inverse hyperbolic sine.", sparse=True)
export("math.asinh", "asinh")(asinh)
acosh = unary(_reg_unary("Acosh", "arccosh", FLOAT_COMPLEX),
              "Computes inverse hyperbolic cosine.")
export("math.acosh", "acosh")(acosh)
atanh = unary(_reg_unary("Atanh", "arctanh", FLOAT_COMPLEX),
              "Computes inverse hyperbolic tangent.", sparse=True)
export("math.atanh", "atanh")(atanh)
erf = unary(_reg_unary("Erf", float_math.erf, FLOAT),
            "Computes the Gauss error function element-wise.", sparse=True)
export("math.erf")(erf)
erfc = unary(_reg_unary("Erfc", float_math.erfc, FLOAT),
             "Computes the complementary error function element-wise.")
export("math.erfc")(erfc)
def _lgamma(xp, x):
    # SciPy's gammaln(-inf) is -inf; TF's +inf, as at the other poles
    with np.errstate(invalid="ignore"):
        return xp.where(x == -xp.inf, xp.inf, special(xp, "gammaln")(x))


def _digamma(xp, x):
    # NaN at the poles (0, -0.0, negative integers, -inf), where SciPy gives +-inf at 0
    with np.errstate(invalid="ignore"):
        pole = (x <= 0) & (x == xp.floor(x))
        return xp.where(pole, xp.nan, special(xp, "psi")(x))


lgamma = unary(_reg_unary("Lgamma", _float_kernel(_lgamma), FLOAT, kernels=(_F64, _F16, _F32)),
               "Computes log(|Gamma(x)|) element-wise.")
export("math.lgamma")(lgamma)
digamma = unary(_reg_unary("Digamma", _float_kernel(_digamma), FLOAT,
                           kernels=(_F64, _F16, _F32)),
                "Computes the derivative of lgamma element-wise.")
export("math.digamma")(digamma)


# Bernoulli numbers B2, B4, ... B10 over (2j)!: the Euler-Maclaurin tail of the Hurwitz zeta.
_ZETA_TAIL = tuple(b / np.prod(np.arange(1.0, 2 * j + 1)) for j, b in enumerate(
    (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66), 1))


def _zeta_positive(xp, s, z):
    """zeta(s, z) = sum_k (z + k)^-s for s > 1 and z > 0: the terms below z = 16 (at most
    16), then the Euler-Maclaurin tail."""
    acc = xp.zeros_like(z)
    for _ in range(16):
        small = z < 16
        if not small.any():
            break
        acc += xp.where(small, xp.where(small, z, 1.0) ** -s, 0.0)
        z = xp.where(small, z + 1, z)
    total = acc + z ** (1 - s) / (s - 1) + 0.5 * z ** -s
    rising = s  # s (s + 1) ... (s + 2j - 2)
    for j, coef in enumerate(_ZETA_TAIL, 1):
        total += coef * rising * z ** (-s - 2 * j + 1)
        rising = rising * (s + 2 * j - 1) * (s + 2 * j)
    return total


def _hurwitz_zeta(xp, s, q):
    """zeta(s, q) for s > 1 with TF's values off the positive axis: at q a non-positive
    integer (or -inf) inf for even s, NaN for odd; for other q < 0, NaN unless s is an
    integer, when the terms below 0 are summed in closed form (any number of them)."""
    pole = (q <= 0) & (q == xp.floor(q))
    negative = (q < 0) & ~pole & xp.isfinite(q)
    integral = s == xp.floor(s)
    even = integral & (s % 2 == 0)
    out = xp.where(q > 0, _zeta_positive(xp, s, xp.where(q > 0, q, 1.0)), xp.nan)
    # q = r - m with 0 < r < 1: the terms (r - m + k)^-s for k < m are (-1)^s (1 - r + j)^-s,
    # j < m, which sum to (-1)^s (zeta(s, 1 - r) - zeta(s, 1 - q))
    # (summed in this order: for r = 1/2 and odd s the first two cancel exactly)
    r = xp.where(negative, q - xp.floor(q), 0.5)
    sign = xp.where(even, 1.0, -1.0)
    reflected = ((_zeta_positive(xp, s, r) + sign * _zeta_positive(xp, s, 1 - r))
                 - sign * _zeta_positive(xp, s, xp.where(negative, 1 - q, 1.0)))
    out = xp.where(negative, xp.where(integral, reflected, xp.nan), out)
    return xp.where(pole, xp.where(even, xp.inf, xp.nan), out)


def _polygamma(xp, n, x):
    """The n-th derivative of digamma: (-1)^(n+1) n! zeta(n+1, x); NaN unless n is a
    non-negative integer."""
    n64, x64 = xp.broadcast_arrays(n.astype(xp.float64), x.astype(xp.float64))
    with np.errstate(all="ignore"):
        valid = (n64 >= 0) & (n64 == xp.floor(n64))
        order = xp.where(valid & (n64 > 0), n64, 1.0)
        sign = xp.where(order % 2 == 1, 1.0, -1.0)
        higher = sign * xp.exp(special(xp, "gammaln")(order + 1)) * _hurwitz_zeta(
            xp, order + 1, x64)
        out = xp.where(n64 == 0, _digamma(xp, x64), higher)
    return xp.where(valid, out, xp.nan).astype(x.dtype)


polygamma = binary(register("Polygamma", _polygamma, rules.binary, tied=(0, 1),
                            dtypes=(_d.float32, _d.float64), elementwise=True),
                   """Computes the polygamma function psi^(a)(x), the a-th derivative of digamma.

    `a` holds non-negative integers (NaN elsewhere).

    >>> tf.math.polygamma(tf.constant([0.0, 1.0]), tf.constant([1.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.5772157,  1.644934 ], dtype=float32)>
    """, args=("a", "x"))
export("math.polygamma")(polygamma)
tf_args[_op_named("Polygamma")] = ("a", "x")


def _zeta(xp, x, q):
    """The Hurwitz zeta function, with TF's values where the series diverges (inf at x = 1
    for any q, NaN for x < 1) and at infinite x or q."""
    s, r = xp.broadcast_arrays(x.astype(xp.float64), q.astype(xp.float64))
    with np.errstate(all="ignore"):
        finite = xp.isfinite(s) & (s > 1)
        out = _hurwitz_zeta(xp, xp.where(finite, s, 2.0), r)
        # x = inf keeps the terms (q + k)^-x of base below 1: 1 at q = 1, 0 above
        out = xp.where(s == xp.inf, xp.where(r == 1, 1.0, xp.where(r > 1, 0.0, xp.inf)), out)
        out = xp.where(xp.isnan(r), xp.nan, out)
        # (the pole at x = 1 whatever q, NaN included)
        out = xp.where(s == 1, xp.inf, xp.where((s < 1) | xp.isnan(s), xp.nan, out))
    return out.astype(x.dtype)


_zeta_op = binary(register("Zeta", _zeta, rules.binary, tied=(0, 1),
                           dtypes=(_d.float32, _d.float64), elementwise=True))


@export("math.zeta")
def zeta(x, q, name=None):
    """Computes the Hurwitz zeta function zeta(x, q) = sum_k (q + k)^-x element-wise.

    >>> tf.math.zeta(tf.constant([2.0, 3.0]), tf.constant([1.0, 0.5]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.644934, 8.414398], dtype=float32)>
    """
    return _zeta_op(x, q, name)


tf_args[_op_named("Zeta")] = ("x", "q")


def _next_after(xp, x1, x2):
    return xp.nextafter(x1, x2)


_next_after_op = binary(register("NextAfter", _next_after, rules.binary, tied=(0, 1),
                                 dtypes=(_d.float64, _d.float32), elementwise=True))


@export("math.nextafter")
def nextafter(x1, x2, name=None):
    """The next representable value of `x1` in the direction of `x2`, element-wise.

    >>> tf.math.nextafter(tf.constant([1.0]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.0000001], dtype=float32)>
    """
    if not is_tensor_like(x1) and not is_tensor_like(x2):
        # as TF's op converts them: its type attr defaults to float32
        x1 = convert_to_tensor(x1, dtype_hint=_d.float32)
    return _next_after_op(x1, x2, name)


tf_args[_op_named("NextAfter")] = ("x1", "x2")
tf_nodes[_op_named("NextAfter")] = NodeForm(outputs=("output",))


# -- special functions: Bessel, incomplete gamma and beta, Fresnel, ... -----------------------
# Evaluated in float64 by `special` (SciPy when installed, else NumPy) and rounded to the
# input's dtype. TF's values at the edges of the domains, where SciPy's differ, are set here.

_SPECIAL_TYPES = (_d.bfloat16, _d.float16, _d.float32, _d.float64)  # TF's order, for messages


_WITH_HALF = (_F64, _F32, _F16)
_FLOAT_DOUBLE = _WITH_HALF[:2]


def _check_broadcast(x, y):
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        shapes = (str(list(a.shape)).replace(" ", "") for a in (x, y))
        raise errors.InvalidArgumentError(
            None, None, "Incompatible shapes: " + " vs. ".join(shapes)) from None


def _special_op(name, fn, inputs=1, kernels=_WITH_HALF, dtypes=_SPECIAL_TYPES, **kw):
    """Registers elementwise op `name` computing ``fn(xp, *float64_arrays, dtype)`` (dtype:
    the inputs' own) for the dtypes that have `kernels`."""
    def kernel(xp, *arrays):
        dtype = arrays[0].dtype
        if inputs == 2:  # SciPy and the NumPy fallbacks would word this differently
            _check_broadcast(*arrays)
        with np.errstate(all="ignore"):
            out = fn(xp, *(a.astype(xp.float64) for a in arrays), dtype)
        return xp.asarray(out).astype(dtype, copy=False)
    if inputs == 1:
        return register(name, kernel, same_shape, dtypes=dtypes, kernels=kernels, **kw)
    shape = rules.binary if inputs == 2 else _betainc_rule
    return register(name, kernel, shape, tied=tuple(range(inputs)), dtypes=dtypes,
                    kernels=kernels, elementwise=inputs == 2, **kw)


def _exp_overflows(xp, x, dtype):
    """Where TF's kernel for `dtype`, taking exp(x) in float32 (the half types' too) or
    float64, overflows: its I0, I1 and Ei are infinite there though their values fit."""
    if dtype == np.float64:
        return xp.zeros(x.shape, bool)
    return xp.isinf(xp.exp(x.astype(xp.float32)))


def _unscaled_i(scipy_name):
    """I0 or I1 from its exponentially scaled form: exp(|x|) * I_e(x); at infinity that is
    NaN (inf * 0), as in TF, and infinite where TF's exp(|x|) overflows."""
    def fn(xp, x, dtype):
        y = xp.exp(xp.abs(x)) * special(xp, scipy_name)(x)
        overflows = _exp_overflows(xp, xp.abs(x), dtype) & xp.isfinite(x)
        return xp.where(overflows, xp.copysign(xp.inf, y), y)
    return fn


def _oscillating(scipy_name, negative=None):
    """J and Y: NaN at +-inf (SciPy gives 0); Y is `negative` for x < 0 (SciPy: NaN)."""
    def fn(xp, x, dtype):
        y = xp.where(xp.isinf(x), xp.nan, special(xp, scipy_name)(x))
        return y if negative is None else xp.where(x < 0, negative, y)
    return fn


def _bessel_y1(xp, x, dtype):
    y = _oscillating("y1", -np.inf)(xp, x, dtype)
    # TF's float and half kernels give NaN at 0 where the double kernel gives -inf.
    return y if dtype == np.float64 else xp.where(x == 0, xp.nan, y)


def _decaying(scipy_name, unscale=False):
    """K from its scaled form K_e(x) (times exp(-x) when `unscale`): inf for x <= 0 as in TF
    (SciPy: NaN below 0)."""
    def fn(xp, x, dtype):
        y = special(xp, scipy_name)(x)
        return xp.where(x <= 0, xp.inf, xp.exp(-x) * y if unscale else y)
    return fn


def _expint(xp, x, dtype):
    # Ei is NaN for x < 0 (SciPy extends it there) and at +inf in TF, and infinite where
    # TF's exp(x) overflows
    y = xp.where(_exp_overflows(xp, x, dtype), xp.inf, special(xp, "expi")(x))
    return xp.where((x < 0) | (x == xp.inf), xp.nan, y)


_BESSEL_I0 = _special_op("BesselI0", _unscaled_i("i0e"))
_BESSEL_I0E = _special_op("BesselI0e", lambda xp, x, dtype: special(xp, "i0e")(x))
_BESSEL_I1 = _special_op("BesselI1", _unscaled_i("i1e"))
_BESSEL_I1E = _special_op("BesselI1e", lambda xp, x, dtype: special(xp, "i1e")(x))
_BESSEL_J0 = _special_op("BesselJ0", _oscillating("j0"))
_BESSEL_J1 = _special_op("BesselJ1", _oscillating("j1"))
_BESSEL_Y0 = _special_op("BesselY0", _oscillating("y0", -np.inf))
_BESSEL_Y1 = _special_op("BesselY1", _bessel_y1)
_BESSEL_K0 = _special_op("BesselK0", _decaying("k0e", unscale=True))
_BESSEL_K0E = _special_op("BesselK0e", _decaying("k0e"))
_BESSEL_K1 = _special_op("BesselK1", _decaying("k1e", unscale=True))
_BESSEL_K1E = _special_op("BesselK1e", _decaying("k1e"))
# (+ 0.0: TF's Dawson integral is +0 at -0 and -inf, where SciPy's keeps the sign)
_DAWSN = _special_op("Dawsn", lambda xp, x, dtype: special(xp, "dawsn")(x) + 0.0,
                     kernels=_FLOAT_DOUBLE)
_EXPINT = _special_op("Expint", _expint, kernels=_FLOAT_DOUBLE)


def _fresnel(part):
    # +-1/2 beyond 1e100, where SciPy's (and the fallback's) x^2 overflows to NaN
    def fn(xp, x, dtype):
        huge = xp.abs(x) > 1e100
        y = special(xp, "fresnel")(xp.where(huge, 0.0, x))[part]
        return xp.where(huge, xp.sign(x) * 0.5, y)
    return fn


_FRESNEL_COS = _special_op("FresnelCos", _fresnel(1), kernels=_FLOAT_DOUBLE)
_FRESNEL_SIN = _special_op("FresnelSin", _fresnel(0), kernels=_FLOAT_DOUBLE)
# Spence's function is NaN at +inf in TF.
_SPENCE = _special_op("Spence", lambda xp, x, dtype: xp.where(
    xp.isinf(x), xp.nan, special(xp, "spence")(x)), kernels=_FLOAT_DOUBLE)

bessel_i0 = unary(_BESSEL_I0, """Computes the modified Bessel function of the first kind of
    order 0, I0(x), element-wise.

    >>> tf.math.bessel_i0(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.       , 1.2660658], dtype=float32)>
    """)
export("math.bessel_i0", "math.special.bessel_i0")(bessel_i0)
bessel_i0e = unary(_BESSEL_I0E,
                   "Computes exp(-|x|) I0(x) element-wise, without overflow.", sparse=True)
export("math.bessel_i0e", "math.special.bessel_i0e")(bessel_i0e)
bessel_i1 = unary(_BESSEL_I1, "Computes the modified Bessel function I1(x) element-wise.")
export("math.bessel_i1", "math.special.bessel_i1")(bessel_i1)
bessel_i1e = unary(_BESSEL_I1E,
                   "Computes exp(-|x|) I1(x) element-wise, without overflow.", sparse=True)
export("math.bessel_i1e", "math.special.bessel_i1e")(bessel_i1e)
bessel_j0 = unary(_BESSEL_J0, """Computes the Bessel function of the first kind of order 0.

    >>> tf.math.special.bessel_j0(tf.constant([0.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.        , 0.22389078], dtype=float32)>
    """)
export("math.special.bessel_j0")(bessel_j0)
bessel_j1 = unary(_BESSEL_J1, "Computes the Bessel function of the first kind of order 1.")
export("math.special.bessel_j1")(bessel_j1)
bessel_y0 = unary(_BESSEL_Y0, "Computes the Bessel function of the second kind of order 0.")
export("math.special.bessel_y0")(bessel_y0)
bessel_y1 = unary(_BESSEL_Y1, "Computes the Bessel function of the second kind of order 1.")
export("math.special.bessel_y1")(bessel_y1)
bessel_k0 = unary(_BESSEL_K0, "Computes the modified Bessel function K0(x) (inf for x <= 0).")
export("math.special.bessel_k0")(bessel_k0)
bessel_k0e = unary(_BESSEL_K0E, "Computes exp(x) K0(x) element-wise, without underflow.")
export("math.special.bessel_k0e")(bessel_k0e)
bessel_k1 = unary(_BESSEL_K1, "Computes the modified Bessel function K1(x) (inf for x <= 0).")
export("math.special.bessel_k1")(bessel_k1)
bessel_k1e = unary(_BESSEL_K1E, "Computes exp(x) K1(x) element-wise, without underflow.")
export("math.special.bessel_k1e")(bessel_k1e)
dawsn = unary(_DAWSN, """Computes Dawson's integral exp(-x^2) int_0^x exp(t^2) dt.

    >>> tf.math.special.dawsn(tf.constant([0.5]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.4244364], dtype=float32)>
    """)
export("math.special.dawsn")(dawsn)
expint = unary(_EXPINT, "Computes the exponential integral Ei(x) (NaN for x < 0).")
export("math.special.expint")(expint)
fresnel_cos = unary(_FRESNEL_COS, "Computes the Fresnel integral int_0^x cos(pi t^2 / 2) dt.")
export("math.special.fresnel_cos")(fresnel_cos)
fresnel_sin = unary(_FRESNEL_SIN, "Computes the Fresnel integral int_0^x sin(pi t^2 / 2) dt.")
export("math.special.fresnel_sin")(fresnel_sin)
spence = unary(_SPENCE, """Computes Spence's function int_1^x log(t) / (1 - t) dt (x >= 0).

    >>> tf.math.special.spence(tf.constant([1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 0.      , -0.822467], dtype=float32)>
    """)
export("math.special.spence")(spence)
# The inverses of erf and of the normal CDF: +-inf at the ends of the domain, NaN past them.
# (TF has no CPU kernel of either for half or bfloat16)
def _erfinv(xp, x, dtype):
    if dtype != np.float32:
        return special(xp, "erfinv")(x)
    # TF's float kernel is ndtri((x + 1) * 0.5) / sqrt(2), each step in float32: x + 1
    # rounds away x's low bits near 1, which moves its values there (0.999 gives 2.326768,
    # not 2.326756)
    f32 = xp.float32
    p = (x.astype(f32) + f32(1)) * f32(0.5)
    return special(xp, "ndtri")(p.astype(xp.float64)).astype(f32) * f32(1 / np.sqrt(2))


_ERFINV = _special_op("Erfinv", _erfinv, kernels=_FLOAT_DOUBLE)
_NDTRI = _special_op("Ndtri", lambda xp, x, dtype: special(xp, "ndtri")(x), kernels=_FLOAT_DOUBLE)
erfinv = unary(_ERFINV, """Computes the inverse error function: erf(erfinv(x)) = x on (-1, 1).

    >>> tf.math.erfinv(tf.constant([0.0, 0.5])).numpy().round(6)
    array([0.      , 0.476936], dtype=float32)
    """)
export("math.erfinv")(erfinv)
ndtri = unary(_NDTRI, "Computes the inverse of the standard normal CDF (the probit function).")
export("math.ndtri")(ndtri)


@export("math.erfcinv")
def erfcinv(x, name=None):
    """The inverse of the complementary error function, ``-ndtri(x / 2) / sqrt(2)``:
    +-inf at 0 and 2, NaN outside [0, 2].

    >>> tf.math.erfcinv(tf.constant([0.5, 1.5]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 0.47693625, -0.47693625], dtype=float32)>
    """
    x = as_tensor(x)
    half = convert_to_tensor(0.5, x.dtype)
    return multiply(negative(ndtri(multiply(x, half))), convert_to_tensor(np.sqrt(0.5), x.dtype),
                    name=name)


def _igamma_kernel(which):
    """P(a, x) (`which` 0) or Q(a, x) (1) with TF's values where SciPy's differ: NaN for
    a <= 0 (P(a, 0) = 0 even then), and at a = inf P = 0, Q = 1 - [x = inf]."""
    def fn(xp, a, x, dtype):
        y = special(xp, "gammaincc" if which else "gammainc")(a, x)
        bad = (a <= 0) | (x < 0) | xp.isnan(a) | xp.isnan(x)
        if which:
            y = xp.where(xp.isinf(a), xp.where(x == xp.inf, 0.0, 1.0), y)
            return xp.where(bad, xp.nan, xp.where(x == 0, 1.0, y))
        y = xp.where(bad, xp.nan, xp.where(xp.isinf(a), 0.0, y))
        return xp.where(x == 0, 0.0, y)
    return fn


_IGAMMA = _special_op("Igamma", _igamma_kernel(0), 2, kernels=_FLOAT_DOUBLE)
tf_args[_IGAMMA] = ("a", "x")
_IGAMMAC = _special_op("Igammac", _igamma_kernel(1), 2, kernels=_FLOAT_DOUBLE)
tf_args[_IGAMMAC] = ("a", "x")
_IGAMMA_GRAD_A = _special_op(
    "IgammaGradA", lambda xp, a, x, dtype: special(xp, "gammainc_grad_a")(a, x), 2,
    kernels=_FLOAT_DOUBLE, dtypes=(_d.float32, _d.float64))
tf_args[_IGAMMA_GRAD_A] = ("a", "x")


@register_gradient("IgammaGradA")
def _igamma_grad_a_grad(op, dy):
    # TF registers no gradient for it: a second derivative in `a` is its LookupError
    raise LookupError(f"gradient registry has no entry for: {op.type}")
igamma = binary(_IGAMMA, """Computes the regularized lower incomplete gamma function P(a, x).

    >>> tf.math.igamma(tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.63212055, 0.8008517 ], dtype=float32)>
    """, args=("a", "x"))
export("math.igamma")(igamma)
igammac = binary(_IGAMMAC, "Computes the regularized upper incomplete gamma function Q(a, x).",
                 args=("a", "x"))
export("math.igammac")(igammac)
_igamma_grad_a = binary(_IGAMMA_GRAD_A, "d/da of igamma(a, x) (TF's op IgammaGradA).")


def _betainc_rule(a, b, x, **_):
    # Betainc does not broadcast: its non-scalar inputs share one shape.
    shaped = [t.shape for t in (a, b, x) if t.shape.rank]
    for other in shaped[1:]:
        if other.rank != shaped[0].rank:
            raise rules.shape_error("Betainc", f"Shapes must be equal rank, but are "
                                    f"{shaped[0].rank} and {other.rank}",
                                    [a.shape, b.shape, x.shape])
        for i, (p, q) in enumerate(zip(shaped[0], other)):
            if p is not None and q is not None and p != q:
                raise rules.shape_error(
                    "Betainc", f"Dimension {i} in both shapes must be equal, but are {p} and "
                    f"{q}. Shapes are {errors.shape_text(shaped[0])} and "
                    f"{errors.shape_text(other)}", [a.shape, b.shape, x.shape])
    shape = next((t.shape for t in (a, b, x) if t.shape.rank != 0), a.shape)
    return shape, a.dtype


def _betainc(xp, a, b, x, dtype):
    shapes = {"a": a.shape, "b": b.shape, "x": x.shape}
    for p, q in (("a", "b"), ("a", "x"), ("b", "x")):  # TF's order of checks
        if shapes[p] and shapes[q] and shapes[p] != shapes[q]:
            dims = [str(list(shapes[k])).replace(" ", "") for k in (p, q)]
            raise errors.InvalidArgumentError(None, None, f"Shapes of {p} and {q} are "
                                              f"inconsistent: {dims[0]} vs. {dims[1]}")
    y = special(xp, "betainc")(a, b, x)
    # TF's edges: NaN for a <= 0, b <= 0 or x outside [0, 1]; else 0 at x = 0 and 1 at x = 1
    # (even for NaN or infinite a and b); NaN for NaN or infinite a or b inside
    bad = (a <= 0) | (b <= 0) | ~((x >= 0) & (x <= 1))
    y = xp.where(xp.isfinite(a) & xp.isfinite(b), y, xp.nan)
    return xp.where(bad, xp.nan, xp.where(x == 0, 0.0, xp.where(x == 1, 1.0, y)))


_BETAINC = _special_op("Betainc", _betainc, 3, kernels=_FLOAT_DOUBLE,
                       dtypes=(_d.float32, _d.float64))
tf_args[_BETAINC] = ("a", "b", "x")
tf_nodes[_BETAINC] = NodeForm(outputs=("z",))


@export("math.betainc")
def betainc(a, b, x, name=None):
    """Computes the regularized incomplete beta function I_x(a, b).

    a, b and x have one shape, or are scalars; Python numbers take the first tensor's dtype
    (or the first number's).

    >>> tf.math.betainc(2.0, 3.0, tf.constant([0.5]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.6875], dtype=float32)>
    """
    # a tensor's dtype, else the first value's, is the one the others convert to, as TF's
    # op infers its type
    like = as_tensor(next((v for v in (a, b, x) if is_tensor_like(v)), a))
    a, b, x = (as_tensor(v) if is_tensor_like(v) else convert_to_tensor(v, like.dtype)
               for v in (a, b, x))
    return dispatch(_BETAINC, (a, b, x), name=name)


def _sobol_kernel(xp, dim, num_results, skip, dtype):
    dim, num_results, skip = int(dim), int(num_results), int(skip)
    for ok, message in ((dim >= 1, "dim must be at least one"),
                        (dim <= 21200, "dim must be at most 21200"),
                        (num_results >= 1, "num_results must be at least one"),
                        (skip >= 0, "skip must be non-negative")):
        if not ok:
            raise errors.InvalidArgumentError(None, None, message)
    try:
        from scipy.stats import qmc  # noqa: PLC0415 (optional: the direction numbers)
    except ImportError:
        raise NotImplementedError("sobol_sample needs SciPy (the `scipy` extra), whose "
                                  "Joe-Kuo direction numbers TF's also uses.") from None
    # TF's sequence leaves out the first point, the origin
    engine = qmc.Sobol(dim, scramble=False, bits=32)
    engine.fast_forward(skip + 1)
    with warnings.catch_warnings():  # its advice on counts that are not powers of 2
        warnings.simplefilter("ignore")
        return xp.asarray(engine.random(num_results).astype(dtype.as_numpy_dtype))


def _sobol_rule(dim, num_results, skip, dtype):
    sizes = [get_static_value(t) if is_tensor_like(t) else None for t in (num_results, dim)]
    return TensorShape([None if v is None else int(v) for v in sizes]), dtype


_SOBOL = register("SobolSample", _sobol_kernel, _sobol_rule, tied=(0, 1, 2),
                  dtypes=(_d.int32,), not_differentiable="a fixed sequence")
tf_args[_SOBOL] = ("dim", "num_results", "skip")
tf_nodes[_SOBOL] = NodeForm(types={}, outputs=("samples",))
tf_defaults[_SOBOL] = {"dtype": _d.float32}
batching_rules.assign(PER_ELEMENT, _SOBOL)


@export("math.sobol_sample")
def sobol_sample(dim, num_results, skip=0, dtype=_d.float32, name=None):
    """`num_results` points of the `dim`-dimensional Sobol sequence after the first `skip`
    (and the origin), as TF's: ``[num_results, dim]`` in [0, 1).

    >>> tf.math.sobol_sample(2, 3)
    <tf.Tensor: shape=(3, 2), dtype=float32, numpy=
    array([[0.5 , 0.5 ],
           [0.75, 0.25],
           [0.25, 0.75]], dtype=float32)>
    """
    dtype = _d.as_dtype(dtype)
    if dtype not in (_d.float32, _d.float64):
        raise attr_dtype_error("SobolSample", "dtype", dtype, (_d.float32, _d.float64))
    # (tensors go to the op as they are, which checks that they are int32 as TF's does)
    args = tuple(as_tensor(v) if is_tensor_like(v) else convert_to_tensor(v, _d.int32)
                 for v in (dim, num_results, skip))
    return dispatch(_SOBOL, args, {"dtype": dtype}, name)


# -- bucketizing by sorted boundaries ----------------------------------------------------------

def _bucketize_kernel(xp, x, boundaries):
    # TF's attr is a list of float32; each value finds its upper bound among them as C++'s
    # std::upper_bound does (a binary search comparing ``value < boundary``), so a NaN value
    # or boundary goes where that search takes it, not where a sort would put it.
    bounds = np.asarray(boundaries, np.float32)
    if (bounds[1:] < bounds[:-1]).any():
        raise errors.InvalidArgumentError(None, None, "Expected sorted boundaries")
    values = x if x.dtype.kind == "f" else x.astype(np.float32)  # (ints compare as floats)
    bounds = xp.asarray(bounds.astype(values.dtype))
    first = xp.zeros(values.shape, np.int64)
    count = xp.full(values.shape, bounds.size, np.int64)
    while bounds.size and count.any():
        step = count // 2
        probe = first + step
        later = (count > 0) & ~(values < bounds[xp.minimum(probe, bounds.size - 1)])
        first = xp.where(later, probe + 1, first)
        count = xp.where(later, count - step - 1, step)
    return first.astype(np.int32)


_BUCKETIZE = register("Bucketize", _bucketize_kernel, rules.unary_to(_d.int32),
                      dtypes=(_d.int32, _d.int64, _d.float32, _d.float64),
                      input_names=("input",), not_differentiable="integer output",
                      elementwise=True)
tf_args[_BUCKETIZE] = ("input",)
tf_nodes[_BUCKETIZE] = NodeForm(outputs=("output",))


def bucketize(x, boundaries, name=None):
    """The index of the bucket of each value of `x`: how many of the sorted `boundaries` are
    not above it (int32), as TF's Bucketize op (``tf.raw_ops.Bucketize``).

    >>> bucketize([-1.0, 0.0, 2.5, 9.0], [0.0, 1.0, 5.0]).numpy()
    array([0, 1, 2, 3], dtype=int32)
    """
    boundaries = tuple(float(b) for b in boundaries)
    return dispatch(_BUCKETIZE, (as_tensor(x),), {"boundaries": boundaries}, name)


@export("math.lbeta")
def lbeta(x, name=None):
    """Computes log|B(x)| = sum(lgamma(x)) - lgamma(sum(x)) over the last dimension.

    An empty last dimension gives -inf.

    >>> tf.math.lbeta(tf.constant([[1.0, 2.0], [0.5, 0.5]]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.6931472,  1.1447299], dtype=float32)>
    """
    x = as_tensor(x)
    return subtract(late.reduction_ops.reduce_sum(lgamma(x), axis=[-1]),
                    lgamma(late.reduction_ops.reduce_sum(x, axis=[-1])), name=name)


sigmoid = unary(_reg_unary("Sigmoid", float_math.sigmoid, FLOAT_COMPLEX, fresh=True),
                """Computes 1 / (1 + exp(-x)).

    >>> tf.sigmoid(tf.constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """, listed=False)  # (TF's converts x first)
export("math.sigmoid", "nn.sigmoid", "sigmoid", "keras.backend.sigmoid")(sigmoid)
softplus = unary(_reg_unary("Softplus", float_math.softplus, NN_FLOAT, tf_output="activations"),
                 "Computes log(exp(features) + 1).", arg="features")
export("math.softplus", "nn.softplus")(softplus)
tf_args[_op_named("Softplus")] = ("features",)
# the op allows complex types and small integers, but no CPU kernel takes them
_round_op = unary(_reg_unary("Round", _round, SIGNED_NUMBER,
                             kernels=(_d.int64, _d.int32, _BF16, _F64, _F32, _F16)))


@export("math.round", "round", "keras.backend.round")
def round(x, name=None):  # noqa: A001
    """Rounds half to even element-wise (banker's rounding); integers come back unchanged.

    >>> tf.round(tf.constant([0.5, 1.5, 2.5, -2.6]))
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([ 0.,  2.,  2., -3.], dtype=float32)>
    """
    x = as_tensor(x)
    if x.dtype.is_integer:  # as TF: no op at all (so unsigned integers too)
        return x
    return _round_op(x, name=name)
floor = unary(_reg_unary("Floor", "floor", FLOAT), "Returns the largest integer <= x.")
export("math.floor", "floor")(floor)
ceil = unary(_reg_unary("Ceil", "ceil", FLOAT), "Returns the smallest integer >= x.")
export("math.ceil")(ceil)
rint = unary(_reg_unary("Rint", "rint", FLOAT, kernels=(_F64, _F32)),
             "Returns the closest integer to x, half to even.")
export("math.rint")(rint)
def _reciprocal(xp, x):
    if x.dtype.kind == "c":  # TF divides 1 by x as its complex division does
        return _complex_quotient(xp, xp.ones_like(x), x)
    return float_math.reciprocal(xp, x)


reciprocal = unary(_reg_unary("Reciprocal", _reciprocal, SIGNED_NUMBER,
                              kernels=(_d.complex128, _d.complex64, _F64, _BF16, _F16, _F32)),
                   "Computes 1 / x element-wise.")
export("math.reciprocal")(reciprocal)
is_nan = unary(_reg_unary("IsNan", "isnan", FLOAT, shape=rules.unary_to(_d.bool),
                          not_differentiable="boolean output"), "True where x is NaN.")
export("math.is_nan")(is_nan)
is_inf = unary(_reg_unary("IsInf", "isinf", FLOAT, shape=rules.unary_to(_d.bool),
                          not_differentiable="boolean output"), "True where x is +-inf.")
export("math.is_inf")(is_inf)
is_finite = unary(_reg_unary("IsFinite", "isfinite", FLOAT, shape=rules.unary_to(_d.bool),
                             not_differentiable="boolean output"), "True where x is finite.")
export("math.is_finite")(is_finite)

# -- gradients of unary functions from their output y, as ops of their own -------------------
# One op where the composite takes three or four, with one new array written in place: a
# recurrent layer runs the sigmoid and tanh gradients at every step.

def _sigmoid_grad(xp, y, dy):
    out = xp.asarray(xp.subtract(1, y))  # an array even for 0-d input, for the in-place steps
    out *= y
    out *= dy
    return out


def _tanh_grad(xp, y, dy):
    out = xp.asarray(xp.multiply(y, y))
    xp.subtract(1, out, out=out)
    out *= dy
    return out


def _zero_where_dy_zero(xp, out, dy):
    # TF's Sqrt/Rsqrt/Reciprocal gradients are exactly 0 where dy is 0, even where the
    # derivative itself is infinite (y at 0 or inf): an unused branch gives no NaN.
    zero = dy == 0
    if xp.any(zero):
        out = xp.where(zero, xp.zeros((), out.dtype), out)
    return out


def _sqrt_grad(xp, y, dy):
    # A scalar of y's own type: ufunc dtype= has no loop for ml_dtypes' bfloat16.
    out = xp.asarray(xp.multiply(dy, y.dtype.type(0.5)))
    out /= y
    return _zero_where_dy_zero(xp, out, dy)


def _rsqrt_grad(xp, y, dy):
    out = xp.asarray(xp.multiply(y, y))
    out *= y
    out *= dy
    out *= -0.5
    return _zero_where_dy_zero(xp, out, dy)


def _reciprocal_grad(xp, y, dy):
    out = xp.asarray(xp.multiply(y, y))
    out *= dy
    return _zero_where_dy_zero(xp, xp.negative(out, out=out), dy)


def _reg_unary_grad(tf_name, kernel, **kw):
    """Registers ``kernel(xp, y, dy)``: y is the function's output, dy the upstream gradient."""
    return register(tf_name, kernel, same_shape, tied=(0, 1), dtypes=FLOAT_COMPLEX, **kw)


sigmoid_grad = binary(_reg_unary_grad("SigmoidGrad", _sigmoid_grad, fresh=True),
                      """The gradient of `sigmoid` from its output y: dy * y * (1 - y).

    >>> sigmoid_grad(tf.constant([0.5]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """)
tanh_grad = binary(_reg_unary_grad("TanhGrad", _tanh_grad, fresh=True),
                   """The gradient of `tanh` from its output y: dy * (1 - y * y).

    >>> tanh_grad(tf.constant([0.5]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.5], dtype=float32)>
    """)
sqrt_grad = binary(_reg_unary_grad("SqrtGrad", _sqrt_grad),
                   """The gradient of `sqrt` from its output y: 0.5 * dy / y (0 where dy is 0).

    >>> sqrt_grad(tf.constant([0.5]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.], dtype=float32)>
    """)
rsqrt_grad = binary(_reg_unary_grad("RsqrtGrad", _rsqrt_grad, fresh=True),
                    """The gradient of `rsqrt` from its output y: dy * -0.5 * y ** 3.

    >>> rsqrt_grad(tf.constant([0.5]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([-0.125], dtype=float32)>
    """)
reciprocal_grad = binary(_reg_unary_grad("ReciprocalGrad", _reciprocal_grad,
                                                  fresh=True),
                         """The gradient of `reciprocal` from its output y: -dy * y * y.

    >>> reciprocal_grad(tf.constant([0.5]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([-0.5], dtype=float32)>
    """)
tf_args.assign(("y", "dy"), *map(_op_named, ("SigmoidGrad", "TanhGrad", "SqrtGrad",
                                     "RsqrtGrad", "ReciprocalGrad")))

# -- TF's older names of ops above, which graphs and ``tf.raw_ops`` calls still use ----------
# (Inv is Reciprocal, InvGrad ReciprocalGrad, Mod TruncateMod, failing as FloorMod does on an
# integer divided by zero)
_INV = _reg_unary("Inv", _reciprocal, SIGNED_NUMBER,
                  kernels=(_d.complex128, _d.complex64, _BF16, _F64, _F16, _F32))
_inv_grad = binary(_reg_unary_grad("InvGrad", _reciprocal_grad, fresh=True))
tf_args[_op_named("InvGrad")] = ("y", "dy")
_MOD = register("Mod", _int_division(lambda xp, x, y: xp.fmod(x, y)), rules.binary, tied=(0, 1),
                dtypes=(_d.int32, _d.int64, _F16, _BF16, _F32, _F64),
                kernels=(_F64, _F32, _d.int64, _d.int32), elementwise=True)
no_gradient_entry("Mod")


def _approximate_equal(xp, x, y, tolerance=1e-5):
    if x.shape != y.shape:
        raise errors.InvalidArgumentError(
            None, None, f"x and y must be of the same shape. x shape: "
            f"{errors.shape_text(x.shape)}. y shape: {errors.shape_text(y.shape)}")
    # (the tolerance in the operands' dtype, as TF's kernel compares)
    return xp.abs(x - y) < xp.asarray(tolerance, x.dtype)


def _approximate_equal_rule(x, y, tolerance=1e-5):
    if not x.shape.is_compatible_with(y.shape):
        raise rules.shape_error("ApproximateEqual", f"Shapes {x.shape} and {y.shape} are not "
                          "compatible", [x.shape, y.shape])
    return x.shape.merge_with(y.shape), _d.bool


_APPROXIMATE_EQUAL = register("ApproximateEqual", _approximate_equal, _approximate_equal_rule,
                              tied=(0, 1), dtypes=NUMBER_TYPES, kernels=(_F64, _F32),
                              not_differentiable="boolean output")
tf_defaults[_APPROXIMATE_EQUAL] = {"tolerance": 1e-5}
batching_rules[_APPROXIMATE_EQUAL] = PER_ELEMENT  # (its operands' shapes must be equal)


@export("math.log_sigmoid")
def log_sigmoid(x, name=None):
    """Computes log(sigmoid(x)) = -softplus(-x), stable for large |x|.

    >>> tf.math.log_sigmoid(tf.constant([0.0, -100.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([  -0.6931472, -100.       ], dtype=float32)>
    """
    return negative(softplus(negative(as_tensor(x))), name=name)  # (TF converts x first)


@export("math.reciprocal_no_nan")
def reciprocal_no_nan(x, name=None):
    """Computes 1 / x, or 0 where x is 0 (floating and complex tensors).

    >>> tf.math.reciprocal_no_nan(tf.constant([2.0, 0.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0. ], dtype=float32)>
    """
    x = as_tensor(x)
    return dispatch(_DIV_NO_NAN, (convert_to_tensor(1, x.dtype), x), name=name)


@export("math.scalar_mul", "scalar_mul", dispatch_name="compat.v1.math.scalar_mul")
def scalar_mul(scalar, x, name=None):
    """Multiplies `x` by `scalar`, a 0-D value converted to x's dtype.

    >>> tf.scalar_mul(2, tf.constant([1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>
    """
    x = as_tensor(x)
    scalar = convert_to_tensor(scalar, x.dtype)
    if scalar.shape.rank != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {scalar.shape}.")
    return multiply(scalar, x, name=name)


@export("math.zero_fraction", "nn.zero_fraction")
def zero_fraction(value, name=None):
    """The fraction of elements of `value` that are zero (False, empty strings), as float32
    (NaN when empty).

    >>> tf.math.zero_fraction(tf.constant([0, 1, 0, 3]))
    <tf.Tensor: shape=(), dtype=float32, numpy=0.5>
    """
    value = as_tensor(value)
    zero = late.array_ops.zeros((), value.dtype)  # (False for bools, b"" for strings)
    zeros = late.cast_ops.cast(equal(value, zero), _d.float32)
    return late.reduction_ops.reduce_mean(zeros, name=name)


def _consecutive(x, compare):
    """True when `compare` holds for every pair of consecutive elements of flattened `x`."""
    x = as_tensor(x)
    if not x.dtype.is_numeric:
        raise TypeError(f"Expected x to be numeric, instead found: {x!s}")
    flat = late.array_ops.reshape(x, [-1])
    return late.reduction_ops.reduce_all(compare(flat[:-1], flat[1:]))


@export("math.is_non_decreasing")
def is_non_decreasing(x, name=None):
    """True when each element of flattened `x` is <= the next (True for < 2 elements).

    >>> tf.math.is_non_decreasing([1, 1, 2])
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    return _consecutive(x, less_equal)


@export("math.is_strictly_increasing")
def is_strictly_increasing(x, name=None):
    """True when each element of flattened `x` is < the next (True for < 2 elements).

    >>> tf.math.is_strictly_increasing([1, 1, 2])
    <tf.Tensor: shape=(), dtype=bool, numpy=False>
    """
    return _consecutive(x, less)


@export("math.polyval")
def polyval(coeffs, x, name=None):
    """Evaluates the polynomial with `coeffs` (highest power first) at `x`, by Horner's rule.

    >>> tf.math.polyval([1.0, 2.0, 3.0], 2.0)
    <tf.Tensor: shape=(), dtype=float32, numpy=11.0>
    """
    if not isinstance(coeffs, list):  # as TF: a tensor of coefficients is refused
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = as_tensor(x)
    if not coeffs:
        return late.array_ops.zeros_like(x, name=name)
    result = as_tensor(coeffs[0])
    for c in coeffs[1:]:
        result = add(c, multiply(result, x))
    return result


def _invert_permutation(xp, x):
    if x.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "invert_permutation expects a 1D vector.")
    n = x.shape[0]
    bad = (x < 0) | (x >= n)
    if xp.any(bad):
        i = int(xp.argmax(bad))
        raise errors.InvalidArgumentError(None, None, f"{int(x[i])} is not between 0 and {n}")
    out = xp.full(n, -1, x.dtype)
    out[x] = xp.arange(n, dtype=x.dtype)
    if xp.any(out < 0):  # some value was written twice, so another never was
        counts = xp.bincount(x, minlength=n)
        raise errors.InvalidArgumentError(
            None, None, f"{int(xp.argmax(counts > 1))} is duplicated in the input.")
    return out


def _invert_permutation_rule(x, **_):
    rules.check_rank("InvertPermutation", [x], 0, rank=1)
    return x.shape.with_rank(1), x.dtype


_INVERT_PERMUTATION = register("InvertPermutation", _invert_permutation,
                               _invert_permutation_rule, dtypes=(_d.int32, _d.int64),
                               not_differentiable="integer permutation")
tf_nodes[_INVERT_PERMUTATION] = NodeForm(outputs=("y",))
tf_args[_INVERT_PERMUTATION] = ("x",)


@export("math.invert_permutation")
def invert_permutation(x, name=None):
    """The inverse of permutation `x` (a vector holding 0..n-1 once each): y[x[i]] = i.

    >>> tf.math.invert_permutation([3, 4, 0, 2, 1])
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([2, 4, 3, 0, 1], dtype=int32)>
    """
    try:
        return dispatch(_INVERT_PERMUTATION, (as_tensor(x),), name=name)
    except errors.OpError as e:
        raise errors.listed(e, x) from None


# -- gradients ---------------------------------------------------------------------------
# Written with the public ops so outer tapes record them (higher-order derivatives).
# Broadcast inputs are reduced to their shapes by the backprop loop, not here.

def _grad(name):
    return register_gradient(name)


@_grad("AddV2")
@_grad("Add")
def _add_grad(op, dy):
    return dy, dy


@_grad("Sub")
def _sub_grad(op, dy):
    return dy, negative(dy) if op.needs(1) else None


@_grad("Mul")
def _mul_grad(op, dy):
    x, y = _conj_inputs(op)
    return (multiply(dy, y) if op.needs(0) else None,
            multiply(x, dy) if op.needs(1) else None)


@_grad("RealDiv")
def _real_div_grad(op, dy):
    x, y = _conj_inputs(op)
    return (realdiv(dy, y) if op.needs(0) else None,
            multiply(dy, realdiv(realdiv(negative(x), y), y)) if op.needs(1) else None)


register_gradient("Div")(_real_div_grad)  # (the same formula: integers have no gradient)


@_grad("DivNoNan")
def _div_no_nan_grad(op, dy):
    x, y = _conj_inputs(op)
    return divide_no_nan(dy, y), multiply(dy, divide_no_nan(divide_no_nan(negative(x), y), y))


@_grad("MulNoNan")
def _mul_no_nan_grad(op, dy):
    x, y = op.inputs
    return multiply_no_nan(dy, y), multiply_no_nan(x, dy)


def _mod_grad(divide):
    """x mod y = x - divide(x, y) * y, with `divide` piecewise constant."""
    def grad(op, dy):
        x, y = op.inputs
        return dy, multiply(dy, negative(divide(x, y)))
    return grad


register_gradient("FloorMod")(_mod_grad(floordiv))


@_grad("Pow")
def _pow_grad(op, dy):
    x, y = _conj_inputs(op)
    z = conj(op.outputs)
    # (dy * y) * x**(y - 1), as TF associates it and names it (``pow_grad/mul_1``)
    dx = multiply(multiply(dy, y, name="mul"), pow(x, subtract(y, 1, name="sub")), name="mul")
    if not op.needs(1):  # most often a constant exponent
        return dx, None
    # d/dy x**y = x**y log(x), taken as 0 where log(x) is undefined
    positive = greater(x, 0) if not x.dtype.is_complex else not_equal(x, 0)
    safe_x = _where(positive, x, _ones_like(x))
    log_x = _where(positive, log(safe_x), _zeros_like(x))
    return dx, multiply(multiply(dy, z, name="mul"), log_x, name="mul")


def _select_grad(mask_fn):
    def grad(op, dy):
        x, y = op.inputs
        mask = mask_fn(x, y)
        zeros = _zeros_like(dy)
        return _where(mask, dy, zeros), _where(mask, zeros, dy)
    return grad


register_gradient("Maximum")(_select_grad(greater_equal))
register_gradient("Minimum")(_select_grad(less_equal))


@_grad("SquaredDifference")
def _squared_difference_grad(op, dy):
    x, y = op.inputs
    d = multiply(multiply(dy, 2.0), subtract(x, y))
    return d, negative(d)


@_grad("Atan2")
def _atan2_grad(op, dy):
    y, x = op.inputs
    inv = reciprocal(add(square(x), square(y)))
    return multiply(dy, multiply(x, inv)), multiply(dy, multiply(negative(y), inv))


def _unary_grad(name, fn):
    """Registers d/dx of a unary op as ``fn(x, y, dy)`` (y: the op's output).

    Complex x and y arrive conjugated: through a holomorphic f a real loss has the gradient
    dy * conj(f'(x)), which is f'(conj(x)) for these functions (real power series).
    """
    def grad(op, dy):
        x, y = op.inputs[0], op.outputs
        return fn(conj(x), conj(y), dy) if x.dtype.is_complex else fn(x, y, dy)
    register_gradient(name)(grad)


_unary_grad("Neg", lambda x, y, dy: negative(dy))
_unary_grad("Abs", lambda x, y, dy: multiply(dy, sign(x)))
_unary_grad("Square", lambda x, y, dy: multiply(dy, multiply(x, 2.0)))
_unary_grad("Sqrt", lambda x, y, dy: sqrt_grad(y, dy))
_unary_grad("Rsqrt", lambda x, y, dy: rsqrt_grad(y, dy))
_unary_grad("Exp", lambda x, y, dy: multiply(dy, y))
_unary_grad("Expm1", lambda x, y, dy: multiply(dy, exp(x)))
_unary_grad("Log", lambda x, y, dy: multiply(dy, reciprocal(x)))
_unary_grad("Log1p", lambda x, y, dy: multiply(dy, reciprocal(add(x, 1.0))))
_unary_grad("Sin", lambda x, y, dy: multiply(dy, cos(x)))
_unary_grad("Cos", lambda x, y, dy: negative(multiply(dy, sin(x))))
_unary_grad("Tan", lambda x, y, dy: multiply(dy, square(reciprocal(cos(x)))))
_unary_grad("Asin", lambda x, y, dy: multiply(dy, rsqrt(subtract(1.0, square(x)))))
_unary_grad("Acos", lambda x, y, dy: negative(multiply(dy, rsqrt(subtract(1.0, square(x))))))
_unary_grad("Atan", lambda x, y, dy: multiply(dy, reciprocal(add(square(x), 1.0))))
_unary_grad("Sinh", lambda x, y, dy: multiply(dy, cosh(x)))
_unary_grad("Cosh", lambda x, y, dy: multiply(dy, sinh(x)))
_unary_grad("Tanh", lambda x, y, dy: tanh_grad(y, dy))
_unary_grad("Asinh", lambda x, y, dy: multiply(dy, reciprocal(cosh(y))))
_unary_grad("Acosh", lambda x, y, dy: multiply(dy, reciprocal(sinh(y))))
_unary_grad("Atanh", lambda x, y, dy: multiply(dy, reciprocal(subtract(1.0, square(x)))))
_unary_grad("Erf", lambda x, y, dy: multiply(dy, multiply(exp(negative(square(x))),
                                                          2.0 / np.sqrt(np.pi))))
_unary_grad("Erfc", lambda x, y, dy: multiply(dy, multiply(exp(negative(square(x))),
                                                           -2.0 / np.sqrt(np.pi))))
_unary_grad("Lgamma", lambda x, y, dy: multiply(dy, digamma(x)))
_unary_grad("Sigmoid", lambda x, y, dy: sigmoid_grad(y, dy))
_unary_grad("Softplus", lambda x, y, dy: multiply(dy, sigmoid(x)))
_unary_grad("Reciprocal", lambda x, y, dy: reciprocal_grad(y, dy))
_unary_grad("Inv", lambda x, y, dy: _inv_grad(y, dy))


def _unary_grad_grad(name, fn):
    """Registers the gradient of a unary function's gradient op ``name(y, dy)`` as
    ``fn(y, dy, ddz) -> (d/dy, d/d(dy))``, y and dy conjugated for complex types."""
    def grad(op, ddz):
        y, dy = _conj_inputs(op)
        return fn(y, dy, ddz)
    register_gradient(name)(grad)


# z = dy * y * (1 - y): dz/dy = dy * (1 - 2y), dz/d(dy) = y * (1 - y)
_unary_grad_grad("SigmoidGrad", lambda y, dy, ddz: (
    multiply(multiply(ddz, dy), subtract(1.0, multiply(y, 2.0))), sigmoid_grad(y, ddz)))
# z = dy * (1 - y^2): dz/dy = -2 y dy
_unary_grad_grad("TanhGrad", lambda y, dy, ddz: (
    multiply(multiply(ddz, dy), multiply(y, -2.0)), tanh_grad(y, ddz)))
# z = 0.5 dy / y: dz/dy = -z / y, dz/d(dy) = 0.5 / y; as TF's, ddz / y first (NaN where
# y is 0 even when ddz is: no zero rule here, unlike the first derivative's)
_unary_grad_grad("SqrtGrad", lambda y, dy, ddz: (
    negative(multiply(realdiv(ddz, y), sqrt_grad(y, dy))), multiply(realdiv(ddz, y), 0.5)))
# z = -0.5 dy y^3: dz/dy = -1.5 dy y^2
_unary_grad_grad("RsqrtGrad", lambda y, dy, ddz: (
    multiply(multiply(ddz, dy), multiply(square(y), -1.5)), rsqrt_grad(y, ddz)))
# z = -dy y^2: dz/dy = -2 dy y
_unary_grad_grad("ReciprocalGrad", lambda y, dy, ddz: (
    multiply(multiply(ddz, dy), multiply(y, -2.0)), reciprocal_grad(y, ddz)))
_unary_grad_grad("InvGrad", lambda y, dy, ddz: (
    multiply(multiply(ddz, dy), multiply(y, -2.0)), _inv_grad(y, ddz)))


def _conj_inputs(op):
    x, y = op.inputs
    return (conj(x), conj(y)) if x.dtype.is_complex else (x, y)


def _where(cond, x, y):
    return late.array_ops.where(cond, x, y)


def _zeros_like(x):
    return late.array_ops.zeros_like(x)


def _ones_like(x):
    return late.array_ops.ones_like(x)


for _name in ("FloorDiv", "TruncateDiv", "Floor", "Ceil", "Round", "Rint"):
    register_gradient(_name)(lambda op, dy: (None,) * len(op.inputs))  # piecewise constant
_unary_grad("Sign", lambda x, y, dy: _zeros_like(x))
_unary_grad("Conj", lambda x, y, dy: conj(dy))



def _present(x):
    """1 where x is nonzero, else 0, in x's dtype: the x-partials of Xlogy and its kin are 0
    where x is 0, as the ops define their value there."""
    return _cast(not_equal(x, _zeros_like(x)), x.dtype)


def _cast(x, dtype):
    return late.cast_ops.cast(x, dtype)


# TF's gradients of Xlogy, Xlog1py and Xdivy do not conjugate complex inputs (unlike those of
# Mul, Div or Log): the partials are those of the holomorphic function itself, as here.
@_grad("Xlogy")
def _xlogy_grad(op, dy):
    x, y = op.inputs
    return multiply(dy, xlogy(_present(x), y)), multiply(dy, xdivy(x, y))


@_grad("Xlog1py")
def _xlog1py_grad(op, dy):
    x, y = op.inputs
    return multiply(dy, xlog1py(_present(x), y)), multiply(dy, xdivy(x, add(y, 1.0)))


@_grad("Xdivy")
def _xdivy_grad(op, dy):
    x, y = op.inputs
    return (multiply(dy, xdivy(_present(x), y)),
            multiply(dy, xdivy(negative(x), square(y))))


register_gradient("TruncateMod")(_mod_grad(truncatediv))


# Complex parts: a real loss L of z = a + bi has the gradient dL/da + i dL/db.
@_grad("Complex")
def _complex_grad(op, dz):
    return real(dz), imag(dz)


def _complex_part_grad(name, fn):
    """Registers the gradient ``fn(z, y, dy)`` of a real function of complex z (not
    holomorphic: z is used as is)."""
    register_gradient(name)(lambda op, dy: fn(op.inputs[0], op.outputs, dy))


def _as_complex(x):
    return complex(x, _zeros_like(x))


_complex_part_grad("Real", lambda z, y, dy: _as_complex(dy))
_complex_part_grad("Imag", lambda z, y, dy: complex(_zeros_like(dy), dy))
_complex_part_grad("ComplexAbs", lambda z, y, dy: divide_no_nan(
    multiply(_as_complex(dy), z), _as_complex(y)))
# d angle = (a db - b da) / |z|^2, i.e. -dy / conj(i z) as a complex gradient
_complex_part_grad("Angle", lambda z, y, dy: negative(multiply(
    _as_complex(dy), reciprocal(complex(imag(z), real(z))))))


@_grad("Polygamma")
def _polygamma_grad(op, dy):
    a, x = op.inputs
    return None, multiply(dy, polygamma(add(a, 1.0), x))  # the order is a discrete index


@_grad("Zeta")
def _zeta_grad(op, dy):
    x, q = op.inputs  # TF gives no gradient for x
    return None, multiply(dy, multiply(negative(x), zeta(add(x, 1.0), q)))


@_grad("NextAfter")
def _next_after_grad(op, dy):
    # TF's: the identity for x1, zero for x2
    return dy, _zeros_like(dy)


_unary_grad("Digamma", lambda x, y, dy: multiply(dy, polygamma(_ones_like(x), x)))


# Special functions. Where a formula has a removable singularity at 0 (x/x), TF takes the
# limit there.
def _at_zero(x, limit, value):
    return _where(equal(x, 0.0), multiply(_ones_like(x), limit), value)


_unary_grad("BesselI0", lambda x, y, dy: multiply(dy, bessel_i1(x)))
_unary_grad("BesselI0e", lambda x, y, dy: multiply(dy, subtract(bessel_i1e(x),
                                                                 multiply(sign(x), y))))
# TF takes 1 at 0 (the limit of I0(x) - I1(x)/x is 1/2)
_unary_grad("BesselI1", lambda x, y, dy: multiply(dy, _at_zero(
    x, 1.0, subtract(bessel_i0(x), realdiv(y, x)))))
_unary_grad("BesselI1e", lambda x, y, dy: multiply(dy, _at_zero(
    x, 0.5, subtract(bessel_i0e(x), multiply(y, add(sign(x), reciprocal(x)))))))
_unary_grad("BesselJ0", lambda x, y, dy: negative(multiply(dy, bessel_j1(x))))
_unary_grad("BesselJ1", lambda x, y, dy: multiply(dy, _at_zero(
    x, 0.5, subtract(bessel_j0(x), realdiv(y, x)))))
_unary_grad("BesselY0", lambda x, y, dy: negative(multiply(dy, bessel_y1(x))))
_unary_grad("BesselY1", lambda x, y, dy: multiply(dy, subtract(bessel_y0(x), realdiv(y, x))))
_unary_grad("BesselK0", lambda x, y, dy: negative(multiply(dy, bessel_k1(x))))
_unary_grad("BesselK0e", lambda x, y, dy: multiply(dy, subtract(y, bessel_k1e(x))))
_unary_grad("BesselK1", lambda x, y, dy: negative(multiply(dy, add(bessel_k0(x),
                                                                    realdiv(y, x)))))
_unary_grad("BesselK1e", lambda x, y, dy: multiply(dy, subtract(
    multiply(y, subtract(1.0, reciprocal(x))), bessel_k0e(x))))
_unary_grad("Dawsn", lambda x, y, dy: multiply(dy, subtract(1.0, multiply(multiply(x, y), 2.0))))
_unary_grad("Expint", lambda x, y, dy: multiply(dy, realdiv(exp(x), x)))
_unary_grad("FresnelCos", lambda x, y, dy: multiply(dy, cos(multiply(square(x), np.pi / 2))))
_unary_grad("FresnelSin", lambda x, y, dy: multiply(dy, sin(multiply(square(x), np.pi / 2))))
# erfinv' = sqrt(pi) / 2 exp(y^2), ndtri' = sqrt(2 pi) exp(y^2 / 2) (y: the op's output)
_unary_grad("Erfinv", lambda x, y, dy: multiply(dy, multiply(exp(square(y)), np.sqrt(np.pi) / 2)))
_unary_grad("Ndtri", lambda x, y, dy: multiply(dy, multiply(
    exp(multiply(square(y), 0.5)), np.sqrt(2 * np.pi))))
# d/dx spence(x) = log(x) / (1 - x), -1 in the limit x -> 1
_unary_grad("Spence", lambda x, y, dy: multiply(dy, _where(
    equal(x, _ones_like(x)), negative(_ones_like(x)), realdiv(log(x), subtract(1.0, x)))))


def _igamma_partials(op):
    """(dP/da, dP/dx) of the lower incomplete gamma function, each only where needed; the
    x-partial x^(a-1) e^-x / Gamma(a) is taken in log space against overflow."""
    a, x = op.inputs
    da = _igamma_grad_a(a, x) if op.needs(0) else None
    dx = exp(subtract(multiply(subtract(a, 1.0), log(x)), add(x, lgamma(a)))) \
        if op.needs(1) else None
    return da, dx


@_grad("Igamma")
def _igamma_grad(op, dy):
    return tuple(None if p is None else multiply(dy, p) for p in _igamma_partials(op))


@_grad("Igammac")
def _igammac_grad(op, dy):  # Q = 1 - P
    return tuple(None if p is None else negative(multiply(dy, p)) for p in _igamma_partials(op))


@_grad("Betainc")
def _betainc_grad(op, dy):
    # TF differentiates only x: x^(a-1) (1-x)^(b-1) / B(a, b), in log space; xlogy and
    # xlog1py make the partial 1 (not NaN) at x = 0 or 1 when a or b is 1.
    a, b, x = op.inputs
    log_beta = subtract(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))
    return None, None, multiply(dy, exp(subtract(
        add(xlog1py(subtract(b, 1.0), negative(x)), xlogy(subtract(a, 1.0), x)), log_beta)))


name_functions(globals())


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _COMPLEX, _BETAINC, _INVERT_PERMUTATION)
