"""Records what TF's v1 graph variables give (`v.op`, `v.initializer`, `v.initial_value`,
the ops of `value`/`assign`) and its initialization checks (`is_variable_initialized`,
`report_uninitialized_variables`, `assert_variables_initialized`), into
`v1_variable_ops.json`. Run with TensorFlow 2.x: ``python make_v1_variable_ops_data.py``."""
import json
import os

import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
tf.disable_eager_execution()
out = {}
with tf.Graph().as_default() as g:
    v = tf.Variable([1.0, 2.0], name="v")
    w = tf.get_variable("w", [2, 3], use_resource=True)
    out["op"] = [v.op.name, v.op.type, w.op.name, w.op.type]
    out["op_output"] = [v.op.outputs[0].dtype.name, v.op.outputs[0].shape.as_list()]
    out["op_attrs"] = [v.op.get_attr("shared_name").decode(), v.op.get_attr("dtype").name]
    out["initializer"] = [v.initializer.name, v.initializer.type]
    out["initial_value"] = [v.initial_value.name, v.initial_value.op.type]
    out["value"] = v.value().op.type
    out["assign_no_read"] = v.assign([3.0, 4.0], read_value=False).type
    ready = tf.is_variable_initialized(v)
    out["is_initialized"] = [ready.name, ready.op.type, ready.dtype.name, ready.shape.as_list()]
    report = tf.report_uninitialized_variables()
    out["report"] = [report.dtype.name, report.shape.as_list()]
    checked = tf.assert_variables_initialized()
    out["assert"] = [checked.dtype.name, checked.shape.as_list()]
    with tf.Session() as sess:
        out["before"] = [[s.decode() for s in sess.run(report)], bool(sess.run(ready)),
                         [s.decode() for s in sess.run(tf.report_uninitialized_variables([w]))]]
        try:
            sess.run(checked)
        except tf.errors.FailedPreconditionError:
            out["assert_fails"] = True
        sess.run(v.initializer)
        out["half"] = [s.decode() for s in sess.run(report)]
        sess.run(w.initializer)
        out["after"] = [[s.decode() for s in sess.run(report)], bool(sess.run(ready)),
                        sess.run(checked).tolist()]
with tf.Graph().as_default():  # fetching a variable with an update it does not wait on
    v = tf.Variable([1.0, 2.0], name="v")
    update = v.assign_add([1.0, 1.0], read_value=False)
    late_read = v.read_value()
    added = tf.assign_add(v, [10.0, 10.0])
    with tf.Session() as sess:
        sess.run(v.initializer)
        out["fetch_with_update"] = [
            [None if x is None else x.tolist() for x in sess.run(fetches)]
            for fetches in ([v, update], [update, late_read], [v, added], [update, v + 0.0])]
with tf.Graph().as_default():
    empty = tf.report_uninitialized_variables()
    with tf.Session() as sess:
        out["empty"] = [empty.name, empty.shape.as_list(), sess.run(empty).tolist()]
    out["assert_empty"] = tf.assert_variables_initialized() is None
with open(os.path.join(HERE, "v1_variable_ops.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
