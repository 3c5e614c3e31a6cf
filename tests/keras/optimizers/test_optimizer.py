"""The optimizer API: variables and slots, learning rates, clipping, weight decay, moving
averages, configs, identifiers and errors, as tf_keras 2.21 has them."""
import logging
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras import optimizers
from eagerflow.keras.optimizers import schedules

ALL = [optimizers.SGD, optimizers.Adam, optimizers.AdamW, optimizers.Adamax,
       optimizers.Nadam, optimizers.RMSprop, optimizers.Adagrad, optimizers.Adadelta,
       optimizers.Ftrl, optimizers.Adafactor, optimizers.Lion]


def _step(opt, *pairs):
    return opt.apply_gradients([(tf.constant(g), v) for g, v in pairs])


# -- variables and slots ----------------------------------------------------------------

def test_variables_iterations_first_then_slots_in_tf_keras_order():
    w, b = tf.Variable([1.0, 2.0], name="w"), tf.Variable(3.0, name="b")
    opt = optimizers.Adam(0.1)
    result = _step(opt, ([0.5, 0.5], w), (1.0, b))
    assert repr(result) == "<tf.Variable 'UnreadVariable' shape=() dtype=int64, numpy=1>"
    assert [v.name for v in opt.variables] == [
        "iteration:0", "Adam/m/w:0", "Adam/v/w:0", "Adam/m/b:0", "Adam/v/b:0"]
    assert opt.variables() == opt.variables  # Keras 2 code calls it too
    assert opt.iterations.dtype == tf.int64 and int(opt.iterations) == 1


def test_rmsprop_slots_are_grouped_by_kind():
    w, b = tf.Variable([1.0], name="w"), tf.Variable([2.0], name="b")
    opt = optimizers.RMSprop(momentum=0.5, centered=True)
    opt.build([w, b])
    assert [v.name for v in opt.variables] == [
        "iteration:0", "velocity/w:0", "velocity/b:0", "momentum/w:0", "momentum/b:0",
        "average_gradient/w:0", "average_gradient/b:0"]


@pytest.mark.parametrize("cls,names", [
    (optimizers.SGD, ["m"]), (optimizers.Adam, ["m", "v"]), (optimizers.AdamW, ["m", "v"]),
    (optimizers.Adamax, ["m", "u"]), (optimizers.Nadam, ["m", "v"]),
    (optimizers.RMSprop, ["velocity"]), (optimizers.Adagrad, ["accumulator"]),
    (optimizers.Adadelta, ["accumulated_grad", "accumulated_delta_var"]),
    (optimizers.Ftrl, ["accumulator", "linear"])])
def test_slot_names_and_get_slot(cls, names):
    w = tf.Variable([1.0, 2.0], name="w")
    opt = cls()
    opt.build([w])
    assert opt.get_slot_names() == names
    for name in names:
        slot = opt.get_slot(w, name)
        assert slot.shape == w.shape and slot.dtype == w.dtype and not slot.trainable
        assert any(slot is v for v in opt.variables)


def test_get_slot_accepts_legacy_names():
    w = tf.Variable([1.0])
    opt = optimizers.SGD(momentum=0.5)
    opt.build([w])
    assert opt.get_slot(w, "momentum") is opt.get_slot(w, "m")
    with pytest.raises(KeyError):
        opt.get_slot(w, "nope")
    with pytest.raises(KeyError):
        opt.get_slot(tf.Variable([1.0]), "m")


def test_amsgrad_slot_and_initial_accumulators():
    w = tf.Variable([1.0, 2.0])
    adam = optimizers.Adam(amsgrad=True)
    adam.build([w])
    assert adam.get_slot_names() == ["m", "v", "vhat"]
    adagrad = optimizers.Adagrad(initial_accumulator_value=0.3)
    adagrad.build([w])
    np.testing.assert_allclose(adagrad.get_slot(w, "accumulator").numpy(), [0.3, 0.3])


def test_set_and_get_weights():
    w = tf.Variable([1.0, 2.0])
    opt = optimizers.Adam()
    with pytest.raises(ValueError, match="You are calling `set_weights\\(\\)` on an optimizer "
                                         "that has not yet been built."):
        opt.set_weights([])
    opt.build([w])
    opt.set_weights([np.int64(4), np.array([1.0, 1.0]), np.array([2.0, 2.0])])
    weights = opt.get_weights()
    assert weights[0] == 4 and weights[2].tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match=r"Optimizer variable m/Variable has shape \(2,\) not "
                                         r"compatible with provided weight shape \(3,\)."):
        opt.set_weights([np.int64(0), np.zeros(3)])


