"""Writes the TensorFlow reference data of tests/io (run with a real TensorFlow 2.21):

    python tests/io/data/make_reference.py

TFRecord files (plain, GZIP, ZLIB, serialized Examples) and reference.json: what
TensorFlow read, parsed, serialized and raised, for the tests to compare against.
"""
import json
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDS = [b"", b"hello", bytes(range(256)), b"x" * 5000, "caf\u00e9".encode()]
out = {"records": [r.hex() for r in RECORDS]}


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e).split("}} ")[-1].replace(" [Op:IteratorGetNext] name: ",
                                                                   "")]
    return None


for kind in ["", "GZIP", "ZLIB"]:
    path = os.path.join(HERE, f"records_{kind.lower() or 'none'}.tfrecord")
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(kind)) as w:
        for r in RECORDS:
            w.write(r)

# How TF reads damaged files: truncated at each of some lengths, one bit flipped at
# some offsets (of records_none.tfrecord).
data = open(os.path.join(HERE, "records_none.tfrecord"), "rb").read()
tmp = "/tmp/_io_reference_damaged.tfrecord"
damaged = {}
for cut in [5, 11, 12, 20, 27, 40, 300, len(data) - 1]:
    open(tmp, "wb").write(data[:cut])
    got = []
    damaged[f"cut{cut}"] = [error(lambda: got.extend(tf.compat.v1.io.tf_record_iterator(tmp))),
                            len(got)]
for flip in [0, 8, 12, 13, 16, 17, 29, 40]:
    bad = bytearray(data)
    bad[flip] ^= 4
    open(tmp, "wb").write(bytes(bad))
    got = []
    damaged[f"flip{flip}"] = [error(lambda: got.extend(tf.compat.v1.io.tf_record_iterator(tmp))),
                              len(got)]
out["damaged"] = damaged
# ... and damaged compressed files: a byte flipped, the stream cut short, a bad header.
damaged = {}
for kind in ["GZIP", "ZLIB"]:
    data = open(os.path.join(HERE, f"records_{kind.lower()}.tfrecord"), "rb").read()
    middle = len(data) // 2
    for label, bad in [("flip", data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:]),
                       ("cut", data[:-20]), ("cut40", data[:40]), ("header", b"xx" + data[2:])]:
        open(tmp, "wb").write(bad)
        got = []
        damaged[f"{kind}-{label}"] = [
            error(lambda: got.extend(tf.compat.v1.io.tf_record_iterator(tmp, kind))), len(got)]
os.remove(tmp)
out["damaged_compressed"] = damaged

# Examples written by TF.
examples = [
    tf.train.Example(features=tf.train.Features(feature={
        "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, -2 ** 40])),
        "score": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, float("inf")])),
        "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"ab", b"\x00\xff"]))})),
    tf.train.Example(features=tf.train.Features(feature={
        "id": tf.train.Feature(int64_list=tf.train.Int64List(value=[7, 8])),
        "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"z"]))})),
    tf.train.Example(),
]
with tf.io.TFRecordWriter(os.path.join(HERE, "examples.tfrecord")) as w:
    for ex in examples:
        w.write(ex.SerializeToString(deterministic=True))  # (sorted keys: one file)
out["single_feature_example"] = tf.train.Example(features=tf.train.Features(feature={
    "v": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5, -2.0]))})
).SerializeToString().hex()
seq = tf.train.SequenceExample(
    context=tf.train.Features(feature={"len": tf.train.Feature(
        int64_list=tf.train.Int64List(value=[2]))}),
    feature_lists=tf.train.FeatureLists(feature_list={"tok": tf.train.FeatureList(feature=[
        tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"a"])),
        tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"b", b"c"]))])}))
out["sequence_example"] = seq.SerializeToString().hex()

serialized = [ex.SerializeToString() for ex in examples]
spec = {"id": tf.io.VarLenFeature(tf.int64),
        "score": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True),
        "name": tf.io.FixedLenFeature([1], tf.string, default_value=[b"?"])}
