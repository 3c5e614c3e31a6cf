"""Set operations on the last dimension of dense tensors and SparseTensors (``tf.sets``).

Each set is the values of one row (all indices but the last); results are SparseTensors
holding each row's set sorted, their last dimension the largest set's size.

>>> tf.sets.size(tf.sparse.from_dense(tf.constant([[1, 1, 2], [3, 3, 3]])))
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 1], dtype=int32)>
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, register
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.ops.sparse_tensor import SparseTensor
from eagerflow._src.ops.wrappers import as_tensor

_I64 = _d.int64
_SET_TYPES = (_d.int8, _d.int16, _d.int32, _d.int64, _d.uint8, _d.uint16, _d.string)
# TF's message lists them in this (hash) order
_SET_TYPES_TEXT = ("frozenset({tf.int32, tf.uint8, tf.int16, tf.int8, tf.string, tf.int64, "
                   "tf.uint16})")


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _dense_rows(x):
    if x.ndim < 2:
        raise _invalid(f"Shape [{','.join(map(str, x.shape))}] has rank {x.ndim} < 2")
    batch = x.shape[:-1]
    flat = x.reshape(int(np.prod(batch)), x.shape[-1])
    return batch, {np.unravel_index(i, batch) if batch else (): set(row.tolist())
                   for i, row in enumerate(flat)}


def _sparse_rows(indices, values, shape):
    shape = tuple(int(s) for s in shape)
    if len(shape) < 2:
        raise _invalid(f"Invalid input rank {len(shape)} (must be >= 2)")
    rows = {}
    for index, value in zip(indices.tolist(), values.tolist()):
        rows.setdefault(tuple(index[:-1]), set()).add(value)
    return shape[:-1], rows


def _combine(batch1, rows1, batch2, rows2, set_operation, dtype):
    if tuple(batch1) != tuple(batch2):
        raise _invalid(f"Mismatched shapes [{','.join(map(str, batch1))}] vs "
                       f"[{','.join(map(str, batch2))}]")
    op = {"intersection": set.intersection, "union": set.union,
          "a-b": set.difference, "b-a": lambda a, b: b - a}[set_operation]
    out_indices, out_values, width = [], [], 0
    empty = set()
    for key in sorted(set(rows1) | set(rows2)):
        result = sorted(op(rows1.get(key, empty), rows2.get(key, empty)))
        width = max(width, len(result))
        for j, v in enumerate(result):
            out_indices.append(tuple(int(k) for k in key) + (j,))
            out_values.append(v)
    rank = len(batch1) + 1
    indices = np.array(out_indices, np.int64).reshape(-1, rank)
    if dtype == object:
        values = np.empty(len(out_values), object)
        values[:] = out_values
    else:
        values = np.array(out_values, dtype).reshape(-1)
    return indices, values, np.array(list(batch1) + [width], np.int64)


def _dense_dense(xp, set1, set2, set_operation, validate_indices=True):
    return _combine(*_dense_rows(set1), *_dense_rows(set2), set_operation, set1.dtype)


def _dense_sparse(xp, set1, indices2, values2, shape2, set_operation, validate_indices=True):
    return _combine(*_dense_rows(set1), *_sparse_rows(indices2, values2, shape2),
                    set_operation, set1.dtype)


def _sparse_sparse(xp, indices1, values1, shape1, indices2, values2, shape2, set_operation,
                   validate_indices=True):
    return _combine(*_sparse_rows(indices1, values1, shape1),
                    *_sparse_rows(indices2, values2, shape2), set_operation, values1.dtype)


def _set_size(xp, indices, values, shape, validate_indices=True):
    batch, rows = _sparse_rows(indices, values, shape)
    out = np.zeros(batch, np.int32)
    for key, row in rows.items():
        out[key] = len(row)
    return out


def _output_rule(rank, dtype):
    return [(TensorShape([None, rank]), _I64), (TensorShape([None]), dtype),
            (TensorShape([rank]), _I64)]


def _dense_dense_rule(set1, set2, **_):
    return _output_rule(set1.shape.rank, set1.dtype)


def _dense_sparse_rule(set1, indices2, values2, shape2, **_):
    return _output_rule(set1.shape.rank, set1.dtype)


def _sparse_sparse_rule(indices1, values1, shape1, *_, **__):
    return _output_rule(shape1.shape[0] if shape1.shape.rank == 1 else None, values1.dtype)


def _set_size_rule(indices, values, shape, **_):
    return unknown_shape(), _d.int32


_NOT_DIFFERENTIABLE = "set operations have no gradient"
_OUTPUTS = ("result_indices", "result_values", "result_shape")
_DENSE_DENSE = register("DenseToDenseSetOperation", _dense_dense, _dense_dense_rule, multi=True,
                        tied=(0, 1), dtypes=_SET_TYPES, not_differentiable=_NOT_DIFFERENTIABLE)
tf_nodes[_DENSE_DENSE] = NodeForm(types={"T": 0}, outputs=_OUTPUTS)
_DENSE_SPARSE = register("DenseToSparseSetOperation", _dense_sparse, _dense_sparse_rule,
                         multi=True, tied=(0, 2), dtypes=_SET_TYPES,
                         not_differentiable=_NOT_DIFFERENTIABLE)
tf_nodes[_DENSE_SPARSE] = NodeForm(types={"T": 0}, outputs=_OUTPUTS)
_SPARSE_SPARSE = register("SparseToSparseSetOperation", _sparse_sparse, _sparse_sparse_rule,
                          multi=True, tied=(1, 4), dtypes=_SET_TYPES,
                          not_differentiable=_NOT_DIFFERENTIABLE)
tf_nodes[_SPARSE_SPARSE] = NodeForm(types={"T": 1}, outputs=_OUTPUTS)
_SET_SIZE = register("SetSize", _set_size, _set_size_rule, tied=(1,), dtypes=_SET_TYPES,
                     not_differentiable=_NOT_DIFFERENTIABLE)
tf_nodes[_SET_SIZE] = NodeForm(types={"T": 1}, outputs=("size",))
# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _DENSE_DENSE, _DENSE_SPARSE, _SPARSE_SPARSE, _SET_SIZE)
tf_args[_DENSE_DENSE] = ("set1", "set2")
tf_args[_DENSE_SPARSE] = ("set1", "set2_indices", "set2_values", "set2_shape")
tf_args[_SPARSE_SPARSE] = ("set1_indices", "set1_values", "set1_shape", "set2_indices",
                           "set2_values", "set2_shape")
tf_args[_SET_SIZE] = ("set_indices", "set_values", "set_shape")


def _operands(a, b):
    """`a` and `b` as tensors or SparseTensors, checked as TF checks them."""
    a = a if isinstance(a, SparseTensor) else as_tensor(a)
    b = b if isinstance(b, SparseTensor) else as_tensor(b)
    if a.dtype != b.dtype:
        raise TypeError(f"Types don't match, <dtype: '{a.dtype.name}'> vs <dtype: '{b.dtype.name}'>.")
    if a.dtype not in _SET_TYPES:
        raise TypeError(f"'a' has invalid dtype `<dtype: '{a.dtype.name}'>` not in supported dtypes: "
                        f"`{_SET_TYPES_TEXT}`.")
    return a, b


def _set_operation(a, b, set_operation, validate_indices):
    attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices)}
    if isinstance(a, SparseTensor):
        parts = dispatch(_SPARSE_SPARSE, (a.indices, a.values, a.dense_shape, b.indices,
                                          b.values, b.dense_shape), attrs, None)
    elif isinstance(b, SparseTensor):
        parts = dispatch(_DENSE_SPARSE, (a, b.indices, b.values, b.dense_shape), attrs, None)
    else:
        parts = dispatch(_DENSE_DENSE, (a, b), attrs, None)
    return SparseTensor(*parts)


def _flipped(a, b):
    # a SparseTensor `a` with a dense `b` is computed as (b, a): TF's kernels take the
    # dense operand first
    return isinstance(a, SparseTensor) and not isinstance(b, SparseTensor)


@export("sets.size")
def set_size(a, validate_indices=True):
    """The number of distinct values in each set (row) of the SparseTensor `a`, int32.

    >>> tf.sets.size(tf.sparse.from_dense(tf.constant([[1, 2, 2]])))
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([2], dtype=int32)>
    """
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {str(a)}.")
    if a.values.dtype not in _SET_TYPES:
        raise TypeError(f"Invalid dtype `<dtype: '{a.values.dtype.name}'>` not in supported dtypes: "
                        f"`{_SET_TYPES_TEXT}`.")
    return dispatch(_SET_SIZE, (a.indices, a.values, a.dense_shape),
                    {"validate_indices": bool(validate_indices)}, None)


@export("sets.intersection")
def set_intersection(a, b, validate_indices=True):
    """The values in both `a` and `b`, per row of their last dimension, as a SparseTensor.

    >>> tf.sets.intersection(tf.constant([[1, 2, 3]]), tf.constant([[3, 2, 9]])).values
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>
    """
    a, b = _operands(a, b)
    if _flipped(a, b):
        a, b = b, a
    return _set_operation(a, b, "intersection", validate_indices)


@export("sets.union")
def set_union(a, b, validate_indices=True):
    """The values in `a` or `b`, per row of their last dimension, as a SparseTensor.

    >>> tf.sets.union(tf.constant([[1, 2]]), tf.constant([[3, 2]])).values
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>
    """
    a, b = _operands(a, b)
    if _flipped(a, b):
        a, b = b, a
    return _set_operation(a, b, "union", validate_indices)


@export("sets.difference")
def set_difference(a, b, aminusb=True, validate_indices=True):
    """The values of `a` not in `b` (of `b` not in `a` when not `aminusb`), per row of their
    last dimension, as a SparseTensor.

    >>> tf.sets.difference(tf.constant([[1, 2, 3]]), tf.constant([[3, 2, 9]])).values
    <tf.Tensor: shape=(1,), dtype=int32, numpy=array([1], dtype=int32)>
    """
    a, b = _operands(a, b)
    if _flipped(a, b):
        a, b = b, a
        aminusb = not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)
