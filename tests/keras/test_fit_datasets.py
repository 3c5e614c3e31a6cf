"""`fit`, `evaluate` and `predict` on `tf.data` datasets; values checked against tf_keras."""
import logging

import numpy as np
import pytest

import eagerflow as tf

X = np.random.RandomState(0).rand(10, 3).astype(np.float32)
Y = (X.sum(1, keepdims=True) > 1.5).astype(np.float32)


def _model(metrics=("mae",)):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,),
                                                       kernel_initializer="ones")])
    model.compile("sgd", "mse", metrics=list(metrics))
    return model


def _dataset(batch=4):
    return tf.data.Dataset.from_tensor_slices((X, Y)).batch(batch)


def test_fit_evaluate_predict_on_a_dataset(capsys):
    model = _model()
    history = model.fit(_dataset(), epochs=2, verbose=1)
    np.testing.assert_allclose(history.history["loss"], [0.9252, 0.7363], atol=1e-4)
    np.testing.assert_allclose(history.history["mae"], [0.9141, 0.8078], atol=1e-4)
    out = capsys.readouterr().out
    # the progress bar knows the steps from the cardinality from the first batch on
    assert "1/3 [=========>" in out and "Unknown" not in out
    np.testing.assert_allclose(model.evaluate(_dataset(), verbose=0), [0.6229, 0.7361],
                               atol=1e-4)
    assert model.predict(_dataset(), verbose=0).shape == (10, 1)  # labels ignored
    assert model.predict(tf.data.Dataset.from_tensor_slices(X).batch(3), verbose=0).shape == \
        (10, 1)


def test_sample_weights_and_dict_inputs_from_the_dataset():
    model = _model()
    weighted = tf.data.Dataset.from_tensor_slices(
        (X, Y, np.arange(10, dtype=np.float32))).batch(5)
    model.fit(_dataset(), epochs=3, verbose=0)
    np.testing.assert_allclose(model.evaluate(weighted, verbose=0), [2.5188, 0.65], atol=1e-4)

    inputs = tf.keras.Input((3,), name="feat")
    dict_model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(
        inputs))
    dict_model.compile("sgd", "mse")
    dicts = tf.data.Dataset.from_tensor_slices(({"feat": X}, Y)).batch(5)
    assert dict_model.evaluate(dicts, verbose=0) == pytest.approx(0.9819, abs=1e-4)
    assert dict_model.predict(dicts.map(lambda a, b: a), verbose=0).shape == (10, 1)


def test_class_weights_weigh_each_batch():
    model = _model(metrics=())
    history = model.fit(_dataset(), class_weight={0: 1.0, 1: 3.0}, verbose=0)
    assert history.history["loss"][0] == pytest.approx(2.226, abs=1e-3)


