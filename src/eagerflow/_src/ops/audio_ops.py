"""Audio ops (``tf.audio``): 16-bit PCM WAV encoding and decoding; the raw ops
AudioSpectrogram and Mfcc of TF's speech examples.

>>> wav = tf.audio.encode_wav(tf.constant([[0.0], [0.5]]), 8000)
>>> wav.numpy()[:4], len(wav.numpy())
(b'RIFF', 48)
"""
import collections
import struct

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, fixed_input_error, \
    no_gradient_entry, register
from eagerflow._src.core.tensor import EagerTensor, Tensor
from eagerflow._src.core.tensor_shape import TensorShape

_HEADER = struct.Struct("<4sI4s4sIHHIIHH4sI")


def _encode_wav(xp, audio, sample_rate):
    if audio.ndim != 2:
        raise errors.InvalidArgumentError(
            None, None, f"audio must be 2-dimensional{errors.shape_text(audio.shape)}")
    if sample_rate.ndim != 0:
        raise errors.InvalidArgumentError(
            None, None, f"Input sample_rate should be a scalar tensor, got "
                        f"{errors.shape_text(sample_rate.shape)} instead.")
    frames, channels = audio.shape
    rate = int(sample_rate) % 2 ** 64  # TF widens the int32 rate to an unsigned size
    if audio.size == 0 and frames > 0:  # frames of no channel: TF finds no samples to read
        raise errors.InvalidArgumentError(None, None, "audio is null")
    if not 0 < rate < 2 ** 32:
        raise errors.InvalidArgumentError(
            None, None, f"sample_rate must be in (0, 2^32), got: {rate}")
    if not 0 < channels < 2 ** 16:
        raise errors.InvalidArgumentError(
            None, None, f"num_channels must be in (0, 2^16), got: {channels}")
    # samples scaled by 2**15, rounded half away from zero and clipped, as TF does
    scaled = np.asarray(audio, np.float32).astype(np.float64) * 32768.0
    pcm = np.clip(np.trunc(scaled + np.copysign(0.5, scaled)), -32768, 32767).astype("<i2")
    data = pcm.tobytes()
    # the header's fields wrap around as TF's fixed-width ones do
    header = _HEADER.pack(b"RIFF", (36 + len(data)) % 2 ** 32, b"WAVE", b"fmt ", 16, 1,
                          channels, rate, rate * channels * 2 % 2 ** 32,
                          channels * 2 % 2 ** 16, 16, b"data", len(data) % 2 ** 32)
    return np.array(header + data, dtype=object)


_ENCODE_WAV = register("EncodeWav", _encode_wav,
                       lambda audio, sample_rate: (TensorShape([]), _d.string),
                       tied=(0,), dtypes=(_d.float32,), not_differentiable="audio encoding")
tf_nodes[_ENCODE_WAV] = NodeForm(types={})
tf_args[_ENCODE_WAV] = ("audio", "sample_rate")
tf_nodes.get(_ENCODE_WAV).outputs = ("contents",)
batching_rules.assign(PER_ELEMENT, _ENCODE_WAV)


@export("audio.encode_wav")
def encode_wav(audio, sample_rate, name=None):
    """A scalar string: `audio` (float32 ``[frames, channels]`` in [-1, 1]) as a 16-bit
    PCM WAV file of `sample_rate` frames per second."""
    inputs = (_fixed_input(_ENCODE_WAV, 0, "audio", audio, _d.float32, name),
              _fixed_input(_ENCODE_WAV, 1, "sample_rate", sample_rate, _d.int32, name))
    try:
        return dispatch(_ENCODE_WAV, inputs, {}, name)
    except errors.OpError as e:
        raise errors.listed(e, audio, sample_rate) from None


def _fixed_input(op, i, input_name, value, dtype, name):
    """Input `i` of `op`, of fixed type `dtype`: other values converted to it; a tensor of
    another dtype refused with TF's error (a TypeError as a graph is built)."""
    if not isinstance(value, Tensor):
        return convert_to_tensor(value, dtype)
    if value.dtype != dtype:
        building = not isinstance(value, EagerTensor)
        error = fixed_input_error(op, i, input_name, dtype, value.dtype, building)
        if not building:  # eagerly, TF's text ends with the op's name
            error = errors.before_kernel(type(error)(None, error.op,
                                                     f"{error.message} name: {name or ''}"))
        raise error
    return value


# -- DecodeWav ---------------------------------------------------------------------------------
DecodeWav = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])


_MAX_CHUNK = 2 ** 31 - 1  # TF's limit on a chunk's size


