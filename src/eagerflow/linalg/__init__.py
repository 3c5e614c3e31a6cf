"""Linear algebra (``tf.linalg``)."""
from eagerflow._src.ops.array_ops import (  # noqa: F401
    einsum, eye, tensordot)
from eagerflow._src.ops.linalg_ops import (  # noqa: F401
    adjoint, band_part, cholesky, cholesky_solve, cross, det, diag, diag_part, eigh, eigvalsh,
    inv, logdet, lstsq, matmul, matrix_rank, matrix_transpose, matvec, norm, normalize, pinv,
    qr, set_diag, slogdet, solve, svd, tensor_diag, tensor_diag_part, trace, triangular_solve)
from eagerflow._src.ops.reduction_ops import (  # noqa: F401
    global_norm, l2_normalize)
