"""tf.saved_model: SavedModels written by TensorFlow 2.21 load and compute TF's outputs;
those written here load back, and TF loaded them (data/load_ours_in_tf.py recorded what it
computed)."""
import json
import os
import re
import shutil

import numpy as np
import pytest

import eagerflow as tf
from tests import internals
from tests.saved_model.programs import (
    loop_gradient_class, loop_gradient_results,
    DENSE_KEYS, VECTOR_IDS, VECTOR_KEYS, affine_class, custom_gradient_module,
    custom_gradient_results)

DATA = os.path.join(os.path.dirname(__file__), "data")


def _json(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


Affine = affine_class(tf)


# -- written by TensorFlow ------------------------------------------------------------------

def test_tf_module_loads_with_its_variables_and_computes_tfs_outputs():
    expected = _json("tf_outputs.json")["tf_module"]
    m = tf.saved_model.load(os.path.join(DATA, "tf_module"))
    np.testing.assert_array_equal(m.w.numpy(), [[1.0, -2.0], [0.5, 3.0]])
    assert m.w.name == "w:0" and m.w.trainable
    x = tf.constant(expected["x"])
    np.testing.assert_allclose(m(x).numpy(), expected["y"], rtol=1e-6)
    np.testing.assert_allclose(m.__call__(x=x).numpy(), expected["y"], rtol=1e-6)
    out = m.signatures["serving_default"](x=x)
    assert list(out) == ["output_0"]
    np.testing.assert_allclose(out["output_0"].numpy(), expected["y"], rtol=1e-6)
    # a variable assigned after loading is what the functions read
    m.b.assign([0.0, 0.0])
    np.testing.assert_allclose(m(tf.constant([[1.0, 1.0]])).numpy(), [[1.5, 1.0]])


def test_tf_keras_sequential_loads_and_computes_tfs_outputs():
    expected = _json("tf_outputs.json")["tf_keras"]
    m = tf.saved_model.load(os.path.join(DATA, "tf_keras"))
    x = tf.constant(expected["x"])
    out = m.signatures["serving_default"](x)
    (value,) = out.values()
    np.testing.assert_allclose(value.numpy(), expected["y"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m(x).numpy(), expected["y"], rtol=1e-5, atol=1e-6)
    assert len(m.variables) == 4


def test_restored_function_arguments_not_matching_raise_tfs_errors():
    m = tf.saved_model.load(os.path.join(DATA, "tf_module"))
    # bound to the saved input signature, as TF binds it
    with pytest.raises(TypeError, match=r"Binding inputs to tf.function failed due to `Can not "
                                        r"cast TensorSpec\(shape=\(1, 2\), dtype=tf.int32"):
        m(tf.constant([[1, 2]]))
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        m(tf.constant([1.0, 2.0, 3.0]))
    # a function saved with its traces: no trace takes a float
    ours = tf.saved_model.load(os.path.join(DATA, "ours_module"))
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        ours.count(tf.constant(2.0))


def test_restored_functions_take_variables_lists_and_run_inside_functions_and_tapes():
    m = tf.saved_model.load(os.path.join(DATA, "tf_module"))
    expected = [[2.25, 3.0]]
    np.testing.assert_array_equal(m(tf.Variable([[1.0, 2.0]])).numpy(), expected)
    np.testing.assert_array_equal(m([[1.0, 2.0]]).numpy(), expected)
    assert m(tf.zeros([0, 2])).shape == (0, 2)

    @tf.function
    def twice(x):
        return m(x) * 2.0

    np.testing.assert_array_equal(twice(tf.constant([[1.0, 2.0]])).numpy(), [[4.5, 6.0]])
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(m(x))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [[-1.0, 3.5]])
    np.testing.assert_array_equal(tape.gradient(y, m.w).numpy(), [[1.0, 1.0], [2.0, 2.0]])


# -- written here ---------------------------------------------------------------------------

def test_round_trip_of_a_module(tmp_path):
    m = Affine()
    path = str(tmp_path / "affine")
    tf.saved_model.save(m, path)
    assert sorted(os.listdir(path)) == [  # as TF writes them
        "assets", "fingerprint.pb", "saved_model.pb", "variables"]
    assert sorted(os.listdir(os.path.join(path, "variables"))) == [
        "variables.data-00000-of-00001", "variables.index"]
    loaded = tf.saved_model.load(path)
    x = tf.constant([[1.0, 2.0], [-3.0, 0.5]])
    np.testing.assert_array_equal(loaded(x).numpy(), m(x).numpy())
    np.testing.assert_array_equal(loaded.signatures["serving_default"](x=x)["output_0"].numpy(),
                                  m(x).numpy())
    # (as TF's, a restored object has what was saved: its variables by name, no Module API)
    assert (loaded.w.name, loaded.b.name) == ("w:0", "b:0")
    assert not hasattr(loaded, "variables") and not hasattr(loaded, "name")
    assert "trainable_variables" not in dir(loaded)
    # the variables are a checkpoint of the saved object graph
    names = dict(tf.train.list_variables(os.path.join(path, "variables", "variables")))
    assert names["w/.ATTRIBUTES/VARIABLE_VALUE"] == [2, 2]


def test_lists_dicts_and_nested_modules_of_every_dtype_round_trip(tmp_path):
    m = tf.Module()
    m.layers = [tf.Variable(1.0), tf.Variable([1, 2], dtype=tf.int64)]
    m.table = {"flag": tf.Variable(True), "word": tf.Variable(b"hello")}
    m.sub = tf.Module()
    m.sub.half = tf.Variable(np.float16(2.5))
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert isinstance(loaded.layers, list) and isinstance(loaded.table, dict)
    assert loaded.layers[1].dtype == tf.int64
    np.testing.assert_array_equal(loaded.layers[1].numpy(), [1, 2])
    assert loaded.table["word"].numpy() == b"hello" and bool(loaded.table["flag"].numpy())
    assert loaded.sub.half.dtype == tf.float16 and float(loaded.sub.half.numpy()) == 2.5


def test_tf_lists_and_dicts_load_as_lists_and_dicts():
    m = tf.saved_model.load(os.path.join(DATA, "tf_containers"))
    assert isinstance(m.items, list) and isinstance(m.table, dict)
    np.testing.assert_array_equal(m.items[1].numpy(), [2, 3])
    assert m.table["a"].numpy() == b"text"


def test_saved_values_are_those_at_save_time(tmp_path):
    m = Affine()
    m.b.assign([10.0, 10.0])
    tf.saved_model.save(m, str(tmp_path))
    m.b.assign([0.0, 0.0])
    loaded = tf.saved_model.load(str(tmp_path))
    np.testing.assert_array_equal(loaded.b.numpy(), [10.0, 10.0])


def test_signatures_argument_forms(tmp_path):
    m = Affine()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def double(v):
        return v * 2.0, v + 1.0

    m.double = double
    concrete = tf.function(lambda a: {"neg": -a}).get_concrete_function(
        tf.TensorSpec([2], tf.float32, name="a"))
    tf.saved_model.save(m, str(tmp_path), signatures={"dbl": double, "neg": concrete})
    loaded = tf.saved_model.load(str(tmp_path))
    assert sorted(loaded.signatures) == ["dbl", "neg"]
    out = loaded.signatures["dbl"](v=tf.constant([1.0, 2.0]))
    assert sorted(out) == ["output_0", "output_1"]
    np.testing.assert_array_equal(out["output_1"].numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(
        loaded.signatures["neg"](a=tf.constant([1.0, -1.0]))["neg"].numpy(), [-1.0, 1.0])
    np.testing.assert_array_equal(loaded.double(tf.constant([3.0]))[0].numpy(), [6.0])


def test_no_serving_default_when_the_root_has_two_signature_functions(tmp_path):
    m = Affine()
    m.other = tf.function(lambda x: x, input_signature=[tf.TensorSpec([], tf.float32)])
    tf.saved_model.save(m, str(tmp_path))
    assert len(tf.saved_model.load(str(tmp_path)).signatures) == 0
    tf.saved_model.save(m, str(tmp_path), signatures=m.__call__)
    assert list(tf.saved_model.load(str(tmp_path)).signatures) == ["serving_default"]


def test_a_function_without_input_signature_is_not_a_signature(tmp_path):
    m = tf.Module()
    m.f = tf.function(lambda x: x + 1)
    with pytest.raises(ValueError, match=r"^Expected a TensorFlow function for which to "
                                         r"generate a signature, but got .*Only `tf.functions` "
                                         r"with an input signature"):
        tf.saved_model.save(m, str(tmp_path), signatures=m.f)


def test_traced_functions_are_saved_with_every_trace(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(2)
    m.f = tf.function(lambda x: x * m.v)
    m.f(tf.constant(3))
    m.f(tf.constant([1, 2]))
    tf.saved_model.save(m, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert int(loaded.f(tf.constant(5))) == 10
    np.testing.assert_array_equal(loaded.f(tf.constant([4, 5])).numpy(), [8, 10])


class _Traced(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0, trainable=False)

    @tf.function
    def f(self, x, training=False, scale=1.0):
        return x * self.v * scale if training else x

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32),
                                  tf.TensorSpec([2], tf.int32, name="ids")])
    def g(self, a, b):
        return a + tf.cast(b, tf.float32), b


def test_traces_with_python_arguments_are_chosen_by_them(tmp_path):
    m = _Traced()
    m.f(tf.constant(1.0))
    m.f(tf.constant(1.0), training=True)
    m.f(tf.constant([1.0, 2.0]), True, 3.0)
    tf.saved_model.save(m, str(tmp_path), signatures={"g": m.g})
    loaded = tf.saved_model.load(str(tmp_path))
    assert float(loaded.f(tf.constant(5.0))) == 5.0
    assert float(loaded.f(tf.constant(5.0), training=True)) == 10.0
    assert float(loaded.f(x=tf.constant(5.0), training=True)) == 10.0
    np.testing.assert_array_equal(loaded.f(tf.constant([1.0, 2.0]), True, 3.0).numpy(),
                                  [6.0, 12.0])
    assert not loaded.v.trainable
    # signature inputs are named by spec name, else by argument name, as in TF
    out = loaded.signatures["g"](a=tf.constant(1.0), ids=tf.constant([1, 2]))
    np.testing.assert_array_equal(out["output_0"].numpy(), [2.0, 3.0])
    assert out["output_1"].dtype == tf.int32
    assert loaded.signatures["g"].structured_outputs["output_0"].shape == (2,)


def test_saving_a_non_trackable_object_raises_tfs_valueerror(tmp_path):
    for obj in (3, object()):
        with pytest.raises(ValueError, match="Expected an object of type `Trackable`, such as "
                                             "`tf.Module`"):
            tf.saved_model.save(obj, str(tmp_path))
    assert not os.listdir(str(tmp_path))


def test_untracked_variable_raises(tmp_path):
    v = tf.Variable(1.0)
    m = tf.Module()
    m.f = tf.function(lambda: v + 1.0, input_signature=[])
    with pytest.raises(AssertionError, match="untracked"):
        tf.saved_model.save(m, str(tmp_path))


def test_function_aliases_are_saved_and_loaded(tmp_path):
    m = Affine()
    options = tf.saved_model.SaveOptions(function_aliases={"affine": m.__call__})
    tf.saved_model.save(m, str(tmp_path), options=options)
    loaded = tf.saved_model.load(str(tmp_path), options=tf.saved_model.LoadOptions(
        experimental_load_function_aliases=True))
    np.testing.assert_array_equal(loaded.function_aliases["affine"](
        tf.constant([[1.0, 1.0]])).numpy(), [[1.75, 0.0]])
    with pytest.raises(TypeError, match="Functions in `function_aliases` should be created"):
        tf.saved_model.save(m, str(tmp_path), options=tf.saved_model.SaveOptions(
            function_aliases={"x": lambda: 1}))


def test_options_are_accepted(tmp_path):
    tf.saved_model.save(Affine(), str(tmp_path), options=tf.saved_model.SaveOptions())
    loaded = tf.saved_model.load(str(tmp_path), tags=["serve"],
                                 options=tf.saved_model.LoadOptions())
    assert tf.saved_model.contains_saved_model(str(tmp_path))
    with pytest.raises(TypeError):
        tf.saved_model.save(Affine(), str(tmp_path), options={})
    assert loaded.w.shape == (2, 2)


def test_tf_lookup_tables_load_and_give_tfs_lookups():
    """A StaticHashTable from constants, a StaticVocabularyTable from a vocabulary asset and
    a MutableHashTable whose entries are in the checkpoint (data/make_tf_savedmodels.py)."""
    expected = _json("tf_outputs.json")["tf_tables"]
    m = tf.saved_model.load(os.path.join(DATA, "tf_tables"))
    keys = tf.constant(expected["keys"])
    for out in (m.lookup(keys), m.signatures["serving_default"](keys=keys)):
        assert sorted(out) == ["hash", "mutable", "vocab"]
        for k, v in out.items():
            assert v.numpy().tolist() == expected[k], k
    assert m.hash.resource_handle.shape == ()

    @tf.function
    def both(k):
        return m.lookup(k)["vocab"] + 1

    assert both(keys).numpy().tolist() == [v + 1 for v in expected["vocab"]]


def test_tf_keras_string_lookup_model_loads_with_its_vocabulary():
    expected = _json("tf_outputs.json")["tf_keras_stringlookup"]
    path = os.path.join(DATA, "tf_keras_stringlookup")
    x = tf.constant(expected["x"])
    sig = tf.saved_model.load(path).signatures["serving_default"]
    assert [v.numpy().tolist() for v in sig(x).values()] == [expected["y"]]
    model = tf.keras.models.load_model(path)
    assert model(x).numpy().tolist() == expected["y"]


def test_tf_keras_text_vectorization_model_loads_with_its_adapted_vocabulary():
    """tf_keras records an adapted vocabulary in neither the config nor the checkpoint: it
    comes from the SavedModel's table (its functions split the text with TF's ragged ops)."""
    expected = _json("tf_outputs.json")["tf_keras_text"]
    path = os.path.join(DATA, "tf_keras_text")
    x = tf.constant(expected["x"])
    sig = tf.saved_model.load(path).signatures["serving_default"]
    assert [v.numpy().tolist() for v in sig(x).values()] == [expected["y"]]
    model = tf.keras.models.load_model(path)
    assert model(x).numpy().tolist() == expected["y"]
    assert model.layers[1].get_vocabulary()[:4] == ["", "[UNK]", "the", "sat"]


def _make_ours():
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_ours", os.path.join(DATA, "make_ours.py"))
    make_ours = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_ours)
    return make_ours


