"""Dataset.save and Dataset.load: elements, nests and specs come back, in shards."""
import collections

import numpy as np
import pytest

import eagerflow as tf

Point = collections.namedtuple("Point", "a b")


def values(ds):
    return [tf.nest.map_structure(lambda t: np.asarray(t).tolist(), e) for e in ds]


@pytest.mark.parametrize("compression", [None, "GZIP", "ZLIB"])
def test_round_trip_keeps_structure_and_spec(tmp_path, compression):
    ds = tf.data.Dataset.range(4).map(
        lambda x: (Point(x, tf.strings.as_string(x)), {"z": tf.fill([x], 1.5)}))
    path = str(tmp_path / "saved")
    ds.save(path, compression=compression)
    loaded = tf.data.Dataset.load(path)
    assert repr(loaded).startswith("<_LoadDataset element_spec=(Point(a=TensorSpec(")
    assert loaded.element_spec[1] == ds.element_spec[1]
    assert int(loaded.cardinality()) == 4
    got = list(loaded)
    assert type(got[0][0]).__name__ == "Point" and got[0][0]._fields == ("a", "b")
    assert values(loaded) == values(ds)


def test_shards_and_reader_func(tmp_path):
    path = str(tmp_path / "sharded")
    tf.data.Dataset.range(10).save(path, shard_func=lambda x: x % 3)
    loaded = tf.data.Dataset.load(path)
    assert int(loaded.cardinality()) == 10
    assert sorted(values(loaded)) == list(range(10))
    ordered = tf.data.Dataset.load(path, reader_func=lambda shards: shards.flat_map(lambda s: s))
    assert values(ordered) == [0, 3, 6, 9, 1, 4, 7, 2, 5, 8]  # TensorFlow's order


def test_shard_func_must_give_one_int64(tmp_path):
    ds = tf.data.Dataset.range(3)
    for fn in (lambda x: tf.cast(x, tf.int32), lambda x: (x, x)):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="`shard_func` must return a scalar int64"):
            ds.save(str(tmp_path / "bad"), shard_func=fn)
    snapshot = ds.snapshot(str(tmp_path / "snap"), shard_func=lambda x: tf.cast(x, tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="`shard_func` must return a scalar int64"):
        values(snapshot)
    # (one value in a tensor of shape [1] will do, as in TF)
    path = str(tmp_path / "one")
    ds.save(path, shard_func=lambda x: tf.reshape(x % 2, [1]))
    assert sorted(values(tf.data.Dataset.load(path))) == [0, 1, 2]


def test_load_missing_directory(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="element_spec file not found"):
        tf.data.Dataset.load(str(tmp_path / "nothing"))


def test_snapshot_writes_once_then_reads(tmp_path):
    calls = []

    def gen():
        calls.append(1)
        yield from ([1, 2], [3, 4])
    path = str(tmp_path / "snap")
    make = lambda: tf.data.Dataset.from_generator(  # noqa: E731
        gen, output_signature=tf.TensorSpec([2], tf.int32)).snapshot(path)
    ds = make()
    it = iter(ds)
    next(it)
    del it  # a partial first iteration finishes nothing
    assert values(ds) == [[1, 2], [3, 4]]
    assert values(ds) == [[1, 2], [3, 4]]
    assert values(make()) == [[1, 2], [3, 4]]
    assert len(calls) == 2


def test_loaded_dict_spec_has_sorted_keys(tmp_path):
    # TF 2.21 loads a dict element back with its keys sorted: {'a': int, 'z': string}.
    path = str(tmp_path / "dict")
    tf.data.Dataset.from_tensor_slices({"z": ["x", "yy"], "a": [[1, 2], [3, 4]]}).save(path)
    loaded = tf.data.Dataset.load(path)
    assert list(loaded.element_spec) == ["a", "z"]
    assert loaded.element_spec["a"] == tf.TensorSpec([2], tf.int32)
    assert values(loaded) == [{"a": [1, 2], "z": b"x"}, {"a": [3, 4], "z": b"yy"}]


def test_experimental_save_and_load(tmp_path):
    path = str(tmp_path / "exp")
    tf.data.experimental.save(tf.data.Dataset.range(3), path)
    loaded = tf.data.experimental.load(path)
    assert repr(loaded) == "<_LoadDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert values(loaded) == [0, 1, 2]


def test_round_trip_of_ragged_elements(tmp_path):
    ds = tf.data.Dataset.range(3).map(
        lambda x: (tf.ragged.constant([[1], [2, 3]]) * tf.cast(x, tf.int32), x))
    path = str(tmp_path / "ragged")
    ds.save(path)
    loaded = tf.data.Dataset.load(path)
    assert loaded.element_spec == ds.element_spec
    got = [(r.to_list(), int(x)) for r, x in loaded]
    assert got == [([[0], [0, 0]], 0), ([[1], [2, 3]], 1), ([[2], [4, 6]], 2)]