def test_save_and_load_own_variables():
    w = tf.Variable([1.0, 2.0])
    opt = optimizers.Adam()
    _step(opt, ([1.0, 1.0], w))
    store = {}
    opt.save_own_variables(store)
    other = optimizers.Adam()
    other.build([w])
    other.load_own_variables(store)
    for a, b in zip(opt.variables, other.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_iterations_can_be_replaced_only_before_building():
    opt = optimizers.SGD()
    counter = tf.Variable(5, dtype=tf.int64)
    opt.iterations = counter
    assert opt.iterations is counter and opt.variables[0] is counter
    _step(opt, (1.0, tf.Variable(1.0)))
    assert int(counter) == 6
    with pytest.raises(RuntimeError, match="Cannot set `iterations` to a new Variable after "
                                           "the Optimizer weights have been created."):
        opt.iterations = tf.Variable(0, dtype=tf.int64)


def test_variables_of_another_model_are_a_key_error():
    opt = optimizers.SGD()
    _step(opt, (1.0, tf.Variable(1.0)))
    with pytest.raises(KeyError, match="The optimizer cannot recognize variable Variable:0. "
                                       "This usually means"):
        _step(opt, (1.0, tf.Variable(2.0)))


# -- gradients ---------------------------------------------------------------------------

def test_missing_gradients_are_skipped_with_tf_keras_warning(caplog):
    w, b = tf.Variable([1.0], name="w"), tf.Variable([1.0], name="b")
    opt = optimizers.SGD(0.5)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        opt.apply_gradients([(None, w), (tf.constant([1.0]), b)])
    assert ("Gradients do not exist for variables ['w:0'] when minimizing the loss. If you're "
            "using `model.compile()`, did you forget to provide a `loss` argument?"
            in caplog.text)
    assert w.numpy().tolist() == [1.0] and b.numpy().tolist() == [0.5]


def test_missing_gradients_warn_as_often_as_tf_keras(caplog):
    # tf_keras's optimizers warn in their aggregation of the gradients and again in the step
    # (its legacy ones, and a step skipping the aggregation, once)
    def warnings_of(opt, **kwargs):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="tensorflow"):
            opt.apply_gradients([(None, tf.Variable(1.0)), (tf.constant(1.0), v)], **kwargs)
        return sum("Gradients do not exist" in r.getMessage() for r in caplog.records)

    v = tf.Variable(1.0)
    assert warnings_of(optimizers.SGD()) == 2
    assert warnings_of(optimizers.SGD(), skip_gradients_aggregation=True) == 1
    assert warnings_of(optimizers.SGD(), experimental_aggregate_gradients=False) == 1
    assert warnings_of(optimizers.legacy.SGD()) == 1


def test_no_gradient_at_all_is_a_value_error():
    w = tf.Variable([1.0], name="w")
    with pytest.raises(ValueError, match=r"No gradients provided for any variable: "
                                         r"\(\['w:0'\],\). Provided `grads_and_vars` is "
                                         r"\(\(None, <tf.Variable 'w:0'"):
        optimizers.Adam().apply_gradients([(None, w)])


def test_empty_gradient_list_is_a_no_op():
    opt = optimizers.Adam()
    assert opt.apply_gradients([]) is opt.iterations
    assert int(opt.iterations) == 0


def test_minimize_with_a_callable_and_with_a_tape():
    var = tf.Variable(1.0)
    opt = optimizers.SGD(learning_rate=0.1)
    assert opt.minimize(lambda: (var ** 2) / 2.0, [var]) is None
    np.testing.assert_allclose(var.numpy(), 0.9)
    with tf.GradientTape() as tape:
        loss = (var ** 2) / 2.0
    opt.minimize(loss, [var], tape=tape)
    np.testing.assert_allclose(var.numpy(), 0.81)
    made = []
    opt = optimizers.SGD(learning_rate=0.1)  # built on the variables the loss makes
    opt.minimize(lambda: made.append(tf.Variable(2.0)) or made[0] * 3.0, lambda: made)
    np.testing.assert_allclose(made[0].numpy(), 1.7)
    with pytest.raises(ValueError, match="`tape` is required when a `Tensor` loss is passed."):
        opt.minimize(var * 2.0, [var])


