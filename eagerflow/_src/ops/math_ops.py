"""Elementwise math: arithmetic, comparisons, logic and unary functions.

Each op is registered once (TF's op name, kernel, shape rule, dtype
constraint) and exposed at TF's public name.

>>> add(constant([1, 2]), 3)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 5], dtype=int32)>
"""
import numpy as np

from eagerflow._src.backend import special
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.registry import (
    BOOL_ONLY, FLOAT, FLOAT_COMPLEX, INT, NUMBER, REAL, SIGNED_NUMBER, register, same_shape)
from eagerflow._src.ops import shape_rules as rules
from eagerflow._src.ops.wrappers import (
    as_tensor, binary, binary_operands, name_functions, unary)

_ANY_NUMBER_OR_STRING = NUMBER + (_d.string,)


def _int_division(fn, zero_message="Integer division by zero"):
    """`fn` with TF's error on integer division by zero (NumPy would return 0)."""
    def kernel(xp, x, y):
        if y.dtype.kind in "iu" and not xp.all(y):
            raise errors.InvalidArgumentError(None, None, zero_message)
        return fn(xp, x, y)
    return kernel


def _div_no_nan(xp, x, y):
    safe = xp.where(y == 0, xp.ones((), y.dtype), y)
    return xp.where(y == 0, xp.zeros((), x.dtype), x / safe).astype(x.dtype, copy=False)


def _mul_no_nan(xp, x, y):
    return xp.where(y == 0, xp.zeros((), x.dtype), x * y).astype(x.dtype, copy=False)


def _squared_difference(xp, x, y):
    d = x - y
    return (d * xp.conj(d)) if d.dtype.kind == "c" else d * d


def _sigmoid(xp, x):
    if x.dtype.kind == "c":
        return 1 / (1 + xp.exp(-x))
    # exp(-log(1 + exp(-x))) stays finite for large |x|
    return xp.exp(-xp.logaddexp(xp.zeros((), x.dtype), -x)).astype(x.dtype, copy=False)


def _softplus(xp, x):
    return xp.logaddexp(xp.zeros((), x.dtype), x).astype(x.dtype, copy=False)


def _float_kernel(fn):
    """A kernel computing in at least float32 and returning the input's dtype."""
    def kernel(xp, x, *rest):
        wide = x.astype(xp.float32) if x.dtype.itemsize < 4 else x
        return xp.asarray(fn(xp, wide, *rest)).astype(x.dtype, copy=False)
    return kernel


def _real_div(xp, x, y):
    return xp.true_divide(x, y).astype(x.dtype, copy=False)


def _pow(xp, x, y):
    if x.dtype.kind in "iu" and xp.any(y < 0):
        raise errors.InvalidArgumentError(None, None,
                                          "Integers to negative integer powers are not allowed")
    return xp.power(x, y)


_ADD = register("AddV2", "add", rules.binary, tied=(0, 1), dtypes=_ANY_NUMBER_OR_STRING)
_SUB = register("Sub", "subtract", rules.binary, tied=(0, 1), dtypes=NUMBER)
_MUL = register("Mul", "multiply", rules.binary, tied=(0, 1), dtypes=NUMBER)
_REAL_DIV = register("RealDiv", _real_div, rules.binary, tied=(0, 1), dtypes=FLOAT_COMPLEX)
_FLOOR_DIV = register("FloorDiv", _int_division(lambda xp, x, y: xp.floor_divide(x, y)),
                      rules.binary, tied=(0, 1), dtypes=REAL)
_FLOOR_MOD = register("FloorMod", _int_division(lambda xp, x, y: xp.mod(x, y)),
                      rules.binary, tied=(0, 1), dtypes=REAL)
