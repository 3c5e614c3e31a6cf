"""`tf.keras.mixed_precision.LossScaleOptimizer`: scaling, the dynamic scale's updates (eager
and traced), delegation to the inner optimizer, configs, errors and `Model.compile` under
``mixed_float16``, as tf_keras 2.21 has them."""
import logging

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import weights as weights_mod

keras = tf.keras
LSO = keras.mixed_precision.LossScaleOptimizer


@pytest.fixture(autouse=True)
def _reset_policy():
    yield
    keras.mixed_precision.set_global_policy(None)


def _state(opt):
    return float(opt.loss_scale), int(opt.dynamic_counter), int(opt.iterations)


# -- construction and properties ---------------------------------------------------------

def test_defaults():
    inner = keras.optimizers.SGD(0.25)
    opt = LSO(inner)
    assert opt.dynamic is True
    assert repr(opt.loss_scale) == "<tf.Tensor: shape=(), dtype=float32, numpy=32768.0>"
    assert repr(opt.dynamic_counter) == (
        "<tf.Variable 'good_steps:0' shape=() dtype=int64, numpy=0>")
    assert opt.initial_scale == 32768.0 and isinstance(opt.initial_scale, float)
    assert opt.dynamic_growth_steps == 2000
    assert opt.inner_optimizer is inner
    assert isinstance(opt, keras.optimizers.Optimizer)
    assert keras.optimizers.get(opt) is opt


def test_fixed_scale():
    opt = LSO(keras.optimizers.SGD(), dynamic=False, initial_scale=8)
    assert opt.dynamic is False
    assert repr(opt.loss_scale) == "<tf.Tensor: shape=(), dtype=float32, numpy=8.0>"
    assert opt.dynamic_counter is None and opt.dynamic_growth_steps is None
    assert opt.initial_scale == 8.0 and isinstance(opt.initial_scale, float)


def test_public_names():
    names = {n for n in dir(keras.mixed_precision) if not n.startswith("_")}
    assert names == {"LossScaleOptimizer", "Policy", "global_policy", "set_global_policy"}


@pytest.mark.parametrize("make, error, message", [
    (lambda: LSO("sgd"), TypeError,
     '"inner_optimizer" must be an instance of `tf.keras.optimizers.Optimizer` or '
     '`tf.keras.optimizers.experimental.Optimizer`, but got: sgd.'),
    (lambda: LSO(None), TypeError, '"inner_optimizer" must be an instance of '),
    (lambda: LSO(LSO(keras.optimizers.SGD())), TypeError,
     "LossScaleOptimizer cannot wrap another LossScaleOptimizer, but got: <"),
    (lambda: LSO(keras.optimizers.SGD(), dynamic="dynamic"), TypeError,
     '"dynamic" argument to LossScaleOptimizer.__init__ must be a bool, but got: '
     "'dynamic'"),
    (lambda: LSO(keras.optimizers.SGD(), 1), TypeError,
     '"dynamic" argument to LossScaleOptimizer.__init__ must be a bool, but got: 1'),
    (lambda: LSO(keras.optimizers.SGD(), dynamic=False), ValueError,
     '"initial_scale" must be specified if "dynamic" is False'),
    (lambda: LSO(keras.optimizers.SGD(), dynamic=False, initial_scale=2,
                 dynamic_growth_steps=3), ValueError,
     '"dynamic_growth_steps" must be None if "dynamic" is False, but got: 3'),
    (lambda: LSO(keras.optimizers.SGD(), initial_scale="x"), ValueError,
     "could not convert string to float: 'x'"),
])
def test_errors(make, error, message):
    with pytest.raises(error) as info:
        make()
    assert str(info.value).startswith(message)


def test_an_optimizer_is_wrapped_once():
    inner = keras.optimizers.SGD()
    LSO(inner)
    with pytest.raises(ValueError, match='"inner_optimizer" is already wrapped by a '
                                         'LossScaleOptimizer. An optimizer can only be '
                                         'wrapped by a single LossScaleOptimizer'):
        LSO(inner)


# -- scaling ----------------------------------------------------------------------------------

