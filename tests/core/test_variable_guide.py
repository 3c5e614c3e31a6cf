"""`tf.Variable` arguments and methods as the variables guide uses them (expected values from
TF 2.21)."""
import re

import pytest

import eagerflow as tf


@pytest.mark.parametrize("kwargs, message", [
    ({"aggregation": "foo"}, "Invalid variable aggregation mode: foo for variable: None"),
    ({"aggregation": "mean", "name": "zz"},
     "Invalid variable aggregation mode: mean for variable: zz"),
    ({"synchronization": "foo"}, "Invalid variable synchronization mode: foo for variable: None"),
])
def test_invalid_aggregation_or_synchronization_raises(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tf.Variable(1.0, **kwargs)


def test_aggregation_and_synchronization_from_values_and_none():
    v = tf.Variable(1.0, aggregation=3, synchronization=1)
    assert v.aggregation is tf.VariableAggregation.ONLY_FIRST_REPLICA
    assert v.synchronization is tf.VariableSynchronization.NONE
    v = tf.Variable(1.0, aggregation=None, synchronization=None)
    assert v.aggregation is tf.compat.v1.VariableAggregation.NONE
    assert v.synchronization is tf.VariableSynchronization.AUTO
    assert str(v.aggregation) == "VariableAggregation.NONE"
    v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ)
    assert v.trainable is False


def test_is_initialized_is_a_bool_tensor():
    v = tf.Variable(1.0)
    out = v.is_initialized()
    assert isinstance(out, tf.Tensor) and out.dtype == tf.bool and bool(out)
    assert bool(tf.function(lambda: v.is_initialized())())


@pytest.mark.parametrize("statement, hint", [
    ("v += 1.", "variable.assign_add(value)"), ("v -= 1.", "variable.assign_sub(value)"),
    ("v *= 2.", "var.assign(var * value)"), ("v /= 2.", "var.assign(var / value)"),
    ("v **= 2.", "var.assign(var ** value)")])
def test_in_place_operators_refuse_instead_of_rebinding(statement, hint):
    # Rebinding `v` to a tensor would leave the variable unchanged without a word.
    scope = {"v": tf.Variable(2.0)}
    with pytest.raises(RuntimeError, match=re.escape(hint)):
        exec(statement, scope)
    assert isinstance(scope["v"], tf.Variable) and float(scope["v"]) == 2.0


def test_floor_division_and_modulo_in_place_rebind_as_in_tf():
    v = tf.Variable(7.0)
    w = v
    w //= 2.0
    assert float(w) == 3.0 and float(v) == 7.0 and not isinstance(w, tf.Variable)


def test_batch_scatter_update_method():
    v = tf.Variable([1.0, 2.0, 3.0])
    out = v.batch_scatter_update(tf.IndexedSlices([0.0], [1]))
    assert out.numpy().tolist() == [1.0, 0.0, 3.0] and v.numpy().tolist() == [1.0, 0.0, 3.0]
    m = tf.Variable([[1, 2, 3], [4, 5, 6]])

    @tf.function
    def step():
        m.batch_scatter_update(tf.IndexedSlices([[30], [40]], [[2], [0]]))
        return m.read_value()

    assert step().numpy().tolist() == [[1, 2, 30], [40, 5, 6]]
    with pytest.raises(TypeError, match="must be a `tf.IndexedSlices`"):
        v.batch_scatter_update([1.0])


def test_initial_value_shape_mismatch_names_the_shape_argument():
    with pytest.raises(ValueError, match=re.escape("supplied `shape` argument ([3])")):
        tf.Variable([1.0, 2.0], shape=[3])
