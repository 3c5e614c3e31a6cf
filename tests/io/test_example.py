"""tf.train.Example protos and their parsing (ParseExampleV2), checked against TF's bytes and
TF's results and messages (recorded from TensorFlow 2.21 by data/make_reference.py and by hand)."""
import math
import os

import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from tests.io.test_tf_record import DATA, REFERENCE
from tests.op_errors import op_text, prefix


def _feature(values):
    if values and isinstance(values[0], bytes):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    if values and isinstance(values[0], float):
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def _example(**features):
    return tf.train.Example(features=tf.train.Features(
        feature={k: _feature(v) for k, v in features.items()})).SerializeToString()


def test_messages_are_tensorflows_bytes():
    ex = tf.train.Example(features=tf.train.Features(feature={
        "v": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5, -2.0]))}))
    assert ex.SerializeToString().hex() == REFERENCE["single_feature_example"]
    seq = tf.train.SequenceExample.FromString(bytes.fromhex(REFERENCE["sequence_example"]))
    assert seq.context.feature["len"].int64_list.value == [2]
    tokens = seq.feature_lists.feature_list["tok"].feature
    assert [list(f.bytes_list.value) for f in tokens] == [[b"a"], [b"b", b"c"]]
    assert seq.SerializeToString().hex() == REFERENCE["sequence_example"]


def test_parses_examples_written_by_tensorflow():
    records = list(tf.compat.v1.io.tf_record_iterator(os.path.join(DATA, "examples.tfrecord")))
    first = tf.train.Example.FromString(records[0]).features.feature
    assert list(first["id"].int64_list.value) == [1, -2 ** 40]
    assert list(first["score"].float_list.value) == [0.5, math.inf]
    got = tf.io.parse_example(records[1:], {
        "id": tf.io.VarLenFeature(tf.int64),
        "score": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True,
                                               default_value=-1.0),
        "name": tf.io.VarLenFeature(tf.string)})
    want = REFERENCE["parse_example"]
    assert [got["id"].indices.numpy().tolist(), got["id"].values.numpy().tolist(),
            got["id"].dense_shape.numpy().tolist()] == want["id"]
    assert got["score"].numpy().tolist() == want["score"]
    assert got["score"].shape == (2, 0)
    assert [got["name"].indices.numpy().tolist(),
            [v.hex() for v in got["name"].values.numpy().tolist()],
            got["name"].dense_shape.numpy().tolist()] == want["name"]
    single = tf.io.parse_single_example(records[0], {
        "score": tf.io.FixedLenFeature([2], tf.float32),
        "name": tf.io.FixedLenFeature([2], tf.string)})
    assert single["score"].numpy().tolist() == [0.5, math.inf]
    assert single["name"].numpy().tolist() == [b"ab", b"\x00\xff"]


_SPEC = {"a": tf.io.FixedLenFeature([2], tf.int64),
         "b": tf.io.FixedLenFeature([], tf.float32, default_value=0.0),
         "c": tf.io.VarLenFeature(tf.string)}
S1 = _example(a=[1, 2], b=[1.5], c=[b"x", b"yy"])
S2 = _example(a=[3, 4], c=[b"z"])
S3 = _example(a=[3, 4, 5], c=[b"z"])


def test_parse_single_example_and_batch():
    one = tf.io.parse_single_example(S1, _SPEC)
    assert one["a"].numpy().tolist() == [1, 2] and one["a"].dtype == tf.int64
    assert float(one["b"]) == 1.5 and one["b"].shape == ()
    assert one["c"].indices.numpy().tolist() == [[0], [1]]
    assert one["c"].dense_shape.numpy().tolist() == [2]
    both = tf.io.parse_example(tf.constant([S1, S2]), _SPEC)
    assert both["a"].numpy().tolist() == [[1, 2], [3, 4]]
    assert both["b"].numpy().tolist() == [1.5, 0.0]
    assert both["c"].indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert both["c"].values.numpy().tolist() == [b"x", b"yy", b"z"]
    assert both["c"].dense_shape.numpy().tolist() == [2, 2]
    assert tf.sparse.to_dense(both["c"]).numpy().tolist() == [[b"x", b"yy"], [b"z", b""]]


