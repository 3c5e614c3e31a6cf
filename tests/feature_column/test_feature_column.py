"""tf.feature_column and tf.keras.layers.DenseFeatures against TF's outputs
(data/feature_column_tf.json, recorded by data/make_feature_column_data.py)."""
import json
import os
import re

import numpy as np
import pytest

import eagerflow as tf
from tests.feature_column.cases import integer_and_sparse_columns, vocabulary_file_columns

fc = tf.feature_column
with open(os.path.join(os.path.dirname(__file__), "data", "feature_column_tf.json")) as _f:
    TF = json.load(_f)


def features():
    return {"age": tf.constant([[23.0], [45.0], [61.0], [18.0]]),
            "thal": tf.constant([["fixed"], ["normal"], ["reversible"], ["unknown"]]),
            "slope": tf.constant([[1], [3], [0], [2]], tf.int64),
            "pair": tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])}


AGE = fc.numeric_column("age")
AGE_B = fc.bucketized_column(AGE, boundaries=[18, 25, 30, 35, 40, 45, 50, 55, 60, 65])
THAL = fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal", "reversible"])
SLOPE = fc.categorical_column_with_identity("slope", num_buckets=4)
CROSSED = fc.crossed_column([AGE_B, "thal"], hash_bucket_size=11)


def dense(columns, feats=None):
    return tf.keras.layers.DenseFeatures(columns)(features() if feats is None else feats)


def check(key, value):
    np.testing.assert_allclose(np.asarray(value), np.asarray(TF[key], np.float32), rtol=1e-6)


def unnumbered(name):
    """`name` without the numbers Keras gives layers of names taken before (in other tests)."""
    return re.sub(r"\b(sequential|dense_features|dense)_\d+\b", r"\1", name)


@pytest.mark.parametrize("name,column", [
    ("age", AGE),
    ("pair", fc.numeric_column("pair", shape=(2,), normalizer_fn=lambda x: x * 2.0)),
    ("age_b", AGE_B),
    ("pair_b", fc.bucketized_column(fc.numeric_column("pair", shape=(2,)), [2.5, 5.0]))])
def test_dense_columns(name, column):
    out = dense([column])
    assert out.dtype == tf.float32
    check("dense_" + name, out)


@pytest.mark.parametrize("name,column", [
    ("thal", THAL),
    ("thal_oov", fc.categorical_column_with_vocabulary_list(
        "thal", ["fixed", "normal"], num_oov_buckets=3)),
    ("thal_def", fc.categorical_column_with_vocabulary_list(
        "thal", ["fixed", "normal"], default_value=1)),
    ("slope", SLOPE),
    ("thal_hash", fc.categorical_column_with_hash_bucket("thal", hash_bucket_size=7)),
    ("slope_hash", fc.categorical_column_with_hash_bucket("slope", 5, dtype=tf.int64)),
    ("crossed", CROSSED),
    ("crossed3", fc.crossed_column(["thal", "slope", AGE_B], hash_bucket_size=1000)),
    ("age_b_cat", AGE_B)])
def test_indicator_of_categorical_columns(name, column):
    check("indicator_" + name, dense([fc.indicator_column(column)]))


def test_columns_are_concatenated_sorted_by_name():
    pair = fc.numeric_column("pair", shape=(2,), normalizer_fn=lambda x: x * 2.0)
    cols = [fc.indicator_column(THAL), AGE, AGE_B, fc.indicator_column(CROSSED), pair]
    assert [c.name for c in cols] == TF["names"]
    check("dense_all", dense(cols))


SPARSE_IDS = fc.categorical_column_with_identity("ids", 12)


def sparse_features():
    return {"ids": tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0], [3, 2]],
                                          tf.constant([1, 3, 2, 5, 5], tf.int64), [4, 3])}


@pytest.mark.parametrize("combiner", ["mean", "sum", "sqrtn"])
def test_embedding_column_of_sparse_ids(combiner):
    init = tf.constant_initializer(np.arange(36, dtype=np.float32).reshape(12, 3) / 10.0)
    layer = tf.keras.layers.DenseFeatures(
        [fc.embedding_column(SPARSE_IDS, 3, combiner=combiner, initializer=init)])
    check("emb_" + combiner, layer(sparse_features()))
    assert [[unnumbered(w.name), w.shape.as_list()] for w in layer.weights] == \
        [[unnumbered(n), s] for n, s in TF["emb_weights"]]


def test_indicator_of_sparse_ids_counts_repeats():
    check("indicator_sparse", dense([fc.indicator_column(SPARSE_IDS)], sparse_features()))


def test_embedding_default_initializer_weight_and_output_shape():
    emb = fc.embedding_column(THAL, 4)
    layer = tf.keras.layers.DenseFeatures([emb, AGE])
    out = layer(features())
    assert emb.name == TF["emb_col_name"]
    assert out.shape.as_list() == TF["emb_default_shape"]
    assert [[unnumbered(w.name), w.shape.as_list()] for w in layer.weights] == \
        [[unnumbered(n), s] for n, s in TF["emb_default_weights"]]
    table = layer.weights[0].numpy()
    assert np.all(np.abs(table) <= 2 / np.sqrt(4) + 1e-6) and np.std(table) > 0


