"""Audio ops (``tf.audio``): 16-bit PCM WAV encoding and decoding.

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
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, fixed_input_error, register
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


@export("audio.decode_wav")
def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """A 16-bit PCM WAV file as ``(audio, sample_rate)``: float32 ``[frames, channels]``
    samples in [-1, 1) and the int32 rate. `desired_channels` repeats the last channel or
    drops channels; `desired_samples` pads with silence or cuts.

    >>> audio, rate = tf.audio.decode_wav(tf.audio.encode_wav([[0.5], [-0.25]], 8000))
    >>> audio.numpy().ravel().tolist(), int(rate)
    ([0.5, -0.25], 8000)
    """
    attrs = {"desired_channels": int(desired_channels), "desired_samples": int(desired_samples)}
    inputs = (_fixed_input(_DECODE_WAV, 0, "contents", contents, _d.string, name),)
    try:
        return DecodeWav(*dispatch(_DECODE_WAV, inputs, attrs, name))
    except errors.OpError as e:
        raise errors.listed(e, contents) from None
