"""`fit`, `evaluate` and `predict` as tf_keras runs them: the batches a step sees, what the
loops print and what the callbacks are given."""
import re

import numpy as np
import pytest

import eagerflow as tf
from tests.keras.models import OneDense

keras = tf.keras


class _Recording(keras.Model):
    """A model whose training steps note the batches they get."""

    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1, kernel_initializer="zeros")
        self.seen = []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        self.seen.append((x.numpy()[:, 0].tolist(), y.numpy()[:, 0].tolist()))
        return super().train_step(data)


def test_shuffle_batch_keeps_each_batch_sized_chunk_together():
    # As tf_keras: shuffle="batch" shuffles the order of the batch-sized chunks of the data
    # and the rows within each; the partial chunk stays one batch wherever it comes.
    values = np.arange(10, dtype="float32").reshape(10, 1)
    model = _Recording()
    model.compile("sgd", "mse", run_eagerly=True)
    model.fit(values, values, batch_size=4, epochs=4, verbose=0, shuffle="batch")
    assert len(model.seen) == 12
    for x, y in model.seen:
        assert x == y  # (rows stay with their targets)
        assert sorted(x) in ([0, 1, 2, 3], [4, 5, 6, 7], [8, 9])
    for epoch in range(4):
        chunks = sorted(sorted(x) for x, _ in model.seen[epoch * 3:epoch * 3 + 3])
        assert chunks == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


@pytest.mark.parametrize("save_freq", [0, None, False])
def test_backup_and_restore_needs_save_freq_or_save_before_preemption(tmp_path, save_freq):
    with pytest.raises(ValueError, match=r"^Either `save_freq` or `save_before_preemption` "
                                         r"must be set\.$"):
        keras.callbacks.BackupAndRestore(str(tmp_path), save_freq=save_freq)


def test_backup_and_restore_saving_only_before_preemption_trains(tmp_path):
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    # (as TF: nothing is backed up while no preemption comes)
    backup = keras.callbacks.BackupAndRestore(str(tmp_path / "b"), save_freq=False,
                                              save_before_preemption=True,
                                              delete_checkpoint=False)
    history = model.fit(np.ones((8, 3)), np.ones((8, 1)), batch_size=2, epochs=2, verbose=0,
                        callbacks=[backup])
    assert history.epoch == [0, 1]
    assert not (tmp_path / "b").exists()


class _DictResult(keras.metrics.Metric):
    """A metric whose result is a dict of two values."""

    def __init__(self, name="pair", **kwargs):
        super().__init__(name=name, **kwargs)
        self.total = self.add_weight("total", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.total.assign_add(tf.reduce_sum(y_pred))

    def result(self):
        return {"pair_b": self.total * 2, "pair_a": self.total}


def test_evaluate_lists_the_results_of_a_metric_returning_a_dict():
    # As tf_keras: the values named in metrics_names, then the others by name.
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,),
                                                 kernel_initializer="ones")])
    model.compile("sgd", "mse", metrics=[_DictResult()])
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    assert model.evaluate(x, y, verbose=0) == [4.0, 8.0, 16.0]
    assert model.test_on_batch(x, y) == [4.0, 8.0, 16.0]
    assert model.evaluate(x, y, verbose=0, return_dict=True) == {
        "loss": 4.0, "pair_b": 16.0, "pair_a": 8.0}


class _Unordered(OneDense):
    def train_step(self, data):
        return {"b": tf.constant(1.0), "a": tf.constant(2.0), "loss": tf.constant(3.0)}

    test_step = train_step


def test_on_batch_results_not_among_the_metrics_come_by_name():
    model = _Unordered()
    model.compile("sgd", "mse")
    x = np.ones((4, 2), "float32")
    assert model.train_on_batch(x, x[:, :1]) == [2.0, 1.0, 3.0]
    assert model.test_on_batch(x, x[:, :1]) == [2.0, 1.0, 3.0]
    assert model.evaluate(x, x[:, :1], verbose=0) == [2.0, 1.0, 3.0]


