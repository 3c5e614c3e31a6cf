"""Frequent eager calls (slicing, division, casts, dtype comparisons, range) skip the work
that cannot change their result, and keep their results and errors doing so."""
import gc
import sys

import numpy as np
import pytest

import eagerflow as tf


def _python_calls(fn):
    """The Python functions `fn()` runs, by name (C functions are not counted)."""
    seen = []

    def profile(frame, event, arg):
        if event == "call":
            seen.append(frame.f_code.co_name)
    gc.disable()
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
        gc.enable()
    return seen[1:]


def _outcome(fn):
    """(values, dtype) of ``fn()``, or (error class, message)."""
    try:
        t = fn()
    except Exception as e:  # noqa: BLE001 (the error is the outcome compared)
        return type(e), str(e)
    return np.asarray(t.numpy()).tolist(), t.dtype, t.shape


def _as_the_op_runs(fn):
    """`fn()` run through the op itself, as while a tape records."""
    with tf.GradientTape():
        return _outcome(fn)


KEYS = [0, -1, 3, -4, 9, slice(None), slice(1, None), slice(None, None, -1), slice(5, 1, -2),
        slice(-100, 100), slice(None, None, 0), None, Ellipsis, (Ellipsis, None),
        (1, slice(None, None, 2)), (slice(1, None), slice(None, None, 2)), (Ellipsis, 0),
        (None, Ellipsis, None), (0, 0, 0), (Ellipsis, Ellipsis), (0, Ellipsis, 1), (),
        (slice(0, 2), None, -1), (True,), (np.int32(1),), (slice(np.int64(1), None),)]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_eager_slicing_matches_the_strided_slice_op(key):
    x = tf.reshape(tf.range(12), [4, 3])
    assert _outcome(lambda: x[key]) == _as_the_op_runs(lambda: x[key])


@pytest.mark.parametrize("key", [0, (Ellipsis,), None, slice(None)], ids=repr)
def test_eager_slicing_of_a_scalar_matches_the_op(key):
    x = tf.constant(2.5)
    assert _outcome(lambda: x[key]) == _as_the_op_runs(lambda: x[key])


def test_eager_slicing_indexes_without_the_op():
    x = tf.reshape(tf.range(12.0), [4, 3])
    for key in [(slice(1, None), slice(None, None, 2)), (Ellipsis, None), 1]:
        assert "dispatch" not in _python_calls(lambda: x[key])
    assert x[1].numpy().tolist() == [3.0, 4.0, 5.0]
    assert type(x[1, 2].numpy()) is np.float32  # a 0-d result is still a tensor's value
    assert x[1, 2].shape == []


def test_slicing_records_on_a_tape_and_in_functions():
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(x[1:, ::-1] * [[1.0, 10.0]])
    assert tape.gradient(y, x).numpy().tolist() == [[0.0, 0.0], [10.0, 1.0]]
    f = tf.function(lambda t: t[..., None][1:])
    assert f(tf.constant([1, 2, 3])).numpy().tolist() == [[2], [3]]