def test_tf_loaded_our_tables_and_gave_our_lookups():
    """TF loaded data/ours_tables and data/ours_keras_text (make_ours.py tables) and recorded
    its lookups (load_ours_in_tf.py tables): the vocabulary asset, the tables' initializers
    and the mutable table's checkpointed entries all made it; eagerflow agrees."""
    expected = _json("tf_loaded_ours.json")["tables"]
    keys = tf.constant(expected["keys"])
    m = tf.saved_model.load(os.path.join(DATA, "ours_tables"))
    # (TF 1's loader too: the init op's initializers and the SaverDef's restore of the
    # mutable table's entries)
    assert expected["lookup"] == expected["serving_default"] == \
        expected["v1_session_serving_default"]
    for k, v in m.lookup(keys).items():
        assert v.numpy().tolist() == expected["lookup"][k], k
    text = tf.constant(expected["text"])
    keras = tf.saved_model.load(os.path.join(DATA, "ours_keras_text"))
    assert keras(text).numpy().tolist() == expected["text_call"]
    assert {k: v.numpy().tolist() for k, v in keras.signatures["serving_default"](
        text).items()} == expected["text_serving_default"]


def test_tables_saved_today_load_with_tfs_lookups(tmp_path):
    """What make_ours.py writes today (tables saved as TF's resources, the vocabulary file
    under assets/) gives the lookups TF recorded of the checked-in copy."""
    expected = _json("tf_loaded_ours.json")["tables"]
    make_ours = _make_ours()
    make_ours.HERE = str(tmp_path)
    shutil.copy(os.path.join(DATA, "tables_vocab.txt"), str(tmp_path))
    make_ours.tables()
    assert os.listdir(str(tmp_path / "ours_tables" / "assets")) == ["tables_vocab.txt"]
    with open(os.path.join(DATA, "ours_tables", "saved_model.pb"), "rb") as f:
        checked_in = f.read()
    with open(str(tmp_path / "ours_tables" / "saved_model.pb"), "rb") as f:
        assert f.read() == checked_in  # (what TF loaded)
    os.remove(str(tmp_path / "tables_vocab.txt"))  # (the SavedModel reads its own copy)
    m = tf.saved_model.load(str(tmp_path / "ours_tables"))
    keys = tf.constant(expected["keys"])
    for out in (m.lookup(keys), m.signatures["serving_default"](keys=keys)):
        assert {k: v.numpy().tolist() for k, v in out.items()} == expected["lookup"]
    from tests.internals import fingerprinting
    with open(str(tmp_path / "ours_tables" / "saved_model.pb"), "rb") as f:
        meta = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0]
    ops = {n.op for n in meta.graph_def.node}
    assert {"HashTableV2", "MutableHashTableV2"} <= ops
    assert [a.filename for a in meta.asset_file_def] == ["tables_vocab.txt"]
    resources = [n for n in meta.object_graph_def.nodes if n.WhichOneof("kind") == "resource"]
    assert len(resources) == 3
    for node in resources:
        names = [c.local_name for c in node.children]
        assert names[-3:] == ["_create_resource", "_initialize", "_destroy_resource"]
    text = tf.constant(expected["text"])
    model = tf.keras.models.load_model(str(tmp_path / "ours_keras_text"))
    assert model(text).numpy().tolist() == expected["text_call"]


