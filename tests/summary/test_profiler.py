"""``tf.profiler.experimental``: sessions, their errors (TF 2.21's classes and messages),
`Trace` spans in the written XSpace, and Keras's TensorBoard(profile_batch=...)."""
import glob
import logging
import os
import socket

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import profiler_xspace as XSpace

pe = tf.profiler.experimental


@pytest.fixture(autouse=True)
def _no_session_left():
    yield
    try:  # (a failing test must not leave its session to the next)
        pe.stop(save=False)
    except tf.errors.UnavailableError:
        pass


def _xplanes(logdir):
    return sorted(glob.glob(os.path.join(logdir, "plugins", "profile", "*", "*.xplane.pb")))


def test_start_twice_and_stop_without_start_raise_tf_errors(tmp_path):
    with pytest.raises(tf.errors.UnavailableError,
                       match=r"^Cannot export profiling results. No profiler is running.$"):
        pe.stop()
    with pytest.raises(tf.errors.UnavailableError):
        pe.stop(save=False)
    pe.start(str(tmp_path))
    with pytest.raises(tf.errors.AlreadyExistsError, match=r"^Another profiler is running.$"):
        pe.start(str(tmp_path))
    pe.stop()
    with pytest.raises(tf.errors.UnavailableError):
        pe.stop()
    with pytest.raises(TypeError, match="start\\(\\): incompatible function arguments"):
        pe.start(3)


def test_stop_writes_the_trace_spans_as_an_xspace(tmp_path):
    pe.start(str(tmp_path))
    with pe.Trace("train", step_num=7, _r=1) as span:
        span.set_metadata(note="x")
        _ = tf.constant([1.0, 2.0]) * 2.0
    pe.stop()
    (path,) = _xplanes(str(tmp_path))
    assert os.path.basename(path) == f"{socket.gethostname()}.xplane.pb"
    with open(path, "rb") as f:
        space = XSpace.FromString(f.read())
    (plane,) = space.planes
    assert plane.name == "/host:CPU"
    (line,) = plane.lines
    (event,) = line.events
    assert plane.event_metadata[event.metadata_id].name == "train"
    stats = {plane.stat_metadata[s.metadata_id].name: s for s in event.stats}
    assert stats["step_num"].int64_value == 7 and stats["note"].str_value == "x"
    assert event.duration_ps > 0


def test_save_false_writes_nothing_and_spans_outside_a_session_are_free(tmp_path):
    with pe.Trace("outside"):  # no session: nothing recorded, no error
        pass
    pe.start(str(tmp_path))
    pe.stop(save=False)
    assert _xplanes(str(tmp_path)) == []


def test_profile_context_manager_and_options(tmp_path):
    options = pe.ProfilerOptions(host_tracer_level=3, python_tracer_level=1,
                                 device_tracer_level=0, delay_ms=5)
    assert repr(pe.ProfilerOptions()) == ("ProfilerOptions(host_tracer_level=2, "
                                          "python_tracer_level=0, device_tracer_level=1, "
                                          "delay_ms=None)")
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        pe.ProfilerOptions(foo=1)
    with pe.Profile(str(tmp_path), options=options):
        with pytest.raises(tf.errors.AlreadyExistsError):
            pe.Profile(str(tmp_path)).__enter__()
    assert len(_xplanes(str(tmp_path))) == 1


def test_server_and_client_exist_without_a_server():
    with pytest.raises(TypeError, match="start_server\\(\\): incompatible function arguments"):
        pe.server.start("x")
    with pytest.raises(tf.errors.UnavailableError):
        pe.client.trace("grpc://localhost:6009", "/tmp/x", 100)


