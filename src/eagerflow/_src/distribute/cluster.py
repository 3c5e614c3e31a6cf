"""Cluster descriptions (``tf.train.ClusterSpec``, ``tf.distribute.cluster_resolver``).

eagerflow runs one worker; programs written for a cluster still read its
description, e.g. the chief test of the multi-worker tutorial.

>>> import eagerflow as tf
>>> tf.train.ClusterSpec({"worker": ["localhost:12345", "localhost:23456"]}).num_tasks("worker")
2
"""
import collections
import json
import os

from eagerflow._src.backend.api_export import export


@export("train.ClusterSpec", "compat.v1.train.ClusterSpec")
class ClusterSpec:
    """The jobs of a cluster, each a list (or {index: address} dict) of task addresses."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        self._jobs = {}
        for job, tasks in dict(cluster or {}).items():
            if isinstance(tasks, dict):
                self._jobs[job] = dict(tasks)
            else:
                self._jobs[job] = dict(enumerate(tasks))

    def __bool__(self):
        return bool(self._jobs)

    def __eq__(self, other):
        return isinstance(other, ClusterSpec) and self.as_dict() == other.as_dict()

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return f"ClusterSpec({self.as_dict()!r})"

    @property
    def jobs(self):
        return list(self._jobs)

    def as_dict(self):
        out = {}
        for job, tasks in self._jobs.items():
            if sorted(tasks) == list(range(len(tasks))):
                out[job] = [tasks[i] for i in range(len(tasks))]
            else:
                out[job] = dict(tasks)
        return out

    def _job(self, job_name):
        if job_name not in self._jobs:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return self._jobs[job_name]

    def num_tasks(self, job_name):
        return len(self._job(job_name))

    def task_indices(self, job_name):
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        tasks = self._job(job_name)
        if task_index not in tasks:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}")
        return tasks[task_index]

    def job_tasks(self, job_name):
        tasks = self._job(job_name)
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []


@export("distribute.cluster_resolver.ClusterResolver")
class ClusterResolver:
    """Describes the cluster a program runs in."""

    task_type = None
    task_id = None
    rpc_layer = None

    def cluster_spec(self):
        raise NotImplementedError("cluster_spec")

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        raise NotImplementedError("master")

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return collections.defaultdict(int)

    @property
    def environment(self):
        return ""


@export("distribute.cluster_resolver.SimpleClusterResolver")
class SimpleClusterResolver(ClusterResolver):
    """A resolver for a given `ClusterSpec`."""

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None,
                 environment="", num_accelerators=None, rpc_layer=None):
        self._cluster_spec = ClusterSpec(cluster_spec)
        self._master = master
        self.task_type = task_type
        self.task_id = task_id
        self._environment = environment
        self._num_accelerators = num_accelerators or {}
        self.rpc_layer = rpc_layer

    def cluster_spec(self):
        return self._cluster_spec

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        if task_type is not None and task_id is not None:
            return self._cluster_spec.task_address(task_type, task_id)
        return self._master

    @property
    def environment(self):
        return self._environment

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return collections.defaultdict(int, self._num_accelerators)


@export("distribute.cluster_resolver.TFConfigClusterResolver")
class TFConfigClusterResolver(ClusterResolver):
    """The cluster that the ``TF_CONFIG`` environment variable (JSON) describes."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type = task_type
        self._task_id = task_id
        self._rpc_layer = rpc_layer
        self._environment = environment

    @staticmethod
    def _config():
        return json.loads(os.environ.get("TF_CONFIG", "{}") or "{}")

    @property
    def task_type(self):
        if self._task_type is not None:
            return self._task_type
        task_type = self._config().get("task", {}).get("type")
        return str(task_type) if task_type is not None else None

    @task_type.setter
    def task_type(self, value):
        self._task_type = value

    @property
    def task_id(self):
        if self._task_id is not None:
            return self._task_id
        index = self._config().get("task", {}).get("index")
        return int(index) if index is not None else None

    @task_id.setter
    def task_id(self, value):
        self._task_id = value

    @property
    def rpc_layer(self):
        return self._rpc_layer if self._rpc_layer is not None else self._config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, value):
        self._rpc_layer = value

    @property
    def environment(self):
        return self._environment if self._environment is not None else \
            self._config().get("environment", "")

    def cluster_spec(self):
        return ClusterSpec(self._config().get("cluster", {}))

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        if task_type is None or task_id is None:
            return ""
        address = self.cluster_spec().task_address(task_type, task_id)
        rpc = rpc_layer or self.rpc_layer
        return f"{rpc}://{address}" if rpc else address
