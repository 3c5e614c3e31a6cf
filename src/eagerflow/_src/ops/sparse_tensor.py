"""`SparseTensor`: a tensor given by the positions and values of its non-default elements.

`indices` (int64, ``[N, rank]``) lists positions in row-major order, `values`
(``[N]``) the elements there, `dense_shape` (int64, ``[rank]``) the full shape.
`sparse.to_dense` (op ``SparseToDense``) fills in the rest.

>>> st = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[5, 7], dense_shape=[3, 2])
>>> st.shape
TensorShape([3, 2])
>>> tf.sparse.to_dense(st).numpy().tolist()
[[0, 5], [0, 0], [7, 0]]
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register, \
    register_gradient
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.tensor_spec import TensorSpec, TypeSpec
from eagerflow._src.ops import array_ops, math_ops, reduction_ops
from eagerflow._src.ops import shape_rules
from eagerflow._src.core.composite_tensor import CompositeTensor


@export("sparse.SparseTensor", "SparseTensor")
@CompositeTensor.register
class SparseTensor:
    """A sparse tensor (``tf.SparseTensor``): `indices`, `values` and `dense_shape`."""

    _shape_hint = None  # the static shape a spec gave (see `SparseTensorSpec._from_components`)
    is_tensor_like = True  # (`tf.is_tensor` says so, as TF's does)

    def __init__(self, indices, values, dense_shape):
        self._indices = convert_to_tensor(indices, _d.int64)
        self._values = convert_to_tensor(values)
        self._dense_shape = convert_to_tensor(dense_shape, _d.int64)
        for t, rank in ((self._indices, 2), (self._values, 1), (self._dense_shape, 1)):
            t.shape.with_rank(rank)
        for a, b in ((self._indices.shape[0], self._values.shape[0]),
                     (self._indices.shape[1], self._dense_shape.shape[0])):
            if a is not None and b is not None and a != b:
                raise ValueError(f"Dimensions {a} and {b} are not compatible")

    indices = property(lambda self: self._indices, doc="The positions, int64 ``[N, rank]``.")
    values = property(lambda self: self._values, doc="The elements at `indices`, ``[N]``.")
    dense_shape = property(lambda self: self._dense_shape, doc="The shape, int64 ``[rank]``.")
    dtype = property(lambda self: self._values.dtype)
    op = property(lambda self: self._values.op, doc="The op making `values` (as TF's).")
    graph = property(lambda self: self._values.graph, doc="The graph of `values` (as TF's).")

    @property
    def shape(self):
        """The static `TensorShape` of the dense tensor this one stands for."""
        if self._shape_hint is not None:  # a function's argument: its spec's shape (or a
            return self._shape_hint  # `sparse_placeholder`'s, whose shape has a default)
        value = get_static_value(self._dense_shape)
        if value is not None:
            return TensorShape([int(d) if d >= 0 else None for d in value])  # (-1: unknown)
        return TensorShape(shape_rules.known_elements(self._dense_shape))  # (what is known)

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        """Narrows the static shape to `shape` where that says more (a ValueError where
        they disagree); the dense shape itself is not changed.

        >>> st = tf.sparse.SparseTensor([[0, 1]], [1.0], [2, 3])
        >>> st.set_shape([None, 3])
        >>> st.shape
        TensorShape([2, 3])
        """
        self._shape_hint = self.shape.merge_with(TensorShape(shape))

    @property
    def _type_spec(self):
        return SparseTensorSpec(self.shape, self.dtype)

    def _shape_invariant_to_type_spec(self, shape):
        """The spec of the sparse tensors a loop carries when `shape`, the invariant of
        their ``dense_shape`` vector, says only their rank (TF's convention)."""
        if shape.rank is not None and shape.rank != 1:
            raise ValueError(f"Expected a shape with 1 dimension. Obtained: {shape} which has "
                             f"{shape.rank} dimensions.")
        rank = None if shape.rank is None else shape[0]
        return SparseTensorSpec(TensorShape(None if rank is None else [None] * rank),
                                self.dtype)

    @classmethod
    def from_value(cls, sparse_tensor_value):
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        return cls(sparse_tensor_value.indices, sparse_tensor_value.values,
                   sparse_tensor_value.dense_shape)

    def _numpy(self):
        """The dense NumPy array this (eager) sparse tensor stands for, as TF's ``_numpy``."""
        shape = tuple(int(d) for d in self._dense_shape.numpy())
        dtype = self.dtype.as_numpy_dtype
        out = np.full(shape, b"" if self.dtype == _d.string else 0, dtype=dtype)
        indices = self._indices.numpy()
        if len(indices):
            out[tuple(indices.T)] = self._values.numpy()
        return out

    def with_values(self, new_values):
        """This sparse tensor with `new_values` in place of its values (same positions)."""
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def __str__(self):
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")

    __repr__ = __str__


@export("SparseTensorSpec")
class SparseTensorSpec(TypeSpec):
    """The type of a `SparseTensor`: its dense shape and dtype (``tf.SparseTensorSpec``).

    >>> tf.SparseTensorSpec([None, 4], tf.int64)
    SparseTensorSpec(TensorShape([None, 4]), tf.int64)
    """

    def __init__(self, shape=None, dtype=_d.float32):
        self._shape = TensorShape(shape)
        self._dtype = _d.as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    value_type = property(lambda self: SparseTensor)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype)

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        if isinstance(other, SparseTensor):
            other = SparseTensorSpec.from_value(other)
        return (isinstance(other, SparseTensorSpec) and self._dtype == other.dtype
                and self._shape.is_compatible_with(other.shape))

    def most_specific_common_supertype(self, others):
        """The spec of the most specific shape compatible with each of `others`' (None
        when a dtype differs)."""
        shape = self._shape
        for o in others:
            if type(o) is not SparseTensorSpec or o.dtype != self._dtype:
                return None
            shape = shape.most_specific_compatible_shape(o.shape)
        return SparseTensorSpec(shape, self._dtype)

    @property
    def _component_specs(self):
        rank = self._shape.rank
        return (TensorSpec([None, rank], _d.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], _d.int64))

    def _to_components(self, value):
        return (value.indices, value.values, value.dense_shape)

    def _from_components(self, components):
        value = SparseTensor(*components)
        if value.shape.rank is None or None in value.shape.as_list():
            value._shape_hint = self._shape  # (components of unknown value: the spec knows)
        return value

    def _with_shape(self, shape):
        """This spec of another (a function trace's relaxed) shape."""
        return SparseTensorSpec(shape, self._dtype)

    def __eq__(self, other):
        return (type(other) is SparseTensorSpec and self._dtype == other.dtype
                and self._shape.as_list() == other.shape.as_list()
                if self._shape.rank is not None and other.shape.rank is not None
                else type(other) is SparseTensorSpec and self._dtype == other.dtype
                and self._shape.rank == other.shape.rank)

    def __hash__(self):
        return hash((self._dtype, None if self._shape.rank is None
                     else tuple(self._shape.as_list())))

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"


