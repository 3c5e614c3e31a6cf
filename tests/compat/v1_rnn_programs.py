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


WRAPPED_INPUTS = np.cos(np.arange(24, dtype=np.float32)).reshape(2, 4, 3)
WRAPPED_LENGTHS = [4, 2]


def wrapped(tf):
    """Cell wrappers (dropout with a seed, residual, device) and the bidirectional
    functions, over fed inputs of unknown length, each scope's kernels drawn from a seeded
    initializer: outputs, final states, the variables' names and the wrappers' errors."""
    rnn = tf.nn.rnn_cell
    g = tf.Graph()
    built = {}
    with g.as_default():
        tf.set_random_seed(7)
        x = tf.placeholder(tf.float32, [None, None, 3])
        lengths = tf.placeholder(tf.int32, [None])

        def scope(name):
            return tf.variable_scope(
                name, initializer=tf.random_uniform_initializer(-0.5, 0.5, seed=11))
        with scope("bidirectional"):
            (fw, bw), states = tf.nn.bidirectional_dynamic_rnn(
                rnn.LSTMCell(4, use_peepholes=True, num_proj=2), rnn.GRUCell(3), x,
                sequence_length=lengths, dtype=tf.float32)
            built["bidirectional"] = ((fw, bw), states)
        with scope("bidirectional_time_major"):
            xt = tf.transpose(x, [1, 0, 2])
            outputs, states = tf.nn.bidirectional_dynamic_rnn(
                rnn.BasicRNNCell(2), rnn.BasicRNNCell(3), xt, time_major=True,
                initial_state_fw=tf.fill([2, 2], 0.5), dtype=tf.float32)
            built["bidirectional_time_major"] = (outputs, states)
        with scope("static_bidirectional"):
            steps = tf.unstack(tf.constant(WRAPPED_INPUTS), axis=1)
            outputs, fw_state, bw_state = tf.nn.static_bidirectional_rnn(
                rnn.BasicLSTMCell(2), rnn.GRUCell(2), steps, dtype=tf.float32,
                sequence_length=WRAPPED_LENGTHS)
            built["static_bidirectional"] = (tf.stack(outputs, 1), (fw_state, bw_state))
        with scope("dropout"):
            cell = rnn.MultiRNNCell([
                rnn.DropoutWrapper(rnn.LSTMCell(3), input_keep_prob=0.8,
                                   output_keep_prob=0.7, state_keep_prob=0.9, seed=3),
                rnn.ResidualWrapper(rnn.GRUCell(3))])
            built["dropout"] = tf.nn.dynamic_rnn(cell, x, initial_state=cell.zero_state(
                2, tf.float32), parallel_iterations=1)
        with scope("dropout_variational"):
            cell = rnn.DropoutWrapper(rnn.GRUCell(3), input_keep_prob=0.6,
                                      state_keep_prob=0.7, output_keep_prob=0.8,
                                      variational_recurrent=True, input_size=3,
                                      dtype=tf.float32, seed=5)
            built["dropout_variational"] = tf.nn.dynamic_rnn(
                cell, x, sequence_length=lengths, dtype=tf.float32, parallel_iterations=1)
        with scope("dropout_lstm_state"):
            cell = rnn.DropoutWrapper(rnn.BasicLSTMCell(3), state_keep_prob=0.5, seed=2)
            built["dropout_lstm_state"] = tf.nn.dynamic_rnn(
                cell, x, dtype=tf.float32, parallel_iterations=1)
        with scope("dropout_known_steps"):  # (a loop all the same: new masks at each step)
            cell = rnn.DropoutWrapper(rnn.BasicLSTMCell(3), state_keep_prob=0.5,
                                      output_keep_prob=0.7, seed=2)
            built["dropout_known_steps"] = tf.nn.dynamic_rnn(
                cell, tf.constant(WRAPPED_INPUTS), sequence_length=[2, 1], dtype=tf.float32,
                parallel_iterations=1)
        with scope("nested_output"):  # (a cell whose output is a pair of tensors)
            class Pair(rnn.RNNCell):
                def __init__(self):
                    super().__init__()
                    self._cell = rnn.GRUCell(3)
                state_size = property(lambda self: 3)
                output_size = property(lambda self: (3, 1))

                def call(self, inputs, state):
                    out, new_state = self._cell(inputs, state)
                    return (out, tf.reduce_sum(out, 1, keepdims=True)), new_state
            built["nested_output"] = tf.nn.dynamic_rnn(
                Pair(), x, sequence_length=lengths, dtype=tf.float32)
            built["nested_output_known_steps"] = tf.nn.dynamic_rnn(
                Pair(), tf.constant(WRAPPED_INPUTS), dtype=tf.float32, scope="known")
        with scope("device"):
            cell = rnn.DeviceWrapper(rnn.GRUCell(2), "/cpu:0")
            outputs, state = tf.nn.static_rnn(cell, tf.unstack(x, 4, axis=1),
                                              dtype=tf.float32)
            built["device"] = (tf.stack(outputs, 1), state)
        names = [v.name for v in tf.global_variables()]
        init = tf.global_variables_initializer()
        errors = {}
        for name, make in {
            "keep_prob_range": lambda: rnn.DropoutWrapper(rnn.GRUCell(2), input_keep_prob=1.5),
            "not_a_cell": lambda: rnn.DropoutWrapper(3),
            "variational_dtype": lambda: rnn.DropoutWrapper(
                rnn.GRUCell(2), variational_recurrent=True),
            "variational_input_size": lambda: rnn.DropoutWrapper(
                rnn.GRUCell(2), input_keep_prob=0.5, variational_recurrent=True,
                dtype=tf.float32),
            "filter_not_callable": lambda: rnn.DropoutWrapper(
                rnn.GRUCell(2), dropout_state_filter_visitor=3),
            "bidirectional_not_a_cell": lambda: tf.nn.bidirectional_dynamic_rnn(
                rnn.GRUCell(2), "cell", x, dtype=tf.float32),
        }.items():
            try:
                make()
                errors[name] = None
            except Exception as e:  # noqa: BLE001 (recording whichever TF raises)
                errors[name] = [type(e).__name__, str(e).splitlines()[0].split(" (<")[0]]
    with tf.Session(graph=g) as sess:
        sess.run(init)
        # (twice: the second run's masks show how much of its stream each op took)
        runs = [sess.run(built, {x: WRAPPED_INPUTS, lengths: WRAPPED_LENGTHS})
                for _ in range(2)]
    return {"values": [{name: {"outputs": _json(outputs), "state": _json(state)}
                        for name, (outputs, state) in values.items()} for values in runs],
            "variables": names, "errors": errors}


