"""Subclassed Keras models in a SavedModel: the call functions tf_keras's `load_model` revives
them by (``keras_api.call_and_return_conditional_losses``, ``__call__``), traced with the
inputs of the model's first call (`save_spec`), and what TF 2.21 computed with the one
checked in (data/make_ours.py, data/load_ours_in_tf.py)."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from tests.saved_model.programs import subclassed_classes

DATA = os.path.join(os.path.dirname(__file__), "data")
X = np.arange(8, dtype=np.float32).reshape(2, 4) / 7.0


Scale, Subclassed = subclassed_classes(tf)


def test_save_spec_is_the_first_calls_inputs_named_as_tf_keras_names_them():
    model = Subclassed()
    assert model.save_spec() is None
    model(X)
    assert model.save_spec() == ([tf.TensorSpec([None, 4], tf.float32, "input_1")], {})
    assert model.save_spec(dynamic_batch=False) == (
        [tf.TensorSpec([2, 4], tf.float32, "input_1")], {})
    model(X[:1])  # (the first call's)
    assert model.save_spec()[0][0].shape.as_list() == [None, 4]

    class Pair(tf.keras.Model):
        def call(self, inputs):
            return inputs["a"] + inputs["b"]

    pair = Pair()
    pair({"a": X, "b": X})
    assert pair.save_spec() == ([{"a": tf.TensorSpec([None, 4], tf.float32, "a"),
                                  "b": tf.TensorSpec([None, 4], tf.float32, "b")}], {})
    functional = tf.keras.Model(*(lambda i: (i, tf.keras.layers.Dense(1)(i)))(
        tf.keras.Input((3,), name="features")))
    assert functional.save_spec() == ([tf.TensorSpec([None, 3], tf.float32, "features")], {})


def test_save_spec_keeps_an_inputs_own_batch_size():
    # (an Input's or batch_input_shape's batch size stays, also in the serving signature;
    # a Sequential whose input a call or build inferred has a dynamic one)
    inputs = tf.keras.Input((5,), batch_size=2, name="features")
    functional = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(inputs))
    assert functional.save_spec() == ([tf.TensorSpec([2, 5], tf.float32, "features")], {})
    assert functional._default_save_signature().inputs[0].shape.as_list() == [2, 5]
    sequential = tf.keras.Sequential([tf.keras.layers.Dense(1, batch_input_shape=(3, 5))])
    assert sequential.save_spec()[0][0].shape.as_list() == [3, 5]
    for build in (lambda m: m(np.ones((3, 4), np.float32)), lambda m: m.build((3, 4))):
        inferred = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        build(inferred)
        assert inferred.save_spec()[0][0].shape.as_list() == [None, 4]
        assert inferred.save_spec(dynamic_batch=False)[0][0].shape.as_list() == [3, 4]


def test_savedmodel_of_a_subclassed_model_holds_its_call_functions(tmp_path):
    tf.keras.utils.set_random_seed(5)
    model = Subclassed()
    expected = model(X).numpy()
    losses = [float(v) for v in model.losses]
    path = str(tmp_path / "m")
    model.save(path)
    assert [float(v) for v in model.losses] == losses  # (the traces' losses are not kept)
    loaded = tf.saved_model.load(path)
    call = loaded.keras_api.call_and_return_conditional_losses
    outputs, call_losses = call(tf.constant(X), training=False)
    np.testing.assert_allclose(outputs.numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose([float(v) for v in call_losses], losses, rtol=1e-6)
    outputs, _ = call(tf.constant(X), True)
    assert not np.allclose(outputs.numpy(), expected)  # (dropout, training)
    np.testing.assert_allclose(loaded(tf.constant(X), training=False).numpy(), expected,
                               rtol=1e-6)
    assert loaded.call_and_return_all_conditional_losses is call
    served = loaded.signatures["serving_default"](input_1=tf.constant(X))
    assert list(served) == ["output_1"]
    np.testing.assert_allclose(served["output_1"].numpy(), expected, rtol=1e-6)
    # the custom layer inside, called on its own
    scaled, scale_losses = loaded.scale.keras_api.call_and_return_conditional_losses(
        tf.ones([3, 5]))
    np.testing.assert_allclose(scaled.numpy(), np.ones([3, 5]))
    np.testing.assert_allclose(float(scale_losses[0]), 0.15, rtol=1e-6)
    # Keras's own layers hold theirs too, as tf_keras saves them
    hidden = loaded.hidden.keras_api.call_and_return_conditional_losses(tf.constant(X))
    np.testing.assert_allclose(hidden[0].numpy(), model.hidden(X).numpy(), rtol=1e-6)


def test_a_model_whose_inputs_are_unknown_is_refused_as_tf_keras_refuses_it(tmp_path):
    """Never called (built from a shape alone does not record inputs, as in tf_keras), a
    subclassed model cannot be traced for a SavedModel: TF's ValueError; so for a Sequential
    model without an input shape. A `.keras` archive needs no trace."""
    model = Subclassed()
    model.build((None, 4))
    with pytest.raises(ValueError, match=r"^Model <.*> cannot be saved either because the "
                                         r"input shape is not available or because the "
                                         r"forward pass of the model is not defined\.To "):
        model.save(str(tmp_path / "m"))
    assert not os.path.exists(str(tmp_path / "m"))
    with pytest.raises(ValueError, match=r"cannot be saved because the input shape is not "
                                         r"available\. Please specify an input shape"):
        tf.keras.Sequential([tf.keras.layers.Dense(2)]).save(str(tmp_path / "s"))
    model.save(str(tmp_path / "m.keras"))


def test_compiled_subclassed_models_checkpoint_as_tf_keras_does(tmp_path):
    model = Subclassed()
    model.compile("adam", "mse")
    model.fit(X, np.ones((2, 2), np.float32), verbose=0)
    prefix = str(tmp_path / "ckpt")
    model.save_weights(prefix)
    names = [name for name, _ in tf.train.list_variables(prefix)]
    assert not [n for n in names if n.startswith(("_steps_per_execution",
                                                   "_compile_arguments"))]
    assert "hidden/kernel/.ATTRIBUTES/VARIABLE_VALUE" in names


def test_tf_keras_revived_the_subclassed_model_saved_here():
    """TF 2.21's `tf.keras.models.load_model` (tf_keras) of data/ours_keras_subclassed, a
    class it does not have: revived from the saved functions, it predicts what the model
    did, with its losses, and compiles and trains."""
    with open(os.path.join(DATA, "tf_loaded_ours.json")) as f:
        recorded = json.load(f)["keras_subclassed"]
    expected = np.load(os.path.join(DATA, "ours_keras_subclassed_y.npy"))
    assert recorded["class"] == "Subclassed"
    for key in ("predict", "call", "saved_model_call"):
        np.testing.assert_allclose(recorded[key], expected, rtol=1e-5)
    np.testing.assert_allclose(recorded["serving_default"]["output_1"], expected, rtol=1e-5)
    assert len(recorded["losses"]) == 1
    assert recorded["compiled"] and recorded["trained_a_step"] and recorded["training_differs"]
    # and here: the same functions, called by eagerflow's loader
    loaded = tf.saved_model.load(os.path.join(DATA, "ours_keras_subclassed"))
    outputs, losses = loaded.keras_api.call_and_return_conditional_losses(X, training=False)
    np.testing.assert_allclose(outputs.numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose([float(v) for v in losses], recorded["losses"], rtol=1e-5)


@pytest.mark.parametrize("call_arguments", ["(self, x)", "(self, inputs, training=None, mask=None)"])
def test_call_signatures_without_or_with_more_arguments(tmp_path, call_arguments):
    namespace = {"tf": tf}
    exec(f"class M(tf.keras.Model):\n"  # noqa: S102 (a class per call signature)
         f"    def __init__(self):\n"
         f"        super().__init__()\n"
         f"        self.d = tf.keras.layers.Dense(2)\n"
         f"    def call{call_arguments}:\n"
         f"        return self.d({call_arguments.split(', ')[1].rstrip(')')})\n", namespace)
    model = namespace["M"]()
    expected = model(X).numpy()
    path = str(tmp_path / "m")
    model.save(path)
    loaded = tf.saved_model.load(path)
    call = loaded.keras_api.call_and_return_conditional_losses
    outputs, _ = call(X, training=False) if "training" in call_arguments else call(X)
    np.testing.assert_allclose(outputs.numpy(), expected, rtol=1e-6)


# -- load_model of a subclassed model without its class: revived from its saved functions ---

def test_keras_load_model_revives_tf_keras_subclassed_model():
    """data/tf_keras_subclassed: TF 2.21's model.save of programs.subclassed_model, whose
    classes are not given here: its Dense layers rebuilt from their configs, the custom
    layer and the model calling the saved functions, with TF's outputs and losses."""
    with open(os.path.join(DATA, "tf_outputs.json")) as f:
        recorded = json.load(f)["tf_keras_subclassed"]
    x = np.array(recorded["x"], np.float32)
    model = tf.keras.models.load_model(os.path.join(DATA, "tf_keras_subclassed"))
    assert type(model).__name__ == "Subclassed" and isinstance(model, tf.keras.Model)
    assert [type(layer).__name__ for layer in model.layers] == ["Dense", "Scale", "Dropout",
                                                                "Dense"]
    assert isinstance(model.layers[0], tf.keras.layers.Dense)
    assert [w.name for w in model.weights] == recorded["weights"]
    np.testing.assert_allclose(model(x).numpy(), recorded["y"], rtol=1e-5)
    np.testing.assert_allclose([float(v) for v in model.losses], recorded["losses"], rtol=1e-5)
    np.testing.assert_allclose(model.predict(x, verbose=0), recorded["y"], rtol=1e-5)
    assert not np.allclose(model(x, training=True).numpy(), recorded["y"])  # (dropout)
    # compiled from its training config: a step of training moves every weight
    assert model.optimizer is not None
    before = [w.numpy() for w in model.trainable_weights]
    loss = model.fit(x, np.ones((2, 2), np.float32), verbose=0).history["loss"][0]
    assert np.isfinite(loss)
    assert all(not np.allclose(a, w.numpy()) for a, w in zip(before, model.trainable_weights))