def test_get_scaled_loss():
    opt = LSO(keras.optimizers.SGD(), initial_scale=4)
    assert float(opt.get_scaled_loss(tf.constant(1.5))) == 6.0
    half = opt.get_scaled_loss(tf.constant(1.5, tf.float16))
    assert half.dtype == tf.float16 and float(half) == 6.0
    scaled = opt.get_scaled_loss(lambda: tf.constant(2.0))
    assert callable(scaled) and float(scaled()) == 8.0


def test_get_unscaled_gradients():
    opt = LSO(keras.optimizers.SGD(), initial_scale=4)
    sparse = tf.IndexedSlices(tf.constant([[8.0]]), tf.constant([1]), tf.constant([2, 1]))
    dense, none, half, rows = opt.get_unscaled_gradients(
        [tf.constant([2.0, 6.0]), None, tf.constant(2.0, tf.float16), sparse])
    np.testing.assert_array_equal(dense.numpy(), [0.5, 1.5])
    assert none is None
    assert half.dtype == tf.float16 and float(half) == 0.5
    assert isinstance(rows, tf.IndexedSlices)
    np.testing.assert_array_equal(rows.values.numpy(), [[2.0]])
    np.testing.assert_array_equal(rows.indices.numpy(), [1])


def test_gradient_tape_loop_gives_the_unscaled_step():
    opt = LSO(keras.optimizers.SGD(0.25), initial_scale=1024)
    var = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        scaled = opt.get_scaled_loss(var ** 2)
    (grad,) = tape.gradient(scaled, [var])
    assert float(grad) == 2048.0
    (grad,) = opt.get_unscaled_gradients([grad])
    assert float(grad) == 2.0
    assert opt.apply_gradients([(grad, var)]) is None
    assert float(var) == 0.5


def test_minimize_scales_the_loss_and_unscales_the_gradients():
    opt = LSO(keras.optimizers.SGD(0.25), initial_scale=2.0 ** 20)
    var = tf.Variable(1.0)
    assert opt.minimize(lambda: var ** 2, var_list=[var]) is None
    assert float(var) == 0.5
    w = tf.Variable(3.0)
    opt2 = LSO(keras.optimizers.SGD(1.0), initial_scale=8)
    with tf.GradientTape() as tape:
        loss = w * w
    opt2.minimize(loss, [w], tape=tape)
    assert float(w) == -3.0
    assert opt2.compute_gradients(lambda: 3.0 * w, [w])[0][0].numpy() == 3.0


def test_minimize_scales_where_float16_would_underflow():
    # d(1e-4 * v)/dv in float16 is 1e-4; scaled by 2**10 it survives a float16 round trip
    # of the scaled loss, and comes back unscaled.
    opt = LSO(keras.optimizers.SGD(1.0), initial_scale=2 ** 10)
    var = tf.Variable(1.0, dtype=tf.float16)
    opt.minimize(lambda: var * tf.constant(1e-4, tf.float16), [var])
    assert float(var) == pytest.approx(1.0 - 1e-4, abs=1e-3)
    assert _state(opt) == (1024.0, 1, 1)


# -- the dynamic scale ------------------------------------------------------------------------

def _sequence(step):
    """Applies gradients finite, inf, nan, finite x3 with growth every 2 steps; returns the
    state and the variable after each step."""
    opt = LSO(keras.optimizers.SGD(1.0), initial_scale=8, dynamic_growth_steps=2)
    var = tf.Variable([1.0, 2.0])
    seen = []
    for grad in ([8.0, 16.0], [np.inf, 1.0], [np.nan, 1.0], [0.5, 0.5], [0.5, 0.5],
                 [0.5, 0.5]):
        step(opt, tf.constant(grad), var)
        seen.append((_state(opt), var.numpy().tolist()))
    return seen


# The values tf_keras 2.21 gives.
_EXPECTED = [
    ((8.0, 1, 1), [-7.0, -14.0]),
    ((4.0, 0, 2), [-7.0, -14.0]),     # inf: skipped, halved, counted in iterations
    ((2.0, 0, 3), [-7.0, -14.0]),     # nan: the same
    ((2.0, 1, 4), [-7.5, -14.5]),
    ((4.0, 0, 5), [-8.0, -15.0]),     # 2 finite steps in a row: doubled
    ((4.0, 1, 6), [-8.5, -15.5]),
]


