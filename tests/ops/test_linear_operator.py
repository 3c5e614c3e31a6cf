"""tf.linalg.LinearOperator* against TF's recorded values and types."""
import re

import numpy as np
import pytest

import eagerflow as tf


def test_full_matrix():
    a = tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [1.0, 3.0]], is_self_adjoint=True,
                                           is_positive_definite=True)
    assert a.shape == (2, 2) and a.batch_shape == () and a.domain_dimension == 2
    assert a.dtype == tf.float32 and a.name == "LinearOperatorFullMatrix"
    assert (a.is_self_adjoint, a.is_non_singular, a.is_positive_definite, a.is_square) == \
        (True, True, True, True)
    np.testing.assert_array_equal(a.shape_tensor(), [2, 2])
    np.testing.assert_allclose(a.matmul(tf.constant([[1.0], [2.0]])), [[4.0], [7.0]])
    np.testing.assert_allclose(a @ tf.constant([[1.0], [2.0]]), [[4.0], [7.0]])
    np.testing.assert_allclose(a.matvec([1.0, 2.0]), [4.0, 7.0])
    np.testing.assert_allclose(a.solve(tf.constant([[1.0], [2.0]])), [[0.2], [0.6]], rtol=1e-6)
    np.testing.assert_allclose(a.solvevec([1.0, 2.0]), [0.2, 0.6], rtol=1e-6)
    np.testing.assert_allclose(a.determinant(), 5.0, rtol=1e-6)
    np.testing.assert_allclose(a.log_abs_determinant(), 1.609438, rtol=1e-6)
    np.testing.assert_allclose(a.inverse().to_dense(), [[0.6, -0.2], [-0.2, 0.4]], rtol=1e-6)
    assert type(a.inverse()).__name__ == "LinearOperatorInversion"
    assert a.adjoint() is a
    np.testing.assert_allclose(a.trace(), 5.0)
    np.testing.assert_allclose(a.diag_part(), [2.0, 3.0])
    np.testing.assert_allclose(a.eigvals(), [1.3819659, 3.6180334], rtol=1e-6)
    np.testing.assert_allclose(a.cholesky().to_dense(), np.linalg.cholesky([[2, 1], [1, 3]]),
                               rtol=1e-6)
    np.testing.assert_allclose(a.add_to_tensor(tf.ones([2, 2])), [[3, 2], [2, 4]])
    np.testing.assert_allclose(a.matmul(tf.ones([1, 2]), adjoint_arg=True), [[3], [4]])
    product = a.matmul(a)
    assert type(product).__name__ == "LinearOperatorComposition"
    np.testing.assert_allclose(product.to_dense(), [[5, 5], [5, 10]])
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        a.matmul(tf.ones([3, 1]))
    batch = tf.linalg.LinearOperatorFullMatrix(tf.random.stateless_normal([4, 3, 3], [1, 2]))
    assert batch.batch_shape == (4,) and batch.determinant().shape == (4,)
    general = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
    assert type(general.adjoint()).__name__ == "LinearOperatorAdjoint"
    np.testing.assert_allclose(general.adjoint().to_dense(), [[1, 3], [2, 4]])
    np.testing.assert_allclose(general.solve([[5.0], [11.0]]), [[1], [2]], rtol=1e-5)


def test_diag():
    d = tf.linalg.LinearOperatorDiag([1.0, 2.0, 4.0])
    assert (d.is_self_adjoint, d.is_non_singular, d.is_positive_definite, d.is_square) == \
        (True, None, None, True)
    np.testing.assert_allclose(d.to_dense(), np.diag([1.0, 2.0, 4.0]))
    np.testing.assert_allclose(d.determinant(), 8.0)
    np.testing.assert_allclose(d.log_abs_determinant(), 2.0794415)
    np.testing.assert_allclose(d.matmul(tf.ones([3, 2])), [[1, 1], [2, 2], [4, 4]])
    np.testing.assert_allclose(d.solve(tf.ones([3, 1])), [[1], [0.5], [0.25]])
    assert type(d.inverse()).__name__ == "LinearOperatorDiag"
    np.testing.assert_allclose(d.inverse().to_dense(), np.diag([1, 0.5, 0.25]))
    assert type(d.matmul(d)).__name__ == "LinearOperatorDiag"
    with pytest.raises(ValueError, match="Not a positive definite self adjoint matrix"):
        d.cholesky()
    v = tf.Variable([1.0, 2.0])
    dv = tf.linalg.LinearOperatorDiag(v)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(dv.matvec(tf.constant([3.0, 4.0]))) + dv.log_abs_determinant()
    np.testing.assert_allclose(t.gradient(y, v), [4.0, 4.5])