def test_keras_load_model_revives_a_subclassed_model_saved_here(tmp_path):
    tf.keras.utils.set_random_seed(5)
    model = Subclassed()
    model.compile("adam", "mse")
    model.fit(X, np.ones((2, 2), np.float32), verbose=0)
    expected = model(X).numpy()
    path = str(tmp_path / "m")
    model.save(path)
    revived = tf.keras.models.load_model(path)
    assert type(revived).__name__ == "Subclassed" and type(revived) is not Subclassed
    np.testing.assert_allclose(revived(X).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose([float(v) for v in revived.losses],
                               [float(v) for v in model.losses], rtol=1e-6)
    # its weights checkpoint under the original model's paths
    prefix = str(tmp_path / "w")
    revived.save_weights(prefix)
    fresh = Subclassed()
    fresh(X)
    fresh.load_weights(prefix).expect_partial()
    np.testing.assert_allclose(fresh(X).numpy(), expected, rtol=1e-6)


# -- what tf.saved_model.load gives of a Keras model: its saved variables lists ---------------

def test_loaded_keras_objects_have_the_saved_variables_lists():
    """TF's restored objects have a Keras object's ``variables`` and ``trainable_variables``
    as saved (the model's weights, in their order: no optimizer or metric variables), and no
    Module API otherwise; eagerflow's restored objects the same, of TF's SavedModel and of
    ours (which TF 2.21 read, data/tf_loaded_ours.json)."""
    with open(os.path.join(DATA, "tf_outputs.json")) as f:
        weights = json.load(f)["tf_keras_subclassed"]["weights"]
    loaded = tf.saved_model.load(os.path.join(DATA, "tf_keras_subclassed"))
    assert [v.name for v in loaded.variables] == weights
    assert [v.name for v in loaded.trainable_variables] == weights
    assert not hasattr(loaded, "non_trainable_variables") and not hasattr(loaded, "submodules")
    with open(os.path.join(DATA, "tf_loaded_ours.json")) as f:
        recorded = json.load(f)["keras_subclassed"]
    ours = tf.saved_model.load(os.path.join(DATA, "ours_keras_subclassed"))
    assert [v.name for v in ours.variables] == recorded["saved_model_variables"]
    assert [v.name for v in ours.trainable_variables] == \
        recorded["saved_model_trainable_variables"]
    assert [v.name for v in ours.scale.variables] == recorded["saved_model_scale_variables"]


def test_savedmodel_of_a_keras_model_saves_its_variables_lists(tmp_path):
    tf.keras.backend.clear_session()  # (layers named as in a fresh process)
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,)),
                                 tf.keras.layers.BatchNormalization()])
    model.compile("adam", "mse")
    model.fit(np.ones((4, 4)), np.ones((4, 3)), verbose=0)
    path = str(tmp_path / "m")
    model.save(path)
    loaded = tf.saved_model.load(path)
    assert [v.name for v in loaded.variables] == [v.name for v in model.variables]
    assert [v.name for v in loaded.trainable_variables] == [
        "dense/kernel:0", "dense/bias:0", "batch_normalization/gamma:0",
        "batch_normalization/beta:0"]
    assert loaded.variables[0] is getattr(loaded, "layer_with_weights-0").kernel
    batch_norm = getattr(loaded, "layer_with_weights-1")
    assert [v.name for v in batch_norm.variables][2:] == [
        "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]


# -- the optimizer in a SavedModel: revived by tf_keras as its RestoredOptimizer ---------------

def _optimizer_node(path):
    from tests.internals import fingerprinting
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        nodes = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
            .object_graph_def.nodes
    root = nodes[0]
    found = next(c.node_id for c in root.children if c.local_name == "optimizer")
    user_object = nodes[found].user_object
    return user_object.identifier, user_object.version.producer, user_object.version.min_consumer


@pytest.mark.parametrize("optimizer, identifier", [
    (lambda: tf.keras.optimizers.Adam(0.1), "experimentalOptimizer"),
    (lambda: tf.keras.optimizers.legacy.Adam(0.1), "optimizer")])
def test_the_optimizer_is_saved_under_tf_keras_identifier(tmp_path, optimizer, identifier):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.compile(optimizer(), "mse")
    model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
    model.save(str(tmp_path / "m"))
    assert _optimizer_node(str(tmp_path / "m")) == (identifier, 2, 1)


def test_tf_keras_revived_our_optimizer_with_its_state():
    """tf_keras's load_model(compile=False) of data/ours_keras revived its Adam as a
    RestoredOptimizer with the iterations and slot variables saved (load_ours_in_tf.py)."""
    with open(os.path.join(DATA, "tf_loaded_ours.json")) as f:
        recorded = json.load(f)["keras_load_model"]
    for name in ("ours_keras", "ours_keras_cnn"):
        assert _optimizer_node(os.path.join(DATA, name)) == ("experimentalOptimizer", 2, 1)
        restored = recorded[name]["restored_optimizer"]
        saved = tf.saved_model.load(os.path.join(DATA, name)).optimizer
        assert restored["class"] == "RestoredOptimizer"
        assert restored["iterations"] == int(saved._iterations.numpy()) == 1
        assert restored["variables"] == [v.name for v in saved._variables]


def test_a_subclassed_model_taking_a_dict_saves_and_revives(tmp_path):
    class Pair(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.seq = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu"),
                                            tf.keras.layers.Dense(2)])
            self.bn = tf.keras.layers.BatchNormalization()

        def call(self, inputs, training=None):
            return self.seq(self.bn(inputs["a"] + 2.0 * inputs["b"], training=training))

    tf.keras.utils.set_random_seed(4)
    model = Pair()
    x = {"a": X, "b": np.ones((2, 4), np.float32)}
    model.compile("adam", "mse")
    model.fit(x, np.ones((2, 2), np.float32), verbose=0)
    expected = model(x, training=False).numpy()
    path = str(tmp_path / "m")
    model.save(path)
    served = tf.saved_model.load(path).signatures["serving_default"]
    assert sorted(served.structured_input_signature[1]) == ["a", "b"]
    np.testing.assert_allclose(served(a=x["a"], b=x["b"])["output_1"].numpy(), expected,
                               rtol=1e-6)
    revived = tf.keras.models.load_model(path)
    assert type(revived).__name__ == "Pair"
    assert [type(layer).__name__ for layer in revived.layers] == ["Sequential",
                                                                  "BatchNormalization"]
    np.testing.assert_allclose(revived(x).numpy(), expected, rtol=1e-6)


