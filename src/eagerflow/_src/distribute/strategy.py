"""``tf.distribute`` strategies on the devices of this machine.

`MirroredStrategy` makes a replica per device (every logical CPU unless GPUs are
present, or the devices given). `run` calls the step function once per replica on
its own thread, the replicas taking turns: one runs until it returns or reaches a
`merge_call` (which `all_reduce`, aggregated variable updates and optimizers use),
which then runs once in cross-replica context for all of them. Values that differ
between replicas are `PerReplica`; variables made under the scope are
`MirroredVariable`s, whose copies share one value.

>>> import eagerflow as tf
>>> strategy = tf.distribute.MirroredStrategy()
>>> strategy.num_replicas_in_sync
1
>>> with strategy.scope():
...     v = tf.Variable(2.0)
>>> strategy.run(lambda x: x * v, args=(tf.constant([1.0, 3.0]),))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 6.], dtype=float32)>
>>> strategy.reduce("SUM", tf.constant([1.0, 2.0, 3.0]), axis=0)
<tf.Tensor: shape=(), dtype=float32, numpy=6.0>
"""
import collections
import contextlib
import contextvars
import copy
import enum
import functools
import threading
import weakref

from eagerflow._src.autograph import conversion
from eagerflow._src.autograph.operators import control_flow as ag_control_flow
from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.devices import (DeviceSpec, canonical_device, host_device,
                                            list_logical_devices)
from eagerflow._src.core.convert import (constant, convert_to_tensor,
                                          register_tensor_conversion_function)
from eagerflow._src.core.tensor import EagerTensor
from eagerflow._src.core.tensor_spec import TypeSpec
from eagerflow._src.core.variables import (_ASSIGN, _BY_HANDLE, ResourceHandle,
                                           ResourceVariable, Variable, VariableAggregation,
                                           VariableAggregationV1, VariableSynchronization,
                                           _UnreadVariable, twin, variable_creator_scope)
from eagerflow._src.core.variables import _creators as _variable_creators
from eagerflow._src.core import context, distribution_context, errors, nest
from eagerflow._src.core.context import get as get_context
from eagerflow._src.data.dataset_ops import Dataset
from eagerflow._src.distribute.cluster import TFConfigClusterResolver
from eagerflow._src.function import polymorphic_function
from eagerflow._src.graph.control_flow import cond
from eagerflow._src.ops import array_ops, cast_ops, math_ops, reduction_ops
from eagerflow._src.ops import sparse_ops
from eagerflow._src.ops.indexed_slices import IndexedSlices
from eagerflow._src.ops.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow._src.ragged import user_functions
from eagerflow._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec


@export("distribute.ReduceOp")
class ReduceOp(enum.Enum):
    """How values from the replicas are combined: ``SUM`` or ``MEAN``."""
    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        name = getattr(aggregation, "name", str(aggregation)).upper()
        if name in ("SUM", "MEAN"):
            return ReduceOp[name]
        raise ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} to"
                         "`tf.distribute.ReduceOp` type")

    def __str__(self):
        return f"ReduceOp.{self.name}"


def _reduce_op(reduce_op):
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    if isinstance(reduce_op, str):
        try:
            return ReduceOp(reduce_op.upper())
        except ValueError:
            pass
    raise ValueError(f"{reduce_op!r} is not a valid ReduceOp")


_state = distribution_context.state


@export("distribute.InputContext")
class InputContext:
    """What an input function for `distribute_datasets_from_function` is told."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    @property
    def num_replicas_in_sync(self):
        return self._num_replicas_in_sync

    @property
    def input_pipeline_id(self):
        return self._input_pipeline_id

    @property
    def num_input_pipelines(self):
        return self._num_input_pipelines

    def get_per_replica_batch_size(self, global_batch_size):
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self._num_replicas_in_sync} ")
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return (f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, "
                f"total: {self._num_input_pipelines})")


@export("distribute.ReplicaContext")
class ReplicaContext:
    """The replica a step function runs as (`tf.distribute.get_replica_context`)."""

    def __init__(self, strategy, replica_id_in_sync_group=0, thread=None):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group
        self._thread = thread  # the `_ReplicaThread` running it, when there are several

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        return constant(self._replica_id, dtype="int32")

    @property
    def devices(self):
        if isinstance(self._strategy, _DefaultDistributionStrategy):
            return ("",)  # (TF's default replica names no device)
        return (self._strategy.extended.worker_devices[self._replica_id],)

    def all_reduce(self, reduce_op, value, options=None):
        """Combines `value` (a nested structure) across replicas; every replica gets the
        result. A value that is the same object in every replica is returned as it is."""
        reduce_op = _reduce_op(reduce_op)
        if self._thread is None:  # (IndexedSlices stay sparse, as in TF)
            return nest.map_structure(
                lambda v: v if isinstance(v, IndexedSlices) else convert_to_tensor(v), value)
        flat = nest.flatten(value)

        def merge(strategy, *parts):  # (a value the same in every replica stays itself)
            parts = [_gathered_parts(p, strategy) for p in parts]
            return [_each_replica(p, lambda vs, op=reduce_op: _combine(op, vs))
                    if shared is None else _each_replica(p, lambda vs: vs[0])
                    for p, shared in parts]
        return nest.pack_sequence_as(
            value, _on_replica_device_of(self.merge_call(merge, args=tuple(flat)), flat))

    def all_gather(self, value, axis, options=None):
        """`value` of every replica, concatenated along `axis`."""
        if self._thread is None:
            return nest.map_structure(convert_to_tensor, value)
        flat = nest.flatten(value)
        _check_gather_axis(flat, axis)

        def merge(strategy, *parts):  # (a value the same in every replica stays itself)
            parts = [_gathered_parts(p, strategy) for p in parts]
            return [_each_replica(p, lambda vs: array_ops.concat(
                [convert_to_tensor(v) for v in vs], axis)) if shared is None
                else _each_replica(p, lambda vs: vs[0]) for p, shared in parts]
        return nest.pack_sequence_as(
            value, _on_replica_device_of(self.merge_call(merge, args=tuple(flat)), flat))

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Calls ``merge_fn(strategy, *args, **kwargs)`` once, in cross-replica context, with
        the replicas' `args` combined (`PerReplica` where they differ)."""
        if self._thread is None:
            with _enter(self._strategy, None):
                return merge_fn(self._strategy, *args, **(kwargs or {}))
        return self._thread.merge(merge_fn, args, kwargs or {})

    def __enter__(self):
        _state.stack.append((self._strategy, self))

    def __exit__(self, *exc):
        _state.stack.pop()


class _MirroredReplicaContext(ReplicaContext):
    """The replica context of a mirrored strategy's replicas (named as TF names it)."""

    @property
    def devices(self):
        # (as TF's: the replica's devices, a list, in a list)
        return [[self._strategy.extended.worker_devices[self._replica_id]]]


class _OneDeviceReplicaContext(ReplicaContext):
    """The replica context of a `OneDeviceStrategy`'s replica (named as TF names it)."""


def _gathered_parts(value, strategy):
    """`value`, as a replica's collective gets it in its merge, as `PerReplica` values and
    whether it was one value the same in every replica (a distributed variable is its
    replicas' copies, read)."""
    values = _replica_values(value)
    if values is None:
        return PerReplica([value] * strategy.num_replicas_in_sync), True
    if isinstance(value, _DistributedVariable):
        return PerReplica([v.value() for v in values]), None
    return value, None


def _check_gather_axis(values, axis):
    """Raises ValueError, as TF's gathers do, for an `axis` that is not a dimension
    (counted from 0) of each of `values`."""
    for v in values:
        rank = (v.shape if hasattr(v, "shape") else convert_to_tensor(v).shape).rank
        if rank is not None and not 0 <= axis < rank:
            raise ValueError(f"Cannot gather along axis {axis} values of rank {rank}: "
                             f"the axis must be in [0, {rank}).")


def _each_replica(per_replica, combine):
    """`combine` of the values of `per_replica`, as each replica's own copy."""
    total = combine(per_replica.values)
    if isinstance(total, IndexedSlices):
        return PerReplica([IndexedSlices(cast_ops.identity(total.values), total.indices,
                                         total.dense_shape) for _ in per_replica.values])
    return PerReplica([cast_ops.identity(total) for _ in per_replica.values])


