"""Elementwise float kernels: NumPy's functions by default, TensorFlow's CPU arithmetic on request.

By default every kernel here is NumPy's ufunc for the dtype (SciPy's for erf and erfc), the
same algorithm whatever the tensor's size: results are within a few ulps of the exact value
(usually correctly rounded), and may differ from TensorFlow's in the last bits. float16 and
bfloat16 are computed in float32 and rounded back, as TensorFlow's kernels do (sigmoid, elu, selu
and softplus round each of TensorFlow's steps to the 16-bit dtype, as its kernels do).

``config.experimental.enable_tf_cpu_float_emulation(True)`` switches float32 and float64 (and
16-bit floats, through float32) to kernels that reproduce TensorFlow's x86-64 CPU results bit
for bit, at several times NumPy's cost. TensorFlow evaluates float32 transcendental functions in
8-lane vectors (float64 in 4-lane ones) with polynomial and rational approximations, each
multiply-add a multiply then an add, and the last ``n % 8`` (``n % 4``) elements of a tensor of
n elements one at a time with the C library's functions. Denormal inputs read as zero and
denormal results flush to zero. The emulating kernels take the same steps in NumPy arithmetic of
the same precision, whole arrays at a time. Some follow the processor more closely: float32
reciprocal and rsqrt (and erfc) refine the 12-bit estimates that Intel's x86 processors give,
and float32 softmax runs as on AVX-512 processors.

>>> exp(np, np.array([1.0, 2.0], np.float32)).round(5)
array([2.71828, 7.38906], dtype=float32)
"""
import ctypes
import functools

import numpy as np

from eagerflow._src.backend import special
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.config import _settings as _config

_F = np.float32
_I = np.int32
_HALF = (np.dtype(np.float16), np.dtype(_d.bfloat16.as_numpy_dtype))
_F32 = np.dtype(np.float32)
_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)
_LANES = 8  # float32 elements per vector: the last n % 8 elements take the scalar route
_TINY = _F(2.0 ** -126)  # the smallest normal float32
_SIGN = _I(-2 ** 31)


# ------------------------------------------------------------------------------ the scalar route

def _c_library():
    # glibc's soname first: ctypes.util (and its find_library, which runs ldconfig) costs
    # ~20 ms, a fifth of eagerflow's import.
    try:
        return ctypes.CDLL("libm.so.6")
    except OSError:
        pass
    from ctypes.util import find_library  # noqa: PLC0415
    try:
        return ctypes.CDLL(find_library("m") or "libm.so.6")
    except OSError:
        return None


_LIBM = _c_library()


def _libm(name, fallback):
    """The C library's float function `name` over a few elements (NumPy's, in float64 and
    rounded, where there is no C library to load)."""
    fn = getattr(_LIBM, name, None)
    if fn is None:
        return lambda v: fallback(v.astype(np.float64)).astype(_F)
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float]
    return lambda v: np.array([fn(t) for t in v.tolist()], _F)


_expf = _libm("expf", np.exp)
_logf = _libm("logf", np.log)
_log1pf = _libm("log1pf", np.log1p)
_expm1f = _libm("expm1f", np.expm1)
_sinf = _libm("sinf", np.sin)
_cosf = _libm("cosf", np.cos)
# (for kernels whose TF counterpart calls the C library one value at a time)
c_log1pf, c_expm1f = _log1pf, _expm1f


# --------------------------------------------------------------------------------- helpers

def _flush(out):
    """Results below the smallest normal number flushed to zero (of the same sign)."""
    mag = np.abs(out)
    if np.fmin.reduce(mag, initial=np.inf, axis=None) < _TINY:  # (NaN ignored)
        np.copyto(out, out * _F(0), where=mag < _TINY)
    return out


def _zero_denormal_inputs(out, x, tiny=_TINY):
    """`out` with a signed zero wherever `x` is denormal: f(x) ~ c * x for tiny x."""
    mag = np.abs(x)
    if np.fmin.reduce(mag, initial=np.inf, axis=None) < tiny:
        denormal = mag < tiny
        out[denormal] = x[denormal] * np.zeros((), x.dtype)
    return out


_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def _select(xp, cond, a, b):
    """`a` where `cond` else `b`, bit for bit; for NumPy by masking bits, several times faster
    than `where` when `cond` changes often."""
    if xp is not np:
        return xp.where(cond, a, b)
    b = np.asarray(b)
    a, b = np.broadcast_arrays(np.asarray(a, b.dtype), b)
    it = _INT[b.dtype.itemsize]
    mask = np.asarray(cond).view(np.int8).astype(it)
    np.negative(mask, out=mask)
    out = a.view(it) ^ b.view(it)
    out &= mask
    out ^= b.view(it)
    return out.view(b.dtype)


def _horner(x, coeffs, dtype=_F):
    """sum(coeffs[i] * x ** (n - i)): each step a multiply, then an add (in `dtype`)."""
    acc = x * dtype(coeffs[0])
    acc += dtype(coeffs[1])
    for c in coeffs[2:]:
        acc *= x
        acc += dtype(c)
    return acc


_BLOCK = 32768  # elements per block (a multiple of 8): a block's temporaries stay in cache


def _lanes(x, vector, scalar):
    """`vector` over the whole vectors of flattened float32 `x`, `scalar` over the rest."""
    flat = x.reshape(-1)
    n = flat.size
    k = n - n % _LANES
    with np.errstate(all="ignore"):
        if k == n and n <= _BLOCK:
            return vector(flat).reshape(x.shape)
        out = np.empty(n, _F)
        for i in range(0, k, _BLOCK):
            out[i:min(i + _BLOCK, k)] = vector(flat[i:min(i + _BLOCK, k)])
        if k < n:
            out[k:] = scalar(flat[k:])
    return out.reshape(x.shape)


_F64 = np.dtype(np.float64)


def emulating(xp, x):
    """Whether `x` takes the kernels that reproduce TensorFlow's CPU results bit for bit: only
    when `config.experimental.enable_tf_cpu_float_emulation` is on (NumPy arrays, not empty)."""
    return _config["tf_cpu_float_emulation"] and xp is np and x.size


def _in_float32(xp, fn, x):
    """fn(x), 16-bit floats computed in float32 and rounded back to their dtype."""
    if x.dtype in _HALF:
        return fn(xp, x.astype(np.float32)).astype(x.dtype)
    return fn(xp, x)


def _unary(vector, scalar, default, half_scalar=None, float64=None):
    """A kernel ``(xp, x)``: `default(xp, x)` (16-bit floats through float32); when emulating
    TensorFlow, `vector`/`scalar` for float32, and for 16-bit floats through float32
    (`half_scalar` in their own dtype instead of `scalar`, where given), and the pair
    `float64` for float64, where given."""
    def kernel(xp, x):
        if not (_config["tf_cpu_float_emulation"] and xp is np and x.size):
            dtype = x.dtype
            if dtype is _F32 or dtype is _F64:  # the common case, first
                return default(xp, x)
            return _in_float32(xp, default, x)
        if x.dtype == _F64 and float64 is not None:
            return _lanes64(x, *float64)
        if x.dtype != _F32 and x.dtype not in _HALF:
            return default(xp, x)
        if x.dtype == _F32:
            return _lanes(x, vector, scalar)
        out = _lanes(x.astype(_F), vector, scalar).astype(x.dtype)
        tail = x.size - x.size % _LANES
        if half_scalar is not None and tail < x.size:
            out.reshape(-1)[tail:] = half_scalar(x.reshape(-1)[tail:])
        return out
    # what the kernel does for these dtypes unless emulating: one call of `default`
    kernel.direct = _direct(getattr(default, "ufunc", None) or functools.partial(default, np),
                            (_F32, _F64, _C64, _C128))
    return kernel


def _direct(fn, dtypes):
    """``direct(dtype)`` for a kernel (see the registry): NumPy function `fn` of the input,
    for inputs of `dtypes`, while TensorFlow's CPU arithmetic is not being emulated."""
    def direct(dtype):
        return None if _config["tf_cpu_float_emulation"] or dtype not in dtypes else fn
    return direct


def _numpy(name):
    """The default kernel ``(xp, x)``: array-module function `name` (a ufunc for NumPy)."""
    ufunc = getattr(np, name)
    default = lambda xp, x: ufunc(x) if xp is np else getattr(xp, name)(x)  # noqa: E731
    default.ufunc = ufunc
    return default


# -------------------------------------------------------------------------------------- exp