def _apply(opt, grad, var):
    opt.apply_gradients([(grad, var)])


def test_dynamic_updates_eagerly():
    assert _sequence(_apply) == _EXPECTED


def test_dynamic_updates_traced():
    step = tf.function(_apply)
    assert _sequence(lambda opt, grad, var: step(opt, grad, var)) == _EXPECTED


def test_skipped_step_leaves_slots_alone():
    opt = LSO(keras.optimizers.Adam(0.1), initial_scale=4)
    var = tf.Variable([1.0, 2.0])
    opt.apply_gradients([(tf.constant([1.0, 1.0]), var)])
    before = [v.numpy().copy() for v in opt.variables[1:]] + [var.numpy().copy()]
    opt.apply_gradients([(tf.constant([1.0, np.inf]), var)])
    after = [v.numpy() for v in opt.variables[1:]] + [var.numpy()]
    for b, a in zip(before, after):
        np.testing.assert_array_equal(b, a)
    assert _state(opt) == (2.0, 0, 2)


def test_a_sparse_non_finite_gradient_skips():
    opt = LSO(keras.optimizers.SGD(1.0), initial_scale=4)
    var = tf.Variable([[1.0], [2.0]])
    grad = tf.IndexedSlices(tf.constant([[np.inf]]), tf.constant([0]), tf.constant([2, 1]))
    opt.apply_gradients([(grad, var)])
    assert var.numpy().tolist() == [[1.0], [2.0]] and _state(opt) == (2.0, 0, 1)


def test_scale_never_drops_below_one_nor_grows_to_inf():
    low = LSO(keras.optimizers.SGD(), initial_scale=2)
    var = tf.Variable(1.0)
    for _ in range(3):
        low.apply_gradients([(tf.constant(np.inf), var)])
    assert float(low.loss_scale) == 1.0
    high = LSO(keras.optimizers.SGD(), initial_scale=2.0 ** 127, dynamic_growth_steps=1)
    high.apply_gradients([(tf.constant(1.0), var)])
    assert float(high.loss_scale) == 2.0 ** 127 and int(high.dynamic_counter) == 0


def test_fixed_scale_never_skips():
    opt = LSO(keras.optimizers.SGD(1.0), dynamic=False, initial_scale=4)
    var = tf.Variable(1.0)
    opt.apply_gradients([(tf.constant(np.inf), var)])
    assert float(var) == -np.inf and float(opt.loss_scale) == 4.0
    assert int(opt.iterations) == 1


def test_traced_custom_loop():
    opt = LSO(keras.optimizers.SGD(0.1), initial_scale=2 ** 30, dynamic_growth_steps=3)
    var = tf.Variable(2.0)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            # The scaled loss overflows float16 until the scale is small enough.
            loss = tf.cast(tf.cast(var, tf.float16) ** 2, tf.float32)
            scaled = tf.cast(opt.get_scaled_loss(tf.cast(loss, tf.float16)), tf.float32)
        grads = opt.get_unscaled_gradients(tape.gradient(scaled, [var]))
        opt.apply_gradients(zip(grads, [var]))
        return loss

    losses = [float(step()) for _ in range(20)]
    assert float(opt.loss_scale) < 2 ** 30
    assert losses[-1] < losses[0]


def test_warns_when_apply_gradients_gets_unscaled_gradients(caplog):
    opt, var = LSO(keras.optimizers.SGD()), tf.Variable(1.0)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        opt.apply_gradients([(tf.constant(1.0), var)])
    assert "get_scaled_loss() and get_unscaled_gradients()" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        opt.minimize(lambda: var * 2.0, [var])
    assert "LossScaleOptimizer" not in caplog.text


# -- the inner optimizer's state ----------------------------------------------------------------

