"""LSTM, GRU and SimpleRNN layers run as one fused op (oneDNN, or NumPy's whole-sequence
kernel): the same values and gradients as the step loop (`unroll=True` runs the loop)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import eagerflow as tf
from eagerflow import errors
from tests.concurrency import in_threads
from tests.internals import graph_def, onednn, rnn_ops, threads

LAYERS = {"lstm": tf.keras.layers.LSTM, "gru": tf.keras.layers.GRU,
          "rnn": tf.keras.layers.SimpleRNN}
RTOL, ATOL = 2e-5, 2e-6


def _data(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


def _pair(kind, features, units=3, **kwargs):
    """A layer and its loop twin with the same weights."""
    fused, loop = LAYERS[kind](units, **kwargs), LAYERS[kind](units, unroll=True, **kwargs)
    for layer in (fused, loop):
        layer.build((None, None, features) if not kwargs.get("stateful") else
                    (kwargs.get("batch_size", 2), None, features))
    rng = np.random.default_rng(5)
    loop.set_weights([rng.uniform(-0.7, 0.7, w.shape).astype(np.float32)
                      for w in fused.get_weights()])
    fused.set_weights(loop.get_weights())
    return fused, loop


def _run(layer, x, states=None, **call):
    """Outputs and gradients of a weighting of every output, wrt inputs, weights and
    initial states."""
    x = tf.constant(x)
    states = None if states is None else [tf.constant(s) for s in states]
    with tf.GradientTape() as tape:
        tape.watch(x)
        if states is not None:
            tape.watch(states)
            out = layer(x, initial_state=states, **call)
        else:
            out = layer(x, **call)
        out = out if isinstance(out, list) else [out]
        loss = sum(tf.reduce_sum(o * o * (k + 1.0)) for k, o in enumerate(out))
    sources = [x] + layer.trainable_variables + (states or [])
    grads = tape.gradient(loss, sources)
    return [o.numpy() for o in out] + [g.numpy() for g in grads]


def _assert_same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL)


def _op_types(fn, *specs):
    return {op.type for op in fn.get_concrete_function(*specs).graph.get_operations()}


@pytest.mark.parametrize("kind", sorted(LAYERS))
@pytest.mark.parametrize("options", [
    {}, {"return_sequences": True}, {"return_state": True},
    {"return_sequences": True, "return_state": True, "go_backwards": True},
    {"go_backwards": True}, {"time_major": True, "return_sequences": True}],
    ids=["last", "sequences", "state", "sequences-state-backwards", "backwards", "time_major"])
def test_values_and_gradients_equal_the_loop(path, kind, options):
    if kind == "rnn" and options.get("time_major"):
        pytest.skip("SimpleRNN takes no time_major argument")
    fused, loop = _pair(kind, 4, **options)
    x = _data(3, 5, 4)
    _assert_same(_run(fused, x), _run(loop, x))


@pytest.mark.parametrize("kind", sorted(LAYERS))
def test_gradients_reach_the_initial_states(path, kind):
    fused, loop = _pair(kind, 2, return_sequences=True, return_state=True)
    x = _data(2, 4, 2)
    states = [_data(2, 3, seed=s) for s in range(2 if kind == "lstm" else 1)]
    _assert_same(_run(fused, x, states), _run(loop, x, states))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(LAYERS)), batch=st.integers(1, 4), steps=st.integers(1, 6),
       features=st.integers(1, 4), units=st.integers(1, 5), sequences=st.booleans())
def test_shapes(path, kind, batch, steps, features, units, sequences):
    fused, loop = _pair(kind, features, units, return_sequences=sequences)
    x = _data(batch, steps, features, seed=batch * steps)
    _assert_same(_run(fused, x), _run(loop, x))


def test_the_kernels_say_which_path_ran(path):
    x, h = tf.constant(_data(2, 3, 4)), tf.zeros((2, 2))
    workspace = rnn_ops.fused_rnn(x, _data(4, 8), _data(2, 8), _data(8), h, h, mode="lstm")[-1]
    assert workspace.dtype == tf.uint8 and workspace.numpy()[-1] == (1 if path else 0)


def test_bidirectional(path):
    x = _data(2, 5, 3)
    layers = {}
    for unroll in (False, True):
        tf.keras.utils.set_random_seed(3)
        layers[unroll] = tf.keras.layers.Bidirectional(
            tf.keras.layers.LSTM(4, return_sequences=True, unroll=unroll))
        layers[unroll].build((None, 5, 3))
    layers[False].set_weights(layers[True].get_weights())
    _assert_same(_run(layers[False], x), _run(layers[True], x))
    gru = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2), merge_mode="sum")
    loop = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2, unroll=True), merge_mode="sum")
    gru.build((None, 5, 3))
    loop.build((None, 5, 3))
    loop.set_weights(gru.get_weights())
    _assert_same(_run(gru, x), _run(loop, x))


def test_masks_run_the_loop_with_its_results(path):
    x = _data(3, 5, 2)
    mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 0, 1, 1, 0]], bool)
    fused, loop = _pair("lstm", 2, return_sequences=True, return_state=True)
    _assert_same(_run(fused, x, mask=tf.constant(mask)), _run(loop, x, mask=tf.constant(mask)))
    run = tf.function(lambda x: fused(x, mask=tf.constant(mask)))
    assert "_FusedRNN" not in _op_types(run, tf.TensorSpec([3, 5, 2], tf.float32))


def test_stateful(path):
    fused, loop = _pair("gru", 2, stateful=True, batch_size=2, return_sequences=True)
    fused.reset_states()
    loop.reset_states()
    for step in range(3):
        x = tf.constant(_data(2, 3, 2, seed=step))
        np.testing.assert_allclose(fused(x).numpy(), loop(x).numpy(), rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(fused.states[0].numpy(), loop.states[0].numpy(), rtol=RTOL,
                                   atol=ATOL)
    assert np.abs(fused.states[0].numpy()).sum() > 0


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_input_dropout_draws_the_loop_masks(path, kind):
    # a mask makes the steps run in the loop; Keras draws the same sequence-wide masks
    fused, _ = _pair(kind, 3, dropout=0.4)
    x = _data(4, 5, 3)
    results = []
    for call in ({}, {"mask": np.ones((4, 5), bool)}):
        tf.keras.utils.set_random_seed(11)
        results.append(_run(fused, x, training=True, **call))
    _assert_same(*results)



def test_in_function_with_unknown_dims(path):
    fused, loop = _pair("lstm", 4, return_sequences=True, return_state=True)
    spec = tf.TensorSpec([None, None, 4], tf.float32)

    @tf.function(input_signature=[spec])
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = fused(x)
            loss = tf.reduce_sum(out[0] ** 2) + tf.reduce_sum(out[2])
        return out + tape.gradient(loss, [x] + fused.trainable_variables)

    assert "_FusedRNN" in _op_types(step) and "_FusedRNNGrad" in _op_types(step)
    x = tf.constant(_data(3, 6, 4))
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = loop(x)
        loss = tf.reduce_sum(out[0] ** 2) + tf.reduce_sum(out[2])
    want = out + tape.gradient(loss, [x] + loop.trainable_variables)
    _assert_same([t.numpy() for t in step(x)], [t.numpy() for t in want])


@pytest.mark.parametrize("kind", sorted(LAYERS))
def test_second_derivatives(path, kind):
    fused, loop = _pair(kind, 2)
    x = tf.constant(_data(2, 4, 2))
    results = []
    for layer in (fused, loop):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(layer(x) ** 2)
            penalty = tf.reduce_sum(inner.gradient(y, x) ** 2)
        results.append([g.numpy() for g in outer.gradient(penalty,
                                                          [x] + layer.trainable_variables)])
    _assert_same(*results)


def test_second_derivatives_through_a_traced_gradient(path):
    fused, loop = _pair("lstm", 3)
    x = tf.constant(_data(2, 4, 3))
    results = []
    for layer in (fused, loop):
        @tf.function
        def gradient(x, layer=layer):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(layer(x) ** 2)
            return tape.gradient(y, x)
        with tf.GradientTape() as outer:
            outer.watch(x)
            penalty = tf.reduce_sum(gradient(x) ** 2)
        results.append([g.numpy() for g in outer.gradient(penalty,
                                                          [x] + layer.trainable_variables)])
    _assert_same(*results)


def test_backward_after_switching_paths():
    if not onednn.enabled():
        pytest.skip("oneDNN is not available here")
    fused, loop = _pair("lstm", 2, return_sequences=True)
    x = tf.constant(_data(2, 4, 2))
    try:
        for first, second in ((True, False), (False, True)):
            onednn.set_enabled(first)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(fused(x) ** 2)
            onednn.set_enabled(second)
            got = tape.gradient(y, [x] + fused.trainable_variables)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(loop(x) ** 2)
            want = tape.gradient(y, [x] + loop.trainable_variables)
            _assert_same([g.numpy() for g in got], [g.numpy() for g in want])
    finally:
        onednn.set_enabled(None)


def test_fit_gives_the_losses_of_the_loop(path):
    x, y = _data(32, 6, 3), np.random.default_rng(2).integers(0, 4, 32)
    losses = []
    for unroll in (False, True):
        tf.keras.utils.set_random_seed(7)
        model = tf.keras.Sequential([tf.keras.layers.LSTM(5, unroll=unroll),
                                     tf.keras.layers.Dense(4)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        history = model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
        losses.append(history.history["loss"])
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-4)
    assert losses[0][-1] < losses[0][0]


def test_float64_runs_fused_on_numpy(path):
    fused, loop = _pair("gru", 2, dtype="float64")
    x = _data(2, 3, 2).astype(np.float64)
    got, want = _run(fused, x), _run(loop, x)
    for g, w in zip(got, want):
        assert g.dtype == np.float64
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kind, kwargs", [
    ("gru", {"reset_after": False}), ("lstm", {"recurrent_dropout": 0.2}),
    ("lstm", {"activation": "relu"}), ("gru", {"recurrent_activation": "hard_sigmoid"}),
    ("rnn", {"use_bias": False}), ("lstm", {"unroll": True})])
def test_other_configurations_run_the_loop(kind, kwargs):
    layer = LAYERS[kind](2, **kwargs)
    run = tf.function(lambda x: layer(x, training=True))
    assert "_FusedRNN" not in _op_types(run, tf.TensorSpec([2, 3, 2], tf.float32))
    default = LAYERS[kind](2)
    run = tf.function(lambda x: default(x))
    assert "_FusedRNN" in _op_types(run, tf.TensorSpec([2, 3, 2], tf.float32))


def _exported(fn, *specs):
    """`fn` traced and written as a GraphDef: (eagerflow's concrete function, the GraphDef,
    the function run from the GraphDef read back, variables fed to their placeholders)."""
    concrete = fn.get_concrete_function(*specs)
    variables = {}
    gd = graph_def.graph_to_graph_def(concrete.graph, variables=variables)
    gd = tf.compat.v1.GraphDef.FromString(gd.SerializeToString())
    wrapped = tf.compat.v1.wrap_function(lambda: tf.compat.v1.import_graph_def(
        gd, name="", input_map=variables), [])
    # (the arguments' placeholders: the variables' listed after them are fed by input_map)
    return concrete, gd, wrapped.prune([t.name for t in concrete.inputs[:len(specs)]],
                                       [t.name for t in concrete.outputs])


@pytest.mark.parametrize("steps", [5, None], ids=["static-steps", "unknown-steps"])
@pytest.mark.parametrize("kind,time_major", [("lstm", False), ("gru", False), ("rnn", False),
                                             ("lstm", True)])
def test_graph_def_holds_the_steps_in_tfs_ops_with_the_same_values(path, kind, time_major,
                                                                   steps):
    layer = LAYERS[kind](3, return_sequences=True, return_state=True, time_major=time_major)

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = layer(x)
            loss = sum(tf.reduce_sum(o * o * (k + 1.0)) for k, o in enumerate(out))
        return out + tape.gradient(loss, [x] + layer.trainable_variables)
    shape = [steps, None, 2] if time_major else [None, steps, 2]
    concrete, gd, run = _exported(step, tf.TensorSpec(shape, tf.float32))
    assert {"_FusedRNN", "_FusedRNNGrad"} <= {op.type for op in concrete.graph.get_operations()}
    ops = {n.op for n in gd.node} | {n.op for f in gd.library.function for n in f.node_def}
    assert not any(op.startswith("_") for op in ops)
    names = [n.name for n in gd.node] + [n.name for f in gd.library.function for n in f.node_def]
    assert not any(name.startswith("_") for name in names)  # (TF's importer refuses them)
    assert {"PartitionedCall", "MatMul", "Tanh"} <= ops
    assert ("StatelessWhile" in ops) == (steps is None)
    for batch, length in [(1, 5), (3, 5)] + ([(2, 1), (2, 3)] if steps is None else []):
        x = _data(*([length, batch, 2] if time_major else [batch, length, 2]), seed=batch)
        for got, want in zip(run(tf.constant(x)), concrete(tf.constant(x))):
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=RTOL, atol=ATOL)


def test_graph_def_of_an_unknown_number_of_steps_needs_the_graph_loop(monkeypatch):
    layer = tf.keras.layers.LSTM(2)
    run = tf.function(lambda x: layer(x))
    graph = run.get_concrete_function(tf.TensorSpec([2, None, 2], tf.float32)).graph
    monkeypatch.setattr(rnn_ops, "loops", None)  # (as before the Keras layers provide it)
    with pytest.raises(errors.UnimplementedError, match=r"_FusedRNN\) cannot be written as "
                                                        r"TensorFlow's: .*number of time steps"):
        graph.as_graph_def()


def test_threads(path):
    fused, loop = _pair("lstm", 3, return_sequences=True)
    inputs = [_data(2 + k % 3, 4, 3, seed=k) for k in range(8)]
    want = [_run(loop, x) for x in inputs]
    got = in_threads(lambda x: _run(fused, x), [(x,) for x in inputs])
    for g, w in zip(got, want):
        _assert_same(g, w)


def test_shape_errors_name_the_op():
    x, h = tf.zeros((2, 3, 4)), tf.zeros((2, 2))
    with pytest.raises(errors.InvalidArgumentError, match=r"kernel must be \[input_size, 4 \* units\] = \[4,8\], got \[5,8\] \[Op:_FusedRNN\]"):
        rnn_ops.fused_rnn(x, tf.zeros((5, 8)), tf.zeros((2, 8)), tf.zeros((8,)), h, h)
    with pytest.raises(errors.InvalidArgumentError, match="h0 must be"):
        rnn_ops.fused_rnn(x, tf.zeros((4, 6)), tf.zeros((2, 6)), tf.zeros((2, 6)),
                          tf.zeros((3, 2)), mode="gru")
    with pytest.raises(errors.InvalidArgumentError, match="0 time steps"):
        rnn_ops.fused_rnn(tf.zeros((2, 0, 4)), tf.zeros((4, 2)), tf.zeros((2, 2)),
                          tf.zeros((2,)), h, mode="rnn")


def test_empty_batch(path):
    fused, loop = _pair("lstm", 2, return_sequences=True)
    x = np.zeros((0, 3, 2), np.float32)
    assert fused(x).shape == (0, 3, 3)
    np.testing.assert_array_equal(fused(x).numpy(), loop(x).numpy())


def test_gradient_op_never_hands_oneDNN_a_foreign_workspace(path):
    args = [tf.constant(a) for a in (_data(2, 3, 4), _data(4, 8), _data(2, 8), _data(8),
                                     _data(2, 2, seed=1), _data(2, 2, seed=2))]
    outputs = rnn_ops.fused_rnn(*args, mode="lstm")
    other = rnn_ops.fused_rnn(tf.zeros((2, 5, 4)), *args[1:], mode="lstm")[-1]
    grads = [tf.ones_like(o) for o in outputs[:-1]]
    attrs = {"mode": "lstm", "time_major": False}
    want = rnn_ops.dispatch(rnn_ops._FUSED_RNN_GRAD,
                            tuple(args + list(outputs) + grads), attrs)
    got = rnn_ops.dispatch(rnn_ops._FUSED_RNN_GRAD,
                           tuple(args + list(outputs[:-1]) + [other] + grads), attrs)
    _assert_same([g.numpy() for g in got], [w.numpy() for w in want])


@pytest.mark.parametrize("kind", sorted(LAYERS))
@pytest.mark.parametrize("budget", [1, 2, 3])
def test_a_batch_split_over_threads_gives_the_values_of_the_loop(path, kind, budget):
    """On several threads oneDNN runs a large batch of small sequences in parts (of 16
    examples or more), one thread each: the same values and gradients, also when the
    thread count changes between the forward and backward passes, and from threads."""
    fused, loop = _pair(kind, 3, units=5, return_sequences=True, return_state=True)
    x = _data(50, 4, 3, seed=4)  # (parts of 25 and 25, or 16, 17 and 17)
    want = _run(loop, x)
    tf.config.threading.set_intra_op_parallelism_threads(budget)
    threads.set_fixed(True)  # (split whatever other processes do meanwhile)
    try:
        _assert_same(_run(fused, x), want)
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            out = fused(xt)
            loss = sum(tf.reduce_sum(o * o * (k + 1.0)) for k, o in enumerate(out))
        tf.config.threading.set_intra_op_parallelism_threads(3 - budget if budget < 3 else 1)
        got = [o.numpy() for o in out] + [g.numpy() for g in tape.gradient(
            loss, [xt] + fused.trainable_variables)]
        _assert_same(got, want)
        got = in_threads(lambda: _run(fused, x), [()] * 3)
        for g in got:
            _assert_same(g, want)
    finally:
        threads.set_fixed(False)
        tf.config.threading.set_intra_op_parallelism_threads(0)


def test_the_workspace_says_how_many_parts_ran(path):
    h, k, r, b = tf.zeros((40, 2)), _data(4, 8), _data(2, 8), _data(8)
    tf.config.threading.set_intra_op_parallelism_threads(2)
    threads.set_fixed(True)
    try:
        parts = rnn_ops.fused_rnn(tf.constant(_data(40, 3, 4)), k, r, b, h, h)[-1].numpy()[-1]
        small = rnn_ops.fused_rnn(tf.constant(_data(31, 3, 4)), k, r, b, h[:31], h[:31])[-1]
        major = rnn_ops.fused_rnn(tf.constant(_data(3, 40, 4)), k, r, b, h, h,
                                  time_major=True)[-1]
    finally:
        threads.set_fixed(False)
        tf.config.threading.set_intra_op_parallelism_threads(0)
    assert parts == (2 if path else 0)
    assert small.numpy()[-1] == major.numpy()[-1] == (1 if path else 0)


def test_a_batch_is_split_while_other_processes_keep_the_cores_busy(path, monkeypatch):
    """Each thread taking parts gets its share of busy cores, where one thread alone gets
    one: the batch runs in parts as on idle cores, with the same values."""
    h, k, r, b = tf.zeros((40, 2)), _data(4, 8), _data(2, 8), _data(8)
    x = tf.constant(_data(40, 3, 4))
    monkeypatch.setattr(threads, "_look", lambda: None)  # (never at the real load)
    tf.config.threading.set_intra_op_parallelism_threads(2)
    try:
        results = []
        for contended in (False, True):
            monkeypatch.setattr(threads, "contended", contended)
            results.append([o.numpy() for o in rnn_ops.fused_rnn(x, k, r, b, h, h)])
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
    assert results[1][-1][-1] == (2 if path else 0)  # (the workspace's gaps are not set)
    for idle, busy in zip(results[0][:-1], results[1][:-1]):
        np.testing.assert_array_equal(idle, busy)


@pytest.mark.parametrize("kind", sorted(LAYERS))
def test_train_steps_in_a_function_see_every_weight_update(path, kind):
    """A traced training step (optimizer updates inside, in place) run again and again, with
    the weights also assigned between steps: each step reads the weights as they are then,
    as the loop does, on a batch large enough to be split over threads."""
    x = _data(40, 5, 3, seed=8)
    y = np.random.default_rng(1).integers(0, 4, 40)
    results = []
    tf.config.threading.set_intra_op_parallelism_threads(2)
    threads.set_fixed(True)
    try:
        for unroll in (False, True):
            results.append(_train_steps(kind, unroll, x, y))
    finally:
        threads.set_fixed(False)
        tf.config.threading.set_intra_op_parallelism_threads(0)
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-4, atol=1e-5)
    for got, want in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-4)


def _train_steps(kind, unroll, x, y):
    """Losses and final weights of four training steps in a function."""
    tf.keras.utils.set_random_seed(3)
    model = tf.keras.Sequential([LAYERS[kind](6, unroll=unroll), tf.keras.layers.Dense(4)])
    model.build((None, 5, 3))
    opt = tf.keras.optimizers.Adam(0.05)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    losses = []
    for k in range(4):
        losses.append(float(step(tf.constant(x), tf.constant(y))))
        if k == 1:  # (a new array) and then an update in place of the one it holds
            recurrent = model.layers[0].trainable_variables[1]
            recurrent.assign(recurrent * -0.5)
            recurrent.assign_add(tf.ones_like(recurrent) * 0.01)
    return losses, [w.numpy() for w in model.weights]
