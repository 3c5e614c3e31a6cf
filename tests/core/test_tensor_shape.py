import pickle

import pytest

import eagerflow as tf
from tests.internals import Dimension, unknown_shape


def test_print_forms():
    assert str(tf.TensorShape([1, 2])) == "(1, 2)"
    assert str(tf.TensorShape([2])) == "(2,)"
    assert str(tf.TensorShape([])) == "()"
    assert str(tf.TensorShape([None, 3])) == "(None, 3)"
    assert str(tf.TensorShape(None)) == "<unknown>"
    assert repr(tf.TensorShape([None, 3])) == "TensorShape([None, 3])"
    assert repr(tf.TensorShape(None)) == "TensorShape(None)"


def test_partial_shapes():
    s = tf.TensorShape([None, 3])
    assert s.rank == 2 and s[0] is None and s[1] == 3 and s.as_list() == [None, 3]
    assert not s.is_fully_defined() and s.num_elements() is None
    assert tf.TensorShape([2, 3]).num_elements() == 6
    assert s.merge_with([2, None]) == tf.TensorShape([2, 3])
    assert s.is_compatible_with([7, 3]) and not s.is_compatible_with([7, 4])
    assert tf.TensorShape(None).is_compatible_with([1, 2, 3])
    assert s.most_specific_compatible_shape([4, 3]) == [None, 3]
    assert s[1:] == tf.TensorShape([3])


def test_errors():
    with pytest.raises(ValueError, match="are not compatible"):
        tf.TensorShape([1, 2]).merge_with([2, 2])
    with pytest.raises(ValueError, match="unknown rank"):
        len(tf.TensorShape(None))
    with pytest.raises(ValueError, match="as_list"):
        tf.TensorShape(None).as_list()
    with pytest.raises(ValueError):
        tf.TensorShape([1]).with_rank(2)
    with pytest.raises(ValueError):
        Dimension(-1)


def test_concatenate_equality_and_dims():
    assert tf.TensorShape([1, 2]).concatenate([3]) == [1, 2, 3]
    assert tf.TensorShape([3]) + tf.TensorShape([4]) == [3, 4]
    assert tf.TensorShape([1]) != tf.TensorShape([2])
    assert tf.TensorShape([2, 3]).dims == [Dimension(2), Dimension(3)]
    assert repr(Dimension(3)) == "Dimension(3)"
    assert unknown_shape(2) == tf.TensorShape([None, None])
    assert bool(tf.TensorShape([])) and not bool(tf.TensorShape(None))
    assert pickle.loads(pickle.dumps(tf.TensorShape([None, 2]))) == [None, 2]
    assert hash(tf.TensorShape([1, 2])) == hash(tf.TensorShape((1, 2)))


def test_tensor_spec():
    spec = tf.TensorSpec([None, 2], tf.float32)
    assert repr(spec) == "TensorSpec(shape=(None, 2), dtype=tf.float32, name=None)"
    assert repr(tf.TensorSpec([1], tf.int32, name="x")) == \
        "TensorSpec(shape=(1,), dtype=tf.int32, name='x')"
    assert spec.is_compatible_with(tf.constant([[1.0, 2.0]]))
    assert not spec.is_compatible_with(tf.constant([[1, 2]]))
    assert tf.TensorSpec.from_tensor(tf.constant([1.0])) == tf.TensorSpec([1], tf.float32)


def test_assert_is_compatible_with_names_the_other_shape_as_given():
    with pytest.raises(ValueError, match=r"^Shapes \(2, None, 3\) and \[1, 2, 3\] are "
                                         r"incompatible$"):
        tf.TensorShape([2, None, 3]).assert_is_compatible_with([1, 2, 3])


def test_as_proto():
    proto = tf.TensorShape([None, 2]).as_proto()
    assert [d.size for d in proto.dim] == [-1, 2] and not proto.unknown_rank
    assert tf.TensorShape(None).as_proto().unknown_rank


def test_most_specific_common_supertype():
    shape = tf.TensorShape([1, 2])
    assert shape.most_specific_common_supertype([tf.TensorShape([3, 2])]).as_list() == [None, 2]
    assert shape.most_specific_common_supertype([tf.TensorShape([3])]).rank is None
    assert shape.most_specific_common_supertype([]) == shape
    assert shape.most_specific_common_supertype([[1, 2]]) is None
