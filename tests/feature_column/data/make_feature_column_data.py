"""Record TF's feature-column outputs for tests/feature_column (run under real TF):

    TF_USE_LEGACY_KERAS=1 TF_CPP_MIN_LOG_LEVEL=3 python make_feature_column_data.py
"""
import json
import os
import re
import sys
import tempfile

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

from tests.feature_column.cases import (  # noqa: E402
    integer_and_sparse_columns, vocabulary_file_columns)

fc = tf.feature_column
OUT = {}


def rec(key, value):
    OUT[key] = np.asarray(value).tolist()


def layer_out(columns, features):
    layer = tf.keras.layers.DenseFeatures(columns)
    out = layer(features)
    return layer, out


FEATS = {
    "age": tf.constant([[23.0], [45.0], [61.0], [18.0]]),
    "thal": tf.constant([["fixed"], ["normal"], ["reversible"], ["unknown"]]),
    "slope": tf.constant([[1], [3], [0], [2]], tf.int64),
    "pair": tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]),
}
age = fc.numeric_column("age")
pair = fc.numeric_column("pair", shape=(2,), normalizer_fn=lambda x: x * 2.0)
age_b = fc.bucketized_column(age, boundaries=[18, 25, 30, 35, 40, 45, 50, 55, 60, 65])
pair_b = fc.bucketized_column(fc.numeric_column("pair", shape=(2,)), boundaries=[2.5, 5.0])
thal = fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal", "reversible"])
thal_oov = fc.categorical_column_with_vocabulary_list(
    "thal", ["fixed", "normal"], num_oov_buckets=3)
thal_def = fc.categorical_column_with_vocabulary_list(
    "thal", ["fixed", "normal"], default_value=1)
slope = fc.categorical_column_with_identity("slope", num_buckets=4)
thal_hash = fc.categorical_column_with_hash_bucket("thal", hash_bucket_size=7)
slope_hash = fc.categorical_column_with_hash_bucket("slope", 5, dtype=tf.int64)
crossed = fc.crossed_column([age_b, "thal"], hash_bucket_size=11)
crossed3 = fc.crossed_column(["thal", "slope", age_b], hash_bucket_size=1000)

for name, col in [("age", age), ("pair", pair), ("age_b", age_b), ("pair_b", pair_b)]:
    rec("dense_" + name, layer_out([col], FEATS)[1])
for name, cat in [("thal", thal), ("thal_oov", thal_oov), ("thal_def", thal_def),
                  ("slope", slope), ("thal_hash", thal_hash), ("slope_hash", slope_hash),
                  ("crossed", crossed), ("crossed3", crossed3), ("age_b_cat", age_b)]:
    rec("indicator_" + name, layer_out([fc.indicator_column(cat)], FEATS)[1])

# Names, sorted order.
cols = [fc.indicator_column(thal), age, age_b, fc.indicator_column(crossed), pair]
OUT["names"] = [c.name for c in cols]
rec("dense_all", layer_out(cols, FEATS)[1])

# Embeddings, with a known initializer.
init = tf.constant_initializer(np.arange(12 * 3, dtype=np.float32).reshape(12, 3) / 10.0)
SP = {"ids": tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0], [3, 2]],
                                    tf.constant([1, 3, 2, 5, 5], tf.int64), [4, 3])}
ids = fc.categorical_column_with_identity("ids", 12)
for comb in ["mean", "sum", "sqrtn"]:
    emb = fc.embedding_column(ids, 3, combiner=comb, initializer=init)
    layer, out = layer_out([emb], SP)
    rec("emb_" + comb, out)
    OUT["emb_weights"] = [(w.name, w.shape.as_list()) for w in layer.weights]
rec("indicator_sparse", layer_out([fc.indicator_column(ids)], SP)[1])
# Default initializer's shape and stddev bound
emb = fc.embedding_column(thal, 4)
layer, out = layer_out([emb, age], FEATS)
OUT["emb_default_weights"] = [(w.name, w.shape.as_list()) for w in layer.weights]
OUT["emb_default_shape"] = out.shape.as_list()
OUT["emb_col_name"] = emb.name

# Rank-1 inputs.
R1 = {"age": tf.constant([23.0, 45.0]), "thal": tf.constant(["normal", "zzz"]),
      "slope": tf.constant([3, 1], tf.int64)}