def _combine(reduce_op, values):
    """The SUM or MEAN of `values`, one per replica (of IndexedSlices, their rows together,
    as TF gathers them; a MEAN scales the rows)."""
    if all(isinstance(v, IndexedSlices) for v in values):
        rows = array_ops.concat([v.values for v in values], 0)
        if reduce_op is ReduceOp.MEAN:
            rows = math_ops.truediv(rows, constant(len(values), dtype=rows.dtype))
        return IndexedSlices(rows, array_ops.concat([v.indices for v in values], 0),
                             values[0].dense_shape)
    values = [convert_to_tensor(v) for v in values]
    total = values[0] if len(values) == 1 else reduction_ops.add_n(values)
    if reduce_op is ReduceOp.SUM:
        return total
    # (an integer mean is a float64, as TF divides)
    return math_ops.truediv(total, constant(len(values), dtype=total.dtype))


class _Aborted(BaseException):
    """Unwinds a replica paused in `merge_call` when another replica failed."""


class _ReplicaThread(threading.Thread):
    """Runs one replica's step. The replicas of a `run` take turns: one runs at a time,
    until it returns or reaches a `merge_call`, which runs once all have reached it."""

    def __init__(self, strategy, replica_id, fn, args, kwargs, group):
        super().__init__(daemon=True, name=f"replica_{replica_id}")
        self.fn, self.args, self.kwargs, self.group = fn, args, kwargs, group
        self.replica_id = replica_id
        self.strategy = strategy
        self.should_run, self.has_paused = threading.Event(), threading.Event()
        self.done, self.aborted = False, False
        self.result = self.error = None
        self.merge_fn = self.merge_args = self.merge_kwargs = self.merge_result = None
        # what the thread inherits from the caller: its context (graph, device, name
        # scope), its strategy stack and variable creators
        self._context = context.fork()
        self._stack = list(_state.stack)
        self._creators = list(_variable_creators.stack)
        self._py_context = contextvars.copy_context()

    def run(self):
        self.should_run.wait()
        self.should_run.clear()
        try:
            if not self.aborted:
                self._py_context.run(self._body)
        finally:
            self.done = True
            self.has_paused.set()

    def _body(self):
        context.adopt(self._context)
        _state.stack[:] = self._stack + [
            (self.strategy, self.strategy._replica_context(self.strategy, self.replica_id,
                                                           self))]
        _variable_creators.stack[:] = self._creators
        try:
            with context.device(self.strategy.extended.worker_devices[self.replica_id]):
                self.result = user_functions.call(self.fn, *self.args, **self.kwargs)
        except _Aborted:
            pass
        except BaseException as e:  # handed to the caller of `run`
            self.error = e

    def merge(self, merge_fn, args, kwargs):
        self.merge_fn, self.merge_args, self.merge_kwargs = merge_fn, args, kwargs
        self.merge_context = context.fork()  # (the graph, or branch, being built now)
        self.has_paused.set()
        self.should_run.wait()
        self.should_run.clear()
        if self.aborted:
            raise _Aborted()
        result, self.merge_result = self.merge_result, None
        return result

    def step(self):
        """Lets the thread run until it pauses or finishes."""
        self.should_run.set()
        self.has_paused.wait()
        self.has_paused.clear()


class _ReplicaGroup:
    """What the replicas of one `run` share: the variables replica 0 created, which the
    others reuse in the same order."""

    def __init__(self):
        self.created = []
        self.taken = {}


def _on_replica_device_of(results, values):
    """`results` of combining the replicas' `values` (made on the first replica's device),
    each new tensor copied to the calling replica's device where that is a logical CPU other
    than the first, as TF's collectives give them."""
    if context.get().logical_device is None:
        return results
    return [cast_ops.identity(r) if type(r) is EagerTensor and r is not v else r
            for r, v in zip(results, values)]


def _on_replica_device(strategy, devices=None):
    """A block placing ops on the device of `strategy`'s one replica, or the first of
    `devices` (the default strategy, or no devices, place nothing)."""
    if devices is None:
        if strategy is None or isinstance(strategy.extended, _DefaultDistributionExtended):
            return contextlib.nullcontext()
        devices = strategy.extended.worker_devices
    return context.device(devices[0])


def _on_replica_devices(element, devices):
    """`element` (of `PerReplica` parts) with each replica's tensors on its device where
    that is a logical CPU other than the first (tensors made before cannot say it)."""
    names = [canonical_device(d) for d in devices or ()]
    if all(":CPU:" not in n or n == host_device() for n in names):
        return element

    def place(value):
        if not isinstance(value, PerReplica):
            return value
        parts = []
        for part, name in zip(value.values, names):
            if type(part) is EagerTensor and ":CPU:" in name:
                with context.device(name):
                    part = cast_ops.identity(part)
            parts.append(part)
        return PerReplica(parts)
    return nest.map_structure(place, element)


def _call_for_each_replica(strategy, fn, args, kwargs):
    group = _ReplicaGroup()
    threads = [_ReplicaThread(strategy, i, fn, *_select_replica(i, (args, kwargs)), group)
               for i in range(strategy.num_replicas_in_sync)]
    for t in threads:
        t.start()
    try:
        while True:
            for t in threads:
                if not t.done:
                    t.step()
            for t in threads:
                if t.error is not None:
                    raise t.error
            if all(t.done for t in threads):
                break
            if any(t.done for t in threads):
                raise RuntimeError("Some replicas made a different number of "
                                   "replica_context().merge_call() calls.")
            merge_args = _regroup([t.merge_args for t in threads])
            merge_kwargs = _regroup([t.merge_kwargs for t in threads])
            # the merge's ops join the graph the first replica builds (a branch, a loop
            # body), so they run only where its merge_call does
            caller = context.get()
            context.adopt(threads[0].merge_context)
            try:
                with _enter(strategy, None):
                    result = threads[0].merge_fn(strategy, *merge_args, **merge_kwargs)
            finally:
                context.adopt(caller)
            for i, t in enumerate(threads):
                t.merge_result = _select_replica(i, result)
    finally:
        for t in threads:
            if not t.done:
                t.aborted = True
                t.should_run.set()
        for t in threads:
            t.join()
    return _regroup([t.result for t in threads])


def _run_replicated(strategy, python_function, args, kwargs):
    """The body of `Strategy._replicated_function`."""
    return _call_for_each_replica(strategy, conversion.convert_if_requested(python_function),
                                  args, kwargs)


def _regroup(values, always_wrap=False):
    """One structure from the replicas' structures `values`: a leaf that is the same object
    in every replica stays itself (unless `always_wrap`), others become `PerReplica`."""
    first = values[0]
    if isinstance(first, (list, tuple)) and all(
            type(v) is type(first) and len(v) == len(first) for v in values):
        items = [_regroup(list(parts), always_wrap) for parts in zip(*values)]
        return type(first)(*items) if hasattr(first, "_fields") else type(first)(items)
    if isinstance(first, dict) and all(isinstance(v, dict) and v.keys() == first.keys()
                                       for v in values):
        return type(first)((k, _regroup([v[k] for v in values], always_wrap)) for k in first)
    if not always_wrap and all(v is first for v in values):
        return first
    return PerReplica(values)


