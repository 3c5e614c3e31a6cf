"""tf.make_tensor_proto / tf.make_ndarray: TF's TensorProto fields and text (TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


def test_printed_form_of_a_list():
    assert str(tf.make_tensor_proto([1, 2])) == (
        'dtype: DT_INT32\ntensor_shape {\n  dim {\n    size: 2\n  }\n}\n'
        'tensor_content: "\\001\\000\\000\\000\\002\\000\\000\\000"\n')


def test_fields_as_tf_uses_them():
    scalar = tf.make_tensor_proto(1.5)
    assert list(scalar.float_val) == [1.5] and not scalar.tensor_content
    broadcast = tf.make_tensor_proto(3, shape=[2, 2])
    assert list(broadcast.int_val) == [3] and len(broadcast.tensor_shape.dim) == 2
    assert list(tf.make_tensor_proto([b"a", "b"]).string_val) == [b"a", b"b"]
    assert list(tf.make_tensor_proto(np.array([True, False])).bool_val) == [True, False]
    assert list(tf.make_tensor_proto(np.array([1 + 2j], np.complex64)).scomplex_val) == [1, 2]
    assert list(tf.make_tensor_proto(np.array([1.0], np.float16)).half_val) == [15360]
    assert tf.make_tensor_proto(np.int64(7)).int64_val == [7]
    assert tf.make_tensor_proto([1, 2], dtype=tf.float32).dtype == tf.float32.as_datatype_enum
    assert tf.make_tensor_proto(tf.constant([1, 2])).tensor_content == (
        b"\x01\x00\x00\x00\x02\x00\x00\x00")
    short = tf.make_tensor_proto([1, 2], shape=[4])
    assert list(short.int_val) == [1, 2]
    proto = tf.make_tensor_proto([1, 2])
    assert tf.make_tensor_proto(proto) is proto


def test_errors():
    with pytest.raises(ValueError, match="Too many elements provided. Takes at most 2, but "
                                         "got 3."):
        tf.make_tensor_proto([1, 2, 3], shape=[2])
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(3,\), but got \(2,\)."):
        tf.make_tensor_proto([1, 2], verify_shape=True, shape=[3])
    with pytest.raises(ValueError, match="None values not supported."):
        tf.make_tensor_proto(None)
    with pytest.raises(TypeError, match="Expected int32, but got 1.5 of type 'float'."):
        tf.make_tensor_proto([[1], [1.5]], dtype=tf.int32)


def test_round_trip():
    cases = [([1, 2], np.int32), (1.5, np.float32), ([[1.0, 2.0], [3.0, 4.0]], np.float32),
             (np.array([1 + 2j], np.complex64), np.complex64),
             (np.array([1.0], np.float16), np.float16), (np.arange(3, dtype=np.uint64), np.uint64)]
    for value, dtype in cases:
        array = tf.make_ndarray(tf.make_tensor_proto(value))
        assert array.dtype == dtype and array.flags.writeable
        np.testing.assert_array_equal(array, np.asarray(value, dtype))
    assert tf.make_ndarray(tf.make_tensor_proto(3, shape=[2, 2])).tolist() == [[3, 3], [3, 3]]
    assert tf.make_ndarray(tf.make_tensor_proto([b"a"])).tolist() == [b"a"]
    assert tf.make_ndarray(tf.make_tensor_proto(np.zeros([2, 0], np.float32))).shape == (2, 0)
    bf16 = tf.make_ndarray(tf.make_tensor_proto(np.array([1.0], tf.bfloat16.as_numpy_dtype)))
    assert bf16.dtype == tf.bfloat16.as_numpy_dtype and float(bf16[0]) == 1.0