def test_fixed_len_defaults_and_sequences():
    got = tf.io.parse_single_example(S1, {
        "z": tf.io.FixedLenFeature([2, 2], tf.int64, default_value=[[1, 2], [3, 4]]),
        "q": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)})
    assert got["z"].numpy().tolist() == [[1, 2], [3, 4]]
    assert got["q"].shape == (0, 2)
    got = tf.io.parse_example([S1, S3], {
        "a": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=-1),
        "c": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)})
    assert got["a"].numpy().tolist() == [[1, 2, -1], [3, 4, 5]]
    assert got["c"].numpy().tolist() == [[b"x", b"yy"], [b"z", b""]]


@pytest.mark.parametrize("serialized, spec, message", [
    (S2, {"b": tf.io.FixedLenFeature([], tf.float32)},
     "Feature: b (data type: float) is required but could not be found."),
    ([S1, S2], {"b": tf.io.FixedLenFeature([], tf.float32)},
     "Name: <unknown>, Feature: b (data type: float) is required but could not be found."),
    (S1, {"a": tf.io.FixedLenFeature([], tf.int64)},
     "Key: a.  Can't parse serialized Example: Some int64_list slice was not parsed."),
    ([S1, S3], {"a": tf.io.FixedLenFeature([2], tf.int64)},
     "Name: <unknown>, Key: a, Index: 1.  Number of int64 values != expected.  Values size: 3 "
     "but output shape: [2]"),
    (S1, {"a": tf.io.FixedLenFeature([2], tf.float32)},
     "Key: a.  Data types don't match. Data type: int64 but expected type: float"),
    ([S1], {"a": tf.io.VarLenFeature(tf.float32)},
     "Name: <unknown>, Key: a, Index: 0.  Data types don't match. Expected type: float, "
     "Actual type: int64"),
    ([S1, b"garbage"], {"a": tf.io.VarLenFeature(tf.int64)},
     "Could not parse example input, value: 'garbage'"),
    ([S1, S3], {"a": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)},
     "Name: <unknown>, Key: a, Index: 1.  Number of int64 values is not a multiple of stride "
     "length. Saw 3 values but output shape is: [?,2]"),
    (S3, {"a": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)},
     "Error while parsing feature with key a: number of elements should be divisible by 2, "
     "found 3 instead"),
    # (too few strings are miscounted as other values are, too many fail to parse)
    (S1, {"c": tf.io.FixedLenFeature([3], tf.string)},
     "Key: c.  Can't parse serialized Example: Some bytes_list slice was not parsed."),
    (S1, {"c": tf.io.FixedLenFeature([1], tf.string)},
     "Key: c.  Can't parse serialized Example: Parsing bytes_list failed."),
    ([S1], {"c": tf.io.FixedLenFeature([3], tf.string)},
     "Name: <unknown>, Key: c, Index: 0.  Number of bytes values != expected.  Values size: 2 "
     "but output shape: [3]"),
    ([S1], {"c": tf.io.FixedLenFeature([1], tf.string)},
     "Name: <unknown>, Key: c, Index: 0.  Can't parse serialized Example."),
])
def test_bad_examples_raise_tensorflows_errors(serialized, spec, message):
    parse = tf.io.parse_single_example if isinstance(serialized, bytes) else tf.io.parse_example
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        parse(serialized, spec)
    assert op_text(info.value) == message + " [Op:ParseExampleV2]"


def test_parse_error_names_the_ops_lists_of_outputs():
    # TF's one-op function is named by its counts of dense and sparse features; TF passes the
    # keys as lists, so the text does not end with a name
    spec = {"a": tf.io.FixedLenFeature([2], tf.float32), "b": tf.io.VarLenFeature(tf.int64)}
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.parse_single_example(tf.constant(S1), spec)
    assert str(info.value) == prefix(
        "ParseExampleV2_Tdense_1_num_sparse_1_ragged_split_types_0_ragged_value_types_0_"
        "sparse_types_1") + ("Key: b.  Data types don't match. Expected type: int64, Actual "
                             "type: float [Op:ParseExampleV2]")