def test_a_function_capturing_an_untracked_table_cannot_be_saved(tmp_path):
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a"], [1]), -1)
    m = tf.Module()
    m.f = tf.function(lambda x: table.lookup(x),
                      input_signature=[tf.TensorSpec([None], tf.string)])
    with pytest.raises(AssertionError, match="untracked"):
        tf.saved_model.save(m, str(tmp_path))


def test_tf_loaded_what_is_written_here():
    """TF computed these from data/ours_module (data/make_ours.py); eagerflow loads it too,
    and writes the same SavedModel today."""
    expected = _json("tf_loaded_ours.json")
    assert expected["saved_model_cli_ok"]
    x = tf.constant(np.load(os.path.join(DATA, "ours_module_x.npy")))
    m = tf.saved_model.load(os.path.join(DATA, "ours_module"))
    for k, v in m.predict(x).items():
        np.testing.assert_allclose(v.numpy(), expected["predict"][k])
    sig = m.signatures["serving_default"](features=x)
    for k, v in sig.items():
        np.testing.assert_allclose(v.numpy(), expected["serving_default"][k])
    assert m.count(tf.constant(4)).numpy().tolist() == expected["count"]
    assert float(m.bias.numpy()) == expected["bias"]


def test_tf1_loader_restored_our_variables_through_the_saver_def():
    """TF 1's loader (TF Serving's C++ one) runs the restore the SaverDef names: it served
    our SavedModels with their variables, and the SaverDef's save wrote them by key."""
    expected = _json("tf_loaded_ours.json")
    for k, v in expected["v1_session_serving_default"].items():
        np.testing.assert_allclose(v, expected["serving_default"][k])
    assert expected["v1_saver_wrote"] == {"bias/.ATTRIBUTES/VARIABLE_VALUE": 1.5,
                                          "inner/scale/.ATTRIBUTES/VARIABLE_VALUE": [2.0, -1.0,
                                                                                     0.5]}
    np.testing.assert_allclose(expected["keras_v1_session_serving_default"]["out"],
                               expected["keras_expected"], rtol=1e-6)
    from tests.internals import fingerprinting
    with open(os.path.join(DATA, "ours_module", "saved_model.pb"), "rb") as f:
        meta = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0]
    nodes = {n.name: n for n in meta.graph_def.node}
    assert meta.saver_def.filename_tensor_name == "saver_filename:0"
    assert nodes["saver_filename"].op == "Placeholder"
    assert nodes[meta.saver_def.save_tensor_name.split(":")[0]].op == "StatefulPartitionedCall"
    assert nodes[meta.saver_def.restore_op_name].op == "StatefulPartitionedCall"


def test_written_today_matches_what_tf_loaded(tmp_path):
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_ours", os.path.join(DATA, "make_ours.py"))
    make_ours = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_ours)
    m = make_ours.Model()
    m.count(tf.constant(4))
    tf.saved_model.save(m, str(tmp_path))
    with open(os.path.join(DATA, "ours_module", "saved_model.pb"), "rb") as f:
        checked_in = f.read()
    with open(os.path.join(str(tmp_path), "saved_model.pb"), "rb") as f:
        today = f.read()
    assert today == checked_in


def test_tf_sees_the_shapes_of_our_signatures_outputs():
    """TF loading data/ours_module and data/ours_keras (which eagerflow writes today, as
    test_written_today_matches_what_tf_loaded checks) gives their signatures' outputs the
    shapes eagerflow gives them (the functions' bodies record each node's output shapes, as
    TF's do), not unknown shapes."""
    recorded = _json("tf_loaded_ours.json")["output_shapes"]
    for name, key in (("ours_module", "serving_default"), ("ours_keras", "keras_serving_default")):
        signature = tf.saved_model.load(os.path.join(DATA, name)).signatures["serving_default"]
        assert recorded[key] == [str(t.shape) for t in signature.outputs]
        assert "<unknown>" not in recorded[key]
    assert recorded["serving_default"] == ["(None, 3)", "(None,)"]


def test_saved_function_bodies_record_their_nodes_output_shapes(tmp_path):
    m = affine_class(tf)()
    tf.saved_model.save(m, str(tmp_path))
    proto = internals.saved_model_protos.SavedModel()
    with open(str(tmp_path / "saved_model.pb"), "rb") as f:
        proto.ParseFromString(f.read())
    functions = {f.signature.name: f for f in proto.meta_graphs[0].graph_def.library.function}
    call = next(f for name, f in functions.items() if "__call__" in name and
                "signature_wrapper" not in name)
    shapes = {n.name: [[d.size for d in s.dim] for s in n.attr["_output_shapes"].list.shape]
              for n in call.node_def}
    assert shapes["MatMul"] == [[-1, 2]] and shapes["Relu"] == [[-1, 2]]
    assert [[d.size for d in s.dim] for s in call.arg_attr[0].attr["_output_shapes"].list.shape] \
        == [[-1, 2]]
    wrapper = next(f for name, f in functions.items() if "signature_wrapper" in name)
    for node in wrapper.node_def:
        if node.op != "NoOp":
            assert [[d.size for d in s.dim] for s in node.attr["_output_shapes"].list.shape] \
                == [[-1, 2]], node.name


# -- errors ---------------------------------------------------------------------------------

def test_missing_directory_raises_tfs_oserror(tmp_path):
    path = str(tmp_path / "nothing")
    with pytest.raises(OSError, match=r"SavedModel file does not exist at: .*nothing/"
                                      r"\{saved_model.pbtxt\|saved_model.pb\}"):
        tf.saved_model.load(path)


def test_corrupt_saved_model_raises_tfs_oserror(tmp_path):
    shutil.copytree(os.path.join(DATA, "tf_module"), str(tmp_path / "m"))
    with open(str(tmp_path / "m" / "saved_model.pb"), "wb") as f:
        f.write(b"garbage\n")
    with pytest.raises(OSError, match="Cannot parse file b'.*saved_model.pb': Error parsing "
                                      "message with type 'tensorflow.SavedModel'"):
        tf.saved_model.load(str(tmp_path / "m"))


def test_wrong_tags_raise_tfs_valueerror():
    with pytest.raises(ValueError, match=r"Got an incompatible argument to `tags`: \['train'\]"):
        tf.saved_model.load(os.path.join(DATA, "tf_module"), tags=["train"])


# -- Keras ----------------------------------------------------------------------------------

def _keras_model():
    tf.keras.utils.set_random_seed(3)
    return tf.keras.Sequential([tf.keras.layers.Dense(3, activation="tanh", input_shape=(4,)),
                                tf.keras.layers.Dense(2)])


def test_keras_model_saved_with_tf_saved_model_save_serves_by_input_and_output_name(tmp_path):
    model = _keras_model()
    tf.saved_model.save(model, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    out = loaded.signatures["serving_default"](**{model.input_names[0]: tf.constant(x)})
    np.testing.assert_allclose(loaded(x).numpy(), model(x).numpy(), rtol=1e-6)  # __call__
    assert list(out) == model.output_names
    np.testing.assert_allclose(out[model.output_names[0]].numpy(), model(x).numpy(), rtol=1e-6)


def test_keras_model_save_without_suffix_writes_a_savedmodel_load_model_reads(tmp_path):
    model = _keras_model()
    model.compile(tf.keras.optimizers.Adam(0.1), "mse")
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    model.fit(x, np.ones((2, 2), np.float32), epochs=1, verbose=0)
    for path, save_format in ((tmp_path / "m", None), (tmp_path / "n", "tf")):
        model.save(path, save_format=save_format)
        assert tf.saved_model.contains_saved_model(str(path))
        loaded = tf.keras.models.load_model(path)
        assert type(loaded) is type(model) and loaded.optimizer is not None
        np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())
        out = tf.saved_model.load(str(path)).signatures["serving_default"](tf.constant(x))
        np.testing.assert_allclose(out[model.output_names[0]].numpy(), model(x).numpy(),
                                   rtol=1e-6)


def test_keras_load_model_reads_tf_keras_model_save():
    expected = _json("tf_outputs.json")["tf_keras_model_save"]
    model = tf.keras.models.load_model(os.path.join(DATA, "tf_keras_model_save"))
    assert isinstance(model, tf.keras.Sequential)
    np.testing.assert_allclose(model(np.array(expected["x"], np.float32)).numpy(),
                               expected["y"], rtol=1e-5, atol=1e-6)
    # the same directory through tf.saved_model.load: tf_keras's __call__ takes `training`
    restored = tf.saved_model.load(os.path.join(DATA, "tf_keras_model_save"))
    for training in (False, True):
        np.testing.assert_allclose(restored(np.array(expected["x"], np.float32),
                                            training=training).numpy(),
                                   expected["y"], rtol=1e-5, atol=1e-6)


