"""tf.math.sobol_sample against TF 2.21's values, shapes and errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.errors import InvalidArgumentError

pytest.importorskip("scipy")


def test_sobol_sample_values_skip_and_dtype():
    np.testing.assert_array_equal(tf.math.sobol_sample(2, 3, skip=5).numpy(),
                                  [[0.625, 0.125], [0.125, 0.625], [0.1875, 0.3125]])
    assert tf.math.sobol_sample(1111, 2).numpy()[:, -3:].tolist() == [[0.5] * 3,
                                                                      [0.75, 0.25, 0.75]]
    # far along the sequence: the low bits of 32-bit directions
    far = tf.math.sobol_sample(7, 2, skip=2 ** 20 + 3).numpy()
    np.testing.assert_array_equal(far[0, :3], np.float32([0.3750014305114746, 0.09375715255737305, 0.05457258224487305]))
    assert tf.math.sobol_sample(3, 4, dtype=tf.float64).dtype == tf.float64


def test_sobol_sample_shapes_in_a_function():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def sample(n):
        points = tf.math.sobol_sample(2, n)
        assert points.shape.as_list() == [None, 2]
        return points
    assert sample(tf.constant(3)).shape == (3, 2)


@pytest.mark.parametrize("kwargs, message", [
    (dict(dim=0, num_results=2), "dim must be at least one"),
    (dict(dim=21201, num_results=1), "dim must be at most 21200"),
    (dict(dim=2, num_results=0), "num_results must be at least one"),
    (dict(dim=2, num_results=2, skip=-1), "skip must be non-negative"),
    (dict(dim=2, num_results=2, dtype=tf.int32), "attr 'dtype' of int32"),
])
def test_sobol_sample_errors(kwargs, message):
    with pytest.raises(InvalidArgumentError, match=message):
        tf.math.sobol_sample(**kwargs)


def test_i0_i1_and_ei_of_float32_overflow_where_tfs_exp_does():
    # TF multiplies by exp(x) in float32: infinite from x = 88.72284 though I0 fits
    x = tf.constant([88.7228, 88.72284, 89.5, -89.5, np.inf], tf.float32)
    np.testing.assert_allclose(tf.math.bessel_i0(x).numpy()[:1], [1.443214e+37], rtol=1e-6)
    np.testing.assert_array_equal(tf.math.bessel_i0(x).numpy()[1:], [np.inf, np.inf, np.inf, np.nan])
    np.testing.assert_array_equal(tf.math.bessel_i1(x).numpy()[1:], [np.inf, np.inf, -np.inf, np.nan])
    np.testing.assert_array_equal(tf.math.special.expint(x).numpy()[1:], [np.inf, np.inf, np.nan, np.nan])
    # float64 overflows only with its own exp; half types take float32's
    np.testing.assert_allclose(tf.math.bessel_i0(tf.constant(709.0, tf.float64)), 1.23154771e+306,
                               rtol=1e-8)
    np.testing.assert_allclose(tf.math.bessel_i0(tf.constant([11.5], tf.float16)).numpy(), [11740.0],
                               rtol=1e-3)


def test_erfinv_of_float32_takes_tfs_float32_steps():
    # TF's float kernel rounds x + 1 in float32 first: its values near +1 (not near -1) move
    y = tf.math.erfinv(tf.constant([0.999, -0.999, 0.9999, 1.0, -1.0, 1.1], tf.float32))
    np.testing.assert_allclose(y.numpy()[:3], [2.3267682, -2.3267562, 2.751035],
                               rtol=4e-7)
    np.testing.assert_array_equal(y.numpy()[3:], [np.inf, -np.inf, np.nan])
    x = tf.Variable([0.999])
    with tf.GradientTape() as tape:
        y = tf.math.erfinv(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [198.9529], rtol=2e-6)