def _select_replica(i, structure):
    """`structure` as replica `i` sees it: each `PerReplica` replaced by its `i`-th value."""
    if isinstance(structure, PerReplica):
        return structure.values[i]
    if isinstance(structure, (list, tuple)):
        items = [_select_replica(i, v) for v in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else \
            type(structure)(items)
    if isinstance(structure, dict):
        return type(structure)((k, _select_replica(i, v)) for k, v in structure.items())
    return structure


def _require_cross_replica(message="Method requires being in cross-replica context, use "
                                   "get_replica_context().merge_call()"):
    if _state.stack and _state.stack[-1][1] is not None:
        raise RuntimeError(message)


@contextlib.contextmanager
def _enter(strategy, replica_context):
    _state.stack.append((strategy, replica_context))
    try:
        yield
    finally:
        _state.stack.pop()


@export("distribute.StrategyExtended")
class StrategyExtended:
    """Strategy details (``strategy.extended``)."""

    def __init__(self, strategy, devices):
        self._strategy = strategy
        self._devices = tuple(devices)

    @property
    def worker_devices(self):
        return self._devices

    @property
    def parameter_devices(self):
        return self._devices

    @property
    def should_checkpoint(self):
        return True

    @property
    def should_save_summary(self):
        return True

    def variable_created_in_scope(self, v):
        return getattr(v, "_distribute_strategy", None) is self._strategy

    def colocate_vars_with(self, colocate_with_variable):
        return contextlib.nullcontext()

    def update(self, var, fn, args=(), kwargs=None, group=True):
        """``fn(var, *args, **kwargs)`` in cross-replica context. With `PerReplica`
        arguments, a mirrored variable's copies are updated each with its replica's
        values (the copies then may differ), and the results are `PerReplica`."""
        kwargs = kwargs or {}
        if not isinstance(var, MirroredVariable) or not any(
                isinstance(a, PerReplica) for a in nest.flatten((args, kwargs))):
            return fn(var, *args, **kwargs)
        results = []
        for i, copy_ in enumerate(var.values):
            own_args, own_kwargs = nest.map_structure(
                lambda a, i=i: a.values[i] if isinstance(a, PerReplica) else a, (args, kwargs))
            results.append(fn(copy_, *own_args, **own_kwargs))
        return PerReplica(results)

    def read_var(self, v):
        """The value of variable `v` in cross-replica context (a sync-on-read variable's
        copies combined by its aggregation), a tensor."""
        return v.read_value()

    def reduce_to(self, reduce_op, value, destinations, options=None):
        """`value` reduced across replicas (cross-replica context): one tensor, every
        destination here sharing the host's memory."""
        reduced = self._strategy.reduce(reduce_op, value, axis=None)
        return reduced.read_value() if isinstance(reduced, Variable) else reduced

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        """`reduce_to` of each ``(value, destinations)`` pair, as a list."""
        return [self.reduce_to(reduce_op, value, destinations, options)
                for value, destinations in value_destination_pairs]

    def value_container(self, value):
        """The distributed variable whose replica's copy `value` is; else `value`."""
        container = getattr(value, "_distributed_container", None)
        return value if container is None else container

    @property
    def experimental_require_static_shapes(self):
        return False

    @property
    def experimental_should_init(self):
        """Whether this worker initializes the variables (every worker here)."""
        return True

    @property
    def experimental_between_graph(self):
        """Whether each worker builds its own graph (False: one program for all)."""
        return False

    def call_for_each_replica(self, fn, args=(), kwargs=None):
        """``fn(*args, **kwargs)`` in each replica, as `Strategy.run` calls it."""
        return self._strategy.run(fn, args, kwargs)

    def broadcast_to(self, tensor, destinations):
        """`tensor` for every destination (they share the host's memory here)."""
        return tensor

    def non_slot_devices(self, var_list):
        """The devices of the variables not tied to one of `var_list`: every replica's."""
        return self._devices

    def update_non_slot(self, colocate_with, fn, args=(), kwargs=None, group=True):
        return fn(*args, **(kwargs or {}))


class MirroredExtended(StrategyExtended):
    """A `MirroredStrategy`'s extended API (named as TF names it)."""


class OneDeviceExtended(StrategyExtended):
    """A `OneDeviceStrategy`'s extended API (named as TF names it)."""


class CollectiveAllReduceExtended(StrategyExtended):
    """A `MultiWorkerMirroredStrategy`'s extended API (named as TF names it)."""


class _DefaultDistributionExtended(StrategyExtended):
    """The default strategy's extended API (named as TF names it)."""

    @property
    def worker_devices(self):  # (the default strategy places nothing itself)
        raise RuntimeError("worker_devices() method unsupported by default "
                           "tf.distribute.Strategy.")

    @property
    def parameter_devices(self):
        raise RuntimeError("parameter_devices() method unsupported by default "
                           "tf.distribute.Strategy.")


def _split_batch(element, n):
    """`element` (a batch) as `n` per-replica batches: TF's split, ceil(size / n) rows to
    each replica in turn until the rows run out (a batch size only the graph knows is split
    by graph ops)."""
    def ends(size):  # where each replica's rows end (the first starting at 0)
        if isinstance(size, int):
            per = -(-size // n)
            return [min(per * i, size) for i in range(n + 1)]
        per = math_ops.floordiv(size + (n - 1), n)
        return [math_ops.minimum(per * i, size) for i in range(n + 1)]

    def parts(t):
        if t is None:  # (an absent part of a Keras batch: its sample weights)
            return [None] * n
        if isinstance(t, PerReplica):  # (a batch of a distributed dataset: split already)
            return list(t.values)
        if isinstance(t, RaggedTensor):  # its rows
            rows = ends(t.shape[0] if t.shape[0] is not None else t.nrows())
            return [t[rows[i]:rows[i + 1]] for i in range(n)]
        if isinstance(t, SparseTensor):  # its rows, each part's dense shape theirs
            shape = t.shape
            size = int(shape[0]) if shape[0] is not None else t.dense_shape[0]
            rest = shape[1:].as_list() if shape[1:].is_fully_defined() else \
                t.dense_shape[1:]
            rows = ends(size)
            return [sparse_ops.slice(t, array_ops.concat(
                [array_ops.reshape(cast_ops.cast(rows[i], "int64"), [1]),
                 array_ops.zeros([len(shape) - 1], "int64")], 0), array_ops.concat(
                [array_ops.reshape(cast_ops.cast(rows[i + 1] - rows[i], "int64"), [1]),
                 cast_ops.cast(rest, "int64")], 0)) for i in range(n)]
        t = convert_to_tensor(t)
        if t.shape.rank == 0:
            return [t] * n
        if t.shape[0] is not None:
            rows = ends(int(t.shape[0]))
            return array_ops.split(t, [rows[i + 1] - rows[i] for i in range(n)], axis=0)
        rows = ends(array_ops.shape(t)[0])
        return [t[rows[i]:rows[i + 1]] for i in range(n)]
    return nest.pack_sequence_as(element, [PerReplica(parts(t))
                                           for t in nest.flatten(element)])


def replicated_step(strategy, step, concat=False, reduction="auto"):
    """`step` (a Keras train, test or predict step) as Keras runs it under a strategy: each
    replica steps on its part of the batch (its batch normalization sees that part's
    statistics and its own moving ones, its gradients are summed over the replicas).
    A result that differs between the replicas is reduced as tf_keras's `reduction` says
    (``"auto"``: summed; ``"first"``: the first replica's), or with `concat` the replicas'
    results are concatenated (predictions); one they share (a metric's) is itself. Under
    the default strategy, `step` itself."""
    if isinstance(strategy, _DefaultDistributionStrategy):
        return step
    n = strategy.num_replicas_in_sync
    if reduction == "auto":
        reduction = "sum"
    if concat:
        reduction = "concat"
    elif reduction not in ("first", "sum"):
        raise ValueError(f'`reduction` must be "first", "concat", "sum", or "auto". '
                         f"Received: reduction={reduction}.")

    def reduce(value):
        if not isinstance(value, PerReplica):
            return value
        values = [convert_to_tensor(v) for v in value.values]
        if reduction == "first":
            return values[0]
        if reduction == "sum":  # (tf.reduce_sum of the list: every element of every replica)
            return reduction_ops.reduce_sum(array_ops.stack(values))
        if values[0].shape.rank == 0:
            return array_ops.stack(values)
        return array_ops.concat(values, axis=0)

    def run_on_replicas(batch):
        out = strategy.run(step, args=(_split_batch(batch, n),))
        return nest.map_structure(reduce, out)
    return run_on_replicas


def _replica_element_spec(spec, n, whole):
    """The spec of what each of the `n` replicas gets of an element of `spec`."""
    def one(leaf):
        if not whole and getattr(leaf, "shape", None) is not None and leaf.shape.rank:
            first = leaf.shape[0]
            rows = first // n if first is not None and first % n == 0 else None
            shape = [rows] + leaf.shape.as_list()[1:]
            if isinstance(leaf, RaggedTensorSpec):
                leaf = RaggedTensorSpec(shape, leaf.dtype, leaf.ragged_rank,
                                        leaf.row_splits_dtype)
            elif isinstance(leaf, SparseTensorSpec):
                leaf = SparseTensorSpec(shape, leaf.dtype)
            else:
                leaf = type(leaf)(shape, leaf.dtype, leaf.name)
        return PerReplicaSpec(*[leaf] * n)
    return nest.map_structure(one, spec)


class _DistributedOptional:
    """The next per-replica element, if there is one (`get_next_as_optional`)."""

    def __init__(self, optionals, n, whole):
        self._optionals, self._n, self._whole = optionals, n, whole

    def has_value(self, name=None):
        if self._whole and not _can_be_empty(self._optionals[0].element_spec):
            return functools.reduce(math_ops.logical_and,
                                    [o.has_value() for o in self._optionals])
        return self._optionals[0].has_value()

    def get_value(self, name=None):
        if not self._whole:
            return _split_batch(self._optionals[0].get_value(), self._n)
        first = self._optionals[0].get_value()
        if not _can_be_empty(self._optionals[0].element_spec):
            return _regroup([first] + [o.get_value() for o in self._optionals[1:]],
                            always_wrap=True)
        # (the replicas past the last element get an empty batch)
        return _regroup([first] + [
            cond(o.has_value(), o.get_value, lambda: _empty_batch(first))
            for o in self._optionals[1:]], always_wrap=True)


def _can_be_empty(spec):
    """Whether an element of `spec` has an empty batch: every tensor has a batch axis."""
    return all(getattr(leaf, "shape", None) is not None and leaf.shape.rank
               for leaf in nest.flatten(spec))


def _empty_batch(element):
    return nest.map_structure(lambda t: (t if isinstance(t, RaggedTensor) else
                                         convert_to_tensor(t))[:0], element)


class _DistributedInput:
    """What a distributed dataset and its iterators share: the source (a dataset or an
    iterator) and how its elements go to the replicas, in eager code, in loops a function
    traces and as a function's argument."""

    _whole_elements = False  # each replica takes a whole element in turn
    _devices = None  # the replicas' devices, where their elements go

    def __init__(self, source, num_replicas=1, whole_elements=None):
        self._source = source
        self._n = num_replicas
        if whole_elements is not None:
            self._whole_elements = whole_elements

    @property
    def element_spec(self):
        spec = self._source.element_spec
        return spec if self._n == 1 else _replica_element_spec(spec, self._n,
                                                               self._whole_elements)

    def _as_graph_iterator(self):
        iterator = self._source._as_graph_iterator()
        if self._n == 1:
            return iterator
        return DistributedIterator(iterator, self._n, self._whole_elements)

    def _as_function_argument(self):
        # a tf.function traces once per spec of the source, as for the dataset itself
        spec, tensor = self._source._as_function_argument()
        if self._n == 1:
            return spec, tensor
        return _DistributedInputSpec(spec, type(self), self._n, self._whole_elements), tensor


class _DistributedInputSpec:
    """The type of a distributed dataset or iterator as a `function` argument."""

    def __init__(self, source_spec, kind, n, whole):
        self._source_spec, self._kind, self._n, self._whole = source_spec, kind, n, whole

    def _key(self):
        return (self._source_spec, self._kind, self._n, self._whole)

    def __eq__(self, other):
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"{self._kind.__name__}Spec({self._source_spec!r})"

    def _as_function_argument(self):
        return self, self

    def _stand_in(self, placeholder):
        return self._kind(self._source_spec._stand_in(placeholder), self._n, self._whole)

    def _argument_tensor(self, value):
        if not isinstance(value, self._kind) or (value._n, value._whole_elements) != (
                self._n, self._whole):
            return None
        return self._source_spec._argument_tensor(value._source)


@export("distribute.DistributedIterator")
class DistributedIterator(_DistributedInput):
    def __iter__(self):
        return self

    def __next__(self):
        if self._n == 1:
            with _on_replica_device(None, self._devices):
                return next(self._source)
        if self._whole_elements:
            elements = [next(self._source)]
            for _ in range(self._n - 1):
                try:
                    elements.append(next(self._source))
                except StopIteration:
                    # the replicas past the last element get an empty batch
                    if not _can_be_empty(self._source.element_spec):
                        raise
                    elements.append(_empty_batch(elements[0]))
            return _on_replica_devices(_regroup(elements, always_wrap=True), self._devices)
        return _on_replica_devices(_split_batch(next(self._source), self._n), self._devices)

    def get_next(self, name=None):
        """The next element; past the last, the source iterator's OutOfRangeError (as TF's
        `get_next`, where a Python loop's `next` stops the iteration)."""
        if self._n == 1:
            with _on_replica_device(None, self._devices):
                return self._source.get_next()
        try:
            return self.__next__()
        except StopIteration:
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self):
        if self._n == 1:
            return self._source.get_next_as_optional()
        return _DistributedOptional(
            [self._source.get_next_as_optional()
             for _ in range(self._n if self._whole_elements else 1)],
            self._n, self._whole_elements)


@export("distribute.DistributedDataset")
class DistributedDataset(_DistributedInput):
    """A dataset whose elements are the per-replica batches."""

    def __iter__(self):
        with _on_replica_device(None, self._devices):  # (one replica: its elements there)
            source = iter(self._source)
        iterator = DistributedIterator(source, self._n, self._whole_elements)
        iterator._devices = self._devices
        return iterator

    def reduce(self, initial_state, reduce_func):
        """`reduce_func(state, element)` folded over the per-replica elements, as iterating
        the distributed dataset gives them (a loop in the graph while a function traces)."""
        if self._n == 1:
            return self._source.reduce(initial_state, reduce_func)
        structure = nest.map_structure(convert_to_tensor, initial_state)
        if context.executing_eagerly():
            state = structure
            for element in self:
                state = reduce_func(state, element)
            return state
        state = [structure]

        def body(element):
            state[0] = reduce_func(state[0], element)

        def set_state(flat):
            state[0] = nest.pack_sequence_as(structure, list(flat))
        flat = nest.flatten(structure)
        ag_control_flow.for_stmt(self, None, body, lambda: tuple(nest.flatten(state[0])),
                                 set_state, tuple(f"state_{i}" for i in range(len(flat))), {})
        return state[0]


class DistributedDatasetsFromFunction(DistributedDataset):
    """`distribute_datasets_from_function`'s result."""

    _whole_elements = True


def _made_dataset(dataset_fn, input_context):
    dataset = dataset_fn(input_context)
    if not hasattr(dataset, "element_spec"):  # (TF's error: it reads the spec first)
        raise AttributeError(f"'{type(dataset).__name__}' object has no attribute "
                             f"'element_spec'")
    return dataset


def _per_replica_mode(options):
    return options is not None and \
        options.experimental_replication_mode == InputReplicationMode.PER_REPLICA


def _check_input_options(options, from_function=False):
    """TF's errors for `InputOptions` a way of distributing a dataset does not take."""
    if options is None:
        return
    per_replica = _per_replica_mode(options)
    if not from_function:
        if per_replica:
            raise NotImplementedError("InputReplicationMode.PER_REPLICA is only supported in "
                                      "`distribute_datasets_from_function`.")
        return
    if per_replica and options.experimental_fetch_to_device and \
            options.experimental_place_dataset_on_device:
        raise ValueError("`experimental_place_dataset_on_device` can not be set to True when "
                         "experimental_fetch_to_device is True and replication mode is set "
                         "to `PER_REPLICA`")
    if options.experimental_place_dataset_on_device and not per_replica:
        raise ValueError("When `experimental_place_dataset_on_device` is set for dataset "
                         "placement, you must also specify `PER_REPLICA` for the replication "
                         "mode")


@export("distribute.Strategy")
class Strategy:
    """Runs computations on its replicas, one replica per device of `extended`."""

    _replica_context = ReplicaContext  # (the class of its replicas' contexts)

    def __init__(self, extended=None):
        self._extended = extended or _DefaultDistributionExtended(
            self, ("/job:localhost/replica:0/task:0/device:CPU:0",))

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return len(self._extended._devices)

    @property
    def cluster_resolver(self):
        return None

    def scope(self):
        """A context in which variables and Keras models belong to this strategy."""
        return _Scope(self)

    def run(self, fn, args=(), kwargs=None, options=None):
        """Calls `fn(*args, **kwargs)` once per replica, each with its own part of the
        `PerReplica` arguments; returns the results (`PerReplica` where they differ)."""
        _require_cross_replica()
        if not isinstance(args, (list, tuple)):
            raise ValueError(f"positional args must be a list or tuple, got {type(args)}")
        kwargs = kwargs or {}
        fn = conversion.convert_if_requested(fn)  # as TF's: converted inside a tf.function
        with self.scope():
            if self.num_replicas_in_sync == 1:
                args, kwargs = _select_replica(0, (args, kwargs))
                with _enter(self, self._replica_context(self)), _on_replica_device(self):
                    # (a TF function run as the step dispatches on ragged arguments)
                    return user_functions.call(fn, *args, **kwargs)
            if isinstance(fn, polymorphic_function.Function):
                return self._replicated_function(fn)(args, kwargs)
            return _call_for_each_replica(self, fn, args, kwargs)

    def _replicated_function(self, fn):
        """`tf.function` `fn` as a step of several replicas: one function whose trace runs
        `fn`'s Python function in every replica (as TF's), so each replica traces its own
        step (its replica id, its merge_calls), not one trace reused by the others."""
        made = self.__dict__.setdefault("_replicated_functions", weakref.WeakKeyDictionary())
        wrapped = made.get(fn)
        if wrapped is None:
            wrapped = made[fn] = polymorphic_function.Function(
                functools.partial(_run_replicated, self, fn.python_function), fn.__name__,
                autograph=fn._autograph, jit_compile=fn._jit_compile,
                reduce_retracing=fn._reduce_retracing,
                autograph_options=fn._autograph_options)
        return wrapped

    def reduce(self, reduce_op, value, axis):
        """Reduces per-replica `value` across replicas, and over `axis` too when given."""
        _require_cross_replica()
        reduce_op = _reduce_op(reduce_op)

        def one(v):
            values = _replica_values(v)
            if values is None:  # the same value in every replica
                if axis is None:
                    if reduce_op is ReduceOp.SUM and self.num_replicas_in_sync != 1:
                        raise ValueError(f"A non-DistributedValues value {v!s} cannot be "
                                         f"reduced with the given reduce op {reduce_op}.")
                    # (a mirrored strategy's SUM of one replica is a tensor, as in TF)
                    mirrored = isinstance(self, MirroredStrategy) and not isinstance(
                        v, Variable) and reduce_op is ReduceOp.SUM
                    return convert_to_tensor(v) if mirrored else v
                # (each replica reduces it along `axis`, then the replicas' results combine)
                values = (convert_to_tensor(v),) * self.num_replicas_in_sync
            if axis is None:
                return _combine(reduce_op, values)
            total = _combine(ReduceOp.SUM, [reduction_ops.reduce_sum(x, axis=axis)
                                            for x in values])
            if reduce_op is ReduceOp.SUM:
                return total
            # the sum over the count, as TF divides: an integer mean is a float64
            count = functools.reduce(math_ops.add, [
                array_ops.shape(x)[axis] if isinstance(axis, int) else
                reduction_ops.reduce_prod(array_ops.gather(array_ops.shape(x), axis))
                for x in values])
            return math_ops.truediv(total, cast_ops.cast(count, total.dtype))
        if axis is not None and isinstance(value, (list, tuple)) and \
                not _has_replica_values(value):
            return one(value)  # a tensor-like list, reduced along `axis` as one tensor
        return nest.map_structure(one, value)  # (without an axis, a nest keeps its structure)

    def experimental_distribute_dataset(self, dataset, options=None):
        """The dataset, each batch split over the replicas."""
        _check_input_options(options)
        if not hasattr(dataset, "_as_graph_iterator"):  # TF reads the dataset's variant
            raise AttributeError(f"'{type(dataset).__name__}' object has no attribute "
                                 f"'_variant_tensor'")
        return self._on_device(DistributedDataset(dataset, self.num_replicas_in_sync))

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """Calls `dataset_fn` with an `InputContext` for the one input pipeline, whose
        consecutive elements go to the replicas in turn; with the options' replication mode
        PER_REPLICA, once per replica (its own pipeline), each replica taking its own's."""
        _check_input_options(options, from_function=True)
        n = self.num_replicas_in_sync
        if _per_replica_mode(options):
            datasets = [_made_dataset(dataset_fn, InputContext(n, i, n)) for i in range(n)]
            # (the pipelines' elements in turn: the first's to replica 0, and so on)
            dataset = datasets[0] if n == 1 else Dataset.choose_from_datasets(
                datasets, Dataset.range(n).repeat())
        else:
            dataset = _made_dataset(dataset_fn, InputContext(1, 0, n))
        return self._on_device(DistributedDatasetsFromFunction(dataset, n))

    def _on_device(self, distributed):
        """`distributed` (a dataset of the replicas' inputs) giving each replica's elements
        on its device."""
        distributed._devices = tuple(self.extended.worker_devices)
        return distributed

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_local_results(self, value):
        """The per-replica parts of `value` on this worker, as a tuple."""
        if not nest.is_nested(value):
            values = _replica_values(value)
            return (value,) if values is None else tuple(values)
        n = self.num_replicas_in_sync  # (a nest's other values, once for each replica)
        flat = [_replica_values(v) or (v,) * n for v in nest.flatten(value)]
        return tuple(nest.pack_sequence_as(value, [f[i] for f in flat])
                     for i in range(len(flat[0]) if flat else 1))

    def experimental_distribute_values_from_function(self, value_fn):
        """``value_fn(ValueContext)`` for each replica, as one `PerReplica` value."""
        n = self.num_replicas_in_sync
        if n == 1 and not isinstance(self, MirroredStrategy):
            return value_fn(ValueContext(0, 1))
        return _regroup([value_fn(ValueContext(i, n)) for i in range(n)], always_wrap=True)

    def gather(self, value, axis):
        """The per-replica values of `value` concatenated along `axis`.

        As TF's, only a distributed value itself is gathered: of a nest of them (a dict of
        `PerReplica` values) comes the first replica's nest, and any other value as it is.
        """
        _require_cross_replica("tf.distribute.Strategy.gather method requires cross-replica "
                               "context, use get_replica_context().all_gather() instead")
        values = _replica_values(value)
        if values is None:
            return self.experimental_local_results(value)[0]
        _check_gather_axis(values, axis)
        if len(values) == 1:
            return convert_to_tensor(values[0])
        return array_ops.concat([convert_to_tensor(x) for x in values], axis)

    def __deepcopy__(self, memo):
        return self


def _has_replica_values(structure):
    return any(_replica_values(v) is not None for v in nest.flatten(structure))


def _replica_values(value):
    """The values of the replicas in `value` (a `PerReplica` or mirrored variable); None for
    a value that is the same in every replica."""
    if isinstance(value, PerReplica):
        return value.values
    if isinstance(value, _DistributedVariable):
        return value.values
    return None


@export("distribute.DistributedValues")
class DistributedValues:
    """Values with one component per replica; a single replica's value is the value itself."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values


class PerReplicaSpec(TypeSpec):
    """The type of a `PerReplica` value: its values' specs (a `tf.function` traces once per
    spec, and takes one as an `input_signature`)."""

    def __init__(self, *value_specs):
        self._value_specs = tuple(value_specs)

    def is_compatible_with(self, spec_or_value):
        """True for a `PerReplica` value (or spec) whose values fit this spec's, one by one."""
        if isinstance(spec_or_value, PerReplica):
            others = spec_or_value.values
        elif isinstance(spec_or_value, PerReplicaSpec):
            others = spec_or_value._value_specs
        else:
            return False
        return len(others) == len(self._value_specs) and all(
            mine.is_compatible_with(other) for mine, other in zip(self._value_specs, others))

    value_type = property(lambda self: PerReplica)
    shape = None

    @property
    def _component_specs(self):
        return self._value_specs

    def _to_components(self, value):
        return value.values

    def _from_components(self, components):
        return PerReplica(components)

    def __eq__(self, other):
        return type(other) is type(self) and self._value_specs == other._value_specs

    def __hash__(self):
        return hash(self._value_specs)

    def __repr__(self):
        return f"PerReplicaSpec({', '.join(map(repr, self._value_specs))})"


