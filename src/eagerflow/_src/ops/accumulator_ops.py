"""Gradient accumulators (``tf.compat.v1.ConditionalAccumulator`` and
``SparseConditionalAccumulator``): sums of the gradients workers apply, taken as their mean.

An accumulator is a scalar ``resource`` tensor whose value is an `AccumulatorValue`; its
ops are stateful and take that tensor. It keeps a global step: a gradient applied with an
older ``local_step`` is dropped as stale, and each `take_grad` (which waits for
``num_required`` gradients) resets the sum and advances the step. As a queue's, the
accumulator of a TF 1 graph holds state per session running the graph.

>>> acc = tf.compat.v1.ConditionalAccumulator(tf.float32, shape=[2])
>>> acc.apply_grad([1.0, 2.0])
>>> acc.apply_grad([3.0, 5.0])
>>> acc.take_grad(2)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2. , 3.5], dtype=float32)>
>>> acc.apply_grad([1.0, 1.0], local_step=0)  # stale: take_grad advanced the step to 1
>>> int(acc.num_accumulated())
0
"""
import collections
import threading

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import register
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import handle_text
from eagerflow._src.ops import cast_ops
from eagerflow._src.ops.data_flow_ops import _wait
from eagerflow._src.ops.indexed_slices import IndexedSlices

_NO_GRAD = "accumulator op"
_making = threading.Lock()
# TF's dtypes of accumulators (its kernels on CPU: half, float and double only)
_ALLOWED = ("float", "double", "int32", "uint8", "int16", "int8", "complex64", "int64", "qint8",
            "quint8", "qint32", "bfloat16", "qint16", "quint16", "uint16", "complex128", "half",
            "uint32", "uint64")
_KERNELS = (_d.float16, _d.float32, _d.float64)


class State:
    """What an accumulator holds: the sum, how many gradients it has (per row, sparse),
    the global step, and the condition `take_grad` waits on."""

    def __init__(self):
        self.cond = threading.Condition()
        self.count = 0
        self.sum = None       # dense: the array; sparse: [[row index, row sum, gradients]]
        self.shape = None     # the shape of the gradients summed (sparse: the dense shape)
        self.width = ()       # (sparse: the shape of a row)
        self.step = 0
        self.cancelled = False

    def cancel(self):
        with self.cond:
            self.cancelled = True
            self.cond.notify_all()


class AccumulatorValue:
    """The value of an accumulator's handle: its dtype, static shape, reduction, and where
    its state is (its own, or that of the session running its graph).

    It passes for a scalar ``resource`` array wherever tensors look at their value's
    metadata, as a lookup table's value does.
    """

    __slots__ = ("value_dtype", "value_shape", "reduction", "sparse", "runs", "_own",
                 "__weakref__")
    shape = ()
    ndim = 0
    dtype = _d.resource

    def __init__(self, value_dtype, value_shape, reduction, sparse, runs=None):
        self.value_dtype, self.value_shape = value_dtype, value_shape
        self.reduction, self.sparse, self.runs = reduction, sparse, runs
        self._own = None

    def __repr__(self):
        return handle_text("", "tensorflow::ConditionalAccumulatorBase")

    def state(self):
        running = None if self.runs is None else self.runs()
        store = getattr(running, "store", None)
        if store is None:
            with _making:
                if self._own is None:
                    self._own = State()
            return self._own
        with _making:
            found = store.get(self)
            if found is None:
                found = store[self] = State()
        return found

    def deadline(self):
        running = None if self.runs is None else self.runs()
        return getattr(running, "deadline", None)


