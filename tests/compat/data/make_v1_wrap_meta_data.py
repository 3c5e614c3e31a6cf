"""Writes TF 1 checkpoints and meta graphs of `meta_graph_program`
(`tests/compat/v1_train_programs.py`) into `v1_wrap_meta/<kind>/` (``resource``: TF 2's
resource variables, ``ref``: TF 1's reference variables, ``sharded``: those of a sharded `Saver`), and into `v1_wrap_meta.json` what
TF 2 gives when it loads them as TF documents: `tf.compat.v1.wrap_function` around
`import_meta_graph`, the saver's restore operation pruned out and run on the checkpoint's
path, then a training step and a save pruned out the same way.
Run with TensorFlow 2.x: ``python make_v1_wrap_meta_data.py``."""
import json
import os
import shutil
import sys
import tempfile

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_train_programs import META_X, meta_graph_program  # noqa: E402


def write(kind):
    folder = os.path.join(HERE, "v1_wrap_meta", kind)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    if kind == "ref":
        tf.compat.v1.disable_resource_variables()
    g, init, train, saver, x, y = meta_graph_program(tf.compat.v1)
    tf.compat.v1.enable_resource_variables()
    if kind == "sharded":  # (its ops under ``save_1/``)
        with g.as_default():
            saver = tf.compat.v1.train.Saver(sharded=True)
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(init)
        for _ in range(2):
            sess.run(train, {x: META_X})
        prefix = saver.save(sess, os.path.join(folder, "model"), global_step=2)
    os.remove(os.path.join(folder, "checkpoint"))  # (it names an absolute path)
    return prefix


def wrapped_run(prefix):
    box = {}

    def imports():
        box["saver"] = tf.compat.v1.train.import_meta_graph(prefix + ".meta")

    wrapped = tf.compat.v1.wrap_function(imports, [])
    g, saver_def = wrapped.graph, box["saver"].saver_def

    def values():
        return {v.name: v.numpy().tolist() for v in wrapped.variables}

    out = {"saver_def": [saver_def.filename_tensor_name, saver_def.save_tensor_name,
                         saver_def.restore_op_name],
           "variables": sorted(v.name for v in wrapped.variables),
           "trainable": sorted(v.name for v in wrapped.trainable_variables)}
    wrapped.prune([], g.get_operation_by_name("init"))()
    out["initialized"] = values()
    restore = wrapped.prune(g.as_graph_element(saver_def.filename_tensor_name),
                            g.as_graph_element(saver_def.restore_op_name))
    restore(tf.constant(prefix))
    out["restored"] = values()
    predict = wrapped.prune("x:0", "y:0")
    out["y"] = predict(tf.constant(META_X)).numpy().tolist()
    step = wrapped.prune("x:0", ["loss:0", "train"])
    out["loss"] = float(step(tf.constant(META_X))[0].numpy())
    out["trained"] = values()
    out["y_trained"] = predict(tf.constant(META_X)).numpy().tolist()
    folder = tempfile.mkdtemp()
    save = wrapped.prune(g.as_graph_element(saver_def.filename_tensor_name),
                         g.as_graph_element(saver_def.save_tensor_name))
    saved = os.path.join(folder, "again")
    out["save_returns"] = os.path.basename(save(tf.constant(saved)).numpy().decode())
    out["saved"] = {name: tf.train.load_variable(saved, name).tolist()
                    for name, _ in tf.train.list_variables(saved)}
    shutil.rmtree(folder)
    return out


recorded = {kind: wrapped_run(write(kind)) for kind in ("resource", "ref", "sharded")}
with open(os.path.join(HERE, "v1_wrap_meta.json"), "w") as f:
    json.dump(recorded, f, indent=1, sort_keys=True)
