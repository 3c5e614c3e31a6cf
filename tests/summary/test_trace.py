"""What `trace_export` and `graph` write, as TF 2 writes it: the graphs alone when only
graphs were traced, else the run's metadata; a graph with the shapes of its nodes."""
import glob
import os

import pytest

import eagerflow as tf


def summaries(logdir):
    (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
    return [(e.step, v) for r in tf.compat.v1.io.tf_record_iterator(path)
            for e in [tf.compat.v1.Event.FromString(r)] for v in e.summary.value]


@tf.function
def double(x):
    return x * 2.0


@pytest.mark.parametrize("options, plugin, graphs", [
    ({"graph": True}, "graph_run_metadata_graph", 1),
    ({"graph": False}, "graph_run_metadata", 0),
])
def test_trace_export_writes_graphs_or_run_metadata(tmp_path, options, plugin, graphs):
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(**options)
    double(tf.constant([1.0]))
    with writer.as_default():
        assert tf.summary.trace_export("run", step=2) is None
    writer.close()
    ((step, value),) = summaries(tmp_path)
    assert (step, value.tag) == (2, "run")
    assert value.metadata.plugin_data.plugin_name == plugin
    assert value.metadata.plugin_data.content == b"1"
    run = tf.compat.v1.RunMetadata.FromString(value.tensor.string_val[0])
    assert len(run.function_graphs) == graphs


def test_trace_export_checks_its_step_first():
    tf.summary.trace_on()
    try:
        with pytest.raises(ValueError, match="^Argument `step` must be a scalar"):
            tf.summary.trace_export("run", step=[1, 2])
    finally:
        tf.summary.trace_off()


def test_graph_of_a_graph_has_its_shapes(tmp_path):
    graph = double.get_concrete_function(tf.TensorSpec([3])).graph
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert bool(tf.summary.graph(graph))
        assert bool(tf.summary.graph(graph.as_graph_def()))  # (a GraphDef: as it is)
    writer.close()
    (path,) = glob.glob(os.path.join(str(tmp_path), "events.out.tfevents.*"))
    shaped, plain = [tf.compat.v1.GraphDef.FromString(e.graph_def)
                     for r in tf.compat.v1.io.tf_record_iterator(path)
                     for e in [tf.compat.v1.Event.FromString(r)] if e.graph_def]
    assert all("_output_shapes" in node.attr for node in shaped.node)
    assert not any("_output_shapes" in node.attr for node in plain.node)
    (x,) = [node for node in shaped.node if node.op == "Placeholder"]
    assert [d.size for d in x.attr["_output_shapes"].list.shape[0].dim] == [3]


def test_traced_graphs_are_function_bodies_as_tf_runs_them(tmp_path):
    @tf.function
    def split(x):
        a, b = tf.split(tf.nn.relu(x * 2.0), 2)
        return a, b

    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True)
    split(tf.constant([1.0, -2.0]))
    with writer.as_default():
        tf.summary.trace_export("run", step=0)
    writer.close()
    ((_, value),) = summaries(tmp_path)
    (entry,) = tf.compat.v1.RunMetadata.FromString(value.tensor.string_val[0]).function_graphs
    graph = entry.pre_optimization_graph
    nodes = {node.name: node for node in graph.node}
    # an _Arg per argument, a _Retval per result, inputs as a GraphDef names them
    assert nodes["x"].op == "_Arg" and nodes["x"].attr["index"].i == 0
    assert nodes["x"].attr["T"].type == tf.float32.as_datatype_enum
    assert "Placeholder" not in {node.op for node in graph.node}
    assert list(nodes["mul"].input) == ["x", "mul/y"]
    returned = [node for node in graph.node if node.op == "_Retval"]
    assert [node.name for node in returned] == ["identity_RetVal", "identity_1_RetVal"]
    assert [node.attr["index"].i for node in returned] == [0, 1]
    assert [list(node.input) for node in returned] == [["Identity"], ["Identity_1"]]
    assert list(nodes["Identity_1"].input)[0] == "split:1"
