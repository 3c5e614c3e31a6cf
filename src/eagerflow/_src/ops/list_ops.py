"""TensorList ops: the functional lists behind `TensorArray` in graphs.

A list is a scalar tensor of dtype ``variant`` whose value is a `TensorList`,
an immutable tuple of arrays holding None for the elements not written yet
(they read as zeros of the element shape).  Every op returns a new list, so
a write is a value flowing through the graph like any other and a
`while_loop` threads lists as loop variables.  The gradient of a list is a
list too, in which None stands for a zero element.

Ops that make zeros for unwritten elements take the element shape as an
int32 tensor (-1 for an unknown dimension, a scalar -1 for an unknown rank),
so a gradient can pass the shape only run time knows.

>>> lst = set_item(reserve([], 2, tf.float32), 1, tf.constant(3.0))
>>> stack(lst, [], tf.float32)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 3.], dtype=float32)>
"""
import itertools
import operator

import numpy as np

from eagerflow._src.core import dtypes as _d
from eagerflow._src.core import errors
from eagerflow._src.core.convert import constant, get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_nodes
from eagerflow._src.core.node_forms import tf_args
from eagerflow._src.core.node_forms import tf_defaults
from eagerflow._src.core.registry import register, register_gradient, takes_narrow
from eagerflow._src.core.tensor import Tensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.registry import PER_ELEMENT, batching_rules
from eagerflow._src.ops import array_ops
from eagerflow._src.ops.wrappers import as_tensor

_LIST = (TensorShape([]), _d.variant)


class TensorList:
    """The value of a list tensor: the elements' arrays in order, None where not written.

    Values are immutable, yet a write costs O(1) when, as in a loop, each
    version is written once and then dropped: the newest version owns one
    Python list, which a write changes in place, and every older version
    keeps only the slice that differs from its successor.  Reading an old
    version swaps it back to owning the list (a gradient walking a loop's
    history backwards pays O(1) per step).

    It passes for a scalar array of dtype ``variant`` (`shape`, `ndim`,
    `dtype`) wherever tensors look at their value's metadata.

    >>> a = TensorList([None, None]); b = a.replaced(1, 2, [7])
    >>> list(a), list(b)
    ([None, None], [None, 7])
    """

    __slots__ = ("_items", "_diff")
    shape = ()
    ndim = 0
    dtype = _d.variant

    def __init__(self, items=()):
        self._items = list(items)
        self._diff = None  # or (start, stop, items, newer): this is newer with [start:stop] = items

    def _list(self):
        """The elements, making this version the owner of the shared list."""
        if self._diff is None:
            return self._items
        path, node = [], self
        while node._diff is not None:
            path.append(node)
            node = node._diff[3]
        items = node._items
        for older in reversed(path):  # hand the list one version back at a time
            start, stop, old, _ = older._diff
            node._diff = (start, start + len(old), items[start:stop], older)
            node._items = None
            items[start:stop] = old
            older._items, older._diff = items, None
            node = older
        return items

    def replaced(self, start, stop, items):
        """A new version with elements ``[start:stop]`` replaced by `items`."""
        current = self._list()
        newer = TensorList.__new__(TensorList)
        newer._diff = None
        self._diff = (start, start + len(items), current[start:stop], newer)
        current[start:stop] = items
        newer._items, self._items = current, None
        return newer

    def __len__(self):
        return len(self._list())

    def __getitem__(self, index):
        return self._list()[index]

    def __iter__(self):
        return iter(self._list())

    def __repr__(self):
        return f"TensorList({self._list()!r})"

    def zeros_like(self):
        """A list as long as this one whose elements are all zero (None)."""
        return TensorList([None] * len(self))


def _error(message):
    return errors.InvalidArgumentError(None, None, message)


def _shape_text(element_shape):
    """An element shape as TensorFlow writes a partial shape: ``[?,2]`` or ``<unknown>``."""
    if element_shape.ndim == 0:
        return "<unknown>"
    return "[" + ",".join("?" if d < 0 else str(d) for d in element_shape.tolist()) + "]"


def _full_shape(element_shape):
    """The element shape as a tuple when every dimension is known, else None."""
    if element_shape.ndim == 0 or (element_shape < 0).any():
        return None
    return tuple(element_shape.tolist())


