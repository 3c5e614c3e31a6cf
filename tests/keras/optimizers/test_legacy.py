"""``tf.keras.optimizers.legacy``: tf_keras's OptimizerV2 classes, the current algorithms'
updates with the legacy optimizers' slots, decay, configs and API (values from tf_keras)."""
import warnings

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
L = keras.optimizers.legacy


def test_legacy_classes_are_their_own():
    for name in ("Adadelta", "Adagrad", "Adam", "Adamax", "Ftrl", "Nadam", "RMSprop", "SGD"):
        assert getattr(L, name) is not getattr(keras.optimizers, name)
        assert isinstance(getattr(L, name)(), L.Optimizer)
        assert not isinstance(getattr(keras.optimizers, name)(), L.Optimizer)


@pytest.mark.parametrize("name, config", [
    ("SGD", {"momentum": 0.0, "nesterov": False}),
    ("Adam", {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": False}),
    ("RMSprop", {"rho": 0.9, "momentum": 0.0, "epsilon": 1e-07, "centered": False}),
    ("Adagrad", {"initial_accumulator_value": 0.1, "epsilon": 1e-07}),
    ("Adadelta", {"rho": 0.95, "epsilon": 1e-07}),
    ("Adamax", {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07}),
    ("Nadam", {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07}),
    ("Ftrl", {"initial_accumulator_value": 0.1, "learning_rate_power": -0.5,
              "l1_regularization_strength": 0.0, "l2_regularization_strength": 0.0,
              "beta": 0.0, "l2_shrinkage_regularization_strength": 0.0})])
def test_config_has_the_legacy_keys(name, config):
    got = getattr(L, name)().get_config()
    lr = 0.01 if name == "SGD" else 0.001
    want = {"name": name, "learning_rate": lr, "decay": 0.004 if name == "Nadam" else 0.0,
            **config}
    assert got == want and list(got) == list(want)
    assert type(got["learning_rate"]) is float


def test_config_with_clipping_decay_and_round_trip():
    config = L.SGD(0.1, momentum=0.9, decay=0.01, clipnorm=1.0).get_config()
    assert list(config.items()) == [("name", "SGD"), ("clipnorm", 1.0), ("learning_rate", 0.1),
                                    ("decay", 0.01), ("momentum", 0.9), ("nesterov", False)]
    assert L.SGD.from_config(config).get_config() == config
    serialized = keras.optimizers.serialize(L.Adam())
    assert serialized["module"] == "keras.optimizers.legacy"
    # as tf_keras: a config without `is_legacy_optimizer` is a legacy optimizer's
    assert type(keras.optimizers.deserialize(serialized)) is L.Adam
    assert type(keras.optimizers.get("adam", use_legacy_optimizer=True)) is L.Adam
    assert type(keras.optimizers.get("adam")) is keras.optimizers.Adam
    new = keras.optimizers.serialize(keras.optimizers.Adam())
    assert type(keras.optimizers.deserialize(new)) is keras.optimizers.Adam


def test_decay_and_the_old_learning_rate_name():
    opt, var = L.SGD(1.0, decay=0.5), tf.Variable(1.0)
    values = []
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), var)])
        values.append(float(var.numpy()))
    np.testing.assert_allclose(values, [0.0, -2 / 3, -7 / 6], rtol=1e-6)
    assert opt.iterations.name == "SGD/iter:0" and int(opt.iterations) == 3
    with pytest.warns(UserWarning, match="The `lr` argument is deprecated"):
        opt = L.Adam(lr=0.5)
    assert float(opt.lr) == 0.5 and opt.get_config()["learning_rate"] == 0.5