class PerReplica(DistributedValues):
    """Values, one per replica, that `run` hands each replica its own of.

    >>> s = tf.distribute.MirroredStrategy()
    >>> print(s.experimental_distribute_values_from_function(lambda ctx: tf.constant(1.0)))
    PerReplica:{
      0: tf.Tensor(1.0, shape=(), dtype=float32)
    }
    """

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    @property
    def _type_spec(self):
        from eagerflow._src.core.tensor_spec import TensorSpec  # noqa: PLC0415
        # (variables only as what a traced `run` returns, which the function reads)
        if not all(hasattr(v, "dtype") and hasattr(v, "shape") and (
                not isinstance(v, Variable) or not context.executing_eagerly())
                for v in self._values):
            return None
        return PerReplicaSpec(*[TensorSpec(v.shape, v.dtype) for v in self._values])

    def __str__(self):
        parts = ",\n".join(f"  {i}: {v!s}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{parts}\n}}"

    def __repr__(self):
        parts = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{parts}\n}}"


def _per_replica_to_tensor(value, dtype=None, name=None, as_ref=False):
    """A `PerReplica` as a tensor: in a replica of `run`, that replica's own value; elsewhere
    it is not one tensor."""
    replica = get_replica_context()
    if replica is None or isinstance(replica, _DefaultReplicaContext):
        raise ValueError("It looks like you are using a PerReplica object while not inside a "
                         "replica context, which is not supported. Try running your op or "
                         "function inside a replica context by using `strategy.run`")
    return convert_to_tensor(value.values[replica._replica_id], dtype=dtype, name=name)


