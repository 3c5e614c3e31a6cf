"""TensorBoard itself reads the event files: its event accumulator loads every kind of
summary written here, and a TensorBoard server on loopback serves them over HTTP.

Skipped without the ``tensorboard`` package (the ``summary`` extra).
"""
import json
import threading
import time
import urllib.parse
import urllib.request

import numpy as np
import pytest

import eagerflow as tf
from tests.summary.reference_calls import calls

tensorboard = pytest.importorskip("tensorboard")
from tensorboard.backend.event_processing import (  # noqa: E402
    plugin_event_accumulator as accumulator)
from tensorboard.compat.proto import config_pb2, graph_pb2  # noqa: E402
from tensorboard.util import tensor_util  # noqa: E402


@pytest.fixture(scope="module")
def logdir(tmp_path_factory):
    root = tmp_path_factory.mktemp("tb")
    for kind, run in calls(tf).items():
        with tf.summary.create_file_writer(str(root / kind)).as_default() as writer:
            run()
        writer.close()

    @tf.function
    def f(x):
        return tf.nn.relu(x * 2.0)

    writer = tf.summary.create_file_writer(str(root / "graph"))
    tf.summary.trace_on(graph=True)
    f(tf.constant([1.0]))
    with writer.as_default():
        tf.summary.trace_export("trace", step=0)
        tf.summary.graph(f.get_concrete_function(tf.TensorSpec([1])).graph)
    writer.close()
    return root


def load(path):
    acc = accumulator.EventAccumulator(str(path), size_guidance={accumulator.TENSORS: 0})
    acc.Reload()
    return acc


def values(acc, tag):
    return [(e.step, tensor_util.make_ndarray(e.tensor_proto)) for e in acc.Tensors(tag)]


def test_every_kind_loads_with_its_plugin(logdir):
    plugins = {"scalars": "scalars", "histograms": "histograms", "images": "images",
               "text": "text", "audio": "audio"}
    for kind, plugin in plugins.items():
        acc = load(logdir / kind)
        tags = acc.Tags()["tensors"]
        assert tags, kind
        assert set(acc.PluginTagToContent(plugin)) == set(tags), kind


def test_scalars(logdir):
    acc = load(logdir / "scalars")
    assert values(acc, "loss") == [(1, np.float32(0.25))]
    assert values(acc, "int_value") == [(2, np.float32(7.0))]
    assert acc.SummaryMetadata("f64").summary_description == "a *double*"
    assert values(acc, "var") == [(4, np.float32(2.5))]


def test_histograms_images_text_audio(logdir):
    (step, buckets), = values(load(logdir / "histograms"), "five")
    assert step == 1 and buckets.shape == (5, 3) and buckets[:, 2].sum() == 200
    (_, images), = values(load(logdir / "images"), "three")
    assert list(images[:2]) == [b"5", b"4"] and images[2].startswith(b"\x89PNG")
    (_, text), = values(load(logdir / "text"), "table")
    assert text.tolist() == [[b"a", b"b"], [b"c", b"d"]]
    acc = load(logdir / "audio")
    (_, clips), = values(acc, "stereo")
    # (the accumulator keeps the clips of the [k, 2] (clip, label) tensor)
    assert clips.shape == (2,) and clips[0].startswith(b"RIFF")
    assert acc.SummaryMetadata("stereo").plugin_data.content == b"\x10\x0b"  # WAV


def test_graphs(logdir):
    acc = load(logdir / "graph")
    graph = acc.Graph()
    assert isinstance(graph, graph_pb2.GraphDef) and "Relu" in {n.op for n in graph.node}
    (_, run), = values(acc, "trace")
    metadata = config_pb2.RunMetadata.FromString(run.item())
    assert "Relu" in {n.op for n in metadata.function_graphs[0].pre_optimization_graph.node}


