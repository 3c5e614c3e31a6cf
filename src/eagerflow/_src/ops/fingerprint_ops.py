"""Hashing strings into buckets: `strings.to_hash_bucket_fast` (FarmHash's Fingerprint64,
the values TF gives) and `strings.to_hash_bucket_strong` (keyed SipHash-2-4).

The fingerprint is computed for many strings at once: strings are grouped by
FarmHash's length classes and each class runs as NumPy uint64 arithmetic (which
wraps as the C code does); only strings over 64 bytes loop in Python.

>>> tf.strings.to_hash_bucket_fast(["Hello", "TensorFlow", "2.x"], 3)
<tf.Tensor: shape=(3,), dtype=int64, numpy=array([0, 2, 2])>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_input, convert_to_tensor
from eagerflow._src.core.errors import shape_text
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.op_attrs import checked_attrs
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.tensor_shape import TensorShape

_U = np.uint64
_K0 = _U(0xc3a5c85c97cb3127)
_K1 = _U(0xb492b66fbe98f273)
_K2 = _U(0x9ae16a3b2f90404f)
_KMUL = _U(0x9ddfea08eb382d69)
_M64 = (1 << 64) - 1


def _ror(v, s):
    return (v >> _U(s)) | (v << _U(64 - s))


def _smix(v):
    return v ^ (v >> _U(47))


def _mix16(u, v, mul):
    a = _smix((u ^ v) * mul)
    b = _smix((v ^ a) * mul)
    return b * mul


class _Bytes:
    """The strings of one length class as a zero-padded byte matrix, for little-endian
    fetches at per-row offsets."""

    def __init__(self, strings, lengths, width):
        self.buf = np.frombuffer(b"".join(s.ljust(width, b"\0") for s in strings),
                                 np.uint8).reshape(len(strings), width)
        self.len = lengths.astype(np.int64)

    def fetch(self, pos, size=8):
        pos = np.broadcast_to(np.asarray(pos, np.int64), self.len.shape)
        cols = pos[:, None] + np.arange(size)
        b = np.take_along_axis(self.buf, cols, 1).astype(_U)
        return np.bitwise_or.reduce(b << (np.arange(size, dtype=_U) * _U(8)), axis=1)


def _len_0_to_16(s):
    n = s.len.astype(_U)
    out = np.full(n.shape, _K2, _U)
    mul = _K2 + n * _U(2)
    big = s.len >= 8
    if big.any():
        a = s.fetch(0) + _K2
        b = s.fetch(s.len - 8)
        c = _ror(b, 37) * mul + a
        d = (_ror(a, 25) + b) * mul
        out = np.where(big, _mix16(c, d, mul), out)
    mid = (s.len >= 4) & ~big
    if mid.any():
        a = s.fetch(0, 4)
        last = s.fetch(np.maximum(s.len - 4, 0), 4)
        out = np.where(mid, _mix16(n + (a << _U(3)), last, mul), out)
    small = (s.len > 0) & (s.len < 4)
    if small.any():
        rows = np.arange(len(n))
        a = s.buf[rows, 0].astype(_U)
        b = s.buf[rows, s.len >> 1].astype(_U)
        c = s.buf[rows, np.maximum(s.len - 1, 0)].astype(_U)
        y = a + (b << _U(8))
        z = n + (c << _U(2))
        out = np.where(small, _smix(y * _K2 ^ z * _K0) * _K2, out)
    return out


def _len_17_to_32(s):
    n = s.len.astype(_U)
    mul = _K2 + n * _U(2)
    a = s.fetch(0) * _K1
    b = s.fetch(8)
    c = s.fetch(s.len - 8) * mul
    d = s.fetch(s.len - 16) * _K2
    return _mix16(_ror(a + b, 43) + _ror(c, 30) + d, a + _ror(b + _K2, 18) + c, mul)


def _len_33_to_64(s):
    n = s.len.astype(_U)
    mul = _K2 + n * _U(2)
    a = s.fetch(0) * _K2
    b = s.fetch(8)
    c = s.fetch(s.len - 8) * mul
    d = s.fetch(s.len - 16) * _K2
    y = _ror(a + b, 43) + _ror(c, 30) + d
    z = _mix16(y, a + _ror(b + _K2, 18) + c, mul)
    e = s.fetch(16) * mul
    f = s.fetch(24)
    g = (y + s.fetch(s.len - 32)) * mul
    h = (z + s.fetch(s.len - 24)) * mul
    return _mix16(_ror(e + f, 43) + _ror(g, 30) + h, e + _ror(f + a, 18) + g, mul)


# -- strings over 64 bytes: Python integers ------------------------------------------------------

def _r(v, s):
    return ((v >> s) | (v << (64 - s))) & _M64


def _m(u, v, mul):
    a = ((u ^ v) * mul) & _M64
    a ^= a >> 47
    b = ((v ^ a) * mul) & _M64
    b ^= b >> 47
    return (b * mul) & _M64


def _f64(s, i):
    return int.from_bytes(s[i:i + 8], "little")


def _weak32(s, i, a, b):
    w, x, y, z = (_f64(s, i + k) for k in (0, 8, 16, 24))
    a = (a + w) & _M64
    b = _r((b + a + z) & _M64, 21)
    c = a
    a = (a + x + y) & _M64
    b = (b + _r(a, 44)) & _M64
    return (a + z) & _M64, (b + c) & _M64


def _long(s):
    k0, k1, k2 = int(_K0), int(_K1), int(_K2)
    n = len(s)
    seed = 81
    y = (seed * k1 + 113) & _M64
    z = (y * k2 + 113) & _M64
    z = ((z ^ (z >> 47)) * k2) & _M64
    v = (0, 0)
    w = (0, 0)
    x = (seed * k2 + _f64(s, 0)) & _M64
    end = ((n - 1) // 64) * 64
    last64 = n - 64
    i = 0
    while True:
        x = (_r((x + y + v[0] + _f64(s, i + 8)) & _M64, 37) * k1) & _M64
        y = (_r((y + v[1] + _f64(s, i + 48)) & _M64, 42) * k1) & _M64
        x ^= w[1]
        y = (y + v[0] + _f64(s, i + 40)) & _M64
        z = (_r((z + w[0]) & _M64, 33) * k1) & _M64
        v = _weak32(s, i, (v[1] * k1) & _M64, (x + w[0]) & _M64)
        w = _weak32(s, i + 32, (z + w[1]) & _M64, (y + _f64(s, i + 16)) & _M64)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = k1 + ((z & 0xff) << 1)
    i = last64
    w = ((w[0] + ((n - 1) & 63)) & _M64, w[1])
    v = ((v[0] + w[0]) & _M64, v[1])
    w = ((w[0] + v[0]) & _M64, w[1])
    x = (_r((x + y + v[0] + _f64(s, i + 8)) & _M64, 37) * mul) & _M64
    y = (_r((y + v[1] + _f64(s, i + 48)) & _M64, 42) * mul) & _M64
    x ^= (w[1] * 9) & _M64
    y = (y + v[0] * 9 + _f64(s, i + 40)) & _M64
    z = (_r((z + w[0]) & _M64, 33) * mul) & _M64
    v = _weak32(s, i, (v[1] * mul) & _M64, (x + w[0]) & _M64)
    w = _weak32(s, i + 32, (z + w[1]) & _M64, (y + _f64(s, i + 16)) & _M64)
    z, x = x, z
    return _m((_m(v[0], w[0], mul) + ((y ^ (y >> 47)) * k0) + z) & _M64,
              (_m(v[1], w[1], mul) + x) & _M64, mul)


def fingerprint64(strings):
    """FarmHash's Fingerprint64 of each `bytes` of an object array, as uint64 (same shape)."""
    flat = np.asarray(strings, object).reshape(-1)
    lengths = np.fromiter(map(len, flat), np.int64, count=flat.size)
    out = np.empty(flat.size, _U)
    with np.errstate(over="ignore"):
        for lo, hi, width, fn in ((0, 16, 16, _len_0_to_16), (17, 32, 32, _len_17_to_32),
                                  (33, 64, 64, _len_33_to_64)):
            rows = np.flatnonzero((lengths >= lo) & (lengths <= hi))
            if rows.size:
                out[rows] = fn(_Bytes(flat[rows], lengths[rows], width))
    for i in np.flatnonzero(lengths > 64):
        out[i] = _long(flat[i])
    return out.reshape(np.shape(strings))


