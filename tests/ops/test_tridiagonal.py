"""tf.linalg.tridiagonal_matmul against TF 2.21's values and gradients."""
import inspect

import numpy as np
import pytest

import eagerflow as tf

D = [[1.0, 2.0, 3.0, 99.0], [4.0, 5.0, 6.0, 7.0], [88.0, 8.0, 9.0, 10.0]]
RHS = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]
PRODUCT = [[7.0, 12.0], [33.0, 48.0], [78.0, 96.0], [99.0, 116.0]]  # TF 2.21's


def test_signature_is_tfs():
    assert str(inspect.signature(tf.linalg.tridiagonal_matmul)) == \
        "(diagonals, rhs, diagonals_format='compact', name=None)"


def test_every_format_gives_tfs_product():
    d, rhs = tf.constant(D), tf.constant(RHS)
    assert tf.linalg.tridiagonal_matmul(d, rhs).numpy().tolist() == PRODUCT
    assert tf.linalg.tridiagonal_matmul((d[0], d[1], d[2]), rhs,
                                        diagonals_format="sequence").numpy().tolist() == PRODUCT
    m = np.diag(D[1]) + np.diag(D[0][:3], 1) + np.diag(D[2][1:], -1)
    assert tf.linalg.tridiagonal_matmul(tf.constant(m, tf.float32), rhs,
                                        diagonals_format="matrix").numpy().tolist() == PRODUCT
    batched = tf.linalg.tridiagonal_matmul(tf.stack([d, d]), tf.stack([rhs, rhs]))
    assert batched.shape == (2, 4, 2) and batched.numpy()[1].tolist() == PRODUCT


def test_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have the same rank"):
        tf.linalg.tridiagonal_matmul(tf.constant(D), tf.constant([1.0, 2.0, 3.0, 4.0]))
    with pytest.raises(ValueError, match="Unrecognized diagonals_format: bad"):
        tf.linalg.tridiagonal_matmul(tf.constant(D), tf.constant(RHS), diagonals_format="bad")


def test_gradients_are_tfs():
    d, rhs = tf.Variable(D), tf.Variable(RHS)
    w = tf.constant([[1.0, -1.0], [2.0, 0.5], [3.0, 1.0], [-2.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.linalg.tridiagonal_matmul(d, rhs) * w)
    gd, gr = tape.gradient(y, [d, rhs])
    assert gd.numpy().tolist() == [[-1.0, 13.0, 29.0, 0.0], [-1.0, 8.0, 21.0, 18.0],
                                   [0.0, 3.0, 13.0, 14.0]]
    assert gr.numpy().tolist() == [[20.0, 0.0], [38.0, 10.5], [2.0, 47.0], [-5.0, 31.0]]


def test_in_a_function_with_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 3, 4]), tf.TensorSpec([None, 4, 2])])
    def f(d, rhs):
        return tf.linalg.tridiagonal_matmul(d, rhs)

    assert f(tf.constant([D]), tf.constant([RHS])).numpy().tolist() == [PRODUCT]


def test_tridiagonal_matmul_traces_for_unknown_ranks():
    # TF 2.21 traces it for inputs of any rank; the values are the eager ones
    rng = np.random.RandomState(0)
    d = tf.constant(rng.randn(2, 3, 4).astype(np.float32))
    r = tf.constant(rng.randn(2, 4, 2).astype(np.float32))
    traced = tf.function(tf.linalg.tridiagonal_matmul,
                         input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
    assert traced.get_concrete_function().outputs[0].shape.rank is None
    np.testing.assert_allclose(traced(d, r).numpy(), tf.linalg.tridiagonal_matmul(d, r).numpy(),
                               rtol=1e-6)
    dense = np.diag(d[0, 1].numpy()) + np.diag(d[0, 0, :-1].numpy(), 1) + \
        np.diag(d[0, 2, 1:].numpy(), -1)
    np.testing.assert_allclose(traced(d[0], r[0]).numpy(), dense @ r[0].numpy(), rtol=1e-5,
                               atol=1e-6)