def _wav_error(message):
    return errors.InvalidArgumentError(None, None, message)


def _parse_wav(data):
    """(int16 samples as (frames, channels), sample rate) of 16-bit PCM WAV bytes, with the
    checks and messages of TF's reader."""
    pos = 0

    def read(size):
        nonlocal pos
        if pos + size > len(data):
            raise _wav_error("Data too short when trying to read string")
        pos += size
        return data[pos - size:pos]

    def expect(token):
        found = read(4)
        if found != token:
            raise _wav_error(f"Header mismatch: Expected {token.decode()} but found "
                             f"{found.decode('latin-1')}")

    def number(fmt):
        return struct.unpack("<" + fmt, read(struct.calcsize(fmt)))[0]

    expect(b"RIFF")
    number("I")
    expect(b"WAVE")
    expect(b"fmt ")
    fmt_size = number("I")
    if fmt_size not in (16, 18):
        raise _wav_error(f"Bad format chunk size for WAV: Expected 16 or 18, but got{fmt_size}")
    audio_format = number("H")
    if audio_format != 1:
        raise _wav_error(f"Bad audio format for WAV: Expected 1 (PCM), but got{audio_format}")
    channels, rate, byte_rate, block_align, bits = (number(f) for f in "HIIHH")
    if channels < 1:
        raise _wav_error(f"Bad number of channels for WAV: Expected at least 1, but got "
                         f"{channels}")
    if bits != 16:
        raise _wav_error(f"Can only read 16-bit WAV files, but received {bits}")
    if block_align != channels * 2:
        raise _wav_error(f"Bad bytes per sample in WAV header: Expected {channels * 2} but got "
                         f"{block_align}")
    if byte_rate != rate * block_align:
        raise _wav_error(f"Bad bytes per second in WAV header: Expected {rate * block_align} "
                         f"but got {byte_rate} (sample_rate={rate}, "
                         f"bytes_per_sample={block_align})")
    read(fmt_size - 16)
    samples = None
    while pos < len(data):
        chunk, size = read(4), number("I")
        if size > _MAX_CHUNK:
            raise _wav_error(f"WAV data chunk '{chunk.decode('latin-1')}' is too large: {size} "
                             f"bytes, but the limit is {_MAX_CHUNK}")
        if chunk != b"data":  # other kinds (LIST, ...) skipped, even past the end as TF does
            pos += size
            continue
        if samples is not None:
            raise _wav_error("More than one data chunk found in WAV")
        # whole frames only: a trailing partial frame's bytes are read as the next chunk
        body = read(size // block_align * block_align)
        samples = np.frombuffer(body, "<i2").reshape(-1, channels)
    if samples is None:
        raise _wav_error("No data chunk found in WAV")
    return samples, rate


def _decode_wav(xp, contents, desired_channels=-1, desired_samples=-1):
    if np.ndim(contents) != 0:
        raise _wav_error(f"contents must be scalar, got shape "
                         f"{errors.shape_text(np.shape(contents))}")
    for attr, value in (("desired_channels", desired_channels),
                        ("desired_samples", desired_samples)):
        if value < -1:
            raise _wav_error(f"{attr} must be >= -1, got {value}")
    samples, rate = _parse_wav(bytes(np.asarray(contents, object).reshape(())[()]))
    frames, channels = samples.shape
    out_channels = channels if desired_channels == -1 else desired_channels
    out_frames = frames if desired_samples == -1 else desired_samples
    # missing channels repeat the last one; missing frames are silence
    source = samples[:out_frames, np.minimum(np.arange(out_channels), channels - 1)]
    audio = np.zeros((out_frames, out_channels), np.float32)
    audio[:source.shape[0]] = source.astype(np.float32) / np.float32(32768)
    return audio, np.array(rate, np.int32)


def _decode_wav_rule(contents, desired_channels=-1, desired_samples=-1):
    shape = TensorShape([None if desired_samples == -1 else desired_samples,
                         None if desired_channels == -1 else desired_channels])
    return [(shape, _d.float32), (TensorShape([]), _d.int32)]


_DECODE_WAV = register("DecodeWav", _decode_wav, _decode_wav_rule, multi=True,
                       dtypes=(_d.string,), not_differentiable="audio decoding")
tf_nodes[_DECODE_WAV] = NodeForm(outputs=("audio", "sample_rate"))
tf_args[_DECODE_WAV] = ("contents",)
batching_rules.assign(PER_ELEMENT, _DECODE_WAV)


def _make_int(value, arg):
    """An int attr given in Python, converted as TF's wrapper does (int(value)); anything that
    does not convert (a list, a str, a tensor only run time knows) is a TypeError naming `arg`;
    None is the attr's default, -1."""
    if value is None:
        return -1
    if not isinstance(value, str):
        try:
            return int(value)
        except (TypeError, ValueError):
            pass
    raise TypeError(f"Expected int for argument '{arg}' not {value!r}.")


@export("audio.decode_wav")
def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """A 16-bit PCM WAV file as ``(audio, sample_rate)``: float32 ``[frames, channels]``
    samples in [-1, 1) and the int32 rate. `desired_channels` repeats the last channel or
    drops channels; `desired_samples` pads with silence or cuts.

    >>> audio, rate = tf.audio.decode_wav(tf.audio.encode_wav([[0.5], [-0.25]], 8000))
    >>> audio.numpy().ravel().tolist(), int(rate)
    ([0.5, -0.25], 8000)
    """
    attrs = {"desired_channels": _make_int(desired_channels, "desired_channels"),
             "desired_samples": _make_int(desired_samples, "desired_samples")}
    inputs = (_fixed_input(_DECODE_WAV, 0, "contents", contents, _d.string, name),)
    try:
        return DecodeWav(*dispatch(_DECODE_WAV, inputs, attrs, name))
    except errors.OpError as e:
        raise errors.listed(e, contents) from None


# -- AudioSpectrogram and Mfcc (raw ops of TF's speech examples) --------------------------------
# Both compute in float64 as TF's kernels do, and give float32.

def _spectrogram_error(window_size, stride):
    return errors.InvalidArgumentError(
        None, None, f"Spectrogram initialization failed for window size {window_size} and "
                    f"stride {stride}")


def _fft_length(window_size):
    """The smallest power of two holding a window."""
    return 1 << max(int(window_size) - 1, 0).bit_length()


def _audio_spectrogram(xp, input, *, window_size, stride, magnitude_squared=False):  # noqa: A002
    if input.ndim != 2:
        raise errors.InvalidArgumentError(
            None, None, f"input must be 2-dimensional{errors.shape_text(input.shape)}")
    if window_size < 2 or stride < 1:
        raise _spectrogram_error(window_size, stride)
    samples, channels = input.shape
    fft_length = _fft_length(window_size)
    frames = 0 if samples < window_size else 1 + (samples - window_size) // stride
    # each channel's frames, by a periodic Hann window, zero-padded to the FFT's length
    starts = np.arange(frames)[:, None] * stride + np.arange(window_size)
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(window_size) / window_size)
    framed = np.asarray(input, np.float64).T[:, starts] * window
    power = np.abs(np.fft.rfft(framed, fft_length, axis=-1)) ** 2
    return (power if magnitude_squared else np.sqrt(power)).astype(np.float32)


