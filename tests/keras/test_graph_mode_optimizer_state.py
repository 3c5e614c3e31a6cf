"""The optimizer of a Keras model trained in TF 1's graph mode: its variables join the
graph's global variables once the model trains (a ``Saver`` then keeps them), and a TF 1
optimizer given to `compile` is wrapped as tf_keras wraps it (`TFOptimizer`)."""
import logging
import os

import numpy as np
import pytest

import eagerflow as tf


def _model(optimizer):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(3, input_shape=(4,), kernel_initializer="ones", name="d0"),
        tf.keras.layers.Dense(1, kernel_initializer="ones", name="d1")])
    model.compile(optimizer=optimizer, loss="mse")
    return model


_X = np.ones((8, 4), np.float32)
_Y = np.zeros((8, 1), np.float32)


def test_optimizer_variables_are_global_once_the_model_trains(keras_graph_mode, tmp_path):
    model = _model(tf.keras.optimizers.legacy.Adam(0.1))
    weights = ["d0/kernel:0", "d0/bias:0", "d1/kernel:0", "d1/bias:0"]
    assert [v.name for v in tf.compat.v1.global_variables()] == weights
    model.train_on_batch(_X, _Y)
    names = [v.name for v in tf.compat.v1.global_variables()]
    slots = [v.name for v in model.optimizer.variables()]
    assert names[:4] == weights and set(slots) <= set(names)
    assert model.optimizer.iterations.name in names
    # a Saver made now keeps the slots: restored, training goes on as it would have
    sess = tf.compat.v1.keras.backend.get_session()
    saver = tf.compat.v1.train.Saver()
    path = saver.save(sess, os.path.join(tmp_path, "ck"))
    saved = {name for name, _ in tf.train.list_variables(path)}
    assert {s[:-2] for s in slots} <= saved
    expected = model.train_on_batch(_X, _Y)
    saver.restore(sess, path)
    assert sess.run(model.optimizer.iterations) == 1
    assert model.train_on_batch(_X, _Y) == expected


def test_tf1_optimizer_is_wrapped_eagerly():
    model = _model(tf.compat.v1.train.GradientDescentOptimizer(0.01))
    assert type(model.optimizer).__name__ == "TFOptimizer"
    assert isinstance(model.optimizer.optimizer, tf.compat.v1.train.GradientDescentOptimizer)
    assert model.optimizer.iterations.name == "TFOptimizer/iterations:0"
    history = model.fit(_X, _Y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    # (tf_keras 2.21: the same)
    np.testing.assert_allclose(history.history["loss"], [72.004608, 0.00150473], rtol=1e-5)
    assert int(model.optimizer.iterations.numpy()) == 4
    with pytest.raises(NotImplementedError):
        model.optimizer.get_config()
    with pytest.raises(AttributeError):
        model.optimizer.learning_rate  # noqa: B018 (tf_keras's wrapper has none)


def test_tf1_optimizer_trains_in_the_session(keras_graph_mode):
    model = _model(tf.compat.v1.train.AdamOptimizer(0.1))
    assert "TFOptimizer/iterations:0" in [v.name for v in tf.compat.v1.global_variables()]
    assert model.train_on_batch(_X, _Y) == pytest.approx(144.0)
    history = model.fit(_X, _Y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [68.5966, 19.4692], atol=2e-4)
    sess = tf.compat.v1.keras.backend.get_session()
    assert sess.run(model.optimizer.iterations) == 5


def test_sequential_called_in_a_v1_graph_names_weights_in_its_scope(keras_graph_mode):
    # As Keras in TF 1's graph mode: a Sequential without an input shape calls its layers in
    # turn in its own name scope, which names the weights they make (GAN code picks its
    # variables by that scope).
    x = tf.compat.v1.placeholder(tf.float32, [None, 3])
    gen = tf.keras.Sequential([tf.keras.layers.Dense(4, name="a"),
                               tf.keras.layers.Dense(1, name="b")], name="gen")
    gen(x)
    assert [v.name for v in gen.weights] == ["gen/a/kernel:0", "gen/a/bias:0",
                                             "gen/b/kernel:0", "gen/b/bias:0"]
    assert len(tf.compat.v1.trainable_variables(scope="gen")) == 4
    with tf.name_scope("outer"):
        inner = tf.keras.Sequential([tf.keras.layers.Dense(2, name="c")], name="inner")
        inner(x)
    assert [v.name for v in inner.weights] == ["outer/inner/c/kernel:0", "outer/inner/c/bias:0"]
    # (one with its input shape is built at once, outside any scope)
    disc = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), name="d")],
                               name="disc")
    disc(x)
    assert [v.name for v in disc.weights] == ["d/kernel:0", "d/bias:0"]


