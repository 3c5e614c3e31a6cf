"""Linear operators (``tf.linalg.LinearOperator*``): matrices known by structure (full, diagonal,
lower triangular, identity) whose products, solves and determinants use that structure, and
the operators built from them (inverse, adjoint, composition).

>>> d = tf.linalg.LinearOperatorDiag([1.0, 2.0])
>>> d.matvec([3.0, 4.0])
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 8.], dtype=float32)>
>>> d.log_abs_determinant()
<tf.Tensor: shape=(), dtype=float32, numpy=0.6931471824645996>
"""
import functools

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.log import get_logger
from eagerflow._src.core import api_dispatch
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.module import Module
from eagerflow._src.core.tensor_shape import Dimension, TensorShape
from eagerflow._src.core.variables import Variable
from eagerflow._src.ops import array_ops, debugging_ops, linalg_ops, math_ops, reduction_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.shape_rules import broadcast_shapes

_SLOW_DETERMINANT = ("Using (possibly slow) default implementation of determinant.  Requires "
                     "conversion to a dense matrix and O(N^3) operations.")
_SLOW_ASSERT = ("Using (possibly slow) default implementation of {}.  Requires conversion to a "
                "dense matrix{}.")


def _keep_variable(x, dtype=None):
    """A Variable as it is (read at each use, so gradients reach it), else a tensor."""
    if isinstance(x, Variable):
        return x
    return convert_to_tensor(x, dtype)


def product_of(values):
    """The product of the tensors `values` (an operator's blocks' determinants)."""
    return functools.reduce(math_ops.multiply, values)


def sum_of(values):
    """The sum of the tensors `values` (an operator's blocks' log-determinants)."""
    return functools.reduce(math_ops.add, values)


def batch_of(operators):
    """The batch shape `operators` broadcast to."""
    batch = TensorShape([])
    for op in operators:
        batch = broadcast_shapes(batch, op.batch_shape)
    return batch


def non_singular_of(a, b):
    """The non-singular hint of a product of `a` and `b` (False where either is singular)."""
    if a.is_non_singular is False or b.is_non_singular is False:
        return False
    return a.is_non_singular and b.is_non_singular


def commuting_self_adjoint_of(a, b):
    """The self-adjoint hint of a product of commuting `a` and `b`."""
    if a.is_self_adjoint and b.is_self_adjoint:
        return True
    if {a.is_self_adjoint, b.is_self_adjoint} == {True, False}:
        return False
    return None


def commuting_positive_definite_of(a, b):
    """The positive-definite hint of a product of commuting `a` and `b`."""
    if all(op.is_positive_definite is True and op.is_self_adjoint is True for op in (a, b)):
        return True
    return None


def commuting_hints_of(a, b):
    """The hints of the product of commuting `a` and `b` (diagonal, scaled identity)."""
    return dict(is_non_singular=non_singular_of(a, b),
                is_self_adjoint=commuting_self_adjoint_of(a, b),
                is_positive_definite=commuting_positive_definite_of(a, b))


def _square_of(a, b):
    """Whether the product of `a` and `b` is square, where the hints tell."""
    if a.is_square and b.is_square:
        return True
    if a.is_square is False and b.is_square is False:
        m, n = a._range_dim, b._domain_dim
        if m is not None and n is not None:
            return m == n
    if a.is_square is not None and b.is_square is not None and a.is_square != b.is_square:
        return False
    return None


def _product_hints(a, b):
    """The hints of the generic product of `a` and `b` (a composition)."""
    square = _square_of(a, b)
    if square is False:
        return dict(is_non_singular=False, is_self_adjoint=False, is_positive_definite=False,
                    is_square=False)
    return dict(is_non_singular=non_singular_of(a, b) if square else None, is_square=square)


def batch_tensor_of(operators):
    """The batch shape `operators` broadcast to, as a tensor."""
    batch = operators[0].batch_shape_tensor()
    for op in operators[1:]:
        batch = array_ops.broadcast_dynamic_shape(batch, op.batch_shape_tensor())
    return batch


def rows_of(num_rows, what="num_rows"):
    """`num_rows` (the argument `what`) as ``(static, value)``: the int where it is known
    (value too), else None and the int32 tensor (a size read inside a `tf.function`)."""
    static = get_static_value(num_rows) if hasattr(num_rows, "dtype") else num_rows
    if static is None:
        return None, convert_to_tensor(num_rows, _d.int32)
    static = int(static)
    if static < 0:
        raise ValueError(f"Argument {what} must be non-negative.  Found: {static}")
    return static, static


