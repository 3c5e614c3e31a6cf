"""`tf.Variable` arguments and methods as the variables guide uses them (expected values from
TF 2.21)."""
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
