"""Saving again an object loaded from a SavedModel TensorFlow wrote: the re-save records its
functions as TF's loader reads them (checked by hand with TF 2.21, which loads the re-saves)."""
import os
import shutil

import numpy as np

import eagerflow as tf
from tests.internals import fingerprinting

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def _object_graph(path):
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        return fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
            .object_graph_def


def _well_formed(value):
    """Whether every `StructuredValue` in `value` holds a value (TF's decoder refuses one that
    holds none)."""
    kind = value.WhichOneof("kind")
    if kind is None:
        return False
    if kind in ("tuple_value", "list_value"):
        return all(_well_formed(v) for v in getattr(value, kind).values)
    if kind == "dict_value":
        return all(_well_formed(v) for v in value.dict_value.fields.values())
    if kind == "named_tuple_value":
        return all(_well_formed(p.value) for p in value.named_tuple_value.values)
    return True


def _child(graph, name):
    return graph.nodes[next(c.node_id for c in graph.nodes[0].children
                            if c.local_name == name)]


def test_resaved_tf_keras_savedmodel_records_well_formed_functions(tmp_path):
    original = os.path.join(DATA, "tf_keras")
    loaded = tf.saved_model.load(original)
    path = str(tmp_path / "again")
    tf.saved_model.save(loaded, path)
    saved = _object_graph(path)
    for node in saved.nodes:
        if node.WhichOneof("kind") == "function":
            assert _well_formed(node.function.function_spec.fullargspec)
            assert _well_formed(node.function.function_spec.input_signature)
    for concrete in saved.concrete_functions.values():
        assert _well_formed(concrete.canonicalized_input_signature)
        assert _well_formed(concrete.output_signature)
    # a concrete function attribute stays a bare concrete function with TF's signatures
    before = _object_graph(original)
    old, new = (_child(g, "_default_save_signature") for g in (before, saved))
    assert new.WhichOneof("kind") == old.WhichOneof("kind") == "bare_concrete_function"
    old = before.concrete_functions[old.bare_concrete_function.concrete_function_name]
    new = saved.concrete_functions[new.bare_concrete_function.concrete_function_name]
    assert new.canonicalized_input_signature == old.canonicalized_input_signature
    assert new.output_signature == old.output_signature
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    again = tf.saved_model.load(path)
    np.testing.assert_allclose(again._default_save_signature(tf.constant(x))["dense_1"].numpy(),
                               loaded._default_save_signature(tf.constant(x))["dense_1"].numpy(),
                               rtol=1e-6)


def test_resaved_tf_module_keeps_its_functions_as_saved(tmp_path):
    original = os.path.join(DATA, "tf_module")
    loaded = tf.saved_model.load(original)
    path = str(tmp_path / "again")
    tf.saved_model.save(loaded, path)
    before, saved = _object_graph(original), _object_graph(path)
    old, new = (_child(g, "__call__") for g in (before, saved))
    assert new.WhichOneof("kind") == "function"
    assert new.function.function_spec.fullargspec == old.function.function_spec.fullargspec
    assert new.function.function_spec.input_signature == \
        old.function.function_spec.input_signature
    for old_name, new_name in zip(old.function.concrete_functions,
                                  new.function.concrete_functions):
        old_fn, new_fn = before.concrete_functions[old_name], saved.concrete_functions[new_name]
        assert new_fn.canonicalized_input_signature == old_fn.canonicalized_input_signature
        assert new_fn.output_signature == old_fn.output_signature
    x = tf.constant([[1.0, 2.0], [-3.0, 0.5]])
    np.testing.assert_allclose(tf.saved_model.load(path)(x).numpy(), loaded(x).numpy())


def test_resaved_functions_name_only_their_own_nodes_in_control_inputs(tmp_path):
    # tf_ragged's functions hold conditionals whose branches wait on a NoOp
    loaded = tf.saved_model.load(os.path.join(DATA, "tf_ragged"))
    path = str(tmp_path / "again")
    tf.saved_model.save(loaded, path)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        library = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
            .graph_def.library
    assert library.function
    for fdef in library.function:
        names = {n.name for n in fdef.node_def}
        for node in fdef.node_def:
            for ref in node.input:
                if ref.startswith("^"):
                    assert ref[1:] in names, (fdef.signature.name, node.name, ref)


