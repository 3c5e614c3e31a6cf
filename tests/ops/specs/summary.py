"""Specs of the summary and audio ops: ``WriteSummary`` (read back from its event file),
``EncodeWav``/``DecodeWav`` and ``AudioSpectrogram``/``Mfcc`` (against TensorFlow's
recorded outputs)."""
import glob
import os
import struct
import tempfile

import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec

_NO_GRAD = "encoded output"


def _written(values):
    """The tensor a scalar summary of `values` writes, read back from the event file
    (which only eager execution can do: traced, it refuses as a spec that does not trace)."""
    if not tf.executing_eagerly():
        raise TypeError("the WriteSummary spec reads its event file back eagerly")
    logdir = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default(step=3):
        tf.summary.write("v", values)
    writer.close()
    (path,) = glob.glob(os.path.join(logdir, "*"))
    last = list(tf.compat.v1.io.tf_record_iterator(path))[-1]
    event = tf.compat.v1.Event.FromString(last)
    assert event.step == 3 and event.summary.value[0].tag == "v"
    return tf.io.parse_tensor(event.summary.value[0].tensor.SerializeToString(),
                              values.dtype)


def _wav(audio, rate):
    pcm = np.clip(np.floor(np.abs(audio) * 32768 + 0.5) * np.sign(audio), -32768, 32767)
    data = pcm.astype("<i2").tobytes()
    channels = audio.shape[1]
    head = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1,
                       channels, rate, rate * channels * 2, channels * 2, 16, b"data", len(data))
    return np.array(head + data, object)


_AUDIO = np.array([[0.0, 1.0], [-1.0, 0.25], [2.0, -0.5 / 32768]], np.float32)

SPECS = [
    OpSpec("WriteSummary", _written, [np.array([[1.5, -2.0]], np.float32)], lambda v: v,
           grad=_NO_GRAD),
    OpSpec("EncodeWav", tf.audio.encode_wav, [_AUDIO, np.array(16000, np.int32)],
           lambda a, r: _wav(a, int(r)), grad=_NO_GRAD),
    OpSpec("DecodeWav", lambda w: tf.audio.decode_wav(w, desired_channels=3).audio,
           [_wav(np.array([[0.5, -0.25], [-1.0, 0.125]], np.float32), 8000)],
           lambda w: np.array([[0.5, -0.25, -0.25], [-1.0, 0.125, 0.125]], np.float32),
           grad=_NO_GRAD),
    OpSpec("AudioSpectrogram",
           lambda x: tf.raw_ops.AudioSpectrogram(input=x, window_size=6, stride=4),
           [(np.sin(np.arange(14) * 0.7)[:, None] * [1.0, 0.5]).astype(np.float32)],
           lambda x: np.array([  # TF's values
               [[1.9268965, 1.672409, 0.92836314, 0.189225, 0.05376043],
                [2.1930768, 1.7929227, 0.91684955, 0.18882558, 0.061186858],
                [2.2058353, 1.7988731, 0.9162564, 0.18880512, 0.0615428]],
               [[0.9634482, 0.8362045, 0.46418157, 0.0946125, 0.026880216],
                [1.0965384, 0.89646137, 0.45842478, 0.09441279, 0.030593429],
                [1.1029177, 0.89943653, 0.4581282, 0.09440256, 0.0307714]]], np.float32),
           grad="no gradient in TF"),
    OpSpec("Mfcc",
           lambda s, r: tf.raw_ops.Mfcc(spectrogram=s, sample_rate=r, filterbank_channel_count=5,
                                        dct_coefficient_count=3, lower_frequency_limit=300.0,
                                        upper_frequency_limit=3900.0),
           [np.array([[[0.5, 2.0, 1.0, 0.25, 0.0, 3.0, 0.1, 0.2, 4.0],
                       [1.0, 0.3, 2.5, 0.7, 1.5, 0.05, 0.6, 2.0, 0.9]]], np.float32),
            np.array(8000, np.int32)],
           lambda s, r: np.array([[[-17.852896, -16.778025, -13.499288],  # TF's values
                                   [-16.914766, -16.733763, -14.129635]]], np.float32),
           grad="no gradient in TF"),
]


def _raw_written(serialized):
    """The summaries `write_raw_pb` writes, read back from the event file (eagerly only,
    as `_written`: traced, its writer would be closed before the function runs)."""
    if not tf.executing_eagerly():
        raise TypeError("the WriteRawProtoSummary spec reads its event file back eagerly")
    logdir = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default(step=4):
        tf.summary.experimental.write_raw_pb(serialized)
    writer.close()
    (path,) = glob.glob(os.path.join(logdir, "*"))
    events = [tf.compat.v1.Event.FromString(r)
              for r in tf.compat.v1.io.tf_record_iterator(path)][1:]
    assert all(e.step == 4 for e in events)
    return tf.constant([e.summary.SerializeToString() for e in events])


def _raw(tag, value):
    return tf.compat.v1.Summary(value=[tf.compat.v1.Summary.Value(
        tag=tag, simple_value=value)]).SerializeToString()


SPECS += [
    OpSpec("WriteRawProtoSummary", _raw_written,
           # (one event holds them all, as TF writes them: their values concatenated)
           [np.array([_raw("a", 1.0), _raw("b", 2.5)], object)],
           lambda s: np.array([b"".join(s)], object),
           grad=_NO_GRAD),
]


