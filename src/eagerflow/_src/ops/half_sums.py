"""float16 sums (and products) in TensorFlow's CPU order, each partial result rounded to float16
(and float32 sums in that order, when TensorFlow's CPU results are emulated).

TensorFlow's CPU kernels sum float16 in float16 (Eigen's reductions), not in float32: each
addition rounds to half precision, so a long sum drifts (5000 halves of 0.1 sum to 498.5, not
500) and overflows to inf as soon as a partial sum passes 65504 ([60000, 60000, -60000] sums to
inf). The order of the additions decides the rounding, so this module takes Eigen's order:

* a reduction over the trailing axes sums each row in 8-lane vectors: four vector accumulators
  over blocks of 32 values, folded into the first one, which then takes the remaining whole
  vectors; the last ``n % 8`` values add one by one, and the vector's lanes add in float32 (a
  pairwise fold) before joining them. A row of more than 1600 values splits in two (at a
  multiple of 8 counted from the start of the whole array) and the halves' sums add;
* a reduction over leading or middle axes adds row after row: for groups of 8 outputs that
  lie in one row of the output's last axis, in four accumulators (rows ``j % 4``) folded into
  the first, when there are 16 rows or more; other outputs one row at a time;
* a reduction over the first and last of three axes walks the last axis outermost;
* a whole-array sum of many elements splits into one block per thread of TensorFlow's
  intra-op pool (as many as its cost model gives), the blocks' sums added after the remainder.

float32 sums take the same order when `config.experimental.enable_tf_cpu_float_emulation` is
on (rows splitting past 8192 values; a whole-array sum is not split among threads, which is
what TensorFlow's float32 cost model gives on two cores, measured up to 4M values); by default
float32 sums are NumPy's, pairwise, within a few ulps of these.

Like TensorFlow, axes of length 1 are dropped and neighbouring axes merged first; more than
three remaining axes are transposed so the reduced ones come last. Products take the same
order, except that Eigen never splits a long row of them. bfloat16 arrays add in the same order
in bfloat16, their rows splitting past 1024 values (as TF's bfloat16 log_softmax and sparse
reduce_sum add; its Sum op adds bfloat16 in float32).

>>> tf_sum(np.full(5000, 0.1, np.float16), None)
array(498.5, dtype=float16)
"""
import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from eagerflow._src.core import config
from eagerflow._src.core import dtypes as _d

_LANES = 8
# a longer row of a trailing-axes sum splits in two
_LEAF = {np.dtype(np.float16): 200 * _LANES, np.dtype(_d.bfloat16.as_numpy_dtype): 128 * _LANES,
         np.dtype(np.float32): 1024 * _LANES}
# Eigen's cost model for a whole-array float16 sum: cycles per element, and the cycles of
# starting a thread and of each thread's share
_CYCLES_PER_ELEMENT = 51 / 32
_THREAD_CYCLES = 100000
_WIDE = 2048  # values per step from which `_sequential` loops over the steps in float32


def tf_sum(x, axis, keepdims=False):
    """The float16, bfloat16 or float32 array `x` summed over `axis` (None: all) as
    TensorFlow's CPU kernels add it."""
    return _reduce(np.add, x, axis, keepdims)


def sequential_sum(x, axis):
    """The float16 or bfloat16 array `x` summed over the one `axis` one slice after another,
    each partial sum rounded to `x`'s type (as TF's bfloat16 BiasAddGrad adds its rows)."""
    return _sequential(np.add, x, axis)


def tf_prod(x, axis, keepdims=False):
    """The float16 (or bfloat16) product of `x` over `axis`, multiplied in the order `tf_sum`
    adds."""
    return _reduce(np.multiply, x, axis, keepdims)


def _reduce(ufunc, x, axis, keepdims):
    axes = tuple(range(x.ndim)) if axis is None else normalize_axis_tuple(axis, x.ndim)
    kept_shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    out_shape = kept_shape if keepdims else tuple(
        d for i, d in enumerate(x.shape) if i not in axes)
    if x.size == 0:
        return np.full(out_shape, ufunc.identity, x.dtype)
    dims = []  # [length, reduced] of the merged axes, axes of length 1 dropped
    for i, d in enumerate(x.shape):
        if d == 1:
            continue
        if dims and dims[-1][1] == (i in axes):
            dims[-1][0] *= d
        else:
            dims.append([d, i in axes])
    if not any(reduced for _, reduced in dims):  # each output sums one element: a copy
        return x.reshape(out_shape).copy()
    shape = [d for d, _ in dims]
    y = np.ascontiguousarray(x).reshape(shape)
    with np.errstate(over="ignore", invalid="ignore"):
        if len(dims) == 1:
            total = _whole(ufunc, y)
        elif len(dims) == 2 and dims[1][1]:
            total = _rows(ufunc, y)
        elif len(dims) == 2:
            total = _middle(ufunc, y.reshape((1,) + y.shape))
        elif len(dims) == 3 and dims[1][1]:
            total = _middle(ufunc, y)
        elif len(dims) == 3:  # the first and last axes: the last walked outermost
            total = _sequential(ufunc, y.transpose(1, 2, 0).reshape(shape[1], -1), axis=1)
        else:
            kept = [i for i, (_, reduced) in enumerate(dims) if not reduced]
            summed = [i for i, (_, reduced) in enumerate(dims) if reduced]
            moved = np.ascontiguousarray(y.transpose(kept + summed))
            total = _rows(ufunc, moved.reshape(int(np.prod([shape[i] for i in kept])), -1))
    return np.asarray(total, x.dtype).reshape(out_shape)


