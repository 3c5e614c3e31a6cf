"""TF 1's ``compat.v1.graph_util`` (freezing a graph's variables into constants, extracting
and cleaning sub-graphs); the expected nodes are those TF 2.21 gives for the same graph
(its variable reads are named ``MatMul/ReadVariableOp`` where eagerflow's are
``ReadVariableOp``)."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


@pytest.fixture
def session_and_graph_def():
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 2], name="x")
        w = tf1.Variable([[1.0], [2.0]], name="w")
        b = tf1.get_variable("b", [1], initializer=tf1.constant_initializer(0.5))
        tf1.Variable(3.0, name="unused")
        y = tf.add(tf.matmul(x, w), b, name="y")
        tf.identity(y * 2.0, name="z")
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        yield sess, sess.graph_def


def _reads(graph_def):
    return [n.name for n in graph_def.node if n.input == ["w"] or n.input == ["b"]]


def test_freezing_makes_constants_of_the_variables_an_output_needs(session_and_graph_def):
    sess, graph_def = session_and_graph_def
    frozen = tf1.graph_util.convert_variables_to_constants(sess, graph_def, ["z"])
    read_w, read_b = _reads(frozen)
    assert [(n.name, n.op) for n in frozen.node] == [
        ("x", "Placeholder"), ("w", "Const"), ("b", "Const"), (read_w, "Identity"),
        ("MatMul", "MatMul"), (read_b, "Identity"), ("y", "AddV2"), ("mul/y", "Const"),
        ("mul", "Mul"), ("z", "Identity")]
    nodes = {n.name: n for n in frozen.node}
    assert sorted(nodes["w"].attr) == ["dtype", "value"] and sorted(nodes[read_w].attr) == ["T"]
    assert tf.make_ndarray(nodes["w"].attr["value"].tensor).tolist() == [[1.0], [2.0]]
    assert tf.make_ndarray(nodes["b"].attr["value"].tensor).tolist() == [0.5]
    with tf1.Graph().as_default() as g2:
        tf.graph_util.import_graph_def(frozen, name="")
        with tf1.Session(graph=g2) as s2:
            got = s2.run("z:0", {"x:0": [[1.0, 1.0], [2.0, 0.0]]})
    assert got.tolist() == [[7.0], [5.0]]


def test_freezing_keeps_variables_left_out(session_and_graph_def):
    sess, graph_def = session_and_graph_def
    for kept in (tf1.graph_util.convert_variables_to_constants(
                     sess, graph_def, ["z"], variable_names_blacklist=["b"]),
                 tf1.graph_util.convert_variables_to_constants(
                     sess, graph_def, ["z", "y"], variable_names_whitelist=["w"])):
        ops = {n.name: n.op for n in kept.node}
        read_w, read_b = _reads(kept)
        assert (ops["w"], ops["b"], ops[read_w], ops[read_b]) == (
            "Const", "VarHandleOp", "Identity", "ReadVariableOp")


def test_extract_sub_graph_and_remove_training_nodes(session_and_graph_def):
    sess, graph_def = session_and_graph_def
    sub = tf1.graph_util.extract_sub_graph(graph_def, ["y"])
    read_w, read_b = _reads(sub)
    assert [n.name for n in sub.node] == ["x", "w", "b", read_w, "MatMul", read_b, "y"]
    with pytest.raises(AssertionError, match="nope is not in graph"):
        tf1.graph_util.extract_sub_graph(graph_def, ["nope"])
    with pytest.raises(TypeError, match="dest_nodes must be an iterable of strings, but got "
                                        "type <class 'str'>."):
        tf1.graph_util.extract_sub_graph(graph_def, "y")
    with pytest.raises(TypeError, match="graph_def must be a graph_pb2.GraphDef proto"):
        tf1.graph_util.extract_sub_graph("y", ["y"])
    frozen = tf1.graph_util.convert_variables_to_constants(sess, graph_def, ["z"])
    cleaned = tf1.graph_util.remove_training_nodes(frozen)
    # (TF 2.21 splices out every unprotected Identity, the output `z` too)
    assert [(n.name, n.op, list(n.input)) for n in cleaned.node] == [
        ("x", "Placeholder", []), ("w", "Const", []), ("b", "Const", []),
        ("MatMul", "MatMul", ["x", "w"]), ("y", "AddV2", ["MatMul", "b"]),
        ("mul/y", "Const", []), ("mul", "Mul", ["y", "mul/y"])]
    protected = tf1.graph_util.remove_training_nodes(frozen, protected_nodes=["z"])
    assert [n.name for n in protected.node][-1] == "z"


def test_shape_of_a_node_and_cpu_pinning():
    g = tf1.Graph()
    with g.as_default():
        tf1.placeholder(tf.float32, [None, 3], name="p")
        tf.constant([1, 2], name="c")
        tf.constant([1.0], name="f")
    assert tf1.graph_util.tensor_shape_from_node_def_name(g, "p").as_list() == [None, 3]
    nodes = {n.name: n for n in g.as_graph_def().node}
    assert tf1.graph_util.must_run_on_cpu(nodes["c"])
    assert not tf1.graph_util.must_run_on_cpu(nodes["f"])
    assert np.asarray(tf1.graph_util.must_run_on_cpu(nodes["p"])) == np.False_