def test_lower_triangular_and_identity():
    low = tf.linalg.LinearOperatorLowerTriangular([[2.0, 7.0], [1.0, 4.0]])
    np.testing.assert_allclose(low.to_dense(), [[2, 0], [1, 4]])
    np.testing.assert_allclose(low.determinant(), 8.0)
    np.testing.assert_allclose(low.solve(tf.ones([2, 1])), [[0.5], [0.125]])
    np.testing.assert_allclose(low.matmul(tf.ones([2, 1]), adjoint=True), [[3], [4]])
    np.testing.assert_allclose(low.inverse().to_dense(), [[0.5, 0], [-0.125, 0.25]])
    assert type(low.adjoint()).__name__ == "LinearOperatorAdjoint"
    eye = tf.linalg.LinearOperatorIdentity(num_rows=3)
    assert eye.shape == (3, 3) and eye.inverse() is eye
    np.testing.assert_allclose(eye.to_dense(), np.eye(3))
    np.testing.assert_allclose(eye.determinant(), 1.0)
    np.testing.assert_allclose(eye.log_abs_determinant(), 0.0)
    np.testing.assert_allclose(eye.solve(tf.ones([3, 2])), np.ones([3, 2]))
    batched = tf.linalg.LinearOperatorIdentity(num_rows=2, batch_shape=[3], dtype=tf.float64)
    assert batched.shape == (3, 2, 2) and batched.to_dense().shape == (3, 2, 2)
    assert batched.dtype == tf.float64
    assert batched.matmul(tf.ones([2, 1], tf.float64)).shape == (3, 2, 1)


def _kinds():
    la = tf.linalg
    return {
        "full": la.LinearOperatorFullMatrix([[4.0, 1.0], [1.0, 3.0]]),
        "diag": la.LinearOperatorDiag([2.0, 3.0]),
        "diagpd": la.LinearOperatorDiag([2.0, 3.0], is_positive_definite=True),
        "ident": la.LinearOperatorIdentity(2),
        "identb": la.LinearOperatorIdentity(2, batch_shape=[3]),
        "sident": la.LinearOperatorScaledIdentity(2, 3.0),
        "tril": la.LinearOperatorLowerTriangular([[2.0, 0.0], [1.0, 3.0]]),
        "zeros": la.LinearOperatorZeros(2),
        "bdiag": la.LinearOperatorBlockDiag([la.LinearOperatorDiag([1.0]),
                                             la.LinearOperatorFullMatrix([[5.0]])]),
        "circ": la.LinearOperatorCirculant([6.0, 1.0], input_output_dtype=tf.float32),
    }


# (left, right): the class of left @ right and of left.solve(right), and the product's
# (is_non_singular, is_self_adjoint, is_positive_definite) hints, as TF gives them.
_PRODUCTS = [
    ("full", "ident", "FullMatrix", "Inversion", (None, None, None)),
    ("full", "identb", "FullMatrix", "Inversion", (None, None, None)),
    ("full", "zeros", "Zeros", "Composition", (False, True, False)),
    ("full", "diag", "Composition", "Composition", (None, None, None)),
    ("diag", "diag", "Diag", "Diag", (None, True, None)),
    ("diagpd", "diagpd", "Diag", "Diag", (True, True, True)),
    ("diag", "sident", "Diag", "Diag", (None, True, None)),
    ("diag", "tril", "LowerTriangular", "LowerTriangular", (None, None, None)),
    ("tril", "diag", "LowerTriangular", "Composition", (None, None, None)),
    ("sident", "sident", "ScaledIdentity", "ScaledIdentity", (None, True, None)),
    ("sident", "diag", "Diag", "Diag", (None, True, None)),
    ("identb", "full", "FullMatrix", "FullMatrix", (None, None, None)),
    ("zeros", "full", "Zeros", None, (False, True, False)),
    ("bdiag", "bdiag", "BlockDiag", "BlockDiag", (None, None, None)),
    ("circ", "circ", "Circulant", "Circulant", (None, True, None)),
]