# -- SparseToDense -----------------------------------------------------------------------------

def _index_text(row):
    return "[" + ",".join(str(int(v)) for v in row) + "]"


def check_indices(indices, shape):
    """TF's error for `indices` (an [n, rank] array) of a sparse tensor of dense `shape` that
    are not in row-major order, repeat one, or lie outside `shape`: the first such index is
    named (one out of order or repeated before the first out of bounds)."""
    n = indices.shape[0]
    if not n:
        return
    shape = tuple(int(d) for d in shape)
    bad = np.nonzero(((indices < 0) | (indices >= np.asarray(shape, np.int64))).any(axis=1))[0]
    flat = np.ravel_multi_index(indices.T, shape, mode="clip") if shape else np.zeros(n)
    order = np.diff(flat)
    first_bad = bad[0] if bad.size else n
    wrong = np.nonzero(order[:max(first_bad - 1, 0)] <= 0)[0]
    if wrong.size:
        i = wrong[0] + 1
        what = "is repeated" if order[wrong[0]] == 0 else (
            "is out of order. Many sparse ops require sorted indices.\n    Use "
            "`tf.sparse.reorder` to create a correctly ordered copy.\n\n")
        raise errors.InvalidArgumentError(None, None,
                                          f"indices[{i}] = {_index_text(indices[i])} {what}")
    if bad.size:
        i = bad[0]
        raise errors.InvalidArgumentError(
            None, None, f"indices[{i}] = {_index_text(indices[i])} is out of bounds: need 0 <= "
                        f"index < {_index_text(shape)}")


