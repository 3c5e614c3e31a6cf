"""What `fit`, `evaluate` and `predict` refuse, with tf_keras's errors: sizes and counts
that are not positive, empty data, class weights that do not cover the labels."""
import logging
import re

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
X = np.random.default_rng(0).random((10, 3)).astype(np.float32)
Y = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0])
EMPTY_X, EMPTY_Y = np.zeros((0, 3), np.float32), np.zeros((0,), np.int64)


def _model(loss="SparseCategoricalCrossentropy"):
    model = keras.Sequential([keras.layers.Dense(3, input_shape=(3,), kernel_initializer="ones")])
    model.compile("sgd", getattr(keras.losses, loss)(from_logits=True))
    return model


@pytest.mark.parametrize("call", [
    lambda m, n: m.fit(X, Y, batch_size=n, verbose=0),
    lambda m, n: m.evaluate(X, Y, batch_size=n, verbose=0),
    lambda m, n: m.predict(X, batch_size=n, verbose=0)])
@pytest.mark.parametrize("n", [0, -1])
def test_batch_size_must_be_positive(call, n):
    with pytest.raises(ValueError, match=rf"^Expected batch_size to be positive. Received is "
                                         rf"{n}\.$"):
        call(_model(), n)


@pytest.mark.parametrize("name, call", [
    ("workers", lambda m: m.fit(X, Y, workers=0, verbose=0)),
    ("max_queue_size", lambda m: m.fit(X, Y, max_queue_size=0, verbose=0)),
    ("workers", lambda m: m.evaluate(X, Y, workers=0, verbose=0)),
    ("max_queue_size", lambda m: m.predict(X, max_queue_size=0, verbose=0))])
def test_workers_and_queue_size_must_be_positive(name, call):
    with pytest.raises(ValueError, match=rf"^Expected {name} to be positive. Received is 0\.$"):
        call(_model())


@pytest.mark.parametrize("n", [0, -2])
def test_epochs_must_be_positive(n):
    model = _model()
    with pytest.raises(ValueError, match=rf"^Expected epochs to be positive. Received is {n}\.$"):
        model.fit(X, Y, epochs=n, verbose=0)
    assert model.fit(X, Y, epochs=1, initial_epoch=2, verbose=0).history == {}  # no epoch left
    with pytest.raises(ValueError, match=r"^Expected initial_epoch to be non-negative. "
                                         r"Received is -1\.$"):
        model.fit(X, Y, initial_epoch=-1, verbose=0)


def test_steps_must_be_positive():
    with pytest.raises(ValueError, match=r"^steps_per_epoch must be positive, None or -1. "
                                         r"Received 0. See `Model.fit`\.$"):
        _model().fit(X, Y, steps_per_epoch=0, verbose=0)
    with pytest.raises(ValueError, match="Received 0"):
        _model().predict(X, steps=0, verbose=0)


@pytest.mark.parametrize("call", [
    lambda m: m.fit(EMPTY_X, EMPTY_Y, verbose=0),
    lambda m: m.evaluate(EMPTY_X, EMPTY_Y, verbose=0),
    lambda m: m.predict(EMPTY_X, verbose=0),
    lambda m: m.fit(X, Y, validation_data=(EMPTY_X, EMPTY_Y), verbose=0)])
def test_empty_data_is_refused(call):
    with pytest.raises(ValueError, match=r"^Expected input data to be non-empty\.$"):
        call(_model())


def test_an_empty_batch_runs_on_batch():
    model = _model()
    assert model.train_on_batch(EMPTY_X, EMPTY_Y) == 0.0
    assert model.test_on_batch(EMPTY_X, EMPTY_Y) == 0.0
    assert model.predict_on_batch(EMPTY_X).shape == (0, 3)


def _weighted_loss(class_weight, sample_weight=None):
    model = _model()
    model.fit(X, Y, class_weight=class_weight, sample_weight=sample_weight, shuffle=False,
              batch_size=10, verbose=0)
    return model.get_weights()[0]


def test_class_weight_keys_are_the_classes_from_zero():
    message = (r"^Expected `class_weight` to be a dict with keys from 0 to one less than the "
               r"number of classes, found \{%s\}$")
    with pytest.raises(ValueError, match=message % r"0: 1.0, 1: 2.0, 2: 1.0, 5: 3.0"):
        _model().fit(X, Y, class_weight={0: 1.0, 1: 2.0, 2: 1.0, 5: 3.0}, verbose=0)
    with pytest.raises(ValueError, match=message % r"-1: 1.0, 0: 1.0, 1: 2.0, 2: 1.0"):
        _model().fit(X, Y, class_weight={-1: 1.0, 0: 1.0, 1: 2.0, 2: 1.0}, verbose=0)
    # float keys naming the classes, negative weights, and an empty dict (no weighting) pass
    np.testing.assert_array_equal(_weighted_loss({0.0: 1.0, 1.0: -2.0, 2.0: 1.0}),
                                  _weighted_loss({0: 1.0, 1: -2.0, 2: 1.0}))
    np.testing.assert_array_equal(_weighted_loss({}), _weighted_loss(None))
    np.testing.assert_array_equal(_weighted_loss({0: 3.0, 1: 3.0, 2: 3.0}),
                                  _weighted_loss(None, np.full(10, 3.0)))


