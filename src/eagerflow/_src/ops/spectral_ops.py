"""``tf.signal``'s transforms built from the FFT and framing ops: STFT and its inverse,
overlap-add, DCTs, mel filterbanks, MFCCs and the Kaiser and Vorbis windows.

They are compositions of differentiable ops, so gradients flow through them as in TF.

>>> tf.signal.overlap_and_add(tf.constant([[1.0, 2.0], [3.0, 4.0]]), 1)
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 5., 4.], dtype=float32)>
"""
import math

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.ops import array_ops, math_ops, reduction_ops, signal_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.ops.wrappers import as_tensor


def _int_or_tensor(value, frame_attr=None):
    """`value` as a Python int, or as an int32 tensor where a traced function knows it only
    at run time; a scalar (ValueError otherwise, as TF's). A `frame_attr` (the framing op's
    argument it becomes) must be an integer, as that op refuses others."""
    tensor = convert_to_tensor(value)
    if tensor.shape.rank not in (None, 0):
        raise ValueError(f"Shape {tensor.shape} must have rank 0")
    if frame_attr is not None and not tensor.dtype.is_integer:
        return signal_ops._frame_param(tensor, frame_attr)  # (raises TF's error)
    found = get_static_value(tensor)
    return cast(tensor, _d.int32) if found is None else int(found)


@export("signal.overlap_and_add")
def overlap_and_add(signal, frame_step, name=None):
    """Sums frames (the last two axes: frames, samples) placed `frame_step` samples apart.

    The result's last axis has ``(frames - 1) * frame_step + frame_length`` samples.
    """
    signal = as_tensor(signal)
    rank = signal.shape.rank
    if rank is not None and rank < 2:
        raise ValueError(f"Shape {signal.shape} must have rank at least 2")
    if rank is None:  # known at run time only: added as [outer, frames, samples]
        shape = array_ops.shape(signal)
        summed = overlap_and_add(array_ops.reshape(
            signal, array_ops.stack([-1, shape[-2], shape[-1]])), frame_step)
        return array_ops.reshape(summed, array_ops.concat([shape[:-2], [-1]], 0))
    frame_step = convert_to_tensor(frame_step)
    if frame_step.shape.rank not in (None, 0):
        raise ValueError(f"Shape {frame_step.shape} must have rank 0")
    if not frame_step.dtype.is_integer:
        raise ValueError(f"frame_step must be an integer. Got {frame_step.dtype}")
    step = _int_or_tensor(frame_step)
    if isinstance(step, int) and step < 1:  # (TF fails as it pads by a negative amount)
        raise errors.InvalidArgumentError(
            None, None, f"overlap_and_add needs a positive frame_step, got {step}")
    shape = array_ops.shape(signal)
    frames, length = shape[-2], shape[-1]
    # sample k of frame f lands at f * step + k: one segment sum over (frame, sample) pairs
    positions = array_ops.reshape(
        array_ops.expand_dims(array_ops.range(frames) * step, 1) +
        array_ops.expand_dims(array_ops.range(length), 0), [-1])
    outer = list(range(rank - 2))
    moved = array_ops.transpose(signal, [rank - 2, rank - 1] + outer)
    flat = array_ops.reshape(moved, array_ops.concat([[-1], shape[:-2]], 0))
    total = math_ops.maximum((frames - 1) * step + length, 0)
    summed = reduction_ops.unsorted_segment_sum(flat, positions, total)
    return array_ops.transpose(summed, list(range(1, rank - 1)) + [0])


def _fft_length(frame_length):
    """The smallest power of 2 enclosing `frame_length` (an int, or a tensor: computed as
    TF does, through a float32 logarithm)."""
    if isinstance(frame_length, Tensor):
        exponent = math_ops.ceil(math_ops.log(cast(frame_length, _d.float32)) / math.log(2.0))
        return cast(math_ops.pow(2.0, exponent), _d.int32)
    return 2 ** int(math.ceil(math.log2(frame_length))) if frame_length > 0 else 0


