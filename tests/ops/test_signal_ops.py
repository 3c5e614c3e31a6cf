"""tf.signal: FFT values, dtypes and static shapes, errors, shifts, windows and framing,
with the printed forms TensorFlow 2.21 gives for the same calls."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import errors
from tests.op_errors import op_text

S = tf.signal
_X = [1 + 2j, 3 - 1j, 0.5 + 0j, 2j]


def test_public_names_are_tfs():
    for name in ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d",
                 "irfft2d", "rfft3d", "irfft3d", "fftshift", "ifftshift", "hann_window",
                 "hamming_window", "frame"]:
        assert callable(getattr(S, name))
    assert not hasattr(tf, "spectral")


def test_complex_transforms_print_like_tf():
    x = tf.constant(_X, tf.complex64)
    assert str(S.fft(x)) == ("tf.Tensor([ 4.5+3.j -2.5-1.j -1.5+1.j  3.5+5.j], shape=(4,), "
                             "dtype=complex64)")
    assert str(S.ifft(x)) == ("tf.Tensor([ 1.125+0.75j  0.875+1.25j -0.375+0.25j -0.625-0.25j], "
                              "shape=(4,), dtype=complex64)")
    assert str(S.fft2d(tf.reshape(x, [2, 2]))) == (
        "tf.Tensor(\n[[ 4.5+3.j -1.5+1.j]\n [ 3.5-1.j -2.5+5.j]], shape=(2, 2), dtype=complex64)")
    assert repr(S.fft([1 + 1j, 2])) == (
        "<tf.Tensor: shape=(2,), dtype=complex128, numpy=array([ 3.+1.j, -1.+1.j])>")


def test_real_transforms_crop_and_pad_like_tf():
    r = tf.constant([1., 2., 3., 4., 5.])
    assert str(S.rfft(r, [4])) == ("tf.Tensor([10.+0.j -2.+2.j -2.+0.j], shape=(3,), "
                                   "dtype=complex64)")
    np.testing.assert_allclose(S.rfft(r, [8]), np.fft.rfft(np.arange(1, 6), 8), rtol=1e-6)
    np.testing.assert_allclose(S.irfft(S.rfft(r), [5]), r, rtol=1e-6)
    assert S.irfft(S.rfft(r)).shape == [4]  # default length 2 * (m - 1)
    assert repr(S.rfft([1, 2])) == ("<tf.Tensor: shape=(2,), dtype=complex64, "
                                    "numpy=array([ 3.+0.j, -1.+0.j], dtype=complex64)>")
    assert S.rfft(tf.constant([1., 2.], tf.float64)).dtype == tf.complex128
    assert S.irfft3d(tf.ones([2, 3, 4], tf.complex128)).dtype == tf.float64
    assert str(S.irfft2d(tf.ones([2, 3], tf.complex64))) == (
        "tf.Tensor(\n[[1. 0. 0. 0.]\n [0. 0. 0. 0.]], shape=(2, 4), dtype=float32)")
    assert S.rfft3d(tf.ones([2, 3, 4])).shape == [2, 3, 3]
    assert str(S.irfft(tf.constant(_X, tf.complex64), [2])) == (
        "tf.Tensor([ 2. -1.], shape=(2,), dtype=float32)")


def test_irfft_ignores_imaginary_parts_of_unpaired_frequencies_like_tf():
    # TF 2.21 gives the same values: the DC and Nyquist terms contribute their real parts.
    y = S.irfft(tf.constant([1 + 5j, 2 - 1j, 3 + 7j], tf.complex128))
    np.testing.assert_allclose(y, [2., 0., 0., -1.])


def test_empty_inputs_give_empty_outputs():
    assert S.fft(tf.zeros([0], tf.complex64)).shape == [0]
    assert S.irfft(tf.zeros([0], tf.complex64)).shape == [0]
    assert S.rfft(tf.ones([2, 0])).shape == [2, 0]
    assert S.irfft2d(tf.ones([0, 2], tf.complex64)).shape == [0, 2]


@pytest.mark.parametrize("call, cls, message", [
    (lambda: S.fft(tf.constant([1., 2.])), errors.InvalidArgumentError,
     "Value for attr 'Tcomplex' of float is not in the list of allowed values: complex64, "
     "complex128\n\t; NodeDef: {{node FFT}}; Op<name=FFT> [Op:FFT]"),
    (lambda: S.rfft(tf.constant([1j])), ValueError,
     "RFFT requires tf.float32 or tf.float64 inputs, got: tf.Tensor([0.+1.j], shape=(1,), "
     "dtype=complex128)"),
    (lambda: S.irfft(tf.constant([1.])), ValueError,
     "IRFFT requires tf.complex64 or tf.complex128 inputs, got: tf.Tensor([1.], shape=(1,), "
     "dtype=float32)"),
    (lambda: S.fft2d(tf.constant([1j])), errors.InvalidArgumentError,
     "Input must have rank of at least 2 but got: [1] [Op:FFT2D]"),
    (lambda: S.fft(tf.constant(1j)), errors.InvalidArgumentError,
     "Input must have rank of at least 1 but got: [] [Op:FFT]"),
    (lambda: S.rfft(tf.constant(1.)), ValueError, "Shape () must have rank at least 1"),
    (lambda: S.rfft2d(tf.ones([5])), ValueError, "Shape (5,) must have rank at least 2"),
    (lambda: S.rfft(tf.ones([5]), [1, 2]), errors.InvalidArgumentError,
     "fft_length must have shape [1] [Op:RFFT]"),
    (lambda: S.rfft2d(tf.ones([2, 2]), [1, 2, 3]), errors.InvalidArgumentError,
     "fft_length must have shape [2] [Op:RFFT2D]"),
    (lambda: S.rfft(tf.ones([5]), [-1]), errors.InvalidArgumentError,
     "fft_length[0] must >= 0, but got: -1 [Op:RFFT]"),
    (lambda: S.rfft(tf.ones([5]), [3.0]), TypeError, "Cannot convert [3.0] to EagerTensor of "
     "dtype int32"),
    (lambda: S.hann_window(3, dtype=tf.int32), ValueError,
     "dtype must be a floating point type. Found <dtype: 'int32'>"),
    (lambda: S.hann_window([3]), ValueError, "Shape (1,) must have rank 0"),
])
def test_errors_match_tf(call, cls, message):
    with pytest.raises(cls) as info:
        call()
    assert op_text(info.value) == message


def test_static_shapes_in_a_function():
    shapes = []

    @tf.function
    def f(a):
        y = S.rfft2d(a, [4, 6])
        shapes.extend([y.shape, S.irfft(y).shape, S.fft(y).shape, S.irfft(y, [7]).shape])
        return S.rfft(a)
    concrete = f.get_concrete_function(tf.TensorSpec([None, 3, None]))
    assert [s.as_list() for s in shapes] == [[None, 4, 4], [None, 4, 6], [None, 4, 4],
                                             [None, 4, 7]]
    # Unknown sizes: the default length is found at run time.
    np.testing.assert_allclose(concrete(tf.ones([1, 3, 4])), np.fft.rfft(np.ones([1, 3, 4])))


def test_gradients_match_tf_and_go_beyond_it():
    # TF's values for d/dx sum(|rfft(x, [6])|); TF 2.21 itself fails for cropping lengths
    # and has no RFFT3D/IRFFT3D gradients, which the finite-difference sweep covers here.
    x = tf.constant([[1., 2., 3., 4.]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.abs(S.rfft(x, [6])))
    np.testing.assert_allclose(tape.gradient(loss, x),
                               [[0.3162927, 1.6032817, 0.79884696, 3.57353]], rtol=1e-5)


def test_shifts():
    assert str(S.fftshift(tf.range(5))) == "tf.Tensor([3 4 0 1 2], shape=(5,), dtype=int32)"
    assert str(S.ifftshift(tf.range(5))) == "tf.Tensor([2 3 4 0 1], shape=(5,), dtype=int32)"
    assert str(S.fftshift(tf.reshape(tf.range(6), [2, 3]), axes=1)) == (
        "tf.Tensor(\n[[2 0 1]\n [5 3 4]], shape=(2, 3), dtype=int32)")
    x = tf.reshape(tf.range(12), [3, 4])
    np.testing.assert_array_equal(S.ifftshift(S.fftshift(x)), x)


def test_windows_print_like_tf():
    assert str(S.hann_window(4)) == "tf.Tensor([0.  0.5 1.  0.5], shape=(4,), dtype=float32)"
    # Odd lengths come out symmetric whether periodic or not, as in TF.
    assert str(S.hann_window(5)) == str(S.hann_window(5, periodic=False)) == (
        "tf.Tensor([0.  0.5 1.  0.5 0. ], shape=(5,), dtype=float32)")
    assert str(S.hann_window(4, False)) == (
        "tf.Tensor([0.         0.75       0.74999994 0.        ], shape=(4,), dtype=float32)")
    assert str(S.hann_window(1)) == "tf.Tensor([1.], shape=(1,), dtype=float32)"
    assert S.hann_window(0).shape == [0]
    assert str(S.hamming_window(6, dtype=tf.float64)) == (
        "tf.Tensor([0.08 0.31 0.77 1.   0.77 0.31], shape=(6,), dtype=float64)")
    assert str(S.hamming_window(7, dtype=tf.float16)) == (
        "tf.Tensor([0.0801 0.3098 0.7695 1.     0.7705 0.3108 0.0801], shape=(7,), "
        "dtype=float16)")


def test_frame_like_tf():
    x = tf.reshape(tf.range(14), [2, 7])
    assert str(S.frame(x, 3, 2, pad_end=True, pad_value=-1)) == (
        "tf.Tensor(\n[[[ 0  1  2]\n  [ 2  3  4]\n  [ 4  5  6]\n  [ 6 -1 -1]]\n\n"
        " [[ 7  8  9]\n  [ 9 10 11]\n  [11 12 13]\n  [13 -1 -1]]], shape=(2, 4, 3), "
        "dtype=int32)")
    np.testing.assert_array_equal(S.frame(x, 3, 2), np.asarray(S.frame(x, 3, 2, True))[:, :3])
    assert S.frame(x, 4, 3, axis=0, pad_end=True).shape == [1, 4, 7]
    assert S.frame(x, 8, 2).shape == [2, 0, 8]
    assert str(S.frame(x, 3, 5, pad_end=True)) == (
        "tf.Tensor(\n[[[ 0  1  2]\n  [ 5  6  0]]\n\n [[ 7  8  9]\n  [12 13  0]]], "
        "shape=(2, 2, 3), dtype=int32)")
    assert S.frame(tf.reshape(tf.range(24.), [2, 3, 4]), 2, 1, axis=1).shape == [2, 2, 2, 4]


@pytest.mark.parametrize("axis", [0, -1])
def test_frame_gradient_is_a_dense_tensor(axis):
    x = tf.Variable([1.0, 2.0, 3.0, 4.0, 5.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.signal.frame(x, 2, 1, axis=axis) * 2.0)
    grad = tape.gradient(y, x)
    assert isinstance(grad, tf.Tensor)
    np.testing.assert_array_equal(grad.numpy(), [2, 4, 4, 4, 2])


def test_fftshift_and_frame_with_unknown_static_dims():
    x = tf.reshape(tf.range(12.0), [3, 4])
    unknown = [tf.TensorSpec([None, None])]
    for fn in (tf.signal.fftshift, tf.signal.ifftshift,
               lambda s: tf.signal.fftshift(s, axes=1),
               lambda s: tf.signal.frame(s, 2, 1),
               lambda s: tf.signal.frame(s, 3, 2, pad_end=True, pad_value=-1.0),
               lambda s: tf.signal.frame(s, 9, 1),
               lambda s: tf.signal.frame(s, 2, 1, axis=0)):
        want = fn(x)
        got = tf.function(fn, input_signature=unknown)(x)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.numpy(), want.numpy())

    @tf.function(input_signature=unknown)
    def frame_grad(s):
        with tf.GradientTape() as tape:
            tape.watch(s)
            y = tf.reduce_sum(tf.signal.frame(s, 3, 2, pad_end=True))
        return tape.gradient(y, s)

    assert frame_grad(x).numpy().tolist() == [[1.0, 1.0, 2.0, 1.0]] * 3


def test_frame_with_a_zero_step_raises_invalid_argument():
    signal = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.signal.frame(signal, 2, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.function(lambda s: tf.signal.frame(s, 2, 0),
                    input_signature=[tf.TensorSpec([None])])(signal)


def test_frame_errors_of_a_zero_step_and_a_negative_length_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^\{\{function_node __wrapped__FloorDiv_device_.*\}\} Integer "
                             r"division by zero \[Op:FloorDiv\] name: $"):
        tf.signal.frame(tf.range(10), 3, 0)
    # (a negative length made no frames of no samples: TF fails in its range of offsets)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Requires start <= limit when delta > 0: 0/-3"):
        tf.signal.frame(tf.range(10), -3, 2)


def test_frame_with_a_length_and_step_known_only_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32),
                                  tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32)])
    def framed(signal, length, step):
        frames = tf.signal.frame(signal, length, step)
        padded = tf.signal.frame(signal, length, step, pad_end=True, pad_value=-1.0)
        assert frames.shape.as_list() == [None, None] == padded.shape.as_list()
        return frames, padded

    signal = tf.range(10.0)
    for length, step in ((4, 2), (3, 3), (5, 1)):
        frames, padded = framed(signal, tf.constant(length), tf.constant(step))
        np.testing.assert_array_equal(frames, tf.signal.frame(signal, length, step))
        np.testing.assert_array_equal(
            padded, tf.signal.frame(signal, length, step, pad_end=True, pad_value=-1.0))


def test_roll_with_a_run_time_shift():
    @tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([], tf.int32)])
    def rolled(x, shift):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.roll(x, shift, 0)
            loss = tf.reduce_sum(y * [1.0, 2.0, 3.0])
        return y, tape.gradient(loss, x)

    y, dx = rolled(tf.constant([1.0, 2.0, 3.0]), tf.constant(1))
    assert y.numpy().tolist() == [3.0, 1.0, 2.0]
    assert dx.numpy().tolist() == [2.0, 3.0, 1.0]


def test_windows_of_a_length_known_only_at_run_time():
    for window in (tf.signal.hann_window, tf.signal.hamming_window):
        for periodic in (True, False):
            @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
            def made(n):
                w = window(n, periodic=periodic)
                assert w.shape.as_list() == [None]
                return w
            for n in (1, 4, 5):
                np.testing.assert_allclose(made(tf.constant(n)).numpy(),
                                           window(n, periodic=periodic).numpy(), atol=1e-7)


def test_frame_and_overlap_add_reject_what_tf_rejects():
    with pytest.raises(ValueError, match=r"Shape \(\) must have rank at least 1"):
        tf.signal.frame(tf.constant(1.0), 4, 2)
    with pytest.raises(errors.InvalidArgumentError, match="frame_step"):
        tf.signal.overlap_and_add(tf.ones([3, 2]), 0)


def test_real_transforms_with_an_fft_length_known_only_at_run_time():
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((2, 8)), tf.float32)
    cube = tf.constant(rng.standard_normal((2, 3, 4, 6)), tf.float32)

    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([], tf.int32)])
    def one(signal, n):
        return tf.signal.rfft(signal, [n]), tf.signal.irfft(tf.signal.rfft(signal), [n])

    @tf.function(input_signature=[tf.TensorSpec([None, 3, None, None]),
                                  tf.TensorSpec([2], tf.int32)])
    def two(signal, n):
        return (tf.signal.rfft2d(signal, n),
                tf.signal.irfft2d(tf.complex(signal, 0.5 * signal), n))

    for n in (1, 3, 4, 5, 11, 16):  # odd lengths cannot be inferred from a number of bins
        got = one(x, tf.constant(n))
        want = (tf.signal.rfft(x, [n]), tf.signal.irfft(tf.signal.rfft(x), [n]))
        for g, w in zip(got, want):
            assert g.shape == w.shape
            np.testing.assert_allclose(g.numpy(), w.numpy(), atol=1e-5)
    for n in ([3, 4], [4, 7], [5, 10]):
        got = two(cube, tf.constant(n))
        want = (tf.signal.rfft2d(cube, n), tf.signal.irfft2d(tf.complex(cube, 0.5 * cube), n))
        for g, w in zip(got, want):
            assert g.shape == w.shape
            np.testing.assert_allclose(g.numpy(), w.numpy(), atol=1e-4)


def test_window_lengths_convert_to_int32_as_tfs_do():
    length = tf.constant(6, tf.int64)
    # hann and hamming name the argument as they convert it; the others do not
    for window in (tf.signal.hann_window, tf.signal.hamming_window):
        with pytest.raises(ValueError, match=r"^window_length: Tensor conversion requested dtype "
                                             r"int32 for Tensor with dtype int64"):
            window(length)
    for window in (tf.signal.kaiser_window, tf.signal.vorbis_window,
                   tf.signal.kaiser_bessel_derived_window):
        with pytest.raises(ValueError, match=r"^Tensor conversion requested dtype int32 for "
                                             r"Tensor with dtype int64"):
            window(length)
        with pytest.raises(TypeError, match=r"^Cannot convert 6.0 to EagerTensor of dtype int32"):
            window(6.0)
        with pytest.raises(ValueError, match=r"^Shape \(1,\) must have rank 0"):
            window(tf.constant([4]))
        assert window(np.int64(4)).shape == (4,)
