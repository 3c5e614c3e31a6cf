"""Model.compile/fit/evaluate/predict and the batch methods."""
import contextlib
import io
import re
import subprocess
import sys

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.keras.utils import Progbar
from tests.keras.models import OneDense

keras = tf.keras


# An error of a compiled step, as tf_keras's: framed in user code (the step's frames), then
# the error itself
_IN_STEP = r"^in user code:\n\n(?s:.*)\n    ValueError: "


def _linear_data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)).astype("float32")
    y = x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.25
    return x, y


def _linear_model(**compile_kwargs):
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,), kernel_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", **compile_kwargs)
    return model


def test_fit_learns_and_records_history():
    x, y = _linear_data()
    model = _linear_model(metrics=["mae"])
    history = model.fit(x, y, batch_size=16, epochs=20, verbose=0)
    assert sorted(history.history) == ["loss", "mae"]
    assert history.epoch == list(range(20))
    assert history.params == {"verbose": 0, "epochs": 20, "steps": 4}
    assert history.history["loss"][-1] < 1e-3 < history.history["loss"][0]
    np.testing.assert_allclose(model.layers[0].kernel.numpy().ravel(), [1.0, -2.0, 0.5],
                               atol=0.02)
    assert model.metrics_names == ["loss", "mae"]


def test_eager_and_graph_steps_agree():
    x, y = _linear_data()
    results = []
    for run_eagerly in (False, True):
        model = _linear_model(run_eagerly=run_eagerly)
        results.append(model.fit(x, y, batch_size=16, epochs=2, verbose=0,
                                 shuffle=False).history["loss"])
    np.testing.assert_allclose(results[0], results[1], rtol=1e-5)


def test_evaluate_and_predict():
    x, y = _linear_data()
    model = _linear_model(metrics=["mae"])
    model.layers[0].set_weights([np.array([[1.0], [-2.0], [0.5]], "float32"),
                                 np.array([0.0], "float32")])
    loss, mae = model.evaluate(x, y, batch_size=10, verbose=0)
    np.testing.assert_allclose([loss, mae], [0.0625, 0.25], rtol=1e-5)
    assert model.evaluate(x, y, verbose=0, return_dict=True) == pytest.approx(
        {"loss": 0.0625, "mae": 0.25}, rel=1e-5)
    pred = model.predict(x, batch_size=7, verbose=0)
    assert isinstance(pred, np.ndarray) and pred.shape == (64, 1)
    np.testing.assert_allclose(pred, y - 0.25, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model.predict_on_batch(x[:2]), y[:2] - 0.25, atol=1e-6)