parsed = tf.io.parse_example(serialized[1:], {
    "id": tf.io.VarLenFeature(tf.int64),
    "score": tf.io.FixedLenSequenceFeature([], tf.float32, allow_missing=True,
                                           default_value=-1.0),
    "name": tf.io.VarLenFeature(tf.string)})
out["parse_example"] = {
    "id": [parsed["id"].indices.numpy().tolist(), parsed["id"].values.numpy().tolist(),
           parsed["id"].dense_shape.numpy().tolist()],
    "score": parsed["score"].numpy().tolist(),
    "name": [parsed["name"].indices.numpy().tolist(),
             [v.hex() for v in parsed["name"].values.numpy().tolist()],
             parsed["name"].dense_shape.numpy().tolist()]}

# serialize_tensor: TensorProto bytes.
tensors = {
    "float32": tf.constant([[1.5, -2.0], [0.0, 3.25]]),
    "int32_scalar": tf.constant(7),
    "int64": tf.constant([1, -1], tf.int64),
    "uint8": tf.constant([0, 255], tf.uint8),
    "bool": tf.constant([True, False, True]),
    "float64_empty": tf.zeros([0, 3], tf.float64),
    "string": tf.constant([b"ab", b"", b"\xff"]),
    "string_scalar": tf.constant("hello"),
    "float16": tf.constant([1.0, -0.5], tf.float16),
    "complex64": tf.constant([1 + 2j], tf.complex64),
}
out["serialize_tensor"] = {k: tf.io.serialize_tensor(v).numpy().hex() for k, v in tensors.items()}
out["parse_tensor_errors"] = {
    "wrong_dtype": error(lambda: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant(1.0)),
                                                    tf.int32)),
    "garbage": error(lambda: tf.io.parse_tensor(b"\xff\xff", tf.float32)),
}

# decode_raw
out["decode_raw"] = {
    "int16_le": tf.io.decode_raw([b"\x01\x02\x03\x04"], tf.int16).numpy().tolist(),
    "int16_be": tf.io.decode_raw([b"\x01\x02\x03\x04"], tf.int16,
                                 little_endian=False).numpy().tolist(),
    "float32_fixed": tf.io.decode_raw([b"\x00\x00\x80\x3f", b""], tf.float32,
                                      fixed_length=8).numpy().tolist(),
    "uneven": error(lambda: tf.io.decode_raw([b"\x01\x02", b"\x01"], tf.uint8)),
    "odd": error(lambda: tf.io.decode_raw([b"\x01\x02\x03"], tf.int16)),
    "fixed_odd": error(lambda: tf.io.decode_raw([b"\x01"], tf.int16, fixed_length=3)),
}

# decode_csv
def csv(records, defaults, **kw):
    try:
        got = tf.io.decode_csv(records, defaults, **kw)
        return ["ok", [[t.dtype.name, t.numpy().tolist() if t.dtype != tf.string else
                        [v.decode() for v in np.ravel(t.numpy())]] for t in got]]
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e).split("}} ")[-1]]


out["decode_csv"] = {
    "basic": csv(["1,2.5,a", "3,,\"b,c\""], [[0], [0.0], [""]]),
    "defaults": csv(["1,,x"], [[0], [9.0], ["d"]]),
    "int64_double": csv(["5,1e300"], [tf.constant([0], tf.int64), tf.constant([0.0], tf.float64)]),
    "delim": csv(["1|2"], [[0], [0]], field_delim="|"),
    "na": csv(["1,NA"], [[0], [7]], na_value="NA"),
    "select": csv(["1,2,3"], [[0], [0]], select_cols=[0, 2]),
    "required": csv(["1,"], [[0], tf.constant([], tf.int32)]),
    "bad_int": csv(["1,x"], [[0], [0]]),
    "bad_float": csv(["1.5x"], [[0.0]]),
    "too_many": csv(["1,2,3"], [[0], [0]]),
    "too_few": csv(["1"], [[0], [0]]),
    "quote": csv(['"a""b",c'], [[""], [""]]),
    "bad_quote": csv(['a"b,c'], [[""], [""]]),
    "unclosed": csv(['"ab,c'], [[""], [""]]),
    "text_after_quote": csv(['"a"b,c'], [[""], [""]]),
    "no_quote": csv(['"ab",c'], [[""], [""]], use_quote_delim=False),
    "int_overflow": csv(["99999999999"], [[0]]),
    "scalar": csv("4,5", [[0], [0]]),
    "matrix": csv([["1,2"], ["3,4"]], [[0], [0]]),
    "empty_line": csv([""], [[0]]),
    "spaces": csv([" 1, 2.5 "], [[0], [0.0]]),
}

