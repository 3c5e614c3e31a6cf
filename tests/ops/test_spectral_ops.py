"""tf.signal's STFT, overlap-add, DCTs, mel filterbank, MFCCs and windows against TF's values
(recorded from TF 2.21; float tolerance, as the FFTs round differently)."""
import numpy as np
import pytest

import eagerflow as tf

X = [1.0, 2.0, 3.0, 4.0, 0.0, -1.0]
SIGNAL = np.sin(np.arange(12) * 0.3).astype(np.float32)


def close(actual, expected):
    np.testing.assert_allclose(actual.numpy(), expected, rtol=2e-5, atol=2e-6)


def test_overlap_add_stft_and_inverse():
    close(tf.signal.overlap_and_add(tf.reshape(tf.range(12.0), [2, 3, 2]), 1),
          [[0, 3, 7, 5], [6, 15, 19, 11]])
    close(tf.abs(tf.signal.stft(SIGNAL, 4, 4)), [
        [1.1040661, 0.6150691, 0.0252189], [1.9041998, 0.9761595, 0.0434954],
        [0.2759371, 0.3248197, 0.0063029]])
    inverse = tf.signal.inverse_stft(tf.signal.stft(SIGNAL, 4, 2), 4, 2,
                                     window_fn=tf.signal.inverse_stft_window_fn(2))
    close(inverse[2:10], SIGNAL[2:10])  # exact reconstruction away from the ends

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def added(frames):
        return tf.signal.overlap_and_add(frames, 2)
    close(added(tf.ones([3, 4])), [1, 1, 2, 2, 2, 2, 1, 1])


def test_dct_types_and_inverses():
    x = tf.constant(X)
    expected = {
        1: [18.0, 4.618034, -10.09017, 2.381966, 1.090170, -4.0],
        2: [18.0, 6.174492, -12.124355, 1.414214, 3.0, -3.725003],
        3: [15.199072, -0.414214, -10.749582, 2.357277, 2.414213, -2.806767],
        4: [15.047568, -5.543278, -8.154428, 6.257113, -2.2961, -1.98105]}
    for kind, values in expected.items():
        close(tf.signal.dct(x, type=kind), values)
    close(tf.signal.dct(x, norm="ortho"), [3.674234, 1.782422, -3.5, 0.408248, 0.866025,
                                           -1.075316])
    close(tf.signal.idct(x, norm="ortho"), [4.507167, 0.0, -2.983564, 0.800061, 0.816496,
                                            -0.690671])
    close(tf.signal.dct(x, type=4, norm="ortho"), [4.343859, -1.600206, -2.353981, 1.806273,
                                                   -0.662827, -0.57188])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.signal.dct(x, norm="ortho") * tf.range(6.0)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               [4.6843, -5.1671, 1.8678, -1.5584, 0.5483, -0.3749], atol=1e-4)
    with pytest.raises(ValueError, match="Normalization is not supported for the Type-I DCT"):
        tf.signal.dct(x, type=1, norm="ortho")
    with pytest.raises(NotImplementedError, match="axis must be -1"):
        tf.signal.dct(x, axis=0)


def test_dct_of_unknown_length_inside_function():
    x = tf.constant([X, X[::-1]])
    for kind in (1, 2, 3, 4):
        for norm in ((None,) if kind == 1 else (None, "ortho")):
            @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
            def transforms(signal):
                return (tf.signal.dct(signal, type=kind, norm=norm),
                        tf.signal.idct(signal, type=kind, norm=norm),
                        tf.signal.dct(signal, type=kind, n=4, norm=norm),
                        tf.signal.dct(signal, type=kind, n=9, norm=norm))
            expected = (tf.signal.dct(x, type=kind, norm=norm),
                        tf.signal.idct(x, type=kind, norm=norm),
                        tf.signal.dct(x, type=kind, n=4, norm=norm),
                        tf.signal.dct(x, type=kind, n=9, norm=norm))
            for got, want in zip(transforms(x), expected):
                assert got.shape == want.shape
                close(got, want.numpy())
    mfccs = tf.function(tf.signal.mfccs_from_log_mel_spectrograms, input_signature=[
        tf.TensorSpec([None, None], tf.float32)])
    close(mfccs(x), tf.signal.mfccs_from_log_mel_spectrograms(x).numpy())


def test_overlap_and_add_sums_onto_zeros():
    # inverse_stft's first sample is often a windowed -0.0: TF adds it to a zero, giving +0.0
    added = tf.signal.overlap_and_add([[-0.0, 1.0], [2.0, 3.0]], 1).numpy()
    np.testing.assert_array_equal(np.signbit(added), [False, False, False])


