"""Cases of TF's RNN cell wrappers (``tf.nn.RNNCellDropoutWrapper``, ``...ResidualWrapper``,
``...DeviceWrapper``) around Keras's cells in ``tf.keras.layers.RNN``, with fixed weights
and seeds: TF records their outcomes (data/make_cell_wrappers_data.py), the tests run them
with eagerflow (test_cell_wrappers.py)."""
import numpy as np

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 4, 3)
KINDS = ("lstm", "gru", "simple")
_GATES = {"lstm": 4, "gru": 3, "simple": 1}


def weights(kind, units=3, input_dim=3):
    """Fixed kernel, recurrent kernel and bias of a cell of `kind`."""
    rng = np.random.RandomState(_GATES[kind])
    width = _GATES[kind] * units
    shapes = [(input_dim, width), (units, width), (2, width) if kind == "gru" else (width,)]
    return [rng.uniform(-0.6, 0.6, s).astype(np.float32) for s in shapes]


def cell(tf, kind, units=3):
    return {"lstm": tf.keras.layers.LSTMCell, "gru": tf.keras.layers.GRUCell,
            "simple": tf.keras.layers.SimpleRNNCell}[kind](units)


def run(tf, wrapper, kind, seed=None, **call_kwargs):
    """The sequences and final states of an RNN over `wrapper` on `X`, with `kind`'s weights
    (the global seed set to `seed` just before the call, if given)."""
    layer = _built(tf, tf.keras.layers.RNN(wrapper, return_sequences=True, return_state=True))
    layer.set_weights(weights(kind))
    if seed is not None:
        tf.random.set_seed(seed)
    return [np.asarray(o).tolist() for o in layer(X, **call_kwargs)]


def jsonable(value):
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "as_list"):
        return value.as_list()
    if isinstance(value, (np.ndarray, np.generic)) or hasattr(value, "numpy"):
        return np.asarray(value).tolist()
    return value


def _wrappers(tf):
    W, R, D = tf.nn.RNNCellDropoutWrapper, tf.nn.RNNCellResidualWrapper, \
        tf.nn.RNNCellDeviceWrapper
    return {"keep1": lambda c: W(c),
            "device": lambda c: D(c, "/cpu:0"),
            "residual": lambda c: R(c),
            "residual_fn": lambda c: R(c, residual_fn=lambda i, o: o - 2 * i),
            "nested": lambda c: R(D(W(c, state_keep_prob=1.0), "/device:CPU:0"))}


def _variational(tf, kind, keep):
    tf.random.set_seed(3)  # (the masks are drawn as the wrapper is made)
    wrapper = tf.nn.RNNCellDropoutWrapper(
        cell(tf, kind), input_keep_prob=keep[0], output_keep_prob=keep[1],
        state_keep_prob=keep[2], variational_recurrent=True, input_size=tf.TensorShape([3]),
        dtype=tf.float32, seed=5)
    return run(tf, wrapper, kind)


def _seeded(tf, kind):
    wrapper = tf.nn.RNNCellDropoutWrapper(cell(tf, kind), input_keep_prob=0.6,
                                          output_keep_prob=0.7, state_keep_prob=0.8, seed=11)
    layer = _built(tf, tf.keras.layers.RNN(wrapper, return_sequences=True, return_state=True))
    layer.set_weights(weights(kind))
    tf.random.set_seed(7)
    first = layer(X, training=True)
    second = layer(X, training=False)  # dropped all the same
    return jsonable([first, second])


def _random_step_cell(tf):
    """A cell whose every step draws a seeded random number (and outputs it)."""
    class RandomStep(tf.keras.layers.Layer):
        state_size = 1
        output_size = 1

        def call(self, inputs, states):
            return tf.random.uniform([1, 1], seed=3) + 0 * inputs[:, :1], states
    return RandomStep()


def _config(tf, wrapper):
    config = dict(wrapper.get_config())
    config["cell"] = config["cell"]["class_name"]
    for key in ("dropout_fn", "residual_fn"):
        if config.get(f"{key}_type") == "lambda":
            config[key] = "<bytecode>"
    serialized = tf.keras.layers.serialize(wrapper)
    return {"config": jsonable(config), "module": serialized["module"],
            "class_name": serialized["class_name"],
            "registered_name": serialized["registered_name"]}