def _shape_text(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _check_shape(acc, state, shape):
    """TF's error for a gradient of another shape than the accumulator's (its static one,
    then that of the gradients it holds)."""
    static = acc.value_shape
    if static is not None and (len(static) != len(shape) or any(
            d is not None and d != n for d, n in zip(static, shape))):
        raise errors.InvalidArgumentError(
            None, None, f"Shape mismatch: expected shape rank {len(static)}, got "
                        f"{len(shape)}" if len(static) != len(shape) else
                        f"Shape mismatch: expected {_shape_text(static)}, got "
                        f"{_shape_text(shape)}")
    if state.count and state.shape is not None and tuple(state.shape) != tuple(shape):
        raise errors.InvalidArgumentError(
            None, None, f"Shape mismatch: expected {_shape_text(state.shape)}, got "
                        f"{_shape_text(shape)}")


def _apply(xp, handle, local_step, gradient, dtype=None):
    gradient = np.array(gradient, copy=True)
    state = handle.state()
    with state.cond:
        _check_shape(handle, state, gradient.shape)
        if int(local_step) < state.step:
            return ()  # a stale gradient (TF drops it)
        state.sum = gradient if state.sum is None else state.sum + gradient
        state.shape = gradient.shape
        state.count += 1
        state.cond.notify_all()
    return ()


def _check_count(num_required):
    if int(num_required) < 1:
        raise errors.InvalidArgumentError(
            None, None, f"Argument num_required must be positive, but was {int(num_required)}")


def _take_state(handle, num_required):
    """Waits for `num_required` gradients; returns the state (its condition held)."""
    _check_count(num_required)
    state, deadline = handle.state(), handle.deadline()
    state.cond.acquire()
    try:
        while state.count < int(num_required):
            _wait(handle, state, deadline)
    except BaseException:
        state.cond.release()
        raise
    return state


def _reset(state):
    state.count, state.sum = 0, None
    state.step += 1


def _take(xp, handle, num_required, dtype):
    state = _take_state(handle, num_required)
    try:
        total = state.sum
        if handle.reduction == "MEAN":
            total = total / np.asarray(state.count, total.dtype)
        out = np.asarray(total, dtype.as_numpy_dtype)
        _reset(state)
    finally:
        state.cond.release()
    return out


def _set_step(xp, handle, new_global_step):
    state = handle.state()
    with state.cond:
        state.step = int(new_global_step)
    return ()


def _num_accumulated(xp, handle):
    state = handle.state()
    with state.cond:
        return np.int32(state.count)


def _sparse_apply(xp, handle, local_step, gradient_indices, gradient_values, gradient_shape,
                  dtype=None, has_known_shape=False):
    values = np.array(gradient_values, copy=True)
    indices = np.asarray(gradient_indices).reshape(-1)
    state = handle.state()
    with state.cond:
        shape = tuple(int(d) for d in gradient_shape) if has_known_shape else None
        dense = shape or (handle.value_shape and tuple(handle.value_shape))
        if dense and None not in dense:
            bad = indices[(indices < 0) | (indices >= dense[0])]
            if bad.size:
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch: index {int(bad[0])} is out of range for "
                                f"accumulator of shape {_shape_text(dense)}")
            _check_shape(handle, state, (dense[0],) + values.shape[1:])
        if int(local_step) < state.step:
            return ()
        rows = [[i, values[j], 1] for j, i in enumerate(indices.tolist())]
        state.sum = rows if state.sum is None else _merged(state.sum, rows)
        state.width = values.shape[1:]
        if shape is not None:
            state.shape = shape
        state.count += 1
        state.cond.notify_all()
    return ()


def _merged(held, rows):
    """The rows (``[index, sum, count]``) held and a gradient's merged as TF merges them: a
    walk of both in step, taking the smaller index first and summing equal ones (a new
    accumulator keeps its first gradient's rows as they come, repeated indices too)."""
    out, a, b = [], 0, 0
    while a < len(held) and b < len(rows):
        if held[a][0] < rows[b][0]:
            out.append(held[a])
            a += 1
        elif rows[b][0] < held[a][0]:
            out.append(rows[b])
            b += 1
        else:
            out.append([held[a][0], held[a][1] + rows[b][1], held[a][2] + 1])
            a += 1
            b += 1
    return out + held[a:] + rows[b:]


def _sparse_take(xp, handle, num_required, dtype):
    state = _take_state(handle, num_required)
    try:
        rows = state.sum or []
        indices = np.array([i for i, _, _ in rows], np.int64)
        values = [row / np.asarray(n, row.dtype) if handle.reduction == "MEAN" else row
                  for _, row, n in rows]
        values = np.stack(values).astype(dtype.as_numpy_dtype)
        shape = state.shape or (handle.value_shape and tuple(handle.value_shape))
        if not shape:  # (unknown: its rows' shape under an unknown number of rows)
            shape = (-1, *state.width)
        shape = np.array([-1 if d is None else d for d in shape], np.int64)
        _reset(state)
    finally:
        state.cond.release()
    return [indices, values, shape]


_Taken = collections.namedtuple("SparseAccumulatorTakeGradient", ["indices", "values", "shape"])


def _no_outputs(*_, **__):
    return []