_LOG2E = _F(1.44269504088896341)
_LN2_HI = _F(-0.693359375)  # -ln(2) in two parts: m * hi is exact for the m that occur
_LN2_LO = _F(2.12194440e-4)
_EXPONENT_BIAS = _F(127 + 2 ** 23)  # m + this holds m + 127 in its low mantissa bits


def _reduce(x):
    """(m, r) with x = m * ln(2) + r, m = floor(x / ln(2) + 1/2) as float32."""
    m = x * _LOG2E
    m += _F(0.5)
    np.floor(m, out=m)
    r = m * _LN2_HI
    r += x
    t = m * _LN2_LO
    r += t
    return m, r


def _scale(y, m):
    """y * 2 ** m for float32 integers m in [-151, 128], flushing results below 2 ** -126."""
    k = np.clip(m, _F(-127), _F(127))
    k += _EXPONENT_BIAS
    bits = k.view(_I)
    bits <<= 23  # 2 ** m as float32 bits: 0 for m = -127
    y *= k
    if np.fmax.reduce(m, initial=0, axis=None) > 127:  # exp(88.38...) to exp(88.72...)
        y[m > 127] *= _F(2)
    if np.fmin.reduce(m, initial=0, axis=None) < -125:
        y[y < _TINY] = 0
    return y


def _exp_vector(x):
    # clamped to where the result is +inf or 0: the reduction stays exact
    m, r = _reduce(np.clip(x, _F(-104.5), _F(88.723)))
    p = _exp_polynomial(r, [1.37449637986719608306884765625e-3, 4.166965186595916748046875e-2,
                            0.49999988079071044921875],
                        [8.36894474923610687255859375e-3, 0.16666518151760101318359375])
    return _scale(p, m)


def _exp_polynomial(r, even, odd):
    """exp(r) for a reduced `r`: ``1 + r + r^2 (even(r^2) + r odd(r^2))``, the two halves'
    coefficients highest first, in TF's order of operations (`r` is overwritten)."""
    r2 = r * r
    e = _horner(r2, even)
    o = _horner(r2, odd)
    o *= r
    o += e
    o *= r2
    r += _F(1)
    o += r
    return o


def _exp_scalar(v):
    return _flush(_expf(v))


# -------------------------------------------------------------------------------------- log

def _mantissa_exponent(x):
    """``(m, e)`` of positive float32 `x` = m * 2 ** e, m in [0.5, 1), e as float32 (read off
    the bits: normal `x` only)."""
    bits = x.view(_I)
    e = np.subtract(bits >> 23, _F(126), dtype=_F)
    m = bits & 0x007fffff
    m |= 0x3f000000
    return m.view(_F), e


def _log_vector(x):
    m, e = _mantissa_exponent(x)
    low = m < _F(0.707106781186547524)
    shift = m * low  # m in [sqrt(1/2), sqrt(2)), minus 1
    m -= _F(1)
    m += shift
    e -= low
    p = _horner(m, [0.18256296349849254, 1.0000000190281063, 1.0000000190281136])
    p *= m
    q = _horner(m, [0.049616247954120038, 0.59923249590823520, 1.4999999999999927, 1.0])
    p /= q
    e *= _F(0.693147180559945309)
    e += p
    if not (x.min(initial=np.inf) >= _TINY and x.max(initial=0) < np.inf):  # (NaN: False)
        # negative (and NaN) inputs give NaN, +inf gives +inf; zeros and denormals give -inf
        np.copyto(e, _F(np.nan), where=~(x >= 0))
        np.copyto(e, x, where=x == np.inf)
        np.copyto(e, _F(-np.inf), where=np.abs(x) < _TINY)
    return e


def _log_scalar(v):
    out = _logf(v)
    # the C library reads a denormal (as zero) like the smallest one, 2 ** -150
    tiny = (np.abs(v) < _TINY) & (v != 0)
    if tiny.any():
        out[tiny] = np.where(v[tiny] > 0, _F(-103.97208), _F(np.nan))
    return out


# ------------------------------------------------------------------------------ log1p, expm1

def _log1p_vector(x):
    xp1 = x + _F(1)
    log_xp1 = _log_vector(xp1)
    exact = (xp1 == _F(1)) | (xp1 == log_xp1)  # 1 + x rounds to 1, or is +inf
    xp1 -= _F(1)
    out = np.divide(log_xp1, xp1, out=log_xp1)
    out *= x
    return _flush(_select(np, exact, x, out))


def _expm1_vector(x):
    u = _exp_vector(x)
    um1 = u - _F(1)
    log_u = _log_vector(u)
    inf = log_u == u
    out = np.divide(x, log_u, out=log_u)
    out *= um1
    out = _select(np, inf, u, out)
    out = _select(np, um1 == _F(-1), _F(-1), out)
    return _select(np, u == _F(1), x, out)  # denormal x too, kept as it is


def _expm1_scalar(v):
    return _flush(_expm1f(v))


# ------------------------------------------------------------------------------------- tanh

def _tanh(x):
    # the rational approximation is exactly +-1 from here on
    x = np.clip(x, _F(-7.90738964080810547), _F(7.90738964080810547))
    x2 = x * x
    p = _horner(x2, [1.394553628e-8, 2.102733560e-5, 3.520756727e-3, 1.340216100e-1])
    q = _horner(x2, [8.015776984e-7, 3.326951409e-4, 2.597254514e-2, 4.673548340e-1, 1.0])
    x2 *= x
    p *= x2
    p += x
    p /= q
    return _zero_denormal_inputs(p, x)


# ---------------------------------------------------------------------------------- sigmoid

def _sigmoid_vector(x):
    # e = exp(x / 2) ** 2, so that no step has a denormal result before the last; below -104
    # the result is 0 (and 1 above 16.6355324)
    xc = np.clip(x, _F(-104.5), _F(16.6355324))
    xc *= _F(0.5)
    m, r = _reduce(xc)
    e = _scale(_exp_polynomial(r, [4.1898667812347412109375e-2, 0.49999141693115234375],
                               [8.33471305668354034423828125e-3, 0.16666877269744873046875]), m)
    e *= e
    if np.fmin.reduce(m, initial=0, axis=None) < -62:
        e[e < _TINY] = 0
    out = e + _F(1)
    return np.divide(e, out, out=out)


def _sigmoid_scalar(v):
    e = _exp_scalar(np.minimum(v, _F(16.6355324)))
    return e / (e + _F(1))


def _sigmoid_numpy(xp, x):
    # exp(x) / (1 + exp(x)) in four passes, x capped where exp would overflow (the result
    # is then 1, and -inf gives 0): no overflow, no NaN for finite or infinite x; small
    # values keep their relative precision, as exp(x) / 1
    e = xp.minimum(x, _EXP_CAP.get(x.dtype, 88.0))
    if not x.ndim:  # (a NumPy scalar, which takes no out=)
        e = xp.asarray(e)
    xp.exp(e, out=e)
    return xp.divide(e, e + 1, out=e)


# one below where exp overflows: exp(cap) + 1 stays finite and the quotient rounds to 1
_EXP_CAP = {np.dtype(t): float(np.log(np.finfo(t).max) - 1)
            for t in (np.float16, np.float32, np.float64)}


def sigmoid(xp, x):
    """exp(x) / (1 + exp(x)), which is 1 where exp(x) overflows.

    >>> sigmoid(np, np.array([0.0, 1.0], np.float32))
    array([0.5      , 0.7310586], dtype=float32)
    """
    if x.dtype.kind == "c":
        return 1 / (1 + xp.exp(-x))
    if not emulating(xp, x):
        if x.dtype is _F32 or x.dtype is _F64:
            return _sigmoid_numpy(xp, x)
        if x.dtype not in _HALF:
            return _in_float32(xp, _sigmoid_numpy, x)
        # 16-bit floats as TF's kernel steps: exp(x), then e / (1 + e), each rounded to the
        # dtype (not one rounding of the float32 result, which is an ulp off at times)
        with np.errstate(over="ignore"):
            e = _in_float32(xp, lambda xp, v: xp.exp(v), x)
    elif x.dtype == _F32:
        return _lanes(x, _sigmoid_vector, _sigmoid_scalar)
    else:
        e = exp(xp, x)
    one = xp.ones((), x.dtype)
    with np.errstate(invalid="ignore"):
        out = e / (e + one)
    return xp.where(xp.isinf(e), one, out)


sigmoid.direct = _direct(functools.partial(_sigmoid_numpy, np), (_F32, _F64))


# -------------------------------------------------------------------------------- erf, erfc

