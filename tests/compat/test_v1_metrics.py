"""TF 1's streaming metrics at k and at thresholds (``tf.compat.v1.metrics``), run over
three batches in a Session, against TF's recorded results (`data/make_v1_metrics_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_metrics_programs import (
    eager_errors, graph_errors, metric_runs, out_of_range_predictions)

with open(os.path.join(os.path.dirname(__file__), "data", "v1_metrics.json")) as _f:
    RECORDED = json.load(_f)


def _floats(v):
    return np.asarray(v, dtype=object).astype(float)  # ("nan" kept as a string)


@pytest.fixture(scope="module")
def runs():
    tf1.disable_eager_execution()
    try:
        return metric_runs(tf)
    finally:
        tf1.enable_eager_execution()


@pytest.mark.parametrize("name", sorted(RECORDED["runs"]))
def test_metric_values_over_three_batches_are_tfs(runs, name):
    got, want = runs[name], RECORDED["runs"][name]
    assert [tuple(v) for v in got["variables"]] == [tuple(v) for v in want["variables"]]
    assert got["dtypes"] == want["dtypes"] and got["shapes"] == want["shapes"]
    for (update, value), (want_update, want_value) in zip(got["runs"], want["runs"]):
        np.testing.assert_allclose(_floats(update), _floats(want_update), rtol=1e-6,
                                   atol=1e-7, err_msg=name)
        np.testing.assert_allclose(_floats(value), _floats(want_value), rtol=1e-6,
                                   atol=1e-7, err_msg=name)


def test_eager_calls_raise_tfs_errors():
    assert eager_errors(tf) == RECORDED["eager_errors"]


def test_bad_arguments_raise_tfs_errors():
    assert graph_errors(tf) == RECORDED["graph_errors"]


def test_predictions_fed_out_of_range_are_counted_as_tfs_are():
    assert out_of_range_predictions(tf) == RECORDED["out_of_range"]


def test_constant_predictions_out_of_range_fail_as_built():
    with tf1.Graph().as_default():
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"predictions must be in"):
            tf1.metrics.precision_at_thresholds([True, False], tf.constant([0.5, 1.5]), [0.5])


def test_metrics_join_the_collections_asked():
    with tf1.Graph().as_default() as g:
        value, update = tf1.metrics.recall_at_k(
            tf.constant([[1], [0]], tf.int64), tf.constant([[0.1, 0.9], [0.8, 0.2]]), 1,
            metrics_collections=["m"], updates_collections=["u"])
        pv, pu = tf1.metrics.precision_at_thresholds(
            [True], [0.4], [0.5], metrics_collections=["m"], updates_collections=["u"])
        assert g.get_collection("m") == [value, pv] and g.get_collection("u") == [update, pu]
        with tf1.Session() as sess:
            sess.run(tf1.local_variables_initializer())
            assert sess.run(update) == 1.0 and sess.run(pu).tolist() == [0.0]