def test_sample_and_class_weights_weight_the_loss():
    x = np.zeros((4, 3), "float32")
    y = np.array([[0.0], [0.0], [2.0], [2.0]], "float32")
    model = _linear_model()
    sw = np.array([1.0, 1.0, 0.0, 0.0], "float32")
    assert model.evaluate(x, y, sample_weight=sw, verbose=0) == pytest.approx(0.0)
    assert model.evaluate(x, y, verbose=0) == pytest.approx(2.0)
    labels = np.array([0, 0, 1, 1])
    clf = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), kernel_initializer="zeros")])
    clf.compile("sgd", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    before = clf.train_on_batch(x, labels, class_weight={0: 1.0, 1: 0.0})
    np.testing.assert_allclose(before, np.log(2.0) / 2, rtol=1e-5)  # half the batch counts


def test_validation_split_uses_the_last_part():
    x, y = _linear_data(n=40)
    model = _linear_model()
    history = model.fit(x, y, epochs=1, validation_split=0.25, verbose=0, shuffle=False)
    assert sorted(history.history) == ["loss", "val_loss"]
    model2 = _linear_model()
    h2 = model2.fit(x[:30], y[:30], epochs=1, validation_data=(x[30:], y[30:]), verbose=0,
                    shuffle=False)
    np.testing.assert_allclose(history.history["val_loss"], h2.history["val_loss"], rtol=1e-6)


def test_accuracy_is_chosen_by_label_shape():
    x = np.random.default_rng(1).normal(size=(32, 4)).astype("float32")
    labels = (x[:, 0] > 0).astype("int32")
    sparse = keras.Sequential([keras.layers.Dense(2, input_shape=(4,))])
    sparse.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    sparse.fit(x, labels, verbose=0)
    assert [type(m).__name__ for m in sparse.metrics] == ["Mean", "MeanMetricWrapper"]
    assert sparse.metrics[1]._fn.__name__ == "sparse_categorical_accuracy"
    binary = keras.Sequential([keras.layers.Dense(1, "sigmoid", input_shape=(4,))])
    binary.compile("adam", "binary_crossentropy", metrics=["acc"])
    binary.fit(x, labels, verbose=0)
    assert binary.metrics_names == ["loss", "acc"]
    assert binary.metrics[1]._fn.__name__ == "binary_accuracy"


def test_generators_and_sequences():
    x, y = _linear_data(n=32)

    def batches():
        while True:
            for i in range(0, 32, 8):
                yield x[i:i + 8], y[i:i + 8]

    model = _linear_model()
    history = model.fit(batches(), steps_per_epoch=4, epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3

    class Batches(keras.utils.Sequence):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return x[i * 8:(i + 1) * 8], y[i * 8:(i + 1) * 8]

    assert model.evaluate(Batches(), verbose=0) == pytest.approx(
        model.evaluate(x, y, verbose=0), rel=1e-5)
    with pytest.raises(ValueError, match="`validation_split` is only supported for Tensors"):
        model.fit(batches(), steps_per_epoch=1, validation_split=0.5, verbose=0)


def test_a_generator_batch_of_four_parts_fails_before_any_step():
    # as tf_keras, which reads the first batch as the adapter is made: its ValueError,
    # naming the batch as the generator gave it, not a traced step's
    x, y = _linear_data(n=4)

    def batches():
        while True:
            yield [x, y, y, y]

    with pytest.raises(ValueError, match=r"^Data is expected to be in format `x`, `\(x,\)`, "
                                         r"`\(x, y\)`, or `\(x, y, sample_weight\)`, found: "
                                         r"\(array\("):
        _linear_model().fit(batches(), steps_per_epoch=2, verbose=0)


def test_models_made_in_a_loop_warn_of_retracing_as_in_tf_keras():
    # each model's steps are new functions of one code, as tf_keras's: the fifth and sixth
    # models' first calls (each a trace) warn (in a process of its own: the count is global)
    code = ("import numpy as np, eagerflow as tf\n"
            "for _ in range(7):\n"
            "    m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])\n"
            "    m.compile('sgd', 'mse')\n"
            "    m.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stderr
    found = re.findall(r"WARNING:tensorflow:(\d) out of the last (\d) calls to <function "
                       r"Model\.make_train_function\.<locals>\.train_function at 0x\w+> "
                       r"triggered tf\.function retracing\.", err)
    assert found == [("5", "5"), ("6", "6")]
    # (no explanation of one function's traces: each traced once, then once more for the
    # variables its first trace made)
    assert "was traced" not in err


def test_a_step_returning_a_tensor_not_a_dict_fails_as_in_tf_keras():
    # tf_keras makes the result a Python float before its callbacks read it as a dict
    class LossOnly(keras.Model):
        def train_step(self, data):
            x, y = data
            return self.compiled_loss(y, self(x, training=True))

        def test_step(self, data):
            x, y = data
            return self.compiled_loss(y, self(x))

    inputs = keras.Input((3,))
    model = LossOnly(inputs, keras.layers.Dense(1, kernel_initializer="ones")(inputs))
    model.compile("sgd", "mse")
    x, y = np.ones((4, 3), "float32"), np.ones((4, 1), "float32")
    with pytest.raises(AttributeError, match="^'float' object has no attribute 'items'$"):
        model.fit(x, y, verbose=0)
    assert model.evaluate(x, y, verbose=0, return_dict=True) == 4.0
    with pytest.raises(TypeError, match="^argument of type 'float' is not iterable$"):
        model.evaluate(x, y, verbose=0)


def test_a_step_returning_no_dict_reaches_the_callbacks_converted_as_in_tf_keras():
    # tf_keras converts each tensor of the result to Python; the epoch's end hooks get it
    # (a user's before `History`, which then fails on it)
    class Listed(keras.Model):
        def train_step(self, data):
            x, y = data
            return self.compiled_loss(y, self(x, training=True))

        def test_step(self, data):
            x, y = data
            return [self.compiled_loss(y, self(x)), tf.reduce_sum(x)]

    class Seen(keras.callbacks.Callback):
        epoch_logs = []

        def on_epoch_end(self, epoch, logs=None):
            self.epoch_logs.append(logs)

    inputs = keras.Input((3,))
    model = Listed(inputs, keras.layers.Dense(1, kernel_initializer="ones")(inputs))
    model.compile("sgd", "mse")
    x, y = np.ones((4, 3), "float32"), np.ones((4, 1), "float32")
    with pytest.raises(AttributeError, match="^'float' object has no attribute 'items'$"):
        model.fit(x, y, verbose=0, callbacks=[Seen()])
    assert Seen.epoch_logs == [4.0]
    assert model.evaluate(x, y, verbose=0, return_dict=True) == [4.0, 12.0]
    with pytest.raises(AttributeError, match="^'list' object has no attribute 'keys'$"):
        model.evaluate(x, y, verbose=0)


def test_custom_train_step_and_stop_training():
    class Custom(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)
            self.calls = 0

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            self.calls += 1  # counted once per trace
            return {"value": tf.constant(7.0)}

    class Stop(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                self.model.stop_training = True

    model = Custom()
    model.compile("sgd", "mse")
    x, y = _linear_data(n=16)
    history = model.fit(x, y, epochs=5, verbose=0, callbacks=[Stop()])
    assert history.history == {"value": [7.0, 7.0]}
    assert model.calls == 1


def test_fit_requires_compile():
    model = keras.Sequential([keras.layers.Dense(1)])
    with pytest.raises(RuntimeError, match="You must compile your model before training"):
        model.fit(np.zeros((2, 2)), np.zeros((2, 1)))


def test_a_misspelled_metric_fails_in_the_step_as_in_tf_keras():
    # compile takes the name as it is (tf_keras's metrics.get returns a name it does not
    # know); the step then calls it
    model = _linear_model(metrics=["acuracy"])
    x, y = _linear_data(8)
    with pytest.raises(TypeError, match=r"^in user code:(?s:.*)TypeError: 'str' object is "
                                        r"not callable"):
        model.fit(x, y, verbose=0)


def test_progress_output_verbose_2(monkeypatch):
    clock = iter(np.arange(0.0, 100.0, 0.01))
    monkeypatch.setattr(Progbar, "_time", staticmethod(lambda: next(clock)))
    x, y = _linear_data(n=32)
    model = _linear_model()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.fit(x, y, batch_size=16, epochs=2, verbose=2, shuffle=False)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Epoch 1/2"
    assert re.fullmatch(r"2/2 - 0s - loss: \d\.\d{4} - 10ms/epoch - 5ms/step", lines[1])
    assert lines[2] == "Epoch 2/2"


def test_multiple_outputs_losses_and_metrics():
    x = keras.Input((2,))
    a = keras.layers.Dense(1, name="a", kernel_initializer="zeros")(x)
    b = keras.layers.Dense(1, name="b", kernel_initializer="zeros")(x)
    model = keras.Model(x, [a, b])
    model.compile("sgd", loss={"a": "mse", "b": "mae"}, loss_weights=[1.0, 0.5],
                  metrics={"b": "mse"})
    data = np.ones((4, 2), "float32")
    logs = model.evaluate(data, [np.full((4, 1), 2.0), np.full((4, 1), 4.0)], verbose=0,
                          return_dict=True)
    assert logs == pytest.approx({"loss": 4.0 + 0.5 * 4.0, "a_loss": 4.0, "b_loss": 4.0,
                                  "b_mse": 16.0})


def test_metrics_held_by_a_subclassed_model_are_reported():
    class Tracked(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)
            self.loss_tracker = keras.metrics.Mean(name="tracked_loss")

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
            self.optimizer.apply_gradients(
                zip(tape.gradient(loss, self.trainable_variables), self.trainable_variables))
            self.loss_tracker.update_state(loss)
            return {"tracked_loss": self.loss_tracker.result()}

    model = Tracked()
    model.compile("sgd")
    x, y = _linear_data(n=16)
    history = model.fit(x, y, epochs=2, verbose=0)
    assert model.metrics_names == ["tracked_loss"]
    assert len(history.history["tracked_loss"]) == 2
    # As in tf_keras, a model's metric attributes count among its (non-trainable) weights.
    assert [w.name.split("/")[-1] for w in model.weights] == [
        "kernel:0", "bias:0", "total:0", "count:0"]
    assert len(model.trainable_weights) == 2


# -- compile: losses and metrics per output (names as tf_keras gives them) ---------------------

def test_labels_without_a_last_axis_are_not_broadcast_against_predictions():
    rng = np.random.RandomState(0)
    x = rng.rand(20, 4).astype("float32")
    y = (x.sum(1) > 2).astype("float32")  # (20,) against predictions of (20, 1)
    model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(4,))])
    model.compile("sgd", "binary_crossentropy", metrics=["accuracy"])
    predicted = (model.predict(x, verbose=0)[:, 0] > 0.5) == y
    _, accuracy = model.evaluate(x, y, batch_size=8, verbose=0)  # a partial last batch
    assert accuracy == pytest.approx(predicted.mean())


def _two_outputs(as_dict=False):
    inp = keras.Input((4,))
    hidden = keras.layers.Dense(6)(inp)
    score = keras.layers.Dense(1, name="score")(hidden)
    kind = keras.layers.Dense(3, activation="softmax", name="kind")(hidden)
    return keras.Model(inp, {"value": score, "label": kind} if as_dict else [score, kind])


def _targets(n=8):
    rng = np.random.RandomState(1)
    return rng.rand(n, 4).astype("float32"), rng.rand(n, 1), rng.randint(0, 3, n)


def test_dict_outputs_take_losses_metrics_and_targets_by_key():
    x, y_score, y_kind = _targets()
    model = _two_outputs(as_dict=True)
    model.compile("sgd", loss={"value": "mse", "label": "sparse_categorical_crossentropy"},
                  metrics={"label": ["accuracy"]})
    history = model.fit(x, {"value": y_score, "label": y_kind}, verbose=0)
    assert model.output_names == ["kind", "score"]  # by key: label, value
    assert list(history.history) == ["loss", "kind_loss", "score_loss", "kind_accuracy"]


def test_per_output_metrics_then_weighted_metrics_output_by_output():
    x, y_score, y_kind = _targets()
    model = _two_outputs()
    model.compile("sgd", ["mse", "sparse_categorical_crossentropy"], metrics=["mae"],
                  weighted_metrics=["mae"])
    model.fit(x, [y_score, y_kind], sample_weight=np.ones(8), verbose=0)
    assert model.metrics_names == ["loss", "score_loss", "kind_loss", "score_mae",
                                   "score_weighted_mae", "kind_mae", "kind_weighted_mae"]
    single = _linear_model(metrics=["mae"], weighted_metrics=["mae", "mse"])
    single.fit(*_linear_data(8), verbose=0)
    assert single.metrics_names == ["loss", "mae", "weighted_mae", "mse"]


def test_metric_objects_are_copied_for_each_output():
    x, y_score, y_kind = _targets()
    model = _two_outputs()
    error = keras.metrics.MeanAbsoluteError(name="err")
    model.compile("sgd", "mse", metrics=[error])
    model.fit(x, [y_score, y_kind], verbose=0)
    err = [m for m in model.metrics if m.name.endswith("_err")]
    assert [m.name for m in err] == ["score_err", "kind_err"]
    assert err[0] is not err[1] and error.name == "err"


def test_a_subclassed_model_names_its_outputs_by_position_or_key():
    class Heads(keras.Model):
        def __init__(self, as_dict):
            super().__init__()
            self.a, self.b, self.as_dict = keras.layers.Dense(1), keras.layers.Dense(2), as_dict

        def call(self, x):
            a, b = self.a(x), self.b(x)
            return {"first": a, "second": b} if self.as_dict else (a, b)
    x, y, _ = _targets()
    listed = Heads(False)
    listed.compile("sgd", {"output_1": "mse", "output_2": "mae"})
    assert list(listed.fit(x, (y, np.hstack([y, y])), verbose=0).history) == [
        "loss", "output_1_loss", "output_2_loss"]
    keyed = Heads(True)
    keyed.compile("sgd", "mse", metrics={"second": "mae"})
    assert list(keyed.fit(x, {"first": y, "second": np.hstack([y, y])}, verbose=0).history) == [
        "loss", "first_loss", "second_loss", "second_mae"]


def test_losses_pair_with_outputs_in_order():
    x, y_score, y_kind = _targets()
    model = _two_outputs()
    model.compile("sgd", ["mse"])  # a shorter list leaves the other output without a loss
    assert list(model.fit(x, [y_score, y_kind], verbose=0).history) == ["loss", "score_loss"]
    model.compile("sgd", {"score": "mse", "other": "mae"})
    with pytest.raises(ValueError, match=_IN_STEP + r"Found unexpected losses or metrics "
                                         r"that do not correspond to any Model output: "
                                         r"dict_keys\(\['other'\]\)\. Valid mode output names: "
                                         r"\['score', 'kind'\]\. Received struct is: "
                                         r"\{'other': 'mae'\}\.$"):
        model.fit(x, [y_score, y_kind], verbose=0)


def test_missing_targets_and_missing_losses():
    x, y = _linear_data(8)
    with pytest.raises(ValueError, match=_IN_STEP + r"Target data is missing\. Your model "
                                         r"was compiled with loss=mse, and therefore expects "
                                         r"target data"):
        _linear_model().fit(x, verbose=0)
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd")
    with pytest.raises(ValueError, match=_IN_STEP + r"No loss found\. You may have "
                                         r"forgotten"):
        model.fit(x, y, verbose=0)


def test_json_round_trip_and_build_configs():
    model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,), name="h")], name="clf")
    text = model.to_json()
    assert text.startswith('{"class_name": "Sequential", "config": {"name": "clf", "layers": '
                           '[{"module": "keras.layers", "class_name": "InputLayer"')
    assert text.endswith('"registered_name": null, "build_config": {"input_shape": [null, 3]}}'
                         ']}, "keras_version": "2.21.0", "backend": "tensorflow"}')
    restored = keras.models.model_from_json(text)
    assert restored.name == "clf" and [w.shape for w in restored.weights] == [(3, 2), (2,)]
    assert model.layers[0].get_build_config() == {"input_shape": (None, 3)}
    assert keras.layers.Dense(1).get_build_config() is None


