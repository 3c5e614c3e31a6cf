"""Structured-data preprocessing layers on the paths a table of mixed columns takes (ragged
categories, NaN in adapted numbers ...): the expected values are TF 2.21's (tf_keras)."""
import numpy as np
import pytest

import eagerflow as tf

layers = tf.keras.layers


def test_discretization_adapt_sorts_nan_as_tf():
    # TF summarizes with its own sort, which leaves a leading NaN first (NumPy's puts it last)
    layer = layers.Discretization(num_bins=3)
    layer.adapt(np.array([np.nan, 1.0, 2.0, 3.0, 4.0, 5.0]))
    np.testing.assert_array_equal(layer.bin_boundaries, [np.nan, 3.0])
    assert layer(tf.constant([0.0, 3.0, np.nan])).numpy().tolist() == [1, 2, 2]


def test_category_encoding_of_ragged_rows():
    rows = tf.ragged.constant([[0, 1, 1], [3]])
    multi_hot = layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")(rows)
    assert multi_hot.dtype == tf.float32
    assert multi_hot.numpy().tolist() == [[1, 1, 0, 0], [0, 0, 0, 1]]
    counts = layers.CategoryEncoding(num_tokens=4, output_mode="count")(
        rows, count_weights=tf.ragged.constant([[0.5, 1.0, 2.0], [3.0]]))
    assert counts.numpy().tolist() == [[0.5, 3.0, 0, 0], [0, 0, 0, 3.0]]
    assert tf.math.bincount(rows, axis=-1, dtype="float32").numpy().tolist() == \
        [[1, 2, 0, 0], [0, 0, 0, 1]]


