"""Keras training loops after ``tf.compat.v1.disable_eager_execution()``: the steps run in
the Keras session, with TF 2.21's numbers (tf_keras's v1 loop) on constant initializers."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.fixture(autouse=True)
def _graph_mode(keras_graph_mode):
    yield


def _data():
    x = np.arange(40, dtype=np.float32).reshape(20, 2) / 40.
    y = (x.sum(1, keepdims=True) > 0.5).astype(np.float32)
    return x, y


def _model():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(3, activation="relu", kernel_initializer="ones",
                              bias_initializer="zeros", input_shape=(2,)),
        tf.keras.layers.Dense(1, activation="sigmoid",
                              kernel_initializer=tf.keras.initializers.Constant(0.1))])
    model.compile(optimizer="sgd", loss="binary_crossentropy", metrics=["accuracy"])
    return model


def test_fit_evaluate_predict_match_tf():
    x, y = _data()
    model = _model()
    assert not tf.executing_eagerly()
    history = model.fit(x, y, batch_size=5, epochs=3, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [0.574578, 0.560448, 0.54744],
                               atol=2e-6)
    assert history.history["accuracy"] == pytest.approx([0.75, 0.75, 0.75])
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), [0.5379747, 0.75], rtol=1e-6)
    np.testing.assert_allclose(model.predict(x[:3], verbose=0),
                               [[0.507787], [0.51817846], [0.5285543]], rtol=1e-6)


def test_on_batch_methods_match_tf():
    x, y = _data()
    model = _model()
    model.fit(x, y, batch_size=5, epochs=3, verbose=0, shuffle=False)
    # (TF 1's loop: the batch's loss, the metrics as fit left them plus the batch, then
    # reset)
    np.testing.assert_allclose(model.train_on_batch(x[:5], y[:5]), [0.7523823, 0.6],
                               rtol=1e-6)
    np.testing.assert_allclose(model.test_on_batch(x[:5], y[:5]), [0.7489808, 0.0],
                               rtol=1e-6)
    np.testing.assert_allclose(model.predict_on_batch(x[:2]),
                               [[0.5063654], [0.51666546]], rtol=1e-6)


def test_validation_data_in_graph_mode():
    x, y = _data()
    model = _model()
    history = model.fit(x, y, batch_size=5, epochs=2, verbose=0, shuffle=False,
                        validation_data=(x[:10], y[:10]))
    assert sorted(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    assert len(history.history["val_loss"]) == 2


def _linear_model():
    inputs = tf.keras.Input((2,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="zeros")(inputs))
    model.compile(tf.keras.optimizers.legacy.Adam(0.1), "mse", metrics=["mae"])
    return model


def test_early_stopping_and_validation_split_match_tf():
    x, y = _data()
    model = _linear_model()
    history = model.fit(x, y, batch_size=4, epochs=6, verbose=0, shuffle=False,
                        validation_split=0.25,
                        callbacks=[tf.keras.callbacks.EarlyStopping(patience=1)])
    assert history.epoch == [0, 1]
    np.testing.assert_allclose(history.history["loss"], [0.47344, 0.1012], atol=1e-5)
    np.testing.assert_allclose(history.history["val_mae"], [0.32156, 0.38687], atol=1e-5)
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0), [0.14338729, 0.31345648],
                               rtol=1e-6)


def test_weights_read_and_written_through_the_session(tmp_path):
    x, y = _data()
    model = _linear_model()
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    trained = model.get_weights()
    model.save_weights(str(tmp_path / "w.h5"))
    model.set_weights([np.ones_like(w) for w in trained])
    np.testing.assert_allclose(model.predict(x[:2], verbose=0), [[1.025], [1.125]])
    model.load_weights(str(tmp_path / "w.h5"))
    np.testing.assert_allclose(model.get_weights()[0], trained[0])
    checkpoint = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "ck.h5"),
                                                    save_weights_only=True)
    model.fit(x, y, epochs=1, verbose=0, callbacks=[checkpoint])
    assert (tmp_path / "ck.h5").exists()
    backend = tf.keras.backend
    assert backend.get_value(model.optimizer.lr) == pytest.approx(0.1)
    backend.set_value(model.optimizer.lr, 0.5)
    assert backend.get_value(model.optimizer.lr) == pytest.approx(0.5)
    session = tf.compat.v1.keras.backend.get_session()
    assert session.run(model.optimizer.lr) == pytest.approx(0.5)


def test_results_are_numpy_scalars_and_evaluate_predict_quiet(capsys):
    x, y = _data()
    model = _model()
    model.fit(x, y, batch_size=5, epochs=1, verbose=0, shuffle=False)
    capsys.readouterr()
    loss, accuracy = model.evaluate(x, y)
    assert type(loss) is np.float32 and type(accuracy) is np.float32
    model.predict(x)
    assert capsys.readouterr().out == ""
    assert all(type(v) is np.float32 for v in model.test_on_batch(x, y))
    assert all(type(v) is np.float32 for v in model.train_on_batch(x, y))
    assert model.evaluate(x, y, verbose=0, return_dict=True).keys() == {"loss", "accuracy"}


def test_learning_phase_is_the_graphs_placeholder():
    backend = tf.keras.backend
    phase = backend.learning_phase()
    assert repr(phase) == '<tf.Tensor \'keras_learning_phase:0\' shape=() dtype=bool>'
    assert str(phase) == 'Tensor("keras_learning_phase:0", shape=(), dtype=bool)'
    assert backend.learning_phase() is phase
    x = tf.compat.v1.placeholder(tf.float32, (None, 2))
    out = tf.keras.layers.Dropout(0.5)(x, training=phase)
    session = tf.compat.v1.keras.backend.get_session()
    np.testing.assert_array_equal(session.run(out, {x: [[1.0, 2.0]]}), [[1.0, 2.0]])


def test_backend_function_of_model_tensors_runs_in_the_session():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones",
                                                       input_shape=(2,))])
    f = tf.keras.backend.function([model.input], [model.output])
    out = f([np.arange(6, dtype=np.float32).reshape(3, 2)])
    assert isinstance(out, list) and len(out) == 1
    np.testing.assert_array_equal(out[0], [[1.0], [5.0], [9.0]])


def test_fit_prints_tf1_sample_counts(capsys):
    import re
    x, y = _data()
    model = _model()
    model.fit(x, y, batch_size=5, epochs=2, verbose=2, shuffle=False, validation_split=0.5)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Train on 10 samples, validate on 10 samples"
    assert lines[1] == "Epoch 1/2"
    assert re.fullmatch(r"10/10 - \d+s - loss: \d\.\d{4} - accuracy: \d\.\d{4} - val_loss: "
                        r"\d\.\d{4} - val_accuracy: \d\.\d{4} - \d+m?s/epoch - \d+[mu]?s/sample",
                        lines[2]), lines[2]


def test_tf1_metric_names_after_disable_v2_behavior():
    tf.compat.v1.disable_v2_behavior()
    try:
        x, y = _data()
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid",
                                                           input_shape=(2,))])
        model.compile("sgd", "binary_crossentropy",
                      metrics=["accuracy", "crossentropy", "mae", "binary_accuracy"])
        history = model.fit(x, y, epochs=1, verbose=0, validation_split=0.5)
        assert model.metrics_names == ["loss", "acc", "ce", "mean_absolute_error",
                                       "binary_accuracy"]
        assert "val_acc" in history.history
    finally:
        tf.compat.v1.enable_v2_behavior()


def test_fit_logs_each_batch_loss_and_epoch_means_in_float64():
    x, y = _data()
    model = _model()
    seen = []

    class Record(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(dict(logs))

    history = model.fit(x, y, batch_size=6, epochs=2, verbose=0, shuffle=False,
                        callbacks=[Record()])
    # TF 1's loop: the batch's number and size, its own loss, the metrics so far
    assert list(seen[0]) == ["batch", "size", "loss", "accuracy"]
    assert [(s["batch"], s["size"]) for s in seen[:4]] == [(0, 6), (1, 6), (2, 6), (3, 2)]
    np.testing.assert_allclose([s["loss"] for s in seen[:4]],
                               [0.70932525, 0.57305616, 0.49061272, 0.43126202], rtol=1e-6)
    np.testing.assert_allclose([s["accuracy"] for s in seen[:4]],
                               [0.16666667, 0.58333331, 0.72222221, 0.75], rtol=1e-6)
    assert all(type(s["loss"]) is float for s in seen)
    # the epoch's loss: the batches' losses averaged over the samples in float64
    for epoch in range(2):
        batches = seen[4 * epoch:4 * epoch + 4]
        assert history.history["loss"][epoch] == sum(s["loss"] * s["size"]
                                                     for s in batches) / 20
    np.testing.assert_allclose(history.history["loss"], [0.5750244408845901,
                                                         0.5585691958665848], rtol=1e-7)


def test_evaluate_and_predict_show_no_progress_bar(capsys):
    x, y = _data()
    model = _model()
    model.evaluate(x, y, verbose=1)
    model.predict(x, verbose=1)
    model.fit(x, y, batch_size=10, epochs=1, verbose=1, validation_split=0.5)
    out = capsys.readouterr().out
    assert out.startswith("Train on 10 samples, validate on 10 samples\n\r10/10 [")
    assert "/step" not in out and "val_loss" in out


def test_collections_hold_the_model_weights_and_optimizers_are_legacy(tmp_path):
    x, y = _data()
    model = _model()
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    assert isinstance(model.optimizer, tf.keras.optimizers.legacy.Adam)
    weights = ["dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0"]
    # (the metrics' and the compiled model's own variables are Keras's, as in TF 1's Keras)
    assert [v.name for v in tf.compat.v1.global_variables()] == weights
    model.fit(x, y, batch_size=5, epochs=1, verbose=0)
    assert [v.name for v in tf.compat.v1.trainable_variables()] == weights
    assert [v.name for v in tf.compat.v1.global_variables()][:4] == weights
    session = tf.compat.v1.keras.backend.get_session()
    path = tf.compat.v1.train.Saver().save(session, str(tmp_path / "ck"))
    saved = [name for name, _ in tf.train.list_variables(path)]
    assert set(w[:-2] for w in weights) <= set(saved)
    assert not {"total", "count", "Variable"} & set(saved)
    model.save(str(tmp_path / "m.h5"))
    loaded = tf.keras.models.load_model(str(tmp_path / "m.h5"))
    np.testing.assert_allclose(loaded.predict(x[:3]), model.predict(x[:3]), rtol=1e-6)


def test_dataset_loops_count_steps_as_tf1(capsys):
    x, y = _data()
    model = _model()
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    seen = []

    class Record(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(dict(logs))

    capsys.readouterr()
    history = model.fit(dataset, epochs=1, verbose=2, callbacks=[Record()])
    assert capsys.readouterr().out.startswith("Train on 3 steps\n3/3 - ")
    # (TF 1's loop: each batch of a dataset counts one, its size 1; the epoch's loss is the
    # mean over the steps)
    assert [(s["batch"], s["size"]) for s in seen] == [(0, 1), (1, 1), (2, 1)]
    assert history.history["loss"][0] == sum(s["loss"] for s in seen) / 3
    loss, accuracy = model.evaluate(dataset, verbose=0)
    assert type(loss) is np.float64 and type(accuracy) is np.float32
    np.testing.assert_allclose(loss, 0.544071, rtol=1e-5)


def test_trainable_weights_are_collected_at_compile_as_in_a_tf1_gan():
    gen = tf.keras.Sequential([
        tf.keras.layers.Dense(4, input_shape=(2,), kernel_initializer="ones"),
        tf.keras.layers.Dense(2, kernel_initializer="ones")])
    disc = tf.keras.Sequential([
        tf.keras.layers.Dense(3, input_shape=(2,), kernel_initializer="ones",
                              activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid",
                              kernel_initializer=tf.keras.initializers.Constant(0.01))])
    disc.compile(tf.keras.optimizers.legacy.Adam(0.01), "binary_crossentropy",
                 metrics=["accuracy"])
    disc.trainable = False  # (after compile: disc's own steps still train it, as in TF 1)
    z = tf.keras.Input((2,))
    combined = tf.keras.Model(z, disc(gen(z)))
    combined.compile(tf.keras.optimizers.legacy.Adam(0.01), "binary_crossentropy")
    noise = np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2)
    losses = []
    for _ in range(3):
        fake = gen.predict(noise)
        losses.append(disc.train_on_batch(np.ones((4, 2), np.float32), np.ones((4, 1)))[0])
        losses.append(disc.train_on_batch(fake, np.zeros((4, 1)))[0])
        losses.append(combined.train_on_batch(noise, np.ones((4, 1))))
    np.testing.assert_allclose(losses, [0.6635971, 0.8609069, 0.5995288, 0.6449440, 0.8014146,
                                        0.6363134, 0.6646920, 0.7366455, 0.6869528], rtol=1e-5)
    np.testing.assert_allclose(disc.get_weights()[1], [0.0151809] * 3, rtol=1e-5)
    np.testing.assert_allclose(gen.get_weights()[1], [0.02701726] * 4, rtol=1e-5)


def test_add_loss_and_add_metric_of_graph_tensors_and_compiling_again():
    # (the Keras VAE example of TF 1: the loss made of TF ops on the model's tensors)
    K = tf.compat.v1.keras.backend
    x = np.linspace(0, 1, 16, dtype=np.float32).reshape(8, 2)
    inputs = tf.keras.Input((2,))
    hidden = tf.keras.layers.Dense(2, kernel_initializer="ones")(inputs)
    outputs = tf.keras.layers.Dense(2, kernel_initializer="ones")(hidden)
    vae = tf.keras.Model(inputs, outputs)
    kl = 0.1 * K.sum(K.square(hidden), axis=-1)
    vae.add_loss(K.mean(K.mean(K.square(inputs - outputs), axis=-1) + kl))
    vae.compile(optimizer=tf.keras.optimizers.legacy.SGD(0.01))
    history = vae.fit(x, None, epochs=2, batch_size=4, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [3.2069510221481323,
                                                         2.2267230302095413], rtol=1e-7)
    vae.add_metric(K.mean(kl), name="kl", aggregation="mean")
    vae.compile(optimizer=tf.keras.optimizers.legacy.SGD(0.01))  # (steps built anew)
    history = vae.fit(x, None, epochs=1, batch_size=4, verbose=0, shuffle=False)
    assert list(history.history) == ["loss", "kl"]
    np.testing.assert_allclose(history.history["kl"], [0.19279249012470245], rtol=1e-6)
    np.testing.assert_allclose(history.history["loss"], [1.6210822314023972], rtol=1e-7)


def test_metrics_names_are_known_at_compile_as_tf_1s_keras_names_them():
    model = _model()
    assert model.metrics_names == ["loss", "accuracy"]  # (before any step)
    inputs = tf.keras.Input((3,))
    a = tf.keras.layers.Dense(2, activation="softmax", name="a")(inputs)
    b = tf.keras.layers.Dense(1, name="b")(inputs)
    two = tf.keras.Model(inputs, [a, b])
    rmse = tf.keras.metrics.RootMeanSquaredError()
    two.compile("sgd", loss=["categorical_crossentropy", "mse"],
                metrics={"a": ["acc", "crossentropy"], "b": ["mae", rmse]},
                weighted_metrics=["mse"])
    want = ["loss", "a_loss", "b_loss", "a_acc", "a_crossentropy", "a_mse", "b_mae",
            "b_root_mean_squared_error", "b_mse"]
    assert two.metrics_names == want and rmse.name == "root_mean_squared_error"
    x = np.random.RandomState(0).rand(8, 3).astype("float32")
    two.fit(x, [np.eye(2)[np.arange(8) % 2], x[:, :1]], verbose=0)
    assert two.metrics_names == want  # (the metrics built by the step: the same names)

    class Subclassed(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)
    sub = Subclassed()
    sub.compile("sgd", "mse", metrics=["mae"])
    assert sub.metrics_names == ["loss"]  # (no outputs yet: the loss alone, as TF 1's)
    sub.fit(x, x[:, :1], verbose=0)
    assert sub.metrics_names == ["loss", "mae"]


def test_weighted_metrics_are_named_weighted_after_disable_v2_behavior():
    tf.compat.v1.disable_v2_behavior()
    try:
        x = np.random.RandomState(0).rand(8, 3).astype("float32")
        for weighted, want in [(["mse", "mae"], ["weighted_mean_squared_error",
                                                 "weighted_mean_absolute_error"]),
                               ([tf.keras.metrics.RootMeanSquaredError()],
                                ["weighted_root_mean_squared_error"])]:
            model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
            model.compile("sgd", "mse", metrics=["mse"], weighted_metrics=weighted)
            assert model.metrics_names == ["loss", "mean_squared_error"] + want
            model.fit(x, x[:, :1], verbose=0)
            assert model.metrics_names == ["loss", "mean_squared_error"] + want
    finally:
        tf.compat.v1.enable_v2_behavior()
        tf.compat.v1.disable_eager_execution()


def test_total_loss_is_tf_1s_loss_tensor_on_target_placeholders():
    K = tf.keras.backend
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(2, input_shape=(3,), kernel_initializer="ones",
                              kernel_regularizer=tf.keras.regularizers.l2(0.1)),
        tf.keras.layers.Dense(1, activation="sigmoid", kernel_initializer="ones")])
    model.compile("sgd", "binary_crossentropy", metrics=["acc"])
    loss = model.total_loss
    assert loss.name == "loss/AddN:0" and model.total_loss is loss  # (with the regularizer)
    assert [(t.name, t.shape.as_list()) for t in model._targets] == [
        ("dense_1_target:0", [None, None])]
    grads = K.gradients(loss, model.trainable_weights)
    f = K.function([model.inputs[0], model._targets[0]], [loss] + grads)
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 12
    out = f([x, np.array([[0], [1], [1], [0]], np.float32)])
    # (TF 2.21's values)
    np.testing.assert_allclose(out[0], 2.134368, rtol=1e-6)
    np.testing.assert_allclose(out[1], [[0.375131, 0.375131], [0.405699, 0.405699],
                                        [0.436266, 0.436266]], rtol=1e-5)
    np.testing.assert_allclose(out[4], [0.366813], rtol=1e-5)

    inputs = tf.keras.Input((3,))
    two = tf.keras.Model(inputs, [
        tf.keras.layers.Dense(1, name="o1", kernel_initializer="ones")(inputs),
        tf.keras.layers.Dense(2, name="o2", kernel_initializer="ones")(inputs)])
    two.compile("sgd", ["mse", "mae"], loss_weights=[0.5, 2.0])
    assert two.total_loss.name == "loss_1/AddN:0"
    assert [t.name for t in two._targets] == ["o1_target:0", "o2_target:0"]
    value = tf.compat.v1.keras.backend.get_session().run(two.total_loss, {
        inputs: x, two._targets[0]: [[0], [1], [1], [0]], two._targets[1]: np.ones((4, 2))})
    np.testing.assert_allclose(value, 2.359375, rtol=1e-6)


def test_total_loss_is_tf_2s_missing_attribute_outside_tf_1s_graph_mode():
    tf.compat.v1.enable_eager_execution()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    with pytest.raises(AttributeError, match="'Sequential' object has no attribute "
                                             "'total_loss'"):
        model.total_loss  # noqa: B018
    assert not hasattr(model, "total_loss")


def test_evaluate_losses_as_tf1s_test_loop_adds_them():
    # TF 2.21 (recorded): each test batch's logs hold its own loss, the test loop's end gets
    # no logs, and the loss is the batches' losses summed in float32 over the samples or
    # steps: a float64 only where the loop counted a dataset of known size itself
    x, y = _data()
    model = _model()
    seen = []

    class Record(tf.keras.callbacks.Callback):
        def on_test_batch_end(self, batch, logs=None):
            seen.append(dict(logs))

        def on_test_end(self, logs=None):
            seen.append(logs)

    loss, accuracy = model.evaluate(x, y, batch_size=8, verbose=0, callbacks=[Record()])
    assert type(loss) is np.float32 and loss == pytest.approx(0.5780829, rel=1e-6)
    assert [(s["batch"], s["size"], s["accuracy"]) for s in seen[:3]] == \
        [(0, 8, 0.375), (1, 8, 0.6875), (2, 4, 0.75)]
    np.testing.assert_allclose([s["loss"] for s in seen[:3]],
                               [0.6812544465065002, 0.5329219102859497, 0.4620617926120758],
                               rtol=1e-6)
    assert seen[3] == {}
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    for data, steps, kind, value in ((dataset, None, np.float64, 0.5587460597356161),
                                     (dataset, 2, np.float32, 0.6070882),
                                     (dataset.filter(lambda a, b: True), None, np.float32,
                                      0.55874604)):
        loss, _ = model.evaluate(data, steps=steps, verbose=0)
        assert type(loss) is kind and loss == pytest.approx(value, rel=1e-6)
    history = model.fit(x, y, batch_size=8, epochs=1, verbose=0, validation_data=dataset,
                        shuffle=False)
    assert history.history["val_loss"] == pytest.approx([0.5440712769826254], rel=1e-6)


def test_batch_hooks_get_tf1s_batch_logs_and_predict_joins_several_batches():
    # TF 2.21 (recorded): TF 1's loop gives each batch hook the batch's number and size, and
    # predict's batch end hook a list of the outputs; predict joins its batches' arrays
    x, y = _data()
    model = _model()
    seen = []

    class Record(tf.keras.callbacks.Callback):
        def on_train_batch_begin(self, batch, logs=None):
            seen.append(("train", batch, logs))

        def on_test_batch_begin(self, batch, logs=None):
            seen.append(("test", batch, logs))

        def on_predict_batch_begin(self, batch, logs=None):
            seen.append(("predict", batch, logs))

        def on_predict_batch_end(self, batch, logs=None):
            seen.append(("predict_end", batch, sorted(logs), type(logs["outputs"]),
                         [o.shape for o in logs["outputs"]]))

    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False, callbacks=[Record()])
    model.evaluate(x, y, batch_size=16, verbose=0, callbacks=[Record()])
    outputs = model.predict(x, batch_size=12, verbose=0, callbacks=[Record()])
    assert seen == [("train", 0, {"batch": 0, "size": 8}), ("train", 1, {"batch": 1, "size": 8}),
                    ("train", 2, {"batch": 2, "size": 4}), ("test", 0, {"batch": 0, "size": 16}),
                    ("test", 1, {"batch": 1, "size": 4}),
                    ("predict", 0, {"batch": 0, "size": 12}),
                    ("predict_end", 0, ["batch", "outputs", "size"], list, [(12, 1)]),
                    ("predict", 1, {"batch": 1, "size": 8}),
                    ("predict_end", 1, ["batch", "outputs", "size"], list, [(8, 1)])]
    np.testing.assert_allclose(outputs, model.predict(x, batch_size=20, verbose=0), rtol=1e-6)
    assert outputs.shape == (20, 1)


def test_tf_format_weights_save_and_load_in_the_keras_session(tmp_path):
    # as tf_keras: the values are those of the Keras session (which initializes them), so
    # save_weights and a ModelCheckpoint of TF checkpoints work before and after fit (they
    # raised FailedPreconditionError), and load_weights restores into the session at once
    x, y = _data()
    model = _model()
    model.save_weights(str(tmp_path / "before" / "ck"))
    checkpoint = tf.keras.callbacks.ModelCheckpoint(str(tmp_path / "t" / "ck"),
                                                    save_weights_only=True)
    model.fit(x, y, batch_size=5, epochs=1, verbose=0, shuffle=False, callbacks=[checkpoint])
    assert tf.train.latest_checkpoint(str(tmp_path / "t")) == str(tmp_path / "t" / "ck")
    trained = model.get_weights()
    model.fit(x, y, batch_size=5, epochs=1, verbose=0, shuffle=False)
    model.load_weights(str(tmp_path / "t" / "ck"))
    for got, want in zip(model.get_weights(), trained):
        np.testing.assert_array_equal(got, want)
    plain = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones",
                                                       input_shape=(2,))])
    plain.save_weights(str(tmp_path / "plain" / "ck"))
    plain.set_weights([np.full((2, 1), 3.0, "float32"), np.zeros(1, "float32")])
    plain.load_weights(str(tmp_path / "plain" / "ck"))
    np.testing.assert_array_equal(plain.get_weights()[0], np.ones((2, 1)))


def test_evaluate_with_sample_weights_gives_no_weighted_metrics_warning(caplog):
    # As TF 1's loop: the warning is TF 2's
    x, y = _data()
    model = _model()
    with caplog.at_level("WARNING"):
        model.evaluate(x, y, sample_weight=np.ones(20, np.float32), verbose=0)
    assert "weighted_metrics" not in caplog.text


def test_fit_on_a_dataset_not_shuffled_warns_as_tf1s_loop(caplog):
    x, y = _data()
    model = _model()
    plain = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
    shuffled = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(20, seed=1).batch(4)
    message = "Expected a shuffled dataset but input dataset `x` is not shuffled."
    with caplog.at_level("WARNING"):
        model.fit(shuffled.map(lambda a, b: (a, b)), epochs=1, verbose=0)
        model.fit(plain, epochs=1, verbose=0, shuffle=False)
    assert message not in caplog.text
    with caplog.at_level("WARNING"):
        model.fit(plain, epochs=1, verbose=0)
    assert message in caplog.text


def test_callbacks_get_tf1s_params():
    # Values from tf_keras 2.21's v1 loop (TF 2's loop gives verbose, epochs and steps)
    x, y = _data()
    model = _model()
    seen = []

    class Params(tf.keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            seen.append(dict(self.params))

        def on_test_begin(self, logs=None):
            seen.append(dict(self.params))

        def on_predict_begin(self, logs=None):
            seen.append(dict(self.params))

    model.fit(x, y, epochs=1, verbose=0, validation_split=0.25, callbacks=[Params()])
    model.evaluate(x, y, verbose=0, callbacks=[Params()])
    model.predict(x, batch_size=4, callbacks=[Params()])
    model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(4), epochs=1, verbose=0,
              shuffle=False, callbacks=[Params()])
    fit = {"batch_size": 32, "epochs": 1, "steps": None, "samples": 15, "verbose": 0,
           "do_validation": True,
           "metrics": ["loss", "accuracy", "val_loss", "val_accuracy"]}
    assert seen[:2] == [fit, fit]  # (its validation's too)
    assert seen[2] == {"batch_size": 32, "epochs": 1, "steps": None, "samples": 20,
                       "verbose": 0, "do_validation": False, "metrics": ["loss", "accuracy"]}
    assert seen[3] == {"batch_size": 4, "epochs": 1, "steps": None, "samples": 20,
                       "verbose": 0, "do_validation": False, "metrics": []}
    assert seen[4] == {"batch_size": None, "epochs": 1, "steps": 5, "samples": 5,
                       "verbose": 0, "do_validation": False, "metrics": ["loss", "accuracy"]}
    assert type(seen[4]["steps"]) is np.int64


def test_reset_states_of_a_stateful_rnn_sets_the_sessions_states():
    # As tf_keras (its batch_set_value): the assignments only built ops never run, so the
    # states carried on after reset_states and predict gave the carried-on values
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3) / 10
    model = tf.keras.Sequential([
        tf.keras.layers.LSTM(2, stateful=True, batch_input_shape=(2, 4, 3),
                             kernel_initializer="ones", recurrent_initializer="ones"),
        tf.keras.layers.Dense(1, kernel_initializer="ones")])
    first = model.predict(x, batch_size=2)
    carried = model.predict(x, batch_size=2)
    np.testing.assert_allclose(first.ravel(), [1.969195, 1.9982194], rtol=1e-6)
    assert not np.allclose(first, carried)
    model.reset_states()
    np.testing.assert_array_equal(tf.keras.backend.get_value(model.layers[0].states[0]),
                                  np.zeros((2, 2)))
    np.testing.assert_allclose(model.predict(x, batch_size=2), first, rtol=1e-6)
    model.layers[0].reset_states([np.ones((2, 2)), np.ones((2, 2))])
    np.testing.assert_array_equal(tf.keras.backend.get_value(model.layers[0].states[1]),
                                  np.ones((2, 2)))


def test_metrics_taking_a_name_twice_are_numbered_as_tf1s_loop_names_them():
    # Values from tf_keras 2.21 after disable_eager_execution alone (TF 2's behaviour on): a
    # weighted metric whose name is taken is numbered (it was weighted_accuracy), an output's
    # metrics given twice are kept once (it had a_mae, a_mae_1 and a_mae_2)
    x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
    inputs = tf.keras.Input((3,))
    model = tf.keras.Model(inputs, [tf.keras.layers.Dense(1, name="a")(inputs),
                                    tf.keras.layers.Dense(1, name="b")(inputs)])
    model.compile("sgd", "mse", metrics=["mae", "mae"], weighted_metrics=["mae", "mse"])
    names = ["loss", "a_loss", "b_loss", "a_mae", "a_mae_1", "a_mse", "b_mae", "b_mae_1",
             "b_mse"]
    assert model.metrics_names == names
    history = model.fit(x, [x[:, :1], x[:, 1:2]], verbose=0,
                        sample_weight=[np.ones(8), np.ones(8)])
    assert model.metrics_names == names and sorted(history.history) == sorted(names)
    single = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    single.compile("sgd", "binary_crossentropy", metrics=["accuracy"],
                   weighted_metrics=["accuracy", "mse"])
    assert single.metrics_names == ["loss", "accuracy", "accuracy_1", "mse"]
    single.fit(x, x[:, :1], verbose=0)
    assert single.metrics_names == ["loss", "accuracy", "accuracy_1", "mse"]


def test_batch_norm_frozen_after_its_model_was_built_trains_as_built():
    # As tf_keras's v1 loop, which runs the graph built when the layer was called (still
    # training): the batch's statistics, no updates, gamma left (it ran in inference mode, so
    # the kernel before it moved to 0.7279 where TF's stays at 0.99998)
    x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
    y = np.arange(8, dtype=np.float32).reshape(8, 1) / 10
    bn = tf.keras.layers.BatchNormalization()
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(2, input_shape=(3,), kernel_initializer="ones"), bn,
        tf.keras.layers.Dense(1, kernel_initializer="ones")])
    bn.trainable = False
    model.compile(tf.keras.optimizers.legacy.SGD(0.01), "mse")
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    np.testing.assert_allclose(model.get_weights()[0].ravel()[:2], [0.99997616] * 2,
                               rtol=1e-6)
    np.testing.assert_array_equal(tf.keras.backend.get_value(bn.moving_mean), [0, 0])
    np.testing.assert_array_equal(tf.keras.backend.get_value(bn.gamma), [1, 1])
    bn.trainable = True  # (until compiled again, its train step stays as it was)
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    np.testing.assert_array_equal(tf.keras.backend.get_value(bn.moving_mean), [0, 0])
    np.testing.assert_array_equal(tf.keras.backend.get_value(bn.gamma), [1, 1])
    model.compile(tf.keras.optimizers.legacy.SGD(0.01), "mse")
    model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
    np.testing.assert_allclose(tf.keras.backend.get_value(bn.moving_mean), [0.06883147] * 2,
                               rtol=1e-5)
    np.testing.assert_allclose(tf.keras.backend.get_value(bn.gamma), [0.9478469] * 2,
                               rtol=1e-5)


def test_frozen_base_called_again_in_a_new_model_infers_there():
    # As tf_keras: the new model's graph calls the frozen base, which infers (moving
    # statistics, none updated); values from tf_keras 2.21
    x = np.arange(24, dtype=np.float32).reshape(8, 3) / 10
    y = np.arange(8, dtype=np.float32).reshape(8, 1) / 10
    base = tf.keras.Sequential([
        tf.keras.layers.Dense(2, input_shape=(3,), kernel_initializer="ones"),
        tf.keras.layers.BatchNormalization()])
    base.trainable = False
    model = tf.keras.Sequential([base, tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(tf.keras.optimizers.legacy.SGD(0.01), "mse")
    history = model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [43.26688241958618, 0.8105999976396561],
                               rtol=1e-5)
    np.testing.assert_array_equal(tf.keras.backend.get_value(base.layers[1].moving_mean),
                                  [0, 0])
