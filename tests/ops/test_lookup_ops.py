"""tf.lookup tables and the string hashing ops, against TF 2.21's values."""
import os
import re

import pytest

import eagerflow as tf


def _static():
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)


def test_static_hash_table_lookup_size_export():
    table = _static()
    out = table.lookup(tf.constant([["a", "x"]]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[1, -1]]
    assert int(table.size()) == 2 and table.size().dtype == tf.int64
    keys, values = table.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"a", 1), (b"b", 2)]
    assert table.key_dtype == tf.string and table.value_dtype == tf.int32
    assert int(table.default_value) == -1
    assert table[tf.constant(["b"])].numpy().tolist() == [2]


def test_lookup_of_wrong_key_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="Dtype of argument `keys` must be <dtype: 'string'>, "
                                        "received: <dtype: 'int32'>"):
        _static().lookup(tf.constant([1, 2]))


def test_lookup_of_a_ragged_tensor_keeps_its_rows():
    keys = tf.ragged.constant([["a"], ["b", "x"], []])
    out = _static().lookup(keys)
    assert isinstance(out, tf.RaggedTensor) and out.to_list() == [[1], [2, -1], []]
    vocab = tf.lookup.StaticVocabularyTable(
        tf.lookup.KeyValueTensorInitializer(["x", "y"], tf.constant([0, 1], tf.int64)), 3)
    out = vocab.lookup(tf.ragged.constant([["y", "x"], []]))
    assert isinstance(out, tf.RaggedTensor) and out.to_list() == [[1, 0], []]
    spec = tf.RaggedTensorSpec([None, None], tf.string)
    fn = tf.function(lambda r: _static().lookup(r), input_signature=[spec])
    assert fn(keys).to_list() == [[1], [2, -1], []]


def test_lookup_of_a_sparse_tensor_keeps_its_positions():
    st = tf.SparseTensor([[0, 1], [1, 0]], ["b", "q"], [2, 2])
    out = _static().lookup(st)
    assert isinstance(out, tf.SparseTensor)
    assert tf.sparse.to_dense(out).numpy().tolist() == [[0, 2], [-1, 0]]


def test_duplicate_keys_with_different_values_fail():
    with pytest.raises(tf.errors.FailedPreconditionError):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1)


def test_static_vocabulary_table_hashes_oov_keys_as_tf():
    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, 3)
    assert table.lookup(tf.constant(["a", "b", "c", "d", "e"])).numpy().tolist() == \
        [0, 1, 3, 4, 3]
    assert int(table.size()) == 5
    init = tf.lookup.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64),
                                               tf.constant([0, 1], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, 3)
    assert table.lookup(tf.constant([10, 20, 30, 40, 50], tf.int64)).numpy().tolist() == \
        [0, 1, 4, 3, 3]


def test_text_file_initializer(tmp_path):
    path = os.path.join(tmp_path, "vocab.txt")
    with open(path, "w") as f:
        f.write("emerson 10\nlake 20\npalmer 30\n")
    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, 0, tf.int64, 1, delimiter=" "), -1)
    assert table.lookup(tf.constant(["emerson", "lake", "x"])).numpy().tolist() == [10, 20, -1]
    table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
        tf.lookup.TextFileIndex.LINE_NUMBER), -1)
    assert table.lookup(tf.constant(["emerson 10", "lake", "palmer 30"])).numpy().tolist() == \
        [0, -1, 2]


def test_mutable_hash_table_insert_remove_in_function():
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(["a", "b"], [1, 2])

    @tf.function
    def step(keys):
        table.insert(keys, tf.constant([9], tf.int64))
        return table.lookup(tf.constant(["a", "zz", "q"])), table.size()

    found, size = step(tf.constant(["zz"]))
    assert found.numpy().tolist() == [1, 9, -1] and int(size) == 3
    table.remove(tf.constant(["a"]))
    table.insert(["q"], [5])  # seen by the traced function: the table is captured by reference
    found, size = step(tf.constant(["zz"]))
    assert found.numpy().tolist() == [-1, 9, 5] and int(size) == 3
    assert table.lookup(tf.constant(["q", "r"]),
                        dynamic_default_values=tf.constant([7, 8], tf.int64)).numpy().tolist() \
        == [5, 8]


