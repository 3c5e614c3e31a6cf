import os
import tempfile

import numpy as np
import tensorflow as tf

os.chdir(tempfile.mkdtemp())  # checkpoints are written (and printed) with relative paths
tf.keras.utils.set_random_seed(1)
rng = np.random.RandomState(1)
x = rng.rand(40, 3).astype("float32")
y = x @ np.array([[1.0], [2.0], [-1.0]], "float32")


def make():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu", input_shape=(3,)),
                                 tf.keras.layers.Dense(1)])
    model.compile(tf.keras.optimizers.SGD(0.05), "mse", metrics=["mae"])
    return model


model = make()
stop = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=1, min_delta=0.5,
                                        verbose=1, restore_best_weights=True)
plateau = tf.keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=1,
                                               min_delta=0.3, verbose=1)
history = model.fit(x, y, epochs=10, batch_size=10, validation_split=0.25,
                    callbacks=[stop, plateau], verbose=0)
print(len(history.epoch), sorted(history.history), stop.stopped_epoch, stop.best_epoch)
print([round(float(v), 5) for v in history.history["lr"]])

model = make()
schedule = tf.keras.callbacks.LearningRateScheduler(
    lambda epoch, lr: lr if epoch < 1 else lr * 0.5, verbose=1)
history = model.fit(x, y, epochs=3, batch_size=20, callbacks=[schedule], verbose=0)
print([round(float(v), 5) for v in history.history["lr"]])

model = make()
best = tf.keras.callbacks.ModelCheckpoint("ckpt_{epoch:02d}", monitor="loss",
                                          save_best_only=True, save_weights_only=True,
                                          verbose=1)
model.fit(x, y, epochs=3, batch_size=20, callbacks=[best], verbose=0)
every = tf.keras.callbacks.ModelCheckpoint("weights", save_weights_only=True, verbose=1)
model.fit(x, y, epochs=2, batch_size=20, callbacks=[every], verbose=0)

model = make()
y_bad = y.copy()
y_bad[13] = np.nan
history = model.fit(x, y_bad, epochs=3, batch_size=10,
                    callbacks=[tf.keras.callbacks.TerminateOnNaN()], verbose=0)
print(history.history, history.epoch)


class Recorder(tf.keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        print("train begins", sorted(self.params.items()))

    def on_epoch_end(self, epoch, logs=None):
        print("epoch", epoch, sorted(logs))

    def on_train_batch_end(self, batch, logs=None):
        if batch == 1:
            print("batch", batch, sorted(logs))

    def on_test_end(self, logs=None):
        print("test ends", sorted(logs))


model = make()
model.fit(x, y, epochs=2, batch_size=16, validation_data=(x[:8], y[:8]),
          callbacks=[Recorder()], verbose=0)
model.evaluate(x, y, callbacks=[Recorder()], verbose=0)
lambdas = tf.keras.callbacks.LambdaCallback(
    on_epoch_end=lambda epoch, logs: print("lambda", epoch, round(logs["loss"], 3)))
model.fit(x, y, epochs=2, callbacks=[lambdas], verbose=0)