def test_bad_specs():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'Tdense' of int32 is not in the list"):
        tf.io.parse_single_example(S1, {"a": tf.io.FixedLenFeature([2], tf.int32)})
    with pytest.raises(ValueError, match="requires allow_missing to be True"):
        tf.io.parse_single_example(S1, {"a": tf.io.FixedLenSequenceFeature([], tf.int64)})
    with pytest.raises(ValueError, match="First dimension of shape for feature a unknown"):
        tf.io.parse_single_example(S1, {"a": tf.io.FixedLenFeature([None], tf.int64)})
    with pytest.raises(ValueError, match="cannot be None or falsy. Got {}"):
        tf.io.parse_example([S1], {})
    with pytest.raises(ValueError, match="cannot be None or falsy. Got None"):
        tf.io.parse_single_example(S1, None)
    with pytest.raises(TypeError, match="expected string or bytes-like object, got 'int'"):
        tf.io.parse_single_example(S1, {1: tf.io.FixedLenFeature([2], tf.int64)})
    with pytest.raises(ValueError, match="Missing shape for feature a. Received feature="
                                         "FixedLenFeature"):
        tf.io.parse_example([S1], {"a": tf.io.FixedLenFeature(None, tf.int64)})
    with pytest.raises(ValueError, match="Missing shape for feature a"):
        tf.io.parse_single_sequence_example(b"", sequence_features={
            "a": tf.io.FixedLenSequenceFeature(None, tf.int64, allow_missing=True)})
    with pytest.raises(ValueError, match="Input serialized must be a scalar"):
        tf.io.parse_single_example([S1], _SPEC)
    assert repr(tf.io.FixedLenFeature([2], tf.int64)) == \
        "FixedLenFeature(shape=[2], dtype=tf.int64, default_value=None)"
    assert repr(tf.io.VarLenFeature(tf.string)) == "VarLenFeature(dtype=tf.string)"


def test_parsing_inside_function_with_unknown_batch():
    dense = {k: v for k, v in _SPEC.items() if k != "c"}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def parse(serialized):
        out = tf.io.parse_example(serialized, dense)
        assert out["a"].shape.as_list() == [None, 2] and out["b"].shape.as_list() == [None]
        c = tf.io.parse_example(serialized, {"c": tf.io.VarLenFeature(tf.string)})["c"]
        assert c.indices.shape.as_list() == [None, 2] and c.dense_shape.shape.as_list() == [2]
        return out["a"], tf.sparse.to_dense(c)

    a, c = parse(tf.constant([S1, S2]))
    assert a.numpy().tolist() == [[1, 2], [3, 4]]
    assert c.numpy().tolist() == [[b"x", b"yy"], [b"z", b""]]


def test_a_ragged_feature_of_a_batch_of_known_size_knows_its_rows():
    @tf.function
    def parse(serialized):
        out = tf.io.parse_example(serialized, {
            "r": tf.io.RaggedFeature(tf.int64, value_key="a"),
            "u": tf.io.RaggedFeature(tf.int64, value_key="a", row_splits_dtype=tf.int32,
                                     partitions=[tf.io.RaggedFeature.UniformRowLength(1)])})
        assert out["r"].shape.as_list() == [2, None]  # (as TF: the batch dim is static)
        assert out["u"].shape.as_list() == [2, None, 1]
        return out["r"]

    assert parse(tf.constant([S1, S2])).to_list() == [[1, 2], [3, 4]]


def test_feature_keys_given_as_bytes():
    out = tf.io.parse_example([S1], {b"a": tf.io.FixedLenFeature([2], tf.int64),
                                     b"c": tf.io.VarLenFeature(tf.string)})
    assert out[b"a"].numpy().tolist() == [[1, 2]] and out[b"c"].values.numpy().tolist() == [b"x", b"yy"]
    assert tf.io.parse_example([S1], {b"a": tf.io.RaggedFeature(tf.int64)})[b"a"].to_list() == \
        [[1, 2]]
    context, lists = tf.io.parse_single_sequence_example(
        S1, {b"a": tf.io.VarLenFeature(tf.int64)}, {b"t": tf.io.VarLenFeature(tf.int64)})
    assert context[b"a"].values.numpy().tolist() == [1, 2] and b"t" in lists