def test_mel_mfcc_and_windows():
    close(tf.signal.linear_to_mel_weight_matrix(2, 5, 16, 0.0, 8.0), [
        [0, 0], [0.7531865, 0], [0.4957386, 0.5042614], [0, 0.7468256], [0, 0]])
    with pytest.raises(ValueError, match="upper_edge_hertz must not be larger than the Nyquist"):
        tf.signal.linear_to_mel_weight_matrix(4, 9, 16, 0.0, 9.0)
    close(tf.signal.mfccs_from_log_mel_spectrograms(tf.constant(X)),
          [5.196152, 1.782422, -3.5, 0.408248, 0.866025, -1.075316])
    close(tf.signal.kaiser_window(5), [5.277345e-05, 0.2156727, 1.0, 0.2156727, 5.277345e-05])
    close(tf.signal.kaiser_bessel_derived_window(6),
          [0.007131, 0.7071068, 0.9999745, 0.9999745, 0.7071068, 0.007131])
    close(tf.signal.vorbis_window(5), [0.1494359, 0.8563191, 1.0, 0.8563191, 0.1494357])


def test_window_lengths_of_zero_negative_and_run_time_values_are_tfs():
    assert tf.signal.vorbis_window(0).shape == [0]  # (was a ZeroDivisionError)
    assert tf.signal.kaiser_bessel_derived_window(0).shape == [0]
    # a Kaiser window of fewer than one point fails in its range of positions, as in TF
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Requires start <= limit when delta > 0: 0\.5/-0\.4"):
        tf.signal.kaiser_window(0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"1\.5/-1\.4"):
        tf.signal.kaiser_window(-2)
    for window in (tf.signal.vorbis_window, tf.signal.kaiser_window,
                   tf.signal.kaiser_bessel_derived_window):
        with pytest.raises(ValueError, match="^dtype must be a floating point type. Found "
                                             "<dtype: 'int32'>$"):
            window(4, dtype=tf.int32)

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def windows(n):
        found = (tf.signal.vorbis_window(n), tf.signal.kaiser_window(n),
                 tf.signal.kaiser_bessel_derived_window(n))
        assert all(w.shape.as_list() == [None] for w in found)
        return found

    vorbis, kaiser, kbd = windows(5)
    close(vorbis, [0.1494359, 0.8563191, 1.0, 0.8563191, 0.1494357])
    close(kaiser, [5.277345e-05, 0.2156727, 1.0, 0.2156727, 5.277345e-05])
    close(kbd, [0.00726415, 0.9999736, 0.9999736, 0.00726415])
    # a one-point window known only at run time is [nan] in TF (0 / 0)
    assert np.isnan(windows(1)[1].numpy()).all()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start <= limit"):
        windows(0)


@pytest.mark.parametrize("dtype,error,message", [
    (tf.float16, TypeError, r"^The `real` and `imag` components have incorrect types: float16 "
                            r"float16\. They must be consistent, and one of \[tf\.float32, "
                            r"tf\.float64\]$"),
    (tf.int32, TypeError, "^Cannot convert 0.0 to EagerTensor of dtype int32$"),
    (tf.complex64, AssertionError, "^$"),
])
def test_dct_of_other_dtypes_fails_as_in_tf(dtype, error, message):
    for transform in (tf.signal.dct, tf.signal.idct, tf.signal.mfccs_from_log_mel_spectrograms):
        with pytest.raises(error, match=message):
            transform(tf.ones([2, 4], dtype))
    f = tf.function(lambda x: tf.signal.dct(x))
    if dtype == tf.int32:
        with pytest.raises(TypeError, match="Expected int32, but got 0.0 of type 'float'."):
            f(tf.ones([2, 4], dtype))


