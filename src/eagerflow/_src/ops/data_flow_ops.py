"""Queues (``tf.queue``): bounded buffers of tuples of tensors shared by the ops that
enqueue and dequeue them, which wait while the queue is full or empty.

A queue is a scalar ``resource`` tensor whose value is a `QueueValue`; its ops are
stateful and take that tensor. Executing eagerly the queue holds its elements
itself; in a TF 1 graph each session running the graph holds its own (empty and
open until the session's runs fill it), so threads running enqueue ops
(`train.QueueRunner`) feed the dequeue ops of the training loop. A closed queue
takes no more elements (CancelledError) and, once drained, its dequeues raise
OutOfRangeError, which ends TF 1 input loops.

>>> q = tf.queue.FIFOQueue(3, tf.int32, shapes=[[]])
>>> q.enqueue_many([[1, 2, 3]])
>>> q.dequeue_many(2)
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
>>> q.close()
>>> int(q.dequeue()), bool(q.is_closed())
(3, True)
"""
import collections
import heapq
import itertools
import threading
import time

import numpy as np

from eagerflow._src.backend.api_export import export
from eagerflow._src.core import context, errors
from eagerflow._src.core import dtypes as _d
from eagerflow._src.core.convert import convert_to_tensor, get_static_value
from eagerflow._src.core.dispatch import dispatch
from eagerflow._src.core.node_forms import NodeForm, tf_args, tf_nodes
from eagerflow._src.core.registry import register
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_shape import TensorShape
from eagerflow._src.core.variables import Variable, handle_text
from eagerflow._src.ops import random_ops

_NO_GRAD = "queue op"
_session_ids = itertools.count()  # TF numbers the queues its sessions make: ``_0_q``
_eager_ids = itertools.count()
_making = threading.Lock()  # held while a queue's elements are first made


class QueueState:
    """A queue's elements (tuples of arrays) and whether it is closed, with the condition
    its ops wait on."""

    def __init__(self, label, seed):
        self.label = label
        self.cond = threading.Condition()
        self.items = []          # FIFO: a deque; priority: a heap; shuffle: a list
        self.closed = False
        self.cancel_enqueues = False
        self.cancelled = False   # (its session closed)
        self.rng = np.random.default_rng(seed)
        self.count = itertools.count()  # (ties of a priority queue keep their order)

    def cancel(self):
        """Makes the ops waiting on the queue raise CancelledError (their session closed)."""
        with self.cond:
            self.cancelled = True
            self.cond.notify_all()


class QueueValue:
    """The value of a queue's tensor: its kind, capacity, component dtypes and shapes, and
    where its elements are (its own, or those of the session running its graph).

    It passes for a scalar ``resource`` array wherever tensors look at their value's
    metadata, as a lookup table's value does.
    """

    __slots__ = ("kind", "capacity", "dtypes", "shapes", "name", "min_after_dequeue", "seed",
                 "runs", "_own", "__weakref__")
    shape = ()
    ndim = 0
    dtype = _d.resource

    def __init__(self, kind, capacity, dtypes, shapes, name, min_after_dequeue=0, seed=None,
                 runs=None):
        self.kind, self.capacity, self.dtypes, self.shapes = kind, capacity, dtypes, shapes
        self.name, self.min_after_dequeue, self.seed = name, min_after_dequeue, seed
        self.runs = runs  # () -> the running session's per-thread state, in a TF 1 graph
        self._own = None

    def __repr__(self):
        return handle_text(self.name, "tensorflow::QueueInterface")

    def state(self):
        """The elements this run sees: the session's (made at its first use), or its own."""
        running = None if self.runs is None else self.runs()
        store = getattr(running, "store", None)
        if store is None:
            if self._own is None:
                with _making:
                    if self._own is None:
                        self._own = self._new(str(next(_eager_ids)))
            return self._own
        found = store.get(self)
        if found is None:
            with _making:  # (two threads of one session meeting a new queue share it)
                found = store.get(self)
                if found is None:
                    found = store[self] = self._new(f"_{next(_session_ids)}_{self.name}")
        return found

    def deadline(self):
        """When a wait of this run gives up (`RunOptions.timeout_in_ms`), or None."""
        running = None if self.runs is None else self.runs()
        return getattr(running, "deadline", None)

    def _new(self, label):
        state = QueueState(label, self.seed)
        state.items = collections.deque() if self.kind != "PriorityQueue" else []
        if self.kind == "RandomShuffleQueue":
            state.items = []
        return state

    # -- the elements ---------------------------------------------------------------------
    def put(self, state, element):
        if self.kind == "PriorityQueue":
            heapq.heappush(state.items, (int(element[0]), next(state.count), element))
        else:
            state.items.append(element)

    def take(self, state):
        if self.kind == "PriorityQueue":
            return heapq.heappop(state.items)[2]
        if self.kind == "RandomShuffleQueue":
            i = int(state.rng.integers(len(state.items)))
            state.items[i], state.items[-1] = state.items[-1], state.items[i]
            return state.items.pop()
        return state.items.popleft()

    def restore(self, state, elements):
        """Gives back the elements a dequeue took before it failed, at the front."""
        for element in reversed(elements):
            if self.kind == "FIFOQueue" or self.kind == "PaddingFIFOQueue":
                state.items.appendleft(element)
            else:
                self.put(state, element)

    def available(self, state):
        """How many elements a dequeue may take now."""
        if self.kind == "RandomShuffleQueue" and not state.closed:
            return max(0, len(state.items) - self.min_after_dequeue)
        return len(state.items)


