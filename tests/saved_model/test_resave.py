"""Saving again an object loaded from a SavedModel TensorFlow wrote: the re-save records its
functions as TF's loader reads them (checked by hand with TF 2.21, which loads the re-saves)."""
import os

import numpy as np

import eagerflow as tf
from tests.internals import fingerprinting

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def _object_graph(path):
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        return fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
            .object_graph_def


def _well_formed(value):
    """Whether every `StructuredValue` in `value` holds a value (TF's decoder refuses one that
    holds none)."""
    kind = value.WhichOneof("kind")
    if kind is None:
        return False
    if kind in ("tuple_value", "list_value"):
        return all(_well_formed(v) for v in getattr(value, kind).values)
    if kind == "dict_value":
        return all(_well_formed(v) for v in value.dict_value.fields.values())
    if kind == "named_tuple_value":
        return all(_well_formed(p.value) for p in value.named_tuple_value.values)
    return True


def _child(graph, name):
    return graph.nodes[next(c.node_id for c in graph.nodes[0].children
                            if c.local_name == name)]


def test_resaved_tf_keras_savedmodel_records_well_formed_functions(tmp_path):
    original = os.path.join(DATA, "tf_keras")
    loaded = tf.saved_model.load(original)
    path = str(tmp_path / "again")
    tf.saved_model.save(loaded, path)
    saved = _object_graph(path)
    for node in saved.nodes:
        if node.WhichOneof("kind") == "function":
            assert _well_formed(node.function.function_spec.fullargspec)
            assert _well_formed(node.function.function_spec.input_signature)
    for concrete in saved.concrete_functions.values():
        assert _well_formed(concrete.canonicalized_input_signature)
        assert _well_formed(concrete.output_signature)
    # a concrete function attribute stays a bare concrete function with TF's signatures
    before = _object_graph(original)
    old, new = (_child(g, "_default_save_signature") for g in (before, saved))
    assert new.WhichOneof("kind") == old.WhichOneof("kind") == "bare_concrete_function"
    old = before.concrete_functions[old.bare_concrete_function.concrete_function_name]
    new = saved.concrete_functions[new.bare_concrete_function.concrete_function_name]
    assert new.canonicalized_input_signature == old.canonicalized_input_signature
    assert new.output_signature == old.output_signature
    x = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0
    again = tf.saved_model.load(path)
    np.testing.assert_allclose(again._default_save_signature(tf.constant(x))["dense_1"].numpy(),
                               loaded._default_save_signature(tf.constant(x))["dense_1"].numpy(),
                               rtol=1e-6)


def test_resaved_tf_module_keeps_its_functions_as_saved(tmp_path):
    original = os.path.join(DATA, "tf_module")
    loaded = tf.saved_model.load(original)
    path = str(tmp_path / "again")
    tf.saved_model.save(loaded, path)
    before, saved = _object_graph(original), _object_graph(path)
    old, new = (_child(g, "__call__") for g in (before, saved))
    assert new.WhichOneof("kind") == "function"
    assert new.function.function_spec.fullargspec == old.function.function_spec.fullargspec
    assert new.function.function_spec.input_signature == \
        old.function.function_spec.input_signature
    for old_name, new_name in zip(old.function.concrete_functions,
                                  new.function.concrete_functions):
        old_fn, new_fn = before.concrete_functions[old_name], saved.concrete_functions[new_name]
        assert new_fn.canonicalized_input_signature == old_fn.canonicalized_input_signature
        assert new_fn.output_signature == old_fn.output_signature
    x = tf.constant([[1.0, 2.0], [-3.0, 0.5]])
    np.testing.assert_allclose(tf.saved_model.load(path)(x).numpy(), loaded(x).numpy())


def test_resaved_functions_name_only_their_own_nodes_in_control_inputs(tmp_path):
    # tf_ragged's functions hold conditionals whose branches wait on a NoOp
    loaded = tf.saved_model.load(os.path.join(DATA, "tf_ragged"))
    path = str(tmp_path / "again")
    tf.saved_model.save(loaded, path)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        library = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
            .graph_def.library
    assert library.function
    for fdef in library.function:
        names = {n.name for n in fdef.node_def}
        for node in fdef.node_def:
            for ref in node.input:
                if ref.startswith("^"):
                    assert ref[1:] in names, (fdef.signature.name, node.name, ref)


def test_resave_without_signatures_finds_the_default_as_tf_does(tmp_path):
    # TF 2.21: serving_default from the module's __call__ (its one function with an input
    # signature) and from a Keras model's _default_save_signature; none for tf_ragged
    expected = {
        "tf_module": ({"x": tf.TensorSpec([None, 2], tf.float32, name="x")},
                      {"output_0": tf.TensorSpec([None, 2], tf.float32, name="output_0")}),
        "tf_keras_subclassed": (
            {"input_1": tf.TensorSpec([None, 4], tf.float32, name="input_1")},
            {"output_1": tf.TensorSpec([None, 2], tf.float32, name="output_1")}),
        "tf_ragged": None}
    for name, want in expected.items():
        path = str(tmp_path / name)
        tf.saved_model.save(tf.saved_model.load(os.path.join(DATA, name)), path)
        signatures = tf.saved_model.load(path).signatures
        if want is None:
            assert list(signatures) == []
            continue
        assert list(signatures) == ["serving_default"]
        serving = signatures["serving_default"]
        assert serving.structured_input_signature == ((), want[0])
        assert serving.structured_outputs == want[1]