def _take_rule(handle, num_required, dtype):
    """The accumulator's static shape (its handle's value: eager, or a graph's capture)."""
    value = handle._data if isinstance(handle, EagerTensor) else \
        getattr(getattr(handle, "op", None), "value", None)
    return TensorShape(getattr(value, "value_shape", None)), dtype


def _sparse_take_rule(handle, num_required, dtype):
    return [(TensorShape(None), _d.int64), (TensorShape(None), dtype),
            (TensorShape(None), _d.int64)]


_APPLY = register("ResourceAccumulatorApplyGradient", _apply, _no_outputs, multi=True,
                  tied=(), stateful=True, not_differentiable=_NO_GRAD)
_TAKE = register("ResourceAccumulatorTakeGradient", _take, _take_rule, tied=(), stateful=True,
                 not_differentiable=_NO_GRAD)
_SET_STEP = register("ResourceAccumulatorSetGlobalStep", _set_step, _no_outputs, multi=True,
                     tied=(), stateful=True, not_differentiable=_NO_GRAD)
_NUM = register("ResourceAccumulatorNumAccumulated", _num_accumulated,
                lambda *_: (TensorShape([]), _d.int32), tied=(), stateful=True,
                not_differentiable=_NO_GRAD)
_SPARSE_APPLY = register("SparseAccumulatorApplyGradient", _sparse_apply, _no_outputs,
                         multi=True, tied=(), stateful=True, not_differentiable=_NO_GRAD)
_SPARSE_TAKE = register("SparseAccumulatorTakeGradient", _sparse_take, _sparse_take_rule,
                        multi=True, tied=(), stateful=True, not_differentiable=_NO_GRAD)
tf_nodes[_APPLY] = NodeForm(types={"dtype": "2"})
tf_nodes[_TAKE] = NodeForm(types={}, outputs=("average",))
tf_nodes[_SET_STEP] = NodeForm(types={})
tf_nodes[_NUM] = NodeForm(types={}, outputs=("num_accumulated",))
tf_nodes[_SPARSE_APPLY] = NodeForm(types={"dtype": "3"})
tf_nodes[_SPARSE_TAKE] = NodeForm(types={}, outputs=("indices", "values", "shape"))
# (no raw ops: the accumulator is a Python object where TF takes a resource tensor)
tf_args.assign(None, _APPLY, _TAKE, _SET_STEP, _NUM, _SPARSE_APPLY, _SPARSE_TAKE)


# -- the accumulators ---------------------------------------------------------------------------

def _v1_graph():
    graph = context.get().graph
    return graph if hasattr(graph, "session_runs") else None


class _Accumulator:
    """What both accumulators have: their handle, dtype, name, global step and count."""

    _sparse = False
    _op_name = "ResourceConditionalAccumulator"

    def __init__(self, dtype, shape, shared_name, name, reduction_type):
        dtype = _d.as_dtype(dtype)
        if dtype.name not in _ALLOWED and dtype.name not in ("float32", "float64", "float16"):
            raise errors.InvalidArgumentError(
                None, None, f"Value for attr 'dtype' of {dtype.name} is not in the list of "
                            f"allowed values: {', '.join(_ALLOWED)}")
        if reduction_type not in ("MEAN", "SUM"):
            raise errors.InvalidArgumentError(
                None, None, f"Value for attr 'reduction_type' of \"{reduction_type}\" is not in "
                            f"the list of allowed values: \"MEAN\", \"SUM\"")
        self._shape = TensorShape(shape)
        if dtype not in _KERNELS:
            shape_text = "unknown_rank: true" if self._shape.rank is None else \
                "[" + ",".join("?" if d is None else str(d) for d in self._shape.as_list()) + "]"
            raise errors.NotFoundError(
                None, None, f"Could not find device for node: {{{{node {self._op_name}}}}} = "
                            f"{self._op_name}[container=\"\", dtype=DT_{dtype.name.upper()}, "
                            f"reduction_type=\"{reduction_type}\", shape={shape_text}, "
                            f"shared_name=\"{shared_name or ''}\"]")
        self._dtype = dtype
        graph = _v1_graph()
        value = AccumulatorValue(dtype, None if self._shape.rank is None else
                                 tuple(self._shape.as_list()), reduction_type, self._sparse,
                                 None if graph is None else graph.session_runs)
        handle = EagerTensor._wrap(value)
        if context.executing_eagerly():
            self._name, self._accumulator_ref = "", handle
        else:
            graph = context.get().graph
            self._name = graph.unique_name(name)
            self._accumulator_ref = graph.constant(value, name=self._name)
            graph._captures[id(handle)] = (handle, self._accumulator_ref)
        self._handle = handle

    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)
    accumulator_ref = property(lambda self: self._accumulator_ref)

    @staticmethod
    def _op():
        """What an op without outputs gives: in a graph, the operation just built."""
        graph = context.get().graph
        return None if graph is None else graph.get_operations()[-1]

    def num_accumulated(self, name=None):
        """How many gradients the accumulator holds (int32 scalar)."""
        return dispatch(_NUM, (self._handle,), name=name or f"{self._name}_NumAccumulated")

    def set_global_step(self, new_global_step, name=None):
        """Sets the global step: gradients of older local steps are dropped from then on."""
        step = cast_ops.cast(convert_to_tensor(new_global_step), _d.int64)
        dispatch(_SET_STEP, (self._handle, step), name=name)
        return self._op()

    @staticmethod
    def _step(local_step):
        return cast_ops.cast(convert_to_tensor(local_step), _d.int64)


