"""Small public names TF programs use: erfcinv, traceback filtering switches, dtype and
iterable assertions, the experimental run-eagerly switches, is_symbolic_tensor and
AggregationMethod."""
import numpy as np
import pytest

import eagerflow as tf


def test_erfcinv():
    out = tf.math.erfcinv(tf.constant([0.5, 1.0, 1.5, 0.0, 2.0])).numpy()
    np.testing.assert_allclose(out, [0.4769363, 0.0, -0.4769363, np.inf, -np.inf], rtol=1e-6)
    assert np.signbit(out[1])  # -0.0, as TF's -ndtri(0.5) * sqrt(1/2)
    assert np.isnan(tf.math.erfcinv(3.0).numpy())


def test_traceback_filtering_switches():
    assert tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.disable_traceback_filtering()
    assert not tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.enable_traceback_filtering()
    assert tf.debugging.is_traceback_filtering_enabled()


def test_assert_same_float_dtype_and_proper_iterable():
    assert tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0)]) == \
        tf.float32
    assert tf.debugging.assert_same_float_dtype(None, tf.float64) == tf.float64
    with pytest.raises(ValueError, match=r"tf.Tensor\(2.0, shape=\(\), dtype=float64\), "
                                         r"type=<dtype: 'float64'>, must be of the same type"):
        tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0, tf.float64)])
    with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>"):
        tf.debugging.assert_same_float_dtype([tf.constant(1)])
    tf.debugging.assert_proper_iterable([1, 2])
    for bad in ("abc", tf.constant([1]), np.ones(2)):
        with pytest.raises(TypeError, match='Expected argument "values" to be a "proper"'):
            tf.debugging.assert_proper_iterable(bad)


def test_experimental_run_functions_eagerly():
    assert tf.config.experimental_functions_run_eagerly() is False
    tf.config.experimental_run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly() is True
    finally:
        tf.config.experimental_run_functions_eagerly(False)


def test_is_symbolic_tensor_and_aggregation_method():
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.is_symbolic_tensor(x))
        return x
    f(tf.constant(1))
    assert seen == [True]
    assert not tf.is_symbolic_tensor(tf.constant(1)) and not tf.is_symbolic_tensor(1)
    assert (tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT,
            tf.AggregationMethod.EXPERIMENTAL_TREE,
            tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N) == (0, 0, 1, 2)