def _sequential(ufunc, blocks, axis):
    """`blocks` added one after another along `axis`, each partial sum rounded to float16."""
    steps = blocks.shape[axis]
    if steps < 2 or blocks.size < _WIDE * steps:  # (few values per step: NumPy's own loop)
        return np.take(ufunc.accumulate(blocks, axis=axis, dtype=blocks.dtype), -1, axis=axis)
    # NumPy adds halves one at a time; in float32, rounding each partial result back to
    # half precision, a step runs on whole vectors. It rounds the same: a float32 sum or
    # product of two halves (or bfloat16s) rounds to the narrow type as the exact one does,
    # float32's 24 bits being at least twice the narrow type's, plus two.
    wide = np.moveaxis(blocks, axis, 0).astype(np.float32, order="C")  # (steps contiguous)
    total = wide[0].copy()
    round_narrow = _rounding(blocks.dtype, total.shape)
    for step in wide[1:]:
        ufunc(total, step, out=total)
        round_narrow(total)
    return total.astype(blocks.dtype)


def _rounding(dtype, shape):
    """``round(t)``: float32 array `t` (of `shape`) rounded in place to `dtype`'s precision."""
    if dtype == np.float32:
        return lambda t: None  # (already in its own precision)
    if dtype == np.float16:
        scratch = np.empty(shape, np.int32)
        return lambda t: _round_half(t, scratch)
    narrow = np.empty(shape, dtype)  # (bfloat16 converts fast on its own)

    def round_trip(t):
        np.copyto(narrow, t, casting="unsafe")
        np.copyto(t, narrow)
    return round_trip


_EXPONENT = np.int32(0x7F800000)
_SIGN = np.int32(-0x80000000)
_LOWEST = np.int32(0x38800000)   # 2**-14: below it a half's quantum is fixed (subnormals)
_HIGHEST = np.int32(0x47800000)  # 2**16: from 65520 every value overflows
_QUANTUM = np.int32((13 << 23) | 0x00400000)  # 13 up from the value's exponent, times 1.5
_UP, _DOWN = np.float32(2.0 ** 112), np.float32(2.0 ** -112)


def _round_half(t, scratch):
    """float32 array `t` rounded in place to float16 precision and range (ties to even),
    as ``t.astype(float16)`` rounds, on whole vectors (NumPy converts one value at a time).

    Adding and taking away ``1.5 * 2**23`` times a half's quantum at `t` (2**-10 of its
    power of two, 2**-24 at least) rounds `t` to that quantum; scaling by 2**112 and back
    turns what is past float16's largest value (65504) into float32's overflow, infinity.
    """
    bits = scratch
    np.bitwise_and(t.view(np.int32), _EXPONENT, out=bits)
    np.maximum(bits, _LOWEST, out=bits)
    np.minimum(bits, _HIGHEST, out=bits)
    bits += _QUANTUM
    magic = bits.view(np.float32)
    rounded = t + magic
    rounded -= magic
    np.bitwise_and(t.view(np.int32), _SIGN, out=bits)  # (a negative value rounding to 0: -0)
    np.bitwise_or(rounded.view(np.int32), bits, out=rounded.view(np.int32))
    rounded *= _UP
    np.multiply(rounded, _DOWN, out=t)


def _whole(ufunc, x):
    """The sum of 1-D `x`: in blocks over the threads TensorFlow's cost model gives."""
    n = x.shape[0]
    wanted = int((n * _CYCLES_PER_ELEMENT - _THREAD_CYCLES) / _THREAD_CYCLES + 0.9)
    threads = 1 if x.dtype == np.float32 else min(config.intra_op_pool_size(), max(1, wanted))
    if threads == 1:
        return _rows(ufunc, x.reshape(1, n))[0]
    size = n // threads
    count = n // size
    total = _rows(ufunc, x[count * size:].reshape(1, -1), count * size)[0] \
        if count * size < n else x.dtype.type(ufunc.identity)
    for i in range(count):
        total = ufunc(total, _rows(ufunc, x[i * size:(i + 1) * size].reshape(1, size),
                                   i * size)[0])
    return total


