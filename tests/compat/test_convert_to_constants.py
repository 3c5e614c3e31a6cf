"""Freezing a TF 2 function (``tensorflow.python.framework.convert_to_constants``) and the
local devices (``tensorflow.python.client.device_lib``): the private paths that TF 2
programs import these from."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.python.client import device_lib
from eagerflow.python.framework.convert_to_constants import (
    convert_variables_to_constants_v2, convert_variables_to_constants_v2_as_graph)


def _model():
    tf.keras.utils.set_random_seed(0)
    return tf.keras.Sequential([tf.keras.layers.Embedding(10, 3, input_length=2),
                                tf.keras.layers.Flatten(),
                                tf.keras.layers.Dense(4, activation="relu"),
                                tf.keras.layers.Dense(2)])


def _ops(graph_def):
    return {node.op for node in graph_def.node}


def test_a_frozen_keras_model_computes_its_outputs_from_constants(tmp_path):
    model = _model()
    concrete = tf.function(lambda x: model(x)).get_concrete_function(
        tf.TensorSpec([None, 2], tf.int32))
    frozen = convert_variables_to_constants_v2(concrete)
    ops = _ops(frozen.graph.as_graph_def())
    assert not ops & {"ReadVariableOp", "VarHandleOp", "ResourceGather"} and "Const" in ops
    assert [t.name for t in frozen.inputs] == ["x:0"] and frozen.variables == ()
    x = tf.constant([[1, 2], [3, 4]])
    want = model(x).numpy()
    got = frozen(x)
    assert isinstance(got, list) and len(got) == 1  # (the outputs as a flat list, as in TF)
    np.testing.assert_array_equal(got[0].numpy(), want)
    for v in model.weights:  # the values it was frozen with stay
        v.assign(tf.zeros_like(v))
    np.testing.assert_array_equal(frozen(x)[0].numpy(), want)

    # written as one GraphDef file, it runs again on its own
    tf.io.write_graph(frozen.graph, str(tmp_path), "frozen.pb", as_text=False)
    graph_def = tf.compat.v1.GraphDef.FromString((tmp_path / "frozen.pb").read_bytes())
    wrapped = tf.compat.v1.wrap_function(
        lambda: tf.compat.v1.import_graph_def(graph_def, name=""), [])
    np.testing.assert_array_equal(wrapped.prune("x:0", "Identity:0")(x).numpy(), want)


def test_structured_outputs_come_back_flat_and_as_graph_gives_the_graph_def():
    v = tf.Variable([1.0, 2.0])

    @tf.function(input_signature=[tf.TensorSpec([2])])
    def f(x):
        return {"a": x * v + 1.0, "b": tf.reduce_sum(v)}

    frozen, graph_def = convert_variables_to_constants_v2_as_graph(f.get_concrete_function())
    assert "ReadVariableOp" not in _ops(graph_def)
    a, b = frozen(tf.constant([1.0, 1.0]))
    np.testing.assert_array_equal(a.numpy(), [2.0, 3.0])
    assert float(b) == 3.0


def test_a_resource_gather_becomes_a_gather_of_the_constant():
    table = tf.Variable(np.arange(12.0, dtype=np.float32).reshape(4, 3))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def lookup(ids):
        return tf.raw_ops.ResourceGather(resource=table.handle, indices=ids, dtype=tf.float32)

    frozen = convert_variables_to_constants_v2(lookup.get_concrete_function())
    ops = _ops(frozen.graph.as_graph_def())
    assert "GatherV2" in ops and "ResourceGather" not in ops
    np.testing.assert_array_equal(frozen(tf.constant([3, 1]))[0].numpy(),
                                  [[9.0, 10.0, 11.0], [3.0, 4.0, 5.0]])


def test_a_variable_the_function_assigns_cannot_be_frozen():
    v = tf.Variable(1.0)

    @tf.function(input_signature=[tf.TensorSpec([])])
    def f(x):
        v.assign_add(x)
        return v.read_value()

    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot freeze the variable"):
        convert_variables_to_constants_v2(f.get_concrete_function())


def test_list_local_devices_gives_the_cpu_as_tf_describes_it():
    devices = device_lib.list_local_devices()
    assert [(d.name, d.device_type, d.memory_limit, d.xla_global_id) for d in devices] == [
        ("/device:CPU:0", "CPU", 268435456, -1)]
    assert devices[0].HasField("locality")
    again = type(devices[0]).FromString(devices[0].SerializeToString())
    assert again.incarnation == devices[0].incarnation
    assert devices[0].incarnation == tf.compat.v1.Session().list_devices()[0].incarnation


def test_the_older_paths_of_tf1_switches_files_and_numpy_behaviour(tmp_path):
    from eagerflow.python.framework import ops
    from eagerflow.python.ops.numpy_ops import np_config
    from eagerflow.python.platform import gfile
    assert ops.disable_eager_execution is tf.compat.v1.disable_eager_execution
    assert ops.reset_default_graph is tf.compat.v1.reset_default_graph
    assert ops.convert_to_tensor is tf.compat.v1.convert_to_tensor
    assert np_config.enable_numpy_behavior is (
        tf.experimental.numpy.experimental_enable_numpy_behavior)
    path = str(tmp_path / "graph.pb")
    with gfile.GFile(path, "wb") as f:
        f.write(b"abc")
    assert gfile.Exists(path)
    with gfile.FastGFile(path, "rb") as f:
        assert f.read() == b"abc"
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        ops.nothing_here