def _erf(x):
    x2 = x * x
    np.minimum(x2, _F(16), out=x2)  # erf is +-1 in float32 from 4 on
    p = _horner(x2, [2.123732201653183437883853912353515625e-06,
                     2.861979592125862836837768554687500000e-04,
                     3.658048342913389205932617187500000000e-03,
                     5.243302136659622192382812500000000000e-02,
                     1.874160766601562500000000000000000000e-01,
                     1.128379106521606445312500000000000000e+00])
    p *= x
    q = _horner(x2, [3.89185734093189239501953125000e-05, 1.14329601638019084930419921875e-03,
                     1.47520881146192550659179687500e-02, 1.12945675849914550781250000000e-01,
                     4.99425798654556274414062500000e-01, 1.0])
    p /= q
    np.clip(p, _F(-1), _F(1), out=p)
    return _zero_denormal_inputs(p, x)


def _erf_other(xp, x):
    wide = x.astype(xp.float32) if x.dtype.itemsize < 4 else x
    return xp.asarray(special(xp, "erf")(wide)).astype(x.dtype, copy=False)


def _erfc(x, exp_kernel, reciprocal):
    x = np.clip(x, _F(-11), _F(11))
    x2 = x * x
    small = _horner(x2, [5.61802298761904239654541015625e-04, -4.91381669417023658752441406250e-03,
                         2.67075151205062866210937500000e-02, -1.12800106406211853027343750000e-01,
                         3.76122951507568359375000000000e-01, -1.12837910652160644531250000000e+00])
    small *= x
    small += _F(1)
    large = x2 > _F(1)
    if not large.any():
        return small
    # |x| > 1: exp(-x**2) / x * P(1 / x**2) / Q(1 / x**2), with the rounding error of x**2
    # (exact in float64) corrected for: exp(-x2 - lo) ~ exp(-x2) * (1 - lo)
    lo = np.square(x, dtype=np.float64)
    lo -= x2
    e = exp_kernel(-x2)
    z = _flush(e * lo.astype(_F))
    np.subtract(e, z, out=z)
    q = reciprocal(x2)
    num = _horner(q, [1.0208116471767425537109375e-01, 4.2920666933059692382812500e-01,
                      3.2379078865051269531250000e-01, 5.3971976041793823242187500e-02])
    den = _horner(q, [1.7251677811145782470703125e-02, 3.9137163758277893066406250e-01,
                      1.0, 6.2173241376876831054687500e-01, 9.5662862062454223632812500e-02])
    den *= x
    num /= den
    num *= z
    two = x.view(_I) >> 31  # 2 for negative x, else 0
    two &= _F(2).view(_I)
    num += two.view(_F)
    return _select(np, large, _flush(num), small)


def _erfc_other(xp, x):
    wide = x.astype(xp.float32) if x.dtype.itemsize < 4 else x
    return xp.asarray(special(xp, "erfc")(wide)).astype(x.dtype, copy=False)


# ---------------------------------------------------------------------------------- sin, cos

# 2 / pi in 192 bits, each entry a 32-bit window starting 8 bits after the previous one
_TWO_OVER_PI = np.array([
    0x00000028, 0x000028be, 0x0028be60, 0x28be60db, 0xbe60db93, 0x60db9391, 0xdb939105,
    0x9391054a, 0x91054a7f, 0x054a7f09, 0x4a7f09d5, 0x7f09d5f4, 0x09d5f47d, 0xd5f47d4d,
    0xf47d4d37, 0x7d4d3770, 0x4d377036, 0x377036d8, 0x7036d8a5, 0x36d8a566, 0xd8a5664f,
    0xa5664f10, 0x664f10e4, 0x4f10e410, 0x10e41000, 0xe4100000], np.uint64)


def _reduce_huge(ax):
    """(r, q) with |x| = q * pi / 2 + r, from x * 2 / pi in 64-bit fixed point (Payne-Hanek)."""
    u = np.uint64
    xi = ax.view(np.uint32).astype(u)
    e = (xi >> u(23)) - u(118)
    xi = ((xi & u(0x7fffff)) | u(0x800000)) << (e & u(7))
    i = (e >> u(3)).astype(np.intp)
    p = xi * _TWO_OVER_PI[i + 7]
    p = xi * _TWO_OVER_PI[i + 3] + (p >> u(32))
    p += ((xi * _TWO_OVER_PI[i - 1]) & u(0xffffffff)) << u(32)
    q = (p + u(1 << 61)) >> u(62)  # rounded to nearest: the quadrant
    p -= q << u(62)
    r = p.view(np.int64).astype(np.float64)
    r *= 3.4061215800865545e-19  # pi / 2 ** 63
    return r.astype(_F), q.astype(_I)


def _sincos(x, sine):
    ax = np.abs(x)
    y = ax * _F(0.636619746685028076171875)
    y += _F(12582912)  # 1.5 * 2 ** 23: rounds y to an integer, kept in the low bits
    quadrant = y.view(_I).copy()
    y -= _F(12582912)
    r = y * _F(-1.5703125)  # pi / 2 in four parts
    r += ax
    for c in (-0.000483989715576171875, 1.62865035235881805419921875e-07,
              5.5644315544167710640977020375430583953857421875e-11):
        t = y * _F(c)
        r += t
    threshold = _F(25966.0 if sine else 18838.0)
    if np.fmax.reduce(ax, initial=0, axis=None) >= threshold:
        huge = (ax >= threshold) & (ax != np.inf)
        r[huge], quadrant[huge] = _reduce_huge(ax[huge])
    if sine:
        sign = quadrant << 30
        sign ^= x.view(_I)
    else:
        sign = quadrant + 1
        sign <<= 30
    sign &= _SIGN
    use_sin = (quadrant & 1) == 0
    if not sine:
        use_sin = ~use_sin
    x2 = r * r
    out = _horner(x2, [2.4372266125283204019069671630859375e-05,
                       -0.00138865201734006404876708984375,
                       0.041666619479656219482421875, -0.5, 1.0])
    s = _horner(x2, [-0.0001959234114083702898469196984621021329076029360294342041015625,
                     0.0083326873655616851693794799871284340042620897293090820312500000,
                     -0.1666666203982298255503735617821803316473960876464843750000000000])
    s *= x2
    s *= r
    s += r
    out = _select(np, use_sin, s, out)
    out.view(_I)[...] ^= sign
    return out


def _sin_vector(x):
    return _zero_denormal_inputs(_sincos(x, True), x)


# ---------------------------------------------------------------------------------- float64
# float64 vectors have 4 lanes; their functions are Cephes-style rational approximations, the
# scalar route the C library's double functions.

_D = np.float64
_LANES64 = 4
_TINY64 = np.finfo(_D).tiny


def _libm64(name):
    fn = getattr(_LIBM, name, None)
    if fn is None:
        return getattr(np, name)
    fn.restype = ctypes.c_double
    fn.argtypes = [ctypes.c_double]
    return lambda v: np.array([fn(t) for t in v.tolist()], _D)


_exp64 = _libm64("exp")
_log64 = _libm64("log")
_log1p64 = _libm64("log1p")
_expm164 = _libm64("expm1")
_tanh64 = _libm64("tanh")


def _lanes64(x, vector, scalar):
    """`vector` over the whole 4-lane vectors of flattened float64 `x`, `scalar` over the rest."""
    flat = x.reshape(-1)
    n = flat.size
    k = n - n % _LANES64
    out = np.empty(n, _D)
    with np.errstate(all="ignore"):
        for i in range(0, k, _BLOCK):
            out[i:min(i + _BLOCK, k)] = vector(flat[i:min(i + _BLOCK, k)])
        if k < n:
            out[k:] = scalar(flat[k:])
    return out.reshape(x.shape)


def _exp64_vector(x):
    xc = np.minimum(x, 709.784)
    m = xc * 1.4426950408889634073599
    m += 0.5
    np.floor(m, out=m)
    xc -= m * 0.693145751953125  # ln(2) in two parts
    xc -= m * 1.42860682030941723212e-6
    x2 = xc * xc
    p = _horner(x2, [1.26177193074810590878e-4, 3.02994407707441961300e-2,
                     9.99999999999999999910e-1], _D)
    p *= xc
    q = _horner(x2, [3.00198505138664455042e-6, 2.52448340349684104192e-3,
                     2.27265548208155028766e-1, 2.00000000000000000009e0], _D)
    q -= p
    p /= q
    p *= 2.0
    p += 1.0
    out = np.ldexp(p, np.nan_to_num(np.clip(m, -2200, 2200)).astype(np.int32))
    out = np.maximum(out, x)  # +inf and NaN inputs
    out[(out < _TINY64) | (x < -745.519)] = 0
    return out


