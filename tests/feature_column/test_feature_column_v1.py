"""tf.compat.v1.feature_column (input_layer, linear_model, shared_embedding_columns, TF 1's
make_parse_example_spec and categorical_column_with_vocabulary_file) and
tf.feature_column.shared_embeddings: TF 2.21's values, variables and errors for the same
calls, eagerly and in TF 1 graphs."""
import inspect

import numpy as np
import pytest

import eagerflow as tf

fc = tf.feature_column
v1 = tf.compat.v1
v1fc = tf.compat.v1.feature_column
I3 = fc.categorical_column_with_identity("i", 3)
J3 = fc.categorical_column_with_identity("j", 3)
T = fc.categorical_column_with_vocabulary_list("t", ["x", "y"])
TABLE = tf.constant_initializer(np.arange(6.0).reshape(3, 2))


def feats():
    return {"a": tf.constant([[1.0], [2.0]]), "t": tf.constant([["x"], ["y"]]),
            "i": tf.constant([[1], [2]]), "j": tf.constant([[0], [-1]])}


def test_namespace_as_tf():
    names = {n for n in dir(v1fc) if not n.startswith("_")}
    assert names - {n for n in dir(fc) if not n.startswith("_")} == {
        "input_layer", "linear_model", "shared_embedding_columns"}
    assert "shared_embeddings" not in names and "shared_embedding_columns" not in dir(fc)
    assert v1fc.numeric_column is fc.numeric_column
    assert v1fc.sequence_numeric_column is fc.sequence_numeric_column
    assert list(inspect.signature(v1fc.categorical_column_with_vocabulary_file).parameters) == [
        "key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "default_value", "dtype"]
    assert list(inspect.signature(v1fc.linear_model).parameters) == [
        "features", "feature_columns", "units", "sparse_combiner", "weight_collections",
        "trainable", "cols_to_vars"]


def test_vocabulary_file_and_parse_spec_of_tf1(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("x\ny\nz\n")
    col = v1fc.categorical_column_with_vocabulary_file("t", str(path), None, 2)
    assert repr(col) == (f"VocabularyFileCategoricalColumn(key='t', vocabulary_file='{path}', "
                         "vocabulary_size=3, num_oov_buckets=2, dtype=tf.string, "
                         "default_value=-1, file_format=None)")
    out = tf.keras.layers.DenseFeatures([fc.indicator_column(
        v1fc.categorical_column_with_vocabulary_file("t", str(path), 3))])(feats())
    np.testing.assert_array_equal(out, [[1, 0, 0], [0, 1, 0]])
    spec = v1fc.make_parse_example_spec([fc.numeric_column("a"), I3])
    assert {k: repr(v) for k, v in spec.items()} == {
        "a": "FixedLenFeature(shape=(1,), dtype=tf.float32, default_value=None)",
        "i": "VarLenFeature(dtype=tf.int64)"}


def test_input_layer_eagerly_and_in_a_function():
    ind = fc.indicator_column(T)
    np.testing.assert_array_equal(v1fc.input_layer(feats(), [fc.numeric_column("a"), ind]),
                                  [[1, 1, 0], [2, 0, 1]])
    out = v1fc.input_layer(feats(), [fc.embedding_column(I3, 2, initializer=tf.ones_initializer())])
    assert out.dtype == tf.float32 and out.numpy().tolist() == [[1, 1], [1, 1]]
    np.testing.assert_array_equal(v1fc.input_layer({"a": tf.ones([2, 1])}, fc.numeric_column("a")),
                                  [[1], [1]])
    assert v1fc.input_layer({"a": tf.zeros([0, 1])}, [fc.numeric_column("a")]).shape == (0, 1)
    f = tf.function(lambda d: v1fc.input_layer(d, [fc.numeric_column("a"), ind]))
    np.testing.assert_array_equal(f({"a": tf.constant([[1.0], [2.0]]),
                                     "t": tf.constant([["x"], ["q"]])}), [[1, 1, 0], [2, 0, 0]])


def test_input_layer_and_shared_columns_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        i, j = I3, J3
        cols_to_vars, cols_to_out = {}, {}
        emb = fc.embedding_column(i, 2, initializer=tf.ones_initializer())
        out = v1fc.input_layer(feats(), [fc.numeric_column("a"), fc.indicator_column(T), emb],
                               cols_to_vars=cols_to_vars, cols_to_output_tensors=cols_to_out,
                               weight_collections=["mine"])
        assert out.name == "input_layer/concat:0" and out.shape == (2, 5)
        assert {k.name: [v.name for v in vs] for k, vs in cols_to_vars.items()} == {
            "a": [], "i_embedding": ["input_layer/i_embedding/embedding_weights:0"],
            "t_indicator": []}
        assert {k.name: v.name.rpartition("/")[0] for k, v in cols_to_out.items()} == {
            "a": "input_layer/a", "i_embedding": "input_layer/i_embedding",
            "t_indicator": "input_layer/t_indicator"}
        shared = v1fc.shared_embedding_columns([i, j], 2, initializer=TABLE)
        assert [c.name for c in shared] == ["i_shared_embedding", "j_shared_embedding"]
        assert repr(shared[0]).startswith(
            "_SharedEmbeddingColumn(categorical_column=IdentityCategoricalColumn(key='i', "
            "number_buckets=3, default_value=None), dimension=2, combiner='mean', initializer=")
        assert shared[0].shared_embedding_collection_name == "i_j_shared_embedding"
        out2 = v1fc.input_layer(feats(), shared)
        out3 = v1fc.input_layer(feats(), shared[1:])  # (the same table, from the collection)
        shared2 = fc.shared_embeddings([i, j], 2, initializer=TABLE)
        assert [c.name for c in shared2] == ["i_shared_embedding", "j_shared_embedding"]
        out4 = tf.keras.layers.DenseFeatures(shared2)(feats())
        assert [v.name for v in v1.global_variables()] == [
            "input_layer/i_embedding/embedding_weights:0",
            "input_layer_1/i_j_shared_embedding/embedding_weights:0", "i_j_shared_embedding:0"]
        assert [v.name for v in g.get_collection("mine")] == \
            ["input_layer/i_embedding/embedding_weights:0"]
        assert [v.name for v in g.get_collection("model_variables")] == [
            "input_layer/i_embedding/embedding_weights:0",
            "input_layer_1/i_j_shared_embedding/embedding_weights:0"]
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.tables_initializer()])
            got = sess.run([out, out2, out3, out4])
    np.testing.assert_array_equal(got[0], [[1, 1, 1, 1, 0], [2, 1, 1, 0, 1]])
    np.testing.assert_array_equal(got[1], [[2, 3, 0, 1], [4, 5, 0, 0]])
    np.testing.assert_array_equal(got[2], [[0, 1], [0, 0]])
    np.testing.assert_array_equal(got[3], [[2, 3, 0, 1], [4, 5, 0, 0]])