def test_v1_loops_check_arrays_against_the_model_before_any_step(keras_graph_mode):
    # As TF 1's Keras: arrays of targets a loss would broadcast are refused, not trained on.
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,), name="dense")])
    model.compile("sgd", "mse")
    x = np.ones((4, 3), np.float32)
    before = model.get_weights()
    with pytest.raises(ValueError, match=r"^A target array with shape \(4, 3\) was passed for "
                       r"an output of shape \(None, 1\) while using as loss "
                       r"`mean_squared_error`\. This loss expects targets to have the same "
                       r"shape as the output\.$"):
        model.fit(x, np.ones((4, 3)), verbose=0)
    with pytest.raises(ValueError, match="^A target array with shape"):
        model.train_on_batch(x, np.ones((4, 3)))
    assert all((a == b).all() for a, b in zip(before, model.get_weights()))
    with pytest.raises(ValueError, match=r"^Error when checking input: expected dense_input to "
                       r"have shape \(3,\) but got array with shape \(5,\)$"):
        model.predict(np.ones((4, 5)), verbose=0)
    with pytest.raises(ValueError, match=r"^Error when checking input: expected dense_input to "
                       r"have 2 dimensions, but got array with shape \(4, 3, 1\)$"):
        model.evaluate(np.ones((4, 3, 1)), np.ones((4, 1)), verbose=0)
    classifier = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    classifier.compile("sgd", "categorical_crossentropy")
    with pytest.raises(ValueError, match=r"^You are passing a target array of shape \(4, 1\) "
                       r"while using as loss `categorical_crossentropy`"):
        classifier.train_on_batch(x, np.ones((4, 1)))
    # (other losses, and datasets, are left to broadcast as TF 1 leaves them)
    model.compile("sgd", "mae")
    assert np.isfinite(model.train_on_batch(x, np.ones((4, 3))))


@pytest.mark.parametrize("make", [lambda: tf.compat.v1.train.AdamOptimizer(0.1),
                                  lambda: tf.keras.optimizers.legacy.Adam(0.1),
                                  lambda: tf.keras.optimizers.legacy.Nadam(0.1)],
                         ids=["tf1_adam", "legacy_adam", "legacy_nadam"])
