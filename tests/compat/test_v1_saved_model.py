"""TF 1's SavedModel API (``tf.compat.v1.saved_model``: `load` into a Session, `simple_save`,
`Builder`) and a v1 graph's ``as_graph_def``: TF's SavedModels (tests/saved_model/data)
load into our Session giving TF's outputs, and what eagerflow writes TF loads and runs
(data/v1_saved_model/, recorded by data/make_v1_saved_model_data.py)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
import eagerflow.compat.v1 as tf1

from tests.compat.v1_saved_model_programs import (
    A, C, GRAPH_X, X, builder_program, graph_program, run_graph, simple_save_program)

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "data", "v1_saved_model")
TF_DATA = os.path.join(HERE, "..", "saved_model", "data")
with open(os.path.join(HERE, "data", "v1_saved_model.json")) as _f:
    RECORDED = json.load(_f)
with open(os.path.join(TF_DATA, "tf_outputs.json")) as _f:
    TF_OUTPUTS = json.load(_f)


def _serve(path, signature, feeds, tags=("serve",), import_scope=None):
    """Loads `path` into a new Session and runs `signature` on `feeds` (by input key)."""
    with tf1.Session(graph=tf1.Graph()) as sess:
        meta = tf1.saved_model.load(sess, list(tags), path, import_scope=import_scope)
        sig = meta.signature_def[signature]
        prefix = f"{import_scope}/" if import_scope else ""
        out = sess.run({k: prefix + v.name for k, v in sig.outputs.items()},
                       {prefix + sig.inputs[k].name: v for k, v in feeds.items()})
        with sess.graph.as_default():
            values = {v.name[len(prefix):-2]: sess.run(v).tolist()
                      for v in tf1.global_variables()}
    return meta, out, values


def test_tfs_simple_save_loads_into_a_session():
    expected = TF_OUTPUTS["tf1_simple_save"]
    path = os.path.join(TF_DATA, "tf1_simple_save")
    meta, out, values = _serve(path, "serving_default", {"x": np.array(expected["x"])})
    np.testing.assert_allclose(out["y"], expected["y"])
    assert list(meta.meta_info_def.tags) == ["serve"]
    assert values == {"w": [[1.0, -2.0], [0.5, 3.0]], "b": [0.25, -1.0]}
    with tf1.Session(graph=tf1.Graph()) as sess:  # the tensors by their names, as TF's do
        tf1.saved_model.loader.load(sess, [tf1.saved_model.tag_constants.SERVING], path)
        np.testing.assert_allclose(sess.run("y:0", {"x:0": expected["x"]}), expected["y"])
        with sess.graph.as_default():
            assert [v.name for v in tf1.trainable_variables()] == ["w:0", "b:0"]


def test_tfs_builder_signatures_share_its_variables():
    expected = TF_OUTPUTS["tf1_builder"]
    path = os.path.join(TF_DATA, "tf1_builder")
    _, out, values = _serve(path, "serving_default", {"a": expected["a"], "c": expected["c"]})
    np.testing.assert_allclose(out["total"], expected["total"])
    _, out, _ = _serve(path, "shift", {"a": expected["a"]})
    np.testing.assert_allclose(out["shifted"], expected["shifted"])
    assert out["count"] == 7 and out["count"].dtype == np.int64
    assert values == {"scale": 3.0, "count": 7}


def test_load_under_an_import_scope():
    expected = TF_OUTPUTS["tf1_simple_save"]
    _, out, values = _serve(os.path.join(TF_DATA, "tf1_simple_save"), "serving_default",
                            {"x": np.array(expected["x"])}, import_scope="imported")
    np.testing.assert_allclose(out["y"], expected["y"])
    assert values["b"] == [0.25, -1.0]


def test_what_we_write_tf_loads_with_its_values():
    """TF's v1 loader and TF 2's `tf.saved_model.load` ran data/v1_saved_model/ours_*: the
    outputs are TF's own programs' (the variables hold the session's trained values)."""
    np.testing.assert_allclose(RECORDED["ours_simple_save_v1"]["outputs"]["y"],
                               RECORDED["tf_simple_save"])
    np.testing.assert_allclose(RECORDED["ours_simple_save_v2"]["outputs"]["y"],
                               RECORDED["tf_simple_save"])
    assert RECORDED["ours_simple_save_v2"]["variables"] == ["b:0", "dense/w:0"]
    np.testing.assert_allclose(RECORDED["ours_builder_v1"]["outputs"]["total"],
                               RECORDED["tf_builder"]["total"])
    np.testing.assert_allclose(RECORDED["ours_builder_v2"]["total"],
                               RECORDED["tf_builder"]["total"])
    np.testing.assert_allclose(RECORDED["ours_builder_v1_shift"]["outputs"]["shifted"],
                               RECORDED["tf_builder"]["shifted"])
    # the main op set the local variable; ``train`` has none, and the saved int64 is 8
    assert RECORDED["ours_builder_v1"]["variables"] == {"scale": 3.0, "count": 8, "offset": 0.5}
    assert RECORDED["ours_builder_train_v1"]["variables"] == {"scale": 3.0, "count": 8}


def test_we_load_what_we_wrote_as_tf_does():
    _, out, values = _serve(os.path.join(DATA, "ours_simple_save"), "serving_default", {"x": X})
    np.testing.assert_allclose(out["y"], RECORDED["ours_simple_save_v1"]["outputs"]["y"])
    for name, value in RECORDED["ours_simple_save_v1"]["variables"].items():
        np.testing.assert_allclose(values[name], value)
    path = os.path.join(DATA, "ours_builder")
    _, out, values = _serve(path, "serving_default", {"a": A, "c": C})
    np.testing.assert_allclose(out["total"], RECORDED["ours_builder_v1"]["outputs"]["total"])
    assert values == {"scale": 3.0, "count": 8}
    with tf1.Session(graph=tf1.Graph()) as sess:
        tf1.saved_model.load(sess, ["serve"], path)
        with sess.graph.as_default():
            assert [sess.run(v) for v in tf1.local_variables()] == [0.5]  # (the main op's)
    _, out, _ = _serve(path, "bump", {"a": A}, tags=["train"])
    np.testing.assert_allclose(out["shifted"], RECORDED["ours_builder_train_v1"]["outputs"]
                               ["shifted"])
    m = tf.saved_model.load(os.path.join(DATA, "ours_simple_save"))  # TF 2's loader too
    np.testing.assert_allclose(m.signatures["serving_default"](x=tf.constant(X))["y"].numpy(),
                               RECORDED["ours_simple_save_v2"]["outputs"]["y"])


def _structure(path):
    """What TF's verdict on a SavedModel depends on: each MetaGraph's nodes, SaverDef,
    SignatureDefs and collections."""
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        data = f.read()
    from tests.internals import fingerprinting
    out = []
    for meta in fingerprinting.pb.SavedModel.FromString(data).meta_graphs:
        out.append((
            list(meta.meta_info_def.tags),
            [(n.name, n.op, list(n.input), sorted(n.attr)) for n in meta.graph_def.node],
            meta.saver_def.SerializeToString(deterministic=True),
            {k: v.SerializeToString(deterministic=True) for k, v in meta.signature_def.items()},
            {k: v.SerializeToString(deterministic=True) for k, v in meta.collection_def.items()}))
    return out


def test_written_today_is_what_tf_loaded(tmp_path):
    y = simple_save_program(tf1, str(tmp_path / "s"))
    np.testing.assert_allclose(y, RECORDED["tf_simple_save"], rtol=1e-6)
    assert _structure(tmp_path / "s") == _structure(os.path.join(DATA, "ours_simple_save"))
    assert sorted(os.listdir(tmp_path / "s")) == ["saved_model.pb", "variables"]
    out = builder_program(tf1, str(tmp_path / "b"))
    for k, v in out.items():
        np.testing.assert_allclose(v, RECORDED["tf_builder"][k])
    assert _structure(tmp_path / "b") == _structure(os.path.join(DATA, "ours_builder"))


def test_graph_def_is_tfs_v1_form():
    g = graph_program(tf1)
    graph_def = g.as_graph_def()
    nodes = {n.name: n for n in graph_def.node}
    assert nodes["v"].op == nodes["layer/w"].op == "VarHandleOp"
    assert nodes["v"].attr["shared_name"].s == b"v"
    assert nodes["v"].attr["dtype"].type == tf.float32.as_datatype_enum
    assert list(nodes["v/Assign"].input) == ["v", "v/Initializer/initial_value"]  # (TF's names)
    assert list(nodes["init"].input) == ["^v/Assign", "^layer/w/Assign"]
    assert list(nodes["ReadVariableOp_2"].input) == ["v", "^AssignAddVariableOp"]
    assert not [n for n in graph_def.node if n.op == "Placeholder" and n.name != "x"]
    assert [n.name for n in graph_def.node if n.op == "NoOp"] == [  # (TF's, gates and all)
        "gradients/mul_1_grad/tuple/group_deps", "gradients/add_grad/tuple/group_deps",
        "gradients/mul_grad/tuple/group_deps", "train", "init"]
    # as TF imported and ran it
    with open(os.path.join(DATA, "ours_graph.pb"), "rb") as f:
        written = type(graph_def).FromString(f.read())
    assert [(n.name, n.op, list(n.input)) for n in graph_def.node] == \
        [(n.name, n.op, list(n.input)) for n in written.node]
    assert RECORDED["ours_graph_run"] == RECORDED["tf_graph_run"]
    with tf1.Session(graph=g) as sess:
        ours = run_graph(lambda f, d: sess.run(f, d))
    for k, v in RECORDED["tf_graph_run"].items():
        np.testing.assert_allclose(ours[k], v, rtol=1e-6)
    shapes = {n.name: n for n in g.as_graph_def(add_shapes=True).node}
    assert "_output_shapes" in shapes["v"].attr and "_output_shapes" in shapes["y"].attr
    assert len(g.as_graph_def().node) == len(graph_def.node)  # (unchanged by writing it)
    assert GRAPH_X.shape == (3,)


def test_signature_helpers():
    with tf1.Graph().as_default() as g:
        x = tf1.placeholder(tf.float32, [None, 2], name="x")
        s = tf1.placeholder(tf.int32, name="s")
        info = tf1.saved_model.utils.build_tensor_info(x)
        assert (info.name, info.dtype) == ("x:0", tf.float32.as_datatype_enum)
        assert [d.size for d in info.tensor_shape.dim] == [-1, 2]
        assert tf1.saved_model.build_tensor_info(s).tensor_shape.unknown_rank
        sig = tf1.saved_model.signature_def_utils.build_signature_def({"x": info}, None, "m")
        assert sig.method_name == "m" and list(sig.inputs) == ["x"] and not sig.outputs
        predict = tf1.saved_model.predict_signature_def({"x": x}, {"s": s})
        assert predict.method_name == tf1.saved_model.signature_constants.PREDICT_METHOD_NAME
        assert tf1.saved_model.utils.get_tensor_from_tensor_info(info) is x
        with pytest.raises(ValueError, match="Prediction `inputs` cannot be None or empty."):
            tf1.saved_model.predict_signature_def({}, {"s": s})
        with pytest.raises(ValueError, match="Prediction `outputs` cannot be None or empty."):
            tf1.saved_model.predict_signature_def({"x": x}, None)
    assert g.get_tensor_by_name("x:0") is x
    with pytest.raises(RuntimeError, match="not supported in eager execution"):
        tf1.saved_model.build_tensor_info(tf.constant(1.0))
    assert tf1.saved_model.tag_constants.SERVING == "serve"
    assert tf1.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY == "serving_default"
    assert tf1.saved_model.MAIN_OP_KEY == "saved_model_main_op"


def test_builder_and_loader_errors(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "f").write_text("")
    with pytest.raises(AssertionError, match="already exists, and isn't empty"):
        tf1.saved_model.Builder(str(tmp_path / "full"))
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None], name="x")
        v = tf1.Variable(2.0, name="v")
        y = tf.identity(x * v, name="y")
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            builder = tf1.saved_model.builder.SavedModelBuilder(str(tmp_path / "m"))
            with pytest.raises(AssertionError, match="has not been saved yet"):
                builder.add_meta_graph(["serve"])
            builder.add_meta_graph_and_variables(sess, ["train"])
            with pytest.raises(AssertionError, match="has already been saved"):
                builder.add_meta_graph_and_variables(sess, ["serve"])
            builder.add_meta_graph(["serve"], signature_def_map={
                "serving_default": tf1.saved_model.predict_signature_def({"x": x}, {"y": y})})
            path = builder.save(as_text=True)
    assert path == os.path.join(str(tmp_path / "m"), "saved_model.pbtxt").encode()
    assert tf1.saved_model.maybe_saved_model_directory(str(tmp_path / "m"))
    assert not tf1.saved_model.loader.maybe_saved_model_directory(str(tmp_path))
    _, out, values = _serve(str(tmp_path / "m"), "serving_default", {"x": [1.0, 2.0]})
    np.testing.assert_allclose(out["y"], [2.0, 4.0])
    assert values == {"v": 2.0}
    with tf1.Session(graph=tf1.Graph()) as sess:
        with pytest.raises(RuntimeError, match=r"MetaGraphDef associated with tags 'nope' could "
                                               r"not be found in SavedModel, with available "
                                               r"tags '\[\{'train'\}, \{'serve'\}\]'"):
            tf1.saved_model.load(sess, ["nope"], str(tmp_path / "m"))
        with pytest.raises(OSError, match="SavedModel file does not exist at"):
            tf1.saved_model.load(sess, ["serve"], str(tmp_path / "none"))