def hash64(data, seed=0xDECAFCAFFE):
    """TF's Hash64 of bytes (a MurmurHash64A): the legacy `strings.to_hash_bucket`, and how
    TF's dense tables place string keys."""
    m, r = 0xc6a4a7935bd1e995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _M64
    full = n - n % 8
    for i in range(0, full, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * m) & _M64
        k = ((k ^ (k >> r)) * m) & _M64
        h = ((h ^ k) * m) & _M64
    if n % 8:
        h = ((h ^ int.from_bytes(data[full:], "little")) * m) & _M64
    h = ((h ^ (h >> r)) * m) & _M64
    return h ^ (h >> r)


# -- SipHash-2-4 (TF's StrongKeyedHash) ------------------------------------------------------

def _siphash(k0, k1, data):
    v0 = k0 ^ 0x736f6d6570736575
    v1 = k1 ^ 0x646f72616e646f6d
    v2 = k0 ^ 0x6c7967656e657261
    v3 = k1 ^ 0x7465646279746573

    def rounds(v0, v1, v2, v3, n):
        for _ in range(n):
            v0 = (v0 + v1) & _M64
            v1 = _r(v1, 64 - 13) ^ v0
            v0 = _r(v0, 32)
            v2 = (v2 + v3) & _M64
            v3 = _r(v3, 64 - 16) ^ v2
            v0 = (v0 + v3) & _M64
            v3 = _r(v3, 64 - 21) ^ v0
            v2 = (v2 + v1) & _M64
            v1 = _r(v1, 64 - 17) ^ v2
            v2 = _r(v2, 32)
        return v0, v1, v2, v3

    n = len(data)
    full = n - n % 8
    for i in range(0, full, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v3 ^= m
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    m = int.from_bytes(data[full:], "little") | ((n & 0xff) << 56)
    v3 ^= m
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
    v0 ^= m
    v2 ^= 0xff
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


# -- StringToHashBucketFast, StringToHashBucketStrong ----------------------------------------------

def _check_buckets(num_buckets):
    if num_buckets < 1:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'num_buckets' of {num_buckets} must be at least "
                        f"minimum 1")