def test_weights_checkpoint_restores_optimizer_state(keras_graph_mode, tmp_path, make):
    # As tf_keras: a fresh model and optimizer loading the checkpoint get the slots (made at
    # their first step, after the load) and Adam's step powers, so training goes on exactly
    # as the saved model's does (without them the next step differed by up to 0.25).
    x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(8, 4)
    y = np.linspace(0, 1, 8, dtype=np.float32).reshape(8, 1)
    model = _model(make())
    model.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False)
    path = os.path.join(tmp_path, "ck")
    model.save_weights(path)
    saved = {name for name, _ in tf.train.list_variables(path)}
    assert {"optimizer/optimizer/beta1_power/.ATTRIBUTES/VARIABLE_VALUE",
            "optimizer/iter/.ATTRIBUTES/VARIABLE_VALUE"} & saved  # (Adam's step, either way)
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    fresh = _model(make())
    fresh.load_weights(path)
    fresh.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    for a, b in zip(model.get_weights(), fresh.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


class _Subclassed(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.d0 = tf.keras.layers.Dense(3, activation="tanh", kernel_initializer="ones")
        self.d1 = tf.keras.layers.Dense(1, kernel_initializer="ones")

    def call(self, x):
        return self.d1(self.d0(x))


def test_subclassed_model_built_by_fit_keeps_graph_weights(keras_graph_mode, tmp_path):
    # As tf_keras: the model is built in the graph before its first step, so its weights are
    # the graph's (the session runs them, a checkpoint saves them), and loading the
    # checkpoint into a fresh model, not built yet, gives weights and slots as they are made.
    x = np.linspace(-1, 1, 32, dtype=np.float32).reshape(8, 4)
    y = np.linspace(0, 1, 8, dtype=np.float32).reshape(8, 1)
    model = _Subclassed()
    model.compile(tf.compat.v1.train.AdamOptimizer(0.1), "mse")
    model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    sess = tf.compat.v1.keras.backend.get_session()
    np.testing.assert_allclose(sess.run(model.weights[0]), model.get_weights()[0])
    path = os.path.join(tmp_path, "ck")
    model.save_weights(path)
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    fresh = _Subclassed()
    fresh.compile(tf.compat.v1.train.AdamOptimizer(0.1), "mse")
    fresh.load_weights(path)
    fresh.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    for a, b in zip(model.get_weights(), fresh.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_tf1_optimizer_variables_are_the_graphs_once_the_model_trains(keras_graph_mode,
                                                                       tmp_path):
    # As tf_keras: the TF 1 optimizer's slots and beta powers are variables of the graph
    # (Adam's powers in Keras's ``training`` scope), so a ``Saver`` made afterwards keeps them.
    model = _model(tf.compat.v1.train.AdamOptimizer(0.1))
    model.train_on_batch(_X, _Y)
    slots = ["d0/bias/Adam:0", "d0/bias/Adam_1:0", "d0/kernel/Adam:0", "d0/kernel/Adam_1:0",
             "d1/bias/Adam:0", "d1/bias/Adam_1:0", "d1/kernel/Adam:0", "d1/kernel/Adam_1:0"]
    powers = ["training/beta1_power:0", "training/beta2_power:0"]
    assert [v.name for v in model.optimizer.optimizer.variables()] == slots + powers
    assert set(slots + powers) <= {v.name for v in tf.compat.v1.global_variables()}
    sess = tf.compat.v1.keras.backend.get_session()
    path = tf.compat.v1.train.Saver().save(sess, os.path.join(tmp_path, "ck"))
    assert {s[:-2] for s in slots + powers} <= {n for n, _ in tf.train.list_variables(path)}


def test_h5_model_file_restores_optimizer_state(keras_graph_mode, tmp_path):
    # As tf_keras: `load_model` of an HDF5 model file gives the optimizer its saved state
    # in the session (the slots' values were only assigned by ops never run: the next
    # epoch's weights differed by 0.035).
    x = np.linspace(-1, 1, 40, dtype=np.float32).reshape(10, 4)
    y = np.linspace(0, 1, 10, dtype=np.float32).reshape(10, 1)
    model = _model(tf.keras.optimizers.legacy.Adam(0.05))
    model.fit(x, y, epochs=3, batch_size=5, verbose=0, shuffle=False)
    path = os.path.join(tmp_path, "m.h5")
    model.save(path)
    model.fit(x, y, epochs=1, batch_size=5, verbose=0, shuffle=False)
    loaded = tf.keras.models.load_model(path)
    loaded.fit(x, y, epochs=1, batch_size=5, verbose=0, shuffle=False)
    for a, b in zip(model.get_weights(), loaded.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_setting_the_learning_rate_takes_effect_in_the_session(keras_graph_mode):
    # As tf_keras (its `set_value`): the new rate is the session's (assigning only built an
    # op, so the rate stayed 0.1 and training went on at it).
    model = _model(tf.keras.optimizers.legacy.SGD(0.1))
    model.train_on_batch(_X, _Y)
    model.optimizer.learning_rate = 0.5
    assert tf.keras.backend.get_value(model.optimizer.lr) == 0.5
    model.optimizer.lr = 0.25
    assert tf.keras.backend.get_value(model.optimizer.learning_rate) == 0.25


def test_h5_model_file_of_a_tf1_optimizer_warns_and_leaves_it_out(tmp_path, caplog):
    # As tf_keras: a TF 1 optimizer cannot be saved; the file has no training configuration,
    # and saving says so.
    model = _model(tf.compat.v1.train.AdamOptimizer(0.1))
    model.fit(_X, _Y, epochs=1, batch_size=4, verbose=0)
    path = os.path.join(tmp_path, "m.h5")
    with caplog.at_level(logging.WARNING):
        model.save(path)
    assert "TensorFlow optimizers do not make it possible" in caplog.text
    assert tf.keras.models.load_model(path).optimizer is None


def _small(optimizer):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,),
                                                       kernel_initializer="ones")])
    model.compile(optimizer, "mse")
    return model


_SX = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
_SY = np.arange(8, dtype=np.float32).reshape(8, 1) / 10


def _fit(model):
    model.fit(_SX, _SY, epochs=1, batch_size=4, verbose=0, shuffle=False)


