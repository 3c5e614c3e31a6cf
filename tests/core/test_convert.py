"""Conversion of Python lists (holding tensors, or what no tensor holds), as TF converts them."""
import numpy as np
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


def test_numpy_text_arrays_parse_into_a_requested_number_type():
    # TF converts a NumPy array of text to a numeric dtype as NumPy's astype does (numbers
    # read from a CSV as strings); a Python list of strings stays a TypeError
    assert tf.constant(np.array(["1", "20"]), tf.int64).numpy().tolist() == [1, 20]
    assert tf.convert_to_tensor(np.array([b"1.5"]), tf.float32).numpy().tolist() == [1.5]
    assert tf.constant(np.array(["True", ""]), tf.bool).numpy().tolist() == [True, False]
    assert tf.constant(np.array("7"), tf.int32).numpy() == 7
    with pytest.raises(ValueError, match=r"^invalid literal for int\(\) with base 10: "
                                         r"np.str_\('a'\)$"):
        tf.constant(np.array(["a"]), tf.int64)
    with pytest.raises(OverflowError, match="out of bounds for int32"):
        tf.constant(np.array(["3000000000"]), tf.int32)
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.constant(["1"], tf.int64)
    lookup = tf.keras.layers.IntegerLookup(vocabulary=np.array(["10", "20"]))
    assert lookup(tf.constant([20, 10, 5])).numpy().tolist() == [2, 1, 0]