register_tensor_conversion_function(PerReplica, _per_replica_to_tensor)


class _DistributedVariable(ResourceVariable, DistributedValues):
    """A variable of a `MirroredStrategy`: one copy per replica (`values`), printed as TF
    prints them."""

    @property
    def values(self):
        return self._mirrored_values

    @property
    def distribute_strategy(self):
        return self._distribute_strategy

    def __repr__(self):
        if not context.executing_eagerly():
            return super().__repr__()
        parts = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self._mirrored_values))
        return f"{type(self).__name__}:{{\n{parts}\n}}"

    __str__ = __repr__

    # unlike a resource variable, TF's distributed ones take `v += 1` as `v = v + 1`
    def __iadd__(self, other):
        return self + other

    def __isub__(self, other):
        return self - other

    def __imul__(self, other):
        return self * other

    def __itruediv__(self, other):
        return self / other

    def __ipow__(self, other):
        return self ** other


class MirroredVariable(_DistributedVariable):
    """A variable of a `MirroredStrategy`, one copy per replica, kept equal.

    The copies share one value here: updates from a replica go through the variable's
    aggregation (SUM, MEAN, ONLY_FIRST_REPLICA) and apply once.

    A copy written on its own (``v.values[1].assign(...)``), or an update from the
    replicas of a variable without aggregation (NONE), makes every copy one of its own,
    as TF's are: from then on each copy keeps its value, updates of the variable apply
    to each, and a replica reads its own copy.
    """

    _copies_split = False

    def _split_copies(self):
        """Gives each copy after the first storage of its own holding the current value;
        False where the value is not held here yet (a TF 1 graph's variable)."""
        if self._copies_split:
            return True
        if type(self._handle) is not ResourceHandle:
            return False
        with context.init_scope():
            if self._handle.value is None:
                return False
            for copy_ in self._mirrored_values[1:]:
                copy_._handle = ResourceHandle(self._handle.value.copy())
                _BY_HANDLE[id(copy_._handle)] = copy_
        self._copies_split = True
        if not context.executing_eagerly():  # (the value when the traced code runs)
            current = self.value()
            for copy_ in self._mirrored_values[1:]:
                ResourceVariable._write(copy_, _ASSIGN, current, False, None)
        return True

    def _replica_copy(self):
        """The copy of the replica running now when the copies are split, else None."""
        if not self._copies_split:
            return None
        current = _state.stack[-1] if _state.stack else None
        if current is None or current[0] is not self._distribute_strategy or \
                current[1] is None or current[1]._thread is None:
            return None
        return self._mirrored_values[current[1]._replica_id]

    def value(self):
        own = self._replica_copy()
        read = super().value()
        if own is None or own._handle is self._handle:
            return read
        # the replica's own copy, whose gradient is the variable's (tapes watch the variable)
        mine = ResourceVariable.value(own)
        if not self._dtype.is_floating and not self._dtype.is_complex:
            return mine
        return math_ops.add(mine, math_ops.subtract(read, cast_ops.stop_gradient(read)))

    def read_value(self):
        return self.value()

    def __tf_tensor__(self, dtype=None, name=None):
        if self._replica_copy() is None or (dtype is not None and dtype != self._dtype):
            return super().__tf_tensor__(dtype, name)
        return self.value()

    def _write_copies(self, op, value, read_value, name):
        """`op` applied to the variable: to every copy once they are split."""
        if self._copies_split:
            value = convert_to_tensor(value, dtype=self._dtype)
        written = super()._write(op, value, read_value, name)
        if self._copies_split:
            for copy_ in self._mirrored_values[1:]:
                ResourceVariable._write(copy_, op, value, False, name)
        return written

    def _write(self, op, value, read_value, name):
        current = _state.stack[-1] if _state.stack else None
        replica = current[1] if current is not None and current[0] is \
            self._distribute_strategy else None
        if replica is None or replica._thread is None:
            return self._write_copies(op, value, read_value, name)
        kind = getattr(self._aggregation, "name", "NONE")
        if kind == "NONE":
            own = self._mirrored_values[replica._replica_id]
            # each replica updates its own copy, which then may differ from the others'
            if self._split_copies():
                done = ResourceVariable._write(own, op, value, False, name)
                return _UnreadVariable(own) if read_value else done
            if replica._replica_id == 0:
                return super()._write(op, value, read_value, name)
            return self if read_value else context.no_outputs()

        def merge(strategy, v):
            values = _replica_values(v)
            if values is None:
                if kind == "SUM":
                    raise ValueError(f"A non-DistributedValues value {v!s} cannot be reduced "
                                     f"with the given reduce op ReduceOp.SUM.")
            elif kind == "ONLY_FIRST_REPLICA":
                v = values[0]
            else:
                v = _combine(ReduceOp[kind], [convert_to_tensor(x, dtype=self._dtype)
                                              for x in values])
            return MirroredVariable._write_copies(self, op, v, read_value, name)
        return replica.merge_call(merge, args=(value,))


