"""tf.data.experimental.parse_example_dataset (TF 2.21's observed reprs and errors)."""
import pytest

import eagerflow as tf


def _example():
    return tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2])),
        "b": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5]))})).SerializeToString()


def test_parses_batches_of_serialized_examples():
    ds = tf.data.Dataset.from_tensor_slices([_example()] * 3).batch(2)
    parsed = ds.apply(tf.data.experimental.parse_example_dataset(
        {"a": tf.io.VarLenFeature(tf.int64), "b": tf.io.FixedLenFeature([], tf.float32)}))
    assert repr(parsed) == (
        "<_ParseExampleDataset element_spec={'a': SparseTensorSpec(TensorShape([None, None]), "
        "tf.int64), 'b': TensorSpec(shape=(None,), dtype=tf.float32, name=None)}>")
    got = list(parsed)
    assert tf.sparse.to_dense(got[0]["a"]).numpy().tolist() == [[1, 2], [1, 2]]
    assert got[1]["b"].numpy().tolist() == [0.5]


def test_rejects_other_inputs():
    parse = tf.data.experimental.parse_example_dataset({"b": tf.io.FixedLenFeature([], tf.float32)})
    with pytest.raises(TypeError, match="Input dataset should be a dataset of vectors of strings"):
        tf.data.Dataset.from_tensor_slices([_example()]).apply(parse)
    with pytest.raises(ValueError, match="`features` is required"):
        tf.data.experimental.parse_example_dataset(None)