def _wait(queue, state, deadline):
    """Waits (holding `state.cond`) for another op to change the queue."""
    if state.cancelled:
        raise errors.CancelledError(None, None, "Session has been closed.")
    if deadline is None:
        state.cond.wait(0.1)
    else:
        left = deadline - time.monotonic()
        if left <= 0:
            raise errors.DeadlineExceededError(None, None,
                                               "Timed out waiting for notification")
        state.cond.wait(min(left, 0.1))
    if state.cancelled:
        raise errors.CancelledError(None, None, "Session has been closed.")


def _shape_text(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _check_component(queue, i, array, many):
    shape = queue.shapes[i]
    if shape is None:
        return
    got = array.shape[1:] if many else array.shape
    if len(got) != len(shape) or any(d is not None and d != n for d, n in zip(shape, got)):
        expected = ([None] if many else []) + list(shape)
        raise errors.InvalidArgumentError(
            None, None, f"Shape mismatch in tuple component {i}. Expected "
                        f"{_shape_text(expected)}, got {_shape_text(array.shape)}")


def _enqueue(xp, handle, *components, many=False, timeout_ms=-1):
    queue = handle
    arrays = [np.array(c, copy=True) for c in components]
    for i, a in enumerate(arrays):
        if many and a.ndim == 0:
            raise errors.InvalidArgumentError(
                None, None, f"Shape mismatch in tuple component {i}. Expected [?], got []")
        _check_component(queue, i, a, many)
    if many:
        count = len(arrays[0]) if arrays else 0
        if any(len(a) != count for a in arrays):
            raise errors.InvalidArgumentError(
                None, None, "Expected all inputs to have the same size in dimension 0")
        elements = [tuple(a[j:j + 1].reshape(a.shape[1:]) for a in arrays)
                    for j in range(count)]
    else:
        elements = [tuple(arrays)]
    state, deadline = queue.state(), queue.deadline()
    with state.cond:
        for element in elements:
            while True:
                if state.closed:
                    if state.cancel_enqueues:
                        raise errors.CancelledError(None, None,
                                                    "Enqueue operation was cancelled")
                    raise errors.CancelledError(None, None, f"{queue.kind} '{state.label}' is "
                                                            f"closed.")
                if queue.capacity < 0 or len(state.items) < queue.capacity:
                    break  # (a negative capacity: no limit, as TF's)
                _wait(queue, state, deadline)
            queue.put(state, element)
            state.cond.notify_all()
    return ()


def _pad(queue, elements):
    """A batch of `elements` per component, padded to the largest (PaddingFIFOQueue)."""
    out = []
    for i, dtype in enumerate(queue.dtypes):
        parts = [e[i] for e in elements]
        if queue.kind == "PaddingFIFOQueue" and parts:
            dims = [max(p.shape[k] for p in parts) for k in range(parts[0].ndim)]
            fill = b"" if dtype == _d.string else 0
            padded = np.full([len(parts)] + dims, fill,
                             object if dtype == _d.string else dtype.as_numpy_dtype)
            for j, p in enumerate(parts):
                padded[(j,) + tuple(slice(0, n) for n in p.shape)] = p
            out.append(padded)
        elif parts:
            out.append(np.stack(parts))
        else:
            shape = queue.shapes[i] or ()
            out.append(np.zeros([0] + [d or 0 for d in shape],
                                object if dtype == _d.string else dtype.as_numpy_dtype))
    return out


def _dequeue(queue, n, up_to):
    """`n` elements (None: one, unbatched), or with `up_to` fewer once the queue closes."""
    wanted = 1 if n is None else int(n)
    if wanted < 0:
        raise errors.InvalidArgumentError(
            None, None, f"Dequeue{'UpTo' if up_to else 'Many'}Op requested {wanted} < 0 elements")
    if n is not None and queue.kind != "PaddingFIFOQueue" and any(
            s is None or None in s for s in queue.shapes):
        kind = "FIFOQueue" if queue.kind == "FIFOQueue" else queue.kind
        raise errors.InvalidArgumentError(
            None, None, f"{kind}'s DequeueMany and DequeueUpTo require the components to have "
                        f"specified shapes.")
    state, deadline = queue.state(), queue.deadline()
    taken = []
    with state.cond:
        while len(taken) < wanted:
            if state.closed and len(state.items) < wanted - len(taken):
                if up_to and (taken or state.items):
                    while state.items:
                        taken.append(queue.take(state))
                    break
                queue.restore(state, taken)
                raise errors.OutOfRangeError(
                    None, None, f"{queue.kind} '{state.label}' is closed and has insufficient "
                                f"elements (requested {wanted - len(taken)}, current size "
                                f"{len(state.items)})")
            ready = min(queue.available(state), wanted - len(taken))
            for _ in range(ready):
                taken.append(queue.take(state))
            if ready:
                state.cond.notify_all()
            if len(taken) < wanted:
                _wait(queue, state, deadline)
    if n is None:
        return list(taken[0])
    return _pad(queue, taken)


def _close(xp, handle, cancel_pending_enqueues=False):
    state = handle.state()
    with state.cond:
        state.closed = True
        state.cancel_enqueues = state.cancel_enqueues or bool(cancel_pending_enqueues)
        state.cond.notify_all()
    return ()


def _size(xp, handle):
    state = handle.state()
    with state.cond:
        return np.int32(len(state.items))


def _is_closed(xp, handle):
    state = handle.state()
    with state.cond:
        return np.bool_(state.closed)


def _no_outputs(*_, **__):
    return []


def _components_rule(*_, component_types, **__):
    return [(TensorShape(None), dtype) for dtype in component_types]


_ENQUEUE = register("QueueEnqueueV2", lambda xp, q, *c, timeout_ms=-1: _enqueue(xp, q, *c),
                    _no_outputs, multi=True, tied=(), stateful=True, not_differentiable=_NO_GRAD)
_ENQUEUE_MANY = register("QueueEnqueueManyV2",
                         lambda xp, q, *c, timeout_ms=-1: _enqueue(xp, q, *c, many=True),
                         _no_outputs, multi=True, tied=(), stateful=True,
                         not_differentiable=_NO_GRAD)
_DEQUEUE = register("QueueDequeueV2",
                    lambda xp, q, component_types, timeout_ms=-1: _dequeue(q, None, False),
                    _components_rule, multi=True, tied=(), stateful=True,
                    not_differentiable=_NO_GRAD)
_DEQUEUE_MANY = register("QueueDequeueManyV2",
                         lambda xp, q, n, component_types, timeout_ms=-1: _dequeue(q, n, False),
                         _components_rule, multi=True, tied=(), stateful=True,
                         not_differentiable=_NO_GRAD)
_DEQUEUE_UP_TO = register("QueueDequeueUpToV2",
                          lambda xp, q, n, component_types, timeout_ms=-1: _dequeue(q, n, True),
                          _components_rule, multi=True, tied=(), stateful=True,
                          not_differentiable=_NO_GRAD)
_CLOSE = register("QueueCloseV2", _close, _no_outputs, multi=True, tied=(), stateful=True,
                  not_differentiable=_NO_GRAD)
_SIZE = register("QueueSizeV2", _size, lambda *_: (TensorShape([]), _d.int32), tied=(),
                 stateful=True, not_differentiable=_NO_GRAD)
_IS_CLOSED = register("QueueIsClosedV2", _is_closed, lambda *_: (TensorShape([]), _d.bool),
                      tied=(), stateful=True, not_differentiable=_NO_GRAD)
tf_nodes[_ENQUEUE] = NodeForm(types={"Tcomponents": "*1"})
tf_nodes[_ENQUEUE_MANY] = NodeForm(types={"Tcomponents": "*1"})
tf_nodes[_DEQUEUE] = NodeForm(types={}, outputs=("components",))
tf_nodes[_DEQUEUE_MANY] = NodeForm(types={}, outputs=("components",))
tf_nodes[_DEQUEUE_UP_TO] = NodeForm(types={}, outputs=("components",))
tf_nodes[_CLOSE] = NodeForm(types={})
tf_nodes[_SIZE] = NodeForm(types={}, outputs=("size",))
tf_nodes[_IS_CLOSED] = NodeForm(types={}, outputs=("is_closed",))
# (no raw ops: the queue is a Python object where TF takes a resource tensor)
tf_args.assign(None, _ENQUEUE, _ENQUEUE_MANY, _DEQUEUE, _DEQUEUE_MANY, _DEQUEUE_UP_TO, _CLOSE,
               _SIZE, _IS_CLOSED)


# -- the queues ---------------------------------------------------------------------------------

def _v1_graph():
    graph = context.get().graph
    return graph if hasattr(graph, "session_runs") else None


def _as_list(values):
    return list(values) if isinstance(values, (list, tuple)) else [values]


@export("queue.QueueBase", "compat.v1.queue.QueueBase", "compat.v1.QueueBase",
        "compat.v1.io.QueueBase")
class QueueBase:
    """What every queue has: component `dtypes`, `shapes` and `names`, and the ops that
    enqueue, dequeue, close and count its elements (see `FIFOQueue`)."""

    _kind = None

    _unknown_dims = False  # (whether its shapes may have unknown dims)

    def __init__(self, capacity, dtypes, shapes, names, name, min_after_dequeue=0,
                 seed=None):
        self._dtypes = [_d.as_dtype(d) for d in _as_list(dtypes)]
        if shapes is not None:
            shapes = _as_list(shapes)
            if all(d is None or isinstance(d, int) for d in shapes):
                shapes = [shapes]  # (one shape: ``shapes=[2]``, or ``[]`` for scalars)
            shapes = [TensorShape(s) for s in shapes]
            if not self._unknown_dims and not all(s.is_fully_defined() for s in shapes):
                raise ValueError(f"All shapes must be fully defined: {shapes}")
        graph = _v1_graph()
        value = QueueValue(self._kind, int(capacity), self._dtypes, None, name,
                           int(min_after_dequeue), seed,
                           None if graph is None else graph.session_runs)
        handle = EagerTensor._wrap(value)
        if graph is not None or not context.executing_eagerly():
            graph = context.get().graph
            value.name = graph.unique_name(name)  # (taken before the checks, as TF's)
            self._queue_ref = graph.constant(value, name=value.name)
            graph._captures[id(handle)] = (handle, self._queue_ref)
        else:
            self._queue_ref = handle
        if shapes is not None and len(shapes) != len(self._dtypes):
            raise ValueError(f"Queue shapes must have the same length as dtypes, received "
                             f"len(shapes)={len(shapes)}, len(dtypes)={len(self._dtypes)}")
        if names is not None:
            names = _as_list(names)
            if len(names) != len(self._dtypes):
                raise ValueError(f"Queue names must have the same length as dtypes, received "
                                 f"len(names)={len(names)}, len(dtypes)={len(self._dtypes)}")
        self._shapes = shapes or [TensorShape(None) for _ in self._dtypes]
        self._names = names
        value.shapes = [None if s.rank is None else tuple(s.as_list()) for s in self._shapes]
        self._handle = handle
        self._name = value.name

    name = property(lambda self: self._name)
    dtypes = property(lambda self: self._dtypes)
    shapes = property(lambda self: self._shapes)
    names = property(lambda self: self._names)
    queue_ref = property(lambda self: self._queue_ref)

    def _run(self, op, inputs, attrs, name, default):
        out = dispatch(op, (self._handle, *inputs), attrs,
                       name=name or f"{self._name.rpartition('/')[2]}_{default}")
        return out

    def _op(self, out):
        """What an op without outputs gives: in a graph, the operation just built."""
        graph = context.get().graph
        return None if graph is None else graph.get_operations()[-1]

    def _components(self, vals, many):
        if self._names is not None:
            if not isinstance(vals, dict):
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names) != sorted(vals):
                raise ValueError(f"Keys in dictionary to enqueue do not match names of Queue.  "
                                 f"Dictionary: {sorted(vals)},Queue: {sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        elif isinstance(vals, dict):
            raise ValueError("Queue must have names to enqueue a dictionary")
        elif not isinstance(vals, (list, tuple)):
            vals = [vals]
        tensors = []
        for i, (val, dtype) in enumerate(zip(vals, self._dtypes)):
            t = convert_to_tensor(val, dtype=dtype)
            shape = self._shapes[i]
            have = t.shape[1:] if many and t.shape.rank else t.shape
            if many and t.shape.rank == 0:
                raise ValueError(f"Shape must be at least rank 1 but is rank 0")
            if not have.is_compatible_with(shape):
                raise ValueError(f"Shapes {_tuple(have)} and {_tuple(shape)} are incompatible")
            tensors.append(t)
        return tensors

    def enqueue(self, vals, name=None):
        """Adds one element (a tensor, a list of one per component, or a dict by `names`),
        waiting while the queue is full; the operation, in a graph."""
        out = self._run(_ENQUEUE, self._components(vals, False), {"timeout_ms": -1}, name,
                        "enqueue")
        return self._op(out)

    def enqueue_many(self, vals, name=None):
        """Adds the elements along dimension 0 of each component, in order."""
        out = self._run(_ENQUEUE_MANY, self._components(vals, True), {"timeout_ms": -1}, name,
                        "EnqueueMany")
        return self._op(out)

    def _result(self, outputs, batch):
        outputs = list(outputs)
        if not context.executing_eagerly():
            for t, shape in zip(outputs, self._shapes):
                t.set_shape(shape if batch is False else TensorShape([batch]).concatenate(shape))
        if self._names is not None:
            return dict(zip(self._names, outputs))
        return outputs[0] if len(outputs) == 1 else outputs

    def _types(self):
        return {"component_types": tuple(self._dtypes), "timeout_ms": -1}

    def dequeue(self, name=None):
        """Takes one element, waiting while the queue is empty; OutOfRangeError once it
        is closed and empty."""
        out = self._run(_DEQUEUE, (), self._types(), name, "Dequeue")
        return self._result(out, False)

    def dequeue_many(self, n, name=None):
        """Takes `n` elements, stacked along a new dimension 0; OutOfRangeError once the
        queue is closed with fewer left."""
        n = convert_to_tensor(n, _d.int32)
        known = get_static_value(n)
        if known is not None and known < 0 and not context.executing_eagerly():
            # (TF's shape check as the op is added; eagerly its kernel raises)
            raise ValueError(f"Input 'n' must be >= 0, but is {int(known)}")
        out = self._run(_DEQUEUE_MANY, (n,), self._types(), name, "DequeueMany")
        return self._result(out, None if known is None else int(known))

    def dequeue_up_to(self, n, name=None):
        """Takes `n` elements, or those left (at least one) once the queue is closed."""
        n = convert_to_tensor(n, _d.int32)
        out = self._run(_DEQUEUE_UP_TO, (n,), self._types(), name, "DequeueUpTo")
        return self._result(out, None)

    def close(self, cancel_pending_enqueues=False, name=None):
        """Closes the queue: later enqueues fail (and waiting ones too, when
        `cancel_pending_enqueues`); dequeues take what is left."""
        out = self._run(_CLOSE, (), {"cancel_pending_enqueues": bool(cancel_pending_enqueues)},
                        name, "Close")
        return self._op(out)

    def is_closed(self, name=None):
        """A boolean scalar: whether the queue is closed."""
        return self._run(_IS_CLOSED, (), {}, name, "Is_Closed")

    def size(self, name=None):
        """The number of elements in the queue (int32 scalar)."""
        return self._run(_SIZE, (), {}, name, "Size")


def _tuple(shape):
    return "<unknown>" if shape.rank is None else str(tuple(shape.as_list()))


@export("queue.FIFOQueue", "compat.v1.queue.FIFOQueue", "compat.v1.FIFOQueue")
class FIFOQueue(QueueBase):
    """A queue taking elements out in the order they came in (``tf.queue.FIFOQueue``).

    >>> q = tf.queue.FIFOQueue(2, [tf.int32, tf.string], shapes=[[], []])
    >>> q.enqueue([1, "a"])
    >>> [t.numpy() for t in q.dequeue()]
    [np.int32(1), b'a']
    """

    _kind = "FIFOQueue"

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
                 name="fifo_queue"):
        super().__init__(capacity, dtypes, shapes, names, name)


