"""`linalg.expm`: the matrix exponential by Pade approximants with scaling and squaring, as
TF builds it from matmuls, a solve and a loop of squarings (so it is differentiable).

>>> tf.linalg.expm(tf.zeros([2, 2]))
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[1., 0.],
       [0., 1.]], dtype=float32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.graph import control_flow
from eagerflow._src.ops import array_ops, linalg_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast


# -- the matrix exponential ------------------------------------------------------------------
# Pade approximants of orders 3 to 13 (Higham, "The scaling and squaring method for the matrix
# exponential revisited", 2005): the coefficients, and the largest 1-norm each order suits.
_PADE = {
    3: [120.0, 60.0, 12.0, 1.0],
    5: [30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0],
    7: [17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0],
    9: [17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0,
        110880.0, 3960.0, 90.0, 1.0],
    13: [64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
         129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
         40840800.0, 960960.0, 16380.0, 182.0, 1.0],
}
_SINGLE_LIMITS = {3: 4.258730016922831e-001, 5: 1.880152677804762e+000, 7: 3.925724783138660}
_DOUBLE_LIMITS = {3: 1.495585217958292e-002, 5: 2.539398330063230e-001,
                  7: 9.504178996162932e-001, 9: 2.097847961257068e+000, 13: 5.371920351148152}


def _pade(matrix, order):
    """(U, V) of the order's approximant: exp(A) ~ (V - U)^-1 (V + U)."""
    b = [convert_to_tensor(c, matrix.dtype) for c in _PADE[order]]
    mm = linalg_ops.matmul
    ident = array_ops.eye(array_ops.shape(matrix)[-1], batch_shape=array_ops.shape(matrix)[:-2],
                          dtype=matrix.dtype)
    powers = [ident, mm(matrix, matrix)]  # even powers: I, A^2, A^4, ...
    if order == 13:
        a2 = powers[1]
        a4 = mm(a2, a2)
        a6 = mm(a4, a2)
        u = mm(a6, a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * ident
        v = mm(a6, b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + \
            b[0] * ident
        return mm(matrix, u), v
    while len(powers) < (order + 1) // 2 + 1:
        powers.append(mm(powers[-1], powers[1]))
    top = (order - 1) // 2
    u = powers[top]  # the leading coefficient is 1
    for k in range(top - 1, -1, -1):
        u = u + b[2 * k + 1] * powers[k]
    v = b[order - 1] * powers[top]
    for k in range(top - 1, -1, -1):
        v = v + b[2 * k] * powers[k]
    return mm(matrix, u), v


@export("linalg.expm")
def expm(input, name=None):  # noqa: A002 (TF's name)
    """The matrix exponential of the innermost square matrices of `input`."""
    matrix = convert_to_tensor(input)
    if matrix.shape.rank is not None and matrix.shape.rank < 2:
        raise errors.InvalidArgumentError(
            None, None, f"tf.linalg.expm requires a tensor of rank at least 2, got "
                        f"{matrix.shape}")
    if matrix.shape[-1] is not None and matrix.shape[-2] is not None and \
            matrix.shape[-1] != matrix.shape[-2]:
        raise errors.InvalidArgumentError(
            None, None, f"tf.linalg.expm requires square matrices, got {matrix.shape}")
    if matrix.shape[-2:] == [0, 0]:
        return matrix  # (TF returns an empty matrix as it is, whatever its dtype)
    if matrix.dtype not in (_d.float16, _d.float32, _d.float64, _d.complex64, _d.complex128):
        raise ValueError(f"tf.linalg.expm does not support matrices of type {matrix.dtype}")
    single = matrix.dtype in (_d.float16, _d.float32, _d.complex64)
    limits = _SINGLE_LIMITS if single else _DOUBLE_LIMITS
    real = matrix.dtype.real_dtype
    norm = reduction_ops.reduce_max(reduction_ops.reduce_sum(math_ops.abs(matrix), axis=-2),
                                    axis=-1)
    norm = array_ops.expand_dims(array_ops.expand_dims(norm, -1), -1)
    top = max(limits)  # the highest order, for the scaled matrix: its norm at most limits[top]
    squarings = math_ops.maximum(
        math_ops.floor(math_ops.log(norm / limits[top]) / np.log(2.0)), 0.0)
    scaled = matrix / cast(math_ops.pow(convert_to_tensor(2.0, real), squarings), matrix.dtype)
    u, v = _pade(scaled, top)
    for order in sorted(limits, reverse=True)[1:]:  # the smallest order the norm allows
        small_u, small_v = _pade(matrix, order)
        fits = norm < limits[order]
        u = array_ops.where(fits, small_u, u)
        v = array_ops.where(fits, small_v, v)
    # a NaN or infinite norm: a matrix of NaNs, neither solved nor squared
    finite = math_ops.is_finite(reduction_ops.reduce_max(norm))
    result = control_flow.cond(
        finite, lambda: linalg_ops.solve(v - u, u + v),
        lambda: array_ops.fill(array_ops.shape(matrix), convert_to_tensor(np.nan, matrix.dtype)))
    steps = cast(squarings, _d.int32)
    most = array_ops.where(finite, reduction_ops.reduce_max(steps), 0)

    def body(i, r):
        return i + 1, array_ops.where(i < steps, linalg_ops.matmul(r, r), r)
    _, result = control_flow.while_loop(lambda i, r: i < most, body,
                                        [convert_to_tensor(0), result])
    return result
