"""`tf.Variable` constructor options and their errors, as TF 2.21 gives them."""
import pytest

import eagerflow as tf


def test_on_read_variable_may_be_trainable():
    v = tf.Variable(1., synchronization=tf.VariableSynchronization.ON_READ, trainable=True)
    assert v.trainable
    assert not tf.Variable(1., synchronization=tf.VariableSynchronization.ON_READ).trainable


def test_aggregation_prints_as_tf2s_enum():
    v = tf.Variable(1., synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.MEAN)
    assert repr(v.aggregation) == "<VariableAggregationV2.MEAN: 2>"
    assert str(tf.VariableAggregation.SUM) == "VariableAggregationV2.SUM"
    assert repr(tf.VariableSynchronization.ON_READ) == "<VariableSynchronization.ON_READ: 3>"


def test_constructor_errors():
    with pytest.raises(ValueError, match="The `initial_value` arg to `tf.Variable` must be "
                                         "specified except when you are not providing a "
                                         "`variable_def`. You provided neither."):
        tf.Variable()
    with pytest.raises(ValueError, match="Argument `constraint` must be None or a callable. "
                                         "a callable. Got a <class 'int'>:  3"):
        tf.Variable(2., constraint=3)


class _Node(tf.Module):
    def __init__(self, n, kids=()):
        super().__init__(name=n)
        self.v = tf.Variable(1., name=n + "v")
        self.kids = list(kids)


def test_module_walks_depth_first_as_tf():
    m = _Node("a", [_Node("b", [_Node("d", [_Node("e")])]), _Node("c", [_Node("f")])])
    assert [v.name for v in m.variables] == ["av:0", "bv:0", "dv:0", "ev:0", "cv:0", "fv:0"]
    assert [s.name for s in m.submodules] == ["b", "c", "d", "e", "f"]
    paths = [p for p, _ in m._flatten(predicate=lambda x: isinstance(x, (tf.Variable, tf.Module)),
                                      with_path=True)]
    assert paths == [("kids", 0), ("kids", 1), ("v",), ("kids", 0, "kids", 0), ("kids", 0, "v"),
                     ("kids", 0, "kids", 0, "kids", 0), ("kids", 0, "kids", 0, "v"),
                     ("kids", 0, "kids", 0, "kids", 0, "v"), ("kids", 1, "kids", 0),
                     ("kids", 1, "v"), ("kids", 1, "kids", 0, "v")]
    assert [v.name for v in m._flatten(recursive=False,
                                       predicate=lambda x: isinstance(x, tf.Variable))] == ["av:0"]


def test_a_variable_not_lifted_is_the_functions_own_made_anew_each_run():
    @tf.function
    def counts():
        v = tf.Variable(1.0, experimental_enable_variable_lifting=False)
        v.assign_add(1.0)
        return v.read_value()
    # TF 2.21: 2.0 2.0 (each run assigns the initial value again; no singleton error)
    assert [counts().numpy(), counts().numpy()] == [2.0, 2.0]

    @tf.function
    def lifted():
        return tf.Variable(1.0).read_value()
    with pytest.raises(ValueError, match="only supports singleton tf.Variables"):
        lifted()
    eager = tf.Variable(3.0, experimental_enable_variable_lifting=False)
    assert eager.numpy() == 3.0


def test_an_initial_value_of_another_dtype_is_named_in_the_error():
    with pytest.raises(ValueError, match="^initial_value: Tensor conversion requested dtype "
                                         "int32 for Tensor with dtype float32"):
        tf.Variable(tf.zeros([2]), dtype=tf.int32)
    assert tf.Variable([1, 2], dtype=tf.float16).dtype == tf.float16