def test_tf_served_the_keras_model_saved_here():
    """TF's outputs for data/ours_keras (model.save here, tf.saved_model.load there)."""
    expected = _json("tf_loaded_ours.json")
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    np.testing.assert_allclose(expected["keras_serving_default"]["out"],
                               expected["keras_expected"], rtol=1e-6)
    model = tf.keras.models.load_model(os.path.join(DATA, "ours_keras"))
    np.testing.assert_allclose(model(x).numpy(), expected["keras_expected"], rtol=1e-6)
    np.testing.assert_allclose(expected["keras_call"], expected["keras_expected"], rtol=1e-6)
    loaded = tf.saved_model.load(os.path.join(DATA, "ours_keras"))
    served = loaded.signatures["serving_default"]
    np.testing.assert_allclose(served(hidden_input=tf.constant(x))["out"].numpy(),
                               expected["keras_serving_default"]["out"], rtol=1e-6)
    np.testing.assert_allclose(loaded(x).numpy(), expected["keras_call"], rtol=1e-6)


def _keras_metadata(path):
    from tests.internals import fingerprinting
    with open(os.path.join(path, "keras_metadata.pb"), "rb") as f:
        found = fingerprinting.pb.KerasSavedMetadata.FromString(f.read())
    return [(n.node_id, n.node_path, n.identifier, json.loads(n.metadata)) for n in found.nodes]


KERAS_SAVED = {"ours_keras": ("ours_keras_x", "ours_keras_y.npy"),
               "ours_keras_functional": ("ours_keras_x", "ours_keras_functional_y.npy"),
               "ours_keras_nested": ("ours_keras_x", "ours_keras_nested_y.npy"),
               "ours_keras_cnn": ("ours_keras_cnn_x.npy", "ours_keras_cnn_y.npy"),
               "ours_keras_lstm": ("ours_keras_lstm_x.npy", "ours_keras_lstm_y.npy")}


def test_tf_keras_load_model_rebuilt_the_keras_models_saved_here():
    """tf_keras's load_model rebuilt data/ours_keras* (model.save here) from the layer
    configs of their keras_metadata.pb, computed our outputs, and compiled and trained a
    step of the compiled ones (load_ours_in_tf.py keras recorded it)."""
    recorded = _json("tf_loaded_ours.json")["keras_load_model"]
    assert sorted(recorded) == sorted(KERAS_SAVED)
    for name, (x_file, y_file) in KERAS_SAVED.items():
        got = recorded[name]
        x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0 if x_file == "ours_keras_x" \
            else np.load(os.path.join(DATA, x_file))
        y = np.load(os.path.join(DATA, y_file))
        np.testing.assert_allclose(got["predict"], y, rtol=1e-5, atol=1e-6)
        model = tf.keras.models.load_model(os.path.join(DATA, name))
        np.testing.assert_allclose(model(x).numpy(), y, rtol=1e-5, atol=1e-6)
        assert got["class"] == type(model).__name__
        assert got["layers"] == [[type(layer).__name__, layer.name] for layer in model.layers]
        assert got["compiled"] == (model.optimizer is not None)
        if got["compiled"]:
            assert got["optimizer"] == type(model.optimizer).__name__ and got["trained_a_step"]
    assert recorded["ours_keras"]["compiled"] and not recorded["ours_keras_functional"]["compiled"]


def test_model_save_writes_the_keras_metadata_tf_keras_read(tmp_path):
    """model.save writes today the keras_metadata.pb of data/ours_keras* that tf_keras
    loaded: a node per layer and model (input layers too), at a path of the object graph,
    with its config, build shape and, for a compiled model, its training config."""
    from tests.internals import fingerprinting
    _make_ours().keras(str(tmp_path))
    for name in KERAS_SAVED:
        today = _keras_metadata(str(tmp_path / name))
        assert today == _keras_metadata(os.path.join(DATA, name))
        with open(str(tmp_path / name / "saved_model.pb"), "rb") as f:
            nodes = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
                .object_graph_def.nodes
        for node_id, path, identifier, metadata in today:
            at = 0
            for part in path.split(".")[1:]:  # (the path leads to the node)
                at = next(c.node_id for c in nodes[at].children if c.local_name == part)
            assert at == node_id and nodes[at].user_object.identifier == identifier
            assert {"name", "class_name", "config", "build_input_shape"} <= set(metadata)
    cnn = {path: (identifier, metadata) for _, path, identifier, metadata in
           _keras_metadata(str(tmp_path / "ours_keras_cnn"))}
    assert cnn["root"][0] == "_tf_keras_sequential" and cnn["root"][1]["is_graph_network"]
    assert cnn["root"][1]["training_config"]["loss"] == "sparse_categorical_crossentropy"
    assert cnn["root"][1]["training_config"]["optimizer_config"]["class_name"] == "Custom>Adam"
    assert cnn["root.layer_with_weights-0"][0] == "_tf_keras_layer"
    assert cnn["root.layer_with_weights-0"][1]["build_input_shape"] == {
        "class_name": "TensorShape", "items": [None, 8, 8, 1]}  # (a list: a list of shapes)
    functional = {path: identifier for _, path, identifier, _ in
                  _keras_metadata(str(tmp_path / "ours_keras_functional"))}
    assert functional == {"root": "_tf_keras_network", "root.layer-0": "_tf_keras_input_layer",
                          "root.layer_with_weights-0": "_tf_keras_layer",
                          "root.layer-2": "_tf_keras_layer",
                          "root.layer_with_weights-1": "_tf_keras_layer"}


def test_tf_keras_cnn_loads_and_runs_in_both_modes():
    """Conv2D, BatchNormalization, MaxPooling2D and Dropout as TF saved them: TF's nodes
    without the attrs TF left at their defaults (seeds, shapes' out_type)."""
    expected = _json("tf_outputs.json")["tf_keras_cnn"]
    x = np.array(expected["x"], np.float32)
    m = tf.saved_model.load(os.path.join(DATA, "tf_keras_cnn"))
    np.testing.assert_allclose(m(x, training=False).numpy(), expected["y"], rtol=1e-5,
                               atol=1e-6)
    (served,) = m.signatures["serving_default"](tf.constant(x)).values()
    np.testing.assert_allclose(served.numpy(), expected["y"], rtol=1e-5, atol=1e-6)
    training = m(x, training=True).numpy()  # dropout draws, batch statistics update
    assert training.shape == (2, 3) and np.allclose(training.sum(axis=1), 1.0, atol=1e-5)
    model = tf.keras.models.load_model(os.path.join(DATA, "tf_keras_cnn"))
    np.testing.assert_allclose(model(x).numpy(), expected["y"], rtol=1e-5, atol=1e-6)


def test_tf_keras_lstm_loads_and_computes_tfs_outputs():
    expected = _json("tf_outputs.json")["tf_keras_lstm"]
    x = np.array(expected["x"], np.float32)
    m = tf.saved_model.load(os.path.join(DATA, "tf_keras_lstm"))
    np.testing.assert_allclose(m(x, training=False).numpy(), expected["y"], rtol=1e-5,
                               atol=1e-6)
    model = tf.keras.models.load_model(os.path.join(DATA, "tf_keras_lstm"))
    np.testing.assert_allclose(model(x).numpy(), expected["y"], rtol=1e-5, atol=1e-6)


def test_keras_load_model_of_a_plain_savedmodel_raises(tmp_path):
    tf.saved_model.save(Affine(), str(tmp_path))
    with pytest.raises(ValueError, match="exported with `tf.saved_model.save`, and lacks the "
                                         "TF-Keras metadata file"):
        tf.keras.models.load_model(str(tmp_path))
    with pytest.raises(OSError, match="SavedModel file does not exist at"):
        tf.keras.models.load_model(str(tmp_path / "variables"))


def test_tf_keras_embedding_reads_rows_with_resource_gather_and_differentiates():
    expected = _json("tf_outputs.json")["tf_keras_embedding"]
    x = tf.constant(expected["x"])
    m = tf.saved_model.load(os.path.join(DATA, "tf_keras_embedding"))
    (served,) = m.signatures["serving_default"](x).values()
    np.testing.assert_allclose(served.numpy(), expected["y"], rtol=1e-5, atol=1e-6)
    table = next(v for v in m.trainable_variables if v.shape == (10, 4))
    with tf.GradientTape() as tape:
        y = m(x)
        loss = tf.reduce_sum(y * y)
    np.testing.assert_allclose(y.numpy(), expected["y"], rtol=1e-5, atol=1e-6)
    grad = tape.gradient(loss, table)
    assert isinstance(grad, tf.IndexedSlices)  # the rows read, as TF gives them
    np.testing.assert_array_equal(grad.indices.numpy(), expected["grad_indices"])
    np.testing.assert_allclose(grad.values.numpy(), expected["grad_values"], rtol=1e-5,
                               atol=1e-6)
    assert grad.dense_shape.numpy().tolist() == [10, 4]
    # inside a function too
    np.testing.assert_allclose(tf.function(lambda t: m(t))(x).numpy(), expected["y"], rtol=1e-5,
                               atol=1e-6)


