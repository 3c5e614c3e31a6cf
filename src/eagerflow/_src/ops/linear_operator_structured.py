"""More structured linear operators: scaled identities, zeros, permutations, Householder
reflections, Toeplitz, tridiagonal and circulant matrices, low-rank updates, and the
Kronecker product and block (diagonal, lower-triangular) arrangements of operators.

Each computes its products, solves and determinants from its structure where that is
cheap and falls back on the dense matrix (`LinearOperator`'s defaults) where TF does.

>>> tf.linalg.LinearOperatorPermutation([2, 0, 1]).matvec([1.0, 2.0, 3.0])
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([3., 1., 2.], dtype=float32)>
>>> tf.linalg.LinearOperatorHouseholder([0.0, 1.0]).determinant()
<tf.Tensor: shape=(), dtype=float32, numpy=-1.0>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.ops import array_ops, linalg_ops, math_ops, reduction_ops, signal_ops
from eagerflow._src.ops.cast_ops import cast
from eagerflow._src.ops.linear_operator import (
    LinearOperator, LinearOperatorDiag, LinearOperatorFullMatrix, _check_dims, _keep_variable,
    all_true, batch_of, batch_tensor_of, commuting_hints_of, hints_of, non_singular_of,
    product_of, rows_of, sum_of)
from eagerflow._src.ops.shape_rules import broadcast_shapes


def _adjoint_arg(x, adjoint_arg):
    return linalg_ops.adjoint(x) if adjoint_arg else x


def _last_dim(x):
    """The size of `x`'s last axis: an int where known statically, else a tensor."""
    n = x.shape[-1]
    return n if n is not None else array_ops.shape(x)[-1]


def _square_shape_tensor(vector_shape):
    """The shape ``[..., N, N]`` of an operator given by ``[..., N]`` vectors."""
    return array_ops.concat([vector_shape, vector_shape[-1:]], 0)


# -- scaled identity and zeros -------------------------------------------------------------

