"""Places where TF 2.21 raises rather than computing a result; the classes and
messages below are TF 2.21's."""
import pytest

import eagerflow as tf


def test_len_of_variable_raises_type_error():
    v = tf.Variable([1, 2])
    with pytest.raises(TypeError, match=r"^object of type 'ResourceVariable' has no len\(\)$"):
        len(v)
    with pytest.raises(TypeError, match=r"^object of type '_UnreadVariable' has no len\(\)$"):
        len(v.assign([3, 4]))
    # An eager tensor keeps its len(); a variable still iterates and converts.
    assert len(tf.constant([1, 2, 3])) == 3
    assert [int(x) for x in v] == [3, 4]
    assert tf.convert_to_tensor(v).shape == (2,)


def test_constant_of_list_holding_tensors_raises():
    with pytest.raises(ValueError, match=r"^TypeError: Scalar tensor has no `len\(\)`"):
        tf.constant([tf.constant(1), tf.constant(2)])
    with pytest.raises(ValueError, match=r"^TypeError: Scalar tensor has no `len\(\)`"):
        tf.constant([[tf.constant([1.0, 2.0])]], dtype=tf.float32)
    with pytest.raises(ValueError, match=r"^TypeError: object of type 'ResourceVariable' has no len\(\)"):
        tf.constant([tf.Variable(1), tf.Variable(2)])

    @tf.function
    def f(a):
        return tf.constant([a, a])

    with pytest.raises(TypeError, match="Expected any non-tensor type, but got a tensor instead."):
        f(tf.constant(1))
    # convert_to_tensor and stack take them; a tensor itself and empty tensors are fine.
    assert tf.convert_to_tensor([tf.constant(1), tf.constant(2)]).numpy().tolist() == [1, 2]
    assert tf.stack([tf.constant(1), tf.constant(2)]).numpy().tolist() == [1, 2]
    assert tf.constant(tf.constant(3)).numpy() == 3
    assert tf.constant([tf.constant([], tf.float32)]).shape == (1, 0)
    with pytest.raises(ValueError, match=r"^Can't convert Python sequence with mixed types to Tensor\.$"):
        tf.constant([1.0, tf.constant(2)])


def test_convert_to_tensor_of_list_holding_tensors_errors():
    with pytest.raises(TypeError, match="Cannot convert 1.0 to EagerTensor of dtype int32"):
        tf.convert_to_tensor([1.0, tf.constant(2)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Pack"):
        tf.convert_to_tensor([tf.constant(1), tf.constant(2.0)])
