"""The sparse and segment ops of `tf.raw_ops` (SparseSegment*), against TF 2.21's values and
errors (run beside these tests), beyond the samples of tests/compat/test_raw_ops.py."""
import numpy as np
import pytest

import eagerflow as tf

_DATA = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])


def test_sparse_segment_ops_half_and_bfloat16_accumulate_in_float32():
    # TF sums half/bfloat16 rows in float32 and rounds once: a mean of two largest halves
    # is finite, and sums of small values keep their digits
    big = tf.constant([65504.0, 65504.0], tf.float16)
    assert tf.raw_ops.SparseSegmentMean(data=big, indices=[0, 1],
                                        segment_ids=[0, 0]).numpy().tolist() == [65504.0]
    x = tf.constant([0.1, 0.2, 0.3, 1000.0, 0.7, 3.0], tf.float16)
    ids, segments = [0, 1, 2, 3, 4, 5, 0], [0, 0, 0, 1, 1, 1, 1]
    assert tf.sparse.segment_sum(x, ids, segments).numpy().tolist() == [0.60009765625, 1004.0]
    assert tf.sparse.segment_mean(x, ids, segments).numpy().tolist() == [0.199951171875, 251.0]
    assert tf.sparse.segment_sqrt_n(x, ids, segments).numpy().tolist() == [
        0.346435546875, 502.0]
    b = tf.cast(tf.cast(x, tf.float32), tf.bfloat16)
    assert tf.sparse.segment_mean(b, ids, segments).numpy().astype(float).tolist() == [
        0.2001953125, 251.0]


def test_sparse_segment_raw_op_sparse_gradient_is_indexed_slices():
    with tf.GradientTape() as tape:
        tape.watch(_DATA)
        y = tf.raw_ops.SparseSegmentMean(data=_DATA, indices=[2, 0, 2], segment_ids=[0, 0, 1],
                                         sparse_gradient=True)
    g = tape.gradient(y, _DATA)
    assert isinstance(g, tf.IndexedSlices)
    assert g.indices.numpy().tolist() == [0, 2]
    assert g.values.numpy().tolist() == [[0.5, 0.5], [1.5, 1.5]]
    v = tf.Variable(_DATA)
    with tf.GradientTape() as tape:
        y = tf.raw_ops.SparseSegmentSum(data=v, indices=[2, 2], segment_ids=[0, 0])
    assert tape.gradient(y, v).numpy().tolist() == [[0, 0], [0, 0], [2, 2]]


def test_sparse_segment_raw_op_in_a_function_with_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None], tf.int64),
                                  tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)])
    def f(d, i, s, n):
        return tf.raw_ops.SparseSegmentSqrtNWithNumSegments(data=d, indices=i, segment_ids=s,
                                                            num_segments=n)
    got = f(_DATA, tf.constant([0, 1, 2], tf.int64), tf.constant([0, 1, 1]), tf.constant(3))
    np.testing.assert_allclose(got.numpy(), [[1, 2], [8 / 2 ** 0.5, 10 / 2 ** 0.5], [0, 0]],
                               rtol=1e-6)


@pytest.mark.parametrize("kwargs, message", [
    (dict(indices=[5], segment_ids=[0]), r"Bad: indices\[0\] == 5 out of range \[0, 3\)"),
    (dict(indices=[0, 1], segment_ids=[1, 0]), "segment ids are not increasing"),
    (dict(indices=[0], segment_ids=[0, 1]), "segment_ids and indices should have same size"),
    (dict(indices=[[0]], segment_ids=[0]), "indices should be a vector"),
    (dict(indices=[0], segment_ids=[-1]), "segment ids must be >= 0"),
    (dict(indices=[0, 1], segment_ids=[-1, 0]),
     r"Segment id -1 out of range \[0, 1\), possibly because 'segment_ids' input is not "),
])
def test_sparse_segment_raw_op_errors_are_tfs(kwargs, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.raw_ops.SparseSegmentSum(data=_DATA, **kwargs)


def test_sparse_segment_with_num_segments_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="segment ids must be < num_segments"):
        tf.raw_ops.SparseSegmentMeanWithNumSegments(data=_DATA, indices=[0, 1],
                                                    segment_ids=[0, 3], num_segments=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.raw_ops.SparseSegmentMean(data=tf.constant([1, 2]), indices=[0], segment_ids=[0])