@export("linalg.LinearOperatorScaledIdentity")
class LinearOperatorScaledIdentity(LinearOperator):
    """``multiplier * I`` of size `num_rows`; a batch of multipliers gives a batch."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorScaledIdentity"):
        if is_square is False:
            raise ValueError("A ScaledIdentity operator is always square.")
        self._num_rows, self._n = rows_of(num_rows)
        self._multiplier = _keep_variable(multiplier)
        if self._multiplier.dtype.is_complex is False and is_self_adjoint is None:
            is_self_adjoint = True
        super().__init__(self._multiplier.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(num_rows=num_rows, multiplier=multiplier))

    @property
    def multiplier(self):
        return self._multiplier

    def _shape(self):
        return self._multiplier.shape.concatenate([self._num_rows, self._num_rows])

    def _shape_tensor(self):
        return array_ops.concat([array_ops.shape(self._multiplier), [self._n, self._n]], 0)

    def _scale(self, adjoint=False):
        m = convert_to_tensor(self._multiplier)
        m = math_ops.conj(m) if adjoint and self.dtype.is_complex else m
        return array_ops.expand_dims(array_ops.expand_dims(m, -1), -1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._scale(adjoint) * _adjoint_arg(x, adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return _adjoint_arg(rhs, adjoint_arg) / self._scale(adjoint)

    def _to_dense(self):
        return self._scale() * array_ops.eye(self._n, dtype=self.dtype)

    def _ones(self):
        return array_ops.ones(self.shape_tensor()[:-1], self.dtype)

    def diag_part(self, name="diag_part"):
        return self._scale()[..., 0] * self._ones()

    def trace(self, name="trace"):
        return convert_to_tensor(self._multiplier) * cast(self._n, self.dtype)

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            return super().eigvals()  # (TF's error)
        return self.diag_part()

    def cond(self, name="cond"):
        # one, in the operator's dtype, except for a zero multiplier (NaN), as TF's
        m = convert_to_tensor(self._multiplier)
        return array_ops.where(math_ops.equal(m, array_ops.zeros_like(m)),
                               cast(float("nan"), self.dtype), cast(1.0, self.dtype))

    def _determinant(self):
        return math_ops.pow(convert_to_tensor(self._multiplier),
                            cast(self._n, self.dtype))

    def _log_abs_determinant(self):
        # (real even for a complex multiplier, as TF's)
        out = math_ops.log(math_ops.abs(convert_to_tensor(self._multiplier)))
        return cast(self._n, out.dtype) * out

    def add_to_tensor(self, x, name="add_to_tensor"):
        x = self._input(x)
        return math_ops.add(x, self._to_dense())

    def _inverse(self):
        return LinearOperatorScaledIdentity(self._n,
                                            1.0 / convert_to_tensor(self._multiplier),
                                            **self._hints())

    def _adjoint(self):
        return LinearOperatorScaledIdentity(self._n,
                                            math_ops.conj(self._multiplier), **self._hints())

    def _cholesky(self):
        return LinearOperatorScaledIdentity(self._n, math_ops.sqrt(self._multiplier),
                                            is_non_singular=True, is_self_adjoint=True,
                                            is_positive_definite=True)

    def _compose(self, other):
        m = convert_to_tensor(self._multiplier)
        if isinstance(other, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(self._n, m * other._multiplier,
                                                **commuting_hints_of(self, other))
        if isinstance(other, LinearOperatorDiag):
            return LinearOperatorDiag(convert_to_tensor(other.diag) * m,
                                      **commuting_hints_of(self, other))
        return super()._compose(other)

    def _solve_operator(self, other):
        m = convert_to_tensor(self._multiplier)
        if isinstance(other, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(self._n, other._multiplier / m,
                                                **commuting_hints_of(self, other))
        if isinstance(other, LinearOperatorDiag):
            return LinearOperatorDiag(convert_to_tensor(other.diag) / m,
                                      **commuting_hints_of(self, other))
        return super()._solve_operator(other)


@export("linalg.LinearOperatorZeros")
class LinearOperatorZeros(LinearOperator):
    """The ``[num_rows, num_columns]`` zero matrix (batched by `batch_shape`)."""

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None,
                 is_non_singular=False, is_self_adjoint=True, is_positive_definite=False,
                 is_square=True, assert_proper_shapes=False, name="LinearOperatorZeros"):
        if is_non_singular:
            raise ValueError("A Zeros operator is always singular.")
        if is_positive_definite:
            raise ValueError("A Zeros operator is always not positive definite.")
        # (the hints checked first, as TF's: a self-adjoint operator must be square)
        super().__init__(dtype or _d.float32, is_non_singular=False,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=False,
                         is_square=is_square, name=name,
                         parameters=dict(num_rows=num_rows, num_columns=num_columns,
                                         batch_shape=batch_shape, dtype=dtype))
        num_columns = num_rows if num_columns is None else num_columns
        (self._rows, self._m), (self._columns, self._n) = rows_of(num_rows), \
            rows_of(num_columns, "num_columns")
        if is_square and None not in (self._rows, self._columns) and \
                self._rows != self._columns:
            raise ValueError(f"LinearOperatorZeros initialized as is_square=True, but got "
                             f"num_rows({self._rows}) != num_columns({self._columns})")
        self._batch = [] if batch_shape is None else [int(b) for b in batch_shape]

    _IS_ZEROS = True

    def _shape(self):
        return TensorShape(self._batch + [self._rows, self._columns])

    def _shape_tensor(self):
        return convert_to_tensor(self._batch + [self._m, self._n], _d.int32)

    def _compose(self, other):
        if not self.is_square or not other.is_square:
            raise ValueError("Matmul with non-square `LinearOperator`s or non-square "
                             "`LinearOperatorZeros` not supported at this time.")
        return self

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_arg(x, adjoint_arg)
        rows = self._n if adjoint else self._m
        batch = array_ops.broadcast_dynamic_shape(convert_to_tensor(self._batch, _d.int32),
                                                  array_ops.shape(x)[:-2])
        return array_ops.zeros(array_ops.concat([batch, [rows], array_ops.shape(x)[-1:]], 0),
                               self.dtype)

    def _to_dense(self):
        return array_ops.zeros(self.shape_tensor(), self.dtype)

    def diag_part(self, name="diag_part"):
        return array_ops.zeros(convert_to_tensor(
            self._batch + [math_ops.minimum(self._m, self._n)], _d.int32), self.dtype)

    def trace(self, name="trace"):
        return array_ops.zeros(self._batch, self.dtype)

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            return super().eigvals()  # (TF's error)
        return self.diag_part()

    def _determinant(self):
        return array_ops.zeros(self._batch, self.dtype)

    def add_to_tensor(self, x, name="add_to_tensor"):
        return self._input(x) + self._to_dense()

    def _adjoint(self):
        if self._rows is None or self._rows != self._columns:
            return super()._adjoint()
        return LinearOperatorZeros(self._m, self._n, self._batch, self.dtype)


# -- permutations and reflections ----------------------------------------------------------

@export("linalg.LinearOperatorPermutation")
class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix of `perm`: row ``i`` has its one at column ``perm[i]`` (so
    ``(P x)[i] = x[perm[i]]``)."""

    def __init__(self, perm, dtype=_d.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        self._perm = convert_to_tensor(perm)
        if not self._perm.dtype.is_integer:
            raise TypeError(f"Argument `perm` must be integer dtype. Received: "
                            f"{self._perm.numpy()}.")
        if is_non_singular is False:
            raise ValueError("A Permutation operator is always non-singular.")
        if is_square is False:
            raise ValueError("A Permutation operator is always square.")
        super().__init__(dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(perm=perm, dtype=dtype))

    @property
    def perm(self):
        return self._perm

    def _shape(self):
        n = self._perm.shape[-1]
        return self._perm.shape.concatenate([n])

    def _shape_tensor(self):
        return _square_shape_tensor(array_ops.shape(self._perm))

    def _order(self, adjoint):
        batch = self._perm.shape.rank - 1
        return (reduction_ops.argsort(self._perm, axis=-1) if adjoint else self._perm), batch

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        order, _ = self._order(adjoint)
        x = _adjoint_arg(x, adjoint_arg)
        # as TF: both broadcast to one batch, flattened, rows gathered per batch member
        a = array_ops
        lead = a.broadcast_dynamic_shape(a.shape(x)[:-1], a.shape(order))
        full = a.concat([lead, a.shape(x)[-1:]], 0)
        x, order = a.broadcast_to(x, full), a.broadcast_to(order, lead)
        rows = a.shape(x)[-2:]
        y = a.gather(a.reshape(x, a.concat([[-1], rows], 0)), a.reshape(order, [-1, rows[0]]),
                     axis=1, batch_dims=1)
        return a.reshape(y, full)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        return array_ops.one_hot(self._perm, _last_dim(self._perm), dtype=self.dtype)

    def _log_abs_determinant(self):  # (|det| of a permutation is 1; no dense warning, as TF)
        return array_ops.zeros(self.batch_shape_tensor(), self.dtype)


@export("linalg.LinearOperatorHouseholder")
class LinearOperatorHouseholder(LinearOperator):
    """The reflection ``I - 2 v v^H / (v^H v)`` across the hyperplane orthogonal to
    `reflection_axis` ``v``: self-adjoint, its own inverse, of determinant -1."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorHouseholder"):
        self._axis = _keep_variable(reflection_axis)
        if is_self_adjoint is False:
            raise ValueError("A Householder operator is always self adjoint.")
        if is_non_singular is False:
            raise ValueError("A Householder operator is always non-singular.")
        if is_positive_definite is True:
            raise ValueError("A Householder operator is always non-positive definite.")
        if is_square is False:
            raise ValueError("A Householder operator is always square.")
        super().__init__(self._axis.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=True, is_positive_definite=False, is_square=True,
                         name=name, parameters=dict(reflection_axis=reflection_axis))

    @property
    def reflection_axis(self):
        return self._axis

    def _shape(self):
        return self._axis.shape.concatenate(self._axis.shape[-1:])

    def _shape_tensor(self):
        return _square_shape_tensor(array_ops.shape(self._axis))

    def _unit(self):
        v = convert_to_tensor(self._axis)
        return reduction_ops.l2_normalize(v, axis=-1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_arg(x, adjoint_arg)
        u = array_ops.expand_dims(self._unit(), -1)
        return x - 2 * u * linalg_ops.matmul(u, x, adjoint_a=True)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        u = array_ops.expand_dims(self._unit(), -1)
        return (array_ops.eye(_last_dim(self._axis), dtype=self.dtype)
                - 2 * linalg_ops.matmul(u, u, adjoint_b=True))

    def diag_part(self, name="diag_part"):
        u = self._unit()
        return 1 - 2 * cast(math_ops.real(u * math_ops.conj(u)) if self.dtype.is_complex
                            else u * u, self.dtype)

    def trace(self, name="trace"):
        shape = self._axis.shape
        return cast(array_ops.ones(shape[:-1].as_list()) * (shape[-1] - 2), self.dtype)

    def cond(self, name="cond"):
        # (a reflection's is exactly one, in the operator's dtype, as TF's)
        return array_ops.ones(array_ops.shape(self._axis)[:-1], self.dtype)

    def eigvals(self, name="eigvals"):
        n = self._axis.shape[-1]
        return cast(array_ops.concat([[-1.0], array_ops.ones([n - 1])], 0), self.dtype) * \
            array_ops.ones(self._axis.shape.as_list(), self.dtype)

    def _determinant(self):
        return -array_ops.ones(self._axis.shape[:-1].as_list(), self.dtype)

    def _log_abs_determinant(self):
        return array_ops.zeros(self._axis.shape[:-1].as_list(), self.dtype)

    def _inverse(self):
        return self

    def _adjoint(self):
        return self


# -- Toeplitz, tridiagonal and circulant matrices ------------------------------------------

@export("linalg.LinearOperatorToeplitz")
class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix whose first column is `col` and first row `row` (``row[0]`` is
    not read: the diagonal is ``col[0]``)."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorToeplitz"):
        self._col, self._row = _keep_variable(col), _keep_variable(row)
        if is_square is False:
            raise ValueError("Only square Toeplitz operators currently supported.")
        super().__init__(self._col.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(col=col, row=row))

    @property
    def col(self):
        return self._col

    @property
    def row(self):
        return self._row

    def _shape(self):
        batch = broadcast_shapes(self._col.shape[:-1], self._row.shape[:-1])
        return batch.concatenate([self._col.shape[-1], self._col.shape[-1]])

    def _shape_tensor(self):
        col, row = array_ops.shape(self._col), array_ops.shape(self._row)
        return _square_shape_tensor(array_ops.concat([
            array_ops.broadcast_dynamic_shape(col[:-1], row[:-1]), col[-1:]], 0))

    def _to_dense(self):
        n = _last_dim(self._col)
        # entry (i, j): col[i - j] below the diagonal, row[j - i] above it
        col, row = convert_to_tensor(self._col), convert_to_tensor(self._row)
        if col.shape != row.shape:  # (a batch of columns with one row, or the reverse)
            shape = array_ops.broadcast_dynamic_shape(array_ops.shape(col),
                                                      array_ops.shape(row))
            col, row = array_ops.broadcast_to(col, shape), array_ops.broadcast_to(row, shape)
        values = array_ops.concat([row[..., :0:-1], col], -1)
        if isinstance(n, int):
            index = (np.arange(n)[:, None] - np.arange(n)[None, :]) + (n - 1)
        else:
            steps = array_ops.range(n)
            index = array_ops.expand_dims(steps, 1) - array_ops.expand_dims(steps, 0) + (n - 1)
        return array_ops.gather(values, index, axis=-1)

    def diag_part(self, name="diag_part"):
        col = convert_to_tensor(self._col)
        return col[..., :1] * array_ops.ones_like(col)


@export("linalg.LinearOperatorTridiag")
class LinearOperatorTridiag(LinearOperator):
    """A square tridiagonal matrix, from its three diagonals: ``"compact"`` (a ``[..., 3,
    N]`` tensor of superdiagonal, diagonal, subdiagonal; the superdiagonal's last and the
    subdiagonal's first entries are not read), ``"sequence"`` (those three as a list) or
    ``"matrix"`` (a full matrix whose tridiagonal part is read)."""

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorTridiag"):
        if diagonals_format not in ("compact", "matrix", "sequence"):
            raise ValueError(f"Argument `diagonals_format` must be one of compact, matrix, "
                             f"sequence. Received : {diagonals_format}.")
        if is_square is False:
            raise ValueError("Tridiagonal operators are always square.")
        self._format = diagonals_format
        if diagonals_format == "sequence":
            self._diagonals = [convert_to_tensor(d) for d in diagonals]
            dtype = self._diagonals[0].dtype
        else:
            self._diagonals = _keep_variable(diagonals)
            dtype = self._diagonals.dtype
        super().__init__(dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(diagonals=diagonals, diagonals_format=diagonals_format))

    @property
    def diagonals(self):
        return self._diagonals

    @property
    def diagonals_format(self):
        return self._format

    def _three(self):
        if self._format == "sequence":
            return self._diagonals
        d = convert_to_tensor(self._diagonals)
        if self._format == "compact":
            return d[..., 0, :], d[..., 1, :], d[..., 2, :]
        return (array_ops.pad(linalg_ops.diag_part(d, k=1), [[0, 0]] * (d.shape.rank - 2)
                              + [[0, 1]]),
                linalg_ops.diag_part(d),
                array_ops.pad(linalg_ops.diag_part(d, k=-1), [[0, 0]] * (d.shape.rank - 2)
                              + [[1, 0]]))

    def _shape(self):
        if self._format == "matrix":
            return self._diagonals.shape
        if self._format == "sequence":
            shape = self._diagonals[1].shape
        else:
            shape = self._diagonals.shape[:-2].concatenate(self._diagonals.shape[-1:])
        return shape.concatenate(shape[-1:])

    def _shape_tensor(self):
        if self._format == "matrix":
            return array_ops.shape(self._diagonals)
        if self._format == "sequence":
            return _square_shape_tensor(array_ops.shape(self._diagonals[1]))
        shape = array_ops.shape(self._diagonals)
        return _square_shape_tensor(array_ops.concat([shape[:-2], shape[-1:]], 0))

    def _to_dense(self):
        if self._format == "matrix":  # (as given, as TF's: products read its three diagonals)
            return convert_to_tensor(self._diagonals)
        return self._tridiagonal()

    def _tridiagonal(self):
        upper, middle, lower = self._three()
        return (linalg_ops.diag(middle) + linalg_ops.diag(upper[..., :-1], k=1)
                + linalg_ops.diag(lower[..., 1:], k=-1))

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return linalg_ops.matmul(self._tridiagonal(), x, adjoint_a=adjoint,
                                 adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        # (the dense solve, which broadcasts a batch of matrices with the right side's)
        return LinearOperatorFullMatrix(self._tridiagonal())._solve(
            rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def diag_part(self, name="diag_part"):
        return self._three()[1]


class _Circulant(LinearOperator):
    """A block circulant operator of `block_depth` levels: the product with the
    inverse of an N-D Fourier transform, `spectrum`, and the transform. (Unnamed, an
    operator takes its class's name.)"""

    _DEPTH = 1
    _TRANSFORMS = {1: (signal_ops.fft, signal_ops.ifft), 2: (signal_ops.fft2d, signal_ops.ifft2d),
                   3: (signal_ops.fft3d, signal_ops.ifft3d)}

    def __init__(self, spectrum, input_output_dtype=_d.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True, name=None):
        if is_square is False:
            raise ValueError("A circulant operator is always square.")
        spectrum = convert_to_tensor(spectrum)
        if not spectrum.dtype.is_complex:
            spectrum = cast(spectrum, _d.complex128 if spectrum.dtype == _d.float64
                            else _d.complex64)
        self._spectrum = spectrum
        dtype = _d.as_dtype(input_output_dtype)
        if not dtype.is_complex and is_self_adjoint is None:
            is_self_adjoint = True  # a real operator's spectrum is Hermitian
        super().__init__(dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True,
                         name=name or type(self).__name__,
                         parameters=dict(spectrum=spectrum,
                                         input_output_dtype=input_output_dtype))

    @property
    def spectrum(self):
        return self._spectrum

    @property
    def block_depth(self):
        return self._DEPTH

    def block_shape_tensor(self):
        return array_ops.shape(self._spectrum)[-self._DEPTH:]

    def _shape(self):
        shape = self._spectrum.shape
        block = shape[-self._DEPTH:].as_list()
        n = None if None in block else int(np.prod(block))
        return shape[:-self._DEPTH].concatenate([n, n])

    def _shape_tensor(self):
        shape = array_ops.shape(self._spectrum)
        n = reduction_ops.reduce_prod(shape[-self._DEPTH:], keepdims=True)
        return array_ops.concat([shape[:-self._DEPTH], n, n], 0)

    def _output(self, y):
        return y if self.dtype.is_complex else cast(math_ops.real(y), self.dtype)

    def _apply(self, x, spectrum):
        """``ifft(spectrum * fft(x))`` over the blocks of each column of `x`."""
        forward, inverse = self._TRANSFORMS[self._DEPTH]
        x = cast(x, self._spectrum.dtype)
        columns = linalg_ops.matrix_transpose(x)  # [..., k, n]
        block = self.block_shape_tensor()
        shaped = array_ops.reshape(columns, array_ops.concat(
            [array_ops.shape(columns)[:-1], block], 0))
        spectrum = array_ops.expand_dims(spectrum, -self._DEPTH - 1)
        y = inverse(spectrum * forward(shaped))
        y = array_ops.reshape(y, array_ops.shape(columns))
        return self._output(linalg_ops.matrix_transpose(y))

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        spectrum = math_ops.conj(self._spectrum) if adjoint else self._spectrum
        return self._apply(_adjoint_arg(x, adjoint_arg), spectrum)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        spectrum = math_ops.conj(self._spectrum) if adjoint else self._spectrum
        return self._apply(_adjoint_arg(rhs, adjoint_arg), 1.0 / spectrum)

    def _to_dense(self):
        return self._matmul(array_ops.eye(self.shape_tensor()[-1], dtype=self.dtype))

    def convolution_kernel(self, name="convolution_kernel"):
        # (in the operator's dtype, as TF's: a real operator's kernel is cast, with the
        # warning such a cast gives)
        return cast(self._TRANSFORMS[self._DEPTH][1](self._spectrum), self.dtype)

    def _flat_spectrum(self):
        return array_ops.reshape(self._spectrum, array_ops.concat(
            [array_ops.shape(self._spectrum)[:-self._DEPTH], [-1]], 0))

    def diag_part(self, name="diag_part"):
        mean = reduction_ops.reduce_mean(self._flat_spectrum(), axis=-1, keepdims=True)
        return self._output(mean * array_ops.ones(self.shape_tensor()[:-1], mean.dtype))

    def trace(self, name="trace"):
        return self._output(reduction_ops.reduce_sum(self._flat_spectrum(), axis=-1))

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            return super().eigvals()  # (TF's error)
        return self._output(self._flat_spectrum())

    def _determinant(self):
        return self._output(reduction_ops.reduce_prod(self._flat_spectrum(), axis=-1))

    def _log_abs_determinant(self):
        out = reduction_ops.reduce_sum(math_ops.log(math_ops.abs(self._flat_spectrum())),
                                       axis=-1)
        return cast(out, self.dtype)

    def _like(self, spectrum):
        return type(self)(spectrum, input_output_dtype=self.dtype, **self._hints())

    def _compose(self, other):
        if type(other) is not type(self):
            return super()._compose(other)
        return type(self)(self._spectrum * other._spectrum, input_output_dtype=self.dtype,
                          **commuting_hints_of(self, other), is_square=True)

    def _solve_operator(self, other):
        if type(other) is not type(self):
            return super()._solve_operator(other)
        return type(self)(other._spectrum / self._spectrum, input_output_dtype=self.dtype,
                          **commuting_hints_of(self, other), is_square=True)

    def _inverse(self):
        return self._like(1.0 / self._spectrum)

    def _adjoint(self):
        return self._like(math_ops.conj(self._spectrum))


@export("linalg.LinearOperatorCirculant")
class LinearOperatorCirculant(_Circulant):
    """A circulant matrix given by `spectrum`, its eigenvalues (the Fourier transform of
    its first column, `convolution_kernel()`).

    >>> c = tf.linalg.LinearOperatorCirculant([6.0, 1.0, 1.0], input_output_dtype=tf.float32)
    >>> c.to_dense().numpy().astype(float).round(4).tolist()
    [[2.6667, 1.6667, 1.6667], [1.6667, 2.6667, 1.6667], [1.6667, 1.6667, 2.6667]]
    """


@export("linalg.LinearOperatorCirculant2D")
class LinearOperatorCirculant2D(_Circulant):
    """A block circulant matrix with circulant blocks, from its ``[..., N0, N1]``
    spectrum (the 2-D Fourier transform of its kernel)."""

    _DEPTH = 2


@export("linalg.LinearOperatorCirculant3D")
class LinearOperatorCirculant3D(_Circulant):
    """Circulant of circulant of circulant blocks, from a ``[..., N0, N1, N2]`` spectrum."""

    _DEPTH = 3


# -- low-rank updates ----------------------------------------------------------------------

@export("linalg.LinearOperatorLowRankUpdate")
class LinearOperatorLowRankUpdate(LinearOperator):
    """``L + U D V^H``: `base_operator` ``L`` plus a rank-``k`` update (``V = U`` and
    ``D = I`` unless given; `diag_update` is ``D``'s diagonal). Solves use the Woodbury
    identity and determinants the matrix determinant lemma, through the small
    ``k x k`` capacitance matrix ``D^-1 + V^H L^-1 U``."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorLowRankUpdate"):
        self._base = base_operator
        self._u = _keep_variable(u, base_operator.dtype)
        self._v = self._u if v is None else _keep_variable(v, base_operator.dtype)
        self._diag_update = (None if diag_update is None
                             else _keep_variable(diag_update, base_operator.dtype))
        self._is_diag_update_positive = is_diag_update_positive
        if v is None and diag_update is None and is_self_adjoint is None and \
                base_operator.is_self_adjoint:
            is_self_adjoint = True  # L + U U^H
        super().__init__(base_operator.dtype, is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name, parameters=dict(base_operator=base_operator, u=u,
                                                    diag_update=diag_update, v=v))

    @property
    def base_operator(self):
        return self._base

    @property
    def u(self):
        return self._u

    @property
    def v(self):
        return self._v

    @property
    def diag_update(self):
        return self._diag_update

    @property
    def is_diag_update_positive(self):
        return self._is_diag_update_positive

    def _shape(self):
        return self._base.shape

    def _shape_tensor(self):
        return self._base.shape_tensor()

    def _scaled(self, x):
        """``D x`` for the update's diagonal ``D``."""
        if self._diag_update is None:
            return x
        return array_ops.expand_dims(convert_to_tensor(self._diag_update), -1) * x

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_arg(x, adjoint_arg)
        left, right = (self._v, self._u) if adjoint else (self._u, self._v)
        update = linalg_ops.matmul(left, self._scaled_adjoint(
            linalg_ops.matmul(right, x, adjoint_a=True), adjoint))
        return self._base.matmul(x, adjoint=adjoint) + update

    def _scaled_adjoint(self, x, adjoint):
        if self._diag_update is None:
            return x
        d = convert_to_tensor(self._diag_update)
        d = math_ops.conj(d) if adjoint and self.dtype.is_complex else d
        return array_ops.expand_dims(d, -1) * x

    def _capacitance(self):
        """``D^-1 + V^H L^-1 U``."""
        inner = linalg_ops.matmul(self._v, self._base.solve(self._u), adjoint_a=True)
        k = _last_dim(self._u)
        d_inv = (array_ops.eye(k, dtype=self.dtype) if self._diag_update is None
                 else linalg_ops.diag(1.0 / convert_to_tensor(self._diag_update)))
        return d_inv + inner

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint_arg(rhs, adjoint_arg)
        if adjoint:
            return LinearOperatorLowRankUpdate(
                self._base.adjoint(), self._v, None if self._diag_update is None
                else math_ops.conj(self._diag_update), self._u)._solve(rhs)
        base_rhs = self._base.solve(rhs)
        correction = linalg_ops.solve(self._capacitance(),
                                      linalg_ops.matmul(self._v, base_rhs, adjoint_a=True))
        return base_rhs - self._base.solve(linalg_ops.matmul(self._u, correction))

    def _to_dense(self):
        return self._base.to_dense() + linalg_ops.matmul(self._u, self._scaled(
            linalg_ops.adjoint(self._v)))

    def _determinant(self):
        return math_ops.exp(self._log_abs_determinant()) if self._can_use_cholesky() else \
            self._base.determinant() * linalg_ops.det(self._capacitance()) * \
            self._diag_determinant()

    def _diag_determinant(self):
        if self._diag_update is None:
            return cast(1.0, self.dtype)
        return reduction_ops.reduce_prod(self._diag_update, axis=-1)

    def _log_abs_determinant(self):
        _, capacitance = linalg_ops.slogdet(self._capacitance())
        out = self._base.log_abs_determinant() + capacitance
        if self._diag_update is not None:
            out = out + reduction_ops.reduce_sum(
                math_ops.log(math_ops.abs(self._diag_update)), axis=-1)
        return out


# -- Kronecker products and block arrangements ---------------------------------------------

def _same_dtype(operators, what):
    operators = list(operators)
    if not operators:
        raise ValueError(f"Argument `operators` must be a list of >=1 operators. Received: "
                         f"{operators}.")
    if len({op.dtype for op in operators}) > 1:
        found = [str((op.name, op.dtype)) for op in operators]
        if what == "Kronecker":
            raise TypeError(f"Expected every operation in argument `operators` to have the "
                            f"same dtype. Received {found}.")
        raise TypeError(f"Expected all operators to have the same dtype.  Found "
                        f"{'   '.join(found)}")
    return operators


def _sizes(operators, axis):
    """The operators' sizes along `axis` (-1 columns, -2 rows): ints where all are known
    statically, else an int32 tensor (inside a `tf.function` with unknown dimensions)."""
    static = [op.shape[axis] if op.shape.rank is not None else None for op in operators]
    if None not in static:
        return static
    return array_ops.stack([op.shape_tensor()[axis] for op in operators])


def _total(sizes):
    """The sum of `_sizes`: an int, or None where they are a tensor."""
    return sum(sizes) if isinstance(sizes, list) else None


def _total_tensor(operators, axis):
    return reduction_ops.reduce_sum(array_ops.stack([op.shape_tensor()[axis]
                                                     for op in operators]), keepdims=True)


def _concat_batches(parts, axis):
    """`parts` (blocks' results, of batch shapes that broadcast) joined along `axis` (-1
    or -2), each broadcast to their common batch shape first."""
    if len({tuple(p.shape.as_list()[:axis]) if p.shape.rank is not None else None
            for p in parts}) > 1 or any(p.shape.rank is None for p in parts):
        keep = -axis  # the trailing dimensions each keeps
        batch = array_ops.shape(parts[0])[:-keep]
        for p in parts[1:]:
            batch = array_ops.broadcast_dynamic_shape(batch, array_ops.shape(p)[:-keep])
        parts = [array_ops.broadcast_to(p, array_ops.concat([batch, array_ops.shape(p)[-keep:]],
                                                            0)) for p in parts]
    return array_ops.concat(parts, axis)


def _dense_blocks(rows, batch):
    """A dense matrix from a grid of dense blocks, each broadcast to the `batch` shape (a
    shape tensor)."""
    def spread(block):
        return array_ops.broadcast_to(block, array_ops.concat([batch,
                                                               array_ops.shape(block)[-2:]], 0))
    return array_ops.concat([array_ops.concat([spread(b) for b in row], -1) for row in rows],
                            -2)


@export("linalg.LinearOperatorKronecker")
class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product ``A1 x A2 x ... x An`` of `operators`."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        self._operators = _same_dtype(operators, "Kronecker")
        super().__init__(self._operators[0].dtype,
                         **hints_of(self._operators, is_non_singular, is_self_adjoint,
                                    is_positive_definite),
                         is_square=is_square,
                         name=name or "_x_".join(op.name for op in self._operators),
                         parameters=dict(operators=self._operators))

    @property
    def operators(self):
        return list(self._operators)

    def _shape(self):
        rows, cols = 1, 1
        for op in self._operators:
            rows = None if rows is None or op._range_dim is None else rows * op._range_dim
            cols = None if cols is None or op._domain_dim is None else cols * op._domain_dim
        return batch_of(self._operators).concatenate([rows, cols])

    def _shape_tensor(self):
        shapes = [op.shape_tensor() for op in self._operators]
        return array_ops.concat([batch_tensor_of(self._operators),
                                 product_of(shape[-2:] for shape in shapes)], 0)

    def _to_dense(self):
        out = self._operators[0].to_dense()
        for op in self._operators[1:]:
            right = op.to_dense()
            rows_cols = array_ops.shape(out)[-2:] * array_ops.shape(right)[-2:]
            product = array_ops.expand_dims(array_ops.expand_dims(out, -1), -3) * \
                array_ops.expand_dims(array_ops.expand_dims(right, -3), -2)
            out = array_ops.reshape(product, array_ops.concat(
                [array_ops.shape(product)[:-4], rows_cols], 0))
        return out

    def diag_part(self, name="diag_part"):
        out = self._operators[0].diag_part()
        for op in self._operators[1:]:
            d = op.diag_part()
            out = array_ops.reshape(array_ops.expand_dims(out, -1) * array_ops.expand_dims(d, -2),
                                    array_ops.concat([array_ops.shape(out)[:-1], [-1]], 0))
        return out

    def trace(self, name="trace"):
        return product_of(op.trace() for op in self._operators)

    def _repeats(self, op, dtype):
        """How many times `op`'s determinant appears in the product's (N / its size)."""
        n, size = self._domain_dim, op._domain_dim
        if n is None or size is None:
            n, size = self.shape_tensor()[-1], op.shape_tensor()[-1]
        return cast(n // size, dtype)

    def _determinant(self):
        out = cast(1.0, self.dtype)
        for op in self._operators:
            out = out * math_ops.pow(op.determinant(), self._repeats(op, self.dtype))
        return out

    def _log_abs_determinant(self):
        out = 0.0
        for op in self._operators:
            log_det = op.log_abs_determinant()
            out = out + self._repeats(op, log_det.dtype) * log_det
        return out

    def _inverse(self):
        return LinearOperatorKronecker([op.inverse() for op in self._operators],
                                       **self._hints(),
                                       is_square=True)

    def _adjoint(self):
        return LinearOperatorKronecker([op.adjoint() for op in self._operators],
                                       **self._hints(),
                                       is_square=True)


@export("linalg.LinearOperatorBlockDiag")
class LinearOperatorBlockDiag(LinearOperator):
    """`operators` as the blocks of a block-diagonal matrix."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        self._operators = _same_dtype(operators, "BlockDiag")
        super().__init__(self._operators[0].dtype,
                         **hints_of(self._operators, is_non_singular, is_self_adjoint,
                                    is_positive_definite),
                         is_square=True if all(op.is_square for op in self._operators)
                         else None,
                         name=name or "_ds_".join(op.name for op in self._operators),
                         parameters=dict(operators=self._operators))

    @property
    def operators(self):
        return list(self._operators)

    def _shape(self):
        return batch_of(self._operators).concatenate([_total(_sizes(self._operators, -2)),
                                                      _total(_sizes(self._operators, -1))])

    def _shape_tensor(self):
        return array_ops.concat([batch_tensor_of(self._operators),
                                 _total_tensor(self._operators, -2),
                                 _total_tensor(self._operators, -1)], 0)

    def _by_blocks(self, x, method, **kwargs):
        """`method` of each operator on its block of `x` when `x` is a list of one block per
        operator (as TF's, a list whose items are not themselves lists): the list of results;
        else None."""
        if not isinstance(x, (list, tuple)) or len(x) != len(self._operators) or any(
                isinstance(block, (list, tuple)) for block in x):
            return None
        return [getattr(op, method)(block, **kwargs) for op, block in zip(self._operators, x)]

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """``op(A) @ op(x)``; for `x` a list of blocks, the list of each block's product.

        >>> op = tf.linalg.LinearOperatorBlockDiag(
        ...     [tf.linalg.LinearOperatorDiag([2.0]), tf.linalg.LinearOperatorDiag([3.0, 4.0])])
        >>> [y.numpy().tolist() for y in op.matmul([tf.ones([1, 1]), tf.ones([2, 1])])]
        [[[2.0]], [[3.0], [4.0]]]
        """
        blocks = self._by_blocks(x, "matmul", adjoint=adjoint, adjoint_arg=adjoint_arg)
        return super().matmul(x, adjoint, adjoint_arg, name) if blocks is None else blocks

    def matvec(self, x, adjoint=False, name="matvec"):
        blocks = self._by_blocks(x, "matvec", adjoint=adjoint)
        return super().matvec(x, adjoint, name) if blocks is None else blocks

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """``op(A)^-1 @ op(rhs)``; for `rhs` a list of blocks, the list of each block's."""
        blocks = self._by_blocks(rhs, "solve", adjoint=adjoint, adjoint_arg=adjoint_arg)
        return super().solve(rhs, adjoint, adjoint_arg, name) if blocks is None else blocks

    def solvevec(self, rhs, adjoint=False, name="solve"):
        blocks = self._by_blocks(rhs, "solvevec", adjoint=adjoint)
        return super().solvevec(rhs, adjoint, name) if blocks is None else blocks

    def _blockwise(self, x, method, adjoint, sizes):
        parts = array_ops.split(x, sizes, axis=-2)
        return _concat_batches([getattr(op, method)(part, adjoint=adjoint)
                                for op, part in zip(self._operators, parts)], -2)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint_arg(x, adjoint_arg)
        sizes = _sizes(self._operators, -2 if adjoint else -1)
        return self._blockwise(x, "matmul", adjoint, sizes)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint_arg(rhs, adjoint_arg)
        return self._blockwise(rhs, "solve", adjoint,
                               _sizes(self._operators, -1))

    def _to_dense(self):
        ops = self._operators
        return _dense_blocks([[a.to_dense() if a is b else
                               array_ops.zeros(array_ops.stack([a.shape_tensor()[-2],
                                                                b.shape_tensor()[-1]]),
                                               self.dtype) for b in ops] for a in ops],
                             self.batch_shape_tensor())

    def diag_part(self, name="diag_part"):
        return _concat_batches([op.diag_part() for op in self._operators], -1)

    def _determinant(self):
        return product_of(op.determinant() for op in self._operators)

    def _log_abs_determinant(self):
        return sum_of(op.log_abs_determinant() for op in self._operators)

    def eigvals(self, name="eigvals"):
        return array_ops.concat([op.eigvals() for op in self._operators], -1)

    def _compose(self, other):
        if not isinstance(other, LinearOperatorBlockDiag):
            return super()._compose(other)
        return LinearOperatorBlockDiag(
            [a.matmul(b) for a, b in zip(self._operators, other._operators)],
            is_non_singular=non_singular_of(self, other), is_square=True)

    def _solve_operator(self, other):
        if not isinstance(other, LinearOperatorBlockDiag):
            return super()._solve_operator(other)
        return LinearOperatorBlockDiag(
            [a.solve(b) for a, b in zip(self._operators, other._operators)],
            is_non_singular=non_singular_of(self, other), is_square=True)

    def _inverse(self):
        return LinearOperatorBlockDiag([op.inverse() for op in self._operators],
                                       **self._hints())

    def _adjoint(self):
        return LinearOperatorBlockDiag([op.adjoint() for op in self._operators],
                                       **self._hints())


@export("linalg.LinearOperatorBlockLowerTriangular")
class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A square block lower-triangular matrix: `operators[i]` holds row ``i``'s blocks
    ``0..i`` (its last, ``operators[i][i]``, square, on the diagonal)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorBlockLowerTriangular"):
        rows = [list(row) for row in operators]
        if not rows:
            raise ValueError(f"Argument `operators` must be a list of >=1 operators. "
                             f"Received: {operators}.")
        for i, row in enumerate(rows):
            if len(row) != i + 1:
                raise ValueError(f"Argument `operators[{i}]` must contain {i + 1} blocks. "
                                 f"Received: {len(row)} blocks.")
        _same_dtype([op for row in rows for op in row], "BlockLowerTriangular")
        for i, row in enumerate(rows):
            for j, op in enumerate(row):
                _check_dims(rows[j][j]._domain_dim, op._domain_dim)
                _check_dims(row[i]._range_dim, op._range_dim)
        self._rows = rows
        diagonal = [row[-1] for row in rows]
        super().__init__(rows[0][0].dtype,
                         is_non_singular=is_non_singular
                         or all_true([op.is_non_singular for op in diagonal]),
                         is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=dict(operators=rows))

    @property
    def operators(self):
        return [list(row) for row in self._rows]

    def _diagonal(self):
        return [row[-1] for row in self._rows]

    def _shape(self):
        n = _total(_sizes(self._diagonal(), -1))
        return batch_of(op for row in self._rows for op in row).concatenate([n, n])

    def _shape_tensor(self):
        n = _total_tensor(self._diagonal(), -1)
        return array_ops.concat([batch_tensor_of([op for row in self._rows for op in row]),
                                 n, n], 0)

    def _to_dense(self):
        n = len(self._rows)
        sizes = _sizes(self._diagonal(), -1)
        return _dense_blocks([[self._rows[i][j].to_dense() if j <= i
                               else array_ops.zeros(array_ops.stack([sizes[i], sizes[j]]),
                                                    self.dtype)
                               for j in range(n)] for i in range(n)],
                             self.batch_shape_tensor())

    def diag_part(self, name="diag_part"):
        return array_ops.concat([op.diag_part() for op in self._diagonal()], -1)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if adjoint:
            return super()._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        rhs = _adjoint_arg(rhs, adjoint_arg)
        parts = array_ops.split(rhs, _sizes(self._diagonal(), -1), -2)
        solved = []
        for i, row in enumerate(self._rows):  # forward substitution, block by block
            known = parts[i]
            for j in range(i):
                known = known - row[j].matmul(solved[j])
            solved.append(row[i].solve(known))
        return array_ops.concat(solved, -2)

    def _determinant(self):
        return product_of(op.determinant() for op in self._diagonal())

    def _log_abs_determinant(self):
        return sum_of(op.log_abs_determinant() for op in self._diagonal())

    def _inverse(self):
        # the inverse is block lower triangular too: X_ii = A_ii^-1 and, below the
        # diagonal, X_ij = -A_ii^-1 (sum over j <= k < i of A_ik X_kj)
        n = len(self._rows)
        inverse = [[None] * n for _ in range(n)]
        for i in range(n):
            inverse[i][i] = self._rows[i][i].inverse().to_dense()
            for j in range(i):
                total = 0
                for k in range(j, i):
                    total = total + self._rows[i][k].matmul(inverse[k][j])
                inverse[i][j] = -self._rows[i][i].solve(total)
        return LinearOperatorBlockLowerTriangular(
            [[LinearOperatorFullMatrix(inverse[i][j]) for j in range(i + 1)]
             for i in range(n)], is_non_singular=self.is_non_singular)