def test_the_result_dict_has_tfs_key_order():
    # TF 2.21's order: sparse, dense, ragged outputs by the keys they parse, then the
    # SparseFeatures and RaggedFeatures those do not name, sorted
    features = {"d": tf.io.FixedLenFeature([], tf.int64, default_value=0),
                "c": tf.io.VarLenFeature(tf.string), "b": tf.io.RaggedFeature(tf.float32),
                "a2": tf.io.FixedLenFeature([2], tf.int64, default_value=[0, 0]),
                "z": tf.io.RaggedFeature(tf.int64, value_key="a"),
                "y": tf.io.VarLenFeature(tf.int64),
                "sp": tf.io.SparseFeature("e", "f", tf.float32, 10),
                "aa": tf.io.SparseFeature(["e"], "f", tf.float32, [10])}
    order = ["c", "y", "a2", "d", "b", "aa", "sp", "z"]
    assert list(tf.io.parse_example([S1], features)) == order
    assert list(tf.io.parse_single_example(S1, features)) == order


def test_ragged_features_need_a_batch_of_known_rank():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.string)])
    def parse(serialized):
        return tf.io.parse_example(serialized, {"r": tf.io.RaggedFeature(tf.int64, "a")})

    with pytest.raises(ValueError, match="serialized must have statically-known rank to "
                                         "parse ragged features."):
        parse(tf.constant([S1]))


def test_uniform_rows_of_examples_that_are_no_whole_rows_are_split_as_tf_splits_them():
    # TF divides the batch's row splits by the row length (nothing is checked): TF 2.21's
    # values for six values an example in rows of four
    six = _example(d=[1, 2, 3, 4, 5, 6])
    seven = _example(d=[6, 5, 4, 3, 2, 1])
    got = tf.io.parse_example([six, seven], {"r": tf.io.RaggedFeature(
        tf.int64, "d", partitions=[tf.io.RaggedFeature.UniformRowLength(4)])})["r"]
    assert got.to_list() == [[[1, 2, 3, 4]], [[5, 6, 6, 5], [4, 3, 2, 1]]]


def test_parse_single_example_of_unknown_rank_checks_it_is_a_scalar_when_run():
    dense = {k: v for k, v in _SPEC.items() if k != "c"}

    @tf.function(input_signature=[tf.TensorSpec(None, tf.string)])
    def parse(serialized):
        out = tf.io.parse_single_example(serialized, dense)
        assert out["a"].shape.as_list() == [2] and out["b"].shape.as_list() == []
        return out["a"]

    assert parse(tf.constant(S1)).numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input serialized must be a scalar"):
        parse(tf.constant([S1]))


_VALUES = st.one_of(
    st.lists(st.integers(-2 ** 63, 2 ** 63 - 1), max_size=5),
    st.lists(st.floats(width=32, allow_nan=False), max_size=5),
    st.lists(st.binary(max_size=10), max_size=5))


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text("abc_", min_size=1, max_size=4), _VALUES, max_size=4))
def test_any_example_survives_serialize_then_parse(features):
    serialized = _example(**features)
    message = tf.train.Example.FromString(serialized)
    assert tf.train.Example.FromString(message.SerializeToString()) == message
    spec = {}
    for key, values in features.items():
        dtype = (tf.string if values and isinstance(values[0], bytes) else
                 tf.float32 if values and isinstance(values[0], float) else tf.int64)
        spec[key] = tf.io.VarLenFeature(dtype)
    if not spec:
        return
    got = tf.io.parse_single_example(serialized, spec)
    for key, values in features.items():
        assert got[key].values.numpy().tolist() == values
        assert got[key].dense_shape.numpy().tolist() == [len(values)]


def test_messages_are_public_classes_that_pickle():
    import pickle
    assert repr(tf.train.Example) == "<class 'eagerflow.train.Example'>"
    message = tf.train.Example.FromString(S1)
    assert pickle.loads(pickle.dumps(message)) == message


def test_scalar_string_features():
    spec = {"s": tf.io.FixedLenFeature([], tf.string, default_value="")}
    got = tf.io.parse_single_example(_example(s=[b"cat"]), spec)
    assert repr(got["s"]) == "<tf.Tensor: shape=(), dtype=string, numpy=b'cat'>"
    got = tf.io.parse_single_example(_example(), spec)
    assert repr(got["s"]) == "<tf.Tensor: shape=(), dtype=string, numpy=b''>"


def _sparse(st):
    return [st.indices.numpy().tolist(), st.values.numpy().tolist(),
            st.dense_shape.numpy().tolist()]