def test_stft_its_inverse_and_overlap_add_with_lengths_known_only_at_run_time():
    signal = tf.constant(np.sin(np.arange(64) * 0.3), tf.float32)
    ints = tf.TensorSpec([], tf.int32)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), ints, ints])
    def round_trip(x, length, step):
        spectrum = tf.signal.stft(x, length, step)
        assert spectrum.shape.as_list() == [None, None]
        window = tf.signal.inverse_stft_window_fn(step)
        return spectrum, tf.signal.inverse_stft(spectrum, length, step, window_fn=window)

    spectrum, back = round_trip(signal, tf.constant(16), tf.constant(8))
    close(spectrum, tf.signal.stft(signal, 16, 8).numpy())
    close(back, tf.signal.inverse_stft(tf.signal.stft(signal, 16, 8), 16, 8,
                                       window_fn=tf.signal.inverse_stft_window_fn(8)).numpy())
    # (an FFT longer or shorter than the frames: the frames cut or padded at run time)
    inverse = tf.function(lambda s, n, m: tf.signal.inverse_stft(s, n, 8, fft_length=m))
    for length, fft in ((16, 32), (20, 16)):
        close(inverse(tf.signal.stft(signal, length, 8, fft), tf.constant(length),
                      tf.constant(fft)),
              tf.signal.inverse_stft(tf.signal.stft(signal, length, 8, fft), length, 8,
                                     fft).numpy())
    add = tf.function(lambda x, step: tf.signal.overlap_and_add(x, step),
                      input_signature=[tf.TensorSpec([None, None]), ints])
    close(add(tf.ones([3, 4]), tf.constant(2)), [1, 1, 2, 2, 2, 2, 1, 1])


def test_dct_and_mfcc_argument_errors_are_tfs():
    with pytest.raises(ValueError, match="^n should be a positive integer or None$"):
        tf.signal.dct(tf.ones([3]), n=0)
    with pytest.raises(ValueError, match=r"^Type-I DCT requires the dimension to be greater "
                                         r"than one\.$"):
        tf.signal.dct(tf.ones([1]), type=1)
    with pytest.raises(ValueError, match=r"Got: tf\.Tensor\(\[\], shape=\(3, 0\)"):
        tf.signal.mfccs_from_log_mel_spectrograms(tf.ones([3, 0]))


@pytest.mark.parametrize("value", [np.array([1.0, 2.0, 3.0], np.float32), [1.0, 2.0, 3.0],
                                   np.array([1, 2, 3])])
def test_irfft_converts_a_non_tensor_to_complex64(value):
    # as TF: anything but a tensor converts with complex64 preferred; a float tensor fails
    close(tf.signal.irfft(value), [2.0, -0.5, 0.0, -0.5])
    assert tf.signal.irfft2d(np.ones([2, 2], np.float32)).dtype == tf.float32
    with pytest.raises(ValueError, match="IRFFT requires"):
        tf.signal.irfft(tf.constant([1.0, 2.0]))


@pytest.mark.parametrize("kind", [2, 3, 4])
@pytest.mark.parametrize("inverse", [False, True])
def test_dct_of_an_empty_axis(kind, inverse):
    transform = tf.signal.idct if inverse else tf.signal.dct
    x = tf.zeros([3, 0])
    out = transform(x, type=kind)
    assert out.shape == (3, 0) and out.dtype == tf.float32
    if kind in (2, 3):  # TF's orthonormal II and III fail padding the weights by -1
        with pytest.raises(tf.errors.InvalidArgumentError, match="Paddings must be"):
            transform(x, type=kind, norm="ortho")
    else:
        assert transform(x, type=kind, norm="ortho").shape == (3, 0)


def test_framing_and_stft_of_unknown_rank_in_a_function():
    x3 = np.arange(60, dtype=np.float32).reshape(2, 10, 3) ** 0.5
    unknown = [tf.TensorSpec(None, tf.float32)]

    for kwargs in [dict(axis=-1), dict(axis=1), dict(axis=-2, pad_end=True, pad_value=-1.0),
                   dict(axis=0, pad_end=True)]:
        framed = tf.function(lambda x: tf.signal.frame(x, 4, 3, **kwargs),
                             input_signature=unknown)
        assert framed.get_concrete_function().output_shapes.rank is None
        np.testing.assert_array_equal(framed(x3), tf.signal.frame(x3, 4, 3, **kwargs))
    added = tf.function(lambda x: tf.signal.overlap_and_add(x, 2), input_signature=unknown)
    np.testing.assert_array_equal(added(x3), tf.signal.overlap_and_add(x3, 2))
    signals = np.sin(np.arange(80) * 0.2).astype(np.float32).reshape(2, 40)
    round_trip = tf.function(lambda x: tf.signal.inverse_stft(tf.signal.stft(x, 16, 4), 16, 4),
                             input_signature=unknown)
    close(round_trip(signals),
          tf.signal.inverse_stft(tf.signal.stft(signals, 16, 4), 16, 4).numpy())

    @tf.function(input_signature=unknown)
    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.signal.frame(x, 4, 3, axis=1, pad_end=True) ** 2)
        return tape.gradient(y, x)
    # each sample counted by the frames that hold it: 1 or 2 times, twice the sample each
    counts = np.array([1, 1, 1, 2, 1, 1, 2, 1, 1, 2], np.float32)[None, :, None]
    close(gradient(x3), 2 * x3 * counts)


