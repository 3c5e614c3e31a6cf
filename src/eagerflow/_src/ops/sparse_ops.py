"""`tf.sparse`: operations on `SparseTensor`s.

Most are compositions of dense ops on the three component tensors (indices,
values, dense_shape), so they run eagerly and in functions alike and their
gradients with respect to the values (and dense operands) follow from those
ops. A position is linearized in row-major order (``sum(index * strides)``)
wherever indices must be compared, sorted or regrouped. Where TF's kernels give
results the composition would not (entries merged or reordered as TF walks them,
TF's errors), the op is a kernel of its own, as in TF: SparseAdd,
SparseSparseMaximum/Minimum, SparseReorder, SparseSlice, crossing features.

>>> st = tf.sparse.SparseTensor([[0, 1], [1, 0]], [2.0, 3.0], [2, 2])
>>> tf.sparse.reduce_sum(st, axis=1).numpy()
array([2., 3.], dtype=float32)
>>> tf.sparse.sparse_dense_matmul(st, tf.ones([2, 1])).numpy().ravel()
array([2., 3.], dtype=float32)
"""
import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import context, errors
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_args, tf_defaults, tf_nodes
from eagerflow._src.core import registry
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules, no_gradient_entry, register
from eagerflow._src.core.registry import NUMBER_TYPES, REAL_NUMBER_TYPES
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape, unknown_shape
from eagerflow._src.ops import (
    array_ops, cast_ops, debugging_ops, fingerprint_ops, half_sums, late, math_ops,
    reduction_ops)
from eagerflow._src.ops import shape_rules
from eagerflow._src.ops.indexed_slices import IndexedSlices
from eagerflow._src.ops.sparse_tensor import SparseTensor, to_dense
from eagerflow._src.ops.wrappers import as_tensor

_I64 = _d.int64


def _sparse(value, name="sp_input"):
    if not isinstance(value, SparseTensor):
        raise TypeError("Input must be a SparseTensor.")
    return value


def _i64(x):
    return cast_ops.cast(as_tensor(x), _I64) if not (isinstance(x, Tensor) and
                                                    x.dtype == _I64) else x


def _strides(shape):
    """Row-major strides of int64 vector `shape`."""
    return reduction_ops.cumprod(shape, exclusive=True, reverse=True)


def _linear(indices, shape):
    """The row-major position of each index row."""
    return reduction_ops.reduce_sum(math_ops.multiply(indices, _strides(shape)), axis=1)


def _unravel(linear, shape):
    """Index rows ``[N, rank]`` of row-major positions `linear` in `shape`. The first
    dimension is not wrapped: an index past the end stays there, as TF keeps it."""
    strides = _strides(shape)
    unbounded = array_ops.concat([[np.iinfo(np.int64).max], _i64(shape)[1:]], 0)
    return math_ops.floormod(math_ops.floordiv(array_ops.expand_dims(linear, 1), strides),
                             unbounded)


def _rank(sp):
    rank = sp.shape.rank
    return rank if rank is not None else array_ops.shape(sp.dense_shape)[0]


def _with_shape(out, shape):
    if shape is not None and shape.rank is not None:
        out._shape_hint = shape
    return out


@export("sparse.reorder")
def reorder(sp_input, name=None):
    """`sp_input` with its entries in row-major (canonical) order.

    >>> st = tf.sparse.SparseTensor([[1, 0], [0, 1]], [1, 2], [2, 2])
    >>> tf.sparse.reorder(st).indices.numpy().tolist()
    [[0, 1], [1, 0]]
    """
    sp = _sparse(sp_input)
    indices, values = dispatch(_SPARSE_REORDER, (sp.indices, sp.values, sp.dense_shape), {},
                               name)
    return _with_shape(SparseTensor(indices, values, sp.dense_shape), sp.shape)


def _sparse_reorder(xp, indices, values, shape):
    """The kernel of op SparseReorder: the entries sorted by their indices (row-major; equal
    indices keep their order)."""
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(shape)
    if indices.ndim != 2 or values.ndim != 1 or shape.ndim != 1:
        raise _invalid("Input indices should be a matrix, input values a vector and input "
                       "shape a vector.")
    if indices.shape[0] != values.shape[0]:
        raise _invalid(f"Number of elements in indices ({indices.shape[0]}) and values "
                       f"({values.shape[0]}) do not match")
    if indices.shape[1] != shape.shape[0]:
        raise _invalid(f"Index rank ({indices.shape[1]}) and shape rank ({shape.shape[0]}) "
                       f"do not match")
    order = _index_order(indices)
    return indices[order].astype(np.int64, copy=False), values[order]


def _index_order(indices):
    """The stable order of index rows `indices` sorted lexicographically."""
    if not indices.shape[1]:
        return np.arange(len(indices))
    return np.lexsort(indices.T[::-1])


def _sparse_reorder_rule(indices, values, shape):
    return [(indices.shape.merge_with(TensorShape([values.shape[0] if values.shape.rank == 1
                                                   else None, None])), _I64),
            (values.shape, values.dtype)]


_SPARSE_REORDER = register("SparseReorder", _sparse_reorder, _sparse_reorder_rule, multi=True,
                           tied=(1,))
tf_nodes[_SPARSE_REORDER] = NodeForm(types={"T": 1},
                                     outputs=("output_indices", "output_values"))
tf_args[_SPARSE_REORDER] = ("input_indices", "input_values", "input_shape")
batching_rules[_SPARSE_REORDER] = PER_ELEMENT


@registry.register_gradient("SparseReorder")
def _sparse_reorder_grad(op, _, values_grad):
    # each entry's gradient is that of the place the sort moved it to
    indices = op.inputs[0]
    order = dispatch(_SPARSE_REORDER, (indices, array_ops.range(
        array_ops.shape(indices, out_type=_I64)[0], dtype=_I64), op.inputs[2]), {})[1]
    return [None, array_ops.gather(values_grad, math_ops.invert_permutation(order)), None]


@export("sparse.expand_dims")
def expand_dims(sp_input, axis=None, name=None):
    """`sp_input` with a dimension of size 1 inserted at `axis`."""
    sp = _sparse(sp_input)
    rank = sp.shape.rank
    axis = -1 if axis is None else int(get_static_value(as_tensor(axis)))
    if rank is not None and not -rank - 1 <= axis <= rank:
        raise errors.InvalidArgumentError(
            None, "ExpandDims", f"Tried to expand dim index {axis} for tensor with {rank} "
                                f"dimensions. [Op:ExpandDims]")
    axis = axis + rank + 1 if axis < 0 else axis
    n = array_ops.shape(sp.indices, out_type=_I64)[0]
    zeros = array_ops.zeros(array_ops.stack([n, np.int64(1)]), _I64)
    indices = array_ops.concat([sp.indices[:, :axis], zeros, sp.indices[:, axis:]], 1)
    shape = array_ops.concat([sp.dense_shape[:axis], [np.int64(1)], sp.dense_shape[axis:]], 0)
    out = SparseTensor(indices, sp.values, shape)
    if rank is not None:
        dims = sp.shape.as_list()
        out = _with_shape(out, TensorShape(dims[:axis] + [1] + dims[axis:]))
    return out


@export("sparse.reshape")
def reshape(sp_input, shape, name=None):
    """`sp_input` reshaped (row-major, as `reshape`); `shape` may hold one -1."""
    sp = _sparse(sp_input)
    shape = _i64(shape)
    static_old, static_shape = get_static_value(sp.dense_shape), get_static_value(shape)
    static_new = None
    if static_old is not None and static_shape is not None:
        static_old, static_shape = np.reshape(static_old, -1), np.reshape(static_shape, -1)
        total = int(np.prod(static_old))
        message = _reshape_error(total, static_old, static_shape)
        if message is not None:
            raise errors.eager_error(errors.InvalidArgumentError, "SparseReshape", message)
        static_new = _filled_shape(total, static_shape)
    indices, new_shape = dispatch(_SPARSE_RESHAPE, (sp.indices, sp.dense_shape, shape), {},
                                  name)
    out = SparseTensor(indices, sp.values, new_shape)
    if static_new is not None:
        out = _with_shape(out, TensorShape([int(d) for d in static_new]))
    return out


def _reshape_error(total, old_shape, new_shape):
    """TF's SparseReshape message for a reshape of `total` dense values to `new_shape`, or
    None when it is allowed."""
    unknown = []
    for i, d in enumerate(new_shape):  # (in TF's order: the first bad dimension's message)
        if d == -1:
            if unknown:
                return f"only one output dimension may be -1, not both {unknown[0]} and {i}"
            unknown.append(i)
        elif d < 0:
            return f"size {i} must be non-negative, not {d}"
    if total == 0 and unknown and 0 in list(new_shape):
        return ("reshape cannot infer the missing input size for an empty tensor unless all "
                "specified input sizes are non-zero")
    known = int(np.prod([d for d in new_shape if d != -1]))
    shown = errors.shape_text([1 if d == -1 else int(d) for d in new_shape])
    if unknown and (known == 0 or total % known):
        return (f"Input to reshape is a SparseTensor with {total} dense values, but the "
                f"requested shape requires a multiple of {known}. input_shape="
                f"{errors.shape_text(old_shape)} output_shape={shown}")
    if not unknown and known != total:
        return (f"Input to reshape is a tensor with {total} dense values, but the requested "
                f"shape has {known}. input_shape={errors.shape_text(old_shape)} "
                f"output_shape={shown}")
    return None


