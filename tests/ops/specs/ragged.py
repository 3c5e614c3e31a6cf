"""Specs of the ragged ops (ragged_tensor.py, ragged_string_ops.py)."""
import numpy as np

import eagerflow as tf
from tests.ops.spec import OpSpec

_NO_GRAD = "string op"


def _obj(*values):
    out = np.empty(len(values), object)
    out[:] = [v.encode() if isinstance(v, str) else v for v in values]
    return out


def _to_tensor(values):
    return tf.RaggedTensor.from_row_lengths(values, [2, 0, 1]).to_tensor(default_value=-1.0)


def _to_tensor_shaped(values):
    return tf.RaggedTensor.from_row_lengths(values, [2, 0, 1]).to_tensor(shape=[4, 1])


def _nested_to_tensor(values):
    return tf.RaggedTensor.from_nested_row_lengths(values, [[2, 1], [1, 0, 2]]).to_tensor()


def _ragged_range(starts):
    return tf.raw_ops.RaggedRange(starts=starts, limits=[3, 5, 8], deltas=[1, 1, 3])


def _ragged_to_sparse(values):
    return tf.raw_ops.RaggedTensorToSparse(rt_nested_splits=[[0, 2, 3], [0, 1, 1, 3]],
                                           rt_dense_values=values)


def _ragged_gather(values):
    return tf.raw_ops.RaggedGather(params_nested_splits=[[0, 2, 2, 3], [0, 1, 3, 6]],
                                   params_dense_values=values, indices=[[2], [0]],
                                   OUTPUT_RAGGED_RANK=3)


def _ragged_bincount(values):
    return tf.math.bincount(tf.RaggedTensor.from_row_lengths(values, [3, 0, 1]), axis=-1,
                            minlength=5)


def _ragged_count(values):
    counts = tf.sparse.bincount(tf.RaggedTensor.from_row_lengths(values, [3, 0, 1]), axis=-1)
    return counts.indices, counts.values, counts.dense_shape


def _ragged_cross(values):
    crossed = tf.ragged.cross([tf.RaggedTensor.from_row_lengths(values, [2, 0, 1]),
                               tf.constant([["a"], ["b"], ["c"]])])
    return crossed.values, crossed.row_splits


def _variant_round_trip(values):
    encoded = tf.raw_ops.RaggedTensorToVariant(rt_nested_splits=[[0, 2, 2, 3]],
                                               rt_dense_values=values, batched_input=True)
    return tf.raw_ops.RaggedTensorFromVariant(encoded_ragged=encoded, input_ragged_rank=0,
                                              output_ragged_rank=1, Tvalues=tf.float32)


