"""`tf.VariableAggregation` is TF 2's enum (printed ``VariableAggregationV2``) and
`tf.compat.v1.VariableAggregation` TF 1's (with ``ONLY_FIRST_TOWER``), equal member by
member, as in TF."""
import pickle

import eagerflow as tf


def test_printed_forms():
    assert repr(tf.VariableAggregation.SUM) == "<VariableAggregationV2.SUM: 1>"
    assert str(tf.VariableAggregation.MEAN) == "VariableAggregationV2.MEAN"
    assert repr(tf.VariableSynchronization.ON_READ) == "<VariableSynchronization.ON_READ: 3>"
    v1 = tf.compat.v1.VariableAggregation
    assert repr(v1.SUM) == "<VariableAggregation.SUM: 1>"
    assert v1.ONLY_FIRST_TOWER is v1.ONLY_FIRST_REPLICA
    assert repr(v1.ONLY_FIRST_TOWER) == "<VariableAggregation.ONLY_FIRST_REPLICA: 3>"
    assert [m.name for m in v1] == ["NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"]


def test_v1_and_v2_members_are_equal():
    v1, v2 = tf.compat.v1.VariableAggregation, tf.VariableAggregation
    assert v2.SUM == v1.SUM and v1.SUM == v2.SUM and v2.SUM != v1.MEAN
    assert v1.SUM in {v2.SUM} and v2.MEAN in {v1.MEAN}
    assert pickle.loads(pickle.dumps(v1.MEAN)) is v1.MEAN
    assert pickle.loads(pickle.dumps(v2.MEAN)) is v2.MEAN


def test_variables_keep_tfs_defaults():
    assert repr(tf.Variable(1.0).aggregation) == "<VariableAggregation.NONE: 0>"
    given = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN).aggregation
    assert repr(given) == "<VariableAggregationV2.MEAN: 2>"
    dense = tf.keras.layers.Dense(2)
    dense.build([None, 3])
    assert repr(dense.kernel.aggregation) == "<VariableAggregationV2.NONE: 0>"
    assert repr(tf.keras.metrics.Mean().variables[0].aggregation) == \
        "<VariableAggregationV2.SUM: 1>"
