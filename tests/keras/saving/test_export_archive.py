"""tf.keras.export.ExportArchive and Model.export, against tf_keras 2.21's behaviour."""
import contextlib
import io
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

X = np.arange(6, dtype="float32").reshape(2, 3)


def _model():
    return keras.Sequential([
        keras.layers.Dense(2, kernel_initializer="ones", input_shape=(3,)),
        keras.layers.Dropout(0.5),
        keras.layers.Dense(1, kernel_initializer="ones")])


def _write(archive, path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        archive.write_out(path)
    return out.getvalue()


def test_archive_endpoints_signatures_and_variable_collections(tmp_path):
    model = _model()
    archive = keras.export.ExportArchive()
    assert list(archive.variables) == [] and archive.tensorflow_version == tf.__version__
    archive.track(model)
    assert (len(archive.variables), len(archive.trainable_variables),
            len(archive.non_trainable_variables)) == (4, 4, 0)
    spec = [tf.TensorSpec(shape=(None, 3), dtype=tf.float32)]
    archive.add_endpoint("serve", lambda x: model(x, training=False), spec)
    archive.add_endpoint("call_training", lambda x: model(x, training=True), spec)
    archive.add_variable_collection("my_vars", model.trainable_variables)
    path = os.path.join(tmp_path, "archive")
    printed = _write(archive, path)
    assert printed.startswith(f"Saved artifact at '{path}'. The following endpoints are "
                              f"available:\n\n* Endpoint 'serve'\n  x (POSITIONAL_OR_KEYWORD): "
                              f"TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)\n"
                              f"Output Type:\n  TensorSpec(shape=(None, 1), dtype=tf.float32, "
                              f"name=None)\nCaptures:\n")
    assert "\n\n* Endpoint 'call_training'\n" in printed

    loaded = tf.saved_model.load(path)
    np.testing.assert_array_equal(loaded.serve(tf.constant(X)), [[6.0], [24.0]])
    assert sorted(loaded.signatures.keys()) == ["call_training", "serve", "serving_default"]
    served = loaded.signatures["serving_default"](tf.constant(X))
    np.testing.assert_array_equal(served["output_0"], [[6.0], [24.0]])
    assert [v.shape.as_list() for v in loaded.my_vars] == [[3, 2], [2], [2, 1], [1]]
    assert len(loaded.variables) == 4


def test_a_function_with_its_own_input_signature_needs_no_call(tmp_path):
    model = _model()
    archive = keras.export.ExportArchive()
    archive.track(model)
    spec = [tf.TensorSpec(shape=(None, 3), dtype=tf.float32)]
    archive.add_endpoint("mean", tf.function(lambda x: tf.reduce_mean(model(x)),
                                             input_signature=spec))
    printed = _write(archive, os.path.join(tmp_path, "a"))
    assert "* Endpoint 'mean'\n  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None, 3)" in printed
    loaded = tf.saved_model.load(os.path.join(tmp_path, "a"))
    assert float(loaded.mean(tf.constant(X))) == 15.0


def test_a_traced_function_endpoint_needs_no_signature(tmp_path):
    model = _model()
    archive = keras.export.ExportArchive()
    fn = tf.function(lambda x: model(x) * 2)
    fn(tf.constant(X))
    archive.add_endpoint("f", fn)
    path = os.path.join(tmp_path, "traced")
    assert "x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2, 3)" in _write(archive, path)
    loaded = tf.saved_model.load(path)
    np.testing.assert_array_equal(loaded.f(tf.constant(X)), [[12.0], [48.0]])
    assert list(loaded.signatures) == ["f", "serving_default"]


@pytest.mark.parametrize("call, message", [
    (lambda a, m: a.add_endpoint("f", lambda x: x),
     "If the `fn` argument provided is not a `tf.function`, you must provide an "
     "`input_signature` argument"),
    (lambda a, m: a.add_endpoint("f", tf.function(lambda x: x)), "has never been called."),
    (lambda a, m: a.add_variable_collection("c", m.trainable_variables[0]),
     "Expected `variables` to be a list/tuple/set. Received instead object of type"),
    (lambda a, m: a.add_variable_collection("c", [1, 2]),
     "Expected all elements in `variables` to be `tf.Variable` instances. Found instead the "
     "following types: [<class 'int'>]"),
    (lambda a, m: a.track(3), "Invalid resource type. Expected an instance of a TensorFlow "
                              "`Trackable` (such as a TF-Keras `Layer` or `Model`). Received "
                              "instead an object of type '<class 'int'>'. Object received: 3"),
    (lambda a, m: a.track(keras.layers.Dense(2)),
     "The layer provided has not yet been built. It must be built before export."),
    (lambda a, m: a.write_out("unused"), "No endpoints have been set yet. Call add_endpoint()."),
])
def test_archive_errors(call, message):
    with pytest.raises(ValueError) as e:
        call(keras.export.ExportArchive(), _model())
    assert message in str(e.value)


def test_an_endpoint_name_is_taken_once():
    archive = keras.export.ExportArchive()
    archive.add_endpoint("serve", lambda x: x, [tf.TensorSpec((None,))])
    with pytest.raises(ValueError, match="Endpoint name 'serve' is already taken."):
        archive.add_endpoint("serve", lambda x: x, [tf.TensorSpec((None,))])


def test_model_export_serves_the_models_call(tmp_path):
    keras.backend.clear_session()  # (the input is named after the first layer: dense)
    model = _model()
    path = os.path.join(tmp_path, "model")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.export(path)
    assert ("* Endpoint 'serve'\n  args_0 (POSITIONAL_ONLY): TensorSpec(shape=(None, 3), "
            "dtype=tf.float32, name='dense_input')") in out.getvalue()
    loaded = tf.saved_model.load(path)
    np.testing.assert_array_equal(loaded.serve(X), [[6.0], [24.0]])
    assert list(loaded.signatures) == ["serve", "serving_default"]

    a, b = keras.Input((2,), name="a"), keras.Input((1,), name="b")
    joined = keras.Model([a, b], keras.layers.Concatenate()([a, b]))
    with contextlib.redirect_stdout(io.StringIO()):
        joined.export(os.path.join(tmp_path, "joined"))
    loaded = tf.saved_model.load(os.path.join(tmp_path, "joined"))
    np.testing.assert_array_equal(loaded.serve([tf.ones((1, 2)), tf.zeros((1, 1))]),
                                  [[1.0, 1.0, 0.0]])


def test_a_subclassed_model_exports_once_called(tmp_path):
    class Linear(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            return self.dense(x)

    model = Linear()
    path = os.path.join(tmp_path, "subclassed")
    with pytest.raises(ValueError, match="The layer provided has not yet been built"):
        model.export(path)
    model(X)
    with contextlib.redirect_stdout(io.StringIO()):
        model.export(path)
    np.testing.assert_array_equal(tf.saved_model.load(path).serve(X), [[3.0], [12.0]])


def test_an_endpoint_with_defaulted_parameters_records_them_as_tf_does(tmp_path):
    # TF binds a loaded call to the whole signature, defaults included: the saved concrete
    # function lists them (else TF finds no function to call for `serve(x)`).
    from tests.internals import fingerprinting
    model = _model()
    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", model.call, [tf.TensorSpec((None, 3), tf.float32)])
    path = os.path.join(tmp_path, "call")
    _write(archive, path)
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        graph = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
            .object_graph_def
    signatures = [c.canonicalized_input_signature for name, c in
                  graph.concrete_functions.items() if "signature_wrapper" not in name]
    args = signatures[0].tuple_value.values[0].tuple_value.values
    assert [a.WhichOneof("kind") for a in args] == ["tensor_spec_value", "none_value",
                                                    "none_value"]  # inputs, training, mask
    np.testing.assert_array_equal(tf.saved_model.load(path).serve(X), [[6.0], [24.0]])