def _audio_spectrogram_rule(input, *, window_size, stride, magnitude_squared=False):  # noqa: A002
    shape = input.shape
    if shape.rank is None:
        return TensorShape([None, None, _fft_length(window_size) // 2 + 1]), _d.float32
    if shape.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {shape.rank} for "
                         f"'{{{{node AudioSpectrogram}}}} = AudioSpectrogram"
                         f"[magnitude_squared={str(magnitude_squared).lower()}, "
                         f"stride={stride}, window_size={window_size}]' with input shapes: "
                         f"{errors.shape_text(shape)}.")
    samples = shape[0]
    if samples is not None:
        samples = 0 if samples < window_size else 1 + (samples - window_size) // max(stride, 1)
    return TensorShape([shape[1], samples, _fft_length(window_size) // 2 + 1]), _d.float32


_AUDIO_SPECTROGRAM = register("AudioSpectrogram", _audio_spectrogram, _audio_spectrogram_rule,
                              dtypes=(_d.float32,))
tf_nodes[_AUDIO_SPECTROGRAM] = NodeForm(types={}, defaults={"magnitude_squared": False},
                                        outputs=("spectrogram",))
tf_args[_AUDIO_SPECTROGRAM] = ("input",)


def _freq_to_mel(freq):
    return 1127.0 * np.log1p(np.asarray(freq, np.float64) / 700.0)


def _mel_weights(bins, sample_rate, channels, lower, upper):
    """(first bin, last bin, each bin's channel on the right of its triangle or -1, and
    its weight there): the triangular mel filterbank of TF's MFCC, whose bins between the
    first and last each give `weight` of their magnitude to their channel and the rest to
    the next one."""
    mel_low = _freq_to_mel(lower)
    spacing = (_freq_to_mel(upper) - mel_low) / (channels + 1)
    centers = mel_low + spacing * np.arange(1, channels + 2)
    hz_per_bin = 0.5 * sample_rate / (bins - 1)
    first, last = int(1.5 + lower / hz_per_bin), int(upper / hz_per_bin)
    index = np.arange(first, min(last, bins - 1) + 1)
    mel = _freq_to_mel(index * hz_per_bin)
    # the channel whose center is the last one below each bin (-1: below the first)
    channel = np.minimum(np.searchsorted(centers[:channels], mel, side="left"), channels) - 1
    right = centers[channel + 1]
    left = np.where(channel >= 0, centers[np.maximum(channel, 0)], mel_low)
    return first, last, index, channel, (right - mel) / (right - left)


def _mfcc(xp, spectrogram, sample_rate, *, upper_frequency_limit=4000.0,
          lower_frequency_limit=20.0, filterbank_channel_count=40, dct_coefficient_count=13):
    if spectrogram.ndim != 3:
        raise errors.InvalidArgumentError(
            None, None,
            f"spectrogram must be 3-dimensional{errors.shape_text(spectrogram.shape)}")
    if np.ndim(sample_rate) != 0:
        raise errors.InvalidArgumentError(
            None, None, f"Input sample_rate should be a scalar tensor, got "
                        f"{errors.shape_text(np.shape(sample_rate))} instead.")
    rate, bins, channels = int(sample_rate), spectrogram.shape[2], filterbank_channel_count
    lower, upper = float(lower_frequency_limit), float(upper_frequency_limit)
    if (channels < 1 or rate <= 0 or bins < 2 or lower < 0 or upper <= lower
            or dct_coefficient_count < 1 or dct_coefficient_count > channels):
        raise errors.InvalidArgumentError(
            None, None, f"Mfcc initialization failed for channel count {bins}, sample rate "
                        f"{rate} and filterbank_channel_count {channels}")
    out_shape = spectrogram.shape[:2] + (dct_coefficient_count,)
    first, last, index, channel, weight = _mel_weights(bins, rate, channels, lower, upper)
    if last >= bins:  # (a limit above the spectrogram's top: TF's filterbank gives nothing)
        return np.zeros(out_shape, np.float32)
    magnitude = np.sqrt(np.asarray(spectrogram, np.float64)[..., index])
    weighted = magnitude * weight
    # slot c + 1 is channel c's; slots 0 and channels + 1 take the sides of no channel
    bank = np.zeros(spectrogram.shape[:2] + (channels + 2,))
    np.add.at(bank, (..., channel + 1), weighted)
    np.add.at(bank, (..., channel + 2), magnitude - weighted)
    logs = np.log(np.maximum(bank[..., 1:channels + 1], 1e-12))
    # a DCT-II scaled by sqrt(2 / channels) (no special first term)
    k = np.arange(dct_coefficient_count)[:, None]
    cosines = np.sqrt(2.0 / channels) * np.cos(k * (np.pi / channels) * (np.arange(channels) + 0.5))
    return (logs @ cosines.T).astype(np.float32).reshape(out_shape)


def _mfcc_rule(spectrogram, sample_rate, *, dct_coefficient_count=13, **_):
    shape = spectrogram.shape
    if shape.rank is not None and shape.rank != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {shape.rank} for '{{{{node Mfcc}}}} "
                         f"= Mfcc[]' with input shapes: {errors.shape_text(shape)}, "
                         f"{errors.shape_text(sample_rate.shape)}.")
    if sample_rate.shape.rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {sample_rate.shape.rank} for "
                         f"'{{{{node Mfcc}}}} = Mfcc[]' with input shapes: "
                         f"{errors.shape_text(shape)}, {errors.shape_text(sample_rate.shape)}.")
    known = shape.rank is not None
    return TensorShape([shape[0] if known else None, shape[1] if known else None,
                        dct_coefficient_count]), _d.float32


_MFCC = register("Mfcc", _mfcc, _mfcc_rule, tied=(0,), dtypes=(_d.float32,))
tf_nodes[_MFCC] = NodeForm(types={}, defaults={
    "upper_frequency_limit": 4000.0, "lower_frequency_limit": 20.0,
    "filterbank_channel_count": 40, "dct_coefficient_count": 13}, outputs=("output",))
tf_args[_MFCC] = ("spectrogram", "sample_rate")
batching_rules.assign(PER_ELEMENT, _AUDIO_SPECTROGRAM, _MFCC)
no_gradient_entry("AudioSpectrogram", "Mfcc")
