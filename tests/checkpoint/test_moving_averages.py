"""tf.train.ExponentialMovingAverage against TF 2.21's values, names and errors."""
import inspect

import numpy as np
import pytest

import eagerflow as tf


def test_signature_and_names():
    assert str(inspect.signature(tf.train.ExponentialMovingAverage)) == (
        "(decay, num_updates=None, zero_debias=False, name='ExponentialMovingAverage')")
    ema = tf.train.ExponentialMovingAverage(0.9)
    w, u = tf.Variable([1.0, 2.0], name="w"), tf.Variable(3.0)
    assert ema.apply([w, u]) is None
    shadow = ema.average(w)
    assert shadow.name == "w/ExponentialMovingAverage:0" and not shadow.trainable
    np.testing.assert_array_equal(shadow, [1.0, 2.0])
    assert ema.average_name(w) == "w/ExponentialMovingAverage"
    assert ema.average_name(u) == "Variable/ExponentialMovingAverage"
    assert ema.average_name(tf.Variable(1.0, name="later")) == "later/ExponentialMovingAverage"
    assert ema.average(tf.Variable(1.0)) is None
    assert ema.name == "ExponentialMovingAverage"
    restore = ema.variables_to_restore()
    assert restore["w/ExponentialMovingAverage"] is w
    assert restore["Variable/ExponentialMovingAverage"] is u


def test_updates():
    ema = tf.train.ExponentialMovingAverage(0.9)
    w = tf.Variable([1.0, 2.0])
    ema.apply([w])
    w.assign([2.0, 4.0])
    ema.apply([w])
    np.testing.assert_allclose(ema.average(w), [1.1, 2.2], rtol=1e-6)

    @tf.function
    def step():
        w.assign_add([1.0, 1.0])
        ema.apply([w])

    step()
    np.testing.assert_allclose(ema.average(w), [1.29, 2.48], rtol=1e-6)


def test_num_updates_caps_the_decay():
    ema = tf.train.ExponentialMovingAverage(0.99, num_updates=tf.Variable(0, dtype=tf.int64),
                                            zero_debias=True, name="Avg")
    x = tf.Variable(1.0)
    ema.apply([x])
    x.assign(2.0)
    ema.apply([x])  # decay min(0.99, 1 / 10): 1 + (2 - 1) * 0.9
    assert float(ema.average(x)) == pytest.approx(1.9)
    assert ema.average_name(x) == "Variable/Avg"


def test_errors():
    ema = tf.train.ExponentialMovingAverage(0.9)
    with pytest.raises(TypeError, match="does not support non-Variable tensors"):
        ema.apply([tf.constant(1.0)])
    with pytest.raises(TypeError, match="The variables must be half, float, or double: "
                                        "Variable:0"):
        ema.apply([tf.Variable(1)])


def test_checkpoint_of_a_shadow(tmp_path):
    ema = tf.train.ExponentialMovingAverage(0.5)
    w = tf.Variable([4.0], name="w")
    ema.apply([w])
    w.assign([0.0])
    ema.apply([w])
    path = tf.train.Checkpoint(v=w, avg=ema.average(w)).save(str(tmp_path / "c"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert "avg/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert tf.train.load_variable(path, "avg/.ATTRIBUTES/VARIABLE_VALUE").tolist() == [2.0]


def test_saver_restores_averages_into_variables(tmp_path):
    w = tf.Variable([4.0], name="w")
    ema = tf.train.ExponentialMovingAverage(0.5)
    ema.apply([w])
    w.assign([0.0])
    ema.apply([w])
    path = tf.compat.v1.train.Saver([w, ema.average(w)]).save(None, str(tmp_path / "m"))
    assert sorted(tf.train.list_variables(path)) == [("w", [1]),
                                                     ("w/ExponentialMovingAverage", [1])]
    tf.compat.v1.train.Saver(ema.variables_to_restore([w])).restore(None, path)
    assert w.numpy().tolist() == [2.0]
