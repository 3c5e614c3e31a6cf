"""Variable methods built on ops: ``var[key].assign(value)``, scatter updates and lookups.

Installed on `Variable` with the operator overloads. ``var[key]`` reads
like any tensor slice, and the slice can be assigned to, writing that part of
the variable in one "ResourceStridedSliceAssign" op.

>>> v = tf.Variable([1.0, 2.0, 3.0])
>>> v[1].assign(7.0)
<tf.Variable 'UnreadVariable' shape=(3,) dtype=float32, numpy=array([1., 7., 3.], dtype=float32)>
"""
import numpy as np

from eagerflow._src.core import context, errors
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import registry
from eagerflow._src.core.registry import register, register_gradient
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import UPDATE_LOCK, Variable, _UnreadVariable
from eagerflow._src.core.variables import resource_variable_info
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import AttrInput, NodeForm, tf_defaults, tf_nodes
from eagerflow._src.ops import array_ops, late, math_ops, slicing
from eagerflow._src.ops.indexed_slices import IndexedSlices


def _strided_slice_assign(xp, handle, value, *bounds, begin, end, strides, **masks):
    """Writes `value` (broadcast) into the slice of the variable that the attrs spell.

    `bounds`: begin/end/strides known only at run time (the attrs then hold None there).
    """
    index = slicing._index_tuple(*slicing._bounds_of(bounds, begin, end, strides), **masks)
    new = handle.value.copy()  # earlier reads keep their snapshot
    target = new[index]
    try:
        value = xp.broadcast_to(value, target.shape)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Cannot broadcast input shape {list(value.shape)} into final shape "
                        f"{list(target.shape)}") from None
    new[index] = value
    handle.value = new
    return ()


def _no_outputs(*_, **__):
    return []


_STRIDED_SLICE_ASSIGN = register(
    "ResourceStridedSliceAssign", _strided_slice_assign, _no_outputs, multi=True, tied=(),
    stateful=True, not_differentiable="variable update")
tf_args[_STRIDED_SLICE_ASSIGN] = ("ref", "begin", "end", "strides", "value")
tf_nodes[_STRIDED_SLICE_ASSIGN] = NodeForm(inputs=(0, *(AttrInput(b, type_attr="Index") for b in (
    "begin", "end", "strides")), 1), types={"T": 1})
tf_defaults[_STRIDED_SLICE_ASSIGN] = slicing.MASK_DEFAULTS


def _slice_assigner(var, slice_spec):
    """The `assign` of ``var[slice_spec]``: writes `value` (broadcast to the slice's shape)
    into that slice of `var` and returns the variable."""
    def assign(value, name=None):
        value = convert_to_tensor(value, dtype=var.dtype)
        key = slice_spec if type(slice_spec) in (tuple, list) else (slice_spec,)
        attrs, bounds = slicing._run_time_bounds(slicing._key_attrs(key))
        dispatch(_STRIDED_SLICE_ASSIGN, (var, value, *bounds), attrs, name)
        return _UnreadVariable(var)
    return assign


def getitem(var, slice_spec):
    """``var[slice_spec]``: the slice's value, assignable with ``.assign(value)``.

    The value is the slicing op's own output, as tapes recorded it, so
    gradients flow from it to the variable; `assign` is set on it as on any
    Python object (TF does the same).
    """
    value = slicing.getitem(var.value(), slice_spec)
    if not slicing._is_mask(slice_spec):  # a boolean mask's selection is a plain read
        value.assign = _slice_assigner(var, slice_spec)
    return value


def _written_back(variable, update, args, op_name, name):
    """``update(value, *args)`` of `variable`'s value assigned back to it, the read and the
    write one update (eagerly); errors name TF's op `op_name`."""
    with UPDATE_LOCK:
        try:
            value = update(variable.value(), *args)
        except errors.OpError as e:
            raise errors.renamed(e, op_name) from None
        return variable.assign(value, name=name)


def _scatter_nd(update, op_name):
    """A Variable method writing ``update(value, indices, updates)`` back to the variable;
    its errors name TF's op `op_name`."""
    def method(self, indices, updates, name=None):
        return _written_back(self, update, (indices, updates), op_name, name)
    method.__doc__ = f"Assigns `{update.__name__}` of the variable's value; returns the variable."
    return method