rec("rank1", layer_out([age, fc.indicator_column(thal), fc.indicator_column(slope)], R1)[1])

# crossed with dense int and strings
rec("crossed_rank1", layer_out([fc.indicator_column(
    fc.crossed_column(["thal", "slope"], 13))], R1)[1])

# parse example spec
spec = fc.make_parse_example_spec([age, pair, thal, slope, fc.embedding_column(ids, 2),
                                   crossed, thal_hash])
OUT["parse_spec"] = {k: repr(v) for k, v in sorted(spec.items())}

# Errors.
def err(key, fn):
    try:
        fn()
        OUT["err_" + key] = None
    except Exception as e:  # noqa: BLE001
        lines = [ln for ln in str(e).split("\n") if ln.strip()]
        OUT["err_" + key] = [type(e).__name__, lines[0]] + (
            [lines[1]] if lines[0].startswith("Exception encountered") else [])

err("empty", lambda: tf.keras.layers.DenseFeatures([]))
err("categorical", lambda: tf.keras.layers.DenseFeatures([thal])(FEATS))
err("num_shape", lambda: fc.numeric_column("x", shape=(0,)))
err("num_dtype", lambda: fc.numeric_column("x", dtype=tf.string))
err("num_norm", lambda: fc.numeric_column("x", normalizer_fn=3))
err("num_key", lambda: fc.numeric_column(3))
err("bucket_src", lambda: fc.bucketized_column(thal, [1.0]))
err("bucket_sorted", lambda: fc.bucketized_column(age, [3.0, 1.0]))
err("bucket_list", lambda: fc.bucketized_column(age, 3.0))
err("vocab_empty", lambda: fc.categorical_column_with_vocabulary_list("x", []))
err("vocab_dup", lambda: fc.categorical_column_with_vocabulary_list("x", ["a", "a"]))
err("vocab_both", lambda: fc.categorical_column_with_vocabulary_list(
    "x", ["a"], default_value=0, num_oov_buckets=1))
err("vocab_oov", lambda: fc.categorical_column_with_vocabulary_list(
    "x", ["a"], num_oov_buckets=-1))
err("id_buckets", lambda: fc.categorical_column_with_identity("x", 0))
err("id_default", lambda: fc.categorical_column_with_identity("x", 3, default_value=5))
err("hash_size", lambda: fc.categorical_column_with_hash_bucket("x", 0))
err("hash_dtype", lambda: fc.categorical_column_with_hash_bucket("x", 3, dtype=tf.float32))
err("emb_dim", lambda: fc.embedding_column(thal, 0))
err("emb_comb", lambda: fc.embedding_column(thal, 2, combiner="max"))
err("emb_init", lambda: fc.embedding_column(thal, 2, initializer=3))
err("cross_one", lambda: fc.crossed_column(["a"], 3))
err("cross_size", lambda: fc.crossed_column(["a", "b"], 0))
err("cross_num", lambda: fc.crossed_column([age, "b"], 3))
err("ind_type", lambda: fc.indicator_column(age))
err("id_range", lambda: layer_out([fc.indicator_column(slope)],
                                   {"slope": tf.constant([[7]], tf.int64)}))
err("missing", lambda: layer_out([age], {"thal": FEATS["thal"]}))
err("num_sparse", lambda: layer_out([age], {"age": tf.sparse.from_dense([[1.0]])}))

# A fit loop on a small frame, with a fixed seed of weights set afterwards.
data = {"age": np.array([23.0, 45.0, 61.0, 18.0, 33.0, 52.0], np.float32),
        "thal": np.array(["fixed", "normal", "reversible", "normal", "fixed", "x"]),
        "slope": np.array([1, 3, 0, 2, 2, 1], np.int64)}
labels = np.array([0, 1, 1, 0, 1, 0], np.float32)
ds = tf.data.Dataset.from_tensor_slices((data, labels)).batch(3)
emb_init = tf.constant_initializer(np.linspace(-0.5, 0.5, 3 * 2).reshape(3, 2))
model_cols = [age, age_b, fc.indicator_column(thal), fc.embedding_column(
    fc.categorical_column_with_vocabulary_list("thal", ["fixed", "normal", "reversible"]),
    2, initializer=emb_init), fc.indicator_column(slope)]
