"""A v1 graph variable's ops (`op` is its ``VarHandleOp``) and the initialization checks
(``VarIsInitializedOp``, `report_uninitialized_variables`), against what TF gives
(`data/make_v1_variable_ops_data.py`)."""
import json
import os

import numpy as np
from google.protobuf import text_format

import eagerflow as tf
import eagerflow.compat.v1 as tf1

DATA = os.path.join(os.path.dirname(__file__), "data")
with open(os.path.join(DATA, "v1_variable_ops.json")) as _f:
    TF = json.load(_f)


def _names(array):
    return [s.decode() for s in array]


def test_variable_op_is_its_handle_op_and_initializer_its_assign():
    with tf1.Graph().as_default() as g:
        v = tf1.Variable([1.0, 2.0], name="v")
        w = tf1.get_variable("w", [2, 3], use_resource=True)
        assert [v.op.name, v.op.type, w.op.name, w.op.type] == TF["op"]
        assert v.op.graph is g and v.op is v.op
        assert g.get_operation_by_name("v") is v.op
        out = v.op.outputs[0]
        assert [out.dtype.name, out.shape.as_list()] == TF["op_output"]
        assert [v.op.get_attr("shared_name").decode(),
                v.op.get_attr("dtype").name] == TF["op_attrs"]
        assert [v.initializer.name, v.initializer.type] == TF["initializer"]
        assert [v.initial_value.name, v.initial_value.op.type] == TF["initial_value"]
        assert v.value().op.type == TF["value"]
        assert v.assign([3.0, 4.0], read_value=False).type == TF["assign_no_read"]
        with tf1.Session() as sess:
            sess.run(v.initializer)
            np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
            assert sess.run(v.op) is None


def test_initialization_checks_give_tfs_answers():
    with tf1.Graph().as_default():
        v = tf1.Variable([1.0, 2.0], name="v")
        w = tf1.get_variable("w", [2, 3], use_resource=True)
        ready = tf1.is_variable_initialized(v)
        assert [ready.name, ready.op.type, ready.dtype.name,
                ready.shape.as_list()] == TF["is_initialized"]
        report = tf1.report_uninitialized_variables()
        assert [report.dtype.name, report.shape.as_list()] == TF["report"]
        checked = tf1.assert_variables_initialized()
        assert [checked.dtype.name, checked.shape.as_list()] == TF["assert"]
        with tf1.Session() as sess:
            assert [_names(sess.run(report)), bool(sess.run(ready)),
                    _names(sess.run(tf1.report_uninitialized_variables([w])))] == TF["before"]
            sess.run(v.initializer)
            assert _names(sess.run(report)) == TF["half"]
            sess.run(w.initializer)
            assert [_names(sess.run(report)), bool(sess.run(ready)),
                    sess.run(checked).tolist()] == TF["after"]
    with tf1.Graph().as_default():
        empty = tf1.report_uninitialized_variables()
        with tf1.Session() as sess:
            assert [empty.name, empty.shape.as_list(), sess.run(empty).tolist()] == TF["empty"]
        assert (tf1.assert_variables_initialized() is None) == TF["assert_empty"]


def test_eager_variable_is_initialized():
    assert bool(tf1.is_variable_initialized(tf.Variable(1.0))) is True


def test_imported_tf_graph_keeps_its_var_is_initialized_ops():
    graph_def = tf1.GraphDef()
    with open(os.path.join(DATA, "v1_train_graphs", "sgd.pbtxt")) as f:
        text_format.Parse(f.read(), graph_def)
    with tf1.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        check = g.get_tensor_by_name("w/IsInitialized/VarIsInitializedOp:0")
        with tf1.Session() as sess:
            assert not sess.run(check)
            sess.run("init")
            assert sess.run(check)


def test_fetching_a_variable_with_an_update_gives_its_value_before_the_update():
    with tf1.Graph().as_default():
        v = tf1.Variable([1.0, 2.0], name="v")
        update = v.assign_add([1.0, 1.0], read_value=False)
        late_read = v.read_value()  # (made after the update, waiting on nothing)
        added = tf1.assign_add(v, [10.0, 10.0])  # (its value read after its update)
        with tf1.Session() as sess:
            sess.run(v.initializer)
            got = [[None if x is None else x.tolist() for x in sess.run(fetches)]
                   for fetches in ([v, update], [update, late_read], [v, added],
                                   [update, v + 0.0])]
    assert got == TF["fetch_with_update"]
