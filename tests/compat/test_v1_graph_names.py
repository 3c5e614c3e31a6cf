"""Names of the nodes TF 1 programs fetch from a graph they built, as TF 2.21 gives them
(checked against the real TF)."""
import numpy as np

import eagerflow as tf
import eagerflow.compat.v1 as tf1


def _nodes(graph):
    return [(n.name, n.op) for n in graph.as_graph_def().node]


def test_a_value_converted_under_a_name_is_a_constant_of_that_name():
    g = tf.Graph()
    with g.as_default():
        c = tf.convert_to_tensor(3.0, name="c")
        d = tf.convert_to_tensor([1, 2], name="d")
        again = tf.convert_to_tensor(4.0, name="c")
        with tf.name_scope("s"):
            hinted = tf.convert_to_tensor(1, dtype_hint=tf.float32, name="h")
        plain = tf.convert_to_tensor(5.0)
        x = tf1.placeholder(tf.float32, [], name="x")
        same = tf.convert_to_tensor(x, name="other")  # (a tensor stays as it is)
    assert [t.name for t in (c, d, again, hinted, plain, same)] == [
        "c:0", "d:0", "c_1:0", "s/h:0", "Const:0", "x:0"]
    assert g.get_tensor_by_name("c:0") is not None and hinted.dtype == tf.float32
    with tf1.Session(graph=g) as sess:
        assert sess.run("c:0") == 3.0 and sess.run(d).tolist() == [1, 2]


def test_a_resource_variable_asks_whether_it_is_initialized_as_tf_does():
    g = tf.Graph()
    with g.as_default():
        with tf1.variable_scope("s"):
            w = tf1.get_variable("w", [2, 3], initializer=tf1.zeros_initializer())
        v = tf.Variable(1.0, name="v")
        check = v.is_initialized()
        ref = tf1.Variable(2.0, use_resource=False, name="r")
    assert _nodes(g)[:5] == [
        ("s/w/Initializer/zeros", "Const"), ("s/w", "VarHandleOp"),
        ("s/w/IsInitialized/VarIsInitializedOp", "VarIsInitializedOp"),
        ("s/w/Assign", "AssignVariableOp"), ("s/w/Read/ReadVariableOp", "ReadVariableOp")]
    assert "r/IsInitialized/VarIsInitializedOp" not in dict(_nodes(g))  # (TF 1's ref variable)
    assert check.op.type == "VarIsInitializedOp" and check.name == "VarIsInitializedOp:0"
    with tf1.Session(graph=g) as sess:
        assert sess.run([check, "s/w/IsInitialized/VarIsInitializedOp:0"]) == [False, False]
        sess.run([w.initializer, v.initializer, ref.initializer])
        assert sess.run([check, "s/w/IsInitialized/VarIsInitializedOp:0"]) == [True, True]


def test_zeros_and_ones_of_a_small_shape_given_in_python_are_constants_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        small = tf.zeros([2, 3])
        by_int = tf.ones(4, tf.int32, name="o")  # (a bare int: TF's Fill)
        big = tf.zeros([10, 100])
        flags = tf.zeros((2, 2), tf.bool)
        x = tf1.placeholder(tf.float32, [None, 3])
        like = tf.ones(tf.shape(x))
    assert [(t.name, t.op.type) for t in (small, by_int, big, flags, like)] == [
        ("zeros:0", "Const"), ("o:0", "Fill"), ("zeros_1:0", "Fill"), ("zeros_2:0", "Const"),
        ("ones:0", "Fill")]
    with tf1.Session(graph=g) as sess:
        assert sess.run(small).tolist() == [[0.0] * 3] * 2
        assert sess.run(flags).tolist() == [[False, False]] * 2

    @tf.function
    def f():
        return tf.zeros([2]), tf.ones([2, 2], name="k")
    graph = f.get_concrete_function().graph
    assert [(op.name, op.type) for op in graph.get_operations()][:2] == [
        ("zeros", "Const"), ("k", "Const")]


def test_dropout_builds_tfs_ops_in_its_scope_and_draws_tfs_mask():
    g = tf.Graph()
    with g.as_default():
        tf1.set_random_seed(3)
        x = tf.constant(np.arange(1, 13, dtype=np.float32).reshape(3, 4))
        dropped = tf.nn.dropout(x, 0.5)
        special = tf.constant([np.inf, np.nan, 1.0, -np.inf] * 4)
        kept_special = tf.nn.dropout(special, 0.5, seed=5)
        p = tf1.placeholder(tf.float32, [None, 3], name="p")
        keep = tf1.placeholder(tf.float32, name="keep")
        by_tensor = tf1.nn.dropout(p, keep_prob=keep)
    names = dict(_nodes(g))
    assert dropped.name == "dropout/SelectV2:0" and by_tensor.name == "dropout_2/SelectV2:0"
    assert [names[f"dropout/{n}"] for n in ("Const", "Mul", "random_uniform/RandomUniform",
                                             "GreaterEqual/y", "GreaterEqual", "Const_1")] == [
        "Const", "Mul", "RandomUniform", "Const", "GreaterEqual", "Const"]
    assert [n.op.name for n in by_tensor.op.inputs] == ["dropout_2/GreaterEqual",
                                                         "dropout_2/RealDiv", "dropout_2/Const_1"]
    assert [t.op.name for t in g.get_operation_by_name("dropout_2/RealDiv").inputs] == [
        "p", "dropout_2/Sub"]
    with tf1.Session(graph=g) as sess:
        # (TF 2.21's values: the same ops draw with the same seeds)
        assert sess.run(dropped).tolist() == [[0, 4, 6, 8], [0, 0, 14, 0], [0, 0, 22, 24]]
        got = sess.run(kept_special)
        np.testing.assert_array_equal(got, [0, np.nan, 0, -np.inf, np.inf, np.nan, 2, -np.inf,
                                            np.inf, 0, 2, 0, 0, 0, 2, 0])
        out = sess.run(by_tensor, {p: [[1.0, 2.0, 3.0]] * 4, keep: 1.0})
        assert out.tolist() == [[1.0, 2.0, 3.0]] * 4


def test_batch_normalization_averages_its_moving_statistics_in_tfs_update_ops():
    xs = np.random.RandomState(0).rand(16, 4, 4, 3).astype(np.float32) * 3 + 1
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 4, 4, 3])
        tf1.layers.batch_normalization(x, training=True, momentum=0.9)  # (fused)
        updates = tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)
        variance = [v for v in tf1.global_variables() if "moving_variance" in v.name][0]
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(updates, {x: xs})
            got = sess.run(variance)
    assert [op.name for op in updates] == [
        "batch_normalization/AssignMovingAvg/AssignSubVariableOp",
        "batch_normalization/AssignMovingAvg_1/AssignSubVariableOp"]
    # TF 2.21's bits: the kernel's batch variance averaged in (not blended in the kernel)
    assert got.tobytes().hex() == "94e47a3f64617b3fe6fa773f"


def test_a_variable_made_in_a_plain_graph_belongs_to_it_and_is_named_uniquely():
    # (in a fresh interpreter: before anything touches ``tf.compat.v1``)
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    code = ("import eagerflow as tf\n"
            "with tf.Graph().as_default() as g:\n"
            "    vs = [tf.Variable(1., name='g'), tf.Variable(2., name='g'), tf.Variable(3.),\n"
            "          tf.Variable(4.)]\n"
            "    print(*[v.name for v in vs], len(g.get_operations()) > 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["g:0", "g_1:0", "Variable:0", "Variable_1:0", "True"]