def test_a_legacy_optimizers_slots_are_saved_by_variable(tmp_path):
    """The legacy optimizers keep slots by variable: a SavedModel holds them as TF's does,
    nodes the optimizer's node references (``slot_variables``), under the checkpoint's
    ``.OPTIMIZER_SLOT`` keys."""
    from tests.internals import fingerprinting
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.compile(tf.keras.optimizers.legacy.Adam(0.1), "mse")
    model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0, epochs=2)
    path = str(tmp_path / "m")
    model.save(path)
    names = [n for n, _ in tf.train.list_variables(os.path.join(path, "variables",
                                                                "variables"))]
    assert "layer_with_weights-0/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/" \
           "VARIABLE_VALUE" in names
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        nodes = fingerprinting.pb.SavedModel.FromString(f.read()).meta_graphs[0] \
            .object_graph_def.nodes
    optimizer = next(c.node_id for c in nodes[0].children if c.local_name == "optimizer")
    slots = nodes[optimizer].slot_variables
    assert sorted(s.slot_name for s in slots) == ["m", "m", "v", "v"]
    assert all(nodes[s.slot_variable_node_id].WhichOneof("kind") == "variable" for s in slots)
    # As tf_keras: load_model compiles the model afresh, its optimizer starting anew
    loaded = tf.keras.models.load_model(path)
    assert int(loaded.optimizer.iterations) == 0
    np.testing.assert_allclose(loaded.layers[0].kernel.numpy(), model.layers[0].kernel.numpy())


