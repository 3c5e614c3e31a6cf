"""`tf.linalg.eig`/`eigvals` give the eigenvalues in TF's order: a real matrix's in the
order of its real Schur form (a complex pair: positive imaginary part first), a complex
matrix's by magnitude, smallest first (values recorded with TF 2.21)."""
import numpy as np

import eagerflow as tf

A = np.array([[1., 2., 0.5, -1.], [0.3, -2., 1., 0.], [2., 1., 0., 1.5], [-1., 0.5, 2., 1.]],
             np.float32)


def test_real_matrix_eigenvalues_in_schur_order():
    e, v = tf.linalg.eig(A)
    np.testing.assert_allclose(e, [-2.253698 + 0.659137j, -2.253698 - 0.659137j,
                                   2.2537 + 0.351938j, 2.2537 - 0.351938j], rtol=1e-5)
    np.testing.assert_allclose(v[:, 0], [0.394374 + 0.195953j, -0.612005 + 0.123695j,
                                         -0.044579 - 0.493562j, 0.166034 + 0.378237j],
                               atol=1e-5)
    np.testing.assert_allclose(tf.linalg.eigvals(A.astype(np.float64)), e, rtol=1e-5)


def test_real_eigenvalues_and_their_vectors_signs():
    a = np.random.RandomState(0).randn(2, 4, 4).astype(np.float32)
    e, v = tf.linalg.eig(a)
    np.testing.assert_allclose(e[0], [2.9661, -1.3764, -0.472, 0.1467], atol=1e-4)
    np.testing.assert_allclose(e[1], [1.9902, -0.0025 + 1.7893j, -0.0025 - 1.7893j, 0.5863],
                               atol=1e-4)
    np.testing.assert_allclose(v[0, :, 0], [0.8355, 0.4284, 0.1823, 0.2921], atol=1e-4)
    assert not np.signbit(v[0].numpy().imag).any()
    assert tf.linalg.eig(tf.constant([[2.0, 0.0], [0.0, 1.0]]))[0].numpy().tolist() == [2, 1]


def test_complex_matrix_eigenvalues_by_magnitude():
    c = (A + 1j * A.T[::-1]).astype(np.complex64)
    want = [2.239968 - 2.277078j, -2.168881 - 2.353424j, -2.865036 + 1.933404j,
            2.793949 + 2.697098j]
    np.testing.assert_allclose(tf.linalg.eigvals(c), want, rtol=1e-5)
    np.testing.assert_allclose(tf.linalg.eig(c)[0], want, rtol=1e-5)
