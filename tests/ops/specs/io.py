"""Specs of the parsing and file ops (parsing_ops.py, io_ops.py) and of SparseToDense."""
import os
import tempfile
import zlib

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


def _parsed_v1(serialized):
    # TF 1's op, as graphs written by TF 1 hold it
    out = tf.raw_ops.ParseExample(
        serialized=serialized, names=[], sparse_keys=["c"], dense_keys=["a", "b"],
        dense_defaults=[tf.constant([], tf.int64), tf.constant([-1.0])],
        sparse_types=[tf.string], dense_shapes=[[2], [1]])
    return (*out.dense_values, out.sparse_indices[0], out.sparse_values[0],
            out.sparse_shapes[0])


def _parsed_single(serialized):
    out = tf.raw_ops.ParseSingleExample(
        serialized=serialized, dense_defaults=[tf.constant([], tf.int64)], num_sparse=1,
        sparse_keys=["c"], dense_keys=["a"], sparse_types=[tf.string], dense_shapes=[[2]])
    return (out.dense_values[0], out.sparse_indices[0], out.sparse_values[0],
            out.sparse_shapes[0])


def _parsed_single_sequence(serialized):
    # TF 1's op, as graphs written by TF 1 hold it
    out = tf.raw_ops.ParseSingleSequenceExample(
        serialized=serialized, feature_list_dense_missing_assumed_empty=["d"],
        context_sparse_keys=[], context_dense_keys=["n"], feature_list_sparse_keys=["w"],
        feature_list_dense_keys=["d"], context_dense_defaults=[tf.constant([], tf.int64)],
        debug_name="", feature_list_dense_types=[tf.int64], context_dense_shapes=[[]],
        feature_list_dense_shapes=[[]], feature_list_sparse_types=[tf.int64])
    return (out.context_dense_values[0], out.feature_list_sparse_indices[0],
            out.feature_list_sparse_values[0], out.feature_list_sparse_shapes[0],
            out.feature_list_dense_values[0])


def _to_dense(values):
    return tf.sparse.to_dense(tf.SparseTensor([[0, 1], [2, 0]], values, [3, 2]))


SPECS = [
    OpSpec("SparseToDense", _to_dense, [np.array([1.5, -2.0])],
           lambda v: np.array([[0, 1.5], [0, 0], [-2.0, 0]])),
    OpSpec("ParseExampleV2", _parsed, [_EXAMPLES],
           lambda s: (np.array([[1, 2], [3, 4]]), np.array([0.5, -1.0], np.float32),
                      np.array([[0, 0], [1, 0], [1, 1]]), np.array([b"x", b"y", b"z"], object),
                      np.array([2, 2])), grad=_NO_GRAD),
    OpSpec("ParseExample", _parsed_v1, [_EXAMPLES],
           lambda s: (np.array([[1, 2], [3, 4]]), np.array([[0.5], [-1.0]], np.float32),
                      np.array([[0, 0], [1, 0], [1, 1]]), np.array([b"x", b"y", b"z"], object),
                      np.array([2, 2])), grad=_NO_GRAD),
    OpSpec("ParseSingleExample", _parsed_single, [_EXAMPLES[1]],
           lambda s: (np.array([3, 4]), np.array([[0], [1]]), np.array([b"y", b"z"], object),
                      np.array([2])), grad=_NO_GRAD),
    OpSpec("ParseExampleV2", lambda s: tf.io.parse_single_example(s, {
        "a": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})["a"],
        [_EXAMPLES[1]], lambda s: np.array([3, 4]), name="ParseExampleV2-single",
        grad=_NO_GRAD),
]


_FOLDER = tempfile.mkdtemp(prefix="eagerflow_io_spec_")
_FILE = os.path.join(_FOLDER, "spec.txt")


def _write_then_read(path, text):
    tf.io.write_file(path, text)
    return tf.io.read_file(path)


def _matching(pattern):
    tf.io.write_file(_FILE, "x")
    return tf.io.matching_files(pattern)


_VALUES = np.array([[1.5, -2.0], [0.0, 3.25]], np.float32)

