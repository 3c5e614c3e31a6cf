"""Specs of reductions, scans, sorting, segment ops, clipping and norms (reduction_ops.py)."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec, positive, rand

F16, F32, F64, I32, I64 = np.float16, np.float32, np.float64, np.int32, np.int64


def _np_reduce(fn, axis=None, keepdims=False):
    """A NumPy reference keeping the input's dtype (NumPy widens small integer sums)."""
    return lambda x: np.asarray(fn(x, axis=axis, keepdims=keepdims)).astype(x.dtype)


def _reduction(op, fn, ref, data, axis=None, keepdims=False, **kw):
    name = f"{op}-{np.dtype(data.dtype).name}-axis{axis}{'-keep' if keepdims else ''}"
    return OpSpec(op, lambda x: fn(x, axis, keepdims), [data],
                  _np_reduce(ref, axis, keepdims), name=name, **kw)


def _int_mean(x, axis=None, keepdims=False):
    total = x.sum(axis=axis, keepdims=keepdims, dtype=np.int64)
    count = x.size // max(total.size, 1)
    return np.trunc(total / count)


def _logsumexp(x, axis=None, keepdims=False):
    wide = x.astype(F64)
    peak = wide.max(axis=axis, keepdims=True)
    out = np.log(np.exp(wide - peak).sum(axis=axis, keepdims=True)) + peak
    return out if keepdims else np.squeeze(out, axis=axis)


def _euclidean(x, axis=None, keepdims=False):
    return np.sqrt((np.abs(x.astype(F64)) ** 2).sum(axis=axis, keepdims=keepdims))


def _top_k(k):
    def ref(x):
        order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
        return np.take_along_axis(x, order, -1), order.astype(I32)
    return ref


def _unique(x, with_counts=False, index=I32):
    _, first = np.unique(x, return_index=True)
    y = x[np.sort(first)]
    idx = np.array([np.flatnonzero(y == v)[0] for v in x], index)
    if with_counts:
        return y, idx, np.bincount(idx).astype(index)
    return y, idx


def _segment_ref(reduce, empty, num=None):
    """Reference of (sorted or unsorted) segment `reduce`, `empty` for unnamed segments."""
    def ref(data, ids):
        n = int(ids.max()) + 1 if num is None else num
        out = np.full((n,) + data.shape[ids.ndim:], empty, data.dtype)
        rows = data.reshape((-1,) + data.shape[ids.ndim:])
        for s in range(n):
            picked = rows[ids.reshape(-1) == s]
            if len(picked):
                out[s] = reduce(picked, axis=0)
        return out
    return ref


def _int_segment_mean(data, axis):
    return np.trunc(data.sum(axis=axis) / data.shape[axis])


def _exclusive_cumsum(x):
    return np.concatenate([np.zeros((1,) + x.shape[1:], x.dtype),
                           np.cumsum(x, axis=0, dtype=x.dtype)[:-1]])


def _reverse_cumprod(x):
    return np.flip(np.cumprod(np.flip(x, 1), axis=1, dtype=x.dtype), 1)


def _clip_by_norm(t, clip):
    norm = np.sqrt((t.astype(F64) ** 2).sum(axis=1, keepdims=True))
    return (t * clip / np.maximum(norm, clip)).astype(t.dtype)


def _l2_normalize(x):
    return (x / np.sqrt(np.maximum((x.astype(F64) ** 2).sum(axis=0), 1e-12))).astype(x.dtype)


_SEGMENT_IDS = np.array([0, 0, 1, 3, 3, 3], I32)
_UNSORTED_IDS = np.array([[2, 0, 2], [-1, 0, 4]], I64)
_FULL_IDS = np.array([[2, 0, 2], [-1, 1, 1]], I32)  # every segment named
# Empty segments hold the dtype's extreme: finite differences of the sum overflow there.
_EMPTY_SEGMENTS = "empty segments overflow finite differences; see the -no-empty spec"
_TIES = np.array([[1, 3, 3, 2, 3, 0], [5, 5, 1, 5, 0, 0]], I32)