def _zeros(xp, lst, element_shape, dtype, message):
    """Zeros standing for an unwritten element: of `element_shape`, or of a written one's.
    An unwritten list (a higher-order gradient's list of lists) is a list with nothing
    written: as long as a written one, else empty (a sum of lists adds nothing for it)."""
    if dtype is _d.variant:
        written = next((v for v in lst if v is not None), None)
        return TensorList(()) if written is None else written.zeros_like()
    shape = _full_shape(element_shape)
    if shape is None:
        written = next((v for v in lst if v is not None), None)
        if written is None:
            raise _error(message.format(_shape_text(element_shape)))
        shape = written.shape
    return xp.zeros(shape, dtype.as_numpy_dtype)


def _filled(xp, items, element_shape, dtype, message):
    """`items` with zeros (see `_zeros`) for the unwritten ones."""
    if all(v is not None for v in items):
        return items
    zeros = _zeros(xp, items, element_shape, dtype, message)
    return [zeros if v is None else v for v in items]


def _index_in(index, n, verb):
    i = int(index)
    if not 0 <= i < n:
        raise _error(f"Trying to {verb} element {i} in a list with {n} elements.")
    return i


# -- static rules --------------------------------------------------------------------------

def _static_shape(element_shape):
    """The static element shape an element_shape input holds (unknown when run time decides)."""
    value = (get_static_value(element_shape, partial=True) if isinstance(element_shape, Tensor)
             else None)
    if value is None or np.ndim(value) == 0:
        return TensorShape(None)
    return TensorShape([None if d is None or d < 0 else int(d)
                        for d in np.asarray(value).tolist()])


def _list_rule(*_, **__):
    return _LIST


def _item_rule(lst, index, element_shape, element_dtype):
    return _static_shape(element_shape), element_dtype


def _stack_rule(lst, element_shape, element_dtype, num_elements):
    count = TensorShape([None if num_elements < 0 else num_elements])
    return count.concatenate(_static_shape(element_shape)), element_dtype


def _gather_rule(lst, indices, element_shape, element_dtype):
    return indices.shape.concatenate(_static_shape(element_shape)), element_dtype


def _concat_rule(lst, element_shape, leading_dims, element_dtype):
    shape = _static_shape(element_shape)
    rest = shape[1:] if shape.rank else TensorShape(None)
    return [(TensorShape([None]).concatenate(rest), element_dtype),
            (TensorShape([None]), _d.int64)]


# -- kernels -------------------------------------------------------------------------------

def _reserve_kernel(xp, element_shape, num_elements, element_dtype):
    return TensorList((None,) * int(num_elements))


def _set_item_kernel(xp, lst, index, item, resize_if_index_out_of_bounds):
    i, n = int(index), len(lst)
    if resize_if_index_out_of_bounds and i >= n:  # grows the list, unwritten up to i
        return lst.replaced(n, n, [None] * (i - n) + [item])
    i = _index_in(i, n, "modify")
    return lst.replaced(i, i + 1, [item])


def _get_item_kernel(xp, lst, index, element_shape, element_dtype):
    item = lst[_index_in(index, len(lst), "access")]
    if item is None:
        return _zeros(xp, lst, element_shape, element_dtype, "Trying to read an uninitialized "
                      "tensor but element_shape is not fully defined: {} and no list element "
                      "is set.")
    return item


def _stack_kernel(xp, lst, element_shape, element_dtype, num_elements):
    if num_elements >= 0 and len(lst) != num_elements:
        raise _error(f"Operation expected a list with {num_elements} elements but got a list "
                     f"with {len(lst)} elements.")
    if not lst:
        shape = _full_shape(element_shape)
        if shape is None:
            raise _error("Tried to stack elements of an empty list with non-fully-defined "
                         "element_shape: " + _shape_text(element_shape))
        return xp.zeros((0,) + shape, element_dtype.as_numpy_dtype)
    return xp.stack(_filled(xp, list(lst), element_shape, element_dtype,
                            "Tried to stack list which only contains uninitialized tensors and "
                            "has a non-fully-defined element_shape: {}"))


def _from_tensor_kernel(xp, tensor, element_shape):
    if tensor.ndim == 0:
        raise _error("Tensor must be at least a vector, but saw shape: []")
    if tensor.dtype == object:  # (iterating gives bare bytes, which are no string tensors)
        return TensorList(tensor[i, ...] for i in range(len(tensor)))
    return TensorList(tensor)


