"""Small behaviours of core ops compared with TF 2.21's (values recorded from it)."""
import numpy as np
import pytest

import eagerflow as tf


def test_erfcinv():
    got = tf.math.erfcinv([0.0, 0.2, 1.0, 1.5, 2.0, -1.0, 3.0])
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got, [np.inf, 0.9061935, -0.0, -0.4769363, -np.inf, np.nan,
                                     np.nan], rtol=1e-6)
    assert np.signbit(got.numpy()[2])
    assert tf.math.erfcinv(tf.constant([0.2], tf.float64)).dtype == tf.float64
    with pytest.raises(TypeError, match="Cannot convert 0.5 to EagerTensor of dtype int32"):
        tf.math.erfcinv(tf.constant([1]))


def test_complex_ffts_convert_lists_and_arrays_to_complex64():
    got = tf.signal.fft([1.0, 2.0])
    assert got.dtype == tf.complex64
    np.testing.assert_allclose(got, [3, -1])
    assert tf.signal.fft(np.array([1.0, 2.0])).dtype == tf.complex64
    assert tf.signal.ifft(np.array([1, 2])).dtype == tf.complex64
    assert tf.signal.fft2d([[1, 2]]).dtype == tf.complex64
    assert tf.signal.fft3d(np.ones([1, 1, 2], np.complex128)).dtype == tf.complex64
    assert tf.signal.fft(tf.constant([1 + 0j])).dtype == tf.complex128  # tensors keep theirs
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tcomplex"):
        tf.signal.fft(tf.constant([1.0, 2.0]))


def test_complex_fft_of_python_complex_list_keeps_complex128():
    assert tf.signal.fft([1 + 1j, 2]).dtype == tf.complex128
    assert tf.signal.fft(tf.Variable([1 + 0j])).dtype == tf.complex128
