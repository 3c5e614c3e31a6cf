"""`linalg.experimental.conjugate_gradient`: solves ``A x = rhs`` for a self-adjoint,
positive definite linear operator `A` by (preconditioned) conjugate gradients, in a
`while_loop` so that it traces into functions; batches broadcast against the operator's.

>>> op = tf.linalg.LinearOperatorFullMatrix([[4.0, 1.0], [1.0, 3.0]], is_self_adjoint=True,
...                                         is_positive_definite=True)
>>> tf.linalg.experimental.conjugate_gradient(op, tf.constant([1.0, 2.0])).x.numpy()
array([0.09090909, 0.6363636 ], dtype=float32)
"""
import collections

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.graph import control_flow
from eagerflow._src.ops import array_ops, linalg_ops, math_ops, reduction_ops

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _inner(a, b):
    """The inner product of the vectors of the last axis (conjugating `a`)."""
    return reduction_ops.reduce_sum(math_ops.multiply(math_ops.conj(a), b), axis=-1)


@export("linalg.experimental.conjugate_gradient")
def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    """Runs conjugate gradient steps from `x` (zeros by default) until every residual's norm
    is at most `tol` times that of `rhs` or `max_iter` steps were taken; returns the final
    ``CGState(i, x, r, p, gamma)``: the steps taken, the solution, its residual, the last
    search direction and the residual's (preconditioned) squared norm. `preconditioner`, a
    linear operator approximating the inverse of `operator`, speeds convergence."""
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")
    rhs = convert_to_tensor(rhs)
    batch = array_ops.broadcast_dynamic_shape(array_ops.shape(rhs)[:-1],
                                              operator.batch_shape_tensor())
    if preconditioner is not None:
        batch = array_ops.broadcast_dynamic_shape(batch, preconditioner.batch_shape_tensor())
    shape = array_ops.concat([batch, array_ops.shape(rhs)[-1:]], axis=0)
    residual = array_ops.broadcast_to(rhs, shape)
    # the tolerance is relative to the right-hand side, whatever the start
    tol = tol * linalg_ops.norm(residual, axis=-1)
    if x is None:
        x = array_ops.zeros(shape, rhs.dtype)
    else:
        residual = rhs - operator.matvec(x)

    def precondition(r):
        return r if preconditioner is None else preconditioner.matvec(r)

    def not_done(i, state):
        return math_ops.logical_and(
            i < max_iter, reduction_ops.reduce_any(linalg_ops.norm(state.r, axis=-1) > tol))

    def step(i, state):
        ap = operator.matvec(state.p)
        alpha = (state.gamma / _inner(state.p, ap))[..., None]
        r = state.r - alpha * ap
        z = precondition(r)
        gamma = _inner(r, z)
        p = z + (gamma / state.gamma)[..., None] * state.p
        return i + 1, CGState(i + 1, state.x + alpha * state.p, r, p, gamma)

    p = precondition(residual)
    start = convert_to_tensor(0, _d.int32)
    state = CGState(start, x, residual, p, _inner(residual, p))
    _, state = control_flow.while_loop(not_done, step, [start, state])
    return state