def _check_dims(expected, got):
    if expected is not None and got is not None and expected != got:
        raise ValueError(f"Dimensions {expected} and {got} are not compatible")


@export("linalg.LinearOperator")
class LinearOperator(Module):
    """Base class: a (batch of) ``[M, N]`` matrices used through products and solves.

    Subclasses give `_shape`, and `_matmul` or `_to_dense`; the rest defaults to dense
    linear algebra.
    """

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite and is_non_singular is False:
            raise ValueError("A positive definite matrix is always non-singular.")
        if is_positive_definite:
            is_non_singular = True
        if is_non_singular and is_square is False:
            raise ValueError("A non-singular matrix is always square.")
        if is_non_singular:
            is_square = True
        if is_self_adjoint and is_square is False:
            raise ValueError("A self-adjoint matrix is always square.")
        if is_self_adjoint:
            is_square = True
        super().__init__(name=name or type(self).__name__)
        self._dtype = _d.as_dtype(dtype) if dtype is not None else None
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_hint = is_square
        self._parameters = dict(parameters or {})

    # -- properties -------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self):
        return dict(self._parameters)

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        rows, cols = self._range_dim, self._domain_dim
        if self._is_square_hint is not None or rows is None or cols is None:
            return self._is_square_hint
        return rows == cols

    @property
    def shape(self):
        return TensorShape(self._shape())

    @property
    def batch_shape(self):
        return self.shape[:-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    @property
    def domain_dimension(self):
        """The number of columns, as a `Dimension` (TF's; ``.value`` is None where unknown)."""
        return Dimension(self._domain_dim)

    @property
    def range_dimension(self):
        """The number of rows, as a `Dimension`."""
        return Dimension(self._range_dim)

    @property
    def _domain_dim(self):
        shape = self.shape
        return None if shape.rank is None else shape[-1]

    @property
    def _range_dim(self):
        shape = self.shape
        return None if shape.rank is None else shape[-2]

    def shape_tensor(self, name="shape_tensor"):
        if self.shape.is_fully_defined():
            return convert_to_tensor(self.shape.as_list(), _d.int32)
        return self._shape_tensor()

    def _shape_tensor(self):
        """The shape as an int32 tensor, where it is not known statically (inside a
        `tf.function` with unknown dimensions)."""
        raise NotImplementedError(f"{type(self).__name__} has no shape tensor for a shape "
                                  f"not known statically ({self.shape}).")

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        return self.shape_tensor()[:-2]

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        return convert_to_tensor(self.shape.rank, _d.int32)

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        return self.shape_tensor()[-1]

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        return self.shape_tensor()[-2]

    @property
    def H(self):
        return self.adjoint()

    # -- products and solves ---------------------------------------------------------------
    def _input(self, x):
        """`x` as a tensor of this operator's dtype: a Python value is converted to it, a
        tensor or array of another dtype is TF's TypeError."""
        if not hasattr(x, "dtype"):
            return convert_to_tensor(x, self.dtype)
        x = convert_to_tensor(x)
        if x.dtype != self.dtype:
            raise TypeError(f"Expected argument to have dtype {self.dtype}.  Found: {x.dtype} "
                            f"in tensor {x!s}")
        return x

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """``op(A) @ op(x)``; a LinearOperator `x` gives their composition."""
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            _check_dims(left._domain_dim, right._range_dim)
            return left._compose(right)
        x = self._input(x)
        inner = self._range_dim if adjoint else self._domain_dim
        _check_dims(inner, x.shape[-1] if adjoint_arg else x.shape[-2])
        return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name="matvec"):
        x = self._input(x)
        inner = self._range_dim if adjoint else self._domain_dim
        _check_dims(inner, x.shape[-1])
        out = self._matmul(array_ops.expand_dims(x, -1), adjoint=adjoint)
        return array_ops.squeeze(out, -1)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """``op(A)^-1 @ op(rhs)``."""
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is "
                                      "expected to not be square.")
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            _check_dims(left._domain_dim, right._range_dim)
            return left._solve_operator(right)
        rhs = self._input(rhs)
        outer = self._domain_dim if adjoint else self._range_dim
        _check_dims(outer, rhs.shape[-1] if adjoint_arg else rhs.shape[-2])
        return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        rhs = self._input(rhs)
        out = self.solve(array_ops.expand_dims(rhs, -1), adjoint=adjoint)
        return array_ops.squeeze(out, -1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return linalg_ops.matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _can_use_cholesky(self):
        return bool(self.is_self_adjoint and self.is_positive_definite)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if adjoint_arg:
            rhs = linalg_ops.adjoint(rhs)
        if self._can_use_cholesky():
            return linalg_ops.cholesky_solve(linalg_ops.cholesky(self.to_dense()), rhs)
        matrix = self.to_dense()
        shape = array_ops.broadcast_dynamic_shape(array_ops.shape(matrix)[:-2],
                                                  array_ops.shape(rhs)[:-2])
        if matrix.shape.rank != rhs.shape.rank or matrix.shape[:-2] != rhs.shape[:-2]:
            matrix = array_ops.broadcast_to(
                matrix, array_ops.concat([shape, array_ops.shape(matrix)[-2:]], 0))
            rhs = array_ops.broadcast_to(rhs, array_ops.concat([shape, array_ops.shape(rhs)[-2:]],
                                                               0))
        return linalg_ops.solve(matrix, rhs, adjoint=adjoint)

    # Whether this is a zero matrix (which absorbs products with it).
    _IS_ZEROS = False

    def _compose(self, other):
        """``self @ other`` as an operator; structured operators keep their structure where
        the product has it (a diagonal times a diagonal is diagonal)."""
        if isinstance(other, LinearOperatorIdentity):
            return self
        if other._IS_ZEROS:
            if not other.is_square or not self.is_square:
                raise ValueError("Matmul with non-square `LinearOperator`s or non-square "
                                 "`LinearOperatorZeros` not supported at this time.")
            return other
        return LinearOperatorComposition([self, other], **_product_hints(self, other))

    def _solve_operator(self, other):
        """``inverse(self) @ other`` as an operator."""
        if isinstance(other, LinearOperatorIdentity):
            return self.inverse()
        return LinearOperatorComposition([LinearOperatorInversion(self), other],
                                         **_product_hints(self, other))

    # -- dense forms and scalars -----------------------------------------------------------
    def to_dense(self, name="to_dense"):
        return self._to_dense()

    def _to_dense(self):
        if self.shape.is_fully_defined():
            n, batch = self._domain_dim, self.batch_shape.as_list() or None
        else:
            shape = self.shape_tensor()
            n, batch = shape[-1], shape[:-2]
        return self._matmul(array_ops.eye(n, batch_shape=batch, dtype=self.dtype))

    def determinant(self, name="det"):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is "
                                      "expected to not be square.")
        return self._determinant()

    def _determinant(self):
        get_logger().warning(_SLOW_DETERMINANT)
        if self._can_use_cholesky():
            return math_ops.exp(self.log_abs_determinant())
        return linalg_ops.det(self.to_dense())

    def log_abs_determinant(self, name="log_abs_det"):
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is "
                                      "expected to not be square.")
        return self._log_abs_determinant()

    def _log_abs_determinant(self):
        get_logger().warning(_SLOW_DETERMINANT)
        if self._can_use_cholesky():
            chol_diag = linalg_ops.diag_part(linalg_ops.cholesky(self.to_dense()))
            return 2.0 * reduction_ops.reduce_sum(math_ops.log(chol_diag), axis=[-1])
        _, log_abs = linalg_ops.slogdet(self.to_dense())
        return log_abs

    def trace(self, name="trace"):
        return reduction_ops.reduce_sum(self.diag_part(), axis=-1)

    def diag_part(self, name="diag_part"):
        return linalg_ops.diag_part(self.to_dense())

    def add_to_tensor(self, x, name="add_to_tensor"):
        return math_ops.add(self.to_dense(), self._input(x))

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return linalg_ops.eigvalsh(self.to_dense())

    def cond(self, name="cond"):
        return self._svd_cond()

    def _svd_cond(self):
        # (the ratio of extreme singular values of the dense matrix, kept out of `cond` so
        # subclasses' exact `cond`s leave the default non-singularity check as TF's)
        s = linalg_ops.svd(self.to_dense(), compute_uv=False)
        return reduction_ops.reduce_max(s, axis=-1) / reduction_ops.reduce_min(s, axis=-1)

    # -- assertions: TF's checks (None eagerly when they hold, the check in a graph) --------
    def assert_non_singular(self, name="assert_non_singular"):
        """InvalidArgumentError unless the condition number is below
        ``1 / (max(100, rows, columns) * eps)``.

        >>> print(tf.linalg.LinearOperatorDiag([1.0, 2.0]).assert_non_singular())
        None
        """
        return self._assert_non_singular()

    def _assert_non_singular(self):
        get_logger().warning(_SLOW_ASSERT.format("assert_non_singular",
                                                 " and O(N^3) operations"))
        if self._can_use_cholesky():
            return self.assert_positive_definite()
        cond = self._svd_cond()
        dims = [cast(d, cond.dtype) for d in (self.range_dimension_tensor(),
                                               self.domain_dimension_tensor())]
        largest = reduction_ops.reduce_max(array_ops.stack(
            [convert_to_tensor(100.0, cond.dtype)] + dims))
        eps = np.finfo(cond.dtype.as_numpy_dtype).eps
        return debugging_ops.assert_less(cond, 1.0 / (largest * eps),
                                         message="Singular matrix up to precision epsilon.")

    def assert_positive_definite(self, name="assert_positive_definite"):
        """InvalidArgumentError unless the operator is positive definite (for the default
        check, a self-adjoint one whose Cholesky factor has a positive diagonal)."""
        return self._assert_positive_definite()

    def _assert_positive_definite(self):
        get_logger().warning(_SLOW_ASSERT.format("assert_positive_definite",
                                                 " and O(N^3) operations"))
        if self.is_self_adjoint:
            return debugging_ops.assert_positive(
                linalg_ops.diag_part(linalg_ops.cholesky(self.to_dense())),
                message="Matrix was not positive definite.")
        raise NotImplementedError("assert_positive_definite is not implemented.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        """InvalidArgumentError unless the operator equals its adjoint exactly."""
        return self._assert_self_adjoint()

    def _assert_self_adjoint(self):
        dense = self.to_dense()
        get_logger().warning(_SLOW_ASSERT.format("assert_self_adjoint", ""))
        return debugging_ops.assert_equal(dense, linalg_ops.adjoint(dense),
                                          message="Matrix was not equal to its adjoint.")

    # -- derived operators -----------------------------------------------------------------
    def adjoint(self, name="adjoint"):
        if self.is_self_adjoint:
            return self
        return self._adjoint()

    def _adjoint(self):
        return LinearOperatorAdjoint(self)

    def _hints(self):
        """The non-singular, self-adjoint and positive-definite hints, as keywords (an
        operator derived from this one, of the same structure, keeps them)."""
        return dict(is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                    is_positive_definite=self.is_positive_definite)

    def inverse(self, name="inverse"):
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square "
                             "matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular "
                             "matrix.")
        return self._inverse()

    def _inverse(self):
        return LinearOperatorInversion(self)

    def cholesky(self, name="cholesky"):
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite "
                             "self adjoint matrix.")
        return self._cholesky()

    def _cholesky(self):
        return LinearOperatorLowerTriangular(linalg_ops.cholesky(self.to_dense()),
                                             is_non_singular=True, is_self_adjoint=False,
                                             is_square=True)


@export("linalg.LinearOperatorFullMatrix")
class LinearOperatorFullMatrix(LinearOperator):
    """An operator holding its ``[..., M, N]`` matrix."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorFullMatrix"):
        self._matrix = _keep_variable(matrix)
        if self._matrix.dtype not in (_d.float16, _d.float32, _d.float64, _d.complex64,
                                      _d.complex128):
            raise TypeError(f"Argument `matrix` must have dtype in [tf.float16, tf.float32, "
                            f"tf.float64, tf.complex64, tf.complex128]. Received: "
                            f"{self._matrix.dtype}.")
        if self._matrix.shape.rank is not None and self._matrix.shape.rank < 2:
            raise ValueError(f"Argument `matrix` must have at least 2 dimensions. Received: "
                             f"{self._matrix}.")
        super().__init__(self._matrix.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters=dict(matrix=matrix))

    def _shape(self):
        return self._matrix.shape

    def _shape_tensor(self):
        return array_ops.shape(self._matrix)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return linalg_ops.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self):
        return convert_to_tensor(self._matrix)