def test_mel_matrix_of_a_run_time_bin_count():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def mel(bins):
        return tf.signal.linear_to_mel_weight_matrix(40, bins, 16000, 80.0, 7600.0)
    assert mel.get_concrete_function().output_shapes.as_list() == [None, 40]
    close(mel(tf.constant(257)),
          tf.signal.linear_to_mel_weight_matrix(40, 257, 16000, 80.0, 7600.0).numpy())


@pytest.mark.parametrize("fn,rank", [(tf.signal.rfft, 1), (tf.signal.rfft2d, 2)])
def test_fft_length_is_checked_as_tf_checks_it(fn, rank):
    x = tf.reshape(tf.range(6.0), [2, 3])
    with pytest.raises(TypeError, match="'numpy.int32' object is not iterable"):
        fn(x, fft_length=4)  # a scalar, not a list
    with pytest.raises(TypeError, match="only integer scalar arrays"):
        fn(x, fft_length=[[4]])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype int32 for Tensor "
                                         "with dtype int64"):
        fn(x, fft_length=tf.constant([4] * rank, tf.int64))
    name = "RFFT" if rank == 1 else "RFFT2D"
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn(x, fft_length=[4, 4, 4])
    assert info.value.message == (
        f"{{{{function_node __wrapped__{name}_device_/job:localhost/replica:0/task:0/device:"
        f"CPU:0}}}} fft_length must have shape [{rank}] [Op:{name}] name: ")
    with pytest.raises(ValueError, match=f"Dimension must be {rank} but is 3"):
        tf.function(lambda v: fn(v, [4, 4, 4])).get_concrete_function(tf.TensorSpec([2, 3]))
    assert fn(x, fft_length=np.array([4] * rank, np.int64)).shape[-1] == 3


def test_frame_checks_its_arguments_as_tf():
    x = tf.range(8)
    for kwargs in [dict(frame_length=[2]), dict(frame_step=[2]),
                   dict(pad_end=True, pad_value=[1])]:
        args = {"frame_length": 3, "frame_step": 2, **kwargs}
        with pytest.raises(ValueError, match=r"Shape \(1,\) must have rank 0"):
            tf.signal.frame(x, **args)
    with pytest.raises(ValueError, match="Tensor conversion requested dtype int32 for Tensor "
                                         "with dtype int64"):
        tf.signal.frame(x, 3, 2, pad_end=True, pad_value=tf.constant(1, tf.int64))
    for axis in (1, -2):  # (not wrapped around the vector's one axis)
        with pytest.raises(IndexError):
            tf.signal.frame(x, 3, 2, axis=axis)
    framed = tf.signal.frame(x, 3, 2, pad_end=True, pad_value=np.int64(-1))
    np.testing.assert_array_equal(framed[-1], [6, 7, -1])


@pytest.mark.parametrize("transform", [
    tf.signal.irfft, lambda v: tf.signal.irfft(v, [7]), tf.signal.irfft2d,
    lambda v: tf.signal.irfft2d(v, [3, 5]), lambda v: tf.signal.irfft3d(v, [2, 3, 9])])
def test_inverse_real_fft_gradient_with_sizes_known_at_run_time(transform):
    rng = np.random.RandomState(3)
    spectrum = tf.constant((rng.randn(2, 4, 5) + 1j * rng.randn(2, 4, 5)).astype(np.complex64))

    def gradient(fn):
        with tf.GradientTape() as tape:
            tape.watch(spectrum)
            y = fn(spectrum)
            loss = tf.reduce_sum(y ** 2 * tf.cast(tf.range(tf.shape(y)[-1]) + 1, y.dtype))
        return tape.gradient(loss, spectrum)
    traced = tf.function(transform, input_signature=[tf.TensorSpec([None] * 3, tf.complex64)])
    np.testing.assert_allclose(gradient(traced).numpy(), gradient(transform).numpy(),
                               rtol=1e-5, atol=1e-5)