model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(model_cols),
                             tf.keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.001), loss="mse")
OUT["fit_first"] = np.asarray(model.predict(ds, verbose=0)).tolist()
hist = model.fit(ds, epochs=2, verbose=0)
OUT["fit_loss"] = hist.history["loss"]
OUT["fit_weights"] = [(w.name, np.asarray(w.numpy()).tolist()) for w in model.weights]

# Integer vocabularies and ids, hashed integers, sparse string inputs.
INTS = {"ai": tf.constant([[3], [4]], tf.int64), "vi": tf.constant([[20], [99]], tf.int64),
        "id": tf.constant([[1], [7]]), "hi": tf.constant([[12], [-5]]),
        "s": tf.sparse.SparseTensor([[0, 0], [1, 1]], tf.constant(["b", "a"]), [2, 2])}
vocab_int = fc.categorical_column_with_vocabulary_list("vi", [10, 20, 30], num_oov_buckets=2)
sv = fc.categorical_column_with_vocabulary_list("s", ["a", "b"])
for name, col in integer_and_sparse_columns(tf, fc):
    rec("ints_" + name, layer_out([col], INTS)[1])
rec("bucket_nan", layer_out([fc.bucketized_column(fc.numeric_column("x"), [0.0])],
                            {"x": tf.constant([np.nan, np.inf, -np.inf])})[1])
OUT["reprs"] = [repr(c) for c in [
    fc.numeric_column("a", shape=(2,), default_value=1),
    fc.numeric_column("a", shape=(2, 2), default_value=1.5),
    fc.numeric_column("a", shape=3),
    fc.bucketized_column(fc.numeric_column("a"), (1, 2)),
    fc.crossed_column(["a", sv], 5), vocab_int,
    fc.categorical_column_with_identity("id", 3, default_value=0),
    fc.categorical_column_with_hash_bucket("hi", 10, dtype=tf.int32)]]
OUT["variable_shapes"] = [repr(c.variable_shape) for c in [
    fc.numeric_column("a", shape=(2, 3)), age_b, fc.indicator_column(vocab_int),
    fc.embedding_column(vocab_int, 3)]]
fn_layer = tf.keras.layers.DenseFeatures([age, fc.indicator_column(thal)])


@tf.function(input_signature=[{"age": tf.TensorSpec([None], tf.float32),
                               "thal": tf.TensorSpec([None], tf.string)}])
def in_function(feats):
    return fn_layer(feats)


rec("function", in_function({"age": tf.constant([1.0, 2.0]),
                             "thal": tf.constant(["normal", "q"])}))
OUT["function_shape"] = in_function.get_concrete_function().structured_outputs.shape.as_list()
OUT["config_keys"] = sorted(fn_layer.get_config())

# Vocabulary files and weighted columns (the files are written by write_vocabularies).


def write_vocabularies(directory):
    """The vocabulary files the tests read: strings and integers, one a line."""
    paths = os.path.join(directory, "v.txt"), os.path.join(directory, "i.txt")
    with open(paths[0], "w") as f:
        f.write("fixed\nnormal\nreversible\n")
    with open(paths[1], "w") as f:
        f.write("10\n20\n30\n")
    return paths


VF = {"thal": tf.constant([["fixed", "zz"], ["reversible", "normal"]]),
      "vi": tf.constant([[20], [7]], tf.int64), "w": tf.constant([[2.0, 3.0], [0.5, 1.5]]),
      "id": tf.constant([[1, 2], [0, 1]], tf.int64)}
table_init = tf.constant_initializer(np.arange(6.0).reshape(3, 2))
with tempfile.TemporaryDirectory() as tmp:
    vpath, ipath = write_vocabularies(tmp)
    vf = fc.categorical_column_with_vocabulary_file("thal", vpath)
    OUT["vf_repr"] = repr(vf).replace(tmp, "DIR")
    for name, col in vocabulary_file_columns(tf, fc, vpath, ipath, table_init):
        rec(name, layer_out([col], VF)[1])
    err("vf_missing", lambda: fc.categorical_column_with_vocabulary_file("x", None))
    err("vf_size", lambda: fc.categorical_column_with_vocabulary_file("x", vpath, 0))
    err("vf_both", lambda: fc.categorical_column_with_vocabulary_file(
        "x", vpath, num_oov_buckets=1, default_value=2))
    err("vf_oov", lambda: fc.categorical_column_with_vocabulary_file(
        "x", vpath, num_oov_buckets=-1))
    err("vf_dtype", lambda: fc.categorical_column_with_vocabulary_file(
        "x", vpath, dtype=tf.float32))
    err("vf_nofile", lambda: fc.categorical_column_with_vocabulary_file("x", vpath + "nope"))
