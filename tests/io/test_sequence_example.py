"""SequenceExample parsing (ParseSequenceExampleV2) against TF 2.21's results and messages
(recorded by hand), and the SequenceExample TF wrote (data/reference.json)."""
import pytest

import eagerflow as tf
from tests.io.test_tf_record import REFERENCE
from tests.op_errors import op_text


def _feature(values):
    if isinstance(values[0], bytes):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    if isinstance(values[0], float):
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def _sequence(context, lists):
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(v) for k, v in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(x) for x in v])
            for k, v in lists.items()})).SerializeToString()


S1 = _sequence({"len": [2], "name": [b"a"]},
               {"tok": [[b"a"], [b"b"]], "val": [[1.0, 2.0], [3.0, 4.0]], "ids": [[1], [2, 3]]})
S2 = _sequence({"len": [3]}, {"tok": [[b"x"], [b"y"], [b"z"]], "val": [[5.0, 6.0]],
                              "ids": [[4]]})
CONTEXT = {"len": tf.io.FixedLenFeature([], tf.int64),
           "name": tf.io.FixedLenFeature([], tf.string, default_value="?")}
SEQUENCE = {"tok": tf.io.FixedLenSequenceFeature([], tf.string),
            "val": tf.io.FixedLenSequenceFeature([2], tf.float32),
            "ids": tf.io.VarLenFeature(tf.int64)}


def _sparse(st):
    return [st.indices.numpy().tolist(), st.values.numpy().tolist(),
            st.dense_shape.numpy().tolist()]


def test_single_sequence_example():
    context, lists = tf.io.parse_single_sequence_example(S1, CONTEXT, SEQUENCE)
    assert int(context["len"]) == 2 and context["name"].numpy() == b"a"
    assert _sparse(lists["ids"]) == [[[0, 0], [1, 0], [1, 1]], [1, 2, 3], [2, 2]]
    assert lists["tok"].numpy().tolist() == [b"a", b"b"]
    assert lists["val"].numpy().tolist() == [[1, 2], [3, 4]]


