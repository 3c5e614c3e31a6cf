"""TF 1 layer programs (``tf.compat.v1.layers``) run by both TF (to record their results,
`data/make_v1_layers_data.py`) and eagerflow (`test_v1_layers.py`)."""
import numpy as np

RNG = np.random.RandomState(7)
IMAGES = RNG.rand(6, 6, 6, 2).astype(np.float32)
LABELS = np.array([0, 1, 2, 1, 0, 2], np.int32)
CONV = (RNG.randn(3, 3, 2, 4) * 0.3).astype(np.float32)
FC = (RNG.randn(16, 8) * 0.2).astype(np.float32)
OUT = (RNG.randn(8, 3) * 0.2).astype(np.float32)


def _names(items):
    return [getattr(v, "name", str(v)) for v in items]


def cnn(tf):
    """A small CNN (conv, batch norm with its updates, pooling, flatten, dense, dropout)
    trained by gradient descent in a graph; names, collections and values."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 6, 6, 2], name="x")
        y = tf.placeholder(tf.int32, [None], name="y")
        training = True
        h = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu,
                             kernel_initializer=tf.constant_initializer(CONV))
        h = tf.layers.batch_normalization(h, training=training, momentum=0.9)
        h = tf.layers.max_pooling2d(h, 2, 2)
        h = tf.layers.average_pooling2d(h, 2, 1, padding="same")
        h = tf.layers.conv2d(h, 1, 1, kernel_initializer=tf.ones_initializer(), use_bias=False,
                             name="squeeze")
        h = tf.layers.flatten(h)
        h = tf.layers.dropout(h, 0.5)  # (inference by default: unchanged)
        with tf.variable_scope("head"):
            h = tf.layers.dense(tf.pad(h, [[0, 0], [0, 7]]), 8, activation=tf.nn.tanh,
                                kernel_initializer=tf.constant_initializer(FC), name="fc")
            shared = tf.layers.dense(tf.zeros([1, 16]), 8, name="fc", reuse=True)
        logits = tf.layers.dense(h, 3, kernel_initializer=tf.constant_initializer(OUT),
                                 bias_initializer=tf.constant_initializer(0.1))
        loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
        updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        with tf.control_dependencies(updates):
            train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        bn_moving = [v for v in tf.global_variables() if "moving" in v.name]
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        losses = [float(sess.run([train, loss], {x: IMAGES, y: LABELS})[1]) for _ in range(4)]
        moving = sess.run(bn_moving)
        final = sess.run(loss, {x: IMAGES, y: LABELS})
        shared_value = sess.run(shared)
    return {
        "globals": _names(g.get_collection("variables")),
        "trainables": _names(g.get_collection("trainable_variables")),
        "updates": len(updates),
        "tensors": [t.name for t in (h, shared, logits)],
        "losses": losses, "final": float(final),
        "moving": [np.asarray(m).tolist() for m in moving],
        "shared": np.asarray(shared_value).tolist(),
    }


def layer_objects(tf):
    """Layer objects called twice, and a subclass of `tf.layers.Layer`."""
    class Scale(tf.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", [int(input_shape[-1])],
                                     initializer=tf.constant_initializer(2.0))
            super().build(input_shape)

        def call(self, inputs):
            return inputs * self.w

    g = tf.Graph()
    with g.as_default():
        x = tf.constant([[1.0, 2.0, 3.0]])
        dense = tf.layers.Dense(2, kernel_initializer=tf.ones_initializer(), name="cls")
        a, b = dense(x), dense(x * 2.0)
        scale = Scale()
        s = scale(x)
        bn = tf.layers.BatchNormalization()
        n = bn(x, training=True)
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        values = sess.run([a, b, s, n])
    return {
        "tensors": [t.name for t in (a, b, s, n)],
        "weights": _names(dense.weights) + _names(scale.weights) + _names(bn.weights),
        "scope_names": [dense.scope_name, scale.scope_name, bn.scope_name],
        "updates": [len(dense.updates), len(bn.updates)],
        "values": [np.asarray(v).tolist() for v in values],
        "globals": _names(g.get_collection("variables")),
    }
