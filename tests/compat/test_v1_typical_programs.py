"""TF 1.x-style programs as old tutorials write them, under ``compat.v1`` graph mode:
each checks what TF 2.21's ``tf.compat.v1`` gives for the same program."""
import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1


@pytest.fixture
def graph():
    g = tf1.Graph()
    with g.as_default():
        yield g


def test_batch_normalization_with_a_training_placeholder_trains(graph):
    x = tf1.placeholder(tf.float32, [None, 4, 4, 2])
    training = tf1.placeholder_with_default(False, [], name="training")
    h = tf1.layers.batch_normalization(x, training=training)
    loss = tf.reduce_mean(tf1.layers.dense(tf1.layers.flatten(h), 1))
    with tf1.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
        train = tf1.train.AdamOptimizer(0.01).minimize(loss)
    xs = np.random.RandomState(0).rand(3, 4, 4, 2).astype(np.float32)
    with tf1.Session(graph=graph) as sess:
        sess.run(tf1.global_variables_initializer())
        before = sess.run(loss, {x: xs})
        for _ in range(3):
            sess.run(train, {x: xs, training: True})
        assert sess.run(loss, {x: xs}) != before


def test_print_writes_tf1s_summaries_when_computed(graph, capsys):
    a = tf.constant([[1, 2, 3], [4, 5, 6]])
    b = tf.constant([1.5, 2.0, 3.25, 4.0])
    p = tf1.Print(a, [a, b, tf.constant("str"), tf.constant(True), tf.zeros([0])], "msg: ")
    once = tf1.Print(b, [b], summarize=10, first_n=1)
    assert p.name == "Print:0" and p.op.type == "Print" and p.shape == (2, 3)
    assert capsys.readouterr().err == ""  # (only when run)
    with tf1.Session(graph=graph) as sess:
        assert sess.run(p).tolist() == [[1, 2, 3], [4, 5, 6]]
        for _ in range(2):
            sess.run(once * 2.0)
        grad = sess.run(tf1.gradients(tf.reduce_sum(once * 3.0), b)[0])
    assert capsys.readouterr().err == ("msg: [[1 2 3]...][1.5 2 3.25...][str][1][]\n"
                                       "[1.5 2 3.25 4]\n")
    assert grad.tolist() == [3.0] * 4


def test_print_eagerly_prints_at_once(capsys):
    out = tf1.Print(tf.constant([1, 2]), [tf.constant([[0.1], [2.0]])], message="v=",
                    summarize=-1)
    assert out.numpy().tolist() == [1, 2]
    assert capsys.readouterr().err == "v=[[0.1][2]]\n"