@pytest.mark.parametrize("make, error, message", [
    (lambda: L.SGD(foo=1), TypeError, "Unexpected keyword argument passed to optimizer: foo. "
                                      "Allowed kwargs are "),
    (lambda: L.Adam(weight_decay=0.1), TypeError, "Unexpected keyword argument passed to "
                                                  "optimizer: weight_decay"),
    (lambda: L.SGD(clipnorm=1.0, global_clipnorm=3.0), ValueError,
     "Cannot accept both `clipnorm` and `global_clipnorm`. Received: `clipnorm`=1.0, "
     "`global_clipnorm`=3.0."),
    (lambda: L.SGD(decay=-1.0), ValueError, "decay cannot be less than 0. Received: decay=-1.0."),
    (lambda: L.SGD(momentum=2.0), ValueError, "`momentum` must be between [0, 1]. Received: "
                                              "momentum=2.0 (of type <class 'float'>)."),
])
def test_argument_errors(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value).startswith(message)


def test_variables_seen_late_get_slots_instead_of_a_key_error():
    v, w = tf.Variable(1.0), tf.Variable(2.0)
    opt = keras.optimizers.Adam()
    opt.apply_gradients([(tf.constant(1.0), v)])
    with pytest.raises(KeyError, match=r"use legacy optimizer `tf.keras.optimizers.legacy.Adam"):
        opt.apply_gradients([(tf.constant(1.0), w)])
    v, w = tf.Variable(1.0), tf.Variable(2.0)
    opt = L.Adam()
    opt.apply_gradients([(tf.constant(1.0), v)])
    opt.apply_gradients([(tf.constant(1.0), w)])
    np.testing.assert_allclose([v.numpy(), w.numpy()], [0.999, 1.9992559], rtol=1e-6)
    assert int(opt.iterations) == 2 and len(opt.variables()) == 5


def test_slots_are_named_and_ordered_as_tf_keras_makes_them():
    a, b = tf.Variable([1.0], name="a"), tf.Variable([2.0], name="b")
    names = {}
    for opt in (L.Adam(), L.Ftrl(), L.RMSprop(momentum=0.5, centered=True), L.SGD(),
                L.SGD(momentum=0.5)):
        assert opt.get_slot_names() == []  # none before the first step
        opt.minimize(lambda: tf.reduce_sum(a * b), [a, b])
        names[opt.name, len(opt.get_slot_names())] = [v.name for v in opt.variables()]
        assert [v.name for v in opt.weights] == [v.name for v in opt.variables]
    assert names == {
        ("Adam", 2): ["Adam/iter:0", "Adam/a/m:0", "Adam/b/m:0", "Adam/a/v:0", "Adam/b/v:0"],
        ("Ftrl", 2): ["Ftrl/iter:0", "Ftrl/a/accumulator:0", "Ftrl/a/linear:0",
                      "Ftrl/b/accumulator:0", "Ftrl/b/linear:0"],
        ("RMSprop", 3): ["RMSprop/iter:0", "RMSprop/a/rms:0", "RMSprop/b/rms:0",
                         "RMSprop/a/momentum:0", "RMSprop/b/momentum:0", "RMSprop/a/mg:0",
                         "RMSprop/b/mg:0"],
        ("SGD", 0): ["SGD/iter:0"],
        ("SGD", 1): ["SGD/iter:0", "SGD/a/momentum:0", "SGD/b/momentum:0"]}
    opt = L.RMSprop(momentum=0.5, centered=True)
    opt.minimize(lambda: tf.reduce_sum(a * b), [a, b])
    assert opt.get_slot_names() == ["rms", "momentum", "mg"]
    assert opt.get_slot(a, "rms").name == "RMSprop/a/rms:0"


_RNG = np.random.default_rng(0)
_W0 = _RNG.standard_normal((4, 3)).astype(np.float32)
_GRADS = [_RNG.standard_normal((4, 3)).astype(np.float32) for _ in range(4)]


