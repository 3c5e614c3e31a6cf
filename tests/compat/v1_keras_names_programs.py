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


PROGRAMS = {"per_graph_names": per_graph_names}
