"""tf.keras.utils.split_dataset, as tf_keras splits arrays, tuples and datasets."""
import random

import numpy as np
import pytest

import eagerflow as tf


def _values(ds):
    return [np.asarray(x).tolist() if not isinstance(x, tuple) else
            tuple(np.asarray(v).tolist() for v in x) for x in ds.as_numpy_iterator()]


def test_array_fraction():
    left, right = tf.keras.utils.split_dataset(np.arange(10), left_size=0.8)
    assert left.element_spec == tf.TensorSpec((), tf.int32)
    assert len(left) == 8 and len(right) == 2
    assert _values(left) == list(range(8)) and _values(right) == [8, 9]


def test_tuple_counts_drop_the_middle():
    left, right = tf.keras.utils.split_dataset((np.ones((6, 2)), np.arange(6)), left_size=2,
                                               right_size=3)
    assert left.element_spec == (tf.TensorSpec((2,), tf.float64), tf.TensorSpec((), tf.int64))
    assert len(left) == 2 and len(right) == 3
    assert [y for _, y in _values(right)] == [3, 4, 5]


def test_dataset_shuffled_with_a_seed_and_batched():
    ds = tf.data.Dataset.from_tensor_slices((np.arange(8), np.arange(8) * 10))
    left, right = tf.keras.utils.split_dataset(ds, right_size=0.25, shuffle=True, seed=1)
    order = list(range(8))
    random.seed(1)
    random.shuffle(order)  # Keras shuffles with Python's generator, seeded
    assert [x for x, _ in _values(left)] == order[:6]
    assert [x for x, _ in _values(right)] == order[6:]
    batched_left, _ = tf.keras.utils.split_dataset(ds.batch(3), left_size=0.5)
    assert [x for x, _ in _values(batched_left)] == [[0, 1, 2], [3]]
    dicts, _ = tf.keras.utils.split_dataset(
        tf.data.Dataset.from_tensor_slices({"x": np.arange(5.0)}), left_size=0.4)
    assert [d["x"] for d in dicts.as_numpy_iterator()] == [0.0, 1.0]


def test_errors():
    x = np.arange(10)
    with pytest.raises(TypeError, match="must be either a `tf.data.Dataset`"):
        tf.keras.utils.split_dataset({"x": x}, left_size=0.5)
    with pytest.raises(ValueError, match="At least one of the `left_size` or `right_size`"):
        tf.keras.utils.split_dataset(x)
    with pytest.raises(ValueError, match="positive integer smaller than 10"):
        tf.keras.utils.split_dataset(x, left_size=20)
    with pytest.raises(ValueError, match="greater than 1"):
        tf.keras.utils.split_dataset(x, left_size=0.5, right_size=0.6)
    with pytest.raises(ValueError, match=r"Expected a list of `numpy.ndarray` objects,Received"):
        tf.keras.utils.split_dataset([1, 2, 3, 4], left_size=0.5)


def test_array_rows_keep_their_dtype():
    left, right = tf.keras.utils.split_dataset(np.arange(12).reshape(6, 2), right_size=0.5)
    assert left.element_spec == right.element_spec == tf.TensorSpec((2,), tf.int64)
    assert _values(right) == [[6, 7], [8, 9], [10, 11]]
    left, _ = tf.keras.utils.split_dataset(np.ones((4, 2), np.float64), left_size=2)
    assert left.element_spec == tf.TensorSpec((2,), tf.float64)
