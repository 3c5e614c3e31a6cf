"""tf.sparse against TF 2.21's recorded outcomes (data/sparse_tf.json, from
data/make_sparse_data.py), and the errors and paths the recording does not cover."""
import json
import os
import re

import numpy as np
import pytest

import eagerflow as tf
from tests.recorded import assert_same
from tests.ops.sparse_cases import cases, jsonable

with open(os.path.join(os.path.dirname(__file__), "data", "sparse_tf.json")) as _f:
    RECORDED = json.load(_f)
CASES = cases(tf)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tf(name):
    ours = json.loads(json.dumps(jsonable(CASES[name]()), default=str))
    assert_same(ours, RECORDED[name])


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(RECORDED)


def test_sparse_ops_in_a_function_with_unknown_dims():
    spec = tf.SparseTensorSpec([None, 4], tf.float32)

    @tf.function(input_signature=[spec, tf.TensorSpec([4, None], tf.float32)])
    def f(x, m):
        total = tf.sparse.reduce_sum(tf.sparse.add(x, x), axis=1)
        return tf.sparse.sparse_dense_matmul(x, m), total

    x = tf.sparse.SparseTensor([[0, 1], [2, 3]], [1.0, 2.0], [3, 4])
    product, total = f(x, tf.ones([4, 2]))
    assert product.numpy().tolist() == [[1, 1], [0, 0], [2, 2]]
    assert total.numpy().tolist() == [2, 0, 4]


def test_errors_name_the_op():
    x = tf.sparse.SparseTensor([[0, 1]], [1.0], [2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="SparseReshape"):
        tf.sparse.reshape(x, [4, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"inner dimension .* Dimensions of B: \[2,2\] "):
        tf.sparse.sparse_dense_matmul(x, tf.ones([2, 2]))
    with pytest.raises(TypeError, match="SparseTensor"):
        tf.sparse.reorder(tf.ones([2]))
    with pytest.raises(TypeError, match="At least one input should be SparseTensor"):
        tf.sparse.add(tf.ones([2]), tf.ones([2]))


def test_sparse_dense_matmul_takes_the_dense_operand_as_given():
    # TF's kernel casts neither operand: float64 arrays, Variables and int lists raise
    x = tf.sparse.SparseTensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
    for b in (np.ones((2, 2)), tf.Variable(np.ones((2, 2))), [[1, 2], [3, 4]]):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"input #3\(zero-based\) was expected to be a float tensor "
                                 r"but is a .* tensor \[Op:SparseTensorDenseMatMul\] name: $"):
            tf.sparse.sparse_dense_matmul(x, b)
    with pytest.raises(TypeError, match="Input 'b' of 'SparseTensorDenseMatMul' Op has type "
                                        "float64 that does not match type float32"):
        tf.function(lambda b: tf.sparse.sparse_dense_matmul(x, b))(tf.ones([2, 2], tf.float64))
    assert tf.sparse.sparse_dense_matmul(x, [[1.0, 2.0], [3.0, 4.0]]).numpy().tolist() == [
        [6.0, 8.0], [3.0, 6.0]]


def test_reshape_errors_are_tfs():
    x = tf.sparse.SparseTensor([[0, 1], [1, 0], [2, 3]], [1.0, 2.0, 3.0], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"SparseTensor with 12 dense values, but the requested shape "
                             r"requires a multiple of 5. input_shape=\[3,4\] "
                             r"output_shape=\[5,1\]"):
        tf.sparse.reshape(x, [5, -1])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="only one output dimension may be -1, not both 0 and 1"):
        tf.sparse.reshape(x, [-1, -1])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"tensor with 12 dense values, but the requested shape has 15"):
        tf.sparse.reshape(x, [5, 3])


def test_empty_sparse_tensors():
    empty = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 3])
    assert tf.sparse.reduce_sum(empty, axis=1).numpy().tolist() == [0, 0]
    assert tf.sparse.to_dense(tf.sparse.add(empty, empty)).numpy().tolist() == [[0] * 3] * 2
    assert tf.sparse.sparse_dense_matmul(empty, tf.ones([3, 1])).numpy().tolist() == [[0], [0]]
    filled, rows = tf.sparse.fill_empty_rows(empty, 7.0)
    assert tf.sparse.to_dense(filled).numpy().tolist() == [[7, 0, 0], [7, 0, 0]]
    assert rows.numpy().tolist() == [True, True]


