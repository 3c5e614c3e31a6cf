"""Writes `v1_ref_meta/`: a checkpoint and meta graph TF 1 programs write
(`disable_v2_behavior`: ref variables, ``Assign``/``ApplyAdam``/``ApplyMomentum`` nodes), of
`ref_training_program`, after one step; and `v1_ref_meta.json`: what TF computes after
importing it (``import_meta_graph`` + ``restore``) and running three more steps.
Run with TensorFlow 2.x: ``python make_v1_ref_meta_data.py``."""
import json
import os
import shutil

import numpy as np
import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "v1_ref_meta")
X = [[1.0, 2.0], [0.5, -1.0]]


def ref_training_program():
    x = tf.placeholder(tf.float32, [None, 2], name="input")
    with tf.variable_scope("layer"):
        w = tf.get_variable("w", initializer=tf.constant([[1.0], [2.0]]))
        b = tf.get_variable("b", initializer=tf.constant([0.5]))
    y = tf.nn.sigmoid(tf.matmul(x, w) + b, name="output")
    loss = tf.reduce_mean(tf.square(y - 1.0), name="loss")
    step = tf.train.get_or_create_global_step()
    adam = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=step, name="adam_op")
    momentum = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, name="momentum_op")
    tf.add_to_collection("train_ops", adam)
    tf.add_to_collection("train_ops", momentum)


if __name__ == "__main__":
    tf.disable_v2_behavior()
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    with tf.Graph().as_default() as g:
        ref_training_program()
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            for op in tf.get_collection("train_ops"):  # (one update of the weights a run)
                sess.run(op, {"input:0": X})
            tf.train.Saver().save(sess, os.path.join(OUT, "model"), write_state=False)
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        path = os.path.join(OUT, "model")
        tf.train.import_meta_graph(path + ".meta").restore(sess, path)
        restored = sess.run("output:0", {"input:0": X})
        for _ in range(3):
            for op in tf.get_collection("train_ops"):
                sess.run(op, {"input:0": X})
        values = {v.name: np.asarray(sess.run(v)).tolist() for v in tf.global_variables()}
        ops = sorted({n.op for n in g.as_graph_def().node})
    with open(os.path.join(HERE, "v1_ref_meta.json"), "w") as f:
        json.dump({"restored": restored.tolist(), "values": values, "ops": ops}, f, indent=1)