def test_dense_hash_table_reserved_keys():
    table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1,
                                                  empty_key=0, deleted_key=-1)
    table.insert([5, 7], [50, 70])
    table.erase([7])
    assert table.lookup(tf.constant([5, 7], tf.int64)).numpy().tolist() == [50, -1]
    with pytest.raises(tf.errors.InvalidArgumentError):
        table.insert([0], [1])


def test_mutable_tables_checkpoint_under_tf_keys(tmp_path):
    m = tf.Module()
    m.t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    m.t.insert(["a", "b"], [1, 2])
    path = tf.train.Checkpoint(m=m).write(os.path.join(tmp_path, "ck"))
    names = [name for name, _ in tf.train.list_variables(path)]
    assert names == ["_CHECKPOINTABLE_OBJECT_GRAPH", "m/t/.ATTRIBUTES/table-keys",
                     "m/t/.ATTRIBUTES/table-values"]
    m2 = tf.Module()
    m2.t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    tf.train.Checkpoint(m=m2).read(path)
    assert m2.t.lookup(tf.constant(["b", "a", "c"])).numpy().tolist() == [2, 1, -1]


def test_tf_written_table_checkpoint_restores():
    """data/tf_tables: TF 2.21's checkpoint of a MutableHashTable {a: 1, b: 2} (m.t) and a
    DenseHashTable {5: 50, 7: 70} (m.d), written by make_lookup_data.py."""
    m = tf.Module()
    m.t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    m.d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1,
                                                empty_key=0, deleted_key=-1)
    tf.train.Checkpoint(m=m).read(os.path.join(os.path.dirname(__file__), "data", "tf_tables",
                                               "ck")).assert_consumed()
    assert m.t.lookup(tf.constant(["a", "b", "c"])).numpy().tolist() == [1, 2, -1]
    assert m.d.lookup(tf.constant([5, 7, 8], tf.int64)).numpy().tolist() == [50, 70, -1]


def test_to_hash_bucket_fast_matches_tf_fingerprints():
    words = ["", "a", "Hello", "TensorFlow", "x" * 20, "y" * 40, "z" * 100, "é" * 70]
    assert tf.strings.to_hash_bucket_fast(words, 1000).numpy().tolist() == \
        [263, 939, 151, 254, 348, 6, 73, 999]
    out = tf.strings.to_hash_bucket_fast(tf.constant([["a"], ["b"]]), 7)
    assert out.shape == (2, 1) and out.dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.strings.to_hash_bucket_fast(["a"], 0)


def test_to_hash_bucket_strong_matches_tf():
    assert tf.strings.to_hash_bucket_strong(["", "Hello", "x" * 20], 1000, [1, 2]) \
        .numpy().tolist() == [435, 274, 326]


def test_table_made_inside_a_function_is_lifted_out():
    @tf.function
    def f(x):
        table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a"], [1]), -1)
        return table.lookup(x)

    assert f(tf.constant(["a", "b"])).numpy().tolist() == [1, -1]


def test_a_saved_model_whose_function_captures_a_table_loads_with_its_entries(tmp_path):
    class M(tf.Module):
        def __init__(self):
            self.table = _static()

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def __call__(self, x):
            return self.table.lookup(x)

    path = os.path.join(tmp_path, "m")
    tf.saved_model.save(M(), path)
    loaded = tf.saved_model.load(path)
    assert loaded(tf.constant(["b", "z"])).numpy().tolist() == \
        M()(tf.constant(["b", "z"])).numpy().tolist()
    assert loaded.table.resource_handle.shape == ()