def test_sparse_features():
    def example(ix, values, iy):
        return _example(ix=ix, val=values, iy=iy)

    s1, s2 = example([3, 1], [0.5, 1.5], [0, 2]), example([0], [2.5], [1])
    feature = tf.io.SparseFeature("ix", "val", tf.float32, 5)
    assert repr(feature) == ("SparseFeature(index_key='ix', value_key='val', dtype=tf.float32, "
                             "size=5, already_sorted=False)")
    got = tf.io.parse_example([s1, s2], {"sp": feature})
    assert list(got) == ["sp"]
    assert _sparse(got["sp"]) == [[[0, 1], [0, 3], [1, 0]], [1.5, 0.5, 2.5], [2, 5]]
    assert _sparse(tf.io.parse_single_example(s1, {"sp": feature})["sp"]) == \
        [[[1], [3]], [1.5, 0.5], [5]]
    unsorted = tf.io.SparseFeature("ix", "val", tf.float32, 5, already_sorted=True)
    assert _sparse(tf.io.parse_example([s1, s2], {"sp": unsorted})["sp"]) == \
        [[[0, 3], [0, 1], [1, 0]], [0.5, 1.5, 2.5], [2, 5]]
    two = tf.io.SparseFeature(["ix", "iy"], "val", tf.float32, [5, 3])
    assert _sparse(tf.io.parse_example([s1, s2], {"sp": two})["sp"]) == \
        [[[0, 1, 2], [0, 3, 0], [1, 0, 1]], [1.5, 0.5, 2.5], [2, 5, 3]]
    both = tf.io.parse_example([s1], {"sp": feature, "ix": tf.io.VarLenFeature(tf.int64)})
    assert list(both) == ["ix", "sp"] and _sparse(both["ix"])[1] == [3, 1]
    with pytest.raises(ValueError, match="Dimensions 2 and 1 are not compatible"):
        tf.io.parse_example([example([1, 2], [0.5], [0])], {"sp": feature})

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def parse(serialized):
        return tf.sparse.to_dense(tf.io.parse_example(serialized, {"sp": feature})["sp"])

    assert parse(tf.constant([s1, s2])).numpy().tolist() == [[0, 1.5, 0, 0.5, 0],
                                                             [2.5, 0, 0, 0, 0]]


def test_decode_json_example():
    from google.protobuf import json_format
    ex = tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2]))}))
    out = tf.io.decode_json_example(
        [json_format.MessageToJson(ex),
         '{"features": {"feature": {"b": {"floatList": {"value": [1.5]}}}}}'])
    assert out.shape == [2] and out.dtype == tf.string
    assert tf.train.Example.FromString(out[0].numpy()) == ex
    parsed = tf.io.parse_single_example(out[1], {"b": tf.io.FixedLenFeature([], tf.float32)})
    assert parsed["b"].numpy() == 1.5
    assert tf.io.decode_json_example("{}").numpy() == b""
    assert tf.io.decode_json_example([["{}"]]).shape == [1, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Error while parsing JSON: "):
        tf.io.decode_json_example('{"nope": 1}')


def test_decode_json_example_writes_tfs_bytes():
    # TF 2.21: features in the JSON's order, values not packed, float32 denormals as zeros,
    # a null feature as its key alone
    text = ('{"features": {"feature": {"z": {"floatList": {"value": [1.5, 1e-45]}}, '
            '"a": {"int64List": {"value": [-1, 300]}}, "m": null, '
            '"b": {"bytesList": {"value": ["aGk="]}}}}}')
    assert tf.io.decode_json_example([text]).numpy().tolist() == [
        b"\n<\n\x11\n\x01z\x12\x0c\x12\n\r\x00\x00\xc0?\r\x00\x00\x00\x00\n\x15\n\x01a\x12\x10"
        b"\x1a\x0e\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x08\xac\x02\n\x03\n\x01m\n\x0b\n\x01b"
        b"\x12\x06\n\x04\n\x02hi"]
    assert tf.io.decode_json_example(['{"features": {}}', '{"features": null}']).numpy() \
        .tolist() == [b"\n\x00", b""]
    with pytest.raises(tf.errors.InvalidArgumentError, match="duplicate key a"):
        tf.io.decode_json_example('{"features": {"feature": {"a": {}, "a": {}}}}')


@pytest.mark.parametrize("features, message", [
    ({"x": tf.io.VarLenFeature(tf.int64), "r": tf.io.RaggedFeature(tf.int64, value_key="x")},
     "Ragged and sparse keys must not intersect; ragged_keys: ['x'], sparse_keys: ['x'], "
     "intersection: {'x'}"),
    ({"x": tf.io.FixedLenFeature([1], tf.int64), "r": tf.io.RaggedFeature(tf.int64,
                                                                         value_key="x")},
     "('Dense and ragged keys must not intersect; dense_keys: ', \"['x'], ragged_keys: "
     "['x'], intersection: {'x'}\")"),
    ({"x": tf.io.VarLenFeature(tf.int64), "y": tf.io.FixedLenFeature([1], tf.int64, [0]),
      "s": tf.io.SparseFeature("x", "y", tf.int64, 3)},
     "Dense and sparse keys must not intersect; dense_keys: ['y'], sparse_keys: ['x', 'y'], "
     "intersection: {'y'}"),
    ({"x": tf.io.VarLenFeature(tf.float32), "s": tf.io.SparseFeature("x", "y", tf.int64, 3)},
     "Conflicting type <dtype: 'int64'> vs <dtype: 'float32'> for feature x."),
    ({"a": tf.io.RaggedFeature(tf.int64, value_key="x"),
      "b": tf.io.RaggedFeature(tf.int64, value_key="x", row_splits_dtype=tf.int64)},
     "Conflicting partition type <dtype: 'int32'> vs <dtype: 'int64'> for feature x."),
])
def test_a_key_parsed_two_ways_is_refused_as_tf_refuses_it(features, message):
    serialized = tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))})).SerializeToString()
    for parse in (tf.io.parse_example, tf.io.parse_single_example):
        with pytest.raises(ValueError) as info:
            parse([serialized] if parse is tf.io.parse_example else serialized, features)
        assert str(info.value) == message