def test_summary_trace_on_with_profiler(tmp_path, caplog):
    writer = tf.summary.create_file_writer(str(tmp_path / "logs"))
    tf.summary.trace_on(graph=True, profiler=True, profiler_outdir=str(tmp_path / "prof"))
    with pytest.raises(tf.errors.AlreadyExistsError):  # the profiler runs
        pe.start(str(tmp_path))
    tf.function(lambda x: x + 1.0)(tf.constant(1.0))
    with writer.as_default(), caplog.at_level(logging.WARNING):
        assert tf.summary.trace_export("t", step=0) is None
    assert len(_xplanes(str(tmp_path / "prof"))) == 1
    writer.close()
    # (as TF: with the profiler, the run's metadata, with the graphs of the functions run)
    (path,) = glob.glob(str(tmp_path / "logs" / "events.out.tfevents.*"))
    (value,) = [v for r in tf.compat.v1.io.tf_record_iterator(path)
                for v in tf.compat.v1.Event.FromString(r).summary.value]
    assert value.metadata.plugin_data.plugin_name == "graph_run_metadata"
    run = tf.compat.v1.RunMetadata.FromString(value.tensor.string_val[0])
    assert [[n.op for n in f.pre_optimization_graph.node] for f in run.function_graphs] == [
        ["_Arg", "Const", "AddV2", "Identity", "_Retval"]]
    # (as TF: trace_off, run by trace_export, finds the profiler stopped already)
    assert "Error while stopping profiler: Cannot export profiling results" in caplog.text



@pytest.mark.parametrize("outdir", [True, False])
def test_summary_trace_on_profiler_without_graph_collects_graphs_when_it_runs(tmp_path,
                                                                             outdir):
    # (as TF: a profiler that runs collects the run's graphs; without its directory it
    # does not run, nothing is collected, and trace_export fails to stop it, after
    # writing the summary)
    writer = tf.summary.create_file_writer(str(tmp_path / "logs"))
    tf.summary.trace_on(graph=False, profiler=True,
                        profiler_outdir=str(tmp_path / "prof") if outdir else None)
    tf.function(lambda x: x * 2.0)(tf.constant(1.0))
    with writer.as_default():
        if outdir:
            tf.summary.trace_export("t", step=0)
        else:
            with pytest.raises(tf.errors.UnavailableError):
                tf.summary.trace_export("t", step=0)
            tf.summary.trace_off()
    writer.close()
    (path,) = glob.glob(str(tmp_path / "logs" / "events.out.tfevents.*"))
    (value,) = [v for r in tf.compat.v1.io.tf_record_iterator(path)
                for v in tf.compat.v1.Event.FromString(r).summary.value]
    assert value.metadata.plugin_data.plugin_name == "graph_run_metadata"
    run = tf.compat.v1.RunMetadata.FromString(value.tensor.string_val[0])
    assert [[n.op for n in f.pre_optimization_graph.node] for f in run.function_graphs] == (
        [["_Arg", "Const", "Mul", "Identity", "_Retval"]] if outdir else [])

def test_tensorboard_callback_profiles_the_batches_asked(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.compile("sgd", "mse")
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), profile_batch=(2, 3))
    model.fit(np.ones((32, 3)), np.ones((32, 2)), batch_size=4, epochs=2, verbose=0,
              callbacks=[callback])
    assert len(_xplanes(str(tmp_path))) == 1
    with pytest.raises(tf.errors.UnavailableError):  # the callback stopped its profiler
        pe.stop()


def test_tensorboard_callback_leaves_a_running_profiler_alone(tmp_path, caplog):
    pe.start(str(tmp_path / "mine"))
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.compile("sgd", "mse")
    with caplog.at_level(logging.ERROR):
        callback = tf.keras.callbacks.TensorBoard(str(tmp_path), profile_batch=1)
        model.fit(np.ones((8, 3)), np.ones((8, 2)), batch_size=4, verbose=0,
                  callbacks=[callback])
    assert "Failed to start profiler: Another profiler is running." in caplog.text
    pe.stop()  # still running: the callback did not stop it
    assert len(_xplanes(str(tmp_path / "mine"))) == 1
