"""TF 1's partitioned variables: the partitioners, `get_variable(partitioner=...)` giving a
`PartitionedVariable` of shards, `create_partitioned_variables`, against TF's recorded
results (`data/make_v1_partition_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_partition_programs import partitioned_graph, partitioners

with open(os.path.join(os.path.dirname(__file__), "data", "v1_partition.json")) as _f:
    RECORDED = json.load(_f)


def _plain(value):
    return json.loads(json.dumps(value))  # (tuples as lists, as recorded)


def test_partitioners_give_tfs_shards_and_errors():
    assert _plain(partitioners(tf)) == RECORDED["partitioners"]


@pytest.fixture(scope="module")
def graph_results():
    return _plain(partitioned_graph(tf))


@pytest.mark.parametrize("key", sorted(RECORDED["graph"]))
def test_partitioned_variables_in_a_graph_are_tfs(graph_results, key):
    assert graph_results[key] == RECORDED["graph"][key]


def test_a_partitioned_variable_trains_eagerly_read_through_a_function():
    with tf1.variable_scope("eager", partitioner=tf1.fixed_size_partitioner(2)):
        w = tf1.get_variable("w", initializer=tf.constant([[1.0], [2.0], [3.0]]))
    assert [v.name for v in w] == ["eager/w/part_0:0", "eager/w/part_1:0"]
    assert tf.convert_to_tensor(w).numpy().tolist() == [[1.0], [2.0], [3.0]]
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.matmul(tf.ones([1, 3]), w))
    grads = tape.gradient(loss, list(w))
    assert [g.numpy().tolist() for g in grads] == [[[1.0], [1.0]], [[1.0]]]


def test_the_scope_partitioner_passes_to_nested_scopes_and_can_be_set():
    with tf1.Graph().as_default():
        with tf1.variable_scope("outer", partitioner=tf1.fixed_size_partitioner(2)) as outer:
            with tf1.variable_scope("inner"):
                v = tf1.get_variable("v", [4, 1])
            outer.set_partitioner(None)
            plain = tf1.get_variable("plain", [4, 1])
        assert [x.name for x in v] == ["outer/inner/v/part_0:0", "outer/inner/v/part_1:0"]
        assert plain.name == "outer/plain:0"