def test_learning_rate_iterations_and_variables_are_the_inner_optimizers():
    inner = keras.optimizers.Adam(0.1)
    opt = LSO(inner)
    assert opt.learning_rate is inner.learning_rate
    opt.learning_rate = 0.5
    assert float(inner.learning_rate) == 0.5
    opt.lr = 0.25
    assert float(inner.learning_rate) == 0.25 and float(opt.lr) == 0.25
    var = tf.Variable([1.0], name="w")
    opt.minimize(lambda: tf.reduce_sum(var * var), [var])
    assert opt.iterations is inner.iterations and int(opt.iterations) == 1
    assert [v.name for v in opt.variables] == [v.name for v in inner.variables]
    assert opt.get_slot(var, "m") is inner.get_slot(var, "m")
    assert opt.get_slot_names() == ["m", "v"]


def test_checkpoint_keys_are_tf_keras_ones_and_restore(tmp_path):
    keras.mixed_precision.set_global_policy("mixed_float16")

    def model():
        net = keras.Sequential([keras.layers.Dense(1, input_shape=(2,), dtype="float32")])
        net.compile(keras.optimizers.Adam(), "mse")
        return net

    net = model()
    net.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
    # The keys TF writes for this model: the inner optimizer's as if unwrapped.
    assert sorted(weights_mod.checkpoint_keys(net)) == sorted(
        f"{k}/.ATTRIBUTES/VARIABLE_VALUE" for k in [
            "layer_with_weights-0/bias", "layer_with_weights-0/kernel",
            "optimizer/_iterations", "optimizer/_learning_rate", "optimizer/_variables/1",
            "optimizer/_variables/2", "optimizer/_variables/3", "optimizer/_variables/4",
            "optimizer/loss_scale/current_loss_scale", "optimizer/loss_scale/good_steps"])
    net.optimizer.dynamic_counter.assign(7)
    net.save_weights(tmp_path / "ckpt")
    other = model()
    other.load_weights(tmp_path / "ckpt")
    assert int(other.optimizer.dynamic_counter) == 7
    assert int(other.optimizer.iterations) == 1


# -- configuration ------------------------------------------------------------------------------

def test_get_config_nests_the_inner_config():
    opt = LSO(keras.optimizers.SGD(0.25), initial_scale=8, dynamic_growth_steps=3)
    config = opt.get_config()
    assert config == {"inner_optimizer": keras.optimizers.serialize(opt.inner_optimizer),
                      "dynamic": True, "initial_scale": 8.0, "dynamic_growth_steps": 3}
    assert config["inner_optimizer"]["class_name"] == "SGD"
    fixed = LSO(keras.optimizers.SGD(), dynamic=False, initial_scale=4).get_config()
    assert (fixed["dynamic"], fixed["initial_scale"], fixed["dynamic_growth_steps"]) == (
        False, 4.0, None)


def test_config_round_trip():
    opt = LSO(keras.optimizers.Adam(0.5, beta_1=0.8), initial_scale=8, dynamic_growth_steps=3)
    for new in (LSO.from_config(opt.get_config()),
                keras.optimizers.deserialize(keras.optimizers.serialize(opt))):
        assert type(new) is type(opt) and new.inner_optimizer is not opt.inner_optimizer
        assert new.get_config() == opt.get_config()
        assert new.inner_optimizer.beta_1 == 0.8


def test_deserializes_the_name_tf_keras_writes():
    config = {"module": "tf_keras.src.mixed_precision.loss_scale_optimizer",
              "class_name": "LossScaleOptimizerV3",
              "config": {"inner_optimizer": {"module": "keras.optimizers", "class_name": "SGD",
                                             "config": {"learning_rate": 0.5},
                                             "registered_name": None},
                         "dynamic": False, "initial_scale": 16.0,
                         "dynamic_growth_steps": None},
              "registered_name": "LossScaleOptimizerV3"}
    opt = keras.optimizers.deserialize(config)
    assert isinstance(opt, LSO) and float(opt.loss_scale) == 16.0
    assert float(opt.learning_rate) == 0.5


# -- Model.compile and fit ----------------------------------------------------------------------

def _data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype("float32")
    return x, x @ np.array([[1.0], [-2.0], [0.5], [3.0]], "float32")


