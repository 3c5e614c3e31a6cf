"""TF 1 training graphs TF wrote (`data/make_v1_train_graphs_data.py`: a linear model and each
v1 optimizer's `minimize`), imported and trained here: TF's `ResourceApply*` ops with their
attrs (`use_locking`, `use_nesterov`, `update_slots`) give TF's weights."""
import json
import os

import numpy as np
import pytest
from google.protobuf import text_format

import eagerflow as tf
import eagerflow.compat.v1 as tf1

DATA = os.path.join(os.path.dirname(__file__), "data")
with open(os.path.join(DATA, "v1_train_graphs.json")) as _f:
    RECORDED = json.load(_f)


@pytest.mark.parametrize("key", sorted(RECORDED["results"]))
def test_trains_tfs_v1_training_graph_to_tfs_weights(key):
    want = RECORDED["results"][key]
    graph_def = tf1.GraphDef()
    with open(os.path.join(DATA, "v1_train_graphs", key + ".pbtxt")) as f:
        text_format.Parse(f.read(), graph_def)
    with tf1.Graph().as_default() as g:
        tf1.import_graph_def(graph_def, name="")
        assert {op.type for op in g.get_operations() if "Apply" in op.type} == set(want["ops"])
        feed = {"x:0": RECORDED["x"], "y:0": RECORDED["y"]}
        with tf1.Session() as sess:
            sess.run(want["init"])
            losses = [sess.run("loss:0", feed)]
            for _ in range(2):
                assert sess.run("train", feed) is None
                losses.append(sess.run("loss:0", feed))
            w = sess.run("w/Read/ReadVariableOp:0")
    np.testing.assert_allclose(w, want["w"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(losses, want["losses"], rtol=1e-5, atol=1e-6)


def test_raw_ops_take_tfs_training_attrs():
    var, accum = tf.Variable([1.0, 2.0]), tf.Variable([0.0, 0.0])
    tf.raw_ops.ResourceApplyGradientDescent(var=var.handle, alpha=0.5, delta=tf.constant([1.0, 1.0]),
                                            use_locking=True)
    np.testing.assert_allclose(var.numpy(), [0.5, 1.5])
    tf.raw_ops.ResourceApplyMomentum(var=var.handle, accum=accum.handle, lr=0.5,
                                     grad=tf.constant([1.0, 1.0]), momentum=0.9,
                                     use_locking=False, use_nesterov=True)
    np.testing.assert_allclose(var.numpy(), [-0.45, 0.55])  # TF's values
    tf.raw_ops.ResourceApplyAdagrad(var=var.handle, accum=accum.handle, lr=0.5,
                                    grad=tf.constant([1.0, 1.0]), update_slots=False)
    np.testing.assert_allclose(var.numpy(), [-0.95, 0.05], rtol=1e-6)
    np.testing.assert_allclose(accum.numpy(), [1.0, 1.0])