def test_variable_dense_operand_gets_its_gradient():
    x = tf.sparse.SparseTensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
    w = tf.Variable(np.ones((2, 1), np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(x, w))
    assert tape.gradient(loss, w).numpy().ravel().tolist() == [3.0, 2.0]


def test_cast_of_sparse_tensors_and_indexed_slices_casts_their_values():
    sp = tf.sparse.from_dense([[1, 0], [0, 2]])
    cast = tf.cast(sp, tf.float32)
    assert isinstance(cast, tf.SparseTensor) and cast.dtype == tf.float32
    np.testing.assert_array_equal(cast.indices.numpy(), sp.indices.numpy())

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 2], tf.int32)])
    def dense(s):
        return tf.sparse.to_dense(tf.cast(s, tf.float64))

    np.testing.assert_array_equal(dense(sp).numpy(), [[1.0, 0.0], [0.0, 2.0]])
    slices = tf.IndexedSlices(tf.constant([[1, 2]]), tf.constant([0]), tf.constant([3, 2]))
    cast = tf.cast(slices, tf.float32)
    assert isinstance(cast, tf.IndexedSlices) and cast.values.dtype == tf.float32


def test_reduce_over_every_axis_to_a_sparse_result():
    st = tf.sparse.SparseTensor([[0, 1], [2, 0]], [3.0, 4.0], [3, 3])
    total = tf.sparse.reduce_sum(st, output_is_sparse=True)
    assert total.indices.shape == [1, 0] and total.indices.dtype == tf.int64
    assert total.values.numpy().tolist() == [7.0]
    assert total.dense_shape.shape == [0] and total.dense_shape.dtype == tf.int64


def test_sparse_tensors_are_tensors_to_is_tensor():
    st = tf.sparse.SparseTensor([[0]], [1], [2])
    assert tf.is_tensor(st) and tf.function(lambda x: tf.is_tensor(x))(st).numpy()
    assert not tf.is_tensor(tf.TensorSpec([])) and not tf.is_tensor(tf.data.Dataset.range(1))


def test_zero_preserving_unary_ops_map_a_sparse_tensors_values():
    # TF's list: abs, negative, sign, square, sqrt, sin, tan, asin, atan, asinh, atanh, erf,
    # tanh, bessel_i0e, bessel_i1e (and identity); the others take no SparseTensor
    sp = tf.sparse.SparseTensor([[0, 0], [1, 1]], [-3.0, 4.0], [2, 2])
    for fn, want in [(tf.abs, [3.0, 4.0]), (tf.math.negative, [3.0, -4.0]),
                     (tf.math.sign, [-1.0, 1.0]), (tf.square, [9.0, 16.0]),
                     (tf.sin, np.sin([-3.0, 4.0])), (tf.math.tanh, np.tanh([-3.0, 4.0])),
                     (tf.identity, [-3.0, 4.0])]:
        out = fn(sp)
        assert isinstance(out, tf.sparse.SparseTensor), fn
        np.testing.assert_allclose(out.values, want, rtol=1e-6)
        np.testing.assert_array_equal(out.indices, [[0, 0], [1, 1]])
    assert isinstance(tf.function(tf.sqrt)(tf.abs(sp)), tf.sparse.SparseTensor)
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        tf.exp(sp)
    with tf.GradientTape() as tape:
        tape.watch(sp.values)
        y = tf.sparse.reduce_sum(tf.square(sp))
    np.testing.assert_allclose(tape.gradient(y, sp.values), [-6.0, 8.0])


