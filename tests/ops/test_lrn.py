"""tf.nn.local_response_normalization (tf.nn.lrn) against TF's recorded values."""
import numpy as np
import pytest

import eagerflow as tf

X = np.arange(2 * 2 * 2 * 7, dtype=np.float32).reshape(2, 2, 2, 7) / 10


def test_values_and_gradient():
    np.testing.assert_allclose(tf.nn.local_response_normalization(X)[0, 0, 1],
                               [0.27268127, 0.27801922, 0.31277162, 0.34752402, 0.38227642,
                                0.41702884, 0.4657733], rtol=1e-6)
    np.testing.assert_allclose(tf.nn.lrn(X, depth_radius=2, bias=2.0, alpha=0.5, beta=0.75)[1, 1, 0],
                               [0.329753, 0.27100906, 0.23243783, 0.23014903, 0.22791976,
                                0.26930228, 0.3325398], rtol=1e-6)
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.lrn(v, 2, 1.0, 0.3, 0.6) * tf.range(7.0))
    np.testing.assert_allclose(tape.gradient(y, v)[0, 0, 1],
                               [-0.1976724, 0.26269138, 0.4892545, 0.4269047, 0.01642376,
                                0.7178878, 1.6821442], rtol=1e-5, atol=1e-6)
    assert tf.function(lambda a: tf.nn.lrn(a, 1))(X).shape == (2, 2, 2, 7)


def test_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="in must be 4-dimensional"):
        tf.nn.lrn(tf.ones([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="half, bfloat16, float"):
        tf.nn.lrn(tf.ones([1, 1, 1, 2], tf.float64))


def test_lrn_of_unknown_rank_is_four_dimensional_when_traced():
    traced = tf.function(tf.nn.local_response_normalization,
                         input_signature=[tf.TensorSpec(None, tf.float32)])
    assert traced.get_concrete_function().outputs[0].shape.as_list() == [None] * 4  # TF's