def test_an_unparsable_dtype_is_named_as_tfs_kernels_name_it():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.parse_example([b""], {"a": tf.io.FixedLenFeature([3], tf.float64)})
    assert str(info.value).startswith(
        "Value for attr 'Tdense' of double is not in the list of allowed values: float, int64, "
        "string\n")


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(dtype=tf.int32), ValueError, "must be int64, float32, or bytes; got tf.int32"),
    (dict(dtype=tf.float64), ValueError, "must be int64, float32, or bytes"),
    (dict(dtype=tf.float32, row_splits_dtype=tf.float32), ValueError,
     "`row_splits_dtype` must be int32 or int64"),
    (dict(dtype=tf.int64, value_key=""), ValueError, "`value_key` must not be empty"),
    (dict(dtype=tf.int64, value_key=3), ValueError, "`value_key` must be a string"),
    (dict(dtype=tf.int64, partitions={tf.io.RaggedFeature.RowLengths("n")}), TypeError,
     "`partitions` must be a list or tuple"),
    (dict(dtype=tf.int64, validate=1), TypeError, "`validate` must be a bool"),
])
def test_ragged_feature_checks_its_arguments_when_made(kwargs, error, text):
    # An int32 ragged feature was accepted and failed later, at parse time, with an op's
    # attr message; TF refuses it when the feature is declared.
    with pytest.raises(error, match=text.replace("(", r"\(")):
        tf.io.RaggedFeature(**kwargs)


def _parse_example_v2(serialized, **attrs):
    args = dict(serialized=serialized, names=[], sparse_keys=[], dense_keys=[], ragged_keys=[],
                dense_defaults=[], num_sparse=0, sparse_types=[], ragged_value_types=[],
                ragged_split_types=[], dense_shapes=[])
    args.update(attrs)
    return tf.raw_ops.ParseExampleV2(**args)


