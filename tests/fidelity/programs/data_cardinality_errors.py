# tf.data: cardinality of infinite inputs, errors of arguments refused as a dataset is made,
# a batch fused with the map before it, and string functions given values that are not text.
import numpy as np
import tensorflow as tf


def show(label, f):
    try:
        r = f()
        print(label, r.numpy().tolist() if hasattr(r, "numpy") else r)
    except Exception as e:  # noqa: BLE001
        print(label, type(e).__name__, str(e).replace("\n", " | ")[:260])


inf = tf.data.Dataset.range(3).repeat()
fin = tf.data.Dataset.range(3)
for name, make in [
        ("filter", lambda d: d.filter(lambda x: True)),
        ("unique", lambda d: d.unique()),
        ("ignore_errors", lambda d: d.ignore_errors()),
        ("rebatch", lambda d: d.batch(4).rebatch(2)),
        ("take_after_filter", lambda d: d.filter(lambda x: True).take(3)),
        ("parallel_interleave", lambda d: d.interleave(tf.data.Dataset.from_tensors,
                                                       num_parallel_calls=2)),
        ("enumerate", lambda d: d.enumerate()),
        ("sample", lambda d: tf.data.Dataset.sample_from_datasets([d, fin], seed=1)),
        ("choose", lambda d: tf.data.Dataset.choose_from_datasets([d, fin],
                                                                  tf.data.Dataset.range(2)))]:
    print(name, int(make(inf).cardinality()), int(make(fin).cardinality()))
print("range_to_max", int(tf.data.Dataset.range(5, 2 ** 63 - 1).cardinality()))

ds = tf.data.Dataset.range(10)
c = tf.constant(3, tf.int64)
show("batch0", lambda: ds.batch(0))
show("shard", lambda: ds.shard(3, 3))
show("window", lambda: ds.window(2, shift=0))
show("prefetch", lambda: ds.prefetch(-5))
show("shuffle", lambda: ds.shuffle(-1))
show("padded", lambda: tf.data.Dataset.zip((ds, ds)).padded_batch(0))
show("pmap", lambda: ds.map(lambda x: x + c, num_parallel_calls=0))
show("pinterleave", lambda: ds.interleave(tf.data.Dataset.from_tensors, num_parallel_calls=-7))
show("reads", lambda: tf.data.TFRecordDataset(["/nonexistent"], num_parallel_reads=0))
show("optional", lambda: tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)).get_value())

same_count = tf.data.Dataset.range(2).map(
    lambda x: tf.reshape(tf.range(6), tf.stack([2 + x, 3 - x])))
show("fused", lambda: [b.numpy().tolist() for b in same_count.batch(2)])
show("unfused", lambda: [b.numpy().tolist() for b in same_count.cache().batch(2)])


x = np.arange(4, dtype="float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
try:
    model.fit(tf.data.Dataset.from_tensor_slices((x, x)), epochs=1, verbose=0)
except ValueError as e:
    print("unbatched", "found ndim=0. Full shape received: ()" in str(e))

one = tf.constant(1)
show("split", lambda: tf.strings.split(one))
show("split_list", lambda: tf.strings.split([1, 2]))
show("split_ragged", lambda: tf.strings.split(tf.ragged.constant([[1]])))
show("ngrams", lambda: tf.strings.ngrams(one, 2))
show("ngrams0", lambda: tf.strings.ngrams(["a", "b"], 0))
show("join", lambda: tf.strings.join([one, "a"]))
show("decode", lambda: tf.strings.unicode_decode(one, "UTF-8"))
show("reduce_join_empty", lambda: tf.strings.reduce_join([]))
show("as_string", lambda: tf.strings.as_string([1], precision=2))
show("encode", lambda: tf.strings.unicode_encode(tf.constant([1114112]), "UTF-8",
                                                 errors="strict"))
show("csv", lambda: tf.io.decode_csv("1,a", record_defaults=[[0], [0]]))
chars = tf.strings.unicode_decode(["Hi, \u4e16", ""], "UTF-8")
show("script", lambda: tf.strings.unicode_script(chars).to_list())
show("lookup_repeat", lambda: tf.keras.layers.StringLookup(vocabulary=["a", "a"]))
try:
    tf.keras.layers.Normalization(axis=0).adapt(np.ones((3, 2)))
except ValueError as e:
    print("norm_axis0", "input shape: [None, 2], with unknown axis at index: 0" in str(e))