def test_simple_save_without_variables(tmp_path):
    with tf1.Graph().as_default():
        x = tf1.placeholder(tf.float32, [None], name="x")
        y = tf.identity(x * 2.0, name="y")
        with tf1.Session() as sess:
            tf1.saved_model.simple_save(sess, str(tmp_path / "m"), {"x": x}, {"y": y})
    _, out, values = _serve(str(tmp_path / "m"), "serving_default", {"x": [1.0]})
    np.testing.assert_allclose(out["y"], [2.0])
    assert values == {}


def test_imported_graphs_keep_their_noops():
    """`init` and a train op of an imported TF graph are operations run by name."""
    meta = os.path.join(HERE, "data", "v1_meta", "model-2.meta")
    with tf1.Graph().as_default() as g:
        tf1.train.import_meta_graph(meta)
        assert g.get_operation_by_name("init").type == "NoOp"
        with tf1.Session() as sess:
            assert sess.run("init") is None
            w = next(v for v in tf1.global_variables() if v.name == "layer/w:0")
            assert sess.run(w).shape == (2, 1)


def _serve_only(path, feed):
    """The one output of `path`'s ``serving_default`` in a Session, fed `feed`."""
    with tf1.Session(graph=tf1.Graph()) as sess:
        meta = tf1.saved_model.load(sess, ["serve"], path)
        sig = meta.signature_def["serving_default"]
        (name,) = [i.name for i in sig.inputs.values()]
        return sess.run({k: v.name for k, v in sig.outputs.items()}, {name: feed})