SPECS += [
    OpSpec("WriteFile", _write_then_read, [np.array(_FILE.encode(), object),
                                           np.array(b"text", object)],
           lambda p, t: np.array(b"text", object), grad=_NO_GRAD),
    OpSpec("ReadFile", _write_then_read, [np.array(_FILE.encode(), object),
                                          np.array(b"more", object)],
           lambda p, t: np.array(b"more", object), grad=_NO_GRAD),
    OpSpec("MatchingFiles", _matching, [np.array(os.path.join(_FOLDER, "*.txt").encode(),
                                                 object)],
           lambda p: np.array([_FILE.encode()], object), grad=_NO_GRAD),
    OpSpec("SerializeTensor", tf.io.serialize_tensor, [np.array(7, np.int32)],
           lambda x: np.array(b"\x08\x03\x12\x00\x22\x04\x07\x00\x00\x00", object),
           grad=_NO_GRAD),
    OpSpec("DecodeJSONExample", tf.io.decode_json_example,
           [np.array([b'{"features": {"feature": {"a": {"int64List": {"value": ["7"]}}}}}',
                      b"{}"], object)],
           lambda j: np.array([b"\n\x0b\n\t\n\x01a\x12\x04\x1a\x02\x08\x07", b""], object),
           grad=_NO_GRAD),
    OpSpec("SerializeSparse", lambda v: tf.io.parse_tensor(tf.io.serialize_sparse(
        tf.SparseTensor([[0, 1], [1, 0]], v, [2, 2]))[1], tf.float32),
           [np.array([1.5, -2.0], np.float32)], lambda v: v, grad=_NO_GRAD),
    OpSpec("SerializeManySparse", lambda v: tf.io.parse_tensor(tf.io.serialize_many_sparse(
        tf.SparseTensor([[0, 1], [1, 0]], v, [2, 2]))[1, 1], tf.float32),
           [np.array([1.5, -2.0], np.float32)], lambda v: v[1:], grad=_NO_GRAD),
    OpSpec("DeserializeManySparse", lambda v: tf.io.deserialize_many_sparse(
        tf.io.serialize_many_sparse(tf.SparseTensor([[0, 1], [1, 0]], v, [2, 2])),
        tf.float32).values, [np.array([1.5, -2.0], np.float32)], lambda v: v, grad=_NO_GRAD),
    OpSpec("DeserializeSparse", lambda v: tf.raw_ops.DeserializeSparse(
        serialized_sparse=tf.reshape(tf.io.serialize_many_sparse(tf.SparseTensor(
            [[0, 1], [1, 0]], v, [2, 2])), [1, 2, 3]), dtype=tf.float32),
           [np.array([1.5, -2.0], np.float32)],
           lambda v: (np.array([[0, 0, 1], [0, 1, 0]]), v, np.array([1, 2, 2])), grad=_NO_GRAD),
    OpSpec("ParseTensor", lambda x: tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float32),
           [_VALUES], lambda x: x, grad=_NO_GRAD),
    OpSpec("DecodeRaw", lambda b: tf.io.decode_raw(b, tf.int16),
           [np.array([b"\x01\x02\x03\x04", b"\x00\x00\xff\xff"], object)],
           lambda b: np.array([[513, 1027], [0, -1]], np.int16), grad=_NO_GRAD),
    OpSpec("DecodePaddedRaw", lambda b: tf.io.decode_raw(b, tf.uint16, little_endian=False,
                                                         fixed_length=4),
           [np.array([b"\x01\x02", b"\x00\x01\x00\x02\x03"], object)],
           lambda b: np.array([[258, 0], [1, 2]], np.uint16), grad=_NO_GRAD),
    OpSpec("DecodeCSV", lambda r: tf.io.decode_csv(r, [[0], [0.0], ["?"]]),
           [np.array([b"1,2.5,a", b'3,,"b,c"'], object)],
           lambda r: [np.array([1, 3], np.int32), np.array([2.5, 0.0], np.float32),
                      np.array([b"a", b"b,c"], object)], grad=_NO_GRAD),
]


def _sequence_example():
    def feature(v):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=v))
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={"n": feature([2])}),
        feature_lists=tf.train.FeatureLists(feature_list={
            "w": tf.train.FeatureList(feature=[feature([4]), feature([5, 6])])}),
    ).SerializeToString()


def _parsed_sequence(serialized):
    context, lists, lengths = tf.io.parse_sequence_example(
        serialized, {"n": tf.io.FixedLenFeature([], tf.int64)},
        {"w": tf.io.VarLenFeature(tf.int64),
         "d": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})
    return (context["n"], lists["w"].indices, lists["w"].values, lists["w"].dense_shape,
            lists["d"], lengths["d"])


SPECS.append(OpSpec(
    "ParseSequenceExampleV2", _parsed_sequence,
    [np.array([_sequence_example()] * 2, object)],
    lambda s: (np.array([2, 2]), np.array([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0],
                                           [1, 1, 0], [1, 1, 1]]),
               np.array([4, 5, 6, 4, 5, 6]), np.array([2, 2, 2]), np.zeros((2, 0), np.int64),
               np.array([0, 0])), grad=_NO_GRAD))
SPECS.append(OpSpec(
    "ParseSingleSequenceExample", _parsed_single_sequence,
    [np.array(_sequence_example(), object)],
    lambda s: (np.array(2), np.array([[0, 0], [1, 0], [1, 1]]), np.array([4, 5, 6]),
               np.array([2, 2]), np.zeros(0, np.int64)), grad=_NO_GRAD))

SPECS += [
    OpSpec("EncodeBase64", lambda x: tf.io.encode_base64(x, pad=True),
           [np.array([[b"\xff\xfe\xfd", b"a"]], object)],
           lambda x: np.array([[b"__79", b"YQ=="]], object), grad=_NO_GRAD),
    OpSpec("DecodeBase64", tf.io.decode_base64, [np.array([b"__79", b"YQ"], object)],
           lambda x: np.array([b"\xff\xfe\xfd", b"a"], object), grad=_NO_GRAD),
    OpSpec("DecodeCompressed", lambda x: tf.io.decode_compressed(x, "ZLIB"),
           [np.array([zlib.compress(b"hello"), zlib.compress(b"")], object)],
           lambda x: np.array([b"hello", b""], object), grad=_NO_GRAD),
]
