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
    # eagerly the kernel refuses it as it runs
    w = tf.Variable([1.0, 2.0], dtype=tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute ResourceApplyProximalAdagrad as input "
                             r"#5\(zero-based\) was expected to be a float tensor but is a "
                             r"double tensor"):
        tf1.train.ProximalAdagradOptimizer(0.1).minimize(lambda: tf.reduce_sum(w * w))


# TF 2.21's AdagradDAOptimizer(0.3, step, 0.2, l1, l2) after each of three eager steps of a
# dense variable (`w`) and an embedding through `embedding_lookup` (sparse gradients, an id
# repeated): (w, embedding) per step, by (dtype, l1, l2).
ADAGRAD_DA_STEPS = {('float32', 0.0, 0.0): [([-0.2967212200164795, -0.2997919023036957, -0.25766927003860474],
                              [[-0.0, -0.24913643300533295],
                               [0.6666666865348816, 1.0],
                               [-0.29895085096359253, -0.2993272840976715],
                               [2.0, 2.3333332538604736]]),
                             ([-0.3216284215450287, -0.30645063519477844, -0.3179333508014679],
                              [[-0.0, -0.05346747860312462],
                               [0.6666666865348816, 1.0],
                               [-0.22634141147136688, -0.24171899259090424],
                               [2.0, 2.3333332538604736]]),
                             ([-0.3503914773464203, -0.31340116262435913, -0.3973495066165924],
                              [[-0.0, -0.01939028687775135],
                               [0.6666666865348816, 1.0],
                               [-0.17445246875286102, -0.1969994306564331],
                               [2.0, 2.3333332538604736]])],
     ('float32', 0.05, 0.2): [([-0.2861160933971405, -0.29705849289894104, -0.22502915561199188],
                               [[-0.0, -0.21442487835884094],
                                [0.6666666865348816, 1.0],
                                [-0.29286494851112366, -0.29443830251693726],
                                [2.0, 2.3333332538604736]]),
                              ([-0.298341304063797, -0.3008280396461487, -0.23906144499778748],
                               [[-0.0, -0.04013536497950554],
                                [0.6666666865348816, 1.0],
                                [-0.21764874458312988, -0.23414263129234314],
                                [2.0, 2.3333332538604736]]),
                              ([-0.3118562698364258, -0.30472126603126526, -0.2558369040489197],
                               [[-0.0, -0.002069957321509719],
                                [0.6666666865348816, 1.0],
                                [-0.16453681886196136, -0.18789361417293549],
                                [2.0, 2.3333332538604736]])],
     ('float64', 0.05, 0.2): [([-0.2861160898065545, -0.2970585002241928, -0.22502915083451494],
                               [[-0.0, -0.21442489791166827],
                                [0.6666666666666666, 1.0],
                                [-0.2928649806226199, -0.2944383241315194],
                                [2.0, 2.3333333333333335]]),
                              ([-0.29834127728497484, -0.3008280325557229, -0.23906144617303904],
                               [[-0.0, -0.04013534384649226],
                                [0.6666666666666666, 1.0],
                                [-0.2176487347266943, -0.2341426193894802],
                                [2.0, 2.3333333333333335]]),
                              ([-0.3118562568266828, -0.30472125309363757, -0.25583689640530904],
                               [[-0.0, -0.002069953728692154],
                                [0.6666666666666666, 1.0],
                                [-0.16453678489792928, -0.187893604348584],
                                [2.0, 2.3333333333333335]])]}


@pytest.mark.parametrize("key", sorted(ADAGRAD_DA_STEPS))
def test_adagrad_da_steps_as_tf_dense_and_sparse(key):
    dtype, l1, l2 = key
    step = tf.Variable(0, dtype=tf.int64)
    w = tf.Variable(np.array([1.0, -2.0, 0.5], dtype))
    emb = tf.Variable(np.arange(8, dtype=dtype).reshape(4, 2) / 3)
    opt = tf1.train.AdagradDAOptimizer(0.3, step, initial_gradient_squared_accumulator_value=0.2,
                                       l1_regularization_strength=l1,
                                       l2_regularization_strength=l2)

    def loss():
        rows = tf.nn.embedding_lookup(emb, tf.constant([0, 2, 2]))
        return tf.reduce_sum(w * w * w) + tf.reduce_sum(rows * rows)

    rtol = 1e-6 if dtype == "float32" else 1e-14
    for i, (want_w, want_emb) in enumerate(ADAGRAD_DA_STEPS[key]):
        opt.minimize(loss, global_step=step)
        assert int(step) == i + 1
        np.testing.assert_allclose(w.numpy(), want_w, rtol=rtol)
        np.testing.assert_allclose(emb.numpy(), want_emb, rtol=rtol)
    assert opt.get_slot_names() == ["gradient_accumulator", "gradient_squared_accumulator"]
    assert w.dtype == tf.as_dtype(dtype)