def _sparse_to_dense(xp, indices, output_shape, values, default_value, validate_indices):
    if default_value.size != 1 or default_value.ndim:
        raise errors.InvalidArgumentError(
            None, None, f"default_value should be a scalar, but got shape "
                        f"{errors.shape_text(default_value.shape)}")
    indices = np.asarray(indices)
    if indices.ndim < 2:
        indices = indices.reshape(-1, 1)
    shape = tuple(int(d) for d in np.asarray(output_shape).reshape(-1))
    n = indices.shape[0]
    if values.ndim and values.shape[0] != n:
        raise errors.InvalidArgumentError(
            None, None, f"sparse_values has incorrect shape "
                        f"{errors.shape_text(values.shape)}, should be [] or [{n}]")
    if indices.shape[1] != len(shape):
        raise errors.InvalidArgumentError(
            None, None, f"output_shape has incorrect number of elements: {len(shape)} should "
                        f"be: {indices.shape[1]}")
    if validate_indices:
        check_indices(indices, shape)
    elif ((indices < 0) | (indices >= np.asarray(shape, np.int64))).any():
        raise errors.InvalidArgumentError(
            None, None, f"Indices are not valid (out of bounds).  Shape: {_index_text(shape)}")
    default = default_value.reshape(())
    if values.dtype != object and not default.any():
        out = np.zeros(shape, values.dtype)  # (fresh zeroed pages: faster than filling)
    else:
        out = np.full(shape, default, dtype=values.dtype)
    if n:
        out[tuple(indices.T)] = values
    return out


def _sparse_to_dense_rule(indices, output_shape, values, default_value, validate_indices):
    return TensorShape(shape_rules.known_elements(output_shape)), values.dtype


_SPARSE_TO_DENSE = register("SparseToDense", _sparse_to_dense, _sparse_to_dense_rule,
                            tied=(2, 3))
batching_rules[_SPARSE_TO_DENSE] = PER_ELEMENT
tf_nodes[_SPARSE_TO_DENSE] = NodeForm(types={"T": 2, "Tindices": 0}, outputs=("dense",))
tf_args[_SPARSE_TO_DENSE] = ("sparse_indices", "output_shape", "sparse_values", "default_value")
tf_defaults[_SPARSE_TO_DENSE] = {"validate_indices": True}


@register_gradient("SparseToDense")
def _sparse_to_dense_grad(op, grad):
    indices = op.inputs[0]
    values_grad = array_ops.gather_nd(grad, indices)
    default_grad = math_ops.subtract(reduction_ops.reduce_sum(grad),
                                     reduction_ops.reduce_sum(values_grad))
    return None, None, values_grad, default_grad


def sparse_to_dense(indices, output_shape, values, default_value, validate_indices=True,
                    name=None):
    """Op SparseToDense: `values` (one per row of `indices`, or one for all) at `indices`
    in a tensor of `output_shape`, `default_value` elsewhere (TF 1's ``sparse_to_dense``)."""
    values = convert_to_tensor(values)
    return dispatch(_SPARSE_TO_DENSE, (indices, output_shape, values,
                                       convert_to_tensor(default_value, values.dtype)),
                    {"validate_indices": bool(validate_indices)}, name)


@export("sparse.to_dense")
def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor `sp_input` stands for, `default_value` (0, "") where it has no value.

    `validate_indices`: check that indices are in bounds, sorted and not repeated.

    >>> st = tf.SparseTensor([[0], [2]], tf.constant(["a", "b"]), [3])
    >>> tf.sparse.to_dense(st)
    <tf.Tensor: shape=(3,), dtype=string, numpy=array([b'a', b'', b'b'], dtype=object)>
    """
    if not isinstance(sp_input, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    dtype = sp_input.dtype
    if default_value is None:
        default_value = b"" if dtype == _d.string else np.zeros((), dtype.as_numpy_dtype)
    out = sparse_to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values,
                          default_value, validate_indices, name)
    if not out.shape.is_fully_defined() and sp_input.shape.rank is not None:
        out.set_shape(sp_input.shape)  # (a function's argument: the shape its spec gives)
    return out


@export("sparse.from_dense")
def from_dense(tensor, name=None):
    """A `SparseTensor` of the elements of `tensor` that are not zero (or "")."""
    tensor = convert_to_tensor(tensor)
    zero = b"" if tensor.dtype == _d.string else np.zeros((), tensor.dtype.as_numpy_dtype)
    indices = array_ops.where(math_ops.not_equal(tensor, zero))
    return SparseTensor(indices, array_ops.gather_nd(tensor, indices),
                        array_ops.shape(tensor, out_type=_d.int64))
