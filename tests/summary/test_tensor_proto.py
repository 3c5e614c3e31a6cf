"""tf.make_tensor_proto / tf.make_ndarray, as used to read summary tensors back (the protos
and arrays TF 2.21 gave for the same calls)."""
import numpy as np
import pytest

import eagerflow as tf


def test_scalar_goes_to_its_val_field_and_python_floats_are_float32():
    p = tf.make_tensor_proto(1.0)
    assert p.dtype == tf.float32.as_datatype_enum
    assert list(p.float_val) == [1.0] and not p.tensor_content
    assert list(tf.make_tensor_proto(np.int64(3)).int64_val) == [3]
    assert list(tf.make_tensor_proto(True).bool_val) == [True]
    assert tf.make_tensor_proto([[1, 2], [3, 4]]).dtype == tf.int32.as_datatype_enum


def test_several_numbers_are_tensor_content_and_strings_string_val():
    p = tf.make_tensor_proto([1.0, 2.0])
    assert p.tensor_content == b"\x00\x00\x80?\x00\x00\x00@"  # TF 2.21's bytes
    assert [d.size for d in p.tensor_shape.dim] == [2]
    s = tf.make_tensor_proto([b"a", "b"])
    assert list(s.string_val) == [b"a", b"b"] and s.dtype == tf.string.as_datatype_enum


def test_one_value_fills_the_shape():
    p = tf.make_tensor_proto(2.0, dtype=tf.float64, shape=[2, 2])
    assert list(p.double_val) == [2.0]
    np.testing.assert_array_equal(tf.make_ndarray(p), np.full((2, 2), 2.0))
    np.testing.assert_array_equal(tf.make_ndarray(tf.make_tensor_proto([1, 2], shape=[3])),
                                  [1, 2, 2])


def test_shape_errors():
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(3,\), but got \(2,\)"):
        tf.make_tensor_proto([1, 2], shape=[3], verify_shape=True)
    with pytest.raises(ValueError, match="Too many elements provided. Takes at most 1, but "
                                         "got 2"):
        tf.make_tensor_proto([1, 2], shape=[1])


def test_make_ndarray_round_trips_tensors_and_strings():
    a = tf.make_ndarray(tf.make_tensor_proto(tf.constant([[1, 2]])))
    assert a.dtype == np.int32 and a.tolist() == [[1, 2]] and a.flags.writeable
    s = tf.make_ndarray(tf.make_tensor_proto("ab"))
    assert s.dtype == object and s.shape == () and s.item() == b"ab"


def test_make_ndarray_reads_a_summary_events_tensor(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        tf.summary.scalar("loss", 0.5, step=3)
        tf.summary.text("note", "hi", step=3)
    writer.flush()
    (name,) = [n for n in tmp_path.iterdir()]
    found = {v.tag: tf.make_ndarray(v.tensor)
             for e in tf.compat.v1.train.summary_iterator(str(name)) for v in e.summary.value}
    assert found["loss"] == np.float32(0.5) and found["note"].item() == b"hi"
