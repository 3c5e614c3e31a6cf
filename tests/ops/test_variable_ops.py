"""Variable slices that can be assigned to, and the scatter/gather methods of Variable."""
import numpy as np
import pytest

import eagerflow as tf


def test_slice_assign_writes_only_the_slice():
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    before = v.read_value()
    out = v[0, 1].assign(7.0)
    assert repr(out).startswith("<tf.Variable 'UnreadVariable' shape=(2, 3)")
    v[1].assign([1, 2, 3])  # Python values convert to the variable's dtype
    v[:, 0].assign(0.5)  # broadcast
    assert v.numpy().tolist() == [[0.5, 7.0, 3.0], [0.5, 2.0, 3.0]]
    assert before.numpy().tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]  # a snapshot


def test_slice_assign_errors():
    v = tf.Variable([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot broadcast input shape"):
        v[1:].assign([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype"):
        v[0].assign(tf.constant(1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        v[5].assign(1.0)


def test_slice_reads_are_plain_tensor_values():
    v = tf.Variable([1, 2, 3])
    assert v[1:].numpy().tolist() == [2, 3] and (v[0] + 1).numpy() == 2
    assert v[tf.constant([True, False, True])].numpy().tolist() == [1, 3]
    assert not hasattr(v[0], "assign_add")


def test_scatter_and_gather_methods():
    v = tf.Variable(tf.zeros([2, 3]))
    v.scatter_nd_update([[0, 0]], [5.0])
    v.scatter_nd_add([[0, 0], [1, 1]], [1.0, 2.0])
    v.scatter_nd_sub([[1, 1]], [0.5])
    v.scatter_nd_max([[1, 2]], [-1.0])
    v.scatter_nd_min([[0, 0]], [4.0])
    np.testing.assert_array_equal(v.numpy(), [[4, 0, 0], [0, 1.5, 0]])
    assert v.gather_nd([[1, 1]]).numpy().tolist() == [1.5]
    assert v.sparse_read([1]).shape == (1, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not index into shape"):
        v.scatter_nd_update([[5, 0]], [1.0])


def test_scatter_methods_take_indexed_slices_rows():
    v = tf.Variable(tf.zeros([3, 2]))
    v.scatter_add(tf.IndexedSlices(tf.ones([2, 2]), tf.constant([1, 1])))  # repeats add up
    v.scatter_mul(tf.IndexedSlices(tf.constant([[2.0, 3.0], [4.0, 5.0]]), tf.constant([1, 1])))
    v.scatter_max(tf.IndexedSlices(tf.constant([[2.0, 3.0]]), tf.constant([0])))
    out = v.scatter_update(tf.IndexedSlices(tf.constant([7.0, 8.0]), tf.constant(2)))
    assert repr(out).startswith("<tf.Variable 'UnreadVariable' shape=(3, 2)")
    v.scatter_sub(tf.IndexedSlices(tf.ones([1, 2]), tf.constant([1])))
    v.scatter_min(tf.IndexedSlices(tf.constant([[1.0, 9.0]]), tf.constant([0])))
    np.testing.assert_array_equal(v.numpy(), [[1, 3], [15, 29], [7, 8]])
    w = tf.Variable([1, 5, 3])
    w.scatter_div(tf.IndexedSlices(tf.constant([2]), tf.constant([1])))
    assert w.numpy().tolist() == [1, 2, 3]

    @tf.function
    def halve_first_row():
        v.scatter_div(tf.IndexedSlices(tf.constant([[2.0, 2.0]]), tf.constant([0])))
        return v.read_value()
    np.testing.assert_array_equal(halve_first_row().numpy()[0], [0.5, 1.5])
    with pytest.raises(TypeError, match="must be a `tf.IndexedSlices`"):
        v.scatter_update(tf.ones([2]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        v.scatter_update(tf.IndexedSlices(tf.ones([1, 2]), tf.constant([5])))


def test_sparse_read_takes_int32_or_int64_indices_only():
    v = tf.Variable([1.0, 2.0])
    assert v.sparse_read(tf.constant([1], tf.int64)).numpy().tolist() == [2.0]
    for indices in (tf.constant([0], tf.int16), tf.constant([0.0])):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"^Value for attr 'Tindices' of \w+ is not in the list of "
                                 r"allowed values: int32, int64\n.*\{\{node ResourceGather\}\}"):
            v.sparse_read(indices)

    @tf.function
    def read(i):
        return v.sparse_read(i)
    with pytest.raises(TypeError, match="Value passed to parameter 'indices' has DataType "
                                        "int16 not in list of allowed values: int32, int64"):
        read(tf.constant([0], tf.int16))


def test_scatter_methods_spread_a_scalar_update_over_the_rows():
    m = tf.Variable(tf.zeros([4, 3]))
    m.scatter_add(tf.IndexedSlices(tf.ones([]), [0, 1]))
    m.scatter_mul(tf.IndexedSlices(3.0, [1, 1]))
    tf.function(lambda: m.scatter_max(tf.IndexedSlices(4.0, [2])))()
    m.scatter_sub(tf.IndexedSlices(1.0, [[0, 3]]))
    assert m.numpy().tolist() == [[0.0] * 3, [9.0] * 3, [4.0] * 3, [-1.0] * 3]
    v = tf.Variable([1, 2, 3])
    assert v.scatter_add(tf.IndexedSlices(10, [0, 2])).numpy().tolist() == [11, 2, 13]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Must have updates.shape = indices.shape \+ params.shape\[1:\] "
                             r"or updates.shape = \[\], got updates.shape \[3\], indices.shape "
                             r"\[1\], params.shape \[4,3\] \[Op:ResourceScatterUpdate\]"):
        m.scatter_update(tf.IndexedSlices(tf.constant([5.0, 6.0, 7.0]), [0]))
