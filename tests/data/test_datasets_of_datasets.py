"""Datasets whose elements are datasets, made by `from_tensors` and `from_tensor_slices`
(a `DatasetSpec` each), as in TF."""
import eagerflow as tf


def _values(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def test_from_tensors_of_a_dataset():
    d = tf.data.Dataset.from_tensors(tf.data.Dataset.range(3))
    assert repr(d.element_spec) == ("DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, "
                                    "name=None), TensorShape([]))")
    assert int(d.cardinality()) == 1
    assert _values(d.flat_map(lambda x: x)) == [0, 1, 2]
    assert [_values(e) for e in d] == [[0, 1, 2]]
    assert _values(d.repeat(2).interleave(lambda x: x, cycle_length=2)) == [0, 0, 1, 1, 2, 2]


def test_from_tensors_of_a_dataset_beside_a_tensor():
    d = tf.data.Dataset.from_tensors((tf.data.Dataset.range(2), 5))
    assert _values(d.flat_map(lambda a, b: a.map(lambda v: v + tf.cast(b, tf.int64)))) == [5, 6]


def test_from_tensor_slices_of_a_list_of_datasets():
    d = tf.data.Dataset.from_tensor_slices(
        ([tf.data.Dataset.range(2), tf.data.Dataset.range(3)], [10, 20]))
    spec = d.element_spec
    assert type(spec[0]).__name__ == "DatasetSpec"
    assert spec[1] == tf.TensorSpec([], tf.int32)
    assert int(d.cardinality()) == 2
    assert _values(d.flat_map(lambda a, k: a.map(lambda v: v + tf.cast(k, tf.int64)))) == [
        10, 11, 20, 21, 22]