def test_a_revived_model_holds_the_layers_its_lists_held(tmp_path, caplog):
    # The save-and-load guide's model: its Dense layers in a list attribute come back as
    # layers of the revived model, with their weights (tf_keras lists them as well).
    class Stack(tf.keras.Model):
        def __init__(self, hidden_units):
            super().__init__()
            self.hidden_units = hidden_units
            self.dense_layers = [tf.keras.layers.Dense(u) for u in hidden_units]

        def call(self, inputs):
            for layer in self.dense_layers:
                inputs = layer(inputs)
            return inputs

    model = Stack([4, 3])
    expected = model(X).numpy()
    model.save(str(tmp_path / "stack"))
    revived = tf.keras.models.load_model(str(tmp_path / "stack"))
    assert "No training configuration found in save file" in caplog.text  # (not compiled)
    assert type(revived).__name__ == "Stack" and type(revived) is not Stack
    assert [type(layer).__name__ for layer in revived.layers] == ["Dense", "Dense"]
    assert [w.shape.as_list() for w in revived.weights] == [[4, 4], [4], [4, 3], [3]]
    np.testing.assert_allclose(revived(X).numpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(revived.get_weights()[2], model.get_weights()[2])


def test_a_layer_called_with_two_tensors_saves_in_a_module(tmp_path):
    # The Transformer tutorial's export: a module holding a model whose decoder layers take
    # `(x, context)`; the layers' call functions are traced with both.
    class Cross(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(4)

        def call(self, x, context):
            return self.dense(x) + tf.reduce_mean(context, axis=1, keepdims=True)

    class Pair(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.cross = Cross()

        def call(self, inputs):
            context, x = inputs
            return self.cross(x, context)

    class Export(tf.Module):
        def __init__(self, model):
            self.model = model

        @tf.function(input_signature=[tf.TensorSpec([None, None, 4], tf.float32)])
        def __call__(self, x):
            return self.model((x, x))

    model = Pair()
    expected = model((X[None], X[None])).numpy()
    tf.saved_model.save(Export(model), str(tmp_path / "export"))
    loaded = tf.saved_model.load(str(tmp_path / "export"))
    np.testing.assert_allclose(loaded(X[None]).numpy(), expected, rtol=1e-6)


def test_load_model_without_compiling_needs_no_custom_loss(tmp_path):
    def custom_loss(y_true, y_pred):
        return tf.reduce_mean(tf.square(y_true - y_pred))

    class Unknown(tf.keras.Model):  # (revived: its class is not given to load_model)
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    inputs = tf.keras.Input((4,), name="features")  # (named: the uid counter stays as it is)
    functional = tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))
    for model, name in ((Unknown(), "revived"), (functional, "rebuilt")):
        model(X)
        model.compile("adam", loss=custom_loss)
        model.save(str(tmp_path / name))
        loaded = tf.keras.models.load_model(str(tmp_path / name), compile=False)
        np.testing.assert_allclose(loaded(X).numpy(), model(X).numpy(), rtol=1e-6)
        with pytest.raises(ValueError, match="Unknown loss function: 'custom_loss'"):
            tf.keras.models.load_model(str(tmp_path / name))


def test_a_model_never_called_saves_an_empty_keras_api_as_tf_keras_does(tmp_path, caplog):
    """A Keras model that was not built (its tf.function methods called, never the model, as
    the text generation tutorial's `OneStep` sampler is) is saved by its weights and an empty
    ``keras_api`` node, with tf_keras's warning: no ``variables`` lists, no call functions."""
    class Sampler(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(2)

        @tf.function(input_signature=[tf.TensorSpec([None, 3])])
        def step(self, x):
            return self.dense(x)

    sampler = Sampler()
    sampler.step(tf.ones([1, 3]))
    path = str(tmp_path / "m")
    tf.saved_model.save(sampler, path)
    assert "because it is not built" in caplog.text
    loaded = tf.saved_model.load(path)
    names = sorted(k for k in dir(loaded) if not k.startswith("_"))
    assert names == ["dense", "keras_api", "signatures", "step", "tensorflow_git_version",
                     "tensorflow_version"]
    assert [k for k in dir(loaded.keras_api) if not k.startswith("_")] == []
    assert {"variables", "keras_api", "call_and_return_all_conditional_losses"} <= set(
        dir(loaded.dense))  # (the dense layer was called: saved in full)
    assert loaded.step(tf.ones([2, 3])).shape == (2, 2)