def test_rank_1_inputs_are_expanded():
    feats = {"age": tf.constant([23.0, 45.0]), "thal": tf.constant(["normal", "zzz"]),
             "slope": tf.constant([3, 1], tf.int64)}
    check("rank1", dense([AGE, fc.indicator_column(THAL), fc.indicator_column(SLOPE)], feats))
    check("crossed_rank1", dense([fc.indicator_column(fc.crossed_column(["thal", "slope"], 13))],
                                 feats))


def test_nested_cross_crosses_the_leaf_features():
    # (TF 2.21's buckets, recorded: the inner cross's size plays no part; its hashed ids
    # were crossed before)
    feats = {"a": tf.constant([[1, -7], [2**40, 0]], tf.int64),
             "b": tf.constant([["x", "y"], ["z", ""]]), "i32": tf.constant([[5], [6]], tf.int32)}
    nested = fc.crossed_column([fc.crossed_column(["a", "b"], 50), "i32"], 97)
    flat = fc.crossed_column(["a", "b", "i32"], 97)
    got = dense([fc.indicator_column(nested)], feats).numpy()
    assert nested.name == "a_X_b_X_i32"
    assert got.argmax(-1).tolist() == [11, 25] and got.sum(-1).tolist() == [4.0, 4.0]
    np.testing.assert_array_equal(got, dense([fc.indicator_column(flat)], feats).numpy())


def test_make_parse_example_spec():
    pair = fc.numeric_column("pair", shape=(2,))
    spec = fc.make_parse_example_spec([AGE, pair, THAL, SLOPE, fc.embedding_column(SPARSE_IDS, 2),
                                       CROSSED, fc.categorical_column_with_hash_bucket("thal", 7)])
    assert {k: repr(v) for k, v in sorted(spec.items())} == TF["parse_spec"]


ERRORS = {
    "empty": lambda: tf.keras.layers.DenseFeatures([]),
    "num_shape": lambda: fc.numeric_column("x", shape=(0,)),
    "num_dtype": lambda: fc.numeric_column("x", dtype=tf.string),
    "num_norm": lambda: fc.numeric_column("x", normalizer_fn=3),
    "num_key": lambda: fc.numeric_column(3),
    "bucket_src": lambda: fc.bucketized_column(THAL, [1.0]),
    "bucket_sorted": lambda: fc.bucketized_column(AGE, [3.0, 1.0]),
    "bucket_list": lambda: fc.bucketized_column(AGE, 3.0),
    "vocab_empty": lambda: fc.categorical_column_with_vocabulary_list("x", []),
    "vocab_dup": lambda: fc.categorical_column_with_vocabulary_list("x", ["a", "a"]),
    "vocab_both": lambda: fc.categorical_column_with_vocabulary_list(
        "x", ["a"], default_value=0, num_oov_buckets=1),
    "vocab_oov": lambda: fc.categorical_column_with_vocabulary_list("x", ["a"],
                                                                    num_oov_buckets=-1),
    "id_buckets": lambda: fc.categorical_column_with_identity("x", 0),
    "id_default": lambda: fc.categorical_column_with_identity("x", 3, default_value=5),
    "hash_size": lambda: fc.categorical_column_with_hash_bucket("x", 0),
    "hash_dtype": lambda: fc.categorical_column_with_hash_bucket("x", 3, dtype=tf.float32),
    "emb_dim": lambda: fc.embedding_column(THAL, 0),
    "emb_init": lambda: fc.embedding_column(THAL, 2, initializer=3),
    "cross_one": lambda: fc.crossed_column(["a"], 3),
    "cross_size": lambda: fc.crossed_column(["a", "b"], 0),
    "cross_num": lambda: fc.crossed_column([AGE, "b"], 3),
    "ind_type": lambda: fc.indicator_column(AGE),
    "duplicate": lambda: tf.keras.layers.DenseFeatures([
        fc.indicator_column(THAL), AGE, fc.indicator_column(
            fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal"],
                                                       default_value=1))]),
    "num_default_shape": lambda: fc.numeric_column("a", shape=(2,), default_value=[1, 2, 3]),
    "num_default_str": lambda: fc.numeric_column("a", default_value="x"),
    "vocab_dtype_mismatch": lambda: fc.categorical_column_with_vocabulary_list(
        "a", ["x"], dtype=tf.int64),
    "vocab_float": lambda: fc.categorical_column_with_vocabulary_list("a", [1.5, 2.5]),
    "vocab_float_dtype": lambda: fc.categorical_column_with_vocabulary_list(
        "a", ["x"], dtype=tf.float32),
    "cross_hash": lambda: fc.crossed_column([fc.categorical_column_with_hash_bucket("a", 3),
                                             "b"], 3),
    "missing": lambda: dense([AGE], {"thal": tf.constant([["a"]])}),
    "num_sparse": lambda: dense([AGE], {"age": tf.sparse.from_dense([[1.0]])}),
}


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_errors_as_tf(key):
    with pytest.raises(Exception) as info:
        ERRORS[key]()
    lines = [ln for ln in str(info.value).split("\n") if ln.strip()]
    got = [type(info.value).__name__, lines[0]] + (
        [lines[1]] if lines[0].startswith("Exception encountered") else [])
    assert [unnumbered(x) for x in got] == [unnumbered(x) for x in TF["err_" + key]]


