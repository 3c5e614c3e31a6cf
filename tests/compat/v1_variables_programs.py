"""TF 2 variables and Keras layers made in a TF 1 graph, run by both TF (to record their
results, `data/make_v1_variables_data.py`) and eagerflow (`test_v1_variables.py`)."""
import numpy as np


def tf2_variables_in_a_graph(tf1, tf2):
    """``tf.Variable`` and a Keras layer's weights in a v1 graph are the graph's: collected,
    initialized by their initializers, held per session."""
    g = tf1.Graph()
    out = {}
    with g.as_default():
        v = tf2.Variable(3.0, name="v")
        w = tf2.Variable(tf2.ones([2]), trainable=False)
        x = tf1.placeholder(tf2.float32, [None, 3], name="x")
        layer = tf2.keras.layers.Dense(2, kernel_initializer="ones", name="dense")
        y = layer(x)
        inc = v.assign_add(1.0)
        loss = tf2.reduce_sum(y) * v
        train = tf1.train.GradientDescentOptimizer(0.01).minimize(loss)
        init = tf1.global_variables_initializer()
        out["names"] = [v.name, w.name, v.initializer.name] + [t.name for t in layer.weights]
        out["globals"] = [t.name for t in tf1.global_variables()]
        out["trainables"] = [t.name for t in tf1.trainable_variables()]
    a, b = tf1.Session(graph=g), tf1.Session(graph=g)
    try:
        a.run(v)
    except tf2.errors.FailedPreconditionError:
        out["uninitialized"] = "FailedPreconditionError"
    a.run(init)
    b.run(init)
    a.run(inc)
    feed = {x: np.ones((1, 3), np.float32)}
    for _ in range(2):
        a.run(train, feed)
    out["a"] = [np.asarray(t).tolist() for t in a.run([v, w, y, layer.kernel], feed)]
    out["b"] = [np.asarray(t).tolist() for t in b.run([v, w, y], feed)]
    a.close()
    b.close()
    return out
