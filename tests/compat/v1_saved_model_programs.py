"""TF 1 SavedModel programs (``simple_save``, ``Builder``) and a training graph, written once
for `tf` = ``tensorflow.compat.v1`` or ``eagerflow.compat.v1``: what eagerflow writes from
them TF loads (data/make_v1_saved_model_data.py)."""
import numpy as np

X = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
A = np.array([1.0, 2.0], np.float32)
C = np.array([0.5, -1.0], np.float32)
GRAPH_X = np.array([1.0, -2.0, 4.0], np.float32)


def simple_save_program(tf, path):
    """A dense layer trained one step, then `simple_save`d; returns its output on `X`."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        with tf.variable_scope("dense"):
            w = tf.get_variable("w", initializer=np.array([[1.0, -2.0], [0.5, 3.0]],
                                                           np.float32))
        b = tf.Variable([0.25, -1.0], name="b")
        y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
        train = tf.train.GradientDescentOptimizer(0.01).minimize(tf.reduce_sum(y * y))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: X})  # (saved: the session's values, not the initial ones)
            tf.saved_model.simple_save(sess, path, inputs={"x": x}, outputs={"y": y})
            return sess.run(y, {x: X})


def builder_program(tf, path):
    """A `Builder` SavedModel: tags ``serve`` (two signatures, an int64 variable, a local
    variable set by the main op) and ``train``; returns the outputs
    of the ``serve`` signatures on `A`, `C`."""
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [None], name="a")
        c = tf.placeholder(tf.float32, [None], name="c")
        scale = tf.Variable(3.0, name="scale")
        count = tf.Variable(np.int64(7), name="count", trainable=False)
        offset = tf.Variable(0.5, name="offset", trainable=False,
                             collections=[tf.GraphKeys.LOCAL_VARIABLES])
        total = tf.add(a * scale, c + offset, name="total")
        shifted = tf.add(tf.cast(count, tf.float32), a, name="shifted")
        bump = count.assign_add(1)
        sig = tf.saved_model.signature_def_utils.predict_signature_def
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(tf.local_variables_initializer())
            sess.run(bump)
            builder = tf.saved_model.Builder(path)
            builder.add_meta_graph_and_variables(
                sess, [tf.saved_model.tag_constants.SERVING], signature_def_map={
                    "serving_default": sig({"a": a, "c": c}, {"total": total}),
                    "shift": sig({"a": a}, {"shifted": shifted})},
                main_op=tf.local_variables_initializer())
            builder.add_meta_graph([tf.saved_model.tag_constants.TRAINING],
                                   signature_def_map={"bump": sig({"a": a}, {"shifted": shifted})})
            builder.save()
            return {"total": sess.run(total, {a: A, c: C}), "shifted": sess.run(shifted, {a: A})}


def graph_program(tf):
    """A v1 training graph (a `Variable`, a `get_variable`, an optimizer's step and an
    ``assign_add``); returns the graph."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        v = tf.Variable(1.5, name="v")
        with tf.variable_scope("layer"):
            w = tf.get_variable("w", [], initializer=tf.ones_initializer())
        y = tf.identity(x * v + w, name="y")
        tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(y * y), name="train")
        tf.identity(v.assign_add(1.0), name="bump")
        tf.global_variables_initializer()
    return g


def run_graph(run):
    """What `run(fetch, feed)` gives for the steps TF runs on the graph's GraphDef."""
    run("init", None)
    out = {"y0": run("y:0", {"x:0": GRAPH_X})}
    run("train", {"x:0": GRAPH_X})
    out["y1"] = run("y:0", {"x:0": GRAPH_X})
    out["bump"] = run("bump:0", None)
    out["y2"] = run("y:0", {"x:0": GRAPH_X})
    return {k: np.asarray(v).tolist() for k, v in out.items()}