class _MirroredCopy(ResourceVariable):
    """A replica's copy in a `MirroredVariable`'s `values`: written on its own, it splits
    the copies (see `MirroredVariable`)."""

    def _write(self, op, value, read_value, name):
        self._distributed_container._split_copies()
        return ResourceVariable._write(self, op, value, read_value, name)


_MirroredCopy.__name__ = "ResourceVariable"  # (as TF names it)


class SyncOnReadVariable(_DistributedVariable):
    """A variable of a `MirroredStrategy` made with ``synchronization=ON_READ`` (a metric's
    total, a batch normalization's moving mean): each replica reads and updates its own copy;
    read in cross-replica context, the copies are combined by the variable's aggregation.

    In cross-replica context `assign` sets every copy (a SUM variable's share, value / n, to
    each) and `assign_add`/`assign_sub` update every copy; a SUM variable refuses these two
    there, as TF's does (a Keras metric made under the scope updates in a replica).
    """

    _saved_as_read = True  # a checkpoint holds its copies combined

    def _own_copy(self):
        """The copy of the replica running now; None in cross-replica context."""
        current = _state.stack[-1] if _state.stack else None
        if current is None or current[0] is not self._distribute_strategy or \
                current[1] is None:
            return None
        return self._mirrored_values[current[1]._replica_id]

    def value(self):
        own = self._own_copy()
        if own is not None:
            return own.value()
        kind = getattr(self._aggregation, "name", "NONE")
        if kind == "ONLY_FIRST_REPLICA":
            return self._mirrored_values[0].value()
        values = [v.value() for v in self._mirrored_values]
        return _combine(ReduceOp.from_variable_aggregation(self._aggregation), values)

    def read_value(self):
        return self.value()

    def __tf_tensor__(self, dtype=None, name=None):
        if dtype is not None and dtype != self._dtype:
            return super().__tf_tensor__(dtype, name)  # (its error)
        return self.value()

    def _write(self, op, value, read_value, name):
        own = self._own_copy()
        if own is not None:
            return own._write(op, value, read_value, name)
        value = convert_to_tensor(value, dtype=self._dtype)
        copies = self._mirrored_values
        if getattr(self._aggregation, "name", "NONE") == "SUM":
            if op.name != "AssignVariableOp":
                method = "assign_add" if op.name == "AssignAddVariableOp" else "assign_sub"
                raise ValueError(f"SyncOnReadVariable does not support `{method}` in "
                                 f"cross-replica context when aggregation is set to "
                                 f"`tf.VariableAggregation.SUM`.")
            divide = math_ops.floordiv if self._dtype.is_integer else math_ops.truediv
            value = divide(value, constant(len(copies), dtype=self._dtype))  # each copy's share
        for v in copies:
            done = ResourceVariable._write(v, op, value, False, name)
        return self.value() if read_value else done