def test_resave_without_signatures_finds_the_default_as_tf_does(tmp_path):
    # TF 2.21: serving_default from the module's __call__ (its one function with an input
    # signature) and from a Keras model's _default_save_signature; none for tf_ragged
    expected = {
        "tf_module": ({"x": tf.TensorSpec([None, 2], tf.float32, name="x")},
                      {"output_0": tf.TensorSpec([None, 2], tf.float32, name="output_0")}),
        "tf_keras_subclassed": (
            {"input_1": tf.TensorSpec([None, 4], tf.float32, name="input_1")},
            {"output_1": tf.TensorSpec([None, 2], tf.float32, name="output_1")}),
        "tf_ragged": None}
    for name, want in expected.items():
        path = str(tmp_path / name)
        tf.saved_model.save(tf.saved_model.load(os.path.join(DATA, name)), path)
        signatures = tf.saved_model.load(path).signatures
        if want is None:
            assert list(signatures) == []
            continue
        assert list(signatures) == ["serving_default"]
        serving = signatures["serving_default"]
        assert serving.structured_input_signature == ((), want[0])
        assert serving.structured_outputs == want[1]


class _Tables(tf.Module):
    """Static tables from keys and values and from a vocabulary file (an asset)."""

    def __init__(self, vocab):
        super().__init__()
        kv = tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b", "c"]),
                                                 tf.constant([1, 2, 3], tf.int64))
        self.hash = tf.lookup.StaticHashTable(kv, -1)
        self.vocab = tf.lookup.StaticVocabularyTable(kv, num_oov_buckets=2)
        self.text = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER), -1)
        self.w = tf.Variable(10, dtype=tf.int64)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def __call__(self, keys):
        return {"hash": self.hash.lookup(keys), "vocab": self.vocab.lookup(keys),
                "text": self.text.lookup(keys) * self.w}


def test_resaved_tables_and_their_vocabulary_file_load_without_the_first_savedmodel(tmp_path):
    # TF 2.21 re-saves these (and loads eagerflow's re-save with the same values)
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("b\nc\nx\n")
    first, again = str(tmp_path / "first"), str(tmp_path / "again")
    tf.saved_model.save(_Tables(str(vocab)), first)
    os.remove(vocab)
    loaded = tf.saved_model.load(first)
    keys = tf.constant(["a", "c", "x", "zz"])
    want = {"hash": [1, 3, -1, -1], "vocab": [1, 3, 3, 3], "text": [-10, 10, 20, -10]}
    got = loaded(keys)  # (called before saving again: the re-save still takes its tables)
    assert {k: v.numpy().tolist() for k, v in got.items()} == want
    tf.saved_model.save(loaded, again)
    shutil.rmtree(first)
    assert os.listdir(os.path.join(again, "assets")) == ["vocab.txt"]
    reloaded = tf.saved_model.load(again)
    assert {k: v.numpy().tolist() for k, v in reloaded(keys).items()} == want
    served = reloaded.signatures["serving_default"](keys=keys)
    assert {k: v.numpy().tolist() for k, v in served.items()} == want


def test_resaved_keras_lookup_layers_keep_their_default_signature(tmp_path):
    # TF 2.21: a Keras model loaded by tf.saved_model.load saves again with serving_default
    # (its _default_save_signature), which TF loads from eagerflow's save too
    inputs = tf.keras.Input(shape=(1,), dtype=tf.string)
    lookup = tf.keras.layers.StringLookup(vocabulary=["a", "b", "c"])
    model = tf.keras.Model(inputs, lookup(inputs))
    first, again = str(tmp_path / "first"), str(tmp_path / "again")
    model.save(first, save_format="tf")
    tf.saved_model.save(tf.saved_model.load(first), again)
    shutil.rmtree(first)
    reloaded = tf.saved_model.load(again)
    served = reloaded.signatures["serving_default"](input_1=tf.constant([["a"], ["z"], ["c"]]))
    assert {k: v.numpy().tolist() for k, v in served.items()} == \
        {"string_lookup": [[1], [0], [3]]}