def _flush64(out):
    tiny = np.abs(out) < _TINY64
    out[tiny] *= 0
    return out


def _log64_vector(x):
    bits = x.view(np.int64)
    e = ((bits >> 52) - 1022).astype(_D)
    m = (bits & 0x000fffffffffffff) | 0x3fe0000000000000
    m = m.view(_D)  # x = m * 2 ** e, m in [0.5, 1)
    low = m < 0.70710678118654752440
    shift = m * low
    m -= 1.0
    e -= low
    m += shift
    x2 = m * m
    x3 = x2 * m
    y = _horner(m, [1.01875663804580931796E-4, 4.97494994976747001425E-1,
                    4.70579119878881725854E0], _D)
    y1 = _horner(m, [1.44989225341610930846E1, 1.79368678507819816313E1,
                     7.70838733755885391666E0], _D)
    y *= x3
    y += y1
    q = m + 1.12873587189167450590E1
    q *= m
    q += 4.52279145837532221105E1
    q1 = _horner(m, [8.29875266912776603211E1, 7.11544750618563894466E1,
                     2.31251620126765340583E1], _D)
    q *= x3
    q += q1
    y *= x3
    y /= q
    y += x2 * -0.5
    m += y
    e *= 0.693147180559945309
    e += m
    if not (x.min(initial=np.inf) >= _TINY64 and x.max(initial=0) < np.inf):
        np.copyto(e, np.nan, where=~(x >= 0))
        np.copyto(e, x, where=x == np.inf)
        np.copyto(e, -np.inf, where=np.abs(x) < _TINY64)
    return e


def _tanh64_vector(x):
    x = np.clip(x, -17.714196154005176, 17.714196154005176)
    x2 = x * x
    p = _horner(x2, [2.6158007860482230e-23, 7.6534862268749319e-19, 3.1309488231386680e-15,
                     4.2303918148209176e-12, 2.4618379131293676e-09, 6.8644367682497074e-07,
                     9.3839087674268880e-05, 5.9809711724441161e-03, 1.5184719640284322e-01], _D)
    q = _horner(x2, [6.463747022670968018e-21, 5.782506856739003571e-17,
                     1.293019623712687916e-13, 1.123643448069621992e-10,
                     4.492975677839633985e-08, 8.785185266237658698e-06,
                     8.295161192716231542e-04, 3.437448108450402717e-02,
                     4.851805297361760360e-01, 1.0], _D)
    x2 *= x
    p *= x2
    p += x
    p /= q
    return _flush64(p)


def _log1p64_vector(x):
    xp1 = x + 1.0
    log_xp1 = _log64_vector(xp1)
    exact = (xp1 == 1.0) | (xp1 == log_xp1)
    xp1 -= 1.0
    out = np.divide(log_xp1, xp1, out=log_xp1)
    out *= x
    return _select(np, exact, x, out)


def _expm164_vector(x):
    u = _exp64_vector(x)
    um1 = u - 1.0
    log_u = _log64_vector(u)
    inf = log_u == u
    out = np.divide(x, log_u, out=log_u)
    out *= um1
    out = _select(np, inf, u, out)
    out = _select(np, um1 == -1.0, -1.0, out)
    return _select(np, u == 1.0, x, out)


_ERF64_ALPHA = [1.9493725660006057018823477644531294572516344487667083740234375e-04,
                1.8272566210022942682217328425053892715368419885635375976562500e-03,
                4.5303363351690106863856044583371840417385101318359375000000000e-02,
                1.4215015503619179981775744181504705920815467834472656250000000e-01,
                1.1283791670955125585606992899556644260883331298828125000000000e+00]
_ERF64_BETA = [2.0294484101083099089526257108317963684385176748037338256835938e-05,
               6.8117805899186819641732970609382391558028757572174072265625000e-04,
               1.0582026056098614921752165685120417037978768348693847656250000e-02,
               9.3252603143757495374188692949246615171432495117187500000000000e-02,
               4.5931062818368939559832142549566924571990966796875000000000000e-01, 1.0]
_ERFC64_GAMMA = [1.5252844933226974316088642158462107545346952974796295166015625e-04,
                 1.0909912393738931124520519233556115068495273590087890625000000e-02,
                 1.0628604636755033252537572252549580298364162445068359375000000e-01,
                 3.3492472973137982217295416376146022230386734008789062500000000e-01,
                 4.5065776215933289750026347064704168587923049926757812500000000e-01,
                 2.9433039130294824659017649537418037652969360351562500000000000e-01,
                 9.8792676360600226170838311645638896152377128601074218750000000e-02,
                 1.7095935395503719655962981960328761488199234008789062500000000e-02,
                 1.4249109729504577659398023570247460156679153442382812500000000e-03,
                 4.4567378313647954771875570045835956989321857690811157226562500e-05]
_ERFC64_DELTA = [2.041985103115789845773520028160419315099716186523437500000000e-03,
                 5.316030659946043707142493417450168635696172714233398437500000000e-02,
                 3.426242193784684864077405563875799998641014099121093750000000e-01,
                 8.565637124308049799026321124983951449394226074218750000000000e-01, 1.0,
                 5.968805280570776972126623149961233139038085937500000000000000e-01,
                 1.890922854723317836356244470152887515723705291748046875000000e-01,
                 3.152505418656005586885981983868987299501895904541015625000000e-02,
                 2.565085751861882583380047861965067568235099315643310546875000e-03,
                 7.899362131678837697403017248376499992446042597293853759765625e-05]


def _erf_over_x64(x2):
    p = _horner(x2, _ERF64_ALPHA, _D)
    p /= _horner(x2, _ERF64_BETA, _D)
    return p


def _split64(x):
    """Veltkamp's split of float64 x into a high half and the rest."""
    gamma = x * 134217729.0  # 2 ** 27 + 1
    hi = x - gamma
    hi += gamma
    return hi, x - hi


def _erfc64_large(x, x2, exp_kernel):
    """erfc(x) for |x| > 1: exp(-x**2) / x * P(1 / x**2) / Q(1 / x**2)."""
    hi, lo = _split64(x)
    err = hi * hi - x2  # the rounding error of x2 (Dekker's product)
    err += hi * lo
    err += lo * hi
    err += lo * lo
    e = exp_kernel(-x2)
    z = e - _flush64(e * err)
    q = 1.0 / x2
    r = _horner(q, _ERFC64_GAMMA, _D)
    r /= _horner(q, _ERFC64_DELTA, _D) * x
    r *= z
    two = x.view(np.int64) >> 63  # 2 for negative x, else 0
    two &= np.float64(2).view(np.int64)
    r += two.view(_D)
    return _flush64(r)


def _erf64(x, exp_kernel):
    x2 = x * x
    out = x * _erf_over_x64(x2)
    large = x2 > 1.0
    if large.any():
        out = _select(np, large, 1.0 - _erfc64_large(x, x2, exp_kernel), out)
    return out


def _erfc64(x, exp_kernel):
    x = np.clip(x, -28.0, 28.0)
    x2 = x * x
    out = 1.0 - x * _erf_over_x64(x2)
    large = x2 > 1.0
    if large.any():
        out = _select(np, large, _erfc64_large(x, x2, exp_kernel), out)
    return out


# ------------------------------------------------------------------------------- activations

def softplus(xp, x):
    """log(1 + exp(x)), as x above -t, exp(x) below t, for t = log(epsilon) + 2.

    >>> softplus(np, np.array([-20.0, 0.0, 20.0], np.float32))
    array([2.0611537e-09, 6.9314718e-01, 2.0000000e+01], dtype=float32)
    """
    if x.dtype in _HALF and not emulating(xp, x):
        # TF's kernel steps, each rounded to the 16-bit dtype: exp(x), then log1p of it
        t = _SOFTPLUS_THRESHOLDS[x.dtype]
        with np.errstate(over="ignore"):
            e = _in_float32(xp, lambda xp, v: xp.exp(v), x)
        out = _in_float32(xp, lambda xp, v: xp.log1p(v), e)
        return xp.where(x > -t, x, xp.where(x < t, e, out))
    if not emulating(xp, x) or x.dtype.kind != "f" and x.dtype not in _HALF:
        return _in_float32(xp, _softplus_numpy, x)
    t = _SOFTPLUS_THRESHOLDS[x.dtype]
    e = exp(xp, x)
    out = log1p(xp, e)
    return _select(xp, x > -t, x, _select(xp, x < t, e, out))


