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


LRN_INPUT = np.random.RandomState(0).randn(2, 3, 2, 7).astype(np.float32)


@pytest.mark.parametrize("args, value, grad", [
    ((), [0.460188, 0.101323, 0.247825, 0.567414, 0.472882, -0.247455],
     [-0.52018, -0.09449, -0.10561, 0.04553, 0.27742, -0.27049]),
    ((1, 2.0, 0.5, 0.75), [0.669951, 0.138502, 0.289682, 0.536084, 0.446843, -0.307495],
     [-0.01234, 0.07321, 0.09954, -0.17094, -0.11912, -0.10449]),
    ((2, 1.0, 1.0, 1.0), [0.337299, 0.039034, 0.071236, 0.193472, 0.151525, -0.085974],
     [-0.00626, -0.00932, -0.04986, -0.09057, -0.21789, 0.08697]),
])
def test_local_response_normalization_and_its_gradient(args, value, grad):
    v = tf.Variable(LRN_INPUT)
    with tf.GradientTape() as tape:
        y = tf.nn.local_response_normalization(v, *args)
        z = tf.reduce_sum(y * y * tf.constant(np.arange(7, dtype=np.float32)))
    np.testing.assert_allclose(y.numpy().ravel()[:6], value, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(tape.gradient(z, v).numpy().ravel()[:6], grad, rtol=1e-3,
                               atol=2e-5)


def test_local_response_normalization_checks_and_converts_like_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="in must be 4-dimensional"):
        tf.nn.local_response_normalization(np.ones([2, 3], np.float32))
    assert tf.nn.lrn(np.ones([1, 1, 1, 2])).dtype == tf.float32  # NumPy float64: float32
    half = tf.nn.local_response_normalization(tf.ones([1, 1, 1, 2], tf.float16), 1)
    assert half.dtype == tf.float16
    got = tf.function(lambda a: tf.nn.local_response_normalization(a, 2))(LRN_INPUT)
    np.testing.assert_allclose(got.numpy().ravel()[:3], [0.771371, 0.124979, 0.264049],
                               rtol=1e-5)


POOL_INPUT = np.random.RandomState(0).randn(2, 7, 6, 3).astype(np.float32)


@pytest.mark.parametrize("args, kwargs, shape, head", [
    (([2, 2], "MAX"), dict(dilations=[2, 2]), (2, 5, 4, 3),
     [1.76405, 1.95078, 0.97874, 2.24089, 1.86756, 1.45427]),
    (([3, 2], "AVG"), dict(dilations=[2, 1]), (2, 3, 5, 3),
     [0.89792, 0.05265, -0.3304, 0.03101, 0.30063, -0.79236]),
    (([3, 3], "AVG"), dict(strides=[2, 2], padding="SAME"), (2, 4, 3, 3), None),
])
def test_pool(args, kwargs, shape, head):
    got = tf.nn.pool(POOL_INPUT, *args, **kwargs)
    assert got.shape == shape
    if head is not None:
        np.testing.assert_allclose(got.numpy().ravel()[:6], head, rtol=1e-4, atol=1e-5)
    else:
        np.testing.assert_allclose(got, tf.nn.avg_pool2d(POOL_INPUT, 3, 2, "SAME"))


def test_dilated_pool_gradient_and_errors():
    v = tf.Variable(POOL_INPUT)
    with tf.GradientTape() as tape:
        y = tf.nn.pool(v, [2, 2], "AVG", dilations=[2, 2])
    np.testing.assert_allclose(tape.gradient(y, v).numpy().ravel()[:8], [0.25] * 6 + [0.5] * 2)
    with pytest.raises(ValueError, match=r"pooling with 'SAME' padding is not implemented for "
                                         r"`dilation_rate` > 1. Received: padding=SAME and "
                                         r"dilation_rate=\[2 2\]"):
        tf.nn.pool(POOL_INPUT, [2, 2], "MAX", padding="SAME", dilations=[2, 2])
    with pytest.raises(ValueError, match="`strides > 1` not supported in conjunction"):
        tf.nn.pool(POOL_INPUT, [2, 2], "MAX", strides=[2, 2], dilations=[2, 2])
    with pytest.raises(ValueError, match="2-D MIN pooling is not supported."):
        tf.nn.pool(POOL_INPUT, [2, 2], "MIN")


