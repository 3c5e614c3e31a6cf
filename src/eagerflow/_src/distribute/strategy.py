"""``tf.distribute`` strategies for one device.

eagerflow runs on the host CPU only, where TensorFlow's strategies have a
single replica: `run` calls the step function once, values are their own
per-replica results, and reductions across replicas are identities (or
reductions over the batch axis when one is given).

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
import contextlib
import enum

from eagerflow._src.backend import log as _log
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.devices import DeviceSpec, canonical_device
from eagerflow._src.core.convert import convert_to_tensor
from eagerflow._src.core.variables import Variable, variable_creator_scope
from eagerflow._src.core import distribution_context, nest
from eagerflow._src.core.context import get as get_context
from eagerflow._src.distribute.cluster import TFConfigClusterResolver
from eagerflow._src.ops import array_ops, cast_ops, math_ops, reduction_ops


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
                             f"`num_replicas_in_sync` {self._num_replicas_in_sync}")
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return (f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, "
                f"total: {self._num_input_pipelines})")


@export("distribute.ReplicaContext")
class ReplicaContext:
    """The replica a step function runs as (`tf.distribute.get_replica_context`)."""

    def __init__(self, strategy, replica_id_in_sync_group=0):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        from eagerflow._src.core.convert import constant  # noqa: PLC0415
        return constant(self._replica_id, dtype="int32")

    @property
    def devices(self):
        return self._strategy.extended.worker_devices

    def all_reduce(self, reduce_op, value, options=None):
        """Combines `value` (a nested structure) across replicas: one replica keeps it."""
        _reduce_op(reduce_op)
        return nest.map_structure(convert_to_tensor, value)

    def all_gather(self, value, axis, options=None):
        return nest.map_structure(convert_to_tensor, value)

    def merge_call(self, merge_fn, args=(), kwargs=None):
        with _enter(self._strategy, None):
            return merge_fn(self._strategy, *args, **(kwargs or {}))

    def __enter__(self):
        _state.stack.append((self._strategy, self))

    def __exit__(self, *exc):
        _state.stack.pop()


def _require_cross_replica():
    if _state.stack and _state.stack[-1][1] is not None:
        raise RuntimeError("Method requires being in cross-replica context, use "
                           "get_replica_context().merge_call()")


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
        return fn(var, *args, **(kwargs or {}))

    def value_container(self, value):
        return value


@export("distribute.DistributedIterator")
class DistributedIterator:
    def __init__(self, iterator):
        self._iterator = iterator

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._iterator)

    def get_next(self):
        return next(self._iterator)

    def _as_graph_iterator(self):
        return self._iterator._as_graph_iterator()

    def get_next_as_optional(self):
        return self._iterator.get_next_as_optional()

    @property
    def element_spec(self):
        return self._iterator.element_spec


@export("distribute.DistributedDataset")
class DistributedDataset:
    """A dataset whose elements are the per-replica batches (one replica: the batches)."""

    def __init__(self, dataset):
        self._dataset = dataset

    def __iter__(self):
        return DistributedIterator(iter(self._dataset))

    def _as_graph_iterator(self):
        # AutoGraph's graph loop over a dataset inside a tf.function.
        return self._dataset._as_graph_iterator()

    def _as_function_argument(self):
        # a tf.function traces once per element spec, as for the dataset itself
        return self._dataset._as_function_argument()

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def reduce(self, initial_state, reduce_func):
        return self._dataset.reduce(initial_state, reduce_func)


class DistributedDatasetsFromFunction(DistributedDataset):
    """`distribute_datasets_from_function`'s result."""


@export("distribute.Strategy")
class Strategy:
    """Runs computations on its replicas; here a single one on the host."""

    def __init__(self, extended=None):
        self._extended = extended or StrategyExtended(self, ("/job:localhost/replica:0/task:0/device:CPU:0",))

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return 1

    @property
    def cluster_resolver(self):
        return None

    def scope(self):
        """A context in which variables and Keras models belong to this strategy."""
        return _Scope(self)

    def run(self, fn, args=(), kwargs=None, options=None):
        """Calls `fn(*args, **kwargs)` as the one replica and returns its result."""
        _require_cross_replica()
        if not isinstance(args, (list, tuple)):
            raise ValueError(f"positional args must be a list or tuple, got {type(args)}")
        args, kwargs = _local_value((args, kwargs or {}))
        with _enter(self, ReplicaContext(self)):
            return fn(*args, **kwargs)

    def reduce(self, reduce_op, value, axis):
        """Reduces per-replica `value` across replicas, and over `axis` too when given."""
        _require_cross_replica()
        reduce_op = _reduce_op(reduce_op)

        def one(v):
            if axis is None:  # one replica: its value
                return v if isinstance(v, Variable) else convert_to_tensor(v)
            total = reduction_ops.reduce_sum(v, axis=axis)
            if reduce_op is ReduceOp.SUM:
                return total
            # the sum over the count, as TF divides: an integer mean is a float64
            count = array_ops.gather(array_ops.shape(v), axis)
            count = reduction_ops.reduce_prod(count)
            if total.dtype.is_floating or total.dtype.is_complex:
                count = cast_ops.cast(count, total.dtype)
            return math_ops.truediv(total, count)
        return nest.map_structure(one, _local_value(value))

    def experimental_distribute_dataset(self, dataset, options=None):
        """The dataset, batches split over the replicas (one replica: unchanged)."""
        if not hasattr(dataset, "_as_graph_iterator"):  # TF reads the dataset's variant
            raise AttributeError(f"'{type(dataset).__name__}' object has no attribute "
                                 f"'_variant_tensor'")
        return DistributedDataset(dataset)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """Calls `dataset_fn` with an `InputContext` for the one input pipeline."""
        return DistributedDatasetsFromFunction(
            dataset_fn(InputContext(1, 0, self.num_replicas_in_sync)))

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_local_results(self, value):
        """The per-replica parts of `value` on this worker, as a tuple."""
        if isinstance(value, PerReplica):
            return value.values
        return (value,)

    def experimental_distribute_values_from_function(self, value_fn):
        from eagerflow._src.distribute.strategy import ValueContext  # noqa: PLC0415
        return PerReplica((value_fn(ValueContext()),))

    def gather(self, value, axis):
        return convert_to_tensor(_local_value(value))

    def __deepcopy__(self, memo):
        return self