def _dense_model(**kwargs):
    return keras.Sequential([
        keras.layers.Dense(8, activation="relu", input_shape=(4,), kernel_initializer="ones"),
        keras.layers.Dense(1, dtype="float32", kernel_initializer="ones")], **kwargs)


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_fit_under_mixed_float16_scales_and_lowers_the_loss(run_eagerly):
    keras.mixed_precision.set_global_policy("mixed_float16")
    model = _dense_model()
    model.compile(keras.optimizers.SGD(0.01), "mse", run_eagerly=run_eagerly)
    assert isinstance(model.optimizer, LSO) and float(model.optimizer.loss_scale) == 32768.0
    x, y = _data()
    history = model.fit(x, y, epochs=3, batch_size=16, verbose=0, shuffle=False)
    losses = history.history["loss"]
    assert losses[-1] < losses[0] / 5
    # The first steps overflow float16 at scale 2**15: skipped, the scale halved each time
    # (as tf_keras: down to 2048 after 4 skipped steps), then 8 finite steps.
    assert _state(model.optimizer) == (2048.0, 8, 12)


def test_compile_wraps_only_for_float16_compute():
    keras.mixed_precision.set_global_policy("mixed_float16")
    model = _dense_model()
    model.compile("adam", "mse")
    assert type(model.optimizer.inner_optimizer).__name__ == "Adam"
    given = LSO(keras.optimizers.SGD(), dynamic=False, initial_scale=4)
    model.compile(given, "mse")
    assert model.optimizer is given
    for policy in ("mixed_bfloat16", "float32"):
        keras.mixed_precision.set_global_policy(policy)
        model = keras.Sequential([keras.layers.Dense(1, input_shape=(4,))])
        model.compile("sgd", "mse")
        assert type(model.optimizer).__name__ == "SGD"


def test_compile_wraps_for_a_mixed_float16_model_under_a_float32_policy():
    class Net(keras.Model):
        def __init__(self):
            super().__init__(dtype="mixed_float16")
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    model = Net()
    model.compile("sgd", "mse")
    assert isinstance(model.optimizer, LSO)


def test_saved_mixed_model_loads_with_its_loss_scale_optimizer(tmp_path):
    keras.mixed_precision.set_global_policy("mixed_float16")
    model = _dense_model()
    model.compile(keras.optimizers.Adam(0.01), "mse")
    x, y = _data()
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert isinstance(loaded.optimizer, LSO)
    assert type(loaded.optimizer.inner_optimizer).__name__ == "Adam"
    assert _state(loaded.optimizer) == _state(model.optimizer)


def test_set_global_policy_rejects_an_integer_policy_with_keras_message():
    with pytest.raises(ValueError, match='such as "float32" and "mixed_float16", but got '
                                         'policy: int32'):
        tf.keras.mixed_precision.set_global_policy("int32")
    assert tf.keras.mixed_precision.global_policy().name == "float32"


# -- tf_keras's class names and registered names ------------------------------------------

def test_wrapping_a_keras_optimizer_gives_a_loss_scale_optimizer_v3():
    opt = LSO(keras.optimizers.Adam())
    assert type(opt).__name__ == "LossScaleOptimizerV3" and isinstance(opt, LSO)
    assert type(LSO(keras.optimizers.legacy.Adam())).__name__ == "LossScaleOptimizer"
    config = keras.optimizers.serialize(opt)
    assert (config["module"], config["class_name"], config["registered_name"]) == (
        "tf_keras.src.mixed_precision.loss_scale_optimizer", "LossScaleOptimizerV3",
        "LossScaleOptimizerV3")
    assert type(keras.optimizers.deserialize(config)).__name__ == "LossScaleOptimizerV3"
    keras.mixed_precision.set_global_policy("mixed_float16")
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile("sgd", "mse")
    assert type(model.optimizer).__name__ == "LossScaleOptimizerV3"


def test_builtin_optimizers_are_registered_as_custom_as_in_tf_keras():
    # tf_keras's SavedModels name the optimizer inside a loss-scaling one 'Custom>Adam'
    assert keras.utils.get_registered_name(keras.optimizers.Adam) == "Custom>Adam"
    assert keras.utils.get_registered_object("Custom>SGD") is keras.optimizers.SGD
    assert {"Custom>Adam", "Custom>RMSprop", "Custom>Lion"} <= set(
        keras.utils.get_custom_objects())
    assert keras.optimizers.serialize(keras.optimizers.Adam())["registered_name"] is None
    saved = {"class_name": "LossScaleOptimizerV3", "config": {
        "inner_optimizer": {"class_name": "Custom>Adam",
                            "config": {"learning_rate": 0.5, "is_legacy_optimizer": False}},
        "dynamic": True, "initial_scale": 2.0, "dynamic_growth_steps": 3}}
    opt = keras.optimizers.deserialize(saved)
    assert type(opt.inner_optimizer).__name__ == "Adam"
    assert float(opt.learning_rate) == 0.5 and float(opt.loss_scale) == 2.0


