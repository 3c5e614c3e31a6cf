"""Specs of the protocol buffer ops (tf.io.decode_proto / encode_proto) on TF's Int64List."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec

_NO_GRAD = "serialized messages"
_LISTS = np.array([b"\n\x02\x04\x05", b"", b"\n\x01\x07"], object)


def _decode(b):
    sizes, (values,) = tf.io.decode_proto(b, "tensorflow.Int64List", ["value"], [tf.int64])
    return sizes, values


def _encode(sizes, values):
    return tf.io.encode_proto(sizes, [values], ["value"], "tensorflow.Int64List")


SPECS = [
    OpSpec("DecodeProtoV2", _decode, [_LISTS],
           lambda b: (np.array([[2], [0], [1]], np.int32),
                      np.array([[4, 5], [0, 0], [7, 0]], np.int64)), grad=_NO_GRAD),
    OpSpec("EncodeProto", _encode,
           [np.array([[2], [0], [1]], np.int32), np.array([[4, 5], [0, 0], [7, 0]], np.int64)],
           lambda s, v: _LISTS, grad=_NO_GRAD),
]
