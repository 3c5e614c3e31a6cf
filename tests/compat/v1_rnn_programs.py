"""TF 1 recurrent programs (``tf.compat.v1.nn.rnn_cell``, ``dynamic_rnn``, ``static_rnn``)
run by both TF (to record their results, `data/make_v1_rnn_data.py`) and eagerflow
(`test_v1_rnn.py`)."""
import numpy as np

INPUTS = (np.sin(np.arange(24, dtype=np.float32)).reshape(2, 3, 4))
LENGTHS = [3, 2]

CELLS = {
    "basic_rnn": lambda rnn: rnn.BasicRNNCell(3),
    "basic_lstm": lambda rnn: rnn.BasicLSTMCell(3),
    "lstm": lambda rnn: rnn.LSTMCell(3, forget_bias=0.5),
    "lstm_peepholes_projection": lambda rnn: rnn.LSTMCell(3, use_peepholes=True,
                                                          cell_clip=0.05, num_proj=2),
    "gru": lambda rnn: rnn.GRUCell(3),
    "multi": lambda rnn: rnn.MultiRNNCell([rnn.BasicLSTMCell(3), rnn.GRUCell(2)]),
}


def _json(value):
    if isinstance(value, (tuple, list)):
        return [_json(v) for v in value]
    return np.asarray(value).tolist()


def recurrent(tf):
    """Each cell run by `dynamic_rnn` (with sequence lengths) and `static_rnn`, its kernel
    a constant: outputs, final states and the variables' names."""
    g = tf.Graph()
    results = {}
    with g.as_default():
        x = tf.constant(INPUTS)
        built = {}
        for name, make in CELLS.items():
            init = tf.constant_initializer(0.1)
            with tf.variable_scope(name, initializer=init):
                cell = make(tf.nn.rnn_cell)
                outputs, state = tf.nn.dynamic_rnn(cell, x, sequence_length=LENGTHS,
                                                   dtype=tf.float32)
                built[name] = (outputs, state)
            with tf.variable_scope(name + "_static", initializer=init):
                cell = make(tf.nn.rnn_cell)
                outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, axis=1),
                                                  dtype=tf.float32)
                built[name + "_static"] = (tf.stack(outputs, 1), state)
        names = [v.name for v in tf.global_variables()]
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        values = sess.run(built)
    for name, (outputs, state) in values.items():
        results[name] = {"outputs": _json(outputs), "state": _json(state)}
    return {"values": results, "variables": names}