@export("signal.stft")
def stft(signals, frame_length, frame_step, fft_length=None,
         window_fn=signal_ops.hann_window, pad_end=False, name=None):
    """The short-time Fourier transform: the real FFT of windowed frames of `signals`.

    `fft_length` defaults to the smallest power of 2 enclosing `frame_length`.
    """
    signals = convert_to_tensor(signals)
    if signals.shape.rank is not None and signals.shape.rank < 1:
        raise ValueError(f"Shape {signals.shape} must have rank at least 1")
    frame_length = _int_or_tensor(frame_length, "frame_length")
    if fft_length is None:
        fft_length = _fft_length(frame_length)
    framed = signal_ops.frame(signals, frame_length, _int_or_tensor(frame_step, "frame_step"),
                              pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(frame_length, dtype=framed.dtype)
    return signal_ops.rfft(framed, [_int_or_tensor(fft_length)])


@export("signal.inverse_stft_window_fn")
def inverse_stft_window_fn(frame_step, forward_window_fn=signal_ops.hann_window, name=None):
    """A window function for `inverse_stft` that undoes `forward_window_fn`'s overlap-add
    gain: the forward window over the sum of its squares at each step's offset."""
    def inverse_window(frame_length, dtype):
        forward = forward_window_fn(frame_length, dtype=dtype)
        squared = math_ops.square(forward)
        step = _int_or_tensor(frame_step)
        blocks = -(-frame_length // step)
        padded = array_ops.pad(squared, [[0, blocks * step - frame_length]])
        denominator = reduction_ops.reduce_sum(array_ops.reshape(padded, [blocks, step]), 0,
                                               keepdims=True)
        denominator = array_ops.reshape(array_ops.tile(denominator, [blocks, 1]), [-1])
        denominator = denominator[:frame_length]
        # a sample no frame covers (a zero of the window, frame_step >= frame_length) is
        # given weight 0, not 0 / 0
        return array_ops.where(math_ops.equal(denominator, 0.0),
                               array_ops.zeros_like(forward), forward / denominator)
    return inverse_window


@export("signal.inverse_stft")
def inverse_stft(stfts, frame_length, frame_step, fft_length=None,
                 window_fn=signal_ops.hann_window, name=None):
    """Signals from their STFTs: the inverse real FFT of each frame, windowed and
    overlap-added (exact with ``window_fn=inverse_stft_window_fn(frame_step)``)."""
    stfts = convert_to_tensor(stfts)
    if stfts.shape.rank is not None and stfts.shape.rank < 2:
        raise ValueError(f"Shape {stfts.shape} must have rank at least 2")
    frame_length = _int_or_tensor(frame_length)
    if fft_length is None:
        fft_length = _fft_length(frame_length)
    fft_length = _int_or_tensor(fft_length)
    real_frames = signal_ops.irfft(stfts, [fft_length])
    if isinstance(frame_length, Tensor) or isinstance(fft_length, Tensor):
        real_frames = _resized(real_frames, frame_length)  # (cut or padded at run time)
    elif fft_length > frame_length:
        real_frames = real_frames[..., :frame_length]
    elif fft_length < frame_length:
        rank = real_frames.shape.rank
        real_frames = array_ops.pad(real_frames, [[0, 0]] * (rank - 1) +
                                    [[0, frame_length - fft_length]])
    if window_fn is not None:
        real_frames = real_frames * window_fn(frame_length, dtype=stfts.dtype.real_dtype)
    return overlap_and_add(real_frames, _int_or_tensor(frame_step))


def _resized(x, n):
    """`x`'s last axis cut or zero-padded to `n` samples."""
    dim = x.shape[-1]
    if dim is None or isinstance(n, Tensor):  # known at run time only: append what is
        # missing, then cut
        shape = array_ops.shape(x)
        missing = math_ops.maximum(n - shape[-1], 0)
        zeros = array_ops.zeros(array_ops.concat([shape[:-1], [missing]], 0), x.dtype)
        return array_ops.concat([x, zeros], -1)[..., :n]
    if n < dim:
        return x[..., :n]
    if n > dim:
        return array_ops.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - dim]])
    return x


