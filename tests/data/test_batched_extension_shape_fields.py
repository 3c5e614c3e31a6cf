"""Batching a BatchableExtensionType in tf.data gives its TensorShape fields the batch
dimension (as TF's batch encoder does); unbatching drops it."""
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