@export("compat.v1.ConditionalAccumulator")
class ConditionalAccumulator(_Accumulator):
    """Sums gradients of one shape applied at a local step no older than the global step;
    `take_grad` waits for `num_required` of them and gives their mean (or sum).

    >>> acc = tf.compat.v1.ConditionalAccumulator(tf.float64, reduction_type="SUM")
    >>> acc.apply_grad([1.0, 2.0])
    >>> acc.take_grad(1).numpy()
    array([1., 2.])
    """

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
                 reduction_type="MEAN"):
        super().__init__(dtype, shape, shared_name, name, reduction_type)

    def apply_grad(self, grad, local_step=0, name=None):
        """Adds `grad` unless `local_step` is older than the global step; the operation, in
        a graph."""
        grad = convert_to_tensor(grad, self._dtype)
        grad.shape.assert_is_compatible_with(self._shape)
        dispatch(_APPLY, (self._handle, self._step(local_step), grad),
                 {"dtype": self._dtype}, name=name)
        return self._op()

    def take_grad(self, num_required, name=None):
        """Waits until `num_required` gradients are held, then gives their mean (or sum),
        empties the accumulator and advances its global step."""
        count = convert_to_tensor(num_required, _d.int32)
        out = dispatch(_TAKE, (self._handle, count), {"dtype": self._dtype}, name=name)
        if not context.executing_eagerly():
            out.set_shape(self._shape)
        return out


@export("compat.v1.SparseConditionalAccumulator")
class SparseConditionalAccumulator(_Accumulator):
    """A `ConditionalAccumulator` of sparse gradients (rows of a dense shape): each row's
    mean is over the gradients that had it. TF's runs in graphs only."""

    _sparse = True
    _op_name = "SparseConditionalAccumulator"

    def __init__(self, dtype, shape=None, shared_name=None,
                 name="sparse_conditional_accumulator", reduction_type="MEAN"):
        if context.executing_eagerly():
            raise RuntimeError("sparse_conditional_accumulator op does not support eager "
                               "execution. Arg 'handle' is a ref.")
        super().__init__(dtype, shape, shared_name, name, reduction_type)

    def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0, name=None):
        """Adds the rows `grad_values` at `grad_indices` (of a dense `grad_shape`) unless
        `local_step` is older than the global step."""
        values = convert_to_tensor(grad_values, self._dtype)
        indices = cast_ops.cast(convert_to_tensor(grad_indices), _d.int64)
        known = grad_shape is not None
        shape = cast_ops.cast(convert_to_tensor(grad_shape if known else []), _d.int64)
        dispatch(_SPARSE_APPLY, (self._handle, self._step(local_step), indices, values, shape),
                 {"dtype": self._dtype, "has_known_shape": known}, name=name)
        return self._op()

    def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
        """`apply_grad` of an `IndexedSlices`."""
        return self.apply_grad(grad.indices, grad.values, grad.dense_shape, local_step, name)

    def take_grad(self, num_required, name=None):
        """Waits for `num_required` gradients: ``(indices, values, shape)`` of their rows'
        means (or sums), in the order the rows first came."""
        count = convert_to_tensor(num_required, _d.int32)
        return _Taken(*dispatch(_SPARSE_TAKE, (self._handle, count), {"dtype": self._dtype},
                                name=name))

    def take_indexed_slices_grad(self, num_required, name=None):
        """`take_grad` as an `IndexedSlices`."""
        indices, values, shape = self.take_grad(num_required, name)
        return IndexedSlices(values, indices, shape)