def test_tf_keras_random_flip_and_rotation_load_and_draw_as_tf():
    """TF's random layers draw with a tf.random.Generator (RngReadAndSkip and the stateless
    V2 ops) and rotate with ImageProjectiveTransformV3: inference passes images through,
    training calls draw TF's values from the saved generators' states."""
    expected = _json("tf_outputs.json")["tf_keras_random_layers"]
    x = tf.constant(expected["x"])
    m = tf.saved_model.load(os.path.join(DATA, "tf_keras_random_layers"))
    (served,) = m.signatures["serving_default"](x).values()
    np.testing.assert_allclose(served.numpy(), expected["y"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m(x, training=False).numpy(), expected["y"], rtol=1e-5,
                               atol=1e-6)
    for want in expected["y_train"]:  # each call moves the generators on
        np.testing.assert_allclose(m(x, training=True).numpy(), want, rtol=1e-5, atol=1e-6)


# -- fingerprint.pb ---------------------------------------------------------------------------

TF_WRITTEN = ["tf_module", "tf_keras", "tf_containers", "tf_keras_cnn", "tf_keras_lstm",
              "tf_keras_embedding", "tf_keras_model_save"]


# TF's tf.fingerprint(farmhash64) of bytes((i * 37 + 11) % 256 for i in range(n)), by n
_FARMHASH = {0: 11160318154034397263, 1: 4787810249829893994, 3: 3979540680440595841,
             4: 14708324829907283305, 8: 9029840561075318013, 16: 15579719139305551062,
             17: 6692022265393568454, 32: 11543571239247179175, 33: 9480451918888261270,
             64: 4226431515964725, 65: 18101669290602532278, 128: 3742283891066476345,
             1000: 14329278931567331828, 4099: 5864367167270820506}


def test_fingerprint64_is_tfs():
    from tests.internals import fingerprinting
    for n, expected in _FARMHASH.items():
        assert fingerprinting.fingerprint64(bytes((i * 37 + 11) % 256 for i in range(n))) == \
            expected, n


_FINGERPRINT_FIELDS = ("saved_model_checksum", "graph_def_program_hash", "signature_def_hash",
                       "saved_object_graph_hash", "checkpoint_hash")


@pytest.mark.parametrize("name", TF_WRITTEN)
def test_fingerprints_of_tfs_savedmodels_are_the_ones_tf_wrote(name):
    """The fingerprint made here of a SavedModel TF 2.21 wrote is the one TF computes of it,
    all five hashes (the checksum of the SavedModel as TF's C++ serializes it: its maps'
    entries in C++'s order) and the version of their definition, 4; and, but for the
    checksum of a Keras model's (whose saved_model.pb tf_keras wrote again after its
    fingerprint), the one TF wrote."""
    from tests.internals import fingerprinting
    path = os.path.join(DATA, name)
    theirs = tf.saved_model.experimental.read_fingerprint(path)
    computed = _json("tf_loaded_ours.json")["fingerprints"][name]
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        saved_model = fingerprinting.pb.SavedModel.FromString(f.read())
    ours = fingerprinting.fingerprint_def(path, saved_model)
    assert {k: getattr(ours, k) for k in _FINGERPRINT_FIELDS} == \
        {k: computed[k] for k in _FINGERPRINT_FIELDS}
    assert {k: getattr(ours, k) for k in _FINGERPRINT_FIELDS[1:]} == \
        {k: getattr(theirs, k) for k in _FINGERPRINT_FIELDS[1:]}
    if name in ("tf_module", "tf_containers"):
        assert ours.saved_model_checksum == theirs.saved_model_checksum
    assert ours.version.producer == theirs.version.producer == computed["producer"] == 4


def test_fingerprints_of_our_savedmodels_are_the_ones_tf_computes():
    """TF 2.21 computed the fingerprint of each SavedModel checked in here (its C++
    fingerprinting, load_ours_in_tf.py fingerprints): its fingerprint.pb holds the same, and
    so does the fingerprint made here now."""
    from tests.internals import fingerprinting
    recorded = {k: v for k, v in _json("tf_loaded_ours.json")["fingerprints"].items()
                if k.startswith("ours_")}
    assert len(recorded) >= 10
    for name, theirs in recorded.items():
        path = os.path.join(DATA, name)
        written = tf.saved_model.experimental.read_fingerprint(path)
        with open(os.path.join(path, "saved_model.pb"), "rb") as f:
            made = fingerprinting.fingerprint_def(path, fingerprinting.pb.SavedModel.FromString(
                f.read()))
        for field in _FINGERPRINT_FIELDS:
            assert getattr(written, field) == getattr(made, field) == theirs[field], (name,
                                                                                     field)
        assert written.version.producer == theirs["producer"] == 4


def test_saved_models_written_here_have_a_fingerprint(tmp_path):
    tf.saved_model.save(Affine(), str(tmp_path / "a"))
    f = tf.saved_model.experimental.read_fingerprint(str(tmp_path / "a"))
    assert all(isinstance(v, int) and v for v in (
        f.saved_model_checksum, f.graph_def_program_hash, f.signature_def_hash,
        f.saved_object_graph_hash, f.checkpoint_hash))
    assert f.singleprint() == (f"{f.graph_def_program_hash}/{f.signature_def_hash}/"
                               f"{f.saved_object_graph_hash}/{f.checkpoint_hash}")
    # the same module saved again: the same program, signatures and values
    tf.saved_model.save(Affine(), str(tmp_path / "b"))
    g = tf.saved_model.experimental.read_fingerprint(str(tmp_path / "b"))
    assert g == f and g.singleprint() == f.singleprint()
    assert str(f).splitlines()[0] == "SavedModel Fingerprint"
    assert repr(f).startswith(f"Fingerprint({f.saved_model_checksum}, ")
    with pytest.raises(FileNotFoundError, match="Could not find fingerprint in directory"):
        tf.saved_model.experimental.read_fingerprint(str(tmp_path))
    with pytest.raises(ValueError, match="Encounted invalid fingerprint values"):
        tf.saved_model.experimental.Fingerprint().singleprint()
    assert tf.saved_model.experimental.Fingerprint(1, 2, 3, 4, 5).singleprint() == "2/3/4/5"


# -- TF 1 SavedModels ---------------------------------------------------------------------

def test_tf1_simple_save_loads_with_its_variables_and_signature():
    expected = _json("tf_outputs.json")["tf1_simple_save"]
    m = tf.saved_model.load(os.path.join(DATA, "tf1_simple_save"))
    assert [v.name for v in m.variables] == ["w:0", "b:0"]
    np.testing.assert_array_equal(m.variables[0].numpy(), [[1.0, -2.0], [0.5, 3.0]])
    serve = m.signatures["serving_default"]
    assert list(m.signatures) == ["serving_default"]
    assert serve.structured_input_signature == (
        (), {"x": tf.TensorSpec([None, 2], tf.float32, name="x")})
    x = tf.constant(expected["x"])
    out = serve(x=x)
    assert list(out) == ["y"]
    np.testing.assert_allclose(out["y"].numpy(), expected["y"])
    np.testing.assert_allclose(serve(x)["y"].numpy(), expected["y"])  # positionally too
    np.testing.assert_allclose(m.prune("x:0", "y:0")(x).numpy(), expected["y"])
    np.testing.assert_allclose(tf.function(lambda t: serve(x=t)["y"])(x).numpy(), expected["y"])
    m.variables[1].assign([0.0, 0.0])  # the signature reads the variables
    np.testing.assert_allclose(serve(x=tf.constant([[1.0, 2.0]]))["y"].numpy(), [[2.0, 4.0]])
    assert m.tensorflow_version == "2.21.0"
    with pytest.raises(tf.errors.InvalidArgumentError):
        serve(x=tf.constant([[1, 2]]))


def test_tf1_builder_signatures_share_the_variables():
    expected = _json("tf_outputs.json")["tf1_builder"]
    m = tf.saved_model.load(os.path.join(DATA, "tf1_builder"))
    assert sorted(m.signatures) == ["serving_default", "shift"]
    a, c = tf.constant(expected["a"]), tf.constant(expected["c"])
    np.testing.assert_allclose(m.signatures["serving_default"](a=a, c=c)["total"].numpy(),
                               expected["total"])
    shift = m.signatures["shift"](a=a)
    np.testing.assert_allclose(shift["shifted"].numpy(), expected["shifted"])
    assert shift["count"].numpy() == 7 and shift["count"].dtype == tf.int64
    count = next(v for v in m.variables if v.name == "count:0")
    assert not count.trainable and all(v.trainable for v in m.variables if v is not count)
    count.assign(0)
    np.testing.assert_allclose(m.signatures["shift"](a=a)["shifted"].numpy(), [1.0, 2.0])


@pytest.mark.parametrize("suffix", ["", ".keras"])
def test_keras_lookup_layers_round_trip_through_model_save(tmp_path, suffix):
    """StringLookup (with a vocabulary file), IntegerLookup and TextVectorization: a
    SavedModel directory or a .keras file loads with the same ids."""
    vocab = str(tmp_path / "vocab.txt")
    with open(vocab, "w") as f:
        f.write("cat\ndog\nbird\n")
    # (named: the signature's inputs are keyed by the inputs' names)
    words = tf.keras.Input((None,), dtype=tf.string, name="words")
    numbers = tf.keras.Input((None,), dtype=tf.int64, name="numbers")
    text = tf.keras.Input((), dtype=tf.string, name="text")
    vectorize = tf.keras.layers.TextVectorization(max_tokens=20, output_sequence_length=4)
    vectorize.adapt(["the cat sat", "the dog ran far", "a bird"])
    model = tf.keras.Model([words, numbers, text], [
        tf.keras.layers.StringLookup(vocabulary=vocab)(words),
        tf.keras.layers.IntegerLookup(vocabulary=[7, 3, 11])(numbers), vectorize(text)])
    x = [tf.constant([["dog", "fish"], ["bird", "cat"]]),
         tf.constant([[3, 5], [11, 7]], tf.int64), tf.constant(["the bird sat", "zebra"])]
    expected = [t.numpy().tolist() for t in model(x)]
    path = str(tmp_path / f"m{suffix}")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert [t.numpy().tolist() for t in loaded(x)] == expected
    if not suffix:
        served = tf.saved_model.load(path).signatures["serving_default"]
        outputs = served(words=x[0], numbers=x[1], text=x[2]).values()
        assert sorted(v.numpy().tolist() for v in outputs) == sorted(expected)


def test_a_dense_hash_table_saves_with_a_function_that_uses_it(tmp_path):
    m = tf.Module()
    m.table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=-2,
                                                    deleted_key=-3, initial_num_buckets=4)
    m.table.insert([5, 6, 7, 8], [50, 60, 70, 80])  # (more than the buckets hold)
    m.table.remove([6])
    m.f = tf.function(lambda x: m.table.lookup(x), input_signature=[tf.TensorSpec([None],
                                                                                  tf.int64)])
    tf.saved_model.save(m, str(tmp_path / "a"))
    m.table.insert([9], [90])  # (not saved)
    loaded = tf.saved_model.load(str(tmp_path / "a"))
    assert loaded.f(tf.constant([5, 6, 8, 9], tf.int64)).numpy().tolist() == [50, -1, 80, -1]
    served = loaded.signatures["serving_default"](tf.constant([7], tf.int64))
    assert [v.numpy().tolist() for v in served.values()] == [[70]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Using the empty_key as a table key is not allowed"):
        loaded.f(tf.constant([-2], tf.int64))
    restored = tf.Module()
    restored.table = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1,
                                                           empty_key=-2, deleted_key=-3)
    tf.train.Checkpoint(table=restored.table).read(  # (its variables are a checkpoint)
        str(tmp_path / "a" / "variables" / "variables")).expect_partial()
    assert restored.table.lookup([5, 7, 6]).numpy().tolist() == [50, 70, -1]


