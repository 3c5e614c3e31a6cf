"""TF 1 learning-rate decay programs (``tf.compat.v1.train.exponential_decay`` & co.) run
by both TF (to record their results, `data/make_v1_decay_data.py`) and eagerflow
(`test_v1_decay.py`): each takes the ``compat.v1`` module and returns a JSON-able value."""
STEPS = [0, 1, 3, 5, 10, 12, 25, 40]

DECAYS = {
    "exponential": lambda tf, s: tf.train.exponential_decay(0.1, s, 10, 0.5),
    "exponential_staircase": lambda tf, s: tf.train.exponential_decay(0.1, s, 10, 0.5,
                                                                      staircase=True),
    "piecewise_constant": lambda tf, s: tf.train.piecewise_constant(s, [5, 12],
                                                                    [1.0, 0.5, 0.1]),
    "piecewise_constant_decay": lambda tf, s: tf.train.piecewise_constant_decay(
        s, [5, 12], [1.0, 0.5, 0.1]),
    "polynomial": lambda tf, s: tf.train.polynomial_decay(0.1, s, 20, 0.01, power=2.0),
    "polynomial_cycle": lambda tf, s: tf.train.polynomial_decay(0.1, s, 10, 0.01, cycle=True),
    "natural_exp": lambda tf, s: tf.train.natural_exp_decay(0.1, s, 5, 0.5),
    "natural_exp_staircase": lambda tf, s: tf.train.natural_exp_decay(0.1, s, 5, 0.5,
                                                                      staircase=True),
    "inverse_time": lambda tf, s: tf.train.inverse_time_decay(0.1, s, 5, 0.5),
    "inverse_time_staircase": lambda tf, s: tf.train.inverse_time_decay(0.1, s, 5, 0.5,
                                                                        staircase=True),
    "cosine": lambda tf, s: tf.train.cosine_decay(0.1, s, 20, alpha=0.1),
    "cosine_restarts": lambda tf, s: tf.train.cosine_decay_restarts(0.1, s, 4, m_mul=0.5),
    "cosine_restarts_equal": lambda tf, s: tf.train.cosine_decay_restarts(0.1, s, 4,
                                                                          t_mul=1.0),
    "linear_cosine": lambda tf, s: tf.train.linear_cosine_decay(0.1, s, 20),
    "linear_cosine_args": lambda tf, s: tf.train.linear_cosine_decay(0.1, s, 20,
                                                                     num_periods=2.0,
                                                                     alpha=0.1, beta=0.01),
}


def graph_run(tf):
    """Each decay of a global step, run by a Session at STEPS; the tensors' names and
    dtypes."""
    out = {}
    g = tf.Graph()
    with g.as_default():
        step = tf.train.get_or_create_global_step()
        new_step = tf.placeholder(tf.int64, [])
        assign = step.assign(new_step)
        rates = {name: make(tf, step) for name, make in DECAYS.items()}
        noisy = tf.train.noisy_linear_cosine_decay(0.1, step, 20)
        out["names"] = {name: [r.name, r.dtype.name] for name, r in rates.items()}
        out["noisy"] = [noisy.dtype.name, noisy.shape.as_list()]
        init = tf.global_variables_initializer()
    values = {name: [] for name in rates}
    with tf.Session(graph=g) as sess:
        sess.run(init)
        for s in STEPS:
            sess.run(assign, {new_step: s})
            for name, v in sess.run(rates).items():
                values[name].append(float(v))
    out["values"] = values
    return out


def eager_run(tf):
    """Eagerly each decay is a callable reading the step when called."""
    step = tf.Variable(0, dtype=tf.int64)
    rates = {name: make(tf, step) for name, make in DECAYS.items()}
    out = {"callable": sorted(name for name, r in rates.items() if callable(r))}
    values = {name: [] for name in rates}
    for s in STEPS:
        step.assign(s)
        for name, r in rates.items():
            values[name].append(float(r()))
    out["values"] = values
    out["float_step"] = float(tf.train.exponential_decay(1.0, 3.0, 2, 0.5)())
    for key, call in (("none_step", lambda: tf.train.exponential_decay(0.1, None, 1, 0.5)),
                      ("bad_pieces", lambda: tf.train.piecewise_constant(step, [1, 2], [1.0]))):
        try:
            call()
        except ValueError as e:
            out[key] = str(e)
    return out


PROGRAMS = {"graph": graph_run, "eager": eager_run}
