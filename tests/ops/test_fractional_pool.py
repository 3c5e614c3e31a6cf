"""tf.nn.fractional_max_pool / fractional_avg_pool: TF's shapes, sequences' form, seeding
and errors (the windows themselves are random), and gradients against finite
differences over fixed windows."""
import numpy as np
import pytest

import eagerflow as tf

X = tf.reshape(tf.range(2 * 10 * 9 * 2, dtype=tf.float32), [2, 10, 9, 2])


@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
def test_shapes_and_sequences(pseudo_random, overlapping):
    for fn in (tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool):
        out, rows, cols = fn(X, [1, 1.44, 1.73, 1], pseudo_random=pseudo_random,
                             overlapping=overlapping, seed=1)
        assert out.shape == (2, 6, 5, 2) and rows.dtype == tf.int64  # TF's
        assert rows.numpy()[[0, -1]].tolist() == [0, 10]
        assert cols.numpy()[[0, -1]].tolist() == [0, 9]
        assert set(np.diff(rows.numpy())) <= {1, 2} and set(np.diff(cols.numpy())) <= {1, 2}
    assert tf.nn.fractional_max_pool(X, 1.5, seed=3)[0].shape == (2, 6, 6, 2)
    assert tf.nn.fractional_max_pool(X, [1, 2.0, 2.0, 1], seed=3)[0].shape == (2, 5, 4, 2)


def test_seeding():
    first = tf.nn.fractional_max_pool(X, [1, 1.44, 1.73, 1], seed=1)[1]
    again = tf.nn.fractional_max_pool(X, [1, 1.44, 1.73, 1], seed=1)[1]
    assert first.numpy().tolist() == again.numpy().tolist()  # deterministic with a seed
    f = tf.function(lambda: tf.nn.fractional_avg_pool(X, 1.44, seed=7)[1])
    assert f().numpy().tolist() == f().numpy().tolist()
    draws = {tuple(tf.nn.fractional_max_pool(X, [1, 1.44, 1.73, 1])[1].numpy())
             for _ in range(12)}
    assert len(draws) > 1  # unseeded: fresh windows per call


def test_gradients_match_finite_differences():
    x = tf.constant(np.random.RandomState(0).rand(1, 7, 6, 2))
    for fn in (tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool):
        for overlapping in (False, True):
            theoretical, numerical = tf.test.compute_gradient(
                lambda v: fn(v, [1, 1.6, 1.4, 1], overlapping=overlapping, seed=5)[0], [x])
            np.testing.assert_allclose(theoretical[0], numerical[0], atol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match="elements should be >= 1.0"):
        tf.nn.fractional_max_pool(X, [1, 0.5, 1.5, 1])
    with pytest.raises(ValueError, match="first and last elements with value 1.0"):
        tf.nn.fractional_max_pool(X, [2, 1.5, 1.5, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="tensor_in must be 4-dimensional"):
        tf.nn.fractional_max_pool(X[0], [1, 1.5, 1.5, 1])
    out = tf.compat.v1.nn.fractional_avg_pool(X, [1, 2.0, 2.0, 1], deterministic=True, seed=2)
    assert out[0].shape == (2, 5, 4, 2)