@pytest.mark.parametrize("name", ["tf_module", "tf_keras", "tf_keras_cnn", "tf_keras_lstm"])
def test_tf2_savedmodels_load_into_a_session(name):
    """TF 2's SavedModels (an object-based checkpoint, signatures calling functions) load into
    a Session as TF's v1 loader loads them."""
    expected = TF_OUTPUTS[name]
    (out,) = _serve_only(os.path.join(TF_DATA, name), np.array(expected["x"],
                                                                np.float32)).values()
    np.testing.assert_allclose(out, expected["y"], rtol=1e-5, atol=1e-6)


def test_our_tf2_savedmodels_load_into_a_session_as_in_tf():
    with open(os.path.join(TF_DATA, "tf_loaded_ours.json")) as f:
        expected = json.load(f)
    out = _serve_only(os.path.join(TF_DATA, "ours_module"),
                      np.load(os.path.join(TF_DATA, "ours_module_x.npy")))
    for k, v in expected["v1_session_serving_default"].items():
        np.testing.assert_allclose(out[k], v, rtol=1e-6)
    out = _serve_only(os.path.join(TF_DATA, "ours_keras"),
                      np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0)
    np.testing.assert_allclose(out["out"], expected["keras_v1_session_serving_default"]["out"],
                               rtol=1e-6)
    with tf1.Session(graph=tf1.Graph()) as sess:
        with pytest.raises(tf.errors.UnimplementedError, match="two variables named 'Variable'"):
            tf1.saved_model.load(sess, ["serve"], os.path.join(TF_DATA, "tf_containers"))


