import glob
import os
import tempfile

import numpy as np
import tensorflow as tf

os.chdir(tempfile.mkdtemp())
rng = np.random.RandomState(1)
x = rng.rand(40, 3).astype("float32")
y = x @ np.array([[1.0], [2.0], [-1.0]], "float32")
tf.keras.utils.set_random_seed(1)
model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu", input_shape=(3,)),
                             tf.keras.layers.Dense(1)])
model.compile("sgd", "mse", metrics=["mae"])


def show(logdir):
    """Each run's files (a new one for each fit or evaluate, listed by their contents): the
    steps and tags of their summaries, and whether a graph is there."""
    files = []
    for path in glob.glob(logdir + "/**/*tfevents*", recursive=True):
        tags, graphs = [], 0
        for event in tf.compat.v1.train.summary_iterator(path):
            graphs += event.HasField("graph_def")
            tags += [(event.step, value.tag) for value in event.summary.value]
        files.append((os.path.relpath(os.path.dirname(path), logdir), graphs, tags))
    for run, graphs, tags in sorted(files):
        print(run, "graphs:", graphs)
        print("  ", tags)


class BatchHooks(tf.keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        pass


# The batch scalars and the graph are written only where the batch hooks run.
runs = [("epoch", [], {}), ("batch", [], {}), ("batch", [BatchHooks()], {}),
        (3, [BatchHooks()], {}), ("epoch", [], {"histogram_freq": 1}),
        ("batch", [], {"write_steps_per_second": False, "write_graph": False})]
for i, (freq, extra, kwargs) in enumerate(runs):
    board = tf.keras.callbacks.TensorBoard(log_dir=f"logs{i}", update_freq=freq, **kwargs)
    model.fit(x, y, epochs=2, batch_size=10, validation_split=0.25 if i == 4 else 0.0,
              verbose=0, callbacks=[board] + extra)
    if i == 3:  # a second fit counts its batches from 1 again
        model.fit(x, y, epochs=1, batch_size=10, verbose=0, callbacks=[board] + extra)
    model.evaluate(x, y, verbose=0, callbacks=[board])
    print("run", i, freq, sorted(os.listdir(f"logs{i}")))
    show(f"logs{i}")
