"""Philox4x32-10 random bits and the values drawn from them, equal to TensorFlow's CPU kernels.

A stream is a 64-bit `key` and a 128-bit `counter`: block ``i`` of the stream is
Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3") of
``counter + i`` under `key`, four 32-bit words. Every distribution fills its output
from whole blocks, in order:

* uniform floats: one value per word (float32, float16, bfloat16: the word's low
  mantissa bits under the exponent of 1.0, minus 1) or per two words (float64);
* normals: Box-Muller on pairs of uniforms (float32 and narrower: two words per
  pair; float64: four);
* truncated normals: groups of 4 values (2 for float64) each read from their own
  part of the stream, 256 blocks (128) apart, keeping the normals within 2;
* integers: ``minval + bits % (maxval - minval)`` with 32 or 64 bits per value;
* categorical samples, permutations, gamma, Poisson and binomial samples, truncated
  normals with parameters: see each function.

Normals are computed with the `log`, `sin` and `cos` of the GNU C library (as built
for CPUs with FMA), which are not correctly rounded: `_logf`, `_sincosf` and `_log`
reproduce its float `logf`, `sinf`, `cosf` and its double `log` to the last bit (NumPy's
double `sin` and `cos` are the C library's); its `log1p` and `pow` come from Python's
`math`. Index shuffles use no Philox stream but a small block cipher (Simon).

>>> key, counter = stateless_key_counter(1, 2)
>>> uniform(np, key, counter, (2,), np.float32)
array([0.8440604 , 0.19204533], dtype=float32)
"""
import math

import ml_dtypes
import numpy as np

_U32 = 0xFFFFFFFF
_U64 = 2**64 - 1
_M0, _M1 = 0xD2511F53, 0xCD9E8D57  # the round multipliers
_W0, _W1 = 0x9E3779B9, 0xBB67AE85  # the key schedule's increments
_BF16 = np.dtype(ml_dtypes.bfloat16)
RESERVED_PER_VALUE = 256  # blocks a stateful kernel reserves per value it draws
_CHUNK = 1 << 18  # blocks computed at once


# -- bits ------------------------------------------------------------------------------------

def _rounds(xp, c0, c1, c2, c3, key):
    """Philox4x32-10 of counter words ``c0..c3`` (uint64 arrays holding 32-bit values)."""
    k0, k1 = key & _U32, (key >> 32) & _U32
    m0, m1, mask, shift = xp.uint64(_M0), xp.uint64(_M1), xp.uint64(_U32), xp.uint64(32)
    for _ in range(10):
        p0, p1 = c0 * m0, c2 * m1  # 32 x 32 -> 64 bits: the high and low halves are used
        c0, c1, c2, c3 = ((p1 >> shift) ^ c1 ^ xp.uint64(k0), p1 & mask,
                          (p0 >> shift) ^ c3 ^ xp.uint64(k1), p0 & mask)
        k0, k1 = (k0 + _W0) & _U32, (k1 + _W1) & _U32
    return xp.stack([c0, c1, c2, c3], axis=-1).astype(xp.uint32)


def blocks_at(xp, key, lo, hi):
    """The blocks at counters ``hi * 2**64 + lo`` (uint64 arrays): shape ``lo.shape + (4,)``.
    `key` is an int, or a uint64 array broadcasting against `lo` (a key per counter)."""
    mask, shift = xp.uint64(_U32), xp.uint64(32)
    if lo.size <= _CHUNK:
        return _rounds(xp, lo & mask, lo >> shift, hi & mask, hi >> shift, key & _U64)
    out = xp.empty(lo.shape + (4,), xp.uint32)
    flat_lo, flat_hi, flat_out = lo.reshape(-1), hi.reshape(-1), out.reshape(-1, 4)
    keys = None if isinstance(key, int) else xp.broadcast_to(key, lo.shape).reshape(-1)
    for start in range(0, flat_lo.size, _CHUNK):  # bounded temporaries
        part = slice(start, start + _CHUNK)
        flat_out[part] = blocks_at(xp, key if keys is None else keys[part], flat_lo[part],
                                   flat_hi[part])
    return out


_FEW_BLOCKS = 8  # up to this many, Python integers beat NumPy's cost per call


def _rounds_int(c0, c1, c2, c3, key):
    """`_rounds` of one block on Python integers."""
    k0, k1 = key & _U32, (key >> 32) & _U32
    for _ in range(10):
        p0, p1 = c0 * _M0, c2 * _M1
        c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & _U32, (p0 >> 32) ^ c3 ^ k1, p0 & _U32
        k0, k1 = (k0 + _W0) & _U32, (k1 + _W1) & _U32
    return c0, c1, c2, c3


def blocks(xp, key, counter, count):
    """`count` consecutive blocks from `counter`: uint32 of shape ``(count, 4)``.

    >>> [hex(w) for w in blocks(np, 0, 0, 1)[0].tolist()]  # a known answer of Philox4x32-10
    ['0x6627e8d5', '0xe169c58d', '0xbc57ac4c', '0x9b00dbd8']
    """
    counter &= 2**128 - 1
    if count <= _FEW_BLOCKS and xp is np:  # (a random crop's offsets, a flip's coin)
        start, high, key = counter & _U64, counter >> 64, key & _U64
        rows = []
        for i in range(count):
            lo = start + i
            hi = (high + (lo >> 64)) & _U64  # the carry past 2**64
            lo &= _U64
            rows.append(_rounds_int(lo & _U32, lo >> 32, hi & _U32, hi >> 32, key))
        return np.array(rows, np.uint32).reshape(count, 4)
    start = counter & _U64
    lo = xp.arange(count, dtype=xp.uint64) + xp.uint64(start)  # wraps past 2**64: carry
    hi = xp.where(lo < xp.uint64(start), xp.uint64(((counter >> 64) + 1) & _U64),
                  xp.uint64(counter >> 64))
    return blocks_at(xp, key, lo, hi)


class Runs:
    """The streams of `n` runs of one draw, drawn at once (a map's function run for a chunk
    of elements): run ``k`` reads the stream of ``key[k]`` from counter ``hi[k] * 2**64 +
    lo[k]`` (uint64 arrays of shape ``(n,)``; `key` may be one int for all).  Given as the `counter` of `uniform`,
    `uniform_int`, `full_int` or `normal` (whose `key` it overrides), it makes them return
    the n runs' values stacked, each what that run alone would draw."""

    __slots__ = ("key", "lo", "hi")

    def __init__(self, key, lo, hi):
        self.key, self.lo, self.hi = key, lo, hi

    def __len__(self):
        return len(self.lo)

    @classmethod
    def stepped(cls, key, counter, step, n):
        """Runs of one key whose counters start at `counter` and `step` blocks apart (the
        successive runs of a stateful op)."""
        counters = [(counter + k * step) & (2**128 - 1) for k in range(n)]
        return cls(key & _U64,
                   np.array([c & _U64 for c in counters], np.uint64),
                   np.array([c >> 64 for c in counters], np.uint64))

    @classmethod
    def of_seeds(cls, seeds):
        """The streams of stateless seeds ``seeds`` (integers of shape ``(n, 2)``), as
        `stateless_key_counter` makes them."""
        seeds = np.asarray(seeds).astype(np.int64).view(np.uint64)
        w = blocks_at(np, 0x02461E29_3EC8F720, seeds[:, 0], seeds[:, 1]).astype(np.uint64)
        shift = np.uint64(32)
        return cls(w[:, 0] | w[:, 1] << shift, np.zeros(len(w), np.uint64),
                   w[:, 2] | w[:, 3] << shift)


