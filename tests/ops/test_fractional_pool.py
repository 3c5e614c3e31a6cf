"""tf.nn.fractional_max_pool / fractional_avg_pool: TF's shapes, sequences' form, seeding
and errors (the windows themselves are random), and gradients against finite
differences over fixed windows."""
import subprocess
import sys

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


def test_seeded_windows_are_tfs():
    # TF 2.21's pooling sequences: drawn from the Philox stream of the seed pair (87654321,
    # seed), or (global seed, seed) under tf.random.set_seed
    tf.random.set_seed(None)  # (no global seed left by another test)
    x = tf.zeros([1, 10, 9, 1])
    rows, cols = tf.nn.fractional_max_pool(x, [1.0, 1.44, 1.73, 1.0], seed=1)[1:]
    assert rows.numpy().tolist() == [0, 2, 3, 5, 6, 8, 10]
    assert cols.numpy().tolist() == [0, 1, 3, 5, 7, 9]
    rows, cols = tf.function(lambda v: tf.nn.fractional_max_pool(
        v, [1.0, 1.44, 1.73, 1.0], seed=1)[1:])(x)
    assert rows.numpy().tolist() == [0, 2, 3, 5, 6, 8, 10]
    out, rows, cols = tf.nn.fractional_avg_pool(tf.zeros([1, 17, 11, 1]), [1.0, 2.5, 1.2, 1.0],
                                                pseudo_random=True, overlapping=True, seed=7)
    assert out.shape == (1, 6, 9, 1)
    assert (rows.numpy().tolist(), cols.numpy().tolist()) == (
        [0, 3, 6, 9, 12, 15, 17], [0, 1, 3, 4, 5, 6, 7, 9, 10, 11])
    tf.random.set_seed(11)
    try:
        rows, cols = tf.nn.fractional_avg_pool(x, [1.0, 1.44, 1.73, 1.0], pseudo_random=True,
                                               seed=5)[1:]
    finally:
        tf.random.set_seed(None)
    assert (rows.numpy().tolist(), cols.numpy().tolist()) == (
        [0, 1, 3, 5, 6, 8, 10], [0, 2, 4, 6, 8, 9])
    rows = tf.compat.v1.nn.fractional_max_pool(x, [1.0, 1.44, 1.73, 1.0], deterministic=True,
                                               seed=3, seed2=9)[1]
    assert rows.numpy().tolist() == [0, 2, 4, 6, 7, 9, 10]


def test_unseeded_pools_leave_the_global_seeds_op_seeds_to_the_random_ops_after_them():
    # TF runs an unseeded fractional pool with op seeds (0, 0), drawing no op seed
    x = tf.reshape(tf.range(110.0), [1, 11, 10, 1])
    tf.random.set_seed(1)
    first = tf.random.uniform([8])
    tf.random.set_seed(1)
    tf.nn.fractional_max_pool(x, [1.0, 1.7, 1.3, 1.0])
    tf.nn.fractional_avg_pool(x, [1.0, 1.7, 1.3, 1.0])
    tf.compat.v1.nn.fractional_max_pool(x, [1.0, 1.7, 1.3, 1.0])
    np.testing.assert_array_equal(tf.random.uniform([8]).numpy(), first.numpy())


def test_unseeded_fractional_max_pool_refused_under_op_determinism():
    # (in a process of its own: determinism, once enabled, stays on)
    code = """
import eagerflow as tf
tf.config.experimental.enable_op_determinism()
x = tf.ones([1, 4, 4, 1])
print(tf.nn.fractional_avg_pool(x, [1.0, 1.5, 1.5, 1.0])[0].shape)
print(tf.nn.fractional_max_pool(x, [1.0, 1.5, 1.5, 1.0], seed=2)[0].shape)
try:
    tf.nn.fractional_max_pool(x, [1.0, 1.5, 1.5, 1.0])
except ValueError as e:
    print(e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[:2] == ["(1, 2, 2, 1)", "(1, 2, 2, 1)"]
    assert out[2].startswith("tf.nn.fractional_max_pool requires a non-zero seed")