def test_dense_table_exports_tf_bucket_layout():
    """TF 2.21's export of the same insertions: keys at their hash's bucket (identity for
    integers, TF's Hash64 for strings) or along its triangular probe, so TF restores a
    checkpoint of ours and finds every key."""
    table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1,
                                                  empty_key=-2, deleted_key=-3,
                                                  initial_num_buckets=8)
    table.insert([3, 11, 19, 4, 12, 0], [30, 110, 190, 40, 120, 1])
    keys, values = table.export()
    assert keys.shape == (8, 1)
    assert keys.numpy().ravel().tolist() == [0, -2, -2, 3, 11, 4, 19, 12]
    assert values.numpy().ravel().tolist() == [1, 0, 0, 30, 110, 40, 190, 120]
    for buckets, expected in ((4, [b"a", b"", b"b", b"hello world!"]),
                              (8, [b"", b"", b"b", b"", b"a", b"", b"", b"hello world!"])):
        words = tf.lookup.experimental.DenseHashTable(
            tf.string, tf.int64, default_value=-1, empty_key="", deleted_key="$",
            initial_num_buckets=buckets)
        words.insert(["a", "b", "hello world!"], [1, 2, 3])
        assert words.export()[0].numpy().ravel().tolist() == expected


def test_legacy_to_hash_bucket_matches_tf():
    words = ["", "a", "Hello", "TensorFlow", "x" * 20, "é" * 70]
    assert tf.strings.to_hash_bucket(words, 1000).numpy().tolist() == \
        [899, 868, 941, 232, 341, 454]


def test_mutable_tables_reject_ragged_and_sparse_keys_as_tf_does():
    """TF's static tables map over ragged and sparse keys; its mutable ones convert them
    to a tensor and fail (eagerly, and with another error in a graph)."""
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(["a", "b"], [1, 2])
    dense = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, -5, -6)
    ragged = tf.ragged.constant([["a"], ["b", "c"]])
    sparse = tf.sparse.from_dense([["a", ""], ["b", "c"]])
    for call in (lambda: table.lookup(ragged), lambda: table[ragged],
                 lambda: table.insert(ragged, tf.ragged.constant([[1], [2, 3]], tf.int64)),
                 lambda: table.remove(ragged),
                 lambda: dense.lookup(tf.ragged.constant([[1], [2]], tf.int64)),
                 lambda: table.lookup(["a"], dynamic_default_values=tf.ragged.constant(
                     [[5]], tf.int64))):
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == "TypeError: object of type 'RaggedTensor' has no len()\n"
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(SparseTensor"):
        table.lookup(sparse)
    with pytest.raises(ValueError, match=r"unsupported type .*SparseTensor"):
        table.insert(sparse, [1, 2, 3])
    traced = tf.function(lambda keys: table.lookup(keys))
    with pytest.raises(TypeError, match="Expected string, but got tf.RaggedTensor"):
        traced(ragged)
    with pytest.raises(TypeError, match="Expected string, but got SparseTensor.* of type "
                                        "'SparseTensor'"):
        traced(sparse)
    static = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)
    assert static.lookup(ragged).to_list() == [[1], [2, -1]]
    assert tf.function(lambda keys: static.lookup(keys))(ragged).to_list() == [[1], [2, -1]]
    assert static.lookup(sparse).values.numpy().tolist() == [1, 2, -1]


@pytest.mark.parametrize("make", [
    lambda: tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1),
    lambda: tf.lookup.experimental.DenseHashTable(tf.string, tf.int64, -1, empty_key="",
                                                  deleted_key="$")])