def test_adagrad_da_errors_as_tf():
    with pytest.raises(ValueError, match="initial_gradient_squared_accumulator_value must be "
                                         "positive: 0.0"):
        tf1.train.AdagradDAOptimizer(0.1, tf.Variable(0, dtype=tf.int64),
                                     initial_gradient_squared_accumulator_value=0.0)
    step = tf.Variable(2)  # (int32: TF's kernel takes an int64 step)
    opt = tf1.train.AdagradDAOptimizer(0.1, step)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute ResourceApplyAdagradDA as input #7\(zero-based\) "
                             r"was expected to be a int64 tensor but is a int32 tensor"):
        opt.apply_gradients([(tf.constant([0.5, -3.0]), tf.Variable([1.0, 2.0]))])


def test_adagrad_da_in_a_function_reads_the_step_each_call():
    # TF 2.21: two calls with the step incremented: [-0.12651745975017548, 0.14056004583835602]
    step = tf.Variable(0, dtype=tf.int64)
    w = tf.Variable([1.0, 2.0])
    opt = tf1.train.AdagradDAOptimizer(0.1, step, l1_regularization_strength=0.01)

    @tf.function
    def train():
        opt.apply_gradients([(tf.constant([0.5, -3.0]), w)], global_step=step)

    train()
    train()
    np.testing.assert_allclose(w.numpy(), [-0.12651745975017548, 0.14056004583835602],
                               rtol=1e-6)
    assert int(step) == 2


def test_adam_beta_accumulators_hold_the_betas_powers():
    with tf.Graph().as_default():
        opt = tf1.train.AdamOptimizer(0.1, beta1=0.8, beta2=0.9)
        assert opt._get_beta_accumulators() == (None, None)
        w = tf1.get_variable("w", initializer=[1.0, -2.0])
        train = opt.minimize(tf.reduce_sum(w * w))
        beta1_power, beta2_power = opt._get_beta_accumulators()
        assert (beta1_power.name, beta2_power.name) == ("beta1_power:0", "beta2_power:0")
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            sess.run(train)
            sess.run(train)
            np.testing.assert_allclose(sess.run([beta1_power, beta2_power]),
                                       [0.8 ** 3, 0.9 ** 3], rtol=1e-6)


@pytest.mark.parametrize("kwargs, message", [
    ({"learning_rate_power": 0.5}, "learning_rate_power 0.500000 needs to be negative or zero"),
    ({"initial_accumulator_value": -1.0},
     "initial_accumulator_value -1.000000 needs to be positive or zero"),
    ({"l1_regularization_strength": -1.0},
     "l1_regularization_strength -1.000000 needs to be positive or zero"),
    ({"l2_shrinkage_regularization_strength": -0.5},
     "l2_shrinkage_regularization_strength -0.500000 needs to be positive or zero"),
])
def test_ftrl_refuses_out_of_range_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tf1.train.FtrlOptimizer(0.1, **kwargs)


def test_compute_gradients_refuses_an_unknown_gate():
    with tf.Graph().as_default():
        w = tf1.get_variable("w", initializer=[1.0, 2.0])
        opt = tf1.train.GradientDescentOptimizer(0.1)
        with pytest.raises(ValueError, match="gate_gradients must be one of"):
            opt.compute_gradients(tf.reduce_sum(w * w), var_list=[w], gate_gradients=7)


class _CountingMomentum(tf1.train.Optimizer):
    """A TF 1 optimizer written as TF's subclasses are."""

    def __init__(self, lr=0.1, mu=0.9):
        super().__init__(False, "CountingMomentum")
        self._lr, self._mu = lr, mu

    def _create_slots(self, var_list):
        first = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=1.0, name="counter", colocate_with=first)
        for v in var_list:
            self._zeros_slot(v, "vel", self._name)

    def _prepare(self):
        self._lr_t = tf.convert_to_tensor(self._call_if_callable(self._lr))

    def _resource_apply_dense(self, grad, var):
        vel = self.get_slot(var, "vel")
        new = vel * self._mu + grad
        return tf.group(vel.assign(new), var.assign_sub(self._lr_t * new))

    def _resource_apply_sparse(self, grad, var, indices):
        assert len(set(np.asarray(indices).tolist())) == len(indices)
        dense = tf.math.unsorted_segment_sum(grad, indices, tf.shape(var)[0])
        return self._resource_apply_dense(dense, var)

    def _finish(self, update_ops, name_scope):
        graph = None if tf.executing_eagerly() else tf1.get_default_graph()
        counter = self._get_non_slot_variable("counter", graph=graph)
        with tf.control_dependencies(update_ops):
            return tf.group(*update_ops, counter.assign_add(1.0), name=name_scope)


