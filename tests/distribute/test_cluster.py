"""Cluster descriptions: tf.train.ClusterSpec and tf.distribute.cluster_resolver."""
import collections
import json

import pytest

import eagerflow as tf


def test_cluster_spec():
    c = tf.train.ClusterSpec({"ps": ["a:1"], "worker": {0: "b:2"}})
    assert repr(c) == "ClusterSpec({'ps': ['a:1'], 'worker': ['b:2']})"
    assert c.as_dict() == {"ps": ["a:1"], "worker": ["b:2"]}
    assert c.jobs == ["ps", "worker"]
    assert c.task_address("worker", 0) == "b:2"
    assert not tf.train.ClusterSpec({})
    with pytest.raises(ValueError, match="No such job in cluster: 'x'"):
        c.num_tasks("x")


def test_tf_config_resolver(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    r = tf.distribute.MultiWorkerMirroredStrategy().cluster_resolver
    assert isinstance(r, tf.distribute.cluster_resolver.TFConfigClusterResolver)
    assert (r.task_type, r.task_id, r.rpc_layer, r.master()) == (None, None, None, "")
    assert repr(r.cluster_spec()) == "ClusterSpec({})"
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"worker": ["localhost:12345", "localhost:23456"]},
        "task": {"type": "worker", "index": 1}}))
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    assert (r.task_type, r.task_id, r.master()) == ("worker", 1, "localhost:23456")
    assert r.cluster_spec().num_tasks("worker") == 2
    assert r.num_accelerators() == collections.defaultdict(int)


def test_simple_resolver_and_strategy_flags():
    c = tf.train.ClusterSpec({"worker": ["b:2"]})
    r = tf.distribute.cluster_resolver.SimpleClusterResolver(c, task_type="worker", task_id=0)
    assert (r.task_type, r.task_id, r.master(), r.cluster_spec()) == ("worker", 0, "", c)
    assert tf.distribute.MirroredStrategy().cluster_resolver is None
    s = tf.distribute.MultiWorkerMirroredStrategy()
    assert s.num_replicas_in_sync == 1
    assert s.extended.should_checkpoint and s.extended.should_save_summary


def test_multi_worker_strategy_is_named_as_tf_names_it(caplog):
    # TF's class behind tf.distribute.MultiWorkerMirroredStrategy is CollectiveAllReduceStrategy,
    # and its eager `run` warns as MirroredStrategy's does.
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    assert type(strategy).__name__ == "CollectiveAllReduceStrategy"
    assert isinstance(strategy, tf.distribute.experimental.MultiWorkerMirroredStrategy)
    caplog.set_level("WARNING")
    assert float(strategy.run(lambda: tf.constant(2.0))) == 2.0
    assert any(r.getMessage().startswith("Using CollectiveAllReduceStrategy eagerly has "
                                         "significant overhead") for r in caplog.records)