def test_float_division_runs_the_kernel_directly_and_keeps_its_checks():
    x, y = tf.constant([1.0, 3.0]), tf.constant([2.0, 4.0])
    assert "dispatch" not in _python_calls(lambda: x / y)
    assert (x / y).numpy().tolist() == [0.5, 0.75]
    assert (x / 2.0).dtype == tf.float32
    assert (tf.constant([1, 3]) / 2).dtype == tf.float64
    assert (tf.constant([1.0], tf.float16) / 2.0).dtype == tf.float16
    with pytest.raises(TypeError, match="must have the same dtype"):
        x / tf.constant([2.0, 4.0], tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        x / tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = x / y
    assert tape.gradient(z, x).numpy().tolist() == [0.5, 0.25]


def test_dtype_comparison_of_two_dtypes_converts_nothing():
    assert "as_dtype" not in _python_calls(lambda: tf.float32 == tf.int32)
    assert tf.float32 != tf.int32 and tf.float32 == tf.float32
    assert tf.float32 == np.float32 and tf.float32 == "float32" and tf.float32 != "int32"


def test_cast_of_a_tensor_compares_dtypes_without_conversions():
    x = tf.constant([1.5, -2.5])
    assert _python_calls(lambda: tf.cast(x, tf.int32)).count("as_dtype") == 1  # `dtype`
    assert tf.cast(x, tf.float32) is x
    assert tf.cast(x, tf.int32).numpy().tolist() == [1, -2]
    with pytest.raises(tf.errors.UnimplementedError, match="Cast float to string"):
        tf.cast(x, tf.string)


SHAPES = [[], 3, 0, (2, 3), [0, 4], [2, -1], [2.0], [True], [np.int32(2)], tf.TensorShape([2])]


@pytest.mark.parametrize("shape", SHAPES, ids=repr)
@pytest.mark.parametrize("dtype", [tf.float32, tf.int32, tf.bool, tf.bfloat16, tf.string])
@pytest.mark.parametrize("fn", [tf.zeros, tf.ones], ids=["zeros", "ones"])
def test_zeros_and_ones_match_the_fill_op(fn, dtype, shape):
    assert _outcome(lambda: fn(shape, dtype)) == _as_the_op_runs(lambda: fn(shape, dtype))


def test_zeros_of_python_ints_make_no_shape_tensor():
    assert "dispatch" not in _python_calls(lambda: tf.zeros([4, 8]))
    assert "dispatch" not in _python_calls(lambda: tf.ones(3, tf.int64))
    assert tf.zeros([2, 0]).shape == [2, 0]
    assert tf.ones((2,), tf.bool).numpy().tolist() == [True, True]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.zeros([2, -1])


@pytest.mark.parametrize("args", [(5,), (0,), (-3,), (2, 10, 3), (5, 0, -2), (1, 5, 0),
                                  (0, 2**31, 2**30), (2**31 - 2, 2**31 + 1), (True,), (1.5,),
                                  (3, 1.0), (-2**31, -2**31 + 3)], ids=repr)
def test_range_of_python_numbers_keeps_its_dtypes_and_errors(args):
    assert _outcome(lambda: tf.range(*args)) == _as_the_op_runs(lambda: tf.range(*args))


def test_range_of_int32_python_ints_casts_nothing():
    assert "cast" not in _python_calls(lambda: tf.range(100))
    assert tf.range(2, 10, 3).dtype == tf.int32
    assert tf.range(2**31, 2**31 + 2).dtype == tf.int64


CLIPS = [([1, 5, 9], 2, 6), ([1, 5, 9], 0.5, 6), ([[1.0, 5.0, 9.0]], 2, 6.5),
         ([[1.0, 5.0, 9.0]], [[2.0], [3.0]], 6.0), ([1.0, 5.0], 2**40, 3), ([1, 5], 2**40, 3),
         ([1.0, 5.0], float("-inf"), 3.0), ([1.0, 5.0], True, 3.0)]


@pytest.mark.parametrize("values, low, high", CLIPS, ids=repr)
def test_clip_by_value_with_python_bounds_matches_the_ops(values, low, high):
    x = tf.constant(values)
    assert _outcome(lambda: tf.clip_by_value(x, low, high)) == _as_the_op_runs(
        lambda: tf.clip_by_value(x, low, high))


def test_clip_by_value_reuses_the_constants_of_its_bounds():
    x = tf.constant([0.1, 0.5, 0.9])
    tf.clip_by_value(x, 0.2, 0.8)
    assert "to_array" not in _python_calls(lambda: tf.clip_by_value(x, 0.2, 0.8))
    assert tf.clip_by_value(x, 0.2, 0.8).numpy().tolist() == pytest.approx([0.2, 0.5, 0.8])


ARRAYS = [np.arange(6, dtype=np.float32).reshape(2, 3), np.arange(6).reshape(2, 3).T,
          np.array(True), np.zeros((0, 2), np.uint16), np.array([1 + 2j], np.complex64),
          np.array([1.5], ">f8"), np.array(["a"]), np.array([b"x"], object),
          np.array([1.0], np.dtype("float32")).view(np.matrix), np.array([1], np.float16)]


@pytest.mark.parametrize("array", ARRAYS, ids=lambda a: f"{type(a).__name__}-{a.dtype}")
@pytest.mark.parametrize("fn", [tf.constant, tf.convert_to_tensor],
                         ids=["constant", "convert_to_tensor"])
def test_arrays_convert_to_a_copy_as_before(fn, array):
    outcome = _outcome(lambda: fn(array))
    assert outcome == _as_the_op_runs(lambda: fn(array))
    if isinstance(outcome[0], type):  # (an error: big-endian arrays are not supported)
        return
    t = fn(array)
    if isinstance(t.numpy(), np.ndarray) and t.numpy().size:
        assert not np.shares_memory(t.numpy(), array)  # the tensor keeps its value


def test_a_numeric_array_converts_in_one_step():
    a = np.ones((4, 8), np.float32)
    assert len(_python_calls(lambda: tf.constant(a))) <= 3
    assert len(_python_calls(lambda: tf.convert_to_tensor(a))) <= 3
    assert tf.convert_to_tensor(np.array([1, 2]), dtype_hint=tf.float32).dtype == \
        _as_the_op_runs(lambda: tf.convert_to_tensor(np.array([1, 2]), dtype_hint=tf.float32))[1]