def test_momentum_doc_example():
    opt = optimizers.SGD(0.1, momentum=0.9)
    var = tf.Variable(1.0)
    val0 = var.value()
    opt.minimize(lambda: (var ** 2) / 2.0, [var])
    val1 = var.value()
    np.testing.assert_allclose((val0 - val1).numpy(), 0.1, rtol=1e-6)
    opt.minimize(lambda: (var ** 2) / 2.0, [var])
    np.testing.assert_allclose((val1 - var.value()).numpy(), 0.18, rtol=1e-6)


def test_clipvalue_doc_example():
    opt = optimizers.SGD(learning_rate=1, clipvalue=1)
    var1, var2 = tf.Variable(2.0), tf.Variable(2.0)
    with tf.GradientTape() as tape:
        loss = 2 * var1 + 2 * var2
    grads = tape.gradient(loss, [var1, var2])
    opt.apply_gradients(zip(grads, [var1, var2]))
    assert [var1.numpy(), var2.numpy()] == [1.0, 1.0]


def test_clipnorm_and_global_clipnorm():
    w, b = tf.Variable([0.0, 0.0]), tf.Variable([0.0])
    _step(optimizers.SGD(1.0, clipnorm=1.0), ([3.0, 4.0], w), ([0.5], b))
    np.testing.assert_allclose(w.numpy(), [-0.6, -0.8], rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), [-0.5])
    w, b = tf.Variable([0.0, 0.0]), tf.Variable([0.0])
    _step(optimizers.SGD(1.0, global_clipnorm=2.6), ([3.0, 4.0], w), ([12.0], b))
    np.testing.assert_allclose(w.numpy(), [-0.6, -0.8], rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), [-2.4], rtol=1e-6)


def test_clipping_sparse_gradients_clips_their_rows():
    table = tf.Variable(np.zeros((3, 2), np.float32))
    grad = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([3, 2]))
    optimizers.SGD(1.0, clipnorm=1.0).apply_gradients([(grad, table)])
    np.testing.assert_allclose(table.numpy(), [[0, 0], [-0.6, -0.8], [0, 0]], rtol=1e-6)


def test_constraints_apply_after_the_update():
    w = tf.Variable([1.0, -1.0], constraint=lambda x: tf.maximum(x, 0.0))
    _step(optimizers.SGD(1.0), ([-1.0, 1.0], w))
    assert w.numpy().tolist() == [2.0, 0.0]


# -- weight decay -------------------------------------------------------------------------

def test_weight_decay_doc_example():
    opt = optimizers.SGD(1, weight_decay=0.004)
    grads, var1, var2 = tf.zeros(()), tf.Variable(2.0), tf.Variable(2.0)
    opt.exclude_from_weight_decay(var_list=[var2])
    opt.apply_gradients(zip([grads, grads], [var1, var2]))
    np.testing.assert_allclose([var1.numpy(), var2.numpy()], [1.992, 2.0], rtol=1e-7)


def test_weight_decay_excluded_by_name_pattern():
    kernel, bias = tf.Variable([1.0], name="dense/kernel"), tf.Variable([1.0], name="dense/bias")
    opt = optimizers.AdamW(learning_rate=0.5, weight_decay=0.1)
    opt.exclude_from_weight_decay(var_names=["bias"])
    _step(opt, ([0.0], kernel), ([0.0], bias))
    np.testing.assert_allclose(kernel.numpy(), [0.95])
    assert bias.numpy().tolist() == [1.0]
    with pytest.raises(ValueError, match="can only be configued before the optimizer is built"):
        opt.exclude_from_weight_decay(var_names=["x"])


# -- learning rates -------------------------------------------------------------------------

def test_learning_rate_is_a_settable_variable():
    opt = optimizers.SGD(0.1)
    assert repr(opt.learning_rate) == ("<tf.Variable 'learning_rate:0' shape=() "
                                       "dtype=float32, numpy=0.10000000149011612>")
    opt.learning_rate = 0.3
    assert opt.lr is opt.learning_rate
    np.testing.assert_allclose(opt.learning_rate.numpy(), 0.3)
    opt.lr = 0.5
    w = tf.Variable(1.0)
    _step(opt, (1.0, w))
    assert w.numpy() == 0.5


def test_learning_rate_from_a_variable_or_callable():
    source = tf.Variable(0.25)
    opt = optimizers.SGD(source)
    assert opt.learning_rate is not source and opt.learning_rate.numpy() == 0.25
    opt = optimizers.Adam(learning_rate=lambda: 0.3)
    np.testing.assert_allclose(opt.learning_rate.numpy(), 0.3)