@pytest.mark.parametrize("labels, loss", [(Y, "SparseCategoricalCrossentropy"),
                                          (np.eye(3)[Y], "CategoricalCrossentropy")])
def test_a_label_without_a_class_weight_fails_the_gather(labels, loss):
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^indices\[2\] = 2 is not in "
                                                             r"\[0, 2\)$"):
        _model(loss).fit(X, labels, class_weight={0: 1.0, 1: 2.0}, verbose=0)


def test_class_weight_needs_a_single_output():
    a = keras.Input((3,))
    model = keras.Model(a, [keras.layers.Dense(1)(a), keras.layers.Dense(1)(a)])
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match=r"^`class_weight` is only supported for Models with a "
                                         r"single output\.$"):
        model.fit(X, [Y, Y], class_weight={0: 1.0, 1: 1.0, 2: 1.0}, verbose=0)


@pytest.mark.parametrize("data", [
    lambda: ((X[i:i + 5], Y[i:i + 5]) for i in (0, 5)),
    lambda: ((X[i:i + 5], tf.one_hot(Y[i:i + 5], 3)) for i in (0, 5)),
])
def test_class_weight_weighs_a_generators_batches_as_arrays(data):
    # As tf_keras (which maps the weights over its batches) instead of refusing them
    class_weight = {0: 1.0, 1: 3.0, 2: 0.5}
    expected = _model().fit(X, Y, batch_size=5, shuffle=False, class_weight=class_weight,
                            epochs=2, verbose=0).history["loss"]
    one_hot = isinstance(next(data())[1], tf.Tensor)
    model = _model("CategoricalCrossentropy" if one_hot else "SparseCategoricalCrossentropy")
    batches = data()
    first = model.fit(batches, class_weight=class_weight, verbose=0).history["loss"]
    second = model.fit(data(), class_weight=class_weight, verbose=0).history["loss"]
    np.testing.assert_allclose(first + second, expected, rtol=1e-6)
    assert _model().fit(X, Y, batch_size=5, verbose=0).history["loss"] != expected


