"""Writes TF 1 training graphs (a linear model trained by each v1 optimizer's `minimize`) as
GraphDefs into `v1_train_graphs/`, and the weights TF has after two steps into
`v1_train_graphs.json`. Run with TensorFlow 2.x: ``python make_v1_train_graphs_data.py``."""
import json
import os

import numpy as np
import tensorflow.compat.v1 as tf

HERE = os.path.dirname(os.path.abspath(__file__))
X = [[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]]
Y = [[1.0], [-2.0], [0.5]]
OPTIMIZERS = {
    "sgd": lambda: tf.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: tf.train.MomentumOptimizer(0.1, 0.9),
    "nesterov": lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "adam": lambda: tf.train.AdamOptimizer(0.1),
    "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
    "rmsprop": lambda: tf.train.RMSPropOptimizer(0.1, momentum=0.5),
    "centered_rmsprop": lambda: tf.train.RMSPropOptimizer(0.1, centered=True),
    "adadelta": lambda: tf.train.AdadeltaOptimizer(1.0),
}

tf.disable_eager_execution()
out = {}
for key, make in OPTIMIZERS.items():
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        y = tf.placeholder(tf.float32, [None, 1], name="y")
        w = tf.get_variable("w", initializer=tf.constant([[0.5], [-0.25]]), use_resource=True)
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y), name="loss")
        train = make().minimize(loss, name="train")
        init = tf.global_variables_initializer()
        with tf.Session() as sess:
            sess.run(init)
            losses = [float(sess.run(loss, {x: X, y: Y}))]
            for _ in range(2):
                sess.run(train, {x: X, y: Y})
                losses.append(float(sess.run(loss, {x: X, y: Y})))
            out[key] = {"w": sess.run(w).tolist(), "losses": losses, "init": init.name,
                        "ops": sorted({op.type for op in g.get_operations()
                                       if "Apply" in op.type})}
        tf.io.write_graph(g.as_graph_def(), os.path.join(HERE, "v1_train_graphs"),
                          key + ".pbtxt", as_text=True)
with open(os.path.join(HERE, "v1_train_graphs.json"), "w") as f:
    json.dump({"x": X, "y": Y, "results": out}, f, indent=1, sort_keys=True)