@pytest.mark.parametrize("left,right,product,solved,hints", _PRODUCTS)
def test_operator_products_keep_structure(left, right, product, solved, hints):
    kinds = _kinds()
    a, b = kinds[left], kinds[right]
    out = a @ b
    assert type(out).__name__ == "LinearOperator" + product
    assert (out.is_non_singular, out.is_self_adjoint, out.is_positive_definite) == hints
    dense_a, dense_b = a.to_dense().numpy(), b.to_dense().numpy()
    # (TF drops an identity's batch shape from a product with it, so compare broadcast.)
    expected = dense_a @ dense_b
    np.testing.assert_allclose(np.broadcast_to(out.to_dense(), expected.shape), expected,
                               rtol=1e-5)
    if solved is None:
        with pytest.raises(NotImplementedError, match="expected to be singular"):
            a.solve(b)
    else:
        assert type(a.solve(b)).__name__ == "LinearOperator" + solved
        expected = np.linalg.solve(np.broadcast_to(dense_a, expected.shape), dense_b)
        np.testing.assert_allclose(np.broadcast_to(a.solve(b).to_dense(), expected.shape),
                                   expected, rtol=1e-5, atol=1e-6)


def test_operator_product_hints_follow_the_operands():
    la = tf.linalg
    a = la.LinearOperatorFullMatrix([[4.0, 1.0], [1.0, 3.0]], is_non_singular=True)
    b = la.LinearOperatorFullMatrix([[1.0, 2.0, 0.0], [3.0, 4.0, 1.0]], is_square=False)
    out = a @ b
    assert type(out).__name__ == "LinearOperatorComposition"
    assert (out.is_non_singular, out.is_self_adjoint, out.is_positive_definite,
            out.is_square) == (False, False, False, False)
    with pytest.raises(ValueError, match="non-square"):
        la.LinearOperatorZeros(2, 3, is_square=False, is_self_adjoint=False) @ b.adjoint()