SPECS = [
    _reduction("Sum", tf.reduce_sum, np.sum, rand(3, 4)),
    _reduction("Sum", tf.reduce_sum, np.sum, rand(3, 4, dtype=F64), axis=1, keepdims=True),
    _reduction("Sum", tf.reduce_sum, np.sum, rand(2, 3, 4, dtype=I32, low=-9, high=9),
               axis=(0, -1), grad="integer"),
    _reduction("Sum", tf.reduce_sum, np.sum, rand(3, 4, dtype=np.complex64), axis=0),
    _reduction("Sum", tf.reduce_sum, np.sum, rand(2, 50, dtype=F16), axis=1, rtol=1e-3,
               atol=1e-2),
    _reduction("Sum", tf.reduce_sum, np.sum, rand(0, 3), axis=0),
    _reduction("Mean", tf.reduce_mean, np.mean, rand(3, 4), axis=0),
    _reduction("Mean", tf.reduce_mean, np.mean, rand(2, 3, 4, dtype=F64), axis=-1,
               keepdims=True),
    _reduction("Mean", tf.reduce_mean, _int_mean, rand(3, 5, dtype=I32, low=-20, high=20),
               axis=1, grad="integer"),
    _reduction("Mean", tf.reduce_mean, _int_mean, rand(4, 3, dtype=np.int8, low=-100, high=100),
               grad="integer"),
    _reduction("Max", tf.reduce_max, np.max, rand(3, 4), axis=1),
    _reduction("Max", tf.reduce_max, np.max, rand(3, 4, dtype=I64, low=-50, high=50),
               grad="integer"),
    _reduction("Max", tf.reduce_max, np.max, rand(2, 3, 2, dtype=np.uint8, low=0, high=200),
               axis=(0, 2), keepdims=True, grad="integer"),
    _reduction("Min", tf.reduce_min, np.min, rand(3, 4, dtype=F64), axis=0),
    _reduction("Min", tf.reduce_min, np.min, rand(3, 4, dtype=I32, low=-50, high=50), axis=-1,
               keepdims=True, grad="integer"),
    _reduction("Prod", tf.reduce_prod, np.prod, positive(3, 4), axis=1),
    _reduction("Prod", tf.reduce_prod, np.prod, rand(2, 3, dtype=I32, low=-4, high=4),
               grad="integer"),
    _reduction("Any", tf.reduce_any, np.any, rand(3, 4, dtype=np.bool_), axis=1,
               grad="boolean"),
    _reduction("Any", tf.reduce_any, np.any, np.zeros((2, 3), np.bool_), keepdims=True,
               grad="boolean"),
    _reduction("All", tf.reduce_all, np.all, rand(3, 4, dtype=np.bool_), axis=0,
               grad="boolean"),
    _reduction("All", tf.reduce_all, np.all, np.ones((2, 3), np.bool_), grad="boolean"),
    _reduction("EuclideanNorm", tf.math.reduce_euclidean_norm, _euclidean, rand(3, 4), axis=1),
    _reduction("EuclideanNorm", tf.math.reduce_euclidean_norm, _euclidean,
               rand(3, 4, dtype=I32, low=-9, high=9), keepdims=True, grad="integer"),
    _reduction("Sum", tf.reduce_logsumexp, _logsumexp, rand(3, 4, low=50, high=60), axis=1),
    _reduction("Sum", tf.reduce_logsumexp, _logsumexp, rand(3, 4, dtype=F64), keepdims=True),
    _reduction("Mean", tf.math.reduce_variance, np.var, rand(3, 4), axis=0),
    _reduction("Mean", tf.math.reduce_std, np.std, rand(3, 4, dtype=F64), axis=-1, keepdims=True),
    OpSpec("ArgMax", lambda x: tf.argmax(x, 1), [rand(3, 5)], lambda x: np.argmax(x, 1),
           grad="index output"),
    OpSpec("ArgMax", lambda x: tf.argmax(x, output_type=tf.int32), [_TIES],
           lambda x: np.argmax(x, 0).astype(I32), name="ArgMax-ties-int32",
           grad="index output"),
    OpSpec("ArgMin", lambda x: tf.argmin(x, -1), [rand(2, 3, 4, dtype=F64)],
           lambda x: np.argmin(x, -1), grad="index output"),
    OpSpec("ArgMin", tf.argmin, [_TIES], lambda x: np.argmin(x, 0), name="ArgMin-ties",
           grad="index output"),
    OpSpec("NthElement", lambda x: tf.raw_ops.NthElement(input=x, n=2), [rand(3, 2, 5, dtype=F64)],
           lambda x: np.sort(x, -1)[..., 2]),
    OpSpec("NthElement", lambda x: tf.raw_ops.NthElement(input=x, n=0, reverse=True),
           [_TIES], lambda x: np.max(x, -1), name="NthElement-reverse-ties",
           grad="integer"),
    OpSpec("TopKV2", lambda x: tf.math.top_k(x, 3), [rand(4, 6)], _top_k(3),
           grad="values checked by TopKV2-values"),
    OpSpec("TopKV2", lambda x: tf.math.top_k(x, 3).values, [rand(4, 6, dtype=F64)],
           lambda x: _top_k(3)(x)[0], name="TopKV2-values"),
    OpSpec("TopKV2", lambda x: tf.math.top_k(x, 4), [_TIES], _top_k(4), name="TopKV2-ties",
           grad="integer"),
    OpSpec("TopKV2", lambda x: tf.sort(x), [rand(3, 5)], lambda x: np.sort(x, -1),
           name="sort"),
    OpSpec("TopKV2", lambda x: tf.sort(x, 0, "DESCENDING"), [rand(4, 3, dtype=F64)],
           lambda x: -np.sort(-x, 0), name="sort-axis0-descending"),
    OpSpec("TopKV2", lambda x: tf.argsort(x), [_TIES],
           lambda x: np.argsort(x, -1, kind="stable").astype(I32), name="argsort-ties",
           grad="index output"),
    OpSpec("TopKV2", lambda x: tf.argsort(x, direction="DESCENDING"),
           [np.array([3, 200, 0, 3], np.uint8)],
           lambda x: np.array([1, 0, 3, 2], I32), name="argsort-uint8-descending",
           grad="index output"),
    OpSpec("Unique", tf.unique, [np.array([3, 1, 3, 2, 1, 7], I32)], _unique,
           grad="index output"),
    OpSpec("Unique", lambda x: tf.unique(x, out_idx=tf.int64), [np.array([b"b", b"a", b"b"],
                                                                        object)],
           lambda x: (x[:2], np.array([0, 1, 0], I64)), name="Unique-string-int64",
           grad="index output"),
    OpSpec("UniqueWithCounts", tf.unique_with_counts, [np.array([2.5, -1.0, 2.5, 2.5], F32)],
           lambda x: _unique(x, with_counts=True), grad="index output"),
    OpSpec("UniqueV2", lambda x: tf.raw_ops.UniqueV2(x=x, axis=[0]),
           [np.array([[1, 0, 1], [1, 0, 1], [2, 0, 0]], I32)],
           lambda x: (x[[0, 2]], np.array([0, 0, 1], I32)), grad="index output"),
    OpSpec("UniqueV2", lambda x: tf.raw_ops.UniqueV2(x=x, axis=[-1], out_idx=tf.int64),
           [np.array([[1., 0., 1.], [1., 0., 1.]], F32)],
           lambda x: (x[:, :2], np.array([0, 1, 0], I64)), name="UniqueV2-last-axis-int64",
           grad="index output"),
    OpSpec("UniqueV2", lambda x: tf.raw_ops.UniqueV2(x=x, axis=tf.constant([], tf.int64)),
           [np.array([3, 1, 3, 2], I32)], _unique, name="UniqueV2-no-axis",
           grad="index output"),
    OpSpec("UniqueWithCountsV2", lambda x: tf.raw_ops.UniqueWithCountsV2(x=x, axis=[0]),
           [np.array([[1, 0, 1], [2, 0, 0], [1, 0, 1]], I32)],
           lambda x: (x[[0, 1]], np.array([0, 1, 0], I32), np.array([2, 1], I32)),
           grad="index output"),
    OpSpec("UniqueWithCountsV2", lambda x: tf.raw_ops.UniqueWithCountsV2(
        x=x, axis=tf.constant([], tf.int64), out_idx=tf.int64),
           [np.array([3, 1, 3, 2], I32)], lambda x: _unique(x, with_counts=True, index=I64),
           name="UniqueWithCountsV2-no-axis", grad="index output"),
    OpSpec("ApproxTopK", lambda x: tf.math.approx_max_k(x, 3), [rand(4, 6)], _top_k(3),
           grad="values checked by ApproxTopK-values"),
    OpSpec("ApproxTopK", lambda x: tf.math.approx_max_k(x, 2, reduction_dimension=0).values,
           [rand(4, 3)], lambda x: -np.sort(-x, 0)[:2], name="ApproxTopK-values"),
    OpSpec("ApproxTopK", lambda x: tf.math.approx_min_k(x, 2).values, [rand(3, 5)],
           lambda x: np.sort(x, -1)[:, :2], name="ApproxTopK-min"),
    OpSpec("Bincount", lambda a, w: tf.raw_ops.Bincount(arr=a, size=5, weights=w),
           [np.array([[1, 1], [3, 7]], I32), np.array([[1.0, 2.0], [3.0, 4.0]], F64)],
           lambda a, w: np.array([0.0, 3.0, 0.0, 3.0, 0.0]), grad="no gradient in TF"),
    OpSpec("DenseBincount", tf.math.bincount, [np.array([1, 1, 4, 2, 1], I32)],
           lambda x: np.bincount(x).astype(I32), grad="counts"),
    OpSpec("DenseBincount", lambda x, w: tf.math.bincount(x, w, minlength=7),
           [np.array([[1, 1], [4, 2]], I64), np.array([[0.5, 1.0], [2.0, 4.0]], F32)],
           lambda x, w: np.bincount(x.ravel(), w.ravel(), minlength=7).astype(F32),
           name="DenseBincount-weights", grad="counts"),
    OpSpec("DenseBincount", lambda x: tf.math.bincount(x, axis=-1, maxlength=3, dtype=tf.float64),
           [np.array([[0, 1, 1, 5], [2, 2, 0, 2]], I32)],
           lambda x: np.array([[1, 2, 0], [1, 0, 3]], F64), name="DenseBincount-axis-1",
           grad="counts"),
    OpSpec("Sum", lambda x: tf.math.count_nonzero(x, axis=1, keepdims=True, dtype=tf.int32),
           [rand(3, 4, dtype=I32, low=-1, high=1)],
           lambda x: np.count_nonzero(x, axis=1, keepdims=True).astype(I32),
           name="count_nonzero", grad="integer"),
    OpSpec("SegmentSum", tf.math.segment_sum, [rand(6, 2), _SEGMENT_IDS],
           _segment_ref(np.sum, 0)),
    OpSpec("SegmentSum", tf.math.segment_sum, [rand(6, dtype=I32, low=-9, high=9), _SEGMENT_IDS],
           _segment_ref(np.sum, 0), name="SegmentSum-int32", grad="integer"),
    OpSpec("SegmentMean", tf.math.segment_mean, [rand(6, 3, dtype=F64), _SEGMENT_IDS],
           _segment_ref(np.mean, 0)),
    OpSpec("SegmentMean", tf.math.segment_mean, [rand(6, dtype=I32, low=-9, high=9), _SEGMENT_IDS],
           _segment_ref(_int_segment_mean, 0), name="SegmentMean-int32", grad="integer"),
    OpSpec("SegmentMax", tf.math.segment_max, [rand(6, 2), _SEGMENT_IDS], _segment_ref(np.max, 0)),
    OpSpec("SegmentMin", tf.math.segment_min, [rand(6, dtype=F64), _SEGMENT_IDS],
           _segment_ref(np.min, 0)),
    OpSpec("SegmentProd", tf.math.segment_prod, [positive(6, 2), _SEGMENT_IDS],
           _segment_ref(np.prod, 1)),
    OpSpec("UnsortedSegmentSum", lambda d, i: tf.math.unsorted_segment_sum(d, i, 5),
           [rand(2, 3, 2), _UNSORTED_IDS], _segment_ref(np.sum, 0, 5)),
    OpSpec("UnsortedSegmentSum", lambda d, i: tf.math.unsorted_segment_sum(d, i, 4),
           [rand(5, dtype=I32, low=-9, high=9), np.array([3, 0, 3, 1, 0], I32)],
           _segment_ref(np.sum, 0, 4), name="UnsortedSegmentSum-int32", grad="integer"),
    OpSpec("UnsortedSegmentProd", lambda d, i: tf.math.unsorted_segment_prod(d, i, 5),
           [positive(2, 3), _UNSORTED_IDS], _segment_ref(np.prod, 1, 5)),
    OpSpec("UnsortedSegmentMax", lambda d, i: tf.math.unsorted_segment_max(d, i, 5),
           [rand(2, 3, dtype=F64), _UNSORTED_IDS],
           _segment_ref(np.max, np.finfo(F64).min, 5), grad=_EMPTY_SEGMENTS),
    OpSpec("UnsortedSegmentMax", lambda d, i: tf.math.unsorted_segment_max(d, i, 3),
           [rand(2, 3, dtype=F64), _FULL_IDS], _segment_ref(np.max, 0, 3),
           name="UnsortedSegmentMax-no-empty"),
    OpSpec("UnsortedSegmentMin", lambda d, i: tf.math.unsorted_segment_min(d, i, 5),
           [rand(2, 3, 2), _UNSORTED_IDS], _segment_ref(np.min, np.finfo(F32).max, 5),
           grad=_EMPTY_SEGMENTS),
    OpSpec("UnsortedSegmentMin", lambda d, i: tf.math.unsorted_segment_min(d, i, 3),
           [rand(2, 3, 2), _FULL_IDS], _segment_ref(np.min, 0, 3),
           name="UnsortedSegmentMin-no-empty"),
    OpSpec("UnsortedSegmentProd", lambda d, i: tf.math.unsorted_segment_prod(d, i, 3),
           [np.array([[0.0, 2.0, 3.0], [-1.5, 0.5, 0.0]]), _FULL_IDS],
           _segment_ref(np.prod, 1, 3), name="UnsortedSegmentProd-zeros"),
    OpSpec("UnsortedSegmentMin", lambda d, i: tf.math.unsorted_segment_min(d, i, 3),
           [rand(4, dtype=I32, low=-9, high=9), np.array([2, 0, 2, 0], I32)],
           _segment_ref(np.min, np.iinfo(I32).max, 3), name="UnsortedSegmentMin-int32",
           grad="integer"),
    OpSpec("UnsortedSegmentSum", lambda d, i: tf.math.unsorted_segment_mean(d, i, 5),
           [rand(2, 3, 2), _UNSORTED_IDS], _segment_ref(np.mean, 0, 5),
           name="unsorted_segment_mean"),
    OpSpec("UnsortedSegmentSum", lambda d, i: tf.math.unsorted_segment_sqrt_n(d, i, 5),
           [rand(2, 3), _UNSORTED_IDS],
           _segment_ref(lambda v, axis: v.sum(axis) / np.sqrt(len(v)), 0, 5),
           name="unsorted_segment_sqrt_n"),
    OpSpec("Cumsum", tf.cumsum, [rand(4, 3)], lambda x: np.cumsum(x, 0)),
    OpSpec("Cumsum", lambda x: tf.cumsum(x, exclusive=True), [rand(4, 3, dtype=I32)],
           _exclusive_cumsum, name="Cumsum-exclusive-int32", grad="integer"),
    OpSpec("Cumsum", lambda x: tf.cumsum(x, -1, reverse=True), [rand(2, 5, dtype=F64)],
           lambda x: np.flip(np.cumsum(np.flip(x, -1), -1), -1), name="Cumsum-reverse"),
    OpSpec("Cumprod", lambda x: tf.math.cumprod(x, 1), [positive(3, 4)],
           lambda x: np.cumprod(x, 1)),
    OpSpec("Cumprod", lambda x: tf.math.cumprod(x, 1, reverse=True),
           [rand(2, 4, dtype=I64, low=-3, high=3)], _reverse_cumprod,
           name="Cumprod-reverse-int64", grad="integer"),
    OpSpec("CumulativeLogsumexp", lambda x: tf.math.cumulative_logsumexp(x, 1), [rand(3, 4)],
           lambda x: np.logaddexp.accumulate(x, 1)),
    OpSpec("CumulativeLogsumexp", lambda x: tf.math.cumulative_logsumexp(x, exclusive=True,
                                                                   reverse=True),
           [rand(4, dtype=F64)],
           lambda x: np.append(np.logaddexp.accumulate(x[::-1])[::-1][1:], -np.inf),
           name="CumulativeLogsumexp-exclusive-reverse",
           grad="-inf output; see CumulativeLogsumexp-exclusive-exp"),
    OpSpec("CumulativeLogsumexp",
           lambda x: tf.exp(tf.math.cumulative_logsumexp(x, 1, exclusive=True)),
           [rand(2, 4, dtype=F64)],
           lambda x: np.concatenate([np.zeros((2, 1)), np.cumsum(np.exp(x), 1)[:, :-1]], 1),
           name="CumulativeLogsumexp-exclusive-exp"),
    OpSpec("AddN", lambda a, b, c: tf.add_n([a, b, c]), [rand(2, 3), rand(2, 3, seed=1),
                                                        rand(2, 3, seed=2)],
           lambda a, b, c: a + b + c),
    OpSpec("AddN", lambda a, b: tf.add_n([a, b]), [rand(4, dtype=I64), rand(4, dtype=I64)],
           np.add, name="AddN-int64", grad="integer"),
    OpSpec("Maximum", lambda t: tf.clip_by_value(t, -0.5, 0.5), [rand(3, 4)],
           lambda t: np.clip(t, -0.5, 0.5), name="clip_by_value"),
    OpSpec("ClipByValue", lambda t, lo, hi: tf.raw_ops.ClipByValue(
        t=t, clip_value_min=lo, clip_value_max=hi),
           [np.array([[0.3, 1.7, -1.2], [0.9, -0.1, 2.5]]), np.array(-0.5),
            np.array([[1.0, 1.0, 1.0], [0.5, 0.5, 3.0]])],
           lambda t, lo, hi: np.minimum(np.maximum(t, lo), hi)),
    OpSpec("ClipByValue", lambda t, lo, hi: tf.raw_ops.ClipByValue(
        t=t, clip_value_min=lo, clip_value_max=hi),
           [np.array([1, 5, -3], np.int32), np.array(4, np.int32), np.array(3, np.int32)],
           lambda t, lo, hi: np.full(3, 4, np.int32), name="ClipByValue-crossed-bounds",
           grad="integer"),
    OpSpec("Sum", lambda t: tf.clip_by_norm(t, 1.0, axes=[1]), [rand(3, 4)],
           lambda t: _clip_by_norm(t, 1.0), name="clip_by_norm"),
    OpSpec("L2Loss", lambda a, b: tf.linalg.global_norm([a, None, b]), [rand(3), rand(2, 2)],
           lambda a, b: np.sqrt((a.astype(F64) ** 2).sum() + (b ** 2).sum()).astype(F32),
           name="global_norm"),
    OpSpec("L2Loss", lambda a, b: tf.clip_by_global_norm([a, b], 1.0)[0], [rand(3), rand(2, 2)],
           lambda a, b: [v / max(np.sqrt((a ** 2).sum() + (b ** 2).sum()), 1) for v in (a, b)],
           name="clip_by_global_norm"),
    OpSpec("Sum", lambda x: tf.linalg.l2_normalize(x, axis=0), [rand(3, 4, dtype=F64)],
           _l2_normalize, name="l2_normalize"),
]
