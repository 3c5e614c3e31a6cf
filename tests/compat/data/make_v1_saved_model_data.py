"""Records what TensorFlow 2.x computes from the v1 SavedModel programs
(`tests/compat/v1_saved_model_programs.py`) in its own graphs, and from what eagerflow
wrote of them (make_v1_saved_model_ours.py, run first): TF 1's loader
(``tf.compat.v1.saved_model.load`` in a Session), TF 2's ``tf.saved_model.load``, and the
GraphDef imported with ``import_graph_def`` and run. Writes ``v1_saved_model.json`` and
TF's GraphDef of the training graph, ``v1_saved_model/tf_graph.pb``.
Run with TensorFlow 2.x: ``python make_v1_saved_model_data.py``."""
import json
import os
import shutil
import sys
import tempfile

import numpy as np
import tensorflow as tf2
import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from v1_saved_model_programs import (  # noqa: E402
    A, C, GRAPH_X, X, builder_program, graph_program, run_graph, simple_save_program)

DATA = os.path.join(HERE, "v1_saved_model")


def lists(d):
    return {k: np.asarray(v).tolist() for k, v in d.items()}


def v1_session(path, tags, signature, feeds, local=True):
    """Loads `path` in a TF 1 Session and runs `signature` on `feeds` (by input key)."""
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.load(sess, tags, path)
        sig = meta.signature_def[signature]
        out = sess.run({k: v.name for k, v in sig.outputs.items()},
                       {sig.inputs[k].name: v for k, v in feeds.items()})
        variables = {v.op.name: sess.run(v).tolist() for v in tf.global_variables()}
        if local:  # (set by the MetaGraph's main op: ``serve``'s)
            variables.update({v.op.name: sess.run(v).tolist() for v in tf.local_variables()})
    return {"outputs": lists(out), "variables": variables}


def v2_load(path, signature, feeds):
    m = tf2.saved_model.load(path)
    out = m.signatures[signature](**{k: tf2.constant(v) for k, v in feeds.items()})
    return {"outputs": lists(out), "variables": sorted(v.name for v in m.variables)}


def main():
    record = {}
    ours = os.path.join(DATA, "ours_simple_save")
    # (TF 2's loader first: it fails in a process where eager execution was toggled)
    record["ours_simple_save_v2"] = v2_load(ours, "serving_default", {"x": X})
    m = tf2.saved_model.load(os.path.join(DATA, "ours_builder"), tags=["serve"])
    record["ours_builder_v2"] = lists(m.signatures["serving_default"](a=A, c=C))
    tf.disable_eager_execution()
    tmp = tempfile.mkdtemp()
    try:  # TF's own values of the programs
        record["tf_simple_save"] = simple_save_program(tf, os.path.join(tmp, "s")).tolist()
        record["tf_builder"] = lists(builder_program(tf, os.path.join(tmp, "b")))
        g = graph_program(tf)
        with tf.Session(graph=g) as sess:
            record["tf_graph_run"] = run_graph(lambda f, d: sess.run(f, d))
        with open(os.path.join(DATA, "tf_graph.pb"), "wb") as f:
            f.write(g.as_graph_def().SerializeToString())
    finally:
        shutil.rmtree(tmp)
    # what TF 1's loader makes of eagerflow's
    record["ours_simple_save_v1"] = v1_session(ours, ["serve"], "serving_default", {"x": X})
    record["ours_builder_v1"] = v1_session(os.path.join(DATA, "ours_builder"), ["serve"],
                                           "serving_default", {"a": A, "c": C})
    record["ours_builder_v1_shift"] = v1_session(os.path.join(DATA, "ours_builder"), ["serve"],
                                                 "shift", {"a": A})
    record["ours_builder_train_v1"] = v1_session(os.path.join(DATA, "ours_builder"), ["train"],
                                                 "bump", {"a": A}, local=False)
    graph_def = tf.GraphDef.FromString(open(os.path.join(DATA, "ours_graph.pb"), "rb").read())
    with tf.Graph().as_default() as g:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=g) as sess:
            record["ours_graph_run"] = run_graph(lambda f, d: sess.run(f, d))
    with open(os.path.join(HERE, "v1_saved_model.json"), "w") as f:
        json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