# A function of the parsing and io ops, written as a GraphDef for eagerflow to import and
# run: its inputs and TF's outputs.
graph_spec = {"a": tf.io.FixedLenFeature([2], tf.int64),
              "b": tf.io.FixedLenFeature([], tf.float32, default_value=-1.0),
              "c": tf.io.VarLenFeature(tf.string),
              "d": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)}


@tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.string),
                              tf.TensorSpec([], tf.string)])
def io_graph(examples, lines, sequence):
    p = tf.io.parse_example(examples, graph_spec)
    one = tf.io.parse_single_example(examples[0], graph_spec)
    c1, c2 = tf.io.decode_csv(lines, [[0], [""]])
    raw = tf.io.decode_raw(c2, tf.uint8, fixed_length=4)
    context, lists = tf.io.parse_single_sequence_example(
        sequence, {"n": tf.io.FixedLenFeature([], tf.int64)}, {"w": tf.io.VarLenFeature(tf.int64)})
    t = tf.io.parse_tensor(tf.io.serialize_tensor(tf.cast(c1, tf.float32)), tf.float32)
    return (p["a"], p["b"], tf.sparse.to_dense(p["c"]), p["d"], one["a"], c1, raw, context["n"],
            tf.sparse.to_dense(lists["w"]), t, tf.io.decode_base64(tf.io.encode_base64(c2)))


def graph_example(a, b=None, c=(), d=()):
    feature = {"a": tf.train.Feature(int64_list=tf.train.Int64List(value=a)),
               "c": tf.train.Feature(bytes_list=tf.train.BytesList(value=list(c))),
               "d": tf.train.Feature(int64_list=tf.train.Int64List(value=list(d)))}
    if b is not None:
        feature["b"] = tf.train.Feature(float_list=tf.train.FloatList(value=[b]))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


graph_sequence = tf.train.SequenceExample(
    context=tf.train.Features(feature={"n": tf.train.Feature(
        int64_list=tf.train.Int64List(value=[3]))}),
    feature_lists=tf.train.FeatureLists(feature_list={"w": tf.train.FeatureList(feature=[
        tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2])),
        tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))])})).SerializeToString()
graph_args = [[graph_example([1, 2], 0.5, [b"x", b"y"], [7]), graph_example([3, 4], None, [b"z"],
                                                                            [8, 9])],
              [b"1,ab", b"2,cdefg"], graph_sequence]
concrete = io_graph.get_concrete_function()
graph_out = concrete(*[tf.constant(a) for a in graph_args])
with open(os.path.join(HERE, "tf_io_graph.pb"), "wb") as f:
    f.write(concrete.graph.as_graph_def().SerializeToString())


def plain(value):
    """A tensor as JSON: nested lists, bytes as hex."""
    array = value.numpy()
    if array.dtype == object:
        return {"dtype": "string", "shape": list(array.shape),
                "hex": [v.hex() for v in array.reshape(-1).tolist()]}
    return {"dtype": value.dtype.name, "shape": list(array.shape), "values": array.tolist()}


out["graph"] = {
    "inputs": [t.name for t in concrete.inputs], "outputs": [t.name for t in concrete.outputs],
    "args": [[v.hex() for v in a] if isinstance(a, list) else a.hex() for a in graph_args],
    "results": [plain(v) for v in graph_out]}

with open(os.path.join(HERE, "reference.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
print("wrote", sorted(os.listdir(HERE)))
