"""TF 1 optimizers (``tf.compat.v1.train.*Optimizer``) in graphs and eagerly, against
TF's recorded results (`data/make_v1_train_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_train_programs import OPTIMIZERS, eager_run, graph_run, sparse_run

with open(os.path.join(os.path.dirname(__file__), "data", "v1_train.json")) as _f:
    RECORDED = json.load(_f)


def _check(got, want):
    for key in ("losses", "w", "b"):
        np.testing.assert_allclose(got.pop(key), want.pop(key), rtol=2e-6, atol=1e-7)
    for name in want["slot_names"]:
        np.testing.assert_allclose(got["slots"].pop(name), want["slots"].pop(name),
                                   rtol=2e-6, atol=1e-7)
    assert got == want


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_graph_minimize_gives_tfs_values(name):
    _check(graph_run(tf1, name), RECORDED["graph"][name])


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_eager_minimize_of_a_callable_gives_tfs_values(name):
    _check(eager_run(tf1, name), RECORDED["eager"][name])


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_sparse_gradients_update_only_their_rows_as_tfs(name):
    np.testing.assert_allclose(sparse_run(tf1, name), RECORDED["sparse"][name], rtol=2e-6,
                               atol=1e-7)


def test_eager_sparse_momentum_leaves_skipped_rows():
    table = tf.Variable(np.ones((3, 2), np.float32))
    opt = tf1.train.MomentumOptimizer(0.1, 0.9)
    for ids in ([0, 0], [1]):
        opt.minimize(lambda: tf.reduce_sum(tf.nn.embedding_lookup(table, ids)))
    np.testing.assert_allclose(table.numpy(), [[0.8, 0.8], [0.9, 0.9], [1.0, 1.0]])


def test_compute_then_apply_gradients_with_a_var_list():
    g = tf1.Graph()
    with g.as_default():
        w = tf1.Variable(2.0, name="w")
        b = tf1.Variable(1.0, name="b")
        loss = w * w + b
        opt = tf1.train.MomentumOptimizer(0.1, 0.5)
        pairs = opt.compute_gradients(loss, var_list=[w])
        assert [v for _, v in pairs] == [w]
        train = opt.apply_gradients(pairs)
        assert opt.get_slot(b, "momentum") is None
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        sess.run(train)
        sess.run(train)
        # accum 4 then 4*0.5 + 0.1*... : w 2 -> 1.6 -> 1.6 - 0.1 * (2 + 3.2) = 1.08
        np.testing.assert_allclose(sess.run([w, b]), [1.08, 1.0], rtol=1e-6)


def test_eager_loss_must_be_callable():
    w = tf.Variable(1.0)
    with pytest.raises(RuntimeError, match="should be a function"):
        tf1.train.AdamOptimizer().minimize(w * w)


def test_eager_global_step_and_a_float64_variable_with_a_tensor_rate():
    step = tf1.train.get_or_create_global_step()
    assert tf1.train.get_or_create_global_step() is step
    assert tf1.train.get_global_step() is step
    w = tf.Variable(np.array([1.0, 2.0]))
    tf1.train.GradientDescentOptimizer(tf.constant(0.5)).minimize(
        lambda: tf.reduce_sum(w * w), global_step=step)
    assert w.numpy().tolist() == [0.0, 0.0] and int(step.numpy()) == 1


def test_minimize_inside_a_function_matches_eager():
    def run(wrap):
        v = tf.Variable(1.0)
        opt = tf1.train.AdamOptimizer(0.1)
        step = wrap(lambda: opt.minimize(lambda: v * v))
        for _ in range(3):
            step()
        return float(v.numpy())
    assert run(tf.function) == run(lambda f: f)


def test_adam_keeps_float32_beta_powers_for_float64_and_float16_variables():
    # TF's beta powers start from the Python betas as float32 variables; three steps of
    # sum(w ** 2) from [1, 2], recorded from TF 2.21.
    for dtype, want in ((tf.float64, [0.7015873258432849, 1.7006244343970733]),
                        (tf.float16, [0.701171875, 1.701171875])):
        w = tf.Variable([1.0, 2.0], dtype=dtype)
        opt = tf1.train.AdamOptimizer(0.1)
        for _ in range(3):
            opt.minimize(lambda: tf.reduce_sum(w ** 2), var_list=[w])
        powers = [v for v in opt.variables() if "power" in v.name]
        assert [p.dtype for p in powers] == [tf.float32, tf.float32]
        assert w.numpy().tolist() == want


def test_eager_slots_are_numbered_as_in_a_graph():
    # TF 1: Adam's second slot of `w` is w/Adam_1, eagerly too (it was w/Adam twice)
    w = tf.Variable([1.0, 2.0], name="w")
    opt = tf1.train.AdamOptimizer(0.1)
    opt.apply_gradients([(tf.constant([0.5, 0.5]), w)])
    assert [opt.get_slot(w, n).name for n in ("m", "v")] == ["w/Adam:0", "w/Adam_1:0"]
    momentum = tf1.train.MomentumOptimizer(0.1, 0.9)
    momentum.apply_gradients([(tf.constant([0.5, 0.5]), w)])
    assert momentum.get_slot(w, "momentum").name == "w/Momentum:0"


def test_gradient_descent_steps_a_float64_variable_by_float32s_rate():
    # TF 2.21: the rate 0.1 is a float32 tensor cast to float64 (0.10000000149...), in a
    # graph and eagerly, as Momentum's already was
    w = tf.Variable([1.0], dtype=tf.float64)
    tf1.train.GradientDescentOptimizer(0.1).minimize(lambda: tf.reduce_sum(w), var_list=[w])
    assert w.numpy().tolist() == [0.8999999985098839]
    with tf1.Graph().as_default():
        v = tf1.Variable([1.0], dtype=tf.float64)
        step = tf1.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(v))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(step)
            assert sess.run(v).tolist() == [0.8999999985098839]


def test_proximal_optimizers_refuse_a_float64_variable_as_tf_does():
    # TF 2.21: their dense kernels take the float32 rate uncast
    with tf1.Graph().as_default():
        w = tf1.Variable([1.0, 2.0], dtype=tf.float64)
        for opt, message in ((tf1.train.ProximalAdagradOptimizer(0.1),
                              "Input 'grad' of 'ResourceApplyProximalAdagrad' Op has type "
                              "float64 that does not match type float32 of argument 'lr'."),
                             (tf1.train.ProximalGradientDescentOptimizer(0.1),
                              "Input 'delta' of 'ResourceApplyProximalGradientDescent' Op has "
                              "type float64 that does not match type float32 of argument "
                              "'alpha'.")):
            with pytest.raises(TypeError, match=message):
                opt.minimize(tf.reduce_sum(w * w))
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive: 0.0"):
        tf1.train.ProximalAdagradOptimizer(0.1, 0.0)
