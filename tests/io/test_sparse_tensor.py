"""SparseTensor, SparseTensorSpec and sparse.to_dense / from_dense (TF's outputs by hand)."""
import numpy as np
import pytest

import eagerflow as tf

ST_REPR = ("SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 2]], shape=(2, 2), dtype=int64), "
           "values=tf.Tensor([1. 2.], shape=(2,), dtype=float32), "
           "dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))")


def _st():
    return tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])


def test_value_type():
    st = _st()
    assert repr(st) == str(st) == ST_REPR
    assert st.shape == tf.TensorShape([3, 4]) and st.dtype == tf.float32
    assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
    assert tf.sparse.SparseTensor is tf.SparseTensor
    assert repr(st._type_spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.float32)"
    assert repr(tf.SparseTensorSpec([None, 4])) == \
        "SparseTensorSpec(TensorShape([None, 4]), tf.float32)"
    assert tf.SparseTensorSpec([None, 4]).is_compatible_with(st)
    assert st.with_values(st.values * 2).values.numpy().tolist() == [2.0, 4.0]
    with pytest.raises(ValueError, match="Dimensions 1 and 2 are not compatible"):
        tf.SparseTensor([[0, 0]], [1.0, 2.0], [2, 2])
    with pytest.raises(TypeError, match="Cannot convert"):
        tf.SparseTensor([[0.5, 0]], [1.0], [2, 2])


def test_to_dense_and_from_dense():
    assert tf.sparse.to_dense(_st()).numpy().tolist() == [[1, 0, 0, 0], [0, 0, 2, 0],
                                                          [0, 0, 0, 0]]
    assert tf.sparse.to_dense(_st(), default_value=-1.0).numpy()[2].tolist() == [-1] * 4
    strings = tf.SparseTensor([[0], [1]], ["a", "b"], [3])
    assert tf.sparse.to_dense(strings).numpy().tolist() == [b"a", b"b", b""]
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 3])
    assert tf.sparse.to_dense(empty).numpy().tolist() == [[0] * 3] * 2
    back = tf.sparse.from_dense(tf.constant([[1, 0], [0, 3]]))
    assert back.indices.numpy().tolist() == [[0, 0], [1, 1]]
    assert back.values.numpy().tolist() == [1, 3] and back.values.dtype == tf.int32
    assert back.dense_shape.numpy().tolist() == [2, 2]


@pytest.mark.parametrize("indices, message", [
    ([[0, 0], [0, 0]], "indices[1] = [0,0] is repeated"),
    ([[1, 0], [0, 0]], "indices[1] = [0,0] is out of order. Many sparse ops require sorted "
                       "indices.\n    Use `tf.sparse.reorder` to create a correctly ordered "
                       "copy.\n\n"),
    ([[5, 0], [0, 0]], "indices[0] = [5,0] is out of bounds: need 0 <= index < [2,2]"),
])
def test_to_dense_checks_indices(indices, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.sparse.to_dense(tf.SparseTensor(indices, [1.0, 2.0], [2, 2]))
    assert str(info.value) == message + " [Op:SparseToDense]"


def test_unchecked_indices_and_the_gradient():
    unsorted = tf.SparseTensor([[1, 0], [0, 0]], [1.0, 2.0], [2, 2])
    assert tf.sparse.to_dense(unsorted, validate_indices=False).numpy().tolist() == \
        [[2, 0], [1, 0]]
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.sparse.to_dense(tf.SparseTensor([[0, 0], [1, 2]], x * 2, [3, 4]))
                          * tf.reshape(tf.range(12.0), [3, 4]))
    assert tape.gradient(y, x).numpy().tolist() == [0.0, 12.0]


def test_to_dense_in_a_function_with_unknown_sizes():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.int64), tf.TensorSpec([None]),
                                  tf.TensorSpec([2], tf.int64)])
    def dense(indices, values, shape):
        out = tf.sparse.to_dense(tf.SparseTensor(indices, values, shape))
        assert out.shape.rank == 2
        return out

    st = _st()
    np.testing.assert_array_equal(dense(st.indices, st.values, st.dense_shape),
                                  tf.sparse.to_dense(st))
