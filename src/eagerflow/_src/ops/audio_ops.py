"""Audio ops (``tf.audio``): 16-bit PCM WAV encoding.

>>> wav = tf.audio.encode_wav(tf.constant([[0.0], [0.5]]), 8000)
>>> wav.numpy()[:4], len(wav.numpy())
(b'RIFF', 48)
"""
import struct

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.tensor import Tensor
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
    rate = int(sample_rate)
    # samples scaled by 2**15, rounded half away from zero and clipped, as TF does
    scaled = np.asarray(audio, np.float32).astype(np.float64) * 32768.0
    pcm = np.clip(np.trunc(scaled + np.copysign(0.5, scaled)), -32768, 32767).astype("<i2")
    data = pcm.tobytes()
    header = _HEADER.pack(b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16, 1, channels, rate,
                          rate * channels * 2, channels * 2, 16, b"data", len(data))
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
    if not isinstance(audio, Tensor):  # (a tensor keeps its dtype: EncodeWav checks it)
        audio = convert_to_tensor(audio, _d.float32)
    return dispatch(_ENCODE_WAV, (audio, convert_to_tensor(sample_rate, _d.int32)), {}, name)
