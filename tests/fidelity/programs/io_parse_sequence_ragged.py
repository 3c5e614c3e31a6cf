# tf.io.parse_sequence_example / parse_single_sequence_example with tf.io.RaggedFeature in
# context and sequence features (partitions included), beside FixedLenSequenceFeature and
# VarLenFeature, eagerly, in tf.function and in tf.data.
import tensorflow as tf
def ints(v): return tf.train.Feature(int64_list=tf.train.Int64List(value=v))
def ex(ctx_ids, toks, lens=None):
    lists = {"tokens": tf.train.FeatureList(feature=[ints(t) for t in toks]),
             "vals": tf.train.FeatureList(feature=[tf.train.Feature(float_list=tf.train.FloatList(value=[len(t) / 2])) for t in toks])}
    if lens is not None:
        lists["lens"] = tf.train.FeatureList(feature=[ints(l) for l in lens])
    ctx = tf.train.Features(feature={"ids": ints(ctx_ids), "n": ints([len(toks)]), "cl": ints([1] * len(ctx_ids))})
    return tf.train.SequenceExample(context=tf.train.Features(feature=ctx.feature),
                                    feature_lists=tf.train.FeatureLists(feature_list=lists)).SerializeToString()
s1 = ex([4, 5], [[1, 2], [], [4, 5, 6]], [[2], [], [1, 2]])
s2 = ex([], [[7]], [[1]])
s3 = ex([9], [])
def show(tag, d):
    for k, v in d.items():
        if isinstance(v, tf.RaggedTensor):
            print(tag, k, "ragged", v.dtype.name, v.shape, v.ragged_rank, v.row_splits.dtype.name, v.to_list())
        elif isinstance(v, tf.SparseTensor):
            print(tag, k, "sparse", v.dtype.name, v.indices.numpy().tolist(), v.dense_shape.numpy().tolist())
        else:
            print(tag, k, "dense", v.dtype.name, v.shape, v.numpy().tolist())
R = tf.io.RaggedFeature
ctxf = {"n": tf.io.FixedLenFeature([], tf.int64), "ids": R(tf.int64),
        "ids2": R(tf.int64, value_key="ids", partitions=[R.RowLengths("cl")])}
seqf = {"tokens": R(tf.int64), "vals": tf.io.FixedLenSequenceFeature([], tf.float32),
        "words": tf.io.VarLenFeature(tf.int64),
        "tok_uniform": R(tf.int64, value_key="tokens", partitions=[R.UniformRowLength(1)]),
        "tok_lens": R(tf.int64, value_key="tokens", partitions=[R.RowLengths("lens")])}
seqf["words"] = tf.io.VarLenFeature(tf.int64)
for s in [s1, s2]:
    c, f = tf.io.parse_single_sequence_example(s, ctxf, {k: v for k, v in seqf.items() if k != "words"})
    show("single_c", c); show("single_f", f)
c, f, l = tf.io.parse_sequence_example([s1, s2], ctxf, {"tokens": seqf["tokens"], "vals": seqf["vals"], "tok_lens": seqf["tok_lens"], "tok_uniform": seqf["tok_uniform"]})
show("batch_c", c); show("batch_f", f); show("batch_l", l)
c, f, l = tf.io.parse_sequence_example([s1, s3, s2], sequence_features={"tokens": R(tf.int64, row_splits_dtype=tf.int64)})
show("missing", f)
@tf.function
def fn(s):
    c, f, l = tf.io.parse_sequence_example(s, {"ids": R(tf.int64)}, {"tokens": R(tf.int64)})
    print("traced", c["ids"].shape, f["tokens"].shape, f["tokens"].ragged_rank)
    return c["ids"], f["tokens"]
a, b = fn(tf.constant([s1, s2]))
print(a.to_list(), b.to_list())
ds = tf.data.Dataset.from_tensor_slices([s1, s2, s3]).map(
    lambda r: tf.io.parse_single_sequence_example(r, {"ids": R(tf.int64)}, {"tokens": R(tf.int64)}))
print(ds.element_spec)
for c, f in ds:
    print(c["ids"].numpy().tolist(), f["tokens"].to_list())
ds = tf.data.Dataset.from_tensor_slices([s1, s2, s3]).batch(2).map(
    lambda r: tf.io.parse_sequence_example(r, {"ids": R(tf.int64)}, {"tokens": R(tf.int64)})[:2])
print(ds.element_spec)
for c, f in ds:
    print(c["ids"].to_list(), f["tokens"].to_list())
try:
    tf.io.parse_single_sequence_example(s1, sequence_features={"tokens": R(tf.float32)})
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][-80:])
try:
    tf.io.parse_single_sequence_example(s1, {"ids": R(tf.int64), "x": R(tf.int64, value_key="ids", row_splits_dtype=tf.int64)})
except Exception as e:
    print(type(e).__name__, e)