def test_tf_loaded_our_dense_hash_table_and_gave_its_lookups(tmp_path):
    """TF loaded data/ours_dense (make_ours.py dense: a function using a DenseHashTable, its
    buckets in the checkpoint) and recorded its lookups (load_ours_in_tf.py dense); what
    eagerflow writes today is that SavedModel, and it loads here with the same lookups."""
    expected = _json("tf_loaded_ours.json")["dense"]
    assert expected["v1_session_serving_default"] == expected["serving_default"]
    make_ours = _make_ours()
    make_ours.HERE = str(tmp_path)
    make_ours.dense()
    for name in ("saved_model.pb", os.path.join("variables", "variables.data-00000-of-00001")):
        with open(os.path.join(DATA, "ours_dense", name), "rb") as f:
            checked_in = f.read()
        with open(str(tmp_path / "ours_dense" / name), "rb") as f:
            assert f.read() == checked_in, name  # (what TF loaded)
    keys = tf.constant(DENSE_KEYS)
    for path in (os.path.join(DATA, "ours_dense"), str(tmp_path / "ours_dense")):
        m = tf.saved_model.load(path)
        for got, want in ((m.lookup(keys), expected["lookup"]),
                          (m.signatures["serving_default"](keys=keys),
                           expected["serving_default"])):
            assert {k: v.numpy().tolist() for k, v in got.items()} == want
        with pytest.raises(tf.errors.InvalidArgumentError, match=expected["empty_key_error"]):
            m.lookup(tf.constant([""]))


def test_tf_dense_hash_table_loads_and_gives_tfs_lookups(tmp_path):
    """TF's SavedModel of programs.dense_table_module (make_tf_savedmodels.py dense); saved
    again by eagerflow, its table keeps its entries."""
    expected = _json("tf_outputs.json")["tf_dense"]
    m = tf.saved_model.load(os.path.join(DATA, "tf_dense"))
    keys = tf.constant(DENSE_KEYS)
    for got in (m.lookup(keys), m.signatures["serving_default"](keys=keys)):
        assert {k: v.numpy().tolist() for k, v in got.items()} == expected
    tf.saved_model.save(m, str(tmp_path / "again"))
    again = tf.saved_model.load(str(tmp_path / "again"))
    assert {k: v.numpy().tolist() for k, v in again.lookup(keys).items()} == expected
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Using the deleted_key as a table key is not allowed"):
        m.lookup(tf.constant(["$"]))


def test_a_saved_lookup_layer_without_a_vocabulary_still_fails_when_called(tmp_path):
    inputs = tf.keras.Input((None,), dtype=tf.string)
    model = tf.keras.Model(inputs, tf.keras.layers.StringLookup()(inputs))
    model.save(str(tmp_path / "m"))
    x = tf.constant([["a"]])
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized."):
        tf.saved_model.load(str(tmp_path / "m"))(x)
    loaded = tf.keras.models.load_model(str(tmp_path / "m"))
    assert loaded.layers[-1].get_vocabulary() == ["[UNK]"]
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized."):
        loaded(x)


def test_a_keras_savedmodel_holds_every_layers_functions_as_tf_keras_saves_them():
    """data/ours_keras (model.save here) has, for the model and each layer, the call
    functions, ``keras_api`` and ``regularization_losses`` that tf_keras saves; TF called
    them (load_ours_in_tf.py), and so does eagerflow, with the same results."""
    recorded = _json("tf_loaded_ours.json")["keras_layer_functions"]
    x = tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0)
    loaded = tf.saved_model.load(os.path.join(DATA, "ours_keras"))
    first = getattr(loaded, "layer_with_weights-0")
    assert {"call_and_return_all_conditional_losses", "keras_api",
            "regularization_losses"} <= set(recorded["root"])
    # (TF's loader adds graph_debug_info, which eagerflow's does not)
    assert sorted(k for k in dir(loaded) if not k.startswith("_")) == [
        k for k in recorded["root"] if k != "graph_debug_info"]
    assert sorted(k for k in dir(first) if not k.startswith("_")) == recorded["layer"]
    assert sorted(k for k in dir(loaded.keras_api) if not k.startswith("_")) == \
        recorded["keras_api"]
    np.testing.assert_allclose(first(x).numpy(), recorded["layer_call"], rtol=1e-6)
    np.testing.assert_allclose(first.keras_api.call_and_return_conditional_losses(x)[0],
                               recorded["layer_keras_api_call"], rtol=1e-6)
    np.testing.assert_allclose(loaded.call_and_return_all_conditional_losses(x, False)[0],
                               recorded["call_and_return_all_conditional_losses"], rtol=1e-6)
    functional = tf.saved_model.load(os.path.join(DATA, "ours_keras_functional"))
    np.testing.assert_allclose([float(f()) for f in functional.regularization_losses],
                               recorded["functional_regularization_losses"], rtol=1e-6)
    assert type(loaded.optimizer).__name__ == "RestoredOptimizer"  # (as TF revives it)
    assert int(loaded.optimizer.iterations) == 1