@pytest.mark.parametrize("name, kwargs, first_row", [
    ("SGD", {"momentum": 0.9, "nesterov": True}, [0.6020272, -0.28958273, 1.1259655]),
    ("Adam", {"amsgrad": True}, [0.29933965, 0.00419599, 0.88619775]),
    ("RMSprop", {"momentum": 0.5, "centered": True}, [0.4751104, 0.19364393, 1.2692164]),
    ("Adagrad", {}, [0.15706657, -0.16317204, 0.7199141]),
    ("Adadelta", {}, [0.12572432, -0.13216949, 0.6405035]),
    ("Adamax", {}, [0.27695304, 0.00557137, 0.85629594]),
    ("Nadam", {}, [0.16500145, -0.12499173, 0.7377876]),
    ("Ftrl", {"l1_regularization_strength": 0.01, "l2_regularization_strength": 0.1,
              "beta": 0.2, "l2_shrinkage_regularization_strength": 0.05},
     [0.1242867, -0.05469356, 0.4658414])])
def test_updates_are_tf_keras_legacy_ones(name, kwargs, first_row):
    opt, var = getattr(L, name)(learning_rate=0.1, **kwargs), tf.Variable(_W0)
    for grad in _GRADS:
        opt.apply_gradients([(tf.constant(grad), var)])
    np.testing.assert_allclose(var.numpy()[0], first_row, rtol=2e-5, atol=2e-6)


def test_fit_traced_loops_and_loss_scaling():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), kernel_initializer="ones")])
    opt = L.Adam(0.1, decay=0.1)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))
        return loss
    for _ in range(3):
        step(tf.ones((2, 3)))
    np.testing.assert_allclose(model.get_weights()[0][0], [0.72774696] * 2, rtol=1e-5)
    for opt in (L.RMSprop(0.01, decay=0.1),
                keras.mixed_precision.LossScaleOptimizer(L.SGD(0.1, momentum=0.9))):
        model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,),
                                                     kernel_initializer="ones")])
        model.compile(opt, "mse")
        model.fit(np.ones((4, 3)), np.zeros((4, 2)), verbose=0, epochs=2)
    np.testing.assert_allclose(model.get_weights()[0][0], [0.25, 0.25], rtol=1e-6)


def test_minimize_returns_the_step_and_get_updates_in_a_graph():
    var = tf.Variable(3.0)
    opt = L.SGD(0.1)
    assert int(opt.minimize(lambda: var * var, [var])) == 1
    np.testing.assert_allclose(var.numpy(), 2.4)

    @tf.function
    def updates():
        return opt.get_updates(var * var, [var])
    assert int(updates()[0]) == 2
    np.testing.assert_allclose(var.numpy(), 1.92, rtol=1e-6)
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager"):
        opt.get_updates(var * var, [var])


def test_a_subclass_in_the_legacy_style():
    class Scaled(L.Optimizer):
        def __init__(self, learning_rate=0.1, name="Scaled", **kwargs):
            super().__init__(name, **kwargs)
            self._set_hyper("learning_rate", learning_rate)
            self._set_hyper("scale", 2.0)

        def _create_slots(self, var_list):
            for var in var_list:
                self.add_slot(var, "acc")

        def _resource_apply_dense(self, grad, var, apply_state=None):
            self.get_slot(var, "acc").assign_add(grad)
            lr = self._get_hyper("learning_rate", var.dtype)
            return var.assign_sub(lr * self._get_hyper("scale", var.dtype) * grad)

    opt, var = Scaled(), tf.Variable([1.0, 2.0], name="w")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):
            opt.minimize(lambda: tf.reduce_sum(var * var), [var])
    np.testing.assert_allclose(var.numpy(), [0.36, 0.72], rtol=1e-6)
    np.testing.assert_allclose(opt.get_slot(var, "acc").numpy(), [3.2, 6.4], rtol=1e-6)
    assert [v.name for v in opt.variables()] == ["Scaled/iter:0", "Scaled/w/acc:0"]
    assert opt.get_slot_names() == ["acc"] and int(opt.iterations) == 2


