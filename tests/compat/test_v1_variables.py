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


@pytest.fixture(autouse=True)
def eager_after():
    yield
    tf1.enable_eager_execution()
    tf1.reset_default_graph()


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
