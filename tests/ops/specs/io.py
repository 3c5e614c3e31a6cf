"""Specs of the parsing and file ops (parsing_ops.py, io_ops.py) and of SparseToDense."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec

_NO_GRAD = "parsing op"


def _example(**features):
    feature = {}
    for key, values in features.items():
        if isinstance(values[0], bytes):
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        elif isinstance(values[0], float):
            feature[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        else:
            feature[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


_EXAMPLES = np.array([_example(a=[1, 2], b=[0.5], c=[b"x"]), _example(a=[3, 4], c=[b"y", b"z"])],
                     object)
_SPEC = {"a": tf.io.FixedLenFeature([2], tf.int64),
         "b": tf.io.FixedLenFeature([], tf.float32, default_value=-1.0),
         "c": tf.io.VarLenFeature(tf.string)}


def _parsed(serialized):
    out = tf.io.parse_example(serialized, _SPEC)
    return out["a"], out["b"], out["c"].indices, out["c"].values, out["c"].dense_shape


def _to_dense(values):
    return tf.sparse.to_dense(tf.SparseTensor([[0, 1], [2, 0]], values, [3, 2]))


SPECS = [
    OpSpec("SparseToDense", _to_dense, [np.array([1.5, -2.0])],
           lambda v: np.array([[0, 1.5], [0, 0], [-2.0, 0]])),
    OpSpec("ParseExampleV2", _parsed, [_EXAMPLES],
           lambda s: (np.array([[1, 2], [3, 4]]), np.array([0.5, -1.0], np.float32),
                      np.array([[0, 0], [1, 0], [1, 1]]), np.array([b"x", b"y", b"z"], object),
                      np.array([2, 2])), grad=_NO_GRAD),
    OpSpec("ParseExampleV2", lambda s: tf.io.parse_single_example(s, {
        "a": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})["a"],
        [_EXAMPLES[1]], lambda s: np.array([3, 4]), name="ParseExampleV2-single",
        grad=_NO_GRAD),
]
