"""Keras layer names in TF 1 graphs, run by both TF (to record its results,
`data/make_v1_keras_names_data.py`) and eagerflow (`test_v1_keras_names.py`): each
takes the ``compat.v1`` module and the Keras module and returns a JSON-able value."""


def per_graph_names(tf, keras):
    """Each new graph numbers layer names from scratch (``dense``, ``dense_1``)."""
    out = []
    for _ in range(2):
        g = tf.Graph()
        with g.as_default():
            x = tf.placeholder(tf.float32, [None, 3])
            d1, d2 = keras.layers.Dense(2), keras.layers.Dense(2)
            y = d2(d1(x))
            m = keras.Sequential([keras.layers.Dense(1)])
            out.append([d1.name, d2.name, y.name, [v.name for v in d1.weights], m.name,
                        m.layers[0].name])
    with tf.Graph().as_default():
        out.append(keras.layers.Dense(1).name)
    out.append(keras.layers.Conv2D(1, 1).name)  # (eager: the global counters)
    return out


def v1_layers_count_from_one(tf, keras):
    """TF 1's layers number their names from one (``dense_1``), on the counter Keras layers
    number theirs from zero on, in graphs and eagerly."""
    out = []
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        k = keras.layers.Dense(2)
        k(x)
        first, second = tf.layers.Dense(2), tf.layers.Dense(2)
        first(x)
        k2 = keras.layers.Dense(2)
        out.append([k.name, first.name, second.name, k2.name, first.kernel.name])
    with tf.Graph().as_default():
        out.append([tf.layers.Dense(2).name, keras.layers.Dense(2).name,
                    tf.layers.Conv2D(2, 3).name, tf.layers.BatchNormalization().name,
                    tf.layers.Dense(2, name="named").name])
    return out


PROGRAMS = {"per_graph_names": per_graph_names,
            "v1_layers_count_from_one": v1_layers_count_from_one}
