"""TF 1's losses (``tf.compat.v1.losses``) eagerly and in graphs, against TF's recorded
results (`data/make_v1_losses_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_loss_programs import eager_losses, graph_losses

with open(os.path.join(os.path.dirname(__file__), "data", "v1_losses.json")) as _f:
    RECORDED = json.load(_f)


def _close(got, want):
    assert sorted(got) == sorted(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-6, atol=1e-7, err_msg=name)


def test_eager_losses_give_tfs_values():
    _close(eager_losses(tf1), RECORDED["eager"])


def test_graph_losses_give_tfs_values_names_and_collection():
    got, want = graph_losses(tf1), RECORDED["graph"]
    _close(got.pop("values"), want.pop("values"))
    np.testing.assert_allclose(got.pop("total"), want.pop("total"), rtol=1e-6)
    assert got == want


def test_shape_and_reduction_errors_are_tfs():
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(1, 2\) are incompatible"):
        tf1.losses.mean_squared_error([[1.0, 2.0]], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Invalid Reduction Key bad"):
        tf1.losses.compute_weighted_loss([1.0, 2.0], reduction="bad")
    with pytest.raises(ValueError, match=r"weights can not be broadcast to values. "
                                         r"values.rank=2. weights.rank=1."):
        tf1.losses.mean_squared_error([[1.0, 2.0]], [[1.0, 2.0]], weights=[1.0, 2.0])


def test_a_loss_trains_in_a_graph():
    g = tf1.Graph()
    with g.as_default():
        w = tf1.Variable([[0.0], [0.0]], name="w")
        x = tf1.placeholder(tf.float32, [None, 2])
        y = tf1.placeholder(tf.float32, [None, 1])
        loss = tf1.losses.mean_squared_error(y, tf.matmul(x, w))
        train = tf1.train.AdamOptimizer(0.1).minimize(tf1.losses.get_total_loss())
        init = tf1.global_variables_initializer()
    feed = {x: [[1.0, 0.0], [0.0, 1.0]], y: [[1.0], [-1.0]]}
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        first = sess.run(loss, feed)
        for _ in range(20):
            sess.run(train, feed)
        assert first == 1.0 and sess.run(loss, feed) < 0.1