def _doubled(x):
    """`x` zero-padded to twice its last axis."""
    return array_ops.concat([x, array_ops.zeros_like(x)], -1)


def _check_dct(input, type, n, axis, norm):
    if type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    if type == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    if type == 1 and input.shape[-1] is not None and input.shape[-1] < 2:
        raise ValueError("Type-I DCT requires the dimension to be greater than one.")


def _check_dct_dtype(input):
    """TF's errors for a DCT of another dtype than float32 and float64: those its
    computation meets (making the complex phase factors, or a 0.0 of the input's dtype)."""
    dtype = input.dtype
    if dtype in (_d.float32, _d.float64):
        return
    if dtype.is_complex:
        raise AssertionError()
    if dtype.is_floating:
        raise TypeError(f"The `real` and `imag` components have incorrect types: {dtype.name} "
                        f"{dtype.name}. They must be consistent, and one of [tf.float32, "
                        f"tf.float64]")
    if isinstance(input, EagerTensor):
        raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {dtype.name}")
    raise TypeError(f"Expected {dtype.name}, but got 0.0 of type 'float'.")


def _phase(count, sign, dtype):
    """``2 exp(sign * i pi k / (2 count))`` for k < count, in `dtype`'s complex type."""
    if isinstance(count, int):
        k = np.arange(count) * (sign * np.pi / (2 * count))
        return convert_to_tensor((2 * np.exp(1j * k)).astype(
            _d.complex64.as_numpy_dtype if dtype == _d.float32 else np.complex128))
    count = cast(count, dtype)
    k = array_ops.range(count) * (sign * np.pi * 0.5) / count
    return 2.0 * math_ops.exp(math_ops.complex(array_ops.zeros_like(k), k))


def _root(count):
    return math.sqrt(count) if isinstance(count, int) else math_ops.sqrt(cast(count, _d.float64))


def _ortho_weights(count, dtype, first, rest):
    """`first` then ``count - 1`` times `rest` (run-time `count`: tensors of `dtype`)."""
    if isinstance(count, int):
        weights = np.full(count, rest)
        weights[0] = first
        return convert_to_tensor(weights.astype(dtype.as_numpy_dtype))
    first, rest = (cast(v, dtype) for v in (first, rest))
    return array_ops.concat([array_ops.reshape(first, [1]),
                             array_ops.fill(array_ops.reshape(count - 1, [1]), rest)], 0)