def test_categorical_column_is_refused_by_dense_features():
    with pytest.raises(ValueError, match="Items of feature_columns must be a .*DenseColumn"):
        tf.keras.layers.DenseFeatures([THAL])


def test_sequential_fit_on_a_dataset_of_dicts():
    data = {"age": np.array([23.0, 45.0, 61.0, 18.0, 33.0, 52.0], np.float32),
            "thal": np.array(["fixed", "normal", "reversible", "normal", "fixed", "x"]),
            "slope": np.array([1, 3, 0, 2, 2, 1], np.int64)}
    labels = np.array([0, 1, 1, 0, 1, 0], np.float32)
    ds = tf.data.Dataset.from_tensor_slices((data, labels)).batch(3)
    emb_init = tf.constant_initializer(np.linspace(-0.5, 0.5, 6).reshape(3, 2))
    cols = [AGE, AGE_B, fc.indicator_column(THAL),
            fc.embedding_column(fc.categorical_column_with_vocabulary_list(
                "thal", ["fixed", "normal", "reversible"]), 2, initializer=emb_init),
            fc.indicator_column(SLOPE)]
    model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(cols),
                                 tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.001), loss="mse")
    check("fit_first", model.predict(ds, verbose=0))
    history = model.fit(ds, epochs=2, verbose=0)
    np.testing.assert_allclose(history.history["loss"], TF["fit_loss"], rtol=1e-5)
    assert [unnumbered(w.name) for w in model.weights] == \
        [unnumbered(n) for n, _ in TF["fit_weights"]]
    for w, (_, value) in zip(model.weights, TF["fit_weights"]):
        np.testing.assert_allclose(w.numpy(), value, rtol=1e-5, atol=1e-6)


def int_features():
    return {"ai": tf.constant([[3], [4]], tf.int64), "vi": tf.constant([[20], [99]], tf.int64),
            "id": tf.constant([[1], [7]]), "hi": tf.constant([[12], [-5]]),
            "s": tf.sparse.SparseTensor([[0, 0], [1, 1]], tf.constant(["b", "a"]), [2, 2])}


VOCAB_INT = fc.categorical_column_with_vocabulary_list("vi", [10, 20, 30], num_oov_buckets=2)
SPARSE_VOCAB = fc.categorical_column_with_vocabulary_list("s", ["a", "b"])


@pytest.mark.parametrize("name,column", integer_and_sparse_columns(tf, fc))
def test_integer_and_sparse_inputs(name, column):
    check("ints_" + name, dense([column], int_features()))


def test_nan_and_infinities_are_bucketized_as_tf():
    col = fc.bucketized_column(fc.numeric_column("x"), [0.0])
    check("bucket_nan", dense([col], {"x": tf.constant([np.nan, np.inf, -np.inf])}))


def test_reprs_and_variable_shapes():
    cols = [fc.numeric_column("a", shape=(2,), default_value=1),
            fc.numeric_column("a", shape=(2, 2), default_value=1.5),
            fc.numeric_column("a", shape=3),
            fc.bucketized_column(fc.numeric_column("a"), (1, 2)),
            fc.crossed_column(["a", SPARSE_VOCAB], 5), VOCAB_INT,
            fc.categorical_column_with_identity("id", 3, default_value=0),
            fc.categorical_column_with_hash_bucket("hi", 10, dtype=tf.int32)]
    assert [repr(c) for c in cols] == TF["reprs"]
    shaped = [fc.numeric_column("a", shape=(2, 3)), AGE_B, fc.indicator_column(VOCAB_INT),
              fc.embedding_column(VOCAB_INT, 3)]
    assert [repr(c.variable_shape) for c in shaped] == TF["variable_shapes"]


def test_dense_features_in_a_function_of_unknown_batch():
    layer = tf.keras.layers.DenseFeatures([AGE, fc.indicator_column(THAL)])

    @tf.function(input_signature=[{"age": tf.TensorSpec([None], tf.float32),
                                   "thal": tf.TensorSpec([None], tf.string)}])
    def f(feats):
        return layer(feats)

    check("function", f({"age": tf.constant([1.0, 2.0]), "thal": tf.constant(["normal", "q"])}))
    assert f.get_concrete_function().structured_outputs.shape.as_list() == TF["function_shape"]
    assert sorted(layer.get_config()) == TF["config_keys"]


