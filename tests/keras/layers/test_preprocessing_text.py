"""Text and category preprocessing layers against TF 2.21's recorded outcomes
(data/preprocessing_tf.json, from data/make_preprocessing_data.py)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.recorded import assert_same
from tests.keras.layers.preprocessing_cases import cases, jsonable
from tests.keras.layers.tf_outcomes import as_recorded

with open(os.path.join(os.path.dirname(__file__), "data", "preprocessing_tf.json")) as _f:
    RECORDED = json.load(_f)
CASES = cases(tf)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tf(name):
    assert_same(as_recorded(tf, CASES[name], jsonable), RECORDED[name])


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(RECORDED)


def test_text_classifier_learns():
    """The recorded case text_classifier_fit gives TF's losses; here: it learns the task."""
    tf.keras.backend.clear_session()
    loss, accuracy, (good, bad) = CASES["text_classifier_fit"]()
    assert loss[-1] < loss[0] / 4 and accuracy[-1] == 1.0
    assert good[0] > 0.5 > bad[0]


def test_lookup_layers_in_a_function_with_unknown_batch():
    layer = tf.keras.layers.StringLookup(vocabulary=["a", "b"])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def f(x):
        return layer(x)

    assert f(tf.constant(["b", "q", "a"])).numpy().tolist() == [2, 0, 1]
    vectorize = tf.keras.layers.TextVectorization(vocabulary=["x", "y"],
                                                  output_sequence_length=3)
    g = tf.function(lambda x: vectorize(x))
    assert g(tf.constant(["y x z w", "x"])).numpy().tolist() == [[3, 2, 1], [2, 0, 0]]


@pytest.mark.parametrize("mode", ["multi_hot", "count", "one_hot"])
def test_encoding_lookup_made_inside_a_function_knows_its_depth(mode):
    # tf_keras 2.21 freezes the vocabulary size in an init scope: a Python int, so the
    # encoded outputs of layers made while tracing have a static last dimension
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
    def f(x):
        ints = tf.keras.layers.IntegerLookup(vocabulary=[1, 2, 3], output_mode=mode)(x)
        strings = tf.keras.layers.StringLookup(vocabulary=["a", "b"], output_mode=mode)(
            tf.strings.as_string(x))
        return ints, strings

    ints, strings = f.get_concrete_function().structured_outputs
    expected = ((None, 4), (None, 3)) if mode == "one_hot" else ((4,), (3,))
    assert (tuple(ints.shape), tuple(strings.shape)) == expected
    ints, strings = f(tf.constant([1, 3, 3, 9], tf.int64))
    if mode == "count":
        assert ints.numpy().tolist() == [1.0, 1.0, 0.0, 2.0]
        assert strings.numpy().tolist() == [4.0, 0.0, 0.0]


def _random_texts(rng, count):
    words = np.array([f"w{i}" for i in range(3000)] + ["x" * n for n in range(1, 40)] +
                     ["a\x00", "a", "\x00a", "é", "Ünï", "toolongtobeshort" * 2, "sixteen_letters!"])
    marks = np.array(["", " ", "  ", "\t", ". ", "! ", ", ", "\n", "?"])
    return [" ".join(w + m for w, m in zip(words[rng.integers(0, words.size, n)],
                                          marks[rng.integers(0, marks.size, n)]))
            for n in rng.integers(0, 14, count)]


@pytest.mark.parametrize("kwargs", [{}, {"output_sequence_length": 6}, {"ragged": True},
                                    {"output_mode": "multi_hot"}, {"output_mode": "count"},
                                    {"output_mode": "tf_idf"}, {"standardize": None},
                                    {"standardize": "lower", "max_tokens": 50}])
def test_text_vectorization_eagerly_equals_its_graph(kwargs):
    """Called eagerly, a batch is tokenized and looked up at once (not op by op): the same
    values as the ops give in a function, for a large vocabulary of short and long tokens."""
    rng = np.random.default_rng(0)
    layer = tf.keras.layers.TextVectorization(**kwargs)
    layer.adapt(_random_texts(rng, 3000))
    texts = tf.constant(_random_texts(rng, 500) + ["", " ", "!!", "A\x00 a\x00"])
    eager, graph = layer(texts), tf.function(lambda x: layer(x))(texts)
    if kwargs.get("ragged"):
        assert eager.to_list() == graph.to_list()
    else:
        assert eager.dtype == graph.dtype and eager.shape == graph.shape
        np.testing.assert_array_equal(eager.numpy(), graph.numpy())


