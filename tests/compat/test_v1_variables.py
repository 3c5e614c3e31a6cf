"""TF 2 variables and Keras layers made in a TF 1 graph, against TF's recorded results
(`data/make_v1_variables_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_variables_programs import tf2_variables_in_a_graph

with open(os.path.join(os.path.dirname(__file__), "data", "v1_variables.json")) as _f:
    RECORDED = json.load(_f)


def test_tf2_variables_in_a_v1_graph_are_the_graphs():
    got, want = tf2_variables_in_a_graph(tf1, tf), dict(RECORDED["tf2_variables_in_a_graph"])
    for key in ("a", "b"):
        for g, w in zip(got.pop(key), want.pop(key), strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-6)
    assert got == want


def test_variables_are_eager_outside_graphs_and_the_default_graphs_in_graph_mode():
    v = tf.Variable(1.0)
    assert v.numpy() == 1.0
    tf1.disable_eager_execution()
    w = tf.Variable(5.0)
    assert w in tf1.global_variables()
    with tf1.Session() as sess:
        sess.run(w.initializer)
        assert sess.run(w) == 5.0


def test_keras_metric_called_in_a_graph_returns_its_updated_result():
    # A TF 1 graph runs only what a fetch needs: the call's result must wait for the update
    # (without it the fetch read the untouched total: 0.0).
    tf1.disable_eager_execution()
    mean, acc = tf.keras.metrics.Mean(), tf.keras.metrics.BinaryAccuracy()
    x = tf1.placeholder(tf.float32, [None])
    value, accuracy = mean(x), acc([1.0, 0.0, 1.0], x)
    with tf1.Session() as sess:
        # (a Keras metric's variables are in no collection, as in TF 1's Keras)
        assert tf1.global_variables() == []
        sess.run(tf1.variables_initializer(mean.variables + acc.variables))
        assert sess.run(value, {x: [1.0, 2.0, 3.0]}) == 2.0
        assert sess.run(value, {x: [6.0]}) == 3.0
        assert sess.run(mean.result()) == 3.0
        assert sess.run(accuracy, {x: [0.9, 0.2, 0.1]}) == pytest.approx(2 / 3)


@pytest.mark.parametrize("make", ["Variable", "get_variable"])
def test_read_value_in_a_graph_is_named_and_typed_as_tfs(make):
    # Names and op types as TF 2.21 makes them: a resource variable's read_value() is an
    # `Identity` of a fresh `Read/ReadVariableOp`; a ref variable's is an `Identity` named
    # `read` (`s_1/read:0` in the second scope).
    g = tf1.Graph()
    with g.as_default():
        if make == "Variable":
            res = tf1.Variable(3.0, name="res")
            ref = tf1.Variable(4.0, name="ref", use_resource=False)
        else:
            res = tf1.get_variable("res", [], initializer=tf1.constant_initializer(3.0))
            ref = tf1.get_variable("ref", [], initializer=tf1.constant_initializer(4.0),
                                   use_resource=False)
        with tf1.name_scope("s"):
            r1 = res.read_value()
        r2 = res.read_value()
        with tf1.name_scope("s"):
            r3 = ref.read_value()
        with tf1.control_dependencies([res.assign(5.0)]):
            r4 = res.read_value()
        init = tf1.global_variables_initializer()
    got = [(t.name, t.op.type) for t in (r1, r2, r3, r4)]
    assert got == [("s/Identity:0", "Identity"), ("Identity:0", "Identity"),
                   ("s_1/read:0", "Identity"), ("Identity_1:0", "Identity")]
    assert r1.op.inputs[0].name == "s/Read/ReadVariableOp:0"
    assert r1.op.inputs[0].op.type == "ReadVariableOp"
    assert r2.op.inputs[0].name == "Read/ReadVariableOp:0"
    assert r4.op.inputs[0].name == "Read_1/ReadVariableOp:0"
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        assert sess.run(["s/Identity:0", "s_1/read:0"]) == [3.0, 4.0]
        assert sess.run("Identity_1:0") == 5.0


def test_reentering_a_scope_by_name_restarts_the_default_names_below_it():
    # (as TF: a tower built twice in ``model``, the second time reusing, names its layers
    # ``model/dense`` again and shares their variables)
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3])
        names = []
        for i in range(2):
            with v1.variable_scope("model", reuse=i > 0):
                y = v1.layers.dense(x, 2)
                with v1.variable_scope(None, default_name="blk") as s:
                    names.append(s.name)
        assert names == ["model/blk", "model/blk"]
        assert [v.name for v in v1.global_variables()] == ["model/dense/kernel:0",
                                                           "model/dense/bias:0"]
        assert y.name == "model_1/dense/BiasAdd:0"
        with v1.variable_scope("a"):
            with v1.variable_scope(None, default_name="b") as first:
                pass
        with v1.variable_scope("a"):
            with v1.variable_scope(None, default_name="b") as s:
                assert s.name == "a/b"
            with v1.variable_scope(None, default_name="b") as s:
                assert s.name == "a/b_1"
        for _ in range(2):  # (a scope object reentered keeps the counts it found)
            with v1.variable_scope(first):
                with v1.variable_scope(None, default_name="c") as s:
                    assert s.name == "a/b/c"
        with v1.variable_scope(None, default_name="a") as s:
            assert s.name == "a_1"


def test_variable_scopes_reuse_automatically_executing_eagerly():
    v1 = tf.compat.v1
    assert repr(v1.AUTO_REUSE) == "<_ReuseMode.AUTO_REUSE: 1>"
    assert v1.get_variable_scope().reuse is v1.AUTO_REUSE
    with v1.variable_scope("b", reuse=True) as scope:
        assert scope.reuse is v1.AUTO_REUSE
        assert v1.get_variable("x", [1]).name == "b/x:0"  # (made: no error, as in TF 2)
    with tf.Graph().as_default():
        assert v1.get_variable_scope().reuse is False
        with v1.variable_scope("b", reuse=True) as scope:
            assert scope.reuse is True
            with pytest.raises(ValueError, match="Variable b/x does not exist"):
                v1.get_variable("x", [1])


def test_numpy_of_a_variable_while_a_graph_is_built_is_tfs_not_implemented_error():
    # As TF: a variable has no NumPy value in a graph (TF 1's, or a function's trace).
    g = tf.compat.v1.Graph()
    with g.as_default():
        v = tf.compat.v1.Variable(1.0)
        with pytest.raises(NotImplementedError, match="only available when eager execution"):
            v.numpy()
    w = tf.Variable(2.0)

    @tf.function
    def f():
        with pytest.raises(NotImplementedError):
            w.numpy()
        return w + 1

    assert float(f()) == 3.0 and w.numpy() == 2.0