def vocab_features():
    return {"thal": tf.constant([["fixed", "zz"], ["reversible", "normal"]]),
            "vi": tf.constant([[20], [7]], tf.int64), "w": tf.constant([[2.0, 3.0], [0.5, 1.5]]),
            "id": tf.constant([[1, 2], [0, 1]], tf.int64)}


TABLE = tf.constant_initializer(np.arange(6.0).reshape(3, 2))


@pytest.fixture
def vocab_files(tmp_path):
    strings, ints = tmp_path / "v.txt", tmp_path / "i.txt"
    strings.write_text("fixed\nnormal\nreversible\n")
    ints.write_text("10\n20\n30\n")
    return str(strings), str(ints)


def test_vocabulary_file_columns(vocab_files):
    vpath, ipath = vocab_files
    vf = fc.categorical_column_with_vocabulary_file("thal", vpath)
    assert repr(vf).replace(os.path.dirname(vpath), "DIR") == TF["vf_repr"]
    for name, col in vocabulary_file_columns(tf, fc, vpath, ipath, TABLE):
        check(name, dense([col], vocab_features()))


def test_vocabulary_file_errors(vocab_files):
    vpath, _ = vocab_files
    cases = {
        "vf_missing": lambda: fc.categorical_column_with_vocabulary_file("x", None),
        "vf_size": lambda: fc.categorical_column_with_vocabulary_file("x", vpath, 0),
        "vf_both": lambda: fc.categorical_column_with_vocabulary_file(
            "x", vpath, num_oov_buckets=1, default_value=2),
        "vf_oov": lambda: fc.categorical_column_with_vocabulary_file(
            "x", vpath, num_oov_buckets=-1),
        "vf_dtype": lambda: fc.categorical_column_with_vocabulary_file(
            "x", vpath, dtype=tf.float32),
        "vf_nofile": lambda: fc.categorical_column_with_vocabulary_file("x", vpath + "nope")}
    for key, fn in cases.items():
        with pytest.raises(Exception) as info:
            fn()
        assert [type(info.value).__name__, str(info.value)] == TF["err_" + key], key


def test_vocabulary_file_shorter_than_its_size_fails_at_lookup(vocab_files):
    # (TF's table from the file refuses it when first looked up; the ids were the 3
    # lines' in a 10-wide indicator before)
    vpath, _ = vocab_files
    col = fc.indicator_column(fc.categorical_column_with_vocabulary_file("thal", vpath, 10))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Invalid vocab_size in .*: expected 10 but got 3"):
        dense([col], vocab_features())


WEIGHTED = fc.weighted_categorical_column(fc.categorical_column_with_identity("id", 3), "w")


def test_weighted_categorical_column():
    assert repr(WEIGHTED) == TF["w_repr"]
    assert [WEIGHTED.name, fc.indicator_column(WEIGHTED).name] == TF["w_names"]
    assert repr(sorted(fc.make_parse_example_spec([WEIGHTED]).items())) == TF["w_spec"]
    check("w_ind", dense([fc.indicator_column(WEIGHTED)], vocab_features()))
    with pytest.raises(ValueError) as info:
        fc.weighted_categorical_column(WEIGHTED, "w", dtype=tf.string)
    assert str(info.value) == TF["err_w_dtype"][1]


@pytest.mark.parametrize("combiner", ["mean", "sum", "sqrtn"])
def test_weighted_embedding(combiner):
    col = fc.embedding_column(WEIGHTED, 2, combiner=combiner, initializer=TABLE)
    check("w_emb_" + combiner, dense([col], vocab_features()))


def test_config_round_trip():
    layer = tf.keras.layers.DenseFeatures([
        fc.numeric_column("a", shape=(2,), default_value=0.0),
        fc.indicator_column(fc.crossed_column(["x", fc.categorical_column_with_identity("y", 3)],
                                              5)),
        fc.bucketized_column(fc.numeric_column("b"), [1, 2]),
        fc.embedding_column(fc.categorical_column_with_hash_bucket("z", 4), 2,
                            initializer=tf.ones_initializer()),
        fc.indicator_column(fc.categorical_column_with_vocabulary_list(
            "thal", ["fixed", "normal"], num_oov_buckets=3))])
    config = json.loads(json.dumps(layer.get_config()))
    for item in config["feature_columns"]:  # (TF's legacy initializer config has no module)
        init = item["config"].get("initializer")
        if init:
            init.pop("module", None), init.pop("registered_name", None)
    assert unnumbered(config.pop("name")) == unnumbered(TF["config"]["name"])
    assert config == {k: v for k, v in TF["config"].items() if k != "name"}
    again = tf.keras.layers.DenseFeatures.from_config(layer.get_config())
    initializer = re.compile(r"initializer=<[^>]*>")
    assert [initializer.sub("", repr(c)) for c in again._feature_columns] == \
        [initializer.sub("", r) for r in TF["from_config"]]
    # (TF 1's, as TF deserializes an embedding's initializer)
    assert type(again._feature_columns[-1].initializer) is tf.compat.v1.ones_initializer