def test_steps_per_epoch_keeps_one_iterator_across_epochs():
    # element i is a row of i's: the losses tell which elements each epoch saw
    counter = tf.data.Dataset.range(1000).map(
        lambda i: (tf.fill([1, 3], tf.cast(i, tf.float32)), tf.zeros([1, 1])))
    history = _model().fit(counter, epochs=3, steps_per_epoch=2, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [4.5, 35.2849, 7.1735], rtol=1e-4)
    # steps equal to the cardinality: a new iteration each epoch
    model = _model(metrics=())
    history = model.fit(_dataset().repeat(), epochs=2, steps_per_epoch=3, verbose=0)
    again = _model(metrics=()).fit(_dataset(), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and len(again.history["loss"]) == 2


def test_running_out_of_data_stops_training_with_tfs_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        history = _model().fit(_dataset(), epochs=2, steps_per_epoch=5, verbose=0)
    assert len(history.history["loss"]) == 1
    assert "Your input ran out of data; interrupting training" in caplog.text
    assert "(in this case, 10 batches)" in caplog.text


def test_an_infinite_dataset_needs_steps():
    with pytest.raises(ValueError, match=r"When providing an infinite dataset, you must "
                                         r"specify the number of steps to run"):
        _model().fit(_dataset().repeat(), epochs=1, verbose=0)
    model = _model()
    model.fit(_dataset(), verbose=0)
    np.testing.assert_allclose(model.evaluate(_dataset().repeat(), steps=2, verbose=0),
                               model.evaluate(_dataset().take(2), verbose=0), rtol=1e-6)


def test_unknown_cardinality_shows_unknown_then_learns_the_steps(capsys):
    unknown = _dataset().unbatch().filter(lambda a, b: True).batch(4)
    assert int(unknown.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    _model().fit(unknown, epochs=2, verbose=1)
    out = capsys.readouterr().out
    first, second = out.split("Epoch 2/2")
    assert "1/Unknown" in first and "3/3 [====" in first
    assert "1/3 [=========>" in second


def test_validation_datasets():
    model = _model()
    history = model.fit(_dataset(), validation_data=_dataset(), epochs=1, verbose=0)
    assert sorted(history.history) == ["loss", "mae", "val_loss", "val_mae"]
    history = model.fit(_dataset(), validation_data=_dataset().repeat(), validation_steps=1,
                        epochs=1, verbose=0)
    assert sorted(history.history) == ["loss", "mae", "val_loss", "val_mae"]


def test_arguments_a_dataset_does_not_take():
    model = _model()
    with pytest.raises(ValueError, match=r"`validation_split` is only supported for Tensors "
                                         r"or NumPy arrays, found following types in the "
                                         r"input: \[<class '.*_BatchDataset'>\]"):
        model.fit(_dataset(), validation_split=0.2, verbose=0)
    with pytest.raises(ValueError, match="`y` argument is not supported when using dataset "
                                         "as input."):
        model.fit(_dataset(), Y, verbose=0)
    with pytest.raises(ValueError, match="`sample_weight` argument is not supported when "
                                         "using dataset as input."):
        model.fit(_dataset(), sample_weight=np.ones(10), verbose=0)
    # as tf_keras, batch_size and shuffle are ignored for a dataset
    model.fit(_dataset(), batch_size=3, shuffle=True, verbose=0)
    assert model.predict(_dataset(), batch_size=3, verbose=0).shape == (10, 1)


def test_the_step_is_traced_once_for_the_element_spec():
    model = _model()
    model.fit(_dataset(), epochs=2, verbose=0)  # batches of 4, then 2
    traced = model.train_function.experimental_get_tracing_count()
    model.fit(_dataset(3), epochs=1, verbose=0)  # other batch sizes: the same trace
    assert model.train_function.experimental_get_tracing_count() == traced


class _Recorder(tf.keras.layers.Layer):
    """Passes its input through, keeping the first column of each eager batch it sees."""

    def __init__(self, record):
        super().__init__()
        self.record = record

    def call(self, inputs):
        if tf.executing_eagerly():
            self.record(inputs[:, 0].numpy().tolist())
        return inputs


def _recording_model(seen):
    model = tf.keras.Sequential([tf.keras.Input((1,)), _Recorder(seen.append),
                                 tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse", run_eagerly=True)
    return model


def test_fit_evaluate_and_predict_each_make_an_iterator_before_their_epochs():
    # As tf_keras: an iterator made (and never read) before the epochs draws an order of a
    # dataset that reshuffles each iteration, so the first epoch gets the second order.
    tf.keras.utils.set_random_seed(8)
    values = np.arange(6, dtype="float32")[:, None]
    dataset = tf.data.Dataset.from_tensor_slices((values, values)).shuffle(6).batch(6)
    orders = [[float(v) for v in b[0][:, 0].numpy()] for _ in range(8) for b in dataset]
    tf.keras.utils.set_random_seed(8)
    dataset = tf.data.Dataset.from_tensor_slices((values, values)).shuffle(6).batch(6)
    seen = []
    model = _recording_model(seen)
    model.fit(dataset, epochs=2, verbose=0)
    model.evaluate(dataset, verbose=0)
    model.predict(dataset, verbose=0)
    assert seen == [orders[1], orders[2], orders[4], orders[6]]


class _Batches(tf.keras.utils.Sequence):
    def __init__(self, calls):
        self.calls = calls

    def __len__(self):
        return 5

    def __getitem__(self, index):
        self.calls.append(index)
        return np.full((2, 1), index, "float32"), np.zeros((2, 1), "float32")

    def on_epoch_end(self):
        self.calls.append("end")


def test_fit_shuffles_a_sequence_with_pythons_random_each_epoch():
    import random
    tf.keras.utils.set_random_seed(8)
    expected = []
    for _ in range(2):
        order = list(range(5))
        random.shuffle(order)
        expected += [*order, "end"]
    tf.keras.utils.set_random_seed(8)
    calls = []
    model = _recording_model([])
    model.fit(_Batches(calls), epochs=2, verbose=0)
    assert calls == [0, *expected]  # (Keras reads the first batch to learn its types)
    calls.clear()
    model.fit(_Batches(calls), epochs=1, verbose=0, shuffle=False)
    model.evaluate(_Batches(calls), verbose=0)
    model.predict(_Batches(calls), verbose=0)
    assert calls == [0, 0, 1, 2, 3, 4, "end"] * 3


def test_a_generator_that_runs_out_ends_training_with_keras_warning(caplog):
    def batches():
        for i in range(3):
            yield np.full((2, 1), i, "float32"), np.ones((2, 1), "float32")
    model = _recording_model([])
    with caplog.at_level(logging.WARNING):
        history = model.fit(batches(), epochs=3, verbose=0)
    # As tf_keras: the first pass tells the epoch's size; the second finds no data, reports
    # its reset loss and stops training.
    assert history.epoch == [0, 1] and history.history["loss"][1] == 0.0
    assert history.history["loss"][0] > 0.0
    assert "Your input ran out of data; interrupting training" in caplog.text
    assert "(in this case, 9 batches)" in caplog.text


def test_steps_per_epoch_on_arrays_runs_on_across_the_passes(caplog):
    values = np.arange(10, dtype="float32")[:, None]
    seen = []
    model = _recording_model(seen)
    with caplog.at_level(logging.WARNING):
        history = model.fit(values, values, batch_size=2, steps_per_epoch=7, epochs=3,
                            shuffle=False, verbose=0)
    # As tf_keras: one stream of a pass per epoch (5 batches each, 15 in all); epoch 2
    # starts where epoch 1 stopped, and epoch 3 finds one batch left.
    assert [s[0] for s in seen] == [0, 2, 4, 6, 8, 0, 2, 4, 6, 8, 0, 2, 4, 6, 8]
    assert history.epoch == [0, 1, 2]
    assert "(in this case, 21 batches)" in caplog.text
    seen.clear()
    assert model.predict(values, batch_size=2, steps=2, verbose=0).shape == (4, 1)


def test_array_epochs_of_steps_per_epoch_go_on_through_the_data():
    # TF 2.21 (values recorded): arrays batch as a dataset repeated `epochs` times, so an
    # epoch of `steps_per_epoch` batches starts where the last one stopped
    tf.keras.utils.set_random_seed(0)
    m = tf.keras.models.Sequential([tf.keras.layers.Dense(1, input_shape=(3,),
                                                          kernel_initializer="zeros")])
    m.compile(tf.keras.optimizers.SGD(0.0), loss="mse")
    x = np.arange(300, dtype="float32").reshape(100, 3) / 300.0
    y = np.arange(100, dtype="float32")[:, None]
    losses = []

    class Record(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            losses.append((batch, round(float(logs["loss"]), 2)))

    m.fit(x, y, epochs=3, batch_size=10, steps_per_epoch=4, callbacks=[Record()], verbose=0,
          shuffle=False)
    assert losses == [(0, 28.5), (1, 123.5), (2, 285.17), (3, 513.5), (0, 1988.5), (1, 2483.5),
                      (2, 3045.17), (3, 3673.5), (0, 7148.5), (1, 8043.5), (2, 5371.83),
                      (3, 4083.5)]
    losses.clear()
    history = m.fit(x[:20], y[:20], epochs=2, batch_size=5, steps_per_epoch=6,
                    callbacks=[Record()], verbose=0, shuffle=False)
    # 8 batches in all: the second epoch runs out after 2, and training stops
    assert [b for b, _ in losses] == [0, 1, 2, 3, 4, 5, 0, 1] and history.epoch == [0, 1]


def test_data_of_unknown_size_costs_an_optimizer_iteration_in_the_first_epoch():
    # tf_keras runs its step once more to meet the end of a dataset of unknown size (in
    # the first epoch only); that step fails on its input, but the optimizer's iteration
    # count, which waits on no input, goes up all the same (and Adam's later steps see it)
    def make():
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        model.compile("adam", "mse")
        return model
    rows = (np.ones((6, 2), "float32"), np.ones((6, 1), "float32"))
    known = tf.data.Dataset.from_tensor_slices(rows).batch(2)
    unknown = tf.data.Dataset.from_generator(
        lambda: iter(zip(*rows)), output_signature=(tf.TensorSpec([2]), tf.TensorSpec([1])))
    for data, iterations in ((known, 6), (unknown.batch(2), 7)):
        model = make()
        model.fit(data, epochs=2, verbose=0)
        assert int(model.optimizer.iterations) == iterations


def test_generators_and_sequences_build_an_unbuilt_model_on_their_first_batch():
    # their batches' specs know only ranks, so a Dense layer could not be built from them
    def gen():
        for i in range(4):
            yield np.full((2, 3), i, "float32"), np.full((2, 1), i, "float32")

    def model():
        m = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer="ones"),
                                 tf.keras.layers.Dense(1, kernel_initializer="ones")])
        m.compile("sgd", "mse")
        return m

    class Batches(tf.keras.utils.Sequence):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return np.full((2, 3), i, "float32"), np.full((2, 1), i, "float32")

    m = model()
    history = m.fit(gen(), epochs=1, verbose=0).history  # the first batch is still trained on
    assert [w.shape.as_list() for w in m.weights] == [[3, 2], [2], [2, 1], [1]]
    np.testing.assert_allclose(history["loss"], [13.825632], rtol=1e-6)  # TF 2.21's
    assert model().predict(gen(), verbose=0).ravel().tolist() == [0, 0, 6, 6, 12, 12, 18, 18]
    assert model().evaluate(gen(), verbose=0) == 87.5
    assert model().fit(Batches(), verbose=0).history["loss"][0] > 0


def test_the_step_that_meets_the_end_of_the_data_begins_and_counts_an_iteration(caplog):
    # TF 2.21 (recorded): whenever the data runs out (a generator's first pass, too few
    # batches for the steps asked for), tf_keras's loop has already called the callbacks'
    # batch begin hook for the step that then finds no input, and that step's optimizer
    # iteration is counted
    rows = (np.ones((6, 2), "float32"), np.ones((6, 1), "float32"))

    class Hooks(tf.keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.calls = []

        def on_train_batch_begin(self, batch, logs=None):
            self.calls.append(("begin", batch, int(self.model.optimizer.iterations)))

        def on_train_batch_end(self, batch, logs=None):
            self.calls.append(("end", batch))

        def on_test_batch_begin(self, batch, logs=None):
            self.calls.append(("test_begin", batch))

        def on_predict_batch_begin(self, batch, logs=None):
            self.calls.append(("predict_begin", batch))

    def make():
        model = tf.keras.Sequential([tf.keras.Input((2,)),
                                     tf.keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile("adam", "mse")
        return model

    def gen():
        for _ in range(3):
            yield rows[0][:2], rows[1][:2]

    class Seq(tf.keras.utils.Sequence):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return rows[0][:2], rows[1][:2]

    def steps(*pairs):
        return [c for first, last, iteration in pairs for b in range(first, last)
                for c in (("begin", b, iteration + b - first), ("end", b))]

    known = tf.data.Dataset.from_tensor_slices(rows).batch(2)
    cases = [
        (dict(x=rows[0], y=rows[1], batch_size=2, steps_per_epoch=4), 7,
         steps((0, 4, 0), (0, 2, 4)) + [("begin", 2, 6)]),
        (dict(x=known, steps_per_epoch=2), 4, steps((0, 2, 0), (0, 1, 2)) + [("begin", 1, 3)]),
        (dict(x=gen()), 5, steps((0, 3, 0)) + [("begin", 3, 3), ("begin", 0, 4)]),
        (dict(x=gen(), steps_per_epoch=2), 4, steps((0, 2, 0), (0, 1, 2)) + [("begin", 1, 3)]),
        (dict(x=Seq(), steps_per_epoch=4), 4, steps((0, 3, 0)) + [("begin", 3, 3)]),
    ]
    with caplog.at_level(logging.WARNING):
        for kwargs, iterations, calls in cases:
            model, hooks = make(), Hooks()
            model.fit(epochs=2, verbose=0, callbacks=[hooks], shuffle=False, **kwargs)
            assert hooks.calls == calls
            assert int(model.optimizer.iterations) == iterations
    hooks = Hooks()
    model.evaluate(rows[0], rows[1], batch_size=2, steps=4, verbose=0, callbacks=[hooks])
    model.evaluate(known.filter(lambda x, y: True), verbose=0, callbacks=[hooks])
    model.predict(gen(), verbose=0, callbacks=[hooks])
    model.predict(rows[0], batch_size=4, verbose=0, callbacks=[hooks])
    assert hooks.calls == [("test_begin", b) for b in range(4)] * 2 + \
        [("predict_begin", b) for b in range(4)] + [("predict_begin", 0), ("predict_begin", 1)]