def _filled_shape(total, new_shape):
    """`new_shape` with its -1 (if any) the size that makes it hold `total` values."""
    known = int(np.prod([d for d in new_shape if d != -1]))
    return np.where(new_shape == -1, total // max(known, 1), new_shape).astype(np.int64)


def _sparse_reshape(xp, indices, shape, new_shape):
    """The kernel of op SparseReshape: each entry's row-major position in `shape` taken to
    `new_shape` (its -1 filled)."""
    indices, shape = np.asarray(indices, np.int64), np.asarray(shape, np.int64)
    new_shape = np.asarray(new_shape, np.int64)
    if new_shape.ndim != 1:
        raise _invalid(f"Target shape should be a vector but received shape "
                       f"{_dims(new_shape.shape)}")
    if indices.ndim != 2 or shape.ndim != 1 or indices.shape[1] != shape.size:
        raise _invalid("Input tensor rank must match input shape length.")
    total = int(np.prod(shape))
    message = _reshape_error(total, shape, new_shape)
    if message is not None:
        raise _invalid(message)
    filled = _filled_shape(total, new_shape)
    linear = indices @ np.cumprod(np.r_[shape[1:], 1][::-1])[::-1] if shape.size else \
        np.zeros(len(indices), np.int64)
    strides = np.cumprod(np.r_[filled[1:], 1][::-1])[::-1]
    out = linear[:, None] // strides
    out[:, 1:] %= np.maximum(filled[1:], 1)  # (the first dimension is not wrapped, as TF's)
    return out.reshape(len(indices), filled.size).astype(np.int64), filled


def _sparse_reshape_rule(indices, shape, new_shape):
    rank = new_shape.shape[0] if new_shape.shape.rank == 1 else None
    return [(TensorShape([indices.shape[0] if indices.shape.rank == 2 else None, rank]), _I64),
            (TensorShape([rank]), _I64)]


_SPARSE_RESHAPE = register("SparseReshape", _sparse_reshape, _sparse_reshape_rule, multi=True,
                           tied=(), not_differentiable="its outputs are indices and a shape")
tf_nodes[_SPARSE_RESHAPE] = NodeForm(types={}, outputs=("output_indices", "output_shape"))
tf_args[_SPARSE_RESHAPE] = ("input_indices", "input_shape", "new_shape")
batching_rules[_SPARSE_RESHAPE] = PER_ELEMENT


@export("sparse.to_indicator")
def to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor ``[..., vocab_size]``: True at ``[..., v]`` for each value `v` of
    a row of `sp_input` (int values: ids)."""
    sp = _sparse(sp_input)
    ids = _i64(sp.values)
    indices = array_ops.concat([sp.indices[:, :-1], array_ops.expand_dims(ids, 1)], 1)
    shape = array_ops.concat([sp.dense_shape[:-1], [_i64(vocab_size)]], 0) if not isinstance(
        vocab_size, int) else array_ops.concat([sp.dense_shape[:-1], [np.int64(vocab_size)]], 0)
    ones = array_ops.ones_like(ids, dtype=_d.bool)
    order = reduction_ops.argsort(_linear(indices, shape), stable=True)
    return to_dense(SparseTensor(array_ops.gather(indices, order), array_ops.gather(ones, order),
                                 shape), default_value=False, validate_indices=False)


@export("sparse.add")
def add(a, b, threshold=0, name=None):
    """`a + b`: two SparseTensors give a SparseTensor (entries summed where both have one;
    sums of magnitude below `threshold` dropped), a SparseTensor and a dense tensor a dense
    tensor.

    >>> a = tf.sparse.SparseTensor([[0, 1], [1, 0]], [1.0, 2.0], [2, 2])
    >>> b = tf.sparse.SparseTensor([[0, 1], [1, 1]], [-1.0, 5.0], [2, 2])
    >>> tf.sparse.add(a, b, threshold=0.5).values.numpy()
    array([2., 5.], dtype=float32)
    """
    if not isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        raise TypeError("At least one input should be SparseTensor; do you mean to use "
                        "tf.add?")
    if not isinstance(a, SparseTensor) or not isinstance(b, SparseTensor):
        sp, dense = (a, b) if isinstance(a, SparseTensor) else (b, a)
        if isinstance(dense, Tensor):
            _check_values_type("SparseTensorDenseAdd", 3, "b", sp.dtype, dense.dtype)
        dense = convert_to_tensor(dense, sp.dtype)
        return dispatch(_SPARSE_TENSOR_DENSE_ADD, (sp.indices, sp.values, sp.dense_shape, dense),
                        {}, name)
    _check_values_type("SparseAdd", 4, "b_values", a.dtype, b.dtype)
    _check_same_shape(a, b)
    threshold = convert_to_tensor(threshold, a.dtype.real_dtype if a.dtype.is_complex
                                  else a.dtype)
    indices, values, shape = dispatch(_SPARSE_ADD, (a.indices, a.values, a.dense_shape,
                                                    b.indices, b.values, b.dense_shape,
                                                    threshold), {}, name)
    return _with_shape(SparseTensor(indices, values, shape), a.shape)


def _sparse_tensor_dense_add(xp, a_indices, a_values, a_shape, b):
    """The kernel of op SparseTensorDenseAdd: `b` with each entry's value added at its index
    (repeated indices adding up), the two of one shape."""
    indices, values, shape, b = (np.asarray(a_indices), np.asarray(a_values),
                                 np.asarray(a_shape), np.asarray(b))
    if indices.ndim != 2:
        raise _invalid(f"Input a_indices should be a matrix but received shape: "
                       f"{_dims(indices.shape)}")
    if values.ndim != 1 or shape.ndim != 1:
        raise _invalid(f"Inputs a_values and a_shape should be vectors but received shapes: "
                       f"{_dims(values.shape)} and {_dims(shape.shape)}")
    for x, y in ((len(indices), len(values)), (indices.shape[1], len(shape))):
        if x != y:
            raise _invalid(f"Dimensions {x} and {y} are not compatible")
    if len(shape) != b.ndim:
        raise _invalid(f"Two operands have different ranks; received: {len(shape)} and "
                       f"{b.ndim}")
    for d, (x, y) in enumerate(zip(shape, b.shape)):
        if x != y:
            raise _invalid(f"Dimension {d} does not equal (no broadcasting is supported): "
                           f"sparse side {x} vs dense side {y}")
    bad = np.argwhere((indices < 0) | (indices >= np.asarray(b.shape, indices.dtype)))
    if len(bad):
        i, d = bad[0]
        raise _invalid(f"Sparse tensor has an invalid index on dimension {d}: a_indices({i},"
                       f"{d}) = {indices[i, d]}, dense tensor shape: "
                       f"{' '.join(map(str, b.shape))}")
    out = b.copy()
    np.add.at(out, tuple(indices.T), values)
    return out


_SPARSE_TENSOR_DENSE_ADD = register(
    "SparseTensorDenseAdd", _sparse_tensor_dense_add,
    lambda a_indices, a_values, a_shape, b: (b.shape, b.dtype), tied=(1, 3),
    dtypes=NUMBER_TYPES, kernels=(_d.complex128, _d.complex64, _d.float64, _d.float32,
                                  _d.bfloat16, _d.float16, _d.int32, _d.int8, _d.uint8,
                                  _d.int16, _d.uint16, _d.uint32, _d.int64, _d.uint64),
    input_names=("a_values", "b"))
tf_nodes[_SPARSE_TENSOR_DENSE_ADD] = NodeForm(types={"T": 1, "Tindices": 0})
tf_args[_SPARSE_TENSOR_DENSE_ADD] = ("a_indices", "a_values", "a_shape", "b")
batching_rules[_SPARSE_TENSOR_DENSE_ADD] = PER_ELEMENT


@registry.register_gradient("SparseTensorDenseAdd")
def _sparse_tensor_dense_add_grad(op, grad):
    # the values' gradients are the dense gradient at their indices; b's passes through
    return [None, array_ops.gather_nd(grad, op.inputs[0]), None, grad]


def _check_add_operands(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
    """The arrays of SparseAdd's two operands, checked as TF's kernel checks them."""
    a_indices, b_indices = np.asarray(a_indices, np.int64), np.asarray(b_indices, np.int64)
    a_values, b_values = np.asarray(a_values), np.asarray(b_values)
    a_shape, b_shape = np.asarray(a_shape, np.int64), np.asarray(b_shape, np.int64)
    if a_indices.ndim != 2 or b_indices.ndim != 2:
        raise _invalid(f"Input indices should be matrices but received shapes: "
                       f"{_dims(a_indices.shape)} and {_dims(b_indices.shape)}")
    if a_values.ndim != 1 or b_values.ndim != 1:
        raise _invalid(f"Input values should be vectors but received shapes: "
                       f"{_dims(a_values.shape)} and {_dims(b_values.shape)}")
    if len(a_indices) != len(a_values) or len(b_indices) != len(b_values):
        raise _invalid(f"Expected {len(a_indices)} and {len(b_indices)} non-empty input "
                       f"values, got {len(a_values)} and {len(b_values)}")
    if a_shape.ndim != 1 or b_shape.ndim != 1:
        raise _invalid(f"Input shapes should be a vector but received shapes "
                       f"{_dims(a_shape.shape)} and {_dims(b_shape.shape)}")
    if a_indices.shape[1] != b_indices.shape[1]:
        raise _invalid(f"Input indices must have the same dimension, got "
                       f"{a_indices.shape[1]} and {b_indices.shape[1]}")
    if a_indices.shape[1] != len(a_shape):
        raise _invalid(f"Second dimension of a_indices and length of a_shape must match, got "
                       f"{a_indices.shape[1]} and {len(a_shape)}")
    _check_shapes_agree(a_shape, b_shape)
    return a_indices, a_values, a_shape, b_indices, b_values, b_shape


def _check_shapes_agree(a_shape, b_shape):
    """TF's error unless dense shapes `a_shape` and `b_shape` are one."""
    if len(a_shape) != len(b_shape):
        raise _invalid(f"Operands do not have the same ranks; got shapes: "
                       f"{' '.join(map(str, a_shape))} and {' '.join(map(str, b_shape))}")
    for i, (x, y) in enumerate(zip(a_shape, b_shape)):
        if x != y:
            raise _invalid(f"Operands' shapes do not match: got {x} and {y} for dimension {i}")


def _strictly_ordered(indices):
    """Whether the index rows `indices` are in row-major order, none repeated."""
    if len(indices) < 2:
        return True
    step = indices[1:] - indices[:-1]
    moved = step != 0
    first = np.argmax(moved, axis=1)
    return bool((moved.any(axis=1) & (step[np.arange(len(step)), first] > 0)).all())


def _merge(a_indices, a_values, b_indices, b_values, threshold=None, fn=None):
    """TF's merge of two lists of entries, each walked in the order given as if it were in
    row-major order: entries at equal indices summed (SparseAdd: a sum is kept if its
    magnitude reaches `threshold`, an entry of one list alone always), or combined by `fn`,
    an entry of one list alone meeting 0 (SparseSparseMaximum/Minimum)."""
    alone = (lambda v: v) if fn is None else (lambda v: fn(v, np.zeros_like(v)))
    rank = a_indices.shape[1]
    if not (_strictly_ordered(a_indices) and _strictly_ordered(b_indices)):
        return _merge_as_given(a_indices, a_values, b_indices, b_values, threshold, fn, alone)
    # both in order: a stable sort of the two lists puts each pair side by side, a's first
    indices = np.concatenate([a_indices, b_indices]).reshape(-1, rank)
    values = np.concatenate([a_values, b_values])
    order = _index_order(indices)
    indices, values = indices[order], values[order]
    pair = (indices[1:] == indices[:-1]).all(axis=1)
    first = np.flatnonzero(pair)
    out = alone(values)
    combined = values[first] + values[first + 1] if fn is None else fn(values[first],
                                                                        values[first + 1])
    out[first] = combined
    keep = np.ones(len(values), bool)
    keep[first + 1] = False
    if fn is None:
        keep[first[np.abs(combined) < threshold]] = False
    return indices[keep], out[keep].astype(a_values.dtype, copy=False)


def _merge_as_given(a_indices, a_values, b_indices, b_values, threshold, fn, alone):
    """`_merge` of lists not in order, entry by entry as TF walks them."""
    rows, values, i, j = [], [], 0, 0
    while i < len(a_indices) and j < len(b_indices):
        x, y = a_indices[i].tolist(), b_indices[j].tolist()
        if x < y:
            rows.append(a_indices[i]), values.append(alone(a_values[i]))
            i += 1
        elif x > y:
            rows.append(b_indices[j]), values.append(alone(b_values[j]))
            j += 1
        else:
            total = a_values[i] + b_values[j] if fn is None else fn(a_values[i], b_values[j])
            if fn is not None or np.abs(total) >= threshold:
                rows.append(a_indices[i]), values.append(total)
            i, j = i + 1, j + 1
    rows += list(a_indices[i:]) + list(b_indices[j:])
    values += [alone(v) for v in list(a_values[i:]) + list(b_values[j:])]
    rank = a_indices.shape[1]
    return (np.asarray(rows, np.int64).reshape(-1, rank),
            np.asarray(values, a_values.dtype).reshape(-1))


def _index_width(*indices):
    """The static width of index matrices `indices` (None where none knows it)."""
    return next((t.shape[1] for t in indices if t.shape.rank == 2 and t.shape[1] is not None),
                None)


def _sparse_add(xp, a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    """The kernel of op SparseAdd: the entries of a and b merged (`_merge`), a's shape."""
    a_indices, a_values, a_shape, b_indices, b_values, b_shape = _check_add_operands(
        a_indices, a_values, a_shape, b_indices, b_values, b_shape)
    thresh = np.asarray(thresh)
    if thresh.ndim:
        raise _invalid(f"The magnitude threshold must be a scalar: got shape "
                       f"{_dims(thresh.shape)}")
    indices, values = _merge(a_indices, a_values, b_indices, b_values, threshold=thresh)
    return indices, values, a_shape


def _sparse_add_rule(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    rank = _index_width(a_indices, b_indices)
    return [(TensorShape([None, rank]), _I64), (TensorShape([None]), a_values.dtype),
            (a_shape.shape, _I64)]


_ADD_KERNELS = (_d.complex128, _d.complex64, _d.int8, _d.int16, _d.int32, _d.int64, _d.float64,
                _d.float32)
_SPARSE_ADD = register("SparseAdd", _sparse_add, _sparse_add_rule, multi=True, tied=(1, 4),
                       dtypes=NUMBER_TYPES, kernels=_ADD_KERNELS,
                       input_names=("a_values", "b_values"))
tf_nodes[_SPARSE_ADD] = NodeForm(types={"T": 1, "Treal": 6},
                                 outputs=("sum_indices", "sum_values", "sum_shape"))
tf_args[_SPARSE_ADD] = ("a_indices", "a_values", "a_shape", "b_indices", "b_values", "b_shape",
                        "thresh")
batching_rules[_SPARSE_ADD] = PER_ELEMENT


def _sparse_add_grad_kernel(xp, grad, a_indices, b_indices, sum_indices):
    """The kernel of op SparseAddGrad: each entry of a and b gets the gradient of the sum's
    entry it went into (0 where the threshold dropped it), walking them as SparseAdd did."""
    grad = np.asarray(grad)
    a_indices, b_indices = np.asarray(a_indices, np.int64), np.asarray(b_indices, np.int64)
    sum_indices = np.asarray(sum_indices, np.int64)
    if a_indices.ndim != 2 or b_indices.ndim != 2 or sum_indices.ndim != 2:
        raise _invalid(f"Input indices should be matrices but received shapes: "
                       f"{_dims(a_indices.shape)} and {_dims(b_indices.shape)} and "
                       f"{_dims(sum_indices.shape)}")
    if grad.ndim != 1:
        raise _invalid(f"Input backprop_val_grad should be a vector but received shape: "
                       f"{_dims(grad.shape)}")
    if len(grad) != len(sum_indices):
        raise _invalid(f"# elements of backprop_val_grad and # rows of sum_indices should "
                       f"match (#nnz of sum): got {len(grad)} and {len(sum_indices)}")
    a_grad, b_grad = np.zeros(len(a_indices), grad.dtype), np.zeros(len(b_indices), grad.dtype)
    a, b, total = a_indices.tolist(), b_indices.tolist(), sum_indices.tolist()
    i = j = k = 0
    while i < len(a) or j < len(b):
        take_a = j == len(b) or i < len(a) and a[i] <= b[j]
        take_b = i == len(a) or j < len(b) and b[j] <= a[i]
        at = a[i] if take_a else b[j]
        if k < len(total) and total[k] == at:
            if take_a:
                a_grad[i] = grad[k]
            if take_b:
                b_grad[j] = grad[k]
            k += 1
        i, j = i + take_a, j + take_b
    return a_grad, b_grad


def _sparse_add_grad_rule(grad, a_indices, b_indices, sum_indices):
    return [(TensorShape([t.shape[0] if t.shape.rank else None]), grad.dtype)
            for t in (a_indices, b_indices)]


_SPARSE_ADD_GRAD = register(
    "SparseAddGrad", _sparse_add_grad_kernel, _sparse_add_grad_rule, multi=True, tied=(0,),
    dtypes=NUMBER_TYPES, kernels=_ADD_KERNELS, not_differentiable="TF declares none",
    input_names=("backprop_val_grad",))
tf_nodes[_SPARSE_ADD_GRAD] = NodeForm(types={"T": 0}, outputs=("a_val_grad", "b_val_grad"))
tf_args[_SPARSE_ADD_GRAD] = ("backprop_val_grad", "a_indices", "b_indices", "sum_indices")
batching_rules[_SPARSE_ADD_GRAD] = PER_ELEMENT


@registry.register_gradient("SparseAdd")
def _sparse_add_grad(op, _, values_grad, __):
    # each input entry's gradient is that of the sum's entry it went into
    a_grad, b_grad = dispatch(_SPARSE_ADD_GRAD, (values_grad, op.inputs[0], op.inputs[3],
                                                 op.outputs[0]), {})
    return [None, a_grad, None, None, b_grad, None, None]


def _check_values_type(op_name, i, input_name, expected, got):
    """TF's error for input `i` (`input_name`) of op `op_name` of dtype `got` where the
    first operand's values are of dtype `expected`."""
    if got == expected:
        return
    if not context.executing_eagerly():
        raise TypeError(f"Input '{input_name}' of '{op_name}' Op has type {got.name} that does "
                        f"not match type {expected.name} of argument 'a_values'.")
    raise errors.InvalidArgumentError(
        None, op_name, f"cannot compute {op_name} as input #{i}(zero-based) was expected to "
        f"be a {registry.kernel_type_name(expected)} tensor but is a "
        f"{registry.kernel_type_name(got)} tensor [Op:{op_name}] name: ")


def _check_same_shape(a, b):
    """TF's ValueError, while tracing, for SparseTensors `a` and `b` of static shapes that
    differ (which `add`, `maximum` and `minimum` refuse; the kernels check dense shapes)."""
    if not context.executing_eagerly():
        a.shape.assert_is_compatible_with(b.shape)


@export("sparse.concat")
def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None, concat_dim=None):
    """The SparseTensors `sp_inputs` joined along `axis` (their other dims must agree unless
    `expand_nonconcat_dims`, which takes the largest), entries in row-major order.

    >>> a = tf.sparse.SparseTensor([[0, 0]], [1.0], [2, 2])
    >>> b = tf.sparse.SparseTensor([[1, 0]], [2.0], [2, 1])
    >>> tf.sparse.concat(1, [a, b]).indices.numpy().tolist()
    [[0, 0], [1, 2]]
    """
    if concat_dim is not None:
        axis = concat_dim
    inputs = [_sparse(s) for s in sp_inputs]
    if len(inputs) == 1:  # (as TF: the one input itself)
        return inputs[0]
    axis = int(axis)
    dtypes = [s.dtype for s in inputs]
    if any(d != dtypes[0] for d in dtypes):
        if not context.executing_eagerly():
            raise TypeError(f"Tensors in list passed to 'values' of 'SparseConcat' Op have "
                            f"types [{', '.join(d.name for d in dtypes)}] that don't all match.")
        i = next(i for i, d in enumerate(dtypes) if d != dtypes[0])
        _check_values_type("SparseConcat", len(inputs) + i, "values", dtypes[0], dtypes[i])
    shapes = [s.dense_shape for s in inputs]
    if expand_nonconcat_dims:  # each input's shape the largest off `axis`
        largest = reduction_ops.reduce_max(array_ops.stack(shapes), axis=0)
        rank = array_ops.size(largest, out_type=_I64)
        at_axis = math_ops.equal(array_ops.range(rank, dtype=_I64),
                                 math_ops.floormod(np.int64(axis), rank))
        shapes = [array_ops.where(at_axis, shape, largest) for shape in shapes]
    out = SparseTensor(*dispatch(_SPARSE_CONCAT, [s.indices for s in inputs] +
                                 [s.values for s in inputs] + shapes, {"concat_dim": axis},
                                 name))
    rank = inputs[0].shape.rank
    if rank is not None and all(s.shape.rank == rank for s in inputs):
        # the static shape the inputs' give, as TF's
        out = _with_shape(out, _concat_static_shape([s.shape for s in inputs], axis % rank,
                                                    expand_nonconcat_dims))
    return out


def _sparse_concat(xp, *parts, concat_dim):
    """The kernel of op SparseConcat: each input's entries in row-major order, shifted along
    `concat_dim` past the inputs before it; then all of them in row-major order."""
    n = len(parts) // 3
    if n < 2:
        raise _invalid(f"Value for attr 'N' of {n} must be at least minimum 2")
    indices = [np.asarray(t, np.int64) for t in parts[:n]]
    values = [np.asarray(t) for t in parts[n:2 * n]]
    shapes = [np.asarray(t, np.int64) for t in parts[2 * n:]]
    for i in range(n):
        if indices[i].ndim != 2:
            raise _invalid(f"Input indices should be a matrix but received shape "
                           f"{_dims(indices[i].shape)} at position {i}")
        if values[i].ndim != 1:
            raise _invalid(f"Input values should be a vector but received shape "
                           f"{_dims(values[i].shape)} at position {i}")
        if shapes[i].ndim != 1:
            raise _invalid(f"Input shapes should be a vector but received shape "
                           f"{_dims(shapes[i].shape)} at position {i}")
    rank = len(shapes[0])
    for i, shape in enumerate(shapes[1:], 1):
        if len(shape) != rank:
            raise _invalid(f"Ranks of all input tensors must match: expected {rank} but got "
                           f"{len(shape)} at position {i}")
    if not -rank <= concat_dim < rank:
        raise _invalid(f"Concat dimension must be in range [{-rank}, {rank}), got {concat_dim}")
    axis = concat_dim % rank
    for i, shape in enumerate(shapes[1:], 1):
        dim = next((d for d in range(rank) if d != axis and shape[d] != shapes[0][d]), None)
        if dim is not None:
            raise _invalid(f"Input shapes must match: expected {shapes[0][dim]} for dimension "
                           f"{dim} but got {shape[dim]} at position {i}")
    offset, moved = 0, []
    for rows, vals, shape in zip(indices, values, shapes):
        if len(rows) != len(vals):
            raise _invalid(f"indices and values rows (indexing dimension) must match. "
                           f"(indices = {len(rows)}, values = {len(vals)})")
        if rows.shape[1] != rank:
            raise _invalid("Order length must be SparseTensor rank.")
        rows = rows[_index_order(rows)]  # (a copy)
        rows[:, axis] += offset
        offset += shape[axis]
        moved.append(rows)
    rows = np.concatenate(moved)
    vals = np.concatenate([v[_index_order(i)] for i, v in zip(indices, values)])
    order = _index_order(rows)
    shape = shapes[0].copy()
    shape[axis] = offset
    return rows[order], vals[order], shape


def _sparse_concat_rule(*parts, concat_dim):
    n = len(parts) // 3
    rank = _index_width(*parts[:n])
    if rank is None:
        rank = next((s.shape[0] for s in parts[2 * n:] if s.shape.rank == 1), None)
    return [(TensorShape([None, rank]), _I64), (TensorShape([None]), parts[n].dtype),
            (TensorShape([rank]), _I64)]


_SPARSE_CONCAT = register("SparseConcat", _sparse_concat, _sparse_concat_rule, multi=True,
                          tied=(), not_differentiable="TF declares none")
# TF's N counts the inputs (indices, then as many values and shapes), T is the values' dtype
tf_nodes[_SPARSE_CONCAT] = NodeForm(
    types={}, ignored=("N", "T"),
    rewrite=lambda attrs, inputs: {**attrs, "N": len(inputs) // 3,
                                   "T": inputs[len(inputs) // 3].dtype},
    outputs=("output_indices", "output_values", "output_shape"))
tf_args[_SPARSE_CONCAT] = ("*indices", "*values", "*shapes")
batching_rules[_SPARSE_CONCAT] = PER_ELEMENT


def _concat_static_shape(shapes, axis, expand):
    """What is known of `concat`'s dense shape from its inputs' static shapes."""
    dims = []
    for i, column in enumerate(zip(*[s.as_list() for s in shapes])):
        known = [d for d in column if d is not None]
        if i == axis or expand:
            dims.append((sum(known) if i == axis else max(known))
                        if len(known) == len(column) else None)
        else:
            dims.append(known[0] if known else None)
    return TensorShape(dims)


@export("sparse.slice")
def slice(sp_input, start, size, name=None):  # noqa: A001 (TF's name)
    """The entries of `sp_input` in the box at `start` of `size` (clipped to the shape),
    with indices relative to `start`, in the order given."""
    sp = _sparse(sp_input)
    return SparseTensor(*dispatch(_SPARSE_SLICE, (sp.indices, sp.values, sp.dense_shape,
                                                  _i64(start), _i64(size)), {}, name))


def _sparse_slice(xp, indices, values, shape, start, size):
    """The kernel of op SparseSlice: the entries at or past `start` and before the end of
    the box (``start + size``, clipped to `shape`), moved by `start`; the box's shape."""
    indices, values = np.asarray(indices, np.int64), np.asarray(values)
    shape, start, size = (np.asarray(v, np.int64) for v in (shape, start, size))
    rank = shape.size
    for what, v in (("start", start), ("size", size)):
        if v.ndim != 1 or v.size != rank:
            raise _invalid(f"Expected {what} to be a vector of length {rank} but got length "
                           f"{v.size}")
    if (size < 0).any():
        raise _invalid(f"Expected a non-negative size, got {int(size[size < 0][0])}")
    end = np.minimum(start + size, shape)
    inside = ((indices >= start) & (indices < end)).all(axis=1)
    return (indices[inside] - start, values[inside], np.maximum(end - start, 0))


def _sparse_slice_rule(indices, values, shape, start, size):
    rank = shape.shape[0] if shape.shape.rank == 1 else None
    return [(TensorShape([None, rank]), _I64), (TensorShape([None]), values.dtype),
            (TensorShape([rank]), _I64)]


_SPARSE_SLICE = register("SparseSlice", _sparse_slice, _sparse_slice_rule, multi=True,
                         tied=(1,))
tf_nodes[_SPARSE_SLICE] = NodeForm(types={"T": 1}, outputs=(
    "output_indices", "output_values", "output_shape"))
tf_args[_SPARSE_SLICE] = ("indices", "values", "shape", "start", "size")
batching_rules[_SPARSE_SLICE] = PER_ELEMENT


@registry.register_gradient("SparseSlice")
def _sparse_slice_grad(op, _, values_grad, __):
    # the entries kept have their slice's gradients, in order; the others none
    indices, _, shape, start, size = op.inputs
    start, end = _i64(start), math_ops.minimum(math_ops.add(_i64(start), _i64(size)),
                                               _i64(shape))
    inside = reduction_ops.reduce_all(math_ops.logical_and(
        math_ops.greater_equal(indices, start), math_ops.less(indices, end)), axis=1)
    return [None, array_ops.scatter_nd(array_ops.where(inside), values_grad,
                                       array_ops.shape(inside, out_type=_I64)), None, None,
            None]


@export("sparse.retain")
def retain(sp_input, to_retain):
    """The entries of `sp_input` where bool vector `to_retain` holds (one flag per entry)."""
    sp = _sparse(sp_input)
    to_retain = as_tensor(to_retain)
    n = sp.values.shape[0]
    if to_retain.shape.rank is not None and to_retain.shape.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {to_retain.shape.rank}")
    if n is not None and to_retain.shape[0] is not None and n != to_retain.shape[0]:
        raise ValueError(f"Dimensions {n} and {to_retain.shape[0]} are not compatible")
    return _with_shape(SparseTensor(array_ops.boolean_mask(sp.indices, to_retain),
                                    array_ops.boolean_mask(sp.values, to_retain),
                                    sp.dense_shape), sp.shape)


# -- SparseReduceSum / SparseReduceMax (and their sparse-output forms) ------------------------
def _sparse_reduce(how, sparse_output):
    """The kernel of TF's SparseReduce{Sum,Max}[Sparse]: the entries of each group of the kept
    dims combined (repeated indices each count), in row-major order of the groups; a group
    without entries is 0 in the dense output."""
    def kernel(xp, indices, values, shape, axes, keep_dims=False):
        indices, values = np.asarray(indices, np.int64), np.asarray(values)
        shape, axes = np.asarray(shape, np.int64), np.asarray(axes)
        if axes.ndim > 1:
            raise _invalid(f"Expected reduction_axes to be a scalar or a vector; got shape: "
                           f"{_dims(axes.shape)}")
        if indices.ndim != 2 or values.ndim != 1 or shape.ndim != 1:
            raise _invalid("Input indices should be a matrix, input values a vector and "
                           "input shape a vector.")
        if indices.shape[0] != values.shape[0]:
            raise _invalid(f"indices and values rows (indexing dimension) must match. "
                           f"(indices = {indices.shape[0]}, values = {values.shape[0]})")
        rank = shape.size
        if indices.shape[1] != rank:
            raise _invalid("Order length must be SparseTensor rank.")
        reduced = set()
        for a in axes.ravel().tolist():
            if not -rank <= a < rank:
                raise _invalid(f"Invalid reduction dimension {a}, for input with {rank} "
                               f"dimensions.")
            reduced.add(a % rank)
        kept = [d for d in range(rank) if d not in reduced]
        # the entries in TF's order: by group, then by the reduced dims (a max depends on it)
        order = np.lexsort([indices[:, d] for d in (kept + sorted(reduced))[::-1]]) \
            if rank else np.arange(len(values))
        indices, values = indices[order], values[order]
        groups = indices[:, kept]
        if sparse_output:
            if kept:
                groups, at = np.unique(groups, axis=0, return_inverse=True)
                at = at.reshape(-1)
            else:
                groups = np.zeros((min(len(values), 1), 0), np.int64)
                at = np.zeros(len(values), np.int64)
            out = _combine(how, values, at, len(groups))
            if keep_dims:
                full = np.zeros((len(groups), rank), np.int64)
                full[:, kept] = groups
                return full, out, np.where(np.isin(np.arange(rank), kept), shape, 1)
            return groups, out, shape[kept]
        kept_shape = shape[kept]
        size = int(np.prod(kept_shape))
        at = groups @ np.cumprod(np.r_[kept_shape[1:], 1][::-1])[::-1] if kept else \
            np.zeros(len(values), np.int64)
        bad = np.flatnonzero((at < 0) | (at >= size))
        if bad.size:
            raise errors.InternalError(
                None, None, f"Obtained a write index of {at[bad[0]]} which is outside of "
                f"bounds of [0, {size})")
        out = _combine(how, values, at, size)
        out_shape = [1 if d in reduced else shape[d] for d in range(rank)] if keep_dims \
            else kept_shape
        return out.reshape([int(d) for d in out_shape])
    return kernel


def _combine(how, values, at, size):
    """`values` combined by `how` ("sum" or "max") into `size` slots by slot index `at`;
    slots that nothing reaches are 0."""
    if how == "sum":
        out = np.zeros(size, values.dtype)
        np.add.at(out, at, values)
        if values.dtype in _HALF_SUMS:
            # TF sums each group of 16-bit floats as a whole-array Sum adds them (vector
            # order, each partial sum rounded); groups of fewer than 8 add one by one, as above
            starts = np.flatnonzero(np.r_[True, at[1:] != at[:-1]]) if len(at) else at
            ends = np.r_[starts[1:], len(at)]
            for start, end in zip(starts[ends - starts >= 8], ends[ends - starts >= 8]):
                out[at[start]] = half_sums.tf_sum(values[start:end], None)
        return out
    floating = values.dtype.kind == "f" or values.dtype == _BF16
    out = np.full(size, -np.inf if floating else np.iinfo(values.dtype).min, values.dtype)
    counts = np.bincount(at, minlength=size)[:size]
    nan = np.isnan(values) if floating else None
    if nan is not None and nan.any():
        # TF's max takes each value in turn unless it is below the one kept, so a NaN is
        # kept only when it comes last, and the values before it do not count
        position = np.arange(len(values))
        last_nan = np.full(size, -1)
        np.maximum.at(last_nan, at[nan], position[nan])
        after = position > last_nan[at]
        np.maximum.at(out, at[after], values[after])
        out[(last_nan >= 0) & (np.bincount(at[after], minlength=size)[:size] == 0)] = np.nan
    else:
        np.maximum.at(out, at, values)
    out[counts == 0] = 0
    return out


_BF16 = np.dtype(_d.bfloat16.as_numpy_dtype)
_HALF_SUMS = (np.dtype(np.float16), _BF16)


def _reduce_axes_known(axes):
    """The reduction axes known before run time, or None."""
    known = shape_rules.known_elements(axes)
    return None if known is None or None in known else known


def _sparse_reduce_rule(indices, values, shape, axes, keep_dims=False):
    dims = shape_rules.known_elements(shape)
    reduced = _reduce_axes_known(axes)
    if dims is None or reduced is None:
        rank = None if dims is None else len(dims)
        return (unknown_shape() if not keep_dims or rank is None
                else TensorShape([None] * rank)), values.dtype
    rank = len(dims)
    reduced = {a % rank for a in reduced if -rank <= a < rank}
    out = [1 if d in reduced else n for d, n in enumerate(dims)] if keep_dims else \
        [n for d, n in enumerate(dims) if d not in reduced]
    return TensorShape(out), values.dtype


def _sparse_reduce_sparse_rule(indices, values, shape, axes, keep_dims=False):
    rank = shape.shape[0] if shape.shape.rank == 1 else None
    reduced = _reduce_axes_known(axes)
    width = rank if keep_dims or rank is None else (
        None if reduced is None else rank - len({a % rank for a in reduced if -rank <= a < rank}))
    return [(TensorShape([None, width]), _I64), (TensorShape([None]), values.dtype),
            (TensorShape([width]), _I64)]


_REDUCE_OPS = {}
for _how, _types in (("Sum", NUMBER_TYPES), ("Max", REAL_NUMBER_TYPES)):
    for _sparse_out in (False, True):
        _name = f"SparseReduce{_how}" + ("Sparse" if _sparse_out else "")
        _op = _REDUCE_OPS[_how, _sparse_out] = register(
            _name, _sparse_reduce(_how.lower(), _sparse_out),
            _sparse_reduce_sparse_rule if _sparse_out else _sparse_reduce_rule,
            multi=_sparse_out, tied=(1,), dtypes=_types)
        tf_nodes[_op] = NodeForm(types={"T": 1}, outputs=(
            ("output_indices", "output_values", "output_shape") if _sparse_out else None))
        tf_args[_op] = ("input_indices", "input_values", "input_shape", "reduction_axes")
        tf_defaults[_op] = {"keep_dims": False}
        batching_rules[_op] = PER_ELEMENT
# TF registers a gradient for SparseReduceSum alone
no_gradient_entry("SparseReduceMax", "SparseReduceMaxSparse", "SparseReduceSumSparse")


@registry.register_gradient("SparseReduceSum")
def _sparse_reduce_sum_grad(op, grad):
    # each entry's gradient is its group's, the output's with the reduced dims kept as 1s
    indices, _, shape, axes = op.inputs
    rank = array_ops.size(shape)
    axes = math_ops.floormod(cast_ops.cast(array_ops.reshape(axes, [-1]), _d.int32), rank)
    kept_shape = array_ops.tensor_scatter_nd_update(
        shape, array_ops.expand_dims(axes, 1), array_ops.ones_like(axes, dtype=_I64))
    grad = array_ops.reshape(grad, kept_shape)
    scale = math_ops.floordiv(shape, kept_shape)
    return [None, array_ops.gather_nd(grad, math_ops.floordiv(indices, scale)), None, None]


def _reduce(sp, axis, keepdims, output_is_sparse, how):
    if axis is None:
        rank = sp.shape.rank
        axis = (np.arange(rank, dtype=np.int32) if rank is not None else
                array_ops.range(array_ops.size(sp.dense_shape)))
    op = _REDUCE_OPS[how, bool(output_is_sparse)]
    try:
        out = dispatch(op, (sp.indices, sp.values, sp.dense_shape,
                            cast_ops.cast(as_tensor(axis), _d.int32)),
                       {"keep_dims": bool(keepdims)})
    except errors.OpError as e:
        raise errors.listed(e, axis) from None
    if not output_is_sparse:
        return out
    return SparseTensor(*out)


@export("sparse.reduce_sum")
def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of `sp_input`'s entries over `axis` (all by default): a dense tensor, or with
    `output_is_sparse` a SparseTensor of the groups that hold entries."""
    return _reduce(_sparse(sp_input), axis, keepdims, output_is_sparse, "Sum")


@export("sparse.reduce_max")
def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The largest entry of `sp_input` over `axis` (the implicit zeros do not count; a group
    without entries gives 0, and one holding a NaN gives NaN); see `reduce_sum`.
    Unlike `reduce_sum`, it has no gradient (as in TF)."""
    return _reduce(_sparse(sp_input), axis, keepdims, output_is_sparse, "Max")


@export("sparse.sparse_dense_matmul")
def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """The matrix product of a 2-D SparseTensor and a dense matrix (either may be the
    sparse one); `adjoint_a`/`adjoint_b` take conjugate transposes first."""
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        # a @ sp_b == (sp_b^H @ a^H)^H
        out = sparse_dense_matmul(b, sp_a, adjoint_a=not adjoint_b, adjoint_b=not adjoint_a)
        return array_ops.transpose(out, conjugate=out.dtype.is_complex)
    sp = _sparse(sp_a, "sp_a")
    b = convert_to_tensor(b)  # as given, like TF's kernel input: no cast to the values' type
    _check_values_type("SparseTensorDenseMatMul", 3, "b", sp.dtype, b.dtype)
    given = sp.shape.as_list() if sp.shape.rank == 2 else [None, None]
    m, k = given[::-1] if adjoint_a else given
    b_dims = b.shape.as_list() if b.shape.rank == 2 else [None, None]
    inner, n = b_dims[::-1] if adjoint_b else b_dims
    if k is not None and inner is not None and k != inner:
        raise errors.eager_error(
            errors.InvalidArgumentError, "SparseTensorDenseMatMul",
            f"Cannot multiply A and B because inner dimension does not match: {k} vs. "
            f"{inner}.  Did you forget a transpose?  Dimensions of A: [{given[0]}, "
            f"{given[1]}).  Dimensions of B: [{','.join(map(str, b.shape.as_list()))}]")
    out = dispatch(_SPARSE_DENSE_MATMUL, (sp.indices, sp.values, sp.dense_shape, b),
                   {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}, name)
    if m is not None:
        out.set_shape([m, n])
    return out


def _sparse_dense_matmul(xp, indices, values, shape, b, adjoint_a=False, adjoint_b=False):
    """The kernel of op SparseTensorDenseMatMul: each entry's value times its column's row of
    `b` (its row's, if `adjoint_a`), summed into its row of the result in order."""
    indices, values, shape, b = (np.asarray(v) for v in (indices, values, shape, b))
    for bad, message in ((b.ndim != 2, "Tensor 'b' is not a matrix"),  # (TF's order)
                         (shape.ndim != 1, "Tensor 'a_shape' is not a vector"),
                         (shape.size != 2, "Tensor 'a_shape' must have 2 elements"),
                         (values.ndim != 1, "Tensor 'a_values' is not a vector"),
                         (indices.ndim != 2, "Tensor 'a_indices' is not a matrix")):
        if bad:
            raise _invalid(message)
    m, k = (int(shape[1]), int(shape[0])) if adjoint_a else (int(shape[0]), int(shape[1]))
    if adjoint_b:
        b = b.T.conj() if b.dtype.kind == "c" else b.T
    if k != b.shape[0]:
        given = b.T.shape if adjoint_b else b.shape
        raise _invalid(f"Cannot multiply A and B because inner dimension does not match: {k} "
                       f"vs. {b.shape[0]}.  Did you forget a transpose?  Dimensions of A: "
                       f"[{shape[0]}, {shape[1]}).  Dimensions of B: {_dims(given)}")
    message = _matmul_index_error(indices, adjoint_a, k, m)
    if message is not None:
        raise _invalid(message)
    rows, cols = (indices[:, 1], indices[:, 0]) if adjoint_a else (indices[:, 0], indices[:, 1])
    if adjoint_a and values.dtype.kind == "c":
        values = values.conj()
    out = np.zeros((m, b.shape[1]), b.dtype)
    np.add.at(out, rows, values[:, None] * b[cols])
    return out


def _sparse_dense_matmul_rule(indices, values, shape, b, adjoint_a=False, adjoint_b=False):
    name = "SparseTensorDenseMatMul"
    shape_rules.check_rank(name, [indices, values, shape, b], 3, rank=2)
    dims = shape_rules.known_elements(shape)
    if dims is not None and len(dims) != 2:  # (TF's rule reads a_shape as a matrix shape)
        raise shape_rules.shape_error(name, f"Shape must be rank 2 but is rank {len(dims)}",
                                      [t.shape for t in (indices, values, shape, b)])
    m = None if dims is None else dims[1 if adjoint_a else 0]
    n = None if b.shape.rank != 2 else b.shape[0 if adjoint_b else 1]
    return TensorShape([m, n]), values.dtype


_SPARSE_DENSE_MATMUL = register("SparseTensorDenseMatMul", _sparse_dense_matmul,
                                _sparse_dense_matmul_rule, tied=(1, 3),
                                input_names=("a_values", "b"))
tf_nodes[_SPARSE_DENSE_MATMUL] = NodeForm(types={"T": 1, "Tindices": 0}, outputs=("product",))
tf_args[_SPARSE_DENSE_MATMUL] = ("a_indices", "a_values", "a_shape", "b")
tf_defaults[_SPARSE_DENSE_MATMUL] = {"adjoint_a": False, "adjoint_b": False}
batching_rules[_SPARSE_DENSE_MATMUL] = PER_ELEMENT


@registry.register_gradient("SparseTensorDenseMatMul")
def _sparse_dense_matmul_grad(op, grad):
    indices, values, shape, b = op.inputs
    adjoint_a, adjoint_b = op.attrs.get("adjoint_a", False), op.attrs.get("adjoint_b", False)
    complex_ = values.dtype.is_complex
    b_grad = sparse_dense_matmul(SparseTensor(_i64(indices), values, _i64(shape)), grad,
                                 adjoint_a=not adjoint_a)
    if adjoint_b:
        b_grad = array_ops.transpose(b_grad, conjugate=complex_)
    rows, cols = indices[:, 0], indices[:, 1]
    if adjoint_a:
        rows, cols = cols, rows
    if adjoint_b:
        b = array_ops.transpose(b, conjugate=complex_)
    right = array_ops.gather(b, cols)
    values_grad = reduction_ops.reduce_sum(math_ops.multiply(
        array_ops.gather(grad, rows), math_ops.conj(right) if complex_ else right), axis=1)
    if adjoint_a and complex_:
        values_grad = math_ops.conj(values_grad)
    return [None, values_grad, None, b_grad]


def _matmul_index_error(indices, adjoint_a, inner, outer):
    """TF's kernel message for the first entry of the sparse operand outside its shape: its
    column (row, if adjoint) `k` against the inner dimension, then its other index `m`."""
    k_at, m_at = (0, 1) if adjoint_a else (1, 0)
    bad = ((indices[:, k_at] < 0) | (indices[:, k_at] >= inner) | (indices[:, m_at] < 0)
           | (indices[:, m_at] >= outer)) if indices.size else np.zeros(0, bool)
    if bad.any():
        i = int(np.argmax(bad))
        for name, at, bound in (("k", k_at, inner), ("m", m_at, outer)):
            if not 0 <= indices[i, at] < bound:
                return f"{name} ({indices[i, at]}) from index[{i},{at}] out of bounds (>={bound})"
    return None


_SEGMENT_REAL = (_d.float32, _d.float64, _d.int32, _d.uint8, _d.int16, _d.int8, _d.int64,
                 _d.bfloat16, _d.uint16, _d.float16, _d.uint32, _d.uint64)  # TF's order
_SEGMENT_FLOAT = (_d.bfloat16, _d.float16, _d.float32, _d.float64)


def _checked(kind, data, indices, segment_ids, num_segments, allowed):
    """`data`, `indices`, `segment_ids` as tensors, checked as TF's SparseSegment<kind> op
    checks them (its values eagerly)."""
    op_name = f"SparseSegment{kind}" + ("" if num_segments is None else "WithNumSegments")
    data, indices, segment_ids = (as_tensor(v) for v in (data, indices, segment_ids))
    for attr, t, dtypes in (("T", data, allowed), ("Tidx", indices, (_d.int32, _d.int64)),
                            ("Tsegmentids", segment_ids, (_d.int32, _d.int64))):
        if t.dtype not in dtypes:
            raise registry.attr_dtype_error(op_name, attr, t.dtype, dtypes)
    if not context.executing_eagerly():
        return data, indices, segment_ids

    wanted = None if num_segments is None else get_static_value(convert_to_tensor(num_segments))
    message = _segment_error(indices.numpy().reshape(-1), segment_ids.numpy().reshape(-1),
                             data.shape[0] if data.shape.rank else 0,
                             None if wanted is None else int(wanted))
    if message is not None:
        raise errors.eager_error(errors.InvalidArgumentError, op_name, message, name=None)
    return data, indices, segment_ids


def _segment_error(idx, ids, size, num_segments=None):
    """TF's message for the first fault of SparseSegment<kind>'s vectors `idx` and `ids`
    (rows `size` of data; `num_segments` None when not given), or None."""
    if idx.size != ids.size:
        return "segment_ids and indices should have same size."
    rows = int(ids[-1]) + 1 if ids.size else 0
    if num_segments is not None:
        if ids.size and num_segments < rows:
            return "segment ids must be < num_segments"
        rows = num_segments
    elif rows < 1 and ids.size:  # (the last id negative: the rows it gives are none)
        return "segment ids must be >= 0"
    if ids.size > 1 and (np.diff(ids) < 0).any():
        return "segment ids are not increasing"
    if ids.size and ids[0] < 0:
        return (f"Segment id {int(ids[0])} out of range [0, {rows}), possibly because "
                f"'segment_ids' input is not sorted.")
    wrong = np.flatnonzero((idx < 0) | (idx >= size))
    if wrong.size:
        i = int(wrong[0])
        return f"Bad: indices[{i}] == {int(idx[i])} out of range [0, {size})"
    return None


# -- SparseSegment{Sum,Mean,SqrtN}[WithNumSegments]: the ops of tf.raw_ops --------------------
def _sparse_segment_kernel(kind):
    """The kernel of op SparseSegment<kind>[WithNumSegments]: the rows ``data[indices]``
    summed per sorted segment id, a mean or a sum over the square root of the count times
    the reciprocal of it (as `segment_mean` and `segment_sqrt_n` compute)."""
    def kernel(xp, data, indices, segment_ids, num_segments=None, sparse_gradient=False):
        data, idx, ids = np.asarray(data), np.asarray(indices), np.asarray(segment_ids)
        if idx.ndim != 1:
            raise _invalid("indices should be a vector.")
        if ids.ndim != 1:
            raise _invalid("segment_ids should be a vector.")
        if data.ndim == 0:
            raise _invalid("Shape must be at least rank 1 but is rank 0")
        wanted = None if num_segments is None else int(np.asarray(num_segments))
        message = _segment_error(idx, ids, data.shape[0], wanted)
        if message is not None:
            raise _invalid(message)
        rows = wanted if wanted is not None else (int(ids[-1]) + 1 if ids.size else 0)
        # (TF sums half and bfloat16 rows in float32, rounding the result once)
        wide = np.float32 if data.dtype in _NARROW_FLOATS else data.dtype
        out = np.zeros((rows,) + data.shape[1:], wide)
        np.add.at(out, ids, data[idx].astype(wide))
        if kind != "Sum":
            counts = np.maximum(np.bincount(ids, minlength=rows), 1).astype(wide)
            scale = np.reciprocal(counts if kind == "Mean" else np.sqrt(counts))
            out = out * scale.reshape((rows,) + (1,) * (data.ndim - 1))
        return out.astype(data.dtype, copy=False)
    return kernel


_NARROW_FLOATS = (np.dtype(np.float16), np.dtype(_d.bfloat16.as_numpy_dtype))


def _sparse_segment_rule(data, indices, segment_ids, num_segments=None,
                         sparse_gradient=False):
    if data.shape.rank is None:
        return unknown_shape(), data.dtype
    known = None if num_segments is None else shape_rules.known_value(num_segments)
    rows = None if known is None else int(np.asarray(known).reshape(-1)[0])
    return TensorShape([rows]).concatenate(data.shape[1:]), data.dtype


def _sparse_segment_grad(kind):
    def grad_fn(op, grad):
        data, indices, segment_ids = op.inputs[:3]
        ids = segment_ids
        if kind != "Sum":  # each row's share: the reciprocal the forward pass scaled by
            counts = reduction_ops.unsorted_segment_sum(
                array_ops.ones_like(ids, dtype=grad.dtype), ids, array_ops.shape(grad)[0])
            counts = math_ops.maximum(counts, array_ops.ones_like(counts))
            if kind == "SqrtN":
                counts = math_ops.sqrt(counts)
            grad = math_ops.multiply(grad, reduction_ops.trailing_ones(
                math_ops.reciprocal(counts), grad, ids))
        rows = array_ops.gather(grad, ids)
        if op.attrs.get("sparse_gradient"):
            # TF's: IndexedSlices of each index once, in increasing order
            distinct = reduction_ops.sort(reduction_ops.unique(indices)[0])
            at = array_ops.searchsorted(distinct, indices, out_type=distinct.dtype)
            values = reduction_ops.unsorted_segment_sum(rows, at, array_ops.size(distinct))
            data_grad = IndexedSlices(values, distinct, array_ops.shape(data))
        else:
            data_grad = reduction_ops.unsorted_segment_sum(rows, indices,
                                                           array_ops.shape(data)[0])
        return [data_grad] + [None] * (len(op.inputs) - 1)
    return grad_fn


_SPARSE_SEGMENT_OPS = {}
for _kind, _types in (("Sum", _SEGMENT_REAL), ("Mean", _SEGMENT_FLOAT),
                      ("SqrtN", _SEGMENT_FLOAT)):
    for _counted in (False, True):
        _name = f"SparseSegment{_kind}" + ("WithNumSegments" if _counted else "")
        _op = _SPARSE_SEGMENT_OPS[_kind, _counted] = register(_name, _sparse_segment_kernel(_kind), _sparse_segment_rule,
                       dtypes=_types, input_names=("data",))
        tf_nodes[_op] = NodeForm(types=dict({"T": 0, "Tidx": 1, "Tsegmentids": 2},
                                            **({"Tnumsegments": 3} if _counted else {})))
        tf_args[_op] = ("data", "indices", "segment_ids") + (
            ("num_segments",) if _counted else ())
        tf_defaults[_op] = {"sparse_gradient": False}
        batching_rules[_op] = PER_ELEMENT
        registry.register_gradient(_name)(_sparse_segment_grad(_kind))


def _sparse_segment(kind, data, indices, segment_ids, num_segments, sparse_gradient, name):
    """Op SparseSegment<kind>[WithNumSegments] of the arguments checked as TF checks them."""
    data, indices, segment_ids = _checked(kind, data, indices, segment_ids, num_segments,
                                          _SEGMENT_REAL if kind == "Sum" else _SEGMENT_FLOAT)
    inputs = (data, indices, segment_ids)
    if num_segments is not None:
        inputs += (as_tensor(num_segments),)
    return dispatch(_SPARSE_SEGMENT_OPS[kind, num_segments is not None], inputs,
                    {"sparse_gradient": bool(sparse_gradient)}, name)


@export("sparse.segment_sum")
def segment_sum(data, indices, segment_ids, num_segments=None, name=None,
                sparse_gradient=False):
    """Sums the rows ``data[indices]`` per (sorted) segment id; with `sparse_gradient`
    the gradient of `data` is `IndexedSlices` (each index once, in increasing order)."""
    return _sparse_segment("Sum", data, indices, segment_ids, num_segments, sparse_gradient,
                           name)


@export("sparse.segment_mean")
def segment_mean(data, indices, segment_ids, num_segments=None, name=None,
                 sparse_gradient=False):
    """The mean of the rows ``data[indices]`` per segment id (0 for empty segments)."""
    return _sparse_segment("Mean", data, indices, segment_ids, num_segments, sparse_gradient,
                           name)


@export("sparse.segment_sqrt_n")
def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None,
                   sparse_gradient=False):
    """The sum of the rows ``data[indices]`` per segment id over the square root of their
    number (0 for empty segments)."""
    return _sparse_segment("SqrtN", data, indices, segment_ids, num_segments, sparse_gradient,
                           name)


@export("sparse.fill_empty_rows")
def fill_empty_rows(sp_input, default_value, name=None):
    """``(filled, empty_row_indicator)``: `sp_input` with an entry ``[row, 0, ...]`` of
    `default_value` in each row that has none, and which rows those were. The entries come
    row by row, each row's in the order given."""
    sp = _sparse(sp_input)
    indices, values, empty, _ = dispatch(
        _SPARSE_FILL_EMPTY_ROWS,
        (sp.indices, sp.values, sp.dense_shape, convert_to_tensor(default_value, sp.dtype)),
        {}, name)
    return _with_shape(SparseTensor(indices, values, sp.dense_shape), sp.shape), empty


def _sparse_fill_empty_rows(xp, indices, values, dense_shape, default_value):
    """The kernel of op SparseFillEmptyRows: the entries row by row (stable), an entry of
    `default_value` at ``[row, 0, ...]`` for each row without one; which rows were empty;
    and where each entry given went."""
    indices, values = np.asarray(indices, np.int64), np.asarray(values)
    shape, default_value = np.asarray(dense_shape, np.int64), np.asarray(default_value)
    if default_value.ndim:
        raise _invalid(f"default_value must be a scalar, saw: {_dims(default_value.shape)}")
    if indices.ndim != 2:
        raise _invalid(f"indices must be a matrix, saw: {_dims(indices.shape)}")
    if values.ndim != 1:
        raise _invalid(f"values must be a vector, saw: {_dims(values.shape)}")
    if shape.ndim != 1:
        raise _invalid(f"dense_shape must be a vector, saw: {_dims(shape.shape)}")
    if values.shape[0] != indices.shape[0]:
        raise _invalid(f"The length of `values` ({values.shape[0]}) must match the first "
                       f"dimension of `indices` ({indices.shape[0]}).")
    rows = int(shape[0]) if shape.size else 0
    at = indices[:, 0] if indices.shape[1] else np.zeros(len(indices), np.int64)
    bad = np.flatnonzero((at < 0) | (at >= rows))
    if bad.size:
        i = int(bad[0])
        raise _invalid(f"indices({i}, 0) is invalid: {at[i]} >= {rows}")
    empty = np.bincount(at, minlength=rows)[:rows] == 0
    filler = np.zeros((int(empty.sum()), indices.shape[1]), np.int64)
    filler[:, 0] = np.flatnonzero(empty)
    all_indices = np.concatenate([indices, filler])
    all_values = np.concatenate([values, np.full(len(filler), default_value, values.dtype)])
    order = np.argsort(all_indices[:, 0], kind="stable")
    reverse = np.empty(len(order), np.int64)
    reverse[order] = np.arange(len(order))
    return all_indices[order], all_values[order], empty, reverse[:len(indices)]


def _sparse_fill_empty_rows_rule(indices, values, dense_shape, default_value):
    rank = indices.shape[1] if indices.shape.rank == 2 else None
    rows = shape_rules.known_elements(dense_shape)
    return [(TensorShape([None, rank]), _I64), (TensorShape([None]), values.dtype),
            (TensorShape([rows[0] if rows else None]), _d.bool),
            (TensorShape([indices.shape[0] if indices.shape.rank == 2 else None]), _I64)]


_SPARSE_FILL_EMPTY_ROWS = register("SparseFillEmptyRows", _sparse_fill_empty_rows,
                                   _sparse_fill_empty_rows_rule, multi=True, tied=(1, 3),
                                   input_names=("values", "default_value"))
tf_nodes[_SPARSE_FILL_EMPTY_ROWS] = NodeForm(types={"T": 1}, outputs=(
    "output_indices", "output_values", "empty_row_indicator", "reverse_index_map"))
tf_args[_SPARSE_FILL_EMPTY_ROWS] = ("indices", "values", "dense_shape", "default_value")
batching_rules[_SPARSE_FILL_EMPTY_ROWS] = PER_ELEMENT


@registry.register_gradient("SparseFillEmptyRows")
def _sparse_fill_empty_rows_grad(op, _, values_grad, *__):
    # each value's gradient is that of the place it went; the default value's, the rest
    reverse_index_map = op.outputs[3]
    picked = array_ops.gather(values_grad, reverse_index_map)
    return [None, picked, None, math_ops.subtract(reduction_ops.reduce_sum(values_grad),
                                                  reduction_ops.reduce_sum(picked))]


# -- DenseCountSparseOutput, SparseCountSparseOutput (tf.sparse.bincount) ---------------------
_COUNT_VALUES = (_d.int32, _d.int64)
_COUNT_WEIGHTS = (_d.int32, _d.int64, _d.float32, _d.float64)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _length_attrs_error(op_name, minlength, maxlength):
    """TF's error for a `minlength` / `maxlength` attr below its minimum -1, or None."""
    for attr, value in (("minlength", minlength), ("maxlength", maxlength)):
        if value < -1:
            if context.executing_eagerly():
                return errors.op_error(
                    errors.InvalidArgumentError, op_name,
                    f"Value for attr '{attr}' of {value} must be at least minimum -1\n\t; "
                    f"NodeDef: {{{{node {op_name}}}}}; Op<name={op_name}>")
            return ValueError(f"Attr '{attr}' of '{op_name}' Op passed {value} less than "
                              "minimum -1.")
    return None


def _count_rows(rows, values, weights, dtype, nrows, binary_output, minlength, maxlength):
    """The counts of `values` (int64) per row `rows` as TF's counting kernels give them:
    ``(indices, counts, dense_shape)``, each row's distinct values in increasing order;
    `nrows` None for a 1-D result. Values from `maxlength` on are dropped; the width is
    `maxlength`, else the largest value + 1 (1 when there is none), at least `minlength`."""
    if maxlength >= 0:
        keep = values < maxlength
        rows, values = rows[keep], values[keep]
        weights = None if weights is None else weights[keep]
        width = maxlength
    else:
        width = max(int(values.max(initial=0)) + 1, minlength)
    stride = max(width, 1)
    linear, position = np.unique(rows * stride + values, return_inverse=True)
    if binary_output:
        counts = np.ones(linear.size, dtype)
    else:
        counts = np.zeros(linear.size, dtype)
        np.add.at(counts, position.reshape(-1), 1 if weights is None else weights)
    if nrows is None:
        return [linear.reshape(-1, 1).astype(np.int64), counts, np.array([width], np.int64)]
    indices = np.stack([linear // stride, linear % stride], 1).astype(np.int64)
    return [indices.reshape(-1, 2), counts, np.array([nrows, width], np.int64)]


def _dense_count(xp, values, weights, binary_output, minlength=-1, maxlength=-1):
    values, weights = np.asarray(values), np.asarray(weights)
    error = _length_attrs_error("DenseCountSparseOutput", minlength, maxlength)
    if error is not None:
        raise error
    if values.ndim not in (1, 2):
        raise _invalid(f"Input must be a 1 or 2-dimensional tensor. Got: {_dims(values.shape)}")
    if values.size and values.min() < 0:
        raise _invalid("Input values must all be non-negative")
    if weights.size and weights.shape != values.shape:
        raise _invalid(f"Weights and data must have the same shape. Weight shape: "
                       f"{_dims(weights.shape)}; data shape: {_dims(values.shape)}")
    if values.ndim == 2 and values.shape[0] == 0:
        raise _invalid("Invalid input: Shapes dimension cannot be 0.")
    nrows = values.shape[0] if values.ndim == 2 else None
    rows = np.repeat(np.arange(values.shape[0] if nrows else 1, dtype=np.int64),
                     values.shape[-1])
    return _count_rows(rows, values.reshape(-1).astype(np.int64),
                       weights.reshape(-1) if weights.size else None, weights.dtype, nrows,
                       binary_output, minlength, maxlength)


def _dense_count_rule(values, weights, binary_output, minlength=-1, maxlength=-1):
    rank = values.shape.rank
    return [(TensorShape([None, rank]), _I64), (TensorShape([None]), weights.dtype),
            (TensorShape([rank]), _I64)]


def _shape_text(shape):
    """A dense shape as TF's kernels print it (a Tensor's debug text, 3 values at most)."""
    shown = " ".join(str(v) for v in shape[:3]) + ("..." if shape.size > 3 else "")
    return f"Tensor<type: int64 shape: [{shape.size}] values: {shown}>"


def _sparse_count(xp, indices, values, dense_shape, weights, binary_output, minlength=-1,
                  maxlength=-1):
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(dense_shape)
    weights = np.asarray(weights)
    error = _length_attrs_error("SparseCountSparseOutput", minlength, maxlength)
    if error is not None:
        raise error
    if indices.ndim != 2:
        raise _invalid(f"Input indices must be a 2-dimensional tensor. Got: "
                       f"{_dims(indices.shape)}")
    if values.ndim != 1:
        raise _invalid(f"Input values must be a vector. Got: {_dims(values.shape)}")
    if shape.ndim != 1:
        raise _invalid(f"Input shape must be a vector. Got: {_dims(shape.shape)}")
    if values.shape[0] != indices.shape[0]:
        raise _invalid(f"Number of values must match first dimension of indices.Got "
                       f"{values.shape[0]} values, indices shape: {_dims(indices.shape)}")
    if shape.shape[0] != indices.shape[1]:
        raise _invalid(f"Number of dimensions must match second dimension of indices.Got "
                       f"{shape.shape[0]} dimensions, indices shape: {_dims(indices.shape)}")
    if shape.size == 0:
        raise _invalid("The shape argument requires at least one element.")
    bad = np.argwhere((indices < 0) | (indices >= shape))
    if bad.size:
        i, d = bad[0]
        raise _invalid(f"Invalid index value at {i}: dimension {d} has value {indices[i, d]} "
                       f"which is not in [0, {shape[d]}) (as given by dense shape "
                       f"{_shape_text(shape)}")
    if values.size and values.min() < 0:
        raise _invalid("Input values must all be non-negative")
    if weights.size and weights.shape != values.shape:
        raise _invalid(f"Weights and values must have the same shape. Weight shape: "
                       f"{_dims(weights.shape)}; values shape: {_dims(values.shape)}")
    one_d = shape.size == 1
    # (TF's kernel keeps the number of rows as a C int)
    nrows = 1 if one_d else int(np.int64(shape[0]).astype(np.int32))
    if nrows <= 0:
        raise _invalid(f"Cannot allocate {nrows} batches, is the dense shape too wide?")
    rows = np.zeros(values.size, np.int64) if one_d else indices[:, 0].astype(np.int64)
    return _count_rows(rows, values.astype(np.int64), weights if weights.size else None,
                       weights.dtype, None if one_d else nrows, binary_output, minlength,
                       maxlength)


def _sparse_count_rule(indices, values, dense_shape, weights, binary_output, minlength=-1,
                       maxlength=-1):
    rank = indices.shape[1] if indices.shape.rank == 2 else None
    return [(TensorShape([None, rank]), _I64), (TensorShape([None]), weights.dtype),
            (TensorShape([rank]), _I64)]


_DENSE_COUNT = register("DenseCountSparseOutput", _dense_count, _dense_count_rule,
                        multi=True, dtypes=_COUNT_VALUES, type_attr="T",
                        input_names=("values",))
tf_nodes[_DENSE_COUNT] = NodeForm(types={"T": 0, "output_type": 1}, outputs=(
    "output_indices", "output_values", "output_dense_shape"))
tf_args[_DENSE_COUNT] = ("values", "weights")
tf_defaults[_DENSE_COUNT] = {"minlength": -1, "maxlength": -1}
_SPARSE_COUNT = register("SparseCountSparseOutput", _sparse_count, _sparse_count_rule,
                         multi=True, tied=(1,), dtypes=_COUNT_VALUES, type_attr="T",
                         input_names=("values",))
tf_nodes[_SPARSE_COUNT] = NodeForm(types={"T": 1, "output_type": 3}, outputs=(
    "output_indices", "output_values", "output_dense_shape"))
tf_args[_SPARSE_COUNT] = ("indices", "values", "dense_shape", "weights")
tf_defaults[_SPARSE_COUNT] = {"minlength": -1, "maxlength": -1}
batching_rules.assign(PER_ELEMENT, _DENSE_COUNT, _SPARSE_COUNT)
no_gradient_entry("DenseCountSparseOutput", "SparseCountSparseOutput")  # (their weights')


def _count_weights(weights, values):
    """`weights` as the counting ops take them: an empty tensor of `values`' dtype (all
    ones) when None."""
    if weights is None:
        return as_tensor(np.zeros(0, values.dtype.as_numpy_dtype))
    reduction_ops.check_attr_dtype(_count_op(values), "output_type", weights.dtype,
                                   _COUNT_WEIGHTS, "weights")
    return weights


def _count_op(values):
    return "SparseCountSparseOutput" if isinstance(values, SparseTensor) else \
        "DenseCountSparseOutput"


def _sparse_weights(values, weights):
    """The values of SparseTensor `weights`, checked (when they are other tensors) to have
    `values`' indices and dense shape."""
    if not isinstance(weights, SparseTensor):
        raise ValueError(f"Argument `weights` must be a SparseTensor if `values` is a "
                         f"SparseTensor. Received weights={weights} of type: "
                         f"{type(weights).__name__}")
    # (in a graph each check is an Assert op that runs before the count)
    if weights.dense_shape is not values.dense_shape:
        debugging_ops.assert_equal(weights.dense_shape, values.dense_shape, message=(
            "'weights' and 'values' must have the same dense shape."))
    if weights.indices is not values.indices:
        debugging_ops.assert_equal(weights.indices, values.indices, message=(
            "'weights' and 'values' must have the same indices."))
    return weights.values


# -- SparseBincount (tf.math.bincount of a SparseTensor) ------------------------------------
def _sparse_bincount(xp, indices, values, dense_shape, size, weights, binary_output=False):
    indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(dense_shape)
    size, weights = np.asarray(size), np.asarray(weights)
    if indices.ndim != 2:
        raise _invalid(f"Sparse indices must be rank 2 but is rank {indices.ndim}")
    if indices.shape[0] != values.size:
        raise _invalid(f"Number of elements in indices ({indices.shape[0]}) and values "
                       f"({values.size}) do not match")
    if size.ndim:
        raise _invalid(f"Shape must be rank 0 but is rank {size.ndim}")
    size = int(size)
    if size < 0:
        raise _invalid(f"size ({size}) must be non-negative")
    if shape.shape != (indices.shape[1],):
        raise _invalid(f"Number of dimensions must match second dimension of indices.Got "
                       f"{shape.size} dimensions, indices shape: {_dims(indices.shape)}")
    _check_in_bounds(indices, shape)
    if weights.size and weights.shape != values.shape:
        raise _invalid(f"Weights and values must have the same shape. Weight shape: "
                       f"{_dims(weights.shape)}; values shape: {_dims(values.shape)}")
    values = values.astype(np.int64)
    if shape.size == 1:
        if values.size and values.min() < 0:
            raise _invalid("Input arr must be non-negative!")
        out, rows = np.zeros(size, weights.dtype), None
    else:  # (a row's values outside [0, size) count nowhere, as in TF's kernel)
        out, rows = np.zeros((int(shape[0]), size), weights.dtype), indices[:, 0]
    keep = (values >= 0) & (values < size)
    where = values[keep] if rows is None else (rows[keep], values[keep])
    if binary_output:
        out[where] = 1
    else:
        np.add.at(out, where, weights[keep] if weights.size else 1)
    return out


def _sparse_bincount_rule(indices, values, dense_shape, size, weights, binary_output=False):
    return unknown_shape(), weights.dtype


_SPARSE_BINCOUNT = register("SparseBincount", _sparse_bincount, _sparse_bincount_rule,
                            tied=(1, 3), dtypes=_COUNT_VALUES, type_attr="Tidx",
                            input_names=("values", "size"))
tf_nodes[_SPARSE_BINCOUNT] = NodeForm(types={"Tidx": 1, "T": 4})
tf_args[_SPARSE_BINCOUNT] = ("indices", "values", "dense_shape", "size", "weights")
tf_defaults[_SPARSE_BINCOUNT] = {"binary_output": False}
batching_rules.assign(PER_ELEMENT, _SPARSE_BINCOUNT)
no_gradient_entry("SparseBincount")


def bincount_of_sparse(arr, weights=None, minlength=None, maxlength=None, dtype=_d.int32,
                       name=None, axis=None, binary_output=False):
    """``tf.math.bincount`` of a SparseTensor `arr` (its absent entries are not counted): of
    its values (op DenseBincount), or with ``axis=-1`` a row of counts per row (op
    SparseBincount)."""
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    if not arr.dtype.is_integer:
        arr = SparseTensor(arr.indices, cast_ops.cast(arr.values, _d.int32), arr.dense_shape)
    if axis is None:
        axis = 0
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         "currently supported.")
    if weights is not None:
        weights = _sparse_weights(arr, weights)
    if axis == 0:
        return reduction_ops.bincount(arr.values, weights, minlength, maxlength, dtype, name,
                                      binary_output=binary_output)
    index = arr.dtype
    reduction_ops.check_attr_dtype("SparseBincount", "Tidx", index, _COUNT_VALUES, "values")
    nonempty = math_ops.greater(reduction_ops.reduce_prod(arr.dense_shape), np.int64(0))
    largest = math_ops.maximum(reduction_ops.reduce_max(arr.values),
                               np.array(-1, index.as_numpy_dtype))
    size = math_ops.multiply(cast_ops.cast(nonempty, index),
                             math_ops.add(largest, np.array(1, index.as_numpy_dtype)))
    if minlength is not None:
        size = math_ops.maximum(convert_to_tensor(minlength, index), size)
    if maxlength is not None:
        size = math_ops.minimum(convert_to_tensor(maxlength, index), size)
    if weights is None:
        weights = as_tensor(np.zeros(0, _d.as_dtype(dtype).as_numpy_dtype))
    reduction_ops.check_attr_dtype("SparseBincount", "T", weights.dtype, _COUNT_WEIGHTS,
                                   "weights")
    return dispatch(_SPARSE_BINCOUNT, (arr.indices, arr.values, arr.dense_shape, size, weights),
                    {"binary_output": bool(binary_output)}, name)


@export("sparse.bincount")
def bincount(values, weights=None, axis=0, minlength=None, maxlength=None,
             binary_output=False, name=None):
    """Counts each value (of a dense tensor or SparseTensor), as a SparseTensor of the
    non-zero counts: over everything (``axis=0``) or per row of a 2-D input (``axis=-1``).
    As TF, the ops DenseCountSparseOutput and SparseCountSparseOutput count.

    >>> print(tf.sparse.bincount([[1, 2, 2], [3, 1, 1]], axis=-1).indices.numpy().tolist())
    [[0, 1], [0, 2], [1, 1], [1, 3]]
    """
    if not isinstance(values, SparseTensor):
        values = as_tensor(values)
    if weights is not None and not isinstance(weights, SparseTensor):
        weights = as_tensor(weights)
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    if axis is None:
        axis = 0
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         "currently supported.")
    if axis == 0:
        if isinstance(values, SparseTensor):
            if weights is not None:
                weights = _sparse_weights(values, weights)
            values = values.values
        else:
            if weights is not None:
                weights = array_ops.reshape(weights, [-1])
            values = array_ops.reshape(values, [-1])
    return count_sparse_output(values, weights, minlength, maxlength, binary_output, name)


def count_sparse_output(values, weights=None, minlength=None, maxlength=None,
                        binary_output=False, name=None):
    """The counts of `values` per row of a 2-D tensor or SparseTensor (of everything for a
    1-D one), as a SparseTensor: the op DenseCountSparseOutput or SparseCountSparseOutput.
    `weights` (None, or of `values`' kind) are summed instead of ones."""
    attrs = {"binary_output": bool(binary_output),
             "minlength": -1 if minlength is None else int(minlength),
             "maxlength": -1 if maxlength is None else int(maxlength)}
    op = _count_op(values)
    error = _length_attrs_error(op, attrs["minlength"], attrs["maxlength"])
    if error is not None:
        raise error
    if isinstance(values, SparseTensor):
        reduction_ops.check_attr_dtype(op, "T", values.dtype, _COUNT_VALUES, "values")
        if weights is not None:
            weights = _sparse_weights(values, weights)
        outputs = dispatch(_SPARSE_COUNT, (values.indices, values.values, values.dense_shape,
                                           _count_weights(weights, values)), attrs, name)
    else:
        if weights is not None and not isinstance(weights, Tensor):
            raise ValueError(f"Argument `weights` must be a tf.Tensor if `values` is a "
                             f"tf.Tensor. Received weights={weights} of type: "
                             f"{type(weights).__name__}")
        reduction_ops.check_attr_dtype(op, "T", values.dtype, _COUNT_VALUES, "values")
        outputs = dispatch(_DENSE_COUNT, (values, _count_weights(weights, values)), attrs, name)
    return SparseTensor(*outputs)


def _binary_sparse(a, b, op, name):
    a, b = _sparse(a, "sp_a"), _sparse(b, "sp_b")
    _check_values_type(op.name, 4, "b_values", a.dtype, b.dtype)
    _check_same_shape(a, b)
    indices, values = dispatch(op, (a.indices, a.values, a.dense_shape, b.indices, b.values,
                                    b.dense_shape), {}, name)
    return _with_shape(SparseTensor(indices, values, a.dense_shape), a.shape)


@export("sparse.maximum")
def maximum(sp_a, sp_b, name=None):
    """The elementwise maximum of two SparseTensors, at the union of their entries (an
    absent entry counts as 0).

    >>> a = tf.sparse.SparseTensor([[0], [1]], [1.0, -2.0], [3])
    >>> b = tf.sparse.SparseTensor([[1], [2]], [3.0, -4.0], [3])
    >>> tf.sparse.maximum(a, b).values.numpy()
    array([1., 3., 0.], dtype=float32)
    """
    return _binary_sparse(sp_a, sp_b, _SPARSE_MAXIMUM, name)


@export("sparse.minimum")
def minimum(sp_a, sp_b, name=None):
    """The elementwise minimum of two SparseTensors, at the union of their entries (an
    absent entry counts as 0)."""
    return _binary_sparse(sp_a, sp_b, _SPARSE_MINIMUM, name)


def _check_sparse(indices, values, shape):
    """The arrays of one SparseTensor, checked as TF's kernels check their sparse inputs."""
    indices, values, shape = (np.asarray(indices, np.int64), np.asarray(values),
                              np.asarray(shape, np.int64))
    if indices.ndim != 2:
        raise _invalid(f"Sparse indices must be rank 2 but is rank {indices.ndim}")
    if values.ndim != 1:
        raise _invalid(f"Sparse values must be rank 1 but is rank {values.ndim}")
    if len(indices) != len(values):
        raise _invalid(f"Number of elements in indices ({len(indices)}) and values "
                       f"({len(values)}) do not match")
    if shape.ndim != 1:
        raise _invalid(f"Sparse shape must be rank 1 but is rank {shape.ndim}")
    if indices.shape[1] != len(shape):
        raise _invalid(f"Index rank ({indices.shape[1]}) and shape rank ({len(shape)}) do not "
                       f"match")
    return indices, values, shape


def _check_in_bounds(indices, shape):
    """TF's error for the first index row outside `shape` (SparseBincount, SparseSparseMaximum
    and Minimum check it; order and repeats they leave)."""
    bad = np.argwhere(((indices < 0) | (indices >= shape)).any(1))
    if bad.size:
        i = bad[0, 0]
        raise _invalid(f"Sparse index tuple indices[{i}, :] = [{', '.join(map(str, indices[i]))}]"
                       " is out of bounds")


def _sparse_sparse_kernel(fn):
    def kernel(xp, a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        a_indices, a_values, a_shape = _check_sparse(a_indices, a_values, a_shape)
        b_indices, b_values, b_shape = _check_sparse(b_indices, b_values, b_shape)
        _check_shapes_agree(a_shape, b_shape)
        _check_in_bounds(a_indices, a_shape)  # (else entries outside the shape came back)
        _check_in_bounds(b_indices, b_shape)
        return _merge(a_indices, a_values, b_indices, b_values, fn=fn)
    return kernel


def _sparse_sparse_rule(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
    rank = _index_width(a_indices, b_indices)
    return [(TensorShape([None, rank]), _I64), (TensorShape([None]), a_values.dtype)]


_MIN_MAX_KERNELS = (_d.float64, _d.float32, _d.bfloat16, _d.float16, _d.int32, _d.int8, _d.uint8,
                    _d.int16, _d.uint16, _d.uint32, _d.int64, _d.uint64)


def _register_sparse_sparse(name, fn):
    op = register(name, _sparse_sparse_kernel(fn), _sparse_sparse_rule, multi=True,
                  tied=(1, 4), dtypes=REAL_NUMBER_TYPES, kernels=_MIN_MAX_KERNELS,
                  input_names=("a_values", "b_values"))
    tf_nodes[op] = NodeForm(types={"T": 1}, outputs=("output_indices", "output_values"))
    tf_args[op] = ("a_indices", "a_values", "a_shape", "b_indices", "b_values", "b_shape")
    batching_rules[op] = PER_ELEMENT

    @registry.register_gradient(name)
    def _grad(op, *grads):
        raise NotImplementedError(f"Gradient for {name} is not implemented.")
    return op


_SPARSE_MAXIMUM = _register_sparse_sparse("SparseSparseMaximum", np.maximum)
_SPARSE_MINIMUM = _register_sparse_sparse("SparseSparseMinimum", np.minimum)


@export("sparse.softmax")
def softmax(sp_input, name=None):
    """Softmax over the entries of each innermost row of `sp_input` (absent entries take no
    part); the result has the same entries. As TF's, the values come in the row-major order
    of the entries, which are those given when `sp_input` is in that order."""
    sp = _sparse(sp_input)
    values = dispatch(_SPARSE_SOFTMAX, (sp.indices, sp.values, sp.dense_shape), {}, name)
    return _with_shape(SparseTensor(sp.indices, values, sp.dense_shape), sp.shape)


def _sparse_softmax(xp, indices, values, shape):
    """The kernel of op SparseSoftmax: the entries sorted row-major, each innermost row's
    values' softmax (its largest taken off first)."""
    indices, values, shape = np.asarray(indices, np.int64), np.asarray(values), np.asarray(shape)
    if shape.ndim != 1 or shape.size < 2:
        raise _invalid(f"Input should have rank >= 2, but received shape: "
                       f"{' '.join(map(str, np.atleast_1d(shape)))}")
    if indices.ndim != 2 or indices.shape[0] != values.shape[0]:
        raise _invalid(f"indices and values rows (indexing dimension) must match. (indices = "
                       f"{indices.shape[0]}, values = {values.shape[0]})")
    order = _index_order(indices)
    indices, values = indices[order], values[order]
    _, group = np.unique(indices[:, :-1], axis=0, return_inverse=True)
    group = group.reshape(-1)
    top = np.full(group.max(initial=-1) + 1, -np.inf, values.dtype)
    np.maximum.at(top, group, values)
    shifted = np.exp(values - top[group])
    total = np.zeros(len(top), values.dtype)
    np.add.at(total, group, shifted)
    return (shifted / total[group]).astype(values.dtype, copy=False)


_SPARSE_SOFTMAX = register("SparseSoftmax", _sparse_softmax,
                           lambda indices, values, shape: (values.shape, values.dtype),
                           tied=(1,), dtypes=(_d.float16, _d.float32, _d.float64),
                           input_names=("sp_values",))
tf_nodes[_SPARSE_SOFTMAX] = NodeForm(types={"T": 1})
tf_args[_SPARSE_SOFTMAX] = ("sp_indices", "sp_values", "sp_shape")
batching_rules[_SPARSE_SOFTMAX] = PER_ELEMENT


@registry.register_gradient("SparseSoftmax")
def _sparse_softmax_grad(op, grad):
    # (grad - the sum over its row of grad * softmax) * softmax, entry by entry
    indices, _, shape = op.inputs
    out = op.outputs
    indices, shape = _i64(indices), _i64(shape)
    rows = reduce_sum(SparseTensor(indices, math_ops.multiply(out, grad), shape), axis=-1,
                      keepdims=True)
    at_row = array_ops.concat([indices[:, :-1], array_ops.zeros_like(indices[:, -1:])], 1)
    return [None, math_ops.multiply(math_ops.subtract(grad, array_ops.gather_nd(rows, at_row)),
                                    out), None]


@export("sparse.transpose")
def transpose(sp_input, perm=None, name=None):
    """`sp_input` with its dimensions permuted by `perm` (reversed by default)."""
    sp = _sparse(sp_input)
    rank = sp.shape.rank
    perm = list(range(rank))[::-1] if perm is None else [
        int(p) for p in np.ravel(get_static_value(as_tensor(perm)))]
    out = SparseTensor(array_ops.gather(sp.indices, perm, axis=1), sp.values,
                       array_ops.gather(sp.dense_shape, perm))
    out = reorder(out)
    if sp.shape.rank is not None:
        dims = sp.shape.as_list()
        out = _with_shape(out, TensorShape([dims[p] for p in perm]))
    return out


@export("sparse.mask")
def mask(a, mask_indices, name=None):
    """The `IndexedSlices` `a` without the slices whose indices are in `mask_indices`."""
    keep = math_ops.logical_not(reduction_ops.reduce_any(math_ops.equal(
        array_ops.expand_dims(a.indices, 1), array_ops.expand_dims(as_tensor(mask_indices), 0)),
        axis=1))
    return IndexedSlices(array_ops.boolean_mask(a.values, keep),
                         array_ops.boolean_mask(a.indices, keep), a.dense_shape)


@export("sparse.eye")
def eye(num_rows, num_columns=None, dtype=_d.float32, name=None):
    """A sparse identity matrix ``[num_rows, num_columns]`` (square by default)."""
    rows = _i64(num_rows)
    columns = rows if num_columns is None else _i64(num_columns)
    diagonal = array_ops.range(math_ops.minimum(rows, columns), dtype=_I64)
    return SparseTensor(array_ops.stack([diagonal, diagonal], axis=1),
                        array_ops.ones_like(diagonal, dtype=_d.as_dtype(dtype)),
                        array_ops.stack([rows, columns]))


def _sparse_split(xp, indices, values, shape, num_split, axis):
    rank = shape.size
    if not -rank <= axis < rank:
        raise _invalid(f"Input axis should be in range [{-rank}, {rank}), got {axis}")
    axis %= rank
    size = int(shape[axis])
    if not 1 <= num_split <= size:
        raise _invalid(f"Input num_split should be between 1 and the splitting dimension size "
                       f"({size}), got {num_split}")
    base, extra = divmod(size, num_split)
    starts = [i * base + min(i, extra) for i in range(num_split + 1)]
    at = indices[:, axis]
    pieces = [[], [], []]
    for i in range(num_split):
        keep = (at >= starts[i]) & (at < starts[i + 1])
        piece = indices[keep]
        piece[:, axis] -= starts[i]
        piece_shape = shape.copy()
        piece_shape[axis] = starts[i + 1] - starts[i]
        for out, value in zip(pieces, (piece, values[keep], piece_shape)):
            out.append(value)
    return tuple(pieces[0] + pieces[1] + pieces[2])


def _sparse_split_rule(indices, values, shape, num_split, axis):
    rank = shape.shape[0] if shape.shape.rank == 1 else None
    return ([(TensorShape([None, rank]), _d.int64)] * num_split
            + [(TensorShape([None]), values.dtype)] * num_split
            + [(TensorShape([rank]), _d.int64)] * num_split)


_SPARSE_SPLIT = register("SparseSplit", _sparse_split, _sparse_split_rule, multi=True,
                         tied=(1,))
tf_nodes[_SPARSE_SPLIT] = NodeForm(
    inputs=(AttrInput("axis", "split_dim", None, kind=int), 0, 1, 2), types={"T": 1})
tf_args[_SPARSE_SPLIT] = ("split_dim", "indices", "values", "shape")
batching_rules.assign(PER_ELEMENT, _SPARSE_SPLIT)
no_gradient_entry("SparseSplit")  # (as in TF: a gradient through it is a LookupError)


@export("sparse.split")
def split(sp_input=None, num_split=None, axis=None, name=None):
    """`sp_input` cut into `num_split` SparseTensors along `axis`; the first ``size %
    num_split`` pieces are one longer.

    >>> st = tf.sparse.SparseTensor([[0, 0], [1, 3]], [1.0, 2.0], [2, 4])
    >>> [p.dense_shape.numpy().tolist() for p in tf.sparse.split(sp_input=st, num_split=2, axis=1)]
    [[2, 2], [2, 2]]
    """
    sp = _sparse(sp_input)
    if num_split is None:
        raise ValueError("Argument `num_split` is required")
    if axis is None:
        raise ValueError("Argument `axis` is required")
    if num_split < 1:
        raise _invalid(f"Value for attr 'num_split' of {num_split} must be at least minimum 1")
    outs = dispatch(_SPARSE_SPLIT, (sp.indices, sp.values, sp.dense_shape),
                    {"num_split": int(num_split), "axis": int(axis)}, name)
    n = int(num_split)
    return [SparseTensor(outs[i], outs[n + i], outs[2 * n + i]) for i in range(n)]


@export("sparse.reset_shape")
def reset_shape(sp_input, new_shape=None):
    """`sp_input` with dense shape `new_shape` (no smaller than it), or by default the
    smallest shape that holds its entries."""
    sp = _sparse(sp_input)
    if new_shape is None:
        shape = math_ops.add(reduction_ops.reduce_max(sp.indices, axis=0), np.int64(1))
        shape = array_ops.where(math_ops.greater(array_ops.size(sp.values), 0), shape,
                                array_ops.zeros_like(sp.dense_shape))
        return SparseTensor(sp.indices, sp.values, shape)
    new_shape = _i64(new_shape)
    ranks = new_shape.shape.num_elements(), sp.dense_shape.shape.num_elements()
    if None not in ranks and ranks[0] != ranks[1]:  # (TF's: the shapes' lengths merged)
        raise ValueError(f"Dimensions {ranks[0]} and {ranks[1]} are not compatible")
    old, new = get_static_value(sp.dense_shape), get_static_value(new_shape)
    if old is not None and new is not None and np.any(new < old):
        # (TF's text, which names the shapes the other way round)
        raise ValueError(f"Requested new_shape should have dimension sizes >= sp_input.shape."
                         f"  Found new_shape ({np.asarray(old)}), sp_input.shape "
                         f"({np.asarray(new)}).")
    return SparseTensor(sp.indices, sp.values, new_shape)


@export("sparse.sampled_addmm")
def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0,
                  output_type=_d.float32):
    """``alpha * (mat1 @ mat2) + beta * values`` computed only at `indices` (the last axis:
    row, column; leading axes batch): ``(indices, new_values, dense_shape)``.

    >>> _, v, _ = tf.sparse.sampled_addmm([[0, 1]], [1.0], [2, 2], tf.ones([2, 3]),
    ...                                   tf.ones([3, 2]), beta=0.5, alpha=2.0)
    >>> v.numpy().tolist()
    [6.5]
    """
    indices, values = as_tensor(indices), as_tensor(values)
    mat1, mat2 = as_tensor(mat1), as_tensor(mat2)
    batch = max((mat1.shape.rank or 2) - 2, 0)
    rows = array_ops.gather(mat1, indices[..., 0], batch_dims=batch)
    columns = array_ops.gather(late.linalg_ops.matrix_transpose(mat2), indices[..., 1],
                               batch_dims=batch)
    products = reduction_ops.reduce_sum(math_ops.multiply(rows, columns), axis=-1)
    new_values = math_ops.add(math_ops.multiply(cast_ops.cast(alpha, products.dtype), products),
                              math_ops.multiply(cast_ops.cast(beta, products.dtype),
                                                cast_ops.cast(values, products.dtype)))
    return indices, cast_ops.cast(new_values, output_type), as_tensor(dense_shape)


@export("sparse.map_values")
def map_values(op, *args, **kwargs):
    """`op` applied to the values of the SparseTensors among its arguments (which must share
    their dense shape and indices: InvalidArgumentError if not); the result keeps those
    indices.

    >>> st = tf.sparse.SparseTensor([[0, 1]], [2.0], [2, 2])
    >>> tf.sparse.map_values(tf.multiply, st, st).values.numpy()
    array([4.], dtype=float32)
    """
    found = [a for a in list(args) + list(kwargs.values()) if isinstance(a, SparseTensor)]
    if not found:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = found[0]
    # (values of other positions would pair silently: TF checks shapes and indices, each
    # other tensor's in turn, eagerly or as the graph's control dependencies)
    checks = []
    for other in found[1:]:
        checks.append(debugging_ops.assert_equal(first.dense_shape, other.dense_shape,
                                                 message="Mismatched shapes!"))
        checks.append(debugging_ops.assert_equal(first.indices, other.indices,
                                                 message="Mismatched indices!"))
    args = [a.values if isinstance(a, SparseTensor) else a for a in args]
    kwargs = {k: v.values if isinstance(v, SparseTensor) else v for k, v in kwargs.items()}
    checks = [c for c in checks if c is not None]
    if not checks:
        return SparseTensor(first.indices, op(*args, **kwargs), first.dense_shape)
    with context.get().graph.control_dependencies(checks):
        return SparseTensor(first.indices, op(*args, **kwargs), first.dense_shape)


# -- SparseCross ------------------------------------------------------------------------------------

_HASH_MUL = 0xc6a4a7935bd1e995
_M64 = (1 << 64) - 1
_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _shift_mix(v):
    return v ^ (v >> 47)


def _fingerprint_cat(a, b):
    r = a ^ _HASH_MUL
    r ^= (_shift_mix((b * _HASH_MUL) & _M64) * _HASH_MUL) & _M64
    r = (r * _HASH_MUL) & _M64
    r = (_shift_mix(r) * _HASH_MUL) & _M64
    return _shift_mix(r)


def _feature_rows(indices, values, shape):
    rows = [[] for _ in range(int(shape[0]))]
    for (r, *_), v in zip(indices.tolist(), values.tolist()):
        rows[r].append(v)
    return rows


def _cross_kernel(xp, *parts, num, hashed, num_buckets, hash_key, sep):
    features = [_feature_rows(*parts[3 * i:3 * i + 3]) for i in range(num)]
    batch = len(features[0]) if features else 0  # (no inputs: TF's empty cross)
    strings = [parts[3 * i + 1].dtype == object for i in range(num)]
    if hashed:
        hashes = []
        for column, is_string in zip(features, strings):
            if is_string:
                flat = [v for row in column for v in row]
                fps = iter(fingerprint_ops.fingerprint64(np.array(flat or [], object)).tolist()
                           if flat else [])
                hashes.append([[next(fps) for _ in row] for row in column])
            else:
                hashes.append([[v & _M64 for v in row] for row in column])
        features = hashes
    out_indices, out_values = [], []
    width = 0
    for r in range(batch):
        combos = [()]
        for column in features:
            combos = [c + (v,) for c in combos for v in column[r]]
        width = max(width, len(combos))
        for j, combo in enumerate(combos):
            out_indices.append((r, j))
            if hashed:
                h = hash_key
                for v in combo:
                    h = _fingerprint_cat(h, v)
                out_values.append(h % num_buckets if num_buckets > 0 else h % (2**63 - 1))
            else:
                out_values.append(sep.join(v if isinstance(v, bytes) else str(v).encode()
                                           for v in combo))
    indices = np.array(out_indices, np.int64).reshape(-1, 2)
    if hashed:
        values = np.array(out_values, np.int64)
    else:
        values = np.empty(len(out_values), object)
        values[:] = out_values
    return indices, values, np.array([batch, width], np.int64)


def _cross_split(arrays):
    """The sparse inputs' count N and the dense inputs' of SparseCross's flat inputs (N
    indices, N values, N shapes, then the dense ones): the indices are the leading matrices,
    unless all of them are (dense inputs alone)."""
    leading = next((i for i, a in enumerate(arrays) if np.ndim(a) != 2), len(arrays))
    n = 0 if leading == len(arrays) else leading
    return n, len(arrays) - 3 * n


def _cross_parts(arrays):
    """SparseCross's inputs as the (indices, values, shape) triples `_cross_kernel` takes,
    a dense input's entries its elements row by row."""
    n, m = _cross_split(arrays)
    parts = []
    for i in range(n):
        values = np.asarray(arrays[n + i])
        if values.dtype.kind not in "OSU" and values.dtype != np.int64:
            raise _invalid(f"sparse_values must be int64 or string, got {values.dtype}")
        parts += [np.asarray(arrays[i], np.int64), values, np.asarray(arrays[2 * n + i])]
    for dense in arrays[3 * n:]:
        dense = np.asarray(dense)
        if dense.dtype.kind not in "OSU" and dense.dtype != np.int64:
            raise _invalid(f"dense_inputs must be int64 or string, got {dense.dtype}")
        if dense.ndim != 2:
            raise _invalid(f"Dense inputs should be a matrix but received shape "
                           f"{_dims(dense.shape)}")
        rows, cols = dense.shape
        at = np.stack(np.unravel_index(np.arange(rows * cols), (rows, cols)), 1)
        parts += [at.astype(np.int64).reshape(-1, 2), dense.reshape(-1),
                  np.array([rows, cols], np.int64)]
    batch = int(parts[2][0]) if parts else 0
    for i in range(n + m):
        if int(parts[3 * i + 2][0]) != batch:
            kind, at = ("sparse", i) if i < n else ("dense", i - n)
            raise _invalid(f"Expected batch size {batch} got {int(parts[3 * i + 2][0])} at "
                           f"{kind} tensor {at}")
    return parts, n + m


def _sparse_cross_v2(xp, *arrays):
    """The kernel of op SparseCrossV2: each row's features crossed, joined by `sep` (the last
    input)."""
    sep = np.asarray(arrays[-1]).reshape(-1)[0]
    parts, num = _cross_parts(arrays[:-1])
    return _cross_kernel(xp, *parts, num=num, hashed=False, num_buckets=0, hash_key=0,
                         sep=sep.encode() if isinstance(sep, str) else bytes(sep))


def _sparse_cross(xp, *arrays, hashed_output, num_buckets, hash_key, out_type=None,
                  internal_type=None):
    """The kernel of op SparseCross: as SparseCrossV2's with "_X_", or each cross hashed
    (`hashed_output`) into [0, num_buckets) by FarmHash fingerprints keyed by `hash_key`."""
    parts, num = _cross_parts(arrays)
    return _cross_kernel(xp, *parts, num=num, hashed=bool(hashed_output),
                         num_buckets=int(num_buckets), hash_key=int(hash_key) & _M64,
                         sep=b"_X_")


def _cross_rule(*inputs, hashed_output=False, **_):
    return [(TensorShape([None, 2]), _I64),
            (TensorShape([None]), _I64 if hashed_output else _d.string), (TensorShape([2]), _I64)]


def _cross_attrs(extra):
    """TF's N and list attrs of a SparseCross node, from its inputs' ranks."""
    def rewrite(attrs, inputs):
        ranks = [t.ndim if isinstance(t, np.ndarray) else t.shape.rank  # (arrays: an error's)
                 for t in inputs[:len(inputs) - extra]]
        n, _ = _cross_split([np.zeros((0,) * (r or 0)) for r in ranks])
        return {**attrs, "N": n, "sparse_types": tuple(t.dtype for t in inputs[n:2 * n]),
                "dense_types": tuple(t.dtype for t in inputs[3 * n:len(inputs) - extra])}
    return rewrite


_CROSS_LISTS = ("*indices", "*values", "*shapes", "*dense_inputs")
_CROSS_OUTPUTS = ("output_indices", "output_values", "output_shape")
_SPARSE_CROSS_V2 = register("SparseCrossV2", _sparse_cross_v2, _cross_rule, multi=True, tied=(),
                            not_differentiable="crosses features")
tf_nodes[_SPARSE_CROSS_V2] = NodeForm(
    types={}, ignored=("N", "sparse_types", "dense_types"), rewrite=_cross_attrs(1),
    outputs=_CROSS_OUTPUTS)
tf_args[_SPARSE_CROSS_V2] = (*_CROSS_LISTS, "sep")
_SPARSE_CROSS = register("SparseCross", _sparse_cross, _cross_rule, multi=True, tied=(),
                         not_differentiable="crosses features")
tf_nodes[_SPARSE_CROSS] = NodeForm(
    types={}, ignored=("N", "sparse_types", "dense_types"), rewrite=_cross_attrs(0),
    outputs=_CROSS_OUTPUTS)
tf_args[_SPARSE_CROSS] = _CROSS_LISTS
batching_rules.assign(PER_ELEMENT, _SPARSE_CROSS_V2, _SPARSE_CROSS)


def _cross_inputs(inputs, kinds="Tensor or SparseTensor."):
    """SparseCross's inputs for `inputs`: the sparse ones' indices, values and shapes, then
    the dense ones (as TF crosses them), values of other dtypes than string as int64 (1.5 as
    1, True as 1, as TF's). As TF's, `inputs` is a list of tensors and SparseTensors only
    (not variables, arrays or nested lists: TypeError "All inputs must be " + `kinds`)."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(x, (SparseTensor, Tensor)) for x in inputs):
        raise TypeError("All inputs must be " + kinds)
    sparse = [x for x in inputs if isinstance(x, SparseTensor)]
    dense = [as_tensor(x) for x in inputs if not isinstance(x, SparseTensor)]
    for x in dense:
        if x.shape.rank != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {x.shape.rank}")

    def as_int(v):
        return v if v.dtype in (_d.string, _I64) else cast_ops.cast(v, _I64)
    return ([x.indices for x in sparse] + [as_int(x.values) for x in sparse] +
            [x.dense_shape for x in sparse] + [as_int(x) for x in dense])


@export("sparse.cross")
def cross(inputs, name=None, separator=None):
    """The crossed features of each row of `inputs` (2-D dense tensors or SparseTensors of
    strings or integers): every combination, one from each input, joined by `separator`
    (``"_X_"``), as a SparseTensor.

    >>> tf.sparse.cross([tf.constant([["a"], ["b"]]), tf.constant([[1], [2]])]).values
    <tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a_X_1', b'b_X_2'], dtype=object)>
    """
    sep = convert_to_tensor(separator or "_X_", _d.string)
    return SparseTensor(*dispatch(_SPARSE_CROSS_V2, _cross_inputs(inputs) + [sep], {}, name))


@export("sparse.cross_hashed")
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """As `cross`, each combination hashed (FarmHash fingerprints, combined as TF does) into
    ``[0, num_buckets)`` (int64; any int64 when `num_buckets` is 0)."""
    parts = _cross_inputs(inputs, "SparseTensors")
    internal = _I64 if any(t.dtype == _I64 for t in parts[len(parts) // 3:]) else _d.string
    return SparseTensor(*dispatch(_SPARSE_CROSS, parts, {
        "hashed_output": True, "num_buckets": int(num_buckets),
        "hash_key": _DEFAULT_HASH_KEY if hash_key is None else int(hash_key),
        "out_type": _I64, "internal_type": internal}, name))


# -- SparseTensor's operators: `st * dense`, `st / dense` ------------------------------------------

def _dense_at(indices, shape, dense):
    """The element of `dense` (broadcast to dense shape `shape`, as TF's SparseDenseCwise ops
    broadcast it) at each index row of `indices`."""
    if dense.ndim > len(shape) or any(d not in (1, n) for d, n in zip(
            dense.shape[::-1], shape[::-1])):
        raise _invalid(f"SparseDenseBinaryOpShared broadcasts dense to sparse only; got "
                       f"incompatible shapes: {_dims(shape)} vs. {_dims(dense.shape)}")
    at = indices[:, len(shape) - dense.ndim:]
    if ((at < 0) | (at >= shape[len(shape) - dense.ndim:])).any():
        raise _invalid("Provided indices are out-of-bounds w.r.t. dense side with broadcasted "
                       "shape")
    return dense[tuple(at[:, k] if d != 1 else 0 for k, d in enumerate(dense.shape))]


def _sparse_dense_kernel(name):
    def kernel(xp, indices, values, shape, dense):
        indices, values = np.asarray(indices, np.int64), np.asarray(values)
        shape, dense = np.asarray(shape, np.int64), np.asarray(dense)
        if indices.ndim != 2:
            raise _invalid(f"Input sp_indices should be a matrix but received shape: "
                           f"{_dims(indices.shape)}")
        if values.ndim != 1 or shape.ndim != 1:
            raise _invalid(f"Inputs sp_values and sp_shape should be vectors but received "
                           f"shapes: {_dims(values.shape)} and {_dims(shape.shape)}")
        if len(values) != len(indices):
            raise _invalid(f"The first dimension of values and indices should match. "
                           f"({len(values)} vs. {len(indices)})")
        picked = _dense_at(indices, shape, dense)
        if name == "Add":
            return values + picked
        if name == "Mul":
            return values * picked
        if (picked == 0).any():  # (only the elements the entries meet)
            raise _invalid("SparseDenseCwiseDiv cannot divide by zero,but input dense tensor "
                           "contains zero ")
        if values.dtype.kind in "iu":  # integers divide rounding toward zero, as C++'s
            return ((np.abs(values) // np.abs(picked)) * (np.sign(values) * np.sign(picked))
                    ).astype(values.dtype)
        return (values / picked).astype(values.dtype, copy=False)
    return kernel


def _sparse_dense_grad(name):
    def grad(op, grad):
        if name == "Add":
            raise NotImplementedError("Gradient for SparseDenseCwiseAdd is not implemented.")
        indices, values, shape, dense = op.inputs
        # each entry's dense element: its index's last dims, 0 along dims of size 1
        dense_shape = array_ops.shape(dense, out_type=_I64)
        # (the ranks as numbers where known, which batched gradients need)
        rank = dense.shape.rank
        if rank is None:
            rank = array_ops.size(dense_shape, out_type=_I64)
        sparse_rank = shape.shape[0] if shape.shape.rank == 1 else None
        if sparse_rank is None:
            sparse_rank = array_ops.size(shape, out_type=_I64)
        at = math_ops.multiply(indices[:, sparse_rank - rank:],
                               cast_ops.cast(math_ops.not_equal(dense_shape, np.int64(1)),
                                             _I64))
        picked = array_ops.gather_nd(dense, at)
        if name == "Mul":
            values_grad, picked_grad = math_ops.multiply(grad, picked), math_ops.multiply(
                grad, values)
        else:
            values_grad = math_ops.truediv(grad, picked)
            picked_grad = math_ops.multiply(grad, math_ops.truediv(
                math_ops.negative(values), math_ops.square(picked)))
        # entries meeting one element (along a broadcast dim) add their gradients up
        dense_grad = array_ops.scatter_nd(at, picked_grad, dense_shape)
        return [None, values_grad, None, dense_grad]
    return grad


def _sparse_dense_rule(indices, values, shape, dense):
    return values.shape.merge_with(TensorShape([indices.shape[0] if indices.shape.rank
                                                else None])), values.dtype


def _register_sparse_dense(name):
    op = register(f"SparseDenseCwise{name}", _sparse_dense_kernel(name), _sparse_dense_rule,
                  tied=(1, 3), dtypes=NUMBER_TYPES, kernels=_MIN_MAX_KERNELS,
                  input_names=("sp_values", "dense"))
    tf_nodes[op] = NodeForm(types={"T": 1})
    tf_args[op] = ("sp_indices", "sp_values", "sp_shape", "dense")
    batching_rules[op] = PER_ELEMENT
    registry.register_gradient(f"SparseDenseCwise{name}")(_sparse_dense_grad(name))
    return op


_SPARSE_DENSE_ADD = _register_sparse_dense("Add")
_SPARSE_DENSE_MUL = _register_sparse_dense("Mul")
_SPARSE_DENSE_DIV = _register_sparse_dense("Div")


def _cwise(op):
    """A SparseTensor's operator with a dense operand (broadcast to the sparse shape): `op`
    of each entry and the dense element at its index; the result keeps the entries. `/`
    divides as `tf.truediv` does, integers cast to floats first."""
    def method(self, other, name=None):
        other = convert_to_tensor(other, self.dtype)  # (a SparseTensor: TF's ValueError)
        values = self.values
        if op is _SPARSE_DENSE_DIV:
            values, other = math_ops._division_operands(values, other, "__truediv__",
                                                        lambda x, y: (x, y))
        values = dispatch(op, (self.indices, values, self.dense_shape, other), {}, name)
        return SparseTensor(self.indices, values, self.dense_shape)
    return method


SparseTensor.__mul__ = _cwise(_SPARSE_DENSE_MUL)
SparseTensor.__rmul__ = SparseTensor.__mul__  # (`dense * st`: the same product, as TF's)
SparseTensor.__truediv__ = _cwise(_SPARSE_DENSE_DIV)
SparseTensor.__div__ = SparseTensor.__truediv__


# -- embedding lookups of sparse ids ---------------------------------------------------------

@export("nn.embedding_lookup_sparse")
def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None,
                            name=None, allow_fast_lookup=False):
    """The embeddings of each row's ids of the 2-D `sp_ids` combined by `combiner` ("sum",
    "mean" (the default) or "sqrtn"), weighted by `sp_weights` if given; one row per row
    up to the last with an id (rows without ids give zeros).

    >>> ids = tf.sparse.SparseTensor([[0, 0], [0, 1]], tf.constant([0, 1], tf.int64), [1, 2])
    >>> tf.nn.embedding_lookup_sparse(tf.constant([[1.0], [3.0]]), ids, None)
    <tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[2.]], dtype=float32)>
    """
    return lookup_sparse(params, sp_ids, sp_weights, combiner, max_norm, name,
                         allow_fast_lookup)


def _check_sparse_ids(ids, weights):
    """TF's TypeError for ids or weights that are not `SparseTensor`s; ragged ones (which
    raise on conversion) have their own lookup (see ``ragged_dispatch``)."""
    for value, what in ((ids, "sp_ids must be"), (weights, "sp_weights must be either None or")):
        if value is not None and not isinstance(value, SparseTensor):
            if not isinstance(value, Tensor):
                convert_to_tensor(value)
            raise TypeError(f"{what} SparseTensor, got {type(value)}")


def lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                  allow_fast_lookup=False, lookup=None):
    """`embedding_lookup_sparse`, the rows of a table in shards looked up by
    ``lookup(params, ids, max_norm)`` (by default `tf.nn.embedding_lookup`'s, TF 1's take
    a partition strategy)."""
    _check_sparse_ids(sp_ids, sp_weights)
    lookup = lookup or (lambda p, i, m: late.nn_ops.embedding_lookup(p, i, max_norm=m))
    combiner = "mean" if combiner is None else combiner
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    table = params[0] if isinstance(params, (list, tuple)) and len(params) == 1 else params
    # (TF's: one table that is a tensor, not a variable, gives its rows straight: summed
    # without weights, the gradient being dense for a fast lookup, else IndexedSlices of
    # each id once, in increasing order; with weights gathered by each id)
    direct = isinstance(table, Tensor) and max_norm is None
    combine = {"sum": segment_sum, "mean": segment_mean, "sqrtn": segment_sqrt_n}
    if direct and sp_weights is None:
        return combine[combiner](table, sp_ids.values, sp_ids.indices[:, 0], name=name,
                                 sparse_gradient=not allow_fast_lookup)
    segment_ids = cast_ops.cast(sp_ids.indices[:, 0], _d.int32)
    if sp_weights is None and not (direct and allow_fast_lookup):
        # (TF's: the rows of the unique ids combined by the sparse segment reduction,
        # which scales by the reciprocal of the count: its last bits, not a division's)
        ids, idx = reduction_ops.unique(sp_ids.values)
        return combine[combiner](lookup(params, ids, max_norm), idx, segment_ids, name=name)
    if direct and allow_fast_lookup:
        embeddings = array_ops.gather(table, sp_ids.values)
    else:
        ids, idx = reduction_ops.unique(sp_ids.values)
        embeddings = array_ops.gather(lookup(params, ids, max_norm), idx)
    if sp_weights is not None:
        weights = cast_ops.cast(sp_weights.values, embeddings.dtype)
    else:
        weights = array_ops.ones_like(segment_ids, dtype=embeddings.dtype)
    ones = [1] * (embeddings.shape.rank - 1)  # (weights broadcast over the embedding)
    total = reduction_ops.segment_sum(embeddings * array_ops.reshape(weights, [-1] + ones),
                                      segment_ids)
    if combiner == "sum":
        return cast_ops.identity(total, name=name)
    scale = reduction_ops.segment_sum(weights if combiner == "mean" else weights * weights,
                                      segment_ids)
    if combiner == "sqrtn":
        scale = math_ops.sqrt(scale)
    scale = array_ops.reshape(scale, [-1] + ones)
    return math_ops.divide_no_nan(total, scale, name=name)


@export("nn.safe_embedding_lookup_sparse")
def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, max_norm=None, name=None,
                                 allow_fast_lookup=False):
    """`embedding_lookup_sparse` of ids of any rank >= 2 that leaves out negative ids (and,
    but for a sum, ids of weight <= 0), giving rows without ids the embedding of `default_id` or zeros;
    the result has `sparse_ids`' dense shape but its last dimension, then the embedding's.
    """
    return safe_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner,
                              default_id, max_norm, name)


def safe_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                       default_id=None, max_norm=None, name=None, lookup=None):
    """`safe_embedding_lookup_sparse`, the rows looked up by `lookup` (see
    `lookup_sparse`)."""
    _check_sparse_ids(sparse_ids, sparse_weights)
    if sparse_weights is not None:  # (TF's check of the weights, before any op)
        n, m = sparse_ids.values.shape[0], sparse_weights.values.shape[0]
        if n is not None and m is not None and n != m:
            raise ValueError(f"Dimensions {n} and {m} are not compatible")
    shape = sparse_ids.dense_shape
    rank = sparse_ids.shape.rank if hasattr(sparse_ids, "shape") else None
    if rank is None:  # (None still when known only at run time: the general reshape)
        rank = get_static_value(array_ops.size(shape))
        rank = None if rank is None else int(rank)
    if rank != 2:
        rows = reduction_ops.reduce_prod(shape[:-1])
        flat = array_ops.stack([rows, shape[-1]])
        sparse_ids = reshape(sparse_ids, flat)
        if sparse_weights is not None:
            sparse_weights = reshape(sparse_weights, flat)
    valid = math_ops.greater_equal(sparse_ids.values, 0)
    if sparse_weights is not None and combiner != "sum":  # (TF keeps a sum's weights)
        valid = math_ops.logical_and(valid, math_ops.greater(sparse_weights.values, 0))
    if sparse_weights is not None:
        sparse_weights = retain(sparse_weights, valid)
    sparse_ids = retain(sparse_ids, valid)
    sparse_ids, empty = fill_empty_rows(sparse_ids, 0 if default_id is None else default_id)
    if sparse_weights is not None:
        sparse_weights, _ = fill_empty_rows(sparse_weights, 1.0)
    result = lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner=combiner,
                           max_norm=max_norm, lookup=lookup)
    if default_id is None:
        mask = array_ops.reshape(empty, [-1] + [1] * (result.shape.rank - 1))
        result = array_ops.where(mask, array_ops.zeros_like(result), result)
    out_shape = array_ops.concat([cast_ops.cast(shape[:-1], _d.int32),
                                  array_ops.shape(result)[1:]], 0)
    return array_ops.reshape(result, out_shape, name=name)
