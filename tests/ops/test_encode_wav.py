"""tf.audio.encode_wav's checks and header fields, and the name ending of the eager errors
of the audio and raw-decoding ops (recorded from TF 2.21)."""
import struct

import numpy as np
import pytest

import eagerflow as tf


def _header(wav):
    return struct.unpack("<4sI4s4sIHHIIHH4sI", wav.numpy()[:44])


@pytest.mark.parametrize("shape,rate,message", [
    ([2, 0], 8000, "audio is null"),
    ([2, 0], 0, "audio is null"),  # checked before the rate
    ([0, 0], 0, r"sample_rate must be in \(0, 2\^32\), got: 0"),
    ([0, 1], 0, r"sample_rate must be in \(0, 2\^32\), got: 0"),
    ([2, 1], -5, r"sample_rate must be in \(0, 2\^32\), got: 18446744073709551611"),
    ([0, 0], 8000, r"num_channels must be in \(0, 2\^16\), got: 0"),
    ([1, 70000], 8000, r"num_channels must be in \(0, 2\^16\), got: 70000"),
])
def test_encode_wav_refuses_what_tf_refuses(shape, rate, message):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=message + r" \[Op:EncodeWav\] name: $"):
        tf.audio.encode_wav(tf.zeros(shape), rate)


def test_encode_wav_refuses_a_zero_rate_in_a_function():
    f = tf.function(lambda a, r: tf.audio.encode_wav(a, r))
    with pytest.raises(tf.errors.InvalidArgumentError, match="sample_rate must be in"):
        f(tf.zeros([1, 1]), tf.constant(0))


def test_encode_wav_header_fields_wrap_as_tfs_fixed_width_ones():
    # bytes per second and bytes per frame overflow their 32 and 16 bits
    assert _header(tf.audio.encode_wav(tf.zeros([1, 2]), 2 ** 31 - 1))[7:9] == (
        2 ** 31 - 1, 0xFFFFFFFC)
    assert _header(tf.audio.encode_wav(tf.zeros([1, 3]), 2 ** 30 + 7))[8] == 0x8000002A
    wide = _header(tf.audio.encode_wav(tf.zeros([1, 65535]), 8000))
    assert wide[6] == 65535 and wide[9] == 0xFFFE and wide[12] == 131070


def test_encode_wav_inputs_have_fixed_dtypes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^cannot compute EncodeWav as input #1\(zero-based\) was expected "
                             r"to be a int32 tensor but is a int64 tensor \[Op:EncodeWav\] "
                             r"name: $"):
        tf.audio.encode_wav(tf.zeros([1, 1]), tf.constant(8000, tf.int64))
    f = tf.function(lambda a, r: tf.audio.encode_wav(a, r))
    with pytest.raises(TypeError, match="Input 'sample_rate' of 'EncodeWav' Op has type int64 "
                                        "that does not match expected type of int32."):
        f(tf.zeros([1, 1]), tf.constant(8000, tf.int64))
    with pytest.raises(TypeError, match="Input 'audio' of 'EncodeWav' Op has type float64 that "
                                        "does not match expected type of float32."):
        f(tf.zeros([1, 1], tf.float64), tf.constant(8000))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor "
                                                             "but is a int32 tensor"):
        tf.audio.decode_wav(tf.constant(1))
    # NumPy values are converted
    assert len(tf.audio.encode_wav(np.zeros([2, 1]), np.int64(8000)).numpy()) == 48


@pytest.mark.parametrize("call,op", [
    (lambda: tf.audio.decode_wav(b""), "DecodeWav"),
    (lambda: tf.audio.decode_wav([b"a", b"b"]), "DecodeWav"),
    (lambda: tf.audio.encode_wav([0.0, 1.0], 8000), "EncodeWav"),
    (lambda: tf.audio.encode_wav([[0.0]], 0), "EncodeWav"),
    (lambda: tf.audio.encode_wav(tf.zeros([1, 1]), [8000]), "EncodeWav"),
    (lambda: tf.io.decode_raw(b"abc", tf.int16), "DecodeRaw"),
    (lambda: tf.io.decode_raw([b"abc", b"ab"], tf.int8), "DecodeRaw"),
    (lambda: tf.io.decode_raw(b"abc", tf.int16, fixed_length=3), "DecodePaddedRaw"),
    (lambda: tf.io.parse_tensor(b"abc", tf.float32), "ParseTensor"),
])
def test_python_values_take_tfs_slow_path_whose_errors_have_no_name(call, op):
    with pytest.raises(tf.errors.InvalidArgumentError, match=rf"\[Op:{op}\]$"):
        call()


@pytest.mark.parametrize("call,op", [
    (lambda: tf.audio.decode_wav(tf.constant(b"")), "DecodeWav"),
    (lambda: tf.io.decode_raw(tf.constant(b"abc"), tf.int16), "DecodeRaw"),
    (lambda: tf.io.parse_tensor(tf.constant(b"abc"), tf.float32), "ParseTensor"),
])
def test_tensors_take_tfs_fast_path_whose_errors_end_with_the_name(call, op):
    with pytest.raises(tf.errors.InvalidArgumentError, match=rf"\[Op:{op}\] name: $"):
        call()