LINEAR = {"sum": [[4.5, 7.0], [2.875, 4.25], [2.25, 3.5]],
          "mean": [[1.7999999523162842, 3.049999952316284], [3.5, 5.0], [2.25, 3.5]],
          "sqrtn": [[2.2198195457458496, 3.670060396194458], [3.5, 5.0], [2.25, 3.5]]}


def test_linear_model_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        data = {"a": tf.constant([[1.0], [2.0], [3.0]]),
                "t": tf.constant([["x", "y"], ["y", ""], ["q", ""]]),
                "i": tf.constant([[0, 1], [2, -1], [-1, -1]]),
                "w": tf.constant([[2.0, 3.0], [0.5, 0.0], [0.0, 0.0]])}
        columns = [fc.numeric_column("a"), T, fc.weighted_categorical_column(I3, "w"),
                   fc.bucketized_column(fc.numeric_column("a"), [1.5, 2.5])]
        outs = {}
        for combiner in LINEAR:
            cols_to_vars = {}
            with v1.variable_scope(combiner):
                outs[combiner] = (v1fc.linear_model(data, columns, units=2,
                                                    sparse_combiner=combiner,
                                                    cols_to_vars=cols_to_vars), cols_to_vars)
        cols_to_vars = outs["sum"][1]
        assert sorted((k if isinstance(k, str) else k.name, [v.name for v in vs])
                      for k, vs in cols_to_vars.items()) == [
            ("a", ["sum/linear_model/a/weights:0"]),
            ("a_bucketized", ["sum/linear_model/a_bucketized/weights:0"]),
            ("bias", ["sum/linear_model/bias_weights:0"]),
            ("i_weighted_by_w", ["sum/linear_model/i_weighted_by_w/weights:0"]),
            ("t", ["sum/linear_model/t/weights:0"])]
        assert [v.shape.as_list() for v in cols_to_vars["bias"]] == [[2]]
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.tables_initializer()])
            assert sess.run(outs["sum"][0]).tolist() == [[0.0, 0.0]] * 3
            for combiner, (out, variables) in outs.items():
                for var in [v for vs in variables.values() for v in vs]:
                    size = int(np.prod(var.shape.as_list()))
                    sess.run(var.assign(np.arange(1, size + 1, dtype=np.float32).reshape(
                        var.shape.as_list()) / 4))
                np.testing.assert_allclose(sess.run(out), LINEAR[combiner], rtol=1e-6)