def _softplus_numpy(xp, x):
    # max(x, 0) + log1p(exp(-|x|)): no overflow, and exp(x) to full precision for x << 0
    out = xp.asarray(xp.abs(x))
    xp.negative(out, out=out)
    xp.exp(out, out=out)
    xp.log1p(out, out=out)
    out += xp.maximum(x, xp.zeros((), x.dtype))
    return out


def _softplus_thresholds():
    out = {}
    # the epsilon TensorFlow uses for float16 is 2 ** -13, not float16's 2 ** -10
    for dtype, eps in ((_HALF[0], 2.0 ** -13), (_HALF[1], 2.0 ** -7), (_F32, 2.0 ** -23),
                       (np.dtype(np.float64), 2.0 ** -52)):
        # log in float32 (float64 for float64), rounded to the dtype, then + 2 in the dtype
        wide = np.float64 if dtype == np.float64 else _F
        log_eps = np.asarray(np.log(wide(eps)), dtype)
        out[dtype] = np.asarray(log_eps + np.asarray(2, dtype), dtype)
    return out


_SOFTPLUS_THRESHOLDS = _softplus_thresholds()
_DENORMAL_BELOW = {_F32: _TINY, _HALF[1]: _TINY, np.dtype(np.float64): np.finfo(np.float64).tiny}


def denormals_read_as_zero(x):
    """`x` with its denormal entries (or complex parts) as zeros of the same sign, as TF's CPU
    kernels read float32, bfloat16 and float64 numbers (float16 ones widen to normal float32
    numbers, and stay).

    >>> denormals_read_as_zero(np.array([1e-40, -1e-40, 1.0], np.float32))
    array([ 0., -0.,  1.], dtype=float32)
    """
    x = np.asarray(x)
    if x.dtype.kind == "c":
        real, imag = denormals_read_as_zero(x.real), denormals_read_as_zero(x.imag)
        if real is x.real and imag is x.imag:
            return x
        out = np.empty_like(x)
        out.real, out.imag = real, imag
        return out
    tiny = _DENORMAL_BELOW.get(x.dtype)
    if tiny is None or np.fmin.reduce(np.abs(x), axis=None, initial=np.inf) >= tiny:
        return x
    return _zero_denormal_inputs(x.copy(), x, tiny)


def _below_zero(x):
    """x < 0, with denormals read as zero (in float32, bfloat16 and float64)."""
    tiny = _DENORMAL_BELOW.get(x.dtype)
    return x < 0 if tiny is None else x <= -tiny


def elu(xp, x):
    """exp(x) - 1 for x < 0, else x.

    >>> elu(np, np.array([-1.0, 2.0], np.float32))
    array([-0.63212055,  2.        ], dtype=float32)
    """
    if not emulating(xp, x):
        if x.dtype not in _HALF:
            return _in_float32(xp, _elu_numpy, x)
        # 16-bit floats as TF's kernel steps: exp(x) rounded to the dtype, then minus 1
        with np.errstate(over="ignore"):
            e = _in_float32(xp, lambda xp, v: xp.exp(v), x)
        return xp.where(x < 0, e - xp.ones((), x.dtype), x)
    e = exp(xp, x)
    e -= xp.ones((), x.dtype)
    return _select(xp, _below_zero(x), e, x)


def _elu_numpy(xp, x):
    return xp.where(x < 0, xp.expm1(xp.minimum(x, xp.zeros((), x.dtype))), x)


_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_SCALE_ALPHA = 1.7580993408473768599402175208123


def selu(xp, x):
    """scale * alpha * (exp(x) - 1) for x < 0, else scale * x.

    >>> selu(np, np.array([-1.0, 2.0], np.float32))
    array([-1.1113307,  2.101402 ], dtype=float32)
    """
    if not emulating(xp, x):
        if x.dtype not in _HALF:
            return _in_float32(xp, _selu_numpy, x)
        # 16-bit floats as TF's kernel steps, each rounded to the dtype (its constants too):
        # exp(x), minus 1, times scale * alpha; scale times x
        with np.errstate(over="ignore"):
            e = _in_float32(xp, lambda xp, v: xp.exp(v), x)
        negative = (e - xp.ones((), x.dtype)) * xp.asarray(_SELU_SCALE_ALPHA, x.dtype)
        return xp.where(x < 0, negative, x * xp.asarray(_SELU_SCALE, x.dtype))
    e = exp(xp, x)
    e -= xp.ones((), x.dtype)
    e *= xp.asarray(_SELU_SCALE_ALPHA, x.dtype)
    out = xp.asarray(x * xp.asarray(_SELU_SCALE, x.dtype))
    tiny = _DENORMAL_BELOW.get(x.dtype)
    if tiny is not None and xp is np:
        out = _zero_denormal_inputs(out, x, tiny)
    return _select(xp, _below_zero(x), e, out)


def _selu_numpy(xp, x):
    negative = xp.expm1(xp.minimum(x, xp.zeros((), x.dtype)))
    negative *= xp.asarray(_SELU_SCALE_ALPHA, x.dtype)
    return xp.where(x < 0, negative, x * xp.asarray(_SELU_SCALE, x.dtype))


# -------------------------------------------------------------------------------------- pow
# pow(x, y) = 2 ** (y * log2(x)), with log2 and the product carried in double-word
# arithmetic (an unevaluated sum hi + lo of two float32s).

def _two_sum(x, y):
    """(hi, lo) with hi = fl(x + y) and x + y = hi + lo exactly, for |x| >= |y|."""
    hi = x + y
    lo = hi - x
    np.subtract(y, lo, out=lo)
    return hi, lo


def _two_prod(x, y):
    """(hi, lo) with hi = fl(x * y) and x * y = hi + lo exactly (Dekker's product)."""
    hi = x * y
    lo = np.multiply(x, y, dtype=np.float64)
    lo -= hi
    return hi, _flush(lo.astype(_F))


def _dw_add(x_hi, x_lo, y_hi, y_lo):
    """Double-word x + y for |x| >= |y|."""
    hi, lo = _two_sum(x_hi, y_hi)
    lo += y_lo
    lo += x_lo
    return _two_sum(hi, lo)


def _dw_mul(x_hi, x_lo, y):
    """Double-word x times float32 y."""
    hi, lo1 = _two_prod(x_hi, y)
    hi, lo2 = _two_sum(hi, x_lo * y)
    lo2 += lo1
    return _two_sum(hi, lo2)


_C0 = 1.442695041742110273474963832995854318141937255859375
_C1 = -7.2134751588268664068692714863573201000690460205078125e-01


def _log2_dw(z):
    """log2(z) for z in [sqrt(1/2), sqrt(2)) as a double word, to ~2 ** -30."""
    x = z - _F(1)
    p = _horner(x, [9.7010828554630279541015625e-02, -1.6896486282348632812500000e-01,
                    1.7200836539268493652343750e-01, -1.7892272770404815673828125e-01,
                    2.0505344867706298828125000e-01, -2.4046677350997924804687500e-01,
                    2.8857553005218505859375000e-01, -3.6067414283752441406250000e-01,
                    4.8089790344238281250000000e-01])
    hi, lo = _two_prod(x, p)
    hi, lo = _dw_add(_F(_C1), _F(_C1 - float(_F(_C1))), hi, lo)
    hi, lo = _dw_mul(hi, lo, x)
    hi, lo = _dw_add(_F(_C0), _F(_C0 - float(_F(_C0))), hi, lo)
    return _dw_mul(hi, lo, x)


def _round_half_away(x):
    """x rounded to the nearest integer, halves away from zero."""
    below_half = x.dtype.type(0.5) - np.finfo(x.dtype).epsneg / 2  # the float before 1/2
    return np.trunc(x + np.copysign(below_half, x))


def _integer_and_rest(hi, lo):
    """``(n, r)`` with n an integer and hi + lo = n + r, |r| <= 1/2 (up to rounding): the
    exponent of 2 ** (hi + lo) split into 2 ** n and what `exp` takes."""
    n = _round_half_away(hi)
    r = hi - n
    r += lo
    n_r = _round_half_away(r)
    r -= n_r
    n += n_r
    return n, r