def test_build_of_a_built_subclassed_model_runs_again_and_records_the_new_shape():
    class Tower(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    model = Tower()
    model(np.ones((3, 4), "float32"))
    assert model.get_build_config() == {"input_shape": (3, 4)}
    model.build((None, 4))  # (as Keras: the last shape given to `build` is the config)
    assert model.get_build_config() == {"input_shape": (None, 4)}
    assert len(model.weights) == 2
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 4"):
        model.build((None, 5))
    assert model.get_build_config() == {"input_shape": (None, 4)}


def test_train_step_gets_x_alone_when_fit_has_no_targets():
    seen = []

    class Probe(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def train_step(self, data):
            seen.append(type(data).__name__ if isinstance(data, (tuple, dict)) else "tensor")
            return {}

    model = Probe()
    model.compile(run_eagerly=True)  # every step runs the Python code (2 steps per fit)
    x = np.ones((8, 2), "float32")
    model.fit(x, epochs=1, batch_size=4, verbose=0)
    model.fit((x, x), epochs=1, batch_size=4, verbose=0)  # a tuple x comes as (x,)
    model.fit({"a": x}, epochs=1, batch_size=4, verbose=0)
    model.fit(x, x, epochs=1, batch_size=4, verbose=0)
    model.fit([x, x], epochs=1, batch_size=4, verbose=0)  # a list too, as a tuple
    assert seen[::2] == ["tensor", "tuple", "dict", "tuple", "tuple"]


def test_predict_takes_a_list_of_inputs():
    a, b = tf.keras.Input((2,)), tf.keras.Input((3,))
    model = tf.keras.Model([a, b], tf.keras.layers.concatenate([a, b]))
    out = model.predict([np.ones((4, 2), "float32"), np.zeros((4, 3), "float32")], verbose=0)
    assert out.shape == (4, 5)


def test_compile_without_a_loss_sets_an_empty_one():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    assert not hasattr(model, "loss")  # as in tf_keras: set by compile
    model.compile()
    assert model.loss == {} and str(model.loss) == "{}"
    model.compile(loss="mse")
    assert model.loss == "mse"


def test_steps_per_execution_and_compile_config():
    # tf_keras 2.21: steps_per_execution is None before compile, then an int64 variable
    # (outside model.weights); get_compile_config returns the compile arguments serialized,
    # and compile_from_config compiles from it.
    model = keras.Sequential([keras.layers.Dense(1)])
    model.build((None, 3))
    assert model.steps_per_execution is None and model.get_compile_config() is None
    model.compile("sgd", "mse", metrics=["mae"], steps_per_execution=2)
    assert model.steps_per_execution.dtype == tf.int64
    assert int(model.steps_per_execution.numpy()) == 2 and len(model.weights) == 2
    config = model.get_compile_config()
    assert config == {"optimizer": "sgd", "loss": "mse", "metrics": ["mae"],
                      "loss_weights": None, "weighted_metrics": None, "run_eagerly": None,
                      "steps_per_execution": 2, "jit_compile": None}
    history = model.fit(np.ones((10, 3)), np.ones((10, 1)), batch_size=2, verbose=0)
    assert sorted(history.history) == ["loss", "mae"]
    model.steps_per_execution = 3
    assert int(model.steps_per_execution.numpy()) == 3

    model.compile(keras.optimizers.SGD(0.5), keras.losses.MeanSquaredError(),
                  metrics=[keras.metrics.MeanAbsoluteError()])
    model.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)
    assert model.metrics_names == ["loss", "mean_absolute_error"]
    config = model.get_compile_config()
    assert config["optimizer"]["class_name"] == "SGD"
    assert config["optimizer"]["config"]["learning_rate"] == 0.5
    assert config["loss"]["class_name"] == "MeanSquaredError"
    assert config["steps_per_execution"] is None
    other = keras.Sequential([keras.layers.Dense(1)])
    other.compile_from_config(config)
    assert isinstance(other.optimizer, keras.optimizers.SGD)
    assert float(other.optimizer.learning_rate.numpy()) == 0.5
    assert isinstance(other.loss, keras.losses.MeanSquaredError)
    assert int(other.steps_per_execution.numpy()) == 1
    other.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)


