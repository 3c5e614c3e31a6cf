"""The examples of TF's ragged-tensor guide, each a function of the module `tf` that prints.

`record_tf.py` runs them under TensorFlow and writes what they print to guide_tf.json;
`test_guide.py` runs them under eagerflow and compares.
"""


def overview(tf):
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    words = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
    print(tf.add(digits, 3))
    print(tf.reduce_mean(digits, axis=1))
    print(tf.concat([digits, [[5, 3]]], axis=0))
    print(tf.tile(digits, [1, 2]))
    print(tf.strings.substr(words, 0, 2))
    print(tf.map_fn(tf.math.square, digits))
    print(digits[0])
    print(digits[:, :2])
    print(digits[:, -2:])
    print(digits + 3)
    print(digits + tf.ragged.constant([[1, 2, 3, 4], [], [5, 6, 7], [8], []]))
    times_two_plus_one = lambda x: x * 2 + 1
    print(tf.ragged.map_flat_values(times_two_plus_one, digits))
    print(digits.to_list())
    print(digits.numpy())


def constructing(tf):
    sentences = tf.ragged.constant([
        ["Let's", "build", "some", "ragged", "tensors", "!"],
        ["We", "can", "use", "tf.ragged.constant", "."]])
    print(sentences)
    paragraphs = tf.ragged.constant([
        [['I', 'have', 'a', 'cat'], ['His', 'name', 'is', 'Mat']],
        [['Do', 'you', 'want', 'to', 'come', 'visit'], ["I'm", 'free', 'tomorrow']],
    ])
    print(paragraphs)
    print(tf.RaggedTensor.from_value_rowids(
        values=[3, 1, 4, 1, 5, 9, 2],
        value_rowids=[0, 0, 0, 0, 2, 2, 3]))
    print(tf.RaggedTensor.from_row_lengths(
        values=[3, 1, 4, 1, 5, 9, 2],
        row_lengths=[4, 0, 2, 1]))
    print(tf.RaggedTensor.from_row_splits(
        values=[3, 1, 4, 1, 5, 9, 2],
        row_splits=[0, 4, 4, 6, 7]))
    print(tf.ragged.constant([["Hi"], ["How", "are", "you"]]))
    print(tf.ragged.constant([[[1, 2], [3]], [[4, 5]]]))
    try:
        tf.ragged.constant([["one", "two"], [3, 4]])
    except ValueError as exception:
        print("ValueError")
    try:
        tf.ragged.constant(["A", ["B", "C"]])
    except ValueError as exception:
        print("ValueError")


def uniform_dims(tf):
    rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [3]]])
    print("Shape: {}".format(rt.shape))
    print("Number of partitioned dimensions: {}".format(rt.ragged_rank))
    rt = tf.RaggedTensor.from_row_splits(
        values=[[1, 3], [0, 0], [1, 3], [5, 3], [3, 3], [1, 2]],
        row_splits=[0, 3, 4, 6])
    print(rt)
    print("Shape: {}".format(rt.shape))
    print("Number of partitioned dimensions: {}".format(rt.ragged_rank))
    print("Flat values shape: {}".format(rt.flat_values.shape))
    print("Flat values:\n{}".format(rt.flat_values))


def multiple_dims(tf):
    rt = tf.RaggedTensor.from_row_splits(
        values=tf.RaggedTensor.from_row_splits(
            values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
            row_splits=[0, 3, 3, 5, 9, 10]),
        row_splits=[0, 1, 1, 5])
    print(rt)
    print("Shape: {}".format(rt.shape))
    print("Number of partitioned dimensions: {}".format(rt.ragged_rank))
    rt = tf.RaggedTensor.from_nested_row_lengths(
        flat_values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        nested_row_lengths=([1, 0, 3], [3, 0, 2, 4, 1]))
    print(rt)