def _check_mirrorable(kwargs):
    """TF's ValueErrors for a variable a mirrored strategy cannot keep in its replicas: one of
    synchronization NONE, or whose aggregation is not one of the enums' members."""
    name = kwargs.get("name")
    if kwargs.get("synchronization") == VariableSynchronization.NONE:
        raise ValueError(f"`NONE` variable synchronization mode is not supported with "
                         f"tf.distribute strategy. Please change the `synchronization` for "
                         f"variable: {name}")
    aggregation = kwargs.get("aggregation")
    if aggregation is not None and not isinstance(aggregation, (VariableAggregation,
                                                                VariableAggregationV1)):
        raise ValueError(f"Invalid variable aggregation mode: {aggregation} for variable: "
                         f"{name}")


def _mirror(variable, strategy, cls=MirroredVariable):
    """Turns the new plain `variable` into a `MirroredVariable` (or `cls`) of `strategy`'s
    devices."""
    if variable.dtype.is_integer and getattr(variable.aggregation, "name", "") == "MEAN":
        raise ValueError("creating distributed tf.Variable with aggregation=MEAN and a "
                         "non-floating dtype is not supported, please use a different "
                         "aggregation or dtype")
    components = []
    base = variable.name[:-2] if variable.name.endswith(":0") else variable.name
    for i, device in enumerate(strategy.extended.worker_devices):
        component = twin(variable)  # the same value, seen under the replica's name
        component.__class__ = ResourceVariable
        if i:
            component._name = f"{base}/replica_{i}:0"
            component._device = device
        components.append(component)
    if cls is SyncOnReadVariable and variable._handle.value is not None:
        for i in range(1, len(components)):  # each replica's own copy
            own = copy.deepcopy(components[i])
            own._name, own._device = components[i]._name, components[i]._device
            components[i] = own
    variable.__class__ = cls
    for component in components:
        component._distributed_container = variable
        if cls is not SyncOnReadVariable:
            component.__class__ = _MirroredCopy
    if variable._synchronization == VariableSynchronization.AUTO:
        variable._synchronization = VariableSynchronization.ON_WRITE
    variable._mirrored_values = tuple(components)
    return variable


@export("distribute.experimental.ValueContext")
class ValueContext:
    """What a value function of `experimental_distribute_values_from_function` is told."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync

    def __str__(self):
        return (f"tf.distribute.ValueContext(replica id {self.replica_id_in_sync_group},  "
                f"total replicas in sync: {self.num_replicas_in_sync})")


class _Scope:
    def __init__(self, strategy):
        self._strategy = strategy
        self._creator = None

    def __enter__(self):
        current = _current_strategy()
        if current is self._strategy:
            _require_cross_replica()  # (not in one of its replicas)
        if has_strategy() and current is not self._strategy:
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: "
                               f"{current} is not {self._strategy}")
        strategy = self._strategy

        def creator(next_creator, **kwargs):
            # a replica after the first takes the variable replica 0 made at this point
            top = _state.stack[-1] if _state.stack else None
            replica = top[1] if top is not None and top[0] is strategy else None
            group = replica._thread.group if replica is not None and replica._thread else None
            if group is not None and replica._replica_id:
                k = group.taken.get(replica._replica_id, 0)
                group.taken[replica._replica_id] = k + 1
                return group.created[k]
            if isinstance(strategy, (MirroredStrategy, CollectiveAllReduceStrategy)):
                _check_mirrorable(kwargs)
            if isinstance(strategy, OneDeviceStrategy):  # (its variables live on its device)
                with context.device(strategy.extended.worker_devices[0]):
                    v = next_creator(**kwargs)
            else:
                v = next_creator(**kwargs)
            try:
                v._distribute_strategy = strategy
            except AttributeError:
                pass
            # (a variable class may name its mirrored form: Keras's AutoCastVariable)
            mirrored = getattr(type(v), "_mirrored_class", None) if \
                v.synchronization != VariableSynchronization.ON_READ else None
            if isinstance(strategy, (MirroredStrategy, CollectiveAllReduceStrategy)) and (
                    type(v) is ResourceVariable or mirrored is not None):
                v = _mirror(v, strategy, mirrored or (
                    SyncOnReadVariable if v.synchronization ==
                    VariableSynchronization.ON_READ else MirroredVariable))
            if group is not None:
                group.created.append(v)
            return v
        self._creator = variable_creator_scope(creator)
        self._creator.__enter__()
        _state.stack.append((strategy, None))
        return strategy

    def __exit__(self, *exc):
        _state.stack.pop()
        self._creator.__exit__(*exc)
        return False


def check_model_strategy(model, recorded):
    """Raises as TF's Keras does when `model` is compiled under another strategy's scope
    than the one it was created in."""
    if recorded is not None:
        with recorded.scope():  # a different current strategy raises RuntimeError
            return
    if not has_strategy():
        return
    strategy = get_strategy()
    for v in model.variables:
        if not strategy.extended.variable_created_in_scope(v):
            raise ValueError(
                f"Variable ({v!r}) was not created in the distribution strategy scope of "
                f"({strategy}). It is most likely because some layers, model, or optimizer was "
                f"being created outside the distribution strategy scope. Try to make sure your "
                f"code looks similar to the following.\nwith strategy.scope():\n"
                f"  model=_create_model()\n  model.compile(...)")


class _DefaultDistributionStrategy(Strategy):
    """The strategy in effect outside any `scope()`."""

    def scope(self):
        return contextlib.nullcontext(self)

    def experimental_distribute_dataset(self, dataset, options=None):
        """The dataset itself: the default strategy's one replica takes its batches."""
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """The dataset `dataset_fn` makes for the one input pipeline, itself."""
        return dataset_fn(InputContext(1, 0, 1))

    experimental_distribute_datasets_from_function = distribute_datasets_from_function


class _DefaultReplicaContext(ReplicaContext):
    @property
    def replica_id_in_sync_group(self):
        return 0  # a Python int outside any strategy, as TF's default context answers


_DEFAULT = _DefaultDistributionStrategy()
_DEFAULT_REPLICA = _DefaultReplicaContext(_DEFAULT)


_eager_run_warnings = 0


def _requested_device(device):
    """The full name of `device` as the strategy reports it: the one asked for, as in TF,
    even a GPU this machine lacks (ops placed there run on the CPU, placement being soft)."""
    if not device:
        return canonical_device(device)
    spec = DeviceSpec.from_string(device)
    return (f"/job:localhost/replica:0/task:0/device:{spec.device_type or 'CPU'}:"
            f"{spec.device_index or 0}")


@export("distribute.MirroredStrategy")
class MirroredStrategy(Strategy):
    """Synchronous replicas on the given devices: one on the host CPU."""

    _replica_context = _MirroredReplicaContext

    def __init__(self, devices=None, cross_device_ops=None):
        if not devices:  # (None or empty) every GPU, or else every (logical) CPU
            local = list_logical_devices("GPU") or list_logical_devices("CPU")
            devices = [d.name for d in local]
        devices = tuple(_requested_device(d) for d in devices)
        if len(set(devices)) != len(devices):  # (TF asserts it)
            raise AssertionError(f"No duplicates allowed in `devices` argument: {devices}")
        super().__init__(MirroredExtended(self, devices))
        _log.logger.info("Using MirroredStrategy with devices %r", self.extended.worker_devices)

    def run(self, fn, args=(), kwargs=None, options=None):
        _warn_eager_run(self, fn)
        return super().run(fn, args, kwargs, options)