def test_compile_from_config_with_a_custom_loss_function_not_in_scope():
    def my_loss(y, p):
        return tf.reduce_mean((y - p) ** 2)

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", my_loss)
    config = model.get_compile_config()
    other = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    # as tf_keras: TypeError saying the function cannot be found (not the ValueError of
    # `keras.losses.get`)
    with pytest.raises(TypeError, match="Could not locate function 'my_loss'. Make sure "
                                        "custom classes are decorated"):
        other.compile_from_config(config)
    with keras.utils.custom_object_scope({"my_loss": my_loss}):
        other.compile_from_config(config)
    assert other.loss is my_loss


def test_steps_per_execution_auto_starts_at_one():
    # tf_keras 2.21 takes "auto" (it tunes the value as training runs, from 1); it raised
    # TypeError converting "auto" to an int64
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile("sgd", "mse", steps_per_execution="auto")
    assert int(model.steps_per_execution.numpy()) == 1
    assert model._autotune_steps_per_execution is True
    assert model.get_compile_config()["steps_per_execution"] == "auto"
    history = model.fit(np.ones((8, 3)), np.ones((8, 1)), batch_size=2, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    model.compile("sgd", "mse")
    assert model._autotune_steps_per_execution is False


def test_metric_named_by_string_keeps_its_plain_name_after_other_instances():
    # Keras counts default names per graph: the metrics fit builds in its step are 'auc',
    # 'precision' however many AUC() were made before
    tf.keras.metrics.AUC(), tf.keras.metrics.AUC(), tf.keras.metrics.Precision()
    inputs = tf.keras.Input((4,))
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, activation="sigmoid")(inputs))
    model.compile("sgd", "binary_crossentropy", metrics=["AUC", "Precision", "AUC"])
    history = model.fit(np.ones((2, 4)), np.ones((2, 1)), verbose=0)
    assert list(history.history) == ["loss", "auc", "precision", "auc_1"]