def test_mutable_tables_reject_keys_of_another_dtype_as_tf_does(make):
    table = make()
    message = r"^keys: Tensor conversion requested dtype string for Tensor with dtype int32: " \
              r"<tf.Tensor: shape=\(2,\), dtype=int32"
    with pytest.raises(ValueError, match=message):
        table.lookup(tf.constant([1, 2]))
    with pytest.raises(ValueError, match=message):
        table.insert(tf.constant([1, 2]), tf.constant([1, 2], tf.int64))
    with pytest.raises(ValueError, match=r"^Incompatible type conversion requested to type "
                                         r"string for `tf.Variable of type int32"):
        table.lookup(tf.Variable([1, 2]))
    with pytest.raises(TypeError, match="Cannot convert"):
        table.lookup([1, 2])
    with pytest.raises(TypeError, match=r"^(Dtype of argument `keys` must be <dtype: 'string'>,"
                                        r" received:|Signature mismatch. Keys must be dtype "
                                        r"<dtype: 'string'>, got) <dtype: 'int32'>"):
        table.remove(tf.constant([1, 2]))
    assert int(table.size()) == 0


def test_dense_table_remove_of_another_key_dtype_is_a_signature_mismatch():
    table = tf.lookup.experimental.DenseHashTable(tf.string, tf.int64, -1, empty_key="",
                                                  deleted_key="$")
    with pytest.raises(TypeError, match=r"^Signature mismatch. Keys must be dtype "
                                        r"<dtype: 'string'>, got <dtype: 'int32'>.$"):
        table.remove(tf.constant([1, 2]))


def test_a_static_table_of_no_entries_is_refused_as_in_tf():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="keys and values cannot be empty tensors."):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
            tf.constant([], tf.string), tf.constant([], tf.int64)), -1)


def test_a_missing_vocabulary_file_is_tfs_not_found_error(tmp_path):
    missing = str(tmp_path / "vocab.txt")
    init = tf.lookup.TextFileInitializer(missing, tf.string, 0, tf.int64,
                                         tf.lookup.TextFileIndex.LINE_NUMBER)
    with pytest.raises(tf.errors.NotFoundError, match=f"{missing}; No such file or directory "
                       r"\[Op:InitializeTableFromTextFileV2\]"):
        tf.lookup.StaticHashTable(init, -1)


def test_table_handles_are_resources(tmp_path):
    # TF 2.21: every table's handle is a scalar resource tensor (eagerly, in a function,
    # in a GraphDef and after a SavedModel round trip), printed as TF's ResourceHandle,
    # which converts to no NumPy value
    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([1, 2], tf.int64))
    tables = [tf.lookup.StaticHashTable(init, -1),
              tf.lookup.StaticVocabularyTable(init, 1),
              tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1),
              tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1,
                                                    empty_key=0, deleted_key=-1)]
    for table in tables:
        handle = table.resource_handle
        assert handle.dtype == tf.resource and handle.shape == ()
        assert repr(handle).startswith("<tf.Tensor: shape=(), dtype=resource, value="
                                       "<ResourceHandle(name=")
        assert 'type="tensorflow::lookup::LookupInterface", dtype and shapes : "[  ]")>>' \
            in repr(handle)
        assert str(handle).startswith("tf.Tensor(<ResourceHandle(")
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Cannot convert a Tensor of dtype resource to a NumPy array"):
            handle.numpy()
    static = tables[0]
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find(x):
        seen.append(static.resource_handle.dtype)
        return static.lookup(x)

    assert find(tf.constant(["a", "z"])).numpy().tolist() == [1, -1]
    assert seen == [tf.resource]
    nodes = find.get_concrete_function().graph.as_graph_def().node
    held = [n for n in nodes if n.op == "Placeholder" and n.name != "x"]
    assert [n.attr["dtype"].type for n in held] == [tf.resource.as_datatype_enum]

    module = tf.Module()
    module.table, module.find = static, find
    tf.saved_model.save(module, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded.table.resource_handle.dtype == tf.resource
    assert loaded.find(tf.constant(["b", "q"])).numpy().tolist() == [2, -1]
    served = loaded.signatures["serving_default"](x=tf.constant(["a"]))
    assert [v.numpy().tolist() for v in served.values()] == [[1]]


def _whole_lines(path, key_dtype=tf.string, offset=0):
    return tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, key_dtype, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
        tf.lookup.TextFileIndex.LINE_NUMBER, value_index_offset=offset), -1)


