"""None components of dataset elements (TF's ``NoneTensorSpec``): made by `map`,
`from_tensors` and `from_tensor_slices`, they stay None through the transformations, as
TensorFlow gives them (values recorded from TF 2.21)."""
import numpy as np
import pytest

import eagerflow as tf


def _pairs():
    return tf.data.Dataset.range(4).map(lambda x: (x, None))


def test_map_result_with_none_has_a_none_spec_and_yields_none():
    ds = _pairs()
    assert repr(ds.element_spec) == (
        "(TensorSpec(shape=(), dtype=tf.int64, name=None), NoneTensorSpec())")
    assert list(ds.as_numpy_iterator()) == [(0, None), (1, None), (2, None), (3, None)]
    x, y = next(iter(ds))
    assert int(x) == 0 and y is None


def test_batch_unbatch_map_filter_keep_none():
    ds = _pairs()
    batched = ds.batch(2)
    assert repr(batched.element_spec[1]) == "NoneTensorSpec()"
    out = list(batched.as_numpy_iterator())
    assert [a.tolist() for a, _ in out] == [[0, 1], [2, 3]] and all(b is None for _, b in out)
    assert list(batched.unbatch().as_numpy_iterator()) == list(ds.as_numpy_iterator())
    assert list(ds.map(lambda x, y: (x * 2, y)).as_numpy_iterator()) == [
        (0, None), (2, None), (4, None), (6, None)]
    assert list(ds.map(lambda x, y: (x, y is None)).as_numpy_iterator()) == [
        (0, True), (1, True), (2, True), (3, True)]
    assert list(ds.filter(lambda x, y: x > 1).as_numpy_iterator()) == [(2, None), (3, None)]
    assert list(ds.flat_map(lambda x, y: tf.data.Dataset.from_tensors((x, y)))
                .as_numpy_iterator()) == list(ds.as_numpy_iterator())
    assert list(ds.concatenate(ds).skip(3).take(2).as_numpy_iterator()) == [(3, None), (0, None)]
    assert list(ds.scan(np.int64(0), lambda s, e: (s + e[0], (s, e[1])))
                .as_numpy_iterator()) == [(0, None), (0, None), (1, None), (3, None)]


def test_from_tensors_and_slices_with_none():
    ds = tf.data.Dataset.from_tensors((1, None))
    assert repr(ds.element_spec) == (
        "(TensorSpec(shape=(), dtype=tf.int32, name=None), NoneTensorSpec())")
    (x, y), = list(ds)
    assert int(x) == 1 and y is None
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": None})
    assert repr(ds.element_spec["b"]) == "NoneTensorSpec()"
    assert list(ds.as_numpy_iterator()) == [{"a": 1, "b": None}, {"a": 2, "b": None}]
    assert [b for _, b in tf.data.Dataset.from_tensor_slices(([1, 2], None)).batch(2)] == [None]


def test_all_none_elements_are_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Length for attr"):
        tf.data.Dataset.from_tensors(None)
    with pytest.raises(ValueError, match="`element` should not be empty"):
        tf.data.Dataset.from_tensor_slices(None)


def test_none_components_inside_a_function():
    ds = _pairs()

    @tf.function
    def total():
        s = tf.constant(0, tf.int64)
        for x, y in ds:
            s += x
        return s

    @tf.function
    def first():
        return next(iter(ds))

    assert int(total()) == 6
    x, y = first()
    assert int(x) == 0 and y is None


def test_file_cache_and_save_load_keep_none(tmp_path):
    ds = _pairs()
    want = list(ds.as_numpy_iterator())
    cached = ds.cache(str(tmp_path / "cache"))
    assert list(cached.as_numpy_iterator()) == want  # written
    assert list(cached.as_numpy_iterator()) == want  # read back
    ds.save(str(tmp_path / "saved"))
    loaded = tf.data.Dataset.load(str(tmp_path / "saved"))
    assert repr(loaded.element_spec) == (
        "(TensorSpec(shape=(), dtype=tf.int64, name=None), NoneTensorSpec())")
    assert list(loaded.as_numpy_iterator()) == want


def test_unique_checks_each_component_then_their_number():
    with pytest.raises(TypeError, match=r"does not support type NoneTensorSpec\(\) -- only"):
        _pairs().unique()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="UniqueDataset only supports inputs with a single component"):
        tf.data.Dataset.range(3).map(lambda x: (x, x)).unique()
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2, 1]}).unique()
    assert list(ds.as_numpy_iterator()) == [{"a": 1}, {"a": 2}]