def test_linear_model_eagerly():
    out = v1fc.linear_model(feats(), [fc.numeric_column("a"), fc.indicator_column(T), I3],
                            units=3)
    assert out.dtype == tf.float32 and out.numpy().tolist() == [[0.0] * 3] * 2


def _error(fn):
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value).__name__, str(info.value).split("\n")[0]


def test_errors_as_tf():
    k4 = fc.categorical_column_with_identity("k", 4)
    assert _error(lambda: v1fc.shared_embedding_columns([I3, J3], 2)) == (
        "RuntimeError", "shared_embedding_columns are not supported when eager execution is "
                        "enabled.")
    assert _error(lambda: fc.shared_embeddings([I3, J3], 2)) == (
        "RuntimeError", "shared_embedding_columns are not supported when eager execution is "
                        "enabled.")
    assert _error(lambda: v1fc.input_layer([1], [fc.numeric_column("a")])) == (
        "AttributeError", "'list' object has no attribute 'values'")
    assert _error(lambda: v1fc.input_layer(feats(), [I3])) == (
        "ValueError", "Items of feature_columns must be a _DenseColumn. You can wrap a "
                      "categorical column with an embedding_column or indicator_column. Given: "
                      f"{I3!r}")
    assert _error(lambda: v1fc.input_layer(feats(), [])) == (
        "ValueError", "feature_columns must not be empty.")
    assert _error(lambda: v1fc.input_layer({"a": tf.zeros([2, 1]), "b": tf.zeros([3, 1])},
                                           [fc.numeric_column("a"), fc.numeric_column("b")])) \
        == ("ValueError", "Batch size (first dimension) of each feature must be same. Batch size "
                          "of columns (a, b): (2, 3)")
    assert _error(lambda: v1fc.input_layer({"a": tf.zeros([2, 1])}, [fc.numeric_column("b")])) \
        == ("ValueError", "Feature b is not in features dictionary.")
    seq = fc.indicator_column(fc.sequence_categorical_column_with_identity("i", 3))
    name, line = _error(lambda: v1fc.input_layer({"i": tf.constant([[1]])}, [seq]))
    assert name == "ValueError" and line.startswith(
        "In indicator_column: i_indicator. categorical_column must not be of type "
        "_SequenceCategoricalColumn. Suggested fix A:")
    assert _error(lambda: v1fc.linear_model(feats(), [I3], sparse_combiner="max")) == (
        "ValueError", "combiner must be one of 'mean', 'sqrtn' or 'sum', got max")
    num = fc.sequence_numeric_column("i")
    name, line = _error(lambda: v1fc.linear_model({"i": tf.constant([[1.0]])}, [num]))
    assert name == "ValueError" and line.startswith(
        "Items of feature_columns must be a _FeatureColumn. Given (type <class ") and \
        line.endswith(f".SequenceNumericColumn'>): {num!r}.")
    assert _error(lambda: v1fc.linear_model({"a": tf.zeros([0, 1]), "i": tf.zeros(
        [0, 1], tf.int64)}, [fc.numeric_column("a"), I3])) == (
        "InvalidArgumentError", "{{function_node __wrapped__SparseReshape_device_/job:localhost/"
                                "replica:0/task:0/device:CPU:0}} reshape cannot infer the "
                                "missing input size for an empty tensor unless all specified "
                                "input sizes are non-zero [Op:SparseReshape] name: ")
    with tf.Graph().as_default():
        mismatch = ("ValueError", "To use shared_embedding_column, all categorical_columns must "
                    f"have the same number of buckets. {{}} column: {I3!r} with buckets: 3 does "
                    f" not match column: {k4!r} with buckets: 4")
        assert _error(lambda: v1fc.shared_embedding_columns([I3, k4], 2)) == \
            (mismatch[0], mismatch[1].format("ven"))
        assert _error(lambda: fc.shared_embeddings([I3, k4], 2)) == \
            (mismatch[0], mismatch[1].format("Given"))
        assert _error(lambda: v1fc.shared_embedding_columns([], 2)) == \
            ("IndexError", "list index out of range")
        assert _error(lambda: v1fc.shared_embedding_columns([fc.numeric_column("a"), I3], 2)) \
            == ("AttributeError", "'NumericColumn' object has no attribute '_num_buckets'")
        assert _error(lambda: fc.shared_embeddings([fc.numeric_column("a"), I3], 2)) == (
            "AttributeError", "'NumericColumn' object has no attribute 'num_buckets'")
        assert _error(lambda: v1fc.shared_embedding_columns([I3, J3], 0)) == \
            ("ValueError", "Invalid dimension 0.")
        assert _error(lambda: v1fc.shared_embedding_columns([I3, J3], 2, initializer=3)) == \
            ("ValueError", "initializer must be callable if specified.")
        assert _error(lambda: v1fc.shared_embedding_columns([I3, J3], 2,
                                                            ckpt_to_load_from="x")) == \
            ("ValueError", "Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or "
                           "none of them.")
        assert [c.name for c in v1fc.shared_embedding_columns([I3], 2)] == ["i_shared_embedding"]
        v1_shared = v1fc.shared_embedding_columns([I3, J3], 2)[0]
        for layer in (tf.keras.layers.DenseFeatures, tf.compat.v1.keras.layers.DenseFeatures,
                      tf.keras.experimental.SequenceFeatures):  # (refused when made, as TF)
            assert _error(lambda: layer([v1_shared])) == (
                "ValueError", f"Items of feature_columns must be a FeatureColumn. Given (type "
                              f"{type(v1_shared)}): {v1_shared}.")
        shared2 = fc.shared_embeddings([I3, J3], 2)
        assert _error(lambda: v1fc.input_layer(feats(), shared2)) == (
            "ValueError", "SharedEmbeddingColumns are not supported in `linear_model` or "
                          "`input_layer`. Please use `DenseFeatures` or `LinearModel` instead.")