def test_jit_compile_is_a_model_property_as_in_tf_keras():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    assert model.jit_compile is None
    model.compile("sgd", "mse", jit_compile=True)
    assert model.jit_compile is True
    model.jit_compile = False
    assert model.jit_compile is False
    model.compile("sgd", "mse", jit_compile="auto")
    assert model.jit_compile == "auto"
    model.fit(np.ones((2, 3)), np.ones((2, 1)), verbose=0)


class _Halves(keras.utils.Sequence):
    """Two batches, logging each call of `on_epoch_end`."""

    def __init__(self, events, with_y=True):
        super().__init__()
        self.events, self.with_y = events, with_y
        self.x = np.linspace(0, 1, 24, dtype="float32").reshape(8, 3)

    def __len__(self):
        return 2

    def __getitem__(self, i):
        x = self.x[4 * i:4 * i + 4]
        return (x, x.sum(1)) if self.with_y else x

    def on_epoch_end(self):
        self.events.append("sequence")


def test_sequence_on_epoch_end_runs_after_the_epoch_callbacks():
    # As Keras: after the epoch's callbacks, not after a stopped epoch; in evaluate and
    # predict before their end callbacks
    events = []

    class Log(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            events.append(f"epoch {epoch}")
            self.model.stop_training = epoch == 1

        def on_test_end(self, logs=None):
            events.append("test end")

        def on_predict_end(self, logs=None):
            events.append("predict end")

    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    model.fit(_Halves(events), epochs=4, verbose=0, callbacks=[Log()])
    assert events == ["epoch 0", "sequence", "epoch 1"]
    events.clear()
    model.evaluate(_Halves(events), verbose=0, callbacks=[Log()])
    model.predict(_Halves(events, with_y=False), verbose=0, callbacks=[Log()])
    assert events == ["sequence", "test end", "sequence", "predict end"]


def test_generator_methods_warn_and_run_fit_evaluate_predict():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    with pytest.warns(UserWarning, match=r"^`Model.fit_generator` is deprecated and will be "
                                         r"removed in a future version. Please use `Model.fit`, "
                                         r"which supports generators\.$"):
        history = model.fit_generator(_Halves([]), epochs=2, verbose=0)
    assert history.epoch == [0, 1]
    with pytest.warns(UserWarning, match="`Model.evaluate_generator` is deprecated"):
        assert isinstance(model.evaluate_generator(_Halves([])), float)
    with pytest.warns(UserWarning, match="Please use `Model.predict`, which"):
        assert model.predict_generator(_Halves([], with_y=False), steps=1).shape == (4, 1)


def test_run_eagerly_unset_follows_run_functions_eagerly():
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    m.compile("sgd", "mse")
    tf.config.run_functions_eagerly(True)
    try:
        assert m.run_eagerly is True
        m.compile("sgd", "mse", run_eagerly=False)  # an explicit False wins
        assert m.run_eagerly is False
    finally:
        tf.config.run_functions_eagerly(False)
    m.compile("sgd", "mse")
    assert m.run_eagerly is False


def test_yaml_serialization_is_removed_as_in_tf():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    with pytest.raises(RuntimeError, match=r"^Method `model.to_yaml\(\)` has been removed"):
        model.to_yaml()
    with pytest.raises(RuntimeError, match=r"^Method `model_from_yaml\(\)` has been removed"):
        tf.keras.models.model_from_yaml("a")


def test_a_model_without_call_refuses_to_run():
    # As tf_keras: Model's own call raises (a Layer's returns its inputs), so a subclass
    # that forgets `call` fails in __call__, predict and evaluate instead of passing x through
    class NoCall(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

    message = r"Unimplemented `tf.keras.Model.call\(\)`"
    x = np.ones((2, 3), "float32")
    model = NoCall()
    with pytest.raises(NotImplementedError, match="Exception encountered when calling layer "
                                                  "'no_call'") as caught:
        model(x)
    assert "Unimplemented `tf.keras.Model.call()`" in str(caught.value)
    assert "  • mask=None" in str(caught.value)
    with pytest.raises(NotImplementedError, match=message):
        model.predict(x, verbose=0)
    model.compile("sgd", "mse")
    for run in (lambda: model.evaluate(x, np.ones((2, 1)), verbose=0),
                lambda: model.fit(x, np.ones((2, 1)), verbose=0)):
        with pytest.raises(NotImplementedError, match=message):
            run()
    with pytest.raises(NotImplementedError, match=message):
        keras.Model()(x)


def _two_output_model():
    inputs = keras.Input((3,))
    return keras.Model(inputs, [
        keras.layers.Dense(1, name="a", kernel_initializer="ones")(inputs),
        keras.layers.Dense(2, name="b", kernel_initializer="ones")(inputs)])


def _two_output_data():
    x = np.linspace(0, 1, 30, dtype="float32").reshape(10, 3)
    return x, [np.linspace(0, 1, 10).reshape(10, 1), np.linspace(0, 2, 20).reshape(10, 2)]


def test_a_list_of_sample_weights_may_leave_outputs_unweighted():
    # As tf_keras: an output's None among the sample weights is weights of ones (all
    # None: no weights); the arrays' batches failed on the None
    model = _two_output_model()
    model.compile("sgd", "mse", metrics=["mae"], weighted_metrics=["mse"])
    x, y = _two_output_data()
    w = np.linspace(0, 1, 10)
    for partial, full in (([w, None], [w, np.ones(10)]), ((None, w), (np.ones(10), w)),
                          ([None, None], None)):
        logs = model.evaluate(x, y, sample_weight=partial, verbose=0, return_dict=True)
        assert logs == model.evaluate(x, y, sample_weight=full, verbose=0, return_dict=True)
    logs = model.test_on_batch(x, y, sample_weight=[w, None], return_dict=True)
    assert logs["b_mse"] == pytest.approx(
        model.evaluate(x, y, verbose=0, return_dict=True)["b_mse"])
    history = model.fit(x, y, sample_weight=[w, None], validation_split=0.2, verbose=0)
    assert sorted(history.history) == sorted(
        ["loss", "a_loss", "b_loss", "a_mae", "a_mse", "b_mae", "b_mse"] +
        ["val_" + k for k in ("loss", "a_loss", "b_loss", "a_mae", "a_mse", "b_mae", "b_mse")])


def test_lists_shorter_than_the_outputs_leave_the_last_outputs_out():
    # As tf_keras, which zips them with the outputs: sample weights or loss weights for the
    # first output only leave the second out of the loss (and, for sample weights, out of
    # its metrics); its metrics stay at zero
    model = _two_output_model()
    x, y = _two_output_data()
    w = np.linspace(0, 1, 10)
    model.compile("sgd", "mse", metrics=["mae"], weighted_metrics=["mse"])
    full = model.evaluate(x, y, sample_weight=[w, w], verbose=0, return_dict=True)
    logs = model.evaluate(x, y, sample_weight=[w], verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(full["a_loss"]) and logs["a_mse"] == full["a_mse"]
    assert logs["b_loss"] == logs["b_mae"] == logs["b_mse"] == 0.0
    model.compile("sgd", "mse", metrics=["mae"], loss_weights=[2.0])
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(2 * logs["a_loss"]) and logs["b_loss"] == 0.0
    assert logs["b_mae"] == pytest.approx(full["b_mae"])
    model.compile("sgd", "mse", loss_weights=[2.0, 1.0, 5.0])  # (the extra one is unused)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(2 * logs["a_loss"] + logs["b_loss"])


def test_a_list_of_metrics_lists_needs_one_per_output():
    model = _two_output_model()
    x, y = _two_output_data()
    for metrics in ([["mae"]], [["mae"], ["mse"], ["mae"]]):
        for argument in ("metrics", "weighted_metrics"):
            model.compile("sgd", "mse", **{argument: metrics})
            with pytest.raises(ValueError, match=_IN_STEP + f"The two structures don't have "
                                                 f"the same "
                                                 f"sequence length. Input structure has "
                                                 f"length {len(metrics)}, while shallow "
                                                 f"structure has length 2.$"):
                model.evaluate(x, y, verbose=0)
    model.compile("sgd", "mse", metrics=[["mae"], None])
    assert list(model.evaluate(x, y, verbose=0, return_dict=True)) == [
        "loss", "a_loss", "b_loss", "a_mae"]


def test_predict_joins_batches_as_keras_does():
    # As tf_keras: scalars per batch are stacked (one batch: a Python number), ragged and
    # sparse outputs stay so, and outputs whose inner sizes vary from batch to batch make a
    # RaggedTensor; NumPy's concatenate failed on all of these, or made ragged rows dense
    x = np.linspace(0, 1, 21, dtype="float32").reshape(7, 3)

    class Model(keras.Model):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        def call(self, inputs):
            return self.fn(inputs)

    def predict(fn, batch_size=4):
        return Model(fn).predict(x, batch_size=batch_size, verbose=0)

    summed = predict(tf.reduce_sum)
    assert isinstance(summed, np.ndarray) and summed.dtype == np.float32
    np.testing.assert_allclose(summed, [x[:4].sum(), x[4:].sum()], rtol=1e-6)
    assert predict(tf.reduce_sum, batch_size=8) == pytest.approx(x.sum())
    assert Model(tf.reduce_sum).predict_on_batch(x) == pytest.approx(x.sum())
    ragged = predict(lambda t: tf.RaggedTensor.from_tensor(t))
    assert isinstance(ragged, tf.RaggedTensor) and ragged.to_list() == x.tolist()
    sparse = predict(tf.sparse.from_dense)
    assert isinstance(sparse, tf.SparseTensor)
    np.testing.assert_array_equal(tf.sparse.to_dense(sparse).numpy(), x)
    varying = predict(lambda t: tf.tile(t[:, :1], [1, tf.shape(t)[0]]))
    assert isinstance(varying, tf.RaggedTensor) and varying.dtype == tf.float32
    assert varying.shape.as_list() == [7, None]
    assert varying.to_list() == [[row[0]] * (4 if i < 4 else 3) for i, row in
                                 enumerate(x.tolist())]
    inner = predict(lambda t: tf.tile(t[:, :1, None], [1, tf.shape(t)[0], 2]))
    assert inner.shape.as_list() == [7, None, 2] and inner.ragged_rank == 1
    dense = predict(lambda t: t * 2)
    assert isinstance(dense, np.ndarray) and dense.shape == (7, 3)


def test_errors_of_a_compiled_step_are_framed_in_user_code_as_tf_keras_frames_them():
    # TF 2.21 + tf_keras: a trace-time error of fit / evaluate / predict starts with "in
    # user code:", lists the step's frames, and ends with the error; a run-time error names
    # the train_function
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.compile("sgd", "mse")
    wrong, labels = np.ones((4, 5), "float32"), np.ones((4, 2), "float32")
    last = (f'ValueError: Input 0 of layer "{model.name}" is incompatible with the layer: '
            f'expected shape=(None, 3), found shape=(None, 5)')
    for run, step in ((lambda: model.fit(wrong, labels, verbose=0), "train_function"),
                      (lambda: model.evaluate(wrong, labels, verbose=0), "test_function"),
                      (lambda: model.predict(wrong, verbose=0), "predict_function")):
        with pytest.raises(ValueError) as info:
            run()
        text = str(info.value)
        assert text.startswith("in user code:\n\n")
        assert re.search(rf", in {step}(  \*)?\n", text), text
        assert text.rstrip().splitlines()[-1].strip() == last

    class Checked(tf.keras.layers.Layer):
        def call(self, x):
            return tf.reshape(x, [-1, 7])

    checked = tf.keras.Sequential([tf.keras.Input((3,)), Checked()])
    checked.compile("sgd", "mse")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"\[Op:__inference_train_function_\d+\]$"):
        checked.fit(np.ones((4, 3), "float32"), np.ones((4, 7), "float32"), verbose=0)


def test_a_models_own_train_step_runs_as_python_as_in_tf_keras():
    class Branching(OneDense):
        def train_step(self, data):
            x, y = data
            loss = tf.reduce_mean((self(x) - y) ** 2)
            if loss > 100.0:  # (not converted: a tensor's truth fails in the traced step)
                loss = loss * 0.0
            return {"loss": loss}

    model = Branching()
    model.compile("sgd")
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as info:
        model.fit(np.ones((4, 3), "float32"), np.ones((4, 1), "float32"), verbose=0)
    assert str(info.value).startswith("in user code:")
    assert "if loss > 100.0:" in str(info.value)


def _frozen_base_model():
    base = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, kernel_initializer="ones"),
                             keras.layers.BatchNormalization()])
    head = keras.layers.Dense(1, kernel_initializer="ones")
    return base, keras.Sequential([base, head])