weighted = fc.weighted_categorical_column(fc.categorical_column_with_identity("id", 3), "w")
OUT["w_repr"] = repr(weighted)
OUT["w_names"] = [weighted.name, fc.indicator_column(weighted).name]
OUT["w_spec"] = repr(sorted(fc.make_parse_example_spec([weighted]).items()))
rec("w_ind", layer_out([fc.indicator_column(weighted)], VF)[1])
for comb in ["mean", "sum", "sqrtn"]:
    rec("w_emb_" + comb, layer_out([fc.embedding_column(
        weighted, 2, combiner=comb, initializer=table_init)], VF)[1])
err("w_dtype", lambda: fc.weighted_categorical_column(weighted, "w", dtype=tf.string))

# Configs (columns serialized, sorted by name) and their round trip.
cfg_layer = tf.keras.layers.DenseFeatures([
    fc.numeric_column("a", shape=(2,), default_value=0.0),
    fc.indicator_column(fc.crossed_column(["x", fc.categorical_column_with_identity("y", 3)], 5)),
    fc.bucketized_column(fc.numeric_column("b"), [1, 2]),
    fc.embedding_column(fc.categorical_column_with_hash_bucket("z", 4), 2,
                        initializer=tf.ones_initializer()),
    fc.indicator_column(thal_oov)])
OUT["config"] = json.loads(json.dumps(cfg_layer.get_config()))
OUT["from_config"] = [re.sub(" at 0x[0-9a-f]+", "", repr(c)) for c in
                      tf.keras.layers.DenseFeatures.from_config(
                          cfg_layer.get_config())._feature_columns]
err("shared", lambda: fc.shared_embeddings([thal, thal_oov], 2))

# Each column's output, by column.
outs = {}
tf.keras.layers.DenseFeatures([fc.numeric_column("a", shape=(2,)), fc.indicator_column(slope)])(
    {"a": tf.constant([[1.0, 2.0]]), "slope": tf.constant([[2]])}, cols_to_output_tensors=outs)
OUT["cols_to_output"] = sorted((k.name, v.numpy().tolist()) for k, v in outs.items())

# Missing values, sparse rank-1 inputs, integer and float64 inputs, gradients.
ident3 = fc.categorical_column_with_identity("i", 3)
EDGE = {
    "empty_str": ([fc.indicator_column(fc.categorical_column_with_vocabulary_list(
        "s", ["a", "b"]))], {"s": tf.constant([["a", ""], ["", "b"]])}),
    "neg_id": ([fc.indicator_column(ident3)], {"i": tf.constant([[-1, 2], [0, -1]])}),
    "neg_id_emb": ([fc.embedding_column(ident3, 2, initializer=tf.ones_initializer())],
                   {"i": tf.constant([[-1, -1], [0, -1]])}),
    "int32_vocab_input": ([fc.indicator_column(fc.categorical_column_with_vocabulary_list(
        "i", [5, 6]))], {"i": tf.constant([[6], [5]], tf.int32)}),
    "bucket_int_input": ([fc.bucketized_column(fc.numeric_column("x"), [2, 4])],
                         {"x": tf.constant([[1], [2], [5]])}),
    "hash_neg": ([fc.indicator_column(fc.categorical_column_with_hash_bucket(
        "h", 10, tf.int64))], {"h": tf.constant([[-7], [12345678901]], tf.int64)}),
    "sparse_rank1": ([fc.indicator_column(ident3)], {"i": tf.sparse.SparseTensor(
        [[0], [2]], tf.constant([1, 2], tf.int64), [3])}),
    "numpy_dict": ([fc.numeric_column("x"), fc.indicator_column(thal)],
                   {"x": np.array([1.0, 2.0]), "thal": np.array(["normal", "zz"])}),
    "num_f64": ([fc.numeric_column("x", dtype=tf.float64)], {"x": tf.constant([[1.5]],
                                                                               tf.float64)}),
    "num_3d": ([fc.numeric_column("x", shape=(2, 2))], {"x": tf.ones([2, 2, 2])}),
    "cross_dense_int": ([fc.indicator_column(fc.crossed_column(["a", "b"], 9))],
                        {"a": tf.constant([[1, 2], [3, 4]]), "b": tf.constant([["x"], ["y"]])}),
    "cross_multi": ([fc.indicator_column(fc.crossed_column(["a", "b"], 30))],
                    {"a": tf.constant([["p", "q"], ["r", ""]]),
                     "b": tf.constant([["x", "y"], ["z", "w"]])}),
    "emb_maxnorm": ([fc.embedding_column(ident3, 2, initializer=tf.constant_initializer(3.0),
                                         max_norm=1.0)], {"i": tf.constant([[1]])}),
    "emb_unsafe": ([fc.embedding_column(ident3, 2, initializer=tf.ones_initializer(),
                                        use_safe_embedding_lookup=False)],
                   {"i": tf.constant([[1], [2]])}),
}
for key, (cols, feats) in EDGE.items():
    rec("edge_" + key, layer_out(cols, feats)[1])
