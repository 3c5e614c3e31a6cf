"""`tf.__internal__.CompositeTensor`: which values are composites (as TF 2.21 answers)."""
import numpy as np
import pytest

import eagerflow as tf


class MT(tf.experimental.ExtensionType):
    v: tf.Tensor


@pytest.mark.parametrize("make,expected", [
    (lambda: tf.constant(1), False),
    (lambda: tf.Variable(1.), True),
    (lambda: tf.ragged.constant([[1]]), True),
    (lambda: tf.sparse.from_dense([[1]]), True),
    (lambda: MT(1), True),
    (lambda: tf.experimental.Optional.from_value(1), True),
    (lambda: tf.IndexedSlices(tf.constant([1.]), tf.constant([0])), True),
    (lambda: tf.TensorArray(tf.float32, 1), False),
    (lambda: tf.data.Dataset.range(1), True),
    (lambda: iter(tf.data.Dataset.range(1)), True),
    (lambda: [1], False),
    (lambda: np.ones(1), False),
])
def test_which_values_are_composite_tensors(make, expected):
    assert isinstance(make(), tf.__internal__.CompositeTensor) is expected


def test_composite_tensor_is_an_abstract_base():
    assert issubclass(MT, tf.__internal__.CompositeTensor)
    assert not issubclass(tf.Tensor, tf.__internal__.CompositeTensor)
    with pytest.raises(TypeError, match="Can't instantiate abstract class CompositeTensor"):
        tf.__internal__.CompositeTensor()

    @tf.function
    def f(x):
        return isinstance(x, tf.__internal__.CompositeTensor)
    assert f(tf.ragged.constant([[1]])).numpy() and not f(tf.constant(1)).numpy()