def test_set_weights_after_a_step():
    model = keras.Sequential([keras.layers.Dense(10, input_shape=(20,))])
    opt = L.RMSprop()
    model.compile(opt, loss="mse")
    model.fit(np.arange(100.0).reshape(5, 20), np.zeros(5), verbose=0)
    opt.set_weights([np.array(10), np.ones([20, 10]), np.zeros([10])])
    assert int(opt.iterations) == 10 and opt.get_weights()[1].sum() == 200
    with pytest.raises(ValueError, match=r"^You called `set_weights\(weights\)` on optimizer "
                                         r"RMSprop with a  weight list of length 1, but the "
                                         r"optimizer was expecting 3 weights"):
        opt.set_weights([np.array(10)])
    with pytest.raises(ValueError, match=r"^Optimizer weight shape \(20, 10\) not compatible "
                                         r"with provided weight shape \(2,\)\.$"):
        opt.set_weights([np.array(10), np.ones(2), np.zeros([10])])


# A 5x2 variable after one dense step of 0.3 everywhere, then three sparse steps (rows
# [1, 3, 1] (a repeated row), [0, 3], [2]): tf_keras 2.21's legacy optimizers update only
# the rows a sparse gradient names (TF's ResourceSparseApply* kernels; Nadam decays the
# moments of every row but updates only those rows of the variable). Values from TF 2.21.
_SPARSE_STEPS = [([1, 3, 1], [[1., 2.], [3., -1.], [0.5, 0.5]]),
                 ([0, 3], [[2., 1.], [-1., 1.]]), ([2], [[1., 1.]])]
_SPARSE_CASES = {
    "sgd_momentum": (lambda: L.SGD(0.1, momentum=0.9), [
        -0.257, -0.057, -0.006999999, -0.006999999, 0.243, 0.343, 0.0487, 0.7086999, 0.77,
        0.87]),
    "sgd_nesterov": (lambda: L.SGD(0.1, momentum=0.9, nesterov=True), [
        -0.4613, -0.1713, -0.1663, -0.2563, 0.1287, 0.2287, -0.12617, 0.67783, 0.743, 0.843]),
    "rmsprop_momentum": (lambda: L.RMSprop(0.1, momentum=0.5), [
        -0.7874126, -0.6784883, -0.5850238, -0.4885372, -0.3784883, -0.2784883, -0.3212057,
        0.3776913, 0.483774, 0.583774]),
    "rmsprop_centered": (lambda: L.RMSprop(0.1, momentum=0.5, centered=True), [
        -0.8349291, -0.729739, -0.6339317, -0.5351611, -0.4297389, -0.3297389, -0.3794487,
        0.3587617, 0.4666688, 0.5666687]),
    "adadelta": (lambda: L.Adadelta(1.0), [
        -0.003393148, 0.0966662, 0.1966228, 0.2965994, 0.3966662, 0.4966662, 0.5974988,
        0.6985731, 0.7985858, 0.8985858]),
    "adamax": (lambda: L.Adamax(0.1), [
        -0.1418819, -0.04686343, 0.03789477, 0.1416843, 0.2630707, 0.3630707, 0.4187086,
        0.6257643, 0.7, 0.8]),
    "nadam": (lambda: L.Nadam(0.1), [
        -0.2182353, -0.1156462, -0.009351857, 0.08984969, 0.1739032, 0.2739032, 0.4177587,
        0.618245, 0.6943549, 0.7943548]),
}


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("case", sorted(_SPARSE_CASES))
def test_sparse_gradients_update_only_their_rows(case, traced):
    make, want = _SPARSE_CASES[case]
    opt = make()
    var = tf.Variable(np.arange(10, dtype=np.float32).reshape(5, 2) / 10)

    def step(indices, values):
        grad = tf.IndexedSlices(tf.constant(values), tf.constant(indices), tf.constant([5, 2]))
        opt.apply_gradients([(grad, var)])

    opt.apply_gradients([(tf.ones([5, 2]) * 0.3, var)])
    run = tf.function(step) if traced else step
    for indices, values in _SPARSE_STEPS:
        run(indices, values)
    np.testing.assert_allclose(var.numpy().ravel(), want, rtol=2e-6, atol=2e-7)