def ragged_vs_sparse(tf):
    ragged_x = tf.ragged.constant([["John"], ["a", "big", "dog"], ["my", "cat"]])
    ragged_y = tf.ragged.constant([["fell", "asleep"], ["barked"], ["is", "fuzzy"]])
    print(tf.concat([ragged_x, ragged_y], axis=1))
    sparse_x = ragged_x.to_sparse()
    print(sparse_x.indices)
    print(ragged_x.to_tensor(default_value=""))


def overloaded_operators(tf):
    x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    y = tf.ragged.constant([[1, 1], [2], [3, 3, 3]])
    print(x + y)
    x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    print(x + 3)
    print(x * 2, -x, x > 2, abs(-x), x // 2, x ** 2)


def indexing(tf):
    queries = tf.ragged.constant([['Who', 'is', 'Dan', 'Smith'],
                                  ['Pause'],
                                  ['Will', 'it', 'rain', 'later', 'today']])
    print(queries[1])
    print(queries[1, 0])
    print(queries[1:])
    print(queries[:, :3])
    print(queries[:, -2:])
    rt = tf.ragged.constant([[[1, 2, 3], [4]],
                             [[5], [], [6]],
                             [[7]],
                             [[8, 9], [3]]])
    print(rt[1])
    print(rt[3, 0])
    print(rt[:, 1:3])
    print(rt[:, -1:])


def conversion(tf):
    ragged_sentences = tf.ragged.constant([
        ['Hi'], ['Welcome', 'to', 'the', 'fair'], ['Have', 'fun']])
    print(ragged_sentences.to_tensor(default_value='', shape=[None, 10]))
    x = [[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]]
    print(tf.RaggedTensor.from_tensor(x, padding=-1))
    print(ragged_sentences.to_sparse())
    st = tf.SparseTensor(indices=[[0, 0], [2, 0], [2, 1]],
                         values=['a', 'b', 'c'],
                         dense_shape=[3, 3])
    print(tf.RaggedTensor.from_sparse(st))


def evaluating(tf):
    rt = tf.ragged.constant([[1, 2], [3, 4, 5], [6], [], [7]])
    print("Python list:", rt.to_list())
    print("NumPy array:", rt.numpy())
    print("Values:", rt.values.numpy())
    print("Splits:", rt.row_splits.numpy())
    print("Indexed value:", rt[1].numpy())


def broadcasting(tf):
    x = tf.ragged.constant([[1, 2], [3]])
    y = 3
    print(x + y)
    x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])
    y = [[1000], [2000], [3000]]
    print(x + y)
    x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)
    y = tf.constant([[10]])
    print(x + y)


def ragged_functions(tf):
    print(tf.ragged.range([3, 0, 2], [7, 0, 9], 2))
    print(tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, True, False]]))
    print(tf.ragged.stack([tf.ragged.constant([[1], [2, 3]]), tf.ragged.constant([[4, 5]])]))
    rt = tf.ragged.constant([[1.0, 2.0], [3.0]])
    print(tf.reduce_sum(rt, axis=0), tf.reduce_max(rt, axis=1), tf.reduce_min(rt))
    print(tf.reduce_any(rt > 1.5, axis=1), tf.reduce_all(rt > 1.5, axis=1))
    print(tf.gather(rt, [1, 1, 0]))
    print(tf.where(rt > 1.5, rt, -rt))
    print(tf.shape(rt))
    print(rt.bounding_shape(), rt.row_lengths(), rt.value_rowids(), rt.nrows())
    print(rt.merge_dims(0, 1))
    print(tf.RaggedTensor.from_row_starts([1, 2, 3], [0, 2]),
          tf.RaggedTensor.from_row_limits([1, 2, 3], [2, 3]))
    print(tf.RaggedTensor.from_tensor([[[1, 2], [0, 0]], [[3, 4], [5, 6]]], lengths=[1, 2]))
    print(tf.strings.split(["hello world", "a b c"]))
    print(tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), [1, 2]))
    print(tf.strings.ngrams(["a", "b"], 3, pad_values="#"))
    print(tf.strings.unicode_split(["h\u00e9llo", ""], "UTF-8"))
    print(tf.strings.unicode_decode(["\u20ac1"], "UTF-8"))
    print(tf.strings.bytes_split(tf.ragged.constant([["ab"], ["c", "de"]])))
    print(tf.RaggedTensorSpec([None, None, 3], tf.float32))
    print(tf.ragged.row_splits_to_segment_ids([0, 2, 2, 3]),
          tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=4))
    print(tf.ragged.constant([[1, 2], [3]])._type_spec)