def test_a_tf1_optimizer_subclass_trains_eagerly():
    w = tf.Variable([1.0, 2.0], name="w")
    emb = tf.Variable(np.ones((3, 2), np.float32), name="emb")
    opt = _CountingMomentum()
    for _ in range(3):
        opt.minimize(lambda: tf.reduce_sum(w * w) + tf.reduce_sum(tf.gather(emb, [0, 2, 2])),
                     var_list=[w, emb])
    np.testing.assert_allclose(w.numpy(), [0.062, 0.124], rtol=1e-6)
    np.testing.assert_allclose(emb.numpy(), [[0.439, 0.439], [1.0, 1.0], [-0.122, -0.122]],
                               rtol=1e-5)
    assert opt.get_slot_names() == ["vel"]
    assert [v.name for v in opt.variables()] == ["counter:0", "emb/CountingMomentum:0",
                                                 "w/CountingMomentum:0"]
    assert float(opt._get_non_slot_variable("counter")) == 4.0


def test_a_tf1_optimizer_subclass_trains_in_a_graph():
    with tf.Graph().as_default() as graph:
        w = tf1.get_variable("w", initializer=[1.0, 2.0])
        opt = _CountingMomentum()
        step = opt.minimize(tf.reduce_sum(w * w))
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for _ in range(3):
                sess.run(step)
            np.testing.assert_allclose(sess.run(w), [0.062, 0.124], rtol=1e-5)
            assert sess.run(opt._get_non_slot_variable("counter", graph=graph)) == 4.0


def test_eager_slot_names_are_new_in_the_program():
    # TF makes a slot in a variable scope named by default: eagerly its counts are the
    # program's, so a second optimizer's slots of a variable named alike take new suffixes
    names = []
    for _ in range(2):
        w = tf.Variable([1.0, 2.0], name="slotted")
        opt = tf1.train.AdamOptimizer(0.1)
        opt.minimize(lambda: tf.reduce_sum(w * w), var_list=[w])
        names.append([opt.get_slot(w, "m").name, opt.get_slot(w, "v").name])
    assert names == [["slotted/Adam:0", "slotted/Adam_1:0"],
                     ["slotted/Adam_2:0", "slotted/Adam_3:0"]]


def test_graph_slot_names_follow_the_variable_scope_not_the_name_scope():
    # TF 2.21: a slot is named in the variable scope it is made in, whatever the name scope
    with tf1.Graph().as_default():
        with tf1.variable_scope("vs"):
            x = tf1.get_variable("x", [2])
        with tf.name_scope("outer"):
            adam = tf1.train.AdamOptimizer(0.1)
            adam.minimize(tf.reduce_sum(x * x))
        with tf1.variable_scope("other"):
            rms = tf1.train.RMSPropOptimizer(0.1)
            rms.minimize(tf.reduce_sum(x * x))
        assert [adam.get_slot(x, n).name for n in ("m", "v")] == ["vs/x/Adam:0", "vs/x/Adam_1:0"]
        assert [rms.get_slot(x, n).name for n in ("rms", "momentum")] == [
            "other/vs/x/RMSProp:0", "other/vs/x/RMSProp_1:0"]


def test_graph_slots_of_a_second_optimizer_take_new_names_and_powers_the_name_scope():
    # TF 2.21: each slot name is new among the variable scopes (a second Adam's ``Adam_2``,
    # ``Adam_3``); ``beta1_power`` is made in the name scope of the step
    with tf1.Graph().as_default():
        with tf1.variable_scope("vs"):
            x = tf1.get_variable("x", initializer=1.0)
        with tf.name_scope("outer"):
            tf1.train.AdamOptimizer(0.1).minimize(x * x)
            tf1.train.AdamOptimizer(0.1).minimize(x * x)
        tf1.train.AdamOptimizer(0.1, name="Adam_1").minimize(x * x)
        assert [v.name for v in tf1.global_variables()] == [
            "vs/x:0", "outer/beta1_power:0", "outer/beta2_power:0", "vs/x/Adam:0",
            "vs/x/Adam_1:0", "outer/beta1_power_1:0", "outer/beta2_power_1:0", "vs/x/Adam_2:0",
            "vs/x/Adam_3:0", "beta1_power:0", "beta2_power:0", "vs/x/Adam_1_1:0",
            "vs/x/Adam_1_2:0"]


def test_eager_optimizer_variables_are_made_in_the_name_scope():
    w = tf.Variable([1.0, 2.0], name="w")
    with tf.name_scope("outer"):
        opt = tf1.train.AdamOptimizer(0.1)
        opt.minimize(lambda: tf.reduce_sum(w * w), var_list=[w])
    assert [v.name for v in opt.variables()][:2] == ["outer/beta1_power:0",
                                                     "outer/beta2_power:0"]


def test_nesterov_momentum_in_a_graph_rounds_as_tfs_kernel():
    # TF's MomentumOptimizer steps through its fused kernel (tf 2.21's result); the same
    # expression in graph ops rounds otherwise
    graph = tf.Graph()
    with graph.as_default():
        v = tf.compat.v1.get_variable("v", initializer=tf.constant([-2.0]), use_resource=True)
        opt = tf.compat.v1.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)
        step = opt.apply_gradients([(tf.constant([-19.0]), v)])
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(step)
            assert sess.run(v).tolist() == [1.6100001335144043]
