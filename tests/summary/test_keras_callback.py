"""Keras's TensorBoard callback writes what tf_keras writes: train/ and validation/ runs,
epoch and batch scalars, weight histograms, the learning rate, the model's graph."""
import glob
import os
import shutil

import numpy as np
import pytest

import eagerflow as tf
from tests.internals import profiler_xspace as XSpace
from tests.summary.test_reference import tensor_value


def runs(logdir):
    """run -> [(step, tag, plugin or event kind)] over the run's event files, in order."""
    out = {}
    for run in sorted(os.listdir(logdir)):
        events = []
        for path in sorted(glob.glob(os.path.join(logdir, run, "events.out.tfevents.*"))):
            for record in tf.compat.v1.io.tf_record_iterator(path):
                e = tf.compat.v1.Event.FromString(record)
                if e.HasField("summary"):
                    v = e.summary.value[0]
                    events.append((e.step, v.tag, v.metadata.plugin_data.plugin_name))
                elif e.HasField("graph_def"):
                    events.append((e.step, "", "graph_def"))
        out[run] = events
    return out


def data():
    x = np.random.RandomState(0).normal(size=(10, 3)).astype("float32")
    return x, x.sum(1, keepdims=True)


def test_epochs_histograms_validation_and_graph(tmp_path):
    x, y = data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), name="d1"),
                                 tf.keras.layers.Dense(1, name="d2")])
    model.compile("sgd", "mse", metrics=["mae"])
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), histogram_freq=1)
    history = model.fit(x, y, batch_size=4, epochs=2, validation_data=(x, y),
                        callbacks=[callback], verbose=0)
    got = runs(tmp_path)
    assert sorted(got) == ["train", "validation"]
    weights = ["d1/kernel_0/histogram", "d1/bias_0/histogram", "d2/kernel_0/histogram",
               "d2/bias_0/histogram"]
    want_train = [(0, "keras", "graph_keras_model")]  # (no batch hooks ran: no graph)
    for epoch in range(2):
        want_train += [(epoch, "epoch_loss", "scalars"), (epoch, "epoch_mae", "scalars")]
        want_train += [(epoch, w, "histograms") for w in weights]
    assert got["train"] == want_train
    assert got["validation"] == [
        (3, "evaluation_loss_vs_iterations", "scalars"),
        (3, "evaluation_mae_vs_iterations", "scalars"),
        (0, "epoch_loss", "scalars"), (0, "epoch_mae", "scalars"),
        (6, "evaluation_loss_vs_iterations", "scalars"),
        (6, "evaluation_mae_vs_iterations", "scalars"),
        (1, "epoch_loss", "scalars"), (1, "epoch_mae", "scalars")]
    (path,) = glob.glob(os.path.join(tmp_path, "validation", "events.*"))
    losses = [tensor_value(e.summary.value[0].tensor) for e in map(
        tf.compat.v1.Event.FromString, tf.compat.v1.io.tf_record_iterator(path))
        if e.HasField("summary") and e.summary.value[0].tag == "epoch_loss"]
    np.testing.assert_allclose(losses, history.history["val_loss"], rtol=1e-6)


def test_batches_learning_rate_and_steps_per_second(tmp_path):
    x, y = data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,), name="d1")])
    schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, 2, 0.5)
    model.compile(tf.keras.optimizers.SGD(schedule), "mse")
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), update_freq="batch",
                                              write_steps_per_second=True, write_graph=False)
    model.fit(x, y, batch_size=4, epochs=2, callbacks=[callback], verbose=0)
    model.evaluate(x, y, callbacks=[callback], verbose=0)
    got = runs(tmp_path)
    want = []
    for epoch in range(2):
        for step in range(3 * epoch + 1, 3 * epoch + 4):
            want += [(step, "batch_steps_per_second", "scalars"), (step, "batch_loss", "scalars")]
        want += [(epoch, "epoch_loss", "scalars"), (epoch, "epoch_learning_rate", "scalars"),
                 (epoch, "epoch_steps_per_second", "scalars")]
    assert got["train"] == want
    assert got["validation"] == [(6, "evaluation_loss_vs_iterations", "scalars")]
    (path,) = glob.glob(os.path.join(tmp_path, "train", "events.*"))
    rates = [float(tensor_value(e.summary.value[0].tensor)) for e in map(
        tf.compat.v1.Event.FromString, tf.compat.v1.io.tf_record_iterator(path))
        if e.HasField("summary") and e.summary.value[0].tag == "epoch_learning_rate"]
    np.testing.assert_allclose(rates, [0.1 * 0.5 ** 1.5, 0.1 * 0.5 ** 3], rtol=1e-6)


def test_update_freq_every_n_batches_and_weight_images(tmp_path):
    x, y = data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), name="d")])
    model.compile("sgd", "mse")
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), update_freq=2, histogram_freq=2,
                                              write_images=True, write_graph=False)
    model.fit(x, y, batch_size=4, epochs=2, callbacks=[callback], verbose=0)
    # As tf_keras: the TensorBoard callback's batch hooks run only when another
    # callback's do, here the progress bar's
    assert [tag for _, tag, _ in runs(tmp_path)["train"]].count("batch_loss") == 0
    for name in os.listdir(tmp_path):
        shutil.rmtree(os.path.join(tmp_path, name))
    model.fit(x, y, batch_size=4, epochs=2, callbacks=[callback], verbose=1)
    assert runs(tmp_path)["train"] == [
        (2, "batch_loss", "scalars"), (0, "epoch_loss", "scalars"),
        (0, "d/kernel_0/histogram", "histograms"), (0, "d/kernel_0/image", "images"),
        (0, "d/bias_0/histogram", "histograms"), (0, "d/bias_0/image", "images"),
        (4, "batch_loss", "scalars"), (6, "batch_loss", "scalars"),
        (1, "epoch_loss", "scalars")]
    model.fit(x, y, batch_size=4, epochs=1, callbacks=[callback], verbose=1)
    assert runs(tmp_path)["train"][9] == (2, "batch_loss", "scalars")  # steps restart