def raw(tf):
    """`raw_rnn` of LSTM cells (kernels a constant) reading the steps of each sequence up
    to its length, with a loop state and an emitted structure of its own: the stacked
    emitted values, final states and loop states."""
    g = tf.Graph()
    with g.as_default():
        built = raw_programs(tf)
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        return {name: _json(value) for name, value in sess.run(built).items()}


def raw_programs(tf, cells=None):
    """The `raw_rnn` programs' results (each of `cells` used instead of a new cell, the
    cells used kept there)."""
    cells = {} if cells is None else cells
    steps = tf.transpose(tf.constant(INPUTS), [1, 0, 2])
    lengths = tf.constant(LENGTHS)
    built = {}
    for name, make in (("basic_lstm", lambda: tf.nn.rnn_cell.BasicLSTMCell(3)),
                       ("lstm_projection", lambda: tf.nn.rnn_cell.LSTMCell(
                           3, use_peepholes=True, num_proj=2))):
        for emit_own in (False, True):
            key = name + ("_own_emit" if emit_own else "")
            cell = cells.setdefault(key, make())
            inputs = tf.TensorArray(tf.float32, size=3).unstack(steps)

            def loop_fn(time, output, state, loop_state, cell=cell, inputs=inputs,
                        emit_own=emit_own):
                finished = time >= lengths
                next_input = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([2, 4]),
                                     lambda: inputs.read(time))
                if output is None:
                    emit = (tf.zeros([1]), tf.zeros([], tf.int32)) if emit_own else None
                    return (finished, next_input, cell.zero_state(2, tf.float32), emit,
                            tf.constant(0.0))
                emit = ((tf.reduce_sum(output, 1, keepdims=True), tf.fill([2], time))
                        if emit_own else output)
                return (finished, next_input, state, emit,
                        loop_state + tf.reduce_sum(output))
            with tf.variable_scope(key, initializer=tf.constant_initializer(0.1)):
                emitted, state, loop_state = tf.nn.raw_rnn(cell, loop_fn)
            built[key] = (tf.nest.map_structure(lambda ta: ta.stack(), emitted), state,
                          loop_state)
    return built


class StateSaver:
    """A state saver keeping each named state (``[2, size]``, first 0.3) in a variable."""

    def __init__(self, tf, sizes, make_variable):
        self.tf = tf
        self.variables = {name: make_variable(name, size) for name, size in sizes.items()}

    def state(self, name):
        return self.tf.identity(self.variables[name])

    def save_state(self, name, value):
        return self.variables[name].assign(value)


def state_saving(tf):
    """`static_state_saving_rnn` of an LSTM (a pair of named states, with sequence lengths)
    and a GRU in a graph, run twice (the second run starting from the states the first
    saved): outputs, final states, the variables' names and the errors of wrong names."""
    g = tf.Graph()
    with g.as_default():
        with tf.variable_scope("saving", initializer=tf.constant_initializer(0.1)):
            saver = StateSaver(tf, {"c": 3, "h": 3, "g": 2}, lambda name, size: tf.get_variable(
                "saved_" + name, [2, size], initializer=tf.constant_initializer(0.3)))
            steps = tf.unstack(tf.constant(INPUTS), axis=1)
            rnn = tf.nn.rnn_cell
            built = {"lstm": tf.nn.static_state_saving_rnn(
                rnn.BasicLSTMCell(3), steps, saver, ("c", "h"), sequence_length=LENGTHS),
                "gru": tf.nn.static_state_saving_rnn(rnn.GRUCell(2), steps, saver, "g",
                                                     scope="gru")}
            errors = {}
            for name, (cell, state_name) in {
                    "nested_name": (rnn.GRUCell(2), ("g",)),
                    "flat_name": (rnn.BasicLSTMCell(3), "c"),
                    "too_many_names": (rnn.BasicLSTMCell(3), ("c", "h", "g"))}.items():
                try:
                    tf.nn.static_state_saving_rnn(cell, steps, saver, state_name, scope=name)
                    errors[name] = None
                except ValueError as e:
                    errors[name] = str(e)
        names = [v.name for v in tf.global_variables()]
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        runs = [{name: _json(value) for name, value in sess.run(built).items()}
                for _ in range(2)]
    return {"runs": runs, "variables": names, "errors": errors}