def _pow_positive(x, y):
    """x ** y for x > 0 (and the other x as they come out)."""
    m, e = _mantissa_exponent(x)
    low = m < _F(0.70710678118654752440)
    m *= low + _F(1)  # into [sqrt(1/2), sqrt(2))
    e -= low
    rx_hi, rx_lo = _log2_dw(m)
    f1_hi, f1_lo = _two_prod(e, y)
    f2_hi, f2_lo = _dw_mul(rx_hi, rx_lo, y)
    f_hi, f_lo = _dw_add(f1_hi, f1_lo, f2_hi, f2_lo)
    n, r = _integer_and_rest(f_hi, f_lo)
    # 2 ** r = exp(r * ln(2)), the product as a double word: exp(hi) * (1 + lo)
    np.clip(r, _F(-151), _F(129), out=r)
    p_hi, p_lo = _two_prod(_F(0.693147180559945309), r)
    out = _exp_vector(p_hi)
    p_lo += _F(1)
    out *= p_lo
    # times 2 ** n, exactly (with FTZ for results below 2 ** -126): in two halves
    half = np.floor(np.clip(n, _F(-300), _F(300)) * _F(0.5))
    n -= half
    out *= _two_power(half)
    out *= _two_power(n)
    return _flush(out)


def _two_power(k):
    """2 ** k in float32 for float32 integers k (0 below -126, inf above 127)."""
    out = np.clip(k, _F(-127), _F(128))
    out += _EXPONENT_BIAS
    bits = out.view(_I)
    bits <<= 23
    return out


def _pow_vector(x_in, y):
    x = _read_denormals_as_zero(x_in)
    y = _read_denormals_as_zero(y)
    with np.errstate(all="ignore"):
        out = _pow_positive(np.abs(x), y)
    return _pow_special_cases(x_in, x, y, out, 128 * 0.693147180559945309 / 2.0 ** -23)


def _pow_special_cases(x_in, x, y, out, huge):
    """`out` with the special cases of pow(x, y) as C's pow has them; `huge`: |y| from which
    any base but 1 gives 0 or inf."""
    dtype = out.dtype.type
    y_int = (np.floor(y) == y) & (np.abs(y) != np.inf)
    half_y = y * dtype(0.5)
    y_odd = y_int & (_round_half_away(half_y) != half_y)
    neg = x < 0
    nan, inf, zero, one = dtype(np.nan), dtype(np.inf), dtype(0), dtype(1)
    out = _select(np, neg & ~y_int, nan, out)
    out = _select(np, x == 0, _select(np, y < 0, inf, zero), out)
    out = _select(np, np.signbit(x) & y_odd, -out, out)
    above_one = np.abs(x) > 1
    inf_y = _select(np, ((y < 0) & (x == 0)) | ((y < 0) ^ above_one), inf, zero)
    inf_y = _select(np, x == -1, one, inf_y)
    out = _select(np, np.abs(y) >= dtype(huge), inf_y, out)
    pos_inf = _select(np, y < 0, zero, inf)
    neg_inf = _select(np, y_odd, -pos_inf, pos_inf)
    out = _select(np, np.abs(x) == np.inf, _select(np, neg, neg_inf, pos_inf), out)
    out = _select(np, np.isnan(x) | np.isnan(y), nan, out)
    out = _select(np, (x == 1) | (y == 0), one, out)
    return _select(np, y == 1, x_in, out)


def _read_denormals_as_zero(x):
    if np.fmin.reduce(np.abs(x), axis=None, initial=np.inf) < _TINY:
        return _zero_denormal_inputs(x.copy(), x)
    return x


def _libm_pow(name, dtype):
    fn = getattr(_LIBM, name, None)
    if fn is None:
        return lambda x, y: np.power(x, y, dtype=np.float64).astype(dtype)
    fn.restype = fn_type = ctypes.c_float if dtype == _F else ctypes.c_double
    fn.argtypes = [fn_type, fn_type]
    return lambda x, y: np.array([fn(a, b) for a, b in zip(x.tolist(), y.tolist())], dtype)


_powf = _libm_pow("powf", _F)
_pow64 = _libm_pow("pow", _D)


def _pow_scalar(x, y):
    out = _powf(x, y)
    denormal = (np.abs(x) < _TINY) & (x != 0)
    if denormal.any():  # the C library reads a denormal (as zero) like 2 ** -150
        d = x[denormal]
        out[denormal] = _powf(np.copysign(_F(1), d), y[denormal]) * np.exp2(
            -150.0 * y[denormal].astype(np.float64)).astype(_F)
    return _flush(out)


def pow(xp, x, y):
    """x ** y with broadcasting (16-bit floats in float32); when emulating TensorFlow,
    float32 and float64 as TensorFlow computes them.

    >>> pow(np, np.array([2.0, 3.0], np.float32), np.array(1.5, np.float32))
    array([2.828427, 5.196152], dtype=float32)
    """
    if x.dtype in _HALF or x.dtype == _F32 and not (emulating(xp, x) and emulating(xp, y)):
        # in float64, rounded once: correctly rounded, where NumPy's float32 power (a
        # vectorized approximation) is not even for 3.5 ** -1
        return _as_c_sqrt_power(xp, x, y, xp.power(x, y, dtype=xp.float64).astype(x.dtype))
    if x.dtype not in (_F32, _F64) or not (emulating(xp, x) and emulating(xp, y)):
        out = xp.power(x, y)
        return _as_c_sqrt_power(xp, x, y, out) if x.dtype.kind == "f" else out
    if x.dtype == _F32:
        lanes, vector, scalar = _LANES, _pow_vector, _pow_scalar
    else:
        lanes, vector, scalar = _LANES64, _pow64_vector, lambda a, b: _flush64(_pow64(a, b))
    x, y = np.broadcast_arrays(x, y)
    shape = x.shape
    x, y = x.reshape(-1), y.reshape(-1)
    n = x.size
    k = n - n % lanes
    out = np.empty(n, x.dtype)
    with np.errstate(all="ignore"):
        for i in range(0, k, _BLOCK):
            j = min(i + _BLOCK, k)
            out[i:j] = vector(x[i:j], y[i:j])
        if k < n:
            out[k:] = scalar(x[k:], y[k:])
    return out.reshape(shape)


def _as_c_sqrt_power(xp, x, y, out):
    """`out` (NumPy's x ** y) with C's pow(-inf, 0.5) = inf and pow(-0, 0.5) = +0: NumPy
    takes a scalar exponent 0.5 as a square root, which gives NaN and -0 there."""
    half = y == 0.5
    if not xp.any(half):
        return out
    dtype = out.dtype.type
    out = xp.where(half & (x == -xp.inf), dtype(xp.inf), out)
    return xp.where(half & (x == 0), dtype(0), out)


# float64: the same steps with double words of two float64s, log2 from a rational
# transformation r = c (x - 1) / (x + 1)

def _two_prod64(x, y):
    """(hi, lo) with hi = fl(x * y) and x * y = hi + lo exactly (Dekker's product)."""
    hi = x * y
    x_hi, x_lo = _split64(x)
    y_hi, y_lo = _split64(y)
    lo = x_hi * y_hi - hi
    lo += x_hi * y_lo
    lo += x_lo * y_hi
    lo += x_lo * y_lo
    return hi, lo


def _dw_mul64(x_hi, x_lo, y):
    """Double-word x times float64 y."""
    hi, lo1 = _two_prod64(x_hi, y)
    hi, lo2 = _two_sum(hi, x_lo * y)
    lo2 += lo1
    return _two_sum(hi, lo2)


def _dw_mul_dw64(x_hi, x_lo, y_hi, y_lo):
    hi_hi, hi_lo = _dw_mul64(x_hi, x_lo, y_hi)
    lo_hi, lo_lo = _dw_mul64(x_hi, x_lo, y_lo)
    return _dw_add(hi_hi, hi_lo, lo_hi, lo_lo)


def _log2_dw64(x):
    """log2(x) for x in [sqrt(1/2), sqrt(2)) as a double word, to ~1e-18."""
    t_hi, t_lo = _dw_mul64(_D(2.88539008177792677), _D(4.07660016854549667e-17), x - 1.0)
    # r = t / (x + 1) as a double word
    d = x + 1.0
    r_hi = t_hi / d
    p_hi, p_lo = _two_prod64(r_hi, d)
    delta = t_hi - p_hi
    delta -= p_lo
    delta += t_lo
    r_hi, r_lo = _two_sum(r_hi, delta / d)
    r2_hi, r2_lo = _dw_mul_dw64(r_hi, r_lo, r_hi, r_lo)
    r4 = _dw_mul_dw64(r2_hi, r2_lo, r2_hi, r2_lo)[0]
    q_even = _horner(r4, [2.87074255468000586e-9, 2.31032094540014656e-7,
                          2.31271023278625638e-5, 2.88543873228900172e-3], _D)
    q_odd = _horner(r4, [2.38957980901884082e-8, 2.27279857398537278e-6,
                         2.47556738444535513e-4], _D)
    q_odd *= r2_hi
    q_odd += q_even
    p_hi, p_lo = _dw_mul64(r2_hi, r2_lo, q_odd)
    p_hi, p_lo = _dw_add(_D(0.0400377511598501157), _D(-4.77726582251425391e-19), p_hi, p_lo)
    p_hi, p_lo = _dw_mul_dw64(r2_hi, r2_lo, p_hi, p_lo)
    hi, lo = _two_sum(_D(1), p_hi)
    lo += p_lo
    hi, lo = _two_sum(hi, lo)
    return _dw_mul_dw64(hi, lo, r_hi, r_lo)