SPECS = [
    OpSpec("RaggedBincount", _ragged_bincount, [np.array([1, 2, 2, 7], np.int32)],
           lambda v: np.array([[0, 1, 2, 0, 0, 0, 0, 0], [0] * 8, [0, 0, 0, 0, 0, 0, 0, 1]],
                              np.int32), grad="counts"),
    OpSpec("RaggedCountSparseOutput", _ragged_count, [np.array([2, 1, 2, 0], np.int64)],
           lambda v: [np.array([[0, 1], [0, 2], [2, 0]]), np.array([1, 2, 1]),
                      np.array([3, 3])], grad="counts"),
    OpSpec("RaggedCross", _ragged_cross, [np.array([1, 2, 3], np.int64)],
           lambda v: [_obj("1_X_a", "2_X_a", "3_X_c"), np.array([0, 2, 2, 3])],
           grad="crosses features"),
    OpSpec("RaggedTensorToVariant", lambda v: _variant_round_trip(v)[1] * v,
           [np.array([1.0, 2.0, 3.0], np.float32)], lambda v: v * v),
    OpSpec("RaggedTensorFromVariant", lambda v: _variant_round_trip(v)[0],
           [np.array([1.0, 2.0, 3.0], np.float32)], lambda v: np.array([0, 2, 2, 3]),
           grad="integer row splits"),
    OpSpec("RaggedTensorToVariantGradient", lambda v: tf.raw_ops.RaggedTensorToVariantGradient(
        encoded_ragged_grad=tf.raw_ops.RaggedTensorToVariant(
            rt_nested_splits=[[0, 2, 2, 3]], rt_dense_values=v, batched_input=True),
        row_splits=[0, 2, 2, 3], dense_values_shape=[3], Tvalues=tf.float32),
           [np.array([1.0, 2.0, 3.0], np.float32)], lambda v: v, grad="a gradient itself"),
    OpSpec("RaggedGather", lambda v: _ragged_gather(v)[1],
           [np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])],
           lambda v: np.array([4.0, 5.0, 6.0, 1.0, 2.0, 3.0]), grad="not differentiable"),
    OpSpec("RaggedRange", _ragged_range, [np.array([0, 5, 2], np.int32)],
           lambda s: [np.array([0, 3, 3, 5]), np.array([0, 1, 2, 2, 5], np.int32)],
           grad="integer row splits"),
    OpSpec("RaggedTensorToSparse", _ragged_to_sparse, [np.array([[1.0, 2.0], [3.0, 4.0],
                                                                 [5.0, 6.0]])],
           lambda v: [np.array([[0, 0, 0, k] for k in (0, 1)] + [[1, 0, 0, k] for k in (0, 1)]
                               + [[1, 0, 1, k] for k in (0, 1)]), v.reshape(-1),
                      np.array([2, 2, 2, 2])], grad="not differentiable"),
    OpSpec("RaggedTensorToTensor", _to_tensor, [np.array([1.5, -2.0, 3.0])],
           lambda v: np.array([[1.5, -2.0], [-1.0, -1.0], [3.0, -1.0]])),
    OpSpec("RaggedTensorToTensor", _to_tensor_shaped, [np.array([1.5, -2.0, 3.0])],
           lambda v: np.array([[1.5], [0.0], [3.0], [0.0]]), name="RaggedTensorToTensor-shape"),
    OpSpec("RaggedTensorToTensor", _nested_to_tensor, [np.array([[1.0, 2.0], [3.0, 4.0],
                                                                 [5.0, 6.0]])],
           lambda v: np.array([[[[1.0, 2.0], [0, 0]], [[0, 0], [0, 0]]],
                                [[[3.0, 4.0], [5.0, 6.0]], [[0, 0], [0, 0]]]]),
           name="RaggedTensorToTensor-nested"),
    OpSpec("UnicodeDecode", lambda s: tf.strings.unicode_decode(s, "UTF-8").flat_values,
           [_obj("h\u00e9", "", "\u20ac")], lambda s: np.array([104, 233, 8364], np.int32),
           grad=_NO_GRAD),
    OpSpec("UnicodeDecodeWithOffsets",
           lambda s: tf.strings.unicode_decode_with_offsets(s, "UTF-8")[1].flat_values,
           [_obj("h\u00e9", "", "\u20ac")], lambda s: np.array([0, 1, 0]), grad=_NO_GRAD),
    OpSpec("UnicodeEncode", lambda c: tf.strings.unicode_encode(c, "UTF-8"),
           [np.array([104, 233, 8364], np.int32)], lambda c: np.array("h\u00e9\u20ac".encode(),
                                                                     object), grad=_NO_GRAD),
    OpSpec("UnicodeEncode", lambda c: tf.strings.unicode_split(
        tf.strings.unicode_encode(c, "UTF-8"), "UTF-8"),
           [np.array([104, -5], np.int32)], lambda c: _obj("h", "\ufffd"),
           name="UnicodeEncode-split", grad=_NO_GRAD),
    OpSpec("UnicodeTranscode", lambda s: tf.strings.unicode_transcode(s, "UTF-8", "UTF-16-BE"),
           [_obj("h\u00e9", "", "\u20ac")],
           lambda s: _obj(*(x.decode().encode("utf-16-be") for x in s)), grad=_NO_GRAD),
    OpSpec("UnsortedSegmentJoin", lambda s: tf.strings.unsorted_segment_join(
        s, [1, 0, 1], 3, separator=":"), [_obj("a", "b", "c")], lambda s: _obj("b", "a:c", ""),
           grad=_NO_GRAD),
    OpSpec("UnsortedSegmentJoin", lambda s: tf.strings.reduce_join(
        tf.RaggedTensor.from_row_lengths(s, [2, 0, 1]), axis=1, separator=" "),
           [_obj("a", "b", "c")], lambda s: _obj("a b", "", "c"), name="UnsortedSegmentJoin-ragged",
           grad=_NO_GRAD),
    OpSpec("StringNGrams", lambda s: tf.strings.ngrams(s, 2), [_obj("a", "b", "c")],
           lambda s: _obj("a b", "b c"), grad=_NO_GRAD),
    OpSpec("StringNGrams", lambda s: tf.strings.ngrams(s, [1, 3], pad_values="#",
                                                       separator="_"),
           [_obj("a", "b")], lambda s: _obj("a", "b", "#_#_a", "#_a_b", "a_b_#", "b_#_#"),
           name="StringNGrams-padded", grad=_NO_GRAD),
]