@pytest.mark.parametrize("split", ["whitespace", "character"])
def test_text_vectorization_standardizes_once_per_call(split):
    calls = []

    def standardize(x):
        calls.append(x.shape.as_list())
        return tf.strings.upper(x)

    layer = tf.keras.layers.TextVectorization(standardize=standardize, split=split,
                                              vocabulary=["AB", "C", "A"])
    assert layer(["ab c", "x"]).numpy().tolist()[0][:2] == ([2, 3] if split == "whitespace"
                                                            else [4, 1])
    assert calls == [[2]]


def test_num_oov_indices_zero_fails_on_oov():
    layer = tf.keras.layers.StringLookup(vocabulary=["a"], num_oov_indices=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_oov_indices=0"):
        layer(tf.constant(["z"]))


def test_bad_arguments_raise_tf_errors():
    with pytest.raises(ValueError, match="`max_tokens` must be greater than 1"):
        tf.keras.layers.StringLookup(max_tokens=1)
    with pytest.raises(ValueError, match="`output_mode` must be `'int'` when `invert`"):
        tf.keras.layers.StringLookup(invert=True, output_mode="one_hot")
    with pytest.raises(ValueError, match=r"repeated terms are \[np.str_\('a'\)\]"):
        tf.keras.layers.StringLookup(vocabulary=["a", "a"])
    with pytest.raises(ValueError, match=r"repeated terms are \[np.int64\(3\)\]"):
        tf.keras.layers.IntegerLookup(vocabulary=tf.constant([3, 3], tf.int64))
    with pytest.raises(RuntimeError, match="you must set the layer's vocabulary"):
        tf.keras.layers.StringLookup(output_mode="multi_hot")(tf.constant(["a"]))
    with pytest.raises(ValueError, match="output_sequence_length"):
        tf.keras.layers.TextVectorization(output_mode="count", output_sequence_length=3)


def test_vocabulary_file(tmp_path):
    path = os.path.join(tmp_path, "vocab.txt")
    with open(path, "w") as f:
        f.write("earth\nwind\nfire\n")
    layer = tf.keras.layers.StringLookup(vocabulary=path)
    assert layer.get_vocabulary() == ["[UNK]", "earth", "wind", "fire"]
    assert layer(tf.constant(["fire", "water"])).numpy().tolist() == [3, 0]
    inverse = tf.keras.layers.StringLookup(vocabulary=path, invert=True)
    assert inverse(tf.constant([1, 3, 7])).numpy().tolist() == [b"earth", b"fire", b"[UNK]"]


def test_config_round_trip_keeps_a_given_vocabulary():
    layer = tf.keras.layers.TextVectorization(vocabulary=["a", "b"], output_sequence_length=2)
    clone = tf.keras.layers.TextVectorization.from_config(layer.get_config())
    assert clone.get_vocabulary() == layer.get_vocabulary()
    assert clone(["b a a"]).numpy().tolist() == [[3, 2]]


def _adapted_model():
    vectorize = tf.keras.layers.TextVectorization(max_tokens=10, output_sequence_length=4)
    vectorize.adapt(["a b c", "a b", "a"])
    return tf.keras.Sequential([tf.keras.Input(shape=(1,), dtype=tf.string), vectorize,
                                tf.keras.layers.Embedding(10, 2)])


@pytest.mark.parametrize("suffix", [".keras", ""])
def test_saving_keeps_the_adapted_vocabulary(tmp_path, suffix):
    if suffix == ".keras":
        pytest.importorskip("h5py")
    model = _adapted_model()
    path = os.path.join(tmp_path, "model" + suffix)
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert loaded.layers[0].get_vocabulary() == ["", "[UNK]", "a", "b", "c"]
    text = tf.constant([["c a z"]])
    np.testing.assert_array_equal(loaded(text).numpy(), model(text).numpy())


def test_loads_tf_keras_archive_with_its_vocabulary():
    pytest.importorskip("h5py")
    model = tf.keras.models.load_model(os.path.join(os.path.dirname(__file__), "data",
                                                    "text_vectorization_tf.keras"))
    assert model.layers[0].get_vocabulary() == ["", "[UNK]", "a", "b", "c"]
    assert model.layers[0](tf.constant(["c b q"])).numpy().tolist() == [[4, 3, 1, 0]]


def test_layers_of_integer_dtype_take_float_inputs_uncast():
    # (Keras casts floating inputs only to a floating compute dtype)
    bins = tf.keras.layers.Discretization(bin_boundaries=[0.5])
    assert bins(tf.constant([0.7, 0.2])).numpy().tolist() == [1, 0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="StringToHashBucketFast"):
        tf.keras.layers.Hashing(num_bins=4)(tf.constant([1.5]))


def test_discretization_puts_non_finite_values_where_tf_does():
    # TF buckets by upper_bound: NaN compares below no boundary, so it lands in the last bucket.
    bins = tf.keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    x = tf.constant([[-1.5, 0.0, 1.5, 2.0, np.nan, np.inf, -np.inf]])
    assert bins(x).numpy().tolist() == [[0, 1, 2, 3, 3, 3, 0]]
    x64 = tf.constant([np.nan, 0.5], tf.float64)
    assert bins(x64).numpy().tolist() == [3, 1]


def test_h5_cannot_hold_an_adapted_vocabulary(tmp_path):
    pytest.importorskip("h5py")
    with pytest.raises(NotImplementedError, match="not supported in h5"):
        _adapted_model().save(os.path.join(tmp_path, "model.h5"))
    given = tf.keras.Sequential([tf.keras.Input(shape=(1,), dtype=tf.string),
                                 tf.keras.layers.StringLookup(vocabulary=["a", "b"])])
    given.save(os.path.join(tmp_path, "given.h5"))
    loaded = tf.keras.models.load_model(os.path.join(tmp_path, "given.h5"))
    assert loaded(tf.constant([["b"]])).numpy().tolist() == [[2]]


def test_ragged_output_rows():
    layer = tf.keras.layers.TextVectorization(vocabulary=["a", "b"], ragged=True)
    if not hasattr(tf, "RaggedTensor"):
        with pytest.raises(NotImplementedError, match="RaggedTensor"):
            layer(["a b", "b"])
        return
    assert layer(["a b z", "b"]).to_list() == [[2, 3, 1], [3]]


@pytest.mark.parametrize("make, inputs, vocabulary", [
    (tf.keras.layers.StringLookup, ["a", "b"], ["[UNK]"]),
    (tf.keras.layers.IntegerLookup, tf.constant([1, 2], tf.int64), [-1]),
    (tf.keras.layers.TextVectorization, ["a", "b"], ["", "[UNK]"])])
def test_calling_a_lookup_layer_without_a_vocabulary_fails_as_in_tf(make, inputs, vocabulary):
    layer = make()
    assert layer.get_vocabulary() == vocabulary
    assert layer.vocabulary_size() == len(vocabulary)
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized."):
        layer(inputs)
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match=r"Table not initialized.\n\t \[\[\{\{node .*LookupTableFindV2\}\}"):
        tf.function(lambda x: layer(x))(tf.constant(inputs))
    layer.adapt(tf.constant(inputs))  # (then it works)
    assert layer(inputs).dtype == tf.int64


