"""The order fit, evaluate and predict read their data in: Sequences shuffled each epoch,
datasets that reshuffle each iteration, steps_per_execution groups; model.history after."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(8)
calls = []


class Batches(tf.keras.utils.Sequence):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        calls.append(i)
        return np.full((2, 1), i, "float32"), np.zeros((2, 1), "float32")

    def on_epoch_end(self):
        calls.append("end")


seen = []


class Record(tf.keras.layers.Layer):
    def call(self, x):
        if tf.executing_eagerly():
            seen.append(x[:, 0].numpy().tolist())
        return x


model = tf.keras.Sequential([tf.keras.Input((1,)), Record(), tf.keras.layers.Dense(1)])
model.compile("sgd", "mse", run_eagerly=True)
model.fit(Batches(), epochs=2, verbose=0)
print(calls)
calls.clear()
model.fit(Batches(), epochs=1, verbose=0, shuffle=False)
model.evaluate(Batches(), verbose=0)
print(calls)
seen.clear()

values = np.arange(10, dtype="float32")[:, None]
ds = tf.data.Dataset.from_tensor_slices((values, values)).shuffle(10).batch(5)
model.fit(ds, epochs=2, verbose=0)
print(seen)
seen.clear()
model.evaluate(ds, verbose=0)
model.predict(ds, verbose=0)
print(seen)
print([b[0][:, 0].numpy().tolist() for b in ds])


class Steps(tf.keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        print("train batch", batch, sorted(logs))

    def on_predict_batch_end(self, batch, logs=None):
        print("predict batch", batch, logs["outputs"].shape)


model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
model.compile("sgd", "mse", steps_per_execution=3)
history = model.fit(values, values, batch_size=2, callbacks=[Steps()], verbose=0)
print(int(model.optimizer.iterations.numpy()))
model.predict(values, batch_size=3, callbacks=[Steps()], verbose=0)
print(model.history is history, sorted(history.history))
model.evaluate(values, values, verbose=0)
print(model.history is history, model.history.history)
print(tf.keras.utils.serialize_keras_object({"n": 3, "shape": (1, 2), "f": tf.keras.activations.tanh}))
