"""TF 1's ``train.replica_device_setter`` and device functions in ``compat.v1.device``:
the devices recorded in the graph are those TF 2.21 records (its values inline)."""
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def test_no_parameter_servers_gives_none():
    assert tf1.train.replica_device_setter() is None
    assert tf1.train.replica_device_setter(cluster={"worker": ["a:1"]}) is None


def test_variables_go_to_the_ps_tasks_in_turn_and_other_ops_to_the_worker():
    g = tf1.Graph()
    with g.as_default():
        with tf1.device(tf1.train.replica_device_setter(ps_tasks=2)):
            a = tf1.Variable(1.0, name="a")
            b = tf1.get_variable("b", [2])
            c = tf1.Variable(2.0, name="c")
            y = a * c + 1.0
            with tf.device("/cpu:0"):
                z = y * 2.0
            with tf.device("/job:foo"):
                q = y + 1.0
        init = tf1.global_variables_initializer()
    assert [a.device, b.device, c.device, y.device, z.device, q.device] == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:0", "/job:worker",
        "/job:worker/device:CPU:0", "/job:foo"]
    assert a.op.device == "/job:ps/task:0" and y.op.device == "/job:worker"
    # (TF's local session cannot place /job:ps; here every op runs on this machine)
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        assert sess.run(z) == 6.0


def test_cluster_strategy_and_merging_options():
    with tf1.Graph().as_default():
        cluster = {"ps": ["ps0:2222", "ps1:2222"], "worker": ["w0:2222"]}
        with tf1.device(tf1.train.replica_device_setter(
                cluster=cluster, worker_device="/job:worker/task:0")):
            v, w = tf1.Variable(1.0, name="v"), tf1.Variable(1.0, name="w")
            s = v + w
        assert [v.device, w.device, s.device] == [
            "/job:ps/task:0", "/job:ps/task:1", "/job:worker/task:0"]
        with tf1.device(tf1.train.replica_device_setter(
                cluster=tf1.train.ClusterSpec({"ps": ["p:1"]}))):
            assert tf1.Variable(1.0).device == "/job:ps/task:0"
        with tf1.device(tf1.train.replica_device_setter(
                ps_tasks=3, ps_device="/job:ps/device:CPU:0", merge_devices=False,
                ps_ops=["VarHandleOp", "AddV2"])):
            k = tf1.Variable(1.0, name="k")
            m, m2 = k + k, k * k
        assert [k.device, m.device, m2.device] == [
            "/job:ps/task:0/device:CPU:0", "/job:ps/task:1/device:CPU:0", "/job:worker"]
        with tf1.device(tf1.train.replica_device_setter(ps_tasks=2,
                                                        ps_strategy=lambda op: 1)):
            assert tf1.Variable(1.0, name="k2").device == "/job:ps/task:1"


def test_a_plain_device_function_places_each_op():
    with tf1.Graph().as_default() as g:
        with g.device(lambda op: "/cpu:0" if op.type == "MatMul" else None):
            x = tf.matmul(tf.ones([1, 1]), tf.ones([1, 1]))
            y = x + 1.0
        assert (x.device, y.device) == ("/device:CPU:0", "")


def test_device_setter_errors_are_tfs():
    with pytest.raises(TypeError, match="`cluster` must be a dictionary mapping one or more "
                                        "job names to lists of network addresses"):
        tf1.train.replica_device_setter(cluster=42)
    with pytest.raises(TypeError, match="ps_strategy must be callable"):
        tf1.train.replica_device_setter(ps_tasks=2, ps_strategy=3)
    with pytest.raises(RuntimeError, match=r"^tf.device does not support functions.$"):
        tf.device(lambda op: "/cpu:0")
    with pytest.raises(RuntimeError, match="tf.device does not support functions when eager "
                                           "execution is enabled."):
        tf1.device(lambda op: "/cpu:0")