def _gather_nd(self, indices, name=None):
    """Gathers slices of the variable's value at `indices` (see `gather_nd`)."""
    return array_ops.gather_nd(self.value(), indices, name=name)


def _sparse_read(self, indices, name=None):
    """Gathers rows of the variable's value at `indices` (see `gather`)."""
    # (TF's ResourceGather takes no other indices; they are passed on as given, as a list's
    # errors are TF's slow path's)
    dtype = convert_to_tensor(indices).dtype
    if dtype not in (_d.int32, _d.int64):
        raise registry.attr_dtype_error("ResourceGather", "Tindices", dtype,
                                        (_d.int32, _d.int64), param="indices")
    try:
        return self._placed(array_ops.gather(self.value(), indices, name=name))
    except errors.OpError as e:
        raise errors.renamed(e, "ResourceGather") from None


Variable.scatter_nd_update = _scatter_nd(array_ops.tensor_scatter_nd_update,
                                         "ResourceScatterNdUpdate")
Variable.scatter_nd_add = _scatter_nd(array_ops.tensor_scatter_nd_add, "ResourceScatterNdAdd")
Variable.scatter_nd_sub = _scatter_nd(array_ops.tensor_scatter_nd_sub, "ResourceScatterNdSub")
Variable.scatter_nd_max = _scatter_nd(array_ops.tensor_scatter_nd_max, "ResourceScatterNdMax")
Variable.scatter_nd_min = _scatter_nd(array_ops.tensor_scatter_nd_min, "ResourceScatterNdMin")
Variable.gather_nd = _gather_nd


def _check_sparse_delta(sparse_delta):
    if not isinstance(sparse_delta, IndexedSlices):
        raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: "
                        f"{sparse_delta}")


def _sparse_delta_rows(var, sparse_delta):
    """`sparse_delta`'s indices as rows of `var` to scatter into, and its values; a scalar
    value (TF's ``ResourceScatter*`` take one for every element) spread over those rows."""
    _check_sparse_delta(sparse_delta)
    indices = convert_to_tensor(sparse_delta.indices)
    values = convert_to_tensor(sparse_delta.values, dtype=var.dtype)
    if values.shape.rank == 0:
        values = array_ops.broadcast_to(values, array_ops.concat(
            [array_ops.shape(indices), array_ops.shape(var)[1:]], 0))
    return array_ops.expand_dims(indices, -1), values


def _batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
    """For each position ``b`` of the leading dimensions of `sparse_delta`'s indices, sets
    ``var[b, indices[b, k]] = values[b, k]`` (``scatter_nd_update`` with the batch positions
    prepended to the indices; ``scatter_update`` for 1-D indices); returns the variable."""
    _check_sparse_delta(sparse_delta)
    indices = convert_to_tensor(sparse_delta.indices, name="indices")
    rank = indices.shape.rank
    if rank is None:
        raise ValueError("batch_gather does not allow indices with unknown shape.")
    nd = array_ops.expand_dims(indices, -1)
    shape = array_ops.shape(indices)
    parts = []
    for axis in range(rank - 1):  # (each leading position, broadcast over the rest)
        along = [1] * (rank + 1)
        along[axis] = -1
        positions = late.cast_ops.cast(array_ops.reshape(array_ops.range(shape[axis]), along),
                                       nd.dtype)
        parts.append(positions * array_ops.ones_like(nd))
    parts.append(nd)
    return self.scatter_nd_update(array_ops.concat(parts, -1),
                                  convert_to_tensor(sparse_delta.values, self.dtype), name=name)


def _check_rows(var, indices, op_name):
    """TF's error of `op_name` for an index of `indices` (eager) outside `var`'s rows."""
    rows = var.shape[0] if var.shape.rank else None
    if isinstance(indices, Tensor) and not hasattr(indices, "_data") or rows is None:
        return  # (symbolic: the op checks them as it runs)
    flat = np.reshape(np.asarray(indices), -1)
    bad = np.flatnonzero((flat < 0) | (flat >= rows)) if flat.dtype.kind in "iu" else []
    if len(bad):
        error = errors.InvalidArgumentError(None, None, errors.eager_message(
            f"indices[{bad[0]}] = {flat[bad[0]]} is not in [0, {rows})", op_name, name=""))
        raise errors.listed(error, indices)