def test_shared_embeddings_refused_eagerly():
    with pytest.raises(RuntimeError) as info:
        fc.shared_embeddings([THAL, SLOPE], 2)
    assert [type(info.value).__name__, str(info.value)] == TF["err_shared"]


def test_cols_to_output_tensors_receives_each_columns_output():
    outs = {}
    layer = tf.keras.layers.DenseFeatures([fc.numeric_column("a", shape=(2,)),
                                           fc.indicator_column(SLOPE)])
    layer({"a": tf.constant([[1.0, 2.0]]), "slope": tf.constant([[2]])},
          cols_to_output_tensors=outs)
    assert [[k.name, v.numpy().tolist()] for k, v in sorted(
        outs.items(), key=lambda kv: kv[0].name)] == TF["cols_to_output"]


IDENT3 = fc.categorical_column_with_identity("i", 3)
EDGE = {
    "empty_str": ([fc.indicator_column(fc.categorical_column_with_vocabulary_list(
        "s", ["a", "b"]))], lambda: {"s": tf.constant([["a", ""], ["", "b"]])}),
    "neg_id": ([fc.indicator_column(IDENT3)], lambda: {"i": tf.constant([[-1, 2], [0, -1]])}),
    "neg_id_emb": ([fc.embedding_column(IDENT3, 2, initializer=tf.ones_initializer())],
                   lambda: {"i": tf.constant([[-1, -1], [0, -1]])}),
    "int32_vocab_input": ([fc.indicator_column(fc.categorical_column_with_vocabulary_list(
        "i", [5, 6]))], lambda: {"i": tf.constant([[6], [5]], tf.int32)}),
    "bucket_int_input": ([fc.bucketized_column(fc.numeric_column("x"), [2, 4])],
                         lambda: {"x": tf.constant([[1], [2], [5]])}),
    "hash_neg": ([fc.indicator_column(fc.categorical_column_with_hash_bucket(
        "h", 10, tf.int64))], lambda: {"h": tf.constant([[-7], [12345678901]], tf.int64)}),
    "sparse_rank1": ([fc.indicator_column(IDENT3)], lambda: {"i": tf.sparse.SparseTensor(
        [[0], [2]], tf.constant([1, 2], tf.int64), [3])}),
    "numpy_dict": ([fc.numeric_column("x"), fc.indicator_column(THAL)],
                   lambda: {"x": np.array([1.0, 2.0]), "thal": np.array(["normal", "zz"])}),
    "num_f64": ([fc.numeric_column("x", dtype=tf.float64)],
                lambda: {"x": tf.constant([[1.5]], tf.float64)}),
    "num_3d": ([fc.numeric_column("x", shape=(2, 2))], lambda: {"x": tf.ones([2, 2, 2])}),
    "cross_dense_int": ([fc.indicator_column(fc.crossed_column(["a", "b"], 9))],
                        lambda: {"a": tf.constant([[1, 2], [3, 4]]),
                                 "b": tf.constant([["x"], ["y"]])}),
    "cross_multi": ([fc.indicator_column(fc.crossed_column(["a", "b"], 30))],
                    lambda: {"a": tf.constant([["p", "q"], ["r", ""]]),
                             "b": tf.constant([["x", "y"], ["z", "w"]])}),
    "emb_maxnorm": ([fc.embedding_column(IDENT3, 2, initializer=tf.constant_initializer(3.0),
                                         max_norm=1.0)], lambda: {"i": tf.constant([[1]])}),
    "emb_unsafe": ([fc.embedding_column(IDENT3, 2, initializer=tf.ones_initializer(),
                                        use_safe_embedding_lookup=False)],
                   lambda: {"i": tf.constant([[1], [2]])}),
}


@pytest.mark.parametrize("key", sorted(EDGE))
def test_edge_inputs(key):
    cols, feats = EDGE[key]
    check("edge_" + key, dense(cols, feats()))


@pytest.mark.parametrize("key,value", [("id_string", tf.constant([["a"]])),
                                       ("id_float", tf.constant([[1.0]]))])
def test_identity_column_refuses_non_integers(key, value):
    with pytest.raises(ValueError) as info:
        dense([fc.indicator_column(IDENT3)], {"i": value})
    lines = [ln for ln in str(info.value).split("\n") if ln.strip()]
    assert lines[1] == TF["err_" + key][2]