def test_schedule_learning_rate_is_not_settable():
    opt = optimizers.SGD(schedules.ExponentialDecay(0.1, 10, 0.5))
    assert opt.learning_rate.name == "current_learning_rate:0"
    with pytest.raises(TypeError, match="This optimizer was created with a "
                                        "`LearningRateSchedule` object"):
        opt.learning_rate = 0.3
    opt.learning_rate = schedules.ExponentialDecay(1.0, 10, 0.5)  # another schedule is fine


def test_schedule_is_evaluated_at_each_step_inside_a_function():
    w = tf.Variable(0.0)
    opt = optimizers.SGD(schedules.PiecewiseConstantDecay([1, 2], [1.0, 0.5, 0.25]))
    step = tf.function(lambda: opt.apply_gradients([(tf.constant(-1.0), w)]))
    seen = []
    for _ in range(4):
        step()
        traces = traces if seen else step.experimental_get_tracing_count()
        seen.append(w.numpy())
    assert seen == [1.0, 2.0, 2.5, 2.75]  # rates 1.0 (steps 0 and 1), 0.5, 0.25
    assert step.experimental_get_tracing_count() == traces  # no retracing after the first
    assert opt.learning_rate.numpy() == 0.25


def test_learning_rate_changes_reach_a_traced_step():
    w = tf.Variable(0.0)
    opt = optimizers.SGD(1.0)
    step = tf.function(lambda: opt.apply_gradients([(tf.constant(-1.0), w)]))
    step()
    traces = step.experimental_get_tracing_count()
    opt.learning_rate = 0.5
    step()
    assert w.numpy() == 1.5 and step.experimental_get_tracing_count() == traces


def test_lr_keyword_is_ignored_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        opt = optimizers.Adam(lr=0.5)
    assert "`lr` is deprecated in TF-Keras optimizer" in caplog.text
    np.testing.assert_allclose(opt.learning_rate.numpy(), 0.001)


# -- traced functions ------------------------------------------------------------------------

@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_a_traced_step_captures_only_variables(cls):
    # its hyperparameters are the graph's own constants, as in TF: the signature lists the
    # variable handles it closes over and no eager scalars (tf_keras 2.21's counts)
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    opt = cls()
    step = tf.function(lambda g: opt.apply_gradients([(g, w)]))
    step(tf.constant([[0.5, -0.5], [1.0, 2.0]]))
    step(tf.constant([[0.5, -0.5], [1.0, 2.0]]))
    captures = [line.split(": ", 1)[1] for line in
                step.pretty_printed_concrete_signatures().splitlines()
                if re.match(r"^\s+\d+: ", line)]
    expected = {"SGD": 8, "Adam": 10, "AdamW": 10, "Adamax": 10, "Nadam": 12, "RMSprop": 8,
                "Adagrad": 8, "Adadelta": 10, "Ftrl": 10, "Adafactor": 12, "Lion": 8}
    assert captures == ["TensorSpec(shape=(), dtype=tf.resource, name=None)"] * \
        expected[cls.__name__]


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_first_step_inside_a_function_builds_the_slots(cls):
    w = tf.Variable([1.0, 2.0])
    opt = cls()

    @tf.function
    def step(g):
        return opt.apply_gradients([(g, w)])

    step(tf.constant([0.5, -0.5]))
    step(tf.constant([0.5, -0.5]))
    assert int(opt.iterations) == 2
    assert all(isinstance(v.numpy(), (np.ndarray, np.generic)) for v in opt.variables)
    if cls is optimizers.Nadam:
        return  # its first traced step divides by zero, as tf_keras's (test_updates.py)
    eager_w = tf.Variable([1.0, 2.0])
    eager = cls()
    for _ in range(2):
        eager.apply_gradients([(tf.constant([0.5, -0.5]), eager_w)])
    np.testing.assert_allclose(w.numpy(), eager_w.numpy(), rtol=1e-6)


# -- moving averages ------------------------------------------------------------------------

def test_ema_overwrites_every_n_steps_and_finalizes():
    w = tf.Variable([1.0])
    opt = optimizers.SGD(1.0, use_ema=True, ema_momentum=0.5, ema_overwrite_frequency=2)
    _step(opt, ([1.0], w))  # w 0.0, average 0.5
    average = opt._model_variables_moving_average[0]
    assert w.numpy().tolist() == [0.0] and average.numpy().tolist() == [0.5]
    _step(opt, ([1.0], w))  # w -1.0, average -0.25, overwritten (step 2)
    assert w.numpy().tolist() == [-0.25]
    _step(opt, ([1.0], w))  # w -1.25, average -0.75
    opt.finalize_variable_values([w])
    assert w.numpy().tolist() == [-0.75]
    assert [v.name for v in opt.variables] == ["iteration:0", "SGD/average/Variable:0",
                                               "SGD/m/Variable:0"]