_X = np.array([[1.0, 2.0], [3.0, 5.0], [0.0, 1.0]], "float32")
_Y = np.array([[1.0], [0.0], [2.0]], "float32")


def test_fit_trains_the_layers_trainable_at_compile():
    # As tf_keras: a `trainable` changed after `compile` takes effect at the next `compile`;
    # `fit` and `train_on_batch` restore the changed values when they return.
    base, model = _frozen_base_model()
    base.trainable = False
    model.compile(keras.optimizers.SGD(0.01), "mse")
    base.trainable = True
    model.fit(_X, _Y, verbose=0)
    model.train_on_batch(_X, _Y)
    assert base.trainable and base.layers[1].trainable
    np.testing.assert_array_equal(base.layers[0].kernel.numpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(base.layers[1].moving_mean.numpy(), [0.0, 0.0])
    np.testing.assert_allclose(model.layers[1].bias.numpy(), [-0.1247395], atol=1e-6)
    model.compile(keras.optimizers.SGD(0.01), "mse")
    model.fit(_X, _Y, verbose=0)
    np.testing.assert_allclose(base.layers[1].moving_mean.numpy(), [0.04, 0.04], atol=1e-6)


def test_fit_after_freezing_without_compile_still_trains():
    _, model = _frozen_base_model()
    model.compile(keras.optimizers.SGD(0.01), "mse")
    model.trainable = False
    model.fit(_X, _Y, verbose=0)
    assert not model.trainable and not model.layers[0].layers[0].trainable
    np.testing.assert_allclose(model.layers[1].bias.numpy(), [0.02], atol=1e-6)



def test_nested_outputs_take_targets_and_losses_nested_alike():
    # tf_keras 2.21 (seed 1): a subclassed model returning (a, [b, {"k": c}]) takes targets
    # and losses nested so, one per output, named by the outputs' paths
    class Nested(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.d(x), [self.d(x) * 2, {"k": x}]

    tf.keras.utils.set_random_seed(1)
    model = Nested()
    x = np.ones((4, 3), "float32")
    y = (np.ones((4, 2)), [np.ones((4, 2)), {"k": np.ones((4, 3))}])
    model.compile("sgd", "mse")
    history = model.fit(x, y, verbose=0).history
    np.testing.assert_allclose(
        [history[k][0] for k in ("loss", "output_1_loss", "output_2_1_loss",
                                 "output_2_2_k_loss")],
        [6.27963, 2.25477, 4.02487, 0.0], atol=1e-4)
    model.compile("sgd", ["mse", ["mae", {"k": "mse"}]])
    history = model.fit(x, y, verbose=0).history
    np.testing.assert_allclose(
        [history[k][0] for k in ("loss", "output_1_loss", "output_2_1_loss",
                                 "output_2_2_k_loss")],
        [3.19894, 1.64126, 1.55768, 0.0], atol=1e-4)


def test_weights_of_a_new_rank_weigh_each_sample_in_a_step_traced_for_any_rank():
    # Weights of rank 2, then of rank 1, relax the step's trace to weights of unknown rank:
    # as Keras, the (batch,) weights still get their last axis at run time, and weigh each
    # sample's losses instead of broadcasting along the time steps.
    rng = np.random.default_rng(0)
    x = rng.random((4, 4, 2), dtype="float32")
    y = rng.random((4, 4, 1), dtype="float32")
    per_step = rng.random((4, 4), dtype="float32")
    per_sample = np.array([1.0, 0.0, 0.0, 0.0], "float32")
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(4, 2), kernel_initializer="ones")])
    model.compile("sgd", "mse", weighted_metrics=["mae"])
    model.evaluate(x, y, sample_weight=per_step, verbose=0)
    loss, mae = model.evaluate(x, y, sample_weight=per_sample, verbose=0)
    errors = model(x)[..., 0] - y[..., 0]
    assert loss == pytest.approx(float(np.mean(errors[0] ** 2) / 4), rel=1e-6)
    assert mae == pytest.approx(float(np.mean(np.abs(errors[0]))), rel=1e-6)


def test_steps_get_lists_of_array_data_as_tuples_as_in_tf_keras():
    seen = []

    class Recording(keras.Model):
        def train_step(self, data):
            seen.append(("train", type(data[0]), type(data[1])))
            return super().train_step(data)

        def test_step(self, data):
            seen.append(("test", type(data[0]), type(data[1])))
            return super().test_step(data)

    a, b = keras.Input((3,)), keras.Input((2,))
    joined = keras.layers.Concatenate()([a, b])
    model = Recording([a, b], [keras.layers.Dense(1)(joined), keras.layers.Dense(1)(joined)])
    model.compile("sgd", "mse")
    xs = [np.ones((4, 3), "float32"), np.ones((4, 2), "float32")]
    ys = [np.ones((4, 1), "float32"), np.ones((4, 1), "float32")]
    model.fit(xs, ys, verbose=0)
    model.evaluate(xs, ys, verbose=0)
    assert set(seen) == {("train", tuple, tuple), ("test", tuple, tuple)}
    seen.clear()
    model.fit(iter([(xs, ys)]), verbose=0)  # (a generator's lists too)
    assert set(seen) == {("train", tuple, tuple)}