def cases(tf):
    """{name: function of no arguments whose result (JSON values) TF and eagerflow share}."""
    W, R, D = tf.nn.RNNCellDropoutWrapper, tf.nn.RNNCellResidualWrapper, \
        tf.nn.RNNCellDeviceWrapper
    out = {}
    for kind in KINDS:
        for name, wrap in _wrappers(tf).items():
            out[f"{kind}_{name}"] = lambda kind=kind, wrap=wrap: run(
                tf, wrap(cell(tf, kind)), kind, training=True)
        out[f"{kind}_seeded"] = lambda kind=kind: _seeded(tf, kind)
        for keep in ((0.5, 1.0, 1.0), (1.0, 0.5, 1.0), (1.0, 1.0, 0.5)):
            out[f"{kind}_variational_{keep}"] = lambda kind=kind, keep=keep: _variational(
                tf, kind, keep)
    out["lstm_state_filter"] = lambda: run(tf, W(
        cell(tf, "lstm"), state_keep_prob=0.5, seed=3,
        dropout_state_filter_visitor=lambda s: [True, False] if isinstance(s, list) else True),
        "lstm", seed=2)
    out["lstm_state_filter_off"] = lambda: run(tf, W(
        cell(tf, "lstm"), state_keep_prob=0.5, dropout_state_filter_visitor=lambda s: False),
        "lstm")
    out["state_filter_not_a_bool"] = lambda: run(tf, W(
        cell(tf, "lstm"), state_keep_prob=0.5, dropout_state_filter_visitor=lambda s: 3), "lstm")
    out["random_step_replayed"] = lambda: _random_steps(tf)
    # construction
    out["input_keep_above_one"] = lambda: W(cell(tf, "gru"), input_keep_prob=1.5)
    out["output_keep_below_zero"] = lambda: W(cell(tf, "gru"), output_keep_prob=-0.2)
    out["state_keep_int"] = lambda: W(cell(tf, "gru"), state_keep_prob=2)
    out["variational_without_dtype"] = lambda: W(cell(tf, "gru"), variational_recurrent=True)
    out["variational_without_input_size"] = lambda: W(
        cell(tf, "gru"), input_keep_prob=0.5, variational_recurrent=True, dtype=tf.float32)
    out["filter_not_callable"] = lambda: W(cell(tf, "gru"), dropout_state_filter_visitor=3)
    out["keep_as_float32"] = lambda: [W(cell(tf, "gru"), input_keep_prob=p).get_config()[
        "input_keep_prob"] for p in (0.7, tf.constant(0.5), 1)]
    out["variational_gru_state_dropout"] = lambda: _variational(tf, "gru", (1.0, 1.0, 0.5))
    # cells
    out["sizes_and_names"] = lambda: jsonable([
        W(cell(tf, "lstm")).state_size, W(cell(tf, "lstm")).output_size,
        R(cell(tf, "gru")).state_size, D(cell(tf, "simple"), "/cpu:0").output_size,
        W(cell(tf, "gru")).name, R(cell(tf, "gru")).name, D(cell(tf, "gru"), "/cpu:0").name,
        type(W(cell(tf, "gru")).wrapped_cell).__name__])
    out["weight_names"] = lambda: [w.name for w in _built(tf, tf.keras.layers.RNN(
        R(D(W(cell(tf, "lstm")), "/cpu:0")))).weights]
    out["direct_call"] = lambda: jsonable(_direct(tf, W(cell(tf, "gru")), [tf.zeros([2, 3])]))
    out["direct_call_tensor_state"] = lambda: jsonable(_direct(tf, R(cell(tf, "gru")),
                                                               tf.zeros([2, 3])))
    out["residual_shape_mismatch"] = lambda: R(cell(tf, "gru", 4))(tf.ones([2, 3]),
                                                                  [tf.zeros([2, 4])])
    out["residual_shape_mismatch_in_rnn"] = lambda: tf.keras.layers.RNN(
        R(cell(tf, "gru", 4)))(X)
    # configs
    out["config_dropout"] = lambda: _config(tf, W(cell(tf, "gru"), input_keep_prob=0.5,
                                                  seed=2, name="dw"))
    out["config_dropout_filter"] = lambda: _config(tf, W(
        cell(tf, "gru"), dropout_state_filter_visitor=lambda s: True))
    out["config_variational"] = lambda: _config(tf, W(
        cell(tf, "simple"), input_keep_prob=0.5, variational_recurrent=True,
        input_size=tf.TensorShape([3]), dtype=tf.float32))
    out["config_residual"] = lambda: _config(tf, R(cell(tf, "simple")))
    out["config_residual_fn"] = lambda: _config(tf, R(cell(tf, "simple"),
                                                      residual_fn=lambda i, o: i * o))
    out["config_device"] = lambda: _config(tf, D(cell(tf, "lstm"), "/cpu:0"))
    out["deserialized_lambda_refused"] = lambda: tf.keras.layers.deserialize(
        {"class_name": "ResidualWrapper",
         "config": R(cell(tf, "simple"), residual_fn=lambda i, o: i * o).get_config()})
    out["unknown_function_type"] = lambda: tf.keras.layers.deserialize(
        {"class_name": "ResidualWrapper",
         "config": {**R(cell(tf, "simple"), residual_fn=lambda i, o: i).get_config(),
                    "residual_fn_type": "other"}})
    return out


def _random_steps(tf):
    """A not unrolled RNN runs its first step once more before the loop, as Keras's: a step
    drawing random numbers draws once more."""
    tf.random.set_seed(1)
    layer = tf.keras.layers.RNN(_random_step_cell(tf), return_sequences=True)
    return np.asarray(layer(tf.ones([1, 3, 2]))).ravel().tolist()


def _built(tf, layer):
    """`layer` called once on `X` (TF's RNN builds a cell of TF's own Keras only so)."""
    layer(X)
    return layer


def _direct(tf, wrapper, state):
    wrapper.build(tf.TensorShape([None, 3]))
    wrapper.cell.set_weights(weights("gru"))
    output, new_state = wrapper(tf.ones([2, 3]), state)
    return [output, new_state]