def test_real_fft_of_no_signals_narrower_than_fft_length_fails_as_tfs():
    # TF pads a real FFT's input up to fft_length only when it holds values: a batch of no
    # frames shorter than fft_length reaches its kernel, which refuses it (so does an STFT of
    # a clip shorter than a frame)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input dimension 1 must have length of at least 256 but got: 255 "
                             r"\[Op:RFFT\]"):
        tf.signal.stft(tf.zeros([100]), 255, 128)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input dimension 2 must have length of at least 3 but got: 2"):
        tf.signal.irfft2d(tf.zeros([0, 4, 2], tf.complex64), [4, 4])
    assert tf.signal.rfft(tf.zeros([0, 5]), [4]).shape == [0, 3]
    assert tf.signal.irfft(tf.zeros([0, 3], tf.complex64), [4]).shape == [0, 4]
    assert tf.signal.stft(tf.zeros([100]), 255, 128, fft_length=200).shape == [0, 101]


def test_fftshift_of_an_axis_out_of_range_raises_tfs_error():
    x = tf.reshape(tf.range(6), [2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="slice index 2 of dimension 0 out of bounds"):
        tf.signal.fftshift(x, axes=2)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[1\] = -1 is not in \[0, 2\)"):
        tf.signal.ifftshift(x, axes=(1, -3))
    np.testing.assert_array_equal(tf.signal.fftshift(x, axes=-1), [[2, 0, 1], [5, 3, 4]])


def test_inverse_stft_window_is_zero_where_no_frame_covers_a_sample():
    # frame_step >= frame_length: the Hann window's zero at 0 has nothing to divide by
    close(tf.signal.inverse_stft_window_fn(10)(8, tf.float32),
          [0.0, 6.828427, 2.0, 1.171573, 1.0, 1.171573, 2.0, 6.828427])
    signal = tf.constant(np.arange(1.0, 17.0, dtype=np.float32))
    back = tf.signal.inverse_stft(tf.signal.stft(signal, 8, 8), 8, 8,
                                  window_fn=tf.signal.inverse_stft_window_fn(8))
    close(back, [0.0] + list(range(2, 9)) + [0.0] + list(range(10, 17)))


@pytest.mark.parametrize("norm", [None, "ortho"])
def test_inverse_mdct_of_an_unknown_length_fails_as_tfs(norm):
    @tf.function(input_signature=[tf.TensorSpec([None, None, None])])
    def inverse(mdcts):
        return tf.signal.inverse_mdct(mdcts, norm=norm)
    with pytest.raises(ValueError, match="None values not supported"):
        inverse.get_concrete_function()
    with pytest.raises(ValueError, match=r"Shape \(4,\) must have rank at least 2"):
        tf.signal.inverse_mdct(tf.ones([4]), norm=norm)


def test_window_periodic_given_as_a_tensor_in_a_function_and_checked_as_tf():
    @tf.function(input_signature=[tf.TensorSpec([], tf.bool)])
    def windows(periodic):
        return (tf.signal.hann_window(6, periodic=periodic),
                tf.signal.hamming_window(5, periodic=periodic))
    hann, hamming = windows(tf.constant(True))
    close(hann, [0.0, 0.25, 0.75, 1.0, 0.75, 0.25])
    close(hamming, [0.08, 0.54, 1.0, 0.54, 0.08])
    close(windows(tf.constant(False))[0], [0.0, 0.345492, 0.904508, 0.904508, 0.345492, 0.0])
    # (a list or an int is no bool: TF refuses them rather than reading their truth)
    with pytest.raises(ValueError, match="must have rank 0"):
        tf.signal.hann_window(6, periodic=[False])
    with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype bool"):
        tf.signal.hann_window(6, periodic=1)
    with pytest.raises(ValueError, match="periodic: Tensor conversion requested dtype bool"):
        tf.signal.hamming_window(6, periodic=tf.constant(0))


def test_frame_steps_and_lengths_are_integer_scalars_as_in_tf():
    with pytest.raises(ValueError, match=r"frame_step must be an integer. Got <dtype: 'float32'>"):
        tf.signal.overlap_and_add(tf.ones([3, 4]), 2.0)
    with pytest.raises(ValueError, match=r"Shape \(1,\) must have rank 0"):
        tf.signal.overlap_and_add(tf.ones([3, 4]), [2])
    with pytest.raises(ValueError, match=r"Shape \(2,\) must have rank 0"):
        tf.signal.stft(tf.ones([2, 20]), [4, 4], 2)
    # (a float length or step is refused, not truncated)
    with pytest.raises(tf.errors.InvalidArgumentError, match="frame_length"):
        tf.signal.stft(tf.ones([2, 20]), 4.5, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="frame_step"):
        tf.signal.stft(tf.ones([2, 20]), 4, 2.0)
    with pytest.raises(TypeError, match=r"\(name: num\) must be of type integer"):
        tf.signal.linear_to_mel_weight_matrix(num_spectrogram_bins=9.0)