def _small_model(seed):
    model = keras.Sequential([keras.layers.Dense(
        2, input_shape=(3,), kernel_initializer=keras.initializers.GlorotUniform(seed=seed))])
    model.compile("sgd", "mse")
    return model


def test_model_checkpoint_loads_the_latest_weights_on_restart(tmp_path):
    x, y = np.ones((4, 3), "float32"), np.zeros((4, 2), "float32")
    pattern = str(tmp_path / "w.{epoch:02d}.h5")
    trained = _small_model(1)
    trained.fit(x, y, epochs=2, verbose=0, callbacks=[keras.callbacks.ModelCheckpoint(
        pattern, save_weights_only=True, load_weights_on_restart=True)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.01.h5", "w.02.h5"]
    restarted = _small_model(2)
    at_start = []
    restarted.fit(x, y, epochs=1, verbose=0, callbacks=[
        keras.callbacks.ModelCheckpoint(pattern, save_weights_only=True,
                                        load_weights_on_restart=True),
        keras.callbacks.LambdaCallback(
            on_train_begin=lambda logs: at_start.append(restarted.get_weights()))])
    for got, want in zip(at_start[0], trained.get_weights()):
        np.testing.assert_array_equal(got, want)


def test_model_checkpoint_checks_its_options(tmp_path):
    with pytest.raises(TypeError, match=r"^If save_weights_only is True, then `options` must "
                                        r"be either None or a tf.train.CheckpointOptions\."):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "w"), save_weights_only=True,
                                        options=tf.saved_model.SaveOptions())
    with pytest.raises(TypeError, match=r"^If save_weights_only is False, then `options` must "
                                        r"be either None or a tf.saved_model.SaveOptions\."):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m"),
                                        options=tf.train.CheckpointOptions())
    with pytest.raises(ValueError, match=r"^The native TF-Keras format does not support the "
                                         r"`options` argument\."):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"),
                                        options=tf.saved_model.SaveOptions())
    keras.callbacks.ModelCheckpoint(str(tmp_path / "w"), save_weights_only=True,
                                    options=tf.train.CheckpointOptions())


class _Rows(keras.utils.Sequence):
    """Three batches of rows 0..9 (the last one short), counting its epochs."""

    def __init__(self):
        super().__init__()
        self.ends = 0

    def __len__(self):
        return 3

    def __getitem__(self, i):
        x = np.arange(i * 4, min(10, i * 4 + 4), dtype="float32")[:, None]
        return x, x

    def on_epoch_end(self):
        self.ends += 1


def test_a_sequence_shorter_than_steps_per_epoch_ends_training(caplog):
    # As tf_keras: the Sequence runs out in the first epoch, which ends there, with TF's
    # warning, and training stops.
    model = _Recording()
    model.compile("sgd", "mse", run_eagerly=True)
    rows = _Rows()
    with caplog.at_level("WARNING"):
        history = model.fit(rows, epochs=2, steps_per_epoch=5, verbose=0, shuffle=False)
    assert history.epoch == [0]
    assert len(model.seen) == 3
    assert rows.ends == 1
    assert "Your input ran out of data; interrupting training. Make sure that your dataset " \
           "or generator can generate at least `steps_per_epoch * epochs` batches (in this " \
           "case, 10 batches)." in caplog.text


@pytest.mark.parametrize("make, name", [
    (_Rows, "`keras.utils.Sequence`"),
    (lambda: iter([(np.ones((2, 1)), np.ones((2, 1)))]), "python generator"),
    (lambda: tf.data.Dataset.from_tensors((np.ones((2, 1)), np.ones((2, 1)))), "dataset")])