def _rows(ufunc, x, offset=0):
    """Each row of 2-D `x` summed as one trailing-axes reduction adds it; row r starts at
    element ``offset + r * length`` of the array (which decides where a long row splits)."""
    count, length = x.shape
    leaf = _LEAF[x.dtype]
    if length <= leaf or ufunc is np.multiply:  # (Eigen splits sums only)
        return _short_rows(ufunc, x)
    out = np.empty(count, x.dtype)
    phases = (offset + np.arange(count) * length) % _LANES
    for phase in np.unique(phases):
        rows = np.flatnonzero(phases == phase)
        pieces = []
        tree = _split(int(phase), length, pieces, leaf)
        sums = {}
        for piece_length in {n for _, n in pieces}:
            starts = [s for s, n in pieces if n == piece_length]
            block = np.stack([x[rows, s - phase:s - phase + piece_length] for s in starts], 1)
            values = _short_rows(ufunc, block.reshape(-1, piece_length)).reshape(len(rows), -1)
            sums.update((s, values[:, k]) for k, s in enumerate(starts))
        out[rows] = _join(ufunc, tree, sums)
    return out


def _split(first, length, pieces, leaf):
    """The pieces (start, length) a row of `length` values from `first` splits into, appended
    to `pieces`, and the tree that adds their sums: a start, or (left, right or None)."""
    if length <= leaf:
        pieces.append((first, length))
        return first
    middle = _LANES * -(-(first + -(-length // 2)) // _LANES)
    left = min(middle - first, length)
    return (_split(first, left, pieces, leaf),
            _split(middle, length - left, pieces, leaf) if left < length else None)


def _join(ufunc, tree, sums):
    if not isinstance(tree, tuple):
        return sums[tree]
    left, right = tree
    total = _join(ufunc, left, sums)
    total = ufunc(total, total.dtype.type(ufunc.identity))
    return total if right is None else ufunc(total, _join(ufunc, right, sums))


def _short_rows(ufunc, x):
    """Each row of 2-D `x` (short enough not to split) summed in Eigen's vector order."""
    count, length = x.shape
    lanes = np.full((count, _LANES), ufunc.identity, x.dtype)
    start = 0
    if length >= 4 * _LANES:  # four accumulators over blocks of four vectors, then folded
        start = length // (4 * _LANES) * 4 * _LANES
        four = _sequential(ufunc, x[:, :start].reshape(count, -1, 4, _LANES), axis=1)
        lanes = _fold(ufunc, four)
    while start + _LANES <= length:
        lanes = ufunc(lanes, x[:, start:start + _LANES])
        start += _LANES
    tail = np.full(count, ufunc.identity, x.dtype)
    for j in range(start, length):
        tail = ufunc(tail, x[:, j])
    wide = lanes.astype(np.float32)  # the lanes fold in float32: 8 -> 4 -> 2 -> 1
    wide = ufunc(wide[:, :4], wide[:, 4:])
    wide = ufunc(wide[:, :2], wide[:, 2:])
    return ufunc(tail, ufunc(wide[:, 0], wide[:, 1]).astype(x.dtype))


def _fold(ufunc, four):
    """Four accumulators (axis 1) folded into the first, one after another."""
    return ufunc(ufunc(ufunc(four[:, 0], four[:, 1]), four[:, 2]), four[:, 3])


def _middle(ufunc, x):
    """3-D `x` summed over its middle axis, each output as TensorFlow's kernel adds it."""
    outer, count, inner = x.shape
    if count < 16:
        return _sequential(ufunc, x, axis=1)
    # outputs go in groups of 8 (from the first); a group inside one row takes the vectors
    first = np.arange(outer * inner) // _LANES * _LANES
    vector = ((first + _LANES <= outer * inner) & (first % inner + _LANES <= inner)).reshape(
        outer, inner)
    if not vector.any():
        return _sequential(ufunc, x, axis=1)
    whole = count // 4 * 4
    four = _sequential(ufunc, x[:, :whole].reshape(outer, -1, 4, inner), axis=1)
    grouped = _fold(ufunc, four)
    for j in range(whole, count):
        grouped = ufunc(grouped, x[:, j])
    if vector.all():
        return grouped
    return np.where(vector, grouped, _sequential(ufunc, x, axis=1))
