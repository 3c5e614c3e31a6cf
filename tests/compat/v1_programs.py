"""TF 1 graph programs run by both TF (to record their results, `make_v1_graph_data.py`)
and eagerflow (`test_v1_graph.py`): each takes the ``compat.v1`` module and returns a
JSON-able dict."""
import numpy as np


def linear_regression(tf):
    """The guide's linear regression: placeholders, variables and a Session.run loop."""
    g = tf.Graph()
    with g.as_default():
        rng = np.random.RandomState(0)
        xs = rng.rand(50).astype(np.float32)
        ys = 3.0 * xs + 2.0 + 0.01 * rng.randn(50).astype(np.float32)
        x = tf.placeholder(tf.float32, [None], name="x")
        y = tf.placeholder(tf.float32, [None], name="y")
        w = tf.Variable(0.0, name="weight")
        b = tf.Variable(0.0, name="bias")
        pred = w * x + b
        loss = tf.reduce_mean(tf.square(pred - y))
        step = tf.train.get_or_create_global_step()
        train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=step)
        init = tf.global_variables_initializer()
    losses = []
    with tf.Session(graph=g) as sess:
        sess.run(init)
        for _ in range(30):
            _, value = sess.run([train, loss], feed_dict={x: xs, y: ys})
            losses.append(float(value))
        weights = sess.run({"w": w, "b": b, "step": step})
    return {"losses": losses, "w": float(weights["w"]), "b": float(weights["b"]),
            "step": int(weights["step"]), "pred": pred.name, "loss": loss.name,
            "variables": [v.name for v in g.get_collection(tf.GraphKeys.GLOBAL_VARIABLES)],
            "trainable": [v.name for v in g.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES)]}


def scopes(tf):
    """variable_scope names, reuse and AUTO_REUSE, and TF's reuse errors."""
    out = {}
    g = tf.Graph()
    with g.as_default():
        def dense(x, units):
            w = tf.get_variable("w", [x.shape[-1], units],
                                initializer=tf.constant_initializer(0.5))
            b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
            return tf.matmul(x, w) + b

        x = tf.placeholder(tf.float32, [None, 2], name="x")
        with tf.variable_scope("layer1"):
            h = dense(x, 3)
        with tf.variable_scope("layer1", reuse=True):
            h2 = dense(x, 3)
        with tf.variable_scope("shared", reuse=tf.AUTO_REUSE):
            a = dense(h, 1)
        with tf.variable_scope("shared", reuse=tf.AUTO_REUSE):
            c = dense(h, 1)
        with tf.variable_scope("outer"):
            with tf.variable_scope("inner"):
                v = tf.get_variable("v", [], initializer=tf.ones_initializer())
        errors = []
        for reuse in (None, True):
            try:
                with tf.variable_scope("layer1" if reuse is None else "nope", reuse=reuse):
                    dense(x, 3)
            except ValueError as e:
                errors.append(str(e).splitlines()[0])
        out["errors"] = errors
        out["names"] = [t.name for t in (h, h2, a, c)]
        out["variables"] = [w.name for w in tf.global_variables()]
        out["v"] = v.name
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        out["values"] = [sess.run(t, {x: [[1.0, 2.0]]}).tolist() for t in (h, h2, a, c)]
        out["v_value"] = float(sess.run(v))
    return out


def collections(tf):
    """Collections, names of ops (uniquified, scoped) and fetch structures."""
    out = {}
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        m1 = tf.matmul(x, tf.ones([3, 2]))
        m2 = tf.matmul(x, tf.ones([3, 2]))
        with tf.name_scope("block"):
            s = tf.reduce_sum(m1)
        with tf.name_scope("block"):
            s2 = tf.reduce_sum(m2)
        tf.add_to_collection("mine", s)
        tf.add_to_collection("mine", s2)
        local = tf.Variable(1.0, name="counter", trainable=False,
                            collections=[tf.GraphKeys.LOCAL_VARIABLES])
        inc = local.assign_add(2.0)
        d = tf.placeholder_with_default([1.0, 2.0], shape=[None], name="d")
        out["names"] = [t.name for t in (x, m1, m2, s, s2)]
        out["mine"] = [t.name for t in g.get_collection("mine")]
        out["local"] = [v.name for v in g.get_collection(tf.GraphKeys.LOCAL_VARIABLES)]
        out["global"] = [v.name for v in g.get_collection(tf.GraphKeys.GLOBAL_VARIABLES)]
        init = tf.local_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        feed = {"x:0": [[1.0, 2.0, 3.0]]}
        r = sess.run({"pair": (s, "block/Sum:0"), "list": [s2, s2]}, feed_dict=feed)
        out["fetch"] = {"pair": [float(v) for v in r["pair"]],
                        "list": [float(v) for v in r["list"]]}
        out["inc"] = [float(sess.run(inc)) for _ in range(3)]
        out["default"] = sess.run(d).tolist()
        out["fed"] = sess.run(d, {d: [5.0]}).tolist()
        try:
            sess.run(s)
        except tf.errors.InvalidArgumentError as e:
            out["unfed"] = next(line for line in e.message.splitlines() if "must feed" in line)
        try:
            sess.run(s, {x: [1.0, 2.0]})
        except ValueError as e:
            out["bad_shape"] = str(e)
    return out


PROGRAMS = {"linear_regression": linear_regression, "scopes": scopes,
            "collections": collections}