# -- configs and identifiers ---------------------------------------------------------------

def test_get_config_matches_tf_keras():
    assert optimizers.Adam(0.1).get_config() == {
        "name": "Adam", "weight_decay": None, "clipnorm": None, "global_clipnorm": None,
        "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
        "ema_overwrite_frequency": None, "jit_compile": False, "is_legacy_optimizer": False,
        "learning_rate": np.float32(0.1), "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07,
        "amsgrad": False}
    config = optimizers.RMSprop().get_config()
    assert config["ema_overwrite_frequency"] == 100
    assert list(config)[-5:] == ["learning_rate", "rho", "momentum", "epsilon", "centered"]


@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_config_round_trip(cls):
    opt = cls(learning_rate=0.25, clipvalue=0.5, name="custom")
    again = cls.from_config(opt.get_config())
    assert type(again) is cls and again.get_config() == opt.get_config()
    serialized = optimizers.serialize(opt)
    assert serialized["module"] == "keras.optimizers"
    assert serialized["class_name"] == cls.__name__ and serialized["registered_name"] is None
    assert optimizers.deserialize(serialized).get_config() == opt.get_config()


def test_lion_and_adafactor_configs_and_errors():
    assert list(optimizers.Adafactor().get_config())[-6:] == [
        "learning_rate", "beta_2_decay", "epsilon_1", "epsilon_2", "clip_threshold",
        "relative_step"]
    assert list(optimizers.Lion().get_config())[-3:] == ["learning_rate", "beta_1", "beta_2"]
    with pytest.raises(ValueError, match=r"^`beta_1`=0.0 must be between \]0, 1\]. Otherwise"):
        optimizers.Lion(beta_1=0.0)
    with pytest.raises(ValueError, match="Unknown optimizer: 'lion'"):
        optimizers.get("lion")  # as in tf_keras: by class name only
    assert type(optimizers.get("Lion")) is optimizers.Lion


def test_schedule_in_a_config_round_trips():
    opt = optimizers.SGD(schedules.ExponentialDecay(0.1, 10, 0.5))
    config = opt.get_config()
    assert config["learning_rate"] == {
        "module": "keras.optimizers.schedules", "class_name": "ExponentialDecay",
        "config": {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5,
                   "staircase": False, "name": None}, "registered_name": None}
    again = optimizers.SGD.from_config(config)
    assert isinstance(again._learning_rate, schedules.ExponentialDecay)


@pytest.mark.parametrize("name,cls", [
    ("adam", optimizers.Adam), ("Adam", optimizers.Adam), ("SGD", optimizers.SGD),
    ("rmsprop", optimizers.RMSprop), ("RMSprop", optimizers.RMSprop),
    ("adagrad", optimizers.Adagrad), ("adadelta", optimizers.Adadelta),
    ("adamax", optimizers.Adamax), ("nadam", optimizers.Nadam), ("ftrl", optimizers.Ftrl),
    ("adamw", optimizers.AdamW), ("AdamW", optimizers.AdamW),
    ("experimentalsgd", optimizers.SGD)])
def test_get_resolves_names_like_keras(name, cls):
    opt = optimizers.get(name)
    assert type(opt) is cls
    assert opt.get_config() == cls().get_config()


def test_get_instances_dicts_and_errors():
    opt = optimizers.Adam()
    assert optimizers.get(opt) is opt
    sgd = optimizers.get({"class_name": "SGD", "config": {"learning_rate": 0.5}})
    np.testing.assert_allclose(sgd.learning_rate.numpy(), 0.5)
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: 3"):
        optimizers.get(3)
    with pytest.raises(ValueError, match="Unknown optimizer: 'nope'"):
        optimizers.get("nope")
    with pytest.raises(TypeError, match="Invalid keyword arguments"):
        optimizers.get("adam", colour="red")
    assert optimizers.serialize(None) is None


def test_custom_objects_deserialize():
    class MySGD(optimizers.SGD):
        pass

    config = optimizers.serialize(MySGD(0.5))
    opt = optimizers.deserialize(config, custom_objects={"MySGD": MySGD})
    assert type(opt) is MySGD


