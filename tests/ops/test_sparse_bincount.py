"""`tf.sparse.bincount` of dense, sparse and ragged inputs, as TF's ops
DenseCountSparseOutput, SparseCountSparseOutput and RaggedCountSparseOutput count them
(expected values recorded from TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf

DENSE = [[1, 2, 2, 0], [5, 5, 3, 1]]
WEIGHTS = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]


def _parts(st):
    assert isinstance(st, tf.SparseTensor)
    return (st.indices.numpy().tolist(), st.values.numpy().tolist(), st.values.dtype,
            st.dense_shape.numpy().tolist())


def _graph_ops(fn, *specs):
    return [op.type for op in tf.function(fn).get_concrete_function(*specs).graph
            .get_operations() if op.type not in ("Const", "Placeholder", "Identity")]


ROWS = [[0, 0], [0, 1], [0, 2], [1, 1], [1, 3], [1, 5]]


@pytest.mark.parametrize("kwargs, want", [
    ({}, ([[0], [1], [2], [3], [5]], [1, 2, 2, 1, 2], tf.int32, [6])),
    ({"axis": -1}, (ROWS, [1, 1, 2, 1, 1, 2], tf.int32, [2, 6])),
    ({"axis": -1, "weights": WEIGHTS}, (ROWS, [4.0, 1.0, 5.0, 8.0, 7.0, 11.0], tf.float32,
                                        [2, 6])),
    ({"axis": -1, "binary_output": True}, (ROWS, [1] * 6, tf.int32, [2, 6])),
    ({"minlength": 8, "maxlength": 3}, ([[0], [1], [2]], [1, 2, 2], tf.int32, [3])),
    ({"maxlength": 10, "axis": -1}, (ROWS, [1, 1, 2, 1, 1, 2], tf.int32, [2, 10])),
    ({"maxlength": 0, "axis": -1}, ([], [], tf.int32, [2, 0])),
    ({"axis": None, "minlength": 9}, ([[0], [1], [2], [3], [5]], [1, 2, 2, 1, 2], tf.int32,
                                      [9])),
])
def test_dense_counts_are_tfs(kwargs, want):
    assert _parts(tf.sparse.bincount(tf.constant(DENSE), **kwargs)) == want


def test_empty_input_has_one_bin_unless_capped():
    empty = tf.constant([], tf.int32)
    assert _parts(tf.sparse.bincount(empty)) == ([], [], tf.int32, [1])
    assert _parts(tf.sparse.bincount(empty, maxlength=0)) == ([], [], tf.int32, [0])
    assert _parts(tf.sparse.bincount(tf.zeros([3, 0], tf.int32), axis=-1)) == \
        ([], [], tf.int32, [3, 1])


def test_sparse_counts_are_tfs():
    sp = tf.sparse.from_dense(tf.constant(DENSE))
    weights = tf.SparseTensor(sp.indices, tf.cast(sp.values, tf.float64) * 1.5, sp.dense_shape)
    assert _parts(tf.sparse.bincount(sp)) == ([[1], [2], [3], [5]], [2, 2, 1, 2], tf.int32, [6])
    assert _parts(tf.sparse.bincount(sp, weights=weights, axis=-1)) == (
        [[0, 1], [0, 2], [1, 1], [1, 3], [1, 5]], [1.5, 6.0, 1.5, 4.5, 15.0], tf.float64,
        [2, 6])
    assert _parts(tf.sparse.bincount(sp, maxlength=2, axis=-1)) == (
        [[0, 1], [1, 1]], [1, 1], tf.int32, [2, 2])
    # rows are the first index of a 3-D input; a 1-D input counts as one row
    cube = tf.sparse.from_dense(tf.ones([2, 2, 2], tf.int32))
    assert _parts(tf.sparse.bincount(cube, axis=-1)) == ([[0, 1], [1, 1]], [4, 4], tf.int32,
                                                         [2, 2])
    line = tf.sparse.from_dense(tf.constant([0, 2, 2]))
    assert _parts(tf.sparse.bincount(line, axis=-1)) == ([[2]], [2], tf.int32, [3])
    unsorted = tf.SparseTensor([[1, 0], [0, 1], [0, 0]], [3, 2, 2], [2, 2])
    assert _parts(tf.sparse.bincount(unsorted, axis=-1)) == ([[0, 2], [1, 3]], [2, 1],
                                                             tf.int32, [2, 4])
    no_values = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int32), [3, 4])
    assert _parts(tf.sparse.bincount(no_values, axis=-1)) == ([], [], tf.int32, [3, 1])


def test_ragged_rows_are_counted_at_axis_0_as_tf_does():
    nested = tf.ragged.constant([[[1], [2, 2]], [[5]]])
    assert _parts(tf.sparse.bincount(nested, axis=0)) == (
        [[0, 1], [1, 2], [2, 5]], [1, 2, 1], tf.int32, [3, 6])
    r = tf.ragged.constant([[1, 2, 2], [], [5]])
    with pytest.raises(ValueError, match="`weights` must be a RaggedTensor"):
        tf.sparse.bincount(r, weights=tf.constant(WEIGHTS))


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.sparse.bincount(tf.constant([1, -1])), tf.errors.InvalidArgumentError,
     "Input values must all be non-negative"),
    (lambda: tf.sparse.bincount(tf.ones([2, 2, 2], tf.int32), axis=-1),
     tf.errors.InvalidArgumentError, r"Input must be a 1 or 2-dimensional tensor. Got: \[2,2,2\]"),
    (lambda: tf.sparse.bincount(tf.constant(DENSE), weights=tf.constant([1.0, 2.0]), axis=-1),
     tf.errors.InvalidArgumentError,
     r"Weights and data must have the same shape. Weight shape: \[2\]; data shape: \[2,4\]"),
    (lambda: tf.sparse.bincount(tf.constant([1.0, 2.0])), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.sparse.bincount(tf.constant([1]), weights=tf.constant([1], tf.int16)),
     tf.errors.InvalidArgumentError, "Value for attr 'output_type' of int16"),
    (lambda: tf.sparse.bincount(tf.constant(DENSE), minlength=-3),
     tf.errors.InvalidArgumentError, "Value for attr 'minlength' of -3 must be at least minimum"),
    (lambda: tf.sparse.bincount(tf.constant(DENSE), axis=1), ValueError,
     "Unsupported value for argument axis=1"),
    (lambda: tf.sparse.bincount(tf.constant(DENSE), weights=WEIGHTS, binary_output=True),
     ValueError, "`binary_output` and `weights` are mutually exclusive"),
    (lambda: tf.sparse.bincount(tf.sparse.from_dense(tf.constant(DENSE)),
                                weights=tf.constant(WEIGHTS)),
     ValueError, "Argument `weights` must be a SparseTensor if `values` is a SparseTensor"),
    (lambda: tf.sparse.bincount(tf.sparse.from_dense(tf.constant(DENSE)),
                                weights=tf.SparseTensor([[0, 0]], [1.0], [2, 4])),
     tf.errors.InvalidArgumentError, "'weights' and 'values' must have the same indices"),
    (lambda: tf.sparse.bincount(tf.SparseTensor([[5, 0]], [3], [2, 2]), axis=-1),
     tf.errors.InvalidArgumentError,
     r"Invalid index value at 0: dimension 0 has value 5 which is not in \[0, 2\) \(as given "
     r"by dense shape Tensor<type: int64 shape: \[2\] values: 2 2>"),
    (lambda: tf.sparse.bincount(tf.SparseTensor([[0, 0]], [-2], [3, 4]), axis=-1),
     tf.errors.InvalidArgumentError, "Input values must all be non-negative"),
])
def test_errors_are_tfs(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_raw_ops_check_their_inputs():
    empty = tf.constant([], tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Number of values must match first dimension of indices"):
        tf.raw_ops.SparseCountSparseOutput(indices=[[0, 1], [1, 0]], values=[2, 2, 3],
                                           dense_shape=[2, 3], weights=empty,
                                           binary_output=False)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Cannot allocate 0 batches, is the dense shape too wide"):
        tf.raw_ops.SparseCountSparseOutput(indices=tf.zeros([0, 2], tf.int64), values=empty,
                                           dense_shape=[2 ** 40, 3], weights=empty,
                                           binary_output=False)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Shapes dimension cannot be 0"):
        tf.raw_ops.DenseCountSparseOutput(values=tf.zeros([0, 3], tf.int32), weights=empty,
                                          binary_output=False)
    out = tf.raw_ops.DenseCountSparseOutput(values=[1, 1, 2], weights=[2.0, 3.0, 4.0],
                                            binary_output=True)
    assert out.output_values.numpy().tolist() == [1.0, 1.0]


def test_graphs_hold_tfs_ops_and_static_shapes():
    ids = tf.TensorSpec([None, None], tf.int32)
    sp = tf.SparseTensorSpec([None, None], tf.int32)
    assert _graph_ops(lambda x: tf.sparse.bincount(x), ids) == \
        ["Reshape", "DenseCountSparseOutput"]
    assert _graph_ops(lambda x: tf.sparse.bincount(x, axis=-1), ids) == \
        ["DenseCountSparseOutput"]
    assert _graph_ops(lambda x: tf.sparse.bincount(x, axis=-1), sp) == \
        ["SparseCountSparseOutput"]
    assert _graph_ops(lambda x: tf.sparse.bincount(x), sp) == ["DenseCountSparseOutput"]
    ragged = tf.RaggedTensorSpec([None, None], tf.int64)
    assert _graph_ops(lambda x: tf.sparse.bincount(x), ragged) == ["DenseCountSparseOutput"]
    assert _graph_ops(lambda x: tf.sparse.bincount(x, axis=-1), ragged) == \
        ["RaggedCountSparseOutput"]

    shapes = []

    @tf.function(input_signature=[ids])
    def rows(x):
        out = tf.sparse.bincount(x, axis=-1)
        shapes.append((out.indices.shape.as_list(), out.dense_shape.shape.as_list()))
        return out

    assert _parts(rows(tf.constant(DENSE)))[3] == [2, 6]
    assert shapes == [([None, 2], [2])]


def test_in_a_function_errors_and_values_are_tfs():
    @tf.function
    def negative():
        return tf.sparse.bincount(tf.constant([[1, -1]]), axis=-1)

    with pytest.raises(tf.errors.InvalidArgumentError, match="must all be non-negative"):
        negative()

    @tf.function
    def below_minimum():
        return tf.sparse.bincount(tf.constant([1]), minlength=-3)

    with pytest.raises(ValueError, match="Attr 'minlength' of 'DenseCountSparseOutput' Op "
                                         "passed -3 less than minimum -1"):
        below_minimum()

    @tf.function
    def weighted(v, w):
        return tf.sparse.bincount(v, weights=w, axis=-1, maxlength=3)

    got = weighted(tf.Variable(DENSE), tf.constant(WEIGHTS))
    assert _parts(got) == ([[0, 0], [0, 1], [0, 2], [1, 1]], [4.0, 1.0, 5.0, 8.0],
                           tf.float32, [2, 3])



def test_math_bincount_of_a_sparse_tensor_counts_its_values():
    sp = tf.sparse.from_dense(tf.constant(DENSE))
    weights = tf.SparseTensor(sp.indices, tf.cast(sp.values, tf.float64) * 1.5, sp.dense_shape)
    got = tf.math.bincount(sp)
    assert got.dtype == tf.int32 and got.numpy().tolist() == [0, 2, 2, 1, 0, 2]
    assert tf.math.bincount(sp, weights=weights).numpy().tolist() == [0, 3, 6, 4.5, 0, 15]
    np.testing.assert_array_equal(tf.math.bincount(sp, axis=-1).numpy(),
                                  [[0, 1, 2, 0, 0, 0], [0, 1, 0, 1, 0, 2]])
    rows = tf.math.bincount(sp, axis=-1, binary_output=True, maxlength=3)
    np.testing.assert_array_equal(rows.numpy(), [[0, 1, 1], [0, 1, 0]])
    floats = tf.math.bincount(tf.SparseTensor([[0, 0], [1, 1]], [2.5, 3.0], [3, 4]), axis=-1,
                              dtype=tf.float64)
    assert floats.dtype == tf.float64
    np.testing.assert_array_equal(floats.numpy(), [[0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]])
    # a row's negative values count nowhere; a 3-D input's rows are its first index
    assert tf.math.bincount(tf.SparseTensor([[0, 0]], [-2], [3, 4]), axis=-1).shape == [3, 0]
    cube = tf.sparse.from_dense(tf.ones([2, 2, 2], tf.int32))
    np.testing.assert_array_equal(tf.math.bincount(cube, axis=-1).numpy(), [[0, 4], [0, 4]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input arr must be non-negative!"):
        tf.math.bincount(tf.SparseTensor([[0, 0], [1, 1]], [-2, 3], [3, 4]))
    with pytest.raises(ValueError, match="must be a SparseTensor if `values` is a SparseTensor"):
        tf.math.bincount(sp, weights=tf.constant(WEIGHTS), axis=-1)


def test_math_bincount_of_a_sparse_tensor_in_a_function_runs_sparse_bincount():
    spec = tf.SparseTensorSpec([None, None], tf.int32)
    assert "SparseBincount" in _graph_ops(lambda x: tf.math.bincount(x, axis=-1), spec)

    @tf.function(input_signature=[spec])
    def rows(x):
        return tf.math.bincount(x, axis=-1, minlength=4)

    np.testing.assert_array_equal(
        rows(tf.SparseTensor([[0, 0], [1, 1]], [2, 3], [3, 4])).numpy(),
        [[0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Sparse index tuple indices\[0, "
                                                             r":\] = \[5, 1\] is out of bounds"):
        tf.raw_ops.SparseBincount(indices=[[5, 1]], values=[2], dense_shape=[3, 4], size=3,
                                  weights=tf.constant([], tf.float32), binary_output=False)


def test_ragged_bincount_per_row_needs_one_row_partition():
    nested = tf.ragged.constant([[[1], [2, 2]], [[5]]])
    for count in (tf.math.bincount, tf.sparse.bincount):
        with pytest.raises(ValueError, match="has no len"):
            count(nested, axis=-1)


def test_ragged_weights_must_share_the_row_splits():
    r = tf.ragged.constant([[1, 2, 2], [], [5]])
    other = tf.ragged.constant([[1.0, 2.0], [3.0], [4.0]])
    for count in (tf.math.bincount, tf.sparse.bincount):
        for axis in (0, -1):
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="'weights' and 'values' must have the same row splits"):
                count(r, weights=other, axis=axis)

    spec = tf.RaggedTensorSpec([None, None], tf.int64)

    @tf.function(input_signature=[spec, tf.RaggedTensorSpec([None, None], tf.float32)])
    def counts(values, weights):
        return tf.sparse.bincount(values, weights=weights, axis=-1)

    with pytest.raises(tf.errors.InvalidArgumentError, match="must have the same row splits"):
        counts(tf.cast(r, tf.int64), other)
    same = counts(tf.cast(r, tf.int64), r.with_flat_values(tf.constant([1.0, 2.0, 3.0, 4.0])))
    assert _parts(same) == ([[0, 1], [0, 2], [2, 5]], [1.0, 5.0, 4.0], tf.float32, [3, 6])