def test_raw_parse_example_v2_gives_ragged_keys_values_and_row_splits():
    # The ragged outputs were left empty: a graph written by TF with a RaggedFeature (its
    # ParseExampleV2 node has ragged keys) parsed to nothing.
    batch = [_example(a=[1, 2], c=[b"x", b"y"]), _example(a=[3, 4], c=[b"z"]), _example()]
    out = _parse_example_v2(batch, ragged_keys=["c", "a", "missing"],
                            ragged_value_types=[tf.string, tf.int64, tf.float32],
                            ragged_split_types=[tf.int32, tf.int64, tf.int32])
    values, splits = out.ragged_values, out.ragged_row_splits
    assert [v.numpy().tolist() for v in values] == [[b"x", b"y", b"z"], [1, 2, 3, 4], []]
    assert [v.dtype for v in values] == [tf.string, tf.int64, tf.float32]
    assert [s.numpy().tolist() for s in splits] == [[0, 2, 3, 3], [0, 2, 4, 4], [0, 0, 0, 0]]
    assert [s.dtype for s in splits] == [tf.int32, tf.int64, tf.int32]
    one = _parse_example_v2(batch[0], ragged_keys=["a"], ragged_value_types=[tf.int64],
                            ragged_split_types=[tf.int64])  # one example: no row splits
    assert one.ragged_values[0].numpy().tolist() == [1, 2]
    assert one.ragged_row_splits[0].shape == (0,)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def traced(x):
        got = _parse_example_v2(x, ragged_keys=["a"], ragged_value_types=[tf.int64],
                                ragged_split_types=[tf.int32])
        assert got.ragged_values[0].shape.as_list() == [None]
        assert got.ragged_row_splits[0].shape.as_list() == [None]
        return got.ragged_values[0], got.ragged_row_splits[0]

    values, splits = traced(tf.constant(batch))
    assert values.numpy().tolist() == [1, 2, 3, 4] and splits.numpy().tolist() == [0, 2, 4, 4]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Key: a, Index: 0.  Data types don't match. Expected type: float, "
                             "Actual type: int64"):
        _parse_example_v2(batch, ragged_keys=["a"], ragged_value_types=[tf.float32],
                          ragged_split_types=[tf.int32])


@pytest.mark.parametrize("attrs, text", [
    (dict(sparse_keys=["c"], num_sparse=2, sparse_types=[tf.string]),
     r"len\(sparse_keys\) != len\(sparse_types\)"),
    (dict(sparse_keys=["c", "a"], num_sparse=1, sparse_types=[tf.string]),
     r"Expected len\(sparse_keys\) == num_sparse but got: 2 vs. 1"),
    (dict(dense_keys=["a", "b"], dense_defaults=[tf.constant([], tf.int64)], dense_shapes=[[2]]),
     r"Expected len\(dense_keys\) == len\(dense_types\) but got: 2 vs. 1"),
    (dict(dense_keys=["a"], dense_defaults=[tf.constant([], tf.int64)],
          dense_shapes=[[2], [1]]), r"len\(dense_keys\) != len\(dense_shapes\)"),
    (dict(ragged_keys=["a", "c"], ragged_value_types=[tf.int64], ragged_split_types=[tf.int32]),
     r"Expected len\(ragged_keys\) == len\(ragged_value_types\) but got: 2 vs. 1"),
    (dict(ragged_keys=["a"], ragged_value_types=[tf.int64],
          ragged_split_types=[tf.int32, tf.int32]), r"len\(ragged_keys\) != len\(ragged_split_types\)"),
    (dict(names=["n0"], sparse_keys=["a"], num_sparse=1, sparse_types=[tf.int64]),
     r"Expected names have the same shape as serialized: name.shape=\[1\], "
     r"serialized.shape=\[2\]"),
    (dict(dense_keys=["b"], dense_defaults=[tf.constant(1.0)], dense_shapes=[[1]]),
     r"def_value\[0\].shape\(\) == \[\] is not compatible with dense_shapes_\[0\] == \[1\]"),
    (dict(dense_keys=["b"], dense_defaults=[tf.constant([9.0])], dense_shapes=[[2]]),
     r"def_value\[0\].shape\(\) == \[1\] is not compatible with dense_shapes_\[0\] == \[2\]"),
    (dict(dense_keys=["q"], dense_defaults=[tf.constant([1.0, 2.0])], dense_shapes=[[None]]),
     r"dense_shape\[0\] is a variable length shape: \[\?\], therefore def_value\[0\] must "
     r"contain a single element \(the padding element\).  But its shape is: \[2\]"),
])
def test_raw_parse_example_v2_refuses_attrs_that_disagree(attrs, text):
    # These were taken: lists of different lengths were read by each other's (a sparse
    # feature's values given as the next one's indices), wrong defaults filled examples.
    batch = [_example(a=[1, 2], b=[1.5], c=[b"x"]), _example(a=[3, 4], c=[b"z"])]
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        _parse_example_v2(batch, **attrs)