def test_targets_beside_batched_data_are_refused_naming_the_data(make, name):
    model = _Recording()
    model.compile("sgd", "mse")
    with pytest.raises(ValueError, match=rf"^`y` argument is not supported when using "
                                         rf"{re.escape(name)} as input\.$"):
        model.fit(make(), np.ones(2), verbose=0)
    with pytest.raises(ValueError, match=rf"^`sample_weight` argument is not supported when "
                                         rf"using {re.escape(name)} as input\.$"):
        model.fit(make(), sample_weight=np.ones(2), verbose=0)


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_binary_crossentropy_of_a_softmax_output_takes_its_logits_in_a_compiled_step(
        run_eagerly):
    # As tf_keras, in its traced steps as eagerly: Keras's softmax keeps its logits, which a
    # binary crossentropy then takes as a sigmoid's (TF's value: 3.050053596496582).
    model = keras.Sequential([keras.layers.Dense(
        3, activation="softmax", input_shape=(1,),
        kernel_initializer=keras.initializers.Constant([[1.0, -1.0, 0.5]]))])
    model.compile("sgd", "categorical_crossentropy", run_eagerly=run_eagerly,
                  metrics=["binary_crossentropy"])
    x = np.array([[30.0], [-30.0], [20.0], [1.0]], "float32")
    y = np.eye(3)[[0, 1, 2, 0]].astype("float32")
    result = model.evaluate(x, y, verbose=0, return_dict=True)
    np.testing.assert_allclose(result["binary_crossentropy"], 3.050053596496582, rtol=1e-6)
    np.testing.assert_allclose(result["loss"], 2.6387507915496826, rtol=1e-6)


class _Validations(keras.callbacks.Callback):
    """Notes the metrics each validation ended with and each epoch's log keys."""

    def __init__(self):
        super().__init__()
        self.tests, self.epochs = [], []

    def on_test_end(self, logs=None):
        self.tests.append(sorted(logs or {}))

    def on_epoch_end(self, epoch, logs=None):
        self.epochs.append(sorted(logs))


@pytest.mark.parametrize("validation", [
    lambda x, y: (x, y),  # arrays: 2 batches of 2
    lambda x, y: tf.data.Dataset.from_tensor_slices((x, y)).batch(2),
])
def test_validation_data_that_ran_out_is_not_read_again_in_that_fit(validation, caplog):
    # As tf_keras (checked against TF 2.21): fit keeps one handler of the validation data;
    # once it ran out before `validation_steps`, with the warning, the later epochs'
    # validations run no step and add no `val_` metric
    x, y = np.ones((4, 3), np.float32), np.ones((4, 1), np.float32)
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    seen = _Validations()
    with caplog.at_level("WARNING"):
        history = model.fit(x, y, batch_size=2, epochs=3, validation_data=validation(x, y),
                            validation_steps=3, verbose=0, callbacks=[seen])
    assert seen.tests == [["loss"], [], []]
    assert seen.epochs == [["loss", "val_loss"], ["loss"], ["loss"]]
    assert {k: len(v) for k, v in history.history.items()} == {"loss": 3, "val_loss": 1}
    warnings = [r.getMessage() for r in caplog.records if "ran out of data" in r.getMessage()]
    assert len(warnings) == 1 and "(in this case, 3 batches)" in warnings[0]
    # a later fit reads the data afresh, and evaluate on its own too
    seen = _Validations()
    model.fit(x, y, batch_size=2, epochs=1, validation_data=validation(x, y),
              validation_steps=2, verbose=0, callbacks=[seen])
    assert seen.tests == [["loss"]]


def test_validation_generator_learns_its_steps_then_runs_out(caplog):
    # As tf_keras: a generator without `validation_steps` gives its count of batches in the
    # first validation; the next finds it spent (warning, no `val_loss`), the third reads
    # nothing
    def batches():
        for _ in range(3):
            yield np.ones((2, 3), np.float32), np.ones((2, 1), np.float32)

    def endless():
        while True:
            yield np.ones((2, 3), np.float32), np.ones((2, 1), np.float32)

    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    seen = _Validations()
    with caplog.at_level("WARNING"):
        model.fit(endless(), steps_per_epoch=2, epochs=3, validation_data=batches(),
                  verbose=0, callbacks=[seen])
    assert seen.tests == [["loss"], [], []]
    assert seen.epochs == [["loss", "val_loss"], ["loss"], ["loss"]]
    warnings = [r.getMessage() for r in caplog.records if "ran out of data" in r.getMessage()]
    assert len(warnings) == 1 and "(in this case, 3 batches)" in warnings[0]
