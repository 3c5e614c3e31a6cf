"""tf.audio.decode_wav: TF's values, static shapes and errors (recorded from TF 2.21)."""
import struct

import numpy as np
import pytest

import eagerflow as tf

_STEREO = [[0.5, -0.25], [-0.5, 1.0], [0.001, -1.0]]


def _wav():
    return tf.audio.encode_wav(tf.constant(_STEREO), 8000)


def _with_size(raw):
    return raw[:4] + struct.pack("<I", len(raw) - 8) + raw[8:]


def test_round_trip_channels_and_samples():
    audio, rate = tf.audio.decode_wav(_wav())
    assert audio.dtype == tf.float32 and rate.dtype == tf.int32 and int(rate) == 8000
    np.testing.assert_array_equal(
        audio, np.float32([[0.5, -0.25], [-0.5, 0.9999695], [0.0010070801, -1.0]]))
    out = tf.audio.decode_wav(_wav(), desired_channels=3, desired_samples=5)
    assert type(out).__name__ == "DecodeWav" and out._fields == ("audio", "sample_rate")
    # the last channel repeats, missing frames are silence
    np.testing.assert_array_equal(out.audio[:, 2], out.audio[:, 1])
    np.testing.assert_array_equal(out.audio[3:], np.zeros([2, 3]))
    assert tf.audio.decode_wav(_wav(), desired_channels=1).audio.shape == [3, 1]
    assert tf.audio.decode_wav(_wav(), desired_samples=2).audio.shape == [2, 2]
    mono = tf.audio.encode_wav(tf.constant([[0.5], [-0.5]]), 16000)
    np.testing.assert_array_equal(tf.audio.decode_wav(mono, desired_channels=2).audio,
                                  [[0.5, 0.5], [-0.5, -0.5]])


def test_other_chunks_are_skipped():
    raw = _wav().numpy()
    extended = _with_size(raw[:36] + b"LIST" + struct.pack("<I", 4) + b"abcd" + raw[36:])
    assert tf.audio.decode_wav(extended).audio.shape == [3, 2]
    # a chunk after the data that claims more bytes than there are is skipped too, as TF does
    truncated = raw + b"LIST" + struct.pack("<I", 100) + b"ab"
    np.testing.assert_array_equal(tf.audio.decode_wav(truncated).audio,
                                  tf.audio.decode_wav(raw).audio)


def test_static_shapes_in_function_and_dataset():
    @tf.function
    def decode(x):
        mono = tf.audio.decode_wav(x, desired_channels=1)
        free = tf.audio.decode_wav(x)
        assert mono.audio.shape.as_list() == [None, 1] and mono.sample_rate.shape == []
        assert free.audio.shape.as_list() == [None, None]
        return mono.audio
    assert decode(_wav()).shape == [3, 1]
    ds = tf.data.Dataset.from_tensors(_wav()).map(lambda x: tf.squeeze(
        tf.audio.decode_wav(x, desired_channels=1, desired_samples=4).audio, -1))
    assert ds.element_spec == tf.TensorSpec([4], tf.float32)
    np.testing.assert_array_equal(next(iter(ds)), np.float32([0.5, -0.5, 0.0010070801, 0.0]))


@pytest.mark.parametrize("edit,message", [
    (lambda raw: b"", "Data too short when trying to read string"),
    (lambda raw: b"RIFX" + raw[4:], "Header mismatch: Expected RIFF but found RIFX"),
    (lambda raw: raw[:20] + struct.pack("<H", 3) + raw[22:],
     r"Bad audio format for WAV: Expected 1 \(PCM\), but got3"),
    (lambda raw: raw[:34] + struct.pack("<H", 8) + raw[36:],
     "Can only read 16-bit WAV files, but received 8"),
    (lambda raw: raw[:22] + struct.pack("<H", 0) + raw[24:],
     "Bad number of channels for WAV: Expected at least 1, but got 0"),
    (lambda raw: raw[:28] + struct.pack("<I", 1) + raw[32:],
     r"Bad bytes per second in WAV header: Expected 32000 but got 1 \(sample_rate=8000, "
     r"bytes_per_sample=4\)"),
    (lambda raw: _with_size(raw[:36]), "No data chunk found in WAV"),
    (lambda raw: raw[:-1], "Data too short when trying to read string"),
    (lambda raw: raw + b"data" + struct.pack("<I", 4) + bytes(4),
     "More than one data chunk found in WAV"),
    (lambda raw: raw + b"LIST" + struct.pack("<I", 2 ** 31 + 5),
     "WAV data chunk 'LIST' is too large: 2147483653 bytes, but the limit is 2147483647"),
    (lambda raw: raw[:40] + struct.pack("<I", 13) + raw[44:] + b"\x01",
     "Data too short when trying to read string"),  # (the partial frame read as a chunk)
])
def test_malformed_files_raise_tfs_errors(edit, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message + r" \[Op:DecodeWav\]"):
        tf.audio.decode_wav(edit(_wav().numpy()))


def test_bad_arguments():
    with pytest.raises(tf.errors.InvalidArgumentError, match="contents must be scalar, got "
                                                             r"shape \[2\]"):
        tf.audio.decode_wav([_wav(), _wav()])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="desired_channels must be >= -1, got -2"):
        tf.audio.decode_wav(_wav(), desired_channels=-2)


def test_desired_sizes_convert_as_tfs_int_attrs():
    wav = tf.audio.encode_wav(tf.ones([4, 2]) * 0.5, 8000)
    assert tf.audio.decode_wav(wav, desired_samples=None).audio.shape == (4, 2)
    assert tf.audio.decode_wav(wav, desired_samples=tf.constant(2)).audio.shape == (2, 2)
    with pytest.raises(TypeError, match=r"Expected int for argument 'desired_samples' not \[2\]"):
        tf.audio.decode_wav(wav, desired_samples=[2])
    with pytest.raises(TypeError, match="Expected int for argument 'desired_channels' not '1'"):
        tf.audio.decode_wav(wav, desired_channels="1")

    @tf.function(input_signature=[tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.int32)])
    def decode(contents, samples):  # (an attr: a tensor only run time knows is refused)
        return tf.audio.decode_wav(contents, desired_samples=samples)
    with pytest.raises(TypeError, match="Expected int for argument 'desired_samples' not <tf.Tensor"):
        decode.get_concrete_function()
