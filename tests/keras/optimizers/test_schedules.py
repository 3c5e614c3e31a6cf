"""Learning-rate schedules: values as tf_keras computes them, in eager code and in functions."""
import numpy as np
import pytest

import eagerflow as tf
from tests.internals import schedules

STEPS = [0, 1, 5, 7, 10, 15, 25, 100]

# Values printed by tf_keras 2.21 (the reference TF venv) for these schedules at STEPS:
#   s = getattr(tf_keras.optimizers.schedules, name)(**kwargs)
#   [float(s(step)) for step in STEPS]
REFERENCE = [
    ("ExponentialDecay", {'initial_learning_rate': 0.1, 'decay_steps': 10, 'decay_rate': 0.5},
     [0.10000000149011612, 0.09330330044031143, 0.0707106813788414, 0.06155722215771675,
      0.05000000074505806, 0.0353553406894207, 0.01767767034471035, 9.765625145519152e-05]),
    ("ExponentialDecay", {'initial_learning_rate': 0.1, 'decay_steps': 10, 'decay_rate': 0.5,
                          'staircase': True},
     [0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
      0.05000000074505806, 0.05000000074505806, 0.02500000037252903, 9.765625145519152e-05]),
    ("PiecewiseConstantDecay", {'boundaries': [5, 15], 'values': [1.0, 0.5, 0.1]},
     [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.10000000149011612, 0.10000000149011612]),
    ("PolynomialDecay", {'initial_learning_rate': 0.1, 'decay_steps': 10},
     [0.10000000149011612, 0.09001000225543976, 0.050050001591444016, 0.030070001259446144,
      9.999999747378752e-05, 9.999999747378752e-05, 9.999999747378752e-05,
      9.999999747378752e-05]),
    ("PolynomialDecay", {'initial_learning_rate': 0.1, 'decay_steps': 10,
                         'end_learning_rate': 0.01, 'power': 0.5, 'cycle': True},
     [0.10000000149011612, 0.09538149833679199, 0.07363960891962051, 0.059295035898685455,
      0.009999999776482582, 0.054999999701976776, 0.04674234986305237,
      0.009999999776482582]),
    ("InverseTimeDecay", {'initial_learning_rate': 0.1, 'decay_steps': 10, 'decay_rate': 0.5},
     [0.10000000149011612, 0.0952381044626236, 0.07999999821186066, 0.07407407462596893,
      0.06666667014360428, 0.05714285746216774, 0.04444444552063942, 0.01666666753590107]),
    ("InverseTimeDecay", {'initial_learning_rate': 0.1, 'decay_steps': 10, 'decay_rate': 0.5,
                          'staircase': True},
     [0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612,
      0.06666667014360428, 0.06666667014360428, 0.05000000074505806, 0.01666666753590107]),
    ("CosineDecay", {'initial_learning_rate': 0.1, 'decay_steps': 20},
     [0.10000000149011612, 0.09938441962003708, 0.08535534143447876, 0.07269952446222305,
      0.04999999701976776, 0.014644661918282509, 0.0, 0.0]),
    ("CosineDecay", {'initial_learning_rate': 0.1, 'decay_steps': 20, 'alpha': 0.1},
     [0.10000000149011612, 0.09944597631692886, 0.08681981265544891, 0.07542957365512848,
      0.05499999597668648, 0.023180196061730385, 0.010000000707805157,
      0.010000000707805157]),
    ("CosineDecay", {'initial_learning_rate': 0.0, 'decay_steps': 20, 'warmup_target': 0.2,
                     'warmup_steps': 10},
     [0.0, 0.020000001415610313, 0.10000000149011612, 0.14000000059604645,
      0.20000000298023224, 0.17071068286895752, 0.029289323836565018, 0.0]),
    ("CosineDecayRestarts", {'initial_learning_rate': 0.1, 'first_decay_steps': 5},
     [0.10000000149011612, 0.09045084565877914, 0.10000000149011612, 0.09045084565877914,
      0.04999999701976776, 0.10000000149011612, 0.04999999701976776, 0.07777851074934006]),
    ("CosineDecayRestarts", {'initial_learning_rate': 0.1, 'first_decay_steps': 5,
                             't_mul': 1.0, 'm_mul': 0.5, 'alpha': 0.1},
     [0.10000000149011612, 0.09140576422214508, 0.055000003427267075, 0.03945288434624672,
      0.032499998807907104, 0.021250000223517418, 0.012812499888241291,
      0.010000086389482021]),
]
IDS = [f"{name}-{i}" for i, (name, _, _) in enumerate(REFERENCE)]