def test_assets_are_copied_and_a_function_returning_nothing_keeps_its_effects(tmp_path):
    # TF 2.21 loads this SavedModel and gives the same values; a function with no outputs
    # lists its variable assignment among its FunctionDef's control outputs (TF's loader
    # drops the ops no output or control output needs)
    vocab = tmp_path / "words.txt"
    vocab.write_text("apple\nbanana\ncherry")

    class Vocab(tf.Module):
        def __init__(self):
            self.vocab = tf.saved_model.Asset(str(vocab))
            self.table = tf.lookup.StaticVocabularyTable(tf.lookup.TextFileInitializer(
                self.vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                tf.lookup.TextFileIndex.LINE_NUMBER), 1)
            self.v = tf.Variable(1.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def __call__(self, words):
            return {"ids": self.table.lookup(words), "n": tf.size(words)}

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def mutate(self, new_v):
            self.v.assign(new_v)

    path = str(tmp_path / "sm")
    tf.saved_model.save(Vocab(), path)
    os.remove(vocab)
    assert os.listdir(os.path.join(path, "assets")) == ["words.txt"]
    loaded = tf.saved_model.load(path)
    assert type(loaded.vocab).__name__ == "Asset"
    assert loaded.vocab.asset_path.numpy().decode() == os.path.join(path, "assets", "words.txt")
    assert loaded(tf.constant(["banana", "kiwi"]))["ids"].numpy().tolist() == [1, 3]
    loaded.mutate(tf.constant(2.0))
    assert loaded.v.numpy() == 2.0
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        library = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
            .graph_def.library
    mutate = next(f for f in library.function if "mutate" in f.signature.name)
    assert list(mutate.signature.control_output) == ["AssignVariableOp"]
    assert dict(mutate.control_ret) == {"AssignVariableOp": "AssignVariableOp"}


def test_resaved_mutable_table_keeps_the_entries_it_has_now(tmp_path):
    # TF 2.21: the re-save holds the loaded table's entries, those inserted since included
    # (TF loads eagerflow's re-save with the same lookups)
    class Mutable(tf.Module):
        def __init__(self):
            self.t = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
            self.t.insert(tf.constant(["a", "b"]), tf.constant([1, 2], tf.int64))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def f(self, k):
            return self.t.lookup(k)

        @tf.function(input_signature=[tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.int64)])
        def put(self, k, v):
            self.t.insert(k, v)
            return tf.constant(0)

    tf.saved_model.save(Mutable(), str(tmp_path / "m1"))
    loaded = tf.saved_model.load(str(tmp_path / "m1"))
    loaded.put(tf.constant("c"), tf.constant(3, tf.int64))
    tf.saved_model.save(loaded, str(tmp_path / "m2"))
    again = tf.saved_model.load(str(tmp_path / "m2"))
    assert again.f(tf.constant(["a", "c", "z"])).numpy().tolist() == [1, 3, -1]


def test_a_function_reading_an_asset_path_reads_the_copy_once_loaded(tmp_path):
    # TF 2.21 saves the captured path as an argument bound to the asset (loaded, the path of
    # the copy under assets/); it was saved as a constant: the original file's path
    vocab = tmp_path / "words.txt"
    vocab.write_text("a\nb\n")

    class Reader(tf.Module):
        def __init__(self):
            self.asset = tf.saved_model.Asset(str(vocab))

        @tf.function(input_signature=[])
        def path(self):
            return self.asset.asset_path

        @tf.function(input_signature=[])
        def read(self):
            return tf.io.read_file(self.asset.asset_path)

    path = str(tmp_path / "sm")
    tf.saved_model.save(Reader(), path)
    os.remove(vocab)
    copy = os.path.join(path, "assets", "words.txt")
    for loaded in (tf.saved_model.load(path), _resaved(path, tmp_path / "again")):
        assert loaded.path().numpy().decode().endswith(os.path.join("assets", "words.txt"))
        assert loaded.read().numpy() == b"a\nb\n"
    assert tf.saved_model.load(path).path().numpy().decode() == copy


def _resaved(path, again):
    tf.saved_model.save(tf.saved_model.load(path), str(again))
    return tf.saved_model.load(str(again))


def test_a_signature_reading_assets_serves_in_a_v1_session_too(tmp_path):
    # TF 2.21 writes (and so eagerflow now) each asset a signature reads as a string
    # variable the init op assigns from the asset's placeholder, fed by TF 1's loader; TF
    # loads this SavedModel with the same results, and eagerflow TF's
    files = {}
    for name in ("a.txt", "b.txt"):
        files[name] = tmp_path / name
        files[name].write_text(name.upper())

    class Reader(tf.Module):
        def __init__(self):
            self.a = tf.saved_model.Asset(str(files["a.txt"]))
            self.b = tf.saved_model.Asset(str(files["b.txt"]))

        @tf.function(input_signature=[])
        def read(self):
            return {"a": tf.io.read_file(self.a.asset_path),
                    "b": tf.io.read_file(self.b.asset_path)}

    m = Reader()
    path = str(tmp_path / "sm")
    tf.saved_model.save(m, path, signatures={"read": m.read})
    for f in files.values():
        os.remove(f)
    want = {"a": b"A.TXT", "b": b"B.TXT"}
    served = tf.saved_model.load(path).signatures["read"]()
    assert {k: v.numpy() for k, v in served.items()} == want
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.load(sess, ["serve"], path)
        outputs = meta.signature_def["read"].outputs
        assert {k: sess.run(v.name) for k, v in outputs.items()} == want