class PerReplica:
    """Values, one per replica, that `run` hands each replica its own of (here one).

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

    def __str__(self):
        parts = ",\n".join(f"  {i}: {v!s}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{parts}\n}}"

    def __repr__(self):
        parts = ",\n".join(f"  {i}: {v!r}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{parts}\n}}"


def _local_value(structure):
    """`structure` with each `PerReplica` replaced by this (the one) replica's value."""
    return nest.map_structure(lambda v: v.values[0] if isinstance(v, PerReplica) else v,
                              structure)


@export("distribute.experimental.ValueContext")
class ValueContext:
    """What a value function of `experimental_distribute_values_from_function` is told."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self.replica_id_in_sync_group = replica_id_in_sync_group
        self.num_replicas_in_sync = num_replicas_in_sync


class _Scope:
    def __init__(self, strategy):
        self._strategy = strategy
        self._creator = None

    def __enter__(self):
        current = _current_strategy()
        if has_strategy() and current is not self._strategy:
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: "
                               f"{current} is not {self._strategy}")
        strategy = self._strategy

        def creator(next_creator, **kwargs):
            # variables stay plain; they remember the strategy they belong to
            v = next_creator(**kwargs)
            try:
                v._distribute_strategy = strategy
            except AttributeError:
                pass
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

    def __init__(self, devices=None, cross_device_ops=None):
        # TF makes a replica per device; eagerflow computes on the host: one replica
        first = tuple(devices)[0] if devices else None
        super().__init__(StrategyExtended(self, (_requested_device(first),)))
        _log.logger.info("Using MirroredStrategy with devices %r", self.extended.worker_devices)

    def run(self, fn, args=(), kwargs=None, options=None):
        global _eager_run_warnings
        if _eager_run_warnings < 5 and get_context().graph is None:
            # TF's warning on the first five eager calls (it runs each replica's step in
            # a thread there); a tf.function around `run` avoids it.
            _eager_run_warnings += 1
            _log.logger.warning(
                f"Using {type(self).__name__} eagerly has significant overhead currently. We "
                "will be working on improving this in the future, but for now please wrap "
                "`call_for_each_replica` or `experimental_run` or `run` inside a tf.function "
                "to get the best performance.")
        return super().run(fn, args, kwargs, options)


@export("distribute.OneDeviceStrategy")
class OneDeviceStrategy(Strategy):
    """All computation on the one given device."""

    def __init__(self, device):
        super().__init__(StrategyExtended(self, (_requested_device(device),)))


@export("distribute.experimental.CentralStorageStrategy")
class CentralStorageStrategy(Strategy):
    """Variables on one device, computation replicated on the others: here one device."""

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__()


@export("distribute.MultiWorkerMirroredStrategy",
        "distribute.experimental.MultiWorkerMirroredStrategy")
class MultiWorkerMirroredStrategy(Strategy):
    """Mirrored replicas over workers: without a cluster, one worker with one replica."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        super().__init__()
        self._cluster_resolver = cluster_resolver or TFConfigClusterResolver()

    @property
    def cluster_resolver(self):
        return self._cluster_resolver


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
class RunOptions:
    """Options for `Strategy.run`."""

    def __init__(self, experimental_enable_dynamic_batch_size=True,
                 experimental_bucketizing_dynamic_shape=False,
                 experimental_xla_options=None):
        self.experimental_enable_dynamic_batch_size = experimental_enable_dynamic_batch_size
        self.experimental_bucketizing_dynamic_shape = experimental_bucketizing_dynamic_shape
        self.experimental_xla_options = experimental_xla_options


@export("distribute.InputOptions")
class InputOptions:
    """Options for distributing datasets."""

    def __init__(self, experimental_fetch_to_device=None, experimental_replication_mode=None,
                 experimental_place_dataset_on_device=False, experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


@export("distribute.DistributedValues")
class DistributedValues:
    """Values with one component per replica; a single replica's value is the value itself."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values


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