def _assert_results(got, want):
    assert got.keys() == want.keys()
    for key in want:
        for g, w in zip(got[key], want[key]):
            np.testing.assert_allclose(g, w, rtol=1e-6, err_msg=key)


def test_tf_custom_gradients_load_and_differentiate_with_the_saved_gradients():
    """TF's SavedModel of programs.custom_gradient_module (make_tf_savedmodels.py
    custom_gradients): gradients through the loaded functions, their signature and a
    tf.function calling them are those of the saved custom gradients."""
    expected = _json("tf_outputs.json")["tf_custom_gradients"]
    m = tf.saved_model.load(os.path.join(DATA, "tf_custom_gradients"))
    _assert_results(custom_gradient_results(tf, m), expected)


def test_tf_loaded_our_custom_gradients_and_differentiated_with_them(tmp_path):
    """TF loaded data/ours_custom_gradients (make_ours.py custom_gradients) and computed
    TF's own gradients (load_ours_in_tf.py custom_gradients); what eagerflow writes today
    is that SavedModel (up to the numbers in the gradients' names), and it loads here,
    as does a SavedModel saved again from the loaded one."""
    expected = _json("tf_outputs.json")["tf_custom_gradients"]
    _assert_results(_json("tf_loaded_ours.json")["custom_gradients"], expected)
    make_ours = _make_ours()
    make_ours.custom_gradients(str(tmp_path))

    def program(path):
        with open(os.path.join(path, "saved_model.pb"), "rb") as f:
            return re.sub(rb"CustomGradient-\d+", b"CustomGradient-N", f.read())
    assert program(str(tmp_path / "ours_custom_gradients")) == \
        program(os.path.join(DATA, "ours_custom_gradients"))
    loaded = tf.saved_model.load(str(tmp_path / "ours_custom_gradients"))
    _assert_results(custom_gradient_results(tf, loaded), expected)
    tf.saved_model.save(loaded, str(tmp_path / "again"), signatures={"f": loaded.f})
    _assert_results(custom_gradient_results(tf, tf.saved_model.load(str(tmp_path / "again"))),
                    expected)


def test_tf_gradient_of_a_loop_with_branches_loads_and_gives_tfs_values(tmp_path):
    """TF's SavedModel of programs.loop_gradient_class (make_tf_savedmodels.py
    loop_gradients): its gradient functions keep the loop's values in TensorLists pushed
    and popped back, and the branches' in optionals; loaded, they give TF's values and
    gradients, as does eagerflow's own module and a SavedModel saved again from the
    loaded one."""
    expected = _json("tf_outputs.json")["tf_loop_gradients"]
    loaded = tf.saved_model.load(os.path.join(DATA, "tf_loop_gradients"))
    ours = loop_gradient_class(tf)()
    tf.saved_model.save(loaded, str(tmp_path / "again"))
    for m in (loaded, ours, tf.saved_model.load(str(tmp_path / "again"))):
        for got, want in zip(loop_gradient_results(tf, m), expected):
            assert sorted(got) == sorted(want)
            for key in want:
                np.testing.assert_allclose(got[key], want[key], rtol=1e-5, err_msg=key)


def test_custom_gradients_can_be_left_out_of_a_saved_model(tmp_path):
    m = custom_gradient_module(tf)()
    for keep in (True, False):
        options = tf.saved_model.SaveOptions(experimental_custom_gradients=keep)
        tf.saved_model.save(m, str(tmp_path / str(keep)), options=options)
        with open(str(tmp_path / str(keep) / "saved_model.pb"), "rb") as f:
            assert (b"internal_grad_fn" in f.read()) == keep