@export("linalg.LinearOperatorDiag")
class LinearOperatorDiag(LinearOperator):
    """A (batch of) square diagonal matrices, from their ``[..., N]`` diagonals."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorDiag"):
        self._diag = _keep_variable(diag)
        if self._diag.shape.rank is not None and self._diag.shape.rank < 1:
            raise ValueError(f"Argument diag must have at least 1 dimension.  Found: "
                             f"{self._diag}")
        if not self._diag.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real diagonal operator is always self adjoint.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("Only square diagonal operators currently supported.")
        super().__init__(self._diag.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(diag=diag))

    @property
    def diag(self):
        return self._diag

    def _assert_non_singular(self):
        zero = convert_to_tensor(0, self.dtype.real_dtype)
        return debugging_ops.assert_less(zero, math_ops.abs(self._diag),
                                         message="Singular operator:  Diagonal contained zero "
                                                 "values.")

    def _assert_positive_definite(self):
        message = ("Diagonal operator had diagonal entries with non-positive real part, thus "
                   "was not positive definite." if self.dtype.is_complex else
                   "Real diagonal operator had non-positive diagonal entries, thus was not "
                   "positive definite.")
        return debugging_ops.assert_positive(math_ops.real(self._diag), message=message)

    def _assert_self_adjoint(self):
        if not self.dtype.is_complex:
            return None  # (a real diagonal is self-adjoint)
        zero = convert_to_tensor(0, self.dtype.real_dtype)
        return debugging_ops.assert_equal(
            zero, math_ops.imag(self._diag),
            message="This diagonal operator contained non-zero imaginary values.   Thus it "
                    "was not self-adjoint.")

    def _shape(self):
        shape = self._diag.shape
        if shape.rank is None:
            return TensorShape(None)
        return shape.concatenate(shape[-1:])

    def _shape_tensor(self):
        shape = array_ops.shape(self._diag)
        return array_ops.concat([shape, shape[-1:]], 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        diag = math_ops.conj(self._diag) if adjoint and self.dtype.is_complex else self._diag
        x = linalg_ops.adjoint(x) if adjoint_arg else x
        return array_ops.expand_dims(diag, -1) * x

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        diag = math_ops.conj(self._diag) if adjoint and self.dtype.is_complex else self._diag
        rhs = linalg_ops.adjoint(rhs) if adjoint_arg else rhs
        return rhs / array_ops.expand_dims(diag, -1)

    def _to_dense(self):
        return linalg_ops.diag(self._diag)

    def _determinant(self):
        return reduction_ops.reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self):
        out = reduction_ops.reduce_sum(math_ops.log(math_ops.abs(self._diag)), axis=[-1])
        return cast(out, self.dtype) if self.dtype.is_complex else out

    def diag_part(self, name="diag_part"):
        return convert_to_tensor(self._diag) * array_ops.ones_like(self._diag)

    def trace(self, name="trace"):
        return reduction_ops.reduce_sum(self._diag, axis=-1)

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            return super().eigvals()  # (TF's error)
        return convert_to_tensor(self._diag)

    def add_to_tensor(self, x, name="add_to_tensor"):
        x = self._input(x)
        return linalg_ops.set_diag(x, linalg_ops.diag_part(x) + self._diag)

    def _inverse(self):
        return LinearOperatorDiag(1.0 / convert_to_tensor(self._diag),
                                  **self._hints(), is_square=True)

    def _adjoint(self):
        return LinearOperatorDiag(math_ops.conj(self._diag),
                                  **self._hints(), is_square=True)

    def _cholesky(self):
        return LinearOperatorDiag(math_ops.sqrt(self._diag), is_non_singular=True,
                                  is_self_adjoint=True, is_positive_definite=True,
                                  is_square=True)

    def _compose(self, other):
        diag = convert_to_tensor(self._diag)
        if isinstance(other, LinearOperatorDiag):
            return LinearOperatorDiag(diag * other._diag, **commuting_hints_of(self, other))
        if hasattr(other, "multiplier"):  # a scaled identity
            return LinearOperatorDiag(diag * other.multiplier, **commuting_hints_of(self, other))
        if isinstance(other, LinearOperatorLowerTriangular):
            return LinearOperatorLowerTriangular(
                array_ops.expand_dims(diag, -1) * other.to_dense(),
                is_non_singular=non_singular_of(self, other),
                is_self_adjoint=commuting_self_adjoint_of(self, other), is_square=True)
        return super()._compose(other)

    def _solve_operator(self, other):
        diag = convert_to_tensor(self._diag)
        if isinstance(other, LinearOperatorDiag):
            return LinearOperatorDiag(other._diag / diag, **commuting_hints_of(self, other))
        if hasattr(other, "multiplier"):  # a scaled identity
            return LinearOperatorDiag(other.multiplier / diag, **commuting_hints_of(self, other))
        if isinstance(other, LinearOperatorLowerTriangular):
            return LinearOperatorLowerTriangular(
                other.to_dense() / array_ops.expand_dims(diag, -1),
                is_non_singular=non_singular_of(self, other),
                is_self_adjoint=commuting_self_adjoint_of(self, other), is_square=True)
        return super()._solve_operator(other)


def all_true(flags):
    """True when every hint is True, else None (unknown)."""
    return True if all(flags) else None


def hints_of(operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None):
    """The hints given, each else True where every one of `operators` has it."""
    given = dict(is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                 is_positive_definite=is_positive_definite)
    return {k: v or all_true([getattr(op, k) for op in operators]) for k, v in given.items()}


@export("linalg.LinearOperatorLowerTriangular")
class LinearOperatorLowerTriangular(LinearOperator):
    """A (batch of) square lower-triangular matrices; the upper triangle of `tril` is
    ignored."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowerTriangular"):
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        self._tril = _keep_variable(tril)
        if self._tril.shape.rank is not None and self._tril.shape.rank < 2:
            raise ValueError(f"Argument tril must have at least 2 dimensions.  Found: "
                             f"{self._tril}")
        super().__init__(self._tril.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(tril=tril))

    def _shape(self):
        return self._tril.shape

    def _shape_tensor(self):
        return array_ops.shape(self._tril)

    def _lower(self):
        return linalg_ops.band_part(self._tril, -1, 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return linalg_ops.matmul(self._lower(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = linalg_ops.adjoint(rhs) if adjoint_arg else rhs
        return linalg_ops.triangular_solve(self._lower(), rhs, lower=True, adjoint=adjoint)

    def _to_dense(self):
        return self._lower()

    def diag_part(self, name="diag_part"):
        return linalg_ops.diag_part(self._tril)

    def _determinant(self):
        return reduction_ops.reduce_prod(linalg_ops.diag_part(self._tril), axis=[-1])

    def _log_abs_determinant(self):
        return reduction_ops.reduce_sum(
            math_ops.log(math_ops.abs(linalg_ops.diag_part(self._tril))), axis=[-1])

    def _compose(self, other):
        if isinstance(other, LinearOperatorDiag):
            return LinearOperatorLowerTriangular(
                self.to_dense() * array_ops.expand_dims(other.diag, -2),
                is_non_singular=non_singular_of(other, self),
                is_self_adjoint=commuting_self_adjoint_of(other, self), is_square=True)
        return super()._compose(other)


@export("linalg.LinearOperatorIdentity")
class LinearOperatorIdentity(LinearOperator):
    """The ``[N, N]`` identity (batched by `batch_shape`), held by its shape alone."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
                 is_self_adjoint=True, is_positive_definite=True, is_square=True,
                 assert_proper_shapes=False, name="LinearOperatorIdentity"):
        if not is_self_adjoint:
            raise ValueError("An identity operator is always self adjoint.")
        if not is_non_singular:
            raise ValueError("An identity operator is always non-singular.")
        if not is_positive_definite:
            raise ValueError("An identity operator is always positive-definite.")
        if not is_square:
            raise ValueError("An identity operator is always square.")
        self._num_rows, self._n = rows_of(num_rows)
        self._batch = [] if batch_shape is None else [int(b) for b in batch_shape]
        super().__init__(dtype or _d.float32, is_non_singular=True, is_self_adjoint=True,
                         is_positive_definite=True, is_square=True, name=name,
                         parameters=dict(num_rows=num_rows, batch_shape=batch_shape,
                                         dtype=dtype))

    def _shape(self):
        return TensorShape(self._batch + [self._num_rows, self._num_rows])

    def _shape_tensor(self):
        return convert_to_tensor(self._batch + [self._n, self._n], _d.int32)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = linalg_ops.adjoint(x) if adjoint_arg else x
        if not self._batch:
            return x
        batch = array_ops.broadcast_dynamic_shape(
            convert_to_tensor(self._batch, _d.int32), array_ops.shape(x)[:-2])
        return array_ops.broadcast_to(x, array_ops.concat([batch, array_ops.shape(x)[-2:]], 0))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        return array_ops.eye(self._n, batch_shape=self._batch or None, dtype=self.dtype)

    def diag_part(self, name="diag_part"):
        return array_ops.ones(convert_to_tensor(self._batch + [self._n], _d.int32), self.dtype)

    def trace(self, name="trace"):
        return array_ops.ones(self._batch, self.dtype) * cast(self._n, self.dtype)

    def _determinant(self):
        return array_ops.ones(self._batch, self.dtype)

    def _log_abs_determinant(self):
        return array_ops.zeros(self._batch, self.dtype)

    def add_to_tensor(self, x, name="add_to_tensor"):
        x = self._input(x)
        return linalg_ops.set_diag(x, linalg_ops.diag_part(x) + 1)

    def _inverse(self):
        return self

    def _cholesky(self):
        return self

    def _compose(self, other):
        return other

    def _solve_operator(self, other):
        return other


class _OperatorOf(LinearOperator):
    """An operator derived from one other `operator`, whose hints it inherits where none
    are given."""

    def _wrap(self, operator, suffix, name, is_non_singular, is_self_adjoint,
              is_positive_definite, is_square):
        self._operator = operator
        LinearOperator.__init__(
            self, operator.dtype,
            is_non_singular=is_non_singular or operator.is_non_singular,
            is_self_adjoint=is_self_adjoint or operator.is_self_adjoint,
            is_positive_definite=is_positive_definite or operator.is_positive_definite,
            is_square=is_square or operator.is_square,
            name=name or operator.name + suffix, parameters=dict(operator=operator))

    @property
    def operator(self):
        return self._operator


@export("linalg.LinearOperatorInversion")
class LinearOperatorInversion(_OperatorOf):
    """The inverse of a square, non-singular operator: products are its solves."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"Argument `is_non_singular` or argument `operator` must have "
                             f"supplied hint `is_non_singular` equal to `True` or `None`. "
                             f"Found `operator.is_non_singular`: {operator.is_non_singular}, "
                             f"`is_non_singular`: {is_non_singular}.")
        if operator.is_square is False or is_square is False:
            raise ValueError(f"Argument `is_square` or argument `operator` must have supplied "
                             f"hint `is_square` equal to `True` or `None`. Found "
                             f"`operator.is_square`: {operator.is_square}, `is_square`: "
                             f"{is_square}.")
        self._wrap(operator, "_inv", name, is_non_singular, is_self_adjoint,
                   is_positive_definite, is_square)

    def _shape(self):
        return self._operator.shape

    def _shape_tensor(self):
        return self._operator.shape_tensor()

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self):
        return -1.0 * self._operator.log_abs_determinant()

    def _inverse(self):
        return self._operator


@export("linalg.LinearOperatorAdjoint")
class LinearOperatorAdjoint(_OperatorOf):
    """The adjoint (conjugate transpose) of an operator."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        self._wrap(operator, "_adjoint", name, is_non_singular, is_self_adjoint,
                   is_positive_definite, is_square)

    def _shape(self):
        shape = self._operator.shape
        if shape.rank is None:
            return shape
        return shape[:-2].concatenate([shape[-1], shape[-2]])

    def _shape_tensor(self):
        shape = self._operator.shape_tensor()
        return array_ops.concat([shape[:-2], shape[-1:], shape[-2:-1]], 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        return linalg_ops.adjoint(self._operator.to_dense())

    def _determinant(self):
        det = self._operator.determinant()
        return math_ops.conj(det) if self.dtype.is_complex else det

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def _adjoint(self):
        return self._operator


@export("linalg.LinearOperatorComposition")
class LinearOperatorComposition(LinearOperator):
    """The product ``A1 @ A2 @ ... @ An`` of operators, applied right to left."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        operators = list(operators)
        if not operators:
            raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
        dtypes = {op.dtype for op in operators}
        if len(dtypes) > 1:
            raise TypeError("Expected all operators to have the same dtype.  Found "
                            + "   ".join(str((op.name, op.dtype)) for op in operators))
        for left, right in zip(operators, operators[1:]):
            _check_dims(left._domain_dim, right._range_dim)
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always "
                                 "non-singular.")
            is_non_singular = True
        self._operators = operators
        super().__init__(operators[0].dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_o_".join(op.name for op in operators),
                         parameters=dict(operators=operators))

    @property
    def operators(self):
        return list(self._operators)

    def _shape(self):
        return batch_of(self._operators).concatenate([self._operators[0]._range_dim,
                                  self._operators[-1]._domain_dim])

    def _shape_tensor(self):
        return array_ops.concat([batch_tensor_of(self._operators),
                                 self._operators[0].shape_tensor()[-2:-1],
                                 self._operators[-1].shape_tensor()[-1:]], 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        ops = self._operators if adjoint else self._operators[::-1]
        out = ops[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ops[1:]:
            out = op.matmul(out, adjoint=adjoint)
        return out

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        ops = self._operators[::-1] if adjoint else self._operators
        out = ops[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ops[1:]:
            out = op.solve(out, adjoint=adjoint)
        return out

    def _to_dense(self):
        out = self._operators[-1].to_dense()
        for op in self._operators[-2::-1]:
            out = op.matmul(out)
        return out

    def _determinant(self):
        return product_of(op.determinant() for op in self._operators)

    def _log_abs_determinant(self):
        return sum_of(op.log_abs_determinant() for op in self._operators)


# -- TF's linear algebra functions given operators ----------------------------------------------
# (a user's `tf.linalg.matmul(operator, x)` and the like run the operator's method)

@api_dispatch.dispatch_for_types(linalg_ops.matmul, LinearOperator, ("a", "b"))
def _matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
            a_is_sparse=False, b_is_sparse=False, name=None, **_):
    if transpose_a or transpose_b:
        raise ValueError("Transposing not supported at this time.")
    if a_is_sparse or b_is_sparse:
        raise ValueError("Packed sparse matmul not supported at this time.")
    if not isinstance(a, LinearOperator):  # (a b = (b^H a^H)^H)
        return linalg_ops.adjoint(b.matmul(a, adjoint=not adjoint_b, adjoint_arg=not adjoint_a))
    return a.matmul(b, adjoint=adjoint_a, adjoint_arg=adjoint_b)


@api_dispatch.dispatch_for_types(linalg_ops.solve, LinearOperator, ("matrix", "rhs"))
def _solve(matrix, rhs, adjoint=False, name=None):
    if not isinstance(matrix, LinearOperator):
        raise ValueError("Passing in `matrix` as a Tensor and `rhs` as a LinearOperator is not "
                         "supported.")
    return matrix.solve(rhs, adjoint=adjoint)


@api_dispatch.dispatch_for_types(linalg_ops.logdet, LinearOperator, ("matrix",))
def _logdet(matrix, name=None):
    if matrix.is_positive_definite and matrix.is_self_adjoint:
        return matrix.log_abs_determinant()
    raise ValueError("Expected matrix to be self-adjoint positive definite.")


@api_dispatch.dispatch_for_types(linalg_ops.inv, LinearOperator, ("input",))
def _inv(input, adjoint=False, name=None):  # noqa: A002 (TF's name)
    inverse = input.inverse()
    return inverse.adjoint() if adjoint else inverse


api_dispatch.dispatch_for_types(linalg_ops.det, LinearOperator, ("input",))(
    lambda input, name=None: input.determinant())  # noqa: A006
api_dispatch.dispatch_for_types(linalg_ops.trace, LinearOperator, ("x",))(
    lambda x, name=None: x.trace())
api_dispatch.dispatch_for_types(linalg_ops.cholesky, LinearOperator, ("input",))(
    lambda input, name=None: input.cholesky())  # noqa: A006
api_dispatch.dispatch_for_types(linalg_ops.adjoint, LinearOperator, ("matrix",))(
    lambda matrix, name=None: matrix.adjoint())
api_dispatch.dispatch_for_types(linalg_ops.diag_part, LinearOperator, ("input",))(
    lambda input, **_: input.diag_part())  # noqa: A006
