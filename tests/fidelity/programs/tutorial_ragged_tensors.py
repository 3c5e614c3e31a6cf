import tensorflow as tf
import numpy as np

digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
print(digits.to_list())
print(digits.numpy())
sentences = tf.ragged.constant([
    ["Let's", "build", "some", "ragged", "tensors", "!"],
    ["We", "can", "use", "tf.ragged.constant", "."]])
print(sentences)
paragraphs = tf.ragged.constant([
    [['I', 'have', 'a', 'cat'], ['His', 'name', 'is', 'Mat']],
    [['Do', 'you', 'want', 'to', 'come', 'visit'], ["I'm", 'free', 'tomorrow']],
])
print(paragraphs)
print(tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2], value_rowids=[0, 0, 0, 0, 2, 2, 3]))
print(tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1]))
print(tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7]))
print(tf.ragged.constant([["Hi"], ["How", "are", "you"]]))
print(tf.ragged.constant([[[1, 2], [3]], [[4, 5]]]))
try:
    tf.ragged.constant([["one", "two"], [3, 4]])
except ValueError as exception:
    print(type(exception).__name__, str(exception).splitlines()[0])
try:
    tf.ragged.constant(["A", ["B", "C"]])
except ValueError as exception:
    print(type(exception).__name__, str(exception).splitlines()[0])

queries = tf.ragged.constant([['Who', 'is', 'Dan', 'Smith'],
                              ['Pause'],
                              ['Will', 'it', 'rain', 'later', 'today']])
num_buckets = 1024
embedding_size = 4
tf.random.set_seed(3)
embedding_table = tf.Variable(tf.random.truncated_normal([num_buckets, embedding_size], stddev=1.0 / np.sqrt(embedding_size)))
word_buckets = tf.strings.to_hash_bucket_fast(queries, num_buckets)
print(word_buckets)
word_embeddings = tf.nn.embedding_lookup(embedding_table, word_buckets)
print(word_embeddings.shape)
marker = tf.fill([queries.nrows(), 1], '#')
padded = tf.concat([marker, queries, marker], axis=1)
print(padded)
bigrams = tf.strings.join([padded[:, :-1], padded[:, 1:]], separator='+')
print(bigrams)
all_embeddings = tf.concat([word_embeddings, tf.nn.embedding_lookup(embedding_table, tf.strings.to_hash_bucket_fast(bigrams, num_buckets))], axis=1)
avg_embedding = tf.reduce_mean(all_embeddings, axis=1)
print(np.round(avg_embedding.numpy(), 4))
print(tf.ragged.constant([["Hi"], ["How", "are", "you"]]).shape)
print(tf.ragged.constant([["Hi"], ["How", "are", "you"]]).bounding_shape())
rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
print(rt.shape, rt.ragged_rank, rt.dtype, rt.row_lengths(), rt.row_splits, rt.values, rt.nrows())
print(rt.value_rowids(), rt.row_starts(), rt.row_limits())
print(rt.to_tensor(), rt.to_tensor(default_value=-1, shape=[3, 4]))
print(tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], padding=0))
print(tf.RaggedTensor.from_tensor([[1, 2, 0], [3, 0, 0]], lengths=[2, 1]))
print(rt.to_sparse())
print(tf.RaggedTensor.from_sparse(rt.to_sparse()))
print(tf.ragged.range([3, 0, 5]))
print(tf.ragged.stack([rt, rt]))
print(tf.stack([rt, rt], axis=1))
print(tf.gather(rt, [2, 0]))
print(tf.gather_nd(rt, [[2, 1], [0, 0]]))
print(tf.ragged.boolean_mask(rt, tf.ragged.constant([[True, False], [True], [False, True, True]])))
print(tf.reduce_sum(rt), tf.reduce_sum(rt, axis=0), tf.reduce_max(rt, axis=1))
print(tf.math.reduce_prod(rt, axis=1))
print(tf.where(rt > 2, rt, rt * 10))
print(tf.shape(rt))
print(tf.size(rt), tf.rank(rt))
print(rt.merge_dims(0, 1))
print(tf.squeeze(tf.ragged.constant([[[1], [2]], [[3]]]), axis=2))
print(tf.expand_dims(rt, axis=1))
print(rt.with_flat_values(tf.cast(rt.flat_values, tf.float32) / 2))
print(tf.RaggedTensorSpec(shape=[2, None], dtype=tf.int32))
print(tf.type_spec_from_value(rt))
print(tf.strings.split(["hello world", "a b c", ""]))
print(tf.strings.unicode_split(["héllo", "ab"], "UTF-8"))
print(tf.strings.reduce_join(tf.strings.split(["a b", "c d e"]), axis=1, separator="-"))
print(tf.ragged.constant([[1.5, 2.0], []], dtype=tf.float64))
print(tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32).row_splits)

@tf.function
def make_palindrome(x, axis):
    return tf.concat([x, tf.reverse(x, [axis])], axis)
print(make_palindrome(tf.constant([[1, 2], [3, 4], [5, 6]]), axis=1))
print(make_palindrome(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), axis=1))

@tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
def max_and_min(rt):
    return (tf.math.reduce_max(rt, axis=-1), tf.math.reduce_min(rt, axis=-1))
print(max_and_min(tf.ragged.constant([[1, 2], [3], [4, 5, 6]])))

@tf.function
def increment(x):
    return x + 1
rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
cf = increment.get_concrete_function(rt)
print(cf(rt))

ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]))
for x in ds:
    print(x)
print(ds.element_spec)
batched = tf.data.Dataset.from_tensor_slices([[1, 2, 0], [3, 0, 0], [4, 5, 6]]).map(lambda x: tf.boolean_mask(x, x > 0))
for x in batched.ragged_batch(2):
    print(x)
print(batched.ragged_batch(2).element_spec)
ds2 = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], [4, 5, 6]])).batch(2)
for x in ds2:
    print(x)
ds3 = ds2.unbatch()
for x in ds3:
    print(x)
