"""`tf.linalg.experimental.conjugate_gradient` gives TF 2.21's states (values printed by it
for the same calls), eagerly and traced."""
import numpy as np
import pytest

import eagerflow as tf

A = np.array([[4.0, 1.0], [1.0, 3.0]], "float32")


def _operator(**kwargs):
    return tf.linalg.LinearOperatorFullMatrix(A, is_self_adjoint=True,
                                              is_positive_definite=True, **kwargs)


def test_solves_and_reports_its_state():
    state = tf.linalg.experimental.conjugate_gradient(_operator(), tf.constant([1.0, 2.0]))
    assert type(state).__name__ == "CGState" and state._fields == ("i", "x", "r", "p", "gamma")
    assert state.i.numpy() == 2 and state.i.dtype == tf.int32
    np.testing.assert_allclose(state.x.numpy(), [0.09090909, 0.6363636], rtol=1e-6)
    np.testing.assert_allclose(state.r.numpy(), [0.0, 0.0], atol=1e-6)
    np.testing.assert_allclose(np.linalg.solve(A, [1.0, 2.0]), state.x.numpy(), rtol=1e-5)


def test_a_start_a_batch_and_one_step():
    state = tf.linalg.experimental.conjugate_gradient(
        _operator(), tf.constant([[1.0, 2.0], [0.0, 1.0]]), max_iter=1,
        x=tf.constant([[1.0, 1.0], [0.0, 0.0]]))
    assert state.i.numpy() == 1
    np.testing.assert_allclose(state.x.numpy(), [[0.13043481, 0.5652174], [0.0, 0.33333334]],
                               rtol=1e-6)
    np.testing.assert_allclose(state.p.numpy(), [[-0.09451818, 0.17013228],
                                                 [-0.33333334, 0.11111112]], rtol=1e-5)
    np.testing.assert_allclose(state.gamma.numpy(), [0.03780721, 0.11111112], rtol=1e-5)


def test_a_preconditioner_inside_a_function():
    pre = tf.linalg.LinearOperatorDiag([0.25, 1 / 3.0], is_self_adjoint=True,
                                       is_positive_definite=True)
    solve = tf.function(lambda b: tf.linalg.experimental.conjugate_gradient(
        _operator(), b, preconditioner=pre, tol=1e-7))
    state = solve(tf.constant([1.0, 2.0]))
    assert state.i.numpy() == 2
    np.testing.assert_allclose(state.x.numpy(), [0.09090909, 0.6363636], rtol=1e-6)


def test_refuses_an_operator_not_known_positive_definite():
    with pytest.raises(ValueError, match="^Expected a self-adjoint, positive definite "
                                         "operator.$"):
        tf.linalg.experimental.conjugate_gradient(tf.linalg.LinearOperatorFullMatrix(A),
                                                  tf.constant([1.0, 2.0]))