_TRUNCATE_DIV = register("TruncateDiv", _int_division(
    lambda xp, x, y: xp.trunc(x / y).astype(x.dtype) if x.dtype.kind in "fc"
    else (xp.abs(x) // xp.abs(y)) * (xp.sign(x) * xp.sign(y))), rules.binary, tied=(0, 1),
    dtypes=REAL)
_POW = register("Pow", _pow, rules.binary, tied=(0, 1), dtypes=NUMBER)
_MAXIMUM = register("Maximum", "maximum", rules.binary, tied=(0, 1), dtypes=REAL)
_MINIMUM = register("Minimum", "minimum", rules.binary, tied=(0, 1), dtypes=REAL)
_SQUARED_DIFFERENCE = register("SquaredDifference", _squared_difference, rules.binary,
                               tied=(0, 1), dtypes=NUMBER)
_DIV_NO_NAN = register("DivNoNan", _div_no_nan, rules.binary, tied=(0, 1), dtypes=FLOAT_COMPLEX)
_MUL_NO_NAN = register("MulNoNan", _mul_no_nan, rules.binary, tied=(0, 1), dtypes=FLOAT_COMPLEX)
_ATAN2 = register("Atan2", _float_kernel(lambda xp, y, x: xp.arctan2(y, x.astype(y.dtype))),
                  rules.binary, tied=(0, 1), dtypes=FLOAT)

_EQUAL = register("Equal", "equal", rules.binary_to(_d.bool), tied=(0, 1),
                  not_differentiable="comparison")
_NOT_EQUAL = register("NotEqual", "not_equal", rules.binary_to(_d.bool), tied=(0, 1),
                      not_differentiable="comparison")
_LESS = register("Less", "less", rules.binary_to(_d.bool), tied=(0, 1), dtypes=REAL,
                 not_differentiable="comparison")
_LESS_EQUAL = register("LessEqual", "less_equal", rules.binary_to(_d.bool), tied=(0, 1),
                       dtypes=REAL, not_differentiable="comparison")
_GREATER = register("Greater", "greater", rules.binary_to(_d.bool), tied=(0, 1), dtypes=REAL,
                    not_differentiable="comparison")
_GREATER_EQUAL = register("GreaterEqual", "greater_equal", rules.binary_to(_d.bool),
                          tied=(0, 1), dtypes=REAL, not_differentiable="comparison")
_LOGICAL_AND = register("LogicalAnd", "logical_and", rules.binary, tied=(0, 1),
                        dtypes=BOOL_ONLY, not_differentiable="boolean")
_LOGICAL_OR = register("LogicalOr", "logical_or", rules.binary, tied=(0, 1), dtypes=BOOL_ONLY,
                       not_differentiable="boolean")
_LOGICAL_NOT = register("LogicalNot", "logical_not", same_shape, dtypes=BOOL_ONLY,
                        not_differentiable="boolean")

add = binary(_ADD, """Returns x + y element-wise (strings concatenate).

    >>> add(constant([1.0, 2.0]), 1.0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
    """)
subtract = binary(_SUB, "Returns x - y element-wise, with broadcasting.")
multiply = binary(_MUL, """Returns x * y element-wise, with broadcasting.

    >>> multiply(constant([1, 2]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([3, 6], dtype=int32)>
    """)
realdiv = binary(_REAL_DIV, "Returns x / y element-wise for floating point tensors.")
floordiv = binary(_FLOOR_DIV, "Returns floor(x / y) element-wise (`x // y`).")
floormod = binary(_FLOOR_MOD, "Returns x - floor(x / y) * y element-wise (`x % y`).")
mod = floormod
truncatediv = binary(_TRUNCATE_DIV, "Returns x / y rounded toward zero element-wise.")
pow = binary(_POW, """Returns x ** y element-wise.

    >>> pow(constant([2, 3]), 2)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 9], dtype=int32)>
    """)
maximum = binary(_MAXIMUM, "Returns max(x, y) element-wise, with broadcasting.")
minimum = binary(_MINIMUM, "Returns min(x, y) element-wise, with broadcasting.")
squared_difference = binary(_SQUARED_DIFFERENCE, "Returns (x - y)(x - y) element-wise.")
divide_no_nan = binary(_DIV_NO_NAN, """Returns x / y, or 0 where y is 0.

    >>> divide_no_nan(constant([3.0, 1.0]), constant([2.0, 0.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 0. ], dtype=float32)>
    """)
multiply_no_nan = binary(_MUL_NO_NAN, "Returns x * y, or 0 where y is 0 (even if x is NaN).")
_atan2 = binary(_ATAN2)


def atan2(y, x, name=None):
    """Returns arctan(y / x) element-wise, using the signs of both for the quadrant.

    >>> atan2(constant([1.0]), constant([1.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.7853982], dtype=float32)>
    """
    return _atan2(y, x, name)


equal = binary(_EQUAL, "Returns the truth value of (x == y) element-wise.")
not_equal = binary(_NOT_EQUAL, "Returns the truth value of (x != y) element-wise.")
less = binary(_LESS, "Returns the truth value of (x < y) element-wise.")
less_equal = binary(_LESS_EQUAL, "Returns the truth value of (x <= y) element-wise.")
greater = binary(_GREATER, "Returns the truth value of (x > y) element-wise.")
greater_equal = binary(_GREATER_EQUAL, "Returns the truth value of (x >= y) element-wise.")
logical_and = binary(_LOGICAL_AND, "Returns x AND y element-wise (bool tensors).")
logical_or = binary(_LOGICAL_OR, "Returns x OR y element-wise (bool tensors).")
logical_not = unary(_LOGICAL_NOT, "Returns NOT x element-wise (bool tensors).")


def logical_xor(x, y, name="LogicalXor"):
    """Returns x XOR y element-wise: (x | y) & ~(x & y).

    >>> logical_xor(True, False)
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


def _truediv_dtype(dtype):
    """TF's truediv casts integers to floats: small ints to float32, others to float64."""
    if dtype in (_d.int8, _d.int16, _d.uint8, _d.uint16):
        return _d.float32
    if dtype in (_d.int32, _d.int64, _d.uint32, _d.uint64):
        return _d.float64
    return None


def truediv(x, y, name=None):
    """Returns x / y element-wise, casting integers to floats first.

    >>> truediv(constant([1, 2]), 2)
    <tf.Tensor: shape=(2,), dtype=float64, numpy=array([0.5, 1. ])>
    """
    x, y = binary_operands(x, y)
    target = _truediv_dtype(x.dtype)
    if target is not None:
        if y.dtype != x.dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != "
                            f"{y.dtype!r}.")
        from eagerflow._src.ops.cast_ops import cast
        x, y = cast(x, target), cast(y, target)
    return dispatch(_REAL_DIV, (x, y), name=name)


def divide(x, y, name=None):
    """Computes Python-style division of x by y (`x / y`).

    >>> divide(constant([4.0]), 2.0)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.], dtype=float32)>
    """
    return truediv(x, y, name)


_ABS = register("Abs", "absolute", same_shape, dtypes=REAL)
_COMPLEX_ABS = register("ComplexAbs", "absolute", rules.unary_real,
                        dtypes=(_d.complex64, _d.complex128))


def abs(x, name=None):
    """Computes |x| element-wise; complex tensors give their real magnitude.

    >>> abs(constant([-1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    x = as_tensor(x)
    return dispatch(_COMPLEX_ABS if x.dtype.is_complex else _ABS, (x,), name=name)


def _sign(xp, x):
    if x.dtype.kind == "c":
        mag = xp.abs(x)
        return xp.where(mag == 0, xp.zeros((), x.dtype), x / xp.where(mag == 0, 1, mag))
    return xp.sign(x)


def _round(xp, x):
    return xp.round(x) if x.dtype.kind == "f" else x


def _reciprocal(xp, x):
    if x.dtype.kind in "iu":
        if not xp.all(x):
            raise errors.InvalidArgumentError(None, None, "Integer division by zero")
        return (1 // x).astype(x.dtype)
    return xp.reciprocal(x)


def _rsqrt(xp, x):
    return (1 / xp.sqrt(x)).astype(x.dtype, copy=False)


def _reg_unary(tf_name, kernel, dtypes, shape=same_shape, **kw):
    """Registers an elementwise unary op."""
    return register(tf_name, kernel, shape, dtypes=dtypes, **kw)


negative = unary(_reg_unary("Neg", "negative", SIGNED_NUMBER), "Computes -x element-wise.")
sign = unary(_reg_unary("Sign", _sign, SIGNED_NUMBER),
             "Returns -1, 0 or 1 for the sign of x element-wise (x / |x| for complex).")
square = unary(_reg_unary("Square", "square", NUMBER), "Computes x * x element-wise.")
sqrt = unary(_reg_unary("Sqrt", "sqrt", FLOAT_COMPLEX), """Computes the square root of x.

    >>> sqrt(constant([4.0, 9.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
    """)
rsqrt = unary(_reg_unary("Rsqrt", _rsqrt, FLOAT_COMPLEX), "Computes 1 / sqrt(x) element-wise.")
exp = unary(_reg_unary("Exp", "exp", FLOAT_COMPLEX), "Computes e ** x element-wise.")
expm1 = unary(_reg_unary("Expm1", "expm1", FLOAT_COMPLEX), "Computes e ** x - 1 element-wise.")
log = unary(_reg_unary("Log", "log", FLOAT_COMPLEX), "Computes the natural log of x.")
log1p = unary(_reg_unary("Log1p", "log1p", FLOAT_COMPLEX), "Computes log(1 + x) element-wise.")
sin = unary(_reg_unary("Sin", "sin", FLOAT_COMPLEX), "Computes sine element-wise.")
cos = unary(_reg_unary("Cos", "cos", FLOAT_COMPLEX), "Computes cosine element-wise.")
tan = unary(_reg_unary("Tan", "tan", FLOAT_COMPLEX), "Computes tangent element-wise.")
asin = unary(_reg_unary("Asin", "arcsin", FLOAT_COMPLEX), "Computes arcsine element-wise.")
acos = unary(_reg_unary("Acos", "arccos", FLOAT_COMPLEX), "Computes arccosine element-wise.")
atan = unary(_reg_unary("Atan", "arctan", FLOAT_COMPLEX), "Computes arctangent element-wise.")
sinh = unary(_reg_unary("Sinh", "sinh", FLOAT_COMPLEX), "Computes hyperbolic sine.")
cosh = unary(_reg_unary("Cosh", "cosh", FLOAT_COMPLEX), "Computes hyperbolic cosine.")
tanh = unary(_reg_unary("Tanh", "tanh", FLOAT_COMPLEX), "Computes hyperbolic tangent.")
asinh = unary(_reg_unary("Asinh", "arcsinh", FLOAT_COMPLEX), "Computes inverse hyperbolic sine.")
acosh = unary(_reg_unary("Acosh", "arccosh", FLOAT_COMPLEX),
              "Computes inverse hyperbolic cosine.")
atanh = unary(_reg_unary("Atanh", "arctanh", FLOAT_COMPLEX),
              "Computes inverse hyperbolic tangent.")
erf = unary(_reg_unary("Erf", _float_kernel(lambda xp, x: special(xp, "erf")(x)), FLOAT),
            "Computes the Gauss error function element-wise.")
erfc = unary(_reg_unary("Erfc", _float_kernel(lambda xp, x: special(xp, "erfc")(x)), FLOAT),
             "Computes the complementary error function element-wise.")
lgamma = unary(_reg_unary("Lgamma", _float_kernel(lambda xp, x: special(xp, "gammaln")(x)),
                          FLOAT), "Computes log(|Gamma(x)|) element-wise.")
digamma = unary(_reg_unary("Digamma", _float_kernel(lambda xp, x: special(xp, "psi")(x)),
                           FLOAT), "Computes the derivative of lgamma element-wise.")
sigmoid = unary(_reg_unary("Sigmoid", _sigmoid, FLOAT_COMPLEX), """Computes 1 / (1 + exp(-x)).

    >>> sigmoid(constant([0.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """)
softplus = unary(_reg_unary("Softplus", _softplus, FLOAT), "Computes log(exp(x) + 1).")
round = unary(_reg_unary("Round", _round, SIGNED_NUMBER),
              "Rounds half to even element-wise (banker's rounding).")
floor = unary(_reg_unary("Floor", "floor", FLOAT), "Returns the largest integer <= x.")
ceil = unary(_reg_unary("Ceil", "ceil", FLOAT), "Returns the smallest integer >= x.")
rint = unary(_reg_unary("Rint", "rint", FLOAT),
             "Returns the closest integer to x, half to even.")
reciprocal = unary(_reg_unary("Reciprocal", _reciprocal, SIGNED_NUMBER),
                   "Computes 1 / x element-wise.")
is_nan = unary(_reg_unary("IsNan", "isnan", FLOAT, shape=rules.unary_to(_d.bool),
                          not_differentiable="boolean output"), "True where x is NaN.")
is_inf = unary(_reg_unary("IsInf", "isinf", FLOAT, shape=rules.unary_to(_d.bool),
                          not_differentiable="boolean output"), "True where x is +-inf.")
is_finite = unary(_reg_unary("IsFinite", "isfinite", FLOAT, shape=rules.unary_to(_d.bool),
                             not_differentiable="boolean output"), "True where x is finite.")

name_functions(globals())
