"""Sequence feature columns and tf.keras.experimental.SequenceFeatures: the values, shapes,
sequence lengths and errors TF 2.21 (tf_keras) gives for the same calls."""
import json

import numpy as np
import pytest

import eagerflow as tf

fc = tf.feature_column
SF = tf.keras.experimental.SequenceFeatures
SID = fc.sequence_categorical_column_with_identity("ids", 4)
TABLE = tf.constant_initializer(np.arange(8.0).reshape(4, 2))


def ids():
    return tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 2]],
                                  tf.constant([1, 2, 0, 3], tf.int64), [4, 3])


def words():
    return tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], ["a", "zz", "c"], [2, 2])


def xs():
    return tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [1.0, 2.0, 3.0], [2, 2])


def check(result, values, lengths, dtype=tf.float32):
    out, length = result
    assert out.dtype == dtype and length.dtype == tf.int64
    np.testing.assert_allclose(out.numpy(), np.asarray(values, np.float32).reshape(out.shape))
    assert out.shape == np.asarray(values).shape
    assert length.numpy().tolist() == lengths


EMB = [[[2, 3], [4, 5], [0, 0]], [[0, 1], [0, 0], [0, 0]], [[0, 0], [0, 0], [0, 0]],
       [[0, 0], [0, 0], [6, 7]]]
IND = [[[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]], [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
       [[0, 0, 0, 0]] * 3, [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]]


def test_columns_names_and_reprs():
    assert repr(SID) == ("SequenceCategoricalColumn(categorical_column=IdentityCategoricalColumn("
                         "key='ids', number_buckets=4, default_value=None))")
    assert [SID.name, SID.num_buckets] == ["ids", 4]
    assert [fc.embedding_column(SID, 2).name, fc.indicator_column(SID).name] == \
        ["ids_embedding", "ids_indicator"]
    num = fc.sequence_numeric_column("x")
    assert repr(num) == ("SequenceNumericColumn(key='x', shape=(1,), default_value=0.0, "
                         "dtype=tf.float32, normalizer_fn=None)")
    assert repr(fc.sequence_numeric_column("x", shape=3)).startswith(
        "SequenceNumericColumn(key='x', shape=(3,)")
    assert [fc.sequence_numeric_column("x", shape=(2,)).variable_shape,
            fc.indicator_column(SID).variable_shape, fc.embedding_column(SID, 3).variable_shape] \
        == [tf.TensorShape([2]), tf.TensorShape([1, 4]), tf.TensorShape([3])]
    spec = fc.make_parse_example_spec([
        num, SID, fc.sequence_categorical_column_with_vocabulary_list("w", ["a"])])
    assert {k: repr(v) for k, v in spec.items()} == {
        "x": "VarLenFeature(dtype=tf.float32)", "ids": "VarLenFeature(dtype=tf.int64)",
        "w": "VarLenFeature(dtype=tf.string)"}


def test_embedding_indicator_and_both_of_sparse_ids():
    check(SF([fc.embedding_column(SID, 2, initializer=TABLE)])({"ids": ids()}), EMB,
          [2, 1, 0, 3])
    check(SF([fc.embedding_column(SID, 2, initializer=TABLE, combiner="sqrtn")])(
        {"ids": ids()}), EMB, [2, 1, 0, 3])
    check(SF([fc.indicator_column(SID)])({"ids": ids()}), IND, [2, 1, 0, 3])
    both = np.concatenate([np.array(EMB), np.array(IND)], -1)  # sorted by column name
    check(SF([fc.indicator_column(SID), fc.embedding_column(SID, 2, initializer=TABLE)])(
        {"ids": ids()}), both, [2, 1, 0, 3])


def test_ids_of_several_per_step_are_combined_by_step():
    three = tf.sparse.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 1]],
                                   tf.constant([1, 2, 3, 3], tf.int64), [2, 2, 2])
    check(SF([fc.indicator_column(SID)])({"ids": three}),
          [[[0, 1, 1, 0], [0, 0, 0, 1]], [[0, 0, 0, 1], [0, 0, 0, 0]]], [2, 1])
    check(SF([fc.embedding_column(SID, 2, combiner="sum", initializer=TABLE)])({"ids": three}),
          [[[6, 8], [6, 7]], [[6, 7], [0, 0]]], [2, 1])


@pytest.mark.parametrize("column,values", [
    (fc.sequence_categorical_column_with_vocabulary_list("w", ["a", "b", "c"], num_oov_buckets=1),
     [[[1, 0, 0, 0], [0, 0, 0, 1]], [[0, 0, 1, 0], [0, 0, 0, 0]]]),
    (fc.sequence_categorical_column_with_hash_bucket("w", 5),
     [[[0, 0, 0, 0, 1], [0, 0, 1, 0, 0]], [[0, 0, 1, 0, 0], [0, 0, 0, 0, 0]]])])
