"""The beginner quickstart: Sequential classifier, fit, evaluate, probability model."""
import contextlib
import io
import re

import numpy as np
import tensorflow as tf



def show(fn, *args, **kwargs):
    """Calls `fn`, printing its progress output with timings masked (they vary per run) and
    the bar's redraw codes made visible (their padding depends on the timings' widths)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        result = fn(*args, **kwargs)
    text = re.sub(r"\d+(ms|us|s)\b", "T", buf.getvalue())
    text = re.sub(r"\x08+", "<BS>", text).replace("\r", "<CR>")
    # a redraw of the last step before its final line shows only when the step took longer
    # than the bar's update interval (a busy machine): dropped (the first, 1/1, always shows)
    text = re.sub(r"<CR>([2-9]|\d\d+)/\1 [^<]*- ETA: T[^<]*<BS>", "", text)
    print("\n".join(line.rstrip() for line in text.split("\n")), end="")
    return result


tf.keras.utils.set_random_seed(1)
rng = np.random.RandomState(1)
x_train = rng.rand(64, 6, 6).astype("float32")
y_train = (x_train.mean(axis=(1, 2)) * 10).astype("int64") % 4
x_test = rng.rand(16, 6, 6).astype("float32")
y_test = (x_test.mean(axis=(1, 2)) * 10).astype("int64") % 4
print(x_train.shape, y_train.dtype, x_test.shape)

model = tf.keras.models.Sequential([
    tf.keras.layers.Flatten(input_shape=(6, 6)),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(4),
])
predictions = model(x_train[:1]).numpy()
print(predictions.shape, predictions.dtype)
probs = tf.nn.softmax(predictions)
print(type(probs).__name__, probs.shape, round(float(tf.reduce_sum(probs)), 4))

loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
print(loss_fn.name, loss_fn.reduction)
print(round(float(loss_fn(y_train[:1], predictions)), 1) > 0)

model.compile(optimizer="adam", loss=loss_fn, metrics=["accuracy"])
print(model.optimizer.__class__.__name__, model.loss is loss_fn)
print(model.metrics_names)
history = model.fit(x_train, y_train, epochs=3, batch_size=16, verbose=0)
print(history.params)
print(list(history.history.keys()), history.epoch)
print(len(history.history["loss"]), all(v > 0 for v in history.history["loss"]))

result = model.evaluate(x_test, y_test, verbose=0)
print(type(result).__name__, len(result))
print(model.metrics_names)

probability_model = tf.keras.Sequential([model, tf.keras.layers.Softmax()])
out = probability_model(x_test[:5])
print(type(out).__name__, out.shape, out.dtype)
print(np.allclose(tf.reduce_sum(out, axis=1).numpy(), 1.0, atol=1e-5))
print([layer.name for layer in probability_model.layers])
print(probability_model.output_shape, probability_model.input_shape)
print(len(probability_model.trainable_weights), len(probability_model.weights))
p = probability_model.predict(x_test[:5], verbose=0)
print(type(p).__name__, p.shape, p.dtype)
print(np.argmax(p, axis=1).shape)
probability_model.summary()

# verbose=2 prints one line per epoch; the steps count and metric names matter.
model2 = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,), use_bias=False,
                                                    kernel_initializer="zeros")])
model2.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
xs = np.array([[1., 0., 0.], [0., 1., 0.], [0., 0., 1.], [1., 1., 1.]], "float32")
ys = np.array([[1.], [2.], [3.], [6.]], "float32")
h = show(model2.fit, xs, ys, epochs=2, batch_size=2, verbose=2, shuffle=False)
print({k: [round(v, 4) for v in vals] for k, vals in h.history.items()})
print(show(model2.evaluate, xs, ys, verbose=2))
print(model2.predict(xs, verbose=0).round(4).tolist())
h = show(model2.fit, xs, ys, epochs=1, batch_size=4, verbose=2, validation_data=(xs, ys),
         shuffle=False)
print(sorted(h.history))
# verbose=1 in a non-interactive stream prints the final progress bar of each epoch.
h = show(model2.fit, xs, ys, epochs=2, batch_size=3, verbose=1, shuffle=False)
show(model2.evaluate, xs, ys, batch_size=3, verbose=1)
print(show(model2.predict, xs, verbose=1).shape)
