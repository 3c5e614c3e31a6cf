"""tf.raw_ops.AudioSpectrogram and Mfcc (TF's speech examples' features): shapes, edge cases
and errors as TF gives them (values: the registry specs)."""
import re

import numpy as np
import pytest

import eagerflow as tf

_AUDIO = np.random.default_rng(0).uniform(-1, 1, (50, 2)).astype(np.float32)


def _spectrogram(x, window_size=16, stride=8, **kw):
    return tf.raw_ops.AudioSpectrogram(input=x, window_size=window_size, stride=stride, **kw)


def test_frames_bins_and_magnitude():
    power = _spectrogram(_AUDIO, magnitude_squared=True)
    assert power.shape == (2, 5, 9) and power.dtype == tf.float32
    np.testing.assert_allclose(_spectrogram(_AUDIO).numpy() ** 2, power.numpy(), rtol=1e-5)
    # a window that is not a power of two: the FFT pads it to the next one
    assert _spectrogram(_AUDIO, window_size=12, stride=5).shape == (2, 8, 9)
    assert _spectrogram(_AUDIO[:5]).shape == (2, 0, 9)  # shorter than a window


@pytest.mark.parametrize("x, window_size, stride, text", [
    (_AUDIO[:, 0], 16, 8, "input must be 2-dimensional[50]"),
    (_AUDIO, 1, 8, "Spectrogram initialization failed for window size 1 and stride 8"),
    (_AUDIO, 4, 0, "Spectrogram initialization failed for window size 4 and stride 0"),
])
def test_spectrogram_errors(x, window_size, stride, text):
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(text)):
        _spectrogram(x, window_size, stride)


def test_mfcc_shapes_and_a_silent_input():
    power = _spectrogram(_AUDIO, magnitude_squared=True)
    assert tf.raw_ops.Mfcc(spectrogram=power, sample_rate=16000).shape == (2, 5, 13)
    # silence: every filterbank channel at TF's floor (log 1e-12), so only the first term
    silent = tf.raw_ops.Mfcc(spectrogram=tf.zeros((1, 2, 9)), sample_rate=16000).numpy()
    np.testing.assert_allclose(silent[..., 0], -247.13936, rtol=1e-6)
    np.testing.assert_allclose(silent[..., 1:], 0.0, atol=1e-5)
    # an upper limit above the spectrogram's top frequency: TF's filterbank gives nothing
    above = tf.raw_ops.Mfcc(spectrogram=power, sample_rate=1000, upper_frequency_limit=4000.0)
    assert not above.numpy().any()


@pytest.mark.parametrize("kw, text", [
    ({"lower_frequency_limit": 5000.0}, "channel count 9, sample rate 16000 and "
                                        "filterbank_channel_count 40"),
    ({"dct_coefficient_count": 50}, "channel count 9, sample rate 16000 and "
                                    "filterbank_channel_count 40"),
    ({"filterbank_channel_count": 0}, "channel count 9, sample rate 16000 and "
                                     "filterbank_channel_count 0"),
    ({"sample_rate": 0}, "channel count 9, sample rate 0 and"),
    ({"lower_frequency_limit": -1.0}, "channel count 9, sample rate 16000"),
])
def test_mfcc_initialization_errors(kw, text):
    power = _spectrogram(_AUDIO, magnitude_squared=True)
    kw = {"sample_rate": 16000, **kw}
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("Mfcc initialization failed for " + text)):
        tf.raw_ops.Mfcc(spectrogram=power, **kw)


def test_mfcc_input_errors():
    power = _spectrogram(_AUDIO, magnitude_squared=True)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("spectrogram must be 3-dimensional[5,9]")):
        tf.raw_ops.Mfcc(spectrogram=power[0], sample_rate=16000)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=re.escape("Input sample_rate should be a scalar tensor, got [1]")):
        tf.raw_ops.Mfcc(spectrogram=power, sample_rate=[16000])


def test_traced_shapes_and_no_gradient():
    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def features(x):
        power = tf.raw_ops.AudioSpectrogram(input=x, window_size=12, stride=5)
        assert power.shape.as_list() == [2, None, 9]
        mfcc = tf.raw_ops.Mfcc(spectrogram=power, sample_rate=16000, dct_coefficient_count=5)
        assert mfcc.shape.as_list() == [2, None, 5]
        return mfcc

    assert features(_AUDIO).shape == (2, 8, 5)
    x = tf.constant(_AUDIO)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = _spectrogram(x)
    with pytest.raises(LookupError, match="gradient registry has no entry for: "
                                          "AudioSpectrogram"):
        tape.gradient(y, x)