def test_sparse_momentum_leaves_other_rows_slots():
    # TF 2.21: the momentum of row 4, which no sparse gradient names, stays at its first value
    opt = L.SGD(0.1, momentum=0.9)
    var = tf.Variable(tf.zeros([5, 2]))
    opt.apply_gradients([(tf.ones([5, 2]), var)])
    opt.apply_gradients([(tf.IndexedSlices(tf.constant([[1., 1.]]), tf.constant([0]),
                                           tf.constant([5, 2])), var)])
    np.testing.assert_allclose(opt.get_slot(var, "momentum").numpy()[:, 0],
                               [-0.19, -0.1, -0.1, -0.1, -0.1], rtol=1e-6)
    np.testing.assert_allclose(var.numpy()[:, 0], [-0.29, -0.1, -0.1, -0.1, -0.1], rtol=1e-6)


def _small_steps(opt, sparse=False):
    """`opt`'s variable [1, 2, 3] after three steps of small gradients (each as the
    `IndexedSlices` of every row when `sparse`)."""
    var = tf.Variable([1.0, 2.0, 3.0])
    for g in ([1e-3, 1e-4, 2.0], [1e-4, -1e-3, 1.0], [1e-3, 1e-3, 1e-3]):
        grad = tf.constant(g)
        if sparse:
            grad = tf.IndexedSlices(grad, tf.constant([0, 1, 2]), tf.constant([3]))
        opt.apply_gradients([(grad, var)])
    return var.numpy()


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
@pytest.mark.parametrize("centered, want", [
    # TF 2.21: without momentum, tf_keras's legacy RMSprop divides by sqrt(ms) + epsilon
    # (not sqrt(ms + epsilon) as TF's kernel), which small gradients show
    (False, [0.41632047, 1.7706084, 2.536175]),
    (True, [0.36983085, 1.7671803, 2.5046167])])
def test_rmsprop_without_momentum_adds_epsilon_after_the_root(centered, want, sparse):
    got = _small_steps(L.RMSprop(0.1, centered=centered), sparse)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_adam_takes_its_rates_in_the_variables_dtype():
    # TF 2.21: tf_keras's legacy Adam runs TF's kernel, which takes 1 - float32(beta_2)
    # (1.3e-5 off 1e-3), not tf_keras's 1 - beta_2 in Python
    np.testing.assert_allclose(_small_steps(L.Adam(0.1)), [0.7410035, 1.962095, 2.734696],
                               rtol=2e-7)


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_rmsprop_momentum_takes_rho_in_the_variables_dtype(sparse):
    # TF 2.21: tf_keras's legacy RMSprop with momentum runs TF's kernel on 1 - float32(rho)
    got = _small_steps(L.RMSprop(0.1, momentum=0.5, rho=0.999), sparse)
    np.testing.assert_allclose(got, [0.0890512, 2.1035287, -4.6575298], rtol=1e-6)


def test_legacy_nadam_weights_hold_the_momentum_cache():
    def trained(steps, opt=None):
        v = tf.Variable([1.0, -2.0])
        opt = opt or tf.keras.optimizers.legacy.Nadam(0.01)
        for _ in range(steps):
            opt.apply_gradients([(v * 2.0, v)])
        return opt, v

    opt, v = trained(1)
    assert [w.name for w in opt.variables()] == [
        "Nadam/iter:0", "Nadam/momentum_cache:0", "Nadam/Variable/m:0", "Nadam/Variable/v:0"]
    weights = opt.get_weights()
    assert weights[0] == 1 and weights[1] == pytest.approx(0.45007348)  # TF's
    # weights set into another optimizer carry on as the original does
    other, w = trained(1)
    other.set_weights(opt.get_weights())
    w.assign(v)
    for _ in range(3):
        opt.apply_gradients([(v * 2.0, v)])
        other.apply_gradients([(w * 2.0, w)])
    np.testing.assert_allclose(w.numpy(), v.numpy(), rtol=1e-6)
    assert opt.get_weights()[1] == pytest.approx(other.get_weights()[1])