def _gather_kernel(xp, lst, indices, element_shape, element_dtype):
    picked = [lst[_index_in(i, len(lst), "gather")] for i in np.asarray(indices).ravel()]
    if not picked:
        shape = _full_shape(element_shape) or ()
        return xp.zeros(np.shape(indices) + shape, element_dtype.as_numpy_dtype)
    picked = _filled(xp, picked, element_shape, element_dtype,
                     "Tried to gather uninitialized tensors from a list with non-fully-defined "
                     "element_shape: {}")
    return xp.stack(picked).reshape(np.shape(indices) + picked[0].shape)


def _scatter_kernel(xp, lst, tensor, indices):
    indices = np.asarray(indices).ravel()
    if tensor.ndim == 0 or len(tensor) != len(indices):
        raise _error(f"Invalid number of rows in input tensor. Expected: {len(indices)} "
                     f"Actual: {tensor.shape[0] if tensor.ndim else 0}")
    items = list(lst)
    if len(indices) and indices.max() >= len(items):
        items += [None] * (int(indices.max()) + 1 - len(items))  # scatter grows the list
    for i, row in zip(indices, tensor):
        items[_index_in(i, len(items), "modify")] = row
    return TensorList(items)


def _concat_kernel(xp, lst, element_shape, leading_dims, element_dtype):
    rest = None if element_shape.ndim == 0 else _full_shape(element_shape[1:])
    if not lst:
        if rest is None:
            raise _error("All except the first dimension must be fully defined when concating "
                         "an empty tensor list. element_shape: " + _shape_text(element_shape))
        return xp.zeros((0,) + rest, element_dtype.as_numpy_dtype), np.zeros(0, np.int64)
    message = ("Trying to concat list with only uninitialized tensors but "
               "element_shape_except_first_dim is not fully defined: {}")
    if len(leading_dims):  # the lengths of the unwritten elements
        if rest is None:
            rest = _zeros(xp, lst, element_shape, element_dtype, message).shape[1:]
        items = [xp.zeros((int(n),) + rest, element_dtype.as_numpy_dtype) if v is None else v
                 for v, n in zip(lst, leading_dims)]
    else:
        items = _filled(xp, list(lst), element_shape, element_dtype, message)
    for i, v in enumerate(items):
        if v.ndim == 0:
            raise _error(f"Concat saw a scalar shape at index {i} but requires at least "
                         f"vectors.")
    return xp.concatenate(items), np.array([v.shape[0] for v in items], np.int64)


def _split_kernel(xp, tensor, element_shape, lengths):
    if tensor.ndim == 0:
        raise _error("Tensor must be at least a vector, but saw shape: []")
    ends = np.cumsum(np.asarray(lengths, np.int64))
    used = int(ends[-1]) if len(ends) else 0
    if used != tensor.shape[0]:
        raise _error(f"Unused values in tensor. Length of tensor: {tensor.shape[0]} Values "
                     f"used: {used}")
    return TensorList(tensor[start:end] for start, end in zip([0, *ends[:-1]], ends))


def _resize_kernel(xp, lst, size):
    n = int(size)
    return TensorList(lst[:n] + [None] * (n - len(lst)))


def _empty_kernel(xp, element_shape, max_num_elements, element_dtype):
    return TensorList(())


def _push_back_kernel(xp, lst, tensor):
    n = len(lst)
    return lst.replaced(n, n, [tensor])


def _pop_back_kernel(xp, lst, element_shape, element_dtype):
    n = len(lst)
    if not n:
        raise _error("Trying to pop from an empty list.")
    # (a gradient's list: an unwritten element reads as zeros, as GetItem's)
    item = _get_item_kernel(xp, lst, n - 1, element_shape, element_dtype)
    return lst.replaced(n - 1, n, []), item


def _pop_back_rule(lst, element_shape, element_dtype):
    return [_LIST, _item_rule(lst, None, element_shape, element_dtype)]


def _add_kernel(xp, a, b):
    if not isinstance(a, TensorList):  # another variant's gradients (an optional's)
        return a.added(b)
    if len(a) < len(b):
        a, b = b, a
    # b's written elements, found at C speed: a loop's gradient adds lists with one each
    b_items = list(b)
    written = list(itertools.compress(range(len(b_items)),
                                      map(operator.is_not, b_items, itertools.repeat(None))))
    for i in written:
        old = a[i]
        a = a.replaced(i, i + 1, [b_items[i] if old is None else old + b_items[i]])
    return a