def test_atrous_conv2d():
    w = np.ones([2, 2, 3, 4], np.float32)
    got = tf.nn.atrous_conv2d(POOL_INPUT, w, 2, "SAME")
    assert got.shape == (2, 7, 6, 4)
    np.testing.assert_allclose(got.numpy().ravel()[::4][:2], [0.77589, -2.23287], rtol=1e-5)
    got = tf.nn.atrous_conv2d(POOL_INPUT, w, 3, "VALID")
    assert got.shape == (2, 4, 3, 4)
    np.testing.assert_allclose(got.numpy().ravel()[::4][:2], [3.66789, 1.68844], rtol=1e-5)
    with pytest.raises(ValueError, match=r"all values of `dilation_rate` must be positive. "
                                         r"Received: dilation_rate=\[0 0\]"):
        tf.nn.atrous_conv2d(POOL_INPUT, w, 0, "VALID")


def test_max_pool_with_argmax():
    x = np.random.RandomState(0).randn(2, 5, 5, 3).astype(np.float32)
    x[0, 0, 0, 0] = x[0, 0, 1, 0] = 9.0  # a tie: the first in row-major order wins
    out = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
    assert type(out).__name__ == "MaxPoolWithArgmax" and out.argmax.dtype == tf.int64
    assert out.argmax.numpy().ravel()[:8].tolist() == [0, 4, 2, 24, 22, 11, 30, 31]
    assert out.argmax.numpy()[1].ravel()[:3].tolist() == [18, 16, 20]
    same = tf.nn.max_pool_with_argmax(x, 3, 2, "SAME")
    assert same.output.shape == (2, 3, 3, 3)
    assert same.argmax.numpy().ravel()[:8].tolist() == [0, 4, 2, 3, 4, 11, 24, 28]
    batch = tf.nn.max_pool_with_argmax(x, [1, 2, 3, 1], [1, 1, 2, 1], "VALID",
                                       include_batch_in_index=True, output_dtype=tf.int32)
    assert batch.argmax.dtype == tf.int32
    assert batch.argmax.numpy()[1].ravel()[:3].tolist() == [93, 97, 95]
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.max_pool_with_argmax(v, 3, 2, "SAME").output ** 2)
    grad = tape.gradient(y, v)
    np.testing.assert_allclose(grad.numpy().ravel()[:5], [18, 0, 1.9575, 18, 7.4702], atol=1e-4)
    np.testing.assert_allclose(float(tf.reduce_sum(grad)), 165.2926, rtol=1e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="tensor_in must be 4-dimensional"):
        tf.nn.max_pool_with_argmax(x[0], 2, 2, "VALID")


MDCT_SIGNAL = np.sin(np.arange(32) / 3.0).astype(np.float32)


def test_mdct_and_inverse():
    got = tf.signal.mdct(MDCT_SIGNAL, 8)
    assert got.shape == (7, 4)
    np.testing.assert_allclose(got.numpy().ravel()[:6],
                               [-5.3314, 0.3123, -0.4455, -0.0057, -1.6503, 1.7868], atol=1e-4)
    assert tf.signal.mdct(MDCT_SIGNAL[:30], 8, pad_end=True).shape == (8, 4)
    np.testing.assert_allclose(
        tf.signal.mdct(MDCT_SIGNAL, 8, window_fn=None, norm="ortho").numpy().ravel()[:4],
        [-1.9009, -0.133, 0.099, 0.078], atol=1e-4)
    assert tf.signal.mdct(MDCT_SIGNAL.astype(np.float64), 16).dtype == tf.float64
    with pytest.raises(ValueError, match="The frame length must be a multiple of 4."):
        tf.signal.mdct(MDCT_SIGNAL, 6)
    # The windowed transform (Princen-Bradley) gives back the inner samples
    back = tf.signal.inverse_mdct(got)
    assert back.shape == (32,)
    np.testing.assert_allclose(back[4:-4], MDCT_SIGNAL[4:-4], atol=1e-5)
    ortho = tf.signal.inverse_mdct(tf.signal.mdct(MDCT_SIGNAL, 8, norm="ortho"), norm="ortho")
    np.testing.assert_allclose(ortho[4:-4], MDCT_SIGNAL[4:-4], atol=1e-5)