def test_vocabulary_and_hashed_sequences(column, values):
    check(SF([fc.indicator_column(column)])({"w": words()}), values, [2, 1])


def test_vocabulary_file_sequences(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("a\nb\nc\n")
    col = fc.sequence_categorical_column_with_vocabulary_file("w", str(path))
    assert repr(col).endswith("vocabulary_size=3, num_oov_buckets=0, dtype=tf.string, "
                              "default_value=-1, file_format=None))")
    check(SF([fc.indicator_column(col)])({"w": words()}),
          [[[1, 0, 0], [0, 0, 0]], [[0, 0, 1], [0, 0, 0]]], [2, 1])
    table = tf.constant_initializer(np.arange(6.0).reshape(3, 2))
    check(SF([fc.embedding_column(col, 2, initializer=table, combiner="sum")])({"w": words()}),
          [[[0, 1], [0, 0]], [[4, 5], [0, 0]]], [2, 1])


@pytest.mark.parametrize("column,feature,values,lengths", [
    (fc.sequence_numeric_column("x"), xs, [[[1], [2]], [[3], [0]]], [2, 1]),
    (fc.sequence_numeric_column("x", shape=(2,)),
     lambda: tf.sparse.SparseTensor([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1]],
                                    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 4]),
     [[[1, 2], [3, 4]], [[5, 6], [0, 0]]], [2, 1]),
    (fc.sequence_numeric_column("x", default_value=-1.0), xs, [[[1], [2]], [[3], [-1]]], [2, 1]),
    (fc.sequence_numeric_column("x", normalizer_fn=lambda v: v * 10.0), xs,
     [[[10], [20]], [[30], [0]]], [2, 1]),
    (fc.sequence_numeric_column("x", shape=(2, 2)),
     lambda: tf.sparse.SparseTensor([[0, 0], [0, 1], [0, 2], [0, 3]], [1.0, 2.0, 3.0, 4.0],
                                    [1, 4]), [[[1, 2, 3, 4]]], [1]),
    (fc.sequence_numeric_column("x"),
     lambda: tf.sparse.SparseTensor([[0, 0, 0], [0, 1, 0], [1, 0, 0]], [1.0, 2.0, 3.0],
                                    [2, 2, 1]), [[[1], [2]], [[3], [0]]], [2, 1])])
def test_sequence_numeric_columns(column, feature, values, lengths):
    check(SF([column])({"x": feature()}), values, lengths)


def test_dense_and_python_inputs_drop_missing_ids():
    emb = fc.embedding_column(SID, 2, initializer=TABLE)
    for value in (tf.constant([[1, 2], [0, -1]], tf.int64), tf.constant([[1, 2], [0, -1]]),
                  [[1, 2], [0, -1]], np.array([[1, 2], [0, -1]])):
        check(SF([emb])({"ids": value}), [[[2, 3], [4, 5]], [[0, 1], [0, 0]]], [2, 1])
    vocab = fc.sequence_categorical_column_with_vocabulary_list("w", ["a", "b"])
    check(SF([fc.indicator_column(vocab)])({"w": tf.constant([["a", "b", ""], ["b", "", "a"]])}),
          [[[1, 0], [0, 1], [0, 0]], [[0, 1], [0, 0], [1, 0]]], [2, 3])
    check(SF([fc.indicator_column(SID)])({"ids": tf.sparse.SparseTensor(
        [[0], [2]], tf.constant([1, 2], tf.int64), [3])}),
        [[[0, 1, 0, 0]], [[0, 0, 0, 0]], [[0, 0, 1, 0]]], [1, 0, 1])


def test_empty_batches_and_empty_sequences():
    nothing = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int64), [0, 3])
    emb = fc.embedding_column(SID, 2, initializer=TABLE)
    check(SF([emb])({"ids": nothing}), np.zeros([0, 3, 2]), [])
    check(SF([fc.indicator_column(SID)])({"ids": nothing}), np.zeros([0, 3, 4]), [])
    empty_rows = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int64),
                                        [2, 3])
    check(SF([emb, fc.indicator_column(SID)])({"ids": empty_rows}), np.zeros([2, 3, 6]), [0, 0])
    no_steps = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int64),
                                      [2, 0])
    check(SF([emb, fc.indicator_column(SID)])({"ids": no_steps}), np.zeros([2, 0, 6]), [0, 0])