@export("queue.PaddingFIFOQueue", "compat.v1.queue.PaddingFIFOQueue",
        "compat.v1.PaddingFIFOQueue", "compat.v1.io.PaddingFIFOQueue")
class PaddingFIFOQueue(QueueBase):
    """A FIFO queue of components whose shapes may have unknown dims: `dequeue_many` pads
    each component to the largest of the batch (zeros, or empty strings)."""

    _kind = "PaddingFIFOQueue"
    _unknown_dims = True

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,
                 name="padding_fifo_queue"):
        if shapes is None or len(_as_list(shapes)) != len(_as_list(dtypes)):
            raise ValueError(f"Shapes must be provided for all components, but received "
                             f"{len(_as_list(dtypes))} dtypes and "
                             f"{0 if shapes is None else len(_as_list(shapes))} shapes.")
        super().__init__(capacity, dtypes, shapes, names, name)


@export("queue.RandomShuffleQueue", "compat.v1.queue.RandomShuffleQueue",
        "compat.v1.RandomShuffleQueue", "compat.v1.io.RandomShuffleQueue")
class RandomShuffleQueue(QueueBase):
    """A queue taking elements out in random order, keeping at least `min_after_dequeue`
    in it until it is closed (so each dequeue picks among that many)."""

    _kind = "RandomShuffleQueue"

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None,
                 shared_name=None, name="random_shuffle_queue"):
        seed = random_ops.get_seed(seed)[1] if seed is not None else None
        super().__init__(capacity, dtypes, shapes, names, name, min_after_dequeue, seed)


