"""TF 1's meta graphs (``import_meta_graph``, ``export_meta_graph``, the ``.meta`` file each
`Saver.save` writes), against a meta graph and checkpoint TF wrote
(`data/make_v1_meta_data.py`)."""
import json
import os

import numpy as np

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_train_programs import META_X, meta_graph_program

DATA = os.path.join(os.path.dirname(__file__), "data")
TF_PREFIX = os.path.join(DATA, "v1_meta", "model-2")
with open(os.path.join(DATA, "v1_meta.json")) as _f:
    RECORDED = json.load(_f)


def test_imports_tfs_meta_graph_and_restores_its_checkpoint():
    with tf1.Graph().as_default() as g:
        saver = tf1.train.import_meta_graph(TF_PREFIX + ".meta")
        assert sorted(v.name for v in tf1.global_variables()) == RECORDED["globals"]
        assert sorted(v.name for v in tf1.trainable_variables()) == RECORDED["trainables"]
        assert [t.name for t in tf1.get_collection("outputs")] == RECORDED["outputs"]
        (train,) = tf1.get_collection("train_op")
        with tf1.Session() as sess:
            saver.restore(sess, TF_PREFIX)
            np.testing.assert_allclose(sess.run("y:0", {"x:0": META_X}), RECORDED["imported"],
                                       rtol=1e-6)
            step = g.get_tensor_by_name("global_step/Read/ReadVariableOp:0")
            assert sess.run(step) == RECORDED["step"]
            sess.run(train, {"x:0": META_X})  # (training goes on from the checkpoint)
            assert sess.run(step) == RECORDED["step"] + 1
        with tf1.Session() as fresh:  # (the initializers came along too)
            fresh.run(tf1.global_variables_initializer())
            np.testing.assert_allclose(fresh.run("y:0", {"x:0": META_X}), [[-1.5], [2.5]])


def test_import_scope_prefixes_the_names():
    with tf1.Graph().as_default():
        saver = tf1.train.import_meta_graph(TF_PREFIX + ".meta", import_scope="imported")
        assert "imported/layer/w:0" in [v.name for v in tf1.global_variables()]
        with tf1.Session() as sess:
            saver.restore(sess, TF_PREFIX)
            np.testing.assert_allclose(
                sess.run("imported/y:0", {"imported/x:0": META_X}), RECORDED["imported"],
                rtol=1e-6)


def test_saver_writes_a_meta_graph_that_imports_back(tmp_path):
    g, init, train, saver, x, y = meta_graph_program(tf1)
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        for _ in range(2):
            sess.run(train, {x: META_X})
        prefix = saver.save(sess, str(tmp_path / "model"), global_step=2)
    assert os.path.exists(prefix + ".meta")
    with tf1.Graph().as_default():
        restorer = tf1.train.import_meta_graph(prefix + ".meta")
        assert sorted(v.name for v in tf1.global_variables()) == RECORDED["globals"]
        with tf1.Session() as sess:
            restorer.restore(sess, prefix)
            np.testing.assert_allclose(sess.run("y:0", {"x:0": META_X}), RECORDED["y"],
                                       rtol=1e-6)


def test_export_meta_graph_as_text_with_chosen_collections(tmp_path):
    g, *_ = meta_graph_program(tf1)
    path = str(tmp_path / "graph.pbtxt")
    meta = tf1.train.export_meta_graph(path, graph=g, as_text=True,
                                       collection_list=["outputs"])
    assert list(meta.collection_def) == ["outputs"]
    assert 'node_list' in open(path).read()
    nodes = {n.name: n.op for n in meta.graph_def.node}
    assert nodes["layer/w"] == "VarHandleOp" and nodes["y"] == "Identity"
    with tf1.Graph().as_default():
        assert tf1.train.import_meta_graph(path) is None  # (no variables collected)
        assert [t.name for t in tf1.get_collection("outputs")] == ["y:0"]


def test_the_meta_graph_holds_tfs_save_and_restore_nodes(tmp_path):
    g, init, train, saver, x, y = meta_graph_program(tf1)
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        prefix = saver.save(sess, str(tmp_path / "model"), global_step=2)
    with open(prefix + ".meta", "rb") as f:
        ours = tf1.MetaGraphDef.FromString(f.read())
    with open(TF_PREFIX + ".meta", "rb") as f:
        theirs = tf1.MetaGraphDef.FromString(f.read())

    def save_nodes(meta):
        return {n.name: (n.op, [i for i in n.input]) for n in meta.graph_def.node
                if n.name.startswith("save/")}
    assert save_nodes(ours) == save_nodes(theirs)
    assert ours.saver_def == theirs.saver_def
    variables = {n.name: n.op for n in ours.graph_def.node if n.op == "VarHandleOp"}
    assert variables == {"layer/w": "VarHandleOp", "layer/b": "VarHandleOp",
                         "global_step": "VarHandleOp"}


def test_a_sharded_save_writes_tfs_files(tmp_path):
    with tf1.Graph().as_default():
        w = tf1.get_variable("w", [2], initializer=tf1.ones_initializer())
        saver = tf1.train.Saver(sharded=True)
        with tf1.Session() as sess:
            sess.run(w.initializer)
            prefix = saver.save(sess, str(tmp_path / "model"), write_meta_graph=False)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "model.data-00000-of-00001",
                                            "model.index"]
    assert saver.as_saver_def().sharded
    assert tf.train.load_checkpoint(prefix).get_tensor("w").tolist() == [1.0, 1.0]


def test_max_to_keep_removes_the_old_meta_graphs_too(tmp_path):
    with tf1.Graph().as_default():
        w = tf1.get_variable("w", [2], initializer=tf1.ones_initializer())
        saver = tf1.train.Saver(max_to_keep=1)
        with tf1.Session() as sess:
            sess.run(w.initializer)
            for step in (1, 2):
                saver.save(sess, str(tmp_path / "model"), global_step=step)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "model-2.data-00000-of-00001",
                                            "model-2.index", "model-2.meta"]


def test_imports_and_runs_tfs_sparse_training_ops():
    # TF's sparse update nodes carry their indices' dtype (Tindices) apart from T
    with open(os.path.join(DATA, "sparse_train.json")) as f:
        recorded = json.load(f)
    with tf1.Graph().as_default() as g:
        tf1.train.import_meta_graph(os.path.join(DATA, "sparse_train.meta"))
        ops = sorted({op.type for op in g.get_operations() if "Apply" in op.type})
        assert ops == recorded["ops"]
        with tf1.Session() as sess:
            sess.run(tf1.get_collection("init")[0])
            for op in tf1.get_collection("train_ops"):
                sess.run(op)
            np.testing.assert_allclose(sess.run("emb/Read/ReadVariableOp:0"),
                                       recorded["embedding"], rtol=1e-6)