def test_in_a_function_of_unknown_shapes():
    layer = SF([fc.embedding_column(SID, 2, initializer=TABLE)])
    shapes = []

    @tf.function(input_signature=[tf.SparseTensorSpec([None, None], tf.int64)])
    def f(value):
        out, length = layer({"ids": value})
        shapes.append((out.shape.as_list(), length.shape.as_list()))
        return out, length

    check(f(ids()), EMB, [2, 1, 0, 3])
    assert shapes and all(s == ([None, None, 2], [None]) for s in shapes)
    indicator = tf.function(lambda v: SF([fc.indicator_column(SID)])({"ids": v}))
    check(indicator(ids()), IND, [2, 1, 0, 3])


def test_in_a_trained_model_that_saves_and_reloads(tmp_path):
    layer = SF([fc.embedding_column(SID, 2), fc.sequence_numeric_column("x")])
    feats = {"ids": tf.constant([[1, 2], [3, -1]]),
             "x": tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [1.0, 2.0, 3.0], [2, 2])}
    out, length = layer(feats)
    assert out.shape == (2, 2, 3) and length.numpy().tolist() == [2, 1]
    assert [w.name.split("/", 1)[1] for w in layer.weights] == \
        ["ids_embedding/embedding_weights:0"]
    assert layer.name.startswith("sequence_features")
    config = layer.get_config()
    assert sorted(config) == ["dtype", "feature_columns", "name", "partitioner", "trainable"]
    assert json.loads(json.dumps(config["feature_columns"][1])) == {
        "class_name": "SequenceNumericColumn", "config": {
            "key": "x", "shape": [1], "default_value": 0.0, "dtype": "float32",
            "normalizer_fn": None}}
    again = SF.from_config(config)
    assert [repr(c).split(", initializer")[0] for c in again._feature_columns] == [
        "EmbeddingColumn(categorical_column=SequenceCategoricalColumn(categorical_column="
        "IdentityCategoricalColumn(key='ids', number_buckets=4, default_value=None)), dimension=2,"
        " combiner='mean'",
        "SequenceNumericColumn(key='x', shape=(1,), default_value=0.0, dtype=tf.float32, "
        "normalizer_fn=None)"]

    class Model(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.features = SF([fc.embedding_column(SID, 2)])
            self.dense = tf.keras.layers.Dense(1)

        def call(self, inputs):
            out, _ = self.features(inputs)
            return self.dense(tf.reduce_sum(out, 1))

    model = Model()
    feats = {"ids": ids()}
    expected = model(feats).numpy()
    tf.saved_model.save(model, str(tmp_path))
    np.testing.assert_allclose(tf.saved_model.load(str(tmp_path))(feats), expected, rtol=1e-6)


def _error(fn):
    with pytest.raises(Exception) as info:
        fn()
    lines = [ln for ln in str(info.value).split("\n") if ln.strip()]
    return type(info.value).__name__, lines[1] if lines[0].startswith("Exception encountered") \
        else lines[0]


def test_errors_as_tf():
    ind = fc.indicator_column(SID)
    num = fc.sequence_numeric_column("x")
    plain = fc.categorical_column_with_identity("ids", 4)
    given = "Given (type <class 'eagerflow._src.feature_column."
    cases = {
        "mixed lengths": (lambda: SF([ind, num])({"ids": ids(), "x": tf.sparse.SparseTensor(
            [[0, 0], [1, 1]], [5.0, 6.0], [4, 3])}), "InvalidArgumentError",
            "Condition x == y did not hold."),
        "batch": (lambda: SF([ind, num])({"ids": ids(), "x": tf.sparse.SparseTensor(
            [[0, 0], [1, 1]], [5.0, 6.0], [2, 3])}), "ValueError",
            "Batch size (first dimension) of each feature must be same. Batch size of columns "
            "(ids_indicator, x): (4, 2)"),
        "dense batch": (lambda: tf.keras.layers.DenseFeatures(
            [fc.numeric_column("a"), fc.numeric_column("b")])({"a": tf.ones([2, 1]),
                                                                "b": tf.ones([3, 1])}),
            "ValueError", "Batch size (first dimension) of each feature must be same. Batch size "
                          "of columns (a, b): (2, 3)"),
        "dense numeric": (lambda: SF([num])({"x": tf.constant([[1.0, 2.0]])}), "TypeError",
                          "Input must be a SparseTensor."),
        "reshape": (lambda: SF([fc.sequence_numeric_column("x", shape=(2,))])(
            {"x": tf.sparse.SparseTensor([[0, 0], [0, 1], [0, 2]], [1.0, 2.0, 3.0], [1, 3])}),
            "InvalidArgumentError", "Input to reshape is a tensor with 3 values, but the "
                                    "requested shape requires a multiple of 2"),
        "missing": (lambda: SF([ind])({"other": ids()}), "ValueError",
                    "Feature ids is not in features dictionary."),
        "ragged": (lambda: SF([ind])({"ids": tf.ragged.constant([[1, 2], [0]], tf.int64)}),
                   "ValueError", "TypeError: object of type 'RaggedTensor' has no len()"),
        "float ids": (lambda: SF([ind])({"ids": tf.sparse.SparseTensor(
            [[0, 0]], tf.constant([1.0]), [1, 2])}), "ValueError",
            "Invalid input, not integer. key: ids dtype: <dtype: 'float32'>"),
        "strings for ints": (lambda: SF([fc.indicator_column(
            fc.sequence_categorical_column_with_vocabulary_list("w", ["a", "b"]))])({"w": ids()}),
            "ValueError", "Column dtype and SparseTensors dtype must be compatible. key: w, "
                          "column dtype: <dtype: 'string'>, tensor dtype: <dtype: 'int64'>"),
        "empty": (lambda: SF([]), "ValueError", "feature_columns must not be empty."),
        "shape": (lambda: fc.sequence_numeric_column("x", shape=(0,)), "ValueError",
                  "shape dimensions must be greater than 0. shape: (0,), key: x"),
        "dtype": (lambda: fc.sequence_numeric_column("x", dtype=tf.string), "ValueError",
                  "dtype must be convertible to float. dtype: <dtype: 'string'>, key: x"),
        "normalizer": (lambda: fc.sequence_numeric_column("x", normalizer_fn=3), "TypeError",
                       "normalizer_fn must be a callable. Given: 3"),
        "buckets": (lambda: fc.sequence_categorical_column_with_identity("x", 0), "ValueError",
                    "num_buckets 0 < 1, column_name x"),
        "vocab": (lambda: fc.sequence_categorical_column_with_vocabulary_list("x", []),
                  "ValueError", "vocabulary_list [] must be non-empty, column_name: x"),
        "hash": (lambda: fc.sequence_categorical_column_with_hash_bucket("x", 0), "ValueError",
                 "hash_bucket_size must be at least 1. hash_bucket_size: 0, key: x"),
        "file": (lambda: fc.sequence_categorical_column_with_vocabulary_file("x", None),
                 "ValueError", "Missing vocabulary_file in x."),
    }
    for key, (fn, cls, line) in cases.items():
        got = _error(fn)
        assert got[0] == cls and line in got[1], (key, got)
    for fn, kind in ((lambda: SF([fc.embedding_column(plain, 2)])({"ids": ids()}),
                      "In embedding_column: ids_embedding."),
                     (lambda: SF([fc.indicator_column(plain)])({"ids": ids()}),
                      "In indicator_column: ids_indicator.")):
        assert _error(fn) == ("ValueError", f"{kind} categorical_column must be of type "
                              "SequenceCategoricalColumn to use SequenceFeatures. Suggested fix: "
                              "Use one of sequence_categorical_column_with_*. " + given +
                              "feature_column_v2.IdentityCategoricalColumn'>): "
                              "IdentityCategoricalColumn(key='ids', number_buckets=4, "
                              "default_value=None)")
    for column, kind in ((fc.embedding_column(SID, 2), "In embedding_column: ids_embedding."),
                         (ind, "In indicator_column: ids_indicator.")):
        assert _error(lambda: tf.keras.layers.DenseFeatures([column])({"ids": ids()})) == (
            "ValueError", f"{kind} categorical_column must not be of type "
            "SequenceCategoricalColumn. Suggested fix A: If you wish to use DenseFeatures, use a "
            "non-sequence categorical_column_with_*. Suggested fix B: If you wish to create "
            "sequence input, use SequenceFeatures instead of DenseFeatures. " + given +
            "sequence_feature_column.SequenceCategoricalColumn'>): " + repr(SID))
    for layer, column, wanted in ((SF, plain, "SequenceDenseColumn"),
                                  (SF, fc.numeric_column("x"), "SequenceDenseColumn"),
                                  (tf.keras.layers.DenseFeatures, num, "DenseColumn")):
        name, line = _error(lambda: layer([column]))
        assert name == "ValueError" and line.startswith("Items of feature_columns must be a ")
        assert f".{wanted}'>. You can wrap a categorical column" in line and \
            line.endswith(f"Given: {column!r}")