def _flushed(value):
    """What a file holds after a summary and a flush: the summary, read back."""
    logdir = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(logdir, max_queue=100, flush_millis=10 ** 8)
    with writer.as_default(step=1):
        tf.summary.scalar("v", value)
        writer.flush()
        (path,) = glob.glob(os.path.join(logdir, "*"))
        (record,) = list(tf.compat.v1.io.tf_record_iterator(path))[1:]
    writer.close()
    return tf.constant(tf.compat.v1.Event.FromString(record).summary.value[0].tensor
                       .tensor_content)


SPECS += [
    OpSpec("FlushSummaryWriter", _flushed, [np.array(2.0, np.float32)],
           lambda v: np.array(v.tobytes(), object), grad=_NO_GRAD),
]


def _closed(value):
    """What a file holds once ``CloseSummaryWriter`` (a TF 1 graph's `close` op) ran: the
    summary waiting in memory, read back."""
    from tests.internals import dispatch, registry  # noqa: PLC0415
    logdir = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(logdir, max_queue=100, flush_millis=10 ** 8)
    with writer.as_default(step=1):
        tf.summary.scalar("v", value)
        dispatch(registry.get("CloseSummaryWriter"), (), {"writer": writer._id})
        (path,) = glob.glob(os.path.join(logdir, "*"))
        (record,) = list(tf.compat.v1.io.tf_record_iterator(path))[1:]
    return tf.constant(tf.compat.v1.Event.FromString(record).summary.value[0].tensor
                       .tensor_content)


SPECS += [
    OpSpec("CloseSummaryWriter", _closed, [np.array(2.0, np.float32)],
           lambda v: np.array(v.tobytes(), object), grad=_NO_GRAD),
]


def _v1_scalar(value):
    return tf.compat.v1.summary.scalar("s", value)


def _v1_histogram(values):
    return tf.compat.v1.summary.histogram("h", values)


def _v1_merge(a, b):
    """``MergeSummary`` (which `tf.compat.v1.summary.merge` builds in graphs only)."""
    from tests.internals import dispatch, registry  # noqa: PLC0415
    return dispatch(registry.get("MergeSummary"), (a, b))


def _summary_of(tag, value):
    return tf.compat.v1.Summary(value=[tf.compat.v1.Summary.Value(
        tag=tag, simple_value=value)]).SerializeToString()


def _histogram_check(out, args):
    (value,) = tf.compat.v1.Summary.FromString(out.item()).value
    histo = value.histo
    assert value.tag == "h" and histo.num == args[0].size
    assert (histo.min, histo.max, sum(histo.bucket)) == (args[0].min(), args[0].max(), 4)


SPECS += [
    OpSpec("ScalarSummary", _v1_scalar, [np.array(2.5, np.float32)],
           lambda v: np.array(_summary_of("s", 2.5), object), grad=_NO_GRAD),
    OpSpec("HistogramSummary", _v1_histogram, [np.array([1.0, -2.0, 3.0, 0.0], np.float32)],
           check=_histogram_check, grad=_NO_GRAD),
    OpSpec("MergeSummary", _v1_merge,
           [np.array(_summary_of("a", 1.0), object), np.array(_summary_of("b", 2.0), object)],
           lambda a, b: np.array(bytes(a.item()) + bytes(b.item()), object), grad=_NO_GRAD),
]


def _v1_tensor_summary(values):
    return tf.compat.v1.summary.tensor_summary("t", values)


def _tensor_summary_check(out, args):
    (value,) = tf.compat.v1.Summary.FromString(out.item()).value
    assert value.tag == "t" and value.HasField("metadata")
    got = tf.io.parse_tensor(value.tensor.SerializeToString(), tf.int32).numpy()
    assert got.tolist() == args[0].tolist()


SPECS += [
    OpSpec("TensorSummaryV2", _v1_tensor_summary, [np.array([[1, 2, 3]], np.int32)],
           check=_tensor_summary_check, grad=_NO_GRAD),
]


def _v1_image(images):
    return tf.compat.v1.summary.image("i", images, max_outputs=1)


def _image_check(out, args):
    (value,) = tf.compat.v1.Summary.FromString(out.item()).value
    assert value.tag == "i/image" and value.image.colorspace == 3
    pixels = tf.io.decode_png(value.image.encoded_image_string).numpy()
    assert pixels.tolist() == args[0][0].tolist()


SPECS += [
    OpSpec("ImageSummary", _v1_image, [(np.arange(24, dtype=np.uint8) * 9).reshape(2, 2, 2, 3)],
           check=_image_check, grad=_NO_GRAD),
]


def _v1_audio(clips):
    return tf.compat.v1.summary.audio("a", clips, 8000, max_outputs=1)


def _audio_check(out, args):
    (value,) = tf.compat.v1.Summary.FromString(out.item()).value
    assert value.tag == "a/audio" and value.audio.content_type == "audio/wav"
    assert (value.audio.sample_rate, value.audio.num_channels, value.audio.length_frames) == \
        (8000.0, 2, 3)
    wav = tf.audio.decode_wav(value.audio.encoded_audio_string)
    np.testing.assert_allclose(wav.audio.numpy(), args[0][0], atol=1 / 32768)


SPECS += [
    OpSpec("AudioSummaryV2", _v1_audio,
           [np.array([[[0.5, -0.25], [0.0, 1.0], [-1.0, 0.125]]], np.float32)],
           check=_audio_check, grad=_NO_GRAD),
]
