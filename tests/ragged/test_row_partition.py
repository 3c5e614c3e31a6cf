"""tf.experimental.RowPartition: its factories, encodings, static facts and errors, and a
RaggedTensor's outer partition (TF 2.21's values)."""
import numpy as np
import pytest

import eagerflow as tf

RP = tf.experimental.RowPartition


def _values(t):
    return t.numpy().tolist()


def test_from_row_splits_encodings():
    p = RP.from_row_splits([0, 2, 2, 5])
    assert repr(p) == "tf.RowPartition(row_splits=[0 2 2 5])"
    assert p.dtype == tf.int64 and p.row_splits().dtype == tf.int64
    assert _values(p.row_lengths()) == [2, 0, 3]
    assert _values(p.value_rowids()) == [0, 0, 2, 2, 2]
    assert _values(p.nrows()) == 3 and _values(p.nvals()) == 5
    assert _values(p.row_starts()) == [0, 2, 2] and _values(p.row_limits()) == [2, 2, 5]
    assert p.uniform_row_length() is None and not p.is_uniform()
    assert _values(p.offsets_in_rows()) == [0, 1, 0, 1, 2]
    assert (p.static_nrows, p.static_nvals, p.static_uniform_row_length) == (3, None, None)
    assert [p._has_precomputed_row_splits(), p._has_precomputed_row_lengths(),
            p._has_precomputed_value_rowids(), p._has_precomputed_nrows(),
            p._has_precomputed_nvals()] == [True, False, False, False, False]


def test_other_factories():
    q = RP.from_row_lengths([2, 0, 3])
    assert _values(q.row_splits()) == [0, 2, 2, 5]
    assert (q._has_precomputed_row_lengths(), q._has_precomputed_value_rowids(),
            q._has_precomputed_nrows(), q._has_precomputed_nvals()) == (True, False, False,
                                                                         False)
    r = RP.from_value_rowids([0, 0, 2, 2, 2], nrows=4)
    assert repr(r) == "tf.RowPartition(row_splits=[0 2 2 5 5])" and _values(r.nrows()) == 4
    assert r.static_nvals == 5
    r2 = RP.from_value_rowids(tf.constant([0, 0, 2], tf.int32))
    assert r2.dtype == tf.int32 and _values(r2.row_splits()) == [0, 2, 2, 3]
    assert r2.nrows().dtype == tf.int32 and _values(r2.nrows()) == 3
    u = RP.from_uniform_row_length(3, nvals=9)
    assert repr(u) == "tf.RowPartition(nrows=3, uniform_row_length=3)"
    assert _values(u.row_splits()) == [0, 3, 6, 9] and u.is_uniform()
    assert u.static_nrows == 3 and _values(u.uniform_row_length()) == 3
    assert _values(RP.from_row_starts([0, 2, 2], nvals=5).row_splits()) == [0, 2, 2, 5]
    assert _values(RP.from_row_limits([2, 2, 5]).row_splits()) == [0, 2, 2, 5]


def test_dtypes():
    assert RP.from_row_splits([0, 2], dtype=tf.int32).row_splits().dtype == tf.int32
    assert RP.from_row_splits([0, 2], dtype_hint=tf.int32).row_splits().dtype == tf.int32
    assert RP.from_row_lengths([1, 2]).dtype == tf.int64
    assert RP.from_row_lengths(tf.constant([1, 2])).dtype == tf.int32
    cast = RP.from_row_splits([0, 2, 2, 5]).with_dtype(tf.int32)
    assert cast.row_splits().dtype == tf.int32 and _values(cast.row_splits()) == [0, 2, 2, 5]


@pytest.mark.parametrize("make, error, message", [
    (lambda: RP.from_row_splits([0, 3, 2]), tf.errors.InvalidArgumentError,
     "Arguments to from_row_splits do not form a valid RaggedTensor:monotonic"),
    (lambda: RP.from_row_splits([1, 3]), tf.errors.InvalidArgumentError,
     "Arguments to from_row_splits do not form a valid RaggedTensor:zero"),
    (lambda: RP.from_row_lengths([2, -1]), tf.errors.InvalidArgumentError,
     "Arguments to from_row_lengths do not form a valid RowPartition"),
    (lambda: RP.from_value_rowids([1, 0]), tf.errors.InvalidArgumentError,
     "Arguments to from_value_rowids do not form a valid RowPartition"),
    (lambda: RP.from_row_splits([[0, 1]]), ValueError, r"Shape \(1, 2\) must have rank 1"),
    (lambda: RP.from_row_splits([0.0, 1.0]), ValueError,
     "row_splits must have dtype int32 or int64"),
])
def test_errors(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_ragged_tensor_partition():
    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    p = rt._row_partition
    assert repr(p) == "tf.RowPartition(row_splits=[0 2 2 5])"
    assert p.row_splits() is rt.row_splits
    back = tf.RaggedTensor._from_row_partition([1, 2, 3, 4, 5],
                                               RP.from_row_splits([0, 2, 2, 5]))
    assert back.to_list() == [[1, 2], [], [3, 4, 5]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Arguments to _from_row_partition do not form a valid "
                             "RaggedTensor"):
        tf.RaggedTensor._from_row_partition([1, 2, 3], RP.from_row_splits([0, 2, 2, 5]))


def test_in_function():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def f(s):
        rp = RP.from_row_splits(s)
        assert rp.static_nrows is None and rp.row_lengths().shape.as_list() == [None]
        return rp.row_lengths(), rp.nvals(), rp.value_rowids()
    lengths, nvals, rowids = f(tf.constant([0, 1, 4], tf.int64))
    assert _values(lengths) == [1, 3] and _values(nvals) == 4
    np.testing.assert_array_equal(rowids, [0, 1, 1, 1])
