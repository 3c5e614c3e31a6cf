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


_A_INDICES = tf.constant([[0, 1], [1, 0], [1, 2]], tf.int64)
_A_VALUES = tf.constant([2.0, 3.0, -1.5])


@pytest.mark.parametrize("adjoint_a, adjoint_b", [(False, False), (False, True), (True, False),
                                                  (True, True)])
def test_sparse_tensor_dense_mat_mul_raw_op_values_and_gradients_are_tfs(adjoint_a, adjoint_b):
    indices = tf.reverse(_A_INDICES, [1]) if adjoint_a else _A_INDICES
    b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    b = tf.transpose(b) if adjoint_b else b
    with tf.GradientTape() as tape:
        tape.watch([_A_VALUES, b])
        y = tf.raw_ops.SparseTensorDenseMatMul(
            a_indices=indices, a_values=_A_VALUES, a_shape=[3, 2] if adjoint_a else [2, 3],
            b=b, adjoint_a=adjoint_a, adjoint_b=adjoint_b)
    assert y.numpy().tolist() == [[6.0, 8.0], [-4.5, -3.0]]
    dv, db = tape.gradient(y, [_A_VALUES, b], tf.constant([[0.0, 1.0], [2.0, 3.0]]))
    assert dv.numpy().tolist() == [4.0, 8.0, 28.0]
    want = [[6.0, 9.0], [0.0, 2.0], [-3.0, -4.5]]
    assert db.numpy().tolist() == (np.transpose(want).tolist() if adjoint_b else want)


def test_sparse_tensor_dense_mat_mul_complex_adjoint_gradients_are_tfs():
    a = tf.SparseTensor([[0, 1], [1, 0], [1, 1]],
                        tf.constant([2 + 1j, 3 - 2j, -1.5 + 0.5j], tf.complex64), [2, 2])
    b = tf.constant([[1 + 1j, 2], [3j, 4 - 1j]], tf.complex64)
    with tf.GradientTape() as tape:
        tape.watch([a.values, b])
        y = tf.sparse.sparse_dense_matmul(a, b, adjoint_a=True, adjoint_b=True)
        loss = tf.reduce_sum(tf.abs(y * tf.constant([[1, 2j], [3, 1 - 1j]], tf.complex64)))
    assert y.numpy().tolist() == [[6 + 4j, 10 + 11j], [-2 - 4j, -8.5 - 9.5j]]
    dv, db = tape.gradient(loss, [a.values, b])
    np.testing.assert_allclose(dv.numpy(), [4.5034 + 6.8539j, 8.5254 - 5.6836j,
                                            -7.5092 + 8.6393j], atol=1e-4)
    np.testing.assert_allclose(db.numpy(), [[6.7082j, 6.9597 - 3.3541j],
                                            [-0.8321 + 3.0509j, 8.9372 - 2.8583j]], atol=1e-4)


def test_sparse_tensor_dense_mat_mul_raw_op_in_a_function_with_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.int64), tf.TensorSpec([None]),
                                  tf.TensorSpec([2], tf.int64), tf.TensorSpec([None, None])])
    def f(i, v, s, b):
        return tf.raw_ops.SparseTensorDenseMatMul(a_indices=i, a_values=v, a_shape=s, b=b)
    got = f(_A_INDICES, _A_VALUES, tf.constant([2, 3], tf.int64), tf.ones([3, 1]))
    assert got.numpy().tolist() == [[2.0], [1.5]]