def test_a_vocabulary_of_special_tokens_only_or_no_data_is_refused_as_in_tf():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="keys and values cannot be empty tensors."):
        tf.keras.layers.StringLookup().set_vocabulary(["[UNK]"])
    with pytest.raises(ValueError, match="^Expected input data to be non-empty.$"):
        tf.keras.layers.StringLookup().adapt(tf.constant([], tf.string))


def test_a_keras_file_of_a_never_adapted_lookup_layer_fails_to_load_as_in_tf(tmp_path):
    inputs = tf.keras.Input((None,), dtype=tf.string)
    tf.keras.Model(inputs, tf.keras.layers.StringLookup()(inputs)).save(
        str(tmp_path / "m.keras"))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="keys and values cannot be empty tensors."):
        tf.keras.models.load_model(str(tmp_path / "m.keras"))


def _adapted_lookup_model():
    lookup = tf.keras.layers.StringLookup()
    lookup.adapt(["a", "b", "b", "c"])
    inputs = tf.keras.Input((1,), dtype="string")
    return tf.keras.Model(inputs, tf.keras.layers.Embedding(5, 2)(lookup(inputs)))


def test_h5_weights_files_refuse_an_adapted_vocabulary_as_in_tf(tmp_path):
    pytest.importorskip("h5py")
    message = (r"^Save or restore weights that is not an instance of `tf.Variable` is not "
               r"supported in h5, use `save_format='tf'` instead. Received a model or layer "
               r"StringLookup with weights \[<.*VocabWeightHandler object at")
    with pytest.raises(NotImplementedError, match=message):
        _adapted_lookup_model().save_weights(str(tmp_path / "w.h5"))
    plain = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
    plain.save_weights(str(tmp_path / "plain.h5"))
    with pytest.raises(NotImplementedError, match=message):
        _adapted_lookup_model().load_weights(str(tmp_path / "plain.h5"))