def test_raw_parse_example_and_parse_single_example_of_tf_1():
    # TF 1's parsing ops (graphs exported by TF 1 hold them) were missing.
    batch = [_example(a=[1, 2], b=[1.5], c=[b"x", b"y"]), _example(a=[3, 4], c=[b"z"])]
    out = tf.raw_ops.ParseExample(
        serialized=batch, names=["n0", "n1"], sparse_keys=["c"], dense_keys=["a", "b"],
        dense_defaults=[tf.constant([], tf.int64), tf.constant([7.0])],
        sparse_types=[tf.string], dense_shapes=[[2], [1]])
    assert out.sparse_indices[0].numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert out.sparse_values[0].numpy().tolist() == [b"x", b"y", b"z"]
    assert out.sparse_shapes[0].numpy().tolist() == [2, 2]
    assert out.dense_values[0].numpy().tolist() == [[1, 2], [3, 4]]
    assert out.dense_values[1].numpy().tolist() == [[1.5], [7.0]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Name: n1, Feature: b \(data type: float\) is required"):
        tf.raw_ops.ParseExample(serialized=batch, names=["n0", "n1"], sparse_keys=[],
                                dense_keys=["b"], dense_defaults=[tf.constant([], tf.float32)],
                                sparse_types=[], dense_shapes=[[1]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected serialized to be a vector, got shape: \[\]"):
        tf.raw_ops.ParseExample(serialized=batch[0], names=[], sparse_keys=["c"], dense_keys=[],
                                dense_defaults=[], sparse_types=[tf.string], dense_shapes=[])

    one = tf.raw_ops.ParseSingleExample(
        serialized=batch[0], dense_defaults=[tf.constant([], tf.int64)], num_sparse=1,
        sparse_keys=["c"], dense_keys=["a"], sparse_types=[tf.string], dense_shapes=[[2]])
    assert one.sparse_indices[0].numpy().tolist() == [[0], [1]]
    assert one.sparse_shapes[0].numpy().tolist() == [2]
    assert one.dense_values[0].numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"num_sparse \(2\) must match the size of sparse_keys \(1\) and "
                             r"sparse_types \(1\)"):
        tf.raw_ops.ParseSingleExample(serialized=batch[0], dense_defaults=[], num_sparse=2,
                                      sparse_keys=["c"], dense_keys=[],
                                      sparse_types=[tf.string], dense_shapes=[])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def traced(x):
        got = tf.raw_ops.ParseExample(
            serialized=x, names=[], sparse_keys=["c"], dense_keys=["a"],
            dense_defaults=[tf.constant([0, 0], tf.int64)], sparse_types=[tf.string],
            dense_shapes=[[2]])
        assert got.dense_values[0].shape.as_list() == [None, 2]
        assert got.sparse_indices[0].shape.as_list() == [None, 2]
        return got.dense_values[0]

    assert traced(tf.constant(batch + [_example()])).numpy().tolist() == [[1, 2], [3, 4], [0, 0]]
    op = next(op for op in traced.get_concrete_function().graph.get_operations()
              if op.type == "ParseExample")
    assert (op.get_attr("Nsparse"), op.get_attr("Ndense")) == (1, 1)


def test_a_sequence_features_default_is_one_padding_value():
    batch = [_example(a=[1, 2, 3, 4]), _example(a=[5, 6])]
    for default in (9, [9], tf.constant(9, tf.int64)):
        got = tf.io.parse_example(batch, {"a": tf.io.FixedLenSequenceFeature(
            [2], tf.int64, allow_missing=True, default_value=default)})["a"]
        assert got.numpy().tolist() == [[[1, 2], [3, 4]], [[5, 6], [9, 9]]]
    # TF reshapes the default to a scalar first (the kernel's own message came instead)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input to reshape is a tensor with 2 values, but the requested "
                             "shape has 1"):
        tf.io.parse_example(batch, {"a": tf.io.FixedLenSequenceFeature(
            [2], tf.int64, allow_missing=True, default_value=[9, 9])})