err("id_string", lambda: layer_out([fc.indicator_column(ident3)], {"i": tf.constant([["a"]])}))
err("id_float", lambda: layer_out([fc.indicator_column(ident3)], {"i": tf.constant([[1.0]])}))
grad_layer = tf.keras.layers.DenseFeatures([fc.embedding_column(
    fc.categorical_column_with_identity("i", 4), 2, initializer=tf.ones_initializer())])
GRAD_FEATS = {"i": tf.constant([[1, 1], [3, -1]])}
grad_layer(GRAD_FEATS)
with tf.GradientTape() as tape:
    total = tf.reduce_sum(grad_layer(GRAD_FEATS) * tf.constant([[1.0, 2.0]]))
rec("emb_grad", tf.convert_to_tensor(tape.gradient(total, grad_layer.trainable_weights[0])))
frozen = tf.keras.layers.DenseFeatures([fc.embedding_column(ident3, 2, trainable=False)])
frozen({"i": tf.constant([[1]])})
OUT["frozen_counts"] = [len(frozen.trainable_weights), len(frozen.non_trainable_weights)]

OUT["default_initializer_config"] = tf.keras.layers.DenseFeatures([fc.embedding_column(
    ident3, 4)]).get_config()["feature_columns"][0]["config"]["initializer"]

err("duplicate", lambda: tf.keras.layers.DenseFeatures([fc.indicator_column(thal), age,
                                                          fc.indicator_column(thal_def)]))

for key, fn in {
    "num_default_shape": lambda: fc.numeric_column("a", shape=(2,), default_value=[1, 2, 3]),
    "num_default_str": lambda: fc.numeric_column("a", default_value="x"),
    "vocab_dtype_mismatch": lambda: fc.categorical_column_with_vocabulary_list(
        "a", ["x"], dtype=tf.int64),
    "vocab_float": lambda: fc.categorical_column_with_vocabulary_list("a", [1.5, 2.5]),
    "vocab_float_dtype": lambda: fc.categorical_column_with_vocabulary_list(
        "a", ["x"], dtype=tf.float32),
    "cross_hash": lambda: fc.crossed_column([fc.categorical_column_with_hash_bucket("a", 3),
                                             "b"], 3),
}.items():
    err(key, fn)


# Checkpoint keys of a model with an embedding table.
ckpt_model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(
    [age, fc.embedding_column(thal, 2)]), tf.keras.layers.Dense(1)])
ckpt_model({"age": tf.constant([[1.0]]), "thal": tf.constant([["fixed"]])})
with tempfile.TemporaryDirectory() as tmp:
    saved = tf.train.Checkpoint(model=ckpt_model).save(os.path.join(tmp, "ckpt"))
    OUT["checkpoint_keys"] = [[k, s] for k, s in tf.train.list_variables(saved)]

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "feature_column_tf.json"), "w") as f:
    json.dump(OUT, f, indent=0, sort_keys=True)