def test_embedding_gradient_and_frozen_tables():
    layer = tf.keras.layers.DenseFeatures([fc.embedding_column(
        fc.categorical_column_with_identity("i", 4), 2, initializer=tf.ones_initializer())])
    feats = {"i": tf.constant([[1, 1], [3, -1]])}
    layer(feats)
    with tf.GradientTape() as tape:
        total = tf.reduce_sum(layer(feats) * tf.constant([[1.0, 2.0]]))
    check("emb_grad", tf.convert_to_tensor(tape.gradient(total, layer.trainable_weights[0])))
    frozen = tf.keras.layers.DenseFeatures([fc.embedding_column(IDENT3, 2, trainable=False)])
    frozen({"i": tf.constant([[1]])})
    assert [len(frozen.trainable_weights), len(frozen.non_trainable_weights)] == \
        TF["frozen_counts"]


def test_default_embedding_initializer_config():
    layer = tf.keras.layers.DenseFeatures([fc.embedding_column(IDENT3, 4)])
    config = layer.get_config()["feature_columns"][0]["config"]["initializer"]
    assert config == TF["default_initializer_config"]


def test_from_config_gives_tf1_initializers():
    # (TF 2.21's table, recorded: a Keras TruncatedNormal(seed=2) comes back as TF 1's,
    # which draws other values; recorded with no global seed, as a fresh process has)
    tf.random.set_seed(None)
    emb = fc.embedding_column(IDENT3, 3, initializer=tf.keras.initializers.TruncatedNormal(
        stddev=0.3, seed=2))
    again = tf.keras.layers.DenseFeatures.from_config(
        tf.keras.layers.DenseFeatures([emb]).get_config())
    initializer = again._feature_columns[0].initializer
    assert type(initializer) is type(tf.compat.v1.truncated_normal_initializer())
    assert initializer.get_config() == {"mean": 0.0, "stddev": 0.3, "seed": 2,
                                        "dtype": "float32"}
    np.testing.assert_allclose(initializer([2, 3]), [[-0.25743327, -0.0589869, 0.04168514],
                                                     [-0.36638305, -0.06237943, -0.5334839]],
                               rtol=1e-6)


def test_saved_model_holds_the_vocabulary_tables(tmp_path):
    model = tf.keras.Sequential([
        tf.keras.layers.DenseFeatures([AGE, fc.indicator_column(THAL), fc.embedding_column(
            fc.categorical_column_with_vocabulary_list("thal", ["normal"], num_oov_buckets=2),
            2, use_safe_embedding_lookup=False)]),
        tf.keras.layers.Dense(1)])
    feats = {"age": tf.constant([[1.0], [2.0]]), "thal": tf.constant([["normal"], ["zz"]])}
    expected = model(feats)
    tf.saved_model.save(model, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded(feats), expected, rtol=1e-6)


def test_checkpoint_keys_as_tf(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(
        [AGE, fc.embedding_column(THAL, 2)]), tf.keras.layers.Dense(1)])
    model({"age": tf.constant([[1.0]]), "thal": tf.constant([["fixed"]])})
    saved = tf.train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))
    assert [[k, s] for k, s in tf.train.list_variables(saved)] == TF["checkpoint_keys"]


@pytest.mark.parametrize("column,feats", [
    (fc.categorical_column_with_vocabulary_list("t", ["a", "b", "c"]),
     {"t": tf.constant([["a"], ["zz"], ["c"]])}),
    (fc.categorical_column_with_hash_bucket("t", 5), {"t": tf.constant([["a"], [""], ["c"]])}),
    (fc.categorical_column_with_identity("t", 4), {"t": tf.constant([[1], [-1], [3]])})])
def test_safe_embedding_lookup_model_saves_and_reloads(tmp_path, column, feats):
    model = tf.keras.Sequential([tf.keras.layers.DenseFeatures([fc.embedding_column(column, 2)]),
                                 tf.keras.layers.Dense(1)])
    expected = model(feats).numpy()
    tf.saved_model.save(model, str(tmp_path / "sm"))
    np.testing.assert_allclose(tf.saved_model.load(str(tmp_path / "sm"))(feats), expected,
                               rtol=1e-6)
    model.save(str(tmp_path / "keras"))
    loaded = tf.keras.models.load_model(str(tmp_path / "keras"))
    np.testing.assert_allclose(loaded(feats), expected, rtol=1e-6)
    assert [unnumbered(w.name) for w in loaded.weights] == [unnumbered(w.name)
                                                           for w in model.weights]


def test_constant_initializer_of_an_array_survives_model_save(tmp_path):
    init = tf.constant_initializer(np.arange(8.0).reshape(4, 2))
    column = fc.embedding_column(fc.categorical_column_with_identity("t", 4), 2,
                                 initializer=init)
    model = tf.keras.Sequential([tf.keras.layers.DenseFeatures([column])])
    feats = {"t": tf.constant([[1], [3]])}
    model(feats)
    model.save(str(tmp_path))
    loaded = tf.keras.models.load_model(str(tmp_path))
    np.testing.assert_allclose(loaded(feats), [[2.0, 3.0], [6.0, 7.0]])
    restored = loaded.layers[0]._feature_columns[0].initializer
    assert restored.value == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]