def _warn_eager_run(strategy, fn):
    """TF's warning on the first five eager calls of `run` (it runs each replica's step in a
    thread there); a tf.function around `run`, or as the step, avoids it."""
    global _eager_run_warnings
    if _eager_run_warnings < 5 and get_context().graph is None and \
            not isinstance(fn, polymorphic_function.Function):
        _eager_run_warnings += 1
        _log.logger.warning(
            f"Using {type(strategy).__name__} eagerly has significant overhead currently. We "
            "will be working on improving this in the future, but for now please wrap "
            "`call_for_each_replica` or `experimental_run` or `run` inside a tf.function "
            "to get the best performance.")


@export("distribute.OneDeviceStrategy")
class OneDeviceStrategy(Strategy):
    """All computation on the one given device."""

    _replica_context = _OneDeviceReplicaContext

    def __init__(self, device):
        super().__init__(OneDeviceExtended(self, (_requested_device(device),)))

    def experimental_distribute_dataset(self, dataset, options=None):
        if _per_replica_mode(options):
            raise NotImplementedError("InputReplicationMode.PER_REPLICA is only supported in  "
                                      "`experimental_distribute_datasets_from_function`.")
        return super().experimental_distribute_dataset(dataset, options)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        _check_input_options(options, from_function=True)
        if _per_replica_mode(options):
            raise NotImplementedError(
                "InputReplicationMode.PER_REPLICA is only supported in "
                "`experimental_distribute_datasets_from_function` of "
                "tf.distribute.MirroredStrategy")
        return super().distribute_datasets_from_function(dataset_fn, options)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function


@export("distribute.experimental.CentralStorageStrategy")
class CentralStorageStrategy(Strategy):
    """Variables on one device, computation replicated on the others: here one device."""

    _replica_context = _MirroredReplicaContext

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__(ParameterServerStrategyExtended(
            self, ("/job:localhost/replica:0/task:0/device:CPU:0",)))

    def run(self, fn, args=(), kwargs=None, options=None):
        _warn_eager_run(self, fn)
        return super().run(fn, args, kwargs, options)


class ParameterServerStrategyExtended(StrategyExtended):
    """A `CentralStorageStrategy`'s extended API (named as TF names it)."""

    @property
    def worker_devices(self):
        return list(self._devices)  # a list in TF (its parameter devices are a tuple)


@export("distribute.MultiWorkerMirroredStrategy",
        "distribute.experimental.MultiWorkerMirroredStrategy")
class CollectiveAllReduceStrategy(Strategy):
    """Mirrored replicas over workers (``tf.distribute.MultiWorkerMirroredStrategy``, named
    as TF's class is): without a cluster, one worker with one replica."""

    _replica_context = _MirroredReplicaContext

    def __init__(self, cluster_resolver=None, communication_options=None):
        super().__init__(CollectiveAllReduceExtended(
            self, ("/job:localhost/replica:0/task:0/device:CPU:0",)))
        _log.logger.warning("Collective ops is not configured at program startup. Some "
                            "performance features may not be enabled.")
        self._cluster_resolver = cluster_resolver or TFConfigClusterResolver()

    @property
    def cluster_resolver(self):
        return self._cluster_resolver

    def run(self, fn, args=(), kwargs=None, options=None):
        _warn_eager_run(self, fn)
        return super().run(fn, args, kwargs, options)


def _current_strategy():
    return _state.stack[-1][0] if _state.stack else _DEFAULT


@export("distribute.get_strategy")
def get_strategy():
    """The strategy whose `scope()` is active, or the default strategy."""
    return _current_strategy()


@export("distribute.has_strategy")
def has_strategy():
    """Whether a non-default strategy's `scope()` is active."""
    return _current_strategy() is not _DEFAULT


@export("distribute.in_cross_replica_context")
def in_cross_replica_context():
    """True inside a strategy's `scope()` but outside its `run`."""
    return bool(_state.stack) and _state.stack[-1][1] is None


@export("distribute.get_replica_context")
def get_replica_context():
    """The current `ReplicaContext`; None in a cross-replica context."""
    if not _state.stack:
        return _DEFAULT_REPLICA
    return _state.stack[-1][1]


@export("distribute.experimental_set_strategy")
def experimental_set_strategy(strategy):
    """Makes `strategy` current for the rest of the program (None: back to the default)."""
    _state.stack[:] = [] if strategy is None else [(strategy, None)]


@export("distribute.experimental.CommunicationImplementation",
        "distribute.experimental.CollectiveCommunication")
class CommunicationImplementation(enum.Enum):
    """How collective operations are carried out."""
    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"

    def __str__(self):
        return f"CommunicationImplementation.{self.name}"


@export("distribute.experimental.CommunicationOptions")
class CommunicationOptions:
    """Options for cross-replica communication (accepted; one replica communicates nothing)."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"bytes_per_pack must be non-negative, got {bytes_per_pack}.")
        if isinstance(implementation, str):
            implementation = CommunicationImplementation(implementation.upper())
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation

    def __str__(self):
        return (f"Options(bytes_per_pack={self.bytes_per_pack},timeout_seconds="
                f"{self.timeout_seconds}, implementation={self.implementation})")


@export("distribute.RunOptions")
class RunOptions(collections.namedtuple("RunOptions", [
        "experimental_enable_dynamic_batch_size", "experimental_bucketizing_dynamic_shape",
        "experimental_xla_options"])):
    """Options for `Strategy.run` (a named tuple, as TF's)."""

    def __new__(cls, experimental_enable_dynamic_batch_size=True,
                experimental_bucketizing_dynamic_shape=False, experimental_xla_options=None):
        return super().__new__(cls, experimental_enable_dynamic_batch_size,
                               experimental_bucketizing_dynamic_shape,
                               experimental_xla_options)


@export("distribute.InputOptions")
class InputOptions(collections.namedtuple("InputOptions", [
        "experimental_fetch_to_device", "experimental_replication_mode",
        "experimental_place_dataset_on_device", "experimental_per_replica_buffer_size"])):
    """Options for distributing datasets (a named tuple, as TF's): unset, the dataset is
    fetched to the device and each worker has one input pipeline."""

    def __new__(cls, experimental_fetch_to_device=None, experimental_replication_mode=None,
                experimental_place_dataset_on_device=False,
                experimental_per_replica_buffer_size=1):
        return super().__new__(
            cls, True if experimental_fetch_to_device is None else experimental_fetch_to_device,
            InputReplicationMode.PER_WORKER if experimental_replication_mode is None
            else experimental_replication_mode,
            experimental_place_dataset_on_device, experimental_per_replica_buffer_size)


@export("distribute.InputReplicationMode")
class InputReplicationMode(enum.Enum):
    """Whether each worker's input pipeline is shared by its replicas."""
    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


@export("distribute.CrossDeviceOps")
class CrossDeviceOps:
    """How a strategy combines values across devices (nothing to combine on one device)."""

    def __init__(self):
        pass

    def reduce(self, reduce_op, per_replica_value, destinations, options=None):
        _reduce_op(reduce_op)
        return per_replica_value

    def batch_reduce(self, reduce_op, value_destination_pairs, options=None):
        _reduce_op(reduce_op)
        return [value for value, _ in value_destination_pairs]

    def broadcast(self, tensor, destinations):
        return tensor


@export("distribute.ReductionToOneDevice")
class ReductionToOneDevice(CrossDeviceOps):
    """Reduces on one device, then broadcasts."""

    def __init__(self, reduce_to_device=None, accumulation_fn=None):
        super().__init__()
        self.reduce_to_device = reduce_to_device


@export("distribute.HierarchicalCopyAllReduce")
class HierarchicalCopyAllReduce(CrossDeviceOps):
    """Hierarchical-copy all-reduce."""

    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(f"HierarchicalCopy requires num_packs >= 0, but {num_packs} is "
                             f"specified")
        super().__init__()
        self.num_packs = num_packs


@export("distribute.NcclAllReduce")
class NcclAllReduce(CrossDeviceOps):
    """NCCL all-reduce."""

    def __init__(self, num_packs=1):
        if num_packs < 0:
            raise ValueError(f"NCCL all-reduce requires num_packs >= 0, but {num_packs} is "
                             f"specified")
        super().__init__()
        self.num_packs = num_packs