def test_h5_never_restores_a_loss_scale_optimizer_v3_state(tmp_path, caplog):
    # As tf_keras: its set_weights refuses the (never built) wrapper, with a warning
    keras.mixed_precision.set_global_policy("mixed_float16")
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,)),
                              keras.layers.Activation("linear", dtype="float32")])
    model.compile("adam", "mse")
    model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    with pytest.warns(UserWarning):
        model.save(tmp_path / "m.h5")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        loaded = keras.models.load_model(tmp_path / "m.h5")
    assert "Error in loading the saved optimizer state." in caplog.text
    assert type(loaded.optimizer).__name__ == "LossScaleOptimizerV3"
    assert int(loaded.optimizer.iterations) == 0


def test_the_first_mixed_float16_policy_warns_once_that_there_is_no_gpu():
    import subprocess
    import sys
    code = ("import eagerflow as tf\n"
            "tf.keras.mixed_precision.Policy('mixed_float16')\n"
            "tf.keras.mixed_precision.set_global_policy('mixed_float16')\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stderr
    assert err.count("Mixed precision compatibility check (mixed_float16): WARNING\n"
                     "The dtype policy mixed_float16 may run slowly because this machine "
                     "does not have a GPU.") == 1
    code = ("import eagerflow as tf\n"
            "tf.keras.mixed_precision.Policy('mixed_bfloat16')\n"
            "tf.keras.mixed_precision.Policy('mixed_float16')\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stderr
    assert "compatibility check" not in err  # (checked once, on the first mixed policy)


def test_checkpoint_read_before_build_restores_inner_slots(tmp_path):
    # tf_keras: the inner optimizer's slots, made when the wrapper first applies gradients
    # after the restore, take their saved values (Adam's m and v here).
    var = tf.Variable(2.0)
    opt = LSO(keras.optimizers.Adam(0.1))
    for grad in (1.0, 3.0):
        opt.apply_gradients([(tf.constant(grad), var)])
    path = tf.train.Checkpoint(opt=opt, w=var).write(str(tmp_path / "ckpt"))
    restored_var = tf.Variable(0.0)
    restored = LSO(keras.optimizers.Adam(0.1))
    status = tf.train.Checkpoint(opt=restored, w=restored_var).read(path)
    restored.apply_gradients([(tf.constant(1.0), restored_var)])
    status.assert_consumed()
    np.testing.assert_allclose([v.numpy() for v in restored.variables],
                               [3, 0.451, 0.010989001], rtol=1e-6)
    np.testing.assert_allclose(restored_var.numpy(), 1.721314, rtol=1e-6)


def test_weights_are_the_legacy_inner_optimizers():
    opt = LSO(keras.optimizers.legacy.SGD(0.1))
    opt.apply_gradients([(tf.constant(1.0), tf.Variable(1.0))])
    assert opt.weights == opt.inner_optimizer.weights and len(opt.weights) == 1
    with pytest.raises(AttributeError, match="'LossScaleOptimizerV3' object has no attribute "
                                             "'weights'"):
        LSO(keras.optimizers.SGD(0.1)).weights


def test_legacy_wrapper_serializes_under_tf_keras_module_and_name():
    opt = LSO(keras.optimizers.legacy.Adam(0.01))
    config = keras.optimizers.serialize(opt)
    assert config["module"] == "tf_keras.src.mixed_precision.loss_scale_optimizer"
    assert config["class_name"] == config["registered_name"] == "LossScaleOptimizer"
    restored = keras.optimizers.deserialize(config)
    assert type(restored).__name__ == "LossScaleOptimizer"
    assert type(restored.inner_optimizer).__name__ == "Adam"