def test_sparse_segment_gradients_are_dense_unless_asked_sparse():
    data = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    for fn, scale in ((tf.sparse.segment_sum, 1.0), (tf.sparse.segment_mean, 0.5),
                      (tf.sparse.segment_sqrt_n, 0.5 ** 0.5)):
        for sparse in (False, True):
            with tf.GradientTape() as tape:
                y = tf.reduce_sum(fn(data, [0, 2, 2, 1], [0, 0, 1, 1], sparse_gradient=sparse))
            grad = tape.gradient(y, data)
            assert isinstance(grad, tf.IndexedSlices) == sparse
            np.testing.assert_allclose(tf.convert_to_tensor(grad).numpy(),
                                       [[scale] * 2, [scale] * 2, [2 * scale] * 2], rtol=1e-6)


@pytest.mark.parametrize("call, message", [
    (lambda d: tf.sparse.segment_mean(tf.constant([[1, 2]]), [0], [0]),
     "attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double"),
    (lambda d: tf.sparse.segment_sqrt_n(tf.constant([[1, 2]]), [0], [0], num_segments=2),
     r"\{\{node SparseSegmentSqrtNWithNumSegments\}\}"),
    (lambda d: tf.sparse.segment_sum(d, [0, 5], [0, 0], num_segments=2),
     r"Bad: indices\[1\] == 5 out of range \[0, 2\) \[Op:SparseSegmentSumWithNumSegments\]"),
    (lambda d: tf.sparse.segment_sum(d, [0, 1], [1, 0]), "segment ids are not increasing"),
    (lambda d: tf.sparse.segment_sum(d, [0, 1], [0, 3], num_segments=2),
     "segment ids must be < num_segments"),
    (lambda d: tf.sparse.segment_sum(d, [0, 1], [0, 1, 1]),
     "segment_ids and indices should have same size"),
    (lambda d: tf.sparse.segment_mean(d, [0, 1], [-1, 0]),
     r"Segment id -1 out of range \[0, 1\), possibly because 'segment_ids' input is not sorted"),
])
def test_sparse_segment_errors_are_tfs(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call(tf.constant([[1.0, 2.0], [3.0, 4.0]]))


def test_add_refuses_sparse_tensors_of_other_shapes():
    a = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
    for shape, text in (([3, 3], "Operands' shapes do not match: got 2 and 3 for dimension 0"),
                        ([2, 3], "Operands' shapes do not match: got 2 and 3 for dimension 1"),
                        ([2, 2, 1], "Input indices must have the same dimension, got 2 and 3")):
        b = tf.sparse.SparseTensor([[0] * len(shape)], [1.0], shape)
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"{text} \\[Op:SparseAdd\\]"):
            tf.sparse.add(a, b)
    with pytest.raises(ValueError, match=r"Shapes \(2, 2\) and \(3, 3\) are incompatible"):
        tf.function(tf.sparse.add)(a, tf.sparse.SparseTensor([[0, 0]], [1.0], [3, 3]))


def test_reductions_over_an_axis_out_of_range_are_the_sparse_kernels_errors():
    s = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
    for call, op, axis in ((lambda: tf.sparse.reduce_sum(s, 5), "SparseReduceSum", 5),
                           (lambda: tf.sparse.reduce_max(s, -3), "SparseReduceMax", -3),
                           (lambda: tf.sparse.reduce_sum(s, 5, output_is_sparse=True),
                            "SparseReduceSumSparse", 5)):
        with pytest.raises(tf.errors.InvalidArgumentError, match=(
                f"}}}} Invalid reduction dimension {axis}, for input with 2 dimensions. "
                f"\\[Op:{op}\\] name: $")):
            call()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"dimension 7, .*\[Op:SparseReduceMax\]$"):  # (a list: no name)
        tf.sparse.reduce_max(s, [0, 7])


