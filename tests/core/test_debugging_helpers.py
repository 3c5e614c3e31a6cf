"""`tf.debugging` helpers and top-level aliases that TF 2.21 has (messages recorded from it)."""
import numpy as np
import pytest

import eagerflow as tf


def test_eig_aliases():
    assert tf.eig is tf.linalg.eig and tf.eigvals is tf.linalg.eigvals


def test_assert_same_float_dtype():
    assert tf.debugging.assert_same_float_dtype([tf.constant(1.0)]) == tf.float32
    assert tf.debugging.assert_same_float_dtype(None, tf.float64) == tf.float64
    assert tf.debugging.assert_same_float_dtype([]) == tf.float32
    with pytest.raises(ValueError, match=r"type=<dtype: 'float64'>, must be of the same type "
                                         r"\(<dtype: 'float32'>\) as tf.Tensor\(1.0"):
        tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(1.0, tf.float64)])
    with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>."):
        tf.debugging.assert_same_float_dtype([tf.constant(1)])
    with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>."):
        tf.debugging.assert_same_float_dtype(None, tf.int32)
    with pytest.raises(ValueError, match=r"type=<dtype: 'float32'>, must be of the same type "
                                         r"\(<dtype: 'float64'>\)\.$"):
        tf.debugging.assert_same_float_dtype([tf.constant(1.0)], tf.float64)


def test_assert_proper_iterable():
    assert tf.debugging.assert_proper_iterable([1]) is None
    for value in ("abc", b"x", np.array([1]), tf.constant([1])):
        with pytest.raises(TypeError, match='Expected argument "values" to be a "proper" '
                                            'iterable.  Found: '):
            tf.debugging.assert_proper_iterable(value)
    with pytest.raises(TypeError, match="Expected argument \"values\" to be iterable.  Found: "
                                        "<class 'int'>"):
        tf.debugging.assert_proper_iterable(5)


def test_traceback_filtering_and_device_placement_switches():
    assert tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.disable_traceback_filtering()
    try:
        assert not tf.debugging.is_traceback_filtering_enabled()
    finally:
        tf.debugging.enable_traceback_filtering()
    assert tf.debugging.get_log_device_placement() is False
    assert tf.debugging.set_log_device_placement(False) is None
