"""`tf.vectorized_map` over elems holding ragged tensors (expected values from TF 2.21)."""
import pytest

import eagerflow as tf


def test_vectorized_map_gives_fn_the_rows_of_a_ragged_tensor_as_dense_tensors():
    rt = tf.ragged.constant([[1, 2], [3, 4]])
    assert tf.vectorized_map(lambda x: x * 2, rt).numpy().tolist() == [[2, 4], [6, 8]]
    assert tf.vectorized_map(lambda x: x[0] * x[1], (rt, tf.constant([1, 2]))).numpy().tolist() \
        == [[1, 2], [6, 8]]
    traced = tf.function(lambda r: tf.vectorized_map(tf.reduce_sum, r))
    assert traced(rt).numpy().tolist() == [3, 7]


def test_vectorized_map_of_ragged_rows_of_different_shapes_raises():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^PartialTensorShape: Incompatible shapes during merge: "
                             r"\[2\] vs\. \[1\]$"):
        tf.vectorized_map(lambda x: x * 2, tf.ragged.constant([[1, 2], [3]]))
    traced = tf.function(lambda r: tf.vectorized_map(lambda x: x * 2, r))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes during merge"):
        traced(tf.ragged.constant([[1, 2], [3]]))


def test_vectorized_map_checks_rows_of_different_lengths_holding_no_values():
    # TF 2.21 raises for rows of shapes [2,0] and [3,0] (no values, yet not one shape)
    rt = tf.RaggedTensor.from_row_lengths(tf.zeros([5, 0]), [2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Incompatible shapes during merge: \[2,0\] vs\. \[3,0\]"):
        tf.vectorized_map(lambda x: x * 2, rt)
    uniform = tf.RaggedTensor.from_row_lengths(tf.reshape(tf.range(12.0), [6, 2]), [3, 3])
    assert tf.vectorized_map(tf.reduce_sum, uniform).numpy().tolist() == [15.0, 51.0]


def test_vectorized_map_in_a_function_checks_row_lengths_not_value_counts():
    # TF 2.21 raises for rows of shapes [2,0] and [3,0] inside a function too
    traced = tf.function(lambda r: tf.vectorized_map(lambda x: x * 2, r))
    rt = tf.RaggedTensor.from_row_lengths(tf.zeros([5, 0]), [2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes during merge"):
        traced(rt)
    uniform = tf.RaggedTensor.from_row_lengths(tf.zeros([6, 0]), [3, 3])
    assert traced(uniform).shape == (2, 3, 0)


def test_vectorized_map_of_a_ragged_tensor_of_no_rows_raises():
    # TF 2.21 cannot stack the rows of none, eagerly or in a function
    rt = tf.RaggedTensor.from_row_lengths(tf.zeros([0, 3]), tf.zeros([0], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tried to stack elements of an "
                                                             "empty list"):
        tf.vectorized_map(lambda x: x * 2, rt)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tried to stack elements of an "
                                                             "empty list"):
        tf.function(lambda r: tf.vectorized_map(lambda x: x * 2, r))(rt)


def test_vectorized_map_gives_fn_the_ragged_rows_of_a_ragged_tensor_of_ragged_rank_2():
    # TF 2.21: each row is a ragged tensor; results must be dense
    rt = tf.RaggedTensor.from_row_lengths(tf.ragged.constant([[1, 2], [3], [4, 5], [6]]),
                                          [2, 2])
    assert tf.vectorized_map(tf.reduce_sum, rt).numpy().tolist() == [6, 15]
    assert tf.vectorized_map(lambda r: r.flat_values, rt).numpy().tolist() == [[1, 2, 3],
                                                                                [4, 5, 6]]
    assert tf.vectorized_map(lambda x: tf.reduce_sum(x[0]) * x[1],
                             (rt, tf.constant([1, 2]))).numpy().tolist() == [6, 30]
    with pytest.raises(ValueError, match="No pfor vectorization defined for "
                                         "RaggedTensorToVariant"):
        tf.vectorized_map(lambda r: r * 2, rt)


def test_vectorized_map_of_ragged_rows_whose_components_differ_in_shape_raises():
    # TF 2.21 stacks the rows' values and row splits: [3] values vs [1]
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]], [[5, 6, 7]]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^PartialTensorShape: Incompatible shapes during merge: "
                             r"\[3\] vs\. \[1\]$"):
        tf.vectorized_map(tf.reduce_sum, rt)
    with pytest.raises(ValueError, match="RaggedTensorToVariant"):
        tf.vectorized_map(lambda r: r, rt)
