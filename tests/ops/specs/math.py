"""Specs of the elementwise math ops (math_ops.py) and casts (cast_ops.py)."""
import numpy as np

import eagerflow as tf
from tests.internals import math_ops as m
from tests.ops.spec import OpSpec, positive, rand

F32, F64 = np.float32, np.float64


def _binary(op, fn, ref, dtypes=(F32, F64), shapes=((3, 4), (4,)), data=(rand, rand),
            name_suffix="", **kw):
    return [OpSpec(op, fn, [data[0](*shapes[0], dtype=d), data[1](*shapes[1], dtype=d, seed=1)],
                   ref, name=f"{op}{name_suffix}-{np.dtype(d).name}", **kw) for d in dtypes]


# Where x is 0 these ops are defined as 0 and so are their x-partials, which finite
# differences across x = 0 do not see.
_AT_ZERO = "defined as 0 at x == 0; checked away from it by the other specs"



def _unary(op, fn, ref, data=rand, dtypes=(F32, F64), name_suffix="", **kw):
    return [OpSpec(op, fn, [data(2, 3, dtype=d)], ref, name=f"{op}{name_suffix}-{np.dtype(d).name}",
                   **kw) for d in dtypes]


def _nonzero(*shape, dtype, seed=0):
    return rand(*shape, dtype=dtype, low=1, high=5, seed=seed)


def _int_pair(shape_a=(3, 4), shape_b=(4,)):
    return [rand(*shape_a, dtype=np.int32, low=-9, high=9),
            _nonzero(*shape_b, dtype=np.int32, seed=1)]


def _grad_op(op, fn, ref, data=rand):
    """Specs of a unary function's gradient op ``fn(y, dy)`` (y: the function's output): real
    dtypes checked with their gradient, half and complex ones for values."""
    def spec(dtype, rtol):
        def expected(y, dy):
            wide = np.complex128 if np.dtype(dtype).kind == "c" else F64
            return ref(y.astype(wide), dy.astype(wide)).astype(dtype)
        return OpSpec(op, fn, [data(3, 4, dtype=dtype), rand(3, 4, dtype=dtype, seed=1)],
                      expected, rtol=rtol, atol=rtol, name=f"{op}-{np.dtype(dtype).name}")
    return [spec(F32, 1e-5), spec(F64, 1e-5), spec(np.float16, 2e-3),
            spec(np.complex64, 1e-5)]


def _sigmoid(x):
    return (1 / (1 + np.exp(-x.astype(F64)))).astype(x.dtype)


def _erf(x):
    from math import erf
    return np.vectorize(erf)(x.astype(F64)).astype(x.dtype)


def _erfc(x):
    from math import erfc
    return np.vectorize(erfc)(x.astype(F64)).astype(x.dtype)


def _ndtri(p):
    from statistics import NormalDist
    return np.vectorize(NormalDist().inv_cdf)(p.astype(F64)).astype(p.dtype)


def _erfinv(x):
    return (_ndtri((x.astype(F64) + 1) / 2) / np.sqrt(2)).astype(x.dtype)


def _lgamma(x):
    from math import lgamma
    return np.vectorize(lgamma)(x.astype(F64)).astype(x.dtype)


def _digamma(x):
    # psi(x) = psi(x + N) - sum_{k<N} 1/(x+k), with the asymptotic series at x + N
    x64 = x.astype(F64)
    n = 1000.0
    acc = -sum(1.0 / (x64 + k) for k in range(int(n)))
    xn = x64 + n
    return (acc + np.log(xn) - 1 / (2 * xn) - 1 / (12 * xn ** 2)).astype(x.dtype)


def _zeta(s, q):
    """sum_k (q + k)^-s: a long direct sum and its Euler-Maclaurin tail."""
    s, q = np.broadcast_arrays(s.astype(F64), q.astype(F64))
    end = q + 1000.0
    total = sum((q + k) ** -s for k in range(1000))
    return total + end ** (1 - s) / (s - 1) + 0.5 * end ** -s + s / 12 * end ** (-s - 1)


