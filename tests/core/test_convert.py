"""Conversion of Python lists (holding tensors, or what no tensor holds), as TF converts them."""
import pytest

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


@pytest.mark.parametrize("value,dtype,error,text", [
    ([1, None], None, TypeError, r"^Failed to convert elements of \[1, None\] to Tensor\. "
                                 r"Consider casting elements to a supported type\. See "),
    ([[1, 2], [None, 3]], None, TypeError, r"^Failed to convert elements of \[\[1, 2\], "),
    (["a", 1], None, TypeError, r"^Failed to convert elements of \['a', 1\]"),
    ([None], None, TypeError, r"^Failed to convert elements of \[None\]"),
    ([1, "a"], tf.int32, TypeError, r"^Expected int32, but got a of type 'str'\.$"),
    ([1.5, None], tf.float32, TypeError, r"^Expected float32, but got None of type 'NoneType'"),
    (["a", 1], tf.string, TypeError, r"^Expected string, but got 1 of type 'int'\.$"),
])
def test_lists_a_graph_cannot_hold_fail_as_tfs_graph_conversion(value, dtype, error, text):
    # eagerly TF raises ValueError ("mixed types", "Attempt to convert a value (None)");
    # building a graph its TypeErrors (as recorded from TF 2.21)
    with pytest.raises(ValueError):
        tf.constant(value, dtype=dtype)

    @tf.function(autograph=False)
    def build():
        return tf.constant(value, dtype=dtype)
    with pytest.raises(error, match=text):
        build()


def test_a_list_holding_a_tensor_and_none_still_fails_as_packing_does_in_a_graph():
    @tf.function(autograph=False, input_signature=[tf.TensorSpec([None])])
    def f(x):
        return tf.fill([tf.shape(x)[0], None], 1.0)
    with pytest.raises(ValueError):  # (TF: "Tried to convert 'dims' to a tensor and failed")
        f(tf.ones([2]))
    with pytest.raises(TypeError, match=r"Failed to convert elements of \[1, None, 3\]"):
        tf.function(lambda x: tf.reshape(x, [1, None, 3]), autograph=False)(tf.ones([3]))


def test_none_in_a_graph_is_refused_as_tfs_graph_constants_refuse_it():
    with pytest.raises(ValueError, match=r"^Attempt to convert a value \(None\) with an "
                                         r"unsupported type"):
        tf.convert_to_tensor(None)

    @tf.function(autograph=False)
    def build():
        for make in (lambda: tf.convert_to_tensor(None), lambda: tf.add(None, 1.0),
                     lambda: tf.cast(None, tf.float32)):
            with pytest.raises(ValueError, match=r"^None values not supported\.$"):
                make()
        return 0
    build()
    with tf.compat.v1.Graph().as_default():
        with pytest.raises(ValueError, match=r"^None values not supported\.$"):
            tf.constant(None)