class _Steps(keras.callbacks.Callback):
    """Records the batch numbers the batch hooks get (and the outputs' rows predict gives)."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def on_train_batch_end(self, batch, logs=None):
        self.calls.append(("train", batch))

    def on_test_batch_end(self, batch, logs=None):
        self.calls.append(("test", batch))

    def on_predict_batch_end(self, batch, logs=None):
        self.calls.append(("predict", batch, logs["outputs"].shape[0]))


def test_callbacks_see_one_batch_per_execution_of_steps_per_execution_steps():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse", steps_per_execution=3)
    steps = _Steps()
    model.fit(X, X[:, :1], batch_size=2, epochs=1, callbacks=[steps], verbose=0)
    assert steps.calls == [("train", 2), ("train", 4)]
    assert int(model.optimizer.iterations.numpy()) == 5  # every batch still trains
    steps.calls.clear()
    model.evaluate(X, X[:, :1], batch_size=3, callbacks=[steps], verbose=0)
    model.predict(X, batch_size=1, callbacks=[steps], verbose=0)
    assert steps.calls == [("test", 2), ("test", 3), ("predict", 2, 3), ("predict", 5, 3),
                           ("predict", 8, 3), ("predict", 9, 1)]


def test_steps_per_execution_needs_the_number_of_batches():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse", steps_per_execution=2)
    batches = ((X[:2], X[:2, :1]) for _ in range(3))
    with pytest.raises(ValueError, match=r"^Could not infer the size of the data. With "
                                         r"`steps_per_execution > 1`, you must specify"):
        model.fit(batches, verbose=0)


def test_steps_without_batch_size_split_arrays_evenly():
    # As tf_keras: with `steps` and no batch size, the batch is ceil(samples / steps)
    sizes = []
    record = keras.callbacks.LambdaCallback(
        on_predict_batch_end=lambda b, logs: sizes.append(len(logs["outputs"])))
    assert _model().predict(X, steps=3, verbose=0, callbacks=[record]).shape == (10, 3)
    assert sizes == [4, 4, 2]
    sizes.clear()
    _model().predict(X, steps=2, batch_size=3, verbose=0, callbacks=[record])
    assert sizes == [3, 3]
    seen = []
    grab = keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: seen.append(b))
    history = _model().fit(X, Y, steps_per_epoch=2, epochs=2, verbose=0, callbacks=[grab])
    assert seen == [0, 1, 0, 1] and len(history.history["loss"]) == 2


def test_float_steps_run_their_ceiling_in_batches():
    # As tf_keras (`steps_per_epoch=len(x) / batch_size` is a common slip): 2.5 steps run 3
    seen = []
    grab = keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: seen.append(b))
    history = _model().fit(X, Y, steps_per_epoch=10 / 4, epochs=2, verbose=0, callbacks=[grab])
    assert seen == [0, 1, 2, 0, 1, 2] and history.params["steps"] == 2.5
    assert _model().predict(X, steps=2.5, verbose=0).shape == (10, 3)


@pytest.mark.parametrize("freq", ["a", (1, 2)])
def test_validation_freq_must_be_an_int_or_a_list(freq):
    with pytest.raises(ValueError, match=r"^Expected `validation_freq` to be a list or int. "
                                         rf"Received: validation_freq={re.escape(str(freq))} "
                                         rf"of the type <class '{type(freq).__name__}'>\.$"):
        _model().fit(X, Y, validation_data=(X, Y), validation_freq=freq, verbose=0)
    assert len(_model().fit(X, Y, validation_data=(X, Y), validation_freq=[2], epochs=2,
                            verbose=0).history["val_loss"]) == 1


def test_validation_data_is_taken_by_its_truth_as_in_tf_keras():
    # an array alone is not `(x, y)`: tf_keras asks its truth, which NumPy refuses
    with pytest.raises(ValueError, match=r"^The truth value of an array with more than one "
                                         r"element is ambiguous"):
        _model().fit(X, Y, validation_data=X, verbose=0)
    assert "val_loss" not in _model().fit(X, Y, validation_data=(), verbose=0).history


def test_compile_takes_tf_keras_legacy_keyword_arguments(caplog):
    model = _model()
    model.compile("sgd", "mse", cloning=True, experimental_run_tf_function=False,
                  sample_weight_mode="temporal")
    with pytest.raises(TypeError, match=r"^Invalid keyword argument\(s\) in `compile\(\)`: "
                                        r"\(\{'foo'\},\)\. Valid keyword arguments include "):
        model.compile("sgd", "mse", foo=1, sample_weight_mode=None)
    with pytest.raises(ValueError, match=r"^`distribute` argument in compile is not available "
                                         r"in TF 2\.0\. .* Received: x\.$"):
        model.compile("sgd", "mse", distribute="x")
    with pytest.raises(ValueError, match=r"^`target_tensors` argument is not supported when "
                                         r"executing eagerly\. Received: \[1\]\.$"):
        model.compile("sgd", "mse", target_tensors=[1])
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        model.compile("sgd", "mse", experimental_steps_per_execution=2)
    assert caplog.records[-1].getMessage() == (
        "The argument `steps_per_execution` is no longer experimental. Pass "
        "`steps_per_execution` instead of `experimental_steps_per_execution`.")
    assert int(model._steps_per_execution) == 2


def test_cardinality_error_lists_the_sample_weight_sizes():
    with pytest.raises(ValueError, match=r"^Data cardinality is ambiguous:\n  x sizes: 10\n"
                                         r"  y sizes: 10\n  sample_weight sizes: 4\n"):
        _model().fit(X, Y, sample_weight=np.ones(4), verbose=0)


def test_evaluate_with_sample_weights_but_no_weighted_metrics_warns(caplog):
    # As tf_keras: each evaluate (validation inside fit too) given weights, unless
    # `weighted_metrics` (even []) was compiled
    w = np.ones(10)
    weighted = tf.data.Dataset.from_tensor_slices((X, Y, w)).batch(5)
    with caplog.at_level(logging.WARNING, "eagerflow"):
        model = _model()
        model.evaluate(X, Y, sample_weight=w, verbose=0)
        model.evaluate(weighted, verbose=0)
        model.evaluate(X, Y, verbose=0)
        model.fit(X, Y, sample_weight=w, validation_data=(X, Y, w), epochs=2, verbose=0)
        model.compile("sgd", "mse", weighted_metrics=[])
        model.evaluate(X, Y, sample_weight=w, verbose=0)
    messages = [r.getMessage() for r in caplog.records  # (not TF's retracing warning, which
                if "triggered tf.function retracing" not in r.getMessage()]  # models made
    assert len(messages) == 4 and messages[0] == (  # one after another may log)
        "`evaluate()` received a value for `sample_weight`, but `weighted_metrics` were not "
        "provided.  Did you mean to pass metrics to `weighted_metrics` in `compile()`?  If this "
        "is intentional you can pass `weighted_metrics=[]` to `compile()` in order to silence "
        "this warning.")