def test_operators_in_a_function_with_unknown_dimensions():
    la = tf.linalg

    @tf.function(input_signature=[tf.TensorSpec([None, None, None], tf.float32)])
    def f(a):
        full = la.LinearOperatorFullMatrix(a, is_self_adjoint=True, is_positive_definite=True)
        diag = la.LinearOperatorDiag(la.diag_part(a))
        tril = la.LinearOperatorLowerTriangular(a)
        return (full.shape_tensor(), full.batch_shape_tensor(), full.inverse().to_dense(),
                diag.shape_tensor(), diag.solvevec(a[:, 0]), tril.shape_tensor(),
                (full @ diag).shape_tensor(), (full @ diag).to_dense(),
                la.LinearOperatorAdjoint(tril).shape_tensor(), full.log_abs_determinant())

    a = np.array([[[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]] * 2, np.float32)
    a[1] *= 2.0
    out = f(a)
    for i in (0, 3, 5, 6, 8):
        np.testing.assert_array_equal(out[i], [2, 3, 3])
    np.testing.assert_array_equal(out[1], [2])
    np.testing.assert_allclose(out[2], np.linalg.inv(a), rtol=1e-5)
    np.testing.assert_allclose(out[4], a[:, 0] / np.diagonal(a, axis1=1, axis2=2), rtol=1e-6)
    np.testing.assert_allclose(out[7], a * np.diagonal(a, axis1=1, axis2=2)[:, None, :],
                               rtol=1e-6)
    np.testing.assert_allclose(out[9], np.linalg.slogdet(a)[1], rtol=1e-5)


def test_domain_and_range_dimensions_are_dimensions():
    op = tf.linalg.LinearOperatorFullMatrix(tf.zeros([4, 2, 3]))
    assert repr(op.domain_dimension) == "Dimension(3)" and op.domain_dimension == 3
    assert repr(op.range_dimension) == "Dimension(2)" and op.range_dimension.value == 2
    assert tf.zeros([op.domain_dimension]).shape == (3,)

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def f(a):
        op = tf.linalg.LinearOperatorFullMatrix(a)
        assert op.domain_dimension.value is None and str(op.domain_dimension) == "?"
        return op.shape_tensor()

    np.testing.assert_array_equal(f(tf.zeros([2, 3])), [2, 3])


def test_complex_diagonal_log_abs_determinant():
    d = tf.linalg.LinearOperatorDiag(tf.constant([1 + 1j, 2], tf.complex64))
    out = d.log_abs_determinant()
    assert out.dtype == tf.complex64
    np.testing.assert_allclose(out, np.log(np.sqrt(2.0) * 2), rtol=1e-6)


def test_an_argument_of_another_dtype_is_a_type_error():
    a = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
    for call in (lambda: a.matmul(tf.ones([2, 1], tf.float64)),
                 lambda: a.matvec(np.ones(2)), lambda: a.solve(tf.ones([2, 1], tf.float16)),
                 lambda: a.solvevec(tf.constant([1, 2])),
                 lambda: a.add_to_tensor(tf.ones([2, 2], tf.float64))):
        with pytest.raises(TypeError, match="Expected argument to have dtype"):
            call()
    np.testing.assert_allclose(a.matvec([1.0, 1.0]), [3.0, 7.0])  # (Python values convert)


def test_full_matrix_argument_errors():
    with pytest.raises(TypeError, match=r"Argument `matrix` must have dtype in .*Received: "):
        tf.linalg.LinearOperatorFullMatrix([[1, 2], [3, 4]])
    with pytest.raises(ValueError, match=r"Argument `matrix` must have at least 2 dimensions\. "
                                         r"Received: \[1\. 2\.\]\."):
        tf.linalg.LinearOperatorFullMatrix([1.0, 2.0])


def test_assertions_of_hints():
    diag = tf.linalg.LinearOperatorDiag
    assert diag([1.0, 2.0]).assert_non_singular() is None
    assert diag([1.0, -1.0]).assert_self_adjoint() is None
    for call, message in (
            (lambda: diag([1.0, 0.0]).assert_non_singular(),
             "Singular operator:  Diagonal contained zero values."),
            (lambda: diag([1.0, -1.0]).assert_positive_definite(),
             "Real diagonal operator had non-positive diagonal entries"),
            (lambda: diag([1.0 + 1j, 2.0]).assert_self_adjoint(),
             "This diagonal operator contained non-zero imaginary values."),
            (lambda: tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [0.0, 3.0]])
             .assert_self_adjoint(), "Matrix was not equal to its adjoint."),
            (lambda: tf.linalg.LinearOperatorFullMatrix(np.ones([2, 2], np.float32))
             .assert_non_singular(), "Singular matrix up to precision epsilon."),
            (lambda: tf.linalg.LinearOperatorFullMatrix(-np.eye(2, dtype=np.float32),
                                                        is_self_adjoint=True)
             .assert_positive_definite(), "Matrix was not positive definite.")):
        with pytest.raises(tf.errors.InvalidArgumentError, match="^" + re.escape(message)):
            call()
    assert tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [0.0, 3.0]]).assert_non_singular() \
        is None
    with pytest.raises(NotImplementedError, match="assert_positive_definite is not"):
        tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [0.0, 3.0]]).assert_positive_definite()

    @tf.function
    def checked(d):
        with tf.control_dependencies([diag(d).assert_non_singular()]):
            return tf.identity(d)

    np.testing.assert_array_equal(checked(tf.constant([1.0, 2.0])).numpy(), [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Diagonal contained zero"):
        checked(tf.constant([1.0, 0.0]))


def test_linalg_functions_take_operators():
    # (TF dispatches them to the operator's methods; they raised on converting it)
    full = tf.linalg.LinearOperatorFullMatrix([[2.0, 1.0], [0.0, 3.0]])
    diag = tf.linalg.LinearOperatorDiag([1.0, 4.0], is_self_adjoint=True,
                                        is_positive_definite=True)
    x = tf.constant([[1.0], [2.0]])
    assert tf.linalg.matmul(full, x).numpy().tolist() == [[4.0], [6.0]]
    assert tf.linalg.matmul(full, x, adjoint_a=True).numpy().tolist() == [[2.0], [7.0]]
    assert tf.matmul(tf.transpose(x), full).numpy().tolist() == [[2.0, 7.0]]
    assert tf.linalg.solve(diag, x).numpy().tolist() == [[1.0], [0.5]]
    assert float(tf.linalg.det(full)) == 6.0
    assert float(tf.linalg.trace(full)) == 5.0
    np.testing.assert_allclose(float(tf.linalg.logdet(diag)), np.log(4.0), rtol=1e-6)
    assert tf.linalg.inv(diag).to_dense().numpy().tolist() == [[1.0, 0.0], [0.0, 0.25]]
    assert tf.linalg.cholesky(diag).to_dense().numpy().tolist() == [[1.0, 0.0], [0.0, 2.0]]
    assert tf.linalg.adjoint(full).to_dense().numpy().tolist() == [[2.0, 0.0], [1.0, 3.0]]
    assert tf.linalg.diag_part(full).numpy().tolist() == [2.0, 3.0]
    with pytest.raises(ValueError, match="Expected matrix to be self-adjoint positive"):
        tf.linalg.logdet(full)
    with pytest.raises(ValueError, match="Transposing not supported at this time."):
        tf.linalg.matmul(full, x, transpose_a=True)
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        tf.convert_to_tensor(full)
    assert tf.function(lambda v: tf.linalg.matmul(full, v))(x).numpy().tolist() == [[4.0], [6.0]]


def test_construction_errors_say_what_tf_says():
    full32 = tf.linalg.LinearOperatorFullMatrix([[1.0]])
    diag64 = tf.linalg.LinearOperatorDiag(tf.constant([1.0], tf.float64))
    found = ("Found ('LinearOperatorFullMatrix', tf.float32)   "
             "('LinearOperatorDiag', tf.float64)")
    for make in (tf.linalg.LinearOperatorComposition, tf.linalg.LinearOperatorBlockDiag):
        with pytest.raises(TypeError, match=re.escape(
                "Expected all operators to have the same dtype.  " + found)):
            make([full32, diag64])
    with pytest.raises(TypeError, match=re.escape(
            "Expected every operation in argument `operators` to have the same dtype. Received "
            "[\"('LinearOperatorFullMatrix', tf.float32)\", \"('LinearOperatorDiag', "
            "tf.float64)\"].")):
        tf.linalg.LinearOperatorKronecker([full32, diag64])
    with pytest.raises(ValueError, match=re.escape(
            "Argument num_rows must be non-negative.  Found: -1")):
        tf.linalg.LinearOperatorIdentity(-1)
    with pytest.raises(ValueError, match=re.escape(
            "Argument num_columns must be non-negative.  Found: -2")):
        tf.linalg.LinearOperatorZeros(2, num_columns=-2, is_square=False, is_self_adjoint=False)
    with pytest.raises(ValueError, match="^A self-adjoint matrix is always square.$"):
        tf.linalg.LinearOperatorZeros(2, num_columns=3, is_square=False)
    with pytest.raises(ValueError, match=re.escape(
            "Found `operator.is_non_singular`: False, `is_non_singular`: None.")):
        tf.linalg.LinearOperatorInversion(
            tf.linalg.LinearOperatorFullMatrix([[1.0]], is_non_singular=False))
