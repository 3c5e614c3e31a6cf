"""TF 1 names that TF 2 renamed or dropped (``tf.compat.v1.sparse_*``, `sparse_to_dense`,
`setdiff1d`, ...), with TF 2.21's values and errors."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def _sparse(st):
    return (st.indices.numpy().tolist(), st.values.numpy().tolist(),
            st.dense_shape.numpy().tolist())


ST = tf.SparseTensor([[0, 1], [1, 0], [1, 2]], [1.0, 2.0, 3.0], [2, 3])
ST2 = tf.SparseTensor([[0, 1], [1, 1]], [10.0, 20.0], [2, 3])


def test_v1_sparse_functions_take_tf1_arguments():
    added = ([[0, 1], [1, 0], [1, 1], [1, 2]], [11.0, 2.0, 20.0, 3.0], [2, 3])
    assert _sparse(tf1.sparse_add(ST, ST2)) == added
    assert _sparse(tf1.sparse.add(ST, ST2, thresh=5.0)) == added  # (kept: not summed)
    assert _sparse(tf1.sparse_concat(1, [ST, ST2])) == (
        [[0, 1], [0, 4], [1, 0], [1, 2], [1, 4]], [1.0, 10.0, 2.0, 3.0, 20.0], [2, 6])
    assert _sparse(tf1.sparse.concat(axis=None, concat_dim=0, sp_inputs=[ST, ST2])) == (
        [[0, 1], [1, 0], [1, 2], [2, 1], [3, 1]], [1.0, 2.0, 3.0, 10.0, 20.0], [4, 3])
    assert float(tf1.sparse_reduce_sum(ST)) == 6.0
    assert tf1.sparse_reduce_sum(ST, reduction_axes=1, keep_dims=True).numpy().tolist() == \
        [[1.0], [5.0]]
    assert _sparse(tf1.sparse_reduce_sum_sparse(ST, 0)) == ([[0], [1], [2]], [2.0, 1.0, 3.0],
                                                            [3])
    assert tf1.sparse_reduce_max(ST, 1).numpy().tolist() == [1.0, 3.0]
    assert _sparse(tf1.sparse.reduce_max_sparse(ST, 1)) == ([[0], [1]], [1.0, 3.0], [2])
    assert [_sparse(s) for s in tf1.sparse_split(sp_input=ST, num_split=3, axis=1)] == [
        ([[1, 0]], [2.0], [2, 1]), ([[0, 0]], [1.0], [2, 1]), ([[1, 0]], [3.0], [2, 1])]
    with pytest.raises(ValueError, match="Keyword arguments are required for this function."):
        tf1.sparse.split(ST, 2, 1)
    merged = tf1.sparse_merge(
        tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([3, 1, 2], tf.int64), [2, 2]),
        tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [0.5, 0.25, 1.0], [2, 2]), 4)
    assert _sparse(merged) == ([[0, 1], [0, 3], [1, 2]], [0.25, 0.5, 1.0], [2, 4])
    assert tf1.sparse.matmul(ST, tf.ones([3, 2])).numpy().tolist() == [[1.0, 1.0], [5.0, 5.0]]
    data = tf.constant([[1.0, 2], [3, 4], [5, 6]])
    assert tf1.sparse_segment_sum(data, [0, 2], [0, 0], None, 2).numpy().tolist() == [
        [6.0, 8.0], [0.0, 0.0]]
    assert tf1.sparse.segment_mean(data, [0, 1, 2], [0, 0, 1]).numpy().tolist() == [
        [2.0, 3.0], [5.0, 6.0]]
    np.testing.assert_allclose(tf1.sparse_segment_sqrt_n(data, [0, 1, 2], [0, 0, 1]),
                               [[2.828427, 4.2426405], [5.0, 6.0]], rtol=1e-6)
    assert _sparse(tf1.sparse_reset_shape(ST, [3, 4]))[2] == [3, 4]
    for name in ("reorder", "to_dense", "retain", "placeholder", "SparseTensor"):
        assert hasattr(tf1.sparse, name)


def test_sparse_matmul_and_sparse_to_dense():
    product = tf1.sparse_matmul([[1.0, 0], [0, 2]], [[1.0, 2], [3, 4]], transpose_b=True)
    assert (product.dtype, product.numpy().tolist()) == (tf.float32, [[1.0, 3.0], [4.0, 8.0]])
    assert tf1.sparse_matmul([[1, 0]], [[1], [2]]).numpy().tolist() == [[1.0]]
    dense = tf1.sparse_to_dense([[0, 1], [1, 2]], [2, 3], [5, 6])
    assert (dense.dtype, dense.numpy().tolist()) == (tf.int32, [[0, 5, 0], [0, 0, 6]])
    assert tf1.sparse_to_dense([1, 3], [5], 7, default_value=-1).numpy().tolist() == [
        -1, 7, -1, 7, -1]
    assert tf1.sparse_to_dense(2, [4], 1.5).numpy().tolist() == [0.0, 0.0, 1.5, 0.0]


def test_small_tf1_functions():
    out, idx = tf1.setdiff1d([1, 2, 3, 4, 5, 6], [1, 3, 5])
    assert (out.numpy().tolist(), idx.numpy().tolist(), idx.dtype) == ([2, 4, 6], [1, 3, 5],
                                                                        tf.int32)
    out, idx = tf1.setdiff1d(tf.constant([5.0, 1.0, 5.0, 2.0]), [1.0], index_dtype=tf.int64)
    assert (out.numpy().tolist(), idx.numpy().tolist(), idx.dtype) == ([5.0, 5.0, 2.0],
                                                                        [0, 2, 3], tf.int64)
    named = tf1.setdiff1d([1, 2], [2])  # TF's named pair
    assert type(named).__name__ == "ListDiff" and named.out.numpy().tolist() == [1] and \
        named.idx.numpy().tolist() == [0]
    assert tf1.floor_div(tf.constant([7, -7]), 2).numpy().tolist() == [3, -4]
    tf.random.set_seed(None)
    assert tf1.get_seed(None) == (None, None)
    assert tf1.verify_tensor_all_finite(tf.constant([1.0]), "bad").numpy().tolist() == [1.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad : Tensor had NaN values"):
        tf1.verify_tensor_all_finite(tf.constant([np.nan]), "bad")
    assert tf1.batch_gather(tf.constant([[1, 2, 3], [4, 5, 6]]),
                            tf.constant([[2, 0], [1, 1]])).numpy().tolist() == [[3, 1], [5, 5]]
    assert tf1.bincount(tf.constant([1, 1, 3]), minlength=5).numpy().tolist() == [0, 2, 0, 1, 0]
    np.testing.assert_allclose(tf1.clip_by_average_norm(tf.constant([3.0, 4.0]), 1.0),
                               [1.2, 1.6], rtol=1e-6)
    assert tf1.random_poisson(2.0, [3], seed=1).shape == (3,)
    patches = tf1.extract_image_patches(tf.reshape(tf.range(16.0), [1, 4, 4, 1]),
                                        ksizes=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                                        rates=[1, 1, 1, 1], padding="VALID")
    assert patches.numpy().tolist() == [[[[0.0, 1.0, 4.0, 5.0], [2.0, 3.0, 6.0, 7.0]],
                                         [[8.0, 9.0, 12.0, 13.0], [10.0, 11.0, 14.0, 15.0]]]]
    assert tf1.matrix_square_root(tf.constant([[4.0, 0], [0, 9]])).numpy().tolist() == [
        [2.0, 0.0], [0.0, 3.0]]
    with pytest.raises(RuntimeError, match=r"tf.parallel_stack\(\) is not compatible with "
                                           r"eager execution."):
        tf1.parallel_stack([tf.constant([1, 2])])
    assert int(tf1.guarantee_const(tf.constant(3))) == 3 and tf1.no_regularizer(5) is None
    st = tf1.convert_to_tensor_or_sparse_tensor(tf1.SparseTensorValue([[0]], [1], [2]))
    assert _sparse(st) == ([[0]], [1], [2])
    assert tf1.convert_to_tensor_or_sparse_tensor([1, 2]).numpy().tolist() == [1, 2]
    assert tf1.convert_to_tensor_or_indexed_slices([1.0, 2]).dtype == tf.float32
    np.testing.assert_allclose(tf1.zeta(2.0, 1.0), 1.644934, rtol=1e-6)
    with tf1.colocate_with(tf.constant(1)):
        pass
    with tf1.container("c") as name:
        assert name == "c"


def test_tf1_scopes_and_check_numerics_ops():
    with tf.Graph().as_default():
        with tf1.op_scope([], "opscope") as scope:
            assert scope == "opscope/"
        with tf1.variable_op_scope([], "vs", "dflt") as scope:
            assert scope.name == "vs"
        x = tf1.placeholder(tf.float32, [2])
        y = tf.sqrt(x)
        check = tf1.add_check_numerics_ops()
        assert check.type == "NoOp"
        assert tf1.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4])]).shape == (2, 2)
        with tf1.Session() as sess:
            assert sess.run([y, check], {x: [4.0, 9.0]})[0].tolist() == [2.0, 3.0]
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="Sqrt:0 : Tensor had NaN values"):
                sess.run([y, check], {x: [-1.0, 9.0]})
    with pytest.raises(RuntimeError, match=r"add_check_numerics_ops\(\) is not compatible "
                                           r"with eager execution."):
        tf1.add_check_numerics_ops()


def test_string_split():
    cases = [((["hello world", "a  b c", ""],), (
                [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [b"hello", b"world", b"a", b"b", b"c"],
                [3, 3])),
             ((["a,b;;c", "d"], ",;"), ([[0, 0], [0, 1], [0, 2], [1, 0]],
                                         [b"a", b"b", b"c", b"d"], [2, 3])),
             ((["a,b;;c", "d"], ",;", False), ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]],
                                                [b"a", b"b", b"", b"c", b"d"], [2, 4])),
             ((["ab", "c"], ""), ([[0, 0], [0, 1], [1, 0]], [b"a", b"b", b"c"], [2, 2])),
             # an empty string has no tokens, even an empty one kept by skip_empty=False
             ((["", "a ", " "], " ", False), ([[1, 0], [1, 1], [2, 0], [2, 1]],
                                               [b"a", b"", b"", b""], [3, 2])),
             ((["", ""], ", ", False), ([], [], [2, 0]))]
    for args, want in cases:
        assert _sparse(tf1.string_split(*args)) == want, args
    assert tf1.string_split(["a b", "c"], result_type="RaggedTensor").to_list() == [
        [b"a", b"b"], [b"c"]]
    assert _sparse(tf1.string_split(["a b", "c"], delimiter="b")) == (
        [[0, 0], [1, 0]], [b"a ", b"c"], [2, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="input must be a vector, got "
                                                             "shape: "):
        tf1.string_split("a b")
    with pytest.raises(ValueError, match="result_type must be 'RaggedTensor' or "
                                         "'SparseTensor'."):
        tf1.string_split(["a"], result_type="x")
    with tf.Graph().as_default():
        x = tf1.placeholder(tf.string, [None])
        st = tf1.string_split(x)
        with tf1.Session() as sess:
            value = sess.run(st, {x: ["a b", "c d e"]})
    assert value.indices.tolist() == [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]]
    assert value.values.tolist() == [b"a", b"b", b"c", b"d", b"e"]
    assert value.dense_shape.tolist() == [2, 3]


def test_v1_strings_split_gives_a_sparse_tensor_by_default():
    tokens = tf.compat.v1.strings.split(tf.constant(["a b", "c"]))
    assert isinstance(tokens, tf.SparseTensor)
    assert tokens.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert tokens.values.numpy().tolist() == [b"a", b"b", b"c"]
    assert tokens.dense_shape.numpy().tolist() == [2, 2]
    ragged = tf.compat.v1.strings.split(source=["a,b"], sep=",", result_type="RaggedTensor")
    assert ragged.to_list() == [[b"a", b"b"]]
    assert tf.compat.v1.strings.lower("AB").numpy() == b"ab"  # (TF 2's other names)


def test_v1_constant_verifies_shape_and_pads_in_graphs():
    assert tf1.constant([1, 2], tf.float32, [2], "x", True).numpy().tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match=r"^Expected Tensor \[1 2\] \(converted from \[1, 2\]\) "
                                        r"with shape \(1, 2\), but got shape \(2,\)\.$"):
        tf1.constant([1, 2], shape=[1, 2], verify_shape=True)
    with pytest.raises(TypeError, match=r"with shape \(3,\), but got shape \(\)"):
        tf1.constant(1, shape=[3], verify_shape=True)
    assert tf1.constant(1, shape=[3]).numpy().tolist() == [1, 1, 1]
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match=r"^Expected Tensor's shape: \(3,\), but got \(2,\)"):
            tf1.constant([1, 2], shape=[3], verify_shape=True)
        padded = [tf1.constant([1, 2], shape=[3]), tf1.constant([1, 2], shape=[2, 2])]
        with pytest.raises(ValueError, match="Too many elements provided. Takes at most 2, "
                                             "but got 3."):
            tf1.constant([1, 2, 3], shape=[2])
        with tf1.Session() as sess:
            got = sess.run(padded)
    assert [g.tolist() for g in got] == [[1, 2, 2], [[1, 2], [2, 2]]]


def test_v1_where_is_tf1_select():
    # TF 1's where does not broadcast: a vector condition picks rows of x and y
    x, y = tf.constant([[1., 2.], [3., 4.]]), tf.constant([[5., 6.], [7., 8.]])
    assert tf1.where([True, False], x, y).numpy().tolist() == [[1., 2.], [7., 8.]]
    assert tf1.where(True, x, y).numpy().tolist() == [[1., 2.], [3., 4.]]
    assert tf1.where([[True, False], [False, True]], x, y).numpy().tolist() == [[1., 6.],
                                                                                [7., 4.]]
    assert tf1.where([[True, False]]).numpy().tolist() == [[0, 0]]
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf1.where([True, False], x, y)
    gx, gy = tape.gradient(z, [x, y])
    assert gx.numpy().tolist() == [[1., 1.], [0., 0.]]
    assert gy.numpy().tolist() == [[0., 0.], [1., 1.]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have the same size"):
        tf1.where([True, False], [1, 2], [[5, 6], [7, 8]])
    with pytest.raises(ValueError, match="both be non-None"):
        tf1.where([True], [1])
    # where_v2 broadcasts
    assert tf1.where_v2([True, False], x, y).numpy().tolist() == [[1., 6.], [3., 8.]]