def test_string_lookup_tf_idf_from_a_file_is_a_value_error(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("a\nb\n")
    with pytest.raises(ValueError, match="output_mode `'tf_idf'` does not support loading a "
                                         "vocabulary from file."):
        layers.StringLookup(vocabulary=str(path), output_mode="tf_idf", idf_weights=[1.0, 2.0])


def test_saved_model_with_vocabulary_files_loads_once_the_files_are_gone(tmp_path, caplog):
    files = {}
    for name, text in (("v", "a\nb\nc\n"), ("w", "the\ncat\n"), ("i", "10\n20\n")):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text(text)
    words = tf.keras.Input(shape=(1,), dtype="string")
    sentences = tf.keras.Input(shape=(), dtype="string")
    ids = tf.keras.Input(shape=(1,), dtype="int64")
    outputs = [layers.StringLookup(vocabulary=str(files["v"]), output_mode="one_hot")(words),
               layers.StringLookup(vocabulary=str(files["v"]), name="plain")(words),
               layers.StringLookup(vocabulary=str(files["v"]), name="plain2")(words),
               layers.TextVectorization(vocabulary=str(files["w"]),
                                        output_sequence_length=3)(sentences),
               layers.IntegerLookup(vocabulary=str(files["i"]))(ids),
               layers.StringLookup(vocabulary=["a", "b"])(words)]
    model = tf.keras.Model([words, sentences, ids], outputs)
    x = [tf.constant([["b"], ["q"]]), tf.constant(["the cat sat", "cat"]),
         tf.constant([[20], [5]], tf.int64)]
    expected = [y.numpy() for y in model(x)]
    model.save(str(tmp_path / "saved"), save_format="tf")
    for path in files.values():
        path.unlink()
    with caplog.at_level("WARNING"):
        loaded = tf.keras.models.load_model(str(tmp_path / "saved"))
    assert "retracing" not in caplog.text
    for got, want in zip(loaded(x), expected):
        np.testing.assert_array_equal(got.numpy(), want)
    lookup = loaded.layers[3]
    assert lookup.get_config()["vocabulary"] is None  # (as tf_keras's loaded layer)
    assert lookup.get_vocabulary() == ["[UNK]", "a", "b", "c"]
    assert lookup.vocabulary_size() == 4
    with pytest.raises(ValueError, match="Cannot adapt StringLookup layer after setting a "
                                         "static vocabulary"):
        lookup.adapt(["z"])


def test_feature_space_default_feature_names_count_from_one():
    space = tf.keras.utils.FeatureSpace
    tf.keras.backend.clear_session()
    assert space.integer_categorical().preprocessor.name == "integer_categorical_1_preprocessor"
    assert space.integer_categorical().preprocessor.name == "integer_categorical_2_preprocessor"
    assert space.float_normalized().preprocessor.name == "float_normalized_1_preprocessor"
    assert space.integer_categorical(name="zz").preprocessor.name == "zz_preprocessor"


def test_normalization_adapts_arrays_in_batches_of_32_as_tf():
    # TF merges the moments batch by batch: the float32 results are those of 32-row batches
    rng = np.random.RandomState(0)
    y = (rng.randn(1000, 3) * [1.0, 100.0, 1e4] + [0.0, 5.0, 1e5]).astype(np.float32)
    for data in (y, tf.constant(y)):
        layer = layers.Normalization()
        layer.adapt(data)
        assert layer.mean.numpy().tolist() == [[-0.00472467765212059, 1.5055848360061646,
                                                99568.0078125]]
        assert layer.variance.numpy().tolist() == [[0.8977954387664795, 9858.69921875,
                                                    93999024.0]]


def test_lookup_layers_adapt_on_a_sparse_tensor():
    data = tf.sparse.from_dense(tf.constant([["a", ""], ["c", "c"], ["b", "c"]]))
    for batch_size in (None, 1, 2):
        layer = layers.StringLookup()
        layer.adapt(data, batch_size=batch_size)
        assert layer.get_vocabulary() == ["[UNK]", "c", "b", "a"]
    layer = layers.IntegerLookup()
    layer.adapt(tf.sparse.from_dense(tf.constant([[1, 0], [2, 2], [3, 1]], tf.int64)))
    assert layer.get_vocabulary() == [-1, 2, 1, 3]


def test_tf_idf_weights_of_another_length_name_the_lengths_as_tf():
    with pytest.raises(ValueError, match=r"len\(idf_weights\) is 2, len\(vocabulary\) is 1"):
        layers.StringLookup(vocabulary=["a", "b"], output_mode="tf_idf", idf_weights=[1.0])


def _dict_model():
    inputs = {"city": tf.keras.Input(shape=(), dtype="string", name="city"),
              "x": tf.keras.Input(shape=(), dtype="float32", name="x")}
    city = layers.StringLookup(vocabulary=["paris", "rome"], output_mode="one_hot")(
        inputs["city"])
    out = layers.Dense(1)(layers.concatenate([city, layers.Reshape((1,))(inputs["x"])]))
    return tf.keras.Model(inputs, out)


def test_save_spec_of_a_model_on_a_dict_of_inputs_is_a_dict():
    model = _dict_model()
    (specs,), kwargs = model.save_spec()
    assert kwargs == {} and isinstance(specs, dict)
    assert specs == {"city": tf.TensorSpec([None], tf.string, "city"),
                     "x": tf.TensorSpec([None], tf.float32, "x")}
    inputs = (tf.keras.Input(shape=(2,), name="zz"), [tf.keras.Input(shape=(1,), name="w")])
    nested = tf.keras.Model(inputs, layers.Dense(1)(inputs[0]))
    assert nested.save_spec()[0][0] == (tf.TensorSpec([None, 2], tf.float32, "zz"),
                                        [tf.TensorSpec([None, 1], tf.float32, "w")])


def test_a_saved_model_on_a_dict_of_raw_features_is_called_with_the_dict(tmp_path):
    model = _dict_model()
    raw = {"city": tf.constant(["paris", "oslo"]), "x": tf.constant([1.0, 2.0])}
    expected = model(raw).numpy()
    tf.saved_model.save(model, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_allclose(loaded(raw).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(loaded(raw, training=False).numpy(), expected, rtol=1e-6)
    served = loaded.signatures["serving_default"](**raw)
    np.testing.assert_allclose(list(served.values())[0].numpy(), expected, rtol=1e-6)
    with pytest.raises(ValueError, match="^Unable to create a TF-Keras model from SavedModel "
                                         "at .*This SavedModel was exported with "
                                         "`tf.saved_model.save`"):
        tf.keras.models.load_model(str(tmp_path))


@pytest.mark.parametrize("mode", ["tf_idf", "multi_hot", "count"])
def test_keras_archive_of_an_adapted_encoding_lookup_reloads(tmp_path, mode):
    words = tf.keras.Input(shape=(1,), dtype="string")
    lookup = layers.StringLookup(output_mode=mode)
    lookup.adapt(tf.ragged.constant([["a", "b"], ["b", "c"]]))
    model = tf.keras.Model(words, lookup(words))
    x = tf.constant([["a"], ["c"]])
    expected = model(x).numpy()
    model.save(str(tmp_path / "m.keras"))
    loaded = tf.keras.models.load_model(str(tmp_path / "m.keras"))
    np.testing.assert_allclose(loaded(x).numpy(), expected)
    assert loaded.layers[1].get_vocabulary() == ["[UNK]", "b", "c", "a"]


def test_adapting_on_ragged_rows_builds_for_their_rank():
    lookup = layers.StringLookup()
    lookup.adapt(tf.ragged.constant([["a", "b"], ["b", "c", "c"]]))
    assert lookup.get_config()["batch_input_shape"] == (None, None)
    assert lookup.get_vocabulary() == ["[UNK]", "c", "b", "a"]
    lookup = layers.StringLookup()
    lookup.adapt(tf.ragged.constant([["a", "b"], ["b", "c", "c"]]), batch_size=1)
    assert lookup.get_vocabulary() == ["[UNK]", "c", "b", "a"]


def test_numbers_given_to_a_string_lookup_fail_in_the_cast_as_tf():
    for call in (lambda: layers.StringLookup(vocabulary=["a"])(np.array([1, 2])),
                 lambda: layers.StringLookup(vocabulary=["a"])([1, 2]),
                 lambda: layers.StringLookup().adapt(np.array([1, 2])),
                 lambda: layers.TextVectorization(vocabulary=["a"])(np.array([1]))):
        with pytest.raises(tf.errors.UnimplementedError, match="to string is not supported"):
            call()


def test_sparse_encodings_concatenate_in_a_functional_model():
    ids = tf.keras.Input(shape=(1,), dtype="int64")
    hashed = layers.Hashing(num_bins=4, output_mode="one_hot", sparse=True)(ids)
    encoded = layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot", sparse=True)(ids)
    joined = layers.concatenate([hashed, encoded])
    assert isinstance(joined, tf.SparseTensor) or "Sparse" in type(joined).__name__
    assert joined.shape.as_list() == [None, 8]
    model = tf.keras.Model(ids, layers.Dense(1)(joined))
    assert model(tf.constant([[1], [2]], tf.int64)).shape == (2, 1)
    mixed = layers.concatenate([tf.sparse.from_dense([[1.0, 0.0]]), tf.constant([[2.0]])])
    assert mixed.numpy().tolist() == [[1.0, 0.0, 2.0]]


def test_traced_sparse_concat_knows_its_static_shape():
    spec = tf.SparseTensorSpec
    for specs, axis, expected in (([spec([None, 4]), spec([None, 3])], 1, [None, 7]),
                                  ([spec([2, 4]), spec([3, 4])], 0, [5, 4]),
                                  ([spec([None, None]), spec([None, 3])], -1, [None, None])):
        f = tf.function(lambda a, b, axis=axis: tf.sparse.concat(axis, [a, b]),
                        input_signature=specs)
        assert f.get_concrete_function().structured_outputs.shape.as_list() == expected


@pytest.mark.parametrize("values, name", [
    (np.array([[0, 2]], np.float16), "half"), (np.array([[0, 2]], np.uint8), "uint8"),
    (np.array([[True, False]]), "bool"), (np.array([["a"]]), "string")])
def test_discretization_refuses_the_dtypes_bucketize_has_no_kernel_for(values, name):
    # tf_keras 2.21 bucketizes the inputs as they come, in TF's Bucketize (int32, int64,
    # float32, float64), rather than casting them to float32
    layer = tf.keras.layers.Discretization(bin_boundaries=[1.0])
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        layer(values)
    assert (f"Value for attr 'T' of {name} is not in the list of allowed values: int32, "
            f"int64, float, double") in str(info.value)
    traced = tf.function(lambda x: layer(x))
    with pytest.raises(TypeError, match="Value passed to parameter 'input' has DataType"):
        traced(tf.constant(values))
    for dtype in (np.int32, np.int64, np.float64):
        assert layer(np.array([[0, 2]], dtype)).numpy().tolist() == [[0, 1]]


def test_hashed_crossing_takes_sparse_with_int_output():
    # TF's HashedCrossing (unlike Hashing and the lookups) takes sparse=True in "int" mode and
    # gives dense bin indices
    layer = layers.HashedCrossing(num_bins=5, sparse=True)
    crossed = layer((tf.constant(["A", "B", "A"]), tf.constant([101, 101, 102])))
    assert isinstance(crossed, tf.Tensor)
    assert crossed.numpy().tolist() == layers.HashedCrossing(num_bins=5)(
        (tf.constant(["A", "B", "A"]), tf.constant([101, 101, 102]))).numpy().tolist()
    assert layer.get_config()["sparse"] is True


def test_discretization_runs_tfs_bucketize():
    # TF's Bucketize refuses unsorted boundaries (the layer gave counts of boundaries below
    # each value), and finds each value's bucket by a binary search, which a NaN boundary
    # steers: 0.5 goes to bucket 2 of [1, nan, 2]
    unsorted = layers.Discretization(bin_boundaries=[2.0, 1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected sorted boundaries"):
        unsorted(tf.constant([1.5]))
    inputs = tf.keras.Input((2,))
    assert unsorted(inputs).shape.as_list() == [None, 2]  # (the error comes when it runs)
    ragged = layers.Discretization(bin_boundaries=[1.0, 2.0])(tf.ragged.constant([[0.5, 2.5],
                                                                                [1.0]]))
    assert isinstance(ragged, tf.RaggedTensor) and ragged.to_list() == [[0, 2], [1]]
    with_nan = layers.Discretization(bin_boundaries=[1.0, float("nan"), 2.0])
    assert with_nan(tf.constant([0.5, 1.5, 2.5])).numpy().tolist() == [2, 2, 3]
    assert tf.raw_ops.Bucketize(input=[[0.5, 1.5], [9.0, -1.0]], boundaries=[0, 1]).numpy() \
        .tolist() == [[1, 2], [2, 0]]
    traced = tf.function(lambda x: tf.raw_ops.Bucketize(input=x, boundaries=[1.0, 0.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected sorted boundaries"):
        traced(tf.constant([1.0]))


def test_sparse_encodings_keep_an_entry_for_each_id_as_tfs_sparse_bincount():
    # TF's sparse output is tf.sparse.bincount's: an entry for each id a row holds, kept
    # where its weights sum to 0 or its idf is 0; its errors (float ids, no rows) are that op's
    encoded = layers.CategoryEncoding(num_tokens=4, output_mode="count", sparse=True)(
        [[0, 1, 1], [2, 3, 3]], count_weights=[[0.0, 1.0, -1.0], [2.0, 0.5, 0.5]])
    assert encoded.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 2], [1, 3]]
    assert encoded.values.numpy().tolist() == [0.0, 0.0, 2.0, 1.0]
    assert encoded.dense_shape.numpy().tolist() == [2, 4]
    lookup = layers.StringLookup(vocabulary=["a", "b"], output_mode="tf_idf",
                                 idf_weights=[0.0, 2.0], sparse=True)
    weighted = lookup([["a", "b", "z"]])
    assert weighted.indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2]]
    assert weighted.values.numpy().tolist() == [1.0, 0.0, 2.0]
    one_hot = layers.CategoryEncoding(num_tokens=3, output_mode="one_hot", sparse=True)
    assert one_hot([0, 2]).dense_shape.numpy().tolist() == [2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of float"):
        layers.CategoryEncoding(num_tokens=4, sparse=True)(tf.constant([[1.0, 2.0]]))
    traced = tf.function(lambda x: one_hot(x), input_signature=[tf.TensorSpec([None], tf.int32)])
    assert traced.get_concrete_function().structured_outputs.shape.as_list() == [None, 3]


@pytest.mark.parametrize("make", [
    lambda: layers.StringLookup(vocabulary=np.array(["a", "b"])),
    lambda: layers.IntegerLookup(vocabulary=np.array([5, 6]), output_mode="tf_idf",
                                 idf_weights=np.array([0.5, 0.25])),
])
@pytest.mark.parametrize("name", ["saved", "m.keras"])
def test_a_lookup_given_its_vocabulary_as_an_array_saves_and_reloads(tmp_path, make, name):
    # (the array once met an `if vocabulary:` and the save raised NumPy's ValueError)
    lookup = make()
    words = tf.keras.Input(shape=(2,), dtype=lookup.vocabulary_dtype)
    model = tf.keras.Model(words, lookup(words))
    x = tf.constant([["a", "c"]]) if lookup.vocabulary_dtype == "string" else \
        tf.constant([[5, 9]], tf.int64)
    expected = model(x).numpy()
    model.save(str(tmp_path / name))
    loaded = tf.keras.models.load_model(str(tmp_path / name))
    np.testing.assert_allclose(loaded(x).numpy(), expected)