_CONSTANT_LIST = "a new list's elements are unwritten: nothing to differentiate"
_RESERVE = register("TensorListReserve", _reserve_kernel, _list_rule, tied=(),
                    not_differentiable=_CONSTANT_LIST)
_LENGTH = register("TensorListLength", lambda xp, lst: np.int32(len(lst)),
                   lambda *_: (TensorShape([]), _d.int32), tied=(),
                   not_differentiable="integer output")
_SET_ITEM = register("TensorListSetItem", _set_item_kernel, _list_rule, tied=())
_GET_ITEM = register("TensorListGetItem", _get_item_kernel, _item_rule, tied=())
_STACK = register("TensorListStack", _stack_kernel, _stack_rule, tied=())
_FROM_TENSOR = register("TensorListFromTensor", _from_tensor_kernel, _list_rule, tied=())
takes_narrow(_d.FLOAT8, _SET_ITEM, _GET_ITEM, _STACK, _FROM_TENSOR)  # (TensorArrays of float8)
_GATHER = register("TensorListGather", _gather_kernel, _gather_rule, tied=())
_SCATTER = register("TensorListScatterIntoExistingList", _scatter_kernel, _list_rule, tied=())
_CONCAT = register("TensorListConcatV2", _concat_kernel, _concat_rule, multi=True, tied=())
_SPLIT = register("TensorListSplit", _split_kernel, _list_rule, tied=())
_RESIZE = register("TensorListResize", _resize_kernel, _list_rule, tied=())
# A list grown one element at a time (TF's while loops keep a forward pass's values in
# these for the gradient, which pops them back in reverse order)
_EMPTY = register("EmptyTensorList", _empty_kernel, _list_rule, tied=(),
                  not_differentiable=_CONSTANT_LIST)
_PUSH_BACK = register("TensorListPushBack", _push_back_kernel, _list_rule, tied=())
_POP_BACK = register("TensorListPopBack", _pop_back_kernel, _pop_back_rule, multi=True,
                     tied=())
# Sums the gradients of one list (None elements are zeros), as TF's AddN does for variants.
_ADD = register("TensorListAdd", _add_kernel, _list_rule, tied=())
tf_args[_ADD] = None  # eagerflow's own op: TF has none of this name
# TF's forms: a list (variant) input has no type attribute; element_dtype is the elements'
tf_nodes[_RESERVE] = NodeForm(types={"shape_type": 0}, outputs=("handle",))
tf_args[_RESERVE] = ("element_shape", "num_elements")
tf_nodes[_LENGTH] = NodeForm(types={}, outputs=("length",))
tf_args[_LENGTH] = ("input_handle",)
tf_nodes[_SET_ITEM] = NodeForm(types={"element_dtype": 2}, outputs=("output_handle",),
                               defaults={"resize_if_index_out_of_bounds": False})  # (TF's)
tf_args[_SET_ITEM] = ("input_handle", "index", "item")
tf_nodes[_GET_ITEM] = NodeForm(types={}, outputs=("item",))
tf_args[_GET_ITEM] = ("input_handle", "index", "element_shape")
tf_nodes[_STACK] = NodeForm(types={}, outputs=("tensor",))
tf_args[_STACK] = ("input_handle", "element_shape")
tf_defaults[_STACK] = {"num_elements": -1}
tf_nodes[_FROM_TENSOR] = NodeForm(types={"element_dtype": 0, "shape_type": 1},
                                  outputs=("output_handle",))
tf_args[_FROM_TENSOR] = ("tensor", "element_shape")
tf_nodes[_GATHER] = NodeForm(types={}, outputs=("values",))
tf_args[_GATHER] = ("input_handle", "indices", "element_shape")
tf_nodes[_SCATTER] = NodeForm(types={"element_dtype": 1}, outputs=("output_handle",))
tf_args[_SCATTER] = ("input_handle", "tensor", "indices")
tf_nodes[_CONCAT] = NodeForm(types={"shape_type": 1}, outputs=("tensor", "lengths"))
tf_args[_CONCAT] = ("input_handle", "element_shape", "leading_dims")
tf_nodes[_SPLIT] = NodeForm(types={"element_dtype": 0, "shape_type": 1},
                            outputs=("output_handle",))
