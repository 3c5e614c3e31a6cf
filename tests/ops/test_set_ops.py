"""tf.sets: the errors TF raises (values are compared with TF's in test_sparse_ops.py)."""
import inspect

import pytest

import eagerflow as tf

_SUPPORTED = ("frozenset({tf.int32, tf.uint8, tf.int16, tf.int8, tf.string, tf.int64, "
              "tf.uint16})")


def test_signatures_are_tfs():
    assert str(inspect.signature(tf.sets.difference)) == "(a, b, aminusb=True, validate_indices=True)"
    assert str(inspect.signature(tf.sets.union)) == "(a, b, validate_indices=True)"
    assert str(inspect.signature(tf.sets.size)) == "(a, validate_indices=True)"
    assert tf.compat.v1.sets.set_intersection is tf.sets.intersection
    assert not hasattr(tf.sets, "set_union")


def test_mismatched_dtypes_raise_type_error():
    with pytest.raises(TypeError, match=r"Types don't match, <dtype: 'int32'> vs "
                                        r"<dtype: 'float32'>\."):
        tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[1.0, 2.0]]))


@pytest.mark.parametrize("dtype", [tf.float32, tf.bool])
def test_unsupported_dtype_raises_type_error(dtype):
    x = tf.zeros([1, 2], dtype)
    with pytest.raises(TypeError) as info:
        tf.sets.union(x, x)
    assert str(info.value) == (f"'a' has invalid dtype `<dtype: '{dtype.name}'>` not in "
                               f"supported dtypes: `{_SUPPORTED}`.")


def test_rank_below_two_is_invalid():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape \[2\] has rank 1 < 2"):
        tf.sets.intersection(tf.constant([1, 2]), tf.constant([1, 2]))


def test_mismatched_rows_are_invalid():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Mismatched shapes \[1\] vs \[2\]"):
        tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[1, 2], [3, 4]]))


def test_size_takes_only_sparse_tensors():
    with pytest.raises(TypeError, match=r"Expected `SparseTensor`, got tf.Tensor\(\[1 2\], "
                                        r"shape=\(2,\), dtype=int32\)\."):
        tf.sets.size(tf.constant([1, 2]))


def test_static_shapes_in_a_function():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.int32)] * 2)
    def f(x, y):
        out = tf.sets.union(x, y)
        assert out.indices.shape.as_list() == [None, 2]
        assert out.values.shape.as_list() == [None]
        assert out.dense_shape.shape.as_list() == [2]
        return out.values

    assert f(tf.constant([[3, 1, 1]]), tf.constant([[2, 2, 2]])).numpy().tolist() == [1, 2, 3]


def test_no_gradient_through_sets():
    x = tf.Variable([[1, 2]])
    with tf.GradientTape() as tape:
        out = tf.sets.union(x, x)
    assert tape.gradient(out.values, x) is None