def test_a_batch_of_sequence_examples():
    context, lists, lengths = tf.io.parse_sequence_example([S1, S2], CONTEXT, SEQUENCE)
    assert context["len"].numpy().tolist() == [2, 3]
    assert context["name"].numpy().tolist() == [b"a", b"?"]
    assert _sparse(lists["ids"]) == [[[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], [1, 2, 3, 4],
                                     [2, 2, 2]]
    assert lists["tok"].numpy().tolist() == [[b"a", b"b", b""], [b"x", b"y", b"z"]]
    assert lists["val"].numpy().tolist() == [[[1, 2], [3, 4]], [[5, 6], [0, 0]]]
    assert {k: v.numpy().tolist() for k, v in lengths.items()} == {"tok": [2, 3], "val": [2, 1]}
    context, lists, _ = tf.io.parse_sequence_example(
        [S1, S2], {"name": tf.io.VarLenFeature(tf.string)}, {"zz": tf.io.VarLenFeature(tf.string)})
    assert _sparse(context["name"]) == [[[0, 0]], [b"a"], [2, 1]]
    assert _sparse(lists["zz"]) == [[], [], [2, 0, 0]]
    _, lists, lengths = tf.io.parse_sequence_example(
        [S1], None, {"q": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})
    assert lists["q"].shape == (1, 0) and lengths["q"].numpy().tolist() == [0]


def test_the_sequence_example_tensorflow_wrote():
    context, lists = tf.io.parse_single_sequence_example(
        bytes.fromhex(REFERENCE["sequence_example"]),
        {"len": tf.io.FixedLenFeature([], tf.int64)}, {"tok": tf.io.VarLenFeature(tf.string)})
    assert int(context["len"]) == 2
    assert _sparse(lists["tok"]) == [[[0, 0], [1, 0], [1, 1]], [b"a", b"b", b"c"], [2, 2]]


_NOT_FOUND = ("Feature list 'q' is required but could not be found.  Did you mean to include it "
              "in feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?")


@pytest.mark.parametrize("call, message", [
    (lambda: tf.io.parse_single_sequence_example(
        S2, {"name": tf.io.FixedLenFeature([], tf.string)}),
     "Inconsistent max number of elements for feature name: expected 1, but found 0"),
    (lambda: tf.io.parse_sequence_example([S1, S2], {"name": tf.io.FixedLenFeature([],
                                                                                    tf.string)}),
     "Feature: name (data type: string) is required but could not be found."),
    (lambda: tf.io.parse_sequence_example(
        [S1], None, {"q": tf.io.FixedLenSequenceFeature([], tf.int64)}, example_names=["n1"]),
     "Name: n1, " + _NOT_FOUND),
    (lambda: tf.io.parse_single_sequence_example(
        S1, None, {"ids": tf.io.FixedLenSequenceFeature([], tf.int64)}),
     "Name: <unknown>, Key: ids, Index: 1.  Number of values != expected.  values size: 2 but "
     "output shape: []"),
    (lambda: tf.io.parse_sequence_example([S1], None, {"tok": tf.io.VarLenFeature(tf.int64)}),
     "Name: <unknown>, Feature list: tok, Index: 0.  Data types don't match. Expected type: "
     "int64"),
    (lambda: tf.io.parse_sequence_example([S1], {"len": tf.io.VarLenFeature(tf.float32)}),
     "Name: <unknown>, Context feature: len.  Data types don't match. Expected type: float"),
    (lambda: tf.io.parse_sequence_example([S1], {"len": tf.io.FixedLenFeature([2], tf.int64)}),
     "Inconsistent max number of elements for feature len: expected 2, but found 1"),
    (lambda: tf.io.parse_sequence_example([S1, b"garbage"], CONTEXT, example_names=["a", "b"]),
     "Invalid protocol message input, example id: b"),
])
def test_bad_sequence_examples(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call()
    assert op_text(info.value) == message + " [Op:ParseSequenceExampleV2]"


def test_bad_specs_and_functions():
    with pytest.raises(ValueError, match="Both context_features and sequence_features are None"):
        tf.io.parse_single_sequence_example(S1)
    with pytest.raises(ValueError, match=r"Value feature_list.dense_defaults\[val\] must be None"):
        tf.io.parse_sequence_example([S1], None, {
            "val": tf.io.FixedLenSequenceFeature([2], tf.float32, default_value=-1.0)})
    with pytest.raises(ValueError, match="Unsupported FixedLenSequenceFeature"):
        tf.io.parse_single_sequence_example(S1, {
            "len": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})
    with pytest.raises(ValueError, match="Unsupported FixedLenFeature"):
        tf.io.parse_single_sequence_example(S1, None, {"tok": tf.io.FixedLenFeature([],
                                                                                    tf.string)})

    @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
    def parse(serialized):
        context, lists = tf.io.parse_single_sequence_example(serialized, CONTEXT, SEQUENCE)
        assert lists["val"].shape.as_list() == [None, 2]
        assert lists["ids"].indices.shape.as_list() == [None, 2]
        assert context["len"].shape.as_list() == []
        return context["len"], lists["val"]

    length, val = parse(S1)
    assert int(length) == 2 and val.numpy().tolist() == [[1, 2], [3, 4]]


def test_a_ragged_feature_may_not_share_a_key_with_another_feature():
    # (the sparse or dense feature was silently left out of the result)
    with pytest.raises(ValueError, match=r"Ragged and sparse keys must not intersect; "
                       r"ragged_keys: \['name'\], sparse_keys: \['name'\]"):
        tf.io.parse_single_sequence_example(S1, {
            "name": tf.io.VarLenFeature(tf.string),
            "r": tf.io.RaggedFeature(tf.string, value_key="name")})
    with pytest.raises(ValueError, match="Dense and ragged keys must not intersect"):
        tf.io.parse_sequence_example([S1], None, {
            "val": tf.io.FixedLenSequenceFeature([2], tf.float32),
            "r": tf.io.RaggedFeature(tf.float32, value_key="val")})


def test_a_feature_list_of_no_whole_number_of_steps_is_refused_first():
    # TF checks the most values one example's list holds before checking each step
    three = _sequence({}, {"t": [[1, 2], [3]]})
    four = _sequence({}, {"t": [[1, 2, 3], [4]]})
    spec = {"t": tf.io.FixedLenSequenceFeature([2], tf.int64)}
    total = ("Feature list 't' has an unexpected number of values.  Total values size: 3 is "
             "not consistent with output shape: [?,2]")
    step = "Name: <unknown>, Key: t, Index: {}.  Number of values != expected.  values size: {}"
    for call, message in [(lambda: tf.io.parse_single_sequence_example(three, None, spec), total),
                          (lambda: tf.io.parse_sequence_example([three, three], None, spec),
                           total),
                          (lambda: tf.io.parse_sequence_example([three, four], None, spec),
                           step.format(1, 1)),
                          (lambda: tf.io.parse_sequence_example([four, three], None, spec),
                           step.format(0, 3))]:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            call()
        assert op_text(info.value).startswith(message)


def test_a_context_feature_of_the_wrong_size_is_refused_as_tf_refuses_it():
    # TF sizes the feature by the longest value, a default counted as one, then checks each
    def parse(batch, default):
        return tf.io.parse_sequence_example(
            tf.constant([_sequence({} if c is None else {"c": c}, {}) for c in batch],
                        tf.string),
            {"c": tf.io.FixedLenFeature([2], tf.int64, default_value=default)})[0]["c"]

    longest = "Inconsistent max number of elements for feature c: expected 2, but found {}"
    each = "Unexpected number of elements in example <unknown>"
    for batch, default, message in [([[1, 2], [1]], None, each), ([[1], [1]], None,
                                                                   longest.format(1)),
                                    ([[1], [1]], [0, 0], each), ([[1], None], [0, 0], each),
                                    ([[1, 2, 3], None], [0, 0], longest.format(3))]:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            parse(batch, default)
        assert op_text(info.value) == message + " [Op:ParseSequenceExampleV2]"
    assert parse([[1, 2], None], [0, 0]).numpy().tolist() == [[1, 2], [0, 0]]
    assert parse([], [0, 0]).shape == [0, 2]


def test_a_sequence_example_error_names_the_kernel_as_tf_does():
    # TF's one-op function is named by every count and dtype-list attr of the op
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.parse_sequence_example([S1], None, {"q": tf.io.FixedLenSequenceFeature([], tf.int64)})
    assert str(info.value).startswith(
        "{{function_node __wrapped__ParseSequenceExampleV2_Ncontext_sparse_0_"
        "Nfeature_list_dense_1_Nfeature_list_sparse_0_Tcontext_dense_0_"
        "context_ragged_split_types_0_context_ragged_value_types_0_context_sparse_types_0_"
        "feature_list_dense_types_1_feature_list_ragged_split_types_0_"
        "feature_list_ragged_value_types_0_feature_list_sparse_types_0_device_")


@pytest.mark.parametrize("batch, found", [([S2, S2], 0), ([], 0)])
def test_a_required_context_feature_no_example_holds_is_found_empty(batch, found):
    # TF sizes a required context feature by its longest value before it names a missing
    # one: when no example holds it (or there are none), the count is the error.
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.parse_sequence_example(tf.constant(batch, tf.string),
                                     {"name": tf.io.FixedLenFeature([], tf.string)})
    assert op_text(info.value) == (
        f"Inconsistent max number of elements for feature name: expected 1, but found {found} "
        f"[Op:ParseSequenceExampleV2]")


def _raw_sequence(serialized, **attrs):
    args = dict(serialized=serialized, debug_name=[], context_sparse_keys=[],
                context_dense_keys=[], context_ragged_keys=[], feature_list_sparse_keys=[],
                feature_list_dense_keys=[], feature_list_ragged_keys=[],
                feature_list_dense_missing_assumed_empty=[], context_dense_defaults=[])
    args.update(attrs)
    return tf.raw_ops.ParseSequenceExampleV2(**args)


def test_raw_parse_sequence_example_v2_names_its_outputs():
    # Without context_dense_defaults the op failed (its Tcontext_dense attr was missing),
    # and it gave a flat list where TF gives a namedtuple of lists.
    out = _raw_sequence([S1, S2], context_ragged_keys=["name"],
                        context_ragged_value_types=[tf.string],
                        context_ragged_split_types=[tf.int32],
                        feature_list_ragged_keys=["ids"],
                        feature_list_ragged_value_types=[tf.int64],
                        feature_list_ragged_split_types=[tf.int64])
    assert out.context_ragged_values[0].numpy().tolist() == [b"a"]
    assert out.context_ragged_row_splits[0].numpy().tolist() == [0, 1, 1]
    assert out.feature_list_ragged_values[0].numpy().tolist() == [1, 2, 3, 4]
    assert out.feature_list_ragged_outer_splits[0].numpy().tolist() == [0, 2, 3]
    assert out.feature_list_ragged_inner_splits[0].numpy().tolist() == [0, 1, 3, 4]
    assert out.context_dense_values == [] and out.feature_list_dense_lengths == []


@pytest.mark.parametrize("attrs, message", [
    (dict(context_sparse_keys=["len"], Ncontext_sparse=2, context_sparse_types=[tf.int64]),
     "num_context_sparse (2) must match the size of context_sparse_types (1)"),
    (dict(context_sparse_keys=["len", "name"], Ncontext_sparse=1,
          context_sparse_types=[tf.int64]),
     "Expected len(context_sparse_keys) to match Ncontext_sparse"),
    (dict(context_dense_keys=["len", "x"], context_dense_defaults=[tf.constant([], tf.int64)],
          context_dense_shapes=[[1]]),
     "Expected len(context_dense_keys) to match len(Tcontext_dense)"),
    (dict(context_dense_keys=["len"], context_dense_defaults=[tf.constant([], tf.int64)],
          context_dense_shapes=[[1], [2]]),
     "num_context_dense (1) must match the size of context_dense_types (1) and "
     "context_dense_shapes (2)"),
    (dict(context_ragged_keys=["name"], context_ragged_value_types=[tf.string],
          context_ragged_split_types=[tf.int32, tf.int32]),
     "num_context_ragged (1) must match the size of context_ragged_value_types (1) and "
     "context_ragged_split_types (2)"),
    (dict(context_ragged_keys=["name", "len"], context_ragged_value_types=[tf.string],
          context_ragged_split_types=[tf.int32]),
     "Expected len(context_ragged_keys) to match len(context_ragged_value_types)"),
    (dict(feature_list_sparse_keys=["ids"], Nfeature_list_sparse=2,
          feature_list_sparse_types=[tf.int64]),
     "num_feature_list_sparse (2) must match the size of feature_list_sparse_types (1)"),
    (dict(feature_list_dense_keys=["tok", "x"], Nfeature_list_dense=2,
          feature_list_dense_types=[tf.string], feature_list_dense_shapes=[[]],
          feature_list_dense_missing_assumed_empty=[False, False]),
     "num_feature_list_dense (2) must match the size of feature_list_dense_types (1) and "
     "feature_list_dense_shapes (1)"),
    (dict(feature_list_dense_keys=["tok"], Nfeature_list_dense=1,
          feature_list_dense_types=[tf.string], feature_list_dense_shapes=[[]],
          feature_list_dense_missing_assumed_empty=[]),
     "Expected len(feature_list_dense_missing_assumed_empty) to match Nfeature_list_dense"),
    (dict(feature_list_ragged_keys=["ids", "tok"], feature_list_ragged_value_types=[tf.int64],
          feature_list_ragged_split_types=[tf.int64]),
     "Expected len(feature_list_ragged_keys) to match len(feature_list_ragged_value_types)"),
    (dict(context_dense_keys=["zz"], context_dense_defaults=[tf.constant([1, 2], tf.int64)],
          context_dense_shapes=[[1]]),
     "default_value[0].shape() == [2] != context_dense_shapes[0] == [1]"),
    (dict(debug_name=["a"], context_dense_keys=["len"],
          context_dense_defaults=[tf.constant([], tf.int64)], context_dense_shapes=[[1]]),
     "example_names must be empty or have the correct number of elements"),
])
def test_raw_parse_sequence_example_v2_refuses_attrs_that_disagree(attrs, message):
    # These were taken, lists of different lengths read by each other's.
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        _raw_sequence([S1, S2], **attrs)
    assert op_text(info.value) == message + " [Op:ParseSequenceExampleV2]"


def test_raw_parse_single_sequence_example_of_tf_1():
    # TF 1's op (graphs exported by TF 1 hold it) was missing.
    out = tf.raw_ops.ParseSingleSequenceExample(
        serialized=S1, feature_list_dense_missing_assumed_empty=["gone"],
        context_sparse_keys=["name"], context_dense_keys=["len", "opt"],
        feature_list_sparse_keys=["ids"], feature_list_dense_keys=["val", "gone"],
        context_dense_defaults=[tf.constant([], tf.int64), tf.constant([7.5])],
        debug_name="s1", context_sparse_types=[tf.string], context_dense_shapes=[[], [1]],
        feature_list_sparse_types=[tf.int64], feature_list_dense_types=[tf.float32, tf.int64],
        feature_list_dense_shapes=[[2], []])
    assert _sparse(tf.SparseTensor(out.context_sparse_indices[0], out.context_sparse_values[0],
                                   out.context_sparse_shapes[0])) == [[[0]], [b"a"], [1]]
    assert [v.numpy().tolist() for v in out.context_dense_values] == [2, [7.5]]
    assert _sparse(tf.SparseTensor(out.feature_list_sparse_indices[0],
                                   out.feature_list_sparse_values[0],
                                   out.feature_list_sparse_shapes[0])) == [
        [[0, 0], [1, 0], [1, 1]], [1, 2, 3], [2, 2]]
    assert out.feature_list_dense_values[0].numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert out.feature_list_dense_values[1].shape == (0,)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Name: s1, Feature list 'gone' is required"):
        tf.raw_ops.ParseSingleSequenceExample(
            serialized=S1, feature_list_dense_missing_assumed_empty=[], context_sparse_keys=[],
            context_dense_keys=[], feature_list_sparse_keys=[], feature_list_dense_keys=["gone"],
            context_dense_defaults=[], debug_name="s1", feature_list_dense_types=[tf.int64],
            feature_list_dense_shapes=[[]])

    @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
    def traced(x):
        got = tf.raw_ops.ParseSingleSequenceExample(
            serialized=x, feature_list_dense_missing_assumed_empty=[], context_sparse_keys=[],
            context_dense_keys=["len"], feature_list_sparse_keys=[],
            feature_list_dense_keys=["tok"], context_dense_defaults=[tf.constant([], tf.int64)],
            debug_name="", feature_list_dense_types=[tf.string], context_dense_shapes=[[]],
            feature_list_dense_shapes=[[]])
        assert got.feature_list_dense_values[0].shape.as_list() == [None]
        return got.context_dense_values[0], got.feature_list_dense_values[0]

    length, tokens = traced(tf.constant(S2))
    assert length.numpy() == 3 and tokens.numpy().tolist() == [b"x", b"y", b"z"]
    op = next(op for op in traced.get_concrete_function().graph.get_operations()
              if op.type == "ParseSingleSequenceExample")
    assert [op.get_attr(a) for a in ("Ncontext_sparse", "Ncontext_dense",
                                     "Nfeature_list_sparse", "Nfeature_list_dense")] == [0, 1, 0, 1]
