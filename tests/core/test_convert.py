"""Conversion of Python lists holding tensors, as TF converts them."""
import eagerflow as tf


def test_lists_of_graph_tensors_convert_to_another_dtype_by_casts():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def f(n):
        shape = tf.convert_to_tensor([n + 1, 2], tf.int64)  # as TF's packing, cast
        dense = tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 1]], [1.0], [n + 1, 2]))
        return shape, dense, tf.convert_to_tensor([[n, 1], [2, 3]], tf.float32)
    shape, dense, floats = f(tf.constant(2))
    assert shape.dtype == tf.int64 and shape.numpy().tolist() == [3, 2]
    assert dense.numpy().tolist() == [[0, 1], [0, 0], [0, 0]]
    assert floats.dtype == tf.float32 and floats.numpy().tolist() == [[2, 1], [2, 3]]