def functions(tf):
    @tf.function
    def make_palindrome(x, axis):
        return tf.concat([x, tf.reverse(x, [axis])], axis)

    print(make_palindrome(tf.constant([[1, 2], [3, 4], [5, 6]]), axis=1))

    @tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
    def max_and_min(rt):
        return (tf.math.reduce_max(rt, axis=-1), tf.math.reduce_min(rt, axis=-1))

    print(max_and_min(tf.ragged.constant([[1, 2], [3], [4, 5, 6]])))

    @tf.function
    def times_two(rt):
        return rt * 2 + tf.cast(rt.row_lengths()[0], rt.dtype)

    print(times_two(tf.ragged.constant([[1.5, 2.5], [3.0]])))

    @tf.function
    def squares(rt):
        return tf.map_fn(tf.math.square, rt), tf.map_fn(tf.reduce_sum, rt,
                                                        fn_output_signature=tf.float32)

    print(squares(tf.ragged.constant([[1.5, 2.5], [], [3.0]])))


def gradients(tf):
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(x, [2, 1])
        y = tf.reduce_sum(tf.reduce_max(rt * rt, axis=1))
    print(tape.gradient(y, x))
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(x, [2, 1])
        y = tf.reduce_sum(rt.to_tensor(default_value=1.0, shape=[2, 1]) * [[2.0], [3.0]])
    print(tf.convert_to_tensor(tape.gradient(y, x)))
    with tf.GradientTape() as tape:
        rt = tf.RaggedTensor.from_row_lengths(x, [2, 1])
        y = tf.reduce_sum(tf.reduce_mean(tf.exp(rt), axis=1))
    print([round(float(g), 4) for g in tape.gradient(y, x).numpy()])


def datasets(tf):
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    dataset = tf.data.Dataset.from_tensor_slices(digits)
    print(dataset.element_spec)
    for element in dataset:
        print(element)
    batched = tf.data.Dataset.from_tensor_slices(digits).batch(2)
    print(batched.element_spec)
    for element in batched:
        print(element)
    non_ragged = tf.data.Dataset.from_tensor_slices(
        [tf.range(4), tf.range(4) * 2])
    for element in non_ragged.map(lambda x: x[:2]):
        print(element)
    rb = tf.data.Dataset.from_tensor_slices(tf.constant([3, 1, 2])).map(
        lambda n: tf.range(n)).ragged_batch(2)
    print(rb.element_spec)
    for element in rb:
        print(element)
    unbatched = batched.unbatch()
    for element in unbatched:
        print(element)



def example_use_case(tf):
    # (a deterministic table and buckets in place of the random table and string hashes)
    queries = tf.ragged.constant([['Who', 'is', 'Dan', 'Smith'], ['Pause'], ['Will', 'it', 'rain', 'later', 'today']])
    num_buckets = 16
    embedding_table = tf.reshape(tf.range(num_buckets * 4, dtype=tf.float32), [num_buckets, 4])
    word_buckets = tf.strings.length(queries) % num_buckets
    word_embeddings = tf.nn.embedding_lookup(embedding_table, word_buckets)
    marker = tf.fill([queries.nrows(), 1], '#')
    padded = tf.concat([marker, queries, marker], axis=1)
    print(padded)
    bigrams = tf.strings.join([padded[:, :-1], padded[:, 1:]], separator='+')
    print(bigrams)
    bigram_buckets = tf.strings.length(bigrams) % num_buckets
    bigram_embeddings = tf.nn.embedding_lookup(embedding_table, bigram_buckets)
    all_embeddings = tf.concat([word_embeddings, bigram_embeddings], axis=1)
    avg_embedding = tf.reduce_mean(all_embeddings, axis=1)
    print(avg_embedding)

