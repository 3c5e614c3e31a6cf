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