@pytest.mark.parametrize("kwargs, message", [
    (dict(a_indices=[[0, 5]], b=tf.ones([3, 1])), r"k \(5\) from index\[0,1\] out of bounds"),
    (dict(a_indices=[[3, 1]], b=tf.ones([3, 1])), r"m \(3\) from index\[0,0\] out of bounds"),
    (dict(a_indices=[[0, 1]], b=tf.ones([4, 1])),
     r"inner dimension does not match: 3 vs. 4.  Did you forget a transpose\?  Dimensions of "
     r"A: \[2, 3\).  Dimensions of B: \[4,1\]"),
])
def test_sparse_tensor_dense_mat_mul_raw_op_errors_are_tfs(kwargs, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.raw_ops.SparseTensorDenseMatMul(a_values=[1.0], a_shape=[2, 3], **kwargs)


def test_sparse_dense_matmul_adjoint_a_error_names_a_as_given():
    st = tf.sparse.from_dense(tf.constant([[0.0, 2.0], [3.0, 0.0], [0.0, 0.0]]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"does not match: 3 vs. 2.*Dimensions of A: \[3, 2\)"):
        tf.sparse.sparse_dense_matmul(st, tf.ones([2, 1]), adjoint_a=True)


def test_sparse_reorder_raw_op_sorts_by_index_and_its_gradient_goes_back():
    values = tf.constant([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        out = tf.raw_ops.SparseReorder(
            input_indices=tf.constant([[1, 0], [0, 2], [0, 1], [1, 0]], tf.int64),
            input_values=values, input_shape=[2, 3])
    assert out.output_indices.numpy().tolist() == [[0, 1], [0, 2], [1, 0], [1, 0]]
    assert out.output_values.numpy().tolist() == [3.0, 2.0, 1.0, 4.0]
    grad = tape.gradient(out.output_values, values, tf.constant([10.0, 20.0, 30.0, 40.0]))
    assert grad.numpy().tolist() == [30.0, 20.0, 10.0, 40.0]
    # (indices outside the shape are sorted as they are, not checked, as TF's)
    far = tf.raw_ops.SparseReorder(input_indices=[[5, 0], [0, 7]], input_values=[1.0, 2.0],
                                   input_shape=[2, 3])
    assert far.output_indices.numpy().tolist() == [[0, 7], [5, 0]]
    assert far.output_indices.dtype == tf.int64


@pytest.mark.parametrize("kwargs, message", [
    (dict(input_indices=[[0, 0]], input_values=[1.0, 2.0], input_shape=[2, 3]),
     r"Number of elements in indices \(1\) and values \(2\) do not match"),
    (dict(input_indices=[[0, 0]], input_values=[1.0], input_shape=[2, 3, 4]),
     r"Index rank \(2\) and shape rank \(3\) do not match"),
])
def test_sparse_reorder_raw_op_errors_are_tfs(kwargs, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.raw_ops.SparseReorder(**kwargs)


def test_sparse_reshape_raw_op_values_and_errors_are_tfs():
    indices = tf.constant([[0, 1], [1, 2], [2, 0]], tf.int64)
    out = tf.raw_ops.SparseReshape(input_indices=indices, input_shape=[3, 4], new_shape=[12])
    assert out.output_indices.numpy().tolist() == [[1], [6], [8]]
    assert out.output_shape.numpy().tolist() == [12]
    empty = tf.raw_ops.SparseReshape(input_indices=tf.zeros([0, 2], tf.int64),
                                     input_shape=[0, 4], new_shape=[-1, 2])
    assert empty.output_shape.numpy().tolist() == [0, 2]
    for kwargs, message in [
            (dict(new_shape=[5, -1]), r"requires a multiple of 5. input_shape=\[3,4\] "
                                      r"output_shape=\[5,1\]"),
            (dict(new_shape=[-1, -1]), "only one output dimension may be -1, not both 0 and 1"),
            (dict(new_shape=[[2, 6]]), r"Target shape should be a vector but received shape "
                                       r"\[1,2\]"),
            (dict(input_shape=[3, 4, 1], new_shape=[12]),
             "Input tensor rank must match input shape length.")]:
        kwargs = dict(dict(input_indices=indices, input_shape=[3, 4]), **kwargs)
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.raw_ops.SparseReshape(**kwargs)


def test_sparse_reshape_in_a_function_with_unknown_shapes():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int64),
                                  tf.TensorSpec([None], tf.int64), tf.TensorSpec([2], tf.int64)])
    def f(i, s, n):
        out = tf.raw_ops.SparseReshape(input_indices=i, input_shape=s, new_shape=n)
        assert out.output_indices.shape.as_list() == [None, 2]
        return out
    out = f(tf.constant([[0, 1], [1, 2], [2, 0]], tf.int64), tf.constant([3, 4], tf.int64),
            tf.constant([6, -1], tf.int64))
    assert out.output_indices.numpy().tolist() == [[0, 1], [3, 0], [4, 0]]
    assert out.output_shape.numpy().tolist() == [6, 2]

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def g(shape):
        st = tf.sparse.reshape(tf.SparseTensor([[0, 1], [1, 2]], [1.0, 2.0], [2, 3]), shape)
        return tf.sparse.to_dense(st)
    assert g(tf.constant([3, -1], tf.int64)).numpy().tolist() == [[0, 1], [0, 0], [0, 2]]


def test_fill_empty_rows_keeps_each_rows_entries_in_the_order_given():
    # TF's kernel groups the entries by row without sorting a row's (it sorted them)
    st = tf.SparseTensor([[2, 1], [1, 1], [1, 0]], [1.0, 2.0, 3.0], [3, 2])
    out, empty = tf.sparse.fill_empty_rows(st, 9.0)
    assert out.indices.numpy().tolist() == [[0, 0], [1, 1], [1, 0], [2, 1]]
    assert out.values.numpy().tolist() == [9.0, 2.0, 3.0, 1.0]
    assert empty.numpy().tolist() == [True, False, False]


def test_sparse_fill_empty_rows_raw_op_values_gradients_and_errors_are_tfs():
    values, default = tf.constant([1.0, 2.0, 3.0]), tf.constant(-1.0)
    with tf.GradientTape() as tape:
        tape.watch([values, default])
        out = tf.raw_ops.SparseFillEmptyRows(
            indices=tf.constant([[1, 0], [3, 2], [1, 1]], tf.int64), values=values,
            dense_shape=[5, 3], default_value=default)
    assert out.output_indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [2, 0], [3, 2],
                                                   [4, 0]]
    assert out.output_values.numpy().tolist() == [-1.0, 1.0, 3.0, -1.0, 2.0, -1.0]
    assert out.empty_row_indicator.numpy().tolist() == [True, False, True, False, True]
    assert out.reverse_index_map.numpy().tolist() == [1, 4, 2]
    dv, dd = tape.gradient(out.output_values, [values, default],
                           tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
    assert dv.numpy().tolist() == [2.0, 5.0, 3.0] and dd.numpy() == 11.0
    for kwargs, message in [
            (dict(indices=[[7, 0]], values=[1.0]), r"indices\(0, 0\) is invalid: 7 >= 5"),
            (dict(indices=[[0, 0]], values=[1.0, 2.0]),
             r"The length of `values` \(2\) must match the first dimension of `indices` \(1\)"),
            (dict(indices=[[0, 0]], values=[1.0], default_value=[0.0]),
             r"default_value must be a scalar, saw: \[1\]")]:
        kwargs = dict(dict(dense_shape=[5, 3], default_value=0.0), **kwargs)
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.raw_ops.SparseFillEmptyRows(**kwargs)


def test_sparse_slice_raw_op_values_gradient_and_errors_are_tfs():
    indices = tf.constant([[0, 1], [2, 3], [1, 0], [2, 1], [3, 3]], tf.int64)
    values = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        out = tf.raw_ops.SparseSlice(indices=indices, values=values, shape=[4, 4],
                                     start=[1, 1], size=[2, 5])
    assert out.output_indices.numpy().tolist() == [[1, 2], [1, 0]]
    assert out.output_values.numpy().tolist() == [2.0, 4.0]
    assert out.output_shape.numpy().tolist() == [2, 3]
    grad = tape.gradient(out.output_values, values, tf.constant([10.0, 20.0]))
    assert grad.numpy().tolist() == [0.0, 10.0, 0.0, 20.0, 0.0]
    # a start before the shape counts from there; past it, the box is empty
    before = tf.raw_ops.SparseSlice(indices=indices, values=values, shape=[4, 4],
                                    start=[-1, 0], size=[2, 2])
    assert before.output_indices.numpy().tolist() == [[1, 1]]
    assert before.output_shape.numpy().tolist() == [2, 2]
    past = tf.raw_ops.SparseSlice(indices=indices, values=values, shape=[4, 4], start=[5, 0],
                                  size=[2, 2])
    assert past.output_shape.numpy().tolist() == [0, 2]
    for kwargs, message in [
            (dict(start=[1], size=[2, 2]), "Expected start to be a vector of length 2 but got "
                                           "length 1"),
            (dict(start=[0, 0], size=[-1, 2]), "Expected a non-negative size, got -1")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.raw_ops.SparseSlice(indices=indices, values=values, shape=[4, 4], **kwargs)


def test_sparse_softmax_raw_op_values_gradient_and_errors_are_tfs():
    indices = tf.constant([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1]], tf.int64)
    values = tf.constant([1.0, 2.0, 3.0, -1.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch(values)
        out = tf.raw_ops.SparseSoftmax(sp_indices=indices, sp_values=values, sp_shape=[3, 3])
    np.testing.assert_allclose(out.numpy(), [0.26894143, 0.7310586, 1.0, 0.18242551, 0.81757444],
                               rtol=1e-6)
    np.testing.assert_allclose(
        tape.gradient(out, values, tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])).numpy(),
        [-0.19661194, 0.19661193, 0.0, -0.14914636, 0.14914681], rtol=1e-5, atol=1e-7)
    # entries out of order: the values come in row-major order, as TF's
    shuffled = tf.raw_ops.SparseSoftmax(
        sp_indices=tf.constant([[2, 0], [0, 2], [2, 1], [0, 0]], tf.int64),
        sp_values=[1.0, 2.0, 3.0, 4.0], sp_shape=[3, 3])
    np.testing.assert_allclose(shuffled.numpy(), [0.880797, 0.119203, 0.119203, 0.880797],
                               rtol=1e-5)
    for kwargs, message in [
            (dict(sp_indices=[[0]], sp_values=[1.0], sp_shape=[3]),
             "Input should have rank >= 2, but received shape: 3"),
            (dict(sp_indices=[[0, 0]], sp_values=[1.0, 2.0], sp_shape=[3, 3]),
             r"indices and values rows \(indexing dimension\) must match. \(indices = 1, "
             r"values = 2\)")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.raw_ops.SparseSoftmax(**kwargs)


_A = dict(a_indices=tf.constant([[0, 1], [1, 0], [0, 0]], tf.int64),
          a_values=tf.constant([1.0, 2.0, 3.0]), a_shape=[2, 3])
_B = dict(b_indices=tf.constant([[0, 1], [1, 2]], tf.int64), b_values=tf.constant([-1.0, 5.0]),
          b_shape=[2, 3])


def test_sparse_add_raw_op_walks_the_entries_as_given_with_tfs_errors():
    out = tf.raw_ops.SparseAdd(**_A, **_B, thresh=0.5)
    assert out.sum_indices.numpy().tolist() == [[1, 0], [0, 0], [1, 2]]
    assert out.sum_values.numpy().tolist() == [2.0, 3.0, 5.0]
    assert out.sum_shape.numpy().tolist() == [2, 3]
    # repeated entries: each meets the other list's entries once, in turn
    twice = tf.raw_ops.SparseAdd(a_indices=[[0, 1], [0, 1]], a_values=[1.0, 2.0], a_shape=[2, 3],
                                 **{**_B, "b_values": tf.constant([3.0, 4.0])}, thresh=0.0)
    assert twice.sum_indices.numpy().tolist() == [[0, 1], [0, 1], [1, 2]]
    assert twice.sum_values.numpy().tolist() == [4.0, 2.0, 4.0]
    # only sums face the threshold; integers too
    ints = tf.raw_ops.SparseAdd(a_indices=_B["b_indices"], a_values=[1, 2], a_shape=[2, 3],
                                b_indices=_B["b_indices"], b_values=[3, -2], b_shape=[2, 3],
                                thresh=1)
    assert ints.sum_indices.numpy().tolist() == [[0, 1]] and ints.sum_values.numpy().tolist() == [4]
    grads = tf.raw_ops.SparseAddGrad(backprop_val_grad=[10.0, 20.0, 30.0],
                                     a_indices=[[0, 1], [1, 0]], b_indices=_B["b_indices"],
                                     sum_indices=[[0, 1], [1, 0], [1, 2]])
    assert grads.a_val_grad.numpy().tolist() == [10.0, 20.0]
    assert grads.b_val_grad.numpy().tolist() == [10.0, 30.0]
    for kwargs, message in [
            (dict(_A, **_B, thresh=[0.0]), r"The magnitude threshold must be a scalar: got shape "
                                           r"\[1\]"),
            (dict(_A, **{**_B, "b_shape": [2, 4]}, thresh=0.0),
             "Operands' shapes do not match: got 3 and 4 for dimension 1"),
            (dict(_A, **{**_B, "b_shape": [2, 3, 4]}, thresh=0.0),
             "Operands do not have the same ranks; got shapes: 2 3 and 2 3 4"),
            (dict(_A, b_indices=[[0]], b_values=[1.0], b_shape=[3], thresh=0.0),
             "Input indices must have the same dimension, got 2 and 1"),
            (dict({**_A, "a_values": tf.constant([1.0, 2.0])}, **_B, thresh=0.0),
             "Expected 3 and 2 non-empty input values, got 2 and 2"),
            (dict({**_A, "a_indices": [0, 1]}, **_B, thresh=0.0),
             r"Input indices should be matrices but received shapes: \[2\] and \[2,2\]")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.raw_ops.SparseAdd(**kwargs)


def test_sparse_add_in_a_function_merges_as_tf_does():
    # traced, entries out of order are walked as given too (they were sorted and summed)
    @tf.function
    def add(a_indices, a_values, b_indices, b_values):
        return tf.sparse.add(tf.SparseTensor(a_indices, a_values, [2, 3]),
                             tf.SparseTensor(b_indices, b_values, [2, 3]), 0.5)
    out = add(tf.constant([[1, 0], [0, 0]], tf.int64), tf.constant([1.0, 2.0]),
              _B["b_indices"], _B["b_values"])
    assert out.indices.numpy().tolist() == [[0, 1], [1, 0], [0, 0], [1, 2]]
    assert out.values.numpy().tolist() == [-1.0, 1.0, 2.0, 5.0]
    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        total = tf.sparse.add(tf.SparseTensor(_B["b_indices"], a, [2, 3]),
                              tf.SparseTensor([[0, 1], [1, 1]], b, [2, 3]))
        loss = tf.reduce_sum(total.values * [1.0, 2.0, 3.0])
    assert [g.numpy().tolist() for g in tape.gradient(loss, [a, b])] == [[1.0, 3.0], [1.0, 2.0]]


def test_sparse_maximum_and_minimum_raw_ops_are_tfs():
    out = tf.raw_ops.SparseSparseMinimum(
        a_indices=_B["b_indices"], a_values=_B["b_values"], a_shape=[2, 3],
        b_indices=_A["a_indices"], b_values=_A["a_values"], b_shape=[2, 3])
    assert out.output_indices.numpy().tolist() == [[0, 1], [1, 0], [0, 0], [1, 2]]
    assert out.output_values.numpy().tolist() == [-1.0, 0.0, 0.0, 0.0]
    nan = tf.raw_ops.SparseSparseMaximum(
        a_indices=_B["b_indices"], a_values=[float("nan"), -2.0], a_shape=[2, 3],
        b_indices=[[0, 1]], b_values=[3.0], b_shape=[2, 3]).output_values.numpy()
    assert np.isnan(nan[0]) and nan[1] == 0.0
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Operands do not have the same ranks; got shapes: 2 3 and 2"):
        tf.raw_ops.SparseSparseMaximum(**_A, b_indices=[[1]], b_values=[1.0], b_shape=[2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Number of elements in indices \(2\) and values \(1\) do not match"):
        tf.raw_ops.SparseSparseMaximum(**_A, **{**_B, "b_values": [1.0]})
    values = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        out = tf.raw_ops.SparseSparseMaximum(**{**_A, "a_values": values}, **_B)
    with pytest.raises(NotImplementedError, match="SparseSparseMaximum"):
        tape.gradient(out.output_values, values)


def test_sparse_dense_cwise_raw_ops_broadcast_the_dense_operand_with_tfs_errors():
    st = tf.SparseTensor([[0, 1], [1, 2]], [2.0, -3.0], [2, 3])
    parts = dict(sp_indices=st.indices, sp_values=st.values, sp_shape=st.dense_shape)
    assert tf.raw_ops.SparseDenseCwiseAdd(**parts, dense=[[2.0], [4.0]]).numpy().tolist() == [
        4.0, 1.0]
    assert tf.raw_ops.SparseDenseCwiseMul(**parts, dense=3.0).numpy().tolist() == [6.0, -9.0]
    # the raw op divides integers rounding toward zero; `/` casts them to floats first, as
    # tf.truediv (int16 and smaller to float32)
    ints = tf.SparseTensor([[0, 1], [1, 2]], [7, -7], [2, 3])
    assert tf.raw_ops.SparseDenseCwiseDiv(
        sp_indices=ints.indices, sp_values=ints.values, sp_shape=ints.dense_shape,
        dense=[[2, 2, 2], [2, 2, 2]]).numpy().tolist() == [3, -3]
    quotient = ints / tf.constant([[2, 2, 2], [2, 2, 2]])
    assert quotient.dtype == tf.float64 and quotient.values.numpy().tolist() == [3.5, -3.5]
    assert (tf.SparseTensor([[0]], tf.constant([7], tf.int16), [2]) / 2).dtype == tf.float32
    # `dense * st` is st's entries times the dense elements, a SparseTensor, as TF's
    product = tf.constant([[1.0, 2.0, 4.0], [0.5, 8.0, 3.0]]) * st
    assert isinstance(product, tf.SparseTensor)
    assert product.values.numpy().tolist() == [4.0, -9.0]
    for dense, message in [
            ([[1.0, 2.0]], r"broadcasts dense to sparse only; got incompatible shapes: "
                           r"\[2,3\] vs. \[1,2\]"),
            (tf.ones([1, 2, 3]), r"incompatible shapes: \[2,3\] vs. \[1,2,3\]"),
            ([[1.0, 0.0, 1.0], [1.0, 1.0, 0.0]], "cannot divide by zero")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            st / dense
    with pytest.raises(tf.errors.InvalidArgumentError, match="out-of-bounds w.r.t. dense side"):
        tf.raw_ops.SparseDenseCwiseMul(sp_indices=[[5, 1]], sp_values=[1.0], sp_shape=[2, 3],
                                       dense=[[1.0, 2.0, 3.0]])
    dense = tf.Variable([[2.0], [4.0]])
    with tf.GradientTape() as tape:
        out = st / dense
    assert tape.gradient(out.values, dense).numpy().tolist() == [[-0.5], [0.1875]]
    with tf.GradientTape() as tape:
        out = tf.raw_ops.SparseDenseCwiseAdd(**parts, dense=dense)
    with pytest.raises(NotImplementedError, match="SparseDenseCwiseAdd"):
        tape.gradient(out, dense)


def test_sparse_concat_raw_op_orders_the_entries_as_tf_with_tfs_errors():
    out = tf.raw_ops.SparseConcat(indices=[[[5, 0]], [[0, 0]]], values=[[1.0], [2.0]],
                                  shapes=[[2, 1], [2, 1]], concat_dim=0)
    assert out.output_indices.numpy().tolist() == [[2, 0], [5, 0]]
    assert out.output_values.numpy().tolist() == [2.0, 1.0]
    assert out.output_shape.numpy().tolist() == [4, 1]
    words = tf.raw_ops.SparseConcat(indices=[[[0, 0]], [[0, 0]]], values=[["a"], ["b"]],
                                    shapes=[[1, 1], [1, 1]], concat_dim=-1)
    assert words.output_values.numpy().tolist() == [b"a", b"b"]
    for kwargs, message in [
            (dict(indices=[[[0, 0]], [[0]]], values=[[1.0], [2.0]], shapes=[[2, 1], [2]],
                  concat_dim=0),
             "Ranks of all input tensors must match: expected 2 but got 1 at position 1"),
            (dict(indices=[[[0, 0]], [[0, 0]]], values=[[1.0], [2.0]], shapes=[[2, 1], [2, 1]],
                  concat_dim=2), r"Concat dimension must be in range \[-2, 2\), got 2"),
            (dict(indices=[[[0, 0]], [[0, 0]]], values=[[1.0], [2.0]], shapes=[[2, 1], [3, 1]],
                  concat_dim=1),
             "Input shapes must match: expected 2 for dimension 0 but got 3 at position 1"),
            (dict(indices=[[[0, 0]], [[0, 0]]], values=[[1.0, 2.0], [2.0]],
                  shapes=[[2, 1], [2, 1]], concat_dim=0),
             r"indices and values rows \(indexing dimension\) must match. \(indices = 1, "
             r"values = 2\)")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.raw_ops.SparseConcat(**kwargs)
    values = tf.constant([1.0])
    with tf.GradientTape() as tape:
        tape.watch(values)
        out = tf.raw_ops.SparseConcat(indices=[[[0, 0]], [[0, 0]]], values=[values, values],
                                      shapes=[[1, 1], [1, 1]], concat_dim=0)
    assert tape.gradient(out.output_values, values) is None


def test_sparse_concat_expands_and_keeps_static_shapes_as_tf():
    a = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
    b = tf.SparseTensor([[0, 0]], [2.0], [3, 1])
    wide = tf.sparse.concat(1, [a, b], expand_nonconcat_dims=True)
    assert wide.indices.numpy().tolist() == [[0, 0], [0, 2]]
    assert wide.dense_shape.numpy().tolist() == [3, 3]
    assert tf.sparse.concat(1, [a]) is a

    @tf.function(input_signature=[tf.SparseTensorSpec([None, None], tf.float32)])
    def join(x):
        out = tf.sparse.concat(1, [x, a], expand_nonconcat_dims=True)
        assert out.shape.as_list() == [None, None]
        return out
    assert join(b).dense_shape.numpy().tolist() == [3, 3]


def test_deserialize_sparse_raw_op_stacks_a_batch_of_any_rank_as_tf():
    a = tf.io.serialize_sparse(tf.SparseTensor([[1, 0], [0, 2]], [1.0, 2.0], [2, 3]))
    b = tf.io.serialize_sparse(tf.SparseTensor([[0, 0]], [3.0], [1, 4]))
    one = tf.raw_ops.DeserializeSparse(serialized_sparse=a, dtype=tf.float32)
    assert one.sparse_indices.numpy().tolist() == [[1, 0], [0, 2]]
    assert one.sparse_shape.numpy().tolist() == [2, 3]
    grid = tf.raw_ops.DeserializeSparse(serialized_sparse=tf.reshape(tf.stack([a, b, b, a]),
                                                                     [2, 2, 3]),
                                        dtype=tf.float32)
    assert grid.sparse_indices.numpy().tolist() == [
        [0, 0, 1, 0], [0, 0, 0, 2], [0, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 0], [1, 1, 0, 2]]
    assert grid.sparse_values.numpy().tolist() == [1.0, 2.0, 3.0, 3.0, 1.0, 2.0]
    assert grid.sparse_shape.numpy().tolist() == [2, 2, 2, 4]
    for serialized, dtype, message in [
            ("a", tf.float32, r"Serialized sparse should have non-zero rank \[\]"),
            (["a", "b"], tf.float32, r"should have 3 as the last dimension \[2\]"),
            (tf.zeros([0, 3], tf.string), tf.float32, "at least 1 serialized tensor"),
            (["a", "b", "c"], tf.float32, "Could not parse serialized proto"),
            (a, tf.int32, r"Requested SparseTensor of type int32 but "
                          r"SparseTensor\[0\].values.dtype\(\) == float")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.raw_ops.DeserializeSparse(serialized_sparse=serialized, dtype=dtype)


def test_sparse_plus_dense_needs_one_shape_as_tf():
    st = tf.SparseTensor([[0, 1], [0, 1], [1, 2]], [1.0, 2.0, 3.0], [2, 3])
    assert tf.sparse.add(tf.ones([2, 3]), st).numpy().tolist() == [[1, 4, 1], [1, 1, 4]]
    # a dense operand of another shape is TF's error (it was added at the entries' indices)
    for dense, message in [
            (tf.ones([2, 4]), "Dimension 1 does not equal \\(no broadcasting is supported\\): "
                              "sparse side 3 vs dense side 4"),
            (tf.ones([3]), "Two operands have different ranks; received: 2 and 1")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.sparse.add(st, dense)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"invalid index on dimension 0: a_indices\(0,0\) = 5, dense tensor "
                             r"shape: 2 3"):
        tf.sparse.add(tf.SparseTensor([[5, 1]], [1.0], [2, 3]), tf.ones([2, 3]))
    values, dense = tf.Variable([1.0, 2.0, 3.0]), tf.Variable(tf.ones([2, 3]))
    with tf.GradientTape() as tape:
        out = tf.sparse.add(tf.SparseTensor(st.indices, values, st.dense_shape), dense)
        loss = tf.reduce_sum(out * [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    values_grad, dense_grad = tape.gradient(loss, [values, dense])
    assert values_grad.numpy().tolist() == [2.0, 2.0, 6.0]
    assert dense_grad.numpy().tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def test_sparse_concat_of_values_of_other_dtypes_is_tfs_error():
    a, b = tf.SparseTensor([[0]], [1.0], [2]), tf.SparseTensor([[1]], [1], [2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input #3\(zero-based\) was expected to be a float tensor but is a "
                             r"int32 tensor"):
        tf.sparse.concat(0, [a, b])

    @tf.function
    def join(x, y):
        return tf.sparse.concat(0, [tf.SparseTensor([[0]], x, [2]), tf.SparseTensor([[1]], y, [2])])
    with pytest.raises(TypeError, match=r"have types \[float32, int32\] that don't all match"):
        join(tf.constant([1.0]), tf.constant([1]))


def test_sparse_cross_raw_ops_take_tfs_inputs():
    crossed = dict(indices=[tf.constant([[0, 0], [1, 0], [1, 1]], tf.int64)],
                   values=[tf.constant(["a", "b", "c"])], shapes=[tf.constant([2, 2], tf.int64)],
                   dense_inputs=[tf.constant([["x"], ["y"]])])
    out = tf.raw_ops.SparseCrossV2(**crossed, sep="+")
    assert out.output_indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1]]
    assert out.output_values.numpy().tolist() == [b"a+x", b"b+y", b"c+y"]
    assert out.output_shape.numpy().tolist() == [2, 2]
    dense_only = tf.raw_ops.SparseCrossV2(indices=[], values=[], shapes=[],
                                          dense_inputs=[tf.constant([["x"], ["y"]])] * 2, sep="+")
    assert dense_only.output_values.numpy().tolist() == [b"x+x", b"y+y"]
    v1 = tf.raw_ops.SparseCross(**crossed, hashed_output=False, num_buckets=0, hash_key=0,
                                out_type=tf.string, internal_type=tf.string)
    assert v1.output_values.numpy().tolist() == [b"a_X_x", b"b_X_y", b"c_X_y"]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Expected batch size 3 got 2 at dense tensor 1"):
        tf.sparse.cross([tf.constant([["x"], ["y"], ["z"]]), tf.constant([["x"], ["y"]])])

    @tf.function(input_signature=[tf.TensorSpec([None, 1], tf.string)])
    def cross(x):
        return tf.sparse.cross([tf.SparseTensor(crossed["indices"][0], crossed["values"][0],
                                                [2, 2]), x]).values
    assert cross(tf.constant([["x"], ["y"]])).numpy().tolist() == [b"a_X_x", b"b_X_y", b"c_X_y"]