def test_legacy_optimizer_variables_are_made_at_the_first_step_under_training(
        keras_graph_mode, tmp_path):
    # As tf_keras: `fit` makes `iterations`, the float32 hyperparameters and the slots in
    # Keras's ``training`` scope (they were ``Adam/iter``, ``learning_rate``, ``Adam/...``)
    model = _small(tf.keras.optimizers.legacy.Adam(0.01))
    assert [v.name for v in tf.compat.v1.global_variables()] == ["dense/kernel:0",
                                                                 "dense/bias:0"]
    assert model.optimizer.weights == []
    _fit(model)
    slots = ["training/Adam/dense/kernel/m:0", "training/Adam/dense/bias/m:0",
             "training/Adam/dense/kernel/v:0", "training/Adam/dense/bias/v:0"]
    assert [v.name for v in tf.compat.v1.global_variables()] == [
        "dense/kernel:0", "dense/bias:0", "training/Adam/iter:0", "training/Adam/beta_1:0",
        "training/Adam/beta_2:0", "training/Adam/decay:0", "training/Adam/learning_rate:0",
        *slots]
    assert [v.name for v in model.optimizer.weights] == ["training/Adam/iter:0", *slots]
    assert model.optimizer.lr.name == "training/Adam/learning_rate:0"
    path = os.path.join(tmp_path, "ck")
    model.save_weights(path)
    assert {name for name, _ in tf.train.list_variables(path)} >= {
        f"optimizer/{name}/.ATTRIBUTES/VARIABLE_VALUE"
        for name in ("iter", "beta_1", "beta_2", "decay", "learning_rate")}


def test_legacy_optimizer_variables_read_before_fit_are_made_where_read(keras_graph_mode):
    # As tf_keras: reading the learning rate makes the hyperparameters' variables, reading
    # `iterations` makes it, in the scope open then; the slots still come with the first step
    opt = tf.keras.optimizers.legacy.Adam(0.01)
    assert opt.learning_rate.name == "learning_rate:0"
    model = _small(opt)
    assert opt.iterations.name == "iter:0"
    _fit(model)
    assert [v.name for v in tf.compat.v1.global_variables()][:7] == [
        "beta_1:0", "beta_2:0", "decay:0", "learning_rate:0", "dense/kernel:0",
        "dense/bias:0", "iter:0"]
    assert [v.name for v in opt.weights][:2] == ["iter:0", "training/Adam/dense/kernel/m:0"]
    assert tf.keras.backend.get_value(opt.iterations) == 2


def test_learning_rate_set_or_loaded_before_fit_is_the_one_fit_uses(keras_graph_mode, tmp_path):
    # Values from tf_keras 2.21: a rate set before the variables exist is the one they take,
    # and a checkpoint loaded before `fit` restores the count of steps, the rate and slots
    model = _small(tf.keras.optimizers.legacy.Adam(0.01))
    model.optimizer.learning_rate = 0.1
    _fit(model)
    assert tf.keras.backend.get_value(model.optimizer.learning_rate) == np.float32(0.1)
    model.optimizer.lr = 0.2
    _fit(model)
    np.testing.assert_allclose(model.get_weights()[0].ravel(),
                               [0.5177074, 0.51378465, 0.510343], rtol=1e-6)
    path = os.path.join(tmp_path, "ck")
    model.save_weights(path)
    fresh = _small(tf.keras.optimizers.legacy.Adam(0.01))
    fresh.load_weights(path)
    _fit(fresh)
    assert tf.keras.backend.get_value(fresh.optimizer.learning_rate) == np.float32(0.2)
    assert tf.keras.backend.get_value(fresh.optimizer.iterations) == 6
    np.testing.assert_allclose(fresh.get_weights()[0].ravel(),
                               [0.24767807, 0.24170145, 0.23646118], rtol=1e-6)


def test_tf1_optimizers_count_steps_in_scopes_made_unique(keras_graph_mode):
    # As tf_keras: each wrapper's scope is made unique in the graph (the second's counter was
    # TFOptimizer/iterations_1)
    first = _small(tf.compat.v1.train.GradientDescentOptimizer(0.1))
    second = _small(tf.compat.v1.train.MomentumOptimizer(0.1, 0.9))
    assert first.optimizer.iterations.name == "TFOptimizer/iterations:0"
    assert second.optimizer.iterations.name == "TFOptimizer_1/iterations:0"


def test_a_second_model_trains_under_training_2(keras_graph_mode):
    # As tf_keras: each model's training function takes Keras's ``training`` scope twice
    # (for its optimizer's updates, then for the function), so the next is training_2
    first = _small(tf.keras.optimizers.legacy.SGD(0.1))
    _fit(first)
    second = _small(tf.keras.optimizers.legacy.SGD(0.1))
    _fit(second)
    assert first.optimizer.iterations.name == "training/SGD/iter:0"
    assert second.optimizer.iterations.name == "training_2/SGD/iter:0"