@pytest.mark.parametrize("text, position", [("a\n\nb\n", 3), ("\n", 1), ("a\nb\n\n", 5),
                                            ("aa\r\n\r\nb", 6), ("abc\nde\n\nf", 8)])
def test_an_empty_line_of_a_vocabulary_file_is_refused_as_in_tf(tmp_path, text, position):
    path = tmp_path / "vocab.txt"
    path.write_bytes(text.encode())
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=f"Invalid content in {path}: empty line found at position "
                             f"{position}\\."):
        _whole_lines(str(path))


def test_text_file_fields_errors_name_the_line_and_dtype_as_tf(tmp_path):
    ints = tmp_path / "ints.txt"
    ints.write_text("1\n2\nx\n")
    # (the line as counted in the file, whatever the offset added to the values)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Field x in line 2 is not a valid int64\."):
        _whole_lines(str(ints), tf.int64, offset=5)
    for name, text, dtype, message in (
            ("f.txt", "a\t1.5\nb\tq\n", tf.float32, "Field q in line 1 is not a valid float."),
            ("i.txt", "a\t1\nb\t99999999999\n", tf.int32,
             "Field 99999999999 in line 1 is not a valid int32."),
            ("u.txt", "a\t1_0\n", tf.int64, "Field 1_0 in line 0 is not a valid int64.")):
        (tmp_path / name).write_text(text)
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
                str(tmp_path / name), tf.string, 0, dtype, 1), -1)


def test_duplicate_key_message_prints_entries_as_tf(tmp_path):
    path = tmp_path / "dup.txt"
    path.write_text("a\nb\na\n")
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="Key a has 0 and trying to add value 2"):
        _whole_lines(str(path))
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="Key 3 has x and trying to add value y"):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([3, 3], ["x", "y"]), "")
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="Key 3 has 1 and trying to add value 2"):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([3, 3], [1., 2.]), -1.)


def test_mutable_hash_table_of_vectors():
    # A vector default value makes a table of vectors (TF's "of tensors" table).
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, [0.0, -1.0])
    table.insert(["a", "b"], [[1.0, 2.0], [3.0, 4.0]])
    assert table.lookup(["a", "z"]).numpy().tolist() == [[1.0, 2.0], [0.0, -1.0]]
    assert table.lookup([["a"], ["z"]]).shape == (2, 1, 2)
    assert table.lookup("b").numpy().tolist() == [3.0, 4.0]
    assert table.lookup(["a", "z"], dynamic_default_values=[[9.0, 9.0], [8.0, 8.0]]) \
        .numpy().tolist() == [[1.0, 2.0], [8.0, 8.0]]
    keys, values = table.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == \
        [(b"a", [1.0, 2.0]), (b"b", [3.0, 4.0])]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected shape \[1,2\] for value, got \[1,3\]"):
        table.insert(["c"], [[1.0, 2.0, 3.0]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Default value must be a vector, got shape \[2,2\]"):
        tf.lookup.experimental.MutableHashTable(tf.int64, tf.int32, [[0, 0], [0, 0]])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find(keys):
        return table.lookup(keys)

    assert find.get_concrete_function().structured_outputs.shape.as_list() == [None, 2]
    assert find(tf.constant(["b", "q"])).numpy().tolist() == [[3.0, 4.0], [0.0, -1.0]]


@pytest.mark.parametrize("dense", [False, True])
def test_tables_of_vectors_checkpoint_round_trip(tmp_path, dense):
    def make():
        if dense:
            return tf.lookup.experimental.DenseHashTable(
                tf.int64, tf.float32, [0.0, 0.0], empty_key=-1, deleted_key=-2,
                initial_num_buckets=8)
        return tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0])
    table = make()
    table.insert(tf.constant([5, 7], tf.int64), [[1.0, 2.0], [3.0, 4.0]])
    path = tf.train.Checkpoint(t=table).write(str(tmp_path / "ckpt"))
    shapes = dict(tf.train.list_variables(path))
    assert shapes["t/.ATTRIBUTES/table-values"] == ([8, 2] if dense else [2, 2])
    restored = make()
    tf.train.Checkpoint(t=restored).read(path)
    assert restored.lookup(tf.constant([7, 5, 1], tf.int64)).numpy().tolist() == \
        [[3.0, 4.0], [1.0, 2.0], [0.0, 0.0]]