@export("signal.dct", "compat.v1.spectral.dct")
def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 (TF's names)
    """The discrete cosine transform (types I-IV) of the last axis of `input`;
    ``norm='ortho'`` scales types II-IV to be orthonormal."""
    input = convert_to_tensor(input)
    _check_dct(input, type, n, axis, norm)
    _check_dct_dtype(input)
    if n is not None:
        input = _resized(input, n)
    size = input.shape[-1]
    if size is None:  # known at run time only
        size = array_ops.shape(input)[-1]
    dtype = input.dtype
    if isinstance(size, int) and size == 0:  # nothing to transform (TF's orthonormal II and III fail padding by -1)
        if norm == "ortho" and type in (2, 3):
            raise errors.op_error(errors.InvalidArgumentError, "PadV2",
                                  "Paddings must be non-negative: 0 -1")
        return input
    if type == 1:
        mirrored = array_ops.concat([input, input[..., -2:0:-1]], -1)
        return math_ops.real(signal_ops.rfft(mirrored))
    if type == 2:
        spectrum = signal_ops.rfft(_doubled(input))[..., :size]
        out = math_ops.real(spectrum * _phase(size, -1, dtype))
        if norm == "ortho":
            root = _root(size)
            out = out * _ortho_weights(size, dtype, 0.5 / root, math.sqrt(2.0) * 0.5 / root)
        return out
    if type == 3:
        if norm == "ortho":
            root = _root(size)
            input = input * _ortho_weights(size, dtype, root, root * math.sqrt(0.5))
        else:
            input = input * cast(size, dtype)
        spectrum = math_ops.complex(input, array_ops.zeros_like(input)) * _phase(size, 1, dtype)
        # one more (zero) bin: the inverse real FFT of N + 1 bins has 2N samples
        spectrum = array_ops.concat([spectrum, array_ops.zeros_like(spectrum[..., :1])], -1)
        return signal_ops.irfft(spectrum)[..., :size]
    # type IV: the odd coefficients of the type II transform of the signal zero-padded to 2N
    out = dct(_doubled(input), type=2)[..., 1::2]
    if norm == "ortho":
        out = out * cast(math.sqrt(0.5) / _root(size), dtype)
    return out


@export("signal.idct", "compat.v1.spectral.idct")
def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002
    """The inverse DCT: the DCT of the inverse type (II <-> III), scaled by ``0.5 / N``
    unless ``norm='ortho'``."""
    _check_dct(convert_to_tensor(input), type, n, axis, norm)
    return dct(input, type={1: 1, 2: 3, 3: 2, 4: 4}[type], n=n, axis=axis, norm=norm)


_MEL_BREAK_HZ, _MEL_HIGH_Q = 700.0, 1127.0


def _hertz_to_mel(frequencies):
    return _MEL_HIGH_Q * math_ops.log(1.0 + frequencies / _MEL_BREAK_HZ)


def _linspace_of_run_time_length(start, stop, num):
    """`linspace` of scalars for a `num` known only at run time: start + k * step, the last
    value `stop` itself."""
    k = cast(array_ops.range(num), start.dtype)
    step = (stop - start) / cast(math_ops.maximum(num - 1, 1), start.dtype)
    last = math_ops.logical_and(math_ops.equal(k, cast(num - 1, start.dtype)), num > 1)
    return array_ops.where(last, stop, start + k * step)


@export("signal.linear_to_mel_weight_matrix")
def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=_d.float32, name=None):
    """``[num_spectrogram_bins, num_mel_bins]`` triangular filters that map a linear
    spectrogram's bins to mel bands (the DC bin maps to none)."""
    dtype = _d.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype}")
    checks = [(num_mel_bins, lambda v: v <= 0, "num_mel_bins must be positive. Got: {}"),
              (lower_edge_hertz, lambda v: v < 0.0,
               "lower_edge_hertz must be non-negative. Got: {}"),
              (sample_rate, lambda v: v <= 0.0, "sample_rate must be positive. Got: {}")]
    for value, bad, message in checks:
        static = get_static_value(convert_to_tensor(value))
        if static is not None and bad(static):
            raise ValueError(message.format(static))
    lower = get_static_value(convert_to_tensor(lower_edge_hertz))
    upper = get_static_value(convert_to_tensor(upper_edge_hertz))
    rate = get_static_value(convert_to_tensor(sample_rate))
    if lower is not None and upper is not None and lower >= upper:
        raise ValueError(f"lower_edge_hertz {lower:.1f} >= upper_edge_hertz {upper:.1f}")
    if upper is not None and rate is not None and upper > rate / 2:
        raise ValueError(f"upper_edge_hertz must not be larger than the Nyquist frequency "
                         f"(sample_rate / 2). Got {upper} for sample_rate: {rate}")
    sample_rate = cast(sample_rate, dtype)
    lower_edge_hertz = convert_to_tensor(lower_edge_hertz, dtype)
    upper_edge_hertz = convert_to_tensor(upper_edge_hertz, dtype)
    zero = convert_to_tensor(0.0, dtype)
    nyquist = sample_rate / 2.0
    # the DC bin is left out (and padded back as zeros): it holds no band
    bins = convert_to_tensor(num_spectrogram_bins)
    if not bins.dtype.is_integer:  # (the count of a linspace)
        raise TypeError(f"Argument `tensor` (name: num) must be of type integer. Received "
                        f"`tensor` = {num_spectrogram_bins} of dtype: {bins.dtype}")
    bins = _int_or_tensor(bins)
    linear = (_linspace_of_run_time_length(zero, nyquist, bins) if isinstance(bins, Tensor)
              else array_ops.linspace(zero, nyquist, bins))[1:]
    bins_mel = array_ops.expand_dims(_hertz_to_mel(linear), 1)
    edges = signal_ops.frame(array_ops.linspace(
        _hertz_to_mel(lower_edge_hertz), _hertz_to_mel(upper_edge_hertz), num_mel_bins + 2),
        frame_length=3, frame_step=1)
    lower_mel, center_mel, upper_mel = (array_ops.reshape(t, [1, num_mel_bins])
                                        for t in array_ops.split(edges, 3, axis=1))
    lower_slopes = (bins_mel - lower_mel) / (center_mel - lower_mel)
    upper_slopes = (upper_mel - bins_mel) / (upper_mel - center_mel)
    weights = math_ops.maximum(zero, math_ops.minimum(lower_slopes, upper_slopes))
    return array_ops.pad(weights, [[1, 0], [0, 0]])


