import numpy as np
import pytest

import eagerflow as tf


def test_numerical_jacobian_steps_by_a_power_of_two_in_the_arguments_dtype():
    # x +- 1/1024 and the division are exact: TF's numbers, to the last bit
    cube = lambda t: t * t * t  # noqa: E731
    _, (num,) = tf.test.compute_gradient(cube, [tf.constant([1.0, 2.0])])
    assert num.dtype == np.float32
    np.testing.assert_array_equal(num, np.diag([3.0, 12.0]))
    _, (num,) = tf.test.compute_gradient(cube, [tf.constant([1.0, 2.0], tf.float64)])
    np.testing.assert_array_equal(num, np.diag([3.0, 12.0]) + np.diag([2.0 ** -20] * 2))
    _, (num,) = tf.test.compute_gradient(cube, [tf.constant([1.0, 2.0], tf.float16)])
    np.testing.assert_array_equal(num, np.diag([3.0, 6.0]))  # 2 + 1/1024 rounds to 2


def test_theoretical_and_numerical_jacobians_of_several_arguments():
    theo, num = tf.test.compute_gradient(lambda a, b: a * b + tf.sin(a),
                                         [tf.constant([0.5, 1.5], tf.float64),
                                          tf.constant(2.0, tf.float64)], delta=1e-6)
    np.testing.assert_allclose(theo[0], np.diag(2.0 + np.cos([0.5, 1.5])))
    np.testing.assert_allclose(theo[1], [[0.5], [1.5]])
    for t, n in zip(theo, num):
        np.testing.assert_allclose(t, n, rtol=1e-8)


def test_complex_values_count_as_real_and_imaginary_pairs():
    # TF's convention: rows for y's (re, im), columns for x's (re, im)
    theo, num = tf.test.compute_gradient(lambda z: z * z, [tf.constant([1 + 2j], tf.complex64)])
    np.testing.assert_array_equal(theo[0], [[2.0, -4.0], [4.0, 2.0]])
    np.testing.assert_array_equal(num[0], [[2.0, -4.0], [4.0, 2.0]])
    assert theo[0].dtype == num[0].dtype == np.float32
    theo, num = tf.test.compute_gradient(tf.abs, [tf.constant([1 + 2j, 3j], tf.complex128)])
    expected = [[1 / 5 ** 0.5, 2 / 5 ** 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
    np.testing.assert_allclose(theo[0], expected)
    np.testing.assert_allclose(num[0], expected, rtol=1e-6)
    theo, num = tf.test.compute_gradient(lambda x: tf.complex(x, 2 * x),
                                         [tf.constant([1.0], tf.float64)])
    np.testing.assert_array_equal(theo[0], [[1.0], [2.0]])
    np.testing.assert_array_equal(num[0], [[1.0], [2.0]])


def test_non_float_arguments_and_results_are_refused_as_tf_does():
    with pytest.raises(AssertionError, match="unsupported type int32 of argument 1"):
        tf.test.compute_gradient(lambda x, y: x * tf.cast(y, tf.float32),
                                 [tf.constant([1.0]), tf.constant([2])])
    with pytest.raises(AssertionError, match="unsupported type int32 of y"):
        tf.test.compute_gradient(lambda x: tf.cast(x, tf.int32), [tf.constant([1.0])])
    with pytest.raises(ValueError, match="must be a list or tuple"):
        tf.test.compute_gradient(lambda x: x * 2.0, tf.constant([3.0]))
