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
