"""TF 1's learning-rate decay functions (``tf.compat.v1.train.*_decay``) in graphs and
eagerly, against TF's recorded results (`data/make_v1_decay_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_decay_programs import DECAYS, eager_run, graph_run

with open(os.path.join(os.path.dirname(__file__), "data", "v1_decay.json")) as _f:
    RECORDED = json.load(_f)
# (names TF gives the inner op a cond or case ends in)
_INNER_NAMES = ("cosine", "piecewise_constant", "piecewise_constant_decay")


def _check_values(got, want):
    assert sorted(got) == sorted(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, err_msg=name)


def test_graph_rates_follow_the_global_step_as_tfs():
    got, want = graph_run(tf1), json.loads(json.dumps(RECORDED["graph"]))
    _check_values(got.pop("values"), want.pop("values"))
    for name in _INNER_NAMES:
        assert got["names"].pop(name)[1] == want["names"].pop(name)[1]
    assert got == want


def test_eager_rates_are_callables_reading_the_step():
    got, want = eager_run(tf1), json.loads(json.dumps(RECORDED["eager"]))
    _check_values(got.pop("values"), want.pop("values"))
    np.testing.assert_allclose(got.pop("float_step"), want.pop("float_step"), rtol=1e-6)
    assert got == want


@pytest.mark.parametrize("name", sorted(DECAYS))
def test_a_decayed_rate_drives_a_v1_optimizer(name):
    g = tf1.Graph()
    with g.as_default():
        step = tf1.train.get_or_create_global_step()
        w = tf1.Variable(1.0)
        rate = DECAYS[name](tf1, step)
        train = tf1.train.GradientDescentOptimizer(rate).minimize(w * w, global_step=step)
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        rates = []
        for _ in range(3):
            rates.append(sess.run(rate))
            sess.run(train)
        assert sess.run(step) == 3
    want = RECORDED["graph"]["values"][name]
    np.testing.assert_allclose(rates, [want[0], want[1], graph_rate(name, 2)], rtol=1e-5)


def graph_rate(name, s):
    return float(DECAYS[name](tf1, tf.constant(s, tf.int64))())


def test_noisy_linear_cosine_decay_stays_near_linear_cosine():
    step = tf.Variable(5, dtype=tf.int64)
    tf.random.set_seed(3)
    noisy = tf1.train.noisy_linear_cosine_decay(0.1, step, 20, initial_variance=1e-6)
    plain = tf1.train.linear_cosine_decay(0.1, step, 20)
    assert noisy().dtype == tf.float32
    np.testing.assert_allclose(float(noisy()), float(plain()), atol=1e-3)
    assert float(noisy()) != float(plain())


def test_a_tensor_learning_rate_and_float64():
    rate = tf1.train.exponential_decay(tf.constant(1.0, tf.float64), tf.constant(3), 2, 0.5)
    assert rate().dtype == tf.float64
    np.testing.assert_allclose(float(rate()), 0.5 ** 1.5)


def test_piecewise_constant_refuses_boundaries_of_another_dtype_than_the_step():
    with tf.Graph().as_default():
        step = tf1.placeholder(tf.int64, [])
        # (a float boundary was cut to the integer step's dtype: 2.5 became 2)
        with pytest.raises(ValueError, match=r"^Boundaries \(<dtype: 'float32'>\) must have the "
                                             r"same dtype as x \(<dtype: 'int64'>\)\.$"):
            tf1.train.piecewise_constant(step, [2.5, 5.0], [1.0, 0.5, 0.1])
        with pytest.raises(ValueError, match=r"^Values must have elements all with the same "
                                             r"dtype \(<dtype: 'float32'> vs <dtype: 'int32'>\)"):
            tf1.train.piecewise_constant(step, [2, 5], [1.0, 0.5, 1])
        rate = tf1.train.piecewise_constant(step, [2, 5], [1.0, 0.5, 0.1])  # int32: promoted
        with tf1.Session() as sess:
            assert [float(sess.run(rate, {step: s})) for s in (2, 3, 6)] == [1.0, 0.5,
                                                                               pytest.approx(0.1)]
