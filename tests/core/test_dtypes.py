import numpy as np
import pytest

import eagerflow as tf
from tests.internals import dtypes


def test_names_repr_and_str():
    assert tf.float32.name == "float32"
    assert repr(tf.float32) == "tf.float32"
    assert str(tf.int64) == "<dtype: 'int64'>"


@pytest.mark.parametrize("value, expected", [
    ("float32", tf.float32), ("float", tf.float32), ("double", tf.float64), ("half", tf.float16),
    (np.float64, tf.float64), (np.dtype("int8"), tf.int8), (float, tf.float32), (bool, tf.bool),
    (tf.int32, tf.int32), (1, tf.float32), (9, tf.int64), (np.str_, tf.string),
    (np.bytes_, tf.string),
])
def test_as_dtype(value, expected):
    assert tf.as_dtype(value) is expected


@pytest.mark.parametrize("bad", ["foo", int, str, bytes, None, object(), 999])
def test_as_dtype_rejects(bad):
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.as_dtype(bad)


def test_equality_with_numpy_and_names():
    assert tf.float32 == np.float32 and tf.float32 == "float32"
    assert tf.float32 != tf.float64 and not (tf.float32 == None)  # noqa: E711
    assert hash(tf.float32) == hash(tf.as_dtype("float32"))


def test_attributes():
    assert tf.float32.is_floating and not tf.float32.is_integer
    assert tf.uint8.is_unsigned and tf.uint8.is_integer
    assert tf.complex64.is_complex and tf.complex64.real_dtype is tf.float32
    assert tf.bool.is_bool and not tf.bool.is_numeric
    assert tf.int32.min == -2**31 and tf.uint8.max == 255
    assert tf.float16.max == np.finfo(np.float16).max
    assert tf.bfloat16.max > 3e38 and tf.bfloat16.size == 2
    assert tf.string.as_numpy_dtype is object and tf.string.size == 0
    assert tf.float64.as_datatype_enum == 2 and tf.float32.base_dtype is tf.float32
    assert tf.float32.is_compatible_with(np.float32)
    with pytest.raises(TypeError):
        tf.string.max


@pytest.mark.parametrize("dtype", [tf.bool, tf.string, tf.complex64, tf.qint8])
def test_min_max_only_for_real_numbers(dtype):
    with pytest.raises(TypeError, match="Cannot find minimum value"):
        dtype.min
    with pytest.raises(TypeError, match="Cannot find maximum value"):
        dtype.max


def test_limits_are_intensity_ranges():
    assert tf.uint8.limits == (0, 255) and tf.int8.limits == (0, 127)
    assert tf.float32.limits == (0, 1) and tf.bool.limits == (0, True)
    with pytest.raises(ValueError, match="does not have defined limits"):
        tf.float16.limits


def test_from_numpy_covers_every_numeric_dtype():
    for d in dtypes.ALL:
        if d.is_numpy_compatible and d is not tf.string:
            assert dtypes.from_numpy(np.dtype(d.as_numpy_dtype)) is d
