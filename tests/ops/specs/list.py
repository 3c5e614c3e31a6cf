"""Specs of the TensorList ops (list_ops.py): lists built from rows, changed, read back."""
import numpy as np

from tests.internals import list_ops as L
from tests.ops.spec import OpSpec, rand

F32, I32 = np.float32, np.int32


def _rows(x):
    return L.from_tensor(x)


def _stacked(lst, like):
    return L.stack(lst, like.shape[1:], like.dtype)


def _with_row(x, i, row):
    out = x.copy()
    out[i] = row
    return out


def _grown(x, n):
    return np.concatenate([x, np.zeros((n - len(x),) + x.shape[1:], x.dtype)])


SPECS = [
    OpSpec("TensorListReserve", lambda n: L.stack(L.reserve([2], n, F32), [2], F32),
           [np.int32(3)], lambda n: np.zeros((3, 2), F32), grad="integer input"),
    OpSpec("TensorListLength", lambda x: L.length(_rows(x)), [rand(4, 3)],
           lambda x: np.int32(4), grad="integer output"),
    OpSpec("TensorListFromTensor", lambda x: _stacked(_rows(x), x), [rand(4, 3)], lambda x: x),
    OpSpec("TensorListStack", lambda x: L.stack(_rows(x), [3], x.dtype, num_elements=4),
           [rand(4, 3)], lambda x: x),
    OpSpec("TensorListGetItem", lambda x: L.get_item(_rows(x), 2, [3], x.dtype), [rand(4, 3)],
           lambda x: x[2]),
    OpSpec("TensorListGetItem", lambda x: x + L.get_item(L.reserve([3], 2, x.dtype), 1, [3],
                                                         x.dtype),
           [rand(3)], lambda x: x, name="TensorListGetItem-unwritten"),
    OpSpec("TensorListSetItem", lambda x, y: _stacked(L.set_item(_rows(x), 1, y), x),
           [rand(4, 3), rand(3, seed=1)], lambda x, y: _with_row(x, 1, y)),
    OpSpec("TensorListSetItem", lambda x, y: _stacked(L.set_item(_rows(x), 5, y, True), x),
           [rand(4, 3), rand(3, seed=1)], lambda x, y: _with_row(_grown(x, 6), 5, y),
           name="TensorListSetItem-resize"),
    OpSpec("TensorListGather", lambda x: L.gather(_rows(x), [[3, 0], [1, 1]], [3], x.dtype),
           [rand(4, 3)], lambda x: x[[[3, 0], [1, 1]]],
           grad="repeated indices: the gradient keeps the last row, as TF's"),
    OpSpec("TensorListGather", lambda x: L.gather(_rows(x), [3, 0], [3], x.dtype),
           [rand(4, 3)], lambda x: x[[3, 0]], name="TensorListGather-distinct"),
    OpSpec("TensorListScatterIntoExistingList",
           lambda x, y: _stacked(L.scatter(_rows(x), y, [2, 0]), x),
           [rand(4, 3), rand(2, 3, seed=1)],
           lambda x, y: _with_row(_with_row(x, 2, y[0]), 0, y[1])),
    OpSpec("TensorListConcatV2", lambda x: L.concat(_rows(x), [None, 3], x.dtype),
           [rand(4, 2, 3)], lambda x: (x.reshape(8, 3), np.full(4, 2, np.int64))),
    OpSpec("TensorListSplit",
           lambda x: L.concat(L.split(x, [None, 3], [1, 3]), [None, 3], x.dtype)[0],
           [rand(4, 3)], lambda x: x),
    OpSpec("TensorListResize", lambda x: _stacked(L.resize(_rows(x), 2), x), [rand(4, 3)],
           lambda x: x[:2]),
    OpSpec("TensorListResize", lambda x: _stacked(L.resize(_rows(x), 6), x), [rand(4, 3)],
           lambda x: _grown(x, 6), name="TensorListResize-grow"),
    OpSpec("EmptyTensorList", lambda x: L.stack(L.push_back(L.empty([3], x.dtype), x), [3],
                                                 x.dtype),
           [rand(3)], lambda x: x[None]),
    OpSpec("TensorListPushBack",
           lambda x, y: _stacked(L.push_back(L.push_back(_rows(x), y), 2 * y), x),
           [rand(4, 3), rand(3, seed=1)], lambda x, y: np.concatenate([x, [y, 2 * y]])),
    OpSpec("TensorListPopBack",
           lambda x: (lambda rest, last: (_stacked(rest, x), last))(*L.pop_back(_rows(x), [3],
                                                                              x.dtype)),
           [rand(4, 3)], lambda x: (x[:3], x[3])),
    OpSpec("TensorListAdd",
           lambda x, y: _stacked(L.add(_rows(x), L.set_item(L.reserve([3], 4, y.dtype), 1, y)),
                                 x),
           [rand(4, 3), rand(3, seed=1)], lambda x, y: _with_row(x, 1, x[1] + y)),
]