def _to_hash_bucket_fast(xp, x, num_buckets):
    _check_buckets(num_buckets)
    return (fingerprint64(x) % _U(num_buckets)).astype(np.int64)


def _to_hash_bucket(xp, x, num_buckets):
    _check_buckets(num_buckets)
    flat = [hash64(s) % num_buckets for s in np.asarray(x, object).reshape(-1)]
    return np.asarray(flat, np.int64).reshape(np.shape(x))


def _to_hash_bucket_strong(xp, x, num_buckets, key):
    _check_buckets(num_buckets)
    k0, k1 = (int(k) & _M64 for k in key)
    flat = [_siphash(k0, k1, s) % num_buckets for s in np.asarray(x, object).reshape(-1)]
    return np.asarray(flat, np.int64).reshape(np.shape(x))


def _hash_rule(x, **_):
    return x.shape, _d.int64


_NO_GRAD = "string op"
_HASH_FAST = register("StringToHashBucketFast", _to_hash_bucket_fast, _hash_rule,
                      dtypes=(_d.string,), not_differentiable=_NO_GRAD)
_HASH_STRONG = register("StringToHashBucketStrong", _to_hash_bucket_strong, _hash_rule,
                        dtypes=(_d.string,), not_differentiable=_NO_GRAD)
_HASH_LEGACY = register("StringToHashBucket", _to_hash_bucket, _hash_rule, dtypes=(_d.string,),
                        not_differentiable=_NO_GRAD)
for _op in (_HASH_FAST, _HASH_STRONG, _HASH_LEGACY):
    batching_rules[_op] = PER_ELEMENT
    tf_nodes[_op] = NodeForm(types={})
tf_args[_HASH_LEGACY] = ("string_tensor",)


@export("strings.to_hash_bucket_fast")
def to_hash_bucket_fast(input, num_buckets, name=None):
    """Each string's bucket in ``[0, num_buckets)``: its FarmHash Fingerprint64 modulo
    `num_buckets` (int64), as TF computes it."""
    return dispatch(_HASH_FAST, (convert_input(input, _d.string),),
                    _buckets("StringToHashBucketFast", num_buckets, input, name), name)