@pytest.mark.parametrize("scope", ["", None, "imported"])
def test_graph_defs_with_variables_import_into_a_session(scope):
    """Our GraphDef (as TF ran it) and TF's own import with their variables, which the
    graphs' initializers set."""
    prefix = "" if scope == "" else (scope or "import") + "/"

    def run(sess):
        return lambda f, d: sess.run(prefix + f, d and {prefix + k: v for k, v in d.items()})

    with open(os.path.join(DATA, "ours_graph.pb"), "rb") as f:
        ours = tf1.GraphDef.FromString(f.read())
    with tf1.Graph().as_default():
        tf1.import_graph_def(ours, name=scope)
        with tf1.Session() as sess:
            got = run_graph(run(sess))
    for k, v in RECORDED["ours_graph_run"].items():
        np.testing.assert_allclose(got[k], v, rtol=1e-6)
    with open(os.path.join(DATA, "tf_graph.pb"), "rb") as f:
        theirs = tf1.GraphDef.FromString(f.read())
    with tf1.Graph().as_default() as g:
        tf1.import_graph_def(theirs, name=scope)
        assert g.get_operation_by_name(prefix + "init").type == "NoOp"
        with tf1.Session() as sess:
            step = run(sess)
            step("init", None)
            np.testing.assert_allclose(step("y:0", {"x:0": GRAPH_X}),
                                       RECORDED["tf_graph_run"]["y0"])
            assert step("bump:0", None) == 2.5
            np.testing.assert_allclose(step("y:0", {"x:0": GRAPH_X}), GRAPH_X * 2.5 + 1.0)