def test_graph_written_when_batch_hooks_run(tmp_path):
    x, y = data()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    batches = tf.keras.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: None)
    model.fit(x, y, callbacks=[tf.keras.callbacks.TensorBoard(str(tmp_path)), batches],
              verbose=0)
    assert runs(tmp_path)["train"][:2] == [(0, "keras", "graph_keras_model"),
                                           (0, "", "graph_def")]


def test_unknown_arguments_are_refused():
    with pytest.raises(ValueError, match=r"Unrecognized arguments in `TensorBoard` Callback: "
                                         r"\['bogus'\]"):
        tf.keras.callbacks.TensorBoard(bogus=1)


def _embedding_model():
    model = tf.keras.Sequential([tf.keras.layers.Embedding(10, 3, name="emb", input_length=2),
                                 tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    return model


def test_embeddings_write_the_projector_config_and_checkpoints(tmp_path):
    model = _embedding_model()
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), embeddings_freq=2,
                                              embeddings_metadata={"emb": "meta.tsv"})
    model.fit(np.array([[1, 2], [3, 4]]), np.ones((2, 1)), epochs=3, callbacks=[callback],
              verbose=0)
    with open(tmp_path / "projector_config.pbtxt") as f:  # tf_keras's file, as it writes it
        assert f.read() == ('embeddings {\n  tensor_name: "layer_with_weights-0/embeddings/'
                            '.ATTRIBUTES/VARIABLE_VALUE"\n  metadata_path: "meta.tsv"\n}\n')
    names = sorted(n for n in os.listdir(tmp_path / "train") if "events" not in n)
    assert names == ["checkpoint",  # epochs 0 and 2
                     "keras_embedding.ckpt-0.data-00000-of-00001", "keras_embedding.ckpt-0.index",
                     "keras_embedding.ckpt-2.data-00000-of-00001", "keras_embedding.ckpt-2.index"]
    table = tf.train.load_variable(str(tmp_path / "train" / "keras_embedding.ckpt-2"),
                                   "layer_with_weights-0/embeddings/.ATTRIBUTES/VARIABLE_VALUE")
    np.testing.assert_array_equal(table, model.layers[0].embeddings.numpy())
    # a path for every table; a layer name that is not an Embedding is refused
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path / "b"), embeddings_freq=1,
                                              embeddings_metadata="all.tsv")
    callback.set_model(model)
    with open(tmp_path / "b" / "projector_config.pbtxt") as f:
        assert 'metadata_path: "all.tsv"' in f.read()
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), embeddings_freq=1,
                                              embeddings_metadata={"nope": "x"})
    with pytest.raises(ValueError, match=r"Unrecognized `Embedding` layer names passed to "
                                         r"`keras.callbacks.TensorBoard` `embeddings_metadata` "
                                         r"argument: dict_keys\(\['nope'\]\)"):
        callback.set_model(model)


@pytest.mark.parametrize("bad", [-1, (3, 1), (1, 2, 3), "5"])
def test_profile_batch_is_checked_as_tf_checks_it(bad):
    with pytest.raises(ValueError, match=r"profile_batch must be a non-negative integer or "
                                         r"2-tuple of positive integers\. .* Found: "):
        tf.keras.callbacks.TensorBoard(profile_batch=bad)


def test_profile_batch_writes_a_profile_and_the_batch_graph(tmp_path):
    model = _embedding_model()
    callback = tf.keras.callbacks.TensorBoard(str(tmp_path), profile_batch="1,2")
    model.fit(np.array([[1, 2], [3, 4]]), np.ones((2, 1)), epochs=1, batch_size=1,
              callbacks=[callback], verbose=0)
    assert sorted(os.listdir(tmp_path)) == ["plugins", "train"]
    (run,) = os.listdir(tmp_path / "plugins" / "profile")
    assert [f.endswith(".xplane.pb") for f in os.listdir(tmp_path / "plugins" / "profile" / run)
            ] == [True]
    with pytest.raises(tf.errors.UnavailableError):  # the callback stopped its profiler
        tf.profiler.experimental.stop()
    assert (2, "batch_2", "graph_run_metadata_graph") in runs(str(tmp_path))["train"]
    # the profiled steps are the profile's spans
    (path,) = glob.glob(str(tmp_path / "plugins" / "profile" / run / "*.xplane.pb"))
    with open(path, "rb") as f:
        (plane,) = XSpace.FromString(f.read()).planes
    steps = [{plane.stat_metadata[s.metadata_id].name: s.int64_value for s in e.stats}
             for line in plane.lines for e in line.events
             if plane.event_metadata[e.metadata_id].name == "train"]
    assert steps == [{"epoch_num": 0, "step_num": 0, "_r": 1},
                     {"epoch_num": 0, "step_num": 1, "_r": 1}]
    tf.keras.callbacks.TensorBoard(str(tmp_path), profile_batch=(0, 0))  # off, as 0 is