def test_placeholders_of_unknown_batch_and_rank_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        a = v1.placeholder(tf.float32, [None, 1])
        t = v1.placeholder(tf.string, [None, 1])
        i = v1.sparse_placeholder(tf.int64)  # (of a rank known only at run time)
        feats = {"a": a, "t": t, "i": i}
        cols = [fc.numeric_column("a"), fc.indicator_column(T), fc.embedding_column(
            I3, 2, initializer=tf.ones_initializer())]
        out = v1fc.input_layer(feats, cols, trainable=False)
        assert out.shape.as_list() == [None, 5]
        assert v1.trainable_variables() == [] and [v.name for v in v1.global_variables()] == \
            ["input_layer/i_embedding/embedding_weights:0"]
        linear = v1fc.linear_model(feats, cols, units=2)
        assert linear.shape.as_list() == [None, 2]
        seq, length = tf.keras.experimental.SequenceFeatures([fc.indicator_column(
            fc.sequence_categorical_column_with_identity("i", 3))])({"i": i})
        assert seq.shape.as_list() == [None, None, 3] and length.shape.as_list() == [None]
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), v1.tables_initializer()])
            got = sess.run([out, linear, seq, length], {
                a: [[1.0], [2.0]], t: [["x"], ["z"]],
                i: v1.SparseTensorValue([[0, 0], [1, 1]], [1, 2], [2, 2])})
    assert got[0].tolist() == [[1, 1, 1, 1, 0], [2, 1, 1, 0, 0]]
    assert got[1].tolist() == [[0, 0], [0, 0]]
    assert got[2].tolist() == [[[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 1]]]
    assert got[3].tolist() == [1, 2]