def _fill_runs(xp, runs, shape, per_block, values):
    """`_fill` for each of `runs`: ``(n,) + shape``."""
    size = math.prod(shape)
    count = -(-size // per_block)
    start = runs.lo[:, None]
    lo = start + xp.arange(count, dtype=xp.uint64)
    hi = runs.hi[:, None] + (lo < start).astype(xp.uint64)  # the carry past 2**64
    b = blocks_at(xp, runs.key if isinstance(runs.key, int) else runs.key[:, None], lo, hi)
    return values(b).reshape(len(runs), -1)[:, :size].reshape((len(runs),) + tuple(shape))


def word_stream(key, counter):
    """The stream's 32-bit words one at a time, as Python ints (what TF's kernels that draw
    as they go, a bounding box sampler's, read through its ``SimplePhilox``)."""
    key, counter = key & _U64, counter & (2**128 - 1)
    while True:
        lo, hi = counter & _U64, counter >> 64
        yield from _rounds_int(lo & _U32, lo >> 32, hi & _U32, hi >> 32, key)
        counter = (counter + 1) & (2**128 - 1)


def next_float(words):
    """A float32 in [0, 1) from the next word of `words` (a `word_stream`): its low 23
    bits under the exponent of 1.0, minus 1."""
    return np.uint32((next(words) & 0x7FFFFF) | 0x3F800000).view(np.float32) - np.float32(1)


def next_double(words):
    """A float in [0, 1) from the next two words: 20 bits of the first, all of the second."""
    hi, lo = next(words), next(words)
    return float(np.uint64(((hi & 0xFFFFF) << 32) | lo | 0x3FF0000000000000).view(
        np.float64)) - 1.0


def next_uint64(words):
    """A 64-bit integer from the next two words (the first the low half)."""
    return next(words) | next(words) << 32


def words(xp, key, counter, count):
    """The first `count` 32-bit words of the stream (whole blocks, in order)."""
    return blocks(xp, key, counter, -(-count // 4)).reshape(-1)[:count]


def skip_values(counter, values):
    """The 128-bit `counter` moved on past `values` values' blocks, as TF's generators
    skip: ``values * RESERVED_PER_VALUE`` wraps to 64 bits, and the carry out of the
    counter's lowest 32 bits is lost when the count's high 32 bits are all ones (TF's
    32-bit add drops it; so a count of -1 steps the counter back).

    >>> skip_values(0, 1), skip_values(256, -1), skip_values(0, 2**56)
    (256, 0, 0)
    """
    count = (int(values) * RESERVED_PER_VALUE) & _U64
    count_lo, count_hi = count & _U32, count >> 32
    low = (counter & _U32) + count_lo
    if low > _U32:
        count_hi = (count_hi + 1) & _U32
    # (the counter's other three words add `count_hi` into the second, carrying upward)
    rest = ((counter >> 32) + count_hi) % 2**96
    return rest << 32 | low & _U32


def stateless_key_counter(seed0, seed1):
    """The stream of a stateless op's seed ``[seed0, seed1]``: the seed scrambled by one
    Philox block under a fixed key, so that every bit of both seeds matters.

    >>> stateless_key_counter(0, 0)[0] > 0
    True
    """
    mixed = [int(w) for w in blocks(np, 0x02461E29_3EC8F720,
                                    (seed0 & _U64) | (seed1 & _U64) << 64, 1)[0]]
    return mixed[0] | mixed[1] << 32, (mixed[2] | mixed[3] << 32) << 64


def _pairs64(w):
    """64-bit values from word pairs (first word low) of ``(n, 4)`` blocks: ``(n, 2)``."""
    w = w.astype(np.uint64)
    return w[..., 0::2] | (w[..., 1::2] << np.uint64(32))


# -- uniform values --------------------------------------------------------------------------

def _float32(w):
    """Floats in [0, 1) from the low 23 bits of each word."""
    return ((w & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)


def _float64(hi, lo):
    """Doubles in [0, 1) from 20 bits of `hi` and all of `lo`."""
    bits = ((hi.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | lo.astype(np.uint64)
    return (bits | np.uint64(0x3FF0000000000000)).view(np.float64) - 1.0


def _narrow(w, dtype):
    """float16 or bfloat16 values in [0, 1) from the low mantissa bits of each word."""
    if dtype == _BF16:
        bits = (w & np.uint32(0x7F)) | np.uint32(0x3F80)
    else:
        bits = (w & np.uint32(0x3FF)) | np.uint32(0x3C00)
    one = bits.astype(np.uint16).view(dtype)
    return (one.astype(np.float32) - 1).astype(dtype)  # exact: no rounding


def _fill(xp, key, counter, shape, per_block, values):
    """An array of `shape` from consecutive blocks, `per_block` values each
    (``values(blocks)`` gives them, shape ``(n, per_block)``)."""
    if type(counter) is Runs:
        return _fill_runs(xp, counter, shape, per_block, values)
    size = math.prod(shape)
    count = -(-size // per_block)
    if count <= _CHUNK:
        return values(blocks(xp, key, counter, count)).reshape(-1)[:size].reshape(shape)
    parts = [values(blocks(xp, key, counter + start, min(_CHUNK, count - start))).reshape(-1)
             for start in range(0, count, _CHUNK)]  # bounded temporaries
    return xp.concatenate(parts)[:size].reshape(shape)


def _uniform_values(b, dtype):
    """The uniform values of `dtype` in blocks ``b`` (``(..., 4)``): 4 per block, 2 for
    float64."""
    if dtype == np.float64:
        return _float64(b[..., 0::2], b[..., 1::2])
    return _float32(b) if dtype == np.float32 else _narrow(b, dtype)


def _few_words(xp, key, counter, shape, per_block):
    """The words of the few blocks an array of `shape` takes (`per_block` values each), as
    Python integers (a random crop's offsets, a flip's coin: NumPy's cost per call would
    be most of the draw); None for larger arrays."""
    size = math.prod(shape)
    count = -(-size // per_block)
    if xp is not np or count > _FEW_BLOCKS or type(counter) is Runs:
        return None
    counter &= 2**128 - 1
    start, high, key = counter & _U64, counter >> 64, key & _U64
    words = []
    for i in range(count):
        lo = start + i
        hi = (high + (lo >> 64)) & _U64
        lo &= _U64
        words.extend(_rounds_int(lo & _U32, lo >> 32, hi & _U32, hi >> 32, key))
    return words, size


def _signed(values, dtype, bits):
    """Unsigned `bits`-bit integers as `dtype` (their two's complement when signed)."""
    if dtype.kind == "i":
        half, whole = 1 << (bits - 1), 1 << bits
        values = [v - whole if v >= half else v for v in values]
    return values


def uniform(xp, key, counter, shape, dtype):
    """Floats in [0, 1) of `dtype` (float16, bfloat16, float32, float64)."""
    dtype = np.dtype(dtype)
    if dtype in (np.float32, np.float64):
        few = _few_words(xp, key, counter, shape, 4 if dtype == np.float32 else 2)
        if few is not None:
            words, size = few
            if dtype == np.float32:
                bits = np.array([(w & 0x7FFFFF) | 0x3F800000 for w in words[:size]],
                                np.uint32)
                return (bits.view(np.float32) - np.float32(1)).reshape(shape)
            bits = np.array([((words[i] & 0xFFFFF) << 32) | words[i + 1] | 0x3FF0000000000000
                             for i in range(0, 2 * size, 2)], np.uint64)
            return (bits.view(np.float64) - 1.0).reshape(shape)
    return _fill(xp, key, counter, shape, 2 if dtype == np.float64 else 4,
                 lambda b: _uniform_values(b, dtype))


def uniform_int(xp, key, counter, shape, minval, maxval, dtype):
    """Integers in [minval, maxval): ``minval + bits % range``, 32 or 64 bits per value."""
    dtype = np.dtype(dtype)
    few = _few_words(xp, key, counter, shape, 4 if dtype.itemsize == 4 else 2)
    if few is not None:
        words, size = few
        if dtype.itemsize == 4:
            span, low = (maxval - minval) & _U32, minval & _U32
            values = [(w % span + low) & _U32 for w in words[:size]]
        else:
            span, low = (maxval - minval) & _U64, minval & _U64
            values = [((words[i] | words[i + 1] << 32) % span + low) & _U64
                      for i in range(0, 2 * size, 2)]
        return np.array(_signed(values, dtype, 8 * dtype.itemsize), dtype).reshape(shape)
    if dtype.itemsize == 4:
        span, low = np.uint32((maxval - minval) & _U32), np.uint32(minval & _U32)
        return _fill(xp, key, counter, shape, 4, lambda b: (b % span + low).view(dtype))
    span, low = np.uint64((maxval - minval) & _U64), np.uint64(minval & _U64)
    return _fill(xp, key, counter, shape, 2, lambda b: (_pairs64(b) % span + low).view(dtype))


def full_int(xp, key, counter, shape, dtype):
    """Integers over the whole range of `dtype` (32 or 64 bits)."""
    dtype = np.dtype(dtype)
    if dtype.itemsize == 4:
        return _fill(xp, key, counter, shape, 4, lambda b: b.view(dtype))
    return _fill(xp, key, counter, shape, 2, lambda b: _pairs64(b).view(dtype))


# -- the C library's float logf, sinf and cosf -----------------------------------------------
# Both evaluate in double precision and round once to float: they are computed here in
# double without fused multiply-adds, and the few results within 2**-40 of a rounding
# boundary, where fusing may matter, again with every multiply-add fused (emulated).

_H = float.fromhex
_LOG_INVC = np.array([_H(x) for x in (
    "0x1.661ec79f8f3bep+0 0x1.571ed4aaf883dp+0 0x1.49539f0f010bp+0 0x1.3c995b0b80385p+0 "
    "0x1.30d190c8864a5p+0 0x1.25e227b0b8eap+0 0x1.1bb4a4a1a343fp+0 0x1.12358f08ae5bap+0 "
    "0x1.0953f419900a7p+0 0x1p+0 0x1.e608cfd9a47acp-1 0x1.ca4b31f026aap-1 "
    "0x1.b2036576afce6p-1 0x1.9c2d163a1aa2dp-1 0x1.886e6037841edp-1 0x1.767dcf5534862p-1"
).split()])
_LOG_C = np.array([_H(x) for x in (
    "-0x1.57bf7808caadep-2 -0x1.2bef0a7c06ddbp-2 -0x1.01eae7f513a67p-2 -0x1.b31d8a68224e9p-3 "
    "-0x1.6574f0ac07758p-3 -0x1.1aa2bc79c81p-3 -0x1.a4e76ce8c0e5ep-4 -0x1.1973c5a611cccp-4 "
    "-0x1.252f438e10c1ep-5 0x0p+0 0x1.aa5aa5df25984p-5 0x1.c5e53aa362eb4p-4 "
    "0x1.526e57720db08p-3 0x1.bc2860d22477p-3 0x1.1058bc8a07ee1p-2 0x1.4043057b6ee09p-2"
).split()])
_LN2 = _H("0x1.62e42fefa39efp-1")
_LOG_POLY = (_H("-0x1.00ea348b88334p-2"), _H("0x1.5575b0be00b6ap-2"),
             _H("-0x1.ffffef20a4123p-2"))
_HPI_INV = _H("0x1.45f306dc9c883p+23")  # 2**24 / pi
_HPI = _H("0x1.921fb54442d18p+0")  # pi / 2
_HPI_HI = _H("0x1.921fb5p+0")  # pi / 2 = _HPI_HI + _HPI_LO, both short: n * each is exact
_HPI_LO = _HPI - _HPI_HI
_COS_POLY = (1.0, _H("-0x1.ffffffd0c621cp-2"), _H("0x1.55553e1068f19p-5"),
             _H("-0x1.6c087e89a359dp-10"), _H("0x1.99343027bf8c3p-16"))
_SIN_POLY = (_H("-0x1.555545995a603p-3"), _H("0x1.1107605230bc4p-7"),
             _H("-0x1.994eb3774cf24p-13"))
_SPLIT = 134217729.0  # 2**27 + 1: splits a double into two halves of 26 bits
_NEAR = 2.0**-40


def _two_product(a, b):
    """``(p, e)``: ``p = a * b`` rounded and its exact error (Dekker's splitting)."""
    p = a * b
    t = a * _SPLIT
    a_hi = t - (t - a)
    t = b * _SPLIT
    b_hi = t - (t - b)
    a_lo, b_lo = a - a_hi, b - b_hi
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _two_sum(a, b):
    """``(s, e)``: ``s = a + b`` rounded and its exact error (Knuth)."""
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


def _fma(a, b, c):
    """``a * b + c`` rounded once (Boldo and Melquiond: the exact product plus `c`, its
    low part rounded to odd first).

    >>> float(_fma(np.float64(1 + 2**-30), np.float64(1 - 2**-30), np.float64(-1.0)))
    -8.673617379884035e-19
    """
    high, low = _two_product(a, b)
    head, tail = _two_sum(c, high)
    rest, error = _two_sum(tail, low)
    bits = rest.view(np.uint64)
    odd = (error != 0) & ((bits & np.uint64(1)) == 0)
    step = np.where(np.signbit(error) == np.signbit(rest), np.uint64(1), np.uint64(_U64))
    return head + (bits + np.where(odd, step, np.uint64(0))).view(np.float64)


def _plain(a, b, c):
    return a * b + c


def _rounded(xp, y, exact, args):
    """`y` (double) as float32, with the values near a rounding boundary taken from
    ``exact(*args)`` (evaluated on them only; `args` are shaped as `y`)."""
    out = y.astype(np.float32).reshape(-1)
    near = xp.flatnonzero((y * (1 - _NEAR)).astype(np.float32) !=
                          (y * (1 + _NEAR)).astype(np.float32))
    if near.size:
        out[near] = exact(*(a.reshape(-1)[near] for a in args))
    return out.reshape(y.shape)


def _log_parts(x):
    """``(z, i, k)``: ``x = 2**k * z`` with z in [0.7, 1.4) and i its table entry."""
    ix = x.view(np.uint32)
    tmp = ix - np.uint32(0x3F330000)
    i = (tmp >> np.uint32(19)) & np.uint32(15)
    k = tmp.view(np.int32) >> np.int32(23)
    z = (ix - (tmp & np.uint32(0xFF800000))).view(np.float32).astype(np.float64)
    return z, i, k.astype(np.float64)


def _log_poly(z, i, k, fma):
    r = fma(z, _LOG_INVC[i], -1.0)
    y0 = fma(k, _LN2, _LOG_C[i])
    r2 = r * r
    a0, a1, a2 = _LOG_POLY
    y = fma(a0, r2, fma(a1, r, a2))
    return fma(y, r2, y0 + r)


def _logf(xp, x):
    """The natural log of float32 `x` in (0, 1): normal numbers only.

    >>> _logf(np, np.array([0.5], np.float32))
    array([-0.6931472], dtype=float32)
    """
    z, i, k = _log_parts(x)
    return _rounded(xp, _log_poly(z, i, k, _plain),
                    lambda z, i, k: _log_poly(z, i, k, _fma).astype(np.float32), (z, i, k))


def _sin_cos_polys(x, x2, fma):
    """The sine polynomial of `x` and the cosine polynomial of ``x2 = x * x``."""
    x3 = x * x2
    s1, s2, s3 = _SIN_POLY
    sin = fma(x3 * x2, fma(x2, s3, s2), fma(x3, s1, x))
    c0, c1, c2, c3, c4 = _COS_POLY
    x4 = x2 * x2
    cos = fma(x4 * x2, fma(x2, c4, c3), fma(x4, c2, fma(x2, c1, c0)))
    return sin, cos


def _sincosf(xp, v):
    """``(sin(v), cos(v))`` of float32 `v` in [0, 120).

    >>> _sincosf(np, np.array([1.0], np.float32))
    (array([0.84147096], dtype=float32), array([0.5403023], dtype=float32))
    """
    x = v.astype(np.float64)
    top = (v.view(np.uint32) >> np.uint32(20)) & np.uint32(0x7FF)
    reduced = top >= np.uint32(0x3F4)  # from 0.75 up: reduced by n quarter turns
    n = xp.where(reduced, ((x * _HPI_INV).astype(np.int32) + np.int32(0x800000)) >> 24, 0)
    nd = n.astype(np.float64)
    x = (x - nd * _HPI_HI) - nd * _HPI_LO  # one rounding: equal to the fused form
    x = x * xp.where((n & 3) % 3 == 0, 1.0, -1.0)  # signs of quadrants 0..3: + - - +
    x2 = x * x
    odd, flip = (n & 1) == 1, xp.where((n & 2) == 2, -1.0, 1.0)  # flip: cos negated

    def pick(sin, cos):
        cos = cos * flip
        return xp.where(odd, cos, sin), xp.where(odd, sin, cos)

    def exact(x, x2, odd_, flip_):
        sin, cos = _sin_cos_polys(x, x2, _fma)
        cos = cos * flip_
        sin, cos = xp.where(odd_, cos, sin), xp.where(odd_, sin, cos)
        return sin.astype(np.float32), cos.astype(np.float32)

    sin, cos = pick(*_sin_cos_polys(x, x2, _plain))
    args = (x, x2, odd, flip)
    sin = _rounded(xp, sin, lambda *a: exact(*a)[0], args)
    cos = _rounded(xp, cos, lambda *a: exact(*a)[1], args)
    tiny = top < np.uint32(0x398)  # below 2**-12: sin(v) = v and cos(v) = 1 in float
    return xp.where(tiny, v, sin), xp.where(tiny, np.float32(1), cos)


# -- the C library's double log ---------------------------------------------------------------
# As for the float functions: a table and polynomials (with fused multiply-adds) summed into
# ``t + hi`` and rounded once, computed without fusing, and again with it where the sum is
# within 2**-58 of a rounding boundary. ``hi`` and the reduced argument are exact in both.

_LOG64_TABLE = np.array([_H(x) for x in """
    0x1.734f0c3e0de9fp+0 -0x1.7cc7f79e69000p-2 0x1.713786a2ce91fp+0 -0x1.76feec20d0000p-2
    0x1.6f26008fab5a0p+0 -0x1.713e31351e000p-2 0x1.6d1a61f138c7dp+0 -0x1.6b85b38287800p-2
    0x1.6b1490bc5b4d1p+0 -0x1.65d5590807800p-2 0x1.69147332f0cbap+0 -0x1.602d076180000p-2
    0x1.6719f18224223p+0 -0x1.5a8ca86909000p-2 0x1.6524f99a51ed9p+0 -0x1.54f4356035000p-2
    0x1.63356aa8f24c4p+0 -0x1.4f637c36b4000p-2 0x1.614b36b9ddc14p+0 -0x1.49da7fda85000p-2
    0x1.5f66452c65c4cp+0 -0x1.445923989a800p-2 0x1.5d867b5912c4fp+0 -0x1.3edf439b0b800p-2
    0x1.5babccb5b90dep+0 -0x1.396ce448f7000p-2 0x1.59d61f2d91a78p+0 -0x1.3401e17bda000p-2
    0x1.5805612465687p+0 -0x1.2e9e2ef468000p-2 0x1.56397cee76bd3p+0 -0x1.2941b3830e000p-2
    0x1.54725e2a77f93p+0 -0x1.23ec58cda8800p-2 0x1.52aff42064583p+0 -0x1.1e9e129279000p-2
    0x1.50f22dbb2bddfp+0 -0x1.1956d2b48f800p-2 0x1.4f38f4734ded7p+0 -0x1.141679ab9f800p-2
    0x1.4d843cfde2840p+0 -0x1.0edd094ef9800p-2 0x1.4bd3ec078a3c8p+0 -0x1.09aa518db1000p-2
    0x1.4a27fc3e0258ap+0 -0x1.047e65263b800p-2 0x1.4880524d48434p+0 -0x1.feb224586f000p-3
    0x1.46dce1b192d0bp+0 -0x1.f474a7517b000p-3 0x1.453d9d3391854p+0 -0x1.ea4443d103000p-3
    0x1.43a2744b4845ap+0 -0x1.e020d44e9b000p-3 0x1.420b54115f8fbp+0 -0x1.d60a22977f000p-3
    0x1.40782da3ef4b1p+0 -0x1.cc00104959000p-3 0x1.3ee8f5d57fe8fp+0 -0x1.c202956891000p-3
    0x1.3d5d9a00b4ce9p+0 -0x1.b81178d811000p-3 0x1.3bd60c010c12bp+0 -0x1.ae2c9ccd3d000p-3
    0x1.3a5242b75dab8p+0 -0x1.a45402e129000p-3 0x1.38d22cd9fd002p+0 -0x1.9a877681df000p-3
    0x1.3755bc5847a1cp+0 -0x1.90c6d69483000p-3 0x1.35dce49ad36e2p+0 -0x1.87120a645c000p-3
    0x1.34679984dd440p+0 -0x1.7d68fb4143000p-3 0x1.32f5cceffcb24p+0 -0x1.73cb83c627000p-3
    0x1.3187775a10d49p+0 -0x1.6a39a9b376000p-3 0x1.301c8373e3990p+0 -0x1.60b3154b7a000p-3
    0x1.2eb4ebb95f841p+0 -0x1.5737d76243000p-3 0x1.2d50a0219a9d1p+0 -0x1.4dc7b8fc23000p-3
    0x1.2bef9a8b7fd2ap+0 -0x1.4462c51d20000p-3 0x1.2a91c7a0c1babp+0 -0x1.3b08abc830000p-3
    0x1.293726014b530p+0 -0x1.31b996b490000p-3 0x1.27dfa5757a1f5p+0 -0x1.2875490a44000p-3
    0x1.268b39b1d3bbfp+0 -0x1.1f3b9f879a000p-3 0x1.2539d838ff5bdp+0 -0x1.160c8252ca000p-3
    0x1.23eb7aac9083bp+0 -0x1.0ce7f57f72000p-3 0x1.22a012ba940b6p+0 -0x1.03cdc49fea000p-3
    0x1.2157996cc4132p+0 -0x1.f57bdbc4b8000p-4 0x1.201201dd2fc9bp+0 -0x1.e370896404000p-4
    0x1.1ecf4494d480bp+0 -0x1.d17983ef94000p-4 0x1.1d8f5528f6569p+0 -0x1.bf9674ed8a000p-4
    0x1.1c52311577e7cp+0 -0x1.adc79202f6000p-4 0x1.1b17c74cb26e9p+0 -0x1.9c0c3e7288000p-4
    0x1.19e010c2c1ab6p+0 -0x1.8a646b372c000p-4 0x1.18ab07bb670bdp+0 -0x1.78d01b3ac0000p-4
    0x1.1778a25efbcb6p+0 -0x1.674f145380000p-4 0x1.1648d354c31dap+0 -0x1.55e0e6d878000p-4
    0x1.151b990275fddp+0 -0x1.4485cdea1e000p-4 0x1.13f0ea432d24cp+0 -0x1.333d94d6aa000p-4
    0x1.12c8b7210f9dap+0 -0x1.22079f8c56000p-4 0x1.11a3028ecb531p+0 -0x1.10e4698622000p-4
    0x1.107fbda8434afp+0 -0x1.ffa6c6ad20000p-5 0x1.0f5ee0f4e6bb3p+0 -0x1.dda8d4a774000p-5
    0x1.0e4065d2a9fcep+0 -0x1.bbcece4850000p-5 0x1.0d244632ca521p+0 -0x1.9a1894012c000p-5
    0x1.0c0a77ce2981ap+0 -0x1.788583302c000p-5 0x1.0af2f83c636d1p+0 -0x1.5715e67d68000p-5
    0x1.09ddb98a01339p+0 -0x1.35c8a49658000p-5 0x1.08cabaf52e7dfp+0 -0x1.149e364154000p-5
    0x1.07b9f2f4e28fbp+0 -0x1.e72c082eb8000p-6 0x1.06ab58c358f19p+0 -0x1.a55f152528000p-6
    0x1.059eea5ecf92cp+0 -0x1.63d62cf818000p-6 0x1.04949cdd12c90p+0 -0x1.228fb8caa0000p-6
    0x1.038c6c6f0ada9p+0 -0x1.c317b20f90000p-7 0x1.02865137932a9p+0 -0x1.419355daa0000p-7
    0x1.0182427ea7348p+0 -0x1.81203c2ec0000p-8 0x1.008040614b195p+0 -0x1.0040979240000p-9
    0x1.fe01ff726fa1ap-1 0x1.feff384900000p-9 0x1.fa11cc261ea74p-1 0x1.7dc41353d0000p-7
    0x1.f6310b081992ep-1 0x1.3cea3c4c28000p-6 0x1.f25f63ceeadcdp-1 0x1.b9fc114890000p-6
    0x1.ee9c8039113e7p-1 0x1.1b0d8ce110000p-5 0x1.eae8078cbb1abp-1 0x1.58a5bd001c000p-5
    0x1.e741aa29d0c9bp-1 0x1.95c8340d88000p-5 0x1.e3a91830a99b5p-1 0x1.d276aef578000p-5
    0x1.e01e009609a56p-1 0x1.07598e598c000p-4 0x1.dca01e577bb98p-1 0x1.253f5e30d2000p-4
    0x1.d92f20b7c9103p-1 0x1.42edd8b380000p-4 0x1.d5cac66fb5ccep-1 0x1.606598757c000p-4
    0x1.d272caa5ede9dp-1 0x1.7da76356a0000p-4 0x1.cf26e3e6b2ccdp-1 0x1.9ab434e1c6000p-4
    0x1.cbe6da2a77902p-1 0x1.b78c7bb0d6000p-4 0x1.c8b266d37086dp-1 0x1.d431332e72000p-4
    0x1.c5894bd5d5804p-1 0x1.f0a3171de6000p-4 0x1.c26b533bb9f8cp-1 0x1.067152b914000p-3
    0x1.bf583eeece73fp-1 0x1.147858292b000p-3 0x1.bc4fd75db96c1p-1 0x1.2266ecdca3000p-3
    0x1.b951e0c864a28p-1 0x1.303d7a6c55000p-3 0x1.b65e2c5ef3e2cp-1 0x1.3dfc33c331000p-3
    0x1.b374867c9888bp-1 0x1.4ba366b7a8000p-3 0x1.b094b211d304ap-1 0x1.5933928d1f000p-3
    0x1.adbe885f2ef7ep-1 0x1.66acd2418f000p-3 0x1.aaf1d31603da2p-1 0x1.740f8ec669000p-3
    0x1.a82e63fd358a7p-1 0x1.815c0f51af000p-3 0x1.a5740ef09738bp-1 0x1.8e92954f68000p-3
    0x1.a2c2a90ab4b27p-1 0x1.9bb3602f84000p-3 0x1.a01a01393f2d1p-1 0x1.a8bed1c2c0000p-3
    0x1.9d79f24db3c1bp-1 0x1.b5b515c01d000p-3 0x1.9ae2505c7b190p-1 0x1.c2967ccbcc000p-3
    0x1.9852ef297ce2fp-1 0x1.cf635d5486000p-3 0x1.95cbaeea44b75p-1 0x1.dc1bd3446c000p-3
    0x1.934c69de74838p-1 0x1.e8c01b8cfe000p-3 0x1.90d4f2f6752e6p-1 0x1.f5509c0179000p-3
    0x1.8e6528effd79dp-1 0x1.00e6c121fb800p-2 0x1.8bfce9fcc007cp-1 0x1.071b80e93d000p-2
    0x1.899c0dabec30ep-1 0x1.0d46b9e867000p-2 0x1.87427aa2317fbp-1 0x1.13687334bd000p-2
    0x1.84f00acb39a08p-1 0x1.1980d67234800p-2 0x1.82a49e8653e55p-1 0x1.1f8ffe0cc8000p-2
    0x1.8060195f40260p-1 0x1.2595fd7636800p-2 0x1.7e22563e0a329p-1 0x1.2b9300914a800p-2
    0x1.7beb377dcb5adp-1 0x1.3187210436000p-2 0x1.79baa679725c2p-1 0x1.377266dec1800p-2
    0x1.77907f2170657p-1 0x1.3d54ffbaf3000p-2 0x1.756cadbd6130cp-1 0x1.432eee32fe000p-2
""".split()]).reshape(128, 2)  # 1 / c and log(c) of each subinterval's c
_LOG64_INVC, _LOG64_LOGC = _LOG64_TABLE[:, 0].copy(), _LOG64_TABLE[:, 1].copy()
_LN2_HI, _LN2_LO = _H("0x1.62e42fefa38p-1"), _H("0x1.ef35793c7673p-45")
_LOG_POLY64 = tuple(_H(x) for x in (
    "-0x1.0000000000001p-1 0x1.555555551305bp-2 -0x1.fffffffeb459p-3 0x1.999b324f10111p-3 "
    "-0x1.55575e506c89fp-3").split())
_LOG1P_POLY64 = tuple(_H(x) for x in (
    "-0x1p-1 0x1.5555555555577p-2 -0x1.ffffffffffdcbp-3 0x1.999999995dd0cp-3 "
    "-0x1.55555556745a7p-3 0x1.24924a344de3p-3 -0x1.fffffa4423d65p-4 0x1.c7184282ad6cap-4 "
    "-0x1.999eb43b068ffp-4 0x1.78182f7afd085p-4 -0x1.5521375d145cdp-4").split())
_NEAR_ONE = np.uint64(np.float64(1 - 2**-4).view(np.uint64))  # [1 - 2**-4, 1 + 0x1.09p-4)
_NEAR_WIDTH = np.uint64(np.float64(1 + _H("0x1.09p-4")).view(np.uint64)) - _NEAR_ONE


def _log_near_one(r, fma):
    """``(t, hi)`` of ``log(1 + r)`` for small `r`: a polynomial, and ``r - r**2 / 2`` split."""
    b = _LOG1P_POLY64
    r2 = r * r
    r3 = r * r2
    p = fma(r3, b[10], fma(r2, b[9], fma(r, b[8], b[7])))
    p = fma(r3, p, fma(r2, b[6], fma(r, b[5], b[4])))
    p = fma(r3, p, fma(r2, b[3], fma(r, b[2], b[1])))
    w = r * 2.0**27
    r_hi = r + w - w  # r's high 26 bits: r_hi ** 2 is exact
    r_lo = r - r_hi
    w = r_hi * r_hi * b[0]
    hi = r + w
    lo = fma(b[0] * r_lo, r_hi + r, r - hi + w)
    return fma(r3, p, lo), hi


def _log_reduced(r, k, log_c, fma):
    """``(t, hi)`` of ``log(x) = k log(2) + log(c) + log(1 + r)``."""
    a = _LOG_POLY64
    w = k * _LN2_HI + log_c  # exact product: the same fused or not
    hi = w + r
    lo = fma(k, _LN2_LO, w - hi + r)
    r2 = r * r
    q = fma(r2, fma(r, a[4], a[3]), fma(r, a[2], a[1]))
    return fma(r * r2, q, fma(r2, a[0], lo)), hi


def _log_sum(xp, parts, args):
    """``t + hi`` of ``parts(*args, fma)``, fused where it matters (see above)."""
    t, hi = parts(*args, _plain)  # 1-d arrays
    y, error = _two_sum(t, hi)
    size = xp.spacing(xp.abs(y))
    margin = 2.0**-58 * xp.abs(y)
    power_of_two = (y.view(np.uint64) & np.uint64(2**52 - 1)) == 0  # a closer boundary below
    near = xp.flatnonzero((xp.abs(error) > 0.5 * size - margin) |
                          (power_of_two & (xp.abs(error) > 0.25 * size - margin)))
    if near.size:
        t, hi = parts(*(a[near] for a in args), _fma)
        y[near] = t + hi
    return y


def _log(xp, x):
    """The natural log of doubles `x` in (0, 1), positive normal numbers.

    >>> float(_log(np, np.array([0.5]))[0])
    -0.6931471805599453
    """
    shape, x = x.shape, x.reshape(-1)
    ix = x.view(np.uint64)
    near = (ix - _NEAR_ONE) < _NEAR_WIDTH
    out = xp.empty_like(x)
    at = xp.flatnonzero(near)
    if at.size:
        out[at] = _log_sum(xp, _log_near_one, (x[at] - 1.0,))
    at = xp.flatnonzero(~near)
    if at.size:
        # x = 2**k z with z in [0.69, 1.38), in one of 128 subintervals (around its c)
        tmp = ix[at] - np.uint64(0x3FE6000000000000)
        i = ((tmp >> np.uint64(45)) & np.uint64(127)).astype(np.intp)
        k = (tmp.view(np.int64) >> np.int64(52)).astype(np.float64)
        z = (ix[at] - (tmp & np.uint64(0xFFF0000000000000))).view(np.float64)
        product, error = _two_product(z, xp.asarray(_LOG64_INVC)[i])
        r = (product - 1.0) + error  # z / c - 1, rounded once: product - 1 is exact
        out[at] = _log_sum(xp, _log_reduced, (r, k, xp.asarray(_LOG64_LOGC)[i]))
    return out.reshape(shape)


# -- the C library's log1p, pow and log of any value -----------------------------------------

def _clog(xp, x):
    """The C library's log of `x` (float32 and narrower: its float `logf`, rounded); 0 gives
    -inf, negative values NaN."""
    wide = x.dtype == np.float64
    y = x if wide or x.dtype == np.float32 else x.astype(np.float32)
    normal = (y >= np.finfo(y.dtype).tiny) & (y < np.inf)  # what `_log` and `_logf` take
    with np.errstate(divide="ignore", invalid="ignore"):
        out = xp.log(y)
    if normal.any():
        out[normal] = (_log if wide else _logf)(xp, y[normal])
    return out.astype(x.dtype)


def _c_library(fn, fallback):
    """`fn` of Python's `math` (the C library's, which NumPy's log1p and pow are not: they
    differ in the last bit in ~7% and ~0.1% of cases) over arrays; `fallback` (NumPy's)
    where `math` raises instead of returning an infinity or NaN."""
    def scalar(*args):
        try:
            return fn(*args)
        except (ValueError, OverflowError):
            with np.errstate(all="ignore"):
                return float(fallback(*args))
    ufunc = np.frompyfunc(scalar, fallback.nin, 1)

    def apply(xp, *arrays):
        if xp is not np:
            return fallback(*arrays)
        return ufunc(*arrays).astype(np.float64)
    return apply


_log1p, _pow = _c_library(math.log1p, np.log1p), _c_library(math.pow, np.power)


# -- normal values ---------------------------------------------------------------------------

def _box_muller_float(xp, w0, w1):
    """Two float32 normals per pair of words (``sin`` and ``cos`` of one angle)."""
    u1 = xp.maximum(_float32(w0), np.float32(1e-7))  # log(0) avoided
    angle = (2 * math.pi * _float32(w1).astype(np.float64)).astype(np.float32)
    radius = xp.sqrt(np.float32(-2) * _logf(xp, u1))
    sin, cos = _sincosf(xp, angle)
    return sin * radius, cos * radius


def _box_muller_double(xp, w0, w1, w2, w3):
    """Two float64 normals per four words."""
    u1 = xp.maximum(_float64(w0, w1), 1e-7)
    angle = 2 * math.pi * _float64(w2, w3)
    radius = xp.sqrt(-2.0 * _log(xp, u1))
    return xp.sin(angle) * radius, xp.cos(angle) * radius


def _normal_candidates(xp, b, dtype):
    """Normals from blocks ``b`` (``(..., 4)``), in stream order: ``(..., 4)`` float32
    (two per pair of words) or ``(..., 2)`` float64."""
    if dtype == np.float64:
        return xp.stack(_box_muller_double(xp, b[..., 0], b[..., 1], b[..., 2], b[..., 3]), -1)
    s, c = _box_muller_float(xp, b[..., 0::2], b[..., 1::2])
    return xp.stack([s, c], -1).reshape(b.shape)


def normal(xp, key, counter, shape, dtype):
    """Standard normal values of `dtype` (float16, bfloat16: float32 values rounded).

    >>> normal(np, 0, 1, (3,), np.float32)
    array([ 0.43842274, -0.53439844, -0.07710262], dtype=float32)
    """
    dtype = np.dtype(dtype)
    per_block = 2 if dtype == np.float64 else 4
    return _fill(xp, key, counter, shape, per_block,
                 lambda b: _normal_candidates(xp, b, dtype).astype(dtype))


def truncated_normal(xp, key, counter, shape, dtype):
    """Standard normal values within (-2, 2): each group of 4 values (2 for float64) reads
    normals from its own part of the stream and keeps the first that fall inside.

    >>> bool(abs(truncated_normal(np, 3, 0, (1000,), np.float32)).max() < 2)
    True
    """
    dtype = np.dtype(dtype)
    per = 2 if dtype == np.float64 else 4
    stride = per * RESERVED_PER_VALUE // 4  # blocks between the parts of two groups
    size = math.prod(shape)
    groups = -(-size // per)
    out = xp.empty((groups, per), dtype)
    # groups at a time: each group reads its own part of the stream, so the results do not
    # depend on the split, and the temporaries stay small (in cache, no fresh pages)
    for first in range(0, groups, _TRUNCATED_GROUPS):
        todo = xp.arange(first, min(groups, first + _TRUNCATED_GROUPS), dtype=xp.uint64)
        depth = 1  # one block is enough for ~83% of the groups (~91% for float64)
        while todo.size:
            # Blocks 0..depth-1 of each pending group's part (re-read from the start, twice
            # as many, when a group needs more).
            starts = xp.uint64(counter & _U64) + todo * xp.uint64(stride)
            lo = starts[:, None] + xp.arange(depth, dtype=xp.uint64)
            hi = xp.where(lo < xp.uint64(counter & _U64),
                          xp.uint64(((counter >> 64) + 1) & _U64),
                          xp.uint64((counter >> 64) & _U64))
            values = _normal_candidates(xp, blocks_at(xp, key, lo, hi), dtype)
            values = values.reshape(todo.size, -1)
            inside = xp.abs(values) < 2
            rank = xp.cumsum(inside, axis=1)
            done = rank[:, -1] >= per
            taken = values[inside & (rank <= per) & done[:, None]].reshape(-1, per)
            out[todo[done].astype(xp.intp)] = taken.astype(dtype)
            todo, depth = todo[~done], depth * 2
    return out.reshape(-1)[:size].reshape(shape)


_TRUNCATED_GROUPS = 1 << 14


# -- categorical samples ---------------------------------------------------------------------

def _parallel_blocks(rows, cost, threads):
    """Row ranges that a thread pool of `threads` splits `rows` into at `cost` per row
    (Eigen's cost model): the samples of each range are drawn from its own stream part."""
    total = rows * cost
    wanted = int(min(float(threads), max(1.0, (total - 100000) / 100000 + 0.9)))
    if rows <= 1 or threads <= 1 or wanted <= 1:
        return [0]
    size = min(rows, max(-(-rows // (4 * threads)), int(40000 / cost)))
    largest = min(rows, 2 * size)
    count = -(-rows // size)
    best = count / (-(-count // threads) * threads)
    previous = count
    while best < 1.0 and previous > 1:
        coarser = -(-rows // (previous - 1))
        if coarser > largest:
            break
        coarser_count = -(-rows // coarser)
        previous = coarser_count
        efficiency = coarser_count / (-(-coarser_count // threads) * threads)
        if efficiency + 0.01 >= best:
            size, count, best = coarser, coarser_count, max(best, efficiency)
    return list(range(0, rows, size))


def multinomial(xp, key, counter, logits, num_samples, threads):
    """Class indices of the rows of `logits`, `num_samples` each: uniform doubles (two words
    each, in row order within each part of the rows) searched in the rows' cumulative sums.

    A row without a finite logit gives the out-of-range class ``num_classes``.
    """
    rows, classes = logits.shape
    if rows == 0 or num_samples == 0:
        return xp.zeros((rows, num_samples), np.int64)
    z = logits.astype(np.float64)
    finite = xp.isfinite(z)
    top = xp.where(finite, z, -np.inf).max(axis=1, keepdims=True)
    top = xp.where(xp.isfinite(top), top, 0.0)  # rows without finite logits: no weights
    with np.errstate(over="ignore", invalid="ignore"):
        weights = xp.exp(z - top)
    cdf = xp.cumsum(xp.where(finite, weights, 0.0), axis=1)
    cost = int(50 * (num_samples * math.log(classes) / math.log(2) + classes))
    starts = _parallel_blocks(rows, cost, threads)
    # Row r's samples: words 2t, 2t + 1 of its part, t counting samples from the part's start.
    part = xp.searchsorted(xp.asarray(starts), xp.arange(rows), side="right") - 1
    first = xp.asarray(starts)[part]
    t = ((xp.arange(rows) - first)[:, None] * num_samples + xp.arange(num_samples)).reshape(-1)
    skip = (first * (num_samples + 3) // 4).repeat(num_samples)
    at = xp.uint64(counter & _U64) + (skip + t // 2).astype(xp.uint64)
    hi = xp.where(at < xp.uint64(counter & _U64), xp.uint64(((counter >> 64) + 1) & _U64),
                  xp.uint64((counter >> 64) & _U64))
    b = blocks_at(xp, key, at, hi)
    odd = (t % 2 == 1)[:, None]  # the sample's words: 0, 1 or 2, 3 of its block
    b = xp.where(odd, b[:, [2, 3, 0, 1]], b)
    target = (_float64(b[:, 0], b[:, 1]).reshape(rows, num_samples) * cdf[:, -1:])
    # Upper bound of each target in its row: a binary search over all rows at once.
    low = xp.zeros(target.shape, np.int64)
    high = xp.full(target.shape, classes, np.int64)
    rows_at = xp.arange(rows)[:, None]
    while (low < high).any():
        mid = (low + high) // 2
        below = cdf[rows_at, xp.minimum(mid, classes - 1)] <= target
        active = low < high
        low = xp.where(active & below, mid + 1, low)
        high = xp.where(active & ~below, mid, high)
    return low


# -- permutations ----------------------------------------------------------------------------

def permutation(xp, key, counter, n):
    """The permutation of ``range(n)`` that swaps position i with ``i + word_i % (n - i)``
    for i = 0, 1, ..., n - 2, in order (Fisher-Yates), without a loop over i.

    After step i, position i is final. It holds what position ``j = i + word_i % (n - i)``
    held then: the value swapped there by the latest earlier step that chose j, or j's own
    value. What step k put there is what position k held before step k: following those
    links back (pointer doubling) finds the original position of every value.

    >>> sorted(permutation(np, 1, 2, 6).tolist())
    [0, 1, 2, 3, 4, 5]
    """
    if n <= 1:
        return xp.arange(n)
    steps = n - 1
    i = xp.arange(steps)
    j = i + (words(xp, key, counter, steps) % (n - i).astype(np.uint32)).astype(i.dtype)
    # The previous step choosing the same position (or -1), from a stable sort by position.
    order = xp.argsort(j, kind="stable")
    sorted_j = j[order]
    same = sorted_j[1:] == sorted_j[:-1]
    previous = xp.full(steps, -1)
    previous[order[1:][same]] = order[:-1][same]
    last = xp.full(n, -1)  # the last step choosing each position...
    ends = xp.concatenate([~same, xp.ones(1, bool)])
    last[sorted_j[ends]] = order[ends]
    # link[p]: the step that last put a value into position p before step p reads it
    # (p itself when none did, which makes p a root).
    link = xp.arange(n)
    chose_self = j == i
    # ... before step p: step p itself is not, so take the one before it when p chose p.
    before = xp.where(chose_self, previous, last[:steps])
    link[:steps] = xp.where(before >= 0, before, i)
    link[steps] = last[steps] if last[steps] >= 0 else steps
    while True:
        jumped = link[link]
        if (jumped == link).all():
            break
        link = jumped
    result = xp.empty(n, dtype=link.dtype)
    from_j = xp.where(previous >= 0, link[xp.maximum(previous, 0)], j)
    result[:steps] = xp.where(chose_self, link[:steps], from_j)
    result[steps] = link[steps]
    return result


# -- gamma and Poisson samples ---------------------------------------------------------------

class _Streams:
    """One stream part per output, `stride` blocks apart (256, or an array: each output's),
    read a block at a time as the rejection loops of gamma, Poisson and binomial sampling
    ask, with two-value buffers of uniform doubles and of normal doubles (each used from
    its second value)."""

    def __init__(self, xp, key, counter, count, stride=RESERVED_PER_VALUE):
        self.xp, self.key = xp, key
        start = counter & _U64
        lo = xp.arange(count, dtype=xp.uint64) * xp.asarray(stride, xp.uint64) + \
            xp.uint64(start)
        self.lo = lo
        self.hi = xp.where(lo < xp.uint64(start), xp.uint64(((counter >> 64) + 1) & _U64),
                           xp.uint64((counter >> 64) & _U64))
        self.read = xp.zeros(count, xp.uint64)  # blocks read so far
        self.uniforms = (xp.zeros(count, xp.int8), xp.zeros((count, 2)))
        self.normals = (xp.zeros(count, xp.int8), xp.zeros((count, 2)))

    def _next(self, ids, buffer, refill):
        xp = self.xp
        left, values = buffer
        empty = ids[left[ids] == 0]
        if empty.size:
            lo = self.lo[empty] + self.read[empty]
            hi = xp.where(lo < self.lo[empty], self.hi[empty] + xp.uint64(1), self.hi[empty])
            values[empty] = refill(blocks_at(xp, self.key, lo, hi))
            left[empty] = 2
            self.read[empty] += xp.uint64(1)
        left[ids] -= 1
        return values[ids, left[ids]]

    def uniform(self, ids):
        """The next uniform double in [0, 1) of outputs `ids`."""
        return self._next(ids, self.uniforms,
                          lambda b: _float64(b[:, 0::2], b[:, 1::2]))

    def normal(self, ids):
        """The next standard normal double of outputs `ids`."""
        return self._next(ids, self.normals, lambda b: self.xp.stack(
            _box_muller_double(self.xp, b[:, 0], b[:, 1], b[:, 2], b[:, 3]), -1))


def _layout(xp, samples, params):
    """Outputs in parameter-major order, as TF's kernels number them: each one's parameter
    index and its place in the result (``samples`` rows of ``params`` values)."""
    order = xp.arange(samples * params)
    index = order // samples
    return index, (order % samples) * params + index


def _outputs(xp, shape, param):
    """Each output's parameter (parameter-major order) and where it goes in the result,
    which is ``shape + param.shape``."""
    flat = param.reshape(-1).astype(np.float64)
    index, where = _layout(xp, math.prod(shape), flat.size)
    return flat[index], where


def gamma(xp, key, counter, shape, alpha):
    """Gamma(alpha) samples, shape ``shape + alpha.shape``: exponentials for alpha 1, else
    Marsaglia and Tsang's transformation-rejection (normal and uniform doubles), with
    ``u ** (1 / alpha)`` for alpha below 1; each output reads its own part of the stream."""
    a, where = _outputs(xp, shape, alpha)
    streams = _Streams(xp, key, counter, a.size)
    out = xp.empty(a.size)
    ones = xp.nonzero(a == 1.0)[0]
    out[ones] = -_log1p(xp, -streams.uniform(ones))
    less = a < 1
    d = a + xp.where(less, 2.0 / 3, -1.0 / 3)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = 1.0 / 3 / xp.sqrt(d)
        pending = xp.nonzero(a != 1.0)[0]
        while pending.size:
            x = streams.normal(pending)
            v = 1 + c[pending] * x
            tried = pending[~(v <= 0)]  # v <= 0: draw again (NaN goes on, as it does there)
            x, v = x[~(v <= 0)], v[~(v <= 0)]
            v = v * v * v
            u = streams.uniform(tried)
            dt = d[tried]
            accept = (u < 1 - 0.0331 * (x * x) * (x * x)) | \
                (xp.log(u) < 0.5 * x * x + dt * (1 - v + xp.log(v)))
            done, value = tried[accept], (dt * v)[accept]
            small = done[less[done]]
            value[less[done]] *= _pow(xp, streams.uniform(small), 1 / a[small])
            out[done] = value
            finished = xp.zeros(a.size, bool)
            finished[done] = True
            pending = pending[~finished[pending]]
    result = xp.empty(a.size, alpha.dtype)
    result[where] = out.astype(alpha.dtype)
    return result.reshape(tuple(shape) + alpha.shape)


_LOG_FACTORIALS = np.array([math.lgamma(k + 1) for k in range(32)])


def _log_factorial(xp, k):
    """``lgamma(k + 1)`` of integral doubles ``k >= 0``: a table, then Stirling's series."""
    z = xp.maximum(k, 31) + 1
    zz = z * z
    series = (0.5 * math.log(2 * math.pi) + (z - 0.5) * xp.log(z) - z + (
        1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * zz)) / zz) / zz) / z)
    table = xp.asarray(_LOG_FACTORIALS)[xp.minimum(k, 31).astype(np.intp)]
    return xp.where(k < 32, table, series)


def poisson(xp, key, counter, shape, rate, dtype):
    """Poisson(rate) samples of `dtype`, shape ``shape + rate.shape``: Knuth's product of
    uniforms below rate 10, Hormann's transformed rejection from 10; each output reads its
    own part of the stream. Non-positive (and NaN) rates give 0, infinite ones infinity."""
    lam, where = _outputs(xp, shape, rate)
    lam = xp.where(xp.isnan(lam), 0.0, lam)
    streams = _Streams(xp, key, counter, lam.size)
    out = xp.full(lam.size, np.inf)
    # Knuth: the number of uniforms multiplied before the product reaches exp(-rate).
    pending = xp.nonzero(lam < 10)[0]
    limit = xp.exp(-lam)
    product, count = xp.ones(lam.size), xp.zeros(lam.size)
    while pending.size:
        product[pending] *= streams.uniform(pending)
        reached = product[pending] <= limit[pending]
        out[pending[reached]] = count[pending[reached]]
        pending = pending[~reached]
        count[pending] += 1
    # Hormann: a dominating distribution close to the inverse of the Poisson CDF.
    pending = xp.nonzero((lam >= 10) & xp.isfinite(lam))[0]
    log_rate = xp.log(lam)
    b = 0.931 + 2.53 * xp.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    while pending.size:
        u = streams.uniform(pending) - 0.5
        v = streams.uniform(pending)
        ap, bp, rp = a[pending], b[pending], lam[pending]
        shifted = 0.5 - xp.abs(u)
        k = xp.floor((2 * ap / shifted + bp) * u + rp + 0.43)
        valid = k >= 0
        quick = valid & (shifted >= 0.07) & (v <= 0.9277 - 3.6224 / (bp - 2))
        retry = ~valid | quick | ((shifted < 0.013) & (v > shifted))
        with np.errstate(divide="ignore", invalid="ignore"):
            s = xp.log(v * inv_alpha[pending] / (ap / (shifted * shifted) + bp))
            t = -rp + k * log_rate[pending] - _log_factorial(xp, xp.maximum(k, 0))
        accept = quick | (~retry & (s <= t))
        out[pending[accept]] = k[accept]
        pending = pending[~accept]
    result = xp.empty(lam.size, dtype)
    with np.errstate(invalid="ignore"):
        result[where] = out.astype(dtype)
    return result.reshape(tuple(shape) + rate.shape)


# -- binomial samples ------------------------------------------------------------------------

# log(k!) minus Stirling's approximation of it for k = 0..9, as Hormann's BTRS paper gives them
_STIRLING_TAIL = np.array([
    0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
    0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
    0.00925546218271273, 0.00833056343336287])


def _stirling_tail(xp, k):
    """log(k!) minus Stirling's approximation, for doubles k >= 0: the table, then a series."""
    sq = (k + 1) * (k + 1)
    series = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / sq) / sq) / (k + 1)
    small = k <= 9
    return xp.where(small, xp.asarray(_STIRLING_TAIL)[xp.where(small, k, 0).astype(np.intp)],
                    series)


def _btrs(xp, streams, ids, n, p):
    """Hormann's transformed rejection (BTRS) for Binomial(n, p), p <= 1/2, of outputs `ids`."""
    out = xp.empty(ids.size)
    stddev = xp.sqrt(n * p * (1 - p))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    v_r = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * stddev
    m = xp.floor((n + 1) * p)
    pending = xp.arange(ids.size)
    while pending.size:
        u = streams.uniform(ids[pending]) - 0.5
        v = streams.uniform(ids[pending])
        us = 0.5 - xp.abs(u)
        a_, b_, n_, m_, r_ = a[pending], b[pending], n[pending], m[pending], r[pending]
        with np.errstate(divide="ignore", invalid="ignore"):
            k = xp.floor((2 * a_ / us + b_) * u + c[pending])
        accept = (us >= 0.07) & (v <= v_r[pending])  # inside the box: taken at once
        check = xp.flatnonzero(~accept & (k >= 0) & (k <= n_))  # else outside: drawn again
        if check.size:
            k_, n_, m_, r_, us = k[check], n_[check], m_[check], r_[check], us[check]
            bound = ((m_ + 0.5) * _clog(xp, (m_ + 1) / (r_ * (n_ - m_ + 1))) +
                     (n_ + 1) * _clog(xp, (n_ - m_ + 1) / (n_ - k_ + 1)) +
                     (k_ + 0.5) * _clog(xp, r_ * (n_ - k_ + 1) / (k_ + 1)) +
                     _stirling_tail(xp, m_) + _stirling_tail(xp, n_ - m_) -
                     _stirling_tail(xp, k_) - _stirling_tail(xp, n_ - k_))
            ratio = v[check] * alpha[pending[check]] / (a_[check] / (us * us) + b_[check])
            accept[check] = _clog(xp, ratio) <= bound
        out[pending[accept]] = k[accept]
        pending = pending[~accept]
    return out


def _inversion(xp, streams, ids, n, log_q):
    """Binomial(n, p) of outputs `ids` as the number of geometric waiting times (from
    uniforms: ``ceil(log(u) / log(1 - p))``) whose sum stays within n."""
    out, total = xp.zeros(ids.size), xp.zeros(ids.size)
    pending = xp.arange(ids.size)
    while pending.size:
        with np.errstate(divide="ignore"):
            total[pending] += xp.ceil(_clog(xp, streams.uniform(ids[pending])) /
                                      log_q[pending])
        pending = pending[total[pending] <= n[pending]]
        out[pending] += 1
    return out


def binomial(xp, key, counter, shape, counts, probs, dtype):
    """Binomial(counts, probs) samples of `dtype`, shape ``shape + counts.shape``; `counts`
    and `probs` share their shape and floating dtype (the one the method is chosen in).

    Above p = 1/2 the failures are drawn (with 1 - p). From count * p = 10 on: Hormann's
    BTRS rejection, each output 256 blocks into the stream; below: geometric waiting
    times, 42 blocks each. Counts <= 0 and p <= 0 give 0, p >= 1 the count, a NaN p (or
    count) NaN, or 0 for integer dtypes.

    >>> key, counter = stateless_key_counter(1, 2)
    >>> binomial(np, key, counter, (4,), np.array(10.0), np.array(0.5), np.int64).tolist()
    [6, 6, 7, 7]
    """
    one = counts.dtype.type(1)
    n_t, p_t = counts.reshape(-1), probs.reshape(-1)
    flip = p_t > one / 2
    with np.errstate(invalid="ignore", over="ignore"):
        q_t = xp.where(flip, one - p_t, p_t)
        btrs = n_t * q_t >= one * 10
    index, where = _layout(xp, math.prod(shape), n_t.size)
    n, p_t, q = n_t.astype(np.float64)[index], p_t[index], q_t.astype(np.float64)[index]
    flip, btrs = flip[index], btrs[index]
    zero = (n <= 0) | (p_t <= 0)
    full = ~zero & (p_t >= 1)
    drawn = ~zero & ~full & ~xp.isnan(p_t) & ~xp.isnan(n)
    out = xp.where(zero, 0.0, xp.where(full, n, np.nan))
    streams = _Streams(xp, key, counter, n.size, xp.where(btrs, RESERVED_PER_VALUE, 42))
    ids = xp.flatnonzero(drawn & btrs)
    out[ids] = _btrs(xp, streams, ids, n[ids], q[ids])
    ids = xp.flatnonzero(drawn & ~btrs)
    out[ids] = _inversion(xp, streams, ids, n[ids], _log1p(xp, -q[ids]))
    out = xp.where(drawn & flip, n - out, out)
    if np.dtype(dtype).kind != "f":
        out = xp.where(xp.isnan(out), 0.0, out)
    result = xp.empty(out.size, dtype)
    result[where] = out.astype(dtype)
    return result.reshape(tuple(shape) + counts.shape)


# -- truncated normals with parameters -------------------------------------------------------

class SamplerError(Exception):
    """A rejection sampler rejected too many values in a row (TF's InternalError)."""


_MAX_ITERATIONS = 1000  # rejections in a row before a sampler gives up
# The cost of a value that TF's kernel gives the thread pool (Eigen's op costs, without
# FMA: 77 + sqrt + 3 exp), which decides how many parts the outputs are split into.
_TRUNCATED_COST = {np.dtype(np.float16): 214, np.dtype(np.float32): 187,
                   np.dtype(np.float64): 258}


def _exp(xp, x):
    """exp of floats `x` in their dtype (it only decides acceptances and the choice of
    sampler, which its last bit, unlike the C library's at times, nearly never changes)."""
    return xp.exp(x.astype(np.float64)).astype(x.dtype)


def _accepted(xp, key, counter, count, unit, sample, limit, message):
    """The first `count` values that a rejection sampler accepts, reading `unit` blocks per
    call from `counter` on, and the number of blocks read. ``sample(blocks)`` maps blocks
    ``(calls, unit, 4)`` to ``(values, accepted)``, ``(calls, k)`` each, in stream order.
    `limit` rejections in a row raise `SamplerError(message)`."""
    calls = count // 2 + 8
    while True:
        values, ok = sample(blocks(xp, key, counter, calls * unit).reshape(calls, unit, 4))
        per = ok.shape[1]
        hits = xp.flatnonzero(ok.reshape(-1))
        runs = xp.diff(hits[:count], prepend=-1) - 1  # rejections before each acceptance
        trailing = ok.size - 1 - (int(hits[-1]) if hits.size else -1)
        if (runs.size and runs.max() >= limit) or (hits.size < count and trailing >= limit):
            raise SamplerError(message)
        if hits.size >= count:
            return values.reshape(-1)[hits[:count]], (int(hits[count - 1]) // per + 1) * unit
        calls *= 2


def _truncated_batch(xp, key, counter, count, mean, stddev, low, high):
    """`count` samples of one batch (parameters: scalars of the output dtype, in which all
    is computed) from `counter` on, and the blocks read. As in TF: normals kept within the
    bounds when at least one reaches 1.3 standard deviations past the mean, else uniform
    proposals between close bounds, else exponential ones past the lower bound."""
    t = mean.dtype.type
    dtype = mean.dtype
    if (np.isinf(low) and low < 0) or high < mean:  # make the lower bound the finite one
        low, high, stddev = high, low, -stddev
    lo, hi = (low - mean) / stddev, (high - mean) / stddev
    root = np.sqrt(lo * lo + t(4))
    cutoff = t(2) * _exp(np, np.asarray(t(0.5) + lo * (lo - root) / t(4)))[()] / (lo + root)
    wide = np.float64 if dtype == np.float64 else np.float32
    if (lo < t(-1.3) and hi >= 0) or (hi > t(1.3) and lo <= 0):
        def sample(b):
            z = _normal_candidates(xp, b[:, 0], np.dtype(wide)).astype(dtype)
            return z * stddev + mean, (z >= lo) & (z <= hi)
        return _accepted(xp, key, counter, count, 1, sample, _MAX_ITERATIONS + 1,
                         "TruncatedNormal randn rejection sampler failed to accept a sample.")
    if hi - lo < cutoff:
        plus = t(0) if lo < 0 else lo * lo

        def sample(b):
            z = _uniform_values(b[:, 0], dtype) * (hi - lo) + lo
            ok = _uniform_values(b[:, 1], dtype) <= _exp(xp, (plus - z * z) / t(2))
            return z * stddev + mean, ok
        return _accepted(xp, key, counter, count, 2, sample, _MAX_ITERATIONS,
                         "TruncatedNormal uniform rejection sampler failed to  accept a "
                         "sample.")  # (sic)
    alpha = (lo + root) / t(2)

    def sample(b):
        u = _uniform_values(b[:, 0], dtype)
        z = -_clog(xp, u[:, 0::2]) / alpha + lo
        x = alpha - z if lo < alpha else xp.full_like(z, lo - alpha)
        ok = (u[:, 1::2] <= _exp(xp, -x * x / t(2))) & (z < hi)
        return z * stddev + mean, ok
    return _accepted(xp, key, counter, count, 1, sample, _MAX_ITERATIONS,
                     "TruncatedNormal exponential distribution rejection sampler failed to "
                     "accept a sample.")


def truncated_normal_with(xp, key, counter, shape, means, stddevs, minvals, maxvals, threads):
    """Normal samples of means `means` and deviations `stddevs` within ``[minvals,
    maxvals]``, shape ``shape + means.shape`` (the parameters share shape and dtype).

    The outputs (parameter-major) are split into parts as a pool of `threads` splits them;
    each part reads its own part of the stream (2000 values per output apart) and draws
    its outputs in turn, the values of a parameter by one of three rejection samplers.
    Raises `SamplerError` when a sampler rejects 1000 values in a row.
    """
    dtype = means.dtype
    batches, samples = means.size, math.prod(shape)
    out = xp.empty(samples * batches, dtype)
    params = [x.reshape(-1) for x in (means, stddevs, minvals, maxvals)]
    per = 2 if dtype == np.float64 else 4  # uniform values per block
    starts = _parallel_blocks(out.size, _TRUNCATED_COST[dtype], threads) + [out.size]
    for start, end in zip(starts, starts[1:]):
        at = counter + (start * 2 * _MAX_ITERATIONS + per - 1) // per
        i = start
        while i < end:
            batch, first = divmod(i, samples)
            count = min(end - i, samples - first)
            values, read = _truncated_batch(xp, key, at, count, *(p[batch] for p in params))
            out[(first + xp.arange(count)) * batches + batch] = values
            at, i = at + read, i + count
    return out.reshape(tuple(shape) + means.shape)


# -- index shuffles: a Simon block cipher, not Philox ----------------------------------------

_SIMON_C = 0xFFFFFFFC  # the key schedule's constant and bit sequence
_SIMON_Z = 0x7369F885192C0EF5


def _simon_block(max_index):
    """The cipher's block size for `max_index` (0: none, the result is 0)."""
    if max_index == 0:
        return 0
    bits = math.ceil(math.log2(max_index))  # of the double nearest max_index, as in TF
    return max(16, bits + bits % 2)


def index_shuffle(xp, index, key, max_index, rounds):
    """Where `index` goes in the permutation of ``[0, max_index]`` that `key` picks (uint64
    arrays of one shape; `key`: ``(..., 3)`` 32-bit words).

    Values are encrypted with a Simon cipher of `rounds` rounds whose block has the even
    number of bits (16 at least) of ``ceil(log2(max_index))``, again until one lands in
    the range (cycle walking). Words and the schedule's constants are cut to half a block.

    >>> index_shuffle(np, np.arange(4, dtype=np.uint64), np.array([498247692, 5, 9],
    ...               np.uint64), np.uint64(65535), 4).tolist()
    [51675, 37155, 22284, 16268]
    """
    index, max_index = xp.broadcast_arrays(index, max_index)
    key = xp.broadcast_to(key, index.shape + (3,))
    out = xp.zeros(index.shape, np.uint64)
    bits = xp.asarray([_simon_block(m) for m in max_index.reshape(-1).tolist()],
                      np.int64).reshape(index.shape)
    for size in set(bits.reshape(-1).tolist()) - {0}:
        half = size // 2
        mask = (1 << half) - 1
        m = np.uint64(mask)

        def rotl(x, r):
            return ((x << np.uint64(r)) | (x >> np.uint64(half - r))) & m

        def f(x):
            return (rotl(x, 1) & rotl(x, 8)) ^ rotl(x, 2)

        at = bits == size
        schedule = [key[at][:, i] & m for i in range(3)]
        z = _SIMON_Z & mask
        for i in range(3, rounds):
            prev = schedule[i - 1]
            schedule.append(np.uint64(_SIMON_C & mask ^ z & 1) ^ schedule[i - 3] ^
                            rotl(prev, half - 3) ^ rotl(prev, half - 4))
            z >>= 1
        value, top = index[at], max_index[at]
        todo = xp.arange(value.size)
        while todo.size:
            left, right = (value[todo] >> np.uint64(half)) & m, value[todo] & m
            for i in range(0, rounds, 2):
                left ^= f(right) ^ schedule[i][todo]
                right ^= f(left) ^ schedule[i + 1][todo]
            value[todo] = (left << np.uint64(half)) | right
            todo = todo[value[todo] > top[todo]]
        out[at] = value
    return out
