import numpy as np

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
