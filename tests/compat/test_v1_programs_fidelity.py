"""TF 1.x programs under ``compat.v1``: names, structures and errors as TF 2.21's
``tf.compat.v1`` gives them (checked against the real TF)."""
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


@pytest.fixture
def graph():
    g = tf1.Graph()
    with g.as_default():
        yield g


@pytest.fixture
def v1_behavior():
    tf1.disable_v2_behavior()
    try:
        yield
    finally:
        tf1.enable_v2_behavior()


def test_add_names_its_node_add_and_names_clash_without_case(graph):
    x = tf1.placeholder(tf.float32, [None, 3], name="x")
    a, b = x + x, x + x
    c = tf.add(x, x)
    d = tf.add(x, x, name="add")
    assert [t.name for t in (a, b, c, d)] == ["add:0", "add_1:0", "Add_2:0", "add_3:0"]
    assert c.op.type == "AddV2"
    with tf1.Session(graph=graph) as sess:
        assert sess.run("Add_2:0", {x: [[1.0, 2.0, 3.0]]}).tolist() == [[2.0, 4.0, 6.0]]


def test_v1_while_loop_eagerly_takes_a_bare_body_result_for_one_variable():
    i0 = tf.constant(0)
    bare = tf1.while_loop(lambda i: i < 3, lambda i: i + 1, [i0])
    assert isinstance(bare, tf.Tensor) and int(bare) == 3
    # a one-item result is not unwrapped eagerly: TF returns the body's tuple
    one = tf1.while_loop(lambda i: i < 3, lambda i: (i + 1,), [i0])
    assert isinstance(one, tuple) and int(one[0]) == 3
    pair = tf1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), [i0, i0])
    assert isinstance(pair, tuple) and [int(t) for t in pair] == [3, 3]


def test_v1_control_flow_while_loop_has_the_body_results_structure(v1_behavior):
    i0 = tf.constant(0)
    pair = tf1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), [i0, i0])
    listed = tf1.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s + i], (i0, i0))
    same = tf1.while_loop(lambda i: i < 3, lambda i: i + 1, [i0], return_same_structure=True)
    assert type(pair) is tuple and type(listed) is list and type(same) is list
    with tf1.Session() as sess:
        assert sess.run(pair) == (3, 3)
        assert sess.run(listed) == [3, 3] and sess.run(same) == [3]


def test_v2_control_flow_while_loop_in_a_graph_has_the_loop_variables_structure(graph):
    i0 = tf.constant(0)
    pair = tf1.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + i), [i0, i0])
    assert type(pair) is list


def test_saver_def_is_an_attribute_of_the_saver(graph):
    tf1.get_variable("w", [2], initializer=tf1.zeros_initializer())
    saver = tf1.train.Saver()
    assert saver.saver_def.filename_tensor_name == "save/Const:0"
    assert saver.saver_def.restore_op_name == "save/restore_all"