def test_reshape_of_an_empty_tensor_as_tf():
    empty = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [0, 3])
    assert tf.sparse.reshape(empty, [0, 3, 1]).dense_shape.numpy().tolist() == [0, 3, 1]
    assert tf.sparse.reshape(empty, [-1, 3]).dense_shape.numpy().tolist() == [0, 3]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\{\{function_node __wrapped__SparseReshape_device_/job:localhost/"
                             r"replica:0/task:0/device:CPU:0\}\} reshape cannot infer the missing "
                             r"input size for an empty tensor unless all specified input sizes "
                             r"are non-zero \[Op:SparseReshape\]"):
        tf.sparse.reshape(empty, [0, -1])


def _entries(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist()


def test_sparse_add_merges_entries_out_of_order_as_given():
    # TF merges the two lists of entries as if each were in order: repeated or unordered
    # entries are not summed among themselves nor sorted
    def sp(indices, values):
        return tf.sparse.SparseTensor(indices, values, [1, 3])
    assert _entries(tf.sparse.add(sp([[0, 0], [0, 0]], [1, 2]), sp([[0, 0]], [5]))) == (
        [[0, 0], [0, 0]], [6, 2])
    assert _entries(tf.sparse.add(sp([[0, 2], [0, 0]], [1, 2]), sp([[0, 1], [0, 0]], [5, 7]))) \
        == ([[0, 1], [0, 0], [0, 2], [0, 0]], [5, 7, 1, 2])
    got = tf.sparse.add(sp([[0, 2], [0, 0]], [1., 2.]), sp([[0, 1], [0, 2]], [5., -1.]),
                        threshold=0.5)
    assert _entries(got) == ([[0, 1], [0, 0]], [5., 2.])
    assert got.shape == (1, 3)
    # entries in order: sums below the threshold dropped, single entries kept
    got = tf.sparse.add(sp([[0, 0], [0, 2]], [1., 2.]), sp([[0, 1], [0, 2]], [5., -2.]),
                        threshold=0.5)
    assert _entries(got) == ([[0, 0], [0, 1]], [1., 5.])


def test_sparse_values_of_another_dtype_are_tfs_op_errors():
    a = tf.sparse.SparseTensor([[0, 0]], [1], [2, 2])
    b = tf.sparse.SparseTensor([[0, 0]], [1.], [2, 2])
    for fn, op_name, i in ((lambda: tf.sparse.add(a, b), "SparseAdd", 4),
                           (lambda: tf.sparse.add(a, tf.ones([2, 2])), "SparseTensorDenseAdd", 3),
                           (lambda: tf.sparse.maximum(a, b), "SparseSparseMaximum", 4)):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            fn()
        assert str(info.value) == (
            f"cannot compute {op_name} as input #{i}(zero-based) was expected to be a int32 "
            f"tensor but is a float tensor [Op:{op_name}] name: ")
    @tf.function
    def traced():
        return tf.sparse.add(a, b)
    with pytest.raises(TypeError, match="Input 'b_values' of 'SparseAdd' Op has type float32 "
                                        "that does not match type int32 of argument 'a_values'"):
        traced()
    with pytest.raises(TypeError) as info:
        tf.sparse.to_dense(tf.constant([1]))
    assert str(info.value) == "Input must be a SparseTensor."


def test_to_dense_out_of_bounds_without_validation_names_the_shape():
    st = tf.sparse.SparseTensor([[0, -1]], [1], [1, 3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\} Indices are not valid \(out of bounds\).  Shape: \[1,3\] "):
        tf.sparse.to_dense(st, validate_indices=False)


def test_compat_sparse_to_dense_is_tfs_op():
    s2d = tf.compat.v1.sparse_to_dense
    assert s2d([[0, 1], [1, 2]], [2, 3], 7, default_value=-1).numpy().tolist() == [
        [-1, 7, -1], [-1, -1, 7]]
    assert s2d([2, 0], [4], [1, 2], validate_indices=False).numpy().tolist() == [2, 0, 1, 0]
    for indices, message in (([2, 0], r"indices\[1\] = \[0\] is out of order"),
                             ([2, 2], r"indices\[1\] = \[2\] is repeated"),
                             ([5], r"indices\[0\] = \[5\] is out of bounds: need 0 <= index "
                                   r"< \[4\] \[Op:SparseToDense\]$")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            s2d(indices, [4], 1)


def test_sparse_maximum_minimum_merge_entries_out_of_order_as_given():
    S = tf.sparse.SparseTensor
    a = S([[0, 2], [0, 0], [1, 1]], [-1., 2., 3.], [2, 3])
    b = S([[0, 1], [0, 2], [1, 0]], [-5., 4., -2.], [2, 3])
    rows = [[0, 1], [0, 2], [0, 0], [1, 0], [1, 1]]  # (an entry of one alone meets 0)
    assert _entries(tf.sparse.maximum(a, b)) == (rows, [0., 4., 2., 0., 3.])
    assert _entries(tf.sparse.minimum(a, b)) == (rows, [-5., -1., 0., -2., 0.])
    got = tf.sparse.minimum(S([[0, 1], [0, 0]], [-1, 2], [1, 2]), S([[0, 0]], [1], [1, 2]))
    assert _entries(got) == ([[0, 0], [0, 1], [0, 0]], [0, -1, 0])


def test_sparse_shape_of_an_unknown_dimension_and_retain_check():
    assert tf.sparse.SparseTensor([[0]], [1], [-1]).shape.as_list() == [None]
    st = tf.sparse.SparseTensor([[0, 2], [0, 0], [1, 1]], [1., 2., 3.], [2, 3])
    with pytest.raises(ValueError, match="^Dimensions 3 and 1 are not compatible$"):
        tf.sparse.retain(st, [True])


def test_sparse_dense_matmul_names_an_index_out_of_bounds_as_tfs_kernel():
    S = tf.sparse.SparseTensor
    for st, adjoint, message in (
            (S([[0, 0], [0, -1]], [1., 1.], [1, 2]), False,
             "k (-1) from index[1,1] out of bounds (>=2)"),
            (S([[3, 1]], [1.], [1, 2]), False, "m (3) from index[0,0] out of bounds (>=1)"),
            (S([[5, 0]], [1.], [2, 1]), True, "k (5) from index[0,0] out of bounds (>=2)")):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.sparse.sparse_dense_matmul(st, tf.ones([2, 1]), adjoint_a=adjoint)
        assert str(info.value).endswith(
            f"}} {message} [Op:SparseTensorDenseMatMul] name: ")


def test_only_the_dense_sparse_sum_has_a_gradient():
    # TF registers a gradient for SparseReduceSum alone: the max, and either reduction with
    # a sparse output, raise its LookupError when a gradient reaches them
    values = tf.Variable([1.0, 5.0, 2.0])
    indices = [[0, 0], [1, 2], [1, 2]]
    for fn, kw, op in ((tf.sparse.reduce_max, {}, "SparseReduceMax"),
                       (tf.sparse.reduce_max, {"axis": 1}, "SparseReduceMax"),
                       (tf.sparse.reduce_max, {"axis": 1, "output_is_sparse": True},
                        "SparseReduceMaxSparse"),
                       (tf.sparse.reduce_sum, {"axis": 1, "output_is_sparse": True},
                        "SparseReduceSumSparse")):
        with tf.GradientTape() as tape:
            out = fn(tf.sparse.SparseTensor(indices, values, [2, 3]), **kw)
            out = out.values if isinstance(out, tf.sparse.SparseTensor) else out
        with pytest.raises(LookupError, match=f"^gradient registry has no entry for: {op}$"):
            tape.gradient(out, values)
    with tf.GradientTape() as tape:
        out = tf.sparse.reduce_sum(tf.sparse.SparseTensor(indices, values, [2, 3]), axis=0,
                                   keepdims=True)
        loss = tf.reduce_sum(out * [[1.0, 2.0, 3.0]])
    np.testing.assert_array_equal(tape.gradient(loss, values).numpy(), [1.0, 3.0, 3.0])
    assert tf.raw_ops.SparseReduceMax(input_indices=indices, input_values=[1.0, 5.0, 2.0],
                                      input_shape=[2, 3], reduction_axes=[1]).numpy().tolist() \
        == [1.0, 5.0]


def test_sparse_max_takes_nan_as_tf_and_sparse_outputs_all_axes():
    # TF's max keeps each value unless it is below the one kept, in index order: a NaN
    # counts when it comes last in its group (small groups)
    nan = np.nan
    st = tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [3, 0], [3, 1],
                                 [3, 2]], [nan, 3.0, 3.0, nan, nan, 1.0, nan, 3.0], [5, 3])
    np.testing.assert_array_equal(tf.sparse.reduce_max(st, 1).numpy(),
                                  [3.0, nan, nan, 3.0, 0.0])
    st = tf.sparse.SparseTensor([[1, 2], [0, 1], [1, 0], [0, 1]], [1.0, 2.0, 3.0, 4.0], [2, 3])
    out = tf.sparse.reduce_sum(st, [0, 1], keepdims=True, output_is_sparse=True)
    assert out.indices.numpy().tolist() == [[0, 0]]
    assert out.values.numpy().tolist() == [10.0]
    assert out.dense_shape.numpy().tolist() == [1, 1]


def test_concat_of_mismatched_shapes_names_the_dimension_and_position():
    a = tf.sparse.SparseTensor([[0, 0]], [1], [8, 5])
    b = tf.sparse.SparseTensor([[0, 0]], [1], [8, 6])
    c = tf.sparse.SparseTensor([[0, 0, 0]], [1], [8, 6, 1])
    d = tf.sparse.SparseTensor([[0, 0]], [1], [7, 6])
    prefix = ("{{function_node __wrapped__SparseConcat_N_3_device_/job:localhost/replica:0/"
              "task:0/device:CPU:0}} ")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.sparse.concat(0, [a, a, b])
    assert str(e.value) == (prefix + "Input shapes must match: expected 5 for dimension 1 but "
                            "got 6 at position 2 [Op:SparseConcat] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="expected 8 for dimension 0 but got 7 at position 1"):
        tf.sparse.concat(-1, [a, d])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Ranks of all input tensors must match: expected 2 but got 3 at "
                             "position 1"):
        tf.sparse.concat(0, [a, c])
    assert tf.sparse.concat(0, [a, b], expand_nonconcat_dims=True).dense_shape.numpy() \
        .tolist() == [16, 6]


def test_sparse_split_is_one_op_without_a_gradient_as_in_tf():
    st = tf.sparse.SparseTensor([[0, 0], [1, 2], [1, 3]], [1.0, 2.0, 3.0], [2, 5])
    pieces = tf.sparse.split(sp_input=st, num_split=3, axis=-1)
    assert [p.dense_shape.numpy().tolist() for p in pieces] == [[2, 2], [2, 2], [2, 1]]
    assert pieces[1].indices.numpy().tolist() == [[1, 0], [1, 1]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input num_split should be between 1 and the splitting dimension "
                             r"size \(5\), got 7"):
        tf.sparse.split(sp_input=st, num_split=7, axis=1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input axis should be in range \[-2, 2\), got 5"):
        tf.sparse.split(sp_input=st, num_split=2, axis=5)
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        parts = tf.sparse.split(sp_input=tf.sparse.SparseTensor(st.indices, v * 1.0, [2, 5]),
                                num_split=2, axis=1)
        loss = tf.reduce_sum(parts[0].values)
    with pytest.raises(LookupError, match="gradient registry has no entry for: SparseSplit"):
        tape.gradient(loss, v)


def test_shape_size_and_rank_of_a_sparse_tensor_read_its_dense_shape():
    st = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [3, 5])
    assert tf.shape(st).dtype == tf.int32 and tf.shape(st).numpy().tolist() == [3, 5]
    assert tf.shape(st, out_type=tf.int64).dtype == tf.int64
    assert tf.size(st).numpy() == 15 and tf.size(st).dtype == tf.int32
    assert tf.size(st, out_type=tf.int64).dtype == tf.int64
    assert tf.rank(st).numpy() == 2 and tf.rank(st).dtype == tf.int32
    assert tf.compat.v1.shape(st).numpy().tolist() == [3, 5]

    @tf.function(input_signature=[tf.SparseTensorSpec([None, 5], tf.float32)])
    def f(x):
        assert tf.shape(x).shape == [2] and tf.size(x).shape == []
        return tf.shape(x), tf.size(x), tf.rank(x)

    assert [t.numpy().tolist() for t in f(st)] == [[3, 5], 15, 2]


def test_sparse_maximum_and_minimum_refuse_operands_of_other_shapes():
    a = tf.sparse.SparseTensor([[1, 1], [0, 0]], [1.0, 2.0], [3, 5])  # not in order
    b = tf.sparse.SparseTensor([[0, 0]], [3.0], [3, 6])
    c = tf.sparse.SparseTensor([[0, 0, 0]], [3.0], [3, 5, 1])
    for fn, op in ((tf.sparse.maximum, "SparseSparseMaximum"),
                   (tf.sparse.minimum, "SparseSparseMinimum")):
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            fn(a, b)
        assert str(e.value) == (
            f"{{{{function_node __wrapped__{op}_device_/job:localhost/replica:0/task:0/"
            f"device:CPU:0}}}} Operands' shapes do not match: got 5 and 6 for dimension 1 "
            f"[Op:{op}] name: ")
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Operands do not have the same ranks; got shapes: 3 5 and 3 5 1"):
            fn(tf.sparse.reorder(a), c)


def test_sparse_divided_by_a_dense_zero_at_an_entry_is_an_error():
    st = tf.sparse.SparseTensor([[0, 0], [1, 1]], [2.0, 3.0], [2, 2])
    # zeros the entries do not meet do not count
    assert (st / tf.constant([[1.0, 0.0], [0.0, 2.0]])).values.numpy().tolist() == [2.0, 1.5]
    for divisor in (tf.constant(0.0), tf.constant([[0.0, 1.0], [1.0, 1.0]]), 0.0):
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            st / divisor
        assert str(e.value) == (
            "{{function_node __wrapped__SparseDenseCwiseDiv_device_/job:localhost/replica:0/"
            "task:0/device:CPU:0}} SparseDenseCwiseDiv cannot divide by zero,but input dense "
            "tensor contains zero  [Op:SparseDenseCwiseDiv] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot divide by zero"):
        tf.function(lambda x, y: x / y)(st, tf.constant(0.0))
    assert tf.function(lambda x, y: x / y)(st, tf.constant(2.0)).values.numpy().tolist() == \
        [1.0, 1.5]
    # a SparseTensor operand is no dense one: TF's conversion error
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        st * st


def test_set_shape_of_a_sparse_tensor_narrows_its_static_shape():
    st = tf.sparse.SparseTensor([[0, 1], [1, 2]], [1.0, 2.0], [2, 3])
    st.set_shape([None, 3])
    assert st.shape == [2, 3]
    with pytest.raises(ValueError, match=r"Shapes \(2, 3\) and \(3, 3\) are not compatible"):
        st.set_shape([3, 3])

    @tf.function(input_signature=[tf.SparseTensorSpec([None, None], tf.float32)])
    def f(x):
        x.set_shape([None, 3])
        assert x.shape.as_list() == [None, 3]
        return tf.sparse.to_dense(x)

    assert f(st).numpy().tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]
    # TF's text names the two shapes the other way round
    with pytest.raises(ValueError, match=r"Found new_shape \(\[2 3\]\), sp_input.shape "
                                         r"\(\[1 3\]\)\.$"):
        tf.sparse.reset_shape(st, [1, 3])


def test_map_values_refuses_operands_of_other_indices_or_shapes():
    a = tf.sparse.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
    b = tf.sparse.SparseTensor([[0, 1], [1, 1]], [10.0, 20.0], [2, 2])
    c = tf.sparse.SparseTensor([[0, 0], [1, 1]], [10.0, 20.0], [2, 3])
    # (the values of other positions paired silently)
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Mismatched indices!\n"):
        tf.sparse.map_values(tf.add, a, b)
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Mismatched shapes!\n"):
        tf.sparse.map_values(tf.add, a, c)
    np.testing.assert_array_equal(tf.sparse.map_values(tf.add, a, a).values.numpy(), [2, 4])

    @tf.function
    def add(x, y):
        return tf.sparse.map_values(tf.add, x, y).values

    with pytest.raises(tf.errors.InvalidArgumentError, match="Mismatched indices!"):
        add(a, b)
    np.testing.assert_array_equal(add(a, a).numpy(), [2, 4])


def test_sparse_dense_matmul_of_other_ranks_raises_as_tf():
    cube = tf.sparse.from_dense(np.ones([2, 2, 2], np.float32))
    square = tf.sparse.from_dense(np.ones([2, 2], np.float32))
    # eagerly the kernel's InvalidArgumentError, in a graph the shape rule's ValueError
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor 'a_shape' must have 2"):
        tf.sparse.sparse_dense_matmul(cube, tf.ones([2, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor 'b' is not a matrix"):
        tf.sparse.sparse_dense_matmul(cube, tf.ones([2, 2, 2]))
    for a, b in ((cube, tf.ones([2, 2])), (square, tf.ones([2]))):
        with pytest.raises(ValueError, match="Shape must be rank 2 but is rank"):
            tf.function(lambda: tf.sparse.sparse_dense_matmul(a, b))()


def test_reset_shape_to_a_shape_of_another_rank_names_the_ranks():
    st = tf.sparse.SparseTensor([[0, 1]], [1.0], [2, 2])
    with pytest.raises(ValueError, match="^Dimensions 3 and 2 are not compatible$"):
        tf.sparse.reset_shape(st, [2, 5, 1])


def test_sparse_cross_takes_a_list_of_tensors_and_sparse_tensors_only():
    words = tf.sparse.from_dense(tf.constant([["a", ""], ["b", "c"]]))
    for other in ([["x"], ["y"]], np.array([["x"], ["y"]]), tf.Variable([["x"], ["y"]]),
                  tf.ragged.constant([["x"], ["y"]])):
        with pytest.raises(TypeError, match=r"^All inputs must be Tensor or SparseTensor\.$"):
            tf.sparse.cross([words, other])
        with pytest.raises(TypeError, match="^All inputs must be SparseTensors$"):
            tf.sparse.cross_hashed([words, other], 10)
    with pytest.raises(TypeError, match="^Inputs must be a list$"):
        tf.sparse.cross(words)
    crossed = tf.sparse.cross((words, tf.constant([["x"], ["y"]])))
    assert crossed.values.numpy().tolist() == [b"a_X_x", b"b_X_y", b"c_X_y"]
    for empty, dtype in ((tf.sparse.cross([]), tf.string),
                         (tf.sparse.cross_hashed([], 5), tf.int64)):
        assert empty.indices.shape == (0, 2) and empty.values.dtype == dtype
        assert empty.dense_shape.numpy().tolist() == [0, 0]


def test_sparse_maximum_and_minimum_refuse_indices_outside_the_shape():
    inside = tf.sparse.SparseTensor([[0, 0], [1, 0]], [1.0, 2.0], [3, 2])
    # (the entries outside came back in the result)
    for outside, row in (([[0, 0], [5, 0]], "[5, 0]"), ([[0, 0], [1, 7]], "[1, 7]"),
                         ([[0, 0], [-1, 0]], "[-1, 0]")):
        bad = tf.sparse.SparseTensor(outside, [1.0, 2.0], [3, 2])
        for fn in (tf.sparse.maximum, tf.sparse.minimum):
            for a, b in ((bad, inside), (inside, bad)):
                with pytest.raises(tf.errors.InvalidArgumentError,
                                   match=re.escape(f"indices[1, :] = {row} is out of bounds")):
                    fn(a, b)


def test_sparse_tensor_op_and_graph_are_its_values():
    st = tf.sparse.SparseTensor([[0, 1]], [1.0], [2, 2])
    with pytest.raises(AttributeError, match="Tensor.op is undefined when eager execution"):
        st.op  # noqa: B018
    with pytest.raises(AttributeError, match="Tensor.graph is undefined when eager"):
        st.graph  # noqa: B018
    graph = tf.Graph()
    with graph.as_default():
        st = tf.sparse.SparseTensor([[0, 1]], tf.constant([1.0]), [2, 2])
        assert st.graph is graph and st.op is st.values.op


def test_sparse_reshape_to_a_negative_size_names_it():
    st = tf.sparse.SparseTensor([[0, 1]], [1.0], [3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="size 0 must be non-negative, not -2"):
        tf.sparse.reshape(st, [-2, 6])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="only one output dimension may be -1, not both 0 and 1"):
        tf.sparse.reshape(st, [-1, -1])