@export("strings.to_hash_bucket")
def to_hash_bucket(input, num_buckets, name=None):  # noqa: A002 (TF's name)
    """Each string's bucket in ``[0, num_buckets)`` by TF's older Hash64 (TF recommends
    `to_hash_bucket_fast`; the values differ).

    >>> tf.strings.to_hash_bucket(["Hello", "TensorFlow"], 1000).numpy()
    array([941, 232])
    """
    return dispatch(_HASH_LEGACY, (convert_input(input, _d.string),),
                    _buckets("StringToHashBucket", num_buckets, input, name), name)


@export("strings.to_hash_bucket_strong")
def to_hash_bucket_strong(input, num_buckets, key, name=None):
    """Each string's bucket in ``[0, num_buckets)`` by SipHash-2-4 keyed with `key` (two
    integers): slower than `to_hash_bucket_fast`, and hard to collide on purpose.

    >>> tf.strings.to_hash_bucket_strong(["Hello", "TF"], 3, [1, 2]).numpy()
    array([2, 0])
    """
    key = [int(k) for k in key]
    buckets = _buckets("StringToHashBucketStrong", num_buckets, input, name)
    if len(key) != 2:
        raise errors.listed(errors.eager_error(
            errors.InvalidArgumentError, "StringToHashBucketStrong",
            "Key must have 2 elements"), input)
    return dispatch(_HASH_STRONG, (convert_input(input, _d.string),),
                    dict(buckets, key=key), name)


def _buckets(op_name, num_buckets, strings, name):
    """The ``num_buckets`` attr of `op_name`, checked before its kernel runs as TF does."""
    try:
        return checked_attrs(op_name, {"num_buckets": int(num_buckets)}, name=name)
    except errors.OpError as e:
        raise errors.listed(e, strings) from None


# -- Fingerprint -----------------------------------------------------------------------------------

def _fingerprint(xp, data, method):
    """FarmHash's Fingerprint64 of each row (along axis 0) of `data`, as 8 little-endian
    bytes: of its raw bytes, or for strings of the string itself (one a row) or of the
    fingerprints of its strings one after another."""
    method = method.item() if isinstance(method, np.ndarray) else method
    method = method.decode() if isinstance(method, bytes) else str(method)
    if data.ndim < 1:
        raise errors.InvalidArgumentError(
            None, None, f"`data` should have at least one dimension: {shape_text(data.shape)}")
    if method != "farmhash64":
        raise errors.InvalidArgumentError(None, None, f"Unsupported fingerprint method: {method}")
    rows = data.shape[0]
    if data.dtype == object:
        prints = fingerprint64(data.reshape(-1)).astype("<u8")
        if data.size > rows:  # a row's strings: the fingerprint of their fingerprints
            row_bytes = prints.tobytes()
            width = prints.size // rows * 8
            prints = _row_prints(row_bytes, rows, width)
    else:
        flat = np.ascontiguousarray(data).reshape(rows, data.size // rows if rows else 0)
        width = flat.dtype.itemsize * flat.shape[1]
        prints = _row_prints(flat.astype(flat.dtype.newbyteorder("<")).tobytes(), rows, width)
    return np.frombuffer(prints.astype("<u8").tobytes(), np.uint8).reshape(rows, 8)


def _row_prints(data, rows, width):
    chunks = np.empty(rows, object)
    chunks[:] = [data[i * width:(i + 1) * width] for i in range(rows)]
    return fingerprint64(chunks)


def _fingerprint_rule(data, method):
    return TensorShape([data.shape[0] if data.shape.rank else None, 8]), _d.uint8


_FINGERPRINT = register("Fingerprint", _fingerprint, _fingerprint_rule, tied=(0,),
                        not_differentiable=_NO_GRAD)
batching_rules[_FINGERPRINT] = PER_ELEMENT
tf_nodes[_FINGERPRINT] = NodeForm(outputs=("fingerprint",))
tf_args[_FINGERPRINT] = ("data", "method")


@export("fingerprint")
def fingerprint(data, method="farmhash64", name=None):
    """FarmHash's 64-bit fingerprint of each row (along axis 0) of `data`, as 8 uint8 bytes
    (little-endian): the same on every platform and from one TF version to the next.

    >>> tf.fingerprint(tf.constant(["hello"])).numpy()
    array([[232,  12,  56,  49, 169, 229, 139, 180]], dtype=uint8)
    """
    try:
        return dispatch(_FINGERPRINT, (convert_to_tensor(data),
                                       convert_input(method, _d.string)), {}, name)
    except errors.OpError as e:
        raise errors.listed(e, data, method) from None
