"""Cases of the text and category preprocessing layers, run by TF (make_preprocessing_data.py
records the outcomes into data/preprocessing_tf.json) and by eagerflow (the tests compare)."""
import os

import numpy as np

DOCS = ["The cat sat.", "The dog!", "A cat, a DOG; a bird?", "héllo Wörld  x"]
REVIEWS = (["good movie", "great film, loved it", "bad movie", "terrible film; hated it",
            "loved the acting", "awful plot", "great great great", "bad bad",
            "Not good: not great.", "An AWFUL, awful film!!"] * 3)


def jsonable(value):
    """Tensors, arrays, SparseTensors and vocabularies as JSON values."""
    if hasattr(value, "dense_shape"):
        return {"sparse": [jsonable(value.indices), jsonable(value.values),
                           jsonable(value.dense_shape)]}
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f":
            return {"dtype": str(value.dtype), "shape": list(value.shape),
                    "value": np.round(value.astype(np.float64), 5).tolist()}
        if value.dtype == object:
            value = np.vectorize(lambda b: b.decode() if isinstance(b, bytes) else b,
                                 otypes=[object])(value) if value.size else value
        return {"dtype": str(value.dtype), "shape": list(value.shape), "value": value.tolist()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    return value


def cases(tf):
    """name -> zero-argument function of `tf` (TF or eagerflow) giving a JSON value."""
    layers = tf.keras.layers
    out = {}

    def case(fn):
        out[fn.__name__] = fn
        return fn

    @case
    def string_lookup_adapt():
        layer = layers.StringLookup()
        layer.adapt(tf.constant(["a", "b", "b", "c", "c", "c", "d"]))
        return [layer.get_vocabulary(), layer(tf.constant([["a", "z"], ["c", "b"]])),
                layer.vocabulary_size(), layer.get_config()]

    @case
    def string_lookup_modes():
        res = []
        for mode in ("one_hot", "multi_hot", "count"):
            layer = layers.StringLookup(vocabulary=["a", "b", "c"], output_mode=mode)
            res.append(layer(tf.constant(["a", "c", "z"]) if mode == "one_hot"
                             else tf.constant([["a", "a", "z"], ["b", "c", "c"]])))
        layer = layers.StringLookup(vocabulary=["a", "b"], output_mode="tf_idf",
                                    idf_weights=[0.5, 0.25])
        res.append(layer(tf.constant([["a", "a", "z"], ["b", "q", "b"]])))
        layer = layers.StringLookup(output_mode="multi_hot", max_tokens=5,
                                    pad_to_max_tokens=True)
        layer.adapt(["x", "y", "y"])
        res.append(layer(tf.constant([["y", "w"]])))
        return res

    @case
    def string_lookup_oov_mask_invert():
        layer = layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=3, mask_token="")
        inverse = layers.StringLookup(vocabulary=["a", "b"], invert=True)
        masked_inverse = layers.StringLookup(vocabulary=["a", "b"], invert=True, mask_token="[M]")
        zero = layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=0)
        return [layer.get_vocabulary(), layer(tf.constant(["", "a", "x", "y", "zz", "b"])),
                layer.get_vocabulary(include_special_tokens=False),
                inverse(tf.constant([0, 1, 2, 5])), masked_inverse(tf.constant([0, 1, 2, 3])),
                masked_inverse.get_vocabulary(), zero(tf.constant(["b", "a"]))]

    @case
    def string_lookup_with_special_tokens_in_vocabulary():
        layer = layers.StringLookup(vocabulary=["", "[UNK]", "a", "b"], mask_token="")
        return [layer.get_vocabulary(), layer(tf.constant(["b", "", "q"]))]

    @case
    def string_lookup_tf_idf_adapt():
        layer = layers.StringLookup(output_mode="tf_idf")
        layer.adapt(tf.constant([["a", "b", "b"], ["a", "c", "c"], ["a", "a", "d"]]))
        return [layer.get_vocabulary(), layer(tf.constant([["a", "b", "z"]])),
                layer.idf_weights]

    @case
    def string_lookup_max_tokens():
        layer = layers.StringLookup(max_tokens=3)
        layer.adapt(tf.data.Dataset.from_tensor_slices(["q", "r", "r", "s", "s", "s"]).batch(4))
        return [layer.get_vocabulary(), layer(tf.constant(["s", "r", "q"]))]

    @case
    def integer_lookup():
        layer = layers.IntegerLookup()
        layer.adapt(tf.constant([5, 5, 7, 9, 9, 9]))
        multi = layers.IntegerLookup(vocabulary=[12, 36, 1138, 42], num_oov_indices=2,
                                     mask_token=0)
        inverse = layers.IntegerLookup(vocabulary=[12, 36], invert=True)
        hot = layers.IntegerLookup(vocabulary=[12, 36], output_mode="multi_hot")
        return [layer.get_vocabulary(), layer(tf.constant([5, 6, 9, 0])), layer.get_config(),
                multi.get_vocabulary(), multi(tf.constant([[12, 1138, 0], [13, 14, 36]])),
                inverse(tf.constant([1, 2, 0])), hot(tf.constant([[36, 36, 5]]))]

    @case
    def text_vectorization_int():
        layer = layers.TextVectorization()
        layer.adapt(DOCS)
        return [layer.get_vocabulary(), layer(["the bird sat", "unknown words here and there"]),
                layer("the cat"), layer.get_config(),
                layer(tf.constant([["The Dog"], ["x"]]))]

    @case
    def text_vectorization_ngrams_sequence_length():
        layer = layers.TextVectorization(ngrams=2, output_sequence_length=6, max_tokens=8)
        layer.adapt(tf.data.Dataset.from_tensor_slices(DOCS).batch(2))
        return [layer.get_vocabulary(), layer(tf.constant([["the cat sat"], ["a"]])),
                layer(["a b c d e f g h"])]

    @case
    def adapt_on_unbatched_datasets():
        texts = tf.data.Dataset.from_tensor_slices(["a b b", "c b"])
        plain = layers.TextVectorization()
        plain.adapt(texts)
        idf = layers.TextVectorization(output_mode="tf_idf")
        idf.adapt(texts)
        lookup = layers.StringLookup()
        lookup.adapt(tf.data.Dataset.from_tensor_slices(["x", "y", "y"]))
        norm = layers.Normalization(axis=None)
        norm.adapt(tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0, 6.0]))
        return [plain.get_vocabulary(), idf.get_vocabulary(), idf(["a b"]),
                lookup.get_vocabulary(), norm.mean, norm.variance]

    @case
    def text_vectorization_characters_count():
        layer = layers.TextVectorization(split="character", standardize="lower",
                                         output_mode="count")
        layer.adapt(DOCS)
        return [layer.get_vocabulary(), layer(["cab", "héé"])]

    @case
    def text_vectorization_tf_idf_ngram_tuple():
        layer = layers.TextVectorization(output_mode="tf_idf", ngrams=(1, 3))
        layer.adapt(DOCS)
        return [layer.get_vocabulary(), layer(["the cat sat", "a cat a cat"])]

    @case
    def text_vectorization_multi_hot_padded():
        layer = layers.TextVectorization(output_mode="multi_hot", max_tokens=6,
                                         pad_to_max_tokens=True, vocabulary=["cat", "dog"])
        strip = layers.TextVectorization(standardize="strip_punctuation", vocabulary=["A", "b"])
        return [layer(["cat cat fish", "dog"]), layer.get_vocabulary(),
                strip(["A. b! a"]), strip.get_vocabulary()]

    @case
    def text_vectorization_edge_strings():
        texts = ["", "   ", "...!?", "Ünïcödé — “quotes”, «fr» ¿qué?", "tab\tnew\nline\r\x0bvt\x0cff",
                 "a\x00b a\x01b A\x02B", "Hello, WORLD!! hello", "X" * 20 + " " + "y" * 16 + "Y",
                 "non\u00a0breaking\u3000space", "it's \"quoted\" (p) [b] {c} a-b a_b a/b ~`",
                 "exactly16bytes!! exactly16bytes"]
        layer = layers.TextVectorization()
        layer.adapt(texts)
        given = layers.TextVectorization(
            vocabulary=["ünïcödé", "—", "hello", "x" * 20, "a\x00b", "exactly16bytes"],
            output_sequence_length=4)
        rows = layers.TextVectorization(ragged=True, vocabulary=["hello", "world"])
        hot = layers.TextVectorization(output_mode="multi_hot", vocabulary=["hello", "a", "b"])
        count = layers.TextVectorization(output_mode="count", vocabulary=["hello", "a", "b"],
                                         standardize="lower")
        kept = layers.TextVectorization(standardize=None, vocabulary=["Hello,", "WORLD!!"])
        strip = layers.TextVectorization(standardize="strip_punctuation",
                                         vocabulary=["Hello", "hello", "WORLD"])
        mapped = tf.data.Dataset.from_tensor_slices(texts).batch(4).map(given)
        long_only = layers.TextVectorization(vocabulary=["x" * 20, "y" * 17], ragged=True)
        return [long_only(texts).to_list(),
                layer.get_vocabulary(), layer(texts), layer(tf.constant([[t] for t in texts])),
                layer(texts[3]), given(texts), rows(texts).to_list(), rows("hello world"),
                hot(texts), count(texts), kept(texts), strip(texts),
                tf.function(lambda x: given(x))(tf.constant(texts)),
                [batch for batch in mapped]]

    @case
    def text_classifier_vocabulary_and_ids():
        ds = tf.data.Dataset.from_tensor_slices(REVIEWS).batch(7)
        layer = layers.TextVectorization(max_tokens=15, output_sequence_length=5)
        layer.adapt(ds)
        return [layer.get_vocabulary(), layer(tf.constant(REVIEWS[:10])),
                layer.vocabulary_size()]

    @case
    def text_classifier_fit():
        labels = np.array([1, 1, 0, 0, 1, 0, 1, 0, 0, 0] * 3, np.float32)
        ds = tf.data.Dataset.from_tensor_slices((REVIEWS, labels)).batch(8)
        vectorize = layers.TextVectorization(max_tokens=15, output_sequence_length=5)
        vectorize.adapt(ds.map(lambda x, y: x))
        tf.keras.utils.set_random_seed(0)
        model = tf.keras.Sequential([
            tf.keras.Input(shape=(1,), dtype=tf.string), vectorize,
            layers.Embedding(15, 8), layers.GlobalAveragePooling1D(),
            layers.Dense(1, activation="sigmoid")])
        model.compile(tf.keras.optimizers.Adam(0.05), "binary_crossentropy",
                      metrics=["accuracy"])
        history = model.fit(ds, epochs=15, verbose=0)
        return [history.history["loss"], history.history["accuracy"],
                model.predict(tf.constant([["great movie"], ["awful film"]]), verbose=0)]

    @case
    def hashing():
        h = layers.Hashing(num_bins=3)
        masked = layers.Hashing(num_bins=3, mask_value="")
        ints = layers.Hashing(num_bins=5)
        salted = layers.Hashing(num_bins=5, salt=133)
        hot = layers.Hashing(num_bins=4, output_mode="multi_hot")
        return [h(tf.constant([["A"], ["B"], ["C"], ["D"], ["E"]])),
                masked(tf.constant([["A"], [""], ["C"]])),
                ints(tf.constant([[1], [2], [300], [-4]])),
                salted(tf.constant([["A"], ["B"], ["C"]])),
                hot(tf.constant([["A", "B"], ["C", "C"]])), h.get_config()]

    @case
    def category_encoding():
        one = layers.CategoryEncoding(num_tokens=4, output_mode="one_hot")
        multi = layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
        count = layers.CategoryEncoding(num_tokens=4, output_mode="count")
        return [one(tf.constant([3, 2, 0, 1])), multi(tf.constant([[0, 1], [0, 0], [1, 2]])),
                count(tf.constant([[0, 1], [0, 0], [1, 2]]),
                      count_weights=tf.constant([[0.1, 0.2], [0.1, 0.1], [0.2, 0.3]])),
                multi.get_config()]

    @case
    def discretization():
        fixed = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
        adapted = layers.Discretization(num_bins=4, epsilon=0.01)
        adapted.adapt(np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]]))
        hot = layers.Discretization(bin_boundaries=[0.0, 1.0], output_mode="count")
        return [fixed(tf.constant([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])),
                adapted.bin_boundaries, adapted(tf.constant([[0.2, 2.5]])),
                hot(tf.constant([[-1.0, 0.5, 0.7]])), fixed.get_config()]

    @case
    def discretization_adapt_batches():
        data = np.random.default_rng(0).normal(size=(1000, 1)).astype(np.float32)
        out = []
        for epsilon in (0.01, 0.1):
            layer = layers.Discretization(num_bins=5, epsilon=epsilon)
            layer.adapt(data)  # in TF's default batches of 32
            out.append(layer.bin_boundaries)
        layer = layers.Discretization(num_bins=4)
        layer.adapt(tf.data.Dataset.from_tensor_slices(data).batch(100))
        out.append(layer.bin_boundaries)
        layer.adapt(data, batch_size=250)
        return out + [layer.bin_boundaries]

    @case
    def hashed_crossing():
        layer = layers.HashedCrossing(num_bins=5)
        hot = layers.HashedCrossing(num_bins=5, output_mode="one_hot")
        a = tf.constant(["A", "B", "A", "B", "A"])
        b = tf.constant([101, 101, 101, 102, 102], tf.int64)
        return [layer((a, b)), hot((a, b)), layer.get_config()]

    @case
    def normalization_adapt_dataset():
        layer = layers.Normalization()
        layer.adapt(tf.data.Dataset.from_tensor_slices(
            np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0], [7.0, 2.0]], np.float32)).batch(3))
        return [layer.mean, layer.variance, layer(tf.constant([[4.0, 5.0]]))]

    @case
    def lookup_layer_weights():
        out = []
        for make, data in ((layers.StringLookup, ["a", "b", "b", "c"]),
                           (layers.IntegerLookup, [1, 2, 2, 3, 3, 3]),
                           (lambda: layers.StringLookup(output_mode="tf_idf"),
                            [["a", "b"], ["b", "c"]]),
                           (lambda: layers.TextVectorization(output_mode="multi_hot"),
                            ["x y", "y z z"])):
            layer = make()
            before = [[type(w).__name__ for w in layer.weights], layer.get_weights()]
            layer.adapt(data)
            other = make()
            other.set_weights(layer.get_weights())
            out.append([before, [type(w).__name__ for w in layer.weights], layer.get_weights(),
                        len(layer.non_trainable_weights), len(layer.trainable_variables),
                        other.get_vocabulary(), other.vocabulary_size(),
                        other(tf.constant([data[0]]))])
        given = layers.StringLookup(vocabulary=["a"])
        return out + [[given.weights, given.get_weights()]]

    @case
    def lookup_set_weights_count_mismatch():
        layers.StringLookup(name="lookup").set_weights([])

    @case
    def integer_lookup_set_weights_of_floats():
        layers.IntegerLookup().set_weights([[9.0, 10.0]])

    @case
    def lookup_set_weights_changes_a_called_multi_hot_vocabulary():
        layer = layers.StringLookup(output_mode="multi_hot")
        layer.adapt(["x"])
        layer.set_weights([np.array([b"a", b"b"], object)])

    @case
    def lookup_layer_in_a_model():
        lookup = layers.StringLookup()
        lookup.adapt(["a", "b", "b", "c"])
        inputs = tf.keras.Input((1,), dtype="string")
        model = tf.keras.Model(inputs, layers.Embedding(5, 2)(lookup(inputs)))
        lines = []
        model.summary(print_fn=lines.append)
        idf = layers.StringLookup(output_mode="tf_idf")
        idf.adapt([["a"]])
        return [model.count_params(), [type(w).__name__ for w in model.weights],
                [v.shape for v in model.get_weights()], lines[-5:], idf.count_params()]

    @case
    def lookup_layer_checkpoint_keys():
        import tempfile  # noqa: PLC0415
        folder = tempfile.mkdtemp()
        lookup = layers.StringLookup()
        lookup.adapt(["a", "b", "b", "c"])
        tf.train.Checkpoint(layer=lookup).write(os.path.join(folder, "layer"))
        inputs = tf.keras.Input((1,), dtype="string")
        model = tf.keras.Model(inputs, layers.Embedding(5, 2)(lookup(inputs)))
        model.save_weights(os.path.join(folder, "model"))
        return [[name for name, _ in tf.train.list_variables(os.path.join(folder, name))]
                for name in ("layer", "model")]

    @case
    def discretization_summary_weight():
        layer = layers.Discretization(num_bins=3)
        unbuilt = layer.weights
        layer.adapt(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
        other = layers.Discretization(num_bins=3)
        other.build((None,))
        before = other(tf.constant([1.0, 3.5, 6.0]))
        other.set_weights(layer.get_weights())
        given = layers.Discretization(bin_boundaries=[0.0])
        given.build((None,))
        return [unbuilt, [(w.name, w.shape, w.dtype.name, w.trainable) for w in layer.weights],
                layer.get_weights(), before, other(tf.constant([1.0, 3.5, 6.0])),
                other.bin_boundaries, given.weights]

    def structured_data():
        return {"age": np.array([20.0, 30.0, 40.0, 50.0, 60.0, 35.0], np.float32),
                "sex": np.array([0, 1, 1, 0, 1, 0], np.int64),
                "thal": np.array(["fixed", "normal", "reversible", "normal", "normal", "fixed"]),
                "chol": np.array([200.0, 240.0, 180.0, 300.0, 260.0, 210.0], np.float32),
                "ca": np.array([0, 1, 2, 0, 3, 1], np.int64)}

    @case
    def feature_space_concat():
        space_cls = tf.keras.utils.FeatureSpace
        data = structured_data()
        space = space_cls(
            features={"age": space_cls.float_discretized(num_bins=3),
                      "sex": space_cls.integer_categorical(num_oov_indices=0),
                      "thal": space_cls.string_categorical(),
                      "chol": space_cls.float_normalized(), "ca": "integer_hashed"},
            crosses=[space_cls.cross(feature_names=("sex", "age"), crossing_dim=8)],
            output_mode="concat", hashing_dim=4)
        space.adapt(tf.data.Dataset.from_tensor_slices(data).batch(2))
        inputs = space.get_inputs()
        encoded = space.get_encoded_features()
        mapped = tf.data.Dataset.from_tensor_slices(data).batch(4).map(space)
        return [space({k: v[:3] for k, v in data.items()}),
                space({k: v[0] for k, v in data.items()}),
                sorted((k, v.shape, v.dtype.name) for k, v in inputs.items()),
                [encoded.shape, encoded.dtype.name], [batch for batch in mapped]]

    @case
    def feature_space_dict():
        space_cls = tf.keras.utils.FeatureSpace
        data = structured_data()
        space = space_cls(
            features={"age": "float", "thal": "string_categorical", "chol": "float_rescaled",
                      "ca": space_cls.integer_hashed(3, output_mode="int"),
                      "sex": space_cls.integer_categorical(output_mode="int")},
            crosses=[("thal", "sex")], crossing_dim=5, output_mode="dict")
        space.adapt(tf.data.Dataset.from_tensor_slices(data))
        config = space.get_config()
        return [space({k: v[:3] for k, v in data.items()}),
                space({k: v[1] for k, v in data.items()}),
                sorted(space.get_encoded_features()), config["crosses"],
                sorted(config["features"]), config["output_mode"]]

    @case
    def feature_space_needs_adapt():
        tf.keras.utils.FeatureSpace(features={"a": "string_categorical"})({"a": ["x"]})

    @case
    def feature_space_unknown_kind():
        tf.keras.utils.FeatureSpace(features={"a": "blah"})

    @case
    def feature_space_bad_output_mode():
        tf.keras.utils.FeatureSpace(features={"a": "float"}, output_mode="x")

    @case
    def feature_space_concat_of_an_int_feature():
        space = tf.keras.utils.FeatureSpace(
            features={"s": tf.keras.utils.FeatureSpace.string_categorical(output_mode="int")})
        space.adapt(tf.data.Dataset.from_tensor_slices({"s": ["a", "b"]}))

    @case
    def feature_space_without_adaptable_features():
        space = tf.keras.utils.FeatureSpace(features={"a": "float", "b": "float_rescaled"})
        return space({"a": [1.0, 2.0], "b": [3.0, 4.0]})

    return out
