"""A draw of a few values (computed on Python integers) gives the first values of a large
draw from the same stream (computed on arrays), bit for bit."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("seed", [(1, 2), (0, 0), (-7, 2**40)])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_few_uniform_floats_are_the_start_of_many(seed, dtype):
    few = tf.random.stateless_uniform([2, 3], seed, dtype=dtype).numpy()
    many = tf.random.stateless_uniform([100], seed, dtype=dtype).numpy()
    np.testing.assert_array_equal(few.reshape(-1), many[:6])


@pytest.mark.parametrize("dtype,bounds", [
    (tf.int32, (0, 9)), (tf.int32, (-5, 7)), (tf.int32, (-2**31, 2**31 - 1)),
    (tf.int64, (0, 9)), (tf.int64, (-3, 2**40)), (tf.int64, (-2**63, 2**63 - 1))])
def test_few_uniform_integers_are_the_start_of_many(dtype, bounds):
    seed = (3, 4)
    few = tf.random.stateless_uniform([5], seed, *bounds, dtype=dtype).numpy()
    many = tf.random.stateless_uniform([90], seed, *bounds, dtype=dtype).numpy()
    np.testing.assert_array_equal(few, many[:5])
    assert few.dtype == many.dtype


def test_a_scalar_draw_and_a_seeded_crop_offset():
    tf.random.set_seed(5)
    a = tf.random.uniform([], seed=1).numpy()
    tf.random.set_seed(5)
    b = tf.random.uniform([64], seed=1).numpy()
    assert a == b[0]