@export("signal.mfccs_from_log_mel_spectrograms")
def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """Mel-frequency cepstral coefficients: the orthonormal type II DCT of log mel
    spectrograms (their last axis)."""
    log_mel_spectrograms = convert_to_tensor(log_mel_spectrograms)
    bins = log_mel_spectrograms.shape[-1] if log_mel_spectrograms.shape.rank else None
    if bins is None:
        bins = array_ops.shape(log_mel_spectrograms)[-1]
    elif bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {log_mel_spectrograms!s}")
    dtype = log_mel_spectrograms.dtype
    return dct(log_mel_spectrograms, type=2) * math_ops.rsqrt(cast(bins, dtype) * 2.0)


def _window_length(window_length, dtype):
    """A window's `dtype` (a floating one, else ValueError) and its length as an int32 scalar
    tensor (anything that does not convert to one refused as the conversion refuses it)."""
    dtype = _d.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    length = convert_to_tensor(window_length, _d.int32)
    if length.shape.rank not in (None, 0):
        raise ValueError(f"Shape {length.shape} must have rank 0")
    return dtype, length


@export("signal.kaiser_window")
def kaiser_window(window_length, beta=12.0, dtype=_d.float32, name=None):
    """The Kaiser window of `window_length` points with shape parameter `beta`.

    >>> tf.signal.kaiser_window(3, beta=0.0)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 1., 1.], dtype=float32)>
    """
    dtype, length = _window_length(window_length, dtype)
    known = get_static_value(length)
    if known is not None and int(known) == 1:
        return array_ops.ones([1], dtype)
    # the positions -h, -h + 1, ... up to h, for h = (length - 1) / 2, made in float32 (so
    # a length below one fails in the range as in TF); a length known only at run time of
    # one gives [nan] (0 / 0), as TF's does
    half = (cast(length, _d.float32) - 1.0) / 2.0
    position = cast(array_ops.range(-half, half + 0.1, dtype=_d.float32), dtype)
    beta = cast(beta, dtype)
    half = cast(half, dtype)
    one = convert_to_tensor(1.0, dtype)
    arg = beta * math_ops.sqrt(math_ops.maximum(one - math_ops.square(position / half),
                                                convert_to_tensor(0.0, dtype)))
    # I0(arg) / I0(beta) with the scaled Bessel function: exp(arg - beta) i0e(arg) / i0e(beta)
    return math_ops.exp(arg - beta) * (math_ops.bessel_i0e(arg) / math_ops.bessel_i0e(beta))