def _pow64_positive(x, y):
    m, e = np.frexp(x)
    e = e.astype(_D)
    low = m < 0.70710678118654752440
    m *= low + 1.0
    e -= low
    rx_hi, rx_lo = _log2_dw64(m)
    f1_hi, f1_lo = _two_prod64(e, y)
    f2_hi, f2_lo = _dw_mul64(rx_hi, rx_lo, y)
    f_hi, f_lo = _dw_add(f1_hi, f1_lo, f2_hi, f2_lo)
    n, r = _integer_and_rest(f_hi, f_lo)
    np.clip(r, -1076.0, 1025.0, out=r)
    p_hi, p_lo = _two_prod64(_D(0.693147180559945309417232121458), r)
    out = _exp64_vector(p_hi)
    p_lo += 1.0
    out *= p_lo
    out = np.ldexp(out, np.clip(np.nan_to_num(n), -2200, 2200).astype(np.int32))
    return _flush64(out)


def _pow64_vector(x, y):
    with np.errstate(all="ignore"):
        out = _pow64_positive(np.abs(x), y)
    return _pow_special_cases(x, x, y, out, 1024 * 0.693147180559945309 / 2.0 ** -52)


# ------------------------------------------------------------------- reciprocal and rsqrt
# Vectors start from the processor's 12-bit estimates (x86 RCPPS and RSQRTPS, as Intel
# processors compute them: tables indexed by the leading mantissa bits) and refine them with
# one Newton step; the scalar route divides.

def _estimate_table(values):
    """Float32 bits of round(v * 2 ** 13) / 2 ** 13 for each v."""
    return (np.round(np.asarray(values) * 2.0 ** 13) / 2.0 ** 13).astype(_F).view(_I)


_RECIPROCAL_ESTIMATES = _estimate_table(1 / (1 + (np.arange(2048) + 0.5) / 2048))
_RSQRT_ESTIMATES = np.stack([_estimate_table(1 / np.sqrt(s * (1 + (np.arange(1024) + 0.5) / 1024)))
                             for s in (1, 2)])


def _reciprocal_estimate(a):
    bits = a.view(_I)
    exponent = bits & 0x7f800000
    out = np.take(_RECIPROCAL_ESTIMATES, (bits >> 12) & 2047)
    out -= exponent
    out += 127 << 23
    top = exponent.max(initial=0)
    if top >= 253 << 23:  # results below 2 ** -126 flush to zero
        out[out <= 0x7fffff] = 0
    out |= bits & _SIGN
    out = out.view(_F)
    if top == 255 << 23 or exponent.min(initial=1) == 0:
        # zeros and denormals give inf, inf gives 0 (signed), NaN stays NaN
        special = (exponent == 0) | (exponent == 255 << 23)
        s = a[special]
        out[special] = np.where(np.abs(s) < _TINY, np.copysign(_F(np.inf), s),
                                np.where(np.isnan(s), s, np.copysign(_F(0), s)))
    return out


def _reciprocal_vector(a):
    a = _read_denormals_as_zero(a)
    x = _reciprocal_estimate(a)
    t = a * x
    np.subtract(_F(1), t, out=t)
    refined = x * t
    big = _F(2.0 ** 100)
    if not -big < np.fmin.reduce(a, None, initial=0) <= np.fmax.reduce(a, None, initial=0) < big:
        _flush(refined)  # the correction to a result near 2 ** -126 underflows
    refined += x
    return _select(np, np.isnan(t), x, refined)


def _reciprocal_scalar(v):
    return _flush(_F(1) / _read_denormals_as_zero(v))


def _rsqrt_estimate(a):
    bits = a.view(_I)
    e = (bits >> 23) - 127  # the exponent of positive a
    odd = e & 1
    out = _RSQRT_ESTIMATES[odd, (bits >> 13) & 1023]
    e -= odd
    out -= e << 22  # times 2 ** -(e / 2)
    out = out.view(_F)
    special = ~(a >= _TINY) | (a == np.inf)
    if special.any():  # +-0 and denormals give +-inf, inf 0, negatives and NaN NaN
        s = a[special]
        out[special] = np.where(np.abs(s) < _TINY, np.copysign(_F(np.inf), s),
                                np.where(s == np.inf, _F(0), _F(np.nan)))
    return out


def _rsqrt_vector(a):
    x = _rsqrt_estimate(a)
    h = a * x
    h *= x
    h -= _F(1)
    half = x * _F(-0.5)
    h *= half
    h += x
    return _select(np, np.isnan(h), x, h)


def _rsqrt_scalar(v):
    return _flush(_F(1) / np.sqrt(_read_denormals_as_zero(v)))


def _reciprocal_numpy(xp, x):
    if x.dtype.kind == "c":  # TF divides 1 by x: 1 / (2+0j) is 0.5+0j (NumPy's reciprocal: -0j)
        with np.errstate(divide="ignore", invalid="ignore"):
            return xp.divide(xp.ones((), x.dtype), x)
    return xp.reciprocal(x)


def _rsqrt_numpy(xp, x):
    out = xp.asarray(xp.sqrt(x))
    return xp.divide(xp.ones((), x.dtype), out, out=out)


# ---------------------------------------------------------------------------------- softmax
# Rows reduce in vector order: sums of vectors (in four interleaved accumulators from four
# vectors on, halves of rows longer than 1024 vectors separately), then the lanes folded in
# halves, plus the row's last elements past its whole vectors one by one.

class _Route:
    """A dtype's vector width and vector/scalar kernels for the row-wise ops."""

    def __init__(self, dtype, lanes, exp, log, reciprocal):
        self.dtype, self.lanes = dtype, lanes
        self.exp_vector, self.exp_scalar = exp
        self.log_vector, self.log_scalar = log
        self.reciprocal_vector, self.reciprocal_scalar = reciprocal

    def map(self, x, vector, scalar):
        return (_lanes if self.lanes == _LANES else _lanes64)(x, vector, scalar)


_ROUTES = {
    _F32: _Route(_F, _LANES, (_exp_vector, _exp_scalar), (_log_vector, _log_scalar),
                 (_reciprocal_vector, _reciprocal_scalar)),
    _F64: _Route(_D, _LANES64, (_exp64_vector, lambda v: _flush64(_exp64(v))),
                 (_log64_vector, _log64), (np.reciprocal, np.reciprocal)),
}


