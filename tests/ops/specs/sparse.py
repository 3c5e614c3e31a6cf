"""Specs of the sparse-tensor ops of sparse_ops.py (the others compose dense ops)."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec


def _words(*words):
    out = np.empty(len(words), object)
    out[:] = [w.encode() for w in words]
    return out


def _crossed(a, b):
    out = tf.sparse.cross([tf.reshape(a, [-1, 1]), tf.reshape(b, [-1, 1])])
    return out.indices, out.values, out.dense_shape


def _hashed(a, b):
    out = tf.sparse.cross_hashed([tf.reshape(a, [-1, 1]), tf.reshape(b, [-1, 1])], 100)
    return out.values


def _split(values):
    st = tf.SparseTensor([[0, 0], [1, 2], [1, 4]], values, [2, 5])
    return [t for piece in tf.sparse.split(sp_input=st, num_split=2, axis=1)
            for t in (piece.indices, piece.values, piece.dense_shape)]


def _dense_count(values):
    counts = tf.sparse.bincount(tf.reshape(values, [2, 2]), axis=-1, minlength=4)
    return counts.indices, counts.values, counts.dense_shape


def _sparse_count(values):
    counts = tf.sparse.bincount(tf.SparseTensor([[0, 1], [0, 3], [2, 0]], values, [3, 4]),
                                axis=-1, maxlength=3)
    return counts.indices, counts.values, counts.dense_shape


def _sparse_bincount(values):
    return tf.math.bincount(tf.SparseTensor([[0, 1], [0, 3], [2, 0]], values, [3, 4]), axis=-1,
                            minlength=4)


def _reduction(fn, **kw):
    def run(values):
        out = fn(tf.SparseTensor([[0, 1], [1, 0], [1, 2], [0, 1]], values, [2, 3]), **kw)
        return (out.indices, out.values, out.dense_shape) if isinstance(
            out, tf.SparseTensor) else out
    return run


_REDUCED = np.array([1.5, -2.0, 3.0, 0.25])
_NO_REDUCE_GRAD = "TF registers no gradient"
SPECS = [
    OpSpec("SparseReduceSum", _reduction(tf.sparse.reduce_sum, axis=1), [_REDUCED],
           lambda v: np.array([v[0] + v[3], v[1] + v[2]])),
    OpSpec("SparseReduceSum", _reduction(tf.sparse.reduce_sum, axis=0, keepdims=True),
           [_REDUCED], lambda v: np.array([[v[1], v[0] + v[3], v[2]]]),
           name="SparseReduceSum-keepdims"),
    OpSpec("SparseReduceMax", _reduction(tf.sparse.reduce_max, axis=-1), [_REDUCED],
           lambda v: np.array([max(v[0], v[3]), max(v[1], v[2])]), grad=_NO_REDUCE_GRAD),
    OpSpec("SparseReduceSumSparse",
           _reduction(tf.sparse.reduce_sum, axis=0, output_is_sparse=True), [_REDUCED],
           lambda v: (np.array([[0], [1], [2]]), np.array([v[1], v[0] + v[3], v[2]]),
                      np.array([3])), grad=_NO_REDUCE_GRAD),
    OpSpec("SparseReduceMaxSparse",
           _reduction(tf.sparse.reduce_max, axis=1, keepdims=True, output_is_sparse=True),
           [_REDUCED], lambda v: (np.array([[0, 0], [1, 0]]),
                                  np.array([max(v[0], v[3]), max(v[1], v[2])]),
                                  np.array([2, 1])), grad=_NO_REDUCE_GRAD),
    OpSpec("SparseBincount", _sparse_bincount, [np.array([2, 1, 2], np.int32)],
           lambda v: np.array([[0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 1, 0]], np.int32),
           grad="counts"),
    OpSpec("DenseCountSparseOutput", _dense_count, [np.array([2, 1, 2, 2], np.int64)],
           lambda v: [np.array([[0, 1], [0, 2], [1, 2]]), np.array([1, 1, 2]),
                      np.array([2, 4])], grad="counts"),
    OpSpec("SparseCountSparseOutput", _sparse_count, [np.array([2, 1, 5], np.int32)],
           lambda v: [np.array([[0, 1], [0, 2]]), np.array([1, 1], np.int32),
                      np.array([3, 3])], grad="counts"),
    OpSpec("SparseCrossV2", _crossed, [_words("A", "B"), np.array([101, 102], np.int64)],
           lambda a, b: (np.array([[0, 0], [1, 0]]), _words("A_X_101", "B_X_102"),
                         np.array([2, 1])), grad="crosses features"),
    OpSpec("SparseCross", _hashed, [_words("A", "B"), np.array([101, 102], np.int64)],
           lambda a, b: np.array([91, 76]), grad="crosses features"),
]


def _set_parts(fn):
    def run(*args):
        out = fn(*args)
        return out.indices, out.values, out.dense_shape
    return run


_SETS_A = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
_SETS_B = np.array([[3, 2, 9], [7, 4, 4]], np.int32)
_NO_SET_GRAD = "set operations have no gradient"
SPECS += [
    OpSpec("DenseToDenseSetOperation", _set_parts(tf.sets.intersection), [_SETS_A, _SETS_B],
           lambda a, b: (np.array([[0, 0], [0, 1], [1, 0]]), np.array([2, 3, 4], np.int32),
                         np.array([2, 2])), grad=_NO_SET_GRAD),
    OpSpec("DenseToSparseSetOperation",
           _set_parts(lambda a, b: tf.sets.union(a, tf.sparse.from_dense(b))),
           [_SETS_A, _SETS_B],
           lambda a, b: (np.array([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2],
                                   [1, 3]]), np.array([1, 2, 3, 9, 4, 5, 6, 7], np.int32),
                         np.array([2, 4])), grad=_NO_SET_GRAD),
    OpSpec("SparseToSparseSetOperation",
           _set_parts(lambda a, b: tf.sets.difference(tf.sparse.from_dense(a),
                                                      tf.sparse.from_dense(b))),
           [_SETS_A, _SETS_B],
           lambda a, b: (np.array([[0, 0], [1, 0], [1, 1]]), np.array([1, 5, 6], np.int32),
                         np.array([2, 2])), grad=_NO_SET_GRAD),
    OpSpec("SetSize", lambda a: tf.sets.size(tf.sparse.from_dense(a)),
           [np.array([[1, 1, 2], [3, 3, 3]], np.int32)], lambda a: np.array([2, 1], np.int32),
           grad=_NO_SET_GRAD),
]


def _edit_distance(hi, hv, hs, ti, tv, ts):
    return tf.edit_distance(tf.SparseTensor(hi, hv, hs), tf.SparseTensor(ti, tv, ts),
                            normalize=False)


SPECS += [
    # "abc" against "acc": one substitution; "d" against "": one deletion
    OpSpec("EditDistance", _edit_distance,
           [np.array([[0, 0], [0, 1], [0, 2], [1, 0]], np.int64), np.array([1, 2, 3, 4], np.int32),
            np.array([2, 3], np.int64), np.array([[0, 0], [0, 1], [0, 2]], np.int64),
            np.array([1, 3, 3], np.int32), np.array([2, 3], np.int64)],
           lambda *_: np.array([1.0, 1.0], np.float32), grad="edit distance has no gradient"),
    OpSpec("SparseSplit", _split, [np.array([1.0, 2.0, 3.0], np.float32)],
           lambda v: [np.array([[0, 0], [1, 2]]), v[:2], np.array([2, 3]),
                      np.array([[1, 1]]), v[2:], np.array([2, 2])],
           grad="no gradient in TF (LookupError)"),
]


def _segment(fn, num_segments=None):
    def run(data):
        return fn(data, tf.constant([0, 2, 1, 2]), tf.constant([0, 0, 2, 2]),
                  num_segments=num_segments)
    return run


def _segment_ref(kind, rows=3):
    def ref(data):
        out = np.zeros((rows,) + data.shape[1:], data.dtype)
        for i, s in zip([0, 2, 1, 2], [0, 0, 2, 2]):
            out[s] += data[i]
        scale = {"Sum": 1.0, "Mean": 0.5, "SqrtN": 1 / np.sqrt(2.0)}[kind]
        out[[0, 2]] *= scale
        return out
    return ref


_SEGMENT_DATA = np.array([[1.5, -2.0], [0.25, 3.0], [4.0, -1.0]], np.float32)
for _kind, _fn in (("Sum", tf.sparse.segment_sum), ("Mean", tf.sparse.segment_mean),
                   ("SqrtN", tf.sparse.segment_sqrt_n)):
    SPECS += [
        OpSpec(f"SparseSegment{_kind}", _segment(_fn), [_SEGMENT_DATA], _segment_ref(_kind)),
        OpSpec(f"SparseSegment{_kind}WithNumSegments", _segment(_fn, 4), [_SEGMENT_DATA],
               _segment_ref(_kind, 4)),
    ]


def _sparse_dense_matmul(values, b):
    a = tf.SparseTensor([[0, 1], [1, 0], [1, 2]], values, [2, 3])
    return tf.sparse.sparse_dense_matmul(a, b)


SPECS += [
    OpSpec("SparseTensorDenseMatMul", _sparse_dense_matmul,
           [np.array([2.0, 3.0, -1.5], np.float32),
            np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)],
           lambda v, b: np.array([[0, v[0], 0], [v[1], 0, v[2]]], np.float32) @ b),
]


def _reorder(values):
    out = tf.sparse.reorder(tf.SparseTensor([[1, 0], [0, 2], [0, 1], [1, 0]], values, [2, 3]))
    return out.indices, out.values


SPECS += [
    OpSpec("SparseReorder", _reorder, [np.array([1.0, 2.0, 3.0, 4.0], np.float32)],
           lambda v: (np.array([[0, 1], [0, 2], [1, 0], [1, 0]]), v[[2, 1, 0, 3]])),
]


def _reshape(values):
    out = tf.sparse.reshape(tf.SparseTensor([[0, 1], [1, 2], [2, 0]], values, [3, 4]), [2, -1])
    return out.indices, out.values, out.dense_shape


SPECS += [
    OpSpec("SparseReshape", _reshape, [np.array([1.0, 2.0, 3.0], np.float32)],
           lambda v: (np.array([[0, 1], [1, 0], [1, 2]]), v, np.array([2, 6])),
           grad="its outputs are indices and a shape"),
]


def _fill_empty_rows(values, default):
    out, empty = tf.sparse.fill_empty_rows(
        tf.SparseTensor([[2, 1], [1, 1], [1, 0]], values, [4, 2]), default)
    return out.indices, out.values, empty


SPECS += [
    OpSpec("SparseFillEmptyRows", _fill_empty_rows,
           [np.array([1.0, 2.0, 3.0], np.float32), np.float32(9.0)],
           lambda v, d: (np.array([[0, 0], [1, 1], [1, 0], [2, 1], [3, 0]]),
                         np.array([d, v[1], v[2], v[0], d], np.float32),
                         np.array([True, False, False, True]))),
]


def _slice(values):
    st = tf.SparseTensor([[0, 1], [2, 3], [1, 0], [2, 1], [3, 3]], values, [4, 4])
    out = tf.sparse.slice(st, [1, 1], [2, 5])
    return out.indices, out.values, out.dense_shape


SPECS += [
    OpSpec("SparseSlice", _slice, [np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32)],
           lambda v: (np.array([[1, 2], [1, 0]]), v[[1, 3]], np.array([2, 3]))),
]


def _softmax(values):
    st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1]], values, [3, 3])
    return tf.sparse.softmax(st).values


def _softmax_ref(v):
    e = np.exp(v - np.array([v[1], v[1], v[2], v[4], v[4]]))
    return e / np.array([e[0] + e[1], e[0] + e[1], e[2], e[3] + e[4], e[3] + e[4]])


SPECS += [
    OpSpec("SparseSoftmax", _softmax, [np.array([1.0, 2.0, 3.0, -1.0, 0.5], np.float32)],
           _softmax_ref),
]


_A_AT = [[0, 1], [1, 0], [0, 0]]  # (not in row-major order: TF walks the entries as given)
_B_AT = [[0, 1], [1, 2]]


def _binary(fn, **kwargs):
    def run(a, b):
        out = fn(tf.SparseTensor(_A_AT, a, [2, 3]), tf.SparseTensor(_B_AT, b, [2, 3]), **kwargs)
        return out.indices, out.values
    return run


def _add_grad(g):
    return tf.raw_ops.SparseAddGrad(backprop_val_grad=g, a_indices=[[0, 1], [1, 0]],
                                    b_indices=_B_AT, sum_indices=[[0, 1], [1, 0], [1, 2]])


_MERGED = np.array([[0, 1], [1, 0], [0, 0], [1, 2]])


def _met(fn, a, b):
    # the merged entries: a[0] meets b[0], the others meet 0
    return fn(np.array([a[0], a[1], a[2], b[1]]), np.array([b[0], 0, 0, 0], a.dtype))
_NO_MIN_MAX_GRAD = "TF's gradient is not implemented"
SPECS += [
    OpSpec("SparseAdd", _binary(tf.sparse.add, threshold=0.5),
           [np.array([1.0, 2.0, 3.0], np.float32), np.array([-1.0, 5.0], np.float32)],
           lambda a, b: (_MERGED[1:], np.array([a[1], a[2], b[1]]))),
    OpSpec("SparseAddGrad", _add_grad, [np.array([10.0, 20.0, 30.0], np.float32)],
           lambda g: (g[:2], g[[0, 2]]), grad="TF declares none"),
    OpSpec("SparseSparseMaximum", _binary(tf.sparse.maximum),
           [np.array([1.0, 2.0, -3.0], np.float32), np.array([-1.0, 5.0], np.float32)],
           lambda a, b: (_MERGED, _met(np.maximum, a, b)),
           grad=_NO_MIN_MAX_GRAD),
    OpSpec("SparseSparseMinimum", _binary(tf.sparse.minimum),
           [np.array([1.0, 2.0, -3.0], np.float32), np.array([-1.0, 5.0], np.float32)],
           lambda a, b: (_MERGED, _met(np.minimum, a, b)),
           grad=_NO_MIN_MAX_GRAD),
]


_ST_AT = [[0, 1], [1, 2], [1, 0]]


def _cwise(fn):
    def run(values, dense):
        out = fn(tf.SparseTensor(_ST_AT, values, [2, 3]), dense)
        return out.values if isinstance(out, tf.SparseTensor) else out
    return run


def _met_dense(values, dense):
    # the dense operand broadcast to [2, 3], at each entry
    full = np.broadcast_to(dense, (2, 3))
    return np.array([full[0, 1], full[1, 2], full[1, 0]])


_ST_VALUES = np.array([2.0, -3.0, 0.5], np.float32)
SPECS += [
    OpSpec("SparseDenseCwiseAdd",
           _cwise(lambda st, d: tf.raw_ops.SparseDenseCwiseAdd(
               sp_indices=st.indices, sp_values=st.values, sp_shape=st.dense_shape, dense=d)),
           [_ST_VALUES, np.array([[1.5], [-2.0]], np.float32)],
           lambda v, d: v + _met_dense(v, d), grad="TF's gradient is not implemented"),
    OpSpec("SparseDenseCwiseMul", _cwise(lambda st, d: st * d),
           [_ST_VALUES, np.array([[1.5, 2.0, 0.5], [0.25, 3.0, -1.0]], np.float32)],
           lambda v, d: v * _met_dense(v, d)),
    OpSpec("SparseDenseCwiseMul", _cwise(lambda st, d: st * d),
           [_ST_VALUES, np.array([1.5, 2.0, -0.5], np.float32)],
           lambda v, d: v * _met_dense(v, d), name="SparseDenseCwiseMul-broadcast"),
    OpSpec("SparseDenseCwiseDiv", _cwise(lambda st, d: st / d),
           [_ST_VALUES, np.array([[1.5], [-2.0]], np.float32)],
           lambda v, d: v / _met_dense(v, d)),
]


def _concat(a, b):
    out = tf.sparse.concat(1, [tf.SparseTensor([[1, 0], [0, 2], [1, 0]], a, [2, 3]),
                               tf.SparseTensor([[0, 0]], b, [2, 1])])
    return out.indices, out.values, out.dense_shape


SPECS += [
    OpSpec("SparseConcat", _concat,
           [np.array([1.0, 2.0, 3.0], np.float32), np.array([4.0], np.float32)],
           lambda a, b: (np.array([[0, 2], [0, 3], [1, 0], [1, 0]]),
                         np.array([a[1], b[0], a[0], a[2]]), np.array([2, 4])),
           grad="TF declares none"),
]


SPECS += [
    OpSpec("SparseTensorDenseAdd",
           lambda v, d: tf.sparse.add(tf.SparseTensor([[0, 1], [0, 1], [1, 2]], v, [2, 3]), d),
           [np.array([1.0, 2.0, 3.0], np.float32), np.ones((2, 3), np.float32)],
           lambda v, d: d + np.array([[0, v[0] + v[1], 0], [0, 0, v[2]]], np.float32)),
]