# -- errors on construction -------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,error,message", [
    ({"decay": 0.1}, ValueError, "decay is deprecated in the new TF-Keras optimizer, please "
                                 "check the docstring for valid arguments, or use the legacy "
                                 "optimizer, e.g., tf.keras.optimizers.legacy.Adam."),
    ({"foo": 1}, TypeError, "foo is not a valid argument, kwargs should be empty  for "
                            "`optimizer_experimental.Optimizer`."),
    ({"clipnorm": 1, "global_clipnorm": 1}, ValueError,
     "At most one of `clipnorm` and `global_clipnorm` can be set. Received: clipnorm=1, "
     "global_clipnorm=1."),
    ({"use_ema": True, "ema_momentum": 2}, ValueError,
     "`ema_momentum` must be in the range [0, 1]. Received: ema_momentum=2"),
    ({"use_ema": True, "ema_overwrite_frequency": 0.5}, ValueError,
     "`ema_overwrite_frequency` must be an integer > 1 or None."),
])
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error) as raised:
        optimizers.Adam(**kwargs)
    assert message in str(raised.value)


@pytest.mark.parametrize("cls,kwargs,message", [
    (optimizers.SGD, {"momentum": 2}, "`momentum` must be between [0, 1]."),
    (optimizers.AdamW, {"weight_decay": None},
     "Missing value of `weight_decay` which is required and must be a float value."),
    (optimizers.Ftrl, {"initial_accumulator_value": -1},
     "`initial_accumulator_value` needs to be positive or zero. Received: "
     "initial_accumulator_value=-1."),
    (optimizers.Ftrl, {"learning_rate_power": 0.5},
     "`learning_rate_power` needs to be negative or zero. Received: learning_rate_power=0.5."),
    (optimizers.Ftrl, {"l2_shrinkage_regularization_strength": -0.1},
     "`l2_shrinkage_regularization_strength` needs to be positive or zero. Received: "
     "l2_shrinkage_regularization_strength=-0.1."),
])
def test_algorithm_argument_errors(cls, kwargs, message):
    with pytest.raises(ValueError) as raised:
        cls(**kwargs)
    assert str(raised.value) == message


# -- custom optimizers ---------------------------------------------------------------------

class _SignSGD(optimizers.Optimizer):
    """A tf_keras-style subclass: own build and update_step, built from variable ops."""

    def __init__(self, learning_rate=0.1, name="SignSGD", **kwargs):
        super().__init__(name=name, **kwargs)
        self._learning_rate = self._build_learning_rate(learning_rate)

    def build(self, var_list):
        super().build(var_list)
        if hasattr(self, "_built") and self._built:
            return
        self._built = True
        self.steps = [self.add_variable_from_reference(v, "steps") for v in var_list]

    def update_step(self, gradient, variable):
        lr = tf.cast(self.learning_rate, variable.dtype)
        variable.assign_sub(lr * tf.sign(gradient))
        self.steps[self._index_dict[self._var_key(variable)]].assign_add(tf.ones_like(variable))

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter(self._learning_rate)})
        return config


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
def test_tf_keras_style_subclass(traced):
    w = tf.Variable([1.0, -1.0])
    opt = _SignSGD(0.25)

    def step():
        opt.apply_gradients([(tf.constant([3.0, -0.5]), w)])
    step = tf.function(step) if traced else step
    step()
    step()
    assert w.numpy().tolist() == [0.5, -0.5]
    assert [v.name for v in opt.variables] == ["iteration:0", "SignSGD/steps/Variable:0"]
    assert opt.steps[0].numpy().tolist() == [2.0, 2.0]
    assert _SignSGD.from_config(opt.get_config()).learning_rate.numpy() == 0.25


def test_add_variable():
    opt = optimizers.SGD()
    ones = opt.add_variable([2], initializer="ones", name="counts")
    assert ones.numpy().tolist() == [1.0, 1.0] and ones.dtype == tf.float32
    assert opt.variables[-1] is ones


def test_steps_inside_a_graph_loop_follow_the_schedule():
    w = tf.Variable(0.0)
    opt = optimizers.SGD(schedules.PiecewiseConstantDecay([1, 2], [1.0, 0.5, 0.25]))

    @tf.function
    def train(n):
        for _ in tf.range(n):  # the first step (building the slots) runs in the loop body
            opt.apply_gradients([(tf.constant(-1.0), w)])

    train(tf.constant(4))
    assert w.numpy() == 2.75 and int(opt.iterations) == 4