@pytest.mark.parametrize("suffix", [".keras", ".h5", ""])
def test_saved_models_keep_an_adapted_discretization(tmp_path, suffix):
    if suffix:
        pytest.importorskip("h5py")
    bins = tf.keras.layers.Discretization(num_bins=4)
    bins.adapt(np.arange(100, dtype=np.float32))
    inputs = tf.keras.Input((1,))
    model = tf.keras.Model(inputs, bins(inputs))
    path = str(tmp_path / ("model" + suffix))
    model.save(path)
    x = np.array([[5.0], [30.0], [60.0], [99.0]], np.float32)
    assert tf.keras.models.load_model(path)(x).numpy().ravel().tolist() == [0, 1, 2, 3]


def test_string_argument_errors_are_tfs():
    with pytest.raises(ValueError, match=r"^Unkown value for `output_mode` argument of layer "
                       r"TextVectorization\. Allowed values are: `None`, or one of the "
                       r"following values: \('int', 'count', 'multi_hot', 'tf_idf'\)\. "
                       r"Received: one_hot$"):
        tf.keras.layers.TextVectorization(output_mode="one_hot")
    with pytest.raises(ValueError, match=r"^Unkown value for `standardize` argument of layer "
                       r"TextVectorization\. If restoring a model and `standardize` is a custom "
                       r"callable, please ensure .* for details\. Allowed values are: `None`, a "
                       r"`Callable`, or one of the following values: .*\. Received: upper$"):
        tf.keras.layers.TextVectorization(standardize="upper")
    with pytest.raises(ValueError, match=r"^Unkown value for `output_mode` argument of layer "
                       r"StringLookup\. Allowed values are: or one of the following values: "
                       r"\('int', 'one_hot', 'multi_hot', 'count', 'tf_idf'\)\. Received: x$"):
        tf.keras.layers.StringLookup(output_mode="x")


@tf.keras.utils.register_keras_serializable(package="tests")
def _lowered_on_dashes(text):
    return tf.strings.split(tf.strings.lower(text), sep="-")


@pytest.mark.parametrize("suffix", [".keras", ""])
def test_models_save_text_vectorization_with_registered_functions(tmp_path, suffix):
    vectorize = tf.keras.layers.TextVectorization(vocabulary=["a", "b"], standardize=None,
                                                  split=_lowered_on_dashes)
    config = tf.keras.layers.serialize(vectorize)["config"]
    assert config["split"] == {"module": "builtins", "class_name": "function",
                               "config": "tests>_lowered_on_dashes",
                               "registered_name": "function"}
    inputs = tf.keras.Input((), dtype="string")
    model = tf.keras.Model(inputs, vectorize(inputs))
    path = str(tmp_path / ("model" + suffix))
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert loaded(tf.constant(["A-b-c"])).numpy().tolist() == [[2, 3, 1]]
    assert loaded.layers[1].get_config()["split"] is _lowered_on_dashes


def test_functions_in_configs_serialize_as_in_tf_keras():
    def unregistered(text):
        return text
    vectorize = tf.keras.layers.TextVectorization(standardize=unregistered)
    config = tf.keras.layers.serialize(vectorize)
    with pytest.raises(TypeError, match=r"^Could not locate function 'unregistered'\. Make sure "
                       r"custom classes are decorated with "
                       r"`@keras\.saving\.register_keras_serializable\(\)`\. Full object config: "):
        tf.keras.layers.deserialize(config)
    with pytest.warns(UserWarning, match="includes a `lambda`"):
        config = tf.keras.layers.serialize(
            tf.keras.layers.TextVectorization(standardize=lambda text: tf.strings.upper(text)))
    assert config["config"]["standardize"]["class_name"] == "__lambda__"
    with pytest.raises(ValueError, match=r"^Requested the deserialization of a `lambda` object"):
        tf.keras.layers.deserialize(config)
    layer = tf.keras.saving.deserialize_keras_object(config, safe_mode=False)
    layer.set_vocabulary(["A"])
    assert layer(tf.constant(["a"])).numpy().tolist() == [[2]]


