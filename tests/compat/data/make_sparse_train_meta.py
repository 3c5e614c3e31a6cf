"""Writes the meta graph of a TF 1 graph training an embedding by sparse updates (TF's
``ResourceSparseApplyFtrl``, ``...ProximalAdagrad`` and ``...RMSProp`` nodes) into
`sparse_train.meta`, and the embedding TF computes after one step of each into
`sparse_train.json`. Run with TensorFlow 2.x: ``python make_sparse_train_meta.py``."""
import json
import os

import numpy as np
import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))

tf.disable_eager_execution()
with tf.Graph().as_default() as g:
    emb = tf.get_variable("emb", initializer=np.arange(8, dtype=np.float32).reshape(4, 2) / 10,
                          use_resource=True)
    loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, [1, 3, 1]) ** 2)
    for i, opt in enumerate([tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01),
                             tf.train.ProximalAdagradOptimizer(0.1,
                                                               l1_regularization_strength=0.01),
                             tf.train.RMSPropOptimizer(0.1, momentum=0.5)]):
        tf.add_to_collection("train_ops", opt.minimize(loss, name=f"train{i}"))
    tf.add_to_collection("init", tf.global_variables_initializer())
    tf.train.export_meta_graph(os.path.join(HERE, "sparse_train.meta"), graph=g)
    with tf.Session() as sess:
        sess.run(tf.get_collection("init")[0])
        for op in tf.get_collection("train_ops"):
            sess.run(op)
        want = sess.run(emb).tolist()
    ops = sorted({n.op for n in g.as_graph_def().node if "Apply" in n.op})
with open(os.path.join(HERE, "sparse_train.json"), "w") as f:
    json.dump({"embedding": want, "ops": ops}, f)