def test_legacy_ftrl_sparse_updates_only_the_gradient_rows():
    # tf_keras 2.21: legacy Ftrl applies an IndexedSlices gradient with TF's sparse FTRL
    # kernel: untouched rows keep their values (the l2 shrinkage does not reach them)
    opt = tf.keras.optimizers.legacy.Ftrl(
        0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02,
        l2_shrinkage_regularization_strength=0.03, beta=0.5)
    v = tf.Variable([[1.0, -2.0], [3.0, 0.5], [-0.7, 0.2]])
    for i in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(v, [0, 2, 0]) ** 2 * (i + 1.0))
        opt.apply_gradients(zip(tape.gradient(loss, [v]), [v]))
    np.testing.assert_allclose(v.numpy(), [[0.5797346830368042, -1.5509320497512817],
                                           [3.0, 0.5],
                                           [-0.2200915664434433, -0.0003486033238004893]],
                               rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("sparse", [False, True])
def test_legacy_adagrad_adds_epsilon_to_the_root(sparse):
    # tf_keras 2.21: legacy Adagrad steps by lr * g / (sqrt(accum) + epsilon) (TF's
    # AdagradV2 kernels); tf_keras's Adagrad by lr * g / sqrt(accum + epsilon)
    expected = {tf.keras.optimizers.legacy.Adagrad: [0.811116099357605, 3.2386178970336914],
                tf.keras.optimizers.Adagrad: [0.7759019136428833, 3.263070583343506]}
    for cls, want in expected.items():
        opt = cls(0.1, epsilon=0.5)
        v = tf.Variable([1.0, 3.0])
        for i in range(3):
            g = tf.constant([0.7, -2.3]) * (i + 1)
            if sparse:
                g = tf.IndexedSlices(g[:1], tf.constant([0]), tf.constant([2]))
            opt.apply_gradients([(g, v)])
        np.testing.assert_allclose(v.numpy(), [want[0], 3.0] if sparse else want, rtol=1e-6)


_LEGACY_FLOAT64 = {
    # tf_keras 2.21: the legacy optimizers keep their hyperparameters in float32 variables,
    # so a float64 variable's update reads them (and 1 - beta) rounded to float32
    "adam": (lambda L: L.Adam(0.1), [0.7076824313449489, 3.2923180990630976]),
    "adamax": (lambda L: L.Adamax(0.1), [0.754680538940947, 3.2453194770748643]),
    "sgd": (lambda L: L.SGD(0.1, momentum=0.9), [0.3342999980911614, 5.187300006271898]),
    "sgd_decay": (lambda L: L.SGD(0.1, momentum=0.9, nesterov=True, decay=0.3),
                  [0.21804885994104156, 5.569268031622292]),
    "rmsprop": (lambda L: L.RMSprop(0.1, momentum=0.3),
                [-0.07004840074156088, 4.0700488957929375]),
    "adadelta": (lambda L: L.Adadelta(0.1), [0.9994623532385987, 3.000537647520535]),
    "ftrl": (lambda L: L.Ftrl(0.1, beta=0.3, l2_shrinkage_regularization_strength=0.1,
                              l1_regularization_strength=0.01),
             [0.1872585780739227, 2.506970712054271]),
}


@pytest.mark.parametrize("name", sorted(_LEGACY_FLOAT64))
def test_legacy_float64_reads_float32_hyperparameters(name):
    make, want = _LEGACY_FLOAT64[name]
    opt = make(tf.keras.optimizers.legacy)
    v = tf.Variable([1.0, 3.0], dtype="float64")
    for i in range(3):
        opt.apply_gradients([(tf.constant([0.7, -2.3], "float64") * (i + 1), v)])
    np.testing.assert_allclose(v.numpy(), want, rtol=1e-14, atol=0)


def test_legacy_config_gives_float32_hyperparameters_once_applied():
    # tf_keras 2.21: Python numbers until the first update makes the float32 hyperparameter
    # variables, then their values (np.float32); epsilon and the like stay Python numbers
    opt = tf.keras.optimizers.legacy.Ftrl(0.1)
    assert opt.get_config()["learning_rate"] == 0.1
    assert type(opt.get_config()["learning_rate"]) is float
    opt.apply_gradients([(tf.constant([1.0]), tf.Variable([1.0]))])
    config = opt.get_config()
    assert {k: type(v).__name__ for k, v in config.items()} == {
        "name": "str", "learning_rate": "float32", "decay": "float",
        "initial_accumulator_value": "float", "learning_rate_power": "float32",
        "l1_regularization_strength": "float32", "l2_regularization_strength": "float32",
        "beta": "float32", "l2_shrinkage_regularization_strength": "float"}
    assert config["learning_rate"] == np.float32(0.1)
    opt = tf.keras.optimizers.legacy.SGD(0.1, momentum=0.9)
    opt.apply_gradients([(tf.constant([1.0]), tf.Variable([1.0]))])
    assert repr(opt.get_config()) == ("{'name': 'SGD', 'learning_rate': np.float32(0.1), "
                                      "'decay': 0.0, 'momentum': np.float32(0.9), "
                                      "'nesterov': False}")


def test_legacy_learning_rate_is_its_schedule_and_may_be_replaced():
    # tf_keras 2.21: a legacy optimizer's learning_rate (and lr) is the schedule it holds; a
    # number set in its place is kept (no TypeError), a schedule set over a number is taken
    sched = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5)
    opt = tf.keras.optimizers.legacy.SGD(sched)
    assert opt.learning_rate is sched and opt.lr is sched
    a = tf.Variable([1.0])
    for _ in range(2):
        opt.apply_gradients([(tf.constant([1.0]), a)])
    assert opt.learning_rate is sched
    opt.learning_rate = 0.3
    assert opt.learning_rate == 0.3
    opt.apply_gradients([(tf.constant([1.0]), a)])
    np.testing.assert_allclose(a.numpy(), [0.54999995], rtol=1e-6)
    assert opt.get_config()["learning_rate"] == 0.3
    opt = tf.keras.optimizers.legacy.SGD(0.1)
    opt.apply_gradients([(tf.constant([1.0]), a)])
    opt.learning_rate = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5)
    assert type(opt.learning_rate).__name__ == "ExponentialDecay"
    opt.apply_gradients([(tf.constant([1.0]), a)])
    np.testing.assert_allclose(a.numpy(), [0.39999995], rtol=1e-6)
    assert opt.get_config()["learning_rate"]["class_name"] == "ExponentialDecay"


def test_legacy_sgd_without_momentum_scatters_a_repeated_row_slice_by_slice():
    # TF's legacy SGD adds -lr * grad to the rows as the slices come (tf_keras 2.21's
    # result; the current SGD sums a repeated row's slices first and ends elsewhere)
    v = tf.Variable([[0.5, -1.0], [0.1, 0.2], [1.5, -2.5]])
    opt = tf.keras.optimizers.legacy.SGD(0.01)
    for _ in range(3):
        with tf.GradientTape() as tape:
            rows = tf.gather(v, [0, 2, 0])
            loss = tf.reduce_sum(rows * rows * rows * tf.constant([[1.0], [0.5], [2.0]]))
        opt.apply_gradients([(tape.gradient(loss, v), v)])
    np.testing.assert_array_equal(v.numpy(), np.float32(
        [[0.4381847381591797, -1.3258663415908813], [0.1, 0.2],
         [1.4031561613082886, -2.8035812377929688]]))