@pytest.mark.parametrize("split, rows", [
    ("whitespace", [[b"the", b"cat", b"sat"], [b"a"], []]),
    ("character", [[b"t", b"h", b"e", b" ", b"c", b"a", b"t", b" ", b"s", b"a", b"t"], [b"a"], []]),
])
def test_text_vectorization_without_output_mode_gives_ragged_tokens(split, rows):
    layer = tf.keras.layers.TextVectorization(output_mode=None, split=split)
    tokens = layer(tf.constant(["The cat sat", "a", ""]))
    assert isinstance(tokens, tf.RaggedTensor)  # (not padded with b"")
    assert tokens.to_list() == rows
    assert isinstance(layer(tf.constant([["The cat sat"], ["a"], [""]])), tf.RaggedTensor)
    assert layer(tf.constant("The cat sat")).numpy().tolist() == rows[0]
    symbolic = layer(tf.keras.Input((1,), dtype="string"))
    assert isinstance(symbolic.type_spec, tf.RaggedTensorSpec)


@pytest.mark.parametrize("mode, values", [("multi_hot", [1.0, 1.0]), ("count", [2.0, 1.0]),
                                          ("tf_idf", [1.0, 2.0])])
def test_text_vectorization_encodes_one_string_sparsely(mode, values):
    layer = tf.keras.layers.TextVectorization(
        output_mode=mode, sparse=True, vocabulary=["a", "b"],
        idf_weights=[0.5, 2.0] if mode == "tf_idf" else None)
    for call in (layer, tf.function(layer)):
        encoded = call(tf.constant("a b a"))
        assert isinstance(encoded, tf.SparseTensor)
        assert encoded.indices.numpy().tolist() == [[1], [2]]
        assert encoded.values.numpy().tolist() == values
        assert encoded.dense_shape.numpy().tolist() == [3]


def test_text_vectorization_takes_strings_of_rank_three_as_tf():
    strings = tf.constant([[["a b"]], [["c"]]])
    vocabulary = ["a", "b", "c", "a b"]
    layer = tf.keras.layers.TextVectorization(vocabulary=vocabulary, ngrams=2)
    assert layer(strings).numpy().tolist() == [[[2, 3, 5]], [[4, 0, 0]]]
    padded = tf.keras.layers.TextVectorization(vocabulary=vocabulary, output_sequence_length=3)
    traced = tf.function(padded, input_signature=[tf.TensorSpec([None, 1, 1], tf.string)])
    assert traced(strings).numpy().tolist() == [[[2, 3, 0]], [[4, 0, 0]]]
    ragged = tf.keras.layers.TextVectorization(vocabulary=vocabulary, ragged=True)(strings)
    assert ragged.to_list() == [[[2, 3]], [[4]]] and ragged.shape.as_list() == [2, 1, None]
    with pytest.raises(ValueError, match="maximum supported output rank is 2"):
        tf.keras.layers.TextVectorization(vocabulary=vocabulary, output_mode="multi_hot")(strings)
    adapted = tf.keras.layers.TextVectorization()
    adapted.adapt(tf.data.Dataset.from_tensor_slices([[["b a"]], [["b"]]]).batch(2))
    assert adapted.get_vocabulary() == ["", "[UNK]", "b", "a"]


@pytest.mark.parametrize("vocabulary, kind", [([1, 2], "int"), (np.array([1, 2]), "int"),
                                              ([1.5], "float")])
def test_string_vocabularies_refuse_numbers(vocabulary, kind):
    # (a number became a token of NUL bytes)
    for layer in (tf.keras.layers.StringLookup, tf.keras.layers.TextVectorization):
        with pytest.raises(ValueError, match=rf"^Failed to convert a NumPy array to a Tensor "
                                             rf"\(Unsupported object type {kind}\).$"):
            layer(vocabulary=vocabulary)
