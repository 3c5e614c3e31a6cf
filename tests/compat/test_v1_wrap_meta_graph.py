"""TF 2's way to load a TF 1 checkpoint: `tf.compat.v1.wrap_function` around `import_meta_graph`,
the saver's restore (and save) operations pruned out and run by their names in its
``SaverDef``, against meta graphs and checkpoints TF 1 wrote with resource and reference
variables and a sharded saver, and what TF 2 gives for them (`data/make_v1_wrap_meta_data.py`)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_train_programs import META_X

DATA = os.path.join(os.path.dirname(__file__), "data")
with open(os.path.join(DATA, "v1_wrap_meta.json")) as _f:
    RECORDED = json.load(_f)


def _prefix(kind):
    return os.path.join(DATA, "v1_wrap_meta", kind, "model-2")


def _wrapped(kind, import_scope=None):
    box = {}

    def imports():
        box["saver"] = tf1.train.import_meta_graph(_prefix(kind) + ".meta",
                                                   import_scope=import_scope)

    return tf1.wrap_function(imports, []), box["saver"].saver_def


def _values(wrapped):
    return {v.name: v.numpy().tolist() for v in wrapped.variables}


def _close(got, want):
    assert sorted(got) == sorted(want)
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-6, err_msg=key)


@pytest.mark.parametrize("kind", ["resource", "ref", "sharded"])
def test_restores_trains_and_saves_through_the_savers_own_operations(kind, tmp_path):
    want = RECORDED[kind]
    wrapped, saver_def = _wrapped(kind)
    g = wrapped.graph
    assert [saver_def.filename_tensor_name, saver_def.save_tensor_name,
            saver_def.restore_op_name] == want["saver_def"]
    restore = wrapped.prune(g.as_graph_element(saver_def.filename_tensor_name),
                            g.as_graph_element(saver_def.restore_op_name))
    assert restore(tf.constant(_prefix(kind))) is None
    predict = wrapped.prune("x:0", "y:0")
    np.testing.assert_allclose(predict(tf.constant(META_X)).numpy(), want["y"], rtol=1e-6)
    # (the training op waits on the updates by control inputs, through a constant)
    loss, _ = wrapped.prune("x:0", ["loss:0", "train"])(tf.constant(META_X))
    np.testing.assert_allclose(loss.numpy(), want["loss"], rtol=1e-6)
    np.testing.assert_allclose(predict(tf.constant(META_X)).numpy(), want["y_trained"],
                               rtol=1e-6)
    save = wrapped.prune(g.as_graph_element(saver_def.filename_tensor_name),
                         g.as_graph_element(saver_def.save_tensor_name))
    path = str(tmp_path / "again")
    assert os.path.basename(save(tf.constant(path)).numpy().decode()) == want["save_returns"]
    _close({name: tf.train.load_variable(path, name).tolist()
            for name, _ in tf.train.list_variables(path)}, want["saved"])


def test_resource_variables_are_lifted_out_uninitialized():
    want = RECORDED["resource"]
    wrapped, saver_def = _wrapped("resource")
    g = wrapped.graph
    assert sorted(v.name for v in wrapped.variables) == want["variables"]
    assert sorted(v.name for v in wrapped.trainable_variables) == want["trainable"]
    with pytest.raises(tf.errors.FailedPreconditionError):
        wrapped.variables[0].numpy()
    assert sorted(v.name for v in g.get_collection("variables")) == want["variables"]
    wrapped.prune([], g.get_operation_by_name("init"))()
    _close(_values(wrapped), want["initialized"])
    wrapped.prune(g.as_graph_element(saver_def.filename_tensor_name),
                  g.as_graph_element(saver_def.restore_op_name))(tf.constant(_prefix("resource")))
    _close(_values(wrapped), want["restored"])
    wrapped.prune("x:0", "train")(tf.constant(META_X))
    _close(_values(wrapped), want["trained"])


def test_import_scope_prefixes_the_savers_operations_too():
    wrapped, saver_def = _wrapped("resource", import_scope="m")
    assert sorted(v.name for v in wrapped.variables) == [
        "m/" + n for n in RECORDED["resource"]["variables"]]
    wrapped.prune("m/save/Const:0", wrapped.graph.get_operation_by_name("m/save/restore_all"))(
        tf.constant(_prefix("resource")))
    np.testing.assert_allclose(wrapped.prune("m/x:0", "m/y:0")(tf.constant(META_X)).numpy(),
                               RECORDED["resource"]["y"], rtol=1e-6)


def test_a_missing_checkpoint_fails_the_restore_as_tfs():
    wrapped, saver_def = _wrapped("resource")
    restore = wrapped.prune(wrapped.graph.as_graph_element(saver_def.filename_tensor_name),
                            wrapped.graph.as_graph_element(saver_def.restore_op_name))
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
        restore(tf.constant("/nonexistent/model"))


def test_returning_the_saver_is_tfs_type_error():
    with pytest.raises(TypeError, match="^To be compatible with tf.function, Python functions "
                                        "must return zero or more Tensors"):
        tf1.wrap_function(lambda: tf1.train.import_meta_graph(_prefix("resource") + ".meta"), [])


def test_a_placeholder_with_default_imports_as_its_default_unless_fed():
    gd = tf.compat.v1.GraphDef()
    const = gd.node.add(name="d", op="Const")
    const.attr["dtype"].type = tf.float32.as_datatype_enum
    const.attr["value"].tensor.CopyFrom(tf.make_tensor_proto([1.0, 2.0]))
    node = gd.node.add(name="p", op="PlaceholderWithDefault", input=["d"])
    node.attr["dtype"].type = tf.float32.as_datatype_enum
    node.attr["shape"].shape.dim.add().size = -1
    doubled = gd.node.add(name="y", op="Mul", input=["p", "p"])
    doubled.attr["T"].type = tf.float32.as_datatype_enum
    wrapped = tf1.wrap_function(lambda: tf1.import_graph_def(gd, name=""), [])
    assert wrapped.graph.get_tensor_by_name("p:0").shape.as_list() == [None]
    assert wrapped.prune([], "y:0")().numpy().tolist() == [1.0, 4.0]
    assert wrapped.prune("p:0", "y:0")(tf.constant([3.0, 1.0, 2.0])).numpy().tolist() == [
        9.0, 1.0, 4.0]


def test_a_missing_meta_graph_file_is_tfs_os_error(tmp_path):
    path = str(tmp_path / "gone.meta")
    with pytest.raises(OSError, match=f"^File does not exist. Received: {path}.$") as caught:
        tf1.train.import_meta_graph(path)
    assert type(caught.value) is OSError


def test_placeholders_made_in_a_wrapped_function_are_fed_through_prune():
    # TF 1 code wrapped as it is (placeholders and all), then pruned from a placeholder to
    # an output, as TF's migration guide does (placeholder raised "not compatible with eager
    # execution" inside the wrapped function).
    def graph_code():
        a = tf1.placeholder(tf.float32, [None], name="a")
        b = tf.reduce_sum(a, name="b")
        tf.multiply(b, 2.0, name="c")

    wrapped = tf1.wrap_function(graph_code, [])
    pruned = wrapped.prune(feeds="a:0", fetches="c:0")
    assert float(pruned(tf.constant([1.0, 2.0, 3.0]))) == 12.0
    both = wrapped.prune(feeds=["a:0"], fetches={"s": "b:0", "c": "c:0"})
    assert {k: float(v) for k, v in both(tf.constant([1.0, 2.0])).items()} == {"s": 3.0,
                                                                             "c": 6.0}