def _polygamma(n, x):
    """(-1)^(n+1) n! zeta(n+1, x): a long direct sum and its Euler-Maclaurin tail."""
    from math import factorial
    n, x64 = np.broadcast_arrays(n.astype(F64), x.astype(F64))
    out = _digamma(x64)
    for order in range(1, int(n.max()) + 1):
        end = x64 + 1000.0
        zeta = sum((x64 + k) ** -(order + 1.0) for k in range(1000))
        zeta = zeta + end ** -order / order + 0.5 * end ** -(order + 1.0)
        out = np.where(n == order, (-1) ** (order + 1) * factorial(order) * zeta, out)
    return out.astype(x.dtype)


def _squared_difference(x, y):
    return ((x - y) ** 2).astype(x.dtype)


SPECS = [
    *_binary("AddV2", tf.add, np.add),
    OpSpec("Add", tf.add, [np.array([b"a", b"b"], object), np.array([b"c", b"d"], object)],
           lambda x, y: np.array([b"ac", b"bd"], object), name="Add-string", grad="strings"),
    OpSpec("Add", tf.add, [np.array(b"a", object), np.array(b"c", object)],
           lambda x, y: np.array(b"ac", object), name="Add-string-scalar", grad="strings"),
    *_binary("AddV2", lambda x, y: x + y, np.add, dtypes=(np.int32, np.int64, np.uint8)),
    *_binary("Add", lambda x, y: tf.raw_ops.Add(x=x, y=y), np.add, dtypes=(F32, F64, np.int32)),
    *_binary("Sub", tf.subtract, np.subtract, dtypes=(F32, F64, np.int32)),
    *_binary("Mul", tf.multiply, np.multiply, dtypes=(F32, F64, np.int64, np.complex64)),
    *_binary("RealDiv", tf.truediv, np.true_divide),
    OpSpec("RealDiv", tf.truediv, _int_pair(), lambda x, y: x / y, name="RealDiv-int-truediv"),
    OpSpec("FloorDiv", tf.math.floordiv, _int_pair(), np.floor_divide, name="FloorDiv-int",
           grad="integer"),
    *_binary("FloorDiv", tf.math.floordiv, np.floor_divide, grad="piecewise constant"),
    OpSpec("FloorMod", tf.math.floormod, _int_pair(), np.mod, name="FloorMod-int", grad="integer"),
    *_binary("FloorMod", tf.math.floormod, np.mod),
    OpSpec("TruncateDiv", tf.truncatediv, _int_pair(),
           lambda x, y: (np.trunc(x / y)).astype(np.int32), grad="integer"),
    OpSpec("Div", lambda x, y: tf.raw_ops.Div(x=x, y=y), _int_pair(),
           lambda x, y: (np.trunc(x / y)).astype(np.int32), name="Div-int", grad="integer"),
    *_binary("Div", lambda x, y: tf.raw_ops.Div(x=x, y=y), np.true_divide),
    OpSpec("Pow", tf.pow, [positive(3, 4), rand(4, seed=1)], np.power, name="Pow-f32"),
    OpSpec("Pow", tf.pow, [positive(3, 4, dtype=F64), rand(3, 1, dtype=F64)], np.power,
           name="Pow-f64"),
    OpSpec("Pow", tf.pow, [rand(3, dtype=np.int32, low=-3, high=3),
                          np.array([0, 1, 3], np.int32)], np.power, name="Pow-int",
           grad="integer"),
    *_binary("Maximum", tf.maximum, np.maximum, dtypes=(F32, F64, np.int32)),
    *_binary("Minimum", tf.minimum, np.minimum, dtypes=(F32, F64, np.int64)),
    *_binary("SquaredDifference", tf.math.squared_difference, _squared_difference),
    OpSpec("DivNoNan", tf.math.divide_no_nan,
           [rand(2, 3), np.array([[1.0, 0.0, 2.0], [0.0, -1.0, 4.0]], F32)],
           lambda x, y: np.where(y == 0, 0, x / np.where(y == 0, 1, y)).astype(F32),
           grad="not differentiable where y == 0"),
    OpSpec("DivNoNan", tf.math.divide_no_nan, [rand(2, 3), positive(2, 3, seed=3)],
           lambda x, y: (x / y).astype(F32), name="DivNoNan-nonzero"),
    OpSpec("MulNoNan", tf.math.multiply_no_nan,
           [np.array([np.nan, 2.0, np.inf], F32), np.array([0.0, 3.0, 0.0], F32)],
           lambda x, y: np.array([0.0, 6.0, 0.0], F32)),
    *_binary("Atan2", tf.atan2, np.arctan2),
    *_binary("Equal", tf.equal, np.equal, dtypes=(F32, np.int32), grad="comparison"),
    OpSpec("Equal", tf.equal, [np.array([b"a", b"b"], object), np.array([b"a", b"c"], object)],
           np.equal, name="Equal-string", grad="comparison"),
    *_binary("NotEqual", tf.not_equal, np.not_equal, dtypes=(F32, np.int32), grad="comparison"),
    *_binary("Less", tf.less, np.less, dtypes=(F32, np.int32), grad="comparison"),
    *_binary("LessEqual", tf.less_equal, np.less_equal, grad="comparison"),
    *_binary("Greater", tf.greater, np.greater, grad="comparison"),
    *_binary("GreaterEqual", tf.greater_equal, np.greater_equal, grad="comparison"),
    *_binary("LogicalAnd", tf.logical_and, np.logical_and, dtypes=(np.bool_,), grad="boolean"),
    *_binary("LogicalOr", tf.logical_or, np.logical_or, dtypes=(np.bool_,), grad="boolean"),
    *_binary("LogicalAnd", tf.math.logical_xor, np.logical_xor, dtypes=(np.bool_,), grad="boolean"),
    *_unary("LogicalNot", tf.logical_not, np.logical_not, dtypes=(np.bool_,), grad="boolean"),
    *_unary("Abs", tf.abs, np.abs, dtypes=(F32, F64, np.int32, np.int8)),
    *_unary("ComplexAbs", tf.abs, np.abs, dtypes=(np.complex64, np.complex128)),
    *_unary("Neg", tf.negative, np.negative, dtypes=(F32, F64, np.int32, np.complex128)),
    *_unary("Sign", tf.sign, np.sign, dtypes=(F32, F64, np.int32)),
    *_unary("Square", tf.square, np.square, dtypes=(F32, F64, np.int32)),
    *_unary("Sqrt", tf.sqrt, np.sqrt, data=positive),
    *_unary("Rsqrt", tf.math.rsqrt, lambda x: (1 / np.sqrt(x)).astype(x.dtype), data=positive),
    *_unary("Exp", tf.exp, np.exp, dtypes=(F32, F64, np.complex64)),
    *_unary("Expm1", tf.math.expm1, np.expm1),
    *_unary("Log", tf.math.log, np.log, data=positive),
    *_unary("Log1p", tf.math.log1p, np.log1p, data=positive),
    *_unary("Sin", tf.sin, np.sin),
    *_unary("Cos", tf.cos, np.cos),
    *_unary("Tan", tf.tan, np.tan),
    *_unary("Asin", tf.asin, np.arcsin, data=lambda *s, dtype: rand(*s, dtype=dtype) / 2.5),
    *_unary("Acos", tf.acos, np.arccos, data=lambda *s, dtype: rand(*s, dtype=dtype) / 2.5),
    *_unary("Atan", tf.atan, np.arctan),
    *_unary("Sinh", tf.sinh, np.sinh),
    *_unary("Cosh", tf.cosh, np.cosh),
    *_unary("Tanh", tf.tanh, np.tanh),
    *_unary("Asinh", tf.asinh, np.arcsinh),
    *_unary("Acosh", tf.acosh, np.arccosh, data=lambda *s, dtype: positive(*s, dtype=dtype) + 1),
    *_unary("Atanh", tf.atanh, np.arctanh, data=lambda *s, dtype: rand(*s, dtype=dtype) / 2.5),
    *_unary("Erf", tf.math.erf, _erf),
    *_unary("Erfc", tf.math.erfc, _erfc),
    *_unary("Erfinv", tf.math.erfinv, _erfinv, data=lambda *s, dtype: rand(*s, dtype=dtype) / 2.5,
            rtol=1e-5),
    *_unary("Ndtri", tf.math.ndtri, _ndtri,
            data=lambda *s, dtype: (rand(*s, dtype=dtype) / 5 + 0.5).astype(dtype), rtol=1e-5),
    *_unary("Lgamma", tf.math.lgamma, _lgamma, data=positive),
    *_unary("Digamma", tf.math.digamma, _digamma, data=positive, rtol=1e-4),
    OpSpec("Polygamma", tf.math.polygamma, [np.array([0.0, 1.0, 2.0, 3.0], F32), positive(3, 4)],
           _polygamma, rtol=1e-4, grad="the order takes integer values; see Polygamma-x"),
    *_unary("Polygamma", lambda x: tf.math.polygamma(tf.ones_like(x) * 2.0, x),
            lambda x: _polygamma(np.full(x.shape, 2.0, x.dtype), x), data=positive,
            rtol=1e-4, name_suffix="-x"),
    OpSpec("Zeta", tf.math.zeta, [np.array([2.0, 3.0, 4.5], F64), positive(2, 3, dtype=F64)],
           _zeta, rtol=1e-9, grad="no gradient for x (as TF); see Zeta-q"),
    *_unary("Zeta", lambda q: tf.math.zeta(tf.ones_like(q) * 2.5, q),
            lambda q: _zeta(np.full(q.shape, 2.5), q).astype(q.dtype), data=positive,
            rtol=1e-5, name_suffix="-q"),
    OpSpec("NextAfter", tf.math.nextafter, [rand(2, 3), np.array([2.0, -3.0, 0.0], F32)],
           np.nextafter, rtol=0, atol=0, grad=True),
    *_unary("Sigmoid", tf.sigmoid, _sigmoid),
    *_grad_op("SigmoidGrad", m.sigmoid_grad, lambda y, dy: dy * y * (1 - y),
              data=lambda *s, dtype: rand(*s, dtype=dtype, low=0.0, high=1.0)),
    *_grad_op("TanhGrad", m.tanh_grad, lambda y, dy: dy * (1 - y * y),
              data=lambda *s, dtype: rand(*s, dtype=dtype, low=-1.0, high=1.0)),
    *_grad_op("SqrtGrad", m.sqrt_grad, lambda y, dy: 0.5 * dy / y, data=positive),
    *_grad_op("RsqrtGrad", m.rsqrt_grad, lambda y, dy: dy * -0.5 * y ** 3, data=positive),
    *_grad_op("ReciprocalGrad", m.reciprocal_grad, lambda y, dy: -dy * y * y, data=positive),
    *_unary("Softplus", tf.math.softplus,
            lambda x: np.log1p(np.exp(x.astype(F64))).astype(x.dtype)),
    OpSpec("Round", tf.round, [np.array([0.5, 1.5, 2.5, -0.5, -1.7], F32)], np.round,
           grad="piecewise constant"),
    *_unary("Floor", tf.floor, np.floor, grad="piecewise constant"),
    *_unary("Ceil", tf.math.ceil, np.ceil, grad="piecewise constant"),
    OpSpec("Rint", tf.math.rint, [np.array([0.5, 1.5, 2.5, -0.5, -1.7], F64)], np.rint,
           grad="piecewise constant"),
    *_unary("Reciprocal", tf.math.reciprocal, np.reciprocal, data=positive),
    *_unary("IsNan", tf.math.is_nan, np.isnan, data=lambda *s, dtype: np.array(
        [[np.nan, 1, np.inf], [0, -np.inf, 2]], dtype), grad="boolean"),
    *_unary("IsInf", tf.math.is_inf, np.isinf, data=lambda *s, dtype: np.array(
        [[np.nan, 1, np.inf], [0, -np.inf, 2]], dtype), grad="boolean"),
    *_unary("IsFinite", tf.math.is_finite, np.isfinite, data=lambda *s, dtype: np.array(
        [[np.nan, 1, np.inf], [0, -np.inf, 2]], dtype), grad="boolean"),
    # values on, between and beyond the boundaries, and NaN (placed past them all)
    *[OpSpec("Bucketize", lambda x: tf.raw_ops.Bucketize(input=x, boundaries=[-1.0, 0.5, 1.5]),
             [np.array([[-2, -1, 0], [0.5, 1.4, 1.5], [7, np.nan, -np.inf]], d)],
             lambda x: np.searchsorted(np.array([-1.0, 0.5, 1.5], F32), x, "right")
             .astype(np.int32), name=f"Bucketize-{np.dtype(d).name}", grad="integer output")
      for d in (F32, F64)],
    OpSpec("Bucketize", lambda x: tf.raw_ops.Bucketize(input=x, boundaries=[0, 2]),
           [np.array([-1, 0, 1, 2, 3], np.int64)],
           lambda x: np.array([0, 1, 1, 2, 2], np.int32), name="Bucketize-int64",
           grad="integer output"),
    OpSpec("Cast", lambda x: tf.cast(x, tf.int32), [np.array([1.7, -1.7, 0.2], F32)],
           lambda x: np.trunc(x).astype(np.int32), name="Cast-f32-int32", grad="integer"),
    OpSpec("Cast", lambda x: tf.cast(x, tf.float64), [rand(2, 3)],
           lambda x: x.astype(F64), name="Cast-f32-f64"),
    OpSpec("Cast", lambda x: tf.cast(x, tf.float32), [rand(3, dtype=np.complex64)],
           lambda x: x.real.astype(F32), name="Cast-complex-real"),
    OpSpec("Cast", lambda x: tf.saturate_cast(x, tf.uint8),
           [np.array([300.0, -5.0, 7.9], F32)], lambda x: np.array([255, 0, 7], np.uint8),
           name="saturate_cast", grad="integer"),
    OpSpec("Bitcast", lambda x: tf.bitcast(x, tf.int32), [rand(2, 3)],
           lambda x: x.view(np.int32), name="Bitcast-f32-int32", grad="no gradient in TF"),
    OpSpec("Bitcast", lambda x: tf.bitcast(x, tf.uint8), [rand(2, dtype=np.float64)],
           lambda x: x.reshape(2, 1).view(np.uint8), name="Bitcast-narrower",
           grad="no gradient in TF"),
    OpSpec("Bitcast", lambda x: tf.bitcast(x, tf.int64),
           [np.array([[1, 2], [3, -1]], np.int32)], lambda x: x.view(np.int64).reshape(2),
           name="Bitcast-wider", grad="no gradient in TF"),
    OpSpec("Identity", tf.identity, [rand(2, 3)], lambda x: x),
    OpSpec("StopGradient", tf.stop_gradient, [rand(2, 3)], lambda x: x,
           grad="gradients stop here by definition"),
    OpSpec("PreventGradient", lambda x: tf.raw_ops.PreventGradient(input=x, message="m"),
           [rand(2, 3)], lambda x: x, grad="its gradient is an error"),
    OpSpec("EnsureShape", lambda x: tf.ensure_shape(x, [None, 3]), [rand(2, 3)],
           lambda x: x),
    OpSpec("TruncateMod", tf.truncatemod, _int_pair(), np.fmod, name="TruncateMod-int",
           grad="integer"),
    *_binary("TruncateMod", tf.truncatemod, np.fmod),
    OpSpec("Mod", lambda x, y: tf.raw_ops.Mod(x=x, y=y), _int_pair(), np.fmod, name="Mod-int",
           grad="no gradient in TF"),
    *_binary("Mod", lambda x, y: tf.raw_ops.Mod(x=x, y=y), np.fmod, grad="no gradient in TF"),
    *_unary("Inv", lambda x: tf.raw_ops.Inv(x=x), np.reciprocal, data=positive),
    *_grad_op("InvGrad", lambda y, dy: tf.raw_ops.InvGrad(y=y, dy=dy), lambda y, dy: -dy * y * y,
              data=positive),
    OpSpec("Bucketize", lambda x: tf.raw_ops.Bucketize(input=x, boundaries=[0.0, 0.1, 1.0]),
           [np.array([[-1.0, 0.1], [0.5, np.nan]], F64)],
           lambda x: np.array([[0, 1], [2, 3]], np.int32), grad="integer output"),
    OpSpec("Bucketize", lambda x: tf.raw_ops.Bucketize(input=x, boundaries=[0.1, 16777217.0]),
           [np.array([0, 16777217], np.int32)], lambda x: np.array([0, 2], np.int32),
           name="Bucketize-int32", grad="integer output"),
    OpSpec("ApproximateEqual", lambda x, y: tf.raw_ops.ApproximateEqual(x=x, y=y, tolerance=0.1),
           [np.array([1.0, 2.0, np.nan, np.inf], F32), np.array([1.05, 2.2, np.nan, np.inf], F32)],
           lambda x, y: np.array([True, False, False, False]), grad="boolean output"),
    OpSpec("ApproximateEqual", lambda x, y: tf.raw_ops.ApproximateEqual(x=x, y=y),
           [np.array([[1.0, 2.0]], F64), np.array([[1.0 + 1e-6, 2.0 + 1e-4]], F64)],
           lambda x, y: np.array([[True, False]]), grad="boolean output",
           name="ApproximateEqual-default-tolerance"),
    OpSpec("Xlogy", tf.math.xlogy,
           [np.array([0.0, 1.0, 2.0, 0.0], F32), np.array([0.0, 2.0, 0.5, 3.0],
                                                                           F32)],
           lambda x, y: np.array([0.0, np.log(2.0), 2 * np.log(0.5), 0.0], F32),
           grad=_AT_ZERO),
    *_binary("Xlogy", tf.math.xlogy, lambda x, y: x * np.log(y), data=(rand, positive)),
    OpSpec("Xlog1py", tf.math.xlog1py, [np.array([0.0, 1.0, 2.0], F64), np.array([-1.0, 1.0, 0.5])],
           lambda x, y: np.array([0.0, np.log(2.0), 2 * np.log(1.5)]), grad=_AT_ZERO),
    *_binary("Xlog1py", tf.math.xlog1py, lambda x, y: x * np.log1p(y), data=(rand, positive)),
    OpSpec("Xdivy", tf.math.xdivy, [np.array([0.0, 1.0, 3.0], F32), np.array([0.0, 2.0, 4.0], F32)],
           lambda x, y: np.array([0.0, 0.5, 0.75], F32), grad=_AT_ZERO),
    *_binary("Xdivy", tf.math.xdivy, np.true_divide, data=(rand, positive)),
    *_binary("Complex", tf.complex, lambda re, im: (re + 1j * im).astype(
        np.complex64 if re.dtype == F32 else np.complex128)),
    # complex outputs and inputs are outside finite differences: check them through a
    # real-valued round trip
    *_binary("Complex", lambda a, b: tf.abs(tf.complex(a, b) * tf.complex(b, a)),
             lambda a, b: np.abs((a + 1j * b) * (b + 1j * a)).astype(a.dtype),
             name_suffix="-abs"),
    *_binary("Complex", lambda a, b: tf.math.angle(tf.complex(a, b) * tf.complex(b, a)),
             lambda a, b: np.angle((a + 1j * b) * (b + 1j * a)).astype(a.dtype),
             name_suffix="-angle"),
    *_binary("Complex", lambda a, b: tf.math.real(tf.complex(a, b) * tf.complex(b, a)) +
             tf.math.imag(tf.complex(a, b) * tf.complex(a, a)),
             lambda a, b: ((a + 1j * b) * (b + 1j * a)).real.astype(a.dtype) +
             ((a + 1j * b) * (a + 1j * a)).imag.astype(a.dtype), name_suffix="-real-imag"),
    *_unary("Real", tf.math.real, np.real, dtypes=(np.complex64, np.complex128)),
    *_unary("Imag", tf.math.imag, np.imag, dtypes=(np.complex64, np.complex128)),
    *_unary("Conj", tf.math.conj, np.conj, dtypes=(np.complex64, np.complex128)),
    *_unary("Angle", tf.math.angle, lambda x: np.angle(x).astype(x.real.dtype),
            dtypes=(np.complex64, np.complex128)),
    OpSpec("InvertPermutation", tf.math.invert_permutation, [np.array([3, 4, 0, 2, 1], np.int32)],
           lambda x: np.argsort(x).astype(x.dtype), grad="integer permutation"),
    OpSpec("InvertPermutation", tf.math.invert_permutation, [np.array([1, 2, 0], np.int64)],
           np.argsort, name="InvertPermutation-int64", grad="integer permutation"),
]