@pytest.mark.parametrize("name,kwargs,expected", REFERENCE, ids=IDS)
def test_values_match_tf_keras(name, kwargs, expected):
    schedule = getattr(schedules, name)(**kwargs)
    got = [float(schedule(step)) for step in STEPS]
    np.testing.assert_allclose(got, expected, rtol=2e-6, atol=1e-9)


@pytest.mark.parametrize("name,kwargs,expected", REFERENCE, ids=IDS)
def test_traced_schedule_follows_the_step_variable(name, kwargs, expected):
    schedule = getattr(schedules, name)(**kwargs)
    step = tf.Variable(0, dtype=tf.int64)
    rate = tf.function(lambda: schedule(step))
    got = []
    for value in STEPS:
        step.assign(value)
        got.append(float(rate()))
    np.testing.assert_allclose(got, expected, rtol=2e-6, atol=1e-9)
    assert rate.experimental_get_tracing_count() == 1


def test_result_dtype_follows_the_initial_rate():
    assert tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5)(3).dtype == tf.float32
    rate = tf.keras.optimizers.schedules.ExponentialDecay(tf.constant(0.1, tf.float64), 10, 0.5)(3)
    assert rate.dtype == tf.float64


@pytest.mark.parametrize("name,kwargs,expected", REFERENCE, ids=IDS)
def test_serialization_round_trip(name, kwargs, expected):
    schedule = getattr(schedules, name)(**kwargs)
    config = tf.keras.optimizers.schedules.serialize(schedule)
    assert config == {"module": "keras.optimizers.schedules", "class_name": name,
                      "config": schedule.get_config(), "registered_name": None}
    again = tf.keras.optimizers.schedules.deserialize(config)
    assert type(again) is type(schedule) and again.get_config() == schedule.get_config()
    assert float(again(7)) == float(schedule(7))


def test_get_config_keys_match_tf_keras():
    assert tf.keras.optimizers.schedules.CosineDecay(0.1, 10).get_config() == {
        "initial_learning_rate": 0.1, "decay_steps": 10, "alpha": 0.0, "name": None,
        "warmup_target": None, "warmup_steps": 0}
    assert tf.keras.optimizers.schedules.CosineDecayRestarts(0.1, 10).get_config() == {
        "initial_learning_rate": 0.1, "first_decay_steps": 10, "t_mul": 2.0, "m_mul": 1.0,
        "alpha": 0.0, "name": None}


def test_piecewise_constant_needs_one_more_value_than_boundaries():
    with pytest.raises(ValueError, match="The length of boundaries should be 1 less than the "
                                         r"length of values. Received: boundaries=\[1, 2\] of "
                                         r"length 2, and values=\[1.0\] of length 1."):
        tf.keras.optimizers.schedules.PiecewiseConstantDecay([1, 2], [1.0])


def test_custom_schedule_and_base_errors():
    class Halving(tf.keras.optimizers.schedules.LearningRateSchedule):
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, step):
            return self.rate / (1 + tf.cast(step, tf.float32))

        def get_config(self):
            return {"rate": self.rate}

    schedule = Halving(1.0)
    assert float(schedule(1)) == 0.5
    assert Halving.from_config(schedule.get_config()).rate == 1.0
    config = tf.keras.optimizers.schedules.serialize(schedule)
    assert config["class_name"] == "Halving" and config["module"] == __name__
    assert tf.keras.optimizers.schedules.deserialize(
        config, custom_objects={"Halving": Halving}).rate == 1.0

    class Incomplete(tf.keras.optimizers.schedules.LearningRateSchedule):
        pass

    with pytest.raises(NotImplementedError, match="must override `__call__"):
        Incomplete()(1)
    with pytest.raises(NotImplementedError, match="must override `get_config"):
        Incomplete().get_config()


def test_unknown_schedule_name():
    with pytest.raises(ValueError, match="Unknown decay: 'Nope'"):
        tf.keras.optimizers.schedules.deserialize({"class_name": "Nope", "config": {}})


def test_schedule_set_after_a_float_learning_rate():
    opt = tf.keras.optimizers.SGD(0.1)
    opt.learning_rate = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5)
    v = tf.Variable([1.0, -2.0])
    for _ in range(3):
        opt.apply_gradients([(tf.constant([0.5, 0.5]), v)])
    # steps at rates 0.1, 0.05, 0.025 (tf_keras: [0.9125, -2.0875])
    np.testing.assert_allclose(v.numpy(), [0.9125, -2.0875], rtol=1e-6)
    assert float(opt.learning_rate) == pytest.approx(0.025)
