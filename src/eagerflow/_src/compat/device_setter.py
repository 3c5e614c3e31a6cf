"""TF 1's ``train.replica_device_setter``: a device function for between-graph
replication, placing variables on the parameter-server tasks in turn and every other
operation on the worker.

>>> with tf.compat.v1.Graph().as_default():
...     with tf.compat.v1.device(tf.compat.v1.train.replica_device_setter(ps_tasks=2)):
...         a, b = tf.compat.v1.Variable(1.0), tf.compat.v1.Variable(2.0)
...         c = a + b
...     a.device, b.device, c.device
('/job:ps/task:0', '/job:ps/task:1', '/job:worker')

(The devices are those TF records in the graph; run here, every operation runs on the
local machine.)
"""
from eagerflow._src.backend.api_export import export
from eagerflow._src.backend.devices import DeviceSpec
from eagerflow._src.distribute.cluster import ClusterSpec

# The operations holding state that live on the parameter servers (TF's list).
STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable",
                   "MutableHashTableV2", "MutableHashTableOfTensors",
                   "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp",
                   "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp",
                   "ResourceConditionalAccumulator", "DecisionTreeResource")
_FIELDS = DeviceSpec.__slots__


def _merged(spec, current):
    """`spec` with the fields `current` sets taken from `current`."""
    return DeviceSpec(*[getattr(current, f) if getattr(current, f) is not None
                        else getattr(spec, f) for f in _FIELDS])


class _RoundRobin:
    """The parameter-server tasks in turn: 0, 1, ..., n - 1, 0, ..."""

    def __init__(self, num_tasks):
        self._num_tasks, self._next = num_tasks, 0

    def __call__(self, unused_op):
        task = self._next
        self._next = (self._next + 1) % self._num_tasks
        return task


class _ReplicaDeviceChooser:
    def __init__(self, ps_tasks, ps_device, worker_device, merge_devices, ps_ops, ps_strategy):
        self._ps_tasks, self._ps_device, self._worker_device = ps_tasks, ps_device, worker_device
        self._merge_devices, self._ps_ops, self._ps_strategy = merge_devices, ps_ops, ps_strategy

    def device_function(self, op):
        """The device of `op`: a parameter server's for its state operations, the
        worker's for the others, the fields `op.device` already sets kept (when merging)."""
        if not self._merge_devices and op.device:
            return op.device
        current = DeviceSpec.from_string(op.device or "")
        if self._ps_tasks and self._ps_device and op.type in self._ps_ops:
            ps = DeviceSpec.from_string(self._ps_device)
            if ps.job and (not current.job or current.job == ps.job):
                ps = DeviceSpec(ps.job, ps.replica, self._ps_strategy(op), ps.device_type,
                                ps.device_index)
            return _merged(ps, current).to_string()
        return _merged(DeviceSpec.from_string(self._worker_device or ""), current).to_string()


@export("compat.v1.train.replica_device_setter")
def replica_device_setter(ps_tasks=0, ps_device="/job:ps", worker_device="/job:worker",
                          merge_devices=True, cluster=None, ps_ops=None, ps_strategy=None):
    """A device function for ``tf.compat.v1.device``: variables (the operation types of
    `ps_ops`) go to the tasks of the `ps_device` job in turn (or as `ps_strategy(op)`
    says), the other operations to `worker_device`. The number of tasks is `ps_tasks`, or
    that of the ps job of `cluster` (a dict or `ClusterSpec`); None when there are none.
    """
    if cluster is not None:
        if not isinstance(cluster, ClusterSpec):
            if not isinstance(cluster, dict):
                raise TypeError("`cluster` must be a dictionary mapping one or more job names "
                                "to lists of network addresses, or a `ClusterDef` protocol "
                                "buffer")
            cluster = ClusterSpec(cluster)
        jobs = cluster.as_dict()
        ps_job = DeviceSpec.from_string(ps_device).job
        if jobs.get(ps_job) is None:
            return None
        ps_tasks = len(jobs[ps_job])
    if ps_tasks == 0:
        return None
    if ps_ops is None:
        ps_ops = list(STANDARD_PS_OPS)
    if ps_strategy is None:
        ps_strategy = _RoundRobin(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    return _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices, ps_ops,
                                 ps_strategy).device_function