@export("signal.kaiser_bessel_derived_window")
def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=_d.float32, name=None):
    """The Kaiser-Bessel derived window (for MDCTs) of an even `window_length`.

    >>> tf.signal.kaiser_bessel_derived_window(2)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.70710677, 0.70710677], dtype=float32)>
    """
    dtype, length = _window_length(window_length, dtype)
    kaiser = kaiser_window(length // 2 + 1, beta, dtype)
    cumulative = reduction_ops.cumsum(kaiser, axis=0)
    half_window = math_ops.sqrt(cumulative[:-1] / cumulative[-1])
    return array_ops.concat([half_window, array_ops.reverse(half_window, [0])], 0)


@export("signal.vorbis_window")
def vorbis_window(window_length, dtype=_d.float32, name=None):
    """The Vorbis power-complementary window ``sin(pi / 2 sin^2(pi (n + 1/2) / N))``.

    >>> tf.signal.vorbis_window(2)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.70710677, 0.70710677], dtype=float32)>
    """
    dtype, length = _window_length(window_length, dtype)
    arg = cast(array_ops.range(length), dtype)
    inner = math_ops.sin(np.pi / cast(length, dtype) * (arg + 0.5))
    return math_ops.sin(np.pi / 2.0 * math_ops.pow(inner, 2.0))


@export("signal.mdct")
def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The modified DCT of `signals`' frames of `frame_length` (a multiple of 4) half a frame
    apart, windowed by `window_fn` (or scaled by 1/sqrt(2)): frame_length / 2 values each.

    >>> tf.signal.mdct(tf.ones([8]), 4).shape
    TensorShape([3, 2])
    """
    signals = as_tensor(signals)
    length = get_static_value(convert_to_tensor(frame_length))
    if length is not None and int(length) % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
    step = int(length) // 2 if length is not None else frame_length // 2
    frames = signal_ops.frame(signals, frame_length, step, pad_end=pad_end)
    if window_fn is not None:
        frames = frames * window_fn(frame_length, dtype=frames.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2))
    a, b, c, d = array_ops.split(frames, 4, axis=-1)
    # the time-domain aliasing that folds each frame onto half its length
    folded = array_ops.concat([-array_ops.reverse(c, [-1]) - d,
                               a - array_ops.reverse(b, [-1])], axis=-1)
    return dct(folded, type=4, norm=norm, name=name)


@export("signal.inverse_mdct")
def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """Signals from their `mdct`s (with the same window and `norm`): each unfolded to a
    whole frame, windowed, and the frames overlapped and added half a frame apart.

    >>> tf.signal.inverse_mdct(tf.signal.mdct(tf.ones([8]), 4)).shape
    TensorShape([8])
    """
    mdcts = as_tensor(mdcts)
    if mdcts.shape.rank is not None and mdcts.shape.rank < 2:
        raise ValueError(f"Shape {mdcts.shape} must have rank at least 2")
    half = mdcts.shape[-1]
    if half is None:  # (the window needs its length when the function is traced)
        raise ValueError("None values not supported.")
    if norm is None:
        halves = (0.5 / cast(half, mdcts.dtype)) * dct(mdcts, type=4)
    elif norm == "ortho":
        halves = dct(mdcts, type=4, norm="ortho")
    first, second = array_ops.split(halves, 2, axis=-1)
    frames = array_ops.concat([second, -array_ops.reverse(second, [-1]),
                               -array_ops.reverse(first, [-1]), -first], axis=-1)
    if window_fn is not None:
        frames = frames * window_fn(2 * half, dtype=mdcts.dtype)
    else:
        frames = frames * (1.0 / np.sqrt(2))
    return overlap_and_add(frames, half, name=name)