def uniform_non_inner_dims(tf):
    rt = tf.RaggedTensor.from_uniform_row_length(
        values=tf.RaggedTensor.from_row_splits(
            values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
            row_splits=[0, 3, 5, 9, 10]),
        uniform_row_length=2)
    print(rt)
    print("Shape: {}".format(rt.shape))
    print("Number of partitioned dimensions: {}".format(rt.ragged_rank))
    print(rt.uniform_row_length)
    print(tf.RaggedTensor.from_tensor([[[1, 2], [3, 0]], [[4, 0], [0, 0]]], padding=0, ragged_rank=2).shape)

def concrete_functions(tf):
    @tf.function
    def increment(x):
        return x + 1
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    cf = increment.get_concrete_function(rt)
    print(cf(rt))
    @tf.function
    def make_palindrome(x, axis):
        return tf.concat([x, tf.reverse(x, [axis])], axis)
    print(make_palindrome(tf.ragged.constant([['a', 'b'], ['c'], ['d', 'e', 'f']]), axis=1))
    print(make_palindrome(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), axis=1))

def broadcasting_errors(tf):
    x = tf.ragged.constant([[1, 2], [3, 4, 5, 6], []])
    y = tf.ragged.constant([[1, 2, 3], [4], [5, 6]])
    try:
        x + y
    except tf.errors.InvalidArgumentError as exception:
        print("InvalidArgumentError")
    x = tf.ragged.constant([[1, 2], [3, 4], [5, 6]])
    y = tf.ragged.constant([[1, 2], [3, 4]])
    try:
        x + y
    except tf.errors.InvalidArgumentError as exception:
        print("InvalidArgumentError")

def tf_example(tf):
    pb = tf.train.Example(features=tf.train.Features(feature={
        "colors": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"red", b"blue"])),
        "lengths": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))})).SerializeToString()
    pb2 = tf.train.Example(features=tf.train.Features(feature={
        "colors": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"orange"]))})).SerializeToString()
    feature_specification = {
        'colors': tf.io.RaggedFeature(tf.string),
        'lengths': tf.io.RaggedFeature(tf.int64),
    }
    feature_tensors = tf.io.parse_example([pb, pb2], feature_specification)
    for name, value in feature_tensors.items():
        print("{}={}".format(name, value))

def dynamic_shapes(tf):
    rt = tf.ragged.constant([[1], [2, 3], [], [4]])
    print(tf.shape(rt))
    print(tf.shape(rt)[0])
    x = tf.constant([['a', 'b'], ['c', 'd'], ['e', 'f']])
    print(tf.shape(x))

def saved_models(tf):
    class CustomModule(tf.Module):
        def __init__(self, variable_value):
            super(CustomModule, self).__init__()
            self.v = tf.Variable(variable_value)
        @tf.function
        def grow(self, x):
            return x * self.v
    module = CustomModule(100.0)
    module.grow.get_concrete_function(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32))
    import tempfile  # noqa: PLC0415
    custom_module_path = tempfile.mkdtemp()
    tf.saved_model.save(module, custom_module_path)
    imported_model = tf.saved_model.load(custom_module_path)
    print(imported_model.grow(tf.ragged.constant([[1.0, 4.0, 3.0], [2.0]])))


EXAMPLES = {name: fn for name, fn in list(globals().items())
            if callable(fn) and getattr(fn, "__module__", None) == __name__}