def _updates_mismatch(updates, indices, params):
    """TF's text for updates (of shape `updates`) not shaped as the rows `indices` names of
    `params`."""
    text = errors.shape_text
    return (f"Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = "
            f"[], got updates.shape {text(updates)}, indices.shape {text(indices)}, "
            f"params.shape {text(params)}")


def _check_updates(var, rows, values, op_name):
    """TF's error of `op_name` (eager) for `values` not shaped as the `rows` they update."""
    if not context.executing_eagerly() or not var.shape.is_fully_defined():
        return
    indices = rows.shape[:-1]
    if values.shape != indices.concatenate(var.shape[1:]):
        raise errors.InvalidArgumentError(None, None, errors.eager_message(
            _updates_mismatch(values.shape, indices, var.shape), op_name, name=""))


def _scatter_rows(update, op_name):
    """A Variable method applying an IndexedSlices' rows with ``update`` (a scatter_nd op);
    its errors name TF's op `op_name`."""
    def method(self, sparse_delta, use_locking=False, name=None):
        rows, values = _sparse_delta_rows(self, sparse_delta)
        _check_rows(self, sparse_delta.indices, op_name)
        _check_updates(self, rows, values, op_name)
        return _written_back(self, update, (rows, values), op_name, name)
    method.__doc__ = (f"Applies `sparse_delta`'s rows to the variable with `{update.__name__}`;"
                      " returns the variable.")
    return method


def _scale_rows(divide):
    """scatter_mul / scatter_div: every row scaled by the product of its deltas, as repeated
    indices compound in TF."""
    def method(self, sparse_delta, use_locking=False, name=None):
        rows, values = _sparse_delta_rows(self, sparse_delta)
        with UPDATE_LOCK:  # (eagerly, the read and the write are one update)
            value = self.value()
            # a row's factor: the product of its deltas (1 for rows that none names)
            factor = late.reduction_ops.unsorted_segment_prod(
                array_ops.reshape(values, array_ops.concat([[-1], array_ops.shape(value)[1:]],
                                                           0)),
                array_ops.reshape(rows, [-1]), array_ops.shape(value)[0])
            new = (math_ops.truncatediv(value, factor) if divide and self.dtype.is_integer
                   else math_ops.divide(value, factor) if divide
                   else math_ops.multiply(value, factor))
            return self.assign(new, name=name)
    return method


Variable.scatter_update = _scatter_rows(array_ops.tensor_scatter_nd_update,
                                        "ResourceScatterUpdate")
Variable.scatter_add = _scatter_rows(array_ops.tensor_scatter_nd_add, "ResourceScatterAdd")
Variable.scatter_sub = _scatter_rows(array_ops.tensor_scatter_nd_sub, "ResourceScatterSub")
Variable.scatter_max = _scatter_rows(array_ops.tensor_scatter_nd_max, "ResourceScatterMax")
Variable.scatter_min = _scatter_rows(array_ops.tensor_scatter_nd_min, "ResourceScatterMin")
Variable.scatter_mul = _scale_rows(divide=False)
Variable.scatter_div = _scale_rows(divide=True)
Variable.sparse_read = _sparse_read
Variable.batch_scatter_update = _batch_scatter_update


# -- ResourceScatter*: TF's updates of a variable's rows, and VariableShape ----------------