tf_args[_SPLIT] = ("tensor", "element_shape", "lengths")
tf_nodes[_RESIZE] = NodeForm(types={}, outputs=("output_handle",))
tf_args[_RESIZE] = ("input_handle", "size")
tf_nodes[_EMPTY] = NodeForm(types={"shape_type": 0}, outputs=("handle",))
tf_args[_EMPTY] = ("element_shape", "max_num_elements")
tf_nodes[_PUSH_BACK] = NodeForm(types={"element_dtype": 1}, outputs=("output_handle",))
tf_args[_PUSH_BACK] = ("input_handle", "tensor")
tf_nodes[_POP_BACK] = NodeForm(types={}, outputs=("output_handle", "tensor"))
tf_args[_POP_BACK] = ("input_handle", "element_shape")


# -- functions ----------------------------------------------------------------------------

def shape_input(shape):
    """An element shape (TensorShape, list with None, or an int tensor) as the int32 input."""
    if isinstance(shape, Tensor):
        return shape
    shape = TensorShape(shape)
    if shape.rank is None:
        return constant(-1, _d.int32)
    return constant([-1 if d is None else d for d in shape.as_list()], _d.int32)


def _int(value):
    """An index or count as a tensor: Python values as int32, integer tensors as they are."""
    return as_tensor(value) if isinstance(value, Tensor) else as_tensor(value, _d.int32)


def reserve(element_shape, num_elements, element_dtype):
    """A list of `num_elements` unwritten elements."""
    return dispatch(_RESERVE, (shape_input(element_shape), _int(num_elements)),
                    {"element_dtype": _d.as_dtype(element_dtype)})


def empty(element_shape, element_dtype, max_num_elements=-1):
    """A list of no elements, to grow by `push_back`."""
    return dispatch(_EMPTY, (shape_input(element_shape), _int(max_num_elements)),
                    {"element_dtype": _d.as_dtype(element_dtype)})


def push_back(lst, tensor):
    """`lst` with `tensor` appended."""
    return dispatch(_PUSH_BACK, (lst, as_tensor(tensor)))


def pop_back(lst, element_shape, element_dtype):
    """``(rest, last)``: `lst` without its last element, and that element."""
    return dispatch(_POP_BACK, (lst, shape_input(element_shape)),
                    {"element_dtype": _d.as_dtype(element_dtype)})


def length(lst):
    """The number of elements of `lst` (int32)."""
    return dispatch(_LENGTH, (lst,))


def set_item(lst, index, item, resize=False):
    """`lst` with element `index` set to `item` (grown to fit when `resize`)."""
    return dispatch(_SET_ITEM, (lst, _int(index), item),
                    {"resize_if_index_out_of_bounds": resize})


def get_item(lst, index, element_shape, element_dtype):
    """Element `index` of `lst` (zeros of `element_shape` if it was not written)."""
    return dispatch(_GET_ITEM, (lst, _int(index), shape_input(element_shape)),
                    {"element_dtype": _d.as_dtype(element_dtype)})


def stack(lst, element_shape, element_dtype, num_elements=-1):
    """The elements stacked along a new first axis (`num_elements` >= 0: their count, checked)."""
    return dispatch(_STACK, (lst, shape_input(element_shape)),
                    {"element_dtype": _d.as_dtype(element_dtype), "num_elements": num_elements})


def from_tensor(tensor, element_shape=None):
    """The list of `tensor`'s rows (its slices along the first axis)."""
    tensor = as_tensor(tensor)
    if element_shape is None:
        element_shape = tensor.shape[1:] if tensor.shape.rank else None
    return dispatch(_FROM_TENSOR, (tensor, shape_input(element_shape)))


def gather(lst, indices, element_shape, element_dtype):
    """The elements at `indices`, stacked (shape ``indices.shape + element_shape``)."""
    return dispatch(_GATHER, (lst, _int(indices), shape_input(element_shape)),
                    {"element_dtype": _d.as_dtype(element_dtype)})


def scatter(lst, tensor, indices):
    """`lst` with the rows of `tensor` written at `indices` (grown to fit them)."""
    return dispatch(_SCATTER, (lst, as_tensor(tensor), _int(indices)))


def concat(lst, element_shape, element_dtype, leading_dims=()):
    """The elements concatenated along their first axis, and each one's length (int64).

    `leading_dims` gives the lengths of unwritten elements (else they are
    zeros of `element_shape`).
    """
    return dispatch(_CONCAT, (lst, shape_input(element_shape),
                              _int(leading_dims)),
                    {"element_dtype": _d.as_dtype(element_dtype)})


