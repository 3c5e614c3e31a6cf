"""Batching a BatchableExtensionType in tf.data gives its TensorShape fields the batch
dimension (as TF's batch encoder does); unbatching drops it."""
import pytest

import eagerflow as tf


class Network(tf.experimental.BatchableExtensionType):
    shape: tf.TensorShape
    work: tf.Tensor

    def __init__(self, work):
        self.work = tf.convert_to_tensor(work)
        self.shape = self.work.shape[:-1]


def test_batch_and_unbatch_shape_fields():
    ds = tf.data.Dataset.from_tensors(Network([5., 3.])).repeat(3)
    assert ds.element_spec.shape == tf.TensorShape([])
    batched = ds.batch(2)
    assert batched.element_spec.shape == tf.TensorShape([None])
    assert ds.batch(2, drop_remainder=True).element_spec.shape == tf.TensorShape([2])
    first = next(iter(batched))
    assert first.shape == tf.TensorShape([None]) and first.work.shape == (2, 2)
    unbatched = batched.unbatch()
    assert unbatched.element_spec.shape == tf.TensorShape([])
    assert [n.work.numpy().tolist() for n in unbatched] == [[5., 3.]] * 3


class _Pair(tf.experimental.BatchableExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


def test_from_generator_of_extension_type_values():
    spec = _Pair.Spec(values=tf.TensorSpec([2], tf.int32), mask=tf.TensorSpec([2], tf.bool))

    def gen():
        for i in range(3):
            yield _Pair(tf.fill([2], i), tf.constant([True, False]))
    ds = tf.data.Dataset.from_generator(gen, output_signature=spec)
    assert [e.values.numpy().tolist() for e in ds] == [[0, 0], [1, 1], [2, 2]]
    assert [e.values.numpy().tolist() for e in ds.batch(2)] == [[[0, 0], [1, 1]], [[2, 2]]]

    def bad():
        yield (1, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="did not match the expected"):
        list(tf.data.Dataset.from_generator(bad, output_signature=spec))


def test_as_numpy_iterator_refuses_extension_types():
    ds = tf.data.Dataset.from_tensors(_Pair(tf.constant([1]), tf.constant([True])))
    with pytest.raises(TypeError, match="`tf.data.Dataset.as_numpy_iterator\\(\\)` is not "
                                        "supported for datasets that produce values of type "
                                        "<class '.*_Pair'>"):
        ds.as_numpy_iterator()
