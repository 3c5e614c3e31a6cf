"""Tensors and variables meet NumPy arrays and Python's protocols as TF 2's do."""
import numpy as np
import pytest

import eagerflow as tf


def test_big_endian_arrays_convert_to_the_same_numbers():
    a = np.array([1.5, 2.0], ">f4")
    assert tf.constant(a).numpy().tolist() == [1.5, 2.0]
    assert tf.constant(np.array([1, 300], ">i4")).dtype == tf.int32
    assert (tf.constant([1., 2.]) + a).numpy().tolist() == [2.5, 4.0]
    assert tf.Variable(a).numpy().tolist() == [1.5, 2.0]
    assert tf.convert_to_tensor(np.array([1, 2], ">i8"), dtype=tf.int64).numpy().tolist() == [1, 2]
    doubled = tf.function(lambda: tf.constant(np.array([1, 2], ">i2")) * 2)()
    assert doubled.dtype == tf.int16 and doubled.numpy().tolist() == [2, 4]
    first = next(iter(tf.data.Dataset.from_tensor_slices(np.array([7, 2], ">i4"))))
    assert int(first) == 7


@pytest.mark.parametrize("array, name", [
    (np.array(["2020-01-01"], "datetime64[D]"), "Unsupported numpy type: NPY_DATETIME"),
    (np.array([1], "timedelta64[s]"), "Unsupported numpy type: NPY_TIMEDELTA"),
    (np.array([1.5], np.longdouble), "Unsupported numpy type: NPY_LONGDOUBLE"),
    (np.zeros(2, dtype=[("a", "i4")]), "Unsupported numpy data type"),
])
def test_arrays_of_dtypes_no_tensor_holds_raise_value_error(array, name):
    if array.dtype == np.float64:
        pytest.skip("long double is double on this platform")
    message = f"Failed to convert a NumPy array to a Tensor \\({name}\\)"
    with pytest.raises(ValueError, match=message):
        tf.constant(array)
    with pytest.raises(ValueError, match="Failed to convert a NumPy array"):
        tf.Variable(array)


def test_long_double_takes_a_requested_dtype():
    assert tf.constant(np.longdouble(1.5), dtype=tf.float32).numpy() == 1.5
    summed = tf.constant([1.], tf.float64) + np.array([1.5], np.longdouble)
    assert summed.numpy().tolist() == [2.5]
    summed = tf.constant(2) + np.longdouble(1)
    assert summed.dtype == tf.int32 and int(summed) == 3
    assert (tf.constant(2.0) * np.longdouble(1)).dtype == tf.float32


def test_empty_tensors_are_false():
    assert bool(tf.constant([])) is False
    assert bool(tf.zeros([0, 3])) is False
    assert bool(tf.Variable([])) is False
    assert bool(tf.constant([0.5])) is True
    with pytest.raises(ValueError, match="more than one element"):
        bool(tf.constant([1, 2]))


def test_variables_are_no_indices():
    v = tf.Variable(1)
    with pytest.raises(TypeError):
        [10, 20, 30][v]
    with pytest.raises(TypeError):
        range(v)
    assert [10, 20, 30][tf.constant(1)] == 20  # (a tensor is)
    assert int(v) == 1
    assert tf.range(5)[v].numpy() == 1


def test_as_dtype_reads_big_endian_numpy_dtypes_and_rejects_python_complex():
    assert tf.as_dtype(np.dtype(">f4")) == tf.float32
    assert tf.as_dtype(np.dtype(">i8")) == tf.int64
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`"):
        tf.as_dtype(complex)
    assert tf.as_dtype(np.complex64) == tf.complex64


def test_numpy_float_axes_convert_to_int32_as_numpy_casts():
    x = tf.ones([2, 3])
    assert tf.reduce_sum(x, axis=np.float64(1)).numpy().tolist() == [3.0, 3.0]
    assert tf.reduce_sum(x, axis=np.array([0.5, 1.2])).numpy() == 6.0  # (truncated, as in TF)
    assert tf.math.cumsum(x, axis=np.float64(1.7)).numpy().tolist() == [[1, 2, 3], [1, 2, 3]]
    assert tf.argmin(x, axis=np.float64(1)).numpy().tolist() == [0, 0]
    with pytest.raises(TypeError, match="axis tensor dtypes float64 is not supported"):
        tf.argmax(x, axis=np.float64(1))
    with pytest.raises(TypeError, match="to EagerTensor of dtype int32"):
        tf.reduce_sum(x, axis=1.0)  # (a Python float is refused)


def test_numpy_float_shapes_and_index_arguments_convert_to_int32():
    x = tf.reshape(tf.range(6.), [2, 3])
    assert tf.zeros(np.array([2.7])).shape == [2]  # (truncated, as NumPy casts and TF does)
    assert tf.ones(np.float64(2)).shape == [2]
    assert tf.fill(np.array([2.]), 1.).numpy().tolist() == [1., 1.]
    assert tf.reshape(x, np.array([-1., 2.])).shape == [3, 2]
    assert tf.tile(x, np.array([1., 2.])).shape == [2, 6]
    assert tf.pad(x, np.array([[0., 1.], [1., 0.]])).shape == [3, 4]
    assert tf.transpose(x, perm=np.array([1., 0.])).shape == [3, 2]
    assert tf.expand_dims(x, np.float64(0)).shape == [1, 2, 3]
    assert tf.concat([x, x], axis=np.float64(0)).shape == [4, 3]
    # a tensor of floats, a Python float list, and the slice and roll indices are refused
    with pytest.raises(tf.errors.InvalidArgumentError, match="index_type"):
        tf.zeros(tf.constant([2.]))
    with pytest.raises(TypeError):
        tf.zeros([2.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Index"):
        tf.slice(x, np.array([0., 1.]), np.array([1., 2.]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tshift"):
        tf.roll(x, np.float64(1), axis=1)
