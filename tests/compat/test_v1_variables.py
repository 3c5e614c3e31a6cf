"""TF 2 variables and Keras layers made in a TF 1 graph, against TF's recorded results
(`data/make_v1_variables_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_variables_programs import tf2_variables_in_a_graph

with open(os.path.join(os.path.dirname(__file__), "data", "v1_variables.json")) as _f:
    RECORDED = json.load(_f)


def test_tf2_variables_in_a_v1_graph_are_the_graphs():
    got, want = tf2_variables_in_a_graph(tf1, tf), dict(RECORDED["tf2_variables_in_a_graph"])
    for key in ("a", "b"):
        for g, w in zip(got.pop(key), want.pop(key), strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-6)
    assert got == want


def test_variables_are_eager_outside_graphs_and_the_default_graphs_in_graph_mode():
    v = tf.Variable(1.0)
    assert v.numpy() == 1.0
    tf1.disable_eager_execution()
    w = tf.Variable(5.0)
    assert w in tf1.global_variables()
    with tf1.Session() as sess:
        sess.run(w.initializer)
        assert sess.run(w) == 5.0


def test_keras_metric_called_in_a_graph_returns_its_updated_result():
    # A TF 1 graph runs only what a fetch needs: the call's result must wait for the update
    # (without it the fetch read the untouched total: 0.0).
    tf1.disable_eager_execution()
    mean, acc = tf.keras.metrics.Mean(), tf.keras.metrics.BinaryAccuracy()
    x = tf1.placeholder(tf.float32, [None])
    value, accuracy = mean(x), acc([1.0, 0.0, 1.0], x)
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        assert sess.run(value, {x: [1.0, 2.0, 3.0]}) == 2.0
        assert sess.run(value, {x: [6.0]}) == 3.0
        assert sess.run(mean.result()) == 3.0
        assert sess.run(accuracy, {x: [0.9, 0.2, 0.1]}) == pytest.approx(2 / 3)
