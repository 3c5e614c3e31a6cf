"""Cases for the structured `tf.linalg.LinearOperator*` classes, run alike under TF (to record
its outcomes, data/make_linear_operator_data.py) and eagerflow (test_linear_operator_structured.py):
each gives a JSON summary of one operator's hints, shape, dense form, products, solves,
determinants and derived operators, an error standing for a value."""
import numpy as np


def _value(t):
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind == "c":
        return {"real": np.round(a.real.astype(np.float64), 4).tolist(),
                "imag": np.round(a.imag.astype(np.float64), 4).tolist()}
    return np.round(a.astype(np.float64), 4).tolist()


def _outcome(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - an error is an outcome too
        return {"error": type(e).__name__}


def summary(tf, op):
    """What a user sees of operator `op`."""
    n = op.domain_dimension
    x = tf.cast(tf.reshape(tf.range(1, n * 2 + 1), [n, 2]), op.dtype)
    out = {"type": type(op).__name__, "shape": op.shape.as_list(), "dtype": op.dtype.name,
           "hints": [op.is_non_singular, op.is_self_adjoint, op.is_positive_definite,
                     op.is_square], "name": op.name}
    calls = {
        "dense": lambda: op.to_dense(), "matmul": lambda: op.matmul(x),
        "matmul_adjoint": lambda: op.matmul(x, adjoint=True),
        "matvec": lambda: op.matvec(x[:, 0]), "diag_part": lambda: op.diag_part(),
        "trace": lambda: op.trace(), "determinant": lambda: op.determinant(),
        "log_abs_determinant": lambda: op.log_abs_determinant(),
        "solve": lambda: op.solve(x), "solve_adjoint": lambda: op.solve(x, adjoint=True),
        "eigvals": lambda: op.eigvals(),
        "add_to_tensor": lambda: op.add_to_tensor(tf.ones(op.shape, op.dtype))}
    for key, call in calls.items():
        out[key] = _outcome(lambda call=call: _value(call()))
    for key in ("inverse", "adjoint", "cholesky"):
        out[key] = _outcome(lambda key=key: [type(getattr(op, key)()).__name__,
                                             _value(getattr(op, key)().to_dense())])
    return out


def cases(tf):
    """name -> zero-argument function giving a JSON value."""
    L = tf.linalg
    full = lambda: L.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])  # noqa: E731
    diag = lambda: L.LinearOperatorDiag([2.0, 3.0])  # noqa: E731
    c64 = lambda v: tf.cast(v, tf.complex64)  # noqa: E731
    made = {
        "scaled_identity": lambda: L.LinearOperatorScaledIdentity(3, 2.0),
        "scaled_identity_batch": lambda: L.LinearOperatorScaledIdentity(2, [1.0, -3.0]),
        "scaled_identity_pd": lambda: L.LinearOperatorScaledIdentity(
            2, 4.0, is_positive_definite=True),
        "zeros": lambda: L.LinearOperatorZeros(3),
        "zeros_batch": lambda: L.LinearOperatorZeros(2, batch_shape=[2]),
        "zeros_rectangular": lambda: L.LinearOperatorZeros(2, 3, is_square=False,
                                                           is_self_adjoint=None),
        "zeros_rectangular_self_adjoint": lambda: L.LinearOperatorZeros(2, 3, is_square=False),
        "zeros_not_square": lambda: L.LinearOperatorZeros(2, 3),
        "permutation": lambda: L.LinearOperatorPermutation([2, 0, 1]),
        "permutation_batch": lambda: L.LinearOperatorPermutation([[1, 0], [0, 1]]),
        "permutation_float": lambda: L.LinearOperatorPermutation([0.0, 1.0]),
        "householder": lambda: L.LinearOperatorHouseholder([1.0, 2.0, 2.0]),
        "householder_complex": lambda: L.LinearOperatorHouseholder(c64([1.0, 1.0])),
        "householder_positive": lambda: L.LinearOperatorHouseholder(
            [1.0, 0.0], is_positive_definite=True),
        "toeplitz": lambda: L.LinearOperatorToeplitz([1.0, 2.0, 3.0], [1.0, 4.0, 5.0]),
        "toeplitz_symmetric": lambda: L.LinearOperatorToeplitz(
            [3.0, 1.0, 0.5], [3.0, 1.0, 0.5], is_self_adjoint=True, is_positive_definite=True),
        "toeplitz_other_corner": lambda: L.LinearOperatorToeplitz([1.0, 2.0], [3.0, 2.0]),
        "tridiag_compact": lambda: L.LinearOperatorTridiag(
            [[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 7.0, 8.0]]),
        "tridiag_sequence": lambda: L.LinearOperatorTridiag(
            [tf.constant([1.0, 2.0, 0.0]), tf.constant([4.0, 5.0, 6.0]),
             tf.constant([0.0, 7.0, 8.0])], diagonals_format="sequence"),
        "tridiag_matrix": lambda: L.LinearOperatorTridiag(
            tf.constant([[4.0, 1.0, 9.0], [1.0, 5.0, 2.0], [9.0, 2.0, 6.0]]),
            diagonals_format="matrix"),
        "tridiag_bad_format": lambda: L.LinearOperatorTridiag([[1.0]], diagonals_format="x"),
        "kronecker": lambda: L.LinearOperatorKronecker([full(), diag()]),
        "kronecker_empty": lambda: L.LinearOperatorKronecker([]),
        "block_diag": lambda: L.LinearOperatorBlockDiag([full(), L.LinearOperatorDiag([5.0])]),
        "block_lower_triangular": lambda: L.LinearOperatorBlockLowerTriangular(
            [[full()], [L.LinearOperatorFullMatrix([[1.0, 1.0]]), L.LinearOperatorDiag([5.0])]]),
        "low_rank_update": lambda: L.LinearOperatorLowRankUpdate(diag(), [[1.0], [2.0]]),
        "low_rank_update_diag_v": lambda: L.LinearOperatorLowRankUpdate(
            diag(), [[1.0], [2.0]], diag_update=[3.0], v=[[0.5], [1.0]]),
        "low_rank_update_pd": lambda: L.LinearOperatorLowRankUpdate(
            diag(), [[1.0], [2.0]], is_positive_definite=True, is_self_adjoint=True),
        "circulant": lambda: L.LinearOperatorCirculant(c64([1.0, 2.0, 3.0])),
        "circulant_real": lambda: L.LinearOperatorCirculant(
            tf.constant([1.0, 2.0, 3.0]), input_output_dtype=tf.float32),
        "circulant_2d": lambda: L.LinearOperatorCirculant2D(c64([[1.0, 2.0], [3.0, 4.0]])),
        "circulant_3d": lambda: L.LinearOperatorCirculant3D(c64([[[1.0, 2.0], [3.0, 4.0]]])),
    }
    out = {name: (lambda make=make: summary(tf, make())) for name, make in made.items()}
    out["attributes"] = lambda: {
        "multiplier": _value(L.LinearOperatorScaledIdentity(2, 3.0).multiplier),
        "perm": _value(L.LinearOperatorPermutation([1, 0]).perm),
        "axis": _value(L.LinearOperatorHouseholder([1.0, 0.0]).reflection_axis),
        "col_row": [_value(L.LinearOperatorToeplitz([1.0, 2.0], [1.0, 3.0]).col),
                    _value(L.LinearOperatorToeplitz([1.0, 2.0], [1.0, 3.0]).row)],
        "kron_names": [op.name for op in L.LinearOperatorKronecker([full(), diag()]).operators],
        "u_shape": L.LinearOperatorLowRankUpdate(diag(), [[1.0], [2.0]]).u.shape.as_list(),
        "spectrum": _value(L.LinearOperatorCirculant(c64([1.0, 2.0, 3.0])).spectrum),
        "block_depth": [L.LinearOperatorCirculant(c64([1.0])).block_depth,
                        L.LinearOperatorCirculant2D(c64([[1.0]])).block_depth],
        "kernel": _value(L.LinearOperatorCirculant(c64([6.0, 1.0, 1.0])).convolution_kernel()),
        "composed": [type(L.LinearOperatorScaledIdentity(2, 2.0)
                          @ L.LinearOperatorScaledIdentity(2, 3.0)).__name__,
                     _value((L.LinearOperatorScaledIdentity(2, 2.0)
                             @ L.LinearOperatorScaledIdentity(2, 3.0)).to_dense())],
    }
    return out