def _row_sums(x, lanes, first=0):
    """Sums of the rows of `x`, in that order; `first`: the flat index of x[0, 0] modulo
    `lanes` in its tensor (where long rows split in halves)."""
    rows, n = x.shape
    if n > lanes * 1024:
        # split at a vector boundary of the flat index: it depends on where each row starts
        out = np.empty(rows, x.dtype)
        for phase in range(lanes):
            mine = (first + np.arange(rows) * n) % lanes == phase
            if mine.any():
                left = min(-(-(phase + -(-n // 2)) // lanes) * lanes - phase, n)
                part = _row_sums(x[mine, :left], lanes, phase)
                if left < n:
                    part = part + _row_sums(x[mine, left:], lanes, (phase + left) % lanes)
                out[mine] = part
        return out
    acc = np.zeros((rows, lanes), x.dtype)
    start = 0
    if n >= 4 * lanes:
        start = n // (4 * lanes) * 4 * lanes
        blocks = x[:, :start].reshape(rows, -1, 4, lanes)
        quad = np.zeros((rows, 4, lanes), x.dtype)
        for i in range(blocks.shape[1]):
            quad += blocks[:, i]
        acc = quad[:, 0] + quad[:, 1]
        acc += quad[:, 2]
        acc += quad[:, 3]
    whole = n // lanes * lanes
    for j in range(start, whole, lanes):
        acc += x[:, j:j + lanes]
    rest = np.zeros(rows, x.dtype)
    for j in range(whole, n):
        rest += x[:, j]
    while acc.shape[1] > 1:
        acc = acc[:, :acc.shape[1] // 2] + acc[:, acc.shape[1] // 2:]
    return rest + acc[:, 0]


def _exp_rows(x, route):
    """exp of the rows of `x` as a reduction reads them: each row's elements past its whole
    vectors on the scalar route."""
    n = x.shape[1]
    whole = n // route.lanes * route.lanes
    out = np.empty_like(x)
    with np.errstate(all="ignore"):
        if whole:
            out[:, :whole] = route.map(np.ascontiguousarray(x[:, :whole]), route.exp_vector,
                                       route.exp_scalar)
        if whole < n:
            out[:, whole:] = route.exp_scalar(x[:, whole:].ravel()).reshape(-1, n - whole)
    return out


def _as_rows(x, axis):
    """`x` with `axis` swapped with the last, as a C-contiguous matrix of rows (and the
    permutation, its own inverse)."""
    perm = list(range(x.ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    swapped = np.ascontiguousarray(np.transpose(x, perm))
    return swapped.reshape(-1, x.shape[axis]), swapped.shape, perm


def _shifted_rows(x):
    """x - max(x) along rows."""
    return x - x.max(axis=1, keepdims=True)


def _softmax_rows(rows, route):
    """softmax of the rows: exp(x - max) times 1 / sum."""
    e = route.map(_shifted_rows(rows), route.exp_vector, route.exp_scalar)
    inverse = route.map(_row_sums(e, route.lanes), route.reciprocal_vector,
                        route.reciprocal_scalar)
    e *= inverse[:, None]
    return e


# softmax itself runs on 16-lane vectors (AVX-512) with fused multiply-adds:
# exp(x - max) = 2 * 2 ** (n - 1) * p(r) with a degree-5 polynomial p, summed in four
# accumulators of 16 lanes, then multiplied by 1 / sum.

def _bits(value):
    return np.array([value], np.uint32).view(_F)[0]


_LN_FLT_MIN = _bits(0xc2aeac50)
_LN_FLT_MAX = _bits(0x42b17218)
_EXP_POLY = [_bits(b) for b in (0x3c07cfce, 0x3d2b9d0d, 0x3e2aad40, 0x3efffee3, 0x3f7ffffb)]


def _fma(a, b, c):
    """fl(a * b + c) for float32 arrays, through float64 (a * b is exact there)."""
    out = np.multiply(a, b, dtype=np.float64)
    out += c
    return out.astype(_F)


def _exp_fma(x):
    zero = x < _LN_FLT_MIN
    x = np.clip(x, _LN_FLT_MIN, _LN_FLT_MAX)
    n = x * _bits(0x3fb8aa3b)
    n += _F(0.5)
    np.floor(n, out=n)
    r = _fma(-n, _bits(0x3f317218), x)
    y = _fma(_F(_EXP_POLY[0]), r, _EXP_POLY[1])
    for c in _EXP_POLY[2:] + [_F(1)]:
        y = _fma(y, r, c)
    n -= _F(1)
    scale = n.astype(_I)
    scale += 127
    scale <<= 23
    scale[zero] = 0
    y *= scale.view(_F)
    y *= _F(2)
    return y


def _sum16(x):
    """Row sums in four 16-lane accumulators (the last partial vector into the first), then
    the lanes as a tree."""
    rows, n = x.shape
    full = n // 16
    groups = full // 4
    acc = np.zeros((rows, 4, 16), _F)
    if groups:
        blocks = x[:, :groups * 64].reshape(rows, groups, 4, 16)
        for g in range(groups):
            acc += blocks[:, g]
    for i in range(full - groups * 4):
        acc[:, i] += x[:, (groups * 4 + i) * 16:(groups * 4 + i + 1) * 16]
    if n % 16:
        acc[:, 0, :n % 16] += x[:, full * 16:]
    v = acc[:, 0] + acc[:, 1]
    v += acc[:, 2] + acc[:, 3]
    for step in (8, 4, 2, 1):
        v = v + v[:, np.arange(16) ^ step]
    return v[:, 0]


def softmax(logits, axis):
    """softmax of float32 or float64 `logits` along `axis` (a non-empty axis).

    >>> softmax(np.array([[1.0, 2.0]], np.float32), -1)
    array([[0.26894143, 0.73105854]], dtype=float32)
    """
    rows, shape, perm = _as_rows(logits, axis)
    with np.errstate(all="ignore"):
        if logits.dtype == _F64:
            out = _softmax_rows(rows, _ROUTES[_F64])
        else:
            out = _exp_fma(_shifted_rows(rows))
            out *= (_F(1) / _sum16(out))[:, None]
            out = _flush(out)
    return np.transpose(out.reshape(shape), perm)


def log_softmax(logits, axis):
    """log(softmax) of float32 or float64 `logits` along `axis` (a non-empty axis).

    >>> log_softmax(np.array([[1.0, 2.0]], np.float32), -1)
    array([[-1.3132616 , -0.31326166]], dtype=float32)
    """
    route = _ROUTES[logits.dtype]
    rows, shape, perm = _as_rows(logits, axis)
    shifted = _shifted_rows(rows)
    sums = _row_sums(_exp_rows(shifted, route), route.lanes)
    shifted -= route.map(sums, route.log_vector, route.log_scalar)[:, None]
    return np.transpose(shifted.reshape(shape), perm)


def softmax_cross_entropy(logits, labels):
    """(loss, backprop) of softmax cross entropy for float32 or float64 matrices of one
    shape."""
    route = _ROUTES[logits.dtype]
    shifted = _shifted_rows(logits)
    sums = _row_sums(_exp_rows(shifted, route), route.lanes)
    neg_log_probs = route.map(sums, route.log_vector, route.log_scalar)[:, None] - shifted
    loss = _row_sums(labels * neg_log_probs, route.lanes)
    backprop = route.map(shifted, route.exp_vector, route.exp_scalar)
    backprop /= sums[:, None]
    backprop -= labels
    return loss, backprop


def sparse_softmax_cross_entropy(logits, labels):
    """(loss, backprop) of softmax cross entropy for a float32 or float64 matrix and valid
    class indices."""
    route = _ROUTES[logits.dtype]
    shifted = _shifted_rows(logits)
    sums = _row_sums(_exp_rows(shifted, route), route.lanes)
    picked = np.take_along_axis(shifted, labels[:, None].astype(np.intp), 1)[:, 0]
    # the loss takes the C library's log of each sum
    loss = (_logf if logits.dtype == _F32 else _log64)(sums) - picked
    backprop = route.map(shifted, route.exp_vector, route.exp_scalar)
    backprop /= sums[:, None]
    backprop[np.arange(len(labels)), labels] -= 1
    return loss, backprop


# ---------------------------------------------------------------------------------- kernels

exp = _unary(_exp_vector, _exp_scalar, _numpy("exp"),
             float64=(_exp64_vector, lambda v: _flush64(_exp64(v))))
log = _unary(_log_vector, _log_scalar, _numpy("log"), float64=(_log64_vector, _log64))
log1p = _unary(_log1p_vector, _log1pf, _numpy("log1p"), float64=(_log1p64_vector, _log1p64))
expm1 = _unary(_expm1_vector, _expm1_scalar, _numpy("expm1"),
               float64=(_expm164_vector, _expm164))
tanh = _unary(_tanh, _tanh, _numpy("tanh"), float64=(_tanh64_vector, _tanh64))
erf = _unary(_erf, _erf, _erf_other,
             float64=(lambda v: _erf64(v, _exp64_vector), lambda v: _erf64(v, _exp64)))
erfc = _unary(lambda v: _erfc(v, _exp_vector, _reciprocal_vector),
              lambda v: _erfc(v, _exp_scalar, np.reciprocal), _erfc_other,
              float64=(lambda v: _erfc64(v, _exp64_vector), lambda v: _erfc64(v, _exp64)))
sin = _unary(_sin_vector, _sinf, _numpy("sin"))
cos = _unary(lambda v: _sincos(v, False), _cosf, _numpy("cos"))
reciprocal = _unary(_reciprocal_vector, _reciprocal_scalar, _reciprocal_numpy)
# 16-bit floats: the square root rounded to their dtype, then divided in it
rsqrt = _unary(_rsqrt_vector, _rsqrt_scalar, _rsqrt_numpy,
               lambda v: np.ones((), v.dtype) / np.sqrt(_read_denormals_as_zero(v)))