def test_mutable_table_insert_of_another_dtype_errors_as_tf():
    table = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, -1)
    with pytest.raises(TypeError, match=r"^Cannot convert \[1.5\] to EagerTensor"):
        table.insert(tf.constant([1], tf.int64), [1.5])
    with pytest.raises(ValueError, match="^values: Tensor conversion requested dtype int64"):
        table.insert(tf.constant([1], tf.int64), tf.constant([1.5]))


@pytest.mark.parametrize("kwargs, message", [
    ({"initial_num_buckets": 3}, "Number of buckets must be at least 4 and a power of 2, got: 3"),
    ({"initial_num_buckets": 2}, "Number of buckets must be at least 4 and a power of 2, got: 2"),
    ({"deleted_key": 0}, "Empty and deleted keys cannot be equal"),
])
def test_dense_table_refuses_tfs_invalid_buckets_and_keys(kwargs, message):
    args = {"default_value": -1, "empty_key": 0, "deleted_key": -1, **kwargs}
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"__wrapped__MutableDenseHashTableV2_device_.*"
                             + re.escape(message) + r" \[Op:MutableDenseHashTableV2\] name: "
                             r"MutableDenseHashTable$"):
        tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, **args)
    assert tf.lookup.experimental.DenseHashTable(
        tf.int64, tf.int64, -1, 0, -1, initial_num_buckets=8).export()[0].shape == (8, 1)


@pytest.mark.parametrize("keys, values, error, message", [
    (["a", "a"], [1, 2], tf.errors.FailedPreconditionError,
     "HashTable has different value for same key"),
    (["a", "b"], [1], tf.errors.InvalidArgumentError, "Expected shape [2] for value, got [1]"),
    (tf.constant([], tf.string), tf.constant([], tf.int64), tf.errors.InvalidArgumentError,
     "keys and values cannot be empty tensors."),
])
def test_static_table_initializer_errors_name_tfs_import(keys, values, error, message):
    # TF 2.21 fills the table by LookupTableImportV2, which its errors name
    with pytest.raises(error, match=r"\{\{function_node __wrapped__LookupTableImportV2_device_"
                                    r".*" + re.escape(message) + r".*\[Op:LookupTableImportV2\]"):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, values), -1)


def test_a_vocabulary_file_shorter_than_vocab_size_fails_with_tfs_message(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("apple\nbanana\ncherry\n")

    def table(size):
        return tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            str(path), tf.string, -2, tf.int64, -1, vocab_size=size), -1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"__wrapped__InitializeTableFromTextFileV2_device_.*Invalid "
                             r"vocab_size in .*vocab\.txt: expected 5 but got 3 "
                             r"\[Op:InitializeTableFromTextFileV2\]"):
        table(5)
    assert [int(table(3).size()), int(table(2).size())] == [3, 2]
    with pytest.raises(ValueError, match=r"^`vocab_size` should be > 0, received: 0$"):
        table(0)


def test_an_empty_vocabulary_file_fails_as_tfs_reader(tmp_path):
    # TF's reader fails on an empty file (it made an empty table here); a lookup layer
    # reading one fails so too
    path = tmp_path / "empty.txt"
    path.write_text("")
    init = tf.lookup.TextFileInitializer(str(path), tf.string, -2, tf.int64, -1)
    with pytest.raises(tf.errors.OutOfRangeError, match=r"Read less bytes than requested "
                                                        r"\[Op:InitializeTableFromTextFileV2\]"):
        tf.lookup.StaticHashTable(init, -1)
    with pytest.raises(tf.errors.OutOfRangeError, match="Read less bytes than requested"):
        tf.keras.layers.StringLookup(vocabulary=str(path))