def _get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def test_tensorboard_server_serves_the_scalars(tmp_path):
    program = pytest.importorskip("tensorboard.program")
    writer = tf.summary.create_file_writer(str(tmp_path / "train"))

    @tf.function
    def f(x):
        return tf.nn.relu(x * 2.0)

    tf.summary.trace_on()
    f(tf.constant([1.0]))
    with writer.as_default():
        for step in range(3):
            tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
        tf.summary.histogram("h", [1.0, 2.0], step=0, buckets=2)
        tf.summary.text("note", "hello *there*", step=0)
        tf.summary.trace_export("trace", step=0)
    writer.close()
    board = program.TensorBoard()
    board.configure(argv=[None, "--logdir", str(tmp_path), "--host", "127.0.0.1", "--port",
                          "0", "--load_fast", "false", "--reload_interval", "0"])
    server = board._make_server()  # (what board.launch() serves, kept to shut it down)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = server.get_url()
    try:
        query = urllib.parse.urlencode({"run": "train", "tag": "loss"})
        for _ in range(300):  # (the first load runs in the background: up to 30 s)
            if "train" in _get(url + "data/plugin/scalars/tags"):
                break
            time.sleep(0.1)
        points = _get(f"{url}data/plugin/scalars/scalars?{query}")
        (_, _, buckets), = _get(url + "data/plugin/histograms/histograms?run=train&tag=h")
        (text,) = _get(url + "data/plugin/text/text?run=train&tag=note")
        with urllib.request.urlopen(url + "data/plugin/graphs/graph?run=train&tag=trace&"
                                          "conceptual=false", timeout=30) as response:
            graph = response.read().decode()
    finally:
        server.shutdown()
        thread.join()
    assert [(step, value) for _, step, value in points] == [(0, 1.0), (1, 0.5),
                                                            (2, np.float32(1 / 3))]
    assert buckets == [[1.0, 1.5, 1.0], [1.5, 2.0, 1.0]]
    assert text["text"] == "<p>hello <em>there</em></p>"
    assert 'op: "Relu"' in graph


_AS_TENSORFLOW = r"""
import sys
import eagerflow
sys.modules["tensorflow"] = eagerflow  # (how a program runs TF code on eagerflow)
import tensorflow as tf
from tensorboard.backend.event_processing import event_multiplexer
from tensorboard.plugins.hparams import api as hp
from tensorboard.plugins.hparams import metadata

root = sys.argv[1]
for run, units in (("a", 16), ("b", 32)):
    with tf.summary.create_file_writer(f"{root}/{run}").as_default():
        hp.hparams({"units": units}, trial_id=run)
        tf.summary.scalar("accuracy", units / 100, step=1)
mux = event_multiplexer.EventMultiplexer().AddRunsFromDirectory(root)
mux.Reload()
for run in sorted(mux.Runs()):
    info = metadata.parse_session_start_info_plugin_data(
        mux.SummaryMetadata(run, metadata.SESSION_START_INFO_TAG).plugin_data.content)
    print(run, info.hparams["units"].number_value, info.group_name,
          [(e.step, round(float(tf.make_ndarray(e.tensor_proto)), 2))
           for e in mux.Tensors(run, "accuracy")])
"""


def test_tensorboard_and_its_hparams_api_run_on_eagerflow_as_tensorflow(tmp_path):
    # TensorBoard imports `tensorflow` when it can: with eagerflow in its place, its
    # event reader (tensorflow.python.util.deprecation.silence) reads every run, and the
    # hparams API writes through eagerflow's writer
    import subprocess
    import sys
    pytest.importorskip("tensorboard.plugins.hparams")
    out = subprocess.run([sys.executable, "-c", _AS_TENSORFLOW, str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == ["a 16.0 a [(1, 0.16)]", "b 32.0 b [(1, 0.32)]"]


def test_v1_summaries_take_tensorboards_own_protobuf_classes(tmp_path):
    # TensorBoard's plugins (pr_curve's `op` and `pb`) build their SummaryMetadata and
    # Summary with TensorBoard's protobuf classes, not eagerflow's
    from tensorboard.compat.proto import summary_pb2
    metadata = summary_pb2.SummaryMetadata(display_name="curve")
    metadata.plugin_data.plugin_name = "pr_curves"
    value = tf.compat.v1.summary.tensor_summary("pr", tf.constant([1.0, 2.0]),
                                                summary_metadata=metadata)
    parsed = tf.compat.v1.Summary.FromString(value.numpy())
    assert parsed.value[0].metadata.plugin_data.plugin_name == "pr_curves"
    assert parsed.value[0].metadata.display_name == "curve"
    assert metadata.summary_description == ""

    summary = summary_pb2.Summary()
    summary.value.add(tag="raw", simple_value=0.5)
    with tf.Graph().as_default():
        writer = tf.compat.v1.summary.FileWriter(str(tmp_path))
        writer.add_summary(summary, global_step=3)
        writer.close()
    assert values(load(tmp_path), "raw") == [(3, np.float32(0.5))]