def test_custom_gradients_of_called_functions_and_branches_are_saved(tmp_path):
    @tf.custom_gradient
    def scaled_grad(x):
        e = tf.exp(x)  # (read by the gradient alone: no output needs it)
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -0.5, 0.5) * e

    @tf.function
    def inner(x):
        return scaled_grad(x)

    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def called(self, x):
            return tf.reduce_sum(inner(x) * 3.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def branched(self, x):
            return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_sum(scaled_grad(x) * 3.0),
                           lambda: 0.0)

    tf.saved_model.save(M(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = tf.constant([1.0, 2.0])
    for fn in (loaded.called, loaded.branched):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        np.testing.assert_allclose(tape.gradient(y, x).numpy(), 0.5 * np.exp([1.0, 2.0]),
                                   rtol=1e-6)


def test_tf_signature_reading_assets_serves_the_copies_loaded_and_in_a_v1_session():
    """TF's SavedModel (make_tf_savedmodels.py assets): its signature reads the assets
    through string variables the init op assigns from the assets' placeholders, which TF 1's
    loader feeds with the files under assets/ (eagerflow's loader fed nothing)."""
    expected = _json("tf_outputs.json")["tf_assets"]
    path = os.path.join(DATA, "tf_assets")
    served = tf.saved_model.load(path).signatures["read"]()
    assert {k: v.numpy().decode() for k, v in served.items()} == expected["read"]
    with tf.compat.v1.Session(graph=tf.Graph()) as sess:
        meta = tf.compat.v1.saved_model.load(sess, ["serve"], path)
        outputs = meta.signature_def["read"].outputs
        assert {k: sess.run(v.name).decode() for k, v in outputs.items()} == \
            expected["v1_session_read"]


def test_save_options_namespace_whitelist_is_tfs():
    assert tf.saved_model.SaveOptions().namespace_whitelist is None
    assert tf.saved_model.SaveOptions(namespace_whitelist=["a"]).namespace_whitelist == ["a"]
    with pytest.raises(TypeError, match="^`namespace_whitelist` must be a list of strings"):
        tf.saved_model.SaveOptions(namespace_whitelist="a")


def test_variable_policy_of_the_options_is_tfs_enum():
    # TF 2.21: both options hold a VariablePolicy, made from None, a member, its value or name
    policy = tf.saved_model.experimental.VariablePolicy
    assert [p.name for p in policy] == ["NONE", "SAVE_VARIABLE_DEVICES",
                                        "EXPAND_DISTRIBUTED_VARIABLES"]
    assert tf.saved_model.SaveOptions().experimental_variable_policy is policy.NONE
    assert tf.saved_model.LoadOptions().experimental_variable_policy is policy.NONE
    options = tf.saved_model.SaveOptions(experimental_variable_policy="save_variable_devices")
    assert options.experimental_variable_policy is policy.SAVE_VARIABLE_DEVICES
    assert str(options.experimental_variable_policy) == "VariablePolicy.SAVE_VARIABLE_DEVICES"
    options = tf.saved_model.LoadOptions(
        experimental_variable_policy=policy.EXPAND_DISTRIBUTED_VARIABLES)
    assert options.experimental_variable_policy is policy.EXPAND_DISTRIBUTED_VARIABLES
    assert policy.from_obj("SAVE_VARIABLE_DEVICES") is policy.SAVE_VARIABLE_DEVICES
    with pytest.raises(ValueError, match="^Received invalid VariablePolicy value: bogus.$"):
        tf.saved_model.SaveOptions(experimental_variable_policy="bogus")


def test_tf_loaded_our_tables_of_vectors_and_gave_their_lookups(tmp_path):
    """TF loaded data/ours_vector_tables (make_ours.py vector_tables: tables whose values are
    vectors) and recorded its lookups (load_ours_in_tf.py vector_tables); what eagerflow
    writes today is that SavedModel, and it loads here with the same lookups and shapes."""
    expected = _json("tf_loaded_ours.json")["vector_tables"]
    assert expected["v1_session_serving_default"] == expected["serving_default"] == \
        expected["lookup"]
    make_ours = _make_ours()
    make_ours.HERE = str(tmp_path)
    make_ours.vector_tables()
    with open(os.path.join(DATA, "ours_vector_tables", "saved_model.pb"), "rb") as f:
        checked_in = f.read()
    with open(str(tmp_path / "ours_vector_tables" / "saved_model.pb"), "rb") as f:
        assert f.read() == checked_in  # (what TF loaded)
    keys, ids = tf.constant(VECTOR_KEYS), tf.constant(VECTOR_IDS, tf.int64)
    for path in (os.path.join(DATA, "ours_vector_tables"), str(tmp_path / "ours_vector_tables")):
        m = tf.saved_model.load(path)
        got = m.lookup(keys, ids)
        assert {k: v.numpy().tolist() for k, v in got.items()} == expected["lookup"]
        outputs = m.lookup.get_concrete_function(
            tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.int64)).structured_outputs
        assert outputs["numbers"].shape.as_list() == [None, 3]
        assert outputs["strings"].shape.as_list() == [None, 2]


def test_tf_tables_of_vectors_load_and_give_tfs_lookups(tmp_path):
    """TF's SavedModel of programs.vector_table_module (make_tf_savedmodels.py
    vector_tables): TF's MutableHashTableOfTensorsV2 and a dense table of vectors; saved
    again by eagerflow, it loads with the same lookups."""
    expected = _json("tf_outputs.json")["tf_vector_tables"]
    keys, ids = tf.constant(VECTOR_KEYS), tf.constant(VECTOR_IDS, tf.int64)
    m = tf.saved_model.load(os.path.join(DATA, "tf_vector_tables"))
    for got in (m.lookup(keys, ids), m.signatures["serving_default"](keys=keys, ids=ids)):
        assert {k: v.numpy().tolist() for k, v in got.items()} == expected
    tf.saved_model.save(m, str(tmp_path / "again"))
    again = tf.saved_model.load(str(tmp_path / "again"))
    assert {k: v.numpy().tolist() for k, v in again.lookup(keys, ids).items()} == expected


def test_tf1_signature_outputs_come_by_key(tmp_path):
    # (as TF's: the outputs of a TF 1 signature in the order of their keys)
    path = str(tmp_path / "simple")
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        with v1.Session() as sess:
            x = v1.placeholder(tf.float32, shape=[])
            v1.saved_model.simple_save(sess, path, inputs={"input": x},
                                       outputs={"output": x + 2, "o2": x * 3})
    serve = tf.saved_model.load(path).signatures["serving_default"]
    assert list(serve.structured_outputs) == ["o2", "output"]
    out = serve(tf.constant(1.0))
    assert list(out) == ["o2", "output"]
    assert [float(v) for v in out.values()] == [3.0, 3.0]


def _identifiers(path):
    proto = internals.saved_model_protos.SavedModel()  # (the file's object graph)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        proto.ParseFromString(f.read())
    return [n.user_object.identifier for n in proto.meta_graphs[0].object_graph_def.nodes
            if n.WhichOneof("kind") == "user_object"]


def test_a_keras_model_saved_by_tf_saved_model_save_names_its_layers_as_tf_keras(tmp_path):
    # TF's Keras loader then tells that the file lacks Keras's metadata, instead of giving
    # a bare object
    inputs = tf.keras.Input((3,), name="feat")
    outputs = tf.keras.layers.Dense(2)(tf.keras.layers.BatchNormalization()(inputs))
    tf.saved_model.save(tf.keras.Model(inputs, outputs), str(tmp_path / "f"))
    assert _identifiers(str(tmp_path / "f"))[:4] == [
        "_tf_keras_network", "_tf_keras_input_layer", "_tf_keras_layer", "_tf_keras_layer"]
    sequential = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    tf.saved_model.save(sequential, str(tmp_path / "s"))
    assert _identifiers(str(tmp_path / "s"))[:2] == ["_tf_keras_sequential", "_tf_keras_layer"]
    with pytest.raises(ValueError, match="exported with `tf.saved_model.save`"):
        tf.keras.models.load_model(str(tmp_path / "f"))
    loaded = tf.saved_model.load(str(tmp_path / "f"))
    (output,) = loaded.signatures["serving_default"](feat=tf.ones((1, 3))).values()
    assert output.shape == (1, 2)


def test_variables_keep_their_synchronization_and_aggregation(tmp_path):
    # TF 2.21's SavedModel of a Keras CNN: batch norm's moving statistics are ON_READ/MEAN
    loaded = tf.saved_model.load(os.path.join(DATA, "tf_keras_cnn"))
    by_name = {v.name: v for v in loaded.variables}
    mean = by_name["batch_normalization/moving_mean:0"]
    assert mean.synchronization == tf.VariableSynchronization.ON_READ
    assert repr(mean.aggregation) == "<VariableAggregationV2.MEAN: 2>"
    assert not mean.trainable
    plain = next(v for v in loaded.variables if v.trainable)
    assert plain.synchronization == tf.VariableSynchronization.AUTO
    assert repr(plain.aggregation) == "<VariableAggregationV2.NONE: 0>"
    m = tf.Module()
    m.v = tf.Variable(0.0, trainable=False, synchronization=tf.VariableSynchronization.ON_READ,
                      aggregation=tf.VariableAggregation.SUM)
    tf.saved_model.save(m, str(tmp_path))
    v = tf.saved_model.load(str(tmp_path)).v
    assert (v.synchronization, v.aggregation, v.trainable) == (
        tf.VariableSynchronization.ON_READ, tf.VariableAggregation.SUM, False)


def test_calling_a_function_never_traced_before_saving_raises_tfs_valueerror(tmp_path):
    m = tf.Module()
    m.f = tf.function(lambda x: x)
    tf.saved_model.save(m, str(tmp_path))
    with pytest.raises(ValueError, match="^Found zero restored functions for caller function.$"):
        tf.saved_model.load(str(tmp_path)).f(tf.constant(1.0))


def test_function_calling_another_reads_each_of_its_variables(tmp_path):
    # Two variables of the same name read by a function another one calls: the called body
    # as saved told them apart by name, and read `b` for both (3.0 where TF gives 21.0)
    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable(10.0)
            self.b = tf.Variable(1.0)

        @tf.function(input_signature=[tf.TensorSpec([])])
        def inner(self, x):
            return x * self.w + self.b

        @tf.function(input_signature=[tf.TensorSpec([])])
        def outer(self, x):
            return self.inner(x)

        @tf.function(input_signature=[tf.TensorSpec([])])
        def outer2(self, x):
            return self.b * 100.0 + self.inner(x)
    tf.saved_model.save(M(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = tf.constant(2.0)
    assert [loaded.inner(x).numpy(), loaded.outer(x).numpy(), loaded.outer2(x).numpy()] == [
        21.0, 21.0, 121.0]
    loaded.w.assign(20.0)
    assert loaded.outer(x).numpy() == 41.0


def test_skip_checkpoint_leaves_the_variables_for_the_user_to_assign(tmp_path):
    """LoadOptions(experimental_skip_checkpoint=True): the checkpoint is not read (TF's
    SavedModel loads without its variables/ directory), the variables have no value until
    assigned (reading one fails, as in TF), and the functions use the values assigned (TF
    2.21 gave [[2.0, 4.0]])."""
    shutil.copytree(os.path.join(DATA, "tf_module"), str(tmp_path / "m"))
    shutil.rmtree(str(tmp_path / "m" / "variables"))
    options = tf.saved_model.LoadOptions(experimental_skip_checkpoint=True)
    loaded = tf.saved_model.load(str(tmp_path / "m"), options=options)
    assert loaded.w.shape == (2, 2) and loaded.w.dtype == tf.float32
    assert not loaded.w.is_initialized().numpy()
    assert repr(loaded.b) == "<tf.Variable 'b:0' shape=(2,) dtype=float32, numpy=<unavailable>>"
    with pytest.raises(tf.errors.FailedPreconditionError, match="not initialized"):
        loaded.w.numpy()
    with pytest.raises(tf.errors.FailedPreconditionError):
        loaded(tf.constant([[1.0, 2.0]]))
    loaded.w.assign([[1.0, 0.0], [0.0, 1.0]])
    loaded.b.assign([1.0, 2.0])
    np.testing.assert_array_equal(loaded(tf.constant([[1.0, 2.0]])), [[2.0, 4.0]])
    np.testing.assert_array_equal(
        loaded.signatures["serving_default"](x=tf.constant([[1.0, 2.0]]))["output_0"],
        [[2.0, 4.0]])
    # (without the option the values are read: TF's error for the missing files)
    with pytest.raises(FileNotFoundError, match="Unsuccessful TensorSliceReader constructor: "
                                                "Failed to find any matching files for"):
        tf.saved_model.load(str(tmp_path / "m"))
    restored = tf.saved_model.load(os.path.join(DATA, "tf_module"),
                                   options=tf.saved_model.LoadOptions())
    np.testing.assert_array_equal(restored.w, [[1.0, -2.0], [0.5, 3.0]])


def test_skip_checkpoint_of_a_tf1_savedmodel_leaves_its_variables_for_the_user(tmp_path):
    """The same for TF's TF 1 SavedModel (make_tf_savedmodels.py v1): TF 2.21 gave
    {'y': [[1.5, 3.5]]} for these assigned values."""
    shutil.copytree(os.path.join(DATA, "tf1_simple_save"), str(tmp_path / "m"))
    shutil.rmtree(str(tmp_path / "m" / "variables"))
    loaded = tf.saved_model.load(
        str(tmp_path / "m"), options=tf.saved_model.LoadOptions(experimental_skip_checkpoint=True))
    w, b = loaded.variables
    assert [(v.name, v.shape.as_list()) for v in (w, b)] == [("w:0", [2, 2]), ("b:0", [2])]
    assert not w.is_initialized().numpy()
    w.assign([[1.0, 0.0], [0.0, 2.0]])
    b.assign([0.5, -0.5])
    np.testing.assert_array_equal(
        loaded.signatures["serving_default"](x=tf.constant([[1.0, 2.0]]))["y"], [[1.5, 3.5]])
