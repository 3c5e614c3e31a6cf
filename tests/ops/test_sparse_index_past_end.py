"""An entry indexed past the end of a SparseTensor's first dimension keeps its index through
the ops that order entries row-major (TF's kernels do not check it there): the sparse guide
adds such tensors."""
import eagerflow as tf


def test_sparse_add_keeps_an_index_past_the_first_dimension():
    st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
    st_b = tf.sparse.SparseTensor(indices=[[0, 2], [7, 0]], values=[56, 38],
                                  dense_shape=[4, 10])
    total = tf.sparse.add(st_a, st_b)
    assert total.indices.numpy().tolist() == [[0, 2], [3, 4], [7, 0]]
    assert total.values.numpy().tolist() == [87, 2, 38]
    assert total.dense_shape.numpy().tolist() == [4, 10]


def test_sparse_reshape_keeps_it_too():
    st_b = tf.sparse.SparseTensor(indices=[[5, 1]], values=[4], dense_shape=[4, 10])
    reshaped = tf.sparse.reshape(st_b, [8, 5])
    assert reshaped.indices.numpy().tolist() == [[10, 1]]  # (position 51 of rows of 5)
