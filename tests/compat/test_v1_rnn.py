"""TF 1's recurrent cells and ``dynamic_rnn``/``static_rnn`` in graphs, against TF's recorded
results (`data/make_v1_rnn_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_rnn_programs import INPUTS, LENGTHS, StateSaver, _json, raw, raw_programs, \
    recurrent, state_saving, wrapped

with open(os.path.join(os.path.dirname(__file__), "data", "v1_rnn.json")) as _f:
    RECORDED = json.load(_f)


def _close(got, want, where):
    """Nested lists (a state's tuples of arrays) compared leaf by leaf."""
    if isinstance(want, list) and want and isinstance(want[0], list):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{where}[{i}]")
        return
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=where)


def test_cells_over_sequences_give_tfs_outputs_states_and_variables():
    got = recurrent(tf1)
    assert got["variables"] == RECORDED["variables"]
    assert sorted(got["values"]) == sorted(RECORDED["values"])
    for name, want in RECORDED["values"].items():
        _close(got["values"][name]["outputs"], want["outputs"], f"{name} outputs")
        _close(got["values"][name]["state"], want["state"], f"{name} state")


def test_wrappers_and_bidirectional_functions_give_tfs_values_names_and_errors():
    got, want = wrapped(tf1), RECORDED["wrapped"]
    assert got["variables"] == want["variables"]
    assert got["errors"] == want["errors"]
    for run, (got_run, want_run) in enumerate(zip(got["values"], want["values"])):
        assert sorted(got_run) == sorted(want_run)
        for name, values in want_run.items():
            _close(got_run[name]["outputs"], values["outputs"], f"{name} outputs, run {run}")
            _close(got_run[name]["state"], values["state"], f"{name} state, run {run}")


def test_cells_eagerly_and_their_errors():
    cell = tf1.nn.rnn_cell.BasicLSTMCell(2)
    state = cell.zero_state(3, tf.float32)
    assert isinstance(state, tf1.nn.rnn_cell.LSTMStateTuple) and state.c.shape == (3, 2)
    output, new_state = cell(tf.ones([3, 4]), state)
    assert output.shape == (3, 2) and new_state.h is not None
    with pytest.raises(ValueError, match="If there is no initial_state, you must give a dtype"):
        tf1.nn.dynamic_rnn(cell, tf.ones([3, 5, 4]))
    wrapped = tf1.nn.rnn_cell.DropoutWrapper(tf1.nn.rnn_cell.GRUCell(2))
    outputs, _ = tf1.nn.dynamic_rnn(wrapped, tf.ones([1, 2, 4]), dtype=tf.float32,
                                    time_major=True)
    assert outputs.shape == (1, 2, 2)


def test_dynamic_rnn_loops_over_a_number_of_steps_known_when_it_runs():
    from tests.compat.v1_rnn_programs import INPUTS, LENGTHS
    g = tf1.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, None, 4])
        with tf1.variable_scope("basic_lstm", initializer=tf1.constant_initializer(0.1)):
            cell = tf1.nn.rnn_cell.BasicLSTMCell(3)
            outputs, state = tf1.nn.dynamic_rnn(cell, x, sequence_length=LENGTHS,
                                                dtype=tf.float32)
        names = [v.name for v in tf1.global_variables()]
        init = tf1.global_variables_initializer()
    assert names == RECORDED["variables"][4:6]  # (basic_lstm's, as unrolled)
    with tf1.Session(graph=g) as sess:
        sess.run(init)
        got = sess.run([outputs, state], {x: INPUTS})
    want = RECORDED["values"]["basic_lstm"]
    _close(got[0].tolist(), want["outputs"], "outputs")
    _close([s.tolist() for s in got[1]], want["state"], "state")


def _close_all(got, want):
    assert sorted(got) == sorted(want)
    for name in want:
        _close(got[name], want[name], name)


def test_raw_rnn_gives_tfs_emitted_values_states_and_loop_states_in_a_graph():
    _close_all(raw(tf1), RECORDED["raw"])


def test_raw_rnn_eagerly_and_in_a_function():
    cells = {}
    raw_programs(tf1, cells)
    for cell in cells.values():  # (the graph's kernels: 0.1, as its scope's initializer)
        for v in cell.variables:
            v.assign(tf.fill(v.shape, 0.0 if "bias" in v.name else 0.1))
    _close_all({k: _json(v) for k, v in raw_programs(tf1, cells).items()}, RECORDED["raw"])
    got = tf.function(lambda: raw_programs(tf1, cells))()
    _close_all({k: _json(v) for k, v in got.items()}, RECORDED["raw"])


def test_static_state_saving_rnn_starts_from_and_saves_the_states_in_a_graph():
    got, want = state_saving(tf1), RECORDED["state_saving"]
    assert got["variables"] == want["variables"]
    assert got["errors"] == want["errors"]
    for got_run, want_run in zip(got["runs"], want["runs"]):
        _close_all(got_run, want_run)


def test_static_state_saving_rnn_eagerly_and_in_a_function():
    saver = StateSaver(tf, {"c": 3, "h": 3},
                       lambda name, size: tf.Variable(tf.fill([2, size], 0.3)))
    cell = tf1.nn.rnn_cell.BasicLSTMCell(3)
    steps = tf.unstack(tf.constant(INPUTS), axis=1)
    tf1.nn.static_state_saving_rnn(cell, steps, saver, ("c", "h"))  # (makes the kernel)
    for v in cell.variables:
        v.assign(tf.fill(v.shape, 0.0 if "bias" in v.name else 0.1))
    for v in saver.variables.values():
        v.assign(tf.fill([2, 3], 0.3))
    # eagerly, then in a function from the states saved: TF's two runs of a graph
    fn = tf.function(lambda: tf1.nn.static_state_saving_rnn(
        cell, steps, saver, ("c", "h"), sequence_length=LENGTHS))
    for run, want in zip((fn.python_function, fn), RECORDED["state_saving"]["runs"]):
        outputs, state = run()
        _close(_json(outputs), want["lstm"][0], "outputs")
        _close(_json(state), want["lstm"][1], "state")
        _close(_json(saver.variables["c"]), want["lstm"][1][0], "saved")