def test_python_strings_floats_crossed_and_shape_errors_as_tf():
    vocab = fc.indicator_column(fc.categorical_column_with_vocabulary_list("a", ["x"]))
    np.testing.assert_array_equal(dense([vocab], {"a": ["x", "y"]}), [[1], [0]])
    # TF crosses floats as int64s (1.5 as 1): the same buckets as the integers
    cross = fc.indicator_column(fc.crossed_column(["a", "b"], 5))
    np.testing.assert_array_equal(dense([cross], {"a": tf.constant([[1.5]]),
                                                  "b": tf.constant([["x"]])}),
                                  [[0, 0, 0, 0, 1]])
    np.testing.assert_array_equal(
        tf.sparse.cross_hashed([tf.constant([[1.5], [2.0]]), tf.constant([["x"], ["y"]])],
                               10).values, [9, 4])
    assert tf.sparse.cross([tf.constant([[True]]), tf.constant([["x"]])]).values.numpy() \
        .tolist() == [b"1_X_x"]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        dense([fc.numeric_column("a", shape=(2,))], {"a": tf.constant([[1.0, 2.0, 3.0]])})
    assert str(info.value).split("\n")[2] == (
        "{{function_node __wrapped__Reshape_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Input to reshape is a tensor with 3 values, but the requested shape has 2 [Op:Reshape]")


@pytest.mark.parametrize("column,value,message", [
    (fc.categorical_column_with_vocabulary_list("a", ["x"]), tf.constant([[1.0]]),
     "column_name: a input_tensor dtype must be string or integer. dtype: <dtype: 'float32'>."),
    (fc.categorical_column_with_vocabulary_list("a", [1]), tf.constant([[True]]),
     "Column dtype and SparseTensors dtype must be compatible. key: a, column dtype: <dtype: "
     "'int64'>, tensor dtype: <dtype: 'bool'>"),
    (fc.categorical_column_with_hash_bucket("a", 3, tf.int64), tf.constant([[1.0]]),
     "column_name: a input_tensor dtype must be string or integer. dtype: <dtype: 'float32'>."),
    (fc.categorical_column_with_hash_bucket("a", 3), tf.sparse.from_dense(
        tf.constant([[1.0]], tf.float64)),  # (the layer casts floats to its dtype first)
     "column_name: a input_tensor dtype must be string or integer. dtype: <dtype: 'float32'>."),
    (fc.categorical_column_with_hash_bucket("a", 3), tf.constant([[1]]),
     "Column dtype and SparseTensors dtype must be compatible. key: a, column dtype: <dtype: "
     "'string'>, tensor dtype: <dtype: 'int32'>")])
def test_categorical_inputs_of_wrong_dtypes_as_tf(column, value, message):
    with pytest.raises(ValueError) as info:
        dense([fc.indicator_column(column)], {"a": value})
    assert str(info.value).split("\n")[2] == message


def test_functional_model_of_a_dict_saves_and_reloads(tmp_path):
    inputs = {"t": tf.keras.Input((1,), dtype=tf.string, name="t"),
              "x": tf.keras.Input((1,), name="x")}
    vocab = fc.categorical_column_with_vocabulary_list("t", ["fixed", "normal"])
    out = tf.keras.layers.DenseFeatures([fc.embedding_column(vocab, 2),
                                         fc.numeric_column("x")])(inputs)
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(out))
    config = model.get_config()
    assert config["layers"][2]["inbound_nodes"] == [
        {"t": ["t", 0, 0, {}], "x": ["x", 0, 0, {}]}]  # (as tf_keras writes it)
    feats = {"t": tf.constant([["fixed"], ["zz"]]), "x": tf.constant([[1.0], [2.0]])}
    expected = model(feats).numpy()
    model.save(str(tmp_path))
    np.testing.assert_allclose(tf.keras.models.load_model(str(tmp_path))(feats), expected,
                               rtol=1e-6)
    again = tf.keras.Model.from_config(config)
    assert again(feats).shape == (2, 1)



def test_get_config_keeps_tuples_as_tf_does():
    bucketized = fc.bucketized_column(fc.numeric_column("a", shape=(2,)), [1, 2])
    vocab = fc.categorical_column_with_vocabulary_list("v", ["x", "y"])
    crossed = fc.crossed_column([bucketized, "v"], 5)
    layer = tf.keras.layers.DenseFeatures([fc.indicator_column(crossed),
                                           fc.indicator_column(vocab)])
    columns = layer.get_config()["feature_columns"]
    keys = columns[0]["config"]["categorical_column"]["config"]["keys"]
    assert isinstance(keys, tuple) and keys[1] == "v"
    assert keys[0]["config"]["boundaries"] == (1, 2)
    assert keys[0]["config"]["source_column"]["config"]["shape"] == (2,)
    assert columns[1]["config"]["categorical_column"]["config"]["vocabulary_list"] == ("x", "y")
    again = tf.keras.layers.DenseFeatures.from_config(layer.get_config())
    assert again._feature_columns == layer._feature_columns


