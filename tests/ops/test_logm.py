"""tf.linalg.logm against TF 2.21's values and errors."""
import inspect

import numpy as np
import pytest

import eagerflow as tf

A = [[2.0, 1.0, 0.5], [0.3, 3.0, 0.2], [0.1, 0.4, 1.5]]
# TF 2.21's logm(A) (complex128; its imaginary parts are 0)
LOG_A = [[0.6589272896444567, 0.39232338714995246, 0.27286354137692775],
         [0.12241712985587491, 1.0713111600656884, 0.07728464900226811],
         [0.04513248085360685, 0.17816986655898281, 0.3884238051229735]]


def test_signature_is_tfs():
    assert str(inspect.signature(tf.linalg.logm)) == "(input, name=None)"


def test_values_are_tfs():
    got = tf.linalg.logm(tf.constant(A, tf.complex128))
    assert got.dtype == tf.complex128
    np.testing.assert_allclose(got.numpy(), LOG_A, rtol=1e-12)
    got = tf.linalg.logm(tf.constant([[[-1.0, 0.0], [0.0, 1.0]]], tf.complex64))
    np.testing.assert_allclose(got.numpy(), [[[np.pi * 1j, 0], [0, 0]]], atol=1e-6)
    assert tf.linalg.logm(tf.zeros([0, 0], tf.complex64)).shape == (0, 0)


def test_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list of allowed"):
        tf.linalg.logm(tf.constant([[1.0, 0.0], [0.0, 2.0]], tf.float64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square"):
        tf.linalg.logm(tf.constant([[1.0, 2.0, 3.0]], tf.complex64))
    x = tf.Variable(tf.constant(A, tf.complex128))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.real(tf.linalg.logm(x)))
    with pytest.raises(LookupError, match="no entry for: MatrixLogarithm"):
        tape.gradient(y, x)


def test_in_a_function():
    f = tf.function(tf.linalg.logm, input_signature=[tf.TensorSpec([None, 3, 3], tf.complex128)])
    np.testing.assert_allclose(f(tf.constant([A], tf.complex128)).numpy(), [LOG_A], rtol=1e-12)