@export("queue.PriorityQueue", "compat.v1.queue.PriorityQueue", "compat.v1.PriorityQueue",
        "compat.v1.io.PriorityQueue")
class PriorityQueue(QueueBase):
    """A queue taking elements out by priority, smallest first: each element's first
    component is its int64 priority (scalar), before the components of `types`."""

    _kind = "PriorityQueue"

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None,
                 name="priority_queue"):
        types = [_d.int64] + _as_list(types)
        if shapes is not None:
            shapes = [TensorShape([])] + [TensorShape(s) for s in _as_list(shapes)]
        if names is not None:
            names = ["priority"] + _as_list(names)  # (TF's: names given to types only)
        super().__init__(capacity, types, shapes, names, name)


# -- counting up to a limit (the epoch counter of TF 1 input producers) -----------------------

def _count_up_to(xp, handle, limit):
    old = np.array(handle.value, copy=True)
    if old >= limit:
        raise errors.OutOfRangeError(None, None, f"Reached limit of {limit}")
    handle.value = old + old.dtype.type(1)
    return old


_COUNT_UP_TO = register("ResourceCountUpTo", _count_up_to,
                        lambda var, **_: (TensorShape([]), var.dtype), tied=(), stateful=True,
                        not_differentiable="variable update")
tf_nodes[_COUNT_UP_TO] = NodeForm(types={"T": "out0"}, outputs=("output",))
tf_args[_COUNT_UP_TO] = None  # (TF's raw op takes the resource; eagerflow's the variable)


@export("compat.v1.count_up_to")
def count_up_to(ref, limit, name=None):
    """Adds 1 to the integer variable `ref` and gives its value before; raises
    OutOfRangeError instead once it has reached `limit`.

    >>> v = tf.Variable(0)
    >>> [int(tf.compat.v1.count_up_to(v, 2)) for _ in range(2)], int(v.read_value())
    ([0, 1], 2)
    """
    if ref.dtype not in (_d.int32, _d.int64):
        raise TypeError(f"Value passed to parameter 'T' has DataType {ref.dtype.name} not in "
                        f"list of allowed values: int32, int64")
    return dispatch(_COUNT_UP_TO, (ref,), {"limit": int(limit)}, name=name)


def _variable_count_up_to(self, limit):
    """`count_up_to` of the variable: its value, then 1 added, until `limit` (TF 1's
    method; deprecated in TF 2, for `Dataset.range`)."""
    return count_up_to(self, limit)


Variable.count_up_to = _variable_count_up_to
