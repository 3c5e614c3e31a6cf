"""Customizing what happens in fit(): train_step / test_step overrides."""
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
rng = np.random.RandomState(3)
x = rng.rand(40, 3).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32")) + 0.1


def rounded(logs):
    return {k: round(float(v), 4) for k, v in logs.items()}


class CustomModel(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


inputs = tf.keras.Input(shape=(3,))
outputs = tf.keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
print(type(model).__name__, model.name, model.metrics)
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
print(model.metrics, model.metrics_names)
history = model.fit(x, y, epochs=3, batch_size=10, verbose=0)
print([m.name for m in model.metrics], model.metrics_names)
print(sorted(history.history), len(history.history["loss"]))
print(rounded(model.evaluate(x, y, verbose=0, return_dict=True)))


class LowLevelModel(tf.keras.Model):
    """Does everything by hand: its own loss and metric trackers."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = tf.keras.metrics.Mean(name="loss")
        self.mae_metric = tf.keras.metrics.MeanAbsoluteError(name="mae")

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = tf.keras.losses.mean_squared_error(y, y_pred)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {"loss": self.loss_tracker.result(), "mae": self.mae_metric.result()}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.loss_tracker.update_state(tf.keras.losses.mean_squared_error(y, y_pred))
        self.mae_metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}

    @property
    def metrics(self):
        # Listed here so that fit() and evaluate() reset them at each epoch.
        return [self.loss_tracker, self.mae_metric]


low = LowLevelModel(inputs, tf.keras.layers.Dense(1)(inputs))
low.compile(optimizer=tf.keras.optimizers.SGD(0.05))
print([m.name for m in low.metrics])
history = low.fit(x, y, epochs=2, batch_size=8, verbose=0)
print(sorted(history.history), history.params)
print(int(low.loss_tracker.count) <= 40, low.metrics_names)
result = low.evaluate(x, y, verbose=0)
print(type(result).__name__, len(result))
print(int(low.mae_metric.count))


class WeightedModel(tf.keras.Model):
    """Unpacks optional sample weights and uses compute_loss / compute_metrics."""

    def train_step(self, data):
        x, y, sample_weight = tf.keras.utils.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        self.optimizer.minimize(loss, self.trainable_variables, tape=tape)
        return self.compute_metrics(x, y, y_pred, sample_weight)


inp = tf.keras.Input((3,))
weighted = WeightedModel(inp, tf.keras.layers.Dense(1)(inp))
weighted.compile(optimizer="rmsprop", loss="mse", metrics=["mae"])
sw = np.linspace(0.1, 1.0, 40).astype("float32")
history = weighted.fit(x, y, sample_weight=sw, epochs=2, batch_size=20, verbose=0)
print(sorted(history.history), len(history.epoch))
print(tf.keras.utils.unpack_x_y_sample_weight((1, 2)))
print(tf.keras.utils.unpack_x_y_sample_weight((1,)))
print(tf.keras.utils.unpack_x_y_sample_weight((1, 2, 3)))
print(tf.keras.utils.pack_x_y_sample_weight(1, 2))
print(tf.keras.utils.pack_x_y_sample_weight(1))


class Evaluator(tf.keras.Model):
    """Only test_step overridden: evaluate() uses it, fit() keeps the default step."""

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


ev = Evaluator(inp, tf.keras.layers.Dense(1, kernel_initializer="ones")(inp))
ev.compile(loss="mae", metrics=["mse"])
print(rounded(ev.evaluate(x, y, verbose=0, return_dict=True)))
print([m.name for m in ev.metrics])