def _embedding_checkpoint(tmp_path):
    table = np.arange(8, dtype=np.float32).reshape(4, 2)
    return tf.train.Checkpoint(v=tf.Variable(table)).save(str(tmp_path / "ck"))


def test_embedding_column_starts_from_its_checkpoint(tmp_path):
    path = _embedding_checkpoint(tmp_path)
    ids = fc.categorical_column_with_identity("n", 4)
    column = fc.embedding_column(ids, 2, ckpt_to_load_from=path,
                                 tensor_name_in_ckpt="v/.ATTRIBUTES/VARIABLE_VALUE")
    feats = {"n": tf.constant([[1], [3]], tf.int64)}
    expected = [[2.0, 3.0], [6.0, 7.0]]
    assert tf.keras.layers.DenseFeatures([column])(feats).numpy().tolist() == expected
    assert tf.compat.v1.feature_column.input_layer(feats, [column]).numpy().tolist() == expected
    missing = fc.embedding_column(ids, 2, ckpt_to_load_from=path, tensor_name_in_ckpt="w")
    with pytest.raises(ValueError, match="Tensor w is not found in"):
        tf.keras.layers.DenseFeatures([missing])(feats)
    wrong = fc.embedding_column(ids, 3, ckpt_to_load_from=path,
                                tensor_name_in_ckpt="v/.ATTRIBUTES/VARIABLE_VALUE")
    with pytest.raises(ValueError, match="Shape of variable"):
        tf.compat.v1.feature_column.input_layer(feats, [wrong])


def test_shared_embeddings_start_from_their_checkpoint(tmp_path):
    path = _embedding_checkpoint(tmp_path)
    with tf.Graph().as_default():
        a, b = fc.shared_embeddings(
            [fc.categorical_column_with_identity("n", 4), fc.categorical_column_with_identity(
                "m", 4)], 2, ckpt_to_load_from=path,
            tensor_name_in_ckpt="v/.ATTRIBUTES/VARIABLE_VALUE")
        out = tf.keras.layers.DenseFeatures([a, b])(
            {"n": tf.constant([[1], [3]], tf.int64), "m": tf.constant([[0], [2]], tf.int64)})
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            assert sess.run(out).tolist() == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]


def test_crossing_a_weighted_column_is_refused():
    weighted = fc.weighted_categorical_column(fc.categorical_column_with_identity("i", 10), "w")
    layer = tf.keras.layers.DenseFeatures([fc.indicator_column(fc.crossed_column([weighted, "s"],
                                                                                 100))])
    with pytest.raises(ValueError, match="crossed_column does not support weight_tensor, but "
                       "the given column populates weight_tensor. Given column: i_weighted_by_w"):
        layer({"i": tf.constant([[1]], tf.int64), "w": tf.constant([[1.0]]),
               "s": tf.constant([["a"]])})


@pytest.mark.parametrize("layer", [
    lambda: tf.keras.layers.DenseFeatures([fc.numeric_column("n")]),
    lambda: tf.keras.experimental.SequenceFeatures([fc.sequence_numeric_column("n")])])
def test_features_that_are_not_a_dict_as_tf_words_it(layer):
    with pytest.raises(ValueError) as info:
        layer()(tf.constant([[1.0]]))
    assert "We expected a dictionary here. Instead we got: \n" in str(info.value)


@pytest.mark.parametrize("columns, message", [
    (["age"], "Items of feature_columns must be a FeatureColumn. Given (type <class 'str'>): "
              "age."),
    ({"a": fc.numeric_column("a")}, "Expected feature_columns to be iterable, found dict."),
    ([fc.categorical_column_with_identity("t", 3), fc.numeric_column("a"),
      fc.numeric_column("a", shape=2)], "Duplicate feature column name found for columns: "
                                        "NumericColumn(key='a', shape=(2,)")])
def test_feature_layer_checks_its_columns_in_tf_order(columns, message):
    for layer in (tf.keras.layers.DenseFeatures, tf.keras.experimental.SequenceFeatures):
        with pytest.raises(ValueError) as info:
            layer(columns)
        assert str(info.value).startswith(message)


def test_saved_dense_features_model_takes_numpy_text(tmp_path):
    column = fc.embedding_column(fc.categorical_column_with_hash_bucket("city", 10), 2,
                                 initializer=tf.keras.initializers.Constant(0.1))
    model = tf.keras.Sequential([tf.keras.layers.DenseFeatures([fc.numeric_column("age"),
                                                                column])])
    feats = {"age": np.array([[23.0], [41.0]], np.float32), "city": np.array([["a"], ["b"]])}
    expected = model(feats).numpy()
    tf.saved_model.save(model, str(tmp_path / "sm"))
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    np.testing.assert_allclose(loaded(feats).numpy(), expected)