def _row_update(combine):
    """The kernel of a ``ResourceScatter<X>`` op: each row `indices` names (in order, a row
    named twice updated twice) set to ``combine(new, rows, updates)``, `updates` of shape
    ``indices.shape + rows' shape``, or a scalar for every element."""
    def kernel(xp, handle, indices, updates):
        value = handle.value
        if value.dtype != updates.dtype:
            raise errors.InvalidArgumentError(
                None, None, "DType of scatter resource and updates does not match.")
        if value.ndim == 0:
            raise errors.InvalidArgumentError(None, None, "params must be at least 1-D")
        flat = indices.reshape(-1)
        array_ops._check_range(xp, flat, len(value))
        rows = value.shape[1:]
        if updates.ndim:
            want = tuple(indices.shape) + tuple(rows)
            if updates.shape != want:
                raise errors.InvalidArgumentError(None, None, _updates_mismatch(
                    updates.shape, indices.shape, value.shape))
            updates = updates.reshape((len(flat),) + tuple(rows))
        with UPDATE_LOCK:
            new = handle.value.copy()  # (earlier reads keep their snapshot)
            combine(new, flat, updates)
            handle.value = new
        return ()
    return kernel


def _update_rows(new, flat, updates):
    new[flat] = updates


_SCATTERS = {"ResourceScatterUpdate": (_update_rows, None)}
for _name, _ufunc in (("Add", np.add), ("Sub", np.subtract), ("Mul", np.multiply),
                      ("Div", np.divide), ("Min", np.minimum), ("Max", np.maximum)):
    _SCATTERS[f"ResourceScatter{_name}"] = (
        lambda new, flat, updates, _ufunc=_ufunc: _ufunc.at(new, flat, updates),
        registry.NUMBER_TYPES if _name in ("Add", "Sub", "Mul", "Div")
        else registry.REAL_NUMBER_TYPES)
for _name, (_combine, _dtypes) in _SCATTERS.items():
    _op = register(_name, _row_update(_combine), _no_outputs, multi=True, tied=(2,),
                   dtypes=_dtypes, type_attr="dtype", stateful=True,
                   not_differentiable="variable update", keeps_no_view=True)
    tf_args[_op] = ("resource", "indices", "updates")
    tf_nodes[_op] = NodeForm(types={"dtype": 2, "Tindices": 1})


def _variable_shape(xp, handle, out_type=None):
    return xp.asarray(handle.value.shape, (out_type or _d.int32).as_numpy_dtype)


def _variable_shape_rule(var, out_type=None, **_):
    info = resource_variable_info(var)
    rank = None if info is None else info[1].rank
    return TensorShape([rank]), out_type or _d.int32


_VARIABLE_SHAPE = register("VariableShape", _variable_shape, _variable_shape_rule, tied=(),
                           stateful=True, not_differentiable="a shape", replayable=True)
tf_args[_VARIABLE_SHAPE] = ("input",)
tf_nodes[_VARIABLE_SHAPE] = NodeForm(types={}, defaults={"out_type": _d.int32})


# -- ResourceGather: TF's read of a variable's rows (`sparse_read`, Keras's Embedding) -----

def _resource_gather(xp, handle, indices, batch_dims=0, dtype=None):
    return array_ops._gather_kernel(xp, handle.value, indices, batch_dims, batch_dims)


def _resource_gather_rule(var, indices, batch_dims=0, dtype=None, **_):
    held, shape = resource_variable_info(var) or (None, None)
    dtype = dtype or held
    if shape is None or shape.rank is None or indices.shape.rank is None:
        return TensorShape(None), dtype
    dims, index = shape.as_list(), indices.shape.as_list()
    return TensorShape(dims[:batch_dims] + index[batch_dims:] + dims[batch_dims + 1:]), dtype


_RESOURCE_GATHER = register("ResourceGather", _resource_gather, _resource_gather_rule,
                            tied=(), stateful=True, replayable=True)
tf_nodes[_RESOURCE_GATHER] = NodeForm(types={"dtype": "out0", "Tindices": 1},
                                      ignored=("validate_indices",), defaults={"batch_dims": 0},
                                      keep=("dtype",))
tf_args[_RESOURCE_GATHER] = ("resource", "indices")


@register_gradient("ResourceGather")
def _resource_gather_grad(op, dy):
    # the rows read, as TF gives them: an IndexedSlices of the variable's shape
    var, indices = op.inputs
    var_shape = array_ops.shape(var)
    rows = array_ops.concat([array_ops.reshape(array_ops.size(indices), [1]), var_shape[1:]], 0)
    return IndexedSlices(array_ops.reshape(dy, rows), array_ops.reshape(indices, [-1]),
                         var_shape), None