def split(tensor, element_shape, lengths):
    """The list of consecutive pieces of `tensor` of `lengths` rows each."""
    return dispatch(_SPLIT, (as_tensor(tensor), shape_input(element_shape),
                             _int(lengths)))


def resize(lst, size):
    """`lst` cut or grown (unwritten elements) to `size` elements."""
    return dispatch(_RESIZE, (lst, _int(size)))


def add(a, b):
    """The elementwise sum of two lists of gradients (None: zero)."""
    return dispatch(_ADD, (a, b))


# -- gradients -------------------------------------------------------------------------------

def _shape_of(t, start=0):
    """`t`'s shape from dimension `start` on: a list when known now, else a tensor."""
    dims = t.shape[start:]
    return dims if dims.is_fully_defined() else array_ops.shape(t)[start:]


@register_gradient("TensorListSetItem")
def _set_item_grad(op, dlist):
    lst, index, item = op.inputs
    d_item = get_item(dlist, index, _shape_of(item), item.dtype) if op.needs(2) else None
    d_list = None
    if op.needs(0):
        d_list = set_item(dlist, index, array_ops.zeros_like(item))
        if op.attrs["resize_if_index_out_of_bounds"]:  # the input was shorter
            d_list = resize(d_list, length(lst))
    return d_list, None, d_item


@register_gradient("TensorListGetItem")
def _get_item_grad(op, dy):
    lst, index, _ = op.inputs
    return set_item(array_ops.zeros_like(lst), index, dy), None, None


@register_gradient("TensorListStack")
def _stack_grad(op, dy):
    return from_tensor(dy), None


@register_gradient("TensorListFromTensor")
def _from_tensor_grad(op, dlist):
    tensor = op.inputs[0]
    return stack(dlist, _shape_of(tensor, 1), tensor.dtype), None


@register_gradient("TensorListGather")
def _gather_grad(op, dy):
    lst, indices, _ = op.inputs
    return scatter(array_ops.zeros_like(lst), dy, indices), None, None


@register_gradient("TensorListScatterIntoExistingList")
def _scatter_grad(op, dlist):
    lst, tensor, indices = op.inputs
    d_list = scatter(dlist, array_ops.zeros_like(tensor), indices) if op.needs(0) else None
    d_tensor = (gather(dlist, indices, _shape_of(tensor, 1), tensor.dtype) if op.needs(1)
                else None)
    return d_list, d_tensor, None


@register_gradient("TensorListConcatV2")
def _concat_grad(op, dy, _):
    return split(dy, None, op.outputs[1]), None, None


@register_gradient("TensorListSplit")
def _split_grad(op, dlist):
    tensor, _, lengths = op.inputs
    rest = _shape_of(tensor, 1)
    element_shape = ([None, *rest.as_list()] if isinstance(rest, TensorShape)
                     else array_ops.concat([[-1], rest], 0))
    return concat(dlist, element_shape, tensor.dtype, lengths)[0], None, None


@register_gradient("TensorListResize")
def _resize_grad(op, dlist):
    return resize(dlist, length(op.inputs[0])), None


@register_gradient("TensorListPushBack")
def _push_back_grad(op, dlist):
    tensor = op.inputs[1]
    if dlist is None:  # (the list's gradient not asked for: zeros)
        dlist = array_ops.zeros_like(op.outputs[0])
    d_list, d_tensor = pop_back(dlist, _shape_of(tensor), tensor.dtype)
    return d_list, d_tensor


@register_gradient("TensorListPopBack")
def _pop_back_grad(op, dlist, d_tensor):
    if dlist is None:
        dlist = empty(None, op.attrs["element_dtype"])
    if d_tensor is None:
        d_tensor = array_ops.zeros_like(op.outputs[1])
    return push_back(dlist, d_tensor), None


register_gradient("TensorListAdd")(lambda op, d: (d, d))


# No batching rule: a vectorized graph runs these once per batch element.
batching_rules.assign(PER_ELEMENT, _ADD, _CONCAT, _FROM_TENSOR, _GATHER, _GET_ITEM, _LENGTH,
                      _RESERVE, _RESIZE, _SCATTER, _SET_ITEM, _SPLIT, _STACK, _EMPTY,
                      _PUSH_BACK, _POP_BACK)
