"""Writes TF's checkpoint and meta graph of `meta_graph_program`
(`tests/compat/v1_train_programs.py`) into `v1_meta/`, with the values TF computes after
restoring them into `v1_meta.json`. Run with TensorFlow 2.x: ``python make_v1_meta_data.py``."""
import json
import os
import sys

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_train_programs import META_X, meta_graph_program  # noqa: E402

tf.disable_eager_execution()
g, init, train, saver, x, y = meta_graph_program(tf)
with tf.Session(graph=g) as sess:
    sess.run(init)
    for _ in range(2):
        sess.run(train, {x: META_X})
    prefix = saver.save(sess, os.path.join(HERE, "v1_meta", "model"), global_step=2)
    want = sess.run(y, {x: META_X}).tolist()
# what TF's own import_meta_graph gives
with tf.Graph().as_default() as g2:
    restorer = tf.train.import_meta_graph(prefix + ".meta")
    with tf.Session() as sess:
        restorer.restore(sess, prefix)
        imported = sess.run("y:0", {"x:0": META_X}).tolist()
        names = sorted(v.name for v in tf.global_variables())
        trainable = sorted(v.name for v in tf.trainable_variables())
        outputs = [t.name for t in tf.get_collection("outputs")]
        step = int(sess.run("global_step/Read/ReadVariableOp:0"))
os.remove(os.path.join(HERE, "v1_meta", "checkpoint"))  # (it names an absolute path)
with open(os.path.join(HERE, "v1_meta.json"), "w") as f:
    json.dump({"y": want, "imported": imported, "globals": names, "trainables": trainable,
               "outputs": outputs, "step": step}, f, indent=1, sort_keys=True)
